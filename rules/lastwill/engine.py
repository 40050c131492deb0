"""Last Will's turn flow, and the catalogue of actions and events.

Seats 0..n-1 clockwise; seat 0 is the table's host.  Phases (``state.phase``) and whom
``waiting_for`` holds:

    pick      handicap only: the host toggles employed seats, then confirms         {0}
    discard   round 1's keep-2 and the end-of-round hand limit, all at once, each
              seat privately                                                        {seats over}
    planning  one at a time from the start player                                   {planner}
    drawing   in plan order                                                         {current}
    errands   passes 1..3 in plan order, one boy per player a pass                  {current}
    actions   in plan order, one whole turn each                                    {current}
    over
A pending choice (``pending.py``) belongs to one seat and suspends the phase: ``waiting_for``
is then that seat alone.  Round setup and the end of a round run by themselves: a step that ends
its phase names the next in ``state.handoff`` and ``phases.settle`` runs it before ``apply`` returns.

Action kinds (``Action.encode()``; cards are data ids such as F1, LW-4A, ER2, W1):

  setup        emp.<seat> (toggle an employed seat; host only) | empok (confirm 1..n-1 seats)
  discards     discard.<id>[.<id>...]  1 to the number still owed, at once; listed one card each
  planning     plan.<pos>              a free plan position (1-based)
  drawing      draw.<deck> (one more card from property|event|helper|companion) | redraw (clear
               the split) | drawok (draw the split once it sums to the plan's cards + SC5)
  errands      boy.<space> (slot<k>, slotx, one-<deck>, opera, ext, demote, demext) |
               market.<t1>.<t2> (the market errand: swap two types' tokens) | hold
  actions      event.<id> | special.<id> | ball.<id>.<level> | nupt.<id>.<id>[.<id>[.<id>]]
               (2-4 nuptial cards, names all different, 1 action) | lay.<id> | buy.<id>[.<type>]
               (a dual property names its type) | keep.<id> (maintain) | use.<id> (expense) |
               token.<target>.<card>[.<companion>] (a wild card names what it stands for) |
               sell.<id> | drop.<id> (0 actions) | as.<id>.<type> (dual property, 0 actions) |
               sec.<deck> (Personal Secretary, 0 actions) | bankrupt (0 actions) | done
  answers      with.<card>[.<companion>] | go | extra.<n> (Wedding Planner, n = 0..offered) |
  (pending)    bpx.<id>[.<id>...] (Bachelor Party discards) | target.<id> (Wild Party target,
               Lost at Cards sale) | fair.<farm>.<companion> (Breeders' Fair) | line.<i> |
               noline | dx.demote | dx.ext | pick.<id> (Personal Secretary)

``legal_actions`` lists each discard and each Bachelor Party discard one card at a time (several
at once also apply); it lists only one seat's own hand, so card ids never reach a public button.

Event kinds and params (public unless marked PRIVATE; ``seat`` is the actor):

  setup        employment_dealt jobs[seat]; handicap_toggled target_seat, picked;
               handicap_picked seats; handicap_money amount; dealt PRIVATE cards
  rounds       round_started round, rounds (seat = start player); offering_filled slots{label:
               card}; income amount, money; reshuffled deck, cards; discard_phase kind, need[];
               discarded count, left (+ PRIVATE cards); discards_revealed cards[seat][], kind;
               round_ended round, unclaimed; depreciated card, from, to; wild_returned cards
  planning     planning_started round; plan_chosen pos, cards, boys, actions
  drawing      split PRIVATE split; drew counts (+ PRIVATE counts, cards)
  errands      errand space (+ card | deck | money, bonus | options; draw-one's card PRIVATE);
               held forced, pass; market_swapped types, market; extension extensions
  actions      turn_started actions, valet, free; turn_ended unused; playing cards, actions,
               money; companion_added card, as, amount; card_played cards, money, bonus,
               companions; actions_gained card, amount; planner_extra amount; bp_discarded cards,
               amount; step_declined step (bpx | fair | sale), source; free_token card,
               companion; value_dropped card, from, to; laid card;
               bought card, type, price, free_tokens; maintained card, money, bonus;
               expense_used card, money, bonus; token_placed target, card, companion;
               sold card, price, free; dropped card; switched card, type; secretary_drew deck,
               count (+ PRIVATE cards); secretary_kept PRIVATE card; secretary_discarded cards;
               bankrupt_declared money, round
  employment   demotion_chosen source (the demotion-or-extension errand); demoted line, symbol,
               amount, source; demotion_declined source; sacked job
  end          final_income amount, money; valued value, penalty, properties;
               game_over round, bankruptcy, winners, money[]

Nothing public depends on a hand or the deck order: draws, the split, kept cards and chosen
discards are private until they land face up on a pile; offering cards are face up.
``fingerprint`` is None for every action but a discard in the simultaneous discard phases,
whose panel must outlast the other players' picks.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Action, Event, IllegalAction
from rules.lastwill import board, errands, pending, planning, plays, rounds, setup, turn
from rules.lastwill.cards import COMPANIONS, PROPERTIES
from rules.lastwill.data import CARDS
from rules.lastwill.moves import move
from rules.lastwill.phases import settle
from rules.lastwill.state import DISCARD, DRAWING, ERRANDS, OVER, PICK, PLANNING, LastWillState, alone

ANSWERS = frozenset({"with", "go", "extra", "bpx", "target", "fair", "line", "noline", "dx", "pick"})
LAST_KINDS = frozenset(
    {
        "plan_chosen", "errand", "market_swapped", "card_played", "laid", "bought", "maintained",
        "expense_used", "token_placed", "sold", "dropped", "switched", "demoted", "sacked",
        "bankrupt_declared", "discards_revealed",
    }
)  # fmt: skip


def waiting_for(state: LastWillState) -> frozenset[int]:
    phase = state.phase
    if phase == OVER:
        return frozenset()
    pend = state.pending
    if pend is not None:
        return alone(pend.seat)
    if phase == PICK:
        return alone(0)
    if phase == DISCARD:
        return frozenset(s for s, n in enumerate(state.need) if n > 0)
    if phase == PLANNING:
        return alone(planning.planner(state))
    return alone(turn.current(state))


def legal_actions(state: LastWillState, seat: int) -> list[Action]:
    phase = state.phase
    if phase == OVER or not 0 <= seat < len(state.players):
        return []
    pend = state.pending
    if pend is not None:
        return pending.options(state) if pend.seat == seat else []
    if phase == DRAWING:  # half of all moves; the listing tests the seat on turn itself
        return planning.draw_actions(state, seat)
    if phase == DISCARD:
        if state.need[seat] <= 0:
            return []
        return [DISCARDS[c] for c in dict.fromkeys(state.players[seat].hand)]
    if phase == PICK:
        if seat != 0:
            return []
        found = [move("emp", (s,)) for s in range(state.count)]
        return [*found, move("empok")] if setup.confirm_problem(state, seat) is None else found
    if phase == PLANNING:
        return (
            [move("plan", (p,)) for p in planning.free_plans(state)]
            if planning.planner(state) == seat
            else []
        )
    if turn.current(state) != seat:
        return []
    if phase == ERRANDS:
        return [*errands.placements(state, seat), HOLD]
    found = plays.white_actions(state, seat) + board.board_actions(state, seat)
    # A job alone refuses bankruptcy, and most seats hold one: tested first, no refusal is built.
    if not state.players[seat].job and turn.bankrupt_problem(state, seat) is None:
        found.append(BANKRUPT)
    found.append(DONE)
    return found


DISCARDS: dict[str, Action] = {card: move("discard", (card,)) for card in CARDS}
HOLD, BANKRUPT, DONE = move("hold"), move("bankrupt"), move("done")
"""Moves listed on most steps, looked up rather than built (see ``moves``)."""


def apply(state: LastWillState, seat: int, action: Action) -> list[Event]:
    """Validate completely, then change the state; ``IllegalAction`` leaves it untouched."""
    if not 0 <= seat < len(state.players):
        raise IllegalAction("no_seat")
    kind = action.kind
    handler = _HANDLERS.get(kind)
    if handler is None:
        raise IllegalAction("malformed")
    if state.phase == OVER:
        raise IllegalAction("game_over")
    pend = state.pending
    if pend is not None and kind not in ANSWERS:
        if pend.seat == seat:
            raise IllegalAction("answer_first")
        raise IllegalAction("other_answering")
    events = settle(state, handler(state, seat, action))
    _remember_last(state, events)
    return events


def _remember_last(state: LastWillState, events: list[Event]) -> None:
    """The newest public move, for the renderer's highlight; private steps leave it alone."""
    for event in reversed(events):
        if event.visible_to is None and event.kind in LAST_KINDS:
            state.last = {**event.params, "seat": event.seat, "kind": event.kind}
            return


