"""What an any-time action means now: the host hashes it into the action's button, so the button
stays good through every change at the table that leaves that meaning alone.

Public facts only, since the hash travels in a custom_id everyone can read.
"""

from __future__ import annotations

from rules.core import Action
from rules.monopoly import data
from rules.monopoly.engine import ANSWER_KINDS
from rules.monopoly.state import MonopolyState

B = data.BOARD


def fingerprint(state: MonopolyState, action: Action) -> str | None:
    """What an any-time action means now, from public facts only (money and holdings are public).

    - ``build``/``sell``/``mort``/``unmort``.<pos>: the property, its owner, its price (house
      cost, refund, mortgage value or repayment), the group's levels and mortgages and the bank's
      supply: the facts its legality rests on.  A button drawn for it stays good until one of
      them changes, whatever else happens at the table.
    - ``accept``/``reject``/``counter``/``withdraw``.<n>: an offer number always names the same,
      unchangeable offer (once closed, the refusal says why).
    - drafting (``deal``, ``give``...): ``give``/``want`` name a property and its owner; the
      rest mean the same all game (the draft itself is private and never enters a fingerprint).
    - ``rent``.<pos>: the claim (owner, payer, amount) while it is open.
    - Everything else (rolls, bids, claims, buying, ending) belongs to its moment: ``None``.
    """
    kind, args = action.kind, action.args
    if kind in ("build", "sell", "mort", "unmort") and len(args) == 1 and isinstance(args[0], int):
        pos = args[0]
        if not (0 <= pos < data.SPACES and B[pos].price):
            return None
        owner = state.owner[pos]
        group = data.GROUPS[B[pos].group]
        levels = ",".join(str(state.level[p]) for p in group)
        mortgages = "".join("m" if state.mortgaged[p] else "-" for p in group)
        owners = ",".join(str(state.owner[p]) for p in group)
        price = {
            "build": B[pos].house_cost,
            "sell": B[pos].house_cost // data.SELL_BACK_DIVISOR,
            "mort": data.mortgage_value(pos),
            "unmort": data.repay_cost(pos),
        }[kind]
        afford = owner is not None and state.cash[owner] >= price
        supply = f"{state.houses}/{state.hotels}" if kind in ("build", "sell") else ""
        return f"{kind}:{pos}:o{owners}:l{levels}:{mortgages}:${price}:{int(afford)}:{supply}"
    if kind in ANSWER_KINDS:
        return action.encode()
    if (
        kind in ("give", "want")
        and len(args) == 1
        and isinstance(args[0], int)
        and 0 <= args[0] < data.SPACES
    ):
        return f"{kind}:{args[0]}@{state.owner[args[0]]}"
    if kind in ("deal", "givec", "wantc", "cash", "ask", "send", "drop"):
        return action.encode()
    if kind == "rent":
        claim = next((c for c in state.claims if (c.pos,) == args), None)
        return None if claim is None else f"rent:{claim.pos}:{claim.owner}:{claim.payer}:{claim.amount}"
    return None
