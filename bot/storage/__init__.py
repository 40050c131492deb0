"""Persistence: the only package that speaks SQL.

Everything the host stores goes through :class:`Store`; see :mod:`bot.storage.store`.
"""

from bot.storage.store import *  # noqa: F403
