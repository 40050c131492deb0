"""Last Will's Actions phase (§3.5, §7, §11): white cards, companions, helpers, properties, specials.

Every test arranges its position with the builders of ``test_lastwill`` by card id, plays the
moves through ``RULES.apply`` and checks the rule's effect and the invariants.
"""

from __future__ import annotations

from rules.core import Action
from rules.lastwill import RULES, buy_price, data
from rules.lastwill.builder import LastWillBuilder
from rules.lastwill.state import LastWillState
from tests.helpers import kinds
from tests.rules.test_lastwill import (
    act,
    actions_turn,
    build,
    hand,
    job,
    legal,
    money,
    only,
    pending_kind,
    plans,
    put,
    refused,
)


def table(players: int = 3, actions: int = 3, seed: int = 1, **options: object) -> LastWillState:
    """Round 1 past its setup, seat 0 on turn with empty hands and boards, nobody employed, £50 each."""
    builder = LastWillBuilder(players, seed=seed, last_will="lw-4a", **options).past_setup().unemployed()
    for seat in range(players):
        builder.hand(seat).money(seat, 50)
    actions_turn(builder.state, 0, actions)
    return builder.build()


# --- events and companions -----------------------------------------------------------------------


def test_an_event_costs_its_actions_and_spends_its_money() -> None:
    state = table(actions=2)
    hand(state, 0, "DIN1", "BOAT-D")
    events = act(state, 0, "event.DIN1")
    assert only(events, "card_played").params["money"] == 2
    assert state.players[0].money == 48 and state.actions_left == 1
    assert state.piles["event"][-1] == "DIN1"
    assert "event.BOAT-D" not in legal(state, 0)  # a Boat Trip takes 2 actions
    refused(state, 0, "event.BOAT-D", "no_actions", actions=2)


def test_companion_cards_fill_icons_and_the_wild_card_stands_in() -> None:
    state = table()
    hand(state, 0, "DIN10", "GST1", "GST2", "W1", "HOR1")
    act(state, 0, "event.DIN10")  # Guest+2, Guest+2
    assert pending_kind(state) == "with"
    options = legal(state, 0)
    assert {"with.GST1", "with.GST2", "with.W1.guest", "go"} <= options
    assert "with.HOR1" not in options and "with.W1.horse" not in options
    act(state, 0, "with.GST1")
    assert state.pending is not None and state.pending.money == 4
    events = act(state, 0, "with.W1.guest")  # the last icon: the play is paid at once
    played = only(events, "card_played").params
    assert played["money"] == 6 and played["companions"] == ["GST1", "W1"]
    assert state.pending is None and state.players[0].money == 44
    assert "GST1" in state.piles["companion"] and "W1" in state.decks["wild"]
    assert state.players[0].hand == ["GST2", "HOR1"]


def test_go_plays_an_event_without_its_companions() -> None:
    state = table()
    hand(state, 0, "THE1", "HOR1")
    act(state, 0, "event.THE1")
    events = act(state, 0, "go")
    assert only(events, "card_played").params["money"] == 2
    assert state.players[0].hand == ["HOR1"]


def test_the_companion_step_opens_whatever_the_hand() -> None:
    """A card with an open icon always asks, even with no fitting companion in hand (only "go"
    then): a step that opened only for a fitting card would tell the table what the hand holds."""
    state = table()
    hand(state, 0, "THE1", "DOG1")
    events = act(state, 0, "event.THE1")
    assert kinds(events) == ["playing"] and state.pending is not None
    assert RULES.legal_actions(state, 0) == [Action("go")]
    assert "card_played" in kinds(act(state, 0, "go")) and state.pending is None


# --- nuptial sets (rulebook example) ---------------------------------------------------------


def test_nuptial_set_example_two_rings_and_a_gift() -> None:
    """2 Engagement Rings + 1 Wedding Gift: a Ring and the Gift as one action, the other Ring later."""
    state = table(actions=2)
    hand(state, 0, "ER1", "ER2", "WG1")
    options = legal(state, 0)
    assert {"nupt.ER1.WG1", "nupt.ER2.WG1"} <= options
    assert "nupt.ER1.ER2" not in options and "nupt.ER1.ER2.WG1" not in options
    refused(state, 0, "nupt.ER1.ER2.WG1", "set_names")
    events = act(state, 0, "nupt.WG1.ER1")
    assert only(events, "card_played").params["money"] == 4 + 3
    assert state.actions_left == 1
    act(state, 0, "event.ER2")  # Guest+2, but no guest in hand: the step still asks
    act(state, 0, "go")
    assert state.actions_left == 0 and state.players[0].money == 50 - 7 - 2


