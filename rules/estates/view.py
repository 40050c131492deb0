"""What a seat (or a spectator) may see, as JSON for the renderer and the cogs.

The public view is everything on the table: the board, the display, the
auction, certificates, piece supplies and the score each row would give if the
round ended now.  It never carries a balance, a cash box, the undrawn cubes,
the order of anything face down or the generator's seed; a seat's own view
adds only that seat's money, cash box and round scores.

Shape (renderer contract)::

    game, players, round, rounds, turn, phase, auctioneer, first_player, waiting_for
    rows[3]: name, requirement, developed, complete, mayor, permits[{value, direction}],
             permit_lot (lot the permits sit on, or None), score_now[seat],
             lots[10]: lot, white_dirt, beyond_river, open (within the requirement),
                       cubes[{cube, colour, mark, number}] bottom to top, roof (value or None),
                       and for built lots value, owner (certificate holder), points (if ended now)
    mayor: "A"/"B"/"C" | "supply" | "discarded"
    display[3][...]: {cube, colour, mark, number, selectable}
    rooftops_left, permits_supply, permits_removed, cancel_available
    certificates[6]: {colour, mark, company, owner}; certificates_by_owner[seat]: [colour...]
    auction: None | {piece, kind, colour/number/value, auctioneer, bids[{seat, amount|None}],
                     to_bid, high_bidder, high_bid, min_bid, winner}
    score_now[seat], complete_rows, past_rounds[{buildings, winners, reason}], round_wins[seat]
    last: None | {kind, seat, piece, row, lot}: the last public move, to highlight (``engine.last_move``)
    result: None | {ranks, winners, scores, buildings, cash_box_points}: once the match is over,
            ``scores`` are exactly ``outcome().scores`` (= buildings + cash-box points per seat,
            summed over the rounds), so the final image and the standings agree
    you (seat views only): seat, money, cash_box, stowed_this_turn, round_scores,
                           round_results[{round, buildings, cash_box, score}] (private round summaries)
"""

from __future__ import annotations

from rules.core import JSON
from rules.estates import board, data
from rules.estates.engine import waiting_for
from rules.estates.pieces import high_bid, min_bid, piece_params
from rules.estates.rounds import outcome, round_wins
from rules.estates.state import OVER, EstatesState


def _cube(cube: int) -> dict[str, JSON]:
    colour = data.CUBE_COLOUR[cube]
    return {
        "cube": data.CUBE_TOKEN[cube],
        "colour": data.COLOURS[colour],
        "mark": data.COLOUR_MARKS[colour],
        "number": data.CUBE_NUMBER[cube],
    }


def _row(state: EstatesState, r: int) -> dict[str, JSON]:
    row = state.rows[r]
    requirement = row.requirement
    scored = board.row_buildings(state, r)
    per_seat = [0] * state.players
    for _lot, _value, owner, points in scored:
        if owner is not None:
            per_seat[owner] += points
    lots: list[dict[str, JSON]] = []
    for lot in range(1, data.LOTS + 1):
        entry: dict[str, JSON] = {
            "lot": lot,
            "white_dirt": board.WHITE[r][lot],
            "beyond_river": lot > data.RIVER_AFTER_LOT,
            "open": lot <= requirement,
            "cubes": [],
            "roof": None,
        }
        if lot <= row.developed:
            entry["cubes"] = [_cube(c) for c in row.stacks[lot - 1]]
            entry["roof"] = row.roofs[lot - 1] or None
            _lot, value, owner, points = scored[lot - 1]
            entry["value"] = value
            entry["owner"] = owner
            entry["points"] = points
        lots.append(entry)
    return {
        "name": data.ROW_NAMES[r],
        "requirement": requirement,
        "developed": row.developed,
        "complete": board.row_complete(row),
        "permits": [
            {"value": abs(p), "direction": data.LONGER if p > 0 else data.SHORTER} for p in row.permits
        ],
        "permit_lot": requirement + 1 if row.permits else None,
        "mayor": state.mayor_row == r,
        "lots": lots,
        "score_now": per_seat,
    }


def _auction(state: EstatesState) -> dict[str, JSON] | None:
    if state.piece is None:
        return None
    high = high_bid(state)
    return {
        **piece_params(state, state.piece),
        "auctioneer": state.auctioneer,
        "bids": [{"seat": seat, "amount": amount} for seat, amount in state.bids],
        "to_bid": state.bidder,
        "high_bidder": None if high is None else high[0],
        "high_bid": None if high is None else high[1],
        "min_bid": min_bid(state),
        "winner": state.winner,
    }


def view(state: EstatesState, seat: int | None) -> dict[str, JSON]:
    selectable = set(board.selectable_cubes(state))
    mayor: JSON
    if state.mayor_row is not None:
        mayor = data.ROW_NAMES[state.mayor_row]
    else:
        mayor = "supply" if state.mayor_available else "discarded"
    out: dict[str, JSON] = {
        "game": "estates",
        "players": state.players,
        "round": state.round,
        "rounds": state.rounds,
        "turn": state.turns,
        "phase": state.phase,
        "auctioneer": state.auctioneer,
        "first_player": state.first_player,
        "waiting_for": sorted(waiting_for(state)),
        "rows": [_row(state, r) for r in range(len(state.rows))],
        "mayor": mayor,
        "display": [[{**_cube(c), "selectable": c in selectable} for c in line] for line in state.display],
        "rooftops_left": len(state.roofs_left),
        "permits_supply": list(state.permits_unused),
        "permits_removed": sorted(state.permits_removed),
        "cancel_available": state.cancel_available,
        "certificates": [
            {
                "colour": data.COLOURS[c],
                "mark": data.COLOUR_MARKS[c],
                "company": data.COMPANIES[c],
                "owner": owner,
            }
            for c, owner in enumerate(state.certificates)
        ],
        "certificates_by_owner": [
            [data.COLOURS[c] for c, owner in enumerate(state.certificates) if owner == s]
            for s in range(state.players)
        ],
        "auction": _auction(state),
        "score_now": board.building_points(state),
        "complete_rows": [data.ROW_NAMES[r] for r in board.complete_rows(state)],
        "past_rounds": [
            {"buildings": list(r.buildings), "winners": list(r.winners), "reason": r.reason}
            for r in state.results
        ],
        "round_wins": round_wins(state),
        "last": None if state.last is None else dict(state.last),
        "result": None,
    }
    if state.phase == OVER:
        # The match is settled: the standings reveal every score, so the view may carry them too.
        final = outcome(state)
        assert final is not None
        out["result"] = {
            "ranks": list(final.ranks),
            "winners": list(final.winners()),
            "scores": list(final.scores),
            "buildings": [sum(r.buildings[s] for r in state.results) for s in range(state.players)],
            "cash_box_points": [
                sum(r.cash_box[s] for r in state.results) * data.CASH_BOX_POINTS for s in range(state.players)
            ],
        }
    if seat is not None and 0 <= seat < state.players:
        out["you"] = {
            "seat": seat,
            "money": state.money[seat],
            "cash_box": state.cash_box[seat],
            "stowed_this_turn": state.stowed and seat == state.auctioneer,
            "round_scores": [r.scores[seat] for r in state.results],
            "round_results": [
                {
                    "round": number,
                    "buildings": r.buildings[seat],
                    "cash_box": r.cash_box[seat],
                    "score": r.scores[seat],
                }
                for number, r in enumerate(state.results, start=1)
            ],
        }
    return out
