"""Estates positions for tests and tools, built with the box's bookkeeping kept true.

A test of scoring needs three rows of buildings; playing to them takes dozens of auctions whose
pieces depend on the shuffle.  Every step here moves pieces the way the box does: checks only
change hands (or go into a cash box), so the money still adds up to $12 million a player; a
floor cube comes from the display or from the cubes out of the game, and a round always has
24 cubes drawn (display plus board), so bringing one in from outside sends an unnamed display
cube out; a rooftop or a permit comes from its supply; the first cube of a colour on the board
hands out its certificate.  ``build()`` runs the game's invariants, which also refuse a
position whose round should already be over (two complete rows, or nothing left to complete).

The one random draw during a round is the rooftop revealed when one is picked
(``rng.below(len(roofs_left))`` over the sorted supply): :meth:`EstatesBuilder.next_roofs`
queues its answers in the state's own generator, so the built state replays exactly.

    state = EstatesBuilder(2, seed=7).first(0).row("A", (["red6"], 1), (["red5"], 0)).build()
"""

from __future__ import annotations

from collections.abc import Sequence

from rules.builder import PositionBuilder

from . import RULES, board, data
from .state import CHOOSE, EstatesState

Lot = tuple[Sequence[str], int]
"""A building to stand on a lot: its floor cubes bottom first ("red6", "blue2") and its rooftop (0: none)."""


