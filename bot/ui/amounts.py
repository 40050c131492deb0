"""Reading the number a player typed in a form ("$50", "1,000", "1 500 €"), or saying why not.

A bid form's label reads "21 to 1,500", so a player may well type the number the way the label,
the table or their own habits write it: with a currency sign, with thousands separators.  This
module reads every such spelling that means one whole number, and refuses, with a reason the form
can put in words (a catalog key), anything it would have to guess at::

    >>> parse_amount(" $1,500 ", "en"), parse_amount("1.500 €", "fr")
    (1500, 1500)
    >>> try:
    ...     parse_amount("1,50", "en")  # 1.5 the French way, or a slip for 150 or 1,500?
    ... except Unreadable as exc:
    ...     print(exc.key)
    host.amount.ambiguous

Accepted: surrounding spaces; one currency sign before or after the number ($, €, £, and The
Estates' M$), a space between them or not; thousands grouped by three digits with ",", a space, a
no-break space (U+00A0) or a narrow no-break space (U+202F, how French tables write 1 500); in
French also "." (``1.500``), since French writes decimals with a comma.  Digits are ASCII 0-9 only.

Refused, each with its own reason (``host.amount.<reason>`` in the catalog):

- ``empty``: nothing but spaces (or a lone currency sign).
- ``decimal``: a decimal part in the table's language ("12.5" in English, "12,5" in French), even
  ".00": forms take whole numbers, and "2.0" must not turn into a move of 2 by chance.
- ``ambiguous``: separators that read two ways or none: "1,50" (a French 1.5, or an English typo
  for 150 or 1,500), "1.500" in English (1.5 there, 1500 in French), "1,500" in French, "1 50".
- ``negative``: a minus sign (hyphen, U+2212 or an en dash), even on 0.
- ``exponent``: "1e3".  Refused rather than read as 1000: nobody bids that way on purpose, and a
  reading of "1e3" is as likely a slip (a key next to 1) as a number; the sentence shows how to
  write it in full.
- ``words``: letters ("douze", "12 dollars", "1.5k", "NaN").
- ``unreadable``: anything else (other scripts' digits "١٢", "½", a "+" or two signs, "1_0").

This module is pure (no Discord): :class:`bot.ui.clicks.Clicks` reads a form with it, and
:class:`TypedValues` keeps what was typed for the form's "Try again".
"""

from __future__ import annotations

import re
from collections import OrderedDict

__all__ = ["REASONS", "TypedValues", "Unreadable", "parse_amount"]

REASONS = ("empty", "decimal", "ambiguous", "negative", "exponent", "words", "unreadable")
"""Every reason :func:`parse_amount` may give; each is the catalog key ``host.amount.<reason>``."""

SIGNS = ("M$", "$", "€", "£")
"""Currency signs a number may carry, longest first (``M$`` before ``$``): how our tables write
money in either language (Monopoly "$1,500" / "1 500 $", The Estates "5 M$", Last Will "£5")."""

MINUS = "-\u2212\u2013"
"""A hyphen, the minus sign and the en dash: what a negative number starts with when typed."""

SPACES = " \u00a0\u202f"
"""A space, a no-break space and a narrow no-break space: all the same thousands separator."""

_DECIMAL_COMMA = frozenset({"fr"})
"""Languages that write a decimal comma (12,5) and may group thousands with a point (1.500)."""

_SEPARATED = re.compile(r"[0-9,.\u0020\u00a0\u202f]+")
"""Digits and separators only (the grouping is judged afterwards)."""

_PARTS = re.compile(r"([,.\u0020\u00a0\u202f])")
_EXPONENT = re.compile(r"[0-9][0-9,.]*[eE][+\-\u2212]?[0-9]+")


