"""What Last Will's bot players know about positions: cheap guesses the search (``rules.search``)
plays and scores by.

Last Will is won by spending: the least money at the end wins, properties counting at their value,
and a player still employed ranks behind every player who is not.  So a seat stands well when

- the money it will have at the end is low: cash now, plus the income still to come (its
  uncovered lines, once a round and once more at the end), plus what its properties will be
  valued at, less what the cards in its hand and on its board will let it spend in the rounds
  left (``values``);
- it is out of a job, or on the way: each uncovered line needs a round's demotion, so a seat
  with more lines than rounds left is stuck with its job and ranks by money among the employed.

A playout (``rollout``) spends greedily: the moves that spend the most per action, demotions
whenever offered, the demotion errands first, plans with many actions; it never sells or drops
what it holds.  At the root (``candidates``) moves that only give money back or waste a step
(a sale, a dropped helper, a switched dual type, declining a demotion, clearing a drawing split,
spending less than the Wedding Planner offers, a market swap that raises the seat's own
valuation) are left out, so the search spends its playouts on real choices.  A host's handicap
pick has one candidate: employ another seat, then confirm (a job is the handicap).

Every number below is a chosen weight, measured by ``benchmarks/bots.py``.  The hints read the
state they are given, which for a bot is a sample drawn from its view (``sample.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.core import Action
from rules.lastwill import data
from rules.lastwill.cards import (
    BLACKS,
    COMPANIONS,
    PROPERTIES,
    WHITES,
    expense_amount,
    final_value,
    free_spaces,
    upkeep,
)
from rules.lastwill.data import EmploymentMode, ExtraAction, PropertyType, Symbol
from rules.lastwill.employment import income
from rules.lastwill.errands import SLOT_SPACES
from rules.lastwill.moves import move
from rules.lastwill.pending import BPX, DX, EXTRA, FAIR, LINE, PICK, SALE, TARGET, WITH
from rules.lastwill.state import ACTIONS, DISCARD, DRAWING, ERRANDS, LIMIT, PLANNING, LastWillState, Player
from rules.lastwill.state import PICK as PICK_PHASE
from rules.rng import Rng
from rules.search import PlainHints

# --- weights (chosen) ------------------------------------------------------------------------------

EMPLOYED = 150.0
"""What still holding a job costs a seat's standing, in pounds: an employed player cannot win
(rulebook), so a seat out of a job stands above every employed one whatever their money."""
LINE_LEFT = 30.0
"""And each uncovered line on top, while the rounds left still allow covering them all."""
STUCK = EMPLOYED + LINE_LEFT * 6
"""A seat with more lines than rounds left keeps its job: all such seats stand alike, by money."""
HAND_SHARE = 0.6
"""Of the money the white cards in hand would spend, the share a seat is expected to spend."""
BOARD_SHARE = 0.5
"""Of a round's expenses and upkeep on the board, the share spent in each round left."""
LINE_MATCH = 8.0
"""A move that would earn this round's demotion is worth this much more in a playout."""
WANDER = 8
"""A playout makes a random move instead of the best-scored one once in this many moves."""

DECK_WEIGHTS: dict[str, int] = {"event": 5, "helper": 3, "property": 2, "companion": 1}
"""How a playout names the decks it draws from: events spend most, helpers keep spending."""
_DECK_WHEEL: tuple[str, ...] = tuple(deck for deck, weight in DECK_WEIGHTS.items() for _ in range(weight))


def _card_worth(card: str) -> float:
    """About how many pounds holding a card will let its owner spend (no demotion counted)."""
    white = WHITES.get(card)
    if white is not None:
        top = max((level.money for level in white.ball), default=white.money)
        return float(top + sum(icon.amount for icon in white.icons) / 2)
    prop = PROPERTIES.get(card)
    if prop is not None:
        return prop.track[0] * 0.4 + prop.upkeep
    black = BLACKS.get(card)
    if black is not None:
        worth = 2.0 if black.expense is None else 2.0 + 2 * black.expense.amount
        if any(isinstance(p, ExtraAction) for p in black.privileges):
            worth += 8.0
        return worth
    return 2.0 if card in COMPANIONS else 0.0


WORTH: dict[str, float] = {card: _card_worth(card) for card in data.CARDS}
"""Each card's :func:`_card_worth`, worked out once."""


# --- standing --------------------------------------------------------------------------------------


def incomes_left(state: LastWillState) -> int:
    """Income payments still to come: one per round setup left, one at the end."""
    rounds = 0 if state.last_round else data.ROUNDS - state.round
    return rounds + (1 if data.FINAL_INCOME else 0)


def rounds_to_play(state: LastWillState, player: Player) -> int:
    """Rounds in which the seat may still earn a demotion (this one, unless earned or over)."""
    later = 0 if state.last_round else data.ROUNDS - state.round
    over = player.demoted or (state.phase == DISCARD and state.discard_for == LIMIT)
    return later + (0 if over else 1)


