"""Where a tile may go in a mansion, and why not when it may not.

Kept apart from the turn flow because three callers need the same answer:
``legal_actions`` (what to offer), ``apply`` (what to accept, with the reason
for a refusal) and :func:`rules.california.placements` (what a user interface
lists, with prices, before the player commits).
"""

from __future__ import annotations

from typing import NoReturn

from rules.core import IllegalAction

from . import data
from .data import COLOURS
from .state import FURNITURE, ROOM, TILE_COLOUR, TILE_KIND, Player

ATTIC = "attic"
EXPAND = "expansion"
TARGETS: tuple[int | str, ...] = (*range(data.SPACES), ATTIC, EXPAND)
"""Every place a tile can be put: ground-floor spaces 0..15, the attic, the expansion space."""

Target = int | str

SPACES = range(data.SPACES)
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(
        (r + dr) * data.COLUMNS + (c + dc)
        for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1))
        if 0 <= r + dr < data.ROWS and 0 <= c + dc < data.COLUMNS
    )
    for r in range(data.ROWS)
    for c in range(data.COLUMNS)
)


def fees(players: int) -> tuple[int, ...]:
    """Fee in silver of each ground-floor space on the board side in play."""
    return data.FEES[data.board_side(players)]


def grid(p: Player) -> list[int]:
    """Room colour of each ground-floor space (the printed room included), -1 if none."""
    colours = [-1 if t is None else TILE_COLOUR[t] for t in p.rooms]
    colours[data.PRINTED_SPACE] = p.printed_colour
    return colours


def attic_capacity(p: Player) -> int:
    return data.ATTIC_SPACES if p.expansion is not None else 1


def furniture_counts(p: Player) -> list[int]:
    """Furniture per colour on the ground floor (the attic never counts)."""
    counts = [0] * len(data.COLOURS)
    for t in p.furniture:
        if t is not None:
            counts[TILE_COLOUR[t]] += 1
    return counts


def targets(players: int, p: Player, colours: list[int], tile: int) -> list[tuple[Target, int]]:
    """Every legal place for ``tile`` in ``p``'s mansion, with the fee due there.

    ``colours`` is ``grid(p)``, passed in so a caller checking several tiles
    builds it once.
    """
    kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
    if kind == ROOM:
        fee = fees(players)
        if c in colours:
            return [
                (s, fee[s]) for s in SPACES if colours[s] < 0 and any(colours[x] == c for x in NEIGHBOURS[s])
            ]
        return [(s, fee[s]) for s in SPACES if colours[s] < 0]
    if kind == FURNITURE:
        rooms: list[tuple[Target, int]] = [
            (s, 0) for s in SPACES if colours[s] == c and p.furniture[s] is None
        ]
        if rooms:
            return rooms
        return [(ATTIC, 0)] if len(p.attic) < attic_capacity(p) else []
    return [(EXPAND, 0)] if p.expansion is None else []


def refuse_placement(p: Player, colours: list[int], tile: int, target: Target, placeable: bool) -> NoReturn:
    """Raise the :class:`IllegalAction` that says why ``tile`` may not go to ``target``.

    ``placeable``: whether the tile has any legal place at all (if not, that is the reason).
    Params are tokens the presenter names: ``tile`` (the tile id), ``room`` (the colour key of
    the room meant), ``space`` (0..15).
    """
    kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
    if kind == ROOM:
        room = COLOURS[c]
        if not placeable:
            if all(g >= 0 for g in colours):
                raise IllegalAction("floor_full", tile=tile)
            raise IllegalAction("no_space_by_colour", room=room)
        if not isinstance(target, int):
            raise IllegalAction("room_on_ground_floor")
        if target == data.PRINTED_SPACE:
            raise IllegalAction("printed_room", room=COLOURS[colours[target]])
        if colours[target] >= 0:
            raise IllegalAction("space_taken", space=target)
        raise IllegalAction("must_touch", room=room)
    if kind == FURNITURE:
        room = COLOURS[c]
        if not placeable:
            raise IllegalAction("furniture_nowhere", tile=tile, room=room)
        if target == EXPAND:
            raise IllegalAction("expansion_only")
        if target == ATTIC:
            raise IllegalAction("furniture_not_attic", tile=tile, room=room)
        assert isinstance(target, int)
        if not any(colours[s] == c and p.furniture[s] is None for s in SPACES):
            raise IllegalAction("furniture_to_attic", tile=tile, room=room)
        if colours[target] == c:
            raise IllegalAction("room_furnished", room=room, space=target)
        raise IllegalAction("not_that_room", tile=tile, room=room, space=target)
    if not placeable:
        raise IllegalAction("already_expanded")
    raise IllegalAction("expansion_space")
