"""Discord presentation of the test game: buttons, a form, a private panel."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Self

from bot.services.sessions import LiveGame
from bot.ui.presenter import Button, Choice, Control, ModalSpec, Panel, Presenter, PresenterHost, Select
from rules.core import Action

if TYPE_CHECKING:
    import discord

TEXT = {
    "toy.option.target": "the total that ends the race",
    "toy.rules": "Take turns adding 1 to 3. Knock once per game, any time. Reach the target, then everyone presses gg.",
    "toy.event.added": "{player} adds {amount} (total {total}).",
    "toy.event.knocked": "{player} knocks.",
    "toy.event.target_reached": "The target is reached at {total}!",
    "toy.event.gg": "{player}: gg",
    "toy.private.peeked": "Your secret is {secret}.",
    "toy.private.rerolled": "Your new secret is {secret}.",
    "toy.status": "Total {total} of {target}. Waiting for {players}.",
    "toy.secret": "Your secret is {secret}; you have added {points}.",
    # Refusals: the engine raises IllegalAction("<key>", **params); the host words it from here.
    "toy.illegal.no_seat": "There is no such seat at this table.",
    "toy.illegal.unknown_action": "There is no such move in this game.",
    "toy.illegal.takes_no_arguments": "That move takes no arguments.",
    "toy.illegal.not_your_turn": "It is not your turn.",
    "toy.illegal.how_much": "Say how much to add.",
    "toy.illegal.add_range": "You can add 1 to 3, not {amount}.",
    "toy.illegal.race_over": "The race is over; press gg.",
    "toy.illegal.race_not_over": "The race is not over yet.",
    "toy.illegal.knocked_already": "You already knocked in this game.",
    "toy.illegal.rerolled_already": "You already rerolled your secret.",
    "toy.illegal.gg_already": "You already pressed gg.",
}
"""The game's own catalog: a test-only game ships its text here, not in ``bot/locales`` (a real
game writes the same keys in ``en.toml`` and ``fr.toml``)."""


class ToyPresenter(Presenter):
    game = "toy"

    @classmethod
    def for_host(cls, host: PresenterHost, /) -> Self:
        """A test game ships its text with it (:data:`TEXT`), added to the bot's catalog here."""
        host.catalog.extend("en", TEXT)
        return cls(host.catalog)

    def status(self, game: LiveGame, view: dict[str, Any]) -> str:
        players = ", ".join(game.names[s] for s in sorted(game.waiting()))
        return self.t(
            "toy.status", game.row.language, total=view["total"], target=view["target"], players=players
        )

    def controls(self, game: LiveGame) -> list[Control]:
        state = game.state
        if state.phase == "cheer":
            return [Button("gg", action=Action("gg"), style="success")]
        controls: list[Control] = [
            Button(f"Add {n}", action=Action("add", (n,)), style="primary") for n in (1, 2, 3)
        ]
        controls += [
            Button("Add…", modal="add"),
            Button("Knock", action=Action("knock")),
            Button("My secret", ui="secret"),
            Select("Or pick an amount", [Choice(f"Add {n}", Action("add", (n,))) for n in (1, 2, 3)]),
        ]
        return controls

    def modal(self, game: LiveGame, kind: str, seat: int | None = None) -> ModalSpec | None:
        if kind == "add":
            return ModalSpec("Add to the total", "How much? (1 to 3)", 0, 99)
        return None

    def panel_for(self, game: LiveGame, seat: int, action: Action) -> Panel | None:
        """Knock and Reroll live on the "My secret" panel."""
        return self.secret_panel(game, seat) if action.kind in ("knock", "reroll") else None

    def secret_panel(self, game: LiveGame, seat: int) -> Panel:
        view = game.entry.rules.view(game.state, seat)
        text = self.t("toy.secret", game.row.language, secret=view["secret"], points=view["points"][seat])
        controls: list[Control] = []
        if not game.state.knocked[seat] and game.state.phase == "play":
            controls.append(Button("Knock", action=Action("knock")))
        if not game.state.rerolled[seat] and game.state.phase == "play":
            controls.append(Button("Reroll my secret", action=Action("reroll")))
        return Panel(text, controls)

    async def on_ui(self, interaction: discord.Interaction, game: LiveGame, seat: int, code: str) -> Panel:
        if code == "secret":
            return self.secret_panel(game, seat)
        return await super().on_ui(interaction, game, seat, code)
