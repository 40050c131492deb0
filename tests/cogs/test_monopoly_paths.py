"""Monopoly paths the scripted SimCord tests do not reach, through the real bot (SimCord).

Each test arranges its position with an :class:`Arranged` ``setup`` (as ``test_monopoly_discord``
does) and then plays it by clicks on the table and on private panels:

- a deal countered from the table (the recipient's panel opens on the draft with the sides
  swapped), the counter withdrawn by its proposer, and the withdrawn offer's Accept refused;
- a building shortage: each seat asked gets Claim / No claim, and the window resolves by the
  rules (enough for every claimant: list price; too few: an auction among the claimants);
- mortgaged properties received in a deal: Keep (pay 10%) and Repay (in full) for the receiver;
- ``rent=ask``: the owner's Collect button, and its forfeit once the next player rolls;
- the Pool Party left with a get-out card, or by paying $50;
- bankruptcy from the debt panel behind its confirmation, then the final standings;
- a long "My properties" list paged by the host.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import simcord

from bot.client import GameBot
from harness.messages import Table, labels, words_of
from rules.monopoly import RULES, MonopolyRules, MonopolyState, data
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import Debt
from tests.cogs.test_monopoly_discord import Arranged
from tests.simcord import (
    button,
    make_bot,
    member_at,
    open_table,
    panel,
    pinned_seed,
    private_text,
    public_click,
    row_labels,
    saved_state,
    sound_state,
)

PROPS = "My properties"
NAPA = 24  # Napa Valley (orange)
HAIGHT, ASHBURY, CASTRO = 6, 8, 9  # the light blue group
ROUTE66, MOJAVE = 1, 3  # the brown group


fixed_seed = pinned_seed()


Register = Callable[[MonopolyRules], None]


async def sound(bot: GameBot) -> MonopolyState:
    """The saved state, checked against the game's conservation laws."""
    state: MonopolyState = await sound_state(bot, RULES)
    return state


# --- 1. a deal countered, then withdrawn ------------------------------------------------------


def haight_offered(state: MonopolyState) -> None:
    """Seat 0 (on turn) owns Lower Haight and offers it to seat 1 for $120 (offer #1)."""
    builder = MonopolyBuilder.of(state).started(first=0).owns(0, HAIGHT).offer(0, 1, give=[HAIGHT], ask=120)
    assert builder.offer_number(0, 1) == 1, "the test's buttons name deal #1"


async def test_counter_from_the_table_then_withdraw(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(haight_offered))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        ana, bob = await member_at(bot, table, 0), await member_at(bot, table, 1)
        board = table.table_message()
        assert {"Accept #1", "Reject #1", "Counter #1…", "Withdraw #1"} <= set(labels(board))

        # Counter on the table opens the offer privately; its Counter opens the draft, sides swapped.
        offer = panel(await bob.click(board, label="Counter #1…"))
        assert "**Deal #1** from ana to bob: Lower Haight for $120." in words_of(offer)
        assert {"Accept #1", "Reject #1", "Counter", "Done"} == set(labels(offer))
        nosy = panel(await ana.click(board, label="Counter #1…"))
        assert "Counter" not in labels(nosy) and "Withdraw #1" in labels(nosy), (
            "the proposer may only withdraw"
        )
        draft = panel(await bob.click(offer, label="Counter"))
        assert "**Your deal with ana**" in words_of(draft)
        assert "You give: $120" in words_of(draft) and "You ask for: Lower Haight" in words_of(draft)
        assert "bob turns down deal #1 from ana to make a counter-offer." in table.recent()
        board = table.table_message()
        assert "Accept #1" not in labels(board) and "Counter #1…" not in labels(board)
        state = await sound(bot)
        assert state.offers == [] and state.closed == {1: "countered"}

        # Bob sends the counter (deal #2); Ana opens it privately, then Bob withdraws it.
        sent = await bob.click(draft, label="Send deal")
        assert "Deal #2 is on the table; ana is asked to answer." in private_text(sent)
        assert "bob proposes deal #2 to ana: $120 for Lower Haight." in table.recent()
        board = table.table_message()
        assert {"Accept #2", "Reject #2", "Counter #2…", "Withdraw #2"} <= set(labels(board))
        assert f"<@{ana.id}>" in words_of(board)
        seen = panel(await ana.click(board, label="Counter #2…"))
        assert "Accept #2" in labels(seen)
        refused = await ana.click(board, label="Withdraw #2")
        assert refused.ephemeral and "Only the player who made deal #2 can withdraw it." in private_text(
            refused
        )
        await public_click(table, bob, "Withdraw #2")
        assert "bob withdraws deal #2 to ana." in table.recent()
        assert not any(
            label.endswith("#2") or label.endswith("#2…") for label in labels(table.table_message())
        )

        # The Accept still on Ana's private panel is refused, saying why; nothing moves.
        late = await ana.click(seen, label="Accept #2")
        assert late.ephemeral
        text = private_text(late)
        assert "Deal #2 was withdrawn; it is no longer open." in text, text
        state = await sound(bot)
        assert state.owner[HAIGHT] == 0 and state.cash == [1500, 1500] and state.offers == []
        assert "accepts" not in table.recent(3)


