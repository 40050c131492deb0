"""What a bot player knows about Estates positions: cheap valuations for ``rules.search``.

The Estates is scored at the end of the round: every building counts for the holder of its top
cube's colour, plus in a complete row, minus in an incomplete one, doubled in the Mayor's row,
and every stowed check is a point.  Money in hand scores nothing, it only buys pieces and stows.
A position is therefore judged by what the buildings *will* be worth, which depends on which
rows are likely to be complete when the round ends (two complete rows end it):

- :func:`row_chances`: the chance each row ends complete.  When the round ends with two rows
  complete, the row needing the most work (a cube and a rooftop per missing lot, a rooftop per
  unroofed building) is the likely loser; but when the two cheapest rows together need about
  as many rooftops as are left, the rooftops may run out first (a stall) and every row not yet
  complete scores negative.  Against random players, missing that cost a bot most of its lost
  games (buildings it owned in rows that never finished).
- :func:`expected_points`: per seat, each building's value times its multiplier times
  ``2p - 1`` (the expected sign of its row), so a building in a row that is sure to complete
  counts fully and one in the likely loser counts against its owner.
- :func:`standing`: expected building points, the cash box, and the money in hand at nearly a
  point a check while there are turns left to stow it, little beyond (money is worth nothing
  at the end).
- :func:`piece_value`: what the piece on offer brings ``seat`` if it wins it and places it as
  well as it can (the best change in its expected points), less a small risk margin: this is
  what a bid is weighed against.

The search's :class:`EstatesHints` use these; :func:`auction_check` tells the bot benchmark when
bidding was profitable (it asks before every move of the normal bot).  Everything here reads
public information and the seat's own money only, so a sampled state and the real one give the
same valuation for the seat whose view the sample came from.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from rules.core import Action
from rules.estates import board, data
from rules.estates.pieces import (
    BIDS,
    CANCEL_PERMIT,
    DISCARD,
    MAYOR_AT,
    PASS,
    PERMIT_AT,
    PLACE_AT,
    STOW,
    min_bid,
)
from rules.estates.state import BID, CHOOSE, PLACE, EstatesState
from rules.rng import Rng
from rules.search import PlainHints

ROW_TAU = 2.0
"""How sharply the row needing the most work is taken for the loser (a softmax temperature over
the pieces each row still needs): 2 means a row two pieces behind another is e (~2.7) times more
likely to be the one left incomplete."""
STOW_WEIGHT = 0.9
"""Points a check in hand is worth while its owner still has a turn to stow it in: a stow turns
it into a point, one a turn."""
SPARE_WEIGHT = 0.2
"""Points a check in hand is worth beyond those it can still stow: it scores nothing at the end
and only buys pieces (and breaks ties)."""
ROOF_SLACK = 1.0
"""Rooftops a round is expected to spend on the row left incomplete before the two others are
done: the stall test compares what is left with the two cheapest rows' needs plus this."""
ROOF_SCALE = 1.5
"""How soft that comparison is (a logistic's scale, in rooftops)."""
WASTE = 1.5
"""Turns a round takes per piece its two nearest rows still need: not every turn builds there."""
RISK = 1.0
"""Taken off a piece's value before bidding on it: the rows' chances move as the game goes on."""
STOW_RESERVE = 1
"""A bot keeps at least this much in hand when it stows: a point now, with a minimum bid left."""
BID_STEPS = 3
"""Bid amounts searched between the minimum and the piece's value (besides those two)."""
MAX_PICKS = 6
"""Pieces a searching auctioneer considers auctioning, the most valuable first."""
MAX_PLACEMENTS = 6
"""Placements of a won piece searched, the best for the placing seat first."""


