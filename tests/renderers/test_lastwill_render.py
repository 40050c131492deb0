"""The Last Will table image: valid, bounded, deterministic, readable on a phone, public view only."""

from __future__ import annotations

import ast
import copy
import io
import json
import re
from collections.abc import Callable, Iterator
from functools import cache, partial
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderers.lastwill as lastwill
from bot.core.i18n import shipped, words
from renderers import kit
from renderers.kit import Words
from rules.lastwill import RULES, data
from rules.lastwill.state import LastWillState
from rules.play import random_playthrough
from tests.helpers import text_faults

EN = words("en")
"""The boards as an English table sees them."""
FR = words("fr")
"""The boards as a French table sees them."""
LANGUAGES = {"en": EN, "fr": FR}

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
MAX_BYTES = 300_000
PHONE_WIDTH = 400
SMALLEST_ON_PHONE = 9
NAMES = ["Ann", "Bartholomew Featherstonehaugh the Third", "Zoë Ørsted 中文", "🎲🎲", "Élodie Ñúñez"]
OPTIONS: dict[int, dict[str, object]] = {
    2: {},
    3: {"plans": "original"},
    4: {"employment": "handicap"},
    5: {},
}
"""One random game per player count; the 4-player one starts with the host picking the jobs."""


def _replay(players: int, seed: int) -> Iterator[LastWillState]:
    """The state after every action of a whole random game (the same object, changing)."""
    options = OPTIONS[players]
    run = random_playthrough(RULES, players, seed, options=options, check=False)
    assert run.finished and not run.failures
    state = RULES.setup(players, options, seed)
    yield state
    for seat, action in run.log:
        RULES.apply(state, seat, action)
        yield state


def _stage(view: dict[str, Any]) -> tuple[str, ...]:
    """What makes a view a different picture: its phase, discard reason, pending step, last move."""
    pending = view["pending"] or {}
    last = view["last"] or {}
    return (view["phase"], view["discard_for"], str(pending.get("kind")), str(last.get("kind")))


@cache
def _stages(players: int, seed: int = 3) -> tuple[dict[str, Any], ...]:
    """The first public view of every stage of a game, and a view every 40 actions, and the end."""
    found: dict[tuple[str, ...], dict[str, Any]] = {}
    views: list[dict[str, Any]] = []
    for step, state in enumerate(_replay(players, seed)):
        view = RULES.view(state, None)
        if _stage(view) not in found or step % 40 == 0 or view["phase"] == "over":
            found.setdefault(_stage(view), view)
            views.append(copy.deepcopy(view))
    return tuple(views)


def check_png(data: bytes) -> Image.Image:
    assert data.startswith(PNG_SIGNATURE)
    assert len(data) <= MAX_BYTES
    image = Image.open(io.BytesIO(data))
    image.load()
    assert image.format == "PNG"
    assert image.width == lastwill.W
    return image.convert("RGB")


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_every_phase_of_a_game_renders(players: int, language: str) -> None:
    views = _stages(players)
    phases = {v["phase"] for v in views}
    expected = {"discard", "planning", "drawing", "errands", "actions", "over"} | (
        {"pick"} if players == 4 else set()
    )
    assert expected <= phases
    assert {v["discard_for"] for v in views} >= {"keep", "limit"}
    assert any(v["pending"] for v in views), "a pending choice is drawn too"
    for view in views:
        before = copy.deepcopy(view)
        image = check_png(lastwill.render(view, NAMES[:players], LANGUAGES[language]))
        assert view == before, "the renderer changed the view"
        assert image.height == lastwill.height(view)


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("players", [2, 5])
def test_no_text_is_too_small_on_a_phone(players: int, language: str) -> None:
    """Every font size a render asks for (caches emptied first) reads 9 px at 400 px wide."""
    assert kit.smallest_on_phone(lastwill.FONT_MIN, lastwill.W, PHONE_WIDTH) >= SMALLEST_ON_PHONE
    for view in _stages(players)[::3]:
        lastwill.clear_caches()
        with kit.recording_font_sizes() as sizes:
            image = check_png(lastwill.render(view, NAMES[:players], LANGUAGES[language]))
        assert sizes, "the renderer asks the kit for its fonts"
        assert kit.smallest_on_phone(min(sizes), image.width, PHONE_WIDTH) >= SMALLEST_ON_PHONE, sorted(sizes)


