import sys
import types
from pathlib import Path

import cv2
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from fantan_table.devices.camera import CameraError
from fantan_table.devices.camera.folder import FolderCamera
from fantan_table.devices.camera.picamera import PiCamera
from fantan_table.devices.camera.simulated import SimulatedCamera
from fantan_table.devices.camera.usb import UsbCamera
from fantan_table.vision.reader import Status, read_dice


# -- the simulated camera -------------------------------------------------------------------------------
def test_cup_hides_the_dice_until_lifted_and_then_they_read_right():
    camera = SimulatedCamera(seed=4, size=(960, 720), settle_frames=2)
    rolled = camera.shake([5, 0, 2, 3])
    assert rolled == (5, 0, 2, 3) and camera.rolled == rolled
    assert read_dice(camera.capture(), expect=4).status is Status.UNSURE  # only the cup
    camera.lift()
    settling = [camera.capture() for _ in range(2)]
    still = camera.capture()
    assert all(not np.array_equal(f, still) for f in settling)
    reading = read_dice(still, expect=4)
    assert reading.status is Status.OK and sorted(reading.values) == [0, 2, 3, 5]


def test_a_cup_lifted_with_nothing_shaken_under_it_shows_a_roll():
    camera = SimulatedCamera(seed=4, size=(960, 720), settle_frames=0)  # as a restarted table's, betting closed
    assert camera.rolled is None
    camera.lift()
    assert camera.rolled is not None and len(camera.rolled) == 4
    reading = read_dice(camera.capture(), expect=4)
    assert reading.status is Status.OK and sorted(reading.values) == sorted(camera.rolled)


def test_random_rolls_are_the_same_for_the_same_seed():
    a, b = SimulatedCamera(seed=9, size=(640, 480)), SimulatedCamera(seed=9, size=(640, 480))
    assert [a.shake() for _ in range(3)] == [b.shake() for _ in range(3)]
    assert all(0 <= v <= 5 for v in a.rolled)


# -- recorded pictures ----------------------------------------------------------------------------------
def test_folder_camera_plays_pictures_in_order(tmp_path):
    for i in range(3):
        cv2.imwrite(str(tmp_path / f"frame_{i}.png"), np.full((4, 4, 3), i * 50, np.uint8))
    (tmp_path / "notes.txt").write_text("not a picture")
    camera = FolderCamera(tmp_path)
    assert [int(camera.capture()[0, 0, 0]) for _ in range(3)] == [0, 50, 100]
    with pytest.raises(CameraError, match="have been played"):
        camera.capture()
    looping = FolderCamera(tmp_path, loop=True)
    assert [int(looping.capture()[0, 0, 0]) for _ in range(4)] == [0, 50, 100, 0]


def test_folder_camera_errors_say_what_is_wrong(tmp_path):
    with pytest.raises(CameraError, match="no folder"):
        FolderCamera(tmp_path / "missing")
    with pytest.raises(CameraError, match="holds no pictures"):
        FolderCamera(tmp_path)
    (tmp_path / "broken.png").write_bytes(b"not a png")
    with pytest.raises(CameraError, match="not a picture OpenCV can read"):
        FolderCamera(tmp_path).capture()


# -- USB webcams ------------------------------------------------------------------------------------------
class FakeCapture:
    def __init__(self, index, opened=True, frames=1):
        self.index, self.opened, self.frames, self.settings = index, opened, frames, {}

    def isOpened(self):
        return self.opened

    def set(self, prop, value):
        self.settings[prop] = value

    def read(self):
        if self.frames <= 0:
            return False, None
        self.frames -= 1
        return True, np.zeros((960, 1280, 3), np.uint8)

    def release(self):
        self.opened = False


def test_usb_camera_asks_for_the_resolution_and_reports_failures():
    camera = UsbCamera(1, (1280, 960), capture=FakeCapture)
    assert camera._video.settings == {cv2.CAP_PROP_FRAME_WIDTH: 1280, cv2.CAP_PROP_FRAME_HEIGHT: 960}
    assert camera.capture().shape == (960, 1280, 3)
    with pytest.raises(CameraError, match="gave no frame"):
        camera.capture()
    with pytest.raises(CameraError, match="no USB camera at index 2"):
        UsbCamera(2, capture=lambda i: FakeCapture(i, opened=False))


