from fantan_table.vision.evaluate import (
    EXTRA,
    MISSED,
    ConfidenceTally,
    Outcome,
    PlacedDie,
    judged,
    placed_dice,
    summarise,
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
