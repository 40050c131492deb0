"""The Estates under seeded random play: laws that must hold after every single action."""

from __future__ import annotations

import json
import random
import time

import pytest

from rules.core import Action, Event, IllegalAction
from rules.estates import RULES, data, pieces
from rules.estates.state import EstatesState

# Every turn uses up one piece, so a round has at most this many turns.
PIECES = data.CUBES_DRAWN + len(data.ROOFTOPS) + len(data.PERMITS) + 2  # + Mayor and Cancel cube
SECRET_KEYS = {"money", "cash_box", "checks", "score", "stowed_this_turn"}

# Every action shape the UI could send, legal or not, to throw at the engine.
POOL: list[Action] = [
    pieces.STOW,
    pieces.PASS,
    pieces.SELL,
    pieces.BUY,
    pieces.DISCARD,
    pieces.PICK_ROOF,
    pieces.PICK_MAYOR,
    pieces.PICK_CANCEL,
    *pieces.PICK_CUBE,
    *pieces.PICK_PERMIT.values(),
    *pieces.BIDS[:40],
    *(a for row in pieces.PLACE_AT for a in row),
    *(a for row in pieces.PERMIT_AT for a in row.values()),
    *pieces.MAYOR_AT,
    *pieces.CANCEL_PERMIT.values(),
    Action("bid", (-1,)),
    Action("bid", (999,)),
    Action("place", ("D", 1)),
    Action("place", ("A", 11)),
    Action("permit", ("A", "wider")),
    Action("cancel", ("mayor",)),
    Action("mayor", ("Z",)),
    Action("pick", ("tower",)),
    Action("pick", (7,)),
    Action("fly"),
]


def secret_free(value: object) -> bool:
    """No key that names a balance anywhere inside a JSON value."""
    if isinstance(value, dict):
        return all(k not in SECRET_KEYS and secret_free(v) for k, v in value.items())
    if isinstance(value, list):
        return all(secret_free(v) for v in value)
    return True


def check_public(events: list[Event]) -> None:
    for event in events:
        if event.public:
            assert secret_free(dict(event.params)), event
        json.dumps(dict(event.params))


def public_view_ignores_money(state: EstatesState, rnd: random.Random) -> None:
    view = RULES.view(state, None)
    assert "you" not in view and secret_free(view)
    other = RULES.load(RULES.dump(state))
    other.money = [rnd.randrange(60) for _ in other.money]
    other.cash_box = [rnd.randrange(60) for _ in other.cash_box]
    other.stowed = not other.stowed
    assert RULES.view(other, None) == view


def play(
    players: int, seed: int, rounds: int, deep: bool
) -> tuple[int, list[tuple[int, Action]], EstatesState]:
    """One seeded random match, checking the laws after every action; ``deep`` tries every legal action."""
    rnd = random.Random(seed * 7919 + players)
    state = RULES.setup(players, {"rounds": rounds}, seed)
    log: list[tuple[int, Action]] = []
    bound = rounds * PIECES * (players + 3)
    while RULES.outcome(state) is None:
        assert len(log) < bound, "the game did not end"
        waiting = sorted(RULES.waiting_for(state))
        assert len(waiting) == 1
        seat = rnd.choice(waiting)
        legal = RULES.legal_actions(state, seat)
        assert legal, "the seat waited on has nothing to do"
        for other in range(players):
            if other != seat:
                assert RULES.legal_actions(state, other) == []
        for action in legal:
            assert len(action.encode()) < 40 and Action.decode(action.encode()) == action
        before = RULES.dump(state)
        # Everything listed applies; try all of them on copies in deep games, a sample otherwise.
        tries = legal if deep else rnd.sample(legal, min(2, len(legal)))
        for action in tries:
            copy = RULES.load(before)
            check_public(RULES.apply(copy, seat, action))
            assert RULES.invariants(copy) == []
        # A random action not listed for a random seat is refused and changes nothing.
        prober = rnd.randrange(players)
        listed = set(RULES.legal_actions(state, prober))
        wrong = rnd.choice([a for a in POOL if a not in listed])
        with pytest.raises(IllegalAction):
            RULES.apply(state, prober, wrong)
        assert RULES.dump(state) == before
        action = rnd.choice(legal)
        events = RULES.apply(state, seat, action)
        log.append((seat, action))
        check_public(events)
        assert RULES.invariants(state) == [], RULES.invariants(state)
        if deep:
            dumped = RULES.dump(state)
            assert RULES.dump(RULES.load(json.loads(json.dumps(dumped)))) == dumped
        if state.phase != "over" and (deep or len(log) % 3 == 0):
            public_view_ignores_money(state, rnd)
    return len(log), log, state


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_games(players: int) -> None:
    for seed in range(18):
        rounds = 1 + seed % 3
        _steps, log, state = play(players, seed, rounds, deep=seed < 3)
        outcome = RULES.outcome(state)
        assert outcome is not None and len(outcome.scores) == players
        assert min(outcome.ranks) == 1 and len(outcome.breakdown) == players
        assert state.round <= rounds
        # Replaying the seed and the action log lands on the very same state.
        replay = RULES.setup(players, {"rounds": rounds}, seed)
        for seat, action in log:
            RULES.apply(replay, seat, Action.from_json(json.loads(json.dumps(action.to_json()))))
        assert RULES.dump(replay) == RULES.dump(state)
        dumped = RULES.dump(state)
        assert RULES.dump(RULES.load(json.loads(json.dumps(dumped)))) == dumped
        json.dumps(RULES.view(state, None))
        for seat in range(players):
            assert RULES.legal_actions(state, seat) == []


def test_fuzzer_speed_five_players() -> None:
    """Plain random play (legal_actions + apply) must run at 5,000+ actions a second."""
    rnd = random.Random(1)
    actions = 0
    start = time.perf_counter()
    for seed in range(40):
        state = RULES.setup(5, {}, seed)
        while RULES.outcome(state) is None:
            seat = rnd.choice(sorted(RULES.waiting_for(state)))
            RULES.apply(state, seat, rnd.choice(RULES.legal_actions(state, seat)))
            actions += 1
    rate = actions / (time.perf_counter() - start)
    assert rate >= 5000, f"{rate:.0f} actions/s"
