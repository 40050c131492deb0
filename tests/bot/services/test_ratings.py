"""Ratings: a finished game moves its seats' ratings as openskill says, once, and a rebuild from
the ledger gives the live ratings back, on both backends."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.ratings import MODEL, plan_for, rate, rebuild, recompute
from bot.services.sessions import LiveGame, SessionService, places
from bot.storage import Store
from bot.storage.codes import GameStatus
from bot.storage.ratings import Rating
from bot.storage.rows import GameRow, SeatRow
from harness.toygame.tables import toy_table
from rules.core import Action
from tests.bot.test_cli import cli

GUILD = 1  # toy_table's server
PEOPLE = (501, 502, 503, 504, 505)


async def play_out(sessions: SessionService, game_id: int, rng: random.Random | None = None) -> LiveGame:
    """Play a started toy game to its end: the lowest waited-on seat moves, adding 3 (or, with
    ``rng``, any legal move), so a seeded series of games ends in varied orders."""
    game = await sessions.load(game_id)
    while game.status == GameStatus.ACTIVE:
        seat = min(game.waiting())
        legal = game.entry.rules.legal_actions(game.state, seat)
        if rng is None:
            action = Action("add", (3,)) if Action("add", (3,)) in legal else legal[0]
        else:
            action = rng.choice(legal)
        await sessions.act(game_id, game.user_of(seat), action, version=game.public_version)
        game = await sessions.load(game_id)
    return game


async def key_ratings(store: Store, game: LiveGame) -> dict[str, Rating | None]:
    season = await store.ratings.fetch_season(GUILD)
    keys = [f"u:{s.user_id}" if s.bot is None else f"b:{s.bot}" for s in game.seats]
    return {key: await store.ratings.fetch_rating(GUILD, "toy", season, key) for key in keys}


async def test_a_finished_game_rates_every_seat_as_openskill_does(
    services: tuple[SessionService, LobbyService],
) -> None:
    sessions, lobby = services
    game = await play_out(sessions, (await toy_table(lobby, host=PEOPLE[0], players=3)).id)
    outcome = game.outcome()
    assert outcome is not None
    finals = places(outcome)
    model = PlackettLuce()
    expected = model.rate([[model.rating()] for _ in finals], ranks=[float(p) for p in finals])
    got = await key_ratings(sessions.store, game)
    for seat, place in enumerate(finals):
        rating = got[f"u:{game.user_of(seat)}"]
        assert rating is not None
        assert rating.mu == pytest.approx(expected[seat][0].mu, abs=1e-12)
        assert rating.sigma == pytest.approx(expected[seat][0].sigma, abs=1e-12)
        assert (rating.games, rating.wins) == (1, 1 if place == 1 else 0)
    best = min(range(3), key=lambda s: finals[s])
    worst = max(range(3), key=lambda s: finals[s])
    assert got[f"u:{game.user_of(best)}"].mu > MODEL.mu > got[f"u:{game.user_of(worst)}"].mu  # type: ignore[union-attr]
    ledger = await sessions.store.ratings.fetch_rated_game(game.id)
    assert ledger is not None and ledger.seq == 1 and ledger.season == 1
    assert [s.place for s in ledger.seats] == finals
    assert all(s.before is None for s in ledger.seats)


async def test_the_second_game_starts_from_the_first_games_ratings(
    services: tuple[SessionService, LobbyService],
) -> None:
    sessions, lobby = services
    first = await play_out(sessions, (await toy_table(lobby, host=PEOPLE[0], seed=3)).id)
    after_first = await key_ratings(sessions.store, first)
    second = await play_out(sessions, (await toy_table(lobby, host=PEOPLE[0], seed=4)).id)
    ledger = await sessions.store.ratings.fetch_rated_game(second.id)
    assert ledger is not None and ledger.seq == 2
    assert {s.player: s.before for s in ledger.seats} == after_first
    outcome = second.outcome()
    assert outcome is not None
    keys = [s.player for s in ledger.seats]
    assert await key_ratings(sessions.store, second) == rate(keys, places(outcome), after_first)  # type: ignore[arg-type]


async def test_an_abandoned_game_is_never_rated(services: tuple[SessionService, LobbyService]) -> None:
    sessions, lobby = services
    game = await toy_table(lobby, host=PEOPLE[0])
    seat = min(game.waiting())
    await sessions.act(game.id, game.user_of(seat), Action("add", (3,)), version=game.public_version)
    await lobby.close(game.id, PEOPLE[0], moderator=False, status="abandoned", reason="abandoned_by:h")
    assert await sessions.store.ratings.fetch_rated_game(game.id) is None
    assert await sessions.store.ratings.list_ratings() == []
    assert (await rebuild(sessions.store, write=False)).games == 0


async def test_bots_are_rated_under_their_level_apart_from_people(
    services: tuple[SessionService, LobbyService],
) -> None:
    sessions, lobby = services
    made = await lobby.create(
        game="toy",
        options_text="target=9",
        host_id=PEOPLE[0],
        host_name="h",
        guild_id=GUILD,
        channel_id=1,
        language="en",
    )
    await lobby.add_bot(made.id, PEOPLE[0], "easy", "Bot A")
    await lobby.add_bot(made.id, PEOPLE[0], "easy", "Bot B")
    await lobby.start(made.id, PEOPLE[0], seed=5)
    game = await play_out(sessions, made.id)
    ratings = {r.player: r.rating for r in await sessions.store.ratings.list_ratings()}
    # Two easy bots are one player: one game for the key, never a rating under their user ids.
    assert set(ratings) == {f"u:{PEOPLE[0]}", "b:easy"}
    assert ratings["b:easy"].games == 1
    outcome = game.outcome()
    assert outcome is not None
    bots = [i for i, s in enumerate(game.seats) if s.bot is not None]
    assert ratings["b:easy"].wins == int(any(places(outcome)[i] == 1 for i in bots))


def test_who_is_rated() -> None:
    """At least two seats and at least one person: a lone seat or a table of bots is not rated."""
    row = GameRow(
        7, None, None, None, "toy", {}, 1, GameStatus.FINISHED, 3, None, 1, "en", None, 0.0, 0.0, 3, None
    )
    person, other, bot = SeatRow(0, 11, "a"), SeatRow(1, 12, "b"), SeatRow(1, -1, "B", "normal")
    assert plan_for(row, [person], [1]) is None
    assert plan_for(row, [bot, SeatRow(0, -2, "C", "easy")], [1, 2]) is None
    plan = plan_for(row, [person, bot], [2, 1])
    assert plan is not None and plan.players == ("u:11", "b:normal") and plan.guild_id == 0
    tied = plan_for(row, [person, other], [1, 1])
    assert tied is not None
    after = tied.rate({})
    assert after["u:11"] == after["u:12"] and after["u:11"].wins == 1


async def test_rebuild_equals_live_after_random_games(services: tuple[SessionService, LobbyService]) -> None:
    sessions, lobby = services
    store = sessions.store
    rng = random.Random(28)
    finished = 0
    for n in range(8):
        host = rng.choice(PEOPLE)
        made = await lobby.create(
            game="toy",
            options_text=f"target={rng.randint(6, 15)}",
            host_id=host,
            host_name="h",
            guild_id=GUILD,
            channel_id=1,
            language="en",
        )
        for user in rng.sample([p for p in PEOPLE if p != host], rng.randint(0, 2)):
            await lobby.join(made.id, user, "p")
        if rng.random() < 0.5:
            await lobby.add_bot(made.id, host, rng.choice(["easy", "normal"]), "Bot")
        if len((await sessions.load(made.id)).seats) < 2:
            await lobby.join(made.id, host + 1000, "late")
        await lobby.start(made.id, host, seed=n)
        if n == 5:
            await lobby.close(made.id, host, moderator=False, status="abandoned", reason="abandoned_by:h")
            continue
        await play_out(sessions, made.id, rng)
        finished += 1
    live = await store.ratings.list_ratings()
    ledger = await store.ratings.list_rated_games()
    assert len(ledger) == finished and [g.seq for g in ledger] == list(range(1, finished + 1))
    rebuilt = recompute(ledger, [], {})
    assert rebuilt.games == ledger
    assert [(r.player, r.rating) for r in rebuilt.ratings] == [(r.player, r.rating) for r in live]
    report = await rebuild(store, write=False)
    assert (report.differences, report.games, report.unrated) == ([], finished, 0)

    # Games that ended before ratings existed: rated only by a rebuild that writes, in end order,
    # which gives exactly what the live path gave.
    async with store.database.transaction() as con:
        await con.execute("DELETE FROM ratings")
        await con.execute("DELETE FROM rated_games")
    report = await rebuild(store, write=False)
    assert (report.unrated, len(report.differences)) == (finished, len({(r.player) for r in live}))
    assert await store.ratings.list_ratings() == []
    await rebuild(store, write=True)
    restored = await store.ratings.list_ratings()
    assert [(r.player, r.rating) for r in restored] == [(r.player, r.rating) for r in live]
    assert [(g.game_id, g.seats) for g in await store.ratings.list_rated_games()] == [
        (g.game_id, g.seats) for g in ledger
    ]
    assert (await rebuild(store, write=False)).differences == []


async def test_rebuild_reports_a_tampered_rating_and_write_repairs_it(
    services: tuple[SessionService, LobbyService],
) -> None:
    sessions, lobby = services
    store = sessions.store
    game = await play_out(sessions, (await toy_table(lobby, host=PEOPLE[0])).id)
    good = await key_ratings(store, game)
    async with store.database.transaction() as con:
        await con.execute(
            "UPDATE ratings SET mu = mu + 1, wins = wins + 5 WHERE player = ?", (f"u:{PEOPLE[0]}",)
        )
    report = await rebuild(store, write=False)
    assert [d.player for d in report.differences] == [f"u:{PEOPLE[0]}"]
    assert report.differences[0].rebuilt == good[f"u:{PEOPLE[0]}"]
    await rebuild(store, write=True)
    assert await key_ratings(store, game) == good


async def test_the_cli_rebuild_reports_differences_and_exits_non_zero(tmp_path: Path) -> None:
    db = tmp_path / "db" / "host.sqlite3"
    db.parent.mkdir()
    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        await play_out(sessions, (await toy_table(LobbyService(sessions), host=PEOPLE[0])).id)
        async with store.database.transaction() as con:
            await con.execute("UPDATE ratings SET games = 9")
    finally:
        await store.close()
    env = {"GAMEHOST_DB": str(db)}
    done = cli(tmp_path, "ratings", "--rebuild", env=env)
    assert done.returncode == 1, done.stderr
    assert json.loads(done.stdout) == {
        "games": 1,
        "unrated": 0,
        "differences": 2,
        "written": False,
        "ok": False,
    }
    assert done.stderr.count("stored") == 2 and "games 9" in done.stderr
    assert cli(tmp_path, "ratings", "--rebuild", "--write", env=env).returncode == 0
    again = cli(tmp_path, "ratings", "--rebuild", env=env)
    assert again.returncode == 0 and json.loads(again.stdout)["ok"] is True