# --- argument shapes -------------------------------------------------------------------------


def _words(action: Action, low: int, high: int) -> list[str]:
    args = action.args
    words = [a for a in args if isinstance(a, str)]
    if len(words) != len(args) or not low <= len(args) <= high:
        raise IllegalAction("malformed")
    return words


def _number(action: Action) -> int:
    if len(action.args) != 1 or not isinstance(action.args[0], int):
        raise IllegalAction("malformed")
    return action.args[0]


def _none(action: Action) -> None:
    if action.args:
        raise IllegalAction("malformed")


def _refuse(problem: IllegalAction | None) -> None:
    """Raise the refusal a ``*_problem`` function found, if any."""
    if problem is not None:
        raise problem


def _picking(state: LastWillState) -> None:
    if state.phase != PICK:
        raise IllegalAction("pick_phase")


# --- handlers --------------------------------------------------------------------------------


def _emp(state: LastWillState, seat: int, action: Action) -> list[Event]:
    target = _number(action)
    _picking(state)
    return setup.toggle(state, seat, target)


def _empok(state: LastWillState, seat: int, action: Action) -> list[Event]:
    _none(action)
    _picking(state)
    return setup.confirm(state, seat)


def _discard(state: LastWillState, seat: int, action: Action) -> list[Event]:
    cards = _words(action, 1, 40)
    _refuse(rounds.discard_problem(state, seat, cards))
    return rounds.discard(state, seat, cards)


