"""Last Will engine: arranged positions, then options, setup, round 1 and random play.

Positions are arranged with the game's position builder (``rules/lastwill/builder.py``), which
keeps every card in exactly one place and the money accounted.  The short helpers here (``new``,
``hand``, ``put``, ``money``, ``job``, ``actions_turn``, ``errand_turn``, ``refused``) are the
builder's steps on a state a test already holds, so a test can rearrange it halfway through;
the other ``test_lastwill_*`` files import them from here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from rules.core import Action, Event, IllegalAction, InvalidOptions
from rules.lastwill import RULES, data
from rules.lastwill.builder import LastWillBuilder
from rules.lastwill.state import DISCARD, PLANNING, LastWillState, Owned
from rules.play import canonical, random_playthrough
from tests.helpers import kinds

# --- arranging positions -------------------------------------------------------------------------


def new(players: int = 3, seed: int = 1, **options: object) -> LastWillState:
    """A game set up with these options (``last_will="lw-4a"`` fixes the 4-line jobs)."""
    return RULES.setup(players, options, seed)


def build(state: LastWillState) -> LastWillBuilder:
    """The position builder, going on from ``state`` (its steps change ``state`` itself)."""
    return LastWillBuilder.from_state(state)


def hand(state: LastWillState, seat: int, *cards: str) -> None:
    """Set a seat's hand to exactly these cards (the old hand goes to its piles)."""
    build(state).hand(seat, *cards)


def put(
    state: LastWillState,
    seat: int,
    card: str,
    kind: str = "",
    step: int = 0,
    tokens: Iterable[str] = (),
    *,
    done: bool = False,
) -> Owned:
    """Put a card on a seat's board (a property as its first type unless ``kind`` says); ``done``:
    maintained (a property) or used (an expense) this round."""
    build(state).board(seat, card, kind=kind, step=step, tokens=tokens, done=done)
    return state.players[seat].board[-1]


def money(state: LastWillState, seat: int, amount: int) -> None:
    """Set a seat's money; the bank's books move with it so the money invariant holds."""
    build(state).money(seat, amount)


def job(state: LastWillState, seat: int, job_id: str = "", covered: Iterable[int] = ()) -> None:
    """Give a seat this job (another seat holding it gets a free one), or none with ""."""
    if job_id:
        build(state).job(seat, job_id, covered)
    else:
        build(state).unemployed(seat)


def unemploy_all(state: LastWillState) -> None:
    build(state).unemployed()


def plans(state: LastWillState, first: int, boys: int, actions: int, cards: int = 0) -> LastWillBuilder:
    """Every plan gives these numbers; ``first`` holds position 1, the others follow in seat order."""
    builder = build(state)
    for space in state.plans:
        builder.plan_space(space.pos, cards=cards, boys=boys, actions=actions)
    return builder.order(first, *(s for s in range(state.count) if s != first))


def actions_turn(state: LastWillState, seat: int, actions: int = 3) -> None:
    """The Actions phase with ``seat`` first on turn, its plan giving ``actions`` actions."""
    plans(state, seat, 1, actions).actions(seat)


def errand_turn(state: LastWillState, seat: int, boys: int = 1) -> None:
    """The Errands phase, pass 1, with ``seat`` first to place; every plan gives ``boys`` boys."""
    plans(state, seat, boys, 1).errands(seat)


def act(state: LastWillState, seat: int, text: str) -> list[Event]:
    events = RULES.apply(state, seat, Action.decode(text))
    assert RULES.invariants(state) == []
    return events


def refused(state: LastWillState, seat: int, text: str, key: str, **params: object) -> None:
    """The action is refused for that reason (the engine's key, with exactly these params) and the
    state is exactly as it was; the catalog words it (``lastwill.illegal.<key>``)."""
    before = canonical(RULES.dump(state))
    with pytest.raises(IllegalAction) as info:
        RULES.apply(state, seat, Action.decode(text))
    assert canonical(RULES.dump(state)) == before
    assert (info.value.key, info.value.params) == (key, params)


def legal(state: LastWillState, seat: int) -> set[str]:
    return {a.encode() for a in RULES.legal_actions(state, seat)}


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind and e.visible_to is None]
    assert len(found) == 1, kinds(events)
    return found[0]


