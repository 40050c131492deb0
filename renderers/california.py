"""California's board: the day track, the stores, the bank, the bonus cards and every mansion.

The only inputs are the public view (``RULES.view(state, None)``), the
players' names in seat order and the table's words (``renderers.kit.Words``):
every word drawn, colour codes included, comes from the catalog's
``[california]`` sections in the table's language (the names the text
messages use, ``[california.image]`` for what only the pictures say), and
every number goes through ``words.number``.  Discord shows a picture about
400 px wide on a phone, so the board is drawn 600 px wide with no text under
:data:`MIN_FONT` (14 px, 9.3 px on the phone) and stays at most 1.6 times as
tall as wide with five players.  To fit, the public board is compact: the
mansions are small, codes and numbers only, and a player who wants the
detail (names of rooms, the score breakdown, the key) opens "My mansion", a
private full-size picture of their own mansion (:func:`render_mansion`).

Reading the board, top to bottom: the day track and whose turn it is; the
last move in words, also outlined in magenta wherever it changed the table
(the space just renovated or furnished, the attic space filled, the store
slot emptied, the bank space of the coin taken, the loan marker); the two
stores and the bank (the tile price is the gold coins left); the supply; the
bonus cards (a taken card names its owner); the mansions.  Each mansion grid
is labelled with rows A-D and columns 1-4, the names the Buy buttons use.

Whose turn it is shows three ways: the title bar names the player, and that
mansion gets an amber header with a "to play" tag and a thick frame (at the
end, the winner's mansion gets the same with "winner").

Colour is never the only signal: every colour has a two-letter code in the
table's language (``california.code``: ``Rd`` red in English, ``Ro`` rouge in
French), printed on every tile and chip and on the buttons.  A room tile is
its code on the colour; a furniture tile adds a white disc around the code;
the printed room has a folded corner; a silver coin with a number is an
amount of silver (a fee); a gold coin marked with the catalog's gold mark is
a bank coin worth 5 silver.  The last move is outlined and also written out.

Everything that never changes for a table (frames, labels, the bonus card
faces, the empty mansion spaces with their fees) is drawn once per layout
and language and cached; a render copies that layer and draws only the
changing parts, then encodes against a fixed palette (:func:`renderers.kit.png`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from . import kit
from .kit import INK, PAPER, WHITE, Colour, font, hatch, text_colour

Box = tuple[int, int, int, int]


# --- colours and codes ----------------------------------------------------------------

COLOURS: dict[str, Colour] = {
    "brown": (201, 158, 109),
    "red": (196, 38, 46),
    "purple": (118, 64, 160),
    "gray": (128, 128, 128),
    "blue": (126, 196, 240),
    "green": (46, 139, 67),
}
"""View colour key -> fill.  Its code and names are the catalog's (``california.code.<key>``,
``california.colour``, ``california.room_type``, ``california.furniture``)."""
UNKNOWN: Colour = (90, 90, 90)
UNKNOWN_CODE = "?"
"""What a colour the view should never hold is drawn as: a grey tile marked "?"."""

BG: Colour = (236, 231, 220)
CARD: Colour = PAPER
LINE: Colour = (60, 60, 60)
SOFT: Colour = (95, 95, 95)
EMPTY: Colour = (222, 214, 198)
EMPTY_EDGE: Colour = (170, 160, 140)
HEAD: Colour = (45, 55, 62)
TURN: Colour = (255, 183, 0)
GOLD: Colour = (236, 184, 36)
GOLD_EDGE: Colour = (140, 98, 0)
SILVER: Colour = (206, 211, 218)
SILVER_EDGE: Colour = (96, 100, 108)
LOAN: Colour = (178, 34, 34)
LOAN_HATCH: Colour = (215, 95, 95)
GIFT: Colour = (214, 72, 140)
PAST: Colour = (120, 120, 120)
HATCH: Colour = (165, 165, 165)
CLOSED: Colour = (200, 200, 200)
ATTIC_PLUS: Colour = (245, 236, 200)
HIGHLIGHT: Colour = (226, 0, 122)
"""The last move's outline: a magenta no tile, coin or marker uses."""

TEXT_ON = {
    INK: (BG, CARD, EMPTY, SILVER, GOLD, TURN, WHITE, ATTIC_PLUS, CLOSED, *COLOURS.values()),
    WHITE: (HEAD, PAST, LOAN, INK, HIGHLIGHT, UNKNOWN, *COLOURS.values()),
    SOFT: (BG, CARD, EMPTY),
    TURN: (HEAD, INK),
    LOAN: (BG, CARD),
}
"""Which text colour is drawn on which background: the palette gets smooth edges for each pair."""

# --- layout (pixels at full size) -------------------------------------------------------

W = 600
PHONE = 400  # the width a phone shows the picture at
MIN_FONT = -(-9 * W // PHONE)
"""14: the smallest text, 9 px tall once the picture is shown 400 px wide (design.md)."""
SMALL, BODY, BIG = MIN_FONT, MIN_FONT + 2, MIN_FONT + 4
M = 8  # outer margin

HEADER_H = 40
DAY_Y, DAY_W, DAY_H, DAY_GAP = 7, 26, 26, 2
LAST_Y, LAST_H = HEADER_H + 4, 22
SHOP_Y = LAST_Y + LAST_H + 4
TILE, TILE_GAP = 50, 4
SHOP_H = 20 + TILE + 8
STORE_W = 4 * TILE + 3 * TILE_GAP + 12
SUPPLY_Y, SUPPLY_H = SHOP_Y + SHOP_H + 4, 24
CHIP_MIN = 22
"""The narrowest guest chip in the supply strip: still room for the widest code ("Ma") at 14 px."""
BONUS_Y = SUPPLY_Y + SUPPLY_H + 4
CARD_COLS, CARD_GAP, CARD_ROW_GAP = 4, 6, 4
CARD_W, CARD_H = (W - 2 * M - (CARD_COLS - 1) * CARD_GAP) // CARD_COLS, 34
BONUS_H = 3 * CARD_H + 2 * CARD_ROW_GAP
PLAYERS_Y = BONUS_Y + BONUS_H + 8

PANEL_W = (W - 3 * M) // 2
PANEL_H, PANEL_GAP = 208, 8
PANEL_HEAD = 26
LABEL = 18  # width of the row letters, height of the column numbers
CELL, CELL_GAP = 38, 2
GRID_X, GRID_Y = 4 + LABEL, PANEL_HEAD + 2 + LABEL
GRID = 4 * CELL + 3 * CELL_GAP
SIDE_X = GRID_X + GRID + 6
ATTIC, ATTIC_W = 28, 25
"""An attic space on the board: narrower than tall, so the word "attic" (French "grenier") fits beside."""

ROW_NAMES = "ABCD"
COLUMNS = 4


# --- small drawing helpers ---------------------------------------------------------------


def fill_of(key: object) -> Colour:
    return COLOURS.get(key, UNKNOWN) if isinstance(key, str) else UNKNOWN


def code_of(key: object, words: kit.Words) -> str:
    """The colour's two letters in the table's language (``Rd``, ``Ro``), as the buttons print them."""
    return words(f"california.code.{key}") if isinstance(key, str) and key in COLOURS else UNKNOWN_CODE


def space_label(space: int) -> str:
    """``A1`` .. ``D4`` for a ground-floor space: the names the Buy buttons use."""
    return f"{ROW_NAMES[space // COLUMNS]}{space % COLUMNS + 1}"


def width_of(value: str, size: int, bold: bool = False) -> float:
    return font(size, bold).getlength(value)


def fit_name(make: Callable[[str], str], name: str, size: int, width: float, bold: bool = False) -> str:
    """``make(name)`` cut to ``width`` by shortening the name, not the sentence around it.

    A long name would otherwise push the words after it ("... de jouer", "; day over") off the
    end, and in French the verb often comes after the name.  When even a one-letter name is too
    long, the sentence itself is cut.
    """
    label = make(name)
    if width_of(label, size, bold) <= width:
        return label
    for cut in range(len(name) - 1, 0, -1):
        label = make(name[:cut].rstrip(" .") + "...")
        if width_of(label, size, bold) <= width:
            return label
    return kit.fit(label, size, width, bold)


def coin(image: Image.Image, centre: tuple[int, int], r: int, label: str, gold: bool = False) -> None:
    """A silver coin with an amount of silver, or a gold coin (marked G)."""
    x, y = centre
    fill, edge = (GOLD, GOLD_EDGE) if gold else (SILVER, SILVER_EDGE)
    ImageDraw.Draw(image).ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=edge, width=2)
    size = max(MIN_FONT, r + 2)
    kit.label(image, (x, y), label, size, INK, "mm", bold=gold)


