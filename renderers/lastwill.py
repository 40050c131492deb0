"""The Last Will table (with Getting the Sack), drawn from the public view only, for phones first.

Input is ``RULES.view(state, None)`` and the players' names in seat order; nothing else is read
but the printed cards (names, symbols, tracks) from ``rules.lastwill.data``.  Money, boards and
jobs are open in Last Will; hands, draws and deck order are not, and the view carries only the
SIZES of hands and decks, so no hidden card can reach the image (a seat's private ``you`` entry
is never looked at).

Words: every word drawn is the table's catalog, ``[lastwill.image]`` and the names the messages
use (cards ``lastwill.card``, jobs ``lastwill.job``, decks, types, pounds ``lastwill.money``), so a
French table's board reads in French and names each card as its log does; numbers are the
language's (``words.number``: ``12 500 £``).  Where a word is too long for its box the catalog has
a shorter form (a tile's card name, a dual type, an errand space), and :func:`kit.fit` cuts only
what a player typed (names).  Seat letters (A-E), card ids and the market's signed tokens are the
same in every language.

Phone first: the image is :data:`W` (800) px wide and judged shown 400 px wide, so no text is
smaller than :data:`SMALL` (18 px, 9.0 px on the phone).  The table part is the same size in every
view; then one block per player and the legend.  Five players whose boards hold up to five cards
each stay within :data:`MAX_ASPECT` (1.6 : 1, 1246 px); each further row of five cards adds a tile
row (78 px) to its player's block, the only way the picture grows past that.

Layout, top to bottom:

1. title bar: the round track 1-7 (past rounds dim, the current one amber and bold), the start
   player's chip, and the phase (with the errand pass);
2. status: who is to act and for what in bold (plan, draw, errand boy, a pending choice, the
   discards owed), then the details (actions left, valet, free actions); on the second line the
   last public move in words after a magenta "Last:" ("Dernier coup :");
3. the planning board as a table: a column per plan position (the turn order) headed by its
   number and the chip of the seat that took it, rows for its cards, errand boys and actions;
   positions not in play are hatched;
4. the errand spaces (draw one, Opera, market, extension with the extensions left, demotion,
   demotion or extension), each with its boys' chips and an empty ring per free place; spaces
   not in play are hatched; the market token of each property type;
5. the card offering, a tile per slot: a band in the deck's colour with the slot's label and
   the card's name, shortened to fit (:data:`SHORT`), then its symbol code, actions and
   pounds; a slot whose card an errand boy took shows that seat's chip and the deck's name;
   slot X is the new special card; the sizes of the four regular decks;
6. one block per player: seat chip, name (cut to fit), tags (to act, discard n, BANKRUPT, the
   final place), hand SIZE, plan and boys while they matter, extensions, money; the employment
   card's job, its income and its lines (symbol word and pounds), a covered line hatched, struck
   through and marked with a demotion token, or SACKED; then the board, five cards a row:
   properties (type band with the id, value track with past steps struck, the current one
   inverted, later ones plain, upkeep, companion tokens, a tick if maintained this round),
   helpers and expenses (band in their deck's colour, id, symbol code, expense, tokens, a tick
   if used this round), and the free spaces in the columns left ("+3 free" when more);
7. a legend: symbol codes, companion tokens, the tick, a covered line, the frames.

The last public move (``view["last"]``) is framed in magenta where it changed the table (the plan
taken, the errand space or offering slot, both market tokens swapped, the card on a board, the
job line covered, the job row of the sacked, or the player's header when the card left the table)
and written out in the status area.

Colour is never the only signal: seats carry letters (A-E), property types and decks are words,
symbols short codes, tokens letters, covered lines are hatched and struck, the current
round and value step bold and inverted, the turn a tag, ticks drawn shapes.

Speed: the table's frame and labels and the legend are drawn once per language (:func:`table_layer`,
:func:`legend_layer`, both :func:`kit.static_layer`); a render pastes them, draws the changing
parts with the kit's cached text masks and encodes against a fixed palette (:func:`colours`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import Any

from PIL import Image, ImageDraw

from renderers import kit
from renderers.kit import INK, WHITE, Colour
from rules.lastwill import data

View = Mapping[str, Any]
Box = tuple[int, int, int, int]

# --- phone-first sizes ------------------------------------------------------------------------

W = 800
PHONE = 400
SMALL = -(-9 * W // PHONE)
"""18: the smallest text, 9.0 px tall once the picture is shown 400 px wide."""
BODY = SMALL + 2
BIG = SMALL + 6
FONT_MIN = SMALL

M = 12  # side margin
X0, X1 = M, W - M
TITLE_H = 40
STATUS_TOP = TITLE_H
LINE_H = 25
STATUS_H = 2 * LINE_H + 6
PLANS_TOP = STATUS_TOP + STATUS_H
PLAN_LABEL_W = 96
PLAN_COLS = data.PLAN_POSITIONS
PLAN_W = (X1 - X0 - PLAN_LABEL_W) // PLAN_COLS
PLAN_HEAD = 30  # position numbers and the chips of the seats that took them
PLAN_ROW = 23
PLANS_H = PLAN_HEAD + 3 * PLAN_ROW
ERRANDS_TOP = PLANS_TOP + PLANS_H + 8
ERRAND_H = 54
MARKET_TOP = ERRANDS_TOP + ERRAND_H + 4
MARKET_H = 30
OFFER_TOP = MARKET_TOP + MARKET_H + 6
OFFER_HEAD = 26
TILE_W = 148
OFFER_TILE_H = 50
TILE_H = 72
TILE_GAP = (X1 - X0 - 5 * TILE_W) // 4
TILE_PITCH = TILE_W + TILE_GAP
ROW_GAP = 6
OFFER_ROWS = 2
OFFER_H = OFFER_HEAD + OFFER_ROWS * (OFFER_TILE_H + ROW_GAP)
PLAYERS_TOP = OFFER_TOP + OFFER_H + 4
"""Where the players' blocks start; everything above is the same size in every view."""
HEAD_H = 30
JOB_H = 28
FREE_H = 30
PER_ROW = 5
BLOCK_GAP = 8
LEGEND_LINES = 3
LEGEND_H = LEGEND_LINES * LINE_H + 12
CHIP_R = 12
FRAME = 3
MAX_ASPECT = 1.6
"""Tall : wide, as every board here; a 5-player table stays within it while no board holds more
than five cards (each further row of cards adds a tile row)."""

ERRAND_ORDER = ("one", "opera", "market", "ext", "demote", "demext")
"""The errand spaces left to right; each is labelled by ``lastwill.image.errand.<space>``."""
ONE_W = 160
ERRAND_GAP = 6
ERRAND_W = (X1 - X0 - ONE_W - 5 * ERRAND_GAP) // 5

# --- colours ----------------------------------------------------------------------------------

PAPER: Colour = kit.PAPER
PANEL: Colour = (238, 233, 222)
EDGE: Colour = (176, 168, 152)
LINE: Colour = (60, 60, 60)
DIM: Colour = (86, 86, 86)
BAR: Colour = (38, 50, 66)
BAR_DIM: Colour = (112, 124, 140)
TURN: Colour = (255, 183, 0)
LAST: Colour = (226, 0, 122)
"""The last move's frame and heading: a magenta no seat, deck or type uses."""
TOKEN: Colour = (230, 205, 160)
COVER_BG: Colour = (205, 205, 205)
COVER_HATCH: Colour = (150, 150, 150)
DEMOTION: Colour = (40, 40, 40)
SACK: Colour = (190, 30, 30)
TICK: Colour = (22, 120, 56)
PAST: Colour = (222, 222, 222)
PAST_TEXT: Colour = (130, 130, 130)
FREE_EDGE: Colour = (150, 150, 150)

SEATS: tuple[Colour, ...] = kit.SEAT_COLOURS[:5]
"""Seat colours (five seats); each is always drawn with its seat letter."""
LETTERS = kit.SEAT_LETTERS[:5]

DECKS: dict[str, Colour] = {
    "property": (56, 132, 64),
    "event": (246, 243, 228),
    "helper": (52, 52, 58),
    "companion": (150, 110, 80),
    "special": (214, 168, 40),
    "new_special": (176, 36, 48),
    "wild": (120, 60, 160),
}
"""deck -> band colour; the deck's word is ``lastwill.image.deck.<deck>`` (the messages' word, shortened where a band needs it)."""
UNKNOWN: Colour = (150, 150, 150)
"""The band of a deck or type the view names but this renderer does not know (a newer engine)."""

