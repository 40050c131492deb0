"""What California's bot players know about positions: cheap valuations, not a player of their own.

The search (``rules.search``) plays many quick games from states sampled from the bot's view;
these hints say how a position stands when a playout is cut short (``values``), which of the
bot's own moves are worth searching (``candidates``) and how the quick games move
(``rollout``).  Points come from gifts, bonus cards and renovated spaces, and every point is
bought with a turn and silver, so the hints weigh what a move scores against what it costs:

- a purchase scores its space (a room, an attic space, the expansion) or brings a guest (a gift
  once the mansion already entertains enough guests, and a guest taken from a rival) and
  perhaps a bonus card;
- silver is worth points only while there are days left to spend it;
- loans are a last resort: 3 silver now cost 4 later (or 2 points), and a ``loan_buy`` already
  offers the loan exactly when it pays for a purchase, so a bare loan or an early repayment is
  never searched.

Everything here reads only the state it is given, which in search is a sample: fair to read.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.core import Action
from rules.rng import Rng
from rules.search import PlainHints

from . import data
from .engine import BUY, COIN, LOAN_BUY
from .placement import ATTIC, Layout, adjacent, layout
from .state import FURNITURE, ROOM, TILE_COLOUR, TILE_KIND, Player, State

_BONUS_NEEDS: tuple[tuple[tuple[int, int], ...], ...] = tuple(
    tuple((c, k) for c, k in enumerate(needs) if k) for _, needs, _ in data.BONUS_CARDS
)
_BONUS_POINTS = tuple(points for _, _, points in data.BONUS_CARDS)
_CARDS_FOR: tuple[tuple[int, ...], ...] = tuple(
    tuple(card for card, needs in enumerate(_BONUS_NEEDS) if any(c == colour for c, _ in needs))
    for colour in range(len(data.COLOURS))
)
"""Per colour, the bonus cards that ask for its furniture."""
_NEED = tuple(needs for _, needs, _ in data.BONUS_CARDS)
_TOTAL_NEED = tuple(sum(needs) for needs in _NEED)
_FEES = {n: data.FEES[data.board_side(n)] for n in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1)}


@dataclass(frozen=True, slots=True)
class Weights:
    """The few numbers the hints weigh with, in points: set from what things cost (a room is a
    point for 1-6 silver and a turn, a coin brings 5 silver) and checked with
    ``benchmarks/bots.py`` (the normal bot won 60 of 60 three-player games against random bots)."""

    silver: float = 0.2
    """A silver coin, while days remain to spend it (a point costs about 4-5 silver with the turn)."""
    empty_room: float = 0.35
    """A room with no furniture yet: a place for a guest to come to."""
    guest: float = 0.3
    """A guest being entertained: the next new guest brings a gift (and it may stay)."""
    bonus_progress: float = 0.5
    """Share of an untaken bonus card's points per share of its furniture already placed."""
    steal: float = 0.3
    """Taking a guest from a rival (it no longer helps that rival's gifts)."""
    buy_margin: float = 0.0
    """A rollout buys when a tile's gain minus its price in points exceeds this, else takes a coin."""
    rollout_random: float = 0.1
    """Share of rollout moves picked at random among the coin and the purchases."""
    rollout_draws: int = 3
    """Purchases a rollout move draws at random and values before it picks one (or a coin)."""
    room_targets: int = 2
    """Room spaces searched per store tile (the cheapest, roomiest first)."""


