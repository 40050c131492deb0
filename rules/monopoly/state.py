"""The full state of a Monopoly game as plain dataclasses, and its exact JSON round trip.

Everything is ints, strings, bools and lists, so ``dump_state``/``load_state`` round-trip
exactly and a replay compares as text.  Spaces are positions 0..39 and cards are indexes in
their deck (``tokens`` names both).  The only hidden thing is the order of the two decks (and
the generator); ``view`` never shows either.

The state is a turn phase (``phase``) plus *overlays* that suspend it, most urgent first: an
open ``auction``, a ``shortage`` claim window, unpaid ``debts``, pending mortgage ``fees`` (a
receiver of a mortgaged property choosing to pay 10% or repay in full).  The turn resumes
exactly where it was once the overlays are gone, so a debt in the middle of a card, or an
auction after a bankruptcy, needs no special continuation beyond ``pending_move`` (the Pool
Party's third failed roll: pay $50, *then* move).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import JSON, StateError
from rules.monopoly import data
from rules.rng import Rng

SCHEMA = 1

OPENING = "opening"  # everyone rolls for the start; ties reroll
ROLL = "roll"  # the player on turn rolls (or leaves the Pool Party)
BUY = "buy"  # the player on turn buys the unowned property or declines it
END = "end"  # the move is done; the player on turn presses "End turn"
OVER = "over"
PHASES = (OPENING, ROLL, BUY, END, OVER)

BANK = -1
"""A debt's creditor list is empty for the bank; ``BANK`` marks the bank in events."""


@dataclass(slots=True)
class Auction:
    """An auction: ``active`` are the bidders still in, in bidding order.

    ``mode`` is the table's ``auction`` option: "round" (``turn`` bids next, round-robin) or
    "open" (every seat in ``active`` but the high bidder may bid or pass, in any order; ``turn``
    is -1).  ``passed`` are the seats that passed, in order; ``bids`` counts the bids made (the
    auction clock restarts at each).  ``item`` is "property" (``pos`` is sold) or "house"/"hotel"
    (a shortage building: the winner places it on their claimed site).  ``high`` is 0 until
    somebody bids.  A save made before auctions had a mode loads as "round".
    """

    item: str
    pos: int
    active: list[int]
    turn: int
    high: int = 0
    high_bidder: int | None = None
    reason: str = "declined"  # "declined" | "bankrupt" | "shortage"
    mode: str = data.ROUND
    passed: list[int] = field(default_factory=list)
    bids: int = 0


@dataclass(slots=True)
class Debt:
    """``debtor`` owes ``each`` to every seat in ``creditors`` (the bank when empty)."""

    debtor: int
    creditors: list[int]
    each: int
    reason: str

    @property
    def total(self) -> int:
        return self.each * max(1, len(self.creditors))


@dataclass(slots=True)
class Fee:
    """``seat`` received mortgaged ``pos`` and must choose: pay 10% now (keep) or repay (lift)."""

    seat: int
    pos: int


@dataclass(slots=True)
class Claim:
    """With ``rent=ask``: ``owner`` may collect ``amount`` from ``payer`` for landing on ``pos``."""

    owner: int
    payer: int
    pos: int
    amount: int


@dataclass(slots=True)
class Shortage:
    """A claim window for the bank's last houses or hotels (components §3, chosen procedure).

    ``claims`` maps a claimant (as [seat, site] pairs, requester first) to the site they would
    build on; ``asked`` are the seats still to answer.  When everyone has answered, either each
    claimant buys at the listed price or the buildings are auctioned among the claimants.
    """

    item: str  # "house" | "hotel"
    requester: int
    claims: list[list[int]]
    asked: list[int]
    supply: int  # buildings of that kind in the bank when the window opened


