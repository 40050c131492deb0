"""The actions ``legal_actions`` lists, built once and shared.

Random play and a bot's playouts ask for every seat's legal actions at nearly every step, and a
Monopoly seat has dozens (a property's build, sell and mortgage, a draft's toggles and cash
amounts).  Building an ``Action`` checks its kind and arguments against regular expressions,
about 3 µs each, which was a fifth of random play's time; an ``Action`` is frozen, so one
object serves every state and every game.  Positions get a table per kind; numbers (offers,
amounts) are remembered as they come, up to :data:`REMEMBERED`.
"""

from __future__ import annotations

from typing import Final

from rules.core import Action
from rules.monopoly import data

ROLL: Final = Action("roll")
BUY: Final = Action("buy")
DECLINE: Final = Action("decline")
END: Final = Action("end")
FINE: Final = Action("fine")
PASS: Final = Action("pass")
NOCLAIM: Final = Action("noclaim")
BANKRUPT: Final = Action("bankrupt")
SEND: Final = Action("send")
DROP: Final = Action("drop")

_AT_KINDS = ("build", "sell", "mort", "unmort", "give", "want", "rent", "keep", "lift", "claim")
_AT: Final[dict[str, tuple[Action, ...]]] = {
    kind: tuple(Action(kind, (pos,)) for pos in range(data.SPACES)) for kind in _AT_KINDS
}
_DECK: Final[dict[tuple[str, str], Action]] = {
    (kind, deck): Action(kind, (deck,)) for kind in ("card", "givec", "wantc") for deck in data.DECKS
}
_DEAL: Final[tuple[Action, ...]] = tuple(Action("deal", (seat,)) for seat in range(data.MAX_PLAYERS))

REMEMBERED: Final = 1 << 15
"""Numbers below this are remembered per kind (a seat's cash, a bid, an offer number): a game's
amounts stay far below it, so the memory stays small even in a long-running host."""
_NUMBERED: dict[tuple[str, int], Action] = {}


def at(kind: str, pos: int) -> Action:
    """``<kind>.<pos>`` for a board position (``build``, ``sell``, ``mort``, ``give``...)."""
    return _AT[kind][pos]


def with_deck(kind: str, deck: str) -> Action:
    """``card``, ``givec`` or ``wantc`` naming a deck's get-out card."""
    return _DECK[(kind, deck)]


def deal(seat: int) -> Action:
    return _DEAL[seat]


def numbered(kind: str, n: int) -> Action:
    """``<kind>.<n>`` for an amount or an offer number (``bid``, ``cash``, ``ask``, ``accept``...)."""
    if not 0 <= n < REMEMBERED:
        return Action(kind, (n,))
    key = (kind, n)
    found = _NUMBERED.get(key)
    if found is None:
        found = _NUMBERED[key] = Action(kind, (n,))
    return found


_LADDERS: dict[tuple[str, int], tuple[Action, ...]] = {}


def ladder(kind: str, cash: int) -> tuple[Action, ...]:
    """``cash.<n>`` (or ``ask.<n>``) for the deal amounts listed to a payer holding ``cash``:
    ``data.CASH_STEPS`` (ascending) below it, then all of it."""
    key = (kind, cash)
    found = _LADDERS.get(key)
    if found is None:
        found = (*(numbered(kind, n) for n in data.CASH_STEPS if n < cash), numbered(kind, cash))
        if 0 <= cash < REMEMBERED:
            _LADDERS[key] = found
    return found
