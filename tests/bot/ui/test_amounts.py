"""Reading typed amounts (:mod:`bot.ui.amounts`): what a player may type into a number form, in
English and French tables, and the reason given for what cannot be read.

Below Discord: the forms themselves are driven through SimCord in
``tests/cogs/test_monopoly_forms.py``.
"""

from __future__ import annotations

import string

import pytest

from bot.core.i18n import Catalog
from bot.ui.amounts import REASONS, SIGNS, TypedValues, Unreadable, parse_amount

NBSP, NNBSP = "\u00a0", "\u202f"

READ_IN_BOTH = [
    ("0", 0),
    ("7", 7),
    ("0002", 2),
    ("50", 50),
    ("  50  ", 50),
    ("\t3\n", 3),
    ("$50", 50),
    ("$ 50", 50),
    ("50$", 50),
    ("50 $", 50),
    ("€50", 50),
    ("50 €", 50),
    ("£5", 5),
    ("5 £", 5),
    ("M$5", 5),
    ("5 M$", 5),
    (" 1 500 ", 1500),
    (f"1{NBSP}500", 1500),
    (f"1{NNBSP}500", 1500),
    (f"1{NNBSP}500{NNBSP}$", 1500),
    (f"1 500{NBSP}000", 1_500_000),
    ("1 000 000", 1_000_000),
    ("999999999999", 999_999_999_999),
]

READ_IN_ENGLISH = [
    ("1,000", 1000),
    ("$1,500", 1500),
    ("1,500 $", 1500),
    ("12,345,678", 12_345_678),
    ("£1,000", 1000),
]

READ_IN_FRENCH = [
    ("1.500", 1500),
    ("1.500 €", 1500),
    ("1 500 €", 1500),
    ("1.500.000", 1_500_000),
    ("12.000", 12_000),
    (f"1{NNBSP}500 $", 1500),
    ("5 M$", 5),
]

REFUSED_IN_BOTH = [
    ("", "empty"),
    ("   ", "empty"),
    ("$", "empty"),
    (" € ", "empty"),
    ("douze", "words"),
    ("twelve", "words"),
    ("12 dollars", "words"),
    ("1.5k", "words"),
    ("NaN", "words"),
    ("inf", "words"),
    ("0x10", "words"),
    ("二", "words"),
    ("1e3", "exponent"),
    ("1E3", "exponent"),
    ("2e+2", "exponent"),
    ("$1e3", "exponent"),
    ("-5", "negative"),
    ("−5", "negative"),
    ("–5", "negative"),
    ("- 5", "negative"),
    ("-0", "negative"),
    ("-$50", "negative"),
    ("$-50", "negative"),
    ("-50 €", "negative"),
    ("--5", "unreadable"),
    ("-", "unreadable"),
    ("+2", "unreadable"),
    ("٣", "unreadable"),
    ("２", "unreadable"),
    ("²", "unreadable"),
    ("½", "unreadable"),
    ("Ⅱ", "unreadable"),
    ("∞", "unreadable"),
    ("1_0", "unreadable"),
    ("\u200b2", "unreadable"),
    ("$50$", "unreadable"),
    ("€50€", "unreadable"),
    ("5%", "unreadable"),
    (",", "unreadable"),
    (".", "unreadable"),
    ("1 2", "ambiguous"),
    ("1 50", "ambiguous"),
    ("1  500", "ambiguous"),
    ("1 ,500", "ambiguous"),
    ("50.", "ambiguous"),
    ("1234 567", "ambiguous"),
]

REFUSED_IN_ENGLISH = [
    ("12.5", "decimal"),
    ("2.0", "decimal"),
    ("0.5", "decimal"),
    ("12.50", "decimal"),
    ("1,500.00", "decimal"),
    ("$1,500.50", "decimal"),
    ("1.500", "ambiguous"),  # 1.5 here, 1500 in French
    ("12.000", "ambiguous"),
    ("1,50", "ambiguous"),  # a French 1.5, or a typo
    ("12,5", "ambiguous"),
    ("1.500.000", "ambiguous"),
    ("1,500,00", "ambiguous"),
    ("1 500,50", "ambiguous"),
]

REFUSED_IN_FRENCH = [
    ("12,5", "decimal"),
    ("1,50", "decimal"),
    ("12,50 €", "decimal"),
    ("1 500,5", "decimal"),
    ("1.500,25", "decimal"),
    ("1,500", "ambiguous"),  # 1,5 here, 1500 in English
    ("1,000", "ambiguous"),
    ("12.5", "ambiguous"),
    ("2.0", "ambiguous"),
    ("1.50", "ambiguous"),
    ("1 500.000", "ambiguous"),
    ("1,500.00", "ambiguous"),
]


