"""The full state of a Last Will game as plain dataclasses, and its exact JSON round trip.

Cards are ids (``DIN1``), never indices, so a host who corrects a deck in ``data`` does not shift
every saved game; every field is an int, a string, a bool or a list of them, so ``dump_state`` /
``load_state`` round-trip exactly and a replay compares as text.  Hidden here and only here: the
hands, the deck order, the drawing split in progress, the discards chosen but not yet revealed,
the Personal Secretary's six cards and the generator.  ``view`` decides what anyone sees.

Money never comes from a finite bank (Last Will has no bank limit), so the bank is two counters:
``paid_out`` (inheritance, income, sales, valuation) and ``paid_in`` (every pound spent); the
players' money always sums to their difference, which the invariants check.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache
from typing import Any

from rules.core import JSON, StateError
from rules.rng import Rng

SCHEMA = 1

PICK = "pick"  # handicap: the host toggles employed seats, then confirms
DISCARD = "discard"  # round-1 keep-2 and the end-of-round hand limit: simultaneous, private
PLANNING = "planning"
DRAWING = "drawing"
ERRANDS = "errands"
ACTIONS = "actions"
OVER = "over"
PHASES = (PICK, DISCARD, PLANNING, DRAWING, ERRANDS, ACTIONS, OVER)


class Handoff(StrEnum):
    """What a step that ends its phase asks to run next; :mod:`rules.lastwill.phases` runs it.

    The round is a cycle (planning, drawing, errands, actions, the round's end, planning again):
    phase modules that started the next phase themselves would import each other in a loop.
    """

    DEAL = "deal"  # the starting hands, then round 1 (after the handicap pick, or at setup)
    PLANNING = "planning"
    ERRANDS = "errands"
    ACTIONS = "actions"
    ROUND_END = "round_end"
    FINISH = "finish"


@cache
def alone(seat: int) -> frozenset[int]:
    """``frozenset({seat})``, one shared set per seat: a private event's ``visible_to`` and the
    waited-for seat are built on most moves, and frozensets are immutable, so sharing is safe."""
    return frozenset({seat})


KEEP = "keep"  # the discard phase of round 1's setup
LIMIT = "limit"  # the discard phase of the end-of-round hand limit


@dataclass(slots=True)
class Owned:
    """A card on a player's board: a property (``kind`` its current type) or a helper/expense.

    ``tokens`` are the companions on its slots, left to right; ``step`` is a property's value
    marker (0 = the first value); ``done`` is "maintained" for a property and "used" (expense or
    Personal Secretary) for a black card, reset every round.
    """

    card: str
    kind: str = ""
    step: int = 0
    tokens: list[str] = field(default_factory=list)
    done: bool = False

    def to_json(self) -> list[JSON]:
        return [self.card, self.kind, self.step, list(self.tokens), self.done]

    @classmethod
    def from_json(cls, raw: Any) -> Owned:
        card, kind, step, tokens, done = raw
        return cls(str(card), str(kind), int(step), [str(t) for t in tokens], bool(done))


@dataclass(slots=True)
class Player:
    money: int
    hand: list[str] = field(default_factory=list)
    board: list[Owned] = field(default_factory=list)
    extensions: int = 0
    job: str = ""  # employment card id; "" = none (never employed, or sacked)
    covered: list[bool] = field(default_factory=list)  # per line of ``job``
    sacked: bool = False
    demoted: bool = False  # this round's demotion is earned
    plan: int = 0  # plan position this round; 0 = none yet
    bankrupt: bool = False

    def to_json(self) -> dict[str, JSON]:
        return {
            "money": self.money,
            "hand": list(self.hand),
            "board": [o.to_json() for o in self.board],
            "extensions": self.extensions,
            "job": self.job,
            "covered": list(self.covered),
            "sacked": self.sacked,
            "demoted": self.demoted,
            "plan": self.plan,
            "bankrupt": self.bankrupt,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Player:
        return cls(
            money=int(raw["money"]),
            hand=[str(c) for c in raw["hand"]],
            board=[Owned.from_json(o) for o in raw["board"]],
            extensions=int(raw["extensions"]),
            job=str(raw["job"]),
            covered=[bool(c) for c in raw["covered"]],
            sacked=bool(raw["sacked"]),
            demoted=bool(raw["demoted"]),
            plan=int(raw["plan"]),
            bankrupt=bool(raw["bankrupt"]),
        )


@dataclass(slots=True)
class PlanSpace:
    """A plan position this game: from a tile (``tile`` and ``side``) or the original board."""

    pos: int
    cards: int
    boys: int
    actions: int
    tile: str = ""
    side: str = ""

    def to_json(self) -> list[JSON]:
        return [self.pos, self.cards, self.boys, self.actions, self.tile, self.side]

    @classmethod
    def from_json(cls, raw: Any) -> PlanSpace:
        pos, cards, boys, actions, tile, side = raw
        return cls(int(pos), int(cards), int(boys), int(actions), str(tile), str(side))


@dataclass(slots=True)
class Slot:
    """An offering slot (label "1".."9" or "X"), the deck it is filled from this round, its card."""

    label: str
    deck: str
    card: str = ""
    boy: int = -1  # the seat whose errand boy took it this round

    def to_json(self) -> list[JSON]:
        return [self.label, self.deck, self.card, self.boy]

    @classmethod
    def from_json(cls, raw: Any) -> Slot:
        label, deck, card, boy = raw
        return cls(str(label), str(deck), str(card), int(boy))


@dataclass(slots=True)
class Pending:
    """A choice one seat must answer before the phase goes on (see ``pending.py``).

    ``steps`` are what is left to resolve, the open one first.  A white-card play keeps its
    cards in ``cards`` and the companion cards added in ``used`` until it is paid, so every card
    is always somewhere; ``icons`` are [companion, amount, card filling it or ""].  ``symbols``
    are what a demotion may match ("any": a demotion errand).  ``count`` is the step's bound
    (Breeders' Fair tokens left, the Wedding Planner's pounds on offer).
    """

    seat: int
    steps: list[str]
    source: str = ""
    cards: list[str] = field(default_factory=list)
    used: list[str] = field(default_factory=list)
    icons: list[list[Any]] = field(default_factory=list)
    symbols: list[str] = field(default_factory=list)
    count: int = 0
    money: int = 0

    @property
    def step(self) -> str:
        return self.steps[0]

    def to_json(self) -> dict[str, JSON]:
        return {
            "seat": self.seat,
            "steps": list(self.steps),
            "source": self.source,
            "cards": list(self.cards),
            "used": list(self.used),
            "icons": [list(i) for i in self.icons],
            "symbols": list(self.symbols),
            "count": self.count,
            "money": self.money,
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Pending:
        return cls(
            seat=int(raw["seat"]),
            steps=[str(s) for s in raw["steps"]],
            source=str(raw["source"]),
            cards=[str(c) for c in raw["cards"]],
            used=[str(c) for c in raw["used"]],
            icons=[[str(c), int(a), str(f)] for c, a, f in raw["icons"]],
            symbols=[str(s) for s in raw["symbols"]],
            count=int(raw["count"]),
            money=int(raw["money"]),
        )


@dataclass(slots=True)
class LastWillState:
    players: list[Player]
    rng: Rng
    expansion: bool
    employment: str  # data.EmploymentMode value
    plans_mode: str  # data.PlansMode value
    last_will: str  # the Last Will card in play
    penalty: int  # end_property_penalty
    decks: dict[str, list[str]]  # draw order, top = last: hidden
    piles: dict[str, list[str]]  # face-up discard piles of the regular decks
    market: dict[str, int]  # property type -> its market token
    plans: list[PlanSpace]
    offering: list[Slot]
    gone: list[str] = field(default_factory=list)  # cards out of the game (played specials ...)
    round: int = 1
    phase: str = PICK
    start: int = 0
    cursor: int = 0  # index in the current sequential order (planning / drawing / errands / actions)
    errand_pass: int = 0
    order: list[int] = field(default_factory=list)  # seats in plan order, after planning
    errands: dict[str, list[int]] = field(default_factory=dict)  # errand space -> seats of its boys
    extensions_left: int = 0
    split: dict[str, int] = field(default_factory=dict)  # drawing: the current player's choice (hidden)
    actions_left: int = 0
    valet_left: int = 0  # white-card-only actions (the Valet)
    free: dict[str, int] = field(default_factory=dict)  # "kind:scope" -> free actions left this turn
    pending: Pending | None = None
    discard_for: str = ""  # KEEP | LIMIT while phase is DISCARD
    need: list[int] = field(default_factory=list)  # cards each seat still has to discard
    held: list[list[str]] = field(default_factory=list)  # chosen discards, revealed together (hidden)
    picked: list[int] = field(default_factory=list)  # handicap: the seats the host marked employed
    last_round: bool = False  # a bankruptcy was declared: this round is the last
    paid_out: int = 0
    paid_in: int = 0
    final: list[dict[str, int]] = field(default_factory=list)  # the scoring breakdown, once over
    last: dict[str, JSON] | None = None
    handoff: Handoff | None = None
    """Set by a step that ends its phase, run and cleared by ``phases.settle`` before the engine
    returns: never saved, ``None`` whenever a state is at rest."""

    @property
    def count(self) -> int:
        return len(self.players)


def dump_state(state: LastWillState) -> dict[str, JSON]:
    return {
        "schema": SCHEMA,
        "players": [p.to_json() for p in state.players],
        "rng": state.rng.to_json(),
        "expansion": state.expansion,
        "employment": state.employment,
        "plans_mode": state.plans_mode,
        "last_will": state.last_will,
        "penalty": state.penalty,
        "decks": {deck: list(cards) for deck, cards in state.decks.items()},
        "piles": {deck: list(cards) for deck, cards in state.piles.items()},
        "market": dict(state.market),
        "plans": [p.to_json() for p in state.plans],
        "offering": [s.to_json() for s in state.offering],
        "gone": list(state.gone),
        "round": state.round,
        "phase": state.phase,
        "start": state.start,
        "cursor": state.cursor,
        "errand_pass": state.errand_pass,
        "order": list(state.order),
        "errands": {space: list(seats) for space, seats in state.errands.items()},
        "extensions_left": state.extensions_left,
        "split": dict(state.split),
        "actions_left": state.actions_left,
        "valet_left": state.valet_left,
        "free": dict(state.free),
        "pending": None if state.pending is None else state.pending.to_json(),
        "discard_for": state.discard_for,
        "need": list(state.need),
        "held": [list(h) for h in state.held],
        "picked": list(state.picked),
        "last_round": state.last_round,
        "paid_out": state.paid_out,
        "paid_in": state.paid_in,
        "final": [dict(f) for f in state.final],
        "last": None if state.last is None else dict(state.last),
    }


def _ints(raw: Any) -> list[int]:
    return [int(x) for x in raw]


def _strs(raw: Any) -> list[str]:
    return [str(x) for x in raw]


def load_state(raw: Mapping[str, JSON]) -> LastWillState:
    if not isinstance(raw, Mapping):
        raise StateError("A Last Will save must be a JSON object.")
    if raw.get("schema") != SCHEMA:
        raise StateError(f"Unknown Last Will save schema {raw.get('schema')!r}; this version reads {SCHEMA}.")
    try:
        pending = raw["pending"]
        last = raw["last"]
        state = LastWillState(
            players=[Player.from_json(p) for p in raw["players"]],
            rng=Rng.from_json(raw["rng"]),
            expansion=bool(raw["expansion"]),
            employment=str(raw["employment"]),
            plans_mode=str(raw["plans_mode"]),
            last_will=str(raw["last_will"]),
            penalty=int(raw["penalty"]),
            decks={str(d): _strs(cards) for d, cards in raw["decks"].items()},
            piles={str(d): _strs(cards) for d, cards in raw["piles"].items()},
            market={str(t): int(v) for t, v in raw["market"].items()},
            plans=[PlanSpace.from_json(p) for p in raw["plans"]],
            offering=[Slot.from_json(s) for s in raw["offering"]],
            gone=_strs(raw["gone"]),
            round=int(raw["round"]),
            phase=str(raw["phase"]),
            start=int(raw["start"]),
            cursor=int(raw["cursor"]),
            errand_pass=int(raw["errand_pass"]),
            order=_ints(raw["order"]),
            errands={str(s): _ints(seats) for s, seats in raw["errands"].items()},
            extensions_left=int(raw["extensions_left"]),
            split={str(d): int(n) for d, n in raw["split"].items()},
            actions_left=int(raw["actions_left"]),
            valet_left=int(raw["valet_left"]),
            free={str(k): int(n) for k, n in raw["free"].items()},
            pending=None if pending is None else Pending.from_json(pending),
            discard_for=str(raw["discard_for"]),
            need=_ints(raw["need"]),
            held=[_strs(h) for h in raw["held"]],
            picked=_ints(raw["picked"]),
            last_round=bool(raw["last_round"]),
            paid_out=int(raw["paid_out"]),
            paid_in=int(raw["paid_in"]),
            final=[{str(k): int(v) for k, v in f.items()} for f in raw["final"]],
            last=None if last is None else dict(last),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as exc:
        raise StateError(f"Corrupt Last Will save: {exc!r}") from None
    if state.phase not in PHASES or not state.players:
        raise StateError("Corrupt Last Will save: bad phase or no players.")
    return state


def clone(state: LastWillState) -> LastWillState:
    """A copy sharing no container with ``state``: what ``load(dump(state))`` gives, without the
    JSON in between (a bot copies a sampled table hundreds of times a decision).  Every field is
    copied by hand, so a field added to the state must be added here too; the tests compare both
    ways of copying over random games."""
    return LastWillState(
        players=[
            Player(
                p.money,
                list(p.hand),
                [Owned(o.card, o.kind, o.step, list(o.tokens), o.done) for o in p.board],
                p.extensions,
                p.job,
                list(p.covered),
                p.sacked,
                p.demoted,
                p.plan,
                p.bankrupt,
            )
            for p in state.players
        ],
        rng=Rng(state.rng.seed, state.rng.draws, state.rng.queued),
        expansion=state.expansion,
        employment=state.employment,
        plans_mode=state.plans_mode,
        last_will=state.last_will,
        penalty=state.penalty,
        decks={deck: list(cards) for deck, cards in state.decks.items()},
        piles={deck: list(cards) for deck, cards in state.piles.items()},
        market=dict(state.market),
        plans=[PlanSpace(p.pos, p.cards, p.boys, p.actions, p.tile, p.side) for p in state.plans],
        offering=[Slot(s.label, s.deck, s.card, s.boy) for s in state.offering],
        gone=list(state.gone),
        round=state.round,
        phase=state.phase,
        start=state.start,
        cursor=state.cursor,
        errand_pass=state.errand_pass,
        order=list(state.order),
        errands={space: list(seats) for space, seats in state.errands.items()},
        extensions_left=state.extensions_left,
        split=dict(state.split),
        actions_left=state.actions_left,
        valet_left=state.valet_left,
        free=dict(state.free),
        pending=None if state.pending is None else Pending.from_json(state.pending.to_json()),
        discard_for=state.discard_for,
        need=list(state.need),
        held=[list(h) for h in state.held],
        picked=list(state.picked),
        last_round=state.last_round,
        paid_out=state.paid_out,
        paid_in=state.paid_in,
        final=[dict(f) for f in state.final],
        last=None if state.last is None else _copied(state.last),
    )


def _copied(value: Any) -> Any:
    """JSON data copied all the way down."""
    if isinstance(value, dict):
        return {k: _copied(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_copied(v) for v in value]
    return value
