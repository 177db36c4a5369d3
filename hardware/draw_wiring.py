"""Draw hardware/wiring.svg from the default pin map, so that the picture cannot drift from the code.

    .venv/bin/python hardware/draw_wiring.py        # rewrites hardware/wiring.svg

A test runs this and compares the result with the committed file.
"""

from __future__ import annotations

from pathlib import Path
from xml.sax.saxutils import escape

from fantan_table.devices.pins import DEFAULT_BUTTONS, DEFAULT_LEDS, GROUND_PINS, HEADER_PIN, ButtonName, LedName

OUT = Path(__file__).with_name("wiring.svg")
ROW = 34
LED_COLOURS = {LedName.BETS_OPEN: "#2e9d4f"}


def header_pin_xy(pin: int) -> tuple[int, int]:
    """Where a header pin is drawn: two columns, odd pins left, even pins right, pin 1 at the top."""
    return (310 if pin % 2 else 330, 60 + (pin - 1) // 2 * 18)


def route(pin: int, side: str) -> list[tuple[int, int]]:
    """The last points of a wire reaching ``pin`` from the ``side`` of the header ("left" or "right").

    A pin in the far column is reached through the gap between the columns, half a row off, so the
    wire never runs over another pin.
    """
    x, y = header_pin_xy(pin)
    near = (pin % 2 == 1) == (side == "left")
    edge = 290 if side == "left" else 350
    if near:
        return [(edge, y), (x + (-5 if side == "left" else 5), y)]
    return [(edge, y - 9), (320, y - 9), (320, y), (x + (-5 if side == "left" else 5), y)]


def polyline(points: list[tuple[int, int]], colour: str) -> str:
    coords = " ".join(f"{x},{y}" for x, y in points)
    return f'<polyline points="{coords}" fill="none" stroke="{colour}" stroke-width="2"/>'


def svg() -> str:
    parts: list[str] = []
    add = parts.append
    add('<svg xmlns="http://www.w3.org/2000/svg" width="800" height="470" viewBox="0 0 800 470" '
        'font-family="DejaVu Sans, Arial, sans-serif" font-size="12">')  # fmt: skip
    add('<rect width="800" height="470" fill="#ffffff"/>')
    add('<text x="400" y="24" text-anchor="middle" font-size="16" font-weight="bold">'
        "fantan-table wiring (default pins, BCM numbering)</text>")  # fmt: skip
    # The header: 20 rows of two pins.
    add('<rect x="296" y="46" width="48" height="372" rx="4" fill="#222"/>')
    add('<text x="320" y="436" text-anchor="middle">40-pin header</text>')
    # Buttons on the left: GPIO to one contact, the other contact to ground.
    for i, button in enumerate(ButtonName):
        bcm = DEFAULT_BUTTONS[button]
        y = 80 + i * ROW * 2
        end = route(HEADER_PIN[bcm], "left")
        vertical = 236 + 12 * i
        label = escape(button.value.replace("_", " "))
        add(f'<rect x="20" y="{y - 14}" width="120" height="28" rx="6" fill="#f3f3f3" stroke="#333"/>')
        add(f'<text x="80" y="{y + 4}" text-anchor="middle">{label}</text>')
        add(polyline([(140, y), (vertical, y), (vertical, end[0][1]), *end], "#1f6fb2"))
        add(f'<text x="150" y="{y - 4}">GPIO{bcm} (pin {HEADER_PIN[bcm]})</text>')
        add(f'<line x1="80" y1="{y + 14}" x2="80" y2="{y + 26}" stroke="#555" stroke-width="2"/>')
        add(f'<text x="86" y="{y + 26}" fill="#555">to GND</text>')
    # LEDs on the right: GPIO, resistor, LED, ground.
    for i, led in enumerate(LedName):
        bcm = DEFAULT_LEDS[led]
        y = 80 + i * ROW * 2
        start = route(HEADER_PIN[bcm], "right")[::-1]
        vertical = 380 + 12 * i
        colour = LED_COLOURS.get(led, "#d23c2a")
        label = escape(led.value.replace("_", " "))
        add(polyline([*start, (vertical, start[-1][1]), (vertical, y), (520, y)], "#b2461f"))
        add(f'<text x="{vertical + 6}" y="{y - 6}">GPIO{bcm} (pin {HEADER_PIN[bcm]})</text>')
        add(f'<rect x="520" y="{y - 6}" width="40" height="12" fill="#d9c9a3" stroke="#333"/>')
        add(f'<text x="540" y="{y + 22}" text-anchor="middle" font-size="10">330 Ω</text>')
        add(f'<line x1="560" y1="{y}" x2="600" y2="{y}" stroke="#333" stroke-width="2"/>')
        add(f'<polygon points="600,{y - 9} 600,{y + 9} 616,{y}" fill="{colour}" stroke="#333"/>')
        add(f'<line x1="616" y1="{y - 9}" x2="616" y2="{y + 9}" stroke="#333" stroke-width="2"/>')
        add(f'<line x1="616" y1="{y}" x2="640" y2="{y}" stroke="#555" stroke-width="2"/>')
        add(f'<text x="646" y="{y + 4}">{label}, to GND</text>')
    for pin in range(1, 41):
        x, y = header_pin_xy(pin)
        fill = "#888" if pin in GROUND_PINS else "#e8c04a"
        add(f'<circle cx="{x}" cy="{y}" r="5" fill="{fill}"><title>header pin {pin}</title></circle>')
    # The display on I2C.
    add('<rect x="380" y="404" width="150" height="50" rx="4" fill="#10243e" stroke="#333"/>')
    add('<text x="455" y="424" text-anchor="middle" fill="#9fd3ff">SSD1306 128x64</text>')
    add('<text x="455" y="442" text-anchor="middle" fill="#9fd3ff">I2C address 0x3C</text>')
    add('<text x="540" y="418">VCC pin 1 (3.3 V), GND pin 9</text>')
    add('<text x="540" y="436">SDA pin 3 (GPIO2), SCL pin 5 (GPIO3)</text>')
    add("</svg>")
    return "\n".join(parts) + "\n"


if __name__ == "__main__":
    OUT.write_text(svg(), encoding="utf-8")
    print(f"wrote {OUT}")
