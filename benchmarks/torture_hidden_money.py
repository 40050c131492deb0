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

import asyncio
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, TextIO

from simcord.results import ResponseMessage

from benchmarks.torture_discord_common import (
    EPHEMERAL_VIEW_SECONDS,
    custom_ids,
    stored_of,
)
from benchmarks.torture_pairs import (
    MemoRenderer,
    PairFigures,
    PairHarness,
    PairPlan,
    PairSide,
    arguments,
    conclude,
    play_pairs,
    report,
    run_options,
)
from bot.core.registry import GameEntry, Registry
from bot.games import REGISTRY
from bot.storage import GameStatus
from rules.core import Action

GOAL_PAIRS = 500
MAX_PREFIX = 20
"""Most public moves of a pair that stops early (a full game takes about 60 to 170)."""
CHUNK = 100
"""Pairs per bot: the bot's minutely sweep reads every table that ever ended, so a bot that has
closed thousands of tables sweeps more slowly, and SimCord's virtual minutes get dearer (see the report)."""
OPEN_VIEWS = 8
"""Private panels and forms left open before virtual time is moved past their timeouts (see ``drain``):
SimCord's settling scans every pending timer against every pending task, so they must not pile up."""
STOW = Action("stow")


@dataclass
class Side(PairSide):
    stowed: int = 0

    def reset(self) -> None:
        super().reset()
        self.stowed = 0


@dataclass
class Figures(PairFigures):
    full_games: int = 0
    stows: int = 0
    refused_stows: int = 0


def estates_registry() -> tuple[Registry, MemoRenderer]:
    entry = REGISTRY.get("estates")
    if entry is None:
        raise RuntimeError("The Estates is not registered")
    memo = MemoRenderer(entry.renderer)
    registry = Registry()
    registry.register(GameEntry(entry.rules, memo, entry.presenter))
    return registry, memo


