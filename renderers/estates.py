"""The Estates board as players know it, drawn from the public view only, for phones first.

Input is ``RULES.view(state, None)`` and the players' names; nothing else is
read.  Money is hidden in this game, so no balance, cash box or anything
derived from them is drawn on the board (a seat's private ``you`` entry is
never looked at by :func:`render`, even if a seat view is passed by mistake).
Bids are drawn: they are called out loud at the table.  Only once the match
is over does the view carry the final scores (cash boxes included), because
the standings reveal them anyway; the image then shows exactly those totals.

Phone first: the image is ``WIDTH`` (560) px wide and judged shown 400 px wide,
so no font is smaller than ``FONT_MIN`` (13 px, 9.3 px on the phone), and it is
at most 1.6 times as tall as wide (``MAX_HEIGHT``: in the rare board whose
three rows all stand tall, the cubes get a little flatter, never the text).

Layout, top to bottom (:func:`layout` gives every section's place):

1. title bar: round and turn;
2. the turn panel: who chooses and what is on offer, or the piece under
   auction with one chip per bidder, or who places it; the last move in words;
   at the end the winners;
3. the board: rows A, B, C of ten lots from Main Street (left: the row's
   letter, its requirement, the Mayor's "x2") across the river; white-dirt
   lots are white and marked "W", lots outside the requirement are hatched,
   the permits stand on the first closed lot; buildings are stacks of cubes
   ("3 Gn": number and company letters) under a dark rooftop with its value;
4. the floor cubes on offer (the ends that may be auctioned are framed) and
   the supply;
5. the players: certificates and what each row would score if the round
   ended now; at the end the final scores, equal to the standings;
6. a legend.

The last public move (``view["last"]``) is framed in magenta: the lot just
built on or roofed, the permit sign just placed, the Main Street cell of the
row that got the Mayor or lost a permit, the supply line of a discarded piece,
the chip of the last bidder, or the piece just auctioned.  A private stow
never moves it (the engine does not record it).

Every word is the table's language (``words``): ``[estates.image]`` in the
catalog, the pieces as the log names them (``[estates.piece]``), the company
letters and names (``[estates.code]``, ``[estates.company]``: a French board
writes "3 Ve", "Propriétés Émeraude", as the French buttons and log do),
numbers by ``words.number`` and plurals by ``words.count``; only marks that
are no word ("x2", "+1", lot numbers) are written here.  French runs longer, so a
headline shortens its player names before its own words (``_fill``) and every
label is fitted to its room.

Every company colour is also written as its letters (Bl, Re, ...; Bl, Ro, ...
in French), so no information depends on colour alone.  Speed: the board's ground (grass,
street, river, the thirty lots) is cached per shape, sprites and fixed bars
are cached, and a render pastes them and writes the few changing words.

:func:`render_holdings` draws one seat's private zoom ("My checks"): that
seat's money, cash box, certificates and the buildings its colours top.  It
is the only function here given a seat view, and it is never posted publicly.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers import kit
from renderers.kit import Colour
from rules.estates.data import CASH_BOX_POINTS

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
PANEL_EDGE: Colour = (190, 184, 170)
STRIPE: Colour = (244, 241, 234)
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
HIGHLIGHT: Colour = (255, 150, 0)  # what may be picked now, and whose turn it is
LAST: Colour = (214, 0, 132)  # the last move (magenta: distinct from the orange "pick me")
POSITIVE: Colour = (16, 112, 40)
NEGATIVE: Colour = (178, 24, 24)
BARRIER_RED: Colour = (200, 30, 30)

# --- phone-first sizes ------------------------------------------------------------

WIDTH = 560
PHONE_WIDTH = 400  # the width the image is judged at
MAX_ASPECT = 1.6  # tall : wide
MAX_HEIGHT = int(WIDTH * MAX_ASPECT)
F_SMALL = 13  # lot numbers, captions, legend: the smallest text
F_BODY = 14  # cube labels, supply lines, names, chips
F_LABEL = 15  # section titles, scores
F_HEAD = 17  # the turn panel's headline, row letters
F_TITLE = 19  # the title bar, "Game over"
FONT_MIN = min(F_SMALL, F_BODY, F_LABEL, F_HEAD, F_TITLE)
"""Every size this module draws with; 13 px at 560 wide is 9.3 px on a 400 px phone."""

# --- geometry ------------------------------------------------------------------

MARGIN = 6
HEADER_H = 28
TURN_H = 72
BOARD_TOP_H = 18  # "Main St." / "river" labels over the board
ROW_GAP = 4
STREET_W = 62
LX = MARGIN + STREET_W + 4  # left edge of lot 1
LOT_W = 44
PITCH = 47  # lot width plus the gap between lots
RIVER_W = 14
LOTS = 10
CUBE_HEIGHTS = (18, 17, 16, 15)  # flatter cubes only when three tall rows would break MAX_HEIGHT
ROOF_H = 14
BASE_H = 15  # the strip under a lot with its number
ROW_PAD = 2
MIN_LEVELS = 2  # a row is always at least this many cubes tall
PERMIT_LINE_H = 15
SPRITE_W, SPRITE_H = 52, 34  # the piece under auction
CHIP_X = MARGIN + SPRITE_W + 8
CHIP_H = 36
DISPLAY_HEAD_H = 22
DCUBE_W, DCUBE_H, DPITCH, DLINE_H = 38, 22, 41, 27
DISPLAY_H = DISPLAY_HEAD_H + 3 * DLINE_H + 13
SUPPLY_X = MARGIN + 4 + 8 * DPITCH + 6
SUPPLY_LINE_H = 17
TABLE_HEAD_H = 34
TABLE_ROW_H = 32
CERT_W, CERT_H = 24, 18
NAME_X = MARGIN + 16
CERT_X = 160
SCORE_X = CERT_X + 6 * (CERT_W + 2) + 8
LEGEND_H = 68
FRAME = 3  # width of the last-move frame

PLACES = 5
"""Ranks the catalog spells ("1st place" ... "5th place", ``[estates.image.table]``): one per seat."""


def cube_label(number: object, mark: object) -> str:
    """``3 Gn``: a floor cube as both the image and the buttons write it (number, company letters)."""
    return f"{number} {mark}"


# --- small helpers ---------------------------------------------------------------


def _bold(
    image: Image.Image, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str
) -> None:
    """:func:`kit.label` in the bold weight (the kit caches each word's glyphs and records where it
    lands, for the overprint test)."""
    kit.label(image, xy, text, size, fill, anchor, bold=True)


def _text(
    image: Image.Image, xy: tuple[float, float], text: str, size: int, fill: Colour, anchor: str = "lm"
) -> None:
    """:func:`kit.label` in the regular weight."""
    kit.label(image, xy, text, size, fill, anchor)


def _frame(draw: ImageDraw.ImageDraw, box: Box, colour: Colour = LAST) -> None:
    draw.rectangle(box, outline=colour, width=FRAME)


def _signed(value: int, words: kit.Words) -> str:
    return "+" + words.number(value) if value > 0 else words.number(value)


def _score_colour(value: int) -> Colour:
    return POSITIVE if value > 0 else NEGATIVE if value < 0 else kit.INK


def _company(colour: str) -> Colour:
    return COMPANY.get(colour, UNKNOWN_COMPANY)


def _listed(items: Sequence[str], last: str) -> str:
    """``a, b`` + ``last`` + ``c``: a list as a sentence says it (``last`` is the catalog's " and "/" or ")."""
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + last + items[-1]


def _fill(
    words: kit.Words,
    key: str,
    size: int,
    width: float,
    bold: bool,
    names: Mapping[str, str],
    **params: object,
) -> str:
    """The catalog line ``key`` fitted to ``width`` by shortening the player names in it first.

    A sentence's own words are worth more than the end of a long name ("Bartholomew the..."),
    and French sentences run longer than English ones, so each name gets an equal share of the
    room the rest of the sentence leaves, and only then is the whole line cut if it must be.
    """
    text = words(key, **names, **params)
    if not names or kit.font(size, bold).getlength(text) <= width:
        return kit.fit(text, size, width, bold)
    bare = words(key, **dict.fromkeys(names, ""), **params)
    share = max(48.0, (width - kit.font(size, bold).getlength(bare)) / len(names))
    short = {k: kit.fit(v, size, share, bold) for k, v in names.items()}
    return kit.fit(words(key, **short, **params), size, width, bold)


def colour_word(colour: object, words: kit.Words) -> str:
    """A company colour as the table's language names it ("green", "vert"); the key if unknown."""
    key = f"estates.colour.{colour}"
    return words(key) if colour in COMPANY else str(colour)


def colour_code(colour: object, words: kit.Words, printed: object = "?") -> str:
    """A company colour's two letters in the table's language (``estates.code``: "Gn", French "Ve"),
    as the buttons and the messages print them, so a French board carries no English letters; a
    colour this renderer does not know keeps the letters the view ``printed``."""
    return words(f"estates.code.{colour}") if colour in COMPANY else str(printed)


def company_name(colour: object, words: kit.Words, printed: object = "?") -> str:
    """A company's name in the table's language (``estates.company``: "Emerald Properties",
    "Propriétés Émeraude"); an unknown colour keeps the name the view ``printed``."""
    return words(f"estates.company.{colour}") if colour in COMPANY else str(printed)


# --- cached sprites ----------------------------------------------------------------


@lru_cache(maxsize=512)
def _cube(colour: str, mark: str, number: int, w: int, h: int, size: int) -> Image.Image:
    """A floor cube: company colour and ``cube_label`` (the number in bold)."""
    fill = _company(colour)
    ink = kit.text_colour(fill)
    image = Image.new("RGB", (w, h), fill)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=1)
    face = kit.font(size)
    num = str(number)
    space = face.getlength(" ")
    num_w = kit.font(size, bold=True).getlength(num)
    total = num_w + space + face.getlength(mark)
    left = (w - total) / 2
    _bold(image, (left, h / 2), num, size, ink, "lm")
    _text(image, (left + num_w + space, h / 2), mark, size, ink, "lm")
    return image


