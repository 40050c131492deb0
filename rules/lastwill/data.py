"""Last Will with Getting the Sack: every card, number and ruling of the components page.

Source: ``shared/components/lastwill.md``, which cites the expansion rulebook
(``shared/seeds/last-will-getting-the-sack.txt``). The base rulebook is not public, so every fact
carries the page's status: **rulebook** (the expansion rulebook states it), **public** (published
reviews or the fan-made simulator of the base game) or **chosen** (our decision where nothing
public settles it). Records carry the status in a ``mark`` field, with a ``note`` where one of
their facts differs; plain constants say it in a trailing comment; every chosen ruling also has a
key in :data:`CHOSEN_RULINGS`, whose sentence lives in the bot's catalog (``[lastwill.chosen]`` in
``bot/locales/en.toml``, so a translation words it too) and which ``/game rules lastwill`` shows to
players. The engine reads only these names, so a host who owns the box corrects a number here and
nowhere else.

Cards are named by short ids (``DIN1``, ``F3``, ``S2-BALL``, ``LW-4A``). An id is a valid
``rules.core.Action`` argument, so it travels in a custom_id as it is and the state stores ids,
not indices that would shift when a host corrects a deck. The page's own ids are kept (F1..F11,
T1..T4, M1..M4, X1..X5, N1..N6, ER1, ER2, WD1, WD2, WG1, WG2, BP1, BP2, SC1..SC5, LW-B1..LW-B7,
LW-4A..LW-5E); the others follow one scheme: a short name plus a copy number (``DIN1``,
``GAR2``), Boat Trips by their letter (``BOAT-A``), and special cards prefixed by ``S`` and their
crowns (``S3-HD1``: the first 3-crown Hectic Day), so a card's place in the crown stack shows in
its id.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, TypeAlias

from rules.core import OptionSpec

CardId: TypeAlias = str
"""A card's stable id (``DIN1``); also its token in actions, events and tests."""


# --- Closed sets ---------------------------------------------------------------------------


class Mark(StrEnum):
    """Where a fact comes from; the chosen ones are shown to players by ``/game rules``."""

    RULEBOOK = "rulebook"
    PUBLIC = "public"
    CHOSEN = "chosen"


class Deck(StrEnum):
    """The piles a card is dealt from; its discards go back to the same one (§2)."""

    PROPERTY = "property"
    EVENT = "event"
    HELPER = "helper"  # the Helpers & Expenses deck
    COMPANION = "companion"
    SPECIAL = "special"
    NEW_SPECIAL = "new_special"
    WILD = "wild"


class Border(StrEnum):
    """A card's border decides how it earns a demotion (§9): white when played, black when laid."""

    WHITE = "white"
    BLACK = "black"
    GREY = "grey"  # companion cards: they earn one only with a white or black card


class Symbol(StrEnum):
    """The upper-left symbols that employment lines match (§8)."""

    DINE = "dine"
    CARRIAGE = "carriage"
    MASK = "mask"
    HELM = "helm"
    PARTY = "party"
    RING = "ring"
    HELPER = "helper"
    DOG = "dog"
    HORSE = "horse"
    CHEF = "chef"
    GUEST = "guest"
    WILD = "wild"
    FARM = "farm"
    TOWN = "town"
    MANOR = "manor"
    MANSION = "mansion"
    TRAINING = "training"
    CLOCK = "clock"


class PropertyType(StrEnum):
    """Each type has its own market token and its own symbol colour."""

    FARM = "farm"
    TOWN = "town"
    MANOR = "manor"
    MANSION = "mansion"


class Companion(StrEnum):
    HORSE = "horse"
    DOG = "dog"
    CHEF = "chef"
    GUEST = "guest"


class Scope(StrEnum):
    """Which properties an Estate Agent or a Steward works on."""

    FARM = "farm"
    NON_FARM = "non_farm"


class Trade(StrEnum):
    BUY = "buy"
    SELL = "sell"


class FreeAction(StrEnum):
    """The kinds of free action a helper prints (§3.5); each is usable only for its kind."""

    BUY_OR_SELL = "buy_or_sell"
    MAINTAIN = "maintain"


class NuptialName(StrEnum):
    """The printed names a nuptial set compares: all different in one set (§7, §11.12)."""

    ENGAGEMENT_RING = "engagement_ring"
    WEDDING = "wedding"
    WEDDING_GIFT = "wedding_gift"
    BACHELOR_PARTY = "bachelor_party"


class EmploymentSet(StrEnum):
    """A new Last Will card names the set every employed player is dealt from."""

    FOUR = "4-line"
    FIVE = "5-line"


class EmploymentMode(StrEnum):
    """Values of the ``employment`` table option (§1)."""

    FULL = "full"
    NONE = "none"
    HANDICAP = "handicap"


class PlansMode(StrEnum):
    """Values of the ``plans`` table option (§1)."""

    TILES = "tiles"
    ORIGINAL = "original"


class Errand(StrEnum):
    """The kinds of errand space (§5)."""

    OFFERING = "offering"
    DRAW = "draw"
    OPERA = "opera"
    MARKET = "market"
    EXTENSION = "extension"
    DEMOTION = "demotion"
    DEMOTION_OR_EXTENSION = "demotion_or_extension"
    NEW_SPECIAL = "new_special"


class Board(StrEnum):
    """Where a space is drawn; the renderer groups spaces by board (§5, §6)."""

    PLANNING = "planning"
    OFFERING = "offering"
    SUPPLEMENTAL = "supplemental"  # the base game's supplemental offering board (3 or 5 players)
    NEW_SUPPLEMENTAL = "new_supplemental"  # the expansion's: slot X and the two demotion errands


# --- Players and table options (§1) -----------------------------------------------------------

MIN_PLAYERS: Final = 2  # public
MAX_PLAYERS: Final = 5  # public
LAST_WILL_RANDOM: Final = "random"  # rulebook: draw the Last Will card at random
END_PROPERTY_PENALTY_DEFAULT: Final = 0  # chosen
END_PROPERTY_PENALTY_MAX: Final = 100  # chosen (engine): a bound for the option parser only


