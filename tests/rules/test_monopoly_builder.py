"""The Monopoly position builder: each step's effect, each refusal's sentence, and exact replay."""

from __future__ import annotations

import pytest

from rules.builder import PositionError
from rules.core import Action
from rules.monopoly import RULES, data, parse_space
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import BUY, END, OPENING, ROLL, MonopolyState
from rules.play import canonical

P = parse_space
GREENS = ("golden-gate-park", "lombard-street", "pacific-coast-highway")


def table(players: int = 3) -> MonopolyBuilder:
    return MonopolyBuilder(players, seed=5).started(first=0)


def refused(step: object, sentence: str) -> None:
    """Calling ``step`` (a zero-argument callable) raises a PositionError saying ``sentence``."""
    assert callable(step)
    with pytest.raises(PositionError) as info:
        step()
    assert str(info.value) == sentence


def act(state: MonopolyState, seat: int, text: str) -> None:
    RULES.apply(state, seat, Action.decode(text))
    assert RULES.invariants(state) == []


def money(state: MonopolyState) -> int:
    return state.bank + sum(state.cash)


def test_of_arranges_the_state_setup_made_in_place() -> None:
    """A host test's arranged setup hands the builder its state: every step changes that object."""
    state = RULES.setup(3, {}, 5)
    builder = MonopolyBuilder.of(state).started(first=1).owns(0, "route-66")
    assert builder.build() is state and state.turn == 1 and state.owner[1] == 0
    before = canonical(RULES.dump(state))
    with pytest.raises(PositionError):
        builder.offer(0, 1, want=["mojave-desert"])
    assert builder.state is state and canonical(RULES.dump(state)) == before


# --- turns -------------------------------------------------------------------------------------


def test_started_skips_the_opening_without_drawing() -> None:
    fresh = RULES.setup(3, {}, 5)
    state = MonopolyBuilder(3, seed=5).started(first=2).build()
    assert state.phase == ROLL and state.turn == 2 and state.rolling == []
    assert state.rng == fresh.rng and state.decks == fresh.decks  # no roll was drawn for it
    assert RULES.waiting_for(state) == frozenset({2})
    assert Action("roll") in RULES.legal_actions(state, 2)
    refused(lambda: table().started(), "the game is already past its opening rolls")
    refused(lambda: MonopolyBuilder(3).started(first=3), "seat 3 is not at this table (3 players)")


def test_options_reach_setup() -> None:
    state = MonopolyBuilder(2, seed=1, rent="ask", turns="4").build()
    assert state.rent_mode == "ask" and state.turns_limit == 4 and state.phase == OPENING


def test_on_turn_puts_a_seat_in_a_phase() -> None:
    state = table().on_turn(1, END).build()
    assert state.turn == 1 and state.phase == END
    assert RULES.legal_actions(state, 1)[0] == Action("end")
    state = table().at(2, "rodeo-drive").on_turn(2, BUY).build()
    assert state.phase == BUY and Action("buy") in RULES.legal_actions(state, 2)
    refused(
        lambda: MonopolyBuilder(3).on_turn(0),
        "the game is still at its opening rolls: call started() first",
    )
    refused(lambda: table().on_turn(0, "dance"), "phase 'dance' is not a turn's phase (roll, buy, end)")
    refused(
        lambda: table().at(1, 7).on_turn(1, BUY),
        "seat 1 stands on chance-7 (7), not an unowned property: the buy phase needs one "
        "(move it there with at())",
    )
    refused(
        lambda: table().owns(0, "rodeo-drive").at(1, 39).on_turn(1, BUY),
        "seat 1 stands on rodeo-drive (39), not an unowned property: the buy phase needs one "
        "(move it there with at())",
    )


