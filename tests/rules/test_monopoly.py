"""Monopoly California Dreaming: every rule on constructed positions, the guide's examples, refusals.

Positions come from ``rules.monopoly.builder.MonopolyBuilder``: dice are queued in the state's own
generator and cards stacked in its decks, so nothing here edits a field or patches the engine.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core import Action, Event, IllegalAction, InvalidOptions, StateError
from rules.monopoly import RULES, data, parse_space, space_token
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import BUY, END, OVER, ROLL, MonopolyState
from rules.play import canonical, random_playthrough, replay
from tests.helpers import kinds, refusal

A = Action
P = parse_space

ROUND: dict[str, Any] = {"auction": "round"}
"""The options of the tests that bid round-robin (one bidder at a time, in seat order): open
auctions are the default."""


# --- helpers ---------------------------------------------------------------------------------


def table(players: int = 3, **options: Any) -> MonopolyBuilder:
    """A game past the opening rolls, seat 0 on turn (seed 7, the decks' order fixed)."""
    return MonopolyBuilder(players, seed=7, **options).started(first=0)


def act(state: MonopolyState, seat: int, text: str) -> list[Event]:
    events = RULES.apply(state, seat, Action.decode(text))
    assert RULES.invariants(state) == []
    return events


def refused(state: MonopolyState, seat: int, text: str, key: str, **params: object) -> None:
    """``text`` is refused for the reason ``key`` with ``params`` (and the state is unchanged)."""
    assert refusal(RULES, state, seat, Action.decode(text)) == str(IllegalAction(key, **params))


def rolled_all(state: MonopolyState) -> None:
    """Every queued die was rolled (a test that queued too many rolls meant another path)."""
    assert state.rng.queued == []


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


def test_highest_opening_roll_starts_and_ties_reroll() -> None:
    state = MonopolyBuilder(3, seed=1).next_dice((6, 5), (6, 5), (2, 1), (3, 3), (1, 2)).build()
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
    rolled_all(state)


# --- a turn ------------------------------------------------------------------------------------


def test_roll_move_buy_and_end() -> None:
    state = table().next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert state.position[0] == 3 and state.phase == BUY
    refused(state, 0, "end", "buy_or_decline", space=3)
    refused(state, 1, "buy", "not_your_turn")
    act(state, 0, "buy")
    assert state.owner[3] == 0 and state.cash[0] == 1440
    act(state, 0, "end")
    assert state.turn == 1 and state.phase == ROLL


def test_go_salary_when_passing_and_landing() -> None:
    state = table().at(0, 38).next_dice((1, 3)).top_card("tipjar", "holiday").build()
    act(state, 0, "roll")  # 38 -> 2 (Tip Jar): passes GO, then the Holiday fund's $100
    assert state.cash[0] == 1500 + 200 + 100
    state = table().at(0, 36).next_dice((1, 3)).build()
    act(state, 0, "roll")  # lands exactly on GO
    assert state.position[0] == 0 and state.cash[0] == 1700


def test_doubles_roll_again_and_third_double_goes_to_the_pool_party() -> None:
    state = table().next_dice((1, 1), (1, 1), (3, 3)).top_card("tipjar", "holiday").build()
    act(state, 0, "roll")  # to 2 (Tip Jar): the Holiday fund
    assert state.phase == ROLL
    act(state, 0, "roll")  # to 4 (Income Tax)
    assert state.phase == ROLL
    before = state.position[0]
    events = act(state, 0, "roll")
    assert "sent_to_pool" in kinds(events)
    assert state.position[0] == data.POOL != before and state.pool[0] == 0 and state.phase == END
    rolled_all(state)


def test_doubles_give_another_roll() -> None:
    state = table().next_dice((2, 2)).build()  # to 4: Income Tax
    act(state, 0, "roll")
    assert state.cash[0] == 1300 and state.phase == ROLL
    refused(state, 0, "end", "roll_again_first")


def test_taxes_free_parking_and_go_to_pool_party() -> None:
    state = table().at(0, 35).next_dice((1, 2)).build()  # 38 Luxury Tax
    act(state, 0, "roll")
    assert state.cash[0] == 1400
    state = table().at(0, 17).next_dice((1, 2)).build()  # 20 Free Parking
    events = act(state, 0, "roll")
    assert state.cash[0] == 1500 and kinds(events) == ["rolled", "moved"]
    state = table().at(0, 27).next_dice((1, 2)).build()  # 30 Go to Pool Party: no salary, turn ends
    act(state, 0, "roll")
    assert state.position[0] == data.POOL and state.pool[0] == 0 and state.phase == END


# --- rent ----------------------------------------------------------------------------------------


def test_site_rent_doubles_for_a_full_unmortgaged_set_and_buildings() -> None:
    def rent_on_route_66(position: MonopolyBuilder) -> int:
        """What seat 0 pays landing on Route 66 from Luxury Tax (passing GO on the way)."""
        state = position.at(0, "luxury-tax").next_dice((1, 2)).build()
        act(state, 0, "roll")
        assert state.position[0] == P("route-66")
        return 1500 + data.GO_SALARY - state.cash[0]

    assert rent_on_route_66(table().owns(1, "route-66")) == 2
    assert rent_on_route_66(table().owns(1, "route-66", "mojave-desert")) == 4  # doubled
    # a mortgaged site in the set: not doubled
    assert rent_on_route_66(table().owns(1, "route-66").owns(1, "mojave-desert", mortgaged=True)) == 2
    assert rent_on_route_66(table().owns(1, "route-66", "mojave-desert", houses=2)) == 30


def test_airport_rent_counts_airports_and_no_rent_when_mortgaged() -> None:
    def airports() -> MonopolyBuilder:
        # SFO is mortgaged but still counts (chosen)
        return table().owns(1, "lax-airport", "san-diego-airport").owns(1, "sfo-airport", mortgaged=True)

    state = airports().next_dice((2, 3)).build()
    act(state, 0, "roll")
    assert state.cash[0] == 1400
    state = airports().at(0, 10).next_dice((2, 3)).build()  # SFO itself is mortgaged: nothing
    act(state, 0, "roll")
    assert state.position[0] == P("sfo-airport") and state.cash[0] == 1500


def test_utility_rent_is_four_or_ten_times_the_dice() -> None:
    state = table().owns(1, "electric-company").at(0, 9).next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert state.cash[0] == 1500 - 12
    state = table().owns(1, "electric-company", "water-works").at(0, 25).next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert state.position[0] == P("water-works") and state.cash[0] == 1500 - 30


def test_own_property_costs_nothing() -> None:
    state = table().owns(0, "mojave-desert").next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert state.cash[0] == 1500 and state.phase == END


# --- auctions ------------------------------------------------------------------------------------


def test_declined_property_is_auctioned_among_everyone_round_robin() -> None:
    state = table(3, **ROUND).next_dice((1, 2)).build()
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


def test_auction_without_bids_leaves_property_with_the_bank() -> None:
    state = table(2, **ROUND).next_dice((1, 2)).build()
    act(state, 0, "roll")
    act(state, 0, "decline")
    act(state, 1, "pass")
    events = act(state, 0, "pass")
    assert kinds(events)[-1] == "auction_unsold" and state.owner[3] is None


def test_bid_ladder_is_listed_and_any_amount_applies() -> None:
    state = table(2, **ROUND).next_dice((1, 2)).build()
    act(state, 0, "roll")
    act(state, 0, "decline")
    listed = RULES.legal_actions(state, 1)
    assert A("pass") in listed and A("bid", (1,)) in listed and A("bid", (1500,)) in listed
    assert RULES.legal_actions(state, 0) == []
    act(state, 1, "bid.37")
    assert state.auction is not None and state.auction.high == 37


# --- the Pool Party --------------------------------------------------------------------------------


def test_pool_party_pay_fine_then_a_normal_turn() -> None:
    state = table(**ROUND).in_pool(0).next_dice((3, 3)).build()
    act(state, 0, "fine")
    assert state.cash[0] == 1450 and state.pool[0] is None and state.phase == ROLL
    act(state, 0, "roll")  # 16 Big Sur; doubles: roll again (chosen)
    act(state, 0, "decline")
    act(state, 1, "pass")
    act(state, 2, "pass")
    act(state, 0, "pass")
    assert state.phase == ROLL


def test_pool_party_get_out_card_returns_to_the_bottom() -> None:
    state = table().in_pool(0).getout(0, "chance").build()
    card = data.GETOUT_CARD["chance"]
    refused(state, 1, "card.chance", "not_your_turn")
    act(state, 0, "card.chance")
    assert state.decks["chance"][-1] == card and state.getout["chance"] is None and state.pool[0] is None


def test_pool_party_doubles_move_out_without_another_roll() -> None:
    state = table(**ROUND).in_pool(0).next_dice((4, 4)).build()  # 18 Monterey Bay
    act(state, 0, "roll")
    assert state.position[0] == 18 and state.pool[0] is None
    act(state, 0, "decline")
    for seat in (1, 2, 0):
        act(state, seat, "pass")
    assert state.phase == END


def test_pool_party_third_failure_pays_and_moves() -> None:
    state = table(2).in_pool(0).next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert state.pool[0] == 1 and state.phase == END and state.position[0] == data.POOL
    state = table(2).in_pool(0, tries=2).next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert state.pool[0] is None and state.cash[0] == 1450 and state.position[0] == 13


def test_pool_party_third_failure_in_debt_moves_once_paid() -> None:
    state = table(2).in_pool(0, tries=2).owns(0, "route-66").cash(0, 30).next_dice((1, 2)).build()
    act(state, 0, "roll")
    assert state.debts and state.pending_move == 3 and state.position[0] == data.POOL
    refused(state, 0, "end", "owe_first", owed=50)
    act(state, 0, "mort.1")
    assert not state.debts and state.position[0] == 13 and state.cash[0] == 30 + 30 - 50


def test_pool_party_players_still_build_and_collect() -> None:
    state = table().in_pool(1).owns(1, "route-66", "mojave-desert").build()
    assert A("build", (1,)) in RULES.legal_actions(state, 1)


# --- cards ------------------------------------------------------------------------------------------


def test_cards_go_back_to_the_bottom_and_get_out_cards_are_kept() -> None:
    state = table().top_card("chance", "dividend").next_dice((3, 4)).build()
    act(state, 0, "roll")
    assert state.cash[0] == 1550 and data.CARDS["chance"][state.decks["chance"][-1]].token == "dividend"
    state = table().top_card("chance", "float").next_dice((3, 4)).build()
    act(state, 0, "roll")
    assert state.getout["chance"] == 0 and len(state.decks["chance"]) == 15
    view = RULES.view(state, None)
    assert view["seats"][0]["getout"] == ["chance"]


def test_nearest_airport_pays_twice_and_nearest_utility_rolls_ten_times() -> None:
    state = table().owns(1, "sfo-airport").top_card("chance", "airport1").next_dice((3, 4)).build()
    act(state, 0, "roll")
    assert state.position[0] == 15 and state.cash[0] == 1500 - 50
    utility = table().owns(1, "water-works").at(0, 15).top_card("chance", "utility")
    state = utility.next_dice((3, 4), (2, 3)).build()  # to 22, then the utility roll
    act(state, 0, "roll")
    assert state.position[0] == 28 and state.cash[0] == 1500 - 50
    rolled_all(state)


def test_advance_cards_pay_salary_and_go_back_three() -> None:
    state = table().at(0, 29).top_card("chance", "venice").next_dice((3, 4)).build()
    act(state, 0, "roll")  # 29 -> 36 Chance -> Venice Beach (passes GO)
    assert state.position[0] == 11 and state.cash[0] == 1700 and state.phase == BUY
    state = table().top_card("chance", "back3").next_dice((3, 4)).build()
    act(state, 0, "roll")  # 7 -> 4 Income Tax
    assert state.position[0] == 4 and state.cash[0] == 1300


def test_birthday_chairman_and_repairs() -> None:
    state = table(3).top_card("tipjar", "birthday").next_dice((1, 1)).build()
    act(state, 0, "roll")
    assert state.cash == [1520, 1490, 1490]
    state = table(3).top_card("chance", "chairman").next_dice((3, 4)).build()
    act(state, 0, "roll")
    assert state.cash == [1400, 1550, 1550]
    brown = (
        table(3).owns(0, "route-66", "mojave-desert", houses=4).owns(0, "mojave-desert", houses=data.HOTEL)
    )
    state = brown.top_card("chance", "repairs").next_dice((3, 4)).build()
    act(state, 0, "roll")
    assert state.cash[0] == 1500 - 4 * 25 - 100


# --- building, selling, mortgaging -------------------------------------------------------------------


def test_build_evenly_then_hotel_and_sell_back_at_half() -> None:
    state = table().owns(0, "route-66").build()
    refused(state, 0, "build.1", "need_group", space=1, group="brown")
    state = table().owns(0, "route-66", "mojave-desert").build()
    act(state, 0, "build.1")
    refused(state, 0, "build.1", "build_evenly", space=1, group="brown")
    act(state, 0, "build.3")
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


GREENS = ("golden-gate-park", "lombard-street", "pacific-coast-highway")
ORANGES = ("big-sur", "monterey-bay", "carmel-by-the-sea")
REDS = ("yosemite-valley", "lake-tahoe", "napa-valley")
PINKS = ("venice-beach", "santa-monica-pier", "muscle-beach")


def test_hotel_sells_down_to_what_the_bank_can_supply() -> None:
    """Selling a hotel needs four houses from the bank; with two left the group goes down evenly to
    what two houses allow: one on each site, the other hotel too (chosen: groups stay even)."""
    state = (
        table()
        .owns(2, *GREENS, *ORANGES, houses=4)
        .owns(2, *REDS, houses=2)
        .owns(0, "route-66", "mojave-desert", houses=data.HOTEL)
        .bank_houses(2)
        .build()
    )
    cash = state.cash[0]
    act(state, 0, "sell.1")
    assert state.level[1] == state.level[3] == 1 and state.houses == 0 and state.hotels == 12
    assert state.cash[0] == cash + 25 * 8  # two hotels down to a house each: 8 levels at half of $50


def test_mortgage_and_repay_with_ten_percent_rounded_up() -> None:
    state = table().owns(0, "beverly-hills-hotel").build()
    act(state, 0, "mort.37")
    assert state.cash[0] == 1675 and state.mortgaged[37]
    refused(state, 0, "mort.37", "already_mortgaged", space=37)
    act(state, 0, "unmort.37")
    assert state.cash[0] == 1675 - 193 and not state.mortgaged[37]  # 175 + 17.5 rounded up
    refused(state, 1, "mort.37", "not_yours", space=37)
    refused(state, 0, "build.37", "need_group", space=37, group="darkblue")


def test_no_building_on_a_set_with_a_mortgaged_site_and_any_time_for_every_seat() -> None:
    state = table().owns(2, "mojave-desert").owns(2, "route-66", mortgaged=True).build()
    refused(state, 2, "build.3", "group_mortgaged", space=3)
    assert A("unmort", (1,)) in RULES.legal_actions(state, 2)
    assert A("mort", (3,)) in RULES.legal_actions(state, 2)
    assert 2 not in RULES.waiting_for(state)


# --- building shortage -----------------------------------------------------------------------------


def shortage_table() -> MonopolyState:
    """Seat 2 has built 30 houses (greens and oranges at four, pinks at two): two are left."""
    return (
        table(3, **ROUND)
        .owns(0, "route-66", "mojave-desert")
        .owns(1, "lower-haight", "haight-ashbury", "castro-street")
        .owns(2, *PINKS, houses=2)
        .owns(2, *GREENS, *ORANGES, houses=4)
        .bank_houses(32 - 30)
        .build()
    )


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
    state = table(3).owns(0, "route-66").owns(1, "mojave-desert").getout(1, "tipjar").build()
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
    state = table(3).owns(0, "route-66", "mojave-desert").build()
    events = act(state, 0, "deal.2")
    assert all(e.visible_to == frozenset({0}) for e in events)
    act(state, 0, "give.1")
    act(state, 0, "ask.100")
    act(state, 0, "send")
    events = act(state, 0, "mort.1")
    assert kinds(events) == ["mortgaged", "lapsed"]
    refused(state, 2, "accept.1", "offer_lapsed_changed", offer=1)


def test_deal_of_improved_property_is_refused_and_counter_swaps_sides() -> None:
    state = table(3).owns(0, "route-66", "mojave-desert").owns(0, "route-66", houses=1).build()
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
    state = table(2).owns(0, "beverly-hills-hotel", "rodeo-drive", mortgaged=True).build()
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


def test_debt_is_raised_by_mortgaging_and_paid_automatically() -> None:
    state = (
        table(2)
        .owns(1, "rodeo-drive", "beverly-hills-hotel", houses=4)
        .owns(1, "rodeo-drive", houses=data.HOTEL)
        .owns(0, "route-66")
        .cash(0, 1990)
        .at(0, 36)
        .next_dice((1, 2))  # Rodeo Drive with a hotel: $2000
        .build()
    )
    act(state, 0, "roll")
    assert state.debts and RULES.waiting_for(state) == frozenset({0})
    refused(state, 0, "bankrupt", "can_raise", amount=2020, owed=2000)
    refused(state, 0, "end", "owe_first", owed=2000)
    refused(state, 1, "build.37", "debt_blocks_building")
    assert A("build", (37,)) not in RULES.legal_actions(state, 1)
    events = act(state, 0, "mort.1")
    assert kinds(events) == ["mortgaged", "paid"]
    assert not state.debts and state.cash == [20, 3500] and state.phase == END


def test_bankruptcy_to_a_player_hands_over_everything() -> None:
    state = (
        table(3)
        .owns(1, "rodeo-drive", "beverly-hills-hotel", houses=data.HOTEL)
        .owns(0, "route-66", mortgaged=True)
        .getout(0, "chance")
        .at(0, 36)
        .next_dice((1, 2))
        .build()
    )
    act(state, 0, "roll")
    assert A("bankrupt") in RULES.legal_actions(state, 0)
    events = act(state, 0, "bankrupt")
    assert "bankrupt" in kinds(events)
    assert state.cash[1] == 1500 + 1500 and state.owner[1] == 1 and state.getout["chance"] == 1
    assert not state.alive[0] and state.turn == 1
    assert RULES.waiting_for(state) == frozenset({1})  # the 10% choice on Route 66
    act(state, 1, "keep.1")
    assert state.cash[1] == 3000 - 3


def test_bankruptcy_to_the_bank_auctions_property_unmortgaged() -> None:
    state = (
        table(3, **ROUND)
        .owns(0, "route-66", "mojave-desert", mortgaged=True)
        .getout(0, "tipjar")
        .cash(0, 50)
        .at(0, 1)
        .next_dice((1, 2))  # Income Tax $200
        .build()
    )
    act(state, 0, "roll")
    act(state, 0, "bankrupt")
    assert state.getout["tipjar"] is None and state.decks["tipjar"][-1] == data.GETOUT_CARD["tipjar"]
    assert state.auction is not None and state.auction.pos == 1 and not state.mortgaged[1]
    assert state.auction.active == [1, 2]
    act(state, 1, "bid.10")
    act(state, 2, "pass")
    assert state.owner[1] == 1 and not state.mortgaged[1]
    assert state.auction is not None and state.auction.pos == 3


def test_last_player_standing_wins() -> None:
    state = (
        table(2)
        .cash(0, 0)
        .owns(1, "rodeo-drive", "beverly-hills-hotel", houses=1)
        .at(0, 36)
        .next_dice((1, 2))
        .build()
    )
    act(state, 0, "roll")
    act(state, 0, "bankrupt")
    assert state.phase == OVER
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners() == (1,) and outcome.ranks == (2, 1)
    assert RULES.legal_actions(state, 1) == [] and RULES.waiting_for(state) == frozenset()


# --- options ---------------------------------------------------------------------------------------


def test_turns_limit_ends_by_net_worth_and_ties_share() -> None:
    state = (
        table(2, turns="1")
        .at(1, data.POOL)  # just visiting
        .next_dice((3, 4), (3, 4))  # seat 0: 7 Chance; seat 1: 17 Tip Jar
        .top_card("chance", "dividend")  # $50
        .top_card("tipjar", "stock")  # $50 too
        .build()
    )
    act(state, 0, "roll")
    act(state, 0, "end")
    act(state, 1, "roll")
    events = act(state, 1, "end")
    assert kinds(events)[-1] == "game_over" and state.reason == "turns"
    assert state.cash == [1550, 1550]
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.ranks == (1, 1)


def test_rent_ask_must_be_collected_before_the_next_roll() -> None:
    state = table(3, rent="ask").owns(2, "mojave-desert").next_dice((1, 2)).build()
    events = act(state, 0, "roll")
    assert "rent_claimable" in kinds(events) and state.cash[0] == 1500
    assert 2 in RULES.waiting_for(state)
    act(state, 2, "rent.3")
    assert state.cash[0] == 1496 and state.cash[2] == 1504
    refused(state, 2, "rent.3", "no_rent_claim")
    # a landing not collected: forfeited once the next player rolls
    state = table(3, rent="ask").owns(2, "mojave-desert").next_dice((1, 2), (5, 6)).build()
    act(state, 0, "roll")
    assert len(state.claims) == 1
    act(state, 0, "end")
    events = act(state, 1, "roll")
    assert "rent_forfeited" in kinds(events) and state.claims == [] and state.cash[2] == 1500


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
    state = table().owns(0, "route-66", "mojave-desert").build()
    before = RULES.fingerprint(state, A("build", (1,)))
    assert before is not None and before.startswith("build:1:")
    poorer = table().owns(0, "route-66", "mojave-desert").cash(2, 1495).build()
    assert RULES.fingerprint(poorer, A("build", (1,))) == before  # another seat's cash: same meaning
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
    state = table().build()
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