def pending_kind(state: LastWillState) -> str | None:
    return None if state.pending is None else state.pending.step


# --- the helpers themselves ----------------------------------------------------------------------


def test_helpers_keep_the_invariants() -> None:
    state = new(3, last_will="lw-4a")
    hand(state, 0, "ER1", "ER2", "WG1")
    put(state, 1, "N1", "manor", step=2)
    money(state, 2, 5)
    job(state, 0, "E1", covered=[0])
    actions_turn(state, 0, actions=2)
    assert RULES.invariants(state) == []
    assert state.players[0].hand == ["ER1", "ER2", "WG1"]
    assert legal(state, 0) >= {"event.ER1", "nupt.ER1.WG1", "nupt.ER2.WG1", "done"}


# --- options (§1) --------------------------------------------------------------------------------


def test_default_options_are_the_full_expansion() -> None:
    state = new(4)
    assert state.expansion and state.employment == "full" and state.plans_mode == "tiles"
    assert data.LAST_WILLS[state.last_will].expansion
    assert all(p.job for p in state.players)
    assert len({p.job for p in state.players}) == 4
    job_set = data.LAST_WILLS[state.last_will].employment
    assert all(data.EMPLOYMENT[p.job].set is job_set for p in state.players)


@pytest.mark.parametrize(
    ("options", "key", "params"),
    [
        (
            {"expansion": "off", "employment": "none"},
            "needs_expansion",
            {"option": "employment", "value": "none"},
        ),
        (
            {"expansion": "off", "plans": "original"},
            "needs_expansion",
            {"option": "plans", "value": "original"},
        ),
        ({"last_will": "lw-b3"}, "base_will", {"card": "LW-B3", "employment": "full"}),
        (
            {"employment": "handicap", "last_will": "lw-b1"},
            "base_will",
            {"card": "LW-B1", "employment": "handicap"},
        ),
        ({"employment": "none", "last_will": "lw-4a"}, "new_will", {"card": "LW-4A"}),
        ({"expansion": "off", "last_will": "lw-5e"}, "new_will", {"card": "LW-5E"}),
        ({"last_will": "lw-9z"}, "choice", {"option": "last_will"}),
        ({"employment": "some"}, "choice", {"option": "employment"}),
        ({"end_property_penalty": "-1"}, "range", {"option": "end_property_penalty", "low": 0, "high": 100}),
        ({"colour": "red"}, "unknown", {"option": "'colour'"}),
    ],
)
def test_bad_options_are_refused_with_a_reason(
    options: dict[str, object], key: str, params: dict[str, object]
) -> None:
    with pytest.raises(InvalidOptions) as info:
        RULES.setup(3, options, 1)
    assert info.value.key == key
    assert params.items() <= info.value.params.items()


@pytest.mark.parametrize(
    ("options", "named", "value"),
    [
        ({"expansion": "off", "employment": "full"}, "employment", "full"),
        ({"expansion": "off", "plans": "tiles"}, "plans", "tiles"),
        ({"expansion": "off", "employment": "none", "plans": "original"}, "employment", "none"),
    ],
)
def test_expansion_only_options_are_refused_named_at_all_with_the_expansion_off(
    options: dict[str, object], named: str, value: str
) -> None:
    """Components §1 (chosen): with expansion off, naming employment or plans at all is refused,
    even with the value a table gets by leaving it out; the lobby's check and setup agree."""
    for check in (RULES.table_options, lambda o: RULES.setup(3, o, 1)):
        with pytest.raises(InvalidOptions) as info:
            check(options)
        assert (info.value.key, info.value.params) == ("needs_expansion", {"option": named, "value": value})


def test_expansion_only_options_are_fine_with_the_expansion_on_or_left_out() -> None:
    on = {"expansion": "on", "employment": "full", "plans": "tiles"}
    assert RULES.table_options(on) == {
        **on,
        "expansion": True,
        "last_will": "random",
        "end_property_penalty": 0,
    }
    assert RULES.setup(3, on, 1).employment == "full"
    assert RULES.setup(3, {"plans": "original"}, 1).plans_mode == "original"
    state = RULES.setup(3, {"expansion": "off"}, 1)
    assert not state.expansion and state.employment == "none" and state.plans_mode == "original"