class Unreadable(ValueError):
    """Why a typed amount is not one whole number; ``reason`` is one of :data:`REASONS`."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason

    @property
    def key(self) -> str:
        """The catalog key of the sentence a player reads (``{value}``: what they typed)."""
        return f"host.amount.{self.reason}"


def parse_amount(text: str, language: str) -> int:
    """The whole number ``text`` means at a table in ``language`` ("en", "fr"...).

    Raises :class:`Unreadable` with a reason when ``text`` is not exactly one readable number;
    bounds are not checked here (the form knows them).  A language other than French reads as
    English does (a decimal point, a comma between thousands).
    """
    body = text.strip()
    negative = False
    if body[:1] and body[0] in MINUS:
        negative, body = True, body[1:].lstrip()
    body = _without_sign(body)
    if not negative and body[:1] and body[0] in MINUS:  # "$-50"
        negative, body = True, body[1:].lstrip()
    if not body:
        raise Unreadable("empty" if not negative else "unreadable")
    if _EXPONENT.fullmatch(body):
        raise Unreadable("exponent")
    if any(c.isalpha() for c in body):
        raise Unreadable("words")
    if not _SEPARATED.fullmatch(body) or not any("0" <= c <= "9" for c in body):
        raise Unreadable("unreadable")
    number = _grouped(body, language)
    if negative:
        raise Unreadable("negative")
    return number


def _without_sign(body: str) -> str:
    """``body`` without one currency sign at its start or its end (and the spaces beside it)."""
    for sign in SIGNS:
        if body.startswith(sign):
            return body[len(sign) :].lstrip()
        if body.endswith(sign):
            return body[: -len(sign)].rstrip()
    return body


def _grouped(body: str, language: str) -> int:
    """Digits with separators (``body`` holds nothing else) as one number, or why not."""
    parts = _PARTS.split(body)
    groups = parts[0::2]
    marks = [" " if mark in SPACES else mark for mark in parts[1::2]]
    if not marks:
        return int(body)
    if any(not group for group in groups):  # "1,,500", "1 ,500", "50.", ".5"
        raise Unreadable("ambiguous")
    decimal, grouping = (",", {".", " "}) if language in _DECIMAL_COMMA else (".", {",", " "})
    if marks[-1] == decimal and decimal not in marks[:-1]:
        whole, whole_marks = groups[:-1], marks[:-1]
        if whole_marks and not (_by_threes(whole, whole_marks) and whole_marks[0] in grouping):
            raise Unreadable("ambiguous")
        # A decimal here; but "1.500" (English) or "1,500" (French) is also a thousand and a
        # half the other way round, and a player may come from either.
        raise Unreadable("ambiguous" if _by_threes(groups, marks) else "decimal")
    if marks[0] in grouping and _by_threes(groups, marks):
        return int("".join(groups))
    raise Unreadable("ambiguous")


def _by_threes(groups: list[str], marks: list[str]) -> bool:
    """Whether the groups read as thousands: one kind of separator, 1 to 3 digits, then threes."""
    return len(set(marks)) == 1 and 1 <= len(groups[0]) <= 3 and all(len(g) == 3 for g in groups[1:])


class TypedValues:
    """What each player last typed into a form that was refused, for its "Try again" button.

    Kept in memory only, keyed by ``(user, game, form kind)`` with the public version the form
    was opened at: a form's custom_id never carries what was typed (a refused bid above one's money
    in The Estates would tell a reader of ids something about it), and a restart simply forgets,
    so "Try again" then opens an empty form.  At most ``limit`` entries, the oldest dropped first:
    a player who never comes back costs nothing for long.
    """

    def __init__(self, limit: int = 1000) -> None:
        self.limit = limit
        self._typed: OrderedDict[tuple[int, int, str], tuple[int, str]] = OrderedDict()

    def remember(self, user_id: int, game_id: int, kind: str, version: int, text: str) -> None:
        key = (user_id, game_id, kind)
        self._typed.pop(key, None)
        self._typed[key] = (version, text)
        while len(self._typed) > self.limit:
            self._typed.popitem(last=False)

    def recall(self, user_id: int, game_id: int, kind: str, version: int) -> str:
        """What was typed into that form opened at ``version``; ``""`` if nothing (or for another
        version: a form reopened after the game moved on starts empty)."""
        found = self._typed.get((user_id, game_id, kind))
        return found[1] if found is not None and found[0] == version else ""

    def forget(self, user_id: int, game_id: int, kind: str) -> None:
        self._typed.pop((user_id, game_id, kind), None)

    def __len__(self) -> int:
        return len(self._typed)
