"""What the sub-commands share: the one error type that becomes exit code 2, and number formatting."""

from __future__ import annotations

import json
from decimal import Decimal
from fractions import Fraction
from typing import Any


class UsageError(Exception):
    """Bad input from the user: printed as one line, exit code 2, and nothing applied."""


def percent(value: Fraction, places: int = 4) -> str:
    """An exact fraction as a percentage rounded half-even to ``places`` decimals: ``161/648`` -> ``"24.8457%"``."""
    scaled = Decimal(value.numerator) * 100 / Decimal(value.denominator)
    return f"{scaled.quantize(Decimal(1).scaleb(-places)):f}%"


def print_json(obj: Any) -> None:
    print(json.dumps(obj, ensure_ascii=False))
