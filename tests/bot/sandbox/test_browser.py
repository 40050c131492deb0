"""The sandbox's page in a real browser: Playwright (from PyPI) driving Debian's Chromium.

``python -m bot sandbox`` runs as a child process, exactly as a person starts it; the test opens
the address it prints and plays as Alex, the member at the keyboard:

- at a desktop's size, a California table with two bots, started by typing ``/game new`` in the
  page's composer and pressing the lobby's buttons; a tile bought through the table's buttons
  brings a new board image; "Viewing as" switches to Ana and back;
- at a phone's width (400 px), a Last Will table with a bot, whose message reads status, then
  board, then buttons; Alex discards two cards through the select menu of the private reply (the
  newest message), which must open where it is (the page does not jump) and whose choice the
  table applies.

Controls are found by their role and label (button, combobox, option), never by how a message is
built, so the test holds for a classic message and a Components V2 layout alike.  Screenshots of
both tables go to ``artifacts/sandbox/`` (git-ignored; the paths are printed).

Where it runs (:func:`chromium_verdict`): wherever Chromium is found (``CHROMIUM``, else
``chromium`` on the PATH, else ``/usr/bin/chromium``), and always in CI: with ``CI=true`` a missing
Chromium fails the test.  Elsewhere it is skipped, and the run ends with one line saying how to
enable it (``tests/bot/sandbox/conftest.py``), so the README's test command passes on a machine
without Chromium.  A ``CHROMIUM`` that names no file fails everywhere: it was asked for.  No
browser is ever downloaded; Playwright itself comes with the dev extras and its absence fails.

The page publishes a new revision when an action has settled; ``window.simcordPreview`` exposes
``ready``, ``lastAction`` (its ``sequence`` and ``settlement``) and ``pendingAction``, which is
what each step waits on.  Its content-security policy forbids eval, so the context bypasses it
for Playwright's ``wait_for_function``.

Why a select menu could close as it opened (SimCord 3.2.1, ``simcord/preview/static``): opening
one re-renders every message of the page (``app.js`` ``localRender`` passes ``force``), which makes
every image anew; an image is sized before it loads only from the published manifest
(``media.js`` ``renderMedia``), and a classic attachment never is (``.attachment-image`` is
``width: auto`` in a shrink-to-fit box).  The page shrinks by the images' height, then grows back
as they load, the menu's trigger leaves the screen and ``select-drafts.js`` ``fitOpenDropdowns``
closes the menu.  A media gallery image (Components V2) whose size the manifest knows keeps its
height, so the test waits for the board images to load before it asks for the private reply.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

from tests.helpers import en

if TYPE_CHECKING:
    from playwright.sync_api import ViewportSize

REPO = Path(__file__).resolve().parents[3]
ARTIFACTS = REPO / "artifacts" / "sandbox"
URL = re.compile(r"http://127\.0\.0\.1:\d+/#\S+")
STEP_MS = 60_000
DESKTOP: ViewportSize = {"width": 1280, "height": 1100}
PHONE: ViewportSize = {"width": 400, "height": 800}
SYSTEM_CHROMIUM = "/usr/bin/chromium"
HOW_TO_ENABLE = "apt-get install chromium, or set CHROMIUM=/path/to/chromium"
TRUE = {"1", "true", "yes"}

Verdict = tuple[Literal["run", "skip", "fail"], str]


def chromium_verdict(
    environ: Mapping[str, str],
    which: Callable[[str], str | None] = shutil.which,
    is_file: Callable[[str], bool] = os.path.isfile,
) -> Verdict:
    """Whether the browser test runs, and with which Chromium; else why not (one line).

    ``("run", path)`` when Chromium is found: ``CHROMIUM``, else ``chromium`` on the PATH, else
    :data:`SYSTEM_CHROMIUM`.  Without one, ``("fail", why)`` in CI (``CI`` true, as CI services
    set it) and ``("skip", how to enable it)`` elsewhere.  A ``CHROMIUM`` that is no file fails
    everywhere: whoever set it meant the test to run.
    """
    named = environ.get("CHROMIUM")
    if named:
        if is_file(named):
            return "run", named
        return "fail", f"CHROMIUM={named} is not a file: point it at a Chromium binary, or unset it"
    found = which("chromium") or (SYSTEM_CHROMIUM if is_file(SYSTEM_CHROMIUM) else None)
    if found:
        return "run", found
    if environ.get("CI", "").strip().lower() in TRUE:
        return "fail", f"no Chromium, and CI always runs the sandbox's browser test: {HOW_TO_ENABLE}"
    return "skip", f"no Chromium, so the sandbox's browser test did not run: {HOW_TO_ENABLE}"


@pytest.fixture
def chromium() -> str:
    verdict, detail = chromium_verdict(os.environ)
    if verdict == "skip":
        pytest.skip(detail)
    if verdict == "fail":
        pytest.fail(detail)
    return detail


@pytest.fixture
def sandbox_url(chromium: str, tmp_path: Path) -> Iterator[str]:
    """A sandbox started as a person starts it, its own database in ``tmp_path`` (only once
    Chromium is known to be there: a skip costs nothing)."""
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN" and not k.startswith("GAMEHOST_")}
    env.update(PYTHONPATH=str(REPO), GAMEHOST_SANDBOX_DB=str(tmp_path / "sandbox.sqlite3"))
    child = subprocess.Popen(
        [sys.executable, "-m", "bot", "sandbox"],
        cwd=tmp_path,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout is not None
        line = child.stdout.readline()
        found = URL.search(line)
        assert found, (line, child.stderr.read() if child.poll() is not None and child.stderr else "")
        yield found.group(0)
    finally:
        child.send_signal(signal.SIGTERM)
        _, err = child.communicate(timeout=30)
        assert "Traceback" not in err, err
        assert not re.search(r"WARNING.*no thread", err), "the sandbox's channel allows no threads by design"


def _sequence(page: Any) -> int:
    return int(page.evaluate("() => (window.simcordPreview.lastAction || {sequence: 0}).sequence"))


def _settled(page: Any, after: int) -> None:
    """Wait until an action newer than ``after`` has settled and the page shows its result."""
    page.wait_for_function(
        """(after) => { const s = window.simcordPreview;
            return s.ready && !s.pendingAction && s.lastAction && s.lastAction.sequence > after
                && s.lastAction.settlement === 'settled'; }""",
        arg=after,
        timeout=STEP_MS,
    )


def _click(page: Any, control: Any) -> None:
    before = _sequence(page)
    control.click()
    _settled(page, before)


def _messages(page: Any) -> Any:
    return page.locator("#channel-message-list")


def _button(page: Any, label: str) -> Any:
    """The newest message's button whose label holds ``label`` (the lobby's, the table's...)."""
    return _messages(page).get_by_role("button", name=label).last


