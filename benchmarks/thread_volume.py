"""How loud a table is: one full 3-player game of each game, played by clicks through SimCord.

The real bot (command tree, ``DynamicItem`` routing, panels, forms, attachments) plays a whole
game of California, The Estates, Monopoly California Dreaming and Last Will in simulated
Discord.  A seeded script picks, for a seat the game waits for, a random legal action, and
reaches it the way a player would: a button on the table, or the game's private panel
(California's store panel, The Estates' bid panel or form).  It never uses private actions (a
stow), which leave the thread untouched anyway.

Monopoly (:class:`MonopolyDriver`) is played on a table opened with ``turns=30`` (the game ends
after 30 full rounds, richest by net worth wins, unless bankruptcies end it first; about 300 to
450 actions, a few seconds).  Its script reaches every move as a player does: Roll, Buy, End
turn, auction bids (quick bids or the "Other amount…" form), claims and an offer's Accept /
Reject / Withdraw on the table; building, selling and (un)mortgaging in "My properties" (a
debtor's sales and mortgages in "Raise money…", bankruptcy behind its confirmation); deals in
"Propose a deal" (whom, then the draft's selects, card toggles, cash forms, Send or Drop);
Counter through the offer's own panel.  A private panel that stays open on the current table
(a draft, a building spree) is used again instead of being reopened.  Its policy is weighted by
kind of move (:data:`MONOPOLY_WEIGHTS`): the turn and what the game waits for are likely, any-time
moves (mortgages, new deals) rare, so the sample looks like a game rather than a mortgage
carousel; drafts are private moves, counted among the actions as they are stored.  In an auction
(open by default: any of the bidders still in may bid, in any order) each bidder bids as people
do (:meth:`MonopolyDriver.auction_move`): up to what the lot is worth to them (its price, give or
take), a few raises at most, then a pass.  ``--auction round`` plays the old round-robin auctions
(same bidders, same policy) for comparison.

Last Will (with Getting the Sack: the game's default options, ``expansion`` on; at most 7
rounds, about 250 to 350 actions) is played by :class:`ExploringDriver`, which knows nothing of
the game's panels: it reads every control by its id (:mod:`benchmarks.click_routes`) and finds a
move on the table, on the panel the seat has open, or behind the table's ``u:`` buttons (and
their panels' own, one level more), learning as it goes where each kind of move lives.  Its
policy is weighted by kind (:data:`LASTWILL_WEIGHTS`).  Every move is made, private ones too (a
drawing split's steps, discards): they are how the game goes on.

Printed per game:

- messages left in the thread at the end, and how many still carry an image;
- the most images the thread showed at any moment (checked after every scripted move);
- pings per player (new messages that mention and notify them) against the number of times the
  game started waiting for that player, and pings per player-turn;
- Monopoly's auctions: the messages of the thread at the end that auction moves posted (a move
  made while an auction was open or that opened one) against all messages of the thread, the
  bot's posts during auctions (an open auction's board carries its lines on to the next post
  and the old one goes), the pings in them, the auction moves and the Discord calls per
  auction move;
- Discord API calls (every REST request the bot made, interaction answers included) per accepted
  action and per click; for Monopoly and Last Will also per kind of move (``calls_by_kind``),
  per public action (private moves and their calls left out), and the script's own misses
  (click paths that ended in no move: 0 expected for Monopoly, a few first looks for Last Will).

Goals (issue 8): at most one image in the thread at any time; pings per player at most the times
the game started waiting for them, plus one for the final standings, which ping everyone; at most
2.5 Discord calls per accepted action on average.  Monopoly's auction messages should be at most
a tenth of the thread's messages: reported (``auction_ok``) but not part of ``ok``.  An open
auction now lives in one message, the message of the turn it happened in (each outbid ping posts
the board anew with the turn's lines and the old one goes), so auctions add no message to the
thread and the share is the share of turns that had an auction: 10.2% with seed 7, 5% to 13%
over seeds 1 to 5; round-robin auctions (``--auction round``) fold every ping: about 32%.

Usage::

    PYTHONPATH=. python benchmarks/thread_volume.py [--seed 7] [--games california,estates,monopoly,lastwill]
        [--auction open|round]

The last line is one JSON object with every figure; its ``ok`` is true only when every goal is met.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import random
import shutil
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import simcord

from benchmarks.click_routes import Offer, PageTurner, control, enabled, offered, openers
from benchmarks.torture_discord_common import (
    clickable,
    close_bots,
    components,
    custom_ids,
    drain,
    make_bot,
    public_messages,
    quick_settle,
    scratch_dir,
    stored_of,
)
from bot.storage import GameStatus
from harness.messages import payload_words
from rules.core import Action
from rules.monopoly import data

PLAYERS = 3
GOAL_IMAGES = 1
GOAL_CALLS_PER_ACTION = 2.5
GOAL_AUCTION_SHARE = 0.1
"""Monopoly: the thread's messages that auction moves posted, as a share of all its messages at
the end (reported as ``auction_ok``, not part of ``ok``: it follows how many turns had an auction)."""
MAX_CLICKS = 5000
PRIVATE_KINDS = {"stow"}
"""Private actions the script leaves out: they change nothing in the thread."""
PRIVATE_DRAFT_KINDS = frozenset({"deal", "give", "want", "givec", "wantc", "cash", "ask", "drop"})
"""Monopoly's private moves (a deal's draft until Send), which the script does make: they are
how a deal gets on the table.  They change nothing in the thread either."""


@dataclass
class Figures:
    game: str
    actions: int = 0
    clicks: int = 0
    calls: int = 0
    messages: int = 0
    with_images: int = 0
    max_images: int = 0
    pings: dict[str, int] = field(default_factory=dict)
    started_waiting: dict[str, int] = field(default_factory=dict)
    finished: bool = False
    seconds: float = 0.0
    by_kind: dict[str, list[int]] = field(default_factory=dict)
    """Per kind of action the script took: ``[times, clicks, Discord calls]`` (Monopoly's driver)."""
    misses: int = 0
    """Click paths that ended in no accepted action (the script's own mistakes; Monopoly's and
    Last Will's drivers)."""
    missed: Counter[str] = field(default_factory=Counter)
    """``misses`` by the kind of move the script was after (the exploring driver)."""
    private: list[int] | None = None
    """``[moves, Discord calls]`` of accepted moves that left the public version where it was
    (measured by the exploring driver); ``None``: Monopoly's draft kinds are the private moves."""
    posts: int = 0
    """Messages the bot posted in the thread (some were deleted since: a board moved down)."""
    auction: dict[str, int] | None = None
    """Monopoly: ``moves``, ``posts``, ``pings`` and ``calls`` of the moves made while an auction
    was open (or that opened one), and ``auctions`` opened; ``None`` for the other games."""

    @property
    def auction_share(self) -> float:
        """Messages of the thread (as a player reads it at the end) that auction moves posted, per
        message in the thread (0 without auctions)."""
        return (self.auction or {}).get("in_thread", 0) / max(self.messages, 1)

    @property
    def calls_per_action(self) -> float:
        return self.calls / max(self.actions, 1)

    @property
    def calls_per_public_action(self) -> float:
        """Calls per action with the private moves left out (their cost too): measured
        (:attr:`private`), else Monopoly's draft kinds in ``by_kind``."""
        if self.private is not None:
            moves, calls = self.private
        else:
            drafts = [cost for kind, cost in self.by_kind.items() if kind in PRIVATE_DRAFT_KINDS]
            moves, calls = sum(cost[0] for cost in drafts), sum(cost[2] for cost in drafts)
        return (self.calls - calls) / max(self.actions - moves, 1)

    @property
    def calls_per_click(self) -> float:
        return self.calls / max(self.clicks, 1)

    @property
    def pings_ok(self) -> bool:
        # +1: the final standings ping every player once.
        return all(self.pings.get(p, 0) <= self.started_waiting.get(p, 0) + 1 for p in self.started_waiting)

    @property
    def ok(self) -> bool:
        return (
            self.finished
            and self.max_images <= GOAL_IMAGES
            and self.pings_ok
            and self.calls_per_action <= GOAL_CALLS_PER_ACTION
        )


class Driver:
    """Plays one game by clicks; the script's brain reads the live game, its hands are SimCord's."""

    def __init__(self, env: simcord.Env, bot: Any, game: str, seed: int) -> None:
        self.env = env
        self.bot = bot
        self.game = game
        self.rng = random.Random(seed)
        self.figures = Figures(game)

    async def play(self) -> Figures:
        # The game's own seed comes from ``--seed`` too (the bot draws a secret one), so a run repeats.
        lobby = self.bot.lobby
        start = lobby.start
        game_seed = self.rng.getrandbits(62)

        async def seeded(game_id: int, user_id: int, *, seed: int | None = None) -> Any:
            return await start(game_id, user_id, seed=game_seed)

        lobby.start = seeded
        guild = self.env.create_guild()
        channel = guild.create_text_channel("games")
        self.players = [guild.add_member(self.env.create_user(f"player{i + 1}")) for i in range(PLAYERS)]
        opened = await self.players[0].slash(channel, "game new", name=self.game, **self.table_options())
        assert opened.response is not None, "/game new answers with the lobby"
        lobby = opened.response.message
        for player in self.players[1:]:
            await player.click(lobby, label="Join")
        game_id = max(row.id for row in await self.bot.store.games.list_games())
        self.game_id = game_id
        start_calls = len(self.env.backend.http_requests)
        await self.players[0].click(lobby, label="Start")
        self.thread_id = channel.threads[-1].id
        started = time.perf_counter()
        while self.figures.clicks < MAX_CLICKS:
            live = await self.bot.sessions.load(game_id)
            if live.status != GameStatus.ACTIVE:
                break
            await self.step(live)
            self.look()
            if self.drain_due():
                await drain(self.env)
        live = await self.bot.sessions.load(game_id)
        self.figures.finished = live.status == GameStatus.FINISHED
        self.figures.seconds = time.perf_counter() - started
        self.figures.calls = len(self.env.backend.http_requests) - start_calls
        self.figures.actions = len(await self.bot.store.log.load_actions(game_id))
        messages = public_messages(self.env, self.thread_id)
        self.figures.messages = len(messages)
        self.figures.posts = len(self.thread_posts())
        self.figures.with_images = sum(1 for m in messages if m.attachments)
        return self.figures

    def thread_posts(self) -> list[Any]:
        """The bot's POSTs of new messages into the thread, from SimCord's REST log, in order."""
        path = f"/channels/{self.thread_id}/messages"
        return [
            entry
            for entry in self.env.backend.http_requests
            if entry.method == "POST" and entry.path.startswith(path)
        ]

    def drain_due(self) -> bool:
        """Whether to move SimCord's clock past old panels' timeouts now (``drain``)."""
        return self.figures.clicks % 200 == 0

    def table_options(self) -> dict[str, str]:
        """Extra arguments of ``/game new`` (``options="..."``); none for games that end by themselves."""
        return {}

    def look(self) -> None:
        images = sum(1 for m in public_messages(self.env, self.thread_id) if m.attachments)
        self.figures.max_images = max(self.figures.max_images, images)

    def board(self) -> Any:
        for message in reversed(public_messages(self.env, self.thread_id)):
            if any(
                cid.startswith(f"g:{self.game_id}:") or cid.startswith(f"u:{self.game_id}:")
                for cid in custom_ids(message)
            ):
                return message
        raise RuntimeError("no live table")

    async def step(self, live: Any) -> None:
        rules = live.entry.rules
        seat = self.rng.choice(sorted(live.waiting()))
        actions = [a for a in rules.legal_actions(live.state, seat) if a.kind not in PRIVATE_KINDS]
        player = self.players[seat]
        self.rng.shuffle(actions)
        for action in actions:
            if await self.reach(player, live, action):
                return
        raise RuntimeError(f"{self.game}: no legal action of seat {seat} could be reached by clicks")

    async def click(self, player: Any, message: Any, custom_id: str) -> Any:
        self.figures.clicks += 1
        return await player.click(clickable(self.env, message), custom_id=custom_id)

    async def reach(self, player: Any, live: Any, action: Action) -> bool:
        """Click the way to ``action``: on the table, else through the step the game shows for it
        (a private panel, or the table itself turned into the next step)."""
        prefix = f"{self.game_id}:{live.public_version}:"
        target = f"g:{prefix}{action.encode()}"
        board = self.board()

        def lasting(message: Any) -> str | None:
            """The action's lasting button (``a:`` id, drawn for what it means) on ``message``."""
            return next(
                (
                    i
                    for i in custom_ids(message)
                    if i.startswith(f"a:{self.game_id}:") and i.endswith(f":{action.encode()}")
                ),
                None,
            )

        if target in custom_ids(board) or lasting(board) is not None:
            await self.click(player, board, lasting(board) or target)
            return True
        where = board
        for opener in self.panel_path(prefix, action):
            if opener not in custom_ids(where):
                return await self.by_form(player, board, prefix, action)
            result = await self.click(player, where, opener)
            panel = result.response
            where = panel if panel is not None and panel.ephemeral else self.board()
        if target in custom_ids(where) or lasting(where) is not None:
            await self.click(player, where, lasting(where) or target)
            return True
        return await self.by_form(player, board, prefix, action)

    def panel_path(self, prefix: str, action: Action) -> list[str]:
        """Where a player finds an action that is not on the table (per game: the scripted part)."""
        if self.game == "california" and len(action.args) == 3:
            store, slot = action.args[0], action.args[1]
            return [f"u:{prefix}t.{store}.{slot}"]
        if self.game == "california" and action.kind in ("loan", "repay"):
            return [f"u:{prefix}mansion"]  # a seat's own loan buttons
        if self.game == "estates" and action.kind == "bid":
            return [f"u:{prefix}bid"]
        if self.game == "estates" and action.kind == "buy":
            return [f"u:{prefix}decide"]  # the auctioneer decides privately: their money is secret
        return []

    async def by_form(self, player: Any, board: Any, prefix: str, action: Action) -> bool:
        """A number typed into the game's form (The Estates' "Bid…")."""
        form = f"m:{prefix}{action.kind}"
        if len(action.args) != 1 or form not in custom_ids(board):
            return False
        shown = await self.click(player, board, form)
        if shown.modal is None:
            return False
        self.figures.clicks += 1
        await player.submit_modal(shown, {"value": str(action.args[0])})
        return True

    async def count_pings(self, live: Any) -> None:
        """Pings from the REST log; "started waiting" from a replay of the game's log."""
        names = {str(p.id): p.name for p in self.players}
        pings: Counter[str] = Counter()
        for entry in self.env.backend.http_requests:
            if entry.method != "POST" or not entry.path.startswith(f"/channels/{self.thread_id}/messages"):
                continue
            body = entry.json if isinstance(entry.json, dict) else {}
            allowed = body.get("allowed_mentions") or {}
            users = {str(u) for u in allowed.get("users") or ()}
            content = payload_words(body)
            for user_id, name in names.items():
                if user_id in users and f"<@{user_id}>" in content:
                    pings[name] += 1
        self.figures.pings = {name: pings.get(name, 0) for name in names.values()}
        rules = live.entry.rules
        state = rules.setup(PLAYERS, live.row.options, live.row.seed)
        starts: Counter[int] = Counter(rules.waiting_for(state))
        for _, seat, action in await self.bot.store.log.load_actions(self.game_id):
            before = rules.waiting_for(state)
            rules.apply(state, seat, action)
            after = frozenset() if rules.outcome(state) is not None else rules.waiting_for(state)
            starts.update(after - before)
        self.figures.started_waiting = {self.players[s].name: starts.get(s, 0) for s in range(PLAYERS)}


MONOPOLY_TURNS = 30
"""Monopoly's ``turns`` table option: the game ends after this many full rounds (richest by net
worth wins) unless bankruptcies end it first.  ``rules.monopoly.data.PLAY_TURNS`` (15, the rules'
``play_options``) is for bulk random play; 30 rounds by clicks are about 300 to 450 actions and
5 to 10 seconds, long enough for colour groups to be completed and built on, and for debts."""

MONOPOLY_WEIGHTS: dict[str, float] = {
    # What the game waits for: the turn, auctions, shortage claims, mortgaged deeds received,
    # collecting rent, answering a deal, leaving the game when nothing else covers a debt.
    "roll": 1.0,
    "fine": 1.0,
    "card": 1.0,
    "buy": 3.0,  # most players buy what they land on when they can; declining starts an auction
    "decline": 1.0,
    "end": 1.0,
    "bid": 1.0,
    "pass": 1.0,
    "claim": 1.0,
    "noclaim": 1.0,
    "keep": 1.0,
    "lift": 1.0,
    "rent": 1.0,
    "accept": 1.0,
    "reject": 1.0,
    "counter": 0.5,
    "bankrupt": 1.0,
    "withdraw": 0.1,
    # Any time, from "My properties" (or the debt panel, where they are what a debtor does).
    "build": 0.3,
    "unmort": 0.1,
    "sell": 0.05,
    "mort": 0.05,
    # Deals: starting one is rare; once a draft is open its steps are as likely as a turn move.
    "deal": 0.03,
    "give": 1.0,
    "want": 1.0,
    "givec": 0.3,
    "wantc": 0.3,
    "cash": 0.5,
    "ask": 0.5,
    "send": 1.0,
    "drop": 0.1,
}
"""The Monopoly script's policy: first a kind of move by these weights (among the kinds legal for
the seat), then one of that kind's legal actions uniformly (every amount the engine lists for a
bid or deal cash alike).  Every legal kind has a weight, so this is still random legal play; it
only keeps aimless any-time moves (a mortgage, a new deal on every step) from crowding out the
turn, as they would not in a real game."""

MONOPOLY_ON_TABLE = frozenset(
    {"roll", "fine", "card", "buy", "decline", "end", "bid", "pass", "claim", "noclaim"}
    | {"keep", "lift", "rent", "accept", "reject", "withdraw"}
)
"""Moves drawn on the table message (row 0, the auction kit, or an offer's row)."""


class MonopolyDriver(Driver):
    """Monopoly by clicks: the table, then "My properties", the debt panel ("Raise money…"),
    "Propose a deal" (whom, then the draft: selects, card toggles, cash forms, Send, Drop) and an
    offer's own panel ("Counter #n…").  Like a player, it keeps using a private panel while it
    stays open on the current table (the draft, a building spree) instead of opening it again."""

    def __init__(self, env: simcord.Env, bot: Any, game: str, seed: int, auction: str = "open") -> None:
        super().__init__(env, bot, game, seed)
        self.panels: dict[int, Any] = {}
        """Per seat: the private panel it has open (a SimCord handle; re-read before each use)."""
        self.drained = 0
        """The click count at the last ``drain``."""
        self.auction_mode = auction
        self.figures.auction = {"auctions": 0, "moves": 0, "posts": 0, "pings": 0, "calls": 0, "in_thread": 0}
        self.posted_by_auctions: set[int] = set()
        """Ids of the thread messages auction moves posted (some deleted since: a board carried on)."""
        self.worth: dict[tuple[int, int], int] = {}
        """Per (auction, seat): the most that bidder will pay for the lot (drawn once)."""
        self.raised: Counter[tuple[int, int]] = Counter()
        """Per (auction, seat): bids made so far."""
        self.serial = 0
        """Auctions seen opening so far (the key of the current one in :attr:`worth`)."""

    def table_options(self) -> dict[str, str]:
        return {"options": f"turns={MONOPOLY_TURNS} auction={self.auction_mode}"}

    async def play(self) -> Figures:
        figures = await super().play()
        assert figures.auction is not None
        kept = {m.id for m in public_messages(self.env, self.thread_id)} & self.posted_by_auctions
        figures.auction["in_thread"] = len(kept)
        return figures

    def auction_move(self, live: Any, seat: int, legal: list[Action]) -> Action | None:
        """A bid or a pass as people bid: up to the lot's worth to this bidder (a property's price
        times 0.5 to 1.1, a building at its build cost to twice it, drawn once per auction and
        bidder, never beyond their cash; three bidders in ten do not want it at all), twice at most,
        a raise of $10 (or $1 when only that fits), now and then a jump to the most of the listed
        raises they would pay; else a pass.  ``None`` when the seat is not bidding now."""
        state = live.state
        auction = state.auction
        bids = sorted((a for a in legal if a.kind == "bid"), key=lambda a: int(a.args[-1]))
        passing = next((a for a in legal if a.kind == "pass"), None)
        if auction is None or passing is None:
            return None
        key = (self.serial, seat)
        if key not in self.worth:
            if auction.item == "property":
                base = data.BOARD[auction.pos].price * self.rng.uniform(0.5, 1.1)
            else:  # a shortage's house or hotel: at most what it would cost on a dear site
                cost = data.BOARD[auction.pos].house_cost if 0 <= auction.pos < data.SPACES else 200
                base = (cost or 200) * self.rng.uniform(1.0, 2.0)
            wanted = self.rng.random() >= 0.3
            self.worth[key] = min(int(base), state.cash[seat]) if wanted else 0
        affordable = [a for a in bids if int(a.args[-1]) <= self.worth[key]]
        if not affordable or self.raised[key] >= 2:
            return passing
        self.raised[key] += 1
        if self.rng.random() < 0.3:
            return affordable[-1]
        step = [a for a in affordable if int(a.args[-1]) == auction.high + 10]
        return step[0] if step else affordable[0]

    async def step(self, live: Any) -> None:
        """One move, counted among the auction's moves when an auction was open or opened by it."""
        before = live.state.auction
        opened = live.state.auctions_opened
        posts, calls = len(self.thread_posts()), len(self.env.backend.http_requests)
        there = {m.id for m in public_messages(self.env, self.thread_id)}
        await self.one_move(live)
        after = (await self.bot.sessions.load(self.game_id)).state
        if before is None and after.auction is None:
            return
        counts = self.figures.auction
        assert counts is not None
        new = self.thread_posts()[posts:]
        if after.auction is not None and (
            before is None
            or (before.item, before.pos) != (after.auction.item, after.auction.pos)
            or after.auctions_opened != opened
        ):
            self.serial += 1  # a new auction (round-robin ones are not counted by the engine)
            counts["auctions"] += 1
        counts["moves"] += 1
        counts["posts"] += len(new)
        self.posted_by_auctions |= {m.id for m in public_messages(self.env, self.thread_id)} - there
        counts["pings"] += sum(
            len((entry.json or {}).get("allowed_mentions", {}).get("users") or ()) for entry in new
        )
        counts["calls"] += len(self.env.backend.http_requests) - calls

    async def one_move(self, live: Any) -> None:
        rules = live.entry.rules
        seat = self.rng.choice(sorted(live.waiting()))
        legal = rules.legal_actions(live.state, seat)
        chosen = self.auction_move(live, seat, legal)
        if chosen is not None:
            legal = [chosen]
        by_kind: dict[str, list[Action]] = {}
        for action in legal:
            if self.reachable(live, seat, action):
                by_kind.setdefault(action.kind, []).append(action)
        before = live.version
        while by_kind:
            kinds = sorted(by_kind)
            kind = self.rng.choices(kinds, [MONOPOLY_WEIGHTS.get(k, 1.0) for k in kinds])[0]
            actions = by_kind.pop(kind)
            self.rng.shuffle(actions)
            for action in actions:
                calls, clicks = len(self.env.backend.http_requests), self.figures.clicks
                if await self.reach(self.players[seat], live, action):
                    cost = self.figures.by_kind.setdefault(action.kind, [0, 0, 0])
                    cost[0] += 1
                    cost[1] += self.figures.clicks - clicks
                    cost[2] += len(self.env.backend.http_requests) - calls
                    if (await self.bot.sessions.load(self.game_id)).version == before:
                        self.figures.misses += 1
                    return
                if self.figures.clicks != clicks:
                    self.figures.misses += 1  # panels opened for nothing
        raise RuntimeError(f"{self.game}: no legal action of seat {seat} could be reached by clicks")

    def reachable(self, live: Any, seat: int, action: Action) -> bool:
        """Whether a player finds ``action`` by clicks: a new deal while one's draft is open is
        not (the deal panel shows the draft; Drop first), everything else legal is."""
        if action.kind == "deal":
            return live.state.drafts[seat] is None
        return True

    def route(self, live: Any, seat: int, action: Action) -> list[str]:
        """The private panels (ui codes) opened from the table, in order, on the way to ``action``."""
        kind = action.kind
        if kind in MONOPOLY_ON_TABLE:
            return []
        if kind == "counter":
            return [f"offer.{action.args[0]}"]
        if kind in ("sell", "mort") and any(d.debtor == seat for d in live.state.debts):
            return ["debt"]
        if kind in ("build", "sell", "mort", "unmort"):
            return ["props"]
        if kind == "bankrupt":
            return ["debt", "bankrupt"]
        return ["deal"]  # deal.<seat> (whom), or a draft step

    async def reach(self, player: Any, live: Any, action: Action) -> bool:
        """The seat's open panel if it shows ``action`` now, else the table and :meth:`route`."""
        seat = self.players.index(player)
        version = live.public_version
        panel = self.panels.get(seat)
        if panel is not None:
            stored = stored_of(self.env, panel)
            if stored is not None and await self.press(player, seat, stored, version, action, page=False):
                return True
        where = self.board()
        for code in self.route(live, seat, action):
            opener = f"u:{self.game_id}:{version}:{code}"
            found = await self.find(player, where, functools.partial(self.shows, custom_id=opener))
            if found is None:
                return False
            result = await self.click(player, found[0], opener)
            where = self.keep_panel(seat, result)
            if where is None:
                return False
        return await self.press(player, seat, where, version, action)

    def keep_panel(self, seat: int, result: Any) -> Any | None:
        """The private panel a click opened or redrew (``None`` if it closed); remembered per seat."""
        response = result.response
        if response is None or not response.ephemeral:
            self.panels.pop(seat, None)
            return None
        stored = stored_of(self.env, response)
        if stored is None or not custom_ids(stored):
            self.panels.pop(seat, None)
            return None
        self.panels[seat] = response
        return stored

    async def find(
        self, player: Any, message: Any, target: Callable[[Any], str | None], *, page: bool = True
    ) -> tuple[Any, str] | None:
        """``message`` at the page where ``target(message)`` names a component, and that component:
        a list longer than one message is paged with the host's ◀ ▶ (forward, then back from
        where it stood); ``None`` if no page has it."""
        turner = PageTurner(self.game_id)
        while True:
            found = target(message)
            if found is not None:
                return message, found
            step = turner.step(message) if page else None
            if step is None:
                return None
            handle = clickable(self.env, message)
            await self.click(player, message, step)
            message = stored_of(self.env, handle)
            if message is None:
                return None

    def shows(self, message: Any, custom_id: str) -> str | None:
        return custom_id if custom_id in enabled(message) else None

    async def press(
        self, player: Any, seat: int, message: Any, version: int, action: Action, *, page: bool = True
    ) -> bool:
        """Press ``action`` on ``message``: its button, a select's option, or the form for its amount
        (the host's form contract: the action without its amount, ``bid`` or ``cash``)."""
        encoded = action.encode()
        button = f"g:{self.game_id}:{version}:{encoded}"
        amount = action.args[-1] if action.args else None
        form = f"m:{self.game_id}:{version}:{Action(action.kind, action.args[:-1]).encode()}"

        def target(shown: Any) -> str | None:
            for cid in enabled(shown):
                if cid == button or (cid.startswith(f"a:{self.game_id}:") and cid.endswith(f":{encoded}")):
                    return cid
            select = self.select_with(shown, version, encoded)
            if select is not None:
                return select
            if isinstance(amount, int) and form in enabled(shown):
                return form
            return None

        found = await self.find(player, message, target, page=page)
        if found is None:
            return False
        where, cid = found
        if cid.startswith("s:"):
            self.figures.clicks += 1
            self.keep_panel(seat, await player.select(clickable(self.env, where), [encoded], custom_id=cid))
            return True
        shown = await self.click(player, where, cid)
        if cid.startswith("m:"):
            if shown.modal is None:
                return False
            self.figures.clicks += 1
            shown = await player.submit_modal(shown, {"value": str(amount)})
        self.keep_panel(seat, shown)
        return True

    def select_with(self, message: Any, version: int, value: str) -> str | None:
        """The custom_id of a select on ``message`` that offers ``value``."""
        for component in components(message):
            cid = str(component.get("custom_id", ""))
            if not cid.startswith(f"s:{self.game_id}:{version}:"):
                continue
            if any(option.get("value") == value for option in component.get("options") or ()):
                return cid
        return None


LASTWILL_WEIGHTS: dict[str, float] = {
    **dict.fromkeys(("hold", "drop", "noline", "done", "go", "as", "sell", "bankrupt"), 0.15),
    "redraw": 0.05,
}
"""The Last Will script's policy (as ``discord_week``'s): moves that end a turn or a choice early,
give up a card or a line, or throw away money's chances are rarer, and starting a drawing split
over (``redraw``) rarer still, so turns are played out as a player would play them.  Every legal
kind keeps a weight: this is still random legal play, and a game ends after its rounds anyway."""
WEIGHTS: dict[str, dict[str, float]] = {"lastwill": LASTWILL_WEIGHTS}
"""Per game, the :class:`ExploringDriver`'s weight of each kind of move (1 when not named)."""
EXPLORE_CLICKS = 16
"""Clicks one move may spend opening panels it has never looked in, before giving up on a move."""
ROUTES_TRIED = 2
"""Known routes tried for a kind of move before exploring (the ones that offered it most often)."""

Path = tuple[str, ...]
"""The ui codes pressed, in order, from the table to a panel (``()``: the table itself)."""


def shape_of(path: Path, action: Action) -> Path:
    """``path`` as a route for any action of ``action``'s kind: each part of a code (after its
    first) that names one of the action's arguments becomes ``{i}`` (``comp.GST2`` -> ``comp.{1}``
    for a companion card ``GST2`` that is its second argument)."""
    args = [str(arg) for arg in action.args]
    shaped = []
    for code in path:
        head, *rest = code.split(".")
        shaped.append(".".join([head, *(f"{{{args.index(p)}}}" if p in args else p for p in rest)]))
    return tuple(shaped)


def instance(shape: Path, action: Action) -> Path | None:
    """The route ``shape`` (:func:`shape_of`) for ``action``, or ``None`` if it names an argument
    ``action`` does not have."""
    args = [str(arg) for arg in action.args]
    out = []
    for code in shape:
        parts = []
        for part in code.split("."):
            if part.startswith("{") and part.endswith("}"):
                index = int(part[1:-1])
                if index >= len(args):
                    return None
                part = args[index]
            parts.append(part)
        out.append(".".join(parts))
    return tuple(out)


class ExploringDriver(Driver):
    """Any game by clicks, knowing nothing of its panels (Last Will's driver).

    A move is chosen from the engine (a kind by :data:`WEIGHTS`, then one of its legal actions
    at random) and reached only through what messages show, read by their ids
    (:mod:`benchmarks.click_routes`): a button, a select's option or a number form on the table,
    else on the private panel the seat has open (a panel's next step, a drawing split), else behind
    the table's ``u:`` buttons and, one level more, their panels' own ``u:`` buttons.  Where a kind
    of move was found is learned as the game goes (the ui codes pressed from the table), so
    a panel is opened only on the way to a move once the script knows its way: misses (click paths
    that ended in no move) come from the first looks only.  When a path leads to a panel that does
    not show the chosen action but shows others of its kind (a card the table could not know of),
    one of those is made: still a random legal move of the kind chosen."""

    def __init__(self, env: simcord.Env, bot: Any, game: str, seed: int) -> None:
        super().__init__(env, bot, game, seed)
        self.weights = WEIGHTS.get(game, {})
        self.panels: dict[int, Any] = {}
        """Per seat: the private panel it has open (a SimCord handle; re-read before each use)."""
        self.routes: dict[str, Counter[Path]] = {}
        """Per kind of move: the paths whose panel offered it (as :func:`shape_of`), and how often."""
        self.looked: Counter[Path] = Counter()
        """Paths opened, and how often."""
        self.variety: dict[Path, set[str]] = {}
        """Per path opened: the kinds of legal move its panel has offered."""
        self.drained = 0
        self.figures.private = [0, 0]

    def drain_due(self) -> bool:
        if self.figures.clicks < self.drained + 200:
            return False
        self.drained = self.figures.clicks
        return True

    def candidates(self, legal: list[Action]) -> list[Action]:
        """Legal actions in the order the policy tries them: kinds by weight, then shuffled."""
        by_kind: dict[str, list[Action]] = {}
        for action in legal:
            by_kind.setdefault(action.kind, []).append(action)
        kinds = sorted(by_kind)
        out: list[Action] = []
        while kinds:
            kind = self.rng.choices(kinds, [self.weights.get(k, 1.0) for k in kinds])[0]
            kinds.remove(kind)
            actions = by_kind[kind]
            self.rng.shuffle(actions)
            out += actions[:3]
        return out

    async def step(self, live: Any) -> None:
        rules = live.entry.rules
        seat = self.rng.choice(sorted(live.waiting()))
        legal = [a for a in rules.legal_actions(live.state, seat) if a.kind not in PRIVATE_KINDS]
        player = self.players[seat]
        version, public = live.version, live.public_version  # ``live`` is the cache's: it changes
        tried: set[Path] = set()
        for action in self.candidates(legal):
            calls, clicks = len(self.env.backend.http_requests), self.figures.clicks
            made = await self.seek(player, seat, public, action, legal, tried)
            if made is None:
                continue
            after = await self.bot.sessions.load(self.game_id)
            cost = self.figures.by_kind.setdefault(made.kind, [0, 0, 0])
            cost[0] += 1
            cost[1] += self.figures.clicks - clicks
            cost[2] += len(self.env.backend.http_requests) - calls
            if after.version == version:
                self.miss(made.kind)  # pressed, and nothing was accepted
            elif after.public_version == public and self.figures.private is not None:
                self.figures.private[0] += 1
                self.figures.private[1] += len(self.env.backend.http_requests) - calls
            return
        raise RuntimeError(f"{self.game}: no legal action of seat {seat} could be reached by clicks")

    def miss(self, kind: str) -> None:
        self.figures.misses += 1
        self.figures.missed[kind] += 1

    def open_panel(self, seat: int) -> Any | None:
        """The seat's open private panel as stored now, or ``None`` (closed, or never opened)."""
        handle = self.panels.get(seat)
        stored = stored_of(self.env, handle) if handle is not None else None
        if stored is None or not custom_ids(stored):
            self.panels.pop(seat, None)
            return None
        return stored

    async def seek(
        self, player: Any, seat: int, version: int, action: Action, legal: list[Action], tried: set[Path]
    ) -> Action | None:
        """Make ``action`` (or, where a path shows others of its kind but not it, one of those) by
        clicks: on the table, on the seat's open panel, else behind ``u:`` buttons (:meth:`explore`);
        the action pressed, or ``None`` when none was."""
        board = self.board()
        found = control(board, self.game_id, version, action)
        if found is not None:
            return await self.press(player, seat, board, found, action)
        panel = self.open_panel(seat)
        found = control(panel, self.game_id, version, action) if panel is not None else None
        if found is not None:
            return await self.press(player, seat, panel, found, action)
        return await self.explore(player, seat, version, action, legal, tried)

    async def explore(
        self, player: Any, seat: int, version: int, action: Action, legal: list[Action], tried: set[Path]
    ) -> Action | None:
        """Follow the routes known for ``action``'s kind, then open the table's panels (then theirs,
        one level more: breadth first) until one offers ``action`` or its kind; every panel opened
        teaches :attr:`routes` what it offers.  ``tried``: the paths this move already opened."""
        on_table = openers(self.board(), self.game_id)
        known: Counter[Path] = Counter()
        for shape, count in self.routes.get(action.kind, Counter()).items():
            path = instance(shape, action)
            if path:
                known[path] += count
        first = [p for p, _ in known.most_common() if p not in tried][:ROUTES_TRIED]
        frontier = first + self.ranked([(c,) for c in on_table if (c,) not in first], known)
        here: tuple[Path, Any] | None = None
        spent = 0
        while frontier and spent < EXPLORE_CLICKS:
            path = frontier.pop(0)
            if path in tried:
                continue
            tried.add(path)
            clicks = self.figures.clicks
            start: tuple[int, Any] | None = None
            if here is not None and path[: len(here[0])] == here[0]:
                parent = self.fresh(here[1])
                start = (len(here[0]), parent) if parent is not None else None
            reached, where = await self.walk(player, seat, version, path, start)
            spent += self.figures.clicks - clicks
            if where is not None and len(reached) > (start[0] if start is not None else 0):
                here = (reached, where)
                made = await self.take(player, seat, version, where, reached, action, legal)
                if made is not None:
                    return made
            if self.figures.clicks != clicks:
                self.miss(action.kind)  # panels opened for nothing
            if where is not None and reached == path and len(path) < 2:
                children = [(*path, code) for code in openers(where, self.game_id) if code not in on_table]
                frontier += self.ranked([c for c in children if c[-1] not in path], known)
        return None

    def ranked(self, paths: list[Path], known: Counter[Path]) -> list[Path]:
        """Paths in the order worth opening: known to offer the kind sought (``known``); never
        opened, or never offering a legal move yet (a panel of plays the hand could not make then);
        offering moves of many kinds (a general panel, such as a hand) before those of few."""

        def rank(path: Path) -> tuple[int, int]:
            if known[path]:
                return (0, -known[path])
            kinds = len(self.variety.get(path, ()))
            return (1, self.looked[path]) if not kinds else (2, -kinds)

        return sorted(paths, key=rank)

    def fresh(self, message: Any) -> Any | None:
        """A stored message as it is now (it may have been edited or deleted since)."""
        return stored_of(self.env, clickable(self.env, message))

    async def walk(
        self, player: Any, seat: int, version: int, path: Path, start: tuple[int, Any] | None = None
    ) -> tuple[Path, Any | None]:
        """Press ``path`` from the table (or from ``start``: that many codes in, on that message):
        how far it got and the message it got to (``None`` if that is gone).  A code missing on the
        way stops the walk there, with nothing pressed for it."""
        depth, where = start if start is not None else (0, self.board())
        for code in path[depth:]:
            following = await self.open(player, seat, version, where, code)
            if following is None:
                return path[:depth], self.fresh(where)
            where, depth = following, depth + 1
        return path, where

    async def open(self, player: Any, seat: int, version: int, message: Any, code: str) -> Any | None:
        """Press the ``u:`` button ``code`` on ``message`` (a stored message): the private panel it
        opens (remembered as the seat's), or the table when the step is shown on the table;
        ``None`` when ``message`` has no such button or the click led nowhere."""
        opener = f"u:{self.game_id}:{version}:{code}"
        found = await self.find(player, message, lambda m: opener if opener in enabled(m) else None)
        if found is None:
            return None
        result = await self.click(player, found[0], opener)
        response = result.response
        if response is None:
            return None
        if not response.ephemeral:
            return self.board()
        self.panels[seat] = response
        stored = stored_of(self.env, response)
        return stored if stored is not None and custom_ids(stored) else None

    async def take(
        self,
        player: Any,
        seat: int,
        version: int,
        where: Any,
        path: Path,
        action: Action,
        legal: list[Action],
    ) -> Action | None:
        """At the end of ``path``: learn what ``where`` offers, then press ``action`` there, else
        one of its kind that is offered; ``None`` when neither is."""
        found = await self.find(player, where, lambda m: offered(m, self.game_id, version, legal) or None)
        shows = found[1] if found is not None else {}
        self.looked[path] += 1
        self.variety.setdefault(path, set()).update(a.kind for a in shows)
        for kind, shape in {(a.kind, shape_of(path, a)) for a in shows}:
            self.routes.setdefault(kind, Counter())[shape] += 1
        if found is None:
            return None
        pick = action if action in shows else None
        if pick is None:
            same = sorted((a for a in shows if a.kind == action.kind), key=lambda a: a.encode())
            pick = self.rng.choice(same) if same else None
        if pick is None:
            return None
        return await self.press(player, seat, found[0], shows[pick], pick)

    async def find(self, player: Any, message: Any, target: Callable[[Any], Any]) -> tuple[Any, Any] | None:
        """``message`` (stored) at the page where ``target(message)`` is something, and that thing:
        a list longer than one message is paged with the host's ◀ ▶ (forward, then back)."""
        turner = PageTurner(self.game_id)
        for _ in range(12):
            found = target(message)
            if found is not None:
                return message, found
            step = turner.step(message)
            if step is None:
                return None
            handle = clickable(self.env, message)
            await self.click(player, message, step)
            message = stored_of(self.env, handle)
            if message is None:
                return None
        return None

    async def press(
        self, player: Any, seat: int, message: Any, offer: Offer, action: Action
    ) -> Action | None:
        """Make ``action`` as ``offer`` says on ``message`` (stored); keeps the panel it leaves open."""
        if offer.how == "select":
            self.figures.clicks += 1
            result = await player.select(
                clickable(self.env, message), list(offer.values), custom_id=offer.custom_id
            )
        else:
            result = await self.click(player, message, offer.custom_id)
            if offer.how == "form":
                if result.modal is None:
                    self.miss(action.kind)
                    return None
                self.figures.clicks += 1
                result = await player.submit_modal(result, {"value": offer.values[0]})
        response = result.response
        if response is not None and response.ephemeral:
            self.panels[seat] = response
        return action


DRIVERS: dict[str, type[Driver]] = {"monopoly": MonopolyDriver, "lastwill": ExploringDriver}
"""Games whose panels need more than the generic script (per game: its own driver)."""


async def run_one(game: str, seed: int, auction: str = "open") -> Figures:
    workdir = scratch_dir(f"thread-volume-{game}-")
    try:
        bot = make_bot(workdir)
        with quick_settle():
            async with simcord.run(bot, strict_sync=False) as env:
                if game == "monopoly":
                    driver: Driver = MonopolyDriver(env, bot, game, seed, auction)
                else:
                    driver = DRIVERS.get(game, Driver)(env, bot, game, seed)
                figures = await driver.play()
                await driver.count_pings(await bot.sessions.load(driver.game_id))
        await close_bots()
        return figures
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def report(figures: Figures) -> dict[str, Any]:
    per_turn = {
        name: round(figures.pings[name] / max(figures.started_waiting.get(name, 0), 1), 2)
        for name in figures.pings
    }
    print(
        f"{figures.game}: {'finished' if figures.finished else 'NOT FINISHED'} in {figures.actions} actions, "
        f"{figures.clicks} clicks ({figures.seconds:.1f} s)"
    )
    print(
        f"  thread: {figures.messages} messages left, {figures.with_images} with an image; "
        f"at most {figures.max_images} image(s) at any time (goal <= {GOAL_IMAGES})"
    )
    for name, count in figures.pings.items():
        print(
            f"  pings to {name}: {count} (the game started waiting for them {figures.started_waiting.get(name, 0)}"
            f" times; {per_turn[name]:.2f} per turn)"
        )
    print(
        f"  Discord calls: {figures.calls} = {figures.calls_per_action:.2f} per action "
        f"(goal <= {GOAL_CALLS_PER_ACTION}), {figures.calls_per_click:.2f} per click"
    )
    if figures.by_kind:
        costly = sorted(figures.by_kind.items(), key=lambda item: (-item[1][2] / item[1][0], item[0]))
        print(
            "  calls per kind of move: "
            + ", ".join(f"{kind} {calls / times:.2f} ({times}x)" for kind, (times, _, calls) in costly)
        )
        private = "private draft moves" if figures.private is None else f"{figures.private[0]} private moves"
        missed = ", ".join(f"{kind} {count}" for kind, count in sorted(figures.missed.items()))
        print(
            f"  without the {private}: {figures.calls_per_public_action:.2f} calls per public action; "
            f"script misses (clicks that ended in no move): {figures.misses}"
            + (f" ({missed})" if missed else "")
        )
    if figures.auction is not None:
        counts = figures.auction
        print(
            f"  auctions: {counts['auctions']} opened, {counts['moves']} moves; {counts['in_thread']} of the "
            f"thread's {figures.messages} messages ({figures.auction_share:.1%}, goal <= {GOAL_AUCTION_SHARE:.0%}); "
            f"posted {counts['posts']} of the bot's {figures.posts} posts "
            f"with {counts['pings']} pings; {counts['calls'] / max(counts['moves'], 1):.2f} calls per auction move"
            + ("" if figures.auction_share <= GOAL_AUCTION_SHARE else " (auction goal MISSED, not gating)")
        )
    print(f"  goals: {'ok' if figures.ok else 'MISSED'}")
    extra: dict[str, Any] = {}
    if figures.by_kind:
        extra = {
            "calls_by_kind": {
                kind: {"times": times, "clicks": clicks, "calls": calls}
                for kind, (times, clicks, calls) in sorted(figures.by_kind.items())
            },
            "calls_per_public_action": round(figures.calls_per_public_action, 3),
            "misses": figures.misses,
            **({"misses_by_kind": dict(sorted(figures.missed.items()))} if figures.missed else {}),
            **({"private_moves": figures.private[0]} if figures.private is not None else {}),
        }
    return {
        "game": figures.game,
        "finished": figures.finished,
        "actions": figures.actions,
        "clicks": figures.clicks,
        "messages": figures.messages,
        "messages_with_images": figures.with_images,
        "max_images_at_once": figures.max_images,
        "pings": figures.pings,
        "started_waiting": figures.started_waiting,
        "pings_per_turn": per_turn,
        "calls": figures.calls,
        "calls_per_action": round(figures.calls_per_action, 3),
        "calls_per_click": round(figures.calls_per_click, 3),
        "messages_posted": figures.posts,
        **(
            {
                "auction": {**figures.auction, "share": round(figures.auction_share, 3)},
                "auction_ok": figures.auction_share <= GOAL_AUCTION_SHARE,
            }
            if figures.auction
            else {}
        ),
        **extra,
        "ok": figures.ok,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="seed of the games and of the script's choices")
    parser.add_argument(
        "--games", default="california,estates,monopoly,lastwill", help="comma-separated game names"
    )
    parser.add_argument(
        "--auction",
        choices=("open", "round"),
        default="open",
        help="Monopoly's auction option (default open)",
    )
    args = parser.parse_args(argv)
    results = []
    for game in [g.strip() for g in args.games.split(",") if g.strip()]:
        results.append(report(asyncio.run(run_one(game, args.seed, args.auction))))
    ok = bool(results) and all(r["ok"] for r in results)
    print(json.dumps({"benchmark": "thread_volume", "seed": args.seed, "games": results, "ok": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
