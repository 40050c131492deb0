"""One shared :class:`~rules.core.Action` per distinct move, so listing moves costs no validation.

``Action`` checks its kind and every argument against a pattern when built; ``legal_actions``
lists the same few thousand moves (a card id under a kind) over and over, and building them anew
was the engine's largest single cost in random play and bot playouts.  Actions are frozen and
compare by value, so handing out one instance per move changes nothing but the time spent.
"""

from __future__ import annotations

from functools import cache

from rules.core import Action, Arg


@cache
def move(kind: str, args: tuple[Arg, ...] = ()) -> Action:
    """``Action(kind, args)``, built and validated once per distinct move."""
    return Action(kind, args)
