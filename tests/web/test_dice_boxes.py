"""The page draws each die as the reader saw it: its rotated box over the round's photo, coloured by its state."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from .test_browser import ARTIFACTS, banker_signed_in, browser, server  # noqa: F401 (the browser and the table)


def test_the_result_shows_each_die_box_as_the_reader_said(server, browser: Browser) -> None:  # noqa: F811
    url, ctx = server
    page = banker_signed_in(browser, url, {"width": 1100, "height": 900})
    page.click('[data-press="no_more_bets"]')
    page.click("#shake")
    page.click("#lift")
    expect(page.locator("#status")).to_contain_text("result", timeout=15_000)
    reading = ctx.owner.view.state.rounds[-1].reading
    assert reading is not None and reading.frame is not None and reading.frame.size is not None
    boxes = page.locator("#result-body svg.boxes rect.die")
    expect(boxes).to_have_count(len(reading.dice))
    expect(page.locator("#result-body svg.boxes rect.die.ok")).to_have_count(len(reading.dice))
    width, height = reading.frame.size
    assert page.get_attribute("#result-body svg.boxes", "viewBox") == f"0 0 {width} {height}"
    drawn = sorted(_numbers(boxes.nth(i).get_attribute("transform")) for i in range(boxes.count()))
    assert drawn == sorted((d.box.angle, *d.box.center) for d in reading.dice)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "result-dice-boxes.png"), full_page=True)  # redrawn on each push


def _numbers(transform: str | None) -> tuple[float, ...]:
    """``rotate(a cx cy)`` as its numbers."""
    assert transform is not None and transform.startswith("rotate(")
    return tuple(float(n) for n in transform.removeprefix("rotate(").removesuffix(")").split())


@pytest.mark.parametrize(("value", "problem", "state"), [(3, None, "ok"), (None, "pips do not form a face", "unsure")])
def test_a_die_that_made_the_reading_unsure_is_drawn_unsure(server, browser: Browser, value, problem, state) -> None:  # noqa: F811
    url, _ = server
    page = browser.new_page()
    page.goto(url)
    die = {"value": value, "center": [50, 40], "box": {"center": [50, 40], "size": [30, 20], "angle": -15}}
    reading = {"frame": {"size": [200, 100]}, "dice": [die | {"confidence": 0.5, "problem": problem}]}
    html = page.evaluate("(reading) => photoWithBoxes(7, reading)", reading)
    assert f'class="die {state}"' in html and 'transform="rotate(-15 50 40)"' in html
    assert (problem or "50% sure") in html
