"""The engine contract every game implements, and the value types it speaks.

Modelled on OpenSpiel (``legal_actions`` / ``apply_action`` / ``is_terminal``
/ ``returns``) and python-chess (``legal_moves`` / ``push``): one small
surface so that the host, a bot player, a fuzzer and a benchmark can drive
every game the same way without knowing which game it is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar

JSON = Any
"""A value made only of dict/list/str/int/float/bool/None."""

Arg = int | str

_TOKEN = re.compile(r"[A-Za-z_][A-Za-z0-9_-]{0,31}")
_INT = re.compile(r"-?[0-9]{1,12}")


class Named(Exception):
    """An exception that names its reason instead of wording it: ``key`` and ``params``.

    The host words it from its catalog in the reader's language, so an engine holds no prose and
    a test asserts the reason, not its wording.  ``str(exc)`` (the key and params) is for logs
    and the command line.
    """

    def __init__(self, key: str, /, **params: object) -> None:
        super().__init__(key, params)
        self.key = key
        self.params = params

    def __str__(self) -> str:
        if not self.params:
            return self.key
        return f"{self.key} ({', '.join(f'{name}={value!r}' for name, value in self.params.items())})"


class IllegalAction(Named):
    """The action is not allowed now, and the state was not changed.

    ``key`` names the sentence in the host's catalog (``<game>.illegal.<key>``, written once per
    language) and ``params`` fill its placeholders with ints or tokens the game's presenter turns
    into words (a tile, a card).
    """


class InvalidOptions(Named, ValueError):
    """Table options were unknown, out of range or do not go together.

    The problems every game shares, raised here (:data:`SHARED_OPTION_PROBLEMS`), read
    ``host.bad_option.<key>``; a game's own (Last Will's expansion-only options) read
    ``<game>.bad_option.<key>``.
    """


SHARED_OPTION_PROBLEMS = frozenset({"yes_no", "whole_number", "range", "choice", "unknown", "players"})
"""The :class:`InvalidOptions` keys raised by this module, for every game alike."""


class StateError(ValueError):
    """A saved state could not be loaded (wrong schema, corrupt data)."""


@dataclass(frozen=True, slots=True)
class Action:
    """One small decision: a kind plus a few ints or short words.

    Actions travel inside Discord custom_ids, so they have a compact text
    form (``encode``) as well as a JSON form.  String arguments must be
    identifiers (never purely numeric) so the text form is unambiguous.
    """

    kind: str
    args: tuple[Arg, ...] = ()

    def __post_init__(self) -> None:
        if not _TOKEN.fullmatch(self.kind):
            raise ValueError(f"bad action kind {self.kind!r}")
        for arg in self.args:
            if isinstance(arg, bool) or not isinstance(arg, (int, str)):
                raise ValueError(f"action arguments are ints or words, not {arg!r}")
            if isinstance(arg, str) and not _TOKEN.fullmatch(arg):
                raise ValueError(f"bad action argument {arg!r}")

    def encode(self) -> str:
        return ".".join([self.kind, *(str(a) for a in self.args)])

    @classmethod
    def decode(cls, text: str) -> Action:
        """Parse ``encode``'s output; raises ``ValueError`` on anything else.

        Only the exact text ``encode`` writes is accepted ("add.01", "add.-0" and
        digits of other scripts are refused), so one action has one reference.
        """
        if not text or len(text) > 80:
            raise ValueError("action reference has a bad length")
        kind, *rest = text.split(".")
        args: list[Arg] = [int(t) if _INT.fullmatch(t) else t for t in rest]
        action = cls(kind, tuple(args))
        if action.encode() != text:
            raise ValueError("not an action reference this code writes")
        return action

    def to_json(self) -> list[Arg]:
        return [self.kind, *self.args]

    @classmethod
    def from_json(cls, data: Sequence[Any]) -> Action:
        if not data or not isinstance(data[0], str):
            raise ValueError(f"not an action: {data!r}")
        return cls(data[0], tuple(data[1:]))

    def __str__(self) -> str:
        return self.encode()


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened, as data: the host phrases it per language.

    ``visible_to`` is ``None`` for public events; otherwise only those seats
    may be told (a card drawn into a hand, a private balance).
    """

    kind: str
    seat: int | None = None
    params: Mapping[str, JSON] = field(default_factory=dict)
    visible_to: frozenset[int] | None = None

    @property
    def public(self) -> bool:
        return self.visible_to is None