def row_chances(state: EstatesState) -> list[float]:
    """The chance each row is complete when the round ends.

    Two endings are weighed.  Two rows complete: the row needing the most work is the likely
    loser (a softmax over the work left, :data:`ROW_TAU`), among the rows that can still be
    completed at all.  The rooftops run out first (a stall, where every row not complete by then
    scores negative): likely when the two cheapest rows together need about as many rooftops
    as are left, since rooftops also go to the third row (:data:`ROOF_SLACK`, :data:`ROOF_SCALE`);
    in a stall only a row already complete, or else the cheapest one, may end complete.
    """
    work = row_work(state)
    complete = [w.complete for w in work]
    roofs = len(state.roofs_left) + (1 if state.piece == data.ROOF else 0)
    cubes = sum(len(line) for line in state.display)
    able = [w.complete or (w.roofs <= roofs and w.lots <= cubes) for w in work]
    if sum(able) < data.COMPLETE_ROWS_TO_END:
        return [1.0 if c else 0.0 for c in complete]
    if all(able):
        weights = [math.exp(w.pieces / ROW_TAU) for w in work]
        total = sum(weights)
        both = [1.0 - x / total for x in weights]
    else:
        both = [1.0 if a else 0.0 for a in able]
    needs = sorted(w.roofs for w, a in zip(work, able, strict=True) if a)
    ending = _likely(roofs - sum(needs[: data.COMPLETE_ROWS_TO_END]))
    # A stall leaves at most one row complete: the one complete now, else perhaps the cheapest.
    stall = [float(c) for c in complete]
    if not any(complete):
        cheapest = min((r for r in range(len(work)) if able[r]), key=lambda r: work[r].roofs)
        stall[cheapest] = _likely(roofs - work[cheapest].roofs)
    return [ending * b + (1.0 - ending) * x for b, x in zip(both, stall, strict=True)]


def _likely(spare: int) -> float:
    """The chance that ``spare`` rooftops (beyond a need) suffice, rooftops going astray too."""
    return 1.0 / (1.0 + math.exp(-(spare - ROOF_SLACK) / ROOF_SCALE))


@dataclass(frozen=True, slots=True)
class RowWork:
    """What a row still needs: ``lots`` to build (a cube each), ``roofs`` (one per missing lot
    and unroofed building), and both as ``pieces`` (turns of work)."""

    complete: bool
    lots: int
    roofs: int

    @property
    def pieces(self) -> int:
        return self.lots + self.roofs


def row_work(state: EstatesState) -> list[RowWork]:
    """Each row's :class:`RowWork` (a complete row needs nothing, even if a permit may reopen it)."""
    out: list[RowWork] = []
    for row in state.rows:
        if board.row_complete(row):
            out.append(RowWork(True, 0, 0))
            continue
        lots = max(0, row.requirement - len(row.stacks))
        out.append(RowWork(False, lots, lots + row.roofs.count(0)))
    return out


def stows_left(state: EstatesState) -> int:
    """About how many more turns each seat gets this round (each one a chance to stow): the
    pieces the two nearest rows still need, stretched by :data:`WASTE`, shared by the seats."""
    nearest = sorted(w.pieces for w in row_work(state))[: data.COMPLETE_ROWS_TO_END]
    return math.ceil(WASTE * sum(nearest) / state.players)


def expected_points(state: EstatesState) -> list[float]:
    """Each seat's building points as they stand to be scored: value x Mayor x expected sign."""
    chances = row_chances(state)
    points = [0.0] * state.players
    certificates = state.certificates
    for r, row in enumerate(state.rows):
        factor = (2.0 * chances[r] - 1.0) * (data.MAYOR_MULTIPLIER if state.mayor_row == r else 1)
        for i, stack in enumerate(row.stacks):
            owner = certificates[data.CUBE_COLOUR[stack[-1]]]
            if owner is not None:
                value = sum(data.CUBE_NUMBER[c] for c in stack) + row.roofs[i]
                points[owner] += factor * value
    return points


def standing(state: EstatesState) -> list[float]:
    """Each seat's standing on one scale: earlier rounds' scores, expected building points, the
    cash box, and the money in hand (nearly a point a check while turns are left to stow it,
    little beyond)."""
    points = expected_points(state)
    turns = stows_left(state)
    return [
        sum(result.scores[s] for result in state.results)
        + points[s]
        + state.cash_box[s] * data.CASH_BOX_POINTS
        + STOW_WEIGHT * min(state.money[s], turns)
        + SPARE_WEIGHT * max(0, state.money[s] - turns)
        for s in range(state.players)
    ]


# --- what a piece brings -----------------------------------------------------------------------


