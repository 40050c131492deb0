"""``python -m bot`` as a user runs it: real subprocesses, exit codes, stdout and stderr.

Every command runs hermetically: ``DISCORD_TOKEN`` and every ``GAMEHOST_*``
variable of the calling shell are removed, the database lives in ``tmp_path``,
and the working directory is an empty folder, so no developer ``.env`` (which
``load_settings`` reads from the working directory) can leak a token or a
database path into a test.  The repository is reached through ``PYTHONPATH``.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import random
import re
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import discord
import pytest
from PIL import Image

from bot.cli import build_parser, connection_problem
from bot.core.config import Settings, load_settings
from bot.games import REGISTRY
from bot.services.lobby import LobbyService
from bot.services.sessions import SessionService
from bot.storage import Store
from rules.core import Action

REPO = Path(__file__).resolve().parents[2]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
REPORT_KEYS = {
    "game",
    "players",
    "games",
    "actions",
    "seconds",
    "actions_per_second",
    "invariant_failures",
    "checked",
}
SENTINEL = "SENTINEL-TOKEN-must-never-be-printed-0123456789"
TIMEOUT = 60  # seconds for any offline command; they normally take well under one


def _env(tmp_path: Path, extra: Mapping[str, str] | None = None) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env["PYTHONPATH"] = str(REPO)
    env["GAMEHOST_PLUGINS"] = "harness.toygame"
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


def _python(
    tmp_path: Path, code: str, *args: str, env: Mapping[str, str] | None = None, timeout: float = TIMEOUT
) -> subprocess.CompletedProcess[str]:
    """``python -c code args`` with the same hermetic environment as :func:`cli`."""
    return subprocess.run(
        [sys.executable, "-c", code, *args],
        cwd=_cwd(tmp_path),
        env=_env(tmp_path, env),
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


def _no_env_file(tmp_path: Path) -> None:
    assert not (_cwd(tmp_path) / ".env").exists()


# -- simulate ------------------------------------------------------------------------------------


def test_simulate_without_checks_says_so(tmp_path: Path) -> None:
    """``--no-check``: the engine's own speed, as bot players' playouts run it."""
    _no_env_file(tmp_path)
    done = cli(tmp_path, "simulate", "toy", "--players", "2", "--games", "3", "--no-check")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["checked"] is False and report["actions"] > 0 and report["invariant_failures"] == 0


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
    assert report["checked"] is True
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
        "checked": True,
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
    plugins = {"GAMEHOST_PLUGINS": "harness.toygame,tests.plugins.leaky_toy"}
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
    pytest.param(["simulate"], "required: GAME", id="simulate-no-game"),
    pytest.param(["simulate", "toy", "--players", "two"], "invalid int value", id="simulate-players-nan"),
    pytest.param(
        ["render", "nope", "--players", "2", "--out", "x.png"], "unknown game 'nope'", id="render-unknown"
    ),
    pytest.param(["render", "toy", "--players", "9", "--out", "x.png"], "not 9", id="render-players"),
    pytest.param(["render", "toy", "--players", "2"], "required: --out", id="render-no-out"),
    pytest.param(["export"], "required: GAME_ID", id="export-no-id"),
    pytest.param(["export", "first"], "invalid int value", id="export-bad-id"),
    pytest.param(["replay"], "required: FILE", id="replay-no-file"),
    pytest.param(["frobnicate"], "invalid choice", id="unknown-command"),
    # Numbers that parse but mean nothing: refused while parsing, naming the option.
    pytest.param(
        ["render", "toy", "--players", "2", "--moves", "-5", "--out", "x.png"],
        "argument --moves: must be at least 0, not -5",
        id="render-moves-neg",
    ),
    pytest.param(
        ["render", "toy", "--players", "2", "--moves", "five", "--out", "x.png"],
        "invalid int value",
        id="render-moves-nan",
    ),
    pytest.param(["render", "toy", "--players", "-2", "--out", "x.png"], "not -2", id="render-players-neg"),
    pytest.param(["simulate", "toy", "--players", "-1"], "1 to 4 players, not -1", id="simulate-players-neg"),
    pytest.param(
        ["render", "toy", "--players", "2", "--seed", "-1", "--out", "x.png"],
        "argument --seed: must be from 0 to 18446744073709551615, not -1",
        id="render-seed-neg",
    ),
    pytest.param(
        ["simulate", "toy", "--players", "2", "--seed", str(2**64)],
        "argument --seed",
        id="simulate-seed-2**64",
    ),
    pytest.param(
        ["simulate", "toy", "--players", "2", "--seed", str(2**64 - 1), "--games", "2"],
        "past 2**64-1",
        id="simulate-seeds-run-past-2**64",
    ),
    pytest.param(
        ["simulate", "toy", "--players", "2", "--max-actions", "0"],
        "argument --max-actions: must be at least 1, not 0",
        id="simulate-max-actions-0",
    ),
    pytest.param(["export", "0"], "argument GAME_ID: must be at least 1, not 0", id="export-id-0"),
    pytest.param(["export", "-4"], "argument GAME_ID: must be at least 1, not -4", id="export-id-neg"),
]


@pytest.mark.parametrize(("args", "message"), BAD_ARGS)
def test_bad_arguments_exit_2_with_a_message(tmp_path: Path, args: list[str], message: str) -> None:
    done = cli(tmp_path, *args)
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    assert done.stdout == "", "no report on stdout when the arguments are wrong"
    assert not (_cwd(tmp_path) / "x.png").exists()
    assert not (tmp_path / "db").exists(), "bad arguments never touch the database"


@pytest.mark.parametrize(
    "args",
    [
        ["simulate", "toy", "--players", "1", "--seed", "0"],
        ["simulate", "toy", "--players", "4", "--seed", str(2**64 - 2), "--games", "2"],
        ["simulate", "toy", "--players", "2", "--max-actions", "1"],
    ],
    ids=["seed-0", "last-seeds", "max-actions-1"],
)
def test_numbers_at_the_edges_of_their_range_are_accepted(tmp_path: Path, args: list[str]) -> None:
    """The refusals above stop exactly at the edge: the smallest and largest sensible values run."""
    done = cli(tmp_path, *args)
    assert done.returncode in (0, 1), (done.stdout, done.stderr)  # --max-actions 1 fails, by design
    assert len(done.stdout.splitlines()) == 1 and "Traceback" not in done.stderr


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


def test_render_of_zero_moves_and_of_more_moves_than_the_game_has(tmp_path: Path) -> None:
    """``--moves 0`` draws the deal; a count past the end draws the final board and says so."""
    zero = cli(tmp_path, "render", "toy", "--players", "2", "--moves", "0", "--out", str(tmp_path / "0.png"))
    assert zero.returncode == 0, zero.stderr
    assert zero.stdout.strip().endswith("after 0 moves")
    many = cli(
        tmp_path, "render", "toy", "--players", "2", "--moves", "100000", "--out", str(tmp_path / "n.png")
    )
    assert many.returncode == 0, many.stderr
    assert many.stdout.strip().endswith("(the game ended there)")
    played = int(many.stdout.split(" after ")[1].split()[0])
    assert 0 < played < 100000
    assert (tmp_path / "n.png").read_bytes().startswith(PNG_SIGNATURE)


# -- run without a token ------------------------------------------------------------------------


@pytest.mark.parametrize("args", [["run"], ["sync"]], ids=["run", "sync"])
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
    """Both name a database: ``games`` looks at the environment's one only (and creates neither)."""
    from_file, from_env = tmp_path / "from-dotenv.sqlite3", tmp_path / "from-env.sqlite3"
    (_cwd(tmp_path) / ".env").write_text(
        f"GAMEHOST_DB={from_file}\nGAMEHOST_LOG_LEVEL=nonsense\n", encoding="utf-8"
    )
    done = cli(tmp_path, "games", env={"GAMEHOST_DB": str(from_env), "GAMEHOST_LOG_LEVEL": "INFO"})
    assert done.returncode == 0, done.stderr
    assert str(from_env) in done.stdout and str(from_file) not in done.stdout + done.stderr
    assert not from_env.exists() and not from_file.exists()


