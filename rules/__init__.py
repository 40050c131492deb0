"""Pure game engines: no Discord, no Pillow, no storage, no clock.

Every game lives in its own subpackage and exposes one object that satisfies
:class:`rules.core.Rules`, so a lobby, a renderer, a random fuzzer and a
benchmark can all drive any game the same way.
"""

from rules.core import (
    Action,
    Event,
    IllegalAction,
    InvalidOptions,
    OptionSpec,
    Outcome,
    Rules,
    StateError,
)
from rules.rng import Rng

__all__ = [
    "Action",
    "Event",
    "IllegalAction",
    "InvalidOptions",
    "OptionSpec",
    "Outcome",
    "Rng",
    "Rules",
    "StateError",
]
