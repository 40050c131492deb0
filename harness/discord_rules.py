"""Real Discord's rules on top of SimCord: the Discord rules layer of the tests and benchmarks.

SimCord is kinder than Discord: its threads never archive, nothing is refused in an archived or
locked thread, a server has no thread cap, there are no rate limits, and wall-clock time spent
before an interaction's first response costs nothing. A suite that passes there can still fail on
the real thing, so every Discord test should run on this layer (``design.md``, "Real Discord").

Everything that reaches into SimCord's internals lives in this module and nowhere else:
``simcord.http.router.dispatch`` (both fake transports call it as ``router.dispatch``), the two
fake transports' ``request`` (to retry 429s as discord.py does), ``Backend.advance_clock`` and
``Backend.commit_message`` per backend instance (time moving, a new message landing), a backend
gateway subscriber, and ``Env._register_dispatch_observer`` (an interaction being dispatched).

Sources, repository discord/discord-api-docs (read at c98d64b, 2026-08-06):

- ``developers/topics/threads.mdx``: archive after ``auto_archive_duration`` without activity
  (a message, unarchiving, changing the duration; edits are not activity); nothing but deleting
  happens in an archived thread; a message unarchives unless locked; locked threads refuse
  creating or updating messages without MANAGE_THREADS; guilds cap their active threads.
- ``developers/topics/rate-limits.mdx``: per-route buckets keyed by the top-level resource
  (channel, guild, webhook id + token); 50 requests a second for the whole bot; the 429 body
  ``{"message", "retry_after", "global"}``; interaction endpoints are not bound by the global
  limit; 10,000 invalid requests (401, 403, 429) per 10 minutes get the bot banned.
- ``developers/interactions/receiving-and-responding.mdx``: first response within 3 seconds, or
  the token is invalidated; tokens last 15 minutes.
- ``developers/topics/opcodes-and-status-codes.mdx``: the JSON codes 10003, 10015, 10062, 30046,
  40060, 50001, 50027, 50083, 160005, 160006. That page gives no HTTP statuses; the statuses used
  here are in ``_refuse``'s table, each with where it came from.
"""

from __future__ import annotations

import asyncio
import copy
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from types import TracebackType
from typing import Any, Protocol

import discord
from discord.http import HTTPClient
from simcord import _dpy_internals as sim_internals
from simcord.backend import Backend
from simcord.backend.errors import BackendError
from simcord.backend.models import Channel, Message
from simcord.backend.models import Interaction as SimInteraction
from simcord.env import Env
from simcord.http import client as sim_client
from simcord.http import router as sim_router
from simcord.types import HttpLogEntry

__all__ = [
    "DEFAULT_LIMITS",
    "DiscordRules",
    "Enforcement",
    "InteractionRecord",
    "Limits",
    "enforce",
    "route_of",
    "rules_for",
]

ARCHIVE_DURATIONS = (60, 1440, 4320, 10080)
"""The only ``auto_archive_duration`` values Discord accepts, in minutes."""

OLD_MESSAGE = timedelta(hours=1)
"""Edits of messages older than this are the ones 30046 rations."""


@dataclass(frozen=True)
class Limits:
    """What the layer enforces; the defaults are Discord's (or, for the route bucket, typical).

    ``routes`` overrides the bucket of one route, keyed like ``"POST /channels/{channel_id}/messages"``:
    the method, then the path with ``{channel_id}``, ``{guild_id}``, ``{webhook_id}`` or
    ``{interaction_id}`` as its first parameter, ``{token}`` after a webhook or interaction id,
    ``{emoji}`` after ``reactions`` and ``{id}`` for any other snowflake.
    """

    route: tuple[int, float] = (5, 5.0)
    """Requests per window, window seconds: every route's bucket unless ``routes`` names it."""
    routes: Mapping[str, tuple[int, float]] = field(default_factory=dict, hash=False)
    global_per_second: int = 50
    client_waits: bool = True
    """discord.py reads X-RateLimit-Remaining/Reset-After and waits before spending an exhausted
    bucket; SimCord sends no headers, so the layer waits for it. False: the request goes out and
    gets the 429 (and its retry), which is what a bucket test wants to see."""
    ban_at: int | None = 10_000
    """Invalid requests in ``invalid_window`` after which everything is refused (a Cloudflare ban)."""
    invalid_window: float = 600.0
    thread_cap: int = 1000
    bot_manages_threads: bool = False
    """Whether the bot has Manage Threads for the lock rule (SimCord's admin rights do not count)."""
    old_edits_per_hour: int = 10
    first_response: float = 3.0
    token_lifetime: float = 900.0


DEFAULT_LIMITS = Limits()


