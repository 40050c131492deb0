"""One whole 3-player game of Last Will with Getting the Sack, every move a click, through SimCord.

From ``/game new lastwill`` (the expansion on: employment, plan tiles, three errand boys, the new
cards) to the final standings.  A scripted policy reads the saved state to decide, the way a
player reads the board, and then presses only what the table or the seat's private panels show:
a label it sees, or a value of a select it sees.  Nothing is arranged; the lobby's seed is pinned,
so the game repeats.

The policy plays to win: it discards its least useful cards, takes the plan with the most actions
(then cards), splits its draws between events and properties, sends boys to the demotion spaces
first (to get sacked), then to the offering, and spends in its Actions turn: nuptial sets,
events with every companion it holds, the most expensive Ball level, properties (to cover
property lines, early) and helpers; it covers the best line every time a demotion is offered,
maintains and uses what it can afford, and declares bankruptcy as soon as it may.

Along the way every table message is checked (no "{", within 2,000 characters, no card of a hand
in any custom_id), and at the end the thread is printed as the players read it (``pytest -s``).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import GameBot
from bot.core.i18n import Catalog
from cogs.lastwill.table import PUBLIC_STEPS
from harness.messages import Table, labels, words_of
from rules.lastwill import RULES, LastWillRules, LastWillState, data
from tests.cogs.lastwill_kit import options, state_of
from tests.simcord import ids, make_bot, open_table, panel, pinned_seed, playable, private_text, select_id

HAND = "My hand…"
SEED = 11
"""The lobby's table seed: a game whose hands bring a nuptial set and a companion token too."""
LIMIT = 2500
"""Clicks a whole game may take; a stuck policy fails instead of looping."""
PLAY = re.compile(r"^Play (?!a nuptial)(?!.*choose a level).*: (\d+) actions?, £(\d+)")
BALL_AT = re.compile(r", level \d+: ")
"""A Ball's level on the "Play a card…" panel, one click each."""
KINDS = ("Play a card…", "Buy a property…", "Lay a helper…", "Put a companion on a card…")
"""The table's buttons for plays from the hand, tried in this order in an Actions turn."""
HOST = ("Catch me up", "Undo my last move")
"""The host's own buttons on the table, beside the game's."""
CATALOG = Catalog.load()


fixed_seed = pinned_seed(SEED)
"""Pin the table seed, so every shuffle, and so the whole game, repeats."""


@dataclass
class Game:
    """The bot, the table and what the policy counted."""

    bot: GameBot
    table: Table
    clicks: int = 0
    seen: dict[str, int] = field(default_factory=dict)

    def member(self, seat: int) -> Any:
        return self.table.players[seat]

    def count(self, what: str) -> None:
        self.seen[what] = self.seen.get(what, 0) + 1

    async def version(self) -> int:
        return (await self.bot.sessions.load(1)).version

    async def click(self, member: Any, message: discord.Message, label: str, *, acts: bool = True) -> Any:
        """Press a button the player sees.  ``acts``: a move, which the game must accept (its log
        grows); otherwise a panel opens, privately."""
        assert label in labels(message), (label, labels(message))
        before = await self.version()
        self.clicks += 1
        result = await member.click(message, label=label)
        assert result.acknowledged, label
        if acts:
            assert await self.version() == before + 1, (label, private_text(result))
        else:
            assert result.response is not None and result.response.ephemeral, label
        return result

    async def select(self, member: Any, message: discord.Message, values: list[str]) -> Any:
        """Pick values of a select the player sees: always a move the game must accept."""
        shown = options(message)
        assert all(v in shown for v in values), (values, shown)
        before = await self.version()
        self.clicks += 1
        result = await member.select(message, values, custom_id=select_id(message, values[0]))
        assert result.acknowledged and await self.version() == before + 1, (values, private_text(result))
        return result


def check_table(table: Table, state: LastWillState) -> None:
    """The live table: readable, within Discord's limits, and no hand card in any custom_id."""
    board = table.table_message()
    assert "{" not in words_of(board) and len(words_of(board)) <= 2000, words_of(board)
    hands = {card for player in state.players for card in player.hand}
    words = {w for custom_id in ids(board) for w in re.split(r"[:.]", custom_id)}
    assert not hands & words, hands & words


# --- the policy --------------------------------------------------------------------------------


def keep_value(card: str) -> int:
    """How much a player wants to keep a card: events and properties spend money; companions
    help events; helpers last."""
    record = data.CARDS[card]
    if isinstance(record, data.EventCard):
        return 30 + record.money
    if isinstance(record, data.PropertyCard):
        return 20 + record.track[0]
    if isinstance(record, data.CompanionCard):
        return 10
    return 5


async def discard(game: Game, state: LastWillState, seat: int) -> None:
    member = game.member(seat)
    shown = panel(await game.click(member, game.table.table_message(), "Choose my discards…", acts=False))
    hand = state.players[seat].hand
    worst = sorted(dict.fromkeys(hand), key=keep_value)[: state.need[seat]]
    result = await game.select(member, shown, [f"discard.{c}" for c in worst])
    assert "You discard" in private_text(result) or "You discard" in words_of(panel(result))
    game.count("discard")