def placement_gains(state: EstatesState, seat: int, piece: str) -> list[tuple[float, Action]]:
    """(change in ``seat``'s expected points, the action) for every way to use ``piece``, tried
    on the state and undone; a piece that may be discarded also lists (0, ``DISCARD``)."""
    before = expected_points(state)[seat]
    out: list[tuple[float, Action]] = []
    if piece in data.TOKEN_CUBE:
        cube = data.TOKEN_CUBE[piece]
        colour = data.CUBE_COLOUR[cube]
        owned = state.certificates[colour] is not None
        for r, lot in board.cube_spots(state, cube):
            row = state.rows[r]
            fresh = lot > len(row.stacks)
            if fresh:
                row.stacks.append([cube])
                row.roofs.append(0)
            else:
                row.stacks[lot - 1].append(cube)
            if not owned:
                state.certificates[colour] = seat
            gain = expected_points(state)[seat] - before
            if not owned:
                state.certificates[colour] = None
            if fresh:
                row.stacks.pop()
                row.roofs.pop()
            else:
                row.stacks[lot - 1].pop()
            out.append((gain, PLACE_AT[r][lot]))
        return out
    if piece == data.ROOF:
        value = state.roof_value or _mean_roof(state)
        saved = state.piece
        state.piece = None  # the rooftop is used up once placed
        for r, lot in board.unroofed(state):
            row = state.rows[r]
            row.roofs[lot - 1] = value
            out.append((expected_points(state)[seat] - before, PLACE_AT[r][lot]))
            row.roofs[lot - 1] = 0
        state.piece = saved
        return out
    out.append((0.0, DISCARD))
    if piece in data.TOKEN_PERMIT:
        value = data.TOKEN_PERMIT[piece]
        for r, row in enumerate(state.rows):
            for longer in (True, False):
                if board.permit_problem(state, r, value, longer) is None:
                    row.permits.append(value if longer else -value)
                    out.append((expected_points(state)[seat] - before, PERMIT_AT[r][longer]))
                    row.permits.pop()
    elif piece == data.MAYOR:
        saved_row = state.mayor_row
        for r in range(len(state.rows)):
            state.mayor_row = r
            out.append((expected_points(state)[seat] - before, MAYOR_AT[r]))
        state.mayor_row = saved_row
    elif piece == data.CANCEL:
        for row in state.rows:
            for signed in list(row.permits):
                if board.cancel_problem(state, abs(signed)) is None:
                    index = row.permits.index(signed)
                    del row.permits[index]
                    out.append((expected_points(state)[seat] - before, CANCEL_PERMIT[abs(signed)]))
                    row.permits.insert(index, signed)
    return out


def _mean_roof(state: EstatesState) -> int:
    """A rooftop not yet revealed is worth about the average of those left."""
    left = state.roofs_left
    return round(sum(left) / len(left)) if left else 0


def piece_value(state: EstatesState, seat: int) -> float:
    """What the piece on offer is worth to ``seat`` in points, if it won it: the best change in
    its expected points over every way to place it (or nothing, for a piece it may discard),
    less :data:`RISK`.  Public information only, so the bot and the benchmark agree on it."""
    if state.piece is None:
        return 0.0
    gains = placement_gains(state, seat, state.piece)
    if not gains:
        return 0.0
    return max(g for g, _a in gains) - RISK


def bid_is_profitable(state: EstatesState, seat: int) -> bool:
    """Whether ``seat``, asked to bid, should bid at least the minimum: it can pay it and the
    piece is worth more to it.  Bidding the minimum then beats passing whatever follows: if the
    auctioneer sells, the piece costs less than it brings; if the auctioneer buys, the auctioneer
    pays ``seat``; if somebody bids higher, nothing was spent."""
    if state.phase != BID or state.bidder != seat:
        return False
    minimum = min_bid(state)
    return state.money[seat] >= minimum and piece_value(state, seat) > minimum


def auction_check(state: EstatesState, seat: int, action: Action) -> bool | None:
    """For the bot benchmark, before a normal bot's move: ``None`` unless ``seat`` is asked to
    bid and bidding is profitable for it (:func:`bid_is_profitable`), else whether ``action``
    is a bid."""
    if not bid_is_profitable(state, seat):
        return None
    return action.kind == "bid"


# --- the hints ------------------------------------------------------------------------------------


