"""The hand checker: examples, its refusals, and an exhaustive check against hands built independently."""

from __future__ import annotations

from pathlib import Path

import pytest

from fantan_table.rules.tens import CIVIL, KINDS, PairRule, Tile, TileError, check_hand, parse_tile
from fantan_table.rules.tens.hand import LISTED_PAIRS, PAIR_TOTALS, pair_allowed, partition

from . import oracle

DOC = Path(__file__).parents[3] / "docs" / "collecting-tens.md"

COMPLETE_HANDS = {
    (1, PairRule.LISTED): 4_579,
    (1, PairRule.TEN_OR_TWENTY): 28_363,
    (2, PairRule.LISTED): 30_837,
    (2, PairRule.TEN_OR_TWENTY): 191_568,
    (3, PairRule.LISTED): 37_986,
    (3, PairRule.TEN_OR_TWENTY): 232_165,
}
"""Complete hands (multisets of ten tiles) each number of sets can hold, by rule: stated in the docs."""


def tiles(text: str) -> list[Tile]:
    return [parse_tile(t) for t in text.split()]


def test_the_oracle_names_the_same_kinds_and_civil_suit() -> None:
    assert [(k.high, k.low) for k in KINDS] == oracle.ORDER
    assert {(k.high, k.low) for k in CIVIL} == {oracle.kind(f"{a}-{b}") for a, b in oracle.DUPLICATED}


def test_the_listed_pairs_are_the_documents_and_each_totals_ten_or_twenty() -> None:
    listed = {(i, j) for i in range(21) for j in range(i, 21) if pair_allowed(KINDS[i], KINDS[j], PairRule.LISTED)}
    assert listed == oracle.listed_pairs()
    assert len(LISTED_PAIRS) == 14
    assert all(sum(t.pips for t in pair) * (2 if len(pair) == 1 else 1) in PAIR_TOTALS for pair in LISTED_PAIRS)


def test_a_complete_hand_says_how() -> None:
    verdict = check_hand(tiles("6-6 1-1 3-3 6-2 1-1 5-3 4-2 6-6 3-1 2-2"), PairRule.LISTED, sets=1)
    assert verdict.ok and verdict.complete is not None
    assert str(verdict.complete) == "6-6 6-6 | 6-2 1-1 | 5-3 1-1 | 4-2 3-1 | 3-3 2-2"
    assert sorted(verdict.complete.tiles) == sorted(tiles("6-6 1-1 3-3 6-2 1-1 5-3 4-2 6-6 3-1 2-2"))


def test_a_pair_outside_the_list_counts_only_under_ten_or_twenty() -> None:
    hand = tiles("5-1 5-1 6-5 6-3 6-4 5-5 6-1 2-1 6-2 1-1")  # 11+9=20, 10+10=20, 7+3=10, 8+2=10: only 6-2 1-1 listed
    assert not check_hand(hand, PairRule.LISTED, sets=1).ok
    assert check_hand(hand, PairRule.TEN_OR_TWENTY, sets=1).ok


def test_why_not() -> None:
    no_twins = check_hand(tiles("6-6 6-5 6-4 6-3 6-2 6-1 5-5 5-4 5-3 5-2"), PairRule.TEN_OR_TWENTY, sets=1)
    assert no_twins.why_not == "no two identical tiles: a complete hand needs one tile twice"
    unpaired = check_hand(tiles("6-6 6-6 1-1 1-1 6-5 6-3 6-4 5-5 6-1 2-1"), PairRule.LISTED, sets=1)
    assert unpaired.why_not == (
        "setting aside 6-6 6-6 or 1-1 1-1, the other eight tiles do not make four pairs of the listed pairs"
    )


@pytest.mark.parametrize(
    ("text", "sets", "message"),
    [
        ("6-6 6-6 6-2 1-1 5-3 1-1 4-2 3-1 3-3", 1, "a hand is checked with 10 tiles, not 9"),
        ("6-2 6-2 6-6 1-1 5-3 1-1 4-2 3-1 3-3 2-2", 1, "2 x 6-2, but 1 set holds only 1 of it"),
        ("5-5 5-5 5-5 5-5 5-5 6-4 6-4 6-4 6-4 6-6", 2, "5 x 5-5, but 2 sets hold only 4 of it"),
    ],
)
def test_a_hand_no_set_deals_is_refused_not_judged(text: str, sets: int, message: str) -> None:
    with pytest.raises(TileError, match=message):
        check_hand(tiles(text), PairRule.TEN_OR_TWENTY, sets)


def exhaustive(sets: int, rule: PairRule) -> None:
    """Every multiset of ten tiles the sets hold goes through the checker: it accepts exactly the built hands."""
    pairs = oracle.listed_pairs() if rule is PairRule.LISTED else oracle.summing_pairs()
    built = oracle.complete_hands(pairs, sets)
    seen = 0
    accepted = set()
    for hand in oracle.all_hands(sets):
        seen += 1
        if partition(hand, rule) is not None:
            accepted.add(hand)
    assert seen == oracle.multisets_of_ten(sets)
    assert accepted == built
    assert len(built) == COMPLETE_HANDS[sets, rule]
    for counts in built:  # and each partition it gives holds: the twins, four allowed pairs, the ten tiles
        ten = [kind for kind, n in zip(KINDS, counts, strict=True) for _ in range(n)]
        complete = check_hand(ten, rule, sets).complete
        assert complete is not None and sorted(complete.tiles) == sorted(ten)
        assert all(pair_allowed(a, b, rule) for a, b in complete.pairs)


@pytest.mark.parametrize("rule", list(PairRule))
def test_every_hand_of_one_set_against_the_built_hands(rule: PairRule) -> None:
    exhaustive(1, rule)


@pytest.mark.slow
@pytest.mark.parametrize("sets", [2, 3])
@pytest.mark.parametrize("rule", list(PairRule))
def test_every_hand_of_more_sets_against_the_built_hands(sets: int, rule: PairRule) -> None:
    """21,081,400 hands of two sets, 27,733,629 of three: about a minute each on one core."""
    exhaustive(sets, rule)


def test_the_docs_state_the_numbers() -> None:
    text = DOC.read_text()
    for sets in (1, 2, 3):
        listed, summing = (COMPLETE_HANDS[sets, rule] for rule in (PairRule.LISTED, PairRule.TEN_OR_TWENTY))
        row = f"| {sets} | {listed:,} | {summing:,} |"
        assert row in text
