"""Last Will's position builder: each step's effect, each refusal's sentence, the invariants after
``build``, and that a built state plus moves replays exactly (its rigged draws included)."""

from __future__ import annotations

import json
import re

import pytest

from rules.builder import PositionError
from rules.core import Action
from rules.lastwill import RULES, data
from rules.lastwill.builder import LastWillBuilder
from rules.lastwill.state import ACTIONS, DISCARD, DRAWING, ERRANDS, PLANNING, LastWillState
from rules.play import canonical


def started(
    players: int = 3, seed: int = 1, keep: dict[int, list[str]] | None = None, **options: object
) -> LastWillBuilder:
    """Round 1 past its setup (LW-4A: £50 and the 4-line jobs, unless the options say otherwise)."""
    options.setdefault("last_will", "lw-4a")
    return LastWillBuilder(players, seed=seed, **options).past_setup(keep=keep)


def refused(why: str) -> pytest.RaisesExc[PositionError]:
    """The step must raise a PositionError with exactly this sentence."""
    return pytest.raises(PositionError, match=f"^{re.escape(why)}$")


def dumped(state: LastWillState) -> str:
    return canonical(RULES.dump(state))


def apply_all(state: LastWillState, moves: list[tuple[int, str]]) -> None:
    for seat, text in moves:
        RULES.apply(state, seat, Action.decode(text))
        assert RULES.invariants(state) == []


# --- the opening ---------------------------------------------------------------------------------


def test_past_setup_plays_round_one_s_keep_two_through_the_engine() -> None:
    fresh = RULES.setup(3, {"last_will": "lw-4a"}, 1)
    dealt = [list(p.hand) for p in fresh.players]
    state = started().build()
    assert state.phase == PLANNING and state.round == 1
    assert [p.hand for p in state.players] == [hand[2:] for hand in dealt]  # the last two dealt
    assert sorted(c for pile in state.piles.values() for c in pile) == sorted(c for h in dealt for c in h[:2])
    assert RULES.waiting_for(state) == frozenset({state.start})
    assert all(p.money == 50 + 7 for p in state.players)  # inheritance + round-1 income


def test_past_setup_keeps_the_cards_named() -> None:
    dealt = RULES.setup(3, {"last_will": "lw-4a"}, 1).players[1].hand
    state = started(keep={1: [dealt[0], dealt[3]]}).build()
    assert state.players[1].hand == [dealt[0], dealt[3]]


def test_past_setup_refusals() -> None:
    dealt = RULES.setup(3, {"last_will": "lw-4a"}, 1).players[0].hand
    fresh = LastWillBuilder(3, seed=1, last_will="lw-4a")
    before = dumped(fresh.state)
    with pytest.raises(PositionError, match=r"^seat 0 cannot keep DIN1: its hand is "):
        fresh.past_setup(keep={0: ["DIN1", dealt[0]]})
    with refused("seat 0 keeps 2 cards after round 1's setup, not 1"):
        fresh.past_setup(keep={0: [dealt[0]]})
    with refused("seat 5 is not at this table (3 players)"):
        fresh.past_setup(keep={5: []})
    with refused("seat 2 keeps 2 cards after round 1's setup, not 3"):
        fresh.past_setup(keep={2: fresh.state.players[2].hand[:3]})
    assert dumped(fresh.state) == before  # a refused opening discards nothing
    with refused("employed seats are picked only at a table with employment=handicap"):
        fresh.past_setup(employed=[1])
    with refused("the game is already past round 1's setup"):
        started().past_setup()


def test_past_setup_makes_the_handicap_pick() -> None:
    state = (
        LastWillBuilder(4, seed=2, employment="handicap", last_will="lw-5a")
        .past_setup(employed=[1, 3])
        .build()
    )
    assert [bool(p.job) for p in state.players] == [False, True, False, True]
    assert state.players[0].money == 60 + data.HANDICAP_MONEY[data.EmploymentSet.FIVE]
    assert state.phase == PLANNING
    with refused("employment=handicap employs 1 to 3 seats: name them (past_setup(employed=[...]))"):
        LastWillBuilder(4, employment="handicap").past_setup()
    pick = LastWillBuilder(4, employment="handicap")
    with refused("employment=handicap employs 1 to 3 seats: name them (past_setup(employed=[...]))"):
        pick.past_setup(employed=[0, 1, 2, 3])
    assert pick.state.picked == []  # refused before any seat was toggled


