"""``fantan-table capture``: take calibration pictures with the table's own camera, guided at the prompt.

    fantan-table capture empty FILE            the empty table
    fantan-table capture rolls DIR             a picture of each roll, and the values you type (labels.csv)
    fantan-table capture rolls DIR --web       the same from a phone: take the picture and type the values there
    fantan-table capture faces DIR --dice suns,moons,crowns,arms [--per-face 3]
                                               each face of each die, one die at a time (DIE_VALUE_N.jpg)

The camera is the one in the table's config (stop the table's service first: it holds the camera).
Type q at any prompt (or Ctrl-C with --web) to stop; what was captured is kept, and capturing rolls
again adds to the set. With simulated hardware the picture is what the step asks for: a new roll of
the config's [camera] sim_dice, the named piecepack die showing the named face, or the empty table.
"""

from __future__ import annotations

import argparse
import signal
import sys
import threading
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import cv2
import numpy as np

from ..errors import FantanError
from ..vision.calibrate import CAPTURE_SUFFIX
from ..vision.dataset import DatasetError, RollFolder
from .common import UsageError, load_reader_profile, load_table_config, output_folder, output_picture

if TYPE_CHECKING:
    from ..devices.camera import Camera
    from ..devices.camera.simulated import SimulatedCamera
    from ..table.wiring.config import Config

FACE_WORDS = {0: "blank (null)", 1: "ace (the suit's symbol)", 2: "2", 3: "3", 4: "4", 5: "5", 6: "6"}


class Stop(FantanError):
    """The person typed q."""


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "capture",
        help="take calibration pictures with the table's camera",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("what", choices=("empty", "rolls", "faces"))
    p.add_argument("out", type=Path, metavar="PATH", help="the picture (empty) or the folder (rolls, faces)")
    p.add_argument("--config", type=Path, metavar="FILE", help="the table's config (default /etc/fantan-table/...)")
    p.add_argument("--dice", default="suns,moons,crowns,arms", help="the dice's names, for faces (default: the suits)")
    p.add_argument("--per-face", type=int, default=3, metavar="N", help="captures of each face (default 3)")
    p.add_argument("--faces", default="0,1,2,3,4,5", help="the values on the dice's faces (default 0,1,2,3,4,5)")
    p.add_argument("--web", action="store_true", help="rolls: serve a page to capture from a phone, not the prompt")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from ..devices.camera import CameraError
    from ..table.wiring.hardware import open_camera

    if args.web and args.what != "rolls":
        raise UsageError("--web is for capturing rolls; empty and faces are captured at the prompt")
    if args.what == "empty":  # checked before the prompt: a name that cannot be written would lose the picture
        output_picture(args.out, "capture empty")
    else:
        output_folder(args.out, f"capture {args.what}")
    config = load_table_config(args.config)
    try:
        camera = open_camera(config)
    except CameraError as exc:
        raise UsageError(f"the camera: {exc}") from None

    def ask(prompt: str) -> str:
        try:
            answer = input(prompt).strip()
        except EOFError:
            raise Stop from None
        if answer.lower() in ("q", "quit"):
            raise Stop
        return answer

    def grab() -> np.ndarray:
        try:
            return _frame(camera)
        except CameraError as exc:
            raise UsageError(f"the camera: {exc}") from None

    from ..devices.camera.simulated import SimulatedCamera

    simulated = camera if isinstance(camera, SimulatedCamera) else None
    try:
        if args.what == "empty":
            ask("Clear the dice area, then press Enter: ")
            _save(args.out, simulated.empty_table() if simulated else grab())
            print(f"saved {args.out}")
        elif args.web:
            _rolls_on_the_web(args.out, config, camera)
        elif args.what == "rolls":
            _rolls(args.out, ask, grab, simulated, config.reader.expect)
        else:
            _faces(args, ask, _face_grabber(simulated, grab))
    except Stop:
        print("stopped; what was captured is kept", file=sys.stderr)
    finally:
        camera.close()
    return 0


def _frame(camera: Camera) -> np.ndarray:
    """A picture of the dice; a simulated camera first rolls new ones and lets them settle."""
    from ..devices.camera.simulated import SimulatedCamera

    return camera.settled_roll() if isinstance(camera, SimulatedCamera) else camera.capture()


def _save(path: Path, frame: np.ndarray) -> None:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        written = cv2.imwrite(str(path), frame)
    except (OSError, cv2.error):
        written = False
    if not written:
        raise UsageError(f"cannot write {path}: give a .jpg or .png name in a writable folder")


