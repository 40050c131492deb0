"""Undo with consent: a player takes back their last move, when it revealed nothing.

**The rule.**  The move that may be taken back is the game's newest *public* move that still
stands (a hidden move, a stow, is never "the last move": its timing must not show anywhere).
Only the player who made it may ask, and only while the game runs, and never for a default
move the turn timer made for them.  It must have revealed nothing: the engine's
``sealed(state)`` (its random-draw counter, the order of its face-down piles and the secrets it
holds until a reveal) is the same before and after it, so it rolled no die and turned up no
card or tile; and none of its events was private (it told nobody anything only they may know,
a drawn card, a peek at a secret).  Taking it back can then teach nobody anything to play
again with.

**Immediate or asked.**  The undo is immediate when, after the move, the game waited on
nobody but its player (a step within their own turn: nobody else had been told to play).  When
the move put somebody else on the clock, every other seated player is asked on the table, and
all must accept; one refusal, or any new public move, cancels the request.  The difference
rests on public facts only, on purpose: "has anybody else acted since?" would have to count
hidden moves, and asking (or not) would then tell the whole table that somebody made one.

**How.**  The log is replayed without the move, under the game's lock, and the new snapshot is
committed in one transaction that marks the move undone and moves both versions forward (see
the undo notes in :mod:`bot.storage`).  Hidden moves made since are replayed on top; one that no
longer fits without the move is taken back with it, marked undone too: its player consented
when asked; when nobody was asked it was an out-of-turn hidden move (a draft step), whose player
finds it gone in their own panel, and nothing public tells that there was one.
"""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from typing import Any

from bot.services.deadlines import waits_planner
from bot.services.sessions import LiveGame, Refusal, SessionService, replay_move
from bot.storage import GameStatus, How, LogEntry, UndoRequest, VersionConflict
from rules.core import IllegalAction, StateError
from rules.play import canonical

log = logging.getLogger(__name__)

VERDICTS_KEPT = 1024
"""Games whose Undo verdict is remembered (the oldest is forgotten first): a verdict is a few bytes."""


@dataclass(frozen=True, slots=True)
class Plan:
    """What taking back a game's last move would do, worked out by replaying its log."""

    target: LogEntry
    """The move to take back."""
    dropped: tuple[int, ...]
    """Versions of hidden moves made since that no longer fit without it."""
    state: Any
    """The game without them."""
    others: frozenset[int]
    """Seats that must accept first (empty: the undo is immediate)."""


@dataclass(frozen=True, slots=True)
class Undone:
    """A move was taken back; ``game`` is the game as it is now."""

    game: LiveGame
    seat: int
    target: LogEntry
    dropped: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Asked:
    """The other players must accept first; ``created`` is ``False`` when the request was open already."""

    game: LiveGame
    request: UndoRequest
    others: frozenset[int]
    created: bool


@dataclass(frozen=True, slots=True)
class Answered:
    """One player answered a request.  ``undone`` is set once the last consent took the move back."""

    game: LiveGame
    request: UndoRequest
    seat: int
    accepted: bool
    waiting: frozenset[int]
    """Seats still to accept (empty once everyone has, or after a refusal)."""
    undone: Undone | None = None


def plan_undo(
    rules: Any,
    players: int,
    options: dict[str, Any],
    seed: int,
    entries: list[LogEntry],
    seat: int,
) -> Plan:
    """Whether ``seat`` may take back the game's last public move, and what the game is without it.

    Pure (runs off the event loop).  Raises ``Refusal`` with the reason when it may not.
    """
    standing = [entry for entry in entries if not entry.undone]
    last_public = _last_public(rules, players, options, seed, standing)
    if last_public is None:
        raise Refusal("host.undo.refuse_nothing")
    target = standing[last_public]
    if target.seat != seat:
        raise Refusal("host.undo.refuse_not_yours", seat=target.seat)
    if target.how != How.PLAYER:
        raise Refusal("host.undo.refuse_timeout")
    state = rules.setup(players, options, seed)
    for entry in standing[:last_public]:
        rules.apply(state, entry.seat, entry.action)
    trial = rules.load(rules.dump(state))
    sealed = rules.sealed(trial)
    events = rules.apply(trial, target.seat, target.action)
    if rules.sealed(trial) != sealed or any(event.visible_to is not None for event in events):
        raise Refusal("host.undo.refuse_revealed")
    after = rules.waiting_for(trial)
    others = frozenset() if after <= {seat} else frozenset(range(players)) - {seat}
    dropped: list[int] = []
    for entry in standing[last_public + 1 :]:
        try:
            rules.apply(state, entry.seat, entry.action)
        except IllegalAction:
            dropped.append(entry.version)
    if rules.outcome(state) is not None:
        raise Refusal("host.refuse.internal")
    return Plan(target, tuple(dropped), state, others)