def spending_ahead(state: LastWillState, player: Player) -> float:
    """Pounds the seat's cards will likely let it spend before the end: its white cards in hand,
    its expenses and upkeep each round left."""
    hand = sum(WORTH[c] for c in player.hand if c in WHITES)
    rounds = 0 if state.last_round else data.ROUNDS - state.round
    board = 0.0
    for item in player.board:
        if item.card in PROPERTIES:
            board += upkeep(item)
        else:
            black = BLACKS[item.card]
            if black.expense is not None:
                board += expense_amount(player, item)
    return HAND_SHARE * hand + BOARD_SHARE * board * rounds


def projected_money(state: LastWillState, seat: int) -> float:
    """The money the seat would end with: cash, income to come, property valued, less what its
    cards will likely spend."""
    player = state.players[seat]
    money = player.money + income(player) * incomes_left(state)
    money += sum(final_value(state, item) for item in player.board if item.card in PROPERTIES)
    return money - spending_ahead(state, player)


def standing(state: LastWillState, seat: int) -> float:
    """One seat's standing, higher is better: minus its projected money, less the job's weight."""
    player = state.players[seat]
    value = -projected_money(state, seat)
    if player.job:
        left = player.covered.count(False)
        value -= EMPLOYED + LINE_LEFT * left if left <= rounds_to_play(state, player) else STUCK
    return value


# --- what a move is worth in a playout -------------------------------------------------------------


def _open_symbols(state: LastWillState, player: Player) -> frozenset[Symbol]:
    """Symbols of the seat's uncovered lines, while it may still earn this round's demotion."""
    if state.employment == EmploymentMode.NONE or not player.job or player.demoted:
        return frozenset()
    lines = data.EMPLOYMENT[player.job].lines
    return frozenset(line.symbol for line, covered in zip(lines, player.covered, strict=True) if not covered)


def _matches(symbols: Sequence[Symbol], open_: frozenset[Symbol]) -> float:
    return LINE_MATCH if open_ and any(s in open_ for s in symbols) else 0.0


def _card_score(card: str, open_: frozenset[Symbol]) -> float:
    return WORTH[card] + _matches(data.CARDS[card].symbols, open_)


def _action_score(state: LastWillState, seat: int, action: Action, open_: frozenset[Symbol]) -> float:
    """Pounds spent per action, roughly, plus a demotion it would earn; giving back is negative."""
    kind, args = action.kind, action.args
    player = state.players[seat]
    if kind in ("event", "special"):
        white = WHITES[str(args[0])]
        return (white.money + 1) / max(1, white.actions) + _matches(white.symbols, open_)
    if kind == "ball":
        level = WHITES[str(args[0])].ball[int(args[1]) - 1]
        return level.money / level.actions + _matches((Symbol.PARTY,), open_)
    if kind == "nupt":
        return sum(WHITES[str(c)].money for c in args) + _matches((Symbol.RING,), open_)
    if kind == "keep":
        item = next(o for o in player.board if o.card == args[0])
        return float(upkeep(item)) + 1
    if kind == "use":
        item = next(o for o in player.board if o.card == args[0])
        expense = BLACKS[item.card].expense
        return expense_amount(player, item) / max(1, expense.actions if expense else 1) + 1
    if kind == "buy":
        prop = PROPERTIES[str(args[0])]
        kind_ = PropertyType(str(args[1])) if len(args) > 1 else prop.types[0]
        return prop.track[0] * 0.5 + _matches((data.PROPERTY_SYMBOL[kind_],), open_)
    if kind == "lay":
        return WORTH[str(args[0])] + _matches(BLACKS[str(args[0])].symbols, open_)
    if kind == "token":
        return 3.0
    if kind == "sec":
        return 4.0
    if kind == "bankrupt":
        return 100.0
    if kind in ("sell", "drop", "as"):
        return -20.0
    return 0.0  # done


def _boy_score(
    state: LastWillState, seat: int, action: Action, open_: frozenset[Symbol], slots: dict[str, str]
) -> float:
    space = str(action.args[0])
    if space in ("demote", "demext"):
        if open_:
            return 60.0
        return 4.0 if space == "demext" and free_spaces(state.players[seat]) <= 1 else -0.5
    if space == "opera":
        return 6.0 + (LINE_MATCH * 3 if Symbol.MASK in open_ else 0.0)
    if space == "ext":
        return 4.0 if free_spaces(state.players[seat]) <= 1 else 0.5
    if space.startswith("one-"):
        return 4.0 if space == "one-event" else 2.0
    card = slots.get(space, "")
    return 2.0 + _card_score(card, open_) if card else 0.0


_OTHER_ERRAND: dict[str, float] = {"hold": -1.0, "market": 0.0}
"""A playout's scores for keeping the boy home and for a market swap (no spending in either)."""


def _plan_score(state: LastWillState, pos: int) -> float:
    """The components' strength check (cards + 3 x actions + 2 x extra boys), and being early
    in errands (first to the demotion spaces)."""
    plan = (
        state.plans[pos - 1]
        if state.plans[pos - 1].pos == pos
        else next(p for p in state.plans if p.pos == pos)
    )
    return plan.cards + 3 * plan.actions + 2 * (plan.boys - 1) - 0.5 * pos


