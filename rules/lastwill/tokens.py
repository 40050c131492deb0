"""Names both ways for every id a player or a test types (python-chess's ``parse_square``).

A card's id is its token: the state, actions and events carry ``DIN1`` as it is, so
``card_token`` only checks and returns it, while the ``parse_*`` functions forgive what people
type (any case, spaces, underscores or typographic dashes for ``-``) and answer with the canonical
id. Every lookup raises a :class:`UnknownId` subclass, a ``ValueError`` whose message is a
sentence a player understands and whose ``text`` is what they typed.

>>> parse_card(" boat_a ")
'BOAT-A'
>>> card("s2-ball").crowns
2
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from rules.lastwill import data
from rules.lastwill.data import Card, CardId, EmploymentCard, LastWillCard, PlanTile


class UnknownId(ValueError):
    """Text that names no id of the kind asked for."""

    def __init__(self, text: str, message: str) -> None:
        super().__init__(message)
        self.text = text


class UnknownCard(UnknownId):
    def __init__(self, text: str) -> None:
        super().__init__(
            text, f'No card has the id "{text}"; card ids look like DIN1, F3, BOAT-A or S2-BALL.'
        )


class UnknownEmployment(UnknownId):
    def __init__(self, text: str) -> None:
        super().__init__(
            text,
            f'No employment card is "{text}"; name one by its number (1 to 20), its id (E1 to E20) or its job.',
        )


class UnknownLastWill(UnknownId):
    def __init__(self, text: str) -> None:
        super().__init__(
            text, f'No Last Will card has the id "{text}"; the ids are LW-B1 to LW-B7 and LW-4A to LW-5E.'
        )


class UnknownPlanTile(UnknownId):
    def __init__(self, text: str) -> None:
        super().__init__(text, f'No plan tile has the id "{text}"; the ids are A1 to A8 and B1 to B8.')


_SEPARATORS = re.compile(r"[\s_\u2010-\u2015\u2212-]+")
"""Runs of spaces, underscores and dashes of any kind: people type "lw 4a" and "LW–4A"."""


def _canonical(text: str) -> str:
    return _SEPARATORS.sub("-", text.strip()).strip("-").upper()


def _index(ids: Mapping[str, object]) -> dict[str, str]:
    return {_canonical(i): i for i in ids}


_CARDS: dict[str, CardId] = _index(data.CARDS)
_LAST_WILLS: dict[str, CardId] = _index(data.LAST_WILLS)
_TILES: dict[str, str] = {_canonical(tile.id): tile.id for tile in data.PLAN_TILES}
_TILE_RECORDS: dict[str, PlanTile] = {tile.id: tile for tile in data.PLAN_TILES}
_EMPLOYMENT: dict[str, CardId] = {
    **_index(data.EMPLOYMENT),
    **{str(job.number): job.id for job in data.EMPLOYMENT_CARDS},
    **{_canonical(job.job): job.id for job in data.EMPLOYMENT_CARDS},
}


def card_token(card_id: CardId) -> str:
    """The token of a card: its canonical id (``"DIN1"``); raises :class:`UnknownCard` otherwise."""
    if card_id not in data.CARDS:
        raise UnknownCard(card_id)
    return card_id


def parse_card(text: str) -> CardId:
    """The canonical id a player or test typed (``"din1"`` -> ``"DIN1"``)."""
    found = _CARDS.get(_canonical(text))
    if found is None:
        raise UnknownCard(text)
    return found


def card(text: str) -> Card:
    """The card record for an id, typed in any case."""
    return data.CARDS[parse_card(text)]


def card_name(text: str) -> str:
    """The English name printed on the card ("Boat Trip", "Wedding (special)")."""
    return card(text).name


def employment_token(number: int) -> str:
    """The id of employment card ``number`` (1..20), as ``"E7"``."""
    token = f"E{number}"
    if token not in data.EMPLOYMENT:
        raise UnknownEmployment(str(number))
    return token


def parse_employment(text: str) -> CardId:
    """An employment card's id from its id, its number or its job ("e7", "7", "solicitor")."""
    found = _EMPLOYMENT.get(_canonical(text))
    if found is None:
        raise UnknownEmployment(text)
    return found


def employment(text: str) -> EmploymentCard:
    return data.EMPLOYMENT[parse_employment(text)]


def parse_last_will(text: str) -> CardId:
    """A Last Will card's id ("lw-4a" -> "LW-4A"), as the ``last_will`` option takes it."""
    found = _LAST_WILLS.get(_canonical(text))
    if found is None:
        raise UnknownLastWill(text)
    return found


def last_will(text: str) -> LastWillCard:
    return data.LAST_WILLS[parse_last_will(text)]


def parse_plan_tile(text: str) -> str:
    """A plan tile's id ("b3" -> "B3")."""
    found = _TILES.get(_canonical(text))
    if found is None:
        raise UnknownPlanTile(text)
    return found


def plan_tile(text: str) -> PlanTile:
    return _TILE_RECORDS[parse_plan_tile(text)]
