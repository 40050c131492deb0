"""Hidden money in The Estates: pairs of games that differ only in private stows must look the same.

What runs: the real bot (``bot.client.GameBot``, its own SQLite file) inside
SimCord 3.2.1, one bot and one simulated Discord for the whole run.  Each pair
is two Estates tables with the same seed, the same seats and the same public
moves, in two servers ("A" and "B") whose members have the same names; the
games differ only in stows, the private action that moves $1 million from hand
to the cash box:

- at a turn's choose phase, one game stows and the other does not, or both
  stow at different moments (before or after virtual time moves on), and the
  one that stowed sometimes tries a second stow (refused);
- virtual time (``env.advance_time``, which also drives the bot's own clock
  here: ``sessions.clock`` reads SimCord's) moves on before, between and after
  stows, so a timing leak shows as a different timestamp;
- every public move is chosen from the moves legal in *both* games (stows
  change what a player can afford), through the UI a player uses: table
  buttons (the quick bids among them), the bid form, the stow behind My checks.

After every step, everything public of the two games is compared, with game
ids, user ids and other snowflakes normalised: the newest public messages of
the table thread (content, components with custom_ids, labels, styles and
options, attachment bytes, creation and edit timestamps, mentions), how many
there are, the lobby message and the thread's name; ``/game list`` run by a
bystander (after stows, after time moved on, and at random); and every log
record at INFO and above emitted while acting on each game.  At the end of a
pair the whole thread is compared once more.  The final standings (which
reveal the cash boxes, as the rules want) are left out: the last message of a
finished game, and the logs of the move that finished it.

Most pairs stop after a random prefix of public moves (then both tables are
abandoned); a share of them (``--full``) is played to the end.  Images come
from the real renderer, memoised by (view, names) so the second game of a pair
reuses the first one's PNG when (and only when) its public view is identical.
One bot, database and simulated Discord serve 100 pairs (200 tables), then
the next 100 get fresh ones.

Usage::

    PYTHONPATH=. .venv/bin/python benchmarks/torture_hidden_money.py [--pairs 500] [--seed 1]

The last line of stdout is one JSON object; exit 1 on any difference.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import re
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

import simcord
from simcord.results import InteractionResult, ResponseMessage

from benchmarks.torture_discord_common import (
    EPHEMERAL_VIEW_SECONDS,
    DbPeek,
    LogTap,
    Seen,
    attachment_digests,
    clickable,
    close_bots,
    components,
    custom_ids,
    forget_attachments,
    forget_logs,
    live_board,
    make_bot,
    oversized_requests,
    public_messages,
    quick_settle,
    reply_text,
    scratch_dir,
    state_of,
    stored_of,
    summary_line,
    unanswered,
)
from bot.client import GameBot
from bot.registry import REGISTRY, GameEntry, Registry
from rules.core import Action

GOAL_PAIRS = 500
NAMES = ("ana", "bob", "cy", "dee", "fay")
BYSTANDER = "zed"
NEWEST = 3
"""Public messages of a thread compared at every checkpoint (all of them at the end of a pair)."""
MAX_PREFIX = 20
"""Most public moves of a pair that stops early (a full game takes about 60 to 170)."""
CHUNK = 100
"""Pairs per bot: the bot's minutely sweep reads every table that ever ended, so a bot that has
closed thousands of tables sweeps more slowly, and SimCord's virtual minutes get dearer (see the report)."""
OPEN_VIEWS = 8
"""Private panels and forms left open before virtual time is moved past their timeouts (see ``drain``):
SimCord's settling scans every pending timer against every pending task, so they must not pile up."""
STOW = Action("stow")
EXAMPLES = 12


# -- normalising two games into one vocabulary ----------------------------------------------------------