def test_start_player_and_round() -> None:
    builder = started().start_player(2).round(5)
    state = builder.build()
    assert state.start == 2 and state.round == 5 and RULES.waiting_for(state) == frozenset({2})
    RULES.apply(state, 2, Action.decode("plan.1"))
    with refused("planning has begun: the start player can no longer change this round"):
        builder.start_player(0)
    with refused("round 8 is outside 1..7"):
        builder.round(8)
    with refused("round 0 is outside 1..7"):
        builder.round(0)


# --- plans and whose turn it is --------------------------------------------------------------------


def test_plan_space_and_order_decide_whose_turn_it_is() -> None:
    builder = started().plan_space(2, cards=4, boys=3, actions=2).order(2, 0, 1)
    state = builder.actions(0).build()
    assert [p.plan for p in state.players] == [2, 3, 1]
    assert state.order == [2, 0, 1] and state.phase == ACTIONS
    assert RULES.waiting_for(state) == frozenset({0}) and state.actions_left == 2
    assert (state.plans[1].cards, state.plans[1].boys, state.plans[1].actions) == (4, 3, 2)


def test_plan_and_order_refusals() -> None:
    builder = started(plans="original")
    with refused("plan position 7 is not on this board (1..6)"):
        builder.plan_space(7, cards=1, boys=1, actions=1)
    with refused("a plan gives 1 to 3 errand boys at this table, not 0"):
        builder.plan_space(1, cards=1, boys=0, actions=1)
    with refused("a plan gives no negative number of cards or actions"):
        builder.plan_space(1, cards=-1, boys=1, actions=1)
    with refused("a plan gives 1 to 2 errand boys at this table, not 3"):
        started(expansion="off", last_will="lw-b1").plan_space(1, cards=1, boys=3, actions=1)
    with refused("the plan order names every seat once (0..2), not [0, 1]"):
        builder.order(0, 1)
    with refused("seat 3 is not at this table (3 players)"):
        builder.order(0, 1, 3)
    planned = started().order(0, 1, 2)  # plans held, but the game still waits in planning
    with refused(
        "the position breaks the game's invariants: in planning, seats [0, 1, 2] hold plans but [] have chosen"
    ):
        planned.build()
    for step in (builder.drawing, builder.errands, builder.actions):
        with pytest.raises(PositionError, match=r"phase needs the plan order: call order\(\.\.\.\) first$"):
            step(0)


def test_planning_drawing_and_errands_wait_for_the_seat_named() -> None:
    builder = started().planning(first=1)
    assert builder.state.phase == PLANNING and RULES.waiting_for(builder.build()) == frozenset({1})
    builder.plan_space(1, cards=2, boys=2, actions=1).plan_space(2, cards=2, boys=1, actions=1).order(0, 1, 2)
    state = builder.drawing(1).build()
    assert state.phase == DRAWING and RULES.waiting_for(state) == frozenset({1})
    state = builder.errands(0, 2).build()
    assert state.phase == ERRANDS and state.errand_pass == 2 and RULES.waiting_for(state) == frozenset({0})
    with refused("seat 1's plan gives 1 errand boys: it has no boy in pass 2"):
        builder.errands(1, 2)


def test_a_turn_begins_with_what_the_board_grants() -> None:
    """The engine's own turn start: an Old Friend on the board adds its action to the plan's."""
    state = (
        started()
        .board(0, "S1-OF1")
        .order(0, 1, 2)
        .plan_space(1, cards=0, boys=1, actions=2)
        .actions(0)
        .build()
    )
    assert state.actions_left == 3
    builder = LastWillBuilder.from_state(state).actions_left(0, valet=1)
    assert (state.actions_left, state.valet_left) == (0, 1)
    with refused("only a turn of the Actions phase has actions left"):
        started().actions_left(1)
    with refused("a turn has no negative number of actions left"):
        builder.actions_left(-1)