# --- 2. a building shortage -------------------------------------------------------------------


def short_of_houses(state: MonopolyState) -> None:
    """One house left in the bank (31 stand on seat 2's orange, red and yellow); seat 0 holds the
    brown group, seat 1 the light blue one, and seat 2 could still build on yellow."""
    (
        MonopolyBuilder.of(state)
        .started(first=0)
        .owns(0, ROUTE66, MOJAVE)
        .owns(1, HAIGHT, ASHBURY, CASTRO)
        .owns(2, 16, 18, 19, 21, 23, 24, houses=4)  # orange and red
        .owns(2, 26, 27, 29, houses=2)  # yellow at 3-2-2
        .owns(2, 26, houses=3)
        .bank_houses(1)
        .build()
    )


async def open_shortage(bot: GameBot, table: Table) -> tuple[Any, Any, Any]:
    requester, first, second = [await member_at(bot, table, s) for s in range(3)]
    props = panel(await requester.click(table.table_message(), label=PROPS))
    after = panel(await requester.click(props, label="House on Route 66 ($50)"))
    assert "Your house waits for the other claims" in words_of(after)
    assert (
        "ana wants a house for Route 66, but the bank has only 1: bob and cy may claim one too."
        in table.recent()
    )
    board = table.table_message()
    assert "The bank is short of houses (1 left)" in words_of(board)
    shown = set(labels(board))
    assert {
        "Claim a house: Lower Haight",
        "Claim a house: Haight-Ashbury",
        "Claim a house: Castro Street",
        "No claim",
    } <= shown, "each asked seat's sites"
    assert {"Claim a house: Sunset Blvd.", "Claim a house: Mulholland Drive"} <= shown, "cy's sites too"
    assert "Roll" not in shown, "the turn waits for the claims"
    return requester, first, second


async def test_shortage_nobody_else_claims(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(short_of_houses))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="monopoly")
        requester, first, second = await open_shortage(bot, table)
        board = table.table_message()
        wrong = await second.click(board, label="Claim a house: Lower Haight")
        assert wrong.ephemeral and private_text(wrong), "a site of someone else's is refused"
        outsider = await requester.click(board, label="No claim")
        assert outsider.ephemeral and "not asked" in private_text(outsider)
        await public_click(table, first, "No claim")
        assert "bob makes no claim." in table.recent()
        assert "No claim" in labels(table.table_message()), "cy is still asked"
        await public_click(table, second, "No claim")
        recent = table.recent(3)
        assert "cy makes no claim." in recent
        assert "ana builds a house on Route 66 for $50 (now 1 house)." in recent
        assert "The house claims are settled." in recent
        assert "Roll" in labels(table.table_message())
        state = await sound(bot)
        assert state.shortage is None and state.level[ROUTE66] == 1 and state.houses == 0
        assert state.cash[0] == 1450


async def test_shortage_claims_go_to_auction(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(short_of_houses))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="monopoly")
        requester, first, second = await open_shortage(bot, table)
        await public_click(table, first, "Claim a house: Haight-Ashbury")
        assert "bob claims a house for Haight-Ashbury." in table.recent()
        await public_click(table, second, "No claim")
        opened = "Up for auction (building shortage): a house. Open bidding for ana and bob, in any order;"
        assert opened in table.recent(3), "a shortage auction follows the table's mode (open by default)"
        board = table.table_message()
        assert "Pass" in labels(board) and {f"<@{requester.id}>", f"<@{first.id}>"} <= set(
            words_of(board).split()
        )
        await public_click(table, requester, "Bid $1")
        assert "ana bids $1." in table.recent()
        bids = [label for label in labels(table.table_message()) if label.startswith("Bid $")]
        assert bids[0] == "Bid $2", "the kit's quick bids start at the minimum raise"
        await public_click(table, first, bids[-1])
        assert f"bob bids {bids[-1].removeprefix('Bid ')} (outbids ana)." in table.recent()
        state = await saved_state(bot)
        assert state.auction is not None and state.auction.high_bidder == 1
        high = state.auction.high
        await public_click(table, requester, "Pass")
        recent = table.recent(3)
        assert f"bob wins a house for ${high}." in recent
        assert f"bob builds a house on Haight-Ashbury for ${high} (now 1 house)." in recent
        state = await sound(bot)
        assert state.shortage is None and state.auction is None
        assert state.level[ASHBURY] == 1 and state.level[ROUTE66] == 0 and state.cash[1] == 1500 - high
        assert "Roll" in labels(table.table_message())


