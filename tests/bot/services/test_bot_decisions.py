"""Every game can be played by bots, and a bot's move depends on what its seat sees, nothing else.

The bot players' driver (``bot.services.bot_players``) hands ``decide`` the seat's view; here two
tables that differ only in what that seat cannot see (the real one, and another state its view
allows, drawn by the game's own ``sample_state``) get the same move from the same bot seed, at
both levels, and that move is legal at the real table.
"""

from __future__ import annotations

import pytest

from bot.core.registry import PLAIN, GameEntry
from bot.games import REGISTRY
from bot.services.bot_players import Level, decide
from rules.play import random_playthrough
from rules.search import Budget

GAMES = REGISTRY.public()


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_every_game_has_bots_that_know_something_of_it(entry: GameEntry) -> None:
    assert entry.has_bots
    assert entry.hints is not PLAIN


@pytest.mark.parametrize("entry", GAMES, ids=[e.name for e in GAMES])
def test_a_bot_decides_from_its_seats_view_alone(entry: GameEntry, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("bot.services.bot_players.BUDGET", Budget(playouts=24, depth=20))
    rules = entry.rules
    checked = 0
    for seed in range(1, 4):
        for stop in (0, 7, 23, 51):
            state = random_playthrough(rules, 3, seed, stop_after=stop, check=False).state
            waiting = sorted(rules.waiting_for(state))
            if not waiting:
                continue
            seat = waiting[0]
            view = rules.view(state, seat)
            twin = rules.sample_state(view, seat, seed * 1000 + stop)  # type: ignore[attr-defined]
            assert rules.view(twin, seat) == view
            for level in Level:
                mine = decide(entry, view, seat, level, 99)
                theirs = decide(entry, rules.view(twin, seat), seat, level, 99)
                assert mine == theirs
                assert mine in rules.legal_actions(state, seat)
            checked += 1
    assert checked >= 6