def _last_public(
    rules: Any, players: int, options: dict[str, Any], seed: int, standing: list[LogEntry]
) -> int | None:
    """The index in ``standing`` of the newest public move, or ``None`` when none was public."""
    state = rules.setup(players, options, seed)
    last_public: int | None = None
    for index, entry in enumerate(standing):
        if replay_move(rules, state, entry.seat, entry.action)[1]:
            last_public = index
    return last_public


def undoable_seat(
    rules: Any, players: int, options: dict[str, Any], seed: int, entries: list[LogEntry]
) -> int | None:
    """The seat that may take back the game's last public move now, or ``None`` when nobody may
    (no move yet, a default move, a move that rolled, drew or told somebody a secret).

    Pure (runs off the event loop): what decides whether the table shows "Undo my last move"
    at all, so that the button is never one that can only be refused.  Whoever else presses it
    reads that the move is not theirs (``host.undo.refuse_not_yours``), as for a turn's button.
    """
    standing = [entry for entry in entries if not entry.undone]
    index = _last_public(rules, players, options, seed, standing)
    if index is None:
        return None
    seat = standing[index].seat
    try:
        plan_undo(rules, players, options, seed, entries, seat)
    except Refusal:
        return None
    return seat


def _people(game: LiveGame, seats: frozenset[int]) -> frozenset[int]:
    """The seats whose players must agree to an undo: bots agree to anything."""
    return frozenset(s for s in seats if not game.is_bot(s))


