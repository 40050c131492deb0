"""What Monopoly's bot players know about positions: cheap valuations, sensible moves, quick playouts.

A game is scored by net worth (cash, deeds at price or half when mortgaged, buildings at cost),
so buying a deed or building a house at list price changes nobody's score: what moves scores is
rent, auctions won below a property's worth, deals, interest and bankruptcy.  The hints follow
from that:

- ``values``: each seat's net worth plus the rent its deeds should collect over the rounds still
  to play (a fraction of each deed's rent now, per opponent and round), minus its share of what
  the others' deeds will collect, plus a bonus for every complete colour set (it may build, and
  its unimproved rent is already doubled).
- ``candidates``: in nearly every position one move (buy what is affordable and worth it, build
  on a set with spare cash, lift a mortgage with plenty to spare, pay debts the cheapest way), so
  the bot moves at once; the search weighs two moves only where the choice is a gamble (leaving
  the Pool Party for $50 or trying for doubles).  Auctions: the bot raises while the price stays
  below its worth of the lot (a deed completing or blocking a colour set is worth more than its
  price), by leaps far below it and by the minimum near it (an open auction asks it again each
  time it is outbid, and it answers by the same rule).  Deals: an offer is accepted when it
  raises the bot's standing and does so more than it helps the proposer (:func:`good_for`); at
  the start of one turn in three the bot proposes, for the last deed of a colour set it holds the
  rest of, cash or a swap that is fair and good for both sides as it judges them (typically a
  swap completing a set each, :func:`planned_deal`), and drafts it step by step.
- ``rollout``: roll, buy what is affordable, bid up to the list price, build with plenty of
  cash, pay debts by mortgaging, reject every offer, never draft: quick, and not foolish.

Everything reads the state it is given, which for a bot is a sample drawn from its view
(``sample.sample_state``); money and deeds are public, so nothing here is a guess except the
dice to come.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.core import Action
from rules.monopoly import data, debt, holdings
from rules.monopoly.state import BUY, END, OVER, ROLL, MonopolyState, Offer
from rules.rng import Rng
from rules.search import PlainHints

B = data.BOARD

LANDING_CHANCE = 0.025
"""chosen (bots): how often one opponent lands on a given space in one round.  A token lands
about once a turn (a little more with doubles and cards) on one of forty spaces, so about 3 %;
a little less, since deeds change hands and get mortgaged before their rent comes in."""
HORIZON_ROUNDS = 12
"""chosen (bots): the most rounds of future rent counted, with no round limit (an endless game
does not make a deed worth endless rent)."""
SET_BONUS = 0.5
"""chosen (bots): a complete colour set is worth this share of its deeds' prices on top of them."""
RESERVE = 150
"""chosen (bots): the cash a bot keeps after buying or building, to pay rent without mortgaging."""
BUILD_RESERVE_RENT = 0.5
"""chosen (bots): the reserve grows by this share of the dearest rent an opponent could charge."""
UNMORTGAGE_SPARE = 500
"""chosen (bots): the cash a bot keeps after lifting a mortgage (interest lowers its net worth;
it lifts only to collect rent again or to build)."""
PAYBACK_ROUNDS = 8
"""chosen (bots): with fewer rounds left than this, what a deed adds to a set counts less (its
rent has less time to come in)."""
PROPOSE_EVERY = 3
"""chosen (bots): a bot proposes a deal at the start of one turn in this many (a rejected offer is
not proposed again at once, turn after turn)."""
RIVAL_WEIGHT = 0.5
"""chosen (bots): with three or more seats in, what a deal gives the other side counts this much
against what it gives the bot (the other side is one rival among several, so a swap that
completes a set for each of them is good for both)."""
ROLLOUT_BUILD_CASH = 700
"""chosen (bots): in a quick playout a seat builds only with this much cash."""


# --- valuations -----------------------------------------------------------------------------


def rounds_left(state: MonopolyState) -> int:
    """Full rounds still to play (the round limit, or :data:`HORIZON_ROUNDS` without one)."""
    done = min((state.turns_taken[s] for s in range(state.players) if state.alive[s]), default=0)
    if state.turns_limit:
        return max(0, min(state.turns_limit - done, HORIZON_ROUNDS))
    return HORIZON_ROUNDS


