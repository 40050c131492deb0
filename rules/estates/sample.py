"""Whole Estates states a seat could be in, built from its view alone (``Rules.sample_state``).

A bot thinks on such samples (``rules.search``), so everything it may not know must be drawn,
never copied.  What a seat's view hides, and how each part is drawn:

- **Other seats' money and cash boxes.**  Every auction payment is public, so a player who
  tracked the whole table could tell each rival's holdings (hand plus cash box); the view does
  not carry that history, only the seat's own purse.  The sample keeps what is certain: the
  game's money total (``START_MONEY`` per seat, conserved), the seat's own money and cash box,
  what the current auction proves (a seat that bid $n has at least $n; after a sale the
  auctioneer holds at least the price; after a buy the bidder at least twice it), and that a
  cash box grows by at most $1 in each of its owner's turns this round.  Within those bounds
  the money is dealt out one million at a time to a rival at random, and a rival's cash box is
  a coin per turn it had (:data:`STOW_GUESS`), out of what it holds beyond its proven bids.
- **Whether another auctioneer already stowed this turn**: a coin, kept consistent with the
  cash box drawn.
- **The rooftop pile's order and every later draw** (the next rooftop revealed, a new round's
  display and starting player): the remaining rooftops are public (the twelve less those on
  the board and the one on offer), their order is not, so the sample gets a fresh generator
  from the seed.
- **Past rounds' hidden scores**: rivals' cash boxes and checks at the end of earlier rounds,
  drawn so that the public round winners stay the winners where a few draws allow.  Once the
  match is over the standings reveal every score, and the draw keeps the final ranks exactly.

The twelve cubes left out of a round are hidden from everybody, but they are exactly the ones
neither in the display nor on the board, so the sample knows them too.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.core import rank_by
from rules.estates import data
from rules.estates.rounds import round_wins
from rules.estates.state import BID, DECIDE, OVER, PLACE, EstatesState, RoundResult, Row
from rules.rng import Rng

STOW_GUESS = (1, 2)
"""The chance (numerator, denominator) that a rival stowed in one of its turns: a stow is $1 that
scores a point, so most players take it about every other turn; random players far less."""
PAST_CASH_BOX_GUESS = 6
"""A rival's cash box at the end of an earlier round is drawn up to this many checks: the order
of a round's own turns per seat (a round lasts some 15 to 40 turns)."""
RETRIES = 50
"""Draws tried to keep a past round's public winners consistent with the hidden scores drawn for
it (a plausibility, not a law: nothing public shows those scores until the match ends)."""


def sample_state(view: Mapping[str, Any], seat: int, seed: int) -> EstatesState:
    """A state ``seat`` could be in, given ``view(state, seat)``; the hidden parts drawn from ``seed``.

    ``view(sample, seat) == view``, ``legal_actions(sample, seat)`` equals the real state's and
    the sample keeps every invariant.  The same view and seed give the same sample.
    """
    rng = Rng(seed)
    players = int(view["players"])
    you = view["you"]
    state = _board_state(view, players, rng)
    state.stowed = bool(you["stowed_this_turn"]) if seat == state.auctioneer else False
    completed = _completed_turns(state)
    turns_before = [0] * players
    for t in range(completed):
        turns_before[(state.first_player + t) % players] += 1
    result = view.get("result")
    if state.phase == OVER and isinstance(result, Mapping):
        _settle_finished(state, view, seat, result, turns_before, rng)
    else:
        _past_rounds(state, view, seat, rng)
        _money(state, seat, int(you["money"]), int(you["cash_box"]), turns_before, _lower_bounds(state), rng)
    return state


def _cube(token: Any) -> int:
    return data.TOKEN_CUBE[str(token)]