def _boards(page: Any) -> list[str]:
    """The board images shown, once every one has loaded (their sources)."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('#channel-message-list img')]
            .every((img) => img.complete && img.naturalWidth > 0)""",
        timeout=STEP_MS,
    )
    return list(
        page.eval_on_selector_all(
            "#channel-message-list img",
            "(imgs) => imgs.filter((img) => img.naturalWidth > 300).map((img) => img.currentSrc)",
        )
    )


def _new_table(page: Any, game: str, title: str, bots: int) -> None:
    """``/game new name:<game>`` typed in the composer as a person types it, bots, Start."""
    composer = page.locator("#channel-composer-input")
    composer.click()
    composer.type("/game new")
    page.keyboard.press("Enter")
    page.keyboard.type(game)
    page.locator("#command-suggestion-listbox [role=option]", has_text=title).first.click()
    _click(page, page.locator("#send-message"))
    _messages(page).get_by_text(re.compile(rf"{title}.*is looking for players")).last.wait_for(
        timeout=STEP_MS
    )
    for _ in range(bots):
        _click(page, _button(page, en("host.lobby.bot_normal")))
    _click(page, _button(page, en("host.lobby.start")))


def _box(locator: Any) -> dict[str, float]:
    box = locator.bounding_box()
    assert box is not None, locator
    return dict(box)


def _resting_y(page: Any, locator: Any) -> float:
    """Where an element is on the screen once the page has stopped scrolling (two looks 100 ms
    apart agree): the page scrolls to its newest message a moment after it shows it."""
    page.wait_for_function(
        """(el) => { const y = el.getBoundingClientRect().y, same = el.__restingY === y;
            el.__restingY = y; return same; }""",
        arg=locator.element_handle(),
        polling=100,
        timeout=STEP_MS,
    )
    return float(_box(locator)["y"])


def _california_at_a_desk(page: Any) -> None:
    _new_table(page, "california", "California", bots=2)
    assert "Ada (bot)" in _messages(page).inner_text()
    _messages(page).get_by_text("Alex to play").last.wait_for(timeout=STEP_MS)
    before = _boards(page)
    assert before, "no board image after the start"

    # A purchase through the table's buttons: a tile that goes to one place is one click (its
    # label names the place, "→"); any other tile shows its spaces, the affordable ones green.
    one_click = _button(page, "→")
    if one_click.count():
        _click(page, one_click)
    else:
        _click(page, _button(page, "· from"))
        _click(page, _messages(page).locator("button.button-style-3").last)
    _messages(page).get_by_text("Alex bought").last.wait_for(timeout=STEP_MS)
    after = _boards(page)
    assert after and after[-1] not in before, "the purchase did not bring a new board image"

    # Hot-seat: the page switches to another member at this keyboard, and back.
    alex = page.evaluate("() => window.simcordPreview.viewerId")
    page.select_option("#viewer-picker", label="Ana")
    page.wait_for_function("(alex) => window.simcordPreview.viewerId !== alex", arg=alex)
    page.select_option("#viewer-picker", label="Alex")
    page.wait_for_function(
        "(alex) => { const s = window.simcordPreview; return s.viewerId === alex && s.ready && s.complete; }",
        arg=alex,
    )
    _boards(page)
    _shot(page, "california-table.png")


