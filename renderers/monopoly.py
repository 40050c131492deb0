"""The Monopoly California Dreaming board, drawn from the public view only, for phones first.

Input is ``RULES.view(state, None)`` and the players' names in seat order; nothing else is read.
Everything in Monopoly is public except the order of the two decks, and the view carries only
their sizes, so no deck order can reach the image (a seat's private ``you`` draft is never read).

Phone first: the image is :data:`W` (754) px wide and judged shown 400 px wide, so no text is
smaller than :data:`SMALL` (17 px, 9.0 px on the phone), and it is 898 px tall (1.19 : 1,
within the 1.6 : 1 limit) for every player count.  That floor is what shapes the board: a side
cell is 62 px wide, about 3.6 times the smallest text, so every name is written in at most
two short lines from :data:`ABBREV` ("Yosem. / Valley"); a test checks each line fits uncut.

Layout: the classic ring of 40 spaces, GO at the bottom right, moving clockwise through the
Pool Party (bottom left), Free Parking (top left) and Go to Pool Party (top right).  Each
property cell has, from the centre outwards: its colour bar with the group code, its name, its
price, and a row for its owner (a chip in the owner's colour with the seat letter) followed by
a badge for its buildings (green with the number of houses, red ``H`` for a hotel) or a
hatched ``M`` if it is mortgaged.  Tokens stand on a lane just inside the ring, beside their
space (inside the cell for the corners); at the Pool Party the seats in the pool stand on blue
water, visitors on the paper.  The seat whose turn it is has an amber ring around its token.
The centre of the board holds the table: whose turn it is, the dice (pips and total), the last
move in words, what the table waits for (auction, shortage, debts, offers, fees, rent claims),
one block per player (cash, get-out cards, Pool Party tries, properties by group as coded
chips ``Or2/3``), the bank's houses, hotels and deck sizes, and a legend.

The last move is framed in magenta (on the board, around the space it concerned, and around
the dice if it was a roll) and written in words.  The view has no explicit last-move entry
yet, so :func:`last_move` reads ``view["last"]`` if present (``{kind, seat, space}``) and
otherwise derives the one move the public view pins down: the seat on turn has rolled this
turn (phase ``buy``/``end``, or ``roll`` after doubles), so its roll and the space it now stands
on are the last move.

Colour is never the only signal: groups carry two-letter codes (``Br Lb Pk Or Rd Ye Gn Db``,
``Ap`` airports, ``Ut`` utilities), owners and tokens carry seat letters (A-F), houses are a
number and a hotel an ``H``, a mortgage is a hatched ``M``, the pool is labelled.

The fixed ring (names, kinds, groups, prices) comes from ``rules.monopoly.data.BOARD``, the public
table the view's ``spaces`` repeat, so it can be drawn before any view exists; everything that
changes is read from the view.

Speed: the ring with every name and price, the centre's frame and the legend are drawn once
(:func:`board_layer`, a :func:`kit.static_layer`); a render copies it, adds owners, buildings,
tokens and the table, and encodes against a fixed palette (:func:`colours`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers import kit
from renderers.kit import INK, WHITE, Colour
from rules.monopoly import data

View = Mapping[str, Any]
Box = tuple[int, int, int, int]

# --- colours and codes -------------------------------------------------------------------------

GROUPS: dict[str, tuple[str, Colour]] = {
    "brown": ("Br", (139, 84, 50)),
    "lightblue": ("Lb", (165, 214, 242)),
    "pink": ("Pk", (204, 62, 150)),
    "orange": ("Or", (247, 148, 32)),
    "red": ("Rd", (214, 36, 40)),
    "yellow": ("Ye", (250, 224, 46)),
    "green": ("Gn", (28, 142, 66)),
    "darkblue": ("Db", (30, 58, 160)),
    "airport": ("Ap", (70, 70, 74)),
    "utility": ("Ut", (150, 150, 156)),
}
"""view group -> (code printed on the bar and the chips, bar colour)."""
UNKNOWN_GROUP: tuple[str, Colour] = ("??", (110, 110, 110))

SEATS: tuple[Colour, ...] = (
    (214, 39, 40),
    (31, 119, 180),
    (44, 160, 44),
    (255, 127, 14),
    (148, 103, 189),
    (23, 190, 207),
)
"""Seat colours (owner chips, tokens); each is always drawn with its seat letter."""
LETTERS = "ABCDEF"

BOARD_BG: Colour = (206, 226, 208)
CELL_BG: Colour = (250, 247, 240)
CENTRE_BG: Colour = (232, 242, 232)
LINE: Colour = (40, 40, 40)
SOFT: Colour = (90, 90, 90)
POOL_WATER: Colour = (120, 190, 235)
HOUSE: Colour = (22, 128, 56)
HOTEL: Colour = (196, 28, 28)
MORT_BG: Colour = (220, 220, 220)
MORT_HATCH: Colour = (150, 150, 150)
TURN: Colour = (255, 183, 0)
LAST: Colour = (226, 0, 122)
"""The last move's frame: a magenta no group, seat or building uses."""
OUT: Colour = (160, 160, 160)
DIE: Colour = WHITE