def _board_state(view: Mapping[str, Any], players: int, rng: Rng) -> EstatesState:
    """Everything public, taken from the view as it is; money and past scores still blank."""
    rows: list[Row] = []
    for shown in view["rows"]:
        built = [lot for lot in shown["lots"] if lot["cubes"]]
        rows.append(
            Row(
                stacks=[[_cube(c["cube"]) for c in lot["cubes"]] for lot in built],
                roofs=[int(lot["roof"] or 0) for lot in built],
                permits=[
                    int(p["value"]) * (1 if p["direction"] == data.LONGER else -1) for p in shown["permits"]
                ],
            )
        )
    display = [[_cube(c["cube"]) for c in line] for line in view["display"]]
    seen = {c for line in display for c in line} | {c for row in rows for stack in row.stacks for c in stack}
    auction = view["auction"]
    piece = None if auction is None else str(auction["piece"])
    roof_value = int(auction["value"]) if piece == data.ROOF else 0
    roofs_left = list(data.ROOFTOPS)
    for value in [v for row in rows for v in row.roofs if v] + ([roof_value] if roof_value else []):
        roofs_left.remove(value)
    mayor = view["mayor"]
    state = EstatesState(
        players=players,
        rounds=int(view["rounds"]),
        rng=Rng(rng.next64()),
        money=[0] * players,
        cash_box=[0] * players,
        display=display,
        out_of_game=[c for c in range(data.CUBE_COUNT) if c not in seen],
        rows=rows,
        roofs_left=roofs_left,
        permits_unused=[int(v) for v in view["permits_supply"]],
        permits_removed=[int(v) for v in view["permits_removed"]],
        mayor_row=data.ROW_NAMES.index(mayor) if mayor in data.ROW_NAMES else None,
        mayor_available=mayor == "supply",
        cancel_available=bool(view["cancel_available"]),
        certificates=[None if c["owner"] is None else int(c["owner"]) for c in view["certificates"]],
        first_player=int(view["first_player"]),
        auctioneer=int(view["auctioneer"]),
        round=int(view["round"]),
        phase=str(view["phase"]),
        turns=int(view["turn"]),
        last=None if view["last"] is None else dict(view["last"]),
    )
    if auction is not None:
        state.piece = piece
        state.roof_value = roof_value
        state.bids = [
            (int(b["seat"]), None if b["amount"] is None else int(b["amount"])) for b in auction["bids"]
        ]
        state.bidder = None if auction["to_bid"] is None else int(auction["to_bid"])
        state.winner = None if auction["winner"] is None else int(auction["winner"])
    return state


def _completed_turns(state: EstatesState) -> int:
    """Turns finished this round: each one used up exactly one piece (placed, or discarded with
    its permit, Mayor or Cancel cube), and the piece on offer is not used up yet."""
    used = sum(len(stack) for row in state.rows for stack in row.stacks)
    used += sum(1 for row in state.rows for roof in row.roofs if roof)
    used += sum(len(row.permits) for row in state.rows) + len(state.permits_removed)
    used += int(not state.mayor_available and state.piece != data.MAYOR)
    used += int(not state.cancel_available and state.piece != data.CANCEL)
    return used


def _lower_bounds(state: EstatesState) -> list[int]:
    """The least money in hand each seat is proven to have by the auction on the table."""
    low = [0] * state.players
    if state.phase not in (BID, DECIDE, PLACE):
        return low
    for bidder, amount in state.bids:
        if amount is not None:
            low[bidder] = max(low[bidder], amount)
    if state.phase == PLACE:
        high = next(((s, a) for s, a in reversed(state.bids) if a is not None), None)
        if high is not None:
            bidder, price = high
            if state.winner == bidder:  # sold: the buyer paid out of at least the price
                low[bidder] = 0
                low[state.auctioneer] = price
            else:  # bought: the auctioneer paid, the bidder had the price and received it
                low[bidder] = 2 * price
    return low


