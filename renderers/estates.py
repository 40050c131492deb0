"""The Estates board as players know it, drawn from the public view only.

Input is ``RULES.view(state, None)`` and the players' names; nothing else is
read.  Money is hidden in this game, so no balance, cash box or anything
derived from them is drawn (a seat's private ``you`` entry is never looked
at, even if a seat view is passed by mistake).  Bids are drawn: they are
called out loud at the table.

Layout, top to bottom, at a fixed width of about 830 px (judged at 400 px):

1. title bar: game, round, turn;
2. the turn panel: who chooses, the piece under auction, every bid so far and
   who bids next, who places; at the end the winners;
3. the board: three rows (A, B, C) of ten lots from Main Street (left, with
   each row's requirement and the Mayor's spot) across the river; white-dirt
   lots are white and labelled, lots outside the requirement are hatched,
   the permits stand on the first closed lot; buildings are stacks of cubes
   (number + company letters) under a dark rooftop with its value;
4. the floor cubes on offer (the three display rows; the ends that may be
   auctioned now are framed) and the supply (rooftops left, permits, Mayor,
   Cancel cube, unclaimed certificates);
5. the players: certificates held and what each row would score if the
   round ended now;
6. a legend for the colour letters.

Every company colour is also written as its letters (Bl, Re, ...), so no
information depends on colour alone.  Sprites (cubes, rooftops, lots) and
the fixed bars are cached; a render only composes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers import kit
from renderers.kit import Colour

View = Mapping[str, Any]
Box = tuple[int, int, int, int]

# --- palette -------------------------------------------------------------------

COMPANY: dict[str, Colour] = {
    "blue": (36, 96, 204),
    "red": (204, 40, 40),
    "yellow": (250, 210, 50),
    "green": (28, 128, 58),
    "purple": (126, 64, 178),
    "gray": (105, 105, 105),
}
UNKNOWN_COMPANY: Colour = (190, 190, 190)
OUTLINE: Colour = (25, 25, 25)
DIM: Colour = (84, 84, 84)  # secondary text, still 7:1 on white
BAR: Colour = (38, 50, 66)
PANEL: Colour = (236, 232, 222)
GRASS: Colour = (112, 152, 92)
LOT: Colour = (198, 222, 172)
LOT_BASE: Colour = (62, 98, 52)
WHITE_LOT: Colour = (252, 252, 248)
WHITE_SPECK: Colour = (200, 200, 192)
WHITE_BASE: Colour = (226, 226, 218)
CLOSED_LOT: Colour = (168, 174, 160)
CLOSED_WHITE: Colour = (214, 214, 208)
CLOSED_HATCH: Colour = (112, 118, 106)
STREET: Colour = (64, 66, 72)
RIVER: Colour = (70, 138, 206)
RIVER_WAVE: Colour = (150, 196, 236)
ROOF: Colour = (48, 40, 56)
GOLD: Colour = (240, 190, 40)
HIGHLIGHT: Colour = (255, 150, 0)
POSITIVE: Colour = (16, 112, 40)
NEGATIVE: Colour = (178, 24, 24)
BARRIER_RED: Colour = (200, 30, 30)

# --- geometry ------------------------------------------------------------------

MARGIN = 12
STREET_W = 92
LOT_W = 62
PITCH = 68  # lot width plus the gap between lots
RIVER_W = 28
LOTS = 10
LX = MARGIN + STREET_W + 6  # left edge of lot 1
WIDTH = LX + LOTS * PITCH - (PITCH - LOT_W) + RIVER_W + MARGIN

HEADER_H = 46
TURN_H = 108  # the auction / whose-turn panel
LEGEND_H = 94
CUBE_H = 28  # one floor cube in a building
ROOF_H = 24
BASE_H = 22  # the strip under a lot with its number
MIN_LEVELS = 2  # a row is always at least this many cubes tall
ROW_GAP = 6
BOARD_TOP_H = 24  # "Main St." / "river" labels over the board
DISPLAY_CUBE_W = 56
DISPLAY_CUBE_H = 42
DISPLAY_PITCH = 64
DISPLAY_LINE_H = 54
SUPPLY_X = MARGIN + 6 + 8 * DISPLAY_PITCH + 12  # the supply box right of the display
TABLE_ROW_H = 46
CERT_W = 36
CERT_H = 30

ORDINALS = ("1st", "2nd", "3rd", "4th", "5th")


# --- small helpers ---------------------------------------------------------------


def _bold(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str
) -> None:
    """Pillow ships one weight; a stroke in the same colour makes a readable bold."""
    draw.text(xy, text, font=kit.font(size), fill=fill, anchor=anchor, stroke_width=1, stroke_fill=fill)


def _text(
    draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str = "la"
) -> None:
    draw.text(xy, text, font=kit.font(size), fill=fill, anchor=anchor)


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else str(value)


def _score_colour(value: int) -> Colour:
    return POSITIVE if value > 0 else NEGATIVE if value < 0 else kit.INK


def _company(colour: str) -> Colour:
    return COMPANY.get(colour, UNKNOWN_COMPANY)


# --- cached sprites ----------------------------------------------------------------


@lru_cache(maxsize=256)
def _cube(colour: str, mark: str, number: int, w: int, h: int, num_size: int, mark_size: int) -> Image.Image:
    """A floor cube: company colour, its number large and the company letters small."""
    fill = _company(colour)
    ink = kit.text_colour(fill)
    image = Image.new("RGB", (w, h), fill)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=2)
    num_w = kit.font(num_size).getlength(str(number))
    mark_w = kit.font(mark_size).getlength(mark)
    gap = 5
    left = (w - (num_w + gap + mark_w)) / 2
    _bold(draw, (left, h / 2 + 1), str(number), num_size, ink, "lm")
    _text(draw, (left + num_w + gap, h / 2 + 2), mark, mark_size, ink, "lm")
    return image


@lru_cache(maxsize=32)
def _roof(value: int | None, w: int, h: int) -> Image.Image:
    """A rooftop (RGBA, transparent corners) with its value in white (none for an icon)."""
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    inset = 9
    draw.polygon(((0, h - 1), (inset, 0), (w - 1 - inset, 0), (w - 1, h - 1)), fill=(*ROOF, 255))
    if value is not None:
        _bold(draw, (w / 2, h / 2 + 1), str(value), 18, kit.WHITE, "mm")
    return image


@lru_cache(maxsize=256)
def _lot(number: int, white: bool, open_: bool, height: int) -> Image.Image:
    """One development lot with its number strip; white dirt speckled, closed lots hatched."""
    fills = {
        (True, True): WHITE_LOT,
        (True, False): LOT,
        (False, True): CLOSED_WHITE,
        (False, False): CLOSED_LOT,
    }
    fill = fills[open_, white]
    image = Image.new("RGB", (LOT_W, height), fill)
    draw = ImageDraw.Draw(image)
    body = (0, 0, LOT_W - 1, height - BASE_H)
    if white:
        for y in range(4, height - BASE_H - 2, 8):
            for x in range(3 + (y // 8) % 2 * 4, LOT_W - 2, 8):
                draw.point((x, y), fill=WHITE_SPECK)
    if not open_:
        kit.hatch(draw, body, CLOSED_HATCH, step=9)
    draw.rectangle(body, outline=(90, 110, 80) if open_ else CLOSED_HATCH, width=1)
    base = (0, height - BASE_H, LOT_W - 1, height - 1)
    if white:
        draw.rectangle(base, fill=WHITE_BASE, outline=OUTLINE, width=1)
        draw.rectangle(body, outline=OUTLINE, width=1)
        _text(draw, (LOT_W / 2, height - BASE_H / 2), f"{number} white", 16, kit.INK, "mm")
    else:
        draw.rectangle(base, fill=LOT_BASE if open_ else CLOSED_HATCH)
        _text(draw, (LOT_W / 2, height - BASE_H / 2), str(number), 16, kit.WHITE, "mm")
    return image


@lru_cache(maxsize=8)
def _permit_sign(values: tuple[str, ...], w: int) -> Image.Image:
    """The building permits standing on one lot: a striped barrier and each permit's change."""
    line_h = 22
    h = 14 + line_h * len(values) + 4
    image = Image.new("RGB", (w, h), kit.WHITE)
    draw = ImageDraw.Draw(image)
    for x in range(-14, w, 14):
        draw.polygon(((x, 14), (x + 7, 14), (x + 14, 0), (x + 7, 0)), fill=BARRIER_RED)
    for i, label in enumerate(values):
        _bold(draw, (w / 2, 14 + line_h * i + line_h / 2 + 2), label, 16, kit.INK, "mm")
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=2)
    return image