# --- 3. mortgaged property received in a deal ---------------------------------------------------


def mortgaged_gift(state: MonopolyState) -> None:
    """Seat 0 offers seat 1 two mortgaged light blues (Lower Haight, Haight-Ashbury) for $10."""
    builder = (
        MonopolyBuilder.of(state)
        .started(first=0)
        .owns(0, HAIGHT, ASHBURY, mortgaged=True)
        .offer(0, 1, give=[HAIGHT, ASHBURY], ask=10)
    )
    assert builder.offer_number(0, 1) == 1, "the test's buttons name deal #1"
    assert state.offers[0].mortgaged == [HAIGHT, ASHBURY]


async def test_mortgaged_property_received_keep_or_lift(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(mortgaged_gift))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        ana, bob = await member_at(bot, table, 0), await member_at(bot, table, 1)
        await public_click(table, bob, "Accept #1")
        assert "bob accepts deal #1 from ana: Lower Haight, Haight-Ashbury for $10." in table.recent()
        board = table.table_message()
        keep_haight = f"Keep Lower Haight mortgaged (${data.fee(HAIGHT)})"
        lift_haight = f"Repay Lower Haight (${data.repay_cost(HAIGHT)})"
        keep_mission = f"Keep Haight-Ashbury mortgaged (${data.fee(ASHBURY)})"
        lift_mission = f"Repay Haight-Ashbury (${data.repay_cost(ASHBURY)})"
        assert {keep_haight, lift_haight, keep_mission, lift_mission} <= set(labels(board))
        assert "bob: keep a received mortgaged property mortgaged (pay 10%) or repay it." in words_of(board)
        assert "Roll" not in labels(board), "the turn waits for the receiver's choice"
        refused = await ana.click(board, label=keep_haight)
        assert refused.ephemeral and "You owe no mortgage interest on that property." in private_text(refused)

        await public_click(table, bob, keep_haight)
        assert f"bob keeps Lower Haight mortgaged: ${data.fee(HAIGHT)} interest due." in table.recent()
        assert f"bob pays ${data.fee(HAIGHT)} to the bank (mortgage interest)." in table.recent()
        board = table.table_message()
        assert keep_haight not in labels(board) and lift_mission in labels(board)
        assert "Roll" not in labels(board)

        await public_click(table, bob, lift_mission)
        assert f"bob repays the mortgage on Haight-Ashbury: ${data.repay_cost(ASHBURY)}." in table.recent()
        board = table.table_message()
        assert not any(label.startswith(("Keep ", "Repay ")) for label in labels(board))
        assert "Roll" in labels(board) and table.on_turn().id == ana.id
        state = await sound(bot)
        assert state.fees == [] and state.mortgaged[HAIGHT] and not state.mortgaged[ASHBURY]
        assert state.owner[HAIGHT] == state.owner[ASHBURY] == 1
        assert state.cash[1] == 1500 - 10 - data.fee(HAIGHT) - data.repay_cost(ASHBURY)
        assert state.cash[0] == 1510


# --- 4. rent=ask ------------------------------------------------------------------------------


def lands_on_napa(state: MonopolyState) -> None:
    """Seat 0 owns Napa Valley; seat 1 is on turn five spaces short of it and rolls 2 and 3."""
    MonopolyBuilder.of(state).started(first=1).owns(0, NAPA).at(1, NAPA - 5).next_dice((2, 3)).build()


async def rent_claimed(bot: GameBot, table: Table) -> tuple[Any, Any, Any, str]:
    owner, payer, third = [await member_at(bot, table, s) for s in range(3)]
    assert table.on_turn().id == payer.id
    await public_click(table, payer, "Roll")
    amount = data.BOARD[NAPA].rents[0]
    assert (
        f"bob lands on Napa Valley: ana may collect ${amount} rent before the next player rolls."
        in table.recent(3)
    )
    collect = f"Collect ${amount} rent: Napa Valley"
    board = table.table_message()
    assert {collect, "End turn"} <= set(labels(board))
    state = await sound(bot)
    assert state.claims and state.claims[0].owner == 0 and state.cash == [1500, 1500, 1500]
    return owner, payer, third, collect


