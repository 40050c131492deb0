"""Shared pieces of the two torture runs (``torture_kills`` and ``torture_races``).

Only the host's public surface is used: ``Store.open`` / ``game`` / ``games`` /
``seats`` / ``actions``, ``SessionService(store, registry)`` with ``load``,
``act`` and ``forget``, and ``LobbyService``.  Everything the checks believe
comes from the database file and from replaying seed + log with the engines.
"""

from __future__ import annotations

import json
import random
import sys
import tempfile
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from bot.core.registry import Registry
from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import LiveGame, SessionService
from bot.storage import UNDONE, GameRow, GameStatus, Store, standing_log
from rules.core import Action, Rules
from rules.play import canonical

REPO = Path(__file__).resolve().parent.parent
REAL_GAMES: tuple[str, ...] = ("california", "estates")
"""The torture runs' default games, fixed rather than read from the registry: the published
figures (README) were measured on these two, so they stay comparable as games are added;
``--games`` takes any registered name."""
USER_BASE = 1000
"""Seat ``n`` of every table is user ``USER_BASE + n``: the same few friends play every table."""


def scratch_folder(prefix: str, parent: Path | None) -> Path:
    """A fresh folder for one run's database (inside ``parent`` when given)."""
    if parent is not None:
        parent.mkdir(parents=True, exist_ok=True)
    return Path(tempfile.mkdtemp(prefix=prefix, dir=parent))


def register_toy() -> None:
    """The test-only toy game (private action, several seats waited on at once); tests register it too."""
    import harness.toygame  # noqa: F401  (importing registers it)


def parse_games(text: str) -> tuple[str, ...]:
    names = tuple(part.strip().lower() for part in text.split(",") if part.strip())
    if "toy" in names:
        register_toy()
    unknown = [name for name in names if name not in REGISTRY]
    if not names or unknown:
        offered = ", ".join(entry.name for entry in REGISTRY) + ", toy"
        raise ValueError(f"unknown game(s) {unknown or text!r}; choose from {offered}")
    return names


def rules_of(name: str, registry: Registry = REGISTRY) -> Rules[Any]:
    entry = registry.get(name)
    if entry is None:
        raise KeyError(f"game {name!r} is not registered")
    return entry.rules


@dataclass(slots=True)
class Services:
    store: Store
    sessions: SessionService
    lobby: LobbyService


async def open_services(path: Path | str, registry: Registry = REGISTRY) -> Services:
    store = await Store.open(path)
    sessions = SessionService(store, registry)
    return Services(store, sessions, LobbyService(sessions))


def player_count(rules: Rules[Any], rng: random.Random) -> int:
    return rng.randint(max(rules.min_players, 2), max(rules.max_players, 2))


async def new_table(
    lobby: LobbyService,
    game: str,
    rng: random.Random,
    *,
    players: int | None = None,
    guild_id: int = 1,
) -> LiveGame:
    """``/game new`` by seat 0, the others join, the host starts with a seed from ``rng``."""
    rules = lobby.entry(game).rules
    count = players if players is not None else player_count(rules, rng)
    live = await lobby.create(
        game=game,
        options_text=None,
        host_id=USER_BASE,
        host_name="p0",
        guild_id=guild_id,
        channel_id=guild_id,
        language="en",
    )
    return await fill_and_start(lobby, live, count, rng)


async def fill_and_start(lobby: LobbyService, live: LiveGame, count: int, rng: random.Random) -> LiveGame:
    """Seat users until ``count`` are seated (some may sit already), then the host starts."""
    seated = {seat.user_id for seat in live.seats}
    user = USER_BASE
    while len(seated) < count:
        if user not in seated:
            await lobby.join(live.id, user, f"p{user - USER_BASE}")
            seated.add(user)
        user += 1
    return await lobby.start(live.id, live.row.host_id, seed=rng.randrange(2**62))


def choose_move(
    rules: Rules[Any], state: Any, rng: random.Random, *, any_seat: float = 0.0, players: int = 0
) -> tuple[int, Action] | None:
    """A random legal action of a random waiting seat (or, with chance ``any_seat``, of any seat)."""
    seats = sorted(rules.waiting_for(state))
    if any_seat and players and rng.random() < any_seat:
        seats = [seat for seat in range(players) if rules.legal_actions(state, seat)] or seats
    if not seats:
        return None
    seat = rng.choice(seats)
    actions = rules.legal_actions(state, seat)
    if not actions:
        return None
    return seat, rng.choice(actions)


def is_public_step(rules: Rules[Any], state: Any, seat: int, action: Action) -> bool:
    """Apply one logged action to ``state``; whether others could tell (mirrors ``SessionService.act``).

    Public: the game ended, the set of waited-on seats changed, or an event is public.
    """
    before = rules.waiting_for(state)
    events = rules.apply(state, seat, action)
    finished = rules.outcome(state) is not None
    after = frozenset() if finished else rules.waiting_for(state)
    return finished or after != before or any(event.visible_to is None for event in events)


