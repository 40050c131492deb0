"""Last Will data against the components page (shared/components/lastwill.md), claim by claim.

The page is the authority: each test names the section whose numbers it checks, so a failing
test after a host's correction says which claim of the page no longer holds.
"""

from __future__ import annotations

import re
import tomllib
from collections import Counter
from pathlib import Path
from statistics import mean

import pytest

from rules.core import Action, InvalidOptions
from rules.lastwill import data, tokens
from rules.lastwill.data import (
    Border,
    CompanionCard,
    Deck,
    EmploymentSet,
    EventCard,
    HelperCard,
    Mark,
    NuptialName,
    Plan,
    PropertyCard,
    PropertyType,
    Symbol,
)

CATALOG = Path(__file__).parents[2] / "bot" / "locales" / "en.toml"
"""The English catalog, where the chosen rulings' sentences live."""

H, D, C, G = data.HORSE, data.DOG, data.CHEF, data.GUEST


def ids(deck: Deck, *, expansion: bool) -> list[str]:
    return [i for i in data.DECK_CARDS[deck] if data.CARDS[i].expansion is expansion]


def strength(plan: Plan) -> int:
    """§4.2: V = cards + 3 x actions + 2 x (boys - 1)."""
    return plan.cards + 3 * plan.actions + 2 * (plan.boys - 1)


def minimum_income(lines: tuple[data.Line, ...]) -> int:
    """§11.8: income every round while the biggest uncovered line is covered each round."""
    money = sorted((line.money for line in lines), reverse=True)
    return sum(sum(money[covered:]) for covered in range(len(money)))


# --- §2, §11: decks ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("deck", "base", "new"),
    [
        (Deck.PROPERTY, 24, 6),
        (Deck.EVENT, 31, 6),
        (Deck.HELPER, 39, 1),
        (Deck.COMPANION, 20, 0),
        (Deck.SPECIAL, 17, 0),
        (Deck.NEW_SPECIAL, 0, 7),
        (Deck.WILD, 2, 0),
    ],
)
def test_deck_sizes(deck: Deck, base: int, new: int) -> None:
    assert len(ids(deck, expansion=False)) == base
    assert len(ids(deck, expansion=True)) == new
    assert data.deck_cards(deck, expansion=False) == tuple(ids(deck, expansion=False))
    assert len(data.deck_cards(deck, expansion=True)) == base + new


def test_special_decks_stack_by_crowns() -> None:
    special = data.crown_layers(Deck.SPECIAL)
    assert [len(layer) for layer in special] == [6, 5, 6]
    new = data.crown_layers(Deck.NEW_SPECIAL)
    assert [len(layer) for layer in new] == [4, 3]
    assert sorted(i for layer in special for i in layer) == sorted(data.DECK_CARDS[Deck.SPECIAL])
    assert sorted(i for layer in new for i in layer) == sorted(data.DECK_CARDS[Deck.NEW_SPECIAL])
    regular = {card.crowns for card in data.ALL_CARDS if card.deck not in data.CROWN_LAYERS}
    assert regular == {0}


def test_fifty_new_cards() -> None:
    """§1: the expansion's 50 cards."""
    cards = sum(card.expansion for card in data.ALL_CARDS)
    assert cards + len(data.EMPLOYMENT_CARDS) + len(data.NEW_LAST_WILLS) == 50
    assert len(data.EMPLOYMENT_CARDS) == 20
    assert (len(data.BASE_LAST_WILLS), len(data.NEW_LAST_WILLS)) == (7, 10)


def test_companions() -> None:
    """§11.1: five of each, grey; two wild cards with the wild symbol, set aside."""
    counts = Counter(card.companion for card in data.ALL_CARDS if isinstance(card, CompanionCard))
    assert counts == {H: 5, D: 5, C: 5, G: 5, None: 2}
    for card in data.ALL_CARDS:
        if isinstance(card, CompanionCard):
            assert card.border is Border.GREY
            if card.companion is None:
                assert (card.deck, card.symbols) == (Deck.WILD, (Symbol.WILD,))
            else:
                assert card.symbols == (data.COMPANION_SYMBOL[card.companion],)


