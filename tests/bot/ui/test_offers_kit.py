"""The offers kit (``bot.ui.offers``): one way to draw deals for every game that has them.

Below Discord, with a stub presenter whose public view is a list of offers, so each test says
exactly which offers are open.  What matters to players: the public row is the same for
everyone and capped, an offer's own panel shows each seat only its part, the draft keeps its
layout, and every drafting step (stale or not) comes back to the panel that holds it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

from bot.core.i18n import Catalog
from bot.services.sessions import Applied, LiveGame
from bot.storage.codes import GameStatus
from bot.ui.offers import CashForm, Draft, OfferKit
from bot.ui.presenter import Button, Choice, Control, Panel, Presenter, Select
from rules.core import Action, Event
from tests.bot.ui.test_presenter_kit import live

TEXT = {
    "host.nobody": "nobody",
    "deals.money": "${amount}",
    "deals.button.accept": "Accept #{offer}",
    "deals.button.reject": "Reject #{offer}",
    "deals.button.counter": "Counter #{offer}…",
    "deals.button.counter_now": "Counter",
    "deals.button.withdraw": "Withdraw #{offer}",
    "deals.button.pay": "Cash you give…",
    "deals.button.ask": "Cash you ask…",
    "deals.button.send": "Send",
    "deals.button.drop": "Drop",
    "deals.button.back": "Back",
    "deals.button.done": "Done",
    "deals.select.give": "What you give",
    "deals.select.want": "What you want from {player}",
    "deals.form.pay_title": "Cash you give {player}",
    "deals.form.ask_title": "Cash you ask from {player}",
    "deals.form.label": "Cash ({min} to {max})",
    "deals.panel.whom": "Whom is it for?",
    "deals.panel.no_deals_now": "No deals now.",
    "deals.panel.draft": "To {player}: you give {give}, you ask for {want}",
    "deals.panel.not_ready": "(Not ready.)",
    "deals.panel.offer": "#{offer} from {from_seat} to {to_seat}: {terms}.",
    "deals.panel.offer_closed": "#{offer} is closed.",
    "deals.panel.closed": "Closed.",
    "deals.confirm.sent": "#{offer} sent; {to_seat} answers.",
    "deals.summary.draft": "Your draft to {player}: {terms}.",
}

KIT = OfferKit("deals", max_rows=2)
HOME = OfferKit(
    "deals",
    max_rows=2,
    steps=frozenset({"card"}),
    names_recipient=True,
    sets=True,
    back_to="home",
    close_row=4,
)


class Stub(Presenter):
    """A game with deals whose open offers the test sets; its deal panel only says whose it is."""

    game = "deals"

    def __init__(self, offers: Sequence[Mapping[str, Any]] = (), kit: OfferKit = KIT) -> None:
        super().__init__(Catalog({"en": TEXT}))
        self.offers = list(offers)
        self.kit = kit

    def public(self, game: LiveGame) -> dict[str, Any]:
        return {"offers": self.offers}

    def terms(self, game: LiveGame, deal: Mapping[str, Any]) -> str:
        return f"{deal['give']} for {deal['want']}"

    def deal_panel(self, game: LiveGame, seat: int) -> Panel:
        return Panel(f"deal panel of {seat}")

    def offer_panel(self, game: LiveGame, seat: int, number: int) -> Panel:
        return self.kit.offer_panel(self, game, seat, number)


def offer(number: int, proposer: int = 0, recipient: int = 1) -> dict[str, Any]:
    return {"offer": number, "from_seat": proposer, "to_seat": recipient, "give": "Acorn", "want": "$3"}


def labels(controls: Sequence[Control]) -> list[str]:
    return [c.label if isinstance(c, Button) else c.placeholder for c in controls]


def applied(game: LiveGame, action: Action, events: Sequence[Event] = ()) -> Applied:
    none = frozenset[int]()
    return Applied(game, 0, action, list(events), 1, False, none, none, False, 0.0)


# --- the table ------------------------------------------------------------------------------------


def test_the_table_draws_one_row_per_open_offer_up_to_the_cap() -> None:
    game = live(players=3)
    stub = Stub([offer(1), offer(2, proposer=1, recipient=2), offer(3, proposer=2, recipient=0)])
    controls = KIT.rows(stub, game, stub.offers, first_row=2)
    assert labels(controls) == [
        *("Accept #1", "Reject #1", "Counter #1…", "Withdraw #1"),
        *("Accept #2", "Reject #2", "Counter #2…", "Withdraw #2"),
    ], "the third offer waits for a row: the kit draws max_rows"
    assert {c.row for c in controls[:4]} == {2} and {c.row for c in controls[4:]} == {3}
    first = [c for c in controls[:4] if isinstance(c, Button)]
    assert [c.action for c in first] == [
        Action("accept", (1,)),
        Action("reject", (1,)),
        None,
        Action("withdraw", (1,)),
    ]
    assert first[2].ui == "offer.1", "Counter opens the offer's panel: a step to confirm, not a public move"


# --- one offer's panel ----------------------------------------------------------------------------


def test_an_offer_panel_shows_the_recipient_the_proposer_and_a_third_seat_only_their_part() -> None:
    game = live(players=3)
    stub = Stub([offer(1, proposer=0, recipient=1)])
    recipient, proposer, third = (KIT.offer_panel(stub, game, seat, 1) for seat in (1, 0, 2))
    assert recipient.text == "#1 from Ana to Bob: Acorn for $3."
    assert labels(recipient.controls) == ["Accept #1", "Reject #1", "Counter", "Done"]
    counter = recipient.controls[2]
    assert isinstance(counter, Button) and counter.action == Action("counter", (1,)), (
        "on its own panel Counter acts"
    )
    assert labels(proposer.controls) == ["Withdraw #1", "Done"]
    assert labels(third.controls) == ["Done"], "a third seat reads the offer and can only close it"
    assert third.text == recipient.text


def test_with_legal_actions_an_offer_panel_draws_only_what_the_engine_allows() -> None:
    game = live(players=3)
    stub = Stub([offer(1, proposer=0, recipient=1)])
    allowed = {Action("accept", (1,)), Action("withdraw", (1,))}
    assert labels(KIT.offer_panel(stub, game, 1, 1, allowed).controls) == ["Accept #1", "Done"]
    assert labels(KIT.offer_panel(stub, game, 0, 1, allowed).controls) == ["Withdraw #1", "Done"]
    assert labels(KIT.offer_panel(stub, game, 2, 1, allowed).controls) == ["Done"], (
        "legal never beats the role"
    )


def test_a_closed_offer_says_so() -> None:
    panel = KIT.offer_panel(Stub([offer(1)]), live(), 1, 9)
    assert panel.text == "#9 is closed." and labels(panel.controls) == ["Done"]


# --- whom and the draft ---------------------------------------------------------------------------


def test_whom_lists_every_other_seat_or_those_the_engine_allows() -> None:
    game, stub = live(players=4), Stub()
    every = KIT.whom_panel(stub, game, 1)
    assert every.text == "Whom is it for?" and labels(every.controls) == ["Ana", "Cy", "Dee", "Done"]
    assert [c.action for c in every.controls[:3] if isinstance(c, Button)] == [
        Action("deal", (s,)) for s in (0, 2, 3)
    ]
    allowed = KIT.whom_panel(stub, game, 1, [Action("deal", (3,)), Action("roll")])
    assert labels(allowed.controls) == ["Dee", "Done"]
    nobody = KIT.whom_panel(stub, game, 1, [Action("roll")])
    assert nobody.text == "No deals now." and labels(nobody.controls) == ["Done"]
    back = HOME.whom_panel(stub, game, 1).controls[-1]
    assert isinstance(back, Button) and (back.label, back.ui, back.row) == ("Back", "home", 4)


def draft(extras: Sequence[Control] = ()) -> Draft:
    acorn = Choice("Acorn", Action("give", ("acorn",)))
    return Draft(2, give="Acorn", want="nothing", give_choices=[acorn], extras=extras)


def test_the_draft_keeps_its_rows_sides_forms_extras_send_and_drop() -> None:
    game, stub = live(players=3), Stub()
    card = Button("Give the card", action=Action("card", ("x",)), row=2)
    panel = KIT.draft_panel(stub, game, draft([card]))
    assert panel.text == "To Cy: you give Acorn, you ask for nothing"
    assert labels(panel.controls) == [
        "What you give",
        "Cash you give…",
        "Cash you ask…",
        "Give the card",
        "Send",
        "Drop",
        "Done",
    ]
    assert [c.row for c in panel.controls] == [0, 2, 2, 2, 3, 3, 3], (
        "no select for a side with nothing to pick"
    )
    give = panel.controls[0]
    assert isinstance(give, Select) and give.max_values == 1 and give.combine is None, (
        "a toggle, one item a pick"
    )
    assert [c.modal for c in panel.controls if isinstance(c, Button) and c.modal] == ["pay", "ask"]


def test_a_game_with_sets_forms_for_the_recipient_and_a_home_draws_them() -> None:
    panel = HOME.draft_panel(Stub(kit=HOME), live(players=3), draft())
    give = panel.controls[0]
    assert isinstance(give, Select) and (give.min_values, give.max_values, give.combine) == (0, 1, "give")
    assert [c.modal for c in panel.controls if isinstance(c, Button) and c.modal] == ["pay.2", "ask.2"]
    assert labels(panel.controls)[-2:] == ["Back", "Done"] and [c.row for c in panel.controls[-2:]] == [4, 4]


def test_send_waits_for_the_engine_when_the_game_draws_only_legal_moves() -> None:
    game, stub = live(players=3), Stub()
    waiting = KIT.draft_panel(stub, game, draft(), legal=[Action("drop")])
    assert "Send" not in labels(waiting.controls) and waiting.text.endswith("\n(Not ready.)")
    ready = KIT.draft_panel(stub, game, draft(), legal=[Action("send"), Action("drop")])
    assert "Send" in labels(ready.controls) and "Not ready" not in ready.text


# --- routing --------------------------------------------------------------------------------------


def test_drafting_steps_stay_on_the_deal_panel_and_send_closes_it() -> None:
    game, stub = live(players=3), Stub(kit=HOME)
    for kind in ("deal", "give", "want", "pay", "ask", "card", "drop", "counter"):
        after = HOME.next_panel(stub, game, 0, applied(game, Action(kind, (1,))))
        assert after is not None and after.text == "deal panel of 0", kind
    for kind in ("send", "accept", "roll"):
        assert HOME.next_panel(stub, game, 0, applied(game, Action(kind))) is None, kind
    over = dataclasses.replace(game, status=GameStatus.FINISHED)
    assert HOME.next_panel(stub, over, 0, applied(over, Action("give"))) is None, (
        "a finished game opens no panel"
    )


def test_a_stale_button_finds_its_panel_the_draft_or_its_offer() -> None:
    game, stub = live(players=3), Stub([offer(3)], kit=HOME)
    for kind in ("deal", "give", "card", "pay", "send", "drop"):
        found = HOME.panel_for(stub, game, 0, Action(kind))
        assert found is not None and found.text == "deal panel of 0", kind
    for kind in ("accept", "reject", "counter", "withdraw"):
        found = HOME.panel_for(stub, game, 1, Action(kind, (3,)))
        assert found is not None and found.text.startswith("#3 from Ana"), kind
    assert HOME.panel_for(stub, game, 1, Action("accept", ("x",))) is None
    assert HOME.panel_for(stub, game, 1, Action("improve", ("acorn",))) is None, (
        "not the kit's: the game routes it"
    )


def test_the_kit_answers_its_own_ui_codes_only() -> None:
    game, stub = live(players=3), Stub([offer(2)])
    shown = KIT.on_ui(stub, game, 1, "offer.2")
    assert shown is not None and labels(shown.controls) == ["Accept #2", "Reject #2", "Counter", "Done"]
    closed = KIT.on_ui(stub, game, 1, "done")
    assert closed is not None and closed.text == "Closed."
    for code in ("offer.x", "offer.", "offer.²", "holdings"):
        assert KIT.on_ui(stub, game, 1, code) is None, code


# --- the cash forms and lines ---------------------------------------------------------------------


def test_cash_forms_are_recognised_only_in_the_shape_the_kit_draws() -> None:
    assert KIT.cash_form("pay") == CashForm("pay", None, gives=True)
    assert KIT.cash_form("ask") == CashForm("ask", None, gives=False)
    assert KIT.cash_form("pay.2") is None and KIT.cash_form("bid") is None
    assert HOME.cash_form("ask.2") == CashForm("ask", 2, gives=False)
    for kind in ("ask", "ask.x", "ask.2.3", "pay.02", ""):
        assert HOME.cash_form(kind) is None, kind


def test_a_cash_form_is_bounded_by_what_its_payer_holds() -> None:
    game, stub = live(players=3), Stub()
    cash = [5, 7, 11]
    pay, ask = CashForm("pay", None, gives=True), CashForm("ask", None, gives=False)
    given = KIT.form(stub, game, pay, seat=0, to=2, cash=cash)
    assert given is not None and (given.minimum, given.maximum) == (0, 5)
    assert (given.title, given.label, given.placeholder) == ("Cash you give Cy", "Cash (0 to 5)", "0")
    asked = KIT.form(stub, game, ask, seat=0, to=2, cash=cash)
    assert asked is not None and asked.maximum == 11 and asked.title == "Cash you ask from Cy"
    unknown = KIT.form(stub, game, pay, seat=None, to=2, cash=cash)
    assert unknown is not None and unknown.maximum == 23, "nobody's own cash: a bound that tells nothing"
    assert KIT.form(stub, game, pay, seat=0, to=3, cash=cash) is None
    dollars = OfferKit("deals", max_rows=1, money="deals.money").form(
        stub, game, pay, seat=0, to=2, cash=[1500, 0, 0]
    )
    assert dollars is not None and dollars.label == "Cash (0 to $1,500)"


def test_the_sender_and_catch_me_up_read_the_kits_lines() -> None:
    game, stub = live(players=3), Stub()
    sent = applied(
        game, Action("send"), [Event("draft_dropped", 0, {}), Event("offered", 0, {"offer": 4, "to_seat": 2})]
    )
    assert KIT.sent(stub, game, sent) == "#4 sent; Cy answers."
    assert KIT.sent(stub, game, applied(game, Action("give"))) is None
    assert KIT.summary(stub, game, {"give": "Acorn", "want": "$3"}, 1) == "Your draft to Bob: Acorn for $3."
