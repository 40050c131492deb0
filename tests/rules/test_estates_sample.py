"""The Estates' sampled states (``RULES.sample_state``): what a bot thinks on, built from a seat's
view alone.

A sample must look to its seat exactly like the real table, offer the same moves, keep every
conservation law and play on to the end; what the view hides (rivals' money and cash boxes, a
rival auctioneer's stow, the rooftop pile's order and every later draw) must be drawn, not
copied, and stay within what the table proves.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from rules.core import Action
from rules.estates import RULES, data
from rules.estates.builder import EstatesBuilder
from rules.estates.pieces import PICK_ROOF
from rules.estates.sample import sample_state
from rules.estates.state import BID, CHOOSE, DECIDE, OVER, PLACE, EstatesState
from rules.play import random_playthrough
from rules.rng import Rng
from tests.helpers import play_out

SEEDS = range(3)
ROUNDS = (1, 3)


def positions(players: int, seed: int, rounds: int, every: int = 4) -> Iterator[EstatesState]:
    """Copies of the states of one random match, every ``every`` moves and at its end."""
    run = random_playthrough(RULES, players, seed, options={"rounds": rounds}, check=False)
    state = RULES.setup(players, {"rounds": rounds}, seed)
    for step, (seat, action) in enumerate(run.log):
        if step % every == 0:
            yield RULES.load(RULES.dump(state))
        RULES.apply(state, seat, action)
    assert state.phase == OVER
    yield state


def all_positions() -> Iterator[EstatesState]:
    for players in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1):
        for seed in SEEDS:
            for rounds in ROUNDS:
                yield from positions(players, seed, rounds)


def test_a_sample_shows_its_seat_what_it_saw_offers_the_same_moves_and_keeps_the_laws() -> None:
    phases: set[str] = set()
    later_rounds = 0
    for state in all_positions():
        phases.add(state.phase)
        later_rounds += state.round > 1
        for seat in range(state.players):
            view = RULES.view(state, seat)
            sample = sample_state(view, seat, 7 + seat)
            assert RULES.view(sample, seat) == view
            assert RULES.legal_actions(sample, seat) == RULES.legal_actions(state, seat)
            assert RULES.waiting_for(sample) == RULES.waiting_for(state)
            assert RULES.invariants(sample) == []
            assert RULES.dump(RULES.load(RULES.dump(sample))) == RULES.dump(sample)
    assert phases == {CHOOSE, BID, DECIDE, PLACE, OVER}
    assert later_rounds


def test_what_the_table_proves_is_kept_exactly() -> None:
    """The left-out cubes and the rooftops still face down are deducible, so they match the truth;
    a finished match's scores and ranks and every seat's purse as the view shows it stay as they
    were (only the split of a rival's cash box over the rounds and its checks are drawn)."""
    for state in positions(4, 11, 3):
        for seat in range(4):
            sample = sample_state(RULES.view(state, seat), seat, 3)
            assert sample.out_of_game == state.out_of_game
            assert sample.roofs_left == sorted(state.roofs_left)
            assert (sample.money[seat], sample.cash_box[seat]) == (state.money[seat], state.cash_box[seat])
            drawn, real = RULES.outcome(sample), RULES.outcome(state)
            assert (drawn is None) == (real is None)
            if drawn is not None and real is not None:
                assert (drawn.scores, drawn.ranks) == (real.scores, real.ranks)


def test_a_finished_match_keeps_its_standings_ties_included() -> None:
    """The final ranks break ties on points by the money still on the table, which is hidden: the
    sample deals it so that the standings come out as shown (seeds 13 and 21 at five players
    end with the viewer tied on points with a rival)."""
    ties = 0
    for seed in range(40):
        for rounds in (1, 3):
            state = random_playthrough(RULES, 5, seed, options={"rounds": rounds}, check=False).state
            outcome = RULES.outcome(state)
            assert outcome is not None
            ties += len(set(outcome.scores)) < 5
            for seat in range(5):
                view = RULES.view(state, seat)
                sample = sample_state(view, seat, seed)
                assert RULES.view(sample, seat) == view
                assert RULES.invariants(sample) == []
    assert ties


@pytest.mark.parametrize("players", range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1))
def test_play_goes_on_from_a_sample_to_the_end(players: int) -> None:
    for index, state in enumerate(positions(players, 5, 2, every=9)):
        seat = index % players
        sample = sample_state(RULES.view(state, seat), seat, index)
        play_out(RULES, sample, index)