def standings(state: MonopolyState) -> list[float]:
    """Each seat's standing: net worth, rent to come, complete sets (the module docstring);
    a seat out of the game stands below everyone."""
    n = state.players
    alive = state.alive
    owner, level, mortgaged = state.owner, state.level, state.mortgaged
    worth = [float(c) for c in state.cash]
    income = [0.0] * n
    for pos in data.PROPERTIES:
        holder = owner[pos]
        if holder is None:
            continue
        price = B[pos].price
        if mortgaged[pos]:
            worth[holder] += price // data.MORTGAGE_DIVISOR
            continue
        worth[holder] += price + level[pos] * B[pos].house_cost
        income[holder] += _expected_rent(state, pos)
    for group in _SET_GROUPS:
        holder = owner[group[0]]
        if holder is not None and all(owner[p] == holder for p in group[1:]):
            worth[holder] += SET_BONUS * _GROUP_PRICE[group[0]]
    rivals = sum(alive) - 1
    if rivals <= 0:
        return [worth[s] if alive[s] else -1e9 for s in range(n)]
    scale = LANDING_CHANCE * rounds_left(state) * rivals
    total = sum(income)
    result = []
    for s in range(n):
        if not alive[s]:
            result.append(-1e9)
            continue
        paid = (total - income[s]) / rivals
        result.append(worth[s] + scale * (income[s] - paid))
    return result


_SET_GROUPS: tuple[tuple[int, ...], ...] = tuple(
    group for group in data.GROUPS.values() if data.BOARD[group[0]].kind == data.SITE
)
_GROUP_PRICE: dict[int, int] = {p: sum(B[q].price for q in data.GROUP_AT[p]) for p in data.PROPERTIES}
_AVERAGE_DICE = 7


def _expected_rent(state: MonopolyState, pos: int) -> float:
    """Rent for landing on owned, unmortgaged ``pos`` now (utilities at an average roll)."""
    return float(holdings.rent(state, pos, _AVERAGE_DICE))


def deed_value(state: MonopolyState, seat: int, pos: int) -> float:
    """What property ``pos`` is worth to ``seat``: its price, more when ``seat`` would then hold
    all (or all but one) of its group, more when another seat holds the rest of it (blocking
    them), airports and utilities by how many of their kind ``seat`` holds."""
    price = B[pos].price
    group = data.GROUP_AT[pos]
    others = [state.owner[p] for p in group if p != pos]
    mine = sum(1 for o in others if o == seat)
    weight = min(1.0, rounds_left(state) / PAYBACK_ROUNDS)
    if not data.IS_SITE[pos]:
        return price * (1.0 + 0.25 * mine * weight)
    if mine == len(others):
        return price * (1.0 + weight)  # completes the set
    extra = 0.3 * mine
    if others and all(o is not None and o != seat for o in others) and len(set(others)) == 1:
        extra += 0.6  # the last deed a rival needs
    return price * (1.0 + extra * weight)


def reserve(state: MonopolyState, seat: int) -> int:
    """The cash ``seat`` keeps after spending: :data:`RESERVE`, more when an opponent's deed
    could charge a big rent."""
    owner = state.owner
    dearest = 0
    for pos in data.PROPERTIES:
        holder = owner[pos]
        if holder is not None and holder != seat and not state.mortgaged[pos] and state.level[pos]:
            dearest = max(dearest, B[pos].rents[state.level[pos]])
    return RESERVE + int(BUILD_RESERVE_RENT * dearest)


# --- the bot's moves ----------------------------------------------------------------------------


class MonopolyHints(PlainHints):
    """Monopoly's hints for bot players (see the module docstring)."""

    def values(self, state: MonopolyState) -> Sequence[float]:
        return standings(state)

    def candidates(self, state: MonopolyState, seat: int, actions: list[Action]) -> list[Action]:
        if len(actions) <= 1:
            return actions
        chosen = _choose(state, seat, actions)
        if not chosen:
            return actions[:1]
        return [a for a in chosen if a in actions] or actions[:1]

    def rollout(self, state: MonopolyState, seat: int, actions: list[Action], rng: Rng) -> Action:
        return quick_move(state, seat, actions)


HINTS = MonopolyHints()


