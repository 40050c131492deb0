"""Every number and ruling of The Estates in one place.

Sources are cited per constant: *rulebook* (seeds/the-estates.txt), *public*
(components page: official digital rules or several sources agree) and
*chosen* (our decision where both are silent or terse).  The engine reads
only these names, so a ruling changes here and nowhere else.
"""

from __future__ import annotations

from typing import Final

# --- Players and money -------------------------------------------------------

MIN_PLAYERS: Final = 2  # issue: 2-5 players
MAX_PLAYERS: Final = 5  # issue: 2-5 players
START_MONEY: Final = 12  # rulebook setup step 6: $12 million each
STOW_AMOUNT: Final = 1  # rulebook: stow $1 million per turn into the cash box
MIN_FIRST_BID: Final = 1  # public: the first bid is at least $1 million
CASH_BOX_POINTS: Final = 1  # rulebook: 1 point per check in the cash box

# --- Floor cubes and companies ---------------------------------------------------

# public: six colours, one company certificate each (names from the components page).
COLOURS: Final[tuple[str, ...]] = ("blue", "red", "yellow", "green", "purple", "gray")
COMPANIES: Final[tuple[str, ...]] = (
    "Skyline Capital",
    "Sienna Securities",
    "Golden Realty",
    "Emerald Properties",
    "Heather Equity",
    "Collar Investments",
)
# public: colours need a letter or pattern for colour-blind players; renderers use these marks.
COLOUR_MARKS: Final[tuple[str, ...]] = ("Bl", "Re", "Ye", "Gn", "Pu", "Gy")
CUBE_NUMBERS: Final[tuple[int, ...]] = (1, 2, 3, 4, 5, 6)  # public: numbers 1-6 in every colour
CUBE_COUNT: Final = len(COLOURS) * len(CUBE_NUMBERS)  # rulebook: 36 floor cubes
CUBES_DRAWN: Final = 24  # rulebook setup step 3: draw 24 of the 36
DISPLAY_ROWS: Final = 3  # rulebook setup step 3: 3 rows ...
DISPLAY_LENGTH: Final = 8  # rulebook setup step 3: ... of 8 cubes each
MAX_STACK: Final = 6  # rulebook: at most 6 floor cubes in one lot (strictly falling numbers)

