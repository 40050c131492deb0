"""What a seat (or a spectator) may see, as fresh JSON for the renderer and the presenter.

The public view (``view(state, None)``) is the table: money, boards, jobs and covered lines, the
offering (face up), plans, errand boys, market tokens, the face-up piles, and only the SIZES of
hands and decks.  A seat's view is the same plus ``you``: its hand, the choice it is answering in
full, its drawing split and its discards not yet revealed.  Nothing here depends on a hand's
contents or the deck order, so the public view may be drawn for everyone.

Keys (renderer contract):

    game, round, rounds, last_round (a bankruptcy made this round the last), phase, picked (the
    seats the host has marked employed in the handicap pick), start, turn (seat acting in a
    sequential phase, else None),
    errand_pass, waiting [seats], discard_for ("keep" | "limit" | ""),
    options {expansion, employment, plans, last_will, end_property_penalty},
    last_will {id, money, set}, plans [{pos, cards, boys, actions, seat, tile, side}],
    order [seats in plan order], offering [{slot, deck, card, boy}] (card/boy None when empty),
    errands [{space, capacity, boys [seats]}], market {type: token}, extensions_left,
    decks {deck: size}, discards {deck: [ids]} (face-up piles), gone [ids] (out of the game),
    players [{seat, money, hand (a count), spaces, free_spaces, extensions, board [...],
             employment {id, job, income, lines [{symbol, money, covered}]} | None, sacked,
             plan, boys, boys_left, demoted, bankrupt, hand_limit, discard_owed,
             discard_held (discards chosen this phase, not yet revealed: a count)}],
      board items: {id, kind ("property" | "helper"), type, step, value, values, upkeep,
                    tokens [companions], maintained, expense, used}
    budget {actions, valet, free {kind:scope: n}} in the Actions phase, else None,
    pending {seat, kind, source, cards, icons [[companion, amount, card]], money, steps [left,
             the open one first], symbols [a demotion may match], count (the step's bound),
             used [companion cards added], hidden {deck, cards (a count)} for the Personal
             Secretary's cards, else None} | None,
    last {seat, kind, ...params} | None (the newest public move, for the highlight),
    result {ranks, scores, winners, nobody_wins, breakdown} | None
    you (seat views only): {seat, hand [ids], pending (full, with options) | None,
                            split {deck: n}, discarding [ids]}
"""

from __future__ import annotations

from typing import Any

from rules.core import JSON
from rules.lastwill import data, pending
from rules.lastwill.cards import (
    BLACKS,
    DECK_OF,
    PROPERTIES,
    expense_amount,
    free_spaces,
    hand_limit,
    spaces,
    upkeep,
)
from rules.lastwill.employment import income
from rules.lastwill.engine import waiting_for
from rules.lastwill.errands import ONE, capacity
from rules.lastwill.scoring import outcome
from rules.lastwill.state import (
    ACTIONS,
    DISCARD,
    DRAWING,
    ERRANDS,
    OVER,
    PICK,
    PLANNING,
    LastWillState,
    Owned,
    Player,
)


def plain(value: Any) -> Any:
    """A deep copy of JSON data, so no view shares a container with the state."""
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [plain(v) for v in value]
    return value


def _turn(state: LastWillState) -> int | None:
    if state.phase in (DRAWING, ERRANDS, ACTIONS):
        return state.order[state.cursor]
    if state.phase == PLANNING:
        return (state.start + state.cursor) % state.count
    if state.phase == PICK:
        return 0
    return None


def _item(player: Player, item: Owned) -> dict[str, JSON]:
    prop = PROPERTIES.get(item.card)
    if prop is not None:
        return {
            "id": item.card,
            "kind": "property",
            "type": item.kind,
            "step": item.step,
            "value": prop.track[item.step],
            "values": list(prop.track),
            "upkeep": upkeep(item),
            "tokens": list(item.tokens),
            "maintained": item.done,
            "expense": None,
            "used": False,
        }
    has_expense = BLACKS[item.card].expense is not None
    return {
        "id": item.card,
        "kind": "helper",
        "type": None,
        "step": None,
        "value": None,
        "values": [],
        "upkeep": None,
        "tokens": list(item.tokens),
        "maintained": False,
        "expense": expense_amount(player, item) if has_expense else None,
        "used": item.done,
    }


def _player(state: LastWillState, seat: int) -> dict[str, JSON]:
    player = state.players[seat]
    job: dict[str, JSON] | None = None
    if player.job:
        card = data.EMPLOYMENT[player.job]
        job = {
            "id": card.id,
            "job": card.job,
            "income": income(player),
            "lines": [
                {"symbol": line.symbol.value, "money": line.money, "covered": covered}
                for line, covered in zip(card.lines, player.covered, strict=True)
            ],
        }
    plan = next((p for p in state.plans if p.pos == player.plan), None)
    return {
        "seat": seat,
        "money": player.money,
        "hand": len(player.hand),
        "spaces": spaces(player),
        "free_spaces": free_spaces(player),
        "extensions": player.extensions,
        "board": [_item(player, item) for item in player.board],
        "employment": job,
        "sacked": player.sacked,
        "plan": player.plan or None,
        "boys": plan.boys if plan is not None else 0,
        "boys_left": _boys_left(state, seat, plan.boys if plan is not None else 0),
        "demoted": player.demoted,
        "bankrupt": player.bankrupt,
        "hand_limit": hand_limit(player),
        "discard_owed": state.need[seat] if state.phase == DISCARD else 0,
        "discard_held": len(state.held[seat]),
    }