TYPES: dict[str, Colour] = {
    "farm": (92, 135, 38),
    "town": (40, 110, 200),
    "manor": (190, 90, 15),
    "mansion": (130, 50, 150),
}
"""property type -> band colour; its word on a band is ``lastwill.image.type.<type>``, shorter than
the messages' name ("Town" for Town House) so that a band, a market entry and a dual type fit."""

SYMBOLS = (
    "dine", "carriage", "mask", "helm", "party", "ring", "helper", "wild", "training", "clock",
    "dog", "horse", "chef", "guest", "farm", "town", "manor", "mansion",
)  # fmt: skip
"""Every card symbol: each has a code drawn on tiles (``lastwill.image.code.<symbol>``, "Din") and a
word the legend and the job lines use (``lastwill.image.symbol.<symbol>``, "dine")."""
LEGEND_SYMBOLS = ("dine", "carriage", "mask", "helm", "party", "ring", "helper", "wild", "training", "clock")
"""The codes the legend spells: every symbol on a tile but the companions', whose cards carry the
companion's name and whose token letters the legend spells next."""
COMPANIONS = ("horse", "dog", "chef", "guest")
"""Companion tokens, each drawn as its letters (``lastwill.image.token.<companion>``: "H", "Cv")."""

SHORT = frozenset(
    {
        "bachelor_party_event", "bachelor_party_special", "boat_trip", "breeders_fair", "carriage_ride",
        "engagement_ring", "estate_agent", "gentlemens_club", "hectic_day", "lost_at_cards",
        "manor_house_mansion", "opera_box", "personal_secretary", "school_chum", "town_house", "town_house_manor_house",
        "training_ground", "wedding_event", "wedding_gift", "wedding_planner", "wedding_special",
    }
)  # fmt: skip
"""Card names (their ``data.CARD_NAME_KEYS``) too long for a tile in some language: a tile writes
``lastwill.image.short.<key>``, shortened the way a player would write it; every other card shows
its name as the messages give it (``lastwill.card.<key>``).  With these every card's name fits an
offering band uncut in every language (a test checks it)."""

PHASES = ("pick", "discard", "planning", "drawing", "errands", "actions", "over")
"""Phases the title names (``lastwill.image.phase.<phase>``)."""


# --- small helpers ----------------------------------------------------------------------------


def seat_colour(seat: int) -> Colour:
    return SEATS[seat % len(SEATS)]


def seat_letter(seat: object) -> str:
    return LETTERS[seat] if isinstance(seat, int) and 0 <= seat < len(LETTERS) else "?"


def _int(value: object) -> int:
    return int(value) if isinstance(value, int) and not isinstance(value, bool) else 0


def money(words: kit.Words, amount: object) -> str:
    """Pounds as the messages write them ("£12", "12 £"; a debt "−£3"), numbers grouped by language."""
    value = _int(amount)
    key = "lastwill.money_negative" if value < 0 else "lastwill.money"
    return words(key, amount=words.number(abs(value)))


def signed(value: object) -> str:
    """A market token as printed ("+3", "-2"): a sign and a digit, the same in every language."""
    number = _int(value)
    return f"+{number}" if number > 0 else str(number)


def card_name(card_id: object, words: kit.Words) -> str:
    """The card's name as the table's messages give it ("Soirée", "Maison de ville")."""
    key = data.CARD_NAME_KEYS.get(str(card_id))
    return kit.printable(words(f"lastwill.card.{key}")) if key is not None else str(card_id)


def short_name(card_id: object, words: kit.Words) -> str:
    """The card's name as a tile writes it (:data:`SHORT`)."""
    key = data.CARD_NAME_KEYS.get(str(card_id))
    if key is None:
        return str(card_id)
    return kit.printable(words(f"lastwill.image.short.{key}")) if key in SHORT else card_name(card_id, words)


def job_name(job_id: object, words: kit.Words) -> str:
    key = data.JOB_NAME_KEYS.get(str(job_id))
    return kit.printable(words(f"lastwill.job.{key}")) if key is not None else ""


def code(symbol: str, words: kit.Words) -> str:
    """A symbol's code on a tile ("Din"); an unknown symbol shows as its first letters."""
    return words(f"lastwill.image.code.{symbol}") if symbol in SYMBOLS else symbol[:3].title()


def symbol_word(symbol: object, words: kit.Words) -> str:
    """A symbol as the legend and the job lines name it ("dine", "dîner")."""
    return words(f"lastwill.image.symbol.{symbol}") if symbol in SYMBOLS else str(symbol)


def symbols(card_id: object, words: kit.Words) -> str:
    card = data.CARDS.get(str(card_id))
    if card is None:
        return ""
    return " ".join(code(s.value, words) for s in card.symbols)


def deck_info(deck: object, words: kit.Words) -> tuple[str, Colour]:
    """(word, colour) of a deck; a slot not filled yet (deck "") has a blank grey band."""
    if not deck:
        return "", EDGE
    if str(deck) not in DECKS:
        return "?", UNKNOWN
    return words(f"lastwill.image.deck.{deck}"), DECKS[str(deck)]


def type_info(kind: object, words: kit.Words) -> tuple[str, Colour]:
    if str(kind) not in TYPES:
        return "?", UNKNOWN
    return words(f"lastwill.image.type.{kind}"), TYPES[str(kind)]


def type_short(kind: str, words: kit.Words) -> str:
    """The shorter word for a type, for a dual property's band ("Town/Man.")."""
    return words(f"lastwill.image.type_short.{kind}") if kind in TYPES else "?"


def _width(text: str, size: int, bold: bool = False) -> float:
    """Width of ``text`` as :func:`_text` draws it."""
    return kit.font(size, bold).getlength(text)


def _text(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: Colour = INK,
    anchor: str = "la",
    bold: bool = False,
) -> float:
    """Draw ``text`` with :func:`kit.label`; returns its width."""
    kit.label(image, xy, text, size, fill, anchor, bold)
    return _width(text, size, bold)


def _fit(text: str, size: int, width: float, bold: bool = False) -> str:
    """:func:`kit.fit`."""
    return kit.fit(text, size, width, bold)


def _chip(
    image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, seat: int, r: int = CHIP_R
) -> None:
    fill = seat_colour(seat)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill, outline=LINE, width=1)
    _text(image, (cx, cy + 1), seat_letter(seat), SMALL, kit.text_colour(fill), "mm", bold=True)


def _ring(draw: ImageDraw.ImageDraw, cx: float, cy: float, r: int = CHIP_R) -> None:
    """An empty place for an errand boy."""
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=WHITE, outline=FREE_EDGE, width=2)


def _tick(draw: ImageDraw.ImageDraw, x: float, y: float, size: int = 20) -> None:
    """A drawn tick in a white box (the font has no check mark): maintained or used this round."""
    draw.rectangle((x, y, x + size, y + size), fill=WHITE, outline=TICK, width=2)
    draw.line(
        ((x + 4, y + size * 0.55), (x + size * 0.42, y + size - 5), (x + size - 4, y + 4)), fill=TICK, width=3
    )


TOKEN_R = 12
TOKEN_PITCH = 2 * TOKEN_R + 1
"""A companion token's radius: room for two letters ("Cv", a French horse) at :data:`SMALL`."""


def _token(
    image: Image.Image, draw: ImageDraw.ImageDraw, cx: float, cy: float, companion: str, words: kit.Words
) -> None:
    r = TOKEN_R
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=TOKEN, outline=LINE, width=1)
    letters = words(f"lastwill.image.token.{companion}") if companion in COMPANIONS else "?"
    _text(image, (cx, cy + 1), letters, SMALL, INK, "mm")


def _demotion_token(draw: ImageDraw.ImageDraw, cx: float, cy: float) -> None:
    draw.ellipse((cx - 8, cy - 8, cx + 8, cy + 8), fill=DEMOTION, outline=WHITE, width=1)


def _frame(draw: ImageDraw.ImageDraw, box: Box, height: int) -> None:
    """A magenta frame just outside ``box``, kept inside the image."""
    x0, y0, x1, y1 = box
    draw.rectangle(
        (max(0, x0 - FRAME), max(0, y0 - FRAME), min(W - 1, x1 + FRAME), min(height - 1, y1 + FRAME)),
        outline=LAST,
        width=FRAME,
    )


