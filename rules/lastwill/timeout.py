"""The move Last Will makes for a player who let the game wait too long (``Rules.timeout_action``).

Last Will is won by losing money, so "least harmful" here means: spend money where a choice
only spends money, keep cards where a choice costs cards, and otherwise commit to nothing.  Each
default is one action; a choice in several steps (a split, a handicap pick) takes several.

- pick (handicap, the host): ``empok`` once the pick is valid; before that, too many employed
  seats drops the highest, too few adds the lowest seat not employed, the host first.  Reason:
  the host's own pick stands; an absent host takes the handicap on rather than handing it out.
- discard (round 1's keep-2, the hand limit): every card still owed at once (as many as fit in
  a custom_id), the least useful first: ``usefulness`` below, ties by card id.  Reason: what a
  player keeps is what lets them spend; the measure reads only the seat's own hand.
- planning: the free plan with the fewest cards, the leftmost of those.  Reason: an absent
  player cannot use cards, so they get none to draw and later discard (no wait on a split or a
  discard), and the card-rich plans stay for the players who are there.
- drawing: a fixed split, one card at a time into the deck named least so far (property, event,
  helper, companion on ties), then ``drawok``.  Reason: no hidden information decides it, and it
  continues a split the player had begun.
- errands: ``hold``.  Reason: it takes nobody's space and spends nothing.
- actions: ``done``.  Reason: nothing is played, bought or laid for a player who is not there;
  an unused action is lost, as the rules say.
- pending steps of a play the player began:
  ``with``, ``bpx``, ``fair``, Lost at Cards' ``sale``: ``go`` (no companion card spent, no
  card discarded, no sale earning money back, no token placed: the card as the player left it);
  Wedding Planner ``extra``: the most on offer (money is spent, no card is);
  Wild Party ``target``: the property whose value drops the most (ties: the first laid), since
  value left at the end counts against its owner;
  demotion ``line``: the first offered, the highest income (a demotion lowers income and leads
  to the sack that winning needs; declining only keeps it for later, and an absent player has
  no later); ``dx``: ``demote`` when a line can be covered, else ``ext``;
  Personal Secretary ``pick``: the most useful card drawn (``usefulness``), ties by card id.

Nothing reads another seat's hand, the deck order or the state's generator.  With every move a
timeout the game still ends: each phase moves on (a round takes at most a few dozen timeouts)
and the game ends after round 7.
"""

from __future__ import annotations

from rules.core import Action
from rules.lastwill import data, pending, planning, setup
from rules.lastwill.cards import PROPERTIES, owned
from rules.lastwill.data import DropSteps, EventCard, HelperCard, PropertyCard
from rules.lastwill.employment import offered_lines
from rules.lastwill.engine import legal_actions, waiting_for
from rules.lastwill.state import ACTIONS, DISCARD, DRAWING, ERRANDS, PICK, PLANNING, LastWillState

MAX_CODE = 60
"""Longest ``encode()`` of a default discard (a custom_id carries actions; the contract tests hold
every action to 60 characters); cards past it are discarded by the next timeout."""


def usefulness(card_id: str) -> int:
    """A rough measure of how much a card helps its holder spend, in pounds.

    A white card: its money (a Ball at its top level).  A property: its upkeep plus all the value
    it can lose (what owning it spends).  A helper or expense: its expense.  A companion or
    wild card: 0 (it only adds to another card).
    """
    card = data.CARDS[card_id]
    if isinstance(card, EventCard):
        return max([card.money, *(level.money for level in card.ball)])
    if isinstance(card, PropertyCard):
        return card.upkeep + card.track[0] - card.track[-1]
    if isinstance(card, HelperCard):
        return card.expense.amount if card.expense is not None else 0
    return 0


def timeout_action(state: LastWillState, seat: int) -> Action | None:
    if seat not in waiting_for(state):
        return None
    if state.pending is not None:
        return _answer(state, seat)
    phase = state.phase
    if phase == PICK:
        return _handicap(state, seat)
    if phase == DISCARD:
        return _discard(state, seat)
    if phase == PLANNING:
        free = planning.free_plans(state)
        cards = {space.pos: space.cards for space in state.plans}
        return Action("plan", (min(free, key=lambda pos: (cards[pos], pos)),))
    if phase == DRAWING:
        return _draw(state, seat)
    if phase == ERRANDS:
        return Action("hold")
    if phase == ACTIONS:
        return Action("done")
    return None


def _handicap(state: LastWillState, seat: int) -> Action:
    if setup.confirm_problem(state, seat) is None:
        return Action("empok")
    if len(state.picked) > state.count - data.HANDICAP_MIN_UNEMPLOYED:
        return Action("emp", (max(state.picked),))
    return Action("emp", (min(s for s in range(state.count) if s not in state.picked),))


def _discard(state: LastWillState, seat: int) -> Action:
    ranked = sorted(state.players[seat].hand, key=lambda c: (usefulness(c), c))
    chosen: list[str] = []
    for card in ranked[: state.need[seat]]:
        if chosen and len(Action("discard", (*chosen, card)).encode()) > MAX_CODE:
            break
        chosen.append(card)
    return Action("discard", tuple(chosen))


def _draw(state: LastWillState, seat: int) -> Action | None:
    if planning.drawok_problem(state, seat) is None:
        return Action("drawok")
    open_decks = [d for d in planning.REGULAR if planning.draw_problem(state, seat, d) is None]
    if not open_decks:
        return None  # not reached: a seat is asked to draw only while a card is left to name
    return Action("draw", (min(open_decks, key=lambda d: state.split.get(d, 0)),))


def _answer(state: LastWillState, seat: int) -> Action | None:
    pend = state.pending
    assert pend is not None
    options = pending.options(state)
    step = pend.step
    if step == pending.EXTRA:
        return Action(pending.EXTRA, (pending.extra_bound(state, pend),))
    if step == pending.LINE:
        return options[0]  # offered highest income first; "noline" comes last
    if step == pending.DX:
        demote = bool(offered_lines(state, seat, pend.symbols))
        return Action(pending.DX, (pending.DX_DEMOTE if demote else pending.DX_EXT,))
    if step == pending.TARGET:
        effect = pending.effect_of(pend, DropSteps)
        assert isinstance(effect, DropSteps)
        player = state.players[seat]

        def drop(card: str) -> int:
            item = owned(player, card)
            assert item is not None
            track = PROPERTIES[card].track
            return track[item.step] - track[min(item.step + effect.steps, len(track) - 1)]

        targets = pending.target_cards(state, pend)
        return Action("target", (max(targets, key=drop),)) if targets else None
    if step == pending.PICK:
        return Action(pending.PICK, (min(pend.cards, key=lambda c: (-usefulness(c), c)),))
    if Action("go") in options:  # with, bpx, fair, sale
        return Action("go")
    return legal_actions(state, seat)[0] if options else None