# A cube is an int 0..35 inside the state (fast comparisons); players and logs see "blue5".
CUBE_COLOUR: Final[tuple[int, ...]] = tuple(c // len(CUBE_NUMBERS) for c in range(CUBE_COUNT))
CUBE_NUMBER: Final[tuple[int, ...]] = tuple(CUBE_NUMBERS[c % len(CUBE_NUMBERS)] for c in range(CUBE_COUNT))
CUBE_TOKEN: Final[tuple[str, ...]] = tuple(
    f"{COLOURS[CUBE_COLOUR[c]]}{CUBE_NUMBER[c]}" for c in range(CUBE_COUNT)
)
TOKEN_CUBE: Final[dict[str, int]] = {token: cube for cube, token in enumerate(CUBE_TOKEN)}

# --- Rooftops, permits, Mayor, Cancel cube ---------------------------------------

ROOFTOPS: Final[tuple[int, ...]] = (1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6)  # public: 12, values 1-6 twice
PERMITS: Final[tuple[int, ...]] = (1, 2, 3)  # rulebook: the 1, 2 and 3 barriers
MAYOR_MULTIPLIER: Final = 2  # rulebook: the Mayor doubles every building of its row

# Piece tokens used in actions and events (cubes use CUBE_TOKEN).
ROOF: Final = "roof"
MAYOR: Final = "mayor"
CANCEL: Final = "cancel"
PERMIT_TOKEN: Final[dict[int, str]] = {v: f"permit{v}" for v in PERMITS}
TOKEN_PERMIT: Final[dict[str, int]] = {t: v for v, t in PERMIT_TOKEN.items()}
LONGER: Final = "longer"
SHORTER: Final = "shorter"

# --- Board ----------------------------------------------------------------------

ROW_NAMES: Final[tuple[str, ...]] = ("A", "B", "C")  # public: A top, B middle, C bottom
LOTS: Final = 10  # public: 10 lots per row, numbered 1-10 from Main Street
RIVER_AFTER_LOT: Final = 4  # public: lots 1-4 before the river, 5-10 beyond it
START_REQUIREMENT: Final = 4  # rulebook + public: every row starts at 4 buildings
MAX_REQUIREMENT: Final = LOTS - 1  # public: R' <= 9 so the permit still has lot R'+1 to sit on
MIN_REQUIREMENT: Final = 0  # chosen: R' = 0 is allowed ...
ZERO_LENGTH_ROW_COMPLETE: Final = True  # chosen: ... and a row of length 0 counts as complete
# public: white-dirt lots hold one floor cube in total (then only a rooftop), 1-based per row.
WHITE_DIRT: Final[tuple[frozenset[int], ...]] = (
    frozenset({1, 7}),  # row A
    frozenset({3, 5}),  # row B
    frozenset({2}),  # row C
)
WHITE_DIRT_CAPACITY: Final = 1  # rulebook: white-dirt lots may only have a total of 1 floor cube

# --- Auction rulings --------------------------------------------------------------
# "chosen (components)" = marked chosen on the components page; "chosen (engine)" = decided here.

# chosen (components): an auctioneer who cannot pay the high bid must sell.  Engine: "buy" is
# left out of their legal actions and refused privately with the reason (the UI still shows both
# buttons, so nobody learns that the auctioneer is short of money).  Not a switch: there is no debt.
# chosen (engine): legal_actions lists "pass" and every whole bid from the minimum up to the money
# in hand (at most 61 actions), so the list is exact; a higher bid is refused with the balance.
# chosen (engine): the picked floor cube stays in its display row until it is placed, so a cube is
# always in exactly one of display / board / out of game.
# chosen (engine): stowing is told only to the stowing seat; nothing public mentions it, because
# with $1 per stow any public notice would reveal the cash box.

# --- End of a round ---------------------------------------------------------------

COMPLETE_ROWS_TO_END: Final = 2  # rulebook: the game ends at once when 2 rows are complete
# chosen (components, corrected): "no more buildings can be completed" is tested after every
# action that changes the board or the supply: no rooftops remain; or no unroofed building exists
# and no floor cube is left to place (the display is empty); or no unroofed building exists and no
# remaining floor cube could be placed even after an unused permit opened a lot for it.  An empty
# display ends the round even with permits unused (they would only reshuffle row completion while
# players farm cash-box points).  chosen (engine): "opened a lot" = could legally lengthen some row
# (R + v <= 9); a piece under auction still counts as remaining (so a pick never ends a round); the
# Cancel cube does not count as opening a lot (the page names permits only).  The test runs right
# after the placement, before the next turn starts (``rounds.finish_turn``, ``board.stalled``).
# public: a building whose top colour nobody holds scores for nobody (cannot happen in practice,
# since placing the first cube of a colour always hands out its certificate).
# public: final ties go to the most checks in hand plus cash box; still tied, a shared place.

# --- Several rounds -----------------------------------------------------------------

DEFAULT_ROUNDS: Final = 1  # issue: option `rounds`, default 1
MAX_ROUNDS: Final = 5  # chosen (engine): upper bound for the option
ROUND_WINS_TO_END: Final = 2  # rulebook: a player who wins 2 rounds ends the match and wins it
CASH_BOX_BACK_TO_HAND: Final = True  # chosen (components): the cash box returns to the hand
# chosen (engine): every seat ranked first in a round (score, then checks) wins that round.
TIED_ROUND_WINNERS_ALL_WIN: Final = True
# rulebook: setup (including "randomly determine the starting player") is repeated every round.
RANDOM_START_EACH_ROUND: Final = True
# chosen (engine): the match ranking key is (has two round wins, total score, checks in hand plus
# cash box); equal keys share a place.  "That player is the final winner" (rulebook) puts a
# two-round winner first even with a lower total.
# chosen (engine): until the match is over, public views and events carry only each seat's
# building points and the round winners; a round score includes the cash box and would reveal it.
# Each seat is told its own round score privately; ``outcome`` reveals everything at the end.
