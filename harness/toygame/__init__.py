"""The test-only game; importing this module registers it (hidden from players)."""

from bot.core.registry import REGISTRY, GameEntry
from harness.toygame.renderer import render
from harness.toygame.rules import RULES

ENTRY = GameEntry(rules=RULES, renderer=render, cog="harness.toygame.cog", hidden=True)
REGISTRY.register(ENTRY)
