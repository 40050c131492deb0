"""The Estates through the real discord.py path (SimCord): auctions by buttons, hidden money.

One scripted three-player game played only by clicks (permit, Cancel cube,
an auctioneer buying, a refused bid, a stow confirmed from "My checks" with
its private picture, a restart in the middle of an auction, then random play
to the end, where the winner is named once), and a leak test: a random game
with stows is compared, snapshot by snapshot, with the same public moves
played without any stow; nothing public may differ, no public text may name
a balance, and every image must be drawn from the spectator view.
"""

from __future__ import annotations

import copy
import dataclasses
import random
import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.results import to_discord_message

from bot.client import GameBot
from bot.core.i18n import Catalog
from bot.games import REGISTRY
from bot.ui.presenter import Button
from cogs.estates import EstatesPresenter, cube_code
from harness.messages import Table, labels, response_of, words_of
from renderers.estates import cube_label
from renderers.kit import Words
from rules.core import Action, IllegalAction
from rules.estates import RULES, data
from rules.estates.builder import EstatesBuilder
from tests.helpers import TINY_PNG, bare_game, fr
from tests.simcord import button, buttons, ids, make_bot, open_table, pinned_seed, playable

ORIGINAL = REGISTRY.get("estates")
STOW = "Stow $1 in the cash box…"  # on the private "My checks" panel only
CONFIRM = "Yes, stow $1 million"
CHECKS = "My checks"
CATCH = "Catch me up"  # the host's own button, on every table
UNDO = "Undo my last move"  # the host's too, once a move was made
CUBE = r"[1-6] (Bl|Re|Ye|Gn|Pu|Gy)"
SECRET_KEYS = {"money", "cash_box", "checks", "stowed_this_turn", "you", "round_scores"}


fixed_seed = pinned_seed()


@dataclasses.dataclass
class Spy:
    """Wraps the registered renderer: records every view an image was drawn from."""

    views: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    real: bool = True

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        entry = ORIGINAL
        assert entry is not None, "The Estates is registered"
        render = entry.renderer

        def spy(view: dict[str, Any], names: Sequence[str], words: Words) -> bytes:
            self.views.append(copy.deepcopy(view))
            return render(view, names, words) if self.real else TINY_PNG

        monkeypatch.setitem(REGISTRY._games, "estates", dataclasses.replace(entry, renderer=spy))


def game_labels(message: discord.Message) -> list[str]:
    """The table's buttons that are The Estates' own (without the host's Catch me up and Undo)."""
    return [label for label in labels(message) if label not in (CATCH, UNDO)]


def followup_text(result: Any) -> str:
    return "\n".join(words_of(f) for f in result.followups)


def only_private(result: Any) -> str:
    """The text of an answer that must be ephemeral (a direct reply, an update of a private
    panel, or ephemeral followups)."""
    if result.response is not None and (result.ephemeral or getattr(result.response, "ephemeral", False)):
        return str(words_of(result.response))
    assert result.followups and all(f.ephemeral for f in result.followups), result
    return followup_text(result)


def public_messages(table: Table) -> list[Any]:
    """SimCord's stored public messages of the thread, oldest first (not converted)."""
    stored = table.env.backend.messages.get(table.thread.id, {})
    return [m for _, m in sorted(stored.items()) if m.visible_to(None)]


def newest(table: Table, count: int) -> list[discord.Message]:
    """The newest public messages of the thread.

    Reads SimCord's message store directly: ``history()`` converts every message of the thread on
    each call, which makes a whole game quadratic (most of this file's runtime otherwise).
    """
    return [to_discord_message(table.env, m) for m in public_messages(table)[-count:]]


def board_of(table: Table) -> discord.Message | None:
    """The live table message (the newest with buttons), or None once the game is over."""
    return next((m for m in reversed(newest(table, 3)) if playable(m)), None)


def mover(table: Table, board: discord.Message) -> Any:
    return next(p for p in table.players if f"<@{p.id}>" in words_of(board))


Snapshot = list[tuple[str, list[str], list[str], int]]


def snapshot(table: Table, count: int | None = None) -> Snapshot:
    """What the thread shows everyone: content, labels, custom_ids and images of (the newest) messages."""
    out: Snapshot = []
    if count is None:
        messages = table.messages()
    else:
        messages = newest(table, count)
        out.append((f"{len(public_messages(table))} messages", [], [], 0))
    for message in messages:
        assert not message.flags.ephemeral
        content = words_of(message)
        for i, player in enumerate(table.players):
            content = content.replace(f"<@{player.id}>", f"<@seat{i}>")
        out.append((content, labels(message), ids(message), len(message.attachments)))
    return out


async def live(bot: GameBot, table: Table) -> Any:
    """The game as the bot holds it (the test reads the hidden state to check what players are told)."""
    return await bot.sessions.load(1)


def seat_of(table: Table, player: Any) -> int:
    return next(i for i, p in enumerate(table.players) if p.id == player.id)