class CaliforniaHints(PlainHints):
    """Hints for California's bot players (see the module docstring)."""

    def __init__(self, weights: Weights = Weights()) -> None:
        self.weights = weights

    # --- values: where a playout cut short got ------------------------------------------

    def values(self, state: State) -> Sequence[float]:
        """Each seat's points as they stand plus what its money, empty rooms, guests and bonus
        card progress promise for the days left (nothing once the game ends tonight)."""
        w = self.weights
        if state.over or state.ending is not None:
            future = 0.0
        else:  # the rest of today, then each day left, up to what a purse can fund
            future = min(1.0, (data.DAYS - state.day + 0.5) / 4)
        out = []
        for seat, p in enumerate(state.players):
            points, money = _points(state, seat, p)
            estimate = points + 0.001 * money  # most money breaks a tie
            if future:
                plan = layout(p)
                rooms = sum(m.bit_count() for m in plan.rooms)
                empty_rooms = rooms - plan.furnished.bit_count()
                guests = state.guests.count(seat)
                estimate += future * (
                    w.silver * money
                    + w.empty_room * empty_rooms
                    + w.guest * min(guests, 3)
                    + w.bonus_progress * _bonus_progress(state, p)
                )
            out.append(estimate)
        return out

    # --- candidates: the bot's own moves worth searching ------------------------------

    def candidates(self, state: State, seat: int, actions: list[Action]) -> list[Action]:
        """Coin, and each distinct purchase once: one slot per tile type and store (alike tiles
        in one store are the same buy), the cheapest few spaces for a room, one room for
        furniture; a ``loan_buy`` only where no plain purchase of that tile is possible.  Bare
        loans and repayments are dropped (the automatic repayment at the end does the latter)."""
        n = len(state.players)
        p = state.players[seat]
        fees = _FEES[n]
        plan = layout(p)
        kept: list[Action] = []
        groups: dict[tuple[int, str, int], list[Action]] = {}
        plain: set[tuple[int, str, int]] = set()
        for action in actions:
            if action.kind not in (BUY, LOAN_BUY):
                if action == COIN:
                    kept.append(action)
                continue
            store, slot = action.args[0], action.args[1]
            assert isinstance(store, int) and isinstance(slot, int)
            tile = state.stores[store][slot]
            assert tile is not None
            key = (store, TILE_KIND[tile], TILE_COLOUR[tile])
            if action.kind == BUY:
                plain.add(key)
            group = groups.setdefault(key, [])
            if not group or group[0].args[1] == slot:  # the first slot holding this type only
                group.append(action)
        for key, group in groups.items():
            if key in plain:
                group = [a for a in group if a.kind == BUY]
            if key[1] == ROOM:
                group = sorted(group, key=lambda a: _room_spot(plan, fees, a.args[2]))
                kept.extend(group[: self.weights.room_targets])
            else:
                kept.append(group[0])
        return kept or actions

    # --- rollout: a quick, sensible move ----------------------------------------------

    def rollout(self, state: State, seat: int, actions: list[Action], rng: Rng) -> Action:
        """A purchase that pays for itself, else a coin.  A few purchases drawn at random from
        the legal ones are valued (what they score minus their price) and the best is bought if
        it clears the margin; now and then the move is any coin or purchase at random.  Valuing
        a few draws rather than every purchase keeps a playout move cheap, and varied."""
        if len(actions) == 1 or actions[0] != COIN:
            return actions[0]  # off turn: a loan or a repayment, which playouts never ask for
        w = self.weights
        moves = len(actions) - (actions[-1].kind in _MONEY_KINDS)  # the coin and the purchases
        if moves == 1:
            return COIN
        word = rng.next64()  # one draw serves every choice below (each takes a few bits of it)
        if (word & 0xFFFF) < w.rollout_random * 0x10000:
            return actions[(word >> 16) % moves]
        word >>= 16
        p = state.players[seat]
        fees = _FEES[len(state.players)]
        plan = layout(p)
        best, best_value = COIN, w.buy_margin
        for _ in range(w.rollout_draws):
            word, drawn = divmod(word, moves - 1)
            action = actions[1 + drawn]
            if action.kind != BUY:
                continue
            store, slot, target = action.args
            assert isinstance(store, int) and isinstance(slot, int)
            tile = state.stores[store][slot]
            assert tile is not None
            fee = fees[target] if TILE_KIND[tile] == ROOM and isinstance(target, int) else 0
            value = _gain(state, seat, p, plan, tile, target == ATTIC, w) - w.silver * (state.bank + fee)
            if value > best_value:
                best, best_value = action, value
        return best


_MONEY_KINDS = ("loan", "repay")