async def plan(game: Game, state: LastWillState, seat: int) -> None:
    board = game.table.table_message()
    taken = {p.plan for p in state.players}
    best = max((p for p in state.plans if p.pos not in taken), key=lambda p: (p.actions, p.cards, -p.pos))
    label = next(label for label in labels(board) if label.startswith(f"Plan {best.pos}: "))
    await game.click(game.member(seat), board, label)
    game.count("plan")


async def draw(game: Game, state: LastWillState, seat: int) -> None:
    member = game.member(seat)
    split = panel(await game.click(member, game.table.table_message(), "Choose my draw…", acts=False))
    turn = 0
    while not any(label.startswith("Confirm: draw") for label in labels(split)):
        plus = [label for label in labels(split) if label.startswith("+1 ")]
        wanted = ("+1 Event", "+1 Property", "+1 Companion", "+1 Event")[turn % 4]
        label = next((p for p in plus if p.startswith(wanted)), plus[0])
        split = panel(await game.click(member, split, label))
        turn += 1
    confirm = next(label for label in labels(split) if label.startswith("Confirm: draw"))
    assert private_text(await game.click(member, split, confirm)).startswith("You draw ")
    game.count("draw")


async def errand(game: Game, state: LastWillState, seat: int) -> None:
    member = game.member(seat)
    board = game.table.table_message()
    shown = labels(board)
    player = state.players[seat]
    if player.job and not player.demoted:
        for space in ("Demotion", "Demotion or extension"):
            if space in shown:
                await game.click(member, board, space)
                game.count("errand:" + space)
                return
    slots = {v: label for v, label in options(board).items() if v.startswith("boy.slot")}
    if slots:
        best = max(slots, key=lambda v: keep_value(_slot_card(state, v)))
        await game.select(member, board, [best])
        game.count("errand:slot")
        return
    for label in ("Opera (£2)", "Draw 1: Event", "Draw 1: Property"):
        if label in shown:
            await game.click(member, board, label)
            game.count("errand:" + label)
            return
    await game.click(member, board, "Keep the boy home")


def _slot_card(state: LastWillState, value: str) -> str:
    label = value.removeprefix("boy.slot").upper()
    return next(slot.card for slot in state.offering if slot.label == label)


async def answer(game: Game, state: LastWillState, seat: int) -> None:
    """Answer the open choice: on the table when it names no hidden card (a line to cover, a
    target on one's board...), else from the table's button on the private panel it opens."""
    assert state.pending is not None
    member = game.member(seat)
    board = game.table.table_message()
    kind = state.pending.step
    if kind in PUBLIC_STEPS:
        game.count("table answer")
        await answer_on(game, member, board, kind)
        return
    found: discord.Message | None = panel(
        await game.click(member, board, CATALOG.text(f"lastwill.button.answer.{kind}"), acts=False)
    )
    for _ in range(12):  # the panel goes on to the next step (the demotion after "A demotion")
        state = await state_of(game.bot)
        if found is None or state.pending is None:
            return
        found = await answer_on(game, member, found, state.pending.step)


async def answer_on(game: Game, member: Any, step: discord.Message, kind: str) -> discord.Message | None:
    """Answer the open choice shown on ``step``; the panel that follows, if any."""
    shown = [label for label in labels(step) if label not in ("Back", HAND, *HOST)]
    if kind == "bpx":
        pick = "Discard none"
    elif kind in ("sale",):
        pick = next((label for label in shown if label.startswith("Sell ")), "No sale")
    elif kind == "extra":
        pick = shown[-1]
    else:
        pick = shown[0]
    game.count(f"answer:{kind}")
    result = await game.click(member, step, pick)
    return result.response.message if result.response is not None and result.response.ephemeral else None


async def act(game: Game, state: LastWillState, seat: int) -> None:
    """One play from "My hand" (following its steps), or one move on the table: maintain, use,
    declare bankruptcy, end the turn."""
    member = game.member(seat)
    board = game.table.table_message()
    if "Declare bankruptcy…" in labels(board):
        confirm = panel(await game.click(member, board, "Declare bankruptcy…", acts=False))
        await game.click(member, confirm, "Yes, declare bankruptcy")
        game.count("bankrupt")
        return
    for kind in KINDS:
        if kind == "Buy a property…" and state.round > 4:
            continue
        if kind in labels(board):
            mine = panel(await game.click(member, board, kind, acts=False))
            if await play_from(game, state, seat, member, mine):
                return
            board = game.table.table_message()
    moves = {v: label for v, label in options(board).items() if v.startswith(("keep.", "use."))}
    if moves:
        await game.select(member, board, [next(iter(moves))])
        game.count("board")
        return
    await game.click(member, board, "End turn")
    game.count("end turn")


