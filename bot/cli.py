"""``python -m bot``: run the bot, sync commands, and the offline tools.

The offline tools (simulate, render, export, replay, games, migrate, ratings) need no
token and no network (``migrate`` only its database server); their names and
outputs are interfaces other tools rely on.

Every way a command can fail that is not a bug ends with exit code 2 and one
line on stderr that says what to do, never a traceback: a wrong argument, a
setting, a database that cannot be used, a token Discord rejects, no network.

Heavy modules (discord.py, aiohttp, aiosqlite) are imported only by the
commands that use them, so ``--help``, a missing token or a simulation do not
pay for them; the registry is imported up front because the help lists the
games.
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import importlib
import json
import logging
import os
import sys
import time
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from bot.core.config import ConfigError, Settings, load_settings, shard_settings
from bot.core.i18n import DEFAULT_LANGUAGE, available_languages, words
from bot.core.registry import GameEntry, Registry
from bot.games import REGISTRY
from rules.core import InvalidOptions, Rules

if TYPE_CHECKING:
    from bot.storage import GameRow, SeatRow, Store
    from bot.storage.ratings import Rating

log = logging.getLogger("bot")
T = TypeVar("T")

EXIT_FAILED = 1
EXIT_USAGE = 2

SEED_LIMIT = 1 << 64
"""Seeds go through ``rules.rng.Rng``, which keeps 64 bits: a seed outside ``[0, 2**64)`` would
silently deal the same game as another one (-1 is 2**64-1), so such seeds are refused."""

PORTAL = "https://discord.com/developers/applications"


class UsageError(Exception):
    """Bad arguments: printed on stderr after ``error:``, exit code 2."""


class Refused(Exception):
    """The command cannot go on (a setting, the database, Discord, the network).

    Its message is one complete line that names the problem and what to do; it is printed
    as it is on stderr and the exit code is 2.
    """


def load_plugins(names: str) -> None:
    """Import extra game modules named in ``GAMEHOST_PLUGINS`` (they register themselves).

    A name that does not import is a setting to fix, not a crash: it becomes a ``ConfigError``.
    """
    for name in filter(None, (n.strip() for n in names.split(","))):
        try:
            importlib.import_module(name)
        except ImportError as exc:
            raise ConfigError(f"GAMEHOST_PLUGINS names {name!r}, which cannot be imported: {exc}") from None


# -- arguments ----------------------------------------------------------------------------------


def whole_number(minimum: int, limit: int | None = None, why: str = "") -> Callable[[str], int]:
    """An argparse ``type``: an integer from ``minimum`` up to (not including) ``limit``.

    argparse alone takes ``--moves -5`` happily and the command then does something
    meaningless (render 0 moves); this refuses such a value while parsing, with exit
    code 2 and a message naming the option, before any work is done.
    """

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"invalid int value: {text!r}") from None
        if value < minimum or (limit is not None and value >= limit):
            wanted = f"at least {minimum}" if limit is None else f"from {minimum} to {limit - 1}"
            raise argparse.ArgumentTypeError(f"must be {wanted}, not {value}{why}")
        return value

    return parse


def utc_date(text: str) -> float:
    """An argparse ``type``: an ISO date (midnight UTC) or date and time, as a Unix time."""
    import datetime as dt

    try:
        moment = dt.datetime.fromisoformat(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (write YYYY-MM-DD)") from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=dt.UTC)
    return moment.timestamp()


def games_help(registry: Registry) -> str:
    """The public games with their player counts, from the registry so the help never goes stale."""
    entries = registry.public()
    if not entries:
        return "no games are registered"
    return ", ".join(
        f"{e.name} ({e.rules.min_players}-{e.rules.max_players} players)"
        if e.rules.min_players != e.rules.max_players
        else f"{e.name} ({e.rules.min_players} players)"
        for e in entries
    )


def _add_game_arguments(parser: argparse.ArgumentParser, registry: Registry) -> None:
    """GAME, --players and --seed, shared by ``simulate`` and ``render``."""
    parser.add_argument("game", metavar="GAME", help=f"the game to play: {games_help(registry)}")
    parser.add_argument(
        "--players",
        metavar="N",
        type=int,
        required=True,
        help="number of players (required); must be within the game's range",
    )
    parser.add_argument(
        "--seed",
        metavar="S",
        type=whole_number(0, SEED_LIMIT, " (the game keeps 64 bits of its seed)"),
        default=1,
        help="seed of the deal and of the random moves, 0 to 2**64-1 (default %(default)s); "
        "the same seed plays the same game",
    )


def build_parser(registry: Registry = REGISTRY) -> argparse.ArgumentParser:
    """Every command and option, each with a help line (``python -m bot COMMAND --help``)."""
    parser = argparse.ArgumentParser(
        prog="python -m bot",
        description="Board game host for Discord. Without a command, runs the bot, or the sandbox "
        "when DISCORD_TOKEN is not set.",
        epilog=f"Games: {games_help(registry)}. `python -m bot COMMAND --help` describes a command. "
        "Settings (DISCORD_TOKEN, GAMEHOST_DB, ...) come from the environment or .env.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    run = sub.add_parser(
        "run",
        help="start the bot (default)",
        description="Connect to Discord and host games until stopped (Ctrl+C). Needs DISCORD_TOKEN; "
        "opens (or creates) the database GAMEHOST_DB.",
        epilog="Exit code 2, with one line on stderr, when the token is missing or rejected, Discord "
        "cannot be reached, or the database cannot be used. Several processes sharing one "
        "PostgreSQL database each run some shards: --shards 0-3 --shard-count 8 here, 4-7 elsewhere.",
    )
    run.add_argument(
        "--new-database",
        action="store_true",
        help="start with a new, empty database although one was there before (its marker "
        "GAMEHOST_DB.created is there) and has vanished; without it the bot refuses to start",
    )
    run.add_argument(
        "--accept-lost",
        action="store_true",
        help="play on the tables held because a deleted write-ahead log lost moves the bot had "
        "acknowledged (listed in GAMEHOST_DB.lost and in the log); the list is removed",
    )
    run.add_argument(
        "--shards",
        metavar="IDS",
        default="",
        help="the shards this process connects, like 0-3 or 0,2,4 (default: GAMEHOST_SHARDS, else all)",
    )
    run.add_argument(
        "--shard-count",
        metavar="N",
        default="",
        help="how many shards the bot has in all processes together (default: GAMEHOST_SHARD_COUNT)",
    )
    sandbox = sub.add_parser(
        "sandbox",
        help="play in the browser, without Discord (default when no token is set)",
        description="Start the bot in a simulated Discord server (a #games channel, you and three "
        "more members to play hot-seat) and print a 127.0.0.1 address to open in a browser, until "
        "stopped (Ctrl+C). Needs no token; its games are kept in GAMEHOST_SANDBOX_DB, apart from "
        "the real bot's.",
        epilog="Exit code 2, with one line on stderr, when the sandbox's database cannot be used.",
    )
    sandbox.add_argument(
        "--port",
        metavar="N",
        type=whole_number(0, 65536),
        default=0,
        help="the loopback port to serve the page on (default: a free one; the address printed "
        "at start is the one to open)",
    )
    sub.add_parser(
        "sync",
        help="publish slash commands globally (after an upgrade)",
        description="Log in, publish the slash commands globally (they may take up to an hour to "
        "appear), and exit. Needs DISCORD_TOKEN.",
        epilog="Exit code 2, with one line on stderr, when the token is missing or rejected, Discord "
        "cannot be reached, or the database cannot be used.",
    )

    sim = sub.add_parser(
        "simulate",
        help="play random games and check invariants",
        description="Play K random games (seeds S, S+1, ...) checking the game's invariants after "
        "every move (unless --no-check), and print one JSON line: game, players, games, actions, "
        "seconds, actions_per_second, invariant_failures, checked.",
        epilog="Exit code 1 when an invariant failed (the first failures are printed on stderr), 2 on "
        "bad arguments.",
    )
    _add_game_arguments(sim, registry)
    sim.add_argument(
        "--games",
        metavar="K",
        type=whole_number(1),
        default=1,
        help="how many games to play, at least 1 (default %(default)s)",
    )
    sim.add_argument(
        "--max-actions",
        metavar="A",
        type=whole_number(1),
        default=20_000,
        help="a game not over after this many actions counts as a failure (default %(default)s)",
    )
    sim.add_argument(
        "--no-check",
        action="store_true",
        help="skip the invariant checks: the engine's own speed, as bot players' playouts use it "
        "(the report's checked is false)",
    )

    ren = sub.add_parser(
        "render",
        help="draw the board after random moves",
        description="Deal a game, play M random legal moves, and write the board as players see it "
        "to a PNG file.",
    )
    _add_game_arguments(ren, registry)
    ren.add_argument(
        "--moves",
        metavar="M",
        type=whole_number(0),
        default=0,
        help="random moves to play before drawing, 0 or more (default %(default)s); fewer are "
        "played if the game ends first, and the output says how many",
    )
    ren.add_argument(
        "--out", metavar="FILE", required=True, help="PNG file to write (required); its folder must exist"
    )
    ren.add_argument(
        "--language",
        choices=[code for code, _ in available_languages()],
        default=DEFAULT_LANGUAGE,
        help="the table's language, which the board is drawn in (default %(default)s)",
    )

    exp = sub.add_parser(
        "export",
        help="print a saved game as JSON",
        description="Print a game from the database GAMEHOST_DB as JSON: seed, options, players and "
        "every move, enough for `replay`.",
        epilog="Exit code 2 when the database has no such game; a database that does not exist is "
        "not created.",
    )
    exp.add_argument(
        "game_id",
        metavar="GAME_ID",
        type=whole_number(1, why=" (game ids start at 1)"),
        help="the game's id, as `games` lists it",
    )
    rep = sub.add_parser(
        "replay",
        help="replay an exported game and compare",
        description="Replay an export through the rules and print one JSON line: game, actions, "
        "matches, detail.",
        epilog="Exit code 1 when the replay does not give the saved state back, 2 when the file is "
        "not an export.",
    )
    rep.add_argument("file", metavar="FILE", help="a JSON file written by `export`")
    pru = sub.add_parser(
        "prune",
        help="export old ended games to files and remove them from the database",
        description="Export every game of GAMEHOST_DB that finished or was abandoned before DATE "
        "to FOLDER/game-<id>.json (the JSON of `export`, which `replay` checks), then remove its "
        "moves, snapshot and retired messages, keeping what stats, leaderboards and /game mine "
        "need, and give the space back (SQLite: incremental vacuum; the first run on a file made "
        "before this version rewrites it once with VACUUM, needing its size again in free disk; "
        "PostgreSQL: VACUUM). Safe while the bot runs, and safe to run again. A pruned game can "
        "no longer be shown or exported from the bot. Prints one JSON line: folder, pruned, kept "
        "(ids whose export did not replay: never removed), bytes_before, bytes_after, ok.",
        epilog="Exit code 1 when a game was kept because its export does not replay; 2 when the "
        "date, the database or the folder cannot be used.",
    )
    pru.add_argument(
        "--finished-before",
        metavar="DATE",
        required=True,
        type=utc_date,
        help="prune games that ended before this moment: YYYY-MM-DD (midnight UTC) or an ISO date "
        "and time (UTC unless it says otherwise)",
    )
    pru.add_argument(
        "--out",
        metavar="FOLDER",
        default="exports",
        help="where the exports go (default: %(default)s, created when missing)",
    )
    rat = sub.add_parser(
        "ratings",
        help="check (and rebuild) the ratings from the rated games",
        description="Recompute every rating of GAMEHOST_DB from its rated games, in the order they "
        "were rated (games that finished before ratings existed first, in the order they ended), "
        "and compare with the stored ratings. Each difference goes to stderr; stdout gets one "
        "JSON line: games, unrated (finished games not rated yet), differences, written, ok. "
        "With --write the rebuilt ratings replace the stored ones (and the unrated games are "
        "rated). Safe to run again.",
        epilog="Exit code 1 when a stored rating differs from the rebuilt one and --write was not "
        "given; 2 when the database cannot be used.",
    )
    rat.add_argument(
        "--rebuild",
        action="store_true",
        required=True,
        help="recompute every rating from the rated games and compare",
    )
    rat.add_argument("--write", action="store_true", help="replace the stored ratings with the rebuilt ones")
    sub.add_parser(
        "health",
        help="check the database and print one JSON line",
        description="Open the database GAMEHOST_DB and print one JSON line: whether it can be reached, "
        "its schema version, open tables, the oldest deadline already due (a scheduler that fell "
        "behind), and the shards this process would run.",
        epilog="Exit code 0 when healthy, 1 when the database cannot be used (the line says why).",
    )
    sub.add_parser(
        "games",
        help="list games in the database",
        description="List the games in the database GAMEHOST_DB: id, game, status, players, last "
        "move. A database that does not exist has no games, and is not created.",
    )
    mig = sub.add_parser(
        "migrate",
        help="copy every game to another database (PostgreSQL)",
        description="Copy every table (games, logs, snapshots, messages, waits, settings) from the "
        "database GAMEHOST_DB to another one, then replay every running and finished game there "
        "and compare it with its stored snapshot. Stop the bot first. Safe to run again: rows "
        "already copied are skipped, so a second run copies nothing and an interrupted one is "
        "finished. Progress goes to stderr; stdout gets one JSON line: source, target, games, "
        "rows (written per table), verified, failed (game ids), ok.",
        epilog="Exit code 1 when a game does not replay on the target; 2, with one line on stderr, "
        "when a database cannot be used or the target already holds different rows for a game "
        "(it was played on: nothing is overwritten; migrate into an empty database instead).",
    )
    mig.add_argument(
        "--to",
        metavar="TARGET",
        required=True,
        help="the database to fill (required): a postgresql://user:password@host/name URL, or a "
        "SQLite file (a path or sqlite:///path); its tables are created when missing",
    )
    mig.add_argument(
        "--from",
        dest="source",
        metavar="SOURCE",
        help="the database to copy from, a SQLite file or a postgresql:// URL (default: "
        "GAMEHOST_DB); it must exist",
    )
    return parser


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


# -- offline tools ------------------------------------------------------------------------------


def cmd_simulate(args: argparse.Namespace, registry: Registry) -> int:
    from rules.play import random_playthrough

    entry = _entry(registry, args.game, args.players)
    if args.seed + args.games > SEED_LIMIT:
        raise UsageError(f"--seed {args.seed} with --games {args.games} would need seeds past 2**64-1")
    actions = 0
    failures = 0
    started = time.perf_counter()
    for index in range(args.games):
        run = random_playthrough(
            entry.rules,
            args.players,
            args.seed + index,
            max_actions=args.max_actions,
            check=not args.no_check,
        )
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
        "checked": not args.no_check,
    }
    print(json.dumps(report))
    return EXIT_FAILED if failures else 0


def cmd_render(args: argparse.Namespace, registry: Registry) -> int:
    from rules.play import random_playthrough

    entry = _entry(registry, args.game, args.players)
    run = random_playthrough(entry.rules, args.players, args.seed, stop_after=args.moves, check=False)
    table = words(args.language)
    names = [table("host.image.seat", number=seat + 1) for seat in range(args.players)]
    png = entry.renderer(entry.rules.view(run.state, None), names, table)
    try:
        Path(args.out).write_bytes(png)
    except OSError as exc:
        raise UsageError(f"cannot write {args.out}: {exc.strerror or exc}") from None
    ended = " (the game ended there)" if len(run.log) < args.moves else ""
    print(f"wrote {args.out} ({len(png)} bytes) after {len(run.log)} moves{ended}")
    return 0


def database_exists(path: Path | str) -> bool:
    """Whether the database file is there, without creating anything (a server always is:
    opening it says whether it can be reached).

    Only "not there" is ``False`` (the file or a folder above it is missing): a path that
    cannot be looked at (a regular file where a folder should be, no permission) is a
    setting to fix, so it is refused instead of being reported as "no games".
    """
    if isinstance(path, str):
        return True
    try:
        os.stat(path)
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise Refused(f"Cannot open the database at {path}: {exc.strerror or exc}") from None
    return True


async def _with_store(settings: Settings, work: Callable[[Store], Awaitable[T]]) -> T:
    from bot.storage import Store

    store = await Store.open(settings.database, pool_size=min(settings.db_pool, 2))
    try:
        return await work(store)
    finally:
        await store.close()


def _run_on_store(settings: Settings, work: Callable[[Store], Awaitable[T]]) -> T:
    """Run ``work`` on the opened database; a database that cannot be used becomes ``Refused``."""
    import asyncio

    from bot.storage import StoreError

    try:
        return asyncio.run(_with_store(settings, work))
    except StoreError as exc:
        raise Refused(str(exc)) from None


def cmd_export(args: argparse.Namespace, settings: Settings, registry: Registry) -> int:
    from bot.services.export import export_game

    if not database_exists(settings.database):
        # Opening would create an empty database only to find nothing in it.
        raise UsageError(f"no game {args.game_id} in {settings.database}: there is no database there")

    async def work(store: Store) -> dict[str, Any]:
        row = await store.games.fetch_game(args.game_id)
        if row is None:
            raise UsageError(f"no game {args.game_id} in {settings.database}")
        if row.pruned_at is not None:
            raise UsageError(
                f"game {args.game_id} was pruned: its export is the file game-{args.game_id}.json"
                " that `prune` wrote"
            )
        return await export_game(store, args.game_id, registry)

    data = _run_on_store(settings, work)
    print(json.dumps(data, indent=1))
    return 0


def cmd_replay(args: argparse.Namespace, registry: Registry) -> int:
    from bot.services.export import replay_export

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


def cmd_prune(args: argparse.Namespace, settings: Settings, registry: Registry) -> int:
    from bot.services.prune import prune

    if not database_exists(settings.database):
        raise UsageError(f"nothing to prune: there is no database at {settings.database}")

    async def work(store: Store) -> dict[str, Any]:
        report = await prune(
            store,
            registry,
            ended_before=args.finished_before,
            folder=Path(args.out),
            now=time.time(),
            progress=lambda line: print(line, file=sys.stderr, flush=True),
        )
        return report.as_json()

    try:
        result = _run_on_store(settings, work)
    except OSError as exc:
        raise UsageError(f"cannot write the exports to {args.out}: {exc}") from None
    print(json.dumps(result))
    return 0 if result["ok"] else EXIT_FAILED


def cmd_ratings(args: argparse.Namespace, settings: Settings) -> int:
    from bot.services.ratings import RebuildReport, rebuild

    if not database_exists(settings.database):
        raise UsageError(f"no ratings to rebuild: there is no database at {settings.database}")

    async def work(store: Store) -> RebuildReport:
        return await rebuild(store, write=args.write)

    report = _run_on_store(settings, work)
    for d in report.differences:
        print(
            f"server {d.guild_id} {d.game} season {d.season} {d.player}: stored {_rating_text(d.stored)},"
            f" rebuilt {_rating_text(d.rebuilt)}",
            file=sys.stderr,
        )
    ok = not report.differences
    print(
        json.dumps(
            {
                "games": report.games,
                "unrated": report.unrated,
                "differences": len(report.differences),
                "written": report.written,
                "ok": ok,
            }
        )
    )
    return 0 if ok or report.written else EXIT_FAILED


def _rating_text(rating: Rating | None) -> str:
    if rating is None:
        return "none"
    return f"mu {rating.mu:.6f} sigma {rating.sigma:.6f} games {rating.games} wins {rating.wins}"


def cmd_games(settings: Settings) -> int:
    """The table of games; a database that does not exist is reported, never created.

    ``games`` is how one looks for the database: opening a mistyped ``GAMEHOST_DB``
    used to leave a new empty file (and its folder) behind and report nothing wrong.
    """
    if not database_exists(settings.database):
        print(f"no games: there is no database at {settings.database} (GAMEHOST_DB); nothing was created")
        return 0

    async def work(store: Store) -> list[tuple[GameRow, list[SeatRow]]]:
        return [(row, await store.games.fetch_seats(row.id)) for row in await store.games.list_games()]

    rows = _run_on_store(settings, work)
    if not rows:
        print(f"no games in {settings.database}")
        return 0
    print(f"{'id':>5}  {'game':<12} {'status':<10} {'players':<40} last move")
    for row, seats in rows:
        # The last *public* move: a hidden one (a stow) leaves no time anywhere.
        last = row.public_at
        when = time.strftime("%Y-%m-%d %H:%M", time.gmtime(last)) if last else "-"
        names = ", ".join(s.name for s in seats)[:40]
        print(f"{row.id:>5}  {row.game:<12} {row.status:<10} {names:<40} {when}")
    return 0


def _migration_target(target: str, option: str) -> str:
    """``target`` if ``Store.open`` understands it; any other URL is refused (it would be taken
    for a file name)."""
    from bot.core.urls import is_postgres_url, public_url

    if "://" in target and not is_postgres_url(target) and not target.startswith("sqlite://"):
        raise Refused(
            f"{option} {public_url(target)} is neither a postgresql:// URL nor a SQLite file (a path or sqlite:///path)."
        )
    return target


def cmd_migrate(args: argparse.Namespace, settings: Settings, registry: Registry) -> int:
    """Copy the bot's database to ``--to`` and replay its games there (:mod:`bot.storage.transfer`).

    Progress lines go to stderr, so stdout is the one JSON line a script reads.
    """
    import asyncio

    from bot.core.urls import is_postgres_url
    from bot.storage import Store, StoreError
    from bot.storage.transfer import Diverged, Report, describe, transfer

    source = _migration_target(str(args.source or settings.database), "--from")
    target = _migration_target(args.to, "--to")
    if not is_postgres_url(source) and not database_exists(Path(describe(source))):
        # Opening would create an empty database and copy nothing from it.
        raise Refused(f"There is no database at {describe(source)} to migrate from (GAMEHOST_DB or --from).")
    if describe(source) == describe(target):
        raise Refused(f"--to names the database being copied ({describe(target)}); name another one.")

    def progress(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    def rules_for(name: str) -> Rules[Any] | None:
        entry = registry.get(name)
        return None if entry is None else entry.rules

    async def work() -> Report:
        old = await Store.open(source)
        try:
            new = await Store.open(target)
            try:
                return await transfer(old, new, rules_for, progress=progress)
            finally:
                await new.close()
        finally:
            await old.close()

    try:
        report = asyncio.run(work())
    except (StoreError, Diverged) as exc:
        raise Refused(str(exc)) from None
    print(json.dumps(report.as_json()))
    return 0 if report.ok else EXIT_FAILED


# -- connecting to Discord ----------------------------------------------------------------------


def _one_line(text: str, limit: int = 200) -> str:
    """Collapse whitespace and cut: an HTTP error can carry a whole HTML page."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


