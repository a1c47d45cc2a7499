"""The position as every seat may know it (SEE-1): the game with its hidden part made up.

Why: the hint works on a game state, and a game state holds what no seat may see, the decks'
order and the seed that shuffled them (SEE-1). A hint computed on the real state could read
them (a look-ahead that deals the next round from the deck, a bot seeded by the game's seed),
and the page would then show a number that depends on the future. So the table hands the hint
a twin of the game (`public_position`) whose decks hold the same cards (their contents are
public: every card is seen when dealt, and the manifest is known) in an order drawn from the
public part alone, and whose seed is drawn from it too. Two games that differ only in what is
hidden give the same twin, so nothing the hint answers can depend on the hidden part.
"""

from __future__ import annotations

import hashlib
import json
import random
from typing import Any

from dreamhome.game.state import GameState

HIDDEN = ("seed", "room_deck", "res_deck")
"""The fields of `GameState.to_dict` no seat may see (SEE-1): the seed and both decks' order."""


def _card_key(card: Any) -> str:
    return json.dumps(card, sort_keys=True)


def public_position(state: GameState) -> GameState:
    """A twin of `state` whose hidden part (`HIDDEN`) is made from its public part alone: the
    same cards left in each deck, in an order drawn from a digest of everything public, and a
    seed drawn from it too. Every public field, the events included, is the state's own."""
    data = state.to_dict()
    public = {k: v for k, v in data.items() if k not in HIDDEN}
    digest = hashlib.sha256(json.dumps(public, sort_keys=True, separators=(",", ":")).encode("utf-8")).digest()
    rng = random.Random(digest)
    for deck in ("room_deck", "res_deck"):
        cards = sorted(data[deck], key=_card_key)  # the deck's contents, forgetting its order
        rng.shuffle(cards)
        data[deck] = cards
    data["seed"] = int.from_bytes(digest[:7], "big")
    return GameState.from_dict(state.rules, data)
