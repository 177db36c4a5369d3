"""``fantan-table calibrate``: tune a reader profile to this table from labelled pictures, learn dice faces
without pips, and measure the result on pictures kept aside.

    fantan-table calibrate --images DIR [--empty FILE] [--faces DIR] --out PROFILE_DIR [--json]

DIR holds labels.csv as for ``eval``; every fourth picture is kept aside for the measurement, and a fourth of the
rest checks the search: a change is kept only if it costs those less than it gains on the rest, and no more
than one picture can. --faces holds captures of each face of each die, one die per picture, named
DIE_VALUE_N.png (suns_0_1.png is the suns die's blank face, first capture). The profile, the learned faces,
a copy of the empty table, and a report (report.html with confusion.png and a picture of every mistake) go to
PROFILE_DIR.

A profile whose held-aside pictures read below FIT_EXACT exact, or that reads any held-aside or check picture
wrong while sure, is not fit for play: the command says why and exits 1 (the profile and report are written
all the same, to look at), unless --force.
"""

from __future__ import annotations

import argparse
import html
import json
import shutil
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from tqdm import tqdm

from ..devices.camera import CameraError
from ..devices.camera.folder import read_picture
from ..vision.annotate import annotate
from ..vision.calibrate import MIN_PICTURES, CalibrationError, Picture, Result, calibrate, learn_faces
from ..vision.dataset import DatasetError, read_labels
from ..vision.evaluate import BOUND_CONFIDENCE, MISSED, Report
from ..vision.profile import LEARNED, Profile, save_profile
from ..vision.reader import NO_FACE, ON_PRINT, PLAIN_DOUBT, Reading, Status, read_dice
from .common import UsageError, check_miscounted, load_reader_profile, output_folder_for_work, percent_of, print_json

FIT_EXACT = 0.95
"""Held-aside scenes read exactly, at least, for a profile fit for play: below it the table asks for a re-roll
every few rounds (a roll the reader doubts is never settled, but a night of re-rolls is no night)."""
UNFIT_STATUS = 1


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        "calibrate",
        help="tune the dice reader to this table",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("--images", type=Path, required=True, metavar="DIR", help="labelled pictures of rolls")
    p.add_argument("--empty", type=Path, metavar="FILE", help="a picture of the empty table")
    p.add_argument("--faces", type=Path, metavar="DIR", help="captures of each face of each die (DIE_VALUE_N.png)")
    p.add_argument("--out", type=Path, required=True, metavar="PROFILE_DIR", help="where the profile goes")
    p.add_argument("--from", dest="start", type=Path, metavar="P", help="the profile to start from (default: built-in)")
    p.add_argument(
        "--expect",
        type=int,
        default=4,
        metavar="N",
        help="dice in each roll (default 4; 0: it varies from roll to roll)",
    )
    p.add_argument("--json", action="store_true", help="the figures as one JSON object")
    p.add_argument("--force", action="store_true", help="exit 0 even when the profile is not fit for play")
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    if args.expect < 0:
        raise UsageError(f"--expect {args.expect}: give the number of dice in each roll, or 0 if it varies")
    with output_folder_for_work(args.out, "--out"):  # before the work: it must not be lost at the end
        return _calibrate(args)


