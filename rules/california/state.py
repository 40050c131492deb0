"""California's game state: plain data that round-trips through JSON exactly.

Tiles are ids ``0..87``; what a tile is comes from :data:`TILE_KIND` and
:data:`TILE_COLOUR`, built from the counts in :mod:`rules.california.data`.
Every tile id lives in exactly one place: the draw stack, a store slot, the
bag, or one player's mansion (a room, a piece of furniture on a room, an attic
space, the attic expansion).

Money is silver.  The coin stock is unlimited, so it is not stored; instead
``minted`` (silver ever paid out of the stock, the bank's refills included) and
``returned`` (silver ever paid into it) are, and the money held by players and
the bank always equals ``minted - returned``.  The gift and loan-marker piles
are stored as counts, like the physical piles, so that their conservation
(pile + what the players hold == 30 gifts / 5 markers) can be checked.

``last`` is the last public move (who, what, and where it changed the table),
kept so the board image can point at it; it is set by ``apply`` only, so a
replay of the log rebuilds it exactly.  A state saved before it existed loads
with ``last = None``: adding it needed no new schema number, because an old
state is a valid new one that simply has no move to point at.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import StateError
from rules.rng import Rng

from . import data

SCHEMA = 1

ROOM, FURNITURE, EXPANSION = "room", "furniture", "expansion"

LAST_ACTIONS = ("coin", "buy", "loan", "repay")
"""What ``State.last["action"]`` may say (a loan taken to pay for a purchase is a ``buy`` with ``loan``)."""

LastMove = dict[str, int | str | bool | None]
"""``{"seat": 2, "action": "buy", "store": 0, "slot": 3, "target": 5, ...}``: see ``engine``'s docstring."""

TILE_KIND: tuple[str, ...] = (
    (ROOM,) * (len(data.COLOURS) * data.ROOMS_PER_COLOUR)
    + (FURNITURE,) * (len(data.COLOURS) * data.FURNITURE_PER_COLOUR)
    + (EXPANSION,) * data.EXPANSIONS
)
TILE_COLOUR: tuple[int, ...] = (
    tuple(c for c in range(len(data.COLOURS)) for _ in range(data.ROOMS_PER_COLOUR))
    + tuple(c for c in range(len(data.COLOURS)) for _ in range(data.FURNITURE_PER_COLOUR))
    + (-1,) * data.EXPANSIONS
)
if len(TILE_KIND) != data.TILE_COUNT:  # pragma: no cover - a data edit gone wrong
    raise ValueError(f"the tile mix adds up to {len(TILE_KIND)} tiles, not {data.TILE_COUNT}")


