"""Last Will's end of a round (§3.6) and end of the game (§10): depreciation, returns, the hand
limit, final income, valuation and who wins."""

from __future__ import annotations

from rules.core import Event
from rules.lastwill import RULES, data
from rules.lastwill.builder import LastWillBuilder
from rules.lastwill.state import DISCARD, OVER, PLANNING, LastWillState
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
    put,
    refused,
)


def table(players: int = 3, **options: object) -> LastWillState:
    """Round 1 past its setup, seat 0 on turn with empty hands and boards, nobody employed, £40 each."""
    builder = LastWillBuilder(players, seed=1, last_will="lw-4a", **options).past_setup().unemployed()
    for seat in range(players):
        builder.hand(seat).money(seat, 40)
    actions_turn(builder.state, 0, 2)
    return builder.build()


def finish_round(state: LastWillState) -> list[Event]:
    """Every remaining turn of the Actions phase ends at once."""
    events: list[Event] = []
    round_ = state.round
    while state.phase == "actions" and state.round == round_:
        events += act(state, state.order[state.cursor], "done")
    return events


# --- end of round --------------------------------------------------------------------------------


def test_depreciation_at_the_end_of_the_round() -> None:
    state = table()
    t2 = put(state, 0, "T2")  # bought this round, not maintained: still depreciates (chosen)
    t1 = put(state, 0, "T1", done=True)  # maintained
    f1 = put(state, 0, "F1")  # a farm never depreciates
    n3 = put(state, 1, "N3", tokens=["guest"])  # a token on its ◆ slot: 2 steps
    x1 = put(state, 1, "X1", step=5)  # already on its last step
    m4 = put(state, 2, "M4", step=2)  # 10-8-7-5: one step left
    n4 = put(state, 2, "N4", step=4, tokens=["chef"])  # ◆, one step left: stops on the last
    events = finish_round(state)
    moved = {e.params["card"]: (e.params["from"], e.params["to"]) for e in events if e.kind == "depreciated"}
    assert moved == {"T2": (0, 1), "N3": (0, 2), "M4": (2, 3), "N4": (4, 5)}
    assert (t2.step, t1.step, f1.step, n3.step, x1.step, m4.step, n4.step) == (1, 0, 0, 2, 5, 3, 5)
    assert not t1.done  # "maintained" resets for the next round


def test_wild_cards_return_and_the_offering_is_cleared() -> None:
    state = table()
    hand(state, 1, "W1", "DIN1")
    offered = {slot.label: slot.card for slot in state.offering}
    events = finish_round(state)
    assert only(events, "wild_returned").params == {"cards": ["W1"]}
    assert "W1" not in state.players[1].hand
    assert only(events, "round_ended").params["unclaimed"] == [c for c in offered.values() if c]
    for card in offered.values():
        deck = data.CARDS[card].deck
        if deck in (data.Deck.SPECIAL, data.Deck.NEW_SPECIAL):
            assert card in state.gone  # unclaimed specials leave the game
        elif deck is data.Deck.WILD:
            assert card in state.decks["wild"] or any(card == s.card for s in state.offering)
        else:
            assert card in state.piles[deck.value] or any(card == s.card for s in state.offering)


def test_the_hand_limit_is_a_simultaneous_private_discard() -> None:
    state = table()
    hand(state, 0, "DIN1", "DIN2", "DIN3", "W2")  # the wild card never counts
    hand(state, 1, "F1", "F2", "F3", "F4", "F5")
    put(state, 1, "SC1")  # hand limit +2
    hand(state, 2, "HOR1", "DOG1", "CHF1")  # companions count
    events = finish_round(state)
    assert only(events, "discard_phase").params == {"kind": "limit", "need": [1, 1, 1]}
    assert state.phase == DISCARD and RULES.waiting_for(state) == frozenset({0, 1, 2})
    act(state, 2, "discard.HOR1")
    act(state, 0, "discard.DIN3")
    assert "DIN3" not in state.piles["event"]  # still hidden until everyone has chosen
    events = act(state, 1, "discard.F5")
    assert only(events, "discards_revealed").params["cards"] == [["DIN3"], ["F5"], ["HOR1"]]
    assert state.last is not None and state.last["kind"] == "discards_revealed", "the highlight's move"
    assert state.round == 2 and state.phase == PLANNING
    assert [len(p.hand) for p in state.players] == [2, 4, 2]


def test_a_new_round_passes_the_start_marker_refills_and_pays_income() -> None:
    state = table()
    start = state.start
    job(state, 1, "E1", covered=[0])
    before = state.players[1].money
    events = finish_round(state)
    assert state.round == 2 and state.start == (start + 1) % 3
    assert only(events, "round_started").params["round"] == 2
    assert only(events, "income").params["amount"] == 4
    assert state.players[1].money == before + 4
    assert all(s.card or s.deck in ("special", "wild", "new_special") for s in state.offering)
    assert [s.deck for s in state.offering][:4] == ["special", "special", "special", "property"]


