"""What both of the table's pages share: refusals as JSON 4xx, request bodies, pictures and static files."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import cv2
import numpy as np
from fastapi import FastAPI, Request, Response
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

from ..errors import FantanError
from .security import RateLimiter

STATIC = resources.files("fantan_table.web") / "static"
STATIC_KINDS = {".js": "text/javascript", ".css": "text/css"}


class Refusal(FantanError):
    """A request the table refuses: its HTTP status and what to tell the person."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status, self.message = status, message


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
        return error(refusal.status, refusal.message)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        return error(exc.status_code, f"{request.method} {request.url.path}: {exc.detail}")


def serve_static(app: FastAPI) -> None:
    @app.get("/static/{name}")
    async def asset(name: str) -> Response:
        suffix = name[name.rfind(".") :] if "." in name else ""
        if suffix not in STATIC_KINDS or "/" in name or not (STATIC / name).is_file():
            raise Refusal(404, f"no such file {name}")
        return Response((STATIC / name).read_text(encoding="utf-8"), media_type=STATIC_KINDS[suffix])


def static_text(name: str) -> str:
    return (STATIC / name).read_text(encoding="utf-8")


async def json_body(request: Request) -> dict[str, Any]:
    try:
        body = json.loads(await request.body() or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise Refusal(400, "the request body is not valid JSON") from None
    if not isinstance(body, dict):
        raise Refusal(400, "the request body must be a JSON object")
    return body


def jpeg(frame: np.ndarray) -> Response:
    ok, data = cv2.imencode(".jpg", frame, [cv2.IMWRITE_JPEG_QUALITY, 85])
    if not ok:
        raise Refusal(500, "could not encode the picture")
    return Response(data.tobytes(), media_type="image/jpeg", headers={"Cache-Control": "no-store"})
