"""Monopoly California Dreaming through the real discord.py path (SimCord), and its presenter below it.

Positions a test needs (a full colour group, a debt) are arranged by a ``MonopolyRules`` whose
``setup`` places them, registered for the test's duration (:func:`registered`, in
``tests/cogs/conftest.py``), so a restart rebuilds the same game.

SimCord: a scripted opening (opening rolls, Roll, Buy, Auction it with the host's auction kit and a
restart in the middle of the auction, End turn); a player not on turn building from "My
properties"; a deal composed privately, sent, accepted on the table; a debtor's private panel.
Below Discord: over seeded random games every public event has a line with no "{", every private
one a private line, every legal move of every waited-for seat is on the table or one of its panels,
and labels stay within Discord's limits.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.core.i18n import Catalog
from bot.core.registry import GameEntry
from bot.ui.presenter import Button, Control, Panel, Select
from cogs.monopoly import MonopolyPresenter
from harness.messages import controls, labels, words_of
from rules.core import Action, Event, IllegalAction
from rules.monopoly import RULES, MonopolyRules, MonopolyState, data, turn
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import Debt
from rules.monopoly.tokens import SPACE_TOKENS
from tests.bot.core.test_refusal_keys import ROOT, raised
from tests.helpers import TINY_PNG, ArrangedSetup, bare_game
from tests.rules.test_monopoly_corrections import GREENS, built, houses_left, table
from tests.simcord import (
    make_bot,
    member_at,
    open_table,
    panel,
    pinned_seed,
    private_text,
    public_click,
    row_labels,
    saved_state,
    seat_of,
    select_id,
)

CATCH = "Catch me up"
PROPS = "My properties"
DEAL = "Propose a deal"


def stub_render(view: dict[str, Any], names: Any, words: Any) -> bytes:
    """A one-pixel board, for the pure presenter checks (the picture is not under test)."""
    assert "seed" not in view and "rng" not in view, "the renderer gets the public view only"
    return TINY_PNG


class Arranged(ArrangedSetup, MonopolyRules):
    """Monopoly whose ``setup`` also places a test's position (kept across a restart)."""


def skip_opening(state: MonopolyState, turn: int = 0) -> None:
    MonopolyBuilder.of(state).started(first=turn)


fixed_seed = pinned_seed()


# --- SimCord: the opening, buying, an auction with a restart, ending turns ------------------------


