"""What the Last Will Discord tests share: the host's buttons, a game's own labels and options,
the arranged rules, the saved state, the status lines and the public bodies a table sent.

One place for them, so ``test_lastwill_discord``, ``test_lastwill_turn``,
``test_lastwill_controls`` and ``test_lastwill_full_game`` read a table the same way.
"""

from __future__ import annotations

import json
from typing import Any

import discord
import simcord

from bot.client import GameBot
from harness.messages import Table, controls, labels, words_of
from rules.lastwill import RULES, LastWillRules, LastWillState
from tests.helpers import ArrangedSetup
from tests.simcord import sound_state

HAND = "My hand…"
HOST = ("Catch me up", "Undo my last move", "Me mettre à jour", "Annuler mon dernier coup")
"""The host's own buttons on the table, beside the game's (English and French)."""


def game_labels(message: discord.Message) -> list[str]:
    """The game's buttons on a message, in order: selects (no label) and the host's left out."""
    return [label for label in labels(message) if label and label not in HOST]


class Arranged(ArrangedSetup, LastWillRules):
    """Last Will whose ``setup`` also places a test's position (kept across a restart)."""

    check_invariants = True


async def state_of(bot: GameBot) -> LastWillState:
    state: LastWillState = await sound_state(bot, RULES)
    return state


def seat(table: Table, index: int) -> Any:
    """The member in seat ``index``: seats follow the join order (ana, bob, cy)."""
    return table.players[index]


def options(message: discord.Message) -> dict[str, str]:
    """Every select option on a message: value -> label."""
    return {
        option.value: option.label
        for child in controls(message)
        for option in getattr(child, "options", []) or []
    }


def status(table: Table) -> list[str]:
    """The live table's status: the two lines before the mentions."""
    lines = words_of(table.table_message()).splitlines()
    first = next(
        i for i, line in enumerate(lines) if line.startswith(("Round ", "End of round", "Setting up"))
    )
    return lines[first : first + 2]


def public_json(env: simcord.Env, since: int) -> str:
    """Every public message body the bot sent or edited since request ``since``."""
    bodies = []
    for request in env.http_requests[since:]:
        body = request.json if isinstance(request.json, dict) else {}
        private = int(body.get("flags") or 0) & 64
        answer = "interactions" in request.path and "callback" in request.path
        if private or answer:  # ephemeral replies and click answers (a panel) are the clicker's own
            continue
        bodies.append(body)
    return json.dumps(bodies, ensure_ascii=False)
