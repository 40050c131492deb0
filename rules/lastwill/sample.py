"""States a seat could be in, built from its view alone: what a bot thinks on (``rules.search``).

A seat's view (``view(state, seat)``) shows the whole table, its own hand, its own open choice,
drawing split and chosen discards.  It hides the other hands, the discards the others have chosen
but not yet revealed, the Personal Secretary's cards while another seat picks, the deck order and
the state's generator.  ``sample_state`` keeps everything shown and deals the hidden cards anew:

- The unseen cards are every card of the game less those the seat sees (its hand and discards,
  boards, the offering, piles, the box, the open play).  Each deck takes as many as the view
  counts, from the unseen cards *of that deck* (a property deck holds properties); the special
  decks keep their crown layers (1-crown cards on 2-crown on 3-crown, each layer shuffled on its
  own, never reshuffled), so the cards left in one are the bottom of that stack.  Another
  seat's Personal Secretary cards come from the deck the table saw them drawn from.  What is
  left goes, shuffled, to the other hands and their hidden discards, in the counts shown.
- Another seat's drawing split is left unmade: it names its decks again in a playout.
- The generator is reseeded, so reshuffles and future draws are guesses too.
- The bank's two counters are not on the table; the sample books all money as paid out, which
  keeps the money law (``invariants``) and changes nothing a move reads.

Nothing is taken from the real state: the function sees only the view, and the same view and
seed give the same sample.  Cards another seat took face up from the offering are known to the
table but not kept by the view, so a sample may deal them elsewhere.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core import JSON
from rules.lastwill import data
from rules.lastwill.cards import DECK_OF, SPECIAL_DECKS
from rules.lastwill.state import (
    ACTIONS,
    DISCARD,
    DRAWING,
    ERRANDS,
    PLANNING,
    LastWillState,
    Owned,
    Pending,
    PlanSpace,
    Player,
    Slot,
    clone,
)
from rules.lastwill.view import plain
from rules.rng import Rng

_UNIVERSE: dict[bool, tuple[str, ...]] = {
    expansion: tuple(c for deck in data.Deck for c in data.deck_cards(deck, expansion))
    for expansion in (False, True)
}
"""Every card of a game, with and without the expansion, in a fixed order (so a seed deals the
same sample every time)."""

_LAYERS: dict[str, tuple[tuple[str, ...], ...]] = {
    deck.value: data.crown_layers(deck) for deck in (data.Deck.SPECIAL, data.Deck.NEW_SPECIAL)
}


def sample_state(view: Mapping[str, JSON], seat: int, seed: int) -> LastWillState:
    """A whole state ``seat`` could be in, given its ``view``; hidden parts drawn from ``seed``.

    A bot draws many samples from one view, so the view's reading (:func:`deal_of`) is kept for
    the view last asked about (the same object: views are fresh data nobody changes)."""
    if _LAST and _LAST[0][0] is view and _LAST[0][1] == seat:
        reading = _LAST[0][2]
    else:
        reading = deal_of(view, seat)
        _LAST[:] = [(view, seat, reading)]
    rng = Rng(seed)
    state = deal(reading, rng)
    state.rng = Rng(rng.next64())
    return state


_LAST: list[tuple[Mapping[str, JSON], int, Deal]] = []


# --- what the view shows ---------------------------------------------------------------------


def _owned(item: Mapping[str, Any]) -> Owned:
    tokens = [str(t) for t in item["tokens"]]
    if item["kind"] == "property":
        return Owned(str(item["id"]), str(item["type"]), int(item["step"]), tokens, bool(item["maintained"]))
    return Owned(str(item["id"]), "", 0, tokens, bool(item["used"]))


def _player(raw: Mapping[str, Any], hand: list[str]) -> Player:
    job = raw["employment"]
    return Player(
        money=int(raw["money"]),
        hand=hand,
        board=[_owned(item) for item in raw["board"]],
        extensions=int(raw["extensions"]),
        job="" if job is None else str(job["id"]),
        covered=[] if job is None else [bool(line["covered"]) for line in job["lines"]],
        sacked=bool(raw["sacked"]),
        demoted=bool(raw["demoted"]),
        plan=int(raw["plan"] or 0),
        bankrupt=bool(raw["bankrupt"]),
    )


def _cursor(view: Mapping[str, Any], pending: Pending | None) -> int:
    """Where the sequential phase stands.  The view names the seat on turn; while a choice is
    open it names the choosing seat instead, and an errand's choice opens after the errand turn
    has already moved past that seat (``errands.place``)."""
    phase, order = view["phase"], view["order"]
    if phase == PLANNING:
        return int((view["turn"] - view["start"]) % len(view["players"]))
    if phase in (DRAWING, ERRANDS, ACTIONS):
        if pending is None:
            return int(order.index(view["turn"]))
        return int(order.index(pending.seat)) + (1 if phase == ERRANDS else 0)
    return 0


def _table(view: Mapping[str, Any], seat: int) -> LastWillState:
    """The state with everything the view shows; other hands, hidden discards and decks empty."""
    you = view["you"]
    players_raw = view["players"]
    count = len(players_raw)
    options = view["options"]
    pending: Pending | None = None
    if view["pending"] is not None:
        own = you["pending"] is not None
        # The seat's own full record, or the table's (another seat's: its Personal Secretary cards
        # are dealt later); both are a pending choice's saved form.
        pending = Pending.from_json(you["pending"] if own else view["pending"])
    budget = view["budget"]
    discarding = view["phase"] == DISCARD
    result = view["result"]
    players = [
        _player(raw, [str(c) for c in you["hand"]] if s == seat else []) for s, raw in enumerate(players_raw)
    ]
    return LastWillState(
        players=players,
        rng=Rng(0),
        expansion=bool(options["expansion"]),
        employment=str(options["employment"]),
        plans_mode=str(options["plans"]),
        last_will=str(view["last_will"]["id"]),
        penalty=int(options["end_property_penalty"]),
        decks={str(deck): [] for deck in view["decks"]},
        piles={str(deck): [str(c) for c in cards] for deck, cards in view["discards"].items()},
        market={str(kind): int(token) for kind, token in view["market"].items()},
        plans=[
            PlanSpace(
                int(p["pos"]),
                int(p["cards"]),
                int(p["boys"]),
                int(p["actions"]),
                p["tile"] or "",
                p["side"] or "",
            )
            for p in view["plans"]
        ],
        offering=[
            Slot(str(s["slot"]), str(s["deck"]), s["card"] or "", -1 if s["boy"] is None else int(s["boy"]))
            for s in view["offering"]
        ],
        gone=[str(c) for c in view["gone"]],
        round=int(view["round"]),
        phase=str(view["phase"]),
        start=int(view["start"]),
        cursor=_cursor(view, pending),
        errand_pass=int(view["errand_pass"]),
        order=[int(s) for s in view["order"]],
        errands={str(e["space"]): [int(s) for s in e["boys"]] for e in view["errands"] if e["boys"]},
        extensions_left=int(view["extensions_left"]),
        split={str(d): int(n) for d, n in you["split"].items()},
        actions_left=int(budget["actions"]) if budget is not None else 0,
        valet_left=int(budget["valet"]) if budget is not None else 0,
        free={str(k): int(n) for k, n in budget["free"].items()} if budget is not None else {},
        pending=pending,
        discard_for=str(view["discard_for"]),
        need=[int(p["discard_owed"]) if discarding else 0 for p in players_raw],
        held=[[str(c) for c in you["discarding"]] if s == seat else [] for s in range(count)],
        picked=[int(s) for s in view["picked"]],
        last_round=bool(view["last_round"]),
        paid_out=sum(p.money for p in players),
        paid_in=0,
        final=[] if result is None else [{str(k): int(v) for k, v in b.items()} for b in result["breakdown"]],
        last=plain(view["last"]),
    )


# --- what it hides ---------------------------------------------------------------------------


def _seen(state: LastWillState) -> set[str]:
    """Every card the table or the seat's own eyes place: all but decks, other hands and their
    hidden discards (empty in the skeleton)."""
    seen: set[str] = set(state.gone)
    for cards in state.piles.values():
        seen.update(cards)
    for player in state.players:
        seen.update(player.hand)
        seen.update(item.card for item in player.board)
    for held in state.held:
        seen.update(held)
    seen.update(slot.card for slot in state.offering if slot.card)
    if state.pending is not None:
        seen.update(state.pending.cards)
        seen.update(state.pending.used)
    return seen


@dataclass(frozen=True, slots=True)
class Deal:
    """What one view leaves to chance, worked out once for all the samples drawn from it.

    ``table`` is the state with every hidden place empty.  ``stacks`` says how each deck is
    refilled, bottom first: a pool of unseen cards and how many of them it takes (a regular deck
    is one part; a special deck one part per crown layer, the layer being drawn from on top).
    ``secretary`` names the deck another seat's Personal Secretary drew from and how many cards,
    which come out of what that deck's pool leaves; ``places`` are the other seats and how many
    cards each holds in hand and among its hidden discards: every unseen card left goes there.
    """

    table: LastWillState
    stacks: tuple[tuple[str, tuple[tuple[tuple[str, ...], int], ...]], ...]
    secretary: tuple[str, int] | None
    places: tuple[tuple[int, int, int], ...]


def deal_of(view: Mapping[str, Any], seat: int) -> Deal:
    """The skeleton state and the pools of unseen cards the view allows; refuses (``ValueError``)
    a view whose counts no deal of the unseen cards can meet."""
    state = _table(view, seat)
    seen = _seen(state)
    pools: dict[str, list[str]] = {deck: [] for deck in state.decks}
    for card in _UNIVERSE[state.expansion]:
        if card not in seen:
            pools[DECK_OF[card]].append(card)
    sizes = view["decks"]
    stacks: list[tuple[str, tuple[tuple[tuple[str, ...], int], ...]]] = []
    for deck, pool in pools.items():
        size = int(sizes[deck])
        if deck not in SPECIAL_DECKS:
            stacks.append((deck, ((tuple(pool), size),)))
            continue
        parts: list[tuple[tuple[str, ...], int]] = []
        for layer in reversed(_LAYERS[deck]):  # the bottom layer first, as setup stacks them
            members = frozenset(layer)
            parts.append((tuple(c for c in pool if c in members), min(size, len(layer))))
            size -= parts[-1][1]
        stacks.append((deck, tuple(parts)))
    hidden = view["pending"]["hidden"] if view["pending"] is not None else None
    secretary = None
    if state.pending is not None and state.pending.seat != seat and hidden is not None:
        secretary = (str(hidden["deck"]), int(hidden["cards"]))
    places = tuple(
        (other, int(raw["hand"]), int(raw["discard_held"]))
        for other, raw in enumerate(view["players"])
        if other != seat
    )
    unseen = sum(len(pool) for pool in pools.values())
    placed = sum(count for _deck, parts in stacks for _pool, count in parts)
    placed += sum(hand + held for _seat, hand, held in places) + (secretary[1] if secretary else 0)
    extra = {secretary[0]: secretary[1]} if secretary else {}
    short = any(count + extra.get(deck, 0) > len(pool) for deck, parts in stacks for pool, count in parts)
    if unseen != placed or short:
        raise ValueError(f"the view hides {placed} cards, but {unseen} are unseen")
    return Deal(state, tuple(stacks), secretary, places)


def deal(reading: Deal, rng: Rng) -> LastWillState:
    """One sample: every hidden place filled from the pools, at random."""
    state = clone(reading.table)
    rest: list[str] = []
    for deck, parts in reading.stacks:
        cards: list[str] = []
        for pool, count in parts:
            mixed = list(pool)
            shuffle(mixed, rng)
            cards += mixed[:count]
            if reading.secretary is not None and reading.secretary[0] == deck and state.pending is not None:
                state.pending.cards = mixed[count : count + reading.secretary[1]]
                count += reading.secretary[1]
            rest += mixed[count:]
        state.decks[deck] = cards
    shuffle(rest, rng)
    at = 0
    for other, hand, held in reading.places:
        state.players[other].hand = rest[at : at + hand]
        state.held[other] = rest[at + hand : at + hand + held]
        at += hand + held
    return state


def shuffle(items: list[str], rng: Rng) -> None:
    """Fisher-Yates, two positions from each 64-bit word (32-bit multiply-shift: a bias below
    one in ten million for the 200 cards of a game).  A sample shuffles every unseen card, and a
    decision draws hundreds of samples, so this is the sampler's inner loop."""
    word = 0
    for i in range(len(items) - 1, 0, -1):
        if word <= 0xFFFFFFFF:
            word = rng.next64() | (1 << 64)  # the marker bit says how much of the word is left
        j = ((word & 0xFFFFFFFF) * (i + 1)) >> 32
        word >>= 32
        items[i], items[j] = items[j], items[i]