# --- the fixed palette ------------------------------------------------------------------------


@lru_cache(maxsize=1)
def colours() -> Image.Image:
    """Every flat colour drawn, plus the anti-aliasing shades of each text colour on its grounds."""
    flats: list[Colour] = [
        PAPER, PANEL, EDGE, LINE, DIM, BAR, BAR_DIM, TURN, LAST, TOKEN, COVER_BG, COVER_HATCH,
        DEMOTION, SACK, TICK, PAST, PAST_TEXT, FREE_EDGE, INK, WHITE,
        *SEATS, *DECKS.values(), *TYPES.values(), UNKNOWN,
    ]  # fmt: skip
    grounds = [PAPER, PANEL, WHITE, TOKEN, COVER_BG, PAST, TURN]
    fills = list(DECKS.values()) + list(TYPES.values()) + list(SEATS) + [SACK, BAR]
    blends: list[tuple[Colour, Colour]] = [(INK, g) for g in grounds]
    blends += [(DIM, g) for g in (PAPER, PANEL, WHITE, COVER_BG)]
    blends += [(LAST, PAPER), (LAST, PANEL), (SACK, PAPER), (PAST_TEXT, PAST), (TICK, WHITE)]
    blends += [(kit.text_colour(f), f) for f in fills]
    blends += [(WHITE, BAR), (BAR_DIM, BAR), (WHITE, INK), (INK, TURN), (LINE, PAPER), (LINE, WHITE)]
    blends += [(EDGE, PAPER), (FREE_EDGE, WHITE), (FREE_EDGE, PAPER), (COVER_HATCH, COVER_BG)]
    return kit.palette(flats, blends, steps=4)


# --- the fixed layers -------------------------------------------------------------------------


def plan_box(pos: int) -> Box:
    """The column of plan position ``pos`` (1-based), all rows."""
    x = X0 + PLAN_LABEL_W + (pos - 1) * PLAN_W
    return (x, PLANS_TOP, x + PLAN_W, PLANS_TOP + PLANS_H)


def errand_box(space: str) -> Box:
    i = ERRAND_ORDER.index(space) if space in ERRAND_ORDER else 0
    if i == 0:
        return (X0, ERRANDS_TOP, X0 + ONE_W, ERRANDS_TOP + ERRAND_H)
    x = X0 + ONE_W + ERRAND_GAP + (i - 1) * (ERRAND_W + ERRAND_GAP)
    return (x, ERRANDS_TOP, x + ERRAND_W, ERRANDS_TOP + ERRAND_H)


def offer_box(index: int) -> Box:
    row, col = divmod(index, 5)
    x = X0 + col * TILE_PITCH
    y = OFFER_TOP + OFFER_HEAD + row * (OFFER_TILE_H + ROW_GAP)
    return (x, y, x + TILE_W, y + OFFER_TILE_H)


MARKET_X = X0 + 86
MARKET_PITCH = (X1 - MARKET_X) // 4
TITLE_BOX: Box = (0, 0, W, TITLE_H)
STATUS_BOX: Box = (0, STATUS_TOP, W, PLANS_TOP)
PLANS_BOX: Box = (X0, PLANS_TOP, X1, PLANS_TOP + PLANS_H)
MARKET_BOX: Box = (X0, MARKET_TOP, X1, MARKET_TOP + MARKET_H)
OFFER_HEAD_BOX: Box = (X0, OFFER_TOP, X1, OFFER_TOP + OFFER_HEAD)
"""The table's parts that hold text, each to stay inside its own (the overprint test)."""


def market_box(kind: str) -> Box:
    i = list(TYPES).index(kind) if kind in TYPES else 0
    x = MARKET_X + i * MARKET_PITCH
    return (x, MARKET_TOP + 2, x + MARKET_PITCH - 8, MARKET_TOP + MARKET_H - 2)


def _build_table(words: kit.Words) -> Image.Image:
    """The title bar, the planning table's grid and labels, the errand spaces, the section heads."""
    image = Image.new("RGB", (W, PLAYERS_TOP), PAPER)
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 0, W - 1, TITLE_H - 1), fill=BAR)
    with kit.panel(image, "title bar", TITLE_BOX):
        _text(image, (X0, TITLE_H / 2), words("lastwill.image.round"), SMALL, WHITE, "lm")
    with kit.panel(image, "plans", PLANS_BOX):
        _plan_table(image, words)
    # The errand spaces: a box each with its name.
    for space in ERRAND_ORDER:
        x0, y0, x1, y1 = errand_box(space)
        draw.rectangle((x0, y0, x1, y1), fill=PANEL, outline=EDGE)
        label = _fit(words(f"lastwill.image.errand.{space}"), SMALL, x1 - x0 - 10, bold=True)
        with kit.panel(image, f"errand {space}", (x0, y0, x1, y1)):
            _text(image, (x0 + 7, y0 + 5), label, SMALL, INK, "la", bold=True)
    market = _fit(words("lastwill.image.market"), SMALL, MARKET_X - X0 - 6, bold=True)
    with kit.panel(image, "market", MARKET_BOX):
        _text(image, (X0, MARKET_TOP + MARKET_H / 2), market, SMALL, INK, "lm", bold=True)
    offering = _fit(words("lastwill.image.offering"), SMALL, 260, bold=True)
    with kit.panel(image, "offering's head", OFFER_HEAD_BOX):
        _text(image, (X0, OFFER_TOP + OFFER_HEAD / 2 - 2), offering, SMALL, INK, "lm", bold=True)
    return image


def _plan_table(image: Image.Image, words: kit.Words) -> None:
    """The planning table: positions (the turn order) across the top, then each plan's numbers."""
    draw = ImageDraw.Draw(image)
    top = PLANS_TOP
    draw.rectangle((X0, top, X1, top + PLANS_H), fill=PANEL, outline=EDGE)
    draw.rectangle((X0, top, X1, top + PLAN_HEAD), fill=BAR)
    plan = _fit(words("lastwill.image.plan"), SMALL, PLAN_LABEL_W - 10, bold=True)
    _text(image, (X0 + 8, top + PLAN_HEAD / 2 + 1), plan, SMALL, WHITE, "lm", bold=True)
    for i, row in enumerate(("cards", "boys", "actions")):
        y = top + PLAN_HEAD + i * PLAN_ROW
        label = _fit(words(f"lastwill.image.plan_{row}"), SMALL, PLAN_LABEL_W - 10)
        _text(image, (X0 + 8, y + PLAN_ROW / 2 + 1), label, SMALL, DIM, "lm")
        if i:
            draw.line((X0, y, X1, y), fill=EDGE)
    for pos in range(1, PLAN_COLS + 1):
        x0 = plan_box(pos)[0]
        draw.line((x0, top, x0, top + PLANS_H), fill=EDGE)
        _text(image, (x0 + 10, top + PLAN_HEAD / 2 + 1), str(pos), BODY, WHITE, "lm", bold=True)


table_layer = kit.static_layer(_build_table)


def legend_entries(words: kit.Words) -> list[tuple[str, str]]:
    """(code, word) for every symbol code the legend spells."""
    return [(code(s, words), symbol_word(s, words)) for s in LEGEND_SYMBOLS]


