"""Employment (§9): income, which lines a play may cover, the one demotion a round, the sack.

A demotion is never forced (chosen, §9): every source only *offers* the lines it matches, through
the pending ``line`` step, and "none" keeps the round's demotion for a better line later.  The
sources differ only in the symbols they bring, which is why a single offer serves a card played,
a card laid, a companion token, the Opera and both demotion errands.
"""

from __future__ import annotations

from rules.core import Event
from rules.lastwill import data
from rules.lastwill.cards import earn
from rules.lastwill.data import EmploymentMode, Symbol
from rules.lastwill.state import LastWillState, Player

ANY = "any"
"""The symbol list of the demotion errands: any uncovered line."""


def income(player: Player) -> int:
    if not player.job:
        return 0
    lines = data.EMPLOYMENT[player.job].lines
    return sum(line.money for line, covered in zip(lines, player.covered, strict=True) if not covered)


def pay_income(state: LastWillState, reason: str) -> list[Event]:
    """Every employed player takes the sum of their uncovered lines (round setup, game end)."""
    events: list[Event] = []
    for seat, player in enumerate(state.players):
        amount = income(player)
        if amount:
            earn(state, seat, amount)
            events.append(Event(reason, seat, {"amount": amount, "money": player.money}))
    return events


def may_demote(state: LastWillState, seat: int) -> bool:
    """Employed, in a game with employment, and this round's demotion not yet earned."""
    player = state.players[seat]
    return state.employment != EmploymentMode.NONE and bool(player.job) and not player.demoted


def offered_lines(state: LastWillState, seat: int, symbols: list[str]) -> list[int]:
    """Uncovered lines a play with these symbols matches, highest income first (chosen order)."""
    if not may_demote(state, seat):
        return []
    player = state.players[seat]
    lines = data.EMPLOYMENT[player.job].lines
    found = [
        i
        for i, line in enumerate(lines)
        if not player.covered[i] and (ANY in symbols or line.symbol in symbols)
        if line.symbol not in data.NEVER_ON_LINES
    ]
    return sorted(found, key=lambda i: (-lines[i].money, i))


def cover(state: LastWillState, seat: int, line: int, source: str) -> list[Event]:
    """Cover one line; the last one covered sacks the player at once (§9)."""
    player = state.players[seat]
    job = data.EMPLOYMENT[player.job]
    player.covered[line] = True
    player.demoted = True
    entry = job.lines[line]
    events = [
        Event(
            "demoted",
            seat,
            {"line": line, "symbol": entry.symbol.value, "amount": entry.money, "source": source},
        )
    ]
    if all(player.covered):
        events.append(Event("sacked", seat, {"job": player.job}))
        player.job = ""
        player.covered = []
        player.sacked = True
    return events


def companion_symbols(played_as: str, wild: bool) -> list[str]:
    """A companion matches its own symbol; a wild card also the wild symbol (rulebook)."""
    found = [data.COMPANION_SYMBOL[data.Companion(played_as)].value]
    if wild:
        found.append(Symbol.WILD.value)
    return found
