"""An experiment: rulesets × games, cut into chunks of games with their seeds.

Game i is played from seed `seed + i` under every ruleset (common random
numbers), so differences against the baseline are paired. A chunk's result is
a pure function of (ruleset source, variants, players, bots, seeds), which is
why every executor, and any number of workers, gives the same numbers.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from dreamhome.dsl.compiler import compile_rules
from dreamhome.errors import DreamhomeError
from dreamhome.ruleset import FACE_DOWN, ROOM0, Ruleset
from dreamhome.scoring import COMPONENTS, score_components
from dreamhome.seeds import check_seed


@dataclass(frozen=True)
class RulesetSpec:
    label: str  # what the user typed: a variant name, `base`, or a path
    source: str  # the full rules text (includes inlined)
    variants: tuple[str, ...]
    hash: str


@dataclass(frozen=True)
class Experiment:
    rulesets: tuple[RulesetSpec, ...]
    games: int
    players: int
    bots: tuple[str, ...]
    seed: int
    chunk: int
    bot_code: tuple[str, ...] = ()
    """For each bot name of your own code (`module:Class`), the sha256 of its module's source
    (`bot_code_hash`); empty for the packaged bots. Part of the id, so `--resume` after the bot's
    code changed is refused instead of mixing old and new games."""

    @property
    def id(self) -> str:
        """Identifies the experiment: the same id means the same games and the same numbers."""
        fields: dict[str, object] = {
            "rulesets": [r.hash for r in self.rulesets],
            "games": self.games,
            "players": self.players,
            "bots": self.bots,
            "seed": self.seed,
            "chunk": self.chunk,
        }
        if any(self.bot_code):  # only then: the ids of experiments with packaged bots stay as they were
            fields["bot_code"] = list(self.bot_code)
        payload = json.dumps(fields, sort_keys=True)
        return hashlib.sha256(payload.encode()).hexdigest()[:16]

    def jobs(self) -> Iterator[tuple[int, int, int]]:
        """(ruleset index, first game, end game) for every chunk, in a fixed order.

        A generator: a big experiment's chunks are made as the executors take them,
        never all at once.
        """
        for r in range(len(self.rulesets)):
            for a in range(0, self.games, self.chunk):
                yield (r, a, min(a + self.chunk, self.games))

    def is_job(self, job: tuple[int, int, int]) -> bool:
        """Whether `job` is one of this experiment's chunks (without listing them)."""
        r, a, b = job
        in_range = 0 <= r < len(self.rulesets) and 0 <= a < self.games
        return in_range and a % self.chunk == 0 and b == min(a + self.chunk, self.games)

    def to_dict(self) -> dict:
        return {
            "id": self.id,
            "games": self.games,
            "players": self.players,
            "bots": list(self.bots),
            "seed": self.seed,
            "chunk": self.chunk,
            **({"bot_code": list(self.bot_code)} if any(self.bot_code) else {}),
            "rulesets": [{"label": r.label, "variants": list(r.variants), "hash": r.hash} for r in self.rulesets],
        }


MAX_GAMES = 1_000_000
"""Most games per ruleset: about a day of one core; more only fills memory and disk."""
MAX_CHUNK = 10_000
"""Most games per chunk: a chunk is held in memory and written as one file."""


def check_size(games: int, chunk: int) -> None:
    """Refuse experiment sizes the machine cannot hold, naming the bound."""
    if not 1 <= games <= MAX_GAMES:
        raise DreamhomeError(f"--games must be from 1 to {MAX_GAMES:,} per ruleset, got {games:,}")
    if not 1 <= chunk <= MAX_CHUNK:
        raise DreamhomeError(f"--chunk must be from 1 to {MAX_CHUNK:,} games, got {chunk:,}")


def build_experiment(
    rulesets: Sequence[str],
    *,
    games: int,
    players: int,
    bots: Sequence[str] | None,
    seed: int,
    chunk: int,
    base_rules: str | None = None,
    base_variants: Sequence[str] = (),
) -> Experiment:
    """An experiment from what the user typed, every part checked (DreamhomeError, one line).

    `rulesets`: variant names, `base` or rules files (the first is the baseline);
    `bots`: one name per seat, or None for greedy everywhere; `base_rules` and `base_variants`
    (the command's global `--rules` and `--variant`) are the rules in use under every ruleset.
    """
    from dreamhome.players.roster import make_bot

    check_size(games, chunk)
    check_seed(seed, "--seed")  # game i is seed + i: from 0, no two games are one
    if not rulesets:
        raise DreamhomeError("name at least one ruleset or variant (the first is the baseline)")
    specs = tuple(resolve_ruleset(arg, base_rules, base_variants) for arg in rulesets)
    for spec in specs:
        game = chunk_rules(spec.source, spec.variants).game
        if not game.min_players <= players <= game.max_players:
            raise DreamhomeError(f"{spec.label}: players must be {game.min_players}–{game.max_players}, got {players}")
    names = tuple(bots) if bots else ("greedy",) * players
    if len(names) != players:
        raise DreamhomeError(f"--bots names {len(names)} bot(s) for {players} players; give one per seat")
    code = {name: bot_code_hash(make_bot(name, seed, 0)) for name in dict.fromkeys(names)}
    # make_bot above: an unknown name, a module:Class that does not import, a missing extra: one line now
    return Experiment(specs, games, players, names, seed, chunk, tuple(code[name] for name in names))