async def checks(table: Table, player: Any) -> tuple[int, int]:
    """Money in hand and cash box as "My checks" tells them (privately, with a picture)."""
    before = snapshot(table)
    result = await player.click(table.table_message(), label=CHECKS)
    text = only_private(result)
    match = re.search(r"You have \$(\d+) million in hand and \$(\d+) million in your cash box", text)
    assert match, text
    assert result.response.message.attachments, "My checks shows the holdings picture"
    assert snapshot(table) == before, "looking at one's checks changes nothing public"
    return int(match[1]), int(match[2])


async def open_stow(table: Table, player: Any) -> Any:
    """My checks -> "Stow…": the confirmation panel (a private message to click on)."""
    opened = await player.click(table.table_message(), label=CHECKS)
    assert opened.ephemeral and STOW in labels(opened.response.message), labels(opened.response.message)
    asked = await player.click(opened.response.message, label=STOW)
    assert asked.response.ephemeral and "cannot be undone" in words_of(asked.response), (
        "the panel turns into the question"
    )
    assert labels(asked.response.message) == [CONFIRM, "Back"]
    return asked.response.message


async def bid(table: Table, amount: int, *, form: bool = False) -> Any:
    """The bidder on turn bids on the table: a quick bid button, or the form for any amount."""
    bidder = table.on_turn()
    board = table.table_message()
    if form or f"Bid ${amount}" not in labels(board):
        shown = await bidder.click(board, label="Other amount…")
        assert shown.modal is not None
        return await bidder.submit_modal(shown, {"value": str(amount)})
    return await bidder.click(board, label=f"Bid ${amount}")


def quick_bids(minimum: int) -> set[str]:
    return {f"Bid ${minimum + extra}" for extra in (0, 1, 2, 5)}


async def click(table: Table, label: str) -> Any:
    result = await table.on_turn().click(table.table_message(), label=label)
    assert result.acknowledged and not result.ephemeral, (label, result, followup_text(result))
    return result