def test_discards_open_the_hand_limit_phase() -> None:
    builder = started().give(1, "DIN1", "DIN2")
    state = builder.discards({1: 2}).build()
    assert state.phase == DISCARD and state.discard_for == "limit" and state.need == [0, 2, 0]
    assert RULES.waiting_for(state) == frozenset({1})
    with refused("seat 0 holds 2 cards: it cannot owe 3 discards"):
        builder.discards({0: 3})
    with refused("a 'limit' discard phase is under way, not a 'keep' one"):
        builder.discards({0: 1}, kind="keep")
    with refused("a discard phase needs a seat that owes a discard"):
        started().discards({0: 0})
    with refused("the discard phase is 'keep' or 'limit', not 'later'"):
        started().discards({0: 1}, kind="later")


def test_a_discard_phase_under_way_keeps_the_discards_already_held() -> None:
    builder = LastWillBuilder(3, seed=2)
    state = builder.state
    RULES.apply(state, 2, Action.decode("discard." + ".".join(state.players[2].hand[:2])))
    builder.give(0, "DIN1").discards({0: 3}, kind="keep")
    assert state.need == [3, 2, 0] and len(state.held[2]) == 2
    builder.build()


def test_occupied_errand_spaces_close() -> None:
    builder = started().order(0, 1, 2).errands(0).occupy("opera", 2).occupy("one", 0, 1)
    state = builder.build()
    legal = {a.encode() for a in RULES.legal_actions(state, 0)}
    assert "boy.opera" not in legal and not any(a.startswith("boy.one-") for a in legal)
    assert state.errands == {"opera": [2], "one": [0, 1]}
    with refused("the opera space takes 1 errand boys in all"):
        builder.occupy("opera", 1)
    with refused("seat 1 sends one boy a round to the draw-one space"):
        builder.occupy("one", 1)
    with refused("'pub' is not an errand space (opera, market, ext, demote, demext, one)"):
        builder.occupy("pub", 1)


# --- money, jobs, extensions, the market ------------------------------------------------------------


def test_money_moves_through_the_bank() -> None:
    builder = started()
    before = builder.state.paid_out, builder.state.paid_in
    state = builder.money(0, 100).money(1, 10).build()
    assert [p.money for p in state.players] == [100, 10, 57]
    assert (state.paid_out, state.paid_in) == (before[0] + 43, before[1] + 47)


def test_a_position_that_breaks_the_invariants_is_refused_at_build() -> None:
    builder = started().money(0, -5)  # seat 0 holds a job: no debt allowed (§10)
    with refused("the position breaks the game's invariants: seat 0 holds property or a job but has £-5"):
        builder.build()
    assert started().unemployed(0).money(0, -5).build().players[0].money == -5


def test_jobs_demotions_and_the_sack() -> None:
    builder = started()
    state = builder.state
    own = state.players[0].job
    state = builder.job(0, "E1", covered=[0, 2]).build()
    assert state.players[0].job == "E1" and state.players[0].covered == [True, False, True, False]
    jobs = [p.job for p in state.players]
    assert "" not in jobs and len(set(jobs)) == 3  # a seat that held E1 got a spare card
    taken = state.players[1].job
    state = LastWillBuilder.from_state(state).job(0, taken).build()  # seat 1 gets a spare card
    assert state.players[0].job == taken and state.players[1].job not in ("", taken)
    assert state.players[0].covered == [False] * 4 and own
    state = LastWillBuilder.from_state(state).sacked(2).demoted(1).unemployed(0).build()
    assert state.players[2].sacked and not state.players[2].job and state.players[2].covered == []
    assert state.players[1].demoted and state.players[0].job == "" and not state.players[0].sacked


def test_job_refusals() -> None:
    builder = started()
    with refused("there is no employment card 'E99'"):
        builder.job(0, "E99")
    with refused("E1 has lines 0..3, not [4]"):
        builder.job(0, "E1", covered=[4])
    with refused("covering every line of E1 sacks the seat: use sacked(0)"):
        builder.job(0, "E1", covered=[0, 1, 2, 3])