# --- the end of the game ---------------------------------------------------------------------


def test_round_seven_ends_the_game_with_final_income_and_valuation() -> None:
    state = table(end_property_penalty="2")
    build(state).round(7).market("farm", 3).market("town", -3).market("manor", 1)
    assert state.market["mansion"] == -2
    job(state, 0, "E1", covered=[0, 1])  # still employed: income £2 once more
    put(state, 1, "F1")  # 16 + 3
    put(state, 1, "N2", "mansion", step=3)  # dual 12: manor 13, mansion 10 -> the lower, 10
    put(state, 2, "X1", step=5)  # 3 - 2 = 1
    put(state, 2, "T1", step=3)  # 7 - 3 = 4
    events = finish_round(state)
    assert state.phase == OVER and RULES.waiting_for(state) == frozenset()
    assert all(RULES.legal_actions(state, s) == [] for s in range(3))
    assert only(events, "final_income").params["amount"] == 2
    valued = {e.seat: e.params for e in events if e.kind == "valued"}
    assert valued[1] == {"value": 19 + 10, "penalty": 4, "properties": 2}
    assert valued[2] == {"value": 1 + 4, "penalty": 4, "properties": 2}
    assert [p.money for p in state.players] == [42, 40 + 33, 40 + 9]
    outcome = RULES.outcome(state)
    assert outcome is not None
    assert outcome.scores == (42, 73, 49)
    assert outcome.ranks == (3, 2, 1)  # seat 0 has least money but is still employed
    assert outcome.breakdown[0]["employed"] == 1
    assert only(events, "game_over").params["winners"] == [2]
    refused(state, 0, "done", "game_over")


def test_least_money_wins_and_ties_go_to_fewer_properties_then_are_shared() -> None:
    state = table()
    build(state).round(7).market("mansion", 3)
    money(state, 0, 10)
    money(state, 1, 1)
    put(state, 1, "X2")  # 8-6: unmaintained, it depreciates to 6 before it is valued (+3 market)
    money(state, 2, 10)
    finish_round(state)
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.scores == (10, 10, 10)
    assert outcome.ranks == (1, 3, 1)  # seat 1 held a property: it loses the tie
    assert outcome.winners() == (0, 2)


def test_if_everyone_is_still_employed_nobody_wins() -> None:
    state = table()
    build(state).round(7)
    for seat in range(3):
        job(state, seat, f"E{seat + 1}")
    finish_round(state)
    view = RULES.view(state, None)["result"]
    assert view["nobody_wins"] and view["winners"] == []
    outcome = RULES.outcome(state)
    assert outcome is not None and min(outcome.ranks) == 1  # standings still rank by money
    assert outcome.no_winner and outcome.winners() == () and outcome.returns() == (-1.0, -1.0, -1.0)


def test_a_declared_bankruptcy_ends_the_game_at_the_end_of_that_round() -> None:
    state = table()
    money(state, 0, 0)
    hand(state, 0, "DIN1")
    act(state, 0, "bankrupt")
    act(state, 0, "event.DIN1")  # may still spend into debt this turn
    assert state.players[0].money == -2
    events = finish_round(state)
    assert state.phase == OVER and state.round == 1
    assert only(events, "game_over").params["bankruptcy"] is True
    outcome = RULES.outcome(state)
    assert outcome is not None and outcome.winners() == (0,)
    assert "discard_phase" not in kinds(events)  # no hand limit after the last round


def test_view_keys_for_the_renderer() -> None:
    state = table()
    put(state, 0, "N3", tokens=["guest"])
    put(state, 0, "RES5", tokens=["chef"])
    job(state, 1, "E1", covered=[2])
    view = RULES.view(state, 0)
    assert {"round", "phase", "turn", "plans", "offering", "errands", "market", "decks", "discards",
            "players", "pending", "last", "result", "you", "budget"} <= set(view)  # fmt: skip
    me = view["players"][0]
    assert me["board"][0] == {
        "id": "N3",
        "kind": "property",
        "type": "town",
        "step": 0,
        "value": 16,
        "values": [16, 14, 12, 10, 8, 6],
        "upkeep": 5,
        "tokens": ["guest"],
        "maintained": False,
        "expense": None,
        "used": False,
    }
    assert me["board"][1]["expense"] == 2
    assert view["players"][1]["employment"]["lines"][2] == {"symbol": "mask", "money": 1, "covered": True}
    assert view["players"][1]["employment"]["income"] == 6
    assert view["you"]["hand"] == []
    assert "you" not in RULES.view(state, None)
    assert "done" in legal(state, 0)
