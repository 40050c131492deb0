"""Toy Market: every rule and every refusal, offers that lapse, and replay equal to live play.

The game exists to test the host on Monopoly's deals and Last Will's secret discards, so these
tests pin the engine down first: a host test that fails then points at the host, not the game.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Callable, Sequence

import pytest

from bot.core.i18n import words
from bot.core.registry import GameEntry
from bot.games import REGISTRY
from rules.core import Action, Event, IllegalAction, InvalidOptions, StateError
from rules.play import canonical, random_playthrough, replay
from tests.helpers import kinds
from tests.rules import test_contract as contract
from tests.toymarket import ENTRY
from tests.toymarket.cog import MarketPresenter
from tests.toymarket.renderer import render
from tests.toymarket.rules import (
    CARD_VALUES,
    IMPROVE_COST,
    LOT_WORTH,
    LOTS,
    MAX_LEVEL,
    RENT,
    ROLL_INCOME,
    RULES,
    START_CASH,
    MarketState,
)

A = Action

SPLIT = (0, 0, 0, 1, 1, 1)
"""Two players: acorn, birch, cedar to seat 0; dune, elm, fern to seat 1."""


# --- helpers ----------------------------------------------------------------------------------


def fresh(
    players: int = 2,
    *,
    rounds: int = 3,
    owners: Sequence[int] = SPLIT,
    cash: Sequence[int] | None = None,
    seed: int = 7,
) -> MarketState:
    """A game at its start with the lots and cash a test wants; seat 0 rolls first.

    Cash set here is booked as paid by (or to) the bank, so the money law still holds.
    """
    state: MarketState = RULES.setup(players, {"rounds": rounds}, seed)
    state.owners = list(owners)
    state.first = state.turn = 0
    if cash is not None:
        state.cash = list(cash)
        delta = sum(cash) - START_CASH * players
        state.paid_out, state.paid_in = max(delta, 0), max(-delta, 0)
    assert RULES.invariants(state) == []
    return state


def refused(state: MarketState, seat: int, action: Action, key: str, **params: object) -> None:
    """The action is refused for exactly this reason (``toymarket.illegal.<key>`` and its params)
    and the state is untouched.  The sentences themselves are checked in ``test_toy_refusals``."""
    before = canonical(RULES.dump(state))
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, seat, action)
    assert canonical(RULES.dump(state)) == before
    assert (info.value.key, info.value.params) == (key, params)


def act(state: MarketState, seat: int, action: Action) -> list[Event]:
    """Apply a legal action (checked to be listed) and check the invariants after it."""
    assert action in RULES.legal_actions(state, seat), (seat, action)
    events: list[Event] = RULES.apply(state, seat, action)
    assert RULES.invariants(state) == []
    return events


def owner(state: MarketState, lot: str) -> int:
    return state.owners[LOTS.index(lot)]


def level(state: MarketState, lot: str) -> int:
    return state.levels[LOTS.index(lot)]


def roll_round(state: MarketState) -> list[Event]:
    """Every seat rolls once, from the seat on turn: the round reaches its discard phase."""
    events: list[Event] = []
    for _ in range(len(state.cash)):
        events += act(state, state.turn, A("roll"))
    return events


def discard_all(state: MarketState) -> list[Event]:
    """Every seat discards its lowest card."""
    events: list[Event] = []
    for seat in range(len(state.cash)):
        card = min(state.hands[seat], key=lambda c: CARD_VALUES[c])
        events += act(state, seat, A("discard", (card,)))
    return events


def offer(
    state: MarketState,
    proposer: int,
    to: int,
    *,
    give: tuple[str, ...] = (),
    want: tuple[str, ...] = (),
    pay: int = 0,
    ask: int = 0,
) -> int:
    """Compose and send an offer step by step; its number."""
    act(state, proposer, A("deal", (to,)))
    if give:
        act(state, proposer, A("give", give))
    if want:
        act(state, proposer, A("want", want))
    if pay:
        act(state, proposer, A("pay", (to, pay)))
    if ask:
        act(state, proposer, A("ask", (to, ask)))
    events = act(state, proposer, A("send"))
    number = events[0].params["offer"]
    assert isinstance(number, int)
    return number


# --- setup ------------------------------------------------------------------------------------


def test_setup_deals_lots_cash_and_hidden_hands() -> None:
    for players in (2, 3, 4):
        state: MarketState = RULES.setup(players, {"rounds": 2}, 11)
        counts = [state.owners.count(seat) for seat in range(players)]
        assert sorted(counts, reverse=True) == [len(range(s, len(LOTS), players)) for s in range(players)]
        assert state.cash == [START_CASH] * players
        assert all(len(hand) == 3 for hand in state.hands), "rounds + 1 cards each"
        assert RULES.waiting_for(state) == frozenset({state.turn}) and state.turn == state.first
        assert RULES.invariants(state) == []


def test_options_and_player_counts_are_checked() -> None:
    with pytest.raises(InvalidOptions, match=r"^range \(option='rounds', low=1, high=5\)"):
        RULES.setup(2, {"rounds": 0}, 1)
    with pytest.raises(InvalidOptions, match=r"^range \(option='rounds', low=1, high=5\)"):
        RULES.setup(2, {"rounds": "6"}, 1)
    with pytest.raises(InvalidOptions, match=r"^players \(.*min=2, max=4"):
        RULES.setup(1, {}, 1)
    assert RULES.setup(2, {}, 1).rounds == 3


def test_the_game_is_registered_hidden_with_its_presenter() -> None:
    assert REGISTRY.get("toymarket") is ENTRY and ENTRY.hidden
    assert ENTRY.presenter is MarketPresenter and ENTRY not in REGISTRY.public()


# --- turns ------------------------------------------------------------------------------------


def test_a_roll_pays_the_roller_and_the_named_lots_owner() -> None:
    state = fresh()
    events = act(state, 0, A("roll"))
    die = state.last_roll
    assert die is not None and 1 <= die <= 6
    lot = LOTS[die - 1]
    expected = [START_CASH + ROLL_INCOME, START_CASH]
    expected[owner(state, lot)] += RENT[0]
    assert state.cash == expected
    assert events == [
        Event(
            "rolled",
            0,
            {"die": die, "lot": lot, "income": ROLL_INCOME, "owner": owner(state, lot), "rent": 1},
        )
    ]
    assert state.turn == 1 and RULES.waiting_for(state) == frozenset({1})


def test_rent_grows_with_the_level() -> None:
    state = fresh(cash=[20, 20])
    for lot in LOTS:
        state.levels[LOTS.index(lot)] = 2
    before = list(state.cash)
    act(state, 0, A("roll"))
    assert sum(state.cash) - sum(before) == ROLL_INCOME + RENT[2]


def test_roll_refusals() -> None:
    state = fresh()
    refused(state, 1, A("roll"), "not_your_roll")
    refused(state, 0, A("roll", (3,)), "takes_no_arguments")
    roll_round(state)
    refused(state, 0, A("roll"), "roll_in_discard")


def test_every_seat_rolls_then_everyone_discards_at_once() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    events = roll_round(state)
    assert events[-1] == Event("discard_phase", None, {"round": 1})
    assert state.phase == "discard"
    assert RULES.waiting_for(state) == frozenset({0, 1, 2})
    for seat in range(3):
        assert {a for a in RULES.legal_actions(state, seat) if a.kind == "discard"} == {
            A("discard", (card,)) for card in state.hands[seat]
        }


# --- simultaneous secret discards -------------------------------------------------------------


def test_a_discard_is_told_only_to_its_chooser_until_all_have_chosen() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    roll_round(state)
    card = state.hands[1][0]
    public_before = RULES.view(state, None)
    events = act(state, 1, A("discard", (card,)))
    assert events == [
        Event("discard_chosen", 1, {"card": card, "value": CARD_VALUES[card]}, visible_to=frozenset({1}))
    ]
    assert RULES.waiting_for(state) == frozenset({0, 2})
    public = RULES.view(state, None)
    assert public["chosen"] == [False, True, False] and public["hand_sizes"] == public_before["hand_sizes"]
    assert {k: v for k, v in public.items() if k != "chosen"} == {
        k: v for k, v in public_before.items() if k != "chosen"
    }, "the public learns who has chosen, nothing else"
    assert RULES.view(state, 0)["you"]["chosen"] is None
    assert RULES.view(state, 1)["you"]["chosen"] == {"card": card, "value": CARD_VALUES[card]}
    assert json.dumps(card) not in json.dumps(RULES.view(state, 0)["discards"])


def test_the_last_choice_reveals_every_discard_together_and_pays_them() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    roll_round(state)
    picks = [state.hands[seat][0] for seat in range(3)]
    cash = list(state.cash)
    act(state, 0, A("discard", (picks[0],)))
    act(state, 2, A("discard", (picks[2],)))
    events = act(state, 1, A("discard", (picks[1],)))
    values = [CARD_VALUES[card] for card in picks]
    assert kinds(events) == ["discard_chosen", "discards_revealed", "round_started"]
    assert events[1] == Event("discards_revealed", None, {"values": values})
    assert events[2] == Event("round_started", None, {"round": 2, "rounds": 3, "first_seat": 1})
    assert state.cash == [c + v for c, v in zip(cash, values, strict=True)]
    assert RULES.view(state, None)["discards"] == [[v] for v in values]
    assert state.phase == "play" and state.turn == 1 and state.round == 2
    assert RULES.waiting_for(state) == frozenset({1})


def test_discard_refusals() -> None:
    state = fresh()
    card = state.hands[0][0]
    refused(state, 0, A("discard", (card,)), "discard_not_now")
    roll_round(state)
    refused(state, 0, A("discard"), "which_card")
    refused(state, 0, A("discard", ("acorn",)), "which_card")
    refused(state, 0, A("discard", (state.hands[1][0],)), "card_not_in_hand")
    act(state, 0, A("discard", (card,)))
    refused(state, 0, A("discard", (state.hands[0][0],)), "discard_chosen_already")


def test_the_market_closes_after_the_last_round_and_scores() -> None:
    state = fresh(rounds=1, cash=[10, 10])
    act(state, 0, A("improve", ("acorn",)))
    opened = offer(state, 1, 0, give=("dune",))
    act(state, 0, A("deal", (1,)))
    roll_round(state)
    events = discard_all(state)
    assert kinds(events)[-3:] == ["discards_revealed", "lapsed", "game_ended"]
    assert events[-2] == Event(
        "lapsed", None, {"offer": opened, "from_seat": 1, "to_seat": 0, "reason": "game_over"}
    )
    assert state.phase == "over" and not state.offers and state.drafts == [None, None]
    outcome = RULES.outcome(state)
    assert outcome is not None
    for seat in (0, 1):
        lots = sum(LOT_WORTH[state.levels[i]] for i in range(len(LOTS)) if state.owners[i] == seat)
        cards = sum(CARD_VALUES[c] for c in state.hands[seat])
        assert outcome.breakdown[seat] == {"cash": state.cash[seat], "lots": lots, "cards": cards}
        assert outcome.scores[seat] == state.cash[seat] + lots + cards
    assert RULES.waiting_for(state) == frozenset()
    assert RULES.legal_actions(state, 0) == [] == RULES.legal_actions(state, 1)
    assert RULES.view(state, None)["hands"] == [[CARD_VALUES[c] for c in h] for h in state.hands]
    refused(state, 0, A("roll"), "market_closed")
    refused(state, 1, A("accept", (opened,)), "market_closed")


def test_equal_scores_are_split_by_cash() -> None:
    state = fresh(rounds=1)
    roll_round(state)
    discard_all(state)
    ones = [card for card, value in enumerate(CARD_VALUES) if value == 1]
    state.hands = [[ones[0]], [ones[1]]]
    state.levels = [0, 0, 0, 1, 0, 0]  # seat 1's lots are worth 4 more...
    state.cash = [10, 6]  # ...and it has 4 less cash
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores[0] == outcome.scores[1] == 10 + 12 + 1
    assert outcome.ranks == (1, 2)
    state.cash = [10, 10]
    state.levels = [0] * len(LOTS)
    shared = RULES.outcome(state)
    assert shared is not None and shared.ranks == (1, 1), "equal scores and cash share the place"


# --- the any-time action ----------------------------------------------------------------------


def test_improve_at_any_time_even_on_another_seats_turn() -> None:
    state = fresh(cash=[8, 8])
    assert state.turn == 0
    events = act(state, 1, A("improve", ("dune",)))
    assert events == [Event("improved", 1, {"lot": "dune", "level": 1, "cost": IMPROVE_COST[0]})]
    assert state.cash[1] == 8 - IMPROVE_COST[0] and level(state, "dune") == 1
    assert RULES.waiting_for(state) == frozenset({0}), "nobody new is waited for"
    roll_round(state)
    act(state, 1, A("improve", ("dune",)))  # in the discard phase too
    assert level(state, "dune") == 2


def test_improve_refusals() -> None:
    state = fresh(cash=[2, 30])
    refused(state, 0, A("improve", ("dune",)), "not_your_lot", lot="dune")
    refused(state, 0, A("improve", ("acorn",)), "improve_too_dear", lot="acorn", cost=3, cash=2)
    refused(state, 0, A("improve", ("oak",)), "no_such_lot")
    refused(state, 0, A("improve"), "which_lot")
    refused(state, 0, A("improve", (3,)), "which_lot")
    for _ in range(MAX_LEVEL):
        act(state, 1, A("improve", ("elm",)))
    assert A("improve", ("elm",)) not in RULES.legal_actions(state, 1)
    refused(state, 1, A("improve", ("elm",)), "fully_improved", lot="elm")


# --- drafting an offer (private) --------------------------------------------------------------


def test_drafting_is_private_and_waits_for_nobody() -> None:
    state = fresh(cash=[8, 8])
    public = RULES.view(state, None)
    other = RULES.view(state, 1)
    steps = [
        A("deal", (1,)),
        A("give", ("acorn", "cedar")),
        A("want", ("elm",)),
        A("pay", (1, 2)),
        A("ask", (1, 1)),
    ]
    for step in steps:
        events = act(state, 0, step)
        assert all(e.visible_to == frozenset({0}) for e in events), step
        assert RULES.waiting_for(state) == frozenset({0})
    assert RULES.view(state, None) == public and RULES.view(state, 1) == other
    assert RULES.view(state, 0)["you"]["draft"] == {
        "to": 1,
        "give": ["acorn", "cedar"],
        "want": ["elm"],
        "pay": 2,
        "ask": 1,
    }
    assert events == [
        Event(
            "draft_changed",
            0,
            {"to_seat": 1, "give": ["acorn", "cedar"], "want": ["elm"], "pay": 2, "ask": 1},
            visible_to=frozenset({0}),
        )
    ]


def test_a_draft_names_lots_as_a_set_in_board_order() -> None:
    state = fresh()
    act(state, 0, A("deal", (1,)))
    RULES.apply(state, 0, A("give", ("cedar", "acorn")))
    assert state.drafts[0] is not None and state.drafts[0].give == ("acorn", "cedar")
    act(state, 0, A("give", ()))
    assert RULES.view(state, 0)["you"]["draft"]["give"] == []


def test_dealing_again_starts_a_new_draft_and_drop_throws_it_away() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    act(state, 0, A("deal", (1,)))
    act(state, 0, A("give", ("acorn",)))
    events = act(state, 0, A("deal", (2,)))
    assert events == [Event("draft_started", 0, {"to_seat": 2}, visible_to=frozenset({0}))]
    assert RULES.view(state, 0)["you"]["draft"] == {"to": 2, "give": [], "want": [], "pay": 0, "ask": 0}
    assert act(state, 0, A("drop")) == [Event("draft_dropped", 0, visible_to=frozenset({0}))]
    assert state.drafts[0] is None


def test_drafting_refusals() -> None:
    state = fresh(cash=[5, 4])
    for step in (A("give", ("acorn",)), A("want", ("elm",)), A("pay", (1, 1)), A("ask", (1, 1)), A("send")):
        refused(state, 0, step, "no_draft")
    refused(state, 0, A("drop"), "nothing_to_drop")
    refused(state, 0, A("deal", (0,)), "offer_to_self")
    refused(state, 0, A("deal", (5,)), "no_such_recipient")
    refused(state, 0, A("deal", ("bob",)), "which_recipient")
    act(state, 0, A("deal", (1,)))
    refused(state, 0, A("give", ("dune",)), "not_your_lot", lot="dune")
    refused(state, 0, A("give", ("acorn", "acorn")), "lot_twice", lot="acorn")
    refused(state, 0, A("give", ("oak",)), "no_such_lot")
    refused(state, 0, A("want", ("birch",)), "not_their_lot", lot="birch", to_seat=1)
    refused(state, 0, A("pay", (1, 6)), "pay_too_much", cash=5, amount=6)
    refused(state, 0, A("ask", (1, 5)), "ask_too_much", to_seat=1, cash=4, amount=5)
    refused(state, 0, A("pay", (1, -1)), "negative_cash")
    refused(state, 0, A("ask", (1, -2)), "negative_cash")
    refused(state, 0, A("pay", (1,)), "which_cash")
    refused(state, 0, A("pay", (1, "lots")), "which_cash")
    refused(state, 0, A("send", (1,)), "takes_no_arguments")
    refused(state, 0, A("drop", (1,)), "takes_no_arguments")
    refused(state, 0, A("send"), "empty_offer")


def test_a_form_opened_for_an_earlier_recipient_is_refused() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    act(state, 0, A("deal", (1,)))
    act(state, 0, A("deal", (2,)))
    refused(state, 0, A("pay", (1, 2)), "draft_moved", to_seat=2)


# --- sending and answering offers (public) ----------------------------------------------------


def test_sending_makes_a_numbered_public_offer_and_waits_for_the_recipient() -> None:
    state = fresh(cash=[8, 8])
    act(state, 1, A("deal", (0,)))
    act(state, 1, A("give", ("dune",)))
    act(state, 1, A("ask", (0, 3)))
    events = act(state, 1, A("send"))
    assert events == [
        Event("offered", 1, {"offer": 1, "to_seat": 0, "give": ["dune"], "want": [], "pay": 0, "ask": 3})
    ]
    assert events[0].public and state.drafts[1] is None
    assert RULES.waiting_for(state) == frozenset({0})
    assert RULES.view(state, None)["offers"] == [
        {"offer": 1, "from_seat": 1, "to_seat": 0, "give": ["dune"], "want": [], "pay": 0, "ask": 3}
    ]
    legal = RULES.legal_actions(state, 0)
    assert {A("accept", (1,)), A("reject", (1,)), A("counter", (1,))} <= set(legal)
    assert A("withdraw", (1,)) in RULES.legal_actions(state, 1)
    assert A("accept", (1,)) not in RULES.legal_actions(state, 1)


def test_an_offer_to_a_seat_not_on_turn_adds_it_to_those_waited_for() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    offer(state, 1, 2, give=("birch",))
    assert RULES.waiting_for(state) == frozenset({0, 2})


def test_accepting_trades_lots_and_cash() -> None:
    state = fresh(cash=[8, 8])
    number = offer(state, 0, 1, give=("acorn", "birch"), want=("fern",), pay=2, ask=1)
    events = act(state, 1, A("accept", (number,)))
    assert events == [
        Event(
            "accepted",
            1,
            {"offer": 1, "from_seat": 0, "give": ["acorn", "birch"], "want": ["fern"], "pay": 2, "ask": 1},
        )
    ]
    assert [owner(state, lot) for lot in LOTS] == [1, 1, 0, 1, 1, 0]
    assert state.cash == [7, 9]
    assert not state.offers and RULES.waiting_for(state) == frozenset({0})


def test_reject_withdraw_and_their_refusals() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    first = offer(state, 0, 1, give=("acorn",))
    refused(state, 2, A("accept", (first,)), "not_recipient", offer=1)
    refused(state, 0, A("reject", (first,)), "not_recipient", offer=1)
    refused(state, 1, A("withdraw", (first,)), "not_proposer", offer=1)
    refused(state, 1, A("accept", (9,)), "no_such_offer", offer=9)
    refused(state, 1, A("accept"), "which_offer")
    assert act(state, 1, A("reject", (first,))) == [Event("rejected", 1, {"offer": 1, "from_seat": 0})]
    refused(state, 1, A("accept", (first,)), "closed_rejected", offer=1, answer="accept")
    second = offer(state, 0, 1, give=("acorn",))
    assert second == 2
    assert act(state, 0, A("withdraw", (second,))) == [Event("withdrawn", 0, {"offer": 2, "to_seat": 1})]
    refused(state, 1, A("accept", (second,)), "closed_withdrawn", offer=2, answer="accept")
    refused(state, 0, A("withdraw", (second,)), "closed_withdrawn", offer=2, answer="withdraw")
    third = offer(state, 0, 1, want=("birch",))
    act(state, 1, A("accept", (third,)))
    refused(state, 1, A("accept", (third,)), "closed_accepted", offer=3, answer="accept")
    refused(state, 1, A("counter", (third,)), "closed_accepted", offer=3, answer="counter")


def test_one_open_offer_per_proposer() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    first = offer(state, 0, 1, give=("acorn",))
    act(state, 0, A("deal", (2,)))
    act(state, 0, A("give", ("dune",)))
    assert A("send") not in RULES.legal_actions(state, 0)
    refused(state, 0, A("send"), "offer_still_open", offer=1)
    act(state, 0, A("withdraw", (first,)))
    act(state, 0, A("send"))


def test_counter_closes_the_offer_and_opens_a_draft_with_the_sides_swapped() -> None:
    state = fresh(cash=[8, 8])
    number = offer(state, 0, 1, give=("acorn",), want=("elm",), pay=3)
    events = act(state, 1, A("counter", (number,)))
    assert kinds(events) == ["countered", "draft_started", "draft_changed"]
    assert events[0] == Event("countered", 1, {"offer": 1, "from_seat": 0}) and events[0].public
    assert all(e.visible_to == frozenset({1}) for e in events[1:])
    assert RULES.view(state, 1)["you"]["draft"] == {
        "to": 0,
        "give": ["elm"],
        "want": ["acorn"],
        "pay": 0,
        "ask": 3,
    }
    assert RULES.waiting_for(state) == frozenset({0}) and not state.offers
    refused(state, 1, A("accept", (number,)), "closed_countered", offer=1, answer="accept")
    act(state, 1, A("ask", (0, 2)))
    act(state, 1, A("send"))
    assert RULES.view(state, None)["offers"][0]["ask"] == 2 and RULES.waiting_for(state) == frozenset({0})


# --- offers lapse -----------------------------------------------------------------------------


def test_an_offer_lapses_when_a_lot_in_it_is_improved() -> None:
    state = fresh(cash=[8, 8])
    number = offer(state, 0, 1, give=("acorn",), want=("dune",))
    events = act(state, 1, A("improve", ("dune",)))
    assert events[1] == Event(
        "lapsed", None, {"offer": 1, "from_seat": 0, "to_seat": 1, "reason": "lot_changed", "lot": "dune"}
    )
    assert events[1].public and not state.offers and RULES.waiting_for(state) == frozenset({0})
    refused(state, 1, A("accept", (number,)), "closed_lot_changed", offer=1, answer="accept", lot="dune")


def test_improving_a_lot_not_in_the_offer_leaves_it_open() -> None:
    state = fresh(cash=[8, 8])
    offer(state, 0, 1, give=("acorn",))
    assert kinds(act(state, 0, A("improve", ("birch",)))) == ["improved"]
    assert len(state.offers) == 1


def test_an_offer_lapses_when_a_lot_in_it_changes_hands_by_another_deal() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    wanted = offer(state, 2, 0, want=("acorn",), pay=1)
    sold = offer(state, 0, 1, give=("acorn",))
    events = act(state, 1, A("accept", (sold,)))
    assert kinds(events) == ["accepted", "lapsed"]
    assert events[1].params == {
        "offer": wanted,
        "from_seat": 2,
        "to_seat": 0,
        "reason": "lot_changed",
        "lot": "acorn",
    }
    refused(state, 0, A("accept", (wanted,)), "closed_lot_changed", offer=1, answer="accept", lot="acorn")


def test_an_offer_lapses_when_its_payer_can_no_longer_pay() -> None:
    state = fresh(cash=[7, 8])
    pays = offer(state, 0, 1, want=("dune",), pay=5)
    events = act(state, 0, A("improve", ("acorn",)))  # 7 - 3 = 4 < 5
    assert events[1] == Event(
        "lapsed", None, {"offer": pays, "from_seat": 0, "to_seat": 1, "reason": "cash_short", "payer_seat": 0}
    )
    refused(state, 1, A("accept", (pays,)), "closed_cash_short", offer=1, answer="accept")
    asks = offer(state, 0, 1, give=("birch",), ask=6)
    events = act(state, 1, A("improve", ("dune",)))  # 8 - 3 = 5 < 6
    assert events[1].params["reason"] == "cash_short" and events[1].params["payer_seat"] == 1
    assert asks not in [o.number for o in state.offers]


def test_sending_a_draft_whose_holdings_changed_is_refused() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2))
    act(state, 0, A("deal", (1,)))
    act(state, 0, A("give", ("dune",)))
    act(state, 0, A("want", ("birch",)))
    act(state, 1, A("improve", ("birch",)))
    assert A("send") in RULES.legal_actions(state, 0), "a draft is checked when sent: Birch is still theirs"
    sold = offer(state, 1, 2, give=("birch",))
    act(state, 2, A("accept", (sold,)))
    assert A("send") not in RULES.legal_actions(state, 0)
    refused(state, 0, A("send"), "no_longer_theirs", lot="birch", to_seat=1)
    act(state, 0, A("want", ()))
    bought = offer(state, 2, 0, want=("dune",))
    act(state, 0, A("accept", (bought,)))
    refused(state, 0, A("send"), "no_longer_yours", lot="dune")


def test_sending_a_draft_whose_cash_is_gone_is_refused() -> None:
    state = fresh(cash=[6, 6])
    act(state, 0, A("deal", (1,)))
    act(state, 0, A("pay", (1, 6)))
    act(state, 0, A("improve", ("acorn",)))
    refused(state, 0, A("send"), "pay_too_much", cash=3, amount=6)
    act(state, 0, A("pay", (1, 0)))
    act(state, 0, A("ask", (1, 6)))
    act(state, 1, A("improve", ("dune",)))
    refused(state, 0, A("send"), "ask_too_much", to_seat=1, cash=3, amount=6)


# --- fingerprints -----------------------------------------------------------------------------


def test_an_improve_fingerprint_names_the_lot_and_its_price() -> None:
    state = fresh(cash=[20, 20])
    improve = A("improve", ("acorn",))
    before = RULES.fingerprint(state, improve)
    assert before is not None and "acorn" in before and f"cost{IMPROVE_COST[0]}" in before
    act(state, 0, A("roll"))
    act(state, 1, A("improve", ("dune",)))
    offer(state, 1, 0, give=("elm",))
    assert RULES.fingerprint(state, improve) == before, "other moves do not change what it means"
    act(state, 0, improve)
    after = RULES.fingerprint(state, improve)
    assert after != before and after is not None and f"cost{IMPROVE_COST[1]}" in after
    moved = offer(state, 0, 1, give=("birch",))
    act(state, 1, A("accept", (moved,)))
    birch = fresh(cash=[20, 20])
    assert RULES.fingerprint(state, A("improve", ("birch",))) != RULES.fingerprint(
        birch, A("improve", ("birch",))
    ), "a new owner"


def test_turn_moves_have_no_fingerprint_and_offers_keep_theirs() -> None:
    state = fresh()
    assert RULES.fingerprint(state, A("roll")) is None
    accept = RULES.fingerprint(state, A("accept", (1,)))
    offer(state, 0, 1, give=("acorn",))
    assert RULES.fingerprint(state, A("accept", (1,))) == accept, "an offer's number always names it"
    give = RULES.fingerprint(state, A("give", ("acorn",)))
    act(state, 1, A("accept", (1,)))
    assert RULES.fingerprint(state, A("give", ("acorn",))) != give, "acorn changed hands"
    discard = RULES.fingerprint(state, A("discard", (3,)))
    roll_round(state)
    discard_all(state)
    assert RULES.fingerprint(state, A("discard", (3,))) != discard, "a new round's discard"


def test_fingerprints_use_public_information_only() -> None:
    """Changing only hidden things (hands, drafts, pending discards, the deck, the generator)
    changes no fingerprint: its hash is drawn into custom_ids everyone can read."""
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2), cash=[9, 9, 9])
    roll_round(state)
    actions = [a for seat in range(3) for a in RULES.legal_actions(state, seat)]
    actions += [A("accept", (1,)), A("withdraw", (2,)), A("roll")]
    prints = [RULES.fingerprint(state, a) for a in actions]
    act(state, 0, A("deal", (1,)))
    act(state, 0, A("give", ("acorn",)))
    act(state, 2, A("deal", (0,)))
    state.hands[0], state.hands[1] = state.hands[1], state.hands[0]
    state.deck.reverse()
    state.rng.next64()
    assert [RULES.fingerprint(state, a) for a in actions] == prints


# --- views, persistence, replay ---------------------------------------------------------------


def test_views_hide_hands_drafts_and_pending_discards() -> None:
    state = fresh()
    act(state, 0, A("deal", (1,)))
    public = json.dumps(RULES.view(state, None))
    assert public.count('"you": null') == 1 and "draft" not in public and 'hand"' not in public
    seat = RULES.view(state, 0)["you"]
    assert seat["seat"] == 0 and [c["card"] for c in seat["hand"]] == state.hands[0]
    assert seat["draft"] is not None and RULES.view(state, 1)["you"]["draft"] is None
    assert "hands" not in RULES.view(state, None)


def test_offers_and_drafts_survive_dump_and_load() -> None:
    state = fresh(players=3, owners=(0, 1, 2, 0, 1, 2), cash=[8, 8, 8])
    offer(state, 0, 1, give=("acorn",), ask=2)
    act(state, 2, A("deal", (1,)))
    act(state, 2, A("want", ("birch", "elm")))
    withdrawn = offer(state, 1, 2, pay=1)
    act(state, 1, A("withdraw", (withdrawn,)))
    text = canonical(RULES.dump(state))
    loaded = RULES.load(json.loads(text))
    assert canonical(RULES.dump(loaded)) == text
    assert loaded.offers == state.offers and loaded.drafts == state.drafts and loaded.closed == state.closed
    for seat in range(3):
        assert RULES.legal_actions(loaded, seat) == RULES.legal_actions(state, seat)
    refused(loaded, 2, A("accept", (withdrawn,)), "closed_withdrawn", offer=2, answer="accept")


def test_a_scripted_game_replays_to_the_live_state() -> None:
    state: MarketState = RULES.setup(3, {"rounds": 2}, 5)
    log: list[tuple[int, Action]] = []

    def do(seat: int, action: Action) -> list[Event]:
        log.append((seat, action))
        return act(state, seat, action)

    first = state.turn
    do(first, A("roll"))
    giver = owner(state, "acorn")
    to = (giver + 1) % 3
    do(giver, A("deal", (to,)))
    do(giver, A("give", ("acorn",)))
    do(giver, A("send"))
    do(to, A("counter", (1,)))
    do(to, A("send"))
    mid = canonical(RULES.dump(state))
    assert canonical(RULES.dump(replay(RULES, 3, {"rounds": 2}, 5, log))) == mid
    while state.phase != "over":
        waiting = sorted(RULES.waiting_for(state))
        seat = waiting[0]
        legal = RULES.legal_actions(state, seat)
        choice = next((a for a in legal if a.kind in ("roll", "discard", "reject")), legal[0])
        do(seat, choice)
    assert canonical(RULES.dump(replay(RULES, 3, {"rounds": 2}, 5, log))) == canonical(RULES.dump(state))


def test_random_games_replay_and_every_kind_of_action_is_played() -> None:
    played: set[str] = set()
    events: set[str] = set()
    for players in (2, 3, 4):
        for seed in range(8):
            run = random_playthrough(RULES, players, seed)
            assert run.finished and run.failures == []
            played |= {action.kind for _, action in run.log}
            live = canonical(RULES.dump(run.state))
            assert canonical(RULES.dump(replay(RULES, players, {}, seed, run.log))) == live
            state = RULES.setup(players, {}, seed)
            for seat, action in run.log:
                for event in RULES.apply(state, seat, action):
                    events.add(event.kind if event.kind != "lapsed" else f"lapsed.{event.params['reason']}")
    assert played == {
        "roll",
        "discard",
        "improve",
        "deal",
        "give",
        "want",
        "pay",
        "ask",
        "send",
        "drop",
        "accept",
        "reject",
        "counter",
        "withdraw",
    }
    assert {"lapsed.lot_changed", "lapsed.cash_short", "lapsed.game_over"} <= events


def test_the_board_renders_at_every_stage_from_the_public_view() -> None:
    """The host draws every table with this renderer; a renderer bug would only be logged there."""
    for players in (2, 4):
        run = random_playthrough(RULES, players, 3)
        state = RULES.setup(players, {}, 3)
        names = [f"player{seat}" for seat in range(players)]
        for step, (seat, action) in enumerate([(None, None), *run.log]):
            if seat is not None and action is not None:
                RULES.apply(state, seat, action)
            if step % 25 == 0 or step == len(run.log):
                png = render(RULES.view(state, None), names, words("en"))
                assert png.startswith(b"\x89PNG")


def test_load_refuses_an_unknown_schema_or_bad_data() -> None:
    data = RULES.dump(fresh())
    with pytest.raises(StateError, match="schema"):
        RULES.load({**data, "schema": 99})
    with pytest.raises(StateError):
        RULES.load({k: v for k, v in data.items() if k != "offers"})


def test_invariants_notice_broken_laws() -> None:
    state = fresh()
    state.cash[0] += 1
    assert any("cash" in problem for problem in RULES.invariants(state))
    state = fresh()
    state.hands[0].append(state.hands[1][0])
    assert any("cards" in problem for problem in RULES.invariants(state))
    state = fresh()
    offer(state, 0, 1, give=("acorn",))
    state.owners[0] = 1
    assert any("lapsed" in problem for problem in RULES.invariants(state))


def test_unknown_actions_and_seats_are_refused() -> None:
    state = fresh()
    refused(state, 0, A("fly"), "unknown_action")
    refused(state, 2, A("roll"), "no_seat")
    refused(state, -1, A("roll"), "no_seat")
    assert RULES.legal_actions(state, 5) == []


# --- the generic contract, for this game alone ------------------------------------------------


def _contract_checks() -> list[Callable[[GameEntry], None]]:
    """Every per-game check of ``tests/rules/test_contract.py`` (those taking ``entry``).

    ``test_contract`` runs them for games registered when it is imported; this runs them for
    Toy Market whatever the import order, so the game is held to the contract either way.
    """
    return [
        function
        for name, function in inspect.getmembers(contract, inspect.isfunction)
        if name.startswith("test_") and list(inspect.signature(function).parameters) == ["entry"]
    ]


@pytest.mark.parametrize("check", _contract_checks(), ids=lambda f: f.__name__)
def test_the_generic_contract_holds(check: Callable[[GameEntry], None]) -> None:
    check(ENTRY)
