"""California through the real discord.py path (SimCord): a whole game played only by clicks.

The presenter's pure parts (labels, confirmations, the catch-up line) are also
checked directly on positions built with the engine, where reaching them by
clicks would take a whole game.
"""

from __future__ import annotations

import dataclasses
import random
import re
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord

from bot.client import GameBot
from bot.core.i18n import Catalog
from bot.games import REGISTRY
from bot.services.sessions import Applied, LiveGame
from bot.storage import GameRow, SeatRow
from bot.storage.codes import GameStatus
from bot.ui.presenter import Button
from cogs.california import CaliforniaPresenter
from harness.messages import Table, labels, response_of, words_of
from rules.california import ALL_ACTIONS, COIN, LOAN, RULES, State, data
from rules.california.builder import CaliforniaBuilder
from rules.core import Action, Event, IllegalAction
from rules.play import random_playthrough
from tests.simcord import buttons, make_bot, open_table, pinned_seed, playable

fixed_seed = pinned_seed()


def tile_buttons(message: discord.Message) -> list[Any]:
    """The store tiles on the table: a tile's spaces (``t.<store>.<slot>``), or a one-click buy
    when the tile can go to one place only."""
    return [
        b
        for b in buttons(message)
        if (b.custom_id or "").split(":")[-1].startswith(("t.", "buy.", "loan_buy."))
    ]


async def buy_something(table: Table, player: Any, rng: random.Random) -> bool:
    """Buy on the table itself: a tile, whose spaces replace the table's buttons in place, then an
    affordable space.  False (and Back) when nothing fits."""
    board = table.table_message()
    tiles = [b for b in tile_buttons(board) if not b.disabled]
    if not tiles:
        return False
    tile = rng.choice(tiles)
    picked = await player.click(board, custom_id=tile.custom_id)
    assert picked.acknowledged and not picked.ephemeral, "the spaces show on the table, not privately"
    if tile.custom_id.split(":")[-1].startswith(("buy.", "loan_buy.")):
        assert "→" in tile.label, "a one-click buy names its place"
        return True
    board = table.table_message()
    assert "where does it go" in words_of(board)
    affordable = [b for b in buttons(board) if b.style == discord.ButtonStyle.success and not b.disabled]
    if not affordable:
        back = await player.click(board, label="Back")
        assert back.acknowledged and tile_buttons(table.table_message())
        return False
    done = await player.click(board, custom_id=rng.choice(affordable).custom_id)
    assert done.acknowledged and not done.ephemeral
    return True


async def test_a_whole_three_player_game_by_clicks(tmp_path: Path) -> None:
    rng = random.Random(7)
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        first = table.table_message()
        assert (
            first.attachments and "Day 1 of 12" in words_of(first) and "1 gold = 5 silver" in words_of(first)
        )
        assert set(labels(first)) >= {"Take a coin", "My mansion", "Catch me up"}
        assert len(tile_buttons(first)) == len(set(labels(first)) & {b.label for b in tile_buttons(first)})
        assert "Take a loan (+3)" in labels(first) and "Repay loan (4)" not in labels(first), (
            "the player on turn's own loan, when they may take one"
        )
        for _ in range(400):
            if not any(playable(m) for m in table.messages()):
                break
            player = table.on_turn()
            if rng.random() < 0.75 and await buy_something(table, player, rng):
                continue
            result = await player.click(table.table_message(), label="Take a coin")
            assert result.acknowledged and not result.ephemeral
        else:
            raise AssertionError("the game did not end")
        text = "\n".join(words_of(m) for m in table.messages())
        assert "Final standings" in text
        assert "bought" in text and "took a gold coin" in text and "Day 12 of 12 begins" in text
        final = table.messages()[-1]
        assert final.attachments
        assert "gifts" in words_of(final) and "spaces" in words_of(final)


