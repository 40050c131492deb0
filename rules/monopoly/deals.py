"""Deals between players as engine state: private drafts, public offers, answers, lapses, fees.

A seat composes a deal privately in small steps (a *draft*: ``deal.<seat>`` then toggles and
amounts), then ``send``s it: it becomes a public, numbered offer and the game waits for its
recipient, who may ``accept``, ``reject`` or ``counter`` (which closes it and opens a draft
back, sides swapped); the proposer may ``withdraw``.  One open offer per proposer.  An offer
*lapses* (public event) as soon as a holding named in it changes: a property changes owner,
mortgage or gets buildings on its group, a get-out card changes hands, a side can no longer pay
the cash named, or a side leaves the game.

Only unimproved property trades (rulebook: sell every building of a colour group first), with
cash and get-out cards in any combination.  A mortgaged property's receiver owes the bank 10%
at once or repays the mortgage in full, their choice (``keep.<pos>`` / ``lift.<pos>``): a
``Fee`` the game waits for.
"""

from __future__ import annotations

from collections.abc import Callable

from rules.core import JSON, Action, Event, IllegalAction
from rules.monopoly import data, holdings, moves
from rules.monopoly.state import Fee, MonopolyState, Offer, Terms
from rules.monopoly.tokens import SPACE_TOKENS

CLOSED: dict[str, Callable[[int], IllegalAction]] = {
    "accepted": lambda n: IllegalAction("offer_accepted", offer=n),
    "rejected": lambda n: IllegalAction("offer_rejected", offer=n),
    "countered": lambda n: IllegalAction("offer_countered", offer=n),
    "withdrawn": lambda n: IllegalAction("offer_withdrawn", offer=n),
    "changed": lambda n: IllegalAction("offer_lapsed_changed", offer=n),
    "cash_short": lambda n: IllegalAction("offer_lapsed_cash", offer=n),
    "bankrupt": lambda n: IllegalAction("offer_lapsed_bankrupt", offer=n),
    "game_over": lambda n: IllegalAction("offer_lapsed_game_over", offer=n),
}
"""Why an answer to a closed offer is refused, by how it closed (``state.closed``): one sentence each."""
VERBS = {"accept": "accepted", "reject": "rejected", "counter": "countered", "withdraw": "withdrawn"}


def tradeable(state: MonopolyState, seat: int, pos: int) -> bool:
    """``seat`` owns property ``pos`` and no site of its group has a building."""
    if not 0 <= pos < data.SPACES or state.owner[pos] != seat or not data.BOARD[pos].price:
        return False
    return not data.IS_SITE[pos] or not any(map(state.level.__getitem__, data.GROUP_AT[pos]))


def terms_json(terms: Terms) -> dict[str, JSON]:
    return {
        "spaces": list(terms.props),
        "tokens": [SPACE_TOKENS[p] for p in terms.props],
        "cards": list(terms.cards),
        "cash": terms.cash,
    }


def offer_params(offer: Offer) -> dict[str, JSON]:
    return {
        "offer": offer.number,
        "from_seat": offer.proposer,
        "to_seat": offer.recipient,
        "give": terms_json(offer.give),
        "want": terms_json(offer.want),
    }


_ONLY: tuple[frozenset[int], ...] = tuple(frozenset({seat}) for seat in range(data.MAX_PLAYERS))
"""Who sees a seat's private draft events: the seat alone (built once; drafting is most of
random play's moves)."""


def _private(seat: int, kind: str, params: dict[str, JSON]) -> Event:
    return Event(kind, seat, params, visible_to=_ONLY[seat])


def _draft_event(seat: int, draft: Offer) -> Event:
    return _private(seat, "draft_changed", offer_params(draft))


# --- drafting -------------------------------------------------------------------------------


