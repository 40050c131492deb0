"""The sandbox's tests: the line that says how to run the browser test where it was skipped."""

from __future__ import annotations

import pytest


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """Where Chromium is missing, ``test_browser.py`` is skipped (outside CI): say so in one line
    at the end of the run, with how to enable it, unless ``-rs`` already lists skip reasons."""
    chars = str(getattr(terminalreporter.config.option, "reportchars", "") or "")
    if any(c in chars for c in "sSaA"):
        return
    for report in terminalreporter.stats.get("skipped", []):
        if "test_browser.py::" not in getattr(report, "nodeid", ""):
            continue
        longrepr = report.longrepr
        reason = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
        terminalreporter.write_line(reason.removeprefix("Skipped: "), yellow=True)