def test_a_set_may_mix_event_and_special_nuptial_cards_but_not_equal_names() -> None:
    state = table()
    hand(state, 0, "WD1", "WD2", "ER1", "BP1", "BP2", "WG2")
    options = legal(state, 0)
    assert "nupt.ER1.WD2" in options and "nupt.BP1.ER1.WD2.WG2" in options
    assert "nupt.WD1.WD2" not in options and "nupt.BP1.BP2" not in options
    refused(state, 0, "nupt.WD1", "set_size", low=2, high=4)
    refused(state, 0, "nupt.ER1.DIN1", "set_size", low=2, high=4)
    refused(state, 0, "nupt.ER1.ER1", "set_repeats")


def test_wedding_planner_asks_how_many_pounds_per_nuptial_card() -> None:
    state = table()
    put(state, 0, "WPL1")
    hand(state, 0, "ER1", "WG1", "ER2")
    act(state, 0, "nupt.ER1.WG1")
    assert pending_kind(state) == "extra"
    assert {"extra.0", "extra.1", "extra.2"} == legal(state, 0)
    events = act(state, 0, "extra.2")
    assert only(events, "planner_extra").params["amount"] == 2
    assert state.players[0].money == 50 - 7 - 2
    act(state, 0, "event.ER2")
    act(state, 0, "go")  # its Guest icon asks even with no guest in hand
    act(state, 0, "extra.0")  # none is a legal answer
    assert state.players[0].money == 50 - 9 - 2


def test_wd2_takes_waiter_coachman_sea_dog_and_planner_bonuses() -> None:
    state = table()
    for helper in ("WAI1", "COA2", "SEA1", "WPL1"):
        put(state, 0, helper)
    hand(state, 0, "WD2", "GST1")
    act(state, 0, "special.WD2")
    act(state, 0, "with.GST1")  # Guest+3; no horse for the Horse+2 icon
    assert pending_kind(state) == "with", "an icon is still open: the step waits for go"
    act(state, 0, "go")
    assert pending_kind(state) == "extra"
    spent = 50 - state.players[0].money
    assert spent == 5 + 3 + 1 + 2 + 2  # money, guest, Waiter (dine), Coachman (carriage), Sea Dog (helm)
    act(state, 0, "extra.1")
    assert state.players[0].money == 50 - 14


def test_helper_bonuses_stack_and_shrink_to_what_cash_allows() -> None:
    state = table()
    put(state, 0, "WAI1")
    put(state, 0, "WAI2")
    hand(state, 0, "DIN1", "DIN2")
    events = act(state, 0, "event.DIN1")
    assert only(events, "card_played").params == {
        "cards": ["DIN1"],
        "money": 4,
        "bonus": 2,
        "companions": [],
    }
    job(state, 0, "E1")  # employed: no spending below £0
    money(state, 0, 3)
    events = act(state, 0, "event.DIN2")
    assert only(events, "card_played").params["bonus"] == 1
    assert state.players[0].money == 0


def test_ball_levels_and_the_valet() -> None:
    state = table(actions=3)
    put(state, 0, "VAL1")
    actions_turn(state, 0, 3)
    assert state.valet_left == 1
    put(state, 0, "SEA1")
    hand(state, 0, "BALL1", "WAI1")
    options = legal(state, 0)
    assert {"ball.BALL1.1", "ball.BALL1.2", "ball.BALL1.3"} <= options and "ball.BALL1.4" not in options
    events = act(state, 0, "ball.BALL1.3")  # 4 actions: 3 plain and the Valet's
    assert only(events, "card_played").params["money"] == 10 + 2  # Sea Dog: party
    assert state.actions_left == 0 and state.valet_left == 0
    refused(state, 0, "ball.BALL1.9", "ball_levels", levels=4)
    refused(state, 0, "ball.DIN1.1", "not_a_ball")
    refused(state, 0, "ball.BALL1", "name_ball_level")


