"""Table options, the shuffled decks and boards, the Last Will card, jobs and the handicap pick.

Options are refused with a sentence naming the fix (components §1): the expansion-only options
when the expansion is off, and a Last Will card from the wrong set.  The handicap variant is not
an option format but a phase: the host (seat 0) picks the employed seats with ``emp.<seat>`` and
confirms with ``empok``, after the Last Will card and before any card is dealt (§2).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from rules.core import Event, IllegalAction, InvalidOptions, validate_options
from rules.lastwill import data, tokens
from rules.lastwill.cards import earn
from rules.lastwill.data import Deck, EmploymentMode, PlansMode
from rules.lastwill.phases import settle
from rules.lastwill.state import PICK, Handoff, LastWillState, PlanSpace, Player, Slot
from rules.rng import Rng

OPTION_SPECS = tuple(option.spec() for option in data.OPTIONS)


@dataclass(frozen=True, slots=True)
class Table:
    expansion: bool
    employment: str
    plans: str
    last_will: str  # "random" or a canonical id
    penalty: int


def parse_options(raw: Mapping[str, object]) -> Table:
    chosen = validate_options(OPTION_SPECS, raw)
    expansion = bool(chosen["expansion"])
    if not expansion:
        # Named at all, whatever the value (components §1): employment=full with the expansion off
        # would read as a request for employment cards the base game does not have.
        named = [name for name in data.EXPANSION_ONLY_OPTIONS if name in raw]
        if named:
            raise InvalidOptions("needs_expansion", option=named[0], value=str(chosen[named[0]]))
    employment = str(chosen["employment"]) if expansion else EmploymentMode.NONE.value
    plans = str(chosen["plans"]) if expansion else PlansMode.ORIGINAL.value
    will = str(chosen["last_will"])
    if will != data.LAST_WILL_RANDOM:
        will = tokens.parse_last_will(will)
        wants_new = employment != EmploymentMode.NONE
        if data.LAST_WILLS[will].expansion != wants_new:
            if wants_new:
                raise InvalidOptions("base_will", card=will, employment=employment)
            raise InvalidOptions("new_will", card=will)
    return Table(expansion, employment, plans, will, int(chosen["end_property_penalty"]))


def table_options(raw: Mapping[str, object]) -> dict[str, object]:
    """The options a table is stored with: every option filled in with its default, except the
    expansion-only ones when the expansion is off.  The host hands the stored options back to
    ``setup`` (start, replay, undo, rematch), which refuses those two whenever they are named, so
    filling them in would make a base-game table refuse its own start."""
    parse_options(raw)
    chosen = validate_options(OPTION_SPECS, raw)
    if not chosen["expansion"]:
        for name in data.EXPANSION_ONLY_OPTIONS:
            del chosen[name]
    return chosen


def _plans(players: int, table: Table, rng: Rng) -> list[PlanSpace]:
    boys = data.ERRAND_BOYS if table.expansion else data.BASE_ERRAND_BOYS
    if table.plans == PlansMode.ORIGINAL:
        return [
            PlanSpace(pos, plan.cards, min(plan.boys, boys), plan.actions)
            for pos, plan in enumerate(data.ORIGINAL_PLANS[players], start=1)
        ]
    tiles = list(data.PLAN_TILES)
    rng.shuffle(tiles)
    placed: dict[int, PlanSpace] = {}
    for tile in tiles:  # rulebook: skip a tile for another count or a taken position
        if players not in tile.players or tile.position in placed:
            continue
        front = rng.below(2) == 0
        plan = tile.front if front else tile.back
        placed[tile.position] = PlanSpace(
            tile.position,
            plan.cards,
            min(plan.boys, boys),
            plan.actions,
            tile.id,
            "front" if front else "back",
        )
        if len(placed) == data.PLAN_POSITIONS:
            break
    return [placed[pos] for pos in sorted(placed)]


def _decks(expansion: bool, rng: Rng) -> dict[str, list[str]]:
    decks: dict[str, list[str]] = {}
    for deck in data.REGULAR_DECKS:
        cards = list(data.deck_cards(deck, expansion))
        rng.shuffle(cards)
        decks[deck.value] = cards
    for deck in (Deck.SPECIAL, Deck.NEW_SPECIAL):
        stacked: list[str] = []
        if expansion or deck is Deck.SPECIAL:
            for layer in reversed(data.crown_layers(deck)):  # the top layer goes on last
                cards = list(layer)
                rng.shuffle(cards)
                stacked += cards
        decks[deck.value] = stacked
    decks[Deck.WILD.value] = list(data.deck_cards(Deck.WILD, expansion))
    return decks


def new_state(players: int, table: Table, seed: int) -> LastWillState:
    """A fresh game; random cards and tiles come from the state's own generator."""
    rng = Rng(seed)
    pool = data.BASE_LAST_WILLS if table.employment == EmploymentMode.NONE else data.NEW_LAST_WILLS
    will = rng.choice(pool) if table.last_will == data.LAST_WILL_RANDOM else table.last_will
    money = data.LAST_WILLS[will].money
    decks = _decks(table.expansion, rng)
    tokens_ = list(data.MARKET_TOKENS)
    rng.shuffle(tokens_)
    state = LastWillState(
        players=[Player(money) for _ in range(players)],
        rng=rng,
        expansion=table.expansion,
        employment=table.employment,
        plans_mode=table.plans,
        last_will=will,
        penalty=table.penalty,
        decks=decks,
        piles={deck.value: [] for deck in data.REGULAR_DECKS},
        market={kind.value: token for kind, token in zip(data.PROPERTY_TYPES, tokens_, strict=True)},
        plans=_plans(players, table, rng),
        offering=[Slot(slot.label, "") for slot in data.offering_slots(players, table.expansion)],
        extensions_left=data.EXTENSIONS,
        paid_out=money * players,
        start=rng.below(players),
        need=[0] * players,
        held=[[] for _ in range(players)],
    )
    if table.employment == EmploymentMode.HANDICAP:
        state.phase = PICK
        return state
    if table.employment == EmploymentMode.FULL:
        _deal_jobs(state, list(range(players)))
    state.handoff = Handoff.DEAL
    settle(state, [])
    return state


