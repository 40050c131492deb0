"""The Monopoly board image: valid, bounded, deterministic, readable on a phone, public view only."""

from __future__ import annotations

import copy
import io
import re
from functools import cache
from typing import Any

import pytest
from PIL import Image

import renderers.monopoly as monopoly
from bot.core.i18n import words
from renderers import kit
from rules.core import Action
from rules.monopoly import RULES, data
from rules.monopoly.builder import MonopolyBuilder
from rules.play import random_playthrough

EN = words("en")
"""The boards as an English table sees them."""
FR = words("fr")
"""The boards as a French table sees them."""
LANGUAGES = pytest.mark.parametrize("lang", [EN, FR], ids=["en", "fr"])

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


@LANGUAGES
@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("seed", [1, 42])
def test_every_stage_of_a_game_renders(players: int, seed: int, lang: kit.Words) -> None:
    views = _views(players, seed)
    assert views[0]["phase"] == "opening" and views[-1]["phase"] == "over"
    for view in views:
        before = copy.deepcopy(view)
        check_png(monopoly.render(view, NAMES[:players], lang))
        assert view == before, "the renderer changed the view"


@LANGUAGES
@pytest.mark.parametrize("players", [2, 6])
def test_no_text_is_too_small_on_a_phone(players: int, lang: kit.Words) -> None:
    """Every font size a render asks for (caches emptied first) reads 9 px at 400 px wide."""
    assert monopoly.FONT_MIN * PHONE_WIDTH / monopoly.W >= SMALLEST_ON_PHONE
    for view in (*_views(players, 42), busy_view()):
        monopoly.clear_caches()
        with kit.recording_font_sizes() as sizes:
            image = check_png(monopoly.render(view, NAMES[:players], lang))
        assert sizes, "the renderer asks the kit for its fonts"
        assert min(sizes) * PHONE_WIDTH / image.width >= SMALLEST_ON_PHONE, sorted(sizes)


def test_sites_keep_their_place_names_and_every_other_space_is_worded() -> None:
    """:data:`ABBREV` holds the sites (proper names, the same in every language); the catalog
    names every other space, on the board and in the messages alike."""
    assert set(monopoly.ABBREV) == {p for p, s in enumerate(data.BOARD) if s.kind == data.SITE}
    for pos in range(data.SPACES):
        space = monopoly.board_space(pos)
        key = monopoly.space_key(space["kind"], space["token"])
        assert (key is None) == (pos in monopoly.ABBREV), pos
        if key is not None:
            assert FR(f"monopoly.space.{key}") != f"monopoly.space.{key}", key
    names = {pos: monopoly.space_name(FR, monopoly.board_space(pos)) for pos in range(data.SPACES)}
    assert names[0] == "Départ" and names[4] == "Impôt sur le revenu" and names[38] == "Taxe de luxe"
    assert names[2] == names[17] == names[33] == "Caisse de communauté" and names[20] == "Parc gratuit"
    assert names[39] == "Rodeo Drive", "a place keeps its name"


@LANGUAGES
def test_every_name_line_fits_its_cell_uncut(lang: kit.Words) -> None:
    face = kit.font(monopoly.SMALL)
    for pos in range(data.SPACES):
        space = monopoly.board_space(pos)
        lines = monopoly.name_lines(lang, space)
        if pos % 10 == 0:
            size = monopoly.BIG if pos == 0 else monopoly.BODY
            x0, _y0, x1, _y1 = monopoly.cell_box(pos)
            assert len(lines) <= 2, (pos, lines)
            for line in lines:
                assert kit.font(size).getlength(line) <= x1 - x0 - 4, (pos, line)
            continue
        width = monopoly._text_area(pos)[2]
        # A property has an owner row under its price: two lines at most; a worded cell three.
        assert len(lines) <= (2 if space["price"] else monopoly.MAX_LINES), (pos, lines)
        for line in lines:
            assert face.getlength(line) <= width, (pos, line)


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
    heading, what = monopoly.last_move_text(view, kit.player_names(NAMES, 3, EN), EN)
    assert heading.startswith("Last") and monopoly.space_name(EN, view["spaces"][last["space"]]) in what
    heading, what = monopoly.last_move_text(view, kit.player_names(NAMES, 3, FR), FR)
    assert (
        heading.startswith("Dernier coup : ")
        and monopoly.space_name(FR, view["spaces"][last["space"]]) in what
    )


