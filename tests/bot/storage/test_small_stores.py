"""The small stores are one database: a move written through ``store.log`` moves the game row,
appends to the log and re-plans the waits in one transaction, on SQLite and PostgreSQL, so a
failure anywhere inside it leaves all three as they were (the seams between the stores are not
seams between transactions)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import bot.storage.log
from bot.storage import GameStatus, Store, WaitChanges, WaitContext, WaitPlanner
from bot.storage.base import Connection
from bot.storage.waits import apply_waits
from rules.core import Action
from tests.bot.services.test_scheduler import T0, FakeClock, Host, build, table, waited_seat


class Planted(Exception):
    """The failure planted partway through the move's transaction."""


@pytest.fixture
async def host(store_target: str | Path) -> AsyncIterator[Host]:
    store = await Store.open(store_target)
    yield build(store, FakeClock())
    await store.close()


def nobody_waited_on(context: WaitContext) -> WaitChanges:
    """A plan that drops every wait: a visible change to the waits if it were ever committed."""
    return WaitChanges(since=T0 + 60)


@pytest.mark.parametrize("where", ["planning", "writing_waits"])
async def test_a_move_that_fails_partway_leaves_the_game_the_log_and_the_waits_as_they_were(
    host: Host, monkeypatch: pytest.MonkeyPatch, where: str
) -> None:
    game = await table(host, remind=24, timer=48)
    seat = waited_seat(game)
    store = host.store
    row = await store.games.fetch_game(game.id)
    log, waits = await store.log.load_log(game.id), await store.waits.fetch_waits(game.id)
    assert row is not None and waits, "the table waits on its first player"

    def failing_plan(context: WaitContext) -> WaitChanges:
        raise Planted("the planner failed after the game row was updated")

    async def apply_then_fail(db: Connection, game_id: int, changes: WaitChanges) -> None:
        await apply_waits(db, game_id, changes)  # the game row, the log row and the waits are written
        raise Planted("the transaction failed after its last statement")

    plan = failing_plan if where == "planning" else nobody_waited_on
    if where == "writing_waits":
        monkeypatch.setattr(bot.storage.log, "apply_waits", apply_then_fail)

    async def move(planner: WaitPlanner) -> int:
        return await store.log.record_action(
            game.id,
            expected_version=row.version,
            seat=seat,
            user_id=game.seats[seat].user_id,
            action=Action("add", (1,)),
            snapshot="{}",
            status=GameStatus.ACTIVE,
            public_version=row.public_version + 1,
            now=T0 + 60,
            waits=planner,
        )

    with pytest.raises(Planted):
        await move(plan)
    assert await store.games.fetch_game(game.id) == row, "the game row did not move"
    assert await store.log.load_log(game.id) == log, "no log row"
    assert await store.waits.fetch_waits(game.id) == waits, "the waits did not change"

    # The same move, not failing, commits all three: the version guard was never moved.
    monkeypatch.undo()
    assert await move(nobody_waited_on) == row.version + 1
    after = await store.games.fetch_game(game.id)
    assert after is not None and after.version == row.version + 1
    assert [entry.version for entry in await store.log.load_log(game.id)] == [
        *(entry.version for entry in log),
        row.version + 1,
    ]
    assert await store.waits.fetch_waits(game.id) == []