def test_boards_of_up_to_five_cards_stay_within_1_6_to_1() -> None:
    """Five players, each with a full row of cards and every extension: still 1.6 : 1 at most."""
    view = copy.deepcopy(_stages(5)[-1])
    for player in view["players"]:
        player["board"] = [
            _property("X1", 2),
            _helper("GC1"),
            _property("N1", 0),
            _helper("RES5"),
            _property("F9", 0),
        ]
        player["extensions"] = 12
        player["spaces"] = 17
        player["free_spaces"] = 12
    image = check_png(lastwill.render(view, NAMES, EN))
    assert image.height / image.width <= lastwill.MAX_ASPECT


def _property(
    card_id: str, step: int, tokens: tuple[str, ...] = (), maintained: bool = False
) -> dict[str, Any]:
    card = data.CARDS[card_id]
    assert isinstance(card, data.PropertyCard)
    return {
        "id": card_id,
        "kind": "property",
        "type": card.types[0].value,
        "step": step,
        "value": card.track[step],
        "values": list(card.track),
        "upkeep": card.upkeep,
        "tokens": list(tokens),
        "maintained": maintained,
        "expense": None,
        "used": False,
    }


def _helper(card_id: str, used: bool = False) -> dict[str, Any]:
    card = data.CARDS[card_id]
    assert isinstance(card, data.HelperCard)
    return {
        "id": card_id,
        "kind": "helper",
        "type": None,
        "step": None,
        "value": None,
        "values": [],
        "upkeep": None,
        "tokens": [],
        "maintained": False,
        "expense": None if card.expense is None else card.expense.amount,
        "used": used,
    }


def _pictures(draw: Callable[[], object]) -> list[kit.Picture]:
    """Every picture ``draw`` encodes, with where its texts landed, drawn from scratch (no cached
    layer drawn before the recording)."""
    lastwill.clear_caches()
    with kit.recording_texts() as seen:
        draw()
    return seen.pictures


@pytest.mark.parametrize("language", sorted(LANGUAGES))
@pytest.mark.parametrize("players", [2, 5])
def test_long_names_are_fitted_and_no_text_overlaps(players: int, language: str) -> None:
    words = LANGUAGES[language]
    names = ["W" * 300, "Bartholomew Featherstonehaugh the Third of Kent", "", "   ", "M" * 60][:players]
    pictures = _pictures(lambda: [lastwill.render(view, names, words) for view in _stages(players)[::4]])
    for picture in pictures:
        assert picture.texts
        assert text_faults(picture) == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_a_crowded_board_has_no_overlapping_text(language: str) -> None:
    words = LANGUAGES[language]
    view = copy.deepcopy(_stages(5)[-1])
    view["phase"], view["result"] = "actions", None  # mid-game: the job lines say "demoted"
    view["players"][0]["board"] = [
        _property("F9", 0, ("dog", "dog", "dog"), maintained=True),
        _property("T2", 0, maintained=True),
        _property("N2", 3, ("guest",), maintained=True),
        _helper("RES5", used=True),
        _helper("S1-PS", used=True),
    ]
    view["players"][0]["extensions"] = 1
    view["players"][0]["spaces"] = 6
    view["players"][0]["free_spaces"] = 1
    view["players"][1]["sacked"] = True
    view["players"][1]["employment"] = None
    view["players"][2]["bankrupt"] = True
    view["players"][1]["demoted"] = True  # the round the last line was covered: sacked
    view["players"][3]["demoted"] = True
    view["players"][3]["hand_limit"] = 4
    (picture,) = _pictures(lambda: check_png(lastwill.render(view, ["Annabelle"] * 5, words)))
    assert text_faults(picture) == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_the_fixed_layers_fit_and_do_not_overlap(language: str) -> None:
    """The table's labels and the legend, in each language, inside their layers and apart."""
    words = LANGUAGES[language]

    def png(build: Callable[[kit.Words], Image.Image]) -> bytes:
        return kit.png(build(words))

    for build in (lastwill._build_table, lastwill._build_legend):
        (picture,) = _pictures(partial(png, build))
        assert picture.texts
        assert text_faults(picture) == []


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_card_name_fits_an_offering_band_uncut(language: str) -> None:
    words = LANGUAGES[language]
    face = kit.font(lastwill.SMALL, bold=True)
    room = lastwill.TILE_W - 6 - kit.font(lastwill.BODY, bold=True).getlength("X") - 9 - 3
    for card in data.ALL_CARDS:
        assert face.getlength(lastwill.short_name(card.id, words)) + 1 <= room, card.id
        stats = lastwill.card_stats(card.id, words)
        if card.id != "WD2":  # four symbols: its pounds come first and its symbols are cut
            assert lastwill._width(stats, lastwill.SMALL) <= lastwill.TILE_W - 8, (card.id, stats)
    for deck in lastwill.DECKS:  # an empty slot's band names its deck
        assert kit.font(lastwill.SMALL).getlength(lastwill.deck_info(deck, words)[0]) + 1 <= room, deck


