"""The Estates through the real discord.py path (SimCord): auctions by buttons, hidden money.

One scripted three-player game played only by clicks (permit, Cancel cube,
an auctioneer buying, a refused bid, a stow, "My checks", a restart in the
middle of an auction, then random play to the end), and a leak test: a random
game with stows is compared, snapshot by snapshot, with the same public moves
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
from types import SimpleNamespace
from typing import Any

import discord
import pytest
import simcord
from simcord.results import to_discord_message

from bot.client import GameBot
from bot.i18n import Catalog
from bot.presenter import Button
from bot.registry import REGISTRY
from cogs.estates import EstatesPresenter
from rules.core import Action
from rules.estates import RULES
from tests.host.discord_kit import Table, ids, labels, make_bot, open_table

ORIGINAL = REGISTRY.get("estates")
STOW = "Stow $1 in the cash box"
CHECKS = "My checks"
SECRET_KEYS = {"money", "cash_box", "checks", "stowed_this_turn", "you", "round_scores"}


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.lobby.secrets.randbits", lambda _bits: 20261125)


@dataclasses.dataclass
class Spy:
    """Wraps the registered renderer: records every view an image was drawn from."""

    views: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    real: bool = True

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        entry = ORIGINAL
        assert entry is not None, "The Estates is registered"
        render = entry.renderer

        def spy(view: dict[str, Any], names: Sequence[str]) -> bytes:
            self.views.append(copy.deepcopy(view))
            return render(view, names) if self.real else _TINY_PNG

        monkeypatch.setitem(REGISTRY._games, "estates", dataclasses.replace(entry, renderer=spy))


_TINY_PNG = (
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4"
    b"\x89\x00\x00\x00\rIDATx\x9cc\xf8\xff\xff?\x03\x00\x08\xfc\x02\xfe\xa7\x9a\xa0\xa0\x00\x00\x00\x00IEND"
    b"\xaeB`\x82"
)


def buttons(message: discord.Message) -> list[Any]:
    return [child for row in message.components for child in row.children]  # type: ignore[attr-defined]


def button(message: discord.Message, label: str) -> Any:
    found = [b for b in buttons(message) if b.label == label]
    assert found, f"no button {label!r} in {labels(message)}"
    return found[0]


def followup_text(result: Any) -> str:
    return "\n".join(f.content for f in result.followups)


def only_private(result: Any) -> str:
    """The text of an answer that must be ephemeral (a direct reply or ephemeral followups)."""
    if result.response is not None and result.ephemeral:
        return str(result.response.content)
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
    return next((m for m in reversed(newest(table, 3)) if m.components), None)


def mover(table: Table, board: discord.Message) -> Any:
    return next(p for p in table.players if f"<@{p.id}>" in board.content)


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
        content = message.content
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
    """Money in hand and cash box as "My checks" tells them (privately)."""
    before = snapshot(table)
    result = await player.click(table.table_message(), label=CHECKS)
    text = only_private(result)
    match = re.search(r"You have \$(\d+) million in hand and \$(\d+) million in your cash box", text)
    assert match, text
    assert snapshot(table) == before, "looking at one's checks changes nothing public"
    return int(match[1]), int(match[2])


async def bid(table: Table, amount: int, *, form: bool = False) -> Any:
    """The bidder on turn bids through the private panel: a quick raise, or the form."""
    bidder = table.on_turn()
    opened = await bidder.click(table.table_message(), label="Bid…")
    assert opened.ephemeral and "The minimum bid is" in opened.response.content
    panel = opened.response.message
    if form:
        shown = await bidder.click(panel, label="Other amount…")
        assert shown.modal is not None
        return await bidder.submit_modal(shown, {"value": str(amount)})
    return await bidder.click(panel, label=f"Bid ${amount}")


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
        assert board.attachments and "Round 1 of 1 · turn 1" in board.content
        assert "chooses a piece to auction" in board.content
        first = set(labels(board))
        assert {STOW, "Permit 1", "Permit 2", "Permit 3", "Mayor", "Cancel cube", CHECKS} <= first
        assert "Rooftop (random)" not in first, "no building to roof yet"
        cubes = [x for x in labels(board) if re.fullmatch(r"(Bl|Re|Ye|Gn|Pu|Gy)[1-6]", x)]
        assert 2 <= len(cubes) <= 6, "the selectable ends of the three display rows"
        a = table.on_turn()
        b, c = (table.players[(seat_of(table, a) + k) % 3] for k in (1, 2))

        # Turn 1: a permit; b bids by quick raise; c's bid above their money is refused privately.
        await click(table, "Permit 1")
        assert f"{a.name} auctions building permit 1." in table.table_message().content
        assert table.on_turn().id == b.id
        assert set(labels(table.table_message())) == {"Bid…", "Pass", CHECKS}
        done = await bid(table, 2)
        assert "Your bid of $2 million is in." in done.response.content
        assert not done.response.message.components, "the bid panel closes after the bid"
        board = table.table_message()
        assert f"{b.name} bids $2 million." in board.content
        assert f"high bid $2 million by {b.name} · {c.name} bids next" in board.content
        assert table.on_turn().id == c.id

        before = snapshot(table)
        refused = await bid(table, 13, form=True)
        assert refused.ephemeral and "You only have $12 million." in refused.response.content
        assert snapshot(table) == before, "a refused bid leaves the thread untouched"
        low = await bid(table, 2, form=True)
        assert low.ephemeral and "more than $2 million" in low.response.content
        await click(table, "Pass")
        board = table.table_message()
        assert f"{c.name} passes." in board.content and table.on_turn().id == a.id
        assert labels(board) == ["Sell for $2", "Buy for $2", CHECKS]
        assert f"{a.name} sells or buys" in board.content

        # The auctioneer buys: pays b, keeps the permit and places it.
        await click(table, "Buy for $2")
        board = table.table_message()
        assert f"{a.name} keeps building permit 1 and pays {b.name} $2 million." in board.content
        assert f"{a.name} places building permit 1." in board.content
        assert "Row A longer: 4 → 5 lots" in labels(board) and "Discard" in labels(board)
        assert "Row B shorter: 4 → 3 lots" in labels(board)
        await click(table, "Row A longer: 4 → 5 lots")
        board = table.table_message()
        assert f"{a.name} places building permit 1: row A is longer, now 5 lots." in board.content
        assert "Turn 2" in board.content and table.on_turn().id == b.id
        assert await checks(table, a) == (10, 0)
        assert await checks(table, b) == (14, 0)

        # Turn 2: b stows (private: the table does not move), stows again (refused), takes the Cancel cube.
        board = table.table_message()
        offered = await b.click(board, label=CHECKS)
        assert "$14 million in hand and $0 million in your cash box" in offered.response.content
        assert labels(offered.response.message) == [STOW], "My checks offers the stow privately too"
        before = (board.id, board.content, ids(board), len(table.messages()))
        stowed = await b.click(board, label=STOW)
        assert stowed.acknowledged
        text = only_private(stowed)
        assert "You stowed $1 million in your cash box. In hand: $13 million; cash box: $1 million." in text
        board = table.table_message()
        assert (board.id, board.content, ids(board), len(table.messages())) == before, "nothing public moved"
        again = await b.click(board, label=STOW)
        assert again.ephemeral and "already stowed $1 million this turn" in again.response.content
        assert STOW in labels(table.table_message()), "the button stays: it must not tell that b stowed"
        not_yours = await c.click(board, label=STOW)
        assert not_yours.ephemeral and "not your turn" in not_yours.response.content
        mine = await b.click(board, label=CHECKS)
        assert (
            mine.ephemeral and "$13 million in hand and $1 million in your cash box" in mine.response.content
        )
        assert "already stowed this turn" in mine.response.content
        assert labels(mine.response.message) == [], "no second Stow offered privately"
        assert (board.id, board.content, ids(board), len(table.messages())) == before

        await click(table, "Cancel cube")
        await click(table, "Pass")
        await click(table, "Pass")
        board = table.table_message()
        assert f"Nobody bid: {b.name} takes the Cancel cube for free." in board.content
        assert labels(board) == ["Cancel permit 1 (row A)", "Discard", CHECKS]
        await click(table, "Cancel permit 1 (row A)")
        assert (
            f"{b.name} uses the Cancel cube on permit 1: row A is 4 lots again."
            in table.table_message().content
        )

        # Turn 3: c auctions a cube; a bids; the bot restarts while b is to bid.
        assert table.on_turn().id == c.id
        cube = next(x for x in labels(table.table_message()) if re.fullmatch(r"[A-Z][a-z][1-6]", x))
        await click(table, cube)
        await bid(table, 1)
        board = table.table_message()
        assert table.on_turn().id == b.id
        opened = await b.click(board, label="Bid…")
        panel = opened.response.message
        assert "The high bid is $1 million by" in opened.response.content
        assert "you have $13 million in hand" in opened.response.content
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        # Both the table message and the private panel drawn before the restart still work.
        nosy = await a.click(board, label="Bid…")
        assert nosy.ephemeral and f"It is {b.name}'s turn to bid, not yours." in nosy.response.content
        reopened = await b.click(board, label="Bid…")
        assert reopened.ephemeral and "you have $13 million in hand" in reopened.response.content
        raised = await b.click(panel, label="Bid $3")
        assert raised.acknowledged and "Your bid of $3 million is in." in raised.response.content
        board = table.table_message()
        assert f"{b.name} bids $3 million." in board.content and table.on_turn().id == c.id
        await click(table, "Sell for $3")
        board = table.table_message()
        assert f"{c.name} sells the" in board.content and f"to {b.name} for $3 million." in board.content
        spots = [x for x in labels(board) if x != CHECKS]
        assert spots and all(re.fullmatch(r"[ABC]1: [A-Z][a-z][1-6] \(new building\)", x) for x in spots)
        await click(table, spots[0])
        assert "takes the certificate of" in table.table_message().content

        # The rest at random, still only by clicks.
        rng = random.Random(5)
        seen: set[str] = set()
        for _ in range(600):
            if not await random_step(table, rng, seen):
                break
        else:
            raise AssertionError("the game did not end")
        assert any(re.fullmatch(r"[ABC]\d+: [A-Z][a-z][1-6] on [A-Z][a-z][1-6]", x) for x in seen)
        assert any(re.fullmatch(r"[ABC]\d+: roof [1-6] on [A-Z][a-z][1-6] \(worth \d+\)", x) for x in seen)
        text = "\n".join(m.content for m in table.messages())
        for phrase in ("auctions a rooftop: it shows", "a building worth", "is complete!", "builds the"):
            assert phrase in text, phrase
        final = table.messages()[-1]
        assert final.attachments and not final.components
        assert "Final standings" in final.content and "Round 1 is over:" in final.content
        assert "from buildings" in final.content and "from the cash box" in final.content
        assert "in checks (tie-break)" in final.content
        state = (await live(bot, table)).state
        assert RULES.outcome(state) is not None
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
    names = labels(board)
    seen.update(names)
    player = mover(table, board)

    def note(step: tuple[str, Any]) -> None:
        if record is not None:
            record(step)

    if stow and rng.random() < 0.1:
        before = snapshot(table, 3)
        peek = await rng.choice(table.players).click(board, label=CHECKS)
        assert peek.ephemeral and "million in your cash box" in peek.response.content
        assert snapshot(table, 3) == before, "My checks leaves no public trace"
    if STOW in names:
        if stow and rng.random() < 0.35:
            before = snapshot(table, 3)
            result = await player.click(board, label=STOW)
            text = only_private(result)
            assert "You stowed" in text or "no money in hand" in text, text
            seen.add("#stowed" if "You stowed" in text else "#broke")
            if rng.random() < 0.2:
                again = await player.click(board, label=STOW)
                assert again.ephemeral and re.search("already stowed|no money", again.response.content)
            assert snapshot(table, 3) == before, "a stow leaves no public trace"
            if rng.random() < 0.3:
                # A fresh table drawn after the stow must look the same as without it.
                shown = await player.slash(table.thread, "game show")
                assert shown.ephemeral
                note(("show", None))
                seen.add("#show")
                board = board_of(table)
                assert board is not None and labels(board) == names
        choice = rng.choice([x for x in names if x not in (STOW, CHECKS)])
    elif "Bid…" in names:
        opened = await player.click(board, label="Bid…")
        panel = opened.response.message
        money = re.search(r"you have \$(\d+) million", opened.response.content)
        assert money
        for quick_bid in (b for b in buttons(panel) if b.label.startswith("Bid $")):
            assert quick_bid.disabled == (int(quick_bid.label.removeprefix("Bid $")) > int(money[1]))
        if stow and rng.random() < 0.08:
            seen.add("#over-bid")
            shown = await player.click(panel, label="Other amount…")
            before = snapshot(table, 3)
            refused = await player.submit_modal(shown, {"value": str(int(money[1]) + 1 + rng.randrange(3))})
            assert refused.ephemeral and f"You only have ${money[1]} million." in refused.response.content
            assert snapshot(table, 3) == before, "a refused bid leaves no public trace"
        quick = [b for b in buttons(panel) if b.label.startswith("Bid $") and not b.disabled]
        if quick and rng.random() < 0.55:
            pick = rng.choice(quick)
            amount = int(pick.label.removeprefix("Bid $"))
            if rng.random() < 0.1:  # forms are slow in SimCord: each leaves a 600 s modal timer behind
                shown = await player.click(panel, label="Other amount…")
                result = await player.submit_modal(shown, {"value": str(amount)})
                note(("form", amount))
            else:
                result = await player.click(panel, label=pick.label)
                note(("quick", amount))
            assert result.acknowledged and "Your bid of" in result.response.content
            return True
        choice = "Pass"
    elif any(x.startswith("Sell for $") for x in names):
        buy = next(x for x in names if x.startswith("Buy for $"))
        if rng.random() < 0.4:
            result = await player.click(board, label=buy)
            if not result.ephemeral:
                note(("table", button(board, buy).custom_id))
                return True
            assert "you must sell" in result.response.content
            seen.add("#refused-buy")
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
        assert shown.ephemeral and "Here is table" in shown.response.content
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
        assert result.acknowledged and "Your bid of" in result.response.content


DOLLARS = re.compile(r"\$(\d+)")
REVEALING = re.compile(r"in hand|cash box|checks|money|stow", re.IGNORECASE)


def assert_no_money(snap: list[tuple[str, list[str], list[str], int]], announced: set[int]) -> None:
    """No public text names a balance: every $ figure is an announced bid or price; no money words."""
    for content, names, custom_ids, _images in snap:
        for text in (content, *names):
            if text in (STOW, CHECKS):
                continue
            assert not REVEALING.search(text), text
            for figure in DOLLARS.findall(text):
                assert int(figure) in announced, f"${figure} is no announced bid in {text!r}"
        for custom_id in custom_ids:
            assert re.fullmatch(
                r"[gu]:\d+:\d+:(stow|checks|bid|pass|sell|buy|discard|[a-z]+\.[A-Za-z0-9.]+)", custom_id
            )
            assert not custom_id.startswith("g:") or ":bid." not in custom_id, "no bid amounts on the table"


async def test_no_public_trace_of_money(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Play with stows and refused bids, then the same public moves without them: nothing public differs."""
    steps: list[tuple[str, Any]] = []
    traces: dict[str, list[Snapshot]] = {"with": [], "without": []}
    spies = {"with": Spy(real=False), "without": Spy(real=False)}
    announced: set[int] = set()

    # Game 1: random play with stows (sometimes twice a turn), refused over-bids and refused buys.
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
        assert {"#stowed", "#show", "#over-bid", "#refused-buy"} <= seen, seen
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


