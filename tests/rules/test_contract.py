"""The engine contract, checked against every registered game (the test game included).

A new game passes these before it reaches Discord: random play ends without
breaking invariants, JSON round trips exactly, replay equals live, views
are fresh data, and an illegal action is refused without any change.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.core.registry import GameEntry
from bot.games import REGISTRY
from rules.core import Action, IllegalAction, InvalidOptions, Outcome, check_players
from rules.play import canonical, idle_actions, random_playthrough, replay
from rules.rng import Rng

ENTRIES = sorted(REGISTRY, key=lambda e: e.name)
SEEDS = range(20)
"""Seeds per player count for "every random game ends": random play now lets idle seats act
(loans between turns), so a game that an idle seat could prolong is tried many times."""

OUT_OF_TURN_KINDS = {
    "california": {"loan", "repay"},
    "toy": {"knock", "reroll"},
    "toymarket": {"improve", "deal", "give", "want", "pay", "ask", "send", "withdraw"},
}
"""Action kinds that known games let a seat take while the game is not waiting for it.  A guard:
should such a game stop offering them to idle seats, the generic check below ("offered, so
taken") would pass silently; a game not named here is checked by that generic rule alone."""


def counts(entry: GameEntry) -> list[int]:
    return list(range(entry.rules.min_players, entry.rules.max_players + 1))


@pytest.fixture(params=ENTRIES, ids=lambda e: e.name)
def entry(request: pytest.FixtureRequest) -> GameEntry:
    chosen: GameEntry = request.param
    return chosen


def test_random_games_end_with_invariants_intact(entry: GameEntry) -> None:
    """Every player count, many seeds, idle seats acting too: no game stalls or runs on forever."""
    for players in counts(entry):
        for seed in SEEDS:
            run = random_playthrough(entry.rules, players, seed)
            assert run.failures == [], (players, seed, run.failures[:3])
            assert run.finished
            outcome = entry.rules.outcome(run.state)
            assert isinstance(outcome, Outcome)
            assert len(outcome.scores) == len(outcome.ranks) == players
            assert min(outcome.ranks) == 1
            assert entry.rules.waiting_for(run.state) == frozenset()
            assert all(entry.rules.legal_actions(run.state, s) == [] for s in range(players))


def test_random_play_takes_out_of_turn_actions(entry: GameEntry) -> None:
    """Random play lets seats the game is not waiting for act, whenever the game offers them that.

    Out-of-turn actions (a loan between turns, building in Monopoly) land in the middle of
    somebody else's turn, where engine bugs hide, so the fuzzer must take them.  The log is
    replayed step by step to see, independently of the playthrough's own counter, which
    actions came from idle seats and whether idle seats had anything to do.
    """
    rules = entry.rules
    offered = 0
    taken: list[Action] = []
    for players in counts(entry):
        for seed in range(4):
            run = random_playthrough(rules, players, seed, check=False)
            assert run.finished, (players, seed, run.failures[:3])
            state = rules.setup(players, run.options, seed)
            by_idle_seats = 0
            for seat, action in run.log:
                waiting = rules.waiting_for(state)
                idle = idle_actions(rules, state, players, waiting)
                offered += bool(idle)
                if seat not in waiting:
                    assert action in idle.get(seat, []), (players, seed, seat, action)
                    by_idle_seats += 1
                    taken.append(action)
                rules.apply(state, seat, action)
            assert by_idle_seats == run.out_of_turn, (players, seed)
    kinds = {action.kind for action in taken}
    assert kinds >= OUT_OF_TURN_KINDS.get(entry.name, set()), kinds
    if offered:
        assert taken, f"idle seats could act at {offered} steps but random play never let them"
    else:
        assert not taken


def test_json_round_trip_and_replay_equal_live(entry: GameEntry) -> None:
    rules = entry.rules
    for players in counts(entry):
        run = random_playthrough(rules, players, 11, stop_after=40)
        dumped = rules.dump(run.state)
        assert dumped["schema"] == rules.schema
        text = canonical(dumped)
        assert canonical(rules.dump(rules.load(json.loads(text)))) == text
        replayed = replay(rules, players, run.options, 11, run.log)
        assert canonical(rules.dump(replayed)) == text
        # A reloaded state plays on exactly like the live one.
        reloaded = rules.load(json.loads(text))
        for seat in range(players):
            assert rules.legal_actions(reloaded, seat) == rules.legal_actions(run.state, seat)


def test_illegal_actions_are_refused_without_change(entry: GameEntry) -> None:
    rules = entry.rules
    chooser = Rng(99)
    for players in counts(entry):
        state = rules.setup(players, dict(rules.play_options), 5)
        for _ in range(60):
            if rules.outcome(state) is not None:
                break
            for seat in range(players):
                legal = {a.encode() for a in rules.legal_actions(state, seat)}
                for bogus in (Action("no_such_move"), Action("no_such_move", (3, "x"))):
                    before = canonical(rules.dump(state))
                    with pytest.raises(IllegalAction) as refused:
                        rules.apply(state, seat, bogus)
                    assert str(refused.value).strip(), "a refusal explains itself"
                    assert canonical(rules.dump(state)) == before
                # Another seat's legal action is usually illegal for this seat: refused or applied cleanly.
                other = (seat + 1) % players
                for action in rules.legal_actions(state, other)[:5]:
                    if action.encode() in legal:
                        continue
                    before = canonical(rules.dump(state))
                    with pytest.raises(IllegalAction):
                        rules.apply(state, seat, action)
                    assert canonical(rules.dump(state)) == before
            seat = chooser.choice(sorted(rules.waiting_for(state)))
            rules.apply(state, seat, chooser.choice(rules.legal_actions(state, seat)))


def test_views_are_fresh_json_and_public_view_is_a_subset(entry: GameEntry) -> None:
    rules = entry.rules
    for players in sorted({rules.min_players, rules.max_players}):
        run = random_playthrough(rules, players, 3, check=False)
        assert run.finished
        state = rules.setup(players, run.options, 3)
        checkpoints = {0, len(run.log), *range(0, len(run.log), max(1, len(run.log) // 12))}
        for step, (seat, action) in enumerate([(None, None), *run.log]):
            if seat is not None and action is not None:
                rules.apply(state, seat, action)
            if step not in checkpoints:
                continue
            before = canonical(rules.dump(state))
            public: dict[str, Any] = rules.view(state, None)
            for viewer in range(players):
                seen: dict[str, Any] = rules.view(state, viewer)
                hidden = _not_shown_identically(_without_viewer(public), seen)
                assert hidden == [], (players, step, viewer, hidden[:5])
            for viewer in (None, *range(players)):
                view: dict[str, Any] = rules.view(state, viewer)
                json.dumps(view)  # plain JSON
                _scribble(view)
                assert canonical(rules.dump(state)) == before, (
                    "a view must not share containers with the state"
                )


TIMEOUT_SEEDS = range(3)
"""Random games per player count whose every state checks ``timeout_action``."""


def _copy(rules: Any, state: Any) -> Any:
    return rules.load(json.loads(canonical(rules.dump(state))))


def _timeout_problems(rules: Any, state: Any, players: int) -> list[str]:
    """What is wrong with ``timeout_action`` in this state, for every seat (empty: nothing).

    A waited-for seat gets an action that applies (a listed one, or one of a listed kind naming an
    amount or a set the list does not spell out); any other seat gets ``None``.  Asking changes
    nothing (no draw from the generator either: it is in the dump) and asks the same twice."""
    problems: list[str] = []
    waiting = rules.waiting_for(state)
    before = canonical(rules.dump(state))
    for seat in range(players):
        action = rules.timeout_action(state, seat)
        again = rules.timeout_action(state, seat)
        if action != again:
            problems.append(f"seat {seat}: {action} then {again}")
        if seat not in waiting:
            if action is not None:
                problems.append(f"seat {seat} is not waited for but would be made to {action}")
            continue
        if action is None:
            problems.append(f"seat {seat} is waited for but has no timeout action")
            continue
        legal = rules.legal_actions(state, seat)
        if action in legal:
            continue
        if action.kind not in {a.kind for a in legal}:
            problems.append(f"seat {seat}: {action} is of no legal kind")
            continue
        try:
            rules.apply(_copy(rules, state), seat, action)
        except IllegalAction as exc:
            problems.append(f"seat {seat}: {action} was refused: {exc}")
    if canonical(rules.dump(state)) != before:
        problems.append("asking for the timeout actions changed the state")
    return problems


def test_timeout_action_is_legal_for_every_waited_seat(entry: GameEntry) -> None:
    """In every state of random games: each waited-for seat's default move applies, others get None."""
    rules = entry.rules
    for players in counts(entry):
        for seed in TIMEOUT_SEEDS:
            run = random_playthrough(rules, players, seed, check=False)
            assert run.finished, (players, seed, run.failures[:3])
            state = rules.setup(players, run.options, seed)
            for step, (seat, action) in enumerate([*run.log, (None, None)]):
                problems = _timeout_problems(rules, state, players)
                assert problems == [], (players, seed, step, problems[:3])
                if seat is not None and action is not None:
                    rules.apply(state, seat, action)
            assert all(rules.timeout_action(state, s) is None for s in range(players))


def play_timeouts(rules: Any, state: Any, players: int, seed: int, limit: int = 20_000) -> int:
    """Apply timeout actions only (to a waited-for seat chosen by a seeded ``Rng``) until the game
    ends; returns how many it took.  Fails when the game stalls, runs past ``limit`` or breaks an
    invariant."""
    chooser = Rng(seed ^ 0x7133)
    for taken in range(limit):
        if rules.outcome(state) is not None:
            return taken
        waiting = sorted(rules.waiting_for(state))
        assert waiting, "the game is not over but waits for nobody"
        seat = chooser.choice(waiting)
        action = rules.timeout_action(state, seat)
        assert action is not None, (taken, seat)
        rules.apply(state, seat, action)
        broken = rules.invariants(state)
        assert broken == [], (taken, seat, action, broken[:3])
    raise AssertionError(f"timeouts alone did not end the game within {limit} actions")


def test_a_game_of_timeouts_ends(entry: GameEntry) -> None:
    """Every seat always timing out still ends the game, at every player count, from the start and
    from the middle of random games (with the ``play_options`` limits random play uses)."""
    rules = entry.rules
    for players in counts(entry):
        for seed in range(4):
            state = rules.setup(players, dict(rules.play_options), seed)
            play_timeouts(rules, state, players, seed)
            assert rules.outcome(state) is not None
            # From the middle of a random game: debts, auctions, open choices and offers included.
            prefix = random_playthrough(rules, players, seed, stop_after=20 + 37 * seed, check=False)
            play_timeouts(rules, prefix.state, players, seed)
            assert rules.waiting_for(prefix.state) == frozenset()


VIEWER_KEY = "you"
"""The one top-level key by which a view says whose view it is: California's ``you`` is the
seat (``None`` for the public view), The Estates' ``you`` holds that seat's private figures.
Every other part of the public view is the table everybody sees."""


def _without_viewer(view: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in view.items() if k != VIEWER_KEY}


def _not_shown_identically(public: Any, seat_view: Any, path: str = "") -> list[str]:
    """Where the public view says something a seat's view does not say in exactly the same way.

    "The public view is a subset of every seat's view": a seat sees the whole table plus
    its own secrets, so every key of the public view is in the seat's view, recursively,
    with the same value (lists the same length, element by element).  A seat's view may
    add keys, never drop or change a public one; anything in the public view that some
    seat does not see is either a leak into the public view or a seat view that lies.
    """
    if isinstance(public, dict):
        if not isinstance(seat_view, dict):
            return [f"{path or '/'}: a mapping for the public, {type(seat_view).__name__} for the seat"]
        problems: list[str] = []
        for key, value in public.items():
            if key not in seat_view:
                problems.append(f"{path}/{key}: only in the public view")
            else:
                problems += _not_shown_identically(value, seat_view[key], f"{path}/{key}")
        return problems
    if isinstance(public, list):
        if not isinstance(seat_view, list) or len(seat_view) != len(public):
            return [f"{path}: {public!r} for the public, {seat_view!r} for the seat"]
        return [
            problem
            for index, (item, seen) in enumerate(zip(public, seat_view, strict=True))
            for problem in _not_shown_identically(item, seen, f"{path}[{index}]")
        ]
    if type(public) is not type(seat_view) or public != seat_view:
        return [f"{path}: {public!r} for the public, {seat_view!r} for the seat"]
    return []


def test_the_subset_check_notices_a_leak_and_a_lie() -> None:
    """The helper above really compares: a key only the public sees, or a changed value, fails."""
    seat = {"you": {"money": 3}, "board": [{"lot": 1, "roof": None}], "turn": 2}
    assert (
        _not_shown_identically(_without_viewer({"you": None, "board": [{"lot": 1, "roof": None}]}), seat)
        == []
    )
    assert _not_shown_identically({"money": [3, 4]}, seat) == ["/money: only in the public view"]
    assert _not_shown_identically({"board": [{"lot": 1, "roof": 2}]}, seat) == [
        "/board[0]/roof: 2 for the public, None for the seat"
    ]
    assert _not_shown_identically({"turn": True}, {"turn": 1}) != []
    assert _not_shown_identically({"board": []}, seat) != []


def _scribble(value: Any) -> None:
    if isinstance(value, dict):
        for key in list(value):
            _scribble(value[key])
        value["scribbled"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribbled")


def test_actions_fit_in_a_custom_id(entry: GameEntry) -> None:
    rules = entry.rules
    for players in counts(entry):
        run = random_playthrough(rules, players, 8, stop_after=200, check=False)
        for _, action in run.log:
            code = action.encode()
            assert Action.decode(code) == action
            assert len(code) <= 60


def test_player_counts_and_options_are_validated(entry: GameEntry) -> None:
    rules = entry.rules
    with pytest.raises(InvalidOptions):
        rules.setup(rules.max_players + 1, {}, 1)
    with pytest.raises(InvalidOptions):
        check_players(rules, rules.min_players - 1)
    with pytest.raises(InvalidOptions, match=r"^unknown"):
        rules.setup(rules.min_players, {"no_such_option": "1"}, 1)
    with pytest.raises(InvalidOptions, match=r"^unknown"):
        rules.table_options({"no_such_option": "1"})
    assert rules.table_options({}) == {spec.name: spec.default for spec in rules.options}


def test_same_seed_same_game(entry: GameEntry) -> None:
    rules = entry.rules
    a = random_playthrough(rules, rules.max_players, 21, stop_after=50, check=False)
    b = random_playthrough(rules, rules.max_players, 21, stop_after=50, check=False)
    assert a.log == b.log
    assert canonical(rules.dump(a.state)) == canonical(rules.dump(b.state))
    # Whole games too, out-of-turn choices included.
    c = random_playthrough(rules, rules.max_players, 21, check=False)
    d = random_playthrough(rules, rules.max_players, 21, check=False)
    assert (c.log, c.out_of_turn) == (d.log, d.out_of_turn)
    assert canonical(rules.dump(c.state)) == canonical(rules.dump(d.state))


def test_fingerprints_are_public_and_steady(entry: GameEntry) -> None:
    """``fingerprint`` hashes go into custom_ids everyone reads: a fingerprint is a short string
    or None, the same when asked twice, and unchanged by a private action (a hidden stow, a
    reroll), or a lasting button would show others that something hidden happened."""
    rules = entry.rules
    for players in counts(entry):
        run = random_playthrough(rules, players, 5, check=False)
        state = rules.setup(players, run.options, 5)
        for seat, action in run.log:
            everyone = {s: rules.legal_actions(state, s) for s in range(players)}
            before = {(s, a): rules.fingerprint(state, a) for s, acts in everyone.items() for a in acts}
            for value in before.values():
                assert value is None or (isinstance(value, str) and len(value) <= 200), value
            waiting = rules.waiting_for(state)
            events = rules.apply(state, seat, action)
            private = (
                rules.outcome(state) is None
                and rules.waiting_for(state) == waiting
                and all(e.visible_to is not None for e in events)
            )
            if private:
                for (s, a), value in before.items():
                    if s != seat and a in rules.legal_actions(state, s):
                        assert rules.fingerprint(state, a) == value, f"{action} changed {a}'s fingerprint"


def test_sealed_moves_whenever_chance_is_drawn(entry: GameEntry) -> None:
    """``sealed`` (what the host's undo compares) changes at every move that draws from the state's
    generator, and a copy of a state seals the same as the state."""
    rules = entry.rules
    for players in counts(entry)[:2]:
        run = random_playthrough(rules, players, 11, stop_after=300, check=False)
        state = rules.setup(players, run.options, 11)
        for seat, action in run.log:
            sealed, draws = rules.sealed(state), getattr(getattr(state, "rng", None), "draws", None)
            rules.apply(state, seat, action)
            if getattr(getattr(state, "rng", None), "draws", None) != draws:
                assert rules.sealed(state) != sealed, (players, action)
            assert rules.sealed(rules.load(rules.dump(state))) == rules.sealed(state), "a copy seals the same"
            json.dumps(rules.sealed(state))  # plain data
