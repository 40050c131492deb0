"""The Monopoly California Dreaming board, drawn from the public view only, for phones first.

Input is ``RULES.view(state, None)``, the players' names in seat order and the table's words
(:class:`renderers.kit.Words`); nothing else is read.  Every word drawn comes from the catalog's
``[monopoly.image]`` (and ``[monopoly.space]``, the names the messages use too) and every amount
is ``monopoly.money`` around :meth:`~renderers.kit.Words.number`, so a French table's board reads
"Départ", "Impôt sur le revenu" and "1 500 $".
Everything in Monopoly is public except the order of the two decks, and the view carries only
their sizes, so no deck order can reach the image (a seat's private ``you`` draft is never read).

Phone first: the image is :data:`W` (754) px wide and judged shown 400 px wide, so no text is
smaller than :data:`SMALL` (17 px, 9.0 px on the phone), and it is 898 px tall (1.19 : 1,
within the 1.6 : 1 limit) for every player count.  That floor is what shapes the board: a side
cell is 62 px wide, about 3.6 times the smallest text, so every name is written in short
lines: a site's place name from :data:`ABBREV` ("Yosem. / Valley", the same in every language),
any other space's words from ``monopoly.image.cell`` ("Impôt / sur le / revenu"); a test checks
each line of each language fits uncut.

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
number and a hotel an ``H``, a mortgage is a hatched ``M``, the pool is labelled.  The group
codes, like the seat letters, are marks rather than words and are the same in every language:
the messages print them beside each group's name in the table's language ("Rouge [Rd]",
``MonopolyPresenter.colour_marks``), which is how a player learns them, and one set of marks
keeps a button and the picture matching whatever language each player reads.

The fixed ring (names, kinds, groups, prices) comes from ``rules.monopoly.data.BOARD``, the public
table the view's ``spaces`` repeat, so it can be drawn before any view exists; everything that
changes is read from the view.

Speed: the ring with every name and price, the centre's frame and the legend are drawn once
per language (:func:`board_layer`, a :func:`kit.static_layer`); a render copies it, adds owners, buildings,
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
from rules.monopoly.tokens import space_token

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

SEATS: tuple[Colour, ...] = kit.SEAT_COLOURS
"""Seat colours (owner chips, tokens); each is always drawn with its seat letter."""
LETTERS = kit.SEAT_LETTERS

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
    3: ("Mojave", "Desert"),
    6: ("Lower", "Haight"),
    8: ("Haight", "Ashby"),
    9: ("Castro", "Street"),
    11: ("Venice", "Beach"),
    13: ("Santa", "Monica"),
    14: ("Muscle", "Beach"),
    16: ("Big Sur",),
    18: ("Monte-", "rey Bay"),
    19: ("Carmel",),
    21: ("Yosem.", "Valley"),
    23: ("Lake", "Tahoe"),
    24: ("Napa", "Valley"),
    26: ("Holly-", "wood"),
    27: ("Sunset", "Blvd."),
    29: ("Mulh.", "Drive"),
    31: ("Golden", "Gate"),
    32: ("Lomb.", "Street"),
    34: ("Pacific", "Coast"),
    37: ("Beverly", "Hills"),
    39: ("Rodeo", "Drive"),
}
"""The name printed in each site's cell, in lines short enough for the cell at :data:`SMALL`.

Sites are named after places, and a place keeps its name in every language, so these stay in
code.  Every other space (GO, the decks, the taxes, the airports, the utilities, the corners) is
named in words: its cell lines are the catalog's ``monopoly.image.cell.<key>`` (lines split at
``\n``, at most :data:`MAX_LINES`) and its full name ``monopoly.space.<key>``, :func:`space_key`."""
MAX_LINES = 3
"""A worded cell may take a third line: none of them has an owner row under its name."""


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


def space_key(kind: object, token: object) -> str | None:
    """The catalog key of a space named in words, ``None`` for a site (a place's proper name).

    The three Chance and three Tip Jar spaces share their deck's key; every other worded space
    is keyed by its token ("income-tax", "lax-airport"), so a host that renames a space in
    ``rules.monopoly.data`` sees the catalog key it must add."""
    if kind == data.SITE or not isinstance(token, str):
        return None
    return str(kind) if kind in (data.CHANCE, data.TIPJAR) else token


def space_name(words: kit.Words, space: Mapping[str, Any]) -> str:
    """A space's full name in the table's language, from a view's ``spaces`` entry (``kind``,
    ``token``, ``name``): the board, the messages and the buttons all name spaces here."""
    key = space_key(space.get("kind"), space.get("token"))
    return words(f"monopoly.space.{key}") if key is not None else str(space.get("name", "?"))


def board_space(pos: int) -> dict[str, Any]:
    """The fixed facts of a space as a view's ``spaces`` entry has them (public data)."""
    space = data.BOARD[pos]
    return {
        "pos": pos,
        "token": space_token(pos),
        "name": space.name,
        "kind": space.kind,
        "group": space.group,
        "price": space.price,
        "tax": space.tax,
    }


