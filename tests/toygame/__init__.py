"""The test-only game; importing this module registers it (hidden from players)."""

from bot.registry import REGISTRY, GameEntry
from tests.toygame.renderer import render
from tests.toygame.rules import RULES

ENTRY = GameEntry(rules=RULES, renderer=render, cog="tests.toygame.cog", hidden=True)
REGISTRY.register(ENTRY)