def _best(actions: list[Action], score: list[float], rng: Rng) -> Action:
    """The best-scored move (the first of equals), or now and then (one in :data:`WANDER`) any
    move, so playouts do not all play the same game.  One draw from the generator a call."""
    word = rng.next64()
    if word % WANDER == 0:
        return actions[(word >> 8) % len(actions)]
    return actions[score.index(max(score))]


class LastWillHints(PlainHints):
    """Last Will's :class:`rules.search.Hints` (see the module docstring)."""

    def values(self, state: LastWillState) -> Sequence[float]:
        return [standing(state, seat) for seat in range(state.count)]

    def candidates(self, state: LastWillState, seat: int, actions: list[Action]) -> list[Action]:
        if state.phase == PICK_PHASE:
            return [_pick_move(state, seat, actions)]
        kept = [a for a in actions if not self._wasteful(state, seat, a, actions)]
        return kept or actions

    def _wasteful(self, state: LastWillState, seat: int, action: Action, actions: list[Action]) -> bool:
        kind = action.kind
        if kind in ("sell", "drop", "as", "redraw"):
            return True
        if kind == "noline":
            return len(actions) > 1
        if kind == EXTRA:
            return int(action.args[0]) < max(int(a.args[0]) for a in actions)
        if kind == "market":
            return not _lowers_own_value(state, seat, action)
        return False

    def rollout(self, state: LastWillState, seat: int, actions: list[Action], rng: Rng) -> Action:
        if len(actions) == 1:
            return actions[0]
        pend = state.pending
        if pend is not None:
            return _answer(state, seat, actions, rng)
        phase = state.phase
        if phase == PICK_PHASE:
            return _pick_move(state, seat, actions)
        player = state.players[seat]
        if phase == ACTIONS:
            open_ = _open_symbols(state, player)
            return _best(actions, [_action_score(state, seat, a, open_) for a in actions], rng)
        if phase == DRAWING:
            for action in actions:
                if action.kind == "drawok":
                    return action
            wanted = rng.choice(_DECK_WHEEL)
            for action in actions:
                if action.kind == "draw" and action.args[0] == wanted:
                    return action
            return rng.choice([a for a in actions if a.kind == "draw"] or actions)
        if phase == ERRANDS:
            open_ = _open_symbols(state, player)
            slots = {SLOT_SPACES[s.label]: s.card for s in state.offering}
            score = [
                _boy_score(state, seat, a, open_, slots) if a.kind == "boy" else _OTHER_ERRAND[a.kind]
                for a in actions
            ]
            return _best(actions, score, rng)
        if phase == PLANNING:
            return _best(actions, [_plan_score(state, int(a.args[0])) for a in actions], rng)
        if phase == DISCARD:
            open_ = _open_symbols(state, player)
            return _best(actions, [-_card_score(str(a.args[0]), open_) for a in actions], rng)
        return rng.choice(actions)


def _pick_move(state: LastWillState, seat: int, actions: list[Action]) -> Action:
    """The host's handicap pick: a job is a handicap (a player still employed cannot win), so the
    host employs one other seat, then confirms; two moves, never a back-and-forth of toggles."""
    confirm = move("empok")
    if confirm in actions:
        return confirm
    for action in actions:
        if action.kind == "emp" and action.args[0] != seat and action.args[0] not in state.picked:
            return action
    return actions[0]


def _answer(state: LastWillState, seat: int, actions: list[Action], rng: Rng) -> Action:
    """A playout's answer to an open choice: spend what it offers, take the demotion."""
    pend = state.pending
    assert pend is not None
    step = pend.step
    if step == LINE:
        return actions[0]  # the highest income line first; "noline" is last
    if step == DX:
        return actions[0] if state.players[seat].job else actions[-1]
    if step == EXTRA:
        return actions[-1]
    if step == PICK:
        open_ = _open_symbols(state, state.players[seat])
        return _best(actions, [_card_score(str(a.args[0]), open_) for a in actions], rng)
    if step in (WITH, FAIR, TARGET):
        return actions[0]  # fill an icon, place a free token, drop a value: all spend more
    if step in (BPX, SALE):
        return actions[-1]  # "go": keep the cards, keep the property
    return rng.choice(actions)


def _lowers_own_value(state: LastWillState, seat: int, action: Action) -> bool:
    """Whether a market swap lowers what the seat's own properties will be valued at."""
    first, second = str(action.args[0]), str(action.args[1])
    market = state.market
    change = 0
    for item in state.players[seat].board:
        if item.card in PROPERTIES:
            if item.kind == first:
                change += market[second] - market[first]
            elif item.kind == second:
                change += market[first] - market[second]
    return change < 0


HINTS = LastWillHints()
"""The hints ``bot/core/registry.py`` gives Last Will's entry."""
