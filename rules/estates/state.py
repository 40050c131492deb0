"""The full (secret-bearing) state of an Estates match as plain dataclasses.

Everything is ints, strings and lists so that ``dump``/``load`` is a direct,
exact JSON round trip; the public projection lives in ``view.py``.  Cubes are
ints 0..35 (see ``data.CUBE_TOKEN``) because placement checks compare numbers
on every ``legal_actions`` call.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import JSON, StateError
from rules.estates import data
from rules.rng import Rng

SCHEMA = 2
READABLE_SCHEMAS = (1, 2)
"""Saves this version loads: schema 1 predates ``last`` (loaded as ``None``: no move to highlight)."""

# Phases of a turn; "over" once the match has ended.
CHOOSE = "choose"
BID = "bid"
DECIDE = "decide"
PLACE = "place"
OVER = "over"
PHASES = (CHOOSE, BID, DECIDE, PLACE, OVER)


@dataclass(slots=True)
class Row:
    """One development row; built lots are always 1..len(stacks) (no gaps by construction)."""

    stacks: list[list[int]] = field(default_factory=list)
    roofs: list[int] = field(default_factory=list)  # per built lot; 0 = no rooftop yet
    permits: list[int] = field(default_factory=list)  # signed values (+lengthen / -shorten), in order

    @property
    def requirement(self) -> int:
        # Each permit's change is remembered, so cancelling one simply drops its term.
        return data.START_REQUIREMENT + sum(self.permits)

    @property
    def developed(self) -> int:
        return len(self.stacks)

    def to_json(self) -> dict[str, JSON]:
        return {
            "stacks": [list(s) for s in self.stacks],
            "roofs": list(self.roofs),
            "permits": list(self.permits),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Row:
        return cls(
            stacks=[[int(c) for c in s] for s in raw["stacks"]],
            roofs=[int(r) for r in raw["roofs"]],
            permits=[int(p) for p in raw["permits"]],
        )


@dataclass(slots=True)
class RoundResult:
    """What a finished round scored; kept so a match can total rounds after the board is reset."""

    buildings: list[int]
    cash_box: list[int]
    checks: list[int]  # money in hand plus cash box at the end of the round (the tie-break)
    winners: list[int]
    reason: str  # "rows" (two rows complete) or "stalled" (no building can be completed)

    @property
    def scores(self) -> list[int]:
        return [b + c * data.CASH_BOX_POINTS for b, c in zip(self.buildings, self.cash_box, strict=True)]

    def to_json(self) -> dict[str, JSON]:
        return {
            "buildings": list(self.buildings),
            "cash_box": list(self.cash_box),
            "checks": list(self.checks),
            "winners": list(self.winners),
            "reason": self.reason,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> RoundResult:
        return cls(
            buildings=[int(x) for x in raw["buildings"]],
            cash_box=[int(x) for x in raw["cash_box"]],
            checks=[int(x) for x in raw["checks"]],
            winners=[int(x) for x in raw["winners"]],
            reason=str(raw["reason"]),
        )


@dataclass(slots=True)
class EstatesState:
    players: int
    rounds: int
    rng: Rng
    money: list[int]
    cash_box: list[int]
    display: list[list[int]]
    out_of_game: list[int]  # the 12 undrawn cubes: hidden from everybody, kept for the invariants
    rows: list[Row]
    roofs_left: list[int]  # sorted: the face-down stack has no order worth keeping
    permits_unused: list[int]
    permits_removed: list[int]  # discarded or cancelled
    mayor_row: int | None
    mayor_available: bool
    cancel_available: bool
    certificates: list[int | None]  # owner per colour
    first_player: int
    auctioneer: int
    round: int = 1
    phase: str = CHOOSE
    stowed: bool = False  # the auctioneer already stowed this turn
    piece: str | None = None  # token of the piece under auction / being placed
    roof_value: int = 0  # the revealed rooftop when piece == "roof"
    bids: list[tuple[int, int | None]] = field(default_factory=list)  # (seat, amount); None = pass
    bidder: int | None = None
    winner: int | None = None
    turns: int = 0  # turns started in the whole match (for bounds and logs)
    results: list[RoundResult] = field(default_factory=list)
    # The last public move, for the board image to highlight (``engine.last_move``); a private
    # stow never touches it, and a fresh round clears it.  Plain JSON: kind, seat, piece, row, lot.
    last: dict[str, Any] | None = None


def dump_state(state: EstatesState) -> dict[str, JSON]:
    return {
        "schema": SCHEMA,
        "players": state.players,
        "rounds": state.rounds,
        "rng": state.rng.to_json(),
        "money": list(state.money),
        "cash_box": list(state.cash_box),
        "display": [list(r) for r in state.display],
        "out_of_game": list(state.out_of_game),
        "rows": [row.to_json() for row in state.rows],
        "roofs_left": list(state.roofs_left),
        "permits_unused": list(state.permits_unused),
        "permits_removed": list(state.permits_removed),
        "mayor_row": state.mayor_row,
        "mayor_available": state.mayor_available,
        "cancel_available": state.cancel_available,
        "certificates": list(state.certificates),
        "first_player": state.first_player,
        "auctioneer": state.auctioneer,
        "round": state.round,
        "phase": state.phase,
        "stowed": state.stowed,
        "piece": state.piece,
        "roof_value": state.roof_value,
        "bids": [[seat, amount] for seat, amount in state.bids],
        "bidder": state.bidder,
        "winner": state.winner,
        "turns": state.turns,
        "results": [r.to_json() for r in state.results],
        "last": None if state.last is None else dict(state.last),
    }


def _opt_int(value: Any) -> int | None:
    return None if value is None else int(value)


def _last(value: Any) -> dict[str, Any] | None:
    """The recorded last move: ``None`` (also for schema-1 saves) or a flat JSON object."""
    if value is None:
        return None
    if not isinstance(value, Mapping) or not all(
        isinstance(k, str) and (v is None or isinstance(v, (str, int))) for k, v in value.items()
    ):
        raise ValueError(f"bad last move {value!r}")
    return dict(value)


def load_state(raw: Mapping[str, JSON]) -> EstatesState:
    if not isinstance(raw, Mapping):
        raise StateError("An Estates save must be a JSON object.")
    if raw.get("schema") not in READABLE_SCHEMAS:
        raise StateError(
            f"Unknown Estates save schema {raw.get('schema')!r}; this version reads "
            f"{', '.join(str(s) for s in READABLE_SCHEMAS)}."
        )
    try:
        state = EstatesState(
            players=int(raw["players"]),
            rounds=int(raw["rounds"]),
            rng=Rng.from_json(raw["rng"]),
            money=[int(x) for x in raw["money"]],
            cash_box=[int(x) for x in raw["cash_box"]],
            display=[[int(c) for c in r] for r in raw["display"]],
            out_of_game=[int(c) for c in raw["out_of_game"]],
            rows=[Row.from_json(r) for r in raw["rows"]],
            roofs_left=[int(x) for x in raw["roofs_left"]],
            permits_unused=[int(x) for x in raw["permits_unused"]],
            permits_removed=[int(x) for x in raw["permits_removed"]],
            mayor_row=_opt_int(raw["mayor_row"]),
            mayor_available=bool(raw["mayor_available"]),
            cancel_available=bool(raw["cancel_available"]),
            certificates=[_opt_int(x) for x in raw["certificates"]],
            first_player=int(raw["first_player"]),
            auctioneer=int(raw["auctioneer"]),
            round=int(raw["round"]),
            phase=str(raw["phase"]),
            stowed=bool(raw["stowed"]),
            piece=None if raw["piece"] is None else str(raw["piece"]),
            roof_value=int(raw["roof_value"]),
            bids=[(int(seat), _opt_int(amount)) for seat, amount in raw["bids"]],
            bidder=_opt_int(raw["bidder"]),
            winner=_opt_int(raw["winner"]),
            turns=int(raw["turns"]),
            results=[RoundResult.from_json(r) for r in raw["results"]],
            last=_last(raw.get("last")),
        )
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise StateError(f"Corrupt Estates save: {exc!r}") from None
    if state.phase not in PHASES or len(state.rows) != len(data.ROW_NAMES):
        raise StateError("Corrupt Estates save: bad phase or board.")
    return state
