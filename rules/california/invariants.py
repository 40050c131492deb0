"""Conservation laws and impossible positions, for fuzzers and for ``load``.

The physical piles the rulebook counts are all checked: the 88 tiles (each in
exactly one place), money (players + bank == what the unlimited stock paid out
minus what it took back), the 6 guests, the 30 gifts, the 5 loan markers and
the 11 bonus cards.  Placement rules are checked too, as consequences that can
only hold if every placement was legal (each colour's rooms touch, furniture
matches its room, nothing waits in the attic next to an empty room of its colour).
"""

from __future__ import annotations

from . import data
from .data import COLOURS
from .placement import NEIGHBOURS, SPACES, TARGETS, attic_capacity, furniture_counts, grid
from .state import EXPANSION, FURNITURE, ROOM, TILE_COLOUR, TILE_KIND, State


def invariants(state: State) -> list[str]:
    """Broken laws as sentences; empty when all hold."""
    n = state.n
    boards = [p.board for p in state.players]
    if len(set(boards)) != n or not all(0 <= b < len(data.BOARD_PRINTED_COLOURS) for b in boards):
        return [f"mansion boards {boards} are not distinct boards of the box"]
    bad = _tiles(state)
    if bad:
        return bad  # the per-mansion checks would only repeat it, or index out of range
    for s, p in enumerate(state.players):
        colours = grid(p)
        if p.rooms[data.PRINTED_SPACE] is not None:
            bad.append(f"seat {s} has a room tile on the printed room")
        for sp in SPACES:
            r, f = p.rooms[sp], p.furniture[sp]
            if r is not None and TILE_KIND[r] != ROOM:
                bad.append(f"seat {s} space {sp} holds a non-room tile as a room")
            if f is not None and (TILE_KIND[f] != FURNITURE or TILE_COLOUR[f] != colours[sp]):
                bad.append(f"seat {s} space {sp} holds furniture that does not match its room")
        for c, key in enumerate(COLOURS):
            rooms = {sp for sp in SPACES if colours[sp] == c}
            if rooms and not _connected(rooms):
                bad.append(f"seat {s} has {key} rooms that do not touch")
        if len(p.attic) > attic_capacity(p):
            bad.append(f"seat {s} has more furniture in the attic than attic spaces")
        for t in p.attic:
            if TILE_KIND[t] != FURNITURE:
                bad.append(f"seat {s} has a non-furniture tile in the attic")
            elif any(colours[sp] == TILE_COLOUR[t] and p.furniture[sp] is None for sp in SPACES):
                bad.append(
                    f"seat {s} keeps {COLOURS[TILE_COLOUR[t]]} furniture in the attic beside an empty room"
                )
        if p.expansion is not None and TILE_KIND[p.expansion] != EXPANSION:
            bad.append(f"seat {s} has a non-expansion tile on the expansion space")

    held = sum(p.money for p in state.players) + state.bank * data.GOLD
    if held != state.minted - state.returned:
        bad.append(
            f"money is not conserved: {held} silver held, {state.minted - state.returned} issued by the stock"
        )
    if any(p.money < 0 for p in state.players):
        bad.append("a player has negative money")
    if not 0 <= state.bank <= data.BANK_SPACES or (not state.over and state.bank == 0):
        bad.append(f"the bank holds {state.bank} coins")

    for c, host in enumerate(state.guests):
        if host is None:
            continue
        if not 0 <= host < n:
            bad.append(f"the {COLOURS[c]} guest visits seat {host}, who is not at the table")
        elif furniture_counts(state.players[host])[c] == 0:
            bad.append(f"the {COLOURS[c]} guest visits seat {host}, who has no {COLOURS[c]} furniture")
    if state.gift_supply < 0 or state.gift_supply + sum(p.gifts for p in state.players) != data.GIFTS:
        bad.append("gifts are not conserved")
    if state.loan_supply < 0 or state.loan_supply + sum(p.loan for p in state.players) != data.LOAN_MARKERS:
        bad.append("loan markers are not conserved")
    for card, owner in enumerate(state.bonus):
        if owner is None:
            continue
        if not 0 <= owner < n:
            bad.append(f"bonus card {card} is with seat {owner}, who is not at the table")
        elif not all(
            have >= need
            for have, need in zip(
                furniture_counts(state.players[owner]), data.BONUS_CARDS[card][1], strict=True
            )
        ):
            bad.append(f"seat {owner} holds bonus card {card} without its furniture")
    if not 1 <= state.day <= data.DAYS or not 0 <= state.turn < n:
        bad.append(f"day {state.day} or turn {state.turn} out of range")
    bad.extend(_last_move(state))
    return bad


def _last_move(state: State) -> list[str]:
    """The last move names a seat at the table and, for a purchase, a real store slot and target."""
    last = state.last
    if last is None:
        return []
    seat = last.get("seat")
    if not isinstance(seat, int) or not 0 <= seat < state.n:
        return [f"the last move was made by seat {seat!r}, who is not at the table"]
    if last.get("action") == "buy":
        store, slot, tile = last.get("store"), last.get("slot"), last.get("tile")
        if not (
            isinstance(store, int)
            and 0 <= store < data.STORES
            and isinstance(slot, int)
            and 0 <= slot < data.STORE_SLOTS
            and isinstance(tile, int)
            and 0 <= tile < data.TILE_COUNT
            and last.get("target") in TARGETS
        ):
            return [f"the last purchase {last!r} names no real store slot, tile or target"]
    return []


def _tiles(state: State) -> list[str]:
    places: list[int] = [*state.stack, *state.bag]
    for tiles in state.stores:
        places.extend(t for t in tiles if t is not None)
    for p in state.players:
        places.extend(t for t in p.rooms if t is not None)
        places.extend(t for t in p.furniture if t is not None)
        places.extend(p.attic)
        if p.expansion is not None:
            places.append(p.expansion)
    if sorted(places) != list(range(data.TILE_COUNT)):
        return [
            f"tiles are not each in exactly one place ({len(places)} placed, {len(set(places))} distinct)"
        ]
    return []


def _connected(spaces: set[int]) -> bool:
    start = next(iter(spaces))
    seen, todo = {start}, [start]
    while todo:
        for x in NEIGHBOURS[todo.pop()]:
            if x in spaces and x not in seen:
                seen.add(x)
                todo.append(x)
    return seen == spaces