class EstatesHints(PlainHints):
    """Search hints for The Estates (see the module docstring)."""

    def values(self, state: EstatesState) -> Sequence[float]:
        return standing(state)

    def candidates(self, state: EstatesState, seat: int, actions: list[Action]) -> list[Action]:
        phase = state.phase
        if phase == CHOOSE:
            return _choose_candidates(state, seat, actions)
        if phase == BID:
            return _bid_candidates(state, seat, actions)
        if phase == PLACE and state.piece is not None and len(actions) > MAX_PLACEMENTS:
            gains = placement_gains(state, seat, state.piece)
            ranked = sorted(((g, a) for g, a in gains if a in actions), key=lambda ga: -ga[0])
            return [a for _g, a in ranked[:MAX_PLACEMENTS]] or actions
        return actions

    def auction_check(self, state: EstatesState, seat: int, action: Action) -> bool | None:
        """:func:`auction_check`, where ``benchmarks/bots.py`` looks for it (on the game's hints)."""
        return auction_check(state, seat, action)

    def rollout(self, state: EstatesState, seat: int, actions: list[Action], rng: Rng) -> Action:
        """Mostly uniform moves (how unknown players look from outside), with cheap sense: a seat
        stows when it can, and bids low or passes more often than a uniform pick would."""
        if state.phase == CHOOSE and STOW in actions and rng.below(2):
            return STOW
        if state.phase == BID and len(actions) > 2 and rng.below(2):
            return actions[rng.below(2)]
        return rng.choice(actions)


def _choose_candidates(state: EstatesState, seat: int, actions: list[Action]) -> list[Action]:
    """Stow first when money allows (a sure point for a check that scores nothing in hand);
    otherwise the pieces most valuable to the auctioneer itself."""
    if STOW in actions and state.money[seat] > STOW_RESERVE:
        return [STOW]
    picks = [a for a in actions if a.kind == "pick"]
    if len(picks) <= MAX_PICKS:
        return actions
    scored: list[tuple[float, int, Action]] = []
    for index, action in enumerate(picks):
        gains = _gains_if_offered(state, seat, str(action.args[0]))
        scored.append((max((g for g, _a in gains), default=0.0), index, action))
    scored.sort(key=lambda t: (-t[0], t[1]))
    kept = [a for _b, _i, a in scored[:MAX_PICKS]]
    return [a for a in actions if a in kept or a.kind != "pick"]


def _gains_if_offered(state: EstatesState, seat: int, token: str) -> list[tuple[float, Action]]:
    """:func:`placement_gains` for a piece still in the supply, as if it were on offer: a rooftop
    counts at the average of those left, and one fewer stays in the pile."""
    if token != data.ROOF or not state.roofs_left:
        return placement_gains(state, seat, token)
    value = _mean_roof(state)
    left = state.roofs_left
    index = min(range(len(left)), key=lambda i: abs(left[i] - value))
    taken = left.pop(index)
    state.piece, state.roof_value = data.ROOF, value
    try:
        return placement_gains(state, seat, token)
    finally:
        state.piece, state.roof_value = None, 0
        left.insert(index, taken)


def _bid_candidates(state: EstatesState, seat: int, actions: list[Action]) -> list[Action]:
    """Pass, the minimum bid and a few amounts up to the piece's value; no pass when bidding is
    profitable, since the minimum bid then beats it (``bid_is_profitable``)."""
    minimum = min_bid(state)
    money = state.money[seat]
    if money < minimum:
        return [PASS]
    value = piece_value(state, seat)
    top = min(money, math.floor(value))
    amounts = {minimum}
    if top > minimum:
        for k in range(1, BID_STEPS + 1):
            amounts.add(minimum + round(k * (top - minimum) / BID_STEPS))
    bids = [BIDS[a] for a in sorted(amounts)]
    if bid_is_profitable(state, seat):
        return bids
    return [PASS, *bids]


HINTS = EstatesHints()
"""The hints ``bot/core/registry.py`` gives The Estates' bot players."""

__all__ = [
    "HINTS",
    "EstatesHints",
    "auction_check",
    "bid_is_profitable",
    "expected_points",
    "piece_value",
    "row_chances",
    "standing",
]