def test_a_base_game_table_starts_from_the_options_the_lobby_stored() -> None:
    """The lobby stores what ``table_options`` returns and hands it to ``setup`` at Start (and at
    every replay): with the expansion off it leaves employment and plans out, so the table starts."""
    stored = RULES.table_options({"expansion": "off"})
    assert stored == {"expansion": False, "last_will": "random", "end_property_penalty": 0}
    state = RULES.setup(3, stored, 1)
    assert not state.expansion and state.employment == "none" and state.plans_mode == "original"


def test_named_last_will_cards_and_modes() -> None:
    state = new(3, last_will="LW-5B")
    assert state.last_will == "LW-5B"
    assert all(p.money == 65 + 11 for p in state.players)  # inheritance + round-1 income (§3.1)
    base = new(3, expansion="off", last_will="lw-b2")
    assert base.last_will == "LW-B2" and not any(p.job for p in base.players)
    assert base.plans_mode == "original" and "X" not in [s.label for s in base.offering]
    assert all(not data.CARDS[c].expansion for d in base.decks.values() for c in d)
    none = new(3, employment="none")
    assert none.last_will in data.BASE_LAST_WILLS and not any(p.job for p in none.players)


def test_player_counts() -> None:
    with pytest.raises(InvalidOptions, match=r"^players \(.*min=2, max=5, count=1\)"):
        new(1)
    with pytest.raises(InvalidOptions):
        new(6)


# --- setup (§2) --------------------------------------------------------------------------------


def test_setup_deals_two_and_two_and_round_one_income() -> None:
    state = new(4, last_will="lw-4c")
    assert state.phase == DISCARD and state.discard_for == "keep"
    for player in state.players:
        decks = sorted(data.CARDS[c].deck.value for c in player.hand)
        assert decks == ["helper", "helper", "property", "property"]
        assert player.money == 60 + 7  # a 4-line job pays £7 in round 1 (rulebook)
    assert state.need == [2, 2, 2, 2]
    assert RULES.waiting_for(state) == frozenset(range(4))
    assert state.paid_out - state.paid_in == sum(p.money for p in state.players)


def test_plan_tiles_follow_the_player_count() -> None:
    two = new(2)
    assert [p.pos for p in two.plans] == list(range(1, 9))
    assert all(p.tile.startswith("A") for p in two.plans)  # B tiles are for 3-5 players
    assert all(p.boys <= 2 for p in two.plans)
    five = new(5, seed=3)
    for plan in five.plans:
        tile = next(t for t in data.PLAN_TILES if t.id == plan.tile)
        side = tile.front if plan.side == "front" else tile.back
        assert (plan.cards, plan.boys, plan.actions) == (side.cards, side.boys, side.actions)
        assert tile.position == plan.pos


def test_original_plans_and_base_boys() -> None:
    state = new(3, plans="original")
    assert [(p.cards, p.boys, p.actions) for p in state.plans] == [
        (p.cards, p.boys, p.actions) for p in data.ORIGINAL_PLANS[3]
    ]
    assert max(p.boys for p in new(5, expansion="off").plans) <= data.BASE_ERRAND_BOYS


def test_special_decks_are_stacked_by_crowns() -> None:
    state = new(3)
    special = [data.CARDS[c].crowns for c in reversed(state.decks["special"])]
    # the offering took the top cards; what is left still runs 1 -> 2 -> 3 crowns from the top
    assert special == sorted(special)
    new_special = [data.CARDS[c].crowns for c in reversed(state.decks["new_special"])]
    assert new_special == sorted(new_special)
    assert data.CARDS[state.offering[-1].card].crowns == 1  # slot X: the first 1-crown card


def test_handicap_is_a_setup_phase_for_the_host() -> None:
    state = new(4, employment="handicap", last_will="lw-5a")
    assert state.phase == "pick" and RULES.waiting_for(state) == frozenset({0})
    assert not any(p.hand for p in state.players)  # nothing dealt before the pick
    assert "empok" not in legal(state, 0) and legal(state, 1) == set()
    refused(state, 1, "emp.1", "host_picks")
    refused(state, 0, "empok", "pick_count", low=1, high=3)
    refused(state, 0, "emp.7", "no_seat")
    for seat in (1, 2, 3, 0):
        act(state, 0, f"emp.{seat}")
    refused(state, 0, "empok", "pick_count", low=1, high=3)
    act(state, 0, "emp.0")  # toggles back off
    events = act(state, 0, "empok")
    assert "handicap_picked" in kinds(events)
    assert [bool(p.job) for p in state.players] == [False, True, True, True]
    assert state.players[0].money == 60 + data.HANDICAP_MONEY[data.EmploymentSet.FIVE]
    assert state.players[1].money == 60 + 11
    assert state.phase == DISCARD
    refused(state, 0, "emp.1", "pick_phase")
    refused(state, 0, "empok", "pick_phase")


