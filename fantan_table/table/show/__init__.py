"""Presentation: pure functions from the core's state to the display's screens, the LEDs' pattern and the
history's text. No device is touched here; the wiring draws what these return.
"""