def _deal_jobs(state: LastWillState, seats: list[int]) -> list[Event]:
    job_set = data.LAST_WILLS[state.last_will].employment
    assert job_set is not None
    jobs = list(data.EMPLOYMENT_BY_SET[job_set])
    state.rng.shuffle(jobs)
    for seat, job in zip(seats, jobs, strict=False):
        player = state.players[seat]
        player.job = job
        player.covered = [False] * len(data.EMPLOYMENT[job].lines)
    return [Event("employment_dealt", None, {"jobs": [p.job for p in state.players]})]


# --- the handicap pick ---------------------------------------------------------------------------


def pick_problem(state: LastWillState, seat: int) -> IllegalAction | None:
    if seat != 0:
        return IllegalAction("host_picks")
    return None


def toggle(state: LastWillState, seat: int, target: int) -> list[Event]:
    problem = pick_problem(state, seat)
    if problem is None and not 0 <= target < state.count:
        problem = IllegalAction("no_seat")
    if problem is not None:
        raise problem
    if target in state.picked:
        state.picked.remove(target)
    else:
        state.picked.append(target)
        state.picked.sort()
    return [Event("handicap_toggled", seat, {"target_seat": target, "picked": list(state.picked)})]


def confirm_problem(state: LastWillState, seat: int) -> IllegalAction | None:
    problem = pick_problem(state, seat)
    if problem is not None:
        return problem
    low, high = data.HANDICAP_MIN_EMPLOYED, state.count - data.HANDICAP_MIN_UNEMPLOYED
    if not low <= len(state.picked) <= high:
        return IllegalAction("pick_count", low=low, high=high)
    return None


def confirm(state: LastWillState, seat: int) -> list[Event]:
    """Deal jobs to the picked seats; the others get the set's extra money (§12); then hand over
    to the deal."""
    problem = confirm_problem(state, seat)
    if problem is not None:
        raise problem
    events = [Event("handicap_picked", seat, {"seats": list(state.picked)})]
    events += _deal_jobs(state, list(state.picked))
    job_set = data.LAST_WILLS[state.last_will].employment
    assert job_set is not None
    extra = data.HANDICAP_MONEY[job_set]
    for other in range(state.count):
        if other not in state.picked:
            earn(state, other, extra)
            events.append(Event("handicap_money", other, {"amount": extra}))
    state.handoff = Handoff.DEAL
    return events