def test_at_and_in_pool_place_tokens() -> None:
    state = table().at(0, "rodeo-drive").at(1, 12).in_pool(2, tries=2).build()
    assert state.position == [39, 12, data.POOL] and state.pool == [None, None, 2]
    assert Action("fine") not in RULES.legal_actions(state, 0)
    refused(lambda: table().at(0, 40), "space 40 is off the board (0 to 39)")
    refused(lambda: table().at(0, "boardwalk"), "there is no space 'boardwalk' on the board")
    refused(lambda: table().in_pool(0).at(0, 11), "seat 0 is at the Pool Party: its token stays on 10")
    refused(lambda: table().in_pool(0, tries=3), "a seat at the Pool Party has failed 0 to 2 tries, not 3")


# --- money and holdings ------------------------------------------------------------------------


def test_cash_moves_to_and_from_the_bank() -> None:
    builder = table().cash(0, 30).cash(1, 4000)
    state = builder.build()
    assert state.cash == [30, 4000, 1500]
    assert money(state) == data.MONEY_IN_BOX
    refused(lambda: table().cash(2, -1), "cash is never negative (asked -1 for seat 2)")
    refused(lambda: table().cash(5, 10), "seat 5 is not at this table (3 players)")


def test_owns_hands_out_deeds_buildings_and_mortgages_from_the_bank() -> None:
    state = (
        table()
        .owns(0, "route-66", "mojave-desert", houses=4)
        .owns(0, "mojave-desert", houses=data.HOTEL)
        .owns(1, *GREENS, houses=2)
        .owns(2, "lax-airport", 15, mortgaged=True)
        .build()
    )
    assert state.owner[1] == state.owner[3] == 0 and state.level[1] == 4 and state.level[3] == data.HOTEL
    assert state.houses == 32 - 4 - 6 and state.hotels == 11
    assert [state.level[P(t)] for t in GREENS] == [2, 2, 2]
    assert state.owner[5] == state.owner[15] == 2 and state.mortgaged[5] and state.mortgaged[15]
    assert state.cash == [1500] * 3  # deeds and buildings are handed out, not sold
    # taking the hotel down to four houses puts the hotel back and takes four houses
    state = (
        table().owns(0, "route-66", "mojave-desert", houses=data.HOTEL).owns(0, "route-66", houses=4).build()
    )
    assert state.hotels == 11 and state.houses == 28
    assert Action("sell", (3,)) in RULES.legal_actions(state, 0)


def test_owns_refusals() -> None:
    refused(lambda: table().owns(0, "chance-7"), "chance-7 (7) is not a property")
    refused(
        lambda: table().owns(1, "route-66").owns(0, "route-66"),
        "route-66 already belongs to seat 1",
    )
    refused(
        lambda: table().owns(0, "lax-airport", houses=1), "lax-airport is not a site: it never has buildings"
    )
    refused(lambda: table().owns(0, "route-66", houses=6), "a site has 0 to 4 houses or a hotel (5), not 6")
    refused(
        lambda: table().owns(0, "route-66", houses=1),
        "buildings need the whole group (route-66, mojave-desert) in one seat's hands",
    )
    refused(
        lambda: table().owns(0, "route-66", "mojave-desert", houses=3).owns(0, "route-66", houses=1),
        "buildings go up evenly: route-66, mojave-desert would stand at [1, 3]",
    )
    refused(
        lambda: table().owns(0, "route-66", mortgaged=True).owns(0, "mojave-desert", houses=1),
        "a group with buildings (route-66, mojave-desert) has no mortgaged site",
    )
    refused(
        lambda: table().owns(0, "route-66", "mojave-desert", houses=1).owns(0, "route-66", mortgaged=True),
        "a group with buildings (route-66, mojave-desert) has no mortgaged site",
    )
    refused(
        lambda: table().owns(0, "route-66", "mojave-desert", houses=1, mortgaged=True),
        "route-66 cannot be mortgaged with buildings on it",
    )
    refused(lambda: table().owns(0), "owns() needs at least one space")
    refused(
        lambda: table().owns(0, "route-66").offer(0, 1, give=[1]).owns(0, "route-66", mortgaged=True),
        "route-66 is named in open offer 1",
    )


