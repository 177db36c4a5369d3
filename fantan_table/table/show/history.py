"""Rounds past, for people: the scoring table as text or CSV, and each round's record as JSON."""

from __future__ import annotations

import csv
from typing import Any, TextIO

from ...rules.draw import BankDraw
from ...rules.game import RoundReport, ScoringTable
from ...rules.money import format_cents, format_delta
from ...rules.settlement import BetResult
from ..core.codec import frame_to_json, reading_to_json
from ..core.state import RoundRecord

ABSENT = "-"
"""A scoring-table cell of a player not at the table then."""


def scoring_table_text(table: ScoringTable) -> str:
    """The banker's pad: a column per player, one row of totals per round, the start on top; a dash where a
    player was not at the table (not yet come, or gone)."""
    width = max(10, *(len(c) for c in table.columns))
    label = max(7, *(len(name) + 1 for name in table.labels))
    lines = ["round".ljust(label) + "".join(c.rjust(width + 2) for c in table.columns)]
    for name, row in zip(table.labels, table.rows, strict=True):
        cells = (ABSENT if v is None else format_cents(v) for v in row)
        lines.append(name.ljust(label) + "".join(cell.rjust(width + 2) for cell in cells))
    return "\n".join(lines)


def bank_roll_text(draw: BankDraw) -> str:
    """The roll for the first bank in a line: each roll's total, the roll-offs, and who banked."""
    rolls = ", ".join(f"{r.player} {r.total}" + (f" (roll-off {r.go - 1})" if r.go > 1 else "") for r in draw.rolls)
    outcome = f"{draw.winner} banked first" if draw.winner else f"{draw.to_roll} rolls next"
    return f"roll for the bank: {rolls or 'nobody has rolled'}; {outcome}"


def write_scoring_csv(table: ScoringTable, out: TextIO) -> None:
    writer = csv.writer(out)
    writer.writerow(["round", *table.columns])
    for name, row in zip(table.labels, table.rows, strict=True):
        writer.writerow([0 if name == "start" else name, *("" if v is None else f"{v / 100:.2f}" for v in row)])


def round_json(record: RoundRecord) -> dict[str, Any]:
    report, reading = record.report, record.reading
    return {
        "round": report.round,
        "at": record.at.isoformat(),
        "voided": report.voided,
        "dice": list(reading.values) if reading else [],
        "source": reading.source if reading else None,
        "photo": frame_to_json(reading.frame) if reading else None,
        "reading": reading_to_json(reading) if reading else None,
        "open": report.open_number,
        "corrected_from": report.corrected_from,
        "banker": report.banker,
        "bets": {player: [{"bet": b, "coins": c} for b, c in bets] for player, bets in record.bets.items()},
        "players": [
            {
                "player": s.player,
                "delta_cents": delta,
                "balance_before_cents": s.balance_before_cents,
                "balance_after_cents": after,
                "unpaid_cents": s.unpaid_cents,
                "results": [_result_json(r) for r in s.results],
            }
            for s in report.players
            for delta, after in [report.net(s)]
        ],
        "banker_delta_cents": report.banker_delta_cents,
        "bank_after_cents": report.bank_after_cents,
        "bank_short": bank_short_text(report) if report.bank_short else None,
    }


def round_text(record: RoundRecord) -> str:
    data = round_json(record)
    head = f"round {data['round']}: " + (
        "void" if data["voided"] else f"dice {' '.join(map(str, data['dice']))} -> open {data['open']}"
    )
    if data["corrected_from"] is not None:
        head += f" (a correction: it had been settled on open {data['corrected_from']}; {data['reading']['message']})"
    elif data["source"] == "hand":
        head += " (entered by hand)"
    parts = [
        f"{p['player']} {format_delta(p['delta_cents'])} = {format_cents(p['balance_after_cents'])}"
        + (f" [{', '.join(_bet_text(r) for r in p['results'])}]" if p["results"] else "")
        + (f" ({format_cents(p['unpaid_cents'])} unpaid)" if p["unpaid_cents"] else "")
        for p in data["players"]
    ]
    photo = data["photo"]["file"] if data["photo"] else None
    return (
        head
        + "; "
        + ", ".join(parts)
        + (f"; {data['bank_short']}" if data["bank_short"] else "")
        + (f"; photo {photo}" if photo else "")
    )


def _result_json(result: BetResult) -> dict[str, Any]:
    bet = result.wager
    return {"bet": str(bet.bet), "coins": bet.coins, "outcome": result.outcome.value, "cents": result.delta_cents}


def _bet_text(result: dict[str, Any]) -> str:
    """One bet's line in the history: '2 on number:1 won $6.00', '1 on side:0-1 lost $1.00', '1 on ... money back'.
    The word says which way the money went, so the amount carries no sign."""
    amount = f" {format_cents(abs(result['cents']))}" if result["cents"] else ""
    return f"{result['coins']} on {result['bet']} {result['outcome']}{amount}"


def bank_short_text(report: RoundReport) -> str:
    """What a bank that held too little did, in words for the page and the history."""
    if report.unpaid_cents:
        return f"the bank paid all it held and is bankrupt: {format_cents(report.unpaid_cents)} of wins went unpaid"
    return f"the bank paid every win and is bankrupt: it owes {format_cents(-(report.bank_after_cents or 0))}"
