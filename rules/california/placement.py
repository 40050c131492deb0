"""Where a tile may go in a mansion, and why not when it may not.

Kept apart from the turn flow because three callers need the same answer:
``legal_actions`` (what to offer), ``apply`` (what to accept, with the reason
for a refusal) and :func:`rules.california.placements` (what a user interface
lists, with prices, before the player commits).
"""

from __future__ import annotations

from . import data
from .data import COLOUR_NAMES, FURNITURE_NAMES, ROOM_NAMES
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


def tile_name(tile: int) -> str:
    kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
    if kind == ROOM:
        return f"{COLOUR_NAMES[c]} room ({ROOM_NAMES[c]})"
    if kind == FURNITURE:
        return FURNITURE_NAMES[c]
    return "attic expansion"


def space_name(space: int) -> str:
    """``row 2, column 3`` for a 0-based ground-floor space."""
    return f"row {space // data.COLUMNS + 1}, column {space % data.COLUMNS + 1}"


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


def why_not(p: Player, colours: list[int], tile: int, target: Target, placeable: bool) -> str:
    """A sentence for the player saying why ``tile`` may not go to ``target``."""
    kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
    name = tile_name(tile)
    if kind == ROOM:
        colour = COLOUR_NAMES[c]
        if not placeable:
            if all(g >= 0 for g in colours):
                return f"Your ground floor is full, so you cannot buy the {name}."
            return (
                f"Every space next to your {colour} rooms is taken and a second {colour} room must "
                f"touch one, so you cannot buy the {name}."
            )
        if not isinstance(target, int):
            return "A room tile goes on a free space of the ground floor."
        if target == data.PRINTED_SPACE:
            return f"That space holds your mansion's printed {COLOUR_NAMES[colours[target]]} room."
        if colours[target] >= 0:
            return f"There is already a room on {space_name(target)}."
        return (
            f"Your mansion already has a {colour} room, so this one must touch a {colour} room "
            "(not diagonally)."
        )
    if kind == FURNITURE:
        furniture, colour = FURNITURE_NAMES[c], COLOUR_NAMES[c]
        if not placeable:
            return (
                f"You have no empty {colour} room for the {furniture} and no free attic space, "
                "so you cannot buy it."
            )
        if target == EXPAND:
            return "Only the attic expansion goes on the expansion space."
        if target == ATTIC:
            return (
                f"The {furniture} must go into an empty {colour} room; "
                "the attic only takes furniture that has none."
            )
        assert isinstance(target, int)
        if not any(colours[s] == c and p.furniture[s] is None for s in SPACES):
            return f"You have no empty {colour} room, so the {furniture} goes into the attic."
        if colours[target] == c:
            return f"The {colour} room on {space_name(target)} is already furnished."
        return f"The {furniture} only goes into an empty {colour} room; {space_name(target)} is not one."
    if not placeable:
        return "Your attic is already expanded; a mansion takes only one expansion."
    return "The attic expansion goes on the expansion space next to the attic."
