from fantan_table.vision.evaluate import EXTRA, MISSED, Outcome, summarise


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