@lru_cache(maxsize=4)
def _mayor(w: int, h: int) -> Image.Image:
    image = Image.new("RGB", (w, h), GOLD)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=2)
    _bold(draw, (w / 2, h / 2 - 8), "MAYOR", 14, kit.INK, "mm")
    _bold(draw, (w / 2, h / 2 + 9), "x2", 16, kit.INK, "mm")
    return image


@lru_cache(maxsize=4)
def _cancel(w: int, h: int) -> Image.Image:
    image = Image.new("RGB", (w, h), (20, 20, 20))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=kit.WHITE, width=2)
    _bold(draw, (w / 2, h / 2), "CANCEL", 14, kit.WHITE, "mm")
    return image


def _header_art() -> Image.Image:
    image = Image.new("RGB", (WIDTH, HEADER_H), BAR)
    draw = ImageDraw.Draw(image)
    _bold(draw, (MARGIN, HEADER_H / 2), "THE ESTATES", 24, kit.WHITE, "lm")
    return image


@lru_cache(maxsize=4)
def _legend(companies: tuple[tuple[str, str], ...]) -> Image.Image:
    """The key under the board: each company's colour and letters, and what the shapes mean."""
    image = Image.new("RGB", (WIDTH, LEGEND_H), kit.PAPER)
    draw = ImageDraw.Draw(image)
    x = MARGIN
    y = 8
    _text(draw, (x, y + CERT_H / 2), "Companies:", 15, kit.INK, "lm")
    x += int(kit.font(15).getlength("Companies:")) + 8
    for colour, mark in companies:
        image.paste(_cert(colour, mark, CERT_W, CERT_H), (x, y))
        _text(draw, (x + CERT_W + 4, y + CERT_H / 2), colour, 15, kit.INK, "lm")
        x += CERT_W + 10 + int(kit.font(15).getlength(colour)) + 6
    lines = (
        "Cube: number + company letters.  Building: cubes under a rooftop with its value.",
        "Barrier: building permits (+ longer, - shorter).  Hatched lots: outside the requirement.",
    )
    for i, line in enumerate(lines):
        _text(draw, (MARGIN, y + CERT_H + 16 + 22 * i), line, 15, kit.INK, "lm")
    return image