def test_owns_refuses_more_buildings_than_the_bank_has_and_leaves_the_position_as_it_was() -> None:
    crowded = table().owns(1, *GREENS, "big-sur", "monterey-bay", "carmel-by-the-sea", houses=4)
    crowded.owns(2, "yosemite-valley", "lake-tahoe", "napa-valley", houses=2)
    before = canonical(RULES.dump(crowded.state))
    refused(
        lambda: crowded.owns(0, "route-66", "mojave-desert", houses=2),
        "the bank has only 2 houses left (4 asked)",
    )
    assert canonical(RULES.dump(crowded.state)) == before
    hotels = table()
    for group in ("green", "orange", "red", "yellow"):
        hotels.owns(1, *data.GROUPS[group], houses=data.HOTEL)
    refused(
        lambda: hotels.owns(0, "route-66", "mojave-desert", houses=data.HOTEL),
        "the bank has only 0 hotels left (2 asked)",
    )
    assert hotels.bank_hotels(0).bank_houses(32).build().hotels == 0


def test_unowned_gives_deeds_back_to_the_bank() -> None:
    builder = table().owns(0, "route-66", "rodeo-drive").owns(0, "lax-airport", mortgaged=True)
    state = builder.unowned("rodeo-drive", 5).build()
    assert state.owner[39] is None and state.owner[5] is None and not state.mortgaged[5]
    assert state.owner[1] == 0 and state.cash == [1500] * 3
    refused(
        lambda: table().owns(0, "route-66", "mojave-desert", houses=1).unowned("route-66"),
        "route-66's group has buildings: take them off first",
    )
    refused(
        lambda: table().owns(0, 6).offer(0, 1, give=[6]).unowned(6), "lower-haight is named in open offer 1"
    )
    refused(lambda: table().unowned("go"), "go (0) is not a property")


def test_bank_supply_is_stated_not_set() -> None:
    builder = table().owns(0, "route-66", "mojave-desert", houses=3)
    assert builder.bank_houses(26).bank_hotels(12) is builder
    refused(
        lambda: builder.bank_houses(2),
        "the bank has 26 houses, not 2: all 32 houses of the box are in the bank or on sites, "
        "so build on sites with owns(..., houses=...) to leave fewer",
    )
    refused(
        lambda: builder.bank_hotels(13),
        "the bank has 12 hotels, not 13: all 12 hotels of the box are in the bank or on sites, "
        "so build on sites with owns(..., houses=...) to leave fewer",
    )


def test_getout_takes_the_card_from_where_it_is() -> None:
    builder = table().getout(1, "chance")
    assert data.GETOUT_CARD["chance"] not in builder.state.decks["chance"]
    state = builder.getout(2, "chance").build()  # taken from seat 1, not copied
    assert state.getout == {"chance": 2, "tipjar": None} and len(state.decks["chance"]) == 15
    refused(lambda: table().getout(0, "community"), "there is no deck 'community' (decks: chance, tipjar)")


def test_out_returns_everything_to_the_bank() -> None:
    state = (
        table(4)
        .owns(3, "route-66", "mojave-desert", houses=2)
        .owns(3, "lax-airport", mortgaged=True)
        .getout(3, "tipjar")
        .out(3)
        .build()
    )
    assert not state.alive[3] and state.out == [3] and state.cash[3] == 0
    assert state.owner[1] is state.owner[3] is state.owner[5] is None and not state.mortgaged[5]
    assert state.houses == 32 and state.getout["tipjar"] is None
    assert state.decks["tipjar"][-1] == data.GETOUT_CARD["tipjar"] and money(state) == data.MONEY_IN_BOX
    assert RULES.legal_actions(state, 3) == []
    refused(lambda: table().out(0), "seat 0 is on turn: put another seat on turn first")
    refused(lambda: table(2).out(1), "seat 1 is one of the last 2: the game would be over")
    refused(lambda: table(4).out(2).out(2), "seat 2 is out of the game")
    refused(lambda: table(4).offer(1, 2, cash=5).out(2), "seat 2 is named in an open offer")


# --- chance ------------------------------------------------------------------------------------


