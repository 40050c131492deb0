"""The California board image: valid, bounded, deterministic, readable on a phone, drawn from the public view only."""

from __future__ import annotations

import ast
import copy
import io
import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderers.california as california
from bot.core.i18n import words
from renderers import kit
from rules.california import RULES
from rules.play import random_playthrough
from tests.helpers import clear_render_caches

EN = words("en")
"""The boards as an English table sees them."""
FR = words("fr")
"""The boards as a French table sees them."""

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 300_000
PHONE_WIDTH = 400
"""Discord shows a picture about this wide on a phone (design.md)."""
SMALLEST_ON_PHONE = 9
"""No text may look smaller than this many pixels at phone width."""
MAX_TALL = 1.6
NAMES = ["Alice", "Bartholomew Featherstonehaugh the Third", "Zoë Ørsted 中文", "🎲🎲", ""]
EVERY = 10


def views_through_game(players: int, seed: int) -> list[tuple[int, dict[str, Any]]]:
    """The public view at the start, every ``EVERY`` moves, and at the end of a random game."""
    run = random_playthrough(RULES, players, seed, check=False)
    assert run.finished and not run.failures
    state = RULES.setup(players, {}, seed)
    views = [(0, RULES.view(state, None))]
    for moves, (seat, action) in enumerate(run.log, start=1):
        RULES.apply(state, seat, action)
        if moves % EVERY == 0 or moves == len(run.log):
            views.append((moves, RULES.view(state, None)))
    assert views[-1][1]["over"]
    return views


def check_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) < MAX_BYTES
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.width == california.W == 600
    assert 400 <= image.height <= MAX_TALL * image.width
    return image


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", [11, 2024])
def test_every_stage_of_a_game_renders(players: int, seed: int) -> None:
    sizes = set()
    for _moves, view in views_through_game(players, seed):
        image = check_png(california.render(view, NAMES[:players], EN))
        sizes.add(image.size)
    assert len(sizes) == 1, "the layout depends on the player count only"


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_proportions_stay_phone_friendly(players: int) -> None:
    view = RULES.view(RULES.setup(players, {}, 1), None)
    image = check_png(california.render(view, NAMES[:players], EN))
    assert image.height / image.width <= MAX_TALL


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_no_text_is_too_small_on_a_phone(players: int) -> None:
    """Each board, "downsized" to phone width: its smallest font must still be 9 px tall there."""
    for moves, view in (views := views_through_game(players, 2024))[::4] + views[-1:]:
        california.clear_caches()  # a cached sprite would hide the sizes it was drawn with
        with kit.recording_font_sizes() as sizes:
            image = check_png(california.render(view, NAMES[:players], EN))
        assert sizes, "the renderer asks the kit for its fonts"
        assert min(sizes) * PHONE_WIDTH / image.width >= SMALLEST_ON_PHONE, (players, moves, sorted(sizes))
        seat = moves % players
        california.clear_caches()
        with kit.recording_font_sizes() as sizes:
            zoom = Image.open(io.BytesIO(california.render_mansion(view, NAMES[:players], seat, EN)))
        assert min(sizes) * PHONE_WIDTH / zoom.width >= SMALLEST_ON_PHONE, (players, moves, sorted(sizes))


def test_deterministic_and_independent_of_cache() -> None:
    run = random_playthrough(RULES, 5, 7, stop_after=60, check=False)
    view = RULES.view(run.state, None)
    first = california.render(view, NAMES, EN)
    zoom = california.render_mansion(view, NAMES, 2, EN)
    assert california.render(view, NAMES, EN) == first
    california.clear_caches()
    assert california.render(view, NAMES, EN) == first
    assert california.render_mansion(view, NAMES, 2, EN) == zoom


def test_does_not_mutate_the_view_or_names() -> None:
    run = random_playthrough(RULES, 4, 3, stop_after=45, check=False)
    view = RULES.view(run.state, None)
    before = copy.deepcopy(view)
    names = list(NAMES[:4])
    california.render(view, names, EN)
    assert view == before
    assert names == NAMES[:4]


