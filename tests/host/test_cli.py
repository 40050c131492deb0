"""``python -m bot`` as a user runs it: real subprocesses, exit codes, stdout and stderr.

Every command runs hermetically: ``DISCORD_TOKEN`` and every ``GAMEHOST_*``
variable of the calling shell are removed, the database lives in ``tmp_path``,
and the working directory is an empty folder, so no developer ``.env`` (which
``load_settings`` reads from the working directory) can leak a token or a
database path into a test.  The repository is reached through ``PYTHONPATH``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import os
import random
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

import pytest
from PIL import Image

from bot.config import Settings, load_settings
from bot.lobby import LobbyService
from bot.registry import REGISTRY
from bot.session import SessionService
from bot.store import Store
from rules.core import Action

REPO = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
REPORT_KEYS = {"game", "players", "games", "actions", "seconds", "actions_per_second", "invariant_failures"}
SENTINEL = "SENTINEL-TOKEN-must-never-be-printed-0123456789"
TIMEOUT = 60  # seconds for any offline command; they normally take well under one


def _env(tmp_path: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env["PYTHONPATH"] = str(REPO)
    env["GAMEHOST_PLUGINS"] = "tests.toygame"
    env["GAMEHOST_DB"] = str(tmp_path / "db" / "host.sqlite3")
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env.update(extra or {})
    return env


def _cwd(tmp_path: Path) -> Path:
    cwd = tmp_path / "cwd"
    cwd.mkdir(exist_ok=True)
    return cwd


def cli(
    tmp_path: Path,
    *args: str,
    env: Mapping[str, str] | None = None,
    timeout: float = TIMEOUT,
) -> subprocess.CompletedProcess[str]:
    cwd = _cwd(tmp_path)
    return subprocess.run(
        [sys.executable, "-m", "bot", *args],
        cwd=cwd,
        env=_env(tmp_path, env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _no_env_file(tmp_path: Path) -> None:
    assert not (_cwd(tmp_path) / ".env").exists()


# -- simulate ------------------------------------------------------------------------------------


def test_simulate_prints_one_json_report(tmp_path: Path) -> None:
    _no_env_file(tmp_path)
    done = cli(tmp_path, "simulate", "toy", "--players", "2", "--games", "5", "--seed", "3")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    report = json.loads(lines[0])
    assert set(report) == REPORT_KEYS
    assert report["game"] == "toy"
    assert report["players"] == 2
    assert report["games"] == 5
    assert report["invariant_failures"] == 0
    assert isinstance(report["actions"], int) and report["actions"] > 0
    assert isinstance(report["seconds"], (int, float)) and report["seconds"] >= 0
    assert report["actions_per_second"] is None or report["actions_per_second"] > 0


TIMING = ("seconds", "actions_per_second")


def _report(done: subprocess.CompletedProcess[str]) -> dict[str, object]:
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    report: dict[str, object] = json.loads(lines[0])
    assert set(report) == REPORT_KEYS
    return report


def _untimed(report: dict[str, object]) -> dict[str, object]:
    """A report without its wall-clock figures, the only fields allowed to differ between runs."""
    return {k: v for k, v in report.items() if k not in TIMING}


def test_simulate_is_deterministic_per_seed(tmp_path: Path) -> None:
    args = ("simulate", "toy", "--players", "3", "--games", "4", "--seed", "3")
    first, second = _report(cli(tmp_path, *args)), _report(cli(tmp_path, *args))
    assert _untimed(first) == _untimed(second)
    assert _untimed(first) == {
        "game": "toy",
        "players": 3,
        "games": 4,
        "actions": first["actions"],
        "invariant_failures": 0,
    }
    # The same seed draws the same board, byte for byte; the next seed's game is another one.
    pictures = []
    for n, seed in enumerate(("5", "5", "6")):
        out = tmp_path / f"board{n}.png"
        done = cli(
            tmp_path, "render", "toy", "--players", "3", "--seed", seed, "--moves", "5", "--out", str(out)
        )
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip().endswith("after 5 moves")
        pictures.append(out.read_bytes())
    assert pictures[0] == pictures[1]
    assert pictures[0] != pictures[2]


def test_simulate_counts_the_actions_of_every_game(tmp_path: Path) -> None:
    """``--games 3 --seed 7`` plays seeds 7, 8 and 9: its "actions" is their sum, not the last one's."""
    total = _report(cli(tmp_path, "simulate", "toy", "--players", "2", "--games", "3", "--seed", "7"))
    singles = [
        _report(cli(tmp_path, "simulate", "toy", "--players", "2", "--games", "1", "--seed", str(seed)))
        for seed in (7, 8, 9)
    ]
    counts = [int(str(single["actions"])) for single in singles]
    assert all(count > 0 for count in counts)
    assert total["actions"] == sum(counts), (total, counts)
    assert total["games"] == 3 and total["invariant_failures"] == 0