NETWORK_ERRNOS = frozenset(
    {
        errno.ENETUNREACH,
        errno.ENETDOWN,
        errno.EHOSTUNREACH,
        errno.EHOSTDOWN,
        errno.ECONNREFUSED,
        errno.ECONNRESET,
        errno.ECONNABORTED,
        errno.ETIMEDOUT,
        errno.EADDRNOTAVAIL,
    }
)


def _network_error(exc: BaseException, client_error: type[Exception]) -> bool:
    """Whether an ``OSError`` is about the network, not a file.

    Both are ``OSError``: a locale file that cannot be read while the bot starts must keep
    its traceback, not be reported as "cannot reach Discord".  ``client_error`` is aiohttp's
    ``ClientError`` (passed in so aiohttp is imported only by ``run`` and ``sync``).
    """
    import socket

    if isinstance(exc, client_error | ConnectionError | TimeoutError | socket.gaierror | socket.herror):
        return True
    return isinstance(exc, OSError) and exc.errno in NETWORK_ERRNOS


def connection_problem(exc: BaseException) -> str | None:
    """The one line to print when connecting to Discord failed in a way a user can fix.

    ``None`` for anything else, which is a bug and keeps its traceback.  discord.py
    itself retries a connection that drops once the bot is running; what reaches here
    is the start-up failing: a token Discord rejects (``LoginFailure``), or no way to
    reach Discord at all (no network, DNS, a firewall: a network ``OSError``, which
    includes aiohttp's ``ClientConnectorError`` and ``TimeoutError``).  The token is never part
    of the message.
    """
    import aiohttp
    import discord

    if isinstance(exc, discord.LoginFailure):
        return (
            f"Discord rejected DISCORD_TOKEN (it was reset, revoked or mistyped). Open {PORTAL}, "
            "Bot > Reset Token, and put the new token in the environment or in .env."
        )
    if isinstance(exc, discord.PrivilegedIntentsRequired):
        return (
            "Discord refused a privileged intent this bot asked for: enable it at "
            f"{PORTAL} under Bot > Privileged Gateway Intents, or turn it off."
        )
    if isinstance(exc, discord.GatewayNotFound):
        return (
            "Cannot reach Discord: its gateway address could not be fetched. Check the network "
            "(and any firewall or proxy), then start again."
        )
    if isinstance(exc, discord.HTTPException):
        answer = f"HTTP {exc.status} {getattr(exc.response, 'reason', None) or ''}".rstrip()
        if exc.text and not exc.text.lstrip().startswith("<"):  # an error page says nothing more
            answer += f": {exc.text}"
        return _one_line(f"Discord refused the request ({answer}). Try again later.")
    if isinstance(exc, discord.ConnectionClosed):
        return f"Discord closed the connection (code {exc.code}). Try again later."
    if _network_error(exc, aiohttp.ClientError):
        detail = str(exc) or type(exc).__name__
        return _one_line(
            f"Cannot reach Discord ({detail}). Check the network (and any firewall or proxy), then start again."
        )
    return None


