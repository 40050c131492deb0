"""A started toy table at the service level (no Discord): the set-up storage tests, service tests
and storage benchmarks share, so each of them says only what is particular to it."""

from __future__ import annotations

from bot.services.lobby import LobbyService
from bot.services.sessions import LiveGame


async def toy_table(
    lobby: LobbyService,
    *,
    host: int,
    players: int = 2,
    seed: int = 7,
    target: int = 12,
    host_name: str = "h",
) -> LiveGame:
    """``host`` opens a toy race to ``target`` and seats ``host + 1`` … join it (named p1, p2 …);
    it starts with ``seed``, so its dice are known."""
    made = await lobby.create(
        game="toy",
        options_text=f"target={target}",
        host_id=host,
        host_name=host_name,
        guild_id=1,
        channel_id=1,
        language="en",
    )
    for seat in range(1, players):
        await lobby.join(made.id, host + seat, f"p{seat}")
    return await lobby.start(made.id, host, seed=seed)
