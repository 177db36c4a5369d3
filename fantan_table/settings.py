"""Settings declared once: each key of a TOML file is one :class:`Key`, and everything else is made from it.

From one table of keys come the checking of a file (an unknown section or key, a value of the wrong
kind, out of range or not one of the choices is an error naming the file and the key), the values with
their defaults, the example file that documents every key, and the fields of a form that asks for
them. This module imports only :mod:`fantan_table.tomlfile` and :mod:`fantan_table.errors`, so any
layer may declare its keys here.
"""

from __future__ import annotations

import enum
import json
import textwrap
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from .errors import FantanError
from .tomlfile import WANTED, converted, read_toml

COMMENT_WIDTH = 100
"""Comments in a generated example file wrap at this width, like the rest of the repository's text."""


class Unfit(FantanError, ValueError):
    """A value a key does not take; the message says what it must be, and the caller adds where it was."""


class Scope(enum.Flag):
    """Where a key applies: the file read at start, and the banker's new-game form too."""

    FILE = enum.auto()
    NEW_GAME = enum.auto()


@dataclass(frozen=True)
class Key:
    """One setting: where it lives, what it takes, its default, and what it means to a person."""

    section: str
    """The TOML table it is in (``"panel.buttons"``); ``""`` is the top level."""
    name: str
    kind: Any
    """A kind :func:`fantan_table.tomlfile.check` knows: int, float, str, bool, datetime, "size", "strings"..."""
    default: Any
    """The value when the file does not give one; ``None`` when it is decided at start (``text`` says how)."""
    text: str
    """What the key means, for the example file and the form."""
    low: Any = None
    high: Any = None
    """The allowed range (both ends included), for numbers and for each side of a size."""
    choices: tuple[str, ...] = ()
    """The allowed values of a text key, or the words the items of a list key are made of."""
    shown: str = ""
    """The value as the example file writes it when not simply the default (``0x3C``, or a sample value
    written commented out for a key with no fixed default)."""
    scope: Scope = Scope.FILE
    attribute: str = ""
    """The field of the typed settings it fills, when that is not ``name`` (``[dice] size`` -> ``die_size``)."""

    @property
    def label(self) -> str:
        """How messages name the key: ``[camera] kind``, or ``hardware`` at the top level."""
        return f"[{self.section}] {self.name}" if self.section else self.name

    def checked(self, value: Any, where: str, error: type[Exception]) -> Any:
        """``value`` as the key takes it, or ``error`` saying at ``where`` what it must be."""
        try:
            return self.taken(value)
        except Unfit as exc:
            raise error(f"{where}: {exc}") from None

    def taken(self, value: Any) -> Any:
        """``value`` as the key takes it, or :class:`Unfit` saying what it must be (the caller says where)."""
        value_in_kind = converted(value, self.kind)
        if value_in_kind is None:
            raise Unfit(f"must be {WANTED[self.kind]} (got {value!r})")
        if self.choices and self.kind is str and value_in_kind not in self.choices:
            raise Unfit(f"must be one of {', '.join(map(repr, self.choices))} (got {value!r})")
        if self.low is not None and not self._within(value_in_kind):
            raise Unfit(f"out of range, must be {self._span()} (got {value!r})")
        return value_in_kind

    def _within(self, value: Any) -> bool:
        if isinstance(value, tuple):
            return all(low <= v <= high for v, low, high in zip(value, self.low, self.high, strict=True))
        return bool(self.low <= value <= self.high)

    def _span(self) -> str:
        if isinstance(self.low, tuple):
            return f"{'x'.join(map(str, self.low))} to {'x'.join(map(str, self.high))}"
        return f"{self.low} to {self.high}"


def declare(*keys: Key) -> dict[tuple[str, str], Key]:
    """The keys by (section, name), in the order given (which is the example file's order)."""
    table: dict[tuple[str, str], Key] = {}
    for key in keys:
        if (key.section, key.name) in table:
            raise ValueError(f"{key.label} is declared twice")
        table[(key.section, key.name)] = key
    return table


def sections_of(keys: Mapping[tuple[str, str], Key]) -> tuple[str, ...]:
    """The named sections, in order (the top level ``""`` is not one)."""
    return tuple(dict.fromkeys(section for section, _ in keys if section))


