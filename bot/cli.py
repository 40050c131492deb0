"""``python -m bot``: run the bot, sync commands, and the offline tools.

The offline tools (simulate, render, export, replay, games) need no token and
no network; their names and outputs are interfaces other tools rely on.
"""

from __future__ import annotations

import argparse
import asyncio
import importlib
import json
import logging
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import Any, TypeVar

from bot.config import ConfigError, Settings, load_settings
from bot.registry import REGISTRY, GameEntry, Registry
from bot.store import GameRow, SeatRow, Store, StoreError
from rules.core import InvalidOptions
from rules.play import random_playthrough

log = logging.getLogger("bot")
T = TypeVar("T")

EXIT_FAILED = 1
EXIT_USAGE = 2


class UsageError(Exception):
    """Bad arguments: printed on stderr, exit code 2."""


def load_plugins(names: str) -> None:
    """Import extra game modules named in ``GAMEHOST_PLUGINS`` (they register themselves)."""
    for name in filter(None, (n.strip() for n in names.split(","))):
        importlib.import_module(name)


def _entry(registry: Registry, name: str, players: int | None = None) -> GameEntry:
    entry = registry.get(name)
    if entry is None:
        names = ", ".join(e.name for e in registry.public()) or "none"
        raise UsageError(f"unknown game {name!r}; games: {names}")
    if players is not None and not entry.rules.min_players <= players <= entry.rules.max_players:
        raise UsageError(
            f"{entry.rules.title} is for {entry.rules.min_players} to {entry.rules.max_players} players, not {players}"
        )
    return entry


def cmd_simulate(args: argparse.Namespace, registry: Registry) -> int:
    entry = _entry(registry, args.game, args.players)
    if args.games < 1:
        raise UsageError("--games must be at least 1")
    actions = 0
    failures = 0
    started = time.perf_counter()
    for index in range(args.games):
        run = random_playthrough(entry.rules, args.players, args.seed + index, max_actions=args.max_actions)
        actions += len(run.log)
        if run.failures:
            failures += len(run.failures)
            for failure in run.failures[:3]:
                print(f"seed {args.seed + index}: {failure}", file=sys.stderr)
    seconds = time.perf_counter() - started
    report = {
        "game": entry.name,
        "players": args.players,
        "games": args.games,
        "actions": actions,
        "seconds": round(seconds, 3),
        "actions_per_second": round(actions / seconds, 1) if seconds > 0 else None,
        "invariant_failures": failures,
    }
    print(json.dumps(report))
    return EXIT_FAILED if failures else 0


def cmd_render(args: argparse.Namespace, registry: Registry) -> int:
    entry = _entry(registry, args.game, args.players)
    run = random_playthrough(entry.rules, args.players, args.seed, stop_after=args.moves, check=False)
    names = [f"Player {seat + 1}" for seat in range(args.players)]
    png = entry.renderer(entry.rules.view(run.state, None), names)
    try:
        Path(args.out).write_bytes(png)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    print(f"wrote {args.out} ({len(png)} bytes) after {len(run.log)} moves")
    return 0


async def _with_store(settings: Settings, work: Callable[[Store], Awaitable[T]]) -> T:
    store = await Store.open(settings.database)
    try:
        return await work(store)
    finally:
        await store.close()


def cmd_export(args: argparse.Namespace, settings: Settings) -> int:
    from bot.export import export_game

    async def work(store: Store) -> dict[str, Any]:
        if await store.game(args.game_id) is None:
            raise UsageError(f"no game {args.game_id} in {settings.database}")
        return await export_game(store, args.game_id)

    data = asyncio.run(_with_store(settings, work))
    print(json.dumps(data, indent=1))
    return 0


def cmd_replay(args: argparse.Namespace, registry: Registry) -> int:
    from bot.export import replay_export

    try:
        data = json.loads(Path(args.file).read_text(encoding="utf-8"))
        report = replay_export(data, registry)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise UsageError(f"cannot replay {args.file}: {exc}") from None
    print(
        json.dumps(
            {
                "game": report.game,
                "actions": report.actions,
                "matches": report.matches,
                "detail": report.detail,
            }
        )
    )
    return 0 if report.matches else EXIT_FAILED


def cmd_games(settings: Settings) -> int:
    async def work(store: Store) -> list[tuple[GameRow, list[SeatRow]]]:
        return [(row, await store.seats(row.id)) for row in await store.games()]

    rows = asyncio.run(_with_store(settings, work))
    print(f"{'id':>5}  {'game':<12} {'status':<10} {'players':<40} last move")
    for row, seats in rows:
        # The last *public* move: a hidden one (a stow) leaves no time anywhere.
        last = row.public_at
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(last)) if last else "-"
        names = ", ".join(s.name for s in seats)[:40]
        print(f"{row.id:>5}  {row.game:<12} {row.status:<10} {names:<40} {when}")
    return 0


def cmd_run(settings: Settings, registry: Registry, *, sync_only: bool = False) -> int:
    from bot.client import GameBot

    token = settings.require_token()

    async def check_db() -> None:
        store = await Store.open(settings.database)
        await store.close()

    try:
        asyncio.run(check_db())
    except StoreError as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USAGE
    bot = GameBot(settings, registry=registry)
    if sync_only:

        async def sync() -> None:
            async with bot:
                await bot.login(token)  # runs setup_hook, which loads every cog into the tree
                synced = await bot.tree.sync()
                print(f"synced {len(synced)} global commands (they may take up to an hour to appear)")

        bot.sync_dev_guild = False
        asyncio.run(sync())
        return 0
    bot.run(token, log_handler=None)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m bot", description="Board game host for Discord.")
    sub = parser.add_subparsers(dest="command")
    sub.add_parser("run", help="start the bot (default)")
    sub.add_parser("sync", help="publish slash commands globally (after an upgrade)")
    sim = sub.add_parser("simulate", help="play random games and check invariants")
    sim.add_argument("game")
    sim.add_argument("--players", type=int, required=True)
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--seed", type=int, default=1)
    sim.add_argument("--max-actions", type=int, default=20_000)
    ren = sub.add_parser("render", help="draw the board after random moves")
    ren.add_argument("game")
    ren.add_argument("--players", type=int, required=True)
    ren.add_argument("--seed", type=int, default=1)
    ren.add_argument("--moves", type=int, default=0)
    ren.add_argument("--out", required=True)
    exp = sub.add_parser("export", help="print a saved game as JSON")
    exp.add_argument("game_id", type=int)
    rep = sub.add_parser("replay", help="replay an exported game and compare")
    rep.add_argument("file")
    sub.add_parser("games", help="list games in the database")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on bad arguments, 0 on --help
        return int(exc.code or 0)
    try:
        settings = load_settings()
    except (ConfigError, StoreError) as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USAGE
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
        stream=sys.stderr,
    )
    # aiosqlite logs every statement with its parameters at DEBUG: game snapshots with
    # hidden money and hands, and the moment of every private move.  Never show those.
    logging.getLogger("aiosqlite").setLevel(logging.INFO)
    load_plugins(settings.plugins)
    command = args.command or "run"
    try:
        if command == "simulate":
            return cmd_simulate(args, REGISTRY)
        if command == "render":
            return cmd_render(args, REGISTRY)
        if command == "replay":
            return cmd_replay(args, REGISTRY)
        if command == "export":
            return cmd_export(args, settings)
        if command == "games":
            return cmd_games(settings)
        return cmd_run(settings, REGISTRY, sync_only=command == "sync")
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except InvalidOptions as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ConfigError, StoreError) as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USAGE