_HEADER = kit.static_layer(_header_art)


# --- piece descriptions -------------------------------------------------------------


def _marks(view: View) -> dict[str, str]:
    """Colour name -> company letters, as the view spells them."""
    return {str(c["colour"]): str(c["mark"]) for c in view.get("certificates") or []}


def _piece_words(auction: Mapping[str, Any], marks: Mapping[str, str]) -> str:
    kind = auction.get("kind")
    if kind == "cube":
        colour = str(auction.get("colour"))
        return f"the {colour} {auction.get('number')} ({marks.get(colour, '?')})"
    if kind == "roof":
        return f"rooftop {auction.get('value')}"
    if kind == "permit":
        return f"building permit {auction.get('value')}"
    if kind == "mayor":
        return "the Mayor"
    if kind == "cancel":
        return "the Cancel cube"
    return str(auction.get("piece", "a piece"))


def _piece_sprite(auction: Mapping[str, Any], marks: Mapping[str, str]) -> Image.Image:
    kind = auction.get("kind")
    if kind == "cube":
        colour = str(auction.get("colour"))
        return _cube(colour, marks.get(colour, "?"), int(auction.get("number", 0)), 72, 50, 26, 18)
    if kind == "roof":
        sprite = Image.new("RGB", (72, 50), PANEL)
        roof = _roof(int(auction.get("value", 0)), 72, 34)
        sprite.paste(roof, (0, 8), roof)
        return sprite
    if kind == "permit":
        return _permit_sign((f"permit {auction.get('value')}",), 80)
    if kind == "mayor":
        return _mayor(72, 50)
    return _cancel(80, 50)


