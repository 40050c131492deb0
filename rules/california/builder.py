"""California positions for tests and tools, built with the table's bookkeeping kept true.

A test of the gift rule needs a mansion with two guests already in it; reaching that by play
takes dozens of moves that depend on the shuffle.  Every step here moves things the way the
box does: a tile comes from where it lies (the draw stack, then the bag, then a store slot,
which the stack refills) and is never copied, silver comes from or goes back to the unlimited
stock (``minted``/``returned``), gifts come from their pile, coins leave the bank for the stock.
Placement rules a step cannot see (rooms of a colour that must touch, a bonus card's furniture)
are left to ``build()``, which runs the game's own invariants.

California draws at random only when it shuffles the bag (once the draw stack is empty), so the
next tiles are set by stacking the draw stack (:meth:`CaliforniaBuilder.next_tiles`), never by
patching the generator; the built state plus its actions replays exactly.

    state = CaliforniaBuilder(4, seed=7).on_turn(0).room(0, 5, GREEN).offer(0, 0, "furniture", GREEN).build()
"""

from __future__ import annotations

from rules.builder import PositionBuilder

from . import RULES, data
from .placement import attic_capacity, grid
from .state import EXPANSION, FURNITURE, ROOM, TILE_COLOUR, TILE_KIND, State

_KINDS = (ROOM, FURNITURE, EXPANSION)


