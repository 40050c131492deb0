"""Last Will states sampled from a seat's view (``rules.lastwill.sample``): what bots think on.

A sample must show its seat exactly what the seat saw, offer it exactly the same moves, keep the
engine's invariants and play on to the end; and what the view hides (other hands, their chosen
discards, another seat's drawing split or Personal Secretary cards, the deck order, the
generator) must come from the seed, never from the real state.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

import pytest

from rules.core import Action
from rules.lastwill import RULES, data
from rules.lastwill.cards import DECK_OF
from rules.lastwill.state import ACTIONS, DISCARD, DRAWING, ERRANDS, OVER, PHASES, PICK, LastWillState, clone
from rules.play import canonical, random_playthrough
from rules.rng import Rng
from tests.helpers import play_out
from tests.rules.test_lastwill import act, hand, new, put
from tests.rules.test_lastwill_actions import table

MODES: tuple[Mapping[str, object], ...] = (
    {},
    {"expansion": False},
    {"employment": "handicap"},
    {"employment": "none"},
    {"plans": "original"},
)


def positions(players: int, options: Mapping[str, object], seed: int, every: int) -> Iterator[LastWillState]:
    """Every ``every``-th position of a random game (out-of-turn coin on), and its end."""
    run = random_playthrough(RULES, players, seed, options=options, check=False)
    state = RULES.setup(players, run.options, seed)
    for index, (seat, action) in enumerate(run.log):
        if index % every == 0:
            yield RULES.load(RULES.dump(state))
        RULES.apply(state, seat, action)
    yield state


def sample(state: LastWillState, seat: int, seed: int) -> LastWillState:
    return RULES.sample_state(RULES.view(state, seat), seat, seed)


def dumped(state: LastWillState) -> str:
    return canonical(RULES.dump(state))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize(
    "options", MODES, ids=lambda o: ",".join(f"{k}={v}" for k, v in o.items()) or "default"
)
def test_a_sample_shows_its_seat_what_it_saw_and_offers_the_same_moves(
    players: int, options: Mapping[str, object]
) -> None:
    phases: set[str] = set()
    choices: set[tuple[str, str, bool]] = set()
    seeds = (1, 2) if not options else (3,)
    for seed in seeds:
        for index, state in enumerate(positions(players, options, seed, every=3)):
            phases.add(state.phase)
            for seat in range(players):
                view = RULES.view(state, seat)
                found = RULES.sample_state(view, seat, 1000 + index)
                assert canonical(RULES.view(found, seat)) == canonical(view)
                assert RULES.legal_actions(found, seat) == RULES.legal_actions(state, seat)
                assert RULES.waiting_for(found) == RULES.waiting_for(state)
                assert RULES.invariants(found) == []
                assert dumped(RULES.load(RULES.dump(found))) == dumped(found)
                assert dumped(RULES.sample_state(view, seat, 1000 + index)) == dumped(found)
                if state.pending is not None:
                    choices.add((state.phase, state.pending.step, state.pending.seat == seat))
    expected = set(PHASES) - {PICK} if options.get("employment") != "handicap" else set(PHASES)
    if players == 2 and options == {"expansion": False}:
        expected.discard(DISCARD)  # nobody outgrows the hand limit in these base games
    assert expected <= phases, expected - phases
    if not options:
        assert {(ERRANDS, True), (ACTIONS, True), (ACTIONS, False)} <= {(p, own) for p, _, own in choices}


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_play_goes_on_from_a_sample_to_the_end(players: int) -> None:
    for index, state in enumerate(positions(players, {}, 7, every=60)):
        for seat in RULES.waiting_for(state) or {0}:
            found = sample(state, seat, index)
            play_out(RULES, found, index)
            assert RULES.outcome(found) is not None


def test_hidden_parts_differ_from_seed_to_seed_and_the_seats_own_do_not() -> None:
    state = next(s for i, s in enumerate(positions(4, {}, 5, every=1)) if i > 120 and s.phase == ACTIONS)
    samples = [sample(state, 1, seed) for seed in range(6)]
    for found in samples:
        assert found.players[1].hand == state.players[1].hand
        assert [len(p.hand) for p in found.players] == [len(p.hand) for p in state.players]
        assert {d: len(c) for d, c in found.decks.items()} == {d: len(c) for d, c in state.decks.items()}
    assert len({tuple(tuple(sorted(p.hand)) for p in s.players) for s in samples}) > 1
    assert len({tuple(s.decks["event"]) for s in samples}) > 1
    assert len({s.rng.seed for s in samples}) == len(samples)
    assert all(s.rng != state.rng for s in samples)


def test_deck_cards_are_of_their_deck_and_special_decks_keep_their_crown_layers() -> None:
    for index, state in enumerate(positions(3, {}, 11, every=25)):
        found = sample(state, index % 3, index)
        for deck, cards in found.decks.items():
            assert all(DECK_OF[c] == deck for c in cards), deck
        for deck in (data.Deck.SPECIAL, data.Deck.NEW_SPECIAL):
            crowns = [data.CARDS[c].crowns for c in found.decks[deck.value]]
            assert crowns == sorted(crowns, reverse=True), "1-crown cards on top (the end)"
            assert sorted(crowns) == sorted(data.CARDS[c].crowns for c in state.decks[deck.value])


def test_two_tables_differing_only_in_hidden_things_give_the_same_sample() -> None:
    """Seat 1 sees the same view of both tables, so its samples are the same: nothing hidden
    (seat 0's hand, seat 2's chosen discards, the deck order, the generator) leaks through."""
    state = new(3, seed=4)
    assert state.phase == DISCARD
    act(state, 2, f"discard.{state.players[2].hand[0]}")
    twin = RULES.load(RULES.dump(state))
    mine, deep = twin.players[0].hand[0], twin.decks["property"][0]
    assert DECK_OF[mine] == "property"
    twin.players[0].hand[0], twin.decks["property"][0] = deep, mine
    thrown = twin.held[2][0]
    pile = twin.decks[DECK_OF[thrown]]
    twin.held[2][0], pile[1] = pile[1], thrown
    twin.decks["event"].reverse()
    twin.rng = Rng(99)
    assert dumped(twin) != dumped(state)
    assert canonical(RULES.view(twin, 1)) == canonical(RULES.view(state, 1))
    for seed in range(4):
        assert dumped(sample(state, 1, seed)) == dumped(sample(twin, 1, seed))
    found = sample(state, 1, 0)
    assert len(found.held[2]) == 1 and found.held[1] == [] and found.need == state.need


def test_another_seats_drawing_split_is_left_unmade() -> None:
    run = random_playthrough(RULES, 3, 2, check=False)
    state = RULES.setup(3, run.options, 2)
    for seat, action in run.log:
        RULES.apply(state, seat, action)
        if state.phase == DRAWING and state.split:
            break
    drawer = state.order[state.cursor]
    other = (drawer + 1) % 3
    assert sample(state, drawer, 1).split == state.split
    found = sample(state, other, 1)
    assert found.split == {}
    assert Action("redraw") in RULES.legal_actions(state, drawer)
    assert Action("redraw") not in RULES.legal_actions(found, drawer)  # nothing named yet
    play_out(RULES, found, 3)


def test_another_seats_personal_secretary_cards_are_dealt_from_the_same_deck() -> None:
    state = table(actions=0)
    put(state, 0, "S1-PS")
    hand(state, 1, "DIN1", "F1")
    act(state, 0, "sec.event")
    assert state.pending is not None
    real = list(state.pending.cards)
    view = RULES.view(state, 1)
    assert view["pending"]["hidden"] == {"deck": "event", "cards": 6} and view["pending"]["cards"] == []
    found = [RULES.sample_state(view, 1, seed) for seed in range(4)]
    for one in found:
        pend = one.pending
        assert pend is not None and pend.seat == 0 and len(pend.cards) == 6
        assert all(DECK_OF[c] == "event" for c in pend.cards)
        assert one.players[1].hand == ["DIN1", "F1"]
    assert any(one.pending is not None and one.pending.cards != real for one in found)
    one = found[0]
    assert one.pending is not None
    act(one, 0, f"pick.{one.pending.cards[0]}")
    play_out(RULES, one, 5)


def test_an_open_errand_choice_keeps_the_errand_turn_where_it_was() -> None:
    """The demotion offered by an errand opens after the errand turn moved on (``errands.place``):
    the sample puts the cursor there too, so the next boy after the answer is the right one."""
    for state in positions(4, {}, 9, every=1):
        if state.phase == ERRANDS and state.pending is not None:
            break
    else:
        raise AssertionError("no errand choice in this game")
    seat = state.pending.seat
    found = sample(state, seat, 3)
    assert found.cursor == state.cursor
    action = RULES.legal_actions(state, seat)[0]
    RULES.apply(state, seat, action)
    RULES.apply(found, seat, action)
    assert RULES.waiting_for(found) == RULES.waiting_for(state)
    assert state.phase != OVER


@pytest.mark.parametrize("options", MODES[:2], ids=["default", "base"])
def test_clone_copies_every_field_and_shares_no_container(options: Mapping[str, object]) -> None:
    """``clone`` writes each field by hand for speed; a field it forgot would show here."""
    for state in positions(4, options, 13, every=17):
        copied = clone(state)
        assert dumped(copied) == dumped(state)
        copied.players[0].hand.append("X")
        copied.decks["event"].clear()
        if copied.players[1].board:
            copied.players[1].board[0].tokens.append("horse")
        if copied.last is not None:
            copied.last["seat"] = 99
        assert dumped(copied) != dumped(state) and dumped(RULES.load(RULES.dump(state))) == dumped(state)
    transient = {"handoff"}  # set and cleared inside one apply, never at rest
    assert set(LastWillState.__dataclass_fields__) - transient == set(RULES.dump(state)) - {"schema"}


def test_samples_of_one_view_reuse_its_reading_but_never_a_changed_view() -> None:
    state = next(s for i, s in enumerate(positions(3, {}, 8, every=1)) if i > 60)
    view = RULES.view(state, 0)
    first = RULES.sample_state(view, 0, 1)
    assert dumped(RULES.sample_state(view, 0, 1)) == dumped(first)
    other = RULES.view(state, 1)
    assert RULES.view(RULES.sample_state(other, 1, 1), 1) == other
    assert dumped(RULES.sample_state(view, 0, 1)) == dumped(first)