async def test_loan_out_of_turn_and_refusals(tmp_path: Path) -> None:
    """Loans are each seat's own, any time: on the private "My mansion" panel, only when that seat
    may take or repay one; the table shows the player on turn's, and tells anybody else who presses
    them whose they are (issue 24: no table button that can only be refused)."""
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        mover = table.on_turn()
        idle = next(p for p in table.players if p.id != mover.id)
        board = table.table_message()

        mansion = response_of(await idle.click(board, label="My mansion")).message
        assert "Take a loan (+3)" in labels(mansion) and "Repay loan (4)" not in labels(mansion)
        loan = await idle.click(mansion, label="Take a loan (+3)")
        assert loan.acknowledged
        assert table.table_message().id == board.id, "an out-of-turn loan edits the table in place"
        assert "took a loan (+3 silver)" in words_of(table.table_message())

        again = response_of(await idle.click(table.table_message(), label="My mansion")).message
        assert "Take a loan (+3)" not in labels(again), "already has a loan: no second one offered"

        tile = next(b for b in tile_buttons(table.table_message()) if not b.disabled)
        not_yours = await idle.click(table.table_message(), custom_id=tile.custom_id)
        assert not_yours.ephemeral and "only on your turn" in words_of(not_yours.response)
        wrong = await idle.click(table.table_message(), label="Take a coin")
        assert wrong.ephemeral

        # The table's loan is the player on turn's: the idle player (who has one) is told so.
        assert "Take a loan (+3)" in labels(table.table_message()) and "Repay loan (4)" not in labels(
            table.table_message()
        )
        assert isinstance(env.bot, GameBot)
        version = (await env.bot.sessions.load(1)).version
        theirs = await idle.click(table.table_message(), label="Take a loan (+3)")
        assert theirs.ephemeral and words_of(theirs.response) == (
            f"That button is {mover.name}'s. Your own loan is in My mansion, at any time."
        )
        assert (await env.bot.sessions.load(1)).version == version, "nothing changed"
        repay = await idle.click(again, label="Repay loan (4)")
        assert repay.acknowledged and "repaid" in words_of(table.table_message())
        after = response_of(await idle.click(table.table_message(), label="My mansion")).message
        assert "Repay loan (4)" not in labels(after), "no loan left: Repay is hidden"


def dearest(panel: discord.Message, style: discord.ButtonStyle) -> Any | None:
    """The enabled space button of ``style`` with the highest total price (the number after "·")."""
    found = [b for b in buttons(panel) if b.style == style and not b.disabled and "·" in (b.label or "")]
    return max(found, key=lambda b: int(b.label.split("·")[1].split()[0])) if found else None