def test_an_explicit_last_entry_is_framed_where_it_says() -> None:
    """When the view carries ``last`` ({kind, seat, space}) the frame follows it, not the dice."""
    view = dict(_views(4, 1)[3])
    view["last"] = {"kind": "bought", "seat": 2, "space": 39}
    image = check_png(monopoly.render(view, NAMES[:4], EN))
    x0, y0, x1, y1 = monopoly.highlight_box(39)
    f = monopoly.FRAME
    inside = _magenta(image, (x0 - f, y0 - f, min(monopoly.W, x1 + f), y1 + f))
    assert inside >= 2 * ((x1 - x0) + (y1 - y0))
    assert monopoly.last_move_text(view, ["a", "b", "Chen", "d"], EN) == (
        "Last move: Chen",
        "bought Rodeo Drive",
    )
    assert monopoly.last_move_text(view, ["a", "b", "Chen", "d"], FR) == (
        "Dernier coup : Chen",
        "a acheté Rodeo Drive",
    )
    view["last"] = {"kind": "auction_started", "seat": None, "space": 4}
    assert monopoly.last_move_text(view, ["a"], FR) == ("Dernier coup", "enchères pour Impôt sur le revenu")


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


def busy_view() -> dict[str, Any]:
    """A mid-game view with everything the centre can list at once: an auction with a bid, a
    shortage, debts to the bank and to players, a mortgage fee, a rent claim, offers, get-out
    cards, a seat at the Pool Party and one bankrupt."""
    view = copy.deepcopy(_views(6, 1)[3])
    view["auction"] = {
        "item": "property",
        "space": 12,
        "token": "electric-company",
        "reason": "declined",
        "active": [0, 2],
        "turn": 2,
        "high": 1250,
        "high_bidder": 0,
        "min_bid": 1251,
        "mode": "round",
        "passed": [1],
        "bids": 3,
        "hours": 0,
    }
    view["shortage"] = {"item": "house", "requester": 0, "claims": [[0, 39]], "asked": [2, 4], "supply": 2}
    view["debts"] = [
        {"debtor": 3, "to_seats": [-1], "each": 200, "total": 200, "reason": "tax"},
        {"debtor": 5, "to_seats": [1, 2], "each": 50, "total": 100, "reason": "card"},
    ]
    view["fees"] = [{"seat": 1, "space": 5}]
    view["claims"] = [{"owner": 3, "payer": 5, "space": 39, "amount": 2000}]
    view["offers"] = [{"offer": 7, "from_seat": 0, "to_seat": 1, "give": {}, "want": {}}]
    view["seats"][1]["pool"] = 2
    view["seats"][3]["getout"] = ["chance", "tipjar"]
    view["seats"][4]["alive"] = False
    view["spaces"][39].update(owner=3, level=5)
    view["spaces"][37].update(owner=3, mortgaged=True)
    return view


def over_view() -> dict[str, Any]:
    view = _views(6, 1)[-1]
    assert view["phase"] == "over"
    return view


ENGLISH_WORDS = (
    "to play",
    "Last move",
    "Last roll",
    "Game over",
    "Winner",
    "Auction",
    "owes",
    "keep or lift",
    "may collect",
    "Offer",
    "Deal",
    "Rolled",
    "No roll",
    "more",
    "Bank",
    "houses",
    "hotels",
    "Cards",
    "Tip",
    "Jar",
    "Income",
    "Luxury",
    "Tax",
    "Free",
    "Parking",
    "Go to",
    "GO",
    "Electric",
    "Water",
    "Works",
    "Airport",
    "owner",
    "token",
    "mortgaged",
    "last move",
    "get-out",
    "no properties",
    "bankrupt",
    "doubles",
    "asking",
    "the bank",
    "Player",
)
"""Words the English board draws that a French one must not (place names excepted)."""