@dataclass(slots=True)
class Terms:
    """One side's part of a deal: properties, get-out cards (deck names) and cash."""

    props: list[int] = field(default_factory=list)
    cards: list[str] = field(default_factory=list)
    cash: int = 0

    def empty(self) -> bool:
        return not (self.props or self.cards or self.cash)

    def to_json(self) -> dict[str, JSON]:
        return {"props": list(self.props), "cards": list(self.cards), "cash": self.cash}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Terms:
        return cls([int(p) for p in raw["props"]], [str(c) for c in raw["cards"]], int(raw["cash"]))


@dataclass(slots=True)
class Offer:
    """A deal: ``give`` goes from proposer to recipient, ``want`` from recipient to proposer.

    A draft (``number`` 0) is private to its proposer; a sent offer is public and immutable.
    """

    number: int
    proposer: int
    recipient: int
    give: Terms
    want: Terms
    mortgaged: list[int] = field(default_factory=list)
    """The named properties that were mortgaged when it was sent (a change lapses the offer)."""

    def to_json(self) -> dict[str, JSON]:
        return {
            "number": self.number,
            "proposer": self.proposer,
            "recipient": self.recipient,
            "give": self.give.to_json(),
            "want": self.want.to_json(),
            "mortgaged": list(self.mortgaged),
        }

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Offer:
        return cls(
            int(raw["number"]),
            int(raw["proposer"]),
            int(raw["recipient"]),
            Terms.from_json(raw["give"]),
            Terms.from_json(raw["want"]),
            [int(p) for p in raw["mortgaged"]],
        )


@dataclass(slots=True)
class MonopolyState:
    players: int
    turns_limit: int
    rent_mode: str
    rng: Rng
    cash: list[int]
    bank: int
    decks: dict[str, list[int]]  # draw order, top first: hidden
    position: list[int] = field(default_factory=list)
    alive: list[bool] = field(default_factory=list)
    out: list[int] = field(default_factory=list)  # bankrupt seats, first out first
    pool: list[int | None] = field(default_factory=list)  # failed tries at the Pool Party, None = free
    owner: list[int | None] = field(default_factory=lambda: [None] * data.SPACES)
    level: list[int] = field(default_factory=lambda: [0] * data.SPACES)  # 0-4 houses, 5 hotel
    mortgaged: list[bool] = field(default_factory=lambda: [False] * data.SPACES)
    houses: int = data.HOUSE_SUPPLY
    hotels: int = data.HOTEL_SUPPLY
    getout: dict[str, int | None] = field(default_factory=dict)  # deck -> holder of its get-out card
    phase: str = OPENING
    turn: int = 0
    dice: list[int] = field(default_factory=list)
    doubles: int = 0
    again: bool = False  # the move was a double: roll again once it is resolved
    rolling: list[int] = field(default_factory=list)  # opening: seats still to roll this round
    opening_rolls: list[list[int]] = field(default_factory=list)  # [seat, total] this round
    pending_move: int | None = None  # Pool Party: move this many spaces once the $50 is paid
    auction: Auction | None = None
    auction_queue: list[int] = field(default_factory=list)  # a bankrupt's property, for the bank
    shortage: Shortage | None = None
    shortage_queue: list[list[int]] = field(default_factory=list)  # [seat, site] still to auction
    debts: list[Debt] = field(default_factory=list)
    fees: list[Fee] = field(default_factory=list)
    claims: list[Claim] = field(default_factory=list)
    offers: list[Offer] = field(default_factory=list)
    drafts: list[Offer | None] = field(default_factory=list)
    closed: dict[int, str] = field(default_factory=dict)  # offer number -> why it closed
    next_offer: int = 1
    turns_taken: list[int] = field(default_factory=list)
    reason: str = ""  # why the game ended: "bankruptcy" | "turns" | "rounds"
    auction_mode: str = data.DEFAULT_AUCTION_MODE  # the table's ``auction`` option
    auction_hours: int = data.DEFAULT_AUCTION_HOURS  # the auction clock (open mode; 0 = none)
    auctions_opened: int = 0
    """Open auctions opened so far: with the bid count, the auction clock's mark (two auctions in
    a row restart it).  Round-robin auctions have no clock and are not counted."""
    last: dict[str, JSON] | None = None
    """The last public move, for the board to mark: ``kind`` (its last public event), ``seat``
    and ``space`` (a position, or None).  A private move (a draft) leaves it as it was."""
    memo: Any = field(default=None, repr=False, compare=False)
    """Facts derived from the holdings for listing actions (``holdings.Index``): never saved,
    checked against the state at every use and rebuilt when it differs."""


