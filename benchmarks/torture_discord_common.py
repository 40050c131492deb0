"""Shared plumbing of the two SimCord torture runs (``torture_fuzz`` and ``torture_hidden_money``).

Both drive the real bot (``bot.client.GameBot``: command tree, ``DynamicItem``
routing, modals, ephemeral replies, attachments) through SimCord's simulated
Discord and judge it only from the outside:

- what players see: SimCord's own message store (content, components,
  attachments, timestamps), read directly instead of converting every message
  into a ``discord.Message`` (that conversion made long runs quadratic);
- what the bot did: its SQLite file, read through a second connection
  (``games`` and ``actions`` rows), never through the bot's objects;
- what it logged: a handler on the root logger.

SimCord keeps every ephemeral reply that carries buttons alive for 15 minutes
(discord.py gives such views that timeout) and every opened form for 10, and
its settling scans all of those timers on every interaction: ``drain`` moves
virtual time past them now and then, or a long run slows down quadratically.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import re
import sqlite3
import tempfile
import traceback
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import simcord
from simcord.backend.errors import BackendError, SetupError
from simcord.components import walk_components
from simcord.results import InteractionResult, ResponseMessage

from bot.client import GameBot
from bot.core.config import Settings
from bot.core.registry import Registry
from bot.games import REGISTRY
from harness.messages import controls, payload_words, words_of
from rules.core import Action

REPO = Path(__file__).resolve().parent.parent
DISCORD_CONTENT_LIMIT = 2000
LAYOUT_TEXT_LIMIT = 4000
"""Characters of text displays a layout message (Components V2) may hold in all."""
EPHEMERAL_VIEW_SECONDS = 15 * 60
"""discord.py gives a view sent in an ephemeral reply this timeout (the interaction token's life)."""
UNDELIVERABLE = (SetupError,)
"""SimCord refuses what a real Discord client could not send (a disabled button, an empty required field)."""


def undeliverable(exc: BaseException) -> bool:
    """Whether SimCord refused an input no client could send: ``UNDELIVERABLE``, or a form whose
    message is gone (``/game show`` deletes the board a form was opened from; Discord code 10008)."""
    return isinstance(exc, UNDELIVERABLE) or (isinstance(exc, BackendError) and exc.code == 10008)


BUTTON, SELECT = 2, 3


def scratch_dir(prefix: str) -> Path:
    """A fresh directory, in memory when the machine has /dev/shm (the bot syncs every commit)."""
    shm = Path("/dev/shm")
    base = str(shm) if shm.is_dir() and os.access(shm, os.W_OK) else None
    return Path(tempfile.mkdtemp(prefix=prefix, dir=base))


def settings(workdir: Path) -> Settings:
    return Settings(
        token=None, database=workdir / "host.sqlite3", dev_guild=None, log_level="INFO", language="en"
    )


_BOTS: list[GameBot] = []


def make_bot(workdir: Path, registry: Registry = REGISTRY) -> GameBot:
    bot = GameBot(settings(workdir), registry=registry)
    _BOTS.append(bot)
    return bot


async def close_bots() -> None:
    """Close the databases of every bot made here: SimCord detaches a bot without closing it,
    and an open connection would outlive its event loop."""
    while _BOTS:
        store = getattr(_BOTS.pop(), "store", None)
        if store is not None:
            await store.close()


def register_toy() -> None:
    import harness.toygame  # noqa: F401  (importing registers the test-only toy game)


# -- logs ------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """One log record as it was emitted."""

    level: int
    logger: str
    message: str
    exc: str | None

    @property
    def traceback(self) -> bool:
        return self.exc is not None or "Traceback" in self.message

    def line(self) -> str:
        return f"{logging.getLevelName(self.level)} {self.logger}: {self.message}"


class LogTap(logging.Handler):
    """Keeps every record at ``level`` and above from every logger (installed on the root logger)."""

    def __init__(self, level: int = logging.INFO) -> None:
        super().__init__(level)
        self.records: list[Seen] = []
        self._old_level: int | None = None

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = record.getMessage()
        except Exception as exc:  # a broken format string is a finding too, not a crash of the run
            message = f"<unformattable log record {record.msg!r}: {exc}>"
        exc_text = None
        if record.exc_info and record.exc_info[0] is not None:
            exc_text = "".join(traceback.format_exception(*record.exc_info))
        self.records.append(Seen(record.levelno, record.name, message, exc_text))

    def install(self) -> LogTap:
        root = logging.getLogger()
        self._old_level = root.level
        root.setLevel(min(root.level or logging.WARNING, self.level))
        root.addHandler(self)
        return self

    def uninstall(self) -> None:
        root = logging.getLogger()
        root.removeHandler(self)
        if self._old_level is not None:
            root.setLevel(self._old_level)

    @property
    def cursor(self) -> int:
        return len(self.records)

    def since(self, cursor: int) -> list[Seen]:
        return self.records[cursor:]

    def forget(self) -> None:
        """Drop what was kept (long runs); cursors taken before are invalid afterwards."""
        self.records.clear()


@contextlib.contextmanager
def tapped(level: int = logging.INFO) -> Iterator[LogTap]:
    tap = LogTap(level).install()
    try:
        yield tap
    finally:
        tap.uninstall()


# -- SimCord's message store -------------------------------------------------------------------------


def stored_messages(env: simcord.Env, channel_id: int) -> list[Any]:
    """Every message SimCord holds for a channel (ephemeral ones included), oldest first."""
    found = env.backend.messages.get(channel_id, {})
    return [found[key] for key in sorted(found)]


def public_messages(env: simcord.Env, channel_id: int) -> list[Any]:
    return [m for m in stored_messages(env, channel_id) if not m.is_ephemeral]


def components(message: Any) -> list[dict[str, Any]]:
    """Interactive components (buttons, selects) of a stored message, in order."""
    return [c for c in walk_components(message.components) if c.get("type") in (BUTTON, SELECT)]


def custom_ids(message: Any) -> list[str]:
    return [str(c.get("custom_id", "")) for c in components(message)]


def clickable(env: simcord.Env, message: Any) -> ResponseMessage:
    """A cheap handle SimCord's actors accept for a stored message (no discord.Message conversion)."""
    return ResponseMessage(env, message)


def stored_of(env: simcord.Env, handle: ResponseMessage) -> Any:
    """The current stored state of a message behind a handle (it may have been edited)."""
    return env.backend.messages.get(handle.channel_id, {}).get(handle.id)


def live_board(env: simcord.Env, channel_id: int | None, game_id: int) -> Any | None:
    """The newest public message in ``channel_id`` with a live component of table ``game_id``."""
    if channel_id is None:
        return None
    pattern = re.compile(rf"[gums]:{game_id}:")
    for message in reversed(public_messages(env, channel_id)):
        if any(pattern.match(cid) for cid in custom_ids(message)):
            return message
    return None


def attachment_digests(env: simcord.Env, message: Any) -> list[str]:
    """``filename:sha256`` of every attachment, from SimCord's CDN (the bytes players download)."""
    out = []
    for attachment in message.attachments:
        blob = env.backend.cdn.get(str(attachment.get("url")))
        digest = hashlib.sha256(blob).hexdigest()[:16] if blob is not None else "missing"
        out.append(f"{attachment.get('filename')}:{digest}")
    return out


def forget_attachments(env: simcord.Env) -> None:
    """Free the CDN's copies of attachments (long runs would otherwise keep every board image)."""
    blobs = getattr(env.backend.cdn, "_blobs", None)
    if isinstance(blobs, dict):
        blobs.clear()


def forget_logs(env: simcord.Env) -> None:
    """Free SimCord's request log and transcript (long runs)."""
    for name in ("http_requests", "transcript"):
        kept = getattr(env.backend, name, None)
        if isinstance(kept, list):
            kept.clear()


@contextlib.contextmanager
def quick_settle(idle: float = 0.001) -> Iterator[None]:
    """Let SimCord look for the bot going idle every millisecond instead of every 50 ms.

    After each interaction SimCord waits until the bot has no runnable work left; while only
    done-callbacks of finished tasks remain queued it sleeps its ``idle`` interval (50 ms) before
    looking again, which puts a floor of about 52 ms under every click (a refused click takes 2.5 ms
    with 1 ms).  Only the polling interval changes: what counts as settled, and the 5-second
    deadline, stay SimCord's own.
    """
    from simcord import env as env_module

    original = env_module.Env._settle_internal

    async def settle(
        self: simcord.Env,
        *,
        timeout: float | None = None,
        idle: float = 0.05,
        dispatch: str | None = None,
        _deadline: float | None = None,
    ) -> None:
        await original(self, timeout=timeout, idle=min(idle, quick), dispatch=dispatch, _deadline=_deadline)

    quick = idle
    setattr(env_module.Env, "_settle_internal", settle)  # noqa: B010  (a method of SimCord's own class)
    try:
        yield
    finally:
        setattr(env_module.Env, "_settle_internal", original)  # noqa: B010


async def drain(env: simcord.Env) -> None:
    """Move virtual time past every ephemeral view and form timeout (see the module docstring)."""
    await env.advance_time(EPHEMERAL_VIEW_SECONDS + 1)


# -- answers -----------------------------------------------------------------------------------------


def replies(result: InteractionResult) -> list[ResponseMessage]:
    out = []
    response = result.response
    if response is not None:
        out.append(response)
    out.extend(result.followups)
    return out


def unanswered(result: InteractionResult) -> str | None:
    """Why Discord would show "This interaction failed" (or refuse the reply), or None."""
    if not result.acknowledged:
        return "not acknowledged"
    found = replies(result)
    interaction = getattr(result, "_interaction", None)
    kind = str(getattr(interaction, "response_kind", "") or "")
    if kind == "deferred" and not result.followups and found and not words_of(found[0]).strip():
        first = found[0]
        if not controls(first) and not first.attachments:
            return 'deferred ("thinking") and never answered'
    for reply in found:
        if len(words_of(reply)) > DISCORD_CONTENT_LIMIT:
            return f"reply of {len(words_of(reply))} characters"
    return None


def oversized_requests(env: simcord.Env, cursor: int) -> list[str]:
    """REST calls since ``cursor`` whose message content Discord would reject (over 2,000 characters).

    SimCord refuses them (the bot sees a 400), so the player never sees that reply or message.
    """
    found = []
    for entry in env.backend.http_requests[cursor:]:
        payload: dict[str, Any] = entry.json if isinstance(entry.json, dict) else {}
        inner = payload.get("data")
        data: dict[str, Any] = inner if isinstance(inner, dict) else {}
        for content in (payload.get("content"), data.get("content")):
            if isinstance(content, str) and len(content) > DISCORD_CONTENT_LIMIT:
                found.append(f"{entry.method} {entry.path.split('/')[1]}: {len(content)} characters")
        for body in (payload, data):
            words = len(payload_words({**body, "content": ""}))
            if words > LAYOUT_TEXT_LIMIT:
                found.append(
                    f"{entry.method} {entry.path.split('/')[1]}: {words} characters of text displays"
                )
    return found


def reply_text(result: InteractionResult) -> str:
    return "\n".join(words_of(r) for r in replies(result))


# -- the bot's database, read from outside --------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RowState:
    """The columns of a game's row that a refused input must not change."""

    status: str
    version: int
    public_version: int
    snapshot: str

    def brief(self) -> str:
        digest = hashlib.sha256(self.snapshot.encode()).hexdigest()[:8]
        return f"{self.status} v{self.version} pv{self.public_version} snap:{digest}"


@dataclass(frozen=True, slots=True)
class GameFacts:
    id: int
    game: str
    status: str
    version: int
    public_version: int
    snapshot: str | None
    host_id: int
    guild_id: int | None
    channel_id: int | None
    thread_id: int | None

    @property
    def table_channel(self) -> int | None:
        return self.thread_id or self.channel_id


class DbPeek:
    """A second connection to the bot's SQLite file; it only ever reads."""

    def __init__(self, path: Path) -> None:
        self.db = sqlite3.connect(str(path), isolation_level=None, check_same_thread=False)

    def close(self) -> None:
        self.db.close()

    def rows(self) -> dict[int, RowState]:
        cur = self.db.execute("SELECT id, status, version, public_version, COALESCE(snapshot, '') FROM games")
        return {int(r[0]): RowState(str(r[1]), int(r[2]), int(r[3]), str(r[4])) for r in cur.fetchall()}

    def game(self, game_id: int) -> GameFacts | None:
        cur = self.db.execute(
            "SELECT id, game, status, version, public_version, snapshot, host_id, guild_id, channel_id,"
            " thread_id FROM games WHERE id = ?",
            (game_id,),
        )
        row = cur.fetchone()
        if row is None:
            return None
        return GameFacts(
            int(row[0]),
            str(row[1]),
            str(row[2]),
            int(row[3]),
            int(row[4]),
            row[5],
            int(row[6]),
            row[7],
            row[8],
            row[9],
        )

    def games(self, statuses: Sequence[str] = ()) -> list[GameFacts]:
        ids = [int(r[0]) for r in self.db.execute("SELECT id FROM games ORDER BY id").fetchall()]
        found = [g for g in (self.game(i) for i in ids) if g is not None]
        return [g for g in found if not statuses or g.status in statuses]

    def seats(self, game_id: int) -> dict[int, int]:
        """user id -> seat."""
        cur = self.db.execute("SELECT user_id, seat FROM seats WHERE game_id = ?", (game_id,))
        return {int(r[0]): int(r[1]) for r in cur.fetchall()}

    def action(self, game_id: int, version: int) -> tuple[int, Action] | None:
        cur = self.db.execute(
            "SELECT seat, action FROM actions WHERE game_id = ? AND version = ?", (game_id, version)
        )
        row = cur.fetchone()
        if row is None:
            return None
        return int(row[0]), Action.from_json(json.loads(row[1]))

    def last_game_id(self) -> int:
        row = self.db.execute("SELECT MAX(id) FROM games").fetchone()
        return int(row[0] or 0)


def state_of(facts: GameFacts, registry: Registry = REGISTRY) -> Any | None:
    """The engine state in a game's saved snapshot (None before the start or if it does not load)."""
    entry = registry.get(facts.game)
    if entry is None or not facts.snapshot:
        return None
    try:
        return entry.rules.load(json.loads(facts.snapshot))
    except Exception:
        return None


# -- numbers as a person means them ------------------------------------------------------------------

_ASCII_INT = re.compile(r"[+-]?[0-9]+")


def intended_number(text: str) -> int | None:
    """The whole number someone typing ``text`` meant, or None if it is not one.

    Surrounding spaces and one sign are fine, and so are digits of any script that Python reads as
    decimal digits ("٣", "３"): a host may accept those.  Anything else ("--5", "²", "①", "1e3",
    "0x10", "1_0", "2.0") is not a whole number, and accepting it as one is a wrong state change.
    """
    stripped = text.strip()
    if _ASCII_INT.fullmatch(stripped):
        return int(stripped)
    body = stripped[1:] if stripped[:1] in "+-" else stripped
    if body and body.isdecimal() and all(c.isdecimal() for c in body):
        try:
            return int(stripped)
        except ValueError:
            return None
    return None


def summary_line(figures: dict[str, Any]) -> str:
    return json.dumps(figures, sort_keys=False, ensure_ascii=False)