def test_the_valet_pays_only_for_white_cards() -> None:
    state = table(actions=0)
    put(state, 0, "VAL1")
    actions_turn(state, 0, 0)
    hand(state, 0, "DIN1", "WAI1", "F3")
    options = legal(state, 0)
    assert "event.DIN1" in options and "lay.WAI1" not in options and "buy.F3" not in options
    refused(state, 0, "lay.WAI1", "no_actions", actions=1)
    act(state, 0, "event.DIN1")
    assert state.valet_left == 0


def test_old_friend_grants_its_action_at_turn_start_and_when_laid() -> None:
    state = table(actions=1)
    put(state, 0, "S1-OF1")
    plans(state, 2, 1, 1).actions(2)  # seat 0 plays second: its turn starts when seat 2 is done
    events = act(state, 2, "done")
    assert only(events, "turn_started").params["actions"] == 2
    hand(state, 0, "S1-OF2")
    act(state, 0, "lay.S1-OF2")
    assert state.actions_left == 2  # paid 1, granted 1 at once
    act(state, 0, "drop.S1-OF2")
    assert state.actions_left == 2 and "S1-OF2" in state.gone  # a special leaves the game


def test_hectic_days_add_actions() -> None:
    state = table(actions=1)
    hand(state, 0, "S2-HD", "S3-HD1")
    act(state, 0, "special.S2-HD")
    assert state.actions_left == 3
    act(state, 0, "special.S3-HD1")  # 1 action and £2: +2 actions
    assert state.actions_left == 4 and state.players[0].money == 48
    assert {"S2-HD", "S3-HD1"} <= set(state.gone)


# --- demotions from cards (§9) ---------------------------------------------------------------


def test_a_white_card_offers_its_matching_line_and_the_demotion_is_optional() -> None:
    state = table()
    job(state, 0, "E1")  # Doctor: horse 3, dine 2, mask 1, guest 1
    hand(state, 0, "DIN1", "DIN2", "THE3")
    act(state, 0, "event.DIN1")
    assert pending_kind(state) == "line" and legal(state, 0) == {"line.1", "noline"}
    act(state, 0, "noline")
    assert not state.players[0].demoted
    act(state, 0, "event.THE3")
    events = act(state, 0, "line.2")
    assert only(events, "demoted").params == {"line": 2, "symbol": "mask", "amount": 1, "source": "THE3"}
    act(state, 0, "event.DIN2")  # one demotion a round: nothing offered now
    assert state.pending is None


def test_companions_played_with_a_white_card_match_their_lines_and_only_the_wild_matches_wild() -> None:
    state = table()
    job(state, 0, "E16", covered=[])  # Army Officer: horse 4, dog 3, party 2, mansion 1, wild 1
    hand(state, 0, "DIN6", "DOG1", "DIN7", "W1")
    act(state, 0, "event.DIN6")
    act(state, 0, "with.DOG1")
    assert legal(state, 0) == {"line.1", "noline"}  # a dog card: the dog line, never the wild one
    act(state, 0, "noline")
    act(state, 0, "event.DIN7")
    act(state, 0, "with.W1.dog")
    assert legal(state, 0) == {"line.1", "line.4", "noline"}  # played as a dog: dog or wild
    act(state, 0, "line.4")
    assert state.players[0].covered == [False, False, False, False, True]


def test_black_cards_demote_only_when_first_laid() -> None:
    state = table()
    job(state, 0, "E1")  # dine 2 is line 1
    put(state, 0, "RES1")
    hand(state, 0, "RES2")
    act(state, 0, "use.RES1")
    assert state.pending is None and not state.players[0].demoted  # using a laid card: never
    act(state, 0, "lay.RES2")
    assert legal(state, 0) == {"line.1", "noline"}
    act(state, 0, "line.1")
    assert state.players[0].covered == [False, True, False, False]


def test_helpers_show_the_helper_symbol_not_their_activity() -> None:
    state = table()
    job(state, 0, "E4")  # Clerk: mask 4, ring 1, helper 1, chef 1
    hand(state, 0, "COA1", "TAI1")
    act(state, 0, "lay.TAI1")  # a Tailor shows the top hat, not the mask
    assert legal(state, 0) == {"line.2", "noline"}


