"""No control that can only be refused (issue 24, item 3), for every game, language and player count.

Random positions of every game are drawn as the table draws them, and every control is pressed by
the players who may press it, through the layer below Discord that still holds the real refusal
logic: an action goes to the engine (``rules.apply`` on a copy of the state: what
``SessionService.act`` runs once the host's own checks, seat and version, have passed); a panel
button goes to the presenter's ``on_ui`` (what ``Clicks.on_panel_click`` calls), and the panel it
opens is judged in turn, one and two levels down; a form button to the presenter's ``modal`` and
its smallest number to the engine; the host's Undo to ``plan_undo`` (what ``UndoService.ask``
runs).  What counts as refused "for a reason the table already knew":

- an action on the **table** drawn for one seat (:meth:`Presenter.owner`: California's loans, for
  the player on turn) must be legal for that seat, whom the host names to anybody else who presses
  it; any other action on the table (seen and pressable by every seat) must be legal for at least one
  seat, and any other seat may be refused only because the button is somebody else's: it is not
  their turn, their bid, their decision (:data:`SOMEONE_ELSES`, the engine's keys), or, in a game
  with secrets, for a reason only the presser knows that the table keeps on purpose
  (:data:`SECRET`: The Estates' quick bids);
- a panel opened from the table must offer its seat a legal choice, or be one of the panels that
  only show (:data:`SHOW_ONLY`: a mansion, one's checks), or say the button is somebody else's
  (:data:`SOMEONE_ELSES_PANEL`);
- on a **private panel** (one seat sees it) every enabled action is legal for that seat, with no
  excuse;
- the host's Undo, when shown, takes back the last move of the player who made it (anyone else
  reads that it is not theirs);
- no two controls on one message (the table, or one panel) have the same label, and no two
  options of one select: two buttons that read the same but do different things (the French
  California table's two "pièce mauve [Ma] · dès 3") cannot be told apart, and two that do the
  same thing are one too many.

Races and stale buttons (``host.refuse.stale``/``changed``) are not judged: every press is made on
the position the control was drawn for.  Not judged here: "Catch me up" (it only tells, and is never
refused), multi-selects (a set of choices is one action; each game's presenter test judges them),
and whether the Undo verdict reaches a board drawn through Discord (``UndoDesk.prepare`` must run
before the board is drawn; the two tests at the end check the desk and its service).  A run is about
900 positions and 36,000 presses (``-s`` prints each parameter's), 25 to 40 seconds.  Each parameter is one game, player count and language
(``-k lastwill`` selects Last Will's); the size of a run is printed with ``-s``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import cogs.california
import cogs.estates
from benchmarks.torture_common import USER_BASE, open_services
from bot.core.i18n import Catalog
from bot.games import REGISTRY
from bot.services.sessions import LiveGame, Refusal
from bot.services.undo import Asked, UndoService, plan_undo, undoable_seat
from bot.storage.codes import GameStatus, How
from bot.storage.rows import GameRow, LogEntry, SeatRow
from bot.ui.presenter import Button, Control, Panel, Presenter, Select
from bot.ui.undo import UndoDesk, offer_undo
from cogs.california import CaliforniaPresenter
from cogs.estates import EstatesPresenter
from cogs.lastwill import LastWillPresenter
from cogs.monopoly import MonopolyPresenter
from rules.core import Action, IllegalAction
from rules.play import idle_actions
from rules.rng import Rng
from tests.bot.services.test_undo_service import find_undoable, play_in
from tests.helpers import TINY_PNG

PRESENTERS: dict[str, type[Presenter]] = {
    "california": CaliforniaPresenter,
    "estates": EstatesPresenter,
    "monopoly": MonopolyPresenter,
    "lastwill": LastWillPresenter,
}
PLAYERS = {
    "california": (2, 3, 4, 5),
    "estates": (2, 3, 4, 5),
    "monopoly": (2, 3, 4, 5, 6),
    "lastwill": (2, 3, 4, 5),
}
LANGUAGES = ("en", "fr")

SOMEONE_ELSES: dict[str, frozenset[str]] = {
    "california": frozenset({"coin_not_your_turn", "buy_not_your_turn"}),
    "estates": frozenset({"not_your_turn", "not_your_bid", "not_auctioneer", "not_your_piece"}),
    # no_fee: "Keep <site> mortgaged" / "Repay <site>" are the receiver's (the status names them);
    # already_high, auction_out, not_bidding: an open auction's bids are everyone's but the high
    # bidder's, those who passed and those not in it (a shortage's: the claimants'; the status names them);
    # bid_over_cash: an open auction's quick bids are for the bidders who can pay them (cash is public;
    # a bid nobody waited on can pay is never drawn, so one seat at least may press it)
    "monopoly": frozenset(
        {
            "not_your_turn",
            "not_your_bid",
            "not_recipient",
            "not_proposer",
            "not_asked",
            "no_fee",
            "already_high",
            "auction_out",
            "not_bidding",
            "bid_over_cash",
        }
    ),
    "lastwill": frozenset(
        {
            "not_your_turn",
            "not_your_plan",
            "not_your_draw",
            "not_your_errand",
            "other_answering",
            "host_picks",
        }
    ),
}
"""The engine's refusals that only say a table button is somebody else's (its turn, its bid)."""

SOMEONE_ELSES_PANEL: dict[str, tuple[str, ...]] = {
    "california": ("california.panel.not_your_turn",),
    "estates": ("estates.panel.not_your_bid", "estates.panel.not_your_decision"),
    "monopoly": ("monopoly.panel.offer",),
    "lastwill": (
        "lastwill.illegal.not_your_draw",
        "lastwill.panel.not_your_turn",
        "lastwill.panel.answer_other",
        "lastwill.panel.discard_done",
        "lastwill.panel.discard_none",
    ),
}
"""Catalog keys of a panel that says the same: the table button that opened it is not this seat's
now (somebody else's turn; Monopoly's offer panel names the deal's two players and shows others no
answer; Last Will's discards: this seat has chosen, or has nothing to discard, and others still
choose)."""

SECRET: dict[str, frozenset[str]] = {
    "california": frozenset(),
    "estates": frozenset({"bid_too_high"}),
    "monopoly": frozenset(),
    "lastwill": frozenset(),
}
"""Refusals of a public control for a reason only the presser knows, kept on purpose: The Estates'
quick bids are the same for everyone (bids cut to the bidder's secret money would reveal it), so
one beyond it is refused privately with the balance, next to "Other amount…" and Pass.  The
auctioneer's buy is not among them: it is decided on a private panel (``cogs/estates.py``)."""

SHOW_ONLY: dict[str, frozenset[str]] = {
    "california": frozenset({"mansion"}),
    "estates": frozenset({"checks"}),
    "monopoly": frozenset({"props"}),
    "lastwill": frozenset({"hand"}),
}
"""Table buttons whose panel shows the seat its own things, any time: a panel without a choice is fine."""

CLOSE = "done"
"""The ui code of a panel's Done/Close (it closes the panel): never judged as a choice."""

POSITIONS = {"california": 25, "estates": 30, "monopoly": 30, "lastwill": 25}
"""Positions judged per game, player count and language."""
STRIDE = {"california": 5, "estates": 5, "monopoly": 9, "lastwill": 7}
"""Moves of random play between two judged positions (a prime-ish stride visits varied phases)."""


@dataclass
class Tally:
    positions: int = 0
    pressed: int = 0
    findings: list[str] = field(default_factory=list)

    def find(self, where: str, what: str) -> None:
        if len(self.findings) < 40:
            self.findings.append(f"{where}: {what}")


def cases() -> Iterator[Any]:
    for game, counts in PLAYERS.items():
        for players in counts:
            for lang in LANGUAGES:
                yield pytest.param(game, players, lang, id=f"{game}-{players}-{lang}")


@pytest.fixture(autouse=True)
def _no_pictures(monkeypatch: pytest.MonkeyPatch) -> None:
    """Private panels' pictures are not under test here: a one-pixel stand-in keeps the run short."""
    monkeypatch.setattr(cogs.california, "render_mansion", lambda *args, **kwargs: TINY_PNG)
    monkeypatch.setattr(cogs.estates, "render_holdings", lambda *args, **kwargs: TINY_PNG)


@pytest.fixture(scope="module")
def catalog() -> Catalog:
    return Catalog.load()


def live(name: str, state: Any, players: int, lang: str, seed: int, public_version: int) -> LiveGame:
    """A live game around ``state``, as the session service hands it to a presenter."""
    entry = REGISTRY.get(name)
    assert entry is not None
    row = GameRow(
        id=1,
        guild_id=1,
        channel_id=2,
        thread_id=None,
        game=name,
        options={},
        seed=seed,
        status=GameStatus.ACTIVE,
        version=0,
        snapshot=None,
        host_id=1,
        language=lang,
        reason=None,
        created_at=0.0,
        updated_at=0.0,
        public_version=public_version,
        public_at=None,
    )
    seats = [SeatRow(seat=i, user_id=100 + i, name=f"P{i + 1}") for i in range(players)]
    status = GameStatus.ACTIVE if entry.rules.outcome(state) is None else GameStatus.FINISHED
    return LiveGame(row, entry, seats, state, 0, status, public_version=public_version)


def pressed_on(ephemeral: bool) -> Any:
    """The interaction a presenter's ``on_ui`` reads: only where the button was pressed."""
    return SimpleNamespace(message=SimpleNamespace(flags=SimpleNamespace(ephemeral=ephemeral)))


def refusal(game: LiveGame, seat: int, action: Action) -> str | None:
    """``None`` when the engine takes ``action`` from ``seat`` now, else its refusal's key."""
    rules = game.entry.rules
    if action in rules.legal_actions(game.state, seat):
        return None
    trial = rules.load(rules.dump(game.state))
    try:
        rules.apply(trial, seat, action)
    except IllegalAction as exc:
        return str(exc.key)
    return None


def actions_of(control: Control) -> list[Action]:
    """What pressing a control can send: a button's action, or each option of a one-value select."""
    if isinstance(control, Select):
        if control.max_values > 1 and control.combine is not None:
            return []  # a set of choices is one action: judged by the game's own presenter test
        return [choice.action for choice in control.choices]
    if control.action is not None and not control.disabled:
        return [control.action]
    return []


def label_of(control: Control) -> str:
    return control.placeholder if isinstance(control, Select) else control.label


def twins(controls: list[Control]) -> list[str]:
    """Labels shown twice on one message (buttons), or twice in one select."""
    out: list[str] = []
    seen: set[str] = set()
    for control in controls:
        if isinstance(control, Button):
            if control.label in seen:
                out.append(control.label)
            seen.add(control.label)
        else:
            options = [choice.label for choice in control.choices]
            out.extend(sorted({o for o in options if options.count(o) > 1}))
    return out


def template(catalog: Catalog, key: str, lang: str) -> re.Pattern[str]:
    """A catalog sentence as a pattern: its placeholders match anything."""
    text = catalog.own(key, lang) or catalog.own(key, "en") or key
    return re.compile(".*".join(re.escape(part) for part in re.split(r"\{[a-z_0-9]+\}", text)), re.S)


class Judge:
    """Presses every control of one position as the seats that may press it, and notes findings."""

    def __init__(self, presenter: Presenter, game: LiveGame, tally: Tally, where: str) -> None:
        self.presenter = presenter
        self.game = game
        self.tally = tally
        self.where = where
        name = game.entry.name
        lang = game.row.language
        self.elses = SOMEONE_ELSES[name]
        self.secret = SECRET[name]
        self.elses_panels = [template(presenter.catalog, key, lang) for key in SOMEONE_ELSES_PANEL[name]]
        self.show_only = SHOW_ONLY[name]
        self.players = len(game.seats)

    def find(self, what: str) -> None:
        self.tally.find(self.where, what)

    def distinct(self, controls: list[Control], on: str) -> None:
        for label in twins(controls):
            self.find(f"{on}: two controls read {label!r}")

    async def table(self, controls: list[Control]) -> None:
        self.distinct(controls, "the table")
        for control in controls:
            for action in actions_of(control):
                self.table_action(label_of(control), action)
            if isinstance(control, Button) and not control.disabled:
                if control.ui is not None:
                    for seat in range(self.players):
                        await self.table_panel(control, seat)
                elif control.modal is not None:
                    for seat in sorted(self.game.waiting()):
                        self.form(control, seat, on="the table")

    def table_action(self, label: str, action: Action) -> None:
        owner = self.presenter.owner(self.game, action)
        if owner is not None:
            # Drawn for one seat (California's loans): anybody else is told it is that seat's
            # (``Clicks._someone_elses``) before the engine sees it; the owner must be able to use it.
            self.tally.pressed += 1
            key = refusal(self.game, owner, action)
            if key is not None:
                self.find(f"table {label!r} ({action.encode()}) refused to its owner, seat {owner}: {key}")
            return
        keys: dict[int, str | None] = {}
        for seat in range(self.players):
            self.tally.pressed += 1
            keys[seat] = refusal(self.game, seat, action)
        if all(key is not None and key not in self.secret for key in keys.values()):
            self.find(
                f"table {label!r} ({action.encode()}) is refused to everyone: {sorted({k for k in keys.values() if k})}"
            )
            return
        for seat, key in keys.items():
            if key is not None and key not in self.elses | self.secret:
                self.find(f"table {label!r} ({action.encode()}) refused to seat {seat}: {key}")

    async def table_panel(self, control: Button, seat: int) -> None:
        assert control.ui is not None
        self.tally.pressed += 1
        panel = await self.open(control.ui, seat, ephemeral=False)
        if panel is None:
            return
        if panel.public:
            self.distinct(panel.controls, f"table {control.label!r} in place")
        if await self.choice(panel, seat, depth=1, on=f"table {control.label!r}"):
            return
        if control.ui in self.show_only or any(p.fullmatch(panel.text) for p in self.elses_panels):
            return
        turn = "waited on" if seat in self.game.waiting() else "not waited on"
        self.find(
            f"table {control.label!r} opens seat {seat} ({turn}) a panel with no choice: {panel.text!r}"
        )

    async def open(self, code: str, seat: int, *, ephemeral: bool) -> Panel | None:
        try:
            return await self.presenter.on_ui(pressed_on(ephemeral), self.game, seat, code)
        except Refusal as refused:
            self.find(f"ui {code!r} refused to seat {seat}: {refused.key}")
            return None

    async def choice(self, panel: Panel, seat: int, *, depth: int, on: str) -> bool:
        """Judges a panel's controls for ``seat``; whether it offers a legal choice."""
        if not panel.public:
            self.distinct(panel.controls, f"{on}'s panel")
        chosen = False
        for control in panel.controls:
            if isinstance(control, Select) or control.action is not None:
                for action in actions_of(control):
                    self.tally.pressed += 1
                    key = refusal(self.game, seat, action)
                    if key is None:
                        chosen = True
                    elif not panel.public or key not in self.elses:
                        self.find(
                            f"{on}: {label_of(control)!r} ({action.encode()}) refused to seat {seat}: {key}"
                        )
                if isinstance(control, Select) and control.max_values > 1:
                    chosen = True  # a set: the game's presenter test judges its combinations
                continue
            if control.disabled:
                continue
            if control.modal is not None:
                chosen |= self.form(control, seat, on=on)
            elif control.ui is not None and control.ui != CLOSE and depth < 3:
                self.tally.pressed += 1
                inner = await self.open(control.ui, seat, ephemeral=True)
                if inner is not None and depth < 2:
                    chosen |= await self.choice(inner, seat, depth=depth + 1, on=f"{on} > {control.label!r}")
        return chosen

    def form(self, control: Button, seat: int, *, on: str) -> bool:
        assert control.modal is not None
        self.tally.pressed += 1
        spec = self.presenter.modal(self.game, control.modal, seat)
        if spec is None:
            self.find(f"{on}: form {control.label!r} does not open for seat {seat}")
            return False
        lead = Action.decode(control.modal)
        key = refusal(self.game, seat, Action(lead.kind, (*lead.args, spec.minimum)))
        if key is not None and key not in self.elses | (self.secret if on == "the table" else frozenset()):
            self.find(
                f"{on}: form {control.label!r} refuses seat {seat} its smallest number {spec.minimum}: {key}"
            )
        return key is None

    def undo(self, entries: list[LogEntry], seed: int, options: dict[str, Any]) -> None:
        """The host's Undo, when it is shown: the last mover takes their move back, others read it is not theirs."""
        rules = self.game.entry.rules
        may = undoable_seat(rules, self.players, options, seed, entries)
        if not offer_undo(self.game, may):
            return
        for seat in range(self.players):
            self.tally.pressed += 1
            try:
                plan_undo(rules, self.players, options, seed, entries, seat)
            except Refusal as refused:
                if refused.key != "host.undo.refuse_not_yours":
                    self.find(f"Undo refused to seat {seat}: {refused.key}")


def walk(name: str, players: int, seed: int) -> Iterator[tuple[Any, list[LogEntry], int]]:
    """Random legal play (out-of-turn moves included), yielding a position every few moves with
    its log and public version, until enough positions were seen or the game ended."""
    rules = REGISTRY.get(name)
    assert rules is not None
    engine = rules.rules
    options = dict(engine.play_options)
    state = engine.setup(players, options, seed)
    rng = Rng(seed ^ 0xC0DE)
    entries: list[LogEntry] = []
    public = 0
    seen = 0
    step = 0
    while seen < POSITIONS[name]:
        if engine.outcome(state) is not None:
            return
        if step % STRIDE[name] == STRIDE[name] - 1:
            seen += 1
            yield state, entries, public
        step += 1
        waiting = engine.waiting_for(state)
        idle = idle_actions(engine, state, players, waiting) if rng.next64() % 5 == 0 else {}
        seat = rng.choice(sorted(idle)) if idle else rng.choice(sorted(waiting))
        actions = idle[seat] if idle else engine.legal_actions(state, seat)
        action = rng.choice(actions)
        events = engine.apply(state, seat, action)
        finished = engine.outcome(state) is not None
        after = frozenset() if finished else engine.waiting_for(state)
        if finished or after != waiting or any(e.visible_to is None for e in events):
            public += 1
        entries.append(LogEntry(len(entries) + 1, seat, 100 + seat, action, 0.0, How.PLAYER, 0, None))


@pytest.mark.parametrize(("name", "players", "lang"), list(cases()))
async def test_no_control_can_only_be_refused(catalog: Catalog, name: str, players: int, lang: str) -> None:
    presenter = PRESENTERS[name](catalog)
    tally = Tally()
    seed = players * 1009 + (lang == "fr")
    for state, entries, public in walk(name, players, seed):
        game = live(name, state, players, lang, seed, public)
        tally.positions += 1
        judge = Judge(presenter, game, tally, f"{name} {players}p {lang} seed {seed} move {len(entries)}")
        await judge.table(presenter.controls(game))
        judge.undo(entries, seed, dict(game.entry.rules.play_options))
    print(f"{name} {players}p {lang}: {tally.positions} positions, {tally.pressed} presses")
    assert not tally.findings, "\n".join(tally.findings)


# --- the host's Undo, through its service ---------------------------------------------------------


def desk(undo: UndoService, catalog: Catalog) -> UndoDesk:
    """The Undo desk over just enough of the clicks and the publisher: the words and the lists it
    registers in."""
    publisher = SimpleNamespace(
        host_controls=[],
        host_prepares=[],
        t=lambda key, lang, **params: catalog.text(key, lang, **params),
    )
    clicks = SimpleNamespace(publisher=publisher, host_clicks={})
    # Deliberately stand-ins: the desk reads only what it was given above.
    return UndoDesk(clicks, undo)  # type: ignore[arg-type]


async def test_undo_is_not_shown_after_a_move_nobody_may_take_back(tmp_path: Path, catalog: Catalog) -> None:
    """Monopoly's opening roll rolled dice: once the desk has read the log, the board has no Undo
    (before the issue, every Monopoly board showed one to all, refused to everyone)."""
    entry = REGISTRY.get("monopoly")
    assert entry is not None
    state = entry.rules.setup(3, dict(entry.rules.play_options), 5)
    waiting = sorted(entry.rules.waiting_for(state))
    first = (waiting[0], entry.rules.legal_actions(state, waiting[0])[0])
    services = await open_services(tmp_path / "store.sqlite3")
    try:
        undo = UndoService(services.sessions)
        board = desk(undo, catalog)
        game_id = await play_in(
            services.sessions, services.lobby, "monopoly", 5, 3, dict(entry.rules.play_options), [first]
        )
        game = await services.sessions.load(game_id)
        assert game.public_version > 0
        assert board.button(game) is not None, "not prepared: shown, and judged when pressed"
        await board.prepare(game)
        assert undo.known(game) == (True, None)
        assert board.button(game) is None
        for seat in range(3):
            with pytest.raises(Refusal) as refused:
                await undo.ask(game_id, USER_BASE + seat, game.public_version)
            assert refused.value.key in ("host.undo.refuse_revealed", "host.undo.refuse_not_yours")
    finally:
        await services.store.close()


async def test_undo_is_shown_while_its_mover_may_take_the_move_back(tmp_path: Path, catalog: Catalog) -> None:
    """A move that revealed nothing: Undo shows, takes it back for its player, and tells anybody
    else that it is not theirs; once taken back, the verdict is read again."""
    seed, players, options, log = find_undoable("california", want_dropped=False)
    services = await open_services(tmp_path / "store.sqlite3")
    try:
        undo = UndoService(services.sessions)
        board = desk(undo, catalog)
        game_id = await play_in(services.sessions, services.lobby, "california", seed, players, options, log)
        game = await services.sessions.load(game_id)
        await board.prepare(game)
        known, mover = undo.known(game)
        assert known and mover is not None
        assert isinstance(board.button(game), Button)
        other = (mover + 1) % players
        with pytest.raises(Refusal) as refused:
            await undo.ask(game_id, USER_BASE + other, game.public_version)
        assert refused.value.key == "host.undo.refuse_not_yours"
        result = await undo.ask(game_id, USER_BASE + mover, game.public_version)
        if isinstance(result, Asked):
            for seat in sorted(result.others):
                await undo.answer(game_id, USER_BASE + seat, result.request.version, accept=True)
        after = await services.sessions.load(game_id)
        assert undo.known(after)[0] is False, "the game changed: the verdict is read again"
    finally:
        await services.store.close()
