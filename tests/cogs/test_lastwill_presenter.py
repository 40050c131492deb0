"""Last Will's presenter below Discord: every line, every move, every price, nothing hidden.

Over seeded random games in every mode (full employment, handicap, none, the base game, original
plans; 2 to 5 players), at every step:

- every public event has a line with no "{" and every private event a private line;
- every legal action of every waited-for seat is on the table or on a panel the seat can open
  from it (multi-selects count for every set they can make);
- every label, placeholder and panel fits Discord and reads without "{";
- a move's price on its label is the pounds the engine then spends or receives;
- the table (status, labels, custom_ids) is the same whatever the hidden cards are, and names
  no card in a hand.
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.core.i18n import Catalog
from bot.core.registry import GameEntry
from bot.storage.codes import GameStatus
from bot.ui.presenter import Button, Control, Panel, Select
from bot.ui.safe import chunks
from cogs.lastwill import TABLE_KINDS, LastWillPresenter
from rules.core import Action, Event, IllegalAction
from rules.lastwill import (
    RULES,
    LastWillState,
    buy_price,
    data,
    expense_cost,
    free_sale_price,
    maintain_cost,
    opera_cost,
    play_cost,
    sale_price,
)
from rules.lastwill.cards import DECK_OF
from tests.cogs.conftest import public_board
from tests.helpers import bare_game
from tests.rules.test_lastwill import actions_turn, hand, job, money, new, put, unemploy_all

NAMES = ("ana", "bob", "cy", "dee", "eve")
MODES: list[tuple[int, dict[str, object]]] = [
    (3, {}),
    (2, {}),
    (4, {"employment": "handicap"}),
    (5, {"employment": "none"}),
    (3, {"expansion": "off"}),
    (4, {"plans": "original"}),
    (5, {}),
]


def fake_game(state: LastWillState, players: int) -> Any:
    """What the presenter reads of a live game, around a bare state."""
    entry = GameEntry(RULES, public_board, LastWillPresenter)
    status = GameStatus.ACTIVE if RULES.outcome(state) is None else GameStatus.FINISHED
    return bare_game(entry, state, NAMES[:players], first_user=1, status=status)


@pytest.fixture(scope="module")
def presenter() -> LastWillPresenter:
    return LastWillPresenter(Catalog.load())


# --- what a seat can press ---------------------------------------------------------------------


def check_controls(controls: list[Control]) -> None:
    for control in controls:
        if isinstance(control, Select):
            assert "{" not in control.placeholder and 0 < len(control.placeholder) <= 150, control.placeholder
            for choice in control.choices:
                assert "{" not in choice.label and 0 < len(choice.label) <= 100, choice.label
                assert choice.description is None or len(choice.description) <= 100
        else:
            assert "{" not in control.label and 0 < len(control.label) <= 80, control.label
            ref = control.action.encode() if control.action is not None else control.ui or control.modal or ""
            assert len(f"g:123456:123456:{ref}") <= 100, ref


def panels(presenter: LastWillPresenter, game: Any, seat: int) -> Iterator[Panel]:
    """Every panel the seat can reach from the table, following ui buttons (the host's way)."""
    queue = [c.ui for c in presenter.controls(game) if isinstance(c, Button) and c.ui]
    seen: set[str] = set()
    while queue:
        code = queue.pop()
        if code in seen:
            continue
        seen.add(code)
        found = presenter.panel(game, seat, code)
        assert found is not None, code
        yield found
        queue += [c.ui for c in found.controls if isinstance(c, Button) and c.ui]


def reachable(presenter: LastWillPresenter, game: Any, seat: int) -> tuple[set[Action], list[Select]]:
    """Actions behind enabled buttons and single selects, and the multi-selects, of the table and
    every panel the seat can open."""
    actions: set[Action] = set()
    sets: list[Select] = []
    controls = presenter.controls(game)
    check_controls(controls)
    every = list(controls)
    for found in panels(presenter, game, seat):
        assert "{" not in found.text and 0 < len(found.text) <= 2000, found.text
        check_controls(found.controls)
        every += found.controls
    for control in every:
        if isinstance(control, Select):
            if control.combine is not None and control.max_values > 1:
                sets.append(control)
            else:
                actions |= {choice.action for choice in control.choices}
        elif control.action is not None and not control.disabled:
            actions.add(control.action)
    return actions, sets


def in_a_set(action: Action, sets: list[Select]) -> bool:
    for select in sets:
        picks = {arg for choice in select.choices for arg in choice.action.args}
        if (
            select.combine == action.kind
            and set(action.args) <= picks
            and select.min_values <= len(action.args) <= select.max_values
        ):
            return True
    return False


# --- prices on labels --------------------------------------------------------------------------


def promised(state: LastWillState, seat: int, action: Action) -> int | None:
    """The pounds a label shows for ``action`` now (``None``: its label names no price): the
    engine's helpers the presenter calls, with the state."""
    view = RULES.view(state, seat)
    player = view["players"][seat]
    card = str(action.args[0]) if action.args else ""
    item = next((i for i in player["board"] if i["id"] == card), None)
    if action.kind == "buy":
        kind = str(action.args[1]) if len(action.args) > 1 else data.CARDS[card].symbols[0].value
        return buy_price(state, seat, card, kind)
    if action.kind == "sell" and item is not None:
        return sale_price(state, seat, card)
    if action.kind == "keep" and item is not None:
        return maintain_cost(state, seat, card)
    if action.kind == "use" and item is not None:
        return expense_cost(state, seat, card)
    if action == Action("boy", ("opera",)):
        return opera_cost(state, seat)
    if action.kind in ("event", "special"):
        white = data.CARDS[card]
        assert isinstance(white, data.EventCard)
        return play_cost(state, seat, [card], white.money)
    if action.kind == "ball":
        white = data.CARDS[card]
        assert isinstance(white, data.EventCard)
        return play_cost(state, seat, [card], white.ball[int(action.args[1]) - 1].money)
    pending = view["you"]["pending"]
    if action.kind == "target" and pending is not None and pending["kind"] == "sale" and item is not None:
        return free_sale_price(state, seat, card)
    return None


def spent(events: list[Event], action: Action) -> int | None:
    """The pounds the engine spent or received for ``action``, from its events."""
    kind = {
        "buy": ("bought", "price"),
        "sell": ("sold", "price"),
        "target": ("sold", "price"),
        "keep": ("maintained", "money"),
        "use": ("expense_used", "money"),
        "boy": ("errand", "money"),
        "event": ("card_played", "money"),
        "special": ("card_played", "money"),
        "ball": ("card_played", "money"),
    }.get(action.kind)
    if kind is None:
        return None
    found = [
        e.params[kind[1]]
        for e in events
        if e.kind == kind[0] and e.visible_to is None and kind[1] in e.params
    ]
    return int(found[0]) if found else None


# --- hidden information ------------------------------------------------------------------------


def hide_differently(state: LastWillState, rng: random.Random) -> LastWillState:
    """The same table with other secrets: every hand card swapped for a card of its own deck and
    every deck shuffled, so the public view is unchanged."""
    other = RULES.load(RULES.dump(state))
    for player in other.players:
        for index, card in enumerate(player.hand):
            deck = other.decks.get(DECK_OF[card])
            if deck:
                pick = rng.randrange(len(deck))
                player.hand[index], deck[pick] = deck[pick], card
    for deck in other.decks.values():
        rng.shuffle(deck)
    return other


def table_of(presenter: LastWillPresenter, game: Any) -> list[str]:
    """Everything the table shows: the status and each control's words and reference."""
    out = [presenter.status(game, RULES.view(game.state, None))]
    for control in presenter.controls(game):
        if isinstance(control, Select):
            out.append(control.placeholder)
            out += [f"{c.label}|{c.description}|{c.action.encode()}" for c in control.choices]
        else:
            ref = control.action.encode() if control.action is not None else control.ui
            out.append(f"{control.label}|{ref}|{control.disabled}")
    return out


def references(controls: list[Control]) -> Iterator[str]:
    for control in controls:
        if isinstance(control, Select):
            for choice in control.choices:
                yield from (str(a) for a in choice.action.args)
        elif control.action is not None:
            yield from (str(a) for a in control.action.args)
        elif control.ui:
            yield from control.ui.split(".")


# --- the random games --------------------------------------------------------------------------


def policy(rng: random.Random, legal: list[Action]) -> Action:
    """Random play that favours doing things, so games reach plays, companions and demotions."""
    weights = [
        0.15 if a.kind in ("hold", "drop", "redraw", "noline", "done", "go", "as", "sell") else 1.0
        for a in legal
    ]
    return rng.choices(legal, weights)[0]


@pytest.mark.parametrize(("players", "options"), MODES, ids=[f"{p}p-{o or 'full'}" for p, o in MODES])
def test_every_event_phrased_every_move_reachable_every_price_true(
    presenter: LastWillPresenter, players: int, options: dict[str, object]
) -> None:
    kinds: set[str] = set()
    checked_prices = 0
    for seed in range(2):
        state = RULES.setup(players, options, seed)
        game = fake_game(state, players)
        rng = random.Random(seed)
        for step in range(3000):
            if RULES.outcome(state) is not None:
                break
            view = RULES.view(state, None)
            status = presenter.status(game, view)
            assert "{" not in status and len(status) < 700, status
            waiting = sorted(RULES.waiting_for(state))
            for seat in waiting:
                actions, sets = reachable(presenter, game, seat)
                for action in RULES.legal_actions(state, seat):
                    assert action in actions or in_a_set(action, sets), (action, seat, view["phase"])
            if step % 9 == 0:
                for seat in range(players):
                    for line in presenter.private_summary(game, seat):
                        assert "{" not in line, line
            seat = rng.choice(waiting)
            action = policy(rng, RULES.legal_actions(state, seat))
            price = promised(state, seat, action)
            events = RULES.apply(state, seat, action)
            paid = spent(events, action)
            if (
                price is not None
                and paid is not None
                and not (action.kind in ("event", "special", "ball") and state.pending is not None)
            ):
                assert paid == price, (action, price, paid)
                checked_prices += 1
            for line in presenter.lines(game, events):
                assert line and "{" not in line and len(line) < 700, line
            for event in events:
                kinds.add(event.kind)
                said = (
                    presenter.event_line(game, event) if event.public else presenter.private_line(game, event)
                )
                assert said and "{" not in said, event
        assert RULES.outcome(state) is not None, "the game ended"
        game.status = "finished"
        assert presenter.controls(game) == []
        assert "{" not in presenter.status(game, RULES.view(state, None))
    assert checked_prices > 10
    assert {
        "plan_chosen",
        "drew",
        "errand",
        "bought",
        "card_played",
        "discards_revealed",
        "game_over",
    } <= kinds


def test_the_table_is_the_same_whatever_the_hidden_cards(presenter: LastWillPresenter) -> None:
    """Hands and deck order never shape the table: swapping them changes no status, label or
    custom_id, and no custom_id names a card in a hand."""
    for seed, players in ((3, 3), (4, 4), (5, 2)):
        state = RULES.setup(players, {}, seed)
        rng = random.Random(seed)
        for step in range(600):
            if RULES.outcome(state) is not None:
                break
            if step % 3 == 0:
                game = fake_game(state, players)
                shown = table_of(presenter, game)
                other = hide_differently(state, rng)
                assert RULES.view(other, None) == RULES.view(state, None)
                assert table_of(presenter, fake_game(other, players)) == shown
                hands = {card for player in state.players for card in player.hand}
                assert not hands & set(references(presenter.controls(game)))
            seat = rng.choice(sorted(RULES.waiting_for(state)))
            RULES.apply(state, seat, policy(rng, RULES.legal_actions(state, seat)))


def test_table_moves_are_only_public_kinds(presenter: LastWillPresenter) -> None:
    """The kinds the table draws from legal actions name nothing from a hand."""
    assert not TABLE_KINDS & {"event", "special", "ball", "nupt", "lay", "buy", "token", "discard", "draw"}


# --- panels and lines of arranged positions ----------------------------------------------------


def arranged() -> tuple[LastWillState, Any]:
    """Seat 0 on turn with 3 actions and £40, a Doctor (horse 3, dine 2, mask 1, guest 1), a Town
    House T4 (slots Chef→5, Guest→8) and a Waiter on the board, and a hand to describe."""
    state = new(3, seed=1, last_will="lw-4a")
    unemploy_all(state)
    job(state, 0, "E1")
    for seat in range(3):
        hand(state, seat)
        money(state, seat, 40)
    put(state, 0, "T4")
    put(state, 0, "WAI1")
    hand(state, 0, "DIN10", "GST1", "W1", "CHF1", "ER1", "WG1", "F3", "BALL1", "SEA1")
    actions_turn(state, 0, 3)
    return state, fake_game(state, 3)


def test_my_hand_says_what_each_card_would_do(presenter: LastWillPresenter) -> None:
    state, game = arranged()
    market = state.market
    shown = presenter.hand_panel(game, 0)
    text = shown.text
    assert text.startswith("**Your hand** (9 cards; 2 may be kept at the end of the round) · you have £40")
    assert "Your Actions turn: 3 actions left." in text
    # Dinner with two Guest icons: £2, +£1 from the Waiter; a Dine line to cover
    assert (
        "• **Dinner [DIN10]**: play: 1 action, spends £3 · icons Guest +£2, Guest +£2 · "
        "would earn a demotion: Dine (£2)" in text
    )
    price = 8 + market["farm"]
    assert f"• **Farm F3**: buy: £{max(0, price)} as Farm, 1 action · value £8, upkeep £1" in text
    assert (
        "• **Guest [GST1]**: on a Guest icon of a card you play, or as a token on a slot of your board"
        in text
    )
    assert "would earn a demotion: Guest (£1)" in text.split("GST1")[1].split("\n")[0]
    assert "• **Sea Dog [SEA1]**: lay: 1 action · +£2 per Helm or Party card" in text
    labels = [c.label for c in shown.controls if isinstance(c, Button)]
    assert "Play Dinner: 1 action, £3" in labels
    assert "Play Ball: choose a level…" in labels and "Play a nuptial set…" in labels
    assert "Put Chef on a card…" in labels and "Put Wild card on a card…" in labels
    assert "Put Guest on a card…" not in labels, "T4's next slot takes a Chef"
    assert labels[-1] == "Done"
    # Not on turn: the same cards, no plays
    other = presenter.hand_panel(game, 1)
    assert "You hold no cards." in other.text and [
        c.label for c in other.controls if isinstance(c, Button)
    ] == ["Done"]


def test_steps_of_several_parts_have_back(presenter: LastWillPresenter) -> None:
    state, game = arranged()
    chef = presenter.companion_panel(game, 0, "CHF1")
    assert [c.label for c in chef.controls if isinstance(c, Button)] == [
        "Chef on Town House T4 (makes it £5)",
        "Back",
    ]
    assert isinstance(chef.controls[-1], Button) and chef.controls[-1].ui == "hand"
    ball = presenter.ball_panel(game, 0, "BALL1")
    assert [c.label for c in ball.controls if isinstance(c, Button)] == [
        "Level 1: 2 actions, £4",
        "Level 2: 3 actions, £6",
        "Back",
    ]
    nuptial = presenter.nuptial_panel(game, 0)
    select = nuptial.controls[0]
    assert isinstance(select, Select) and select.combine is None and select.max_values == 1, (
        "one choice per set the engine takes: no pick of cards it would refuse"
    )
    assert [(c.label, c.action) for c in select.choices] == [
        ("Engagement Ring [ER1] + Wedding Gift [WG1]: 1 action, £7", Action("nupt", ("ER1", "WG1")))
    ]
    assert isinstance(nuptial.controls[-1], Button) and nuptial.controls[-1].ui == "hand"
    RULES.apply(state, 0, Action("event", ("DIN10",)))
    answer = presenter.answer_panel(game, 0)
    assert (
        answer.text
        == "**Dinner**: add companion cards to its open icons (Guest +£2, Guest +£2). So far it spends £2."
    )
    assert [c.label for c in answer.controls if isinstance(c, Button)] == [
        "Add Guest [GST1]: +£2",
        "Add Wild card [W1] as Guest: +£2",
        "No more companions: pay £3",
        "Back",
    ]
    table = presenter.controls(game)
    assert [c.label for c in table if isinstance(c, Button)] == ["Add companions…", "My hand…"]
    assert presenter.status(game, RULES.view(state, None)).startswith(
        "Round 1 of 7 · ana is choosing companions for Dinner."
    )
    RULES.apply(state, 0, Action("with", ("GST1",)))
    RULES.apply(state, 0, Action("go"))
    line = presenter.answer_panel(game, 0)
    assert line.text.startswith("**Demotion** (Dinner): cover one line of your Doctor card")
    assert [c.label for c in line.controls if isinstance(c, Button)] == [
        "Cover Dine (−£2 income)",
        "Cover Guest (−£1 income)",
        "No demotion now",
        "Back",
    ]
    table = presenter.controls(game)
    assert [c.label for c in table if isinstance(c, Button)] == [
        "Cover Dine (−£2 income)",
        "Cover Guest (−£1 income)",
        "No demotion now",
        "My hand…",
    ], "a choice that names no hidden card is answered on the table itself"
    assert [c.action for c in table if isinstance(c, Button)][:3] == [
        Action("line", (1,)),
        Action("line", (3,)),
        Action("noline"),
    ]


def test_lines_fold_incomes_plays_and_depreciation(presenter: LastWillPresenter) -> None:
    _state, game = arranged()
    events = [
        Event("income", 0, {"amount": 7, "money": 47}),
        Event("income", 2, {"amount": 11, "money": 51}),
        Event("playing", 0, {"cards": ["DIN1"], "actions": 1, "money": 2}),
        Event("card_played", 0, {"cards": ["DIN1"], "money": 3, "bonus": 1, "companions": []}),
        Event("depreciated", 0, {"card": "T2", "from": 0, "to": 1}),
        Event("depreciated", 1, {"card": "X1", "from": 2, "to": 3}),
        Event("errand", 1, {"space": "ext"}),
        Event("extension", 1, {"extensions": 2}),
    ]
    assert presenter.lines(game, events) == [
        "Income: ana £7 · cy £11.",
        "ana plays Dinner (1 action): spends £3 (£1 from helpers).",
        "Unmaintained: ana: Town House T2 £17 → £15; bob: Mansion X1 £9 → £7.",
        "bob's boy brings a board extension (2 in all).",
    ]


def test_rare_events_are_phrased(presenter: LastWillPresenter) -> None:
    _state, game = arranged()
    samples = [
        Event("employment_dealt", None, {"jobs": ["E1", "", "E3"]}),
        Event("handicap_toggled", 0, {"target_seat": 2, "picked": [2]}),
        Event("handicap_toggled", 0, {"target_seat": 2, "picked": []}),
        Event("handicap_picked", 0, {"seats": [1, 2]}),
        Event("handicap_money", 0, {"amount": 15}),
        Event("reshuffled", None, {"deck": "event", "cards": 12}),
        Event("actions_gained", 0, {"card": "S2-HD", "amount": 3}),
        Event("planner_extra", 0, {"amount": 0}),
        Event("bp_discarded", 0, {"cards": ["DIN1", "BOAT-A"], "amount": 2}),
        Event("free_token", 0, {"card": "F1", "companion": "horse"}),
        Event("value_dropped", 0, {"card": "T2", "from": 0, "to": 3}),
        Event("sold", 0, {"card": "F3", "price": 8, "free": True}),
        Event("switched", 0, {"card": "N1", "type": "manor"}),
        Event("secretary_drew", 0, {"deck": "event", "count": 6}),
        Event("secretary_discarded", 0, {"cards": ["DIN1", "DIN2"]}),
        Event("bankrupt_declared", 0, {"money": -3, "round": 4}),
        Event("sacked", 0, {"job": "E1"}),
        Event("valued", 1, {"value": 25, "penalty": 4, "properties": 2}),
        Event("game_over", None, {"round": 4, "bankruptcy": True, "winners": [0], "money": [-3, 12, 30]}),
        Event("game_over", None, {"round": 7, "bankruptcy": False, "winners": [], "money": [3, 12, 30]}),
        Event("wild_returned", 1, {"cards": ["W1"]}),
        Event("held", 2, {"forced": True, "pass": 3}),
        Event("errand", 1, {"space": "demext", "options": ["demote", "ext"]}),
        Event("bought", 0, {"card": "N6", "type": "farm", "price": 18, "free_tokens": ["horse"]}),
        Event("bought", 0, {"card": "N1", "type": "manor", "price": 17, "free_tokens": []}),
    ]
    lines = [presenter.event_line(game, event) for event in samples]
    for line in lines:
        assert line and "{" not in line, line
    assert lines[0] == "Jobs: ana Doctor · cy Governess."
    assert lines[1:3] == ["ana gives cy a job.", "ana takes cy's job away."]
    assert lines[10] == "ana's Town House T2 drops: £17 → £11 (Wild Party)."
    assert lines[15] == "ana declares bankruptcy at −£3: this round is the last."
    assert lines[16] == "**ana is sacked** from the Doctor job!"
    assert (
        lines[18]
        == "**Game over** after round 4, the round of a bankruptcy. Money: ana −£3 · bob £12 · cy £30."
    )
    assert lines[-2] == "ana buys Farm N6 for £18 with a free Horse token."
    assert lines[-1] == "ana buys Town House / Manor House N1 as a Manor House for £17."


def test_status_names_the_phase_and_everyones_money(presenter: LastWillPresenter) -> None:
    state = RULES.setup(3, {}, 2)
    game = fake_game(state, 3)
    status = presenter.status(game, RULES.view(state, None)).splitlines()
    assert status[0] == "Round 1 of 7 · everyone keeps 2 cards, in secret. Still choosing: ana, bob and cy."
    jobs = [data.EMPLOYMENT[p.job] for p in state.players]
    assert status[1] == " · ".join(
        f"{NAMES[s]} £{p.money} ({jobs[s].job} 0/{len(jobs[s].lines)})" for s, p in enumerate(state.players)
    )
    handicap = RULES.setup(4, {"employment": "handicap"}, 2)
    game = fake_game(handicap, 4)
    assert presenter.status(game, RULES.view(handicap, None)).startswith(
        "Setting up: ana picks who has a job (1 to 3 players), then confirms."
    )
    assert [c.label for c in presenter.controls(game) if isinstance(c, Button)] == [
        "Toggle job: ana",
        "Toggle job: bob",
        "Toggle job: cy",
        "Toggle job: dee",
    ]


def test_rulings_are_the_catalogs_sentences_in_order(presenter: LastWillPresenter) -> None:
    lines = presenter.rulings("en")
    assert lines[0] == "**How this bot plays what the rules leave open:**"
    assert len(lines) == len(data.CHOSEN_RULINGS) + 1
    catalog = Catalog.load()
    for key, line in zip(data.CHOSEN_RULINGS, lines[1:], strict=True):
        assert line == "• " + catalog.text(f"lastwill.chosen.{key}")


def test_long_text_is_cut_between_lines() -> None:
    text = "\n".join(f"line {i}: " + "x" * 90 for i in range(60))
    parts = chunks(text)
    assert len(parts) > 2 and all(len(p) <= 2000 for p in parts)
    assert "\n".join(parts) == text, "whole lines, in order, nothing lost"
    assert all(p.startswith("line ") for p in parts)
    assert chunks("y" * 4100) == ["y" * 2000, "y" * 2000, "y" * 100], "only a line too long is cut inside"
    assert chunks("short") == ["short"]


def test_the_opening_tells_what_setup_did(presenter: LastWillPresenter) -> None:
    """Setup starts round 1, deals the jobs and pays the first income without any move; the
    first table message says so in the words later rounds use.  The handicap pick comes first."""
    state = RULES.setup(3, {"last_will": "lw-5a"}, 4)
    game = fake_game(state, 3)
    lines = presenter.opening(game)
    start = NAMES[state.start]
    assert lines[0] == f"**Round 1 of 7**: {start} is the start player."
    assert lines[1].startswith("Jobs: ") and all(name in lines[1] for name in NAMES[:3])
    assert lines[2] == "Income: ana £11 · bob £11 · cy £11."
    assert presenter.opening(fake_game(RULES.setup(3, {"employment": "handicap"}, 4), 3)) == []
    unemployed = presenter.opening(fake_game(RULES.setup(3, {"employment": "none"}, 4), 3))
    assert unemployed == [
        f"**Round 1 of 7**: {NAMES[RULES.setup(3, {'employment': 'none'}, 4).start]} is the start player."
    ]


# --- the table's language ------------------------------------------------------------------------


def test_refusals_are_worded_in_the_players_language(presenter: LastWillPresenter) -> None:
    """The engine names its reason; the catalog words it, pounds, counts and tokens included."""
    game = fake_game(RULES.setup(3, {}, 1), 3)
    cases = [
        (
            IllegalAction("too_dear", amount=12, money=3, floor=0),
            "That spends £12; you have £3 and may not go below £0.",
            "Cela dépense 12 £ ; vous avez 3 £ et ne pouvez pas descendre sous 0 £.",
        ),
        (
            IllegalAction("no_actions", actions=1),
            "That takes 1 action; you do not have enough left this turn.",
            "Cela coûte 1 action ; il ne vous en reste pas assez ce tour-ci.",
        ),
        (
            IllegalAction("slot_takes_either", companion="horse", other_companion="dog"),
            "Its next slot takes a Horse or a Dog.",
            "Son prochain emplacement accepte un jeton Cheval ou Chien.",
        ),
        (
            IllegalAction("bought_as_either", type="manor", other_type="mansion"),
            "This property is bought as a Manor House or a Mansion.",
            "Cette propriété s'achète en tant que Manoir ou Château.",
        ),
    ]
    for exc, english, french in cases:
        assert presenter.illegal(game, exc, "en") == english
        game.row.language = "fr"
        assert presenter.illegal(game, exc, "fr") == french
        game.row.language = "en"
    with pytest.raises(IllegalAction) as info:
        RULES.apply(game.state, 0, Action("done"))
    game.row.language = "fr"
    assert presenter.illegal(game, info.value, "fr") == "Cela se fait pendant la phase d'Actions."


ENGLISH_WORDS = frozenset(
    {
        "the", "and", "with", "from", "turn", "round", "draws", "draw", "plays", "play", "buys", "buy",
        "spends", "spend", "left", "cards", "card", "boys", "boy", "choose", "your", "you", "takes", "take",
        "goes", "sells", "keeps", "keep", "deck", "decks", "player", "players", "free", "upkeep",
        "value", "income", "job", "sacked", "employed", "money", "game", "over", "nothing", "nobody",
        "hand", "errand", "errands", "planning", "drawing", "discards", "slot", "market", "property",
        "event", "helper", "companion", "special", "wild", "dinner", "farm", "town", "house", "manor",
        "mansion", "horse", "dog", "chef", "guest", "dine", "carriage", "mask", "helm", "party", "ring",
        "gains", "more", "steps", "tokens", "token", "toggle", "confirm", "end", "done", "back", "level",
        "add", "sell", "maintain", "use", "switch", "discard", "lay", "put", "not", "is", "are", "of",
        "to", "for", "at", "by", "it", "its", "who", "has", "what", "each", "still", "choosing",
    }
)  # fmt: skip
"""English words a French table must never read (none is also a French word the catalog uses)."""


def french_texts(presenter: LastWillPresenter, game: Any, events: list[Event]) -> Iterator[str]:
    """Everything a French table and its players read after one move: status, buttons, every
    panel a waiting seat can open, the log and private lines."""
    yield presenter.status(game, RULES.view(game.state, None))
    for seat in sorted(RULES.waiting_for(game.state)):
        every: list[Control] = list(presenter.controls(game))
        for found in panels(presenter, game, seat):
            yield found.text
            every += found.controls
        for control in every:
            if isinstance(control, Select):
                yield control.placeholder
                for choice in control.choices:
                    yield choice.label
                    yield choice.description or ""
            else:
                yield control.label
    yield from presenter.lines(game, events)
    for event in events:
        if not event.public:
            yield presenter.private_line(game, event) or ""


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {"employment": "handicap"})])
def test_a_french_table_reads_in_french(
    presenter: LastWillPresenter, players: int, options: dict[str, object]
) -> None:
    """A whole game in French: no blank left, no English card, job or word, refusals in French."""
    catalog = Catalog.load()

    def names(language: str) -> set[str]:
        found = {
            catalog.own(f"lastwill.{table}.{key}", language)
            for table, keys in (("card", data.CARD_NAME_KEYS.values()), ("job", data.JOB_NAME_KEYS.values()))
            for key in keys
        }
        assert None not in found, f"a card or job without its {language} name"
        return {name for name in found if name is not None}

    english_names = names("en") - names("fr")
    ids = sorted(data.CARDS, key=len, reverse=True)
    state = RULES.setup(players, options, 2)
    game = fake_game(state, players)
    game.row.language = "fr"
    rng = random.Random(2)
    read: set[str] = set(presenter.opening(game))
    refusals: set[str] = set()
    for _step in range(3000):
        if RULES.outcome(state) is not None:
            break
        seat = rng.choice(sorted(RULES.waiting_for(state)))
        idle = next((s for s in range(players) if s not in RULES.waiting_for(state)), None)
        if idle is not None:
            with pytest.raises(IllegalAction) as info:
                RULES.apply(state, idle, rng.choice(RULES.legal_actions(state, seat)))
            refusals.add(presenter.illegal(game, info.value, "fr"))
        events = RULES.apply(state, seat, policy(rng, RULES.legal_actions(state, seat)))
        read |= set(french_texts(presenter, game, events))
    assert RULES.outcome(state) is not None
    game.status = "finished"
    outcome = RULES.outcome(state)
    assert outcome is not None
    read |= set(presenter.standings(game, outcome)) | refusals
    assert len(refusals) > 3
    for text in read:
        assert "{" not in text, text
        assert not [name for name in english_names if name in text], text
        plain = text
        for card_id in ids:
            plain = plain.replace(card_id, " ")
        words = {word.lower() for word in re.findall(r"[^\W\d_]+", plain)}
        assert not words & ENGLISH_WORDS, (sorted(words & ENGLISH_WORDS), text)
