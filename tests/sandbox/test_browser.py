"""The sandbox's page in a real browser: Playwright (from PyPI) driving Debian's Chromium.

``python -m bot sandbox`` runs as a child process, exactly as a person starts it; the test opens
the address it prints, starts a California table with two bots by typing ``/game new`` in the
page's composer and pressing the lobby's buttons, buys a tile through the table's buttons, and
checks that a new board image arrived.  It saves a screenshot of the table under
``artifacts/sandbox/`` (git-ignored; the path is printed) for a person to look at.

Never skipped: without Chromium (``apt-get install chromium``; ``.ci/run`` installs it) or
Playwright (the dev extras), it fails saying so.  No browser is downloaded: Playwright is pointed
at the system's Chromium (``CHROMIUM``, or ``chromium`` on the PATH).

The page publishes a new revision when an action has settled; ``window.simcordPreview`` exposes
``ready``, ``lastAction`` (its ``sequence`` and ``settlement``) and ``pendingAction``, which is
what each step waits on.  Its content-security policy forbids eval, so the context bypasses it
for Playwright's ``wait_for_function``.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
ARTIFACTS = REPO / "artifacts" / "sandbox"
URL = re.compile(r"http://127\.0\.0\.1:\d+/#\S+")
STEP_MS = 60_000


def chromium() -> str:
    path = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not Path(path).is_file():
        pytest.fail(
            f"no Chromium at {path}: install Debian's (apt-get install -y chromium) or set CHROMIUM "
            "to a Chromium binary; this test is never skipped"
        )
    return path


@pytest.fixture
def sandbox_url(tmp_path: Path) -> Iterator[str]:
    """A sandbox started as a person starts it, its own database in ``tmp_path``."""
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


def _click(page: Any, button: Any) -> None:
    before = _sequence(page)
    button.click()
    _settled(page, before)


def _button(page: Any, text: str) -> Any:
    """The newest message's button with this text (the lobby's, or the live table's)."""
    return page.locator("#channel-message-list button.component-button", has_text=text).last


def _boards(page: Any) -> list[str]:
    """The board images shown, once every one has loaded (their sources)."""
    page.wait_for_function(
        """() => [...document.querySelectorAll('#channel-message-list img')]
            .every((img) => img.complete && img.naturalWidth > 0)""",
        timeout=STEP_MS,
    )
    return list(
        page.eval_on_selector_all(
            "#channel-message-list img[alt^='table-']", "(imgs) => imgs.map((img) => img.currentSrc)"
        )
    )


def test_a_california_table_with_two_bots_in_the_browser(sandbox_url: str) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.fail("Playwright is missing: install the dev extras (pip install -e '.[dev]')")
    started = time.perf_counter()
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium())
        try:
            context = browser.new_context(viewport={"width": 1280, "height": 1100}, bypass_csp=True)
            page = context.new_page()
            page.goto(sandbox_url)
            page.wait_for_function("() => window.simcordPreview && window.simcordPreview.ready")
            assert page.locator("#channel-name").inner_text() == "games"
            assert "/game new" in page.locator("#channel-topic").inner_text()

            # /game new name:california, typed in the composer as a person types it.
            composer = page.locator("#channel-composer-input")
            composer.click()
            composer.type("/game new")
            page.keyboard.press("Enter")
            page.keyboard.type("california")
            page.locator("#command-suggestion-listbox [role=option]", has_text="California").first.click()
            _click(page, page.locator("#send-message"))
            lobby = page.locator("#channel-message-list", has_text="table #1 is looking for players")
            lobby.wait_for(timeout=STEP_MS)

            _click(page, _button(page, "Add a bot"))
            _click(page, _button(page, "Add a bot"))
            assert "Ada (bot)" in page.inner_text("#channel-message-list")
            _click(page, _button(page, "Start"))
            page.locator("#channel-message-list", has_text="you to play").wait_for(timeout=STEP_MS)
            before = _boards(page)
            assert before, "no board image after the start"

            # A purchase through the table's buttons: a tile that goes to one place is one click
            # (its label names the place, "→"); any other tile shows its spaces, the affordable
            # ones green (success, style 3).
            one_click = _button(page, "→")
            if one_click.count():
                _click(page, one_click)
            else:
                _click(page, _button(page, "· from"))
                _click(page, page.locator("#channel-message-list button.button-style-3").last)
            page.locator("#channel-message-list", has_text="you bought").last.wait_for(timeout=STEP_MS)
            after = _boards(page)
            assert after and after[-1] not in before, "the purchase did not bring a new board image"

            # Hot-seat: the page switches to another member at this keyboard.
            you = page.evaluate("() => window.simcordPreview.viewerId")
            page.select_option("#viewer-picker", label="Ana")
            page.wait_for_function("(you) => window.simcordPreview.viewerId !== you", arg=you)
            page.select_option("#viewer-picker", label="you")
            page.wait_for_function(
                "(you) => { const s = window.simcordPreview; return s.viewerId === you && s.ready && s.complete; }",
                arg=you,
            )
            _boards(page)

            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            shot = ARTIFACTS / "california-table.png"
            page.locator("#channel-message-list img[alt^='table-']").last.scroll_into_view_if_needed()
            page.screenshot(path=str(shot))
            print(f"\nscreenshot of the table: {shot} ({time.perf_counter() - started:.1f} s in the browser)")
        finally:
            browser.close()