class CaliforniaBuilder(PositionBuilder[State]):
    """A California table fresh from ``setup``, changed step by step (each step returns ``self``)."""

    def __init__(self, players: int, *, seed: int = 0, **options: object) -> None:
        super().__init__(RULES, players, options, seed)

    # --- the clock ------------------------------------------------------------------------

    def on_turn(self, seat: int) -> CaliforniaBuilder:
        """Make ``seat`` the player on turn (setup draws the start player at random)."""
        self.state.turn = self._seat(seat)
        return self

    def day(self, day: int) -> CaliforniaBuilder:
        """Set the day (1-12): the game ends after the last one, so a test of the end starts there."""
        if not 1 <= day <= data.DAYS:
            raise self.refuse(f"day {day} is not a day of the game (1 to {data.DAYS})")
        self.state.day = day
        return self

    def bank(self, coins: int) -> CaliforniaBuilder:
        """Leave ``coins`` gold coins on the bank (the price); the others go back to the stock,
        as if taken and spent, so the money the stock issued still matches what is held."""
        if not 1 <= coins <= data.BANK_SPACES:
            raise self.refuse(f"the bank holds 1 to {data.BANK_SPACES} coins during a day, not {coins}")
        self.state.minted += (coins - self.state.bank) * data.GOLD
        self.state.bank = coins
        return self

    # --- assets ---------------------------------------------------------------------------

    def money(self, seat: int, silver: int) -> CaliforniaBuilder:
        """Give ``seat`` exactly ``silver``: the difference comes from, or goes back to, the stock."""
        p = self.state.players[self._seat(seat)]
        if silver < 0:
            raise self.refuse(f"seat {seat} cannot hold {silver} silver")
        self.state.minted += silver - p.money
        p.money = silver
        return self

    def gifts(self, seat: int, count: int) -> CaliforniaBuilder:
        """Hand ``seat`` ``count`` more gifts from the pile."""
        p = self.state.players[self._seat(seat)]
        if count > self.state.gift_supply:
            raise self.refuse(f"the gift pile has only {self.state.gift_supply} gifts left")
        if p.gifts + count < 0:
            raise self.refuse(f"seat {seat} has only {p.gifts} gifts to give back")
        self.state.gift_supply -= count
        p.gifts += count
        return self

    def bonus_card(self, card: int, seat: int) -> CaliforniaBuilder:
        """Give bonus card ``card`` to ``seat`` (whose furniture must earn it: ``build()`` checks)."""
        if not 0 <= card < len(data.BONUS_CARDS):
            raise self.refuse(f"there is no bonus card {card} (0 to {len(data.BONUS_CARDS) - 1})")
        owner = self.state.bonus[card]
        if owner is not None and owner != seat:
            raise self.refuse(f"bonus card {card} is already with seat {owner}")
        self.state.bonus[card] = self._seat(seat)
        return self

    # --- tiles ------------------------------------------------------------------------------

    def offer(self, store: int, slot: int, kind: str, colour: int = -1) -> CaliforniaBuilder:
        """Put a tile of ``kind`` and ``colour`` in a store slot; the tile there goes under the stack."""
        self._slot(store, slot)
        tile = self._take(kind, colour)
        old = self.state.stores[store][slot]
        if old is not None:
            self.state.stack.insert(0, old)
        self.state.stores[store][slot] = tile
        return self

    def empty_slots(self, store: int, *slots: int) -> CaliforniaBuilder:
        """Empty these slots of ``store`` (all four when none is named); their tiles go under the
        draw stack, as if bought long ago, so emptying the last slot of a store is one purchase away."""
        for slot in slots or range(data.STORE_SLOTS):
            self._slot(store, slot)
            tile = self.state.stores[store][slot]
            if tile is not None:
                self.state.stack.insert(0, tile)
                self.state.stores[store][slot] = None
        return self

    def room(self, seat: int, space: int, colour: int) -> CaliforniaBuilder:
        """Lay a room tile of ``colour`` on ``seat``'s ``space`` (no fee: it is the past)."""
        p = self.state.players[self._seat(seat)]
        self._space(space)
        if space == data.PRINTED_SPACE:
            raise self.refuse(f"space {space} is the printed room of seat {seat}'s mansion")
        if p.rooms[space] is not None:
            raise self.refuse(f"seat {seat} already has a room on space {space}")
        p.rooms[space] = self._take(ROOM, colour)
        return self

    def furnish(self, seat: int, space: int, *, guest: bool = False) -> CaliforniaBuilder:
        """Put furniture of the room's colour in ``seat``'s room on ``space``; with ``guest`` that
        colour's guest comes to visit (from wherever it was), as a purchase would have made it."""
        p = self.state.players[self._seat(seat)]
        self._space(space)
        colour = grid(p)[space]
        if colour < 0:
            raise self.refuse(f"seat {seat} has no room on space {space} to furnish")
        if p.furniture[space] is not None:
            raise self.refuse(f"seat {seat}'s room on space {space} is already furnished")
        p.furniture[space] = self._take(FURNITURE, colour)
        if guest:
            self.state.guests[colour] = seat
        return self

    def attic(self, seat: int, colour: int) -> CaliforniaBuilder:
        """Store a piece of furniture of ``colour`` in ``seat``'s attic."""
        p = self.state.players[self._seat(seat)]
        if len(p.attic) >= attic_capacity(p):
            raise self.refuse(f"seat {seat}'s attic is full ({len(p.attic)} spaces)")
        p.attic.append(self._take(FURNITURE, colour))
        return self

    def expansion(self, seat: int) -> CaliforniaBuilder:
        """Put an attic expansion on ``seat``'s mansion."""
        p = self.state.players[self._seat(seat)]
        if p.expansion is not None:
            raise self.refuse(f"seat {seat}'s attic is already expanded")
        p.expansion = self._take(EXPANSION)
        return self

    def stack_left(self, tiles: int) -> CaliforniaBuilder:
        """Leave only the top ``tiles`` tiles in the draw stack; the rest go into the bag, as if
        left over from earlier days, so the next refills run out of stack and shuffle the bag."""
        if not 0 <= tiles <= len(self.state.stack):
            raise self.refuse(f"the draw stack holds {len(self.state.stack)} tiles, not {tiles} or more")
        cut = len(self.state.stack) - tiles
        self.state.bag.extend(self.state.stack[:cut])
        del self.state.stack[:cut]
        return self

    def next_tiles(self, *tiles: int) -> CaliforniaBuilder:
        """Make the next refill draw these tiles first, in this order (store 1's slots first), each
        taken from the draw stack or the bag and put on top of the stack."""
        for tile in tiles:
            if not 0 <= tile < data.TILE_COUNT:
                raise self.refuse(f"there is no tile {tile} (0 to {data.TILE_COUNT - 1})")
            for pile in (self.state.stack, self.state.bag):
                if tile in pile:
                    pile.remove(tile)
                    break
            else:
                raise self.refuse(f"tile {tile} is neither in the draw stack nor in the bag")
        self.state.stack.extend(reversed(tiles))
        return self

    # --- bookkeeping --------------------------------------------------------------------------

    def _take(self, kind: str, colour: int = -1) -> int:
        """A free tile of ``kind`` and ``colour``: from the stack, the bag, or a store (refilled)."""
        if kind not in _KINDS:
            raise self.refuse(f"{kind!r} is not a kind of tile ({', '.join(_KINDS)})")
        if kind == EXPANSION:
            colour = -1
        elif not 0 <= colour < len(data.COLOURS):
            raise self.refuse(f"a {kind} tile needs a colour 0 to {len(data.COLOURS) - 1}, not {colour}")
        state = self.state
        for pile in (state.stack, state.bag):
            for i, t in enumerate(pile):
                if TILE_KIND[t] == kind and TILE_COLOUR[t] == colour:
                    return pile.pop(i)
        for tiles in state.stores:
            for i, slot in enumerate(tiles):
                if slot is not None and TILE_KIND[slot] == kind and TILE_COLOUR[slot] == colour:
                    tiles[i] = state.stack.pop() if state.stack else None
                    return slot
        name = kind if kind == EXPANSION else f"{data.COLOURS[colour]} {kind}"
        raise self.refuse(f"no {name} tile is left outside the mansions")

    def _seat(self, seat: int) -> int:
        if not 0 <= seat < self.state.n:
            raise self.refuse(f"seat {seat} is not at this table ({self.state.n} players)")
        return seat

    def _space(self, space: int) -> None:
        if not 0 <= space < data.SPACES:
            raise self.refuse(f"there is no space {space} on a mansion (0 to {data.SPACES - 1})")

    def _slot(self, store: int, slot: int) -> None:
        if not (0 <= store < data.STORES and 0 <= slot < data.STORE_SLOTS):
            raise self.refuse(
                f"store {store} slot {slot} does not exist ({data.STORES} stores of {data.STORE_SLOTS} slots)"
            )
