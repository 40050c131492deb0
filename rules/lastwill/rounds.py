"""Round setup (§3.1), the end of a round (§3.6) and the simultaneous discards between them.

Both discards (round 1's keep-2 and the hand limit) are made by every seat over its limit at
once and in secret: each seat's choices leave its hand into ``held`` (hidden), and only when the
last seat is done do all of them land face up on the piles, together (``discards_revealed``),
so nobody chooses knowing what another threw away.
"""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.lastwill import data, piles
from rules.lastwill.cards import DECK_OF, PROPERTIES, WILD, depreciation_steps, hand_limit
from rules.lastwill.employment import pay_income
from rules.lastwill.state import DISCARD, KEEP, LIMIT, Handoff, LastWillState, alone

_SLOTS: dict[tuple[int, bool], tuple[data.OfferingSlot, ...]] = {}


def slot_specs(state: LastWillState) -> tuple[data.OfferingSlot, ...]:
    key = (state.count, state.expansion)
    if key not in _SLOTS:
        _SLOTS[key] = data.offering_slots(*key)
    return _SLOTS[key]


def deal_and_begin(state: LastWillState) -> list[Event]:
    """Starting hands (§2), then round 1."""
    events: list[Event] = []
    for seat, player in enumerate(state.players):
        for deck, count in data.STARTING_HAND.items():
            for _ in range(count):
                card = piles.draw(state, deck.value, events)
                if card:
                    player.hand.append(card)
        events.append(Event("dealt", seat, {"cards": list(player.hand)}, visible_to=alone(seat)))
    return events + begin_round(state)


def begin_round(state: LastWillState) -> list[Event]:
    events = [Event("round_started", state.start, {"round": state.round, "rounds": data.ROUNDS})]
    filled: dict[str, str] = {}
    for slot, spec in zip(state.offering, slot_specs(state), strict=True):
        slot.deck = spec.decks[state.round - 1].value
        slot.card = piles.draw(state, slot.deck, events)
        slot.boy = -1
        filled[slot.label] = slot.card
    events.append(Event("offering_filled", None, {"slots": filled}))
    events += pay_income(state, "income")
    if state.round == 1:
        return events + open_discards(state, KEEP)
    state.handoff = Handoff.PLANNING
    return events


def open_discards(state: LastWillState, kind: str) -> list[Event]:
    limits = [data.ROUND_ONE_KEEP if kind == KEEP else hand_limit(p) for p in state.players]
    state.need = [max(0, len(p.hand) - limit) for p, limit in zip(state.players, limits, strict=True)]
    if not any(state.need):
        return _after_discards(state, kind)
    state.phase = DISCARD
    state.discard_for = kind
    return [Event("discard_phase", None, {"kind": kind, "need": list(state.need)})]


def discard_problem(state: LastWillState, seat: int, cards: list[str]) -> IllegalAction | None:
    if state.phase != DISCARD:
        return IllegalAction("discard_phase")
    need = state.need[seat]
    if need <= 0:
        return IllegalAction("nothing_to_discard")
    if not cards or len(cards) > need:
        return IllegalAction("discard_one") if need == 1 else IllegalAction("discard_count", need=need)
    if len(cards) == 1:  # the listed discards are one card each: no copy of the hand to test one
        return None if cards[0] in state.players[seat].hand else IllegalAction("not_in_hand")
    hand = list(state.players[seat].hand)
    for card in cards:
        if card not in hand:
            return IllegalAction("not_in_hand")
        hand.remove(card)
    return None


def discard(state: LastWillState, seat: int, cards: list[str]) -> list[Event]:
    player = state.players[seat]
    for card in cards:
        player.hand.remove(card)
        state.held[seat].append(card)
    state.need[seat] -= len(cards)
    events = [
        Event("discarded", seat, {"count": len(cards), "left": state.need[seat]}),
        Event("discarded", seat, {"cards": list(cards)}, visible_to=alone(seat)),
    ]
    if any(state.need):
        return events
    revealed = [list(h) for h in state.held]
    for held in state.held:
        for card in held:
            piles.discard(state, card)
        held.clear()
    events.append(Event("discards_revealed", None, {"cards": revealed, "kind": state.discard_for}))
    return events + _after_discards(state, state.discard_for)


def _after_discards(state: LastWillState, kind: str) -> list[Event]:
    state.discard_for = ""
    if kind == KEEP:
        state.handoff = Handoff.PLANNING
        return []
    state.round += 1
    state.start = (state.start + 1) % state.count
    return begin_round(state)


def end_round(state: LastWillState) -> list[Event]:
    """Depreciation, wild cards and the offering back, flags reset; then the hand limit, or the
    hand-over to the final scoring."""
    events: list[Event] = []
    for seat, player in enumerate(state.players):
        for item in player.board:
            track = PROPERTIES[item.card].track if item.card in PROPERTIES else ()
            if track and not item.done and (data.FARMS_DEPRECIATE or item.kind != data.PropertyType.FARM):
                before = item.step
                item.step = min(item.step + depreciation_steps(item), len(track) - 1)
                if item.step != before:
                    events.append(
                        Event("depreciated", seat, {"card": item.card, "from": before, "to": item.step})
                    )
            item.done = False
        wilds = [c for c in player.hand if DECK_OF[c] == WILD]
        for card in wilds:
            player.hand.remove(card)
            piles.discard(state, card)
        if wilds:
            events.append(Event("wild_returned", seat, {"cards": wilds}))
        player.demoted = False
        player.plan = 0
    cleared = [slot.card for slot in state.offering if slot.card]
    for slot in state.offering:
        if slot.card:
            piles.discard(state, slot.card)
        slot.card, slot.boy = "", -1
    state.errands = {}
    state.order = []
    state.cursor = 0
    events.append(Event("round_ended", None, {"round": state.round, "unclaimed": cleared}))
    if state.round >= data.ROUNDS or state.last_round:
        state.handoff = Handoff.FINISH
        return events
    return events + open_discards(state, LIMIT)
