"""The experiment plan of a report: which games, under which rulesets, bots and restrictions.

A report is a set of *conditions*, each one what-if experiment of a single ruleset (its own
store directory, its own id): self-play per player count and bot (seats, shape), a ladder
rung (a weaker bot against a stronger one), and one restricted-play condition per card type.
Game i of every condition is played from seed `seed + i`, under both rulesets of `--vs` too,
so every comparison the report makes is paired by seed (common random numbers).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.report.restricted import card_copies, make_seat, restricted_name
from dreamhome.report.sensitivity import Variation, variations
from dreamhome.ruleset import Ruleset
from dreamhome.seeds import check_seed
from dreamhome.whatif.experiment import Experiment, RulesetSpec, bot_code_hash, check_size, resolve_ruleset

LIGHT_BOTS = ("random", "greedy", "easy")
"""Bots cheap enough for the full game count; any other bot (solver, a search, your own) plays
the smaller `heavy_games`."""
DEFAULT_LADDER = ("random", "greedy", "solver")
DEFAULT_GAMES = 700
HEAVY_SHARE = 5
"""By default a heavy bot plays a fifth of the games of a light one."""
CARD_BOT = "greedy"


@dataclass(frozen=True)
class Condition:
    """One experiment of the plan. `role`: seats (self-play), ladder (a weaker bot in one
    seat, the stronger in the others: `ReportPlan.rungs`), card (seat 0
    forbidden `card`, the rest as the seats condition it pairs with) or always (seat 0 takes
    `card` whenever it can)."""

    ruleset: int
    players: int
    bots: tuple[str, ...]
    games: int
    role: str
    card: str | None = None
    offset: int = 0
    """Games `offset`… of the self-play it extends (`--precision`): game i is played from seed
    S + offset + i and counts as game offset + i."""
    alt: str | None = None
    """The label of the alternative ruleset it plays (`ReportPlan.alternatives`: a sensitivity
    change or a catalogue variant), None for the plan's own rulesets."""

    @property
    def key(self) -> str:
        """A directory name: readable, and unique by a hash of everything that defines it."""
        names = "+".join(self.bots)
        what = f"{self.ruleset}|{self.players}|{names}|{self.games}|{self.role}" + (f"|{self.offset}" if self.offset else "")
        what += f"|{self.alt}" if self.alt is not None else ""
        digest = hashlib.sha256(what.encode()).hexdigest()[:8]
        label = self.alt or self.card or "-".join(dict.fromkeys(self.bots))
        if self.offset:
            label += f"-from{self.offset}"
        return re.sub(r"[^A-Za-z0-9_.-]+", "_", f"r{self.ruleset}-p{self.players}-{self.role}-{label}") + f"-{digest}"