def test_every_event_is_phrased_and_every_move_has_a_button() -> None:
    """Below Discord, over several seeded multi-round games: every public event gets a log line,
    every private one a private line, and the table offers exactly the moves the rules allow."""
    presenter = EstatesPresenter(Catalog.load())
    entry = REGISTRY.get("estates")
    kinds: set[str] = set()
    for seed in range(4):
        players = 2 + seed
        rng = random.Random(seed)
        state = RULES.setup(players, {"rounds": 3}, seed)
        seats = [SimpleNamespace(name=f"p{i}", seat=i, user_id=i) for i in range(players)]
        game: Any = SimpleNamespace(row=SimpleNamespace(language="en"), entry=entry, seats=seats, state=state)
        while RULES.outcome(state) is None:
            (seat,) = RULES.waiting_for(state)
            legal = RULES.legal_actions(state, seat)
            controls = presenter.controls(game)
            assert len(controls) <= 25
            shown = {c.action for c in controls if isinstance(c, Button) and c.action is not None}
            for control in controls:
                assert isinstance(control, Button) and "{" not in control.label and len(control.label) <= 80
            status = presenter.status(game, RULES.view(state, None))
            assert "{" not in status, status
            phase = state.phase
            if phase == "choose":
                assert shown == {a for a in legal if a.kind == "pick"} | {Action("stow")}
            elif phase == "place":
                assert shown == set(legal)
            elif phase == "bid":
                assert shown == {Action("pass")}
            else:
                assert shown == {Action("sell"), Action("buy")}
            events = RULES.apply(state, seat, rng.choice(legal))
            for event in events:
                kinds.add(event.kind)
                line = (
                    presenter.event_line(game, event) if event.public else presenter.private_line(game, event)
                )
                assert line and "{" not in line, event
    assert {"round_started", "round_ended", "round_score", "game_over", "mayor_placed", "discarded"} <= kinds
    assert {"permit_placed", "permit_cancelled", "bought", "taken_free", "certificate", "roofed"} <= kinds


async def test_rounds_option_and_rules_summary(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        created = await ana.slash(channel, "game new", name="estates", options="rounds=3")
        assert "rounds=3" in created.response.message.content
        too_many = await ana.slash(channel, "game new", name="estates", options="rounds=9")
        assert too_many.ephemeral and "rounds" in too_many.response.content
        summary = await ana.slash(channel, "game rules", name="estates")
        assert "auction" in summary.response.content.lower() and "`rounds`" in summary.response.content
