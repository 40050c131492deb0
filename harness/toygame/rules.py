"""Race to a target: a tiny test-only game that exercises the whole contract.

Seats take turns adding 1–3 to a shared total.  Each seat also holds a secret
(1–6, hidden), may *knock* once per game at any time, even out of turn, to
score a point and privately peek at its secret, and when the total reaches
the target everybody must press *gg* (several seats waited on at once).
Score = points added + knocks + secret.  Once per game a seat may also
*reroll* its secret: a private action nobody else may notice.

Events: added(amount, total), knocked(), peeked(secret; private),
rerolled(secret; private), target_reached(total), gg(), ended().

Refusals name their reason and leave the words to the host: ``IllegalAction("add_range",
amount=9)`` is shown as the catalog's ``toy.illegal.add_range`` ("You can add 1 to 3, not 9."),
in the table's language, with ``amount`` formatted; the sentences are in ``harness/toygame/cog.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core import (
    JSON,
    Action,
    Event,
    GameClock,
    IllegalAction,
    OptionSpec,
    Outcome,
    StateError,
    check_players,
    rank_by,
    validate_options,
)
from rules.rng import Rng

SCHEMA = 1


@dataclass(slots=True)
class ToyState:
    target: int
    points: list[int]
    secrets: list[int]
    knocked: list[bool]
    rng: Rng
    rerolled: list[bool] = field(default_factory=list)
    turn: int = 0
    total: int = 0
    phase: str = "play"
    cheered: list[bool] = field(default_factory=list)


class ToyRules:
    name = "toy"
    title = "Toy Race"
    min_players = 1
    max_players = 4
    schema = SCHEMA
    play_options: Mapping[str, object] = {}
    options: tuple[OptionSpec, ...] = (OptionSpec("target", 10, minimum=3, maximum=60),)

    def table_options(self, options: Mapping[str, object]) -> dict[str, Any]:
        return validate_options(self.options, options)

    def setup(self, players: int, options: Mapping[str, object], seed: int) -> ToyState:
        check_players(self, players)
        opts = self.table_options(options)
        rng = Rng(seed)
        secrets = [1 + rng.below(6) for _ in range(players)]
        return ToyState(
            target=int(opts["target"]),
            points=[0] * players,
            secrets=secrets,
            knocked=[False] * players,
            rng=rng,
            turn=rng.below(players),
            cheered=[False] * players,
            rerolled=[False] * players,
        )

    def legal_actions(self, state: ToyState, seat: int) -> list[Action]:
        if state.phase == "cheer":
            return [] if state.cheered[seat] else [Action("gg")]
        if state.phase != "play":
            return []
        actions = []
        if seat == state.turn:
            actions = [Action("add", (n,)) for n in (1, 2, 3)]
        if not state.knocked[seat]:
            actions.append(Action("knock"))
        if not state.rerolled[seat]:
            actions.append(Action("reroll"))
        return actions

    def apply(self, state: ToyState, seat: int, action: Action) -> list[Event]:
        if not 0 <= seat < len(state.points):
            raise IllegalAction("no_seat")
        if action.kind == "add":
            if state.phase != "play":
                raise IllegalAction("race_over")
            if seat != state.turn:
                raise IllegalAction("not_your_turn")
            if len(action.args) != 1 or not isinstance(action.args[0], int):
                raise IllegalAction("how_much")
            amount = action.args[0]
            if not 1 <= amount <= 3:
                raise IllegalAction("add_range", amount=amount)
            state.points[seat] += amount
            state.total += amount
            events = [Event("added", seat, {"amount": amount, "total": state.total})]
            if state.total >= state.target:
                state.phase = "cheer"
                events.append(Event("target_reached", None, {"total": state.total}))
            else:
                state.turn = (state.turn + 1) % len(state.points)
            return events
        if action.kind in ("knock", "reroll", "gg") and action.args:
            raise IllegalAction("takes_no_arguments")
        if action.kind == "knock":
            if state.phase != "play":
                raise IllegalAction("race_over")
            if state.knocked[seat]:
                raise IllegalAction("knocked_already")
            state.knocked[seat] = True
            return [
                Event("knocked", seat),
                Event("peeked", seat, {"secret": state.secrets[seat]}, visible_to=frozenset({seat})),
            ]
        if action.kind == "reroll":
            if state.phase != "play":
                raise IllegalAction("race_over")
            if state.rerolled[seat]:
                raise IllegalAction("rerolled_already")
            state.rerolled[seat] = True
            state.secrets[seat] = 1 + state.rng.below(6)
            return [Event("rerolled", seat, {"secret": state.secrets[seat]}, visible_to=frozenset({seat}))]
        if action.kind == "gg":
            if state.phase != "cheer":
                raise IllegalAction("race_not_over")
            if state.cheered[seat]:
                raise IllegalAction("gg_already")
            state.cheered[seat] = True
            events = [Event("gg", seat)]
            if all(state.cheered):
                state.phase = "over"
                events.append(Event("ended"))
            return events
        raise IllegalAction("unknown_action")

    def fingerprint(self, state: ToyState, action: Action) -> str | None:
        """A knock means the same all race long (a point and a peek), so its button lasts
        across other players' moves until the race ends; every other action is the moment's."""
        return f"knock:{state.phase}" if action.kind == "knock" else None

    def game_clock(self, state: ToyState) -> GameClock | None:
        return None  # no clock of the rules' own: the table's timer is the only one

    def timeout_action(self, state: ToyState, seat: int) -> Action | None:
        """On turn: add 3 (points added are score, so the most is the least harmful); once the
        target is reached: gg.  Never a knock or a reroll: those are a seat's own choices."""
        if seat not in self.waiting_for(state):
            return None
        return Action("add", (3,)) if state.phase == "play" else Action("gg")

    def sealed(self, state: ToyState) -> JSON:
        """The draw counter: a reroll draws (and the secrets stay hidden until the end)."""
        return [state.rng.draws]

    def waiting_for(self, state: ToyState) -> frozenset[int]:
        if state.phase == "play":
            return frozenset({state.turn})
        if state.phase == "cheer":
            return frozenset(s for s, done in enumerate(state.cheered) if not done)
        return frozenset()

    def scores(self, state: ToyState) -> list[int]:
        return [p + int(k) + s for p, k, s in zip(state.points, state.knocked, state.secrets, strict=True)]

    def outcome(self, state: ToyState) -> Outcome | None:
        if state.phase != "over":
            return None
        scores = self.scores(state)
        ranks = rank_by([(score, points) for score, points in zip(scores, state.points, strict=True)])
        breakdown = tuple(
            {"added": p, "knock": int(k), "secret": s}
            for p, k, s in zip(state.points, state.knocked, state.secrets, strict=True)
        )
        return Outcome(tuple(scores), ranks, breakdown)

    def view(self, state: ToyState, seat: int | None) -> dict[str, JSON]:
        view: dict[str, JSON] = {
            "target": state.target,
            "total": state.total,
            "points": list(state.points),
            "knocked": list(state.knocked),
            "turn": state.turn,
            "phase": state.phase,
            "cheered": list(state.cheered),
        }
        if seat is not None:
            view["secret"] = state.secrets[seat]
            view["rerolled"] = state.rerolled[seat]
        if state.phase == "over":
            view["secrets"] = list(state.secrets)
        return view

    def sample_state(self, view: Mapping[str, Any], seat: int, seed: int) -> ToyState:
        """A state ``seat`` could be in: its own secret and reroll as its view shows them; the
        others' secrets (hidden until the end) drawn 1-6 and their rerolls guessed, from ``seed``."""
        rng = Rng(seed)
        players = len(view["points"])
        shown = view.get("secrets")
        secrets = (
            [int(x) for x in shown] if isinstance(shown, list) else [1 + rng.below(6) for _ in range(players)]
        )
        rerolled = [rng.below(2) == 1 for _ in range(players)]
        secrets[seat] = int(view["secret"])
        rerolled[seat] = bool(view["rerolled"])
        return ToyState(
            target=int(view["target"]),
            points=[int(x) for x in view["points"]],
            secrets=secrets,
            knocked=[bool(x) for x in view["knocked"]],
            rng=Rng(rng.next64()),
            rerolled=rerolled,
            turn=int(view["turn"]),
            total=int(view["total"]),
            phase=str(view["phase"]),
            cheered=[bool(x) for x in view["cheered"]],
        )

    def dump(self, state: ToyState) -> dict[str, JSON]:
        return {
            "schema": SCHEMA,
            "target": state.target,
            "points": list(state.points),
            "secrets": list(state.secrets),
            "knocked": list(state.knocked),
            "rng": state.rng.to_json(),
            "turn": state.turn,
            "total": state.total,
            "phase": state.phase,
            "cheered": list(state.cheered),
            "rerolled": list(state.rerolled),
        }

    def load(self, data: Mapping[str, Any]) -> ToyState:
        if data.get("schema") != SCHEMA:
            raise StateError(f"unknown toy schema {data.get('schema')!r}")
        return ToyState(
            target=int(data["target"]),
            points=[int(x) for x in data["points"]],
            secrets=[int(x) for x in data["secrets"]],
            knocked=[bool(x) for x in data["knocked"]],
            rng=Rng.from_json(data["rng"]),
            turn=int(data["turn"]),
            total=int(data["total"]),
            phase=str(data["phase"]),
            cheered=[bool(x) for x in data["cheered"]],
            rerolled=[bool(x) for x in data["rerolled"]],
        )

    def invariants(self, state: ToyState) -> list[str]:
        problems = []
        if sum(state.points) != state.total:
            problems.append(f"points add up to {sum(state.points)}, total says {state.total}")
        if any(not 1 <= s <= 6 for s in state.secrets):
            problems.append("a secret is outside 1..6")
        if state.phase == "play" and state.total >= state.target:
            problems.append("the target was reached but play goes on")
        return problems


RULES = ToyRules()