def tile(
    image: Image.Image,
    box: Box,
    colour: object,
    furniture: bool,
    words: kit.Words,
    printed: bool = False,
    size: int = BODY,
) -> None:
    """A room tile (code on colour) or a furniture tile (code in a white disc on colour)."""
    code, fill = code_of(colour, words), fill_of(colour)
    x0, y0, x1, y1 = box
    kit.cover(image, box)
    draw = ImageDraw.Draw(image)
    draw.rectangle(box, fill=fill, outline=LINE, width=1 if x1 - x0 < 40 else 2)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if furniture:
        # The disc grows to hold its code (small tiles), never past the tile's edge.
        side = min(x1 - x0, y1 - y0)
        bold = size > MIN_FONT
        r = max(side * 36 // 100, int(width_of(code, size, bold) + 6) // 2)
        r = min(r, side // 2 - 2)
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2 if side >= 40 else 1)
        kit.label(image, (cx, cy), code, size, INK, "mm", bold=bold)
    else:
        kit.label(image, (cx, cy), code, size, text_colour(fill), "mm", bold=True)
    if printed:
        fold = (x1 - x0) // 3
        draw.polygon([(x0 + 1, y0 + 1), (x0 + fold, y0 + 1), (x0 + 1, y0 + fold)], fill=WHITE, outline=INK)


def expansion_tile(image: Image.Image, box: Box, words: kit.Words, size: int = SMALL) -> None:
    x0, y0, x1, y1 = box
    kit.cover(image, box)
    ImageDraw.Draw(image).rectangle(box, fill=ATTIC_PLUS, outline=LINE, width=2)
    cx = (x0 + x1) // 2
    word = kit.fit(words("california.image.expansion_tile"), size, x1 - x0 - 4)
    with kit.panel(image, "expansion tile", box):
        kit.label(image, (cx, y0 + (y1 - y0) * 0.32), word, size, INK, "mm")
        kit.label(image, (cx, y0 + (y1 - y0) * 0.70), "+" + words.number(1), size + 2, INK, "mm", bold=True)


@lru_cache(maxsize=512)
def _tile_sprite(
    colour: str | None, furniture: bool, printed: bool, w: int, h: int, size: int, words: kit.Words
) -> Image.Image:
    sprite = Image.new("RGB", (w, h), BG)
    tile(sprite, (0, 0, w - 1, h - 1), colour, furniture, words, printed, size)
    return sprite


def paste_tile(
    image: Image.Image,
    box: Box,
    colour: object,
    furniture: bool,
    words: kit.Words,
    printed: bool = False,
    size: int = BODY,
) -> None:
    """``tile`` from a cache of drawn tiles (most of a board is the same few tiles)."""
    key = colour if isinstance(colour, str) else None
    sprite = _tile_sprite(key, furniture, printed, box[2] - box[0] + 1, box[3] - box[1] + 1, size, words)
    kit.paste(image, sprite, (box[0], box[1]))


@lru_cache(maxsize=256)
def _coin_sprite(r: int, label: str, gold: bool, background: Colour) -> Image.Image:
    """A coin carrying ``label`` and nothing else: the caller has already put the label in the
    table's language (``words.number``, the catalog's gold mark), so the cache needs no words."""
    sprite = Image.new("RGB", (2 * r + 1, 2 * r + 1), background)
    coin(sprite, (r, r), r, label, gold)
    return sprite


def paste_coin(
    image: Image.Image,
    centre: tuple[int, int],
    r: int,
    label: str,
    gold: bool = False,
    background: Colour = CARD,
) -> None:
    """``coin`` from a cache, on a plain ``background``."""
    kit.paste(image, _coin_sprite(r, label, gold, background), (centre[0] - r, centre[1] - r))


def gift_icon(draw: ImageDraw.ImageDraw, x: int, y: int, s: int = 16) -> None:
    draw.rectangle((x, y + 3, x + s, y + s), fill=GIFT, outline=INK, width=1)
    draw.rectangle((x + s // 2 - 1, y + 3, x + s // 2 + 1, y + s), fill=WHITE)
    draw.rectangle((x, y + s // 2, x + s, y + s // 2 + 2), fill=WHITE)
    draw.ellipse((x + s // 2 - 5, y, x + s // 2, y + 5), outline=INK, width=1)
    draw.ellipse((x + s // 2, y, x + s // 2 + 5, y + 5), outline=INK, width=1)


def triangle(draw: ImageDraw.ImageDraw, x: int, cy: int, s: int, fill: Colour) -> None:
    draw.polygon([(x, cy - s), (x + s + 3, cy), (x, cy + s)], fill=fill)


def loan_badge(image: Image.Image, box: Box, words: kit.Words, size: int = SMALL) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle(box, fill=LOAN, outline=INK, width=1)
    hatch(draw, box, LOAN_HATCH, step=6)
    word = kit.fit(words("california.image.loan"), size, box[2] - box[0] - 4, bold=True)
    kit.label(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), word, size, WHITE, "mm", bold=True)


def outline(draw: ImageDraw.ImageDraw, box: Box, width: int = 4) -> None:
    """The last move's mark: a magenta frame around ``box``, covering only its border line."""
    x0, y0, x1, y1 = box
    grow = width - 1
    draw.rectangle((x0 - grow, y0 - grow, x1 + grow, y1 + grow), outline=HIGHLIGHT, width=width)


# --- where things are ----------------------------------------------------------------------


def rows_of(n: int) -> int:
    return (n + 1) // 2


def height(n: int) -> int:
    rows = max(1, rows_of(n))
    return PLAYERS_Y + rows * PANEL_H + (rows - 1) * PANEL_GAP + M


def panel_origin(seat: int) -> tuple[int, int]:
    return M + (seat % 2) * (PANEL_W + M), PLAYERS_Y + (seat // 2) * (PANEL_H + PANEL_GAP)


def day_box(day: int) -> Box:
    x = M + (day - 1) * (DAY_W + DAY_GAP)
    return (x, DAY_Y, x + DAY_W, DAY_Y + DAY_H)


def store_box(store: int) -> Box:
    x = M + store * (STORE_W + 6)
    return (x, SHOP_Y, x + STORE_W, SHOP_Y + SHOP_H)


def slot_box(store: int, slot: int) -> Box:
    x0, y0, _, _ = store_box(store)
    x = x0 + 6 + slot * (TILE + TILE_GAP)
    return (x, y0 + 20, x + TILE, y0 + 20 + TILE)


BANK_BOX: Box = (M + 2 * (STORE_W + 6), SHOP_Y, W - M, SHOP_Y + SHOP_H)
SUPPLY_BOX: Box = (M, SUPPLY_Y, W - M, SUPPLY_Y + SUPPLY_H)
BANK_COIN_R = 12


def bank_coin_centre(i: int) -> tuple[int, int]:
    x0, y0, x1, _ = BANK_BOX
    step = (x1 - x0 - 8) // 4
    return (x0 + 4 + step // 2 + i * step, y0 + 20 + BANK_COIN_R + 2)


def card_box(card: int) -> Box:
    row, col = divmod(card, CARD_COLS)
    x = M + col * (CARD_W + CARD_GAP)
    y = BONUS_Y + row * (CARD_H + CARD_ROW_GAP)
    return (x, y, x + CARD_W, y + CARD_H)


def cell_box(x: int, y: int, space: int) -> Box:
    row, column = divmod(space, COLUMNS)
    cx = x + GRID_X + column * (CELL + CELL_GAP)
    cy = y + GRID_Y + row * (CELL + CELL_GAP)
    return (cx, cy, cx + CELL, cy + CELL)


def attic_box(x: int, y: int, i: int) -> Box:
    ax = x + SIDE_X + i * (ATTIC_W + 3)
    ay = y + PANEL_HEAD + 4
    return (ax, ay, ax + ATTIC_W, ay + ATTIC)


def loan_box(x: int, y: int) -> Box:
    sx, sy = x + SIDE_X, y + PANEL_HEAD + 4 + ATTIC + 28
    return (sx, sy, sx + 58, sy + 20)


# --- the fixed palette ------------------------------------------------------------------------


@lru_cache(maxsize=1)
def colours() -> Image.Image:
    """Every colour this board uses, and the shades anti-aliased text makes on each background."""
    solid = {
        BG, CARD, LINE, SOFT, EMPTY, EMPTY_EDGE, HEAD, TURN, GOLD, GOLD_EDGE, SILVER, SILVER_EDGE,
        LOAN, LOAN_HATCH, GIFT, PAST, HATCH, CLOSED, ATTIC_PLUS, HIGHLIGHT, INK, WHITE, UNKNOWN,
        *COLOURS.values(),
    }  # fmt: skip
    blends = [(ink, ground) for ink, grounds in TEXT_ON.items() for ground in grounds if ink != ground]
    return kit.palette(sorted(solid), blends, steps=5)


# --- static layers ---------------------------------------------------------------------------


@lru_cache(maxsize=4)
def table_layer(words: kit.Words) -> Image.Image:
    """Title bar, store and bank frames, the supply strip: the same for every table of a language."""
    image = Image.new("RGB", (W, PLAYERS_Y), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, W, HEADER_H), fill=HEAD)
    for store in range(2):
        box = store_box(store)
        draw.rounded_rectangle(box, radius=6, fill=CARD, outline=LINE, width=2)
        label = words("california.image.store", number=words.number(store + 1))
        with kit.panel(image, f"store {store + 1}", box):
            kit.label(image, (box[0] + 6, box[1] + 3), label, SMALL, INK, "la", bold=True)
    draw.rounded_rectangle(BANK_BOX, radius=6, fill=CARD, outline=LINE, width=2)
    with kit.panel(image, "bank", BANK_BOX):
        bank = words("california.image.bank")
        kit.label(image, (BANK_BOX[0] + 6, BANK_BOX[1] + 3), bank, SMALL, INK, "la", bold=True)
    for i in range(4):
        x, y = bank_coin_centre(i)
        r = BANK_COIN_R
        draw.ellipse((x - r, y - r, x + r, y + r), fill=EMPTY, outline=EMPTY_EDGE, width=1)
    draw.rounded_rectangle(SUPPLY_BOX, radius=6, fill=CARD, outline=LINE, width=1)
    return image


@lru_cache(maxsize=4)
def _card_faces(
    cards: tuple[tuple[int, tuple[tuple[str, int], ...]], ...], words: kit.Words
) -> list[Image.Image]:
    """Card faces (points and the furniture it needs), drawn once per card set and language."""
    faces = []
    for points, needs in cards:
        face = Image.new("RGB", (CARD_W + 1, CARD_H + 1), BG)
        draw = ImageDraw.Draw(face)
        draw.rounded_rectangle((0, 0, CARD_W, CARD_H), radius=5, fill=CARD, outline=LINE, width=1)
        coin(face, (17, CARD_H // 2), 12, words.number(points), gold=True)
        chips = [colour for colour, k in needs for _ in range(max(0, min(k, 3)))][:3]
        for i, colour in enumerate(chips):
            x = 34 + i * 35
            tile(face, (x, 5, x + 32, CARD_H - 5), colour, False, words, size=SMALL)
        faces.append(face)
    return faces


def key_line(key: str, words: kit.Words) -> str:
    """``red: music room, grand piano``: a colour of the key, in the table's words."""
    return words(
        "california.image.key_line",
        colour=words(f"california.colour.{key}"),
        room=words(f"california.room_type.{key}"),
        furniture=words(f"california.furniture.{key}"),
    )


def _key(image: Image.Image, box: Box, words: kit.Words) -> None:
    """The colour codes, in the empty slot beside an odd last mansion."""
    x0, y0, x1, _ = box
    ImageDraw.Draw(image).rounded_rectangle(box, radius=6, fill=CARD, outline=LINE, width=1)
    with kit.panel(image, "key", box):
        title = kit.fit(words("california.image.key_title"), SMALL, x1 - x0 - 16, bold=True)
        kit.label(image, (x0 + 8, y0 + 6), title, SMALL, INK, "la", bold=True)
        for i, key in enumerate(COLOURS):
            cy = y0 + 30 + i * 24
            tile(image, (x0 + 8, cy, x0 + 38, cy + 20), key, False, words, size=SMALL)
            label = kit.fit(key_line(key, words), SMALL, x1 - x0 - 54)
            kit.label(image, (x0 + 46, cy + 10), label, SMALL, INK, "lm")
        y = y0 + 30 + 6 * 24 + 2
        tile(image, (x0 + 8, y, x0 + 38, y + 24), "red", True, words, size=SMALL)
        furnished = words("california.image.furnished")
        kit.label(image, (x0 + 46, y + 12), furnished, SMALL, INK, "lm")
        cx = x0 + 46 + int(width_of(furnished, SMALL)) + 24
        coin(image, (cx, y + 12), 11, words.number(2))
        fee = kit.fit(words("california.image.fee_short"), SMALL, x1 - cx - 22)
        kit.label(image, (cx + 16, y + 12), fee, SMALL, INK, "lm")


def _empty_panel(image: Image.Image, x: int, y: int, fees: Sequence[int | None], words: kit.Words) -> None:
    draw = ImageDraw.Draw(image)
    draw.rectangle((x, y, x + PANEL_W, y + PANEL_H), fill=CARD, outline=LINE, width=2)
    for column in range(COLUMNS):
        cx = x + GRID_X + column * (CELL + CELL_GAP) + CELL // 2
        kit.label(
            image,
            (cx, y + PANEL_HEAD + 2 + LABEL // 2),
            words.number(column + 1),
            SMALL,
            SOFT,
            "mm",
            bold=True,
        )
    for row, letter in enumerate(ROW_NAMES):
        cy = y + GRID_Y + row * (CELL + CELL_GAP) + CELL // 2
        kit.label(image, (x + 4 + LABEL // 2, cy), letter, SMALL, SOFT, "mm", bold=True)
    for space, fee in enumerate(fees):
        box = cell_box(x, y, space)
        draw.rectangle(box, fill=EMPTY, outline=EMPTY_EDGE, width=1)
        if fee:
            coin(image, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), 10, words.number(fee))
    ax = attic_box(x, y, 1)[2] + 4
    attic = kit.fit(words("california.image.attic"), SMALL, x + PANEL_W - ax - 1)
    kit.label(image, (ax, y + PANEL_HEAD + 4 + ATTIC // 2), attic, SMALL, SOFT, "lm")


@lru_cache(maxsize=16)
def _board(
    n: int,
    fees: tuple[tuple[int | None, ...], ...],
    cards: tuple[tuple[int, tuple[tuple[str, int], ...]], ...],
    words: kit.Words,
) -> Image.Image:
    """Everything static for a table of ``n``: the table top, bonus cards, empty mansions with fees."""
    image = Image.new("RGB", (W, height(n)), BG)
    kit.paste(image, table_layer(words), (0, 0))
    for card, face in enumerate(_card_faces(cards, words)):
        box = card_box(card)
        with kit.panel(image, f"bonus card {card + 1}", box):
            kit.paste(image, face, (box[0], box[1]))
    x0, y0, x1, _ = card_box(11)
    title = kit.fit(words("california.image.bonus_cards"), SMALL, x1 - x0 - 4, bold=True)
    with kit.panel(image, "bonus cards' title", card_box(11)):
        kit.label(image, (x0 + 4, y0 + 1), title, SMALL, INK, "la", bold=True)
    for seat in range(n):
        x, y = panel_origin(seat)
        with kit.panel(image, f"mansion {seat + 1}", (x, y, x + PANEL_W, y + PANEL_H)):
            _empty_panel(image, x, y, fees[seat], words)
    if n % 2:
        x, y = panel_origin(n)
        _key(image, (x, y, x + PANEL_W, y + PANEL_H), words)
    return image


def clear_caches() -> None:
    """Forget every cached layer and sprite (tests use it to see a render from scratch)."""
    for cached in (
        table_layer,
        _board,
        _card_faces,
        _tile_sprite,
        _coin_sprite,
        colours,
        _mansion_layer,
        kit.fit,
    ):
        cached.cache_clear()


# --- the changing parts ----------------------------------------------------------------------


def _winners(players: Sequence[Mapping[str, Any]]) -> list[int]:
    keyed = [(_score(p).get("total", 0), _score(p).get("money", 0)) for p in players]
    if not keyed:
        return []
    top = max(keyed)
    return [s for s, k in enumerate(keyed) if k == top]


def _score(p: Mapping[str, Any]) -> Mapping[str, int]:
    score = p.get("score")
    return score if isinstance(score, Mapping) else {}


def _header(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    names: Sequence[str],
    words: kit.Words,
) -> None:
    """The day track (past grey, today amber, days that will not be played hatched) and the status."""
    with kit.panel(image, "title bar", (0, 0, W, HEADER_H)):
        _title_bar(image, draw, view, names, words)


def _title_bar(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    names: Sequence[str],
    words: kit.Words,
) -> None:
    day = int(view.get("day") or 0)
    days = int(view.get("days") or 12)
    last = day if view.get("ending") or view.get("over") else days
    for d in range(1, 13):
        box = day_box(d)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        if d < day:
            draw.rectangle(box, fill=PAST, outline=LINE, width=1)
            kit.label(image, centre, words.number(d), SMALL, WHITE, "mm")
        elif d == day:
            draw.rectangle(box, fill=TURN, outline=WHITE, width=2)
            kit.label(image, centre, words.number(d), SMALL, INK, "mm", bold=True)
        elif d > last or d > days:
            draw.rectangle(box, fill=CLOSED, outline=LINE, width=1)
            hatch(draw, (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), HATCH, step=5)
            kit.label(image, centre, words.number(d), SMALL, INK, "mm")
        else:
            draw.rectangle(box, fill=CARD, outline=LINE, width=1)
            kit.label(image, centre, words.number(d), SMALL, INK, "mm")
    players = view.get("players") or []
    if view.get("over"):
        best = _winners(players)
        who = " & ".join(names[s] for s in best if s < len(names)) or words("california.image.nobody")
        key = "california.image.wins" if len(best) == 1 else "california.image.tie"
        label = fit_name(lambda n: words(key, players=n), who, BIG, W - M - (day_box(12)[2] + 12), True)
    else:
        turn = view.get("turn")
        label = ""
        if isinstance(turn, int) and 0 <= turn < len(names):
            label = fit_name(
                lambda n: words("california.image.to_play", player=n),
                names[turn],
                BIG,
                W - M - (day_box(12)[2] + 12),
                bold=True,
            )
    kit.label(image, (W - M, HEADER_H // 2), label, BIG, TURN, "rm", bold=True)


def last_move_text(
    view: Mapping[str, Any], names: Sequence[str], words: kit.Words, prefix: bool = True
) -> str:
    """The last move in words ("Last: Bob bought a Rd room on B2 (4 silver)."); without ``prefix``
    the sentence alone, for when the line is short of room (the magenta square still marks it).

    That the move ended the day is said only while the game goes on: at the end the "game over"
    note says more.
    """
    last = view.get("last")
    if not isinstance(last, Mapping):
        return words("california.image.no_move")
    seat = last.get("seat")
    who = (
        names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else words("california.image.someone")
    )
    action = last.get("action")
    if action in ("coin", "loan", "repay"):
        said = words(f"california.image.move.{action}", player=who)
    elif action == "buy":
        target = last.get("target")
        colour = last.get("colour")
        kind = last.get("kind")
        if kind == "furniture":
            kind = "furniture" if isinstance(target, int) else "attic"
        elif kind != "expansion":
            kind = "room"
        known = kind != "room" and isinstance(colour, str) and colour in COLOURS
        thing = words(f"california.a.furniture.{colour}") if known else UNKNOWN_CODE
        cost = last.get("cost")
        said = words(
            f"california.image.move.{kind}",
            player=who,
            thing=thing,
            code=code_of(colour, words),
            space=space_label(target) if isinstance(target, int) and 0 <= target < 16 else UNKNOWN_CODE,
            cost=words.number(cost) if isinstance(cost, int) else UNKNOWN_CODE,
            loan=words("california.image.move.on_loan") if last.get("loan") else "",
        )
    else:
        return words("california.image.no_move")
    if last.get("day_ended") and not view.get("over"):
        said = words("california.image.day_over", move=said)
    return words("california.image.last" if prefix else "california.image.move_alone", move=said)


def _last_line(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    names: Sequence[str],
    words: kit.Words,
) -> None:
    with kit.panel(image, "last move", (M, LAST_Y, W - M, LAST_Y + LAST_H)):
        _last_move(image, draw, view, names, words)


def _last_move(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    names: Sequence[str],
    words: kit.Words,
) -> None:
    y = LAST_Y + LAST_H // 2
    box = (M + 2, LAST_Y + 4, M + 16, LAST_Y + LAST_H - 4)
    draw.rectangle(box, outline=HIGHLIGHT, width=3)
    note = ""
    ending = view.get("ending")
    if view.get("over"):
        note = words("california.image.game_over")
    elif ending or int(view.get("day") or 0) >= int(view.get("days") or 12):
        note = words("california.image.last_day")
    right = W - M
    if note:
        tw = int(width_of(note, SMALL, bold=True)) + 12
        draw.rectangle((right - tw, LAST_Y + 1, right, LAST_Y + LAST_H - 1), fill=LOAN)
        kit.label(image, (right - tw / 2, y), note, SMALL, WHITE, "mm", bold=True)
        right -= tw + 8
    # Short of room (a long name, a long French sentence beside a note), the line first drops its
    # "Last:", then shortens the name, and only then cuts the sentence.
    room = right - M - 24
    line = last_move_text(view, names, words)
    last = view.get("last")
    seat = last.get("seat") if isinstance(last, Mapping) else None
    if width_of(line, SMALL) > room and isinstance(seat, int) and 0 <= seat < len(names):

        def said(name: str) -> str:
            return last_move_text(view, [*names[:seat], name, *names[seat + 1 :]], words, prefix=False)

        line = fit_name(said, names[seat], SMALL, room)
    kit.label(image, (M + 24, y), kit.fit(line, SMALL, room), SMALL, INK, "lm")


def _stores(image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any], words: kit.Words) -> None:
    stores = view.get("stores") or []
    for store, tiles in enumerate(stores[:2]):
        for slot, t in enumerate(tiles[:4]):
            box = slot_box(store, slot)
            with kit.panel(image, f"store {store + 1} slot {slot + 1}", box):
                if not isinstance(t, Mapping):
                    draw.rectangle(box, fill=EMPTY, outline=EMPTY_EDGE, width=1)
                    sold = kit.fit(words("california.image.sold"), SMALL, TILE - 4)
                    kit.label(image, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), sold, SMALL, SOFT, "mm")
                elif t.get("kind") == "expansion":
                    expansion_tile(image, box, words)
                else:
                    paste_tile(image, box, t.get("colour"), t.get("kind") == "furniture", words, size=BIG)
    with kit.panel(image, "bank", BANK_BOX):
        _bank(image, view, words)


def _bank(image: Image.Image, view: Mapping[str, Any], words: kit.Words) -> None:
    bank = int(view.get("bank") or 0)
    gold = words("california.image.gold_mark")
    for i in range(min(bank, 4)):
        paste_coin(image, bank_coin_centre(i), BANK_COIN_R, gold, gold=True)
    x0, _, x1, y1 = BANK_BOX
    if view.get("over"):
        label = words("california.image.bank_closed")
    else:
        label = words("california.image.price", price=words.number(int(view.get("price") or 0)))
    label = kit.fit(label, BODY, x1 - x0 - 8, bold=True)
    kit.label(image, ((x0 + x1) / 2, y1 - 14), label, BODY, INK, "mm", bold=True)


def _supply(image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any], words: kit.Words) -> None:
    with kit.panel(image, "supply", SUPPLY_BOX):
        _supply_strip(image, view, words)


def _supply_strip(image: Image.Image, view: Mapping[str, Any], words: kit.Words) -> None:
    x0, y0, x1, y1 = SUPPLY_BOX
    cy = (y0 + y1) // 2

    def counted(key: str, field: str) -> str:
        return words(f"california.image.{key}", count=words.number(int(view.get(field) or 0)))

    parts = [
        counted("stack", "draw_stack"),
        counted("bag", "bag"),
        counted("gifts_left", "gifts_left"),
        counted("loans_left", "loan_markers_left"),
        words("california.image.rate"),
    ]
    x = x0 + 6
    for part in parts:
        kit.label(image, (x, cy), part, SMALL, INK, "lm")
        x += int(width_of(part, SMALL)) + 8
    guests = view.get("guests") or {}
    free = [c for c, host in guests.items() if host is None] if isinstance(guests, Mapping) else []
    label = words("california.image.free_guests" if free else "california.image.no_free_guests")
    kit.label(image, (x, cy), label, SMALL, INK, "lm", bold=True)
    x += int(width_of(label, SMALL, bold=True)) + 6
    # Six free guests (the start of a game) must all show: the chips narrow to share what is
    # left of the strip, down to the width their two letters need.
    step = max(CHIP_MIN + 2, min(26, (x1 - 2 - x) // len(free))) if free else 26
    for colour in free:
        if x + step - 2 > x1 - 2:
            break
        paste_tile(image, (x, cy - 9, x + step - 2, cy + 9), colour, False, words, size=SMALL)
        x += step


def _bonus(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: Mapping[str, Any],
    names: Sequence[str],
    words: kit.Words,
) -> None:
    cards = view.get("bonus_cards") or []
    left = int(view.get("bonus_cards_left", sum(1 for c in cards if c.get("owner") is None)))
    x0, y0, _, y1 = card_box(11)
    with kit.panel(image, "bonus cards' title", card_box(11)):
        kit.label(
            image,
            (x0 + 4, y1 - 1),
            words.count("california.image.cards_left", left),
            SMALL,
            LOAN,
            "ld",
            bold=True,
        )
    for i, card in enumerate(cards[:11]):
        owner = card.get("owner")
        if not isinstance(owner, int):
            continue
        x0, y0, x1, y1 = card_box(i)
        kit.cover(image, (x0, y0, x1, y1))  # the card's face, greyed out: its owner's name instead
        draw.rounded_rectangle((x0, y0, x1, y1), radius=5, fill=EMPTY, outline=EMPTY_EDGE, width=1)
        points = card.get("points")
        label = words.number(points) if isinstance(points, int) else UNKNOWN_CODE
        who = names[owner] if 0 <= owner < len(names) else "?"
        with kit.panel(image, f"bonus card {i + 1}", (x0, y0, x1, y1)):
            paste_coin(image, (x0 + 17, (y0 + y1) // 2), 12, label, True, EMPTY)
            who = kit.fit(who, SMALL, x1 - x0 - 40, True)
            kit.label(image, (x0 + 34, (y0 + y1) / 2), who, SMALL, INK, "lm", True)


def _panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: int,
    p: Mapping[str, Any],
    name: str,
    on_turn: bool,
    winner: bool,
    words: kit.Words,
) -> None:
    x, y = panel_origin(seat)
    with kit.panel(image, f"mansion {seat + 1}", (x, y, x + PANEL_W, y + PANEL_H)):
        _mansion_panel(image, draw, seat, p, name, on_turn, winner, words)


def _mansion_panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: int,
    p: Mapping[str, Any],
    name: str,
    on_turn: bool,
    winner: bool,
    words: kit.Words,
) -> None:
    x, y = panel_origin(seat)
    head = TURN if on_turn or winner else HEAD
    ink = text_colour(head)
    draw.rectangle((x, y, x + PANEL_W, y + PANEL_HEAD), fill=head)
    right = words.count("california.image.points", int(_score(p).get("total", 0)))
    tag = ""
    if on_turn:
        tag = words("california.image.to_play_tag")
    elif winner:
        tag = words("california.image.winner_tag")
    mid = y + PANEL_HEAD // 2
    tx = x + 6
    if on_turn:
        triangle(draw, tx, mid, 7, INK)
        tx += 14
    tag_w = int(width_of(tag, SMALL, bold=True)) + 10 if tag else 0
    room = PANEL_W - (tx - x) - width_of(right, BODY, bold=True) - 14 - (tag_w + 6 if tag else 0)
    kit.label(image, (tx, mid), kit.fit(name, BODY, room, bold=True), BODY, ink, "lm", bold=True)
    kit.label(image, (x + PANEL_W - 6, mid), right, BODY, ink, "rm", bold=True)
    if tag:
        rx = x + PANEL_W - 12 - int(width_of(right, BODY, bold=True)) - tag_w
        draw.rounded_rectangle((rx, y + 4, rx + tag_w, y + PANEL_HEAD - 4), radius=4, fill=INK)
        kit.label(image, (rx + tag_w / 2, mid), tag, SMALL, TURN, "mm", bold=True)
    if on_turn or winner:
        draw.rectangle((x - 4, y - 4, x + PANEL_W + 4, y + PANEL_H + 4), outline=INK, width=2)
        draw.rectangle((x - 2, y - 2, x + PANEL_W + 2, y + PANEL_H + 2), outline=TURN, width=3)

    mansion = p.get("mansion") or {}
    for space in mansion.get("spaces") or []:
        room_colour = space.get("room")
        if room_colour is None:
            continue
        index = int(space.get("row", 0)) * COLUMNS + int(space.get("column", 0))
        paste_tile(
            image,
            cell_box(x, y, index),
            room_colour,
            space.get("furniture") is not None,
            words,
            bool(space.get("printed")),
            BODY,
        )

    attic = list(mansion.get("attic") or [])
    expanded = bool(mansion.get("expansion"))
    for i in range(2):
        box = attic_box(x, y, i)
        if i < len(attic):
            paste_tile(image, box, attic[i], True, words, size=SMALL)
        elif i == 1 and not expanded:
            draw.rectangle(box, fill=CLOSED, outline=HATCH, width=1)
            hatch(draw, box, HATCH, step=5)
        else:
            draw.rectangle(box, fill=ATTIC_PLUS if i else EMPTY, outline=EMPTY_EDGE, width=1)

    sx = x + SIDE_X
    side = x + PANEL_W - 4 - sx
    sy = y + PANEL_HEAD + 4 + ATTIC + 3
    money = words("california.image.silver", money=words.number(int(p.get("money", 0))))
    kit.label(image, (sx, sy), kit.fit(money, BODY, side, bold=True), BODY, INK, "la", bold=True)
    lbox = loan_box(x, y)
    if p.get("loan"):
        loan_badge(image, lbox, words)
    else:
        none = kit.fit(words("california.image.no_loan"), SMALL, side)
        kit.label(image, (sx, (lbox[1] + lbox[3]) / 2), none, SMALL, SOFT, "lm")
    sy = lbox[3] + 4
    gift_icon(draw, sx, sy + 1, 15)
    gifts = words.count("california.image.gifts", int(p.get("gifts", 0)))
    kit.label(image, (sx + 21, sy + 9), kit.fit(gifts, SMALL, side - 21), SMALL, INK, "lm")
    sy += 20
    bonus = int(p.get("bonus_points", 0))
    if p.get("bonus_cards"):
        label = words("california.image.bonus", points=words.number(bonus))
    else:
        label = words("california.image.no_bonus")
    label = kit.fit(label, SMALL, side, bold=bool(bonus))
    kit.label(image, (sx, sy + 9), label, SMALL, INK if bonus else SOFT, "lm", bold=bool(bonus))
    sy += 20
    guests = list(p.get("guests") or [])
    label = kit.fit(words("california.image.guests" if guests else "california.image.no_guests"), SMALL, side)
    kit.label(image, (sx, sy + 8), label, SMALL, INK if guests else SOFT, "lm")
    sy += 18
    for i, colour in enumerate(guests[:6]):
        gx = sx + (i % 3) * 30
        gy = sy + (i // 3) * 21
        paste_tile(image, (gx, gy, gx + 27, gy + 19), colour, False, words, size=SMALL)


def _highlight(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    """Outline whatever the last move changed on the table."""
    last = view.get("last")
    players = view.get("players") or []
    if not isinstance(last, Mapping):
        return
    seat = last.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        return
    x, y = panel_origin(seat)
    action = last.get("action")
    if action == "coin" and not last.get("day_ended"):
        i = last.get("coin")
        if isinstance(i, int) and 0 <= i < 4:
            cx, cy = bank_coin_centre(i)
            r = BANK_COIN_R
            outline(draw, (cx - r, cy - r, cx + r, cy + r))
    elif action in ("loan", "repay"):
        outline(draw, loan_box(x, y))
    elif action == "buy":
        store, slot = last.get("store"), last.get("slot")
        # After the day's end the stores are refilled: the slot holds a new tile, nothing to point at.
        if not last.get("day_ended") and isinstance(store, int) and isinstance(slot, int):
            outline(draw, slot_box(store % 2, slot % 4))
        target = last.get("target")
        if isinstance(target, int) and 0 <= target < 16:
            outline(draw, cell_box(x, y, target))
        elif target == "expansion":
            outline(draw, attic_box(x, y, 1))
        elif target == "attic":
            attic = (players[seat].get("mansion") or {}).get("attic") or []
            outline(draw, attic_box(x, y, max(0, min(len(attic) - 1, 1))))
        if last.get("loan"):
            outline(draw, loan_box(x, y))


# --- entry points ---------------------------------------------------------------------------------


def _fees(p: Mapping[str, Any]) -> tuple[int | None, ...]:
    """Each space's fee, ``None`` for the printed room (drawn from the view, never from the rules)."""
    row: list[int | None] = [None] * 16
    for s in (p.get("mansion") or {}).get("spaces") or []:
        i = int(s.get("row", 0)) * COLUMNS + int(s.get("column", 0))
        if 0 <= i < 16 and not s.get("printed"):
            row[i] = int(s.get("fee") or 0)
    return tuple(row)


def _static_key(
    view: Mapping[str, Any],
) -> tuple[int, tuple[tuple[int | None, ...], ...], tuple[tuple[int, tuple[tuple[str, int], ...]], ...]]:
    players = view.get("players") or []
    cards = tuple(
        (
            int(c.get("points", 0)),
            tuple((str(k), int(v)) for k, v in (c.get("needs") or {}).items()),
        )
        for c in (view.get("bonus_cards") or [])[:11]
    )
    return len(players), tuple(_fees(p) for p in players), cards


def draw_board(view: Mapping[str, Any], names: Sequence[str], words: kit.Words) -> Image.Image:
    """The whole table as an RGB image (``render`` encodes it)."""
    n, fees, cards = _static_key(view)
    image = kit.copy(_board(n, fees, cards, words))
    draw = ImageDraw.Draw(image)
    shown = kit.player_names(names, n, words)
    players = view.get("players") or []
    over = bool(view.get("over"))
    winners = _winners(players) if over else []
    turn = view.get("turn")
    _header(image, draw, view, shown, words)
    _last_line(image, draw, view, shown, words)
    _stores(image, draw, view, words)
    _supply(image, draw, view, words)
    _bonus(image, draw, view, shown, words)
    for seat, p in enumerate(players):
        _panel(image, draw, seat, p, shown[seat], seat == turn and not over, seat in winners, words)
    _highlight(draw, view)
    return image


def render(view: dict[str, Any], names: Sequence[str], words: kit.Words) -> bytes:
    """The whole table as one PNG, 600 px wide, in ``words``' language."""
    return kit.png(draw_board(view, names, words), colours())


# --- "My mansion": one player's mansion at full size --------------------------------------------

Z_CELL, Z_GAP, Z_LABEL = 80, 4, 26
Z_HEAD = 44
Z_GRID_X, Z_GRID_Y = M + Z_LABEL, Z_HEAD + 10 + Z_LABEL
Z_GRID = 4 * Z_CELL + 3 * Z_GAP
Z_SIDE_X = Z_GRID_X + Z_GRID + 16
Z_ATTIC = 64
Z_KEY_Y = Z_GRID_Y + Z_GRID + 46
Z_KEY_ROW, Z_LEGEND_H = 30, 28
Z_LEGEND_Y = Z_KEY_Y + 22 + 3 * Z_KEY_ROW + 4
Z_H = Z_LEGEND_Y + Z_LEGEND_H + M
Z_SCORE_Y = Z_GRID_Y + Z_GRID + 22
"""The middle of the score line under the grid."""
Z_PANELS: dict[str, Box] = {
    "title bar": (0, 0, W, Z_HEAD),
    "grid": (0, Z_HEAD, Z_SIDE_X - 8, Z_SCORE_Y - 12),
    "side": (Z_SIDE_X - 4, Z_HEAD, W, Z_SCORE_Y - 12),
    "score": (0, Z_SCORE_Y - 12, W, Z_KEY_Y - 4),
    "key": (0, Z_KEY_Y - 4, W, Z_LEGEND_Y - 2),
    "legend": (0, Z_LEGEND_Y - 2, W, Z_H),
}
"""The parts of "My mansion" that hold text, each to stay inside its own (the overprint test)."""


def z_cell(space: int) -> Box:
    row, column = divmod(space, COLUMNS)
    x = Z_GRID_X + column * (Z_CELL + Z_GAP)
    y = Z_GRID_Y + row * (Z_CELL + Z_GAP)
    return (x, y, x + Z_CELL, y + Z_CELL)


def z_attic(i: int) -> Box:
    x = Z_SIDE_X + i * (Z_ATTIC + 8)
    y = Z_GRID_Y + 24
    return (x, y, x + Z_ATTIC, y + Z_ATTIC)


@lru_cache(maxsize=8)
def _mansion_layer(fees: tuple[int | None, ...], words: kit.Words) -> Image.Image:
    """The empty zoomed mansion with its labels, fees and the key: the same all game long."""
    image = Image.new("RGB", (W, Z_H), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, W, Z_HEAD), fill=HEAD)
    with kit.panel(image, "grid", Z_PANELS["grid"]):
        _zoom_grid(image, fees, words)
    with kit.panel(image, "side", Z_PANELS["side"]):
        kit.label(
            image, (Z_SIDE_X, Z_GRID_Y), words("california.image.mansion.attic"), BODY, INK, "la", bold=True
        )
    with kit.panel(image, "key", Z_PANELS["key"]):
        _zoom_key(image, words)
    with kit.panel(image, "legend", Z_PANELS["legend"]):
        _zoom_legend(image, words)
    return image


def _zoom_grid(image: Image.Image, fees: tuple[int | None, ...], words: kit.Words) -> None:
    """The empty grid of "My mansion": row and column labels, each space's fee."""
    draw = ImageDraw.Draw(image)
    for column in range(COLUMNS):
        x0, _, x1, _ = z_cell(column)
        label = words.number(column + 1)
        kit.label(image, ((x0 + x1) / 2, Z_GRID_Y - Z_LABEL / 2), label, BODY, SOFT, "mm", bold=True)
    for row, letter in enumerate(ROW_NAMES):
        _, y0, _, y1 = z_cell(row * COLUMNS)
        kit.label(image, (M + Z_LABEL / 2 - 2, (y0 + y1) / 2), letter, BODY, SOFT, "mm", bold=True)
    for space, fee in enumerate(fees):
        box = z_cell(space)
        draw.rectangle(box, fill=EMPTY, outline=EMPTY_EDGE, width=1)
        if fee:
            coin(image, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), 16, words.number(fee))


def _zoom_key(image: Image.Image, words: kit.Words) -> None:
    """What each colour code means, under the grid of "My mansion"."""
    y = Z_KEY_Y
    title = kit.fit(words("california.image.mansion.key_title"), SMALL, W - 2 * M, bold=True)
    kit.label(image, (M, y), title, SMALL, INK, "la", bold=True)
    col_w = (W - 2 * M) // 2
    for i, key in enumerate(COLOURS):
        cx = M + (i // 3) * col_w
        cy = y + 22 + (i % 3) * Z_KEY_ROW
        tile(image, (cx, cy, cx + 36, cy + 26), key, False, words, size=SMALL)
        label = kit.fit(key_line(key, words), SMALL, col_w - 50)
        kit.label(image, (cx + 44, cy + 13), label, SMALL, INK, "lm")


def _zoom_legend(image: Image.Image, words: kit.Words) -> None:
    """A room, a furnished room, the printed room and a fee, at the foot of "My mansion"."""
    y = Z_LEGEND_Y
    x = M
    legend = (
        ("room", "california.image.mansion.room"),
        ("furniture", "california.image.furnished"),
        ("printed", "california.image.mansion.printed"),
    )
    for kind, key in legend:
        said = words(key)
        tile(image, (x, y, x + 36, y + 28), "red", kind == "furniture", words, kind == "printed", SMALL)
        kit.label(image, (x + 44, y + 14), said, SMALL, INK, "lm")
        x += 44 + int(width_of(said, SMALL)) + 18
    coin(image, (x + 14, y + 14), 14, words.number(2))
    fee_label = kit.fit(words("california.image.mansion.fee"), SMALL, W - M - x - 34)
    kit.label(image, (x + 34, y + 14), fee_label, SMALL, INK, "lm")


def draw_mansion(view: Mapping[str, Any], names: Sequence[str], seat: int, words: kit.Words) -> Image.Image:
    """``seat``'s mansion at full size with money, loan, guests, bonus cards and score (RGB)."""
    players = view.get("players") or []
    if not 0 <= seat < len(players):
        raise ValueError(f"seat {seat} is not at this table")
    p = players[seat]
    image = kit.copy(_mansion_layer(_fees(p), words))
    draw = ImageDraw.Draw(image)
    shown = kit.player_names(names, len(players), words)
    score = _score(p)
    on_turn = view.get("turn") == seat and not view.get("over")
    if on_turn:
        draw.rectangle((0, 0, W, Z_HEAD), fill=TURN)
    ink = text_colour(TURN if on_turn else HEAD)
    right = words.count("california.image.points", int(score.get("total", 0)))
    key = "california.image.mansion.title_turn" if on_turn else "california.image.mansion.title"
    title = words(key, player=shown[seat])
    room = W - 3 * M - width_of(right, BIG, bold=True)
    with kit.panel(image, "title bar", Z_PANELS["title bar"]):
        kit.label(image, (M, Z_HEAD // 2), kit.fit(title, BIG, room, bold=True), BIG, ink, "lm", bold=True)
        kit.label(image, (W - M, Z_HEAD // 2), right, BIG, ink, "rm", bold=True)
    with kit.panel(image, "grid", Z_PANELS["grid"]):
        _zoom_rooms(image, p, words)
    with kit.panel(image, "side", Z_PANELS["side"]):
        _zoom_side(image, view, seat, p, words)
    with kit.panel(image, "score", Z_PANELS["score"]):
        _zoom_score(image, score, words)
    last = view.get("last")
    attic = list((p.get("mansion") or {}).get("attic") or [])
    if isinstance(last, Mapping) and last.get("seat") == seat:
        target = last.get("target")
        if last.get("action") == "buy" and isinstance(target, int) and 0 <= target < 16:
            outline(draw, z_cell(target), 4)
        elif last.get("action") == "buy" and target in ("attic", "expansion"):
            i = 1 if target == "expansion" else max(0, min(len(attic) - 1, 1))
            outline(draw, z_attic(i), 4)
    return image


def _zoom_rooms(image: Image.Image, p: Mapping[str, Any], words: kit.Words) -> None:
    """The rooms and furniture of "My mansion", full size."""
    mansion = p.get("mansion") or {}
    for space in mansion.get("spaces") or []:
        if space.get("room") is None:
            continue
        index = int(space.get("row", 0)) * COLUMNS + int(space.get("column", 0))
        tile(
            image, z_cell(index), space.get("room"), space.get("furniture") is not None, words,
            bool(space.get("printed")), BIG + 4,
        )  # fmt: skip


def _zoom_side(
    image: Image.Image, view: Mapping[str, Any], seat: int, p: Mapping[str, Any], words: kit.Words
) -> None:
    """The attic, money, loan, gifts, bonus cards and guests beside the grid of "My mansion"."""
    draw = ImageDraw.Draw(image)
    mansion = p.get("mansion") or {}
    attic = list(mansion.get("attic") or [])
    expanded = bool(mansion.get("expansion"))
    inside = Z_ATTIC - 6
    for i in range(2):
        box = z_attic(i)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        if i < len(attic):
            tile(image, box, attic[i], True, words, size=BIG)
        elif i == 1 and not expanded:
            draw.rectangle(box, fill=CLOSED, outline=HATCH, width=1)
            hatch(draw, box, HATCH, step=6)
            word = kit.fit(words("california.image.mansion.closed"), SMALL, inside)
            kit.label(image, centre, word, SMALL, INK, "mm")
        else:
            draw.rectangle(box, fill=ATTIC_PLUS if i else EMPTY, outline=EMPTY_EDGE, width=1)
            key = "california.image.mansion.plus_space" if i else "california.image.mansion.empty"
            kit.label(image, centre, kit.fit(words(key), SMALL, inside), SMALL, SOFT, "mm")

    x = Z_SIDE_X
    side = W - M - x
    y = z_attic(0)[3] + 14
    money = words("california.image.silver", money=words.number(int(p.get("money", 0))))
    kit.label(image, (x, y), kit.fit(money, BIG, side, bold=True), BIG, INK, "la", bold=True)
    y += 24
    coins = words(
        "california.image.mansion.coins",
        gold=words.number(int(p.get("gold", 0))),
        silver=words.number(int(p.get("silver", 0))),
    )
    kit.label(image, (x, y), kit.fit(coins, SMALL, side), SMALL, SOFT, "la")
    y += 20
    kit.label(image, (x, y), kit.fit(words("california.image.mansion.rate"), SMALL, side), SMALL, SOFT, "la")
    y += 26
    if p.get("loan"):
        loan_badge(image, (x, y, x + 70, y + 24), words)
        repay = kit.fit(words("california.image.mansion.repay"), SMALL, side - 78)
        kit.label(image, (x + 78, y + 12), repay, SMALL, INK, "lm")
    else:
        kit.label(
            image, (x, y + 12), kit.fit(words("california.image.no_loan"), SMALL, side), SMALL, SOFT, "lm"
        )
    y += 34
    gift_icon(draw, x, y, 18)
    gifts = words.count("california.image.gifts", int(p.get("gifts", 0)))
    kit.label(image, (x + 26, y + 10), kit.fit(gifts, BODY, side - 26, bold=True), BODY, INK, "lm", bold=True)
    y += 28
    cards = [c for c in view.get("bonus_cards") or [] if c.get("owner") == seat]
    if cards:
        points = words.count("california.image.points", int(p.get("bonus_points", 0)))
        label = words("california.image.mansion.cards", points=points)
    else:
        label = words("california.image.mansion.no_card")
    label = kit.fit(label, SMALL, side, bold=bool(cards))
    kit.label(image, (x, y + 10), label, SMALL, INK if cards else SOFT, "lm", bold=bool(cards))
    y += 26
    guests = list(p.get("guests") or [])
    key = "california.image.mansion.guests" if guests else "california.image.no_guests"
    kit.label(image, (x, y + 8), kit.fit(words(key), SMALL, side), SMALL, INK if guests else SOFT, "lm")
    y += 20
    for i, colour in enumerate(guests[:6]):
        gx = x + (i % 4) * 38
        gy = y + (i // 4) * 28
        tile(image, (gx, gy, gx + 34, gy + 24), colour, False, words, size=SMALL)


def _zoom_score(image: Image.Image, score: Mapping[str, int], words: kit.Words) -> None:
    """The score line under the grid of "My mansion"."""
    loan = int(score.get("loan", 0))
    label = words(
        "california.image.mansion.score_loan" if loan else "california.image.mansion.score",
        total=words.number(int(score.get("total", 0))),
        gifts=words.count("california.image.gifts", int(score.get("gifts", 0))),
        bonus=words("california.image.mansion.bonus", value=words.number(int(score.get("bonus", 0)))),
        spaces=words.count("california.image.mansion.spaces", int(score.get("spaces", 0))),
        loan=words("california.image.mansion.loan", value=words.number(-loan)),
    )
    kit.label(image, (M, Z_SCORE_Y), kit.fit(label, BODY, W - 2 * M, bold=True), BODY, INK, "lm", bold=True)


def render_mansion(view: dict[str, Any], names: Sequence[str], seat: int, words: kit.Words) -> bytes:
    """``seat``'s mansion alone, full size, for the private "My mansion" answer (PNG bytes)."""
    return kit.png(draw_mansion(view, names, seat, words), colours())