@lru_cache(maxsize=64)
def _roof(value: int | None, w: int, h: int, size: int = F_SMALL) -> Image.Image:
    """A rooftop (RGBA, transparent corners) with its value in white (none for an icon)."""
    image = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    inset = max(3, h * 2 // 5)
    draw.polygon(((0, h - 1), (inset, 0), (w - 1 - inset, 0), (w - 1, h - 1)), fill=(*ROOF, 255))
    if value is not None:
        _bold(image, (w / 2, h / 2 + 1), str(value), size, kit.WHITE, "mm")
    return image


@lru_cache(maxsize=256)
def _lot(number: int, white: bool, open_: bool, height: int, words: kit.Words) -> Image.Image:
    """One development lot with its number strip; white dirt speckled and lettered (W, TB), closed
    lots hatched."""
    fills = {
        (True, True): WHITE_LOT,
        (True, False): LOT,
        (False, True): CLOSED_WHITE,
        (False, False): CLOSED_LOT,
    }
    image = Image.new("RGB", (LOT_W, height), fills[open_, white])
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
        label = words("estates.image.board.white_lot", number=number)
        _text(image, (LOT_W / 2, height - BASE_H / 2), label, F_SMALL, kit.INK, "mm")
    else:
        draw.rectangle(base, fill=LOT_BASE if open_ else CLOSED_HATCH)
        _text(image, (LOT_W / 2, height - BASE_H / 2), str(number), F_SMALL, kit.WHITE, "mm")
    return image


def _permit_height(count: int) -> int:
    return 6 + PERMIT_LINE_H * count + 3


@lru_cache(maxsize=16)
def _permit_sign(labels: tuple[str, ...], w: int) -> Image.Image:
    """The building permits standing on one lot: a striped barrier and each permit's change."""
    h = _permit_height(len(labels))
    image = Image.new("RGB", (w, h), kit.WHITE)
    draw = ImageDraw.Draw(image)
    for x in range(-8, w, 8):
        draw.polygon(((x, 6), (x + 4, 6), (x + 8, 0), (x + 4, 0)), fill=BARRIER_RED)
    for i, label in enumerate(labels):
        _bold(image, (w / 2, 6 + PERMIT_LINE_H * i + PERMIT_LINE_H / 2 + 1), label, F_BODY, kit.INK, "mm")
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=1)
    return image


@lru_cache(maxsize=4)
def _mayor(w: int, h: int) -> Image.Image:
    """The Mayor's badge: gold, "x2" (it doubles its row)."""
    image = Image.new("RGB", (w, h), GOLD)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=1)
    _bold(image, (w / 2, h / 2), "x2", F_LABEL, kit.INK, "mm")
    return image


@lru_cache(maxsize=32)
def _cert(colour: str, mark: str, w: int, h: int) -> Image.Image:
    """A company certificate: a card in the company colour with its letters."""
    fill = _company(colour)
    image = Image.new("RGB", (w, h), fill)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, w - 1, h - 1), outline=OUTLINE, width=1)
    _text(image, (w / 2, h / 2), mark, F_SMALL, kit.text_colour(fill), "mm")
    return image


def _piece_sprite(auction: Mapping[str, Any], marks: Mapping[str, str], words: kit.Words) -> Image.Image:
    return _piece_sprite_cached(
        str(auction.get("kind")),
        str(auction.get("colour", "")),
        marks.get(str(auction.get("colour")), "?"),
        int(auction.get("number") or 0),
        int(auction.get("value") or 0),
        words,
    )