@dataclass(slots=True)
class InteractionRecord:
    """One interaction SimCord dispatched, and how the bot's first response went."""

    id: int
    kind: str
    """slash, user_command, message_command, button, select, modal_submit or autocomplete."""
    channel_id: int
    dispatched_wall: float
    """``time.perf_counter()`` at dispatch."""
    dispatched_virtual: datetime
    """SimCord's virtual UTC instant at dispatch."""
    at: float
    """The layer's clock at dispatch (see :meth:`DiscordRules.clock`)."""
    latency: float | None = None
    """Layer seconds from dispatch to the first successful callback; None while unanswered."""
    late: bool = False
    """A first response came after ``Limits.first_response`` and was refused (10062)."""


class _Patcher(Protocol):
    """What :func:`enforce` needs of pytest's ``monkeypatch``."""

    def setattr(self, target: Any, name: str, value: Any, raising: bool = ...) -> None: ...


# -- refusals ----------------------------------------------------------------------------------


def _refuse(code: int) -> BackendError:
    """The error Discord answers with; statuses are not in the docs' code table, so each says why."""
    status, message = {
        # SimCord's own catalog (simcord/backend/errors.py) for the codes it already models.
        10015: (404, "Unknown Webhook"),
        10062: (404, "Unknown interaction"),
        50001: (403, "Missing Access"),
        # 400: seen from Discord in victornpb/undiscord#399 ({"message": "Thread is archived",
        # "code": 50083} on HTTP 400); the text is the docs' table.
        50083: (400, "Operation cannot be performed on an archived thread"),
        # 401: an expired interaction token is an invalid credential (HTTP 401 per the docs'
        # status table: "the Authorization header was missing or invalid").
        50027: (401, "Invalid Webhook Token"),
        # 403: a permission refusal (missing Manage Threads), answered like 50013/50001; Discord
        # answers the neighbouring locked-thread refusal with 403 (discord-api-docs#7707).
        160005: (403, "Thread is locked"),
        # 400: limits reached are Bad Requests on Discord (the 30xxx family answers 400).
        160006: (400, "Maximum number of active threads reached"),
        30046: (400, "Maximum number of edits to messages older than 1 hour reached. Try again later."),
    }[code]
    return BackendError(status, code, message)


class _RateLimited(BackendError):
    """A 429 whose JSON body carries ``retry_after`` and ``global``, as Discord's does."""

    def __init__(self, retry_after: float, *, is_global: bool, banned: bool = False) -> None:
        super().__init__(429, 0, "You are being rate limited.")
        self.retry_after = max(retry_after, 0.001)
        self.is_global = is_global
        self.banned = banned
        """A Cloudflare ban: discord.py gives up at once on it (no ``Via`` header), no retry."""

    def to_json(self) -> dict[str, Any]:
        return {"message": self.message, "retry_after": round(self.retry_after, 3), "global": self.is_global}


@dataclass(slots=True)
class _Bucket:
    """A fixed window, as Discord's buckets behave: ``limit`` requests, then wait for the reset."""

    limit: int
    per: float
    used: int = 0
    resets: float = float("-inf")

    def wait(self, now: float) -> float:
        """Seconds until a request may go out on this bucket (0 when it may go now)."""
        if now >= self.resets or self.used < self.limit:
            return 0.0
        return self.resets - now

    def take(self, now: float) -> None:
        if now >= self.resets:
            self.used, self.resets = 0, now + self.per
        self.used += 1


_MAJOR = {
    "channels": "{channel_id}",
    "guilds": "{guild_id}",
    "webhooks": "{webhook_id}",
    "interactions": "{interaction_id}",
}


def route_of(method: str, path: str) -> tuple[str, str]:
    """``("POST /channels/{channel_id}/messages", "123")``: a request's route and major parameter.

    The major parameter is the top-level resource a bucket counts against (rate-limits.mdx: channel,
    guild, or webhook id + token; an interaction's id + token is its token's own bucket).
    """
    segments = path.strip("/").split("/")
    head = segments[0]
    shape: list[str] = []
    major = ""
    for index, segment in enumerate(segments):
        if index == 1 and head in _MAJOR:
            shape.append(_MAJOR[head])
            major = segment
        elif index == 2 and head in ("webhooks", "interactions"):
            shape.append("{token}")
            major += "/" + segment
        elif segment.isdigit():
            shape.append("{id}")
        elif index and segments[index - 1] == "reactions":
            shape.append("{emoji}")
        else:
            shape.append(segment)
    return f"{method} /" + "/".join(shape), major


