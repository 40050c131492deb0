"""Toy Market, the second test-only game; importing this module registers it (hidden from players).

It is the smallest complete game with the interaction patterns Monopoly and Last Will need
(deals composed privately and answered by another seat, any-time actions on someone else's turn,
secret simultaneous choices), so the host is tested on them before those games exist::

    from rules.core import Action
    from tests.toymarket.rules import RULES

    state = RULES.setup(2, {"rounds": 1}, seed=7)
    RULES.apply(state, state.turn, Action("roll"))  # [Event("rolled", ...)]
"""

from bot.core.registry import GameEntry
from bot.games import REGISTRY
from tests.toymarket.cog import MarketPresenter
from tests.toymarket.renderer import render
from tests.toymarket.rules import RULES

ENTRY = GameEntry(rules=RULES, renderer=render, presenter=MarketPresenter, hidden=True)
REGISTRY.register(ENTRY)
