"""The games' generator: SplitMix64 words, unbiased bounds, and a state of two integers.

Every stored game replays from its seed and the draw count, so these words must never change.
"""

from __future__ import annotations

import pytest

from rules.rng import Rng, _mix

MASK = (1 << 64) - 1
GOLDEN = 0x9E3779B97F4A7C15


def test_words_are_splitmix64() -> None:
    # The first outputs of SplitMix64 seeded with 0, as in Vigna's reference implementation
    # (https://prng.di.unimi.it/splitmix64.c).
    rng = Rng(0)
    assert [rng.next64() for _ in range(2)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4]
    assert rng.draws == 2


@pytest.mark.parametrize("seed", [0, 1, 12345, MASK])
def test_below_draws_the_same_words_as_next64(seed: int) -> None:
    """``below`` writes the mix out for speed; it must still be ``next64`` word for word."""
    fast, plain = Rng(seed), Rng(seed)
    for bound in [1, 2, 3, 5, 7, 10, 1000, 2**63 + 1, MASK] * 50:
        limit = (1 << 64) - ((1 << 64) % bound)
        while (word := plain.next64()) >= limit:
            pass
        assert fast.below(bound) == word % bound
        assert fast.draws == plain.draws


def test_below_rejects_words_past_the_last_whole_multiple() -> None:
    # With a bound of 2**63 + 1 only words below it are accepted (about half), so some draws
    # are rejected and the counter advances past them.
    rng = Rng(7)
    values = [rng.below(2**63 + 1) for _ in range(200)]
    assert rng.draws > 200
    assert all(0 <= v <= 2**63 for v in values)


def test_below_needs_a_positive_bound() -> None:
    rng = Rng(1)
    with pytest.raises(ValueError):
        rng.below(0)
    assert rng.draws == 0


def test_state_round_trips_through_json() -> None:
    rng = Rng(99)
    rng.shuffle(list(range(20)))
    copy = Rng.from_json(rng.to_json())
    assert copy == rng
    assert [copy.next64() for _ in range(5)] == [rng.next64() for _ in range(5)]


def test_mix_is_the_word_for_a_counter() -> None:
    rng = Rng(5, draws=41)
    assert rng.next64() == _mix((5 + 42 * GOLDEN) & MASK)


def test_queued_draws_answer_below_first_and_count_as_draws() -> None:
    rng = Rng(5)
    rng.queue(2, 3)
    assert [rng.below(6), rng.below(6)] == [2, 3]
    assert rng.draws == 2
    plain = Rng(5, 2)
    assert rng.below(6) == plain.below(6)  # the stream goes on where the queue left it


def test_a_queue_round_trips_and_an_empty_one_serialises_as_before() -> None:
    rng = Rng(9, 4)
    assert rng.to_json() == [9, 4]
    rng.queue(1, 0)
    assert Rng.from_json(rng.to_json()) == rng
    assert rng != Rng(9, 4)


def test_a_queued_draw_out_of_range_is_refused() -> None:
    rng = Rng(1)
    rng.queue(6)
    with pytest.raises(ValueError):
        rng.below(6)
    assert rng.draws == 0
    with pytest.raises(ValueError):
        Rng(1).queue(-1)
