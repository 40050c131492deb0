"""A whole game of California at a French table, through the real discord.py path (SimCord).

The table is opened with ``/game new language: fr`` and played to its final standings by clicks
only; along the way its messages, buttons, private panels, refusals and standings are checked to
be French (sentences from ``fr.toml``, and none of a list of English giveaways), and every string
the board and "My mansion" images hand to Pillow is checked to come from the French catalog.

SimCord sends every interaction with ``locale: en-US``; the players here have French Discord
clients, made by rewriting the payload SimCord builds (``french_clients``, ``tests/conftest.py``).
The game's refusals stay in the table's language whatever a player's client is; the host's own
refusals and answers follow the client (``tests/bot/ui/test_language.py``).
"""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import discord
import simcord

from harness.messages import Table, labels, response_of, words_of
from tests.helpers import fr
from tests.simcord import buttons, make_bot, pinned_seed, playable

fixed_seed = pinned_seed()

ENGLISH = re.compile(
    r"\b(silver|gold|coin|bought|took|day|days|mansion|catch|rematch|standings|guest|gift|gifts"
    r"|room|rooms|store|stores|loan|the|turn|wins|spaces|attic|expansion|furnished|renovated|visits"
    r"|tiles?|cost|from|with|left|back|price|to play|STORE|BANK|KEY|LOAN|ATTIC)\b"
)
"""English giveaways: none may appear in a French table's messages, buttons, panels or pictures."""

IMAGE_FRENCH = {"MAGASIN", "BANQUE", "CARTES", "Dernier", "coup", "Pioche", "Sac", "Cadeaux", "argent"}
IMAGE_FRENCH |= {"LÉGENDE", "GRENIER", "grenier", "Manoir", "pièce", "meublée", "supplément", "prix"}


def english_in(text: str) -> list[str]:
    return sorted(set(ENGLISH.findall(text)))


def tile_buttons(message: discord.Message) -> list[Any]:
    """The store tiles on the table: a tile's spaces (``t.<store>.<slot>``) or a one-click buy."""
    return [
        b
        for b in buttons(message)
        if (b.custom_id or "").split(":")[-1].startswith(("t.", "buy.", "loan_buy."))
    ]


def store_of(button: Any) -> int:
    """The store a tile button buys from (its action's or its ui code's first number)."""
    return int(re.findall(r"\d+", (button.custom_id or "").split(":")[-1])[0])


async def buy_something(table: Table, player: Any, rng: random.Random, seen: list[str]) -> bool:
    """Buy on the table: a tile from the emptiest store (so days end quickly), then an affordable
    space.  False (after Back, "Retour") when nothing fits."""
    board = table.table_message()
    tiles = [b for b in tile_buttons(board) if not b.disabled]
    if not tiles:
        return False
    counts = {s: sum(1 for b in tile_buttons(board) if store_of(b) == s) for s in (0, 1)}
    tile = min(tiles, key=lambda b: (counts[store_of(b)], rng.random()))
    seen.append(tile.label)
    picked = await player.click(board, custom_id=tile.custom_id)
    assert picked.acknowledged and not picked.ephemeral
    if tile.custom_id.split(":")[-1].startswith(("buy.", "loan_buy.")):
        return True
    board = table.table_message()
    assert "où la placer ?" in words_of(board), words_of(board)
    seen.append(words_of(board))
    seen.extend(labels(board))
    affordable = [b for b in buttons(board) if b.style == discord.ButtonStyle.success and not b.disabled]
    if not affordable:
        back = await player.click(board, label=fr("california.panel.back"))
        assert back.acknowledged
        return False
    done = await player.click(board, custom_id=rng.choice(affordable).custom_id)
    assert done.acknowledged and not done.ephemeral
    seen.extend(words_of(f) for f in done.followups)
    return True