def name_lines(words: kit.Words, space: Mapping[str, Any]) -> tuple[str, ...]:
    """The lines printed in a space's cell: :data:`ABBREV` for a site, the catalog's cell lines
    for a worded space, else the name cut to fit."""
    pos = int(space["pos"])
    key = space_key(space.get("kind"), space.get("token"))
    if key is not None:
        return tuple(words(f"monopoly.image.cell.{key}").split("\n"))
    lines = ABBREV.get(pos)
    if lines is None:
        return (kit.fit(str(space.get("name", "")), SMALL, _text_area(pos)[2]),)
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


def money(words: kit.Words, amount: object) -> str:
    """``$1,500`` / ``1 500 $``: the catalog's ``monopoly.money`` with the language's number."""
    value = amount if isinstance(amount, int) and not isinstance(amount, bool) else 0
    return words("monopoly.money", amount=words.number(value))


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


def _draw_cell(
    image: Image.Image, draw: ImageDraw.ImageDraw, words: kit.Words, space: Mapping[str, Any]
) -> None:
    pos = int(space["pos"])
    box = cell_box(pos)
    _rect(draw, box, fill=CELL_BG, outline=LINE, width=1)
    if pos % 10 == 0:
        _draw_corner(image, draw, words, space)
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
    lines = name_lines(words, space)
    for i, line in enumerate(lines):
        kit.label(image, (cx, top + i * LINE_H), kit.fit(line, SMALL, width), SMALL, INK, "mt")
    y = top + max(2, len(lines)) * LINE_H
    if price:
        kit.label(image, (cx, y), money(words, price), SMALL, SOFT, "mt")
    elif kind == data.TAX and space.get("tax"):
        kit.label(image, (cx, y), money(words, space["tax"]), SMALL, SOFT, "mt")
    elif kind in (data.CHANCE, data.TIPJAR) and len(lines) <= 2:
        kit.label(image, (cx, y + 2), "?", BIG, SOFT, "mt")


def _draw_corner(
    image: Image.Image, draw: ImageDraw.ImageDraw, words: kit.Words, space: Mapping[str, Any]
) -> None:
    """A corner's name in larger type; GO adds its salary ("+$200")."""
    pos = int(space["pos"])
    x0, y0, x1, _y1 = cell_box(pos)
    lines = name_lines(words, space)
    if space.get("kind") == data.GO:
        lines += ("+" + money(words, data.GO_SALARY),)
    size = BIG if pos == 0 else BODY
    for i, line in enumerate(lines):
        text = kit.fit(line, size, x1 - x0 - 4)
        kit.label(image, ((x0 + x1) / 2, y0 + 4 + i * (size + 1)), text, size, INK, "mt")
    if pos == 10:
        lx0, ly0, lx1, _ly1 = lane_box(10)
        draw.rectangle((lx0 + 26, ly0, lx1, ly0 + TOKEN + 4), fill=POOL_WATER, outline=LINE)


LEGEND = ("owner", "houses", "hotel", "mortgaged", "last", "turn", "getout")
"""The legend's samples, in reading order: each is drawn, then its words
(``monopoly.image.legend.<key>``); they flow left to right and wrap, so longer words (French)
take a third line rather than run into each other."""
LEGEND_GAP = 14
"""Space between one legend entry's words and the next entry's sample."""