def _money(
    state: EstatesState,
    seat: int,
    money: int,
    cash_box: int,
    turns_before: Sequence[int],
    low: Sequence[int],
    rng: Rng,
) -> None:
    """Hands and cash boxes: the seat's own as shown, the rivals' drawn within the public bounds.

    The money not proven by a bid is dealt to the rivals one million at a time; then each
    rival's cash box is a coin per turn it had, out of what it holds beyond its proven bid.
    """
    n = state.players
    rivals = [s for s in range(n) if s != seat]
    floors = [money + cash_box if s == seat else low[s] for s in range(n)]
    holdings = _split(data.START_MONEY * n, rivals, floors, rng)
    state.money = [money] * n
    state.cash_box = [cash_box] * n
    for s in rivals:
        spare = holdings[s] - low[s]
        turns = turns_before[s]
        stowed = s == state.auctioneer and _coin(rng) and spare > 0
        if stowed:
            state.stowed = True
            turns += 1
        box = min(spare, sum(_coin(rng) for _ in range(turns)))
        state.cash_box[s] = max(box, int(stowed))
        state.money[s] = holdings[s] - state.cash_box[s]


def _coin(rng: Rng) -> bool:
    return rng.below(STOW_GUESS[1]) < STOW_GUESS[0]


def _split(total: int, seats: Sequence[int], floors: Sequence[int], rng: Rng) -> list[int]:
    """Floors raised until they add up to ``total``, one unit at a time to one of ``seats`` at random."""
    out = list(floors)
    for _ in range(total - sum(floors)):
        out[seats[rng.below(len(seats))]] += 1
    return out


def _past_rounds(state: EstatesState, view: Mapping[str, Any], seat: int, rng: Rng) -> None:
    """Earlier rounds' results: public buildings and winners, the seat's own cash box as its view
    tells it, rivals' cash boxes and everybody's checks drawn (winners kept where draws allow)."""
    own = view["you"]["round_results"]
    for index, shown in enumerate(view["past_rounds"]):
        result = RoundResult(
            buildings=[int(b) for b in shown["buildings"]],
            cash_box=[],
            checks=[],
            winners=[int(w) for w in shown["winners"]],
            reason=str(shown["reason"]),
        )
        _draw_round(result, state.players, seat, int(own[index]["cash_box"]), rng)
        state.results.append(result)


def _draw_round(result: RoundResult, n: int, seat: int, own_cash: int, rng: Rng) -> None:
    """Rivals' cash boxes and every seat's checks for a past round, redrawn until the public
    winners would have won with them (or the retries run out: the draw is then only a guess)."""
    total = data.START_MONEY * n
    for _ in range(RETRIES):
        result.cash_box = [own_cash if s == seat else rng.below(PAST_CASH_BOX_GUESS + 1) for s in range(n)]
        result.checks = _split(total, list(range(n)), result.cash_box, rng)
        ranks = rank_by(list(zip(result.scores, result.checks, strict=True)))
        if [s for s in range(n) if ranks[s] == 1] == result.winners:
            return


