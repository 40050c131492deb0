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
)
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
    """A whole state ``seat`` could be in, given its ``view``; hidden parts drawn from ``seed``."""
    rng = Rng(seed)
    state = _table(view, seat)
    _deal_hidden(state, view, seat, rng)
    state.rng = Rng(rng.next64())
    return state


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


def _pending(raw: Mapping[str, Any]) -> Pending:
    """An open choice from its full record (the seat's own) or the table's (another seat's,
    whose Personal Secretary cards are dealt later)."""
    return Pending(
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
        pending = _pending(you["pending"] if own else view["pending"])
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
        last=None if view["last"] is None else dict(view["last"]),
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


def _take(pool: list[str], count: int, rng: Rng) -> list[str]:
    """``count`` cards drawn at random out of ``pool`` (which keeps the rest)."""
    if count > len(pool):
        raise ValueError(f"the view needs {count} unseen cards where only {len(pool)} fit")
    rng.shuffle(pool)
    taken = pool[len(pool) - count :] if count else []
    del pool[len(pool) - count :]
    return taken


def _special_deck(deck: str, size: int, pools: dict[str, list[str]], rng: Rng) -> list[str]:
    """A special deck of ``size`` cards: the bottom of its crown stack.  Full layers lie below the
    layer being drawn from; each takes its cards from the unseen cards of its crowns."""
    stacked: list[str] = []
    for layer in reversed(_LAYERS[deck]):  # bottom layer first, as setup stacks them
        want = min(size - len(stacked), len(layer))
        if want <= 0:
            break
        members = frozenset(layer)
        pool = [c for c in pools[deck] if c in members]
        taken = _take(pool, want, rng)
        chosen = set(taken)
        pools[deck] = [c for c in pools[deck] if c not in chosen]
        stacked += taken
    return stacked


def _deal_hidden(state: LastWillState, view: Mapping[str, Any], seat: int, rng: Rng) -> None:
    seen = _seen(state)
    pools: dict[str, list[str]] = {}
    for card in _UNIVERSE[state.expansion]:
        if card not in seen:
            pools.setdefault(DECK_OF[card], []).append(card)
    sizes = view["decks"]
    for deck in state.decks:
        pools.setdefault(deck, [])
        if deck in SPECIAL_DECKS:
            state.decks[deck] = _special_deck(deck, int(sizes[deck]), pools, rng)
        else:
            state.decks[deck] = _take(pools[deck], int(sizes[deck]), rng)
    hidden = view["pending"]["hidden"] if view["pending"] is not None else None
    pend = state.pending
    if pend is not None and pend.seat != seat and hidden is not None:
        pend.cards = _take(pools.setdefault(str(hidden["deck"]), []), int(hidden["cards"]), rng)
    rest = [card for deck in sorted(pools) for card in pools[deck]]
    rng.shuffle(rest)
    wanted = sum(
        int(raw["hand"]) + int(raw["discard_held"]) for s, raw in enumerate(view["players"]) if s != seat
    )
    if wanted != len(rest):
        raise ValueError(f"the view hides {wanted} cards in other hands, but {len(rest)} are unseen")
    at = 0
    for other, raw in enumerate(view["players"]):
        if other == seat:
            continue
        hand, held = int(raw["hand"]), int(raw["discard_held"])
        state.players[other].hand = rest[at : at + hand]
        state.held[other] = rest[at + hand : at + hand + held]
        at += hand + held