# --- round 1 discards (simultaneous, private) --------------------------------------------------


def test_round_one_discards_are_simultaneous_and_revealed_together() -> None:
    state = new(3, seed=2)
    hands = [list(p.hand) for p in state.players]
    first = act(state, 0, f"discard.{hands[0][0]}.{hands[0][1]}")
    public = [e for e in first if e.visible_to is None]
    assert all("cards" not in e.params for e in public)  # the choice stays secret
    assert [e.params["count"] for e in public] == [2]
    assert state.piles == new(3, seed=2).piles  # nothing face up yet
    assert RULES.waiting_for(state) == frozenset({1, 2})
    assert legal(state, 0) == set()
    assert RULES.view(state, None)["players"][0]["hand"] == 2
    act(state, 1, f"discard.{hands[1][2]}")
    act(state, 1, f"discard.{hands[1][3]}")
    events = act(state, 2, f"discard.{hands[2][0]}.{hands[2][3]}")
    revealed = only(events, "discards_revealed").params["cards"]
    assert revealed == [hands[0][:2], hands[1][2:], [hands[2][0], hands[2][3]]]
    assert state.phase == PLANNING
    assert all(len(p.hand) == 2 for p in state.players)


def test_discard_refusals() -> None:
    state = new(3, seed=2)
    card = state.players[0].hand[0]
    other = state.players[1].hand[0]
    refused(state, 0, f"discard.{other}", "not_in_hand")
    refused(state, 0, "discard." + ".".join(state.players[0].hand[:3]), "discard_count", need=2)
    act(state, 0, f"discard.{card}.{state.players[0].hand[1]}")
    refused(state, 0, f"discard.{state.players[0].hand[0]}", "nothing_to_discard")
    for seat in (1, 2):
        act(state, seat, "discard." + ".".join(state.players[seat].hand[:2]))
    refused(state, 0, f"discard.{state.players[0].hand[0]}", "discard_phase")


# --- planning and drawing -----------------------------------------------------------------------


def test_planning_is_sequential_from_the_start_player() -> None:
    state = LastWillBuilder(3, seed=4).past_setup().build()
    start = state.start
    assert RULES.waiting_for(state) == frozenset({start})
    refused(state, (start + 1) % 3, "plan.1", "not_your_plan")
    act(state, start, "plan.5")
    refused(state, (start + 1) % 3, "plan.5", "plan_taken")
    refused(state, (start + 1) % 3, "plan.9", "plan_taken")
    act(state, (start + 1) % 3, "plan.2")
    assert "plan.5" not in legal(state, (start + 2) % 3)
    act(state, (start + 2) % 3, "plan.8")
    assert state.order == [(start + 1) % 3, start, (start + 2) % 3]
    assert state.phase in ("drawing", "errands")
    refused(state, start, "plan.1", "plan_phase")


def test_drawing_names_decks_first_then_draws_privately() -> None:
    state = LastWillBuilder(3, seed=4).past_setup().build()
    for seat in (state.start, (state.start + 1) % 3, (state.start + 2) % 3):
        act(state, seat, f"plan.{[8, 1, 2][seat]}")
    drawer = state.order[0]
    cards = next(p.cards for p in state.plans if p.pos == state.players[drawer].plan)
    assert cards > 0
    refused(state, state.order[1], "draw.event", "not_your_draw")
    refused(state, drawer, "drawok", "name_first", want=cards, named=0)
    refused(state, drawer, "redraw", "none_named")
    refused(state, drawer, "draw.special", "regular_decks")
    before = len(state.players[drawer].hand)
    act(state, drawer, "draw.event")
    act(state, drawer, "redraw")
    assert state.split == {}
    for _ in range(cards):
        act(state, drawer, "draw.companion")
    refused(state, drawer, "draw.companion", "all_named")
    events = act(state, drawer, "drawok")
    public = [e for e in events if e.kind == "drew" and e.visible_to is None]
    private = [e for e in events if e.kind == "drew" and e.visible_to == frozenset({drawer})]
    assert public[0].params == {"counts": {"companion": cards}}
    assert len(private[0].params["cards"]) == cards
    assert len(state.players[drawer].hand) == before + cards
    assert all(data.CARDS[c].deck is data.Deck.COMPANION for c in private[0].params["cards"])
    refused(state, drawer, "draw.event", "not_your_draw")
    if state.phase == "drawing":
        refused(state, 0, "plan.1", "plan_phase")
    else:
        refused(state, 0, "draw.event", "drawing_phase")