class HiddenMoney(PairHarness[Side, Figures]):
    game = "estates"
    scratch_prefix = "torture-money-"
    progress_every = 25
    side_type = Side
    max_prefix = MAX_PREFIX

    # -- moves ---------------------------------------------------------------------------------------

    async def ask_stow(self, side: Side, seat: int) -> ResponseMessage | None:
        """My checks -> "Stow…": the private confirmation, or None when the panel offers no stow."""
        facts, _ = self.state(side)
        prefix = f"{side.game_id}:{facts.public_version}"
        opened = await self.press(side, seat, self.board(side), f"u:{prefix}:checks")
        self.open_views += 1
        panel = opened.response if opened is not None else None
        if panel is None or f"u:{prefix}:stow" not in custom_ids(stored_of(self.env, panel)):
            return None
        asked = await self.press(side, seat, panel, f"u:{prefix}:stow")
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
            await self.press(side, seat, confirmation, f"g:{side.game_id}:{facts.public_version}:stow")
            after, _ = self.state(side)
            if after.version == before.version + 1:
                self.figures.stows += 1
                side.stowed += 1
            else:
                self.figures.refused_stows += 1

    async def public_move(self, a: Side, b: Side, seat: int, action: Action) -> None:
        """The same public move in both games, through the same UI path."""
        if action.kind == "buy":
            # The auctioneer decides in a private panel ("Buy for $X…"): whether they can pay is
            # their secret, so the table offers the same two buttons whatever their money.
            for side in (a, b):
                facts, _ = self.state(side)
                version = facts.public_version
                opened = await self.press(side, seat, self.board(side), f"u:{side.game_id}:{version}:decide")
                self.open_views += 1
                if opened is None or opened.response is None:
                    raise RuntimeError(f"{side.label}: the buy panel did not open")
                await self.press(side, seat, opened.response.message, f"g:{side.game_id}:{version}:buy")
            self.figures.public_moves += 1
            return
        if action.kind != "bid":
            for side in (a, b):
                facts, _ = self.state(side)
                await self.press(
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
                shown = await self.press(
                    side, seat, self.board(side), f"m:{side.game_id}:{facts.public_version}:bid"
                )
                self.open_views += 1
                if shown is None or shown.modal is None:
                    raise RuntimeError(f"{side.label}: the bid form did not open")
                player = side.players[seat]
                await self.act(side, "bid form", player.submit_modal(shown, {"value": str(action.args[0])}))
            else:
                await self.press(side, seat, self.board(side), target[side.label])
        self.figures.public_moves += 1

    def choose(self, legal: list[Action]) -> Action:
        bids = [x for x in legal if x.kind == "bid"]
        if bids and self.rng.random() < 0.45:
            return self.rng.choice(bids[:5])
        if any(x.kind == "buy" for x in legal) and self.rng.random() < 0.4:
            return Action("buy")
        rest = [x for x in legal if x.kind not in ("bid", "buy")]
        return self.rng.choice(rest or legal)

    def progress_figures(self) -> str:
        return f"{self.figures.stows} stows"

    # -- one pair ------------------------------------------------------------------------------------

    async def pair(self, a: Side, b: Side) -> None:
        rng = self.rng
        players = rng.randint(2, 5)
        seed = rng.getrandbits(62)
        limit = self.limit()
        self.pair_kinds = set()
        await self.open(a, players, seed)
        await self.open(b, players, seed)
        self.compare(a, b, "after the start")
        moves = 0
        finished = False
        while limit is None or moves < limit:
            facts_a, state_a = self.state(a)
            facts_b, state_b = self.state(b)
            if facts_a.status != GameStatus.ACTIVE or facts_b.status != GameStatus.ACTIVE:
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
            done_a = (self.db.game(a.game_id) or facts_a).status != GameStatus.ACTIVE
            if done_a:
                # The move that ended the game: its logs and final message may carry the standings.
                del a.logs[log_cursor_a:]
                del b.logs[log_cursor_b:]
            if self.open_views >= OPEN_VIEWS:
                await self.advance(EPHEMERAL_VIEW_SECONDS + 1, (a, b))
                self.open_views = 0
            await self.public_extra(a, seat, moves)
            self.compare(a, b, f"after move {moves} ({action.encode()})", finished=done_a)
            if rng.random() < 0.05:
                await self.game_list(a, b, f"after move {moves}")
        if limit is None:
            self.figures.full_games += 1
        finished = finished or (self.db.game(a.game_id) or self.state(a)[0]).status != GameStatus.ACTIVE
        self.compare(a, b, "whole thread at the end", newest=None, finished=finished)
        await self.close_pair(a, b)

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
    plan = PairPlan(pairs, seed, full_share, first_full, progress, quick, control, chunk)
    figures = Figures()
    seconds = await play_pairs(HiddenMoney, figures, plan, registry, memo)
    f = figures
    middle = {
        "full_games": f.full_games,
        "public_moves": f.public_moves,
        "stows": f.stows,
        "refused_stows": f.refused_stows,
    }
    return report("torture_hidden_money", plan, seconds, f, memo, middle)


def main(argv: Sequence[str] | None = None) -> int:
    parser = arguments(__doc__, GOAL_PAIRS, 0.05, "share of pairs played to the end")
    args = parser.parse_args(argv)
    figures = asyncio.run(run(args.pairs, args.seed, **run_options(args)))
    ok = figures["differences"] == 0 and figures["pairs"] >= args.pairs
    return conclude(
        figures,
        ok,
        f"torture_hidden_money: {figures['pairs']} pairs ({figures['full_games']} to the end, "
        f"{figures['public_moves']} public moves, {figures['stows']} stows, {figures['refused_stows']} refused "
        f"stows, {figures['list_checks']} /game list checks) in {figures['seconds']} s; "
        f"differences {figures['differences']} in {figures['pairs_differing']} pairs (goal 0)",
        6,
        400,
    )


if __name__ == "__main__":
    sys.exit(main())
