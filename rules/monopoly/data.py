"""Every number, space, card and ruling of Monopoly California Dreaming in one place.

Sources per constant: *rulebook* (seeds/monopoly-california-dreaming.txt, the authority),
*public* (components page: standard US prices by position, bank supply, classic rulings) and
*chosen* (components page rulings marked chosen, or decided here and marked "chosen (engine)").
The engine reads only these names, so a host may rename or reprice the board here and nowhere
else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

# --- Players and money -----------------------------------------------------------------------

MIN_PLAYERS: Final = 2  # rulebook: 2-6 players
MAX_PLAYERS: Final = 6  # rulebook
START_CASH: Final = 1500  # rulebook: 2x500, 4x100, 50, 20, 2x10, 5, 5x1
GO_SALARY: Final = 200  # rulebook: collect $200 passing or landing on GO
POOL_FINE: Final = 50  # rulebook: pay $50 to leave the Pool Party
POOL_TRIES: Final = 3  # rulebook: wait at most three turns
DOUBLES_LIMIT: Final = 3  # rulebook: a third double in one turn goes to the Pool Party
MORTGAGE_INTEREST_PERCENT: Final = 10  # rulebook: repay the value plus 10% (rounded up: public)
MONEY_IN_BOX: Final = 20580  # public: the notes in the box; the bank holds what players do not.
# The bank never goes broke (rulebook: "writing on ordinary paper"), so its balance may go below
# zero; only the total (bank + players) is conserved.

# --- Board -----------------------------------------------------------------------------------

SPACES: Final = 40
POOL: Final = 10  # the Pool Party space (jail / just visiting)
GO_TO_POOL: Final = 30

# Space kinds.
GO: Final = "go"
SITE: Final = "site"
AIRPORT: Final = "airport"
UTILITY: Final = "utility"
CHANCE: Final = "chance"
TIPJAR: Final = "tipjar"
TAX: Final = "tax"
POOL_VISIT: Final = "pool"
PARKING: Final = "parking"
GOTO: Final = "goto"

BROWN, LIGHT_BLUE, PINK, ORANGE, RED, YELLOW, GREEN, DARK_BLUE = (
    "brown",
    "lightblue",
    "pink",
    "orange",
    "red",
    "yellow",
    "green",
    "darkblue",
)


@dataclass(frozen=True, slots=True)
class Space:
    """One board space; ``rents`` are for 0-4 houses and a hotel (sites only)."""

    name: str
    kind: str
    group: str = ""
    price: int = 0
    rents: tuple[int, ...] = ()
    house_cost: int = 0
    tax: int = 0


def _site(name: str, group: str, price: int, rents: tuple[int, ...], house: int) -> Space:
    return Space(name, SITE, group, price, rents, house)


# public: standard US prices and rents by position under California names (chosen names).
BOARD: Final[tuple[Space, ...]] = (
    Space("GO", GO),
    _site("Route 66", BROWN, 60, (2, 10, 30, 90, 160, 250), 50),
    Space("Tip Jar", TIPJAR),
    _site("Mojave Desert", BROWN, 60, (4, 20, 60, 180, 320, 450), 50),
    Space("Income Tax", TAX, tax=200),
    Space("LAX Airport", AIRPORT, AIRPORT, 200),
    _site("Lower Haight", LIGHT_BLUE, 100, (6, 30, 90, 270, 400, 550), 50),
    Space("Chance", CHANCE),
    _site("Haight-Ashbury", LIGHT_BLUE, 100, (6, 30, 90, 270, 400, 550), 50),
    _site("Castro Street", LIGHT_BLUE, 120, (8, 40, 100, 300, 450, 600), 50),
    Space("Pool Party", POOL_VISIT),
    _site("Venice Beach", PINK, 140, (10, 50, 150, 450, 625, 750), 100),
    Space("Electric Company", UTILITY, UTILITY, 150),
    _site("Santa Monica Pier", PINK, 140, (10, 50, 150, 450, 625, 750), 100),
    _site("Muscle Beach", PINK, 160, (12, 60, 180, 500, 700, 900), 100),
    Space("SFO Airport", AIRPORT, AIRPORT, 200),
    _site("Big Sur", ORANGE, 180, (14, 70, 200, 550, 750, 950), 100),
    Space("Tip Jar", TIPJAR),
    _site("Monterey Bay", ORANGE, 180, (14, 70, 200, 550, 750, 950), 100),
    _site("Carmel-by-the-Sea", ORANGE, 200, (16, 80, 220, 600, 800, 1000), 100),
    Space("Free Parking", PARKING),
    _site("Yosemite Valley", RED, 220, (18, 90, 250, 700, 875, 1050), 150),
    Space("Chance", CHANCE),
    _site("Lake Tahoe", RED, 220, (18, 90, 250, 700, 875, 1050), 150),
    _site("Napa Valley", RED, 240, (20, 100, 300, 750, 925, 1100), 150),
    Space("San Diego Airport", AIRPORT, AIRPORT, 200),
    _site("Hollywood Boulevard", YELLOW, 260, (22, 110, 330, 800, 975, 1150), 150),
    _site("Sunset Blvd.", YELLOW, 260, (22, 110, 330, 800, 975, 1150), 150),
    Space("Water Works", UTILITY, UTILITY, 150),
    _site("Mulholland Drive", YELLOW, 280, (24, 120, 360, 850, 1025, 1200), 150),
    Space("Go to Pool Party", GOTO),
    _site("Golden Gate Park", GREEN, 300, (26, 130, 390, 900, 1100, 1275), 200),
    _site("Lombard Street", GREEN, 300, (26, 130, 390, 900, 1100, 1275), 200),
    Space("Tip Jar", TIPJAR),
    _site("Pacific Coast Highway", GREEN, 320, (28, 150, 450, 1000, 1200, 1400), 200),
    Space("Palm Springs Airport", AIRPORT, AIRPORT, 200),
    Space("Chance", CHANCE),
    _site("Beverly Hills Hotel", DARK_BLUE, 350, (35, 175, 500, 1100, 1300, 1500), 200),
    Space("Luxury Tax", TAX, tax=100),
    _site("Rodeo Drive", DARK_BLUE, 400, (50, 200, 600, 1400, 1700, 2000), 200),
)
assert len(BOARD) == SPACES

PROPERTIES: Final[tuple[int, ...]] = tuple(i for i, s in enumerate(BOARD) if s.price)
GROUPS: Final[dict[str, tuple[int, ...]]] = {}
for _i in PROPERTIES:
    GROUPS.setdefault(BOARD[_i].group, ())
    GROUPS[BOARD[_i].group] += (_i,)
AIRPORTS: Final = GROUPS[AIRPORT]
UTILITIES: Final = GROUPS[UTILITY]

AIRPORT_RENT: Final[tuple[int, ...]] = (0, 25, 50, 100, 200)  # rulebook: by airports owned
UTILITY_MULTIPLIER: Final[tuple[int, ...]] = (0, 4, 10)  # rulebook: 4x dice, 10x with both
AIRPORTS_COUNT_MORTGAGED: Final = True  # chosen: every airport held counts, mortgaged included
FULL_SET_MULTIPLIER: Final = 2  # rulebook: unimproved site rent doubled for a full unmortgaged set
HOTEL: Final = 5  # a hotel is stored as building level 5 (counts as 5 houses for evenness: chosen)
MAX_HOUSES: Final = 4  # rulebook
HOUSE_SUPPLY: Final = 32  # public
HOTEL_SUPPLY: Final = 12  # public
SELL_BACK_DIVISOR: Final = 2  # rulebook: buildings sell back at half price
MORTGAGE_DIVISOR: Final = 2  # public: mortgage value = half the price


def mortgage_value(pos: int) -> int:
    return BOARD[pos].price // MORTGAGE_DIVISOR


def repay_cost(pos: int) -> int:
    """Mortgage plus 10%, rounded up to whole dollars (rulebook + public rounding)."""
    value = mortgage_value(pos)
    return value + fee(pos)


def fee(pos: int) -> int:
    """The 10% interest on a mortgage, rounded up (paid by a receiver who keeps it mortgaged)."""
    value = mortgage_value(pos)
    return -(-value * MORTGAGE_INTEREST_PERCENT // 100)


# Derived per-position tables (from the board above), read where the engine runs for every seat at
# every step of play: a tuple index instead of a lookup through ``BOARD`` and ``GROUPS``.
SITES: Final[tuple[int, ...]] = tuple(p for p in PROPERTIES if BOARD[p].kind == SITE)
IS_SITE: Final[tuple[bool, ...]] = tuple(s.kind == SITE for s in BOARD)
GROUP_AT: Final[tuple[tuple[int, ...], ...]] = tuple(
    GROUPS.get(s.group, ()) if s.price else () for s in BOARD
)
"""Each position's colour group (airports and utilities: their own kind; other spaces: empty)."""
MORTGAGE_VALUE: Final[tuple[int, ...]] = tuple(mortgage_value(p) for p in range(SPACES))
REPAY_COST: Final[tuple[int, ...]] = tuple(repay_cost(p) for p in range(SPACES))


