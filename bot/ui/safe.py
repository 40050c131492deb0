"""The one room for Discord calls: every REST call the bot makes goes through here.

Real Discord is not the simulator (``design.md``, "Real Discord"): a call can fail because a
thread was archived (50083), locked (160005) or the server is at its thread cap (160006), a
server removed the bot or a channel was deleted (10003, 10004, 50001, 50013), too many old
messages were edited (30046), an interaction was answered too late (10062) or twice (40060), or
the bot asked too fast (429).  Each function here makes one kind of call and never raises for
any of that: it answers the result, or a :class:`Failed` that says which of these it was, and
the caller decides (unarchive and try again, park the table, post anew).  A failure is falsy,
so ``if await safe.edit(...)`` reads as before.

Every answer is counted in the bot's :class:`Ledger`, by HTTP status and Discord code: the
invalid ones (401, 403, 429) over the last ten minutes are what Discord bans a bot for, and
``python -m bot health`` reports them.  Work nobody is waiting on (reminders, timers, the
sweep, reposts) runs inside :func:`bot.services.background.background`: it asks the ledger for
room before each piece, so it stays within this process's share of Discord's 50 requests a
second, and its calls stop while the invalid answers are above the guard.
A click's answer is never paced: Discord gives it three seconds.

Texts are kept within Discord's 2,000 characters, since an over-long message is refused outright.
"""

from __future__ import annotations

import logging
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

import aiohttp
import discord

from bot.core.i18n import clip
from bot.services.background import in_background, urgent

log = logging.getLogger(__name__)
T = TypeVar("T")

FAILURES: tuple[type[BaseException], ...] = (
    discord.HTTPException,
    discord.RateLimited,
    aiohttp.ClientError,
    OSError,
    TimeoutError,
)
"""What a Discord call can fail with that is not our bug: HTTP errors and network faults."""

# Discord's JSON error codes (discord-api-docs, topics/opcodes-and-status-codes) that change
# what the bot does next.
UNKNOWN_CHANNEL = 10003
UNKNOWN_GUILD = 10004
UNKNOWN_MESSAGE = 10008
UNKNOWN_INTERACTION = 10062
"""The interaction was not answered within three seconds, or its token has expired."""
ALREADY_ACKNOWLEDGED = 40060
MISSING_ACCESS = 50001
MISSING_PERMISSIONS = 50013
ARCHIVED = 50083
"""Operation cannot be performed on an archived thread (an edit, a delete)."""
OLD_EDITS = 30046
"""Too many edits to messages older than one hour."""
LOCKED = 160005
"""A locked thread takes no new message from a bot without Manage Threads."""
THREAD_CAP = 160006
"""The server has as many active threads as Discord allows: none created or unarchived."""

PARKING = {
    UNKNOWN_CHANNEL: "channel_gone",
    UNKNOWN_GUILD: "guild_gone",
    MISSING_ACCESS: "no_access",
    MISSING_PERMISSIONS: "no_permission",
    LOCKED: "locked",
}
"""Answers that say a table cannot be reached until someone acts: its table is parked with
this reason (:data:`bot.storage.PARK_REASONS`).  An unknown *message* is not among them: the
board was deleted, and a new one is simply posted."""

PAUSED = -1
"""The code of a :class:`Failed` the room made itself: background work held back by the guard."""

INVALID = frozenset({401, 403, 429})
"""Statuses Discord counts toward its ban (10,000 in ten minutes)."""
INVALID_WINDOW = 600.0


@dataclass(frozen=True, slots=True)
class Failed:
    """A call Discord (or the network) refused; falsy.  ``status`` 0: no HTTP answer at all."""

    status: int
    code: int
    text: str = ""

    def __bool__(self) -> bool:
        return False

    @property
    def park_reason(self) -> str | None:
        return PARKING.get(self.code)

    @property
    def transient(self) -> bool:
        """Worth trying again soon: a server error, a network fault, a rate limit."""
        return self.status == 0 or self.status >= 500 or self.status == 429

    def __str__(self) -> str:
        return f"{self.status} ({self.code}) {self.text}".strip()


def failure(exc: BaseException) -> Failed:
    if isinstance(exc, discord.HTTPException):
        return Failed(exc.status, exc.code, str(exc.text)[:200])
    if isinstance(exc, discord.RateLimited):
        return Failed(429, 0, f"rate limited for {exc.retry_after:.1f} s")
    return Failed(0, 0, str(exc)[:200] or type(exc).__name__)