def test_property_colour_matters() -> None:
    state = table()
    job(state, 0, "E2")  # Banker: mansion 3, dine 2, party 1, dog 1
    hand(state, 0, "M4", "X1")
    act(state, 0, "buy.M4")  # a Manor House does not match the mansion line
    assert state.pending is None
    act(state, 0, "buy.X1")
    assert legal(state, 0) == {"line.0", "noline"}


def test_breeders_fair_never_demotes_and_places_free_tokens() -> None:
    state = table()
    job(state, 0, "E16")  # horse and dog lines
    put(state, 0, "F2")  # Dog->4, Horse->7
    put(state, 0, "N5")  # Horse-or-Dog->4, Horse-or-Dog->7
    hand(state, 0, "S1-BF")
    act(state, 0, "special.S1-BF")
    assert pending_kind(state) == "fair"
    assert legal(state, 0) == {"fair.F2.dog", "fair.N5.dog", "fair.N5.horse", "go"}
    act(state, 0, "fair.F2.dog")
    assert "fair.F2.horse" in legal(state, 0)
    act(state, 0, "fair.F2.horse")  # the second token ends it
    assert state.pending is None and not state.players[0].demoted
    assert state.players[0].board[0].tokens == ["dog", "horse"]
    assert state.players[0].money == 50  # no cards, no money


def test_bachelor_party_discards_helm_or_dine_cards_without_bonus_or_demotion() -> None:
    state = table()
    job(state, 0, "E5")  # Curate: ring 3, dine 2, helm 1, dog 1
    put(state, 0, "SEA1")
    hand(state, 0, "BP2", "DIN1", "RES1", "BOAT-A", "F1")
    act(state, 0, "special.BP2")
    assert pending_kind(state) == "bpx"
    assert legal(state, 0) == {"bpx.DIN1", "bpx.RES1", "bpx.BOAT-A", "go"}
    refused(state, 0, "bpx.F1", "bpx_cards")
    events = act(state, 0, "bpx.DIN1.BOAT-A")
    assert only(events, "bp_discarded").params["amount"] == 2  # no Sea Dog bonus for them
    act(state, 0, "go")
    assert legal(state, 0) == {"line.0", "noline"}  # only the card's ring, never the discards
    assert state.players[0].money == 50 - 2 - 2
    assert {"DIN1", "BOAT-A"} <= set(state.piles["event"])


def test_bachelor_party_discards_are_bounded_by_cash() -> None:
    state = table()
    job(state, 0, "E5")
    money(state, 0, 3)
    hand(state, 0, "BP2", "DIN1", "DIN2")
    act(state, 0, "special.BP2")
    refused(state, 0, "bpx.DIN1.DIN2", "spend_only", money=1)
    act(state, 0, "bpx.DIN1")
    assert pending_kind(state) == "line" and state.players[0].money == 0


# --- the board: lay, buy, maintain, use, token, sell, drop, switch ---------------------------


def test_buying_pays_the_first_value_with_the_market_token_and_estate_agents() -> None:
    state = table()
    put(state, 0, "EA1")  # non-farm buy +£2
    hand(state, 0, "T2", "F5")
    events = act(state, 0, "buy.T2")
    price = max(0, 17 + state.market["town"] + 2)
    assert only(events, "bought").params["price"] == price
    act(state, 0, "buy.F5")  # a farm: no Estate Agent
    assert state.players[0].money == 50 - price - max(0, 25 + state.market["farm"])


def test_a_dual_property_is_bought_as_one_type_and_switched_for_free() -> None:
    state = table()
    job(state, 0, "E2")  # mansion line
    hand(state, 0, "N2")
    assert {"buy.N2.manor", "buy.N2.mansion"} <= legal(state, 0)
    refused(state, 0, "buy.N2", "name_type")
    refused(state, 0, "buy.N2.farm", "bought_as_either", type="manor", other_type="mansion")
    act(state, 0, "buy.N2.manor")
    assert state.pending is None  # bought as a manor: no mansion demotion
    assert state.players[0].money == 50 - max(0, 21 + state.market["manor"])
    left = state.actions_left
    act(state, 0, "as.N2.mansion")
    assert state.players[0].board[0].kind == "mansion" and state.actions_left == left
    refused(state, 0, "as.N2.mansion", "switch_other")
    refused(state, 0, "as.T1.town", "no_dual")


