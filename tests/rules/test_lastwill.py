"""Last Will engine: builders for arranged positions, then options, setup, round 1 and random play.

The builders (``new``, ``hand``, ``put``, ``job``, ``actions_turn``, ``errand_turn``, ``refused``)
arrange a position by card id while keeping every card in exactly one place and the money
accounted, so each test can check the engine's invariants as well as the rule it is about.  The
other ``test_lastwill_*`` files import them from here.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

import pytest

from rules.core import Action, Event, IllegalAction, InvalidOptions
from rules.lastwill import RULES, data
from rules.lastwill.cards import PROPERTIES
from rules.lastwill.state import ACTIONS, DISCARD, ERRANDS, PLANNING, LastWillState, Owned, PlanSpace
from rules.lastwill.turn import start_turn
from rules.play import canonical, random_playthrough
from tests.helpers import kinds

# --- builders ----------------------------------------------------------------------------------


def new(players: int = 3, seed: int = 1, **options: object) -> LastWillState:
    """A game set up with these options (``last_will="lw-4a"`` fixes the 4-line jobs)."""
    return RULES.setup(players, options, seed)


def take(state: LastWillState, card: str) -> None:
    """Lift a card from wherever it is, so a builder can put it somewhere else."""
    for cards in (*state.decks.values(), *state.piles.values(), state.gone, *state.held):
        if card in cards:
            cards.remove(card)
            return
    for player in state.players:
        if card in player.hand:
            player.hand.remove(card)
            return
        for item in player.board:
            if item.card == card:
                player.board.remove(item)
                return
    for slot in state.offering:
        if slot.card == card:
            slot.card = ""
            return
    raise AssertionError(f"{card} is nowhere")


def hand(state: LastWillState, seat: int, *cards: str, clear: bool = True) -> None:
    """Set a seat's hand to exactly these cards (the old hand goes to its piles)."""
    player = state.players[seat]
    if clear:
        for old in list(player.hand):
            player.hand.remove(old)
            _bury(state, old)
    for card in cards:
        take(state, card)
        player.hand.append(card)


def _bury(state: LastWillState, card: str) -> None:
    from rules.lastwill import piles

    piles.discard(state, card)


def put(
    state: LastWillState, seat: int, card: str, kind: str = "", step: int = 0, tokens: Iterable[str] = ()
) -> Owned:
    """Put a card on a seat's board (a property as its first type unless ``kind`` says)."""
    take(state, card)
    prop = PROPERTIES.get(card)
    item = Owned(card, kind or (prop.types[0].value if prop else ""), step, list(tokens))
    state.players[seat].board.append(item)
    return item


def money(state: LastWillState, seat: int, amount: int) -> None:
    """Set a seat's money; the bank's books move with it so the money invariant holds."""
    state.paid_out += amount - state.players[seat].money
    state.players[seat].money = amount


def job(state: LastWillState, seat: int, job_id: str = "", covered: Iterable[int] = ()) -> None:
    """Give a seat this job (another seat holding it gets a free one), or none with ""."""
    for other, player in enumerate(state.players):
        if other != seat and job_id and player.job == job_id:
            used = {p.job for p in state.players}
            spare = next(e.id for e in data.EMPLOYMENT_CARDS if e.id not in used)
            player.job = spare
            player.covered = [False] * len(data.EMPLOYMENT[spare].lines)
    player = state.players[seat]
    player.job = job_id
    lines = len(data.EMPLOYMENT[job_id].lines) if job_id else 0
    player.covered = [i in set(covered) for i in range(lines)]


def unemploy_all(state: LastWillState) -> None:
    for seat in range(state.count):
        job(state, seat, "")


def _plans(state: LastWillState, first: int, boys: int, actions: int, cards: int = 0) -> None:
    """Give every seat a plan, ``first`` in position 1 with these numbers, the others after it."""
    order = [first] + [s for s in range(state.count) if s != first]
    state.plans = [PlanSpace(pos, cards, boys, actions) for pos in range(1, len(state.plans) + 1)]
    for pos, seat in enumerate(order, start=1):
        state.players[seat].plan = pos
    state.order = order
    state.cursor = 0
    state.need = [0] * state.count
    state.pending = None


def actions_turn(state: LastWillState, seat: int, actions: int = 3) -> list[Event]:
    """The Actions phase with ``seat`` first on turn, its plan giving ``actions`` actions."""
    _plans(state, seat, 1, actions)
    state.phase = ACTIONS
    return start_turn(state)


def errand_turn(state: LastWillState, seat: int, boys: int = 1) -> None:
    """The Errands phase, pass 1, with ``seat`` first to place; every plan gives ``boys`` boys."""
    _plans(state, seat, boys, 1)
    state.phase = ERRANDS
    state.errand_pass = 1
    state.errands = {}


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


# --- the builders themselves -------------------------------------------------------------------


def test_builders_keep_the_invariants() -> None:
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


def test_the_base_game_starts_with_the_options_the_host_fills_in() -> None:
    """The host passes every option with its default: employment=full and plans=tiles with the
    expansion off are what leaving them out means, not a request for the expansion's parts."""
    from rules.core import validate_options

    filled = validate_options(RULES.options, {"expansion": "off"})
    assert filled["employment"] == "full" and filled["plans"] == "tiles"
    state = RULES.setup(3, filled, 1)
    assert not state.expansion and state.employment == "none"


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


def _through_round_one_discards(state: LastWillState) -> None:
    for seat in range(state.count):
        act(state, seat, "discard." + ".".join(state.players[seat].hand[:2]))


def test_planning_is_sequential_from_the_start_player() -> None:
    state = new(3, seed=4)
    _through_round_one_discards(state)
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
    state = new(3, seed=4)
    _through_round_one_discards(state)
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
    _plans(state, 0, 1, 1, cards=3)
    state.phase = "drawing"
    deck = state.decks["companion"]
    state.piles["companion"].extend(deck[:-1])
    del deck[:-1]  # one card left in the deck, the rest face up on its pile
    for _ in range(3):
        act(state, 0, "draw.companion")
    events = act(state, 0, "drawok")
    assert only(events, "reshuffled").params["deck"] == "companion"
    assert state.piles["companion"] == []
    assert sum(data.CARDS[c].deck is data.Deck.COMPANION for c in state.players[0].hand) == 3
    state.players[2].hand += state.decks["event"] + state.piles["event"]
    state.decks["event"], state.piles["event"] = [], []
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
        RULES.load([])  # type: ignore[arg-type]


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
    _plans(state, 0, 1, 1, cards=1)
    state.phase = "drawing"
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
    state = new(3, seed=5)
    _plans(state, 0, 1, 1, cards=0)
    state.plans[1].cards = 2  # seat 1's plan
    put(state, 0, "SC3")
    hand(state, 0)
    from rules.lastwill.planning import start_drawing

    events = start_drawing(state)
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
