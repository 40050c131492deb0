"""Last Will's errands (§3.4, §5) and the demotions and sacking they lead to (§9)."""

from __future__ import annotations

from rules.lastwill import RULES, data
from rules.lastwill.builder import LastWillBuilder
from rules.lastwill.employment import income
from rules.lastwill.state import LastWillState
from tests.helpers import kinds
from tests.rules.test_lastwill import (
    act,
    actions_turn,
    build,
    errand_turn,
    hand,
    job,
    legal,
    money,
    new,
    only,
    pending_kind,
    put,
    refused,
)


def errands(players: int = 3, boys: int = 1, seed: int = 1, **options: object) -> LastWillState:
    """Seat 0 places first; every seat's plan gives ``boys`` boys; nobody employed; £30 each."""
    builder = LastWillBuilder(players, seed=seed, **options).past_setup().unemployed()
    for seat in range(players):
        builder.hand(seat).money(seat, 30)
    errand_turn(builder.state, 0, boys)
    return builder.build()


# --- spaces ------------------------------------------------------------------------------------


def test_an_offering_slot_gives_its_card_face_up() -> None:
    state = errands()
    slot = next(s for s in state.offering if s.label == "4")
    card = slot.card
    events = act(state, 0, "boy.slot4")
    assert only(events, "errand").params == {"space": "slot4", "card": card}
    assert state.players[0].hand == [card] and slot.boy == 0
    assert "boy.slot4" not in legal(state, 1)
    refused(state, 1, "boy.slot4", "errand_closed")


def test_two_or_three_players_share_two_boys_on_slots_one_to_three() -> None:
    state = errands(3)
    act(state, 0, "boy.slot1")
    act(state, 1, "boy.slot2")
    assert "boy.slot3" not in legal(state, 2)
    four = errands(4)
    act(four, 0, "boy.slot5")
    act(four, 1, "boy.slot6")
    assert "boy.slot7" in legal(four, 2)


def test_draw_one_is_private_and_once_a_round_per_player() -> None:
    state = errands(3, boys=2)
    events = act(state, 0, "boy.one-event")
    public = only(events, "errand")
    assert public.params == {"space": "one-event", "deck": "event"}
    private = next(e for e in events if e.visible_to == frozenset({0}))
    assert private.params["card"] == state.players[0].hand[0]
    assert "boy.one-event" in legal(state, 1)  # no limit in all
    act(state, 1, "hold")
    act(state, 2, "hold")
    assert state.errand_pass == 2
    assert not any(a.startswith("boy.one-") for a in legal(state, 0))


def test_the_opera_spends_two_pounds_more_with_a_tailor_and_may_demote_on_a_mask_line() -> None:
    state = errands(3, last_will="lw-4a")
    job(state, 0, "E1")  # Doctor: mask is line 2
    put(state, 0, "TAI1")
    events = act(state, 0, "boy.opera")
    assert only(events, "errand").params == {"space": "opera", "money": 5, "bonus": 3}
    assert pending_kind(state) == "line" and legal(state, 0) == {"line.2", "noline"}
    assert RULES.waiting_for(state) == frozenset({0})
    act(state, 0, "line.2")
    assert state.players[0].covered == [False, False, True, False]
    assert state.cursor == 1 and RULES.waiting_for(state) == frozenset({1})


def test_the_opera_needs_two_pounds_from_a_player_under_the_spending_limit() -> None:
    state = errands(3, last_will="lw-4a")
    job(state, 0, "E1")
    money(state, 0, 1)
    assert "boy.opera" not in legal(state, 0)
    money(state, 0, 3)
    put(state, 0, "TAI1")
    events = act(state, 0, "boy.opera")
    assert only(events, "errand").params["bonus"] == 1  # the Tailor's bonus shrinks to cash


def test_the_market_swaps_two_tokens() -> None:
    state = errands()
    before = dict(state.market)
    events = act(state, 0, "market.farm.mansion")
    assert state.market["farm"] == before["mansion"] and state.market["mansion"] == before["farm"]
    assert only(events, "market_swapped").params["types"] == ["farm", "mansion"]
    assert not any(a.startswith("market.") for a in legal(state, 1))