async def test_rent_ask_collected_before_the_next_roll(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(lands_on_napa))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="monopoly", options="rent=ask")
        owner, payer, third, collect = await rent_claimed(bot, table)
        amount = data.BOARD[NAPA].rents[0]
        refused = await third.click(table.table_message(), label=collect)
        assert refused.ephemeral and "no rent to collect" in private_text(refused)
        await public_click(table, payer, "End turn")  # the window stays open past the lander's turn
        assert collect in labels(table.table_message()) and (await saved_state(bot)).turn == 2
        assert f"<@{owner.id}>" in words_of(table.table_message()), "the owner is asked too"
        await public_click(table, owner, collect)
        assert f"ana collects ${amount} rent from bob for Napa Valley." in table.recent()
        assert collect not in labels(table.table_message())
        state = await sound(bot)
        assert state.claims == [] and state.cash[:2] == [1500 + amount, 1500 - amount]


async def test_rent_ask_forfeited_when_the_next_player_rolls(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(lands_on_napa))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="monopoly", options="rent=ask")
        _owner, payer, third, collect = await rent_claimed(bot, table)
        amount = data.BOARD[NAPA].rents[0]
        await public_click(table, payer, "End turn")
        await public_click(table, third, "Roll")
        assert f"ana did not collect in time: bob keeps the ${amount} rent for Napa Valley." in table.recent(
            3
        )
        assert collect not in labels(table.table_message())
        state = await sound(bot)
        assert state.claims == [] and state.cash[1] == 1500


# --- 5. the Pool Party ------------------------------------------------------------------------


def at_the_pool(state: MonopolyState) -> None:
    """Seat 0 is on turn at the Pool Party (no try yet) holding Your Float Popped."""
    MonopolyBuilder.of(state).started(first=0).in_pool(0, tries=0).getout(0, "chance").build()


async def test_pool_party_use_card(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(at_the_pool))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        ana, bob = await member_at(bot, table, 0), await member_at(bot, table, 1)
        board = table.table_message()
        assert "ana to roll (at the Pool Party, 0 tries so far)." in words_of(board)
        assert row_labels(board)[:3] == ["Roll", "Pay $50", "Use Your Float Popped"]
        refused = await bob.click(board, label="Use Your Float Popped")
        assert refused.ephemeral and "not your turn" in private_text(refused).lower()
        await public_click(table, ana, "Use Your Float Popped")
        assert "ana leaves the Pool Party with a get-out card." in table.recent()
        board = table.table_message()
        assert "Roll" in labels(board) and "Pay $50" not in labels(board)
        assert not any(label.startswith("Use ") for label in labels(board))
        state = await sound(bot)
        assert state.pool[0] is None and state.getout["chance"] is None and state.cash[0] == 1500
        assert state.decks["chance"][-1] == data.GETOUT_CARD["chance"], "the card goes back under the deck"
        await public_click(table, ana, "Roll")
        assert "ana rolls " in table.recent(3) and "Pool Party:" not in table.recent(3)


async def test_pool_party_pay_fifty(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(at_the_pool))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        ana = await member_at(bot, table, 0)
        await public_click(table, ana, "Pay $50")
        recent = table.recent()
        assert "ana pays $50 to the bank (the Pool Party fine)." in recent
        assert "ana leaves the Pool Party by paying $50." in recent
        board = table.table_message()
        assert "Roll" in labels(board) and "Pay $50" not in labels(board)
        state = await sound(bot)
        assert state.pool[0] is None and state.cash[0] == 1450 and state.getout["chance"] == 0


# --- 6. bankruptcy and the final standings ------------------------------------------------------


def two_hopeless_debts(state: MonopolyState) -> None:
    """Seats 0 and 2 each owe seat 1 $300 rent with $100 in hand and nothing to sell; seat 0's turn."""
    MonopolyBuilder.of(state).started(first=0).cash(0, 100).cash(2, 100).owns(1, NAPA).build()
    for seat in (0, 2):
        state.debts.append(Debt(seat, [1], 300, "rent"))  # no builder step: debts come from play