def check_database(target: Path | str) -> None:
    """Open and close the database before connecting anywhere: a bad ``GAMEHOST_DB`` is refused
    (exit 2, one line) before it costs a login or a sandbox start."""
    import asyncio

    from bot.storage import Store, StoreError

    async def check() -> None:
        store = await Store.open(target, pool_size=1)
        await store.close()

    try:
        asyncio.run(check())
    except StoreError as exc:
        raise Refused(str(exc)) from None


def cmd_health(settings: Settings) -> int:
    """One JSON line for a monitor; exit 1 (and ``"ok": false``) when the database fails."""
    import asyncio

    from bot.storage import StoreError
    from bot.storage.health import check

    report: dict[str, Any]
    if not database_exists(settings.database):
        report = {
            "ok": False,
            "database": {"reachable": False, "error": f"no database at {settings.database}"},
        }
        report["shards"] = None if settings.shards is None else str(settings.shards)
        print(json.dumps(report))
        return EXIT_FAILED
    try:
        report = asyncio.run(_with_store(settings, lambda store: check(store, now=time.time())))
    except StoreError as exc:
        report = {"ok": False, "database": {"reachable": False, "error": str(exc)}}
    report["shards"] = None if settings.shards is None else str(settings.shards)
    print(json.dumps(report))
    return 0 if report["ok"] else EXIT_FAILED


