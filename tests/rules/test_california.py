"""California rules: the rulebook's rules and examples, the component data, the contract.

Randomised whole games (invariants, termination, replay, speed) are in
``test_california_fuzz.py``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable

import pytest

from rules.california import (
    ALL_ACTIONS,
    ATTIC,
    COIN,
    EXPAND,
    LOAN,
    REPAY,
    RULES,
    TILE_COLOUR,
    TILE_KIND,
    bonus_card_token,
    can_borrow,
    data,
    fees,
    offers,
    parse_bonus_card,
    placements,
    price,
    score_breakdown,
)
from rules.california.builder import CaliforniaBuilder
from rules.california.data import BLUE, BROWN, GRAY, GREEN, PURPLE, RED
from rules.california.state import State
from rules.core import Action, Arg, Event, IllegalAction, InvalidOptions, StateError
from tests.helpers import kinds, refusal

# --- helpers: positions come from the builder (rules.california.builder) ----------------


def game(players: int = 4, seed: int = 7, turn: int = 0) -> CaliforniaBuilder:
    return CaliforniaBuilder(players, seed=seed).on_turn(turn)


def buy(state: State, seat: int, store: int, slot: int, target: Arg) -> list[Event]:
    return RULES.apply(state, seat, Action("buy", (store, slot, target)))


def sound(state: State) -> None:
    assert RULES.invariants(state) == []


def refused(state: State, seat: int, action: Action, key: str, **params: object) -> IllegalAction:
    """The action raises IllegalAction for the reason ``key`` (with at least ``params``), and the
    state is untouched (``tests.helpers.refusal`` checks that)."""
    said = refusal(RULES, state, seat, action)
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, seat, action)
    assert said == str(info.value)
    assert info.value.key == key, said
    assert {name: info.value.params.get(name) for name in params} == params, said
    return info.value


def full(slots: Iterable[int | None]) -> list[int]:
    """The tiles in slots the test knows are all filled: a gap fails here rather than in a sort."""
    seen = list(slots)
    tiles = [t for t in seen if t is not None]
    assert len(tiles) == len(seen), seen
    return tiles


def targets_of(state: State, seat: int, store: int = 0, slot: int = 0) -> dict[Arg, int]:
    return dict(placements(state, seat, store, slot))


# --- component data ------------------------------------------------------------------


def test_tile_mix_adds_up_to_88() -> None:
    assert len(TILE_KIND) == data.TILE_COUNT == 88
    for c in range(6):
        assert sum(1 for k, col in zip(TILE_KIND, TILE_COLOUR, strict=True) if k == "room" and col == c) == 8
        assert (
            sum(1 for k, col in zip(TILE_KIND, TILE_COLOUR, strict=True) if k == "furniture" and col == c)
            == 6
        )
    assert TILE_KIND.count("expansion") == 4


def test_chosen_rulings_are_kept_in_the_data_module() -> None:
    assert data.BOARD_PRINTED_COLOURS == (RED, BROWN, PURPLE, GRAY, BLUE)
    assert data.PRINTED_SPACE == 12  # row 4, column 1
    assert data.FEES["4-5"] == (1, 1, 2, 2, 0, 1, 1, 2, 0, 0, 1, 1, 0, 0, 0, 1)
    assert data.FEES["2-3"] == (1, 2, 2, 2, 1, 1, 2, 2, 0, 1, 1, 2, 0, 0, 1, 1)
    assert [points for _, _, points in data.BONUS_CARDS] == [3] * 6 + [2] * 5
    assert data.COLOURS[BROWN] == "brown" and data.COLOURS[PURPLE] == "purple" and data.COLOURS[RED] == "red"
    assert [bonus_card_token(card) for card in (0, 6, 10)] == [
        "three_brown",
        "brown_red_purple",
        "gray_purple",
    ]
    assert all(parse_bonus_card(bonus_card_token(card)) == card for card in range(len(data.BONUS_CARDS)))
    topics = [topic for topic, _ in data.RULINGS]
    for topic in ("End conditions", "Scoring spaces", "Loans", "Tile legality", "Attic to room", "Gift rule"):
        assert topic in topics


# --- setup ------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_setup(players: int) -> None:
    state = RULES.setup(players, {}, 11)
    sound(state)
    assert state.bank == 4 and price(state) == 4
    assert all(t is not None for tiles in state.stores for t in tiles)
    assert sum(len(tiles) for tiles in state.stores) == 8
    assert len(state.stack) == 80 and state.bag == []
    assert [p.money for p in state.players] == [6] * players  # one gold + one silver
    assert state.bonus == [None] * 11
    assert state.guests == [None] * 6
    assert state.gift_supply == 30 and state.loan_supply == 5
    assert state.day == 1 and not state.over and state.ending is None
    printed = [p.printed_colour for p in state.players]
    assert len(set(printed)) == players  # every board pre-prints a different colour
    assert state.minted - state.returned == 6 * players + 20
    view = RULES.view(state, None)
    assert {p["mansion"]["side"] for p in view["players"]} == {"2-3" if players <= 3 else "4-5"}


def test_mansion_side_follows_player_count() -> None:
    assert fees(2) == fees(3) == data.FEES["2-3"]
    assert fees(4) == fees(5) == data.FEES["4-5"]


def test_start_player_comes_from_the_states_rng() -> None:
    starts = {RULES.setup(4, {}, seed).turn for seed in range(60)}
    assert starts == {0, 1, 2, 3}
    assert RULES.dump(RULES.setup(4, {}, 5)) == RULES.dump(RULES.setup(4, {}, 5))
    assert RULES.dump(RULES.setup(4, {}, 5)) != RULES.dump(RULES.setup(4, {}, 6))


@pytest.mark.parametrize("players", [0, 1, 6])
def test_setup_refuses_bad_player_counts(players: int) -> None:
    with pytest.raises(InvalidOptions, match=r"^players \(.*min=2, max=5"):
        RULES.setup(players, {}, 1)


def test_setup_refuses_unknown_options() -> None:
    with pytest.raises(InvalidOptions, match=r"^unknown \(option=\"'days'\""):
        RULES.setup(3, {"days": 10}, 1)


# --- the turn: take a coin --------------------------------------------------------------


def test_take_a_coin_and_the_turn_passes_left() -> None:
    state = game(players=3, turn=2).build()
    events = RULES.apply(state, 2, COIN)
    assert kinds(events) == ["coin_taken"]
    assert state.players[2].money == 11 and state.bank == 3
    assert state.turn == 0  # left neighbour, wrapping round
    assert price(state) == 3
    sound(state)


def test_coin_is_always_available_to_the_player_on_turn() -> None:
    b = game()
    b.money(0, 0)
    state = b.build()
    assert RULES.legal_actions(state, 0)[0] == COIN
    assert not any(a.kind == "buy" for a in RULES.legal_actions(state, 0))


def test_only_the_player_on_turn_takes_coins_or_buys() -> None:
    state = game(turn=0).build()
    refused(state, 1, COIN, "coin_not_your_turn")
    refused(state, 1, Action("buy", (0, 0, 5)), "buy_not_your_turn")
    assert RULES.legal_actions(state, 1) == [LOAN]
    assert RULES.waiting_for(state) == frozenset({0})


# --- the turn: buy a tile ---------------------------------------------------------------


@pytest.mark.parametrize("bank", [4, 3, 2, 1])
def test_price_is_the_coins_left_in_the_bank(bank: int) -> None:
    state = game(turn=0).bank(bank).offer(0, 0, "room", GREEN).build()
    assert price(state) == bank
    buy(state, 0, 0, 0, 4)  # fee 0 on the 4-5 side
    assert state.players[0].money == 6 - bank
    assert state.returned == bank
    sound(state)


def test_room_fee_is_paid_on_top_of_the_price() -> None:
    b = game(turn=0)  # 4 players: 4-5 side, space 3 costs 2
    b.offer(0, 0, "room", GREEN)
    state = b.build()
    assert targets_of(state, 0)[3] == 4 + 2
    events = buy(state, 0, 0, 0, 3)
    assert events[0].params["price"] == 4 and events[0].params["fee"] == 2
    assert state.players[0].money == 0
    sound(state)


def test_two_player_side_is_dearer() -> None:
    b = game(players=2, turn=0)
    b.offer(0, 0, "room", GREEN)
    state = b.build()
    assert targets_of(state, 0)[4] == 4 + 1  # 0 on the 4-5 side
    assert targets_of(state, 0)[9] == 4 + 1


def test_a_purchase_the_player_cannot_afford_is_refused_and_a_loan_helps() -> None:
    b = game(turn=0)
    b.offer(0, 0, "room", GREEN)
    b.money(0, 5)
    state = b.build()
    tile = state.stores[0][0]
    refused(state, 0, Action("buy", (0, 0, 3)), "too_dear_loan_helps", cost=6, tile=tile, money=5, loan=3)
    assert Action("buy", (0, 0, 3)) not in RULES.legal_actions(state, 0)
    assert Action("buy", (0, 0, 4)) in RULES.legal_actions(state, 0)
    RULES.apply(state, 0, LOAN)
    assert Action("buy", (0, 0, 3)) in RULES.legal_actions(state, 0)
    buy(state, 0, 0, 0, 3)
    assert state.players[0].money == 2
    sound(state)


def test_never_more_than_one_tile_per_turn() -> None:
    b = game(turn=0)
    b.offer(0, 0, "room", GREEN)
    b.offer(0, 1, "room", BLUE)
    b.money(0, 40)
    state = b.build()
    buy(state, 0, 0, 0, 4)
    assert state.turn == 1
    refused(state, 0, Action("buy", (0, 1, 5)), "buy_not_your_turn")


def test_empty_store_slot_is_refused() -> None:
    b = game(turn=0)
    b.offer(0, 0, "room", GREEN)
    state = b.build()
    buy(state, 0, 0, 0, 4)
    b.on_turn(0).build()
    refused(state, 0, Action("buy", (0, 0, 5)), "empty_slot", store=0, slot=0)


@pytest.mark.parametrize(
    "args", [(), (0, 0), (2, 0, 4), (0, 4, 4), (0, 0, 16), (0, 0, "cellar"), ("a", 0, 4), (0, 0, 4, 1)]
)
def test_malformed_purchases_are_refused(args: tuple[Arg, ...]) -> None:
    state = game(turn=0).build()
    refused(state, 0, Action("buy", args), "bad_purchase", stores=2, slots=4)


def test_unknown_actions_and_options_are_refused() -> None:
    state = game(turn=0).build()
    refused(state, 0, Action("pass"), "unknown_action")
    refused(state, 0, Action("coin", (1,)), "takes_no_options")
    refused(state, 0, Action("loan", ("now",)), "takes_no_options")
    refused(state, 9, LOAN, "no_such_seat")
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, 0, "coin")  # type: ignore[arg-type]  # a str, not an Action, on purpose
    assert info.value.key == "not_an_action"


# --- placement: rooms -------------------------------------------------------------------


def test_first_room_of_a_colour_goes_on_any_free_space() -> None:
    b = game(turn=0)  # seat 0 plays board 1: printed red room on space 12
    b.offer(0, 0, "room", GREEN)
    state = b.build()
    assert sorted(targets_of(state, 0)) == [s for s in range(16) if s != 12]


def test_printed_room_counts_for_adjacency() -> None:
    b = game(turn=0)
    b.offer(0, 0, "room", RED)
    state = b.build()
    assert sorted(targets_of(state, 0)) == [8, 13]  # orthogonal neighbours of the printed red room
    refused(state, 0, Action("buy", (0, 0, 9)), "must_touch", room="red")  # diagonal to 12
    buy(state, 0, 0, 0, 8)
    sound(state)


def test_second_room_must_touch_one_of_its_colour_orthogonally() -> None:
    b = game(turn=0)
    b.room(0, 5, GREEN)
    b.offer(0, 0, "room", GREEN)
    state = b.build()
    assert sorted(targets_of(state, 0)) == [1, 4, 6, 9]
    refused(state, 0, Action("buy", (0, 0, 0)), "must_touch", room="green")  # diagonal to 5
    refused(state, 0, Action("buy", (0, 0, 15)), "must_touch", room="green")
    buy(state, 0, 0, 0, 6)
    b.on_turn(0).build()
    b.offer(0, 1, "room", GREEN).build()
    assert sorted(targets_of(state, 0, 0, 1)) == [1, 2, 4, 7, 9, 10]  # touching either green room
    sound(state)


def test_each_space_takes_only_one_room() -> None:
    b = game(turn=0)
    b.room(0, 5, GREEN)
    b.offer(0, 0, "room", BLUE)
    state = b.build()
    refused(state, 0, Action("buy", (0, 0, 5)), "space_taken", space=5)
    refused(state, 0, Action("buy", (0, 0, 12)), "printed_room", room="red")
    refused(state, 0, Action("buy", (0, 0, ATTIC)), "room_on_ground_floor")


def test_a_room_that_cannot_be_placed_cannot_be_bought() -> None:
    b = game(turn=0)
    b.room(0, 8, GRAY)
    b.room(0, 13, GREEN)
    b.offer(0, 0, "room", RED)
    state = b.build()
    assert placements(state, 0, 0, 0) == []
    assert not any(a.kind == "buy" and a.args[:2] == (0, 0) for a in RULES.legal_actions(state, 0))
    refused(state, 0, Action("buy", (0, 0, 4)), "no_space_by_colour", room="red")


def test_a_full_ground_floor_takes_no_more_rooms() -> None:
    b = game(turn=0)
    layout = [BROWN] * 4 + [GRAY] * 4 + [GREEN] * 4 + [None, BLUE, BLUE, BLUE]
    for space, colour in enumerate(layout):
        if colour is not None:
            b.room(0, space, colour)
    b.offer(0, 0, "room", PURPLE)
    state = b.build()
    refused(state, 0, Action("buy", (0, 0, 0)), "floor_full", tile=state.stores[0][0])


# --- placement: furniture, attic, expansion ---------------------------------------------


def test_furniture_goes_into_an_empty_room_of_its_colour_including_the_printed_one() -> None:
    b = game(turn=0)
    b.room(0, 8, RED)
    b.offer(0, 0, "furniture", RED)
    state = b.build()
    assert targets_of(state, 0) == {8: 4, 12: 4}
    events = buy(state, 0, 0, 0, 12)
    assert "guest_arrives" in kinds(events)
    assert state.players[0].furniture[12] is not None
    sound(state)


def test_furniture_must_use_an_empty_room_before_the_attic() -> None:
    b = game(turn=0)
    b.offer(0, 0, "furniture", RED)
    state = b.build()
    tile = state.stores[0][0]
    refused(state, 0, Action("buy", (0, 0, ATTIC)), "furniture_not_attic", tile=tile, room="red")
    refused(state, 0, Action("buy", (0, 0, 5)), "not_that_room", tile=tile, room="red", space=5)
    refused(state, 0, Action("buy", (0, 0, EXPAND)), "expansion_only")


def test_a_furnished_room_takes_no_second_piece() -> None:
    b = game(turn=0)
    b.room(0, 8, RED)
    b.furnish(0, 12, guest=True)
    b.offer(0, 0, "furniture", RED)
    state = b.build()
    assert targets_of(state, 0) == {8: 4}
    refused(state, 0, Action("buy", (0, 0, 12)), "room_furnished", room="red", space=12)


@pytest.mark.parametrize(("players", "space"), [(4, 3), (2, 1)], ids=["4-5 side", "2-3 side"])
def test_furniture_pays_only_the_price_even_in_a_room_on_a_fee_space(players: int, space: int) -> None:
    """Rulebook: the coin-symbol fee is due when a *room tile* is placed there, not furniture.

    Every other furniture test uses fee-free spaces, so a fee charged for furniture would
    pass them all: here the green room sits on a space whose fee is 2 on that side of the board.
    """
    b = game(players=players, turn=0)
    assert fees(players)[space] == 2
    b.room(0, space, GREEN)
    b.offer(0, 0, "furniture", GREEN)
    state = b.build()
    assert targets_of(state, 0) == {space: 4}, "the listed total is the price alone"
    b.money(0, 4).build()  # exactly the price: the furniture is affordable only without a fee
    assert Action("buy", (0, 0, space)) in RULES.legal_actions(state, 0)
    returned = state.returned
    events = buy(state, 0, 0, 0, space)
    assert events[0].kind == "tile_bought"
    assert {k: events[0].params[k] for k in ("price", "fee", "cost", "money")} == {
        "price": 4,
        "fee": 0,
        "cost": 4,
        "money": 0,
    }
    assert state.players[0].money == 0
    assert state.returned == returned + 4
    assert state.players[0].furniture[space] is not None
    sound(state)


def test_furniture_without_a_room_is_stored_in_the_attic_without_a_guest() -> None:
    b = game(turn=0)
    b.offer(0, 0, "furniture", GREEN)
    state = b.build()
    assert targets_of(state, 0) == {ATTIC: 4}
    refused(state, 0, Action("buy", (0, 0, 3)), "furniture_to_attic", tile=state.stores[0][0], room="green")
    events = buy(state, 0, 0, 0, ATTIC)
    assert kinds(events) == ["tile_bought", "furniture_stored"]
    assert state.guests[GREEN] is None
    assert len(state.players[0].attic) == 1
    sound(state)


def test_full_attic_means_the_furniture_cannot_be_bought_until_expanded() -> None:
    b = game(turn=0)
    b.attic(0, BLUE)
    b.money(0, 20)
    b.offer(0, 0, "furniture", GREEN)
    state = b.build()
    assert placements(state, 0, 0, 0) == []
    refused(
        state, 0, Action("buy", (0, 0, ATTIC)), "furniture_nowhere", tile=state.stores[0][0], room="green"
    )
    b.offer(0, 1, "expansion").build()
    assert targets_of(state, 0, 0, 1) == {EXPAND: 4}
    refused(state, 0, Action("buy", (0, 1, 3)), "expansion_space")
    buy(state, 0, 0, 1, EXPAND)
    b.on_turn(0).build()
    assert targets_of(state, 0) == {ATTIC: 4}
    buy(state, 0, 0, 0, ATTIC)
    assert len(state.players[0].attic) == 2
    sound(state)


def test_only_one_attic_expansion_per_mansion() -> None:
    b = game(turn=0)
    b.expansion(0)
    b.offer(0, 0, "expansion")
    state = b.build()
    assert placements(state, 0, 0, 0) == []
    refused(state, 0, Action("buy", (0, 0, EXPAND)), "already_expanded")


def test_attic_furniture_moves_into_a_new_room_of_its_colour_at_once() -> None:
    b = game(turn=0)
    b.furnish(0, 12, guest=True)  # one guest already: the next one brings a gift
    b.room(0, 0, GREEN)
    b.furnish(0, 0)  # dog on the ground floor
    b.attic(0, BROWN)  # pool table waiting in the attic
    state = b.build()
    sound(state)
    # attic furniture counts for nothing: no "pool table and dog" card yet
    assert state.bonus[9] is None
    b.offer(0, 0, "room", BROWN).build()
    events = buy(state, 0, 0, 0, 5)
    assert kinds(events) == ["tile_bought", "furniture_moved", "guest_arrives", "gift", "bonus_card"]
    p = state.players[0]
    assert p.attic == [] and p.furniture[5] is not None and state.guests[BROWN] == 0
    assert state.bonus[9] == 0  # pool table and dog
    sound(state)


def test_only_one_of_two_waiting_pieces_moves_into_the_new_room() -> None:
    b = game(turn=0)
    b.expansion(0)
    b.attic(0, BROWN)
    b.attic(0, BROWN)
    b.offer(0, 0, "room", BROWN)
    state = b.build()
    buy(state, 0, 0, 0, 5)
    assert len(state.players[0].attic) == 1
    sound(state)


# --- guests and gifts -----------------------------------------------------------------------


def test_rulebook_example_pool_table_brings_the_brown_guest_and_a_gift() -> None:
    """A player buys a pool table for a brown room; he already entertains the red and purple guests."""
    b = game(turn=0)
    b.furnish(0, 12, guest=True)
    b.room(0, 0, PURPLE)
    b.furnish(0, 0, guest=True)
    b.room(0, 3, BROWN)
    b.offer(0, 0, "furniture", BROWN)
    state = b.build()
    events = buy(state, 0, 0, 0, 3)
    # (light brown + red + purple furniture also completes that bonus card)
    assert kinds(events) == ["tile_bought", "guest_arrives", "gift", "bonus_card"]
    assert state.guests[BROWN] == 0 and state.players[0].gifts == 1 and state.gift_supply == 29
    sound(state)


def test_rulebook_example_pinball_with_the_purple_guest_already_there_brings_nothing() -> None:
    """A player with the brown and purple guests puts a pinball machine in a purple room."""
    b = game(turn=0)
    b.room(0, 0, BROWN)
    b.furnish(0, 0, guest=True)
    b.room(0, 3, PURPLE)
    b.furnish(0, 3, guest=True)
    b.room(0, 7, PURPLE)
    b.offer(0, 0, "furniture", PURPLE)
    state = b.build()
    events = buy(state, 0, 0, 0, 7)
    assert kinds(events) == ["tile_bought", "guest_stays"]
    assert state.players[0].gifts == 0 and state.guests.count(0) == 2
    sound(state)


def test_first_guest_brings_no_gift() -> None:
    b = game(turn=0)
    b.offer(0, 0, "furniture", RED)
    state = b.build()
    events = buy(state, 0, 0, 0, 12)
    assert kinds(events) == ["tile_bought", "guest_arrives"]
    assert state.players[0].gifts == 0


def test_guest_leaves_another_player() -> None:
    b = game(turn=0)
    b.room(1, 0, GREEN)
    b.furnish(1, 0, guest=True)
    b.room(1, 1, BLUE)
    b.furnish(1, 1, guest=True)
    b.room(0, 0, GREEN)
    b.offer(0, 0, "furniture", GREEN)
    state = b.build()
    events = buy(state, 0, 0, 0, 0)
    arrive = next(e for e in events if e.kind == "guest_arrives")
    assert arrive.params == {"colour": "green", "from": 1}
    assert state.guests[GREEN] == 0 and state.guests.count(1) == 1
    sound(state)


@pytest.mark.parametrize("others, gift", [(1, False), (2, False), (3, True)])
def test_two_players_need_three_other_guests_for_a_gift(others: int, gift: bool) -> None:
    b = game(players=2, turn=0)
    for space, colour in enumerate((BROWN, PURPLE, GRAY)[:others]):
        b.room(0, space, colour)
        b.furnish(0, space, guest=True)
    b.offer(0, 0, "furniture", RED)
    state = b.build()
    events = buy(state, 0, 0, 0, 12)
    assert ("gift" in kinds(events)) is gift
    sound(state)


def test_no_gift_once_the_30_are_gone() -> None:
    b = game(turn=0)
    b.gifts(1, 30)
    b.furnish(0, 12, guest=True)
    b.room(0, 0, GREEN)
    b.offer(0, 0, "furniture", GREEN)
    state = b.build()
    events = buy(state, 0, 0, 0, 0)
    assert kinds(events) == ["tile_bought", "guest_arrives", "no_gift_left"]
    assert state.players[0].gifts == 0 and state.gift_supply == 0
    sound(state)


# --- bonus cards ------------------------------------------------------------------------------


def test_rulebook_example_two_motorcycles_and_a_pinball_machine() -> None:
    b = game(turn=0)
    b.room(0, 0, GRAY)
    b.room(0, 1, GRAY)
    b.furnish(0, 0)
    b.furnish(0, 1, guest=True)
    b.room(0, 3, PURPLE)
    b.offer(0, 0, "furniture", PURPLE)
    state = b.build()
    events = buy(state, 0, 0, 0, 3)
    cards = [e.params["card"] for e in events if e.kind == "bonus_card"]
    assert [bonus_card_token(card) for card in cards] == ["gray_purple"]  # motorcycle and pinball machine
    assert state.bonus[10] == 0
    sound(state)


def test_several_cards_at_once_are_all_taken() -> None:
    b = game(turn=0)
    b.furnish(0, 12, guest=True)  # grand piano
    b.room(0, 0, PURPLE)
    b.furnish(0, 0)  # pinball machine
    b.room(0, 3, GREEN)
    b.furnish(0, 3)  # dog
    b.room(0, 5, BROWN)
    b.offer(0, 0, "furniture", BROWN)
    state = b.build()
    events = buy(state, 0, 0, 0, 5)
    cards = [e.params["card"] for e in events if e.kind == "bonus_card"]
    assert cards == [6, 9]  # light brown/red/purple and pool table/dog
    assert RULES.view(state, None)["players"][0]["bonus_points"] == 4
    sound(state)


def test_three_of_a_colour_card() -> None:
    b = game(turn=0)
    for space in (0, 1, 2):
        b.room(0, space, BLUE)
    b.furnish(0, 0, guest=True)
    b.furnish(0, 1)
    b.offer(0, 0, "furniture", BLUE)
    state = b.build()
    events = buy(state, 0, 0, 0, 2)
    assert [e.params["card"] for e in events if e.kind == "bonus_card"] == [4]
    assert events[-1].params["points"] == 3


def test_a_card_already_taken_stays_with_the_first_player() -> None:
    b = game(turn=0)
    b.room(1, 0, GRAY)
    b.furnish(1, 0)
    b.room(1, 1, PURPLE)
    b.furnish(1, 1, guest=True)
    b.bonus_card(10, 1)
    b.room(0, 0, GRAY)
    b.furnish(0, 0, guest=True)
    b.room(0, 3, PURPLE)
    b.offer(0, 0, "furniture", PURPLE)
    state = b.build()
    events = buy(state, 0, 0, 0, 3)
    assert "bonus_card" not in kinds(events) and state.bonus[10] == 1
    sound(state)


# --- loans --------------------------------------------------------------------------------------


def test_loan_at_any_time_even_on_another_players_turn() -> None:
    b = game(turn=0)
    for seat in range(4):
        state = b.build()
        assert LOAN in RULES.legal_actions(state, seat)
    events = RULES.apply(state, 2, LOAN)
    assert kinds(events) == ["loan_taken"]
    assert state.players[2].money == 9 and state.players[2].loan and state.loan_supply == 4
    assert state.turn == 0  # a loan is no turn
    sound(state)
    refused(state, 2, LOAN, "loan_open")
    assert RULES.legal_actions(state, 2) == [REPAY]
    RULES.apply(state, 2, REPAY)
    assert state.players[2].money == 5 and not state.players[2].loan and state.loan_supply == 5
    sound(state)


def test_repay_needs_a_loan_and_four_silver() -> None:
    b = game(turn=0)
    state = b.build()
    refused(state, 1, REPAY, "no_loan")
    RULES.apply(state, 1, LOAN)
    b.money(1, 3).build()
    refused(state, 1, REPAY, "repay_too_dear", cost=4, money=3)
    assert RULES.legal_actions(state, 1) == []


def test_loan_markers_can_run_out() -> None:
    b = game(players=5, turn=0)
    for seat in range(4):
        state = b.build()
        RULES.apply(state, seat, LOAN)
    state.loan_supply = 0  # as if a sixth seat held the last marker
    refused(state, 4, LOAN, "no_loan_markers", markers=5)
    assert RULES.legal_actions(state, 4) == []


# --- borrow and buy in one step -------------------------------------------------------------------


def loan_buy(store: int, slot: int, target: Arg) -> Action:
    return Action("loan_buy", (store, slot, target))


def test_borrow_and_buy_is_one_step_when_only_a_loan_makes_the_purchase_affordable() -> None:
    b = game(turn=0)
    b.offer(0, 0, "room", GREEN)
    b.money(0, 5)  # price 4: fee-0 and fee-1 spaces are affordable, fee-2 spaces need the loan
    state = b.build()
    legal = RULES.legal_actions(state, 0)
    assert loan_buy(0, 0, 3) in legal and Action("buy", (0, 0, 3)) not in legal
    assert Action("buy", (0, 0, 4)) in legal and loan_buy(0, 0, 4) not in legal
    assert not any(a.kind == "loan_buy" for s in (1, 2, 3) for a in RULES.legal_actions(state, s))
    events = RULES.apply(state, 0, loan_buy(0, 0, 3))
    assert kinds(events)[:2] == ["loan_taken", "tile_bought"]
    assert events[0].params == {"amount": 3, "money": 8}
    assert events[1].params["cost"] == 6 and events[1].params["money"] == 2
    p = state.players[0]
    assert p.loan and p.money == 2 and state.loan_supply == 4 and p.rooms[3] is not None
    assert state.turn == 1 and state.stores[0][0] is None
    assert state.last is not None and state.last["loan"] is True and state.last["target"] == 3
    sound(state)


def test_borrow_and_buy_refusals_leave_everything_untouched() -> None:
    b = game(players=5, turn=0)
    b.offer(0, 0, "room", GREEN)
    state = b.build()
    tile = state.stores[0][0]
    refused(state, 1, loan_buy(0, 0, 3), "buy_not_your_turn")
    refused(state, 0, Action("loan_buy", (0, 0)), "bad_purchase")
    refused(state, 0, loan_buy(0, 0, 12), "printed_room", room="red")
    b.money(0, 6).build()
    refused(state, 0, loan_buy(0, 0, 3), "loan_not_needed", cost=6, tile=tile)
    b.money(0, 2).build()
    refused(state, 0, loan_buy(0, 0, 3), "too_dear_even_with_loan", cost=6, tile=tile, reach=5)
    b.money(0, 4).build()
    RULES.apply(state, 0, LOAN)  # 7 silver and a loan: the fee-2 space (6) is affordable, 8 would not be
    b.money(0, 5).build()
    refused(state, 0, loan_buy(0, 0, 3), "borrow_loan_open")
    RULES.apply(state, 0, REPAY)
    b.money(0, 5).build()
    for seat in (1, 2, 3, 4):
        RULES.apply(state, seat, LOAN)
    state.loan_supply = 0  # as if a sixth seat held the last marker
    refused(state, 0, loan_buy(0, 0, 3), "borrow_no_markers", markers=5)
    assert not any(a.kind == "loan_buy" for a in RULES.legal_actions(state, 0))


def test_a_refused_purchase_suggests_the_loan_only_when_it_would_cover_the_price() -> None:
    b = game(turn=0)
    b.offer(0, 0, "room", GREEN)
    b.money(0, 5)
    state = b.build()
    refused(state, 0, Action("buy", (0, 0, 3)), "too_dear_loan_helps", cost=6, money=5, loan=3)
    b.money(0, 2).build()
    refused(state, 0, Action("buy", (0, 0, 3)), "too_dear", cost=6, money=2)


def test_offers_give_each_space_its_price_and_the_action_that_buys_it() -> None:
    b = game(turn=0)
    b.offer(0, 0, "room", GREEN)
    b.money(0, 5)
    fee = data.FEES["4-5"]
    state = b.build()
    found = {target: (cost, action) for target, cost, action in offers(state, 0, 0, 0)}
    assert set(found) == {s for s in range(16) if s != 12}
    for space, (cost, action) in found.items():
        assert isinstance(space, int)
        assert cost == 4 + fee[space]
        kind = "buy" if cost <= 5 else "loan_buy"
        assert action == Action(kind, (0, 0, space))
        assert action in RULES.legal_actions(state, 0)
    assert all(action is None for _, _, action in offers(state, 1, 0, 0)), "not on turn: nothing to buy"
    RULES.apply(state, 0, LOAN)
    b.money(0, 5).build()
    assert all((a is None) == (c > 5) for _, c, a in offers(state, 0, 0, 0)), "one loan at a time"
    assert offers(state, 0, 1, 9) == [] and not can_borrow(state, 0) and can_borrow(state, 1)


# --- the last move ----------------------------------------------------------------------------------


def test_the_last_public_move_is_recorded_for_the_board() -> None:
    b = game(players=3, turn=0)
    state = b.build()
    assert state.last is None and RULES.view(state, None)["last"] is None
    RULES.apply(state, 0, COIN)
    assert state.last == {"seat": 0, "action": "coin", "coin": 3, "day_ended": False}
    RULES.apply(state, 2, LOAN)
    assert state.last == {"seat": 2, "action": "loan"}
    RULES.apply(state, 2, REPAY)
    assert state.last == {"seat": 2, "action": "repay"}
    b.offer(1, 2, "furniture", RED).money(1, 9).build()
    tile = state.stores[1][2]
    buy(state, 1, 1, 2, ATTIC)
    assert state.last == {
        "seat": 1, "action": "buy", "store": 1, "slot": 2, "target": "attic", "tile": tile, "cost": 3,
        "loan": False, "day_ended": False,
    }  # fmt: skip
    view = RULES.view(state, None)
    assert state.last is not None
    assert view["last"] == {
        **state.last, "kind": "furniture", "colour": "red",
    }  # fmt: skip
    view["last"]["seat"] = 99
    assert state.last["seat"] == 1, "the view's copy is its own"
    RULES.apply(state, 2, COIN)
    RULES.apply(state, 0, COIN)
    RULES.apply(state, 1, COIN)  # the bank's last coin
    assert state.last == {"seat": 1, "action": "coin", "coin": 0, "day_ended": True}
    sound(state)


def test_a_state_saved_before_the_last_move_existed_still_loads() -> None:
    state = game(players=3, turn=0).build()
    RULES.apply(state, 0, COIN)
    old = RULES.dump(state)
    del old["last"]
    loaded = RULES.load(old)
    assert loaded.last is None and RULES.dump(loaded)["last"] is None
    assert RULES.view(loaded, None)["last"] is None
    RULES.apply(loaded, 1, COIN)
    assert loaded.last == {"seat": 1, "action": "coin", "coin": 2, "day_ended": False}


def test_load_refuses_a_corrupt_last_move() -> None:
    good = RULES.dump(game().build())
    for bad in (
        [1],
        {"seat": 0, "action": "dance"},
        {"seat": "x", "action": "coin"},
        {"seat": 0, "action": "coin", "coin": [1]},
        {"seat": 7, "action": "loan"},
        {"seat": 0, "action": "buy", "store": 3, "slot": 0, "target": 1, "tile": 0},
        {"seat": 0, "action": "buy", "store": 0, "slot": 0, "target": "cellar", "tile": 0},
    ):
        with pytest.raises(StateError):
            RULES.load({**good, "last": bad})


# --- days ---------------------------------------------------------------------------------------


def test_taking_the_last_coin_ends_the_day() -> None:
    state = game(players=4, turn=1).build()
    leftovers = full(t for tiles in state.stores for t in tiles)
    expected = list(reversed(state.stack[-8:]))
    minted = state.minted
    for seat in (1, 2, 3):
        RULES.apply(state, seat, COIN)
    events = RULES.apply(state, 0, COIN)
    assert kinds(events) == ["coin_taken", "day_ended", "day_started"]
    assert events[1].params == {"day": 1, "reason": "bank"}
    assert sorted(state.bag) == sorted(leftovers)
    assert [t for tiles in state.stores for t in tiles] == expected  # refilled from the draw stack
    assert len(state.stack) == 72
    assert state.bank == 4 and state.minted == minted + 20
    assert state.day == 2 and state.turn == 1  # left neighbour of seat 0, who ended the day
    sound(state)


def test_emptying_a_store_ends_the_day() -> None:
    state = game(players=3, turn=2).empty_slots(1, 0, 1, 3).offer(1, 2, "room", GREEN).build()
    left = full(state.stores[0])
    events = buy(state, 2, 1, 2, 0)
    assert kinds(events) == ["tile_bought", "day_ended", "day_started"]
    assert events[1].params == {"day": 1, "reason": "store", "store": 1}
    assert sorted(state.bag) == sorted(left)
    assert all(t is not None for tiles in state.stores for t in tiles)
    assert state.bank == 4 and state.day == 2 and state.turn == 0
    sound(state)


def test_the_bag_is_shuffled_to_refill_the_stores_after_day_11_and_the_game_ends_after_day_12() -> None:
    state = game(players=4, turn=0).build()
    shuffled_on = []
    while not state.over:
        seat = state.turn
        day = state.day
        events = RULES.apply(state, seat, COIN)
        if "bag_shuffled" in kinds(events):
            shuffled_on.append(day)
        if day == 10 and state.day == 11:
            assert state.stack == []  # day 10's refill took the last of the draw stack
        sound(state)
    assert shuffled_on == [11]
    assert state.day == 12 and RULES.outcome(state) is not None
    assert len(state.bag) == 80 and all(t is not None for tiles in state.stores for t in tiles)
    for seat in range(4):
        assert RULES.legal_actions(state, seat) == []
    assert RULES.waiting_for(state) == frozenset()
    refused(state, 0, COIN, "game_over")
    refused(state, 1, LOAN, "game_over")


def test_an_empty_draw_stack_is_topped_up_from_the_shuffled_bag() -> None:
    state = game(players=4, turn=0).stack_left(3).build()  # only 3 tiles left in the draw stack
    events = []
    for _ in range(4):
        events += RULES.apply(state, state.turn, COIN)
    assert kinds(events)[-3:] == ["day_ended", "bag_shuffled", "day_started"]
    assert state.stack == []
    assert all(t is not None for tiles in state.stores for t in tiles)  # 3 from the stack, 5 from the bag
    sound(state)


def test_short_supply_fills_as_many_store_spaces_as_it_can() -> None:
    state = game(players=3, turn=0).empty_slots(1, 1, 2, 3).money(0, 20).build()
    state.stack.clear()  # breaks conservation on purpose (no builder makes it): only the refill is watched
    target = placements(state, 0, 1, 0)[0][0]
    buy(state, 0, 1, 0, target)  # empties store 2: the day ends
    assert state.day == 2
    filled = [t for tiles in state.stores for t in tiles if t is not None]
    assert len(filled) == 4 and state.bag == []  # store 1's four leftovers, shuffled back out


# --- the end -------------------------------------------------------------------------------------


def _seven_bonus_points(b: CaliforniaBuilder, seat: int = 0) -> CaliforniaBuilder:
    for space in (0, 1, 2):
        b.room(seat, space, BROWN).furnish(seat, space)
    b.furnish(seat, 12, guest=True)
    b.room(seat, 3, PURPLE).furnish(seat, 3)
    b.room(seat, 4, BLUE).furnish(seat, 4)
    b.room(seat, 5, GREEN)  # empty, waiting for a dog
    return b.bonus_card(0, seat).bonus_card(6, seat).bonus_card(8, seat)  # 3 + 2 + 2


def test_nine_bonus_points_end_the_game_at_the_end_of_that_day() -> None:
    state = _seven_bonus_points(game(players=3, turn=0)).offer(0, 0, "furniture", GREEN).build()
    events = buy(state, 0, 0, 0, 5)
    assert "game_ends_tonight" in kinds(events) and state.ending == "bonus"
    assert state.bonus[9] == 0 and RULES.view(state, None)["players"][0]["bonus_points"] == 9
    assert not state.over and RULES.outcome(state) is None
    # the day is played to its end
    while not state.over:
        RULES.apply(state, state.turn, COIN)
    assert state.day == 1
    assert RULES.outcome(state) is not None


def test_all_sixteen_spaces_renovated_end_the_game_at_the_end_of_that_day() -> None:
    b = game(players=5, turn=0)
    layout = [BROWN] * 4 + [GRAY] * 4 + [GREEN] * 4 + [None, BLUE, BLUE, None]
    for space, colour in enumerate(layout):
        if colour is not None:
            b.room(0, space, colour)
    b.offer(0, 0, "room", BLUE)
    b.money(0, 10)
    state = b.build()
    events = buy(state, 0, 0, 0, 15)
    assert "game_ends_tonight" in kinds(events) and state.ending == "mansion"
    assert RULES.view(state, None)["players"][0]["mansion"]["renovated"] == 16
    assert not state.over
    for seat in (1, 2, 3):
        RULES.apply(state, seat, COIN)
        assert not state.over
    events = RULES.apply(state, 4, COIN)
    assert state.bank == 0 and state.over and kinds(events)[-1] == "game_over"
    sound(state)


def _last_coin(b: CaliforniaBuilder) -> list[Event]:
    """Day 12 with one coin left in the bank: the player on turn ends the game."""
    state = b.day(12).bank(1).build()
    return RULES.apply(state, state.turn, COIN)


def test_scoring() -> None:
    b = game(players=3, turn=2)
    # seat 0: gifts, a bonus card, rooms, furniture, attic, expansion and a loan it can repay
    b.gifts(0, 3)
    b.room(0, 8, RED)  # each room tile: 1 point (3 here); the printed room: 1 point
    b.furnish(0, 12, guest=True)  # furniture on a room adds no point
    b.room(0, 0, GRAY)
    b.furnish(0, 0)
    b.room(0, 3, PURPLE)
    b.furnish(0, 3)
    b.bonus_card(10, 0)  # motorcycle and pinball: 2
    b.expansion(0)  # the expansion space: 1
    b.attic(0, GREEN)  # the printed attic space holding furniture: 1
    b.attic(0, GREEN)  # the second one lies on the expansion: no extra point
    state = b.build()
    RULES.apply(state, 0, LOAN)  # 9 silver: repaid automatically at the end
    # seat 1: a loan it cannot repay
    RULES.apply(state, 1, LOAN)
    b.money(1, 3).build()
    sound(state)
    events = _last_coin(b)
    auto = [e for e in events if e.kind == "loan_repaid"]
    assert [(e.seat, e.params["automatic"]) for e in auto] == [(0, True)]
    result = RULES.outcome(state)
    assert result is not None
    assert result.breakdown[0] == {"gifts": 3, "bonus": 2, "spaces": 6, "loan": 0, "total": 11, "money": 5}
    assert result.breakdown[1] == {"gifts": 0, "bonus": 0, "spaces": 1, "loan": -2, "total": -1, "money": 3}
    assert result.breakdown[2]["total"] == 1 and result.breakdown[2]["money"] == 11
    assert result.scores == (11, -1, 1)
    assert result.ranks == (1, 3, 2)
    assert state.players[1].loan and state.loan_supply == 4
    sound(state)


def test_printed_room_scores_whether_or_not_it_is_furnished() -> None:
    b = game(players=2)
    state = b.build()
    assert score_breakdown(state, 0)["spaces"] == 1
    b.furnish(0, 12, guest=True).build()
    assert score_breakdown(state, 0)["spaces"] == 1


def test_ties_go_to_the_most_money_then_are_shared() -> None:
    b = game(players=3, turn=0)
    state = b.state
    events = _last_coin(b)  # seat 0 now has 11 silver, seats 1 and 2 have 6
    assert kinds(events)[-1] == "game_over"
    result = RULES.outcome(state)
    assert result is not None
    assert result.scores == (1, 1, 1)
    assert result.ranks == (1, 2, 2)
    assert result.winners() == (0,)


# --- helpers for the Discord layer ---------------------------------------------------------------


def test_placements_list_every_target_with_its_total_price() -> None:
    b = game(players=4, turn=0).bank(3).offer(1, 3, "room", GREEN)
    state = b.build()
    fee = data.FEES["4-5"]
    assert placements(state, 0, 1, 3) == [(s, 3 + fee[s]) for s in range(16) if s != 12]
    assert placements(state, 0, 5, 0) == [] and placements(state, 9, 0, 0) == []
    # legal_actions offers exactly the affordable placements
    b.money(0, 4).build()
    buys = {a.args[2] for a in RULES.legal_actions(state, 0) if a.kind == "buy" and a.args[:2] == (1, 3)}
    assert buys == {s for s, total in placements(state, 0, 1, 3) if total <= 4}


def test_action_text_form_round_trips() -> None:
    for action in ALL_ACTIONS:
        assert Action.decode(action.encode()) == action
    assert Action.decode("buy.1.2.attic") == Action("buy", (1, 2, ATTIC))


# --- view -------------------------------------------------------------------------------------------


def test_public_view_shows_the_table() -> None:
    b = game(players=4, turn=2)
    b.room(1, 0, GREEN)
    b.furnish(1, 0, guest=True)
    b.attic(1, RED)
    state = b.build()
    RULES.apply(state, 1, LOAN)
    b.gifts(1, 2).build()
    sound(state)
    view = RULES.view(state, None)
    json.dumps(view)  # plain data
    assert view["you"] is None and view["turn"] == 2 and view["waiting_for"] == [2]
    assert view["day"] == 1 and view["days"] == 12
    assert view["bank"] == 4 and view["price"] == 4
    assert len(view["stores"]) == 2 and all(len(s) == 4 for s in view["stores"])
    for tile in (t for s in view["stores"] for t in s):
        assert (
            tile["price"] == 4 and tile["kind"] in ("room", "furniture", "expansion") and "name" not in tile
        )
    assert view["bonus_cards_left"] == 11 and len(view["bonus_cards"]) == 11
    assert view["guests"]["green"] == 1 and view["gifts_left"] == 28 and view["loan_markers_left"] == 4
    assert view["draw_stack"] == len(state.stack) and view["bag"] == 0
    p1 = view["players"][1]
    assert p1["money"] == 9 and p1["gold"] == 1 and p1["silver"] == 4
    assert p1["loan"] and p1["gifts"] == 2 and p1["guests"] == ["green"]
    mansion = p1["mansion"]
    assert len(mansion["spaces"]) == 16
    assert mansion["printed"] == {"space": 12, "colour": "brown"}  # board 2
    assert mansion["spaces"][12]["printed"] and mansion["spaces"][12]["room"] == "brown"
    assert mansion["spaces"][0] == {
        "space": 0, "row": 0, "column": 0, "fee": 1, "printed": False, "room": "green", "furniture": "green",
    }  # fmt: skip
    assert mansion["rooms_by_colour"]["green"] == 1 and mansion["rooms_by_colour"]["brown"] == 1
    assert mansion["furniture_by_colour"]["green"] == 1
    assert mansion["attic"] == ["red"] and mansion["attic_spaces"] == 1 and mansion["expansion"] is False
    assert RULES.view(state, 1)["you"] == 1


def test_view_hides_the_order_of_the_draw_stack_and_the_bag() -> None:
    a = game(players=3, seed=3).build()
    other = RULES.load(RULES.dump(a))  # the same table with the hidden order changed on purpose
    other.stack.reverse()
    other.bag = list(reversed(a.bag))
    other.rng.seed ^= 12345
    assert RULES.view(a, None) == RULES.view(other, None)
    view = RULES.view(a, None)
    assert "rng" not in view and "stack" not in view and view["draw_stack"] == 80
    assert a.stack not in list(view.values())


# --- contract: saving and loading, invariants --------------------------------------------------------


def test_dump_and_load_round_trip_exactly() -> None:
    b = game(players=5, seed=99)
    b.furnish(0, 12, guest=True)
    b.expansion(2)
    state = b.build()
    text = json.dumps(RULES.dump(state))
    again = RULES.load(json.loads(text))
    assert again == state and json.dumps(RULES.dump(again)) == text


def test_load_refuses_unknown_schema_and_corrupt_data() -> None:
    good = RULES.dump(game().build())
    with pytest.raises(StateError, match="schema"):
        RULES.load({**good, "schema": 99})
    with pytest.raises(StateError):
        RULES.load({**good, "bank": "four"})
    with pytest.raises(StateError):
        RULES.load({k: v for k, v in good.items() if k != "stores"})
    with pytest.raises(StateError, match="money"):
        RULES.load({**good, "minted": good["minted"] + 1})
    with pytest.raises(StateError, match="tiles"):
        RULES.load({**good, "stack": good["stack"][1:]})
    with pytest.raises(StateError):
        RULES.load([])  # type: ignore[arg-type]  # not a JSON object, on purpose


def test_invariants_catch_broken_conservation() -> None:
    state = game().build()  # then broken on purpose, by hand: no builder makes it
    state.players[0].money += 1
    assert any("money" in msg for msg in RULES.invariants(state))
    state = game().build()  # then broken on purpose, by hand: no builder makes it
    state.bag.append(state.stack[0])
    assert any("tiles" in msg for msg in RULES.invariants(state))
    state = game().build()  # then broken on purpose, by hand: no builder makes it
    state.players[0].gifts = 1
    assert any("gifts" in msg for msg in RULES.invariants(state))
    state = game().build()  # then broken on purpose, by hand: no builder makes it
    state.players[0].loan = True
    assert any("loan" in msg for msg in RULES.invariants(state))
    state = game().build()  # then broken on purpose, by hand: no builder makes it
    state.guests[GREEN] = 1
    assert any("guest" in msg for msg in RULES.invariants(state))
    state = game().build()  # then broken on purpose, by hand: no builder makes it
    state.bonus[0] = 2
    assert any("bonus" in msg for msg in RULES.invariants(state))
    state = game().room(0, 0, GREEN).room(0, 15, GREEN).state  # build() would refuse it
    assert any("do not touch" in msg for msg in RULES.invariants(state))
    state = game().room(0, 0, GREEN).attic(0, GREEN).state
    assert any("attic" in msg for msg in RULES.invariants(state))


def test_the_rules_object_has_the_contract_surface() -> None:
    assert RULES.name == "california" and RULES.min_players == 2 and RULES.max_players == 5
    assert RULES.options == () and RULES.schema == 1
    for method in (
        "setup",
        "legal_actions",
        "apply",
        "waiting_for",
        "outcome",
        "view",
        "dump",
        "load",
        "invariants",
    ):
        assert callable(getattr(RULES, method))


# --- tokens, not words ---------------------------------------------------------------------------


def strings_in(value: object) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (*strings_in(k), *strings_in(v))]
    if isinstance(value, list | tuple):
        return [s for v in value for s in strings_in(v)]
    return []


@pytest.mark.parametrize("players", [2, 5])
def test_events_views_and_refusals_carry_tokens_not_words(players: int) -> None:
    """Every string an event, a view or a refusal carries is a token (``red``, ``attic``,
    ``three_red``), never an English phrase: the host names tokens in the table's language."""
    from rules.play import random_playthrough

    run = random_playthrough(RULES, players, 8, check=False)
    state = RULES.setup(players, {}, 8)
    found: set[str] = set()
    for seat, action in run.log:
        for event in RULES.apply(state, seat, action):
            found.update(strings_in(event.params))
        found.update(strings_in(RULES.view(state, None)))
        for other in range(players):
            legal = set(RULES.legal_actions(state, other))
            for probe in (COIN, REPAY, Action("buy", (0, 0, 0)), Action("buy", (1, 3, ATTIC))):
                if probe not in legal:
                    with pytest.raises(IllegalAction) as info:
                        RULES.apply(state, other, probe)
                    found.add(info.value.key)
                    found.update(strings_in(info.value.params))
    words = sorted(s for s in found if not re.fullmatch(r"[a-z0-9_-]+", s))  # "2-3": a board side
    assert found and not words, words