async def declare_bankruptcy(table: Table, debtor: Any) -> None:
    opened = panel(await debtor.click(table.table_message(), label="Raise money…"))
    assert "You owe $300 to bob (rent).** You have $100; still to raise: **$200**" in words_of(opened)
    assert "you may declare bankruptcy" in words_of(opened)
    assert labels(opened) == ["Propose a deal", "Declare bankruptcy…", "Done"]
    confirm = panel(await debtor.click(opened, label="Declare bankruptcy…"))
    assert "**Declare bankruptcy?**" in words_of(confirm) and "cannot be undone" in words_of(confirm)
    assert labels(confirm) == ["Yes, declare bankruptcy", "Back"]
    back = panel(await debtor.click(confirm, label="Back"))
    assert "Declare bankruptcy…" in labels(back), "Back returns to the debt panel"
    confirm = panel(await debtor.click(back, label="Declare bankruptcy…"))
    done = await debtor.click(confirm, label="Yes, declare bankruptcy")
    assert done.acknowledged


async def test_bankruptcy_then_final_standings(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(two_hopeless_debts))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="monopoly")
        ana, bob, cy = [await member_at(bot, table, s) for s in range(3)]
        board = table.table_message()
        assert "ana owes $300 to bob and must raise it" in words_of(board)
        assert "cy owes $300 to bob and must raise it" in words_of(board)
        other = panel(await bob.click(board, label="Raise money…"))
        assert words_of(other).startswith("ana and cy must raise money")

        await declare_bankruptcy(table, ana)
        assert "ana is bankrupt. Handed over to bob: $100." in table.recent(3)
        board = table.table_message()
        assert (
            "~~ana~~ out" in words_of(board)
            and "bob $1,600" in words_of(board)
            and "cy $100" in words_of(board)
        )
        assert "cy owes $300 to bob" in words_of(board) and "ana owes" not in words_of(board)
        out = await ana.click(board, label="Raise money…")
        assert out.ephemeral
        state = await sound(bot)
        assert state.alive == [False, True, True] and state.turn == 1, "the turn passed on"

        await declare_bankruptcy(table, cy)
        final = table.table_message()
        assert "cy is bankrupt. Handed over to bob: $100." in table.recent(3)
        assert "Game over: only one player is left." in table.recent(3)
        assert "Final standings:" in words_of(final)
        assert "**1.** bob" in words_of(final)
        for player in (ana, bob, cy):
            assert f"<@{player.id}>" in words_of(final), "the final message pings everyone"
        assert set(labels(final)) == {"Catch me up", "Rematch"}
        game = await bot.sessions.load(1)
        assert game.status == "finished"
        state = await sound(bot)
        assert state.alive == [False, True, False] and state.cash[1] == 1700


# --- 7. a long "My properties" list, paged -------------------------------------------------------


def owns_everything(state: MonopolyState) -> None:
    """Seat 1 holds every property (far more buttons than one message holds); seat 0's turn."""
    MonopolyBuilder.of(state).started(first=0).owns(1, *data.PROPERTIES).build()


async def test_long_property_list_is_paged(tmp_path: Path, registered: Register) -> None:
    registered(Arranged(owns_everything))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="monopoly")
        bob = await member_at(bot, table, 1)
        first = panel(await bob.click(table.table_message(), label=PROPS))
        shown = labels(first)
        assert shown[-3] == "◀" and shown[-1] == "▶" and shown[-2].startswith("1/")
        pages = int(shown[-2].split("/")[1])
        assert pages >= 2
        assert button(first, "◀").disabled and not button(first, "▶").disabled
        assert "**Dark blue" in words_of(first) and "**Brown" in words_of(first), "every group is listed"
        seen = set(shown[:-3])
        current = first
        for number in range(2, pages + 1):
            current = panel(await bob.click(current, label="▶"))
            assert f"{number}/{pages}" in labels(current)
            seen |= set(labels(current)[:-3])
        assert button(current, "▶").disabled and not button(current, "◀").disabled
        assert "Done" in labels(current) and "Propose a deal" in labels(current), "the list ends with them"
        for pos, space in enumerate(data.BOARD):
            if space.price:
                value = data.mortgage_value(pos)
                assert f"Mortgage {space.name} (+${value:,})" in seen, space.name
        back = panel(await bob.click(current, label="◀"))
        assert f"{pages - 1}/{pages}" in labels(back)
        # a button on a later page works and the panel stays open
        target = next(label for label in labels(back) if label.startswith("Mortgage "))
        after = panel(await bob.click(back, label=target))
        assert "bob mortgages " in table.recent()
        assert target not in labels(after)
        assert await sound(bot)