# --- sections ----------------------------------------------------------------------


class _Canvas:
    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)


def _auctionable(view: View) -> list[str]:
    """What the auctioneer may pick now, in words (the same tests the engine makes)."""
    out: list[str] = []
    if any(cube.get("selectable") for line in view.get("display") or [] for cube in line):
        out.append("a framed cube")
    unroofed = any(
        lot.get("cubes") and lot.get("roof") is None
        for row in view.get("rows") or []
        for lot in row.get("lots") or []
    )
    if view.get("rooftops_left") and unroofed:
        out.append("a rooftop")
    permits = [str(p) for p in view.get("permits_supply") or []]
    if permits:
        out.append(("permit " if len(permits) == 1 else "permits ") + ", ".join(permits))
    if view.get("mayor") == "supply":
        out.append("the Mayor")
    if view.get("cancel_available"):
        out.append("the Cancel cube")
    return out or ["nothing"]


def _bid_order(view: View, auctioneer: int) -> list[int]:
    players = int(view["players"])
    return [(auctioneer + k) % players for k in range(1, players)]


def _draw_turn(c: _Canvas, y0: int, view: View, names: list[str]) -> None:
    draw = c.draw
    draw.rectangle((0, y0, WIDTH, y0 + TURN_H - 1), fill=PANEL)
    draw.line((0, y0 + TURN_H - 1, WIDTH, y0 + TURN_H - 1), fill=(190, 184, 170), width=2)
    phase = view.get("phase")
    auction = view.get("auction")
    marks = _marks(view)
    auctioneer = int(view.get("auctioneer") or 0)
    who = kit.fit(names[auctioneer], 20, 220)
    if phase == "over":
        result = view.get("result") or {}
        winners = [names[s] for s in result.get("winners", []) if 0 <= s < len(names)]
        _bold(draw, (MARGIN, y0 + 26), "Game over", 24, kit.INK, "lm")
        line = "Winner: " if len(winners) == 1 else "Winners: "
        _text(
            draw,
            (MARGIN, y0 + 62),
            kit.fit(line + ", ".join(winners), 22, WIDTH - 2 * MARGIN),
            22,
            kit.INK,
            "lm",
        )
        _text(draw, (MARGIN, y0 + 92), "Final places are in the players' table below.", 16, kit.INK, "lm")
        return
    if not auction:
        _bold(draw, (MARGIN, y0 + 30), f"{who} chooses a piece to auction", 22, kit.INK, "lm")
        choices = _auctionable(view)
        line = "On offer: " + (
            ", ".join(choices[:-1]) + " or " + choices[-1] if len(choices) > 1 else choices[0]
        )
        _text(draw, (MARGIN, y0 + 70), kit.fit(line, 17, WIDTH - 2 * MARGIN), 17, kit.INK, "lm")
        return
    sprite = _piece_sprite(auction, marks)
    px = MARGIN
    py = y0 + 10
    c.image.paste(sprite, (px, py))
    tx = px + sprite.width + 14
    piece = _piece_words(auction, marks)
    if phase == "bid":
        headline = f"{who} auctions {piece}"
    elif phase == "decide":
        high_bidder = auction.get("high_bidder")
        buyer = kit.fit(names[high_bidder], 20, 160) if isinstance(high_bidder, int) else "?"
        headline = f"{who}: sell to {buyer} for {auction.get('high_bid')}, or buy it"
    else:
        winner = auction.get("winner")
        taker = kit.fit(names[winner], 20, 200) if isinstance(winner, int) else "?"
        kind = auction.get("kind")
        verb = {"cube": "places", "roof": "places", "cancel": "uses or discards"}.get(
            str(kind), "places or discards"
        )
        high = auction.get("high_bid")
        if high is None:
            how = "taken free"
        elif winner == auction.get("auctioneer", auctioneer):
            how = f"kept for {high}"
        else:
            how = f"bought for {high}"
        headline = f"{taker} {verb} {piece} ({how})"
    _bold(draw, (tx, py + 14), kit.fit(headline, 20, WIDTH - tx - MARGIN), 20, kit.INK, "lm")
    # One chip per bidder, clockwise from the auctioneer's left.
    said = {int(b["seat"]): b.get("amount") for b in auction.get("bids") or []}
    to_bid = auction.get("to_bid")
    order = _bid_order(view, int(auction.get("auctioneer", auctioneer)))
    chip_w = min(150, (WIDTH - tx - MARGIN) // max(1, len(order)) - 6)
    cy = py + 36
    for i, seat in enumerate(order):
        x = tx + i * (chip_w + 6)
        box = (x, cy, x + chip_w, cy + 52)
        if seat in said:
            amount = said[seat]
            status = "pass" if amount is None else f"bid {amount}"
            fill: Colour = kit.WHITE
            ink: Colour = kit.INK if amount is not None else DIM
        elif seat == to_bid:
            status = f"to bid, min {auction.get('min_bid')}"
            fill, ink = GOLD, kit.INK
        else:
            status = "waits"
            fill, ink = PANEL, DIM
        draw.rectangle(
            box,
            fill=fill,
            outline=OUTLINE if seat == to_bid else (150, 146, 136),
            width=3 if seat == to_bid else 1,
        )
        _text(draw, (x + 8, cy + 15), kit.fit(names[seat], 16, chip_w - 14), 16, kit.INK, "lm")
        _bold(draw, (x + 8, cy + 37), kit.fit(status, 17, chip_w - 14), 17, ink, "lm")


def _row_levels(row: Mapping[str, Any]) -> int:
    return max([MIN_LEVELS, *(len(lot.get("cubes") or []) for lot in row.get("lots") or [])])


def _row_height(row: Mapping[str, Any]) -> int:
    return 6 + ROOF_H + _row_levels(row) * CUBE_H + BASE_H + 4


def _lot_x(index: int, river_after: int) -> int:
    return LX + index * PITCH + (RIVER_W if index >= river_after else 0)


def _draw_board(c: _Canvas, y0: int, view: View, heights: list[int], river_after: int) -> int:
    draw = c.draw
    rows = view.get("rows") or []
    total = BOARD_TOP_H + sum(heights) + ROW_GAP * (len(rows) + 1)
    draw.rectangle((0, y0, WIDTH, y0 + total - 1), fill=GRASS)
    # Main Street down the left, the river between lots 4 and 5.
    draw.rectangle((MARGIN, y0, MARGIN + STREET_W, y0 + total - 1), fill=STREET)
    river_x0 = _lot_x(river_after - 1, river_after) + LOT_W + 3
    river_x1 = _lot_x(river_after, river_after) - 3
    draw.rectangle((river_x0, y0, river_x1, y0 + total - 1), fill=RIVER)
    for y in range(y0 + BOARD_TOP_H + 6, y0 + total - 6, 14):
        mid = (river_x0 + river_x1) // 2
        draw.line(((mid - 7, y), (mid, y + 5), (mid + 7, y)), fill=RIVER_WAVE, width=2)
    _bold(draw, (MARGIN + STREET_W / 2, y0 + BOARD_TOP_H / 2 + 2), "Main St.", 15, kit.WHITE, "mm")
    _text(
        draw,
        ((_lot_x(0, river_after) + river_x0) / 2, y0 + BOARD_TOP_H / 2 + 2),
        "before the river",
        15,
        kit.WHITE,
        "mm",
    )
    _text(
        draw,
        ((river_x1 + WIDTH - MARGIN) / 2, y0 + BOARD_TOP_H / 2 + 2),
        "beyond the river",
        15,
        kit.WHITE,
        "mm",
    )
    y = y0 + BOARD_TOP_H + ROW_GAP
    for row, height in zip(rows, heights, strict=True):
        _draw_row(c, y, row, height, river_after)
        y += height + ROW_GAP
    return total


def _draw_row(c: _Canvas, y0: int, row: Mapping[str, Any], height: int, river_after: int) -> None:
    draw = c.draw
    image = c.image
    # Main Street: the row letter, its requirement and the Mayor's spot.
    sx = MARGIN + 4
    complete = bool(row.get("complete"))
    letter_box = (sx, y0, sx + 40, y0 + 40)
    draw.rectangle(letter_box, fill=POSITIVE if complete else kit.WHITE, outline=OUTLINE, width=2)
    _bold(draw, (sx + 20, y0 + 21), str(row.get("name", "?")), 26, kit.WHITE if complete else kit.INK, "mm")
    _text(draw, (sx + 46, y0 + 12), "need", 14, kit.WHITE, "lm")
    _bold(draw, (sx + 46, y0 + 30), str(row.get("requirement", "?")), 18, kit.WHITE, "lm")
    status = "complete" if complete else f"{row.get('developed', 0)} built"
    _text(draw, (sx, y0 + 54), status, 15, kit.WHITE, "lm")
    if row.get("mayor"):
        mayor = _mayor(STREET_W - 8, 40)
        image.paste(mayor, (sx, y0 + height - 44))
    lots = row.get("lots") or []
    permit_lot = row.get("permit_lot")
    for index, lot in enumerate(lots):
        x = _lot_x(index, river_after)
        number = int(lot.get("lot", index + 1))
        image.paste(_lot(number, bool(lot.get("white_dirt")), bool(lot.get("open")), height), (x, y0))
        base_y = y0 + height - BASE_H
        cubes = lot.get("cubes") or []
        for level, cube in enumerate(cubes):
            top = base_y - (level + 1) * CUBE_H
            image.paste(
                _cube(
                    str(cube.get("colour")),
                    str(cube.get("mark")),
                    int(cube.get("number", 0)),
                    LOT_W - 4,
                    CUBE_H - 1,
                    20,
                    16,
                ),
                (x + 2, top),
            )
        roof = lot.get("roof")
        if roof is not None and cubes:
            sprite = _roof(int(roof), LOT_W, ROOF_H)
            image.paste(sprite, (x, base_y - len(cubes) * CUBE_H - ROOF_H), sprite)
        if permit_lot == number:
            labels = tuple(
                f"{'+' if p.get('direction') == 'longer' else '-'}{p.get('value')}"
                for p in row.get("permits") or []
            )
            sign = _permit_sign(labels, LOT_W)
            image.paste(sign, (x, y0 + 4))


def _display_height(view: View) -> int:
    return 34 + 3 * DISPLAY_LINE_H + 8


def _draw_display(c: _Canvas, y0: int, view: View, height: int) -> None:
    draw = c.draw
    image = c.image
    draw.rectangle((0, y0, WIDTH, y0 + height - 1), fill=kit.PAPER)
    _bold(draw, (MARGIN, y0 + 17), "Floor cubes on offer", 18, kit.INK, "lm")
    auction = view.get("auction") or {}
    on_auction = auction.get("piece") if auction.get("kind") == "cube" else None
    note = "(orange: can be picked, black: in auction)" if on_auction else "(orange frame: can be picked)"
    _text(draw, (MARGIN + 196, y0 + 17), note, 15, kit.INK, "lm")
    for line_no, line in enumerate(view.get("display") or []):
        y = y0 + 34 + line_no * DISPLAY_LINE_H
        for i, cube in enumerate(line):
            x = MARGIN + 6 + i * DISPLAY_PITCH
            sprite = _cube(
                str(cube.get("colour")),
                str(cube.get("mark")),
                int(cube.get("number", 0)),
                DISPLAY_CUBE_W,
                DISPLAY_CUBE_H,
                24,
                17,
            )
            if cube.get("selectable") or cube.get("cube") == on_auction:
                ring = HIGHLIGHT if cube.get("cube") != on_auction else kit.INK
                draw.rectangle((x - 5, y - 5, x + DISPLAY_CUBE_W + 4, y + DISPLAY_CUBE_H + 4), fill=OUTLINE)
                draw.rectangle((x - 3, y - 3, x + DISPLAY_CUBE_W + 2, y + DISPLAY_CUBE_H + 2), fill=ring)
            image.paste(sprite, (x, y))
        if not line:
            _text(draw, (MARGIN + 6, y + DISPLAY_CUBE_H / 2), "(empty)", 15, DIM, "lm")
    _draw_supply(c, y0, view, height)


def _draw_supply(c: _Canvas, y0: int, view: View, height: int) -> None:
    draw = c.draw
    image = c.image
    x = SUPPLY_X
    draw.rectangle((x - 8, y0 + 4, WIDTH - MARGIN, y0 + height - 6), fill=PANEL, outline=(190, 184, 170))
    x += 4
    _bold(draw, (x, y0 + 20), "Supply", 18, kit.INK, "lm")
    y = y0 + 46
    roof = _roof(None, 44, 22)
    image.paste(roof, (x, y - 11), roof)
    auction = view.get("auction") or {}
    kind = auction.get("kind")
    _text(draw, (x + 52, y), f"rooftops left: {view.get('rooftops_left', 0)}", 17, kit.INK, "lm")
    y += 30
    permits = [str(p) for p in view.get("permits_supply") or []]
    text = "permits: " + (", ".join(permits) if permits else "none")
    if kind == "permit":
        text += f" ({auction.get('value')} in auction)"
    elif view.get("permits_removed"):
        text += "  (out: " + ", ".join(str(p) for p in view.get("permits_removed") or []) + ")"
    _text(draw, (x, y), kit.fit(text, 17, WIDTH - MARGIN - x - 6), 17, kit.INK, "lm")
    y += 28
    mayor = view.get("mayor")
    where = {"supply": "in supply", "discarded": "gone"}.get(str(mayor), f"on row {mayor}")
    if kind == "mayor":
        where = "in auction"
    _text(draw, (x, y), f"Mayor: {where}", 17, kit.INK, "lm")
    y += 28
    cancel = "in supply" if view.get("cancel_available") else "in auction" if kind == "cancel" else "gone"
    _text(draw, (x, y), f"Cancel cube: {cancel}", 17, kit.INK, "lm")
    y += 28
    free = [cert for cert in view.get("certificates") or [] if cert.get("owner") is None]
    if free:
        _text(draw, (x, y), "free:", 15, kit.INK, "lm")
        cx = x + 40
        for cert in free:
            image.paste(_cert(str(cert.get("colour")), str(cert.get("mark")), 32, 26), (cx, y - 13))
            cx += 35


@lru_cache(maxsize=32)
def _cert(colour: str, mark: str, w: int, h: int) -> Image.Image:
    """A company certificate: a card in the company colour with its letters."""
    fill = _company(colour)
    image = Image.new("RGB", (w, h), fill)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=2)
    _text(draw, (w / 2, h / 2 + 1), mark, 17 if h >= 28 else 15, kit.text_colour(fill), "mm")
    return image


