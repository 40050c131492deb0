"""No Last Will control that can only be refused (issue 24, item 3), over random positions.

Seeded random games with 2 to 5 players in every mode, read in English and in French: at sampled
steps every control of the table and of every private panel its players can open is pressed as
the host would press it (the engine applies its action to a copy of the game), by the seat allowed
to press it:

- an action (a button or a select's choice) applies for a seat the game waits on;
- a multi-select's sets (sampled) apply as one action;
- a button that opens a panel opens one with such an action for the seat it is meant for, with
  one exception: a play from the hand ("Play a card…") whose panel is empty only because of which
  cards the seat holds, something the table must not know; then some hand of cards the table
  cannot rule out (a card in a hand or a deck) makes that play legal;
- a French table offers exactly the English table's controls;
- through Discord (SimCord) at a few random positions, both languages: every table button that
  opens a panel opens one for every seat (a move for the seat it is for), and a table move pressed
  by the players waited on is taken.

Two arranged cases pin what random play rarely reaches: a Bachelor Party's discards bounded by
cash, and a kind of play the hand cannot make (it says so above the whole hand).
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord

from bot.core.i18n import Catalog
from bot.ui.presenter import Button, Control, Panel, Select
from cogs.lastwill import LastWillPresenter
from cogs.lastwill.plays import PLAY_KINDS, could_hold
from harness.messages import Table, controls, response_of, words_of
from rules.core import Action, IllegalAction
from rules.lastwill import RULES, LastWillRules, LastWillState
from tests.cogs.lastwill_kit import Arranged, state_of
from tests.cogs.test_lastwill_presenter import fake_game, policy
from tests.rules.test_lastwill import actions_turn, build, hand, money, new, put, unemploy_all
from tests.simcord import ids, make_bot, panel, pinned_seed, private_text

MODES: list[tuple[int, dict[str, object]]] = [
    (2, {}),
    (3, {}),
    (4, {"employment": "handicap"}),
    (5, {"employment": "none"}),
    (3, {"expansion": "off"}),
    (4, {"plans": "original"}),
    (5, {}),
]
SEED = 20261128
INFO_CODES = frozenset({"hand", "done"})
"""Panels that only show things (one's hand, "closed"): opened by anyone seated, never refused."""


@pytest.fixture(scope="module")
def presenter() -> LastWillPresenter:
    return LastWillPresenter(Catalog.load())


def applies(state: LastWillState, seat: int, action: Action) -> bool:
    """Whether the engine accepts ``action`` from ``seat`` now (tried on a copy)."""
    copy = RULES.load(RULES.dump(state))
    try:
        RULES.apply(copy, seat, action)
    except IllegalAction:
        return False
    return True


def pressed(control: Control, rng: random.Random) -> Iterator[Action]:
    """The actions pressing ``control`` can send: a button's, each choice of a single select, and
    for a multi-select a few of its sets (every size it allows, chosen at random)."""
    if isinstance(control, Button):
        if control.action is not None and not control.disabled:
            yield control.action
        return
    if control.combine is None or control.max_values <= 1:
        yield from (choice.action for choice in control.choices)
        return
    picks = [arg for choice in control.choices for arg in choice.action.args]
    for size in range(control.min_values, min(control.max_values, len(picks)) + 1):
        combos = list(itertools.combinations(range(len(picks)), size))
        for combo in rng.sample(combos, min(3, len(combos))):
            yield Action(control.combine, tuple(picks[i] for i in combo))


def panel_tree(presenter: LastWillPresenter, game: Any, seat: int, code: str) -> Iterator[tuple[str, Panel]]:
    """The panel behind ``code`` for ``seat`` and every panel it opens in turn."""
    queue, seen = [code], set()
    while queue:
        code = queue.pop()
        if code in seen:
            continue
        seen.add(code)
        found = presenter.panel(game, seat, code)
        assert found is not None, code
        yield code, found
        queue += [c.ui for c in found.controls if isinstance(c, Button) and c.ui]


def meant_for(view: dict[str, Any], code: str) -> list[int]:
    """The seats a table button that opens a panel is for."""
    pending = view["pending"]
    if code == "answer":
        return [pending["seat"]]
    if code == "discard":
        return [p["seat"] for p in view["players"] if p["discard_owed"]]
    if code in ("draw", "bankrupt") or code.startswith("plays."):
        return [view["turn"]]
    raise AssertionError(f"a table button opens {code!r}: say whom it is for")


def could_play(state: LastWillState, seat: int, name: str) -> bool:
    """Whether some hand of one card the table cannot rule out makes a play of ``name`` legal."""
    for card in could_hold(state):
        copy = RULES.load(RULES.dump(state))
        build(copy).hand(seat, card)
        if any(a.kind in PLAY_KINDS[name] for a in RULES.legal_actions(copy, seat)):
            return True
    return False


def structure(controls: list[Control]) -> list[str]:
    """What a control does, whatever its words: for comparing an English and a French table."""
    out = []
    for control in controls:
        if isinstance(control, Select):
            out.append(f"select {control.combine} {[c.action.encode() for c in control.choices]}")
        else:
            ref = control.action.encode() if control.action is not None else control.ui
            out.append(f"button {ref} {control.disabled}")
    return out


def check(presenter: LastWillPresenter, game: Any, rng: random.Random, stats: dict[str, int]) -> None:
    state: LastWillState = game.state
    view = RULES.view(state, None)
    waiting = sorted(RULES.waiting_for(state))
    table = presenter.controls(game)
    for control in table:
        for action in pressed(control, rng):
            assert any(applies(state, s, action) for s in waiting), (action, view["phase"])
            stats["table actions"] += 1
        if not isinstance(control, Button) or control.ui is None or control.ui in INFO_CODES:
            continue
        for seat in meant_for(view, control.ui):
            usable = [
                action
                for _code, found in panel_tree(presenter, game, seat, control.ui)
                for c in found.controls
                for action in pressed(c, rng)
                if applies(state, seat, action)
            ]
            if not usable:
                name = control.ui.partition(".")[2]
                assert control.ui.startswith("plays.") and could_play(state, seat, name), (
                    f"{control.label!r} opens no move for seat {seat} ({view['phase']})"
                )
                stats["hidden dead ends"] += 1
            stats["panels"] += 1
    # Every panel a waited-for seat can reach offers only moves the engine takes.
    for seat in waiting:
        codes = {c.ui for c in table if isinstance(c, Button) and c.ui} | {"hand"}
        for code in codes:
            for found_code, found in panel_tree(presenter, game, seat, code):
                for c in found.controls:
                    for action in pressed(c, rng):
                        assert applies(state, seat, action), (found_code, action, seat, view["phase"])
                        stats["panel actions"] += 1
    game.row.language = "fr"
    try:
        french = presenter.controls(game)
    finally:
        game.row.language = "en"
    assert structure(french) == structure(table)
    for control in french:
        label = control.placeholder if isinstance(control, Select) else control.label
        assert label and "{" not in label, label


@pytest.mark.parametrize(("players", "options"), MODES, ids=[f"{p}p-{o or 'full'}" for p, o in MODES])
def test_every_control_offered_is_one_the_game_takes(
    presenter: LastWillPresenter, players: int, options: dict[str, object]
) -> None:
    stats: dict[str, int] = {"table actions": 0, "panels": 0, "panel actions": 0, "hidden dead ends": 0}
    phases: set[str] = set()
    for seed in range(3):
        state = RULES.setup(players, options, 100 + seed)
        game = fake_game(state, players)
        rng = random.Random(seed)
        for step in range(2500):
            if RULES.outcome(state) is not None:
                break
            if step % 4 == 0 or (state.pending is not None and step % 2 == 0):
                phases.add(state.phase if state.pending is None else f"pending {state.pending.step}")
                check(presenter, game, rng, stats)
            seat = rng.choice(sorted(RULES.waiting_for(state)))
            RULES.apply(state, seat, policy(rng, RULES.legal_actions(state, seat)))
    assert stats["table actions"] > 50 and stats["panels"] > 20 and stats["panel actions"] > 50, stats
    assert {"planning", "drawing", "errands", "actions"} <= phases, phases


def test_bachelor_party_offers_no_more_discards_than_cash_allows(presenter: LastWillPresenter) -> None:
    """BP2 pays £1 per discard and a player who owns property cannot go below £0: with £2 left
    after the play, the select takes at most two of the three dine cards (a third is refused)."""
    state = new(3, seed=1, last_will="lw-4a")
    unemploy_all(state)
    for seat in range(3):
        hand(state, seat)
    money(state, 0, 4)
    put(state, 0, "F3")
    hand(state, 0, "BP2", "DIN1", "DIN2", "DIN3")
    actions_turn(state, 0, 3)
    RULES.apply(state, 0, Action("special", ("BP2",)))
    assert state.pending is not None and state.pending.step == "bpx" and state.players[0].money == 2
    game = fake_game(state, 3)
    select = next(c for c in presenter.answer_panel(game, 0).controls if isinstance(c, Select))
    assert select.combine == "bpx" and len(select.choices) == 3 and select.max_values == 2
    assert applies(state, 0, Action("bpx", ("DIN1", "DIN2")))
    assert not applies(state, 0, Action("bpx", ("DIN1", "DIN2", "DIN3")))


def test_a_kind_the_hand_cannot_play_says_so_above_the_whole_hand(presenter: LastWillPresenter) -> None:
    """ "Buy a property…" is on the table whenever some hand could buy (the table cannot know that
    ana holds no property); her panel says so and offers what her hand can play instead."""
    state = new(3, seed=1, last_will="lw-4a")
    unemploy_all(state)
    for seat in range(3):
        hand(state, seat)
    money(state, 0, 40)
    hand(state, 0, "DIN10")
    actions_turn(state, 0, 3)
    game = fake_game(state, 3)
    shown = [c.label for c in presenter.controls(game) if isinstance(c, Button)]
    assert shown[:3] == ["Play a card…", "Buy a property…", "Lay a helper…"]
    buy = presenter.panel(game, 0, "plays.buy")
    assert buy is not None
    assert buy.text.startswith("You hold no property cards.\n**Your hand** (1 card;")
    assert [c.label for c in buy.controls if isinstance(c, Button)] == ["Play Dinner: 1 action, £2", "Done"]
    other = presenter.panel(game, 1, "plays.buy")
    assert other is not None and other.text == (
        "It is ana's turn, not yours: nothing to play now. My hand… shows your cards."
    )


# --- the same through Discord (SimCord) ---------------------------------------------------------


SWEEP = [(2, "en", 60), (3, "fr", 110), (4, "en", 170), (5, "fr", 230), (3, "en", 290), (4, "fr", 45)]
"""Positions pressed through SimCord: players, the table's language, random moves from the start."""


def advanced(moves: int, seed: int) -> Any:
    """A ``setup`` arrangement: ``moves`` random legal moves from the dealt game."""

    def arrange(state: LastWillState) -> None:
        rng = random.Random(seed)
        for _ in range(moves):
            if RULES.outcome(state) is not None:
                return
            seat = rng.choice(sorted(RULES.waiting_for(state)))
            RULES.apply(state, seat, policy(rng, RULES.legal_actions(state, seat)))

    return arrange


fixed_seed = pinned_seed(SEED)
"""The lobby's table seed, so each swept position repeats."""


async def test_every_table_control_pressed_through_discord(
    tmp_path: Path, lastwill_registered: Callable[[LastWillRules], None], french_clients: set[int]
) -> None:
    """At random positions (2 to 5 players, English and French tables): every button of the table
    that opens a panel opens one for each seat (its own move for the seat it is for), and one of
    the table's moves, pressed by the players waited on, is taken by one of them."""
    pressed_panels = taken = 0
    for index, (players, lang, moves) in enumerate(SWEEP):
        lastwill_registered(Arranged(advanced(moves, index)))
        bot = make_bot(tmp_path / str(index))
        async with simcord.run(bot, strict_sync=False) as env:
            guild = env.create_guild()
            channel = guild.create_text_channel("games")
            members = [
                guild.add_member(env.create_user(n)) for n in ("ana", "bob", "cy", "dee", "eve")[:players]
            ]
            french_clients.update(m.id for m in members)
            lobby = response_of(
                await members[0].slash(channel, "game new", name="lastwill", language=lang)
            ).message
            for member in members[1:]:
                await member.click(lobby, label="Join" if lang == "en" else "Rejoindre")
            await members[0].click(lobby, label="Start" if lang == "en" else "Commencer")
            table = Table(env, channel, members)
            state = await state_of(bot)
            view = RULES.view(state, None)
            waiting = sorted(RULES.waiting_for(state))
            board = table.table_message()
            items = [c for c in controls(board) if str(getattr(c, "custom_id", "")).count(":") >= 3]
            for item in items:
                cid = str(item.custom_id)
                code = cid.split(":", 3)[3]
                if not cid.startswith("u:") or code.startswith("h.") or code in INFO_CODES:
                    continue
                for seat, member in enumerate(members):
                    opened = await member.click(board, custom_id=cid)
                    shown = panel(opened)
                    pressed_panels += 1
                    if seat in meant_for(view, code):
                        moves_on = [i for i in ids(shown) if i.startswith(("g:", "a:", "s:"))]
                        assert moves_on or code.startswith("plays."), (code, seat, words_of(shown))
            rng = random.Random(index)
            where, members_to_try = board, [members[s] for s in waiting]
            actions = [c for c in items if str(c.custom_id).startswith(("g:", "a:", "s:"))]
            if not actions:  # drawing and discarding live on private panels: a move from the first
                code = next(
                    str(c.custom_id)
                    for c in items
                    if str(c.custom_id).startswith("u:")
                    and str(c.custom_id).split(":", 3)[3] in ("draw", "discard")
                )
                member = members[waiting[0]]
                where, members_to_try = panel(await member.click(board, custom_id=code)), [member]
                actions = [
                    c
                    for c in controls(where)
                    if str(getattr(c, "custom_id", "")).startswith(("g:", "a:", "s:")) and not c.disabled
                ]
            chosen = rng.choice(actions)
            before = (await bot.sessions.load(1)).version
            for member in members_to_try:
                if str(chosen.custom_id).startswith("s:"):
                    value = rng.choice([o.value for o in chosen.options])
                    result = await member.select(where, [value], custom_id=chosen.custom_id)
                else:
                    result = await member.click(where, custom_id=chosen.custom_id)
                assert result.acknowledged
                if (await bot.sessions.load(1)).version > before:
                    taken += 1
                    break
            else:
                raise AssertionError(
                    f"{chosen.custom_id} was taken from none of {waiting}: {private_text(result)}"
                )
    assert pressed_panels > 10 and taken == len(SWEEP)