def test_extensions_come_from_the_supply() -> None:
    builder = started().extensions(1, 3)
    state = builder.build()
    assert state.players[1].extensions == 3 and state.extensions_left == data.EXTENSIONS - 3
    builder.extensions(1, 1)
    assert state.extensions_left == data.EXTENSIONS - 1
    builder.extensions(0, data.EXTENSIONS - 1)
    with refused("the supply has only 0 board extensions left"):
        builder.extensions(2, 1)
    with refused("a seat holds no negative number of board extensions"):
        builder.extensions(2, -1)
    full = started().extensions(0, 1)
    for card in ("WAI1", "WAI2", "WAI3", "COA1", "TAI1", "SEA1"):
        full.board(0, card)
    with refused("seat 0's 6 board cards need more extensions than 0"):
        full.extensions(0, 0)


def test_market_tokens_are_swapped_so_each_type_keeps_one() -> None:
    builder = started()
    old_town = builder.state.market["town"]
    holder = next(t for t, v in builder.state.market.items() if v == 3)
    state = builder.market("town", 3).build()
    assert state.market["town"] == 3
    if holder != "town":
        assert state.market[holder] == old_town
    assert sorted(state.market.values()) == sorted(data.MARKET_TOKENS)
    with refused("'castle' is not a property type (farm, town, manor, mansion)"):
        builder.market("castle", 3)
    with refused("there is no market token 2 (the tokens are [-3, -2, 1, 3])"):
        builder.market("town", 2)


# --- cards ---------------------------------------------------------------------------------------


def test_hand_and_give_take_cards_from_where_they_are() -> None:
    builder = started()
    state = builder.state
    old = list(state.players[0].hand)
    other = state.players[1].hand[0]
    top = state.decks["event"][-1]
    builder.hand(0, top, other)
    assert state.players[0].hand == [top, other]
    assert top not in state.decks["event"] and other not in state.players[1].hand
    assert all(card in state.piles[data.CARDS[card].deck.value] for card in old)
    slot = next(s for s in state.offering if s.card)
    card = slot.card
    builder.give(2, card)
    assert state.players[2].hand[-1] == card and slot.card == ""
    builder.build()


def test_card_refusals() -> None:
    builder = started()
    with refused("there is no card 'ZZ9'"):
        builder.hand(0, "ZZ9")
    with refused("DIN1 is named twice, and there is one of it"):
        builder.give(0, "DIN1", "DIN1")
    base = started(expansion="off", last_will="lw-b1")
    with refused("N1 is an expansion card and the expansion is off"):
        base.give(0, "N1")


def test_board_lays_properties_and_helpers() -> None:
    state = (
        started()
        .board(0, "N1", kind="manor", step=2)
        .board(0, "N3", step=1, tokens=["guest"])
        .board(1, "GC1", done=True)
        .build()
    )
    n1, n3 = state.players[0].board[-2:]
    assert (n1.card, n1.kind, n1.step, n1.tokens, n1.done) == ("N1", "manor", 2, [], False)
    assert (n3.card, n3.kind, n3.step, n3.tokens) == ("N3", "town", 1, ["guest"])
    assert state.players[1].board[-1].done


def test_board_refusals() -> None:
    builder = started()
    with refused("DIN1 is not a property, a helper or an expense: it never lies on a board"):
        builder.board(0, "DIN1")
    with refused("T1 is a town, not a manor"):
        builder.board(0, "T1", kind="manor")
    with refused("T1's value track has steps 0..3, not 4"):
        builder.board(0, "T1", step=4)
    with refused("WAI1 is a helper or an expense: it has no type or value step"):
        builder.board(0, "WAI1", step=1)
    with refused("T1 has 0 companion slots, not 1"):
        builder.board(0, "T1", tokens=["dog"])
    for card in ("WAI1", "WAI2", "WAI3", "COA1", "TAI1"):
        builder.board(0, card)
    with refused("seat 0's board is full (5 spaces)"):
        builder.board(0, "SEA1")


