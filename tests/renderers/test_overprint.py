"""Boards never overprint: no two texts of a picture overlap, and none leaves its panel or the image.

Every game is played at random (``rules.play.random_playthrough``) at every player count it allows,
and pictures of positions spread over each game (its start, its end and four between) are drawn in
English and in French from the views the host hands the renderers (``RULES.view(state, None)`` for
the board; the seat's own view for California's "My mansion" and The Estates' holdings).  The kit
records where each text landed (:func:`renderers.kit.recording_texts`): its box, and the panel the
renderer said it belongs in (:func:`renderers.kit.panel`).

Random play rarely fills a table's every corner at once (a player sacked in the round of a
demotion, get-out cards in every hand, a debt per seat), so each board is also drawn "crowded": the same view
with its public facts pushed to the busiest values it can hold (:data:`CROWDS`).

The same French pictures are then read for English: no string a French picture draws may be the
English catalog's (a game's ``<game>.*`` and the host's ``host.*`` keys) where French says
something else.
"""

from __future__ import annotations

import ast
import copy
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import renderers
import renderers.california
import renderers.estates
import renderers.lastwill
import renderers.monopoly
import rules.california
import rules.estates
import rules.lastwill
import rules.monopoly
from bot.core.i18n import shipped, words
from renderers import kit
from rules.play import random_playthrough
from tests.helpers import clear_render_caches, text_faults

POSITIONS = 6
"""Pictures per game, player count and language: the start, the end and four positions between."""
NAMES = ["Bartholomew Featherstonehaugh", "Zoë", "Élodie Ñúñez", "Chen", "Anastasia Papadopoulou", "Ægir"]
"""Long and short names with accents (no word of either language in them, for the French check)."""


def crowded_california(view: dict[str, Any]) -> None:
    """Everyone rich, on loan, with gifts, six guests, bonus cards and a big score."""
    for p in view["players"]:
        p.update(money=12345, loan=True, gifts=99, guests=["brown", "red", "purple", "gray", "blue", "green"])
        p.update(bonus_cards=[0, 1], bonus_points=99)
        p["score"] = {**p["score"], "gifts": 99, "bonus": 99, "loan": -2, "total": 999}
    for card, owner in zip(view["bonus_cards"], range(len(view["players"])), strict=False):
        card["owner"] = owner


def crowded_estates(view: dict[str, Any]) -> None:
    """Five rounds with wins for everyone, every certificate with the first seat, big bids and scores."""
    players = int(view["players"])
    view.update(rounds=5, round_wins=[3] * players, score_now=[-123] * players)
    for cert in view["certificates"]:
        cert["owner"] = 0
    view["certificates_by_owner"] = [[c["colour"] for c in view["certificates"]]] + [[]] * (players - 1)
    for row in view["rows"]:
        row["score_now"] = [-45] * players
    auction = view.get("auction")
    if auction:
        auction["bids"] = [{"seat": b["seat"], "amount": 12345} for b in auction.get("bids") or []]
        auction.update(high_bid=12345, min_bid=12346)


def crowded_monopoly(view: dict[str, Any]) -> None:
    """Every seat rich, in the pool with both get-out cards; a debt per seat, a claim and an offer
    (more lines than the table shows); every property owned, built or mortgaged; doubles."""
    players = int(view["players"])
    for s in view["seats"]:
        if s.get("alive", True):
            s.update(cash=12345, pool=2, getout=["chance", "tipjar"])
    for space in view["spaces"]:
        if space.get("price"):
            space.update(
                owner=space["pos"] % players, level=space["pos"] % 6, mortgaged=space["pos"] % 6 == 5
            )
    view["debts"] = [
        {
            "debtor": seat,
            "to_seats": [(seat + 1) % players],
            "each": 1234,
            "total": 12345,
            "reason": "interest",
        }
        for seat in range(players)
    ]
    view["claims"] = [{"owner": 0, "payer": 1, "space": 39, "amount": 2000}]
    view["offers"] = [{"offer": 7, "from_seat": 1, "to_seat": 0, "give": {}, "want": {}}]
    view["dice"] = [6, 6]