# -- --help ---------------------------------------------------------------------------------------

COMMANDS = [
    "run",
    "sandbox",
    "sync",
    "simulate",
    "render",
    "export",
    "replay",
    "games",
    "health",
    "migrate",
    "prune",
    "ratings",
]
GAME_COMMANDS = ["simulate", "render"]


def _subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser(REGISTRY)
    (commands,) = (a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(commands.choices)


def _flat(text: str) -> str:
    """Help text with argparse's line wrapping undone, to look for whole sentences in it."""
    return " ".join(text.split())


def test_the_main_help_lists_every_command_and_the_games(tmp_path: Path) -> None:
    assert sorted(_subcommands()) == sorted(COMMANDS), "a new command needs its place in these tests"
    done = cli(tmp_path, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    for command in COMMANDS:
        assert re.search(rf"^\s+{command}\s+\S", done.stdout, re.MULTILINE), f"{command} has no help line"
    for entry in REGISTRY.public():
        assert entry.name in done.stdout


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_of_every_command_is_described(tmp_path: Path, command: str) -> None:
    """``COMMAND --help`` exits 0 and shows a description and every argument with its help line."""
    sub = _subcommands()[command]
    done = cli(tmp_path, command, "--help")
    assert done.returncode == 0, done.stderr
    assert done.stderr == ""
    shown = _flat(done.stdout)
    assert sub.description and _flat(sub.description) in shown
    arguments = [a for a in sub._actions if not isinstance(a, argparse._HelpAction)]
    for action in arguments:
        assert action.help and action.help != argparse.SUPPRESS, f"{command} {action.dest} has no help"
        assert len(action.help.split()) >= 4, f"{command} {action.dest}: {action.help!r} explains nothing"
        for name in action.option_strings or [str(action.metavar or action.dest)]:
            assert name in done.stdout
        assert _flat(action.help % dict(vars(action), prog=sub.prog)) in shown


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_the_help_of_a_game_command_lists_the_registered_games(tmp_path: Path, command: str) -> None:
    """Every public game with its player count; hidden ones (the test game) stay out."""
    public = REGISTRY.public()
    assert public, "no public game to list"
    done = cli(tmp_path, command, "--help")
    assert done.returncode == 0, done.stderr
    shown = _flat(done.stdout)
    for entry in public:
        assert f"{entry.name} ({entry.rules.min_players}-{entry.rules.max_players} players)" in shown
    assert not re.search(r"\btoy\b", done.stdout), "a hidden game is listed"


# Registers the toy game as a public one before the help is built: proof that the list comes
# from the registry, so a new game (or a plugin's) shows up without touching the CLI.
PUBLIC_TOY = """
import dataclasses
import sys

from bot.games import REGISTRY
from harness.toygame import ENTRY

REGISTRY.register(dataclasses.replace(ENTRY, hidden=False))
from bot.cli import main

sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("command", GAME_COMMANDS)
def test_the_game_list_in_the_help_follows_the_registry(tmp_path: Path, command: str) -> None:
    done = _python(tmp_path, PUBLIC_TOY, command, "--help")
    assert done.returncode == 0, done.stderr
    assert "toy (1-4 players)" in _flat(done.stdout)


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ({"GAMEHOST_LOG_LEVEL": "nonsense"}, "GAMEHOST_LOG_LEVEL"),
        ({"GAMEHOST_PLUGINS": "harness.toygame,no_such_plugin_module"}, "no_such_plugin_module"),
    ],
    ids=["log-level", "plugin"],
)
def test_help_works_while_a_setting_is_broken(tmp_path: Path, setting: dict[str, str], message: str) -> None:
    """Settings are read before parsing (plugins add games to the help), yet a broken one only
    stops the commands that run: ``--help`` is how one finds out what to fix."""
    helped = cli(tmp_path, "simulate", "--help", env=setting)
    assert helped.returncode == 0, helped.stderr
    assert "--players" in helped.stdout
    refused = cli(tmp_path, "games", env=setting)
    assert refused.returncode == 2, (refused.stdout, refused.stderr)
    assert refused.stderr.count("\n") == 1 and message in refused.stderr
    assert "Traceback" not in refused.stderr and refused.stdout == ""


# -- run: a token Discord rejects, or no network -----------------------------------------------


# Runs ``python -m bot`` with discord.py's start failing the way it does in the field, and no
# network at all.  Two failures are real (discord.py's own code meets them): "unauthorized"
# answers every request from a local server with 401, as Discord does for a bad token, and
# "refused" points discord.py at a loopback port nobody listens on.  The others make login
# (or connect, after an offline login that runs setup_hook) raise what discord.py raises.
FAILING_START = """
import errno
import json
import socket
import sys
import threading
import types
from http.server import BaseHTTPRequestHandler, HTTPServer

import aiohttp
import discord
import discord.http

how, command = sys.argv[1], sys.argv[2:]


class Unauthorized(BaseHTTPRequestHandler):
    def do_GET(self):
        body = json.dumps({"message": "401: Unauthorized", "code": 0}).encode()
        self.send_response(401)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        return None  # silent: the test reads the bot's stderr, which must hold one line


async def offline_login(self, token):
    self.http.token = token
    await self.setup_hook()


async def no_request(self, route, **kwargs):
    raise RuntimeError(f"the test forbids network access: {route.method} {route.path}")


def raising(exc):
    async def fail(self, *args, **kwargs):
        raise exc

    return fail


if how == "unauthorized":
    server = HTTPServer(("127.0.0.1", 0), Unauthorized)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    discord.http.Route.BASE = f"http://127.0.0.1:{server.server_port}/api/v10"
elif how == "refused":
    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    port = probe.getsockname()[1]
    probe.close()
    discord.http.Route.BASE = f"http://127.0.0.1:{port}/api/v10"
else:
    down = types.SimpleNamespace(status=503, reason="Service Unavailable")
    where, exc = {
        "login-failure": ("login", discord.LoginFailure("Improper token has been passed.")),
        "network-unreachable": ("login", OSError(errno.ENETUNREACH, "Network is unreachable")),
        "dns": ("login", socket.gaierror(socket.EAI_AGAIN, "Temporary failure in name resolution")),
        "timeout": ("login", TimeoutError()),
        "server-disconnected": ("login", aiohttp.ServerDisconnectedError()),
        "discord-down": ("login", discord.DiscordServerError(down, "<html>\\n<body>upstream\\nerror</body>\\n</html>")),
        "gateway-not-found": ("connect", discord.GatewayNotFound()),
        "privileged-intents": ("connect", discord.PrivilegedIntentsRequired(None)),
    }[how]
    discord.http.HTTPClient.request = no_request
    if where == "connect":
        discord.Client.login = offline_login
    setattr(discord.Client, where, raising(exc))

from bot.cli import main

sys.exit(main(command))
"""

REJECTED = "Discord rejected DISCORD_TOKEN"
UNREACHABLE = "Cannot reach Discord"
FAILURES = {
    "unauthorized": REJECTED,
    "login-failure": REJECTED,
    "refused": UNREACHABLE,
    "network-unreachable": UNREACHABLE,
    "dns": UNREACHABLE,
    "timeout": UNREACHABLE,
    "server-disconnected": UNREACHABLE,
    "gateway-not-found": UNREACHABLE,
    "discord-down": "Discord refused the request (HTTP 503 Service Unavailable",
    "privileged-intents": "Privileged Gateway Intents",
}
LOG_LINE = re.compile(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} [A-Z]+ \S+: ")
"""A log record as ``bot.cli`` formats them (``%(asctime)s %(levelname)s %(name)s: ...``)."""


def _existing_database(tmp_path: Path) -> Path:
    """The database ``_env`` names, created beforehand so its first-start warning is not in the way."""
    db = tmp_path / "db" / "host.sqlite3"

    async def create() -> None:
        await (await Store.open(db)).close()

    asyncio.run(create())
    return db


def _failing_start(
    tmp_path: Path, how: str, command: list[str], level: str = "WARNING"
) -> subprocess.CompletedProcess[str]:
    _existing_database(tmp_path)
    env = {"DISCORD_TOKEN": SENTINEL, "GAMEHOST_LOG_LEVEL": level}
    try:
        return _python(tmp_path, FAILING_START, how, *command, env=env, timeout=30)
    except subprocess.TimeoutExpired:
        pytest.fail(f"{how}: the bot kept trying instead of stopping")


@pytest.mark.parametrize("how", list(FAILURES))
def test_run_stops_with_one_line_when_discord_cannot_be_used(tmp_path: Path, how: str) -> None:
    """Exit 2 and exactly one line on stderr (no traceback, no voice warnings), never the token."""
    done = _failing_start(tmp_path, how, ["run"])
    assert done.returncode == 2, (done.stdout, done.stderr)
    lines = done.stderr.splitlines()
    assert len(lines) == 1, done.stderr
    assert FAILURES[how] in lines[0]
    assert done.stdout == ""
    assert SENTINEL not in done.stdout + done.stderr


@pytest.mark.parametrize("how", ["unauthorized", "refused", "timeout", "discord-down"])
def test_sync_stops_with_one_line_when_discord_cannot_be_used(tmp_path: Path, how: str) -> None:
    done = _failing_start(tmp_path, how, ["sync"])
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert done.stderr.splitlines() == [done.stderr.strip()]
    assert FAILURES[how] in done.stderr
    assert SENTINEL not in done.stdout + done.stderr


@pytest.mark.parametrize("how", ["unauthorized", "refused"])
@pytest.mark.parametrize("command", [[], ["run"]], ids=["no-subcommand", "run"])
def test_a_failed_start_at_the_default_log_level(tmp_path: Path, how: str, command: list[str]) -> None:
    """At INFO the log lines stay, but the failure is still one line and the last one."""
    done = _failing_start(tmp_path, how, command, level="INFO")
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr
    not_logged = [line for line in done.stderr.splitlines() if not LOG_LINE.match(line)]
    assert len(not_logged) == 1 and FAILURES[how] in not_logged[0], done.stderr
    assert done.stderr.splitlines()[-1] == not_logged[0]
    assert SENTINEL not in done.stdout + done.stderr


def test_connection_problem_leaves_bugs_alone() -> None:
    """Only failures a user can fix become one line; anything else keeps its traceback."""
    assert connection_problem(ValueError("a bug")) is None
    assert connection_problem(KeyError("a bug")) is None
    # A file that cannot be read while starting is an OSError too, but not a network problem.
    assert connection_problem(PermissionError(13, "Permission denied", "bot/locales/en.toml")) is None
    assert connection_problem(FileNotFoundError(2, "No such file or directory", "x.toml")) is None
    gateway_not_found: Callable[[], Exception] = discord.GatewayNotFound  # its __init__ is unannotated
    for exc in (discord.LoginFailure("x"), ConnectionRefusedError(), gateway_not_found()):
        line = connection_problem(exc)
        assert line is not None and "\n" not in line


# -- start-up cost ------------------------------------------------------------------------------

# What a command imported by the time it finished: the help, a missing token and the offline
# tools must not pay for discord.py (a fifth of a second), aiohttp or aiosqlite.
IMPORTED = """
import sys

from bot.cli import main

code = main(sys.argv[1:])
print("HEAVY:" + ",".join(m for m in ("discord", "aiohttp", "aiosqlite") if m in sys.modules), flush=True)
sys.exit(code)
"""


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["--help"], 0),
        (["render", "--help"], 0),
        (["run"], 2),
        (["simulate", "toy", "--players", "2"], 0),
        (["render", "toy", "--players", "2", "--moves", "3", "--out", "x.png"], 0),
    ],
    ids=["help", "render-help", "run-without-token", "simulate", "render"],
)
def test_commands_that_need_no_discord_do_not_import_it(tmp_path: Path, args: list[str], code: int) -> None:
    done = _python(tmp_path, IMPORTED, *args)
    assert done.returncode == code, (done.stdout, done.stderr)
    assert done.stdout.splitlines()[-1] == "HEAVY:", done.stdout


# -- the README's start and test commands -------------------------------------------------------


def _readme_commands() -> list[str]:
    """The first two lines of the README's first code block, read the way ``.ci/run`` reads them."""
    text = (REPO / "README.md").read_text(encoding="utf-8")
    block = text.split("```")[1]
    return block.splitlines()[1:3]


# Stands in for ``.venv/bin/python``: logs how it was called and fakes pip (exit $SHIM_PIP_EXIT,
# default 0), pytest and the bot itself, which without a token would start the sandbox and keep
# serving it (``tests/bot/sandbox`` starts it for real, and ``.ci/run`` runs the README's line as it is).
SHIM = """#!/bin/sh
echo "$*" >> "$SHIM_LOG"
case "$1 $2" in
    "-m pip") exit "${SHIM_PIP_EXIT:-0}" ;;
    "-m pytest") exit 0 ;;
    "-m bot") echo "BOT STARTED"; exit 0 ;;
esac
exec "$REAL_PYTHON" "$@"
"""


class Checkout:
    """A folder with ``pyproject.toml`` and a stand-in ``.venv`` in which the README's lines run."""

    def __init__(self, tmp_path: Path) -> None:
        self.root = tmp_path / "checkout"
        (self.root / ".venv" / "bin").mkdir(parents=True)
        shim = self.root / ".venv" / "bin" / "python"
        shim.write_text(SHIM, encoding="utf-8")
        shim.chmod(0o755)
        self.pyproject = self.root / "pyproject.toml"
        self.pyproject.write_bytes((REPO / "pyproject.toml").read_bytes())
        self.log = tmp_path / "calls.log"
        self.log.touch()
        self.env = _env(tmp_path, {"SHIM_LOG": str(self.log), "REAL_PYTHON": sys.executable})

    def run(self, line: str, pip_exit: int = 0) -> tuple[subprocess.CompletedProcess[str], list[str], float]:
        """The line's result, the interpreter calls it made, and how long it took."""
        before = self.log.read_text(encoding="utf-8").splitlines()
        started = time.perf_counter()
        done = subprocess.run(
            ["bash", "-c", line],
            cwd=self.root,
            env=dict(self.env, SHIM_PIP_EXIT=str(pip_exit)),
            capture_output=True,
            text=True,
            timeout=TIMEOUT,
            check=False,
        )
        seconds = time.perf_counter() - started
        return done, self.log.read_text(encoding="utf-8").splitlines()[len(before) :], seconds


def _started_the_bot(done: subprocess.CompletedProcess[str]) -> None:
    """The line went as far as starting the bot (the shim's stand-in)."""
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert done.stdout.splitlines()[-1] == "BOT STARTED", done.stdout


def test_the_readme_start_command_installs_only_when_pyproject_changed(tmp_path: Path) -> None:
    run_line, _ = _readme_commands()
    assert "-m bot" in run_line and "pip install" in run_line
    checkout = Checkout(tmp_path)

    first, calls, _ = checkout.run(run_line)
    _started_the_bot(first)
    assert calls == ["-m pip install -q -e .", "-m bot"]

    second, calls, seconds = checkout.run(run_line)
    _started_the_bot(second)
    assert calls == ["-m bot"], "the second start installed again"
    assert seconds < 3, f"the second start took {seconds:.2f} s"

    checkout.pyproject.touch()  # a newer file with the same content needs nothing
    assert checkout.run(run_line)[1] == ["-m bot"]

    checkout.pyproject.write_text(checkout.pyproject.read_text() + "\n# changed\n", encoding="utf-8")
    changed, calls, _ = checkout.run(run_line)
    _started_the_bot(changed)
    assert calls == ["-m pip install -q -e .", "-m bot"]
    assert checkout.run(run_line)[1] == ["-m bot"]


def test_the_readme_start_command_does_not_start_after_a_failed_install(tmp_path: Path) -> None:
    """A failed install starts nothing and is tried again next time (no copy of pyproject left)."""
    run_line, _ = _readme_commands()
    checkout = Checkout(tmp_path)
    failed, calls, _ = checkout.run(run_line, pip_exit=1)
    assert failed.returncode == 1, (failed.stdout, failed.stderr)
    assert calls == ["-m pip install -q -e ."]
    again, calls, _ = checkout.run(run_line)
    _started_the_bot(again)
    assert calls == ["-m pip install -q -e .", "-m bot"]


def test_the_readme_test_command_installs_the_dev_extras_once(tmp_path: Path) -> None:
    """Its own record: a start (which installs without the dev extras) does not let it skip them."""
    run_line, test_line = _readme_commands()
    assert "-m pytest" in test_line
    checkout = Checkout(tmp_path)
    checkout.run(run_line)
    tested, calls, _ = checkout.run(test_line)
    assert tested.returncode == 0, (tested.stdout, tested.stderr)
    assert calls == ["-m pip install -q -e .[dev]", "-m pytest"]
    assert checkout.run(test_line)[1] == ["-m pytest"]
    assert checkout.run(run_line)[1] == ["-m bot"]


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


def _tree(root: Path) -> set[str]:
    """Every file and folder under ``root``, to prove a command created nothing."""
    return {str(path.relative_to(root)) for path in root.rglob("*")}


@pytest.mark.parametrize(
    "where", ["missing-file", "missing-folders", "relative"], ids=lambda where: str(where)
)
def test_games_on_a_missing_database_says_none_and_creates_nothing(tmp_path: Path, where: str) -> None:
    """No file, no ``-wal``/``-shm``/``-journal``, no folder: a mistyped ``GAMEHOST_DB`` leaves no trace."""
    (tmp_path / "existing").mkdir()
    db = {
        "missing-file": str(tmp_path / "existing" / "fresh.sqlite3"),
        "missing-folders": str(tmp_path / "new" / "deeper" / "fresh.sqlite3"),
        "relative": "fresh.sqlite3",  # taken from the working directory
    }[where]
    _cwd(tmp_path)
    before = _tree(tmp_path)
    done = cli(tmp_path, "games", env={"GAMEHOST_DB": db})
    assert done.returncode == 0, (done.stdout, done.stderr)
    lines = done.stdout.splitlines()
    assert len(lines) == 1, done.stdout
    assert lines[0].startswith("no games"), lines[0]
    shown = Path(db) if Path(db).is_absolute() else _cwd(tmp_path) / db
    assert str(shown) in lines[0], "the message names the file that was looked for"
    assert "Traceback" not in done.stderr and "created a new" not in done.stderr
    assert _tree(tmp_path) == before, "games created something"


def test_export_from_a_missing_database_exits_2_and_creates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "new" / "fresh.sqlite3"
    before = _tree(tmp_path)
    done = cli(tmp_path, "export", "1", env={"GAMEHOST_DB": str(db)})
    assert done.returncode == 2, (done.stdout, done.stderr)
    assert "no game 1" in done.stderr and str(db) in done.stderr
    assert done.stdout == "" and "Traceback" not in done.stderr
    assert _tree(tmp_path) - before <= {"cwd"}, "export created something"
    assert not db.parent.exists()


def test_games_on_an_empty_database_says_none(tmp_path: Path) -> None:
    db = tmp_path / "empty.sqlite3"

    async def create() -> None:
        await (await Store.open(db)).close()

    asyncio.run(create())
    done = cli(tmp_path, "games", env={"GAMEHOST_DB": str(db)})
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [f"no games in {db}"]


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


# -- health -------------------------------------------------------------------------------------


def test_health_is_one_json_line_a_monitor_can_read(tmp_path: Path, store_target: str | Path) -> None:
    async def a_table_with_an_overdue_reminder() -> None:
        store = await Store.open(store_target)
        try:
            lobby = LobbyService(SessionService(store, REGISTRY, clock=lambda: 1000.0))
            game = await lobby.create(
                game="toy",
                options_text="",
                host_id=1,
                host_name="ana",
                guild_id=5,
                channel_id=6,
                language="en",
                remind_hours=1,
            )
            await lobby.join(game.id, 2, "bob")
            await lobby.start(game.id, 1, seed=1)
            await lobby.create(
                game="toy",
                options_text="",
                host_id=3,
                host_name="cy",
                guild_id=5,
                channel_id=6,
                language="en",
            )
        finally:
            await store.close()

    asyncio.run(a_table_with_an_overdue_reminder())
    done = cli(tmp_path, "health", env={"GAMEHOST_DB": str(store_target)})
    assert done.returncode == 1, done.stderr  # the reminder has been due since 1970: late
    (line,) = done.stdout.splitlines()
    report = json.loads(line)
    assert report["database"]["reachable"] and report["database"]["schema"] >= 6
    assert report["database"]["backend"] == ("sqlite" if isinstance(store_target, Path) else "postgres")
    assert report["open_tables"] == {"lobby": 1, "active": 1}
    assert report["oldest_due_deadline"]["at"] == 1000.0 + 3600 and report["oldest_due_deadline"]["late"]
    assert report["ok"] is False and report["shards"] is None


def test_health_of_a_missing_database_says_so_and_creates_nothing(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "games.sqlite3"
    done = cli(tmp_path, "health", env={"GAMEHOST_DB": str(missing), "GAMEHOST_SHARD_COUNT": "2"})
    assert done.returncode == 1
    report = json.loads(done.stdout)
    assert report == {
        "ok": False,
        "database": {"reachable": False, "error": f"no database at {missing}"},
        "shards": "0-1 of 2",
    }
    assert not missing.parent.exists()