@dataclass(frozen=True, slots=True)
class Outcome:
    """Final result.  ``ranks`` start at 1; tied seats share a rank.

    ``no_winner``: the places stand but first place does not win (Last Will: a player still
    employed cannot win, and when everyone is, nobody does).
    """

    scores: tuple[int, ...]
    ranks: tuple[int, ...]
    breakdown: tuple[Mapping[str, int], ...] = ()
    no_winner: bool = False

    def winners(self) -> tuple[int, ...]:
        if self.no_winner:
            return ()
        return tuple(s for s, r in enumerate(self.ranks) if r == 1)

    def returns(self) -> tuple[float, ...]:
        """OpenSpiel-style utilities: +1 shared among winners, -1 otherwise (all -1 with no winner)."""
        wins = self.winners()
        return tuple(1.0 / len(wins) if s in wins else -1.0 for s in range(len(self.ranks)))


@dataclass(frozen=True, slots=True)
class GameClock:
    """A clock the game's own rules set on the seats it waits for (Monopoly's auction clock).

    The engine stays clock-free: it only says how long the clock is and when it restarts.  The
    host runs it: every waited seat's timeout is due ``hours`` after ``mark`` last changed (or
    after the seat began waiting), whatever the table's own turn timer says, and the game's
    ``timeout_action`` is applied then (Monopoly: a pass for everyone still in).
    """

    hours: int
    """The clock's length in whole hours (> 0)."""
    mark: tuple[int, ...]
    """Changes whenever the clock restarts (a new auction, a new bid)."""


