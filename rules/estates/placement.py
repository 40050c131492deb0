"""Placing (or discarding) the piece won at auction; each handler validates fully before acting."""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.estates import board, data
from rules.estates.pieces import Args, arity, number, piece_name, piece_params, row_index, word
from rules.estates.rounds import finish_turn
from rules.estates.state import PLACE, EstatesState

_HINTS = {
    "cube": "Place {name} on a lot of the board.",
    "roof": "Place {name} on a building without a rooftop.",
    "permit": "Put {name} in a row (longer or shorter) or discard it.",
    "mayor": "Put the Mayor in front of a row or discard it.",
    "cancel": "Use the Cancel cube on a placed permit or discard it.",
}


def _placing(state: EstatesState, seat: int, kinds: tuple[str, ...]) -> str:
    """The piece being placed, after checking it is ``seat``'s to place and fits the action."""
    if state.phase != PLACE:
        raise IllegalAction("There is no piece to place right now.")
    if seat != state.winner:
        raise IllegalAction("Only the player who got the piece places it.")
    piece = state.piece
    assert piece is not None
    kind = str(piece_params(state, piece)["kind"])
    if kind not in kinds:
        raise IllegalAction(_HINTS[kind].format(name=piece_name(state, piece)))
    return piece


def place(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 2)
    name, lot = word(args, 0), number(args, 1)
    piece = _placing(state, seat, ("cube", "roof"))
    r = row_index(name)
    if not 1 <= lot <= data.LOTS:
        raise IllegalAction(f"Lots are numbered 1 to {data.LOTS}.")
    row = state.rows[r]
    developed = len(row.stacks)
    if piece == data.ROOF:
        if lot > developed:
            raise IllegalAction(f"There is no building on row {name} lot {lot}.")
        if row.roofs[lot - 1]:
            raise IllegalAction("That building already has a rooftop.")
        return finish_turn(state, lambda events: _put_roof(state, seat, r, lot, events))
    cube = data.TOKEN_CUBE[piece]
    if lot <= developed:
        if row.roofs[lot - 1]:
            raise IllegalAction("That building already has a rooftop.")
        if board.WHITE[r][lot]:
            raise IllegalAction("A white-dirt lot holds only one floor cube.")
        top = data.CUBE_NUMBER[row.stacks[lot - 1][-1]]
        if top <= data.CUBE_NUMBER[cube]:
            raise IllegalAction(
                f"A floor cube can only go on a higher number; the top cube there is a {top}."
            )
    elif lot > developed + 1:
        raise IllegalAction(
            f"Row {name} is built from Main Street without gaps; its next empty lot is {developed + 1}."
        )
    elif lot > row.requirement:
        raise IllegalAction(f"Row {name} is limited to {row.requirement} buildings for now.")
    return finish_turn(state, lambda events: _put_cube(state, seat, cube, r, lot, events))


def _put_cube(state: EstatesState, seat: int, cube: int, r: int, lot: int, events: list[Event]) -> None:
    for line in state.display:
        if line and line[0] == cube:
            del line[0]
            break
        if line and line[-1] == cube:
            del line[-1]
            break
    row = state.rows[r]
    if lot > len(row.stacks):
        row.stacks.append([cube])
        row.roofs.append(0)
    else:
        row.stacks[lot - 1].append(cube)
    params = piece_params(state, data.CUBE_TOKEN[cube])
    name = data.ROW_NAMES[r]
    events.append(
        Event("built", seat, {**params, "row": name, "lot": lot, "height": len(row.stacks[lot - 1])})
    )
    colour = data.CUBE_COLOUR[cube]
    if state.certificates[colour] is None:
        state.certificates[colour] = seat
        events.append(
            Event("certificate", seat, {"colour": data.COLOURS[colour], "company": data.COMPANIES[colour]})
        )


def _put_roof(state: EstatesState, seat: int, r: int, lot: int, events: list[Event]) -> None:
    row = state.rows[r]
    row.roofs[lot - 1] = state.roof_value
    params = piece_params(state, data.ROOF)
    value = board.building_value(row, lot - 1)
    events.append(
        Event("roofed", seat, {**params, "row": data.ROW_NAMES[r], "lot": lot, "building_value": value})
    )


def permit(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 2)
    name, direction = word(args, 0), word(args, 1)
    piece = _placing(state, seat, ("permit",))
    r = row_index(name)
    if direction not in (data.LONGER, data.SHORTER):
        raise IllegalAction(f"A permit makes a row {data.LONGER} or {data.SHORTER}.")
    value = data.TOKEN_PERMIT[piece]
    longer = direction == data.LONGER
    problem = board.permit_problem(state, r, value, longer)
    if problem is not None:
        raise IllegalAction(problem)

    def act(events: list[Event]) -> None:
        row = state.rows[r]
        row.permits.append(value if longer else -value)
        params = piece_params(state, piece)
        events.append(
            Event(
                "permit_placed",
                seat,
                {
                    **params,
                    "row": name,
                    "direction": direction,
                    "requirement": row.requirement,
                    "lot": row.requirement + 1,
                },
            )
        )

    return finish_turn(state, act)


def mayor(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 1)
    name = word(args, 0)
    piece = _placing(state, seat, ("mayor",))
    r = row_index(name)

    def act(events: list[Event]) -> None:
        state.mayor_row = r
        events.append(Event("mayor_placed", seat, {**piece_params(state, piece), "row": name}))

    return finish_turn(state, act)


def cancel(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 1)
    token = word(args, 0)
    piece = _placing(state, seat, ("cancel",))
    if token not in data.TOKEN_PERMIT:
        raise IllegalAction("The Cancel cube can only remove a building permit.")
    value = data.TOKEN_PERMIT[token]
    problem = board.cancel_problem(state, value)
    if problem is not None:
        raise IllegalAction(problem)
    r = board.permit_row(state, value)
    assert r is not None

    def act(events: list[Event]) -> None:
        row = state.rows[r]
        row.permits.remove(value if value in row.permits else -value)
        state.permits_removed.append(value)
        params = piece_params(state, piece)
        events.append(
            Event(
                "permit_cancelled",
                seat,
                {**params, "value": value, "row": data.ROW_NAMES[r], "requirement": row.requirement},
            )
        )

    return finish_turn(state, act)


def discard(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 0)
    piece = _placing(state, seat, ("permit", "mayor", "cancel", "cube", "roof"))
    if piece in data.TOKEN_CUBE:
        raise IllegalAction("A floor cube must be placed; it cannot be discarded.")
    if piece == data.ROOF:
        raise IllegalAction("A rooftop must be placed; it cannot be discarded.")

    def act(events: list[Event]) -> None:
        if piece in data.TOKEN_PERMIT:
            state.permits_removed.append(data.TOKEN_PERMIT[piece])
        events.append(Event("discarded", seat, piece_params(state, piece)))

    return finish_turn(state, act)
