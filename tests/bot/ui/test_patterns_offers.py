"""Deals between players, as Monopoly will need them, through the real bot and SimCord.

Toy Market (``tests/toymarket``) stands in for Monopoly: a seat composes an offer privately on a
panel that stays open step by step (a multi-select of its own lots, a cash form whose action
carries a leading argument), sends it, and the game then waits for the recipient, who is pinged
once and answers with Accept / Reject / Counter; the proposer may Withdraw; an offer lapses when
its holdings change.  Improving a lot is the any-time action a seat takes on someone else's turn.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import discord
import simcord

from bot.client import GameBot
from harness.messages import Table, labels, payload_words, words_of
from tests.simcord import ids, make_bot, open_table, panel, seat_of
from tests.toymarket.rules import IMPROVE_COST, LOTS, MarketState, lot_name

GAME = "toymarket"


# --- helpers ----------------------------------------------------------------------------------


def pings(env: simcord.Env, since: int = 0) -> list[set[int]]:
    """Whom each new message since request ``since`` notified (mentioned and allowed to ping)."""
    out = []
    for entry in env.http_requests[since:]:
        if entry.method != "POST" or not entry.path.endswith("/messages") or not isinstance(entry.json, dict):
            continue
        allowed = {int(u) for u in (entry.json.get("allowed_mentions") or {}).get("users") or ()}
        content = payload_words(entry.json)
        out.append({u for u in allowed if f"<@{u}>" in content})
    return out


def public_requests(env: simcord.Env, since: int = 0) -> list[Any]:
    """Requests since ``since`` that post or change a channel message: what everyone can see.

    Private panels are answered through the interaction endpoints instead.
    """
    return [e for e in env.http_requests[since:] if e.path.startswith("/channels/")]


def private(result: Any) -> str:
    """The text of a private answer (a reply, or a panel edited in place)."""
    assert result.response is not None and result.response.ephemeral, "answered privately"
    return str(words_of(result.response))


async def state_of(bot: GameBot, game_id: int = 1) -> MarketState:
    state: MarketState = (await bot.sessions.load(game_id)).state
    return state


def lots_of(state: MarketState, seat: int) -> list[str]:
    return [lot for index, lot in enumerate(LOTS) if state.owners[index] == seat]


def select_id(message: discord.Message, combine: str) -> str:
    """The custom_id of a panel's multi-select that combines into ``combine``."""
    found = [i for i in ids(message) if i.startswith("s:") and i.endswith(f".{combine}")]
    assert found, f"no {combine} select in {ids(message)}"
    return found[0]


async def start_offer(table: Table, proposer: Any, recipient: Any) -> discord.Message:
    """My holdings… → Make an offer… → the recipient: the draft panel."""
    holdings = panel(await proposer.click(table.table_message(), label="My holdings…"))
    whom = panel(await proposer.click(holdings, label="Make an offer…"))
    assert "Whom is your offer for?" in words_of(whom)
    return panel(await proposer.click(whom, label=recipient.name))


async def compose(
    table: Table, proposer: Any, recipient: Any, *, give: list[str], pay: int = 0
) -> discord.Message:
    """A draft with ``give`` chosen in the multi-select and ``pay`` typed in the cash form."""
    draft = await start_offer(table, proposer, recipient)
    if give:
        draft = panel(
            await proposer.select(draft, [f"give.{lot}" for lot in give], custom_id=select_id(draft, "give"))
        )
    if pay:
        shown = await proposer.click(draft, label="Cash you give…")
        assert shown.modal is not None
        draft = panel(await proposer.submit_modal(shown, {"value": str(pay)}))
    return draft


async def send_offer(table: Table, proposer: Any, recipient: Any, *, give: list[str], pay: int = 0) -> Any:
    draft = await compose(table, proposer, recipient, give=give, pay=pay)
    return await proposer.click(draft, label="Send offer")


def two(table: Table) -> tuple[Any, Any]:
    """The player on turn and the other one."""
    mover = table.on_turn()
    return mover, next(p for p in table.players if p is not mover)


# --- composing, sending, answering ------------------------------------------------------------