def test_a_french_board_is_drawn_in_french(drawn: list[str]) -> None:
    for view in (*_views(6, 1), busy_view()):
        monopoly.render(view, NAMES, FR)
    text = "\n".join(drawn)
    for french in (
        "Départ",
        "+200 $",
        "Parc",
        "gratuit",
        "Allez à la",
        "Impôt",
        "revenu",
        "Taxe de",
        "Caisse",
        "Aéroport",
        "Électri-",
        "Cie des",
        "À ",
        " de jouer",
        "Lancer pour le premier tour",
        f"Enchères, à C d'enchérir : Compagnie d'électricité, {FR.number(1250)} $ par A",
        "Plus que 2 maisons en banque : on attend C, E",
        "D doit 200 $ à la banque (taxe)",
        "... et 4 autres",
        "Pool 2/3",
        "en faillite",
        f"{FR.number(1500)} $",
        "Banque : ",
        " maisons",
        " hôtels",
        "Cartes restantes : Chance ",
        "propriétaire/pion",
        "hypothéquée",
        "dernier coup",
        "carte de sortie",
        "CC",
    ):
        assert french in text, french
    for english in ENGLISH_WORDS:
        found = [line for line in drawn if re.search(rf"\b{re.escape(english)}\b", line)]
        assert not found, (english, found[:3])
    assert not re.search(r"\$\d", text), "a French amount is written 1 500 $, never $1,500"
    # The centre shows four lines; the rest of what the table waits for, as status_lines words it.
    assert monopoly.status_lines(busy_view(), NAMES, FR)[3:] == [
        "F doit 100 $ à B, C (une carte)",
        "B : garder ou lever l'hypothèque de Aéroport LAX",
        f"D peut réclamer {FR.number(2000)} $ à F",
        "Marché n° 7 : de A à B",
    ]


def test_a_french_game_over_names_the_winners_and_ranks(drawn: list[str]) -> None:
    view = over_view()
    names = ["Ann", "Bob", "Cy", "Dee", "Eve", "Flo"]
    monopoly.render(view, names, FR)
    winners = view["result"]["winners"]
    expected = monopoly.headline(view, names, FR)
    assert expected.startswith("Partie terminée. Gagnant" + ("s : " if len(winners) > 1 else " : "))
    assert expected in drawn
    assert "1er" in drawn
    assert monopoly.headline(view, names, EN).startswith("Game over. Winner")


def test_an_english_board_keeps_its_words(drawn: list[str]) -> None:
    monopoly.render(busy_view(), NAMES, EN)
    text = "\n".join(drawn)
    for english in (
        "GO",
        "+$200",
        "Income",
        "Tip",
        "Auction: Electric Company, $1,250 by A; C to bid",
        "Last 2 houses in the bank: asking C, E",
        "D owes $200 to the bank (tax)",
        "... and 4 more",
        "$1,500",
        "owner/token",
        "get-out card",
        "TJ",
    ):
        assert english in text, english
    assert monopoly.status_lines(busy_view(), NAMES, EN)[3:] == [
        "F owes $100 to B, C (a card)",
        "B: keep or lift the mortgage on LAX Airport",
        "D may collect $2,000 from F",
        "Deal #7: A to B",
    ]


def open_auction(players: int, *moves: tuple[int, str]) -> dict[str, Any]:
    """The public view of an open auction played by the engine: seat 0 rolls 1 + 2 from space 9
    onto Electric Company (12, the longest lot name in French) and declines it, then ``moves``
    (seat, action) bid and pass."""
    state = MonopolyBuilder(players, seed=7).started(first=0).at(0, 9).next_dice((1, 2)).build()
    for seat, text in ((0, "roll"), (0, "decline"), *moves):
        RULES.apply(state, seat, Action.decode(text))
    view = RULES.view(state, None)
    assert view["auction"]["mode"] == "open" and view["auction"]["turn"] == -1
    return view


