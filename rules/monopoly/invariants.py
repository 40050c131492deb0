"""Conservation laws a fuzzer checks after every action; each broken one is a sentence."""

from __future__ import annotations

from rules.monopoly import data
from rules.monopoly.state import OPENING, OVER, MonopolyState

_NOT_PROPERTY: tuple[int, ...] = tuple(p for p in range(data.SPACES) if not data.BOARD[p].price)


def invariants(state: MonopolyState) -> list[str]:
    """Every broken law, as sentences (none in a legal game); the fuzzer runs it after every
    action, so it reads each group once rather than each site's group."""
    problems: list[str] = []
    n = state.players
    # Money: it only moves between the bank and the players (the bank may go below zero).
    total = state.bank + sum(state.cash)
    if total != data.MONEY_IN_BOX:
        problems.append(f"money total is {total}, expected {data.MONEY_IN_BOX}")
    if min(state.cash) < 0:
        problems.append("a player's cash went negative")
    # Buildings: 32 houses and 12 hotels, each in the bank or on a site.
    level, owner_at, mortgaged, alive = state.level, state.owner, state.mortgaged, state.alive
    if min(level) < 0 or max(level) > data.HOTEL:
        problems.append("a site's building level is out of range")
    hotels = level.count(data.HOTEL)
    houses = sum(level) - data.HOTEL * hotels
    if state.houses + houses != data.HOUSE_SUPPLY or state.houses < 0:
        problems.append(f"houses: {state.houses} in the bank + {houses} built != {data.HOUSE_SUPPLY}")
    if state.hotels + hotels != data.HOTEL_SUPPLY or state.hotels < 0:
        problems.append(f"hotels: {state.hotels} in the bank + {hotels} built != {data.HOTEL_SUPPLY}")
    # Property: each owned at most once (one owner slot each), by a seat still in the game.
    for pos in _NOT_PROPERTY:
        if owner_at[pos] is not None or level[pos] or mortgaged[pos]:
            problems.append(f"space {pos} is not a property but is held")
    for pos in data.PROPERTIES:
        owner = owner_at[pos]
        if owner is None:
            if level[pos] or mortgaged[pos]:
                problems.append(f"unowned property {pos} has buildings or a mortgage")
        elif not (0 <= owner < n and alive[owner]):
            problems.append(f"property {pos} has a bad owner {owner}")
    # Building: on full sets only, evenly (a hotel counts as five houses), none mortgaged.
    for group in data.GROUPS.values():
        levels_g = [level[p] for p in group]
        high = max(levels_g)
        if not high:
            continue
        if high - min(levels_g) > 1:
            problems.append(f"uneven building on group {group}")
        holder = owner_at[group[0]]
        if not data.IS_SITE[group[0]] or any(owner_at[p] != holder for p in group):
            problems += [f"buildings on {p} without a full set" for p in group if level[p]]
        problems += [f"{p} is mortgaged in a group with buildings" for p in group if mortgaged[p]]
    # Cards: each card of each deck in exactly one place (the deck, or a holder's hand).
    for deck in data.DECKS:
        held = [data.GETOUT_CARD[deck]] if state.getout[deck] is not None else []
        if sorted(state.decks[deck] + held) != list(range(data.DECK_SIZE)):
            problems.append(f"the {deck} cards are not each in exactly one place")
        holder = state.getout[deck]
        if holder is not None and not state.alive[holder]:
            problems.append(f"the {deck} get-out card is held by a seat out of the game")
    # Seats.
    if sorted(state.out) != [s for s in range(n) if not state.alive[s]]:
        problems.append("the bankrupt list disagrees with who is in the game")
    if state.phase not in (OPENING, OVER) and not state.alive[state.turn]:
        problems.append("the seat on turn is out of the game")
    if state.phase != OVER and sum(state.alive) < 2:
        problems.append("one player is left but the game goes on")
    if any(not 0 <= p < data.SPACES for p in state.position):
        problems.append("a token is off the board")
    problems += _auction(state)
    return problems


def _auction(state: MonopolyState) -> list[str]:
    """An open auction has somebody to wait for, and every bidder is in it or has passed."""
    auction = state.auction
    if auction is None:
        return []
    problems: list[str] = []
    if auction.mode not in data.AUCTION_MODES:
        problems.append(f"the auction's mode {auction.mode!r} is unknown")
    if auction.mode == data.ROUND and auction.turn not in auction.active:
        problems.append("the auction's bidder is not in it")
    if auction.mode == data.OPEN and auction.turn != -1:
        problems.append("an open auction has a bidder on turn")
    if set(auction.active) & set(auction.passed) or len(set(auction.passed)) != len(auction.passed):
        problems.append("a seat that passed is still in the auction")
    if any(not state.alive[s] for s in auction.active):
        problems.append("a seat out of the game is in the auction")
    if auction.high_bidder is not None and auction.high_bidder not in auction.active:
        problems.append("the auction's high bidder is not in it")
    if not [s for s in auction.active if s != auction.high_bidder]:
        problems.append("an auction waits for nobody")
    if (auction.high == 0) != (auction.high_bidder is None) or (auction.bids == 0) != (auction.high == 0):
        problems.append("the auction's high bid, bidder and bid count disagree")
    return problems
