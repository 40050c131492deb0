"""Monopoly California Dreaming: every rule on constructed positions, the guide's examples, refusals."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from rules.core import Action, Event, IllegalAction, InvalidOptions, StateError
from rules.monopoly import RULES, data, engine, parse_space, space_token
from rules.monopoly.state import BUY, END, OVER, ROLL, MonopolyState
from rules.play import canonical, random_playthrough, replay
from tests.helpers import kinds, refusal

A = Action
P = parse_space


# --- helpers ---------------------------------------------------------------------------------


@pytest.fixture
def dice(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[list[int]]]:
    """Queue dice rolls: append [a, b] pairs; the engine takes them in order ([0, 1] moves one space)."""
    queue: list[list[int]] = []

    def rigged(state: MonopolyState) -> list[int]:
        state.rng.next64()
        return queue.pop(0)

    monkeypatch.setattr(engine, "_dice", rigged)
    yield queue
    assert queue == [], "every rigged roll was used"


def fresh(players: int = 3, **options: Any) -> MonopolyState:
    """A game past the opening rolls, seat 0 on turn."""
    state = RULES.setup(players, options, 7)
    state.rolling = []
    state.phase = ROLL
    state.turn = 0
    return state


def act(state: MonopolyState, seat: int, text: str) -> list[Event]:
    events = RULES.apply(state, seat, Action.decode(text))
    assert RULES.invariants(state) == []
    return events


def refused(state: MonopolyState, seat: int, text: str, key: str, **params: object) -> None:
    """``text`` is refused for the reason ``key`` with ``params`` (and the state is unchanged)."""
    assert refusal(RULES, state, seat, Action.decode(text)) == str(IllegalAction(key, **params))


def give(state: MonopolyState, seat: int, *tokens: str) -> None:
    for token in tokens:
        state.owner[P(token)] = seat  # deeds handed out for free in tests: no money moves


def build_up(state: MonopolyState, levels: dict[str, int]) -> None:
    for token, level in levels.items():
        pos = P(token)
        state.level[pos] = level
        if level == data.HOTEL:
            state.hotels -= 1
        else:
            state.houses -= level


# --- setup and the opening ---------------------------------------------------------------------


def test_setup_cash_tokens_and_options() -> None:
    state = RULES.setup(4, {}, 1)
    assert state.cash == [1500] * 4 and state.position == [0] * 4
    assert RULES.waiting_for(state) == frozenset(range(4))
    with pytest.raises(InvalidOptions):
        RULES.setup(7, {}, 1)
    with pytest.raises(InvalidOptions):
        RULES.setup(2, {"rent": "sometimes"}, 1)
    with pytest.raises(InvalidOptions):
        RULES.setup(2, {"turns": "-1"}, 1)
    assert RULES.setup(2, {"turns": "5", "rent": "ask"}, 1).rent_mode == "ask"


def test_highest_opening_roll_starts_and_ties_reroll(dice: list[list[int]]) -> None:
    state = RULES.setup(3, {}, 1)
    dice += [[6, 5], [6, 5], [2, 1], [3, 3], [1, 2]]
    act(state, 0, "roll")
    act(state, 1, "roll")
    events = act(state, 2, "roll")
    assert "opening_tie" in kinds(events)
    assert state.rolling == [0, 1]
    refused(state, 2, "roll", "already_rolled_start")
    act(state, 1, "roll")
    events = act(state, 0, "roll")
    assert state.phase == ROLL and state.turn == 1
    assert kinds(events)[-1] == "turn_started"


# --- a turn ------------------------------------------------------------------------------------


def test_roll_move_buy_and_end(dice: list[list[int]]) -> None:
    state = fresh()
    dice.append([1, 2])
    act(state, 0, "roll")
    assert state.position[0] == 3 and state.phase == BUY
    refused(state, 0, "end", "buy_or_decline", space=3)
    refused(state, 1, "buy", "not_your_turn")
    act(state, 0, "buy")
    assert state.owner[3] == 0 and state.cash[0] == 1440
    act(state, 0, "end")
    assert state.turn == 1 and state.phase == ROLL


def test_go_salary_when_passing_and_landing(dice: list[list[int]]) -> None:
    state = fresh()
    state.position[0] = 38
    dice.append([1, 3])  # 38 -> 2 (Tip Jar): passes GO
    state.decks["tipjar"] = [6, *[i for i in range(16) if i != 6]]  # Holiday fund $100
    act(state, 0, "roll")
    assert state.cash[0] == 1500 + 200 + 100
    state = fresh()
    state.position[0] = 36
    dice.append([1, 3])  # lands exactly on GO
    act(state, 0, "roll")
    assert state.position[0] == 0 and state.cash[0] == 1700


def test_doubles_roll_again_and_third_double_goes_to_the_pool_party(dice: list[list[int]]) -> None:
    state = fresh()
    dice += [[1, 1], [2, 2], [3, 3]]
    act(state, 0, "roll")  # to 2 (Tip Jar)
    state.phase = ROLL  # whatever the card did, keep rolling
    act(state, 0, "roll")
    state.phase = ROLL
    before = state.position[0]
    events = act(state, 0, "roll")
    assert "sent_to_pool" in kinds(events)
    assert state.position[0] == data.POOL != before and state.pool[0] == 0 and state.phase == END


def test_doubles_give_another_roll(dice: list[list[int]]) -> None:
    state = fresh()
    dice += [[2, 2]]  # to 4: Income Tax
    act(state, 0, "roll")
    assert state.cash[0] == 1300 and state.phase == ROLL
    refused(state, 0, "end", "roll_again_first")


def test_taxes_free_parking_and_go_to_pool_party(dice: list[list[int]]) -> None:
    state = fresh()
    state.position[0] = 35
    dice.append([1, 2])  # 38 Luxury Tax
    act(state, 0, "roll")
    assert state.cash[0] == 1400
    state = fresh()
    state.position[0] = 17
    dice.append([1, 2])  # 20 Free Parking
    events = act(state, 0, "roll")
    assert state.cash[0] == 1500 and kinds(events) == ["rolled", "moved"]
    state = fresh()
    state.position[0] = 27
    dice.append([1, 2])  # 30 Go to Pool Party: no salary, turn ends
    act(state, 0, "roll")
    assert state.position[0] == data.POOL and state.pool[0] == 0 and state.phase == END


# --- rent ----------------------------------------------------------------------------------------


def test_site_rent_doubles_for_a_full_unmortgaged_set_and_buildings(dice: list[list[int]]) -> None:
    state = fresh()
    give(state, 1, "route-66")
    dice.append([0, 1])
    act(state, 0, "roll")
    assert state.cash[0] == 1498 and state.cash[1] == 1502
    give(state, 1, "mojave-desert")
    state.position[0], state.phase = 0, ROLL
    dice.append([0, 1])
    act(state, 0, "roll")
    assert state.cash[0] == 1494  # doubled: $4
    state.mortgaged[P("mojave-desert")] = True
    state.position[0], state.phase = 0, ROLL
    dice.append([0, 1])
    act(state, 0, "roll")
    assert state.cash[0] == 1492  # a mortgaged site in the set: not doubled
    state.mortgaged[P("mojave-desert")] = False
    build_up(state, {"route-66": 2, "mojave-desert": 2})
    state.position[0], state.phase = 0, ROLL
    dice.append([0, 1])
    act(state, 0, "roll")
    assert state.cash[0] == 1492 - 30


def test_airport_rent_counts_airports_and_no_rent_when_mortgaged(dice: list[list[int]]) -> None:
    state = fresh()
    give(state, 1, "lax-airport", "sfo-airport", "san-diego-airport")
    state.mortgaged[P("sfo-airport")] = True  # still counts (chosen)
    dice.append([2, 3])
    act(state, 0, "roll")
    assert state.cash[0] == 1400
    state.position[0], state.phase = 10, ROLL
    dice.append([2, 3])  # SFO itself is mortgaged: nothing
    act(state, 0, "roll")
    assert state.cash[0] == 1400


def test_utility_rent_is_four_or_ten_times_the_dice(dice: list[list[int]]) -> None:
    state = fresh()
    give(state, 1, "electric-company")
    state.position[0] = 9
    dice.append([1, 2])
    act(state, 0, "roll")
    assert state.cash[0] == 1500 - 12
    give(state, 1, "water-works")
    state.position[0], state.phase = 25, ROLL
    dice.append([1, 2])
    act(state, 0, "roll")
    assert state.cash[0] == 1500 - 12 - 30


def test_own_property_costs_nothing(dice: list[list[int]]) -> None:
    state = fresh()
    give(state, 0, "mojave-desert")
    dice.append([1, 2])
    act(state, 0, "roll")
    assert state.cash[0] == 1500 and state.phase == END


# --- auctions ------------------------------------------------------------------------------------


def test_declined_property_is_auctioned_among_everyone_round_robin(dice: list[list[int]]) -> None:
    state = fresh(3)
    dice.append([1, 2])
    act(state, 0, "roll")
    act(state, 0, "decline")
    assert state.auction is not None and state.auction.active == [1, 2, 0]
    assert RULES.waiting_for(state) == frozenset({1})
    refused(state, 2, "bid.5", "not_your_bid")
    refused(state, 0, "end", "auction_first", space=3)
    act(state, 1, "bid.5")
    refused(state, 2, "bid.5", "bid_too_low", amount=6)
    refused(state, 2, "bid.1501", "bid_over_cash", cash=1500, amount=1501)
    act(state, 2, "pass")
    act(state, 0, "bid.7")  # the decliner bids too
    events = act(state, 1, "pass")
    assert kinds(events)[-1] == "auction_won"
    assert state.owner[3] == 0 and state.cash[0] == 1493 and state.auction is None
    assert state.phase == END


def test_auction_without_bids_leaves_property_with_the_bank(dice: list[list[int]]) -> None:
    state = fresh(2)
    dice.append([1, 2])
    act(state, 0, "roll")
    act(state, 0, "decline")
    act(state, 1, "pass")
    events = act(state, 0, "pass")
    assert kinds(events)[-1] == "auction_unsold" and state.owner[3] is None


def test_bid_ladder_is_listed_and_any_amount_applies(dice: list[list[int]]) -> None:
    state = fresh(2)
    dice.append([1, 2])
    act(state, 0, "roll")
    act(state, 0, "decline")
    listed = RULES.legal_actions(state, 1)
    assert A("pass") in listed and A("bid", (1,)) in listed and A("bid", (1500,)) in listed
    assert RULES.legal_actions(state, 0) == []
    act(state, 1, "bid.37")
    assert state.auction is not None and state.auction.high == 37


# --- the Pool Party --------------------------------------------------------------------------------


def at_pool(state: MonopolyState, seat: int = 0, tries: int = 0) -> None:
    state.position[seat] = data.POOL
    state.pool[seat] = tries


def test_pool_party_pay_fine_then_a_normal_turn(dice: list[list[int]]) -> None:
    state = fresh()
    at_pool(state)
    act(state, 0, "fine")
    assert state.cash[0] == 1450 and state.pool[0] is None and state.phase == ROLL
    dice.append([3, 3])  # 16 Big Sur; doubles: roll again (chosen)
    act(state, 0, "roll")
    act(state, 0, "decline")
    act(state, 1, "pass")
    act(state, 2, "pass")
    act(state, 0, "pass")
    assert state.phase == ROLL


def test_pool_party_get_out_card_returns_to_the_bottom(dice: list[list[int]]) -> None:
    state = fresh()
    at_pool(state)
    card = data.GETOUT_CARD["chance"]
    state.decks["chance"].remove(card)
    state.getout["chance"] = 0
    refused(state, 1, "card.chance", "not_your_turn")
    act(state, 0, "card.chance")
    assert state.decks["chance"][-1] == card and state.getout["chance"] is None and state.pool[0] is None


def test_pool_party_doubles_move_out_without_another_roll(dice: list[list[int]]) -> None:
    state = fresh()
    at_pool(state)
    dice.append([4, 4])  # 18 Monterey Bay
    act(state, 0, "roll")
    assert state.position[0] == 18 and state.pool[0] is None
    act(state, 0, "decline")
    for seat in (1, 2, 0):
        act(state, seat, "pass")
    assert state.phase == END


def test_pool_party_third_failure_pays_and_moves(dice: list[list[int]]) -> None:
    state = fresh(2)
    at_pool(state)
    dice += [[1, 2]]
    act(state, 0, "roll")
    assert state.pool[0] == 1 and state.phase == END and state.position[0] == data.POOL
    state.pool[0] = 2
    state.phase = ROLL
    dice.append([1, 2])
    act(state, 0, "roll")
    assert state.pool[0] is None and state.cash[0] == 1450 and state.position[0] == 13


def test_pool_party_third_failure_in_debt_moves_once_paid(dice: list[list[int]]) -> None:
    state = fresh(2)
    at_pool(state, tries=2)
    give(state, 0, "route-66")
    state.bank += state.cash[0] - 30
    state.cash[0] = 30
    dice.append([1, 2])
    act(state, 0, "roll")
    assert state.debts and state.pending_move == 3 and state.position[0] == data.POOL
    refused(state, 0, "end", "owe_first", owed=50)
    act(state, 0, "mort.1")
    assert not state.debts and state.position[0] == 13 and state.cash[0] == 30 + 30 - 50


def test_pool_party_players_still_build_and_collect(dice: list[list[int]]) -> None:
    state = fresh()
    at_pool(state, 1)
    give(state, 1, "route-66", "mojave-desert")
    assert A("build", (1,)) in RULES.legal_actions(state, 1)


# --- cards ------------------------------------------------------------------------------------------


def top(state: MonopolyState, deck: str, token: str) -> None:
    index = next(i for i, c in enumerate(data.CARDS[deck]) if c.token == token)
    state.decks[deck].remove(index)
    state.decks[deck].insert(0, index)


def test_cards_go_back_to_the_bottom_and_get_out_cards_are_kept(dice: list[list[int]]) -> None:
    state = fresh()
    top(state, "chance", "dividend")
    dice.append([3, 4])
    act(state, 0, "roll")
    assert state.cash[0] == 1550 and data.CARDS["chance"][state.decks["chance"][-1]].token == "dividend"
    state.position[0], state.phase, state.turn = 0, ROLL, 0
    top(state, "chance", "float")
    dice.append([3, 4])
    act(state, 0, "roll")
    assert state.getout["chance"] == 0 and len(state.decks["chance"]) == 15
    view = RULES.view(state, None)
    assert view["seats"][0]["getout"] == ["chance"]


def test_nearest_airport_pays_twice_and_nearest_utility_rolls_ten_times(dice: list[list[int]]) -> None:
    state = fresh()
    give(state, 1, "sfo-airport")
    top(state, "chance", "airport1")
    dice.append([3, 4])
    act(state, 0, "roll")
    assert state.position[0] == 15 and state.cash[0] == 1500 - 50
    state = fresh()
    give(state, 1, "water-works")
    state.position[0] = 15
    top(state, "chance", "utility")
    dice += [[3, 4], [2, 3]]  # to 22, then the utility roll
    act(state, 0, "roll")
    assert state.position[0] == 28 and state.cash[0] == 1500 - 50


def test_advance_cards_pay_salary_and_go_back_three(dice: list[list[int]]) -> None:
    state = fresh()
    state.position[0] = 29
    top(state, "chance", "venice")
    dice.append([3, 4])  # 29 -> 36 Chance -> Venice Beach (passes GO)
    act(state, 0, "roll")
    assert state.position[0] == 11 and state.cash[0] == 1700 and state.phase == BUY
    state = fresh()
    top(state, "chance", "back3")
    dice.append([3, 4])  # 7 -> 4 Income Tax
    act(state, 0, "roll")
    assert state.position[0] == 4 and state.cash[0] == 1300


def test_birthday_chairman_and_repairs(dice: list[list[int]]) -> None:
    state = fresh(3)
    top(state, "tipjar", "birthday")
    dice.append([1, 1])
    act(state, 0, "roll")
    assert state.cash == [1520, 1490, 1490]
    state = fresh(3)
    top(state, "chance", "chairman")
    dice.append([3, 4])
    act(state, 0, "roll")
    assert state.cash == [1400, 1550, 1550]
    state = fresh(3)
    give(state, 0, "route-66", "mojave-desert")
    build_up(state, {"route-66": 2, "mojave-desert": data.HOTEL})
    top(state, "chance", "repairs")
    dice.append([3, 4])
    act(state, 0, "roll")
    assert state.cash[0] == 1500 - 2 * 25 - 100


# --- building, selling, mortgaging -------------------------------------------------------------------


def test_build_evenly_then_hotel_and_sell_back_at_half() -> None:
    state = fresh()
    give(state, 0, "route-66")
    refused(state, 0, "build.1", "need_group", space=1, group="brown")
    give(state, 0, "mojave-desert")
    act(state, 0, "build.1")
    refused(state, 0, "build.1", "build_evenly", space=1, group="brown")
    act(state, 1 - 1, "build.3")
    for _ in range(3):
        act(state, 0, "build.1")
        act(state, 0, "build.3")
    assert state.level[1] == state.level[3] == 4 and state.houses == 24
    act(state, 0, "build.1")
    assert state.level[1] == data.HOTEL and state.houses == 28 and state.hotels == 11
    refused(state, 0, "build.1", "has_hotel", space=1)
    refused(state, 0, "sell.3", "sell_evenly", space=3, group="brown")
    cash = state.cash[0]
    act(state, 0, "sell.1")  # hotel back for four houses
    assert state.level[1] == 4 and state.cash[0] == cash + 25 and state.houses == 24 and state.hotels == 12
    refused(state, 0, "mort.1", "sell_before_mortgage", space=1, group="brown")


def test_hotel_sells_down_to_what_the_bank_can_supply() -> None:
    """Selling a hotel needs four houses from the bank; with two left the site goes down to two."""
    state = fresh()
    give(state, 2, "golden-gate-park", "lombard-street", "pacific-coast-highway")
    give(state, 2, "big-sur", "monterey-bay", "carmel-by-the-sea")
    give(state, 2, "yosemite-valley", "lake-tahoe", "napa-valley")
    build_up(state, {"golden-gate-park": 4, "lombard-street": 4, "pacific-coast-highway": 4})
    build_up(state, {"big-sur": 4, "monterey-bay": 4, "carmel-by-the-sea": 4})
    build_up(state, {"yosemite-valley": 2, "lake-tahoe": 2, "napa-valley": 2})
    give(state, 0, "route-66", "mojave-desert")
    build_up(state, {"route-66": data.HOTEL, "mojave-desert": data.HOTEL})
    assert state.houses == 2 and RULES.invariants(state) == []
    cash = state.cash[0]
    act(state, 0, "sell.1")
    assert state.level[1] == 2 and state.houses == 0 and state.hotels == 11
    assert state.cash[0] == cash + 25 * 3  # the hotel and two houses, each at half of $50


def test_mortgage_and_repay_with_ten_percent_rounded_up() -> None:
    state = fresh()
    give(state, 0, "beverly-hills-hotel")
    act(state, 0, "mort.37")
    assert state.cash[0] == 1675 and state.mortgaged[37]
    refused(state, 0, "mort.37", "already_mortgaged", space=37)
    act(state, 0, "unmort.37")
    assert state.cash[0] == 1675 - 193 and not state.mortgaged[37]  # 175 + 17.5 rounded up
    refused(state, 1, "mort.37", "not_yours", space=37)
    refused(state, 0, "build.37", "need_group", space=37, group="darkblue")


def test_no_building_on_a_set_with_a_mortgaged_site_and_any_time_for_every_seat() -> None:
    state = fresh()
    give(state, 2, "route-66", "mojave-desert")
    state.mortgaged[1] = True
    refused(state, 2, "build.3", "group_mortgaged", space=3)
    assert A("unmort", (1,)) in RULES.legal_actions(state, 2)
    assert A("mort", (3,)) in RULES.legal_actions(state, 2)
    assert 2 not in RULES.waiting_for(state)


# --- building shortage -----------------------------------------------------------------------------


def shortage_table() -> MonopolyState:
    state = fresh(3)
    give(state, 0, "route-66", "mojave-desert")
    give(state, 1, "lower-haight", "haight-ashbury", "castro-street")
    give(state, 2, "venice-beach", "santa-monica-pier", "muscle-beach")
    # Every other house is built on seat 2's greens... keep the count: 31 on a fake hotel-free board
    give(state, 2, "golden-gate-park", "lombard-street", "pacific-coast-highway")
    give(state, 2, "big-sur", "monterey-bay", "carmel-by-the-sea")
    build_up(state, {"golden-gate-park": 4, "lombard-street": 4, "pacific-coast-highway": 4})
    build_up(state, {"big-sur": 4, "monterey-bay": 4, "carmel-by-the-sea": 4})
    build_up(state, {"venice-beach": 2, "santa-monica-pier": 2, "muscle-beach": 2})
    assert state.houses == 32 - 30
    return state


def test_shortage_claims_then_auction_among_claimants() -> None:
    state = shortage_table()
    events = act(state, 0, "build.1")
    assert kinds(events) == ["shortage"] and state.shortage is not None
    assert RULES.waiting_for(state) == frozenset({1, 2})
    refused(state, 0, "mort.1", "shortage_open")
    act(state, 1, "claim.6")
    act(state, 2, "claim.11")
    assert state.auction is not None and state.auction.item == "house"
    assert state.auction.active == [0, 1, 2]
    act(state, 0, "bid.10")
    act(state, 1, "bid.20")
    act(state, 2, "pass")
    act(state, 0, "pass")
    assert state.level[6] == 1 and state.cash[1] == 1480
    # one house left, two claimants still unserved: auctioned again
    assert state.auction is not None and state.auction.active == [0, 2]
    act(state, 0, "bid.5")
    act(state, 2, "pass")
    assert state.level[1] == 1 and state.cash[0] == 1495 and state.houses == 0
    assert state.shortage is None and state.auction is None


def test_shortage_with_enough_for_every_claimant_sells_at_list_price() -> None:
    state = shortage_table()
    act(state, 0, "build.1")
    act(state, 1, "noclaim")
    act(state, 2, "claim.11")
    assert state.shortage is None and state.level[1] == 1 and state.level[11] == 3
    assert state.cash[0] == 1450 and state.cash[2] == 1400


# --- deals ---------------------------------------------------------------------------------------


def test_deal_draft_send_accept_with_cash_and_a_card() -> None:
    state = fresh(3)
    give(state, 0, "route-66")
    give(state, 1, "mojave-desert")
    state.getout["tipjar"] = 1
    state.decks["tipjar"].remove(data.GETOUT_CARD["tipjar"])
    act(state, 0, "deal.1")
    act(state, 0, "give.1")
    act(state, 0, "want.3")
    act(state, 0, "wantc.tipjar")
    act(state, 0, "cash.50")
    events = act(state, 0, "send")
    assert kinds(events) == ["offered"] and 1 in RULES.waiting_for(state)
    refused(state, 2, "accept.1", "not_recipient", offer=1)
    act(state, 1, "accept.1")
    assert state.owner[1] == 1 and state.owner[3] == 0 and state.getout["tipjar"] == 0
    assert state.cash[0] == 1450 and state.cash[1] == 1550
    refused(state, 1, "accept.1", "offer_accepted", offer=1)


def test_drafts_are_private_and_offers_lapse_when_holdings_change() -> None:
    state = fresh(3)
    give(state, 0, "route-66", "mojave-desert")
    events = act(state, 0, "deal.2")
    assert all(e.visible_to == frozenset({0}) for e in events)
    act(state, 0, "give.1")
    act(state, 0, "ask.100")
    act(state, 0, "send")
    events = act(state, 0, "mort.1")
    assert kinds(events) == ["mortgaged", "lapsed"]
    refused(state, 2, "accept.1", "offer_lapsed_changed", offer=1)


def test_deal_of_improved_property_is_refused_and_counter_swaps_sides() -> None:
    state = fresh(3)
    give(state, 0, "route-66", "mojave-desert")
    build_up(state, {"route-66": 1})
    act(state, 0, "deal.1")
    refused(state, 0, "give.3", "trade_built_group", space=3)
    refused(state, 0, "send", "empty_deal")
    refused(state, 0, "cash.1501", "cash_over", cash=1500, amount=1501)
    act(state, 0, "cash.100")
    act(state, 0, "send")
    act(state, 1, "counter.1")
    draft = state.drafts[1]
    assert draft is not None and draft.want.cash == 100 and draft.recipient == 0
    refused(state, 0, "withdraw.1", "offer_countered", offer=1)


def test_received_mortgaged_property_pays_ten_percent_or_repays() -> None:
    state = fresh(2)
    give(state, 0, "beverly-hills-hotel", "rodeo-drive")
    state.mortgaged[37] = state.mortgaged[39] = True
    act(state, 0, "deal.1")
    act(state, 0, "give.37")
    act(state, 0, "give.39")
    act(state, 0, "send")
    act(state, 1, "accept.1")
    assert RULES.waiting_for(state) >= {1}
    refused(state, 0, "roll", "fee_first")
    act(state, 1, "keep.37")
    assert state.cash[1] == 1500 - 18 and state.mortgaged[37]
    act(state, 1, "lift.39")
    assert state.cash[1] == 1500 - 18 - 220 and not state.mortgaged[39]
    act(state, 0, "roll")


# --- debt and bankruptcy ---------------------------------------------------------------------------


def test_debt_is_raised_by_mortgaging_and_paid_automatically(dice: list[list[int]]) -> None:
    state = fresh(2)
    give(state, 1, "rodeo-drive", "beverly-hills-hotel")
    build_up(state, {"rodeo-drive": data.HOTEL, "beverly-hills-hotel": 4})
    give(state, 0, "route-66")
    state.bank += state.cash[0] - 1990
    state.cash[0] = 1990
    state.position[0] = 36
    dice.append([1, 2])  # Rodeo Drive with a hotel: $2000
    act(state, 0, "roll")
    assert state.debts and RULES.waiting_for(state) == frozenset({0})
    refused(state, 0, "bankrupt", "can_raise", amount=2020, owed=2000)
    refused(state, 0, "end", "owe_first", owed=2000)
    refused(state, 1, "build.37", "debt_blocks_building")
    assert A("build", (37,)) not in RULES.legal_actions(state, 1)
    events = act(state, 0, "mort.1")
    assert kinds(events) == ["mortgaged", "paid"]
    assert not state.debts and state.cash == [20, 3500] and state.phase == END


def test_bankruptcy_to_a_player_hands_over_everything(dice: list[list[int]]) -> None:
    state = fresh(3)
    give(state, 1, "rodeo-drive", "beverly-hills-hotel")
    build_up(state, {"rodeo-drive": data.HOTEL, "beverly-hills-hotel": data.HOTEL})
    give(state, 0, "route-66")
    state.mortgaged[1] = True
    state.getout["chance"] = 0
    state.decks["chance"].remove(data.GETOUT_CARD["chance"])
    state.position[0] = 36
    dice.append([1, 2])
    act(state, 0, "roll")
    assert A("bankrupt") in RULES.legal_actions(state, 0)
    events = act(state, 0, "bankrupt")
    assert "bankrupt" in kinds(events)
    assert state.cash[1] == 1500 + 1500 and state.owner[1] == 1 and state.getout["chance"] == 1
    assert not state.alive[0] and state.turn == 1
    assert RULES.waiting_for(state) == frozenset({1})  # the 10% choice on Route 66
    act(state, 1, "keep.1")
    assert state.cash[1] == 3000 - 3


def test_bankruptcy_to_the_bank_auctions_property_unmortgaged(dice: list[list[int]]) -> None:
    state = fresh(3)
    give(state, 0, "route-66", "mojave-desert")
    state.mortgaged[1] = state.mortgaged[3] = True
    state.getout["tipjar"] = 0
    state.decks["tipjar"].remove(data.GETOUT_CARD["tipjar"])
    state.bank += state.cash[0] - 50
    state.cash[0] = 50
    state.position[0] = 1
    dice.append([1, 2])  # Income Tax $200
    act(state, 0, "roll")
    act(state, 0, "bankrupt")
    assert state.getout["tipjar"] is None and state.decks["tipjar"][-1] == data.GETOUT_CARD["tipjar"]
    assert state.auction is not None and state.auction.pos == 1 and not state.mortgaged[1]
    assert state.auction.active == [1, 2]
    act(state, 1, "bid.10")
    act(state, 2, "pass")
    assert state.owner[1] == 1 and not state.mortgaged[1]
    assert state.auction is not None and state.auction.pos == 3


def test_last_player_standing_wins(dice: list[list[int]]) -> None:
    state = fresh(2)
    give(state, 1, "rodeo-drive")
    build_up(state, {})
    state.bank += state.cash[0]
    state.cash[0] = 0
    state.owner[39] = 1
    give(state, 1, "beverly-hills-hotel")
    build_up(state, {"rodeo-drive": 1, "beverly-hills-hotel": 1})
    state.position[0] = 36
    dice.append([1, 2])
    act(state, 0, "roll")
    act(state, 0, "bankrupt")
    assert state.phase == OVER
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners() == (1,) and outcome.ranks == (2, 1)
    assert RULES.legal_actions(state, 1) == [] and RULES.waiting_for(state) == frozenset()


# --- options ---------------------------------------------------------------------------------------


def test_turns_limit_ends_by_net_worth_and_ties_share(dice: list[list[int]]) -> None:
    state = fresh(2, turns="1")
    dice += [[3, 4]]  # 7 Chance
    top(state, "chance", "dividend")
    act(state, 0, "roll")
    act(state, 0, "end")
    dice += [[3, 4]]
    top(state, "chance", "dividend")
    act(state, 1, "roll")
    events = act(state, 1, "end")
    assert kinds(events)[-1] == "game_over" and state.reason == "turns"
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 1)


def test_rent_ask_must_be_collected_before_the_next_roll(dice: list[list[int]]) -> None:
    state = fresh(3, rent="ask")
    give(state, 2, "mojave-desert")
    dice.append([1, 2])
    events = act(state, 0, "roll")
    assert "rent_claimable" in kinds(events) and state.cash[0] == 1500
    assert 2 in RULES.waiting_for(state)
    act(state, 2, "rent.3")
    assert state.cash[0] == 1496 and state.cash[2] == 1504
    refused(state, 2, "rent.3", "no_rent_claim")
    # a second landing, not collected: forfeited once the next player rolls
    state.position[0], state.phase = 0, ROLL
    dice += [[1, 2], [5, 6]]
    act(state, 0, "roll")
    assert len(state.claims) == 1
    act(state, 0, "end")
    events = act(state, 1, "roll")
    assert "rent_forfeited" in kinds(events) and state.claims == [] and state.cash[2] == 1504


# --- the whole game ---------------------------------------------------------------------------------


@pytest.mark.parametrize("players", range(2, 7))
def test_random_games_finish_with_invariants(players: int) -> None:
    for seed in range(3):
        run = random_playthrough(RULES, players, seed, check=True)
        assert run.failures == [] and run.finished, run.failures[:3]
        assert all(len(a.encode()) < 30 for _, a in run.log)


@pytest.mark.parametrize("options", [{"rent": "ask"}, {"turns": "10"}])
def test_random_games_with_options(options: dict[str, str]) -> None:
    for players in (2, 4, 6):
        run = random_playthrough(RULES, players, 3, options=options, check=True)
        assert run.failures == [] and run.finished


def test_replay_equals_live_and_json_round_trip() -> None:
    run = random_playthrough(RULES, 4, 11, stop_after=600)
    text = canonical(RULES.dump(run.state))
    assert canonical(RULES.dump(RULES.load(json.loads(text)))) == text
    assert canonical(RULES.dump(replay(RULES, 4, run.options, 11, run.log))) == text
    with pytest.raises(StateError):
        RULES.load({"schema": 99})


def test_public_view_hides_deck_order_and_is_fresh() -> None:
    run = random_playthrough(RULES, 3, 5, stop_after=300)
    view = RULES.view(run.state, None)
    assert view["decks"] == {d: len(c) for d, c in run.state.decks.items()}
    text = json.dumps(view)
    assert "rng" not in view and str(run.state.decks["chance"]) not in text
    view["seats"][0]["cash"] = -1
    assert run.state.cash[0] != -1
    assert RULES.view(run.state, 1)["you"]["seat"] == 1


def test_fingerprint_names_property_facts_and_not_moments() -> None:
    state = fresh()
    give(state, 0, "route-66", "mojave-desert")
    before = RULES.fingerprint(state, A("build", (1,)))
    assert before is not None and before.startswith("build:1:")
    state.cash[2] -= 5
    state.bank += 5
    assert RULES.fingerprint(state, A("build", (1,))) == before
    act(state, 0, "build.3")
    assert RULES.fingerprint(state, A("build", (1,))) != before
    assert RULES.fingerprint(state, A("roll")) is None
    assert RULES.fingerprint(state, A("accept", (3,))) == "accept.3"


def test_tokens_both_ways() -> None:
    from rules.monopoly import card_token, parse_card

    assert space_token(39) == "rodeo-drive" and P("rodeo-drive") == 39
    assert parse_card(card_token("chance", 8)) == ("chance", 8)
    with pytest.raises(ValueError):
        P("boardwalk")


def test_unknown_and_malformed_actions_are_refused() -> None:
    state = fresh()
    refused(state, 0, "fly", "malformed")
    refused(state, 0, "buy", "nothing_to_buy")
    refused(state, 0, "fine", "not_in_pool")
    refused(state, 0, "end", "roll_first")
    refused(state, 0, "bid.5", "no_auction")
    refused(state, 0, "keep.1", "no_fee")
    refused(state, 0, "bankrupt", "nothing_owed")
    refused(state, 0, "claim.1", "no_shortage")
    refused(state, 0, "send", "no_draft")
    refused(state, 0, "deal.0", "deal_with_self")
    refused(state, 0, "accept.9", "no_offer", offer=9)
    refused(state, 0, "sell.1", "not_yours", space=1)
    refused(state, 0, "unmort.1", "not_yours", space=1)
    opening = RULES.setup(2, {}, 1)
    refused(opening, 0, "mort.1", "not_started")