# --- Cards -----------------------------------------------------------------------------------

DECKS: Final[tuple[str, ...]] = (CHANCE, TIPJAR)

# Card effects: (kind, arg).  Kinds:
#   advance <pos>      move forward to pos, GO salary if passed (rulebook + public)
#   nearest airport|utility  move forward to the nearest one (GO salary if passed); airport:
#                      pay twice the rent; utility: roll again and pay 10x (public)
#   back <n>           move back n spaces (no GO salary)
#   collect <n>        the bank pays n;  pay <n>  pay the bank n
#   repairs <house>.<hotel>  pay the bank per house and per hotel (encoded as house*1000+hotel)
#   each_pay <n>       pay every other player n (Elected chairman)
#   each_collect <n>   collect n from every other player (Birthday)
#   getout             keep until used; returns to the bottom of its deck
#   pool               go to the Pool Party (no GO salary, turn ends)


@dataclass(frozen=True, slots=True)
class Card:
    token: str
    text: str
    kind: str
    arg: int = 0


CHANCE_CARDS: Final[tuple[Card, ...]] = (
    Card("go", "Advance to GO", "advance", 0),
    Card("rodeo", "Advance to Rodeo Drive", "advance", 39),
    Card("napa", "Advance to Napa Valley", "advance", 24),
    Card("venice", "Advance to Venice Beach", "advance", 11),
    Card("airport1", "Advance to the nearest Airport", "nearest_airport"),
    Card("airport2", "Advance to the nearest Airport", "nearest_airport"),
    Card("utility", "Advance to the nearest utility", "nearest_utility"),
    Card("dividend", "Bank pays you $50", "collect", 50),
    Card("float", "Your Float Popped: get out of the Pool Party", "getout"),
    Card("back3", "Go back 3 spaces", "back", 3),
    Card("pool", "Go to the Pool Party", "pool"),
    Card("repairs", "General repairs: $25 per house, $100 per hotel", "repairs", 25 * 1000 + 100),
    Card("ticket", "Parking ticket: pay $15", "pay", 15),
    Card("lax", "Fly from LAX", "advance", 5),
    Card("chairman", "Elected chairman: pay each player $50", "each_pay", 50),
    Card("loan", "Building loan matures: collect $150", "collect", 150),
)
TIPJAR_CARDS: Final[tuple[Card, ...]] = (
    Card("go", "Advance to GO", "advance", 0),
    Card("error", "Bank error in your favour: collect $200", "collect", 200),
    Card("doctor", "Doctor's fee: pay $50", "pay", 50),
    Card("stock", "Sale of stock: collect $50", "collect", 50),
    Card("party", "Party Canceled: get out of the Pool Party", "getout"),
    Card("pool", "Go to the Pool Party", "pool"),
    Card("holiday", "Holiday fund: collect $100", "collect", 100),
    Card("refund", "Tax refund: collect $20", "collect", 20),
    Card("birthday", "Birthday: collect $10 from every player", "each_collect", 10),
    Card("insurance", "Life insurance: collect $100", "collect", 100),
    Card("hospital", "Hospital fees: pay $100", "pay", 100),
    Card("school", "School fees: pay $50", "pay", 50),
    Card("consultancy", "Receive $25 consultancy fee", "collect", 25),
    Card("streets", "Street repairs: $40 per house, $115 per hotel", "repairs", 40 * 1000 + 115),
    Card("beauty", "Beauty contest second prize: collect $10", "collect", 10),
    Card("inheritance", "Inheritance: collect $100", "collect", 100),
)
# rulebook (components §3, changes 2026-11-28): "Receive $25 consultancy fee" brings $25.
CARDS: Final[dict[str, tuple[Card, ...]]] = {CHANCE: CHANCE_CARDS, TIPJAR: TIPJAR_CARDS}
DECK_SIZE: Final = 16
assert all(len(cards) == DECK_SIZE for cards in CARDS.values())
GETOUT_CARD: Final[dict[str, int]] = {
    deck: next(i for i, c in enumerate(cards) if c.kind == "getout") for deck, cards in CARDS.items()
}
NEAREST_AIRPORT_RENT_MULTIPLIER: Final = 2  # public: pay twice the rent
NEAREST_UTILITY_MULTIPLIER: Final = 10  # public: roll and pay 10x the roll