def test_simulate_exits_1_and_reports_broken_invariants(tmp_path: Path) -> None:
    """A game whose invariant check fails (``tests/plugins/leaky_toy.py``) fails the run."""
    plugins = {"GAMEHOST_PLUGINS": "tests.toygame,tests.plugins.leaky_toy"}
    done = cli(
        tmp_path, "simulate", "toy_leaky", "--players", "2", "--games", "3", "--seed", "5", env=plugins
    )
    assert done.returncode == 1, (done.stdout, done.stderr)
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    report = json.loads(lines[0])
    assert set(report) == REPORT_KEYS
    assert report["game"] == "toy_leaky" and report["games"] == 3
    assert report["invariant_failures"] == 3, "each of the three games breaks once (play stops there)"
    assert "leaked past 6" in done.stderr and "Traceback" not in done.stderr
    for seed in (5, 6, 7):
        assert f"seed {seed}:" in done.stderr
    # The same plugin with a sound game still passes: the exit code follows the failures.
    sound = cli(tmp_path, "simulate", "toy", "--players", "2", "--games", "3", "--seed", "5", env=plugins)
    assert _report(sound)["invariant_failures"] == 0


BAD_ARGS = [
    pytest.param(["simulate", "nope", "--players", "2"], "unknown game 'nope'", id="simulate-unknown-game"),
    pytest.param(["simulate", "toy", "--players", "5"], "1 to 4 players, not 5", id="simulate-too-many"),
    pytest.param(["simulate", "toy", "--players", "0"], "1 to 4 players, not 0", id="simulate-too-few"),
    pytest.param(["simulate", "toy", "--players", "2", "--games", "0"], "--games", id="simulate-games-0"),
    pytest.param(["simulate", "toy", "--players", "2", "--games", "-3"], "--games", id="simulate-games-neg"),
    pytest.param(["simulate", "toy"], "required: --players", id="simulate-no-players"),
    pytest.param(["simulate"], "required: game", id="simulate-no-game"),
    pytest.param(["simulate", "toy", "--players", "two"], "invalid int value", id="simulate-players-nan"),
    pytest.param(
        ["render", "nope", "--players", "2", "--out", "x.png"], "unknown game 'nope'", id="render-unknown"
    ),
    pytest.param(["render", "toy", "--players", "9", "--out", "x.png"], "not 9", id="render-players"),
    pytest.param(["render", "toy", "--players", "2"], "required: --out", id="render-no-out"),
    pytest.param(["export"], "required: game_id", id="export-no-id"),
    pytest.param(["export", "first"], "invalid int value", id="export-bad-id"),
    pytest.param(["replay"], "required: file", id="replay-no-file"),
    pytest.param(["frobnicate"], "invalid choice", id="unknown-command"),
]