def bot_code_hash(bot: object) -> str:
    """sha256 of the source file of a bot of your own code (its class's module), "" for the
    packaged bots: a what-if's games are a function of the bots' code too. Only that module is
    hashed; a change in a module it imports is not seen (docs/WHATIF.md)."""
    module = sys.modules.get(type(bot).__module__)
    if module is None or module.__name__.split(".")[0] == "dreamhome":
        return ""
    source = getattr(module, "__file__", None)
    if not source:
        raise DreamhomeError(f"bot {type(bot).__module__}:{type(bot).__name__}: its module has no source file to identify it by")
    try:
        return "sha256:" + hashlib.sha256(Path(source).read_bytes()).hexdigest()
    except OSError as exc:
        raise DreamhomeError(f"bot {type(bot).__module__}:{type(bot).__name__}: cannot read {source}: {exc.strerror}") from None


def resolve_ruleset(arg: str, base_rules: str | None = None, base_variants: Sequence[str] = ()) -> RulesetSpec:
    """A rules file path, `base` (the rules in use), or a variant of the rules in use; the
    variants `base_variants` (the global `--variant`) are on under each of them."""
    on = tuple(dict.fromkeys(base_variants))
    path = Path(arg)
    if arg != "base" and (path.suffix == ".dh" or path.exists()):
        rules = compile_rules(path, on)  # reads the file once: a regular file under the size cap
        return RulesetSpec(arg, rules.source, on, rules.content_hash)
    base = compile_rules(base_rules, on)
    if arg == "base":
        return RulesetSpec("base", base.source, on, base.content_hash)
    if arg not in base.variants_available:
        known = ", ".join(["base", *sorted(base.variants_available)])
        raise DreamhomeError(f"unknown ruleset or variant '{arg}'; known: {known} (or a path to a .dh file)")
    variants = tuple(dict.fromkeys((*on, arg)))
    rules = compile_rules(base_rules, variants)
    return RulesetSpec(arg, rules.source, variants, rules.content_hash)


@lru_cache(maxsize=16)
def chunk_rules(source: str, variants: tuple[str, ...]) -> Ruleset:
    """The rules a chunk's payload names, compiled once a worker: the next chunks of the same
    ruleset, the what-if's and the balance report's (dreamhome.report.play) alike, reuse them."""
    return compile_rules(text=source, name="experiment", variants=list(variants))


Summarise = Callable[[Ruleset, dict, int], dict]
"""One game of a chunk, played from `seed` under the payload's players and bots, as the summary
its experiment keeps (without the game index, which `play_games` puts first)."""


def play_games(job: dict, summarise: Summarise) -> dict:
    """Play one chunk: game i from seed `seed + i`, each summarised by `summarise`, or kept as an
    error naming its seed when it crashes (the rest of the chunk plays on). The one chunk loop
    of every experiment: `play_chunk` here, `play_report_chunk` for the balance report."""
    rules = chunk_rules(job["source"], tuple(job["variants"]))
    games = []
    for i in range(job["start"], job["end"]):
        seed = job["seed"] + i
        try:
            games.append({"game": i, **summarise(rules, job, seed)})
        except Exception as exc:  # noqa: BLE001 - a crash is reported with its seed; the run goes on
            games.append({"game": i, "seed": seed, "error": f"{type(exc).__name__}: {exc}"})
    return {"ruleset": job["ruleset"], "start": job["start"], "end": job["end"], "games": games}


def play_chunk(job: dict) -> dict:
    """Play one what-if chunk; every game becomes a small summary, or an error naming its seed."""
    return play_games(job, _summary)


def _summary(rules: Ruleset, job: dict, seed: int) -> dict:
    """A what-if game: its scores, winners, score components and the rooms built."""
    from dreamhome.players.playing import play_game

    result = play_game(rules, job["players"], list(job["bots"]), seed)
    state = result.state
    counts: dict[str, int] = {}
    for house in state.houses:
        for code in house.cells:
            if code >= ROOM0:
                name = rules.room_of_code(code).id
                counts[name] = counts.get(name, 0) + 1
            elif code == FACE_DOWN:
                counts["empty room"] = counts.get("empty room", 0) + 1
    summary = {
        "seed": seed,
        "scores": result.scores(),
        "winners": result.winners(),
        "first": state.initial_first,
        "components": [dict(zip(COMPONENTS, score_components(rules, h))) for h in state.houses],
        "cards": counts,
    }
    if job.get("records"):  # `whatif --records`: the runner files it apart, never in the chunk
        summary["record"] = result.record()
    return summary


def job_payload(exp: Experiment, job: tuple[int, int, int], records: bool = False) -> dict:
    """What a worker needs to play chunk `job`; with `records`, each game's record comes back too
    (`whatif --records`: a game review reads them)."""
    r, a, b = job
    spec = exp.rulesets[r]
    return {
        **({"records": True} if records else {}),
        "ruleset": r,
        "start": a,
        "end": b,
        "seed": exp.seed,
        "players": exp.players,
        "bots": list(exp.bots),
        "source": spec.source,
        "variants": list(spec.variants),
    }


__all__ = [
    "MAX_CHUNK",
    "bot_code_hash",
    "MAX_GAMES",
    "Experiment",
    "RulesetSpec",
    "build_experiment",
    "chunk_rules",
    "check_size",
    "job_payload",
    "play_chunk",
    "play_games",
    "resolve_ruleset",
]