def _boys_left(state: LastWillState, seat: int, boys: int) -> int:
    """Boys still to go out this round: all of them before the Errands phase, none after."""
    if state.phase in (PLANNING, DRAWING):
        return boys
    if state.phase != ERRANDS:
        return 0
    done = state.errand_pass - 1 + (state.order.index(seat) < state.cursor)
    return max(0, boys - done)


def _errands(state: LastWillState) -> list[dict[str, JSON]]:
    spaces_ = ["opera", "market", "ext"]
    if state.expansion:
        spaces_ += ["demote", "demext"] if state.employment != data.EmploymentMode.NONE else ["demext"]
    found: list[dict[str, JSON]] = [
        {"space": ONE, "capacity": None, "boys": list(state.errands.get(ONE, []))}
    ]
    found += [
        {"space": s, "capacity": capacity(state, s), "boys": list(state.errands.get(s, []))} for s in spaces_
    ]
    return found


def _pending(state: LastWillState) -> dict[str, JSON] | None:
    """The open choice as the table sees it: everything but the Personal Secretary's six cards,
    of which only the deck and how many were drawn are public (``secretary_drew``).  The steps
    still to come, the symbols a demotion may match and the step's bound follow from public
    cards and boards; a bot rebuilding the choice from its view (``sample.py``) needs them."""
    pend = state.pending
    if pend is None:
        return None
    private = pend.step == pending.PICK
    return {
        "seat": pend.seat,
        "kind": pend.step,
        "source": pend.source,
        "cards": [] if private else list(pend.cards),
        "icons": plain(pend.icons),
        "money": pend.money,
        "steps": list(pend.steps),
        "symbols": list(pend.symbols),
        "count": pend.count,
        "used": list(pend.used),
        "hidden": {"deck": DECK_OF[pend.cards[0]], "cards": len(pend.cards)}
        if private and pend.cards
        else None,
    }


def view(state: LastWillState, seat: int | None) -> dict[str, JSON]:
    will = data.LAST_WILLS[state.last_will]
    result: dict[str, JSON] | None = None
    done = outcome(state)
    if done is not None:
        result = {
            "ranks": list(done.ranks),
            "scores": list(done.scores),
            "winners": list(done.winners()),
            "nobody_wins": done.no_winner,
            "breakdown": [dict(b) for b in done.breakdown],
        }
    taken = {p.plan: s for s, p in enumerate(state.players) if p.plan}
    out: dict[str, JSON] = {
        "game": "lastwill",
        "round": state.round,
        "rounds": data.ROUNDS,
        "last_round": state.last_round,
        "phase": state.phase,
        "picked": list(state.picked),
        "start": state.start,
        "turn": None if state.pending is not None or state.phase == OVER else _turn(state),
        "errand_pass": state.errand_pass,
        "waiting": sorted(waiting_for(state)),
        "discard_for": state.discard_for,
        "options": {
            "expansion": state.expansion,
            "employment": state.employment,
            "plans": state.plans_mode,
            "last_will": state.last_will,
            "end_property_penalty": state.penalty,
        },
        "last_will": {
            "id": will.id,
            "money": will.money,
            "set": None if will.employment is None else will.employment.value,
        },
        "plans": [
            {
                "pos": p.pos,
                "cards": p.cards,
                "boys": p.boys,
                "actions": p.actions,
                "seat": taken.get(p.pos),
                "tile": p.tile or None,
                "side": p.side or None,
            }
            for p in state.plans
        ],
        "order": list(state.order),
        "offering": [
            {"slot": s.label, "deck": s.deck, "card": s.card or None, "boy": None if s.boy < 0 else s.boy}
            for s in state.offering
        ],
        "errands": _errands(state),
        "market": dict(state.market),
        "extensions_left": state.extensions_left,
        "decks": {deck: len(cards) for deck, cards in state.decks.items()},
        "discards": {deck: list(cards) for deck, cards in state.piles.items()},
        "gone": list(state.gone),
        "players": [_player(state, s) for s in range(state.count)],
        "budget": {"actions": state.actions_left, "valet": state.valet_left, "free": dict(state.free)}
        if state.phase == ACTIONS
        else None,
        "pending": _pending(state),
        "last": plain(state.last),
        "result": result,
    }
    if seat is not None and 0 <= seat < state.count:
        out["you"] = _you(state, seat)
    return out


def _you(state: LastWillState, seat: int) -> dict[str, JSON]:
    pend = state.pending
    full: dict[str, JSON] | None = None
    if pend is not None and pend.seat == seat:
        full = pend.to_json()
        full["kind"] = pend.step
        full["options"] = [a.encode() for a in pending.options(state)]
    return {
        "seat": seat,
        "hand": list(state.players[seat].hand),
        "pending": plain(full),
        "split": dict(state.split) if state.phase == DRAWING and _turn(state) == seat else {},
        "discarding": list(state.held[seat]),
    }