def refuse_vanished(target: Path | str, *, new_database: bool) -> None:
    """Never replace a database that vanished with an empty one without being told (issue 25).

    A SQLite file that was there once leaves its marker (``<path>.created``), and a crash its
    ``-wal``/``-shm``: when these stand without the file, starting would silently create an
    empty database and every table would be gone ("There is no table #1").  Refused, naming the
    path, unless ``new_database``: then the old write-ahead files are moved aside first, since
    SQLite would otherwise replay another database's log into the new file.
    """
    if isinstance(target, str) and not target.startswith("sqlite:"):
        return
    from bot.storage.sqlite import sqlite_path, vanished

    problem = vanished(target)
    if problem is None:
        return
    if not new_database:
        raise Refused(problem)
    name = sqlite_path(target)
    for suffix in ("-wal", "-shm"):
        if os.path.exists(name + suffix):
            aside = f"{name}{suffix}.orphaned-{int(time.time())}"
            os.replace(name + suffix, aside)
            print(f"moved the vanished database's {name + suffix} to {aside}", file=sys.stderr)


def accept_lost(target: Path | str) -> None:
    """The operator has looked at the tables a deleted WAL cost moves: they may be played again."""
    if isinstance(target, str) and not target.startswith("sqlite:"):
        return
    from bot.storage.sqlite import LOST, sqlite_path

    held = Path(sqlite_path(target) + LOST)
    if held.exists():
        print(
            f"accepted the lost moves listed in {held}: {held.read_text(encoding='utf-8')}", file=sys.stderr
        )
        held.unlink()


