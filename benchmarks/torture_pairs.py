"""The pairing harness of the hidden-information torture runs (``torture_hidden_money`` for The
Estates, ``torture_hidden_hands`` for Last Will).

A pair is two tables of one game with the same seats and public moves, in two servers ("A" and "B")
whose members have the same names; only their secrets differ.  After every step everything public
of the two games is compared, with game ids, user ids and other snowflakes normalised (:class:`Names`):
the newest public messages of the table thread (content, components with custom_ids, labels, styles
and options, attachment bytes, creation and edit timestamps, mentions), how many there are, the lobby
message and the thread's name; ``/game list`` run by a bystander; and every log record at INFO and
above emitted while acting on each game (and while virtual time moved on).

This module holds what the two runs share: :class:`PairHarness` (one bot, one simulated Discord,
the two servers, acting and logging, the comparison, the end of a pair), :func:`play_pairs` (chunks
of pairs with a fresh bot each), the report's common figures and the command line's common part.
Each game's file keeps how B's secrets differ and how its public moves are chosen and reached.
"""

from __future__ import annotations

import abc
import argparse
import contextlib
import json
import random
import re
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, ClassVar, Generic, TextIO, TypeVar

import discord
import simcord
from simcord.results import InteractionResult, ResponseMessage

from benchmarks.torture_discord_common import (
    DbPeek,
    LogTap,
    Seen,
    attachment_digests,
    clickable,
    close_bots,
    components,
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
    undeliverable,
)
from bot.client import GameBot
from bot.core.registry import Registry, Renderer
from bot.storage import GameStatus
from harness.messages import alt_texts, words_of
from renderers.kit import Words
from rules.core import Rules

NAMES = ("ana", "bob", "cy", "dee", "fay")
BYSTANDER = "zed"
NEWEST = 3
"""Public messages of a thread compared at every checkpoint (all of them at the end of a pair)."""
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


def _plain(line: str) -> str:
    """``line`` with only the generic normalisation (no ids of either game), to tell whether it names one."""
    return Names(-1, {})(line)


class MemoRenderer:
    """The real renderer, memoised by (view, names): equal public views give the very same bytes."""

    def __init__(self, render: Renderer) -> None:
        self.render = render
        self.cache: dict[str, bytes] = {}
        self.hits = 0
        self.misses = 0

    def __call__(self, view: dict[str, Any], names: Sequence[str], words: Words) -> bytes:
        key = json.dumps([view, list(names), words.language], sort_keys=True)
        found = self.cache.get(key)
        if found is not None:
            self.hits += 1
            return found
        self.misses += 1
        png = self.render(view, names, words)
        self.cache[key] = png
        return png


# -- one table of a pair, and the figures of a run ------------------------------------------------------


@dataclass
class PairSide:
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

    def norm(self, text: object) -> str:
        assert self.names is not None
        return self.names(text)

    def reset(self) -> None:
        """Forget what belongs to the table this side played last."""
        self.logs.clear()

    def thread(self) -> Any:
        """The table's thread (the channel when it has none)."""
        return next((t for t in self.channel.threads if t.id == self.thread_id), self.channel)


@dataclass
class PairFigures:
    pairs: int = 0
    differences: int = 0
    pairs_differing: int = 0
    public_moves: int = 0
    list_checks: int = 0
    checkpoints: int = 0
    time_advanced: float = 0.0
    unanswered: int = 0
    tracebacks: int = 0
    by_kind: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)


class Stuck(RuntimeError):
    """A move legal in the game that the UI did not offer where a player finds it."""


S = TypeVar("S", bound=PairSide)
F = TypeVar("F", bound=PairFigures)


