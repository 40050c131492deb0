"""Conservation laws a fuzzer checks after every action; each broken one is a sentence."""

from __future__ import annotations

from itertools import pairwise

from rules.estates import board, data
from rules.estates.state import BID, CHOOSE, DECIDE, OVER, PLACE, EstatesState


def invariants(state: EstatesState) -> list[str]:
    problems: list[str] = []
    n = state.players
    # Money: checks only move between hands and cash boxes, never appear or vanish.
    total = sum(state.money) + sum(state.cash_box)
    if total != data.START_MONEY * n:
        problems.append(f"money total is {total}, expected {data.START_MONEY * n}")
    if min(state.money) < 0 or min(state.cash_box) < 0:
        problems.append("a balance went negative")
    # Cubes: each of the 36 in exactly one place.
    on_board = [c for row in state.rows for stack in row.stacks for c in stack]
    shown = [c for line in state.display for c in line]
    if sorted(on_board + shown + state.out_of_game) != list(range(data.CUBE_COUNT)):
        problems.append("floor cubes are not each in exactly one place")
    if len(state.out_of_game) != data.CUBE_COUNT - data.CUBES_DRAWN:
        problems.append("the number of cubes out of the game changed")
    if len(state.display) != data.DISPLAY_ROWS or any(
        len(line) > data.DISPLAY_LENGTH for line in state.display
    ):
        problems.append("the display has the wrong shape")
    # Rooftops: supply + board + the one under auction.
    roofs = list(state.roofs_left) + [v for row in state.rows for v in row.roofs if v]
    if state.piece == data.ROOF and state.roof_value:
        roofs.append(state.roof_value)
    if sorted(roofs) != sorted(data.ROOFTOPS):
        problems.append("rooftops are not each in exactly one place")
    # Permits: supply + board + removed + the one under auction.
    permits = list(state.permits_unused) + list(state.permits_removed)
    permits += [abs(p) for row in state.rows for p in row.permits]
    if state.piece in data.TOKEN_PERMIT:
        permits.append(data.TOKEN_PERMIT[state.piece])
    if sorted(permits) != sorted(data.PERMITS):
        problems.append("building permits are not each in exactly one place")
    if state.mayor_row is not None and state.mayor_available:
        problems.append("the Mayor is both placed and available")
    # Rows.
    for r, row in enumerate(state.rows):
        name = data.ROW_NAMES[r]
        req = row.requirement
        if not data.MIN_REQUIREMENT <= req <= data.MAX_REQUIREMENT:
            problems.append(f"row {name} requirement {req} out of range")
        if row.developed > req:
            problems.append(f"row {name} is built past its requirement")
        if len(row.roofs) != len(row.stacks):
            problems.append(f"row {name} roofs and buildings disagree")
        for i, stack in enumerate(row.stacks):
            numbers = [data.CUBE_NUMBER[c] for c in stack]
            if not stack or any(a <= b for a, b in pairwise(numbers)):
                problems.append(f"row {name} lot {i + 1} is not a falling stack")
            if board.WHITE[r][i + 1] and len(stack) > data.WHITE_DIRT_CAPACITY:
                problems.append(f"row {name} lot {i + 1} has too many cubes on white dirt")
    # Certificates: held exactly for the colours on the board.
    colours_built = {data.CUBE_COLOUR[c] for c in on_board}
    for colour, owner in enumerate(state.certificates):
        if (owner is not None) != (colour in colours_built):
            problems.append(f"the {data.COLOURS[colour]} certificate does not match the board")
        if owner is not None and not 0 <= owner < n:
            problems.append(f"the {data.COLOURS[colour]} certificate has a bad owner")
    # Turn structure.
    if state.phase == CHOOSE and state.piece is not None:
        problems.append("a piece is under auction while choosing")
    if state.phase in (BID, DECIDE, PLACE) and state.piece is None:
        problems.append("no piece while auctioning")
    if state.phase == BID and (state.bidder is None or state.bidder == state.auctioneer):
        problems.append("bad bidder")
    if state.phase == PLACE and state.winner is None:
        problems.append("nobody to place the piece")
    amounts = [a for _s, a in state.bids if a is not None]
    if amounts != sorted(set(amounts)):
        problems.append("bids did not strictly rise")
    if len({s for s, _a in state.bids}) != len(state.bids) or state.auctioneer in {s for s, _a in state.bids}:
        problems.append("a seat bid twice or the auctioneer bid")
    if state.piece in data.TOKEN_CUBE:
        cube = data.TOKEN_CUBE[state.piece]
        if not any(line and cube in (line[0], line[-1]) for line in state.display):
            problems.append("the cube under auction is not at the end of a display row")
    # The end test runs after every change, so a round that should be over never goes on.
    if state.phase != OVER:
        if len(board.complete_rows(state)) >= data.COMPLETE_ROWS_TO_END:
            problems.append("two rows are complete but the round goes on")
        if board.stalled(state):
            problems.append("no building can be completed but the round goes on")
    finished = state.round if state.phase == OVER else state.round - 1
    if len(state.results) != finished:
        problems.append("round results do not match the round number")
    return problems