def cmd_run(
    settings: Settings,
    registry: Registry,
    *,
    sync_only: bool = False,
    new_database: bool = False,
    lost_accepted: bool = False,
) -> int:
    """Start the bot (or only publish its commands), refusing early what cannot work.

    The token is checked before discord.py is even imported, so the README's start
    command answers "DISCORD_TOKEN is not set" at once; the database is checked before
    connecting, so a bad ``GAMEHOST_DB`` never costs a login.
    """
    token = settings.require_token()

    import asyncio

    from bot.storage import StoreError

    refuse_vanished(settings.database, new_database=new_database)
    if lost_accepted:
        accept_lost(settings.database)
    check_database(settings.database)

    import discord

    from bot.client import make_bot

    # The bot has no voice: discord.py's two warnings that voice libraries are missing
    # would only make every start look like something is wrong.
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    bot = make_bot(settings, registry=registry)
    try:
        if sync_only:

            async def sync() -> None:
                async with bot:
                    await bot.login(token)  # runs setup_hook, which loads every cog into the tree
                    synced = await bot.tree.sync()
                    print(f"synced {len(synced)} global commands (they may take up to an hour to appear)")

            bot.sync_dev_guild = False
            asyncio.run(sync())
        else:
            bot.run(token, log_handler=None)
    except StoreError as exc:  # the database failed in setup_hook, after the check above
        raise Refused(str(exc)) from None
    except Exception as exc:
        problem = connection_problem(exc)
        if problem is None:
            raise
        raise Refused(problem) from None
    return 0


