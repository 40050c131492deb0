"""Number forms take what people type, through the real discord.py path (SimCord): a Monopoly
auction's "Other amount…" in an English and a French table.

"$50", "1,000" and " 1 500 " are bids in English, "1 500 €" and "1.500" in French
(:mod:`bot.ui.amounts`); "douze" and an amount out of bounds are refused privately, in the
table's language (the players' clients say en-US), with a "Try again" button that reopens the
same form holding what was typed.  After a refusal nothing has changed (the game's versions, the
thread), "Try again" pressed once the auction has moved on gets the usual stale answer, and after
a restart it opens an empty form (what was typed lives in memory, never in a custom_id).
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.client import GameBot
from harness.messages import Table, labels, words_of
from rules.monopoly import MonopolyRules, MonopolyState, parse_space
from rules.monopoly.builder import MonopolyBuilder
from tests.bot.ui.test_discord_inputs import post_buttons
from tests.helpers import ArrangedSetup, en, fr
from tests.simcord import ids, make_bot, member_at, panel, pinned_seed, private_text, saved_state

fixed_seed = pinned_seed()

CASTRO = parse_space("castro-street")


class Arranged(ArrangedSetup, MonopolyRules):
    """Monopoly whose ``setup`` opens an auction of Castro Street at once (kept across a restart)."""


def auction_of_castro(cash: int) -> Callable[[MonopolyState], None]:
    def arrange(state: MonopolyState) -> None:
        """Every seat holds ``cash``; the last seat declined Castro Street, so the bidding goes
        round from seat 0."""
        builder = MonopolyBuilder.of(state).started(first=state.players - 1)
        for seat in range(state.players):
            builder.cash(seat, cash)
        builder.auction(CASTRO, mode="round").build()

    return arrange


async def open_table(env: simcord.Env, names: list[str], language: str) -> Table:
    """A Monopoly table in ``language``, opened and started by clicks."""
    t = fr if language == "fr" else en
    guild = env.create_guild()
    channel = guild.create_text_channel("games")
    players = [guild.add_member(env.create_user(name)) for name in names]
    created = await players[0].slash(channel, "game new", name="monopoly", language=language)
    assert created.response is not None, "the lobby is posted"
    lobby = created.response.message
    for player in players[1:]:
        await player.click(lobby, label=t("host.lobby.join"))
    await players[0].click(lobby, label=t("host.lobby.start"))
    return Table(env, channel, players)


async def versions(bot: GameBot) -> tuple[int, int]:
    game = await bot.sessions.load(1)
    return game.version, game.public_version


def typed_in(shown: Any) -> str | None:
    """The text a form's field opens with (its ``value``), or ``None`` for an empty field."""
    found: list[Any] = []

    def visit(node: Any) -> None:
        if isinstance(node, dict):
            if node.get("custom_id") == "value":
                found.append(node.get("value"))
            for child in node.values():
                visit(child)
        elif isinstance(node, list):
            for child in node:
                visit(child)

    assert shown.modal is not None, "a form opens"
    visit(shown.modal)
    assert len(found) == 1, shown.modal
    return found[0] or None


async def other_amount(table: Table, player: Any, label: str) -> Any:
    shown = await player.click(table.table_message(), label=label)
    assert shown.modal is not None, private_text(shown)
    assert typed_in(shown) is None, "the table's form opens empty"
    return shown


async def refused(bot: GameBot, table: Table, player: Any, shown: Any, value: str) -> Any:
    """``value`` typed into the form ``shown`` and refused: privately, with Try again, nothing changed.

    Returns the private refusal (a message with the Try again button)."""
    before = (await versions(bot), len(table.messages()), words_of(table.table_message()))
    result = await player.submit_modal(shown, {"value": value})
    assert result.ephemeral, f"{value!r} was taken"
    after = (await versions(bot), len(table.messages()), words_of(table.table_message()))
    assert after == before, f"refusing {value!r} changed something"
    message = panel(result)
    again = [i for i in ids(message) if i.startswith("m:")]
    assert len(again) == 1, ids(message)
    assert value.strip() not in again[0], "what was typed stays out of the custom_id"
    return result