def test_every_id_unique_and_a_valid_action_argument() -> None:
    every = [
        *(card.id for card in data.ALL_CARDS),
        *(job.id for job in data.EMPLOYMENT_CARDS),
        *(will.id for will in data.LAST_WILL_CARDS),
    ]
    assert len(every) == len(set(every)) == 153 + 20 + 17
    for card_id in every:
        assert Action("play", (card_id,)).args == (card_id,)  # travels in custom_ids unchanged
        assert card_id == card_id.upper() and not card_id.isdigit()
    tiles = [tile.id for tile in data.PLAN_TILES]
    assert len(tiles) == len(set(tiles)) == 16


def test_page_ids_kept() -> None:
    expected = {
        *(f"F{n}" for n in range(1, 12)),
        *(f"T{n}" for n in range(1, 5)),
        *(f"M{n}" for n in range(1, 5)),
        *(f"X{n}" for n in range(1, 6)),
        *(f"N{n}" for n in range(1, 7)),
        *("ER1", "ER2", "WD1", "WG1", "WG2", "BP1", "WD2", "BP2"),
        *(f"SC{n}" for n in range(1, 6)),
    }
    assert expected <= set(data.CARDS)
    assert set(data.DECK_CARDS[Deck.PROPERTY]) == {i for i in expected if i[0] in "FTMXN"}
    assert [job.id for job in data.EMPLOYMENT_CARDS] == [f"E{n}" for n in range(1, 21)]


# --- §11.2, §11.11: properties ------------------------------------------------------------------


def test_properties() -> None:
    props = {card.id: card for card in data.ALL_CARDS if isinstance(card, PropertyCard)}
    types = Counter(card.types for card in props.values() if not card.expansion)
    assert types == {
        (PropertyType.FARM,): 11,
        (PropertyType.TOWN,): 4,
        (PropertyType.MANOR,): 4,
        (PropertyType.MANSION,): 5,
    }
    for card in props.values():
        assert card.border is Border.BLACK
        assert card.symbols == tuple(data.PROPERTY_SYMBOL[t] for t in card.types)
        assert 1 <= len(card.types) <= 2
        if PropertyType.FARM in card.types:
            assert len(card.track) == 1  # a farm has one value and never depreciates
        assert list(card.track) == sorted(card.track, reverse=True)
    assert props["T2"].track == (17, 15, 13, 11, 8, 5)
    assert [(s.accepts, s.amount) for s in props["F9"].slots] == [((D,), 3), ((D,), 5), ((D,), 9)]
    assert props["N1"].types == (PropertyType.TOWN, PropertyType.MANOR)
    assert props["N2"].types == (PropertyType.MANOR, PropertyType.MANSION)
    assert [s.doubles_depreciation for s in props["N3"].slots + props["N4"].slots] == [True, True]
    assert not any(s.doubles_depreciation for i, c in props.items() if i not in ("N3", "N4") for s in c.slots)
    assert [s.accepts for s in props["N5"].slots] == [(H, D), (H, D)]
    free = [(i, s.amount) for i, c in props.items() for s in c.slots if s.free_on_purchase]
    assert free == [("N6", 6)]
    assert props["N6"].slots[0].accepts == (H,)


# --- §11.3, §11.12, §11.5, §11.10: white cards ---------------------------------------------------


def test_base_events() -> None:
    names = Counter(card.name for card in data.ALL_CARDS if card.deck is Deck.EVENT and not card.expansion)
    assert names == {"Dinner": 10, "Carriage Ride": 5, "Theatre": 4, "Boat Trip": 7, "Soirée": 2, "Ball": 3}
    events = {card.id: card for card in data.ALL_CARDS if isinstance(card, EventCard)}
    dinner_icons = Counter(events[f"DIN{n}"].icons for n in range(1, 11))
    assert dinner_icons == {
        (): 3,
        (data.CompanionIcon(H, 2),): 2,
        (data.CompanionIcon(D, 2),): 4,
        (data.CompanionIcon(G, 2), data.CompanionIcon(G, 2)): 1,
    }
    assert [events[f"BOAT-{x}"].money for x in "ABCDEFG"] == [2, 4, 4, 5, 2, 3, 4]
    assert {events[f"BOAT-{x}"].actions for x in "ABCDEFG"} == {2}
    balls = {
        i: [(lv.actions, lv.money) for lv in events[i].ball] for i in ("BALL1", "BALL2", "BALL3", "S2-BALL")
    }
    assert balls == {
        "BALL1": [(2, 4), (3, 6), (4, 10), (5, 13)],
        "BALL2": [(2, 4), (3, 6), (4, 8), (5, 12), (6, 15), (7, 22)],
        "BALL3": [(2, 4), (3, 6), (4, 9), (5, 12), (6, 17)],
        "S2-BALL": [(2, 4), (3, 6), (4, 10), (5, 13), (6, 17), (7, 25)],
    }
    for ball in balls:
        assert (events[ball].actions, events[ball].money) == balls[ball][0]


