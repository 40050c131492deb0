"""The session service: who may act, stale versions, races, and broken games."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path

import pytest

from bot.core.i18n import shipped
from bot.core.registry import GameEntry, Registry
from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import Applied, LiveGame, Refusal, SessionService
from bot.storage import Store, VersionConflict
from bot.storage.codes import GameStatus
from harness.toygame.cog import ToyPresenter
from harness.toygame.renderer import render as toy_render
from harness.toygame.rules import ToyRules, ToyState
from rules.core import Action, Event, IllegalAction
from rules.play import canonical
from tests.bot.services.kit import ANA, BOB, EVE, on_turn, started

CATALOG = shipped()


async def open_lobby(
    lobby: LobbyService, game: str, options: str | None = None, language: str = "en"
) -> LiveGame:
    """A new table opened by ana in guild 1."""
    return await lobby.create(
        game=game,
        options_text=options,
        host_id=ANA,
        host_name="ana",
        guild_id=1,
        channel_id=2,
        language=language,
    )


async def test_two_presses_of_the_same_button_apply_exactly_once(
    services: tuple[SessionService, LobbyService],
) -> None:
    sessions, lobby = services
    game = await started(lobby)
    user, version = on_turn(game), game.version
    results = await asyncio.gather(
        sessions.act(game.id, user, Action("add", (2,)), version=version),
        sessions.act(game.id, user, Action("add", (2,)), version=version),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, BaseException)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refused) == 1
    assert refused[0].key == "host.refuse.stale"
    assert [v for v, _, _ in await sessions.store.log.load_actions(game.id)] == [1]
    assert game.state.total == 2


async def test_an_any_time_move_outlasts_the_turn_moving_on(
    services: tuple[SessionService, LobbyService],
) -> None:
    """A knock means the same all race long (its fingerprint): drawn before the player on turn
    added, it is still taken, not refused as stale."""
    sessions, lobby = services
    game = await started(lobby)
    version = game.public_version
    mover = on_turn(game)
    knocker = ANA if mover == BOB else BOB
    await sessions.act(game.id, mover, Action("add", (1,)), version=version)
    applied = await sessions.act(game.id, knocker, Action("knock"), version=version)
    assert applied.action == Action("knock") and game.state.knocked.count(True) == 1


async def test_racing_players_one_wins_the_other_is_told(
    services: tuple[SessionService, LobbyService],
) -> None:
    sessions, lobby = services
    game = await started(lobby)
    version = game.version
    mover = on_turn(game)
    # Two clicks for the turn's move, both drawn from the same board (a double click on two
    # buttons): the turn's moves have no fingerprint, so the second is stale.
    results = await asyncio.gather(
        sessions.act(game.id, mover, Action("add", (1,)), version=version),
        sessions.act(game.id, mover, Action("add", (2,)), version=version),
        return_exceptions=True,
    )
    applied = [r for r in results if isinstance(r, Applied)]
    refused = [r for r in results if isinstance(r, Refusal)]
    assert len(applied) == 1 and len(refused) == 1, results
    # The first changes what others see, so the other one was drawn for a board that moved on.
    assert refused[0].key == "host.refuse.stale"
    assert refused[0].params == {}
    winner = applied[0]
    assert (winner.version, game.version, game.public_version) == (1, 1, 1)
    logged = await sessions.store.log.load_actions(game.id)
    assert [(v, a) for v, _, a in logged] == [(1, winner.action)], "exactly one action was applied"
    assert game.state.total == winner.action.args[0] and game.state.knocked == [False, False]
    row = await sessions.store.games.fetch_game(game.id)
    assert row is not None and row.snapshot == canonical(game.entry.rules.dump(game.state))


async def test_out_of_turn_action_without_version_is_accepted(
    services: tuple[SessionService, LobbyService],
) -> None:
    sessions, lobby = services
    game = await started(lobby)
    idle = ANA if on_turn(game) == BOB else BOB
    applied = await sessions.act(game.id, idle, Action("knock"), version=None)
    assert [e.kind for e in applied.events] == ["knocked", "peeked"]
    assert applied.events[1].visible_to == frozenset({game.seat_of(idle)})


async def test_refusals_change_nothing(services: tuple[SessionService, LobbyService]) -> None:
    sessions, lobby = services
    game = await started(lobby)
    before = (game.version, game.state.total)
    with pytest.raises(Refusal) as stranger:
        await sessions.act(game.id, EVE, Action("add", (1,)), version=0)
    assert stranger.value.key == "host.refuse.not_seated"
    idle = ANA if on_turn(game) == BOB else BOB
    with pytest.raises(IllegalAction) as turn:
        await sessions.act(game.id, idle, Action("add", (1,)), version=0)
    assert turn.value.key == "not_your_turn"
    with pytest.raises(Refusal) as stale:
        await sessions.act(game.id, on_turn(game), Action("add", (1,)), version=5)
    assert stale.value.key == "host.refuse.stale"
    with pytest.raises(IllegalAction) as amount:
        await sessions.act(game.id, on_turn(game), Action("add", (9,)), version=0)
    assert (amount.value.key, amount.value.params) == ("add_range", {"amount": 9})
    assert (game.version, game.state.total) == before
    assert await sessions.store.log.load_actions(game.id) == []
    with pytest.raises(Refusal) as missing:
        await sessions.act(999, ANA, Action("add", (1,)), version=0)
    assert missing.value.key == "host.refuse.no_game"


async def test_lobby_rules(services: tuple[SessionService, LobbyService]) -> None:
    _, lobby = services
    game = await open_lobby(lobby, "toy")
    with pytest.raises(Refusal) as twice:
        await lobby.join(game.id, ANA, "ana")
    assert twice.value.key == "host.refuse.already_seated"
    await lobby.join(game.id, BOB, "bob")
    with pytest.raises(Refusal) as not_host:
        await lobby.start(game.id, BOB)
    assert not_host.value.key == "host.refuse.host_only"
    with pytest.raises(Refusal) as host_leaves:
        await lobby.leave(game.id, ANA)
    assert host_leaves.value.key == "host.refuse.host_cannot_leave"
    await lobby.leave(game.id, BOB)
    for extra in range(3):
        await lobby.join(game.id, 200 + extra, f"p{extra}")
    with pytest.raises(Refusal) as full:
        await lobby.join(game.id, 300, "late")
    assert full.value.key == "host.refuse.table_full"
    with pytest.raises(Refusal) as unknown:
        await open_lobby(lobby, "chess")
    assert unknown.value.key == "host.refuse.unknown_game"
    for bad, key in (
        ("target=2", "host.bad_option.range"),
        ("target=lots", "host.bad_option.whole_number"),
        ("speed=3", "host.bad_option.unknown"),
        ("target", "host.bad_option.written"),
    ):
        with pytest.raises(Refusal) as options:
            await open_lobby(lobby, "toy", bad)
        assert options.value.key == key
        assert CATALOG.has(key, "en") and CATALOG.has(key, "fr")


async def test_options_that_do_not_go_together_are_refused_before_the_table_opens(
    services: tuple[SessionService, LobbyService],
) -> None:
    """Last Will's employment needs its expansion: each option is valid alone, so only a dry deal
    finds the clash, and finding it at Start would leave a table that can never begin."""
    sessions, lobby = services
    with pytest.raises(Refusal) as clash:
        await open_lobby(lobby, "lastwill", "expansion=off employment=none", language="fr")
    assert clash.value.key == "lastwill.bad_option.needs_expansion"
    assert CATALOG.text(clash.value.key, "fr", **clash.value.params) == (
        "L'option employment=none demande l'extension Getting the Sack : retirez-la ou mettez expansion=on."
    )
    assert await sessions.store.games.list_games(guild_id=1) == []


async def test_player_count_is_checked_at_start(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    sessions = SessionService(store, REGISTRY)
    lobby = LobbyService(sessions)
    try:
        game = await open_lobby(lobby, "toy")
        started_game = await lobby.start(game.id, ANA, seed=3)  # the toy game allows a single player
        assert started_game.status == "active"
        with pytest.raises(Refusal) as again:
            await lobby.start(game.id, ANA)
        assert again.value.key == "host.refuse.lobby_closed"
    finally:
        await store.close()


async def test_cache_survives_a_fresh_service(services: tuple[SessionService, LobbyService]) -> None:
    sessions, lobby = services
    game = await started(lobby)
    await sessions.act(game.id, on_turn(game), Action("add", (3,)), version=0)
    fresh = SessionService(sessions.store, REGISTRY)
    reloaded = await fresh.load(game.id)
    assert reloaded.version == 1 and reloaded.state.total == 3
    assert reloaded.names == ["ana", "bob"]


async def test_the_cache_is_bounded_and_reloads_evicted_games(store_target: str | Path) -> None:
    store = await Store.open(store_target)
    sessions = SessionService(store, REGISTRY, cache_size=3)
    lobby = LobbyService(sessions)
    try:
        games = [await started(lobby, seed=s) for s in range(6)]
        assert sessions.cached() <= 3
        first = games[0]
        reloaded = await sessions.load(first.id)
        assert reloaded is not first and reloaded.state.total == first.state.total
        await sessions.act(first.id, on_turn(reloaded), Action("add", (1,)), version=0)
        assert (await sessions.load(first.id)).version == 1
    finally:
        await store.close()


async def test_private_actions_keep_the_public_version(services: tuple[SessionService, LobbyService]) -> None:
    sessions, lobby = services
    game = await started(lobby)
    idle = ANA if on_turn(game) == BOB else BOB
    applied = await sessions.act(game.id, idle, Action("reroll"), version=0)
    assert not applied.public and [e.visible_to for e in applied.events] == [frozenset({game.seat_of(idle)})]
    assert (game.version, game.public_version) == (1, 0)
    applied = await sessions.act(game.id, on_turn(game), Action("add", (1,)), version=0)
    assert applied.public and (game.version, game.public_version) == (2, 1)
    reloaded = await SessionService(sessions.store, REGISTRY).load(game.id)
    assert (reloaded.version, reloaded.public_version) == (2, 1)


async def test_a_version_1_database_is_migrated(tmp_path: Path) -> None:
    import sqlite3

    from bot.storage.base import SQLITE, migrations

    scripts = migrations(SQLITE)
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as db:
        db.executescript(scripts[0][1] + "; PRAGMA user_version = 1;")
        db.execute(
            "INSERT INTO games (game, host_id, status, version, created_at, updated_at) "
            "VALUES ('toy', 1, 'lobby', 7, 0, 0)"
        )
    store = await Store.open(path)
    try:
        assert await store.schema_version() == scripts[-1][0] == len(scripts)
        row = await store.games.fetch_game(1)
        assert row is not None and row.public_version == 7 and row.version == 7
    finally:
        await store.close()


async def test_two_services_on_one_database_cannot_both_commit_the_same_version(
    store_target: str | Path,
) -> None:
    """The store's ``version = ?`` guard stops a writer whose copy is stale, lock or no lock.

    Two services (two processes, or a restart racing the old process) each have their own
    cache and per-game locks, so the session lock cannot serialise them: only the database
    can.  Both load the same game; one commits; the other commits the same version.
    """
    first_store, second_store = await Store.open(store_target), await Store.open(store_target)
    try:
        first, second = SessionService(first_store, REGISTRY), SessionService(second_store, REGISTRY)
        game = await started(LobbyService(first))
        rules = game.entry.rules
        other = await second.load(game.id)
        assert other is not game and (other.version, other.public_version) == (0, 0)
        mover = on_turn(game)
        seat = game.seat_of(mover)
        assert seat is not None

        winner = await first.act(game.id, mover, Action("add", (3,)), version=0)
        assert winner.version == 1
        committed = await first_store.games.fetch_game(game.id)
        assert committed is not None and committed.version == 1

        # The store itself refuses a second commit on top of version 0.
        with pytest.raises(VersionConflict):
            await second_store.log.record_action(
                game.id,
                expected_version=0,
                seat=seat,
                user_id=mover,
                action=Action("add", (1,)),
                snapshot=canonical(rules.dump(other.state)),
                status=GameStatus.ACTIVE,
                public_version=1,
                now=0.0,
            )
        # And the second service, whose cached copy still says version 0, tells the player so.
        assert (other.version, other.public_version) == (0, 0)
        with pytest.raises(Refusal) as refused:
            await second.act(game.id, mover, Action("add", (1,)), version=0)
        assert refused.value.key == "host.refuse.stale"

        assert [(v, a) for v, _, a in await first_store.log.load_actions(game.id)] == [
            (1, Action("add", (3,)))
        ]
        row = await second_store.games.fetch_game(game.id)
        assert row is not None and (row.version, row.public_version) == (1, 1)
        assert row.snapshot == canonical(rules.dump(game.state))
        assert json.loads(row.snapshot)["total"] == 3, "nothing was applied twice"
        # The refused service reloads the committed game and plays on from it.
        reloaded = await second.load(game.id)
        assert (reloaded.version, reloaded.state.total) == (1, 3)
        applied = await second.act(game.id, on_turn(reloaded), Action("add", (1,)), version=1)
        assert (applied.version, applied.game.state.total) == (2, 4)
    finally:
        await first_store.close()
        await second_store.close()


class CrashingRules(ToyRules):
    """The toy game plus ``crash``: an engine bug that changes the state, then raises."""

    name = "toy_crash"

    def apply(self, state: ToyState, seat: int, action: Action) -> list[Event]:
        if action.kind == "crash":
            state.total += 50
            state.points[seat] += 50
            state.turn = (state.turn + 1) % len(state.points)
            raise ZeroDivisionError("a bug half-way through an action")
        return super().apply(state, seat, action)


class CrashingPresenter(ToyPresenter):
    """The toy's presenter under this game's name, as the registry requires."""

    game = CrashingRules.name


async def test_an_engine_error_mid_apply_leaves_the_game_as_it_was(store_target: str | Path) -> None:
    """A bug in an engine costs that one click, never the game: no half-applied state survives.

    The engine changed the state before it raised, so whatever copy the session keeps
    must be the committed one: the player gets "something went wrong", the database and
    the session's view are both the state before the click, and the next move plays on it.
    """
    registry = Registry()
    registry.register(
        GameEntry(rules=CrashingRules(), renderer=toy_render, presenter=CrashingPresenter, hidden=True)
    )
    store = await Store.open(store_target)
    try:
        sessions = SessionService(store, registry)
        lobby = LobbyService(sessions)
        game = await started(lobby, game="toy_crash")
        rules = game.entry.rules
        before = canonical(rules.dump(game.state))
        mover = on_turn(game)

        with pytest.raises(Refusal) as refused:
            await sessions.act(game.id, mover, Action("crash"), version=0)
        assert refused.value.key == "host.refuse.internal"

        row = await store.games.fetch_game(game.id)
        assert row is not None and (row.version, row.public_version, row.status) == (0, 0, "active")
        assert row.snapshot == before and await store.log.load_actions(game.id) == []
        live = await sessions.load(game.id)
        assert canonical(rules.dump(live.state)) == before, "the session kept the half-applied state"
        assert (live.version, live.public_version, live.status) == (0, 0, "active")
        assert live.waiting() == frozenset({live.seat_of(mover)})

        # The same player's next legal move applies to the state as it was before the crash.
        applied = await sessions.act(game.id, mover, Action("add", (2,)), version=0)
        assert applied.version == 1 and applied.game.state.total == 2
        assert applied.game.state.points[applied.seat] == 2
        row = await store.games.fetch_game(game.id)
        assert row is not None and row.snapshot == canonical(rules.dump(applied.game.state))
        assert json.loads(row.snapshot)["total"] == 2
    finally:
        await store.close()
