"""Which work nobody is waiting on: the mark that paces a process's Discord calls.

A click must be answered within Discord's three seconds; a reminder, a turn timer, a bot's move,
the minutely sweep can wait their turn.  Code doing such work runs inside :func:`background`, and
the one room for Discord calls (:mod:`bot.ui.safe`) paces every call made there within this
process's share of Discord's 50 requests a second, and holds it back while Discord is refusing
too much.  A context variable, so the mark follows the work into every call it makes (and into
tasks it starts) without a parameter through every layer, and never leaks into a click.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator

_BACKGROUND: contextvars.ContextVar[bool] = contextvars.ContextVar("background", default=False)


def in_background() -> bool:
    return _BACKGROUND.get()


@contextlib.contextmanager
def _marked(nobody_waits: bool) -> Iterator[None]:
    token = _BACKGROUND.set(nobody_waits)
    try:
        yield
    finally:
        _BACKGROUND.reset(token)


def background() -> contextlib.AbstractContextManager[None]:
    """Work inside is work nobody is waiting on."""
    return _marked(True)


def urgent() -> contextlib.AbstractContextManager[None]:
    """Work inside answers someone now (a click's answer, even when background work started it)."""
    return _marked(False)
