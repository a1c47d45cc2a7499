"""Taking a decision back before the turn passes: one rule for the browser table and the terminal.

The rule (issue 33): a person's decisions can be taken back, the latest first, while no other
player has decided since. A step the engine took by itself (`"forced": true`: the only legal
option) and a note of the rules (a furnishing or scaffold discarded, an award) are nobody's
decision, so they neither pass the turn nor stop an undo; they go with the decision they
followed. Once another seat
decides (a bot moving after a person's decision ended the person's turn, or another person
acting), the turn has passed and nothing before it can be taken back.

Nor can a decision that a deal followed (ROUND-1: the next round's track is dealt as soon as the
last placement of a round is made): the deal showed cards of the decks, whose order no seat may
know (SEE-1), and they cannot be unseen. Taking such a decision back would let a player look at
the next round's track and then make the last take of this round knowing it.

Why the game is replayed from its seed rather than kept as copies: the events are the whole
truth of a game (a table's game file, a terminal's saved record), so the position before a
decision is the replay of the decisions before it. A server restarted between a decision and
its undo, or a terminal game resumed from its save, takes it back exactly as it would have
before; nothing kept only in memory is needed, and no copy can disagree with the events.
"""

from __future__ import annotations

from typing import Any

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import action_from_dict
from dreamhome.game.state import GameState

DEAL = "deal"
"""The note of a deal (ROUND-1, at each round's start): cards of the decks shown to every seat."""


def is_decision(event: dict[str, Any]) -> bool:
    """Whether `event` is a player's own decision (not a forced step, not a note of the rules)."""
    return "action" in event and not event.get("forced")


def undo_mark(events: list[dict[str, Any]], seat: int) -> int | None:
    """The index of `seat`'s latest decision if no other player has decided since and no deal
    has shown cards of the decks since (SEE-1), else None: the game taken back to
    `events[:mark]` is the position just before that decision."""
    for k in range(len(events) - 1, -1, -1):
        event = events[k]
        if event.get("event") == DEAL:
            return None
        if is_decision(event):
            return k if event.get("player") == seat else None
    return None


def dealt_since(events: list[dict[str, Any]], seat: int) -> bool:
    """Whether `seat`'s latest decision is the last of anybody's and only a deal since stops its
    undo: the reason a page and the terminal give for refusing it (the cards cannot be unseen)."""
    last = next((e for e in reversed(events) if is_decision(e)), None)
    return last is not None and last.get("player") == seat and undo_mark(events, seat) is None


def replayed_to(state: GameState, mark: int) -> GameState:
    """A new game: `state`'s setup (rules, players, seed, first player) with the decisions of
    `state.events[:mark]` applied, so its events are exactly those (the forced steps and deals
    come back by themselves). `mark` must be the index of a decision (`undo_mark`)."""
    if not 0 <= mark < len(state.events) or not is_decision(state.events[mark]):
        raise DreamhomeError(f"event {mark} is no decision to take back")
    fresh = GameState(state.rules, state.n, state.seed, state.initial_first)
    for index, event in enumerate(state.events[:mark]):
        if len(fresh.events) > index or not is_decision(event):
            continue
        fresh.apply_action(action_from_dict(event["action"]))
    if len(fresh.events) != mark:
        raise DreamhomeError(f"the game does not replay to its event {mark}; nothing was taken back")
    return fresh


def take_back(state: GameState, seat: int) -> GameState | None:
    """The game before `seat`'s latest decision (a new state; `state` is not changed), or None
    when the turn has passed since (`undo_mark`) or `seat` never decided."""
    mark = undo_mark(state.events, seat)
    return None if mark is None else replayed_to(state, mark)