async def test_a_whole_french_game_by_clicks(
    tmp_path: Path, french_clients: set[int], drawn: list[str]
) -> None:
    rng = random.Random(3)
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("jeux")
        players = [guild.add_member(env.create_user(name)) for name in ("ana", "bob")]
        french_clients.update(p.id for p in players)
        created = await players[0].slash(channel, "game new", name="california", language="fr")
        lobby = response_of(created).message
        assert "cherche des joueurs" in words_of(lobby)
        await players[1].click(lobby, label=fr("host.lobby.join"))
        await players[0].click(lobby, label=fr("host.lobby.start"))
        table = Table(env, channel, players)

        # The table: French status, French buttons, tiles named and coded in French.
        board = table.table_message()
        assert board.attachments
        assert "Journée 1 sur 12" in words_of(board) and "1 or = 5 argent" in words_of(board)
        shown = labels(board)
        assert {fr("california.button.coin"), fr("california.button.mansion")} <= set(shown)
        assert fr("california.button.loan") in shown, "the player on turn's own loan"
        assert fr("host.button.catch_up") in shown
        assert all(
            re.search(r"· dès \d+|→ \S+ · \d+|aucune case|il faut", b.label) for b in tile_buttons(board)
        )
        assert not english_in(words_of(board) + "\n" + "\n".join(shown)), english_in(" ".join(shown))

        # Refusals: the wrong player (in the table's language, whatever the reader's), and a loan
        # and its repayment on the private "Mon manoir" panel, offered only when possible.
        mover = table.on_turn()
        idle = next(p for p in players if p.id != mover.id)
        tile = next(b for b in tile_buttons(board) if not b.disabled)
        not_yours = await idle.click(board, custom_id=tile.custom_id)
        assert not_yours.ephemeral and words_of(not_yours.response) == fr("california.panel.not_your_turn")
        theirs = await idle.click(table.table_message(), label=fr("california.button.loan"))
        assert words_of(theirs.response) == (
            fr("host.refuse.someone_elses", player=mover.name) + " " + fr("california.refuse.own_loan")
        )
        wrong = await idle.click(table.table_message(), label=fr("california.button.coin"))
        assert wrong.ephemeral
        assert words_of(wrong.response) == fr("california.illegal.coin_not_your_turn")
        own = await idle.click(table.table_message(), label=fr("california.button.mansion"))
        loan = await idle.click(response_of(own).message, label=fr("california.button.loan"))
        assert loan.acknowledged and "a emprunté (+3 argent)" in words_of(table.table_message())
        again = response_of(
            await idle.click(table.table_message(), label=fr("california.button.mansion"))
        ).message
        assert fr("california.button.loan") not in labels(again), "a second loan is not offered"
        # A player whose client is in English: the game's refusal stays in the table's French (it
        # names things as the board does).
        french_clients.discard(idle.id)
        english = await idle.click(table.table_message(), label=fr("california.button.coin"))
        assert words_of(english.response) == fr("california.illegal.coin_not_your_turn")
        french_clients.add(idle.id)
        repaid = await idle.click(again, label=fr("california.button.repay"))
        assert repaid.acknowledged and "a remboursé son emprunt (4 argent)" in words_of(table.table_message())

        # "Mon manoir": a private French panel with its picture, for either player.
        mansion = await idle.click(table.table_message(), label=fr("california.button.mansion"))
        answer = response_of(mansion).message
        assert mansion.ephemeral and answer.attachments
        assert words_of(answer).startswith("Votre manoir : rangées A–D et colonnes 1–4")
        assert "Vous avez 5 argent (1 or + 0 argent ; 1 or = 5 argent) et aucun emprunt." in words_of(answer)
        assert not english_in(words_of(answer)), english_in(words_of(answer))

        # The whole game, by clicks: buy when something fits, else take a coin.
        private: list[str] = []
        for _ in range(200):
            if not any(playable(m) for m in table.messages()):
                break
            player = table.on_turn()
            private.extend(labels(table.table_message()))
            if rng.random() < 0.8 and await buy_something(table, player, rng, private):
                continue
            took = await player.click(table.table_message(), label=fr("california.button.coin"))
            assert took.acknowledged and not took.ephemeral
        else:
            raise AssertionError("the game did not end")

        text = "\n".join(words_of(m) for m in table.messages())
        assert "a acheté" in text and "a pris une monnaie d'or" in text
        assert "La journée 12 sur 12 commence" in text or "est la dernière" in text
        final = table.messages()[-1]
        assert final.attachments and "Classement final" in text
        assert "cadeau" in words_of(final) and "cases" in words_of(final)
        assert labels(final) == [fr("host.button.catch_up"), fr("host.button.rematch")]
        everything = "\n".join([text, *private, *(label for m in table.messages() for label in labels(m))])
        assert not english_in(everything), english_in(everything)

    # The pictures: every string drawn came from the French catalog.
    words = {word for string in drawn for word in re.findall(r"[^\W\d_]+", string)}
    assert words >= IMAGE_FRENCH, sorted(IMAGE_FRENCH - words)
    assert fr("california.image.game_over") in drawn
    assert any(s.endswith(" gagne") or s.startswith("Égalité : ") for s in drawn)
    assert not english_in("\n".join(drawn)), english_in("\n".join(drawn))
