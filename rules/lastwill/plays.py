"""Playing white cards (§7): events, white specials, Balls and nuptial sets.

A play takes its cards out of the hand and its actions at once (the Valet's first), then hands
over to the pending queue (``pending.py``): companions, payment, the Wedding Planner, the card's
effect, the demotion.  Cards in play stay in the pending record until paid, so a Bachelor Party's
discards can never pick up the very card being played.
"""

from __future__ import annotations

from itertools import combinations

from rules.core import Action, Event, IllegalAction
from rules.lastwill import data
from rules.lastwill.cards import WHITES, allowance, can_spend, is_nuptial, symbol_bonus, symbols_of
from rules.lastwill.data import BallLevel, Deck, FreeTokens
from rules.lastwill.moves import move
from rules.lastwill.pending import EFFECT_STEP, EXTRA, LINE, PAY, WITH, run
from rules.lastwill.state import LastWillState, Pending
from rules.lastwill.turn import pay, short, too_dear

EVENT_DECK = Deck.EVENT.value
SET_SIZES = data.NUPTIAL_SET_SIZES
SET_ACTIONS = data.NUPTIAL_SET_ACTIONS


def white_actions(state: LastWillState, seat: int) -> list[Action]:
    """Every white play the seat can afford now, one action per card (and per Ball level).  The
    spending room is worked out once (``can_spend`` for every card would ask it again)."""
    player = state.players[seat]
    budget = state.actions_left + state.valet_left
    room = allowance(player)
    found: list[Action] = []
    nuptial: list[str] = []
    for card in dict.fromkeys(player.hand):
        white = WHITES.get(card)
        if white is None:
            continue
        if white.nuptial is not None:
            nuptial.append(card)
        if white.ball:
            found += [
                action
                for entry, action in _BALLS[card]
                if entry.actions <= budget and (room is None or entry.money <= room)
            ]
        elif white.actions <= budget and (room is None or white.money <= room):
            found.append(_PLAYS[card])
    if len(nuptial) >= SET_SIZES[0] and budget >= SET_ACTIONS:
        for size in SET_SIZES:
            for combo in combinations(sorted(nuptial), size):
                if _set_problem(state, seat, list(combo)) is None:
                    found.append(move("nupt", combo))
    return found


_PLAYS: dict[str, Action] = {
    card: move("event" if white.deck is Deck.EVENT else "special", (card,))
    for card, white in WHITES.items()
    if not white.ball
}
_BALLS: dict[str, tuple[tuple[BallLevel, Action], ...]] = {
    card: tuple((entry, move("ball", (card, level))) for level, entry in enumerate(white.ball, start=1))
    for card, white in WHITES.items()
    if white.ball
}
"""Each white card's plays, built once: the Actions phase lists them at every step."""


def _set_problem(state: LastWillState, seat: int, cards: list[str]) -> IllegalAction | None:
    if len(cards) not in SET_SIZES or not all(is_nuptial(c) for c in cards):
        return IllegalAction("set_size", low=SET_SIZES[0], high=SET_SIZES[-1])
    names = [WHITES[c].nuptial for c in cards]
    if len(set(names)) != len(names):
        return IllegalAction("set_names")
    return _cost_problem(state, seat, cards, sum(WHITES[c].money for c in cards), SET_ACTIONS)


def _cost_problem(
    state: LastWillState, seat: int, cards: list[str], money: int, cost: int
) -> IllegalAction | None:
    player = state.players[seat]
    hand = list(player.hand)
    for card in cards:
        if card not in hand:
            return IllegalAction("not_in_hand")
        hand.remove(card)
    if state.actions_left + state.valet_left < cost:
        return short(cost)
    if not can_spend(player, money):
        return too_dear(player.money, money)
    return None


def play(state: LastWillState, seat: int, action: Action) -> list[Event]:
    """``event``, ``special``, ``ball`` and ``nupt``: validate, then open the play's steps."""
    cards = [str(a) for a in action.args]
    if action.kind == "ball":
        if (
            len(action.args) != 2
            or not isinstance(action.args[1], int)
            or not isinstance(action.args[0], str)
        ):
            raise IllegalAction("name_ball_level")
        card, level = str(action.args[0]), action.args[1]
        white = WHITES.get(card)
        if white is None or not white.ball:
            raise IllegalAction("not_a_ball")
        if not 1 <= level <= len(white.ball):
            raise IllegalAction("ball_levels", levels=len(white.ball))
        entry = white.ball[level - 1]
        cards, money, cost = [card], entry.money, entry.actions
    elif action.kind == "nupt":
        if len(set(cards)) != len(cards):
            raise IllegalAction("set_repeats")
        problem = _set_problem(state, seat, cards)
        if problem is not None:
            raise problem
        cards = sorted(cards)
        money, cost = sum(WHITES[c].money for c in cards), SET_ACTIONS
    else:
        white = WHITES.get(cards[0]) if len(cards) == 1 else None
        if white is None or white.ball:
            raise IllegalAction("not_playable")
        if (white.deck is Deck.EVENT) != (action.kind == "event"):
            raise IllegalAction("wrong_play_kind")
        money, cost = white.money, white.actions
    problem = _cost_problem(state, seat, cards, money, cost)
    if problem is not None:
        raise problem
    return begin(state, seat, cards, money, cost)


def begin(state: LastWillState, seat: int, cards: list[str], money: int, cost: int) -> list[Event]:
    player = state.players[seat]
    for card in cards:
        player.hand.remove(card)
    pay(state, cost, white=True)
    icons: list[list[object]] = [
        [icon.companion.value, icon.amount, ""] for card in cards for icon in WHITES[card].icons
    ]
    optional = sum(symbol_bonus(player, symbols_of(c))[1] for c in cards if is_nuptial(c))
    steps = [WITH] if icons else []
    steps.append(PAY)
    if optional:
        steps.append(EXTRA)
    count = optional
    for card in cards:
        effect = WHITES[card].effect
        step = EFFECT_STEP.get(type(effect)) if effect is not None else None
        if step is not None:
            steps.append(step)
        if isinstance(effect, FreeTokens):
            count = effect.count
    steps.append(LINE)
    state.pending = Pending(
        seat,
        steps,
        source=".".join(cards),
        cards=list(cards),
        icons=icons,
        symbols=[s.value for c in cards for s in WHITES[c].symbols],
        count=count,
        money=money,
    )
    return [Event("playing", seat, {"cards": list(cards), "actions": cost, "money": money}), *run(state)]
