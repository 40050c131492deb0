"""The Estates' position builder: each step's bookkeeping, each refusal, and exact replay."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from rules.builder import PositionError
from rules.core import Action
from rules.estates import RULES, data
from rules.estates.builder import EstatesBuilder
from rules.estates.state import BID, CHOOSE, EstatesState

CUBE = data.TOKEN_CUBE


def drawn(state: EstatesState) -> list[int]:
    """The cubes in play: the display and the board."""
    return [c for line in state.display for c in line] + [
        c for row in state.rows for stack in row.stacks for c in stack
    ]


def test_a_fresh_builder_is_the_setup_of_that_seed() -> None:
    assert RULES.dump(EstatesBuilder(3, seed=5).build()) == RULES.dump(RULES.setup(3, {}, 5))
    assert EstatesBuilder(2, seed=5, rounds=3).build().rounds == 3


def test_first_and_on_turn_put_a_seat_to_choose() -> None:
    state = EstatesBuilder(4, seed=1).first(2).build()
    assert state.first_player == state.auctioneer == 2 and RULES.waiting_for(state) == {2}
    b = EstatesBuilder(4, seed=1).first(0)
    state = b.build()
    RULES.apply(state, 0, Action("stow"))
    state = b.on_turn(3).build()
    assert state.auctioneer == 3 and state.first_player == 0 and not state.stowed


def test_money_and_pay_move_checks_without_making_any() -> None:
    state = EstatesBuilder(3).money([20, 8, 6], [0, 0, 2]).build()
    assert state.money == [20, 8, 6] and state.cash_box == [0, 0, 2]
    state = EstatesBuilder(3).pay(1, 2, 5).build()
    assert state.money == [12, 7, 17] and sum(state.money) == 36


def test_a_row_takes_its_cubes_from_the_display_and_its_rooftops_from_the_supply() -> None:
    b = EstatesBuilder(2, seed=4)
    assert CUBE["gray6"] in b.state.display[0] and CUBE["blue5"] in b.state.out_of_game  # seed 4
    state = b.row("B", (["gray6", "blue5"], 5), (["red6"], 0), owner=1).build()
    assert state.rows[1].stacks == [[CUBE["gray6"], CUBE["blue5"]], [CUBE["red6"]]]
    assert state.rows[1].roofs == [5, 0] and sorted(state.roofs_left) == [1, 1, 2, 2, 3, 3, 4, 4, 5, 6, 6]
    assert len(drawn(state)) == 24 and len(state.out_of_game) == 12
    assert sorted(drawn(state) + state.out_of_game) == list(range(36))
    assert [state.certificates[data.COLOURS.index(c)] for c in ("gray", "blue", "red", "green")] == [
        1,
        1,
        1,
        None,
    ]


def test_a_cube_brought_in_from_outside_sends_out_a_middle_display_cube() -> None:
    b = EstatesBuilder(2, seed=4)
    ends = [(line[0], line[-1]) for line in b.state.display]
    outside = data.CUBE_TOKEN[b.state.out_of_game[-1]]
    state = b.row("C", ([outside], 0)).build()
    assert [(line[0], line[-1]) for line in state.display] == ends
    assert len(drawn(state)) == 24


def test_display_names_the_rows_and_hides_the_other_drawn_cubes_between_the_ends() -> None:
    b = (
        EstatesBuilder(2, seed=3)
        .row("A", (["red6"], 1), (["red5"], 0))
        .row("B", (["gray6"], 3), (["gray5"], 0))
    )
    b.row("C", (["yellow6"], 2), (["yellow5"], 2), (["yellow4"], 0))  # 7 cubes built, 6 named: 11 to hide
    state = b.display(["blue6", "blue1", "blue2"], ["green1"], ["purple5", "purple4"]).build()
    first, second, third = state.display
    assert (first[0], first[-2], first[-1]) == (CUBE["blue6"], CUBE["blue1"], CUBE["blue2"])
    assert second == [CUBE["green1"]] and (third[0], third[-1]) == (CUBE["purple5"], CUBE["purple4"])
    assert len(drawn(state)) == 24 and len(first) == 8
    state = EstatesBuilder(2, seed=3).display(["red5", "blue3"]).build()
    assert [len(line) for line in state.display] == [8, 8, 8] and len(drawn(state)) == 24
    assert (state.display[0][0], state.display[0][-1]) == (CUBE["red5"], CUBE["blue3"])


def test_to_front_puts_a_cube_where_it_may_be_picked() -> None:
    b = EstatesBuilder(3, seed=2)
    elsewhere = data.CUBE_TOKEN[b.state.display[2][4]]
    outside = data.CUBE_TOKEN[b.state.out_of_game[0]]
    state = b.to_front(elsewhere).to_front(outside, line=1).build()
    assert state.display[0][0] == CUBE[elsewhere] and state.display[1][0] == CUBE[outside]
    assert Action("pick", (elsewhere,)) in RULES.legal_actions(state, state.auctioneer)
    assert [len(line) for line in state.display] == [8, 8, 8]


def test_certificates_permits_and_the_mayor() -> None:
    b = EstatesBuilder(3).row("B", (["green5"], 0)).certificate("green", 2)
    state = b.permits("C", 1, 3).permits("A", -2).mayor("B").build()
    assert state.certificates[data.COLOURS.index("green")] == 2
    assert [row.requirement for row in state.rows] == [2, 4, 8] and state.permits_unused == []
    assert state.mayor_row == 1 and not state.mayor_available


def test_next_roofs_are_revealed_in_order_through_the_states_generator() -> None:
    state = EstatesBuilder(2, seed=6).first(0).row("A", (["red6"], 0), (["red5"], 0)).next_roofs(6, 1).build()
    assert state.rng.queued and RULES.legal_actions(state, 0)
    RULES.apply(state, 0, Action("pick", ("roof",)))
    assert state.roof_value == 6
    RULES.apply(state, 1, Action("pass"))
    RULES.apply(state, 0, Action("place", ("A", 1)))
    RULES.apply(state, 1, Action("pick", ("roof",)))
    assert state.roof_value == 1 and not state.rng.queued


@pytest.mark.parametrize(
    ("step", "why"),
    [
        (lambda b: b.first(3), "seat 3 is not at this table (3 players)"),
        (lambda b: b.money([12, 12], [0, 0]), "money needs one amount per seat (3 players)"),
        (
            lambda b: b.money([13, 12, 12]),
            "the checks must add up to $36 million with 3 players, not $37 million",
        ),
        (lambda b: b.money([13, 12, 12], [-1, 0, 0]), "nobody holds a negative amount of checks"),
        (lambda b: b.pay(0, 1, 13), "seat 0 has $12 million in hand, not $13 million"),
        (lambda b: b.row("D", (["red5"], 0)), "there is no row 'D' (rows A, B, C)"),
        (
            lambda b: b.row("B", (["red9"], 0)),
            "'red9' is not a floor cube (a colour and a number 1-6, like 'red5')",
        ),
        (
            lambda b: b.row("B", (["red5", "blue5"], 0)),
            "a building is 1 to 6 cubes of falling numbers, not ['red5', 'blue5']",
        ),
        (
            lambda b: b.row("A", (["red6", "red5"], 0)),
            "lot 1 of row A is white dirt: it holds one floor cube",
        ),
        (
            lambda b: b.row("B", *[([f"red{n}"], 0) for n in (6, 5, 4, 3, 2)]),
            "row B is 4 lots long: 5 buildings do not fit",
        ),
        (
            lambda b: b.row("B", (["red6"], 1), (["red5"], 1), (["red4"], 1)),
            "no rooftop of 1 is left in the supply",
        ),
        (lambda b: b.row("B", (["red6"], 0)).row("C", (["red6"], 0)), "red6 is already built on the board"),
        (lambda b: b.row("B", (["red6"], 0)).display(["red6", "red5"]), "red6 is already built on the board"),
        (
            lambda b: b.display(["red6"], [], []),
            "23 more drawn cubes must lie between the ends of the named display rows "
            "and the rows left unnamed, which have room for 0: name longer display rows",
        ),
        (lambda b: b.display(["red6", "red6"]), "a cube is named twice in the display"),
        (lambda b: b.display([], [], [], []), "the display has 3 rows, not 4"),
        (lambda b: b.to_front("red6", line=3), "there is no display row 3 (0 to 2)"),
        (
            lambda b: b.certificate("pink", 0),
            "'pink' is not a colour of the game (blue, red, yellow, green, purple, gray)",
        ),
        (lambda b: b.certificate("red", 1), "no red cube is on the board, so nobody holds its certificate"),
        (lambda b: b.permits("A", 4), "permit 4 is not in the supply"),
        (
            lambda b: b.permits("A", -3, -2),
            "row A cannot be -1 lots long (0 to 9, and not shorter than its 0 buildings)",
        ),
        (lambda b: b.mayor("A").mayor("B"), "the Mayor is not in the supply"),
        (lambda b: b.next_roofs(7).build(), "no rooftop of 7 is left in the supply to reveal"),
    ],
)
def test_impossible_steps_are_refused_with_a_sentence(
    step: Callable[[EstatesBuilder], object], why: str
) -> None:
    with pytest.raises(PositionError) as info:
        step(EstatesBuilder(3, seed=3))
    assert str(info.value) == why


def test_on_turn_is_refused_in_the_middle_of_an_auction() -> None:
    b = EstatesBuilder(3).first(0)
    RULES.apply(b.state, 0, Action("pick", ("mayor",)))
    assert b.state.phase == BID
    with pytest.raises(PositionError, match=r"^a turn starts only while choosing, not during the bid phase$"):
        b.on_turn(1)


def test_build_refuses_a_round_that_should_already_be_over() -> None:
    b = EstatesBuilder(2).row("A", (["red6"], 1), (["red5"], 1), (["red4"], 2), (["red3"], 2))
    b.row("B", (["gray6"], 3), (["gray5"], 3), (["gray4"], 4), (["gray3"], 4))
    with pytest.raises(PositionError, match="two rows are complete but the round goes on"):
        b.build()


def test_a_built_state_replays_exactly() -> None:
    b = EstatesBuilder(3, seed=12).first(1).money([10, 14, 9], [2, 0, 1])
    b.row("B", (["red6", "blue2"], 0), (["gray5"], 4)).to_front("green1").next_roofs(3)
    state = b.build()
    copy = RULES.load(json.loads(json.dumps(RULES.dump(state))))
    actions = [
        (1, Action("pick", ("roof",))),
        (2, Action("bid", (2,))),
        (0, Action("pass")),
        (1, Action("sell")),
        (2, Action("place", ("B", 1))),
        (2, Action("pick", ("green1",))),
    ]
    for seat, action in actions:
        assert RULES.apply(state, seat, action) == RULES.apply(copy, seat, action)
    assert state.rows[1].roofs == [3, 4] and state.phase == BID and state.piece == "green1"
    assert RULES.dump(state) == RULES.dump(copy) and RULES.invariants(copy) == []
    assert copy.phase != CHOOSE