def _calibrate(args: argparse.Namespace) -> int:
    profile = load_reader_profile(args.start)
    try:
        samples = read_labels(args.images)
    except DatasetError as exc:
        raise UsageError(str(exc)) from None
    check_miscounted(samples, args.expect)
    if args.empty is not None:
        try:  # read_picture, not cv2.imread: OpenCV would print its own warning above ours for a missing file
            empty = read_picture(args.empty)
        except CameraError as exc:
            raise UsageError(f"--empty: {exc}; capture the table with nothing on it (capture empty FILE)") from None
        _refuse_dice_on(empty, profile, args.empty)
        profile = profile.with_empty(empty)
    quiet = args.json or None
    pictures = []
    for sample in tqdm(samples, desc="loading", unit="picture", file=sys.stderr, disable=quiet):
        try:
            frame = read_picture(sample.image)
        except CameraError as exc:
            raise UsageError(str(exc)) from None
        if profile.empty is not None and profile.empty.shape != frame.shape:
            raise UsageError(
                f"--empty is {profile.empty.shape[1]}x{profile.empty.shape[0]} but {sample.image.name} "
                f"is {frame.shape[1]}x{frame.shape[0]}: capture both with the same camera settings"
            )
        pictures.append(Picture(sample.image.name, frame, sample.values))
    try:
        if args.faces is not None:
            if not args.faces.is_dir():
                raise UsageError(f"--faces {args.faces}: no such folder")
            captures = [p for p in args.faces.iterdir() if p.suffix.lower() in (".png", ".jpg", ".jpeg")]
            profile = replace(profile, faces=learn_faces(captures, profile))
        with tqdm(desc="tuning", unit="parameter", file=sys.stderr, disable=quiet) as bar:

            def step(what: str) -> None:
                bar.set_postfix_str(what)
                bar.update()

            result = calibrate(pictures, profile, args.expect or None, step)
    except CalibrationError as exc:
        raise UsageError(str(exc)) from None
    unfit = unfit_for_play(result.holdout, result.check[1])
    summary = _write(result, args, unfit)
    left = summary["not_used"]
    if args.json:
        print_json(summary)
    else:
        h = result.holdout
        print(f"profile written to {args.out / 'profile.toml'} (report: {args.out / 'report.html'})")
        print(
            f"held-aside pictures: {h.scenes}; exact scenes {percent_of(h.exact_scene_rate)}, per die "
            f"{percent_of(h.per_die_accuracy)}, wrong when sure {percent_of(h.wrong_when_ok_rate)} "
            f"({h.wrong_when_ok_evidence('read sure')}), "
            f"{h.ms_mean:.1f} ms a frame"
        )
        print("changed: " + ("; ".join(result.changes) or "nothing (the starting profile was best)"))
        print(_check_line(result))
        print(f"{result.evaluations} trials in {result.seconds:.0f} s")
        if left:
            print(
                f"in {args.out} but not read by this profile: {', '.join(left)}; remove them (an empty table "
                "can be given again with --empty)"
            )
        if unfit:
            print(
                "NOT FIT FOR PLAY: " + "; ".join(unfit) + ". Capture more rolls (and faces) at the table, check "
                "its light, and calibrate again; --force to accept it anyway",
                file=sys.stderr,
            )
    return UNFIT_STATUS if unfit and not args.force else 0


def unfit_for_play(holdout: Report, checked: Report) -> list[str]:
    """Why a profile is not fit for play, by its held-aside measurement and its reading of the pictures that
    checked the search (empty: fit). The check may keep a change that reads one of those sure and wrong (it
    weighs that against what the change gains), but a profile known to read a roll of this table so is unsafe."""
    reasons = []
    if holdout.scenes == 0:
        reasons.append(f"no picture was kept aside to measure it on (give at least {MIN_PICTURES} rolls)")
    elif holdout.exact_scene_rate < FIT_EXACT:
        reasons.append(
            f"{percent_of(holdout.exact_scene_rate)} of the held-aside rolls read exactly (needs {FIT_EXACT:.0%})"
        )
    if holdout.wrong_when_ok_rate > 0:
        reasons.append(
            f"{percent_of(holdout.wrong_when_ok_rate)} of the rolls it was sure of were read wrong (needs none)"
        )
    if checked.wrong_when_ok:
        reasons.append(
            f"{checked.wrong_when_ok} of the {checked.scenes} rolls that checked the search were read wrong while "
            "sure (needs none)"
        )
    return reasons


def _check_line(result: Result) -> str:
    before, tuned = result.check
    line = (
        f"on the {before.scenes} pictures that checked the search, the tuned profile read "
        f"{percent_of(tuned.exact_scene_rate)} exactly ({tuned.wrong_when_ok} wrong when sure), the starting one "
        f"{percent_of(before.exact_scene_rate)} ({before.wrong_when_ok} wrong when sure)"
    )
    if result.refused:
        line += (
            "; refused, as they cost these as much as they gained on the tuning pictures, or more than one picture "
            "can (alone or with the changes kept before them): " + "; ".join(result.refused)
        )
    return line


def _summary(result: Result, args: argparse.Namespace) -> dict[str, object]:
    before, tuned = result.check
    check = {"start": before.as_json(), "tuned": tuned.as_json(), "refused": result.refused}
    return {
        "profile": str(args.out / "profile.toml"),
        "train": result.train.as_json(),
        "check": check,
        "holdout": result.holdout.as_json(),
        "changes": result.changes,
        "learned_faces": len(result.profile.faces.names) if result.profile.faces is not None else 0,
        "trials": result.evaluations,
        "seconds": round(result.seconds, 1),
    }


def _refuse_dice_on(empty: np.ndarray, profile: Profile, path: Path) -> None:
    """Stop before the work if the empty table's picture shows dice with marks on them (a roll given for it): every
    die would then be read against them, and the face captures blamed for it. Plain boxes are left out: a coin or a
    patch of the table's print may look like a blank die, and an empty table may hold those."""
    marked = [d for d in read_dice(empty, profile).dice if d.value != 0 and d.problem not in PLAIN_PROBLEMS]
    if marked:
        where = ", ".join(f"({d.center[0]:.0f}, {d.center[1]:.0f})" for d in marked)
        raise UsageError(
            f"--empty {path}: it shows {len(marked)} dice, at {where}; capture the table with nothing on it "
            "(capture empty FILE)"
        )