def test_json_round_trip_of_the_public_view_renders_the_same_bytes() -> None:
    run = random_playthrough(RULES, 3, 5, stop_after=50, check=False)
    view = RULES.view(run.state, None)
    assert view["you"] is None
    wire = json.loads(json.dumps(view))
    assert california.render(wire, NAMES[:3], EN) == california.render(view, NAMES[:3], EN)


def test_hidden_information_cannot_reach_the_image() -> None:
    """Only sizes of the draw stack and the bag are public; their order never changes the image."""
    run = random_playthrough(RULES, 2, 9, stop_after=30, check=False)
    state = run.state
    before = california.render(RULES.view(state, None), NAMES[:2], EN)
    state.stack.reverse()
    state.bag.reverse()
    assert california.render(RULES.view(state, None), NAMES[:2], EN) == before


def test_renderer_reads_nothing_but_its_arguments() -> None:
    """The module imports no game engine or state: Pillow, the drawing kit and the standard library only."""
    source = Path(california.__file__).read_text(encoding="utf-8")
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.add("." * node.level + (node.module or ""))
    assert imported <= {
        "__future__",
        "unicodedata",
        "collections.abc",
        "functools",
        "typing",
        "PIL",
        ".",
        ".kit",
    }
    assert "truetype(" not in source and ".ttf" not in source, "fonts come from renderers.kit only"


def test_turn_and_names_change_the_image() -> None:
    view = RULES.view(RULES.setup(3, {}, 4), None)
    base = california.render(view, ["Ann", "Bob", "Cy"], EN)
    other_turn = dict(view, turn=(view["turn"] + 1) % 3, waiting_for=[(view["turn"] + 1) % 3])
    assert california.render(other_turn, ["Ann", "Bob", "Cy"], EN) != base
    assert california.render(view, ["Ann", "Bob", "Dee"], EN) != base


def test_awkward_names() -> None:
    view = RULES.view(RULES.setup(5, {}, 8), None)
    check_png(california.render(view, ["x" * 300, " ", "\n\t", "Ünïcödé 😀 名前", "a\u0301\u0301"], EN))
    check_png(california.render(view, ["only one name"], EN))
    assert kit.player_names(["Zoë", "x", "🎲"], 3, EN) == ["Zoë", "x", "Player 3"]


def test_fast_enough_for_a_five_player_table() -> None:
    """A loose guard (the benchmark holds the real goal of a 60 ms median)."""
    run = random_playthrough(RULES, 5, 1, stop_after=60, check=False)
    view = RULES.view(run.state, None)
    california.render(view, NAMES, EN)
    times = []
    for _ in range(5):
        start = time.perf_counter()
        california.render(view, NAMES, EN)
        times.append(time.perf_counter() - start)
    assert sorted(times)[2] < 0.25


# --- the last move, the grid labels, the private zoom --------------------------------------------


def last_moves(players: int, seed: int) -> dict[tuple[str, str], dict[str, Any]]:
    """The public view just after the first move of each kind (and, for purchases, target kind)."""
    run = random_playthrough(RULES, players, seed, check=False)
    state = RULES.setup(players, {}, seed)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for seat, action in run.log:
        RULES.apply(state, seat, action)
        last = state.last
        assert last is not None
        if last.get("day_ended"):
            continue
        target = last.get("target")
        key = (str(last["action"]), "space" if isinstance(target, int) else str(target))
        found.setdefault(key, RULES.view(state, None))
    return found


def highlighted(image: Image.Image, box: california.Box) -> int:
    """Pixels of the last-move magenta in a band just around ``box``."""
    x0, y0, x1, y1 = box
    region = image.convert("RGB").crop((x0 - 4, y0 - 4, x1 + 5, y1 + 5))
    return sum(1 for pixel in region.get_flattened_data() if pixel == california.HIGHLIGHT)