@dataclass(frozen=True, slots=True, kw_only=True)
class TableOption:
    """One ``/game new`` option with its status; ``spec()`` is what the host parses with (what it
    does, for players, is the catalog's ``lastwill.option.<name>``).

    ``choices`` are lower case because ``OptionSpec.parse`` lower-cases what players type;
    a Last Will id therefore appears as ``lw-4a`` here and canonically as ``LW-4A`` elsewhere.
    """

    name: str
    default: str | int | bool
    mark: Mark
    choices: tuple[str, ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    note: str = ""

    def spec(self) -> OptionSpec:
        return OptionSpec(self.name, self.default, self.minimum, self.maximum, self.choices)


# --- Last Will cards (§11.7, §11.9) ------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class LastWillCard:
    """Starting money and, for the new cards, the employment set every employed player uses."""

    id: CardId
    money: int
    employment: EmploymentSet | None  # None: a base card, played without employment
    expansion: bool
    mark: Mark
    note: str = ""


def _last_wills() -> tuple[LastWillCard, ...]:
    base = tuple(
        LastWillCard(id=f"LW-B{i + 1}", money=money, employment=None, expansion=False, mark=Mark.PUBLIC)
        for i, money in enumerate((70, 80, 90, 100, 110, 120, 130))  # public; ids chosen
    )
    note = "values follow CGE's public prototype, filled in to ten cards (chosen); ids chosen"
    new = tuple(
        LastWillCard(
            id=f"LW-{lines}{letter}",
            money=money,
            employment=job_set,
            expansion=True,
            mark=Mark.CHOSEN,
            note=note,
        )
        for lines, job_set, moneys in (
            (4, EmploymentSet.FOUR, (50, 55, 60, 65, 70)),
            (5, EmploymentSet.FIVE, (60, 65, 70, 80, 90)),
        )
        for letter, money in zip("ABCDE", moneys, strict=True)
    )
    return base + new


LAST_WILL_CARDS: Final[tuple[LastWillCard, ...]] = _last_wills()
LAST_WILLS: Final[Mapping[CardId, LastWillCard]] = {card.id: card for card in LAST_WILL_CARDS}
BASE_LAST_WILLS: Final[tuple[CardId, ...]] = tuple(c.id for c in LAST_WILL_CARDS if not c.expansion)
NEW_LAST_WILLS: Final[tuple[CardId, ...]] = tuple(c.id for c in LAST_WILL_CARDS if c.expansion)
FIRST_GAME_LAST_WILL: Final[CardId] = "LW-B1"  # public: the base rules' card for a first game

OPTIONS: Final[tuple[TableOption, ...]] = (
    TableOption(
        name="expansion",
        default=True,
        mark=Mark.CHOSEN,
    ),
    TableOption(
        name="employment",
        default=EmploymentMode.FULL.value,
        choices=tuple(m.value for m in EmploymentMode),
        mark=Mark.RULEBOOK,
        note="the handicap setup step is chosen",
    ),
    TableOption(
        name="plans",
        default=PlansMode.TILES.value,
        choices=tuple(m.value for m in PlansMode),
        mark=Mark.RULEBOOK,
    ),
    TableOption(
        name="last_will",
        default=LAST_WILL_RANDOM,
        choices=(LAST_WILL_RANDOM, *(card.id.lower() for card in LAST_WILL_CARDS)),
        mark=Mark.RULEBOOK,
        note="the ids are chosen",
    ),
    TableOption(
        name="end_property_penalty",
        default=END_PROPERTY_PENALTY_DEFAULT,
        minimum=0,
        maximum=END_PROPERTY_PENALTY_MAX,
        mark=Mark.CHOSEN,
    ),
)
OPTIONS_BY_NAME: Final[Mapping[str, TableOption]] = {option.name: option for option in OPTIONS}
EXPANSION_ONLY_OPTIONS: Final[tuple[str, ...]] = ("employment", "plans")  # chosen: refused when off
HIDDEN_INFORMATION: Final = ("hands", "draws", "deck order")  # chosen; money, boards, jobs are open

# --- Components and setup (§2) -------------------------------------------------------------------

BOARD_SPACES: Final = 5  # public (the simulator's 7 is a bug)
EXTENSIONS: Final = 12  # public
EXTENSION_SPACES: Final = 1  # public: each extension adds one card space
COMPANION_TOKENS_UNLIMITED: Final = True  # chosen: box counts disagree
PROPERTY_TYPES: Final[tuple[PropertyType, ...]] = tuple(PropertyType)  # public; the market order
PROPERTY_TYPE_NAMES: Final[Mapping[PropertyType, str]] = {
    PropertyType.FARM: "Farm",
    PropertyType.TOWN: "Town House",
    PropertyType.MANOR: "Manor House",
    PropertyType.MANSION: "Mansion",
}
MARKET_TOKENS: Final[tuple[int, ...]] = (-3, -2, 1, 3)  # public: shuffled, one per property type
ERRAND_BOYS: Final = 3  # rulebook: with the expansion
BASE_ERRAND_BOYS: Final = 2  # public: base game
PLANNING_MARKERS: Final = 1  # public
ACTION_COUNTERS: Final = 1  # public
WILD_CARDS: Final = 2  # public: set aside, never shuffled into a deck
REGULAR_DECKS: Final[tuple[Deck, ...]] = (Deck.PROPERTY, Deck.EVENT, Deck.HELPER, Deck.COMPANION)  # public
DECKS_WITH_DISCARD_PILE: Final = frozenset(REGULAR_DECKS)  # chosen: one face-up pile per regular deck
DECKS_LEAVING_GAME: Final = frozenset({Deck.SPECIAL, Deck.NEW_SPECIAL})  # chosen: no pile, out of the game
DECKS_RESHUFFLED: Final = frozenset(REGULAR_DECKS)  # public: an empty regular deck reshuffles its pile
STARTING_HAND: Final[Mapping[Deck, int]] = {Deck.PROPERTY: 2, Deck.HELPER: 2}  # chosen (a review: 3+3)
ROUND_ONE_KEEP: Final = 2  # public: after round 1's Setup each player discards down to 2
START_PLAYER_RANDOM: Final = True  # chosen, as the simulator
START_MARKER_CLOCKWISE: Final = True  # chosen: passes clockwise after every round
HANDICAP_MIN_EMPLOYED: Final = 1  # chosen: Confirm needs 1 to (players - 1) employed seats
HANDICAP_MIN_UNEMPLOYED: Final = 1  # chosen: so at most (players - 1) employed seats

# --- Round structure (§3) ------------------------------------------------------------------------

ROUNDS: Final = 7  # public: at most
INCOME_IN_ROUND_ONE: Final = True  # rulebook
HAND_LIMIT: Final = 2  # public
HAND_LIMIT_COUNTS_COMPANIONS: Final = True  # public
HAND_LIMIT_COUNTS_WILDS: Final = False  # public: wild cards return to the pile at round end
DEPRECIATION_STEPS: Final = 1  # public
DOUBLED_DEPRECIATION_STEPS: Final = 2  # rulebook: a token on a ◆ slot
FARMS_DEPRECIATE: Final = False  # public: a farm has one value
DEPRECIATE_IN_PURCHASE_ROUND: Final = True  # chosen: unmaintained means unmaintained
UNUSED_ACTIONS_KEPT: Final = False  # chosen: lost at the end of the turn
UNPLACED_BOYS_ALLOWED: Final = True  # chosen
DRAW_PHASE_SEPARATE: Final = True  # chosen (decks named before looking: public)

# --- Plans (§4) ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Plan:
    """A plan space: cards to draw, errand boys, actions; its position is its turn order."""

    cards: int
    boys: int
    actions: int

    def __str__(self) -> str:
        return f"{self.cards}/{self.boys}/{self.actions}"


def _plans(text: str) -> tuple[Plan, ...]:
    """``"5/2/1 2/2/2"`` as the page writes it, so a correction is a copy of the page."""
    return tuple(Plan(*(int(n) for n in item.split("/"))) for item in text.split())


PLAN_POSITIONS: Final = 8  # rulebook: the tiles fill 8 positions
# public (simulator), from position 1 (first turn) to the last; 2-3 players have 6 plans (chosen:
# one review counts 7).
ORIGINAL_PLANS: Final[Mapping[int, tuple[Plan, ...]]] = {
    2: _plans("5/2/1  2/2/2  0/2/3  7/1/2  1/1/4  2/2/3"),
    3: _plans("5/2/1  2/2/2  0/2/3  7/1/2  1/1/4  2/2/3"),
    4: _plans("1/2/1  1/1/2  6/2/1  3/2/2  0/2/3  6/2/2  0/1/4  2/2/3"),
    5: _plans("1/2/1  1/1/2  6/2/1  3/2/2  0/2/3  6/2/2  0/1/4  2/2/3"),
}
ORIGINAL_PLANS_MARK: Final = Mark.PUBLIC
# rulebook: the new planning board has a side for 2 or 5 players and one for 3 or 4; both carry the
# same positions and errand spaces (chosen), so the engine only records the side.
PLANNING_BOARD_SIDE: Final[Mapping[int, str]] = {2: "2/5", 3: "3/4", 4: "3/4", 5: "2/5"}


@dataclass(frozen=True, slots=True, kw_only=True)
class PlanTile:
    """A double-sided tile: its position, the player counts it shows, and both sides.

    Setup (rulebook) draws tiles one at a time, skips one whose count or position does not fit,
    and places the rest with a random side up until all 8 positions are filled.
    """

    id: str
    position: int
    players: tuple[int, ...]
    front: Plan
    back: Plan
    mark: Mark


def _tiles() -> tuple[PlanTile, ...]:
    # chosen: one "A" tile per position for 2-5 players, one "B" tile for 3-5 players; all eight
    # 3-boy plans are B fronts (a third boy is strongest where few rivals contest spaces).
    rows = (
        "2/2/1 1/1/2 0/3/1 5/1/1",
        "3/2/1 2/1/2 2/3/1 0/2/2",
        "4/2/1 1/2/2 3/3/1 1/1/3",
        "5/2/1 2/2/2 1/3/2 4/1/2",
        "6/2/1 3/2/2 2/3/2 0/2/3",
        "0/1/4 4/2/2 3/3/2 7/1/2",
        "2/2/3 6/2/2 0/3/3 1/1/4",
        "3/2/3 2/1/4 1/3/3 7/2/2",
    )
    tiles: list[PlanTile] = []
    for letter, players, first in (("A", (2, 3, 4, 5), 0), ("B", (3, 4, 5), 2)):
        for position, row in enumerate(rows, start=1):
            plans = _plans(row)
            tiles.append(
                PlanTile(
                    id=f"{letter}{position}",
                    position=position,
                    players=players,
                    front=plans[first],
                    back=plans[first + 1],
                    mark=Mark.CHOSEN,
                )
            )
    return tuple(tiles)


PLAN_TILES: Final[tuple[PlanTile, ...]] = _tiles()

# --- Errand spaces (§5) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class ErrandSpace:
    """One kind of errand space; ``capacity`` None means no limit in all."""

    errand: Errand
    capacity: int | None
    board: Board
    expansion: bool
    mark: Mark
    per_player_per_round: int | None = None
    note: str = ""


ERRAND_SPACES: Final[tuple[ErrandSpace, ...]] = (
    ErrandSpace(errand=Errand.OFFERING, capacity=1, board=Board.OFFERING, expansion=False, mark=Mark.PUBLIC),
    ErrandSpace(
        errand=Errand.DRAW,
        capacity=None,
        per_player_per_round=1,
        board=Board.PLANNING,
        expansion=False,
        mark=Mark.PUBLIC,
        note="one boy per player a round and no limit in all are chosen",
    ),
    ErrandSpace(
        errand=Errand.OPERA,
        capacity=1,
        board=Board.PLANNING,
        expansion=False,
        mark=Mark.PUBLIC,
        note="the mask demotion is rulebook",
    ),
    ErrandSpace(
        errand=Errand.MARKET,
        capacity=1,
        board=Board.PLANNING,
        expansion=False,
        mark=Mark.PUBLIC,
        note="swapping two tokens is chosen",
    ),
    ErrandSpace(
        errand=Errand.EXTENSION,
        capacity=1,
        board=Board.PLANNING,
        expansion=False,
        mark=Mark.PUBLIC,
        note="base mode with 5 players: 2 spaces (BASE_EXTENSION_SPACES_FIVE_PLAYERS)",
    ),
    ErrandSpace(
        errand=Errand.DEMOTION,
        capacity=1,
        board=Board.NEW_SUPPLEMENTAL,
        expansion=True,
        mark=Mark.RULEBOOK,
        note="the capacity is chosen",
    ),
    ErrandSpace(
        errand=Errand.DEMOTION_OR_EXTENSION,
        capacity=1,
        board=Board.NEW_SUPPLEMENTAL,
        expansion=True,
        mark=Mark.RULEBOOK,
        note="the capacity is chosen",
    ),
    ErrandSpace(
        errand=Errand.NEW_SPECIAL,
        capacity=1,
        board=Board.NEW_SUPPLEMENTAL,
        expansion=True,
        mark=Mark.RULEBOOK,
    ),
)
ERRANDS: Final[Mapping[Errand, ErrandSpace]] = {space.errand: space for space in ERRAND_SPACES}
SHARED_OFFERING_SLOTS: Final[tuple[str, ...]] = ("1", "2", "3")  # public: with 2-3 players ...
SHARED_OFFERING_CAPACITY: Final = 2  # public: ... slots 1-3 take 2 boys in all
SHARED_OFFERING_PLAYERS: Final[tuple[int, ...]] = (2, 3)  # public
DRAW_ONE_CARDS: Final = 1  # public: from a regular deck of the player's choice
OPERA_SPEND: Final = 2  # public
MARKET_SWAP: Final = 2  # chosen: swap any two market tokens
BASE_EXTENSION_SPACES_FIVE_PLAYERS: Final = 2  # public; gone with the expansion (chosen)
OVERFLOW_RULE_PLAYERS: Final[tuple[int, ...]] = (
    5,
)  # rulebook: demotion-or-extension needs the other space taken
OVERFLOW_OCCUPIED_BY_ANYONE: Final = True  # chosen: the player's own boy counts
DEMOTION_SPACE_BLOCKING_ALLOWED: Final = True  # chosen: after this round's demotion, with a warning

# --- Card offering (§6) --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True, kw_only=True)
class OfferingSlot:
    """A slot of the offering and the deck it is filled from in rounds 1..7 (None: empty)."""

    label: str
    decks: tuple[Deck, ...]
    players: tuple[int, ...]
    board: Board
    expansion: bool
    mark: Mark


_SLOT_LETTERS: Final[Mapping[str, Deck]] = {
    "S": Deck.SPECIAL,
    "W": Deck.WILD,
    "P": Deck.PROPERTY,
    "E": Deck.EVENT,
    "H": Deck.HELPER,
    "X": Deck.NEW_SPECIAL,
}


def _slot(label: str, rounds: str, players: tuple[int, ...], board: Board = Board.OFFERING) -> OfferingSlot:
    """``rounds`` is the page's row, R1..R7, one letter each."""
    return OfferingSlot(
        label=label,
        decks=tuple(_SLOT_LETTERS[letter] for letter in rounds.split()),
        players=players,
        board=board,
        expansion=label == "X",
        mark=Mark.RULEBOOK if label == "X" else Mark.PUBLIC,
    )


# public: the simulator's board.
OFFERING_2_3: Final[tuple[OfferingSlot, ...]] = (
    _slot("1", "S S S S S S S", (2, 3)),
    _slot("2", "S S S S S S S", (2, 3)),
    _slot("3", "S S S W W W W", (2, 3)),
    _slot("4", "P P P E E E E", (2, 3)),
    _slot("5", "H H H H E E E", (2, 3)),
    _slot("6", "H H H H H H H", (2, 3)),
    _slot("7", "W W W W W W W", (2, 3)),
    _slot("8", "P P E E E E E", (3,), Board.SUPPLEMENTAL),
)
OFFERING_4_5: Final[tuple[OfferingSlot, ...]] = (
    _slot("1", "P P E E E E E", (4, 5)),
    _slot("2", "P P P E E E E", (4, 5)),
    _slot("3", "H H H H E E E", (4, 5)),
    _slot("4", "H H H H H H H", (4, 5)),
    _slot("5", "S S S S S S S", (4, 5)),
    _slot("6", "S S S S S S S", (4, 5)),
    _slot("7", "S S S W W W W", (4, 5)),
    _slot("8", "W W W W W W W", (4, 5)),
    _slot("9", "E E E E E E E", (5,), Board.SUPPLEMENTAL),
)
# rulebook: one new special card every round, on the new supplemental board.
NEW_SPECIAL_SLOT: Final[OfferingSlot] = _slot("X", "X X X X X X X", (2, 3, 4, 5), Board.NEW_SUPPLEMENTAL)
# public (component captions): side "2-4" with 2-4 players, side "5" with 5; both show slot X, the
# demotion space and the demotion-or-extension space left to right (chosen); only side "5" prints
# the 5-player rule of §5 (chosen).
NEW_SUPPLEMENTAL_SIDE: Final[Mapping[int, str]] = {2: "2-4", 3: "2-4", 4: "2-4", 5: "5"}
NEW_SUPPLEMENTAL_LAYOUT: Final[tuple[str, ...]] = ("X", Errand.DEMOTION, Errand.DEMOTION_OR_EXTENSION)


def offering_slots(players: int, expansion: bool) -> tuple[OfferingSlot, ...]:
    """The slots in play for a table, in board order (slot X last)."""
    table = OFFERING_2_3 if players <= 3 else OFFERING_4_5
    slots = tuple(slot for slot in table if players in slot.players)
    return (*slots, NEW_SPECIAL_SLOT) if expansion else slots


# --- Actions and money (§7, §10) -----------------------------------------------------------------

BUY_ACTIONS: Final = 1  # public (or an Estate Agent's free action)
SELL_ACTIONS: Final = 1  # public (or an Estate Agent's free action)
MAINTAIN_ACTIONS: Final = 1  # public (or a Steward's free action); once per round per property
COMPANION_TOKEN_ACTIONS: Final = 1  # public: plus the companion card
DISCARD_FROM_BOARD_ACTIONS: Final = 0  # public: helpers and expenses only (chosen: properties are sold)
NUPTIAL_SET_ACTIONS: Final = 1  # rulebook
NUPTIAL_SET_SIZES: Final[tuple[int, ...]] = (2, 3, 4)  # rulebook: all names different
PRICE_FLOOR: Final = 0  # chosen: no price or sale value below £0, Lost at Cards included
SPEND_DOWN_TO: Final = 0  # rulebook/public: no overspending while holding property or a job (>=: chosen)
BANKRUPTCY_ACTIONS: Final = 0  # chosen: a button in the player's Actions turn
BANKRUPTCY_MAX_MONEY: Final = 0  # chosen: offered with no property, no job and money <= £0
FINAL_INCOME: Final = True  # rulebook: the still-employed take income once more at the end
FINAL_VALUE_DUAL_LOWER: Final = True  # public: a dual property counts its lower value
FINAL_VALUE_ESTATE_AGENT: Final = False  # chosen: the final valuation is no sale
LEAST_MONEY_WINS: Final = True  # public: debt counts as negative money
UNEMPLOYED_RANK_FIRST: Final = True  # rulebook: a player still employed cannot win
NOBODY_WINS_IF_ALL_EMPLOYED: Final = True  # chosen
TIE_BREAK_FEWER_PROPERTIES: Final = True  # chosen: then a shared win

# --- Symbols (§8) --------------------------------------------------------------------------------

# chosen: one symbol a card, except what the rulebook fixes (Breeders' Fair none, WD2 four, dual
# properties two, ring on the nuptial cards, wild only on the wild cards, mask at the Opera).
SYMBOLS_MARK: Final = Mark.CHOSEN
SYMBOL_PICTURES: Final[Mapping[Symbol, str]] = {
    Symbol.DINE: "wine glass",
    Symbol.CARRIAGE: "carriage",
    Symbol.MASK: "theatre mask",
    Symbol.HELM: "ship's wheel",
    Symbol.PARTY: "balloons",
    Symbol.RING: "wedding ring",
    Symbol.HELPER: "top hat",
    Symbol.DOG: "dog",
    Symbol.HORSE: "horse",
    Symbol.CHEF: "chef",
    Symbol.GUEST: "guest",
    Symbol.WILD: "joker",
    Symbol.FARM: "barn",
    Symbol.TOWN: "house (town colour)",
    Symbol.MANOR: "house (manor colour)",
    Symbol.MANSION: "house (mansion colour)",
    Symbol.TRAINING: "horseshoe",
    Symbol.CLOCK: "pocket watch",
}
COMPANION_SYMBOL: Final[Mapping[Companion, Symbol]] = {c: Symbol(c.value) for c in Companion}
PROPERTY_SYMBOL: Final[Mapping[PropertyType, Symbol]] = {t: Symbol(t.value) for t in PropertyType}
OPERA_SYMBOL: Final = Symbol.MASK  # rulebook: the Opera errand is like playing a mask card
NEVER_ON_LINES: Final = frozenset({Symbol.TRAINING, Symbol.CLOCK})  # chosen
# chosen: the difficulty behind the employment balance (§11.8).
SYMBOL_DIFFICULTY: Final[Mapping[Symbol, int]] = {
    **dict.fromkeys((Symbol.DINE, Symbol.CARRIAGE, Symbol.HELM, Symbol.PARTY, Symbol.HELPER), 1),
    **dict.fromkeys((Symbol.MASK, *COMPANION_SYMBOL.values(), Symbol.FARM, Symbol.TOWN), 2),
    **dict.fromkeys((Symbol.WILD, Symbol.RING, Symbol.MANOR, Symbol.MANSION), 3),
}

# --- Employment and demotions (§9, §11.8, §12) ---------------------------------------------------

DEMOTIONS_PER_ROUND: Final = 1  # rulebook: from any source
DEMOTION_TOKENS_IN_BOX: Final = 20  # rulebook; the engine never runs short (chosen)
DEMOTION_OPTIONAL: Final = True  # chosen: "none" is always offered
SET_LINES: Final[Mapping[EmploymentSet, int]] = {EmploymentSet.FOUR: 4, EmploymentSet.FIVE: 5}  # rulebook
SET_INCOME: Final[Mapping[EmploymentSet, int]] = {EmploymentSet.FOUR: 7, EmploymentSet.FIVE: 11}  # rulebook
HANDICAP_MONEY: Final[Mapping[EmploymentSet, int]] = {
    EmploymentSet.FOUR: 15,
    EmploymentSet.FIVE: 30,
}  # rulebook


@dataclass(frozen=True, slots=True)
class Line:
    """An income line: a demotion token covers it when a card with its symbol is played or laid."""

    symbol: Symbol
    money: int


@dataclass(frozen=True, slots=True, kw_only=True)
class EmploymentCard:
    """A job; lines top to bottom. ``id`` is ``E<number>``, the page numbers them 1..20."""

    id: CardId
    number: int
    job: str
    set: EmploymentSet
    lines: tuple[Line, ...]
    mark: Mark
    note: str = ""


def _job(number: int, job: str, lines: str) -> EmploymentCard:
    """``lines`` is the page's cell ("horse 3, dine 2, ..."), so a correction is a copy of the page."""
    parsed = tuple(
        Line(Symbol(word), int(money)) for word, money in (item.split() for item in lines.split(","))
    )
    named = job in ("Doctor", "Banker", "Governess")
    return EmploymentCard(
        id=f"E{number}",
        number=number,
        job=job,
        set=EmploymentSet.FOUR if len(parsed) == 4 else EmploymentSet.FIVE,
        lines=parsed,
        mark=Mark.CHOSEN,
        note="totals rulebook; lines chosen; name public"
        if named
        else "totals rulebook; lines and name chosen",
    )


EMPLOYMENT_CARDS: Final[tuple[EmploymentCard, ...]] = (
    _job(1, "Doctor", "horse 3, dine 2, mask 1, guest 1"),
    _job(2, "Banker", "mansion 3, dine 2, party 1, dog 1"),
    _job(3, "Governess", "guest 2, mask 2, carriage 2, dine 1"),
    _job(4, "Clerk", "mask 4, ring 1, helper 1, chef 1"),
    _job(5, "Curate", "ring 3, dine 2, helm 1, dog 1"),
    _job(6, "Schoolmaster", "town 2, mask 2, dine 2, helper 1"),
    _job(7, "Solicitor", "manor 3, carriage 2, helm 1, horse 1"),
    _job(8, "Apothecary", "chef 3, helm 2, mask 1, farm 1"),
    _job(9, "Land Agent", "farm 4, dog 1, ring 1, dine 1"),
    _job(10, "Shipping Clerk", "helm 2, wild 2, party 2, carriage 1"),
    _job(11, "Stockbroker", "mansion 3, manor 2, dine 2, party 2, helper 2"),
    _job(12, "Architect", "town 3, manor 3, carriage 2, mask 2, dog 1"),
    _job(13, "Journalist", "mask 3, party 2, carriage 2, guest 2, wild 2"),
    _job(14, "Engineer", "farm 4, helm 2, horse 2, town 2, ring 1"),
    _job(15, "Magistrate", "ring 3, mask 3, dine 2, helper 2, manor 1"),
    _job(16, "Army Officer", "horse 4, dog 3, party 2, mansion 1, wild 1"),
    _job(17, "Estate Manager", "farm 3, dog 2, horse 2, chef 2, helper 2"),
    _job(18, "Insurance Agent", "manor 4, helper 2, dine 2, chef 2, ring 1"),
    _job(19, "Merchant", "chef 4, helm 3, mask 2, wild 1, mansion 1"),
    _job(20, "Diplomat", "helm 3, wild 2, ring 2, party 2, carriage 2"),
)
EMPLOYMENT: Final[Mapping[CardId, EmploymentCard]] = {card.id: card for card in EMPLOYMENT_CARDS}
EMPLOYMENT_BY_SET: Final[Mapping[EmploymentSet, tuple[CardId, ...]]] = {
    job_set: tuple(card.id for card in EMPLOYMENT_CARDS if card.set is job_set) for job_set in EmploymentSet
}

# --- Card records (§11) ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CompanionSlot:
    """A slot on a property or expense: one matching companion card makes it ``amount``.

    Slots fill left to right; the upkeep (or expense) is the amount of the last filled one.
    """

    accepts: tuple[Companion, ...]  # any one of these (N5: horse or dog)
    amount: int
    doubles_depreciation: bool = False  # ◆: a token here makes an unmaintained property drop 2
    free_on_purchase: bool = False  # N6: the token comes free when bought (no card, no action, no demotion)


@dataclass(frozen=True, slots=True)
class CompanionIcon:
    """An icon on a white card: one companion card of that type adds ``amount`` to the spend."""

    companion: Companion
    amount: int


@dataclass(frozen=True, slots=True)
class BallLevel:
    """A Ball played at this level costs ``actions`` and spends ``money`` in total."""

    actions: int
    money: int


@dataclass(frozen=True, slots=True)
class TrainingFormula:
    """Training Ground's spend: per farm owned plus per horse / dog token on those farms."""

    per_farm: int = 0
    per_horse: int = 0
    per_dog: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class Expense:
    """The part of a black card used from the board, once a round; optional, like every spend.

    ``amount`` is the printed £ before any slot is filled; with slots, the last filled slot's
    amount replaces it; with a ``formula`` (Training Ground) the formula gives the amount.
    """

    actions: int
    amount: int
    slots: tuple[CompanionSlot, ...] = ()
    formula: TrainingFormula | None = None


# Helper privileges: what a laid helper does for its owner (never a demotion, §9).


@dataclass(frozen=True, slots=True, kw_only=True)
class SymbolBonus:
    """Each card used that shows any of ``symbols`` spends ``amount`` more (stacking, §7).

    ``optional``: the player may decline it (the Wedding Planner: "you may spend").
    """

    symbols: tuple[Symbol, ...]
    amount: int
    optional: bool = False


@dataclass(frozen=True, slots=True)
class OperaBonus:
    """The Tailor's extra spend at the Opera errand."""

    amount: int


@dataclass(frozen=True, slots=True)
class MaintainBonus:
    """The Gardener: maintaining a property of one of ``types`` spends ``amount`` more."""

    types: tuple[PropertyType, ...]
    amount: int


@dataclass(frozen=True, slots=True)
class PriceModifier:
    """An Estate Agent's printed £, added to the price paid (buy) or the sum received (sale).

    Signed as printed (buy +2, sale -2): both readings favour spending (chosen).
    """

    trade: Trade
    scope: Scope
    amount: int


@dataclass(frozen=True, slots=True)
class FreeActions:
    """``count`` free actions of ``kind`` each round, in the owner's turn only (chosen)."""

    kind: FreeAction
    scope: Scope
    count: int


@dataclass(frozen=True, slots=True)
class HandLimitBonus:
    amount: int


@dataclass(frozen=True, slots=True)
class DrawBonus:
    """Extra cards in the card-drawing phase; ``deck`` None: any mix of regular decks."""

    deck: Deck | None
    count: int


@dataclass(frozen=True, slots=True)
class ExtraAction:
    """An extra action each round; ``white_only``: the Valet's, for white cards only (§3.5)."""

    count: int
    white_only: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawAndKeep:
    """The Personal Secretary: draw ``draw`` from one regular deck, keep ``keep``, discard the rest."""

    draw: int
    keep: int
    actions: int  # chosen: "any time" implies no action
    per_round: int  # chosen: unlimited free draws would cycle whole decks
    one_deck: bool  # chosen: all from one regular deck of the player's choice


Privilege: TypeAlias = (
    SymbolBonus
    | OperaBonus
    | MaintainBonus
    | PriceModifier
    | FreeActions
    | HandLimitBonus
    | DrawBonus
    | ExtraAction
    | DrawAndKeep
)

# Effects of the special white cards, on top of their actions and money.


@dataclass(frozen=True, slots=True, kw_only=True)
class FreeTokens:
    """Breeders' Fair: up to ``count`` tokens onto matching empty slots, no cards, no demotion."""

    count: int
    companions: tuple[Companion, ...]
    property_type: PropertyType


@dataclass(frozen=True, slots=True)
class DropSteps:
    """Wild Party (chosen reading): one of the player's own properties in ``scope`` drops ``steps``."""

    steps: int
    scope: Scope


@dataclass(frozen=True, slots=True)
class GainActions:
    """Hectic Day: ``amount`` more actions this turn."""

    amount: int


@dataclass(frozen=True, slots=True, kw_only=True)
class FreeSale:
    """Lost at Cards: the player may sell one property with no further action.

    Market tokens are ignored (rulebook); Estate Agent modifiers and the £0 floor apply (chosen).
    """

    optional: bool
    ignore_market: bool
    estate_agent: bool


@dataclass(frozen=True, slots=True, kw_only=True)
class DiscardForMoney:
    """Bachelor Party BP2: discard any number of hand cards showing ``symbols``, ``each`` £ apiece.

    No helper bonus and no demotion for them (rulebook); none is a legal answer (chosen).
    """

    symbols: tuple[Symbol, ...]
    each: int
    optional: bool
    helper_bonus: bool
    demotion: bool


SpecialEffect: TypeAlias = FreeTokens | DropSteps | GainActions | FreeSale | DiscardForMoney


@dataclass(frozen=True, slots=True, kw_only=True)
class CardBase:
    """What every card shows. ``mark`` is the status of its numbers; ``note`` names exceptions.

    ``crowns`` is 0 except on special cards, where it decides the card's layer in its deck.
    """

    id: CardId
    name: str
    deck: Deck
    border: Border
    symbols: tuple[Symbol, ...]
    mark: Mark
    expansion: bool = False
    crowns: int = 0
    note: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class PropertyCard(CardBase):
    """A property: ``types`` holds 2 for a dual property (the owner picks one, never both).

    ``track`` is the values left to right; a farm has one value and never depreciates.
    """

    types: tuple[PropertyType, ...]
    track: tuple[int, ...]
    upkeep: int
    slots: tuple[CompanionSlot, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class EventCard(CardBase):
    """Every white card (events and white specials): played from hand, then discarded.

    A Ball's ``actions``/``money`` are its first level; ``ball`` lists every level.
    """

    actions: int
    money: int
    icons: tuple[CompanionIcon, ...] = ()
    ball: tuple[BallLevel, ...] = ()
    nuptial: NuptialName | None = None
    effect: SpecialEffect | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class HelperCard(CardBase):
    """Every black card that is not a property: a helper (top hat) or an expense."""

    lay_actions: int
    expense: Expense | None = None
    privileges: tuple[Privilege, ...] = ()

    @property
    def is_helper(self) -> bool:
        return Symbol.HELPER in self.symbols


@dataclass(frozen=True, slots=True, kw_only=True)
class CompanionCard(CardBase):
    """A companion card; ``companion`` None is a wild card, played as any one companion."""

    companion: Companion | None


Card: TypeAlias = PropertyCard | EventCard | HelperCard | CompanionCard

# --- Companions and wild cards (§11.1, §11.6) -----------------------------------------------------

HORSE, DOG, CHEF, GUEST = Companion.HORSE, Companion.DOG, Companion.CHEF, Companion.GUEST
_COMPANION_PREFIX: Final[Mapping[Companion, str]] = {HORSE: "HOR", DOG: "DOG", CHEF: "CHF", GUEST: "GST"}
COMPANIONS_PER_TYPE: Final = 5  # public

COMPANION_CARDS: Final[tuple[CompanionCard, ...]] = tuple(
    CompanionCard(
        id=f"{_COMPANION_PREFIX[companion]}{copy}",
        name=companion.value.capitalize(),
        deck=Deck.COMPANION,
        border=Border.GREY,
        symbols=(COMPANION_SYMBOL[companion],),
        mark=Mark.PUBLIC,
        companion=companion,
    )
    for companion in Companion
    for copy in range(1, COMPANIONS_PER_TYPE + 1)
)
WILD_CARD_RECORDS: Final[tuple[CompanionCard, ...]] = tuple(
    CompanionCard(
        id=f"W{copy}",
        name="Wild card",
        deck=Deck.WILD,
        border=Border.GREY,
        symbols=(Symbol.WILD,),
        mark=Mark.PUBLIC,
        note="the wild symbol is rulebook; the grey border is chosen (engine): it is a companion card",
        companion=None,
    )
    for copy in range(1, WILD_CARDS + 1)
)

# --- Properties (§11.2, §11.11) --------------------------------------------------------------------


def _track(text: str) -> tuple[int, ...]:
    return tuple(int(value) for value in text.split("-"))


def _slots(
    *pairs: tuple[Companion | tuple[Companion, ...], int], diamond: bool = False
) -> tuple[CompanionSlot, ...]:
    """Slots as the page writes them ("Horse→5, Horse→8"); ``diamond`` marks every slot ◆."""
    return tuple(
        CompanionSlot(
            accepts if isinstance(accepts, tuple) else (accepts,), amount, doubles_depreciation=diamond
        )
        for accepts, amount in pairs
    )


def _property(
    card_id: CardId,
    types: tuple[PropertyType, ...],
    track: str,
    upkeep: int,
    slots: tuple[CompanionSlot, ...] = (),
    *,
    expansion: bool = False,
) -> PropertyCard:
    return PropertyCard(
        id=card_id,
        name=" / ".join(PROPERTY_TYPE_NAMES[t] for t in types),
        deck=Deck.PROPERTY,
        border=Border.BLACK,
        symbols=tuple(PROPERTY_SYMBOL[t] for t in types),
        mark=Mark.CHOSEN if expansion else Mark.PUBLIC,
        note="dual type, ◆ slots, horse-or-dog slots and the free horse are rulebook; numbers chosen"
        if expansion
        else "",
        expansion=expansion,
        types=types,
        track=_track(track),
        upkeep=upkeep,
        slots=slots,
    )


FARM, TOWN, MANOR, MANSION = PropertyType.FARM, PropertyType.TOWN, PropertyType.MANOR, PropertyType.MANSION

PROPERTY_CARDS: Final[tuple[PropertyCard, ...]] = (
    # public: the base game's 24.
    _property("F1", (FARM,), "16", 3, _slots((HORSE, 5), (HORSE, 8))),
    _property("F2", (FARM,), "12", 2, _slots((DOG, 4), (HORSE, 7))),
    _property("F3", (FARM,), "8", 1, _slots((DOG, 3))),
    _property("F4", (FARM,), "10", 1, _slots((HORSE, 3), (DOG, 7))),
    _property("F5", (FARM,), "25", 4, _slots((HORSE, 7), (HORSE, 10))),
    _property("F6", (FARM,), "20", 3, _slots((HORSE, 7))),
    _property("F7", (FARM,), "12", 2, _slots((DOG, 3), (DOG, 6))),
    _property("F8", (FARM,), "9", 1, _slots((DOG, 4))),
    _property("F9", (FARM,), "14", 2, _slots((DOG, 3), (DOG, 5), (DOG, 9))),
    _property("F10", (FARM,), "15", 2, _slots((HORSE, 6))),
    _property("F11", (FARM,), "13", 2, _slots((HORSE, 4), (HORSE, 6))),
    _property("T1", (TOWN,), "15-13-10-7", 3),
    _property("T2", (TOWN,), "17-15-13-11-8-5", 3),
    _property("T3", (TOWN,), "13-12-11", 4),
    _property("T4", (TOWN,), "15-13", 3, _slots((CHEF, 5), (GUEST, 8))),
    _property("M1", (MANOR,), "23-22-20", 5, _slots((CHEF, 7), (GUEST, 10))),
    _property("M2", (MANOR,), "18-15", 4, _slots((CHEF, 6))),
    _property("M3", (MANOR,), "20-19-17-13", 4),
    _property("M4", (MANOR,), "10-8-7-5", 3),
    _property("X1", (MANSION,), "13-11-9-7-5-3", 3),
    _property("X2", (MANSION,), "8-6", 1, _slots((GUEST, 5))),
    _property("X3", (MANSION,), "15-13-11-9-4", 3),
    _property("X4", (MANSION,), "12-10-8", 2, _slots((CHEF, 5))),
    _property("X5", (MANSION,), "10-9-7-5", 1, _slots((GUEST, 5))),
    # The expansion's 6: features rulebook, numbers chosen.
    _property("N1", (TOWN, MANOR), "18-16-13-10-7", 3, expansion=True),
    _property("N2", (MANOR, MANSION), "21-19-16-12", 4, _slots((GUEST, 7)), expansion=True),
    _property("N3", (TOWN,), "16-14-12-10-8-6", 2, _slots((GUEST, 5), diamond=True), expansion=True),
    _property("N4", (MANSION,), "14-12-10-8-5-3", 2, _slots((CHEF, 5), diamond=True), expansion=True),
    _property("N5", (FARM,), "14", 2, _slots(((HORSE, DOG), 4), ((HORSE, DOG), 7)), expansion=True),
    _property(
        "N6",
        (FARM,),
        "18",
        3,
        (CompanionSlot((HORSE,), 6, free_on_purchase=True), CompanionSlot((HORSE,), 9)),
        expansion=True,
    ),
)

# --- Events (§11.3, §11.12) ------------------------------------------------------------------------


def _icons(*pairs: tuple[Companion, int]) -> tuple[CompanionIcon, ...]:
    return tuple(CompanionIcon(companion, amount) for companion, amount in pairs)


def _ball(actions: str, money: str) -> tuple[BallLevel, ...]:
    """The page's two rows ("2/3/4/5", "4/6/10/13")."""
    return tuple(BallLevel(int(a), int(m)) for a, m in zip(actions.split("/"), money.split("/"), strict=True))


def _events(
    prefix: str,
    name: str,
    symbol: Symbol,
    variants: tuple[tuple[int, int, int, tuple[CompanionIcon, ...]], ...],
) -> tuple[EventCard, ...]:
    """Copies of one base event: ``variants`` rows are (copies, actions, money, icons)."""
    cards: list[EventCard] = []
    for copies, actions, money, icons in variants:
        for _ in range(copies):
            cards.append(
                EventCard(
                    id=f"{prefix}{len(cards) + 1}",
                    name=name,
                    deck=Deck.EVENT,
                    border=Border.WHITE,
                    symbols=(symbol,),
                    mark=Mark.PUBLIC,
                    actions=actions,
                    money=money,
                    icons=icons,
                )
            )
    return tuple(cards)


def _boat(letter: str, money: int, icons: tuple[CompanionIcon, ...]) -> EventCard:
    return EventCard(
        id=f"BOAT-{letter}",
        name="Boat Trip",
        deck=Deck.EVENT,
        border=Border.WHITE,
        symbols=(Symbol.HELM,),
        mark=Mark.PUBLIC,
        actions=2,
        money=money,
        icons=icons,
    )


def _base_ball(number: int, actions: str, money: str) -> EventCard:
    levels = _ball(actions, money)
    return EventCard(
        id=f"BALL{number}",
        name="Ball",
        deck=Deck.EVENT,
        border=Border.WHITE,
        symbols=(Symbol.PARTY,),
        mark=Mark.PUBLIC,
        actions=levels[0].actions,
        money=levels[0].money,
        ball=levels,
    )


NUPTIAL_DISPLAY: Final[Mapping[NuptialName, str]] = {
    NuptialName.ENGAGEMENT_RING: "Engagement Ring",
    NuptialName.WEDDING: "Wedding",
    NuptialName.WEDDING_GIFT: "Wedding Gift",
    NuptialName.BACHELOR_PARTY: "Bachelor Party",
}


def _nuptial(
    card_id: CardId, nuptial: NuptialName, display: str, money: int, icons: tuple[CompanionIcon, ...]
) -> EventCard:
    return EventCard(
        id=card_id,
        name=display,
        deck=Deck.EVENT,
        border=Border.WHITE,
        symbols=(Symbol.RING,),
        mark=Mark.CHOSEN,
        note="names, ring symbol and 1 action rulebook; money and icons chosen; ids and display names chosen",
        expansion=True,
        actions=1,
        money=money,
        icons=icons,
        nuptial=nuptial,
    )


EVENT_CARDS: Final[tuple[EventCard, ...]] = (
    # public: the base game's 31.
    *_events(
        "DIN",
        "Dinner",
        Symbol.DINE,
        (
            (3, 1, 2, ()),
            (2, 1, 2, _icons((HORSE, 2))),
            (4, 1, 2, _icons((DOG, 2))),
            (1, 1, 2, _icons((GUEST, 2), (GUEST, 2))),
        ),
    ),
    *_events(
        "CAR", "Carriage Ride", Symbol.CARRIAGE, ((2, 1, 2, ()), (1, 1, 3, ()), (2, 1, 2, _icons((GUEST, 2))))
    ),
    *_events("THE", "Theatre", Symbol.MASK, ((2, 1, 2, _icons((HORSE, 3))), (2, 1, 3, ()))),
    _boat("A", 2, _icons((GUEST, 2), (DOG, 3), (CHEF, 2))),
    _boat("B", 4, _icons((GUEST, 2), (CHEF, 2))),
    _boat("C", 4, _icons((CHEF, 3))),
    _boat("D", 5, ()),
    _boat("E", 2, _icons((GUEST, 3), (DOG, 2), (CHEF, 2))),
    _boat("F", 3, _icons((GUEST, 2), (DOG, 2), (CHEF, 2))),
    _boat("G", 4, _icons((GUEST, 3))),
    *_events("SOI", "Soirée", Symbol.PARTY, ((1, 1, 2, ()), (1, 1, 3, ()))),
    _base_ball(1, "2/3/4/5", "4/6/10/13"),
    _base_ball(2, "2/3/4/5/6/7", "4/6/8/12/15/22"),
    _base_ball(3, "2/3/4/5/6", "4/6/9/12/17"),
    # The expansion's 6 nuptial events: names rulebook, numbers chosen.
    _nuptial("ER1", NuptialName.ENGAGEMENT_RING, "Engagement Ring", 4, ()),
    _nuptial("ER2", NuptialName.ENGAGEMENT_RING, "Engagement Ring", 2, _icons((GUEST, 2))),
    _nuptial("WD1", NuptialName.WEDDING, "Wedding (event)", 3, _icons((GUEST, 2), (CHEF, 2))),
    _nuptial("WG1", NuptialName.WEDDING_GIFT, "Wedding Gift", 3, ()),
    _nuptial("WG2", NuptialName.WEDDING_GIFT, "Wedding Gift", 2, _icons((HORSE, 3))),
    _nuptial("BP1", NuptialName.BACHELOR_PARTY, "Bachelor Party (event)", 3, _icons((GUEST, 2))),
)

# --- Helpers and expenses (§11.4) ------------------------------------------------------------------


def _helpers(
    prefix: str,
    name: str,
    symbol: Symbol,
    variants: tuple[tuple[int, int, Expense | None, tuple[Privilege, ...]], ...],
    *,
    first: int = 1,
    mark: Mark = Mark.PUBLIC,
    note: str = "",
) -> tuple[HelperCard, ...]:
    """Copies of one base black card: ``variants`` rows are (copies, lay actions, expense, privileges)."""
    cards: list[HelperCard] = []
    for copies, lay, expense, privileges in variants:
        for _ in range(copies):
            cards.append(
                HelperCard(
                    id=f"{prefix}{first + len(cards)}",
                    name=name,
                    deck=Deck.HELPER,
                    border=Border.BLACK,
                    symbols=(symbol,),
                    mark=mark,
                    note=note,
                    lay_actions=lay,
                    expense=expense,
                    privileges=privileges,
                )
            )
    return tuple(cards)


def _expense(actions: int, amount: int, *slots: tuple[Companion, int]) -> Expense:
    return Expense(actions=actions, amount=amount, slots=_slots(*slots))


def _training(formula: TrainingFormula) -> tuple[int, int, Expense, tuple[Privilege, ...]]:
    return (1, 1, Expense(actions=0, amount=0, formula=formula), ())


NON_FARM_TYPES: Final[tuple[PropertyType, ...]] = (TOWN, MANOR, MANSION)
HAND_LIMIT_BONUS: Final = 2  # public: per hand-limit School Chum (SC1, SC2)

HELPER_CARDS: Final[tuple[HelperCard, ...]] = (
    # public: the base game's 39.
    *_helpers("GC", "Gentlemen's Club", Symbol.PARTY, ((2, 2, _expense(1, 5), ()),)),
    *_helpers(
        "RES",
        "Reservation",
        Symbol.DINE,
        (
            (2, 1, _expense(0, 2), ()),
            (2, 1, _expense(1, 4), ()),
            (1, 1, _expense(0, 1, (CHEF, 2), (CHEF, 4)), ()),
            (1, 1, _expense(0, 1, (CHEF, 3)), ()),
        ),
    ),
    *_helpers(
        "CRG",
        "Carriage",
        Symbol.CARRIAGE,
        (
            (1, 1, _expense(0, 1, (GUEST, 3)), ()),
            (1, 1, _expense(0, 1), ()),
            (1, 1, _expense(0, 2), ()),
            (2, 1, _expense(1, 3), ()),
        ),
    ),
    *_helpers(
        "TRG",
        "Training Ground",
        Symbol.TRAINING,
        (_training(TrainingFormula(per_farm=1, per_horse=1)),),
        mark=Mark.CHOSEN,
        note="the simulator's first copy; the other four are public",
    ),
    *_helpers(
        "TRG",
        "Training Ground",
        Symbol.TRAINING,
        (
            _training(TrainingFormula(per_farm=1, per_dog=1)),
            _training(TrainingFormula(per_horse=2)),
            _training(TrainingFormula(per_farm=2)),
            _training(TrainingFormula(per_dog=2)),
        ),
        first=2,
    ),
    *_helpers(
        "WAI", "Waiter", Symbol.HELPER, ((3, 1, None, (SymbolBonus(symbols=(Symbol.DINE,), amount=1),)),)
    ),
    *_helpers(
        "COA",
        "Coachman",
        Symbol.HELPER,
        (
            (1, 1, None, (SymbolBonus(symbols=(Symbol.CARRIAGE,), amount=1),)),
            (1, 2, None, (SymbolBonus(symbols=(Symbol.CARRIAGE,), amount=2),)),
        ),
    ),
    *_helpers(
        "SEA",
        "Sea Dog",
        Symbol.HELPER,
        ((1, 1, None, (SymbolBonus(symbols=(Symbol.HELM, Symbol.PARTY), amount=2),)),),
    ),
    *_helpers(
        "TAI",
        "Tailor",
        Symbol.HELPER,
        ((1, 1, None, (SymbolBonus(symbols=(Symbol.MASK,), amount=3), OperaBonus(3))),),
    ),
    *_helpers(
        "GAR",
        "Gardener",
        Symbol.HELPER,
        (
            (1, 1, None, (MaintainBonus((TOWN, MANOR), 3),)),
            (1, 1, None, (MaintainBonus((MANSION, MANOR), 3),)),
            (1, 1, None, (MaintainBonus((MANSION, TOWN), 3),)),
        ),
    ),
    *_helpers(
        "EA",
        "Estate Agent",
        Symbol.HELPER,
        (
            (
                2,
                1,
                None,
                (PriceModifier(Trade.BUY, Scope.NON_FARM, 2), PriceModifier(Trade.SELL, Scope.NON_FARM, -2)),
            ),
            (
                1,
                1,
                None,
                (
                    PriceModifier(Trade.SELL, Scope.FARM, -2),
                    FreeActions(FreeAction.BUY_OR_SELL, Scope.FARM, 1),
                ),
            ),
        ),
    ),
    *_helpers(
        "STW",
        "Steward",
        Symbol.HELPER,
        (
            (1, 1, None, (FreeActions(FreeAction.MAINTAIN, Scope.NON_FARM, 1),)),
            (2, 1, None, (FreeActions(FreeAction.MAINTAIN, Scope.FARM, 1),)),
        ),
    ),
    *_helpers(
        "SC",
        "School Chum",
        Symbol.HELPER,
        ((2, 1, _expense(0, 1), (HandLimitBonus(HAND_LIMIT_BONUS),)),),
        note="ids SC1-SC5 chosen; the expense reads the printed upkeep as an optional expense (chosen)",
    ),
    *_helpers(
        "SC",
        "School Chum",
        Symbol.HELPER,
        ((1, 1, None, (DrawBonus(Deck.COMPANION, 3),)), (1, 1, None, (DrawBonus(Deck.EVENT, 3),))),
        first=3,
        note="ids SC1-SC5 chosen",
    ),
    *_helpers("VAL", "Valet", Symbol.HELPER, ((1, 1, None, (ExtraAction(1, white_only=True),)),)),
    # The expansion's helper: rulebook effect.
    HelperCard(
        id="WPL1",
        name="Wedding Planner",
        deck=Deck.HELPER,
        border=Border.BLACK,
        symbols=(Symbol.HELPER,),
        mark=Mark.RULEBOOK,
        note="laying it costs 1 action like the base helpers (the page's table); asked once a play (chosen)",
        expansion=True,
        lay_actions=1,
        privileges=(SymbolBonus(symbols=(Symbol.RING,), amount=1, optional=True),),
    ),
)

# --- Special cards (§11.5, §11.10) -----------------------------------------------------------------

_UPKEEP_NOTE: Final = "the printed upkeep is read as an optional expense, once a round (chosen)"


def _white_special(
    card_id: CardId,
    name: str,
    crowns: int,
    symbols: tuple[Symbol, ...],
    actions: int,
    money: int,
    *,
    deck: Deck = Deck.SPECIAL,
    icons: tuple[CompanionIcon, ...] = (),
    ball: tuple[BallLevel, ...] = (),
    nuptial: NuptialName | None = None,
    effect: SpecialEffect | None = None,
    mark: Mark = Mark.PUBLIC,
    note: str = "",
) -> EventCard:
    return EventCard(
        id=card_id,
        name=name,
        deck=deck,
        border=Border.WHITE,
        symbols=symbols,
        mark=mark,
        note=note,
        expansion=deck is Deck.NEW_SPECIAL,
        crowns=crowns,
        actions=actions,
        money=money,
        icons=icons,
        ball=ball,
        nuptial=nuptial,
        effect=effect,
    )


def _black_special(
    card_id: CardId,
    name: str,
    crowns: int,
    privileges: tuple[Privilege, ...],
    *,
    lay: int = 1,
    expense: Expense | None = None,
    symbol: Symbol = Symbol.HELPER,
    deck: Deck = Deck.SPECIAL,
    mark: Mark = Mark.PUBLIC,
    note: str = "",
) -> HelperCard:
    return HelperCard(
        id=card_id,
        name=name,
        deck=deck,
        border=Border.BLACK,
        symbols=(symbol,),
        mark=mark,
        note=note,
        expansion=deck is Deck.NEW_SPECIAL,
        crowns=crowns,
        lay_actions=lay,
        expense=expense,
        privileges=privileges,
    )


_SPECIAL_BALL: Final = _ball("2/3/4/5/6/7", "4/6/10/13/17/25")
_OLD_FRIEND: Final[tuple[Privilege, ...]] = (ExtraAction(1, white_only=False),)

SPECIAL_CARDS: Final[tuple[EventCard | HelperCard, ...]] = (
    # public: 6 one-crown cards ...
    _white_special(
        "S1-BF",
        "Breeders' Fair",
        1,
        (),
        1,
        0,
        effect=FreeTokens(count=2, companions=(DOG, HORSE), property_type=FARM),
        note="no symbol: rulebook",
    ),
    _black_special("S1-OF1", "Old Friend", 1, _OLD_FRIEND),
    _black_special("S1-OF2", "Old Friend", 1, _OLD_FRIEND),
    _black_special(
        "S1-EA", "Estate Agent", 1, (FreeActions(FreeAction.BUY_OR_SELL, Scope.NON_FARM, 2),), lay=2
    ),
    _black_special("S1-STW1", "Steward", 1, (FreeActions(FreeAction.MAINTAIN, Scope.FARM, 2),), lay=2),
    _black_special(
        "S1-STW2",
        "Steward",
        1,
        (FreeActions(FreeAction.MAINTAIN, Scope.NON_FARM, 1),),
        expense=_expense(0, 1),
        note=_UPKEEP_NOTE,
    ),
    # ... 5 two-crown cards ...
    _white_special(
        "S2-WPT",
        "Wild Party",
        2,
        (Symbol.PARTY,),
        1,
        0,
        effect=DropSteps(3, Scope.NON_FARM),
        mark=Mark.CHOSEN,
        note="the effect is our reading of the card; crowns public",
    ),
    _white_special("S2-HD", "Hectic Day", 2, (Symbol.CLOCK,), 1, 0, effect=GainActions(3)),
    _white_special("S2-BALL", "Ball", 2, (Symbol.PARTY,), 2, 4, ball=_SPECIAL_BALL),
    _black_special("S2-OF", "Old Friend", 2, _OLD_FRIEND, expense=_expense(0, 1), note=_UPKEEP_NOTE),
    _black_special(
        "SC5",
        "School Chum",
        2,
        (DrawBonus(None, 2),),
        expense=_expense(0, 2),
        note="draws from regular decks only (chosen); id chosen; " + _UPKEEP_NOTE,
    ),
    # ... 6 three-crown cards.
    _white_special("S3-HD1", "Hectic Day", 3, (Symbol.CLOCK,), 1, 2, effect=GainActions(2)),
    _white_special("S3-HD2", "Hectic Day", 3, (Symbol.CLOCK,), 1, 0, effect=GainActions(3)),
    _white_special("S3-CAR", "Carriage Ride", 3, (Symbol.CARRIAGE,), 1, 4),
    _white_special("S3-DIN", "Dinner", 3, (Symbol.DINE,), 1, 4),
    _black_special("S3-OF", "Old Friend", 3, _OLD_FRIEND, expense=_expense(0, 2), note=_UPKEEP_NOTE),
    _black_special("S3-EA", "Estate Agent", 3, (PriceModifier(Trade.SELL, Scope.NON_FARM, -4),)),
)

_NEW: Final = Deck.NEW_SPECIAL
NEW_SPECIAL_CARDS: Final[tuple[EventCard | HelperCard, ...]] = (
    # Crowns and the two nuptial cards rulebook; numbers chosen unless a note says otherwise.
    _white_special(
        "BP2",
        "Bachelor Party (special)",
        1,
        (Symbol.RING,),
        1,
        2,
        deck=_NEW,
        nuptial=NuptialName.BACHELOR_PARTY,
        effect=DiscardForMoney(
            symbols=(Symbol.HELM, Symbol.DINE), each=1, optional=True, helper_bonus=False, demotion=False
        ),
        mark=Mark.CHOSEN,
        note="the discards (+£1 each, no Sea Dog bonus, no demotion) are rulebook; the bot asks which (chosen)",
    ),
    _white_special(
        "S1-LAC",
        "Lost at Cards",
        1,
        (Symbol.PARTY,),
        1,
        0,
        deck=_NEW,
        effect=FreeSale(optional=True, ignore_market=True, estate_agent=True),
        mark=Mark.CHOSEN,
        note="the free sale ignoring market tokens is rulebook; Estate Agents and the £0 floor apply (chosen)",
    ),
    _black_special(
        "S1-PS",
        "Personal Secretary",
        1,
        (DrawAndKeep(draw=6, keep=1, actions=0, per_round=1, one_deck=True),),
        deck=_NEW,
        mark=Mark.CHOSEN,
        note="draw 6, keep 1 is rulebook; no action, once a round, one deck are chosen",
    ),
    _black_special(
        "S1-OB", "Opera Box", 1, (), expense=_expense(0, 2), symbol=Symbol.MASK, deck=_NEW, mark=Mark.CHOSEN
    ),
    _white_special(
        "WD2",
        "Wedding (special)",
        2,
        (Symbol.DINE, Symbol.CARRIAGE, Symbol.HELM, Symbol.RING),
        1,
        5,
        deck=_NEW,
        icons=_icons((GUEST, 3), (HORSE, 2)),
        nuptial=NuptialName.WEDDING,
        mark=Mark.CHOSEN,
        note="four symbols, matched by Waiter, Coachman, Sea Dog and Wedding Planner: rulebook",
    ),
    _white_special(
        "S2-REG",
        "Regatta",
        2,
        (Symbol.HELM,),
        2,
        6,
        deck=_NEW,
        icons=_icons((GUEST, 2), (DOG, 2), (CHEF, 2)),
        mark=Mark.CHOSEN,
    ),
    _white_special(
        "S2-GT",
        "Grand Tour",
        2,
        (Symbol.CARRIAGE,),
        3,
        10,
        deck=_NEW,
        icons=_icons((GUEST, 3)),
        mark=Mark.CHOSEN,
    ),
)

# --- Every card, and the decks ---------------------------------------------------------------------

ALL_CARDS: Final[tuple[Card, ...]] = (
    *PROPERTY_CARDS,
    *EVENT_CARDS,
    *HELPER_CARDS,
    *COMPANION_CARDS,
    *SPECIAL_CARDS,
    *NEW_SPECIAL_CARDS,
    *WILD_CARD_RECORDS,
)
CARDS: Final[Mapping[CardId, Card]] = {card.id: card for card in ALL_CARDS}
# Canonical order, base cards first; the engine shuffles with the state's seeded Rng.
DECK_CARDS: Final[Mapping[Deck, tuple[CardId, ...]]] = {
    deck: tuple(card.id for card in ALL_CARDS if card.deck is deck) for deck in Deck
}
# public / rulebook: special decks are stacked by crowns, each layer shuffled, the first on top.
CROWN_LAYERS: Final[Mapping[Deck, tuple[int, ...]]] = {Deck.SPECIAL: (1, 2, 3), Deck.NEW_SPECIAL: (1, 2)}


def deck_cards(deck: Deck, expansion: bool) -> tuple[CardId, ...]:
    """The ids dealt into a deck at setup; base mode leaves the expansion's cards in the box."""
    return tuple(i for i in DECK_CARDS[deck] if expansion or not CARDS[i].expansion)


def crown_layers(deck: Deck) -> tuple[tuple[CardId, ...], ...]:
    """A special deck's layers, top first; each is shuffled on its own, then stacked."""
    return tuple(
        tuple(i for i in DECK_CARDS[deck] if CARDS[i].crowns == crowns) for crowns in CROWN_LAYERS[deck]
    )


NUPTIAL_CARDS: Final[tuple[CardId, ...]] = tuple(
    card.id for card in ALL_CARDS if isinstance(card, EventCard) and card.nuptial is not None
)


# --- Names in the bot's catalog --------------------------------------------------------------------


def name_key(name: str) -> str:
    """The catalog key of a printed name: ``"Gentlemen's Club"`` -> ``"gentlemens_club"``.

    Cards and jobs keep their English printed names here (the components page's and the tests'
    language), but players read them from the bot's catalog, ``lastwill.card.<key>`` and
    ``lastwill.job.<key>``, so a French table names every card in French and the board and the
    messages agree; a test checks every key is in every catalog.
    """
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode("ascii")
    return "_".join(re.findall(r"[a-z0-9]+", plain.replace("'", "").lower()))


CARD_NAME_KEYS: Final[Mapping[CardId, str]] = {card.id: name_key(card.name) for card in ALL_CARDS}
"""Card id -> ``lastwill.card.<key>``: copies of a card share their name and its key."""
JOB_NAME_KEYS: Final[Mapping[CardId, str]] = {card.id: name_key(card.job) for card in EMPLOYMENT_CARDS}
"""Employment card id -> ``lastwill.job.<key>``."""

# --- Chosen rulings, for /game rules ---------------------------------------------------------------

# Catalog keys, in the order /game rules lists them: each is ``lastwill.chosen.<key>`` in the bot's
# catalog, one sentence a translation may reword (a test keeps the two lists equal).
CHOSEN_RULINGS: Final[tuple[str, ...]] = (
    # §1 table options
    "expansion_default",
    "expansion_off_options",
    "last_will_option",
    "last_will_ids",
    "penalty_option",
    "open_information",
    # §2 components and setup
    "companion_tokens",
    "discard_piles",
    "special_cards_leave",
    "wild_and_sacked",
    "starting_hand",
    "start_player",
    "handicap_pick",
    # §3 rounds
    "drawing_phase",
    "unplaced_boys",
    "unused_actions",
    "extra_action_timing",
    "valet_white_only",
    "free_actions",
    "purchase_round_depreciation",
    # §4 plans
    "original_plan_count",
    "plan_tile_numbers",
    "planning_board_sides",
    # §5 errands
    "draw_one",
    "market_swap",
    "demotion_capacity",
    "five_player_occupied",
    "space_placement",
    "no_second_extension",
    "demotion_blocking",
    "unemployed_demext",
    "new_supplemental_board",
    # §7 actions
    "companions",
    "helper_bonuses",
    "wedding_planner",
    "price_floor",
    "no_property_discard",
    "estate_agent_sign",
    # §8 symbols
    "symbols",
    # §9 employment
    "demotion_optional",
    "demotion_tokens",
    # §10 money and end
    "spend_to_zero",
    "unpayable",
    "bankruptcy_button",
    "bankruptcy_last_round",
    "nobody_wins",
    "ties",
    # §11 cards
    "training_ground",
    "school_chum_ids",
    "wild_party",
    "special_school_chum",
    "optional_upkeep",
    "employment_cards",
    "new_last_wills",
    "new_special_cards",
    "bachelor_party",
    "personal_secretary",
    "new_properties",
    "nuptial_events",
    # §12 variants
    "handicap_as_sacked",
    "original_plans_boys",
    "base_game",
    "variants_combine",
    # Engine rulings: what the page leaves open, settled while writing the engine
    "purchase_cash",
    "expense_bonuses",
    "agents_stack",
    "companion_best_icon",
    "narrowest_budget",
    "hectic_day",
    "wild_back_at_once",
    "special_targets",
    "dual_switch",
    "simultaneous_discards",
    "no_final_hand_limit",
    "nobody_wins_standings",
)