def crowded_lastwill(view: dict[str, Any]) -> None:
    """Every player demoted, owing discards, past the hand limit, with extensions and a plan; every
    other one sacked, the rest bankrupt; everyone to act."""
    for i, p in enumerate(view["players"]):
        p.update(demoted=True, money=-12345 if i % 2 else 12345, hand=12, hand_limit=4, extensions=3)
        p.update(discard_owed=3, free_spaces=9, plan=6, boys_left=2)
        if i % 2:
            p["bankrupt"] = True
        else:
            p.update(sacked=True, employment=None)
    view["waiting"] = [p["seat"] for p in view["players"]]


CROWDS: dict[str, Callable[[dict[str, Any]], None]] = {
    "california": crowded_california,
    "estates": crowded_estates,
    "monopoly": crowded_monopoly,
    "lastwill": crowded_lastwill,
}
"""Each game's busiest public view, made from a played one (in place)."""


@dataclass(frozen=True)
class Game:
    name: str
    rules: Any
    render: Callable[[Any, Sequence[str], kit.Words], bytes]
    private: Callable[[Any, Sequence[str], int, kit.Words], bytes] | None
    """A seat's own picture (drawn from that seat's view), if the game has one."""


GAMES = [
    Game(
        "california",
        rules.california.RULES,
        renderers.california.render,
        renderers.california.render_mansion,
    ),
    Game("estates", rules.estates.RULES, renderers.estates.render, renderers.estates.render_holdings),
    Game("monopoly", rules.monopoly.RULES, renderers.monopoly.render, None),
    Game("lastwill", rules.lastwill.RULES, renderers.lastwill.render, None),
]
LANGUAGES = ("en", "fr")


def positions(game: Game, players: int, seed: int) -> Iterator[tuple[Any, int]]:
    """(state, a seat) at :data:`POSITIONS` points of one random game, evenly spread, end included."""
    run = random_playthrough(game.rules, players, seed, check=False)
    assert run.finished and not run.failures, (game.name, players, seed)
    stops = {round(i * len(run.log) / (POSITIONS - 1)) for i in range(POSITIONS)}
    state = game.rules.setup(players, run.options, seed)
    for done in range(len(run.log) + 1):
        if done in stops:
            yield state, done % players
        if done < len(run.log):
            game.rules.apply(state, *run.log[done])


@cache
def english_only(
    game: str,
) -> tuple[frozenset[str], tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]]:
    """For a game's keys and the host's: the English values French words differently (plain, and
    as patterns for those with ``{params}``), and every French pattern (a French string matching
    one of those is French, whatever else it matches)."""
    catalog = shipped()
    keys = [k for k in catalog.keys("en") if k.startswith((f"{game}.", "host.")) and catalog.has(k, "fr")]
    english: set[str] = set()
    english_patterns: list[re.Pattern[str]] = []
    french_patterns: list[re.Pattern[str]] = []
    french_plain = {catalog.own(k, "fr") for k in keys}
    for key in keys:
        en, fr = catalog.own(key, "en"), catalog.own(key, "fr")
        if en is None or fr is None:
            continue
        if "{" in fr and _worded(fr):
            french_patterns.append(_pattern(fr))
        if en == fr or not _worded(en):
            continue
        if "{" in en:
            english_patterns.append(_pattern(en))
        elif en not in french_plain:
            english.add(en)
    return frozenset(english), tuple(english_patterns), tuple(french_patterns)


def _worded(template: str) -> bool:
    """Whether a template has a word of its own (two letters outside its ``{params}``): one made
    of params only ("{player}") would match any string."""
    return re.search(r"[^\W\d_]{2}", re.sub(r"\{[^}]*\}", "", template)) is not None


