"""Last Will's default moves for a player who let the game wait: see ``rules.lastwill.timeout``."""

from __future__ import annotations

import pytest

from rules.core import Action
from rules.lastwill import RULES
from rules.lastwill.state import DISCARD, DRAWING, PLANNING, LastWillState
from rules.lastwill.timeout import MAX_CODE, usefulness
from rules.play import canonical, random_playthrough
from tests.rules.test_contract import play_timeouts
from tests.rules.test_lastwill import act, build, hand, job, new, pending_kind, put
from tests.rules.test_lastwill_actions import table
from tests.rules.test_lastwill_errands import errands

A = Action


def default(state: LastWillState, seat: int) -> str:
    action = RULES.timeout_action(state, seat)
    assert action is not None
    return action.encode()


def timeout(state: LastWillState, seat: int) -> str:
    """Apply ``seat``'s default move; returns it, encoded."""
    text = default(state, seat)
    act(state, seat, text)
    return text


# --- setup, discards, planning, drawing ----------------------------------------------------------


def test_the_handicap_pick_keeps_a_valid_pick_and_otherwise_employs_the_host_first() -> None:
    state = new(4, employment="handicap", last_will="lw-5a")
    assert [RULES.timeout_action(state, s) for s in (1, 2, 3)] == [None] * 3
    assert timeout(state, 0) == "emp.0" and timeout(state, 0) == "empok"
    assert [bool(p.job) for p in state.players] == [True, False, False, False]
    state = new(4, employment="handicap", last_will="lw-5a")
    for seat in (1, 2, 3, 0):
        act(state, 0, f"emp.{seat}")
    assert timeout(state, 0) == "emp.3"  # one too many: the highest seat goes
    assert timeout(state, 0) == "empok"
    assert [bool(p.job) for p in state.players] == [True, True, True, False]


def test_round_one_discards_drop_the_least_useful_cards_all_at_once() -> None:
    state = new(3, seed=2)
    assert state.phase == DISCARD and RULES.waiting_for(state) == frozenset({0, 1, 2})
    for seat in range(3):
        cards = sorted(state.players[seat].hand, key=lambda c: (usefulness(c), c))
        assert default(state, seat) == "discard." + ".".join(cards[:2])
    for seat in range(3):
        kept = sorted(state.players[seat].hand, key=lambda c: (usefulness(c), c))[2:]
        timeout(state, seat)
        assert sorted(state.players[seat].hand) == sorted(kept)
    assert state.phase == PLANNING


def test_a_long_discard_is_split_to_fit_a_custom_id() -> None:
    state = new(3, seed=2)
    act(state, 1, "discard." + ".".join(state.players[1].hand[:2]))
    act(state, 2, "discard." + ".".join(state.players[2].hand[:2]))
    cards = [f"{kind}{n}" for kind in ("HOR", "DOG", "GST") for n in range(1, 6)]
    hand(state, 0, *cards, "BOAT-A", "BOAT-B")
    build(state).discards({0: len(cards)}, kind="keep")
    first = default(state, 0)
    assert len(first) <= MAX_CODE and first.count(".") < len(cards)
    while state.phase == DISCARD:
        timeout(state, 0)
    assert sorted(state.players[0].hand) == ["BOAT-A", "BOAT-B"]  # companions alone spend nothing


def test_planning_takes_the_free_plan_with_the_fewest_cards() -> None:
    state = new(3, seed=4)
    for seat in range(3):
        timeout(state, seat)
    planner = next(iter(RULES.waiting_for(state)))
    fewest = min(state.plans, key=lambda p: (p.cards, p.pos))
    assert timeout(state, planner) == f"plan.{fewest.pos}"
    planner = next(iter(RULES.waiting_for(state)))
    taken = {p.plan for p in state.players}
    fewest = min((p for p in state.plans if p.pos not in taken), key=lambda p: (p.cards, p.pos))
    assert default(state, planner) == f"plan.{fewest.pos}"


def test_drawing_names_decks_in_turn_then_draws() -> None:
    state = new(3, seed=4)
    for seat in range(3):
        timeout(state, seat)
    for seat in (state.start, (state.start + 1) % 3, (state.start + 2) % 3):
        act(state, seat, f"plan.{[8, 1, 2][seat]}")
    assert state.phase == DRAWING
    drawer = state.order[0]
    act(state, drawer, "draw.helper")  # the player had begun a split
    steps = []
    while drawer in RULES.waiting_for(state) and state.phase == DRAWING:
        steps.append(timeout(state, drawer))
    cards = next(p.cards for p in state.plans if p.pos == state.players[drawer].plan)
    decks = ["draw.property", "draw.event", "draw.companion", "draw.helper"] * 3
    assert steps == [*decks[: cards - 1], "drawok"]


# --- errands, actions and the pending steps ------------------------------------------------------


def test_an_errand_boy_holds_and_a_turn_ends() -> None:
    state = errands(3)
    assert len(RULES.legal_actions(state, 0)) > 1
    assert default(state, 0) == "hold" and RULES.timeout_action(state, 1) is None
    state = table()
    hand(state, 0, "DIN1", "BOAT-A")
    assert default(state, 0) == "done"