def _write(result: Result, args: argparse.Namespace, unfit: list[str]) -> dict[str, Any]:
    """Write the profile and its report into ``--out``; returns the summary ``report.json`` holds (what ``--json``
    prints). Its ``not_used`` names the files an earlier calibration left there that the new profile does not name
    (they are kept: one may be the picture another calibration is given)."""
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    empty_name = faces_name = classifier_name = None
    if args.empty is not None:
        empty_name = EMPTY_STEM + args.empty.suffix.lower()
        copy = out / empty_name
        if not (copy.exists() and copy.samefile(args.empty)):  # recalibrating in place with the copy already there
            shutil.copyfile(args.empty, copy)
    elif result.profile.empty is not None:  # the --from profile's, which every figure was measured with
        empty_name = FROM_EMPTY
        cv2.imwrite(str(out / empty_name), result.profile.empty)
    if result.profile.faces is not None:
        faces_name = FACES_FILE
        result.profile.faces.save(out / faces_name)
    if result.profile.classifier is not None:  # the --from profile's own faces classifier, kept as it was read with
        classifier_name = FROM_CLASSIFIER
        result.profile.classifier.save(out / classifier_name)
    written = save_profile(result.profile, out, empty_name, faces_name, classifier_name)
    _say_which_finder_reads(written, result.profile)
    cv2.imwrite(str(out / "confusion.png"), _confusion_picture(result.holdout))
    mistakes = out / "mistakes"
    shutil.rmtree(mistakes, ignore_errors=True)
    mistakes.mkdir()
    for picture, reading in result.mistakes:
        cv2.imwrite(str(mistakes / (Path(picture.name).stem + ".jpg")), annotate(picture.frame, reading))
    named = {empty_name, faces_name, classifier_name}
    left = sorted(p.name for p in out.iterdir() if _profile_file(p.name) and p.name not in named)
    summary = _summary(result, args) | {"fit_for_play": not unfit, "unfit_because": unfit, "not_used": left}
    (out / "report.json").write_text(json.dumps(summary, indent=2, ensure_ascii=False), encoding="utf-8")
    (out / "report.html").write_text(_html(result, unfit), encoding="utf-8")
    return summary


def _profile_file(name: str) -> bool:
    """Whether a file of this name is one a calibration writes for its profile to name."""
    return name in (FACES_FILE, FROM_CLASSIFIER) or (Path(name).stem == EMPTY_STEM and Path(name).suffix != "")


PLAIN_PROBLEMS = (PLAIN_DOUBT, ON_PRINT, NO_FACE)
"""Why the reader leaves a box unread that shows no marks: a plain patch, which an empty table may show."""
FACES_FILE = "faces.npz"
"""The learned faces (``[faces] model``) of a profile calibrated with ``--faces``."""
EMPTY_STEM = "empty"
"""The name of the copy of the empty table beside a profile, before its suffix (the picture's own kind)."""
FROM_EMPTY = EMPTY_STEM + ".png"
"""The empty table of the ``--from`` profile, written again beside the new one (lossless: it is already decoded)."""
FROM_CLASSIFIER = "classifier.npz"
"""The ``--from`` profile's faces classifier (``[faces] classifier``), written again beside the new one."""

OUTLINES_READ_LEARNED_FACES = (
    "# Not used while this profile has learned faces ([faces] model): they were learned in the outlines' boxes, so\n"
    '# the reader finds the dice by their outlines (as with finder = "shapes"), by the [table] and [dice] thresholds.\n'
)


def _say_which_finder_reads(written: Path, profile: Profile) -> None:
    """A comment above ``finder = "learned"`` in a profile with learned faces: the reader then uses the outlines'
    boxes whatever the key says (reader._by_network), and the file should not tell its reader otherwise."""
    if profile.faces is None or profile.finder != LEARNED:
        return
    text = written.read_text(encoding="utf-8")
    key = f'finder = "{LEARNED}"\n'
    written.write_text(text.replace(key, OUTLINES_READ_LEARNED_FACES + key, 1), encoding="utf-8")