def test_white_and_black_borders() -> None:
    for card in data.ALL_CARDS:
        if isinstance(card, EventCard):
            assert card.border is Border.WHITE
        elif isinstance(card, (HelperCard, PropertyCard)):
            assert card.border is Border.BLACK


def test_nuptial_cards() -> None:
    """§11.12: eight nuptial cards, six in the event deck, every name twice."""
    nuptial = [data.CARDS[i] for i in data.NUPTIAL_CARDS]
    assert len(nuptial) == 8
    assert Counter(card.deck for card in nuptial) == {Deck.EVENT: 6, Deck.NEW_SPECIAL: 2}
    names = Counter(card.nuptial for card in nuptial if isinstance(card, EventCard))
    assert names == dict.fromkeys(NuptialName, 2)
    assert {card.id for card in nuptial} == {"ER1", "ER2", "WD1", "WD2", "WG1", "WG2", "BP1", "BP2"}
    for card in nuptial:
        assert Symbol.RING in card.symbols and isinstance(card, EventCard) and card.actions == 1
    # Ring appears on nuptial cards only.
    assert {c.id for c in data.ALL_CARDS if Symbol.RING in c.symbols} == set(data.NUPTIAL_CARDS)


def test_special_effects() -> None:
    cards = data.CARDS
    fair = cards["S1-BF"]
    assert isinstance(fair, EventCard) and fair.effect == data.FreeTokens(
        count=2, companions=(D, H), property_type=PropertyType.FARM
    )
    party = cards["S2-WPT"]
    assert isinstance(party, EventCard) and party.effect == data.DropSteps(3, data.Scope.NON_FARM)
    hectic = [cards[i] for i in ("S2-HD", "S3-HD1", "S3-HD2")]
    assert [(c.crowns, c.actions, c.money, c.effect) for c in hectic if isinstance(c, EventCard)] == [
        (2, 1, 0, data.GainActions(3)),
        (3, 1, 2, data.GainActions(2)),
        (3, 1, 0, data.GainActions(3)),
    ]
    lost = cards["S1-LAC"]
    assert isinstance(lost, EventCard) and lost.effect == data.FreeSale(
        optional=True, ignore_market=True, estate_agent=True
    )
    bp2 = cards["BP2"]
    assert isinstance(bp2, EventCard) and (bp2.actions, bp2.money) == (1, 2)
    assert bp2.effect == data.DiscardForMoney(
        symbols=(Symbol.HELM, Symbol.DINE), each=1, optional=True, helper_bonus=False, demotion=False
    )
    secretary = cards["S1-PS"]
    assert isinstance(secretary, HelperCard)
    assert secretary.privileges == (data.DrawAndKeep(draw=6, keep=1, actions=0, per_round=1, one_deck=True),)
    wd2, regatta, tour = cards["WD2"], cards["S2-REG"], cards["S2-GT"]
    assert isinstance(wd2, EventCard) and (wd2.actions, wd2.money) == (1, 5)
    assert wd2.icons == (data.CompanionIcon(G, 3), data.CompanionIcon(H, 2))
    assert isinstance(regatta, EventCard) and (regatta.actions, regatta.money, len(regatta.icons)) == (
        2,
        6,
        3,
    )
    assert isinstance(tour, EventCard) and (tour.actions, tour.money, tour.icons) == (
        3,
        10,
        (data.CompanionIcon(G, 3),),
    )


def test_new_special_crowns() -> None:
    crowns = {i: data.CARDS[i].crowns for i in data.DECK_CARDS[Deck.NEW_SPECIAL]}
    assert crowns == {"BP2": 1, "S1-LAC": 1, "S1-PS": 1, "S1-OB": 1, "WD2": 2, "S2-REG": 2, "S2-GT": 2}
    for card_id in data.DECK_CARDS[Deck.SPECIAL]:
        if card_id.startswith("S") and card_id[1].isdigit():
            assert int(card_id[1]) == data.CARDS[card_id].crowns  # the id shows the crowns


