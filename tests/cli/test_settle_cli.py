import contextlib
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.cli import main

from ..rules.oracle import all_bet_texts, delta_cents


@pytest.fixture
def bets_file(tmp_path):
    def write(data) -> str:
        path = tmp_path / "bets.json"
        path.write_text(data if isinstance(data, str) else json.dumps(data))
        return str(path)

    return write


def settle(capsys, *argv):
    code = main(["settle", *argv])
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def test_settle_json(capsys, bets_file):
    path = bets_file(
        {
            "players": [
                {"name": "Colin", "balance_cents": 5000, "bets": [{"bet": "side:0-1", "coins": 2}]},
                {"name": "Steve", "balance_cents": 5000, "bets": [{"bet": "corner:0", "coins": 3}]},
                {"name": "Dean", "balance_cents": 5000, "bets": []},
            ]
        }
    )
    code, out, _ = settle(capsys, "--bets", path, "--open", "2", "--variants", "corners", "--json")
    assert code == 0
    result = json.loads(out)
    colin, steve, dean = result["players"]
    assert colin["bets"] == [{"bet": "side:0-1", "coins": 2, "outcome": "lost", "delta_cents": -200}]
    assert colin["balance_cents"] == 4800
    assert steve["bets"][0]["delta_cents"] == 99 and steve["balance_cents"] == 5099
    assert dean["delta_cents"] == 0
    assert result["house_delta_cents"] == 101


def test_settle_table(capsys, bets_file):
    path = bets_file({"players": [{"name": "Colin", "balance_cents": 5000, "bets": [{"bet": "number:3", "coins": 1}]}]})
    code, out, _ = settle(capsys, "--bets", path, "--open", "3")
    assert code == 0
    assert "number:3" in out and "won" in out and "+$3.00" in out and "new balance $53.00" in out


@pytest.mark.parametrize(
    "data, message",
    [
        ("{not json", "is not valid JSON"),
        ([], "must be a JSON object"),
        ({"players": []}, "non-empty list"),
        ({"players": [{"name": "C", "balance_cents": 500}]}, "players[0] lacks bets"),
        ({"players": [{"name": "C", "balance_cents": 500, "bets": [], "x": 1}]}, "unknown key(s) x"),
        ({"players": [{"name": "C", "balance_cents": 50.5, "bets": []}]}, "balance_cents must be a whole number"),
        ({"players": [{"name": "C", "balance_cents": 500, "bets": [{"bet": "side:0-3", "coins": 1}]}]}, "not a side"),
        (
            {"players": [{"name": "C", "balance_cents": 500, "bets": [{"bet": "side:0-1", "coins": 0}]}]},
            "coins must be at least 1",
        ),
        ({"players": [{"name": "C", "balance_cents": 500, "bets": [{"bet": "side:0-1", "coins": 6}]}]}, "at most 5"),
        (
            {"players": [{"name": "C", "balance_cents": 200, "bets": [{"bet": "side:0-1", "coins": 3}]}]},
            "more than their balance",
        ),
        (
            {"players": [{"name": "C", "balance_cents": 500, "bets": [{"bet": "corner:1", "coins": 1}]}]},
            "need the variant",
        ),
        (
            {"players": [{"name": "C", "balance_cents": 1, "bets": []}, {"name": "C", "balance_cents": 1, "bets": []}]},
            "appears twice",
        ),
        (
            {
                "players": [
                    {"name": "C", "balance_cents": 1, "bets": []},
                    {"name": "ｃ", "balance_cents": 1, "bets": []},
                ]
            },
            "appears twice",
        ),
        (
            {"players": [{"name": "\x1b[2J", "balance_cents": 1, "bets": []}]},
            "players[0].name: the name '\\x1b[2J' holds U+001B",
        ),
    ],
)
def test_invalid_input_exits_2_with_one_line_and_no_output(capsys, bets_file, data, message):
    code, out, err = settle(capsys, "--bets", bets_file(data), "--open", "1")
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1 and message in err


def test_missing_file_and_bad_flags(capsys, tmp_path):
    code, _, err = settle(capsys, "--bets", str(tmp_path / "nope.json"), "--open", "1")
    assert code == 2 and "cannot read the bets file" in err
    with pytest.raises(SystemExit) as info:
        main(["settle", "--bets", "x.json", "--open", "4"])
    assert info.value.code == 2
    assert "invalid choice" in capsys.readouterr().err
    code, _, err = settle(capsys, "--bets", str(tmp_path / "nope.json"), "--open", "1", "--variants", "corner")
    assert code == 2 and "unknown variant 'corner'" in err


@given(
    st.lists(st.tuples(st.sampled_from(all_bet_texts()), st.integers(1, 2)), max_size=2),
    st.integers(0, 3),
)
def test_settle_agrees_with_the_model(tmp_path_factory, wagers, open_number):
    path = tmp_path_factory.mktemp("s") / "bets.json"
    bets = [{"bet": t, "coins": c} for t, c in wagers]
    path.write_text(json.dumps({"players": [{"name": "P", "balance_cents": 1000, "bets": bets}]}))
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["settle", "--bets", str(path), "--open", str(open_number), "--variants", "all", "--json"]) == 0
    player = json.loads(out.getvalue())["players"][0]
    assert player["delta_cents"] == sum(delta_cents(t, c, open_number) for t, c in wagers)
