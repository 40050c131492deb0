"""One language per table: a French table of every game, from its lobby to its final standings,
shows no English.

Each game is opened with ``/game new language: fr`` by a player whose Discord client is French
(``french_clients``), joined by a second French player and an easy bot (Last Will: no bot), and
played to the end by clicks (Monopoly with deals): a seeded script picks a legal move for a person the table waits on and reaches it as a
player would (a button on the table, a private panel, a select, a form; the routes of
``benchmarks/discord_week.py``).  On the way the players press what players press: Catch me up,
Undo my last move (and answer another's request), ``/game show`` after a restart, ``/game list``,
``/game mine``, ``/game rules`` in the thread; someone not seated presses a button.

Everything the bot sent Discord is collected from SimCord's request log (message contents, V2
text displays, button labels, select placeholders and options, media descriptions, embeds,
ephemeral replies, modal titles, labels and placeholders), with every string a picture handed to
Pillow (``drawn``).  None may carry English: :class:`English` looks for every English catalog
value that differs from its French one, as whole strings and lines (a one-word button), and as
the literal fragments of two words or more between its placeholders ("You asked {players} to let
you take back…" gives "You asked" and "to let you take back your last move").

Everything the bot sent Discord also includes a thread's name, the lobby and its options, a
rematch's lobby, and what happens around play (``test_a_french_lobby_…``: joining, leaving, bots,
a player leaving a running game, an abandoned lobby).  A player's own Discord language still rules
what the host answers that player alone (README, ``/game new``): ``test_an_english_client_…`` has
an English client at a French table.

Speed: private panels' views are timed out every few moves (``drain``) and SimCord looks for the
bot going idle every millisecond (``quick_settle``), as the benchmarks' drivers do; a whole game
then takes a few seconds.
"""

from __future__ import annotations

import bisect
import itertools
import random
import re
import string
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

import pytest
import simcord
from simcord.results import InteractionResult, ResponseMessage

from benchmarks.click_routes import enabled, find_on_pages
from benchmarks.discord_week import WEIGHTS, Week
from benchmarks.thread_volume import MONOPOLY_WEIGHTS
from benchmarks.torture_discord_common import (
    clickable,
    custom_ids,
    drain,
    quick_settle,
    stored_of,
    undeliverable,
)
from bot.client import GameBot
from bot.core.i18n import shipped
from bot.games import REGISTRY
from bot.services.sessions import LiveGame
from harness.messages import response_of
from rules.core import Action
from tests.helpers import en, fr
from tests.simcord import make_bot, pinned_seed

fixed_seed = pinned_seed()

GAMES: dict[str, tuple[str | None, bool]] = {
    "california": (None, True),
    "estates": (None, True),
    "monopoly": ("turns=4", True),
    "lastwill": (None, False),
}
"""Each game, the table options that keep it short (Monopoly: four rounds), and whether an easy
bot takes a third seat (not in Last Will, whose rounds are long enough with two)."""
MAX_MOVES = 600
"""Moves by the people, at most, before a game counts as stuck."""