def reason(text: str, language: str) -> str:
    with pytest.raises(Unreadable) as refused:
        parse_amount(text, language)
    return refused.value.reason


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("text", "number"), READ_IN_BOTH)
def test_read_in_both_languages(text: str, number: int, language: str) -> None:
    assert parse_amount(text, language) == number


@pytest.mark.parametrize(("text", "number"), READ_IN_ENGLISH)
def test_read_in_english(text: str, number: int) -> None:
    assert parse_amount(text, "en") == number


@pytest.mark.parametrize(("text", "number"), READ_IN_FRENCH)
def test_read_in_french(text: str, number: int) -> None:
    assert parse_amount(text, "fr") == number


@pytest.mark.parametrize("language", ["en", "fr"])
@pytest.mark.parametrize(("text", "why"), REFUSED_IN_BOTH)
def test_refused_in_both_languages(text: str, why: str, language: str) -> None:
    assert reason(text, language) == why


@pytest.mark.parametrize(("text", "why"), REFUSED_IN_ENGLISH)
def test_refused_in_english(text: str, why: str) -> None:
    assert reason(text, "en") == why


@pytest.mark.parametrize(("text", "why"), REFUSED_IN_FRENCH)
def test_refused_in_french(text: str, why: str) -> None:
    assert reason(text, "fr") == why


def test_a_language_without_rules_reads_as_english_does() -> None:
    assert parse_amount("1,500", "de") == 1500
    assert reason("12.5", "de") == "decimal"


def test_every_sign_both_sides() -> None:
    for sign in SIGNS:
        for text in (f"{sign}40", f"{sign} 40", f"40{sign}", f"40 {sign}"):
            assert parse_amount(text, "en") == 40, text


def test_only_ascii_digits_are_read() -> None:
    """Every character Python reads as a decimal digit but that is not 0-9 is refused (``int``
    would accept "٣" and "３")."""
    others = [chr(c) for c in range(0x80, 0x30000) if chr(c).isdecimal()]
    assert len(others) > 300
    for char in others:
        with pytest.raises(Unreadable):
            parse_amount(f"1{char}", "en")


def test_every_reason_has_a_sentence_in_every_language_with_the_typed_value() -> None:
    catalog = Catalog.load()
    for language in ("en", "fr"):
        for why in REASONS:
            key = Unreadable(why).key
            assert catalog.has(key, language), (language, key)
            text = catalog.text(key, language, value="1,50")
            assert "{" not in text
            if why != "empty":
                assert "1,50" in text, (language, key)
        assert catalog.has("host.amount.again", language)


def test_every_reason_is_met() -> None:
    met = {why for _, why in REFUSED_IN_BOTH + REFUSED_IN_ENGLISH + REFUSED_IN_FRENCH}
    assert met == set(REASONS)


def test_any_printable_text_is_read_or_refused_never_crashes() -> None:
    """A number, when read, is always made of exactly the digits typed, in order."""
    for a in string.printable:
        for b in "0,. $€-e5":
            for text in (a + b, b + a, f"1{a}5{b}0"):
                for language in ("en", "fr"):
                    try:
                        number = parse_amount(text, language)
                    except Unreadable as exc:
                        assert exc.reason in REASONS
                    else:
                        assert number == int("".join(c for c in text if c in string.digits)), text


def test_typed_values_are_kept_per_player_form_and_version() -> None:
    typed = TypedValues(limit=3)
    typed.remember(1, 10, "bid", 4, "douze")
    assert typed.recall(1, 10, "bid", 4) == "douze"
    assert typed.recall(1, 10, "bid", 5) == "", "the game moved on: an empty form"
    assert typed.recall(2, 10, "bid", 4) == "", "another player's text is never theirs"
    assert typed.recall(1, 11, "bid", 4) == ""
    assert typed.recall(1, 10, "offer_cash.2", 4) == ""
    typed.remember(1, 10, "bid", 4, "treize")
    assert typed.recall(1, 10, "bid", 4) == "treize" and len(typed) == 1
    typed.forget(1, 10, "bid")
    assert typed.recall(1, 10, "bid", 4) == "" and len(typed) == 0


def test_typed_values_stay_bounded() -> None:
    typed = TypedValues(limit=3)
    for user in range(5):
        typed.remember(user, 1, "bid", 0, str(user))
    assert len(typed) == 3
    assert typed.recall(0, 1, "bid", 0) == "" and typed.recall(4, 1, "bid", 0) == "4"