def _last(value: Any) -> dict[str, JSON] | None:
    """``last`` from a save (absent in saves made before it existed)."""
    if value is None:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("kind"), str):
        raise StateError(f"Corrupt Monopoly save: bad last move {value!r}")
    return {"kind": value["kind"], "seat": _opt(value.get("seat")), "space": _opt(value.get("space"))}


def _opt(value: Any) -> int | None:
    return None if value is None else int(value)


def _dump_auction(a: Auction | None) -> JSON:
    if a is None:
        return None
    return {
        "item": a.item,
        "pos": a.pos,
        "active": list(a.active),
        "turn": a.turn,
        "high": a.high,
        "high_bidder": a.high_bidder,
        "reason": a.reason,
        "mode": a.mode,
        "passed": list(a.passed),
        "bids": a.bids,
    }


def _load_auction(raw: Any) -> Auction | None:
    if raw is None:
        return None
    return Auction(
        str(raw["item"]),
        int(raw["pos"]),
        [int(s) for s in raw["active"]],
        int(raw["turn"]),
        int(raw["high"]),
        _opt(raw["high_bidder"]),
        str(raw["reason"]),
        str(raw.get("mode", data.SAVED_AUCTION_MODE)),
        [int(s) for s in raw.get("passed", [])],
        int(raw.get("bids", 1 if int(raw["high"]) else 0)),  # an old save: at least one bid
    )


def _dump_shortage(s: Shortage | None) -> JSON:
    if s is None:
        return None
    return {
        "item": s.item,
        "requester": s.requester,
        "claims": [list(c) for c in s.claims],
        "asked": list(s.asked),
        "supply": s.supply,
    }


def _load_shortage(raw: Any) -> Shortage | None:
    if raw is None:
        return None
    return Shortage(
        str(raw["item"]),
        int(raw["requester"]),
        [[int(a), int(b)] for a, b in raw["claims"]],
        [int(s) for s in raw["asked"]],
        int(raw["supply"]),
    )


def dump_state(state: MonopolyState) -> dict[str, JSON]:
    return {
        "schema": SCHEMA,
        "players": state.players,
        "turns_limit": state.turns_limit,
        "rent_mode": state.rent_mode,
        "rng": state.rng.to_json(),
        "cash": list(state.cash),
        "bank": state.bank,
        "decks": {deck: list(cards) for deck, cards in state.decks.items()},
        "position": list(state.position),
        "alive": list(state.alive),
        "out": list(state.out),
        "pool": list(state.pool),
        "owner": list(state.owner),
        "level": list(state.level),
        "mortgaged": list(state.mortgaged),
        "houses": state.houses,
        "hotels": state.hotels,
        "getout": dict(state.getout),
        "phase": state.phase,
        "turn": state.turn,
        "dice": list(state.dice),
        "doubles": state.doubles,
        "again": state.again,
        "rolling": list(state.rolling),
        "opening_rolls": [list(r) for r in state.opening_rolls],
        "pending_move": state.pending_move,
        "auction": _dump_auction(state.auction),
        "auction_queue": list(state.auction_queue),
        "shortage": _dump_shortage(state.shortage),
        "shortage_queue": [list(c) for c in state.shortage_queue],
        "debts": [
            {"debtor": d.debtor, "creditors": list(d.creditors), "each": d.each, "reason": d.reason}
            for d in state.debts
        ],
        "fees": [[f.seat, f.pos] for f in state.fees],
        "claims": [[c.owner, c.payer, c.pos, c.amount] for c in state.claims],
        "offers": [o.to_json() for o in state.offers],
        "drafts": [None if d is None else d.to_json() for d in state.drafts],
        "closed": [[n, why] for n, why in sorted(state.closed.items())],
        "next_offer": state.next_offer,
        "turns_taken": list(state.turns_taken),
        "reason": state.reason,
        "auction_mode": state.auction_mode,
        "auction_hours": state.auction_hours,
        "auctions_opened": state.auctions_opened,
        "last": None if state.last is None else dict(state.last),
    }