def test_an_extension_adds_a_space_while_any_remain() -> None:
    state = errands()
    act(state, 0, "boy.ext")
    assert state.players[0].extensions == 1 and state.extensions_left == data.EXTENSIONS - 1
    assert "boy.ext" not in legal(state, 1)
    base = errands(5, expansion="off")
    act(base, 0, "boy.ext")
    assert "boy.ext" in legal(base, 1)  # base game, 5 players: two extension spaces
    act(base, 1, "boy.ext")
    assert "boy.ext" not in legal(base, 2)
    late = errands()
    build(late).extensions(1, data.EXTENSIONS)
    assert late.extensions_left == 0
    assert "boy.ext" not in legal(late, 0)


def test_the_demotion_space_covers_any_line_highest_first() -> None:
    state = errands(3, last_will="lw-4a")
    job(state, 0, "E3")  # Governess: guest 2, mask 2, carriage 2, dine 1
    assert "boy.demote" not in legal(state, 1)  # unemployed: closed
    act(state, 0, "boy.demote")
    assert [a.encode() for a in RULES.legal_actions(state, 0)] == [
        "line.0",
        "line.1",
        "line.2",
        "line.3",
        "noline",
    ]
    events = act(state, 0, "line.3")
    assert only(events, "demoted").params["source"] == "demote"


def test_a_player_who_already_earned_the_demotion_may_block_the_space() -> None:
    state = errands(3, last_will="lw-4a")
    job(state, 0, "E3")
    build(state).demoted(0)
    assert "boy.demote" in legal(state, 0)
    events = act(state, 0, "boy.demote")
    assert state.pending is None and "demoted" not in kinds(events)
    assert state.errands["demote"] == [0] and not any(state.players[0].covered)


def test_at_most_one_demotion_a_round_even_after_an_errand_demotion() -> None:
    state = errands(3, last_will="lw-4a")
    job(state, 0, "E1")  # horse 3, dine 2, mask 1, guest 1
    act(state, 0, "boy.demote")
    act(state, 0, "line.0")
    actions_turn(state, 0, 3)
    hand(state, 0, "DIN1", "RES1")
    act(state, 0, "event.DIN1")
    assert state.pending is None  # the dine line is not offered again this round
    act(state, 0, "lay.RES1")
    assert state.pending is None
    assert state.players[0].covered == [True, False, False, False]


def test_sacked_when_the_last_line_is_covered() -> None:
    state = errands(3, last_will="lw-4a")
    job(state, 0, "E1", covered=[0, 1, 2])
    act(state, 0, "boy.demote")
    events = act(state, 0, "line.3")
    assert only(events, "sacked").params == {"job": "E1"}
    player = state.players[0]
    assert player.sacked and player.job == "" and income(player) == 0
    view = RULES.view(state, None)["players"][0]
    assert view["sacked"] and view["employment"] is None


def test_employment_income_example() -> None:
    """Uncovered lines only: a Doctor with horse (£3) covered takes £2 + £1 + £1 = £4."""
    state = new(3, last_will="lw-4a")
    job(state, 0, "E1", covered=[0])
    assert income(state.players[0]) == 4
    job(state, 1, "E1", covered=[])
    assert income(state.players[1]) == 7  # every 4-line card totals £7 (rulebook)
    assert all(sum(line.money for line in e.lines) == 11 for e in data.EMPLOYMENT_CARDS if len(e.lines) == 5)


# --- the demotion-or-extension space -------------------------------------------------------------


def test_two_to_four_players_choose_demotion_or_extension_freely() -> None:
    state = errands(4, last_will="lw-4a")
    job(state, 0, "E1")
    act(state, 0, "boy.demext")
    assert legal(state, 0) == {"dx.demote", "dx.ext"}
    chosen = act(state, 0, "dx.demote")
    # Public: everyone sees the demotion taken, and the table moves on to the lines to cover.
    assert kinds(chosen) == ["demotion_chosen"] and all(e.visible_to is None for e in chosen)
    assert legal(state, 0) == {"line.0", "line.1", "line.2", "line.3", "noline"}
    act(state, 0, "noline")
    state2 = errands(4, last_will="lw-4a")
    job(state2, 0, "E1")
    act(state2, 0, "boy.demext")
    events = act(state2, 0, "dx.ext")
    assert "extension" in kinds(events) and state2.players[0].extensions == 1