@dataclass(slots=True)
class _Call:
    """What one request would do, as far as the rules care."""

    route: str
    major: str
    interaction_route: bool = False
    channel_id: int | None = None
    guild_id: int | None = None
    new_message_in: int | None = None
    edit_of: tuple[int, int] | None = None
    delete_of: tuple[int, int] | None = None
    touch_in: int | None = None
    creates_thread_in: int | None = None
    thread_patch: int | None = None
    callback: SimInteraction | None = None
    token_of: SimInteraction | None = None
    was: tuple[bool, int] | None = None
    old_edit_in: int | None = None


def _ephemeral(body: Any) -> bool:
    flags = body.get("flags") if isinstance(body, dict) else None
    try:
        return bool(int(flags or 0) & 64)
    except (TypeError, ValueError):
        return False


# -- the layer ---------------------------------------------------------------------------------


class DiscordRules:
    """Discord's rules for one SimCord backend, shared by every bot and restart attached to it.

    Counters: ``requests`` (every request), ``answers`` (a Counter of (status, code), 200 as
    (200, 0)), ``peak_rps`` (most requests in any one second of the layer's clock), ``invalid`` /
    ``invalid_peak`` (401, 403 and 429 answers in the rolling window). Interactions:
    ``interactions``, :meth:`unanswered`, :meth:`late`.
    """

    def __init__(self, backend: Backend, limits: Limits = DEFAULT_LIMITS) -> None:
        self.backend = backend
        self.limits = limits
        self._wall0 = time.perf_counter()
        self._virtual0 = backend.clock.elapsed
        self.requests = 0
        self.answers: Counter[tuple[int, int]] = Counter()
        self.peak_rps = 0
        self.invalid_peak = 0
        self._second: deque[float] = deque()
        self._invalid: deque[float] = deque()
        self._global = _Bucket(limits.global_per_second, 1.0)
        self._buckets: dict[str, _Bucket] = {}
        self._interactions: dict[int, InteractionRecord] = {}
        self._posted: dict[int, datetime] = {}
        self._caps: dict[int, int] = {}
        self._occupied: dict[int, int] = {}
        self._gone_channels: set[int] = set()
        self._gone_guilds: set[int] = set()
        self._old_edits: dict[int, deque[float]] = {}
        self._swept: datetime | None = None
        self._envs: dict[int, Callable[[], None]] = {}
        self._installed = False

    # -- installing ----------------------------------------------------------------------------

    @classmethod
    def install(cls, env: Env, limits: Limits = DEFAULT_LIMITS) -> DiscordRules:
        """Run ``env``'s backend on the rules; a backend already on them keeps its state (and limits)."""
        rules = _rules_of(env.backend)
        if rules is None:
            rules = cls(env.backend, limits)
            rules._attach_backend()
        rules._attach_env(env)
        return rules

    def uninstall(self) -> None:
        """Give the backend back to plain SimCord; the counters stay readable."""
        if not self._installed:
            return
        self._installed = False
        for unregister in self._envs.values():
            unregister()
        self._envs.clear()
        for name in ("advance_clock", "commit_message"):
            if name in vars(self.backend):
                delattr(self.backend, name)
        if self._on_event in self.backend.subscribers:
            self.backend.subscribers.remove(self._on_event)
        if getattr(self.backend, _ATTRIBUTE, None) is self:
            delattr(self.backend, _ATTRIBUTE)
        _release()

    def _attach_backend(self) -> None:
        backend = self.backend
        advance, commit = backend.advance_clock, backend.commit_message

        def advance_clock(seconds: float) -> None:
            advance(seconds)
            self._sweep()

        def commit_message(message: Message, *, broadcast: bool = True) -> Message:
            self._on_new_message(message)
            return commit(message, broadcast=broadcast)

        setattr(backend, "advance_clock", advance_clock)  # noqa: B010  (an instance override)
        setattr(backend, "commit_message", commit_message)  # noqa: B010
        backend.subscribers.append(self._on_event)
        setattr(backend, _ATTRIBUTE, self)
        self._installed = True
        _acquire()
        self._sweep()

    def _attach_env(self, env: Env) -> None:
        if id(env) in self._envs:
            return

        def observe(record: Any) -> None:
            rules = _rules_of(env.backend)
            if rules is not None:
                rules._on_dispatch(record)

        self._envs[id(env)] = env._register_dispatch_observer(observe)

    # -- clocks and counters -------------------------------------------------------------------

    def clock(self) -> float:
        """Seconds since install: wall time plus SimCord's virtual time, so both a quick real
        burst and ``advance_time`` count (rate limits, interaction deadlines, rolling windows)."""
        return (time.perf_counter() - self._wall0) + (self.backend.clock.elapsed - self._virtual0)

    @property
    def invalid(self) -> int:
        """401, 403 and 429 answers in the last ``Limits.invalid_window`` seconds."""
        self._prune(self._invalid, self.limits.invalid_window)
        return len(self._invalid)

    @property
    def interactions(self) -> list[InteractionRecord]:
        return list(self._interactions.values())

    def unanswered(self) -> list[InteractionRecord]:
        """Interactions never acknowledged successfully (a late first response included)."""
        return [record for record in self._interactions.values() if record.latency is None]

    def late(self) -> list[InteractionRecord]:
        return [record for record in self._interactions.values() if record.late]

    def _prune(self, window: deque[float], seconds: float) -> None:
        cutoff = self.clock() - seconds
        while window and window[0] <= cutoff:
            window.popleft()

    def _count_request(self, now: float) -> None:
        self.requests += 1
        self._second.append(now)
        while self._second and self._second[0] <= now - 1.0:
            self._second.popleft()
        self.peak_rps = max(self.peak_rps, len(self._second))

    def _answer(self, status: int, code: int, now: float, *, counts: bool = True) -> None:
        self.answers[(status, code)] += 1
        if counts and status in (401, 403, 429):
            self._invalid.append(now)
            self.invalid_peak = max(self.invalid_peak, self.invalid)

    # -- world actions (what moderators and Discord do) ----------------------------------------

    def lock(self, thread_id: int) -> None:
        self.backend.edit_channel(thread_id, {}, thread_metadata={"locked": True})

    def unlock(self, thread_id: int) -> None:
        self.backend.edit_channel(thread_id, {}, thread_metadata={"locked": False})

    def archive(self, thread_id: int) -> None:
        """Archive a thread now, as a moderator (or Discord) would; emits THREAD_UPDATE."""
        self._set_archived(self.backend.get_channel(thread_id), True)

    def delete_channel(self, channel_id: int) -> None:
        """Delete a channel (its threads go with it, as on Discord): THREAD_DELETE/CHANNEL_DELETE."""
        for channel in list(self.backend.channels.values()):
            if channel.is_thread and channel.parent_id == channel_id:
                self.backend.delete_channel(channel.id)
        self.backend.delete_channel(channel_id)

    def remove_bot(self, guild_id: int) -> None:
        """The server removes the bot (GUILD_DELETE). Its channels still exist on Discord, so later
        calls get 403 50001 Missing Access, not SimCord's 404 10003 for a channel that is gone."""
        guild = self.backend.get_guild(guild_id)
        self._gone_channels.update(guild.channel_ids, guild.thread_ids)
        self._gone_guilds.add(guild_id)
        self.backend.remove_guild(guild_id)

    def set_thread_cap(self, guild_id: int, cap: int) -> None:
        self._caps[guild_id] = cap

    def occupy(self, guild_id: int, count: int) -> None:
        """Pretend ``count`` other active threads exist in the server (counted by the cap)."""
        self._occupied[guild_id] = count

    def archived(self, thread_id: int) -> bool:
        self._sweep()
        meta = self.backend.get_channel(thread_id).thread_metadata
        return bool(meta and meta.archived)

    def locked(self, thread_id: int) -> bool:
        meta = self.backend.get_channel(thread_id).thread_metadata
        return bool(meta and meta.locked)

    def active_threads(self, guild_id: int) -> int:
        """Active threads as Discord counts them for the cap: the server's plus ``occupy``'s."""
        self._sweep()
        real = len(self.backend.active_threads(guild_id)) if guild_id in self.backend.guilds else 0
        return real + self._occupied.get(guild_id, 0)

    # -- threads -------------------------------------------------------------------------------

    def _thread(self, channel_id: int | None) -> Channel | None:
        channel = self.backend.channels.get(channel_id) if channel_id is not None else None
        return channel if channel is not None and channel.thread_metadata is not None else None

    def _at_cap(self, guild_id: int | None) -> bool:
        if guild_id is None:
            return False
        return self.active_threads(guild_id) >= self._caps.get(guild_id, self.limits.thread_cap)

    def _activity(self, thread: Channel) -> datetime:
        """Last activity: a message, or what moves ``archive_timestamp`` (creating, (un)archiving,
        changing the duration: threads.mdx)."""
        meta = thread.thread_metadata
        assert meta is not None
        moments = [datetime.fromisoformat(s) for s in (meta.create_timestamp, meta.archive_timestamp) if s]
        posted = self._posted.get(thread.id)
        if posted is None and thread.last_message_id:
            posted = discord.utils.snowflake_time(thread.last_message_id)
        if posted is not None:
            moments.append(posted)
        return max(moments, default=self.backend.clock.now())

    def _set_archived(self, thread: Channel, archived: bool, at: datetime | None = None) -> None:
        moment = (at or self.backend.clock.now()).isoformat()
        self.backend.edit_channel(
            thread.id, {}, thread_metadata={"archived": archived, "archive_timestamp": moment}
        )

    def _sweep(self) -> None:
        """Archive every thread whose duration passed without activity (on SimCord's virtual time)."""
        now = self.backend.clock.now()
        if now == self._swept:
            return
        self._swept = now
        for channel in list(self.backend.channels.values()):
            meta = channel.thread_metadata
            if meta is None or meta.archived:
                continue
            due = self._activity(channel) + timedelta(minutes=meta.auto_archive_duration)
            if now >= due:
                self._set_archived(channel, True, at=due)

    def _on_new_message(self, message: Message) -> None:
        """A message landing in a thread is activity, and unarchives it unless it is locked (or the
        server is full): the bot's requests were refused before; a member's message just lands."""
        thread = self._thread(message.channel_id)
        if thread is None or message.is_ephemeral:
            return
        meta = thread.thread_metadata
        assert meta is not None
        self._sweep()
        if meta.archived:
            by_bot = message.author_id == self.backend.bot_user.id
            may = not meta.locked or (by_bot and self.limits.bot_manages_threads)
            if may and (by_bot or not self._at_cap(thread.guild_id)):
                self._set_archived(thread, False)
        self._posted[thread.id] = self.backend.clock.now()

    # -- interactions --------------------------------------------------------------------------

    def _on_dispatch(self, record: SimInteraction) -> None:
        """Record the interaction and let SimCord's own deadlines follow ``Limits``."""
        backend = self.backend
        kind = {2: "slash", 3: "component", 4: "autocomplete", 5: "modal_submit"}.get(record.type, "other")
        if record.type == 2 and record.command_type in (2, 3):
            kind = "user_command" if record.command_type == 2 else "message_command"
        self._interactions[record.id] = InteractionRecord(
            id=record.id,
            kind=kind,
            channel_id=record.channel_id,
            dispatched_wall=time.perf_counter(),
            dispatched_virtual=backend.clock.now(),
            at=self.clock(),
        )
        record.initial_response_deadline = backend.iso_after(self.limits.first_response)
        record.expires_at = backend.iso_after(self.limits.token_lifetime)

    def _on_event(self, event: str, payload: Mapping[str, Any]) -> None:
        """Name a component interaction by what was used: a button or a select."""
        if event != "INTERACTION_CREATE":
            return
        record = self._interactions.get(int(payload.get("id") or 0))
        component = (payload.get("data") or {}).get("component_type")
        if record is not None and record.kind == "component" and component is not None:
            record.kind = "button" if component == 2 else "select"

    # -- requests ------------------------------------------------------------------------------

    def _analyse(self, method: str, path: str, body: Any, params: Mapping[str, Any]) -> _Call:
        route, major = route_of(method, path)
        call = _Call(route, major)
        segments = path.strip("/").split("/")
        head, size = segments[0], len(segments)
        backend = self.backend
        if head == "channels" and size >= 2 and segments[1].isdigit():
            channel_id = call.channel_id = int(segments[1])
            tail = segments[2:]
            if not tail and method == "PATCH":
                call.thread_patch = channel_id
            elif tail == ["messages"] and method == "POST":
                call.new_message_in = channel_id
            elif tail == ["threads"] and method == "POST":
                call.creates_thread_in = channel_id
            elif len(tail) == 2 and tail[0] == "messages" and tail[1].isdigit():
                target = (channel_id, int(tail[1]))
                if method == "PATCH":
                    call.edit_of = target
                elif method == "DELETE":
                    call.delete_of = target
            elif len(tail) == 3 and tail[0] == "messages" and tail[2] == "threads" and method == "POST":
                call.creates_thread_in = channel_id
            elif method in ("PUT", "DELETE", "POST") and tail[:1] in (["messages"], ["thread-members"]):
                call.touch_in = channel_id  # reactions, pins, bulk delete, thread members
        elif head == "guilds" and size >= 2 and segments[1].isdigit():
            call.guild_id = int(segments[1])
        elif head == "interactions" and size == 4 and segments[3] == "callback":
            call.interaction_route = True
            record = backend.interactions.get(int(segments[1])) if segments[1].isdigit() else None
            if record is not None and record.token == segments[2] and isinstance(body, dict):
                call.callback = record
                kind, data = body.get("type"), body.get("data") or {}
                if kind in (4, 5) and not _ephemeral(data):
                    call.new_message_in = record.channel_id
                elif kind == 7 and record.source_message_id is not None:
                    call.edit_of = (record.channel_id, record.source_message_id)
        elif head == "webhooks" and size >= 3:
            self._analyse_webhook(call, method, segments, body, params)
        return call

    def _analyse_webhook(
        self, call: _Call, method: str, segments: list[str], body: Any, params: Mapping[str, Any]
    ) -> None:
        backend = self.backend
        token = segments[2]
        interaction_id = backend.interaction_tokens.get(token)
        record = backend.interactions.get(interaction_id) if interaction_id is not None else None
        channel_id: int | None
        if record is not None:
            call.interaction_route = True
            call.token_of = record
            channel_id = record.channel_id
        else:
            webhook_id = backend.webhook_tokens.get(token)
            webhook = backend.webhooks.get(webhook_id) if webhook_id is not None else None
            thread = params.get("thread_id")
            channel_id = int(thread) if thread else (webhook.channel_id if webhook else None)
        if channel_id is None:
            return
        if len(segments) == 3 and method == "POST":
            if record is not None and record.loading and record.message_id is not None:
                call.edit_of = (channel_id, record.message_id)  # completes the deferred original
            elif not _ephemeral(body):
                call.new_message_in = channel_id
        elif len(segments) == 5 and segments[3] == "messages":
            if segments[4] == "@original":
                message_id = record.message_id if record is not None else None
            else:
                message_id = int(segments[4]) if segments[4].isdigit() else None
            if message_id is not None:
                if method == "PATCH":
                    call.edit_of = (channel_id, message_id)
                elif method == "DELETE":
                    call.delete_of = (channel_id, message_id)

    def _message(self, target: tuple[int, int]) -> Message | None:
        return self.backend.messages.get(target[0], {}).get(target[1])

    def _admit(self, call: _Call, body: Any, now: float) -> None:
        """Raise what Discord would answer instead of doing the request; consume rate limits."""
        limits = self.limits
        if limits.ban_at is not None and self.invalid >= limits.ban_at:
            raise _RateLimited(limits.invalid_window, is_global=True, banned=True)
        if not call.interaction_route:
            wait = self._global.wait(now)
            if wait:
                raise _RateLimited(wait, is_global=True)
        bucket = self._bucket(call)
        wait = bucket.wait(now)
        if wait:
            raise _RateLimited(wait, is_global=False)
        if not call.interaction_route:
            self._global.take(now)
        bucket.take(now)
        if call.channel_id in self._gone_channels or call.guild_id in self._gone_guilds:
            raise _refuse(50001)
        self._admit_interaction(call, now)
        self._admit_threads(call, body)
        if call.edit_of is not None:
            message = self._message(call.edit_of)
            if message is not None and not message.is_ephemeral:
                born = discord.utils.snowflake_time(message.id)
                if self.backend.clock.now() - born > OLD_MESSAGE:
                    edits = self._old_edits.setdefault(call.edit_of[0], deque())
                    self._prune(edits, OLD_MESSAGE.total_seconds())
                    if len(edits) >= limits.old_edits_per_hour:
                        raise _refuse(30046)
                    call.old_edit_in = call.edit_of[0]

    def _bucket(self, call: _Call) -> _Bucket:
        key = f"{call.route} {call.major}"
        bucket = self._buckets.get(key)
        if bucket is None:
            limit, per = self.limits.routes.get(call.route, self.limits.route)
            bucket = self._buckets[key] = _Bucket(limit, per)
        return bucket

    def _admit_interaction(self, call: _Call, now: float) -> None:
        if call.callback is not None:
            record = self._interactions.get(call.callback.id)
            if record is not None and record.latency is None and now - record.at > self.limits.first_response:
                record.late = True
                raise _refuse(10062)
        if call.token_of is not None:
            record = self._interactions.get(call.token_of.id)
            if record is not None:
                if now - record.at > self.limits.token_lifetime:
                    raise _refuse(50027)
                if record.latency is None and now - record.at > self.limits.first_response:
                    raise _refuse(10015)  # "the token will be invalidated" after a missed deadline

    def _admit_threads(self, call: _Call, body: Any) -> None:
        manages = self.limits.bot_manages_threads
        for target in (call.edit_of, call.delete_of):
            thread = self._thread(target[0]) if target is not None else None
            message = self._message(target) if target is not None else None
            if thread is None or message is None or message.is_ephemeral:
                continue
            meta = thread.thread_metadata
            assert meta is not None
            if meta.archived:
                raise _refuse(50083)
            if target is call.edit_of and meta.locked and not manages:
                raise _refuse(160005)
        touched = self._thread(call.touch_in)
        if touched is not None and touched.thread_metadata is not None and touched.thread_metadata.archived:
            raise _refuse(50083)
        thread = self._thread(call.new_message_in)
        if thread is not None and thread.thread_metadata is not None:
            meta = thread.thread_metadata
            if meta.locked and not manages:
                raise _refuse(160005)
            if meta.archived and self._at_cap(thread.guild_id):
                raise _refuse(160006)
        if call.creates_thread_in is not None:
            parent = self.backend.channels.get(call.creates_thread_in)
            if parent is not None and self._at_cap(parent.guild_id):
                raise _refuse(160006)
        self._admit_thread_patch(call, body)

    def _admit_thread_patch(self, call: _Call, body: Any) -> None:
        thread = self._thread(call.thread_patch)
        if thread is None or not isinstance(body, dict):
            return
        meta = thread.thread_metadata
        assert meta is not None
        call.was = (meta.archived, meta.auto_archive_duration)
        manages = self.limits.bot_manages_threads
        if meta.archived and body.get("archived") is not False:
            raise _refuse(50083)  # changing an archived thread without unarchiving it
        if meta.locked and not manages and set(body) - {"archived"}:
            raise _refuse(160005)  # "or update properties like its title or tags"
        if meta.archived:
            if meta.locked and not manages:
                raise _refuse(160005)
            if self._at_cap(thread.guild_id):
                raise _refuse(160006)

    def _after(self, call: _Call, now: float) -> None:
        """Bookkeeping once the request succeeded."""
        if call.callback is not None:
            record = self._interactions.get(call.callback.id)
            if record is not None and record.latency is None:
                record.latency = now - record.at
        if call.old_edit_in is not None:
            self._old_edits.setdefault(call.old_edit_in, deque()).append(now)
        thread = self._thread(call.thread_patch)
        if thread is not None and call.was is not None and thread.thread_metadata is not None:
            meta = thread.thread_metadata
            if (meta.archived, meta.auto_archive_duration) != call.was:
                meta.archive_timestamp = self.backend.now_iso()  # threads.mdx: this is activity

    def _handle(
        self, send: Callable[[], Any], method: str, path: str, body: Any, params: Any, reason: str | None
    ) -> Any:
        now = self.clock()
        self._count_request(now)
        self._sweep()
        call = self._analyse(method, path, body, params or {})
        try:
            self._admit(call, body, now)
        except BackendError as refusal:
            backend = self.backend
            backend.http_requests.append(
                HttpLogEntry(method, path, copy.deepcopy(params or {}), copy.deepcopy(body), reason)
            )
            backend.transcript.append(("HTTP", f"{method} {path}", body if isinstance(body, dict) else None))
            backend.transcript.append(("RULES", f"{refusal.status} {refusal.code}", refusal.to_json()))
            banned = isinstance(refusal, _RateLimited) and refusal.banned
            self._answer(refusal.status, refusal.code, now, counts=not banned)
            raise
        try:
            result = send()
        except (sim_router.RouteNotImplemented, sim_router.UnsupportedField):
            raise
        except BackendError as error:
            self._answer(error.status, error.code, now)
            raise
        self._after(call, now)
        self._answer(200, 0, now)
        return result

    async def _send(
        self, original: Callable[..., Awaitable[Any]], transport: Any, route: Any, args: Any, kwargs: Any
    ) -> Any:
        """discord.py's side of a 429 (http.py ``HTTPClient.request``, webhook/async_.py
        ``AsyncWebhookAdapter.request``): wait on a known-exhausted bucket, sleep ``retry_after``
        and retry, five tries in all, ``RateLimited`` past ``max_ratelimit_timeout``."""
        ceiling = transport.max_ratelimit_timeout if isinstance(transport, HTTPClient) else None
        last: discord.HTTPException | None = None
        for _ in range(5):
            if self.limits.client_waits:
                route_key, major = route_of(route.method, sim_client._path_of(route.url))
                bucket = self._buckets.get(f"{route_key} {major}")
                wait = bucket.wait(self.clock()) if bucket is not None else 0.0
                if wait:
                    if ceiling and wait > ceiling:
                        raise discord.RateLimited(wait)
                    await asyncio.sleep(wait)
            try:
                return await original(transport, route, *args, **kwargs)
            except discord.HTTPException as error:
                limited = error.__context__
                if not isinstance(limited, _RateLimited) or limited.banned:
                    raise
                if ceiling and limited.retry_after > ceiling:
                    raise discord.RateLimited(limited.retry_after) from None
                last = error
                await asyncio.sleep(limited.retry_after)
        assert last is not None
        raise last