class EstatesBuilder(PositionBuilder[EstatesState]):
    """An Estates round fresh from ``setup``, changed step by step (each step returns ``self``)."""

    def __init__(self, players: int, *, seed: int = 0, **options: object) -> None:
        super().__init__(RULES, players, options, seed)
        self._named: set[int] = set()
        """Cubes a step put somewhere on purpose: never the ones sent out to keep 24 drawn."""
        self._roofs: list[int] = []

    # --- whose turn ---------------------------------------------------------------------------

    def first(self, seat: int) -> EstatesBuilder:
        """Make ``seat`` the round's first player, on turn to choose (setup draws it at random)."""
        self.on_turn(seat)
        self.state.first_player = seat
        return self

    def on_turn(self, seat: int) -> EstatesBuilder:
        """Make ``seat`` the auctioneer, about to choose a piece, not yet having stowed."""
        self._seat(seat)
        if self.state.phase != CHOOSE or self.state.piece is not None:
            raise self.refuse(f"a turn starts only while choosing, not during the {self.state.phase} phase")
        self.state.auctioneer = seat
        self.state.stowed = False
        return self

    # --- money (hidden in play; a test still needs it set) ----------------------------------------

    def money(self, hand: Sequence[int], cash_box: Sequence[int] | None = None) -> EstatesBuilder:
        """Set every seat's checks in hand and in the cash box; checks only ever change hands, so
        together they must still come to $12 million a player."""
        n = self.state.players
        box = list(cash_box) if cash_box is not None else [0] * n
        if len(hand) != n or len(box) != n:
            raise self.refuse(f"money needs one amount per seat ({n} players)")
        if min(*hand, *box) < 0:
            raise self.refuse("nobody holds a negative amount of checks")
        total = sum(hand) + sum(box)
        if total != data.START_MONEY * n:
            raise self.refuse(
                f"the checks must add up to ${data.START_MONEY * n} million with {n} players, not ${total} million"
            )
        self.state.money, self.state.cash_box = list(hand), box
        return self

    def pay(self, payer: int, payee: int, amount: int) -> EstatesBuilder:
        """Move ``amount`` from ``payer``'s hand to ``payee``'s, as an auction would."""
        self._seat(payer)
        self._seat(payee)
        if not 0 <= amount <= self.state.money[payer]:
            raise self.refuse(
                f"seat {payer} has ${self.state.money[payer]} million in hand, not ${amount} million"
            )
        self.state.money[payer] -= amount
        self.state.money[payee] += amount
        return self

    # --- the board --------------------------------------------------------------------------------

    def row(self, name: str, *lots: Lot, owner: int = 0) -> EstatesBuilder:
        """Stand these buildings on the next lots of row ``name``, each cube taken from the display or
        from outside the game, each rooftop from the supply; a colour new to the board hands its
        certificate to ``owner``."""
        self._seat(owner)
        r = self._row(name)
        row = self.state.rows[r]
        if row.developed + len(lots) > row.requirement:
            raise self.refuse(
                f"row {name} is {row.requirement} lots long: {row.developed + len(lots)} buildings do not fit"
            )
        for tokens, roof in lots:
            lot = row.developed + 1
            cubes = [self._cube(t) for t in tokens]
            numbers = [data.CUBE_NUMBER[c] for c in cubes]
            if not cubes or numbers != sorted(set(numbers), reverse=True) or len(cubes) > data.MAX_STACK:
                raise self.refuse(
                    f"a building is 1 to {data.MAX_STACK} cubes of falling numbers, not {list(tokens)}"
                )
            if board.WHITE[r][lot] and len(cubes) > data.WHITE_DIRT_CAPACITY:
                raise self.refuse(f"lot {lot} of row {name} is white dirt: it holds one floor cube")
            if roof and roof not in self.state.roofs_left:
                raise self.refuse(f"no rooftop of {roof} is left in the supply")
            for cube in cubes:
                self._bring(cube)
            if roof:
                self.state.roofs_left.remove(roof)
            row.stacks.append(cubes)
            row.roofs.append(roof)
            for cube in cubes:
                colour = data.CUBE_COLOUR[cube]
                if self.state.certificates[colour] is None:
                    self.state.certificates[colour] = owner
        return self

    def display(self, *lines: Sequence[str]) -> EstatesBuilder:
        """Lay out the display rows as named (first cube first; ``[]`` for an empty row).  A round
        always has 24 cubes drawn, so the drawn cubes neither named nor built fill the rows left
        unnamed, then go between the first and last cube of the named rows, where nobody can pick
        them until a row's end is taken."""
        if len(lines) > data.DISPLAY_ROWS:
            raise self.refuse(f"the display has {data.DISPLAY_ROWS} rows, not {len(lines)}")
        rows = [[self._cube(t) for t in line] for line in lines]
        unnamed: list[list[int]] = [[] for _ in range(data.DISPLAY_ROWS - len(rows))]
        if any(len(line) > data.DISPLAY_LENGTH for line in rows):
            raise self.refuse(f"a display row holds at most {data.DISPLAY_LENGTH} cubes")
        named = [c for line in rows for c in line]
        if len(set(named)) != len(named):
            raise self.refuse("a cube is named twice in the display")
        built = {c for row in self.state.rows for stack in row.stacks for c in stack}
        for cube in named:
            if cube in built:
                raise self.refuse(f"{data.CUBE_TOKEN[cube]} is already built on the board")
        shown = [c for line in self.state.display for c in line]
        spare = [c for c in shown + sorted(self.state.out_of_game) if c not in named and c not in built]
        missing = data.CUBES_DRAWN - len(built) - len(named)
        room = len(unnamed) * data.DISPLAY_LENGTH
        room += sum(data.DISPLAY_LENGTH - len(line) for line in rows if len(line) >= 2)
        if missing < 0:
            raise self.refuse(f"a round draws {data.CUBES_DRAWN} cubes, not {len(built) + len(named)}")
        if missing > room:
            raise self.refuse(
                f"{missing} more drawn cubes must lie between the ends of the named display rows "
                f"and the rows left unnamed, which have room for {room}: name longer display rows"
            )
        for line in unnamed:
            take = min(missing, data.DISPLAY_LENGTH)
            line.extend(spare[:take])
            del spare[:take]
            missing -= take
        for line in rows:
            if len(line) >= 2 and missing:
                take = min(missing, data.DISPLAY_LENGTH - len(line))
                line[1:1] = spare[:take]
                del spare[:take]
                missing -= take
        self.state.display = rows + unnamed
        self.state.out_of_game = sorted(spare)
        self._named.update(named)
        return self

    def to_front(self, token: str, line: int = 0) -> EstatesBuilder:
        """Put a cube at the front of display row ``line``, where it may be picked: from elsewhere in
        the display (trading places with that row's front cube) or in from outside the game."""
        if not 0 <= line < data.DISPLAY_ROWS:
            raise self.refuse(f"there is no display row {line} (0 to {data.DISPLAY_ROWS - 1})")
        cube = self._cube(token)
        target = self.state.display[line]
        for other in self.state.display:
            if cube in other and other is not target and target:
                other[other.index(cube)] = target[0]
                target[0] = cube
                self._named.add(cube)
                return self
        self._bring(cube, target if len(target) == data.DISPLAY_LENGTH else None)
        target.insert(0, cube)
        if len(target) > data.DISPLAY_LENGTH:
            raise self.refuse(f"display row {line} is full")
        return self

    def certificate(self, colour: str, seat: int) -> EstatesBuilder:
        """Hand the certificate of ``colour`` (on the board already) to ``seat``."""
        self._seat(seat)
        if colour not in data.COLOURS:
            raise self.refuse(f"{colour!r} is not a colour of the game ({', '.join(data.COLOURS)})")
        c = data.COLOURS.index(colour)
        if self.state.certificates[c] is None:
            raise self.refuse(f"no {colour} cube is on the board, so nobody holds its certificate")
        self.state.certificates[c] = seat
        return self

    def permits(self, name: str, *signed: int) -> EstatesBuilder:
        """Lay permits from the supply in row ``name``: +v lengthens the row by v, -v shortens it."""
        r = self._row(name)
        row = self.state.rows[r]
        for change in signed:
            value = abs(change)
            if value not in self.state.permits_unused:
                raise self.refuse(f"permit {value} is not in the supply")
            new = row.requirement + change
            if not data.MIN_REQUIREMENT <= new <= data.MAX_REQUIREMENT or new < row.developed:
                raise self.refuse(
                    f"row {name} cannot be {new} lots long (0 to {data.MAX_REQUIREMENT}, "
                    f"and not shorter than its {row.developed} buildings)"
                )
            self.state.permits_unused.remove(value)
            row.permits.append(change)
        return self

    def mayor(self, name: str) -> EstatesBuilder:
        """Put the Mayor in front of row ``name``."""
        r = self._row(name)
        if not self.state.mayor_available:
            raise self.refuse("the Mayor is not in the supply")
        self.state.mayor_row, self.state.mayor_available = r, False
        return self

    # --- the next draws -----------------------------------------------------------------------------

    def next_roofs(self, *values: int) -> EstatesBuilder:
        """Make the next rooftops revealed be ``values``, in order (queued in the state's generator
        when the position is built, so later steps may still take rooftops from the supply)."""
        self._roofs.extend(values)
        return self

    def build(self) -> EstatesState:
        if self._roofs:
            left = sorted(self.state.roofs_left)
            for value in self._roofs:
                if value not in left:
                    raise self.refuse(f"no rooftop of {value} is left in the supply to reveal")
                self.state.rng.queue(left.index(value))
                left.remove(value)
            self._roofs = []
        return super().build()

    # --- bookkeeping ----------------------------------------------------------------------------------

    def _bring(self, cube: int, prefer: list[int] | None = None) -> None:
        """Take ``cube`` off the display, or in from outside the game with an unnamed display cube
        (from the ``prefer`` row if given, else the longest; a middle one where a row has one, so
        the rows' ends stay) going out in its place."""
        self._named.add(cube)
        for line in self.state.display:
            if cube in line:
                line.remove(cube)
                return
        if any(cube in row_stack for row in self.state.rows for row_stack in row.stacks):
            raise self.refuse(f"{data.CUBE_TOKEN[cube]} is already built on the board")
        lines = [prefer] if prefer is not None else sorted(self.state.display, key=lambda line: -len(line))
        for middle_first in (True, False):
            for line in lines:
                spots = range(1, len(line) - 1) if middle_first else range(len(line))
                for i in spots:
                    if line[i] not in self._named:
                        self.state.out_of_game.append(line.pop(i))
                        self.state.out_of_game.remove(cube)
                        self.state.out_of_game.sort()
                        return
        raise self.refuse(
            f"{data.CUBE_TOKEN[cube]} is out of the game and no unnamed display cube can leave in its place"
        )

    def _cube(self, token: str) -> int:
        if token not in data.TOKEN_CUBE:
            raise self.refuse(f"{token!r} is not a floor cube (a colour and a number 1-6, like 'red5')")
        return data.TOKEN_CUBE[token]

    def _row(self, name: str) -> int:
        if name not in data.ROW_NAMES:
            raise self.refuse(f"there is no row {name!r} (rows {', '.join(data.ROW_NAMES)})")
        return data.ROW_NAMES.index(name)

    def _seat(self, seat: int) -> None:
        if not 0 <= seat < self.state.players:
            raise self.refuse(f"seat {seat} is not at this table ({self.state.players} players)")
