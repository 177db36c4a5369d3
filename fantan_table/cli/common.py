"""What the sub-commands share: the one error type that becomes exit code 2, and number formatting."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ..table.config import Config
    from ..vision.profile import Profile


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2, and nothing applied."""


def percent(value: Fraction, places: int = 4) -> str:
    """An exact fraction as a percentage rounded half-even to ``places`` decimals: ``161/648`` -> ``"24.8457%"``."""
    scaled = Decimal(value.numerator) * 100 / Decimal(value.denominator)
    return f"{scaled.quantize(Decimal(1).scaleb(-places)):f}%"


def percent_of(rate: float) -> str:
    """A rate from 0 to 1 as a percentage with two decimals: ``0.993`` -> ``"99.30%"``."""
    return f"{100 * rate:.2f}%"


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False))


def load_reader_profile(path: Path | None) -> Profile:
    """The dice reader's profile, or its defaults; a bad profile is a usage error naming the file and key."""
    from ..vision.profile import ProfileError, load_profile  # OpenCV loads only for the commands that read dice

    try:
        return load_profile(path)
    except ProfileError as exc:
        raise UsageError(str(exc)) from None


def load_table_config(path: Path | None, sim: bool = False) -> Config:
    """The table's config: ``path``, else /etc/fantan-table/config.toml when it exists, else the defaults."""
    from ..table.config import DEFAULT_PATH, ConfigFileError, load_config

    if path is None and DEFAULT_PATH.exists():
        path = DEFAULT_PATH
    try:
        return load_config(path, "sim" if sim else None)
    except ConfigFileError as exc:
        raise UsageError(str(exc)) from None
