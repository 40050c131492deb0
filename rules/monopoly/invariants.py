"""Conservation laws a fuzzer checks after every action; each broken one is a sentence."""

from __future__ import annotations

from rules.monopoly import data, holdings
from rules.monopoly.state import OPENING, OVER, MonopolyState


def invariants(state: MonopolyState) -> list[str]:
    problems: list[str] = []
    n = state.players
    # Money: it only moves between the bank and the players (the bank may go below zero).
    total = state.bank + sum(state.cash)
    if total != data.MONEY_IN_BOX:
        problems.append(f"money total is {total}, expected {data.MONEY_IN_BOX}")
    if min(state.cash) < 0:
        problems.append("a player's cash went negative")
    # Buildings: 32 houses and 12 hotels, each in the bank or on a site.
    levels = [state.level[p] for p in range(data.SPACES)]
    houses = sum(lv for lv in levels if lv < data.HOTEL)
    hotels = sum(1 for lv in levels if lv == data.HOTEL)
    if state.houses + houses != data.HOUSE_SUPPLY or state.houses < 0:
        problems.append(f"houses: {state.houses} in the bank + {houses} built != {data.HOUSE_SUPPLY}")
    if state.hotels + hotels != data.HOTEL_SUPPLY or state.hotels < 0:
        problems.append(f"hotels: {state.hotels} in the bank + {hotels} built != {data.HOTEL_SUPPLY}")
    # Property: each owned at most once (one owner slot each), by a seat still in the game.
    for pos in range(data.SPACES):
        owner, space = state.owner[pos], data.BOARD[pos]
        if not space.price and (owner is not None or state.level[pos] or state.mortgaged[pos]):
            problems.append(f"space {pos} is not a property but is held")
        if owner is not None and not (0 <= owner < n and state.alive[owner]):
            problems.append(f"property {pos} has a bad owner {owner}")
        if owner is None and (state.level[pos] or state.mortgaged[pos]):
            problems.append(f"unowned property {pos} has buildings or a mortgage")
        if state.level[pos] and (space.kind != data.SITE or not holdings.full_set(state, owner or 0, pos)):
            problems.append(f"buildings on {pos} without a full set")
        if state.mortgaged[pos] and holdings.improved(state, pos):
            problems.append(f"{pos} is mortgaged in a group with buildings")
    for group in data.GROUPS.values():
        levels_g = [state.level[p] for p in group]
        if max(levels_g) - min(levels_g) > 1 and max(levels_g) < data.HOTEL:
            problems.append(f"uneven building on group {group}")
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
    if state.auction is not None and state.auction.turn not in state.auction.active:
        problems.append("the auction's bidder is not in it")
    return problems
