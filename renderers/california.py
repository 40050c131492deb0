"""California's board: the stores, the bank, the day track, the bonus cards and every mansion.

The only inputs are the public view (``RULES.view(state, None)``) and the
players' names in seat order.  The image is drawn at 840 px wide and is
judged at about 400 px wide on a phone, so the layout is tall: the table
(days, stores, bank, bonus cards) on top, then the mansions two per row, then
a legend (or the legend fills the empty slot next to an odd last mansion).
Whose turn it is shows three ways: the title bar names the player, and that
mansion gets an amber header with a "TO PLAY" tag and a thick frame (at the
end, the winner's mansion gets the same with "WINNER").  A bonus card
already taken is washed out and names its owner; the others stay bright.

Colour is never the only signal: every colour has a two-letter code (``Br``
light brown, ``Rd`` red, ``Pu`` purple, ``Gy`` gray, ``Bl`` light blue, ``Gn``
green) printed on every tile and chip.  A room tile is its code on the
colour; a furniture tile adds a white disc around the code; the printed room
has a folded corner; a silver coin with a number is an amount of silver (a
price, a fee, a player's money); a gold coin marked ``G`` is a bank coin.

Everything that never changes for a player count (frames, labels, the day
numbers, the bonus card faces, the legend, the empty mansion spaces with
their fees) is drawn once per layout and cached; a render copies that layer
and draws only the changing parts.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from . import kit
from .kit import INK, PAPER, WHITE, Colour, font, hatch, static_layer, text_colour

Box = tuple[int, int, int, int]

# --- colours and codes ----------------------------------------------------------------

# view key -> (code, fill, colour name, room, furniture)
COLOURS: dict[str, tuple[str, Colour, str, str, str]] = {
    "brown": ("Br", (201, 158, 109), "light brown", "billiard room", "pool table"),
    "red": ("Rd", (196, 38, 46), "red", "music room", "grand piano"),
    "purple": ("Pu", (118, 64, 160), "purple", "game room", "pinball machine"),
    "gray": ("Gy", (128, 128, 128), "gray", "garage", "motorcycle"),
    "blue": ("Bl", (126, 196, 240), "light blue", "pool house", "swimming pool"),
    "green": ("Gn", (46, 139, 67), "green", "conservatory", "dog"),
}
UNKNOWN: tuple[str, Colour, str, str, str] = ("??", (90, 90, 90), "unknown", "room", "furniture")

BG: Colour = (236, 231, 220)
CARD: Colour = PAPER
LINE: Colour = (60, 60, 60)
SOFT: Colour = (95, 95, 95)
EMPTY: Colour = (222, 214, 198)
HEAD: Colour = (45, 55, 62)
TURN: Colour = (255, 183, 0)
GOLD: Colour = (236, 184, 36)
GOLD_EDGE: Colour = (140, 98, 0)
SILVER: Colour = (206, 211, 218)
SILVER_EDGE: Colour = (96, 100, 108)
LOAN: Colour = (178, 34, 34)
GIFT: Colour = (214, 72, 140)
PAST: Colour = (120, 120, 120)

# --- layout (pixels at full size) -------------------------------------------------------

W = 840
M = 12  # outer margin
TITLE_H = 52
DAY_Y = 62
DAY_W, DAY_H, DAY_GAP = 44, 36, 4
DAY_X = 76
ENDING_Y = DAY_Y + DAY_H + 4
SHOP_Y = ENDING_Y + 26
TILE = 64
TILE_GAP = 6
SHOP_H = 24 + TILE + 8 + 30 + 8
STORE_W = 4 * TILE + 3 * TILE_GAP + 16
SUPPLY_Y = SHOP_Y + SHOP_H + 8
SUPPLY_H = 34
BONUS_Y = SUPPLY_Y + SUPPLY_H + 10
CARD_COLS = 4
CARD_GAP = 8
CARD_W, CARD_H = (W - 2 * M - (CARD_COLS - 1) * CARD_GAP) // CARD_COLS, 50
BONUS_H = 28 + 3 * CARD_H + 2 * 6
PLAYERS_Y = BONUS_Y + BONUS_H + 14

PANEL_W = (W - 3 * M) // 2
CELL = 56
CELL_GAP = 3
GRID = 4 * CELL + 3 * CELL_GAP
HEADER_H = 40
GRID_X, GRID_Y = 10, HEADER_H + 10
SIDE_X = GRID_X + GRID + 14
ROWS_Y = GRID_Y + GRID + 10
PANEL_H = ROWS_Y + 36 + 32 + 4
PANEL_GAP = 12
LEGEND_H = 172

NAME_CHARS = 18  # longest name shown, before the pixel-width check


# --- small drawing helpers ---------------------------------------------------------------


def colour_info(key: object) -> tuple[str, Colour, str, str, str]:
    return COLOURS.get(key, UNKNOWN) if isinstance(key, str) else UNKNOWN


def text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    value: str,
    size: int,
    fill: Colour = INK,
    anchor: str = "la",
    bold: bool = False,
) -> None:
    draw.text(
        xy,
        value,
        font=font(size),
        fill=fill,
        anchor=anchor,
        stroke_width=1 if bold else 0,
        stroke_fill=fill,
    )


def width_of(value: str, size: int) -> float:
    return font(size).getlength(value)


def coin(draw: ImageDraw.ImageDraw, centre: tuple[int, int], r: int, label: str, gold: bool = False) -> None:
    """A silver coin with an amount of silver, or a gold coin (marked G)."""
    x, y = centre
    fill, edge = (GOLD, GOLD_EDGE) if gold else (SILVER, SILVER_EDGE)
    draw.ellipse((x - r, y - r, x + r, y + r), fill=fill, outline=edge, width=2)
    text(draw, (x, y), label, max(13, r + (2 if len(label) < 2 else 0)), INK, "mm", bold=gold)


def tile(
    draw: ImageDraw.ImageDraw,
    box: Box,
    colour: object,
    furniture: bool,
    printed: bool = False,
    size: int = 20,
) -> None:
    """A room tile (code on colour) or a furniture tile (code in a white disc on colour)."""
    code, fill, *_ = colour_info(colour)
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=fill, outline=LINE, width=2)
    cx, cy = (x0 + x1) // 2, (y0 + y1) // 2
    if furniture:
        r = (x1 - x0) * 36 // 100
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=INK, width=2)
        text(draw, (cx, cy), code, size - 1, INK, "mm", bold=True)
    else:
        text(draw, (cx, cy), code, size, text_colour(fill), "mm", bold=True)
    if printed:
        fold = (x1 - x0) // 3
        draw.polygon([(x0 + 1, y0 + 1), (x0 + fold, y0 + 1), (x0 + 1, y0 + fold)], fill=WHITE, outline=INK)


def expansion_tile(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, y1 = box
    draw.rectangle(box, fill=(245, 236, 200), outline=LINE, width=2)
    cx = (x0 + x1) // 2
    text(draw, (cx, y0 + (y1 - y0) * 0.34), "ATTIC", 14, INK, "mm", bold=True)
    text(draw, (cx, y0 + (y1 - y0) * 0.68), "+1", 18, INK, "mm", bold=True)


def chip(draw: ImageDraw.ImageDraw, box: Box, colour: object, furniture: bool = False) -> None:
    """A small colour chip with its code (furniture: white disc) for cards, guests and legend."""
    tile(draw, box, colour, furniture, size=15 if box[2] - box[0] < 36 else 18)


@lru_cache(maxsize=512)
def _tile_sprite(
    colour: str | None, furniture: bool, printed: bool, w: int, h: int, size: int
) -> Image.Image:
    sprite = Image.new("RGB", (w, h), BG)
    tile(ImageDraw.Draw(sprite), (0, 0, w - 1, h - 1), colour, furniture, printed, size)
    return sprite


def paste_tile(
    image: Image.Image, box: Box, colour: object, furniture: bool, printed: bool = False, size: int = 20
) -> None:
    """``tile`` from a cache of drawn tiles (most of a board is the same few tiles)."""
    key = colour if isinstance(colour, str) else None
    image.paste(
        _tile_sprite(key, furniture, printed, box[2] - box[0] + 1, box[3] - box[1] + 1, size), box[:2]
    )


@lru_cache(maxsize=256)
def _coin_sprite(r: int, label: str, gold: bool, background: Colour) -> Image.Image:
    sprite = Image.new("RGB", (2 * r + 1, 2 * r + 1), background)
    coin(ImageDraw.Draw(sprite), (r, r), r, label, gold)
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
    image.paste(_coin_sprite(r, label, gold, background), (centre[0] - r, centre[1] - r))


def fade(image: Image.Image, box: Box, amount: int = 150) -> None:
    """Wash ``box`` out towards white (used for taken bonus cards)."""
    region = image.crop(box)
    image.paste(Image.blend(region, Image.new("RGB", region.size, WHITE), amount / 255), box[:2])


def gift_icon(draw: ImageDraw.ImageDraw, x: int, y: int, s: int = 20) -> None:
    draw.rectangle((x, y + 4, x + s, y + s), fill=GIFT, outline=INK, width=1)
    draw.rectangle((x + s // 2 - 2, y + 4, x + s // 2 + 2, y + s), fill=WHITE)
    draw.rectangle((x, y + s // 2, x + s, y + s // 2 + 3), fill=WHITE)
    draw.ellipse((x + s // 2 - 6, y, x + s // 2, y + 6), outline=INK, width=2)
    draw.ellipse((x + s // 2, y, x + s // 2 + 6, y + 6), outline=INK, width=2)


def triangle(draw: ImageDraw.ImageDraw, x: int, cy: int, s: int, fill: Colour) -> None:
    draw.polygon([(x, cy - s), (x + s + 3, cy), (x, cy + s)], fill=fill)


# --- names ----------------------------------------------------------------------------------


# --- static layers ---------------------------------------------------------------------------


def panel_origin(seat: int) -> tuple[int, int]:
    return M + (seat % 2) * (PANEL_W + M), PLAYERS_Y + (seat // 2) * (PANEL_H + PANEL_GAP)


def legend_box(n: int) -> Box:
    if n % 2:
        x, y = panel_origin(n)
        return (x, y, x + PANEL_W, y + PANEL_H)
    y = PLAYERS_Y + (n // 2) * (PANEL_H + PANEL_GAP)
    return (M, y, W - M, y + LEGEND_H)


def height(n: int) -> int:
    return legend_box(n)[3] + M


def store_box(store: int) -> Box:
    x = M + store * (STORE_W + 8)
    return (x, SHOP_Y, x + STORE_W, SHOP_Y + SHOP_H)


def slot_box(store: int, slot: int) -> Box:
    x0, y0, _, _ = store_box(store)
    x = x0 + 8 + slot * (TILE + TILE_GAP)
    return (x, y0 + 24, x + TILE, y0 + 24 + TILE)


SUPPLY_BOX: Box = (M, SUPPLY_Y, W - M, SUPPLY_Y + SUPPLY_H)
BANK_BOX: Box = (M + 2 * (STORE_W + 8), SHOP_Y, W - M, SHOP_Y + SHOP_H)


def bank_coin_centre(i: int) -> tuple[int, int]:
    x0, y0, x1, _ = BANK_BOX
    step = (x1 - x0 - 16) // 4
    return (x0 + 8 + step // 2 + i * step, y0 + 24 + 26)


def day_box(day: int) -> Box:
    x = DAY_X + (day - 1) * (DAY_W + DAY_GAP)
    return (x, DAY_Y, x + DAY_W, DAY_Y + DAY_H)


def card_box(card: int) -> Box:
    row, col = divmod(card, CARD_COLS)
    x = M + col * (CARD_W + CARD_GAP)
    y = BONUS_Y + 28 + row * (CARD_H + 6)
    return (x, y, x + CARD_W, y + CARD_H)


def cell_box(x: int, y: int, row: int, column: int) -> Box:
    cx = x + GRID_X + column * (CELL + CELL_GAP)
    cy = y + GRID_Y + row * (CELL + CELL_GAP)
    return (cx, cy, cx + CELL, cy + CELL)


def attic_box(x: int, y: int, i: int) -> Box:
    ax = x + SIDE_X + i * (CELL + 8)
    ay = y + GRID_Y + 20
    return (ax, ay, ax + CELL, ay + CELL)


def _table() -> Image.Image:
    """The top of the board: title bar, day numbers, store and bank frames, section titles."""
    image = Image.new("RGB", (W, PLAYERS_Y), BG)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, W, TITLE_H), fill=HEAD)
    text(draw, (M, TITLE_H // 2), "CALIFORNIA", 26, WHITE, "lm", bold=True)
    text(draw, (M, DAY_Y + DAY_H // 2), "DAY", 17, INK, "lm", bold=True)
    for day in range(1, 13):
        box = day_box(day)
        draw.rectangle(box, fill=WHITE, outline=LINE, width=2)
        text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), str(day), 18, INK, "mm")
    for store in range(2):
        box = store_box(store)
        draw.rounded_rectangle(box, radius=6, fill=CARD, outline=LINE, width=2)
        text(draw, (box[0] + 8, box[1] + 5), f"STORE {store + 1}", 17, INK, "la", bold=True)
        text(draw, (box[2] - 8, box[1] + 5), "price", 15, SOFT, "ra")
        for slot in range(4):
            draw.rectangle(slot_box(store, slot), fill=EMPTY, outline=(170, 160, 140), width=1)
    draw.rounded_rectangle(BANK_BOX, radius=6, fill=CARD, outline=LINE, width=2)
    text(draw, (BANK_BOX[0] + 8, BANK_BOX[1] + 5), "BANK", 17, INK, "la", bold=True)
    for i in range(4):
        x, y = bank_coin_centre(i)
        draw.ellipse((x - 21, y - 21, x + 21, y + 21), fill=EMPTY, outline=(150, 140, 120), width=2)
    draw.rounded_rectangle(SUPPLY_BOX, radius=6, fill=CARD, outline=LINE, width=1)
    text(draw, (M, BONUS_Y + 2), "BONUS CARDS", 17, INK, "la", bold=True)
    x0, y0, _, _ = card_box(11)
    text(draw, (x0 + 8, y0 + 14), "first to furnish the", 16, SOFT, "lm")
    text(draw, (x0 + 8, y0 + 35), "set takes the card", 16, SOFT, "lm")
    return image


table_layer = static_layer(_table)


@lru_cache(maxsize=8)
def _card_faces(cards: tuple[tuple[int, tuple[tuple[str, int], ...]], ...]) -> list[Image.Image]:
    """Card faces (points and the furniture it needs), drawn once per card set."""
    faces = []
    for points, needs in cards:
        face = Image.new("RGB", (CARD_W, CARD_H), BG)
        draw = ImageDraw.Draw(face)
        draw.rounded_rectangle((0, 0, CARD_W - 1, CARD_H - 1), radius=6, fill=CARD, outline=LINE, width=2)
        coin(draw, (24, CARD_H // 2), 17, str(points), gold=True)
        chips = [colour for colour, k in needs for _ in range(max(0, min(k, 3)))][:3]
        for i, colour in enumerate(chips):
            x = 50 + i * 46
            chip(draw, (x, CARD_H // 2 - 19, x + 42, CARD_H // 2 + 19), colour, furniture=True)
        faces.append(face)
    return faces


def _legend(draw: ImageDraw.ImageDraw, box: Box) -> None:
    x0, y0, x1, _ = box
    draw.rounded_rectangle(box, radius=8, fill=CARD, outline=LINE, width=2)
    text(draw, (x0 + 10, y0 + 8), "KEY", 17, INK, "la", bold=True)
    wide = x1 - x0 > 500
    cols = 2 if wide else 1
    col_w = (x1 - x0 - 20) // cols
    y = y0 + 32
    for i, (key, (_code, _fill, name, room, furniture)) in enumerate(COLOURS.items()):
        col, row = (i // 3, i % 3) if wide else (0, i)
        cx = x0 + 10 + col * col_w
        cy = y + row * 31
        tile(draw, (cx, cy, cx + 34, cy + 28), key, False, size=16)
        text(draw, (cx + 42, cy + 14), kit.fit(f"{name}: {room}, {furniture}", 16, col_w - 46), 16, INK, "lm")
    y += (3 if wide else 6) * 31 + 6
    symbols_w = (x1 - x0 - 20) // (4 if wide else 2)
    entries: list[tuple[str, str]] = [
        ("room", "room tile"),
        ("furniture", "furniture"),
        ("printed", "printed room"),
        ("coin", "silver (price/fee)"),
    ]
    for i, (kind, label) in enumerate(entries):
        col, row = (i, 0) if wide else (i % 2, i // 2)
        sx = x0 + 10 + col * symbols_w
        sy = y + row * 32
        cbox = (sx, sy, sx + 34, sy + 28)
        if kind == "coin":
            coin(draw, (sx + 17, sy + 14), 15, "2")
        else:
            tile(draw, cbox, "red", kind == "furniture", printed=kind == "printed", size=16)
        text(draw, (sx + 42, sy + 14), label, 16, INK, "lm")


def _empty_panel(draw: ImageDraw.ImageDraw, x: int, y: int, fees: Sequence[int | None]) -> None:
    draw.rectangle((x, y, x + PANEL_W, y + PANEL_H), fill=CARD, outline=LINE, width=2)
    for space, fee in enumerate(fees):
        row, column = divmod(space, 4)
        box = cell_box(x, y, row, column)
        draw.rectangle(box, fill=EMPTY, outline=(170, 160, 140), width=1)
        if fee:
            coin(draw, ((box[0] + box[2]) // 2, (box[1] + box[3]) // 2), 17, str(fee))
    text(draw, (x + SIDE_X, y + GRID_Y), "ATTIC", 15, SOFT, "la", bold=True)


@lru_cache(maxsize=16)
def _board(
    n: int,
    fees: tuple[tuple[int | None, ...], ...],
    cards: tuple[tuple[int, tuple[tuple[str, int], ...]], ...],
) -> Image.Image:
    """Everything static for a table of ``n``: the table top, empty mansions with fees, the key."""
    image = Image.new("RGB", (W, height(n)), BG)
    image.paste(table_layer(), (0, 0))
    for card, face in enumerate(_card_faces(cards)):
        image.paste(face, card_box(card)[:2])
    draw = ImageDraw.Draw(image)
    for seat in range(n):
        _empty_panel(draw, *panel_origin(seat), fees[seat])
    _legend(draw, legend_box(n))
    return image


# --- the changing parts ----------------------------------------------------------------------


def _status(draw: ImageDraw.ImageDraw, view: Mapping[str, Any], names: Sequence[str]) -> None:
    players = view.get("players") or []
    if view.get("over"):
        best = _winners(players)
        who = ", ".join(names[s] for s in best) if best else "nobody"
        label = f"GAME OVER - {'winner' if len(best) == 1 else 'tie'}: {who}"
    else:
        turn = view.get("turn")
        label = f"{names[turn]} to play" if isinstance(turn, int) and 0 <= turn < len(names) else ""
    label = kit.fit(label, 22, W - 2 * M - 200)
    text(draw, (W - M, TITLE_H // 2), label, 22, TURN, "rm", bold=True)


def _winners(players: Sequence[Mapping[str, Any]]) -> list[int]:
    keyed = [(_score(p).get("total", 0), _score(p).get("money", 0)) for p in players]
    if not keyed:
        return []
    top = max(keyed)
    return [s for s, k in enumerate(keyed) if k == top]


def _score(p: Mapping[str, Any]) -> Mapping[str, int]:
    score = p.get("score")
    return score if isinstance(score, Mapping) else {}


def _days(draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    day = int(view.get("day") or 0)
    days = int(view.get("days") or 12)
    last = day if view.get("ending") or view.get("over") else days
    for d in range(1, 13):
        box = day_box(d)
        centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
        if d < day:
            draw.rectangle(box, fill=PAST, outline=LINE, width=2)
            text(draw, centre, str(d), 18, WHITE, "mm")
        elif d == day:
            draw.rectangle(box, fill=TURN, outline=INK, width=4)
            text(draw, centre, str(d), 20, INK, "mm", bold=True)
        elif d > last or d > days:
            hatch(draw, (box[0] + 2, box[1] + 2, box[2] - 2, box[3] - 2), (150, 150, 150), step=6)
            text(draw, centre, str(d), 18, SOFT, "mm")
    note = ""
    ending = view.get("ending")
    if view.get("over"):
        note = f"The game ended on day {day}."
    elif ending == "bonus":
        note = "Last day: a player has 9 bonus points."
    elif ending == "mansion":
        note = "Last day: a mansion's ground floor is full."
    elif day == days:
        note = "Last day."
    if note:
        text(draw, (DAY_X, ENDING_Y + 2), note, 16, LOAN, "la", bold=True)


def _stores(image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    stores = view.get("stores") or []
    for store, tiles in enumerate(stores[:2]):
        for slot, t in enumerate(tiles[:4]):
            box = slot_box(store, slot)
            if not isinstance(t, Mapping):
                text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "sold", 16, SOFT, "mm")
                continue
            if t.get("kind") == "expansion":
                expansion_tile(draw, box)
            else:
                paste_tile(image, box, t.get("colour"), t.get("kind") == "furniture", size=22)
            if not view.get("over"):
                paste_coin(image, ((box[0] + box[2]) // 2, box[3] + 8 + 15), 15, str(t.get("price", "?")))
    bank = int(view.get("bank") or 0)
    for i in range(min(bank, 4)):
        x, y = bank_coin_centre(i)
        paste_coin(image, (x, y), 21, "G", gold=True)
    x0, _, x1, y1 = BANK_BOX
    price = view.get("price")
    label = "game over" if view.get("over") else f"tile price {price} silver"
    text(draw, ((x0 + x1) / 2, y1 - 22), label, 16, INK, "mm", bold=True)


def _supply(image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any]) -> None:
    x0, y0, x1, y1 = SUPPLY_BOX
    cy = (y0 + y1) // 2
    parts = [
        f"Draw stack {view.get('draw_stack', 0)}",
        f"Bag {view.get('bag', 0)}",
        f"Gifts left {view.get('gifts_left', 0)}",
        f"Loans left {view.get('loan_markers_left', 0)}",
    ]
    x = x0 + 10
    for part in parts:
        text(draw, (x, cy), part, 17, INK, "lm")
        x += int(width_of(part, 17)) + 16
    guests = view.get("guests") or {}
    free = [c for c, host in guests.items() if host is None] if isinstance(guests, Mapping) else []
    label = "Free guests" if free else "No free guests"
    text(draw, (x, cy), label, 17, INK, "lm", bold=True)
    x += int(width_of(label, 17)) + 8
    for colour in free:
        if x + 32 > x1 - 4:
            break
        paste_tile(image, (x, cy - 13, x + 30, cy + 13), colour, False, size=15)
        x += 33


def _bonus(
    image: Image.Image, draw: ImageDraw.ImageDraw, view: Mapping[str, Any], names: Sequence[str]
) -> None:
    cards = view.get("bonus_cards") or []
    left = view.get("bonus_cards_left", sum(1 for c in cards if c.get("owner") is None))
    text(draw, (M + width_of("BONUS CARDS", 17) + 16, BONUS_Y + 2), f"{left} left", 17, LOAN, "la", bold=True)
    for i, card in enumerate(cards[:11]):
        owner = card.get("owner")
        if not isinstance(owner, int):
            continue
        x0, y0, x1, y1 = card_box(i)
        fade(image, (x0 + 2, y0 + 2, x1 - 2, y1 - 2))
        banner = (x0 + 46, y0 + 9, x1 - 6, y1 - 9)
        draw.rounded_rectangle(banner, radius=5, fill=HEAD)
        who = names[owner] if 0 <= owner < len(names) else "?"
        label = kit.fit(f"taken: {who}", 16, banner[2] - banner[0] - 10)
        text(draw, ((banner[0] + banner[2]) / 2, (y0 + y1) / 2), label, 16, WHITE, "mm", True)


def _panel(
    image: Image.Image,
    draw: ImageDraw.ImageDraw,
    seat: int,
    p: Mapping[str, Any],
    name: str,
    on_turn: bool,
    winner: bool,
    over: bool,
) -> None:
    x, y = panel_origin(seat)
    head = TURN if on_turn or winner else HEAD
    ink = text_colour(head)
    draw.rectangle((x, y, x + PANEL_W, y + HEADER_H), fill=head)
    score = _score(p)
    total = score.get("total", 0)
    right = f"{total} pts"
    tag = "TO PLAY" if on_turn else ("WINNER" if winner else "")
    tx = x + 10
    if on_turn:
        triangle(draw, tx, y + HEADER_H // 2, 9, INK)
        tx += 18
    room = PANEL_W - (tx - x) - width_of(right, 20) - 24 - (width_of(tag, 15) + 24 if tag else 0)
    text(draw, (tx, y + HEADER_H // 2), kit.fit(name, 20, room), 20, ink, "lm", bold=True)
    text(draw, (x + PANEL_W - 10, y + HEADER_H // 2), right, 20, ink, "rm", bold=True)
    if tag:
        tw = int(width_of(tag, 15)) + 14
        rx = x + PANEL_W - 18 - int(width_of(right, 20)) - tw
        draw.rounded_rectangle((rx, y + 9, rx + tw, y + HEADER_H - 9), radius=5, fill=INK)
        text(draw, (rx + tw / 2, y + HEADER_H / 2), tag, 15, TURN, "mm", bold=True)
    if on_turn or winner:
        draw.rectangle((x - 4, y - 4, x + PANEL_W + 4, y + PANEL_H + 4), outline=INK, width=3)
        draw.rectangle((x - 1, y - 1, x + PANEL_W + 1, y + PANEL_H + 1), outline=TURN, width=4)

    mansion = p.get("mansion") or {}
    for space in mansion.get("spaces") or []:
        room_colour = space.get("room")
        if room_colour is None:
            continue
        box = cell_box(x, y, int(space.get("row", 0)), int(space.get("column", 0)))
        paste_tile(
            image, box, room_colour, space.get("furniture") is not None, bool(space.get("printed")), 22
        )

    attic = list(mansion.get("attic") or [])
    expanded = bool(mansion.get("expansion"))
    for i in range(2):
        box = attic_box(x, y, i)
        if i == 1 and not expanded:
            draw.rectangle(box, fill=(200, 200, 200), outline=(150, 150, 150), width=1)
            hatch(draw, box, (165, 165, 165), step=6)
            text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "closed", 15, INK, "mm")
            continue
        if i == 1:
            draw.rectangle(box, fill=(245, 236, 200), outline=LINE, width=2)
        if i < len(attic):
            paste_tile(image, box, attic[i], True, size=20)
        elif i == 1:
            text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "+1", 18, INK, "mm", bold=True)
        else:
            draw.rectangle(box, fill=EMPTY, outline=(170, 160, 140), width=1)
            text(draw, ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2), "empty", 15, SOFT, "mm")

    sx = x + SIDE_X
    sy = y + GRID_Y + 20 + CELL + 10
    text(draw, (sx, sy), f"Money {p.get('money', 0)}", 18, INK, "la", bold=True)
    text(draw, (sx, sy + 22), f"{p.get('gold', 0)} gold + {p.get('silver', 0)}", 16, SOFT, "la")
    sy += 46
    if p.get("loan"):
        box = (sx, sy, sx + 100, sy + 28)
        draw.rectangle(box, fill=LOAN, outline=INK, width=1)
        hatch(draw, box, (215, 95, 95), step=6)
        text(draw, (sx + 50, sy + 14), "LOAN", 17, WHITE, "mm", bold=True)
    else:
        text(draw, (sx, sy + 14), "no loan", 16, SOFT, "lm")
    sy += 36
    gift_icon(draw, sx, sy + 2, 22)
    gifts = int(p.get("gifts", 0))
    text(draw, (sx + 30, sy + 14), f"{gifts} gift{'s' if gifts != 1 else ''}", 18, INK, "lm", bold=True)
    sy += 34
    cards = p.get("bonus_cards") or []
    label = f"Bonus {p.get('bonus_points', 0)} pts" if cards else "no bonus"
    text(draw, (sx, sy + 12), label, 17 if cards else 16, INK if cards else SOFT, "lm", bold=bool(cards))

    ry = y + ROWS_Y
    text(draw, (x + 10, ry + 15), "Guests", 17, INK, "lm", bold=True)
    gx = x + 10 + int(width_of("Guests", 17)) + 12
    guests = p.get("guests") or []
    if not guests:
        text(draw, (gx, ry + 15), "none", 16, SOFT, "lm")
    for colour in guests[:6]:
        paste_tile(image, (gx, ry, gx + 42, ry + 30), colour, False, size=18)
        gx += 46
    ry += 34
    g = score.get("gifts", 0)
    parts = [
        f"{g} gift{'' if g == 1 else 's'}",
        f"{score.get('bonus', 0)} bonus",
        f"{score.get('spaces', 0)} spaces",
    ]
    loan = score.get("loan", 0)
    if loan:
        parts.append(f"{loan} loan")
    label = ("Final " if over else "Score ") + f"{total} = " + " + ".join(parts)
    text(draw, (x + 10, ry + 16), kit.fit(label.replace("+ -", "- "), 17, PANEL_W - 20), 17, INK, "lm")


# --- entry point ----------------------------------------------------------------------------------


def _static_key(
    view: Mapping[str, Any],
) -> tuple[int, tuple[tuple[int | None, ...], ...], tuple[tuple[int, tuple[tuple[str, int], ...]], ...]]:
    players = view.get("players") or []
    fees = []
    for p in players:
        spaces = (p.get("mansion") or {}).get("spaces") or []
        row: list[int | None] = [None] * 16
        for s in spaces:
            i = int(s.get("row", 0)) * 4 + int(s.get("column", 0))
            if 0 <= i < 16 and not s.get("printed"):
                row[i] = int(s.get("fee") or 0)
        fees.append(tuple(row))
    cards = tuple(
        (
            int(c.get("points", 0)),
            tuple((str(k), int(v)) for k, v in (c.get("needs") or {}).items()),
        )
        for c in (view.get("bonus_cards") or [])[:11]
    )
    return len(players), tuple(fees), cards


def render(view: dict[str, Any], names: Sequence[str]) -> bytes:
    """The whole table as one PNG."""
    n, fees, cards = _static_key(view)
    image = _board(n, fees, cards).copy()
    draw = ImageDraw.Draw(image)
    shown = kit.player_names(names, n)
    players = view.get("players") or []
    over = bool(view.get("over"))
    winners = _winners(players) if over else []
    turn = view.get("turn")
    _status(draw, view, shown)
    _days(draw, view)
    _stores(image, draw, view)
    _supply(image, draw, view)
    _bonus(image, draw, view, shown)
    for seat, p in enumerate(players):
        _panel(image, draw, seat, p, shown[seat], seat == turn and not over, seat in winners, over)
    return kit.png(image)