def test_next_dice_are_the_engines_next_rolls() -> None:
    state = table().next_dice((6, 5), (2, 2)).build()
    act(state, 0, "roll")  # 11 Venice Beach
    assert state.dice == [6, 5] and state.position[0] == 11
    act(state, 0, "decline")
    assert state.auction is not None
    opening = MonopolyBuilder(2, seed=3).next_dice((1, 1), (6, 6)).build()
    act(opening, 0, "roll")
    act(opening, 1, "roll")
    assert opening.turn == 1 and opening.phase == ROLL  # the higher opening roll starts
    refused(lambda: table().next_dice((0, 1)), "a roll is two dice from 1 to 6, not (0, 1)")
    refused(lambda: table().next_dice((3, 7)), "a roll is two dice from 1 to 6, not (3, 7)")


def test_top_card_stacks_the_deck() -> None:
    state = table().top_card("chance", "dividend", "chance-loan").next_dice((3, 4)).build()
    act(state, 0, "roll")
    assert state.cash[0] == 1550
    assert [data.CARDS["chance"][i].token for i in state.decks["chance"][:1]] == ["loan"]
    assert sorted(state.decks["chance"]) == list(range(16))
    refused(
        lambda: table().top_card("chance", "boardwalk"), "there is no card 'boardwalk' in the chance deck"
    )
    refused(
        lambda: table().getout(1, "tipjar").top_card("tipjar", "party"),
        "tipjar-party is not in its deck: seat 1 holds it",
    )
    refused(lambda: table().top_card("chance", "go", "go"), "chance-go is named twice")


# --- deals -------------------------------------------------------------------------------------


def test_offer_is_drafted_and_sent_by_the_game_and_named() -> None:
    builder = table().owns(0, "route-66").owns(1, "mojave-desert").getout(1, "tipjar")
    builder.offer(0, 1, give=["route-66"], want=[3], want_cards=["tipjar"], cash=50)
    builder.offer(2, 0, ask=10)
    assert builder.offer_number(0, 1) == 1 and builder.offer_number(2, 0) == 2
    state = builder.build()
    assert state.drafts == [None, None, None]
    act(state, 1, "accept.1")
    assert state.owner[1] == 1 and state.owner[3] == 0 and state.getout["tipjar"] == 0
    assert state.cash[:2] == [1450, 1550]
    refused(lambda: table().offer_number(0, 1), "seat 0 has no open offer to seat 1")


def test_offer_refused_by_the_game_leaves_the_position_as_it_was() -> None:
    builder = table().owns(0, "route-66")
    before = canonical(RULES.dump(builder.state))
    refused(
        lambda: builder.offer(0, 1, give=["route-66"], want=["mojave-desert"]),
        "seat 0 cannot make that offer to seat 1: the game refuses 'want.3': not_theirs (space=3, to_seat=1)",
    )
    assert canonical(RULES.dump(builder.state)) == before
    refused(
        lambda: MonopolyBuilder(2).offer(0, 1, cash=1),
        "the game is still at its opening rolls: call started() first",
    )


# --- the whole position ------------------------------------------------------------------------


def rich_position() -> MonopolyBuilder:
    """Four seats with buildings, mortgages, a card in hand, the Pool Party, an open offer,
    stacked cards and queued dice: seat 1 on turn."""
    return (
        table(4)
        .on_turn(1)
        .owns(0, *GREENS, houses=4)
        .owns(0, "pacific-coast-highway", houses=data.HOTEL)
        .owns(2, "electric-company", "water-works")
        .owns(3, "rodeo-drive", mortgaged=True)
        .cash(1, 100)
        .at(1, 5)
        .at(2, 7)
        .in_pool(3, tries=1)
        .getout(2, "chance")
        .top_card("tipjar", "birthday")
        .next_dice((4, 3), (5, 5))
        .offer(0, 3, ask=20)
    )


def test_a_built_position_keeps_the_invariants() -> None:
    state = rich_position().build()
    assert RULES.invariants(state) == []
    assert money(state) == data.MONEY_IN_BOX


def test_build_refuses_a_position_that_breaks_the_invariants() -> None:
    builder = table()
    builder.state.houses -= 1  # what a step never does: a house lost from the box
    refused(
        builder.build, "the position breaks the game's invariants: houses: 31 in the bank + 0 built != 32"
    )


