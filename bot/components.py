"""Restart-proof buttons and selects: every one is a ``DynamicItem``.

A custom_id carries everything needed to act on it (game id, the state
version it was drawn for, a compact action reference), so after a restart
nothing has to be re-registered and start-up time does not grow with the
number of games.  Templates are deliberately permissive (any character after
the prefix, newlines included): a malformed id is parsed here and answered with
a clear message instead of being dropped, which Discord would show as "This
interaction failed".

Prefixes: ``g`` engine action, ``u`` private panel, ``m`` number form,
``s`` select of actions, ``l`` lobby.  None of them carries hidden
information.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import discord

from bot.presenter import Button, Control, Select
from rules.core import Action

if TYPE_CHECKING:
    from bot.client import GameBot

MAX_ID = 100
# [0-9], not \d: \d also matches "١٢" and "１", which int() would happily read as 12 and 1.
_REF = re.compile(r"(?P<gid>[0-9]{1,12}):(?P<ver>[0-9]{1,9}):(?P<ref>[A-Za-z0-9_.\-]{1,80})")
_LOBBY = re.compile(r"(?P<gid>[0-9]{1,12}):(?P<op>join|leave|start|cancel|withdraw|rematch)")

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


def host(interaction: discord.Interaction) -> GameBot:
    return cast("GameBot", interaction.client)


def custom_id(prefix: str, game_id: int, version: int, ref: str) -> str:
    value = f"{prefix}:{game_id}:{version}:{ref}"
    if len(value) > MAX_ID:
        raise ValueError(f"custom_id too long ({len(value)} > {MAX_ID}): {value[:40]}...")
    return value


class RoutedButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"(?P<kind>[guml]):(?P<rest>(?s:.*))"
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
        bot = host(interaction)
        if not isinstance(self.item, discord.ui.Button):
            await bot.guarded(interaction, bot.tables.on_malformed(interaction, self.rest))
            return
        handlers = {
            "g": bot.tables.on_action_click,
            "u": bot.tables.on_panel_click,
            "m": bot.tables.on_form_click,
            "l": bot.lobby_desk.on_click,
        }
        handler = handlers.get(self.kind, bot.tables.on_malformed)
        await bot.guarded(interaction, handler(interaction, self.rest))


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
        bot = host(interaction)
        if not isinstance(self.item, discord.ui.Select):
            await bot.guarded(interaction, bot.tables.on_malformed(interaction, self.rest))
            return
        await bot.guarded(interaction, bot.tables.on_select(interaction, self.rest, list(self.item.values)))


DYNAMIC_ITEMS: tuple[type[discord.ui.DynamicItem[Any]], ...] = (RoutedButton, ActionSelect)
COMPONENT_PREFIXES = ("g:", "u:", "m:", "s:", "l:")
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


def build_view(game_id: int, version: int, controls: list[Control]) -> discord.ui.View | None:
    """A fully dynamic view: discord.py stores nothing per message for it."""
    if not controls:
        return None
    view = discord.ui.View(timeout=None)
    for index, control in enumerate(controls[:25]):
        if isinstance(control, Select):
            options = [
                discord.SelectOption(label=c.label[:100], value=c.action.encode(), description=c.description)
                for c in control.choices[:25]
            ]
            select: discord.ui.Select[Any] = discord.ui.Select(
                custom_id=custom_id("s", game_id, version, f"pick{index}"),  # ids are unique per message
                placeholder=control.placeholder[:150],
                options=options,
                row=control.row,
            )
            view.add_item(ActionSelect(select, f"{game_id}:{version}:pick{index}"))
            continue
        view.add_item(_button(game_id, version, control))
    return view


def _button(game_id: int, version: int, control: Button) -> RoutedButton:
    if control.action is not None:
        kind, ref = "g", control.action.encode()
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
        row=control.row,
        disabled=control.disabled,
        emoji=control.emoji,
    )
    return RoutedButton(button, kind, f"{game_id}:{version}:{ref}")


def decode_action(ref: str) -> Action:
    try:
        return Action.decode(ref)
    except ValueError:
        raise Malformed(ref) from None
