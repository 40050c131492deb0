"""States sampled from a seat's view (``RULES.sample_state``), which bot players think on.

Over positions from random games (2-6 players, both rent modes, every stage: the opening, turns,
auctions, debts, fees, rent claims, offers and drafts, a Pool Party move waiting for its fine, a
bankrupt's property queued for auction, a building shortage, the end) and every seat: the sample
shows the seat exactly its view, allows exactly its moves, keeps the invariants, round-trips
and plays on to the end; the same seed gives the same sample, other seeds other deck orders and
dice, and what the seat cannot see (deck order, the generator, other seats' drafts) never
reaches the sample.
"""

from __future__ import annotations

from collections.abc import Iterator

from rules.core import Action
from rules.monopoly import RULES, MonopolyState, data
from rules.monopoly.builder import MonopolyBuilder
from rules.monopoly.state import OPENING, OVER, ROLL, Offer, Terms
from rules.play import canonical, random_playthrough
from rules.rng import Rng
from tests.helpers import play_out


def positions(players: int, seeds: range, rent: str, every: int) -> Iterator[MonopolyState]:
    """Copies of the states along random games (out-of-turn moves included), and each game's end."""
    for seed in seeds:
        run = random_playthrough(RULES, players, seed, options={"turns": 15, "rent": rent}, check=False)
        state = RULES.setup(players, run.options, seed)
        for step, (seat, action) in enumerate(run.log):
            if step % every == 0 or _rare(state):
                yield RULES.load(RULES.dump(state))
            RULES.apply(state, seat, action)
        yield state


def _rare(state: MonopolyState) -> bool:
    """A stage random play seldom reaches, so every one of its states is checked."""
    return bool(
        state.pending_move is not None or state.auction_queue or state.shortage or state.phase == OPENING
    )


def stage(state: MonopolyState) -> set[str]:
    found = {state.phase}
    for name in ("auction", "shortage", "debts", "fees", "claims", "offers", "auction_queue", "out"):
        if getattr(state, name):
            found.add(name)
    if state.pending_move is not None:
        found.add("pending_move")
    if any(draft is not None for draft in state.drafts):
        found.add("drafts")
    if any(holder is not None for holder in state.getout.values()):
        found.add("getout")
    return found


def shortage_table() -> MonopolyState:
    """Three seats each with a full set, two houses left in the bank: seat 0 asks for one."""
    return (
        MonopolyBuilder(3, seed=7)
        .started(first=0)
        .owns(0, "route-66", "mojave-desert")
        .owns(1, "lower-haight", "haight-ashbury", "castro-street")
        .owns(2, "golden-gate-park", "lombard-street", "pacific-coast-highway", houses=4)
        .owns(2, "big-sur", "monterey-bay", "carmel-by-the-sea", houses=4)
        .owns(2, "venice-beach", "santa-monica-pier", "muscle-beach", houses=2)
        .bank_houses(data.HOUSE_SUPPLY - 30)
        .build()
    )


def shortage_states() -> list[MonopolyState]:
    """The claim window, then the auction of the short houses among the claimants."""
    state = shortage_table()
    found = []
    for seat, text in ((0, "build.1"), (1, "claim.6"), (2, "claim.11"), (0, "bid.10")):
        RULES.apply(state, seat, Action.decode(text))
        found.append(RULES.load(RULES.dump(state)))
    assert found[0].shortage is not None and found[-1].auction is not None and found[-1].shortage_queue
    return found


def check_sample(state: MonopolyState, seat: int, seed: int) -> MonopolyState:
    view = RULES.view(state, seat)
    sample = RULES.sample_state(view, seat, seed)
    assert RULES.view(sample, seat) == view
    assert RULES.legal_actions(sample, seat) == RULES.legal_actions(state, seat)
    assert RULES.waiting_for(sample) == RULES.waiting_for(state)
    assert RULES.invariants(sample) == []
    dumped = canonical(RULES.dump(sample))
    assert canonical(RULES.dump(RULES.load(RULES.dump(sample)))) == dumped
    assert canonical(RULES.dump(RULES.sample_state(view, seat, seed))) == dumped
    return sample