def _build_legend(words: kit.Words) -> Image.Image:
    """Symbol codes, tokens, ticks, covered lines, the turn and the last-move frame.

    Entries flow left to right and wrap; the catalog's words are short enough that any language
    fits :data:`LEGEND_LINES` lines (a test renders the legend in each and checks it).
    """
    image = Image.new("RGB", (W, LEGEND_H), PANEL)
    draw = ImageDraw.Draw(image)
    draw.line((0, 0, W, 0), fill=EDGE)
    face = kit.font(SMALL)
    y = 6 + LINE_H / 2
    x = float(X0)
    x += _text(image, (x, y), words("lastwill.image.symbols"), SMALL, INK, "lm", bold=True) + 10
    for shown, word in legend_entries(words):
        entry_w = _width(shown, SMALL, bold=True) + 6 + face.getlength(word) + 12
        if x + entry_w > X1:
            x = float(X0)
            y += LINE_H
        x += _text(image, (x, y), shown, SMALL, INK, "lm", bold=True) + 6
        x += _text(image, (x, y), word, SMALL, DIM, "lm") + 12
    heading = words("lastwill.image.tokens")
    entries = [(c, symbol_word(c, words)) for c in COMPANIONS]
    whole = _width(heading, SMALL, bold=True) + 20 + sum(15 + face.getlength(w) + 18 for _c, w in entries)
    if x + 12 + whole > X1:
        x = float(X0)
        y += LINE_H
    else:
        x += 12
    x += _text(image, (x, y), heading, SMALL, INK, "lm", bold=True) + 20
    for companion, word in entries:
        _token(image, draw, x, y, companion, words)
        x += 15 + _text(image, (x + 15, y), word, SMALL, DIM, "lm") + 18
    y += LINE_H
    x = float(X0)
    _tick(draw, x, y - 10)
    x += 28 + _text(image, (x + 28, y), words("lastwill.image.ticked"), SMALL, DIM, "lm") + 26
    sample = symbol_word("dog", words)
    sample_w = _width(sample, SMALL)
    box = (int(x), int(y - 11), int(x + sample_w + 30), int(y + 11))
    draw.rectangle(box, fill=COVER_BG, outline=LINE)
    kit.hatch(draw, (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), COVER_HATCH, step=6)
    _demotion_token(draw, x + 12, y)
    _text(image, (x + 24, y), sample, SMALL, DIM, "lm")
    draw.line((x + 22, y, x + 26 + sample_w, y), fill=INK, width=2)
    x = box[2] + 8
    x += _text(image, (x, y), words("lastwill.image.covered"), SMALL, DIM, "lm") + 26
    draw.rectangle((x, y - 10, x + 20, y + 10), outline=LAST, width=FRAME)
    x += 28 + _text(image, (x + 28, y), words("lastwill.image.framed"), SMALL, DIM, "lm") + 26
    draw.rectangle((x, y - 10, x + 20, y + 10), fill=TURN, outline=LINE)
    _text(image, (x + 28, y), words("lastwill.image.to_act"), SMALL, DIM, "lm")
    return image


legend_layer = kit.static_layer(_build_legend)


def clear_caches() -> None:
    """Forget every cached layer and sprite (tests use it to see a render from scratch)."""
    global table_layer, legend_layer
    table_layer = kit.static_layer(_build_table)
    legend_layer = kit.static_layer(_build_legend)
    for cached in (colours, kit.fit):
        cached.cache_clear()


# --- words ------------------------------------------------------------------------------------


def _who(names: Sequence[str], seat: object, width: int = 230) -> str:
    """Seat letter and name, the name cut to leave the rest of a status line room."""
    if isinstance(seat, int) and 0 <= seat < len(names):
        return f"{seat_letter(seat)} {kit.fit(names[seat], BODY, width)}"
    return "?"


def _card(card_id: object, words: kit.Words) -> str:
    """A card with its id, as the private messages tell copies apart ("Dinner [DIN1]")."""
    return words("lastwill.card_with_id", name=card_name(card_id, words), id=str(card_id))


def _cards(ids: object, words: kit.Words) -> str:
    if isinstance(ids, list):
        return " + ".join(card_name(c, words) for c in ids)
    return card_name(ids, words)


def _spent(last: Mapping[str, Any]) -> int:
    """What a play, an upkeep or an expense cost in all: its own pounds and its helpers' bonus."""
    return _int(last.get("money")) + _int(last.get("bonus"))


def last_move_text(view: View, names: Sequence[str], words: kit.Words) -> str:
    """The last public move in words ("C bought Town House [T2] for £13"); "" if none."""
    last = view.get("last")
    if not isinstance(last, Mapping):
        return ""
    seat = last.get("seat")
    params: dict[str, Any] = {"player": _who(names, seat, 140) if isinstance(seat, int) else ""}
    kind = str(last.get("kind", ""))
    card = last.get("card")
    if card:
        params["card"] = _card(card, words)
    key = kind
    if kind == "plan_chosen":
        params.update(
            pos=words.number(_int(last.get("pos"))),
            cards=words.count("lastwill.cards", _int(last.get("cards"))),
            boys=words.count("lastwill.boys", _int(last.get("boys"))),
            actions=words.count("lastwill.actions", _int(last.get("actions"))),
        )
    elif kind == "errand":
        space = str(last.get("space", ""))
        if space.startswith("slot"):
            params["slot"] = space[len("slot") :].upper()
            key = "slot_card" if card else "slot"
            params["card"] = card_name(card, words) if card else ""
        elif space.startswith("one-"):
            key = "one"
            params["deck"] = deck_info(space[len("one-") :], words)[0]
        elif space in ("opera", "ext", "demote", "demext", "market"):
            key = space
            params["money"] = money(words, _spent(last))
        else:
            key = "errand"
    elif kind == "market_swapped":
        types = [type_info(t, words)[0] for t in last.get("types") or []]
        params["types"] = words("host.and").join(types)
    elif kind in ("card_played", "maintained", "expense_used"):
        params["cards"] = _cards(last.get("cards"), words)
        params["money"] = money(words, _spent(last))
    elif kind in ("bought", "sold"):
        params["money"] = money(words, last.get("price"))
    elif kind == "token_placed":
        params["card"] = _card(last.get("target"), words)
        companion = str(last.get("companion"))
        params["companion"] = words(f"lastwill.companion.{companion}") if companion in COMPANIONS else "?"
    elif kind == "switched":
        params["type"] = words(f"lastwill.type.{last.get('type')}") if last.get("type") in TYPES else "?"
    elif kind == "demoted":
        params["symbol"] = symbol_word(last.get("symbol"), words)
        params["money"] = money(words, last.get("amount"))
    elif kind == "discards_revealed":
        key = "discards"
    elif kind not in ("laid", "dropped", "sacked", "bankrupt_declared"):
        key = "other"
    return words(f"lastwill.image.last.{key}", **params)


PENDING = ("with", "pay", "extra", "bpx", "target", "sale", "fair", "line", "dx", "pick")
"""Open choices the status line names (``lastwill.image.task.<kind>``); any other reads "a choice"."""
SOURCES = ("opera", "demote", "demext")
"""Errand spaces that open a choice, named in the status line (``lastwill.image.source.<space>``)."""


def status_lines(view: View, names: Sequence[str], words: kit.Words) -> tuple[str, str]:
    """(who acts and what for, a second line: budget, pending choice or discards owed)."""
    phase = str(view.get("phase", ""))
    turn = view.get("turn")
    players = view.get("players") or []
    result = view.get("result")
    status = "lastwill.image.status"
    if phase == "over" and isinstance(result, Mapping):
        if result.get("nobody_wins"):
            return words(f"{status}.nobody"), ""
        winners = [_who(names, s) for s in result.get("winners") or []]
        won = words.count(f"{status}.won", len(winners), players=words("host.and").join(winners))
        return won, words(f"{status}.least")
    pending = view.get("pending")
    if isinstance(pending, Mapping):
        source = str(pending.get("source") or "")
        if source in SOURCES:
            card = words(f"lastwill.image.source.{source}")
        else:
            card = " + ".join(card_name(c, words) for c in source.split(".") if c)
        kind = str(pending.get("kind"))
        task = words(f"lastwill.image.task.{kind if kind in PENDING else 'other'}", card=card)
        who = _who(names, pending.get("seat"))
        if kind == "with" and pending.get("money"):
            return words(
                f"{status}.pending_paid", player=who, task=task, money=money(words, pending["money"])
            ), ""
        return words(f"{status}.pending", player=who, task=task), ""
    if phase == "discard":
        owed = ", ".join(
            f"{seat_letter(p['seat'])} {words.number(_int(p.get('discard_owed')))}"
            for p in players
            if p.get("discard_owed")
        )
        why = "keep" if view.get("discard_for") == "keep" else "limit"
        return words(f"{status}.discard_{why}", owed=owed), words(f"{status}.hidden")
    if phase == "pick":
        return words(f"{status}.pick", player=_who(names, 0)), ""
    who = _who(names, turn)
    if phase == "planning":
        return words(f"{status}.planning", player=who), ""
    if phase == "drawing":
        plan = next((p for p in view.get("plans") or [] if p.get("seat") == turn), None)
        if plan is None:
            return words(f"{status}.drawing_any", player=who), ""
        return words(
            f"{status}.drawing", player=who, cards=words.count("lastwill.cards", _int(plan.get("cards")))
        ), ""
    if phase == "errands":
        return words(
            f"{status}.errands", player=who, **{"pass": words.number(_int(view.get("errand_pass")))}
        ), ""
    if phase == "actions":
        budget = view.get("budget") or {}
        parts = [words.count(f"{status}.left", _int(budget.get("actions")))]
        if budget.get("valet"):
            parts.append(words.count(f"{status}.valet", _int(budget.get("valet"))))
        for key, n in (budget.get("free") or {}).items():
            if n and str(key) in FREE_ACTIONS:
                parts.append(words.count(f"lastwill.turn.free.{str(key).replace(':', '_')}", _int(n)))
        return words(f"{status}.actions", player=who), ", ".join(parts)
    return who, ""


