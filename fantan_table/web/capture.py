"""The calibration capture page: from a phone at the table, take a picture of each roll and type its values.

``fantan-table capture rolls DIR --web`` serves it in place of the prompt. The reader's own reading is
offered as the first guess, so a person mostly confirms and only types where the reader was wrong or
unsure — the rolls it gets wrong are the ones calibration most needs. Each saved roll is on disk
(picture, then its line in ``labels.csv``) before the page hears it was saved.

Only someone holding the printed link may use it: the link carries a key, and every API request repeats
it in the ``X-Capture-Key`` header, which a page from another site cannot send.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from fastapi import FastAPI, Request, Response
from fastapi.responses import HTMLResponse

from ..devices.camera import CameraError
from ..vision.annotate import annotate
from ..vision.dataset import DatasetError, RollFolder
from ..vision.reader import Reading
from .http import (
    Guarded,
    Refusal,
    error,
    handle_refusals,
    jpeg,
    json_body,
    over_budget,
    page_route,
    serve_static,
    static_text,
)
from .security import RateLimiter

KEY_HEADER = "x-capture-key"
SHOTS_KEPT = 4
RECENT = 10


@dataclass
class CaptureSession:
    """The pictures waiting for their values, and the folder the labelled ones go to."""

    grab: Callable[[], np.ndarray]
    read: Callable[[np.ndarray], Reading]
    rolls: RollFolder
    dice: int | None = None
    """How many dice a roll holds (the config's [reader] expect): a label of another count is refused."""
    key: str = field(default_factory=lambda: secrets.token_urlsafe(18))
    on_saved: Callable[[str, tuple[int, ...]], None] = lambda name, values: None
    requests: RateLimiter = field(default_factory=lambda: RateLimiter(rate=10, burst=30))
    _shots: OrderedDict[str, tuple[np.ndarray, Reading]] = field(default_factory=OrderedDict)
    _camera: threading.Lock = field(default_factory=threading.Lock)
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def take(self) -> tuple[str, Reading]:
        with self._camera:
            try:
                frame = self.grab()
            except CameraError as exc:
                raise Refusal(503, f"the camera: {exc}") from None
        reading = self.read(frame)
        shot = secrets.token_hex(8)
        with self._lock:
            self._shots[shot] = (frame, reading)
            while len(self._shots) > SHOTS_KEPT:
                self._shots.popitem(last=False)
        return shot, reading

    def shot(self, shot: str) -> tuple[np.ndarray, Reading]:
        with self._lock:
            taken = self._shots.get(shot)
        if taken is None:
            raise Refusal(404, "that picture is no longer kept: take it again")
        return taken

    def save(self, shot: str, values: tuple[int, ...]) -> str:
        """Label a picture once: it leaves the waiting pictures as it is saved, so a double tap saves it once."""
        if self.dice is not None and len(values) != self.dice:
            raise Refusal(
                400, f"a roll is {self.dice} dice ([reader] expect): give one value for each (got {len(values)})"
            )
        with self._lock:
            taken = self._shots.pop(shot, None)
        if taken is None:
            raise Refusal(404, "that picture is no longer kept (already saved?): take it again")
        try:
            name = self.rolls.add(taken[0], values)
        except (DatasetError, OSError) as exc:
            with self._lock:
                self._shots[shot] = taken
            status = 400 if isinstance(exc, DatasetError) else 500
            raise Refusal(status, f"not saved: {exc}") from None
        self.on_saved(name, values)
        return name

    def listing(self) -> dict[str, Any]:
        samples = self.rolls.samples
        return {
            "folder": str(self.rolls.folder),
            "count": len(samples),
            "recent": [{"name": n, "values": list(v)} for n, v in reversed(samples[-RECENT:])],
        }


def create_capture_app(session: CaptureSession) -> FastAPI:
    app = FastAPI(title="fantan-table capture", docs_url=None, redoc_url=None, openapi_url=None)

    @app.middleware("http")
    async def guard(request: Request, call_next: Callable[[Request], Awaitable[Response]]) -> Response:
        if refused := over_budget(request, session.requests):
            return refused
        if request.url.path.startswith("/api/"):
            key = request.headers.get(KEY_HEADER, "")
            if not secrets.compare_digest(key.encode(), session.key.encode()):
                return error(403, "this page needs the link printed by fantan-table capture: open it again")
        return await call_next(request)

    app.add_middleware(Guarded)  # added last, so outermost: its headers go on every answer, the guard's too
    handle_refusals(app)
    serve_static(app)

    @page_route(app)
    async def page() -> Response:
        return HTMLResponse(static_text("capture.html"))

    @app.get("/api/rolls")
    async def rolls() -> dict[str, Any]:
        return session.listing()

    @app.post("/api/shot")
    def take() -> dict[str, Any]:  # a plain def: the camera blocks, so FastAPI runs it on a worker thread
        shot, reading = session.take()
        return {
            "shot": shot,
            "values": list(reading.values),
            "status": reading.status.value,
            "message": reading.message,
        }

    @app.get("/api/shot/{shot}.jpg")
    def picture(shot: str) -> Response:
        frame, reading = session.shot(shot)
        return jpeg(annotate(frame, reading))

    @app.post("/api/rolls")
    async def save(request: Request) -> dict[str, Any]:
        body = await json_body(request)
        shot, values = body.get("shot"), body.get("values")
        if not isinstance(shot, str):
            raise Refusal(400, "shot must name the picture taken (take a picture first)")
        if not isinstance(values, list) or not values or not all(type(v) is int and 0 <= v <= 6 for v in values):
            raise Refusal(400, "values must be each die's face, whole numbers 0 to 6, e.g. [0, 3, 5, 2]")
        name = session.save(shot, tuple(values))
        return {"saved": name, **session.listing()}

    @app.post("/api/rolls/remove")
    async def remove(request: Request) -> dict[str, Any]:
        name = (await json_body(request)).get("name")
        if not isinstance(name, str):
            raise Refusal(400, "name must be a saved roll's picture, e.g. roll_007.jpg")
        try:
            session.rolls.remove(name)
        except DatasetError as exc:
            raise Refusal(404, str(exc)) from None
        return session.listing()

    return app
