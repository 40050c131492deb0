"""Board geometry and scoring: where pieces may go, which rows are complete, who scores what.

Kept apart from the turn flow so ``legal_actions``, ``apply``, the end test
and the spectator view all ask the very same questions.  Rows and lots are
0-based indexes here except where noted; players see row letters and lots 1-10.
"""

from __future__ import annotations

from rules.core import IllegalAction
from rules.estates import data
from rules.estates.state import EstatesState, Row

# WHITE[row][lot] for 1-based lots (index 0 unused), so the hot path is one tuple lookup.
WHITE: tuple[tuple[bool, ...], ...] = tuple(
    tuple(lot in white for lot in range(data.LOTS + 1)) for white in data.WHITE_DIRT
)


def can_stack(row_index: int, row: Row, lot_index: int, number: int) -> bool:
    """Whether a cube numbered ``number`` may go on the existing building at ``lot_index``."""
    return (
        not row.roofs[lot_index]
        and not WHITE[row_index][lot_index + 1]
        and data.CUBE_NUMBER[row.stacks[lot_index][-1]] > number
        and len(row.stacks[lot_index]) < data.MAX_STACK
    )


def cube_spots(state: EstatesState, cube: int) -> list[tuple[int, int]]:
    """Every (row index, 1-based lot) where ``cube`` may be placed now."""
    number = data.CUBE_NUMBER[cube]
    spots: list[tuple[int, int]] = []
    for r, row in enumerate(state.rows):
        developed = len(row.stacks)
        for i in range(developed):
            if can_stack(r, row, i, number):
                spots.append((r, i + 1))
        if developed < row.requirement:
            spots.append((r, developed + 1))
    return spots


def cube_has_spot(state: EstatesState, cube: int) -> bool:
    number = data.CUBE_NUMBER[cube]
    for r, row in enumerate(state.rows):
        if len(row.stacks) < row.requirement:
            return True
        for i in range(len(row.stacks)):
            if can_stack(r, row, i, number):
                return True
    return False


def selectable_cubes(state: EstatesState) -> list[int]:
    """End cubes of the display rows that could be placed (the only cubes one may auction)."""
    found: list[int] = []
    for line in state.display:
        if not line:
            continue
        ends = (line[0],) if len(line) == 1 else (line[0], line[-1])
        for cube in ends:
            if cube_has_spot(state, cube):
                found.append(cube)
    return found


def unroofed(state: EstatesState) -> list[tuple[int, int]]:
    """(row index, 1-based lot) of every building still waiting for a rooftop."""
    return [(r, i + 1) for r, row in enumerate(state.rows) for i, roof in enumerate(row.roofs) if not roof]


def has_unroofed(state: EstatesState) -> bool:
    return any(0 in row.roofs for row in state.rows)


def row_complete(row: Row) -> bool:
    requirement = row.requirement
    if requirement == 0:
        return data.ZERO_LENGTH_ROW_COMPLETE
    return len(row.stacks) == requirement and all(row.roofs)


def complete_rows(state: EstatesState) -> list[int]:
    return [r for r, row in enumerate(state.rows) if row_complete(row)]


def permit_problem(state: EstatesState, row_index: int, value: int, longer: bool) -> IllegalAction | None:
    """Why permit ``value`` may not lengthen/shorten this row (the refusal to raise), or None when it
    may.  ``legal_actions`` asks the same question, so the list and the refusals never disagree."""
    row = state.rows[row_index]
    name = data.ROW_NAMES[row_index]
    now = row.requirement
    new = now + value if longer else now - value
    if new > data.MAX_REQUIREMENT:
        return IllegalAction("row_too_long", row=name, maximum=data.MAX_REQUIREMENT, now=now)
    if new < data.MIN_REQUIREMENT:
        return IllegalAction("row_too_short", row=name, value=value, now=now)
    if new < len(row.stacks):
        return IllegalAction("row_has_buildings", row=name, value=value, new=new, buildings=len(row.stacks))
    return None


def permit_row(state: EstatesState, value: int) -> int | None:
    for r, row in enumerate(state.rows):
        if value in row.permits or -value in row.permits:
            return r
    return None


def cancel_problem(state: EstatesState, value: int) -> IllegalAction | None:
    """Why the Cancel cube may not remove permit ``value`` (the refusal to raise), or None when it may."""
    r = permit_row(state, value)
    if r is None:
        return IllegalAction("permit_not_placed", value=value)
    row = state.rows[r]
    signed = value if value in row.permits else -value
    new = row.requirement - signed
    if new < len(row.stacks):
        return IllegalAction(
            "cancel_too_short", value=value, row=data.ROW_NAMES[r], buildings=len(row.stacks)
        )
    return None


def permits_in_hand(state: EstatesState) -> list[int]:
    """Permits not yet on the board nor removed: the supply plus the one under auction, if any."""
    permits = list(state.permits_unused)
    if state.piece in data.TOKEN_PERMIT:
        permits.append(data.TOKEN_PERMIT[state.piece])
    return permits


def permit_could_open(state: EstatesState) -> bool:
    """Whether some unused permit could legally lengthen some row, opening a lot (``R + v <= 9``)."""
    return any(
        row.requirement + value <= data.MAX_REQUIREMENT
        for value in permits_in_hand(state)
        for row in state.rows
    )


def stalled(state: EstatesState) -> bool:
    """The corrected "no more buildings can be completed" test (components page, End and scoring).

    True when no rooftop remains; or no unroofed building stands and no floor cube is left to
    place; or no unroofed building stands and no remaining floor cube could be placed even after
    an unused permit lengthened a row.  A piece under auction still counts as remaining (the
    revealed rooftop, the picked permit; a picked cube stays in its display row until placed), so
    the answer is the same at every moment of a turn and the engine may ask after any action.
    The Cancel cube is not counted as opening a lot, as the page words the test.
    """
    if not state.roofs_left and state.piece != data.ROOF:
        return True
    if has_unroofed(state):
        return False
    cubes = [cube for line in state.display for cube in line]
    if not cubes:
        return True
    if any(cube_has_spot(state, cube) for cube in cubes):
        return False
    # Every row is built up to its requirement (else any cube would fit a new lot), so a permit
    # that lengthens a row opens a lot for any cube: the question is only whether one can.
    return not permit_could_open(state)


def building_value(row: Row, lot_index: int) -> int:
    return sum(data.CUBE_NUMBER[c] for c in row.stacks[lot_index]) + row.roofs[lot_index]


def row_buildings(state: EstatesState, row_index: int) -> list[tuple[int, int, int | None, int]]:
    """(1-based lot, value, owner seat or None, signed points) per building if the round ended now."""
    row = state.rows[row_index]
    sign = 1 if row_complete(row) else -1
    factor = data.MAYOR_MULTIPLIER if state.mayor_row == row_index else 1
    out: list[tuple[int, int, int | None, int]] = []
    for i, stack in enumerate(row.stacks):
        value = building_value(row, i)
        owner = state.certificates[data.CUBE_COLOUR[stack[-1]]]
        out.append((i + 1, value, owner, sign * factor * value if owner is not None else 0))
    return out


def building_points(state: EstatesState) -> list[int]:
    points = [0] * state.players
    for r in range(len(state.rows)):
        for _lot, _value, owner, signed in row_buildings(state, r):
            if owner is not None:
                points[owner] += signed
    return points