# --- §11.4, §11.5: helpers and expenses ----------------------------------------------------------


def test_base_helpers() -> None:
    names = Counter(card.name for card in data.ALL_CARDS if card.deck is Deck.HELPER and not card.expansion)
    assert names == {
        "Gentlemen's Club": 2,
        "Reservation": 6,
        "Carriage": 5,
        "Training Ground": 5,
        "Waiter": 3,
        "Coachman": 2,
        "Sea Dog": 1,
        "Tailor": 1,
        "Gardener": 3,
        "Estate Agent": 3,
        "Steward": 3,
        "School Chum": 4,
        "Valet": 1,
    }


def helper(card_id: str) -> HelperCard:
    card = data.CARDS[card_id]
    assert isinstance(card, HelperCard)
    return card


def test_expenses() -> None:
    assert helper("GC1").lay_actions == 2 and helper("GC1").expense == data.Expense(actions=1, amount=5)
    res5 = helper("RES5").expense
    assert res5 is not None and (res5.amount, [(s.accepts, s.amount) for s in res5.slots]) == (
        1,
        [((C,), 2), ((C,), 4)],
    )
    crg1 = helper("CRG1").expense
    assert crg1 is not None and [(s.accepts, s.amount) for s in crg1.slots] == [((G,), 3)]
    formulas = [helper(f"TRG{n}").expense for n in range(1, 6)]
    assert [e.formula if e else None for e in formulas] == [
        data.TrainingFormula(per_farm=1, per_horse=1),
        data.TrainingFormula(per_farm=1, per_dog=1),
        data.TrainingFormula(per_horse=2),
        data.TrainingFormula(per_farm=2),
        data.TrainingFormula(per_dog=2),
    ]
    assert helper("TRG1").mark is Mark.CHOSEN and helper("TRG2").mark is Mark.PUBLIC
    assert helper("S1-OB").expense == data.Expense(actions=0, amount=2) and helper("S1-OB").symbols == (
        Symbol.MASK,
    )
    friends = [helper(i) for i in ("S3-OF", "S2-OF", "S1-OF1", "S1-OF2")]
    assert [f.crowns for f in friends] == [3, 2, 1, 1]
    assert [f.expense.amount if f.expense else None for f in friends] == [2, 1, None, None]
    assert {f.privileges for f in friends} == {(data.ExtraAction(1, white_only=False),)}


def test_privileges() -> None:
    bonus = data.SymbolBonus
    assert helper("WAI1").privileges == (bonus(symbols=(Symbol.DINE,), amount=1),)
    assert [helper(i).privileges for i in ("COA1", "COA2")] == [
        (bonus(symbols=(Symbol.CARRIAGE,), amount=1),),
        (bonus(symbols=(Symbol.CARRIAGE,), amount=2),),
    ]
    assert (helper("COA1").lay_actions, helper("COA2").lay_actions) == (1, 2)
    assert helper("SEA1").privileges == (bonus(symbols=(Symbol.HELM, Symbol.PARTY), amount=2),)
    assert helper("TAI1").privileges == (bonus(symbols=(Symbol.MASK,), amount=3), data.OperaBonus(3))
    assert helper("WPL1").privileges == (bonus(symbols=(Symbol.RING,), amount=1, optional=True),)
    gardens = {
        frozenset(p.types)
        for i in ("GAR1", "GAR2", "GAR3")
        for p in helper(i).privileges
        if isinstance(p, data.MaintainBonus)
    }
    assert gardens == {
        frozenset({PropertyType.TOWN, PropertyType.MANOR}),
        frozenset({PropertyType.MANSION, PropertyType.MANOR}),
        frozenset({PropertyType.MANSION, PropertyType.TOWN}),
    }
    buy, sell, farm, non = data.Trade.BUY, data.Trade.SELL, data.Scope.FARM, data.Scope.NON_FARM
    agent = (data.PriceModifier(buy, non, 2), data.PriceModifier(sell, non, -2))
    assert helper("EA1").privileges == helper("EA2").privileges == agent
    assert helper("EA3").privileges == (
        data.PriceModifier(sell, farm, -2),
        data.FreeActions(data.FreeAction.BUY_OR_SELL, farm, 1),
    )
    assert helper("S1-EA").privileges == (data.FreeActions(data.FreeAction.BUY_OR_SELL, non, 2),)
    assert helper("S1-EA").lay_actions == 2
    assert helper("S3-EA").privileges == (data.PriceModifier(sell, non, -4),)
    maintain = data.FreeAction.MAINTAIN
    stewards = [helper(i).privileges for i in ("STW1", "STW2", "STW3", "S1-STW1", "S1-STW2")]
    assert stewards == [
        (data.FreeActions(maintain, non, 1),),
        (data.FreeActions(maintain, farm, 1),),
        (data.FreeActions(maintain, farm, 1),),
        (data.FreeActions(maintain, farm, 2),),
        (data.FreeActions(maintain, non, 1),),
    ]
    chums = [helper(f"SC{n}") for n in range(1, 6)]
    assert [c.privileges for c in chums] == [
        (data.HandLimitBonus(2),),
        (data.HandLimitBonus(2),),
        (data.DrawBonus(Deck.COMPANION, 3),),
        (data.DrawBonus(Deck.EVENT, 3),),
        (data.DrawBonus(None, 2),),
    ]
    assert [c.expense.amount if c.expense else None for c in chums] == [1, 1, None, None, 2]
    assert helper("VAL1").privileges == (data.ExtraAction(1, white_only=True),)


