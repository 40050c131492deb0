"""California's engine plays exactly as before its speed work.

The engine was made faster for the bots' playouts (precomputed tables, fewer lists per call);
none of that may change a single choice.  This test replays 120 seeded random games (2 to 5
players, idle seats taking loans out of turn as ``random_playthrough`` fuzzes them) and hashes
every action chosen, every event the engine emitted (kind, seat, params, visibility) and every
final dump.  :data:`BEHAVIOUR_HASH` was recorded on the engine before any optimisation
(commit 95f23cd); a different hash means behaviour changed.  Each seat's legal actions at
every step are in the hash too, in order, since random play and bots pick from that list.
Placement now works on bit masks of the floor; a second test checks them, tile by tile,
against the rules as the engine read them before.
"""

from __future__ import annotations

import hashlib

from rules.california import ATTIC, EXPAND, RULES, data, fees
from rules.california.placement import (
    NEIGHBOURS,
    SPACES,
    attic_capacity,
    grid,
    layout,
    options,
    question,
    targets,
)
from rules.california.placement import _layout as read_floor
from rules.california.state import FURNITURE, ROOM, TILE_COLOUR, TILE_KIND, Player
from rules.core import Event
from rules.play import canonical, random_playthrough

BEHAVIOUR_HASH = "912b18c52ec18136fad320074d24fcbfdc1de0b1bfd4ddb88751285b9d1aaf36"
GAMES_PER_COUNT = 30


def _event(event: Event) -> object:
    visible = None if event.visible_to is None else sorted(event.visible_to)
    return [event.kind, event.seat, dict(event.params), visible]


def behaviour_hash() -> str:
    digest = hashlib.sha256()
    for players in (2, 3, 4, 5):
        for seed in range(GAMES_PER_COUNT):
            run = random_playthrough(RULES, players, seed * 31 + players, check=False)
            assert run.finished and not run.failures
            state = RULES.setup(players, {}, seed * 31 + players)
            for seat, action in run.log:
                legal = [
                    [a.kind, list(a.args)] for s in range(players) for a in RULES.legal_actions(state, s)
                ]
                events = [_event(e) for e in RULES.apply(state, seat, action)]
                step = [seat, action.kind, list(action.args), legal, events, sorted(RULES.waiting_for(state))]
                digest.update(canonical(step).encode())
            outcome = RULES.outcome(state)
            assert outcome is not None
            final = [RULES.dump(state), RULES.view(state, None), list(outcome.scores), list(outcome.ranks)]
            digest.update(canonical(final).encode())
    return digest.hexdigest()


def test_every_choice_event_and_final_state_is_as_before_the_speed_work() -> None:
    assert behaviour_hash() == BEHAVIOUR_HASH


def reference_targets(players: int, p: Player, tile: int) -> list[tuple[object, int]]:
    """The placement rules as the engine read them before the masks: a room on an empty space,
    touching its colour if the mansion has it; furniture into an empty room of its colour, else
    the attic if there is space; the expansion if none yet."""
    colours = grid(p)
    kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
    if kind == ROOM:
        fee = fees(players)
        free = [s for s in SPACES if colours[s] < 0]
        if c in colours:
            free = [s for s in free if any(colours[x] == c for x in NEIGHBOURS[s])]
        return [(s, fee[s]) for s in free]
    if kind == FURNITURE:
        rooms: list[tuple[object, int]] = [
            (s, 0) for s in SPACES if colours[s] == c and p.furniture[s] is None
        ]
        return rooms or ([(ATTIC, 0)] if len(p.attic) < attic_capacity(p) else [])
    return [(EXPAND, 0)] if p.expansion is None else []


def test_the_floor_masks_place_every_tile_as_the_rules_say() -> None:
    checked = 0
    for players in (2, 4, 5):
        for seed in range(4):
            for stop in (15, 45, None):  # early, middle and finished floors
                run = random_playthrough(RULES, players, seed, check=False, stop_after=stop)
                for p in run.state.players:
                    for tile in range(data.TILE_COUNT):
                        assert targets(players, p, tile) == reference_targets(players, p, tile)
                        checked += 1
    assert checked > 10_000


def test_the_layout_worked_out_after_a_purchase_is_the_floor_read_afresh() -> None:
    """A purchase works the mansion's new layout out from the old one (``placement.remember``)
    instead of reading the floor again: it must be exactly what reading the floor gives."""
    for players in (2, 3, 4, 5):
        for seed in range(8):
            run = random_playthrough(RULES, players, seed, check=False)
            state = RULES.setup(players, {}, seed)
            for seat, action in run.log:
                RULES.apply(state, seat, action)
                for p in state.players:
                    assert layout(p) == read_floor(p)


def test_a_floor_changed_by_hand_is_read_again() -> None:
    """The layout remembered for a player is checked against its floor, so a floor set up by
    hand (as tests and tools do) is never answered from a stale layout."""
    state = RULES.setup(3, {}, 5)
    p = state.players[0]
    before = layout(p)
    room = next(t for t in state.stack if TILE_KIND[t] == ROOM)
    p.rooms[0] = room
    after = layout(p)
    assert after != before and after == read_floor(p)
    assert after.rooms[TILE_COLOUR[room]] & 1


def test_the_answers_remembered_per_floor_are_the_placement_rules() -> None:
    """``legal_actions`` remembers each floor's placement answers (``Layout.answers``, keyed by
    ``question``); every remembered answer must be what the rules give for that floor now."""
    compared = 0
    for players in (2, 3, 4, 5):
        for seed in range(6):
            run = random_playthrough(RULES, players, seed, check=False, stop_after=60)
            for p in run.state.players:
                plan = layout(p)
                for tile in range(data.TILE_COUNT):
                    remembered = plan.answers.get(question(players, p, tile))
                    if remembered is not None:
                        assert remembered == options(players, p, read_floor(p), tile)
                        compared += 1
    assert compared > 100
