"""What the sub-commands share: the one error type that becomes exit code 2, and number formatting."""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..errors import FantanError

if TYPE_CHECKING:
    from ..table.wiring.config import Config
    from ..vision.dataset import Sample
    from ..vision.profile import Profile


class UsageError(FantanError):
    """Bad input from the user: printed as one line, exit code 2, and nothing applied."""


class Refused(FantanError):
    """The command cannot go ahead for a reason outside its input (a damaged night): one line, exit code 1."""


def output_folder(path: Path, option: str) -> Path:
    """``path`` as a folder to write into, made with its parents: a usage error before any work when it cannot be
    (a file is there, a parent is a file, no permission), rather than a traceback after it."""
    if path.exists() and not path.is_dir():
        raise UsageError(f"{option} {path} is a file: give a folder (new or existing) to write into")
    try:
        path.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(
            f"{option} {path}: cannot make that folder ({exc.strerror}); give one you may write in"
        ) from None
    if not os.access(path, os.W_OK | os.X_OK):
        raise UsageError(f"{option} {path}: this user may not write in that folder; give one you may write in")
    return path


@contextmanager
def output_folder_for_work(path: Path, option: str) -> Iterator[Path]:
    """``output_folder``, for a command that works a while before it writes there: the folders it made are taken away
    again, if still empty, when the command stops early (bad input found late, Ctrl-C), so that a failed try leaves
    nothing behind. A folder that was there before is left as it was, empty or not."""
    whole = path.absolute()  # not resolved: "a/../b" makes "a" too, on the way to "b"
    made = [f for f in (whole, *whole.parents) if f.name != ".." and not f.exists()]  # deepest first
    try:
        output_folder(path, option)  # it may make the parents and fail on the last part
        yield path
    except BaseException:
        for folder in made:
            try:
                folder.rmdir()  # only ever an empty one
            except FileNotFoundError:
                continue  # never made: the making failed below it
            except OSError:
                break  # written into after all: it and its parents stay
        raise


def output_picture(path: Path, option: str) -> Path:
    """``path`` as a new picture file, checked before any work (or prompt): a name OpenCV can write, not a folder,
    its folder made; a usage error saying what to give otherwise."""
    import cv2  # OpenCV loads only for the commands that write pictures

    if path.is_dir():
        raise UsageError(f"{option} {path} is a folder: give a picture file's name, e.g. {path / 'empty.jpg'}")
    if not cv2.haveImageWriter(str(path)):
        raise UsageError(f"{option} {path}: not a name OpenCV can write a picture to; give one ending .jpg or .png")
    output_folder(path.parent, option)
    return path


@contextmanager
def state_dir_held(state_dir: Path) -> Iterator[None]:
    """The state directory, locked for this process alone for the block (see :mod:`fantan_table.table.core.lock`)."""
    from ..table.core.lock import StateLock

    lock = StateLock(state_dir)
    try:
        lock.acquire()  # held by another process: StateLocked, a FantanError, exit status 1
    except OSError as exc:
        raise UsageError(f"state directory {state_dir}: {exc}") from None
    try:
        yield
    finally:
        lock.release()


def percent(value: Fraction, places: int = 4) -> str:
    """An exact fraction as a percentage rounded half-even to ``places`` decimals: ``161/648`` -> ``"24.8457%"``."""
    scaled = Decimal(value.numerator) * 100 / Decimal(value.denominator)
    return f"{scaled.quantize(Decimal(1).scaleb(-places)):f}%"


def percent_of(rate: float) -> str:
    """A rate from 0 to 1 as a percentage with two decimals: ``0.993`` -> ``"99.30%"``."""
    return f"{100 * rate:.2f}%"


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False))


MISCOUNTED_NAMED = 5
"""Pictures named in a warning of labels with another number of dice than --expect: the rest are counted."""


def check_miscounted(samples: Sequence[Sample], expect: int | None) -> None:
    """Say on stderr which labels give another number of dice than ``--expect`` (a typing slip at capture, most
    often): the reader is then judged, or tuned, against a roll the table never shakes. Where most do, the set is
    not of such rolls at all, and the work is refused before it begins (a calibration takes minutes)."""
    if not expect:
        return
    odd = [s for s in samples if len(s.values) != expect]
    if not odd:
        return
    named = ", ".join(f"{s.image.name} ({len(s.values)})" for s in odd[:MISCOUNTED_NAMED])
    more = f" and {len(odd) - MISCOUNTED_NAMED} more" if len(odd) > MISCOUNTED_NAMED else ""
    if 2 * len(odd) > len(samples):
        raise UsageError(
            f"{len(odd)} of the {len(samples)} labels in {odd[0].image.parent / 'labels.csv'} give another number of "
            f"dice than --expect {expect}: {named}{more}; if the number of dice varies from roll to roll, give "
            "--expect 0"
        )
    print(
        f"warning: {len(odd)} label(s) in {odd[0].image.parent / 'labels.csv'} give another number of dice than "
        f"--expect {expect}: {named}{more}; correct them unless the picture really shows that many",
        file=sys.stderr,
    )


def load_reader_profile(path: Path | None) -> Profile:
    """The dice reader's profile, or its defaults; a bad profile is a usage error naming the file and key."""
    from ..vision.profile import ProfileError, load_profile  # OpenCV loads only for the commands that read dice

    try:
        return load_profile(path)
    except ProfileError as exc:
        raise UsageError(str(exc)) from None


def load_table_config(path: Path | None, sim: bool = False) -> Config:
    """The table's config: ``path``, else /etc/fantan-table/config.toml when it exists, else the defaults."""
    from ..table.wiring.config import DEFAULT_PATH, ConfigFileError, load_config

    if path is None and DEFAULT_PATH.exists():
        path = DEFAULT_PATH
    try:
        return load_config(path, "sim" if sim else None)
    except ConfigFileError as exc:
        raise UsageError(str(exc)) from None


def unreplayable(state_dir: Path, exc: Exception) -> str:
    """Why a journal that is sound on disk still cannot be replayed into a night, and what to do."""
    return (
        f"the journal in {state_dir} cannot be replayed ({exc}); nothing was changed. See the whole report with "
        f"`fantan-table verify --state {state_dir}`"
    )
