"""California's ids named both ways, for tests, tools and the catalog.

Bonus cards are indices ``0..10`` into :data:`rules.california.data.BONUS_CARDS`; each has a token
("three_red", "gray_purple") that the catalog's ``california.card.<token>`` names in every language,
so events and views carry the index and never an English name.
"""

from __future__ import annotations

from . import data

BonusCard = int
"""An index into :data:`rules.california.data.BONUS_CARDS`."""

_CARD_BY_TOKEN = {token: card for card, (token, _needs, _points) in enumerate(data.BONUS_CARDS)}


def bonus_card_token(card: BonusCard) -> str:
    """``"three_red"`` for card 1; raises ``IndexError`` for a card that does not exist.

    >>> bonus_card_token(10)
    'gray_purple'
    """
    if not 0 <= card < len(data.BONUS_CARDS):
        raise IndexError(f"California has no bonus card {card}")
    return data.BONUS_CARDS[card][0]


def parse_bonus_card(token: str) -> BonusCard:
    """The card a token names (``"gray_purple"`` -> 10); raises ``KeyError`` for an unknown token.

    >>> parse_bonus_card("three_red")
    1
    """
    return _CARD_BY_TOKEN[token]