# --- phone-first sizes ------------------------------------------------------------------------

W = 754
PHONE = 400
SMALL = -(-9 * W // PHONE)
"""17: the smallest text, 9.0 px tall once the picture is shown 400 px wide (design.md)."""
BODY = SMALL + 1
BIG = SMALL + 4
FONT_MIN = SMALL
MAX_ASPECT = 1.6

C = 98  # corner size, and the depth of every cell
CW = 62  # width of a cell in the top and bottom rows
CH = 78  # height of a cell in the left and right columns
H = 9 * CH + 2 * C  # 898
assert 9 * CW + 2 * C == W
T = 26  # the token lane inside the ring
BAR = 20  # colour bar depth (top and bottom rows)
SIDE_BAR = 26  # colour bar width (side columns)
LINE_H = 18
CHIP = 20  # owner chip and building badge
TOKEN = 22  # token diameter
TOKEN_PITCH = 24
FRAME = 3  # last-move frame width

CENTRE: Box = (C + T + 8, C + T + 8, W - C - T - 8, H - C - T - 8)

ABBREV: dict[int, tuple[str, ...]] = {
    1: ("Route", "66"),
    2: ("Tip", "Jar"),
    3: ("Mojave", "Desert"),
    4: ("Income", "Tax"),
    5: ("LAX", "Airport"),
    6: ("Lower", "Haight"),
    7: ("Chance",),
    8: ("Haight", "Ashby"),
    9: ("Castro", "Street"),
    11: ("Venice", "Beach"),
    12: ("Electric", "Co."),
    13: ("Santa", "Monica"),
    14: ("Muscle", "Beach"),
    15: ("SFO", "Airport"),
    16: ("Big Sur",),
    17: ("Tip", "Jar"),
    18: ("Monte-", "rey Bay"),
    19: ("Carmel",),
    21: ("Yosem.", "Valley"),
    22: ("Chance",),
    23: ("Lake", "Tahoe"),
    24: ("Napa", "Valley"),
    25: ("San", "Diego"),
    26: ("Holly-", "wood"),
    27: ("Sunset", "Blvd."),
    28: ("Water", "Works"),
    29: ("Mulh.", "Drive"),
    31: ("Golden", "Gate"),
    32: ("Lomb.", "Street"),
    33: ("Tip", "Jar"),
    34: ("Pacific", "Coast"),
    35: ("Palm", "Springs"),
    36: ("Chance",),
    37: ("Beverly", "Hills"),
    38: ("Luxury", "Tax"),
    39: ("Rodeo", "Drive"),
}
"""The name printed in each cell, in lines short enough for the cell at :data:`SMALL`."""
CORNERS: dict[int, tuple[str, ...]] = {
    0: ("GO", "+$200"),
    10: ("Pool Party",),
    20: ("Free", "Parking"),
    30: ("Go to", "Pool"),
}


# --- geometry ---------------------------------------------------------------------------------


def side(pos: int) -> str:
    """Where a space lies: "corner", "bottom" (1-9), "left" (11-19), "top" (21-29), "right"."""
    if pos % 10 == 0:
        return "corner"
    return ("bottom", "left", "top", "right")[pos // 10]


def cell_box(pos: int) -> Box:
    """The space's cell (x0, y0, x1, y1), x1 and y1 exclusive."""
    i = pos % 10
    if pos == 0:
        return (W - C, H - C, W, H)
    if pos == 10:
        return (0, H - C, C, H)
    if pos == 20:
        return (0, 0, C, C)
    if pos == 30:
        return (W - C, 0, W, C)
    where = side(pos)
    if where == "bottom":
        x1 = W - C - (i - 1) * CW
        return (x1 - CW, H - C, x1, H)
    if where == "left":
        y1 = H - C - (i - 1) * CH
        return (0, y1 - CH, C, y1)
    if where == "top":
        x0 = C + (i - 1) * CW
        return (x0, 0, x0 + CW, C)
    y0 = C + (i - 1) * CH
    return (W - C, y0, W, y0 + CH)


def lane_box(pos: int) -> Box:
    """Where the space's tokens stand: the lane beside it, or the corner cell itself."""
    x0, y0, x1, y1 = cell_box(pos)
    where = side(pos)
    if where == "bottom":
        return (x0, H - C - T, x1, H - C)
    if where == "left":
        return (C, y0, C + T, y1)
    if where == "top":
        return (x0, C, x1, C + T)
    if where == "right":
        return (W - C - T, y0, W - C, y1)
    return (x0 + 4, y0 + (26 if pos == 10 else 44), x1 - 4, y1 - 4)


def highlight_box(pos: int) -> Box:
    """The cell and its token lane together: what the last-move frame goes around."""
    a = cell_box(pos)
    b = lane_box(pos)
    return (min(a[0], b[0]), min(a[1], b[1]), max(a[2], b[2]), max(a[3], b[3]))


def _text_area(pos: int) -> tuple[int, int, int]:
    """(x centre, top of the first name line, usable width) of a non-corner cell."""
    x0, y0, x1, _y1 = cell_box(pos)
    where = side(pos)
    if where == "bottom":
        return ((x0 + x1) // 2, y0 + BAR + 2, CW - 2)
    if where == "top":
        return ((x0 + x1) // 2, y0 + CHIP + 4, CW - 2)
    if where == "left":
        return ((x0 + x1 - SIDE_BAR) // 2, y0 + 2, C - SIDE_BAR - 4)
    return ((x0 + SIDE_BAR + x1) // 2, y0 + 2, C - SIDE_BAR - 4)


def owner_row(pos: int) -> Box:
    """The strip where the owner chip and the buildings badge go."""
    x0, y0, x1, y1 = cell_box(pos)
    where = side(pos)
    if where == "bottom":
        return (x0 + 2, y1 - CHIP - 2, x1 - 2, y1 - 2)
    if where == "top":
        return (x0 + 2, y0 + 2, x1 - 2, y0 + 2 + CHIP)
    if where == "left":
        return (x0 + 3, y1 - CHIP - 2, x1 - SIDE_BAR - 3, y1 - 2)
    return (x0 + SIDE_BAR + 3, y1 - CHIP - 2, x1 - 3, y1 - 2)


def bar_box(pos: int) -> Box:
    x0, y0, x1, y1 = cell_box(pos)
    where = side(pos)
    if where == "bottom":
        return (x0, y0, x1, y0 + BAR)
    if where == "top":
        return (x0, y1 - BAR, x1, y1)
    if where == "left":
        return (x1 - SIDE_BAR, y0, x1, y1)
    return (x0, y0, x0 + SIDE_BAR, y1)


def name_lines(pos: int, name: str) -> tuple[str, ...]:
    """The lines printed for a space: :data:`ABBREV`, else the view's name cut to fit."""
    if pos % 10 == 0:
        return CORNERS.get(pos, (name,))
    lines = ABBREV.get(pos)
    if lines is None:
        return (kit.fit(name, SMALL, _text_area(pos)[2]),)
    return lines


def _rect(draw: ImageDraw.ImageDraw, box: Box, **kwargs: Any) -> None:
    """``draw.rectangle`` for an exclusive box."""
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), **kwargs)


def group_info(group: object) -> tuple[str, Colour]:
    return GROUPS.get(group, UNKNOWN_GROUP) if isinstance(group, str) else UNKNOWN_GROUP


def seat_colour(seat: int) -> Colour:
    return SEATS[seat % len(SEATS)]


def seat_letter(seat: int) -> str:
    return LETTERS[seat] if 0 <= seat < len(LETTERS) else "?"


def money(amount: object) -> str:
    value = int(amount) if isinstance(amount, int) else 0
    return f"-${-value:,}" if value < 0 else f"${value:,}"


# --- the fixed palette -----------------------------------------------------------------------

TEXT_ON: dict[Colour, tuple[Colour, ...]] = {
    INK: (CELL_BG, CENTRE_BG, BOARD_BG, DIE, MORT_BG, POOL_WATER, TURN, WHITE),
    WHITE: (HOUSE, HOTEL, LINE, LAST, SOFT),
    SOFT: (CELL_BG, CENTRE_BG),
    LAST: (CENTRE_BG,),
    OUT: (CENTRE_BG,),
}


@lru_cache(maxsize=1)
def colours() -> Image.Image:
    """Every colour the board uses, and the shades anti-aliased text makes on its backgrounds."""
    solid = {BOARD_BG, CELL_BG, CENTRE_BG, LINE, SOFT, POOL_WATER, HOUSE, HOTEL, MORT_BG, MORT_HATCH}
    solid |= {TURN, LAST, OUT, DIE, INK, WHITE, UNKNOWN_GROUP[1], *SEATS, *(c for _, c in GROUPS.values())}
    blends = [(ink, ground) for ink, grounds in TEXT_ON.items() for ground in grounds if ink != ground]
    for fill in (*SEATS, *(c for _, c in GROUPS.values()), UNKNOWN_GROUP[1]):
        blends.append((kit.text_colour(fill), fill))
    return kit.palette(sorted(solid), blends, steps=4)


# --- the static board -------------------------------------------------------------------------


def _draw_cell(image: Image.Image, draw: ImageDraw.ImageDraw, space: Mapping[str, Any]) -> None:
    pos = int(space["pos"])
    box = cell_box(pos)
    _rect(draw, box, fill=CELL_BG, outline=LINE, width=1)
    if pos % 10 == 0:
        _draw_corner(image, draw, pos)
        return
    kind = str(space.get("kind", ""))
    price = int(space.get("price") or 0)
    if price:
        code, fill = group_info(space.get("group"))
        bar = bar_box(pos)
        _rect(draw, bar, fill=fill, outline=LINE, width=1)
        if side(pos) in ("bottom", "top"):
            centre = ((bar[0] + bar[2]) / 2, (bar[1] + bar[3]) / 2)
        else:
            centre = ((bar[0] + bar[2]) / 2, bar[1] + 12)
        kit.label(image, centre, code, SMALL, kit.text_colour(fill), "mm")
    cx, top, width = _text_area(pos)
    lines = name_lines(pos, str(space.get("name", "")))
    for i, line in enumerate(lines):
        kit.label(image, (cx, top + i * LINE_H), kit.fit(line, SMALL, width), SMALL, INK, "mt")
    y = top + 2 * LINE_H
    if price:
        kit.label(image, (cx, y), money(price), SMALL, SOFT, "mt")
    elif kind == "tax":
        tax = {4: 200, 38: 100}.get(pos)
        kit.label(image, (cx, y), f"${tax}" if tax else "", SMALL, SOFT, "mt")
    elif kind in ("chance", "tipjar"):
        kit.label(image, (cx, y + 2), "?", BIG, SOFT, "mt")


def _draw_corner(image: Image.Image, draw: ImageDraw.ImageDraw, pos: int) -> None:
    x0, y0, x1, _y1 = cell_box(pos)
    lines = CORNERS[pos]
    size = BIG if pos == 0 else BODY
    for i, line in enumerate(lines):
        kit.label(image, ((x0 + x1) / 2, y0 + 4 + i * (size + 1)), line, size, INK, "mt")
    if pos == 10:
        lx0, ly0, lx1, _ly1 = lane_box(10)
        draw.rectangle((lx0 + 26, ly0, lx1, ly0 + TOKEN + 4), fill=POOL_WATER, outline=LINE)


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw) -> None:
    x0, _y0, x1, y1 = CENTRE
    y = y1 - 2 * (LINE_H + 4)
    x = x0
    draw.ellipse((x, y, x + CHIP, y + CHIP), fill=seat_colour(0))
    kit.label(image, (x + CHIP / 2, y + CHIP / 2), "A", SMALL, kit.text_colour(seat_colour(0)), "mm")
    kit.label(image, (x + CHIP + 4, y + CHIP / 2), "owner/token", SMALL, SOFT, "lm")
    x += 130
    _badge(image, draw, (x, y, x + CHIP, y + CHIP), 3)
    kit.label(image, (x + CHIP + 4, y + CHIP / 2), "houses", SMALL, SOFT, "lm")
    x += 80
    _badge(image, draw, (x, y, x + CHIP, y + CHIP), 5)
    kit.label(image, (x + CHIP + 4, y + CHIP / 2), "hotel", SMALL, SOFT, "lm")
    x += 70
    _mortgage_badge(image, draw, (x, y, x + CHIP, y + CHIP))
    kit.label(image, (x + CHIP + 4, y + CHIP / 2), "mortgaged", SMALL, SOFT, "lm")
    y += LINE_H + 6
    draw.rectangle((x0, y, x0 + CHIP, y + CHIP), outline=LAST, width=3)
    kit.label(image, (x0 + CHIP + 4, y + CHIP / 2), "last move", SMALL, SOFT, "lm")
    draw.ellipse((x0 + 110, y, x0 + 110 + CHIP, y + CHIP), outline=TURN, width=4)
    kit.label(image, (x0 + 114 + CHIP, y + CHIP / 2), "to play", SMALL, SOFT, "lm")
    _card(image, draw, x0 + 200, y, "Ch")
    kit.label(
        image, (x0 + 232, y + CHIP / 2), kit.fit("get-out card", SMALL, x1 - x0 - 232), SMALL, SOFT, "lm"
    )


def _board_spaces() -> tuple[tuple[int, str, str, str, int], ...]:
    """The fixed facts of each space: public data, the same in every view's ``spaces``."""
    return tuple((pos, s.name, s.kind, s.group, s.price) for pos, s in enumerate(data.BOARD))


def _build_board(words: kit.Words) -> Image.Image:
    """The ring of 40 cells with codes, names and prices, the centre panel and the legend."""
    image = Image.new("RGB", (W, H), BOARD_BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((C, C, W - C - 1, H - C - 1), fill=BOARD_BG)
    draw.rounded_rectangle(CENTRE, radius=8, fill=CENTRE_BG, outline=SOFT, width=1)
    for pos, name, kind, group, price in _board_spaces():
        _draw_cell(image, draw, {"pos": pos, "name": name, "kind": kind, "group": group, "price": price})
    _legend(image, draw)
    return image


board_layer = kit.static_layer(_build_board)


def clear_caches() -> None:
    """Forget every cached layer and sprite (tests use it to see a render from scratch)."""
    global board_layer
    board_layer = kit.static_layer(_build_board)
    colours.cache_clear()
    kit.fit.cache_clear()


# --- sprites ----------------------------------------------------------------------------------


def _chip(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, seat: int, round_: bool = False) -> None:
    fill = seat_colour(seat)
    x0, y0, x1, y1 = box
    if round_:
        draw.ellipse((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=LINE, width=1)
    else:
        draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=LINE, width=1)
    kit.label(image, ((x0 + x1) / 2, (y0 + y1) / 2), seat_letter(seat), SMALL, kit.text_colour(fill), "mm")


def _badge(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box, level: int) -> None:
    """Houses as a green badge with their number; a hotel as a red ``H``."""
    fill = HOTEL if level >= 5 else HOUSE
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=fill, outline=LINE, width=1)
    kit.label(image, ((x0 + x1) / 2, (y0 + y1) / 2), "H" if level >= 5 else str(level), SMALL, WHITE, "mm")


def _mortgage_badge(image: Image.Image, draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), fill=MORT_BG, outline=LINE, width=1)
    kit.hatch(draw, (x0 + 1, y0 + 1, x1 - 2, y1 - 2), MORT_HATCH, step=5)
    kit.label(image, ((x0 + x1) / 2, (y0 + y1) / 2), "M", SMALL, INK, "mm")


def _card(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, code: str) -> None:
    """A get-out card: a small white card with its deck's code (``Ch`` Chance, ``TJ`` Tip Jar)."""
    draw.rounded_rectangle((x, y - 1, x + 27, y + CHIP), radius=3, fill=WHITE, outline=LINE, width=1)
    kit.label(image, (x + 14, y + CHIP / 2), code, SMALL, INK, "mm")


# --- the last move ----------------------------------------------------------------------------


def last_move(view: View) -> dict[str, Any] | None:
    """``{kind, seat, space}`` of the last public move, or ``None`` if the view does not say.

    Reads ``view["last"]`` when the view has it.  Otherwise: the dice are the last roll, and if
    the seat on turn has already rolled this turn (phase ``buy`` or ``end``, or ``roll`` again
    after doubles), that roll and where it left the seat are the last move.
    """
    last = view.get("last")
    if isinstance(last, Mapping):
        space = last.get("space")
        seat = last.get("seat")
        return {
            "kind": str(last.get("kind", "")),
            "seat": seat if isinstance(seat, int) else None,
            "space": space if isinstance(space, int) and 0 <= space < 40 else None,
        }
    dice = view.get("dice") or []
    phase = view.get("phase")
    turn = view.get("turn")
    seats = view.get("seats") or []
    if len(dice) != 2 or not isinstance(turn, int) or not 0 <= turn < len(seats):
        return None
    if phase in ("buy", "end") or (phase == "roll" and int(view.get("doubles") or 0) > 0):
        return {"kind": "rolled", "seat": turn, "space": int(seats[turn]["position"])}
    return None


VERBS = {
    "rolled": "rolled {total}, to",
    "moved": "moved to",
    "bought": "bought",
    "auction_won": "won at auction",
    "built": "built on",
    "sold_building": "sold a building on",
    "mortgaged": "mortgaged",
    "repaid": "repaid",
    "rent_due": "paid rent on",
    "tax": "paid tax at",
    "sent_to_pool": "went to the",
}


def last_move_text(view: View, names: Sequence[str]) -> tuple[str, str]:
    """The last move in words, as (heading, what): ("Last move: Ann", "bought Lake Tahoe").

    A move derived from the dice (the view has no ``last`` entry) is headed "Last roll", since
    bids or deals may have come after it.  ("", "") when nothing is known.
    """
    last = last_move(view)
    if last is None:
        return "", ""
    seat = last["seat"]
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "the bank"
    dice = view.get("dice") or []
    verb = VERBS.get(last["kind"], last["kind"].replace("_", " ")).format(total=sum(dice))
    space = last["space"]
    where = _space_name(view, space) if space is not None else ""
    heading = "Last move" if isinstance(view.get("last"), Mapping) else "Last roll"
    return f"{heading}: {who}", " ".join(part for part in (verb, where) if part)


# --- the changing parts -----------------------------------------------------------------------


def _owners(image: Image.Image, draw: ImageDraw.ImageDraw, spaces: Sequence[Mapping[str, Any]]) -> None:
    for space in spaces:
        owner = space.get("owner")
        if not isinstance(owner, int):
            continue
        pos = int(space["pos"])
        x0, y0, _x1, y1 = owner_row(pos)
        _chip(image, draw, (x0, y0, x0 + CHIP, y1), owner)
        badge = (x0 + CHIP + 3, y0, x0 + 2 * CHIP + 3, y1)
        if space.get("mortgaged"):
            _mortgage_badge(image, draw, badge)
        elif int(space.get("level") or 0) > 0:
            _badge(image, draw, badge, int(space["level"]))


def token_places(view: View) -> dict[int, tuple[int, int]]:
    """Centre of every token still in the game, by seat."""
    by_space: dict[int, list[int]] = {}
    seats = view.get("seats") or []
    for s in seats:
        if s.get("alive", True):
            by_space.setdefault(int(s["position"]) % 40, []).append(int(s["seat"]))
    places: dict[int, tuple[int, int]] = {}
    r = TOKEN // 2
    for pos, group in sorted(by_space.items()):
        x0, y0, x1, y1 = lane_box(pos)
        if pos % 10 == 0:
            rows = [group]
            if pos == 10:
                # In the pool (on the water, top row) or just visiting (the row under it).
                inside = [s for s in group if seats[s].get("pool") is not None]
                rows = [inside, [s for s in group if s not in inside]]
            y = y0 + r + 2
            for row in rows:
                left = x0 + r + (26 if pos == 10 and row is rows[0] and len(rows) == 2 else 0)
                per_line = max(1, (x1 - left + r) // TOKEN_PITCH)
                for i, seat in enumerate(row):
                    line, col = divmod(i, per_line)
                    places[seat] = (left + col * TOKEN_PITCH, y + line * TOKEN_PITCH)
                lines = max(1, -(-len(row) // per_line))
                y += lines * TOKEN_PITCH + (4 if pos == 10 else 0)
            continue
        horizontal = side(pos) in ("bottom", "top")
        length = (x1 - x0) if horizontal else (y1 - y0)
        k = len(group)
        pitch = min(TOKEN_PITCH, (length - TOKEN) / (k - 1)) if k > 1 else 0
        pitch = max(pitch, 14.0)
        start = (length - (TOKEN + pitch * (k - 1))) / 2 + r
        for i, seat in enumerate(group):
            along = round(start + i * pitch)
            places[seat] = (x0 + along, (y0 + y1) // 2) if horizontal else ((x0 + x1) // 2, y0 + along)
    return places


def _tokens(image: Image.Image, draw: ImageDraw.ImageDraw, view: View) -> None:
    turn = view.get("turn")
    playing = view.get("phase") not in ("over", "opening")
    r = TOKEN // 2
    for seat, (x, y) in sorted(token_places(view).items()):
        if playing and seat == turn:
            draw.ellipse((x - r - 4, y - r - 4, x + r + 4, y + r + 4), fill=TURN, outline=LINE)
        draw.ellipse((x - r - 1, y - r - 1, x + r + 1, y + r + 1), fill=WHITE)
        _chip(image, draw, (x - r, y - r, x + r, y + r), seat, round_=True)


def _die(draw: ImageDraw.ImageDraw, x: int, y: int, value: int, size: int = 38) -> None:
    draw.rounded_rectangle((x, y, x + size, y + size), radius=6, fill=DIE, outline=LINE, width=2)
    pips = {
        1: [(1, 1)],
        2: [(0, 0), (2, 2)],
        3: [(0, 0), (1, 1), (2, 2)],
        4: [(0, 0), (2, 0), (0, 2), (2, 2)],
        5: [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)],
        6: [(0, 0), (2, 0), (0, 1), (2, 1), (0, 2), (2, 2)],
    }.get(value, [])
    step = size / 4
    for col, row in pips:
        cx, cy = x + step * (col + 1), y + step * (row + 1)
        draw.ellipse((cx - 3.5, cy - 3.5, cx + 3.5, cy + 3.5), fill=INK)


def _name(names: Sequence[str], seat: object) -> str:
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"{names[seat]} ({seat_letter(seat)})"
    return "the bank"


def _space_name(view: View, pos: object) -> str:
    spaces = view.get("spaces") or []
    if isinstance(pos, int) and 0 <= pos < len(spaces):
        return str(spaces[pos]["name"])
    return "?"


def headline(view: View, names: Sequence[str]) -> str:
    """Whose turn it is, or who is rolling for the start, or who won."""
    result = view.get("result")
    if view.get("phase") == "over" and isinstance(result, Mapping):
        winners = [names[s] for s in result.get("winners") or [] if 0 <= s < len(names)]
        return "Game over. " + ("Winner: " if len(winners) == 1 else "Winners: ") + ", ".join(winners)
    if view.get("phase") == "opening":
        return "Roll for the start"
    return f"{_name(names, view.get('turn'))} to play"


def status_lines(view: View, names: Sequence[str]) -> list[str]:
    """What the table waits for, most urgent first (the same order as the engine's overlays)."""

    def who(seat: object) -> str:
        """Seats by letter: the players' list beside it gives each letter its name."""
        return seat_letter(seat) if isinstance(seat, int) and 0 <= seat < len(names) else "the bank"

    lines: list[str] = []
    a = view.get("auction")
    if isinstance(a, Mapping):
        item = _space_name(view, a.get("space")) if a.get("item") == "property" else str(a.get("item"))
        high = (
            f"{money(a.get('high'))} by {who(a.get('high_bidder'))}"
            if a.get("high_bidder") is not None
            else "no bid yet"
        )
        lines.append(f"Auction: {item}, {high}; {who(a.get('turn'))} to bid")
    sh = view.get("shortage")
    if isinstance(sh, Mapping):
        asked = ", ".join(who(s) for s in sh.get("asked") or [])
        lines.append(f"Last {sh.get('supply')} {sh.get('item')}(s): asking {asked}")
    for d in view.get("debts") or []:
        to = [who(s) for s in d.get("to_seats") or []] or ["the bank"]
        lines.append(
            f"{who(d.get('debtor'))} owes {money(d.get('total'))} to {', '.join(to)} ({d.get('reason')})"
        )
    for f in view.get("fees") or []:
        lines.append(
            f"{who(f.get('seat'))}: keep or lift the mortgage on {_space_name(view, f.get('space'))}"
        )
    for c in view.get("claims") or []:
        lines.append(f"{who(c.get('owner'))} may collect {money(c.get('amount'))} from {who(c.get('payer'))}")
    for o in view.get("offers") or []:
        lines.append(f"Offer {o.get('offer')}: {who(o.get('from_seat'))} to {who(o.get('to_seat'))}")
    opening = view.get("opening") or {}
    if view.get("phase") == "opening":
        rolls = ", ".join(f"{seat_letter(s)} {t}" for s, t in opening.get("rolls") or [])
        rolling = ", ".join(seat_letter(s) for s in opening.get("rolling") or [])
        lines.append(f"Rolled: {rolls or 'none yet'}; to roll: {rolling}")
    return lines


def group_holdings(view: View, seat: int) -> list[tuple[str, int, int]]:
    """(group, owned, size) for each group the seat holds a property of, in board order."""
    counts: dict[str, list[int]] = {}
    for space in view.get("spaces") or []:
        group = space.get("group")
        if not space.get("price") or not isinstance(group, str):
            continue
        entry = counts.setdefault(group, [0, 0])
        entry[1] += 1
        if space.get("owner") == seat:
            entry[0] += 1
    return [(g, owned, size) for g, (owned, size) in counts.items() if owned]


def _players(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: View, names: Sequence[str], top: int
) -> int:
    x0, _y0, x1, _y1 = CENTRE
    x0 += 6
    x1 -= 6
    seats = view.get("seats") or []
    waiting = set(view.get("waiting_for") or [])
    result = view.get("result") if isinstance(view.get("result"), Mapping) else None
    y = top
    for s in seats:
        seat = int(s["seat"])
        alive = bool(s.get("alive", True))
        if seat in waiting:
            draw.rectangle((x0 - 4, y - 1, x0 - 1, y + 2 * CHIP + 6), fill=TURN)
        _chip(image, draw, (x0 + 2, y, x0 + 2 + CHIP, y + CHIP), seat, round_=True)
        right = x1
        if not alive:
            status = "bankrupt"
            kit.label(image, (right, y + CHIP / 2), status, SMALL, SOFT, "rm")
            right -= int(kit.font(SMALL).getlength(status)) + 8
        else:
            cash = money(s.get("cash"))
            kit.label(image, (right, y + CHIP / 2), cash, BODY, INK, "rm")
            right -= int(kit.font(BODY).getlength(cash)) + 8
            for deck in reversed(s.get("getout") or []):
                _card(image, draw, right - 27, y, "Ch" if deck == "chance" else "TJ")
                right -= 31
            pool = s.get("pool")
            if isinstance(pool, int):
                tag = f"Pool {pool}/3"
                kit.label(image, (right, y + CHIP / 2), tag, SMALL, INK, "rm")
                right -= int(kit.font(SMALL).getlength(tag)) + 8
            if result is not None:
                ranks = result.get("ranks") or []
                if seat < len(ranks):
                    rank = f"#{int(ranks[seat])}" if isinstance(ranks[seat], int) else ""
                    kit.label(image, (right, y + CHIP / 2), rank, SMALL, INK, "rm")
                    right -= int(kit.font(SMALL).getlength(rank)) + 8
        name_x = x0 + CHIP + 8
        shown = kit.fit(names[seat] if seat < len(names) else f"Player {seat + 1}", BODY, right - name_x)
        kit.label(image, (name_x, y + CHIP / 2), shown, BODY, INK if alive else OUT, "lm")
        # Line 2: properties by group, as coded chips ("Or2/3"); a full set gets a thick frame.
        y2 = y + CHIP + 4
        holdings = group_holdings(view, seat)
        full_labels = [f"{group_info(g)[0]}{n}/{size}" for g, n, size in holdings]
        width = sum(kit.font(SMALL).getlength(t) + 9 for t in full_labels)
        labels = full_labels if width <= x1 - name_x else [f"{group_info(g)[0]}{n}" for g, n, _ in holdings]
        x = name_x
        for (g, n, size), text in zip(holdings, labels, strict=True):
            _code, fill = group_info(g)
            w = int(kit.font(SMALL).getlength(text)) + 6
            if x + w > x1:
                kit.label(image, (x, y2 + CHIP / 2), "...", SMALL, INK, "lm")
                break
            draw.rectangle((x, y2, x + w, y2 + CHIP), fill=fill, outline=LINE, width=3 if n == size else 1)
            kit.label(image, (x + w / 2, y2 + CHIP / 2), text, SMALL, kit.text_colour(fill), "mm")
            x += w + 3
        if not holdings and alive:
            kit.label(image, (name_x, y2 + CHIP / 2), "no properties", SMALL, SOFT, "lm")
        y += 2 * CHIP + 12
    return y


def _table(image: Image.Image, draw: ImageDraw.ImageDraw, view: View, names: Sequence[str]) -> Box | None:
    """The centre: headline, dice and last move, what we wait for, players, bank.  Returns the dice box."""
    x0, y0, x1, _y1 = CENTRE
    x0 += 6
    x1 -= 6
    y = y0 + 6
    kit.label(image, (x0, y), kit.fit(headline(view, names), BIG, x1 - x0), BIG, INK, "la")
    y += BIG + 10
    dice = [int(d) for d in view.get("dice") or []]
    dice_box: Box | None = None
    text_x = x0
    total_text = ""
    if len(dice) == 2:
        _die(draw, x0 + 4, y + 4, dice[0])
        _die(draw, x0 + 48, y + 4, dice[1])
        dice_box = (x0, y, x0 + 91, y + 47)
        text_x = x0 + 98
        total_text = f"{sum(dice)}, doubles" if dice[0] == dice[1] else str(sum(dice))
    heading, what = last_move_text(view, names)
    if heading:
        kit.label(image, (text_x, y + 4), kit.fit(heading, SMALL, x1 - text_x), SMALL, LAST, "la")
        kit.label(image, (text_x, y + 26), kit.fit(what, BODY, x1 - text_x), BODY, INK, "la")
    elif dice:
        kit.label(image, (text_x, y + 14), total_text, BODY, INK, "la")
    else:
        kit.label(image, (text_x, y + 14), "No roll yet", SMALL, SOFT, "la")
    y += 52
    lines = status_lines(view, names)
    shown = lines[:4]
    if len(lines) > 4:
        shown[-1] = f"... and {len(lines) - 3} more"
    for line in shown:
        kit.label(image, (x0, y), kit.fit(line, SMALL, x1 - x0), SMALL, INK, "la")
        y += LINE_H + 3
    y += 4
    draw.line((x0, y, x1, y), fill=SOFT)
    y = _players(image, draw, view, names, y + 6)
    bank = view.get("bank") or {}
    decks = view.get("decks") or {}
    line = (
        f"Bank: {bank.get('houses', 0)} houses, {bank.get('hotels', 0)} hotels; "
        f"cards: Chance {decks.get('chance', 0)}, Tip Jar {decks.get('tipjar', 0)}"
    )
    kit.label(image, (x0, y), kit.fit(line, SMALL, x1 - x0), SMALL, SOFT, "la")
    return dice_box


def _frame(draw: ImageDraw.ImageDraw, box: Box) -> None:
    """A magenta frame just outside ``box`` (inside the image), so it covers no text of the cell."""
    x0, y0, x1, y1 = box
    box = (max(0, x0 - FRAME), max(0, y0 - FRAME), min(W, x1 + FRAME), min(H, y1 + FRAME))
    x0, y0, x1, y1 = box
    draw.rectangle((x0, y0, x1 - 1, y1 - 1), outline=LAST, width=FRAME)


def draw_board(view: View, names: Sequence[str], words: kit.Words) -> Image.Image:
    """The whole board as an RGB image (``render`` encodes it)."""
    players = int(view.get("players") or len(view.get("seats") or []))
    shown = kit.player_names(names, players, words)
    image = board_layer(words)
    draw = ImageDraw.Draw(image)
    spaces = view.get("spaces") or []
    _owners(image, draw, spaces)
    last = last_move(view)
    if last is not None and last["space"] is not None:
        _frame(draw, highlight_box(last["space"]))
    _tokens(image, draw, view)
    dice_box = _table(image, draw, view, shown)
    if last is not None and last["kind"] == "rolled" and dice_box is not None:
        _frame(draw, dice_box)
    return image


def render(view: View, names: Sequence[str], words: kit.Words) -> bytes:
    """The board as one PNG, :data:`W` x :data:`H` px, from the public view and the names."""
    return kit.png(draw_board(view, names, words), colours())