class Ledger:
    """One process's account of its Discord calls: answers by status and code, the invalid
    ones of the last ten minutes, and the budget of its background work.

    The budget is a bucket refilled at ``rate`` calls a second that holds one call at most (a
    fuller bucket would let a burst after a quiet spell exceed the rate in that second).
    Background work asks :meth:`has_room` before each piece it starts (a reminder, a table to
    repost) and stops for now when there is none: its loop comes back a second later.  Nothing
    ever sleeps here: a piece once started makes all its calls (the bucket goes a few calls into
    debt, paid back before the next piece), so pacing never leaves a table half drawn, and a
    click is never made to wait for background work.  In any second, background work makes at
    most ``rate`` calls plus one piece's.
    """

    def __init__(
        self, *, rate: float = 25.0, guard: int = 1000, clock: Callable[[], float] | None = None
    ) -> None:
        self.rate = rate
        """Background requests per second this process may make."""
        self.guard = guard
        self._clock = clock
        self.answers: Counter[tuple[int, int]] = Counter()
        self._invalid: deque[float] = deque()
        self._tokens = 1.0
        self._filled_at: float | None = None
        self._paused = False
        self.held_back = 0
        """Background calls not made because the guard was up."""

    def now(self) -> float:
        """Monotonic seconds (looked up at each call: the simulator moves its own clock)."""
        return self._clock() if self._clock is not None else time.monotonic()

    def record(self, status: int, code: int = 0) -> None:
        self.answers[(status, code)] += 1
        if status in INVALID:
            self._invalid.append(self.now())

    def invalid_recent(self) -> int:
        """Invalid answers (401, 403, 429) in the last ten minutes."""
        horizon = self.now() - INVALID_WINDOW
        while self._invalid and self._invalid[0] < horizon:
            self._invalid.popleft()
        return len(self._invalid)

    @property
    def paused(self) -> bool:
        """Whether background work is held back now (logged once as it starts and as it ends)."""
        over = self.invalid_recent() > self.guard
        if over != self._paused:
            self._paused = over
            if over:
                log.error(
                    "Discord refused %d requests in ten minutes (guard %d; it bans at 10,000):"
                    " reminders, timers and reposts are paused until that falls",
                    len(self._invalid),
                    self.guard,
                )
            else:
                log.warning("invalid Discord requests fell under the guard: background work resumes")
        return over

    def _refill(self) -> None:
        now = self.now()
        if self._filled_at is not None:
            self._tokens = min(1.0, self._tokens + (now - self._filled_at) * self.rate)
        self._filled_at = now

    def has_room(self) -> bool:
        """Whether background work may start another piece now."""
        self._refill()
        return self._tokens >= 1.0 and not self.paused

    def spend(self) -> None:
        self._refill()
        self._tokens -= 1

    def report(self) -> dict[str, Any]:
        """The figures ``python -m bot health`` shows (JSON-ready)."""
        return {
            "answers": {
                f"{status}/{code}" if code else str(status): n
                for (status, code), n in sorted(self.answers.items())
            },
            "invalid_10min": self.invalid_recent(),
            "guard": self.guard,
            "paused": self.paused,
            "held_back": self.held_back,
            "rate": self.rate,
        }


_SPARE = Ledger()
"""For a call made with no bot at hand (a test's bare client): counted, never paced apart."""


def ledger_of(client: object) -> Ledger:
    found = getattr(client, "ledger", None)
    return found if isinstance(found, Ledger) else _SPARE


def _client_of(target: object) -> object:
    """The client behind a channel or message (discord.py keeps it on the object's state)."""
    state = getattr(target, "_state", None)
    get = getattr(state, "_get_client", None)
    return get() if callable(get) else None


async def _call(ledger: Ledger, make: Callable[[], Awaitable[T]], what: str) -> T | Failed:
    """One call, counted; a background call spends from the budget, or is held back by the guard."""
    if in_background():
        if ledger.paused:
            ledger.held_back += 1
            return Failed(0, PAUSED, "held back: too many invalid requests")
        ledger.spend()
    try:
        result = await make()
    except FAILURES as exc:
        failed = failure(exc)
        ledger.record(failed.status, failed.code)
        log.log(
            logging.INFO if failed.status in (403, 404) else logging.WARNING, "could not %s: %s", what, failed
        )
        return failed
    ledger.record(200)
    return result


def _clipped(kwargs: dict[str, Any]) -> dict[str, Any]:
    content = kwargs.get("content")
    if isinstance(content, str):
        kwargs["content"] = clip(content)
    return kwargs