@dataclass(slots=True)
class Player:
    """One player's mansion and assets (all public)."""

    board: int  # 0-based index into data.BOARD_PRINTED_COLOURS
    money: int  # silver
    rooms: list[int | None]  # room tile per ground-floor space; the printed space stays None
    furniture: list[int | None]  # furniture tile per ground-floor space
    attic: list[
        int
    ]  # furniture stored in the attic (1 space, 2 once expanded), filled from the printed space
    expansion: int | None = None  # the attic expansion tile, once placed
    loan: bool = False
    gifts: int = 0

    @property
    def printed_colour(self) -> int:
        return data.BOARD_PRINTED_COLOURS[self.board]

    def to_json(self) -> dict[str, Any]:
        return {
            "board": self.board,
            "money": self.money,
            "rooms": list(self.rooms),
            "furniture": list(self.furniture),
            "attic": list(self.attic),
            "expansion": self.expansion,
            "loan": self.loan,
            "gifts": self.gifts,
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> Player:
        return cls(
            board=_int(d["board"]),
            money=_int(d["money"]),
            rooms=_tiles(d["rooms"], data.SPACES),
            furniture=_tiles(d["furniture"], data.SPACES),
            attic=[_int(t) for t in d["attic"]],
            expansion=_opt_int(d["expansion"]),
            loan=_bool(d["loan"]),
            gifts=_int(d["gifts"]),
        )


@dataclass(slots=True)
class State:
    """The full game, hidden order of the draw stack and the bag included."""

    players: list[Player]
    rng: Rng
    day: int  # 1..DAYS
    turn: int  # seat on turn
    bank: int  # gold coins on the bank
    stores: list[list[int | None]]  # [store][slot] -> tile
    stack: list[int]  # face-down draw stack, top at the end
    bag: list[int]
    bonus: list[int | None]  # owner seat per bonus card
    guests: list[int | None]  # seat each colour's guest is visiting
    gift_supply: int
    loan_supply: int
    minted: int  # silver ever paid out of the stock
    returned: int  # silver ever paid into the stock
    ending: str | None = None  # "bonus" or "mansion": the game ends with this day
    over: bool = False
    last: LastMove | None = None  # the last public move, for the board image

    @property
    def n(self) -> int:
        return len(self.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": SCHEMA,
            "game": "california",
            "rng": self.rng.to_json(),
            "day": self.day,
            "turn": self.turn,
            "bank": self.bank,
            "stores": [list(s) for s in self.stores],
            "stack": list(self.stack),
            "bag": list(self.bag),
            "bonus": list(self.bonus),
            "guests": list(self.guests),
            "gift_supply": self.gift_supply,
            "loan_supply": self.loan_supply,
            "minted": self.minted,
            "returned": self.returned,
            "ending": self.ending,
            "over": self.over,
            "last": None if self.last is None else dict(self.last),
            "players": [p.to_json() for p in self.players],
        }

    @classmethod
    def from_json(cls, d: Mapping[str, Any]) -> State:
        if not isinstance(d, Mapping):
            raise StateError("a California state must be a JSON object")
        if d.get("schema") != SCHEMA:
            raise StateError(
                f"unknown California state schema {d.get('schema')!r} (this engine reads {SCHEMA})"
            )
        try:
            rng = d["rng"]
            if not isinstance(rng, list) or len(rng) < 2:
                raise StateError("rng must be [seed, draws, *queued]")
            ending = d["ending"]
            if ending not in (None, "bonus", "mansion"):
                raise StateError(f"bad ending {ending!r}")
            return cls(
                players=[Player.from_json(p) for p in d["players"]],
                rng=Rng(_int(rng[0]), _int(rng[1]), [_int(v) for v in rng[2:]]),
                day=_int(d["day"]),
                turn=_int(d["turn"]),
                bank=_int(d["bank"]),
                stores=[_tiles(s, data.STORE_SLOTS) for s in _list(d["stores"], data.STORES)],
                stack=[_int(t) for t in d["stack"]],
                bag=[_int(t) for t in d["bag"]],
                bonus=_owners(d["bonus"], len(data.BONUS_CARDS)),
                guests=_owners(d["guests"], len(data.COLOURS)),
                gift_supply=_int(d["gift_supply"]),
                loan_supply=_int(d["loan_supply"]),
                minted=_int(d["minted"]),
                returned=_int(d["returned"]),
                ending=ending,
                over=_bool(d["over"]),
                last=_last(d.get("last")),  # absent in states saved before it existed
            )
        except StateError:
            raise
        except (KeyError, TypeError, ValueError, IndexError) as exc:
            raise StateError(f"corrupt California state: {exc!r}") from None


def _int(v: Any) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise StateError(f"expected a whole number, got {v!r}")
    return v


def _opt_int(v: Any) -> int | None:
    return None if v is None else _int(v)


def _bool(v: Any) -> bool:
    if not isinstance(v, bool):
        raise StateError(f"expected true or false, got {v!r}")
    return v


def _list(v: Any, length: int) -> list[Any]:
    if not isinstance(v, list) or len(v) != length:
        raise StateError(f"expected a list of {length}, got {v!r}")
    return v


def _tiles(v: Any, length: int) -> list[int | None]:
    return [_opt_int(t) for t in _list(v, length)]


_owners = _tiles


def _last(v: Any) -> LastMove | None:
    """The saved last move, checked for shape (its meaning is checked by ``invariants``)."""
    if v is None:
        return None
    if not isinstance(v, Mapping) or not all(isinstance(k, str) for k in v):
        raise StateError(f"the last move must be a JSON object, not {v!r}")
    if v.get("action") not in LAST_ACTIONS:
        raise StateError(f"unknown last move {v.get('action')!r}")
    out: LastMove = {}
    for key, value in v.items():
        if value is not None and not isinstance(value, (int, str, bool)):
            raise StateError(f"the last move's {key!r} must be a number, a word or true/false")
        out[key] = value
    _int(out.get("seat"))
    return out
