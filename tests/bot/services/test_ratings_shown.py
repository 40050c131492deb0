"""The one rating scale players read (:func:`bot.services.ratings.shown`)."""

from __future__ import annotations

from openskill.models import PlackettLuce

from bot.services.ratings import SHOWN_START, fresh, rate, shown
from bot.storage.ratings import Rating


def test_a_newcomer_starts_at_a_round_thousand() -> None:
    assert SHOWN_START == 1000
    assert shown(fresh()) == 1000


def test_the_scale_is_openskills_ordinal_scaled_and_offset() -> None:
    model = PlackettLuce()
    for mu, sigma in ((25.0, 25 / 3), (31.4, 2.2), (12.0, 6.5), (40.0, 0.9)):
        expected = model.rating(mu=mu, sigma=sigma).ordinal(z=3.0, alpha=20, target=1000)
        assert shown(Rating(mu, sigma)) == round(expected)


def test_it_is_conservative_an_uncertain_player_is_shown_lower() -> None:
    assert shown(Rating(30.0, 8.0)) < shown(Rating(30.0, 2.0)) < shown(Rating(31.0, 2.0))


def test_a_first_game_moves_the_winner_up_and_the_loser_down() -> None:
    after = rate(["u:1", "u:2"], [1, 2], {})
    winner, loser = shown(after["u:1"]), shown(after["u:2"])
    assert winner > 1000 > loser
    # About seventy points for a first win, as the docstring promises a reader.
    assert 50 <= winner - 1000 <= 90