def _points(state: State, seat: int, p: Player) -> tuple[int, int]:
    """Points as the game would score them now, and the money left after an end-of-game
    repayment (``engine.score_breakdown``, without building its dict)."""
    spaces = data.SPACES - p.rooms.count(None) + 1 + (1 if p.attic else 0) + (p.expansion is not None)
    bonus = sum(_BONUS_POINTS[card] for card, owner in enumerate(state.bonus) if owner == seat)
    money = p.money
    if p.loan:
        if money >= data.LOAN_REPAYMENT:
            money -= data.LOAN_REPAYMENT
        else:
            bonus -= data.UNPAID_LOAN_PENALTY
    return p.gifts + bonus + spaces, money


def _counts(p: Player) -> list[int]:
    counts = [0] * len(data.COLOURS)
    for t in p.furniture:
        if t is not None:
            counts[TILE_COLOUR[t]] += 1
    return counts


def _bonus_progress(state: State, p: Player) -> float:
    """Points of untaken bonus cards, each weighed by the share of its furniture placed."""
    counts = _counts(p)
    total = 0.0
    for card, owner in enumerate(state.bonus):
        if owner is None:
            needs = _BONUS_NEEDS[card]
            have = sum(min(counts[c], k) for c, k in needs)
            if have:
                total += _BONUS_POINTS[card] * have / sum(k for _, k in needs)
    return total


def _room_spot(plan: Layout, fees: tuple[int, ...], target: object) -> tuple[int, int]:
    """How good a space is for a new room: cheapest first, then the one with the most empty
    neighbours (rooms of its colour must touch, so it leaves that colour room to grow)."""
    assert isinstance(target, int)
    return fees[target], -(adjacent(1 << target) & plan.empty).bit_count()


def _guest_gain(state: State, seat: int, colour: int, w: Weights) -> float:
    """What the guest of ``colour`` brings by visiting ``seat`` now."""
    host = state.guests[colour]
    if host == seat:
        return 0.0
    gain = w.guest + (w.steal if host is not None else 0.0)
    if state.guests.count(seat) >= data.gift_threshold(len(state.players)) and state.gift_supply:
        gain += 1.0
    return gain


def _bonus_gain(state: State, counts: list[int], colour: int, w: Weights) -> float:
    """What a furniture of ``colour`` on the ground floor does for the untaken bonus cards: the
    points of each card it completes, and for each card it advances, the progress ``values``
    counts (``bonus_progress`` of the card's points per furniture it asks for)."""
    gain = 0.0
    counts[colour] += 1
    for card in _CARDS_FOR[colour]:
        if state.bonus[card] is not None:
            continue
        needs = _BONUS_NEEDS[card]
        if all(counts[c] >= k for c, k in needs):
            gain += _BONUS_POINTS[card]
        elif counts[colour] <= _NEED[card][colour]:
            gain += w.bonus_progress * _BONUS_POINTS[card] / _TOTAL_NEED[card]
    counts[colour] -= 1
    return gain


def _gain(state: State, seat: int, p: Player, plan: Layout, tile: int, attic: bool, w: Weights) -> float:
    """What placing ``tile`` scores now or soon, in points, before its price (``attic``: a
    furniture going to the attic)."""
    kind, colour = TILE_KIND[tile], TILE_COLOUR[tile]
    if kind == ROOM:
        gain = 1.0
        if not plan.rooms[colour] & ~plan.furnished:
            gain += w.empty_room
        if any(TILE_COLOUR[t] == colour for t in p.attic):  # that furniture moves in
            gain += _guest_gain(state, seat, colour, w) + _bonus_gain(state, _counts(p), colour, w)
        return gain
    if kind == FURNITURE:
        if attic:
            return 1.0 if not p.attic else w.empty_room
        return _guest_gain(state, seat, colour, w) + _bonus_gain(state, _counts(p), colour, w)
    return 1.0


__all__ = ["HINTS", "CaliforniaHints", "Weights"]

HINTS = CaliforniaHints()
"""The hints ``bot/core/registry.py`` gives California's bot players."""