def _legend_sample(
    image: Image.Image, draw: ImageDraw.ImageDraw, words: kit.Words, key: str, x: int, y: int
) -> int:
    """Draw one legend sample at (x, y); returns its width."""
    if key == "owner":
        draw.ellipse((x, y, x + CHIP, y + CHIP), fill=seat_colour(0))
        kit.label(
            image, (x + CHIP / 2, y + CHIP / 2), seat_letter(0), SMALL, kit.text_colour(seat_colour(0)), "mm"
        )
    elif key == "houses":
        _badge(image, draw, (x, y, x + CHIP, y + CHIP), 3)
    elif key == "hotel":
        _badge(image, draw, (x, y, x + CHIP, y + CHIP), data.HOTEL)
    elif key == "mortgaged":
        _mortgage_badge(image, draw, (x, y, x + CHIP, y + CHIP))
    elif key == "last":
        draw.rectangle((x, y, x + CHIP, y + CHIP), outline=LAST, width=3)
    elif key == "turn":
        draw.ellipse((x, y, x + CHIP, y + CHIP), outline=TURN, width=4)
    else:
        _card(image, draw, x, y, words, data.CHANCE)
        return CARD_W
    return CHIP


def legend_rows(words: kit.Words) -> list[list[tuple[str, str]]]:
    """The legend's entries ``(key, words)`` by row, wrapped to the centre's width."""
    x0, _y0, x1, _y1 = CENTRE
    face = kit.font(SMALL)
    rows: list[list[tuple[str, str]]] = [[]]
    x = x0
    for key in LEGEND:
        text = words(f"monopoly.image.legend.{key}")
        width = (CARD_W if key == "getout" else CHIP) + 4 + int(face.getlength(text))
        if rows[-1] and x + width > x1:
            rows.append([])
            x = x0
        rows[-1].append((key, text))
        x += width + LEGEND_GAP
    return rows


LEGEND_PITCH = LINE_H + 6
"""From one legend row to the next."""


def legend_top(words: kit.Words) -> int:
    """Where the legend starts: its rows stand on the bottom of the centre."""
    return CENTRE[3] - LINE_H - 2 - (len(legend_rows(words)) - 1) * LEGEND_PITCH - 4


def _legend(image: Image.Image, draw: ImageDraw.ImageDraw, words: kit.Words) -> None:
    x0, _y0, x1, _y1 = CENTRE
    y = legend_top(words)
    for row in legend_rows(words):
        x = x0
        for key, text in row:
            x += _legend_sample(image, draw, words, key, x, y) + 4
            kit.label(image, (x, y + CHIP / 2), kit.fit(text, SMALL, x1 - x), SMALL, SOFT, "lm")
            x += int(kit.font(SMALL).getlength(text)) + LEGEND_GAP
        y += LEGEND_PITCH


