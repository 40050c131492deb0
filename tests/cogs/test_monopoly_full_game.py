"""One whole 4-player game of Monopoly California Dreaming, every move a click, through SimCord.

The other Monopoly Discord tests each reach one path from a position made for it.  This one
plays a single game from ``/game new`` (options ``turns=3 rent=ask auction=round``: its auctions
are the round-robin ones; ``test_monopoly_open_auction.py`` plays the open ones) to the final standings,
so the paths must also work *after* one another: a deal, a shortage, an auction, a rent
collected on request and a bankruptcy leave the table in a state the next step and the free
play after them still accept, and the game still ends by the rules.

What is arranged (an :class:`Arranged` ``setup``, through ``MonopolyBuilder``), and why:

- ``started(first=ANA)``: ana starts.  Who starts is otherwise the opening rolls' choice, and the
  arrangement must know whose dice come first (see the last point).
- dee owns orange and red with four houses on each site (24 houses): rents of $750-$925, so a
  landing there costs a fortune.  bob owns light blue with 3, 2, 2 houses (7 more), so the bank
  holds 1 house and two seats could build one (ana on brown, bob on light blue): a building
  shortage in one click.  dee cannot claim it: her next buildings would be hotels.
- bob holds LAX Airport mortgaged (for a deal that moves a mortgaged property); cy has $150,
  SFO Airport (mortgaged), Water Works and the Party Canceled card: whatever she lands on at
  dee's costs more than she could ever raise, and all of it passes to dee when she goes bankrupt.
- Tokens: the dice are seeded (``fixed_seed`` pins the table seed), so ``setup`` peeks at the
  first three rolls and puts ana, bob and cy where those rolls land them on Santa Monica Pier
  (unowned: ana declines it, "Auction it"), on Big Sur (dee's: rent on request) and on Napa
  Valley (dee's: cy's ruin).  dee starts on GO.

From then on every move is a click on a button, select or form the bot shows, and the game
plays out by the rules.  The plot:

1. ana, before her first roll, proposes a deal to bob ("Propose a deal"): $60 for his
   mortgaged LAX Airport; bob accepts on the table; ana, the receiver, must choose "Keep LAX
   Airport mortgaged ($10)" or "Repay LAX Airport ($110)" before the game goes on: she keeps it.
2. ana asks for a house on Route 66 ("My properties"): the bank has 1, bob may claim one
   too, he claims, and the house goes to an auction between ana (a typed bid) and bob (a
   quick bid), which bob wins; it goes on the site he claimed.
3. ana rolls onto Santa Monica Pier and presses "Auction it"; everyone bids in turn, dee
   wins with a typed bid.
4. bob rolls onto Big Sur: with ``rent=ask`` nothing is paid until dee presses "Collect $750
   rent: Big Sur".
5. cy rolls onto Napa Valley; dee collects $925; cy opens "Raise money…", mortgages Water Works,
   then declares bankruptcy (behind its confirmation).  Her cash, SFO Airport, Water Works
   (both mortgaged) and her card go to dee, who repays one mortgage and keeps the other.
6. Free play (:func:`play_on`, a simple policy reading the saved state) until the third round
   ends the game, then the final standings, ranked by net worth.

Each step checks the saved state (with the engine's conservation laws) and the one public line
a reader of the thread sees for it.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import GameBot
from harness.messages import Table, controls, labels, words_of
from rules.monopoly import RULES, MonopolyRules, MonopolyState, data
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import OVER, Fee
from rules.rng import Rng
from tests.cogs.test_monopoly_discord import (
    Arranged,
    fixed_seed,  # noqa: F401  (autouse: pins the table seed, so the dice and the game repeat)
)
from tests.cogs.test_monopoly_paths import sound
from tests.simcord import (
    make_bot,
    member_at,
    open_table,
    panel,
    playable,
    private_text,
    public_click,
    row_labels,
    select_id,
)

ANA, BOB, CY, DEE = range(4)
ROUTE66, MOJAVE, LAX = 1, 3, 5
HAIGHT, ASHBURY, CASTRO = 6, 8, 9
PIER, SFO, BIG_SUR, NAPA, WATER = 13, 15, 16, 24, 28
ORANGE, RED = (16, 18, 19), (21, 23, 24)
CY_CASH = 150
TURNS = 3
FIRST_LANDINGS = {ANA: PIER, BOB: BIG_SUR, CY: NAPA}
"""Where each seat's first roll ends, in turn order from ana (dee's first roll is left free)."""
SEED = 20261125  # what ``fixed_seed`` makes the lobby draw
DEAL_CASH, HOUSE_BID, PIER_BID = 60, 40, 100


def name(pos: int) -> str:
    return data.BOARD[pos].name


def money(amount: int) -> str:
    """Dollars as the bot writes them: ``$1,500``."""
    return f"${amount:,}"


def arranged_start(state: MonopolyState) -> None:
    """The start described in the module docstring (applied again by any replay of the game)."""
    (
        MonopolyBuilder.of(state)
        .started(first=ANA)
        .owns(DEE, *ORANGE, *RED, houses=data.MAX_HOUSES)
        .owns(BOB, HAIGHT, ASHBURY, CASTRO, houses=2)
        .owns(BOB, HAIGHT, houses=3)
        .owns(BOB, LAX, mortgaged=True)
        .owns(ANA, ROUTE66, MOJAVE)
        .owns(CY, SFO, mortgaged=True)
        .owns(CY, WATER)
        .getout(CY, "tipjar")
        .bank_houses(1)
        .cash(CY, CY_CASH)
    )
    peek = Rng(state.rng.seed, state.rng.draws)
    for seat, target in FIRST_LANDINGS.items():
        dice = [peek.below(6) + 1, peek.below(6) + 1]
        assert dice[0] != dice[1], f"seat {seat} would roll doubles (another roll follows): change the seed"
        MonopolyBuilder.of(state).at(seat, target - sum(dice))  # never below GO: every target is past 12


@dataclass
class Cast:
    """The bot, the table thread and the four members, by seat."""

    bot: GameBot
    table: Table
    ana: Any
    bob: Any
    cy: Any
    dee: Any

    def recent(self) -> str:
        """The live table and the lines folded above it (where a move's lines appear)."""
        return self.table.recent(3)

    async def state(self) -> MonopolyState:
        """The saved state, checked against the engine's conservation laws."""
        return await sound(self.bot)

    def at(self, seat: int) -> Any:
        return (self.ana, self.bob, self.cy, self.dee)[seat]


def option_note(message: discord.Message, value: str) -> str:
    """The description under a select option: what a player reads before picking it."""
    for child in controls(message):
        for option in getattr(child, "options", None) or []:
            if option.value == value:
                return str(option.description)
    raise AssertionError(f"no select option {value!r}")


async def type_amount(player: Any, message: Any, label: str, amount: int) -> Any:
    """Open the form behind ``label`` and submit ``amount`` (a bid, or a deal's cash)."""
    shown = await player.click(message, label=label)
    assert shown.modal is not None, f"{label} opens a form"
    return await player.submit_modal(shown, {"value": str(amount)})


# --- the milestones ----------------------------------------------------------------------------


async def deal_for_a_mortgaged_airport(cast: Cast) -> None:
    """A deal moves a mortgaged property, and its receiver settles the 10% before play resumes."""
    ana, bob = cast.ana, cast.bob
    whom = panel(await ana.click(cast.table.table_message(), label="Propose a deal"))
    draft = panel(await ana.click(whom, label=bob.name))
    note = option_note(draft, f"want.{LAX}")
    assert note == f"Airports [Ap] · mortgaged: the receiver pays {money(data.fee(LAX))} or repays", note
    select = select_id(draft, f"want.{LAX}")
    draft = panel(await ana.select(draft, [f"want.{LAX}"], custom_id=select))
    draft = panel(await type_amount(ana, draft, "Cash you give…", DEAL_CASH))
    assert f"You give: {money(DEAL_CASH)}\nYou ask for: LAX Airport" in words_of(draft)
    sent = await ana.click(draft, label="Send deal")
    assert "Deal #1 is on the table; bob is asked to answer." in private_text(sent)
    assert f"ana proposes deal #1 to bob: {money(DEAL_CASH)} for LAX Airport." in cast.recent()

    await public_click(cast.table, bob, "Accept #1")
    assert f"bob accepts deal #1 from ana: {money(DEAL_CASH)} for LAX Airport." in cast.recent()
    board = cast.table.table_message()
    keep, lift = f"Keep LAX Airport mortgaged ({money(data.fee(LAX))})", "Repay LAX Airport ($110)"
    assert {keep, lift} <= set(labels(board)) and "Roll" not in labels(board), "the turn waits"
    assert "ana: keep a received mortgaged property mortgaged (pay 10%) or repay it." in words_of(board)
    state = await cast.state()
    assert state.owner[LAX] == ANA and state.mortgaged[LAX] and state.fees == [Fee(ANA, LAX)]

    await public_click(cast.table, ana, keep)
    assert "ana keeps LAX Airport mortgaged: $10 interest due." in cast.recent()
    assert "ana pays $10 to the bank (mortgage interest)." in cast.recent()
    state = await cast.state()
    assert state.fees == [] and state.mortgaged[LAX]
    assert state.cash[:2] == [data.START_CASH - DEAL_CASH - data.fee(LAX), data.START_CASH + DEAL_CASH]
    assert row_labels(cast.table.table_message())[0] == "Roll"


async def shortage_auction(cast: Cast) -> None:
    """The last house, wanted by two seats, is auctioned between them and placed on the winner's
    claimed site; the seat that cannot build a house (dee: hotels next) is not asked."""
    ana, bob = cast.ana, cast.bob
    before = (await cast.state()).cash[:]
    props = panel(await ana.click(cast.table.table_message(), label="My properties"))
    assert "**Brown [Br]** (whole group)" in words_of(props)
    assert "LAX Airport: mortgaged (repay $110)" in words_of(props), "the deal's airport is listed"
    after = panel(await ana.click(props, label="House on Route 66 ($50)"))
    assert "Your house waits for the other claims" in words_of(after)
    assert "ana wants a house for Route 66, but the bank has only 1: bob may claim one too." in cast.recent()
    board = cast.table.table_message()
    assert "The bank is short of houses (1 left): bob may claim one." in words_of(board)
    assert set(labels(board)) >= {
        "Claim a house: Haight-Ashbury",
        "Claim a house: Castro Street",
        "No claim",
    }, "bob's two sites that may take the next house (even building)"
    window = (await cast.state()).shortage
    assert window is not None and window.asked == [BOB] and window.supply == 1

    await public_click(cast.table, bob, "Claim a house: Haight-Ashbury")
    assert "bob claims a house for Haight-Ashbury." in cast.recent()
    assert "Up for auction (building shortage): a house. Bidding order: ana and bob." in cast.recent()
    board = cast.table.table_message()
    assert "Auction of a house: no bid yet · ana bids next." in words_of(board)
    bid = await type_amount(ana, board, "Other amount…", HOUSE_BID)
    assert bid.acknowledged and not bid.ephemeral
    assert f"ana bids {money(HOUSE_BID)}." in cast.recent()
    await public_click(cast.table, bob, f"Bid {money(HOUSE_BID + 1)}")
    await public_click(cast.table, ana, "Pass")
    price = HOUSE_BID + 1
    recent = cast.recent()
    assert f"bob wins a house for {money(price)}." in recent
    assert f"bob builds a house on Haight-Ashbury for {money(price)} (now 3 houses)." in recent
    assert "The house claims are settled." in recent
    state = await cast.state()
    assert state.shortage is None and state.auction is None and state.houses == 0
    assert state.level[ASHBURY] == 3 and state.level[ROUTE66] == 0
    assert state.cash == [before[ANA], before[BOB] - price, *before[2:]], "the winner pays the bid"
    assert row_labels(cast.table.table_message())[0] == "Roll", "back to ana's turn"


async def declined_property_auction(cast: Cast) -> None:
    """Declining an unowned property auctions it to everyone, the decliner included, in turn
    order from the decliner's left; the last bidder standing pays their bid."""
    ana, bob, cy, dee = cast.ana, cast.bob, cast.cy, cast.dee
    await public_click(cast.table, ana, "Roll")
    state = await cast.state()
    a, b = state.dice
    assert f"ana rolls {a} + {b} and moves to Santa Monica Pier." in cast.recent()
    board = cast.table.table_message()
    assert "ana landed on Santa Monica Pier: buy it for $140 or send it to auction." in words_of(board)
    assert {"Buy for $140", "Auction it"} <= set(labels(board))

    await public_click(cast.table, ana, "Auction it")
    assert (
        "Up for auction (not bought): Santa Monica Pier. Bidding order: bob, cy, dee and ana."
        in cast.recent()
    )
    await public_click(cast.table, bob, "Bid $1")
    refused = await ana.click(cast.table.table_message(), label="Bid $3")
    assert refused.ephemeral and "not your turn" in private_text(refused).lower(), "cy bids next"
    await public_click(cast.table, cy, "Pass")
    await type_amount(dee, cast.table.table_message(), "Other amount…", PIER_BID)
    assert f"dee bids {money(PIER_BID)}." in cast.recent()
    await public_click(cast.table, ana, "Pass")
    await public_click(cast.table, bob, "Pass")
    assert f"dee wins Santa Monica Pier for {money(PIER_BID)}." in cast.recent()
    state = await cast.state()
    assert state.owner[PIER] == DEE and state.auction is None
    assert state.cash[DEE] == data.START_CASH - PIER_BID, "the last bidder standing pays their bid"
    await public_click(cast.table, ana, "End turn")
    assert "Turn 1 for **bob**." in cast.recent()


async def rent_on_request(cast: Cast) -> None:
    """``rent=ask``: the landing only opens a claim; the owner's Collect button takes the rent."""
    bob, dee = cast.bob, cast.dee
    rent = data.BOARD[BIG_SUR].rents[4]
    before = (await cast.state()).cash[:]
    await public_click(cast.table, bob, "Roll")
    line = f"bob lands on Big Sur: dee may collect {money(rent)} rent before the next player rolls."
    assert line in cast.recent()
    board = cast.table.table_message()
    collect = f"Collect {money(rent)} rent: Big Sur"
    assert {collect, "End turn"} <= set(labels(board)) and f"<@{dee.id}>" in words_of(board)
    assert f"dee may collect {money(rent)} rent from bob (Big Sur) until the next roll." in words_of(board)
    state = await cast.state()
    assert state.cash == before and len(state.claims) == 1, "nothing is paid before dee asks"
    refused = await bob.click(board, label=collect)
    assert refused.ephemeral and "no rent to collect" in private_text(refused), "only the owner collects"

    await public_click(cast.table, dee, collect)
    assert f"dee collects {money(rent)} rent from bob for Big Sur." in cast.recent()
    assert collect not in labels(cast.table.table_message())
    state = await cast.state()
    assert state.claims == [] and state.cash[BOB] == before[BOB] - rent
    assert state.cash[DEE] == before[DEE] + rent
    await public_click(cast.table, bob, "End turn")


async def bankruptcy_to_dee(cast: Cast) -> None:
    """A debtor whose sales and mortgages cannot cover a rent declares bankruptcy from the debt
    panel; the creditor gets the cash, every property (mortgages kept, 10% or repay each) and
    the card, and the turn passes on."""
    cy, dee = cast.cy, cast.dee
    rent = data.BOARD[NAPA].rents[4]
    dee_before = (await cast.state()).cash[DEE]
    await public_click(cast.table, cy, "Roll")
    await public_click(cast.table, dee, f"Collect {money(rent)} rent: Napa Valley")
    short = rent - CY_CASH
    assert (
        f"cy owes {money(rent)} to dee (rent) but has {money(CY_CASH)}: must raise {money(short)} "
        "by selling, mortgaging or a deal." in cast.recent()
    )
    board = cast.table.table_message()
    assert f"cy owes {money(rent)} to dee and must raise it." in words_of(board)
    assert "Roll" not in labels(board) and "End turn" not in labels(board), "the game waits for cy"

    opened = panel(await cy.click(board, label="Raise money…"))
    assert f"You owe {money(rent)} to dee (rent).** You have $150; still to raise: **$775**" in words_of(
        opened
    )
    assert labels(opened) == [
        "Mortgage Water Works (+$75)",
        "Propose a deal",
        "Declare bankruptcy…",
        "Done",
    ], "what can still be raised, and bankruptcy, since it could not cover $925"
    opened = panel(await cy.click(opened, label="Mortgage Water Works (+$75)"))
    assert "You have $225; still to raise: **$700**" in words_of(opened)
    confirm = panel(await cy.click(opened, label="Declare bankruptcy…"))
    assert "cannot be undone" in words_of(confirm)
    done = await cy.click(confirm, label="Yes, declare bankruptcy")
    assert done.acknowledged and "You are out of the game" in private_text(done)
    assert (
        "cy is bankrupt. Handed over to dee: $225, SFO Airport, Water Works and Party Canceled."
        in cast.recent()
    )
    board = cast.table.table_message()
    assert "~~cy~~ out" in words_of(board)
    out = panel(await cy.click(board, label="My properties"))
    assert "You are out of the game (bankrupt)." in words_of(out) and labels(out) == ["Done"]
    sfo_keep, sfo_lift = "Keep SFO Airport mortgaged ($10)", "Repay SFO Airport ($110)"
    water_keep, water_lift = "Keep Water Works mortgaged ($8)", "Repay Water Works ($83)"
    assert {sfo_keep, sfo_lift, water_keep, water_lift} <= set(labels(board))
    state = await cast.state()
    assert state.alive == [True, True, False, True] and state.out == [CY] and state.turn == DEE
    assert state.owner[SFO] == state.owner[WATER] == DEE and state.mortgaged[SFO] and state.mortgaged[WATER]
    assert state.getout["tipjar"] == DEE and state.debts == []
    assert state.fees == [Fee(DEE, SFO), Fee(DEE, WATER)]
    assert state.cash[CY] == 0 and state.cash[DEE] == dee_before + 225

    await public_click(cast.table, dee, sfo_lift)
    assert "dee repays the mortgage on SFO Airport: $110." in cast.recent()
    await public_click(cast.table, dee, water_keep)
    assert "dee keeps Water Works mortgaged: $8 interest due." in cast.recent()
    state = await cast.state()
    assert state.fees == [] and not state.mortgaged[SFO] and state.mortgaged[WATER]
    assert state.cash[DEE] == dee_before + 225 - 110 - 8
    board = cast.table.table_message()
    assert row_labels(board)[0] == "Roll" and "dee to roll (GO)." in words_of(board)


# --- free play --------------------------------------------------------------------------------


async def play_on(cast: Cast, limit: int = 300) -> int:
    """Play by a simple policy until the table closes; returns the number of clicks.

    Read from the saved state, the way a player reads the table: pass in auctions, make no
    shortage claims, raise a debt by the first sale or mortgage the debt panel offers (or go
    bankrupt when it offers that), keep received mortgages, collect every rent at once, buy
    what leaves $400 in hand and auction the rest, roll, end the turn.  Every click must be a
    public move (``public_click`` fails on a private refusal) and keep the state sound.
    """
    table = cast.table
    for clicks in range(limit):
        board = table.table_message()
        if not playable(board):
            return clicks
        state = await cast.state()
        shown = labels(board)
        if state.auction is not None:
            await public_click(table, cast.at(state.auction.turn), "Pass")
        elif state.shortage is not None:
            await public_click(table, cast.at(state.shortage.asked[0]), "No claim")
        elif state.debts:
            debtor = cast.at(state.debts[0].debtor)
            opened = panel(await debtor.click(board, label="Raise money…"))
            if "Declare bankruptcy…" in labels(opened):
                confirm = panel(await debtor.click(opened, label="Declare bankruptcy…"))
                assert (await debtor.click(confirm, label="Yes, declare bankruptcy")).acknowledged
            else:
                step = next(b for b in labels(opened) if b.startswith(("Sell ", "Mortgage ")))
                assert (await debtor.click(opened, label=step)).acknowledged
        elif state.fees:
            fee = state.fees[0]
            keep = f"Keep {name(fee.pos)} mortgaged ({money(data.fee(fee.pos))})"
            await public_click(table, cast.at(fee.seat), keep)
        elif state.claims:
            claim = state.claims[0]
            collect = f"Collect {money(claim.amount)} rent: {name(claim.pos)}"
            await public_click(table, cast.at(claim.owner), collect)
        else:
            assert not state.offers, "free play makes no deals"
            mover = cast.at(state.turn)
            buy = next((b for b in shown if b.startswith("Buy for $")), None)
            if buy is not None:
                price = data.BOARD[state.position[state.turn]].price
                await public_click(
                    table, mover, buy if state.cash[state.turn] - price >= 400 else "Auction it"
                )
            elif "Roll" in shown:
                await public_click(table, mover, "Roll")
            elif "End turn" in shown:
                await public_click(table, mover, "End turn")
            else:
                raise AssertionError(f"nothing to press in {shown}: {words_of(board)}")
    raise AssertionError(f"the game did not end within {limit} clicks")


# --- the game ---------------------------------------------------------------------------------


async def test_a_whole_game_by_clicks(tmp_path: Path, registered: Callable[[MonopolyRules], None]) -> None:
    """Deal, shortage, auction, rent on request, bankruptcy, free play, final standings."""
    registered(Arranged(arranged_start))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(
            env, ["ana", "bob", "cy", "dee"], game="monopoly", options=f"turns={TURNS} rent=ask auction=round"
        )
        members = [await member_at(bot, table, seat) for seat in range(4)]
        assert [m.name for m in members] == ["ana", "bob", "cy", "dee"]
        cast = Cast(bot, table, *members)
        assert (await bot.sessions.load(1)).row.seed == SEED, "the seed is pinned, so the game repeats"
        board = table.table_message()
        assert "ana to roll" in words_of(board) and "cy $150" in words_of(board)
        state = await cast.state()
        assert state.turns_limit == TURNS and state.rent_mode == "ask"

        await deal_for_a_mortgaged_airport(cast)
        await shortage_auction(cast)
        await declined_property_auction(cast)
        await rent_on_request(cast)
        await bankruptcy_to_dee(cast)
        clicks = await play_on(cast)
        assert clicks > 10, "the game went on after the scripted round"

        state = await cast.state()
        assert state.phase == OVER and (await bot.sessions.load(1)).status == "finished"
        why = {
            "turns": "Game over: the round limit is reached; the richest by net worth wins.",
            "bankruptcy": "Game over: only one player is left.",
        }[state.reason]
        assert why in table.recent(2)
        if state.reason == "turns":
            assert min(t for t, alive in zip(state.turns_taken, state.alive, strict=True) if alive) == TURNS

        final = table.messages()[-1]
        assert "**Monopoly California Dreaming** · table #1 is over. Final standings:" in words_of(final)
        assert set(labels(final)) == {"Catch me up", "Rematch"} and not playable(final)
        for member in members:
            assert f"<@{member.id}>" in words_of(final), "the final message pings everyone"
        outcome = RULES.outcome(state)
        assert outcome is not None and outcome.ranks[CY] == 4, "the bankrupt seat ranks last"
        worth = [seat["net_worth"] for seat in RULES.view(state, None)["seats"]]
        standings = [
            line for line in words_of(final).splitlines() if line.startswith("**") and ".** " in line
        ]
        order = sorted(range(4), key=lambda s: (outcome.ranks[s], s))
        assert len(standings) == 4, standings
        for line, s in zip(standings, order, strict=True):
            assert line.startswith(f"**{outcome.ranks[s]}.** {members[s].name}: "), (line, outcome)
            # A person's line ends with their rating and its change (" — 1,060 (+60)").
            standing, _, rating = line.partition(" — ")
            assert re.fullmatch(r"[\d,]+ \((\+\d+|−\d+|±0)\)", rating), line
            if state.alive[s]:
                worth_and_cash = f"{money(worth[s])} ({money(state.cash[s])} in cash)"
                assert standing.endswith(worth_and_cash), "net worth and cash read as money"
            else:
                assert standing.endswith(": $0 (bankrupt)"), line
        alive = [s for s in range(4) if state.alive[s]]
        assert order[0] == max(alive, key=lambda s: worth[s]), "the richest by net worth wins"

        caught = await cast.dee.click(final, label="Catch me up")
        assert f"**You have {money(state.cash[DEE])}**" in private_text(caught), "own holdings after the end"
