"""California: every number of the box and every ruling, in one place.

Source: ``shared/components/california.md``.  Each value is marked as in that
page: **rulebook** (stated by the rulebook), **public** (independent reviews
agree) or **chosen** (nothing public settles it; our decision).  A host who
owns the box can correct a number here without touching the engine.

Colours are indices ``0..5`` into :data:`COLOURS` everywhere in the engine.
Ground-floor spaces are ``0..15``, row by row from the top left
(``space = row * 4 + column``, both 0-based).
"""

from __future__ import annotations

MIN_PLAYERS, MAX_PLAYERS = 2, 5  # rulebook

# --- colours, rooms and furniture -------------------------------------------

COLOURS = ("brown", "red", "purple", "gray", "blue", "green")
"""Short keys used in views, events and refusals: the tokens the catalog names.

What each colour is called, its room and its furniture are words, so they live in the catalog
(``california.colour``, ``california.room_type``, ``california.furniture`` in ``bot/locales``):
light brown = billiard room, pool table; red = music room, grand piano; purple = game room,
pinball machine; gray = garage, motorcycle; light blue = pool house, swimming pool; green =
conservatory, dog.  Pool table = light brown and pinball machine = purple: rulebook (examples);
red = music room and green = conservatory: rulebook (French edition); the rest follow the bonus
cards: public.
"""

BROWN, RED, PURPLE, GRAY, BLUE, GREEN = range(6)

# --- tiles (rulebook: 88 in total; the mix is chosen) ------------------------

ROOMS_PER_COLOUR = 8  # chosen: 6 x 8 = 48 room tiles
FURNITURE_PER_COLOUR = 6  # chosen: 6 x 6 = 36 furniture tiles
EXPANSIONS = 4  # chosen: 4 attic expansions
TILE_COUNT = 88  # rulebook

STORES = 2  # rulebook: one board depicting two stores
STORE_SLOTS = 4  # rulebook: eight spaces on the stores board

# --- money (rulebook) ---------------------------------------------------------

GOLD = 5  # one gold coin is worth five silver
START_MONEY = GOLD + 1  # one gold and one silver coin each
BANK_SPACES = 4  # a gold coin on each of the four round spaces of the bank
# Purchase price in silver = gold coins left in the bank (4, 3, 2 or 1).

LOAN_MARKERS = 5  # rulebook
LOAN_AMOUNT = 3  # rulebook: a loan brings three silver
LOAN_REPAYMENT = 4  # rulebook: repaying costs four silver
UNPAID_LOAN_PENALTY = 2  # rulebook: -2 points for a loan not repaid at the end

# --- guests, gifts, bonus cards -----------------------------------------------

GIFTS = 30  # rulebook; chosen: when they are gone, no more gifts are given
GIFT_THRESHOLD = 1  # rulebook: a new guest brings a gift if one other guest is there
GIFT_THRESHOLD_TWO_PLAYERS = 3  # rulebook: three others with two players

BONUS_CARDS: tuple[tuple[str, tuple[int, ...], int], ...] = (
    # (token, furniture needed per colour, points); the catalog's ``california.card.<token>`` names it.
    # rulebook: the six kinds; points are chosen (public: 2 or 3).
    ("three_brown", (3, 0, 0, 0, 0, 0), 3),  # three pool tables
    ("three_red", (0, 3, 0, 0, 0, 0), 3),  # three grand pianos
    ("three_purple", (0, 0, 3, 0, 0, 0), 3),  # three pinball machines
    ("three_gray", (0, 0, 0, 3, 0, 0), 3),  # three motorcycles
    ("three_blue", (0, 0, 0, 0, 3, 0), 3),  # three swimming pools
    ("three_green", (0, 0, 0, 0, 0, 3), 3),  # three dogs
    ("brown_red_purple", (1, 1, 1, 0, 0, 0), 2),  # one furniture of each
    ("gray_blue_green", (0, 0, 0, 1, 1, 1), 2),  # one furniture of each
    ("blue_red", (0, 1, 0, 0, 1, 0), 2),  # swimming pool and grand piano
    ("brown_green", (1, 0, 0, 0, 0, 1), 2),  # pool table and dog
    ("gray_purple", (0, 0, 1, 1, 0, 0), 2),  # motorcycle and pinball machine
)

# --- mansion boards -----------------------------------------------------------

ROWS = COLUMNS = 4
SPACES = ROWS * COLUMNS  # public: a 4 x 4 ground floor

BOARD_PRINTED_COLOURS = (RED, BROWN, PURPLE, GRAY, BLUE)
"""chosen: the pre-printed room of boards 1-5; seat ``i`` plays board ``i + 1``."""

PRINTED_SPACE = 12
"""chosen: the pre-printed room is on row 4, column 1 (bottom left)."""

FEES: dict[str, tuple[int, ...]] = {
    # chosen (public: 0, 1 or 2 silver; the 2-3 player side is dearer).
    # Same on every board; the printed room's space has no fee.
    "4-5": (
        1, 1, 2, 2,
        0, 1, 1, 2,
        0, 0, 1, 1,
        0, 0, 0, 1,
    ),
    "2-3": (
        1, 2, 2, 2,
        1, 1, 2, 2,
        0, 1, 1, 2,
        0, 0, 1, 1,
    ),
}  # fmt: skip

ATTIC_SPACES = 2  # rulebook: one printed space, a second once expanded

# --- days and the end -----------------------------------------------------------

DAYS = 12  # rulebook
END_BONUS_POINTS = 9  # rulebook: the game ends after the day a player reaches 9


def board_side(players: int) -> str:
    """Which side of the mansion boards lies face up (rulebook: by player count)."""
    return "2-3" if players <= 3 else "4-5"


def gift_threshold(players: int) -> int:
    """Guests a player must already have for a new one to bring a gift."""
    return GIFT_THRESHOLD_TWO_PLAYERS if players == 2 else GIFT_THRESHOLD


# --- rulings where the rulebook is terse (chosen), as players should read them --

RULINGS: tuple[tuple[str, str], ...] = (
    (
        "End conditions",
        "The nine bonus points and all-16-spaces endings apply at every player count. "
        "In every case the current day is finished, then the game is scored.",
    ),
    (
        "Scoring spaces",
        "1 point per mansion space holding at least one tile: ground-floor spaces "
        "(the pre-printed room always counts), the attic expansion space when expanded, and attic "
        "spaces holding furniture.",
    ),
    (
        "Loans",
        "Loans may be taken and repaid at any moment, also on another player's turn; one open "
        "loan per player; the 5 loan markers limit the table to 5 open loans. At game end an open loan "
        "is repaid automatically when the player has 4 silver; otherwise it costs 2 points.",
    ),
    (
        "Tile legality",
        "A tile that cannot be placed legally may not be bought. Furniture with no empty "
        "room of its colour needs a free attic space. The attic expansion needs the expansion space free.",
    ),
    (
        "Attic to room",
        "When a room of a colour is placed and furniture of that colour waits in the attic, "
        "the furniture moves in at once. This counts as furnishing: the guest visits and may bring a "
        "gift; bonus cards are checked.",
    ),
    (
        "Gift rule",
        "A new guest brings a gift if the player already has at least one other guest "
        "(three with two players). A guest already with the player brings nothing.",
    ),
    ("Gifts run out", "When the 30 gifts are gone, no more gifts are given."),
    (
        "Supply",
        "If the draw stack or the bag runs short when the stores are refilled, as many store "
        "spaces as possible are filled.",
    ),
    ("Tie-break", "Most money wins a tie; still tied, the place is shared."),
)
