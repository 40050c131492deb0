"""Where a message offers an engine action, read the way a player reads it: the shared route kit.

A benchmark that plays by clicks picks a legal action from the engine and must then find the
control that makes it, as a player would, knowing nothing of the game's panels: the host's id
formats (``bot/ui/components.py``) say everything a control does.

- ``g:<game>:<version>:<action>``: a button that makes ``action`` (drawn for one public version);
  ``a:<game>:<stamp>:<action>``: the same, lasting across versions;
- ``s:<game>:<version>:pick…``: a select whose option values are encoded actions;
  ``s:<game>:<version>:set….<kind>``: a multi-select whose chosen values' arguments make one
  ``<kind>`` action;
- ``m:<game>:<version>:<kind>[.<leading args>]``: a number form completing the action with its
  last argument;
- ``u:<game>:<version>:<code>``: a button that opens a private panel (or a step shown on the
  table itself); ``h.*`` codes are the host's own (Catch me up, paging ``h.pg.<page>.<source>``,
  undo), not a game's panels.

:func:`control` says how a message offers one action, :func:`offered` which of a list of actions
it offers, :func:`openers` which game panels it opens, :func:`pages` how its list is paged.
They read SimCord's stored messages (payload dicts; classic rows and Components V2 layouts
alike, through :func:`benchmarks.torture_discord_common.components`).  ``thread_volume``'s
``ExploringDriver`` and ``discord_week``'s week of players use them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal

import simcord

from benchmarks.torture_discord_common import BUTTON, SELECT, components, stored_of
from rules.core import Action

ACTION_ID = re.compile(r"(?P<kind>[ga]):(?P<gid>[0-9]+):(?P<ver>[0-9]+):(?P<ref>.+)")
OPENER_ID = re.compile(r"u:(?P<gid>[0-9]+):(?P<ver>[0-9]+):(?P<code>.+)")
PAGE_ID = re.compile(r"u:(?P<gid>[0-9]+):[0-9]+:h\.pg\.(?P<page>[0-9]+)\.(?P<source>.+)")
HOST_CODES = "h."
"""Codes of the host's own buttons (Catch me up, paging, undo): never a game's panel."""


@dataclass(frozen=True, slots=True)
class Offer:
    """How a message offers an action: press a button, choose a select's values, or fill a form."""

    how: Literal["button", "select", "form"]
    custom_id: str
    values: tuple[str, ...] = ()
    """The select's values to choose (``select``), or the number to type (``form``, one value)."""


def enabled(message: Any) -> list[str]:
    """The custom_ids a player can press on a stored message (greyed-out ones are not)."""
    return [str(c.get("custom_id", "")) for c in components(message) if not c.get("disabled")]


def control(message: Any, game_id: int, version: int, action: Action) -> Offer | None:
    """How ``message`` offers ``action`` for table ``game_id`` at public ``version``, or ``None``."""
    code = action.encode()
    form = _form_id(game_id, version, action)
    form_at: str | None = None
    for component in components(message):
        if component.get("disabled"):
            continue
        cid = str(component.get("custom_id", ""))
        if component.get("type") == BUTTON:
            match = ACTION_ID.fullmatch(cid)
            if (
                match
                and int(match["gid"]) == game_id
                and match["ref"] == code
                and (match["kind"] == "a" or int(match["ver"]) == version)
            ):
                return Offer("button", cid)
            if form is not None and cid == form:
                form_at = cid
        elif component.get("type") == SELECT and cid.startswith(f"s:{game_id}:{version}:"):
            values = [str(o.get("value")) for o in component.get("options") or ()]
            if code in values:
                return Offer("select", cid, (code,))
            ref = cid.split(":", 3)[3]
            if ref.startswith("set") and ref.endswith(f".{action.kind}") and action.args:
                wanted = tuple(Action(action.kind, (arg,)).encode() for arg in action.args)
                low, high = int(component.get("min_values") or 1), int(component.get("max_values") or 1)
                if all(v in values for v in wanted) and low <= len(wanted) <= high:
                    return Offer("select", cid, wanted)
    if form_at is not None:
        return Offer("form", form_at, (str(action.args[-1]),))
    return None


def _form_id(game_id: int, version: int, action: Action) -> str | None:
    """The number form that completes ``action`` (its last argument a whole number), if any."""
    if not action.args or not isinstance(action.args[-1], int) or isinstance(action.args[-1], bool):
        return None
    return f"m:{game_id}:{version}:{Action(action.kind, action.args[:-1]).encode()}"


def offered(message: Any, game_id: int, version: int, actions: Iterable[Action]) -> dict[Action, Offer]:
    """Which of ``actions`` ``message`` offers, and how."""
    found = {}
    for action in actions:
        offer = control(message, game_id, version, action)
        if offer is not None:
            found[action] = offer
    return found


def openers(message: Any, game_id: int) -> list[str]:
    """The ui codes of the game panels ``message`` opens (enabled ``u:`` buttons, host ones left out)."""
    found: list[str] = []
    for cid in enabled(message):
        match = OPENER_ID.fullmatch(cid)
        code = match["code"] if match and int(match["gid"]) == game_id else HOST_CODES
        if not code.startswith(HOST_CODES) and code not in found:
            found.append(code)
    return found


@dataclass(slots=True)
class PageTurner:
    """Where to click next to look through a paged list: forward from where it stood, then back
    to its first page.  One per search; :meth:`step` is ``None`` once every page was seen."""

    game_id: int
    direction: int = 1
    first: int | None = None

    def step(self, message: Any) -> str | None:
        current, moves = pages(message, self.game_id)
        self.first = current if self.first is None else self.first
        step = moves.get(current + self.direction)
        if step is None and self.direction == 1 and self.first > 0:
            self.direction = -1
            step = moves.get(current - 1)
        return step


async def find_on_pages(
    env: simcord.Env,
    game_id: int,
    handle: Any,
    target: Callable[[Any], Any],
    click: Callable[[Any, str], Awaitable[object | None]],
) -> tuple[Any, Any] | None:
    """``target(message)`` on the message behind ``handle``, turning its pages (◀ ▶) forward, then
    back, when it is a list longer than one message; ``None`` if no page has it (or a page click
    went unanswered).  ``click(handle, custom_id)`` is the caller's own click (it counts them)."""
    message = stored_of(env, handle)
    turner = PageTurner(game_id)
    for _ in range(12):
        if message is None:
            return None
        found = target(message)
        if found is not None:
            return handle, found
        step = turner.step(message)
        if step is None or await click(handle, step) is None:
            return None
        message = stored_of(env, handle)
    return None


def pages(message: Any, game_id: int) -> tuple[int, dict[int, str]]:
    """The page a paged list shows (its greyed-out middle button) and the pages a click away
    (◀ and ▶, by page number); ``(0, {})`` for a list on one page."""
    current: int | None = None
    moves: dict[int, str] = {}
    for component in components(message):
        cid = str(component.get("custom_id", ""))
        match = PAGE_ID.fullmatch(cid)
        if match is None or int(match["gid"]) != game_id:
            continue
        number = int(match["page"])
        if component.get("disabled"):
            current = number if current is None else min(current, number)
        else:
            moves[number] = cid
    return current or 0, moves