async def test_borrow_and_buy_is_one_click_and_out_of_reach_spaces_are_disabled(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob"], game="california")
        # Spend down by buying the dearest spaces until a blue "borrow 3" space shows.
        for _ in range(30):
            mover = table.on_turn()
            board = table.table_message()
            assert "1 gold = 5 silver" in words_of(board)
            tiles = [b for b in tile_buttons(board) if not b.disabled]
            assert all(re.search(r"· from \d+|→ \S+ · \d+", b.label) for b in tiles), [b.label for b in tiles]
            tiles = [b for b in tiles if b.custom_id.split(":")[-1].startswith("t.")]
            for shut in (b for b in tile_buttons(board) if b.disabled):
                assert re.search(r"no legal space|needs \d+", shut.label), shut.label
            if not tiles:
                assert any("even a loan gives" in b.label for b in tile_buttons(board))
                await mover.click(board, label="Take a coin")
                continue
            borrowing = [b for b in tiles if b.label.endswith("with a loan")]
            pick = borrowing[0] if borrowing else tiles[0]
            await mover.click(board, custom_id=pick.custom_id)
            panel = table.table_message()
            blue = dearest(panel, discord.ButtonStyle.primary)
            if blue is None:
                green = dearest(panel, discord.ButtonStyle.success)
                assert green is not None, "a space the tile may go"
                await mover.click(panel, custom_id=green.custom_id)
                continue
            assert blue.label.endswith("borrow 3") and "Blue buttons take a loan" in words_of(panel)
            for grey in (b for b in buttons(panel) if b.style == discord.ButtonStyle.secondary):
                assert grey.disabled or grey.label in ("Back", "Catch me up", "Undo my last move"), grey.label
            done = await mover.click(panel, custom_id=blue.custom_id)
            assert done.acknowledged
            said = "\n".join(words_of(f) for f in done.followups)
            assert "You took a loan (+3 silver) and bought the" in said and all(
                f.ephemeral for f in done.followups
            )
            log = table.recent(3)
            assert "took a loan (+3 silver)" in log and "bought" in log
            mansion = response_of(await mover.click(table.table_message(), label="My mansion")).message
            assert "Take a loan (+3)" not in labels(mansion), "the purchase took this seat's loan"
            return
        raise AssertionError("never needed a loan to buy")


async def test_my_mansion_is_a_private_picture_for_any_seated_player(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        mover = table.on_turn()
        idle = next(p for p in table.players if p.id != mover.id)
        count = len(table.messages())
        for player in (mover, idle):
            shown = await player.click(table.table_message(), label="My mansion")
            assert shown.ephemeral
            answer = response_of(shown).message
            assert "rows A–D and columns 1–4" in words_of(answer)
            assert "You have 6 silver (1 gold + 1 silver; 1 gold = 5 silver) and no loan." in words_of(answer)
            assert len(answer.attachments) == 1 and answer.attachments[0].filename.endswith(".png")
        assert len(table.messages()) == count, "a private zoom changes nothing in the channel"


async def test_restart_mid_game(tmp_path: Path) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        await table.on_turn().click(table.table_message(), label="Take a coin")
        board = table.table_message()
        tile = next(b for b in tile_buttons(board) if not b.disabled)
        await table.on_turn().click(board, custom_id=tile.custom_id)
        await env.restart_bot(make_bot(tmp_path))
        # The spaces shown on the table before the restart still work, and so does Back.
        back = await table.on_turn().click(table.table_message(), label="Back")
        assert back.acknowledged and tile_buttons(table.table_message())
        result = await table.on_turn().click(table.table_message(), label="Take a coin")
        assert result.acknowledged and not result.ephemeral
        assert "took a gold coin" in table.recent()


async def test_an_old_private_store_panel_still_buys(tmp_path: Path) -> None:
    """Tables drawn before the tiles moved onto the table had "Buy a tile…" (code ``buy``): it still
    opens the private store panel, whose tiles open private spaces with Back to that list."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        table = await open_table(env, ["ana", "bob", "cy"], game="california")
        mover = table.on_turn()
        game = await bot.sessions.load(1)
        old_button = Button("Buy a tile…", ui="buy")
        await bot.publisher.publish(game)  # nothing queued: a no-op, the table stays as it is
        # Deliberately no interaction: the private panel is built from the game alone.
        panel = await PRESENTER.on_ui(None, game, game.seat_of(mover.id), old_button.ui or "")  # type: ignore[arg-type]
        assert "Which tile?" in panel.text and not panel.public
        tile = next(c for c in panel.controls if isinstance(c, Button) and not c.disabled)
        assert tile.ui is not None
        seat = game.seat_of(mover.id)
        assert seat is not None
        store, slot = map(int, tile.ui.split(".")[1:])
        spaces = PRESENTER.space_panel(game, seat, store, slot)
        assert any(isinstance(c, Button) and c.ui == "buy" for c in spaces.controls), (
            "Back to the private list"
        )


# --- the presenter on positions built with the engine ------------------------------------------------

PRESENTER = CaliforniaPresenter(Catalog.load())


def live(state: State, names: tuple[str, ...] = ("Ana", "Bob", "Cy"), language: str = "en") -> LiveGame:
    """A LiveGame around ``state`` without a database (the row's other fields do not matter here)."""
    blank: dict[str, Any] = {f.name: None for f in dataclasses.fields(GameRow)}
    row = GameRow(
        **{**blank, "id": 1, "game": "california", "status": "active", "language": language, "version": 0}
    )
    entry = REGISTRY.get("california")
    assert entry is not None
    seats = [SeatRow(seat, 1000 + seat, name) for seat, name in enumerate(names[: state.n])]
    return LiveGame(row=row, entry=entry, seats=seats, state=state, version=0, status=GameStatus.ACTIVE)


def applied(game: LiveGame, seat: int, action: Action) -> Applied:
    events = RULES.apply(game.state, seat, action)
    return Applied(
        game=game,
        seat=seat,
        action=action,
        events=events,
        version=1,
        public=True,
        waiting_before=frozenset(),
        waiting_after=frozenset(),
        finished=game.state.over,
        millis=0.0,
    )


def last_day_green_room() -> CaliforniaBuilder:
    """Seed 5, Ana on turn on the last day, store 1 holding only a green room: buying it ends the game."""
    return (
        CaliforniaBuilder(3, seed=5)
        .on_turn(0)
        .day(data.DAYS)
        .empty_slots(0, 1, 2, 3)
        .offer(0, 0, "room", data.GREEN)
    )


def test_a_game_ending_purchase_is_confirmed_as_a_purchase() -> None:
    state = last_day_green_room().build()  # one tile left in store 1: buying it ends the last day
    RULES.apply(state, 1, LOAN)  # Bob's loan is repaid automatically at the end
    RULES.apply(state, 0, LOAN)  # and so is Ana's
    game = live(state)
    result = applied(game, 0, Action("buy", (0, 0, 4)))
    assert state.over
    text = PRESENTER.confirmation(game, result)
    assert text is not None
    assert text == (
        "You bought the green room (conservatory) for 5 silver and placed it on B1. "
        "The game is over and your loan was repaid automatically (4 silver): 0 silver left."
    ), "the purchase first, then what the end did to the buyer's own loan (not Bob's)"


def test_a_game_ending_purchase_with_an_unpayable_loan_says_so() -> None:
    state = last_day_green_room().money(0, 4).build()
    game = live(state)
    text = PRESENTER.confirmation(game, applied(game, 0, Action("loan_buy", (0, 0, 1))))
    assert text == (
        "You took a loan (+3 silver) and bought the green room (conservatory) for 6 silver, placed on A2. "
        "The game is over with your loan unpaid (−2 points): 1 silver left."
    )


def test_borrow_and_buy_is_confirmed_with_its_loan_and_a_plain_loan_as_a_loan() -> None:
    state = CaliforniaBuilder(3, seed=5).on_turn(0).offer(0, 0, "room", data.GREEN).money(0, 4).build()
    game = live(state)
    text = PRESENTER.confirmation(game, applied(game, 0, Action("loan_buy", (0, 0, 0))))
    assert text == (
        "You took a loan (+3 silver) and bought the green room (conservatory) for 5 silver, placed on A1. "
        "You have 2 silver left; repaying your loan costs 4."
    )
    # A plain loan, a coin or a plain buy: the public line above the new board says it all.
    assert PRESENTER.confirmation(game, applied(game, 2, LOAN)) is None
    assert PRESENTER.confirmation(game, applied(game, 1, COIN)) is None


def test_loan_and_repay_are_offered_privately_to_the_seats_that_may_use_them() -> None:
    """Every seat's own in My mansion; on the table, the player on turn's (whose they are)."""
    state = RULES.setup(3, {}, 5)
    game = live(state)
    turn = RULES.view(state, None)["turn"]
    other = next(seat for seat in range(3) if seat != turn)

    def shown() -> list[str]:
        return [c.label for c in PRESENTER.controls(game) if isinstance(c, Button) and c.row == 0]

    def loans(seat: int) -> list[str]:
        return [c.label for c in PRESENTER.loan_panel(game, seat).controls if isinstance(c, Button)]

    assert shown() == ["Take a coin", "Take a loan (+3)", "My mansion"]
    assert PRESENTER.owner(game, LOAN) == turn and PRESENTER.owner(game, COIN) is None
    assert loans(other) == ["Take a loan (+3)"]
    RULES.apply(state, other, LOAN)
    assert shown() == ["Take a coin", "Take a loan (+3)", "My mansion"], "another seat's loan is its own"
    assert loans(other) == ["Repay loan (4)"] and loans(turn) == ["Take a loan (+3)"]
    RULES.apply(state, turn, LOAN)
    assert "Take a loan (+3)" not in shown(), "the player on turn has one: their table button goes"
    for seat in range(3):
        if LOAN in RULES.legal_actions(state, seat):
            RULES.apply(state, seat, LOAN)
    assert all(loans(seat) == ["Repay loan (4)"] for seat in range(3))
    assert PRESENTER.panel_for(game, 1, LOAN) is not None, "a stale loan button finds its panel"
    assert len(PRESENTER.controls(game)) <= 24, "room for the host's own button"


def test_catch_up_tells_a_seat_its_own_purse() -> None:
    state = RULES.setup(3, {}, 5)
    RULES.apply(state, 1, LOAN)
    game = live(state)
    assert PRESENTER.private_summary(game, 1) == [
        "You have 9 silver (1 gold + 4 silver; 1 gold = 5 silver) and an open loan "
        "(repaying it costs 4 silver). Score so far: 1."
    ]
    assert PRESENTER.private_summary(game, 0) == [
        "You have 6 silver (1 gold + 1 silver; 1 gold = 5 silver) and no loan. Score so far: 1."
    ]


def test_tile_buttons_give_the_cheapest_price_or_why_not() -> None:
    b = CaliforniaBuilder(3, seed=5).on_turn(0)  # the 2-3 player side: fees 0, 1 or 2
    for slot, (kind, colour) in enumerate(
        [("room", data.GREEN), ("furniture", data.BLUE), ("room", data.RED), ("furniture", data.RED)]
    ):
        b.offer(0, slot, kind, colour)
    state = b.attic(0, data.GRAY).build()  # the attic is full: blue furniture has nowhere to go
    game = live(state)

    def tiles() -> list[tuple[str, bool]]:
        panel = PRESENTER.store_panel(game, 0)
        return [(c.label, c.disabled) for c in panel.controls if isinstance(c, Button)][:4]

    assert tiles() == [
        ("Store 1: green room [Gn] · from 4", False),
        ("Store 1: swimming pool [Bl] – no legal space", True),
        ("Store 1: red room [Rd] · from 4", False),
        ("Store 1: grand piano [Rd] · from 4", False),  # into the printed red room
    ]
    b.money(0, 2).build()
    assert tiles()[0] == ("Store 1: green room [Gn] · from 4 with a loan", False)
    b.money(0, 0).build()
    assert tiles()[0] == ("Store 1: green room [Gn] – needs 4, even a loan gives 3", True)
    RULES.apply(state, 0, LOAN)
    b.money(0, 2).build()
    assert tiles()[0] == ("Store 1: green room [Gn] – needs 4, you have 2", True)


def refusals() -> dict[str, tuple[State, IllegalAction]]:
    """One refusal of each kind met by offering every action to every seat along seeded games."""
    found: dict[str, tuple[State, IllegalAction]] = {}
    for seed in range(3):
        run = random_playthrough(RULES, 2 + seed, seed, stop_after=60, check=False)
        state = run.state
        for seat in range(state.n):
            legal = set(RULES.legal_actions(state, seat))
            for action in (a for a in ALL_ACTIONS if a not in legal):
                try:
                    RULES.apply(state, seat, action)
                except IllegalAction as exc:
                    found.setdefault(exc.key, (state, exc))
                else:
                    raise AssertionError(f"{action} was applied though not legal")
    return found


def test_every_refusal_reads_as_a_sentence_in_both_languages() -> None:
    """Refusals name their tokens (a tile, a room, a space, a store) in the table's language."""
    found = refusals()
    assert {"buy_not_your_turn", "coin_not_your_turn", "empty_slot", "must_touch"} <= set(found), sorted(
        found
    )
    english_words = re.compile(r"\b(brown|red|purple|gray|blue|green|expansion|attic|room|silver)\b")
    for key, (state, exc) in sorted(found.items()):
        english = PRESENTER.illegal(live(state), exc, "en")
        french = PRESENTER.illegal(live(state, language="fr"), exc, "fr")
        for said in (english, french):
            assert "{" not in said and key not in said, said
        assert french != english and not english_words.search(french), french
    state, exc = found["empty_slot"]
    store, slot = exc.params["store"], exc.params["slot"]
    assert isinstance(store, int) and isinstance(slot, int)
    assert PRESENTER.illegal(live(state, language="fr"), exc, "fr") == (
        f"Le magasin {store + 1} n'a plus de tuile à la place {slot + 1}."
    ), "stores and slots are numbered from 1, as on the board"


def test_a_refusal_names_the_tile_with_its_own_article_in_french() -> None:
    b = CaliforniaBuilder(3, seed=5).on_turn(0)
    state = b.offer(0, 0, "furniture", data.GRAY).build()
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, 0, Action("buy", (0, 0, 3)))
    assert info.value.key == "furniture_to_attic"
    assert PRESENTER.illegal(live(state, language="fr"), info.value, "fr") == (
        "Vous n'avez pas de pièce grise vide : la moto va au grenier."
    )
    assert PRESENTER.illegal(live(state), info.value, "en") == (
        "You have no empty gray room, so the motorcycle goes into the attic."
    )
    b.offer(0, 0, "room", data.RED).build()
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, 0, Action("buy", (0, 0, 12)))
    assert PRESENTER.illegal(live(state, language="fr"), info.value, "fr") == (
        "Cette case porte la pièce rouge imprimée sur votre manoir."
    )
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, 0, Action("buy", (0, 0, 9)))
    assert PRESENTER.illegal(live(state, language="fr"), info.value, "fr") == (
        "Votre manoir a déjà une pièce rouge : celle-ci doit toucher une pièce rouge (pas en diagonale)."
    )