# -- process-wide patches ----------------------------------------------------------------------

_ATTRIBUTE = "_discord_rules"
_users = 0
_saved: list[tuple[Any, str, Any]] = []


def _rules_of(backend: Backend) -> DiscordRules | None:
    rules = getattr(backend, _ATTRIBUTE, None)
    return rules if isinstance(rules, DiscordRules) else None


def rules_for(env: Env) -> DiscordRules:
    """The rules ``env``'s backend runs on (raises LookupError when it runs on none)."""
    rules = _rules_of(env.backend)
    if rules is None:
        raise LookupError("this env runs on plain SimCord: use enforce() or DiscordRules.install()")
    return rules


def _wrap_dispatch(original: Callable[..., Any]) -> Callable[..., Any]:
    def dispatch(
        backend: Backend,
        method: str,
        path: str,
        *,
        json: Any | None = None,
        params: dict[str, Any] | None = None,
        files: list[Any] | None = None,
        reason: str | None = None,
        message_content_access: bool = True,
    ) -> Any:
        def send() -> Any:
            return original(
                backend,
                method,
                path,
                json=json,
                params=params,
                files=files,
                reason=reason,
                message_content_access=message_content_access,
            )

        rules = _rules_of(backend)
        return send() if rules is None else rules._handle(send, method, path, json, params, reason)

    return dispatch


