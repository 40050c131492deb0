"""States a seat could be in, built from what it sees (``view(state, seat)``): bot players think on these.

In Monopoly nearly everything is public (cash, deeds, buildings, mortgages, the auction, debts,
offers), and a seat's own view adds its draft and the table's history a state needs
(``you.table``).  What is hidden, and drawn here from the seed:

- the order of the Chance and Tip Jar decks.  Each deck holds every card of its kind but a
  get-out card somebody keeps (the view names its holder), so its contents are known and only
  the order is shuffled.  The engine keeps no discard pile (a drawn card goes back under the
  deck), so a player who watched every draw could know the bottom of each deck; the view keeps
  only the sizes, so the sample treats the whole order as unknown, which forgets, never invents;
- the generator, so the dice a sample rolls are its own;
- other seats' private drafts, left empty (an unsent draft changes nothing anyone else can do).

Offers closed long ago are not carried either: they only decide which refusal answers a stale
``accept.<n>`` (every closed number is refused alike), not what is legal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.core import JSON
from rules.monopoly import data
from rules.monopoly.state import Auction, Claim, Debt, Fee, MonopolyState, Offer, Shortage, Terms
from rules.rng import Rng


def sample_state(view: Mapping[str, JSON], seat: int, seed: int) -> MonopolyState:
    """A whole state consistent with ``view`` (``view(state, seat)`` of seat ``seat``): what it
    shows kept as shown, deck order and the generator drawn from ``seed``.  Pure: the same view
    and seed give the same state."""
    you: Mapping[str, Any] = view["you"]
    if you["seat"] != seat:
        raise ValueError(f"the view is seat {you['seat']}'s, not seat {seat}'s")
    table: Mapping[str, Any] = you["table"]
    seats: list[Mapping[str, Any]] = view["seats"]
    spaces: list[Mapping[str, Any]] = view["spaces"]
    players = int(view["players"])
    shuffler = Rng(seed)
    getout: dict[str, int | None] = {deck: None for deck in data.DECKS}
    for entry in seats:
        for deck in entry["getout"]:
            getout[str(deck)] = int(entry["seat"])
    decks: dict[str, list[int]] = {}
    for deck in data.DECKS:
        held = data.GETOUT_CARD[deck] if getout[deck] is not None else None
        order = [card for card in range(data.DECK_SIZE) if card != held]
        shuffler.shuffle(order)
        decks[deck] = order
    drafts: list[Offer | None] = [None] * players
    if you["draft"] is not None:
        drafts[seat] = _offer(you["draft"], [])
    mortgaged = [bool(space["mortgaged"]) for space in spaces]
    bank: Mapping[str, Any] = view["bank"]
    opening: Mapping[str, Any] = view["opening"]
    last = view["last"]
    return MonopolyState(
        players=players,
        turns_limit=int(view["turns_limit"]),
        rent_mode=str(view["rent_mode"]),
        rng=Rng(shuffler.next64()),
        cash=[int(entry["cash"]) for entry in seats],
        bank=int(bank["cash"]),
        decks=decks,
        position=[int(entry["position"]) for entry in seats],
        alive=[bool(entry["alive"]) for entry in seats],
        out=[int(s) for s in table["out"]],
        pool=[None if entry["pool"] is None else int(entry["pool"]) for entry in seats],
        owner=[None if space["owner"] is None else int(space["owner"]) for space in spaces],
        level=[int(space["level"]) for space in spaces],
        mortgaged=mortgaged,
        houses=int(bank["houses"]),
        hotels=int(bank["hotels"]),
        getout=getout,
        phase=str(view["phase"]),
        turn=int(view["turn"]),
        dice=[int(d) for d in view["dice"]],
        doubles=int(view["doubles"]),
        again=bool(table["again"]),
        rolling=[int(s) for s in opening["rolling"]],
        opening_rolls=[[int(s), int(total)] for s, total in opening["rolls"]],
        pending_move=None if table["pending_move"] is None else int(table["pending_move"]),
        auction=_auction(view["auction"]),
        auction_queue=[int(pos) for pos in table["auction_queue"]],
        shortage=_shortage(view["shortage"]),
        shortage_queue=[[int(s), int(pos)] for s, pos in table["shortage_queue"]],
        debts=[
            Debt(int(d["debtor"]), [int(c) for c in d["to_seats"]], int(d["each"]), str(d["reason"]))
            for d in view["debts"]
        ],
        fees=[Fee(int(f["seat"]), int(f["space"])) for f in view["fees"]],
        claims=[
            Claim(int(c["owner"]), int(c["payer"]), int(c["space"]), int(c["amount"])) for c in view["claims"]
        ],
        offers=[_offer(o, mortgaged) for o in view["offers"]],
        drafts=drafts,
        next_offer=int(table["next_offer"]),
        turns_taken=[int(entry["turns_taken"]) for entry in seats],
        reason=str(view["reason"]),
        auction_mode=str(view["auction_mode"]),
        auction_hours=int(view["auction_hours"]),
        auctions_opened=int(table["auctions_opened"]),
        last=None if last is None else dict(last),
    )


def _auction(raw: Mapping[str, Any] | None) -> Auction | None:
    if raw is None:
        return None
    bidder = raw["high_bidder"]
    return Auction(
        str(raw["item"]),
        int(raw["space"]),
        [int(s) for s in raw["active"]],
        int(raw["turn"]),
        int(raw["high"]),
        None if bidder is None else int(bidder),
        str(raw["reason"]),
        str(raw["mode"]),
        [int(s) for s in raw["passed"]],
        int(raw["bids"]),
    )


def _shortage(raw: Mapping[str, Any] | None) -> Shortage | None:
    if raw is None:
        return None
    return Shortage(
        str(raw["item"]),
        int(raw["requester"]),
        [[int(s), int(pos)] for s, pos in raw["claims"]],
        [int(s) for s in raw["asked"]],
        int(raw["supply"]),
    )


def _terms(raw: Mapping[str, Any]) -> Terms:
    return Terms([int(p) for p in raw["spaces"]], [str(c) for c in raw["cards"]], int(raw["cash"]))


def _offer(raw: Mapping[str, Any], mortgaged: list[bool]) -> Offer:
    """An offer (or a draft) from its event form; ``mortgaged`` is the board's mortgages: an open
    offer lapses the moment a property it names changes mortgage, so those it named mortgaged
    when sent are those mortgaged now."""
    give, want = _terms(raw["give"]), _terms(raw["want"])
    named = sorted(p for p in [*give.props, *want.props] if mortgaged and mortgaged[p])
    return Offer(int(raw["offer"]), int(raw["from_seat"]), int(raw["to_seat"]), give, want, named)