def _last_will_on_a_phone(page: Any) -> None:
    page.set_viewport_size(PHONE)
    _new_table(page, "last", "Last Will", bots=1)
    discard = en("lastwill.button.discard")
    _button(page, discard).wait_for(timeout=STEP_MS)
    _boards(page)  # loaded, so the page knows their size before the menu re-renders it

    # Status, board, controls: the table's words, then its image, then its buttons.
    table = _messages(page).locator("article", has=page.get_by_role("button", name=discard)).last
    status = _box(table.get_by_text(re.compile(r"\bRound 1\b")).first)
    board = _box(table.locator("img").last)
    controls = _box(table.get_by_role("button", name=discard))
    assert status["y"] + status["height"] <= board["y"], "the status should come before the board"
    assert board["y"] + board["height"] <= controls["y"], "the board should come before the buttons"
    _shot(page, "lastwill-phone.png", table.locator("img").last)

    # The private reply's select menu (the newest message): open it, pick two cards, apply.
    _click(page, _button(page, discard))
    menu = _messages(page).get_by_role("combobox", name=en("lastwill.select.discard_other", count=2)).last
    menu.scroll_into_view_if_needed()
    where = _resting_y(page, menu)
    menu.click()
    # The page re-renders to open a menu: once it is ready again (its images loaded), the menu
    # must still be open and where it was.
    page.wait_for_function("() => window.simcordPreview.ready", timeout=STEP_MS)
    listbox = page.get_by_role("listbox").last
    assert listbox.is_visible(), "the select menu closed as it opened (see this module's docstring)"
    moved = _resting_y(page, menu)
    assert abs(moved - where) < 40, (
        f"the page jumped: the menu's trigger moved from y={where:.0f} to {moved:.0f}"
    )
    options = listbox.get_by_role("option")
    chosen = [options.nth(i).inner_text().splitlines()[0].strip() for i in range(2)]
    for i in range(2):
        options.nth(i).click()
        assert listbox.is_visible(), "a pick closed the menu of a select of two"
    _click(
        page,
        page.get_by_role("group", name="SimCord selection draft actions").get_by_role("button", name="Apply"),
    )
    reply = _messages(page).get_by_text("You discard").last.inner_text()
    assert all(card in reply for card in chosen), (chosen, reply)
    _messages(page).get_by_text(en("lastwill.event.discarded", player="Alex")).last.wait_for(timeout=STEP_MS)


def _shot(page: Any, name: str, focus: Any = None) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shot = ARTIFACTS / name
    if focus is not None:
        focus.scroll_into_view_if_needed()
    page.screenshot(path=str(shot))
    print(f"\nscreenshot: {shot}")


def test_a_california_table_and_a_last_will_discard_in_the_browser(chromium: str, sandbox_url: str) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: install the dev extras (pip install -e '.[dev]')")
    started = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium)
        try:
            context = browser.new_context(viewport=DESKTOP, bypass_csp=True)
            page = context.new_page()
            page.goto(sandbox_url)
            page.wait_for_function("() => window.simcordPreview && window.simcordPreview.ready")
            assert page.locator("#channel-name").inner_text() == "games"
            assert "/game new" in page.locator("#channel-topic").inner_text()
            _california_at_a_desk(page)
            _last_will_on_a_phone(page)
            print(f"{time.perf_counter() - started:.1f} s in the browser")
        finally:
            browser.close()


@pytest.mark.parametrize(
    ("environ", "on_path", "files", "verdict"),
    [
        ({}, "/usr/local/bin/chromium", set(), ("run", "/usr/local/bin/chromium")),
        ({}, None, {SYSTEM_CHROMIUM}, ("run", SYSTEM_CHROMIUM)),
        ({"CHROMIUM": "/opt/chrome"}, "/usr/bin/chromium", {"/opt/chrome"}, ("run", "/opt/chrome")),
        ({"CI": "true"}, "/usr/bin/chromium", {SYSTEM_CHROMIUM}, ("run", "/usr/bin/chromium")),
        ({}, None, set(), ("skip", HOW_TO_ENABLE)),
        ({"CI": "false"}, None, set(), ("skip", HOW_TO_ENABLE)),
        ({"CI": "true"}, None, set(), ("fail", HOW_TO_ENABLE)),
        ({"CI": "1"}, None, set(), ("fail", HOW_TO_ENABLE)),
        ({"CHROMIUM": "/nowhere"}, "/usr/bin/chromium", {SYSTEM_CHROMIUM}, ("fail", "CHROMIUM=/nowhere")),
    ],
)
def test_the_browser_test_runs_where_chromium_is_and_in_ci_else_says_how_to_enable_it(
    environ: dict[str, str], on_path: str | None, files: set[str], verdict: Verdict
) -> None:
    what, detail = chromium_verdict(environ, which=lambda name: on_path, is_file=lambda path: path in files)
    assert what == verdict[0] and verdict[1] in detail, (what, detail)
    assert "\n" not in detail, "one line"
