"""Shared fixtures: the test-only game is registered for every test."""

from __future__ import annotations

import tests.toygame  # noqa: F401  (registers the toy game)