def test_the_same_seed_gives_the_same_sample() -> None:
    for state in positions(3, 2, 1, every=10):
        view = RULES.view(state, 1)
        assert RULES.dump(sample_state(view, 1, 42)) == RULES.dump(sample_state(view, 1, 42))


def test_hidden_money_varies_with_the_seed_and_is_not_the_truth() -> None:
    """Rivals' hands and cash boxes differ from seed to seed, and are mostly not the real ones."""
    states = list(positions(3, 4, 1, every=1))
    state = states[len(states) // 3]
    seat = state.money.index(min(state.money))  # the poorest seat: its rivals have money to guess
    view = RULES.view(state, seat)
    samples = [sample_state(view, seat, seed) for seed in range(40)]
    assert len({tuple(s.money) for s in samples}) > 10
    assert len({tuple(s.cash_box) for s in samples}) > 3
    assert sum(s.money == state.money and s.cash_box == state.cash_box for s in samples) < 5


def test_the_next_rooftop_is_drawn_anew() -> None:
    """The pile's order is hidden from everybody: each sample reveals its own next rooftop."""
    state = next(
        s
        for s in positions(3, 4, 1)
        if s.phase == CHOOSE
        and len(set(s.roofs_left)) > 2
        and PICK_ROOF in RULES.legal_actions(s, s.auctioneer)
    )
    seat = state.auctioneer
    view = RULES.view(state, seat)
    revealed = set()
    for seed in range(30):
        sample = sample_state(view, seat, seed)
        RULES.apply(sample, seat, PICK_ROOF)
        revealed.add(sample.roof_value)
    assert len(revealed) > 2


def test_tables_differing_only_in_hidden_things_give_the_same_sample() -> None:
    """The sample reads the view and nothing else: two tables that differ in rivals' money, a
    rival's stow and the generator (hence every future draw) give one and the same sample."""
    state = late_position(4, 6)
    state.phase = CHOOSE if state.phase == OVER else state.phase
    other = RULES.load(RULES.dump(state))
    rich, poor = (1, 2) if state.money[2] else (2, 1)
    other.money[rich] += 1
    other.money[poor] -= 1
    other.rng = Rng(987654321, 5)
    if other.auctioneer != 0 and other.money[other.auctioneer] and not other.stowed:
        other.money[other.auctioneer] -= 1
        other.cash_box[other.auctioneer] += 1
        other.stowed = True
    assert RULES.dump(other) != RULES.dump(state)
    assert RULES.invariants(other) == []
    assert RULES.view(other, 0) == RULES.view(state, 0)
    for seed in range(5):
        mine = sample_state(RULES.view(state, 0), 0, seed)
        theirs = sample_state(RULES.view(other, 0), 0, seed)
        assert RULES.dump(mine) == RULES.dump(theirs)


def test_bids_on_the_table_bound_the_money_drawn() -> None:
    """A rival who bid $n holds at least $n; after the auctioneer bought, its bidder at least 2n."""
    state = EstatesBuilder(3, seed=8).first(0).build()
    RULES.apply(state, 0, Action("pick", ("mayor",)))
    RULES.apply(state, 1, Action("bid", (9,)))
    RULES.apply(state, 2, Action("pass"))
    assert state.phase == DECIDE
    view = RULES.view(state, 2)
    for seed in range(30):
        assert sample_state(view, 2, seed).money[1] >= 9
    RULES.apply(state, 0, Action("buy"))
    view = RULES.view(state, 2)
    for seed in range(30):
        assert sample_state(view, 2, seed).money[1] >= 18


def test_a_rivals_cash_box_grows_at_most_one_a_turn() -> None:
    """Early in a round a rival had few turns, so its drawn cash box is at most that many."""
    state = EstatesBuilder(4, seed=3).first(0).build()
    view = RULES.view(state, 0)
    for seed in range(20):
        sample = sample_state(view, 0, seed)
        assert sample.cash_box == [0, 0, 0, 0]
        assert sum(sample.money) == data.START_MONEY * 4
    rivals_turn = RULES.view(state, 1)
    stows = set()
    for seed in range(40):
        sample = sample_state(rivals_turn, 1, seed)
        assert sample.cash_box[0] == int(sample.stowed) and sample.cash_box[1:] == [0, 0, 0]
        stows.add(sample.stowed)
    assert stows == {True, False}


def late_position(players: int, seed: int) -> EstatesState:
    """A position two thirds into a random match."""
    states = list(positions(players, seed, 1, every=1))
    return states[len(states) * 2 // 3]
