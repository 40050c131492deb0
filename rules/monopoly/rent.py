"""Rent for landing on another player's property, and the ``rent=ask`` window for claiming it.

With ``rent=auto`` the lander owes the rent at once.  With ``rent=ask`` it waits as a ``Claim``
the owner must collect (``rent.<pos>``) before anybody but the lander rolls (rulebook: an owner
who does not ask in time loses the rent), so the window closes on the next roll.
"""

from __future__ import annotations

from rules.core import Action, Event, IllegalAction
from rules.monopoly import arguments, debt, holdings
from rules.monopoly.state import Claim, MonopolyState
from rules.monopoly.tokens import space_token


def claim_params(claim: Claim) -> dict[str, object]:
    return {
        "owner_seat": claim.owner,
        "space": claim.pos,
        "token": space_token(claim.pos),
        "amount": claim.amount,
    }


def due(state: MonopolyState, payer: int, owner: int, pos: int, total: int, by_card: bool) -> list[Event]:
    """Owed or claimable at once; the caller has checked the property is another's and not mortgaged.

    ``total`` is the dice the rent is reckoned from; ``by_card`` is a "nearest" card's landing,
    which changes the airport and utility rates."""
    amount = holdings.rent(state, pos, total, card=by_card)
    claim = Claim(owner, payer, pos, amount)
    if state.rent_mode == "ask":
        state.claims.append(claim)
        return [Event("rent_claimable", payer, claim_params(claim))]
    return [
        Event("rent_due", payer, claim_params(claim)),
        *debt.charge(state, payer, [owner], amount, "rent"),
    ]


def forfeit(state: MonopolyState, seat: int) -> list[Event]:
    """A roll by anyone but the lander closes the lander's rent window (rulebook)."""
    events = []
    for claim in list(state.claims):
        if claim.payer != seat:
            state.claims.remove(claim)
            events.append(Event("rent_forfeited", claim.payer, claim_params(claim)))
    return events


def collect(state: MonopolyState, seat: int, action: Action) -> list[Event]:
    pos = arguments.int_arg(action)
    claim = next((c for c in state.claims if c.owner == seat and c.pos == pos), None)
    if claim is None:
        raise IllegalAction("no_rent_claim")
    state.claims.remove(claim)
    events = [Event("rent_collected", claim.payer, claim_params(claim))]
    return events + debt.charge(state, claim.payer, [seat], claim.amount, "rent")