def _retrying(original: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    async def request(self: Any, route: Any, *args: Any, **kwargs: Any) -> Any:
        rules = _rules_of(self.backend)
        if rules is None:
            return await original(self, route, *args, **kwargs)
        return await rules._send(original, self, route, args, kwargs)

    return request


def _keeping_timeout(original: Callable[[discord.Client, HTTPClient], None]) -> Callable[..., None]:
    """SimCord swaps the bot's HTTPClient for its fake and drops ``max_ratelimit_timeout`` with the
    old one; carry it over, since discord.py's 429 handling depends on it."""

    def install_http(client: discord.Client, http: HTTPClient) -> None:
        previous = getattr(client, "http", None)
        ceiling = getattr(previous, "max_ratelimit_timeout", None)
        original(client, http)
        if ceiling is not None and http.max_ratelimit_timeout is None:
            http.max_ratelimit_timeout = ceiling

    return install_http


_PATCHES: tuple[tuple[Any, str, Callable[[Any], Any]], ...] = (
    (sim_router, "dispatch", _wrap_dispatch),
    (sim_client.FakeHTTPClient, "request", _retrying),
    (sim_client.FakeWebhookAdapter, "request", _retrying),
    (sim_internals, "install_http", _keeping_timeout),
)


def _acquire() -> None:
    global _users
    if _users == 0:
        for target, name, wrap in _PATCHES:
            original = getattr(target, name)
            _saved.append((target, name, original))
            setattr(target, name, wrap(original))
    _users += 1


def _release() -> None:
    global _users
    _users -= 1
    if _users == 0:
        while _saved:
            target, name, original = _saved.pop()
            setattr(target, name, original)


_active: list[Enforcement] = []
_env_init: list[Callable[..., None]] = []


class Enforcement:
    """The process-wide switch: every SimCord ``Env`` created while it is on runs on its own rules.

    A context manager (``with enforce(None):``), and its ``on`` property is what
    ``enforce(monkeypatch)`` flips, so pytest's undo turns it off again at the end of the test.
    Turning it off uninstalls every rules object it made and undoes every patch.
    """

    def __init__(self, limits: Limits | None = None) -> None:
        self.limits = limits or DEFAULT_LIMITS
        self.made: list[DiscordRules] = []
        self._on = False

    @property
    def on(self) -> bool:
        return self._on

    @on.setter
    def on(self, value: bool) -> None:
        if value and not self._on:
            self._on = True
            if not _active:
                original = Env.__init__
                _env_init.append(original)

                def __init__(env: Env, bot: discord.Client, **options: Any) -> None:
                    original(env, bot, **options)
                    if _active:
                        _active[-1]._adopt(env)

                setattr(Env, "__init__", __init__)  # noqa: B010
            _active.append(self)
        elif not value and self._on:
            self._on = False
            _active.remove(self)
            if not _active:
                setattr(Env, "__init__", _env_init.pop())  # noqa: B010
            while self.made:
                self.made.pop().uninstall()

    def _adopt(self, env: Env) -> None:
        rules = DiscordRules.install(env, self.limits)
        if rules not in self.made:
            self.made.append(rules)

    def __enter__(self) -> Enforcement:
        self.on = True
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.on = False


def enforce(monkeypatch: _Patcher | None = None, limits: Limits | None = None) -> Enforcement:
    """Run every SimCord backend created from now on under the rules.

    With pytest's ``monkeypatch`` the switch is on at once and off at the test's end; without one,
    use the result as a context manager (``with enforce(None, Limits(...)):``)."""
    switch = Enforcement(limits)
    if monkeypatch is not None:
        monkeypatch.setattr(switch, "on", True)
    return switch
