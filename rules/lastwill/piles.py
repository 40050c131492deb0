"""Where cards come from and where they go (§2): decks, face-up piles, the wild pile, the box.

Every card movement goes through ``draw`` or ``discard``, so the rule "each regular deck has its
own pile, specials leave the game, wild cards go back to the wild pile" lives in one place and
the invariant "every card in exactly one place" cannot be broken by a forgotten branch.
"""

from __future__ import annotations

from rules.core import Event
from rules.lastwill import data
from rules.lastwill.cards import DECK_OF, SPECIAL_DECKS, WILD
from rules.lastwill.state import LastWillState

RESHUFFLED = frozenset(d.value for d in data.DECKS_RESHUFFLED)


def available(state: LastWillState, deck: str) -> int:
    """Cards a draw could still reach: the deck, plus its pile where an empty deck reshuffles."""
    count = len(state.decks[deck])
    return count + len(state.piles[deck]) if deck in RESHUFFLED else count


def draw(state: LastWillState, deck: str, events: list[Event]) -> str:
    """The top card of ``deck`` (reshuffling its pile when empty), or "" when none is left."""
    cards = state.decks[deck]
    if not cards and deck in RESHUFFLED and state.piles[deck]:
        cards.extend(state.piles[deck])
        state.piles[deck].clear()
        state.rng.shuffle(cards)
        events.append(Event("reshuffled", None, {"deck": deck, "cards": len(cards)}))
    return cards.pop() if cards else ""


def discard(state: LastWillState, card: str) -> None:
    """A card leaving play: wild cards to the wild pile, specials out of the game, others to a pile."""
    deck = DECK_OF[card]
    if deck == WILD:
        state.decks[WILD].append(card)
    elif deck in SPECIAL_DECKS:
        state.gone.append(card)
    else:
        state.piles[deck].append(card)
