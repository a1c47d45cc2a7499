"""The phases of a game (who must decide what) and the rule each wrong action breaks.

A phase is a value of `Phase`; `GameState` lists the legal actions of each phase with one
generator and applies each action type with one handler. When an action is refused,
`IllegalAction` names a rule id: the rule of the action's own type (`RULE_OF_ACTION`), or,
for something that is no action at all, the rule of the phase (`RULE_OF_PHASE`).
"""

from __future__ import annotations

import enum

from dreamhome.game.actions import RULE_OF_ACTION


class Phase(enum.Enum):
    """Who must decide what, now (ROUND-*, TOOL-*, END-*)."""

    DISCARD = "discard"  # ROUND-1: the first player discards a column (2–3 players)
    ROUND_START = "round_start"  # TOOL-JACKHAMMER: a round-start tool may take a room card
    TURN = "turn"  # ROUND-3: tools before the take, then take a column
    SCAFFOLD_BEFORE = "scaffold_before"  # TOOL-SCAFFOLDING: scaffold now, or after the room card
    PLACE = "place"  # PLACE-*: the room card in hand goes into the house
    SCAFFOLD_AFTER = "scaffold_after"  # TOOL-SCAFFOLDING: scaffold after the room card
    TOKEN = "token"  # RES-FURN: the furnishing's token on a card
    END = "end"  # END-ORDER: the end-game helpers, player by player
    DONE = "done"  # SCORE-WIN: the game is over


# The rule an action of no kind at all breaks, by phase (an action of the wrong kind: `RULE_OF_ACTION`).
RULE_OF_PHASE = {
    Phase.DISCARD: "ROUND-1",
    Phase.ROUND_START: "TOOL-JACKHAMMER",
    Phase.TURN: "ROUND-3",
    Phase.SCAFFOLD_BEFORE: "TOOL-SCAFFOLDING",
    Phase.PLACE: "PLACE-A",
    Phase.SCAFFOLD_AFTER: "TOOL-SCAFFOLDING",
    Phase.TOKEN: "FURN-TYPE",
    Phase.END: "END-ORDER",
    Phase.DONE: "ROUND-6",
}

__all__ = ["RULE_OF_ACTION", "RULE_OF_PHASE", "Phase"]  # RULE_OF_ACTION: each action class's `rule`