def test_a_deck_runs_dry_then_reshuffles_its_pile() -> None:
    state = new(3, seed=4)
    plans(state, 0, 1, 1, cards=3).drawing(0).deck_size("companion", 1)  # the rest face up on its pile
    for _ in range(3):
        act(state, 0, "draw.companion")
    events = act(state, 0, "drawok")
    assert only(events, "reshuffled").params["deck"] == "companion"
    assert state.piles["companion"] == []
    assert sum(data.CARDS[c].deck is data.Deck.COMPANION for c in state.players[0].hand) == 3
    build(state).give(2, *state.decks["event"], *state.piles["event"])
    assert state.decks["event"] == state.piles["event"] == []
    assert "draw.event" not in legal(state, 1)
    refused(state, 1, "draw.event", "deck_empty")


# --- random play, JSON and hidden information --------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "options",
    [{}, {"employment": "none"}, {"employment": "handicap"}, {"expansion": "off"}, {"plans": "original"}],
    ids=["full", "none", "handicap", "base", "original"],
)
def test_random_games_end_by_round_seven_with_invariants(players: int, options: dict[str, object]) -> None:
    for seed in range(3):
        run = random_playthrough(RULES, players, seed, options=options)
        assert run.failures == [], run.failures[:3]
        assert run.finished
        assert run.state.round <= data.ROUNDS
        outcome = RULES.outcome(run.state)
        assert outcome is not None and min(outcome.ranks) == 1


def test_json_round_trip_mid_game() -> None:
    for stop in (5, 40, 120, 300):
        run = random_playthrough(RULES, 4, 9, stop_after=stop)
        text = canonical(RULES.dump(run.state))
        loaded = RULES.load(json.loads(text))
        assert canonical(RULES.dump(loaded)) == text
        assert [RULES.legal_actions(loaded, s) for s in range(4)] == [
            RULES.legal_actions(run.state, s) for s in range(4)
        ]


def test_load_refuses_other_schemas_and_garbage() -> None:
    from rules.core import StateError

    with pytest.raises(StateError, match="schema"):
        RULES.load({"schema": 99})
    with pytest.raises(StateError, match="Corrupt"):
        RULES.load({"schema": RULES.schema, "players": []})
    with pytest.raises(StateError, match="JSON object"):
        RULES.load([])  # type: ignore[arg-type]  # not a JSON object, on purpose


def _public(obj: Any) -> str:
    return json.dumps(obj, sort_keys=True)


def test_public_view_and_public_events_never_depend_on_hands_or_deck_order() -> None:
    """Swap two hidden cards (one in a hand, one deep in a deck): nothing public changes."""
    run = random_playthrough(RULES, 4, 12, stop_after=150)
    state = run.state
    seat = next(s for s in range(4) if state.players[s].hand)
    mine = state.players[seat].hand[0]
    deck = data.CARDS[mine].deck.value
    if deck in state.decks and len(state.decks[deck]) > 1:
        other = state.decks[deck][0]
        twin = RULES.load(json.loads(canonical(RULES.dump(state))))
        twin.players[seat].hand[0] = other
        twin.decks[deck][0] = mine
        assert _public(RULES.view(state, None)) == _public(RULES.view(twin, None))
    view = RULES.view(state, None)
    assert "you" not in view
    assert all(isinstance(p["hand"], int) for p in view["players"])
    assert set(view["decks"].values()) <= set(range(200))


