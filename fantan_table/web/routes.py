"""What a game's own routes need of the page's app: the owner's commands, the state as the page sees it, and who
is asking (the banker's session, a player's link). ``app.py`` makes one and hands it to each game's routes."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from fastapi import Request

from ..table.wiring.night import Night

T = TypeVar("T")


@dataclass(frozen=True)
class Routes:
    command: Callable[[Callable[[Night], Any]], Awaitable[Any]]
    """Have the table's owner do it; a refusal becomes a 4xx naming the rule, a fault a 503."""
    state: Callable[[Request], dict[str, Any]]
    """The state as this request's page sees it (a player's phone: their own hand only)."""
    require_banker: Callable[[Request], None]
    player_of: Callable[[Request], str]
    """The player whose link the request carries (401/403 without a valid one)."""
    known_player: Callable[[Any], str]
    """A player of tonight's game named in a request's body (404 otherwise)."""
