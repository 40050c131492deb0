"""California's engine plays exactly as before its speed work.

The engine was made faster for the bots' playouts (precomputed tables, fewer lists per call);
none of that may change a single choice.  This test replays 120 seeded random games (2 to 5
players, idle seats taking loans out of turn as ``random_playthrough`` fuzzes them) and hashes
every action chosen, every event the engine emitted (kind, seat, params, visibility) and every
final dump.  :data:`BEHAVIOUR_HASH` was recorded on the engine before any optimisation
(commit 95f23cd); a different hash means behaviour changed.  Each seat's legal actions at
every step are in the hash too, in order, since random play and bots pick from that list.
"""

from __future__ import annotations

import hashlib

from rules.california import RULES
from rules.core import Event
from rules.play import canonical, random_playthrough

BEHAVIOUR_HASH = "912b18c52ec18136fad320074d24fcbfdc1de0b1bfd4ddb88751285b9d1aaf36"
GAMES_PER_COUNT = 30


def _event(event: Event) -> object:
    visible = None if event.visible_to is None else sorted(event.visible_to)
    return [event.kind, event.seat, dict(event.params), visible]


def behaviour_hash() -> str:
    digest = hashlib.sha256()
    for players in (2, 3, 4, 5):
        for seed in range(GAMES_PER_COUNT):
            run = random_playthrough(RULES, players, seed * 31 + players, check=False)
            assert run.finished and not run.failures
            state = RULES.setup(players, {}, seed * 31 + players)
            for seat, action in run.log:
                legal = [
                    [a.kind, list(a.args)] for s in range(players) for a in RULES.legal_actions(state, s)
                ]
                events = [_event(e) for e in RULES.apply(state, seat, action)]
                step = [seat, action.kind, list(action.args), legal, events, sorted(RULES.waiting_for(state))]
                digest.update(canonical(step).encode())
            outcome = RULES.outcome(state)
            assert outcome is not None
            final = [RULES.dump(state), RULES.view(state, None), list(outcome.scores), list(outcome.ranks)]
            digest.update(canonical(final).encode())
    return digest.hexdigest()


def test_every_choice_event_and_final_state_is_as_before_the_speed_work() -> None:
    assert behaviour_hash() == BEHAVIOUR_HASH