def _choose(state: MonopolyState, seat: int, actions: list[Action]) -> list[Action]:
    """The bot's candidates, most urgent first: the open auction or shortage window, its debt,
    a mortgaged deed received, rent to collect, offers to answer, its own draft, then its turn."""
    have = {a.kind for a in actions}
    if state.auction is not None:
        return [_auction_move(state, seat, actions)]
    if state.shortage is not None:
        return [_claim_move(state, seat, actions)]
    if debt.owed(state, seat):
        return [_raise_money(state, seat, actions)]
    fee = next((f for f in state.fees if f.seat == seat), None)
    if fee is not None:
        lift = Action("lift", (fee.pos,))
        spare = state.cash[seat] - data.REPAY_COST[fee.pos]
        return [lift if lift in actions and spare >= reserve(state, seat) else Action("keep", (fee.pos,))]
    if "rent" in have:
        return [next(a for a in actions if a.kind == "rent")]
    offer = next((o for o in state.offers if o.recipient == seat), None)
    if offer is not None:
        verb = "accept" if good_for(state, *offer_gain(state, offer)) else "reject"
        return [Action(verb, (offer.number,))]
    draft = state.drafts[seat]
    if draft is not None:
        return [_draft_move(state, seat, draft, actions)]
    if state.phase == OVER or seat != state.turn:
        return []
    return _turn_moves(state, seat, actions, have)