async def test_scripted_game_by_clicks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spy = Spy()
    spy.install(monkeypatch)
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="estates")
        board = table.table_message()
        assert board.attachments and "Round 1 of 1 · turn 1" in words_of(board)
        assert "chooses a piece to auction" in words_of(board)
        first = set(labels(board))
        assert {"Permit 1", "Permit 2", "Permit 3", "Mayor", "Cancel cube", CHECKS} <= first
        assert "Rooftop (random)" not in first, "no building to roof yet"
        assert STOW not in first, "stowing is private: it is on My checks, not on the table"
        cubes = [x for x in labels(board) if re.fullmatch(CUBE, x)]
        assert 2 <= len(cubes) <= 6, "the selectable ends of the three display rows"
        a = table.on_turn()
        b, c = (table.players[(seat_of(table, a) + k) % 3] for k in (1, 2))

        # Turn 1: a permit; b bids by quick raise; c's bid above their money is refused privately.
        await click(table, "Permit 1")
        assert f"{a.name} auctions building permit 1." in table.recent()
        assert table.on_turn().id == b.id
        assert set(game_labels(table.table_message())) == quick_bids(1) | {"Other amount…", "Pass", CHECKS}
        done = await bid(table, 2)
        assert done.acknowledged and not done.ephemeral and not done.followups, "one click, one public line"
        board = table.table_message()
        assert f"{b.name} bids $2 million." in table.recent()
        assert f"high bid $2 million by {b.name} · {c.name} bids next" in words_of(board)
        assert table.on_turn().id == c.id

        before = snapshot(table)
        refused = await bid(table, 13, form=True)
        # The form's own bounds (3 up to one's money, when the host tells the form who clicked)
        # or the engine (the balance): either way a private answer naming only c's own money.
        text = words_of(refused.response)
        assert refused.ephemeral and ("You only have $12 million." in text or "from 3 to 12" in text), text
        assert snapshot(table) == before, "a refused bid leaves the thread untouched"
        low = await bid(table, 2, form=True)
        assert low.ephemeral and "from 3 to" in words_of(low.response), words_of(low.response)
        await click(table, "Pass")
        board = table.table_message()
        assert f"{c.name} passes." in table.recent() and table.on_turn().id == a.id
        assert game_labels(board) == ["Sell for $2", "Buy for $2…", CHECKS]
        assert f"{a.name} sells or buys" in words_of(board)

        # The auctioneer buys, on their private panel (it offers Buy only to one who can pay):
        # pays b, keeps the permit and places it.
        nosy = await b.click(board, label="Buy for $2…")
        assert nosy.ephemeral and f"Only {a.name}, the auctioneer, decides" in words_of(nosy.response)
        decide = await a.click(board, label="Buy for $2…")
        assert decide.ephemeral and labels(response_of(decide).message) == ["Buy for $2", "Sell for $2"]
        bought = await a.click(response_of(decide).message, label="Buy for $2")
        assert bought.acknowledged
        board = table.table_message()
        assert f"{a.name} keeps building permit 1 and pays {b.name} $2 million." in table.recent()
        assert f"{a.name} places building permit 1." in words_of(board)
        assert "Row A longer: 4 → 5 lots" in labels(board) and "Discard" in labels(board)
        assert "Row B shorter: 4 → 3 lots" in labels(board)
        await click(table, "Row A longer: 4 → 5 lots")
        board = table.table_message()
        assert f"{a.name} places building permit 1: row A is longer, now 5 lots." in table.recent()
        assert "Turn 2" in table.recent() and table.on_turn().id == b.id
        assert await checks(table, a) == (10, 0)
        assert await checks(table, b) == (14, 0)

        # Turn 2: b stows from My checks after a confirmation (private: the table does not move),
        # a second confirmation drawn before it is refused, then b takes the Cancel cube.
        board = table.table_message()
        offered = await b.click(board, label=CHECKS)
        assert "$14 million in hand and $0 million in your cash box (0 points at the end)" in (
            words_of(offered.response)
        )
        assert labels(response_of(offered).message) == [STOW], "My checks offers the stow, privately"
        assert response_of(offered).message.attachments, "with a picture of b's holdings"
        not_yet = await c.click(board, label=CHECKS)
        assert labels(response_of(not_yet).message) == [], "no stow for a seat not on turn"
        public_before = (board.id, words_of(board), ids(board), len(table.messages()))
        first_ask = await open_stow(table, b)
        second_ask = await open_stow(table, b)
        back = await b.click(second_ask, label="Back")
        assert response_of(back).ephemeral and "in your cash box" in words_of(back.response), (
            "Back returns to My checks"
        )
        second_ask = await open_stow(table, b)
        stowed = await b.click(first_ask, label=CONFIRM)
        assert stowed.acknowledged
        text = only_private(stowed)
        assert "You stowed $1 million in your cash box. In hand: $13 million; cash box: $1 million." in text
        board = table.table_message()
        assert (board.id, words_of(board), ids(board), len(table.messages())) == public_before, (
            "nothing public moved"
        )
        again = await b.click(second_ask, label=CONFIRM)
        assert again.ephemeral and "already stowed $1 million this turn" in words_of(again.response)
        mine = await b.click(board, label=CHECKS)
        assert (
            mine.ephemeral
            and "$13 million in hand and $1 million in your cash box (1 point at the end)"
            in words_of(mine.response)
        )
        assert "already stowed this turn" in words_of(mine.response)
        assert labels(response_of(mine).message) == [], "no second Stow offered privately"
        assert (board.id, words_of(board), ids(board), len(table.messages())) == public_before

        await click(table, "Cancel cube")
        await click(table, "Pass")
        await click(table, "Pass")
        board = table.table_message()
        assert f"Nobody bid: {b.name} takes the Cancel cube for free." in table.recent()
        assert game_labels(board) == ["Cancel permit 1 (row A)", "Discard", CHECKS]
        await click(table, "Cancel permit 1 (row A)")
        assert f"{b.name} uses the Cancel cube on permit 1: row A is 4 lots again." in table.recent()

        # Turn 3: c auctions a cube; a bids; the bot restarts while b is to bid.
        assert table.on_turn().id == c.id
        cube = next(x for x in labels(table.table_message()) if re.fullmatch(CUBE, x))
        await click(table, cube)
        await bid(table, 1)
        board = table.table_message()
        assert table.on_turn().id == b.id
        opened = await b.click(board, label="My checks")
        assert "$13 million in hand" in words_of(opened.response)
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        # The table message drawn before the restart still works, for the bidder only.
        nosy = await a.click(board, label="Bid $3")
        assert nosy.ephemeral and "not your turn" in words_of(nosy.response).lower(), words_of(nosy.response)
        raised = await b.click(board, label="Bid $3")
        assert raised.acknowledged and not raised.ephemeral
        board = table.table_message()
        assert f"{b.name} bids $3 million." in table.recent() and table.on_turn().id == c.id
        await click(table, "Sell for $3")
        board = table.table_message()
        assert f"{c.name} sells the" in table.recent() and f"to {b.name} for $3 million." in table.recent()
        spots = [x for x in game_labels(board) if x != CHECKS]
        assert spots and all(re.fullmatch(rf"[ABC]1: {CUBE} \(new building\)", x) for x in spots)
        await click(table, spots[0])
        assert "takes the certificate of" in table.recent()

        # The rest at random, still only by clicks.
        rng = random.Random(5)
        seen: set[str] = set()
        for _ in range(600):
            if not await random_step(table, rng, seen):
                break
        else:
            raise AssertionError("the game did not end")
        assert any(re.fullmatch(rf"[ABC]\d+: {CUBE} on {CUBE}", x) for x in seen)
        assert any(re.fullmatch(rf"[ABC]\d+: roof [1-6] on {CUBE} \(worth \d+\)", x) for x in seen)
        text = "\n".join(words_of(m) for m in table.messages())
        for phrase in ("auctions a rooftop: it shows", "a building worth", "is complete!", "builds the"):
            assert phrase in text, phrase
        final = table.messages()[-1]
        assert final.attachments and not playable(final)
        assert "Final standings" in words_of(final) and "Round 1 is over:" in table.recent()
        assert "from buildings" in words_of(final) and "from the cash box" in words_of(final)
        assert "in checks (tie-break)" in words_of(final)
        state = (await live(bot, table)).state
        outcome = RULES.outcome(state)
        assert outcome is not None
        # The winner is named once, by the standings: no "Winner:" line, no "Round won by".
        ending = table.recent(3)
        assert "Winner" not in ending and "Round won by" not in ending and "The game is over" not in ending
        for winner in outcome.winners():
            assert words_of(final).count(f"**1.** {table.players[winner].name}:") == 1
        assert spy.views and all(not (SECRET_KEYS & set(v)) for v in spy.views)
        assert spy.views[-1] == RULES.view(state, None)