def test_a_sample_shows_its_seat_exactly_what_the_seat_saw() -> None:
    seen: set[str] = set()
    checked = 0
    for players in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1):
        for rent in data.RENT_MODES:
            for state in positions(players, range(1, 3), rent, every=97):
                seen |= stage(state)
                for seat in range(players):
                    check_sample(state, seat, seed=checked)
                    checked += 1
    for state in shortage_states():
        seen |= stage(state)
        for seat in range(3):
            check_sample(state, seat, seed=5)
    expected = {
        "opening", "roll", "buy", "end", "over", "auction", "shortage", "debts", "fees", "claims",
        "offers", "drafts", "auction_queue", "pending_move", "out", "getout",
    }  # fmt: skip
    assert expected <= seen, expected - seen
    assert checked > 1000


def test_play_goes_on_from_a_sample_to_the_end() -> None:
    for players in range(data.MIN_PLAYERS, data.MAX_PLAYERS + 1):
        found = [s for s in positions(players, range(7, 8), "auto", every=300) if s.phase != OVER]
        for index, state in enumerate(found[:: max(1, len(found) // 3)]):
            play_out(RULES, check_sample(state, index % players, seed=index), seed=index, limit=50_000)
    for state in shortage_states():
        play_out(RULES, check_sample(state, 1, seed=3), seed=3, limit=50_000)


def test_other_seeds_draw_other_decks_and_dice() -> None:
    state = next(
        s
        for s in positions(4, range(3, 4), "auto", every=300)
        if s.phase == ROLL and Action("roll") in RULES.legal_actions(s, s.turn)
    )
    view = RULES.view(state, 2)
    samples = [RULES.sample_state(view, 2, seed) for seed in range(6)]
    assert len({tuple(s.decks[data.CHANCE]) for s in samples}) == 6
    assert len({tuple(s.decks[data.TIPJAR]) for s in samples}) == 6
    assert len({s.rng.seed for s in samples}) == 6
    rolls = set()
    for sample in samples:
        RULES.apply(sample, sample.turn, Action("roll"))
        rolls.add(tuple(sample.dice))
    assert len(rolls) > 1


def test_a_held_get_out_card_is_not_in_the_sampled_deck() -> None:
    state = MonopolyBuilder(3, seed=4).getout(1, data.CHANCE).build()
    for seat in range(3):
        sample = check_sample(state, seat, seed=8)
        assert sorted(sample.decks[data.CHANCE]) == sorted(state.decks[data.CHANCE])
        assert len(sample.decks[data.TIPJAR]) == data.DECK_SIZE and sample.getout[data.CHANCE] == 1


def test_what_the_seat_cannot_see_never_reaches_the_sample() -> None:
    """Two tables equal in everything seat 0 may know, different in deck order, dice to come and
    seat 1's private draft: seat 0's samples for one seed are the same state."""
    state = next(s for s in positions(3, range(5, 6), "auto", every=250) if s.phase == ROLL and not s.offers)
    other = RULES.load(RULES.dump(state))
    other.decks[data.CHANCE].reverse()
    other.decks[data.TIPJAR] = other.decks[data.TIPJAR][5:] + other.decks[data.TIPJAR][:5]
    other.rng = Rng(other.rng.seed ^ 0xFFFF, other.rng.draws + 17)
    other.drafts[1] = Offer(0, 1, 0, Terms(cash=10), Terms())
    assert canonical(RULES.dump(other)) != canonical(RULES.dump(state))
    assert RULES.view(other, 0) == RULES.view(state, 0)
    for seed in range(4):
        mine = RULES.sample_state(RULES.view(state, 0), 0, seed)
        theirs = RULES.sample_state(RULES.view(other, 0), 0, seed)
        assert canonical(RULES.dump(mine)) == canonical(RULES.dump(theirs))
        assert mine.drafts[1] is None


def test_a_sample_keeps_the_seats_own_draft_and_the_offers() -> None:
    state = (
        MonopolyBuilder(2, seed=9)
        .started(first=0)
        .owns(0, "route-66")
        .owns(1, "lax-airport", mortgaged=True)
        .build()
    )
    for seat, text in (
        (0, "deal.1"),
        (0, "give.1"),
        (0, "want.5"),
        (0, "send"),
        (1, "deal.0"),
        (1, "ask.50"),
    ):
        RULES.apply(state, seat, Action.decode(text))
    assert state.offers and state.offers[0].mortgaged == [5] and state.drafts[1] is not None
    sample = check_sample(state, 1, seed=2)
    assert sample.offers == state.offers and sample.drafts[1] == state.drafts[1] and sample.drafts[0] is None
    assert Action("accept", (1,)) in RULES.legal_actions(sample, 1)