class UndoService:
    """Asks for, answers and carries out undos; every change under the game's lock."""

    def __init__(self, sessions: SessionService) -> None:
        self.sessions = sessions
        self.store = sessions.store
        self._verdicts: dict[int, tuple[int, int | None]] = {}
        """Game id -> (log version, :func:`undoable_seat` at that version), for drawing the button."""

    async def undoable(self, game: LiveGame) -> int | None:
        """:func:`undoable_seat` for ``game`` as it is now (its log read and replayed off the event
        loop), remembered for :meth:`known` until the game changes; ``None`` for a game not running."""
        if game.status != GameStatus.ACTIVE or game.row.seed is None or game.public_version == 0:
            return None
        cached = self._verdicts.get(game.id)
        if cached is not None and cached[0] == game.version:
            return cached[1]
        version = game.version
        entries = await self.store.log.load_log(game.id)
        try:
            seat = await asyncio.to_thread(
                undoable_seat, game.entry.rules, len(game.seats), game.row.options, game.row.seed, entries
            )
        except (IllegalAction, StateError, ValueError, KeyError, TypeError, IndexError) as exc:
            log.error("game %s: its log does not replay for an undo: %s", game.id, exc)
            seat = None
        if len(self._verdicts) >= VERDICTS_KEPT:
            self._verdicts.pop(next(iter(self._verdicts)))
        self._verdicts.pop(game.id, None)
        self._verdicts[game.id] = (version, seat)
        return seat

    def known(self, game: LiveGame) -> tuple[bool, int | None]:
        """What :meth:`undoable` found for ``game`` at its current version, without waiting:
        ``(False, None)`` when it has not looked since the game last changed."""
        cached = self._verdicts.get(game.id)
        if cached is None or cached[0] != game.version:
            return False, None
        return True, cached[1]

    async def ask(self, game_id: int, user_id: int, version: int) -> Undone | Asked:
        """``user_id`` pressed "Undo my last move" on a board drawn at public ``version``.

        Raises ``Refusal`` (nothing changed) or ``StoreError``.
        """
        async with self.sessions.lock(game_id):
            game, seat = await self._seated(game_id, user_id)
            if version != game.public_version:
                raise Refusal("host.refuse.stale")
            plan = await self._plan(game, seat)
            if not _people(game, plan.others):
                return await self._commit(game, plan)
            # The move is the one at this public version, so an open request is this seat's own.
            request, created = await self.store.log.ask_undo(
                game_id, version=game.public_version, seat=seat, now=self.sessions.clock()
            )
            return Asked(game, request, _people(game, plan.others), created)

    async def answer(self, game_id: int, user_id: int, version: int, *, accept: bool) -> Answered:
        """Another player (or the asker, to withdraw) answered the request asked at ``version``.

        Raises ``Refusal("host.undo.closed_you")`` when that request is no longer open (answered,
        or the game moved on), other ``Refusal``s, or ``StoreError``.
        """
        async with self.sessions.lock(game_id):
            game, seat = await self._seated(game_id, user_id)
            request = await self.store.log.fetch_undo_request(game_id)
            if request is None or request.version != version or game.public_version != version:
                if request is not None and request.version != game.public_version:
                    await self.store.log.drop_undo(game_id, version=request.version)
                raise Refusal("host.undo.closed_you")
            others = _people(game, frozenset(range(len(game.seats))) - {request.seat})
            if not accept:
                await self.store.log.drop_undo(game_id, version=version)
                return Answered(game, request, seat, False, frozenset())
            if seat == request.seat:
                raise Refusal("host.undo.refuse_own")
            updated = await self.store.log.accept_undo(game_id, version=version, seat=seat)
            if updated is None:
                raise Refusal("host.undo.closed_you")
            waiting = others - updated.accepted
            if waiting:
                return Answered(game, updated, seat, True, waiting)
            try:
                plan = await self._plan(game, request.seat)
            except Refusal:
                # It can no longer be taken back (a hidden move made since cannot be replayed
                # without it is dropped, so this is rare): the request ends here.
                await self.store.log.drop_undo(game_id, version=version)
                raise
            done = await self._commit(game, plan)
            return Answered(done.game, updated, seat, True, frozenset(), done)

    async def drop_request(self, game_id: int, version: int) -> None:
        """Close the request asked at ``version`` without an answer: nobody could answer a request
        whose message never got out, and left open it would hold the table's next ask."""
        await self.store.log.drop_undo(game_id, version=version)

    async def _seated(self, game_id: int, user_id: int) -> tuple[LiveGame, int]:
        game = await self.sessions.load(game_id)
        if game.status == GameStatus.LOBBY:
            raise Refusal("host.refuse.not_started")
        if game.status != GameStatus.ACTIVE:
            raise Refusal("host.refuse.over")
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal("host.refuse.not_seated")
        return game, seat

    async def _plan(self, game: LiveGame, seat: int) -> Plan:
        if game.row.seed is None:
            raise Refusal("host.refuse.not_started")
        entries = await self.store.log.load_log(game.id)
        try:
            return await asyncio.to_thread(
                plan_undo,
                game.entry.rules,
                len(game.seats),
                game.row.options,
                game.row.seed,
                entries,
                seat,
            )
        except Refusal as refusal:
            if "seat" in refusal.params:
                refusal.params["player"] = game.names[int(refusal.params.pop("seat"))]
            raise
        except (IllegalAction, StateError, ValueError, KeyError, TypeError, IndexError) as exc:
            log.error("game %s: its log does not replay for an undo: %s", game.id, exc)
            raise Refusal("host.refuse.internal") from None

    async def _commit(self, game: LiveGame, plan: Plan) -> Undone:
        """Write the game without the move; the cached copy is dropped, so everyone reloads it."""
        rules = game.entry.rules
        before = game.waiting()
        after = rules.waiting_for(plan.state)
        # The game's own clock around the undo: taking back a bid restarts the auction's clock.
        clock_before = rules.game_clock(game.state) if game.state is not None else None
        clock = rules.game_clock(plan.state) if rules.outcome(plan.state) is None else None
        now = self.sessions.clock()
        defaults = self.sessions.hours
        try:
            await self.store.log.record_undo(
                game.id,
                expected_version=game.version,
                public_version=game.public_version + 1,
                target=plan.target.version,
                dropped=plan.dropped,
                snapshot=canonical(rules.dump(plan.state)),
                now=now,
                waits=waits_planner(
                    now=now,
                    actor=None,
                    before=before,
                    after=after,
                    defaults=defaults,
                    clocks=(clock_before, clock),
                ),
            )
        except VersionConflict:
            raise Refusal("host.refuse.stale") from None
        finally:
            self.sessions.forget(game.id)
        self.sessions.moved(game.id)
        log.info(
            "game %s: seat %s took back its move of version %s",
            game.id,
            plan.target.seat,
            plan.target.version,
        )
        return Undone(await self.sessions.load(game.id), plan.target.seat, plan.target, plan.dropped)
