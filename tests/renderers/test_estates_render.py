"""The Estates board image: phone-first sizes, every stage of random games, the last-move frame,
final totals equal to the standings, hidden money, and the private holdings zoom."""

from __future__ import annotations

import ast
import copy
import io
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderers.estates as estates
from bot.core.i18n import words
from renderers import kit
from renderers.estates import render, render_holdings
from rules.core import Action
from rules.estates import RULES, data
from rules.estates.builder import EstatesBuilder
from rules.estates.engine import LAST_MOVE_KINDS as LAST_KINDS
from rules.estates.state import EstatesState
from rules.play import random_playthrough

EN = words("en")
"""The boards as an English table sees them."""
FR = words("fr")
"""And as a French one does."""

NAMES = ("Ann", "Bartholomew the Magnificent of Somewhere", "Chen", "Dolores-Maria", "Eve")
EVERY = 10  # actions between two snapshots
MAX_PNG = 300_000
PHONE = 400  # the width the image is judged at

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


def _open(data: bytes) -> Image.Image:
    with Image.open(io.BytesIO(data)) as opened:
        return opened.convert("RGB")


def _check_png(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert len(data) <= MAX_PNG
    with Image.open(io.BytesIO(data)) as image:
        image.verify()
    with Image.open(io.BytesIO(data)) as image:
        assert image.format == "PNG"
        width, height = image.size
    assert width == estates.WIDTH
    assert 400 <= height <= width * 1.6, f"{width} x {height} is taller than 1.6 : 1"
    return width, height


@pytest.mark.parametrize(("players", "seed", "rounds"), GAMES)
def test_every_stage_renders_within_the_phone_budget(players: int, seed: int, rounds: int) -> None:
    views = _game_views(players, seed, rounds)
    assert views[-1]["phase"] == "over"
    names = NAMES[:players]
    for view in views:
        before = copy.deepcopy(view)
        _check_png(render(view, names, EN))
        assert view == before, "the renderer changed the view"


def test_all_phases_pieces_and_last_moves_are_drawn() -> None:
    phases: set[str] = set()
    kinds: set[str] = set()
    lasts: set[str] = set()
    for game in GAMES:
        for view in _game_views(*game):
            phases.add(view["phase"])
            if view["auction"]:
                kinds.add(view["auction"]["kind"])
            if view["last"]:
                lasts.add(view["last"]["kind"])
    assert phases == {"choose", "bid", "decide", "place", "over"}
    assert kinds >= {"cube", "roof", "permit"}
    assert lasts >= {"built", "roofed", "picked", "bid", "passed", "sold"}


# --- phone-first sizes --------------------------------------------------------------------


def _record_fonts(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Every font size asked for from now on (the renderer's caches are emptied first)."""
    sizes: list[int] = []
    real = kit.font

    def font(size: int, bold: bool = False) -> kit.Font:
        sizes.append(size)
        return real(size, bold)

    monkeypatch.setattr(kit, "font", font)
    estates.clear_caches()
    return sizes


def test_the_smallest_font_reads_9_px_on_a_400_px_phone(monkeypatch: pytest.MonkeyPatch) -> None:
    assert estates.FONT_MIN * PHONE / estates.WIDTH >= 9
    sizes = _record_fonts(monkeypatch)
    for game in GAMES:
        views = _game_views(*game)
        for view in views[:: max(1, len(views) // 6)] + views[-1:]:
            width, _height = _check_png(render(view, NAMES, EN))
            assert sizes, "the recorder saw the renderer's fonts"
            assert min(sizes) * PHONE / width >= 9, (
                f"a {min(sizes)} px font is {min(sizes) * PHONE / width:.1f} px"
            )
    assert min(sizes) == estates.FONT_MIN
    # The private zoom keeps the same floor.
    sizes.clear()
    state = _finished_state(4, 31, 1)
    for seat in range(4):
        width, _height = _open_size(render_holdings(RULES.view(state, seat), NAMES, seat, EN))
        assert min(sizes) * PHONE / width >= 9


def _open_size(data: bytes) -> tuple[int, int]:
    with Image.open(io.BytesIO(data)) as image:
        return image.size


def _tall(players: int = 5) -> EstatesBuilder:
    """Every row with a six-cube stack (6-5-4-3-2-1), permits on a row: the tallest board there is.

    Row A's stack stands on lot 2: lot 1 is white dirt, which holds a single cube."""
    b = EstatesBuilder(players, seed=3)
    for r, (name, colour) in enumerate(zip("ABC", ("blue", "red", "green"), strict=True)):
        lots = [(["gray1"], 0)] if name == "A" else []
        b.row(name, *lots, ([f"{colour}{n}" for n in (6, 5, 4, 3, 2, 1)], 0), owner=r % players)
    return b.permits("B", 1, 2, -3)


def _tall_state(players: int = 5) -> EstatesState:
    return _tall(players).build()


def test_the_tallest_board_stays_within_1_6_to_1() -> None:
    state = _tall_state()
    view = RULES.view(state, None)
    geo = estates.layout(view)
    assert geo.cube_h < estates.CUBE_HEIGHTS[0], "three tall rows flatten the cubes a little"
    width, height = _check_png(render(view, NAMES, EN))
    assert height / width <= estates.MAX_ASPECT == 1.6
    # An ordinary board keeps full-height cubes.
    assert estates.layout(RULES.view(RULES.setup(5, {}, 3), None)).cube_h == estates.CUBE_HEIGHTS[0]


def test_cube_labels_read_number_then_letters() -> None:
    assert estates.cube_label(3, "Gn") == "3 Gn"
    assert data.COLOUR_MARKS == ("Bl", "Re", "Ye", "Gn", "Pu", "Gy")


# --- the last move ---------------------------------------------------------------------------


def _lit(image: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, int, int]) -> int:
    x0, y0, x1, y1 = box
    crop = image.crop((max(0, x0), max(0, y0), min(image.width, x1 + 1), min(image.height, y1 + 1)))
    return sum(count for count, pixel in crop.getcolors(1 << 20) or [] if pixel == colour)


def _lit_outside(
    image: Image.Image, boxes: list[tuple[int, int, int, int]], colour: tuple[int, int, int]
) -> int:
    total = _lit(image, (0, 0, image.width - 1, image.height - 1), colour)
    return total - sum(_lit(image, box, colour) for box in boxes)


def _marker(view: dict[str, Any]) -> tuple[int, int, int, int]:
    """The little magenta square beside "Last move:" in the turn panel (choose phase only)."""
    top = estates.HEADER_H
    return (0, top + 45, 30, top + 70)


def _every_view(players: int, seed: int) -> Iterator[dict[str, Any]]:
    """The public view after every single action of one random game."""
    run = random_playthrough(RULES, players, seed, check=False)
    state = RULES.setup(players, {}, seed)
    for seat, action in run.log:
        RULES.apply(state, seat, action)
        yield RULES.view(state, None)


def test_the_last_move_is_framed_where_it_happened() -> None:
    """After every action of two games (which between them make every kind of move)."""
    seen: set[str] = set()
    for game in ((2, 11), (5, 14)):
        for view in _every_view(*game):
            last = view["last"]
            geo = estates.layout(view)
            box = estates.last_box(view, geo)
            image = _open(render(view, NAMES, EN))
            if last is None:
                assert (
                    box is None and _lit(image, (0, 0, image.width - 1, image.height - 1), estates.LAST) == 0
                )
                continue
            assert box is not None, last
            seen.add(last["kind"])
            x0, y0, x1, y1 = box
            border = 2 * ((x1 - x0 + 1) + (y1 - y0 + 1)) * estates.FRAME - 4 * estates.FRAME**2
            assert _lit(image, box, estates.LAST) >= border * 0.9, f"no frame for {last}"
            assert _lit_outside(image, [box, _marker(view)], estates.LAST) == 0, f"stray magenta for {last}"
            if last["kind"] in ("built", "roofed"):
                r = "ABC".index(last["row"])
                lx0, ly0, lx1, ly1 = estates.lot_box(geo, r, last["lot"])
                assert x0 < lx0 and y0 < ly0 and x1 > lx1 and y1 > ly1, "the frame is around the very lot"
            if last["kind"] in ("bid", "passed", "picked", "sold", "bought", "taken_free"):
                assert y1 < geo.board_top, "an auction step is framed in the turn panel"
    assert seen == set(LAST_KINDS)


def test_a_stow_does_not_move_the_frame_and_a_new_round_clears_it() -> None:
    state = RULES.setup(3, {"rounds": 2}, 8)
    seat = state.auctioneer
    RULES.apply(state, seat, Action("pick", ("mayor",)))
    for _ in range(2):
        assert state.bidder is not None
        RULES.apply(state, state.bidder, Action("pass"))
    RULES.apply(state, seat, Action("mayor", ("B",)))
    before = render(RULES.view(state, None), NAMES[:3], EN)
    RULES.apply(state, state.auctioneer, Action("stow"))
    assert render(RULES.view(state, None), NAMES[:3], EN) == before
    view = RULES.view(state, None)
    box = estates.last_box(view, estates.layout(view))
    top = estates.layout(view).row_tops[1]
    assert box is not None and box[1] == top, "the Mayor's row is framed on Main Street"
    fresh = {**view, "last": None}
    assert estates.last_box(fresh, estates.layout(fresh)) is None


# --- the end: the image's totals are the standings' --------------------------------------------


@cache
def _finished_state(players: int, seed: int, rounds: int) -> EstatesState:
    run = random_playthrough(RULES, players, seed, options={"rounds": rounds}, check=False)
    assert run.finished
    state: EstatesState = run.state
    return state


@pytest.mark.parametrize(("players", "seed", "rounds"), [(2, 41, 1), (3, 42, 1), (5, 43, 1), (4, 44, 3)])
def test_final_image_totals_equal_the_outcome(players: int, seed: int, rounds: int) -> None:
    state = _finished_state(players, seed, rounds)
    outcome = RULES.outcome(state)
    assert outcome is not None
    view = RULES.view(state, None)
    columns, figures = estates.table_scores(view, EN)
    assert columns == ("Buildings", "Cash box", "Total")
    assert estates.table_scores(view, FR)[0] == ("Immeubles", "Coffre", "Total")
    assert [f[-1] for f in figures] == list(outcome.scores)
    for seat, (buildings, cash, total) in enumerate(figures):
        assert buildings + cash == total
        assert buildings == outcome.breakdown[seat]["buildings"]
        assert cash == outcome.breakdown[seat]["cash_box"] * data.CASH_BOX_POINTS
    # The figures are what is written on the image, in the players' table.
    estates.clear_caches()
    with kit.recording_texts() as seen:
        render(view, NAMES[:players], EN)
    written = [(t.text, (t.box[1] + t.box[3]) / 2) for t in seen.pictures[-1].texts]
    geo = estates.layout(view)
    for seat, total in enumerate(outcome.scores):
        _x0, y0, _x1, y1 = estates.seat_box(geo, seat)
        in_row = [text for text, y in written if y0 <= y <= y1]
        assert estates._signed(total, EN) in in_row, (seat, in_row)
    winners = [NAMES[s] for s in outcome.winners()]
    assert any(all(w[:10] in text for w in winners) for text, _y in written if text.startswith("Winner")), (
        written
    )


# --- hidden money ------------------------------------------------------------------------


def _scramble_hidden(state: EstatesState, rng: random.Random) -> None:
    """Change everything that is nobody else's business: money in hand and cash boxes."""
    state.money = [rng.randrange(0, 80) for _ in state.money]
    state.cash_box = [rng.randrange(0, 20) for _ in state.cash_box]


@pytest.mark.parametrize(("players", "seed", "rounds"), [(2, 21, 1), (5, 22, 1), (4, 23, 2)])
def test_hidden_money_never_changes_the_image(players: int, seed: int, rounds: int) -> None:
    rng = random.Random(seed)
    names = NAMES[:players]
    for step, state in _snapshots(players, seed, rounds):
        if step % 40 or state.phase == "over":
            continue
        image = render(RULES.view(state, None), names, EN)
        changed = RULES.load(RULES.dump(state))  # a copy: the game goes on from ``state``
        _scramble_hidden(changed, rng)
        assert (changed.money, changed.cash_box) != (state.money, state.cash_box)
        assert render(RULES.view(changed, None), names, EN) == image, f"money shows after {step} actions"
        # A seat's own view adds its money; the board renderer must not look at it either.
        seat = (step // 40) % players
        assert render(RULES.view(changed, seat), names, EN) == image


PRIVATE_KEYS = {"you", "money", "cash_box", "stowed_this_turn", "round_scores", "checks", "round_results"}


def test_the_board_code_reads_no_private_key() -> None:
    """No string in the board's code names a private field of a seat view.

    Only the private zoom (``render_holdings`` and the ``_holdings*``/``draw_holdings`` helpers,
    sent to one seat as an ephemeral attachment) reads a seat view's ``you``.
    """
    tree = ast.parse(Path(estates.__file__).read_text(encoding="utf-8"))
    private_zoom = {"render_holdings", "draw_holdings"}
    board = [
        node
        for node in tree.body
        if not (
            isinstance(node, ast.FunctionDef)
            and (node.name in private_zoom or node.name.startswith("_holdings"))
        )
    ]
    used: set[str] = set()
    for top in board:
        for node in ast.walk(top):
            if isinstance(node, ast.Constant) and isinstance(node.value, str):
                used.add(node.value)
            if isinstance(node, ast.Attribute):
                used.add(node.attr)
    assert not used & PRIVATE_KEYS
    zoom = "\n".join(ast.unparse(n) for n in tree.body if n not in board)
    assert '"you"' in zoom or "'you'" in zoom, "the zoom is where the seat's own figures are read"


# --- determinism and names ----------------------------------------------------------------------


def test_same_view_same_bytes() -> None:
    views = _game_views(5, 14, 1)
    for view in views[:: max(1, len(views) // 5)]:
        assert render(view, NAMES, EN) == render(copy.deepcopy(view), list(NAMES), EN)
    estates.clear_caches()
    assert render(views[3], NAMES, EN) == render(views[3], NAMES, EN), "cold caches draw the same image"


def test_names_change_the_image_and_any_name_fits() -> None:
    view = _game_views(5, 14, 1)[len(_game_views(5, 14, 1)) // 2]
    plain = render(view, NAMES, EN)
    odd = ["", "   ", "W" * 200, "Zoë Ångström-Łukasz", "名前"]
    assert kit.player_names(odd, 5, EN) == [
        "Player 1",
        "Player 2",
        "W" * 200,
        "Zoë Ångström-Łukasz",
        "Player 5",
    ]
    assert render(view, odd, EN) != plain
    _check_png(render(view, odd, EN))
    _check_png(render(view, NAMES[:2], EN))  # too few names: the missing seats are numbered


# --- whose turn ---------------------------------------------------------------------------------


def _marked_seats(png: bytes, view: dict[str, Any]) -> set[int]:
    """Seats whose line in the players' table carries the "we wait for you" arrow.

    The arrow is the only thing drawn in the HIGHLIGHT colour in the left margin of the table.
    """
    image = _open(png)
    geo = estates.layout(view)
    marked: set[int] = set()
    for seat in range(int(view["players"])):
        _x0, top, _x1, bottom = estates.seat_box(geo, seat)
        if _lit(image, (estates.MARGIN, top, estates.MARGIN + 12, bottom), estates.HIGHLIGHT) > 20:
            marked.add(seat)
    return marked


def test_the_arrow_marks_the_seat_we_wait_for_not_the_auctioneer() -> None:
    """The players' table points at whoever must act now, which in an auction is the bidder.

    Walks one auction where the seat on turn differs from the auctioneer (bidding, and
    placing a piece the auctioneer sold) and where they coincide (the auctioneer's
    sell-or-buy decision); at every step the marked seat is exactly ``waiting_for``.
    """
    names = NAMES[:3]
    state = EstatesBuilder(3, seed=7).first(0).build()
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
        assert _marked_seats(render(view, names, EN), view) == {waiting}, view["phase"]
        seen.append((view["phase"], waiting))
    assert seen == [("bid", 1), ("bid", 2), ("decide", 0), ("place", 1)]
    # The arrow follows ``waiting_for`` alone: the same view waiting on another seat moves it.
    view = RULES.view(state, None)
    assert _marked_seats(render({**view, "waiting_for": [2]}, names, EN), view) == {2}


# --- the private zoom ------------------------------------------------------------------------------


def test_the_holdings_zoom_shows_only_the_seats_own_figures() -> None:
    b = _tall(players=3).money([7, 9, 15], [1, 0, 4])
    state = b.build()
    for seat in range(3):
        png = render_holdings(RULES.view(state, seat), NAMES, seat, EN)
        width, _height = _open_size(png)
        assert width == estates.WIDTH and len(png) <= MAX_PNG
    # The zoom follows the seat's own money (it is private), and only its own.
    mine = render_holdings(RULES.view(state, 0), NAMES, 0, EN)
    b.pay(2, 1, 11).build()  # the rivals' money changes ...
    assert render_holdings(RULES.view(state, 0), NAMES, 0, EN) == mine
    b.pay(1, 0, 1).build()  # ... then the seat's own: $8 million
    assert render_holdings(RULES.view(state, 0), NAMES, 0, EN) != mine
    # A seat with nothing yet, and a finished match, draw too.
    fresh = RULES.setup(2, {}, 1)
    _open_size(render_holdings(RULES.view(fresh, 1), NAMES, 1, EN))
    over = _finished_state(4, 44, 3)
    _open_size(render_holdings(RULES.view(over, 2), NAMES, 2, EN))


# --- the table's language -------------------------------------------------------------------------


def _every_phase(players: int, seed: int, rounds: int = 1) -> list[dict[str, Any]]:
    """One public view of each phase of a random game (the first seen), its end, and a placement's
    aftermath (the choose phase right after a placement, which tells the last move in words)."""
    views: dict[str, dict[str, Any]] = {}
    run = random_playthrough(RULES, players, seed, options={"rounds": rounds}, check=False)
    state = RULES.setup(players, {"rounds": rounds}, seed)
    for seat, action in run.log:
        RULES.apply(state, seat, action)
        view = RULES.view(state, None)
        key = str(view["phase"])
        if key == "choose" and view["last"] is not None:
            key = "choose after " + str(view["last"]["kind"])
        if key == "place" and view["auction"]:
            key = "place " + str(view["auction"]["kind"])
        views.setdefault(key, copy.deepcopy(view))
    views["over"] = RULES.view(state, None)
    return list(views.values())


PLAIN = ("Ann", "Bruno", "Chen", "Dolores", "Zoé")
"""Names with no word of either language in them, so every word drawn is the image's own."""


def _draw_all(language_words: Any) -> None:
    """Boards at every phase (3 and 5 players, one match of rounds) and holdings zooms."""
    for players, seed, rounds in ((3, 12, 1), (5, 14, 1), (4, 44, 3)):
        for view in _every_phase(players, seed, rounds):
            render(view, PLAIN[:players], language_words)
    for seat in range(3):
        render_holdings(RULES.view(_tall_state(players=3), seat), PLAIN, seat, language_words)
    render_holdings(RULES.view(RULES.setup(2, {}, 1), 0), PLAIN, 0, language_words)
    over = _finished_state(4, 44, 3)
    render_holdings(RULES.view(over, 2), PLAIN, 2, language_words)


ENGLISH_WORDS = (
    "Game over", "Winner", "Winners", "with", "Final scores", "chooses", "On offer",
    "auctions", "sell to", "or buy", "kept for", "bought for", "pass", "bid", "to bid", "waits", "Main St",
    "river", "need", "complete", "built", "Floor cubes", "on offer", "empty", "Supply", "Rooftops left",
    "Permits", "none", "in auction", "in supply", "gone", "Mayor", "Cancel", "Free", "Certificates",
    "all taken", "Buildings", "Cash box", "Row", "Players", "auctioneer", "1st", "2nd", "3rd", "4th",
    "round", "Round", "Turn", "turn", "Last move", "framed cube", "rooftop", "permit", "the", "or", "and",
    "can be picked", "Magenta frame", "Hatched", "Dark cap", "floor cube", "My holdings", "private",
    "In hand", "million", "My certificates", "None yet", "colours", "this round", "if the round ended",
    "blue", "red", "yellow", "green", "purple", "gray", "fresh board", "nothing",
)  # fmt: skip
"""Every English word the board and the holdings image used to print, but those French writes
the same way ("point", "place", "Total", "Orange"); the "W" of white-dirt lots is checked apart."""

FRENCH_WORDS = (
    "Partie terminée", "Gagnant", "Scores finaux", "choisit une pièce à mettre aux enchères", "Au choix",
    "met aux enchères", "vendre à", "ou acheter", "passe", "offre", "enchérit, min.", "Rue princ.",
    "avant la rivière", "après la rivière", "requis", "complète", "Cubes d'étage à l'étal", "Réserve",
    "Toits restants", "Permis", "Maire", "Cube Annulation", "Libres", "Joueurs", "Certificats",
    "Points si la manche s'arrêtait là", "Rangée A", "Immeubles", "Coffre", "mène les enchères",
    "1re place", "Manche", "tour", "Dernier coup", "Cadre magenta", "terre blanche", "Mes avoirs",
    "En main", "M$", "Mes certificats", "Aucun pour l'instant", "coiffés de mes couleurs", "bleu", "vert",
    "victoire", "0 point", "TB",
)  # fmt: skip
"""French words each of which some French image draws."""


def _words_in(texts: list[str], phrase: str) -> bool:
    pattern = re.compile(r"(?<![\w$])" + re.escape(phrase) + r"(?![\w$])")
    return any(pattern.search(text) for text in texts)


def test_a_french_table_reads_french_and_no_english_is_left(drawn: list[str]) -> None:
    _draw_all(FR)
    missing = [phrase for phrase in FRENCH_WORDS if not _words_in(drawn, phrase)]
    assert missing == [], f"French words never drawn: {missing}"
    left = [phrase for phrase in ENGLISH_WORDS if _words_in(drawn, phrase)]
    assert left == [], f"English left on a French image: {left}"
    assert not any(re.search(r"\d W\b", text) for text in drawn), "white-dirt lots are lettered TB"


def test_the_english_table_draws_the_old_words(drawn: list[str]) -> None:
    """The same walk in English draws the English words (the check above is not vacuous)."""
    _draw_all(EN)
    found = [phrase for phrase in ENGLISH_WORDS if _words_in(drawn, phrase)]
    assert len(found) >= len(ENGLISH_WORDS) - 6, sorted(set(ENGLISH_WORDS) - set(found))
    assert not any(_words_in(drawn, phrase) for phrase in ("Partie terminée", "Réserve", "Mes avoirs"))


def test_languages_never_share_a_cached_picture() -> None:
    """English, French, English again: the English bytes do not change, the French differ, and a
    fresh ``Words`` per render (as the host hands them) draws the same picture."""
    view = _game_views(5, 14, 1)[5]
    english = render(view, NAMES, EN)
    french = render(view, NAMES, FR)
    assert french != english
    assert render(view, NAMES, EN) == english
    assert render(view, NAMES, words("fr")) == french
    assert render_holdings(RULES.view(_tall_state(3), 0), NAMES, 0, FR) != render_holdings(
        RULES.view(_tall_state(3), 0), NAMES, 0, EN
    )


def test_numbers_are_the_languages_and_plurals_the_catalogs() -> None:
    assert estates._signed(1500, FR) == "+1\u202f500"
    assert estates._signed(-1500, EN) == "-1,500"
    assert estates._signed(0, FR) == "0"
    assert FR.count("estates.image.board.built", 0) == "0 bâti"
    assert FR.count("estates.image.board.built", 2) == "2 bâtis"
    assert EN.count("estates.image.board.built", 1) == "1 built"


def test_french_text_keeps_the_phone_floor_and_fits(monkeypatch: pytest.MonkeyPatch) -> None:
    """French runs longer: every board still has no font under 9 px on a phone and keeps its shape."""
    sizes = _record_fonts(monkeypatch)
    for players, seed, rounds in ((3, 12, 1), (5, 14, 1), (4, 44, 3)):
        for view in _every_phase(players, seed, rounds):
            width, _height = _check_png(render(view, NAMES[:players], FR))
            assert min(sizes) * PHONE / width >= 9
    _check_png(render(RULES.view(_tall_state(), None), NAMES, FR))
