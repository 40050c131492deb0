"""The Estates board image: every stage of random games, budgets, determinism and hidden money."""

from __future__ import annotations

import ast
import copy
import io
import random
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderers.estates as estates
from renderers import kit
from renderers.estates import render
from rules.core import Action
from rules.estates import RULES
from rules.estates.state import EstatesState
from rules.play import random_playthrough

NAMES = ("Ann", "Bartholomew the Magnificent of Somewhere", "Chen", "Dolores-Maria", "Eve")
EVERY = 10  # actions between two snapshots
MAX_PNG = 1_000_000

# (players, seed, rounds): every player count, and the several-rounds variant.
GAMES = [(2, 11, 1), (3, 12, 1), (4, 13, 1), (5, 14, 1), (3, 15, 2), (5, 16, 2)]


def _snapshots(players: int, seed: int, rounds: int) -> Iterator[tuple[int, EstatesState]]:
    """The state every ``EVERY`` actions of one random game, and the final state."""
    run = random_playthrough(RULES, players, seed, options={"rounds": rounds}, check=False)
    assert run.finished and not run.failures
    state = RULES.setup(players, {"rounds": rounds}, seed)
    yield 0, state
    for step, (seat, action) in enumerate(run.log, start=1):
        RULES.apply(state, seat, action)
        if step % EVERY == 0 or step == len(run.log):
            yield step, state


@cache
def _game_views(players: int, seed: int, rounds: int) -> tuple[dict[str, Any], ...]:
    return tuple(copy.deepcopy(RULES.view(state, None)) for _step, state in _snapshots(players, seed, rounds))


def _check_png(data: bytes, players: int) -> None:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) < MAX_PNG
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        width, height = image.size
    assert 800 <= width <= 900
    assert 700 <= height <= 1600, height


@pytest.mark.parametrize(("players", "seed", "rounds"), GAMES)
def test_every_stage_renders(players: int, seed: int, rounds: int) -> None:
    views = _game_views(players, seed, rounds)
    assert views[-1]["phase"] == "over"
    names = NAMES[:players]
    for view in views:
        before = copy.deepcopy(view)
        _check_png(render(view, names), players)
        assert view == before, "the renderer changed the view"


def test_all_phases_and_pieces_are_drawn() -> None:
    phases: set[str] = set()
    kinds: set[str] = set()
    for game in GAMES:
        for view in _game_views(*game):
            phases.add(view["phase"])
            if view["auction"]:
                kinds.add(view["auction"]["kind"])
    assert phases == {"choose", "bid", "decide", "place", "over"}
    assert kinds >= {"cube", "roof", "permit"}


def test_same_view_same_bytes() -> None:
    views = _game_views(5, 14, 1)
    for view in views[:: max(1, len(views) // 5)]:
        assert render(view, NAMES) == render(copy.deepcopy(view), list(NAMES))


def test_names_change_the_image_and_any_name_fits() -> None:
    view = _game_views(5, 14, 1)[len(_game_views(5, 14, 1)) // 2]
    plain = render(view, NAMES)
    odd = ["", "   ", "W" * 200, "Zoë Ångström-Łukasz", "名前"]
    assert kit.player_names(odd, 5) == ["Player 1", "Player 2", "W" * 200, "Zoe Angstrom-Lukasz", "Player 5"]
    assert render(view, odd) != plain
    _check_png(render(view, odd), 5)
    _check_png(render(view, NAMES[:2]), 5)  # too few names: the missing seats are numbered


def _scramble_hidden(state: EstatesState, rng: random.Random) -> None:
    """Change everything that is nobody else's business: money in hand and cash boxes."""
    state.money = [rng.randrange(0, 80) for _ in state.money]
    state.cash_box = [rng.randrange(0, 20) for _ in state.cash_box]


@pytest.mark.parametrize(("players", "seed", "rounds"), [(2, 21, 1), (5, 22, 1), (4, 23, 2)])
def test_hidden_money_never_changes_the_image(players: int, seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    names = NAMES[:players]
    for step, state in _snapshots(players, seed, rounds):
        if step % 40:
            continue
        image = render(RULES.view(state, None), names)
        changed = RULES.load(RULES.dump(state))  # a copy: the game goes on from ``state``
        _scramble_hidden(changed, rng)
        assert (changed.money, changed.cash_box) != (state.money, state.cash_box)
        assert render(RULES.view(changed, None), names) == image, f"money shows after {step} actions"
        # A seat's own view adds its money; the renderer must not look at it either.
        seat = (step // 40) % players
        assert render(RULES.view(changed, seat), names) == image


def test_renderer_reads_no_private_key() -> None:
    """No string in the renderer's code names a private field of a seat view."""
    tree = ast.parse(Path(estates.__file__).read_text(encoding="utf-8"))
    private = {"you", "money", "cash_box", "stowed_this_turn", "round_scores", "checks"}
    used = {
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    }
    used |= {node.attr for node in ast.walk(tree) if isinstance(node, ast.Attribute)}
    assert not used & private


def _marked_seats(png: bytes, view: dict[str, Any]) -> set[int]:
    """Seats whose row in the players' table carries the "we wait for you" arrow.

    The arrow is the only thing drawn in the HIGHLIGHT colour in the left margin of the
    players' table (the table sits right above the legend at the bottom of the image).
    """
    with Image.open(io.BytesIO(png)) as opened:
        image = opened.convert("RGB")
    table_top = image.height - estates.LEGEND_H - estates._table_height(view)
    marked: set[int] = set()
    for seat in range(int(view["players"])):
        top = table_top + 40 + seat * estates.TABLE_ROW_H
        lit = sum(
            image.getpixel((x, y)) == estates.HIGHLIGHT
            for x in range(estates.MARGIN, estates.MARGIN + 15)
            for y in range(top, top + estates.TABLE_ROW_H)
        )
        if lit > 20:
            marked.add(seat)
    return marked


def test_the_arrow_marks_the_seat_we_wait_for_not_the_auctioneer() -> None:
    """The players' table points at whoever must act now, which in an auction is the bidder.

    Walks one auction where the seat on turn differs from the auctioneer (bidding, and
    placing a piece the auctioneer sold) and where they coincide (the auctioneer's
    sell-or-buy decision); at every step the marked seat is exactly ``waiting_for``.
    """
    names = NAMES[:3]
    state = RULES.setup(3, {}, 7)
    state.auctioneer = state.first_player = 0
    steps = [
        (0, Action("pick", ("mayor",))),
        (1, Action("bid", (1,))),
        (2, Action("pass")),
        (0, Action("sell")),
    ]
    seen: list[tuple[str, int]] = []
    for seat, action in steps:
        RULES.apply(state, seat, action)
        view = RULES.view(state, None)
        (waiting,) = RULES.waiting_for(state)
        assert view["waiting_for"] == [waiting] and view["auctioneer"] == 0
        assert _marked_seats(render(view, names), view) == {waiting}, view["phase"]
        seen.append((view["phase"], waiting))
    assert seen == [("bid", 1), ("bid", 2), ("decide", 0), ("place", 1)]
    # The arrow follows ``waiting_for`` alone: the same view waiting on another seat moves it.
    view = RULES.view(state, None)
    assert _marked_seats(render({**view, "waiting_for": [2]}, names), view) == {2}