@pytest.mark.parametrize("language", sorted(LANGUAGES))
def test_every_name_the_board_draws_is_in_the_catalog(language: str) -> None:
    """Cards, jobs, short forms, symbols and tokens each have their own words in every catalog
    (no English fallback), and the board's card names are the ones the messages use."""
    catalog = shipped()
    keys = {f"lastwill.card.{key}" for key in data.CARD_NAME_KEYS.values()}
    keys |= {f"lastwill.job.{key}" for key in data.JOB_NAME_KEYS.values()}
    keys |= {f"lastwill.image.short.{key}" for key in lastwill.SHORT}
    keys |= {f"lastwill.image.{table}.{s}" for table in ("code", "symbol") for s in lastwill.SYMBOLS}
    keys |= {f"lastwill.image.token.{c}" for c in lastwill.COMPANIONS}
    keys |= {f"lastwill.image.{table}.{t}" for table in ("type", "type_short") for t in lastwill.TYPES}
    keys |= {f"lastwill.image.deck.{d}" for d in lastwill.DECKS}
    keys |= {f"lastwill.image.phase.{p}" for p in lastwill.PHASES}
    keys |= {f"lastwill.image.errand.{e}" for e in lastwill.ERRAND_ORDER}
    missing = sorted(key for key in keys if catalog.own(key, language) is None)
    assert missing == []
    assert set(data.CARD_NAME_KEYS.values()) >= lastwill.SHORT
    words = LANGUAGES[language]
    assert lastwill.card_name("T2", words) == words("lastwill.card.town_house")
    assert words("lastwill.card.town_house") == ("Town House" if language == "en" else "Maison de ville")