# -- the sandbox --------------------------------------------------------------------------------

NO_TOKEN_SANDBOX = (
    "No DISCORD_TOKEN, so this is the sandbox (play in the browser); to host games on Discord, "
    "put a bot token in .env (README: Create the Discord application) and start again."
)


def cmd_sandbox(settings: Settings, registry: Registry, *, port: int = 0) -> int:
    """The bot in a simulated Discord, served to a browser (:mod:`bot.sandbox`).

    Its database is checked first, as ``run`` checks its own, so a bad ``GAMEHOST_SANDBOX_DB`` is
    one line, not a traceback from inside the simulation.
    """
    import asyncio

    import discord

    from bot.storage import StoreError

    # SimCord probes discord.py at import with a client of no intents, whose "Guilds intent seems
    # to be disabled" warning is about that probe, not the bot; voice: as for ``run``.
    state_log = logging.getLogger("discord.state")
    level = state_log.level
    state_log.setLevel(logging.ERROR)
    discord.VoiceClient.warn_nacl = False
    discord.VoiceClient.warn_dave = False
    try:
        from bot import sandbox
    except ImportError as exc:  # simcord[preview] is a dependency: only a broken install gets here
        raise Refused(
            f"The sandbox cannot start ({exc}); reinstall the package (pip install -e .), which "
            "brings SimCord's preview with it."
        ) from None
    finally:
        state_log.setLevel(level)
    config = sandbox.sandbox_settings(settings)

    check_database(config.database)

    def announce(url: str) -> None:
        print(f"Sandbox ready: open {url} in a browser (Ctrl+C stops it).", flush=True)

    try:
        asyncio.run(sandbox.serve(config, announce, port=port, registry=registry))
    except StoreError as exc:
        raise Refused(str(exc)) from None
    except OSError as exc:  # the port is taken, say
        raise Refused(f"The sandbox's page could not be served: {exc}") from None
    except KeyboardInterrupt:  # Ctrl+C while starting, before the page took over the signal
        return 130
    print("Sandbox stopped; its games are kept in " + str(config.database) + ".", flush=True)
    return 0