def replay_counting(
    rules: Rules[Any],
    players: int,
    options: dict[str, Any],
    seed: int,
    log: Iterable[tuple[int, Action]],
    bumps: Sequence[int] = (),
) -> tuple[Any, int]:
    """``setup`` + every logged action, and the public version that log must have produced.

    ``log`` holds the moves that stand; ``bumps`` the public versions undos used up
    (``bot.storage.standing_log``).
    """
    state = rules.setup(players, options, seed)
    public = sum(bumps)
    for seat, action in log:
        public += is_public_step(rules, state, seat, action)
    return state, public


@dataclass(slots=True)
class GameCheck:
    """What one full check of one game found; each list holds sentences for the report."""

    gaps: list[str]
    mismatch: list[str]
    public: list[str]
    status: list[str]
    unloadable: list[str]

    @property
    def problems(self) -> list[str]:
        return [*self.gaps, *self.mismatch, *self.public, *self.status, *self.unloadable]


async def check_game(
    store: Store,
    fresh: SessionService,
    row: GameRow,
    log: Sequence[tuple[int, int, Action]],
    registry: Registry = REGISTRY,
) -> GameCheck:
    """The stored row against seed + log, and a load through ``fresh`` (a service with nothing cached).

    - gaps: the log's versions are exactly ``1..row.version``, less one per undo (an undo takes a
      version of its own and writes no row; moves taken back keep theirs and are not replayed);
    - mismatch: the snapshot equals ``canonical(dump(replay(seed, log)))``;
    - public: the public version equals the one the log implies;
    - status: ``finished`` exactly when the replayed game has an outcome (a lobby has no log);
    - unloadable: the fresh service loads it as it is stored (not ``broken``, same version and state).
    """
    found = GameCheck([], [], [], [], [])
    gid = row.id
    entries = await store.log.load_log(gid)
    versions = [entry.version for entry in entries]
    undos = sum(1 for entry in entries if entry.undone == UNDONE)
    increasing = versions == sorted(set(versions))
    if (
        len(versions) + undos != row.version
        or not increasing
        or (versions and (versions[0] < 1 or versions[-1] > row.version))
        or (not undos and versions != list(range(1, row.version + 1)))
    ):
        found.gaps.append(f"game {gid}: log versions {_span(versions)} but the row says {row.version}")
    if row.seed is None:
        if (row.status, row.version, row.snapshot, len(log)) not in (
            (GameStatus.LOBBY, 0, None, 0),
            (GameStatus.ABANDONED, 0, None, 0),
        ):
            found.status.append(f"game {gid}: no seed but status {row.status}, {len(log)} logged actions")
        return found
    entry = registry.get(row.game)
    if entry is None:
        found.unloadable.append(f"game {gid}: {row.game!r} is not registered")
        return found
    rules = entry.rules
    seats = await store.games.fetch_seats(gid)
    try:
        moves, bumps = standing_log(entries)
        state, public = replay_counting(rules, len(seats), row.options, row.seed, moves, bumps)
    except Exception as exc:
        found.mismatch.append(f"game {gid}: seed + log do not replay: {type(exc).__name__}: {exc}")
        return found
    replayed = canonical(rules.dump(state))
    if row.snapshot != replayed:
        found.mismatch.append(f"game {gid} v{row.version}: stored snapshot != replay of seed + log")
    if row.public_version != public:
        found.public.append(f"game {gid}: public_version {row.public_version}, the log implies {public}")
    expected = GameStatus.FINISHED if rules.outcome(state) is not None else GameStatus.ACTIVE
    if row.status != expected:
        found.status.append(f"game {gid}: status {row.status}, the replayed game is {expected}")
    try:
        live = await fresh.load(gid)
    except Exception as exc:
        found.unloadable.append(f"game {gid}: a fresh service cannot load it: {type(exc).__name__}: {exc}")
        return found
    got = (live.status, live.version, live.public_version)
    want = (row.status, row.version, row.public_version)
    if got != want:
        found.unloadable.append(f"game {gid}: loads as {got}, stored as {want}")
    elif live.state is None or canonical(rules.dump(live.state)) != replayed:
        found.unloadable.append(f"game {gid}: loads a state that differs from seed + log")
    return found


def _span(versions: Sequence[int]) -> str:
    if not versions:
        return "[]"
    return f"[{versions[0]}..{versions[-1]}] ({len(versions)} rows)"


def report(figures: dict[str, Any], lines: Sequence[str], err: TextIO | None = None) -> None:
    """The human summary on stderr, the one JSON line on stdout."""
    stream = err if err is not None else sys.stderr
    for line in lines:
        print(line, file=stream)
    print(json.dumps(figures, sort_keys=True), flush=True)


def violations(figures: dict[str, Any], zero_keys: Sequence[str]) -> list[str]:
    return [f"{key}={figures[key]}" for key in zero_keys if figures.get(key)]