def test_deterministic_and_independent_of_cache() -> None:
    view = _stages(5)[len(_stages(5)) // 2]
    first = lastwill.render(view, NAMES, EN)
    assert lastwill.render(copy.deepcopy(view), list(NAMES), EN) == first
    assert lastwill.render(json.loads(json.dumps(view)), NAMES, EN) == first
    lastwill.clear_caches()
    assert lastwill.render(view, NAMES, EN) == first


def test_the_art_layers_are_drawn_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = {"table": 0, "legend": 0}
    build_table, build_legend = lastwill._build_table, lastwill._build_legend

    def table(words: Words) -> Image.Image:
        calls["table"] += 1
        return build_table(words)

    def legend(words: Words) -> Image.Image:
        calls["legend"] += 1
        return build_legend(words)

    monkeypatch.setattr(lastwill, "_build_table", table)
    monkeypatch.setattr(lastwill, "_build_legend", legend)
    lastwill.clear_caches()
    for view in _stages(3)[:4]:
        lastwill.render(view, NAMES[:3], EN)
    assert calls == {"table": 1, "legend": 1}
    monkeypatch.undo()
    lastwill.clear_caches()


def test_the_board_draws_the_public_view_only() -> None:
    """Hands and deck order are hidden: two states that differ only there draw the same bytes."""
    run = random_playthrough(RULES, 4, 9, stop_after=300, check=False)
    state = run.state
    view = RULES.view(state, None)
    assert "you" not in view
    image = lastwill.render(view, NAMES[:4], EN)
    other = RULES.load(RULES.dump(state))
    holder = max(range(4), key=lambda s: len(other.players[s].hand))
    hand = other.players[holder].hand
    deck = next(d for d in other.decks.values() if len(d) >= len(hand))
    swapped = len(hand)
    hand[:], deck[-swapped:] = deck[-swapped:], hand[:]
    for cards in other.decks.values():
        cards.reverse()
    assert other.players[holder].hand != state.players[holder].hand and other.decks != state.decks
    assert lastwill.render(RULES.view(other, None), NAMES[:4], EN) == image
    # A seat's own view adds its hand and its choices, which the board never reads.
    for seat in range(4):
        assert lastwill.render(RULES.view(state, seat), NAMES[:4], EN) == image


def test_the_renderer_reads_only_the_printed_cards() -> None:
    """Pillow, the kit, the standard library and ``rules.lastwill.data``: no engine, no state."""
    source = Path(lastwill.__file__).read_text(encoding="utf-8")
    imported: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            imported.update(f"{node.module}.{alias.name}" for alias in node.names)
    assert imported <= {
        "__future__.annotations",
        "collections.abc.Mapping",
        "collections.abc.Sequence",
        "functools.lru_cache",
        "typing.Any",
        "PIL.Image",
        "PIL.ImageDraw",
        "renderers.kit",
        "renderers.kit.INK",
        "renderers.kit.WHITE",
        "renderers.kit.Colour",
        "rules.lastwill.data",
    }, imported
    assert "truetype(" not in source and ".ttf" not in source, "fonts come from renderers.kit only"


def _magenta(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    x0, y0, x1, y1 = box
    f = lastwill.FRAME
    crop = image.crop(
        (max(0, x0 - f), max(0, y0 - f), min(image.width, x1 + f + 1), min(image.height, y1 + f + 1))
    )
    return sum(count for count, pixel in crop.getcolors(1 << 20) or [] if pixel == lastwill.LAST)


def _last_moves(players: int) -> dict[str, dict[str, Any]]:
    """The first view after each kind of last move (errands split by space), over two games."""
    found: dict[str, dict[str, Any]] = {}
    for seed in (3, 4):
        for state in _replay(players, seed):
            last = state.last
            if last is None:
                continue
            key = str(last["kind"])
            if key == "errand":
                space = str(last["space"])
                key += "." + (
                    "slot" if space.startswith("slot") else "one" if space.startswith("one-") else space
                )
            if key not in found:
                found[key] = copy.deepcopy(RULES.view(state, None))
    return found


def test_the_last_move_is_framed_where_it_changed_the_table() -> None:
    moves = _last_moves(5)
    expected = {"plan_chosen", "errand.slot", "errand.one", "errand.opera", "bought", "laid", "card_played"}
    assert expected <= set(moves), sorted(moves)
    names = kit.player_names(NAMES, 5, EN)
    framed = 0
    for key, view in sorted(moves.items()):
        image = check_png(lastwill.render(view, NAMES, EN))
        text = lastwill.last_move_text(view, names, EN)
        assert text, key
        boxes = lastwill.last_move_boxes(view, NAMES, EN)
        for x0, y0, x1, y1 in boxes:
            assert _magenta(image, (x0, y0, x1, y1)) >= 2 * ((x1 - x0) + (y1 - y0)), key
        if key not in ("keep", "limit", "discards_revealed"):
            assert boxes, f"{key} is framed somewhere"
            framed += 1
    assert framed >= len(expected)
    # Without a last move nothing is magenta but the legend's sample frame and the "Last:" word.
    view = copy.deepcopy(moves["plan_chosen"])
    view["last"] = None
    quiet = check_png(lastwill.render(view, NAMES, EN))
    legend = _magenta(quiet, (0, quiet.height - lastwill.LEGEND_H, lastwill.W, quiet.height))
    assert _magenta(quiet, (0, 0, lastwill.W, quiet.height)) == legend


def test_a_market_swap_frames_both_tokens() -> None:
    view = copy.deepcopy(_stages(3)[10])
    view["last"] = {
        "seat": 1,
        "kind": "market_swapped",
        "types": ["farm", "mansion"],
        "market": view["market"],
    }
    boxes = lastwill.last_move_boxes(view, NAMES[:3], EN)
    assert len(boxes) == 2
    assert "Farm and Mansion" in lastwill.last_move_text(view, NAMES[:3], EN)
    assert "Ferme et Château" in lastwill.last_move_text(view, NAMES[:3], FR)


def test_public_facts_change_the_picture() -> None:
    """Money, a covered line, a token, the sack, bankruptcy and a tick each change the image."""
    base = copy.deepcopy(_stages(4)[-1])
    base["phase"] = "actions"
    base["result"] = None
    base["players"][0]["board"] = [_property("F1", 0), _helper("RES1")]
    base["players"][0]["free_spaces"] = base["players"][0]["spaces"] - 2
    base["players"][0]["employment"] = {
        "id": "E1",
        "job": "Doctor",
        "income": 7,
        "lines": [
            {"symbol": symbol, "money": pounds, "covered": False}
            for symbol, pounds in (("horse", 3), ("dine", 2), ("mask", 1), ("guest", 1))
        ],
    }
    first = lastwill.render(base, NAMES[:4], EN)
    changes: list[Callable[[dict[str, Any]], object]] = [
        lambda v: v["players"][0].update(money=v["players"][0]["money"] + 1),
        lambda v: v["players"][0].update(hand=v["players"][0]["hand"] + 1),
        lambda v: v["players"][0]["employment"]["lines"][1].update(covered=True),
        lambda v: v["players"][0]["board"][0]["tokens"].append("horse"),
        lambda v: v["players"][0]["board"][0].update(maintained=True),
        lambda v: v["players"][0]["board"][0].update(step=0, values=[16, 15]),
        lambda v: v["players"][0]["board"][1].update(used=True),
        lambda v: v["players"][0].update(sacked=True, employment=None),
        lambda v: v["players"][0].update(bankrupt=True),
        lambda v: v["market"].update(farm=-v["market"]["farm"]),
    ]
    seen = {first}
    for change in changes:
        view = copy.deepcopy(base)
        change(view)
        image = lastwill.render(view, NAMES[:4], EN)
        assert image not in seen
        seen.add(image)


FRENCH_NAMES = ["Ana", "Élodie", "Zoë", "Chen", "Marc"]
"""Names with no English word in them, so the French board's words are all the catalog's."""
ENGLISH = frozenset(
    {
        "round", "start", "cards", "boys", "market", "card", "offering", "draw", "one", "opera", "demotion",
        "dem", "or", "symbols", "tokens", "maintained", "used", "line", "covered", "last", "move", "to",
        "hand", "limit", "upkeep", "up", "free", "taken", "by", "empty", "income", "sacked", "bankrupt",
        "no", "job", "employment", "demoted", "this", "game", "over", "planning", "errands", "discards",
        "setup", "drawing", "farm", "town", "manor", "mansion", "property", "event", "helper", "companion",
        "special", "new", "wild", "any", "not", "play", "left", "player", "once", "exp", "din", "msk",
        "hlm", "pty", "rng", "hlp", "wld", "trn", "clk", "frm", "twn", "mnr", "mns", "hrs", "chf", "gst",
        "dog", "dine", "carriage", "mask", "helm", "party", "ring", "training", "clock", "horse", "guest",
        "took", "sent", "boy", "slot", "went", "spent", "played", "laid", "bought", "the", "of", "and",
        "from", "deck", "discarded", "swapped", "wins", "win", "nobody", "still", "employed", "least",
        "money", "keep", "hidden", "until", "have", "chosen", "picks", "who", "has", "choose", "send",
        "pass", "so", "far", "answer", "house", "dinner", "ride", "theatre", "boat", "trip", "ball",
        "engagement", "wedding", "gift", "bachelor", "gentlemens", "club", "reservation", "ground",
        "waiter", "coachman", "sea", "tailor", "gardener", "estate", "steward", "school", "chum", "planner",
        "breeders", "fair", "old", "friend", "hectic", "day", "lost", "at", "personal", "secretary", "box",
        "regatta", "doctor", "banker", "governess", "clerk", "curate", "schoolmaster", "solicitor",
        "apothecary", "land", "shipping", "stockbroker", "architect", "journalist", "engineer",
        "magistrate", "army", "officer", "insurance", "merchant", "diplomat", "1st", "2nd", "3rd", "4th",
        "5th"
    }
)  # fmt: skip
"""Every English word the board drew before it was translated, but those French shares (plan,
actions, extension, valet, joker, agent) or abbreviates the same way (act, ext, All for alliance)."""


def _french_views() -> list[dict[str, Any]]:
    """Every stage of a 2- and a 5-player game, a crowded board, the sack, bankruptcy, a demotion."""
    views = [*_stages(2), *_stages(5)]
    view = copy.deepcopy(_stages(5)[-1])
    view["phase"], view["result"] = "actions", None
    view["players"][0]["board"] = [
        _property("F9", 0, ("dog", "horse", "guest"), maintained=True),
        _property("N1", 1, ("chef",)),
        _property("N2", 3, maintained=True),
        _helper("RES5", used=True),
        _helper("S1-PS"),
    ]
    view["players"][0]["free_spaces"] = 7
    view["players"][0]["hand_limit"] = 4
    view["players"][1].update(sacked=True, employment=None)
    view["players"][2]["bankrupt"] = True
    view["players"][3]["demoted"] = True
    return [*views, view]


def test_a_french_table_is_drawn_in_french() -> None:
    """Every string a French board hands the font is the catalog's French: its words are drawn, no
    English word of the old board is, and no blank is left unfilled."""
    pictures = _pictures(
        lambda: [lastwill.render(view, FRENCH_NAMES[: len(view["players"])], FR) for view in _french_views()]
    )
    drawn = {t.text for picture in pictures for t in picture.texts}
    words_drawn = {word.lower() for text in drawn for word in re.findall(r"[^\W_]+", text)}
    assert not words_drawn & ENGLISH, sorted(words_drawn & ENGLISH)
    assert not [text for text in drawn if "{" in text or "}" in text]
    expected = {
        "Manche", "1er joueur", "Plan", "cartes", "coursiers", "Marché", "Offre de cartes", "Piocher 1",
        "Opéra", "Extension", "Symboles :", "Jetons :", "entretenue / utilisée", "ligne couverte",
        "dernier coup", "à jouer", "Dernier coup :", "Fin de la partie", "Ferme", "Château", "libre",
        "FAILLITE", "LICENCIÉ", "sans emploi, sans revenu", "Cv", "Cn", "Cu", "In", "Dîn", "dîner",
    }  # fmt: skip
    assert expected <= drawn, sorted(expected - drawn)
    assert any(text.endswith(" £") for text in drawn), "French pounds follow the number"
    assert any(text.startswith("Paquets : ") for text in drawn)
    lastwill.clear_caches()


def test_french_numbers_are_grouped_with_a_narrow_space() -> None:
    view = copy.deepcopy(_stages(3)[-1])
    view["players"][0]["money"] = 12500
    names = kit.player_names(FRENCH_NAMES, 3, FR)
    assert lastwill.money(FR, 12500) == "12\u202f500 £"
    assert lastwill.money(EN, -3) == "−£3"
    assert check_png(lastwill.render(view, names, FR))