# -- main ---------------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> int:
    """Parse, then run one command; every expected failure is exit 2 and one line on stderr.

    Settings and plugins are read before the arguments so that ``--help`` lists the
    games that plugins add; a broken setting is reported only after parsing, so
    ``--help`` still works while it is broken.
    """
    problem: ConfigError | None = None
    settings: Settings | None = None
    try:
        settings = load_settings()
    except ConfigError as exc:
        problem = exc
    if settings is not None:
        logging.basicConfig(
            level=settings.log_level,
            format="%(asctime)s %(levelname)s %(name)s: %(message)s",
            stream=sys.stderr,
        )
        # aiosqlite logs every statement with its parameters at DEBUG: game snapshots with
        # hidden money and hands, and the moment of every private move.  Never show those.
        logging.getLogger("aiosqlite").setLevel(logging.INFO)
        try:
            load_plugins(settings.plugins)
        except ConfigError as exc:
            problem = exc
    parser = build_parser(REGISTRY)
    try:
        args = parser.parse_args(argv)
    except SystemExit as exc:  # argparse exits 2 on bad arguments, 0 on --help
        return int(exc.code or 0)
    if problem is not None or settings is None:
        print(str(problem), file=sys.stderr)
        return EXIT_USAGE
    command = args.command or "run"
    try:
        if command == "simulate":
            return cmd_simulate(args, REGISTRY)
        if command == "render":
            return cmd_render(args, REGISTRY)
        if command == "replay":
            return cmd_replay(args, REGISTRY)
        if command == "export":
            return cmd_export(args, settings, REGISTRY)
        if command == "games":
            return cmd_games(settings)
        if command == "prune":
            return cmd_prune(args, settings, REGISTRY)
        if command == "migrate":
            return cmd_migrate(args, settings, REGISTRY)
        if command == "ratings":
            return cmd_ratings(args, settings)
        if command == "health":
            return cmd_health(settings)
        if command == "sandbox":
            return cmd_sandbox(settings, REGISTRY, port=args.port)
        if args.command is None and not settings.token:
            # The README's start command on a machine with no bot yet: show the product at once.
            print(NO_TOKEN_SANDBOX, flush=True)
            return cmd_sandbox(settings, REGISTRY)
        if command == "run" and (getattr(args, "shards", "") or getattr(args, "shard_count", "")):
            settings = dataclasses.replace(
                settings, shards=shard_settings(args.shards, args.shard_count, ("--shards", "--shard-count"))
            )
        return cmd_run(
            settings,
            REGISTRY,
            sync_only=command == "sync",
            new_database=bool(getattr(args, "new_database", False)),
            lost_accepted=bool(getattr(args, "accept_lost", False)),
        )
    except InvalidOptions as exc:
        from bot.services.lobby import options_refusal

        refusal = options_refusal(str(getattr(args, "game", "")), exc)
        print(f"error: {words()(refusal.key, **refusal.params)}", file=sys.stderr)
        return EXIT_USAGE
    except UsageError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except (ConfigError, Refused) as exc:
        print(str(exc), file=sys.stderr)
        return EXIT_USAGE
