"""A display with no hardware: luma's dummy device keeps the last frame, optionally saved as PNG files."""

from __future__ import annotations

from pathlib import Path

from luma.core.device import dummy
from PIL import Image

from .draw import HEIGHT, WIDTH, draw
from .screens import Blank, Screen


class SimulatedDisplay:
    def __init__(self, frames_dir: str | Path | None = None) -> None:
        self._device = dummy(width=WIDTH, height=HEIGHT, mode="1")
        self._frames_dir = Path(frames_dir) if frames_dir is not None else None
        if self._frames_dir is not None:
            self._frames_dir.mkdir(parents=True, exist_ok=True)
        self.frames = 0
        self.screen: Screen = Blank()
        self._device.display(draw(self.screen))

    @property
    def image(self) -> Image.Image:
        """The panel as it looks now, one bit per pixel."""
        image: Image.Image = self._device.image.copy()
        return image

    def show(self, screen: Screen) -> None:
        self._device.display(draw(screen))
        self.screen = screen
        self.frames += 1
        if self._frames_dir is not None:
            self._device.image.save(self._frames_dir / f"frame_{self.frames:05d}.png")

    def close(self) -> None:
        self.show(Blank())
