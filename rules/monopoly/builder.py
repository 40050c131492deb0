"""Monopoly positions for tests and tools, built through steps that keep the bank's books true.

A rule test needs a seat on turn with a full set at three houses, a get-out card in hand and a
seven coming on the dice.  Editing the state's fields for that skips the bookkeeping the
invariants check (the bank's money, 32 houses and 12 hotels each in the bank or on a site, each
card in its deck or one hand) and rigging the dice by patching the engine breaks replay.  Each
step here does one such thing with its bookkeeping, refuses what the game could never show with
a sentence saying why, and returns the builder so steps chain::

    state = (
        MonopolyBuilder(3, seed=7)
        .started(first=0)
        .owns(1, "route-66", "mojave-desert", houses=2)
        .at(0, "go")
        .next_dice((1, 2))
        .build()
    )

Deeds and buildings are handed out free (no money moves: a test states each seat's cash with
:meth:`MonopolyBuilder.cash`, and the bank pays or receives the difference).  Dice and draws are
queued in the state's own generator and deck order, so the built state plus its actions replays
exactly.  Builders are for tests and tools; the host never calls them.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import fields

from rules.builder import PositionBuilder
from rules.core import Action, IllegalAction
from rules.monopoly import RULES, data, engine
from rules.monopoly.auction import bidding
from rules.monopoly.state import BUY, END, OPENING, OVER, ROLL, MonopolyState
from rules.monopoly.tokens import TOKEN_SPACE, space_token

Where = int | str
"""A board space as its position (0..39) or its token ("rodeo-drive")."""

B = data.BOARD
_PHASES = (ROLL, BUY, END)


def _used(level: int) -> tuple[int, int]:
    """(houses, hotels) a site at ``level`` takes from the box: a hotel stands alone."""
    return (0, 1) if level == data.HOTEL else (level, 0)


class MonopolyBuilder(PositionBuilder[MonopolyState]):
    """A Monopoly game from ``setup``, brought to a position step by step (see the module)."""

    def __init__(self, players: int, *, seed: int = 0, **options: object) -> None:
        super().__init__(RULES, players, options, seed)

    @classmethod
    def of(cls, state: MonopolyState) -> MonopolyBuilder:
        """A builder changing ``state`` itself, one ``setup`` already made: a host test's
        arranged setup (``tests.helpers.ArrangedSetup``) receives the state and must arrange
        that very object, so a restart arranges the same game again."""
        builder = cls.__new__(cls)
        builder.rules = RULES
        builder.state = state
        return builder

    # --- names ----------------------------------------------------------------------------------

    def _seat(self, seat: int) -> int:
        """``seat``, refused unless it still plays at this table."""
        state = self.state
        if not 0 <= seat < state.players:
            raise self.refuse(f"seat {seat} is not at this table ({state.players} players)")
        if not state.alive[seat]:
            raise self.refuse(f"seat {seat} is out of the game")
        return seat

    def _space(self, where: Where) -> int:
        if isinstance(where, str):
            if where not in TOKEN_SPACE:
                raise self.refuse(f"there is no space {where!r} on the board")
            return TOKEN_SPACE[where]
        if not 0 <= where < data.SPACES:
            raise self.refuse(f"space {where} is off the board (0 to {data.SPACES - 1})")
        return where

    def _property(self, where: Where) -> int:
        pos = self._space(where)
        if not B[pos].price:
            raise self.refuse(f"{space_token(pos)} ({pos}) is not a property")
        return pos

    def _deck(self, deck: str) -> str:
        if deck not in data.DECKS:
            raise self.refuse(f"there is no deck {deck!r} (decks: {', '.join(data.DECKS)})")
        return deck

    def _playing(self) -> None:
        """Refuse a step that needs turns: before the opening rolls there is no seat on turn."""
        if self.state.phase == OPENING:
            raise self.refuse("the game is still at its opening rolls: call started() first")
        if self.state.phase == OVER:
            raise self.refuse("the game is over")

    # --- turns ----------------------------------------------------------------------------------

    def started(self, first: int = 0) -> MonopolyBuilder:
        """Past the opening rolls, ``first`` on turn about to roll (no rolls drawn, no events)."""
        state = self.state
        if state.phase != OPENING:
            raise self.refuse("the game is already past its opening rolls")
        self._seat(first)
        state.rolling = []
        state.opening_rolls = []
        state.turn = first
        state.phase = ROLL
        return self

    def on_turn(self, seat: int, phase: str = ROLL) -> MonopolyBuilder:
        """``seat`` on turn in ``phase``: "roll" (before a roll), "buy" (on an unowned property it
        stands on) or "end" (the move done).  No double is pending: the turn starts afresh."""
        self._playing()
        state = self.state
        self._seat(seat)
        if phase not in _PHASES:
            raise self.refuse(f"phase {phase!r} is not a turn's phase ({', '.join(_PHASES)})")
        pos = state.position[seat]
        if phase == BUY and (not B[pos].price or state.owner[pos] is not None):
            raise self.refuse(
                f"seat {seat} stands on {space_token(pos)} ({pos}), not an unowned property: "
                "the buy phase needs one (move it there with at())"
            )
        state.turn, state.phase = seat, phase
        state.again, state.doubles, state.dice = False, 0, []
        return self

    def at(self, seat: int, where: Where) -> MonopolyBuilder:
        """``seat``'s token on ``where`` (no GO salary, nothing happens there)."""
        state = self.state
        self._seat(seat)
        pos = self._space(where)
        if state.pool[seat] is not None and pos != data.POOL:
            raise self.refuse(f"seat {seat} is at the Pool Party: its token stays on {data.POOL}")
        state.position[seat] = pos
        return self

    def in_pool(self, seat: int, tries: int = 0) -> MonopolyBuilder:
        """``seat`` at the Pool Party with ``tries`` failed rolls behind it."""
        self._seat(seat)
        if not 0 <= tries < data.POOL_TRIES:
            raise self.refuse(
                f"a seat at the Pool Party has failed 0 to {data.POOL_TRIES - 1} tries, not {tries}"
            )
        self.state.position[seat] = data.POOL
        self.state.pool[seat] = tries
        return self

    # --- money and holdings ---------------------------------------------------------------------

    def cash(self, seat: int, amount: int) -> MonopolyBuilder:
        """``seat`` holds ``amount``; the bank pays or takes the difference (the total is fixed)."""
        self._seat(seat)
        if amount < 0:
            raise self.refuse(f"cash is never negative (asked {amount} for seat {seat})")
        state = self.state
        state.bank -= amount - state.cash[seat]
        state.cash[seat] = amount
        return self

    def owns(self, seat: int, *spaces: Where, houses: int = 0, mortgaged: bool = False) -> MonopolyBuilder:
        """``seat`` holds ``spaces``, each with ``houses`` buildings (5 is a hotel), mortgaged or not.

        Deeds come free from the bank; buildings come from (and go back to) the bank's supply.
        Calling it again on a seat's own property changes its buildings or mortgage, so a group
        at 4-4-hotel is ``owns(s, a, b, c, houses=4).owns(s, c, houses=5)``.  Refused: a deed
        another seat holds, buildings off a full unmortgaged set of sites or uneven in their
        group (a hotel counts as five), a mortgage in a group with buildings, more buildings
        than the bank has, and a deed named in an open offer."""
        state = self.state
        self._seat(seat)
        if not spaces:
            raise self.refuse("owns() needs at least one space")
        if not 0 <= houses <= data.HOTEL:
            raise self.refuse(f"a site has 0 to 4 houses or a hotel (5), not {houses}")
        named = [self._property(where) for where in spaces]
        for pos in named:
            holder = state.owner[pos]
            if holder is not None and holder != seat:
                raise self.refuse(f"{space_token(pos)} already belongs to seat {holder}")
            if houses and B[pos].kind != data.SITE:
                raise self.refuse(f"{space_token(pos)} is not a site: it never has buildings")
            if houses and mortgaged:
                raise self.refuse(f"{space_token(pos)} cannot be mortgaged with buildings on it")
            self._not_offered(pos)
        owner = list(state.owner)
        level = list(state.level)
        marked = list(state.mortgaged)
        for pos in named:
            owner[pos], level[pos], marked[pos] = seat, houses, mortgaged
        self._check_groups({data.GROUP_AT[pos] for pos in named}, owner, level, marked)
        houses_now = sum(_used(lv)[0] for lv in level)
        hotels_now = sum(_used(lv)[1] for lv in level)
        houses_left = data.HOUSE_SUPPLY - houses_now
        hotels_left = data.HOTEL_SUPPLY - hotels_now
        if houses_left < 0:
            more = state.houses - houses_left
            raise self.refuse(f"the bank has only {state.houses} houses left ({more} asked)")
        if hotels_left < 0:
            more = state.hotels - hotels_left
            raise self.refuse(f"the bank has only {state.hotels} hotels left ({more} asked)")
        state.owner, state.level, state.mortgaged = owner, level, marked
        state.houses, state.hotels = houses_left, hotels_left
        return self

    def _check_groups(
        self, groups: Iterable[tuple[int, ...]], owner: list[int | None], level: list[int], marked: list[bool]
    ) -> None:
        """The building rules a finished position must show in each colour group touched."""
        for group in groups:
            levels = [level[p] for p in group]
            if not any(levels):
                continue
            names = ", ".join(space_token(p) for p in group)
            holders = {owner[p] for p in group}
            if len(holders) != 1:
                raise self.refuse(f"buildings need the whole group ({names}) in one seat's hands")
            if any(marked[p] for p in group):
                raise self.refuse(f"a group with buildings ({names}) has no mortgaged site")
            if max(levels) - min(levels) > 1:
                raise self.refuse(f"buildings go up evenly: {names} would stand at {levels}")

    def bank_houses(self, count: int) -> MonopolyBuilder:
        """Refuse unless the bank holds ``count`` houses: the box's 32 are all in the bank or on
        sites (an invariant), so the supply is set by building with :meth:`owns`; this states it."""
        return self._supply("houses", self.state.houses, data.HOUSE_SUPPLY, count)

    def bank_hotels(self, count: int) -> MonopolyBuilder:
        """Refuse unless the bank holds ``count`` hotels (as :meth:`bank_houses`, of 12)."""
        return self._supply("hotels", self.state.hotels, data.HOTEL_SUPPLY, count)

    def _supply(self, item: str, have: int, box: int, count: int) -> MonopolyBuilder:
        if count != have:
            raise self.refuse(
                f"the bank has {have} {item}, not {count}: all {box} {item} of the box are in the bank "
                f"or on sites, so build on sites with owns(..., houses=...) to leave fewer"
            )
        return self

    def unowned(self, *spaces: Where) -> MonopolyBuilder:
        """``spaces`` back with the bank, unmortgaged.  Refused for a site of a group with
        buildings (take them off first with ``owns(..., houses=0)``) and a deed named in an open
        offer."""
        state = self.state
        named = [self._property(where) for where in spaces]
        for pos in named:
            if B[pos].kind == data.SITE and any(state.level[p] for p in data.GROUP_AT[pos]):
                raise self.refuse(f"{space_token(pos)}'s group has buildings: take them off first")
            self._not_offered(pos)
        for pos in named:
            state.owner[pos], state.mortgaged[pos] = None, False
        return self

    def _not_offered(self, pos: int) -> None:
        """Refuse changing a deed an open offer names: its terms were checked against the deed
        as it was, and only play lapses an offer."""
        for offer in self.state.offers:
            if pos in offer.give.props + offer.want.props:
                raise self.refuse(f"{space_token(pos)} is named in open offer {offer.number}")

    def getout(self, seat: int, deck: str) -> MonopolyBuilder:
        """``seat`` holds ``deck``'s get-out card, taken from the deck (or from whoever held it)."""
        state = self.state
        self._seat(seat)
        self._deck(deck)
        card = data.GETOUT_CARD[deck]
        if state.getout[deck] is None:
            state.decks[deck].remove(card)
        state.getout[deck] = seat
        return self

    def out(self, seat: int) -> MonopolyBuilder:
        """``seat`` bankrupt to the bank: its cash, deeds and buildings go back to the bank, its
        get-out cards to the bottom of their decks.  Refused for the seat on turn, a seat named
        in an open offer, and the last but one seat (the game would be over)."""
        state = self.state
        self._seat(seat)
        if sum(state.alive) <= data.MIN_PLAYERS:
            raise self.refuse(f"seat {seat} is one of the last {data.MIN_PLAYERS}: the game would be over")
        if state.phase != OPENING and state.turn == seat:
            raise self.refuse(f"seat {seat} is on turn: put another seat on turn first")
        if any(seat in (o.proposer, o.recipient) for o in state.offers):
            raise self.refuse(f"seat {seat} is named in an open offer")
        for pos in data.PROPERTIES:
            if state.owner[pos] == seat:
                houses, hotels = _used(state.level[pos])
                state.houses += houses
                state.hotels += hotels
                state.owner[pos], state.level[pos], state.mortgaged[pos] = None, 0, False
        for deck in data.DECKS:
            if state.getout[deck] == seat:
                state.getout[deck] = None
                state.decks[deck].append(data.GETOUT_CARD[deck])
        state.bank += state.cash[seat]
        state.cash[seat] = 0
        state.pool[seat] = None
        state.drafts[seat] = None
        state.alive[seat] = False
        state.out.append(seat)
        if seat in state.rolling:
            state.rolling.remove(seat)
        return self

    # --- chance -----------------------------------------------------------------------------------

    def next_dice(self, *rolls: tuple[int, int]) -> MonopolyBuilder:
        """The next rolls, first first, from the state's own generator: each roll of the game
        (opening, turn, Pool Party, a utility card's) is two draws of a die, as
        ``turn.roll_dice`` takes them."""
        for roll in rolls:
            if len(roll) != 2 or not all(1 <= die <= 6 for die in roll):
                raise self.refuse(f"a roll is two dice from 1 to 6, not {roll}")
        for a, b in rolls:
            self.state.rng.queue(a - 1, b - 1)
        return self

    def top_card(self, deck: str, *cards: str) -> MonopolyBuilder:
        """``cards`` (their tokens in the deck, "dividend" or "chance-dividend") on top of
        ``deck``, in that order; the rest keep theirs."""
        state = self.state
        self._deck(deck)
        tokens = [c.token for c in data.CARDS[deck]]
        chosen: list[int] = []
        for name in cards:
            token = name.removeprefix(f"{deck}-")
            if token not in tokens:
                raise self.refuse(f"there is no card {name!r} in the {deck} deck")
            index = tokens.index(token)
            if index not in state.decks[deck]:
                raise self.refuse(f"{deck}-{token} is not in its deck: seat {state.getout[deck]} holds it")
            if index in chosen:
                raise self.refuse(f"{deck}-{token} is named twice")
            chosen.append(index)
        state.decks[deck] = chosen + [c for c in state.decks[deck] if c not in chosen]
        return self

    # --- deals ----------------------------------------------------------------------------------

    def offer(
        self,
        proposer: int,
        recipient: int,
        *,
        give: Iterable[Where] = (),
        want: Iterable[Where] = (),
        give_cards: Iterable[str] = (),
        want_cards: Iterable[str] = (),
        cash: int = 0,
        ask: int = 0,
    ) -> MonopolyBuilder:
        """An open offer from ``proposer`` to ``recipient``, drafted and sent by the game's own
        actions (so it is numbered, checked and lapses like any other); read its number with
        :meth:`offer_number`."""
        self._playing()
        self._seat(proposer)
        self._seat(recipient)
        steps = [Action("deal", (recipient,))]
        steps += [Action("give", (self._property(w),)) for w in give]
        steps += [Action("want", (self._property(w),)) for w in want]
        steps += [Action("givec", (self._deck(d),)) for d in give_cards]
        steps += [Action("wantc", (self._deck(d),)) for d in want_cards]
        steps += [Action("cash", (cash,))] if cash else []
        steps += [Action("ask", (ask,))] if ask else []
        steps.append(Action("send"))
        before = RULES.load(RULES.dump(self.state))
        try:
            for step in steps:
                engine.apply(self.state, proposer, step)
        except IllegalAction as refused:
            self._restore(before)
            raise self.refuse(
                f"seat {proposer} cannot make that offer to seat {recipient}: "
                f"the game refuses {step.encode()!r}: {refused}"
            ) from None
        return self

    def _restore(self, before: MonopolyState) -> None:
        """Put every field back as it was in ``before``, in place (see :meth:`of`): a step that
        plays the game's own moves leaves nothing behind when one of them is refused."""
        for name in (f.name for f in fields(MonopolyState)):
            setattr(self.state, name, getattr(before, name))

    def offer_number(self, proposer: int, recipient: int) -> int:
        """The number of the open offer from ``proposer`` to ``recipient`` (what accept.<n> names)."""
        for offer in self.state.offers:
            if offer.proposer == proposer and offer.recipient == recipient:
                return offer.number
        raise self.refuse(f"seat {proposer} has no open offer to seat {recipient}")

    # --- auctions ---------------------------------------------------------------------------------

    def auction(
        self,
        where: Where,
        *,
        by: int | None = None,
        bidders: Iterable[int] | None = None,
        high: tuple[int, int] | None = None,
        mode: str | None = None,
    ) -> MonopolyBuilder:
        """An auction of ``where`` under way, reached by the game's own moves so its bookkeeping
        (bidding order, passes, bid count, the auction clock's count) is what play makes.

        ``by`` (the seat on turn unless named) stands on the unowned property and declines it, so
        it is left on turn with its move done and every seat in the game bids, starting at its
        left; the seats not in ``bidders`` then pass and ``high=(amount, seat)`` is a real bid.
        ``mode`` ("open" or "round") is the table's ``auction`` option from now on, as if the
        table had chosen it; unnamed, the table's stays.  Refused: a lot already under the hammer
        or owned, a bid by a seat not bidding or that would close the auction (no other bidder),
        and in a round auction an order the turns cannot give (a bidder who must act before
        the passes and the bid are done); a move the game refuses (a bid over the bidder's cash)
        leaves the position as it was."""
        self._playing()
        state = self.state
        if state.auction is not None:
            raise self.refuse(f"an auction of {state.auction.item} is already under way")
        pos = self._property(where)
        if state.owner[pos] is not None:
            raise self.refuse(
                f"{space_token(pos)} belongs to seat {state.owner[pos]}: only the bank's deeds go to auction"
            )
        if mode is not None and mode not in data.AUCTION_MODES:
            raise self.refuse(f"an auction is {' or '.join(data.AUCTION_MODES)}, not {mode!r}")
        seller = self._seat(state.turn if by is None else by)
        alive = [s for s in range(state.players) if state.alive[s]]
        keep = list(alive) if bidders is None else [self._seat(s) for s in bidders]
        if not keep:
            raise self.refuse("an auction needs at least one bidder still in")
        if high is not None:
            amount, top = high
            if top not in keep:
                raise self.refuse(f"seat {top} bids {amount} but is not among the bidders {keep}")
            if len(keep) < 2:
                raise self.refuse(f"seat {top}'s bid would close the auction: it has no other bidder")
        before = RULES.load(RULES.dump(state))
        moves: list[tuple[int, Action]] = [(seller, Action("decline"))]
        try:
            self.at(seller, pos).on_turn(seller, BUY)
            if mode is not None:
                state.auction_mode = mode
            engine.apply(state, seller, moves[0][1])
            self._bid_to(keep, high, moves)
        except IllegalAction as refused:
            self._restore(before)
            seat, move = moves[-1]
            raise self.refuse(
                f"the auction of {space_token(pos)} cannot reach that position: "
                f"the game refuses seat {seat}'s {move.encode()!r}: {refused}"
            ) from None
        except Exception:
            self._restore(before)
            raise
        return self

    def _bid_to(self, keep: list[int], high: tuple[int, int] | None, moves: list[tuple[int, Action]]) -> None:
        """Pass for every seat not in ``keep`` and place the ``high`` bid, in an order the auction's
        mode allows (``moves`` records each move, the last one for a refusal's sentence)."""
        state = self.state
        while True:
            auction = state.auction
            assert auction is not None, "the builder refuses a move that would close the auction"
            leaving = [s for s in auction.active if s not in keep]
            if not leaving and high is None:
                return
            if auction.mode == data.ROUND:
                seat = auction.turn
                if seat in leaving:
                    move = Action("pass")
                elif high is not None and seat == high[1]:
                    move = Action("bid", (high[0],))
                else:
                    raise self.refuse(
                        f"in a round auction seat {seat} acts next: it would have to bid or pass "
                        f"before {'the passes' if leaving else 'the bid'} of the position"
                    )
            elif leaving:
                seat, move = leaving[0], Action("pass")
            else:
                assert high is not None and high[1] in bidding(auction)
                seat, move = high[1], Action("bid", (high[0],))
            if move.kind == "bid":
                high = None
            moves.append((seat, move))
            engine.apply(state, seat, move)
