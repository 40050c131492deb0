"""Where a tile may go in a mansion, and why not when it may not.

Kept apart from the turn flow because three callers need the same answer:
``legal_actions`` (what to offer), ``apply`` (what to accept, with the reason
for a refusal) and :func:`rules.california.placements` (what a user interface
lists, with prices, before the player commits).
"""

from __future__ import annotations

from dataclasses import dataclass, field
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


Option = tuple[int, int]
"""A legal place for a tile as (index into :data:`TARGETS`, fee in silver)."""


@dataclass(slots=True)
class Layout:
    """A mansion's ground floor as 16-bit masks (bit ``s`` is space ``s``): what placement asks.

    Placement questions are set operations (empty spaces touching a colour, rooms of a colour
    without furniture), and bots' playouts ask them thousands of times a second, so the floor
    is read once into masks and each question is a few integer operations.
    """

    empty: int  # spaces with no room (the printed room is never empty)
    rooms: tuple[int, ...]  # per colour: spaces holding a room of that colour, the printed one included
    furnished: int  # spaces holding furniture
    answers: dict[int, tuple[Option, ...]] = field(default_factory=dict, compare=False, repr=False)
    """Memo for ``legal_actions``: :func:`question` -> :func:`options`' answer on this floor.  A
    floor stays as it is for several turns, and its layout is shared by every state that has
    it, so the same tiles are asked about again and again."""


ATTIC_INDEX, EXPAND_INDEX = TARGETS.index(ATTIC), TARGETS.index(EXPAND)
_BIT = tuple(1 << s for s in SPACES)
_PRINTED_BIT = _BIT[data.PRINTED_SPACE]
_FULL = (1 << data.SPACES) - 1
_NOT_LAST_COLUMN = sum(_BIT[s] for s in SPACES if s % data.COLUMNS != data.COLUMNS - 1)
_NOT_FIRST_COLUMN = sum(_BIT[s] for s in SPACES if s % data.COLUMNS != 0)
_ATTIC_OPTION: tuple[Option, ...] = ((ATTIC_INDEX, 0),)
_EXPAND_OPTION: tuple[Option, ...] = ((EXPAND_INDEX, 0),)
_FEE_TABLES: tuple[tuple[int, ...], ...] = (*data.FEES.values(), (0,) * data.SPACES)
"""Fee per space: one table per board side, then all zeros (furniture pays no fee)."""
_ROOM_FEES = {
    n: list(data.FEES).index(data.board_side(n)) << data.SPACES
    for n in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)
}
"""Per player count, the fee table rooms pay by, as the high part of a :data:`_SPACE_OPTIONS` key."""
_NO_FEE = (len(_FEE_TABLES) - 1) << data.SPACES
_SPACE_OPTIONS: dict[int, tuple[Option, ...]] = {}
"""Memo: ``fee table << 16 | mask of spaces`` -> those spaces with their fees, in space order.
A pure function of its key, filled as positions meet new masks (a few thousand at most in
practice)."""
_SPACES_OF_BYTE = tuple(tuple(s for s in range(8) if byte >> s & 1) for byte in range(256))
"""The bits set in each byte: a new mask's spaces are read a byte at a time."""


_LAYOUTS: dict[tuple[int | None, ...], Layout] = {}
"""Memo: a floor (board, room and furniture tiles) -> its :class:`Layout`.  Legal moves, the
purchase itself and a bot's quick move all ask about the same floor on every move, and states
sampled from one view share their floors, so most questions are answered from here."""
_LAYOUTS_LIMIT = 50_000
"""Entries kept before the memo starts afresh (bounds its memory, a few tens of MB)."""


_LAST: dict[int, tuple[list[int | None], list[int | None], int, Layout]] = {}
"""The layout last found for each :class:`Player` object (by ``id``), with a copy of the floor
(rooms, furniture, board) it was found for.  A floor changes only when its player buys, so on
most calls the copy still matches, and comparing two lists is cheaper than hashing the floor's
33 values for :data:`_LAYOUTS`; after a purchase the engine records the new layout here
(:func:`remember`), worked out from the old one.  An entry may outlive its player and its id
be reused: the comparison makes that harmless, since a layout depends on the floor alone."""


def layout(p: Player) -> Layout:
    """The masks of ``p``'s ground floor (see :class:`Layout`); shared, never to be changed."""
    last = _LAST.get(id(p))
    if last is not None and last[0] == p.rooms and last[1] == p.furniture and last[2] == p.board:
        return last[3]
    key = (p.board, *p.rooms, *p.furniture)
    found = _LAYOUTS.get(key)
    if found is None:
        if len(_LAYOUTS) >= _LAYOUTS_LIMIT:
            _LAYOUTS.clear()
        found = _LAYOUTS[key] = _layout(p)
    remember(p, found)
    return found