def test_a_dual_property_bought_as_the_matching_type_demotes() -> None:
    state = table()
    job(state, 0, "E2")
    hand(state, 0, "N2")
    act(state, 0, "buy.N2.mansion")
    assert legal(state, 0) == {"line.0", "noline"}


def test_gardener_counts_a_dual_property_once_as_its_current_type() -> None:
    state = table()
    put(state, 0, "GAR1")  # Town + Manor
    put(state, 0, "GAR2")  # Mansion + Manor
    put(state, 0, "N1", "town")
    events = act(state, 0, "keep.N1")
    assert only(events, "maintained").params == {"card": "N1", "money": 3 + 3, "bonus": 3}
    refused(state, 0, "keep.N1", "maintained_already")


def test_n6_comes_with_a_free_horse_that_never_demotes() -> None:
    state = table()
    job(state, 0, "E8")  # Apothecary: chef 3, helm 2, mask 1, farm 1 (no horse line)
    job(state, 1, "E1")
    hand(state, 0, "N6")
    events = act(state, 0, "buy.N6")
    assert only(events, "bought").params["free_tokens"] == ["horse"]
    assert state.players[0].board[0].tokens == ["horse"]
    assert legal(state, 0) == {"line.3", "noline"}  # the farm line, from the purchase


def test_tokens_go_on_the_next_matching_slot_and_raise_upkeep() -> None:
    state = table()
    job(state, 0, "E4")  # chef line 3
    put(state, 0, "T4")  # Chef->5, Guest->8
    hand(state, 0, "GST1", "CHF1")
    assert "token.T4.GST1" not in legal(state, 0)
    refused(state, 0, "token.T4.GST1", "slot_takes", companion="chef")
    act(state, 0, "token.T4.CHF1")
    assert legal(state, 0) == {"line.3", "noline"}
    act(state, 0, "line.3")
    act(state, 0, "token.T4.GST1")
    events = act(state, 0, "keep.T4")
    assert only(events, "maintained").params["money"] == 8
    refused(state, 0, "token.T4.GST1", "no_companion_in_hand")


def test_wild_card_token_names_its_companion() -> None:
    state = table()
    job(state, 0, "E16")  # dog line 1, wild line 4
    put(state, 0, "F2")  # Dog->4
    hand(state, 0, "W2")
    assert legal(state, 0) >= {"token.F2.W2.dog"} and "token.F2.W2.horse" not in legal(state, 0)
    refused(state, 0, "token.F2.W2", "name_companion")
    act(state, 0, "token.F2.W2.dog")
    assert legal(state, 0) == {"line.1", "line.4", "noline"}
    assert "W2" in state.decks["wild"]


def test_expenses_once_a_round_with_slots_formulas_and_bonuses() -> None:
    state = table()
    put(state, 0, "RES5", tokens=["chef"])  # £1, Chef->2, Chef->4
    put(state, 0, "WAI1")
    put(state, 0, "TRG1")  # £1 per farm, +£1 per horse on farms
    put(state, 0, "F1", tokens=["horse"])
    events = act(state, 0, "use.RES5")
    assert only(events, "expense_used").params == {"card": "RES5", "money": 3, "bonus": 1}
    refused(state, 0, "use.RES5", "used_already")
    act(state, 0, "use.TRG1")
    assert state.players[0].money == 50 - 3 - 2
    refused(state, 0, "use.WAI1", "no_expense")


def test_selling_receives_value_with_market_and_estate_agents_never_below_zero() -> None:
    state = table()
    put(state, 0, "EA3")  # farm sale -£2, 1 free farm buy-or-sell action
    put(state, 0, "S3-EA")  # non-farm sale -£4
    put(state, 0, "F3")
    put(state, 0, "X1", step=5)  # worth £3
    build(state).market("farm", 3).market("town", -2).market("manor", 1)
    assert state.market["mansion"] == -3
    actions_turn(state, 0, 1)
    events = act(state, 0, "sell.F3")  # the free action
    assert only(events, "sold").params["price"] == 8 + 3 - 2
    assert state.actions_left == 1
    events = act(state, 0, "sell.X1")
    assert only(events, "sold").params["price"] == 0  # 3 - 3 - 4, floored
    assert state.actions_left == 0
    assert {"F3", "X1"} <= set(state.piles["property"])