def rank_by(keys: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """Competition ranking (1, 1, 3) where a larger key is better.

    Games pass (score, tie-break, ...) tuples; equal tuples share a place,
    which is how every one of our rulebooks settles a final tie.
    """
    ordered = sorted((tuple(k) for k in keys), reverse=True)
    return tuple(1 + ordered.index(tuple(k)) for k in keys)


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """One table option offered at ``/game new`` (``name=value``).

    What it does, for players, is the catalog's ``<game>.option.<name>`` (``/game rules`` shows
    it in the reader's language), so an engine holds no prose.
    """

    name: str
    default: int | str | bool
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def parse(self, raw: object) -> int | str | bool:
        """Turn a user-typed value into the option's type, or explain why not."""
        default = self.default
        if isinstance(default, bool):
            text = str(raw).strip().lower()
            if isinstance(raw, bool):
                return raw
            if text in _YES:
                return True
            if text in _NO:
                return False
            raise InvalidOptions("yes_no", option=self.name, value=_quoted(raw))
        if isinstance(default, int):
            text = str(raw).strip()
            if not _WHOLE_NUMBER.fullmatch(text):
                raise InvalidOptions("whole_number", option=self.name, value=_quoted(raw))
            value = int(text)
            low, high = self.minimum, self.maximum
            if (low is not None and value < low) or (high is not None and value > high):
                raise InvalidOptions("range", option=self.name, low=low, high=high)
            return value
        text = str(raw).strip().lower()
        if self.choices and text not in self.choices:
            raise InvalidOptions("choice", option=self.name, choices=", ".join(self.choices))
        return text


_YES = frozenset({"1", "yes", "true", "on", "oui"})
_NO = frozenset({"0", "no", "false", "off", "non"})
"""What a player may type for a yes/no option, in the languages we speak (the value is a word
typed into ``/game new``, so a French table's host may write ``oui``)."""

_WHOLE_NUMBER = re.compile(r"-?[0-9]{1,9}")
"""ASCII digits only: ``int`` also takes "٣" and "1_000", which nobody means as an option value."""


def _quoted(raw: object, limit: int = 40) -> str:
    """A player's input quoted back to them, never long enough to swamp the reply."""
    text = str(raw)
    return repr(text if len(text) <= limit else text[: limit - 1] + "…")


def validate_options(specs: Sequence[OptionSpec], raw: Mapping[str, object]) -> dict[str, Any]:
    """Every option with its default filled in; unknown names are refused."""
    known = {spec.name: spec for spec in specs}
    unknown = sorted(set(raw) - set(known))
    if unknown:
        raise InvalidOptions("unknown", option=_quoted(unknown[0]), offered=", ".join(known) or "-")
    return {name: (spec.parse(raw[name]) if name in raw else spec.default) for name, spec in known.items()}


S = TypeVar("S")


class Rules(Protocol[S]):
    """What a game supplies.  Seats are ``0..players-1`` in turn order.

    ``apply`` mutates the state in place for speed; it must validate fully
    before changing anything, so an ``IllegalAction`` leaves the state as it
    was.  Engines never read the clock and draw randomness only from the
    state's own :class:`rules.rng.Rng`.
    """

    name: str
    title: str
    min_players: int
    max_players: int
    options: tuple[OptionSpec, ...]
    schema: int
    play_options: Mapping[str, object]
    """Options the random player (``rules.play``, ``simulate``, the contract tests) uses when given
    none: a limit that makes aimless play finish (Monopoly's ``turns``); empty for a game that
    always ends by itself.  Players never get these unless they ask for them."""

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        """Every option with its default filled in (except one that other options rule out: Last
        Will names no ``employment`` or ``plans`` without the expansion), or ``InvalidOptions``:
        an unknown option, a bad value, or values that each pass but do not go together.  The
        lobby calls it at ``/game new``, so a table that could not start is never opened; ``setup``
        checks the same way (most games: :func:`validate_options`)."""
        ...

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> S:
        """A fresh game; raises ``InvalidOptions`` for bad options or counts."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Everything ``seat`` may do now, out-of-turn actions included."""
        ...

    def apply(self, state: S, seat: int, action: Action) -> list[Event]: ...

    def waiting_for(self, state: S) -> frozenset[int]:
        """Seats the game is waiting on (the ones the host should ping)."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """Final standings once the game is over, else ``None``."""
        ...

    def view(self, state: S, seat: int | None) -> dict[str, JSON]:
        """What ``seat`` may see; ``None`` is a spectator (public view)."""
        ...

    def dump(self, state: S) -> dict[str, JSON]:
        """JSON-ready full state, including ``schema``."""
        ...

    def load(self, data: Mapping[str, JSON]) -> S:
        """Inverse of ``dump``; raises ``StateError`` on an unknown schema or bad data."""
        ...

    def invariants(self, state: S) -> list[str]:
        """Broken conservation laws, for fuzzers; empty when all hold."""
        ...

    def fingerprint(self, state: S, action: Action) -> str | None:
        """What ``action`` means now, for a button drawn for it to stay good across other moves.

        A player managing their holdings between turns must not be turned away because
        someone else moved meanwhile: a button whose action has a fingerprint stays valid for
        as long as the fingerprint is the same (the price it would pay, the thing it names,
        the facts its legality rests on), whatever else happened.  ``None``: the action
        belongs to the moment it was drawn for (a turn's move, a bid), and any public change
        makes its button stale.

        Built from *public* information only: its hash travels in a button's custom_id,
        which everyone can read, so it must not change when something hidden does.
        """
        ...

    def timeout_action(self, state: S, seat: int) -> Action | None:
        """The move the game makes for ``seat`` when it has waited for them too long.

        Slow games keep moving: the host's turn timer applies this on the seat's behalf.  For
        every seat in ``waiting_for(state)`` it is an action that applies without
        ``IllegalAction``: one of ``legal_actions(state, seat)``, or an action of the same kind
        naming an amount or a set the list does not spell out (several discards at once).  It
        is the least harmful choice the rules allow (a coin rather than a purchase, a pass
        rather than a bid, a discard rather than a placement); each game says in its
        ``timeout`` module what it chose and why.  ``None`` for a seat the game is not waiting
        for, and once the game is over.

        - Deterministic and pure: no randomness (never a draw from the state's ``Rng``), the
          state unchanged, the same answer when asked twice.
        - Fair: it may read the seat's own hidden information (its hand), never another seat's
          nor the deck order.
        - Progress: a choice made in several small steps (a split named deck by deck) is
          defaulted one step at a time, so the host applies it again while the seat is still
          waited for; a game in which every move is a timeout still ends (within the game's
          ``play_options`` limits, like random play).
        """
        ...

    def game_clock(self, state: S) -> GameClock | None:
        """The clock the rules run on the seats waited for now, or ``None`` (nearly always).

        Pure: it reads options kept in the state (Monopoly's ``auction_hours``), never a clock.
        """
        ...

    def sealed(self, state: S) -> JSON:
        """What the game still holds face down that a move could bring to light, as plain data.

        The state's ``Rng`` draw counter, the order of every face-down pile (a draw stack, a deck,
        a bag) and choices made in secret that are revealed together.  The host's undo compares
        it before and after a move: equal means the move drew nothing by chance (no die, no card,
        no tile) and turned up no secret, so taking it back cannot let anybody play again knowing
        what comes next.  It may change more often than strictly needed (a known tile put back
        in a bag); it must never stay equal across a move that drew or revealed something.
        Only the host compares it: it holds hidden information and is never shown.
        """
        ...


def check_players(rules: Rules[Any], players: int) -> None:
    if not rules.min_players <= players <= rules.max_players:
        raise InvalidOptions(
            "players", game=rules.title, min=rules.min_players, max=rules.max_players, count=players
        )