# -- the Pi camera, against a stand-in for picamera2 ---------------------------------------------------------
def fake_picamera2(fail_on=None):
    calls = []

    class Picamera2:
        def __init__(self):
            calls.append(("open",))
            if fail_on == "open":
                raise RuntimeError("Camera __init__ sequence did not complete")

        def create_still_configuration(self, main):
            calls.append(("still", main))
            return {"main": main}

        def configure(self, config):
            calls.append(("configure", config))

        def start(self):
            calls.append(("start",))

        def capture_metadata(self):
            return {"ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4), "Lux": 300}

        def set_controls(self, controls):
            calls.append(("controls", controls))

        def capture_array(self, stream):
            calls.append(("capture", stream))
            return np.zeros((960, 1280, 3), np.uint8)

        def stop(self):
            calls.append(("stop",))

        def close(self):
            calls.append(("close",))

    return types.SimpleNamespace(Picamera2=Picamera2), calls


def test_pi_camera_is_configured_once_and_locks_exposure_after_settling():
    module, calls = fake_picamera2()
    waited = []
    camera = PiCamera((1280, 960), settle_seconds=2.0, module=module, sleep=waited.append)
    assert waited == [2.0]
    assert ("still", {"size": (1280, 960), "format": "RGB888"}) in calls
    assert [c[0] for c in calls].count("configure") == 1
    assert (
        "controls",
        {"AeEnable": False, "AwbEnable": False, "ExposureTime": 12000, "AnalogueGain": 2.5, "ColourGains": (1.9, 1.4)},
    ) in calls
    for _ in range(3):
        assert camera.capture().shape == (960, 1280, 3)
    assert [c[0] for c in calls].count("configure") == 1 and [c[0] for c in calls].count("start") == 1
    camera.close()
    assert calls[-2:] == [("stop",), ("close",)]
    camera.close()  # closing twice is harmless


def test_pi_camera_errors_are_camera_errors():
    module, _ = fake_picamera2(fail_on="open")
    with pytest.raises(CameraError, match="ribbon cable"):
        PiCamera(module=module, sleep=lambda s: None)


def test_without_picamera2_the_error_says_how_to_install_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", None)  # as on a laptop: the import fails
    with pytest.raises(CameraError, match="apt install python3-picamera2"):
        PiCamera(sleep=lambda s: None)


# -- broken pictures and odd frames never escape as anything but CameraError ------------------------------------
WHOLE_JPEG = sorted((Path(__file__).parent.parent / "data" / "dice-photos").glob("*.jpg"))[0]


def test_folder_camera_refuses_a_picture_cut_short(tmp_path):
    data = WHOLE_JPEG.read_bytes()
    (tmp_path / "a_whole.jpg").write_bytes(data)
    (tmp_path / "b_cut.jpg").write_bytes(data[: len(data) // 2])  # OpenCV would decode it, grey below the cut
    ok, png = cv2.imencode(".png", np.full((40, 60, 3), 90, np.uint8))
    (tmp_path / "c_cut.png").write_bytes(png.tobytes()[:-12])  # its IEND chunk lost
    camera = FolderCamera(tmp_path)
    assert camera.capture().shape[2] == 3
    for kind in ("JPEG", "PNG"):
        with pytest.raises(CameraError, match=f"cut short \\(an incomplete {kind} file\\)"):
            camera.capture()


@settings(max_examples=40, deadline=None)
@given(cut=st.integers(0, 60_000), noise=st.binary(max_size=64), suffix=st.sampled_from([".jpg", ".png", ".bmp"]))
def test_folder_camera_gives_a_colour_frame_or_a_camera_error(tmp_path_factory, cut, noise, suffix):
    folder = tmp_path_factory.mktemp("frames")
    (folder / f"frame{suffix}").write_bytes(WHOLE_JPEG.read_bytes()[:cut] + noise)
    try:
        frame = FolderCamera(folder).capture()
    except CameraError as exc:
        assert str(exc)
    else:
        assert frame.dtype == np.uint8 and frame.ndim == 3 and frame.shape[2] == 3
        assert read_dice(frame).status in Status  # and the reader answers it


@pytest.mark.parametrize(
    ("frame", "shape"),
    [(np.zeros((96, 128), np.uint8), (96, 128, 3)), (np.zeros((96, 128, 4), np.uint8), (96, 128, 3))],
)
def test_usb_camera_turns_grey_and_bgra_frames_into_bgr(frame, shape):
    capture = FakeCapture(0)
    capture.read = lambda: (True, frame)
    assert UsbCamera(0, capture=lambda i: capture).capture().shape == shape


def test_usb_camera_refuses_frames_that_are_no_picture_and_backend_failures():
    capture = FakeCapture(0)
    camera = UsbCamera(0, capture=lambda i: capture)
    capture.read = lambda: (True, np.zeros((96, 128, 3), np.float32))
    with pytest.raises(CameraError, match="float32 frame of shape \\(96, 128, 3\\), not a colour picture"):
        camera.capture()

    def failing():
        raise cv2.error("OpenCV(4.6.0) cap_v4l.cpp: error: (-2:Unspecified error) select() timeout")

    capture.read = failing
    with pytest.raises(CameraError, match="failed .*select\\(\\) timeout.*check its cable"):
        camera.capture()
