"""Setting up a round, ending a turn, ending a round and settling the match."""

from __future__ import annotations

from collections.abc import Callable

from rules.core import Event, Outcome, rank_by
from rules.estates import board, data
from rules.estates.state import CHOOSE, OVER, EstatesState, RoundResult, Row
from rules.rng import Rng


def new_state(players: int, rounds: int, seed: int) -> EstatesState:
    state = EstatesState(
        players=players,
        rounds=rounds,
        rng=Rng(seed),
        money=[data.START_MONEY] * players,
        cash_box=[0] * players,
        display=[],
        out_of_game=[],
        rows=[],
        roofs_left=[],
        permits_unused=[],
        permits_removed=[],
        mayor_row=None,
        mayor_available=True,
        cancel_available=True,
        certificates=[],
        first_player=0,
        auctioneer=0,
    )
    deal_round(state)
    return state


def deal_round(state: EstatesState) -> None:
    """Setup steps 1-5 plus a random starting player (steps repeated every round; money untouched)."""
    cubes = list(range(data.CUBE_COUNT))
    state.rng.shuffle(cubes)
    n = data.DISPLAY_LENGTH
    state.display = [cubes[i * n : (i + 1) * n] for i in range(data.DISPLAY_ROWS)]
    state.out_of_game = sorted(cubes[data.CUBES_DRAWN :])
    state.rows = [Row() for _ in data.ROW_NAMES]
    state.roofs_left = sorted(data.ROOFTOPS)
    state.permits_unused = list(data.PERMITS)
    state.permits_removed = []
    state.mayor_row = None
    state.mayor_available = True
    state.cancel_available = True
    state.certificates = [None] * len(data.COLOURS)
    if state.round == 1 or data.RANDOM_START_EACH_ROUND:
        state.first_player = state.rng.below(state.players)
    else:
        state.first_player = (state.first_player + 1) % state.players
    state.auctioneer = state.first_player
    state.phase = CHOOSE
    state.stowed = False
    state.last = None  # a fresh board: nothing on it was just moved
    clear_auction(state)
    state.turns += 1


def clear_auction(state: EstatesState) -> None:
    state.piece = None
    state.roof_value = 0
    state.bids = []
    state.bidder = None
    state.winner = None


def finish_turn(state: EstatesState, act: Callable[[list[Event]], None]) -> list[Event]:
    """Carry out a validated placement, then report row changes and move the game on.

    Every change to the board goes through here, so this is where the round's end is tested,
    right after the change (components page: "checked after every action that changes the board
    or the supply"): two complete rows first, then the stall test.  A pick only moves a piece into
    the auction, where it still counts as remaining, so it can never end a round
    (``board.stalled`` says why; ``invariants`` checks it after every action).
    """
    before = board.complete_rows(state)
    events: list[Event] = []
    act(events)
    after = board.complete_rows(state)
    events.extend(Event("row_completed", None, {"row": data.ROW_NAMES[r]}) for r in after if r not in before)
    events.extend(Event("row_reopened", None, {"row": data.ROW_NAMES[r]}) for r in before if r not in after)
    clear_auction(state)
    if len(after) >= data.COMPLETE_ROWS_TO_END:
        end_round(state, "rows", events)
        return events
    if board.stalled(state):
        end_round(state, "stalled", events)
        return events
    state.auctioneer = (state.auctioneer + 1) % state.players
    state.phase = CHOOSE
    state.stowed = False
    state.turns += 1
    events.append(Event("turn_started", state.auctioneer, {"round": state.round, "turn": state.turns}))
    return events


def end_round(state: EstatesState, reason: str, events: list[Event]) -> None:
    buildings = board.building_points(state)
    checks = [m + c for m, c in zip(state.money, state.cash_box, strict=True)]
    result = RoundResult(buildings, list(state.cash_box), checks, [], reason)
    ranks = rank_by([(score, check) for score, check in zip(result.scores, checks, strict=True)])
    result.winners = [s for s, rank in enumerate(ranks) if rank == 1]
    if len(result.winners) > 1 and not data.TIED_ROUND_WINNERS_ALL_WIN:
        result.winners = []
    state.results.append(result)
    events.append(
        Event(
            "round_ended",
            None,
            {"round": state.round, "reason": reason, "buildings": buildings, "winners": result.winners},
        )
    )
    for s in range(state.players):
        events.append(
            Event(
                "round_score",
                s,
                {
                    "round": state.round,
                    "buildings": buildings[s],
                    "cash_box": result.cash_box[s],
                    "score": result.scores[s],
                },
                frozenset((s,)),
            )
        )
    wins = round_wins(state)
    if state.round >= state.rounds or max(wins) >= data.ROUND_WINS_TO_END:
        state.phase = OVER
        final = outcome(state)
        assert final is not None
        events.append(
            Event("game_over", None, {"winners": list(final.winners()), "ranks": list(final.ranks)})
        )
        return
    if data.CASH_BOX_BACK_TO_HAND:
        state.money = [m + c for m, c in zip(state.money, state.cash_box, strict=True)]
        state.cash_box = [0] * state.players
    state.round += 1
    deal_round(state)
    events.append(Event("round_started", state.first_player, {"round": state.round, "rounds": state.rounds}))
    events.append(Event("turn_started", state.auctioneer, {"round": state.round, "turn": state.turns}))


def round_wins(state: EstatesState) -> list[int]:
    wins = [0] * state.players
    for result in state.results:
        for s in result.winners:
            wins[s] += 1
    return wins


def outcome(state: EstatesState) -> Outcome | None:
    if state.phase != OVER:
        return None
    wins = round_wins(state)
    totals = [sum(r.scores[s] for r in state.results) for s in range(state.players)]
    checks = state.results[-1].checks
    ranks = rank_by(
        [(int(wins[s] >= data.ROUND_WINS_TO_END), totals[s], checks[s]) for s in range(state.players)]
    )
    breakdown: list[dict[str, int]] = []
    for s in range(state.players):
        entry = {
            "buildings": sum(r.buildings[s] for r in state.results),
            "cash_box": sum(r.cash_box[s] for r in state.results),
            "checks": checks[s],
        }
        if state.rounds > 1:
            entry["round_wins"] = wins[s]
            for i, r in enumerate(state.results, start=1):
                entry[f"round{i}"] = r.scores[s]
        breakdown.append(entry)
    return Outcome(tuple(totals), ranks, tuple(breakdown))