async def test_english_bids_typed_as_people_write_money(
    tmp_path: Path, registered: Callable[[MonopolyRules], None], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)
    registered(Arranged(auction_of_castro(1500)))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], "en")
        first, second, third = [await member_at(bot, table, seat) for seat in range(3)]
        assert table.on_turn().id == first.id
        assert "Other amount…" in labels(table.table_message())
        start = await versions(bot)

        # "douze": refused with the reason and Try again, which opens the form with "douze" in it.
        form = await other_amount(table, first, "Other amount…")
        douze = await refused(bot, table, first, form, "douze")
        text = private_text(douze)
        assert text == "Please type a whole number in digits, like 1500 (you typed “douze”).", text
        assert labels(panel(douze)) == ["Try again"]
        again = await first.click(panel(douze), label="Try again")
        assert typed_in(again) == "douze"
        assert again.modal["title"] == form.modal["title"], "the same form"

        # Out of bounds from the reopened form: refused with the form's own bounds, written as its label.
        too_much = await refused(bot, table, first, again, "2,000")
        assert private_text(too_much) == "Please choose a number from 1 to 1,500 (you typed 2,000).", (
            private_text(too_much)
        )
        again = await first.click(panel(too_much), label="Try again")
        assert typed_in(again) == "2,000"

        # "$50" from Try again is a bid of 50, like the quick bids.
        done = await first.submit_modal(again, {"value": "$50"})
        assert done.acknowledged
        assert private_text(done) == "Done." and not ids(panel(done)), "the refusal closes: no Try again left"
        assert f"{first.name} bids $50." in table.recent(3)
        state = await saved_state(bot)
        assert state.auction.high == 50 and state.auction.high_bidder == 0
        assert (await versions(bot))[1] == start[1] + 1

        # The first refusal's Try again belongs to a form of the auction as it was: stale now.
        late = await first.click(panel(douze), label="Try again")
        assert late.modal is None and "moved on" in private_text(late), private_text(late)

        # "1,000" after a refusal and a restart: Try again then opens the same form, empty.
        form = await other_amount(table, second, "Other amount…")
        word = await refused(bot, table, second, form, "12.5")
        assert private_text(word) == "Please type a whole number: “12.5” has a decimal part."
        bot = make_bot(tmp_path)
        await env.restart_bot(bot)
        again = await second.click(panel(word), label="Try again")
        assert typed_in(again) is None, "a restart forgets what was typed"
        await second.submit_modal(again, {"value": "1,000"})
        assert f"{second.name} bids $1,000." in table.recent(3)

        # " 1 500 " (spaces around and between): all of the third bidder's cash.
        form = await other_amount(table, third, "Other amount…")
        await third.submit_modal(form, {"value": " 1 500 "})
        assert f"{third.name} bids $1,500." in table.recent(3)
        state = await saved_state(bot)
        assert state.auction.high == 1500 and state.auction.high_bidder == 2

    logged = "\n".join(r.getMessage() for r in caplog.records if r.name.startswith(("bot", "cogs")))
    for typed in ("douze", "2,000", "12.5"):
        assert typed not in logged, f"{typed!r} reached the log"


async def test_french_bids_and_refusals_in_french(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    registered(Arranged(auction_of_castro(5000)))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bea"], "fr")
        first, second = [await member_at(bot, table, seat) for seat in range(2)]
        other = fr("host.auction.other")
        assert other in labels(table.table_message())

        # A player whose client speaks English still reads the form's refusal in the table's French.
        form = await other_amount(table, first, other)
        douze = await refused(bot, table, first, form, "douze")
        assert private_text(douze) == fr("host.amount.words", value="douze")
        assert "vous avez tapé « douze »" in private_text(douze)
        assert labels(panel(douze)) == [fr("host.amount.again")] == ["Réessayer"]
        again = await first.click(panel(douze), label="Réessayer")
        assert typed_in(again) == "douze"
        decimal = await refused(bot, table, first, again, "12,5")
        assert private_text(decimal) == "Veuillez saisir un nombre entier : « 12,5 » a une partie décimale."
        again = await first.click(panel(decimal), label="Réessayer")
        assert typed_in(again) == "12,5"
        await first.submit_modal(again, {"value": "1 500 €"})
        assert f"{first.name} enchérit à 1\u202f500 $." in table.recent(3)
        assert (await saved_state(bot)).auction.high == 1500

        # "1.500" is 1500 at a French table: not above the high bid, so out of bounds.
        form = await other_amount(table, second, other)
        low = await refused(bot, table, second, form, "1.500")
        assert (
            private_text(low)
            == "Veuillez choisir un nombre de 1\u202f501 à 5\u202f000 (vous avez tapé 1\u202f500)."
        ), private_text(low)
        again = await second.click(panel(low), label="Réessayer")
        assert typed_in(again) == "1.500"
        await second.submit_modal(again, {"value": "1.600"})
        assert f"{second.name} enchérit à 1\u202f600 $." in table.recent(3)
        state = await saved_state(bot)
        assert state.auction.high == 1600 and state.auction.high_bidder == 1


async def test_forged_try_again_ids_are_refused(
    tmp_path: Path, registered: Callable[[MonopolyRules], None]
) -> None:
    """A "Try again" id the bot did not draw: no form opens, and the answer says why."""
    registered(Arranged(auction_of_castro(1500)))
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], "en")
        bidder = table.on_turn()
        version = (await versions(bot))[1]
        forged = await post_buttons(
            bot,
            table.channel.id,
            [(f"m:1:{version}:h.again.", "empty"), (f"m:1:{version}:h.again.nope", "unknown")],
        )
        empty = await bidder.click(forged, label="empty")
        assert empty.modal is None and "not one this bot made" in private_text(empty)
        unknown = await bidder.click(forged, label="unknown")
        assert unknown.modal is None and "does nothing here" in private_text(unknown)
        assert await versions(bot) == (0, version)
