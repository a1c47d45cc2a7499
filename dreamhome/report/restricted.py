"""Restricted play (Jaffe et al., AIIDE 2012): a bot forbidden one card type, and its mirror,
a bot that takes the card whenever it can.

A restricted seat never takes a column holding the card (ROUND-COLUMN), never takes that
room card with a tool at a round's start (TOOL-JACKHAMMER); everything else it decides as the
bot it wraps. It reads only the legal actions and the observation (SEE-1), the same public
API every bot has. When every column it could take holds the card, it takes one anyway (a
take is compulsory, ROUND-3) and the game counts it as forced.

A restricted bot is named `BOT/no=KIND:ID` (for instance `greedy/no=room:ID`, ID a room card's id), so the
restriction is part of the what-if experiment's bots, hence of its id and its store. The
mirror, `BOT/always=KIND:ID`, takes a column holding the card (or that room with a tool at a
round's start) whenever one is legal, choosing among those as the wrapped bot would.
"""

from __future__ import annotations

from dreamhome.errors import DreamhomeError
from dreamhome.game.actions import Action, TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.observation import Observation
from dreamhome.players.bot import Bot
from dreamhome.players.roster import make_bot
from dreamhome.ruleset import Ruleset

MARK = "/no="
ALWAYS = "/always="
KINDS = ("room", "roof", "furnishing", "helper", "tool")


def card_copies(rules: Ruleset) -> dict[str, int]:
    """Every card type in the decks as `KIND:ID` with its number of copies, in the rules'
    order; a type with count 0 is not in the game, so it is absent (COMP-*)."""
    out = {f"room:{r.id}": r.count for r in rules.rooms}
    out |= {f"roof:{r.id}": r.count for r in rules.roofs}
    out |= {f"furnishing:{f.id}": f.count for f in rules.furnishings if f.is_card}
    out |= {f"helper:{h.id}": h.count for h in rules.helpers}
    out |= {f"tool:{t.id}": t.count for t in rules.tools}
    return {card: n for card, n in out.items() if n > 0}


def restricted_name(bot: str, card: str, always: bool = False) -> str:
    return f"{bot}{ALWAYS if always else MARK}{card}"


def split_name(name: str) -> tuple[str, str | None, bool]:
    """(the wrapped bot's name, the card or None, whether it is always taken rather than never)."""
    for mark, always in ((MARK, False), (ALWAYS, True)):
        bot, found, card = name.partition(mark)
        if found:
            return bot, card, always
    return name, None, False


def column_cards(obs: Observation, column: int) -> set[str]:
    """The card types of a column on the track, as `KIND:ID`."""
    cards = set()
    room = obs.track_rooms[column]
    if room is not None:
        cards.add(f"room:{obs.rules.room_of_code(room).id}")
    res = obs.track_res[column]
    if res is not None:
        cards.add(f"{res.kind}:{res.id}")
    return cards


def takes(obs: Observation, action: Action) -> set[str]:
    """The card types `action` would take from the track (none for other actions)."""
    if isinstance(action, TakeColumn):
        return column_cards(obs, action.column)
    if isinstance(action, TakeRoomAtRoundStart):
        room = obs.track_rooms[action.column]
        return {f"room:{obs.rules.room_of_code(room).id}"} if room is not None else set()
    return set()


class RestrictedBot(Bot):
    """`inner` with one card type forbidden (or, `always`, taken whenever it can be); `forced`
    counts the takes of a forbidden card it could not avoid."""

    def __init__(self, inner: Bot, card: str, always: bool = False):
        self.inner = inner
        self.card = card
        self.always = always
        self.name = restricted_name(inner.name, card, always)
        self.looks_ahead = inner.looks_ahead
        self.rng = inner.rng
        self.forced = 0

    def choose(self, obs: Observation, legal: list[Action]) -> Action:
        holding = [a for a in legal if self.card in takes(obs, a)]
        if self.always:
            return self.inner.choose(obs, holding or legal)
        allowed = [a for a in legal if a not in holding]
        if not allowed:  # ROUND-3: a take is compulsory; every column holds the card
            self.forced += 1
            return self.inner.choose(obs, legal)
        return self.inner.choose(obs, allowed)


def make_seat(name: str, seed: int, seat: int) -> Bot:
    """A bot by name, restricted when the name says so (`BOT/no=KIND:ID`, `BOT/always=KIND:ID`)."""
    bot, card, always = split_name(name)
    inner = make_bot(bot, seed, seat)
    if card is None:
        return inner
    kind = card.partition(":")[0]
    if kind not in KINDS:
        raise DreamhomeError(f"restricted bot '{name}': the card must be KIND:ID with KIND one of {', '.join(KINDS)}")
    return RestrictedBot(inner, card, always)