def _build_board(words: kit.Words) -> Image.Image:
    """The ring of 40 cells with codes, names and prices, the centre panel and the legend."""
    image = Image.new("RGB", (W, H), BOARD_BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((C, C, W - C - 1, H - C - 1), fill=BOARD_BG)
    draw.rounded_rectangle(CENTRE, radius=8, fill=CENTRE_BG, outline=SOFT, width=1)
    for pos in range(data.SPACES):
        with kit.panel(image, f"space {pos}", cell_box(pos)):
            _draw_cell(image, draw, words, board_space(pos))
    with kit.panel(image, "legend", (CENTRE[0], legend_top(words) - 4, CENTRE[2], CENTRE[3])):
        _legend(image, draw, words)
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


CARD_W = 27
"""A get-out card's width: wide enough for its deck's two-letter code."""


def _card(image: Image.Image, draw: ImageDraw.ImageDraw, x: int, y: int, words: kit.Words, deck: str) -> None:
    """A get-out card: a small white card with its deck's code (``monopoly.image.deck_code``:
    ``Ch`` Chance, ``TJ`` Tip Jar; in French ``CC``, the Caisse de communauté)."""
    draw.rounded_rectangle((x, y - 1, x + CARD_W, y + CHIP), radius=3, fill=WHITE, outline=LINE, width=1)
    code = words(f"monopoly.image.deck_code.{deck}")
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


LAST_KINDS = frozenset(
    {
        "rolled",
        "moved",
        "bought",
        "auction_started",
        "auction_won",
        "auction_unsold",
        "rent_due",
        "rent_claimable",
        "rent_collected",
        "rent_forfeited",
        "tax",
        "built",
        "sold_building",
        "mortgaged",
        "repaid",
        "interest",
        "shortage",
        "claimed",
    }
)
"""Moves the board words (``monopoly.image.last.<kind>``): every public event that names a space
(``rules.monopoly.engine._remember_last``), and the roll the view's dice pin down; any other
kind reads as ``monopoly.image.last.other`` (the space alone)."""


def last_move_text(view: View, names: Sequence[str], words: kit.Words) -> tuple[str, str]:
    """The last move in words, as (heading, what): ("Last move: Ann", "bought Lake Tahoe").

    A move derived from the dice (the view has no ``last`` entry) is headed "Last roll", since
    bids or deals may have come after it; a move by nobody (an auction the bank opens) is headed
    "Last move" alone.  ("", "") when nothing is known.
    """
    last = last_move(view)
    if last is None:
        return "", ""
    seat = last["seat"]
    kind = last["kind"] if last["kind"] in LAST_KINDS else "other"
    dice = view.get("dice") or []
    total = sum(int(d) for d in dice)
    space = last["space"]
    where = _space_name(view, space, words) if space is not None else ""
    what = words(f"monopoly.image.last.{kind}", space=where, total=words.number(total))
    heading = "move" if isinstance(view.get("last"), Mapping) else "roll"
    if isinstance(seat, int) and 0 <= seat < len(names):
        return words(f"monopoly.image.last_{heading}", player=names[seat]), what
    return words(f"monopoly.image.last_{heading}_nobody"), what


# --- the changing parts -----------------------------------------------------------------------


def _owners(image: Image.Image, draw: ImageDraw.ImageDraw, spaces: Sequence[Mapping[str, Any]]) -> None:
    for space in spaces:
        owner = space.get("owner")
        if not isinstance(owner, int):
            continue
        pos = int(space["pos"])
        x0, y0, _x1, y1 = owner_row(pos)
        badge = (x0 + CHIP + 3, y0, x0 + 2 * CHIP + 3, y1)
        with kit.panel(image, f"space {pos}", cell_box(pos)):
            _chip(image, draw, (x0, y0, x0 + CHIP, y1), owner)
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


def _name(names: Sequence[str], seat: object, words: kit.Words) -> str:
    """A player by name and seat letter, "Ann (A)": the letter is what their chips carry."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"{names[seat]} ({seat_letter(seat)})"
    return words("monopoly.bank")


def _space_name(view: View, pos: object, words: kit.Words) -> str:
    spaces = view.get("spaces") or []
    if isinstance(pos, int) and not isinstance(pos, bool) and 0 <= pos < len(spaces):
        return space_name(words, spaces[pos])
    return "?"


def _lot(view: View, auction: Mapping[str, Any], words: kit.Words) -> str:
    """What an auction sells: the property, or a house or hotel of a building shortage."""
    item = auction.get("item")
    if item == "property":
        return _space_name(view, auction.get("space"), words)
    return words(f"monopoly.lot.{item}") if item in ("house", "hotel") else "?"


def _letters(seats: object, words: kit.Words, names: Sequence[str]) -> str:
    """Seats by letter ("A, C"), the players' list beside them giving each letter its name; the
    bank (``-1``, or nobody) in words."""
    found = (
        [seat_letter(s) for s in seats if isinstance(s, int) and 0 <= s < len(names)]
        if isinstance(seats, list | tuple)
        else []
    )
    return ", ".join(found) if found else words("monopoly.bank")


def headline(view: View, names: Sequence[str], words: kit.Words) -> str:
    """Whose turn it is, or who is rolling for the start, or who won."""
    result = view.get("result")
    if view.get("phase") == "over" and isinstance(result, Mapping):
        winners = [names[s] for s in result.get("winners") or [] if 0 <= s < len(names)]
        return words.count("monopoly.image.game_over", len(winners), players=", ".join(winners))
    if view.get("phase") == "opening":
        return words("monopoly.image.opening")
    return words("monopoly.image.to_play", player=_name(names, view.get("turn"), words))


def _seats(seats: object) -> list[int]:
    """Seat numbers of a view's list, in seat order (the letters read A, B, C as on the chips)."""
    if not isinstance(seats, list | tuple):
        return []
    return sorted(s for s in seats if isinstance(s, int) and not isinstance(s, bool))


def auction_lines(view: View, a: Mapping[str, Any], names: Sequence[str], words: kit.Words) -> list[str]:
    """An auction in the table's words.

    Round mode has a bidder whose turn it is, so one line names the lot, the high bid and that
    bidder.  An open auction has no turn (``turn`` is -1: anyone still in bids at any time), so
    naming a next bidder would name nobody, or the bank; instead a first line gives the lot and
    the high bid with its holder, and a second who may still bid (everyone still in but the high
    bidder: the seats the game waits for) and who has passed, since a pass is final."""
    lot = _lot(view, a, words)
    high = a.get("high_bidder")
    holder = _letters([high], words, names)
    amount = money(words, a.get("high"))
    if a.get("mode") != "open":
        bidder = _letters([a.get("turn")], words, names)
        if high is None:
            return [words("monopoly.image.auction_open", lot=lot, bidder=bidder)]
        return [words("monopoly.image.auction", lot=lot, amount=amount, high=holder, bidder=bidder)]
    if high is None:
        lines = [words("monopoly.image.open_auction_no_bid", lot=lot)]
    else:
        lines = [words("monopoly.image.open_auction", lot=lot, amount=amount, high=holder)]
    bidding = [s for s in _seats(a.get("active")) if s != high]
    passed = _seats(a.get("passed"))
    if not bidding:
        return lines  # closing: the view never shows it, but a line naming "the bank" would mislead
    seats = _letters(bidding, words, names)
    if passed:
        gone = _letters(passed, words, names)
        lines.append(words.count("monopoly.image.open_bidding_passed", len(passed), seats=seats, passed=gone))
    else:
        lines.append(words("monopoly.image.open_bidding", seats=seats))
    return lines


def status_lines(view: View, names: Sequence[str], words: kit.Words) -> list[str]:
    """What the table waits for, most urgent first (the same order as the engine's overlays).

    Seats are written by letter: the players' list beside the lines gives each letter its name."""

    def who(seat: object) -> str:
        return _letters([seat], words, names)

    lines: list[str] = []
    a = view.get("auction")
    if isinstance(a, Mapping):
        lines += auction_lines(view, a, names, words)
    sh = view.get("shortage")
    if isinstance(sh, Mapping) and sh.get("item") in ("house", "hotel"):
        supply = int(sh.get("supply") or 0)
        asked = _letters(sh.get("asked") or [], words, names)
        lines.append(words.count(f"monopoly.image.shortage_{sh['item']}", supply, seats=asked))
    for d in view.get("debts") or []:
        reason = d.get("reason")
        lines.append(
            words(
                "monopoly.image.debt",
                debtor=who(d.get("debtor")),
                amount=money(words, d.get("total")),
                creditors=_letters(d.get("to_seats") or [], words, names),
                why=words(f"monopoly.reason.{reason}") if isinstance(reason, str) else "?",
            )
        )
    for f in view.get("fees") or []:
        lines.append(
            words(
                "monopoly.image.fee", seat=who(f.get("seat")), space=_space_name(view, f.get("space"), words)
            )
        )
    for c in view.get("claims") or []:
        lines.append(
            words(
                "monopoly.image.claim",
                owner=who(c.get("owner")),
                amount=money(words, c.get("amount")),
                payer=who(c.get("payer")),
            )
        )
    for o in view.get("offers") or []:
        lines.append(
            words(
                "monopoly.image.offer",
                offer=words.number(int(o.get("offer") or 0)),
                proposer=who(o.get("from_seat")),
                recipient=who(o.get("to_seat")),
            )
        )
    opening = view.get("opening") or {}
    if view.get("phase") == "opening":
        rolls = ", ".join(f"{seat_letter(s)} {words.number(t)}" for s, t in opening.get("rolls") or [])
        rolling = _letters(opening.get("rolling") or [], words, names)
        if rolls:
            lines.append(words("monopoly.image.rolls", rolls=rolls, seats=rolling))
        else:
            lines.append(words("monopoly.image.no_rolls", seats=rolling))
    return lines


def _rank(words: kit.Words, rank: object) -> str:
    """A final rank as the language writes it ("#1"; "1er", "2e")."""
    if not isinstance(rank, int) or isinstance(rank, bool):
        return ""
    return words("monopoly.image.rank_first") if rank == 1 else words("monopoly.image.rank", rank=rank)


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
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: View,
    names: Sequence[str],
    words: kit.Words,
    top: int,
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
            status = words("monopoly.score.bankrupt")
            kit.label(image, (right, y + CHIP / 2), status, SMALL, SOFT, "rm")
            right -= int(kit.font(SMALL).getlength(status)) + 8
        else:
            cash = money(words, s.get("cash"))
            kit.label(image, (right, y + CHIP / 2), cash, BODY, INK, "rm")
            right -= int(kit.font(BODY).getlength(cash)) + 8
            for deck in reversed(s.get("getout") or []):
                _card(image, draw, right - CARD_W, y, words, str(deck))
                right -= CARD_W + 4
            pool = s.get("pool")
            if isinstance(pool, int):
                tag = words("monopoly.image.pool", tries=pool, of=data.POOL_TRIES)
                kit.label(image, (right, y + CHIP / 2), tag, SMALL, INK, "rm")
                right -= int(kit.font(SMALL).getlength(tag)) + 8
            if result is not None:
                ranks = result.get("ranks") or []
                if seat < len(ranks):
                    rank = _rank(words, ranks[seat])
                    kit.label(image, (right, y + CHIP / 2), rank, SMALL, INK, "rm")
                    right -= int(kit.font(SMALL).getlength(rank)) + 8
        name_x = x0 + CHIP + 8
        name = names[seat] if seat < len(names) else words("host.image.seat", number=seat + 1)
        shown = kit.fit(name, BODY, right - name_x)
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
            kit.label(
                image, (name_x, y2 + CHIP / 2), words("monopoly.image.no_properties"), SMALL, SOFT, "lm"
            )
        y += 2 * CHIP + 12
    return y


def _table(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: View, names: Sequence[str], words: kit.Words
) -> Box | None:
    """The centre: headline, dice and last move, what we wait for, players, bank.  Returns the dice box."""
    x0, y0, x1, _y1 = CENTRE
    x0 += 6
    x1 -= 6
    y = y0 + 6
    kit.label(image, (x0, y), kit.fit(headline(view, names, words), BIG, x1 - x0), BIG, INK, "la")
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
        total = words.number(sum(dice))
        total_text = words("monopoly.image.doubles", total=total) if dice[0] == dice[1] else total
    heading, what = last_move_text(view, names, words)
    if heading:
        kit.label(image, (text_x, y + 4), kit.fit(heading, SMALL, x1 - text_x), SMALL, LAST, "la")
        kit.label(image, (text_x, y + 26), kit.fit(what, BODY, x1 - text_x), BODY, INK, "la")
    elif dice:
        kit.label(image, (text_x, y + 14), total_text, BODY, INK, "la")
    elif view.get("phase") != "opening":  # the opening's rolls have their own line below
        kit.label(image, (text_x, y + 14), words("monopoly.image.no_roll"), SMALL, SOFT, "la")
    y += 52
    lines = status_lines(view, names, words)
    shown = lines[:4]
    if len(lines) > 4:
        shown[-1] = words.count("monopoly.image.more", len(lines) - 3)
    for line in shown:
        kit.label(image, (x0, y), kit.fit(line, SMALL, x1 - x0), SMALL, INK, "la")
        y += LINE_H + 3
    y += 4
    draw.line((x0, y, x1, y), fill=SOFT)
    y = _players(image, draw, view, names, words, y + 6)
    bank = view.get("bank") or {}
    decks = view.get("decks") or {}
    supply = words(
        "monopoly.image.bank",
        houses=words.count("monopoly.houses", int(bank.get("houses") or 0)),
        hotels=words.count("monopoly.image.hotels", int(bank.get("hotels") or 0)),
    )
    cards = words(
        "monopoly.image.decks",
        chance=words.number(int(decks.get(data.CHANCE) or 0)),
        tipjar=words.number(int(decks.get(data.TIPJAR) or 0)),
    )
    for line in (supply, cards):
        kit.label(image, (x0, y), kit.fit(line, SMALL, x1 - x0), SMALL, SOFT, "la")
        y += LINE_H + 3
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
    with kit.panel(image, "table", CENTRE):  # the legend at its foot is text too: no overlap allowed
        dice_box = _table(image, draw, view, shown, words)
    if last is not None and last["kind"] == "rolled" and dice_box is not None:
        _frame(draw, dice_box)
    return image


def render(view: View, names: Sequence[str], words: kit.Words) -> bytes:
    """The board as one PNG, :data:`W` x :data:`H` px, from the public view and the names."""
    return kit.png(draw_board(view, names, words), colours())