def _settle_finished(
    state: EstatesState,
    view: Mapping[str, Any],
    seat: int,
    result: Mapping[str, Any],
    turns_before: Sequence[int],
    rng: Rng,
) -> None:
    """A finished match: the standings show every seat's cash box (summed over the rounds) and the
    final ranks.  Each rival's sum is split over the rounds (the last round's part at most one
    per turn it had), and the holdings still on the table, the last round's checks that break
    ties on points, are dealt so the ranks come out as shown (:func:`_ranked_holdings`)."""
    n = state.players
    you = view["you"]
    own = you["round_results"]
    past = view["past_rounds"]
    rounds = len(past)
    box_totals = [int(p) // data.CASH_BOX_POINTS for p in result["cash_box_points"]]
    money, cash_box = int(you["money"]), int(you["cash_box"])
    total = data.START_MONEY * n
    ranks = [int(r) for r in result["ranks"]]
    for attempt in range(RETRIES + 1):
        # The last try keeps every rival's cash box in earlier rounds: the lowest floors, which
        # the real table's deal clears, so a deal always exists then.
        lowest = attempt == RETRIES and rounds > 1
        boxes = [[int(own[r]["cash_box"]) if s == seat else 0 for s in range(n)] for r in range(rounds)]
        for s in range(n):
            if s == seat:
                continue
            last = box_totals[s] if rounds == 1 else rng.below(min(box_totals[s], turns_before[s]) + 1)
            boxes[-1][s] = 0 if lowest else last
            for _unit in range(box_totals[s] - boxes[-1][s]):
                boxes[rng.below(rounds - 1)][s] += 1
        state.results = [
            RoundResult(
                buildings=[int(b) for b in shown["buildings"]],
                cash_box=boxes[r],
                checks=_split(total, list(range(n)), boxes[r], rng),
                winners=[int(w) for w in shown["winners"]],
                reason=str(shown["reason"]),
            )
            for r, shown in enumerate(past)
        ]
        wins = round_wins(state)
        points = [sum(x.scores[s] for x in state.results) for s in range(n)]
        keys = [(int(wins[s] >= data.ROUND_WINS_TO_END), points[s]) for s in range(n)]
        floors = [money + cash_box if s == seat else boxes[-1][s] for s in range(n)]
        holdings = _ranked_holdings(total, seat, floors, keys, ranks, rng)
        if holdings is not None:
            break
    if holdings is None:
        # Not met in any test: a deal that keeps the money's laws, though ties may rank apart.
        holdings = _split(total, [s for s in range(n) if s != seat], floors, rng)
    state.results[-1].checks = holdings
    state.money = [money if s == seat else holdings[s] - boxes[-1][s] for s in range(n)]
    state.cash_box = [cash_box if s == seat else boxes[-1][s] for s in range(n)]


def _ranked_holdings(
    total: int,
    seat: int,
    floors: Sequence[int],
    keys: Sequence[tuple[int, int]],
    ranks: Sequence[int],
    rng: Rng,
) -> list[int] | None:
    """Holdings adding up to ``total``, ``seat``'s fixed at its floor, every other at least its
    floor, such that seats level on ``keys`` (two round wins, points) are ordered by holdings as
    ``ranks`` says: more holdings for a better rank, the same for a shared one.

    Seats sharing a key and a rank form a *level* (equal holdings); the levels of one key are
    chained, worst first, each at least one above the one below.  Every level starts as low as
    its floors and the chain allow; then the money left is handed out a level at a time, at
    random, to levels that can grow without passing the level above (the best level of a key
    always can, unless it holds ``seat``).  ``None`` when the floors leave no such deal.
    """
    levels: dict[tuple[tuple[int, int], int], list[int]] = {}
    for s in range(len(floors)):
        levels.setdefault((keys[s], ranks[s]), []).append(s)
    chains: dict[tuple[int, int], list[list[int]]] = {}
    for (key, _rank), members in sorted(levels.items(), key=lambda item: -item[0][1]):
        chains.setdefault(key, []).append(members)  # worst rank (largest number) first
    value: dict[int, int] = {}
    for chain in chains.values():
        below = -1
        for members in chain:
            level = max(floors[s] for s in members)
            if seat in members:
                level = floors[seat]
            level = max(level, below + 1)
            for s in members:
                value[s] = level
            below = level
    left = total - sum(value.values())
    while left > 0:
        growable = []
        for chain in chains.values():
            for index, members in enumerate(chain):
                if seat in members or len(members) > left:
                    continue
                top = index == len(chain) - 1
                if top or value[members[0]] + 1 < value[chain[index + 1][0]]:
                    growable.append(members)
        if not growable:
            return None
        for s in growable[rng.below(len(growable))]:
            value[s] += 1
            left -= 1
    return [value[s] for s in range(len(floors))] if left == 0 else None


__all__ = ["sample_state"]