def load_state(raw: Mapping[str, JSON]) -> MonopolyState:
    if not isinstance(raw, Mapping):
        raise StateError("A Monopoly save must be a JSON object.")
    if raw.get("schema") != SCHEMA:
        raise StateError(f"Unknown Monopoly save schema {raw.get('schema')!r}; this version reads {SCHEMA}.")
    try:
        state = MonopolyState(
            players=int(raw["players"]),
            turns_limit=int(raw["turns_limit"]),
            rent_mode=str(raw["rent_mode"]),
            rng=Rng.from_json(raw["rng"]),
            cash=[int(x) for x in raw["cash"]],
            bank=int(raw["bank"]),
            decks={str(deck): [int(c) for c in cards] for deck, cards in raw["decks"].items()},
            position=[int(x) for x in raw["position"]],
            alive=[bool(x) for x in raw["alive"]],
            out=[int(x) for x in raw["out"]],
            pool=[_opt(x) for x in raw["pool"]],
            owner=[_opt(x) for x in raw["owner"]],
            level=[int(x) for x in raw["level"]],
            mortgaged=[bool(x) for x in raw["mortgaged"]],
            houses=int(raw["houses"]),
            hotels=int(raw["hotels"]),
            getout={str(deck): _opt(holder) for deck, holder in raw["getout"].items()},
            phase=str(raw["phase"]),
            turn=int(raw["turn"]),
            dice=[int(x) for x in raw["dice"]],
            doubles=int(raw["doubles"]),
            again=bool(raw["again"]),
            rolling=[int(x) for x in raw["rolling"]],
            opening_rolls=[[int(a), int(b)] for a, b in raw["opening_rolls"]],
            pending_move=_opt(raw["pending_move"]),
            auction=_load_auction(raw["auction"]),
            auction_queue=[int(x) for x in raw["auction_queue"]],
            shortage=_load_shortage(raw["shortage"]),
            shortage_queue=[[int(a), int(b)] for a, b in raw["shortage_queue"]],
            debts=[
                Debt(int(d["debtor"]), [int(c) for c in d["creditors"]], int(d["each"]), str(d["reason"]))
                for d in raw["debts"]
            ],
            fees=[Fee(int(a), int(b)) for a, b in raw["fees"]],
            claims=[Claim(int(a), int(b), int(c), int(d)) for a, b, c, d in raw["claims"]],
            offers=[Offer.from_json(o) for o in raw["offers"]],
            drafts=[None if d is None else Offer.from_json(d) for d in raw["drafts"]],
            closed={int(n): str(why) for n, why in raw["closed"]},
            next_offer=int(raw["next_offer"]),
            turns_taken=[int(x) for x in raw["turns_taken"]],
            reason=str(raw["reason"]),
            auction_mode=str(raw.get("auction_mode", data.SAVED_AUCTION_MODE)),
            auction_hours=int(raw.get("auction_hours", data.SAVED_AUCTION_HOURS)),
            auctions_opened=int(raw.get("auctions_opened", 0)),
            last=_last(raw.get("last")),
        )
    except (KeyError, TypeError, ValueError, IndexError, AttributeError) as exc:
        raise StateError(f"Corrupt Monopoly save: {exc!r}") from None
    if state.phase not in PHASES or len(state.owner) != data.SPACES or len(state.cash) != state.players:
        raise StateError("Corrupt Monopoly save: bad phase, board or seats.")
    if state.auction_mode not in data.AUCTION_MODES or (
        state.auction is not None and state.auction.mode not in data.AUCTION_MODES
    ):
        raise StateError(f"Corrupt Monopoly save: unknown auction mode {state.auction_mode!r}.")
    return state
