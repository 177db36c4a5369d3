"""No sequence of requests, however malformed or ill-meant, can corrupt the ledger or crash the server.

Hypothesis sends random requests (any endpoint, bodies from well-formed to garbage, valid, forged or
missing tokens and CSRF headers, with and without the banker's session). After every request the
table held in memory must be exactly the replay of its journal, money must be conserved, and the
answer must be a success or a 4xx with a message.
"""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from fantan_table.rules.bets import all_positions
from fantan_table.table.core.journal import Journal
from fantan_table.table.core.state import TableState
from fantan_table.web.app import CSRF_COOKIE, create_app

from .conftest import PIN, close_context, make_context, player_token

BETS = [str(b) for b in all_positions()] + ["number:9", "side:0-3", "", "corner:", "strong-side:1>1"]
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=8,
)
bodies = st.one_of(
    st.fixed_dictionaries({"bet": st.sampled_from(BETS), "coins": st.integers(-1, 7) | st.just("1")}),
    st.fixed_dictionaries(
        {"action": st.sampled_from(["close", "next", "raid", "resume", "confirm", "reroll", "void", "x"])}
    ),
    st.fixed_dictionaries({"values": st.lists(st.integers(-1, 7), max_size=5) | st.text(max_size=5)}),
    st.fixed_dictionaries({"pin": st.sampled_from([PIN, "0000", ""]) | st.integers()}),
    st.fixed_dictionaries({"player": st.sampled_from(["Ann", "Bob", "Zed", ""]) | json_values}),
    st.fixed_dictionaries({"players": json_values, "starting_dollars": st.integers(-5, 100), "abandon": st.booleans()}),
    json_values,
)
requests = st.tuples(
    st.sampled_from(
        [
            "/api/bets",
            "/api/bets/remove",
            "/api/banker/action",
            "/api/banker/dice",
            "/api/banker/login",
            "/api/banker/logout",
            "/api/banker/game",
            "/api/banker/players/link",
            "/api/banker/players/unlink",
            "/api/sim/press",
            "/api/sim/lift",
            "/api/nowhere",
        ]
    ),
    bodies | st.binary(max_size=20),
    st.sampled_from(["Ann", "Bob", "Cy", "forged", None]),
    st.booleans(),
)


def check_ledger(state_dir: Path, live: TableState) -> None:
    journal = Journal(state_dir)
    replayed = TableState.replay(journal.events())
    journal.close()
    game, again = live.game, replayed.game
    assert again.balances == game.balances and again.round == game.round and replayed.stage is live.stage
    for player in game.players:
        assert again.wagers(player.name) == game.wagers(player.name)
    start = game.config.starting_balance_cents * len(game.players)
    house = sum(r.report.banker_delta_cents for r in live.rounds)
    assert sum(game.balances.values()) == start - house
    assert all(type(v) is int for v in game.balances.values())


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(requests, min_size=1, max_size=25))
def test_no_request_sequence_corrupts_the_ledger(tmp_path_factory, sequence) -> None:
    state_dir = tmp_path_factory.mktemp("fuzz") / "state"
    ctx = make_context(state_dir, runner_devices=False)
    with TestClient(create_app(ctx)) as client:
        client.get("/")
        for path, body, player, with_csrf in sequence:
            headers = {}
            if with_csrf:
                headers["X-CSRF-Token"] = client.cookies.get(CSRF_COOKIE) or ""
            if player is not None:
                headers["X-Player-Token"] = player_token(ctx, player) if player != "forged" else "f" * 32
            content = body if isinstance(body, bytes) else json.dumps(body)
            reply = client.post(path, content=content, headers=headers)
            assert reply.status_code in (200, 400, 401, 403, 404, 409, 429), (path, body, reply.text)
            if reply.status_code != 200:
                assert reply.json()["error"]
            check_ledger(ctx.owner.night.state_dir, ctx.owner.view.state)
    close_context(ctx)