def texts_drawn(view: dict[str, Any], players: int, lang: kit.Words) -> set[str]:
    """Every text the board draws for ``view`` (caches emptied, so nothing is pasted unrecorded)."""
    monopoly.clear_caches()
    with kit.recording_texts() as seen:
        check_png(monopoly.render(view, NAMES[:players], lang))
    (picture,) = seen.pictures
    return {t.text for t in picture.texts}


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        (EN, ["Auction: Electric Company, $1,250 by F", "Still bidding: A, D, E; passed: B, C"]),
        (
            FR,
            [
                f"Enchères : Compagnie d'électricité, {FR.number(1250)} $ par F",
                "Encore en lice : A, D, E ; ont passé : B, C",
            ],
        ),
    ],
    ids=["en", "fr"],
)
def test_an_open_auction_shows_the_high_bid_who_is_still_in_and_who_passed(
    lang: kit.Words, lines: list[str]
) -> None:
    """An open auction has no bidder on turn (``turn`` is -1): the board names the lot, the high
    bid and its holder, the seats still bidding (in but not the high bidder, in seat order) and
    those who passed, each line whole, and never "the bank to bid"."""
    view = open_auction(6, (3, "bid.120"), (5, "bid.1250"), (1, "pass"), (2, "pass"))
    assert sorted(view["waiting_for"]) == [0, 3, 4]
    assert monopoly.status_lines(view, NAMES, lang) == lines
    drawn = texts_drawn(view, 6, lang)
    assert set(lines) <= drawn, "each line is drawn uncut"
    bank = lang("monopoly.bank")
    assert not [t for t in drawn if bank in t], "nobody is called the bank"


def test_an_open_auction_without_bids_or_passes_in_both_languages() -> None:
    view = open_auction(3)
    assert monopoly.status_lines(view, NAMES, EN) == [
        "Auction: Electric Company, no bid yet",
        "Still bidding: A, B, C",
    ]
    assert monopoly.status_lines(view, NAMES, FR) == [
        "Enchères : Compagnie d'électricité, aucune offre",
        "Encore en lice : A, B, C",
    ]
    view = open_auction(3, (2, "bid.45"), (1, "pass"))
    assert monopoly.status_lines(view, NAMES, FR)[1] == "Encore en lice : A ; a passé : B"  # one: singular
    assert "Encore en lice : A ; a passé : B" in texts_drawn(view, 3, FR)
    assert "Still bidding: A; passed: B" in texts_drawn(view, 3, EN)


def test_a_round_robin_auction_still_names_the_bidder_on_turn() -> None:
    state = MonopolyBuilder(3, seed=7, auction="round").started(first=0).at(0, 9).next_dice((1, 2)).build()
    for text in ("roll", "decline"):
        RULES.apply(state, 0, Action.decode(text))
    RULES.apply(state, 1, Action.decode("bid.30"))
    view = RULES.view(state, None)
    assert monopoly.status_lines(view, NAMES, EN) == ["Auction: Electric Company, $30 by B; C to bid"]
    assert monopoly.status_lines(view, NAMES, FR) == [
        "Enchères, à C d'enchérir : Compagnie d'électricité, 30 $ par B"
    ]


def test_plurals_come_from_the_catalog() -> None:
    view = busy_view()
    view["shortage"]["supply"] = 1
    assert "Dernière maison en banque : on attend C, E" in monopoly.status_lines(view, NAMES, FR)
    assert "Last house in the bank: asking C, E" in monopoly.status_lines(view, NAMES, EN)
    view["shortage"]["item"] = "hotel"
    view["shortage"]["supply"] = 3
    assert "Plus que 3 hôtels en banque : on attend C, E" in monopoly.status_lines(view, NAMES, FR)