@dataclass(frozen=True)
class ReportPlan:
    rulesets: tuple[RulesetSpec, ...]
    players: tuple[int, ...]
    ladder: tuple[str, ...]
    games: int
    heavy_games: int
    card_players: int
    seed: int
    chunk: int
    cards: tuple[tuple[str, ...], ...]
    """Per ruleset, its card types (`KIND:ID`, count > 0)."""
    copies: tuple[dict[str, int], ...] = field(default=(), compare=False)
    """Per ruleset, each card type's copies in the decks."""
    bot_code: dict[str, str] = field(default_factory=dict, compare=False)
    files: tuple[str | None, ...] = field(default=(), compare=False)
    """Per ruleset, the rules file it is compiled from (None: the packaged base rules)."""
    alternatives: tuple[RulesetSpec, ...] = ()
    """Rulesets played against the first one, paired by seed, greedy self-play at
    `card_players` (`alt_games` games each): the sensitivity changes and the catalogue's
    variants, told apart by `alt_roles`."""
    alt_roles: tuple[str, ...] = ()
    alt_games: int = 0
    variations: tuple[Variation, ...] = field(default=(), compare=False)
    """With --sensitivity: every assumed value's steps, varied or not (the varied ones are
    among `alternatives`)."""
    catalogue_skipped: tuple[tuple[str, str], ...] = field(default=(), compare=False)
    """With --catalogue: the variants not played, each with its reason."""
    extensions: tuple[tuple[int, str, int], ...] = ()
    """(players, bot, games) blocks that extend that self-play past `games` (`--precision`),
    in the order they were added: under every ruleset, so `--vs` stays paired."""

    def compiled(self) -> list[Ruleset]:
        """The rulesets compiled from their files, so each `@assumed` value keeps its own file
        and line (a ruleset compiled from its inlined source would number the inlined text)."""
        out = []
        for spec, path in zip(self.rulesets, self.files or (None,) * len(self.rulesets)):
            rules = compile_rules(path, list(spec.variants))
            if rules.content_hash != spec.hash:  # the file changed since the plan was made
                raise DreamhomeError(f"{spec.label}: the rules changed while the report ran; run it again")
            out.append(rules)
        return out

    def games_for(self, bots: Sequence[str]) -> int:
        return self.games if all(b in LIGHT_BOTS for b in bots) else self.heavy_games

    def seat_bots(self) -> tuple[str, ...]:
        """The bots in self-play: the ladder's, random left out when any other is there."""
        chosen = tuple(b for b in self.ladder if b != "random")
        return chosen or self.ladder

    def conditions(self) -> list[Condition]:
        out: list[Condition] = []
        for r in range(len(self.rulesets)):
            for p in self.players:
                for bot in self.seat_bots():
                    out.append(Condition(r, p, (bot,) * p, self.games_for([bot]), "seats"))
            out += self.extension_blocks(r)
            for _weak, _strong, rotations in self.rungs(r):
                out += rotations
            if self.cards[r] and self.card_baseline(r) not in out:
                out.append(self.card_baseline(r))  # restricted play pairs with it, even off the ladder
            p = self.card_players
            for card in self.cards[r]:
                for role, always in (("card", False), ("always", True)):
                    bots = (restricted_name(CARD_BOT, card, always), *([CARD_BOT] * (p - 1)))
                    out.append(Condition(r, p, bots, self.games, role, card))
        if self.alternatives:
            if self.alt_baseline() not in out:
                out.append(self.alt_baseline())
            p = self.card_players
            for spec, role in zip(self.alternatives, self.alt_roles):
                out.append(Condition(0, p, (CARD_BOT,) * p, self.alt_games, role, alt=spec.label))
        return out

    def rungs(self, r: int) -> list[tuple[str, str, list[Condition]]]:
        """Each rung of the ladder (weaker, stronger) at the smallest player count given: one
        condition a seat of the weaker bot (it sits at seat k of rotation k, the stronger bot
        everywhere else). Every rotation plays the same seeds, so a deal is played once with
        the weaker bot in each seat: its seat's luck averages out of the rung's figures and the
        deal's share of the margin's variance can be measured (stats.ladder)."""
        several = [p for p in self.players if p >= 2]
        if not several:
            return []
        p = min(several)
        out = []
        for weak, strong in zip(self.ladder, self.ladder[1:]):
            rotations = []
            for k in range(p):
                bots = tuple(weak if i == k else strong for i in range(p))
                rotations.append(Condition(r, p, bots, self.games_for(bots), "ladder"))
            out.append((weak, strong, rotations))
        return out

    def extension_blocks(self, r: int) -> list[Condition]:
        """The self-play blocks `--precision` added, each after the games before it."""
        out = []
        played = {(p, bot): self.games_for([bot]) for p in self.players for bot in self.seat_bots()}
        for p, bot, games in self.extensions:
            out.append(Condition(r, p, (bot,) * p, games, "extension", offset=played[p, bot]))
            played[p, bot] += games
        return out

    def extended(self, players: int, bot: str, games: int) -> ReportPlan:
        """This plan with `games` more self-play games of `players` and `bot`."""
        return replace(self, extensions=(*self.extensions, (players, bot, games)))

    def merged(self, results: Mapping[Condition, Sequence[dict]]) -> dict[Condition, list[dict]]:
        """The results with each self-play condition's extension blocks joined to it (game
        indices shifted by the block's offset) and the blocks themselves left out."""
        out = {c: list(g) for c, g in results.items() if c.role != "extension"}
        for c, games in results.items():
            if c.role == "extension":
                home = Condition(c.ruleset, c.players, c.bots, self.games_for(c.bots[:1]), "seats")
                out[home] = out.get(home, []) + [{**g, "game": g["game"] + c.offset} for g in games]
        return out

    def alt_baseline(self) -> Condition:
        """The first ruleset's games the alternatives pair with: its greedy self-play at
        `card_players` when that has games enough, else a condition of its own."""
        p = self.card_players
        seats = Condition(0, p, (CARD_BOT,) * p, self.games_for([CARD_BOT]), "seats")
        if CARD_BOT in self.seat_bots() and seats.games >= self.alt_games:
            return seats
        return Condition(0, p, (CARD_BOT,) * p, self.alt_games, "alt_base")

    def card_baseline(self, r: int) -> Condition:
        """The unrestricted games a card condition is paired with (same seeds)."""
        p = self.card_players
        return Condition(r, p, (CARD_BOT,) * p, self.games, "seats")

    def experiment(self, cond: Condition) -> Experiment:
        code = tuple(self.bot_code.get(b, "") for b in cond.bots)
        seed = self.seed + cond.offset
        spec = self.rulesets[cond.ruleset] if cond.alt is None else next(a for a in self.alternatives if a.label == cond.alt)
        return Experiment((spec,), cond.games, cond.players, cond.bots, seed, self.chunk, code)

    def to_dict(self) -> dict:
        return {
            "rulesets": [{"label": r.label, "variants": list(r.variants), "hash": r.hash} for r in self.rulesets],
            "players": list(self.players),
            "ladder": list(self.ladder),
            "games": self.games,
            "heavy_games": self.heavy_games,
            "card_players": self.card_players,
            "card_bot": CARD_BOT,
            "seed": self.seed,
            "chunk": self.chunk,
            "extensions": [{"players": p, "bot": b, "games": g} for p, b, g in self.extensions],
            "alternatives": [
                {"label": a.label, "role": role, "hash": a.hash} for a, role in zip(self.alternatives, self.alt_roles)
            ],
            "alt_games": self.alt_games,
        }