def _pattern(template: str) -> re.Pattern[str]:
    """A catalog template as a pattern: its own words literally, each ``{param}`` any text."""
    parts = re.split(r"\{[^}]*\}", template)
    return re.compile(".+?".join(re.escape(part) for part in parts), re.DOTALL)


WORD = re.compile(r"[^\W\d_]+")
PLACES = frozenset(line for lines in renderers.monopoly.ABBREV.values() for line in lines)
"""Monopoly's site names, places that keep their names in every language ("Castro / Street")."""


@cache
def english_words(game: str) -> frozenset[str]:
    """Words of a game's and the host's English catalog that no French entry uses, nor a test name
    ("Emerald", "Gn", "sacked"), nor (Monopoly) a site's name, which every language keeps ("a
    hypothéqué Castro Street", though "Street repairs" is English): one of them in a French
    string is English left over."""
    catalog = shipped()

    def words_of(key: str, language: str) -> set[str]:
        return {w.lower() for w in WORD.findall(re.sub(r"\{[^}]*\}", " ", catalog.own(key, language) or ""))}

    english = {
        w for k in catalog.keys("en") if k.startswith((f"{game}.", "host.")) for w in words_of(k, "en")
    }
    french = {w for k in catalog.keys("fr") for w in words_of(k, "fr")}
    names = {w.lower() for name in NAMES for w in WORD.findall(name)}
    if game == "monopoly":
        sites = (s.name for s in rules.monopoly.data.BOARD if s.kind == rules.monopoly.data.SITE)
        names |= {w.lower() for site in sites for w in WORD.findall(site)}
    return frozenset(english - french - names)


def english_in(game: str, drawn: set[str]) -> list[str]:
    """The strings of ``drawn`` that are the English catalog's and not the French one's, or hold
    an English word French never uses (card ids and place names aside)."""
    plain, english, french = english_only(game)
    left = [s for s in drawn if s in plain]
    for s in drawn - plain:
        if any(p.fullmatch(s) for p in english) and not any(p.fullmatch(s) for p in french):
            left.append(s)
        elif s not in PLACES:
            chunks = [chunk for chunk in s.split() if not any(c.isdigit() for c in chunk)]
            if any(w.lower() in english_words(game) for chunk in chunks for w in WORD.findall(chunk)):
                left.append(s)
    return sorted(left)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", GAMES, ids=[g.name for g in GAMES])
def test_no_text_overprints_another_or_leaves_its_panel(game: Game, language: str) -> None:
    table = words(language)
    clear_render_caches()
    pictures = 0
    texts = 0
    problems: list[str] = []
    drawn: set[str] = set()
    with kit.recording_texts() as seen:
        for players in range(game.rules.min_players, game.rules.max_players + 1):
            names = NAMES[:players]
            for state, seat in positions(game, players, seed=100 * players + LANGUAGES.index(language)):
                made = len(seen.pictures)
                view = game.rules.view(state, None)
                game.render(view, names, table)
                crowded = copy.deepcopy(view)
                CROWDS[game.name](crowded)
                game.render(crowded, names, table)
                if game.private is not None:
                    game.private(game.rules.view(state, seat), names, seat, table)
                for picture in seen.pictures[made:]:
                    pictures += 1
                    texts += len(picture.texts)
                    drawn |= {t.text for t in picture.texts}
                    where = f"{game.name}, {players} players, {language}"
                    problems += [f"{where}: {fault}" for fault in text_faults(picture)]
    clear_render_caches()
    assert pictures >= 2 * POSITIONS * (game.rules.max_players - game.rules.min_players + 1)
    assert texts > 50 * pictures, "the pictures' texts were recorded"
    assert seen.labelled <= drawn, (
        f"drawn on a sprite pasted without its texts: {sorted(seen.labelled - drawn)}"
    )
    assert problems == [], "\n".join(problems[:40])
    if language == "fr":
        assert english_in(game.name, drawn) == []


