import pytest
from hypothesis import given
from hypothesis import strategies as st

from fantan_table.vision.evaluate import (
    EXTRA,
    MISSED,
    ConfidenceTally,
    Outcome,
    PlacedDie,
    judged,
    placed_dice,
    summarise,
    upper_bound,
)


def test_figures_from_handmade_outcomes():
    report = summarise(
        [
            Outcome((1, 2, 3, 4), (4, 3, 2, 1), ok=True, ms=10, dice_found=4, name="a"),  # right
            Outcome((1, 2, 3, 4), (1, 2, 3, 5), ok=True, ms=20, dice_found=4, name="b"),  # wrong while sure
            Outcome((0, 0, 6, 6), (0, 6, 6), ok=False, ms=30, dice_found=3, name="c"),  # unsure, one missed
        ]
    )
    assert report.scenes == 3 and report.dice == 12
    assert report.dice_right == 4 + 3 + 3
    assert report.per_die_accuracy == 10 / 12
    assert report.exact_scene_rate == 1 / 3
    assert report.coverage == 2 / 3
    assert report.wrong_when_ok_rate == 1 / 2 and report.wrong_names == ["b"]
    assert report.count_errors == 1
    assert report.ms_mean == 20
    assert report.confusion[(4, 5)] == 1 and report.confusion[(0, MISSED)] == 1 and report.confusion[(6, 6)] == 2
    table = report.confusion_table()
    assert MISSED in table and EXTRA in table


def test_extra_dice_are_counted():
    report = summarise([Outcome((2,), (2, 5), ok=False, ms=1, dice_found=2)])
    assert report.confusion[(-1, 5)] == 1
    assert report.as_json()["confusion"][0]["truth"] in (2, "extra")


def test_each_die_read_is_judged_on_the_die_it_lies_on():
    truth = [PlacedDie(3, (100.0, 100.0), 40.0), PlacedDie(5, (200.0, 100.0), 40.0)]
    read = [
        PlacedDie(5, (205.0, 96.0)),  # on the 5
        PlacedDie(4, (98.0, 103.0)),  # on the 3, read as a 4
        PlacedDie(3, (115.0, 100.0)),  # on the 3 too, but farther: a side face's box
        PlacedDie(2, (150.0, 160.0)),  # on no die
    ]
    assert judged(read, truth) == [True, False, False, False]
    # half a side from the centre is the farthest a reading may lie
    assert judged([PlacedDie(3, (119.0, 100.0))], truth) == [True]
    assert judged([PlacedDie(3, (121.0, 100.0))], truth) == [False]


def test_confidence_rows_count_the_dice_read_at_least_that_sure():
    tally = ConfidenceTally()
    truth = [PlacedDie(1, (0.0, 0.0), 10.0), PlacedDie(2, (50.0, 0.0), 10.0)]
    tally.add([PlacedDie(1, (0.0, 0.0), confidence=0.995), PlacedDie(6, (50.0, 0.0), confidence=0.95)], truth)
    sure = tally.at_least(0.99)
    assert (sure.dice, sure.right, sure.met) == (1, 1, True)
    fair = tally.at_least(0.9)
    assert (fair.dice, fair.right, fair.met) == (2, 1, False)
    assert str(fair) == "50.00% right (1 wrong of 2)"
    none = tally.at_least(0.9999)
    assert none.met and str(none) == "no dice"  # no die that sure: nothing against the claim


def test_a_report_judges_the_confidence_of_the_dice_of_pictures_read_ok_whose_dice_are_placed():
    truth = placed_dice([((90, 90, 110, 110), 3), ((190, 90, 210, 110), 5), ((300, 300, 304, 304), 1)])
    assert [d.side for d in truth] == [20.0, 20.0, 20.0]  # the half-hidden die's small box takes the roll's side
    read = (PlacedDie(3, (101.0, 99.0), confidence=0.995), PlacedDie(4, (200.0, 100.0), confidence=0.95))
    unsure = (PlacedDie(5, (200.0, 100.0), confidence=0.999),)
    report = summarise(
        [
            Outcome((3, 5, 1), (3, 4), ok=True, ms=1, dice_found=2, placed_read=read, placed_truth=truth),
            Outcome((3, 5, 1), (5,), ok=False, ms=1, dice_found=1, placed_read=unsure, placed_truth=truth),
            Outcome((3,), (3,), ok=True, ms=1, dice_found=1),  # no places: judged as a roll only
        ]
    )
    assert (report.placed, report.placed_ok) == (2, 1)  # an unsure roll's dice are never settled on
    assert [(r.level, r.dice, r.right) for r in report.confidence_rows()] == [(0.5, 2, 1), (0.9, 2, 1), (0.99, 1, 1)]
    confidence = report.as_json()["confidence"]
    assert confidence["pictures_read_ok"] == 1
    assert confidence["rows"][0] == {"at_least": 0.5, "dice": 2, "right": 1, "met": True}
    assert summarise([Outcome((3,), (3,), ok=True, ms=1, dice_found=1)]).as_json()["confidence"] is None