def _public_cards(view: dict[str, Any]) -> set[str]:
    found = {slot["card"] for slot in view["offering"] if slot["card"]}
    found |= {item["id"] for p in view["players"] for item in p["board"]}
    found |= {c for pile in view["discards"].values() for c in pile} | set(view["gone"])
    if view["pending"]:
        found |= set(view["pending"]["cards"]) | {icon[2] for icon in view["pending"]["icons"] if icon[2]}
    return found | {w.id for w in data.WILD_CARD_RECORDS}


@pytest.mark.parametrize("seed", [21, 22])
def test_public_events_name_only_cards_face_up_before_or_after(seed: int) -> None:
    """Every card a public event names is on the table (offering, a board, a pile, a play).

    Revealed discards count as face up: they land on the piles, even when the same step's round
    setup then shuffles a pile back into an empty deck."""
    run = random_playthrough(RULES, 4, seed)
    state = RULES.setup(4, run.options, seed)
    for seat, action in run.log:
        before = _public_cards(RULES.view(state, None))
        events = RULES.apply(state, seat, action)
        after = _public_cards(RULES.view(state, None))
        for event in events:
            if event.visible_to is not None:
                continue
            named = {v for v in event.params.values() if isinstance(v, str) and v in data.CARDS}
            for value in event.params.values():
                if isinstance(value, list):
                    flat = [x for v in value for x in (v if isinstance(v, list) else [v])]
                    named |= {x for x in flat if isinstance(x, str) and x in data.CARDS}
            revealed: set[str] = set()
            if event.kind == "discards_revealed":
                revealed = {c for cards in event.params["cards"] for c in cards}
            assert named <= before | after | revealed, (event.kind, named - before - after)


def test_school_chums_add_cards_to_the_draw() -> None:
    """SC5 adds 2 cards of any regular decks to the choice; SC3/SC4 add 3 companions / events."""
    state = new(3, seed=5)
    plans(state, 0, 1, 1, cards=1).drawing(0)
    for card in ("SC5", "SC3", "SC4"):
        put(state, 0, card)
    hand(state, 0)
    refused(state, 0, "drawok", "name_first", want=3, named=0)
    for deck in ("property", "property", "helper"):
        act(state, 0, f"draw.{deck}")
    events = act(state, 0, "drawok")
    counts = next(e for e in events if e.kind == "drew" and e.visible_to is None).params["counts"]
    assert counts == {"property": 2, "event": 3, "helper": 1, "companion": 3}
    assert len(state.players[0].hand) == 9


def test_a_player_with_nothing_to_choose_draws_without_being_asked() -> None:
    """The last plan chosen starts the drawing: seat 0 (plan 1, no cards of its choice, SC3's
    companions) draws at once, and the drawing waits for seat 1 (plan 2, two cards to name)."""
    builder = LastWillBuilder(3, seed=5).past_setup().planning(first=0).board(0, "SC3").hand(0)
    for space in builder.state.plans:
        builder.plan_space(space.pos, cards=2 if space.pos == 2 else 0, boys=1, actions=1)
    state = builder.build()
    act(state, 0, "plan.1")
    act(state, 1, "plan.2")
    events = act(state, 2, "plan.3")
    assert [e.seat for e in events if e.kind == "drew" and e.visible_to is None] == [0]
    assert RULES.waiting_for(state) == frozenset({1})


def test_only_the_waited_for_seat_has_actions() -> None:
    """No Last Will move is taken out of turn, so idle seats' panels are empty (and fingerprints None)."""
    run = random_playthrough(RULES, 4, 17, stop_after=250)
    state = run.state
    waiting = RULES.waiting_for(state)
    for seat in range(4):
        actions = RULES.legal_actions(state, seat)
        assert bool(actions) == (seat in waiting)
        assert all(RULES.fingerprint(state, a) is None for a in actions)


def test_invariants_notice_lost_money_and_cards() -> None:
    state = new(3)
    assert RULES.invariants(state) == []
    state.players[0].money += 1
    assert any("money" in p for p in RULES.invariants(state))
    state.players[0].money -= 1
    state.players[1].hand.append(state.players[0].hand[0])
    assert any("exactly one place" in p for p in RULES.invariants(state))
    state.players[1].hand.pop()
    state.round = 8
    assert any("round 8" in p for p in RULES.invariants(state))