def test_stewards_give_free_maintain_actions_of_their_kind() -> None:
    state = table(actions=0)
    put(state, 0, "STW2")  # 1 free farm maintain
    put(state, 0, "F8")
    put(state, 0, "T1")
    actions_turn(state, 0, 0)
    assert state.free == {"maintain:farm": 1}
    assert "keep.F8" in legal(state, 0) and "keep.T1" not in legal(state, 0)
    act(state, 0, "keep.F8")
    refused(state, 0, "keep.T1", "no_actions", actions=1)


def test_drop_returns_a_helper_to_its_pile_for_no_action() -> None:
    state = table(actions=1)
    put(state, 0, "CRG1", tokens=["guest"])
    act(state, 0, "drop.CRG1")
    assert state.players[0].board == [] and state.actions_left == 1
    assert state.piles["helper"][-1] == "CRG1"
    put(state, 0, "F1")
    refused(state, 0, "drop.F1", "no_board_helper")


def test_board_space_limits_and_extensions() -> None:
    state = table()
    for card in ("WAI1", "WAI2", "WAI3", "COA1", "TAI1"):
        put(state, 0, card)
    hand(state, 0, "SEA1", "F1")
    refused(state, 0, "lay.SEA1", "no_space")
    refused(state, 0, "buy.F1", "no_space")
    build(state).extensions(0, 1)
    act(state, 0, "lay.SEA1")


# --- specials with targets -------------------------------------------------------------------


def test_wild_party_drops_one_of_your_non_farm_properties_three_steps() -> None:
    state = table()
    put(state, 0, "T2")  # 17-15-13-11-8-5
    put(state, 0, "F1")
    hand(state, 0, "S2-WPT", "S2-BALL")
    act(state, 0, "special.S2-WPT")
    assert legal(state, 0) == {"target.T2"}
    events = act(state, 0, "target.T2")
    assert only(events, "value_dropped").params == {"card": "T2", "from": 0, "to": 3}


def test_lost_at_cards_may_sell_without_an_action_ignoring_the_market() -> None:
    state = table(actions=1)
    put(state, 0, "EA1")  # non-farm sale -£2
    put(state, 0, "T1", step=1)  # £13
    build(state).market("town", 3)
    hand(state, 0, "S1-LAC")
    act(state, 0, "special.S1-LAC")
    assert legal(state, 0) == {"target.T1", "go"}
    events = act(state, 0, "target.T1")
    assert only(events, "sold").params == {"card": "T1", "price": 13 - 2, "free": True}
    assert state.actions_left == 0


def test_personal_secretary_draws_six_keeps_one_once_a_round() -> None:
    state = table(actions=0)
    put(state, 0, "S1-PS")
    events = act(state, 0, "sec.event")
    drawn = next(e for e in events if e.kind == "secretary_drew" and e.visible_to == frozenset({0}))
    cards = drawn.params["cards"]
    assert len(cards) == 6 and pending_kind(state) == "pick"
    view = RULES.view(state, None)
    assert view["pending"]["cards"] == [] and view["pending"]["kind"] == "pick"
    assert RULES.view(state, 0)["you"]["pending"]["cards"] == cards
    events = act(state, 0, f"pick.{cards[2]}")
    assert state.players[0].hand == [cards[2]]
    assert only(events, "secretary_discarded").params["cards"] == cards[:2] + cards[3:]
    refused(state, 0, "sec.event", "no_secretary")


# --- money: limits, debt and bankruptcy (§10) ------------------------------------------------


def test_property_or_a_job_forbids_spending_below_zero() -> None:
    state = table()
    job(state, 0, "E1")
    money(state, 0, 1)
    hand(state, 0, "DIN1", "F3")
    assert "event.DIN1" not in legal(state, 0)
    refused(state, 0, "event.DIN1", "too_dear", amount=2, money=1, floor=0)
    job(state, 0, "")
    act(state, 0, "event.DIN1")  # no job, no property: into debt
    assert state.players[0].money == -1
    price = buy_price(state, 0, "F3", "farm")
    refused(state, 0, "buy.F3", "too_dear", amount=price, money=-1, floor=0)  # a purchase needs cash


