"""A started toy table at the service level (no Discord), for session and race tests."""

from __future__ import annotations

from bot.services.lobby import LobbyService
from bot.services.sessions import LiveGame

ANA, BOB, EVE = 101, 102, 666


async def started(lobby: LobbyService, *, seed: int = 7, game: str = "toy", target: int = 12) -> LiveGame:
    """Ana hosts, Bob joins, the game starts with a fixed seed."""
    lobby_game = await lobby.create(
        game=game,
        options_text=f"target={target}",
        host_id=ANA,
        host_name="ana",
        guild_id=1,
        channel_id=2,
        language="en",
    )
    await lobby.join(lobby_game.id, BOB, "bob")
    return await lobby.start(lobby_game.id, ANA, seed=seed)


def on_turn(game: LiveGame) -> int:
    """The user whose turn it is (the toy game waits on one seat until its last phase)."""
    (seat,) = game.waiting()
    return game.user_of(seat)