def test_a_built_state_plus_actions_replays_the_same() -> None:
    live = rich_position().build()
    copy = RULES.load(RULES.dump(live))
    for state in (live, copy):
        act(state, 1, "roll")  # 5 -> 12 Electric Company: 10 x 7 to seat 2
        act(state, 1, "end")
        act(state, 3, "accept.1")
        act(state, 2, "roll")  # 7 -> 17 Tip Jar: the birthday, $10 from each other seat
    assert canonical(RULES.dump(live)) == canonical(RULES.dump(copy))
    assert live.cash == [1500 + 20 - 10, 100 - 70 - 10, 1500 + 70 + 30, 1500 - 20 - 10]
    assert live.position[2] == 17 and live.rng.queued == []


def test_auction_is_reached_by_a_real_decline_and_real_bids() -> None:
    """Open (the default): the seat on turn declines, every seat bids, the others pass, one bid stands."""
    state = table(4).cash(2, 300).auction("rodeo-drive", bidders=[0, 2, 3], high=(120, 2)).build()
    auction = state.auction
    assert auction is not None and auction.mode == data.OPEN and auction.pos == P("rodeo-drive")
    assert auction.active == [2, 3, 0] and auction.passed == [1]
    assert (auction.high, auction.high_bidder, auction.bids) == (120, 2, 1)
    assert state.turn == 0 and state.phase == END and state.position[0] == P("rodeo-drive")
    assert state.auctions_opened == 1 and state.owner[P("rodeo-drive")] is None
    assert RULES.waiting_for(state) == {0, 3}
    act(state, 3, "pass")
    act(state, 0, "pass")
    assert state.owner[P("rodeo-drive")] == 2 and state.cash[2] == 180


def test_auction_in_round_mode_goes_round_from_the_decliners_left() -> None:
    state = table(3).auction("castro-street", by=2, mode="round").build()
    auction = state.auction
    assert auction is not None and auction.mode == data.ROUND and state.auction_mode == data.ROUND
    assert auction.active == [0, 1, 2] and auction.turn == 0 and auction.high == 0
    assert state.turn == 2 and RULES.waiting_for(state) == {0}
    bid = table(3).auction("castro-street", by=2, mode="round", bidders=[1, 2], high=(40, 1)).build()
    assert bid.auction is not None and bid.auction.passed == [0] and bid.auction.turn == 2
    assert (bid.auction.high, bid.auction.high_bidder) == (40, 1)


def test_auction_refusals_leave_the_position_as_it_was() -> None:
    builder = table(3).owns(1, "route-66")
    before = RULES.dump(builder.state)
    refused(
        lambda: builder.auction("route-66"), "route-66 belongs to seat 1: only the bank's deeds go to auction"
    )
    refused(lambda: builder.auction("go"), "go (0) is not a property")
    refused(lambda: builder.auction("big-sur", mode="silent"), "an auction is open or round, not 'silent'")
    refused(lambda: builder.auction("big-sur", bidders=[]), "an auction needs at least one bidder still in")
    refused(
        lambda: builder.auction("big-sur", bidders=[0], high=(10, 0)),
        "seat 0's bid would close the auction: it has no other bidder",
    )
    refused(
        lambda: builder.auction("big-sur", bidders=[0, 2], high=(10, 1)),
        "seat 1 bids 10 but is not among the bidders [0, 2]",
    )
    refused(
        lambda: builder.auction("big-sur", high=(5000, 1)),
        "the auction of big-sur cannot reach that position: the game refuses seat 1's 'bid.5000': "
        "bid_over_cash (cash=1500, amount=5000)",
    )
    refused(
        lambda: builder.auction("big-sur", mode="round", bidders=[1, 0], high=(10, 0)),
        "in a round auction seat 1 acts next: it would have to bid or pass before the passes of the position",
    )
    assert RULES.dump(builder.state) == before
    builder.auction("big-sur")
    refused(lambda: builder.auction("big-sur"), "an auction of property is already under way")
