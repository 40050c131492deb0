"""What every game's position builder shares: the refusal and the final check.

A test, a scenario or a contributor often needs a game at a moment far from its start: Monopoly
with greens at 4-4-hotel and two houses in the bank, Last Will in the errands of round three.
Reaching it by play is long and brittle; editing private fields skips the bookkeeping that keeps
a state true (the bank's money and houses, a deck's cards in exactly one place).  Each game
has a builder (``rules/<game>/builder.py``) with methods named for what a position needs (start
past the opening, give a seat money or a card, put a seat on turn, queue the next dice) that do
that bookkeeping, and ``build()`` returns the state only when the game's own invariants hold.

Builders are for tests and tools, never for play: the host never calls them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Generic, TypeVar

from rules.core import Rules

S = TypeVar("S")


class PositionError(ValueError):
    """A position the builder will not make, with a sentence saying why (for the test's author)."""


class PositionBuilder(Generic[S]):
    """A game fresh from ``setup``, changed step by step; ``build()`` checks it and hands it over.

    Subclasses add the game's steps.  Each step refuses what it cannot do with a
    :class:`PositionError` and returns ``self``, so steps chain::

        state = MonopolyBuilder(3, seed=1).started(first=0).cash(0, 300).build()
    """

    def __init__(self, rules: Rules[S], players: int, options: Mapping[str, object], seed: int) -> None:
        self.rules = rules
        self.state: S = rules.setup(players, options, seed)

    def build(self) -> S:
        """The state, once the game's invariants hold; else a :class:`PositionError` naming them."""
        broken = self.rules.invariants(self.state)
        if broken:
            raise PositionError("the position breaks the game's invariants: " + "; ".join(broken))
        return self.state

    def refuse(self, why: str) -> PositionError:
        """The error a step raises (``raise self.refuse("...")``), so every builder words it alike."""
        return PositionError(why)
