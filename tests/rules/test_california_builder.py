"""California's position builder: each step's bookkeeping, each refusal, and exact replay."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from rules.builder import PositionError
from rules.california import COIN, RULES, TILE_COLOUR, TILE_KIND, data
from rules.california.builder import CaliforniaBuilder
from rules.california.data import BLUE, BROWN, GREEN, RED
from rules.california.state import State
from rules.core import Action


def held(state: State) -> int:
    return sum(p.money for p in state.players) + state.bank * data.GOLD


def everywhere(state: State) -> list[int]:
    tiles = [*state.stack, *state.bag, *(t for s in state.stores for t in s if t is not None)]
    for p in state.players:
        tiles += [t for t in (*p.rooms, *p.furniture, *p.attic, p.expansion) if t is not None]
    return sorted(tiles)


def tile(slot: int | None) -> int:
    """The tile in a slot the test knows is filled."""
    assert slot is not None
    return slot


def test_a_fresh_builder_is_the_setup_of_that_seed() -> None:
    assert RULES.dump(CaliforniaBuilder(3, seed=5).build()) == RULES.dump(RULES.setup(3, {}, 5))


def test_turn_day_and_bank_keep_the_money_issued_equal_to_the_money_held() -> None:
    state = CaliforniaBuilder(4, seed=2).on_turn(3).day(12).bank(1).build()
    assert state.turn == 3 and state.day == 12 and state.bank == 1
    assert held(state) == state.minted - state.returned == 4 * 6 + 5


def test_money_and_gifts_come_from_the_stock_and_the_pile() -> None:
    state = CaliforniaBuilder(3).money(1, 20).money(2, 0).gifts(0, 3).build()
    assert [p.money for p in state.players] == [6, 20, 0]
    assert held(state) == state.minted - state.returned
    assert state.players[0].gifts == 3 and state.gift_supply == 27


def test_rooms_furniture_attic_and_expansion_take_real_tiles_from_the_stack() -> None:
    b = CaliforniaBuilder(4, seed=7).room(0, 5, GREEN).furnish(0, 5, guest=True).attic(1, BLUE)
    state = b.expansion(1).furnish(0, 12).build()
    p = state.players[0]
    assert TILE_KIND[tile(p.rooms[5])] == "room" and TILE_COLOUR[tile(p.rooms[5])] == GREEN
    assert TILE_COLOUR[tile(p.furniture[5])] == GREEN
    assert TILE_COLOUR[tile(p.furniture[12])] == RED  # the printed room
    assert state.guests[GREEN] == 0 and state.guests[RED] is None
    q = state.players[1]
    assert [TILE_COLOUR[t] for t in q.attic] == [BLUE] and TILE_KIND[tile(q.expansion)] == "expansion"
    assert everywhere(state) == list(range(88)) and len(state.stack) == 80 - 5


def test_offer_puts_the_tile_in_the_slot_and_the_old_one_under_the_stack() -> None:
    b = CaliforniaBuilder(2, seed=1)
    old = b.state.stores[1][2]
    state = b.offer(1, 2, "expansion").build()
    assert TILE_KIND[tile(state.stores[1][2])] == "expansion" and state.stack[0] == old
    assert everywhere(state) == list(range(88))


def test_a_tile_found_only_in_a_store_is_taken_and_the_slot_refilled() -> None:
    b = CaliforniaBuilder(4, seed=1)
    wanted, top = b.state.stores[1][1], b.state.stack[-1]
    assert TILE_KIND[tile(wanted)] == "expansion"  # seed 1 offers one of the four expansions
    for seat in range(4):
        b.expansion(seat)  # the three in the stack first, then the one in the store
    state = b.build()
    assert state.players[3].expansion == wanted and state.stores[1][1] == top
    with pytest.raises(PositionError, match=r"^no expansion tile is left outside the mansions$"):
        CaliforniaBuilder(5, seed=1).expansion(0).expansion(1).expansion(2).expansion(3).expansion(4)


def test_empty_slots_and_the_stack_left_move_tiles_without_losing_any() -> None:
    state = CaliforniaBuilder(3, seed=4).empty_slots(1, 0, 1, 3).stack_left(3).build()
    assert state.stores[1] == [None, None, state.stores[1][2], None] and state.stores[1][2] is not None
    assert len(state.stack) == 3 and len(state.bag) == 80
    assert everywhere(state) == list(range(88))


def test_next_tiles_are_drawn_first_at_the_next_refill() -> None:
    b = CaliforniaBuilder(4, seed=9).on_turn(0)
    chosen = [b.state.stack[0], b.state.stack[5], b.state.stack[10]]
    state = b.next_tiles(*chosen).build()
    for seat in (0, 1, 2, 3):
        RULES.apply(state, seat, COIN)  # the fourth coin empties the bank: the day ends
    assert state.day == 2 and state.stores[0][:3] == chosen


@pytest.mark.parametrize(
    ("step", "why"),
    [
        (lambda b: b.on_turn(4), "seat 4 is not at this table (3 players)"),
        (lambda b: b.day(13), "day 13 is not a day of the game (1 to 12)"),
        (lambda b: b.bank(0), "the bank holds 1 to 4 coins during a day, not 0"),
        (lambda b: b.money(0, -1), "seat 0 cannot hold -1 silver"),
        (lambda b: b.gifts(1, 31), "the gift pile has only 30 gifts left"),
        (lambda b: b.gifts(1, -1), "seat 1 has only 0 gifts to give back"),
        (lambda b: b.bonus_card(11, 0), "there is no bonus card 11 (0 to 10)"),
        (lambda b: b.offer(2, 0, "room", RED), "store 2 slot 0 does not exist (2 stores of 4 slots)"),
        (lambda b: b.offer(0, 0, "cellar"), "'cellar' is not a kind of tile (room, furniture, expansion)"),
        (lambda b: b.offer(0, 0, "room"), "a room tile needs a colour 0 to 5, not -1"),
        (lambda b: b.room(0, 12, GREEN), "space 12 is the printed room of seat 0's mansion"),
        (lambda b: b.room(0, 16, GREEN), "there is no space 16 on a mansion (0 to 15)"),
        (lambda b: b.room(0, 1, GREEN).room(0, 1, RED), "seat 0 already has a room on space 1"),
        (lambda b: b.furnish(0, 3), "seat 0 has no room on space 3 to furnish"),
        (lambda b: b.furnish(0, 12).furnish(0, 12), "seat 0's room on space 12 is already furnished"),
        (lambda b: b.attic(0, RED).attic(0, BLUE), "seat 0's attic is full (1 spaces)"),
        (lambda b: b.expansion(2).expansion(2), "seat 2's attic is already expanded"),
        (lambda b: b.stack_left(81), "the draw stack holds 80 tiles, not 81 or more"),
        (lambda b: b.next_tiles(88), "there is no tile 88 (0 to 87)"),
    ],
)
def test_impossible_steps_are_refused_with_a_sentence(
    step: Callable[[CaliforniaBuilder], object], why: str
) -> None:
    with pytest.raises(PositionError) as info:
        step(CaliforniaBuilder(3, seed=3))
    assert str(info.value) == why


def test_a_tile_already_placed_cannot_be_stacked_or_taken_twice() -> None:
    b = CaliforniaBuilder(2, seed=3)
    for seat in (0, 1):
        for space in range(4):
            b.room(seat, space, BROWN)  # all eight brown rooms of the box
    with pytest.raises(PositionError, match=f"^tile {b.state.players[1].rooms[0]} is neither"):
        b.next_tiles(tile(b.state.players[1].rooms[0]))
    with pytest.raises(PositionError, match=r"^no brown room tile is left outside the mansions$"):
        b.room(0, 4, BROWN)


def test_a_second_owner_for_a_bonus_card_is_refused() -> None:
    b = CaliforniaBuilder(3).bonus_card(4, 1)
    with pytest.raises(PositionError, match=r"^bonus card 4 is already with seat 1$"):
        b.bonus_card(4, 2)


def test_build_refuses_positions_the_placement_rules_forbid() -> None:
    with pytest.raises(PositionError, match="do not touch"):
        CaliforniaBuilder(4).room(0, 0, GREEN).room(0, 15, GREEN).build()
    with pytest.raises(PositionError, match="without its furniture"):
        CaliforniaBuilder(4).bonus_card(0, 2).build()
    with pytest.raises(PositionError, match="attic beside an empty room"):
        CaliforniaBuilder(4).room(0, 0, GREEN).attic(0, GREEN).build()


def test_a_built_state_replays_exactly() -> None:
    state = (
        CaliforniaBuilder(3, seed=12)
        .on_turn(1)
        .bank(2)
        .money(1, 30)
        .room(1, 4, GREEN)
        .offer(0, 0, "furniture", GREEN)
        .stack_left(2)
        .build()
    )
    copy = RULES.load(json.loads(json.dumps(RULES.dump(state))))
    actions = [(1, Action("buy", (0, 0, 4))), (2, COIN), (0, COIN)]  # the day ends: the bag is shuffled
    for seat, action in actions:
        assert RULES.apply(state, seat, action) == RULES.apply(copy, seat, action)
    assert state.day == 2 and RULES.dump(state) == RULES.dump(copy)
