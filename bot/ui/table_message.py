"""The table message on Discord's layout components (Components V2).

A live board is one container, read top to bottom as a player reads a game: its heading (with
"Catch me up" beside it), the lines of the current turn, the status and whom it waits on, the
board picture with its description in words, then the controls.  The sandbox draws the same
components in the same order, so a phone shows the board before any button.

What Discord's layout messages forbid, and how this module keeps to it (Discord's docs,
``components/reference`` and ``resources/message``, repository discord/discord-api-docs):

- no ``content`` and no embeds: every word is a text display, so an edit passes
  ``content=None`` (a classic board posted before this module becomes a layout at its next edit;
  the flag can be set by an edit, never removed);
- at most 40 components in all, nested ones counted: a table draws at most five action rows of
  five (the paging of :func:`bot.ui.components.layout`), plus seven of its own (:func:`count`);
- at most 4,000 characters of text across the message: each part is clipped (:data:`BUDGET`);
- a media item's description (alt text) holds at most 1,024 characters (:data:`ALT_LIMIT`);
- a mention in a text display notifies as in ``content``, under the message's
  ``allowed_mentions``: the publisher still names exactly whom to ping.

A folded board (history) is a single text display: no container, no picture, no controls.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import discord

from bot.core.i18n import clip
from bot.ui.components import button_item, item_rows
from bot.ui.presenter import Button, Control
from rules.core import Action

COMPONENT_LIMIT = 40
TEXT_LIMIT = 4000
ALT_LIMIT = 1024
BUDGET = {"head": 200, "lines": 2000, "status": 1500}
"""Characters each text part may use; together under :data:`TEXT_LIMIT`."""

_MENTION = re.compile(r"<@!?([0-9]+)>")
_MARKUP = re.compile(r"(\*\*|__|~~|\*|`|\|\|)")


@dataclass(frozen=True, slots=True)
class Picture:
    """The board as an attachment of the message, and what it shows in words."""

    filename: str
    description: str

    @property
    def url(self) -> str:
        return f"attachment://{self.filename}"


def table_view(
    game_id: int,
    version: int,
    *,
    head: str,
    lines: Sequence[str],
    status: str,
    controls: list[Control],
    aside: Button | None = None,
    picture: Picture | None = None,
    accent: int | None = None,
    page: int = 0,
    source: str | None = None,
    labels: tuple[str, str] = ("◀", "▶"),
    lasting: Callable[[Action], int | None] | None = None,
) -> discord.ui.LayoutView:
    """A live board (or final standings): heading, turn lines, status, picture, controls.

    ``aside`` is drawn beside the heading (a section's accessory) rather than among the
    controls.  Never raises for a control it cannot draw (see :func:`item_rows`).
    """
    parts: list[discord.ui.Item[Any]] = []
    heading = discord.ui.TextDisplay[Any](clip(head, BUDGET["head"]) or "\u200b")
    accessory = button_item(game_id, version, aside) if aside is not None else None
    if accessory is not None:
        parts.append(discord.ui.Section[Any](heading, accessory=accessory))
    else:
        parts.append(heading)
    text = "\n".join(lines)
    if text:
        parts.append(discord.ui.TextDisplay[Any](_tail(text, BUDGET["lines"])))
    if status:
        parts.append(discord.ui.TextDisplay[Any](clip(status, BUDGET["status"])))
    if picture is not None:
        item = discord.MediaGalleryItem(picture.url, description=clip(picture.description, ALT_LIMIT) or None)
        parts.append(discord.ui.MediaGallery[Any](item))
    for row in item_rows(
        game_id, version, controls, page=page, source=source, labels=labels, lasting=lasting
    ):
        parts.append(discord.ui.ActionRow[Any](*row))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.Container[Any](*parts, accent_colour=accent))
    return view


def folded(text: str) -> discord.ui.LayoutView:
    """A board folded into history: its lines only."""
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(discord.ui.TextDisplay[Any](_tail(text, TEXT_LIMIT) or "\u200b"))
    return view


def count(view: discord.ui.LayoutView) -> int:
    """Components in a layout, nested ones included (Discord allows :data:`COMPONENT_LIMIT`)."""
    return sum(1 for _ in view.walk_children())


def text_of(message: discord.Message) -> str:
    """The words a message shows: its content, or its text displays in order (a layout)."""
    if not message.flags.components_v2:
        return message.content
    found: list[str] = []

    def walk(components: Sequence[Any]) -> None:
        for component in components:
            if isinstance(component, discord.TextDisplay):
                found.append(component.content)
            walk(getattr(component, "children", None) or [])

    walk(message.components)
    return "\n".join(found)


def plain(text: str, names: Callable[[int], str | None]) -> str:
    """``text`` for a description: mentions as names, no markdown marks."""

    def name(match: re.Match[str]) -> str:
        return names(int(match[1])) or ""

    return _MARKUP.sub("", _MENTION.sub(name, text))


def _tail(text: str, limit: int) -> str:
    """The end of ``text`` when it is too long: the newest lines of a turn matter most."""
    return text if len(text) <= limit else "…" + text[-(limit - 1) :]
