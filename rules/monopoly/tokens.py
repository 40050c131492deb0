"""Names both ways for every id the engine uses (python-chess's ``square_name``/``parse_square``).

Inside the state and in actions a space is its position 0..39 (short custom_ids, fast
comparisons) and a card is its index in its deck; tests, tools and events name them with these
tokens: ``space_token(39) == "rodeo-drive"``, ``parse_space("rodeo-drive") == 39``,
``card_token("chance", 8) == "chance-float"``.
"""

from __future__ import annotations

import re

from rules.monopoly import data


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _space_tokens() -> tuple[str, ...]:
    slugs = [_slug(space.name) for space in data.BOARD]
    return tuple(slug if slugs.count(slug) == 1 else f"{slug}-{pos}" for pos, slug in enumerate(slugs))


SPACE_TOKENS: tuple[str, ...] = _space_tokens()
TOKEN_SPACE: dict[str, int] = {token: pos for pos, token in enumerate(SPACE_TOKENS)}
CARD_TOKENS: dict[str, tuple[str, ...]] = {
    deck: tuple(f"{deck}-{card.token}" for card in cards) for deck, cards in data.CARDS.items()
}
TOKEN_CARD: dict[str, tuple[str, int]] = {
    token: (deck, index) for deck, tokens in CARD_TOKENS.items() for index, token in enumerate(tokens)
}


def space_token(pos: int) -> str:
    """The token of a board position ("rodeo-drive", "chance-7")."""
    return SPACE_TOKENS[pos]


def parse_space(token: str) -> int:
    """The position a token names; raises ``ValueError`` for an unknown token."""
    if token not in TOKEN_SPACE:
        raise ValueError(f"no space {token!r}")
    return TOKEN_SPACE[token]


def space_name(pos: int) -> str:
    """The space's name in ``data.BOARD`` (English), for tools, logs and tests.  Players read
    spaces in their table's language: ``renderers.monopoly.space_name`` (the catalog's
    ``[monopoly.space]`` for every space that is not a site)."""
    return data.BOARD[pos].name


def card_token(deck: str, index: int) -> str:
    """The token of a card ("chance-float", "tipjar-birthday")."""
    return CARD_TOKENS[deck][index]


def parse_card(token: str) -> tuple[str, int]:
    """(deck, index) of a card token; raises ``ValueError`` for an unknown token."""
    if token not in TOKEN_CARD:
        raise ValueError(f"no card {token!r}")
    return TOKEN_CARD[token]
