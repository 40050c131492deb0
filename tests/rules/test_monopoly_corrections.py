"""The components page's changes of 2026-11-28: the consultancy fee brings money, and a hotel sold
back with fewer than four houses in the bank takes its whole group down evenly.

Positions come from ``rules.monopoly.builder.MonopolyBuilder`` (past the opening, deeds and
buildings handed out free from the bank, dice queued in the state's own generator, a card put on
top of its deck) and are moved on by play: nothing here edits a state's field.
"""

from __future__ import annotations

from collections.abc import Mapping

import pytest

from bot.core.i18n import words
from rules.core import Action, Event
from rules.monopoly import RULES, MonopolyState, data, parse_space
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.holdings import sold_down
from rules.monopoly.tokens import card_token
from tests.helpers import kinds

P = parse_space
GREENS = (P("golden-gate-park"), P("lombard-street"), P("pacific-coast-highway"))  # 31, 32, 34
DARK_BLUES = (P("beverly-hills-hotel"), P("rodeo-drive"))  # 37, 39


def table(players: int = 3) -> MonopolyBuilder:
    """A game past the opening rolls, seat 0 on turn (seed 7, the decks' order fixed)."""
    return MonopolyBuilder(players, seed=7).started(first=0)


def act(state: MonopolyState, seat: int, text: str) -> list[Event]:
    events = RULES.apply(state, seat, Action.decode(text))
    assert RULES.invariants(state) == []
    return events


def built(position: MonopolyBuilder, seat: int, levels: dict[int, int]) -> MonopolyBuilder:
    """``seat`` gets the sites (free) at these even levels, the buildings taken from the bank:
    all at the lowest level first, then the higher ones one more, so each step stays even."""
    low = min(levels.values())
    position.owns(seat, *levels, houses=low)
    high = [pos for pos, level in levels.items() if level > low]
    return position.owns(seat, *high, houses=low + 1) if high else position


def houses_left(position: MonopolyBuilder, count: int, away_from: tuple[int, ...]) -> MonopolyState:
    """Build the bank down to ``count`` houses on other colour groups (seat 1's, levelled evenly:
    each group's lowest site first, in board order), and hand the state over."""
    groups = [g for g in data.GROUPS.values() if data.IS_SITE[g[0]] and not set(g) & set(away_from)]
    spare = position.state.houses - count
    for group in groups:
        levels = dict.fromkeys(group, 0)
        while spare and min(levels.values()) < data.MAX_HOUSES:
            levels[min(group, key=levels.__getitem__)] += 1
            spare -= 1
        built(position, 1, levels)
    return position.bank_houses(count).build()


def sold(events: list[Event]) -> Mapping[str, object]:
    assert kinds(events) == ["sold_building"]
    return events[0].params


# --- the consultancy fee -----------------------------------------------------------------------


def test_receive_25_consultancy_fee_brings_25_from_the_bank() -> None:
    state = table().top_card(data.TIPJAR, "consultancy").at(0, 14).next_dice((1, 2)).build()
    index = next(i for i, c in enumerate(data.TIPJAR_CARDS) if c.token == "consultancy")
    bank = state.bank
    events = act(state, 0, "roll")  # 1 + 2: Muscle Beach to the Tip Jar on 17
    drawn = next(e for e in events if e.kind == "card_drawn")
    assert drawn.params["card"] == card_token(data.TIPJAR, index) == "tipjar-consultancy"
    assert events[-1].kind == "collected" and events[-1].params == {"amount": 25, "reason": "card"}
    assert state.cash[0] == 1525 and state.bank == bank - 25 and not state.debts


def test_the_consultancy_card_reads_as_money_received_in_every_language() -> None:
    """The card's text said "pay $25" while it brings $25: the words now say what it does."""
    assert words("en")("monopoly.card.tipjar-consultancy") == "Receive $25 consultancy fee"
    assert words("fr")("monopoly.card.tipjar-consultancy") == "Recevez 25 $ d'honoraires de conseil"


# --- selling a hotel when the bank is short of houses ---------------------------------------------


def test_the_pages_example_greens_at_4_4_hotel_with_two_houses_in_the_bank() -> None:
    """Greens at 4-4-hotel, 2 houses in the bank -> 3-3-4, the owner gets $100 + 2 x $100."""
    state = houses_left(built(table(), 2, {GREENS[0]: 4, GREENS[1]: 4, GREENS[2]: data.HOTEL}), 2, GREENS)
    cash, bank, hotels = state.cash[2], state.bank, state.hotels
    params = sold(act(state, 2, "sell.34"))
    assert [state.level[p] for p in GREENS] == [3, 3, 4]
    assert state.cash[2] == cash + 100 + 2 * 100 and state.bank == bank - 300
    assert state.houses == 0 and state.hotels == hotels + 1  # the bank's 2 went onto the hotel's site
    assert params == {
        "space": 34,
        "token": "pacific-coast-highway",
        "item": "hotel",
        "refund": 300,
        "level": 4,
        "sold": 3,
        "spaces": list(GREENS),
        "levels": [3, 3, 4],
    }


