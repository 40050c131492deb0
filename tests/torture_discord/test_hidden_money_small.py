"""Hidden money in The Estates, small: pairs of games differing only in private stows look the same.

The full run is ``benchmarks/torture_hidden_money.py`` (500 pairs); this plays five pairs, the first
to the end, and checks that the comparison itself sees a public difference when there is one.
"""

from __future__ import annotations

from benchmarks.torture_hidden_money import run


async def test_five_pairs_differing_only_in_stows_show_nothing_different() -> None:
    figures = await run(5, seed=7, first_full=1, full_share=0.0)
    assert figures["pairs"] == 5 and figures["full_games"] >= 1
    assert figures["stows"] > 0 and figures["refused_stows"] > 0 and figures["list_checks"] > 0
    assert figures["unanswered"] == 0 and figures["tracebacks"] == 0, figures["examples"]
    assert figures["differences"] == 0, figures["examples"]


async def test_the_comparison_sees_a_public_difference() -> None:
    """Control: a player chats once in game A's thread (a public difference B does not have)."""
    figures = await run(1, seed=3, control="public_extra")
    assert figures["differences"] > 0 and figures["by_kind"].get("message_count", 0) > 0
