import pytest
from gpiozero.pins.mock import MockFactory, MockPWMPin

from fantan_table.devices.buttons import ButtonLogic, Press
from fantan_table.devices.panel import Panel, PanelSimulator
from fantan_table.devices.pins import DEFAULT_BUTTONS, ButtonName, LedName, PinError, PinMap


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def factory():
    f = MockFactory(pin_class=MockPWMPin)
    yield f
    f.reset()


@pytest.fixture
def rig(factory):
    clock = Clock()
    panel = Panel(factory=factory, clock=clock)
    yield panel, factory, clock
    panel.close()


def pin(factory, name: ButtonName):
    return factory.pin(DEFAULT_BUTTONS[name])


# -- the logic of one button ----------------------------------------------------------------------------------
def test_contact_bounce_makes_one_press():
    logic = ButtonLogic(ButtonName.RAID, debounce_s=0.03)
    events = logic.down(1.000) + logic.up(1.004) + logic.down(1.009) + logic.up(1.015) + logic.down(1.020)
    assert [e.press for e in events] == [Press.SHORT]
    assert logic.up(1.300) == [] and logic.down(1.305) == []  # the release bounces too
    assert [e.press for e in logic.down(1.600)] == [Press.SHORT]


def test_long_press_fires_while_held_and_short_press_on_release():
    logic = ButtonLogic(ButtonName.NEXT_ROUND, hold_s=2.0)
    assert logic.down(10.0) == []
    assert logic.tick(11.0, pressed=True) == []
    assert [e.press for e in logic.tick(12.0, pressed=True)] == [Press.LONG]
    assert logic.up(12.5) == []  # the long press was already reported
    assert logic.down(13.0) == [] and [e.press for e in logic.up(13.4)] == [Press.SHORT]


def test_a_tap_lost_in_bounce_is_caught_up_with():
    logic = ButtonLogic(ButtonName.NEXT_ROUND, debounce_s=0.03, hold_s=2.0)
    logic.down(5.0)
    assert logic.up(5.01) == []  # too soon after the press to trust
    assert [e.press for e in logic.tick(5.2, pressed=False)] == [Press.SHORT]


# -- the panel on mock pins -------------------------------------------------------------------------------
def test_pressing_a_button_queues_its_event(rig):
    panel, factory, clock = rig
    pin(factory, ButtonName.NO_MORE_BETS).drive_low()
    event = panel.next_event(timeout=1)
    assert event.button is ButtonName.NO_MORE_BETS and event.press is Press.SHORT
    clock.now += 0.1
    pin(factory, ButtonName.NO_MORE_BETS).drive_high()
    assert panel.next_event(timeout=0.1) is None


def test_raid_acts_on_the_way_down_next_round_has_a_long_press(rig):
    panel, factory, clock = rig
    pin(factory, ButtonName.RAID).drive_low()
    assert panel.next_event(timeout=1).button is ButtonName.RAID
    pin(factory, ButtonName.NEXT_ROUND).drive_low()
    assert panel.next_event(timeout=0.1) is None  # could still become a long press
    clock.now += 2.5
    event = panel.next_event(timeout=1)
    assert event.button is ButtonName.NEXT_ROUND and event.press is Press.LONG


def test_events_from_other_threads_arrive_in_order(rig):
    import threading

    panel, factory, clock = rig
    order = [ButtonName.READ, ButtonName.CONFIRM, ButtonName.NO_MORE_BETS]

    def press_all():
        for name in order:
            pin(factory, name).drive_low()
            clock.now += 0.1
            pin(factory, name).drive_high()
            clock.now += 0.1

    threading.Thread(target=press_all).start()
    assert [panel.next_event(timeout=1).button for _ in order] == order


def test_leds_show_the_open_number_and_betting(rig):
    panel, factory, _ = rig
    panel.show_open_number(2)
    panel.show_bets_open(True)
    assert panel.lit == {LedName.TILE_2, LedName.BETS_OPEN}
    assert factory.pin(13).state == 1
    panel.show_open_number(None)
    assert panel.lit == {LedName.BETS_OPEN}
    panel.all_off()
    assert panel.lit == frozenset()


# -- the pin map ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "change, message",
    [
        ({ButtonName.RAID: 17}, r"\[panel.buttons\] raid = 17: BCM 17 is already \[panel.buttons\] no_more_bets"),
        ({ButtonName.READ: 3}, r"\[panel.buttons\] read = 3: BCM 3 is I2C SCL \(the display\)"),
        ({ButtonName.READ: 2}, "I2C SDA"),
        ({ButtonName.READ: 40}, r"\[panel.buttons\] read = 40: not a GPIO"),
        ({ButtonName.READ: "x"}, "not a GPIO"),
    ],
)
def test_bad_pin_maps_are_refused_naming_the_key(change, message):
    with pytest.raises(PinError, match=message):
        PinMap(buttons={**DEFAULT_BUTTONS, **change})


def test_every_button_and_led_needs_a_pin():
    buttons = dict(DEFAULT_BUTTONS)
    del buttons[ButtonName.CONFIRM]
    with pytest.raises(PinError, match="no pin given for confirm"):
        PinMap(buttons=buttons)


def test_the_simulator_presses_through_the_same_pins(rig):
    panel, factory, clock = rig
    sim = PanelSimulator(factory, panel.pins, sleep=lambda s: setattr(clock, "now", clock.now + s))
    sim.press(ButtonName.RAID)
    event = panel.next_event(timeout=0.2)
    assert event is not None and (event.button, event.press) == (ButtonName.RAID, Press.SHORT)
    sim.hold(ButtonName.NEXT_ROUND, 2.5)
    event = panel.next_event(timeout=0.2)
    assert event is not None and (event.button, event.press) == (ButtonName.NEXT_ROUND, Press.LONG)
    panel.show_open_number(2)
    assert sim.lit(LedName.TILE_2) and not sim.lit(LedName.TILE_1)