@dataclass
class Names:
    """How one game of a pair is spelled: its id and the snowflakes that are its own."""

    game_id: int
    aliases: dict[int, str]
    _patterns: list[tuple[re.Pattern[str], str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        gid = self.game_id
        self._patterns = [
            (re.compile(rf"(?<=[a-z]:){gid}(?=:|$)"), "G"),
            (re.compile(rf"#{gid}\b"), "#G"),
            (re.compile(rf"\b(game|table|Game|Table)([ _:=-]+){gid}\b"), r"\1\2G"),
            (re.compile(rf"\b(table|game)-{gid}\.(png|json)"), r"\1-G.\2"),
        ]

    def __call__(self, text: object) -> str:
        out = str(text)
        out = re.sub(r"\d{15,21}", lambda m: self.aliases.get(int(m[0]), "<id>"), out)
        for pattern, replacement in self._patterns:
            out = pattern.sub(replacement, out)
        return re.sub(r"\d+(?:\.\d+)? ?ms\b", "<ms>", out)


# -- one table of a pair -------------------------------------------------------------------------------


@dataclass
class Side:
    label: str
    guild: Any
    channel: Any
    players: list[Any]
    bystander: Any
    game_id: int = 0
    thread_id: int | None = None
    lobby: ResponseMessage | None = None
    names: Names | None = None
    logs: list[str] = field(default_factory=list)
    """Normalised INFO+ records emitted while acting on this game, since the last checkpoint."""
    stowed: int = 0

    def norm(self, text: object) -> str:
        assert self.names is not None
        return self.names(text)


@dataclass
class Figures:
    pairs: int = 0
    differences: int = 0
    pairs_differing: int = 0
    full_games: int = 0
    public_moves: int = 0
    stows: int = 0
    refused_stows: int = 0
    list_checks: int = 0
    checkpoints: int = 0
    time_advanced: float = 0.0
    unanswered: int = 0
    tracebacks: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)


class MemoRenderer:
    """The real renderer, memoised by (view, names): equal public views give the very same bytes."""

    def __init__(self, render: Callable[[dict[str, Any], Sequence[str]], bytes]) -> None:
        self.render = render
        self.cache: dict[str, bytes] = {}
        self.hits = 0
        self.misses = 0

    def __call__(self, view: dict[str, Any], names: Sequence[str]) -> bytes:
        key = json.dumps([view, list(names)], sort_keys=True)
        found = self.cache.get(key)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        png = self.render(view, names)
        self.cache[key] = png
        return png


def estates_registry() -> tuple[Registry, MemoRenderer]:
    entry = REGISTRY.get("estates")
    if entry is None:
        raise RuntimeError("The Estates is not registered")
    memo = MemoRenderer(entry.renderer)
    registry = Registry()
    registry.register(GameEntry(entry.rules, memo, entry.cog))
    return registry, memo


class HiddenMoney:
    def __init__(
        self,
        env: simcord.Env,
        bot: GameBot,
        workdir: Path,
        rng: random.Random,
        tap: LogTap,
        registry: Registry,
        memo: MemoRenderer,
        *,
        figures: Figures,
        noted: Counter[str],
        full_share: float,
        first_full: int = 0,
        control: str | None,
    ) -> None:
        self.env = env
        self.bot = bot
        self.rng = rng
        self.tap = tap
        self.registry = registry
        self.memo = memo
        self.db = DbPeek(workdir / "host.sqlite3")
        self.figures = figures
        self.full_share = full_share
        self.first_full = first_full
        self.control = control
        self.seeds: dict[int, int] = {}
        self.next_seed = 0
        self.error_cursor = 0
        self.pair_kinds: set[str] = set()
        self.noted = noted
        self.open_views = 0
        rules = registry.get("estates")
        assert rules is not None
        self.rules = rules.rules
        self._hook_bot()

    def _hook_bot(self) -> None:
        """Both games of a pair get the same seed; the bot's clock is SimCord's virtual clock."""
        env = self.env
        self.bot.sessions.clock = lambda: env.now().timestamp()
        lobby = self.bot.lobby
        original = lobby.start

        async def start(game_id: int, user_id: int, *, seed: int | None = None) -> Any:
            return await original(game_id, user_id, seed=self.next_seed)

        lobby.start = start  # type: ignore[method-assign]

    # -- the two servers ---------------------------------------------------------------------------

    def setup(self) -> tuple[Side, Side]:
        sides = []
        for label in ("A", "B"):
            guild = self.env.create_guild()
            channel = guild.create_text_channel("games")
            players = [guild.add_member(self.env.create_user(name)) for name in NAMES]
            bystander = guild.add_member(self.env.create_user(BYSTANDER))
            sides.append(Side(label, guild, channel, players, bystander))
        return sides[0], sides[1]

    # -- acting on one game, with its logs ---------------------------------------------------------

    async def act(self, side: Side, what: str, op: Any) -> InteractionResult | None:
        cursor = self.tap.cursor
        http_cursor = len(self.env.backend.http_requests)
        result: InteractionResult = await op
        reason = unanswered(result)
        if reason is None:
            rejected = oversized_requests(self.env, http_cursor)
            reason = f"Discord would reject {rejected[0]}" if rejected else None
        if reason is not None:
            self.figures.unanswered += 1
            self.note("unanswered", f"{side.label}: {what}: {reason}; {reply_text(result)[:120]!r}")
        self.collect(side, self.tap.since(cursor))
        self.check_errors(f"{side.label}: {what}")
        return result

    def collect(self, side: Side, records: list[Seen]) -> None:
        for seen in records:
            if seen.traceback:
                self.figures.tracebacks += 1
                self.note("traceback", f"{side.label}: {seen.line()[:300]}")
            side.logs.append(side.norm(seen.line()))

    def check_errors(self, where: str) -> None:
        errors = self.env.errors_since(self.error_cursor)
        self.error_cursor += len(errors)
        for error in errors:
            self.figures.tracebacks += 1
            self.note("traceback", f"{where}: {type(error).__name__}: {error}")

    async def advance(self, seconds: float, sides: tuple[Side, Side]) -> None:
        """Move virtual time; records emitted meanwhile go to the game they name."""
        if seconds <= 0:
            return
        cursor = self.tap.cursor
        await self.env.advance_time(seconds)
        self.figures.time_advanced += seconds
        for seen in self.tap.since(cursor):
            line = seen.line()
            owner = next((s for s in sides if s.norm(line) != _plain(line)), None)
            if owner is not None:
                self.collect(owner, [seen])
        self.check_errors("advance_time")

    def note(self, kind: str, text: str) -> None:
        """Keep a few examples of each kind of finding."""
        self.noted[kind] += 1
        if self.noted[kind] <= 3 and len(self.figures.examples) < EXAMPLES:
            self.figures.examples.append(f"[{kind}] {text[:700]}")

    # -- opening the two tables ------------------------------------------------------------------

    async def open(self, side: Side, players: int, seed: int) -> None:
        host, *guests = side.players[:players]
        created = await self.act(side, "/game new", host.slash(side.channel, "game new", name="estates"))
        if created is None or created.response is None:
            raise RuntimeError(f"{side.label}: /game new did not answer: {created}")
        side.lobby = created.response
        side.game_id = self.db.last_game_id()
        facts = self.db.game(side.game_id)
        side.thread_id = facts.thread_id if facts else None
        aliases: dict[int, str] = {p.id: f"<P{i}>" for i, p in enumerate(side.players)}
        aliases.update(
            {side.bystander.id: "<bystander>", side.guild.id: "<guild>", side.channel.id: "<channel>"}
        )
        if side.thread_id:
            aliases[side.thread_id] = "<thread>"
        side.names = Names(side.game_id, aliases)
        side.logs.clear()
        side.stowed = 0
        for guest in guests:
            await self.act(side, "join", guest.click(side.lobby, custom_id=f"l:{side.game_id}:join"))
        self.next_seed = seed
        await self.act(side, "start", host.click(side.lobby, custom_id=f"l:{side.game_id}:start"))
        row = self.db.db.execute("SELECT seed, status FROM games WHERE id = ?", (side.game_id,)).fetchone()
        if row is None or row[1] != "active" or int(row[0]) != seed:
            raise RuntimeError(f"{side.label}: table {side.game_id} did not start with seed {seed}: {row}")

    # -- what the two games show -------------------------------------------------------------------

    def message_view(self, side: Side, message: Any) -> dict[str, Any]:
        norm = side.norm
        return {
            "content": norm(message.content),
            "components": [
                (
                    c.get("type"),
                    norm(c.get("custom_id", "")),
                    c.get("label"),
                    c.get("style"),
                    bool(c.get("disabled")),
                    tuple(norm(o.get("value")) for o in c.get("options") or ()),
                )
                for c in components(message)
            ],
            "images": [norm(d) for d in attachment_digests(self.env, message)],
            "timestamps": (message.timestamp, message.edited_timestamp),
            "mentions": sorted(norm(u) for u in message.mention_user_ids),
        }

    def thread_view(self, side: Side, newest: int | None, finished: bool) -> dict[str, Any]:
        messages = public_messages(self.env, side.thread_id) if side.thread_id else []
        if finished and messages:
            messages = messages[:-1]  # the final standings reveal the cash boxes, by the rules
        shown = messages if newest is None else messages[-newest:]
        thread = None
        if side.thread_id:
            with contextlib.suppress(Exception):
                thread = self.env.backend.get_channel(side.thread_id)
        lobby = stored_of(self.env, side.lobby) if side.lobby is not None else None
        return {
            "message_count": len(messages),
            "thread_name": side.norm(getattr(thread, "name", "")),
            "lobby": self.message_view(side, lobby) if lobby is not None else None,
            "messages": [self.message_view(side, m) for m in shown],
        }

    def compare(
        self, a: Side, b: Side, where: str, *, newest: int | None = NEWEST, finished: bool = False
    ) -> None:
        self.figures.checkpoints += 1
        one, two = self.thread_view(a, newest, finished), self.thread_view(b, newest, finished)
        for key in ("message_count", "thread_name", "lobby"):
            if one[key] != two[key]:
                self.differ(key, where, one[key], two[key])
        if len(one["messages"]) == len(two["messages"]):
            for m1, m2 in zip(one["messages"], two["messages"], strict=True):
                for key in m1:
                    if m1[key] != m2[key]:
                        self.differ(key, where, m1[key], m2[key])
                        break
        if a.logs != b.logs:
            self.differ("logs", where, a.logs, b.logs)
        a.logs.clear()
        b.logs.clear()

    def differ(self, kind: str, where: str, one: Any, two: Any) -> None:
        self.figures.differences += 1
        self.figures.by_kind[kind] += 1
        self.pair_kinds.add(kind)
        if isinstance(one, list) and isinstance(two, list):
            only_a = [x for x in one if x not in two][:3]
            only_b = [x for x in two if x not in one][:3]
            detail = f"only in A: {only_a}; only in B: {only_b}"
        else:
            detail = f"A: {str(one)[:300]!r}; B: {str(two)[:300]!r}"
        self.note(kind, f"pair {self.figures.pairs + 1}, {where}: {detail}")

    async def game_list(self, a: Side, b: Side, where: str) -> None:
        """``/game list`` by a bystander in both servers, at the same virtual moment."""
        self.figures.list_checks += 1
        texts = []
        for side in (a, b):
            result = await self.act(side, "/game list", side.bystander.slash(side.channel, "game list"))
            texts.append(side.norm(reply_text(result)) if result is not None else "")
        if texts[0] != texts[1]:
            self.differ("game_list", where, texts[0], texts[1])

    # -- moves ---------------------------------------------------------------------------------------

    def state(self, side: Side) -> Any:
        facts = self.db.game(side.game_id)
        if facts is None:
            raise RuntimeError(f"{side.label}: game {side.game_id} vanished")
        return facts, state_of(facts, self.registry)

    def board(self, side: Side) -> ResponseMessage:
        message = live_board(self.env, side.thread_id, side.game_id)
        if message is None:
            raise RuntimeError(f"{side.label}: game {side.game_id} has no live table message")
        return clickable(self.env, message)

    async def click(
        self, side: Side, seat: int, message: ResponseMessage, custom_id: str
    ) -> InteractionResult | None:
        player = side.players[seat]
        return await self.act(
            side, f"seat {seat} clicks {custom_id}", player.click(message, custom_id=custom_id)
        )

    async def ask_stow(self, side: Side, seat: int) -> ResponseMessage | None:
        """My checks -> "Stow…": the private confirmation, or None when the panel offers no stow."""
        facts, _ = self.state(side)
        prefix = f"{side.game_id}:{facts.public_version}"
        opened = await self.click(side, seat, self.board(side), f"u:{prefix}:checks")
        self.open_views += 1
        panel = opened.response if opened is not None else None
        if panel is None or f"u:{prefix}:stow" not in custom_ids(stored_of(self.env, panel)):
            return None
        asked = await self.click(side, seat, panel, f"u:{prefix}:stow")
        return asked.response if asked is not None else None

    async def stow(self, side: Side, seat: int, *, twice: bool = False) -> None:
        """A stow through its private confirmation.  ``twice``: a second confirmation is opened
        before the first is pressed, so the second press is a real engine refusal."""
        facts, _ = self.state(side)
        asked = [await self.ask_stow(side, seat) for _ in range(2 if twice else 1)]
        for confirmation in asked:
            if confirmation is None:
                self.figures.refused_stows += 1
                continue
            before, _ = self.state(side)
            await self.click(side, seat, confirmation, f"g:{side.game_id}:{facts.public_version}:stow")
            after, _ = self.state(side)
            if after.version == before.version + 1:
                self.figures.stows += 1
                side.stowed += 1
            else:
                self.figures.refused_stows += 1

    async def public_move(self, a: Side, b: Side, seat: int, action: Action) -> None:
        """The same public move in both games, through the same UI path."""
        if action.kind != "bid":
            for side in (a, b):
                facts, _ = self.state(side)
                await self.click(
                    side, seat, self.board(side), f"g:{side.game_id}:{facts.public_version}:{action.encode()}"
                )
            self.figures.public_moves += 1
            return
        # Bids are on the table: a quick bid when both tables offer it, else (and now and then
        # anyway) the form, typed the same way in both games.
        target = {
            side.label: f"g:{side.game_id}:{self.state(side)[0].public_version}:{action.encode()}"
            for side in (a, b)
        }
        quick = all(
            target[side.label] in custom_ids(stored_of(self.env, self.board(side))) for side in (a, b)
        )
        use_form = not quick or self.rng.random() < 0.1
        for side in (a, b):
            facts, _ = self.state(side)
            if use_form:
                shown = await self.click(
                    side, seat, self.board(side), f"m:{side.game_id}:{facts.public_version}:bid"
                )
                self.open_views += 1
                if shown is None or shown.modal is None:
                    raise RuntimeError(f"{side.label}: the bid form did not open")
                player = side.players[seat]
                await self.act(side, "bid form", player.submit_modal(shown, {"value": str(action.args[0])}))
            else:
                await self.click(side, seat, self.board(side), target[side.label])
        self.figures.public_moves += 1

    def pause(self) -> float:
        """Virtual seconds between two things players do: mostly seconds to minutes, now and then an hour.

        Whole seconds apart are enough for a timestamp to tell two moments apart; long pauses are kept
        rare because the bot's minutely sweep runs once per virtual minute (and costs more the more
        tables have ended, see the report).
        """
        roll = self.rng.random()
        if roll < 0.1:
            return 0.0
        if roll < 0.7:
            return self.rng.uniform(1, 30)
        if roll < 0.95:
            return self.rng.uniform(30, 300)
        return self.rng.uniform(300, 3600)

    def choose(self, legal: list[Action]) -> Action:
        bids = [x for x in legal if x.kind == "bid"]
        if bids and self.rng.random() < 0.45:
            return self.rng.choice(bids[:5])
        if any(x.kind == "buy" for x in legal) and self.rng.random() < 0.4:
            return Action("buy")
        rest = [x for x in legal if x.kind not in ("bid", "buy")]
        return self.rng.choice(rest or legal)

    # -- one pair ------------------------------------------------------------------------------------

    async def pair(self, a: Side, b: Side) -> None:
        rng = self.rng
        players = rng.randint(2, 5)
        seed = rng.getrandbits(62)
        index = self.figures.pairs
        every = round(1 / self.full_share) if self.full_share > 0 else 0
        full = index < self.first_full or (every > 0 and index % every == every - 1)
        limit = None if full else rng.randint(1, MAX_PREFIX)
        self.pair_kinds = set()
        await self.open(a, players, seed)
        await self.open(b, players, seed)
        self.compare(a, b, "after the start")
        moves = 0
        finished = False
        while limit is None or moves < limit:
            facts_a, state_a = self.state(a)
            facts_b, state_b = self.state(b)
            if facts_a.status != "active" or facts_b.status != "active":
                finished = True
                break
            waiting = sorted(self.rules.waiting_for(state_a))
            if waiting != sorted(self.rules.waiting_for(state_b)) or len(waiting) != 1:
                self.differ("waiting", f"move {moves}", waiting, sorted(self.rules.waiting_for(state_b)))
                break
            seat = waiting[0]
            if state_a.phase == "choose":
                await self.stows(a, b, seat, state_a, state_b, moves)
            elif rng.random() < 0.15:
                await self.advance(self.pause(), (a, b))
            legal_a = {x.encode(): x for x in self.rules.legal_actions(state_a, seat) if x != STOW}
            legal_b = {x.encode() for x in self.rules.legal_actions(state_b, seat) if x != STOW}
            both = [x for code, x in legal_a.items() if code in legal_b]
            if not both:
                self.differ("legal_moves", f"move {moves}", sorted(legal_a), sorted(legal_b))
                break
            action = self.choose(both)
            log_cursor_a, log_cursor_b = len(a.logs), len(b.logs)
            await self.public_move(a, b, seat, action)
            moves += 1
            done_a = (self.db.game(a.game_id) or facts_a).status != "active"
            if done_a:
                # The move that ended the game: its logs and final message may carry the standings.
                del a.logs[log_cursor_a:]
                del b.logs[log_cursor_b:]
            if self.open_views >= OPEN_VIEWS:
                await self.advance(EPHEMERAL_VIEW_SECONDS + 1, (a, b))
                self.open_views = 0
            if self.control == "public_extra" and moves == 1:
                # A chat line only in A's thread: a public difference the comparison must see.
                await a.players[seat].send(a.channel.threads[-1], "good move")
            self.compare(a, b, f"after move {moves} ({action.encode()})", finished=done_a)
            if rng.random() < 0.05:
                await self.game_list(a, b, f"after move {moves}")
        if limit is None:
            self.figures.full_games += 1
        finished = finished or (self.db.game(a.game_id) or self.state(a)[0]).status != "active"
        self.compare(a, b, "whole thread at the end", newest=None, finished=finished)
        if self.pair_kinds:
            self.figures.pairs_differing += 1
        self.figures.pairs += 1
        for side in (a, b):
            facts = self.db.game(side.game_id)
            if facts is not None and facts.status == "active":
                thread = next((t for t in side.channel.threads if t.id == side.thread_id), side.channel)
                await self.act(side, "abandon", side.players[0].slash(thread, "game abandon"))
            side.logs.clear()
        self.check_errors("between pairs")
        for side in (a, b):
            if side.thread_id is not None:
                # Nothing looks at a closed table's thread again: free SimCord's copy of it.
                self.env.backend.messages.pop(side.thread_id, None)
        self.tap.forget()
        forget_logs(self.env)
        forget_attachments(self.env)
        self.memo.cache.clear()

    async def stows(self, a: Side, b: Side, seat: int, state_a: Any, state_b: Any, moves: int) -> None:
        """A turn's start: stows in one game, or in both at different moments, with time moving on."""
        rng = self.rng
        can_a = STOW in self.rules.legal_actions(state_a, seat)
        can_b = STOW in self.rules.legal_actions(state_b, seat)
        plans = [
            ("none", "none"),
            ("early", "none"),
            ("late", "none"),
            ("none", "early"),
            ("none", "late"),
            ("early", "late"),
            ("late", "early"),
        ]
        plan_a, plan_b = rng.choices(plans, weights=(2, 3, 4, 3, 4, 2, 2))[0]
        if not can_a and plan_a != "none" and rng.random() < 0.7:
            plan_a = "none"
        if not can_b and plan_b != "none" and rng.random() < 0.7:
            plan_b = "none"
        where = f"turn start before move {moves + 1}"
        for side, plan in ((a, plan_a), (b, plan_b)):
            if plan == "early":
                await self.stow(side, seat, twice=rng.random() < 0.25)  # a second one: refused privately
        self.compare(a, b, f"{where}, early stows {plan_a}/{plan_b}")
        if rng.random() < 0.3:
            await self.game_list(a, b, f"{where}, after early stows")
        await self.advance(self.pause(), (a, b))
        for side, plan in ((a, plan_a), (b, plan_b)):
            if plan == "late":
                await self.stow(side, seat, twice=rng.random() < 0.25)  # a second one: refused privately
        self.compare(a, b, f"{where}, late stows {plan_a}/{plan_b}")
        if "late" in (plan_a, plan_b) and rng.random() < 0.6:
            await self.advance(self.pause(), (a, b))
        if plan_a != "none" or plan_b != "none" or rng.random() < 0.2:
            await self.game_list(a, b, f"{where}, after stows {plan_a}/{plan_b}")
        self.compare(a, b, f"{where}, before the pick")


def _plain(line: str) -> str:
    """``line`` with only the generic normalisation (no ids of either game), to tell whether it names one."""
    return Names(-1, {})(line)


async def _chunk(
    count: int,
    rng: random.Random,
    figures: Figures,
    noted: Counter[str],
    tap: LogTap,
    registry: Registry,
    memo: MemoRenderer,
    full_share: float,
    first_full: int,
    control: str | None,
    after_pair: Callable[[], None],
) -> None:
    """``count`` pairs with one bot, one database and one simulated Discord."""
    workdir = scratch_dir("torture-money-")
    try:
        bot = make_bot(workdir, registry)
        async with simcord.run(bot, strict_sync=False, check_errors=False) as env:
            money = HiddenMoney(
                env,
                bot,
                workdir,
                rng,
                tap,
                registry,
                memo,
                figures=figures,
                noted=noted,
                full_share=full_share,
                first_full=first_full,
                control=control,
            )
            try:
                a, b = money.setup()
                tap.forget()
                for _ in range(count):
                    await money.pair(a, b)
                    after_pair()
            finally:
                money.db.close()
            env.errors  # noqa: B018  (acknowledge: every error was counted above)
        await close_bots()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


async def run(
    pairs: int = GOAL_PAIRS,
    seed: int = 1,
    *,
    full_share: float = 0.05,
    first_full: int = 0,
    progress: TextIO | None = None,
    quick: bool = True,
    control: str | None = None,
    chunk: int = CHUNK,
) -> dict[str, Any]:
    """Play ``pairs`` pairs; returns the figures (see the module docstring).

    ``full_share`` of the pairs (every 20th with 0.05), and the first ``first_full`` of them, are played
    to the end.  Every
    ``chunk`` pairs the bot, its database and SimCord start afresh (see ``CHUNK``).

    ``control="public_extra"`` makes game A of every pair do one extra public thing (a player's
    chat line in its thread) after its first move: a self-test that the comparison does see a public difference.
    """
    registry, memo = estates_registry()
    started = time.perf_counter()
    rng = random.Random(seed)
    figures = Figures()
    noted: Counter[str] = Counter()

    def after_pair() -> None:
        done = figures.pairs
        if progress is not None and (done % 25 == 0 or done == pairs):
            print(
                f"  {done:>4} pairs, {time.perf_counter() - started:6.1f} s, {figures.public_moves} public"
                f" moves, {figures.stows} stows, differences {figures.differences}",
                file=progress,
                flush=True,
            )

    tap = LogTap().install()
    try:
        with quick_settle() if quick else contextlib.nullcontext():
            while figures.pairs < pairs:
                count = min(chunk, pairs - figures.pairs)
                await _chunk(
                    count,
                    rng,
                    figures,
                    noted,
                    tap,
                    registry,
                    memo,
                    full_share,
                    first_full,
                    control,
                    after_pair,
                )
    finally:
        tap.uninstall()
    f = figures
    return {
        "benchmark": "torture_hidden_money",
        "seed": seed,
        "pairs": f.pairs,
        "differences": f.differences,
        "seconds": round(time.perf_counter() - started, 1),
        "pairs_differing": f.pairs_differing,
        "by_kind": dict(f.by_kind.most_common()),
        "full_games": f.full_games,
        "public_moves": f.public_moves,
        "stows": f.stows,
        "refused_stows": f.refused_stows,
        "list_checks": f.list_checks,
        "checkpoints": f.checkpoints,
        "virtual_hours": round(f.time_advanced / 3600, 1),
        "unanswered": f.unanswered,
        "tracebacks": f.tracebacks,
        "renders": memo.misses,
        "renders_reused": memo.hits,
        "examples": f.examples,
    }


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pairs", type=int, default=GOAL_PAIRS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full", type=float, default=0.05, help="share of pairs played to the end")
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--slow-settle", action="store_true", help="keep SimCord's 50 ms idle polling")
    args = parser.parse_args(argv)
    figures = asyncio.run(
        run(
            args.pairs,
            args.seed,
            full_share=args.full,
            progress=None if args.quiet else sys.stderr,
            quick=not args.slow_settle,
        )
    )
    ok = figures["differences"] == 0 and figures["pairs"] >= args.pairs
    err = sys.stderr
    print(
        f"torture_hidden_money: {figures['pairs']} pairs ({figures['full_games']} to the end, "
        f"{figures['public_moves']} public moves, {figures['stows']} stows, {figures['refused_stows']} refused "
        f"stows, {figures['list_checks']} /game list checks) in {figures['seconds']} s; "
        f"differences {figures['differences']} in {figures['pairs_differing']} pairs (goal 0)  "
        f"{'PASS' if ok else 'FAIL'}",
        file=err,
    )
    for kind, count in figures["by_kind"].items():
        print(f"  {kind}: {count}", file=err)
    for example in figures["examples"][:6]:
        print(f"    {example[:400]}", file=err)
    print(summary_line(figures))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