def board(view: dict[str, Any], players: int) -> Image.Image:
    return Image.open(io.BytesIO(california.render(view, NAMES[:players], EN)))


@pytest.mark.parametrize("players", [2, 4])
def test_the_last_move_is_outlined_where_it_changed_the_table(players: int) -> None:
    moves = last_moves(players, 6)
    assert {("coin", "None"), ("buy", "space"), ("loan", "None")} <= set(moves), sorted(moves)
    for (action, target), view in moves.items():
        last = view["last"]
        x, y = california.panel_origin(last["seat"])
        if action == "coin":
            cx, cy = california.bank_coin_centre(last["coin"])
            r = california.BANK_COIN_R
            boxes = [(cx - r, cy - r, cx + r, cy + r)]
        elif action in ("loan", "repay"):
            boxes = [california.loan_box(x, y)]
        else:
            boxes = [california.slot_box(last["store"], last["slot"])]
            if target == "space":
                boxes.append(california.cell_box(x, y, last["target"]))
            elif target == "expansion":
                boxes.append(california.attic_box(x, y, 1))
            if last["loan"]:
                boxes.append(california.loan_box(x, y))
        shown, plain = board(view, players), board({**view, "last": None}, players)
        for box in boxes:
            assert highlighted(shown, box) > 4 * (box[2] - box[0]), (action, target, box)
            assert highlighted(plain, box) == 0, (action, target, box)


def test_the_last_move_is_written_out() -> None:
    names = ["Ana", "Bob", "Cy"]
    view: dict[str, Any] = {"last": {"seat": 1, "action": "coin", "coin": 2, "day_ended": False}}
    assert california.last_move_text(view, names, EN) == "Last: Bob took a gold coin."
    assert california.last_move_text(view, names, FR) == "Dernier coup : Bob a pris une monnaie d'or."
    view["last"] = {
        "seat": 0, "action": "buy", "store": 0, "slot": 1, "target": 5, "tile": 3, "cost": 6,
        "loan": True, "day_ended": True, "kind": "room", "colour": "red",
    }  # fmt: skip
    assert (
        california.last_move_text(view, names, EN)
        == "Last: Ana bought a Rd room on B2 (6 silver, on a loan); day over."
    )
    assert (
        california.last_move_text(view, names, FR)
        == "Dernier coup : Ana a acheté une pièce Ro en B2 (6 argent, à crédit) ; journée finie."
    )
    view["last"] = {**view["last"], "kind": "furniture", "target": "attic", "loan": False, "day_ended": False}
    assert (
        california.last_move_text(view, names, EN)
        == "Last: Ana bought a grand piano [Rd] into the attic (6 silver)."
    )
    view["last"] = {**view["last"], "colour": "gray"}
    assert (
        california.last_move_text(view, names, FR)
        == "Dernier coup : Ana a acheté une moto [Gr] pour le grenier (6 argent)."
    )
    over = {**view, "over": True, "last": {**view["last"], "day_ended": True}}
    assert (
        california.last_move_text(over, names, EN)
        == "Last: Ana bought a motorcycle [Gy] into the attic (6 silver)."
    )
    assert california.last_move_text(over, names, EN, prefix=False).startswith("Ana bought")
    assert california.last_move_text({"last": None}, names, EN) == "No move yet."
    assert california.last_move_text({"last": None}, names, FR) == "Aucun coup joué pour l'instant."


