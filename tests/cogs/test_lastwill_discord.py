"""Last Will with Getting the Sack through the real discord.py path (SimCord).

Last Will is registered for each test with a stand-in board (``lastwill_registered`` in
``tests/cogs/conftest.py``) until its renderer lands.  Positions a test needs (an Actions turn
with a companion in hand, an errand turn) are arranged by a ``LastWillRules`` whose ``setup``
places them, so a restart rebuilds the same game.

- the round-1 discard chosen by several players at once, each on a private multi-select, the
  table naming who is still choosing; then the planning buttons and the drawing split (Back,
  Confirm); an illegal click answered privately with the engine's sentence
- errands from the table (an offering slot, the demotion space) and the demotion's choice, on the
  table at once (and privately from the hand)
- an event played with companions (a private step with Back), a companion token (which card:
  a step with Back), a nuptial set (a multi-select), each with its one log line
- "My hand" for any seated player at any time, "Catch me up", a spectator refused
- a restart in the middle of a round keeps the table, the panels and the state
- ``/game rules lastwill``: the summary, the options and every chosen ruling, in several messages
- a French table: status, buttons, panels and log in French, a French player's refusal in French
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import simcord

from bot.core.i18n import Catalog
from harness.messages import Table, labels, response_of, words_of
from rules.lastwill import RULES, LastWillRules, LastWillState, data
from tests.cogs.lastwill_kit import HAND, Arranged, game_labels, options, public_json, state_of, status
from tests.rules.test_lastwill import actions_turn, errand_turn, hand, job, money, put, unemploy_all
from tests.simcord import (
    ids,
    make_bot,
    open_table,
    panel,
    pinned_seed,
    private_text,
    public_click,
    select_id,
)

DISCARDS = "Choose my discards…"
DRAW = "Choose my draw…"
SEED = 20260311


fixed_seed = pinned_seed(SEED)
"""The lobby's table seed, so every shuffle (and this file's expectations) repeats."""


# --- the round-1 discard, planning and drawing ------------------------------------------------


async def test_discards_at_once_then_plans_and_the_drawing_split(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(RULES)
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana, bob, cy = table.players
        board = table.table_message()
        assert (
            status(table)[0]
            == "Round 1 of 7 · everyone keeps 2 cards, in secret. Still choosing: ana, bob and cy."
        )
        assert status(table)[1].startswith("ana £") and " · bob £" in status(table)[1]
        assert game_labels(board)[:2] == [DISCARDS, HAND]
        assert all(f"<@{p.id}>" in words_of(board) for p in table.players), "all three are asked at once"
        state = await state_of(bot)
        hands = [list(p.hand) for p in state.players]
        assert not {c for h in hands for c in h} & set(" ".join(ids(board)).replace(":", ".").split(".")), (
            "no card of a hand on the table"
        )

        # ana and bob open their panels at the same time; each sees only its own hand.
        panels = {}
        for index, member in ((0, ana), (1, bob)):
            panels[index] = panel(await member.click(board, label=DISCARDS))
            assert "**Round 1: keep 2 cards.** Choose the 2 you discard" in words_of(panels[index])
            assert set(options(panels[index])) == {f"discard.{c}" for c in hands[index]}
        cursor = len(env.http_requests)
        chosen = await ana.select(
            panels[0],
            [f"discard.{c}" for c in hands[0][:2]],
            custom_id=select_id(panels[0], f"discard.{hands[0][0]}"),
        )
        assert "You discard" in private_text(chosen) and "shown when everyone has chosen" in private_text(
            chosen
        )
        assert status(table)[0].endswith("Still choosing: bob and cy.")
        assert "ana has chosen what to discard." in table.recent(1)
        seen = public_json(env, cursor)
        assert not any(card in seen for card in hands[0][:2]), "ana's discards stay secret"
        assert f"<@{bob.id}>" in words_of(table.table_message())

        # bob's panel was drawn before ana's choice: a discard's meaning (this round's keep-2) has
        # not changed, so the engine's fingerprint keeps bob's select good and his pick counts.
        partly = panel(
            await bob.select(
                panels[1],
                [f"discard.{hands[1][0]}"],
                custom_id=select_id(panels[1], f"discard.{hands[1][0]}"),
            )
        )
        assert (await state_of(bot)).need[1] == 1, "the pick from the older panel counted"
        assert "You discard" in words_of(partly) and "Already chosen:" in words_of(partly), (
            "one of two: the panel stays"
        )
        assert "bob has chosen some discards (1 more to go)." in table.recent(1)
        await bob.select(
            partly, [f"discard.{hands[1][2]}"], custom_id=select_id(partly, f"discard.{hands[1][2]}")
        )
        assert status(table)[0].endswith("Still choosing: cy.")
        done = panel(await ana.click(table.table_message(), label=DISCARDS))
        assert (
            "You discard" in words_of(done)
            and "Still choosing: cy." in words_of(done)
            and not labels(done)[:-1]
        )

        last = panel(await cy.click(table.table_message(), label=DISCARDS))
        await cy.select(
            last, [f"discard.{c}" for c in hands[2][2:]], custom_id=select_id(last, f"discard.{hands[2][2]}")
        )
        assert "Discards shown: ana " in table.recent(2) and " · cy " in table.recent(2)
        state = await state_of(bot)
        assert state.phase == "planning" and all(len(p.hand) == 2 for p in state.players)

        # Planning: a button per free plan, saying what it gives; a wrong seat is refused privately.
        planner = table.players[state.start]
        idle = table.players[(state.start + 1) % 3]
        board = table.table_message()
        plans = [label for label in labels(board) if label.startswith("Plan ")]
        assert len(plans) == 8 and all(" card" in p and " boy" in p and " action" in p for p in plans)
        assert plans[0] == "Plan 1: {} · {} · {}".format(*_words(state.plans[0]))
        refused = await idle.click(board, label=plans[0])
        assert refused.ephemeral and private_text(refused) == "It is not your turn to choose a plan."
        best = max(state.plans, key=lambda p: (p.cards, p.pos))
        chosen_plan = f"Plan {best.pos}: " + " · ".join(_words(best))
        await public_click(table, planner, chosen_plan)
        assert f"{planner.name} takes plan {best.pos}: " + ", ".join(_words(best)) + "." in table.recent(2)
        assert chosen_plan not in labels(table.table_message())
        for _ in range(2):
            state = await state_of(bot)
            if state.phase != "planning":
                break
            free = next(p for p in state.plans if p.pos not in {q.plan for q in state.players} and p.cards)
            await public_click(
                table,
                table.players[(state.start + state.cursor) % 3],
                f"Plan {free.pos}: " + " · ".join(_words(free)),
            )

        # Drawing: the split is private, with Back (start over) and Confirm once it adds up.
        state = await state_of(bot)
        assert state.phase == "drawing", state.phase
        drawer = table.players[state.order[state.cursor]]
        want = next(p.cards for p in state.plans if p.pos == state.players[state.order[state.cursor]].plan)
        assert f"Drawing: {drawer.name} names the decks of {want} card" in status(table)[0]
        split = panel(await drawer.click(table.table_message(), label=DRAW))
        assert f"**Draw {want} card" in words_of(split) and "Named so far: nothing (0 of" in words_of(split)
        assert labels(split)[:4] == [f"+1 {d} ({n} left)" for d, n in _left(state)]
        assert f"Confirm (0 of {want} named)" in labels(split) and "Back (start over)" not in labels(split)
        split = panel(await drawer.click(split, label=labels(split)[1]))  # +1 Event
        assert words_of(split).startswith("Your split: 1 Event card.")
        split = panel(await drawer.click(split, label="Back (start over)"))
        assert words_of(split).startswith("Your split: nothing.")
        for _ in range(want):
            split = panel(await drawer.click(split, label=labels(split)[1]))
        assert f"Your split: {want} Event card{'s' if want > 1 else ''}." in words_of(split)
        before = len((await state_of(bot)).players[state.order[state.cursor]].hand)
        drawn = await drawer.click(split, label=f"Confirm: draw {want}")
        assert private_text(drawn).startswith("You draw ")
        assert f"{drawer.name} draws {want} Event card{'s' if want > 1 else ''}." in table.recent(2)
        after = await state_of(bot)
        assert len(after.players[state.order[state.cursor]].hand) == before + want


def _words(plan: Any) -> tuple[str, str, str]:
    def many(n: int, word: str) -> str:
        return f"{n} {word}" + ("" if n == 1 else "s")

    return many(plan.cards, "card"), many(plan.boys, "boy"), many(plan.actions, "action")


def _left(state: LastWillState) -> list[tuple[str, int]]:
    return [
        (deck.capitalize(), len(state.decks[deck]) + len(state.piles[deck]))
        for deck in ("property", "event", "helper", "companion")
    ]


# --- errands and the demotion choice ------------------------------------------------------------


def errands_for_ana(state: LastWillState) -> None:
    """ana (seat 0) sends the first boy, then bob, cy; ana is a Doctor (horse 3, dine 2, mask 1,
    guest 1), so the demotion space offers all four lines."""
    unemploy_all(state)
    job(state, 0, "E1")
    job(state, 1, "E2")
    for index in range(3):
        hand(state, index)
    errand_turn(state, 0, boys=1)  # round 1's discards are left behind: nobody owes one


async def test_errands_from_the_table_and_a_demotion_chosen_at_once(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(Arranged(errands_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana, bob, cy = table.players
        board = table.table_message()
        assert status(table)[0] == "Round 1 of 7 · Errands, pass 1: ana sends an errand boy."
        shown = labels(board)
        assert {"Draw 1: Property", "Draw 1: Event", "Opera (£2)", "Board extension", "Demotion"} <= set(
            shown
        )
        assert {"Demotion or extension", "Keep the boy home", HAND} <= set(shown)
        slots = options(board)
        state = await state_of(bot)
        first = state.offering[0]
        assert slots[f"boy.slot{first.label.lower()}"] == f"Slot {first.label}: {data.CARDS[first.card].name}"

        await public_click(table, ana, "Demotion")
        assert "ana's boy goes to the demotion space." in table.recent(2)
        board = table.table_message()
        lines = [
            "Cover Horse (−£3 income)",
            "Cover Dine (−£2 income)",
            "Cover Mask (−£1 income)",
            "Cover Guest (−£1 income)",
            "No demotion now",
        ]
        assert [label for label in labels(board) if label in (*lines, HAND)] == [*lines, HAND], (
            "the errand's choice names nothing hidden: it is on the table at once"
        )
        assert "Choose a demotion…" not in labels(board)
        assert (
            status(table)[0]
            == "Round 1 of 7 · ana is choosing a line to cover (demotion from the demotion space)."
        )
        nosy = await bob.click(board, label="Cover Horse (−£3 income)")
        assert nosy.ephemeral and private_text(nosy) == "Another player is answering a choice; wait for them."

        # ana may also answer privately, from her hand.
        mine = panel(await ana.click(board, label=HAND))
        choice = panel(await ana.click(mine, label="Choose a demotion…"))
        assert words_of(choice).startswith(
            "**Demotion** (the demotion space): cover one line of your Doctor card"
        )
        assert labels(choice) == [
            "Cover Horse (−£3 income)",
            "Cover Dine (−£2 income)",
            "Cover Mask (−£1 income)",
            "Cover Guest (−£1 income)",
            "No demotion now",
            "Back",
        ]
        back = panel(await ana.click(choice, label="Back"))
        assert words_of(back).startswith("**Your hand**") and labels(back) == ["Choose a demotion…", "Done"]
        choice = panel(await ana.click(back, label="Choose a demotion…"))
        closed = await ana.click(choice, label="Cover Horse (−£3 income)")
        assert closed.response is not None
        line = "ana is demoted (the demotion space): the Horse line is covered, income −£3."
        assert line in table.recent(2)
        assert (await state_of(bot)).players[0].covered == [True, False, False, False]
        assert "ana £" in status(table)[1] and "(Doctor 1/4)" in status(table)[1]

        # bob fetches an offering card with the table's select.
        assert status(table)[0] == "Round 1 of 7 · Errands, pass 1: bob sends an errand boy."
        board = table.table_message()
        value = f"boy.slot{first.label.lower()}"
        await bob.select(board, [value], custom_id=select_id(board, value))
        assert f"bob's boy fetches {data.CARDS[first.card].name} from slot {first.label}." in table.recent(2)
        assert first.card in (await state_of(bot)).players[1].hand
        refused = await bob.click(table.table_message(), label="Keep the boy home")
        assert refused.ephemeral and "not your turn" in private_text(refused)
        await public_click(table, cy, "Keep the boy home")
        assert "cy keeps a boy home." in table.recent(2)


# --- an event with companions, a token, a nuptial set ------------------------------------------


def actions_for_ana(state: LastWillState) -> None:
    """ana (a Doctor, £40) on turn with 3 actions: a Dinner with two Guest icons, a Guest and a
    wild card for it, a Chef for the Town House T4 on her board (its next slot takes a Chef), and
    an Engagement Ring and a Wedding Gift for a nuptial set."""
    unemploy_all(state)
    job(state, 0, "E1")
    for index in range(3):
        hand(state, index)
        money(state, index, 40)
    put(state, 0, "T4")
    hand(state, 0, "DIN10", "GST1", "W1", "CHF1", "ER1", "WG1")
    hand(state, 1, "F3", "THE1")
    actions_turn(state, 0, 3)


async def test_plays_with_private_steps_and_back(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(Arranged(actions_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana, bob, _cy = table.players
        board = table.table_message()
        assert status(table)[0] == "Round 1 of 7 · Actions: ana's turn, 3 actions left."
        assert game_labels(board) == [
            "Play a card…",
            "Buy a property…",
            "Lay a helper…",
            "Put a companion on a card…",
            "End turn",
            HAND,
        ], "the kinds of plays open to ana, each a private panel (tests/cogs/test_lastwill_turn.py)"
        sale = max(0, 15 + (await state_of(bot)).market["town"])
        assert options(board) == {
            "keep.T4": "Maintain Town House T4 (£3)",
            "sell.T4": f"Sell Town House T4 (+£{sale})",
        }

        mine = panel(await ana.click(board, label=HAND))
        assert (
            "• **Dinner [DIN10]**: play: 1 action, spends £2 · icons Guest +£2, Guest +£2 · "
            "would earn a demotion: Dine (£2)" in words_of(mine)
        )
        assert {"Play Dinner: 1 action, £2", "Put Chef on a card…", "Play a nuptial set…", "Done"} <= set(
            labels(mine)
        )

        # Which card takes the Chef: a step with Back.
        step = panel(await ana.click(mine, label="Put Chef on a card…"))
        assert words_of(step).startswith("Where does **Chef [CHF1]** go?")
        assert labels(step) == ["Chef on Town House T4 (makes it £5)", "Back"]
        mine = panel(await ana.click(step, label="Back"))
        assert words_of(mine).startswith("**Your hand**")
        step = panel(await ana.click(mine, label="Put Chef on a card…"))
        mine = panel(await ana.click(step, label="Chef on Town House T4 (makes it £5)"))
        assert "ana puts a Chef token on Town House T4." in table.recent(1)
        assert words_of(mine).startswith(
            "**Your hand**"
        ) and "Your Actions turn: 2 actions left." in words_of(mine)
        assert (await state_of(bot)).players[0].board[0].tokens == ["chef"]

        # An event with companions: each companion a click, Back to the hand and in again.
        step = panel(await ana.click(mine, label="Play Dinner: 1 action, £2"))
        assert words_of(step) == (
            "**Dinner**: add companion cards to its open icons (Guest +£2, Guest +£2). So far it spends £2."
        )
        assert labels(step) == [
            "Add Guest [GST1]: +£2",
            "Add Wild card [W1] as Guest: +£2",
            "No more companions: pay £2",
            "Back",
        ]
        assert "ana plays Dinner (1 action)…" in table.recent(1)
        assert game_labels(table.table_message()) == ["Add companions…", HAND]
        mine = panel(await ana.click(step, label="Back"))
        assert labels(mine) == ["Add companions…", "Done"], "no other play while a choice is open"
        step = panel(await ana.click(mine, label="Add companions…"))
        step = panel(await ana.click(step, label="Add Guest [GST1]: +£2"))
        assert "ana adds a Guest (+£2)." in table.recent(1)
        assert labels(step) == ["Add Wild card [W1] as Guest: +£2", "No more companions: pay £4", "Back"]
        step = panel(await ana.click(step, label="No more companions: pay £4"))
        assert "ana spends £4 on Dinner (with Guest)." in table.recent(1)
        assert words_of(step).startswith("**Demotion** (Dinner): cover one line of your Doctor card")
        assert labels(step) == [
            "Cover Dine (−£2 income)",
            "Cover Guest (−£1 income)",
            "No demotion now",
            "Back",
        ]
        mine = panel(await ana.click(step, label="Cover Dine (−£2 income)"))
        assert "ana is demoted (Dinner): the Dine line is covered, income −£2." in table.recent(1)
        assert "You have earned this round's demotion" in words_of(mine)
        state = await state_of(bot)
        assert state.players[0].money == 36 and state.players[0].covered == [False, True, False, False]

        # A nuptial set: one choice per set the engine takes, with Back.
        step = panel(await ana.click(mine, label="Play a nuptial set…"))
        assert words_of(step).startswith("A **nuptial set**: 2 to 4 nuptial cards with different names")
        assert options(step) == {"nupt.ER1.WG1": "Engagement Ring [ER1] + Wedding Gift [WG1]: 1 action, £7"}
        assert labels(step)[-1] == "Back"
        mine = panel(await ana.select(step, ["nupt.ER1.WG1"], custom_id=select_id(step, "nupt.ER1.WG1")))
        assert "ana plays Engagement Ring and Wedding Gift (1 action): spends £7." in table.recent(1)
        assert "Your Actions turn: 0 actions left." in words_of(mine)
        assert (await state_of(bot)).players[0].money == 29

        # Anyone seated reads their own hand at any time; a spectator cannot.
        theirs = panel(await bob.click(table.table_message(), label=HAND))
        assert "• **Farm F3**: buy: " in words_of(
            theirs
        ) and "• **Theatre [THE1]**: play: 1 action" in words_of(theirs)
        assert labels(theirs) == ["Done"], "not bob's turn: nothing to play"
        closed = panel(await bob.click(theirs, label="Done"))
        assert words_of(closed) == "Closed. My hand… on the table opens it again." and not labels(closed)
        eve = table.guild.add_member(env.create_user("eve"))
        nosy = await eve.click(table.table_message(), label=HAND)
        assert nosy.ephemeral and "not seated" in private_text(nosy)
        caught = private_text(await bob.click(table.table_message(), label="Catch me up"))
        assert "**Your hand:** Farm F3 and Theatre." in caught
        assert "ana plays Engagement Ring and Wedding Gift" in caught

        await public_click(table, ana, "End turn")
        assert "ana ends the turn." in table.recent(2) and "bob's turn: 3 actions." in table.recent(2)
        assert f"<@{bob.id}>" in words_of(table.table_message())


# --- a restart in the middle of a round --------------------------------------------------------


async def test_a_restart_mid_round_keeps_table_panels_and_state(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(Arranged(actions_for_ana))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="lastwill")
        ana = table.players[0]
        mine = panel(await ana.click(table.table_message(), label=HAND))
        step = panel(await ana.click(mine, label="Play Dinner: 1 action, £2"))
        before = RULES.dump(await state_of(bot))
        board = words_of(table.table_message())
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        assert RULES.dump(await state_of(bot)) == before, "the saved game is the game"
        assert words_of(table.table_message()) == board and game_labels(table.table_message()) == [
            "Add companions…",
            HAND,
        ]
        # The panel drawn before the restart still answers, and the log goes on below the same lines.
        step = panel(await ana.click(step, label="Add Guest [GST1]: +£2"))
        assert labels(step)[0] == "Add Wild card [W1] as Guest: +£2"
        recent = table.recent(1)
        assert "ana plays Dinner (1 action)…" in recent and "ana adds a Guest (+£2)." in recent
        await ana.click(step, label="No more companions: pay £4")
        assert "ana spends £4 on Dinner (with Guest)." in table.recent(1)
        state = await state_of(bot)
        assert state.pending is not None and state.pending.step == "line"


# --- /game rules -------------------------------------------------------------------------------


async def test_rules_command_sends_summary_options_and_every_ruling(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None]
) -> None:
    lastwill_registered(RULES)
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("games")
        ana = guild.add_member(env.create_user("ana"))
        result = await ana.slash(channel, "game rules", name="lastwill")
        messages = [result.response, *result.followups]
        assert len(messages) >= 3 and all(m is not None and m.ephemeral for m in messages)
        texts = [str(words_of(m)) for m in messages if m is not None]
        assert all(len(t) <= 2000 for t in texts)
        whole = "\n".join(texts)
        assert whole.startswith("**Last Will** (2–5 players)\nSpend your late uncle's fortune")
        assert "`expansion` (default yes)" in whole and "`end_property_penalty` (default 0)" in whole
        catalog = Catalog.load()
        rulings = [f"• {catalog.text(f'lastwill.chosen.{key}')}" for key in data.CHOSEN_RULINGS]
        lines = whole.splitlines()
        assert lines[-len(rulings) :] == rulings, "every ruling, whole and in order, at the end"
        assert "**How this bot plays what the rules leave open:**" in lines
        for text in texts[1:]:
            assert not text.startswith(" ") and text.split("\n")[0] in lines, "cut between lines"


# --- a French table ----------------------------------------------------------------------------


async def test_a_french_table_plays_in_french(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None], french_clients: set[int]
) -> None:
    """``/game new lastwill language:fr``: the status, buttons, panels and log are French, and a
    French player's refused click is answered in French."""
    lastwill_registered(RULES)
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
        table = Table(env, channel, members)
        board = table.table_message()
        assert "Manche 1 sur 7 · chacun garde 2 cartes, en secret. Choisissent encore : ana, bob et cy." in (
            words_of(board)
        )
        assert game_labels(board) == ["Choisir mes défausses…", "Ma main…"]
        mine = panel(await members[0].click(board, label="Ma main…"))
        assert words_of(mine).startswith(
            "**Votre main** (4 cartes ; vous pourrez en garder 2 en fin de manche)"
        )
        state = await state_of(bot)
        for index, member in enumerate(members):
            chosen = panel(await member.click(table.table_message(), label="Choisir mes défausses…"))
            assert "**Manche 1 : gardez 2 cartes.** Choisissez les 2 cartes que vous défaussez" in words_of(
                chosen
            )
            hand = state.players[index].hand
            await member.select(
                chosen, [f"discard.{c}" for c in hand[:2]], custom_id=select_id(chosen, f"discard.{hand[0]}")
            )
        assert "Défausses révélées : ana " in table.recent(2)
        state = await state_of(bot)
        board = table.table_message()
        plans = [label for label in labels(board) if label.startswith("Plan ")]
        assert plans and all(" : " in p and " coursier" in p and " action" in p for p in plans), plans
        idle = members[(state.start + 1) % 3]
        refused = await idle.click(board, label=plans[0])
        assert refused.ephemeral and private_text(refused) == "Ce n'est pas à vous de choisir un plan."
