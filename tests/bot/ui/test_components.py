"""Parsing custom_ids: only ids this bot could have drawn are understood, in full.

A custom_id arrives from Discord's side, so anything may be in it.  A parser that
accepted a valid *prefix* ("1:0:add.1" followed by junk) would act on an id the bot
never produced; the player must get the "not one this bot made" refusal instead.
Clicks through Discord are in ``test_discord_inputs.py``.
"""

from __future__ import annotations

import pytest

from bot.ui.components import MAX_ID, Malformed, Ref, custom_id, decode_action, parse_lobby, parse_ref
from rules.core import Action

TRAILING_JUNK = [
    "1:0:add.1 junk",
    "1:0:add.1\n",
    "1:0:add.1 ",
    "1:0:add.1:2",
    "1:0:add.1!",
    "1:0:add.1\x00",
    "1:0:add.1/../x",
    "1:0:" + "a" * 81,
]
LEADING_JUNK = [" 1:0:add.1", "x1:0:add.1", "\n1:0:add.1", "-1:0:add.1"]
MISSHAPEN = [
    "",
    "1",
    "1:0",
    "1:0:",
    ":0:add.1",
    "1::add.1",
    "a:0:add.1",
    "1:x:add.1",
    "1234567890123:0:add.1",
]


def test_a_well_formed_reference_parses() -> None:
    assert parse_ref("12:3:add.1") == Ref(12, 3, "add.1")
    assert parse_ref("1:0:buy.0.1.attic") == Ref(1, 0, "buy.0.1.attic")
    assert decode_action(parse_ref("7:9:place.A.4").ref) == Action("place", ("A", 4))


@pytest.mark.parametrize("rest", TRAILING_JUNK + LEADING_JUNK + MISSHAPEN, ids=repr)
def test_a_reference_with_anything_around_it_is_malformed(rest: str) -> None:
    with pytest.raises(Malformed):
        parse_ref(rest)


def test_every_id_the_bot_draws_parses_back_exactly() -> None:
    for game_id, version, ref in ((1, 0, "add.1"), (999_999, 123, "buy.1.3.expansion"), (5, 2, "pick0")):
        value = custom_id("g", game_id, version, ref)
        assert len(value) <= MAX_ID
        assert parse_ref(value.removeprefix("g:")) == Ref(game_id, version, ref)


def test_lobby_ids_parse_only_in_full() -> None:
    assert parse_lobby("4:join") == (4, "join")
    assert parse_lobby("4:withdraw") == (4, "withdraw")
    for rest in (
        "4:join junk",
        "4:join\n",
        "4:start ",
        "4:startx",
        "4:cancel:1",
        " 4:join",
        "4:",
        "4:explode",
    ):
        with pytest.raises(Malformed):
            parse_lobby(rest)
