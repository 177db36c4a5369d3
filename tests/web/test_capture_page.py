"""The capture page's API: a picture from the (simulated) camera, the reader's guess, the person's values saved."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from fantan_table.devices.camera import CameraError
from fantan_table.devices.camera.simulated import SimulatedCamera
from fantan_table.vision.dataset import RollFolder, read_labels
from fantan_table.vision.reader import read_dice
from fantan_table.web.capture import KEY_HEADER, SHOTS_KEPT, CaptureSession, create_capture_app


class Rig:
    def __init__(self, folder: Path, grab=None, dice: int | None = None) -> None:
        self.camera = SimulatedCamera(seed=5)
        self.saved: list[tuple[str, tuple[int, ...]]] = []
        self.session = CaptureSession(
            grab=grab or self.camera.settled_roll,
            read=lambda frame: read_dice(frame, expect=4),
            rolls=RollFolder(folder),
            dice=dice,
            on_saved=lambda name, values: self.saved.append((name, values)),
        )
        self.client = TestClient(create_capture_app(self.session))

    def get(self, path: str, key: str | None = None):
        return self.client.get(path, headers={KEY_HEADER: self.session.key if key is None else key})

    def post(self, path: str, body: object, key: str | None = None):
        headers = {KEY_HEADER: self.session.key if key is None else key}
        return self.client.post(path, content=json.dumps(body), headers=headers)


@pytest.fixture
def rig(tmp_path: Path) -> Rig:
    return Rig(tmp_path / "rolls")


def test_a_roll_is_taken_guessed_corrected_and_saved(rig: Rig) -> None:
    taken = rig.post("/api/shot", {}).json()
    assert taken["status"] == "ok" and sorted(taken["values"]) == sorted(rig.camera.rolled or ())
    picture = rig.get(f"/api/shot/{taken['shot']}.jpg")
    assert picture.headers["content-type"] == "image/jpeg" and picture.content[:2] == b"\xff\xd8"
    saved = rig.post("/api/rolls", {"shot": taken["shot"], "values": [0, 1, 2, 6]}).json()
    assert saved["saved"] == "roll_001.jpg" and saved["count"] == 1
    assert saved["recent"] == [{"name": "roll_001.jpg", "values": [0, 1, 2, 6]}]
    assert rig.saved == [("roll_001.jpg", (0, 1, 2, 6))]
    [sample] = read_labels(rig.session.rolls.folder)
    assert sample.values == (0, 1, 2, 6)
    # the picture on disk is the one that was shown (JPEG both ways, so nearly the same pixels)
    assert sample.image.stat().st_size > 10_000


def test_values_for_another_number_of_dice_than_the_table_shakes_are_refused(tmp_path: Path) -> None:
    rig = Rig(tmp_path / "rolls", dice=4)
    shot = rig.post("/api/shot", {}).json()["shot"]
    short = rig.post("/api/rolls", {"shot": shot, "values": [1, 2]})
    assert (
        short.status_code == 400
        and "a roll is 4 dice ([reader] expect): give one value for each (got 2)" in (short.json()["error"])
    )
    assert rig.post("/api/rolls", {"shot": shot, "values": [1, 2, 3, 4]}).json()["saved"] == "roll_001.jpg"


def test_a_picture_is_saved_once_and_a_bad_answer_keeps_it(rig: Rig) -> None:
    shot = rig.post("/api/shot", {}).json()["shot"]
    for body, said in (
        ({"shot": shot, "values": [7]}, "0 to 6"),
        ({"shot": shot, "values": "0 1"}, "0 to 6"),
        ({"shot": shot, "values": []}, "0 to 6"),
        ({"shot": 3, "values": [1]}, "take a picture first"),
    ):
        refused = rig.post("/api/rolls", body)
        assert refused.status_code == 400 and said in refused.json()["error"]
    assert rig.post("/api/rolls", {"shot": shot, "values": [1, 2, 3, 4]}).status_code == 200
    again = rig.post("/api/rolls", {"shot": shot, "values": [1, 2, 3, 4]})
    assert again.status_code == 404 and "take it again" in again.json()["error"]
    assert len(read_labels(rig.session.rolls.folder)) == 1


def test_only_the_last_few_pictures_wait_for_values(rig: Rig) -> None:
    shots = [rig.post("/api/shot", {}).json()["shot"] for _ in range(SHOTS_KEPT + 1)]
    assert rig.get(f"/api/shot/{shots[0]}.jpg").status_code == 404
    assert rig.post("/api/rolls", {"shot": shots[-1], "values": [5]}).json()["saved"] == "roll_001.jpg"


def test_a_roll_typed_wrong_is_removed(rig: Rig) -> None:
    for values in ([1, 1, 1, 1], [2, 2, 2, 2]):
        shot = rig.post("/api/shot", {}).json()["shot"]
        rig.post("/api/rolls", {"shot": shot, "values": values})
    listing = rig.post("/api/rolls/remove", {"name": "roll_001.jpg"}).json()
    assert listing["count"] == 1 and [r["name"] for r in listing["recent"]] == ["roll_002.jpg"]
    gone = rig.post("/api/rolls/remove", {"name": "roll_001.jpg"})
    assert gone.status_code == 404 and "not in" in gone.json()["error"]


def test_nothing_without_the_key(rig: Rig) -> None:
    for response in (
        rig.get("/api/rolls", key=""),
        rig.post("/api/shot", {}, key="guess"),
        rig.post("/api/rolls/remove", {"name": "roll_001.jpg"}, key=rig.session.key[:-1]),
    ):
        assert response.status_code == 403 and "link" in response.json()["error"]
    assert rig.camera.rolls == 0
    page = rig.client.get("/")  # the page itself is no secret: it asks for the key it was opened with
    assert page.status_code == 200 and "capture.js" in page.text
    assert rig.client.head("/").status_code == 200  # its headers alone, as a link preview asks
    assert rig.client.get("/static/capture.js").status_code == 200


def test_a_camera_that_fails_is_reported_not_crashed(tmp_path: Path) -> None:
    def broken() -> np.ndarray:
        raise CameraError("no frame in 2 s: check the ribbon cable")

    rig = Rig(tmp_path, grab=broken)
    refused = rig.post("/api/shot", {})
    assert refused.status_code == 503
    assert refused.json()["error"] == "the camera: no frame in 2 s: check the ribbon cable"