# --- §8: symbols -----------------------------------------------------------------------------------


def test_symbols_per_card() -> None:
    counts = {card.id: len(card.symbols) for card in data.ALL_CARDS}
    assert counts.pop("S1-BF") == 0  # Breeders' Fair has none
    assert counts.pop("WD2") == 4
    assert counts.pop("N1") == counts.pop("N2") == 2  # dual properties
    assert set(counts.values()) == {1}
    assert data.CARDS["WD2"].symbols == (Symbol.DINE, Symbol.CARRIAGE, Symbol.HELM, Symbol.RING)
    assert {c.id for c in data.ALL_CARDS if Symbol.WILD in c.symbols} == {"W1", "W2"}
    assert {c.name for c in data.ALL_CARDS if Symbol.CLOCK in c.symbols} == {"Hectic Day"}
    assert {c.name for c in data.ALL_CARDS if Symbol.TRAINING in c.symbols} == {"Training Ground"}
    assert {c.name for c in data.ALL_CARDS if Symbol.MASK in c.symbols} == {"Theatre", "Opera Box"}
    party = {c.name for c in data.ALL_CARDS if Symbol.PARTY in c.symbols}
    assert party == {"Soirée", "Ball", "Gentlemen's Club", "Wild Party", "Lost at Cards"}
    for card in data.ALL_CARDS:
        if isinstance(card, HelperCard) and card.expense is None:
            assert card.symbols == (Symbol.HELPER,)  # a helper shows the top hat, not its activity


# --- §11.8: employment -------------------------------------------------------------------------------


def test_employment_totals_and_sets() -> None:
    for job in data.EMPLOYMENT_CARDS:
        assert len(job.lines) == data.SET_LINES[job.set]
        assert sum(line.money for line in job.lines) == data.SET_INCOME[job.set]
        assert len({line.symbol for line in job.lines}) == len(job.lines)  # no symbol twice
        assert not data.NEVER_ON_LINES & {line.symbol for line in job.lines}
    assert data.SET_INCOME == {EmploymentSet.FOUR: 7, EmploymentSet.FIVE: 11}
    assert [len(data.EMPLOYMENT_BY_SET[s]) for s in EmploymentSet] == [10, 10]
    assert [job.job for job in data.EMPLOYMENT_CARDS[:3]] == ["Doctor", "Banker", "Governess"]


def test_employment_lines_per_symbol() -> None:
    counts = Counter(line.symbol for job in data.EMPLOYMENT_CARDS for line in job.lines)
    assert counts == {
        Symbol.DINE: 9,
        Symbol.MASK: 9,
        Symbol.RING: 7,
        Symbol.HELM: 7,
        Symbol.PARTY: 6,
        Symbol.DOG: 6,
        Symbol.CARRIAGE: 6,
        Symbol.HELPER: 6,
        Symbol.HORSE: 5,
        Symbol.CHEF: 5,
        Symbol.MANOR: 5,
        Symbol.WILD: 5,
        Symbol.MANSION: 4,
        Symbol.FARM: 4,
        Symbol.GUEST: 3,
        Symbol.TOWN: 3,
    }


