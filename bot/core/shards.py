"""Which servers a process serves when the bot runs as several sharded processes.

Discord splits a bot's servers into ``count`` shards by id: a server belongs to shard
``(guild_id >> 22) % count``, and direct messages to shard 0
(https://discord.com/developers/docs/topics/gateway#sharding).  Each process connects the
shards in ``ids`` and must do the background work (start-up sweeps, bot players, reminders
and timeouts) of exactly those servers: another process has no cache of their channels, and
two processes doing the same work would do it twice.  This module is that rule as data, for
the settings, the client and the store's queries alike.
"""

from __future__ import annotations

from dataclasses import dataclass

MAX_SHARDS = 4096


@dataclass(frozen=True, slots=True)
class Shards:
    """The shards one process runs, out of ``count``."""

    ids: tuple[int, ...]
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.count <= MAX_SHARDS:
            raise ValueError(f"the shard count must be from 1 to {MAX_SHARDS}, not {self.count}")
        if not self.ids or len(set(self.ids)) != len(self.ids):
            raise ValueError("name each shard once, at least one")
        if any(not 0 <= shard < self.count for shard in self.ids):
            raise ValueError(f"shard ids go from 0 to {self.count - 1} when there are {self.count} shards")

    @property
    def everything(self) -> bool:
        """Whether this process serves every server (one process, or all shards in one)."""
        return len(self.ids) == self.count

    def owns(self, guild_id: int | None) -> bool:
        return shard_of(guild_id, self.count) in self.ids

    def sql(self, guild_column: str) -> str:
        """A condition on ``guild_column`` that keeps this process's servers (SQLite and
        PostgreSQL both have ``>>`` and ``%`` on 64-bit integers); ``1 = 1`` for all of them."""
        if self.everything:
            return "1 = 1"
        shards = ", ".join(str(shard) for shard in sorted(self.ids))
        return f"((COALESCE({guild_column}, 0) >> 22) % {self.count}) IN ({shards})"

    def __str__(self) -> str:
        return f"{spans(self.ids)} of {self.count}"


def shard_of(guild_id: int | None, count: int) -> int:
    """The shard a server (``None``: direct messages) belongs to, by Discord's rule."""
    return 0 if guild_id is None else (guild_id >> 22) % count


def parse_ids(text: str) -> tuple[int, ...]:
    """``"0-3"``, ``"5"`` or ``"0-1,6,8-9"`` as shard ids, in order (``ValueError`` otherwise)."""
    found: list[int] = []
    for part in text.replace(" ", "").split(","):
        low, dash, high = part.partition("-")
        if not low.isdigit() or (dash and not high.isdigit()):
            raise ValueError(f"{text!r} is not a list of shards like 0-3 or 0,2,4")
        first, last = int(low), int(high) if dash else int(low)
        if last < first:
            raise ValueError(f"{part!r} counts down; write the smaller shard first")
        found.extend(range(first, last + 1))
    return tuple(found)


def spans(ids: tuple[int, ...]) -> str:
    """Shard ids written back as short ranges: ``(0, 1, 2, 5)`` is ``"0-2,5"``."""
    parts: list[str] = []
    ordered = sorted(ids)
    start = previous = ordered[0]
    for shard in [*ordered[1:], None]:
        if shard is not None and shard == previous + 1:
            previous = shard
            continue
        parts.append(str(start) if start == previous else f"{start}-{previous}")
        if shard is not None:
            start = previous = shard
    return ",".join(parts)