def _auction_move(state: MonopolyState, seat: int, actions: list[Action]) -> Action:
    """A raise while the price stays below the lot's worth to ``seat`` (and leaves it a little
    cash), else pass.  The raise is the largest listed one within a third of the way from the
    minimum bid to that worth: far below it the bot jumps (bots bidding against each other by
    $1 would take hundreds of moves), close to it it creeps up by the minimum."""
    auction = state.auction
    assert auction is not None
    if auction.item == "property":
        worth = deed_value(state, seat, auction.pos)
    else:
        site = _claimed_site(state, seat)
        worth = B[site].house_cost if site >= 0 else 0
    cash = state.cash[seat]
    keep = min(RESERVE, cash // 4)
    bids = [
        a for a in actions if a.kind == "bid" and int(a.args[0]) <= worth and cash - int(a.args[0]) >= keep
    ]
    if not bids:
        return Action("pass")
    lowest = int(bids[0].args[0])
    limit = lowest + max(0.0, worth - lowest) / 3
    return [a for a in bids if int(a.args[0]) <= limit][-1]


def _claimed_site(state: MonopolyState, seat: int) -> int:
    return next((pos for s, pos in state.shortage_queue if s == seat), -1)


def _claim_move(state: MonopolyState, seat: int, actions: list[Action]) -> Action:
    """Claim a short building for the site it helps most, with cash to spare; else decline."""
    claims = [a for a in actions if a.kind == "claim"]
    affordable = [
        a for a in claims if state.cash[seat] - B[int(a.args[0])].house_cost >= reserve(state, seat)
    ]
    if affordable:
        return max(affordable, key=lambda a: _build_gain(state, int(a.args[0])))
    return Action("noclaim")


def _raise_money(state: MonopolyState, seat: int, actions: list[Action]) -> Action:
    """Mortgage the deed that costs least rent (outside complete sets first), else sell the
    cheapest building, else (nothing left to raise) go bankrupt."""
    mortgages = [a for a in actions if a.kind == "mort"]
    if mortgages:
        return min(mortgages, key=lambda a: _mortgage_cost(state, seat, int(a.args[0])))
    sales = [a for a in actions if a.kind == "sell"]
    if sales:
        return min(sales, key=lambda a: (B[int(a.args[0])].house_cost, int(a.args[0])))
    return Action("bankrupt")


def _mortgage_cost(state: MonopolyState, seat: int, pos: int) -> tuple[bool, float, int]:
    in_set = data.IS_SITE[pos] and holdings.full_set(state, seat, pos)
    return (in_set, _expected_rent(state, pos) / max(1, data.MORTGAGE_VALUE[pos]), pos)


def _build_gain(state: MonopolyState, pos: int) -> float:
    """Rent a house on ``pos`` adds, per dollar it costs."""
    level = state.level[pos]
    rents = B[pos].rents
    return (rents[min(level + 1, data.HOTEL)] - rents[level]) / B[pos].house_cost


def _turn_moves(state: MonopolyState, seat: int, actions: list[Action], have: set[str]) -> list[Action]:
    cash = state.cash[seat]
    keep = reserve(state, seat)
    if state.phase == BUY:
        pos = state.position[seat]
        price = B[pos].price
        worth = deed_value(state, seat, pos)
        if "buy" in have and (cash - price >= keep or (worth > price and cash - price >= RESERVE // 3)):
            return [Action("buy")]
        return [Action("decline")]
    builds = [a for a in actions if a.kind == "build" and cash - B[int(a.args[0])].house_cost >= keep]
    if builds:
        return [max(builds, key=lambda a: (_build_gain(state, int(a.args[0])), -int(a.args[0])))]
    lifts = [a for a in actions if a.kind == "unmort" and _worth_lifting(state, seat, int(a.args[0]))]
    if lifts:
        return [min(lifts, key=lambda a: data.REPAY_COST[int(a.args[0])])]
    if state.phase == ROLL:
        if state.pool[seat] is not None:
            cards = [a for a in actions if a.kind == "card"]
            if cards:
                return cards[:1]
            if "fine" in have and cash - data.POOL_FINE >= keep:
                return [Action("roll"), Action("fine")]
            return [Action("roll")]
        if (
            state.turns_taken[seat] % PROPOSE_EVERY == 0
            and state.doubles == 0
            and not state.again
            and not any(o.proposer == seat for o in state.offers)
        ):
            deal = planned_deal(state, seat)
            if deal is not None:
                return [Action("deal", (deal.recipient,))]
        return [Action("roll")]
    if state.phase == END:
        return [Action("end")]
    return []


def _worth_lifting(state: MonopolyState, seat: int, pos: int) -> bool:
    """Lift a mortgage with plenty of cash to spare, sooner for a deed of a complete set."""
    spare = state.cash[seat] - data.REPAY_COST[pos]
    if data.IS_SITE[pos] and holdings.full_set(state, seat, pos):
        return spare >= reserve(state, seat)
    return spare >= reserve(state, seat) + UNMORTGAGE_SPARE


# --- deals ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Deal:
    """A deal a bot means to propose: deeds it gives and wants, and cash it adds."""

    recipient: int
    give: tuple[int, ...]
    want: tuple[int, ...]
    cash: int


def deal_gains(
    state: MonopolyState,
    proposer: int,
    recipient: int,
    give: Sequence[int],
    want: Sequence[int],
    cash: int,
    cards: int = 0,
) -> tuple[float, float]:
    """How much a deal raises the proposer's and the recipient's standings (tried on the state and
    undone): ``give`` deeds and ``cash`` (negative: asked) go to the recipient, ``want`` deeds
    come back, ``cards`` get-out cards go over net (each worth the Pool Party fine).  A receiver
    of a mortgaged deed pays its 10% interest."""
    before = standings(state)
    moved: list[tuple[int, int | None]] = []
    for pos in give:
        moved.append((pos, state.owner[pos]))
        state.owner[pos] = recipient
    for pos in want:
        moved.append((pos, state.owner[pos]))
        state.owner[pos] = proposer
    state.cash[proposer] -= cash
    state.cash[recipient] += cash
    try:
        after = standings(state)
    finally:
        state.cash[proposer] += cash
        state.cash[recipient] -= cash
        for pos, holder in moved:
            state.owner[pos] = holder
    recipient_cost = sum(data.fee(p) for p in give if state.mortgaged[p]) - cards * data.POOL_FINE
    proposer_cost = sum(data.fee(p) for p in want if state.mortgaged[p]) + cards * data.POOL_FINE
    return (
        after[proposer] - before[proposer] - proposer_cost,
        after[recipient] - before[recipient] - recipient_cost,
    )


def good_for(state: MonopolyState, mine: float, theirs: float) -> bool:
    """A deal is good for a seat that gains ``mine`` while the other side gains ``theirs``: it must
    gain, and gain more than it helps that rival (who, with more seats at the table, is one rival
    among several: :data:`RIVAL_WEIGHT`)."""
    weight = 1.0 if sum(state.alive) <= 2 else RIVAL_WEIGHT
    return mine > 0 and mine - weight * theirs > 0


def offer_gain(state: MonopolyState, offer: Offer) -> tuple[float, float]:
    """(recipient's gain, proposer's gain) if ``offer`` is accepted."""
    cards = len(offer.give.cards) - len(offer.want.cards)
    proposer, recipient = deal_gains(
        state,
        offer.proposer,
        offer.recipient,
        offer.give.props,
        offer.want.props,
        offer.give.cash - offer.want.cash,
        cards,
    )
    return recipient, proposer


def planned_deal(state: MonopolyState, seat: int) -> Deal | None:
    """The deal ``seat`` would propose now, or ``None``: for the last deed of a colour set it holds
    the rest of, either cash (a listed amount between the deed's price and half as much again,
    leaving the reserve) or a swap for one of its own deeds (with some cash if that helps).  It
    must be fair (the other side's net worth does not fall) and good for both sides as a bot
    judges them (:func:`good_for`): a deal a sensible player would refuse is not proposed, so a
    table of bots does not trade refusals.  The best for ``seat`` among them."""
    best: tuple[float, Deal] | None = None
    cash = state.cash[seat]
    mine = [p for p in data.PROPERTIES if _tradeable(state, seat, p) and not _keeps(state, seat, p)]
    for group in _SET_GROUPS:
        missing = [p for p in group if state.owner[p] != seat]
        if len(missing) != 1 or any(state.mortgaged[p] for p in group):
            continue
        pos = missing[0]
        holder = state.owner[pos]
        if holder is None or not state.alive[holder] or not _tradeable(state, holder, pos):
            continue
        price = B[pos].price
        options = [Deal(holder, (), (pos,), c) for c in data.CASH_STEPS if price <= c <= price * 3 // 2]
        for own in mine:
            options += [Deal(holder, (own,), (pos,), c) for c in data.CASH_STEPS if c <= price]
        for deal in options:
            if cash - deal.cash < RESERVE or _book_value(state, deal.give) + deal.cash < price:
                continue
            gain, theirs = deal_gains(state, seat, holder, deal.give, deal.want, deal.cash)
            good = good_for(state, gain, theirs) and good_for(state, theirs, gain)
            if good and (best is None or gain > best[0]):
                best = (gain, deal)
    return None if best is None else best[1]


def _book_value(state: MonopolyState, deeds: Sequence[int]) -> int:
    """What ``deeds`` add to a net worth: price, or the mortgage value when mortgaged."""
    return sum(data.MORTGAGE_VALUE[p] if state.mortgaged[p] else B[p].price for p in deeds)


def _keeps(state: MonopolyState, seat: int, pos: int) -> bool:
    """A deed ``seat`` does not trade away: one of a colour set it holds at least two of."""
    if not data.IS_SITE[pos]:
        return False
    return sum(1 for p in data.GROUP_AT[pos] if state.owner[p] == seat) >= 2


def _tradeable(state: MonopolyState, holder: int, pos: int) -> bool:
    return state.owner[pos] == holder and not any(state.level[p] for p in data.GROUP_AT[pos])


def _draft_move(state: MonopolyState, seat: int, draft: Offer, actions: list[Action]) -> Action:
    """The next step towards the deal ``seat`` means to propose (toggle deeds in or out, clear
    cards and asked cash, set the cash, send); a draft that is not that deal is dropped."""
    deal = planned_deal(state, seat)
    if deal is None or deal.recipient != draft.recipient:
        return Action("drop")
    for side, wanted, kind in ((draft.give.props, deal.give, "give"), (draft.want.props, deal.want, "want")):
        for pos in side:
            if pos not in wanted:
                return Action(kind, (pos,))
        for pos in wanted:
            if pos not in side:
                return Action(kind, (pos,))
    for card in draft.give.cards:
        return Action("givec", (card,))
    for card in draft.want.cards:
        return Action("wantc", (card,))
    if draft.want.cash:
        return Action("ask", (0,))
    if draft.give.cash != deal.cash:
        return Action("cash", (deal.cash,))
    if Action("send") in actions:
        return Action("send")
    return Action("drop")


# --- quick playouts -------------------------------------------------------------------------


def quick_move(state: MonopolyState, seat: int, actions: list[Action]) -> Action:
    """A playout move: cheap and sensible (the module docstring), read off the order
    ``legal_actions`` lists moves in (overlays, then the turn, answers and claims, then
    holdings and drafts)."""
    auction = state.auction
    if auction is not None:
        first = actions[0]
        if first.kind == "bid":
            cap = B[auction.pos].price if auction.item == "property" else 0
            if int(first.args[0]) <= cap and state.cash[seat] - int(first.args[0]) >= RESERVE // 2:
                return first
        return actions[-1]  # pass
    if state.shortage is not None:
        return actions[-1]  # noclaim
    if state.debts and debt.owed(state, seat):
        return _raise_money(state, seat, actions)
    for action in actions:
        kind = action.kind
        if kind in ("roll", "buy", "decline", "keep", "reject", "rent", "bankrupt"):
            return action
        if kind == "end":
            if state.cash[seat] >= ROLLOUT_BUILD_CASH:
                return next((a for a in actions if a.kind == "build"), action)
            return action
    return actions[0]