def test_offering_slots() -> None:
    builder = started()
    state = builder.state
    slot = next(s for s in state.offering if s.label == "4")
    old = slot.card
    builder.offering("4", "F1")
    assert slot.card == "F1" and old in state.piles[slot.deck]
    builder.clear_offering("4")
    assert slot.card == "" and "F1" in state.piles["property"]
    builder.clear_offering()
    assert not any(s.card for s in state.offering)
    builder.build()
    with refused("there is no offering slot '9' at this table (1, 2, 3, 4, 5, 6, 7, 8, X)"):
        builder.offering("9", "F1")


def test_stack_decides_the_next_draws() -> None:
    builder = started().plan_space(1, cards=2, boys=1, actions=1).order(0, 1, 2).drawing(0)
    state = builder.stack("event", "DIN1", "THE1").build()
    assert state.decks["event"][-2:] == ["THE1", "DIN1"]
    apply_all(state, [(0, "draw.event"), (0, "draw.event"), (0, "drawok")])
    assert state.players[0].hand[-2:] == ["DIN1", "THE1"]
    with refused("F1 belongs to the property deck, not the event deck"):
        builder.stack("event", "F1")
    with refused("there is no 'box' deck (property, event, helper, companion, special, new_special, wild)"):
        builder.stack("box", "F1")


def test_deck_size_and_a_rigged_reshuffle() -> None:
    """One companion card left, the rest on the pile; the reshuffle's draws are queued through the
    state's generator so the two cards after the last one are HOR1 then DOG1."""
    builder = started().plan_space(1, cards=3, boys=1, actions=1).order(0, 1, 2).drawing(0)
    builder.deck_size("companion", 1).reshuffle_next("companion", "HOR1", "DOG1")
    state = builder.build()
    last = state.decks["companion"][0]
    assert len(state.decks["companion"]) == 1 and state.rng.queued
    apply_all(state, [(0, "draw.companion")] * 3 + [(0, "drawok")])
    assert state.players[0].hand[-3:] == [last, "HOR1", "DOG1"]
    assert state.rng.queued == []
    with refused("WAI1 is not once in the companion pile, so no reshuffle can put it on top"):
        builder.reshuffle_next("companion", "WAI1")
    with refused("the special deck has no discard pile: only a regular deck can be thinned"):
        builder.deck_size("special", 1)
    with refused("a queued draw is never negative"):
        builder.queue_draws(-1)


def test_a_built_state_replays_exactly() -> None:
    """Dump the built state, load it, play the same moves on both: the same state, byte for byte,
    the queued reshuffle draws included."""
    builder = started().unemployed().plan_space(1, cards=3, boys=1, actions=2).order(0, 1, 2).drawing(0)
    state = builder.deck_size("companion", 1).reshuffle_next("companion", "HOR1", "DOG1").money(0, 30).build()
    twin = RULES.load(json.loads(dumped(state)))
    assert dumped(twin) == dumped(state)
    moves = [(0, "draw.companion")] * 3 + [(0, "drawok")]
    apply_all(state, moves)
    apply_all(twin, moves)
    assert dumped(twin) == dumped(state)
    assert state.players[0].hand[-2:] == ["HOR1", "DOG1"]


def test_an_open_choice_is_answered_before_the_position_moves_on() -> None:
    """Built from a state reached by play: a Dinner waiting for its Guest companions keeps its
    card in the play until the choice is answered."""
    state = started().job(0, "E1").hand(0, "DIN10", "GST1").order(0, 1, 2).actions(0).build()
    RULES.apply(state, 0, Action.decode("event.DIN10"))
    assert state.pending is not None
    builder = LastWillBuilder.from_state(state)
    with refused("seat 0 has a choice open: answer it before planning"):
        builder.planning()
    with refused("DIN10 is in the play in progress; finish or leave that play first"):
        builder.give(1, "DIN10")
    with refused("this table plays without employment cards (employment=none)"):
        started(employment="none", last_will="random").job(0, "E1")
    with refused("the game is in its 'pick' phase: a discard phase cannot begin now"):
        LastWillBuilder(3, employment="handicap").discards({0: 1})