FREE_ACTIONS = frozenset({"buy_or_sell:farm", "buy_or_sell:non_farm", "maintain:farm", "maintain:non_farm"})
"""A budget's free actions, the engine's ``kind:scope``: each is counted as the messages count a
turn's free actions, ``lastwill.turn.free.<kind>_<scope>``."""


# --- the changing parts -----------------------------------------------------------------------


class Canvas:
    """The image being drawn, the table's words, and the box of everything the last move may
    point at."""

    def __init__(self, image: Image.Image, words: kit.Words) -> None:
        self.image = image
        self.draw = ImageDraw.Draw(image)
        self.words = words
        self.places: dict[tuple[Any, ...], Box] = {}


def _title(c: Canvas, view: View) -> None:
    image, draw, words = c.image, c.draw, c.words
    current = _int(view.get("round"))
    rounds = _int(view.get("rounds")) or data.ROUNDS
    x = X0 + kit.font(SMALL).getlength(words("lastwill.image.round")) + 10
    cell = 28
    top = (TITLE_H - cell) // 2
    for r in range(1, rounds + 1):
        box = (int(x), top, int(x + cell), top + cell)
        mid = (x + cell / 2, top + cell / 2 + 1)
        if r < current:
            draw.rectangle(box, fill=BAR, outline=BAR_DIM)
            _text(image, mid, str(r), SMALL, BAR_DIM, "mm")
        elif r == current:
            draw.rectangle(box, fill=TURN, outline=WHITE, width=2)
            _text(image, mid, str(r), BODY, INK, "mm", bold=True)
        else:
            draw.rectangle(box, fill=BAR, outline=WHITE)
            _text(image, mid, str(r), SMALL, WHITE, "mm")
        x += cell + 4
    x += 12
    start = view.get("start")
    if isinstance(start, int) and view.get("phase") != "over":
        x += _text(image, (x, TITLE_H / 2), words("lastwill.image.start"), SMALL, WHITE, "lm") + 8 + CHIP_R
        _chip(image, draw, x, TITLE_H / 2, start)
        x += CHIP_R
    phase = str(view.get("phase"))
    if phase == "errands":
        title = words(
            "lastwill.image.phase.errands_pass", **{"pass": words.number(_int(view.get("errand_pass")))}
        )
    elif phase == "discard" and view.get("discard_for") == "limit":
        title = words("lastwill.image.phase.limit")
    else:
        title = words(f"lastwill.image.phase.{phase}") if phase in PHASES else phase
    title = _fit(title, BIG, X1 - x - 12, bold=True)
    _text(image, (X1, TITLE_H / 2), title, BIG, WHITE, "rm", bold=True)


def _status(c: Canvas, view: View, names: Sequence[str]) -> None:
    """Line 1: who acts and for what (bold), then the details; line 2: the last move."""
    image, words = c.image, c.words
    first, second = status_lines(view, names, words)
    y = STATUS_TOP + 3 + LINE_H / 2
    x = float(X0)
    if view.get("phase") != "over":
        c.draw.rectangle((X0, y - 9, X0 + 6, y + 9), fill=TURN, outline=LINE)
        x += 14
    first = _fit(first, BODY, X1 - x, bold=True)
    x += _text(image, (x, y + 1), first, BODY, INK, "lm", bold=True) + 12
    if second and X1 - x > 120:
        _text(image, (x, y + 1), _fit(second, SMALL, X1 - x), SMALL, DIM, "lm")
    y += LINE_H
    last = last_move_text(view, names, words)
    if last:
        head = words("lastwill.image.last_head")
        _text(image, (X0, y + 1), head, SMALL, LAST, "lm", bold=True)
        lx = X0 + _width(head, SMALL, bold=True) + 10
        _text(image, (lx, y + 1), _fit(last, SMALL, X1 - lx), SMALL, INK, "lm")


def _plans(c: Canvas, view: View) -> None:
    image, draw = c.image, c.draw
    top = PLANS_TOP
    present = set()
    for plan in view.get("plans") or []:
        pos = _int(plan.get("pos"))
        if not 1 <= pos <= PLAN_COLS:
            continue
        present.add(pos)
        x0, y0, x1, y1 = plan_box(pos)
        c.places[("plan", pos)] = (x0, y0, x1, y1)
        cx = (x0 + x1) / 2
        with kit.panel(image, f"plan {pos}", (x0, y0, x1, y1)):
            for row, key in enumerate(("cards", "boys", "actions")):
                y = top + PLAN_HEAD + row * PLAN_ROW + PLAN_ROW / 2 + 1
                _text(image, (cx, y), str(plan.get(key, "")), BODY, INK, "mm", bold=key == "boys")
            seat = plan.get("seat")
            if isinstance(seat, int):
                draw.ellipse((x1 - 36, top + 2, x1 - 10, top + PLAN_HEAD - 2), fill=WHITE)
                _chip(image, draw, x1 - 23, top + PLAN_HEAD / 2, seat)
    for pos in range(1, PLAN_COLS + 1):
        if pos not in present:
            x0, y0, x1, y1 = plan_box(pos)
            box = (x0 + 1, y0 + PLAN_HEAD + 1, x1 - 1, y1 - 1)
            draw.rectangle(box, fill=PAST)
            kit.hatch(draw, box, COVER_HATCH, step=8)


def _errands(c: Canvas, view: View) -> None:
    image = c.image
    spaces = {str(e.get("space")): e for e in view.get("errands") or []}
    for space in ERRAND_ORDER:
        box = errand_box(space)
        c.places[("errand", space)] = box
        with kit.panel(image, f"errand {space}", box):
            _errand(c, view, space, spaces.get(space))


def _errand(c: Canvas, view: View, space: str, entry: Mapping[str, Any] | None) -> None:
    """One errand space: its boys' chips and an empty ring per free place, or hatched if not in play."""
    image, draw, words = c.image, c.draw, c.words
    x0, y0, x1, y1 = errand_box(space)
    cy = y0 + 37
    if entry is None:
        inner = (x0 + 1, y0 + 26, x1 - 1, y1 - 1)
        kit.hatch(draw, inner, COVER_HATCH, step=8)
        _text(
            image,
            (x0 + 7, cy),
            _fit(words("lastwill.image.not_in_play"), SMALL, x1 - x0 - 12),
            SMALL,
            DIM,
            "lm",
        )
        return
    boys = [int(b) for b in entry.get("boys") or [] if isinstance(b, int)]
    capacity = entry.get("capacity")
    places = len(boys) if capacity is None else max(int(capacity), len(boys))
    x = x0 + 7 + CHIP_R
    pitch = 2 * CHIP_R + 5 if places <= 5 else (x1 - x0 - 14 - 2 * CHIP_R) / max(1, places - 1)
    for i in range(places):
        if i < len(boys):
            _chip(image, draw, x + i * pitch, cy, boys[i])
        else:
            _ring(draw, x + i * pitch, cy)
    if space == "ext":
        left = words.count("lastwill.image.ext_left", _int(view.get("extensions_left")))
        room = x1 - 6 - (x + (places - 1) * pitch + CHIP_R + 4) if places else x1 - x0 - 12
        _text(image, (x1 - 6, cy), _fit(left, SMALL, room), SMALL, DIM, "rm")
    if capacity is None and not boys:
        _text(
            image,
            (x0 + 7, cy),
            _fit(words("lastwill.image.anyone"), SMALL, x1 - x0 - 12),
            SMALL,
            DIM,
            "lm",
        )