# --- what may not be shown --------------------------------------------------------------------


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W\d_]+(?:['’][^\W\d_]+)*", text)


def _literal(template: str, between: str = "") -> str:
    """A catalog template without its placeholders (``between`` where each one was)."""
    try:
        parts = list(string.Formatter().parse(template))
    except ValueError:
        return template
    return "".join(text + (between if name is not None else "") for text, name, *_ in parts)


class English:
    """English from the catalog that a French table must never show.

    Built from every key of the host's (``host.*``) and the game's whose English value differs
    from its French one:

    - ``whole``: the English value itself (placeholders formatted away are not whole), matched
      against a whole string or line (a button "Pass", a drawn "STORE");
    - ``fragments``: the literal parts between placeholders and markdown, of two words or more,
      matched as words inside any text;
    - ``codes``: a colour's English letters (``[<game>.code]``), as sentences and labels write
      them beside a number or a name: "(3 Gn)", "[Gn]", "3 Gn";
    - ``shapes``: a one-line template with its placeholders as wildcards ("{player} wins"),
      matched against whole strings and lines, when one of its words is in no French value.

    Fragments any French value also contains (a proper name, "Last Will", "Bingo") are left out,
    as are strings that are also a French value.
    """

    def __init__(self, game: str) -> None:
        catalog = shipped()
        english = {key: catalog.own(key, "en") or "" for key in catalog.keys("en")}
        french = {key: catalog.own(key, "fr") or "" for key in catalog.keys("fr")}
        french_text = "\n".join(_literal(v, "\n") for v in french.values()).lower()
        french_values = {v.strip() for v in french.values()}
        french_words = {w.lower() for w in _words(french_text)}
        self.whole: dict[str, str] = {}
        self.shapes: list[tuple[re.Pattern[str], str]] = []
        codes = {
            value: key
            for key, value in english.items()
            if key.startswith(f"{game}.code.") and value != french.get(key) and value not in french_values
        }
        self.codes = re.compile(
            rf"(?:[(\[]|\b\d+ )({'|'.join(map(re.escape, codes)) or '(?!)'})(?:[)\]]|$)", re.MULTILINE
        )
        self.code_keys = codes
        self.fragments: dict[str, str] = {}
        for key, value in english.items():
            if not key.startswith(("host.", f"{game}.")) or value == french.get(key):
                continue
            literal = "".join(text for text, *_ in string.Formatter().parse(value))
            whole = value.strip()
            if literal == value and len(re.sub(r"\W", "", whole)) >= 2 and whole not in french_values:
                self.whole.setdefault(whole, key)
            english_words = {w.lower() for w in _words(literal)} - french_words
            if literal != value and "\n" not in whole and any(len(w) > 2 for w in english_words):
                shape = "".join(
                    re.escape(text) + (".+?" if name is not None else "")
                    for text, name, *_ in string.Formatter().parse(whole)
                )
                self.shapes.append((re.compile(shape), key))
            for text, *_ in string.Formatter().parse(value):
                for part in re.split(r"[*_`\n|•·:;()\[\]<>\"“”]+", text):
                    part = part.strip(" ,.!?…–—-/'’")
                    if len(_words(part)) < 2 or part.lower() in french_text:
                        continue
                    self.fragments.setdefault(part, key)
        self.shaped = re.compile("|".join(f"(?:{shape.pattern})" for shape, _ in self.shapes))

    def found(self, texts: Iterable[str]) -> list[str]:
        """``"<key>: <text>"`` for each English string or fragment in ``texts`` (once each), and
        ``"giveaway: <word>"`` for an English word no French sentence has (a string that is in no
        catalog: "standard rules" once was)."""
        seen: dict[str, str] = {}
        unique = list(dict.fromkeys(texts))
        # Fragments: searched in all the texts at once (one search per fragment), then placed.
        everything = "\x00".join(unique)
        starts = list(itertools.accumulate((len(t) + 1 for t in unique), initial=0))
        for fragment, key in self.fragments.items():
            at = everything.find(fragment)
            while at >= 0:
                end = at + len(fragment)
                if not (at and everything[at - 1].isalnum()) and not (
                    end < len(everything) and everything[end].isalnum()
                ):
                    seen.setdefault(f"{key}: {fragment!r}", unique[bisect.bisect_right(starts, at) - 1])
                    break
                at = everything.find(fragment, at + 1)
        for text in unique:
            for match in GIVEAWAYS.finditer(NAMES.sub("", text)):
                seen.setdefault(f"giveaway: {match.group(0)!r}", text)
            for piece in {text.strip(), *(line.strip(" *_>#-") for line in text.splitlines())}:
                if piece in self.whole:
                    seen.setdefault(f"{self.whole[piece]}: {piece!r}", text)
                if self.shapes and self.shaped.fullmatch(piece):
                    key = next(key for shape, key in self.shapes if shape.fullmatch(piece))
                    seen.setdefault(f"{key}: {piece!r}", text)
            for match in self.codes.finditer(text):
                seen.setdefault(f"{self.code_keys[match.group(1)]}: {match.group(1)!r}", text)
        return [f"{what}   in {clip(text)!r}" for what, text in sorted(seen.items())]


GIVEAWAYS = re.compile(
    r"(?<![\w'’-])(the|and|you|your|with|of|is|are|has|have|this|that|from|for|not|was|who|which)(?![\w'’-])"
)
"""Lower-case English words that no French sentence of ours contains."""
NAMES = re.compile(r"Getting the Sack")
"""Proper names that keep their English words in French (Last Will's expansion)."""


def clip(text: str, limit: int = 160) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- what the bot showed ------------------------------------------------------------------------

TEXT_KEYS = frozenset({"content", "label", "placeholder", "title", "description", "name", "value", "text"})
"""Keys of a payload whose string a player reads (``value`` only in embeds' fields)."""


def _strings(node: Any, parent: str = "") -> Iterator[str]:
    """Every player-visible string in a payload the bot sent: message contents, components at any
    depth (V2 text displays, sections, containers, buttons, selects and their options, media
    descriptions), embeds, modals (title, labels, placeholders)."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("custom_id", "url", "allowed_mentions", "attachments", "emoji", "message_reference"):
                continue
            if isinstance(value, str):
                if key in TEXT_KEYS and not (key == "value" and parent != "fields"):
                    if key == "name" and parent not in ("fields", "author"):
                        continue
                    yield value
            else:
                yield from _strings(value, key)
    elif isinstance(node, list):
        for item in node:
            yield from _strings(item, parent)


def sent(env: simcord.Env, since: int = 0) -> list[str]:
    """Every string the bot sent Discord since request ``since`` (command syncs left out)."""
    found: list[str] = []
    for entry in env.backend.http_requests[since:]:
        if "/commands" in entry.path or entry.json is None:
            continue
        found.extend(_strings(entry.json))
        if entry.method == "POST" and entry.path.endswith("/threads") and isinstance(entry.json, dict):
            found.append(str(entry.json.get("name") or ""))  # a thread's name, in the channel list
    return [s for s in found if s.strip()]


# --- playing by clicks --------------------------------------------------------------------------

DEALING = {**MONOPOLY_WEIGHTS, "deal": 0.3, "counter": 0.5}
"""Monopoly's moves by weight, deals included (``benchmarks/thread_volume.py``): a deal is drafted,
sent, countered and answered, so an offer's words are seen too."""
PANELS = (":h.catchup", ":mansion", ":checks", ":props", ":deal", ":hand", ":h.undo")
"""Private panels a player opens besides moves (each game's own, Catch me up), and Undo last."""


class Player:
    """A person at the table: a SimCord member who clicks (a script picks what)."""

    def __init__(self, member: Any, seat: int) -> None:
        self.member = member
        self.seat = seat


class French:
    """A French table of one game, played by clicks to its end (see the module docstring)."""

    def __init__(self, env: simcord.Env, bot: GameBot, rng: random.Random, french: set[int]) -> None:
        self.env = env
        self.bot = bot
        self.rng = rng
        self.french = french
        self.moves = 0

    async def open(self, game: str, options: str | None, with_bot: bool) -> None:
        env = self.env
        self.guild = env.create_guild()
        self.channel = self.guild.create_text_channel("jeux")
        ana, bea = (self.guild.add_member(env.create_user(name)) for name in ("ana", "bea"))
        self.eve = self.guild.add_member(env.create_user("eve"))  # French, not seated
        self.french.update({ana.id, bea.id, self.eve.id})
        kwargs: dict[str, Any] = {"name": game, "language": "fr"}
        if options:
            kwargs["options"] = options
        created = await ana.slash(self.channel, "game new", **kwargs)
        lobby = response_of(created).message
        await bea.click(lobby, label=fr("host.lobby.join"))
        if with_bot:
            await ana.click(lobby, label=fr("host.lobby.bot_easy"))
        await ana.click(lobby, label=fr("host.lobby.start"))
        self.game_id = max(row.id for row in await self.bot.store.games.list_games())
        live = await self.load()
        seats = {m.id: live.seat_of(m.id) for m in (ana, bea)}
        assert None not in seats.values(), "both people are seated"
        self.people = [Player(m, seat) for m in (ana, bea) if (seat := seats[m.id]) is not None]

    async def load(self) -> LiveGame:
        return await self.bot.sessions.load(self.game_id)

    @property
    def place(self) -> int:
        """The table's thread (or channel)."""
        channels = self.env.backend.channels.values()
        thread = next((c for c in channels if getattr(c, "parent_id", None) == self.channel.id), None)
        return thread.id if thread is not None else self.channel.id

    def board(self) -> ResponseMessage | None:
        """The live board: the newest public message with the table's controls."""
        pattern = re.compile(rf"[gumsa]:{self.game_id}:")
        found = self.env.backend.messages.get(self.place, {})
        for key in sorted(found, reverse=True):
            message = found[key]
            if not message.is_ephemeral and any(
                pattern.match(cid) and not cid.endswith(":h.catchup") for cid in custom_ids(message)
            ):
                return clickable(self.env, message)
        return None

    async def settle(self) -> None:
        await self.bot.bots.idle()

    async def play(self) -> None:
        while self.moves < MAX_MOVES:
            await self.settle()
            live = await self.load()
            if live.status != "active":
                break
            people = [p for p in self.people if p.seat in live.waiting()]
            if not people:
                await self.env.advance_time(5)
                continue
            person = self.rng.choice(people)
            self.moves += 1
            if self.moves % 15 == 0:
                await drain(self.env)  # private panels' views time out: SimCord stops watching them
            if self.moves in (3, 40):
                await self.extras(person)
            if self.moves == 25:
                await self.restart(person)
                continue
            if not await self.move(person, live):
                raise AssertionError(f"no legal move of seat {person.seat} could be reached by clicks")
        assert (await self.load()).status == "finished", f"not over after {self.moves} moves"

    async def extras(self, person: Player) -> None:
        """What players press besides moves: their private panels, Catch me up, Undo (answered by
        the other), a button pressed by someone not seated and by the other player, ``/game list``
        and ``/game mine``."""
        board = self.board()
        assert board is not None
        prefix = f"u:{self.game_id}:"
        for cid in custom_ids(stored_of(self.env, board)):
            if cid.startswith(prefix) and cid.endswith(PANELS):
                await self.click(person, board, cid)
        other = next(p for p in self.people if p is not person)
        for message in self.env.backend.messages.get(self.place, {}).values():
            for cid in custom_ids(message):
                if cid.endswith(":h.undo.yes") and not message.is_ephemeral:
                    await self.click(other, clickable(self.env, message), cid)
                    break
        board = self.board()
        if board is not None:
            game_ids = [c for c in custom_ids(stored_of(self.env, board)) if c.startswith(("g:", "u:"))]
            if game_ids:
                await self.eve.click(board, custom_id=game_ids[0])
                await self.click(other, board, game_ids[0])  # maybe not theirs to press
        await person.member.slash(self.channel, "game list")
        await person.member.slash(self.channel, "game mine")

    async def restart(self, person: Player) -> None:
        """A restart, then ``/game show`` in the table's thread (as the sandbox does after one)."""
        await self.settle()
        self.bot = make_bot(Path(self.bot.settings.database).parent)
        await self.env.restart_bot(self.bot)
        shown = await person.member.slash(self.channel.threads[0], "game show")
        assert fr("host.lobby.shown", id=self.game_id) in answers(shown)

    async def commands(self) -> None:
        """What the players do once it is over: Catch me up, ``/game rules`` and ``/game stats``
        in the thread, and a rematch, which the other joins."""
        ana, bea = (p.member for p in self.people)
        thread = self.channel.threads[0]
        await ana.slash(thread, "game rules", name=(await self.load()).entry.name)
        await ana.slash(thread, "game stats")
        final = [m for m in self.env.backend.messages.get(self.place, {}).values() if not m.is_ephemeral][-1]
        for cid in custom_ids(final):
            if cid.endswith(":h.catchup"):
                await self.click(bea, clickable(self.env, final), cid)
        for cid in custom_ids(final):
            if cid.endswith(":rematch"):
                await self.click(ana, clickable(self.env, final), cid)
        lobbies = [
            m
            for m in self.env.backend.messages.get(self.channel.id, {}).values()
            if not m.is_ephemeral and any(c.endswith(":join") for c in custom_ids(m))
        ]
        assert lobbies, "the rematch's lobby"
        join = next(c for c in custom_ids(lobbies[-1]) if c.endswith(":join"))
        await self.click(bea, clickable(self.env, lobbies[-1]), join)

    # -- one move, as discord_week's people make it --------------------------------------------

    def candidates(self, live: LiveGame, seat: int) -> Iterator[Action]:
        weights = {**WEIGHTS, "monopoly": DEALING}.get(live.entry.name, {})
        by_kind: dict[str, list[Action]] = {}
        for action in live.entry.rules.legal_actions(live.state, seat):
            by_kind.setdefault(action.kind, []).append(action)
        kinds = [k for k in sorted(by_kind) if weights.get(k, 1.0) > 0] or sorted(by_kind)
        while kinds:
            kind = self.rng.choices(kinds, [weights.get(k, 1.0) or 1.0 for k in kinds])[0]
            kinds.remove(kind)
            actions = by_kind[kind]
            self.rng.shuffle(actions)
            yield from actions[:3]

    async def move(self, person: Player, live: LiveGame) -> bool:
        for tried, action in enumerate(self.candidates(live, person.seat)):
            if tried >= 8:
                return False
            # Deliberately no week: ``routes`` uses only its other arguments.
            for path in Week.routes(None, live.entry.name, live, person.seat, action):  # type: ignore[arg-type]
                if await self.follow(person, live, path, action):
                    return True
                live = await self.load()
                if person.seat not in live.waiting() or live.status != "active":
                    return True
        return False

    async def click(self, person: Any, where: ResponseMessage, custom_id: str) -> InteractionResult | None:
        member: simcord.MemberActor = person.member if isinstance(person, Player) else person
        try:
            return await member.click(where, custom_id=custom_id)
        except Exception as exc:
            if not undeliverable(exc):
                raise
            return None

    async def follow(self, person: Player, live: LiveGame, path: list[str], action: Action) -> bool:
        game_id, version = self.game_id, live.public_version
        where = self.board()
        if where is None:
            return False
        for code in path:
            opener = f"u:{game_id}:{version}:{code}"
            found = await self.find(person, where, lambda m, o=opener: o if o in enabled(m) else None)
            if found is None:
                return False
            result = await self.click(person, found[0], found[1])
            if result is None:
                return False
            response = result.response
            if response is not None and response.ephemeral:
                where = response
            else:
                board = self.board()
                if board is None:
                    return False
                where = board
        found = await self.find(person, where, lambda m: Week.control(m, game_id, version, action))
        if found is None:
            return False
        handle, (how, custom_id, payload) = found
        before = live.version
        try:
            if how == "select":
                await person.member.select(handle, payload, custom_id=custom_id)
            elif how == "form":
                shown = await self.click(person, handle, custom_id)
                if shown is None or shown.modal is None:
                    return False
                await person.member.submit_modal(shown, {"value": payload})
            else:
                await self.click(person, handle, custom_id)
        except Exception as exc:
            if not undeliverable(exc):
                raise
            return False
        return (await self.load()).version > before

    async def find(
        self, person: Player, handle: ResponseMessage, target: Any
    ) -> tuple[ResponseMessage, Any] | None:
        """``target`` on the message behind ``handle``, across its pages (◀ ▶)."""
        return await find_on_pages(
            self.env, self.game_id, handle, target, lambda where, step: self.click(person, where, step)
        )


# --- the tests ------------------------------------------------------------------------------------


def test_the_check_finds_english() -> None:
    """The check itself: English catalog text is found whole, as a line, or as a fragment between
    placeholders; French text and names are not."""
    english = English("estates")
    assert english.found(["Rematch"]) and english.found(["ok\nCatch me up"])
    assert english.found([en("host.undo.asked_you", players="Ana")])
    assert english.found(["ok\n" + en("estates.event.passed", player="ana")])  # "{player} passes."
    assert english.found(["ana construit le 6 vert (6 Gn) sur C2"]) and english.found(["5 Gy"])
    assert not english.found(["ana construit le 6 vert (6 Ve) sur C2", "Gnome"])
    assert english.found(["Options: standard rules"])
    assert not english.found([fr("host.undo.asked_you", players="Ana"), "Ana (bot facile)", "The Estates"])
    assert not english.found(
        [fr("host.lobby.open", game="Last Will", id=3, min=2, max=5, options="-", players="1. ana", count=1)]
    )


@pytest.mark.parametrize("game", list(GAMES))
async def test_a_french_table_shows_no_english(
    game: str, tmp_path: Path, french_clients: set[int], drawn: list[str]
) -> None:
    assert REGISTRY.get(game) is not None
    bot = make_bot(tmp_path)
    with quick_settle():
        async with simcord.run(bot, strict_sync=False) as env:
            table = French(env, bot, random.Random(7), french_clients)
            await table.open(game, *GAMES[game])
            await table.play()
            await table.commands()
            shown = sent(env)
    english = English(game)
    found = english.found(shown) + [f"image: {line}" for line in english.found(drawn)]
    assert not found, "\n".join(found)
    assert any("Classement final" in s for s in shown)


def answers(result: InteractionResult) -> list[str]:
    """The contents of an interaction's answer and followups."""
    return [r.content for r in [result.response, *result.followups] if r is not None]


def _text(env: simcord.Env, handle: ResponseMessage) -> str:
    """Everything a message says now (its content and its components' text), from SimCord's store."""
    stored = stored_of(env, handle)
    return "\n".join([stored.content or "", *_strings(stored.components)])


async def test_an_english_client_at_a_french_table(tmp_path: Path, french_clients: set[int]) -> None:
    """A French table stays French for everyone (the board, a private panel, the undo request),
    while what the host answers one player alone follows that player's Discord language (README,
    ``/game new``): ben's client is English, ana's and eve's French."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("jeux")
        ana, ben, dan, eve = (guild.add_member(env.create_user(n)) for n in ("ana", "ben", "dan", "eve"))
        french_clients.update({ana.id, eve.id})
        created = await ana.slash(channel, "game new", name="california", language="fr")
        lobby = response_of(created).message
        await ben.click(lobby, label=fr("host.lobby.join"))
        await ana.click(lobby, label=fr("host.lobby.start"))
        table = French(env, bot, random.Random(1), french_clients)
        table.channel, table.game_id = channel, max(row.id for row in await bot.store.games.list_games())
        english = English("california")

        # A private panel is the table's: French for ben too.
        board = table.board()
        assert board is not None
        mansion = await ben.click(board, label=fr("california.button.mansion"))
        assert mansion.ephemeral and "Votre manoir" in response_of(mansion).content
        assert not english.found([response_of(mansion).content])
        # Someone not seated: the host's refusal is in their own language.
        refused = await dan.click(board, label=fr("california.button.mansion"))
        assert response_of(refused).content == en("host.refuse.not_seated")
        refused = await eve.click(board, label=fr("california.button.mansion"))
        assert response_of(refused).content == fr("host.refuse.not_seated")

        # ben moves, then asks to take it back: the request is the table's (French), the answer
        # to ben alone is the host's (English); ana's answer to her own click is French.
        live = await table.load()
        if live.seat_of(ben.id) not in live.waiting():
            await ana.click(board, label=fr("california.button.coin"))
            board = table.board()
            assert board is not None
        await ben.click(board, label=fr("california.button.coin"))
        board = table.board()
        assert board is not None
        asked = await ben.click(board, label=fr("host.undo.button"))
        assert asked.ephemeral
        assert response_of(asked).content == en("host.undo.asked_you", players="ana")
        request = next(
            m
            for m in env.backend.messages[table.place].values()
            if not m.is_ephemeral and any(c.endswith(":h.undo.yes") for c in custom_ids(m))
        )
        assert fr("host.undo.asked", player="ben", players=f"<@{ana.id}>") in request.content
        again = await ben.click(board, label=fr("host.undo.button"))
        assert response_of(again).content == en("host.undo.already_asked", players="ana")
        accepted = await ana.click(clickable(env, request), label=fr("host.undo.accept"))
        assert accepted.acknowledged
        assert fr("host.undo.agreed", player="ben") in _text(env, clickable(env, request))

        # /game show in the thread: "Here is table #n." in each one's own language.
        thread = channel.threads[0]
        shown = await ben.slash(thread, "game show")
        assert en("host.lobby.shown", id=table.game_id) in answers(shown)
        shown = await ana.slash(thread, "game show")
        assert fr("host.lobby.shown", id=table.game_id) in answers(shown)


async def test_a_french_lobby_its_bots_and_a_player_who_leaves(
    tmp_path: Path, french_clients: set[int]
) -> None:
    """Around play: joining and leaving, bots added and removed, a player leaving a running game
    (its confirmation and the table's end), a lobby abandoned: all French."""
    bot = make_bot(tmp_path)
    async with simcord.run(bot, strict_sync=False) as env:
        guild = env.create_guild()
        channel = guild.create_text_channel("jeux")
        ana, bea, cy = (guild.add_member(env.create_user(n)) for n in ("ana", "bea", "cy"))
        french_clients.update({ana.id, bea.id, cy.id})
        created = await ana.slash(channel, "game new", name="california", language="fr")
        lobby = response_of(created).message
        await bea.click(lobby, label=fr("host.lobby.join"))
        await bea.click(lobby, label=fr("host.lobby.leave"))
        await bea.click(lobby, label=fr("host.lobby.join"))
        await ana.click(lobby, label=fr("host.lobby.bot_normal"))
        await ana.click(lobby, label=fr("host.lobby.unbot"))
        await cy.click(lobby, label=fr("host.lobby.join"))
        await cy.slash(channel, "game leave")
        await ana.click(lobby, label=fr("host.lobby.start"))
        thread = channel.threads[0]
        assert thread.name == fr("host.lobby.thread", game="California", id=1)
        confirm = await bea.slash(thread, "game leave")
        await bea.click(response_of(confirm), label=fr("host.lobby.withdraw"))
        other = await ana.slash(channel, "game new", name="estates", language="fr", options="rounds=2")
        await ana.slash(channel, "game abandon", table=2)
        unknown = await ana.slash(channel, "game new", name="nothing", language="fr")
        assert response_of(unknown).content.startswith("Il n'existe pas de jeu nommé 'nothing'")
        assert (await bot.sessions.load(1)).status == "abandoned"
        shown = sent(env)
        assert other.acknowledged and any("Options : `rounds=2`" in s for s in shown)
        assert any(fr("host.lobby.options_standard") in s for s in shown)
    found = English("california").found(shown)
    assert not found, "\n".join(found)
