"""Last Will's turn on the table (SimCord): what the player on turn can do is on the table itself.

- the Actions turn names its kinds of plays on the table ("Play a card…", "Buy a property…",
  "Lay a helper…", "Put a companion on a card…"), the board's moves and End turn; one click on a
  kind opens a private panel of just those plays, and one more click plays one;
- nothing public names a card in a hand: no label, custom_id or message of the table;
- a table errand that opens a choice shows that choice at once: one click on "Demotion" and the
  table offers the lines to cover; another seat's press of them is refused privately.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import discord
import simcord

from harness.messages import Table, labels, response_of, words_of
from rules.lastwill import RULES, LastWillRules, LastWillState, buy_price
from tests.cogs.lastwill_kit import HAND, Arranged, game_labels, options, public_json, state_of, status
from tests.cogs.test_lastwill_discord import errands_for_ana
from tests.rules.test_lastwill import actions_turn, hand, job, money, put, unemploy_all
from tests.simcord import ids, make_bot, open_table, panel, private_text, public_click, select_id

PLAY, BUY, LAY, TOKEN = "Play a card…", "Buy a property…", "Lay a helper…", "Put a companion on a card…"


def hidden_on(message: discord.Message, cards: set[str]) -> set[str]:
    """The cards of ``cards`` that a table message shows anywhere: its text, labels, options and
    custom_ids (ids split at their separators)."""
    words = " ".join(
        [words_of(message), *labels(message), *options(message).values(), *options(message), *ids(message)]
    )
    for mark in ".:|,":
        words = words.replace(mark, " ")
    return cards & set(words.split())


def actions_for_ana(state: LastWillState) -> None:
    """ana (a Doctor, £40) on turn with 3 actions: a Dinner, a Guest and a Chef in hand, a nuptial
    pair, a Farm to buy and a Waiter to lay; a Town House T4 on her board takes a Chef next."""
    unemploy_all(state)
    job(state, 0, "E1")
    for index in range(3):
        hand(state, index)
        money(state, index, 40)
    put(state, 0, "T4")
    hand(state, 0, "DIN10", "GST1", "CHF1", "ER1", "WG1", "F3", "WAI1")
    hand(state, 1, "F5", "THE1")
    actions_turn(state, 0, 3)


async def test_the_actions_turn_names_its_plays_on_the_table(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(Arranged(actions_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana, bob, _cy = table.players
        board = table.table_message()
        assert status(table)[0] == "Round 1 of 7 · Actions: ana's turn, 3 actions left."
        assert game_labels(board) == [PLAY, BUY, LAY, TOKEN, "End turn", HAND]
        assert options(board) == {
            "keep.T4": "Maintain Town House T4 (£3)",
            "sell.T4": f"Sell Town House T4 (+£{max(0, 15 + (await state_of(bot)).market['town'])})",
        }, "the board's own moves are public: a select on the table"
        hands = {card for player in (await state_of(bot)).players for card in player.hand}
        assert not hidden_on(board, hands), "no card of a hand on the table, its labels or its ids"

        # One click: the panel of just the events, Ball levels and nuptial sets in ana's hand.
        plays = panel(await ana.click(board, label=PLAY))
        assert words_of(plays).startswith("**Play a card** from your hand")
        assert "Your Actions turn: 3 actions left." in words_of(plays)
        assert "• **Dinner [DIN10]**: play: 1 action, spends £2" in words_of(plays)
        assert "Farm F3" not in words_of(plays) and "Chef" not in words_of(plays), "only this kind's cards"
        assert game_labels(plays) == [
            "Play Dinner: 1 action, £2",
            "Play Engagement Ring: 1 action, £4",
            "Play Wedding Gift: 1 action, £3",
            "Back",
            "Done",
        ]
        assert list(options(plays).values()) == ["Engagement Ring [ER1] + Wedding Gift [WG1]: 1 action, £7"]

        # The companion's panel: every card it fits, each a click that plays it.
        tokens = panel(await ana.click(table.table_message(), label=TOKEN))
        assert "• **Chef [CHF1]**" in words_of(tokens) and "• **Guest [GST1]**" in words_of(tokens)
        assert game_labels(tokens) == ["Chef on Town House T4 (makes it £5)", "Back", "Done"]
        cursor = len(env.http_requests)
        after = panel(await ana.click(tokens, label="Chef on Town House T4 (makes it £5)"))
        assert "ana puts a Chef token on Town House T4." in table.recent(1)
        assert words_of(after).startswith("**Your hand**") and "2 actions left" in words_of(after)
        assert (await state_of(bot)).players[0].board[0].tokens == ["chef"]
        seen = public_json(env, cursor)
        assert "DIN10" not in seen and "GST1" not in seen and "WAI1" not in seen, "hands stay secret"
        assert not hidden_on(table.table_message(), hands - {"CHF1"})

        # Buying and laying are each a click away too.
        buys = panel(await ana.click(table.table_message(), label=BUY))
        price = buy_price(await state_of(bot), 0, "F3", "farm")
        assert game_labels(buys) == [f"Buy Farm F3 for £{price}", "Back", "Done"]
        assert "• **Farm F3**: buy: " in words_of(buys) and "Dinner" not in words_of(buys)
        lays = panel(await ana.click(table.table_message(), label=LAY))
        assert game_labels(lays)[0].startswith("Lay Waiter: ")
        await ana.click(lays, label=game_labels(lays)[0])
        assert "ana lays Waiter" in table.recent(1)

        # Someone else's press of a kind opens their own hand, never ana's cards.
        theirs = panel(await bob.click(table.table_message(), label=PLAY))
        assert (
            words_of(theirs) == "It is ana's turn, not yours: nothing to play now. My hand… shows your cards."
        )
        assert game_labels(theirs) == ["Back", "Done"]
        await public_click(table, ana, "End turn")
        assert "bob's turn" in table.recent(2)


async def test_an_errand_that_opens_a_choice_shows_it_at_once(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(Arranged(errands_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana, bob, _cy = table.players
        await public_click(table, ana, "Demotion")
        board = table.table_message()
        lines = [
            "Cover Horse (−£3 income)",
            "Cover Dine (−£2 income)",
            "Cover Mask (−£1 income)",
            "Cover Guest (−£1 income)",
            "No demotion now",
        ]
        assert game_labels(board) == [*lines, HAND], "the click's answer is the table showing the choice"
        assert (
            status(table)[0]
            == "Round 1 of 7 · ana is choosing a line to cover (demotion from the demotion space)."
        )
        refused = await bob.click(board, label="Cover Horse (−£3 income)")
        assert (
            refused.ephemeral
            and private_text(refused) == "Another player is answering a choice; wait for them."
        )
        assert (await state_of(bot)).players[0].covered == [False, False, False, False]
        await public_click(table, ana, "Cover Dine (−£2 income)")
        assert "ana is demoted (the demotion space): the Dine line is covered, income −£2." in table.recent(2)
        assert status(table)[0] == "Round 1 of 7 · Errands, pass 1: bob sends an errand boy."
        state = await state_of(bot)
        assert state.players[0].covered == [False, True, False, False] and RULES.invariants(state) == []


async def test_demotion_or_extension_shows_its_choice_then_its_lines_at_once(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    """The demotion-or-extension errand asks on the table, and choosing the demotion shows the
    lines to cover there too: no private panel, no second click to find the choice."""
    lastwill_registered(Arranged(errands_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana, bob, _cy = table.players
        await public_click(table, ana, "Demotion or extension")
        board = table.table_message()
        assert game_labels(board)[:2] == ["A demotion", "A board extension"], game_labels(board)
        refused = await bob.click(board, label="A demotion")
        assert refused.ephemeral and (await state_of(bot)).pending is not None
        await public_click(table, ana, "A demotion")
        assert "ana chooses the demotion." in table.recent(2)
        assert "Cover Horse (−£3 income)" in game_labels(table.table_message())
        await public_click(table, ana, "Cover Dine (−£2 income)")
        state = await state_of(bot)
        assert state.players[0].covered == [False, True, False, False] and RULES.invariants(state) == []


async def test_the_nuptial_set_is_one_choice_of_the_sets_one_can_play(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(Arranged(actions_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana = table.players[0]
        plays = panel(await ana.click(table.table_message(), label=PLAY))
        value = "nupt.ER1.WG1"
        after = panel(await ana.select(plays, [value], custom_id=select_id(plays, value)))
        assert "ana plays Engagement Ring and Wedding Gift (1 action): spends £7." in table.recent(1)
        assert "2 actions left" in words_of(after)
        assert env is not None


async def test_a_french_actions_turn(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None], french_clients: set[int]
) -> None:
    """The same turn at a French table: the kinds of plays, their panel and its plays in French."""
    lastwill_registered(Arranged(actions_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        members = [guild.add_member(env.create_user(name)) for name in ("ana", "bob", "cy")]
        french_clients.update(m.id for m in members)
        lobby = response_of(
            await members[0].slash(channel, "game new", name="lastwill", language="fr")
        ).message
        for member in members[1:]:
            await member.click(lobby, label="Rejoindre")
        await members[0].click(lobby, label="Commencer")
        board = Table(env, channel, members).table_message()
        french = ("Me mettre à jour", "Annuler mon dernier coup")
        assert [label for label in labels(board) if label and label not in french] == [
            "Jouer une carte…",
            "Acheter une propriété…",
            "Poser une aide…",
            "Placer un compagnon sur une carte…",
            "Finir le tour",
            "Ma main…",
        ]
        tokens = panel(await members[0].click(board, label="Placer un compagnon sur une carte…"))
        assert words_of(tokens).startswith("**Placer un compagnon sur une carte** : une carte compagnon")
        assert [label for label in labels(tokens) if " sur " in label] == [
            "Cuisinier sur Maison de ville T4 (la porte à 5 £)"
        ]
        assert labels(tokens)[-2:] == ["Retour", "Terminé"]