def _market(c: Canvas, view: View) -> None:
    image, draw, words = c.image, c.draw, c.words
    market = view.get("market") or {}
    for kind in TYPES:
        word, fill = type_info(kind, words)
        x0, y0, x1, y1 = market_box(kind)
        draw.rectangle((x0, y0, x0 + 16, y1), fill=fill, outline=LINE)
        value = market.get(kind)
        tag = signed(value) if isinstance(value, int) else "?"
        tw = _width(tag, BODY, bold=True) + 10
        word = _fit(word, SMALL, x1 - x0 - 28 - tw)
        _text(image, (x0 + 24, (y0 + y1) / 2 + 1), word, SMALL, INK, "lm")
        tx = x0 + 28 + kit.font(SMALL).getlength(word)
        draw.rectangle((tx, y0, tx + tw, y1), fill=WHITE, outline=LINE)
        _text(image, (tx + tw / 2, (y0 + y1) / 2 + 1), tag, BODY, INK, "mm", bold=True)
        c.places[("market", kind)] = (x0, y0, int(tx + tw), y1)
    c.places[("market",)] = (market_box("farm")[0], MARKET_TOP + 2, X1, MARKET_TOP + MARKET_H - 2)


def _decks_line(c: Canvas, view: View) -> None:
    """The sizes of the four regular decks (what the drawing phase and "draw one" draw from)."""
    words = c.words
    decks = view.get("decks") or {}
    parts = [
        words(
            "lastwill.image.deck_size",
            deck=deck_info(deck, words)[0],
            count=words.number(_int(decks.get(deck))),
        )
        for deck in ("property", "event", "helper", "companion")
    ]
    text = words("lastwill.image.decks", decks=", ".join(parts))
    offering = _width(_fit(words("lastwill.image.offering"), SMALL, 260, bold=True), SMALL, bold=True)
    room = X1 - X0 - offering - 16
    _text(c.image, (X1, OFFER_TOP + OFFER_HEAD / 2 - 2), _fit(text, SMALL, room), SMALL, DIM, "rm")


def card_stats(card_id: object, words: kit.Words, width: float = TILE_W - 8) -> str:
    """A card's numbers as an offering tile writes them: symbol codes, actions and pounds.

    A card whose line would not fit ``width`` (Wedding WD2 shows four symbols) drops its action
    count, then puts its pounds first, so what is cut is the end of its symbols."""
    card = data.CARDS.get(str(card_id))
    if card is None:
        return ""
    shown = symbols(card_id, words)
    stats = "lastwill.image.stats"
    if isinstance(card, data.PropertyCard):
        price, upkeep = money(words, card.track[0]), money(words, card.upkeep)
        for key in ("price", "price_short"):
            text = words(f"{stats}.{key}", money=price, upkeep=upkeep)
            if _width(text, SMALL) <= width:
                return text
        return text
    if isinstance(card, data.CompanionCard):
        return words(f"{stats}.any_companion") if card.companion is None else shown
    if isinstance(card, data.EventCard):
        if card.ball:
            acts = words(
                f"{stats}.acts_range",
                low=words.number(card.ball[0].actions),
                high=words.number(card.ball[-1].actions),
            )
            cash = words(f"{stats}.from", money=money(words, card.ball[0].money))
        else:
            acts = words(f"{stats}.acts", count=words.number(card.actions))
            cash = money(words, card.money)
    else:
        expense = card.expense
        acts = words(f"{stats}.acts", count=words.number(card.lay_actions))
        cash = (
            words(f"{stats}.expense", money=money(words, expense.amount))
            if expense is not None and expense.formula is None
            else ""
        )
    for text in (f"{shown} {acts} {cash}", f"{shown} {cash}", f"{cash} {shown}"):
        if _width(text.strip(), SMALL) <= width:
            return text.strip()
    return f"{cash} {shown}".strip()


def _offering(c: Canvas, view: View) -> None:
    """A tile per slot: a band in the deck's colour with the slot and the card's name (the deck's
    name while the slot is empty), then the card's numbers, or the chip of the boy who took it."""
    image = c.image
    for i, slot in enumerate((view.get("offering") or [])[: 5 * OFFER_ROWS]):
        box = offer_box(i)
        label = str(slot.get("slot", "?"))
        c.places[("slot", label.lower())] = box
        with kit.panel(image, f"offering slot {label}", box):
            _offer_tile(c, slot, box)


def _offer_tile(c: Canvas, slot: Mapping[str, Any], box: Box) -> None:
    """One slot of the offering: its band (slot label, card or deck name), then the card's numbers
    or the chip of the boy who took it."""
    image, draw, words = c.image, c.draw, c.words
    label = str(slot.get("slot", "?"))
    x0, y0, x1, y1 = box
    word, fill = deck_info(slot.get("deck"), words)
    card = slot.get("card")
    boy = slot.get("boy")
    draw.rectangle((x0, y0, x1, y1), fill=WHITE if card else PAST, outline=LINE)
    draw.rectangle((x0, y0, x1, y0 + 24), fill=fill, outline=LINE)
    ink = kit.text_colour(fill)
    _text(image, (x0 + 6, y0 + 13), label, BODY, ink, "lm", bold=True)
    lx = x0 + 6 + _width(label, BODY, bold=True) + 9
    title = short_name(card, words) if card else word
    _text(
        image,
        (lx, y0 + 13),
        _fit(title, SMALL, x1 - lx - 3, bool(card)),
        SMALL,
        ink,
        "lm",
        bold=bool(card),
    )
    cy = y0 + 37
    if card:
        _text(image, (x0 + 5, cy), _fit(card_stats(card, words), SMALL, TILE_W - 8), SMALL, INK, "lm")
    elif isinstance(boy, int):
        taken = _fit(words("lastwill.image.taken_by"), SMALL, TILE_W - 16 - 2 * CHIP_R)
        tw = _text(image, (x0 + 6, cy), taken, SMALL, DIM, "lm")
        _chip(image, draw, x0 + 16 + tw + CHIP_R, cy, boy, r=CHIP_R - 1)
    elif slot.get("deck"):
        _text(image, (x0 + 6, cy), words("lastwill.image.empty"), SMALL, DIM, "lm")


# --- the players ------------------------------------------------------------------------------