async def random_step(
    table: Table,
    rng: random.Random,
    seen: set[str],
    record: Callable[[tuple[str, Any]], None] | None = None,
    stow: bool = False,
) -> bool:
    """One random public move by whoever is on turn; False once the game is over.

    With ``stow`` the player first makes private noise that must leave no public trace: stows
    (sometimes twice) and bids above their money.  ``record`` receives each accepted public move
    as a replayable step.
    """
    board = board_of(table)
    if board is None:
        return False
    names = game_labels(board)
    seen.update(names)
    player = mover(table, board)

    def note(step: tuple[str, Any]) -> None:
        if record is not None:
            record(step)

    if stow and rng.random() < 0.1:
        before = snapshot(table, 3)
        peek = await rng.choice(table.players).click(board, label=CHECKS)
        assert peek.ephemeral and "million in your cash box" in words_of(peek.response)
        assert snapshot(table, 3) == before, "My checks leaves no public trace"
    if "chooses a piece to auction" in words_of(board):
        if stow and rng.random() < 0.35:
            before = snapshot(table, 3)
            opened = await player.click(board, label=CHECKS)
            offered = labels(opened.response.message)
            if STOW in offered:
                asked = await player.click(opened.response.message, label=STOW)
                panel = asked.response.message
                if rng.random() < 0.2:
                    again = await player.click(board, label=CHECKS)
                    spare = await player.click(again.response.message, label=STOW)
                    result = await player.click(panel, label=CONFIRM)
                    refused = await player.click(spare.response.message, label=CONFIRM)
                    assert refused.ephemeral and "already stowed" in words_of(refused.response)
                else:
                    result = await player.click(panel, label=CONFIRM)
                text = only_private(result)
                assert "You stowed" in text, text
                seen.add("#stowed")
            else:
                assert offered == [] and re.search(
                    "already stowed|\\$0 million in hand", words_of(opened.response)
                )
                seen.add("#broke")
            assert snapshot(table, 3) == before, "a stow leaves no public trace"
            if rng.random() < 0.3:
                # A fresh table drawn after the stow must look the same as without it.
                shown = await player.slash(table.thread, "game show")
                assert shown.ephemeral
                note(("show", None))
                seen.add("#show")
                board = board_of(table)
                assert board is not None and game_labels(board) == names
        choice = rng.choice([x for x in names if x != CHECKS])
    elif "Other amount…" in names:
        money = (await checks(table, player))[0]
        if stow and rng.random() < 0.08:
            seen.add("#over-bid")
            shown = await player.click(board, label="Other amount…")
            before = snapshot(table, 3)
            refused = await player.submit_modal(shown, {"value": str(money + 1 + rng.randrange(3))})
            text = words_of(refused.response)
            assert refused.ephemeral and (
                f"You only have ${money} million." in text or f"to {money} " in text
            )
            assert snapshot(table, 3) == before, "a refused bid leaves no public trace"
        quick = [x for x in names if x.startswith("Bid $") and int(x.removeprefix("Bid $")) <= money]
        if quick and rng.random() < 0.55:
            pick = rng.choice(quick)
            amount = int(pick.removeprefix("Bid $"))
            if rng.random() < 0.1:  # forms are slow in SimCord: each leaves a 600 s modal timer behind
                shown = await player.click(board, label="Other amount…")
                result = await player.submit_modal(shown, {"value": str(amount)})
                note(("form", amount))
            else:
                result = await player.click(board, label=pick)
                note(("quick", amount))
            assert result.acknowledged and not result.ephemeral, followup_text(result)
            return True
        choice = "Pass"
    elif any(x.startswith("Sell for $") for x in names):
        buy = next(x for x in names if x.startswith("Buy for $"))
        if rng.random() < 0.4:
            # The buy is decided privately: Buy only for an auctioneer who can pay, else why not.
            opened = await player.click(board, label=buy)
            panel = opened.response.message
            assert opened.ephemeral
            if buy.removesuffix("…") in labels(panel):
                result = await player.click(panel, label=buy.removesuffix("…"))
                assert result.acknowledged, followup_text(result)
                note(("buy", None))
                return True
            sell = buy.replace("Buy", "Sell").removesuffix("…")
            assert "you must sell" in words_of(panel) and labels(panel) == [sell]
            seen.add("#must-sell")
        choice = next(x for x in names if x.startswith("Sell for $"))
    else:
        options = [x for x in names if x != CHECKS]
        assert options, names
        choice = rng.choice(options)
    custom_id = button(board, choice).custom_id
    result = await player.click(board, label=choice)
    assert result.acknowledged and not result.ephemeral, (choice, followup_text(result))
    note(("table", custom_id))
    return True