def draft_actions(state: MonopolyState, memo: holdings.Index, seat: int) -> list[Action]:
    """Every drafting step open to ``seat`` (amounts as a ladder: ``data.CASH_STEPS``); ``memo``
    is the state's ``holdings.index``, which keeps the toggles (this runs for every seat at nearly
    every step of play).

    ``deal.<seat>`` is listed only while no draft is open (chosen (engine): applying it still
    restarts an open draft; listing it beside every toggle made random play restart drafts
    more often than it finished them)."""
    deals = memo.deals.get(seat)
    if deals is None:
        alive = state.alive
        deals = memo.deals[seat] = [
            moves.deal(other) for other in range(state.players) if other != seat and alive[other]
        ]
    draft = state.drafts[seat]
    if draft is None:
        return list(deals)
    to = draft.recipient
    acts = deals + holdings.trade_actions(state, memo, "give", seat)
    acts += holdings.trade_actions(state, memo, "want", to)
    getout = state.getout
    if seat in getout.values():
        acts += [moves.with_deck("givec", deck) for deck, holder in getout.items() if holder == seat]
    if to in getout.values():
        acts += [moves.with_deck("wantc", deck) for deck, holder in getout.items() if holder == to]
    acts += moves.ladder("cash", state.cash[seat])
    acts += moves.ladder("ask", state.cash[to])
    if _sendable(state, memo, seat, draft):
        acts.append(moves.SEND)
    acts.append(moves.DROP)
    return acts


def _sendable(state: MonopolyState, memo: holdings.Index, seat: int, draft: Offer) -> bool:
    """``send_problem(state, seat) is None``, asked without building a refusal and with ``memo``'s
    sets of tradeable property (``tests/rules/test_monopoly_speed.py`` compares the two)."""
    if draft.give.empty() and draft.want.empty():
        return False
    for offer in state.offers:
        if offer.proposer == seat:
            return False
    to = draft.recipient
    return (
        state.alive[to]
        and _can_give(state, memo, draft.give, seat)
        and _can_give(state, memo, draft.want, to)
    )


def _can_give(state: MonopolyState, memo: holdings.Index, terms: Terms, holder: int) -> bool:
    """``holder`` still has what ``terms`` name (what :func:`_give_problem` and
    :func:`_want_problem` check)."""
    if terms.props and not holdings.free_of(state, memo, holder).issuperset(terms.props):
        return False
    for deck in terms.cards:
        if state.getout.get(deck) != holder:
            return False
    return terms.cash <= state.cash[holder]


def _draft(state: MonopolyState, seat: int) -> Offer:
    draft = state.drafts[seat]
    if draft is None:
        raise IllegalAction("no_draft")
    return draft