def test_no_house_in_the_bank_the_dearer_site_keeps_more() -> None:
    """8 houses stand on the greens: 3-3-2 is the most an even group can hold; the hotel's site keeps
    three, and of the two $300 sites the later one on the board keeps its third."""
    state = houses_left(built(table(), 2, {GREENS[0]: 4, GREENS[1]: 4, GREENS[2]: data.HOTEL}), 0, GREENS)
    cash = state.cash[2]
    params = sold(act(state, 2, "sell.34"))
    assert [state.level[p] for p in GREENS] == [2, 3, 3]
    assert params["refund"] == 5 * 100 and params["sold"] == 5 and state.cash[2] == cash + 500
    assert state.houses == 0 and state.hotels == data.HOTEL_SUPPLY


def test_a_two_site_group() -> None:
    state = houses_left(built(table(), 0, {DARK_BLUES[0]: 4, DARK_BLUES[1]: data.HOTEL}), 1, DARK_BLUES)
    cash = state.cash[0]
    params = sold(act(state, 0, "sell.39"))
    assert [state.level[p] for p in DARK_BLUES] == [2, 3]  # 4 + 1 houses: 2-3, the hotel's site keeps 3
    assert params["refund"] == 4 * 100 and state.cash[0] == cash + 400
    assert params["spaces"] == list(DARK_BLUES) and params["levels"] == [2, 3]
    assert state.houses == 0


def test_a_hotel_beside_another_goes_down_with_it_when_the_bank_is_short() -> None:
    """Hotel-hotel and two houses in the bank: the other hotel cannot stand beside two houses, so
    both come down to the most two houses allow, one each."""
    state = houses_left(
        built(table(), 0, {DARK_BLUES[0]: data.HOTEL, DARK_BLUES[1]: data.HOTEL}), 2, DARK_BLUES
    )
    hotels, cash = state.hotels, state.cash[0]
    params = sold(act(state, 0, "sell.39"))
    assert [state.level[p] for p in DARK_BLUES] == [1, 1] and params["sold"] == 8
    assert state.hotels == hotels + 2 and state.houses == 0 and state.cash[0] == cash + 800


def test_with_four_houses_in_the_bank_only_the_hotel_goes() -> None:
    state = houses_left(built(table(), 2, {GREENS[0]: 4, GREENS[1]: 4, GREENS[2]: data.HOTEL}), 4, GREENS)
    cash = state.cash[2]
    params = sold(act(state, 2, "sell.34"))
    assert [state.level[p] for p in GREENS] == [4, 4, 4] and state.houses == 0
    assert params == {
        "space": 34,
        "token": "pacific-coast-highway",
        "item": "hotel",
        "refund": 100,
        "level": 4,
        "sold": 1,
    }
    assert state.cash[2] == cash + 100
    params = sold(act(state, 2, "sell.31"))
    assert params["item"] == "house" and params["sold"] == 1 and params["refund"] == 100


@pytest.mark.parametrize("bank", range(5))
def test_every_legal_sale_keeps_every_group_even(bank: int) -> None:
    """From every even green group with a hotel and every bank short of houses, sell the group
    down to nothing one legal sale at a time: the invariants (evenness with a hotel counted as
    five houses, buildings and money conserved) hold after each, every sale removes at least
    one building, and the refunds add up to half the group's buildings' price."""
    for levels in ((4, 4, 5), (4, 5, 5), (5, 5, 5)):
        state = houses_left(built(table(), 2, dict(zip(GREENS, levels, strict=True))), bank, GREENS)
        cash = state.cash[2]
        while any(state.level[p] for p in GREENS):
            before = sum(state.level[p] for p in GREENS)
            sales = [a for a in RULES.legal_actions(state, 2) if a.kind == "sell"]
            assert sales
            act(state, 2, sales[-1].encode())
            assert sum(state.level[p] for p in GREENS) < before
        assert state.cash[2] == cash + sum(levels) * 100


def test_sold_down_tries_nothing_that_raises_a_site() -> None:
    state = houses_left(built(table(), 2, {GREENS[0]: 4, GREENS[1]: 4, GREENS[2]: data.HOTEL}), 3, GREENS)
    after = sold_down(state, GREENS[2])
    assert after == [3, 4, 4]  # 8 + 3 houses: 3-4-4, the later $300 site keeping its fourth
    assert all(a <= b for a, b in zip(after, [4, 4, 5], strict=True))