async def replay_step(table: Table, step: tuple[str, Any]) -> None:
    kind, value = step
    if kind == "show":
        shown = await table.players[0].slash(table.thread, "game show")
        assert shown.ephemeral and "Here is table" in words_of(shown.response)
        return
    if kind == "buy":
        board = board_of(table)
        assert board is not None
        buyer = mover(table, board)
        ask = next(label for label in labels(board) if label.startswith("Buy for $"))
        opened = await buyer.click(board, label=ask)
        result = await buyer.click(opened.response.message, label=ask.removesuffix("…"))
        assert result.acknowledged
        return
    if kind == "table":
        board = board_of(table)
        assert board is not None
        found = [b for b in buttons(board) if b.custom_id == value]
        assert found, f"public buttons differ: {value!r} not in {ids(board)}"
        result = await mover(table, board).click(board, custom_id=value)
        assert result.acknowledged and not result.ephemeral, followup_text(result)
    else:
        result = await bid(table, int(value), form=kind == "form")
        assert result.acknowledged and not result.ephemeral, followup_text(result)


DOLLARS = re.compile(r"\$(\d+)")
REVEALING = re.compile(r"in hand|cash box|checks|money|stow", re.IGNORECASE)


def assert_no_money(snap: list[tuple[str, list[str], list[str], int]], announced: set[int]) -> None:
    """No public text names a balance: every $ figure is an announced bid or price; no money words.

    The quick bids on the table are the one public list of amounts: always the minimum bid (one
    above an announced bid, or $1) and that plus 1, 2 and 5, whoever bids and whatever they hold.
    """
    for content, names, custom_ids, _images in snap:
        quick = sorted(int(n.removeprefix("Bid $")) for n in names if re.fullmatch(r"Bid \$\d+", n))
        if quick:
            low = quick[0]
            assert quick == [low, low + 1, low + 2, low + 5], quick
            assert low == 1 or low - 1 in announced, f"the minimum bid ${low} follows no announced bid"
        for text in (content, *names):
            if text in (STOW, CHECKS) or re.fullmatch(r"Bid \$\d+", text):
                continue
            assert not REVEALING.search(text), text
            for figure in DOLLARS.findall(text):
                assert int(figure) in announced, f"${figure} is no announced bid in {text!r}"
        for custom_id in custom_ids:
            assert re.fullmatch(
                r"[gum]:\d+:\d+:(stow|checks|bid|pass|sell|buy|decide|discard|[a-z]+\.[A-Za-z0-9.]+)",
                custom_id,
            ), custom_id
            if custom_id.startswith("g:") and ":bid." in custom_id:
                assert int(custom_id.rsplit(".", 1)[1]) in quick, "only the quick bids carry amounts"