def _rows(player: Mapping[str, Any]) -> list[int]:
    """Height of each row of the player's board: tile rows for the cards, free spaces after them.

    Free spaces take the columns left in the last row (the last one says "+3 free" when there
    are more than columns); a board with no card is one low row of free spaces.
    """
    cards = len(player.get("board") or [])
    if not cards:
        return [FREE_H]
    return [TILE_H] * -(-cards // PER_ROW)


def block_height(player: Mapping[str, Any]) -> int:
    return HEAD_H + JOB_H + sum(h + ROW_GAP for h in _rows(player)) + BLOCK_GAP


def _acting(view: View) -> set[int]:
    if view.get("phase") == "over":
        return set()
    found = {int(s) for s in view.get("waiting") or [] if isinstance(s, int)}
    if isinstance(view.get("turn"), int):
        found.add(int(view["turn"]))
    return found


def _stats(view: View, player: Mapping[str, Any], words: kit.Words) -> list[str]:
    """The small facts after a player's name: hand size (and limit), plan and boys while they
    matter, extensions, free spaces past a full row; at the end, what the end added."""
    seat = _int(player.get("seat"))
    if view.get("phase") == "over" and isinstance(view.get("result"), Mapping):
        return final_parts(view, seat, words)
    head = "lastwill.image.head"
    hand = words.number(_int(player.get("hand")))
    limit = _int(player.get("hand_limit")) or data.HAND_LIMIT
    if limit != data.HAND_LIMIT:
        stats = [words(f"{head}.hand_limit", count=hand, limit=words.number(limit))]
    else:
        stats = [words(f"{head}.hand", count=hand)]
    if view.get("phase") in ("planning", "drawing", "errands") and player.get("plan"):
        stats.append(words(f"{head}.plan", pos=words.number(_int(player.get("plan")))))
        stats.append(words(f"{head}.boys", count=words.number(_int(player.get("boys_left")))))
    if player.get("extensions"):
        stats.append(words(f"{head}.ext", count=words.number(_int(player.get("extensions")))))
    cards = len(player.get("board") or [])
    free = _int(player.get("free_spaces"))
    if cards and cards % PER_ROW == 0 and free:
        stats.append(words.count(f"{head}.free", free))
    return stats


def _player_head(c: Canvas, view: View, player: Mapping[str, Any], name: str, y: int, acting: bool) -> None:
    image, draw, words = c.image, c.draw, c.words
    seat = _int(player.get("seat"))
    cy = y + HEAD_H / 2
    if acting:
        draw.rectangle((X0 - 8, y + 2, X0 - 3, y + HEAD_H + JOB_H - 2), fill=TURN, outline=LINE)
    _chip(image, draw, X0 + CHIP_R + 1, cy, seat, r=CHIP_R + 2)
    right = float(X1)
    result = view.get("result")
    over = view.get("phase") == "over" and isinstance(result, Mapping)
    cash = money(words, player.get("money"))
    right -= _text(image, (right, cy + 1), cash, BIG, INK, "rm", bold=True) + 14
    for text in reversed(_stats(view, player, words)):
        right -= _width(text, SMALL)
        _text(image, (right, cy + 1), text, SMALL, DIM, "lm")
        right -= 14
    tags: list[tuple[str, Colour]] = []
    if isinstance(result, Mapping) and over:
        ranks = result.get("ranks") or []
        if seat < len(ranks) and isinstance(ranks[seat], int):
            place = int(ranks[seat])
            if 1 <= place <= data.MAX_PLAYERS:
                tags.append((words(f"lastwill.image.head.place_{place}"), TURN))
    if player.get("bankrupt"):
        tags.append((words("lastwill.image.head.bankrupt"), SACK))
    if acting:
        owed = _int(player.get("discard_owed"))
        tag = (
            words("lastwill.image.head.discard", count=words.number(owed))
            if owed
            else words("lastwill.image.to_act")
        )
        tags.append((tag, TURN))
    for text, fill in tags:
        tw = _width(text, SMALL, bold=True) + 12
        right -= tw
        draw.rounded_rectangle((right, cy - 11, right + tw, cy + 11), radius=5, fill=fill, outline=LINE)
        _text(image, (right + tw / 2, cy + 1), text, SMALL, kit.text_colour(fill), "mm", bold=True)
        right -= 10
    nx = X0 + 2 * CHIP_R + 12
    _text(image, (nx, cy + 1), kit.fit(name, BODY, right - nx, bold=True), BODY, INK, "lm", bold=True)
    c.places[("player", seat)] = (X0 - 2, y + 1, X1 + 2, y + HEAD_H - 1)


def _job(c: Canvas, view: View, player: Mapping[str, Any], y: int) -> None:
    image, draw, words = c.image, c.draw, c.words
    seat = _int(player.get("seat"))
    cy = y + JOB_H / 2
    x = float(X0 + 2)
    job = player.get("employment")
    c.places[("job", seat)] = (X0 - 2, y, X1 + 2, y + JOB_H - 2)
    if player.get("sacked"):
        text = words("lastwill.image.job.sacked")
        tw = _width(text, SMALL, bold=True) + 14
        draw.rectangle((x, cy - 12, x + tw, cy + 12), fill=SACK, outline=LINE)
        _text(image, (x + tw / 2, cy + 1), text, SMALL, WHITE, "mm", bold=True)
        x += tw + 10
        no_job = _fit(words("lastwill.image.job.no_job"), SMALL, X1 - x)
        x += _text(image, (x, cy + 1), no_job, SMALL, DIM, "lm") + 12
    elif not isinstance(job, Mapping):
        x += _text(image, (x, cy + 1), words("lastwill.image.job.no_card"), SMALL, DIM, "lm") + 12
    else:
        income = money(words, job.get("income"))
        head = words("lastwill.image.job.head", job=job_name(job.get("id"), words), money=income)
        lines = job.get("lines") or []
        chips = [
            words(
                "lastwill.image.job.line",
                symbol=symbol_word(line.get("symbol"), words),
                money=money(words, line.get("money")),
            )
            for line in lines
        ]
        chip_w = [_width(t, SMALL) + 14 for t in chips]
        room = X1 - x - sum(chip_w) - 6 * len(chips) - 8
        if _width(head, SMALL, bold=True) > room:
            head = words("lastwill.image.job.income", money=income)
        x += _text(image, (x, cy + 1), head, SMALL, INK, "lm", bold=True) + 8
        for i, (line, text, w) in enumerate(zip(lines, chips, chip_w, strict=True)):
            box = (int(x), int(cy - 12), int(x + w + (14 if line.get("covered") else 0)), int(cy + 12))
            if line.get("covered"):
                draw.rectangle(box, fill=COVER_BG, outline=LINE)
                kit.hatch(draw, (box[0] + 1, box[1] + 1, box[2] - 1, box[3] - 1), COVER_HATCH, step=6)
                _demotion_token(draw, x + 11, cy)
                tw = _text(image, (x + 23, cy + 1), text, SMALL, DIM, "lm")
                draw.line((x + 21, cy + 1, x + 25 + tw, cy + 1), fill=INK, width=2)
            else:
                draw.rectangle(box, fill=WHITE, outline=LINE)
                _text(image, (x + 7, cy + 1), text, SMALL, INK, "lm")
            c.places[("line", seat, i)] = box
            x = box[2] + 6
        x += 4
    if player.get("demoted") and view.get("phase") != "over":
        note = words("lastwill.image.job.demoted")
        if _width(note, SMALL) > X1 - x:
            note = words("lastwill.image.job.demoted_short")
        if _width(note, SMALL) <= X1 - x:
            _text(image, (x, cy + 1), note, SMALL, DIM, "lm")


def final_parts(view: View, seat: int, words: kit.Words) -> list[str]:
    """What the end added to a seat's money: final income, property value, the penalty."""
    result = view.get("result")
    if not isinstance(result, Mapping):
        return []
    breakdown = result.get("breakdown") or []
    if not (seat < len(breakdown) and isinstance(breakdown[seat], Mapping)):
        return []
    b = breakdown[seat]
    return [
        words(f"lastwill.image.final.{key}", money=money(words, b.get(key)))
        for key in ("income", "property", "penalty")
        if b.get(key)
    ]


def _track(
    image: Image.Image, draw: ImageDraw.ImageDraw, x: float, y: float, values: list[int], step: int
) -> None:
    """The value track: past steps struck on grey, the current one inverted, later ones plain."""
    n = max(1, len(values))
    cell = min(34.0, (TILE_W - 10) / n)
    for i, value in enumerate(values):
        x0 = x + i * cell
        box = (round(x0), round(y), round(x0 + cell) - 2, round(y + 22))
        text = str(value)
        cx = (box[0] + box[2]) / 2
        if i < step:
            draw.rectangle(box, fill=PAST)
            _text(image, (cx, y + 12), text, SMALL, PAST_TEXT, "mm")
            draw.line((box[0] + 2, y + 11, box[2] - 2, y + 11), fill=PAST_TEXT, width=1)
        elif i == step:
            draw.rectangle(box, fill=INK)
            _text(image, (cx, y + 12), text, SMALL, WHITE, "mm", bold=True)
        else:
            draw.rectangle(box, fill=WHITE, outline=EDGE)
            _text(image, (cx, y + 12), text, SMALL, INK, "mm")


def _tile(c: Canvas, item: Mapping[str, Any], box: Box) -> None:
    image, draw, words = c.image, c.draw, c.words
    x0, y0, x1, _y1 = box
    card_id = str(item.get("id", ""))
    record = data.CARDS.get(card_id)
    draw.rectangle(box, fill=WHITE, outline=LINE)
    tokens = [str(t) for t in item.get("tokens") or []]
    if item.get("kind") == "property":
        kind = str(item.get("type"))
        word, fill = type_info(kind, words)
        draw.rectangle((x0, y0, x1, y0 + 24), fill=fill, outline=LINE)
        ink = kit.text_colour(fill)
        _text(image, (x1 - 5, y0 + 13), card_id, SMALL, ink, "rm")
        room = TILE_W - kit.font(SMALL).getlength(card_id) - 20
        if isinstance(record, data.PropertyCard) and len(record.types) > 1:
            # A dual property: its current type, then the other one ("Town/Man.").
            others = [type_short(t.value, words) for t in record.types if t.value != kind]
            word = "/".join([word, *others])
            if _width(word, SMALL, bold=True) + 1 > room:
                word = "/".join([type_short(kind, words), *others])
        _text(image, (x0 + 5, y0 + 13), kit.fit(word, SMALL, room, bold=True), SMALL, ink, "lm", bold=True)
        values = [_int(v) for v in item.get("values") or []]
        _track(image, draw, x0 + 5, y0 + 27, values, _int(item.get("step")))
        upkeep = money(words, item.get("upkeep"))
        text = words("lastwill.image.tile.upkeep", money=upkeep)
        room = TILE_W - 18 - TOKEN_PITCH * len(tokens) - (26 if item.get("maintained") else 0)
        if _width(text, SMALL) > room:
            text = words("lastwill.image.tile.upkeep_short", money=upkeep)
        tx = x0 + 6 + _text(image, (x0 + 6, y0 + 61), text, SMALL, INK, "lm") + 8
        if item.get("maintained"):
            _tick(draw, x1 - 25, y0 + 50)
    else:
        deck = record.deck.value if record is not None else "helper"
        _word, fill = deck_info(deck, words)
        draw.rectangle((x0, y0, x1, y0 + 24), fill=fill, outline=LINE)
        ink = kit.text_colour(fill)
        _text(
            image,
            (x0 + 6, y0 + 13),
            kit.fit(short_name(card_id, words), SMALL, TILE_W - 12, bold=True),
            SMALL,
            ink,
            "lm",
            bold=True,
        )
        shown = symbols(card_id, words)
        _text(image, (x0 + 6, y0 + 37), card_id, SMALL, DIM, "lm")
        if shown:
            _text(image, (x1 - 6, y0 + 37), shown, SMALL, INK, "rm", bold=True)
        tx = x0 + 6
        expense = item.get("expense")
        if isinstance(expense, int):
            text = words("lastwill.image.stats.expense", money=money(words, expense))
            tx += _text(image, (tx, y0 + 61), text, SMALL, INK, "lm") + 14
        if item.get("used"):
            _tick(draw, x1 - 25, y0 + 50)
    done = bool(item.get("maintained") or item.get("used"))
    for token in tokens:
        if tx + 2 * TOKEN_R > x1 - (28 if done else 4):
            break
        _token(image, draw, tx + TOKEN_R, y0 + 61, token, words)
        tx += TOKEN_PITCH


def _board(c: Canvas, player: Mapping[str, Any], y: int) -> int:
    image, draw, words = c.image, c.draw, c.words
    seat = _int(player.get("seat"))
    board = list(player.get("board") or [])
    free = max(0, _int(player.get("free_spaces")))
    heights = _rows(player)
    cols_left = len(heights) * PER_ROW - len(board)
    for i, item in enumerate(board):
        row, col = divmod(i, PER_ROW)
        x = X0 + col * TILE_PITCH
        top = y + sum(h + ROW_GAP for h in heights[:row])
        box = (x, top, x + TILE_W, top + TILE_H)
        with kit.panel(image, f"player {seat_letter(seat)}'s card {item.get('id')}", box):
            _tile(c, item, box)
        c.places[("card", seat, str(item.get("id")))] = box
    shown = min(free, cols_left)
    top = y + sum(h + ROW_GAP for h in heights[:-1])
    h = heights[-1]
    for j in range(shown):
        col = (len(board) + j) % PER_ROW
        x = X0 + col * TILE_PITCH
        box = (x, top, x + TILE_W, top + h)
        draw.rectangle(box, fill=PAPER, outline=FREE_EDGE)
        more = free - shown + 1
        if j == shown - 1 and more > 1:
            text = words("lastwill.image.tile.more_free", count=words.number(more))
        else:
            text = words("lastwill.image.tile.free")
        with kit.panel(image, f"player {seat_letter(seat)}'s free space", box):
            _text(image, (x + TILE_W / 2, top + h / 2 + 1), text, SMALL, DIM, "mm")
    return y + sum(h + ROW_GAP for h in heights)


def _players(c: Canvas, view: View, names: Sequence[str]) -> None:
    acting = _acting(view)
    y = PLAYERS_TOP
    for player in view.get("players") or []:
        seat = _int(player.get("seat"))
        c.draw.line((X0, y, X1, y), fill=EDGE, width=2)
        y += 2
        name = names[seat] if seat < len(names) else c.words("host.image.seat", number=seat + 1)
        with kit.panel(c.image, f"player {seat_letter(seat)}'s head", (X0, y, X1, y + HEAD_H)):
            _player_head(c, view, player, name, y, seat in acting)
        with kit.panel(
            c.image, f"player {seat_letter(seat)}'s job", (X0, y + HEAD_H, X1, y + HEAD_H + JOB_H)
        ):
            _job(c, view, player, y + HEAD_H)
        y = _board(c, player, y + HEAD_H + JOB_H) + BLOCK_GAP - 2


def highlight_boxes(view: View, places: Mapping[tuple[Any, ...], Box]) -> list[Box]:
    """Where the last move changed the table: none for discards, two tokens for a market swap."""
    last = view.get("last")
    if isinstance(last, Mapping) and last.get("kind") == "market_swapped":
        found = [places[("market", str(t))] for t in last.get("types") or [] if ("market", str(t)) in places]
        return found or [places[("market",)]]
    box = _highlight(view, places)
    return [] if box is None else [box]


def _highlight(view: View, places: Mapping[tuple[Any, ...], Box]) -> Box | None:
    last = view.get("last")
    if not isinstance(last, Mapping):
        return None
    kind = str(last.get("kind", ""))
    seat = last.get("seat")
    if kind == "plan_chosen":
        return places.get(("plan", last.get("pos")))
    if kind == "errand":
        space = str(last.get("space", ""))
        if space.startswith("slot"):
            return places.get(("slot", space[4:].lower()))
        if space.startswith("one-"):
            return places.get(("errand", "one"))
        return places.get(("errand", space))
    if kind in ("laid", "bought", "maintained", "expense_used", "switched"):
        return places.get(("card", seat, str(last.get("card")))) or places.get(("player", seat))
    if kind == "token_placed":
        return places.get(("card", seat, str(last.get("target")))) or places.get(("player", seat))
    if kind == "demoted":
        return places.get(("line", seat, last.get("line"))) or places.get(("job", seat))
    if kind == "sacked":
        return places.get(("job", seat))
    if kind in ("card_played", "sold", "dropped", "bankrupt_declared"):
        return places.get(("player", seat))
    return None


def height(view: View) -> int:
    return PLAYERS_TOP + sum(block_height(p) for p in view.get("players") or []) + LEGEND_H


def _draw(view: View, names: Sequence[str], words: kit.Words) -> tuple[Canvas, list[Box]]:
    players = view.get("players") or []
    shown = kit.player_names(names, len(players), words)
    total = height(view)
    image = Image.new("RGB", (W, total), PAPER)
    kit.paste(image, table_layer(words), (0, 0))
    with kit.panel(image, "legend", (0, total - LEGEND_H, W, total)):
        kit.paste(image, legend_layer(words), (0, total - LEGEND_H))
    c = Canvas(image, words)
    with kit.panel(image, "title bar", TITLE_BOX):
        _title(c, view)
    with kit.panel(image, "status", STATUS_BOX):
        _status(c, view, shown)
    _plans(c, view)
    _errands(c, view)
    with kit.panel(image, "market", MARKET_BOX):
        _market(c, view)
    with kit.panel(image, "offering's head", OFFER_HEAD_BOX):
        _decks_line(c, view)
    _offering(c, view)
    _players(c, view, shown)
    boxes = highlight_boxes(view, c.places)
    for box in boxes:
        _frame(c.draw, box, total)
    return c, boxes


def draw_board(view: View, names: Sequence[str], words: kit.Words) -> Image.Image:
    """The whole table as an RGB image (``render`` encodes it)."""
    return _draw(view, names, words)[0].image


def last_move_boxes(view: View, names: Sequence[str], words: kit.Words) -> list[Box]:
    """The boxes the last move's magenta frames surround (for tests and previews)."""
    return _draw(view, names, words)[1]


def render(view: View, names: Sequence[str], words: kit.Words) -> bytes:
    """The table as one PNG, :data:`W` px wide, from the public view and the names."""
    return kit.png(draw_board(view, names, words), colours())
