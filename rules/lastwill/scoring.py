"""The end (§10): final income, property valued, least money wins, the employed cannot.

Ranks compare (not employed, less money, fewer properties), so a still-employed player always
ranks behind every unemployed one, and a tie on money goes to fewer properties, then is shared.
If every player is still employed "nobody wins" (chosen): the places still stand (by money) and
the outcome says ``no_winner``, so ``winners()`` is empty and the host says nobody won.
"""

from __future__ import annotations

from rules.core import Event, Outcome, rank_by
from rules.lastwill import data
from rules.lastwill.cards import earn, final_value, properties
from rules.lastwill.employment import pay_income
from rules.lastwill.state import OVER, LastWillState


def finish(state: LastWillState) -> list[Event]:
    counts = [len(properties(p)) for p in state.players]
    events: list[Event] = []
    incomes = [0] * state.count
    if data.FINAL_INCOME:
        for event in pay_income(state, "final_income"):
            assert event.seat is not None
            incomes[event.seat] = int(event.params["amount"])
            events.append(event)
    state.final = []
    for seat, player in enumerate(state.players):
        value = sum(final_value(state, item) for item in properties(player))
        penalty = state.penalty * counts[seat]
        if value + penalty:
            earn(state, seat, value + penalty)
        if counts[seat]:
            events.append(
                Event("valued", seat, {"value": value, "penalty": penalty, "properties": counts[seat]})
            )
        state.final.append(
            {
                "money": player.money,
                "income": incomes[seat],
                "property": value,
                "penalty": penalty,
                "properties": counts[seat],
                "employed": int(bool(player.job)),
            }
        )
    state.phase = OVER
    state.pending = None
    result = outcome(state)
    assert result is not None
    events.append(
        Event(
            "game_over",
            None,
            {
                "round": state.round,
                "bankruptcy": state.last_round,
                "winners": list(result.winners()),
                "money": [p.money for p in state.players],
            },
        )
    )
    return events


def nobody_wins(state: LastWillState) -> bool:
    return data.NOBODY_WINS_IF_ALL_EMPLOYED and all(f["employed"] for f in state.final)


def outcome(state: LastWillState) -> Outcome | None:
    if state.phase != OVER:
        return None
    keys = []
    for part in state.final:
        free = 0 if data.UNEMPLOYED_RANK_FIRST and part["employed"] else 1
        fewer = -part["properties"] if data.TIE_BREAK_FEWER_PROPERTIES else 0
        keys.append((free, -part["money"], fewer))
    scores = tuple(part["money"] for part in state.final)
    return Outcome(
        scores, rank_by(keys), tuple(dict(part) for part in state.final), no_winner=nobody_wins(state)
    )
