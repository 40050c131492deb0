"""A whole California state built from one seat's view, for bot players (``Rules.sample_state``).

Everything on the table is public: the stores (tile ids), every mansion, money, loans, gifts,
guests, bonus cards, the day and the bank.  What a seat cannot see is the order of the draw
stack (which tiles come next) and the state's random generator (the bag's shuffles).  The bag's
tiles are known (each lay in a store when a day ended; the seat's view lists them) and its
order never matters, since the bag is shuffled before every draw from it.

So a sample keeps the view as shown and draws the rest from ``seed``:

- the stack holds every tile not visible anywhere (the full mix minus the stores, the mansions
  and the bag), in an order shuffled from ``seed``, and the state gets a fresh ``Rng``;
- mansions show colours, not tile ids, and tiles of one kind and colour are interchangeable,
  so each mansion piece takes the lowest free id of its kind and colour (the last bought tile,
  whose id the view names, keeps it);
- the stock's history is not in the view, only what it implies: ``minted`` is the money on the
  table and ``returned`` 0, which keeps money conserved.

The sample depends on the view and the seed only, never on the real state's hidden parts.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Any

from rules.core import JSON
from rules.rng import Rng

from . import data
from .data import COLOURS
from .placement import ATTIC, EXPAND
from .state import EXPANSION, FURNITURE, ROOM, TILE_COLOUR, TILE_KIND, LastMove, Player, State

_COLOUR = {key: c for c, key in enumerate(COLOURS)}
_TYPES: dict[tuple[str, int], list[int]] = {}
for _tile in range(data.TILE_COUNT):
    _TYPES.setdefault((TILE_KIND[_tile], TILE_COLOUR[_tile]), []).append(_tile)
_TILES_OF: dict[tuple[str, int], tuple[int, ...]] = {key: tuple(ids) for key, ids in _TYPES.items()}
"""Every tile id of each (kind, colour), in id order: the ids a mansion piece may take."""
_SHOWN_ONLY = ("kind", "colour")
"""What the view adds to the last move (the bought tile's kind and colour), not kept in the state."""


def sample_state(view: Mapping[str, JSON], seat: int, seed: int) -> State:
    """A state ``seat`` could be in, given ``view(state, seat)``: see the module docstring.

    ``view`` must be the seat's own view (it lists the bag's tiles); the same view and seed
    always give the same state.
    """
    if view.get("you") != seat or "bag_tiles" not in view:
        raise ValueError(f"sample_state needs seat {seat}'s own view")
    rng = Rng(seed)
    stores: list[list[int | None]] = [
        [None if t is None else int(t["id"]) for t in tiles] for tiles in view["stores"]
    ]
    bag = [int(t) for t in view["bag_tiles"]]
    last = _last(view.get("last"))
    on_show = {t for tiles in stores for t in tiles if t is not None} | set(bag)
    bought = last.get("tile") if last is not None and last.get("action") == "buy" else None
    free = {key: iter([t for t in ids if t not in on_show]) for key, ids in _TILES_OF.items()}
    players = [_player(v, free) for v in view["players"]]
    if last is not None and isinstance(bought, int):
        _place_last(players, last, bought)
    used = on_show | {t for p in players for t in _pieces(p)}
    stack = [t for t in range(data.TILE_COUNT) if t not in used]
    _shuffle(stack, rng)
    bank = int(view["bank"])
    held = sum(p.money for p in players) + bank * data.GOLD
    turn = view["turn"]
    return State(
        players=players,
        rng=Rng(rng.next64()),
        day=int(view["day"]),
        turn=int(turn) if turn is not None else 0,
        bank=bank,
        stores=stores,
        stack=stack,
        bag=bag,
        bonus=[None if c["owner"] is None else int(c["owner"]) for c in view["bonus_cards"]],
        guests=[None if view["guests"][key] is None else int(view["guests"][key]) for key in COLOURS],
        gift_supply=int(view["gifts_left"]),
        loan_supply=int(view["loan_markers_left"]),
        minted=held,
        returned=0,
        ending=view["ending"],
        over=bool(view["over"]),
        last=last,
    )


def _player(v: Mapping[str, Any], free: Mapping[tuple[str, int], Iterator[int]]) -> Player:
    """One mansion from its view: each piece the next free id of its kind and colour."""
    mansion = v["mansion"]
    rooms: list[int | None] = [None] * data.SPACES
    furniture: list[int | None] = [None] * data.SPACES
    for space in mansion["spaces"]:
        room, piece = space["room"], space["furniture"]
        if room is not None and not space["printed"]:
            rooms[space["space"]] = next(free[ROOM, _COLOUR[room]])
        if piece is not None:
            furniture[space["space"]] = next(free[FURNITURE, _COLOUR[piece]])
    return Player(
        board=int(mansion["board"]) - 1,
        money=int(v["money"]),
        rooms=rooms,
        furniture=furniture,
        attic=[next(free[FURNITURE, _COLOUR[key]]) for key in mansion["attic"]],
        expansion=next(free[EXPANSION, -1]) if mansion["expansion"] else None,
        loan=bool(v["loan"]),
        gifts=int(v["gifts"]),
    )


def _shuffle(tiles: list[int], rng: Rng) -> None:
    """Fisher-Yates, drawing several indices from each 64-bit word of ``rng`` (a mixed-radix
    split of the word, refreshed once fewer than 32 bits are left, so no index is biased by
    more than 2**-25).  ``Rng.shuffle`` spends a word per index; a sample shuffles up to 80
    tiles for every playout a bot plays, and this is several times cheaper."""
    word = rng.next64()
    for i in range(len(tiles) - 1, 0, -1):
        if word < _FRESH:
            word = rng.next64()
        word, j = divmod(word, i + 1)
        tiles[i], tiles[j] = tiles[j], tiles[i]


_FRESH = 1 << 32


def _last(shown: Any) -> LastMove | None:
    if shown is None:
        return None
    return {key: value for key, value in shown.items() if key not in _SHOWN_ONLY}


def _place_last(players: list[Player], last: LastMove, tile: int) -> None:
    """Give the last bought tile, whose id the view names, the place it was bought for: it
    trades ids with the piece of its kind and colour that is there (both are alike)."""
    seat, target = last.get("seat"), last.get("target")
    if not isinstance(seat, int) or not 0 <= seat < len(players):
        return
    p = players[seat]
    kind, colour = TILE_KIND[tile], TILE_COLOUR[tile]
    there: int | None = None
    if kind == EXPANSION and target == EXPAND:
        there = p.expansion
    elif kind == FURNITURE and target == ATTIC:
        there = next((t for t in reversed(p.attic) if TILE_COLOUR[t] == colour), None)
    elif isinstance(target, int) and 0 <= target < data.SPACES:
        there = (p.rooms if kind == ROOM else p.furniture)[target]
    if there is not None and TILE_KIND[there] == kind and TILE_COLOUR[there] == colour:
        swap = {there: tile, tile: there}
        for q in players:
            q.rooms = [swap.get(t, t) if t is not None else None for t in q.rooms]
            q.furniture = [swap.get(t, t) if t is not None else None for t in q.furniture]
            q.attic = [swap.get(t, t) for t in q.attic]
            if q.expansion is not None:
                q.expansion = swap.get(q.expansion, q.expansion)


def _pieces(p: Player) -> list[int]:
    out = [t for t in p.rooms if t is not None] + [t for t in p.furniture if t is not None] + p.attic
    if p.expansion is not None:
        out.append(p.expansion)
    return out
