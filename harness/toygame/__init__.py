"""The test-only game; importing this module registers it (hidden from players)."""

from bot.core.registry import GameEntry
from bot.games import REGISTRY
from harness.toygame.cog import ToyPresenter
from harness.toygame.renderer import render
from harness.toygame.rules import RULES
from harness.toygame.story import STORY

ENTRY = GameEntry(rules=RULES, renderer=render, presenter=ToyPresenter, hidden=True, story=STORY)
REGISTRY.register(ENTRY)