async def test_an_offer_is_composed_privately_and_its_recipient_is_pinged_once(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        proposer, recipient = two(table)  # the recipient is not waited for yet
        seat = await seat_of(bot, proposer)
        mine = lots_of(await state_of(bot), seat)
        board = table.table_message()
        before = (words_of(board), ids(board))
        cursor = len(env.http_requests)

        draft = await start_offer(table, proposer, recipient)
        assert f"**Your offer to {recipient.name}**" in words_of(draft) and "You give: nothing" in words_of(
            draft
        )
        give = select_id(draft, "give")
        chosen = [f"give.{lot}" for lot in mine[:2]]
        draft = panel(await proposer.select(draft, chosen, custom_id=give))
        shown = await proposer.click(draft, label="Cash you give…")
        assert shown.modal is not None
        assert shown.modal["custom_id"].endswith(f":pay.{await seat_of(bot, recipient)}"), (
            "the leading argument"
        )
        field = shown.modal["components"][0]["components"][0]
        assert field["label"] == "Cash (0 to 8)", "bounded by what the proposer holds"
        too_much = await proposer.submit_modal(shown, {"value": "9"})
        assert "0" in private(too_much) and "8" in private(too_much)
        shown = await proposer.click(draft, label="Cash you give…")
        draft = panel(await proposer.submit_modal(shown, {"value": "3"}))
        terms = f"{lot_name(mine[0])}, {lot_name(mine[1])}, 3 cash"
        assert f"You give: {terms}" in words_of(draft), "the panel stays open on the next step"
        assert {"Send offer", "Drop offer", "Back", "Done"} <= set(labels(draft))

        assert public_requests(env, cursor) == [], "composing shows nothing to anyone else"
        assert (words_of(table.table_message()), ids(table.table_message())) == before

        sent = await proposer.click(draft, label="Send offer")
        assert f"Offer #1 is on the table; {recipient.name} is asked" in private(sent)
        assert pings(env, cursor) == [{recipient.id}]
        live = table.table_message()
        assert f"{proposer.name} makes offer #1 to {recipient.name}: {terms} for nothing." in table.recent(2)
        assert {"Accept #1", "Reject #1", "Counter #1…", "Withdraw #1"} <= set(labels(live))

        # The proposer rolls: the turn passes to the recipient, who is already waiting: no second ping.
        cursor = len(env.http_requests)
        await proposer.click(live, label="Roll")
        assert pings(env, cursor) == []

        accepted = await recipient.click(table.table_message(), label="Accept #1")
        assert accepted.acknowledged and not accepted.ephemeral
        state = await state_of(bot)
        other = await seat_of(bot, recipient)
        assert lots_of(state, other)[:0] == [] and set(mine[:2]) <= set(lots_of(state, other))
        assert f"{recipient.name} accepts offer #1 from {proposer.name}" in table.recent(2)
        assert "Accept #1" not in labels(table.table_message())


async def test_reject_withdraw_and_counter(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game=GAME)
        mover = table.on_turn()
        bee, sea = (p for p in table.players if p is not mover)
        mine = lots_of(await state_of(bot), await seat_of(bot, bee))

        cursor = len(env.http_requests)
        await send_offer(table, bee, sea, give=mine[:1])
        assert pings(env, cursor) == [{sea.id}]
        rejected = await sea.click(table.table_message(), label="Reject #1")
        assert rejected.acknowledged and f"{sea.name} rejects offer #1 from {bee.name}." in table.recent(2)
        assert "Accept #1" not in labels(table.table_message())

        await send_offer(table, bee, sea, give=mine[:1])
        await bee.click(table.table_message(), label="Withdraw #2")
        assert f"{bee.name} withdraws offer #2 to {sea.name}." in table.recent(2)

        await send_offer(table, bee, sea, give=mine[:1], pay=2)
        opened = panel(await sea.click(table.table_message(), label="Counter #3…"))
        assert (
            f"**Offer #3** from {bee.name} to {sea.name}: {lot_name(mine[0])}, 2 cash for nothing."
            in words_of(opened)
        )
        assert labels(opened) == ["Accept #3", "Reject #3", "Counter", "Done"]
        countered = panel(await sea.click(opened, label="Counter"))
        assert f"**Your offer to {bee.name}**" in words_of(countered)
        assert f"You ask for: {lot_name(mine[0])}, 2 cash" in words_of(countered), "the sides swapped"
        assert f"{sea.name} turns down offer #3 from {bee.name} to make a counter-offer." in table.recent(2)
        shown = await sea.click(countered, label="Cash you ask…")
        assert shown.modal is not None
        countered = panel(await sea.submit_modal(shown, {"value": "1"}))
        assert f"You ask for: {lot_name(mine[0])}, 1 cash" in words_of(countered)
        cursor = len(env.http_requests)
        await sea.click(countered, label="Send offer")
        assert pings(env, cursor) == [{bee.id}], "the counter-offer pings the first proposer"
        await bee.click(table.table_message(), label="Accept #4")
        state = await state_of(bot)
        assert mine[0] in lots_of(state, await seat_of(bot, sea))


async def test_an_offer_panels_buttons_are_for_its_two_players_only(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game=GAME)
        mover = table.on_turn()
        bee, sea = (p for p in table.players if p is not mover)
        mine = lots_of(await state_of(bot), await seat_of(bot, bee))
        await send_offer(table, bee, sea, give=mine[:1])
        nosy = await mover.click(table.table_message(), label="Accept #1")
        assert private(nosy) == "Offer #1 is not addressed to you."
        steal = await sea.click(table.table_message(), label="Withdraw #1")
        assert "Only the player who made offer #1" in private(steal)
        own = panel(await bee.click(table.table_message(), label="Counter #1…"))
        assert labels(own) == ["Withdraw #1", "Done"], "the proposer's view of its own offer"


async def test_catch_me_up_tells_a_draft_only_to_its_author(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        proposer, recipient = two(table)
        mine = lots_of(await state_of(bot), await seat_of(bot, proposer))
        await compose(table, proposer, recipient, give=mine[:1], pay=2)
        own = private(await proposer.click(table.table_message(), label="Catch me up"))
        assert f"Your offer in progress to {recipient.name}: {lot_name(mine[0])}, 2 cash for nothing." in own
        assert "Your cards:" in own
        other = private(await recipient.click(table.table_message(), label="Catch me up"))
        assert "offer" not in other.lower() and lot_name(mine[0]) not in other


# --- lapsed and withdrawn offers --------------------------------------------------------------


async def test_accepting_a_lapsed_or_withdrawn_offer_gets_a_clear_answer(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        proposer, recipient = two(table)
        seat = await seat_of(bot, proposer)
        mine = lots_of(await state_of(bot), seat)
        await send_offer(table, proposer, recipient, give=mine[:1])
        offer_panel = panel(await recipient.click(table.table_message(), label="Counter #1…"))

        holdings = panel(await proposer.click(table.table_message(), label="My holdings…"))
        await proposer.click(holdings, label=f"Improve {lot_name(mine[0])} ({IMPROVE_COST[0]})")
        assert f"Offer #1 from {proposer.name} to {recipient.name} lapses: {lot_name(mine[0])} changed." in (
            table.recent(2)
        )
        late = await recipient.click(offer_panel, label="Accept #1")
        assert f"Offer #1 lapsed when {lot_name(mine[0])} changed, so it can no longer be accepted." in (
            private(late)
        )
        assert lots_of(await state_of(bot), seat) == mine, "nothing changed hands"

        await send_offer(table, proposer, recipient, give=mine[1:2])
        offer_panel = panel(await recipient.click(table.table_message(), label="Counter #2…"))
        await proposer.click(table.table_message(), label="Withdraw #2")
        late = await recipient.click(offer_panel, label="Accept #2")
        assert "Offer #2 was withdrawn, so it can no longer be accepted." in private(late)
        assert lots_of(await state_of(bot), seat) == mine
        reopened = panel(await recipient.click(table.table_message(), label="My holdings…"))
        assert "Accept #2" not in labels(reopened)


# --- restarts ---------------------------------------------------------------------------------


async def test_a_restart_keeps_a_pending_offer_its_buttons_and_a_draft(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        proposer, recipient = two(table)
        seat = await seat_of(bot, proposer)
        mine = lots_of(await state_of(bot), seat)
        await send_offer(table, proposer, recipient, give=mine[:1])
        offer_panel = panel(await recipient.click(table.table_message(), label="Counter #1…"))
        # A second deal in progress, composed but not sent.
        await compose(table, proposer, recipient, give=mine[1:2])

        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        cursor = len(env.http_requests)
        holdings = panel(await proposer.click(table.table_message(), label="My holdings…"))
        draft = panel(await proposer.click(holdings, label="Continue my offer…"))
        assert f"You give: {lot_name(mine[1])}" in words_of(draft), "the draft survived"
        accepted = await recipient.click(offer_panel, label="Accept #1")
        assert accepted.acknowledged
        assert mine[0] in lots_of(await state_of(bot), await seat_of(bot, recipient))
        assert f"{recipient.name} accepts offer #1" in table.recent(2)
        assert pings(env, cursor) == [], "the restart pings nobody again"
        sent = await proposer.click(draft, label="Send offer")
        assert "Offer #2 is on the table" in private(sent)


# --- the any-time action ----------------------------------------------------------------------


async def test_improving_on_another_seats_turn_outlasts_other_moves(tmp_path: Path) -> None:
    """Monopoly's building between turns: a holdings panel opened before other players moved
    still works, because an improvement's button is drawn for what it means (lot and price)."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game=GAME)
        first = table.on_turn()
        idle = next(p for p in table.players if p is not first)
        seat = await seat_of(bot, idle)
        lot = lots_of(await state_of(bot), seat)[0]
        holdings = panel(await idle.click(table.table_message(), label="My holdings…"))
        label = f"Improve {lot_name(lot)} ({IMPROVE_COST[0]})"
        improve = next(i for i in ids(holdings) if i.endswith(f":improve.{lot}"))
        assert improve.startswith("a:"), "a lasting button"
        await first.click(table.table_message(), label="Roll")  # the public version moves on
        version = (await bot.sessions.load(1)).public_version
        if table.on_turn() is not idle:
            await table.on_turn().click(table.table_message(), label="Roll")
        assert version >= 1
        cursor = len(env.http_requests)
        done = await idle.click(holdings, label=label)
        after = panel(done)
        assert "level 1" in words_of(after) and f"Improve {lot_name(lot)} ({IMPROVE_COST[1]})" in labels(
            after
        )
        assert f"{idle.name} improves {lot_name(lot)} to level 1 for {IMPROVE_COST[0]} cash." in table.recent(
            2
        )
        assert pings(env, cursor) == [], "an any-time action pings nobody"


async def test_an_improvement_whose_price_changed_redraws_the_panel(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        player = table.players[0]
        lot = lots_of(await state_of(bot), await seat_of(bot, player))[0]
        old = panel(await player.click(table.table_message(), label="My holdings…"))
        fresh = panel(await player.click(table.table_message(), label="My holdings…"))
        label = f"Improve {lot_name(lot)} ({IMPROVE_COST[0]})"
        await player.click(fresh, label=label)
        again = await player.click(old, label=label)
        redrawn = panel(again)
        assert "has changed since the button was drawn" in words_of(redrawn)
        assert f"Improve {lot_name(lot)} ({IMPROVE_COST[1]})" in labels(redrawn), "the panel as it is now"
        state = await state_of(bot)
        assert state.levels[LOTS.index(lot)] == 1, "one improvement, not two"


# --- host gaps --------------------------------------------------------------------------------


async def test_a_draft_panels_multi_select_outlasts_other_moves(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        mover, idle = two(table)
        mine = lots_of(await state_of(bot), await seat_of(bot, idle))
        draft = await start_offer(table, idle, mover)
        await mover.click(table.table_message(), label="Roll")
        chosen = await idle.select(draft, [f"give.{mine[0]}"], custom_id=select_id(draft, "give"))
        assert f"You give: {lot_name(mine[0])}" in words_of(panel(chosen))


async def test_a_draft_panels_cash_form_opens_after_other_moves(tmp_path: Path) -> None:
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        mover, idle = two(table)
        draft = await start_offer(table, idle, mover)
        await mover.click(table.table_message(), label="Roll")
        shown = await idle.click(draft, label="Cash you give…")
        assert shown.modal is not None


async def test_a_cash_form_submitted_after_other_moves_is_refused_as_stale(tmp_path: Path) -> None:
    """Issue 25: a form opened before the game moved on is refused like a stale button (the draft
    panel as it stands, under the same line), and the draft does not change."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        mover, idle = two(table)
        draft = await start_offer(table, idle, mover)
        shown = await idle.click(draft, label="Cash you give…")
        assert shown.modal is not None
        await mover.click(table.table_message(), label="Roll")
        typed = await idle.submit_modal(shown, {"value": "2"})
        assert "That has changed since the button was drawn" in words_of(panel(typed))
        assert "You give: nothing" in words_of(panel(typed)) and "2 cash" not in words_of(panel(typed))


async def test_a_cash_form_is_bounded_again_when_it_is_submitted(tmp_path: Path) -> None:
    """The form opened with "0 to what you hold"; spending meanwhile (a public move) makes that form
    stale (issue 25), and the form opened again is bounded by what is left: the old bound's number
    is refused with the new bounds."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game=GAME)
        mover, idle = two(table)
        seat = await seat_of(bot, idle)
        held = (await state_of(bot)).cash[seat]
        draft = await start_offer(table, idle, mover)
        shown = await idle.click(draft, label="Cash you give…")
        assert shown.modal is not None
        lot = lots_of(await state_of(bot), seat)[0]
        holdings = panel(await idle.click(table.table_message(), label="My holdings…"))
        await idle.click(holdings, label=f"Improve {lot_name(lot)} ({IMPROVE_COST[0]})")
        now = (await state_of(bot)).cash[seat]
        assert now == held - IMPROVE_COST[0]
        stale = await idle.submit_modal(shown, {"value": str(held)})
        assert "That has changed since the button was drawn" in private(stale)
        shown = await idle.click(panel(stale), label="Cash you give…")
        assert shown.modal is not None
        refused = await idle.submit_modal(shown, {"value": str(held)})
        assert private(refused) == f"Please choose a number from 0 to {now} (you typed {held})."