def _plan(state: LastWillState, seat: int, action: Action) -> list[Event]:
    pos = _number(action)
    _refuse(planning.plan_problem(state, seat, pos))
    return planning.choose_plan(state, seat, pos)


def _draw(state: LastWillState, seat: int, action: Action) -> list[Event]:
    deck = _words(action, 1, 1)[0]
    _refuse(planning.draw_problem(state, seat, deck))
    return planning.add(state, seat, deck)


def _redraw(state: LastWillState, seat: int, action: Action) -> list[Event]:
    _none(action)
    _refuse(planning.redraw_problem(state, seat))
    return planning.redraw(state, seat)


def _drawok(state: LastWillState, seat: int, action: Action) -> list[Event]:
    _none(action)
    _refuse(planning.drawok_problem(state, seat))
    return planning.drawok(state, seat)


def _errand(state: LastWillState, seat: int, action: Action) -> list[Event]:
    _words(action, *_ERRAND_WORDS[action.kind])
    _refuse(errands.errand_problem(state, seat, action))
    return errands.place(state, seat, action)


_ERRAND_WORDS: dict[str, tuple[int, int]] = {"boy": (1, 1), "market": (2, 2), "hold": (0, 0)}


def _answer(state: LastWillState, seat: int, action: Action) -> list[Event]:
    if state.pending is None:
        raise IllegalAction("no_choice")
    _refuse(pending.problem(state, seat, action))
    events = pending.answer(state, seat, action)
    if state.pending is None and state.phase == ERRANDS:
        events += errands.advance(state)
    return events


def _play(state: LastWillState, seat: int, action: Action) -> list[Event]:
    turn.checked(state, seat)
    if action.kind == "ball":
        return plays.play(state, seat, action)
    _words(action, 1, 4 if action.kind == "nupt" else 1)
    return plays.play(state, seat, action)


def _one_card(
    problem: Callable[[LastWillState, int, str], IllegalAction | None],
    do: Callable[[LastWillState, int, str], list[Event]],
) -> Callable[[LastWillState, int, Action], list[Event]]:
    def handler(state: LastWillState, seat: int, action: Action) -> list[Event]:
        card = _words(action, 1, 1)[0]
        turn.checked(state, seat)
        _refuse(problem(state, seat, card))
        return do(state, seat, card)

    return handler


def _buy(state: LastWillState, seat: int, action: Action) -> list[Event]:
    args = _words(action, 1, 2)
    turn.checked(state, seat)
    prop = PROPERTIES.get(args[0])
    if len(args) == 1 and prop is not None and len(prop.types) > 1:
        raise IllegalAction("name_type")
    kind = args[1] if len(args) == 2 else (prop.types[0].value if prop is not None else "")
    _refuse(board.buy_problem(state, seat, args[0], kind))
    return board.buy(state, seat, args[0], kind)


def _token(state: LastWillState, seat: int, action: Action) -> list[Event]:
    args = _words(action, 2, 3)
    turn.checked(state, seat)
    record = COMPANIONS.get(args[1])
    if record is not None and record.companion is None and len(args) == 2:
        raise IllegalAction("name_companion")
    kind = args[2] if len(args) == 3 else (record.companion.value if record and record.companion else "")
    _refuse(board.token_problem(state, seat, args[0], args[1], kind))
    return board.token(state, seat, args[0], args[1], kind)


def _switch(state: LastWillState, seat: int, action: Action) -> list[Event]:
    card, kind = _words(action, 2, 2)
    turn.checked(state, seat)
    _refuse(board.switch_problem(state, seat, card, kind))
    return board.switch(state, seat, card, kind)


def _bankrupt(state: LastWillState, seat: int, action: Action) -> list[Event]:
    _none(action)
    turn.checked(state, seat)
    _refuse(turn.bankrupt_problem(state, seat))
    return turn.declare_bankruptcy(state, seat)


def _done(state: LastWillState, seat: int, action: Action) -> list[Event]:
    _none(action)
    turn.checked(state, seat)
    return turn.end_turn(state, seat)


Handler = Callable[[LastWillState, int, Action], list[Event]]
_HANDLERS: dict[str, Handler] = {
    "emp": _emp,
    "empok": _empok,
    "discard": _discard,
    "plan": _plan,
    "draw": _draw,
    "redraw": _redraw,
    "drawok": _drawok,
    "boy": _errand,
    "market": _errand,
    "hold": _errand,
    "event": _play,
    "special": _play,
    "ball": _play,
    "nupt": _play,
    "lay": _one_card(board.lay_problem, board.lay),
    "buy": _buy,
    "keep": _one_card(board.keep_problem, board.keep),
    "use": _one_card(board.use_problem, board.use),
    "token": _token,
    "sell": _one_card(board.sell_problem, board.sell),
    "drop": _one_card(board.drop_problem, board.drop),
    "as": _switch,
    "sec": _one_card(board.sec_problem, board.sec),
    "bankrupt": _bankrupt,
    "done": _done,
    **{kind: _answer for kind in ANSWERS},
}