def test_every_mansion_grid_is_labelled_like_the_buttons(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rows A-D and columns 1-4 are drawn beside every grid; a space's label is row letter + column."""
    drawn: list[str] = []
    real = kit.label

    def spy(draw: Any, xy: Any, value: str, *args: Any, **kwargs: Any) -> None:
        drawn.append(value)
        real(draw, xy, value, *args, **kwargs)

    monkeypatch.setattr(kit, "label", spy)
    california.clear_caches()
    view = RULES.view(RULES.setup(5, {}, 3), None)
    california.render(view, NAMES, EN)
    for label in "ABCD":
        assert drawn.count(label) == 5, label
    for label in "1234":
        assert drawn.count(label) >= 5, label
    assert [california.space_label(s) for s in (0, 3, 5, 12, 15)] == ["A1", "A4", "B2", "D1", "D4"]
    california.clear_caches()


@pytest.mark.parametrize("players", [2, 5])
def test_my_mansion_is_a_full_size_picture_of_one_seat(players: int) -> None:
    run = random_playthrough(RULES, players, 4, stop_after=50, check=False)
    view = RULES.view(run.state, 0)
    pictures = [california.render_mansion(view, NAMES[:players], seat, EN) for seat in range(players)]
    assert len(set(pictures)) == players, "each seat sees its own mansion"
    for data in pictures:
        assert data.startswith(PNG_SIGNATURE) and len(data) < MAX_BYTES
        image = Image.open(io.BytesIO(data))
        assert image.width == california.W and image.height <= MAX_TALL * image.width
    with pytest.raises(ValueError):
        california.render_mansion(view, NAMES[:players], players, EN)


# --- the table's language ---------------------------------------------------------------------------

SHORT = ["Ana", "Bob", "Cy", "Dee", "Eve"]
"""Names short enough that nothing drawn is ever cut: an ellipsis would be a word that did not fit."""

ENGLISH = {
    "STORE", "BANK", "CARDS", "KEY", "LOAN", "ATTIC", "TO", "PLAY", "WINNER", "GAME", "OVER", "LAST",
    "DAY", "Last", "No", "took", "bought", "repaid", "into", "on", "left", "sold", "price", "game",
    "over", "Stack", "Bag", "Gifts", "Loans", "silver", "gold", "Free", "guests", "guest", "gift",
    "gifts", "no", "loan", "cards", "card", "attic", "room", "furnished", "fee", "printed", "closed",
    "empty", "space", "spaces", "repay", "mansion", "your", "turn", "wins", "tie", "nobody", "light",
    "brown", "red", "purple", "gray", "blue", "green", "billiard", "music", "conservatory", "table",
    "pinball", "machine", "motorcycle", "swimming", "dog", "colour", "furniture", "Rd", "Pu", "Gy",
    "Gn", "G",
}  # fmt: skip
"""Words of the English pictures that a French picture must not draw (the French rulebook's
"bonus", "grand piano", "pool house", "code" and the "pts" abbreviation are French too)."""

FRENCH = {
    "MAGASIN", "BANQUE", "CARTES", "LÉGENDE", "PRÊT", "GRENIER", "À", "JOUER", "GAGNANT", "FIN",
    "PARTIE", "DERNIÈRE", "JOURNÉE", "Dernier", "coup", "Pioche", "Sac", "Cadeaux", "Prêts", "argent",
    "or", "Voisins", "libres", "voisins", "cadeau", "cadeaux", "grenier", "meublée", "supplément", "prix",
    "vendu", "brun", "rouge", "mauve", "gris", "bleu", "pâle", "vert", "billard", "flipper", "moto",
    "piscine", "chien", "pièce", "imprimée", "fermé", "case", "cases", "Manoir", "restantes", "Ro",
    "Ma", "Gr", "Ve", "gagne", "emprunt",
}  # fmt: skip
"""French words the pictures of a whole French game draw somewhere (board and "My mansion")."""


@pytest.fixture
def drawn_words(drawn: list[str]) -> Callable[[Callable[[], object]], list[str]]:
    """``drawn_words(draw)``: every string handed to Pillow while ``draw()`` runs, from scratch.

    Built on the shared ``drawn`` record (``tests/conftest.py``) for a test that draws more than once
    (French, then English): before each drawing the record is emptied and every renderer's caches
    are forgotten, so no cached layer, sprite or glyph mask hides a word an earlier drawing drew."""

    def during(draw: Callable[[], object]) -> list[str]:
        clear_render_caches()
        drawn.clear()
        draw()
        return list(drawn)

    return during


def every_picture(language: kit.Words, players: int) -> None:
    """The board and every seat's "My mansion" at each stage of a seeded game (a last day too), in
    one language."""
    views = [view for _moves, view in views_through_game(players, 2024)]
    for view in [*views[::3], {**views[1], "ending": "bonus"}, views[-1]]:
        california.render(view, SHORT[:players], language)
        for seat in range(players):
            california.render_mansion(view, SHORT[:players], seat, language)


def words_of(strings: list[str]) -> set[str]:
    return {word for string in strings for word in re.findall(r"[^\W\d_]+", string)}


@pytest.mark.parametrize("players", [2, 5])
def test_a_french_table_sees_french_pictures(
    drawn_words: Callable[[Callable[[], object]], list[str]], players: int
) -> None:
    """Every word a French table's board and mansions draw is the French catalog's: no English word
    of the English pictures is left, and nothing is cut short to fit."""
    french = drawn_words(lambda: every_picture(FR, players))
    found = words_of(french)
    assert not found & ENGLISH, sorted(found & ENGLISH)
    assert found >= FRENCH, sorted(FRENCH - found)
    assert not [s for s in french if s.endswith("...")], "a French word did not fit"
    english = drawn_words(lambda: every_picture(EN, players))
    assert not words_of(english) & (FRENCH - {"or", "Ma", "Gr"}), sorted(words_of(english) & FRENCH)
    assert not [s for s in english if s.endswith("...")], "an English word did not fit"


def test_the_end_of_a_french_game_names_the_winner_and_counts_the_loan(
    drawn_words: Callable[[Callable[[], object]], list[str]],
) -> None:
    view = RULES.view(random_playthrough(RULES, 2, 2024, check=False).state, None)
    assert view["over"]
    board = drawn_words(lambda: california.render(view, SHORT[:2], FR))
    assert FR("california.image.game_over") in board
    assert any(s.endswith(" gagne") or s.startswith("Égalité : ") for s in board), board
    me = view["players"][0]
    me["score"] = {**me["score"], "loan": -2, "total": me["score"]["total"] - 2}
    mansion = drawn_words(lambda: california.render_mansion(view, SHORT[:2], 0, FR))
    score = next(s for s in mansion if s.startswith("Score "))
    assert score.endswith(" − 2 emprunt") and "cadeau" in score and "case" in score, score


def test_languages_never_share_a_cached_picture() -> None:
    view = RULES.view(random_playthrough(RULES, 3, 5, stop_after=40, check=False).state, None)
    california.clear_caches()
    english = california.render(view, SHORT[:3], EN)
    french = california.render(view, SHORT[:3], FR)
    assert french != english
    assert california.render(view, SHORT[:3], EN) == english
    assert california.render(view, SHORT[:3], FR) == french
    assert california.render_mansion(view, SHORT[:3], 1, FR) != california.render_mansion(
        view, SHORT[:3], 1, EN
    )


@pytest.mark.parametrize("players", [2, 5])
def test_no_french_text_is_too_small_on_a_phone(players: int) -> None:
    for _moves, view in views_through_game(players, 11)[::5]:
        california.clear_caches()
        with kit.recording_font_sizes() as sizes:
            image = check_png(california.render(view, NAMES[:players], FR))
            california.render_mansion(view, NAMES[:players], 0, FR)
        assert min(sizes) * PHONE_WIDTH / image.width >= SMALLEST_ON_PHONE, sorted(sizes)


def test_long_names_are_cut_not_the_words_around_them() -> None:
    """A long name gives way in the title bar and the last-move line: the French verb after it stays."""
    view = RULES.view(RULES.setup(2, {}, 4), None)
    long = ["Bartholomew Featherstonehaugh the Third", "Bartholomew Featherstonehaugh the Fourth"]
    turn = view["turn"]
    label = california.fit_name(
        lambda n: FR("california.image.to_play", player=n), long[turn], california.BIG, 230, True
    )
    assert label.startswith("À Bartholomew") and label.endswith("... de jouer"), label
    assert california.width_of(label, california.BIG, True) <= 230
