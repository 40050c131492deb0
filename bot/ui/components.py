"""Restart-proof buttons and selects: every one is a ``DynamicItem``.

A custom_id carries everything needed to act on it (game id, the state
version it was drawn for, a compact action reference), so after a restart
nothing has to be re-registered and start-up time does not grow with the
number of games.  Templates are deliberately permissive (any character after
the prefix, newlines included): a malformed id is parsed here and answered with
a clear message instead of being dropped, which Discord would show as "This
interaction failed".

Prefixes: ``g`` engine action (drawn for one public version), ``a`` lasting
engine action (drawn for what it means: the engine's fingerprint, hashed, in
place of the version), ``u`` private panel, ``m`` number form, ``s`` select of
actions, ``l`` lobby.  None of them carries hidden information.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace
from typing import Any, Protocol, cast

import discord

from bot.ui.presenter import Button, Control, Select
from rules.core import Action

log = logging.getLogger(__name__)

MAX_ID = 100
# [0-9], not \d: \d also matches "١٢" and "１", which int() would happily read as 12 and 1.
_REF = re.compile(r"(?P<gid>[0-9]{1,12}):(?P<ver>[0-9]{1,9}):(?P<ref>[A-Za-z0-9_.\-]{1,80})")
_LOBBY = re.compile(
    r"(?P<gid>[0-9]{1,12}):(?P<op>join|leave|start|cancel|withdraw|rematch|bot_easy|bot_normal|unbot)"
)

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


class Malformed(ValueError):
    """A custom_id that this bot did not produce (or no longer understands)."""


@dataclass(frozen=True, slots=True)
class Ref:
    game_id: int
    version: int
    ref: str


def parse_ref(rest: str) -> Ref:
    match = _REF.fullmatch(rest)
    if not match:
        raise Malformed(rest)
    return Ref(int(match["gid"]), int(match["ver"]), match["ref"])


Handler = Callable[[discord.Interaction, str], Awaitable[None]]


class Router(Protocol):
    """What a component needs from the client that received its click (``GameBot`` is one).

    Components sit below the services that answer them, so they ask for a handler by the id's
    kind instead of importing the client: a test or a sandbox can route clicks its own way.
    """

    def handler(self, kind: str) -> Handler:
        """The handler for an id of this kind (``g``, ``a``, ``u``, ``m``, ``l``; else malformed)."""
        ...

    async def on_select(self, interaction: discord.Interaction, rest: str, values: list[str]) -> None: ...

    async def guarded(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """Run a handler so that it always answers, even when it fails."""
        ...


def host(interaction: discord.Interaction) -> Router:
    return cast(Router, interaction.client)


def custom_id(prefix: str, game_id: int, version: int, ref: str) -> str:
    value = f"{prefix}:{game_id}:{version}:{ref}"
    if len(value) > MAX_ID:
        raise ValueError(f"custom_id too long ({len(value)} > {MAX_ID}): {value[:40]}...")
    return value


class RoutedButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?P<kind>[gumla]):(?P<rest>(?s:.*))"
):
    """Every button the bot draws; the first letter of its id says which handler answers it."""

    def __init__(self, item: discord.ui.Button[Any], kind: str, rest: str) -> None:
        super().__init__(item)
        self.kind = kind
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> RoutedButton:
        return cls(cast(discord.ui.Button[Any], item), match["kind"], match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        router = host(interaction)
        kind = self.kind if isinstance(self.item, discord.ui.Button) else "malformed"
        await router.guarded(interaction, router.handler(kind)(interaction, self.rest))


class ActionSelect(discord.ui.DynamicItem[discord.ui.Select[Any]], template=r"s:(?P<rest>(?s:.*))"):
    """A dropdown whose option values are encoded engine actions."""

    def __init__(self, item: discord.ui.Select[Any], rest: str) -> None:
        super().__init__(item)
        self.rest = rest

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> ActionSelect:
        return cls(cast(discord.ui.Select[Any], item), match["rest"])

    async def callback(self, interaction: discord.Interaction) -> None:
        router = host(interaction)
        if not isinstance(self.item, discord.ui.Select):
            await router.guarded(interaction, router.handler("malformed")(interaction, self.rest))
            return
        await router.guarded(interaction, router.on_select(interaction, self.rest, list(self.item.values)))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RoutedButton, ActionSelect)
COMPONENT_PREFIXES = ("g:", "a:", "u:", "m:", "s:", "l:")
"""Ids the dynamic items above answer (any component type: a wrong one gets the malformed reply)."""
FORM_PREFIX = "n:"
"""Number forms, answered from ``GameBot.on_interaction`` so they survive a restart."""


def parse_lobby(rest: str) -> tuple[int, str]:
    match = _LOBBY.fullmatch(rest)
    if not match:
        raise Malformed(rest)
    return int(match["gid"]), match["op"]


def lobby_button(game_id: int, op: str, label: str, style: str) -> RoutedButton:
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=label, style=STYLES[style], custom_id=f"l:{game_id}:{op}"
    )
    return RoutedButton(button, "l", f"{game_id}:{op}")


MAX_ROWS = 5
ROW_WIDTH = 5
MAX_OPTIONS = 25
"""Discord's limits: 5 action rows, 5 buttons or one select per row, 25 options per select."""