# --- Rulings ---------------------------------------------------------------------------------

RENT_MODES: Final[tuple[str, ...]] = ("auto", "ask")
DEFAULT_RENT_MODE: Final = "auto"  # chosen: rent is collected automatically; "ask" is the rulebook's
DEFAULT_TURNS: Final = 0  # chosen: no round limit; the game ends when one player is left
PLAY_TURNS: Final = 15  # chosen (tooling): the round limit random play and `simulate` use
MAX_TURNS_OPTION: Final = 1000
SAFETY_ROUNDS: Final = 400
"""chosen (engine): even with ``turns=0`` a game ends by net worth after this many full rounds.
Four hundred rounds is far beyond any human game (a long table game is 50-100 rounds) but
bounds a game that nobody can win (two careful players with no sets can circle for ever, and
uniformly random play, which mortgages and repays at random, does).  Announced in the
``game_over`` event's ``reason`` ("rounds")."""
START_TIE_REROLL: Final = True  # chosen: tied highest start rolls reroll among themselves
PAY_BEFORE_ROLL_IS_NORMAL_TURN: Final = True  # chosen: after paying/card, doubles roll again
POOL_DOUBLES_ROLL_AGAIN: Final = False  # public: doubles out of the Pool Party give no extra roll
AUCTION_MIN_BID: Final = 1  # rulebook: bidding from $1
OPEN: Final = "open"
ROUND: Final = "round"
AUCTION_MODES: Final[tuple[str, ...]] = (OPEN, ROUND)
"""chosen (components §3): ``open``, any player still in bids at any time and the auction closes
when all the others have passed since the high bid (the rulebook's "If no one makes a higher bid,
the last player to bid must buy"); ``round``, bidders raise or pass in turn order."""
DEFAULT_AUCTION_MODE: Final = OPEN  # chosen (components §3): open auctions by default
DEFAULT_AUCTION_HOURS: Final = 24  # chosen (components §3): the auction clock, restarted at every bid
MAX_AUCTION_HOURS: Final = 24 * 14  # chosen (engine): two weeks, the longest any table timer runs
SAVED_AUCTION_MODE: Final = ROUND
SAVED_AUCTION_HOURS: Final = 0
"""chosen (engine): a game saved before auctions had a mode was played with round-robin auctions
and no auction clock, and keeps them when it loads."""
BIDS_CAPPED_AT_CASH: Final = True  # chosen: no auction debt
BID_STEPS: Final[tuple[int, ...]] = (1, 10, 100)
"""chosen (engine): the raises ``legal_actions`` lists (over the high bid), plus "all in" at the
bidder's cash (in an open auction, at the whole cash of each bidder still bidding).  Any whole
bid up to the bidder's cash applies (a Discord form types it); listing every amount would make
lists of up to thousands of actions."""
CASH_STEPS: Final[tuple[int, ...]] = (0, 50, 200)
"""chosen (engine): deal cash amounts ``legal_actions`` lists (plus the payer's whole cash);
any whole amount up to it applies."""
NO_ANYTIME_IN_AUCTION: Final = True  # chosen: while an auction or shortage claim is open only
# its own actions are open
HOTEL_SALE_KEEPS_GROUP_EVEN: Final = True
"""chosen (components §3, changes 2026-11-28): a hotel sold back when the bank holds fewer than four
houses takes its whole group down to the highest even levels the bank's houses allow, the other
sites losing houses first; among equal choices the dearer site (then the later one on the board)
keeps more.  Every building removed is refunded at half its price."""
DEBT_OPEN_ACTIONS: Final[frozenset[str]] = frozenset(
    {"sell", "mort", "deal", "give", "want", "givec", "wantc", "cash", "ask", "send", "drop"}
)
"""chosen (engine): while someone is in debt, every seat may still sell, mortgage and deal (the
debtor raises money, the others may buy from them); building and repaying wait until it is paid.
Answers to offers stay open too."""
