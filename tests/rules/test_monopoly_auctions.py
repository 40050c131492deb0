"""Monopoly's auctions: open (the default: any order, a pass is final, the outbid are asked anew)
and round-robin (``auction=round``, as before), for declined property, a bankrupt's property and
short buildings; the auction clock the host runs; old saves keep their round-robin auctions.

Positions come from ``rules.monopoly.builder.MonopolyBuilder`` (past the opening, deeds and
buildings handed out free, dice queued in the state's own generator) and are moved on by play:
nothing here edits a state's field.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest

from rules.core import Action, Event, GameClock, InvalidOptions
from rules.monopoly import HINTS, RULES, MonopolyState, data, parse_space
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import END
from rules.play import canonical, random_playthrough
from tests.helpers import kinds
from tests.rules.test_monopoly import ROUND, act, refused, table

A = Action
P = parse_space
MOJAVE = P("mojave-desert")


def declined(position: MonopolyBuilder | None = None) -> tuple[MonopolyState, list[Event]]:
    """Seat 0 rolls 1+2 onto Mojave Desert and declines it: the auction's opening events
    (``position``: the table before the roll, three seats by default)."""
    state = (position or table()).next_dice((1, 2)).build()
    act(state, 0, "roll")
    return state, act(state, 0, "decline")


def started(events: list[Event]) -> Mapping[str, object]:
    return next(e.params for e in events if e.kind == "auction_started")


# --- open auctions -----------------------------------------------------------------------------


def test_open_is_the_default_and_the_options_are_checked() -> None:
    state = RULES.setup(3, {}, 1)
    assert (state.auction_mode, state.auction_hours) == ("open", 24)
    state = RULES.setup(3, {"auction": "round", "auction_hours": "0"}, 1)
    assert (state.auction_mode, state.auction_hours) == ("round", 0)
    for bad in ({"auction": "dutch"}, {"auction_hours": "-1"}, {"auction_hours": str(24 * 14 + 1)}):
        with pytest.raises(InvalidOptions):
            RULES.setup(3, bad, 1)


def test_open_auction_bids_in_any_order_and_the_outbid_are_asked_again() -> None:
    state, events = declined(table(4))
    assert started(events) == {
        "item": "property",
        "reason": "declined",
        "bidders": [1, 2, 3, 0],
        "mode": "open",
        "hours": 24,
        "space": MOJAVE,
        "token": "mojave-desert",
    }
    auction = state.auction
    assert auction is not None and auction.turn == -1
    assert RULES.waiting_for(state) == frozenset({0, 1, 2, 3})  # the decliner too
    events = act(state, 3, "bid.10")  # the last in seat order bids first
    assert events[0].params == {"amount": 10}
    assert RULES.waiting_for(state) == frozenset({0, 1, 2})
    assert RULES.legal_actions(state, 3) == []
    refused(state, 3, "bid.20", "already_high", amount=10)
    refused(state, 3, "pass", "already_high", amount=10)
    events = act(state, 1, "bid.20")
    assert events[0].params == {"amount": 20, "outbid": 3}
    assert RULES.waiting_for(state) == frozenset({0, 2, 3})  # seat 3 is asked anew
    act(state, 2, "pass")
    refused(state, 2, "bid.30", "auction_out")  # a pass is final
    refused(state, 2, "pass", "auction_out")
    assert RULES.legal_actions(state, 2) == []
    act(state, 0, "pass")
    assert state.auction is not None and state.auction.passed == [2, 0] and state.auction.bids == 2
    events = act(state, 3, "pass")  # every other seat still in has passed: seat 1 takes it
    assert kinds(events) == ["passed", "auction_won"]
    assert events[-1].seat == 1 and events[-1].params["price"] == 20
    assert state.auction is None and state.owner[MOJAVE] == 1
    assert state.cash == [1500, 1480, 1500, 1500] and state.phase == END
    assert RULES.waiting_for(state) == frozenset({0})


def test_open_auction_everyone_passing_leaves_it_with_the_bank() -> None:
    state, _ = declined()
    bank = state.bank
    act(state, 2, "pass")
    act(state, 0, "pass")
    events = act(state, 1, "pass")
    assert kinds(events) == ["passed", "auction_unsold"]
    assert state.owner[MOJAVE] is None and state.bank == bank and state.auction is None


def test_the_last_seat_in_may_still_bid_and_takes_it_at_once() -> None:
    state, _ = declined()
    act(state, 1, "pass")
    act(state, 2, "pass")
    assert RULES.waiting_for(state) == frozenset({0})
    events = act(state, 0, "bid.1")
    assert kinds(events) == ["bid", "auction_won"] and state.owner[MOJAVE] == 0 and state.cash[0] == 1499


def test_open_auction_refusals_leave_the_state_as_it_was() -> None:
    state, _ = declined()
    act(state, 1, "bid.5")
    refused(state, 2, "bid.5", "bid_too_low", amount=6)
    refused(state, 2, "bid.1501", "bid_over_cash", cash=1500, amount=1501)
    refused(state, 1, "bid.9", "already_high", amount=5)
    refused(state, 0, "end", "auction_first", space=MOJAVE)
    refused(state, 2, "mort.1", "auction_first", space=MOJAVE)
    refused(state, 2, "pass.3", "malformed")
    refused(state, 2, "bid", "malformed")


def test_every_bidder_is_offered_the_same_amounts_up_to_its_own_cash() -> None:
    """All in at each bidder's whole cash, so an amount listed to one bidder and legal for another
    is listed to both (the host's buttons and the contract tests rely on that)."""
    state, _ = declined(table(3).cash(0, 300).cash(2, 40))
    act(state, 1, "bid.5")
    assert RULES.legal_actions(state, 0) == [A("bid", (n,)) for n in (6, 15, 40, 105, 300)] + [A("pass")]
    assert RULES.legal_actions(state, 2) == [A("bid", (n,)) for n in (6, 15, 40)] + [A("pass")]
    for seat in (0, 2):
        for action in RULES.legal_actions(state, seat):
            assert RULES.apply(RULES.load(RULES.dump(state)), seat, action)


def test_the_public_view_shows_the_open_auction() -> None:
    state, _ = declined()
    act(state, 1, "bid.5")
    act(state, 2, "pass")
    view = RULES.view(state, None)
    assert view["auction_mode"] == "open" and view["auction_hours"] == 24
    assert view["waiting_for"] == [0]
    assert view["auction"] == {
        "item": "property",
        "space": MOJAVE,
        "token": "mojave-desert",
        "reason": "declined",
        "active": [1, 0],
        "turn": -1,
        "high": 5,
        "high_bidder": 1,
        "min_bid": 6,
        "mode": "open",
        "passed": [2],
        "bids": 1,
        "hours": 24,
    }


def test_a_bid_draws_nothing_and_has_no_lasting_meaning() -> None:
    state, _ = declined()
    sealed = RULES.sealed(state)
    act(state, 2, "bid.5")
    assert RULES.sealed(state) == sealed
    assert RULES.fingerprint(state, A("bid", (6,))) is None and RULES.fingerprint(state, A("pass")) is None


# --- the auction clock ---------------------------------------------------------------------------


def test_the_clock_restarts_at_every_bid_and_every_auction() -> None:
    state = table(3, auction_hours="48").next_dice((1, 2), (2, 4)).build()
    assert RULES.game_clock(state) is None
    act(state, 0, "roll")
    act(state, 0, "decline")
    assert RULES.game_clock(state) == GameClock(48, (1, 0))
    act(state, 1, "bid.5")
    assert RULES.game_clock(state) == GameClock(48, (1, 1))
    act(state, 2, "pass")  # a pass does not restart it
    assert RULES.game_clock(state) == GameClock(48, (1, 1))
    act(state, 0, "bid.6")
    assert RULES.game_clock(state) == GameClock(48, (1, 2))
    act(state, 1, "pass")
    assert state.auction is None and RULES.game_clock(state) is None
    act(state, 0, "end")
    act(state, 1, "roll")  # 2 + 4: Lower Haight, unowned
    act(state, 1, "decline")
    assert RULES.game_clock(state) == GameClock(48, (2, 0))  # a new auction: a new mark


@pytest.mark.parametrize("options", [{"auction": "round"}, {"auction_hours": "0"}])
def test_no_clock_in_round_mode_or_with_zero_hours(options: dict[str, str]) -> None:
    state, _ = declined(table(3, **options))
    assert state.auction is not None and RULES.game_clock(state) is None
    bidder = min(RULES.waiting_for(state))
    act(state, bidder, "bid.5")
    assert RULES.game_clock(state) is None


def test_when_the_clock_runs_out_everyone_still_in_passes() -> None:
    """The host applies each waited seat's timeout, one at a time: all pass, the high bid wins."""
    state, _ = declined(table(4))
    act(state, 2, "bid.30")
    assert RULES.timeout_action(state, 2) is None  # the high bidder is not waited for
    order = []
    while state.auction is not None:
        waiting = sorted(RULES.waiting_for(state))
        assert all(RULES.timeout_action(state, s) == A("pass") for s in waiting)
        order.append(waiting[-1])
        events = act(state, waiting[-1], "pass")
    assert order == [3, 1, 0] and kinds(events)[-1] == "auction_won"
    assert state.owner[MOJAVE] == 2 and state.cash[2] == 1470


# --- bankruptcy and shortage auctions ------------------------------------------------------------


def test_a_bankrupts_property_is_auctioned_openly_one_deed_at_a_time() -> None:
    state = table(3).owns(0, "route-66", "mojave-desert").cash(0, 50).at(0, 1).next_dice((1, 2)).build()
    act(state, 0, "roll")  # 1 + 2: Income Tax $200: $50 in hand, $60 by mortgaging
    events = act(state, 0, "bankrupt")
    assert started(events)["reason"] == "bankrupt" and started(events)["mode"] == "open"
    assert state.auction is not None and state.auction.pos == 1 and state.auction.active == [1, 2]
    assert RULES.waiting_for(state) == frozenset({1, 2}) and state.auctions_opened == 1
    act(state, 2, "bid.10")
    events = act(state, 1, "pass")
    assert kinds(events)[-2:] == ["auction_won", "auction_started"]
    assert state.owner[1] == 2 and state.cash[2] == 1490
    assert state.auction is not None and state.auction.pos == MOJAVE and state.auction.bids == 0
    assert RULES.waiting_for(state) == frozenset({1, 2}) and state.auctions_opened == 2
    act(state, 1, "pass")
    events = act(state, 2, "pass")
    assert kinds(events)[-1] == "auction_unsold" and state.owner[MOJAVE] is None


def shortage_table(position: MonopolyBuilder | None = None) -> MonopolyState:
    """Seats 0, 1 and 2 with a full set each and two houses left in the bank (``position``: the
    table to set them on, three seats by default)."""
    return (
        (position or table(3))
        .owns(0, "route-66", "mojave-desert")
        .owns(1, "lower-haight", "haight-ashbury", "castro-street")
        .owns(2, "venice-beach", "santa-monica-pier", "muscle-beach", houses=2)
        .owns(2, "golden-gate-park", "lombard-street", "pacific-coast-highway", houses=4)
        .owns(2, "big-sur", "monterey-bay", "carmel-by-the-sea", houses=4)
        .bank_houses(2)
        .build()
    )


def test_short_houses_are_auctioned_openly_among_the_claimants() -> None:
    state = shortage_table()
    act(state, 0, "build.1")
    act(state, 1, "claim.6")
    events = act(state, 2, "claim.11")
    assert started(events) == {
        "item": "house",
        "reason": "shortage",
        "bidders": [0, 1, 2],
        "mode": "open",
        "hours": 24,
    }
    assert RULES.waiting_for(state) == frozenset({0, 1, 2})
    act(state, 2, "bid.10")
    assert act(state, 1, "bid.20")[0].params == {"amount": 20, "outbid": 2}
    act(state, 0, "pass")
    events = act(state, 2, "pass")
    assert "built" in kinds(events) and state.level[6] == 1 and state.cash[1] == 1480
    # one house left for two claimants still unserved: auctioned again, between them only
    assert state.auction is not None and state.auction.active == [0, 2] and state.auction.mode == "open"
    assert RULES.waiting_for(state) == frozenset({0, 2})
    act(state, 2, "bid.5")
    act(state, 0, "pass")
    assert state.level[11] == 3 and state.cash[2] == 1495 and state.houses == 0
    assert state.shortage is None and state.auction is None and state.level[1] == 0


def test_a_seat_outside_the_auction_is_told_why_and_nothing_changes() -> None:
    """ "Not your turn to bid" fits round mode only: a seat that passed is out for good, one that
    never claimed the building is no bidder, and a bankrupt seat is out of the game."""
    state = shortage_table(table(5).out(4))
    act(state, 0, "build.1")
    act(state, 1, "claim.6")
    act(state, 2, "claim.11")
    assert state.auction is not None and state.auction.active == [0, 1, 2]
    act(state, 1, "pass")
    refused(state, 1, "bid.5", "auction_out")
    refused(state, 1, "pass", "auction_out")
    refused(state, 3, "bid.5", "not_bidding")  # seat 3 has no full set: it was never asked
    refused(state, 3, "pass", "not_bidding")
    refused(state, 4, "bid.5", "out_of_game")
    assert RULES.legal_actions(state, 1) == RULES.legal_actions(state, 3) == []
    assert RULES.waiting_for(state) == frozenset({0, 2})


# --- round-robin, when asked, and old saves ---------------------------------------------------------


def test_round_robin_is_unchanged_when_asked() -> None:
    state, events = declined(table(3, **ROUND))
    assert started(events)["mode"] == "round" and "hours" not in started(events)
    assert state.auction is not None and state.auction.active == [1, 2, 0] and state.auction.turn == 1
    assert RULES.waiting_for(state) == frozenset({1})
    refused(state, 2, "bid.5", "not_your_bid")
    refused(state, 0, "end", "auction_first", space=MOJAVE)
    act(state, 1, "bid.5")
    refused(state, 2, "bid.5", "bid_too_low", amount=6)
    refused(state, 1, "bid.6", "not_your_bid")
    assert RULES.legal_actions(state, 2)[-2:] == [A("bid", (1500,)), A("pass")]
    act(state, 2, "pass")
    refused(state, 2, "bid.10", "auction_out")  # out for good in round mode too
    act(state, 0, "bid.7")
    events = act(state, 1, "pass")
    assert kinds(events)[-1] == "auction_won"
    assert state.owner[MOJAVE] == 0 and state.cash[0] == 1493 and state.auction is None
    assert RULES.view(state, None)["auction_mode"] == "round"


def old_save(state: MonopolyState) -> dict[str, Any]:
    """``state``'s dump as a save made before auctions had a mode."""
    saved: dict[str, Any] = dict(RULES.dump(state))
    for key in ("auction_mode", "auction_hours", "auctions_opened"):
        del saved[key]
    if saved["auction"] is not None:
        saved["auction"] = {k: v for k, v in saved["auction"].items() if k not in ("mode", "passed", "bids")}
    return saved


def test_an_old_save_keeps_round_robin_auctions_and_no_clock() -> None:
    state = RULES.load(old_save(table(3).next_dice((1, 2)).build()))
    assert (state.auction_mode, state.auction_hours, state.auctions_opened) == ("round", 0, 0)
    act(state, 0, "roll")
    events = act(state, 0, "decline")
    assert started(events)["mode"] == "round" and RULES.waiting_for(state) == frozenset({1})
    assert RULES.game_clock(state) is None


def test_an_old_save_in_the_middle_of_an_auction_goes_on_round_robin() -> None:
    state, _ = declined(table(3, **ROUND))
    act(state, 1, "bid.5")
    loaded = RULES.load(old_save(state))
    assert loaded.auction is not None and loaded.auction.mode == "round" and loaded.auction.turn == 2
    assert RULES.waiting_for(loaded) == frozenset({2})
    assert RULES.legal_actions(loaded, 2) == RULES.legal_actions(state, 2)
    act(loaded, 2, "pass")
    act(loaded, 0, "pass")
    assert loaded.owner[MOJAVE] == 1 and loaded.cash[1] == 1495
    assert canonical(RULES.dump(RULES.load(RULES.dump(loaded)))) == canonical(RULES.dump(loaded))


# --- bots and random play ----------------------------------------------------------------------------


def test_bots_bid_below_their_worth_of_the_lot_and_come_back_when_outbid() -> None:
    state, _ = declined()
    first = HINTS.candidates(state, 2, RULES.legal_actions(state, 2))
    assert len(first) == 1 and first[0].kind == "bid" and int(first[0].args[0]) <= data.BOARD[MOJAVE].price
    act(state, 2, first[0].encode())
    act(state, 1, f"bid.{int(first[0].args[0]) + 1}")  # outbid: the bot is asked again
    again = HINTS.candidates(state, 2, RULES.legal_actions(state, 2))
    assert again[0].kind == "bid"
    act(state, 0, "bid.200")  # far above what Mojave Desert is worth to a bot
    assert HINTS.candidates(state, 2, RULES.legal_actions(state, 2)) == [A("pass")]
    assert HINTS.candidates(state, 1, RULES.legal_actions(state, 1)) == [A("pass")]


@pytest.mark.parametrize("players", [2, 4, 6])
def test_random_games_with_open_and_round_auctions_finish(players: int) -> None:
    for options in ({}, {"auction": "round"}):
        for seed in range(2):
            run = random_playthrough(RULES, players, seed, options=options, check=True)
            assert run.failures == [] and run.finished, run.failures[:3]