def test_five_players_need_the_other_space_occupied() -> None:
    state = errands(5, last_will="lw-4a")
    for seat in range(5):
        job(state, seat, f"E{seat + 1}")
    assert "boy.demext" not in legal(state, 0)  # neither other space is occupied
    act(state, 0, "boy.demote")
    act(state, 0, "noline")
    assert "boy.demext" in legal(state, 1)  # now a demotion only
    act(state, 1, "boy.demext")
    assert pending_kind(state) == "line"  # no extension offered: the extension space is free
    act(state, 1, "noline")
    assert state.players[1].extensions == 0


def test_five_players_with_both_spaces_taken_choose() -> None:
    state = errands(5, last_will="lw-4a")
    for seat in range(5):
        job(state, seat, f"E{seat + 1}")
    act(state, 0, "boy.demote")
    act(state, 0, "noline")
    act(state, 1, "boy.ext")
    assert RULES.view(state, None)["errands"][3]["boys"] == [1]
    act(state, 2, "boy.demext")
    assert legal(state, 2) == {"dx.demote", "dx.ext"}


def test_unemployed_and_no_employment_use_it_only_for_an_extension() -> None:
    state = errands(3, last_will="lw-4a")
    events = act(state, 0, "boy.demext")
    assert only(events, "errand").params["options"] == ["ext"]
    assert state.players[0].extensions == 1 and state.pending is None
    none = errands(3, employment="none")
    assert "boy.demote" not in legal(none, 0) and "boy.demext" in legal(none, 0)
    assert [e["space"] for e in RULES.view(none, None)["errands"]] == [
        "one",
        "opera",
        "market",
        "ext",
        "demext",
    ]
    base = errands(3, expansion="off")
    assert not {"boy.demote", "boy.demext", "boy.slotx"} & legal(base, 0)


# --- passes ----------------------------------------------------------------------------------


def test_passes_follow_plan_order_and_each_plan_s_boys() -> None:
    state = errands(3, boys=1)
    build(state).plan_space(1, cards=0, boys=3, actions=1)  # seat 0's plan
    assert [p["boys_left"] for p in RULES.view(state, None)["players"]] == [3, 1, 1]
    act(state, 0, "hold")
    act(state, 1, "boy.ext")
    assert [p["boys_left"] for p in RULES.view(state, None)["players"]] == [2, 0, 1]
    act(state, 2, "boy.opera")
    assert state.errand_pass == 2 and RULES.waiting_for(state) == frozenset({0})
    act(state, 0, "market.farm.town")
    assert state.errand_pass == 3 and RULES.waiting_for(state) == frozenset({0})
    events = act(state, 0, "hold")
    assert state.phase == "actions" and "turn_started" in kinds(events)
    assert RULES.waiting_for(state) == frozenset({0})


def test_a_boy_with_nowhere_to_go_is_held_without_asking() -> None:
    state = errands(3, boys=1)
    builder = build(state).clear_offering()
    for space in ("opera", "market", "ext", "demext"):
        builder.occupy(space, 2)
    builder.occupy("one", 1)
    events = act(state, 0, "hold")
    held = [e for e in events if e.kind == "held"]
    assert [(e.seat, e.params["forced"]) for e in held] == [(0, False), (1, True)]
    assert RULES.waiting_for(state) == frozenset({2})


def test_errand_refusals() -> None:
    state = errands()
    refused(state, 1, "boy.ext", "not_your_errand")
    refused(state, 0, "boy.nowhere", "errand_closed")
    refused(state, 0, "market.farm.farm", "errand_closed")
    act(state, 0, "hold")
    actions_turn(state, 0)
    refused(state, 0, "boy.ext", "errands_phase")