async def play_from(game: Game, state: LastWillState, seat: int, member: Any, mine: discord.Message) -> bool:
    """Play the best thing the hand panel offers, through its steps; ``False`` when it offers none."""
    shown = labels(mine)
    legal = RULES.legal_actions(state, seat)
    sets = [a for a in legal if a.kind == "nupt"]
    if sets and ("Play a nuptial set…" in shown or any(v.startswith("nupt.") for v in options(mine))):
        step = mine
        if "Play a nuptial set…" in shown:
            step = panel(await game.click(member, mine, "Play a nuptial set…", acts=False))
        best = max(sets, key=lambda a: len(a.args)).encode()
        await follow(game, member, await game.select(member, step, [best]))
        game.count("nuptial set")
        return True

    def value(label: str) -> int:
        played = PLAY.match(label)
        assert played is not None
        return int(played[2])

    plays = sorted((label for label in shown if PLAY.match(label)), key=lambda label: -value(label))
    levels = [label for label in shown if BALL_AT.search(label)]
    if levels:
        await follow(game, member, await game.click(member, mine, levels[-1]))
        game.count("ball")
        return True
    balls = [label for label in shown if label.endswith("choose a level…")]
    if balls:
        step = panel(await game.click(member, mine, balls[0], acts=False))
        levels = [label for label in labels(step) if label.startswith("Level ")]
        await follow(game, member, await game.click(member, step, levels[-1]))
        game.count("ball")
        return True
    early = state.round <= 4
    buys = [label for label in shown if label.startswith("Buy ")] if early else []
    lays = [label for label in shown if label.startswith("Lay ")]
    tokens = [label for label in shown if label.startswith("Put ")]
    placed = [label for label in shown if "(makes it " in label]
    for group, what in ((plays, "event"), (buys, "buy"), (lays, "lay"), (placed, "token")):
        if group:
            await follow(game, member, await game.click(member, mine, group[0]))
            game.count(what)
            return True
    if tokens:
        step = panel(await game.click(member, mine, tokens[0], acts=False))
        await follow(game, member, await game.click(member, step, labels(step)[0]))
        game.count("token")
        return True
    await game.click(member, mine, "Done", acts=False)
    return False


async def follow(game: Game, member: Any, result: Any) -> None:
    """After a play on a panel: answer each choice it opened, on the panel that shows it."""
    step = result.response.message if result.response is not None and result.response.ephemeral else None
    for _ in range(12):
        state = await state_of(game.bot)
        if step is None or state.pending is None:
            return
        step = await answer_on(game, member, step, state.pending.step)


# --- the game --------------------------------------------------------------------------------


async def test_a_whole_game_by_clicks(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(RULES)
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        game = Game(bot, table)
        state = await state_of(bot)
        assert state.expansion and state.employment == "full" and state.plans_mode == "tiles"
        while playable(table.table_message()):
            assert game.clicks < LIMIT, "the game did not end"
            state = await state_of(bot)
            check_table(table, state)
            waiting = sorted(RULES.waiting_for(state))
            if state.pending is not None:
                await answer(game, state, state.pending.seat)
            elif state.phase == "discard":
                await discard(game, state, waiting[0])
            elif state.phase == "planning":
                await plan(game, state, waiting[0])
            elif state.phase == "drawing":
                await draw(game, state, waiting[0])
            elif state.phase == "errands":
                await errand(game, state, waiting[0])
            elif state.phase == "actions":
                await act(game, state, waiting[0])
            else:
                raise AssertionError(state.phase)

        state = await state_of(bot)
        assert state.phase == "over" and (await bot.sessions.load(1)).status == "finished"
        outcome = RULES.outcome(state)
        assert outcome is not None
        thread = table.messages()
        text = "\n".join(words_of(m) for m in thread)
        for message in thread:
            assert "{" not in words_of(message) and len(words_of(message)) <= 2000
        assert "**Game over** after round" in text
        assert text.count("**Round ") >= min(state.round, 7) - 1
        for kind in (
            "discard",
            "plan",
            "draw",
            "errand:Demotion",
            "errand:slot",
            "event",
            "buy",
            "answer:line",
            "table answer",
        ):
            assert game.seen.get(kind), (kind, game.seen)
        assert " is demoted (" in text and " buys " in text and " plays " in text
        if any(p.sacked for p in state.players):
            assert "is sacked** from the " in text

        final = thread[-1]
        assert "**Last Will** · table #1 is over. Final standings:" in words_of(final)
        assert set(labels(final)) == {"Catch me up", "Rematch"} and not playable(final)
        standings = [line for line in words_of(final).splitlines() if re.match(r"^\*\*\d\.\*\* ", line)]
        order = sorted(range(3), key=lambda s: (outcome.ranks[s], s))
        assert len(standings) == 3
        for line, seat in zip(standings, order, strict=True):
            money = state.players[seat].money
            amount = f"£{money}" if money >= 0 else f"−£{-money}"
            assert line.startswith(f"**{outcome.ranks[seat]}.** {game.member(seat).name}: {amount}"), line
            if state.players[seat].job:
                assert "still employed: cannot win" in line

        caught = private_text(await game.member(0).click(final, label="Catch me up"))
        assert "**Your hand:**" in caught

        print(f"\n===== the thread of a whole game: {game.clicks} clicks, {len(thread)} messages =====")
        for message in thread:
            print(words_of(message))
            print("-----")
        print(game.seen)
