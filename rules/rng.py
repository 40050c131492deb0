"""A seeded, counter-based random generator that serialises to two integers.

``random.Random`` keeps 625 words of hidden state; storing that in every
snapshot would be wasteful and would make replays depend on CPython's
implementation.  A counter-based generator (SplitMix64, Steele et al. 2014)
needs only the seed and how many draws were taken, so ``setup(seed)`` plus the
action log always replays to the same state, byte for byte.

A position builder (``rules/<game>/builder.py``) may *queue* the answers of the next draws
(``queue``): a test that needs a 3 and a 4 on the dice gets them from the state's own generator,
so no module is patched and the built state plus its actions still replays exactly (the queue is
part of the state, serialised after the two integers; an empty queue serialises as before).
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
_WORD = 1 << 64


def _mix(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


class Rng:
    """Deterministic randomness owned by a game state."""

    __slots__ = ("draws", "queued", "seed")

    def __init__(self, seed: int, draws: int = 0, queued: Sequence[int] = ()) -> None:
        self.seed = seed & _MASK
        self.draws = draws
        self.queued = list(queued)
        """Answers of the next ``below`` calls, first first (a position builder's rigged draws)."""

    def queue(self, *values: int) -> None:
        """Make the next ``below`` calls answer ``values`` in order (each still counts as a draw).

        Only position builders call this: a game never does, so play stays random."""
        if any(v < 0 for v in values):
            raise ValueError("queued draws are never negative")
        self.queued.extend(values)

    def next64(self) -> int:
        """The next 64-bit word; each call advances the draw counter by one."""
        self.draws += 1
        return _mix((self.seed + self.draws * _GOLDEN) & _MASK)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)`` (rejection sampling, no modulo bias).

        The mix is written out here rather than calling :meth:`next64`: ``below`` is the
        random player's and the bots' playouts' innermost call, and two Python calls fewer
        per draw is a tenth of a playout's time.  It must stay the same function as
        ``_mix`` (``tests/rules/test_rng.py`` checks that both give the same words).
        """
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if self.queued:
            if self.queued[0] >= n:
                raise ValueError(f"the queued draw {self.queued[0]} is not below {n}")
            self.draws += 1
            return self.queued.pop(0)
        limit = _WORD - (_WORD % n)
        seed = self.seed
        draws = self.draws
        while True:
            draws += 1
            z = (seed + draws * _GOLDEN) & _MASK
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            word = z ^ (z >> 31)
            if word < limit:
                self.draws = draws
                return word % n

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[Any]) -> None:
        """Fisher–Yates shuffle in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def to_json(self) -> list[int]:
        return [self.seed, self.draws, *self.queued]

    @classmethod
    def from_json(cls, data: Sequence[int]) -> Rng:
        return cls(int(data[0]), int(data[1]), [int(v) for v in data[2:]])

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Rng) and (self.seed, self.draws, self.queued) == (
            other.seed,
            other.draws,
            other.queued,
        )

    def __repr__(self) -> str:
        return f"Rng(draws={self.draws})"