def _table_height(view: View) -> int:
    return 40 + TABLE_ROW_H * int(view["players"]) + 8


def _draw_players(c: _Canvas, y0: int, view: View, names: list[str], height: int) -> None:
    draw = c.draw
    image = c.image
    draw.rectangle((0, y0, WIDTH, y0 + height - 1), fill=kit.WHITE)
    players = int(view["players"])
    rows = view.get("rows") or []
    marks = _marks(view)
    name_x = MARGIN + 22
    cert_x = MARGIN + 200
    score_x = cert_x + 6 * (CERT_W + 3) + 14
    col_w = (WIDTH - MARGIN - score_x) // (len(rows) + 1)
    header_y = y0 + 20
    _bold(draw, (name_x, header_y), "Players", 18, kit.INK, "lm")
    _text(draw, (cert_x, header_y), "Certificates", 16, kit.INK, "lm")
    draw.rectangle((score_x - 6, y0 + 2, WIDTH - MARGIN, y0 + 38), fill=PANEL)
    over = view.get("phase") == "over"
    caption = (
        f"Building points, round {view.get('round', 1)} (final)"
        if over
        else "Building points if the round ended now"
    )
    _text(draw, ((score_x + WIDTH - MARGIN) / 2, y0 + 11), caption, 14, kit.INK, "mm")
    for i, row in enumerate(rows):
        _text(draw, (score_x + col_w * i + col_w / 2, y0 + 28), f"Row {row.get('name')}", 16, kit.INK, "mm")
    _text(draw, (score_x + col_w * len(rows) + col_w / 2, y0 + 28), "Total", 16, kit.INK, "mm")
    waiting = set(view.get("waiting_for") or [])
    auctioneer = view.get("auctioneer")
    result = view.get("result") or {}
    ranks = result.get("ranks") or []
    wins = view.get("round_wins") or []
    several = int(view.get("rounds", 1)) > 1
    by_owner = view.get("certificates_by_owner") or []
    totals = view.get("score_now") or []
    for seat in range(players):
        y = y0 + 40 + seat * TABLE_ROW_H
        if seat % 2:
            draw.rectangle((0, y, WIDTH, y + TABLE_ROW_H - 1), fill=(244, 241, 234))
        if seat in waiting and not over:
            ay = y + TABLE_ROW_H / 2
            draw.polygon(
                ((MARGIN, ay - 9), (MARGIN + 14, ay), (MARGIN, ay + 9)), fill=HIGHLIGHT, outline=OUTLINE
            )
        tags: list[str] = []
        if seat < len(ranks):
            tags.append(
                f"{ORDINALS[ranks[seat] - 1] if 0 < ranks[seat] <= len(ORDINALS) else ranks[seat]} place"
            )
        if seat == auctioneer and not over:
            tags.append("auctioneer")
        if several and seat < len(wins):
            tags.append(f"rounds won {wins[seat]}")
        name = kit.fit(names[seat], 18, cert_x - name_x - 10)
        if tags:
            _bold(draw, (name_x, y + 15), name, 18, kit.INK, "lm")
            _text(
                draw, (name_x, y + 35), kit.fit(", ".join(tags), 15, cert_x - name_x - 10), 15, kit.INK, "lm"
            )
        else:
            _bold(draw, (name_x, y + TABLE_ROW_H / 2), name, 18, kit.INK, "lm")
        owned = by_owner[seat] if seat < len(by_owner) else []
        for k, colour in enumerate(owned):
            image.paste(
                _cert(str(colour), marks.get(str(colour), "?"), CERT_W, CERT_H),
                (cert_x + k * (CERT_W + 3), y + 8),
            )
        if not owned:
            _text(draw, (cert_x, y + TABLE_ROW_H / 2), "none", 15, DIM, "lm")
        for i, row in enumerate(rows):
            scores = row.get("score_now") or []
            value = int(scores[seat]) if seat < len(scores) else 0
            _bold(
                draw,
                (score_x + col_w * i + col_w / 2, y + TABLE_ROW_H / 2),
                _signed(value),
                18,
                _score_colour(value),
                "mm",
            )
        total = int(totals[seat]) if seat < len(totals) else 0
        _bold(
            draw,
            (score_x + col_w * len(rows) + col_w / 2, y + TABLE_ROW_H / 2),
            _signed(total),
            20,
            _score_colour(total),
            "mm",
        )