PAGE = "h.pg"
"""The host's paging buttons: ``h.pg.<page>.<source>``, where ``source`` is the panel's ui code
(``table`` for the table itself), so a click redraws that list at that page."""


def page_code(page: int, source: str) -> str:
    return f"{PAGE}.{page}.{source}"


def parse_page(code: str) -> tuple[int, str] | None:
    """``(page, source)`` of a paging button's code, or ``None`` when it is not one."""
    prefix, _, rest = code.partition(".")
    kind, _, rest = rest.partition(".")
    number, _, source = rest.partition(".")
    if f"{prefix}.{kind}" != PAGE or not number.isascii() or not number.isdigit() or not source:
        return None
    return int(number), source


def layout(controls: list[Control], page: int = 0) -> tuple[list[list[Control]], int, int]:
    """Rows of controls within Discord's limits: ``(rows of this page, page, pages)``.

    A select longer than 25 options is cut into several selects (a set chosen in one
    multi-select cannot span two, so presenters keep those to 25).  Rows a game asked for
    are kept in their order, a row wider than five buttons spills into the next, and
    controls without a row fill the first row with room.  More than five rows are paged:
    four rows a page, and the fifth holds Previous and Next.
    """
    rows: list[list[Control]] = []
    explicit: dict[int, list[Control]] = {}
    loose: list[Control] = []
    for control in _split_selects(controls):
        if control.row is None:
            loose.append(control)
        else:
            explicit.setdefault(control.row, []).append(control)
    for _, group in sorted(explicit.items()):
        current: list[Control] = []
        for control in group:
            if isinstance(control, Select):
                rows.append([control])
                continue
            if len(current) == ROW_WIDTH:
                current = []
            if not current:
                rows.append(current)
            current.append(control)
    for control in loose:
        if isinstance(control, Select):
            rows.append([control])
            continue
        room = next((r for r in rows if r and isinstance(r[0], Button) and len(r) < ROW_WIDTH), None)
        if room is None:
            room = []
            rows.append(room)
        room.append(control)
    rows = [r for r in rows if r]
    if len(rows) <= MAX_ROWS:
        return rows, 0, 1
    per_page = MAX_ROWS - 1
    pages = -(-len(rows) // per_page)
    page = min(max(page, 0), pages - 1)
    return rows[page * per_page : (page + 1) * per_page], page, pages


def _split_selects(controls: list[Control]) -> list[Control]:
    out: list[Control] = []
    for control in controls:
        if not isinstance(control, Select) or len(control.choices) <= MAX_OPTIONS:
            out.append(control)
            continue
        chunks = [control.choices[i : i + MAX_OPTIONS] for i in range(0, len(control.choices), MAX_OPTIONS)]
        for number, chunk in enumerate(chunks):
            first = number * MAX_OPTIONS + 1
            placeholder = f"{control.placeholder} ({first}–{first + len(chunk) - 1})"
            out.append(
                replace(
                    control,
                    choices=chunk,
                    placeholder=placeholder,
                    max_values=min(control.max_values, len(chunk)),
                )
            )
    return out


def build_view(rows: list[list[discord.ui.DynamicItem[Any]]]) -> discord.ui.View | None:
    """Rows of items (:func:`item_rows`) as a fully dynamic view: discord.py stores nothing per
    message for it. ``None`` for no rows, as Discord refuses an empty view.

    For a private panel or a lobby; the table itself is a layout (:mod:`bot.ui.table_message`)
    drawn from the same rows, so drawing (``item_rows``) and wrapping are apart.
    """
    if not rows:
        return None
    view = discord.ui.View(timeout=None)
    for number, row in enumerate(rows):
        for item in row:
            item.item.row = number
            view.add_item(item)
    return view


def item_rows(
    game_id: int,
    version: int,
    controls: list[Control],
    *,
    page: int = 0,
    source: str | None = None,
    labels: tuple[str, str] = ("◀", "▶"),
    lasting: Callable[[Action], int | None] | None = None,
) -> list[list[discord.ui.DynamicItem[Any]]]:
    """The controls as rows of restart-proof items, at most five rows.

    Never raises: a control that cannot be drawn (an action too long for a custom_id, a
    duplicate) is left out with a log line, so a committed move always reaches the table.
    ``source`` is the ui code that draws this list again (for the paging buttons); without
    one, a list too long for one message shows its first page only.  ``lasting`` gives an
    action's stamp when its button should outlast other moves (``a:`` instead of ``g:``).
    """
    if not controls:
        return []
    rows, page, pages = layout(controls, page)
    out: list[list[discord.ui.DynamicItem[Any]]] = []
    seen: set[str] = set()
    for number, row in enumerate(rows):
        drawn: list[discord.ui.DynamicItem[Any]] = []
        for index, control in enumerate(row):
            try:
                item = _item(game_id, version, control, f"{number}x{index}", lasting)
            except ValueError as exc:
                log.error("game %s: a control was left out of a view: %s", game_id, exc)
                continue
            if item.item.custom_id in seen:
                continue
            seen.add(item.item.custom_id)
            drawn.append(item)
        if drawn:
            out.append(drawn)
    if pages > 1 and source is not None:
        back, forward = labels
        nav = [
            Button(back, ui=page_code(page - 1, source), disabled=page == 0),
            Button(f"{page + 1}/{pages}", ui=page_code(page, source), disabled=True),
            Button(forward, ui=page_code(page + 1, source), disabled=page == pages - 1),
        ]
        drawn = []
        for index, control in enumerate(nav):
            try:
                item = _button(game_id, version, control)
            except ValueError as exc:
                log.error("game %s: paging left out: %s", game_id, exc)
                break
            if item.item.custom_id in seen:
                item.item.custom_id = f"{item.item.custom_id}.{index}"[:MAX_ID]
            drawn.append(item)
        if drawn:
            out.append(drawn)
    return out


def button_item(game_id: int, version: int, control: Button) -> RoutedButton | None:
    """One restart-proof button (a section's accessory), or ``None`` when it cannot be drawn."""
    try:
        return _button(game_id, version, control)
    except ValueError as exc:
        log.error("game %s: a button was left out: %s", game_id, exc)
        return None


def _item(
    game_id: int,
    version: int,
    control: Control,
    tag: str,
    lasting: Callable[[Action], int | None] | None = None,
) -> discord.ui.DynamicItem[Any]:
    if isinstance(control, Button):
        marked = lasting(control.action) if lasting is not None and control.action is not None else None
        if marked is not None:
            return _button(game_id, marked, control, kind="a")
        return _button(game_id, version, control)
    options = [
        discord.SelectOption(
            label=c.label[:100] or "?",
            value=c.action.encode(),
            description=c.description[:100] if c.description else None,
        )
        for c in control.choices[:MAX_OPTIONS]
    ]
    if not options or any(len(o.value) > 100 for o in options):
        raise ValueError(f"a select with no options or an action too long: {control.placeholder[:40]!r}")
    multi = control.max_values > 1 and control.combine is not None
    ref = f"set{tag}.{control.combine}" if multi else f"pick{tag}"
    select: discord.ui.Select[Any] = discord.ui.Select(
        custom_id=custom_id("s", game_id, version, ref),  # ids are unique per message
        placeholder=control.placeholder[:150],
        options=options,
        min_values=max(0, min(control.min_values, len(options))) if multi else 1,
        max_values=min(control.max_values, len(options)) if multi else 1,
    )
    return ActionSelect(select, f"{game_id}:{version}:{ref}")


def _button(game_id: int, version: int, control: Button, kind: str = "g") -> RoutedButton:
    """One button; ``ValueError`` when it cannot be drawn (no target, an id over 100 characters).

    ``kind="a"``: a lasting action, ``version`` then being its stamp.
    """
    if control.action is not None:
        ref = control.action.encode()
    elif control.ui is not None:
        kind, ref = "u", control.ui
    elif control.modal is not None:
        kind, ref = "m", control.modal
    else:
        raise ValueError(f"button {control.label!r} does nothing")
    button: discord.ui.Button[Any] = discord.ui.Button(
        label=control.label[:80],
        style=STYLES[control.style],
        custom_id=custom_id(kind, game_id, version, ref),
        disabled=control.disabled,
        emoji=control.emoji,
    )
    return RoutedButton(button, kind, f"{game_id}:{version}:{ref}")


def decode_action(ref: str) -> Action:
    try:
        return Action.decode(ref)
    except ValueError:
        raise Malformed(ref) from None