def test_bankruptcy_needs_no_job_no_property_and_no_money() -> None:
    state = table()
    job(state, 0, "E1")
    money(state, 0, 0)
    refused(state, 0, "bankrupt", "bankrupt_employed")
    job(state, 0, "")
    put(state, 0, "F1")
    refused(state, 0, "bankrupt", "bankrupt_property")
    act(state, 0, "sell.F1")
    refused(state, 0, "bankrupt", "bankrupt_money", money=0)
    money(state, 0, 0)
    assert "bankrupt" in legal(state, 0)
    events = act(state, 0, "bankrupt")
    assert only(events, "bankrupt_declared").params["round"] == 1
    assert state.last_round and state.players[0].bankrupt
    refused(state, 0, "bankrupt", "bankrupt_already")


def test_done_ends_the_turn_and_loses_unused_actions() -> None:
    state = table(actions=3)
    events = act(state, 0, "done")
    assert only(events, "turn_ended").params["unused"] == 3
    assert only(events, "turn_started").seat == state.order[1]
    refused(state, 0, "done", "not_your_turn")


def test_play_refusals() -> None:
    state = table()
    hand(state, 0, "DIN1", "S3-DIN", "F1")
    refused(state, 0, "special.DIN1", "wrong_play_kind")
    refused(state, 0, "event.S3-DIN", "wrong_play_kind")
    refused(state, 0, "event.F1", "not_playable")
    refused(state, 0, "event.DIN2", "not_in_hand")
    refused(state, 0, "lay.DIN1", "no_helper_in_hand")
    refused(state, 0, "buy.DIN1", "no_property_in_hand")
    refused(state, 0, "keep.F1", "no_property_owned")
    refused(state, 0, "sell.F1", "no_property_owned")
    refused(state, 0, "use.F1", "no_expense")
    refused(state, 0, "token.F1.DIN1", "no_companion_in_hand")
    refused(state, 0, "sec.event", "no_secretary")
    put(state, 0, "S1-PS")
    refused(state, 0, "sec.special", "secretary_deck")
    refused(state, 1, "event.DIN1", "not_your_turn")


def test_token_refusals() -> None:
    state = table()
    put(state, 0, "F3")  # Dog->3
    put(state, 0, "T1")  # no slots
    hand(state, 0, "DOG1", "HOR1")
    refused(state, 0, "token.F3.DOG1.horse", "own_companion")
    refused(state, 0, "token.T1.DOG1", "no_slot")
    act(state, 0, "token.F3.DOG1")
    refused(state, 0, "token.F3.HOR1", "no_slot")
    build(state).actions_left(0)
    put(state, 0, "F1")
    refused(state, 0, "token.F1.HOR1", "no_actions", actions=1)
    build(state).actions_left(0)
    refused(state, 0, "sell.F1", "no_actions", actions=1)
    refused(state, 0, "keep.F1", "no_actions", actions=1)


def test_expense_and_maintenance_cash_refusals() -> None:
    state = table()
    job(state, 0, "E1")
    put(state, 0, "GC1")  # 1 action, £5
    put(state, 0, "F1")  # upkeep 3
    money(state, 0, 2)
    refused(state, 0, "use.GC1", "too_dear", amount=5, money=2, floor=0)
    refused(state, 0, "keep.F1", "too_dear", amount=3, money=2, floor=0)
    build(state).actions_left(0)
    money(state, 0, 20)
    refused(state, 0, "use.GC1", "no_actions", actions=1)


def test_unknown_kinds_are_not_moves() -> None:
    state = table()
    for text in ("fly", "event", "event.DIN1.DIN2", "plan.x", "discard", "boy.1"):
        refused(state, 0, text, "malformed")
    refused(state, 7, "done", "no_seat")
    refused(state, 0, "go", "no_choice")
    assert data.CARDS  # the catalogue is loaded


def test_declining_a_step_is_told_publicly() -> None:
    """Bachelor Party's discards declined with no card moving: the table showed the question, so
    closing it must be a public event (else the board is not redrawn and still asks)."""
    state = table()
    hand(state, 0, "BP2", "THE1")
    act(state, 0, "special.BP2")
    assert state.pending is not None and RULES.legal_actions(state, 0) == [Action("go")]
    events = act(state, 0, "go")
    declined = [e for e in events if e.kind == "step_declined"]
    assert declined and declined[0].visible_to is None and declined[0].params["step"] == "bpx"
    assert state.pending is None