async def test_scripted_opening_buy_auction_restart_end(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    registered(RULES)
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        # Round-robin auctions (the bidder on turn, "not your turn" for the others).
        table = await open_table(env, ["ana", "bob", "cy"], game="monopoly", options="auction=round")
        board = table.table_message()
        assert "Roll for the first turn" in words_of(board) and row_labels(board)[0] == "Roll"
        assert PROPS not in labels(board), "nothing to manage before the first turn"
        for _ in range(4):  # everyone rolls; tied highest roll again
            if "first turn" not in words_of(table.table_message()):
                break
            for player in table.players:
                await player.click(table.table_message(), label="Roll")
        assert "for the first turn" in table.recent(3)
        assert "Turn 1 for" in table.recent(3)

        bought = declined = restarted = False
        for _step in range(80):
            board = table.table_message()
            shown = labels(board)
            mover = table.on_turn()
            if bought and declined and "Roll" in shown:
                break
            buy = next((b for b in shown if b.startswith("Buy for $")), None)
            if buy is not None:
                state = await saved_state(bot)
                place = state.position[state.turn]
                enabled = not next(c for c in controls(board) if getattr(c, "label", "") == buy).disabled
                assert {"Auction it", PROPS, DEAL} <= set(shown)
                if not bought and enabled:
                    await public_click(table, mover, buy)
                    assert (
                        f"{mover.name} buys " in table.recent()
                        and buy.removeprefix("Buy for ") in table.recent()
                    )
                    bought = True
                    continue
                await public_click(table, mover, "Auction it")
                assert "Up for auction (not bought): Castro Street." in table.recent()
                board = table.table_message()
                assert {"Bid $1", "Bid $2", "Bid $3", "Bid $6", "Other amount…", "Pass"} <= set(labels(board))
                bidder = table.on_turn()
                if not restarted:  # the table drawn before a restart still works, for the bidder only
                    bot = make_bot(tmp_path)
                    await env.restart_bot(bot)
                    restarted = True
                    nosy = next(p for p in table.players if p.id != bidder.id)
                    refused = await nosy.click(board, label="Bid $2")
                    assert refused.ephemeral and "not your turn" in private_text(refused).lower()
                    await bidder.click(board, label="Bid $2")
                    assert f"{bidder.name} bids $2." in table.recent()
                # the next bidder types an amount in the kit's form
                typer = table.on_turn()
                shown_form = await typer.click(table.table_message(), label="Other amount…")
                assert shown_form.modal is not None
                await typer.submit_modal(shown_form, {"value": "25"})
                assert f"{typer.name} bids $25." in table.recent()
                while "Pass" in labels(table.table_message()):
                    await public_click(table, table.on_turn(), "Pass")
                assert f"{typer.name} wins " in table.recent(3) and " for $25." in table.recent(3)
                assert (await saved_state(bot)).owner[place] == await seat_of(bot, typer)
                declined = True
                continue
            if "Roll" in shown:
                await public_click(table, mover, "Roll")
                assert f"{mover.name} rolls " in table.recent(3)
            elif "End turn" in shown:
                await public_click(table, mover, "End turn")
                assert "Turn " in table.recent(2)
            elif "Pay $50" in shown:
                await public_click(table, mover, "Pay $50")
            elif "Raise money…" in shown:
                pytest.skip("a debt this early is not part of this script")
            else:
                raise AssertionError(f"stuck at {shown}: {words_of(board)}")
        assert bought and declined and restarted
        status = words_of(table.table_message())
        assert "$" in status and "ana" in status, "everyone's cash is on the table"


# --- SimCord: building between turns, a deal, a debt ---------------------------------------------


def brown_and_haight(state: MonopolyState) -> None:
    """Seat 1 owns the brown group; seat 0 owns Lower Haight; seat 0 is on turn."""
    MonopolyBuilder.of(state).started(first=0).owns(1, "route-66", "mojave-desert").owns(0, "lower-haight")


async def test_building_off_turn_and_a_deal(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    registered(Arranged(brown_and_haight))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        first = await member_at(bot, table, 0)
        builder = await member_at(bot, table, 1)
        board = table.table_message()
        assert row_labels(board)[0] == "Roll" and {PROPS, DEAL, CATCH} <= set(labels(board))
        assert table.on_turn().id == first.id

        # The builder is not on turn: My properties, build twice on the panel that stays open.
        props = panel(await builder.click(board, label=PROPS))
        assert "**Brown [Br]** (whole group)" in words_of(props) and "Route 66: rent $4" in words_of(props)
        assert "House on Route 66 ($50)" in labels(props) and "Mortgage Route 66 (+$30)" in labels(props)
        built = panel(await builder.click(props, label="House on Route 66 ($50)"))
        assert f"{builder.name} builds a house on Route 66 for $50 (now 1 house)." in table.recent()
        assert "House on Route 66 ($50)" not in labels(built), "build evenly"
        assert "House on Mojave Desert ($50)" in labels(built) and "Sell a house: Route 66 (+$25)" in labels(
            built
        )
        panel(await builder.click(built, label="House on Mojave Desert ($50)"))
        state = await saved_state(bot)
        assert state.level[1] == state.level[3] == 1 and state.cash[1] == 1400
        assert table.on_turn().id == first.id, "building did not move the turn"

        # A deal: the player on turn gives Lower Haight and asks $120; the builder accepts on the table.
        whom = panel(await first.click(table.table_message(), label=DEAL))
        assert "Whom is your deal for?" in words_of(whom)
        draft = panel(await first.click(whom, label=builder.name))
        assert "Your deal with" in words_of(draft) and "Send deal" not in labels(draft)
        draft = panel(await first.select(draft, ["give.6"], custom_id=select_id(draft, "give.6")))
        assert "You give: Lower Haight" in words_of(draft)
        shown_form = await first.click(draft, label="Cash you ask…")
        assert shown_form.modal is not None
        too_much = await first.submit_modal(shown_form, {"value": "5000"})
        assert too_much.ephemeral and "from 0 to 1,400" in private_text(too_much), "bounded by their cash"
        shown_form = await first.click(draft, label="Cash you ask…")
        draft = panel(await first.submit_modal(shown_form, {"value": "120"}))
        assert "You ask for: $120" in words_of(draft)
        before = len(table.messages())
        sent = await first.click(draft, label="Send deal")
        assert "Deal #1 is on the table" in private_text(sent)
        assert len(table.messages()) >= before
        board = table.table_message()
        assert f"<@{builder.id}>" in words_of(board), "the recipient is pinged"
        assert {"Accept #1", "Reject #1", "Counter #1…", "Withdraw #1"} <= set(labels(board))
        assert f"{first.name} proposes deal #1 to {builder.name}: Lower Haight for $120." in table.recent()
        nosy = await first.click(board, label="Accept #1")
        assert nosy.ephemeral and "not addressed to you" in private_text(nosy)
        await public_click(table, builder, "Accept #1")
        assert f"{builder.name} accepts deal #1 from {first.name}" in table.recent()
        state = await saved_state(bot)
        assert state.owner[6] == 1 and state.cash == [1500 + 120, 1400 - 120]

        # Catch me up tells each their own cash and holdings.
        caught = await builder.click(table.table_message(), label=CATCH)
        text = private_text(caught)
        assert "**You have $1,280**" in text and "Lower Haight" in text


def in_debt(state: MonopolyState) -> None:
    """Seat 0 owes seat 1 $300 rent with $100 in hand; Rodeo Drive and Lower Haight can be mortgaged."""
    MonopolyBuilder.of(state).started(first=0).owns(0, "rodeo-drive", "lower-haight").cash(0, 100)
    state.debts.append(Debt(0, [1], 300, "rent"))  # no builder step: debts come from play


async def test_debt_panel_raises_the_money(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    registered(Arranged(in_debt))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        debtor = await member_at(bot, table, 0)
        board = table.table_message()
        assert "owes $300 to" in words_of(board) and "Raise money…" in labels(board)
        assert "Roll" not in labels(board), "the turn waits for the debt"
        opened = panel(await debtor.click(board, label="Raise money…"))
        assert "You owe $300 to" in words_of(opened) and "still to raise: **$200**" in words_of(opened)
        assert set(labels(opened)) == {
            "Mortgage Lower Haight (+$50)",
            "Mortgage Rodeo Drive (+$200)",
            DEAL,
            "Done",
        }, "exactly the ways to raise it; no bankruptcy while mortgages cover it"
        paid = await debtor.click(opened, label="Mortgage Rodeo Drive (+$200)")
        assert "Your debt is paid ($300)." in private_text(paid)
        assert f"{debtor.name} pays $300 to" in table.recent(3)
        assert "Roll" in labels(table.table_message())


# --- below Discord ---------------------------------------------------------------------------------


def fake_game(state: MonopolyState, players: int) -> Any:
    entry = GameEntry(RULES, stub_render, MonopolyPresenter)
    return bare_game(entry, state, [f"p{i}" for i in range(players)])


def offered(controls: list[Control]) -> tuple[set[Action], set[str]]:
    """Actions behind buttons and select choices, and the forms (modal kinds) of a list of controls."""
    actions: set[Action] = set()
    forms: set[str] = set()
    for control in controls:
        if isinstance(control, Select):
            actions |= {choice.action for choice in control.choices}
        elif control.action is not None and not control.disabled:
            actions.add(control.action)
        elif control.modal is not None:
            forms.add(control.modal)
    return actions, forms


def check_panel(item: Panel) -> None:
    assert "{" not in item.text and len(item.text) <= 2000, item.text
    for control in item.controls:
        label = control.placeholder if isinstance(control, Select) else control.label
        assert "{" not in label and 0 < len(label) <= 80, label


def reachable(presenter: MonopolyPresenter, game: Any, seat: int) -> tuple[set[Action], set[str]]:
    """Everything a seat can press: the table, then every panel it opens."""
    actions, forms = offered(presenter.controls(game))
    panels = [
        presenter.props_panel(game, seat),
        presenter.debt_panel(game, seat),
        presenter.bankrupt_panel(game, seat),
        presenter.deal_panel(game, seat),
        presenter.whom_panel(game, seat),
        *(presenter.offer_panel(game, seat, o.number) for o in game.state.offers),
    ]
    for item in panels:
        check_panel(item)
        more, more_forms = offered(item.controls)
        actions |= more
        forms |= more_forms
    return actions, forms


def test_every_event_phrased_and_every_move_reachable() -> None:
    presenter = MonopolyPresenter(Catalog.load())
    kinds: set[str] = set()
    for seed in range(6):
        players = 2 + seed % 4
        rng = random.Random(seed)
        state = RULES.setup(players, {"turns": "12", "rent": "ask" if seed % 2 else "auto"}, seed)
        game = fake_game(state, players)
        for _step in range(4000):
            if RULES.outcome(state) is not None:
                break
            view = RULES.view(state, None)
            status = presenter.status(game, view)
            assert "{" not in status and len(status) < 600, status
            controls = presenter.controls(game)
            for control in controls:
                if isinstance(control, Button):
                    assert "{" not in control.label and len(control.label) <= 80, control.label
            waiting = sorted(RULES.waiting_for(state))
            for seat in waiting:
                actions, forms = reachable(presenter, game, seat)
                for action in RULES.legal_actions(state, seat):
                    if action.kind == "bid":
                        assert "bid" in forms or action in actions, action
                        spec = presenter.modal(game, "bid", seat)
                        assert spec is not None and spec.minimum <= int(action.args[0]) <= spec.maximum
                    elif action.kind in ("cash", "ask"):
                        spec = presenter.modal(game, action.kind, seat)
                        assert action.kind in forms and spec is not None
                        assert spec.minimum <= int(action.args[0]) <= spec.maximum
                    else:
                        assert action in actions, (action, seat, [c for c in controls])
            seat = rng.choice(waiting)
            legal = RULES.legal_actions(state, seat)
            # Random play that favours moving on, so games reach their ends and debts.
            weights = [
                0.2 if a.kind in ("deal", "give", "want", "cash", "ask", "drop", "unmort") else 1
                for a in legal
            ]
            action = rng.choices(legal, weights)[0]
            events = RULES.apply(state, seat, action)
            for line in presenter.lines(game, events):
                assert "{" not in line, line
            for event in events:
                kinds.add(event.kind)
                said = (
                    presenter.event_line(game, event) if event.public else presenter.private_line(game, event)
                )
                assert said and "{" not in said, event
            for s in range(players):
                for line in presenter.private_summary(game, s):
                    assert "{" not in line
    assert {"rent_due", "bought", "auction_won", "card_drawn", "salary", "offered", "mortgaged"} <= kinds, (
        kinds
    )


def test_one_line_for_rent_tax_and_cards() -> None:
    presenter = MonopolyPresenter(Catalog.load())
    state = MonopolyBuilder(2, seed=3).started(first=1).owns(0, "napa-valley").at(1, "napa-valley").build()
    game = fake_game(state, 2)
    lines = presenter.lines(game, turn.land(state, 1, 7))
    assert lines == ["p1 lands on Napa Valley (p0): pays $20 rent."]
    MonopolyBuilder.of(state).at(1, "income-tax")
    assert presenter.lines(game, turn.land(state, 1, 7)) == ["p1 lands on Income Tax: pays $200."]


def test_a_hotel_sold_down_with_its_group_says_what_stands_on_each_site() -> None:
    """The page's example (greens 4-4-hotel, two houses in the bank -> 3-3-4) in one line."""
    state = houses_left(built(table(), 2, {GREENS[0]: 4, GREENS[1]: 4, GREENS[2]: data.HOTEL}), 2, GREENS)
    game = fake_game(state, 3)
    events = RULES.apply(state, 2, Action("sell", (34,)))
    assert MonopolyPresenter(Catalog.load()).lines(game, events) == [
        "p2 sells the hotel on Pacific Coast Highway back, and with only a few houses in the bank the "
        "group comes down evenly: Golden Gate Park (3 houses), Lombard Street (3 houses) and Pacific "
        "Coast Highway (4 houses). p2 gets $300 for 3 buildings."
    ]


def test_debt_panel_offers_bankruptcy_only_when_nothing_covers_it() -> None:
    presenter = MonopolyPresenter(Catalog.load())
    state = RULES.setup(3, {}, 5)
    in_debt(state)
    game = fake_game(state, 3)
    opened = presenter.debt_panel(game, 0)
    assert "Declare bankruptcy…" not in [c.label for c in opened.controls if isinstance(c, Button)]
    assert presenter.bankrupt_panel(game, 0).text.startswith("Bankruptcy is open only")
    MonopolyBuilder.of(state).unowned("rodeo-drive")  # now at most $150 can be raised against $300
    opened = presenter.debt_panel(game, 0)
    assert "Declare bankruptcy…" in [c.label for c in opened.controls if isinstance(c, Button)]
    confirm = presenter.bankrupt_panel(game, 0)
    assert Action("bankrupt") in offered(confirm.controls)[0] and "cannot be undone" in confirm.text
    other = presenter.debt_panel(game, 2)
    assert other.text.startswith("p0 must raise money")
    # a stale holdings button on a debtor's panel redraws the debt panel; an answer its offer
    redrawn = presenter.panel_for(game, 0, Action("mort", (6,)))
    assert redrawn is not None and redrawn.text == opened.text
    answered = presenter.panel_for(game, 1, Action("accept", (9,)))
    assert answered is not None and answered.text == "Deal #9 is no longer open."
    assert presenter.panel_for(game, 1, Action("roll")) is None


def test_private_summary_and_props_panel() -> None:
    presenter = MonopolyPresenter(Catalog.load())
    state = RULES.setup(2, {}, 1)
    brown_and_haight(state)
    MonopolyBuilder.of(state).getout(1, "chance").owns(0, "lower-haight", mortgaged=True)
    game = fake_game(state, 2)
    summary = presenter.private_summary(game, 1)
    assert summary[0] == "**You have $1,500** (net worth $1,620). Get-out cards: Your Float Popped."
    assert summary[1] == "**Brown [Br]** (whole group): Route 66: rent $4; Mojave Desert: rent $8"
    mine = presenter.private_summary(game, 0)
    assert mine[1] == "**Light blue [Lb]** (1 of 3): Lower Haight: mortgaged (repay $55)"
    props = presenter.props_panel(game, 0)
    assert "Repay Lower Haight ($55)" in [c.label for c in props.controls if isinstance(c, Button)]
    assert presenter.private_summary(game, 7) == []


def test_rare_events_are_phrased() -> None:
    """Events random play seldom reaches (shortages, bankruptcy, building) have lines too."""
    presenter = MonopolyPresenter(Catalog.load())
    game = fake_game(RULES.setup(3, {}, 2), 3)
    samples = [
        Event("opening_tie", None, {"seats": [0, 2]}),
        Event("auction_unsold", None, {"item": "property", "price": 0, "space": 39, "token": "rodeo-drive"}),
        Event("auction_unsold", None, {"item": "house", "price": 0}),
        Event("auction_won", 1, {"item": "hotel", "price": 80}),
        Event(
            "bankrupt", 1, {"to_seats": [-1], "cash": 12, "spaces": [1, 3], "tokens": [], "cards": ["chance"]}
        ),
        Event("built", 0, {"space": 1, "token": "route-66", "item": "hotel", "price": 50, "level": 5}),
        Event(
            "sold_building", 0, {"space": 1, "token": "route-66", "item": "house", "refund": 25, "level": 3}
        ),
        Event("shortage", 0, {"item": "house", "supply": 1, "space": 1, "asked": [1, 2]}),
        Event("claimed", 1, {"item": "house", "space": 6}),
        Event("declined_claim", 2, {"item": "house"}),
        Event("shortage_closed", None, {"item": "house"}),
        Event("utility_roll", 1, {"dice": [2, 5], "total": 7}),
        Event("rent_claimable", 1, {"owner_seat": 0, "space": 24, "token": "napa-valley", "amount": 20}),
        Event("rent_forfeited", 1, {"owner_seat": 0, "space": 24, "token": "napa-valley", "amount": 20}),
        Event("in_debt", 1, {"owed": 1100, "cash": 40, "to_seats": [0], "reason": "rent"}),
        Event("game_over", None, {"reason": "bankruptcy", "winners": [0]}),
        Event("rent_collected", 1, {"owner_seat": 0, "space": 24, "token": "napa-valley", "amount": 20}),
        Event("bankrupt", 2, {"to_seats": [0], "cash": 0, "spaces": [], "tokens": [], "cards": []}),
    ]
    lines = [presenter.event_line(game, event) for event in samples]
    for line in lines:
        assert line and "{" not in line, line
    assert lines[1] == "Nobody bids: Rodeo Drive stays with the bank."
    assert (
        lines[4]
        == "p1 is bankrupt. Handed over to the bank: $12, Route 66, Mojave Desert and Your Float Popped."
    )
    assert lines[5] == "p0 builds a hotel on Route 66 for $50."
    assert lines[-2] == "p0 collects the rent for Napa Valley: p1 owes $20."
    assert lines[-1] == "p2 is bankrupt, with nothing left to hand over."
    assert lines[14] == (
        "p1 owes $1,100 to p0 (rent) but has $40: must raise $1,060 by selling, mortgaging or a deal."
    )


def test_a_debt_to_the_bank_is_named_on_the_table() -> None:
    """A debt's creditors are empty for the bank: the status names the bank, not "nobody"."""
    presenter = MonopolyPresenter(Catalog.load())
    state = RULES.setup(2, {}, 3)
    in_debt(state)
    state.debts[0] = Debt(0, [], 300, "tax")
    game = fake_game(state, 2)
    assert "p0 owes $300 to the bank and must raise it." in presenter.status(game, presenter.public(game))


# --- refusals in the table's language ---------------------------------------------------------------

PROBES = (
    "roll",
    "buy",
    "decline",
    "end",
    "fine",
    "card.chance",
    "card.tipjar",
    "bid.1",
    "bid.5000",
    "pass",
    "claim.1",
    "noclaim",
    "bankrupt",
    "keep.5",
    "lift.5",
    "rent.24",
    "send",
    "drop",
    *(
        f"{kind}.{pos}"
        for kind in ("build", "sell", "mort", "unmort", "give", "want")
        for pos in (0, 1, 5, 12, 37)
    ),
    "deal.0",
    "deal.1",
    "deal.9",
    "givec.chance",
    "wantc.tipjar",
    "cash.99999",
    "ask.99999",
    "cash.-1",
    "accept.1",
    "reject.2",
    "counter.1",
    "withdraw.1",
    "accept.99",
    "fly",
    "roll.3",
)
"""Moves tried by every seat at every step of random games: most are refused, for many reasons."""


def refusals_met() -> dict[str, IllegalAction]:
    """One refusal per reason, met by trying :data:`PROBES` over seeded random games."""
    met: dict[str, IllegalAction] = {}
    for seed in range(4):
        players = 3 + seed % 2
        rng = random.Random(seed)
        state = RULES.setup(players, {"turns": "8", "rent": "ask" if seed % 2 else "auto"}, seed)
        for _step in range(600):
            if RULES.outcome(state) is not None:
                break
            for seat in range(players):
                for text in PROBES:
                    action = Action.decode(text) if text != "cash.-1" else Action("cash", (-1,))
                    try:
                        RULES.apply(state, seat, action)  # a probe that is legal is simply played
                    except IllegalAction as exc:
                        met.setdefault(exc.key, exc)
            waiting = sorted(RULES.waiting_for(state))
            if not waiting:  # a probe ended the game (a bankruptcy)
                break
            seat = rng.choice(waiting)
            RULES.apply(state, seat, rng.choice(RULES.legal_actions(state, seat)))
    return met


def test_every_refusal_reads_whole_in_english_and_french() -> None:
    """Each reason met in play is a sentence in both languages: no blank left, no token shown raw,
    never the host's bare "not allowed" (which would mean the catalog lacks the key)."""
    catalog = Catalog.load()
    presenter = MonopolyPresenter(catalog)
    met = refusals_met()
    assert len(met) >= 35, sorted(met)
    game = fake_game(RULES.setup(4, {}, 1), 4)
    for language in ("en", "fr"):
        game.row.language = language
        fallback = catalog.text("host.refuse.illegal", language)
        for key, exc in met.items():
            text = presenter.illegal(game, exc, language)
            assert text != fallback and "{" not in text and "monopoly." not in text, (language, key, text)
            raw = [token for token in (*SPACE_TOKENS, *data.GROUPS) if re.search(rf"\b{token}\b", text)]
            assert not raw, (key, text)


SAMPLE_PARAMS: dict[str, object] = {
    "space": 37,
    "group": "darkblue",
    "to_seat": 1,
    "lot": "hotel",
    "offer": 2,
    **dict.fromkeys(("amount", "cash", "cost", "price", "owed"), 1500),
}
"""A value of each param an engine refusal carries, to word every reason without playing into it."""


def test_every_reason_the_engine_can_give_is_worded_from_its_params() -> None:
    """Every ``IllegalAction`` in ``rules/monopoly`` (read from the source), with sample params,
    reads whole in both languages: each param is one the presenter turns into words."""
    presenter = MonopolyPresenter(Catalog.load())
    game = fake_game(RULES.setup(3, {}, 1), 3)
    calls = raised(ROOT / "rules" / "monopoly")
    assert len({key for _where, _line, key, _params in calls}) >= 80
    for language in ("en", "fr"):
        game.row.language = language
        for _where, _line, key, params in calls:
            exc = IllegalAction(key, **{name: SAMPLE_PARAMS[name] for name in params})
            text = presenter.illegal(game, exc, language)
            assert "{" not in text and "monopoly." not in text and "darkblue" not in text, (key, text)
            if "space" in params:
                assert "Beverly Hills Hotel" in text, (key, text)
            if "to_seat" in params:
                assert "p1" in text, (key, text)


def test_refusals_name_spaces_groups_players_and_money_the_french_way() -> None:
    presenter = MonopolyPresenter(Catalog.load())
    game = fake_game(RULES.setup(3, {}, 1), 3)
    game.row.language = "fr"
    nbsp = "\u202f"
    said = {
        IllegalAction("need_group", space=37, group="darkblue"): (
            "Il vous faut tout le groupe Bleu foncé [Db] pour construire sur Beverly Hills Hotel."
        ),
        IllegalAction("not_theirs", space=4 + 1, to_seat=2): "Aéroport LAX n'appartient pas à p2.",
        IllegalAction("building_auction_first", lot="house"): (
            "Les enchères pour une maison doivent d'abord se terminer."
        ),
        IllegalAction("buy_short", space=39, price=400, cash=1250): (
            f"Rodeo Drive coûte 400 $ ; vous avez 1{nbsp}250 $."
        ),
        IllegalAction("buy_or_decline", space=12): (
            "Achetez d'abord Compagnie d'électricité ou mettez cette propriété aux enchères."
        ),
        IllegalAction("offer_countered", offer=3): (
            "Le marché n° 3 a été décliné pour une contre-proposition ; il n'est plus ouvert."
        ),
    }
    for exc, text in said.items():
        assert presenter.illegal(game, exc, "fr") == text
    game.row.language = "en"
    assert presenter.illegal(game, IllegalAction("need_group", space=37, group="darkblue"), "en") == (
        "You need the whole Dark blue [Db] group to build on Beverly Hills Hotel."
    )
    assert presenter.illegal(game, IllegalAction("bid_over_cash", cash=1500, amount=1501), "en") == (
        "You have $1,500; you cannot bid $1,501."
    )


# --- whole sentences in French ------------------------------------------------------------------------


def test_building_sentences_agree_with_their_noun_in_french() -> None:
    """A house and a hotel each have their own sentences (no "{item}s" slotted into one), so French
    says "une maison" / "un hôtel"; counts take the French plural ("0 essai")."""
    presenter = MonopolyPresenter(Catalog.load())
    state = RULES.setup(3, {}, 2)
    skip_opening(state, 0)
    game = fake_game(state, 3)
    game.row.language = "fr"
    nbsp = "\u202f"
    lines = [
        presenter.event_line(game, event)
        for event in (
            Event("built", 0, {"space": 1, "token": "route-66", "item": "hotel", "price": 50, "level": 5}),
            Event("built", 0, {"space": 1, "token": "route-66", "item": "house", "price": 50, "level": 1}),
            Event(
                "sold_building",
                0,
                {"space": 1, "token": "route-66", "item": "hotel", "refund": 25, "level": 4},
            ),
            Event(
                "sold_building",
                0,
                {"space": 1, "token": "route-66", "item": "house", "refund": 25, "level": 0},
            ),
            Event("shortage", 0, {"item": "hotel", "supply": 1, "space": 1, "asked": [1]}),
            Event("claimed", 1, {"item": "house", "space": 6}),
            Event("shortage_closed", None, {"item": "hotel"}),
        )
    ]
    assert lines == [
        "p0 construit un hôtel sur Route 66 pour 50 $.",
        "p0 construit une maison sur Route 66 pour 50 $ (désormais 1 maison).",
        "p0 revend l'hôtel de Route 66 pour 25 $ (désormais 4 maisons).",
        "p0 revend une maison de Route 66 pour 25 $ (désormais aucun bâtiment).",
        "p0 veut un hôtel pour Route 66, mais la banque n'en a plus que 1 : réclamations ouvertes pour p1.",
        "p1 réclame une maison pour Lower Haight.",
        "Les réclamations d'hôtels sont réglées.",
    ]
    MonopolyBuilder.of(state).at(0, "income-tax")
    assert "À p0 de lancer les dés (Impôt sur le revenu)." in presenter.status(game, presenter.public(game))
    assert f"p0 1{nbsp}500 $" in presenter.status(game, presenter.public(game))
    MonopolyBuilder.of(state).in_pool(0)
    assert "À p0 de lancer les dés (à la Pool Party, 0 essai jusqu'ici)." in presenter.status(
        game, presenter.public(game)
    )
    MonopolyBuilder.of(state).in_pool(0, tries=2)
    assert "(à la Pool Party, 2 essais jusqu'ici)" in presenter.status(game, presenter.public(game))
    game.row.language = "en"
    assert (
        presenter.event_line(
            game,
            Event(
                "sold_building",
                0,
                {"space": 1, "token": "route-66", "item": "house", "refund": 25, "level": 0},
            ),
        )
        == "p0 sells a house on Route 66 back for $25 (now no buildings)."
    )
    MonopolyBuilder.of(state).in_pool(0, tries=1)
    assert "(at the Pool Party, 1 try so far)" in presenter.status(game, presenter.public(game))