def test_a_french_picture_of_english_words_is_caught() -> None:
    """The French check is not vacuous: English catalog strings, plain or filled in, are found, and
    French ones, names, numbers and codes shared by both languages are not."""
    en = words("en")
    fr = words("fr")
    caught = {
        "3 Gn : cube d'étage 3 d'Emerald (Gn).",  # French words around English ones
        en("estates.code.green"),
        en("estates.company.green"),
        en("estates.image.board.need", requirement=4),
        en("lastwill.image.job.sacked"),
    }
    kept = {
        fr("estates.code.green"),
        fr("estates.company.green"),
        fr("estates.image.board.need", requirement=4),
        fr("lastwill.image.job.sacked"),
        "Zoë",
        "12",
        en("estates.code.blue"),
        "S1-OF1",  # a card id
    }
    assert en("estates.code.blue") == fr("estates.code.blue")
    found = english_in("estates", caught | kept) + english_in("lastwill", caught | kept)
    assert set(found) == caught
    assert english_in("monopoly", {"Castro", "Street", "Rue"}) == []


def test_text_faults_finds_an_overlap_a_stray_and_a_text_outside_the_image() -> None:
    panel = (0.0, 0.0, 100.0, 30.0)
    fine = kit.Drawn("a", (0, 0, 10, 10), panel, "p")
    beside = kit.Drawn("b", (9.5, 0, 20, 10), panel, "p")  # anti-aliasing: half a pixel shared
    over = kit.Drawn("c", (5, 5, 15, 15), panel, "p")
    stray = kit.Drawn("d", (95, 20, 110, 35), panel, "p")
    assert text_faults(kit.Picture((200, 200), (fine, beside))) == []
    assert len(text_faults(kit.Picture((200, 200), (fine, beside, over)))) == 2  # c overlaps a and b
    assert [f.split(" ")[0] for f in text_faults(kit.Picture((105, 200), (stray,)))] == ["'d'", "'d'"]


def test_sprites_carry_their_texts_into_the_panel_they_are_pasted_in() -> None:
    sprite = Image.new("RGB", (40, 20))
    board = Image.new("RGB", (200, 100))
    with kit.recording_texts() as seen:
        kit.label(sprite, (2, 2), "Hi", 14)
        with kit.panel(board, "card", (100, 50, 130, 80)):
            kit.paste(board, sprite, (100, 50))
        kit.png(kit.copy(board))
    (picture,) = seen.pictures
    (text,) = picture.texts
    assert text.text == "Hi" and text.panel == (100, 50, 130, 70) and text.panel_name == "card/image"
    assert 100 < text.box[0] < text.box[2] < 130 and 50 < text.box[1] < text.box[3] < 70
    assert seen.labelled == {"Hi"}
    kit.label(board, (2, 2), "Bye", 14)  # not recording: not noted
    with kit.recording_texts() as again:
        kit.png(kit.copy(board))
    assert [t.text for t in again.pictures[0].texts] == ["Hi"]


def test_every_text_is_drawn_through_the_kit() -> None:
    """No renderer hands Pillow a string itself (``ImageDraw.text``) or pastes a sprite itself: only
    the kit's label draws words and the kit's paste carries them along, so every word of every
    picture is recorded and checked above."""
    folder = Path(renderers.__file__).parent
    direct = []
    for path in sorted(folder.glob("*.py")):
        if path.name == "kit.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call):
                continue
            called = node.func
            if not isinstance(called, ast.Attribute) or called.attr not in PILLOWS_OWN:
                continue
            if not (isinstance(called.value, ast.Name) and called.value.id == "kit"):
                direct.append(f"{path.name}:{node.lineno} .{called.attr}")
    assert direct == []


PILLOWS_OWN = ("text", "multiline_text", "textbbox", "paste")
"""Pillow's calls that draw a string or paste a sprite: a renderer makes them through the kit only."""
