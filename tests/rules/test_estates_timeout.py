"""The Estates' default moves: the first piece offered, pass a bid, sell, discard or the first spot."""

from __future__ import annotations

from rules.core import Action
from rules.estates import RULES, data
from rules.estates.state import BID, CHOOSE, DECIDE, PLACE
from tests.rules.test_estates import A, fresh, table, take

PASS, SELL, DISCARD = A("pass"), A("sell"), A("discard")


def test_the_auctioneer_picks_the_first_piece_offered_and_never_stows() -> None:
    state = table(3).to_front("red5").build()
    assert state.phase == CHOOSE
    legal = RULES.legal_actions(state, 0)
    assert legal[0] == A("stow")
    assert RULES.timeout_action(state, 0) == A("pick", ("red5",)) == legal[1]
    assert RULES.timeout_action(state, 1) is None and RULES.timeout_action(state, 2) is None


def test_a_bidder_passes_whatever_they_could_bid() -> None:
    state = fresh(3)
    RULES.apply(state, 0, RULES.timeout_action(state, 0) or A("none"))
    assert state.phase == BID and state.bidder == 1
    assert A("bid", (data.MIN_FIRST_BID,)) in RULES.legal_actions(state, 1)
    assert RULES.timeout_action(state, 1) == PASS
    assert RULES.timeout_action(state, 0) is None


def test_the_auctioneer_sells_even_when_buying_is_possible() -> None:
    state = fresh(3)
    RULES.apply(state, 0, A("pick", ("mayor",)))
    RULES.apply(state, 1, A("bid", (3,)))
    RULES.apply(state, 2, PASS)
    assert state.phase == DECIDE and A("buy") in RULES.legal_actions(state, 0)
    assert RULES.timeout_action(state, 0) == SELL
    RULES.apply(state, 0, SELL)
    assert state.phase == PLACE and state.winner == 1
    assert RULES.timeout_action(state, 1) == DISCARD  # the Mayor is discarded, not placed


def test_permits_and_the_cancel_cube_are_discarded() -> None:
    for piece in ("permit2", "cancel"):
        state = fresh(3)
        take(state, piece)
        assert piece == "cancel" or len(RULES.legal_actions(state, 0)) > 1
        assert RULES.timeout_action(state, 0) == DISCARD
        RULES.apply(state, 0, DISCARD)
        assert state.phase == CHOOSE and state.auctioneer == 1


def test_a_cube_or_a_rooftop_goes_to_the_first_legal_spot() -> None:
    state = table(3).row("A", (["red5"], 0)).to_front("blue2").build()
    take(state, "blue2")
    legal = RULES.legal_actions(state, 0)
    # A1 is white dirt (one cube only), so the first spot is the next lot of row A.
    assert legal[0] == A("place", ("A", 2)) and RULES.timeout_action(state, 0) == legal[0]
    state = table(3).row("B", (["red5"], 0), (["blue4"], 0)).build()
    take(state, "roof")
    assert RULES.timeout_action(state, 0) == A("place", ("B", 1))


def test_a_table_of_absent_players_finishes_the_match() -> None:
    state = RULES.setup(4, {}, 3)
    kinds: set[str] = set()
    for _ in range(5_000):
        if RULES.outcome(state) is not None:
            break
        (seat,) = RULES.waiting_for(state)
        action = RULES.timeout_action(state, seat)
        assert isinstance(action, Action)
        kinds.add(action.kind)
        RULES.apply(state, seat, action)
    assert RULES.outcome(state) is not None
    assert "stow" not in kinds and "bid" not in kinds and "buy" not in kinds