def _confusion_picture(report: Report) -> np.ndarray:
    """True values down, values read across (then 'missed'); darker cells hold more dice."""
    values = sorted(
        {t for t, _ in report.confusion if t != -1} | {r for _, r in report.confusion if isinstance(r, int)}
    )
    columns: list[int | str] = [*values, MISSED]
    cell, margin = 48, 70
    image = np.full((margin + cell * len(values), margin + cell * len(columns), 3), 255, np.uint8)
    top = max([1, *report.confusion.values()])
    for i, truth in enumerate(values):
        cv2.putText(image, str(truth), (30, margin + i * cell + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 0), 2)
        for j, read in enumerate(columns):
            n = report.confusion.get((truth, read), 0)
            x, y = margin + j * cell, margin + i * cell
            shade = int(255 - 200 * n / top)
            colour = (shade, shade, 255) if n and read != truth else (shade, 255, shade) if n else (250, 250, 250)
            cv2.rectangle(image, (x, y), (x + cell - 2, y + cell - 2), colour, -1)
            if n:
                cv2.putText(image, str(n), (x + 6, y + 30), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1)
    for j, read in enumerate(columns):
        label = str(read) if read != MISSED else "miss"
        cv2.putText(image, label, (margin + j * cell + 4, 45), cv2.FONT_HERSHEY_SIMPLEX, 0.55, (0, 0, 0), 1)
    cv2.putText(image, "true \\ read", (4, 20), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 1)
    return image


def _read_as(reading: Reading) -> str:
    """A mistake's reading as its caption says it: read sure and wrong is the one that costs money."""
    if reading.status is Status.OK:  # never of no dice: a roll with none found is unsure
        return f"read {' '.join(map(str, reading.values))} sure: WRONG"
    return f"{reading.status.value}: {reading.message}"


def _html(result: Result, unfit: list[str]) -> str:
    h, t = result.holdout, result.train
    rows = "".join(
        f"<tr><td>{html.escape(label)}</td><td>{percent_of(getattr(t, key))}</td>"
        f"<td>{percent_of(getattr(h, key))}</td></tr>"
        for label, key in (
            ("exact scenes", "exact_scene_rate"),
            ("per die", "per_die_accuracy"),
            ("read (ok)", "coverage"),
            ("wrong when sure", "wrong_when_ok_rate"),
        )
    )
    # the bound holds for the rolls kept aside only: the profile was chosen for fewer mistakes on those tuned on
    rows += (
        f"<tr><td>wrong when sure: as high as the real rate could be ({BOUND_CONFIDENCE:.0%} confidence)</td>"
        f"<td>-</td><td>{percent_of(h.wrong_when_ok_at_most) if h.ok else 'nothing read sure'}</td></tr>"
    )
    mistakes = "".join(
        f'<figure><img src="mistakes/{html.escape(Path(p.name).stem)}.jpg" width="480">'
        f"<figcaption>{html.escape(p.name)}: rolled {' '.join(map(str, p.values))}; {html.escape(_read_as(r))}"
        "</figcaption></figure>"
        for p, r in result.mistakes
    )
    changes = "".join(f"<li>{html.escape(c)}</li>" for c in result.changes) or "<li>nothing</li>"
    check = f"<p>{html.escape(_check_line(result))}.</p>"
    checking = result.check[0].scenes
    return f"""<!doctype html><html lang="en"><meta charset="utf-8"><title>Calibration report</title>
<style>body{{font-family:system-ui,sans-serif;max-width:60rem;margin:auto;padding:1rem}}
td,th{{padding:.2rem .6rem;text-align:right}} figure{{display:inline-block;margin:.5rem}}</style>
<h1>Calibration report</h1>
{_verdict(unfit)}
<p>{t.scenes} pictures tuned on, {checking} checking the search, {h.scenes} kept aside;
{result.evaluations} trials in {result.seconds:.0f} s; {h.ms_mean:.1f} ms a frame (p95 {h.ms_p95:.1f} ms).</p>
<table><tr><th></th><th>tuned on</th><th>kept aside</th></tr>{rows}</table>
<h2>What changed</h2><ul>{changes}</ul>{check}
<h2>Confusion on the pictures kept aside</h2><img src="confusion.png" alt="confusion matrix">
<h2>Every mistake ({len(result.mistakes)})</h2>{mistakes or "<p>none</p>"}
</html>
"""


def _verdict(unfit: list[str]) -> str:
    if not unfit:
        return '<p style="background:#dfd;padding:.5rem">Fit for play on the pictures kept aside.</p>'
    why = "".join(f"<li>{html.escape(reason)}</li>" for reason in unfit)
    return (
        '<div style="background:#fdd;padding:.5rem"><strong>Not fit for play:</strong>'
        f"<ul>{why}</ul>Capture more rolls (and faces) at the table, check its light, and calibrate again.</div>"
    )