# --- the same words in French ------------------------------------------------------------------------

E = Event


def test_a_french_table_reads_every_event_in_french() -> None:
    """Events carry tokens (colour keys, a card index); the presenter writes whole French phrases,
    the article and the colour agreeing with each noun."""
    state = RULES.setup(3, {}, 5)
    game = live(state, language="fr")
    bought = {"store": 1, "slot": 2, "tile": 7, "price": 3, "money": 2}
    events = [
        E("tile_bought", 1, {**bought, "kind": "room", "colour": "red", "target": 5, "fee": 1, "cost": 4}),
        E("furniture_moved", 1, {"tile": 30, "colour": "red", "space": 5}),
        E("guest_arrives", 1, {"colour": "red", "from": 2}),
        E("gift", 1, {"colour": "red", "gifts": 2}),
        E("bonus_card", 1, {"card": 1, "points": 3, "total": 9}),
        E(
            "tile_bought",
            0,
            {**bought, "kind": "furniture", "colour": "gray", "target": "attic", "fee": 0, "cost": 3},
        ),
        E("furniture_stored", 0, {"tile": 40, "colour": "gray"}),
        E(
            "tile_bought",
            2,
            {**bought, "kind": "expansion", "colour": None, "target": "expansion", "fee": 0, "cost": 3},
        ),
        E(
            "tile_bought",
            0,
            {**bought, "kind": "furniture", "colour": "green", "target": 9, "fee": 0, "cost": 3},
        ),
        E("guest_stays", 0, {"colour": "green"}),
        E("loan_repaid", 0, {"amount": 4, "money": 0, "automatic": True}),
    ]
    assert PRESENTER.lines(game, events) == [
        "Bob a acheté une pièce rouge (salle de musique) pour 4 argent (supplément compris) et a rénové B2 ; "
        "le grand piano, qui attendait au grenier, s'y installe ; le voisin rouge quitte Cy pour venir en "
        "visite et apporte un cadeau.",
        "Bob prend la carte bonus « trois grands pianos » (+3 ; 9 points bonus).",
        "Ana a acheté une moto pour 3 argent et l'entrepose au grenier.",
        "Cy a acheté un agrandissement du grenier pour 3 argent : son grenier s'agrandit.",
        "Ana a acheté un chien pour 3 argent et a meublé sa pièce verte ; le voisin vert est déjà là.",
        "Fin de partie : Ana rembourse son emprunt (4 argent).",
    ]


def test_a_french_table_gets_french_buttons_and_confirmations() -> None:
    state = last_day_green_room().money(0, 4).build()
    game = live(state, language="fr")
    labels = [c.label for c in PRESENTER.store_panel(game, 0).controls if isinstance(c, Button)]
    assert labels[0] == "Magasin 1 : pièce verte [Ve] · dès 4"
    assert all(label.startswith("Magasin ") for label in labels)
    assert not re.search(r"\b(room|Store|from|needs|Rd|Gn|Pu|Gy)\b", " ".join(labels)), labels
    text = PRESENTER.confirmation(game, applied(game, 0, Action("loan_buy", (0, 0, 1))))
    assert text == (
        "Vous avez emprunté (+3 argent) et acheté la pièce verte (jardin d'hiver) pour 6 argent ; la tuile "
        "est placée en A2. La partie est finie sans que votre emprunt soit remboursé (−2 points) : il vous "
        "reste 1 argent."
    )