def draft_step(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    """Validate and apply one drafting step (``deal``, ``give``, ``want``, ``givec``, ``wantc``,
    ``cash``, ``ask``, ``drop``); ``send`` is :func:`send`."""
    kind, args = action.kind, action.args
    if kind == "deal":
        to = _int_arg(args)
        if to == seat:
            raise IllegalAction("deal_with_self")
        if not 0 <= to < state.players or not state.alive[to]:
            raise IllegalAction("no_such_player")
        state.drafts[seat] = Offer(0, seat, to, Terms(), Terms())
        return [_private(seat, "draft_started", {"to_seat": to})]
    if kind == "drop":
        if action.args:
            raise IllegalAction("malformed")
        _draft(state, seat)
        state.drafts[seat] = None
        return [_private(seat, "draft_dropped", {})]
    draft = _draft(state, seat)
    if kind in ("give", "want"):
        pos = _int_arg(args)
        side, holder = (draft.give, seat) if kind == "give" else (draft.want, draft.recipient)
        if pos not in side.props:
            if not 0 <= pos < data.SPACES or not data.BOARD[pos].price:
                raise IllegalAction("trade_not_property")
            if state.owner[pos] != holder:
                if holder == seat:
                    raise IllegalAction("not_yours", space=pos)
                raise IllegalAction("not_theirs", space=pos, to_seat=holder)
            if not tradeable(state, holder, pos):
                raise IllegalAction("trade_built_group", space=pos)
            side.props = sorted([*side.props, pos])
        else:
            side.props = [p for p in side.props if p != pos]
        return [_draft_event(seat, draft)]
    if kind in ("givec", "wantc"):
        deck = _word_arg(args)
        side, holder = (draft.give, seat) if kind == "givec" else (draft.want, draft.recipient)
        if deck not in side.cards:
            if deck not in data.DECKS:
                raise IllegalAction("no_such_card")
            if state.getout.get(deck) != holder:
                if holder == seat:
                    raise IllegalAction("card_not_held")
                raise IllegalAction("card_not_theirs", to_seat=holder)
            side.cards = sorted([*side.cards, deck])
        else:
            side.cards = [c for c in side.cards if c != deck]
        return [_draft_event(seat, draft)]
    if kind in ("cash", "ask"):
        amount = _int_arg(args)
        payer = seat if kind == "cash" else draft.recipient
        if amount < 0:
            raise IllegalAction("negative_cash")
        if amount > state.cash[payer]:
            if payer == seat:
                raise IllegalAction("cash_over", cash=state.cash[payer], amount=amount)
            raise IllegalAction("ask_over", to_seat=payer, cash=state.cash[payer], amount=amount)
        (draft.give if kind == "cash" else draft.want).cash = amount
        return [_draft_event(seat, draft)]
    raise IllegalAction("malformed")


def _int_arg(args: tuple[int | str, ...]) -> int:
    if len(args) != 1 or not isinstance(args[0], int):
        raise IllegalAction("malformed")
    return args[0]


def _word_arg(args: tuple[int | str, ...]) -> str:
    if len(args) != 1 or not isinstance(args[0], str):
        raise IllegalAction("malformed")
    return args[0]


def _give_problem(state: MonopolyState, terms: Terms, seat: int) -> IllegalAction | None:
    """What the proposer can no longer give since drafting, or ``None``."""
    for pos in terms.props:
        if not tradeable(state, seat, pos):
            return IllegalAction("give_gone", space=pos)
    for deck in terms.cards:
        if state.getout.get(deck) != seat:
            return IllegalAction("give_card_gone")
    if terms.cash > state.cash[seat]:
        return IllegalAction("give_cash_short", cash=state.cash[seat], amount=terms.cash)
    return None


def _want_problem(state: MonopolyState, terms: Terms, holder: int) -> IllegalAction | None:
    """What the recipient can no longer give since the proposer drafted, or ``None``."""
    for pos in terms.props:
        if not tradeable(state, holder, pos):
            return IllegalAction("want_gone", space=pos, to_seat=holder)
    for deck in terms.cards:
        if state.getout.get(deck) != holder:
            return IllegalAction("want_card_gone", to_seat=holder)
    if terms.cash > state.cash[holder]:
        return IllegalAction("want_cash_short", to_seat=holder, cash=state.cash[holder], amount=terms.cash)
    return None


def send_problem(state: MonopolyState, seat: int) -> IllegalAction | None:
    draft = state.drafts[seat]
    if draft is None:
        return IllegalAction("no_draft")
    if draft.give.empty() and draft.want.empty():
        return IllegalAction("empty_deal")
    mine = next((o for o in state.offers if o.proposer == seat), None)
    if mine is not None:
        return IllegalAction("offer_open", offer=mine.number)
    if not state.alive[draft.recipient]:
        return IllegalAction("player_gone", to_seat=draft.recipient)
    return _give_problem(state, draft.give, seat) or _want_problem(state, draft.want, draft.recipient)


def send(state: MonopolyState, seat: int) -> list[Event]:
    problem = send_problem(state, seat)
    if problem is not None:
        raise problem
    draft = state.drafts[seat]
    assert draft is not None
    named = [*draft.give.props, *draft.want.props]
    offer = Offer(
        state.next_offer,
        seat,
        draft.recipient,
        draft.give,
        draft.want,
        sorted(p for p in named if state.mortgaged[p]),
    )
    state.next_offer += 1
    state.offers.append(offer)
    state.drafts[seat] = None
    return [Event("offered", seat, offer_params(offer))]


# --- answers --------------------------------------------------------------------------------


def open_offer(state: MonopolyState, action: Action) -> Offer:
    number = _int_arg(action.args)
    for offer in state.offers:
        if offer.number == number:
            return offer
    closed = CLOSED.get(state.closed.get(number, ""))
    if closed is not None:
        raise closed(number)
    raise IllegalAction("no_offer", offer=number)


def answer_problem(state: MonopolyState, seat: int, action: Action) -> IllegalAction | None:
    try:
        offer = open_offer(state, action)
    except IllegalAction as exc:
        return exc
    if action.kind == "withdraw":
        if offer.proposer != seat:
            return IllegalAction("not_proposer", offer=offer.number)
    elif offer.recipient != seat:
        return IllegalAction("not_recipient", offer=offer.number)
    return None


def answer(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    problem = answer_problem(state, seat, action)
    if problem is not None:
        raise problem
    offer = open_offer(state, action)
    kind = action.kind
    _close(state, offer, VERBS[kind])
    params = {"offer": offer.number, "from_seat": offer.proposer, "to_seat": offer.recipient}
    if kind == "withdraw":
        return [Event("withdrawn", seat, params)]
    if kind == "reject":
        return [Event("rejected", seat, params)]
    if kind == "counter":
        draft = Offer(0, seat, offer.proposer, offer.want, offer.give)
        state.drafts[seat] = draft
        return [
            Event("countered", seat, params),
            _private(seat, "draft_started", {"to_seat": offer.proposer}),
            _draft_event(seat, draft),
        ]
    # accept: an open offer is always good (it lapses the moment it is not), so it trades now
    events = [Event("accepted", seat, offer_params(offer))]
    _move(state, offer.give, offer.proposer, offer.recipient)
    _move(state, offer.want, offer.recipient, offer.proposer)
    for pos in [*offer.give.props, *offer.want.props]:
        if state.mortgaged[pos]:
            receiver = offer.recipient if pos in offer.give.props else offer.proposer
            state.fees.append(Fee(receiver, pos))
    return events + lapse_changed(state)


def _move(state: MonopolyState, terms: Terms, giver: int, receiver: int) -> None:
    for pos in terms.props:
        state.owner[pos] = receiver
    for deck in terms.cards:
        state.getout[deck] = receiver
    holdings.transfer(state, giver, receiver, terms.cash)


def _close(state: MonopolyState, offer: Offer, why: str) -> None:
    state.offers.remove(offer)
    state.closed[offer.number] = why


def _lapse(state: MonopolyState, offer: Offer, why: str) -> Event:
    _close(state, offer, why)
    return Event(
        "lapsed",
        None,
        {"offer": offer.number, "from_seat": offer.proposer, "to_seat": offer.recipient, "reason": why},
    )


def _changed(state: MonopolyState, offer: Offer) -> str | None:
    if not (state.alive[offer.proposer] and state.alive[offer.recipient]):
        return "bankrupt"
    for terms, holder in ((offer.give, offer.proposer), (offer.want, offer.recipient)):
        for pos in terms.props:
            if not tradeable(state, holder, pos) or state.mortgaged[pos] != (pos in offer.mortgaged):
                return "changed"
        for deck in terms.cards:
            if state.getout.get(deck) != holder:
                return "changed"
        if terms.cash > state.cash[holder]:
            return "cash_short"
    return None


def lapse_changed(state: MonopolyState) -> list[Event]:
    """Every open offer whose named holdings changed lapses, with a public event."""
    events = []
    for offer in list(state.offers):
        why = _changed(state, offer)
        if why is not None:
            events.append(_lapse(state, offer, why))
    return events


def lapse_seat(state: MonopolyState, seat: int) -> list[Event]:
    """A seat left the game: its draft goes, and every offer to or from it lapses."""
    state.drafts[seat] = None
    for other, draft in enumerate(state.drafts):
        if draft is not None and draft.recipient == seat:
            state.drafts[other] = None
    return lapse_changed(state)


def lapse_all(state: MonopolyState) -> list[Event]:
    state.drafts = [None] * state.players
    return [_lapse(state, offer, "game_over") for offer in list(state.offers)]


# --- mortgaged property received: pay 10% or repay ---------------------------------------------


def fee_problem(state: MonopolyState, seat: int, action: Action) -> IllegalAction | None:
    if len(action.args) != 1 or not isinstance(action.args[0], int):
        return IllegalAction("malformed")
    pos = action.args[0]
    if not any(f.seat == seat and f.pos == pos for f in state.fees):
        return IllegalAction("no_fee")
    if action.kind == "lift" and state.cash[seat] < data.repay_cost(pos):
        return IllegalAction("repay_short", space=pos, cost=data.repay_cost(pos), cash=state.cash[seat])
    return None


def fee_actions(state: MonopolyState, seat: int) -> list[Action]:
    acts: list[Action] = []
    for fee in state.fees:
        if fee.seat == seat:
            acts.append(moves.at("keep", fee.pos))
            if state.cash[seat] >= data.repay_cost(fee.pos):
                acts.append(moves.at("lift", fee.pos))
    return acts


__all__ = ["Fee"]