def test_a_play_begun_is_confirmed_without_its_companions() -> None:
    state = table()
    hand(state, 0, "THE1", "HOR1")
    act(state, 0, "event.THE1")
    assert pending_kind(state) == "with" and default(state, 0) == "go"
    timeout(state, 0)
    assert state.players[0].hand == ["HOR1"] and state.players[0].money == 48


def test_the_wedding_planner_spends_all_it_offers() -> None:
    state = table()
    put(state, 0, "WPL1")
    hand(state, 0, "ER1", "WG1")
    act(state, 0, "nupt.ER1.WG1")
    assert pending_kind(state) == "extra" and default(state, 0) == "extra.2"


def test_a_demotion_covers_the_highest_income_line() -> None:
    state = table()
    job(state, 0, "E1")  # Doctor: horse 3, dine 2, mask 1, guest 1
    hand(state, 0, "DIN1")
    act(state, 0, "event.DIN1")
    assert pending_kind(state) == "line" and default(state, 0) == "line.1"
    state = errands(4, last_will="lw-4a")
    job(state, 0, "E1")
    act(state, 0, "boy.demext")
    assert timeout(state, 0) == "dx.demote"
    assert timeout(state, 0) == "line.0"  # any line: the horse line, £3
    assert state.players[0].covered == [True, False, False, False]


def test_the_demotion_or_extension_space_extends_when_no_line_can_be_covered() -> None:
    state = errands(4, last_will="lw-4a")
    job(state, 0, "E1")
    build(state).demoted(0)  # this round's demotion is spent
    act(state, 0, "boy.demext")
    assert pending_kind(state) == "dx" and timeout(state, 0) == "dx.ext"
    assert state.players[0].extensions == 1


def test_optional_effects_are_declined() -> None:
    state = table()
    put(state, 0, "F2")
    hand(state, 0, "S1-BF")
    act(state, 0, "special.S1-BF")
    assert pending_kind(state) == "fair" and default(state, 0) == "go"
    state = table(actions=1)
    put(state, 0, "T1", step=1)
    hand(state, 0, "S1-LAC")
    act(state, 0, "special.S1-LAC")
    assert pending_kind(state) == "sale" and default(state, 0) == "go"
    state = table()
    job(state, 0, "E5")  # Curate: ring 3, dine 2, helm 1, dog 1
    hand(state, 0, "BP2", "DIN1", "BOAT-A")
    act(state, 0, "special.BP2")
    assert pending_kind(state) == "bpx" and default(state, 0) == "go"
    assert timeout(state, 0) == "go" and timeout(state, 0) == "line.0"  # then its ring line
    assert sorted(state.players[0].hand) == ["BOAT-A", "DIN1"]


def test_wild_party_drops_the_property_that_loses_the_most() -> None:
    state = table()
    put(state, 0, "T2")  # 17 -> 11: 6
    put(state, 0, "T1")  # 15 -> 7: 8
    put(state, 0, "T3")  # 13 -> 11: 2
    hand(state, 0, "S2-WPT")
    act(state, 0, "special.S2-WPT")
    assert pending_kind(state) == "target" and default(state, 0) == "target.T1"


def test_the_personal_secretary_keeps_the_most_useful_card() -> None:
    state = table(actions=0)
    put(state, 0, "S1-PS")
    act(state, 0, "sec.event")
    assert state.pending is not None
    cards = list(state.pending.cards)
    best = min(cards, key=lambda c: (-usefulness(c), c))
    assert default(state, 0) == f"pick.{best}"


# --- a whole game, and no peeking ----------------------------------------------------------------


@pytest.mark.parametrize(
    "options",
    [{"employment": "handicap"}, {"employment": "none"}, {"expansion": "off"}, {"plans": "original"}],
    ids=["handicap", "none", "base", "original"],
)
def test_a_table_of_absent_players_plays_to_the_end(options: dict[str, object]) -> None:
    for players in (2, 5):
        state = RULES.setup(players, options, 6)
        play_timeouts(RULES, state, players, 6)
        assert RULES.outcome(state) is not None


def test_defaults_never_read_other_hands_or_the_deck_order() -> None:
    for seed in range(3):
        run = random_playthrough(RULES, 4, seed, stop_after=60 + 40 * seed, check=False)
        state = run.state
        for seat in range(4):
            other = RULES.load(RULES.dump(state))
            for cards in other.decks.values():
                cards.reverse()
            spare = [(name, i) for name, cards in other.decks.items() for i in range(len(cards))]
            for o, player in enumerate(other.players):
                if o == seat:
                    continue
                for i in range(len(player.hand)):  # someone else's hand: swapped with deck cards
                    if spare:
                        name, j = spare.pop()
                        player.hand[i], other.decks[name][j] = other.decks[name][j], player.hand[i]
            assert canonical(RULES.view(other, seat)) == canonical(RULES.view(state, seat))
            assert RULES.timeout_action(other, seat) == RULES.timeout_action(state, seat)