def test_employment_balance() -> None:
    """§11.8: minimum income + 2 x difficulty is 28-29 (4 lines) and 47-49 (5 lines)."""
    wanted = {EmploymentSet.FOUR: range(28, 30), EmploymentSet.FIVE: range(47, 50)}
    for job in data.EMPLOYMENT_CARDS:
        difficulty = sum(data.SYMBOL_DIFFICULTY[line.symbol] for line in job.lines)
        assert minimum_income(job.lines) + 2 * difficulty in wanted[job.set], job.job
    assert minimum_income(data.EMPLOYMENT["E1"].lines) == 7 + 4 + 2 + 1


# --- §11.7, §11.9, §12: Last Will cards and handicap --------------------------------------------------


def test_last_will_cards() -> None:
    money = {card.id: (card.money, card.employment) for card in data.LAST_WILL_CARDS}
    assert [money[f"LW-B{n}"][0] for n in range(1, 8)] == [70, 80, 90, 100, 110, 120, 130]
    assert {money[f"LW-B{n}"][1] for n in range(1, 8)} == {None}
    assert [money[f"LW-4{x}"] for x in "ABCDE"] == [(m, EmploymentSet.FOUR) for m in (50, 55, 60, 65, 70)]
    assert [money[f"LW-5{x}"] for x in "ABCDE"] == [(m, EmploymentSet.FIVE) for m in (60, 65, 70, 80, 90)]
    assert data.FIRST_GAME_LAST_WILL == "LW-B1"
    assert data.HANDICAP_MONEY == {EmploymentSet.FOUR: 15, EmploymentSet.FIVE: 30}


# --- §4: plans ----------------------------------------------------------------------------------------


def test_original_plans() -> None:
    assert [str(p) for p in data.ORIGINAL_PLANS[3]] == ["5/2/1", "2/2/2", "0/2/3", "7/1/2", "1/1/4", "2/2/3"]
    assert len(data.ORIGINAL_PLANS[2]) == 6 and data.ORIGINAL_PLANS[2] == data.ORIGINAL_PLANS[3]
    assert len(data.ORIGINAL_PLANS[4]) == 8 and data.ORIGINAL_PLANS[4] == data.ORIGINAL_PLANS[5]
    assert max(p.boys for plans in data.ORIGINAL_PLANS.values() for p in plans) == 2


def test_plan_tiles_layout() -> None:
    tiles = data.PLAN_TILES
    for position in range(1, data.PLAN_POSITIONS + 1):
        here = [t for t in tiles if t.position == position]
        assert sorted((t.id, t.players) for t in here) == [
            (f"A{position}", (2, 3, 4, 5)),
            (f"B{position}", (3, 4, 5)),
        ]
    three = [(t.id, side) for t in tiles for side in (t.front, t.back) if side.boys == 3]
    assert len(three) == 8 and {tile_id[0] for tile_id, _ in three} == {"B"}
    assert all(1 <= side.boys <= 3 for t in tiles for side in (t.front, t.back))


def test_plan_tiles_strength() -> None:
    """§4.2: sides differ by <= 1; position p has V of 6+p or 7+p; means 10.8 and 10.6."""
    for tile in data.PLAN_TILES:
        front, back = strength(tile.front), strength(tile.back)
        assert abs(front - back) <= 1, tile.id
        assert {front, back} <= {6 + tile.position, 7 + tile.position}, tile.id
    sides = [strength(side) for t in data.PLAN_TILES for side in (t.front, t.back)]
    assert round(mean(sides), 1) == 10.8
    assert round(mean(strength(p) for p in data.ORIGINAL_PLANS[4]), 1) == 10.6


# --- §5, §6: errands and offering -----------------------------------------------------------------------