def rewound(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` with every file in them back at its first byte: a call that is tried again
    sends its files again, and a sent file has been read to its end."""
    files = [fields.get("file"), *fields.get("files", ()), *fields.get("attachments", ())]
    for item in files:
        if isinstance(item, discord.File):
            item.reset()
    return fields


# -- answering interactions (never paced: three seconds) ---------------------------------------------


async def _respond(
    interaction: discord.Interaction,
    first: Callable[[], Awaitable[Any]],
    later: Callable[[], Awaitable[Any]] | None,
    what: str,
) -> bool:
    """The first answer to an interaction, or (once it has one) ``later``.

    A first answer that fails for a passing reason is tried once more; if that fails too it may
    have reached Discord all the same, so ``later`` (a followup) is tried.  Already acknowledged
    (40060): ``later``.  Unknown interaction (10062): too late, nothing can answer it now.
    """
    ledger = ledger_of(interaction.client)
    with urgent():
        if interaction.response.is_done():
            return later is not None and not isinstance(await _call(ledger, later, what), Failed)
        result = await _call(ledger, first, what)
        if isinstance(result, Failed) and result.transient:
            result = await _call(ledger, first, what)
        if not isinstance(result, Failed):
            return True
        if result.code == UNKNOWN_INTERACTION:
            return False
        if later is not None and (result.code == ALREADY_ACKNOWLEDGED or result.transient):
            return not isinstance(await _call(ledger, later, what), Failed)
        return False


async def reply(interaction: discord.Interaction, content: str, **kwargs: Any) -> bool:
    """An ephemeral answer, whether or not the interaction was already acknowledged."""
    kwargs.setdefault("ephemeral", True)
    content = clip(content)
    return await _respond(
        interaction,
        lambda: interaction.response.send_message(content, **rewound(kwargs)),
        lambda: interaction.followup.send(content, **rewound(kwargs)),
        f"reply to interaction {interaction.id}",
    )


def chunks(text: str, limit: int = 2000) -> list[str]:
    """``text`` as messages of at most ``limit`` characters, each cut at a line's end.

    For a text longer than one message (``/game rules`` with a game's rulings): a reader gets
    whole lines in order, never a sentence broken between two messages.  Only a single line
    longer than a message is cut inside itself.
    """
    parts: list[str] = []
    current: str | None = None
    for line in text.split("\n"):
        while len(line) > limit:
            if current is not None:
                parts.append(current)
                current = None
            parts.append(line[:limit])
            line = line[limit:]
        if not current:  # nothing yet, or only a blank line: a part never starts blank
            current = line
        elif len(current) + 1 + len(line) <= limit:
            current = f"{current}\n{line}"
        else:
            parts.append(current)
            current = line
    if current is not None:
        parts.append(current)
    return [part for part in parts if part.strip()] or [""]


async def reply_long(interaction: discord.Interaction, text: str, **kwargs: Any) -> bool:
    """An ephemeral answer of any length: one message per :func:`chunks` part, in order.

    ``True`` when every part was sent; the first failure stops the rest (a reader must not get
    the end of a text without its start).
    """
    for part in chunks(text):
        if not await reply(interaction, part, **kwargs):
            return False
    return True


async def defer(interaction: discord.Interaction, *, thinking: bool = False, ephemeral: bool = False) -> bool:
    """Acknowledge an interaction (``True`` when it is acknowledged, now or before)."""
    if interaction.response.is_done():
        return True
    return (
        await _respond(
            interaction,
            lambda: interaction.response.defer(thinking=thinking, ephemeral=ephemeral),
            None,
            f"defer interaction {interaction.id}",
        )
        or interaction.response.is_done()
    )


async def update(interaction: discord.Interaction, **fields: Any) -> Literal[True] | Failed:
    """Answer a click by editing the message it was pressed on (one call that does both).

    A failure is returned, not retried, when it is about the message (an archived thread, too
    many old edits): the caller edits another way.  A passing failure is tried once more.
    """
    ledger = ledger_of(interaction.client)
    fields = _clipped(fields)
    with urgent():
        result: Any = await _call(
            ledger, lambda: interaction.response.edit_message(**fields), f"update message of {interaction.id}"
        )
        if isinstance(result, Failed) and result.transient and not interaction.response.is_done():
            result = await _call(
                ledger,
                lambda: interaction.response.edit_message(**rewound(fields)),
                f"update message of {interaction.id}",
            )
    return result if isinstance(result, Failed) else True


async def edit_original(interaction: discord.Interaction, **fields: Any) -> Literal[True] | Failed:
    """Edit the message an acknowledged interaction answers (or was pressed on)."""
    with urgent():
        result = await _call(
            ledger_of(interaction.client),
            lambda: interaction.edit_original_response(**_clipped(fields)),
            f"edit the answer to {interaction.id}",
        )
    return result if isinstance(result, Failed) else True


async def announce(interaction: discord.Interaction, content: str, **kwargs: Any) -> discord.Message | Failed:
    """A public first answer, and the message it made (a lobby, which buttons will edit)."""

    async def make() -> discord.Message:
        await interaction.response.send_message(clip(content), **kwargs)
        return await interaction.original_response()

    with urgent():
        return await _call(ledger_of(interaction.client), make, f"answer {interaction.id} publicly")


async def modal(interaction: discord.Interaction, form: discord.ui.Modal) -> bool:
    return await _respond(
        interaction, lambda: interaction.response.send_modal(form), None, f"open a form for {interaction.id}"
    )


# -- channels, messages, threads, members --------------------------------------------------------------


async def send(channel: discord.abc.Messageable, **kwargs: Any) -> discord.Message | Failed:
    return await _call(
        ledger_of(_client_of(channel)),
        lambda: channel.send(**_clipped(kwargs)),
        f"send to channel {getattr(channel, 'id', '?')}",
    )


async def edit(
    message: discord.PartialMessage | discord.Message, *, missing_ok: bool = False, **kwargs: Any
) -> Literal[True] | Failed:
    """Edit a message; a deleted one counts as done only with ``missing_ok`` (folding it away)."""
    result = await _call(
        ledger_of(_client_of(message)), lambda: message.edit(**_clipped(kwargs)), f"edit message {message.id}"
    )
    if isinstance(result, Failed):
        return True if missing_ok and result.code == UNKNOWN_MESSAGE else result
    return True


async def fetch_message(message: discord.PartialMessage) -> discord.Message | Failed:
    """A message as Discord has it now (its words, before a strip that keeps them)."""
    return await _call(ledger_of(_client_of(message)), message.fetch, f"fetch message {message.id}")


async def delete(message: discord.PartialMessage | discord.Message) -> Literal[True] | Failed:
    """Delete a message; ``True`` when it is gone (also when someone deleted it first)."""
    result = await _call(ledger_of(_client_of(message)), message.delete, f"delete message {message.id}")
    if isinstance(result, Failed):
        return True if result.code == UNKNOWN_MESSAGE else result
    return True


ARCHIVE_WEEK: Literal[10080] = 10080
"""Minutes: the longest archive duration Discord offers.  A slow game's thread must outlast the
days a table may wait on a player without a new message."""


async def create_thread(message: discord.Message, name: str) -> discord.Thread | Failed:
    return await _call(
        ledger_of(_client_of(message)),
        lambda: message.create_thread(name=name[:100], auto_archive_duration=ARCHIVE_WEEK),
        f"open a thread on message {message.id}",
    )


async def forum_post(
    forum: discord.ForumChannel,
    name: str,
    content: str,
    view: discord.ui.View,
    allowed_mentions: discord.AllowedMentions,
) -> discord.channel.ThreadWithMessage | Failed:
    return await _call(
        ledger_of(_client_of(forum)),
        lambda: forum.create_thread(
            name=name[:100],
            auto_archive_duration=ARCHIVE_WEEK,
            content=clip(content),
            view=view,
            allowed_mentions=allowed_mentions,
        ),
        f"open a post in forum {forum.id}",
    )


async def set_archived(client: discord.Client, thread_id: int, archived: bool) -> Literal[True] | Failed:
    """Archive or unarchive a thread by id (an archived thread may be out of the cache).

    The bot created its tables' threads, and a thread's creator may unarchive it unless it is
    locked; archiving a finished table frees a place under the server's thread cap."""
    result = await _call(
        ledger_of(client),
        lambda: client.http.edit_channel(thread_id, archived=archived),
        f"{'archive' if archived else 'unarchive'} thread {thread_id}",
    )
    return result if isinstance(result, Failed) else True


async def direct(client: discord.Client, user_id: int, content: str) -> Literal[True] | Failed:
    """A direct message to a user, pinging nobody else.  Up to three requests (the user, their
    direct channel, the message), each counted on its own."""
    ledger = ledger_of(client)
    user = client.get_user(user_id)
    if user is None:
        fetched = await _call(ledger, lambda: client.fetch_user(user_id), f"look up user {user_id}")
        if isinstance(fetched, Failed):
            return fetched
        user = fetched
    channel = user.dm_channel
    if channel is None:
        opened = await _call(ledger, user.create_dm, f"open a direct channel to {user_id}")
        if isinstance(opened, Failed):
            return opened
        channel = opened
    sent = await _call(
        ledger,
        lambda: channel.send(clip(content), allowed_mentions=discord.AllowedMentions.none()),
        f"message user {user_id} directly",
    )
    return sent if isinstance(sent, Failed) else True


async def fetch_member(guild: discord.Guild, user_id: int) -> discord.Member | Failed:
    return await _call(
        ledger_of(_client_of(guild)), lambda: guild.fetch_member(user_id), f"look up member {user_id}"
    )