class PairHarness(abc.ABC, Generic[S, F]):
    """One bot and one simulated Discord playing pairs of ``game`` tables (see the module docstring)."""

    game: ClassVar[str]
    """The registered name of the game."""
    side_type: type[S]
    max_prefix: int
    """Most public moves of a pair that stops early."""
    skip_undeliverable: ClassVar[bool] = False
    """Whether an input SimCord refuses as undeliverable is passed over (else it is raised)."""
    option_details: ClassVar[bool] = False
    """Whether a select's placeholder and its options' labels and descriptions are compared too."""
    scratch_prefix: ClassVar[str]
    """How the scratch directory of a chunk of pairs is named."""
    progress_every: ClassVar[int]
    """Pairs between two progress lines."""

    def __init__(
        self,
        env: simcord.Env,
        bot: GameBot,
        workdir: Path,
        tap: LogTap,
        registry: Registry,
        memo: MemoRenderer,
        *,
        rng: random.Random,
        figures: F,
        noted: Counter[str],
        full_share: float,
        first_full: int,
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
        self.noted = noted
        self.full_share = full_share
        self.first_full = first_full
        self.control = control
        self.next_seed = 0
        self.error_cursor = 0
        self.pair_kinds: set[str] = set()
        self.open_views = 0
        entry = registry.get(self.game)
        if entry is None:
            raise RuntimeError(f"{self.game} is not registered")
        self.rules: Rules[Any] = entry.rules
        self._hook_bot()

    def _hook_bot(self) -> None:
        """The harness picks each game's seed; the bot's clock is SimCord's virtual clock."""
        env = self.env
        self.bot.sessions.clock = lambda: env.now().timestamp()
        lobby = self.bot.lobby
        original = lobby.start

        async def start(game_id: int, user_id: int, *, seed: int | None = None) -> Any:
            return await original(game_id, user_id, seed=self.next_seed)

        lobby.start = start  # type: ignore[method-assign]

    # -- the two servers ---------------------------------------------------------------------------

    def setup(self) -> tuple[S, S]:
        sides = []
        for label in ("A", "B"):
            guild = self.env.create_guild()
            channel = guild.create_text_channel("games")
            players = [guild.add_member(self.env.create_user(name)) for name in NAMES]
            bystander = guild.add_member(self.env.create_user(BYSTANDER))
            sides.append(self.side_type(label, guild, channel, players, bystander))
        return sides[0], sides[1]

    # -- acting on one game, with its logs ---------------------------------------------------------

    async def act(self, side: S, what: str, op: Any) -> InteractionResult | None:
        cursor = self.tap.cursor
        http_cursor = len(self.env.backend.http_requests)
        try:
            result: InteractionResult = await op
        except Exception as exc:
            if not (self.skip_undeliverable and undeliverable(exc)):
                raise
            self.collect(side, self.tap.since(cursor))
            return None
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

    def collect(self, side: S, records: list[Seen]) -> None:
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

    async def advance(self, seconds: float, sides: tuple[S, S]) -> None:
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

    def pause(self) -> float:
        """Virtual seconds between two things players do: mostly seconds to minutes, now and then an hour.

        Whole seconds apart are enough for a timestamp to tell two moments apart; long pauses are kept
        rare because the bot's minutely sweep runs once per virtual minute (and costs more the more
        tables have ended).
        """
        roll = self.rng.random()
        if roll < 0.1:
            return 0.0
        if roll < 0.7:
            return self.rng.uniform(1, 30)
        if roll < 0.95:
            return self.rng.uniform(30, 300)
        return self.rng.uniform(300, 3600)

    # -- opening the two tables, and closing them ------------------------------------------------

    def limit(self) -> int | None:
        """How many public moves the next pair may make: None for one played to the end."""
        index = self.figures.pairs
        every = round(1 / self.full_share) if self.full_share > 0 else 0
        full = index < self.first_full or (every > 0 and index % every == every - 1)
        return None if full else self.rng.randint(1, self.max_prefix)

    async def open(self, side: S, players: int, seed: int, options: str | None = None) -> None:
        host, *guests = side.players[:players]
        extra = {"options": options} if options else {}
        created = await self.act(
            side, "/game new", host.slash(side.channel, "game new", name=self.game, **extra)
        )
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
        side.reset()
        for guest in guests:
            await self.act(side, "join", guest.click(side.lobby, custom_id=f"l:{side.game_id}:join"))
        self.next_seed = seed
        started = await self.act(side, "start", host.click(side.lobby, custom_id=f"l:{side.game_id}:start"))
        row = self.db.db.execute("SELECT seed, status FROM games WHERE id = ?", (side.game_id,)).fetchone()
        if row is None or row[1] != GameStatus.ACTIVE or int(row[0]) != seed:
            said = reply_text(started)[:300] if started is not None else "no answer"
            raise RuntimeError(
                f"{side.label}: table {side.game_id} did not start with seed {seed}: {row}: {said!r}"
            )

    async def close_pair(self, a: S, b: S) -> None:
        """The end of a pair: both tables abandoned if still active, and what they left forgotten."""
        if self.pair_kinds:
            self.figures.pairs_differing += 1
        self.figures.pairs += 1
        for side in (a, b):
            facts = self.db.game(side.game_id)
            if facts is not None and facts.status == GameStatus.ACTIVE:
                await self.act(side, "abandon", side.players[0].slash(side.thread(), "game abandon"))
            side.reset()
        self.check_errors("between pairs")
        for side in (a, b):
            if side.thread_id is not None:
                # Nothing looks at a closed table's thread again: free SimCord's copy of it.
                self.env.backend.messages.pop(side.thread_id, None)
        self.tap.forget()
        forget_logs(self.env)
        forget_attachments(self.env)
        self.memo.cache.clear()

    # -- what the two games show -------------------------------------------------------------------

    def component_view(self, norm: Callable[[object], str], c: dict[str, Any]) -> tuple[Any, ...]:
        head = (
            c.get("type"),
            norm(c.get("custom_id", "")),
            c.get("label"),
            c.get("style"),
            bool(c.get("disabled")),
        )
        options = c.get("options") or ()
        if not self.option_details:
            return (*head, tuple(norm(o.get("value")) for o in options))
        return (
            *head,
            c.get("placeholder"),
            tuple((norm(o.get("value")), o.get("label"), o.get("description")) for o in options),
        )

    def message_view(self, side: S, message: Any) -> dict[str, Any]:
        norm = side.norm
        return {
            "content": norm(words_of(message)),
            "alt": [norm(text) for text in alt_texts(message)],
            "components": [self.component_view(norm, c) for c in components(message)],
            "images": [norm(d) for d in attachment_digests(self.env, message)],
            "timestamps": (message.timestamp, message.edited_timestamp),
            "mentions": sorted(norm(u) for u in message.mention_user_ids),
        }

    def thread_view(self, side: S, newest: int | None, finished: bool = False) -> dict[str, Any]:
        """``finished``: the last message (a finished game's standings) is left out."""
        messages = public_messages(self.env, side.thread_id) if side.thread_id else []
        if finished and messages:
            messages = messages[:-1]
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

    def compare(self, a: S, b: S, where: str, *, newest: int | None = NEWEST, finished: bool = False) -> None:
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
        elif isinstance(one, str) and isinstance(two, str):
            cut = next(
                (i for i, (x, y) in enumerate(zip(one, two, strict=False)) if x != y), min(len(one), len(two))
            )
            start = max(0, cut - 120)
            detail = f"A: {one[start : cut + 200]!r}; B: {two[start : cut + 200]!r}"
        else:
            detail = f"A: {str(one)[:300]!r}; B: {str(two)[:300]!r}"
        self.note(kind, f"pair {self.figures.pairs + 1}, {where}: {detail}")

    async def game_list(self, a: S, b: S, where: str) -> None:
        """``/game list`` by a bystander in both servers, at the same virtual moment."""
        self.figures.list_checks += 1
        texts = []
        for side in (a, b):
            result = await self.act(side, "/game list", side.bystander.slash(side.channel, "game list"))
            texts.append(side.norm(reply_text(result)) if result is not None else "")
        if texts[0] != texts[1]:
            self.differ("game_list", where, texts[0], texts[1])

    async def press(
        self,
        side: S,
        seat: int,
        message: discord.Message | ResponseMessage,
        custom_id: str,
        values: list[str] | None = None,
    ) -> InteractionResult | None:
        """``seat`` clicks the button ``custom_id`` on ``message``, or picks ``values`` on that select."""
        player = side.players[seat]
        if values is None:
            return await self.act(
                side, f"seat {seat} clicks {custom_id}", player.click(message, custom_id=custom_id)
            )
        return await self.act(
            side,
            f"seat {seat} selects {values} on {custom_id}",
            player.select(message, values, custom_id=custom_id),
        )

    async def public_extra(self, a: S, seat: int, moves: int) -> None:
        """The ``public_extra`` control: after the first move, a chat line by ``seat`` only in A's
        thread, a public difference the comparison must see."""
        if self.control == "public_extra" and moves == 1:
            await a.players[seat].send(a.thread(), "good move")

    # -- the engine state and the table -------------------------------------------------------------

    def state(self, side: S) -> tuple[Any, Any]:
        facts = self.db.game(side.game_id)
        if facts is None:
            raise RuntimeError(f"{side.label}: game {side.game_id} vanished")
        state = state_of(facts, self.registry)
        if state is None:
            raise RuntimeError(f"{side.label}: game {side.game_id} has no state")
        return facts, state

    def board(self, side: S) -> ResponseMessage:
        message = live_board(self.env, side.thread_id, side.game_id)
        if message is None:
            raise Stuck(f"{side.label}: game {side.game_id} has no live table message")
        return clickable(self.env, message)

    @abc.abstractmethod
    async def pair(self, a: S, b: S) -> None:
        """Play one pair: the game's own way of choosing and making moves in both tables."""

    @abc.abstractmethod
    def progress_figures(self) -> str:
        """The game's own figures on a progress line."""


# -- a whole run ----------------------------------------------------------------------------------------


@dataclass(frozen=True)
class PairPlan:
    """What a run is asked for (the arguments of each game's ``run``)."""

    pairs: int
    seed: int
    full_share: float
    """The share of pairs played to the end (every 20th with 0.05), besides the first ``first_full``."""
    first_full: int
    progress: TextIO | None
    quick: bool
    """SimCord's idle polling shortened (``quick_settle``)."""
    control: str | None
    """``"public_extra"``: game A of every pair shows one public thing B does not (see ``public_extra``)."""
    chunk: int
    """Pairs per bot, database and simulated Discord."""


async def play_pairs(
    harness: type[PairHarness[Any, F]],
    figures: F,
    plan: PairPlan,
    registry: Registry,
    memo: MemoRenderer,
    **options: Any,
) -> float:
    """Play ``plan.pairs`` pairs with ``harness`` (given the game's own ``options``); returns the
    seconds it took.

    Every ``plan.chunk`` pairs the bot, its database and SimCord start afresh (the bot's minutely
    sweep reads every table that ever ended: a bot that closed thousands sweeps slowly).  A progress
    line goes to ``plan.progress`` every ``harness.progress_every`` pairs and after the last.
    """
    pairs, progress = plan.pairs, plan.progress
    started = time.perf_counter()
    rng = random.Random(plan.seed)
    noted: Counter[str] = Counter()
    tap = LogTap().install()
    try:
        with quick_settle() if plan.quick else contextlib.nullcontext():
            while figures.pairs < pairs:
                count = min(plan.chunk, pairs - figures.pairs)
                workdir = scratch_dir(harness.scratch_prefix)
                try:
                    bot = make_bot(workdir, registry)
                    async with simcord.run(bot, strict_sync=False, check_errors=False) as env:
                        played = harness(
                            env,
                            bot,
                            workdir,
                            tap,
                            registry,
                            memo,
                            rng=rng,
                            figures=figures,
                            noted=noted,
                            full_share=plan.full_share,
                            first_full=plan.first_full,
                            control=plan.control,
                            **options,
                        )
                        try:
                            a, b = played.setup()
                            tap.forget()
                            for _ in range(count):
                                await played.pair(a, b)
                                done = figures.pairs
                                if progress is not None and (
                                    done % harness.progress_every == 0 or done == pairs
                                ):
                                    print(
                                        f"  {done:>4} pairs, {time.perf_counter() - started:6.1f} s, "
                                        f"{figures.public_moves} public moves, {played.progress_figures()}, "
                                        f"differences {figures.differences}",
                                        file=progress,
                                        flush=True,
                                    )
                        finally:
                            played.db.close()
                        env.errors  # noqa: B018  (acknowledge: every error was counted above)
                    await close_bots()
                finally:
                    shutil.rmtree(workdir, ignore_errors=True)
    finally:
        tap.uninstall()
    return time.perf_counter() - started


def report(
    name: str,
    plan: PairPlan,
    seconds: float,
    figures: PairFigures,
    memo: MemoRenderer,
    middle: Mapping[str, Any],
    late: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """The figures of a run: the common ones around the game's own ``middle`` (and ``late``)."""
    f = figures
    return {
        "benchmark": name,
        "seed": plan.seed,
        "pairs": f.pairs,
        "differences": f.differences,
        "seconds": round(seconds, 1),
        "pairs_differing": f.pairs_differing,
        "by_kind": dict(f.by_kind.most_common()),
        **middle,
        "list_checks": f.list_checks,
        "checkpoints": f.checkpoints,
        "virtual_hours": round(f.time_advanced / 3600, 1),
        **(late or {}),
        "unanswered": f.unanswered,
        "tracebacks": f.tracebacks,
        "renders": memo.misses,
        "renders_reused": memo.hits,
        "examples": f.examples,
    }


def arguments(doc: str | None, pairs: int, full: float, full_help: str) -> argparse.ArgumentParser:
    """The command line both runs take (each may add its own)."""
    parser = argparse.ArgumentParser(description=doc, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--pairs", type=int, default=pairs)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--full", type=float, default=full, help=full_help)
    parser.add_argument("--quiet", action="store_true", help="no progress lines on stderr")
    parser.add_argument("--slow-settle", action="store_true", help="keep SimCord's 50 ms idle polling")
    return parser


def run_options(args: argparse.Namespace) -> dict[str, Any]:
    """The keyword arguments of a game's ``run`` that come from the common command line."""
    return {
        "full_share": args.full,
        "progress": None if args.quiet else sys.stderr,
        "quick": not args.slow_settle,
    }


def conclude(figures: dict[str, Any], ok: bool, verdict: str, examples: int, width: int) -> int:
    """The verdict line, the differences by kind and the first ``examples`` examples on stderr, the
    figures as one JSON line on stdout; the exit status."""
    print(f"{verdict}  {'PASS' if ok else 'FAIL'}", file=sys.stderr)
    for kind, count in figures["by_kind"].items():
        print(f"  {kind}: {count}", file=sys.stderr)
    for example in figures["examples"][:examples]:
        print(f"    {example[:width]}", file=sys.stderr)
    print(summary_line(figures))
    return 0 if ok else 1
