"""Can a game be played under these rules? The compiler's last check.

A ruleset can be well-formed, every name known and every number in range, and still describe
a game no one can play: a deal larger than the deck, more players than the track has columns,
a floor that floats in the air, more rounds than a house has spaces. The game driver would
then stop in the middle of a game with an internal error (an empty deck, a player with no
column to take, a room card with no space to go). These checks refuse such rules when they
are compiled, so `dreamhome rules check` and every command say what is wrong and where, one
line per problem, before any game starts.

This module only computes the problems from plain values; the compiler gathers the values and
the positions of the declarations they come from, and reports what this module returns.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from dreamhome.board import Board
from dreamhome.dsl.ast import Pos
from dreamhome.ruleset import GameSpec

MAX_DECK = 10_000
"""The most cards (room and resource decks together) a ruleset may hold. The game driver
shuffles the whole deck for every game and what-ifs play thousands of games; the base game
has 108 cards. A deck above this is a typo (`count 1000000`), not a game."""

MAX_SPACES = 1_000
"""The most spaces a house board may have. Every house, every CP-SAT model and every picture
holds one entry per space; the base board has 12."""


@dataclass(frozen=True)
class Problem:
    """One reason the rules cannot be played, at the declaration at fault."""

    pos: Pos
    message: str
    severity: str = "error"


@dataclass(frozen=True)
class Decks:
    """How many cards each deck holds, and where the largest `count` of each was declared."""

    rooms: int
    resources: int
    biggest_room: Pos | None
    biggest_resource: Pos | None


@dataclass(frozen=True)
class Where:
    """The declarations the checks can blame: the `game` fields and the board's floors."""

    players: Pos
    rounds: Pos
    deal: Pos
    discard: Pos | None
    board: Pos
    floors: Mapping[str, Pos]


def playability_problems(game: GameSpec, board: Board, decks: Decks, options: Mapping[str, str], where: Where) -> list[Problem]:
    """Every problem of the game's shape, in the order a reader meets the declarations."""
    out: list[Problem] = []
    out += _deck_problems(game, decks, where)
    out += _track_problems(game, options, where)
    out += _board_problems(game, board, where)
    return out


def scaffold_kinds_problem(ids: list[str]) -> str | None:
    """TOOL-SCAFFOLDING: a space holds a scaffold, not a card of a kind, so the game can tell
    which card goes back to the box when a room card covers it only if one kind of card carries
    `scaffold`. Two kinds would be counted as one and the deck would lose or gain cards."""
    if len(ids) < 2:
        return None
    return (
        f"{len(ids)} kinds of card carry scaffold ({', '.join(ids)}): a space on the board holds a scaffold, "
        "not a card of a kind, so only one kind may (TOOL-SCAFFOLDING); give that card a larger count instead"
    )


def board_size_problem(spaces: int) -> str | None:
    """The board's size is checked before the board is built (building a graph of a million
    spaces alone takes minutes): a message if it is above `MAX_SPACES`."""
    if spaces > MAX_SPACES:
        return f"the board has {spaces:,} spaces, more than a house can hold: at most {MAX_SPACES:,}"
    return None


def extra_take_problem(game: GameSpec, spaces: int, options: Mapping[str, str], shown: str) -> str | None:
    """TOOL-TIMING, ROUND-6: a round-start take without `skip_turn` adds a room card beside the
    round's own take, and is offered only while the track keeps a room card for every turn still
    to come that round and its user's house a space for every turn it has left. So it can never
    act (a warning, not an error: the card is still dealt and may be taken) when
    - the house has no space beyond the rounds' own takes (spaces ≤ rounds), or
    - at every player count the track, after the deal and the ROUND-1 discard (which comes before
      the round-start window), holds no more room cards than there are turns."""
    if spaces <= game.rounds:
        return (
            f"{shown} can never act: without skip_turn it adds a room card to a house that needs each "
            f"of its {spaces} space(s) for the {game.rounds} rounds' own takes (TOOL-TIMING, ROUND-6); "
            "add skip_turn, or a board with more spaces than rounds"
        )
    discarding = options.get("round_discard", "on") == "on"

    def spare(players: int) -> int:
        """Room cards on the track at the round-start window beyond one per turn."""
        return game.deal_rooms - (1 if discarding and game.discards_at_round_start(players) else 0) - players

    # Beyond `deal_rooms` players there is never a spare card: the range checked stays small.
    if all(spare(n) <= 0 for n in range(game.min_players, min(game.max_players, game.deal_rooms) + 1)):
        return (
            f"{shown} can never act: without skip_turn it takes a room card the round's turns need "
            f"(at every player count the track holds no more room cards than turns: deal rooms "
            f"{game.deal_rooms}, less the ROUND-1 discard; TOOL-TIMING); add skip_turn, or deal more room cards"
        )
    return None