# --- entry point ---------------------------------------------------------------------


def render(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """The public view (``RULES.view(state, None)``) and the players' names -> PNG bytes."""
    players = int(view["players"])
    shown = kit.player_names(names, players)
    rows = view.get("rows") or []
    heights = [_row_height(row) for row in rows]
    river_after = (
        sum(1 for lot in (rows[0].get("lots") if rows else []) or [] if not lot.get("beyond_river")) or 4
    )
    board_h = BOARD_TOP_H + sum(heights) + ROW_GAP * (len(rows) + 1)
    display_h = _display_height(view)
    table_h = _table_height(view)
    total_h = HEADER_H + TURN_H + board_h + display_h + table_h + LEGEND_H
    image = Image.new("RGB", (WIDTH, total_h), kit.PAPER)
    canvas = _Canvas(image)
    image.paste(_HEADER(), (0, 0))
    round_text = f"Round {view.get('round', 1)} of {view.get('rounds', 1)}  ·  Turn {view.get('turn', 0)}"
    _text(canvas.draw, (WIDTH - MARGIN, HEADER_H / 2), round_text, 18, kit.WHITE, "rm")
    y = HEADER_H
    _draw_turn(canvas, y, view, shown)
    y += TURN_H
    _draw_board(canvas, y, view, heights, river_after)
    y += board_h
    _draw_display(canvas, y, view, display_h)
    y += display_h
    _draw_players(canvas, y, view, shown, table_h)
    y += table_h
    image.paste(_legend(tuple(_marks(view).items())), (0, y))
    return kit.png(image)
