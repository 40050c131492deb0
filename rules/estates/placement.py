"""Placing (or discarding) the piece won at auction; each handler validates fully before acting."""

from __future__ import annotations

from rules.core import Event, IllegalAction
from rules.estates import board, data
from rules.estates.pieces import Args, arity, number, piece_params, row_index, word
from rules.estates.rounds import finish_turn
from rules.estates.state import PLACE, EstatesState


def _hint(state: EstatesState, piece: str) -> IllegalAction:
    """The refusal of an action that does not fit the piece won: it says what the piece is for."""
    if piece in data.TOKEN_CUBE:
        return IllegalAction("place_cube", piece=piece)
    if piece == data.ROOF:
        return IllegalAction("place_roof", value=state.roof_value)
    if piece in data.TOKEN_PERMIT:
        return IllegalAction("use_permit", value=data.TOKEN_PERMIT[piece])
    if piece == data.MAYOR:
        return IllegalAction("use_mayor")
    return IllegalAction("use_cancel")


def _placing(state: EstatesState, seat: int, kinds: tuple[str, ...]) -> str:
    """The piece being placed, after checking it is ``seat``'s to place and fits the action."""
    if state.phase != PLACE:
        raise IllegalAction("nothing_to_place")
    if seat != state.winner:
        raise IllegalAction("not_your_piece")
    piece = state.piece
    assert piece is not None
    kind = str(piece_params(state, piece)["kind"])
    if kind not in kinds:
        raise _hint(state, piece)
    return piece


def place(state: EstatesState, seat: int, args: Args) -> list[Event]:
    arity(args, 2)
    name, lot = word(args, 0), number(args, 1)
    piece = _placing(state, seat, ("cube", "roof"))
    r = row_index(name)
    if not 1 <= lot <= data.LOTS:
        raise IllegalAction("no_such_lot", lots=data.LOTS)
    row = state.rows[r]
    developed = len(row.stacks)
    if piece == data.ROOF:
        if lot > developed:
            raise IllegalAction("no_building", row=name, lot=lot)
        if row.roofs[lot - 1]:
            raise IllegalAction("already_roofed")
        return finish_turn(state, lambda events: _put_roof(state, seat, r, lot, events))
    cube = data.TOKEN_CUBE[piece]
    if lot <= developed:
        if row.roofs[lot - 1]:
            raise IllegalAction("already_roofed")
        if board.WHITE[r][lot]:
            raise IllegalAction("white_dirt")
        top = data.CUBE_NUMBER[row.stacks[lot - 1][-1]]
        if top <= data.CUBE_NUMBER[cube]:
            raise IllegalAction("not_higher", top=top)
    elif lot > developed + 1:
        raise IllegalAction("gap", row=name, lot=developed + 1)
    elif lot > row.requirement:
        raise IllegalAction("row_full", row=name, requirement=row.requirement)
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
        raise IllegalAction("bad_direction")
    value = data.TOKEN_PERMIT[piece]
    longer = direction == data.LONGER
    problem = board.permit_problem(state, r, value, longer)
    if problem is not None:
        raise problem

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
        raise IllegalAction("cancel_needs_permit")
    value = data.TOKEN_PERMIT[token]
    problem = board.cancel_problem(state, value)
    if problem is not None:
        raise problem
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
        raise IllegalAction("keep_cube")
    if piece == data.ROOF:
        raise IllegalAction("keep_roof")

    def act(events: list[Event]) -> None:
        if piece in data.TOKEN_PERMIT:
            state.permits_removed.append(data.TOKEN_PERMIT[piece])
        events.append(Event("discarded", seat, piece_params(state, piece)))

    return finish_turn(state, act)
