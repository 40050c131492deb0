"""Argument checks every action handler shares, so a malformed action is refused for one reason.

Actions arrive from custom_ids and typed commands, so any kind may come with any arguments; the
handlers split across ``engine``, ``turn``, ``rent`` and ``overlays`` all refuse them alike.
"""

from __future__ import annotations

from rules.core import Action, IllegalAction


def no_args(action: Action) -> None:
    if action.args:
        raise IllegalAction("malformed")


def int_arg(action: Action) -> int:
    """The one whole-number argument (a position, an amount)."""
    if len(action.args) != 1 or not isinstance(action.args[0], int):
        raise IllegalAction("malformed")
    return action.args[0]