async def test_no_public_trace_of_money(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Play with stows and refused bids, then the same public moves without them: nothing public differs."""
    steps: list[tuple[str, Any]] = []
    traces: dict[str, list[Snapshot]] = {"with": [], "without": []}
    spies = {"with": Spy(real=False), "without": Spy(real=False)}
    announced: set[int] = set()

    # Game 1: random play with stows (sometimes twice a turn), refused over-bids, and auctioneers
    # whose private panel says they must sell.
    spies["with"].install(monkeypatch)
    (tmp_path / "with").mkdir()
    bot = make_bot(tmp_path / "with")
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="estates")
        rng = random.Random(11)
        seen: set[str] = set()
        traces["with"].append(snapshot(table, 3))

        def record(step: tuple[str, Any]) -> None:
            steps.append(step)
            if board_of(table) is not None:
                traces["with"].append(snapshot(table, 3))

        for _ in range(900):
            if not await random_step(table, rng, seen, record, stow=True):
                break
            state = (await live(bot, table)).state
            view = RULES.view(state, None)
            assert spies["with"].views[-1] == view, "every image is drawn from the spectator view"
            auction = view["auction"]
            if auction and auction["high_bid"] is not None:
                announced.add(int(auction["high_bid"]))
            if board_of(table) is not None:
                assert_no_money(traces["with"][-1], announced)
        else:
            raise AssertionError("the game did not end")
        assert {"#stowed", "#show", "#over-bid", "#must-sell"} <= seen, seen
        public = snapshot(table)
        assert_no_money(public[:-1], announced)
        assert not any("You stowed" in content for content, *_ in public)
        state = (await live(bot, table)).state
        assert sum(state.cash_box) > 0 and sum(state.money) > 0, "the comparison below is meaningful"
        assert all(not (SECRET_KEYS & set(v)) for v in spies["with"].views)
        final_with = public

    # Game 2: the same public moves, no stow: every public snapshot must be identical.
    spies["without"].install(monkeypatch)
    (tmp_path / "without").mkdir()
    async with simcord.run(make_bot(tmp_path / "without"), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="estates")
        traces["without"].append(snapshot(table, 3))
        for step in steps:
            await replay_step(table, step)
            if board_of(table) is not None:
                traces["without"].append(snapshot(table, 3))
        final_without = snapshot(table)
    assert len(traces["with"]) == len(traces["without"]) == len(steps)
    for i, (one, two) in enumerate(zip(traces["with"], traces["without"], strict=True)):
        assert one == two, f"public difference after step {i}: {steps[i - 1] if i else 'start'}"
    # Only the final message may differ: the standings reveal the cash boxes once the game is over.
    assert final_with[:-1] == final_without[:-1]
    assert spies["with"].views[:-1] == spies["without"].views[:-1]


def fake_game(state: Any, players: int) -> Any:
    """Just enough of a ``LiveGame`` for the presenter, below Discord."""
    return bare_game(REGISTRY.get("estates"), state, [f"p{i}" for i in range(players)])


def test_every_event_is_phrased_and_every_move_has_a_button() -> None:
    """Below Discord, over several seeded multi-round games: every public event gets a log line
    (the match's end is left to the host's standings), every private one a private line, the table
    offers exactly the moves the rules allow in at most 24 buttons, and the stow only privately."""
    presenter = EstatesPresenter(Catalog.load())
    kinds: set[str] = set()
    for seed in range(4):
        players = 2 + seed
        rng = random.Random(seed)
        state = RULES.setup(players, {"rounds": 3}, seed)
        game = fake_game(state, players)
        while RULES.outcome(state) is None:
            (seat,) = RULES.waiting_for(state)
            legal = RULES.legal_actions(state, seat)
            controls = presenter.controls(game)
            assert len(controls) <= 24, "one slot stays free for the host's Catch me up"
            shown = {c.action for c in controls if isinstance(c, Button) and c.action is not None}
            for control in controls:
                assert isinstance(control, Button) and "{" not in control.label and len(control.label) <= 80
            status = presenter.status(game, RULES.view(state, None))
            assert "{" not in status, status
            phase = state.phase
            if phase == "choose":
                assert shown == {a for a in legal if a.kind == "pick"}, "no stow on the public table"
                stow = presenter.stow_panel(game, seat)
                offered = {c.action for c in stow.controls if isinstance(c, Button)}
                assert (Action("stow") in offered) == (Action("stow") in legal)
            elif phase == "place":
                assert shown == set(legal)
            elif phase == "bid":
                minimum = RULES.view(state, None)["auction"]["min_bid"]
                quick = {Action("bid", (minimum + extra,)) for extra in (0, 1, 2, 5)}
                assert shown == {Action("pass")} | quick, "the same quick bids for everyone"
            else:
                # Sell on the table; Buy… opens the auctioneer's private panel with exactly the
                # legal choices (Buy only for one who can pay: issue 24).
                assert shown == {Action("sell")}
                assert any(isinstance(c, Button) and c.ui == "decide" for c in controls)
                decide = presenter.decide_panel(game, seat)
                assert {c.action for c in decide.controls if isinstance(c, Button)} == set(legal)
            events = RULES.apply(state, seat, rng.choice(legal))
            lines = presenter.lines(game, events)
            assert all("{" not in line for line in lines)
            for event in events:
                kinds.add(event.kind)
                if event.kind == "game_over":
                    assert presenter.event_line(game, event) is None, "the standings name the winner"
                    continue
                line = (
                    presenter.event_line(game, event) if event.public else presenter.private_line(game, event)
                )
                assert line and "{" not in line, event
            if any(event.kind == "game_over" for event in events):
                ended = [line for line in lines if "is over:" in line]
                assert len(ended) == 1 and "Round won by" not in ended[0], lines
                assert not any("Winner" in line or "game is over" in line for line in lines), lines
            elif any(event.kind == "round_ended" for event in events):
                assert any("Round won by" in line for line in lines), (
                    "a round that is not the last has a winner"
                )
    assert {"round_started", "round_ended", "round_score", "game_over", "mayor_placed", "discarded"} <= kinds
    assert {"permit_placed", "permit_cancelled", "bought", "taken_free", "certificate", "roofed"} <= kinds


def test_stow_panel_says_why_not_privately() -> None:
    presenter = EstatesPresenter(Catalog.load())
    b = EstatesBuilder(3, seed=4).first(0)
    state = b.build()
    game = fake_game(state, 3)
    ask = presenter.stow_panel(game, 0)
    assert "cannot be undone" in ask.text
    assert [(c.label, c.action, c.ui) for c in ask.controls if isinstance(c, Button)] == [
        ("Yes, stow $1 million", Action("stow"), None),
        ("Back", None, "checks"),
    ]
    assert presenter.stow_panel(game, 1).text == (
        "You can stow only at the start of your own turn, before you choose a piece."
    )
    RULES.apply(state, 0, Action("stow"))
    assert presenter.stow_panel(game, 0).text == "You have already stowed this turn."
    b.pay(0, 1, state.money[0]).on_turn(0).build()  # a new turn with nothing in hand
    assert presenter.stow_panel(game, 0).text == "You have no money in hand to stow."


def test_bid_form_bounds_are_the_minimum_bid_and_the_bidders_money() -> None:
    presenter = EstatesPresenter(Catalog.load())
    b = EstatesBuilder(3, seed=4).first(0)
    state = b.build()
    game = fake_game(state, 3)
    assert presenter.modal(game, "bid") is not None and presenter.modal(game, "other") is None
    RULES.apply(state, 0, Action("pick", ("mayor",)))
    RULES.apply(state, 1, Action("bid", (4,)))
    b.pay(2, 0, 3).build()  # seat 2 is down to $9 million
    spec = presenter.modal(game, "bid", seat=2)
    assert spec is not None and (spec.minimum, spec.maximum) == (5, 9)
    assert spec.label == "Your bid in $ million (5 to 9)" and len(spec.label) <= 45
    # Without the clicking seat (or for a seat not bidding) the bound reveals nobody's money.
    for seat in (None, 1):
        public = presenter.modal(game, "bid", seat=seat)
        assert public is not None and (public.minimum, public.maximum) == (5, 36)
    b.pay(2, 0, 6).build()  # and now to $3 million
    broke = presenter.modal(game, "bid", seat=2)
    assert broke is not None and (broke.minimum, broke.maximum) == (5, 5), "never an upside-down range"


async def test_private_summary_and_checks_panel_tell_only_ones_own_figures() -> None:
    presenter = EstatesPresenter(Catalog.load())
    state = EstatesBuilder(2, seed=4, rounds=2).first(0).money([11, 9], [1, 3]).build()
    game = fake_game(state, 2)
    mine = presenter.private_summary(game, 0)
    assert mine[0].startswith(
        "You have $11 million in hand and $1 million in your cash box (1 point at the end)"
    )
    assert any("you may stow" in line for line in mine), "it is seat 0's turn and it may stow"
    theirs = presenter.private_summary(game, 1)
    assert theirs == [
        "You have $9 million in hand and $3 million in your cash box (3 points at the end). "
        "Nobody else can see this."
    ]
    assert presenter.private_summary(game, 5) == []
    # After a round, every seat's own round summary is there (the private round_score events).
    state.roofs_left = []  # unreachable (the builder refuses it): the round stalls after this turn
    RULES.apply(state, 0, Action("pick", ("mayor",)))
    RULES.apply(state, 1, Action("pass"))
    events = RULES.apply(state, 0, Action("discard"))
    scores = [e for e in events if e.kind == "round_score"]
    assert [e.visible_to for e in scores] == [frozenset({0}), frozenset({1})]
    for seat in (0, 1):
        line = presenter.private_line(game, scores[seat])
        assert line is not None and line.startswith("Round 1: you scored")
        summary = presenter.private_summary(game, seat)
        assert summary[-1] == f"Your round scores so far: round 1: {scores[seat].params['score']}."
    panel = await presenter.checks_panel(game, 1)
    assert panel.text.startswith("You have $") and "Your round scores so far: round 1:" in panel.text
    assert panel.image is not None and panel.image[:8] == b"\x89PNG\r\n\x1a\n"


def test_labels_plurals_and_cube_codes() -> None:
    presenter = EstatesPresenter(Catalog.load())
    game = fake_game(RULES.setup(2, {}, 1), 2)
    assert presenter.score_part(game, "round_wins", 1) == "1 round win"
    assert presenter.score_part(game, "round_wins", 2) == "2 round wins"
    assert presenter.count("estates.points", "en", 1) == "1 point"
    assert presenter.count("estates.points", "en", 0) == "0 points"
    assert cube_code({"colour": "green", "number": 3}) == "3 Gn" == cube_label(3, "Gn")


async def test_rounds_option_and_rules_summary(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        created = await ana.slash(channel, "game new", name="estates", options="rounds=3")
        assert "rounds=3" in words_of(response_of(created).message)
        too_many = await ana.slash(channel, "game new", name="estates", options="rounds=9")
        assert too_many.ephemeral and "rounds" in words_of(too_many.response)
        summary = await ana.slash(channel, "game rules", name="estates")
        assert "auction" in words_of(summary.response).lower() and "`rounds`" in words_of(summary.response)


# --- a French table ---------------------------------------------------------------------------


async def test_a_french_table_plays_and_refuses_in_french(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, french_clients: set[int]
) -> None:
    """Board, buttons, log lines, the private checks and the engine's refusal, all in French; the
    board images are drawn with the French words."""
    drawn_in: list[str] = []
    entry = ORIGINAL
    assert entry is not None
    render = entry.renderer

    def spy(view: dict[str, Any], names: Sequence[str], words: Words) -> bytes:
        drawn_in.append(words.language)
        return render(view, names, words)

    monkeypatch.setitem(REGISTRY._games, "estates", dataclasses.replace(entry, renderer=spy))
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        players = [guild.add_member(env.create_user(name)) for name in ("ana", "bob", "cy")]
        french_clients.update(p.id for p in players)
        created = await players[0].slash(channel, "game new", name="estates", language="fr")
        lobby = response_of(created).message
        for player in players[1:]:
            await player.click(lobby, label=fr("host.lobby.join"))
        await players[0].click(lobby, label=fr("host.lobby.start"))
        table = Table(env, channel, players)
        board = table.table_message()
        assert "Manche 1 sur 1 · tour 1" in words_of(board), words_of(board)
        assert "choisit une pièce à mettre aux enchères" in words_of(board)
        assert {"Permis 1", "Maire", "Cube Annulation", "Mes chèques"} <= set(labels(board))
        assert drawn_in and set(drawn_in) == {"fr"}, "the board is drawn in the table's language"
        a = table.on_turn()
        b, c = (table.players[(seat_of(table, a) + k) % 3] for k in (1, 2))

        # a stows (privately, in French) so that a bid of 12 is more than a can pay.
        opened = await a.click(table.table_message(), label="Mes chèques")
        assert "Vous avez 12 M$ en main et 0 M$ dans votre coffre (0 point à la fin)" in (
            words_of(opened.response)
        )
        assert response_of(opened).message.attachments, "with the French holdings picture"
        asked = await a.click(response_of(opened).message, label=fr("estates.button.stow"))
        await a.click(response_of(asked).message, label=fr("estates.button.stow_confirm"))

        await a.click(table.table_message(), label="Permis 1")
        assert f"{a.name} met aux enchères le permis de construire 1." in table.recent()
        shown = await b.click(table.table_message(), label=fr("host.auction.other"))
        assert shown.modal is not None
        await b.submit_modal(shown, {"value": "12"})
        assert f"{b.name} enchérit à 12 M$." in table.recent()
        await c.click(table.table_message(), label=fr("host.auction.pass"))
        board = table.table_message()
        assert fr("estates.button.buy_ask", price=12) in labels(board)

        # The buy is decided privately: a, who cannot pay, reads (in French) that they must sell,
        # and is offered the sale only; the table shows nothing of it.
        before = snapshot(table)
        must = await a.click(board, label=fr("estates.button.buy_ask", price=12))
        assert must.ephemeral
        assert words_of(must.response).startswith("Vous avez 11 M$ en main : vous ne pouvez pas payer 12 M$")
        assert labels(response_of(must).message) == [fr("estates.button.sell", price=12)]
        assert snapshot(table) == before, "the private panel leaves the thread untouched"


def test_refusals_name_pieces_in_the_tables_language() -> None:
    """The engine's refusal carries a token; the sentence and the piece in it are in the table's
    language, as the board and the log name that piece."""
    presenter = EstatesPresenter(Catalog.load())
    state = EstatesBuilder(3, seed=4).first(0).build()
    game = fake_game(state, 3)
    assert data.TOKEN_CUBE["blue1"] not in [c for line in state.display for c in line]
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, 0, Action("pick", ("blue1",)))
    exc = info.value
    assert (exc.key, exc.params) == ("cube_not_in_display", {"piece": "blue1"})
    english = presenter.illegal(game, exc, game.row.language)
    assert english == "You cannot choose the blue 1 (1 Bl): it is not in the display."
    game.row.language = "fr"
    french = presenter.illegal(game, exc, game.row.language)
    assert french == "Vous ne pouvez pas choisir le 1 bleu (1 Bl) : il n'est pas à l'étal."
    placed = IllegalAction("place_cube", piece="green3")
    assert presenter.illegal(game, placed, "fr") == "Placez le 3 vert (3 Ve) sur une parcelle du plateau."
    assert presenter.illegal(game, IllegalAction("bid_too_high", money=12), "fr") == "Vous n'avez que 12 M$."


def test_a_french_table_names_colours_and_pieces_in_french() -> None:
    """Log lines: a cube by its French colour and code, a certificate's colour in French."""
    presenter = EstatesPresenter(Catalog.load())
    state = EstatesBuilder(2, seed=5).first(0).build()
    game = fake_game(state, 2)
    game.row.language = "fr"
    seen: list[str] = []
    rng = random.Random(5)
    while RULES.outcome(state) is None and len(seen) < 400:
        (seat,) = RULES.waiting_for(state)
        events = RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
        seen.extend(presenter.lines(game, events))
    text = "\n".join(seen)
    assert re.search(r"met aux enchères le [1-6] (bleu|rouge|jaune|vert|violet|gris) \(" + CUBE + r"\)", text)
    assert re.search(r"prend le certificat \w[\w ]+ \((bleu|rouge|jaune|vert|violet|gris)\)", text), text
    for english in ("blue", "green", "gray", "purple", "yellow", " red", "rooftop", "permit ", "Mayor"):
        assert english not in text, english
