"""A plain board for Toy Market, drawn from the public view only.

Six lot tiles (name, level, owner), one line per seat (cash, cards in hand, whether it has
chosen its discard: a tick, never which card), and the open offers.  Deliberately simple: the
host's tests need a picture, not a beautiful one.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from typing import Any

from PIL import Image, ImageDraw, ImageFont

from renderers.kit import Words

WIDTH = 400
TILE = (60, 48)
"""Width and height of one lot tile; six fit in a row with a margin."""
MARGIN = 10
LINE = 22
SEAT_COLOURS = ("#d9534f", "#428bca", "#5cb85c", "#f0ad4e")
"""One colour per seat, in seat order (at most four players).  Text is ASCII: Pillow's bundled
font lacks most other glyphs."""


def render(view: dict[str, Any], names: Sequence[str], _words: Words) -> bytes:
    """English only (a test game); the table's words are accepted as every renderer's are."""
    lots = view["lots"]
    offers = view["offers"]
    height = MARGIN * 3 + LINE + TILE[1] + LINE * (len(names) + len(offers) + 1)
    image = Image.new("RGB", (WIDTH, height), "white")
    draw = ImageDraw.Draw(image)
    font = ImageFont.load_default(size=14)
    head = f"Round {view['round']} of {view['rounds']} - {view['phase']}"
    if view.get("last_roll"):
        head += f" - last roll {view['last_roll']}"
    draw.text((MARGIN, MARGIN), head, fill="black", font=font)
    top = MARGIN + LINE
    for index, lot in enumerate(lots):
        x = MARGIN + index * (TILE[0] + 4)
        colour = SEAT_COLOURS[lot["owner"] % len(SEAT_COLOURS)]
        draw.rectangle((x, top, x + TILE[0], top + TILE[1]), outline=colour, width=3)
        draw.text((x + 5, top + 5), lot["lot"][:6], fill="black", font=font)
        draw.text((x + 5, top + 25), "*" * lot["level"] or "-", fill=colour, font=font)
    y = top + TILE[1] + MARGIN
    for seat, name in enumerate(names):
        tick = " (chosen)" if view["phase"] == "discard" and view["chosen"][seat] else ""
        text = f"{name[:12]}: {view['cash'][seat]} cash, {view['hand_sizes'][seat]} cards{tick}"
        draw.rectangle((MARGIN, y + 4, MARGIN + 10, y + 14), fill=SEAT_COLOURS[seat % len(SEAT_COLOURS)])
        draw.text((MARGIN + 16, y), text, fill="black", font=font)
        y += LINE
    for offer in offers:
        who = f"{names[offer['from_seat']][:10]} -> {names[offer['to_seat']][:10]}"
        draw.text((MARGIN, y), f"Offer #{offer['offer']}: {who}", fill="#555", font=font)
        y += LINE
    out = io.BytesIO()
    image.save(out, "PNG")
    return out.getvalue()