def read_settings(
    path: Path, keys: Mapping[tuple[str, str], Key], error: type[Exception], what: str
) -> dict[tuple[str, str], Any]:
    """The values the file gives, by (section, name), each checked; ``what`` names the kind of file."""
    data = read_toml(path, error, what)
    sections = sections_of(keys)
    given: dict[tuple[str, str], Any] = {}

    def walk(section: str, table: dict[str, Any]) -> None:
        for name, value in table.items():
            inner = f"{section}.{name}" if section else name
            if isinstance(value, dict):
                if inner not in sections:
                    raise error(
                        f"{path}: unknown section [{inner}]; sections are {', '.join(f'[{s}]' for s in sections)}"
                    )
                walk(inner, value)
                continue
            key = keys.get((section, name))
            where = f"{path}: {f'[{section}] {name}' if section else name}"
            if key is None:
                takes = ", ".join(k for s, k in keys if s == section) or "no keys: each key is in its [section]"
                raise error(f"{where}: unknown key; {f'[{section}]' if section else 'the top level'} takes {takes}")
            given[(section, name)] = key.checked(value, where, error)

    walk("", data)
    return given


def section_values(
    keys: Mapping[tuple[str, str], Key], given: Mapping[tuple[str, str], Any], section: str
) -> dict[str, Any]:
    """Every key of ``section`` by name: the file's value, else the declared default."""
    return {name: given.get((s, name), key.default) for (s, name), key in keys.items() if s == section}


def toml_value(value: Any) -> str:
    """``value`` written as TOML (the kinds keys take)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, tuple | list):
        return "[" + ", ".join(toml_value(v) for v in value) + "]"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    return repr(value)


def example_file(header: str, section_texts: Mapping[str, str], keys: Mapping[tuple[str, str], Key]) -> str:
    """The example file: every key with its text, set to its default (commented out when it has none)."""
    lines = _comment(header)
    top_level = [""] if any(s == "" for s, _ in keys) else []
    for section in (*top_level, *sections_of(keys)):
        lines.append("")
        if section in section_texts:
            lines += _comment(section_texts[section])
        if section:
            lines.append(f"[{section}]")
        for (s, _), key in keys.items():
            if s != section:
                continue
            lines += _comment(key.text)
            written = key.shown or toml_value(key.default)
            lines.append(f"# {key.name} = {written}" if key.default is None else f"{key.name} = {written}")
    return "\n".join(lines) + "\n"


def values_file(header: str, keys: Mapping[tuple[str, str], Key], values: Mapping[tuple[str, str], Any]) -> str:
    """A file setting ``values`` (a value of ``None`` is left out), section by section in the keys' order."""
    sections: dict[str, list[str]] = {}
    for (section, name), _ in keys.items():
        value = values.get((section, name))
        if value is not None:
            sections.setdefault(section, []).append(f"{name} = {toml_value(value)}")
    body = "\n\n".join(f"[{section}]\n" * bool(section) + "\n".join(lines) for section, lines in sections.items())
    return "\n".join(_comment(header)) + f"\n\n{body}\n"


def _comment(text: str) -> list[str]:
    wrap = textwrap.TextWrapper(COMMENT_WIDTH - len("# "), break_long_words=False, break_on_hyphens=False)
    return [f"# {line}" for paragraph in text.split("\n") for line in wrap.wrap(paragraph)]


#: How a form shows each kind of value.
FORM_KINDS = {int: "whole", float: "number", str: "text", bool: "yes-no", datetime: "date-time", "strings": "texts"}


def in_scope(keys: Mapping[tuple[str, str], Key], scope: Scope) -> list[Key]:
    """The keys that apply in ``scope``, in order."""
    return [key for key in keys.values() if scope in key.scope]


def form_fields(keys: Mapping[tuple[str, str], Key], scope: Scope) -> list[dict[str, Any]]:
    """The keys a form asks for, as JSON: where, kind, default, range, choices and the text to show."""
    return [
        {
            "section": key.section,
            "name": key.name,
            "kind": FORM_KINDS[key.kind],
            "must_be": WANTED[key.kind],
            "default": _json(key.default),
            "low": key.low,
            "high": key.high,
            "choices": list(key.choices),
            "text": key.text,
        }
        for key in in_scope(keys, scope)
    ]


def _json(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.isoformat()
    return list(value) if isinstance(value, tuple) else value