@lru_cache(maxsize=64)
def _piece_sprite_cached(
    kind: str, colour: str, mark: str, number: int, value: int, words: kit.Words
) -> Image.Image:
    """The piece under auction, big enough to see from across the table."""
    w, h = SPRITE_W, SPRITE_H
    if kind == "cube":
        return _cube(colour, mark, number, w, h, F_HEAD)
    image = Image.new("RGB", (w, h), PANEL)
    draw = ImageDraw.Draw(image)
    if kind == "roof":
        roof = _roof(value, w, h - 6, F_HEAD)
        kit.paste(image, roof, (0, 3), roof)
    elif kind == "permit":
        sign = _permit_sign((words("estates.image.sprite.permit", value=value),), w)
        kit.paste(image, sign, (0, (h - sign.height) // 2))
    elif kind == "mayor":
        draw.rectangle((0, 0, w - 1, h - 1), fill=GOLD, outline=OUTLINE)
        label = kit.fit(words("estates.image.sprite.mayor"), F_SMALL, w - 4, bold=True)
        _bold(image, (w / 2, h / 2), label, F_SMALL, kit.INK, "mm")
    else:
        draw.rectangle((0, 0, w - 1, h - 1), fill=(20, 20, 20), outline=OUTLINE)
        label = kit.fit(words("estates.image.sprite.cancel"), F_SMALL, w - 4)
        _text(image, (w / 2, h / 2), label, F_SMALL, kit.WHITE, "mm")
    return image


@lru_cache(maxsize=4)
def _header(words: kit.Words) -> Image.Image:
    """The title bar's fixed part (pasted, never drawn on, so the cached image is shared)."""
    image = Image.new("RGB", (WIDTH, HEADER_H), BAR)
    _bold(image, (MARGIN + 2, HEADER_H / 2), words("estates.image.title"), F_TITLE, kit.WHITE, "lm")
    return image


LEGEND_LINES = ("cubes", "shapes", "highlights")
"""The legend's lines under the company swatches, ``[estates.image.legend]`` in the catalog."""


@lru_cache(maxsize=8)
def _legend(companies: tuple[tuple[str, str], ...], words: kit.Words) -> Image.Image:
    """The key under the board: each company's colour and letters, and what the shapes mean."""
    image = Image.new("RGB", (WIDTH, LEGEND_H), kit.PAPER)
    x = MARGIN + 2
    y = 4
    for colour, mark in companies:
        name = colour_word(colour, words)
        kit.paste(image, _cert(colour, mark, CERT_W, CERT_H - 2), (x, y))
        _text(image, (x + CERT_W + 3, y + (CERT_H - 2) / 2), name, F_SMALL, kit.INK)
        x += CERT_W + 3 + int(kit.font(F_SMALL).getlength(name)) + 10
    # The legend's example cube is a green one, lettered and named as the table's language does.
    example = {"code": colour_code("green", words), "company": company_name("green", words)}
    for i, key in enumerate(LEGEND_LINES):
        line = words(f"estates.image.legend.{key}", **example)
        _text(
            image,
            (MARGIN + 2, y + CERT_H + 9 + 15 * i),
            kit.fit(line, F_SMALL, WIDTH - 2 * MARGIN),
            F_SMALL,
            kit.INK,
        )
    return image


# --- layout ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Layout:
    """Where each section of one image goes (tests and the drawing code share it)."""

    height: int
    cube_h: int
    river_after: int
    board_top: int
    row_tops: tuple[int, ...]
    row_heights: tuple[int, ...]
    display_top: int
    table_top: int
    legend_top: int
    turn_top: int = HEADER_H


def _levels(row: Mapping[str, Any]) -> int:
    return max([MIN_LEVELS, *(len(lot.get("cubes") or []) for lot in row.get("lots") or [])])


def _row_height(row: Mapping[str, Any], cube_h: int) -> int:
    body = ROW_PAD + ROOF_H + _levels(row) * cube_h + 1
    permits = len(row.get("permits") or [])
    if permits:
        body = max(body, _permit_height(permits) + ROW_PAD + 2)
    return body + BASE_H


def _table_height(view: View) -> int:
    return TABLE_HEAD_H + TABLE_ROW_H * int(view["players"]) + 6


def layout(view: View) -> Layout:
    """Section positions; the cubes flatten (18 down to 15 px) only if the image would exceed 1.6 : 1."""
    rows = view.get("rows") or []
    first = rows[0].get("lots") if rows else []
    river_after = sum(1 for lot in first or [] if not lot.get("beyond_river")) or 4
    fixed = HEADER_H + TURN_H + BOARD_TOP_H + ROW_GAP + DISPLAY_H + _table_height(view) + LEGEND_H
    heights: list[int] = []
    cube_h = CUBE_HEIGHTS[-1]
    for cube_h in CUBE_HEIGHTS:
        heights = [_row_height(row, cube_h) for row in rows]
        if fixed + sum(h + ROW_GAP for h in heights) <= MAX_HEIGHT:
            break
    board_top = HEADER_H + TURN_H
    tops: list[int] = []
    y = board_top + BOARD_TOP_H + ROW_GAP
    for h in heights:
        tops.append(y)
        y += h + ROW_GAP
    display_top = y
    table_top = display_top + DISPLAY_H
    legend_top = table_top + _table_height(view)
    return Layout(
        height=legend_top + LEGEND_H,
        cube_h=cube_h,
        river_after=river_after,
        board_top=board_top,
        row_tops=tuple(tops),
        row_heights=tuple(heights),
        display_top=display_top,
        table_top=table_top,
        legend_top=legend_top,
    )


def lot_x(index: int, river_after: int = 4) -> int:
    """Left edge of the lot at 0-based ``index`` (the river sits after ``river_after`` lots)."""
    return LX + index * PITCH + (RIVER_W if index >= river_after else 0)


def lot_box(geo: Layout, row: int, lot: int) -> Box:
    """The whole lot ``lot`` (1-based) of row index ``row``, number strip included."""
    x = lot_x(lot - 1, geo.river_after)
    top = geo.row_tops[row]
    return (x, top, x + LOT_W - 1, top + geo.row_heights[row] - 1)


def seat_box(geo: Layout, seat: int) -> Box:
    """One seat's line of the players' table."""
    y = geo.table_top + TABLE_HEAD_H + seat * TABLE_ROW_H
    return (0, y, WIDTH - 1, y + TABLE_ROW_H - 1)


def _sprite_box(geo: Layout) -> Box:
    y = geo.turn_top + 5
    return (MARGIN, y, MARGIN + SPRITE_W - 1, y + SPRITE_H - 1)


def _bid_order(view: View, auctioneer: int) -> list[int]:
    players = int(view["players"])
    return [(auctioneer + k) % players for k in range(1, players)]


def _chip_boxes(view: View, geo: Layout) -> dict[int, Box]:
    auction = view.get("auction")
    auctioneer = auction.get("auctioneer") if isinstance(auction, Mapping) else None
    if not isinstance(auctioneer, int):
        auctioneer = int(view.get("auctioneer") or 0)
    order = _bid_order(view, auctioneer)
    width = WIDTH - MARGIN - CHIP_X
    chip_w = min(160, (width - 5 * (len(order) - 1)) // max(1, len(order)))
    y = geo.turn_top + TURN_H - CHIP_H - 4
    return {
        seat: (CHIP_X + i * (chip_w + 5), y, CHIP_X + i * (chip_w + 5) + chip_w, y + CHIP_H)
        for i, seat in enumerate(order)
    }


SUPPLY_LINES = ("roof", "permit", "mayor", "cancel", "certificates")
"""The supply box's lines, top to bottom (a discarded piece highlights its line)."""


def _supply_line_y(geo: Layout, line: str) -> int:
    return geo.display_top + 28 + SUPPLY_LINES.index(line) * SUPPLY_LINE_H


def last_box(view: View, geo: Layout) -> Box | None:
    """Where the magenta last-move frame goes, or None (no public move yet on this board)."""
    last = view.get("last")
    if not isinstance(last, Mapping):
        return None
    kind = last.get("kind")
    names = [str(row.get("name")) for row in view.get("rows") or []]
    row = names.index(str(last.get("row"))) if last.get("row") in names else None
    lot = last.get("lot")
    if kind in ("built", "roofed") and row is not None and isinstance(lot, int):
        x0, y0, x1, y1 = lot_box(geo, row, lot)
        return (x0 - 2, y0 - 2, x1 + 2, y1 + 2)
    if kind == "permit_placed" and row is not None and isinstance(lot, int):
        x0, y0, x1, _y1 = lot_box(geo, row, lot)
        permits = len(view["rows"][row].get("permits") or [])
        return (x0 - 2, y0, x1 + 2, y0 + ROW_PAD + _permit_height(permits) + 2)
    if kind in ("mayor_placed", "permit_cancelled") and row is not None:
        top = geo.row_tops[row]
        return (MARGIN, top, MARGIN + STREET_W - 1, top + geo.row_heights[row] - 1)
    if kind == "discarded":
        piece = str(last.get("piece"))
        line = "permit" if piece.startswith("permit") else piece
        if line in SUPPLY_LINES:
            y = _supply_line_y(geo, line)
            return (SUPPLY_X - 2, y - SUPPLY_LINE_H // 2, WIDTH - MARGIN - 2, y + SUPPLY_LINE_H // 2)
        return None
    auction = view.get("auction")
    if not isinstance(auction, Mapping):
        return None
    if kind in ("bid", "passed"):
        box = _chip_boxes(view, geo).get(int(last.get("seat") or 0))
        return None if box is None else (box[0] - 2, box[1] - 2, box[2] + 2, box[3] + 2)
    if kind in ("picked", "sold", "bought", "taken_free"):
        x0, y0, x1, y1 = _sprite_box(geo)
        return (x0 - 3, y0 - 3, x1 + 3, y1 + 3)
    return None


# --- piece words ---------------------------------------------------------------------


def _marks(view: View, words: kit.Words) -> dict[str, str]:
    """Colour name -> company letters in the table's language (:func:`colour_code`), for every
    company of the view."""
    return {
        str(c["colour"]): colour_code(c["colour"], words, c.get("mark"))
        for c in view.get("certificates") or []
    }


def _piece_words(piece: Mapping[str, Any], marks: Mapping[str, str], words: kit.Words) -> str:
    """A piece as the table's messages name it (``[estates.piece]``: "the green 3 (3 Gn)", "a
    rooftop worth 4"), so the board and the log say the same thing; a permit is "permit 2", as
    the supply and the offer list write it (the headline has no room for "building permit")."""
    kind = piece.get("kind")
    if kind == "cube":
        colour = piece.get("colour")
        number = piece.get("number")
        return words(
            "estates.piece.cube",
            colour=colour_word(colour, words),
            number=number,
            code=cube_label(number, marks.get(str(colour), "?")),
        )
    if kind == "permit":
        return words("estates.image.permit", value=piece.get("value"))
    if kind in ("roof", "mayor", "cancel"):
        return words(f"estates.piece.{kind}", value=piece.get("value"))
    return words("estates.piece.unknown")


def _token_words(token: str, view: View, words: kit.Words) -> str:
    """A piece token of the last move ("green3", "permit2", "mayor") in the table's words."""
    if token.startswith("permit"):
        return words("estates.image.permit", value=token.removeprefix("permit"))
    if token in ("mayor", "cancel"):
        return words(f"estates.piece.{token}")
    if token == "roof":  # the last move keeps no rooftop's value (a rooftop is never discarded)
        return words("estates.piece.any_roof")
    colour = token.rstrip("0123456789")
    piece = {"kind": "cube", "colour": colour, "number": token[len(colour) :]}
    return _piece_words(piece, _marks(view, words), words)


LAST_WORDS = frozenset({"built", "roofed", "permit_placed", "mayor_placed", "permit_cancelled", "discarded"})
"""Last moves the choose phase tells in words (``[estates.image.last]``): the turn's placement."""


def _last_words(view: View, names: list[str], words: kit.Words) -> str | None:
    """The last move in words, for the choose phase (when it was a placement)."""
    last = view.get("last")
    if not isinstance(last, Mapping) or last.get("kind") not in LAST_WORDS:
        return None
    seat = last.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"
    move = words(
        f"estates.image.last.{last.get('kind')}",
        player=who,
        piece=_token_words(str(last.get("piece")), view, words),
        row=last.get("row"),
        lot=last.get("lot"),
    )
    return words("estates.image.last.line", move=move)


def _auctionable(view: View, words: kit.Words) -> list[str]:
    """What the auctioneer may pick now, in words (the same tests the engine makes)."""
    out: list[str] = []
    if any(cube.get("selectable") for line in view.get("display") or [] for cube in line):
        out.append(words("estates.image.turn.framed_cube"))
    unroofed = any(
        lot.get("cubes") and lot.get("roof") is None
        for row in view.get("rows") or []
        for lot in row.get("lots") or []
    )
    if view.get("rooftops_left") and unroofed:
        out.append(words("estates.piece.any_roof"))
    permits = [str(p) for p in view.get("permits_supply") or []]
    if permits:
        out.append(words.count("estates.image.turn.permits", len(permits), values=", ".join(permits)))
    if view.get("mayor") == "supply":
        out.append(words("estates.piece.mayor"))
    if view.get("cancel_available"):
        out.append(words("estates.piece.cancel"))
    return out or [words("estates.image.turn.nothing")]


# --- sections ----------------------------------------------------------------------


class _Canvas:
    def __init__(self, image: Image.Image) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)


def _draw_over(c: _Canvas, geo: Layout, view: View, names: list[str], words: kit.Words) -> None:
    """The turn panel once the match is over: the winners and their score."""
    image = c.image
    y0 = geo.turn_top
    full = WIDTH - 2 * MARGIN
    result = view.get("result") or {}
    seats = [s for s in result.get("winners", []) if 0 <= s < len(names)]
    scores = result.get("scores") or []
    _bold(image, (MARGIN + 2, y0 + 16), words("estates.image.over.title"), F_TITLE, kit.INK, "lm")
    winners = _listed([names[s] for s in seats], words("host.and"))
    if seats and scores:
        points = words.count("estates.points", int(scores[seats[0]]))
        winners = words("estates.image.over.with_points", names=winners, points=points)
    line = words.count("estates.image.over.winners", len(seats), names=winners)
    _bold(image, (MARGIN + 2, y0 + 40), kit.fit(line, F_HEAD, full, bold=True), F_HEAD, kit.INK, "lm")
    below = kit.fit(words("estates.image.over.see_table"), F_BODY, full)
    _text(image, (MARGIN + 2, y0 + 61), below, F_BODY, kit.INK)


def _draw_choose(c: _Canvas, geo: Layout, view: View, names: list[str], words: kit.Words) -> None:
    """The turn panel while the auctioneer chooses: what is on offer and the last placement."""
    image = c.image
    y0 = geo.turn_top
    full = WIDTH - 2 * MARGIN
    auctioneer = int(view.get("auctioneer") or 0)
    headline = _fill(words, "estates.image.turn.choose", F_HEAD, full, True, {"player": names[auctioneer]})
    _bold(image, (MARGIN + 2, y0 + 15), headline, F_HEAD, kit.INK, "lm")
    items = _listed(_auctionable(view, words), words("estates.image.turn.or"))
    line = words("estates.image.turn.offer", items=items)
    _text(image, (MARGIN + 2, y0 + 37), kit.fit(line, F_BODY, full), F_BODY, kit.INK)
    last = _last_words(view, names, words)
    x = MARGIN + 2
    if last is None:
        fresh = "fresh" if view.get("round", 1) == 1 else "new_round"
        last = words(f"estates.image.turn.{fresh}")
    else:
        c.draw.rectangle((MARGIN + 2, y0 + 53, MARGIN + 12, y0 + 63), outline=LAST, width=FRAME)
        x = MARGIN + 18
    _text(image, (x, y0 + 58), kit.fit(last, F_BODY, WIDTH - MARGIN - x), F_BODY, kit.INK)


PLACE_VERBS = {"cube": "place", "roof": "place", "cancel": "use_or_discard"}
"""How the turn panel says what the winner does with each kind of piece (else "place_or_discard")."""


def _auction_headline(view: View, names: list[str], words: kit.Words) -> str:
    """The turn panel's headline during an auction: who auctions, settles or places what."""
    auction: Mapping[str, Any] = view["auction"]
    auctioneer = int(auction.get("auctioneer", view.get("auctioneer") or 0))
    piece = _piece_words(auction, _marks(view, words), words)
    high = auction.get("high_bid")
    price = words.number(int(high)) if isinstance(high, int) else "?"
    width = WIDTH - MARGIN - CHIP_X

    def name(seat: object) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    phase = view.get("phase")
    if phase == "bid":
        return _fill(
            words,
            "estates.image.turn.auction",
            F_HEAD,
            width,
            True,
            {"player": name(auctioneer)},
            piece=piece,
        )
    if phase == "decide":
        return _fill(
            words,
            "estates.image.turn.decide",
            F_HEAD,
            width,
            True,
            {"player": name(auctioneer), "buyer": name(auction.get("high_bidder"))},
            price=price,
        )
    winner = auction.get("winner")
    if high is None:
        how = words("estates.image.turn.free")
    elif winner == auctioneer:
        how = words("estates.image.turn.kept", price=price)
    else:
        how = words("estates.image.turn.bought", price=price)
    verb = PLACE_VERBS.get(str(auction.get("kind")), "place_or_discard")
    return _fill(
        words,
        f"estates.image.turn.{verb}",
        F_HEAD,
        width,
        True,
        {"player": name(winner)},
        piece=piece,
        how=how,
    )


def _draw_turn(c: _Canvas, geo: Layout, view: View, names: list[str], words: kit.Words) -> None:
    y0 = geo.turn_top
    c.draw.rectangle((0, y0, WIDTH, y0 + TURN_H - 1), fill=PANEL)
    c.draw.line((0, y0 + TURN_H - 1, WIDTH, y0 + TURN_H - 1), fill=PANEL_EDGE, width=1)
    with kit.panel(c.image, "turn panel", (0, y0, WIDTH, y0 + TURN_H - 1)):
        _turn_panel(c, geo, view, names, words)


def _turn_panel(c: _Canvas, geo: Layout, view: View, names: list[str], words: kit.Words) -> None:
    draw = c.draw
    image = c.image
    y0 = geo.turn_top
    auction = view.get("auction")
    if view.get("phase") == "over":
        _draw_over(c, geo, view, names, words)
        return
    if not isinstance(auction, Mapping):
        _draw_choose(c, geo, view, names, words)
        return
    x0, y0, x1, y1 = _sprite_box(geo)
    with kit.panel(c.image, "piece under auction", (x0, y0, x1 + 1, y1 + 1)):
        kit.paste(c.image, _piece_sprite(auction, _marks(view, words), words), (x0, y0))
    headline = _auction_headline(view, names, words)
    _bold(image, (CHIP_X, y0 + 15), headline, F_HEAD, kit.INK, "lm")
    # One chip per bidder, clockwise from the auctioneer's left.
    said = {int(b["seat"]): b.get("amount") for b in auction.get("bids") or []}
    to_bid = auction.get("to_bid")
    for seat, box in _chip_boxes(view, geo).items():
        x0, cy, x1, _y1 = box
        if seat in said:
            amount = said[seat]
            if amount is None:
                status = words("estates.image.chip.pass")
            else:
                status = words("estates.image.chip.bid", amount=words.number(int(amount)))
            fill: Colour = kit.WHITE
            ink: Colour = kit.INK if amount is not None else DIM
        elif seat == to_bid:
            status = words("estates.image.chip.to_bid", min=words.number(int(auction.get("min_bid") or 0)))
            fill, ink = GOLD, kit.INK
        else:
            status = words("estates.image.chip.waits")
            fill, ink = PANEL, DIM
        draw.rectangle(
            box,
            fill=fill,
            outline=OUTLINE if seat == to_bid else (150, 146, 136),
            width=2 if seat == to_bid else 1,
        )
        inner = x1 - x0 - 10
        with kit.panel(image, f"bid chip {seat + 1}", box):
            _text(image, (x0 + 6, cy + 10), kit.fit(names[seat], F_SMALL, inner), F_SMALL, kit.INK)
            _bold(image, (x0 + 6, cy + 26), kit.fit(status, F_BODY, inner, bold=True), F_BODY, ink, "lm")


@lru_cache(maxsize=32)
def _ground(
    heights: tuple[int, ...],
    lots: tuple[tuple[tuple[bool, bool], ...], ...],
    river_after: int,
    words: kit.Words,
) -> Image.Image:
    """The board without its pieces: grass, Main Street, the river and every lot (cached per shape)."""
    total = BOARD_TOP_H + ROW_GAP + sum(h + ROW_GAP for h in heights)
    image = Image.new("RGB", (WIDTH, total), GRASS)
    draw = ImageDraw.Draw(image)
    draw.rectangle((MARGIN, 0, MARGIN + STREET_W - 1, total - 1), fill=STREET)
    river_x0 = lot_x(river_after - 1, river_after) + LOT_W + 2
    river_x1 = lot_x(river_after, river_after) - 3
    draw.rectangle((river_x0, 0, river_x1, total - 1), fill=RIVER)
    mid = (river_x0 + river_x1) // 2
    for y in range(BOARD_TOP_H + 6, total - 6, 12):
        draw.line(((mid - 4, y), (mid, y + 4), (mid + 4, y)), fill=RIVER_WAVE, width=1)
    street = kit.fit(words("estates.image.board.main_street"), F_SMALL, STREET_W + 6, bold=True)
    with kit.panel(image, "Main Street's head", (0, 0, LX, BOARD_TOP_H)):
        _bold(image, (MARGIN + STREET_W / 2, BOARD_TOP_H / 2 + 1), street, F_SMALL, kit.WHITE, "mm")
    before = kit.fit(words("estates.image.board.before_river"), F_SMALL, river_x0 - LX)
    with kit.panel(image, "before the river", (LX, 0, river_x0, BOARD_TOP_H)):
        _text(image, ((LX + river_x0) / 2, BOARD_TOP_H / 2 + 1), before, F_SMALL, kit.WHITE, "mm")
    beyond = kit.fit(words("estates.image.board.beyond_river"), F_SMALL, WIDTH - MARGIN - river_x1)
    with kit.panel(image, "beyond the river", (river_x1, 0, WIDTH - MARGIN, BOARD_TOP_H)):
        _text(image, ((river_x1 + WIDTH - MARGIN) / 2, BOARD_TOP_H / 2 + 1), beyond, F_SMALL, kit.WHITE, "mm")
    y = BOARD_TOP_H + ROW_GAP
    for height, row in zip(heights, lots, strict=True):
        for index, (white, open_) in enumerate(row):
            kit.paste(image, _lot(index + 1, white, open_, height, words), (lot_x(index, river_after), y))
        y += height + ROW_GAP
    return image


def _draw_board(c: _Canvas, geo: Layout, view: View, words: kit.Words) -> None:
    rows = view.get("rows") or []
    shape = tuple(
        tuple((bool(lot.get("white_dirt")), bool(lot.get("open"))) for lot in row.get("lots") or [])
        for row in rows
    )
    kit.paste(c.image, _ground(geo.row_heights, shape, geo.river_after, words), (0, geo.board_top))
    for r, row in enumerate(rows):
        _draw_row(c, geo, r, row, words)


def _draw_row(c: _Canvas, geo: Layout, r: int, row: Mapping[str, Any], words: kit.Words) -> None:
    y0 = geo.row_tops[r]
    height = geo.row_heights[r]
    with kit.panel(c.image, f"Main Street, row {r + 1}", (MARGIN, y0, MARGIN + STREET_W, y0 + height)):
        _street_cell(c, y0, row, words)
    _draw_lots(c, geo, r, row, words)


def _street_cell(c: _Canvas, y0: int, row: Mapping[str, Any], words: kit.Words) -> None:
    """A row's cell on Main Street: its letter (green when complete), the Mayor's x2, the requirement."""
    draw = c.draw
    image = c.image
    sx = MARGIN + 3
    complete = bool(row.get("complete"))
    draw.rectangle((sx, y0 + 3, sx + 24, y0 + 27), fill=POSITIVE if complete else kit.WHITE, outline=OUTLINE)
    _bold(
        image, (sx + 12, y0 + 15), str(row.get("name", "?")), F_HEAD, kit.WHITE if complete else kit.INK, "mm"
    )
    if row.get("mayor"):
        kit.paste(image, _mayor(28, 25), (sx + 28, y0 + 3))
    room = STREET_W - 5
    need = words("estates.image.board.need", requirement=row.get("requirement", "?"))
    _text(image, (sx, y0 + 38), kit.fit(need, F_SMALL, room), F_SMALL, kit.WHITE)
    if complete:
        status = words("estates.image.board.complete")
    else:
        status = words.count("estates.image.board.built", int(row.get("developed") or 0))
    _text(image, (sx, y0 + 53), kit.fit(status, F_SMALL, room), F_SMALL, kit.WHITE)


def _draw_lots(c: _Canvas, geo: Layout, r: int, row: Mapping[str, Any], words: kit.Words) -> None:
    """A row's buildings (cubes under their rooftops) and its permit sign, each on its lot."""
    image = c.image
    y0 = geo.row_tops[r]
    height = geo.row_heights[r]
    base_y = y0 + height - BASE_H
    cube_h = geo.cube_h
    permit_lot = row.get("permit_lot")
    for index, lot in enumerate(row.get("lots") or []):
        x = lot_x(index, geo.river_after)
        with kit.panel(image, f"lot {row.get('name')}{index + 1}", (x, y0, x + LOT_W, y0 + height)):
            _draw_lot(image, x, base_y, cube_h, lot, words)
        if permit_lot == index + 1:
            labels = tuple(
                f"{'+' if p.get('direction') == 'longer' else '-'}{p.get('value')}"
                for p in row.get("permits") or []
            )
            kit.paste(image, _permit_sign(labels, LOT_W), (x, y0 + ROW_PAD))


def _draw_lot(
    image: Image.Image, x: int, base_y: int, cube_h: int, lot: Mapping[str, Any], words: kit.Words
) -> None:
    """A building: its floor cubes, bottom up, under its rooftop."""
    cubes = lot.get("cubes") or []
    for level, cube in enumerate(cubes):
        sprite = _cube(
            str(cube.get("colour")),
            colour_code(cube.get("colour"), words, cube.get("mark")),
            int(cube.get("number", 0)),
            LOT_W - 2,
            cube_h,
            F_BODY,
        )
        kit.paste(image, sprite, (x + 1, base_y - (level + 1) * cube_h - 1))
    roof = lot.get("roof")
    if roof is not None and cubes:
        sprite = _roof(int(roof), LOT_W, ROOF_H)
        kit.paste(image, sprite, (x, base_y - len(cubes) * cube_h - ROOF_H - 1), sprite)


def _draw_display(c: _Canvas, geo: Layout, view: View, words: kit.Words) -> None:
    y0 = geo.display_top
    c.draw.rectangle((0, y0, WIDTH, y0 + DISPLAY_H - 1), fill=kit.PAPER)
    with kit.panel(c.image, "floor cubes on offer", (0, y0, SUPPLY_X - 5, y0 + DISPLAY_H)):
        _floor_cubes(c, geo, view, words)
    with kit.panel(c.image, "supply", (SUPPLY_X - 5, y0 + 3, WIDTH - MARGIN, y0 + DISPLAY_H - 5)):
        _draw_supply(c, geo, view, words)


def _floor_cubes(c: _Canvas, geo: Layout, view: View, words: kit.Words) -> None:
    """The floor cubes on offer, three lines of up to eight; the one under auction and the ends
    that may be picked framed."""
    draw = c.draw
    image = c.image
    y0 = geo.display_top
    title = kit.fit(words("estates.image.display.title"), F_LABEL, SUPPLY_X - 2 * MARGIN - 8, bold=True)
    _bold(image, (MARGIN + 2, y0 + 12), title, F_LABEL, kit.INK, "lm")
    auction = view.get("auction") or {}
    on_auction = auction.get("piece") if auction.get("kind") == "cube" else None
    for line_no, line in enumerate(view.get("display") or []):
        y = y0 + DISPLAY_HEAD_H + 6 + line_no * DLINE_H
        for i, cube in enumerate(line):
            x = MARGIN + 4 + i * DPITCH
            if cube.get("cube") == on_auction:
                draw.rectangle((x - 3, y - 3, x + DCUBE_W + 2, y + DCUBE_H + 2), fill=kit.INK)
            elif cube.get("selectable"):
                draw.rectangle(
                    (x - 3, y - 3, x + DCUBE_W + 2, y + DCUBE_H + 2), fill=HIGHLIGHT, outline=OUTLINE
                )
            sprite = _cube(
                str(cube.get("colour")),
                colour_code(cube.get("colour"), words, cube.get("mark")),
                int(cube.get("number", 0)),
                DCUBE_W,
                DCUBE_H,
                F_BODY,
            )
            kit.paste(image, sprite, (x, y))
        if not line:
            _text(image, (MARGIN + 4, y + DCUBE_H / 2), words("estates.image.display.empty"), F_SMALL, DIM)


def _draw_supply(c: _Canvas, geo: Layout, view: View, words: kit.Words) -> None:
    draw = c.draw
    image = c.image
    y0 = geo.display_top
    x = SUPPLY_X
    draw.rectangle((x - 5, y0 + 3, WIDTH - MARGIN, y0 + DISPLAY_H - 5), fill=PANEL, outline=PANEL_EDGE)
    _bold(image, (x, y0 + 12), words("estates.image.supply.title"), F_LABEL, kit.INK, "lm")
    width = WIDTH - MARGIN - x - 4
    auction = view.get("auction") or {}
    kind = auction.get("kind")
    roof = _roof(None, 22, 11)
    y = _supply_line_y(geo, "roof")
    kit.paste(image, roof, (x, y - 6), roof)
    left = words("estates.image.supply.rooftops", count=words.number(int(view.get("rooftops_left") or 0)))
    _text(image, (x + 27, y), kit.fit(left, F_BODY, width - 27), F_BODY, kit.INK)
    supply = [str(p) for p in view.get("permits_supply") or []]
    permits = ", ".join(supply) if supply else words("estates.image.supply.none")
    removed = ", ".join(str(p) for p in view.get("permits_removed") or [])
    if kind == "permit":
        text = words("estates.image.supply.permits_auction", permits=permits, value=auction.get("value"))
    elif removed:
        text = words("estates.image.supply.permits_out", permits=permits, values=removed)
    else:
        text = words("estates.image.supply.permits", permits=permits)
    _text(image, (x, _supply_line_y(geo, "permit")), kit.fit(text, F_BODY, width), F_BODY, kit.INK)
    mayor = view.get("mayor")
    if kind == "mayor":
        where = words("estates.image.supply.in_auction")
    elif mayor == "supply":
        where = words("estates.image.supply.in_supply")
    elif mayor == "discarded":
        where = words("estates.image.supply.gone")
    else:
        where = words("estates.image.supply.row", row=mayor)
    text = words("estates.image.supply.mayor", where=where)
    _text(image, (x, _supply_line_y(geo, "mayor")), kit.fit(text, F_BODY, width), F_BODY, kit.INK)
    if view.get("cancel_available"):
        where = words("estates.image.supply.in_supply")
    elif kind == "cancel":
        where = words("estates.image.supply.in_auction")
    else:
        where = words("estates.image.supply.gone")
    text = words("estates.image.supply.cancel", where=where)
    _text(image, (x, _supply_line_y(geo, "cancel")), kit.fit(text, F_BODY, width), F_BODY, kit.INK)
    free = [cert for cert in view.get("certificates") or [] if cert.get("owner") is None]
    y = _supply_line_y(geo, "certificates")
    if free:
        label = words("estates.image.supply.free")
        _text(image, (x, y), label, F_BODY, kit.INK)
        cx = x + int(kit.font(F_BODY).getlength(label)) + 6
        for cert in free:
            colour = cert.get("colour")
            sprite = _cert(str(colour), colour_code(colour, words, cert.get("mark")), CERT_W, CERT_H - 2)
            kit.paste(image, sprite, (cx, y - 8))
            cx += CERT_W + 2
    else:
        text = kit.fit(words("estates.image.supply.all_taken"), F_BODY, width)
        _text(image, (x, y), text, F_BODY, kit.INK)


def table_scores(view: View, words: kit.Words) -> tuple[tuple[str, ...], list[tuple[int, ...]]]:
    """The players' table's score columns and each seat's figures, last column the total.

    While the round runs: each row's building points if it ended now, and their sum.  Once the
    match is over: buildings (every round), cash box and the final total, which are exactly the
    outcome's scores, so the image and the posted standings agree.
    """
    players = int(view["players"])
    result = view.get("result")
    if isinstance(result, Mapping) and result.get("scores") is not None:
        return (
            (
                words("estates.image.table.buildings"),
                words("estates.image.table.cash_box"),
                words("estates.image.table.total"),
            ),
            [
                (int(result["buildings"][s]), int(result["cash_box_points"][s]), int(result["scores"][s]))
                for s in range(players)
            ],
        )
    rows = view.get("rows") or []
    totals = view.get("score_now") or [0] * players
    figures = [
        (*(int((row.get("score_now") or [0] * players)[s]) for row in rows), int(totals[s]))
        for s in range(players)
    ]
    columns = (
        *(words("estates.image.table.row", row=row.get("name")) for row in rows),
        words("estates.image.table.total"),
    )
    return columns, figures


def _seat_tags(view: View, seat: int, words: kit.Words) -> list[str]:
    """What the players' table notes under a name: the final place, round wins, the auctioneer
    (in that order: a line too long for its room loses its end, and the auctioneer is also named
    in the turn panel)."""
    over = view.get("phase") == "over"
    ranks = (view.get("result") or {}).get("ranks") or []
    wins = view.get("round_wins") or []
    tags: list[str] = []
    if seat < len(ranks):
        rank = int(ranks[seat])
        tags.append(words(f"estates.image.table.place_{rank}") if 0 < rank <= PLACES else words.number(rank))
    if int(view.get("rounds", 1)) > 1 and seat < len(wins):
        tags.append(words.count("estates.image.table.round_wins", int(wins[seat])))
    if seat == view.get("auctioneer") and not over:
        tags.append(words("estates.image.table.auctioneer"))
    return tags


def _draw_players(c: _Canvas, geo: Layout, view: View, names: list[str], words: kit.Words) -> None:
    draw = c.draw
    image = c.image
    y0 = geo.table_top
    height = _table_height(view)
    draw.rectangle((0, y0, WIDTH, y0 + height - 1), fill=kit.WHITE)
    players = int(view["players"])
    marks = _marks(view, words)
    columns, figures = table_scores(view, words)
    col_w = (WIDTH - MARGIN - SCORE_X) / len(columns)
    over = view.get("phase") == "over"
    draw.rectangle((SCORE_X - 4, y0 + 2, WIDTH - MARGIN, y0 + TABLE_HEAD_H - 2), fill=PANEL)
    if not over:
        caption = words("estates.image.table.now")
    elif int(view.get("rounds", 1)) > 1:
        caption = words("estates.image.table.final_rounds")
    else:
        caption = words("estates.image.table.final")
    caption = kit.fit(caption, F_SMALL, WIDTH - MARGIN - SCORE_X)
    head_y1 = y0 + TABLE_HEAD_H
    with kit.panel(image, "scores' head", (SCORE_X - 4, y0, WIDTH - MARGIN, head_y1)):
        _text(image, ((SCORE_X + WIDTH - MARGIN) / 2, y0 + 10), caption, F_SMALL, kit.INK, "mm")
    players_head = kit.fit(words("estates.image.table.players"), F_LABEL, CERT_X - NAME_X - 6, bold=True)
    with kit.panel(image, "players' head", (0, y0, CERT_X - 4, head_y1)):
        _bold(image, (NAME_X, y0 + 22), players_head, F_LABEL, kit.INK, "lm")
    certs_head = kit.fit(words("estates.image.table.certificates"), F_SMALL, SCORE_X - CERT_X - 8)
    with kit.panel(image, "certificates' head", (CERT_X - 4, y0, SCORE_X - 4, head_y1)):
        _text(image, (CERT_X, y0 + 24), certs_head, F_SMALL, kit.INK)
    for i, name in enumerate(columns):
        head = kit.fit(name, F_SMALL, col_w - 2)
        cell = (SCORE_X + col_w * i, y0, SCORE_X + col_w * (i + 1), head_y1)
        with kit.panel(image, f"score column {i + 1}'s head", cell):
            _text(image, (SCORE_X + col_w * i + col_w / 2, y0 + 25), head, F_SMALL, kit.INK, "mm")
    waiting = set(view.get("waiting_for") or [])
    by_owner = view.get("certificates_by_owner") or []
    for seat in range(players):
        _x0, y, _x1, _y1 = seat_box(geo, seat)
        if seat % 2:
            draw.rectangle((0, y, WIDTH, y + TABLE_ROW_H - 1), fill=STRIPE)
        if seat in waiting and not over:
            ay = y + TABLE_ROW_H / 2
            draw.polygon(
                ((MARGIN, ay - 7), (MARGIN + 11, ay), (MARGIN, ay + 7)), fill=HIGHLIGHT, outline=OUTLINE
            )
        tags = _seat_tags(view, seat, words)
        name = kit.fit(names[seat], F_BODY, CERT_X - NAME_X - 6, bold=True)
        y1 = y + TABLE_ROW_H
        with kit.panel(image, f"seat {seat + 1}'s name", (0, y, CERT_X - 4, y1)):
            if tags:
                _bold(image, (NAME_X, y + 10), name, F_BODY, kit.INK, "lm")
                tagged = kit.fit(", ".join(tags), F_SMALL, CERT_X - NAME_X - 6)
                _text(image, (NAME_X, y + 24), tagged, F_SMALL, DIM)
            else:
                _bold(image, (NAME_X, y + TABLE_ROW_H / 2), name, F_BODY, kit.INK, "lm")
        owned = by_owner[seat] if seat < len(by_owner) else []
        with kit.panel(image, f"seat {seat + 1}'s certificates", (CERT_X - 4, y, SCORE_X - 4, y1)):
            for k, colour in enumerate(owned):
                sprite = _cert(str(colour), marks.get(str(colour), "?"), CERT_W, CERT_H)
                kit.paste(image, sprite, (CERT_X + k * (CERT_W + 2), y + 7))
            if not owned:
                _text(image, (CERT_X, y + TABLE_ROW_H / 2), words("estates.image.table.none"), F_SMALL, DIM)
        for i, value in enumerate(figures[seat]):
            last = i == len(columns) - 1
            cell = (SCORE_X + col_w * i, y, SCORE_X + col_w * (i + 1), y1)
            with kit.panel(image, f"seat {seat + 1}'s score {i + 1}", cell):
                _bold(
                    image,
                    (SCORE_X + col_w * i + col_w / 2, y + TABLE_ROW_H / 2),
                    _signed(value, words),
                    F_HEAD if last else F_LABEL,
                    _score_colour(value),
                    "mm",
                )


# --- entry point ---------------------------------------------------------------------


def render(view: dict[str, Any], names: Sequence[str], words: kit.Words) -> bytes:
    """The public view (``RULES.view(state, None)``) and the players' names -> PNG bytes."""
    return kit.png(draw_board(view, names, words))


def draw_board(view: Mapping[str, Any], names: Sequence[str], words: kit.Words) -> Image.Image:
    """The board image before encoding (the benchmark times the two halves apart)."""
    return _board(view, names, words)


def _board(view: Mapping[str, Any], names: Sequence[str], words: kit.Words) -> Image.Image:
    shown = kit.player_names(names, int(view["players"]), words)
    geo = layout(view)
    image = Image.new("RGB", (WIDTH, geo.height), kit.PAPER)
    canvas = _Canvas(image)
    round_text = words(
        "estates.status.head",
        round=words.number(int(view.get("round", 1))),
        rounds=words.number(int(view.get("rounds", 1))),
        turn=words.number(int(view.get("turn", 0))),
    )
    with kit.panel(image, "title bar", (0, 0, WIDTH, HEADER_H)):
        kit.paste(image, _header(words), (0, 0))
        _text(canvas.image, (WIDTH - MARGIN - 2, HEADER_H / 2), round_text, F_LABEL, kit.WHITE, "rm")
    _draw_turn(canvas, geo, view, shown, words)
    _draw_board(canvas, geo, view, words)
    _draw_display(canvas, geo, view, words)
    _draw_players(canvas, geo, view, shown, words)
    with kit.panel(image, "legend", (0, geo.legend_top, WIDTH, geo.legend_top + LEGEND_H)):
        kit.paste(image, _legend(tuple(_marks(view, words).items()), words), (0, geo.legend_top))
    box = last_box(view, geo)
    if box is not None:
        _frame(canvas.draw, box)
    return image


# --- the private zoom: one seat's holdings ---------------------------------------------------

HOLD_CUBE_W, HOLD_CUBE_H = 50, 22
HOLD_PITCH = 54


def _holdings_buildings(
    view: View, seat: int
) -> list[tuple[Mapping[str, Any], list[Mapping[str, Any]], int]]:
    """(row, the seat's buildings in it, their points if the round ended now) for rows where it scores."""
    out = []
    for row in view.get("rows") or []:
        mine = [lot for lot in row.get("lots") or [] if lot.get("cubes") and lot.get("owner") == seat]
        if mine:
            out.append((row, mine, sum(int(lot.get("points") or 0) for lot in mine)))
    return out


def _holdings_row_height(lots: list[Mapping[str, Any]]) -> int:
    tallest = max(len(lot.get("cubes") or []) for lot in lots)
    return 26 + ROOF_H + 2 + tallest * HOLD_CUBE_H + 38


def render_holdings(view: dict[str, Any], names: Sequence[str], seat: int, words: kit.Words) -> bytes:
    """One seat's private zoom, drawn from that seat's own view (``RULES.view(state, seat)``).

    Money in hand and the cash box (from the view's ``you``), the certificates held, and every
    building the seat's colours top, by row, with what it would score if the round ended now.
    Sent only to that seat as an ephemeral attachment; never use it for a public image.
    """
    return kit.png(draw_holdings(view, names, seat, words))


def draw_holdings(view: Mapping[str, Any], names: Sequence[str], seat: int, words: kit.Words) -> Image.Image:
    """The holdings image before encoding."""
    return _holdings(view, names, seat, words)


def _holdings(view: Mapping[str, Any], names: Sequence[str], seat: int, words: kit.Words) -> Image.Image:
    own: Mapping[str, Any] = view.get("you") or {}
    shown = kit.player_names(names, int(view["players"]), words)
    marks = _marks(view, words)
    scored = _holdings_buildings(view, seat)
    certs = [c for c in view.get("certificates") or [] if c.get("owner") == seat]
    cert_lines = max(1, (len(certs) + 1) // 2)
    height = (
        HEADER_H
        + 78
        + 24
        + cert_lines * 30
        + 30
        + (sum(_holdings_row_height(lots) for _row, lots, _pts in scored) if scored else 26)
        + 70
    )
    image = Image.new("RGB", (WIDTH, height), kit.PAPER)
    draw = ImageDraw.Draw(image)
    full = WIDTH - 2 * MARGIN
    # Title.
    draw.rectangle((0, 0, WIDTH, HEADER_H - 1), fill=BAR)
    private = words("estates.image.holdings.private")
    room = full - kit.font(F_BODY).getlength(private) - 16
    who = {"player": shown[seat] if 0 <= seat < len(shown) else "?"}
    title = _fill(words, "estates.image.holdings.title", F_TITLE, room, True, who)
    with kit.panel(image, "title bar", (0, 0, WIDTH, HEADER_H)):
        _bold(image, (MARGIN + 2, HEADER_H / 2), title, F_TITLE, kit.WHITE, "lm")
        _text(image, (WIDTH - MARGIN - 2, HEADER_H / 2), private, F_BODY, kit.WHITE, "rm")
    # Money in hand and the cash box.
    y = HEADER_H + 6
    hand = int(own.get("money") or 0)
    box = int(own.get("cash_box") or 0)
    half = (WIDTH - 3 * MARGIN) // 2
    money = "estates.image.holdings.money"
    panels = (
        (
            words("estates.image.holdings.hand"),
            words(money, amount=words.number(hand)),
            words("estates.image.holdings.hand_note"),
        ),
        (
            words("estates.image.holdings.cash_box"),
            words(money, amount=words.number(box)),
            words(
                "estates.image.holdings.cash_box_note",
                points=words.count("estates.points", box * CASH_BOX_POINTS),
            ),
        ),
    )
    for i, (head, figure, note) in enumerate(panels):
        x = MARGIN + i * (half + MARGIN)
        draw.rectangle((x, y, x + half, y + 66), fill=kit.WHITE, outline=PANEL_EDGE)
        with kit.panel(image, ("money in hand", "cash box")[i], (x, y, x + half, y + 66)):
            _text(image, (x + 8, y + 12), head, F_BODY, DIM)
            _bold(image, (x + 8, y + 34), figure, F_TITLE + 3, kit.INK, "lm")
            _text(image, (x + 8, y + 55), kit.fit(note, F_SMALL, half - 14), F_SMALL, kit.INK)
            if i and own.get("stowed_this_turn"):
                stowed = kit.fit(words("estates.image.holdings.stowed"), F_SMALL, half / 2)
                _text(image, (x + half - 6, y + 12), stowed, F_SMALL, POSITIVE, "rm")
    y += 78
    # Certificates.
    _bold(image, (MARGIN + 2, y + 10), words("estates.image.holdings.certificates"), F_LABEL, kit.INK, "lm")
    y += 24
    if not certs:
        none = kit.fit(words("estates.image.holdings.no_certificates"), F_BODY, full - 4)
        _text(image, (MARGIN + 2, y + 12), none, F_BODY, kit.INK)
    for i, cert in enumerate(certs):
        x = MARGIN + (i % 2) * (half + MARGIN)
        cy = y + (i // 2) * 30
        colour = cert.get("colour")
        label = words(
            "estates.image.holdings.company",
            company=company_name(colour, words, cert.get("company")),
            colour=colour_word(colour, words),
        )
        with kit.panel(image, f"certificate {i + 1}", (x, cy, x + half, cy + 28)):
            kit.paste(
                image, _cert(str(colour), colour_code(colour, words, cert.get("mark")), 32, 24), (x, cy)
            )
            _text(image, (x + 38, cy + 12), kit.fit(label, F_BODY, half - 44), F_BODY, kit.INK)
    y += cert_lines * 30
    # Buildings my colours top.
    over = view.get("phase") == "over"
    when = words("estates.image.holdings.points_over" if over else "estates.image.holdings.points_now")
    when = kit.fit(when, F_SMALL, full / 2 - 8)
    head = words("estates.image.holdings.buildings")
    head = kit.fit(head, F_LABEL, full - kit.font(F_SMALL).getlength(when) - 12, bold=True)
    _bold(image, (MARGIN + 2, y + 12), head, F_LABEL, kit.INK, "lm")
    _text(image, (WIDTH - MARGIN - 2, y + 12), when, F_SMALL, DIM, "rm")
    y += 30
    if not scored:
        _text(image, (MARGIN + 2, y + 10), words("estates.image.holdings.no_buildings"), F_BODY, kit.INK)
        y += 26
    buildings_total = 0
    for row, lots, points in scored:
        buildings_total += points
        row_h = _holdings_row_height(lots)
        draw.rectangle((MARGIN, y, WIDTH - MARGIN, y + row_h - 6), fill=kit.WHITE, outline=PANEL_EDGE)
        bits = [
            words("estates.image.table.row", row=row.get("name")),
            words("estates.image.board.need", requirement=row.get("requirement")),
            words(
                "estates.image.holdings.complete" if row.get("complete") else "estates.image.holdings.open"
            ),
        ]
        if row.get("mayor"):
            bits.append(words("estates.image.holdings.mayor"))
        _text(image, (MARGIN + 6, y + 11), kit.fit(" · ".join(bits), F_BODY, full - 60), F_BODY, kit.INK)
        signed = _signed(points, words)
        _bold(image, (WIDTH - MARGIN - 6, y + 11), signed, F_HEAD, _score_colour(points), "rm")
        base = y + row_h - 6 - 36
        for i, lot in enumerate(lots):
            x = MARGIN + 8 + i * HOLD_PITCH
            cubes = lot.get("cubes") or []
            for level, cube in enumerate(cubes):
                sprite = _cube(
                    str(cube.get("colour")),
                    marks.get(str(cube.get("colour")), "?"),
                    int(cube.get("number", 0)),
                    HOLD_CUBE_W,
                    HOLD_CUBE_H,
                    F_BODY,
                )
                kit.paste(image, sprite, (x, base - (level + 1) * HOLD_CUBE_H))
            if lot.get("roof") is not None:
                roof = _roof(int(lot["roof"]), HOLD_CUBE_W, ROOF_H)
                kit.paste(image, roof, (x, base - len(cubes) * HOLD_CUBE_H - ROOF_H - 1), roof)
            _text(
                image,
                (x + HOLD_CUBE_W / 2, base + 9),
                f"{row.get('name')}{lot.get('lot')}",
                F_SMALL,
                kit.INK,
                "mm",
            )
            value = int(lot.get("points") or 0)
            signed = _signed(value, words)
            _bold(image, (x + HOLD_CUBE_W / 2, base + 25), signed, F_BODY, _score_colour(value), "mm")
        y += row_h
    # The private sum (it includes the cash box, so it is for this seat's eyes only).
    y += 4
    total = buildings_total + box * CASH_BOX_POINTS
    line = words(
        "estates.image.holdings.total_over" if over else "estates.image.holdings.total_now",
        buildings=_signed(buildings_total, words),
        cash_box=_signed(box * CASH_BOX_POINTS, words),
        total=_signed(total, words),
    )
    _text(image, (MARGIN + 2, y + 12), kit.fit(line, F_LABEL, full), F_LABEL, kit.INK)
    rounds = own.get("round_results") or []
    if rounds:
        scores = ", ".join(
            words(
                "estates.panel.round_score",
                round=words.number(int(r.get("round") or 0)),
                score=words.number(int(r.get("score") or 0)),
            )
            for r in rounds
        )
        past = words("estates.image.holdings.round_scores", scores=scores)
        _text(image, (MARGIN + 2, y + 34), kit.fit(past, F_BODY, full), F_BODY, kit.INK)
    return image


_CACHES: tuple[Callable[..., Any], ...] = (
    _cube,
    _roof,
    _lot,
    _permit_sign,
    _mayor,
    _cert,
    _piece_sprite_cached,
    _legend,
    _ground,
    _header,
)


def clear_caches() -> None:
    """Forget every cached sprite and layer (tests that record font sizes draw from scratch)."""
    for cached in _CACHES:
        clear = getattr(cached, "cache_clear", None)
        if clear is not None:
            clear()
