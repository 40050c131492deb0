"""``/game list`` words each table's status in the reader's language.

The status is stored as a code (``lobby``, ``active``...); the list line is an answer to one
player, so the status is worded from ``host.lobby.list_status`` in that player's language, as the
rest of the line is, and a code never reaches a player.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import simcord

from bot.core.i18n import Catalog
from bot.storage import OPEN_STATUSES, GameStatus
from harness.messages import response_of, words_of
from tests.bot.ui.test_language import open_table, start
from tests.helpers import en, fr
from tests.simcord import make_bot

CATALOG = Catalog.load()


@pytest.mark.parametrize("language", CATALOG.languages)
def test_every_status_has_its_words(language: str) -> None:
    missing = [s for s in GameStatus if CATALOG.own(f"host.lobby.list_status.{s}", language) is None]
    assert not missing, f"{language} has no words for the statuses {missing}"


async def test_the_list_words_statuses_in_the_readers_language(
    tmp_path: Path, french_clients: set[int]
) -> None:
    async with simcord.run(make_bot(tmp_path), strict_sync=False) as env:
        running, lobby = await open_table(env, ["ana", "bob"], game="toy", language="fr")
        await start(running, lobby, fr("host.lobby.join"), fr("host.lobby.start"))
        await running.players[0].slash(running.channel, "game new", name="toy")  # waits for players
        ana = running.players[0]

        english = words_of(response_of(await ana.slash(running.channel, "game list")).message)
        french_clients.add(ana.id)
        french = words_of(response_of(await ana.slash(running.channel, "game list")).message)

    for text, words in ((english, en), (french, fr)):
        lines = text.splitlines()[1:]
        assert len(lines) == 2, text
        assert f" · {words('host.lobby.list_status.active')} · " in lines[0], lines[0]
        assert f" · {words('host.lobby.list_status.lobby')} · " in lines[1], lines[1]
        assert not any(f" · {code} · " in text for code in OPEN_STATUSES), (
            f"a status code reached the player: {text}"
        )
    assert "en cours" in french and "cherche des joueurs" in french
