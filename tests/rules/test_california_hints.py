"""California's bot hints (``rules.california.heuristics``): sensible, cheap and always legal.

Positions are built with California's position builder (tiles taken from the stack, money from
the stock, so every conservation law holds and ``build()`` checks it).
"""

from __future__ import annotations

from rules.california import COIN, LOAN, REPAY, RULES, State
from rules.california.builder import CaliforniaBuilder
from rules.california.data import BLUE, GREEN, RED
from rules.california.heuristics import HINTS, CaliforniaHints, Weights
from rules.core import Action
from rules.play import random_playthrough
from rules.rng import Rng
from rules.search import Budget, choose, reward


def positions(players: int, seeds: range, every: int = 5) -> list[State]:
    found = []
    for seed in seeds:
        run = random_playthrough(RULES, players, seed, check=False)
        state = RULES.setup(players, {}, seed)
        for step, (seat, action) in enumerate(run.log):
            if step % every == 0:
                found.append(RULES.load(RULES.dump(state)))
            RULES.apply(state, seat, action)
        found.append(state)
    return found


def game(players: int, turn: int = 0) -> CaliforniaBuilder:
    return CaliforniaBuilder(players, seed=7).on_turn(turn)


def test_values_give_one_number_per_seat_and_follow_the_score_at_the_end() -> None:
    for players in (2, 5):
        for state in positions(players, range(2), every=30):
            values = HINTS.values(state)
            assert len(values) == players
            if state.over:
                result = RULES.outcome(state)
                assert result is not None
                scores = result.scores
                assert [round(v) for v in values] == list(scores)


def test_values_count_points_and_what_money_and_rooms_promise_while_days_remain() -> None:
    b = game(players=3)
    state = b.room(1, 0, GREEN).build()  # one point more than seat 0
    assert HINTS.values(state)[1] > HINTS.values(state)[0]
    b.money(2, 20).build()  # money is worth something early on...
    assert HINTS.values(state)[2] > HINTS.values(state)[0]
    # ...and only breaks ties once the game ends tonight (set by hand: nobody has earned the
    # ending, so the builder's ``ending`` step would refuse this position)
    state.ending = "bonus"
    assert HINTS.values(state)[1] > HINTS.values(state)[2] > HINTS.values(state)[0]


def test_candidates_are_legal_never_empty_and_drop_bare_loans_and_repayments() -> None:
    for players in (2, 3, 4, 5):
        for state in positions(players, range(2)):
            if state.over:
                continue
            for seat in range(players):
                actions = RULES.legal_actions(state, seat)
                if not actions:
                    continue
                kept = HINTS.candidates(state, seat, actions)
                assert kept and all(a in actions for a in kept)
                if seat == state.turn:
                    assert COIN in kept and LOAN not in kept and REPAY not in kept


def test_candidates_search_one_slot_per_tile_type_and_the_cheapest_room_spaces() -> None:
    b = game(players=3, turn=0).money(0, 30)
    b.offer(0, 0, "room", RED)
    b.offer(0, 1, "room", RED)  # the same buy as slot 0
    b.offer(0, 2, "furniture", BLUE)  # no blue room: the attic
    b.offer(0, 3, "expansion")
    b.empty_slots(1, 1, 2, 3)
    b.offer(1, 0, "room", RED)  # same type, other store: buying it empties store 1
    state = b.build()
    kept = HINTS.candidates(state, 0, RULES.legal_actions(state, 0))
    buys = [a.args for a in kept if a.kind == "buy"]
    assert [b for b in buys if b[:2] == (0, 1)] == []
    assert len([b for b in buys if b[:2] == (0, 0)]) == Weights().room_targets
    assert (0, 2, "attic") in buys and (0, 3, "expansion") in buys
    assert any(b[:2] == (1, 0) for b in buys)
    fees = RULES.view(state, 0)["players"][0]["mansion"]["spaces"]
    chosen = [fees[b[2]]["fee"] for b in buys if b[:2] == (0, 0)]
    assert max(chosen) == min(fees[s]["fee"] for s in range(16) if s != 12)


def test_a_loan_buy_is_searched_only_for_a_tile_no_plain_purchase_can_take() -> None:
    b = game(players=4, turn=0).money(0, 5)  # price 4: fee-0 spaces are affordable, the others need a loan
    state = b.offer(0, 0, "room", GREEN).offer(0, 1, "expansion").build()
    actions = RULES.legal_actions(state, 0)
    assert any(a.kind == "loan_buy" and a.args[:2] == (0, 0) for a in actions)
    kept = HINTS.candidates(state, 0, actions)
    assert not any(a.kind == "loan_buy" and a.args[:2] == (0, 0) for a in kept)
    b.money(0, 2).build()  # now only a loan buys anything
    kept = HINTS.candidates(state, 0, RULES.legal_actions(state, 0))
    assert any(a.kind == "loan_buy" for a in kept)


def test_rollout_moves_are_legal_and_buy_a_cheap_scoring_tile_rather_than_a_coin() -> None:
    rng = Rng(4)
    for state in positions(3, range(2)):
        if state.over:
            continue
        actions = RULES.legal_actions(state, state.turn)
        assert HINTS.rollout(state, state.turn, actions, rng) in actions
    b = game(players=3, turn=1).bank(1).money(1, 3).room(1, 0, GREEN)
    b.offer(0, 0, "furniture", GREEN)  # a guest for one silver, and nothing else on offer
    state = b.empty_slots(0, 1, 2, 3).empty_slots(1).build()
    actions = RULES.legal_actions(state, 1)
    greedy = CaliforniaHints(Weights(rollout_random=0.0))
    assert greedy.rollout(state, 1, actions, rng) == Action("buy", (0, 0, 0))
    b.money(1, 0).build()
    assert greedy.rollout(state, 1, RULES.legal_actions(state, 1), rng) == COIN


def test_rollout_furnishes_for_a_guest_before_it_renovates() -> None:
    b = game(players=4, turn=0).bank(2).money(0, 4).room(0, 8, GREEN)
    b.furnish(0, 12, guest=True)  # a guest already: the green one brings a gift
    state = b.offer(0, 0, "room", BLUE).offer(0, 1, "furniture", GREEN).build()
    greedy = CaliforniaHints(Weights(rollout_random=0.0))
    move = greedy.rollout(state, 0, RULES.legal_actions(state, 0), Rng(1))
    assert move == Action("buy", (0, 1, 8))


def test_search_with_the_hints_chooses_a_legal_move_from_the_view_alone() -> None:
    for state in positions(3, range(1), every=40):
        if state.over:
            continue
        seat = state.turn
        decision = choose(RULES, HINTS, RULES.view(state, seat), seat, 3, Budget(30, 20))
        assert decision.action in RULES.legal_actions(state, seat)
        assert 0.0 <= reward(RULES, HINTS, state, seat) <= 1.0


def test_a_bot_with_the_hints_beats_random_players() -> None:
    """A small budget already wins most 3-player games against uniformly random seats."""
    wins = 0.0
    games = 6
    for seed in range(games):
        state = RULES.setup(3, {}, seed)
        bot = seed % 3
        rng = Rng(seed)
        while RULES.outcome(state) is None:
            seat = state.turn
            if seat == bot:
                action = choose(
                    RULES, HINTS, RULES.view(state, seat), seat, rng.next64(), Budget(40, 20)
                ).action
            else:
                action = rng.choice(RULES.legal_actions(state, seat))
            RULES.apply(state, seat, action)
        result = RULES.outcome(state)
        assert result is not None
        ranks = result.ranks
        wins += ranks[bot] == 1
    assert wins >= 5, wins
