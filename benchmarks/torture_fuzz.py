"""Discord input fuzz: a seeded storm of wrong, stale, malformed and oversized input through SimCord.

What runs: the real bot (``bot.client.GameBot``, its own SQLite file) inside
SimCord 3.2.1, with live tables of the toy game (``harness/toygame``),
California and The Estates in one server, a table in a second server, a lobby
that never starts, a stranger, and a user who writes to the bot in DMs.  One
seeded random mix, every item one real interaction through discord.py:

- legit moves (buttons, selects, private panels, number forms) so games move,
  finish and are replaced by fresh tables;
- real buttons and selects pressed by strangers, by players not on turn, by
  players of other tables;
- stale input: buttons of private panels drawn for older versions, forms
  opened before the board moved on, and old ids re-posted on a message (as a
  message whose buttons could not be stripped would keep them);
- malformed and foreign custom_ids on messages the bot posts (as an older
  version of the bot would have left them): random text, truncated ids,
  trailing junk, huge numbers, unknown prefixes, a select's prefix on a button
  and the reverse, other tables' ids, non-ASCII digits, unicode;
- selects whose values are garbage; number forms filled with junk
  ("--5", "²", "1²", "①", "٣", " ", "1e3", "0x10", huge and negative numbers);
  an empty form cannot be sent (Discord and SimCord refuse a required field
  left empty, and more than the form's 12 characters): those are counted as
  ``undeliverable``, not as inputs;
- slash commands with oversized or odd options (3,000- and 6,000-character
  names and options, 5,000-digit numbers, unicode), tables that do not exist
  or belong to another server, commands in DMs;
- now and then a bot restart, and a Discord error on posting or editing a
  table message (``env.inject_error``).

Figures (all judged from outside the bot):

- ``unanswered``: an interaction SimCord reports as not acknowledged (what
  Discord shows as "This interaction failed"), or a reply over Discord's
  2,000-character limit;
- ``tracebacks``: exceptions SimCord captured from the bot, and log records
  carrying a traceback;
- ``wrong_state_changes``: after an input that must be refused, a game's row
  (status, version, public_version, snapshot) changed; after one that may be
  accepted, anything changed but that one action by that seat (checked
  against the ``actions`` log).  An input "may be accepted" if it is what the
  bot draws (``g:<id>:<version>:<action>``, a select's one value, a whole
  number in a form) for the current public version, by a seated player, for a
  legal action; or if it is written differently but reads as one action
  (digits of another script or zero-padded, an argument where none belongs):
  accepting such an input as that action is reported as ``lenient_accepts``,
  not counted as a wrong state change.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/torture_fuzz.py [--inputs 20000] [--seed 1]

The last line of stdout is one JSON object; exit 1 if a goal figure is not zero
or fewer inputs than asked were delivered.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import re
import shutil
import string
import sys
import time
from collections import Counter, deque
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import discord
import simcord
from simcord.results import InteractionResult, ResponseMessage

from benchmarks.torture_discord_common import (
    BUTTON,
    SELECT,
    DbPeek,
    GameFacts,
    LogTap,
    RowState,
    clickable,
    close_bots,
    components,
    custom_ids,
    drain,
    forget_attachments,
    forget_logs,
    intended_number,
    live_board,
    make_bot,
    oversized_requests,
    quick_settle,
    register_toy,
    reply_text,
    scratch_dir,
    state_of,
    stored_of,
    summary_line,
    unanswered,
    undeliverable,
)
from bot.client import GameBot
from bot.games import REGISTRY
from bot.services.sessions import stamp
from bot.storage import CLOSED_STATUSES, ENDED_STATUSES, OPEN_STATUSES, STARTED_STATUSES, GameStatus
from harness.messages import controls
from rules.core import Action

GOAL_INPUTS = 20_000
MAINTAIN_EVERY = 150
"""Inputs between maintenance rounds (drain SimCord's timers, replace finished tables, fresh junk)."""
EXAMPLES = 6
"""Examples kept per kind of problem."""

JUNK_NUMBERS: tuple[str, ...] = (
    "--5",
    "²",
    "1²",
    "①",
    "٣",
    "",
    " ",
    "1e3",
    "0x10",
    "999999999999",
    "-99999999999",
    "-5",
    "-0",
    "0",
    "+2",
    " 2 ",
    "٢",
    "２",
    "१",
    "𝟐",
    "³",
    "½",
    "2.0",
    "1_0",
    "1 2",
    "0002",
    "-",
    "+",
    "NaN",
    "inf",
    "∞",
    "Ⅱ",
    "二",
    "1,5",
    "\u200b2",
    "2\u200b",
    "\t3",
    "{0}",
    "%d",
    "'; DROP",
    "x" * 13,
    "1" * 13,
)
"""Typed into number forms; the last two (and "") exceed what the form lets anyone type."""

ODD_TEXT: tuple[str, ...] = (
    "toy",
    "estates",
    " ESTATES ",
    "california",
    "Toy Race",
    "chess",
    "estates\x00",
    "ëstates",
    "𝓮𝓼𝓽𝓪𝓽𝓮𝓼",
    "‮setatse",
    "<@everyone>",
    "@everyone",
    "`code`",
    "**bold**",
    "../../etc/passwd",
    "'; DROP TABLE games; --",
    "{game}",
    "%s%s%s",
    "\n\n\n",
    "🎲" * 40,
)

ODD_OPTIONS: tuple[str, ...] = (
    "rounds=3",
    "rounds=9",
    "rounds=-1",
    "rounds=٣",
    "rounds=３",
    "rounds=²",
    "rounds=0x10",
    "rounds=1e3",
    "rounds=" + "9" * 30,
    "target=١٠",
    "target=1000",
    "target=" + "9" * 30,
    "=",
    "a==b",
    "rounds=3 rounds=4",
    "ROUNDS=2",
    "rounds=",
    "=3",
    "turbo=yes",
    "rounds=3,,,target=4",
    "'; DROP TABLE games; --=1",
    "rounds=\u200b3",
)


def oversized(rng: random.Random) -> str:
    """3,000 to 6,000 characters (Discord's limit for a string option is 6,000)."""
    size = rng.choice((3000, 3000, 4500, 6000))
    kind = rng.randrange(7)
    if kind == 0:
        return "x" * size
    if kind == 1:
        return ("rounds=3 " * (size // 9 + 1))[:size]
    if kind == 2:
        return "rounds=" + "9" * (size - 7)
    if kind == 3:
        return "target=" + "9" * min(size - 7, 5000)
    if kind == 4:
        return "".join(rng.choice("🎲é中ab=, \u200b‮") for _ in range(size))
    if kind == 5:
        return ("a=" + "b" * (size - 2))[:size]
    return " ".join("x=" + str(i) for i in range(size // 6))[:size]


# -- what an input may do ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Expect:
    """What one input may change in the games table; anything else is a wrong state change.

    ``action``: the one action (by ``seat`` in ``game_id``) an accepted input logs; ``legal`` says the
    rules allow it now, so a refusal is worth reporting too.  ``lenient``: the input is not written the
    way the bot writes it (non-ASCII or zero-padded digits, an argument where none belongs) but reads
    as ``action``; accepting it as that action is not a wrong state change, only reported.
    ``transitions``: status changes a lobby button may make.  ``new_games``: ``/game new`` may add rows.
    """

    game_id: int | None = None
    seat: int | None = None
    action: Action | None = None
    legal: bool = False
    transitions: tuple[tuple[int, str, str], ...] = ()
    new_games: bool = False
    lenient: bool = False
    offered: bool = False
    """For a lenient input: whether ``legal_actions`` offered what it reads as."""


NOTHING = Expect()
PLAIN_NUMBER = re.compile(r"-?[0-9]+")
_NUM = r"(0|[1-9][0-9]*)"
_G_ID = re.compile(rf"g:{_NUM}:{_NUM}:(.+)")
_A_ID = re.compile(rf"a:{_NUM}:{_NUM}:(.+)")
"""A lasting action: the middle number is its stamp (the engine's fingerprint, hashed), not a version."""
_S_ID = re.compile(rf"s:{_NUM}:{_NUM}:([A-Za-z0-9_.-]{{1,80}})")
_N_ID = re.compile(rf"n:{_NUM}:{_NUM}:([A-Za-z_][A-Za-z0-9_-]*)")
_L_ID = re.compile(rf"l:{_NUM}:(join|leave|start|cancel|withdraw)")
_LOOSE_G = re.compile(r"g:(\d{1,18}):(\d{1,18}):(.+)")
_LOOSE_S = re.compile(r"s:(\d{1,18}):(\d{1,18}):([A-Za-z0-9_.-]{1,80})")


def canonical_action(text: str) -> Action | None:
    """The action ``text`` encodes, only if ``text`` is exactly how the bot would write it."""
    action = read_action(text)
    return action if action is not None and action.encode() == text else None


def read_action(text: str) -> Action | None:
    """The action ``text`` reads as, however it is written (``Action.decode``'s own reading)."""
    try:
        return Action.decode(text)
    except ValueError:
        return None


@dataclass
class Problems:
    """Problems by kind, and by signature (kind + what sort of input + what went wrong), one example each."""

    counts: Counter[str] = field(default_factory=Counter)
    signatures: Counter[str] = field(default_factory=Counter)
    examples: dict[str, list[str]] = field(default_factory=dict)

    def add(self, kind: str, detail: str, signature: str = "") -> None:
        self.counts[kind] += 1
        key = f"{kind}: {signature}" if signature else kind
        first = key not in self.signatures
        self.signatures[key] += 1
        kept = self.examples.setdefault(kind, [])
        if first and len(kept) < 4 * EXAMPLES:
            kept.append(detail[:600])


def shape_of_id(custom_id: str, component: int) -> str:
    """``button g:`` / ``select s:`` / ``button other``: the sort of component input, for signatures."""
    prefix = custom_id[:2] if custom_id[1:2] == ":" else "other"
    return f"{'select' if component == SELECT else 'button'} {prefix}"


def error_head(text: str) -> str:
    """An error message without the numbers and quoted values that differ between occurrences."""
    text = re.sub(r"'[^']*'|\"[^\"]*\"", "'…'", text)
    return re.sub(r"\d+", "N", text)[:120]


# -- the world -----------------------------------------------------------------------------------------


@dataclass
class Table:
    game: str
    game_id: int
    guild: Any
    channel: Any
    players: list[Any]
    lobby: ResponseMessage | None = None


@dataclass
class Stats:
    inputs: int = 0
    undeliverable: int = 0
    unanswered: int = 0
    tracebacks: int = 0
    wrong_state_changes: int = 0
    accepted: int = 0
    legal_refused: int = 0
    lenient_accepts: int = 0
    error_logs: int = 0
    background_changes: int = 0
    restarts: int = 0
    injected_faults: int = 0
    games_finished: int = 0
    tables_opened: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)


class Fuzz:
    def __init__(self, env: simcord.Env, bot: GameBot, workdir: Path, seed: int, tap: LogTap) -> None:
        self.env = env
        self.bot = bot
        self.workdir = workdir
        self.rng = random.Random(seed)
        self.tap = tap
        self.db = DbPeek(workdir / "host.sqlite3")
        self.stats = Stats()
        self.problems = Problems()
        self.tables: list[Table] = []
        self.lobby_table: Table | None = None
        self.panels: deque[tuple[Any, ResponseMessage]] = deque(maxlen=40)
        self.forms: deque[tuple[Any, InteractionResult]] = deque(maxlen=12)
        self.history: dict[int, list[str]] = {}
        self.junk: list[tuple[ResponseMessage, list[dict[str, Any]]]] = []
        self.rows: dict[int, RowState] = {}
        self.data_version = -1
        self.error_cursor = 0
        self.log_seen = 0
        self.members: dict[int, Any] = {}
        self._refresh_rows()

    # -- bookkeeping -----------------------------------------------------------------------------

    def _data_version(self) -> int:
        return int(self.db.db.execute("PRAGMA data_version").fetchone()[0])

    def _refresh_rows(self) -> bool:
        """Re-read the games table if anything was committed since; True if a row changed."""
        version = self._data_version()
        if version == self.data_version:
            return False
        self.data_version = version
        rows = self.db.rows()
        changed = rows != self.rows
        self.rows = rows
        return changed

    def member(self, user_id: int) -> Any:
        return self.members[user_id]

    def background_logs(self, label: str) -> None:
        """Judge log records emitted outside any input (setup, maintenance, restarts); then forget them."""
        for seen in self.tap.since(self.log_seen):
            if seen.traceback:
                self.stats.tracebacks += 1
                last = (seen.exc or "").strip().splitlines()[-1:] or [""]
                self.problems.add("traceback", f"{label}: log {seen.line()[:200]} | {last[0][:200]}")
            elif seen.level >= 40:
                self.stats.error_logs += 1
                self.problems.add("error_log", f"{label}: {seen.line()[:300]}")
        self.tap.forget()
        self.log_seen = 0

    async def send(
        self, kind: str, what: str, expect: Expect, op: Awaitable[InteractionResult], shape: str = ""
    ) -> InteractionResult | None:
        """Deliver one input and judge it: answered, no traceback, only the allowed state change."""
        self.background_logs("[between inputs]")
        before = self.rows
        log_cursor = self.tap.cursor
        http_cursor = len(self.env.backend.http_requests)
        try:
            result = await op
        except Exception as exc:
            if not undeliverable(exc):
                raise
            self.stats.undeliverable += 1
            return None
        self.stats.inputs += 1
        self.stats.by_kind[kind] += 1
        label = f"[{kind}] {what}"
        reason = unanswered(result)
        if reason is None:
            rejected = oversized_requests(self.env, http_cursor)
            reason = f"Discord would reject {rejected[0]}" if rejected else None
        if reason is not None:
            self.stats.unanswered += 1
            self.problems.add(
                "unanswered",
                f"{label}: {reason}; reply {reply_text(result)[:160]!r}",
                f"{shape}: {error_head(reason)}",
            )
        errors = self.env.errors_since(self.error_cursor)
        self.error_cursor += len(errors)
        for error in errors:
            self.stats.tracebacks += 1
            self.problems.add(
                "traceback",
                f"{label}: {type(error).__name__}: {error}",
                f"{shape}: {type(error).__name__}: {error_head(str(error))}",
            )
        for seen in self.tap.since(log_cursor):
            if seen.traceback:
                self.stats.tracebacks += 1
                first = (seen.exc or "").strip().splitlines()[-1:] or [""]
                self.problems.add(
                    "traceback",
                    f"{label}: log {seen.line()[:200]} | {first[0][:200]}",
                    f"{shape}: {error_head(first[0])}",
                )
            elif seen.level >= 40:
                self.stats.error_logs += 1
                self.problems.add(
                    "error_log", f"{label}: {seen.line()[:300]}", f"{shape}: {error_head(seen.message)}"
                )
        self.log_seen = self.tap.cursor
        self._refresh_rows()
        self.judge(label, expect, before, self.rows, result, shape)
        self.note_panel(result)
        return result

    def judge(
        self,
        label: str,
        expect: Expect,
        before: dict[int, RowState],
        after: dict[int, RowState],
        result: InteractionResult,
        shape: str = "",
    ) -> None:
        wrong: list[str] = []
        for game_id in after.keys() - before.keys():
            if not expect.new_games or after[game_id].status != GameStatus.LOBBY:
                wrong.append(f"game {game_id} appeared ({after[game_id].brief()})")
        for game_id in before.keys() - after.keys():
            wrong.append(f"game {game_id} disappeared")
        accepted = False
        for game_id in sorted(before.keys() & after.keys()):
            old, new = before[game_id], after[game_id]
            if old == new:
                continue
            transition = next(
                (t for t in expect.transitions if t[0] == game_id and (old.status, new.status) == t[1:]), None
            )
            if transition is not None:
                unchanged = (old.version, old.public_version, old.snapshot) == (
                    new.version,
                    new.public_version,
                    new.snapshot,
                )
                if new.status == GameStatus.ACTIVE and new.version == 0 and new.public_version == 0:
                    continue
                if new.status == GameStatus.ABANDONED and unchanged:
                    continue
            if game_id == expect.game_id and expect.action is not None and new.version == old.version + 1:
                logged = self.db.action(game_id, new.version)
                if (
                    logged == (expect.seat, expect.action)
                    and new.public_version in (old.public_version, old.public_version + 1)
                    and new.status in STARTED_STATUSES
                ):
                    accepted = True
                    continue
                wrong.append(f"game {game_id}: logged {logged} instead of {expect.seat}:{expect.action}")
                continue
            wrong.append(f"game {game_id}: {old.brief()} -> {new.brief()}")
        if wrong:
            self.stats.wrong_state_changes += 1
            how = "applied" if any("logged" in w or " -> " in w for w in wrong) else "rows"
            self.problems.add("wrong_state_change", f"{label}: {'; '.join(wrong)}", f"{shape}: {how}")
        if accepted and expect.lenient:
            self.stats.lenient_accepts += 1
            offered = "" if expect.offered else ", not offered by legal_actions"
            self.problems.add(
                "lenient_accept",
                f"{label}: accepted as {expect.action}{offered}",
                f"{shape}: read as{offered}",
            )
        elif accepted:
            self.stats.accepted += 1
        elif expect.legal and not wrong:
            self.stats.legal_refused += 1
            self.problems.add(
                "legal_refused",
                f"{label}: {reply_text(result)[:200]!r}",
                f"{shape}: {error_head(reply_text(result))}",
            )

    def note_panel(self, result: InteractionResult) -> None:
        response = result.response
        if response is not None and response.ephemeral and controls(response):
            actor = self._actor_of(result)
            if actor is not None:
                self.panels.append((actor, response))

    def _actor_of(self, result: InteractionResult) -> Any | None:
        user_id = getattr(getattr(result, "_interaction", None), "user_id", None)
        return self.members.get(int(user_id)) if user_id is not None else None

    # -- expectations ----------------------------------------------------------------------------

    def may_act(
        self,
        game_id: int,
        version: int,
        user_id: int,
        action: Action | None,
        *,
        lenient: bool = False,
        lasting: bool = False,
    ) -> Expect:
        """A canonical input may apply ``action`` if it is legal now; a lenient one may apply what it reads as.

        ``lasting``: ``version`` is the button's stamp, good while the action means the same."""
        if action is None or game_id >= 2**63:
            return NOTHING
        facts = self.db.game(game_id)
        if facts is None:
            return NOTHING
        seat = self.db.seats(game_id).get(user_id)
        if seat is None or facts.status != GameStatus.ACTIVE:
            return NOTHING
        state = state_of(facts)
        entry = REGISTRY.get(facts.game)
        if state is None or entry is None:
            return NOTHING
        drawn_for = stamp(entry.rules, state, action) if lasting else facts.public_version
        if version != drawn_for:
            return NOTHING
        legal = action in entry.rules.legal_actions(state, seat)
        if lenient:
            return Expect(game_id, seat, action, legal=False, lenient=True, offered=legal)
        return Expect(game_id, seat, action, legal) if legal else NOTHING

    def expect_component(self, custom_id: str, kind: int, user_id: int, values: Sequence[str] = ()) -> Expect:
        """An id the bot could have drawn: ``g:`` on a button carries its action, ``s:`` on a select takes
        its one value as the action; everything else changes nothing.  Ids and values the bot would
        write differently but that read as an action (a button's id on a select, non-ASCII digits)
        are lenient."""
        match = _G_ID.fullmatch(custom_id)
        if match and kind == BUTTON and canonical_action(match[3]) is not None:
            return self.may_act(int(match[1]), int(match[2]), user_id, canonical_action(match[3]))
        match = _A_ID.fullmatch(custom_id)
        if match and kind == BUTTON and canonical_action(match[3]) is not None:
            return self.may_act(
                int(match[1]), int(match[2]), user_id, canonical_action(match[3]), lasting=True
            )
        loose = _LOOSE_G.fullmatch(custom_id)
        if loose:
            return self.may_act(int(loose[1]), int(loose[2]), user_id, read_action(loose[3]), lenient=True)
        lobby = _L_ID.fullmatch(custom_id)
        if lobby:
            return self.expect_lobby(int(lobby[1]), lobby[2], user_id)
        if kind != SELECT or len(values) != 1:
            return NOTHING
        match = _S_ID.fullmatch(custom_id)
        if match and canonical_action(values[0]) is not None:
            return self.may_act(int(match[1]), int(match[2]), user_id, canonical_action(values[0]))
        loose = _LOOSE_S.fullmatch(custom_id)
        if loose:
            return self.may_act(int(loose[1]), int(loose[2]), user_id, read_action(values[0]), lenient=True)
        return NOTHING

    def expect_lobby(self, game_id: int, op: str, user_id: int) -> Expect:
        facts = self.db.game(game_id) if game_id < 2**63 else None
        if facts is None:
            return NOTHING
        seated = user_id in self.db.seats(game_id)
        entry = REGISTRY.get(facts.game)
        count = len(self.db.seats(game_id))
        if (
            op == "start"
            and facts.status == GameStatus.LOBBY
            and user_id == facts.host_id
            and entry is not None
            and entry.rules.min_players <= count <= entry.rules.max_players
        ):
            return Expect(transitions=((game_id, GameStatus.LOBBY, GameStatus.ACTIVE),))
        if op == "cancel" and user_id == facts.host_id and facts.status in OPEN_STATUSES:
            # The host may close the table at any time (/game abandon); a lobby's old Cancel button
            # does the same to a running game, without asking (noted in the report, not counted).
            return Expect(transitions=((game_id, facts.status, GameStatus.ABANDONED),))
        if op == "withdraw" and facts.status == GameStatus.ACTIVE and seated:
            return Expect(transitions=((game_id, GameStatus.ACTIVE, GameStatus.ABANDONED),))
        return NOTHING

    def expect_form(self, modal_id: str, user_id: int, value: str) -> Expect:
        match = _N_ID.fullmatch(modal_id)
        number = intended_number(value)
        if not match or number is None:
            return NOTHING
        try:
            action = Action(match[3], (number,))
        except ValueError:
            return NOTHING
        plain = PLAIN_NUMBER.fullmatch(value.strip()) is not None
        # "٣" or "+2" may be taken as the number it reads as (reported), and refusing it is fine too.
        return self.may_act(int(match[1]), int(match[2]), user_id, action, lenient=not plain)

    # -- input helpers -------------------------------------------------------------------------

    async def click(
        self, kind: str, actor: Any, message: ResponseMessage, custom_id: str
    ) -> InteractionResult | None:
        stored = self.env.backend.messages.get(message.channel_id, {}).get(message.id)
        comp = (
            next((c for c in components(stored) if c.get("custom_id") == custom_id), None) if stored else None
        )
        if comp is None or comp.get("disabled"):
            self.stats.undeliverable += 1
            return None
        expect = self.expect_component(custom_id, int(comp["type"]), actor.id)
        if comp["type"] == SELECT:
            values = [str(o["value"]) for o in comp.get("options") or []]
            chosen = self.rng.sample(values, k=min(len(values), max(1, int(comp.get("min_values", 1)))))
            expect = self.expect_component(custom_id, SELECT, actor.id, chosen)
            return await self.send(
                kind,
                f"{actor.name} selects {chosen} on {custom_id!r}",
                expect,
                actor.select(message, chosen, custom_id=custom_id),
                shape_of_id(custom_id, SELECT),
            )
        return await self.send(
            kind,
            f"{actor.name} clicks {custom_id!r}",
            expect,
            actor.click(message, custom_id=custom_id),
            shape_of_id(custom_id, BUTTON),
        )

    async def select(
        self, kind: str, actor: Any, message: ResponseMessage, custom_id: str, values: list[str]
    ) -> InteractionResult | None:
        expect = self.expect_component(custom_id, SELECT, actor.id, values)
        return await self.send(
            kind,
            f"{actor.name} selects {values} on {custom_id!r}",
            expect,
            actor.select(message, values, custom_id=custom_id),
            shape_of_id(custom_id, SELECT),
        )

    async def submit(
        self, kind: str, actor: Any, shown: InteractionResult, value: str
    ) -> InteractionResult | None:
        modal = shown.modal or {}
        modal_id = str(modal.get("custom_id", ""))
        expect = self.expect_form(modal_id, actor.id, value)
        return await self.send(
            kind,
            f"{actor.name} types {value!r} into {modal_id!r}",
            expect,
            actor.submit_modal(shown, {"value": value}),
            f"form {value if len(value) <= 3 else 'value'}"
            if intended_number(value) is None
            else "form number",
        )

    async def slash(
        self, kind: str, actor: Any, where: Any | None, command: str, **options: Any
    ) -> InteractionResult | None:
        shown = {
            k: (v if not isinstance(v, str) or len(v) < 40 else f"<{len(v)} chars>")
            for k, v in options.items()
        }
        expect = Expect(new_games=True) if command == "game new" else NOTHING
        op = actor.slash(command, **options) if where is None else actor.slash(where, command, **options)
        return await self.send(kind, f"{actor.name} /{command} {shown}", expect, op, f"/{command}")

    # -- setting up tables ------------------------------------------------------------------------

    async def open_table(
        self,
        guild: Any,
        channel: Any,
        game: str,
        players: list[Any],
        options: str | None = None,
        start: bool = True,
    ) -> Table | None:
        kwargs: dict[str, Any] = {"name": game}
        if options:
            kwargs["options"] = options
        created = await self.slash("setup", players[0], channel, "game new", **kwargs)
        if created is None or created.response is None:
            return None
        game_id = self.db.last_game_id()
        lobby = created.response
        table = Table(game, game_id, guild, channel, list(players), lobby)
        self.stats.tables_opened += 1
        for player in players[1:]:
            await self.click("setup", player, lobby, f"l:{game_id}:join")
        if start:
            await self.click("setup", players[0], lobby, f"l:{game_id}:start")
        return table

    async def setup(self) -> None:
        env = self.env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("games")
        self.junk_channel = self.guild.create_text_channel("old-bot")
        self.pool = [self.guild.add_member(env.create_user(n)) for n in ("ana", "bob", "cy", "dee", "fay")]
        self.eve = self.guild.add_member(env.create_user("eve"))
        self.other_guild = env.create_guild()
        self.other_channel = self.other_guild.create_text_channel("games")
        self.others = [self.other_guild.add_member(env.create_user(n)) for n in ("gus", "hal")]
        self.zoe = self.other_guild.add_member(env.create_user("zoe"))
        self.dm_user = env.create_user("dmitri")
        for actor in [*self.pool, self.eve, *self.others, self.zoe]:
            self.members[actor.id] = actor
        for game in ("toy", "toy", "california", "estates"):
            await self.add_table(game)
        other = await self.open_table(self.other_guild, self.other_channel, "toy", self.others, "target=40")
        if other is not None:
            self.tables.append(other)
        self.lobby_table = await self.open_table(self.guild, self.channel, "toy", self.pool[:2], start=False)

    async def add_table(self, game: str) -> None:
        low, high = {"toy": (2, 4), "california": (2, 4), "estates": (2, 4)}[game]
        players = self.rng.sample(self.pool, self.rng.randint(low, high))
        options = f"target={self.rng.randint(8, 20)}" if game == "toy" else None
        table = await self.open_table(self.guild, self.channel, game, players, options)
        if table is not None:
            self.tables.append(table)

    def facts(self, table: Table) -> GameFacts | None:
        return self.db.game(table.game_id)

    def board(self, table: Table) -> tuple[GameFacts, Any] | None:
        facts = self.facts(table)
        if facts is None or facts.status != GameStatus.ACTIVE:
            return None
        message = live_board(self.env, facts.table_channel, facts.id)
        return (facts, message) if message is not None else None

    def remember(self, game_id: int, message: Any) -> None:
        kept = self.history.setdefault(game_id, [])
        for cid in custom_ids(message):
            if cid not in kept:
                kept.append(cid)
        del kept[:-60]

    def thread_of(self, facts: GameFacts, table: Table) -> Any:
        for thread in table.channel.threads:
            if thread.id == facts.table_channel:
                return thread
        return table.channel

    # -- the kinds of input ------------------------------------------------------------------------

    async def legit(self) -> None:
        """One legal move of a random table by whoever may make it, through the UI a player would use."""
        active = [
            t for t in self.tables if (f := self.facts(t)) is not None and f.status == GameStatus.ACTIVE
        ]
        if not active:
            return
        table = self.rng.choice(active)
        found = self.board(table)
        facts = self.facts(table)
        assert facts is not None
        entry = REGISTRY.get(facts.game)
        state = state_of(facts)
        if entry is None or state is None:
            return
        seats = self.db.seats(facts.id)
        user_of = {seat: user for user, seat in seats.items()}
        if found is None or not any(
            c.split(":")[2:3] == [str(facts.public_version)] for c in custom_ids(found[1])
        ):
            actor = self.member(user_of[self.rng.choice(sorted(user_of))])
            await self.slash("legit", actor, self.thread_of(facts, table), "game show")
            return
        _, message = found
        self.remember(facts.id, message)
        rules = entry.rules
        waiting = sorted(rules.waiting_for(state))
        seat = (
            self.rng.choice(waiting)
            if waiting and self.rng.random() < 0.9
            else self.rng.choice(sorted(user_of))
        )
        legal = rules.legal_actions(state, seat)
        if not legal and waiting:
            seat = waiting[0]
            legal = rules.legal_actions(state, seat)
        if not legal:
            return
        action = self.choose(facts.game, legal)
        actor = self.member(user_of[seat])
        handle = clickable(self.env, message)
        ids = custom_ids(message)
        gid, pv = facts.id, facts.public_version
        direct = f"g:{gid}:{pv}:{action.encode()}"
        if facts.game == "toy" and action.kind == "add" and self.rng.random() < 0.5:
            if self.rng.random() < 0.5:
                select = next((c for c in ids if c.startswith(f"s:{gid}:{pv}:")), None)
                if select is not None:
                    await self.select("legit", actor, handle, select, [action.encode()])
                    return
            form = f"m:{gid}:{pv}:add"
            if form in ids:
                await self.form_path("legit", actor, handle, form, str(action.args[0]))
                return
        lasting = next(
            (i for i in ids if i.startswith(f"a:{gid}:") and i.endswith(f":{action.encode()}")), None
        )
        if direct in ids or lasting is not None:
            await self.click("legit", actor, handle, direct if direct in ids else str(lasting))
            return
        if facts.game == "toy" and action.kind == "reroll":
            panel = await self.click("legit", actor, handle, f"u:{gid}:{pv}:secret")
            if panel is not None and panel.response is not None and panel.response.ephemeral:
                await self.click("legit", actor, panel.response, direct)
            return
        if facts.game == "estates" and action.kind == "bid":
            # Quick bids are on the table (taken above when this amount is one); any other
            # amount goes through the form.
            await self.form_path("legit", actor, handle, f"m:{gid}:{pv}:bid", str(action.args[0]))
            return
        if facts.game == "estates" and action.kind == "stow":
            # Private and irreversible: My checks -> "Stow…" -> the confirmation.
            opened = await self.click("legit", actor, handle, f"u:{gid}:{pv}:checks")
            if opened is None or opened.response is None or not opened.response.ephemeral:
                return
            if f"u:{gid}:{pv}:stow" not in custom_ids(stored_of(self.env, opened.response)):
                return  # the panel offers no stow (already stowed, or nothing in hand)
            asked = await self.click("legit", actor, opened.response, f"u:{gid}:{pv}:stow")
            if asked is not None and asked.response is not None:
                await self.click("legit", actor, asked.response, direct)
            return
        if facts.game == "california" and action.kind in ("buy", "loan_buy"):
            # The tile on the table turns the table itself into that tile's spaces.
            store, slot, _target = action.args
            picked = await self.click("legit", actor, handle, f"u:{gid}:{pv}:t.{store}.{slot}")
            if picked is None:
                return
            found = self.board(table)
            if found is not None and direct in custom_ids(found[1]):
                await self.click("legit", actor, clickable(self.env, found[1]), direct)

    def choose(self, game: str, legal: list[Action]) -> Action:
        if game == "estates":
            bids = [a for a in legal if a.kind == "bid"]
            others = [a for a in legal if a.kind not in ("bid", "stow")]
            if bids and self.rng.random() < 0.4:
                return self.rng.choice(bids[:6])
            if any(a.kind == "stow" for a in legal) and self.rng.random() < 0.15:
                return Action("stow")
            return self.rng.choice(others or legal)
        if game == "california":
            buys = [a for a in legal if a.kind in ("buy", "loan_buy")]
            if buys and self.rng.random() < 0.6:
                return self.rng.choice(buys)
            rest = [a for a in legal if a.kind not in ("buy", "loan_buy")]
            return self.rng.choice(rest or legal)
        return self.rng.choice(legal)

    async def form_path(
        self, kind: str, actor: Any, message: ResponseMessage, form_id: str, value: str
    ) -> None:
        shown = await self.click(kind, actor, message, form_id)
        if shown is not None and shown.modal is not None:
            await self.submit(kind, actor, shown, value)

    async def wrong_user(self) -> None:
        """A real button or select of a live table (or the lobby) pressed by someone it is not for."""
        choices: list[tuple[Any, Table]] = []
        for table in self.tables:
            found = self.board(table)
            if found is not None:
                choices.append((found[1], table))
        if self.lobby_table is not None and self.lobby_table.lobby is not None:
            stored = self.env.backend.messages.get(self.lobby_table.lobby.channel_id, {}).get(
                self.lobby_table.lobby.id
            )
            if stored is not None and components(stored):
                choices.append((stored, self.lobby_table))
        if not choices:
            return
        message, table = self.rng.choice(choices)
        same_guild = [m for m in self.members.values() if m.guild.id == table.guild.id]
        actor = self.rng.choice(same_guild)
        # An undo request's Accept and Refuse are for every other seated player: not a wrong user's.
        comps = [
            c
            for c in components(message)
            if not c.get("disabled")
            and not str(c.get("custom_id", "")).endswith((":h.undo.yes", ":h.undo.no"))
        ]
        if not comps:
            return
        comp = self.rng.choice(comps)
        await self.click("wrong_user", actor, clickable(self.env, message), str(comp["custom_id"]))

    async def stale(self) -> None:
        """Old private panels, forms opened before the board moved, and re-posted old ids."""
        roll = self.rng.random()
        if roll < 0.4 and self.panels:
            actor, panel = self.rng.choice(list(self.panels))
            stored = self.env.backend.messages.get(panel.channel_id, {}).get(panel.id)
            comps = [c for c in components(stored) if not c.get("disabled")] if stored else []
            if comps:
                await self.click("stale", actor, panel, str(self.rng.choice(comps)["custom_id"]))
                return
        if roll < 0.6 and self.forms:
            actor, shown = self.forms.popleft()
            value = self.rng.choice(("1", "2", "3", str(self.rng.randint(1, 20)), *JUNK_NUMBERS[:8]))
            await self.submit("stale", actor, shown, value)
            return
        old = [cid for ids in self.history.values() for cid in ids]
        if not old:
            return
        ids = list(dict.fromkeys(self.rng.sample(old, k=min(len(old), 20))))
        posted = await self.post_junk(
            [(cid, BUTTON, ()) for cid in ids if cid.startswith(("g:", "a:", "u:", "m:", "l:"))]
        )
        if posted is None:
            return
        for _ in range(3):
            comp = self.rng.choice(posted[1]) if posted[1] else None
            if comp is None:
                return
            await self.click("stale", self.rng.choice(self.pool), posted[0], str(comp["custom_id"]))

    def real_ids(self) -> list[str]:
        out = []
        for table in self.tables:
            found = self.board(table)
            if found is not None:
                out.extend(custom_ids(found[1]))
        return out or ["g:1:0:add.1"]

    def malformed_id(self) -> tuple[str, int]:
        rng = self.rng
        real = rng.choice(self.real_ids())
        games = [t.game_id for t in self.tables] or [1]
        gid = rng.choice(games)
        facts = self.db.game(gid)
        pv = facts.public_version if facts else 0
        kind = rng.randrange(16)
        if kind == 0:
            text = "".join(rng.choice(string.printable[:94]) for _ in range(rng.randint(1, 100)))
        elif kind == 1:
            text = real[: rng.randint(1, max(1, len(real) - 1))]
        elif kind == 2:
            text = (
                real + rng.choice((".", ":", "x", ".1", ":0", " ", "\n", "é", "..", "::")) * rng.randint(1, 5)
            )[:100]
        elif kind == 3:
            text = rng.choice(
                (
                    f"g:{10**12 - 1}:0:add.1",
                    f"g:{gid}:{10**9 - 1}:add.1",
                    f"g:{'9' * 40}:0:add.1",
                    f"g:{gid}:{pv}:add.{'9' * 30}",
                    f"g:{gid}:{pv}:bid.{'9' * 12}",
                    f"g:{gid}:{pv}:bid.-{'9' * 11}",
                    "g:-1:0:add.1",
                    f"g:{gid}:-1:add.1",
                    "g:0:0:add.1",
                    f"g:{gid}:{pv}:buy.{'9' * 12}.0.0",
                    f"u:{gid}:{pv}:t.{'9' * 20}.0",
                    f"l:{'9' * 12}:join",
                )
            )
        elif kind == 4:
            rest = real.split(":", 1)[-1]
            text = rng.choice(("x", "G", "gg", "n", "z", "S", "?", "", "g ", "🎲", "https")) + ":" + rest
        elif kind == 5:
            text = "n:" + real.split(":", 1)[-1]  # a form's id on a button: no handler expects it there
        elif kind == 6:
            text = "s:" + real.split(":", 1)[-1]  # a select's id on a button
        elif kind == 7:
            other = rng.choice(self.real_ids())
            parts, theirs = real.split(":"), other.split(":")
            text = ":".join(parts[:3] + theirs[3:]) if len(parts) >= 3 else other
        elif kind == 8:
            digits = rng.choice(("٠١٢٣٤٥٦٧٨٩", "０１２３４５６７８９", "०१२३४५६७८९", "𝟎𝟏𝟐𝟑𝟒𝟓𝟔𝟕𝟖𝟗"))
            parts = real.split(":")
            if len(parts) >= 3 and parts[1].isdigit():
                which = rng.choice((1, 2))
                parts[which] = "".join(digits[int(d)] for d in parts[which])
            text = ":".join(parts)
        elif kind == 9:
            text = rng.choice(
                (
                    f"g:{gid}:{pv}:add.-1",
                    f"g:{gid}:{pv}:add.1.1",
                    f"g:{gid}:{pv}:add.",
                    f"g:{gid}:{pv}:add..1",
                    f"g:{gid}:{pv}:.add",
                    f"g:{gid}:{pv}:add.1e3",
                    f"g:{gid}:{pv}:add.0x10",
                    f"g:{gid}:{pv}:add.01",
                    f"g:{gid}:{pv}:add.+1",
                    f"g:{gid}:{pv}:__class__",
                    f"g:{gid}:{pv}:pick.__import__",
                    f"g:{gid}:{pv}:buy.0.0.99",
                    f"g:{gid}:{pv}:bid.-5",
                    f"g:{gid}:{pv}:place.Z.99",
                    f"g:{gid}:{pv}:stow.1",
                    f"g:{gid}:{pv}:{'k' * 33}",
                    f"g:{gid}:{pv}:escape",
                    f"g:{gid}:{pv}:repay.1",
                    f"g:{gid}:{pv}:coin.coin",
                )
            )
        elif kind == 10:
            text = rng.choice(
                (
                    f"l:{gid}:explode",
                    f"l:{gid}:join",
                    f"l:{gid}:start",
                    f"l:{gid}:withdraw",
                    f"l:{gid}:cancel",
                    f"l:{gid}",
                    f"l:{gid}:join:extra",
                )
            )
        elif kind == 11:
            text = rng.choice(
                (
                    f"u:{gid}:{pv}:nope",
                    f"u:{gid}:{pv}:t.9.9",
                    f"u:{gid}:{pv}:t.-1.0",
                    f"u:{gid}:{pv}:t.0",
                    f"u:{gid}:{pv}:" + "x" * 80,
                    f"u:{gid}:{pv}:checks.1",
                    f"m:{gid}:{pv}:bid.5",
                    f"m:{gid}:{pv}:nope",
                    f"m:{gid}:{pv}:add",
                    f"m:{gid}:{pv}:bid",
                )
            )
        elif kind == 12:
            text = "".join(
                rng.choice("é中🎲‮\u200b\u0000\t:.gus0123456789") for _ in range(rng.randint(1, 60))
            )
        elif kind == 13:
            # another server's table, or a finished one
            ended = [g.id for g in self.db.games(ENDED_STATUSES)]
            target = rng.choice(ended or games)
            text = f"g:{target}:{rng.randint(0, 50)}:" + rng.choice(
                ("add.1", "knock", "coin", "pass", "gg", "stow")
            )
        elif kind == 14:
            text = real.upper() if rng.random() < 0.5 else real.replace(":", "：")
        else:
            text = real
        text = text[:100] or "?"
        component = SELECT if rng.random() < 0.12 else BUTTON
        return text, component

    async def malformed(self) -> None:
        specs: list[tuple[str, int, Sequence[str]]] = []
        seen: set[str] = set()
        for _ in range(self.rng.randint(3, 12)):
            text, comp = self.malformed_id()
            if text in seen:
                continue
            seen.add(text)
            values = ("add.1", self.rng.choice(("knock", "pass", "coin", "zz")))
            specs.append((text, comp, values if comp == SELECT else ()))
        posted = await self.post_junk(specs)
        if posted is None:
            return
        message, posted_components = posted
        count = min(len(posted_components), self.rng.randint(2, 6))
        for component in self.rng.sample(posted_components, k=count):
            actor = self.rng.choice([*self.pool, self.eve])
            await self.click("malformed", actor, message, str(component["custom_id"]))

    async def garbage_select(self) -> None:
        """A select with a real id whose option values were never drawn by the bot."""
        target: tuple[Table, GameFacts] | None = None
        for table in self.rng.sample(self.tables, k=len(self.tables)):
            facts = self.facts(table)
            if facts is not None and facts.status == GameStatus.ACTIVE:
                target = (table, facts)
                break
        if target is None:
            return
        table, facts = target
        select_id = f"s:{facts.id}:{facts.public_version}:pick{self.rng.randint(0, 6)}"
        rng = self.rng
        pool = [
            "add.1.2",
            "add.-1",
            "add.99",
            "add.01",
            "add.１",
            "add.٣",
            "knock.x",
            "gg",
            "add.1",
            "add.2",
            "stow",
            "pass",
            "bid.1",
            "bid.999999999999",
            "buy.0.0.0",
            "coin",
            "loan",
            ".",
            "..",
            "x" * 100,
            "🎲",
            "pick.roof",
            "pick.__import__",
            "escape",
            "'; DROP TABLE games; --",
            "\u200b",
            " add.1",
        ]
        values = list(dict.fromkeys(rng.sample(pool, k=rng.randint(2, 8))))
        many = rng.random() < 0.2
        posted = await self.post_junk([(select_id, SELECT, values)], max_values=2 if many else 1)
        if posted is None:
            return
        message, _ = posted
        for _ in range(2):
            chosen = rng.sample(values, k=2 if many and len(values) > 1 and rng.random() < 0.5 else 1)
            players = list(self.db.seats(facts.id))
            actor = self.member(rng.choice(players)) if players and rng.random() < 0.8 else self.eve
            await self.select("garbage_select", actor, message, select_id, chosen)

    async def junk_form(self) -> None:
        """Open a real number form (toy "Add…", the Estates bid form) and type something odd into it."""
        choices = []
        for table in self.tables:
            found = self.board(table)
            if found is None:
                continue
            facts, message = found
            if facts.game == "toy":
                choices.append((table, facts, message, "add"))
            elif facts.game == "estates" and f"m:{facts.id}:{facts.public_version}:bid" in custom_ids(
                message
            ):
                choices.append((table, facts, message, "bid"))
        if not choices:
            return
        table, facts, message, kind = self.rng.choice(choices)
        state = state_of(facts)
        entry = REGISTRY.get(facts.game)
        seats = self.db.seats(facts.id)
        user_of = {seat: user for user, seat in seats.items()}
        waiting = sorted(entry.rules.waiting_for(state)) if entry is not None and state is not None else []
        roll = self.rng.random()
        if waiting and roll < 0.75:
            actor = self.member(user_of[waiting[0]])
        elif roll < 0.9:
            actor = self.member(self.rng.choice(sorted(seats)))
        else:
            actor = self.eve
        handle = clickable(self.env, message)
        gid, pv = facts.id, facts.public_version
        shown = await self.click("junk_form", actor, handle, f"m:{gid}:{pv}:{kind}")
        if shown is None or shown.modal is None:
            return
        if self.rng.random() < 0.15:
            self.forms.append((actor, shown))  # submitted later, after the board may have moved on
            return
        value = self.rng.choice(JUNK_NUMBERS) if self.rng.random() < 0.85 else str(self.rng.randint(-3, 30))
        await self.submit("junk_form", actor, shown, value)

    def odd_text(self) -> str:
        return oversized(self.rng) if self.rng.random() < 0.4 else self.rng.choice(ODD_TEXT)

    async def commands(self) -> None:
        rng = self.rng
        tables = [t.game_id for t in self.tables]
        elsewhere = [t.game_id for t in self.tables if t.guild.id != self.guild.id]
        table_numbers = [
            10**6,
            0,
            -1,
            2**53 - 1,
            -(2**53 - 1),
            *(elsewhere or [10**5]),
            *(tables or [1]),
        ]
        roll = rng.random()
        place: Any = rng.choice((self.channel, self.junk_channel, *self.channel.threads[-3:]))
        actor = rng.choice([*self.pool, self.eve])
        if roll < 0.08:
            await self.slash(
                "commands",
                self.dm_user,
                None,
                rng.choice(("game list", "game show", "game export", "game leave", "game abandon")),
            )
            return
        if roll < 0.12:
            await self.slash(
                "commands", self.dm_user, None, rng.choice(("game rules", "game new")), name=self.odd_text()
            )
            return
        if roll < 0.35:
            options: dict[str, Any] = {"name": self.odd_text()}
            if rng.random() < 0.6:
                options["options"] = oversized(rng) if rng.random() < 0.4 else rng.choice(ODD_OPTIONS)
            if options["name"] in ("toy", "estates", "california") and "options" not in options:
                options["options"] = oversized(rng)  # keep the number of real new lobbies small
            await self.slash("commands", actor, place, "game new", **options)
            return
        if roll < 0.5:
            await self.slash("commands", actor, place, "game rules", name=self.odd_text())
            return
        if roll < 0.62:
            await self.slash("commands", rng.choice([*self.pool, self.eve]), place, "game list")
            if rng.random() < 0.3:
                await self.slash("commands", self.zoe, self.other_channel, "game list")
            return
        command = rng.choice(("game show", "game export", "game leave", "game abandon"))
        if command == "game abandon":
            actor = self.eve  # never the host of a table here, and no Manage Server
        kwargs: dict[str, Any] = {}
        if rng.random() < 0.8:
            kwargs["table"] = rng.choice(table_numbers)
        if (
            command == "game leave"
            and "table" in kwargs
            and self.lobby_table is not None
            and kwargs["table"] == self.lobby_table.game_id
        ):
            kwargs["table"] = 10**6
        await self.slash("commands", actor, place, command, **kwargs)

    async def post_junk(
        self, specs: Sequence[tuple[str, int, Sequence[str]]], max_values: int = 1
    ) -> tuple[ResponseMessage, list[dict[str, Any]]] | None:
        """The bot posts a message carrying components it did not draw (as an older bot version would have)."""
        view = discord.ui.View(timeout=None)
        used = 0
        for index, (custom_id, kind, values) in enumerate(specs):
            if kind == SELECT:
                if used > 0 and used + 5 > 25:
                    continue
                options = [
                    discord.SelectOption(label=f"o{i}", value=v[:100])
                    for i, v in enumerate(dict.fromkeys(values))
                    if v
                ]
                if not options:
                    continue
                view.add_item(
                    discord.ui.Select(
                        custom_id=custom_id, options=options, max_values=min(max_values, len(options))
                    )
                )
                used += 5
            else:
                if used + 1 > 25:
                    continue
                view.add_item(discord.ui.Button(label=f"j{index}", custom_id=custom_id))
                used += 1
        if not view.children:
            return None
        channel = self.bot.get_channel(self.junk_channel.id)
        if not isinstance(channel, discord.TextChannel):
            return None
        try:
            sent = await channel.send("(buttons left by an older version)", view=view)
        except (discord.HTTPException, ValueError):
            return None
        view.stop()  # the bot does not listen to this view itself: only its real routing answers
        await self.env.settle()
        stored = self.env.backend.messages.get(self.junk_channel.id, {}).get(sent.id)
        if stored is None:
            return None
        self._refresh_rows()
        return clickable(self.env, stored), components(stored)

    async def fault(self) -> None:
        """Discord refuses the next table post or edit once; then a legit move runs into it."""
        method, path = self.rng.choice(
            (("POST", "/channels/*/messages"), ("PATCH", "/channels/*/messages/*"))
        )
        self.env.inject_error(method, path, status=self.rng.choice((500, 503, 403)))
        self.stats.injected_faults += 1
        await self.legit()
        faults = getattr(self.env.backend, "faults", None)
        if isinstance(faults, list):
            faults.clear()

    async def restart(self) -> None:
        self.bot = make_bot(self.workdir)
        await self.env.restart_bot(self.bot)
        self.stats.restarts += 1
        self.error_cursor = len(self.env.errors_since(0))
        if self._refresh_rows():
            self.stats.background_changes += 1

    async def maintain(self) -> None:
        """Drain SimCord's timers, free memory, replace finished tables."""
        await drain(self.env)
        background = self.env.errors_since(self.error_cursor)
        self.error_cursor += len(background)
        for error in background:
            self.stats.tracebacks += 1
            self.problems.add("traceback", f"[background] {type(error).__name__}: {error}")
        self.background_logs("[background]")
        if self._refresh_rows():
            self.stats.background_changes += 1
        forget_logs(self.env)
        forget_attachments(self.env)
        for table in list(self.tables):
            facts = self.facts(table)
            if facts is None or facts.status in CLOSED_STATUSES:
                self.tables.remove(table)
                self.history.pop(table.game_id, None)
                if facts is not None and facts.status == GameStatus.FINISHED:
                    self.stats.games_finished += 1
                if table.guild.id == self.guild.id:
                    await self.add_table(table.game)
                else:
                    fresh = await self.open_table(
                        self.other_guild, self.other_channel, "toy", self.others, "target=40"
                    )
                    if fresh is not None:
                        self.tables.append(fresh)
        if self.lobby_table is not None:
            facts = self.facts(self.lobby_table)
            if facts is None or facts.status != GameStatus.LOBBY:
                self.lobby_table = await self.open_table(
                    self.guild, self.channel, "toy", self.pool[:2], start=False
                )

    async def loop(self, target: int, restart_every: int, progress: TextIO | None) -> None:
        kinds: list[tuple[Callable[[], Awaitable[None]], float]] = [
            (self.legit, 0.36),
            (self.wrong_user, 0.12),
            (self.stale, 0.08),
            (self.malformed, 0.13),
            (self.garbage_select, 0.04),
            (self.junk_form, 0.12),
            (self.commands, 0.145),
            (self.fault, 0.005),
        ]
        handlers = [k for k, _ in kinds]
        weights = [w for _, w in kinds]
        next_maintenance = MAINTAIN_EVERY
        next_restart = restart_every if restart_every > 0 else None
        started = time.perf_counter()
        while self.stats.inputs < target:
            if self.stats.inputs >= next_maintenance:
                await self.maintain()
                next_maintenance = self.stats.inputs + MAINTAIN_EVERY
                if progress is not None:
                    elapsed = time.perf_counter() - started
                    print(
                        f"  {self.stats.inputs:>6} inputs, {elapsed:6.1f} s, unanswered {self.stats.unanswered},"
                        f" tracebacks {self.stats.tracebacks}, wrong {self.stats.wrong_state_changes}",
                        file=progress,
                        flush=True,
                    )
            if next_restart is not None and self.stats.inputs >= next_restart:
                await self.restart()
                next_restart = self.stats.inputs + restart_every
            handler = self.rng.choices(handlers, weights)[0]
            await handler()


async def run(
    inputs: int = GOAL_INPUTS,
    seed: int = 1,
    *,
    restart_every: int = 5000,
    progress: TextIO | None = None,
    quick: bool = True,
) -> dict[str, Any]:
    """Fuzz until ``inputs`` interactions were delivered; returns the figures (see the module docstring).

    ``quick``: let SimCord poll for idleness every millisecond (``quick_settle``); about 20 times faster.
    """
    register_toy()
    workdir = scratch_dir("torture-fuzz-")
    started = time.perf_counter()
    tap = LogTap().install()
    try:
        with quick_settle() if quick else contextlib.nullcontext():
            bot = make_bot(workdir)
            async with simcord.run(bot, strict_sync=False, check_errors=False) as env:
                fuzz = Fuzz(env, bot, workdir, seed, tap)
                try:
                    await fuzz.setup()
                    await fuzz.loop(inputs, restart_every, progress)
                    fuzz.background_logs("[end]")
                finally:
                    fuzz.db.close()
                env.errors  # noqa: B018  (acknowledge: every error was counted above)
            await close_bots()
    finally:
        tap.uninstall()
        shutil.rmtree(workdir, ignore_errors=True)
    seconds = time.perf_counter() - started
    s = fuzz.stats
    return {
        "benchmark": "torture_fuzz",
        "seed": seed,
        "inputs": s.inputs,
        "unanswered": s.unanswered,
        "tracebacks": s.tracebacks,
        "wrong_state_changes": s.wrong_state_changes,
        "seconds": round(seconds, 1),
        "accepted": s.accepted,
        "legal_refused": s.legal_refused,
        "lenient_accepts": s.lenient_accepts,
        "error_logs": s.error_logs,
        "undeliverable": s.undeliverable,
        "background_changes": s.background_changes,
        "restarts": s.restarts,
        "injected_faults": s.injected_faults,
        "games_finished": s.games_finished,
        "tables_opened": s.tables_opened,
        "by_kind": dict(sorted(s.by_kind.items())),
        "problems": dict(sorted(fuzz.problems.counts.items())),
        "signatures": dict(fuzz.problems.signatures.most_common()),
        "examples": fuzz.problems.examples,
    }


def verdict(figures: dict[str, Any], goal_inputs: int) -> bool:
    return bool(
        figures["inputs"] >= goal_inputs
        and figures["unanswered"] == 0
        and figures["tracebacks"] == 0
        and figures["wrong_state_changes"] == 0
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--inputs", type=int, default=GOAL_INPUTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--restart-every", type=int, default=5000, help="inputs between bot restarts (0: never)"
    )
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--slow-settle", action="store_true", help="keep SimCord's 50 ms idle polling")
    args = parser.parse_args(argv)
    figures = asyncio.run(
        run(
            args.inputs,
            args.seed,
            restart_every=args.restart_every,
            progress=None if args.quiet else sys.stderr,
        )
    )
    ok = verdict(figures, args.inputs)
    err = sys.stderr
    print(
        f"torture_fuzz: {figures['inputs']} inputs in {figures['seconds']} s (goal >= {args.inputs}); "
        f"unanswered {figures['unanswered']}, tracebacks {figures['tracebacks']}, "
        f"wrong state changes {figures['wrong_state_changes']} (goal 0 each)  {'PASS' if ok else 'FAIL'}",
        file=err,
    )
    print(
        f"  accepted moves {figures['accepted']}, legal moves refused {figures['legal_refused']}, "
        f"undeliverable {figures['undeliverable']}, restarts {figures['restarts']}, "
        f"games finished {figures['games_finished']}",
        file=err,
    )
    for kind, examples in figures["examples"].items():
        print(f"  {kind} ({figures['problems'][kind]}):", file=err)
        for example in examples[:3]:
            print(f"    {example[:300]}", file=err)
    print(summary_line(figures))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
