"""The presenters' shared kit: one way to phrase an event, one auction kit.

Below Discord.  ``Presenter.event_params`` names seats and seat lists, formats numbers and
phrases reason codes for every game; ``bot.ui.auction.AuctionKit`` draws the quick bids, the form
and Pass.  California and The Estates phrase every kind of event exactly as they did before
the kit (the expected lines below were produced by the presenters as they stood before it),
and over seeded random games no line is left with a placeholder or a bare seat number.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from bot.core.i18n import Catalog
from bot.games import REGISTRY
from bot.services.sessions import LiveGame
from bot.storage import GameRow, SeatRow
from bot.storage.codes import GameStatus
from bot.ui.auction import QUICK_RAISES, AuctionKit
from bot.ui.presenter import Button, Presenter, is_seat_list_param, is_seat_param
from cogs.california import CaliforniaPresenter
from cogs.estates import EstatesPresenter
from rules.core import Action, Event

CATALOG = Catalog.load()
NAMES = ("Ana", "Bob", "Cy", "Dee", "Eve")


def live(game: str = "estates", players: int = 3, state: Any = None, language: str = "en") -> LiveGame:
    """A LiveGame without a database: seats named Ana, Bob, Cy..."""
    blank: dict[str, Any] = {f.name: None for f in dataclasses.fields(GameRow)}
    row = GameRow(**{**blank, "id": 1, "game": game, "status": "active", "language": language, "version": 0})
    entry = REGISTRY.get(game)
    assert entry is not None
    if state is None:
        state = entry.rules.setup(players, {}, 1)
    seats = [SeatRow(seat, 1000 + seat, NAMES[seat]) for seat in range(players)]
    return LiveGame(row=row, entry=entry, seats=seats, state=state, version=0, status=GameStatus.ACTIVE)


class Kit(Presenter):
    game = "kit"


def kit(**entries: str) -> Kit:
    return Kit(Catalog({"en": {"host.nobody": "nobody", **entries}}))


# --- event_params ---------------------------------------------------------------------------------


def test_the_naming_rule_for_seats() -> None:
    for key in ("seat", "buyer", "seller", "bidder", "winner", "owner", "payer_seat", "to_seat"):
        assert is_seat_param(key), key
    for key in ("from", "to", "amount", "seats_left", "player", "space"):
        assert not is_seat_param(key), key
    for key in ("winners", "seats", "loser_seats"):
        assert is_seat_list_param(key), key
    for key in ("scores", "ranks", "buildings", "winner"):
        assert not is_seat_list_param(key), key
    assert is_seat_param("from", CaliforniaPresenter.seat_params), "California adds its own ambiguous name"


def test_event_params_name_seats_join_lists_format_numbers_and_phrase_reasons() -> None:
    presenter = kit(**{"host.and": " and ", "kit.reason.late": "{player} is late by {amount}; {buyer} waits"})
    game = live()
    event = Event(
        "x",
        0,
        {
            "buyer": 1,
            "owner_seat": 2,
            "nobody_seat": None,
            "winners": [0, 2],
            "loser_seats": [],
            "from": 1,
            "amount": 1500,
            "scores": [3, 4, 5],
            "automatic": True,
            "token": "blue5",
            "reason": "late",
        },
    )
    params = presenter.event_params(game, event)
    assert params["player"] == "Ana"
    assert (params["buyer"], params["owner_seat"], params["nobody_seat"]) == ("Bob", "Cy", "nobody")
    assert (params["winners"], params["loser_seats"]) == ("Ana and Cy", "nobody")
    assert params["from"] == "1", "not a seat by the host's rule: a number like any other"
    assert params["amount"] == "1,500"
    assert params["scores"] == [3, 4, 5], "one value per seat is not a list of seats"
    assert params["automatic"] is True and params["token"] == "blue5", "booleans and words stay as they are"
    assert params["why"] == "Ana is late by 1,500; Bob waits", "the reason is phrased with the named params"
    assert event.params["buyer"] == 1, "the event itself is untouched"
    unknown = presenter.event_params(game, Event("x", None, {"reason": "unheard"}))
    assert unknown["player"] == "nobody" and "why" not in unknown


def test_the_event_seat_wins_over_a_param_called_player() -> None:
    params = kit().event_params(live(), Event("x", 2, {"player": 0}))
    assert params["player"] == "Cy"


def test_seat_lists_join_through_host_and_then_the_games_own_word() -> None:
    game = live()
    assert kit(**{"host.and": " & ", "kit.and": " und "}).names(game, [0, 1, 2]) == "Ana, Bob & Cy"
    assert kit(**{"kit.and": " und "}).names(game, (1, 2)) == "Bob und Cy"
    assert kit().names(game, [0, 1]) == "Ana, Bob"
    assert kit().names(game, [2]) == "Cy"
    assert kit().names(game, "not a list") == "nobody"
    assert kit().names(game, [True, 9, 1]) == "nobody, Bob", "an unknown seat reads as nobody"


def test_numbers_follow_the_catalogs_thousands_separator() -> None:
    game = live()
    assert kit().number(game, 1234567) == "1,234,567"
    assert kit().number(game, -2) == "-2" and kit().number(game, 999) == "999"
    assert kit(**{"host.thousands": "\u202f"}).number(game, 1500) == "1\u202f500"


def test_default_lines_use_the_named_params() -> None:
    presenter = kit(
        **{
            "kit.event.paid": "{player} pays {owner} ${amount}.",
            "kit.private.drew": "You drew {card} ({player}).",
        }
    )
    game = live()
    assert presenter.event_line(game, Event("paid", 1, {"owner": 0, "amount": 2000})) == (
        "Bob pays Ana $2,000."
    )
    assert presenter.event_line(game, Event("unphrased", 1, {})) is None
    drew = Event("drew", 2, {"card": "ace"}, visible_to=frozenset({2}))
    assert presenter.private_line(game, drew) == "You drew ace (Cy)."


def test_counts_and_colour_marks() -> None:
    presenter = EstatesPresenter(CATALOG)
    assert presenter.count("estates.points", "en", 1) == "1 point"
    assert presenter.count("estates.points", "en", 3) == "3 points"
    assert presenter.mark("green") == "Gn" and presenter.mark("plaid") == "?" and presenter.mark(None) == "?"
    # California's codes are words of each language (Rd / Ro), on its buttons and its board alike.
    assert CaliforniaPresenter(CATALOG).code("red", "en") == "Rd"
    assert CaliforniaPresenter(CATALOG).code("red", "fr") == "Ro"
    assert kit().mark("red") == "?", "a game without colours has no marks"


# --- the auction kit ------------------------------------------------------------------------------


def described(controls: list[Any]) -> list[tuple[str, str | None, str | None, int | None, bool]]:
    out = []
    for control in controls:
        assert isinstance(control, Button)
        action = control.action.encode() if control.action else None
        out.append((control.label, action, control.modal, control.row, control.disabled))
    return out


def test_the_kit_draws_quick_bids_a_form_and_pass_in_the_hosts_words() -> None:
    bids = AuctionKit("monopoly")  # no [monopoly.auction] table: the host's words
    presenter = Presenter(CATALOG)
    game = live()
    assert QUICK_RAISES == (0, 1, 2, 5) and bids.amounts(10) == [10, 11, 12, 15]
    assert described(bids.controls(presenter, game, 998)) == [
        ("Bid 998", "bid.998", None, 0, False),
        ("Bid 999", "bid.999", None, 0, False),
        ("Bid 1,000", "bid.1000", None, 0, False),
        ("Bid 1,003", "bid.1003", None, 0, False),
        ("Other amount…", None, "bid", 1, False),
        ("Pass", "pass", None, 1, False),
    ]
    private = bids.controls(presenter, game, 10, money=11, row=2)
    assert [(label, row, off) for label, _, _, row, off in described(private)] == [
        ("Bid 10", 2, False),
        ("Bid 11", 2, False),
        ("Bid 12", 2, True),
        ("Bid 15", 2, True),
        ("Other amount…", 3, False),
        ("Pass", 3, False),
    ], "privately, the bids beyond one's money are greyed out"


def test_a_kit_whose_bids_name_what_is_sold() -> None:
    bids = AuctionKit("monopoly", bid="auction_bid", pass_kind="auction_pass", raises=(0, 10, 50))
    presenter = Presenter(CATALOG)
    controls = described(bids.controls(presenter, live(), 100, args=(12,)))
    assert [(action, modal) for _, action, modal, _, _ in controls] == [
        ("auction_bid.12.100", None),
        ("auction_bid.12.110", None),
        ("auction_bid.12.150", None),
        (None, "auction_bid.12"),
        ("auction_pass.12", None),
    ]
    assert bids.form_args("auction_bid.12") == (12,) and bids.form_args("auction_bid") == ()
    assert bids.form_args("auction_pass.12") is None and bids.form_args("not an action!") is None
    assert bids.is_form("auction_bid.12", (12,)) and not bids.is_form("auction_bid.12")
    assert bids.bid_action(120, (12,)) == Action("auction_bid", (12, 120))


def test_the_form_is_bounded_by_the_minimum_and_the_bidders_money() -> None:
    bids = AuctionKit("monopoly")
    presenter = Presenter(CATALOG)
    game = live()
    spec = bids.form(presenter, game, lot="Park Place", minimum=10, money=1500, ceiling=99_999)
    assert (spec.minimum, spec.maximum) == (10, 1500)
    assert (spec.title, spec.label, spec.placeholder) == (
        "Your bid for Park Place",
        "Your bid (10 to 1,500)",
        "10",  # typed back as is: no separator the host would refuse
    )
    blind = bids.form(presenter, game, lot="Park Place", minimum=10, money=None, ceiling=6000)
    assert (blind.minimum, blind.maximum) == (10, 6000), "nobody's money: the public ceiling"
    broke = bids.form(presenter, game, lot="Park Place", minimum=10, money=4, ceiling=6000)
    assert (broke.minimum, broke.maximum) == (10, 10), "never an upside-down range"


def test_the_estates_word_their_auction_and_keep_the_kits_shape() -> None:
    presenter = EstatesPresenter(CATALOG)
    rules = REGISTRY.get("estates")
    assert rules is not None
    state = rules.rules.setup(3, {}, 4)
    state.auctioneer = state.first_player = 0
    game = live(state=state)
    rules.rules.apply(state, 0, Action("pick", ("mayor",)))
    rules.rules.apply(state, 1, Action("bid", (4,)))
    auction = presenter.public(game)["auction"]
    public = described(presenter.bid_controls(game, auction))
    assert public == [
        ("Bid $5", "bid.5", None, 0, False),
        ("Bid $6", "bid.6", None, 0, False),
        ("Bid $7", "bid.7", None, 0, False),
        ("Bid $10", "bid.10", None, 0, False),
        ("Other amount…", None, "bid", 1, False),
        ("Pass", "pass", None, 1, False),
    ]
    state.money[2] = 6
    assert described(presenter.bid_controls(game, presenter.public(game)["auction"])) == public, (
        "the table's bids follow the public minimum bid, never the bidder's money"
    )
    panel = presenter.bid_panel(game, 2)
    assert [off for *_, off in described(panel.controls)] == [False, False, True, True, False, False]
    assert "you have $6 million in hand" in panel.text
    spec = presenter.modal(game, "bid", 2)
    assert spec is not None and (spec.minimum, spec.maximum) == (5, 6)
    assert (spec.title, spec.label) == ("Your bid for the Mayor", "Your bid in $ million (5 to 6)")
    assert presenter.modal(game, "bid.3", 2) is None and presenter.modal(game, "pass", 2) is None


# --- the games phrase every event as before ---------------------------------------------------------

PERMIT = {"piece": "permit1", "kind": "permit", "value": 1}
CUBE = {"piece": "blue5", "kind": "cube", "colour": "blue", "number": 5}
ROOF = {"piece": "roof", "kind": "roof", "value": 4}
MAYOR = {"piece": "mayor", "kind": "mayor"}
CANCEL = {"piece": "cancel", "kind": "cancel"}
BUY = {"store": 1, "slot": 2, "tile": 7, "price": 3, "money": 2}


def room(colour: str, name: str, target: int | str, fee: int, kind: str = "room") -> dict[str, Any]:
    return {
        **BUY,
        "kind": kind,
        "colour": colour,
        "name": name,
        "target": target,
        "fee": fee,
        "cost": 3 + fee,
    }


E = Event
CALIFORNIA: list[tuple[list[Event], list[str]]] = [
    ([E("coin_taken", 0, {"bank": 3, "money": 9})], ["Ana took a gold coin (3 left in the bank)."]),
    (
        [
            E("tile_bought", 1, room("red", "red room (music room)", 5, 1)),
            E("furniture_moved", 1, {"tile": 30, "colour": "red", "name": "grand piano", "space": 5}),
            E("guest_arrives", 1, {"colour": "red", "from": 2}),
            E("gift", 1, {"colour": "red", "gifts": 2}),
            E("bonus_card", 1, {"card": 1, "points": 3, "total": 9}),
            E("game_ends_tonight", 1, {"reason": "bonus", "day": 7}),
            E("day_ended", 1, {"day": 6, "reason": "store", "store": 1}),
            E("bag_shuffled", None, {"tiles": 27}),
            E("day_started", 2, {"day": 7, "days": 12, "price": 4}),
        ],
        [
            "Bob bought a red room (music room) (4 silver, fee included) and renovated B2; the grand piano "
            "waiting in the attic moves in; the red guest leaves Cy to visit and brings a gift.",
            "Bob takes the bonus card “three grand pianos” (+3; 9 bonus points).",
            "Bob has 9 bonus points. Day 7 is the last day.",
            "Day 6 is over: store 2 is empty.",
            "The 27 tiles in the bag are shuffled to refill the stores.",
            "Day 7 of 12 begins; Cy plays first. Tiles cost 4 silver.",
        ],
    ),
    (
        [
            E("loan_taken", 0, {"amount": 3, "money": 5}),
            E("tile_bought", 0, room("brown", "pool table", "attic", 0, "furniture")),
            E("furniture_stored", 0, {"tile": 20, "colour": "brown", "name": "pool table"}),
        ],
        ["Ana took a loan (+3 silver).", "Ana bought a pool table (3 silver) and stored it in the attic."],
    ),
    (
        [
            E("tile_bought", 2, {**room("", "attic expansion", "expansion", 0, "expansion"), "colour": None}),
            E("game_ends_tonight", 2, {"reason": "mansion", "day": 12}),
        ],
        [
            "Cy bought an attic expansion (3 silver) and expanded the attic.",
            "Cy has renovated all 16 spaces. Day 12 is the last day.",
        ],
    ),
    (
        [
            E("tile_bought", 0, room("blue", "swimming pool", 9, 0, "furniture")),
            E("guest_arrives", 0, {"colour": "blue", "from": None}),
            E("no_gift_left", 0, {"colour": "blue"}),
        ],
        [
            "Ana bought a swimming pool (3 silver) and furnished their light blue room; "
            "the light blue guest visits, but no gifts are left."
        ],
    ),
    (
        [
            E("tile_bought", 0, room("gray", "motorcycle", 4, 0, "furniture")),
            E("guest_stays", 0, {"colour": "gray"}),
            E("day_ended", 0, {"day": 3, "reason": "bank"}),
        ],
        [
            "Ana bought a motorcycle (3 silver) and furnished their gray room; the gray guest is already there.",
            "Day 3 is over: the bank is empty.",
        ],
    ),
    ([E("loan_repaid", 2, {"amount": 4, "money": 1, "automatic": False})], ["Cy repaid a loan (4 silver)."]),
    (
        [
            E("loan_repaid", 0, {"amount": 4, "money": 0, "automatic": True}),
            E("game_over", None, {"scores": [3, 4, 5], "ranks": [3, 2, 1]}),
        ],
        ["Ana's loan is repaid at the end (4 silver)."],
    ),
]
ESTATES: list[tuple[list[Event], list[str]]] = [
    (
        [E("round_started", 1, {"round": 2, "rounds": 3}), E("turn_started", 1, {"round": 2, "turn": 9})],
        ["Round 2 of 3 begins on a fresh board; Bob starts.", "Turn 9: Bob is the auctioneer."],
    ),
    (
        [E("picked", 0, piece) for piece in (PERMIT, ROOF, CUBE, MAYOR, CANCEL)],
        [
            "Ana auctions building permit 1.",
            "Ana auctions a rooftop: it shows 4.",
            "Ana auctions the blue 5 (5 Bl).",
            "Ana auctions the Mayor.",
            "Ana auctions the Cancel cube.",
        ],
    ),
    ([E("bid", 1, {**CUBE, "amount": 4}), E("passed", 2, CUBE)], ["Bob bids $4 million.", "Cy passes."]),
    (
        [E("sold", 0, {**CUBE, "buyer": 1, "price": 4}), E("bought", 0, {**PERMIT, "bidder": 2, "price": 7})],
        [
            "Ana sells the blue 5 (5 Bl) to Bob for $4 million.",
            "Ana keeps building permit 1 and pays Cy $7 million.",
        ],
    ),
    ([E("taken_free", 0, MAYOR)], ["Nobody bid: Ana takes the Mayor for free."]),
    (
        [
            E("built", 1, {**CUBE, "row": "B", "lot": 2, "height": 1}),
            E("certificate", 1, {"colour": "blue", "company": "Skyline Capital"}),
        ],
        [
            "Bob builds the blue 5 (5 Bl) on B2 (floor 1).",
            "Bob takes the certificate of Skyline Capital (blue).",
        ],
    ),
    (
        [
            E("roofed", 2, {**ROOF, "row": "A", "lot": 1, "building_value": 11}),
            E("row_completed", None, {"row": "A"}),
        ],
        ["Cy puts a rooftop worth 4 on A1: a building worth 11.", "Row A is complete!"],
    ),
    (
        [
            E("permit_placed", 0, {**PERMIT, "row": "C", "direction": "longer", "requirement": 5, "lot": 5}),
            E("row_reopened", None, {"row": "C"}),
            E("permit_placed", 0, {**PERMIT, "row": "B", "direction": "shorter", "requirement": 3, "lot": 3}),
        ],
        [
            "Ana places building permit 1: row C is longer, now 5 lots.",
            "Row C is no longer complete.",
            "Ana places building permit 1: row B is shorter, now 3 lots.",
        ],
    ),
    (
        [E("mayor_placed", 1, {**MAYOR, "row": "B"}), E("discarded", 2, PERMIT)],
        [
            "Bob puts the Mayor in front of row B: its buildings count double.",
            "Cy discards building permit 1.",
        ],
    ),
    (
        [E("permit_cancelled", 2, {**CANCEL, "value": 2, "row": "A", "requirement": 4})],
        ["Cy uses the Cancel cube on permit 2: row A is 4 lots again."],
    ),
    (
        [
            E(
                "round_ended",
                None,
                {"round": 1, "reason": "rows", "buildings": [12, -3, 12], "winners": [0, 2]},
            ),
            E(
                "round_score",
                0,
                {"round": 1, "buildings": 12, "cash_box": 2, "score": 14},
                visible_to=frozenset({0}),
            ),
        ],
        [
            "Round 1 is over: two rows are complete. Building points: Ana 12, Bob -3, Cy 12. Round won by "
            "Ana and Cy. Your own score, cash box included: **Catch me up**.",
            "private: Round 1: you scored 14 (12 from buildings, 2 from your cash box).",
        ],
    ),
    (
        [E("round_ended", None, {"round": 2, "reason": "stalled", "buildings": [1, 0, 5], "winners": [2]})],
        [
            "Round 2 is over: no more buildings can be completed. Building points: Ana 1, Bob 0, Cy 5. "
            "Round won by Cy. Your own score, cash box included: **Catch me up**."
        ],
    ),
    (
        [
            E("round_ended", None, {"round": 3, "reason": "stalled", "buildings": [1, 0, 5], "winners": [2]}),
            E("game_over", None, {"winners": [2], "ranks": [2, 3, 1]}),
        ],
        ["Round 3 is over: no more buildings can be completed. Building points: Ana 1, Bob 0, Cy 5."],
    ),
    (
        [E("stowed", 0, {"amount": 1, "money": 7, "cash_box": 2}, visible_to=frozenset({0}))],
        ["private: You stowed $1 million in your cash box. In hand: $7 million; cash box: $2 million."],
    ),
]


def phrased(presenter: Presenter, game: LiveGame, events: list[Event]) -> list[str]:
    out = presenter.lines(game, events)
    out += [f"private: {presenter.private_line(game, e)}" for e in events if e.visible_to is not None]
    return out


@pytest.mark.parametrize(("events", "expected"), CALIFORNIA)
def test_california_phrases_every_event_as_before(events: list[Event], expected: list[str]) -> None:
    assert phrased(CaliforniaPresenter(CATALOG), live("california"), events) == expected


@pytest.mark.parametrize(("events", "expected"), ESTATES)
def test_the_estates_phrase_every_event_as_before(events: list[Event], expected: list[str]) -> None:
    assert phrased(EstatesPresenter(CATALOG), live("estates"), events) == expected


@pytest.mark.parametrize(
    ("game", "presenter", "seeds"),
    [
        ("california", CaliforniaPresenter(CATALOG), range(4)),
        ("estates", EstatesPresenter(CATALOG), range(3)),
    ],
)
def test_seeded_games_leave_no_placeholder_and_no_bare_seat(
    game: str, presenter: Presenter, seeds: range
) -> None:
    """Every seat-valued param of every event of seeded random games reaches its line as a name."""
    entry = REGISTRY.get(game)
    assert entry is not None
    kinds: set[str] = set()
    for seed in seeds:
        players = entry.rules.min_players + seed % (entry.rules.max_players - entry.rules.min_players + 1)
        rng = random.Random(seed)
        state = entry.rules.setup(players, {}, seed)
        table = live(game, players, state)
        while entry.rules.outcome(state) is None:
            seat = rng.choice(sorted(entry.rules.waiting_for(state)))
            events = entry.rules.apply(state, seat, rng.choice(entry.rules.legal_actions(state, seat)))
            for line in phrased(presenter, table, events):
                assert "{" not in line and "None" not in line, line
            for event in events:
                kinds.add(event.kind)
                params = presenter.event_params(table, event)
                for key, value in event.params.items():
                    if is_seat_param(key, presenter.seat_params) and isinstance(value, int):
                        assert params[key] == NAMES[value], (event, key)
                    if is_seat_list_param(key, presenter.seat_list_params):
                        assert all(NAMES[s] in params[key] for s in value), (event, key)
    assert len(kinds) >= 10, kinds


def test_standings_say_when_first_place_does_not_win() -> None:
    """Last Will: when everyone is still employed the places stand but nobody wins; the
    standings say so before the list, in the game's words when it has them."""
    from rules.core import Outcome

    game = live("estates", 3)
    plain = Outcome((3, 5, 4), (3, 1, 2), ({}, {}, {}))
    nobody = Outcome((3, 5, 4), (3, 1, 2), ({}, {}, {}), no_winner=True)
    lines = kit(**{"host.standing": "{rank}. {player}: {score}"}).standings(game, plain)
    assert lines == ["1. Bob: 5", "2. Cy: 4", "3. Ana: 3"]
    host_words = kit(**{"host.standing": "{rank}. {player}: {score}", "host.final.no_winner": "Nobody wins."})
    assert host_words.standings(game, nobody)[0] == "Nobody wins."
    own = kit(
        **{
            "host.standing": "{rank}. {player}: {score}",
            "host.final.no_winner": "Nobody wins.",
            "kit.no_winner": "Nobody wins: all still employed.",
        }
    )
    assert own.standings(game, nobody) == ["Nobody wins: all still employed.", *lines]