@pytest.mark.parametrize(("args", "message"), BAD_ARGS)
def test_bad_arguments_exit_2_with_a_message(tmp_path: Path, args: list[str], message: str) -> None:
    done = cli(tmp_path, *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == "", "no report on stdout when the arguments are wrong"
    assert not (_cwd(tmp_path) / "x.png").exists()


# -- render --------------------------------------------------------------------------------------


def test_render_writes_a_png(tmp_path: Path) -> None:
    out = tmp_path / "X.png"
    done = cli(tmp_path, "render", "toy", "--players", "3", "--seed", "1", "--moves", "4", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert "after 4 moves" in done.stdout
    data = out.read_bytes()
    assert data.startswith(PNG_SIGNATURE)
    with Image.open(out) as image:
        image.verify()
    with Image.open(out) as image:
        assert image.format == "PNG"
        image.load()
        assert image.width > 0 and image.height > 0


# -- run without a token ------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["run"], [], ["sync"]], ids=["run", "no-subcommand", "sync"])
@pytest.mark.parametrize("token", [None, "", "   "], ids=["unset", "empty", "blank"])
def test_run_without_a_token_explains_where_to_get_one(
    tmp_path: Path, args: list[str], token: str | None
) -> None:
    _no_env_file(tmp_path)
    done = cli(tmp_path, *args, env={} if token is None else {"DISCORD_TOKEN": token})
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "DISCORD_TOKEN" in done.stderr
    assert "https://discord.com/developers/applications" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_settings_repr_never_shows_the_token(tmp_path: Path) -> None:
    direct = Settings(
        token=SENTINEL, database=tmp_path / "x.sqlite3", dev_guild=None, log_level="INFO", language="en"
    )
    env_file = tmp_path / "dotenv"
    env_file.write_text(f"DISCORD_TOKEN='{SENTINEL}'\nGAMEHOST_DB=x.sqlite3\n", encoding="utf-8")
    from_file = load_settings(environ={}, env_file=env_file)
    from_env = load_settings(environ={"DISCORD_TOKEN": SENTINEL}, env_file=tmp_path / "missing")
    for settings in (direct, from_file, from_env):
        assert settings.require_token() == SENTINEL
        for text in (repr(settings), str(settings), f"{settings!r}", f"{settings}", repr([settings])):
            assert SENTINEL not in text
            assert "token=set" in text
    missing = load_settings(environ={}, env_file=tmp_path / "missing")
    assert "token=missing" in repr(missing)


# Runs ``python -m bot run`` for real, with discord.py's two network steps replaced: login
# only runs the host's ``setup_hook`` (database, services, every cog) and connect returns at
# once; any HTTP request at all fails loudly.  It prints whether discord.py was handed the
# right token without ever printing the token.
OFFLINE_RUN = """
import hashlib
import os
import sys

import discord
import discord.http

handed = []


async def login(self, token):
    handed.append(token)
    self.http.token = token  # what discord.py's static_login does before its request
    await self.setup_hook()


async def connect(self, *, reconnect=True):
    return None


async def request(self, route, **kwargs):
    raise RuntimeError(f"the test forbids network access: {route.method} {route.path}")


discord.Client.login = login
discord.Client.connect = connect
discord.http.HTTPClient.request = request

from bot.cli import main

code = main(["run"])
digests = [hashlib.sha256(token.encode()).hexdigest() for token in handed]
right = digests == [os.environ["EXPECTED_TOKEN_SHA256"]]
print("HANDED-RIGHT-TOKEN" if right else f"HANDED {len(handed)} OTHER TOKENS", flush=True)
sys.exit(code)
"""


@pytest.mark.parametrize("source", ["env", "dotenv"])
def test_run_at_debug_level_never_prints_the_token(tmp_path: Path, source: str) -> None:
    """The whole start-up of ``run`` at ``GAMEHOST_LOG_LEVEL=DEBUG`` (no network): every line
    of output, every log line of every library, is free of the token."""
    env = {
        "GAMEHOST_LOG_LEVEL": "DEBUG",
        "GAMEHOST_DB": str(tmp_path / "db" / "run.sqlite3"),
        "EXPECTED_TOKEN_SHA256": hashlib.sha256(SENTINEL.encode()).hexdigest(),
    }
    if source == "env":
        env["DISCORD_TOKEN"] = SENTINEL
    else:
        (_cwd(tmp_path) / ".env").write_text(f"DISCORD_TOKEN={SENTINEL}\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", OFFLINE_RUN],
        cwd=_cwd(tmp_path),
        env=_env(tmp_path, env),
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        check=False,
    )
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert "HANDED-RIGHT-TOKEN" in done.stdout, "the start-up never reached the point of connecting"
    assert " DEBUG " in done.stderr, "DEBUG logging was not on"
    assert (tmp_path / "db" / "run.sqlite3").exists(), "setup_hook did not open the database"
    assert SENTINEL not in done.stdout
    assert SENTINEL not in done.stderr


def test_the_environment_wins_over_dot_env(tmp_path: Path) -> None:
    """Both name a database: ``games`` opens (and so creates) the environment's one only."""
    from_file, from_env = tmp_path / "from-dotenv.sqlite3", tmp_path / "from-env.sqlite3"
    (_cwd(tmp_path) / ".env").write_text(
        f"GAMEHOST_DB={from_file}\nGAMEHOST_LOG_LEVEL=nonsense\n", encoding="utf-8"
    )
    done = cli(tmp_path, "games", env={"GAMEHOST_DB": str(from_env), "GAMEHOST_LOG_LEVEL": "INFO"})
    assert done.returncode == 0, done.stderr
    assert from_env.exists() and not from_file.exists()


# -- run with a token but a database it cannot use ----------------------------------------------


def _run_with_token(
    tmp_path: Path, command: list[str], db: Path, source: str
) -> subprocess.CompletedProcess[str]:
    env = {"GAMEHOST_DB": str(db)}
    if source == "env":
        env["DISCORD_TOKEN"] = SENTINEL
    else:
        (_cwd(tmp_path) / ".env").write_text(f"DISCORD_TOKEN={SENTINEL}\n", encoding="utf-8")
    try:
        # The database is checked before connecting; should that ever change, fail fast, never hang.
        return cli(tmp_path, *command, env=env, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail("the CLI tried to connect to Discord instead of refusing the unusable database")


@pytest.mark.parametrize("command", [["run"], [], ["sync"]], ids=["run", "no-subcommand", "sync"])
@pytest.mark.parametrize("source", ["env", "dotenv"])
def test_run_refuses_a_database_under_a_regular_file(tmp_path: Path, command: list[str], source: str) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    db = blocker / "db.sqlite3"
    done = _run_with_token(tmp_path, command, db, source)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert str(db) in done.stderr
    assert "Traceback" not in done.stderr
    assert SENTINEL not in done.stdout + done.stderr


def test_run_refuses_a_database_that_is_a_directory(tmp_path: Path) -> None:
    db = tmp_path / "a-directory"
    db.mkdir()
    done = _run_with_token(tmp_path, ["run"], db, "env")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert str(db) in done.stderr.splitlines()[0]
    assert SENTINEL not in done.stdout + done.stderr


@pytest.mark.parametrize("command", [["games"], ["export", "1"]], ids=["games", "export"])
def test_offline_commands_refuse_an_unusable_database_cleanly(tmp_path: Path, command: list[str]) -> None:
    blocker = tmp_path / "file.txt"
    blocker.write_text("not a folder", encoding="utf-8")
    db = blocker / "db.sqlite3"
    done = cli(tmp_path, *command, env={"GAMEHOST_DB": str(db)})
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert str(db) in done.stderr
    assert "Traceback" not in done.stderr


# -- games / export / replay --------------------------------------------------------------------

HEADER_WORDS = ("id", "game", "status", "players", "last move")


def test_games_on_a_new_database_prints_only_the_header(tmp_path: Path) -> None:
    db = tmp_path / "new" / "fresh.sqlite3"
    done = cli(tmp_path, "games", env={"GAMEHOST_DB": str(db)})
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert len(lines) == 1
    assert all(word in lines[0] for word in HEADER_WORDS)


async def _play(sessions: SessionService, game_id: int, rng: random.Random, moves: int | None) -> int:
    """Random legal actions through the session service; ``None`` plays to the end."""
    game = await sessions.load(game_id)
    played = 0
    while game.status == "active" and (moves is None or played < moves):
        seat = rng.choice(sorted(game.waiting()))
        action: Action = rng.choice(game.entry.rules.legal_actions(game.state, seat))
        applied = await sessions.act(game_id, game.user_of(seat), action, version=game.public_version)
        game = applied.game
        played += 1
    return played


async def _build(db: Path) -> dict[str, int]:
    """Game 1 active (Ann, Bob), game 2 finished (Cid, Dee, Eve), game 3 still a lobby (Fay)."""
    rng = random.Random(11)
    store = await Store.open(db)
    try:
        sessions = SessionService(store, REGISTRY)
        lobby = LobbyService(sessions)
        ids: dict[str, int] = {}
        for key, names, moves in (("active", ["Ann", "Bob"], 5), ("finished", ["Cid", "Dee", "Eve"], None)):
            base = 100 * (len(ids) + 1)
            game = await lobby.create(
                game="toy",
                options_text="target=12",
                host_id=base,
                host_name=names[0],
                guild_id=1,
                channel_id=2,
                language="en",
            )
            for offset, name in enumerate(names[1:], start=1):
                await lobby.join(game.id, base + offset, name)
            await lobby.start(game.id, base, seed=4242 + base)
            await _play(sessions, game.id, rng, moves)
            ids[key] = game.id
        pending = await lobby.create(
            game="toy",
            options_text=None,
            host_id=900,
            host_name="Fay",
            guild_id=1,
            channel_id=2,
            language="en",
        )
        ids["lobby"] = pending.id
        return ids
    finally:
        await store.close()


@pytest.fixture
def saved_games(tmp_path: Path) -> tuple[Path, dict[str, int]]:
    db = tmp_path / "saved.sqlite3"
    ids = asyncio.run(_build(db))
    assert ids == {"active": 1, "finished": 2, "lobby": 3}
    return db, ids


def _export(tmp_path: Path, db: Path, game_id: int) -> Path:
    done = cli(tmp_path, "export", str(game_id), env={"GAMEHOST_DB": str(db)})
    assert done.returncode == 0, done.stderr
    path = tmp_path / f"game{game_id}.json"
    path.write_text(done.stdout, encoding="utf-8")
    return path


def _replay(tmp_path: Path, path: Path) -> tuple[int, dict[str, object]]:
    done = cli(tmp_path, "replay", str(path))
    lines = done.stdout.splitlines()
    assert len(lines) == 1, (done.stdout, done.stderr)
    return done.returncode, json.loads(lines[0])


def test_games_lists_every_game_with_status_and_players(
    tmp_path: Path, saved_games: tuple[Path, dict[str, int]]
) -> None:
    db, ids = saved_games
    done = cli(tmp_path, "games", env={"GAMEHOST_DB": str(db)})
    assert done.returncode == 0, done.stderr
    header, *rows = done.stdout.splitlines()
    assert all(word in header for word in HEADER_WORDS)
    assert len(rows) == 3
    by_id = {int(row.split()[0]): row for row in rows}
    expected = {
        ids["active"]: ("active", "Ann, Bob"),
        ids["finished"]: ("finished", "Cid, Dee, Eve"),
        ids["lobby"]: ("lobby", "Fay"),
    }
    for game_id, (status, players) in expected.items():
        words = by_id[game_id].split()
        assert words[1] == "toy"
        assert words[2] == status
        assert players in by_id[game_id]
    assert by_id[ids["lobby"]].rstrip().endswith("-"), "a game without moves has no last move"


def test_export_then_replay_matches(tmp_path: Path, saved_games: tuple[Path, dict[str, int]]) -> None:
    db, ids = saved_games
    for key in ("active", "finished"):
        path = _export(tmp_path, db, ids[key])
        data = json.loads(path.read_text(encoding="utf-8"))
        assert data["format"] == "gamehost-export"
        assert data["id"] == ids[key]
        assert data["game"] == "toy"
        assert data["status"] == key
        assert data["options"] == {"target": 12}
        assert isinstance(data["seed"], int)
        assert data["version"] == len(data["actions"]) > 0
        assert isinstance(data["snapshot"], dict)
        code, report = _replay(tmp_path, path)
        assert code == 0, report
        assert report["matches"] is True
        assert report["game"] == "toy"
        assert report["actions"] == data["version"]
    assert json.loads(_export(tmp_path, db, ids["active"]).read_text())["players"] == ["Ann", "Bob"]


def test_replay_of_a_lobby_export_matches(tmp_path: Path, saved_games: tuple[Path, dict[str, int]]) -> None:
    db, ids = saved_games
    path = _export(tmp_path, db, ids["lobby"])
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["seed"] is None and data["actions"] == [] and data["snapshot"] is None
    code, report = _replay(tmp_path, path)
    assert code == 0 and report["matches"] is True and report["actions"] == 0


def test_replay_detects_a_tampered_snapshot(tmp_path: Path, saved_games: tuple[Path, dict[str, int]]) -> None:
    db, ids = saved_games
    path = _export(tmp_path, db, ids["active"])
    data = json.loads(path.read_text(encoding="utf-8"))
    data["snapshot"]["total"] += 1
    path.write_text(json.dumps(data), encoding="utf-8")
    code, report = _replay(tmp_path, path)
    assert code == 1
    assert report["matches"] is False
    assert "differs" in str(report["detail"])


def test_replay_detects_a_tampered_log(tmp_path: Path, saved_games: tuple[Path, dict[str, int]]) -> None:
    db, ids = saved_games
    path = _export(tmp_path, db, ids["active"])
    data = json.loads(path.read_text(encoding="utf-8"))

    shortened = dict(data, actions=data["actions"][:-1])
    path.write_text(json.dumps(shortened), encoding="utf-8")
    code, report = _replay(tmp_path, path)
    assert (code, report["matches"]) == (1, False)

    bogus = dict(data, actions=[*data["actions"], [0, ["fly"]]])
    path.write_text(json.dumps(bogus), encoding="utf-8")
    code, report = _replay(tmp_path, path)
    assert (code, report["matches"]) == (1, False)
    assert "does not replay" in str(report["detail"])


def test_export_of_a_missing_game_exits_2(tmp_path: Path, saved_games: tuple[Path, dict[str, int]]) -> None:
    db, _ = saved_games
    done = cli(tmp_path, "export", "99", env={"GAMEHOST_DB": str(db)})
    assert done.returncode == 2
    assert "no game 99" in done.stderr and str(db) in done.stderr
    assert done.stdout == ""


@pytest.mark.parametrize(
    "content",
    [
        None,
        "{not json",
        json.dumps({"game": "toy"}),
        json.dumps({"format": "gamehost-export", "game": "nope"}),
    ],
    ids=["missing-file", "not-json", "no-format-marker", "unknown-game"],
)
def test_replay_refuses_what_is_not_an_export(tmp_path: Path, content: str | None) -> None:
    path = tmp_path / "input.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    done = cli(tmp_path, "replay", str(path))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert f"cannot replay {path}" in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == ""


def test_render_into_a_missing_folder_is_a_usage_error(tmp_path: Path) -> None:
    done = cli(tmp_path, "render", "toy", "--players", "2", "--out", str(tmp_path / "nope" / "x.png"))
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "cannot write" in done.stderr and "Traceback" not in done.stderr