@pytest.mark.parametrize(
    ("failures", "trials", "bound"),
    [  # scipy.stats.beta.ppf(0.95, failures + 1, trials - failures), the same bound by another road
        (1, 630, 0.007507606776494677),
        (2, 64, 0.09512171935033918),
        (7, 68, 0.18467139441973657),
        (5, 10, 0.7775588989918706),
    ],
)
def test_the_upper_bound_is_clopper_pearsons(failures, trials, bound):
    assert upper_bound(failures, trials) == pytest.approx(bound, rel=1e-9)


def test_no_failure_bounds_the_rate_by_the_chance_of_none_at_all():
    assert upper_bound(0, 64) == pytest.approx(0.0457297, abs=1e-7)  # 0 of 64 proves little: under 4.6 %
    assert upper_bound(0, 1000) == pytest.approx(0.0029912, abs=1e-7)
    assert upper_bound(0, 0) == 1.0 and upper_bound(3, 3) == 1.0  # nothing tried, or everything failed: no bound


def test_an_impossible_count_or_confidence_is_refused():
    with pytest.raises(ValueError, match="4 failures in 3 trials"):
        upper_bound(4, 3)
    with pytest.raises(ValueError, match="between 0 and 1"):
        upper_bound(0, 3, confidence=1.0)


def test_the_bound_keeps_its_digits_for_many_trials():
    # -log(0.05) / n, less its square's half: the first two terms of 1 - 0.05**(1/n) for a large n
    n = 10**9
    assert upper_bound(0, n) == pytest.approx(2.995732273553991e-09 - 4.487205e-18, rel=1e-12)


def _at_most(failures: int, trials: int, rate: float) -> float:
    """The binomial chance of at most ``failures``, in exact fractions of the rate given (no logs)."""
    from fractions import Fraction
    from math import comb

    p = Fraction(rate)
    return float(sum(comb(trials, k) * p**k * (1 - p) ** (trials - k) for k in range(failures + 1)))


@given(st.integers(1, 120).flatmap(lambda n: st.tuples(st.integers(0, n - 1), st.just(n))))
def test_as_few_failures_as_seen_are_a_one_in_twenty_chance_at_the_bound(counts):
    failures, trials = counts
    bound = upper_bound(failures, trials)
    assert failures / trials < bound < 1
    assert _at_most(failures, trials, bound) == pytest.approx(0.05, abs=1e-9)
    assert upper_bound(failures + 1, trials) > bound  # one more failure: a higher rate could have given it
    assert upper_bound(failures, trials + 1) < bound  # one more trial, no more failures: a lower one


def test_a_report_says_how_high_its_wrong_when_ok_rate_could_be():
    report = summarise(
        [Outcome((1,), (2,), ok=True, ms=1, dice_found=1, name="a")]
        + [Outcome((1,), (1,), ok=True, ms=1, dice_found=1, name=str(i)) for i in range(99)]
    )
    assert report.wrong_when_ok_rate == 0.01 and report.wrong_when_ok_at_most == upper_bound(1, 100)
    assert report.as_json()["wrong_when_ok_at_most"] == round(upper_bound(1, 100), 6)
    assert report.as_json()["at_most_confidence"] == 0.95
    said = report.wrong_when_ok_evidence()
    assert (
        said == f"1 wrong of 100 read ok; the real rate could be as high as {upper_bound(1, 100):.2%} at 95% confidence"
    )
    assert summarise([Outcome((1,), (), ok=False, ms=1, dice_found=0)]).wrong_when_ok_evidence() == "nothing read ok"
