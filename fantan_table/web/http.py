"""What both of the table's pages share: refusals as JSON 4xx, request bodies, headers, pictures and static files.

Nothing a client sends is read unbounded: a body is refused with 413 from its declared length before a
byte of it is read, and one sent without a length stops being read at :data:`MAX_JSON_BYTES`. Every
answer carries headers that keep the page out of frames and other sites' reach, and no answer names a
file or folder of the server.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
from collections.abc import Callable
from importlib import resources
from typing import Any

import cv2
import numpy as np
from fastapi import FastAPI, Request, Response
from fastapi.exceptions import RequestValidationError
from fastapi.responses import HTMLResponse, JSONResponse
from fastapi.types import DecoratedCallable
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from ..errors import FantanError
from .security import RateLimiter

STATIC = resources.files("fantan_table.web") / "static"
STATIC_KINDS = {".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml"}
MAX_JSON_BYTES = 16 * 1024
"""A request body, at most: the largest the page sends (the new-game form) is well under 2 KB."""
BODY_SECONDS = 10.0
"""Time for a request's body to arrive once its head has: a client that dribbles it holds a connection."""
CONTENT_SECURITY_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
"""The page's own files only: no inline script, nothing from elsewhere, never inside another site's frame."""
SECURITY_HEADERS = (
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
)
BODY_UNREAD = (408, 413)
"""Refusals that leave a body unread: the connection is closed after them, so the rest is never read either."""
log = logging.getLogger(__name__)


class Refusal(FantanError):
    """A request the table refuses: its HTTP status and what to tell the person."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


SERVER_PATH = re.compile(r"/(?:[\w.\-]+/)+[\w.\-]*")
"""A file or folder of the server, as an error message may name it (two slashes at least: '/tmp/x', not '1/2')."""


def without_paths(message: str) -> str:
    """``message`` with the server's files and folders left out: a phone has no business knowing them."""
    return SERVER_PATH.sub("(a file of the table)", message)


def error(status: int, message: str) -> JSONResponse:
    return JSONResponse({"error": message}, status_code=status)


def over_budget(request: Request, limiter: RateLimiter) -> JSONResponse | None:
    """The refusal for a client that has spent its request budget, or ``None`` to go on."""
    client = request.client.host if request.client else "?"
    if limiter.allow(client):
        return None
    return error(429, "too many requests from this address: wait a moment")


def handle_refusals(app: FastAPI) -> None:
    """Every refusal and every unknown route answers ``{"error": ...}``, which the pages show as it is."""

    @app.exception_handler(Refusal)
    async def refused(request: Request, refusal: Refusal) -> Response:
        response = error(refusal.status, refusal.message)
        if refusal.status in BODY_UNREAD:
            response.headers["connection"] = "close"
        return response

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, exc: RequestValidationError) -> Response:
        return error(400, f"{request.method} {request.url.path}: not a request this page takes")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return error(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")

    @app.exception_handler(Exception)
    async def failed(request: Request, exc: Exception) -> Response:
        # the details go to the table's log, never to the phone: a traceback names the server's files
        log.error("%s %s failed", request.method, request.url.path, exc_info=exc)
        response = error(500, "the table could not answer that: the banker can find why in the table's log")
        # answered by Starlette's outermost error layer, outside :class:`Guarded`: the headers are set here
        for name, value in (*SECURITY_HEADERS, (b"cache-control", b"no-store")):
            response.headers[name.decode()] = value.decode()
        return response


class Guarded:
    """ASGI middleware: a body longer than ``limit`` is refused from its declared length, and every answer
    gets :data:`SECURITY_HEADERS` and, unless it says otherwise, ``Cache-Control: no-store`` (a phone
    passed round the table keeps no one's private page)."""

    def __init__(self, app: ASGIApp, limit: int = MAX_JSON_BYTES) -> None:
        self.app, self.limit = app, limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.limit):
            too_big = error(413, f"the request body is larger than {self.limit // 1024} KB: nothing was read")
            too_big.headers["connection"] = "close"
            await too_big(scope, receive, self._with_headers(send))
            return
        await self.app(scope, receive, self._with_headers(send))

    @staticmethod
    def _with_headers(send: Send) -> Send:
        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                names = {name.lower() for name, _ in headers}
                headers += [(name, value) for name, value in SECURITY_HEADERS if name not in names]
                if b"cache-control" not in names:
                    headers.append((b"cache-control", b"no-store"))
                message = {**message, "headers": headers}
            await send(message)

        return send_with_headers


def page_route(app: FastAPI) -> Callable[[DecoratedCallable], DecoratedCallable]:
    """The route of the page at ``/``: it answers HEAD as well as GET (a link preview or an uptime check asks for the
    headers alone), and it is left out of the API description, where its two methods would be one operation
    described twice (FastAPI warns of that)."""
    return app.api_route("/", methods=["GET", "HEAD"], response_class=HTMLResponse, include_in_schema=False)


def serve_static(app: FastAPI) -> None:
    @app.get("/static/{name}")
    async def asset(name: str) -> Response:
        suffix = name[name.rfind(".") :] if "." in name else ""
        if suffix not in STATIC_KINDS or "/" in name or not (STATIC / name).is_file():
            raise Refusal(404, f"no such file {name}")
        return Response(
            (STATIC / name).read_text(encoding="utf-8"),
            media_type=STATIC_KINDS[suffix],
            headers={"Cache-Control": "no-cache"},  # the page's own code: kept, but checked for a newer one
        )


def static_text(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


async def json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object, read to at most :data:`MAX_JSON_BYTES` within :data:`BODY_SECONDS`."""
    raw = bytearray()
    try:
        async with asyncio.timeout(BODY_SECONDS):
            async for chunk in request.stream():
                raw += chunk
                if len(raw) > MAX_JSON_BYTES:
                    raise Refusal(413, f"the request body is larger than {MAX_JSON_BYTES // 1024} KB")
    except TimeoutError:
        raise Refusal(408, f"the request body did not arrive within {BODY_SECONDS:g} s") from None
    try:
        body = json.loads(bytes(raw) or b"{}")
    except (ValueError, UnicodeDecodeError, RecursionError):  # RecursionError: arrays nested thousands deep
        raise Refusal(400, "the request body is not valid JSON (or is nested too deep)") from None
    if not isinstance(body, dict):
        raise Refusal(400, "the request body must be a JSON object")
    return body


def jpeg(frame: np.ndarray) -> Response:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise Refusal(500, "could not encode the picture")
    return Response(data.tobytes(), media_type="image/jpeg", headers={"Cache-Control": "no-store"})
