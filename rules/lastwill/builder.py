"""Last Will positions for tests and tools, built by named steps instead of field edits.

A Last Will test usually wants one seat's turn in one phase with a given hand, board, job and
purse.  Reaching that by play means a random round-1 deal and a dozen moves; writing the fields
by hand skips what keeps a state true: each card in exactly one place (a card given to a hand
must leave its deck, pile, slot or other hand), the bank's two counters moving with every pound,
the plan order agreeing with the seats' plans.  Each step here does that bookkeeping, refuses a
request it cannot honour with a sentence for the test's author, and returns the builder::

    state = (
        LastWillBuilder(3, seed=1, last_will="lw-4a")
        .past_setup()
        .unemployed()
        .hand(0, "DIN1", "BOAT-D")
        .money(0, 50)
        .order(0, 1, 2)
        .actions(0)
        .build()
    )

Random outcomes stay the state's own: ``stack`` puts cards on top of a face-down deck, and
``reshuffle_next`` queues, through ``state.rng``, the draws that make the next reshuffle of a
pile come out in a chosen order (the only draws the engine takes after setup), so the built
state and its moves replay exactly.  ``from_state`` continues building on a state reached by
play, for a test that rearranges a position halfway through.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from rules.builder import PositionBuilder
from rules.core import Action, IllegalAction
from rules.lastwill import RULES, data, piles
from rules.lastwill.cards import BLACKS, DECK_OF, PROPERTIES, slots_of, spaces
from rules.lastwill.errands import capacity
from rules.lastwill.invariants import invariants
from rules.lastwill.state import (
    ACTIONS,
    DISCARD,
    DRAWING,
    ERRANDS,
    KEEP,
    LIMIT,
    OVER,
    PICK,
    PLANNING,
    LastWillState,
    Owned,
    PlanSpace,
    Slot,
)
from rules.lastwill.turn import start_turn

_SEQUENTIAL = (DRAWING, ERRANDS, ACTIONS)
_LIMITED_SPACES = ("opera", "market", "ext", "demote", "demext")
_DRAW_ONE = "one"
_UNIVERSE = {
    expansion: frozenset(c for deck in data.Deck for c in data.deck_cards(deck, expansion))
    for expansion in (False, True)
}


class LastWillBuilder(PositionBuilder[LastWillState]):
    """A Last Will game set up from ``options`` and ``seed``, then changed step by step."""

    def __init__(self, players: int, *, seed: int = 0, **options: object) -> None:
        super().__init__(RULES, players, options, seed)

    @classmethod
    def from_state(cls, state: LastWillState) -> LastWillBuilder:
        """Go on building from a state reached by play (the steps change ``state`` itself), so a
        test can rearrange a position halfway through without editing its fields."""
        builder = cls.__new__(cls)
        builder.rules = RULES
        builder.state = state
        return builder

    def build(self) -> LastWillState:
        """The state, once the engine's invariants hold and a sequential phase's plan order
        names every seat with a plan of the board (what the engine's turn order reads)."""
        problems = invariants(self.state) + self._order_problems()
        if problems:
            raise self.refuse("the position breaks the game's invariants: " + "; ".join(problems))
        return self.state

    # --- the opening ---------------------------------------------------------------------------

    def past_setup(
        self, *, employed: Iterable[int] = (), keep: Mapping[int, Sequence[str]] | None = None
    ) -> LastWillBuilder:
        """Round 1 set up through the engine's own moves: the handicap pick (``employed``, only
        with ``employment=handicap``) and the round-1 keep-2 discards.  Each seat keeps the cards
        ``keep`` names, else the last two it was dealt; the game then waits in round 1's planning."""
        state = self.state
        employed = sorted(set(employed))
        for seat in employed:
            self._seat(seat)
        if state.phase == PICK:
            low, high = data.HANDICAP_MIN_EMPLOYED, state.count - data.HANDICAP_MIN_UNEMPLOYED
            if not low <= len(employed) <= high:
                raise self.refuse(
                    f"employment=handicap employs {low} to {high} seats: name them (past_setup(employed=[...]))"
                )
        elif employed:
            raise self.refuse("employed seats are picked only at a table with employment=handicap")
        elif state.phase != DISCARD or state.discard_for != KEEP:
            raise self.refuse("the game is already past round 1's setup")
        wanted = dict(keep or {})
        for seat in wanted:
            self._seat(seat)
        if state.phase == PICK:
            for seat in employed:
                self._apply(0, Action("emp", (seat,)))
            self._apply(0, Action("empok"))
        discards: list[tuple[int, tuple[str, ...]]] = []
        for seat, player in enumerate(state.players):  # every choice checked before any is made
            need = state.need[seat]
            if need <= 0:
                continue
            kept = list(wanted.get(seat, player.hand[need:]))
            rest = list(player.hand)
            for card in kept:
                if card not in rest:
                    raise self.refuse(f"seat {seat} cannot keep {card}: its hand is {', '.join(player.hand)}")
                rest.remove(card)
            if len(rest) != need:
                raise self.refuse(
                    f"seat {seat} keeps {data.ROUND_ONE_KEEP} cards after round 1's setup, not {len(kept)}"
                )
            discards.append((seat, tuple(rest)))
        for seat, cards in discards:
            self._apply(seat, Action("discard", cards))
        return self

    def start_player(self, seat: int) -> LastWillBuilder:
        """Who holds the start marker; before anyone has planned, also who plans first."""
        self._seat(seat)
        if self.state.phase == PLANNING and self.state.cursor:
            raise self.refuse("planning has begun: the start player can no longer change this round")
        self.state.start = seat
        return self

    def round(self, number: int) -> LastWillBuilder:
        """The round number (the offering keeps its cards: a test of round 7's end needs no
        other round's offering)."""
        if not 1 <= number <= data.ROUNDS:
            raise self.refuse(f"round {number} is outside 1..{data.ROUNDS}")
        self.state.round = number
        return self

    # --- plans and whose turn it is ------------------------------------------------------------

    def plan_space(self, pos: int, *, cards: int, boys: int, actions: int) -> LastWillBuilder:
        """What plan position ``pos`` gives (cards drawn, errand boys, actions)."""
        state = self.state
        space = next((p for p in state.plans if p.pos == pos), None)
        if space is None:
            raise self.refuse(f"plan position {pos} is not on this board (1..{len(state.plans)})")
        most = data.ERRAND_BOYS if state.expansion else data.BASE_ERRAND_BOYS
        if not 1 <= boys <= most:
            raise self.refuse(f"a plan gives 1 to {most} errand boys at this table, not {boys}")
        if cards < 0 or actions < 0:
            raise self.refuse("a plan gives no negative number of cards or actions")
        space.cards, space.boys, space.actions = cards, boys, actions
        return self

    def order(self, *seats: int) -> LastWillBuilder:
        """Planning done: the seats, first to last, hold plan positions 1, 2, ... and so play in
        that order in the drawing, errands and actions."""
        state = self.state
        for seat in seats:
            self._seat(seat)
        if sorted(seats) != list(range(state.count)):
            raise self.refuse(
                f"the plan order names every seat once (0..{state.count - 1}), not {list(seats)}"
            )
        for pos, seat in enumerate(seats, start=1):
            state.players[seat].plan = pos
        state.order = list(seats)
        return self

    def planning(self, first: int | None = None) -> LastWillBuilder:
        """Round planning from its start, nobody's plan chosen; ``first`` plans first (the start
        player)."""
        self._no_choice_open("planning")
        state = self.state
        if first is not None:
            self._seat(first)
            state.start = first
        for player in state.players:
            player.plan = 0
        state.phase, state.cursor, state.order, state.split = PLANNING, 0, [], {}
        state.errands, state.errand_pass, state.need, state.discard_for = {}, 0, [0] * state.count, ""
        return self

    def drawing(self, seat: int) -> LastWillBuilder:
        """The drawing phase with ``seat`` to name its decks (the seats before it have drawn)."""
        self._sequential(DRAWING, seat)
        self.state.split, self.state.errand_pass = {}, 0
        return self

    def errands(self, seat: int, errand_pass: int = 1) -> LastWillBuilder:
        """The errands with ``seat`` to place a boy in pass ``errand_pass``; boys already placed
        (``occupy``) stay where they are."""
        self._sequential(ERRANDS, seat)
        boys = self._plan(seat).boys
        if not 1 <= errand_pass <= boys:
            raise self.refuse(
                f"seat {seat}'s plan gives {boys} errand boys: it has no boy in pass {errand_pass}"
            )
        self.state.errand_pass = errand_pass
        return self

    def actions(self, seat: int) -> LastWillBuilder:
        """The Actions phase with ``seat``'s turn just begun: its plan's actions and what its
        board grants (Old Friends, Valets, Stewards, Estate Agents), as the engine starts a turn."""
        self._sequential(ACTIONS, seat)
        self.state.errand_pass = 0
        start_turn(self.state)
        return self

    def actions_left(self, actions: int, *, valet: int = 0) -> LastWillBuilder:
        """What is left of the current turn's budget (a test of a move refused for want of one)."""
        if self.state.phase != ACTIONS:
            raise self.refuse("only a turn of the Actions phase has actions left")
        if actions < 0 or valet < 0:
            raise self.refuse("a turn has no negative number of actions left")
        self.state.actions_left, self.state.valet_left = actions, valet
        return self

    def discards(self, need: Mapping[int, int], *, kind: str = LIMIT) -> LastWillBuilder:
        """The simultaneous discard phase (``limit``: the end-of-round hand limit, ``keep``:
        round 1's), each named seat owing ``need[seat]`` cards.  Begun here, a seat left out owes
        none; already under way (same kind), a seat left out keeps what it owes and the discards
        already chosen stay held."""
        state = self.state
        if kind not in (KEEP, LIMIT):
            raise self.refuse(f"the discard phase is {KEEP!r} or {LIMIT!r}, not {kind!r}")
        if state.phase == DISCARD:
            if state.discard_for != kind:
                raise self.refuse(f"a {state.discard_for!r} discard phase is under way, not a {kind!r} one")
            owed = list(state.need)
        else:
            self._no_choice_open("a discard phase")
            owed = [0] * state.count
        for seat, count in need.items():
            self._seat(seat)
            held = len(state.players[seat].hand)
            if not 0 <= count <= held:
                raise self.refuse(f"seat {seat} holds {held} cards: it cannot owe {count} discards")
            owed[seat] = count
        if not any(owed):
            raise self.refuse("a discard phase needs a seat that owes a discard")
        state.phase, state.discard_for, state.need = DISCARD, kind, owed
        return self

    def occupy(self, space: str, *seats: int) -> LastWillBuilder:
        """Errand boys of ``seats`` already on a space (opera, market, ext, demote, demext, or
        ``one`` for the draw-one space), up to its capacity; the boys' effects are not replayed."""
        state = self.state
        for seat in seats:
            self._seat(seat)
        there = state.errands.get(space, [])
        if space == _DRAW_ONE:
            twice = set(seats) & set(there) or {s for s in seats if seats.count(s) > 1}
            if twice:
                raise self.refuse(f"seat {min(twice)} sends one boy a round to the draw-one space")
        elif space in _LIMITED_SPACES:
            room = capacity(state, space)
            if len(there) + len(seats) > room:
                raise self.refuse(f"the {space} space takes {room} errand boys in all")
        else:
            raise self.refuse(f"{space!r} is not an errand space ({', '.join(_LIMITED_SPACES)}, {_DRAW_ONE})")
        state.errands[space] = [*there, *seats]
        return self

    # --- money, jobs, extensions, the market ---------------------------------------------------

    def money(self, seat: int, amount: int) -> LastWillBuilder:
        """Set a seat's money; the bank pays out a rise and takes in a fall, so the money total
        still matches the bank's books."""
        self._seat(seat)
        player = self.state.players[seat]
        change = amount - player.money
        if change > 0:
            self.state.paid_out += change
        else:
            self.state.paid_in -= change
        player.money = amount
        return self

    def job(self, seat: int, job: str, covered: Iterable[int] = ()) -> LastWillBuilder:
        """Give a seat this employment card with demotions on the ``covered`` lines.  A seat
        already holding it gets the first card nobody holds instead, so two seats never share one."""
        self._seat(seat)
        record = data.EMPLOYMENT.get(job)
        if record is None:
            raise self.refuse(f"there is no employment card {job!r}")
        lines = len(record.lines)
        marked = set(covered)
        if not marked <= set(range(lines)):
            raise self.refuse(f"{job} has lines 0..{lines - 1}, not {sorted(marked - set(range(lines)))}")
        if len(marked) == lines:
            raise self.refuse(f"covering every line of {job} sacks the seat: use sacked({seat})")
        state = self.state
        if state.employment == data.EmploymentMode.NONE:
            raise self.refuse(f"this table plays without employment cards (employment={state.employment})")
        for other, player in enumerate(state.players):
            if other != seat and player.job == job:
                used = {p.job for p in state.players}
                spare = next(e.id for e in data.EMPLOYMENT_CARDS if e.id not in used)
                player.job, player.covered = spare, [False] * len(data.EMPLOYMENT[spare].lines)
        player = state.players[seat]
        player.job, player.covered, player.sacked = job, [i in marked for i in range(lines)], False
        return self

    def unemployed(self, *seats: int) -> LastWillBuilder:
        """These seats (every seat if none is named) never held an employment card."""
        for seat in seats or range(self.state.count):
            self._seat(seat)
            player = self.state.players[seat]
            player.job, player.covered, player.sacked = "", [], False
        return self

    def sacked(self, seat: int) -> LastWillBuilder:
        """The seat was sacked: its employment card has left the game (§9)."""
        self._seat(seat)
        player = self.state.players[seat]
        player.job, player.covered, player.sacked = "", [], True
        return self

    def demoted(self, seat: int, earned: bool = True) -> LastWillBuilder:
        """Whether the seat has earned this round's one demotion already."""
        self._seat(seat)
        self.state.players[seat].demoted = earned
        return self

    def extensions(self, seat: int, count: int) -> LastWillBuilder:
        """The seat holds ``count`` board extensions, taken from (or returned to) the supply."""
        self._seat(seat)
        player = self.state.players[seat]
        change = count - player.extensions
        if count < 0:
            raise self.refuse("a seat holds no negative number of board extensions")
        if change > self.state.extensions_left:
            raise self.refuse(f"the supply has only {self.state.extensions_left} board extensions left")
        if len(player.board) > data.BOARD_SPACES + count * data.EXTENSION_SPACES:
            raise self.refuse(
                f"seat {seat}'s {len(player.board)} board cards need more extensions than {count}"
            )
        player.extensions = count
        self.state.extensions_left -= change
        return self

    def market(self, kind: str, token: int) -> LastWillBuilder:
        """Put market token ``token`` on property type ``kind``; the type that held it takes
        ``kind``'s old token, so the four tokens stay one per type."""
        market = self.state.market
        if kind not in market:
            raise self.refuse(f"{kind!r} is not a property type ({', '.join(market)})")
        if token not in data.MARKET_TOKENS:
            raise self.refuse(f"there is no market token {token} (the tokens are {list(data.MARKET_TOKENS)})")
        holder = next(t for t, v in market.items() if v == token)
        market[holder], market[kind] = market[kind], token
        return self

    # --- cards ---------------------------------------------------------------------------------

    def hand(self, seat: int, *cards: str) -> LastWillBuilder:
        """The seat's hand is exactly these cards: the old hand goes where discards go (§2), the
        new cards leave wherever they were."""
        self._seat(seat)
        self._known(cards)
        player = self.state.players[seat]
        for old in list(player.hand):
            if old not in cards:
                player.hand.remove(old)
                piles.discard(self.state, old)
        for card in cards:
            self._take(card)
        player.hand = list(cards)
        return self

    def give(self, seat: int, *cards: str) -> LastWillBuilder:
        """Add cards to a seat's hand from wherever they are (a deck, a pile, a slot, another
        seat's hand or board)."""
        self._seat(seat)
        self._known(cards)
        for card in cards:
            self._take(card)
            self.state.players[seat].hand.append(card)
        return self

    def board(
        self,
        seat: int,
        card: str,
        *,
        kind: str = "",
        step: int = 0,
        tokens: Iterable[str] = (),
        done: bool = False,
    ) -> LastWillBuilder:
        """Lay a property (as ``kind``, its first type by default, value marker on ``step``) or
        a helper/expense on the seat's board, with companion ``tokens`` on its slots; ``done``
        is "maintained" or "used" this round."""
        self._seat(seat)
        self._known([card])
        player = self.state.players[seat]
        prop = PROPERTIES.get(card)
        if prop is None and card not in BLACKS:
            raise self.refuse(f"{card} is not a property, a helper or an expense: it never lies on a board")
        kind = kind or (prop.types[0].value if prop else "")
        if prop is not None:
            if kind not in {t.value for t in prop.types}:
                raise self.refuse(f"{card} is a {' or '.join(t.value for t in prop.types)}, not a {kind}")
            if not 0 <= step < len(prop.track):
                raise self.refuse(f"{card}'s value track has steps 0..{len(prop.track) - 1}, not {step}")
        elif kind or step:
            raise self.refuse(f"{card} is a helper or an expense: it has no type or value step")
        tokens = list(tokens)
        if len(tokens) > len(slots_of(card)):
            raise self.refuse(f"{card} has {len(slots_of(card))} companion slots, not {len(tokens)}")
        on_board = any(item.card == card for item in player.board)
        if not on_board and len(player.board) >= spaces(player):
            raise self.refuse(f"seat {seat}'s board is full ({spaces(player)} spaces)")
        self._take(card)
        player.board.append(Owned(card, kind, step, tokens, done))
        return self

    def offering(self, label: str, card: str) -> LastWillBuilder:
        """Put ``card`` in offering slot ``label``; the card it held goes where unclaimed
        offering cards go at the end of a round."""
        self._known([card])
        slot = self._slot(label)
        if slot.card != card:
            if slot.card:
                piles.discard(self.state, slot.card)
                slot.card = ""
            self._take(card)
            slot.card = card
        return self

    def clear_offering(self, *labels: str) -> LastWillBuilder:
        """Empty these offering slots (every slot if none is named), as taken or run dry; their
        cards go where unclaimed offering cards go at the end of a round."""
        for label in labels or [s.label for s in self.state.offering]:
            slot = self._slot(label)
            if slot.card:
                piles.discard(self.state, slot.card)
                slot.card = ""
        return self

    def stack(self, deck: str, *cards: str) -> LastWillBuilder:
        """The next draws from ``deck`` give these cards, first named first; each leaves
        wherever it was, so the deck holds every card of it exactly once."""
        self._deck(deck)
        self._known(cards)
        strangers = [c for c in cards if DECK_OF[c] != deck]
        if strangers:
            raise self.refuse(
                f"{strangers[0]} belongs to the {DECK_OF[strangers[0]]} deck, not the {deck} deck"
            )
        for card in cards:
            self._take(card)
        self.state.decks[deck].extend(reversed(cards))  # the top of a deck is its last card
        return self

    def deck_size(self, deck: str, count: int) -> LastWillBuilder:
        """Leave ``count`` cards in a regular deck (its top ones); the rest go face up on its
        pile, ready for the reshuffle an empty deck makes (§3.1)."""
        self._deck(deck)
        if deck not in self.state.piles:
            raise self.refuse(f"the {deck} deck has no discard pile: only a regular deck can be thinned")
        cards = self.state.decks[deck]
        if not 0 <= count <= len(cards):
            raise self.refuse(f"the {deck} deck holds {len(cards)} cards: it cannot keep {count}")
        moved = len(cards) - count
        self.state.piles[deck].extend(cards[:moved])
        del cards[:moved]
        return self

    def reshuffle_next(self, deck: str, *top: str) -> LastWillBuilder:
        """When ``deck`` next runs dry, its pile as it lies now is shuffled back with ``top`` on
        top (drawn first named first): the engine's shuffle draws are queued through the state's
        own generator, so nothing is patched and the position replays exactly.  A card
        discarded to the pile before that reshuffle changes the shuffle; the test must not."""
        self._deck(deck)
        pile = list(self.state.piles.get(deck, ()))
        missing = [c for c in top if c not in pile]
        if missing or len(set(top)) != len(top):
            raise self.refuse(
                f"{(missing or list(top))[0]} is not once in the {deck} pile, so no reshuffle can put it on top"
            )
        rest = [c for c in pile if c not in top]
        wanted = rest + list(reversed(top))  # the deck after the shuffle, its top last
        items, draws = pile, []
        for i in range(len(items) - 1, 0, -1):  # rules.rng.Rng.shuffle, answered backwards
            j = items.index(wanted[i], 0, i + 1)
            draws.append(j)
            items[i], items[j] = items[j], items[i]
        self.state.rng.queue(*draws)
        return self

    def queue_draws(self, *values: int) -> LastWillBuilder:
        """The answers of the state's next random draws (``Rng.below``), for a test that knows
        exactly which draws the engine takes."""
        if any(v < 0 for v in values):
            raise self.refuse("a queued draw is never negative")
        self.state.rng.queue(*values)
        return self

    # --- helpers -------------------------------------------------------------------------------

    def _seat(self, seat: int) -> None:
        count = self.state.count
        if not 0 <= seat < count:
            raise self.refuse(f"seat {seat} is not at this table ({count} players)")

    def _apply(self, seat: int, action: Action) -> None:
        try:
            RULES.apply(self.state, seat, action)
        except IllegalAction as exc:
            raise self.refuse(f"the engine refuses {action.encode()} by seat {seat} ({exc.key})") from None

    def _known(self, cards: Iterable[str]) -> None:
        seen: set[str] = set()
        for card in cards:
            if card not in data.CARDS:
                raise self.refuse(f"there is no card {card!r}")
            if card not in _UNIVERSE[self.state.expansion]:
                raise self.refuse(f"{card} is an expansion card and the expansion is off")
            if card in seen:
                raise self.refuse(f"{card} is named twice, and there is one of it")
            seen.add(card)

    def _deck(self, deck: str) -> None:
        if deck not in self.state.decks:
            raise self.refuse(f"there is no {deck!r} deck ({', '.join(self.state.decks)})")

    def _slot(self, label: str) -> Slot:
        found = next((s for s in self.state.offering if s.label == label), None)
        if found is None:
            labels = ", ".join(s.label for s in self.state.offering)
            raise self.refuse(f"there is no offering slot {label!r} at this table ({labels})")
        return found

    def _take(self, card: str) -> None:
        """Lift a card from wherever it is, so a step can put it somewhere else."""
        state = self.state
        pend = state.pending
        if pend is not None and (card in pend.cards or card in pend.used):
            raise self.refuse(f"{card} is in the play in progress; finish or leave that play first")
        for cards in (*state.decks.values(), *state.piles.values(), state.gone, *state.held):
            if card in cards:
                cards.remove(card)
                return
        for player in state.players:
            if card in player.hand:
                player.hand.remove(card)
                return
            for item in player.board:
                if item.card == card:
                    player.board.remove(item)
                    return
        for slot in state.offering:
            if slot.card == card:
                slot.card, slot.boy = "", -1
                return
        raise self.refuse(f"{card} is nowhere in this game")

    def _no_choice_open(self, what: str) -> None:
        if self.state.pending is not None:
            raise self.refuse(f"seat {self.state.pending.seat} has a choice open: answer it before {what}")
        if self.state.phase in (PICK, OVER):
            raise self.refuse(f"the game is in its {self.state.phase!r} phase: {what} cannot begin now")
        if any(self.state.held):
            raise self.refuse("discards are held: finish the discard phase first")

    def _sequential(self, phase: str, seat: int) -> None:
        self._seat(seat)
        self._no_choice_open(f"the {phase} phase")
        state = self.state
        if sorted(state.order) != list(range(state.count)):
            raise self.refuse(f"the {phase} phase needs the plan order: call order(...) first")
        self._plan(seat)
        state.phase, state.cursor, state.discard_for = phase, state.order.index(seat), ""
        state.need = [0] * state.count

    def _plan(self, seat: int) -> PlanSpace:
        pos = self.state.players[seat].plan
        space = next((p for p in self.state.plans if p.pos == pos), None)
        if space is None:
            raise self.refuse(f"seat {seat} has no plan on this board (position {pos})")
        return space

    def _order_problems(self) -> list[str]:
        state = self.state
        if state.phase == PLANNING:
            planned = [s for s in range(state.count) if state.players[s].plan]
            due = [(state.start + i) % state.count for i in range(state.cursor)]
            if sorted(planned) != sorted(due):
                return [f"in planning, seats {sorted(planned)} hold plans but {sorted(due)} have chosen"]
        if state.phase not in _SEQUENTIAL:
            return []
        if sorted(state.order) != list(range(state.count)):
            return [f"the {state.phase} phase has plan order {state.order}, not every seat once"]
        problems: list[str] = []
        positions = {p.pos for p in state.plans}
        plans = [state.players[s].plan for s in state.order]
        if any(pos not in positions for pos in plans) or plans != sorted(set(plans)):
            problems.append(f"the plan order {state.order} does not follow the seats' plans {plans}")
        if not 0 <= state.cursor < state.count:
            problems.append(f"the turn cursor {state.cursor} is outside the plan order")
        return problems