def test_errand_spaces() -> None:
    capacity = {space.errand: space.capacity for space in data.ERRAND_SPACES}
    assert capacity == {
        data.Errand.OFFERING: 1,
        data.Errand.DRAW: None,
        data.Errand.OPERA: 1,
        data.Errand.MARKET: 1,
        data.Errand.EXTENSION: 1,
        data.Errand.DEMOTION: 1,
        data.Errand.DEMOTION_OR_EXTENSION: 1,
        data.Errand.NEW_SPECIAL: 1,
    }
    assert data.ERRANDS[data.Errand.DRAW].per_player_per_round == 1
    new_board = {s.errand for s in data.ERRAND_SPACES if s.board is data.Board.NEW_SUPPLEMENTAL}
    assert new_board == {data.Errand.DEMOTION, data.Errand.DEMOTION_OR_EXTENSION, data.Errand.NEW_SPECIAL}
    assert new_board == {s.errand for s in data.ERRAND_SPACES if s.expansion}
    assert (data.SHARED_OFFERING_CAPACITY, data.BASE_EXTENSION_SPACES_FIVE_PLAYERS) == (2, 2)


def test_offering_tables_shape() -> None:
    assert [s.label for s in data.OFFERING_2_3] == [str(n) for n in range(1, 9)]
    assert [s.label for s in data.OFFERING_4_5] == [str(n) for n in range(1, 10)]
    for slot in (*data.OFFERING_2_3, *data.OFFERING_4_5, data.NEW_SPECIAL_SLOT):
        assert len(slot.decks) == data.ROUNDS == 7
        assert Deck.COMPANION not in slot.decks  # wild cards stand in
    assert data.NEW_SPECIAL_SLOT.decks == (Deck.NEW_SPECIAL,) * 7
    assert [s.label for s in data.offering_slots(2, expansion=True)] == [*"1234567", "X"]
    assert [s.label for s in data.offering_slots(3, expansion=False)] == list("12345678")
    assert [s.label for s in data.offering_slots(4, expansion=True)] == [*"12345678", "X"]
    assert [s.label for s in data.offering_slots(5, expansion=True)] == [*"123456789", "X"]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_offering_uses_exactly_the_special_decks(players: int) -> None:
    """§6: both special decks hold exactly enough for 7 rounds; at most 2 wild cards a round."""
    slots = data.offering_slots(players, expansion=True)
    dealt = Counter(deck for slot in slots for deck in slot.decks)
    assert dealt[Deck.SPECIAL] == len(data.DECK_CARDS[Deck.SPECIAL]) == 17
    assert dealt[Deck.NEW_SPECIAL] == len(data.DECK_CARDS[Deck.NEW_SPECIAL]) == 7
    for round_index in range(data.ROUNDS):
        wild = sum(slot.decks[round_index] is Deck.WILD for slot in slots)
        assert wild <= data.WILD_CARDS


# --- §1: options ------------------------------------------------------------------------------------


def test_options() -> None:
    specs = {option.name: option.spec() for option in data.OPTIONS}
    assert {name: spec.default for name, spec in specs.items()} == {
        "expansion": True,
        "employment": "full",
        "plans": "tiles",
        "last_will": "random",
        "end_property_penalty": 0,
    }
    assert specs["expansion"].parse("off") is False
    assert specs["employment"].choices == ("full", "none", "handicap")
    assert specs["last_will"].parse("LW-4A") == "lw-4a"
    assert tokens.parse_last_will(str(specs["last_will"].parse("LW-4A"))) == "LW-4A"
    with pytest.raises(InvalidOptions):
        specs["last_will"].parse("LW-9Z")
    assert data.OPTIONS_BY_NAME["expansion"].mark is Mark.CHOSEN


def test_components() -> None:
    assert (data.BOARD_SPACES, data.EXTENSIONS, data.ROUNDS, data.HAND_LIMIT) == (5, 12, 7, 2)
    assert sorted(data.MARKET_TOKENS) == [-3, -2, 1, 3]
    assert len(data.MARKET_TOKENS) == len(data.PROPERTY_TYPES) == 4
    assert (data.ERRAND_BOYS, data.BASE_ERRAND_BOYS) == (3, 2)
    assert data.END_PROPERTY_PENALTY_DEFAULT == 0


def test_chosen_rulings_are_catalog_keys() -> None:
    assert len(data.CHOSEN_RULINGS) == len(set(data.CHOSEN_RULINGS)) >= 50
    for key in data.CHOSEN_RULINGS:
        assert re.fullmatch(r"[a-z][a-z0-9_]*", key), key


