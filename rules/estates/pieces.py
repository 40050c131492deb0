"""Pieces and actions as the engine names them: prebuilt actions, argument checks, descriptions.

Shared by the auction (``engine``), the placements (``placement``) and the
view, so every module describes a piece the same way.  No words for players
here: events and refusals carry tokens and numbers (``piece_params``), and the
presenter (``cogs/estates.py``) names them in the table's language.
"""

from __future__ import annotations

from rules.core import Action, IllegalAction
from rules.estates import data
from rules.estates.state import EstatesState

# Actions are immutable, so the ones legal_actions hands out are built once.
STOW = Action("stow")
PASS = Action("pass")
SELL = Action("sell")
BUY = Action("buy")
DISCARD = Action("discard")
PICK_CUBE = tuple(Action("pick", (token,)) for token in data.CUBE_TOKEN)
PICK_ROOF = Action("pick", (data.ROOF,))
PICK_PERMIT = {v: Action("pick", (t,)) for v, t in data.PERMIT_TOKEN.items()}
PICK_MAYOR = Action("pick", (data.MAYOR,))
PICK_CANCEL = Action("pick", (data.CANCEL,))
BIDS = tuple(Action("bid", (n,)) for n in range(data.START_MONEY * data.MAX_PLAYERS + 1))
PLACE_AT = tuple(
    tuple(Action("place", (name, lot)) for lot in range(data.LOTS + 1)) for name in data.ROW_NAMES
)
PERMIT_AT = tuple(
    {True: Action("permit", (name, data.LONGER)), False: Action("permit", (name, data.SHORTER))}
    for name in data.ROW_NAMES
)
MAYOR_AT = tuple(Action("mayor", (name,)) for name in data.ROW_NAMES)
CANCEL_PERMIT = {v: Action("cancel", (t,)) for v, t in data.PERMIT_TOKEN.items()}

Args = tuple[int | str, ...]


def word(args: Args, index: int) -> str:
    if len(args) <= index or not isinstance(args[index], str):
        raise IllegalAction("malformed")
    return str(args[index])


def number(args: Args, index: int) -> int:
    value = args[index] if len(args) > index else None
    if not isinstance(value, int):
        raise IllegalAction("malformed")
    return value


def arity(args: Args, count: int) -> None:
    if len(args) != count:
        raise IllegalAction("malformed")


def row_index(name: str) -> int:
    if name not in data.ROW_NAMES:
        raise IllegalAction("no_such_row", row=name)
    return data.ROW_NAMES.index(name)


def high_bid(state: EstatesState) -> tuple[int, int] | None:
    """(seat, amount) of the highest bid so far; bids only ever rise, so it is the last one."""
    for seat, amount in reversed(state.bids):
        if amount is not None:
            return seat, amount
    return None


def min_bid(state: EstatesState) -> int:
    high = high_bid(state)
    return data.MIN_FIRST_BID if high is None else high[1] + 1


def piece_params(state: EstatesState, piece: str) -> dict[str, object]:
    """The JSON description of a piece that every auction event carries for phrasing."""
    if piece == data.ROOF:
        return {"piece": piece, "kind": "roof", "value": state.roof_value}
    return token_params(piece)


def token_params(piece: str) -> dict[str, object]:
    """What a piece token alone tells (``piece_params`` without the state): a refusal names its piece
    by token, and the presenter phrases it from this.  A rooftop's value is not in its token."""
    if piece in data.TOKEN_CUBE:
        cube = data.TOKEN_CUBE[piece]
        return {
            "piece": piece,
            "kind": "cube",
            "colour": data.COLOURS[data.CUBE_COLOUR[cube]],
            "number": data.CUBE_NUMBER[cube],
        }
    if piece in data.TOKEN_PERMIT:
        return {"piece": piece, "kind": "permit", "value": data.TOKEN_PERMIT[piece]}
    if piece in (data.ROOF, data.MAYOR, data.CANCEL):
        return {"piece": piece, "kind": piece}
    return {"piece": piece, "kind": "unknown"}
