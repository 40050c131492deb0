"""The Monopoly board image: valid, bounded, deterministic, readable on a phone, public view only."""

from __future__ import annotations

import copy
import io
from functools import cache
from typing import Any

import pytest
from PIL import Image

import renderers.monopoly as monopoly
from bot.i18n import words
from renderers import kit
from rules.monopoly import RULES
from rules.play import random_playthrough

EN = words("en")
"""The boards as an English table sees them."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 300_000
PHONE_WIDTH = 400
SMALLEST_ON_PHONE = 9
MAX_TALL = 1.6
NAMES = ["Ann", "Bartholomew Featherstonehaugh the Third", "Zoë Ørsted 中文", "🎲🎲", "", "Élodie Ñúñez"]
STOPS: tuple[int | None, ...] = (0, 5, 40, 120, 300, 700, None)
"""Actions played before each snapshot: the opening, early turns, mid-game, the end (10 rounds)."""


@cache
def _views(players: int, seed: int) -> tuple[dict[str, Any], ...]:
    views = []
    for stop in STOPS:
        run = random_playthrough(RULES, players, seed, options={"turns": 10}, stop_after=stop, check=False)
        assert not run.failures
        views.append(copy.deepcopy(RULES.view(run.state, None)))
    return tuple(views)


def check_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) <= MAX_BYTES
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.size == (monopoly.W, monopoly.H)
    assert image.height / image.width <= MAX_TALL
    return image.convert("RGB")


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 42])
def test_every_stage_of_a_game_renders(players: int, seed: int) -> None:
    views = _views(players, seed)
    assert views[0]["phase"] == "opening" and views[-1]["phase"] == "over"
    for view in views:
        before = copy.deepcopy(view)
        check_png(monopoly.render(view, NAMES[:players], EN))
        assert view == before, "the renderer changed the view"


@pytest.mark.parametrize("players", [2, 6])
def test_no_text_is_too_small_on_a_phone(players: int) -> None:
    """Every font size a render asks for (caches emptied first) reads 9 px at 400 px wide."""
    assert monopoly.FONT_MIN * PHONE_WIDTH / monopoly.W >= SMALLEST_ON_PHONE
    for view in _views(players, 42):
        monopoly.clear_caches()
        with kit.recording_font_sizes() as sizes:
            image = check_png(monopoly.render(view, NAMES[:players], EN))
        assert sizes, "the renderer asks the kit for its fonts"
        assert min(sizes) * PHONE_WIDTH / image.width >= SMALLEST_ON_PHONE, sorted(sizes)


def test_every_name_line_fits_its_cell_uncut() -> None:
    face = kit.font(monopoly.SMALL)
    for pos, lines in monopoly.ABBREV.items():
        width = monopoly._text_area(pos)[2]
        assert len(lines) <= 2
        for line in lines:
            assert face.getlength(line) <= width, (pos, line)
    assert set(monopoly.ABBREV) == {p for p in range(40) if p % 10}


def test_deterministic_and_independent_of_cache() -> None:
    view = _views(6, 1)[3]
    first = monopoly.render(view, NAMES, EN)
    assert monopoly.render(copy.deepcopy(view), list(NAMES), EN) == first
    monopoly.clear_caches()
    assert monopoly.render(view, NAMES, EN) == first


def test_odd_names_do_not_crash_and_change_the_image() -> None:
    view = _views(6, 1)[3]
    plain = monopoly.render(view, ["A", "B", "C", "D", "E", "F"], EN)
    odd = ["", "   ", "W" * 300, "Zoë Ångström-Łukasz", "名前", "👑🎩 Rich Uncle"]
    assert monopoly.render(view, odd, EN) != plain
    check_png(monopoly.render(view, odd, EN))
    check_png(monopoly.render(view, NAMES[:2], EN))  # too few names: the missing seats are numbered


def _magenta(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    crop = image.crop(box)
    return sum(count for count, pixel in crop.getcolors(1 << 20) or [] if pixel == monopoly.LAST)


def test_the_last_roll_is_framed_on_the_board() -> None:
    """After a turn roll the space the seat now stands on, and the dice, are framed in magenta."""
    state = RULES.setup(3, {"turns": 10}, 5)
    while RULES.view(state, None)["phase"] == "opening":
        (seat, *_rest) = sorted(RULES.waiting_for(state))
        RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])
    before = RULES.view(state, None)
    assert monopoly.last_move(before) is None, "nobody has rolled on their turn yet"
    image = check_png(monopoly.render(before, NAMES[:3], EN))
    everywhere = (0, 0, monopoly.W, monopoly.H)
    legend = _magenta(monopoly.board_layer(EN), everywhere)
    assert _magenta(image, everywhere) == legend, "only the legend's sample frame is magenta"
    seat = int(before["turn"])
    RULES.apply(state, seat, RULES.legal_actions(state, seat)[0])  # roll
    view = RULES.view(state, None)
    last = monopoly.last_move(view)
    assert last is not None and last["seat"] == seat
    assert last["space"] == view["seats"][seat]["position"]
    image = check_png(monopoly.render(view, NAMES[:3], EN))
    x0, y0, x1, y1 = monopoly.highlight_box(last["space"])
    f = monopoly.FRAME
    ring = _magenta(image, (max(0, x0 - f), max(0, y0 - f), min(monopoly.W, x1 + f), min(monopoly.H, y1 + f)))
    assert ring >= 2 * ((x1 - x0) + (y1 - y0)), "the space is framed"
    heading, what = monopoly.last_move_text(view, kit.player_names(NAMES, 3, EN))
    assert heading.startswith("Last") and view["spaces"][last["space"]]["name"] in what


def test_an_explicit_last_entry_is_framed_where_it_says() -> None:
    """When the view carries ``last`` ({kind, seat, space}) the frame follows it, not the dice."""
    view = dict(_views(4, 1)[3])
    view["last"] = {"kind": "bought", "seat": 2, "space": 39}
    image = check_png(monopoly.render(view, NAMES[:4], EN))
    x0, y0, x1, y1 = monopoly.highlight_box(39)
    f = monopoly.FRAME
    inside = _magenta(image, (x0 - f, y0 - f, min(monopoly.W, x1 + f), y1 + f))
    assert inside >= 2 * ((x1 - x0) + (y1 - y0))
    assert monopoly.last_move_text(view, ["a", "b", "Chen", "d"]) == ("Last move: Chen", "bought Rodeo Drive")


def test_the_board_draws_the_public_view_only() -> None:
    """The view has deck sizes, never their order; the image does not change with the order."""
    run = random_playthrough(RULES, 4, 9, options={"turns": 10}, stop_after=200, check=False)
    state = run.state
    view = RULES.view(state, None)
    assert view["decks"] == {deck: len(order) for deck, order in state.decks.items()}
    assert "you" not in view and "rng" not in view
    image = monopoly.render(view, NAMES[:4], EN)
    shuffled = RULES.load(RULES.dump(state))
    for deck in shuffled.decks.values():
        deck.reverse()
    assert shuffled.decks != state.decks
    assert monopoly.render(RULES.view(shuffled, None), NAMES[:4], EN) == image
    # A seat's own view adds only its private draft, which the board never reads.
    assert monopoly.render(RULES.view(state, 1), NAMES[:4], EN) == image


def test_owners_buildings_and_mortgages_are_drawn() -> None:
    """An owned site shows the owner's chip; a house badge and a mortgage badge change the cell."""
    view = copy.deepcopy(_views(3, 1)[0])
    box = monopoly.cell_box(39)
    bare = check_png(monopoly.render(view, NAMES[:3], EN)).crop(box)
    view["spaces"][39].update(owner=1)
    owned = check_png(monopoly.render(view, NAMES[:3], EN)).crop(box)
    view["spaces"][39].update(level=5)
    hotel = check_png(monopoly.render(view, NAMES[:3], EN)).crop(box)
    view["spaces"][39].update(level=0, mortgaged=True)
    mortgaged = check_png(monopoly.render(view, NAMES[:3], EN)).crop(box)
    crops = [bare.tobytes(), owned.tobytes(), hotel.tobytes(), mortgaged.tobytes()]
    assert len(set(crops)) == 4


def test_tokens_stand_beside_their_spaces() -> None:
    view = _views(6, 1)[2]
    places = monopoly.token_places(view)
    alive = [s for s in view["seats"] if s["alive"]]
    assert set(places) == {s["seat"] for s in alive}
    for s in alive:
        x, y = places[s["seat"]]
        x0, y0, x1, y1 = monopoly.lane_box(s["position"])
        assert (
            x0 - monopoly.TOKEN <= x <= x1 + monopoly.TOKEN
            and y0 - monopoly.TOKEN <= y <= y1 + monopoly.TOKEN
        )
