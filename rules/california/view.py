"""What a seat (or a spectator) sees: the whole table, as plain JSON data.

California has no secrets but the order of the draw stack and of the bag,
which appear only as sizes.  A seat's own view (``seat`` not None) adds
``bag_tiles``, the ids in the bag in id order (never its drawing order): each
of them lay face up in a store when a day ended, so a player who watched the
table knows them, and a bot player needs them to sample states that fit what
it saw (``rules.california.sample``).  The spectators' view keeps the sizes
only, as the board image does.  The view holds tokens, never words (colour keys,
tile kinds, bonus card indices and tokens): the renderer and the presenter
name them in the table's language.  The renderer draws from ``view(state, None)``;
``last`` (the last public move) lets it outline what that move changed.
"""

from __future__ import annotations

from typing import Any

from . import data
from .data import COLOURS
from .engine import bonus_points, score_breakdown, waiting_for
from .placement import SPACES, fees, furniture_counts, grid
from .state import TILE_COLOUR, TILE_KIND, State


def view(state: State, seat: int | None) -> dict[str, Any]:
    price = state.bank
    return {
        "game": "california",
        "you": seat,
        "over": state.over,
        "day": state.day,
        "days": data.DAYS,
        "turn": None if state.over else state.turn,
        "waiting_for": sorted(waiting_for(state)),
        "ending": state.ending,
        "bank": state.bank,
        "price": price,
        "stores": [
            [None if t is None else {**tile_view(t), "price": price} for t in tiles] for tiles in state.stores
        ],
        "draw_stack": len(state.stack),
        "bag": len(state.bag),
        "bonus_cards": [
            {
                "card": card,
                "token": token,
                "needs": {COLOURS[c]: k for c, k in enumerate(needs) if k},
                "points": points,
                "owner": state.bonus[card],
            }
            for card, (token, needs, points) in enumerate(data.BONUS_CARDS)
        ],
        "bonus_cards_left": state.bonus.count(None),
        "guests": {COLOURS[c]: host for c, host in enumerate(state.guests)},
        "gifts_left": state.gift_supply,
        "loan_markers_left": state.loan_supply,
        "last": _last_view(state),
        "players": [_player_view(state, s) for s in range(state.n)],
    } | ({} if seat is None else {"bag_tiles": sorted(state.bag)})


def _last_view(state: State) -> dict[str, Any] | None:
    """The last public move (see ``engine``), with what the bought tile was, for the image."""
    if state.last is None:
        return None
    last: dict[str, Any] = dict(state.last)
    tile = last.get("tile")
    if isinstance(tile, int) and 0 <= tile < len(TILE_KIND):
        shown = tile_view(tile)
        last |= {"kind": shown["kind"], "colour": shown["colour"]}
    return last


def tile_view(tile: int) -> dict[str, Any]:
    c = TILE_COLOUR[tile]
    return {
        "id": tile,
        "kind": TILE_KIND[tile],
        "colour": COLOURS[c] if c >= 0 else None,
    }


def _player_view(state: State, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    return {
        "seat": seat,
        "money": p.money,
        "gold": p.money // data.GOLD,
        "silver": p.money % data.GOLD,
        "loan": p.loan,
        "gifts": p.gifts,
        "guests": [COLOURS[c] for c, host in enumerate(state.guests) if host == seat],
        "bonus_cards": [card for card, owner in enumerate(state.bonus) if owner == seat],
        "bonus_points": bonus_points(state, seat),
        "score": score_breakdown(state, seat),
        "mansion": _mansion_view(state, seat),
    }


def _mansion_view(state: State, seat: int) -> dict[str, Any]:
    p = state.players[seat]
    colours = grid(p)
    fee = fees(state.n)
    counts = furniture_counts(p)
    spaces = []
    for s in SPACES:
        f = p.furniture[s]
        spaces.append(
            {
                "space": s,
                "row": s // data.COLUMNS,
                "column": s % data.COLUMNS,
                "fee": 0 if s == data.PRINTED_SPACE else fee[s],
                "printed": s == data.PRINTED_SPACE,
                "room": COLOURS[colours[s]] if colours[s] >= 0 else None,
                "furniture": COLOURS[TILE_COLOUR[f]] if f is not None else None,
            }
        )
    return {
        "board": p.board + 1,
        "side": data.board_side(state.n),
        "printed": {"space": data.PRINTED_SPACE, "colour": COLOURS[p.printed_colour]},
        "spaces": spaces,
        "renovated": sum(c >= 0 for c in colours),
        "rooms_by_colour": {key: colours.count(c) for c, key in enumerate(COLOURS)},
        "furniture_by_colour": {key: counts[c] for c, key in enumerate(COLOURS)},
        "attic": [COLOURS[TILE_COLOUR[t]] for t in p.attic],
        "attic_spaces": 2 if p.expansion is not None else 1,
        "expansion": p.expansion is not None,
    }