def _rolls(
    folder: Path,
    ask: Callable[[str], str],
    grab: Callable[[], np.ndarray],
    simulated: SimulatedCamera | None,
    dice: int,
) -> None:
    """Each roll's picture and the values typed for it: one value for each of the ``dice`` the table shakes (a
    label short of a die would teach calibrate and eval a wrong roll)."""
    rolls = _roll_folder(folder, simulated)
    while True:
        ask("Roll the dice and lift the cup, then press Enter (q to stop): ")
        frame = grab()
        if simulated is not None and simulated.rolled is not None:  # a person at a laptop reads them off the truth
            print(f"(simulated: the dice rolled {' '.join(map(str, simulated.rolled))})")
        while True:
            typed = ask("The dice show (e.g. 0 3 5 2): ")
            try:
                values = tuple(int(v) for v in typed.replace(",", " ").split())
            except ValueError:
                values = ()
            if len(values) == dice and all(0 <= v <= 6 for v in values):
                break
            print(f"a roll is {dice} dice ([reader] expect): type each one's value, 0 to 6, separated by spaces")
        _saved(rolls, rolls.add(frame, values), values)


def _rolls_on_the_web(folder: Path, config: Config, camera: Camera) -> None:
    import qrcode

    from ..vision.reader import read_dice
    from ..web.capture import CaptureSession, create_capture_app
    from ..web.server import WebServer, base_url, listen_on

    rolls = _roll_folder(folder, camera)
    profile = load_reader_profile(Path(config.reader.profile) if config.reader.profile else None)
    session = CaptureSession(
        grab=lambda: _frame(camera),
        read=lambda frame: read_dice(frame, profile, config.reader.expect),
        rolls=rolls,
        dice=config.reader.expect,
        on_saved=lambda name, values: _saved(rolls, name, values),
    )
    listen = listen_on(config)
    server = WebServer(create_capture_app(session), listen)
    try:
        server.start()
    except OSError as exc:
        raise UsageError(f"{exc}; the table's service serves on the same port: stop it first if it runs") from None
    link = f"{base_url(config.web.base_url, listen, server.port)}/#key={session.key}"
    code = qrcode.QRCode(border=1)
    code.add_data(link)
    code.print_ascii(out=sys.stdout, invert=True)
    print(f"open {link}\non a phone at the table (Ctrl-C here to stop)", flush=True)
    stop = threading.Event()
    previous = signal.signal(signal.SIGTERM, lambda *_: stop.set())
    try:
        stop.wait()
    except KeyboardInterrupt:
        pass
    finally:
        signal.signal(signal.SIGTERM, previous)
        server.stop()
    print(f"stopped; {len(rolls.samples)} rolls in {folder}")


def _roll_folder(folder: Path, camera: Camera | None) -> RollFolder:
    """The set rolls are added to; a simulated camera rolls on after the rolls already in it, as dice would."""
    from ..devices.camera.simulated import SimulatedCamera

    try:
        rolls = RollFolder(folder)
    except (DatasetError, OSError) as exc:
        raise UsageError(f"cannot add rolls to {folder}: {exc}") from None
    if isinstance(camera, SimulatedCamera):
        camera.roll_on_after(len(rolls.samples))
    return rolls


def _saved(rolls: RollFolder, name: str, values: tuple[int, ...]) -> None:
    print(f"saved {name}: {' '.join(map(str, values))} ({len(rolls.samples)} rolls)", flush=True)


FaceGrab = Callable[[str, int, int], np.ndarray]
"""A picture of one die (named), showing a value, for its n-th capture."""


def _face_grabber(simulated: SimulatedCamera | None, grab: Callable[[], np.ndarray]) -> FaceGrab:
    """The camera's picture; a simulated camera shows the die and face the step asks for."""
    if simulated is None:
        return lambda die, value, k: grab()
    from ..vision.render import PIECEPACK_SUITS

    camera = simulated

    def simulated_face(die: str, value: int, k: int) -> np.ndarray:
        if die not in PIECEPACK_SUITS or value not in range(6):
            raise UsageError(
                f"the simulated camera shows piecepack dice ({', '.join(PIECEPACK_SUITS)}, faces 0-5): "
                f"it cannot show the {die} die's {value}"
            )
        return camera.one_die(die, value, k)

    return simulated_face


def _faces(args: argparse.Namespace, ask: Callable[[str], str], grab: FaceGrab) -> None:
    dice = [d.strip() for d in args.dice.split(",") if d.strip()]
    try:
        faces = [int(v) for v in args.faces.split(",")]
    except ValueError:
        raise UsageError(f"--faces is values separated by commas, e.g. 0,1,2,3,4,5 (got {args.faces!r})") from None
    if not dice or any(not d.replace("-", "").isalnum() for d in dice):
        raise UsageError(f"--dice is names of letters and digits separated by commas (got {args.dice!r})")
    if not 1 <= args.per_face <= 20:
        raise UsageError("--per-face must be 1 to 20 (2 or more for calibration)")
    for die in dice:
        for value in faces:
            for k in range(1, args.per_face + 1):
                ask(
                    f"The {die} die alone, showing {FACE_WORDS.get(value, value)} ({k}/{args.per_face}; "
                    "turn it a little each time), then press Enter: "
                )
                _save(args.out / f"{die}_{value}_{k}{CAPTURE_SUFFIX}", grab(die, value, k))
    print(f"saved {len(dice) * len(faces) * args.per_face} face pictures in {args.out}")