def _deck_problems(game: GameSpec, decks: Decks, where: Where) -> list[Problem]:
    """COMP-1, COMP-3, COMP-5: each deck covers its deal over every round, and the decks stay small
    enough to shuffle per game. One message per deck: too big, too small, or cards never dealt."""
    total = decks.rooms + decks.resources
    if total > MAX_DECK:
        biggest = decks.biggest_room if decks.rooms >= decks.resources else decks.biggest_resource
        return [
            Problem(
                biggest or where.deal,
                f"the decks hold {total:,} cards ({decks.rooms:,} room, {decks.resources:,} resource), "
                f"more than a game can shuffle: at most {MAX_DECK:,}",
            )
        ]
    out: list[Problem] = []
    for what, have, deal in (
        ("room cards", decks.rooms, game.deal_rooms),
        ("resource cards", decks.resources, game.deal_resources),
    ):
        need = game.rounds * deal
        if have < need:
            out.append(Problem(where.deal, f"{what}: {have}, fewer than the game deals: {game.rounds} × {deal} = {need}"))
        elif have > need:
            out.append(
                Problem(
                    where.deal,
                    f"{what}: {have}, the game deals {game.rounds} × {deal} = {need}; {have - need} will never be dealt",
                    "warning",
                )
            )
    return out


def _track_problems(game: GameSpec, options: Mapping[str, str], where: Where) -> list[Problem]:
    """COMP-3, ROUND-1, ROUND-3, ROUND-COLUMN, SETUP-1: the track has a column for every player in
    every round, plus the column the first player discards, and a room slot under every resource."""
    out: list[Problem] = []
    rooms, resources = game.deal_rooms, game.deal_resources
    if rooms < 0 or resources < 0:
        return out  # a negative deal is already an error of the `game` block
    if rooms == 0:
        out.append(Problem(where.deal, f"deal rooms {rooms}: every turn takes a room card from the track, so deal at least 1"))
        return out
    if resources > rooms - 1:
        out.append(
            Problem(
                where.deal,
                f"deal rooms {rooms} resources {resources}: the resource row has one slot above each room slot "
                f"but column 0 (COMP-3), so at most {rooms - 1} resources",
            )
        )
    if game.discard_players is not None:
        lo, hi = game.discard_players
        if lo < game.min_players or hi > game.max_players:
            out.append(
                Problem(
                    where.discard or where.players,
                    f"discard players {lo}..{hi} is outside players {game.min_players}..{game.max_players}",
                )
            )
    discarding = options.get("round_discard", "on") == "on"
    for n in range(game.min_players, game.max_players + 1):
        discard = 1 if discarding and game.discards_at_round_start(n) else 0
        if rooms < n + discard:
            extra = " and 1 discarded (ROUND-1)" if discard else ""
            out.append(
                Problem(
                    where.players,
                    f"players {game.min_players}..{game.max_players}: {n} players take {n} columns a round{extra} "
                    f"(ROUND-3), but the track has {rooms} (deal rooms {rooms})",
                )
            )
            break  # more players only need more columns: the first count that fails says it
    return out


def _board_problems(game: GameSpec, board: Board, where: Where) -> list[Problem]:
    """COMP-2, PLACE-A, ROUND-6: every space can be held up, and the rounds fit the board.

    A player places one room card a round (ROUND-COLUMN). More rounds than spaces: the last cards
    have nowhere to go, an error. Fewer: the game ends with spaces left empty and END's house of
    one card per space never happens; the game still plays, so it is a warning (ROUND-6 then asks
    for one card per round and no scaffold left)."""
    out: list[Problem] = []
    for fi, floor in enumerate(board.floors):
        if fi == len(board.floors) - 1:
            break  # the lowest floor stands on the ground
        on_pile = board.roof_pile[1] if board.roof_pile is not None and board.roof_pile[0] == floor.name else ()
        floating = [
            board.cell_column[c] for c in board.floor_cells[fi] if board.below[c] < 0 and board.cell_column[c] not in on_pile
        ]
        if floating:
            cols = ", ".join(map(str, floating))
            out.append(
                Problem(
                    where.floors.get(floor.name, where.board),
                    f"floor {floor.name}: column{'s' if len(floating) > 1 else ''} {cols} "
                    f"{'have' if len(floating) > 1 else 'has'} no floor and no roof pile below (PLACE-A, COMP-2)",
                )
            )
    if game.rounds > board.size:
        out.append(
            Problem(
                where.rounds,
                f"rounds {game.rounds}: a house places one room card a round but the board has {board.size} spaces (ROUND-6)",
            )
        )
    elif game.rounds < board.size:
        out.append(
            Problem(
                where.rounds,
                f"rounds {game.rounds}: the board has {board.size} spaces; "
                f"{board.size - game.rounds} stay empty in every house (ROUND-6); "
                "optimize, place and the solver bot need a house with a card on every space",
                "warning",
            )
        )
    return out


__all__ = [
    "MAX_DECK",
    "MAX_SPACES",
    "Decks",
    "Problem",
    "Where",
    "board_size_problem",
    "extra_take_problem",
    "playability_problems",
]
