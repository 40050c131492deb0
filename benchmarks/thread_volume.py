"""How loud a table is: one full 3-player game of each game, played by clicks through SimCord.

The real bot (command tree, ``DynamicItem`` routing, panels, forms, attachments) plays a whole
game of California and of The Estates in simulated Discord.  A seeded script picks, for the seat
the game waits for, a random legal action, and reaches it the way a player would: a button on the
table, or the game's private panel (California's store panel, The Estates' bid panel or form).
It never uses private actions (a stow), which leave the thread untouched anyway.

Printed per game:

- messages left in the thread at the end, and how many still carry an image;
- the most images the thread showed at any moment (checked after every click);
- pings per player (new messages that mention and notify them) against the number of times the
  game started waiting for that player, and pings per player-turn;
- Discord API calls (every REST request the bot made, interaction answers included) per accepted
  action and per click.

Goals (issue 8): at most one image in the thread at any time; pings per player at most the times
the game started waiting for them, plus one for the final standings, which ping everyone; at most
2.5 Discord calls per accepted action on average.

Usage::

    PYTHONPATH=. python benchmarks/thread_volume.py [--seed 7] [--games california,estates]

The last line is one JSON object with every figure; its ``ok`` is true only when every goal is met.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import shutil
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import simcord

from benchmarks.torture_discord_common import (
    clickable,
    close_bots,
    custom_ids,
    drain,
    make_bot,
    public_messages,
    quick_settle,
    scratch_dir,
)
from rules.core import Action

PLAYERS = 3
GOAL_IMAGES = 1
GOAL_CALLS_PER_ACTION = 2.5
MAX_CLICKS = 5000
PRIVATE_KINDS = {"stow"}
"""Private actions the script leaves out: they change nothing in the thread."""


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

    @property
    def calls_per_action(self) -> float:
        return self.calls / max(self.actions, 1)

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
        opened = await self.players[0].slash(channel, "game new", name=self.game)
        lobby = opened.response.message
        for player in self.players[1:]:
            await player.click(lobby, label="Join")
        game_id = max(row.id for row in await self.bot.store.games())
        self.game_id = game_id
        start_calls = len(self.env.backend.http_requests)
        await self.players[0].click(lobby, label="Start")
        self.thread_id = channel.threads[-1].id
        started = time.perf_counter()
        while self.figures.clicks < MAX_CLICKS:
            live = await self.bot.sessions.load(game_id)
            if live.status != "active":
                break
            await self.step(live)
            self.look()
            if self.figures.clicks % 200 == 0:
                await drain(self.env)
        live = await self.bot.sessions.load(game_id)
        self.figures.finished = live.status == "finished"
        self.figures.seconds = time.perf_counter() - started
        self.figures.calls = len(self.env.backend.http_requests) - start_calls
        self.figures.actions = len(await self.bot.store.actions(game_id))
        messages = public_messages(self.env, self.thread_id)
        self.figures.messages = len(messages)
        self.figures.with_images = sum(1 for m in messages if m.attachments)
        return self.figures

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
        lasting = next(
            (
                i
                for i in custom_ids(board)
                if i.startswith(f"a:{self.game_id}:") and i.endswith(f":{action.encode()}")
            ),
            None,
        )
        if target in custom_ids(board) or lasting is not None:
            await self.click(player, board, target if lasting is None else lasting)
            return True
        where = board
        for opener in self.panel_path(prefix, action):
            if opener not in custom_ids(where):
                return await self.by_form(player, board, prefix, action)
            result = await self.click(player, where, opener)
            panel = result.response
            where = panel if panel is not None and panel.ephemeral else self.board()
        if target in custom_ids(where):
            await self.click(player, where, target)
            return True
        return await self.by_form(player, board, prefix, action)

    def panel_path(self, prefix: str, action: Action) -> list[str]:
        """Where a player finds an action that is not on the table (per game: the scripted part)."""
        if self.game == "california" and len(action.args) == 3:
            store, slot = action.args[0], action.args[1]
            return [f"u:{prefix}t.{store}.{slot}"]
        if self.game == "estates" and action.kind == "bid":
            return [f"u:{prefix}bid"]
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
            content = str(body.get("content") or "")
            for user_id, name in names.items():
                if user_id in users and f"<@{user_id}>" in content:
                    pings[name] += 1
        self.figures.pings = {name: pings.get(name, 0) for name in names.values()}
        rules = live.entry.rules
        state = rules.setup(PLAYERS, live.row.options, live.row.seed)
        starts: Counter[int] = Counter(rules.waiting_for(state))
        for _, seat, action in await self.bot.store.actions(self.game_id):
            before = rules.waiting_for(state)
            rules.apply(state, seat, action)
            after = frozenset() if rules.outcome(state) is not None else rules.waiting_for(state)
            starts.update(after - before)
        self.figures.started_waiting = {self.players[s].name: starts.get(s, 0) for s in range(PLAYERS)}


async def run_one(game: str, seed: int) -> Figures:
    workdir = scratch_dir(f"thread-volume-{game}-")
    try:
        bot = make_bot(workdir)
        with quick_settle():
            async with simcord.run(bot, strict_sync=False) as env:
                driver = Driver(env, bot, game, seed)
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
    print(f"  goals: {'ok' if figures.ok else 'MISSED'}")
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
        "ok": figures.ok,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seed", type=int, default=7, help="seed of the games and of the script's choices")
    parser.add_argument("--games", default="california,estates", help="comma-separated game names")
    args = parser.parse_args(argv)
    results = []
    for game in [g.strip() for g in args.games.split(",") if g.strip()]:
        results.append(report(asyncio.run(run_one(game, args.seed))))
    ok = bool(results) and all(r["ok"] for r in results)
    print(json.dumps({"benchmark": "thread_volume", "seed": args.seed, "games": results, "ok": ok}))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