def test_every_chosen_ruling_has_one_catalog_sentence_and_vice_versa() -> None:
    """``[lastwill.chosen]`` in the English catalog holds exactly the keys of ``CHOSEN_RULINGS``, in
    their order, each a whole sentence: ``/game rules lastwill`` shows them in this order, and a
    translation words the same list."""
    catalog = tomllib.loads(CATALOG.read_text(encoding="utf-8"))
    chosen = catalog["lastwill"]["chosen"]
    assert list(chosen) == list(data.CHOSEN_RULINGS)
    for key, sentence in chosen.items():
        assert isinstance(sentence, str) and sentence[0].isalpha() and sentence.endswith("."), key
        assert "{" not in sentence, key


def test_every_record_is_marked() -> None:
    marks = [
        *(r.mark for r in data.ALL_CARDS),
        *(r.mark for r in data.EMPLOYMENT_CARDS),
        *(r.mark for r in data.LAST_WILL_CARDS),
        *(r.mark for r in data.PLAN_TILES),
        *(r.mark for r in data.ERRAND_SPACES),
        *(r.mark for r in (*data.OFFERING_2_3, *data.OFFERING_4_5, data.NEW_SPECIAL_SLOT)),
        *(r.mark for r in data.OPTIONS),
    ]
    assert {type(mark) for mark in marks} == {Mark}
    assert set(marks) == set(Mark)


# --- tokens ------------------------------------------------------------------------------------------


def test_card_tokens_round_trip() -> None:
    for card in data.ALL_CARDS:
        token = tokens.card_token(card.id)
        assert tokens.parse_card(token) == card.id
        assert tokens.parse_card(token.lower()) == card.id
        assert tokens.card(token.lower()) is card
    assert tokens.parse_card(" boat_a ") == "BOAT-A"
    assert tokens.parse_card("s2–ball") == "S2-BALL"  # an en dash, as phones type
    assert tokens.card_name("wd2") == "Wedding (special)"


def test_other_tokens_round_trip() -> None:
    for job in data.EMPLOYMENT_CARDS:
        assert tokens.employment_token(job.number) == job.id
        for text in (job.id.lower(), str(job.number), job.job.lower()):
            assert tokens.parse_employment(text) == job.id
        assert tokens.employment(job.id) is job
    for will in data.LAST_WILL_CARDS:
        assert tokens.parse_last_will(will.id.lower()) == will.id
        assert tokens.last_will(will.id) is will
    assert tokens.parse_last_will("lw 5e") == "LW-5E"
    for tile in data.PLAN_TILES:
        assert tokens.parse_plan_tile(tile.id.lower()) == tile.id
        assert tokens.plan_tile(tile.id) is tile


@pytest.mark.parametrize(
    ("lookup", "text", "error", "message"),
    [
        (
            tokens.parse_card,
            "DIN11",
            tokens.UnknownCard,
            'No card has the id "DIN11"; card ids look like DIN1, F3, BOAT-A or S2-BALL.',
        ),
        (
            tokens.card_token,
            "din1",
            tokens.UnknownCard,
            'No card has the id "din1"; card ids look like DIN1, F3, BOAT-A or S2-BALL.',
        ),
        (
            tokens.parse_employment,
            "21",
            tokens.UnknownEmployment,
            'No employment card is "21"; name one by its number (1 to 20), its id (E1 to E20) or its job.',
        ),
        (
            tokens.parse_last_will,
            "LW-B8",
            tokens.UnknownLastWill,
            'No Last Will card has the id "LW-B8"; the ids are LW-B1 to LW-B7 and LW-4A to LW-5E.',
        ),
        (
            tokens.parse_plan_tile,
            "C1",
            tokens.UnknownPlanTile,
            'No plan tile has the id "C1"; the ids are A1 to A8 and B1 to B8.',
        ),
    ],
)
def test_unknown_ids_explain(lookup: object, text: str, error: type[tokens.UnknownId], message: str) -> None:
    assert callable(lookup)
    with pytest.raises(error) as info:
        lookup(text)
    assert isinstance(info.value, ValueError)
    assert str(info.value) == message and info.value.text == text
    with pytest.raises(tokens.UnknownEmployment):
        tokens.employment_token(0)
