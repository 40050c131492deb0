"""Undo at the service level, for every game: the store after an undo is what the torture checks
expect (log versions with one gap per undo, the snapshot equals the replay of the moves that
stand, the public version equals the one the log implies), exports show what was taken back and
still replay, and play goes on (a second undo included).  Also: places written when a game ends.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path
from typing import Any

import pytest

from benchmarks.torture_common import USER_BASE, check_game, open_services
from bot.games import REGISTRY
from bot.services.export import export_game, replay_export, standing, story_series_of
from bot.services.lobby import LobbyService
from bot.services.sessions import Refusal, SessionService
from bot.services.undo import Asked, Undone, UndoService, plan_undo
from bot.storage import UNDONE, UNDONE_WITH
from bot.storage.codes import GameStatus
from rules.core import Action
from rules.play import random_playthrough, story_series
from tests.bot.services.test_undo_rule import last_public, logged

GAMES = tuple(entry.name for entry in REGISTRY)
"""Every registered game, the test-only ones included (they have the host's hidden-move patterns)."""


def find_undoable(
    name: str, *, want_dropped: bool
) -> tuple[int, int, dict[str, Any], list[tuple[int, Action]]]:
    """A seeded random game cut where the last public move may be taken back (with hidden moves
    after it that no longer fit, when asked and the game has such)."""
    entry = REGISTRY.get(name)
    assert entry is not None
    rules = entry.rules
    fallback = None
    for seed in range(40):
        players = max(2, rules.min_players) + seed % (rules.max_players - max(2, rules.min_players) + 1)
        run = random_playthrough(rules, players, seed, stop_after=250)
        chooser = random.Random(seed)
        for cut in sorted({chooser.randint(1, len(run.log)) for _ in range(15)}):
            log = run.log[:cut]
            index = last_public(rules, players, run.options, seed, log)
            if index is None:
                continue
            try:
                plan = plan_undo(rules, players, dict(run.options), seed, logged(log), log[index][0])
            except Refusal:
                continue
            found = (seed, players, dict(run.options), log)
            if plan.dropped or not want_dropped:
                return found
            fallback = fallback or found
    assert fallback is not None, f"{name}: nothing could be taken back"
    return fallback


async def play_in(
    sessions: SessionService,
    lobby: LobbyService,
    name: str,
    seed: int,
    players: int,
    options: dict[str, Any],
    log: list[tuple[int, Action]],
) -> int:
    options_text = " ".join(f"{key}={value}" for key, value in options.items()) or None
    live = await lobby.create(
        game=name,
        options_text=options_text,
        host_id=USER_BASE,
        host_name="p0",
        guild_id=1,
        channel_id=1,
        language="en",
    )
    for seat in range(1, players):
        await lobby.join(live.id, USER_BASE + seat, f"p{seat}")
    game = await lobby.start(live.id, USER_BASE, seed=seed)
    for seat, action in log:
        await sessions.act(game.id, USER_BASE + seat, action, version=None)
    return game.id


async def take_back(undo: UndoService, sessions: SessionService, game_id: int) -> Undone:
    game = await sessions.load(game_id)
    entries = await sessions.store.log.load_log(game_id)
    moves = [(e.seat, e.action) for e in entries if not e.undone]
    assert game.row.seed is not None
    # The asker is the seat of the last public move (what plan_undo finds).
    index = last_public(game.entry.rules, len(game.seats), game.row.options, game.row.seed, moves)
    assert index is not None
    seat = moves[index][0]
    result = await undo.ask(game_id, USER_BASE + seat, game.public_version)
    if isinstance(result, Asked):
        for other in sorted(result.others):
            answered = await undo.answer(game_id, USER_BASE + other, result.request.version, accept=True)
        assert answered.undone is not None
        return answered.undone
    return result


async def assert_consistent(services: Any, game_id: int) -> None:
    row = await services.store.games.fetch_game(game_id)
    fresh = SessionService(services.store, REGISTRY)
    found = await check_game(services.store, fresh, row, await services.store.log.load_actions(game_id))
    assert found.problems == [], found.problems


@pytest.mark.parametrize("name", GAMES)
async def test_an_undo_leaves_a_store_the_torture_checks_accept(store_target: str | Path, name: str) -> None:
    seed, players, options, log = find_undoable(name, want_dropped=True)
    services = await open_services(store_target)
    try:
        undo = UndoService(services.sessions)
        game_id = await play_in(services.sessions, services.lobby, name, seed, players, options, log)
        before = await services.store.games.fetch_game(game_id)
        assert before is not None
        done = await take_back(undo, services.sessions, game_id)
        after = await services.store.games.fetch_game(game_id)
        assert after is not None
        assert (after.version, after.public_version) == (before.version + 1, before.public_version + 1)
        entries = await services.store.log.load_log(game_id)
        assert [e.version for e in entries if e.undone == UNDONE] == [done.target.version]
        assert sorted(e.version for e in entries if e.undone == UNDONE_WITH) == sorted(done.dropped)
        await assert_consistent(services, game_id)
        # History (Catch me up, the table's lines) numbers public versions as they were stored.
        steps = await services.sessions.history(game_id)
        assert len(steps) == len(entries) - 1 - len(done.dropped)
        # Play goes on, and a second undo keeps everything consistent.
        game = await services.sessions.load(game_id)
        rules = game.entry.rules
        chooser = random.Random(seed)
        for _ in range(6):
            if game.status != "active":
                break
            seat = chooser.choice(sorted(game.waiting()))
            action = chooser.choice(rules.legal_actions(game.state, seat))
            game = (await services.sessions.act(game_id, USER_BASE + seat, action, version=None)).game
        await assert_consistent(services, game_id)
        with contextlib.suppress(Refusal):  # the last move may have revealed something (a roll)
            await take_back(undo, services.sessions, game_id)
        await assert_consistent(services, game_id)
        # The export shows the moves taken back and replays to the stored snapshot.
        await services.store.games.set_status(game_id, GameStatus.FINISHED, reason=None, now=0)
        data = await export_game(services.store, game_id)
        marked = [item for item in data["actions"] if len(item) > 2 and item[2].get("undone")]
        assert len(marked) == sum(1 for e in await services.store.log.load_log(game_id) if e.undone)
        assert replay_export(data, REGISTRY).matches
    finally:
        await services.store.close()


async def test_an_export_says_which_move_the_timer_made(store_target: str | Path) -> None:
    services = await open_services(store_target)
    try:
        seed, players, options, log = find_undoable("toy", want_dropped=False)
        game_id = await play_in(services.sessions, services.lobby, "toy", seed, players, options, log[:3])
        first = (await services.store.log.load_log(game_id))[0].version
        await services.store._write(
            "UPDATE actions SET how = 'timeout' WHERE game_id = ? AND version = ?", (game_id, first)
        )
        await services.store.games.set_status(game_id, GameStatus.FINISHED, reason=None, now=0)
        data = await export_game(services.store, game_id)
        assert data["actions"][0][2] == {"how": "timeout"} and all(
            len(item) == 2 for item in data["actions"][1:]
        )
        assert replay_export(data, REGISTRY).matches
    finally:
        await services.store.close()


@pytest.mark.parametrize("name", ["california", "estates"])
async def test_an_export_carries_the_story_of_the_moves_that_stand(
    store_target: str | Path, name: str
) -> None:
    """``/game export`` (the lobby's) carries the public story, so far for a game still running and
    whole for a finished one; a move taken back is no part of it."""
    seed, players, options, log = find_undoable(name, want_dropped=False)
    services = await open_services(store_target)
    try:
        entry = REGISTRY.get(name)
        assert entry is not None and entry.story is not None
        game_id = await play_in(services.sessions, services.lobby, name, seed, players, options, log)
        await take_back(UndoService(services.sessions), services.sessions, game_id)
        data = await services.lobby.export(game_id)
        standing_moves = standing(data["actions"])
        assert len(standing_moves) < len(data["actions"])
        expected = story_series(entry.rules, entry.story, players, data["options"], seed, standing_moves)
        assert data["story"]["lower_leads"] is False
        assert data["story"]["moves"][0] == 0 and data["story"]["moves"][-1] == len(standing_moves)
        assert story_series_of(data["story"]) == expected
        # Played to the end, the story ends on the final scores.
        game = await services.sessions.load(game_id)
        chooser = random.Random(seed)
        while game.status == "active":
            seat = chooser.choice(sorted(game.waiting()))
            action = chooser.choice(entry.rules.legal_actions(game.state, seat))
            game = (await services.sessions.act(game_id, USER_BASE + seat, action, version=None)).game
        outcome = game.outcome()
        assert outcome is not None
        finished = await services.lobby.export(game_id)
        assert story_series_of(finished["story"])[-1] == list(outcome.scores)
        # Without the registry (the command line's export), there is no story to tell.
        assert "story" not in await export_game(services.store, game_id)
    finally:
        await services.store.close()


async def test_places_are_written_when_a_game_ends(store_target: str | Path) -> None:
    services = await open_services(store_target)
    try:
        rules = REGISTRY.get("toy")
        assert rules is not None
        run = random_playthrough(rules.rules, 2, 5, options={"target": 5})
        game_id = await play_in(services.sessions, services.lobby, "toy", 5, 2, {"target": 5}, run.log)
        game = await services.sessions.load(game_id)
        outcome = game.outcome()
        assert game.status == "finished" and outcome is not None
        rows = await services.store._fetch(
            "SELECT seat, rank FROM seats WHERE game_id = ? ORDER BY seat", (game_id,)
        )
        assert [int(r[1]) for r in rows] == list(outcome.ranks)
        assert await services.store.games.list_unranked_games(None) == []
    finally:
        await services.store.close()
