"""The move California makes for a player who let their turn run out (``Rules.timeout_action``).

- On turn: ``coin``, always legal.  Reason: it spends nothing and commits the mansion to
  nothing, yet still moves the day on (four coins empty the bank and end it), so a game of
  absent players ends after its twelve days.
- Loans and repayments are never defaulted: they are a player's own choice, and nobody waits
  for them.
"""

from __future__ import annotations

from rules.core import Action

from .engine import COIN
from .state import State


def timeout_action(state: State, seat: int) -> Action | None:
    if state.over or seat != state.turn:
        return None
    return COIN