def build_plan(
    *,
    rules_path: str | None,
    variants: Sequence[str] = (),
    vs: str | None = None,
    players: Sequence[int] | None = None,
    games: int = DEFAULT_GAMES,
    heavy_games: int | None = None,
    ladder: Sequence[str] | None = None,
    card_players: int | None = None,
    seed: int = 0,
    chunk: int = 25,
    cards: bool = True,
    sensitivity: str | None = None,
    catalogue: bool = False,
    alt_games: int | None = None,
) -> ReportPlan:
    """A plan from what the user typed, every part checked (DreamhomeError, one line).
    `cards=False` leaves restricted play out (a quick look at the seats and the ladder).
    `sensitivity` (`all` or `own`: every assumed value, or those of the rules file itself) and
    `catalogue` add their alternatives, `alt_games` games each (default: a fifth of `games`)."""
    check_seed(seed, "--seed")  # a negative seed repeats its positive twin's games (issue 34, item 10)
    heavy = max(1, games // HEAVY_SHARE) if heavy_games is None else heavy_games
    check_size(games, chunk)
    try:
        check_size(heavy, chunk)
    except DreamhomeError as exc:
        raise DreamhomeError(str(exc).replace("--games", "--heavy-games", 1)) from None
    base = compile_rules(rules_path, list(dict.fromkeys(variants)))
    label = rules_path or "base"
    specs = [RulesetSpec(label, base.source, tuple(base.variants_on), base.content_hash)]
    compiled = [base]
    files = [rules_path]
    if vs is not None:
        spec = resolve_ruleset(vs, rules_path, tuple(dict.fromkeys(variants)))
        specs.append(spec)
        files.append(vs if vs != "base" and (Path(vs).suffix == ".dh" or Path(vs).exists()) else rules_path)
        compiled.append(compile_rules(files[-1], list(spec.variants)))
    lo = max(r.game.min_players for r in compiled)
    hi = min(r.game.max_players for r in compiled)
    chosen = tuple(dict.fromkeys(players)) if players else tuple(range(lo, hi + 1))
    for p in chosen:
        if not lo <= p <= hi:
            raise DreamhomeError(f"--players: {p} is not a player count of these rules ({lo}–{hi})")
    if not chosen:
        raise DreamhomeError("--players: name at least one player count")
    names = tuple(dict.fromkeys(ladder)) if ladder else DEFAULT_LADDER
    code = {}
    for name in names:
        bot = make_seat(name, seed, 0)  # an unknown name or a module that does not import: one line now
        code[name] = bot_code_hash(bot)
    cp = card_players if card_players is not None else chosen[0]
    if cp not in chosen:
        raise DreamhomeError(f"--card-players: {cp} is not one of --players ({', '.join(map(str, chosen))})")
    copies = tuple(card_copies(r) for r in compiled)
    types = tuple(tuple(c) if cards else () for c in copies)
    plan = ReportPlan(tuple(specs), chosen, names, games, heavy, cp, seed, chunk, types, copies, code, tuple(files))
    alts: list[RulesetSpec] = []
    roles: list[str] = []
    varied: tuple[Variation, ...] = ()
    if sensitivity is not None:
        own = rules_path if sensitivity == "own" and rules_path is not None else None
        varied = tuple(variations(base, label, own))
        alts += [v.spec for v in varied if v.spec is not None]
        roles += ["sensitivity"] * (len(alts) - len(roles))
    skipped: list[tuple[str, str]] = []
    if catalogue:
        for variant in catalogue_variants(base):
            spec = resolve_ruleset(variant, rules_path, tuple(dict.fromkeys(variants)))
            game = compile_rules(rules_path, list(spec.variants)).game
            if not game.min_players <= cp <= game.max_players:
                skipped.append((variant, f"plays {game.min_players}–{game.max_players} players, not {cp}"))
                continue
            alts.append(spec)
            roles.append("catalogue")
    if alts:
        n = max(1, games // HEAVY_SHARE) if alt_games is None else alt_games
        try:
            check_size(n, chunk)
        except DreamhomeError as exc:
            raise DreamhomeError(str(exc).replace("--games", "--alt-games", 1)) from None
        plan = replace(plan, alternatives=tuple(alts), alt_roles=tuple(roles), alt_games=n, variations=varied)
    return replace(plan, catalogue_skipped=tuple(skipped))


def catalogue_variants(rules: Ruleset) -> list[str]:
    """Every variant the rules offer that is not already on, in a fixed order."""
    return sorted(v for v in rules.variants_available if v not in rules.variants_on)