def remember(p: Player, plan: Layout) -> None:
    """Record ``plan`` as the layout of ``p``'s floor as it is now (see :data:`_LAST`)."""
    if len(_LAST) >= _LAYOUTS_LIMIT:
        _LAST.clear()
    _LAST[id(p)] = (p.rooms.copy(), p.furniture.copy(), p.board, plan)


def with_room(plan: Layout, space: int, colour: int) -> Layout:
    """``plan`` once a room of ``colour`` is built on the empty ``space``."""
    bit = _BIT[space]
    rooms = plan.rooms
    return Layout(
        plan.empty & ~bit, (*rooms[:colour], rooms[colour] | bit, *rooms[colour + 1 :]), plan.furnished
    )


def with_furniture(plan: Layout, space: int) -> Layout:
    """``plan`` once the room on ``space`` is furnished."""
    return Layout(plan.empty, plan.rooms, plan.furnished | _BIT[space])


def _layout(p: Player) -> Layout:
    empty = 0
    rooms = [0] * len(COLOURS)
    for bit, t in zip(_BIT, p.rooms, strict=True):
        if t is None:
            empty |= bit
        else:
            rooms[TILE_COLOUR[t]] |= bit
    rooms[data.BOARD_PRINTED_COLOURS[p.board]] |= _PRINTED_BIT
    furnished = 0
    for bit, t in zip(_BIT, p.furniture, strict=True):
        if t is not None:
            furnished |= bit
    return Layout(empty & ~_PRINTED_BIT, tuple(rooms), furnished)


def adjacent(mask: int) -> int:
    """The spaces orthogonally next to any space of ``mask`` (the 4 x 4 floor, no wrapping)."""
    return (
        (mask << data.COLUMNS)
        | (mask >> data.COLUMNS)
        | ((mask & _NOT_LAST_COLUMN) << 1)
        | ((mask & _NOT_FIRST_COLUMN) >> 1)
    ) & _FULL


def _space_options(key: int) -> tuple[Option, ...]:
    """Work out and remember the places a :data:`_SPACE_OPTIONS` key names."""
    fee = _FEE_TABLES[key >> data.SPACES]
    mask = key & _FULL
    spaces = (*_SPACES_OF_BYTE[mask & 0xFF], *(s + 8 for s in _SPACES_OF_BYTE[mask >> 8]))
    found = _SPACE_OPTIONS[key] = tuple((s, fee[s]) for s in spaces)
    return found


def options(players: int, p: Player, plan: Layout, tile: int) -> tuple[Option, ...]:
    """Every legal place for ``tile`` in ``p``'s mansion (``plan`` is ``layout(p)``), as
    (target index, fee) pairs in the order of :data:`TARGETS`.

    A room goes on an empty space, touching a room of its colour if the mansion has one;
    furniture into an unfurnished room of its colour, else the attic if a space is free there;
    an attic expansion onto the expansion space if it is free.
    """
    kind, c = TILE_KIND[tile], TILE_COLOUR[tile]
    if kind == ROOM:
        same = plan.rooms[c]
        key = _ROOM_FEES[players] | (plan.empty & adjacent(same) if same else plan.empty)
    elif kind == FURNITURE:
        free = plan.rooms[c] & ~plan.furnished
        if not free:
            return _ATTIC_OPTION if len(p.attic) < attic_capacity(p) else ()
        key = _NO_FEE | free
    else:
        return _EXPAND_OPTION if p.expansion is None else ()
    found = _SPACE_OPTIONS.get(key)  # looked up here, not in _space_options: a call fewer per hit
    return _space_options(key) if found is None else found


_KINDS_AND_COLOURS = sorted({(TILE_KIND[t], TILE_COLOUR[t]) for t in range(data.TILE_COUNT)})
TILE_QUESTION = tuple(
    _KINDS_AND_COLOURS.index((TILE_KIND[t], TILE_COLOUR[t])) << 3 for t in range(data.TILE_COUNT)
)
"""Per tile, its kind and colour as the high bits of a :func:`question` (alike tiles go alike)."""
_SIDE = {n: list(data.FEES).index(data.board_side(n)) for n in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)}


def situation(players: int, p: Player) -> int:
    """What :func:`options` reads beyond the floor and the tile, as the low bits of a
    :func:`question`: the board side in play, whether the attic and the expansion space are free."""
    return _SIDE[players] << 2 | (len(p.attic) < attic_capacity(p)) << 1 | (p.expansion is None)


def question(players: int, p: Player, tile: int) -> int:
    """One int per possible answer of ``options(players, p, layout(p), tile)`` on a given floor:
    the key of :attr:`Layout.answers`."""
    return TILE_QUESTION[tile] | situation(players, p)


def targets(players: int, p: Player, tile: int) -> list[tuple[Target, int]]:
    """Every legal place for ``tile`` in ``p``'s mansion, with the fee due there."""
    return [(TARGETS[index], fee) for index, fee in options(players, p, layout(p), tile)]


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
