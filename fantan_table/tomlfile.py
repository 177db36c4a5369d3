"""Reading the project's TOML files (reader profiles, the table's config) with errors that name the file and key.

Both kinds of file are checked the same way: every key is known and typed, and a mistake is
reported as ``FILE: [section] key: what it must be (got ...)`` so that it can be fixed at once.
"""

from __future__ import annotations

import tomllib
from datetime import datetime
from pathlib import Path
from typing import Any

#: The kinds of value a key can take, and how a mistake is explained.
WANTED = {
    int: "a whole number",
    float: "a number",
    str: "a string",
    bool: "true or false",
    datetime: "a date and time with its offset, e.g. 2026-11-22T23:30:00+01:00",
    "pair": "[min, max]",
    "box": "[x0, y0, x1, y1]",
    "size": "[width, height] in whole pixels",
    "strings": 'a list of strings, e.g. ["a", "b"]',
}


def read_toml(path: Path, error: type[Exception], what: str) -> dict[str, Any]:
    """The parsed file, or ``error`` saying why it cannot be read (``what`` names the kind of file)."""
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise error(f"{path}: no such {what}") from None
    except OSError as exc:
        raise error(f"{path}: cannot read it: {exc.strerror}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        raise error(f"{path}: not valid TOML: {exc}") from None


def check(value: Any, kind: Any, where: str, error: type[Exception]) -> Any:
    """``value`` as the kind wants it (ints widen to floats, lists to tuples), or ``error`` naming ``where``."""
    taken = converted(value, kind)
    if taken is None:
        raise error(f"{where}: must be {WANTED[kind]} (got {value!r})")
    return taken


def converted(value: Any, kind: Any) -> Any:
    """``value`` as the kind wants it, or ``None`` when it is not of that kind (TOML has no null)."""
    if kind in (int, bool, str) and type(value) is kind:
        return value
    if kind is float and type(value) in (int, float):
        return float(value)
    if kind is datetime and isinstance(value, datetime) and value.tzinfo is not None:
        return value
    if isinstance(value, list):
        if kind == "pair" and len(value) == 2 and all(type(v) in (int, float) for v in value):
            return (float(value[0]), float(value[1]))
        if kind == "box" and len(value) == 4 and all(type(v) is int for v in value):
            return tuple(value)
        if kind == "size" and len(value) == 2 and all(type(v) is int for v in value):
            return tuple(value)
        if kind == "strings" and all(isinstance(v, str) for v in value):
            return tuple(value)
    return None
