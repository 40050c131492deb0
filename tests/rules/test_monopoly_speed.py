"""The fast paths of Monopoly's ``legal_actions`` say exactly what the refusal functions say.

Listing actions runs for every seat at nearly every step of random play and of a bot's playouts,
so it reads holdings through ``holdings.Index`` (kept on the state) and skips building refusals;
``apply`` still asks the ``*_problem`` functions.  These tests hold the two together over random
positions, and check that the index never serves facts a hand-made change made stale.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import Action
from rules.monopoly import RULES, MonopolyState, data, deals, holdings, moves, shortage
from rules.monopoly.state import Offer, Terms
from rules.play import random_playthrough


def positions(players: int, seeds: range, every: int = 5) -> Iterator[MonopolyState]:
    """States along random games (out-of-turn moves included), each a fresh copy."""
    for seed in seeds:
        run = random_playthrough(RULES, players, seed, check=False)
        state = RULES.setup(players, run.options, seed)
        for step, (seat, action) in enumerate(run.log):
            RULES.apply(state, seat, action)
            if step % every == 0:
                yield state


def reference_holding_actions(state: MonopolyState, seat: int) -> list[Action]:
    """build/sell/mort/unmort as the refusal functions allow them, property by property."""
    calm = not state.debts
    acts = []
    for pos in holdings.properties_of(state, seat):
        if calm and shortage.build_problem(state, seat, pos) is None:
            acts.append(Action("build", (pos,)))
        if holdings.sell_problem(state, seat, pos) is None:
            acts.append(Action("sell", (pos,)))
        if holdings.mortgage_problem(state, seat, pos) is None:
            acts.append(Action("mort", (pos,)))
        if calm and holdings.repay_problem(state, seat, pos) is None:
            acts.append(Action("unmort", (pos,)))
    return acts


def test_holding_actions_and_trades_agree_with_the_refusals() -> None:
    checked = 0
    for players in (2, 4, 6):
        for state in positions(players, range(1, 4)):
            memo = holdings.index(state)
            for seat in range(players):
                fast = holdings.holding_actions(state, memo, seat, calm=not state.debts)
                assert fast == reference_holding_actions(state, seat)
                free = holdings.free_of(state, memo, seat)
                assert free == {p for p in data.PROPERTIES if deals.tradeable(state, seat, p)}
                gives = holdings.trade_actions(state, memo, "give", seat)
                assert gives == [Action("give", (p,)) for p in data.PROPERTIES if p in free]
                draft = state.drafts[seat]
                if draft is not None:
                    sendable = deals._sendable(state, memo, seat, draft)
                    assert sendable == (deals.send_problem(state, seat) is None)
                    checked += 1
    assert checked > 100  # random play keeps drafts open, so sending was really compared


def test_a_change_made_by_hand_is_seen_at_once() -> None:
    """Tests arrange positions by writing into the state: the index notices every kind of change."""
    state = RULES.setup(2, {}, 3)
    state.phase, state.turn = "roll", 0
    assert Action("mort", (1,)) not in RULES.legal_actions(state, 0)
    state.owner[1] = state.owner[3] = 0
    assert Action("mort", (1,)) in RULES.legal_actions(state, 0)
    assert Action("build", (1,)) in RULES.legal_actions(state, 0)
    state.mortgaged[3] = True
    listed = RULES.legal_actions(state, 0)
    assert Action("build", (1,)) not in listed and Action("unmort", (3,)) in listed
    state.mortgaged[3] = False
    state.houses = 0
    assert Action("build", (1,)) not in RULES.legal_actions(state, 0)
    state.houses = data.HOUSE_SUPPLY
    state.level[1] = 1
    state.houses -= 1
    listed = RULES.legal_actions(state, 0)
    assert Action("build", (3,)) in listed and Action("build", (1,)) not in listed
    assert Action("sell", (1,)) in listed and Action("mort", (3,)) not in listed
    state.cash[0] = 10
    assert Action("build", (3,)) not in RULES.legal_actions(state, 0)
    state.drafts[0] = Offer(0, 0, 1, Terms(), Terms())
    assert Action("give", (3,)) not in RULES.legal_actions(state, 0)  # its group is built on
    state.level[1] = 0
    state.houses += 1
    assert Action("give", (3,)) in RULES.legal_actions(state, 0)
    state.alive[1] = False
    assert Action("deal", (1,)) not in RULES.legal_actions(state, 0)


def test_shared_actions_equal_fresh_ones() -> None:
    assert moves.at("build", 39) == Action("build", (39,))
    assert moves.numbered("bid", 250) == Action("bid", (250,))
    assert moves.numbered("bid", 250) is moves.numbered("bid", 250)
    assert moves.numbered("cash", 1 << 20) == Action("cash", (1 << 20,))
    assert moves.ladder("cash", 120) == (Action("cash", (0,)), Action("cash", (50,)), Action("cash", (120,)))
    assert moves.ladder("ask", 0) == (Action("ask", (0,)),)
    assert moves.with_deck("givec", "tipjar") == Action("givec", ("tipjar",))
    assert moves.deal(5) == Action("deal", (5,))
