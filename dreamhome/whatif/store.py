"""An experiment's directory: its manifest and one file per finished chunk.

Chunks are written atomically as they finish, so an interrupted run (Ctrl-C, a
killed worker) leaves a valid partial result that `--resume` continues. Each
chunk file carries the experiment's id and a checksum of its own content, and
only the file named for a chunk of this experiment counts: a chunk copied
under another name, emptied, edited or taken from another experiment is
detected on resume (reported, then played again) instead of being counted
twice or silently missing.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from dreamhome.errors import DreamhomeError
from dreamhome.fileio import check_output_dir, display_name, read_json, write_atomic
from dreamhome.whatif.experiment import Experiment

Job = tuple[int, int, int]


MANIFEST = "manifest.json"
CHUNKS_DIR = "chunks"
"""An experiment's folder: its manifest, and its finished chunks in CHUNKS_DIR."""


def chunk_checksum(chunk: dict) -> str:
    """SHA-256 of a chunk's canonical JSON, without its own checksum field."""
    body = {k: v for k, v in chunk.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def _game_index(game: object) -> int:
    index = game.get("game") if isinstance(game, dict) else None
    return index if isinstance(index, int) else -1


class Store:
    def __init__(self, directory: str | Path, experiment: Experiment, resume: bool):
        self.dir = Path(directory)
        self.exp = experiment
        self.problems: list[str] = []
        check_output_dir(self.dir)
        manifest = self.dir / MANIFEST
        if manifest.exists():
            old = read_json(manifest, "experiment manifest")
            if not resume:
                raise DreamhomeError(
                    f"{display_name(self.dir)} already holds an experiment; use --resume to continue it, or another --out"
                )
            if not isinstance(old, dict) or old.get("id") != experiment.id:
                other = old.get("id") if isinstance(old, dict) else None
                raise DreamhomeError(
                    f"{display_name(self.dir)} holds a different experiment (id {display_name(str(other))}, this one is "
                    f"{experiment.id}: other rulesets, games, players, bots, a bot's code, seed or chunk size); "
                    "refusing to resume it"
                )
        elif resume and self.dir.exists() and any(self.dir.iterdir()):
            raise DreamhomeError(f"{display_name(self.dir)} holds no experiment manifest; refusing to resume into it")
        (self.dir / CHUNKS_DIR).mkdir(parents=True, exist_ok=True)
        if not manifest.exists():
            write_atomic(manifest, json.dumps(experiment.to_dict(), indent=2) + "\n")

    def chunk_path(self, ruleset: int, start: int, end: int) -> Path:
        return self.dir / CHUNKS_DIR / f"r{ruleset}-{start:07d}-{end:07d}.json"

    def done(self) -> set[Job]:
        """The chunks stored and verified; every other file in chunks/ is noted in `problems`."""
        out: set[Job] = set()
        for path in sorted((self.dir / CHUNKS_DIR).iterdir()):
            if path.name.startswith("."):
                continue  # a temp file of an interrupted write
            job = self._job_of(path.name)
            if job is None:
                self.problems.append(f"{display_name(path)}: not a chunk file of this experiment; ignored")
                continue
            _data, why = self._load(path, job)
            if why:
                self.problems.append(f"{display_name(path)}: {why}; its games are played again")
                continue
            out.add(job)
        return out

    def _job_of(self, name: str) -> Job | None:
        for job in self._jobs_named(name):
            if self.exp.is_job(job) and self.chunk_path(*job).name == name:
                return job
        return None

    @staticmethod
    def _jobs_named(name: str) -> list[Job]:
        parts = name.removesuffix(".json").removeprefix("r").split("-")
        if len(parts) != 3 or not all(p.isdigit() and p.isascii() for p in parts):
            return []
        return [(int(parts[0]), int(parts[1]), int(parts[2]))]

    def _load(self, path: Path, job: Job) -> tuple[dict, str | None]:
        """A chunk file's content and why it cannot be trusted (None: it can)."""
        try:
            data = read_json(path, "chunk file")
        except DreamhomeError as exc:
            return {}, str(exc).split(": ", 1)[-1]
        if not isinstance(data, dict):
            return {}, "not a chunk"
        return data, self._problem(data, job)

    def _problem(self, data: dict, job: Job) -> str | None:
        if data.get("experiment") != self.exp.id:
            return "belongs to another experiment"
        if data.get("checksum") != chunk_checksum(data):
            return "its checksum does not match its content"
        r, a, b = job
        games = data.get("games")
        if (data.get("ruleset"), data.get("start"), data.get("end")) != job or not isinstance(games, list):
            return "its content is not the chunk its name says"
        indices: list[int] = [_game_index(g) for g in games]
        if sorted(indices) != list(range(a, b)):
            return f"does not hold games {a}–{b - 1} of ruleset {r}"
        return None

    def save(self, chunk: dict) -> None:
        stamped = {"experiment": self.exp.id, **chunk}
        stamped["checksum"] = chunk_checksum(stamped)
        write_atomic(self.chunk_path(chunk["ruleset"], chunk["start"], chunk["end"]), json.dumps(stamped) + "\n")

    def load_games(self) -> list[list[dict]]:
        """Per ruleset, every game of the experiment, sorted by game index.

        Reads exactly the chunk files of the experiment's jobs, each verified again:
        a chunk missing or damaged now is an error, never a silent gap.
        """
        per: list[list[dict]] = [[] for _ in self.exp.rulesets]
        for job in self.exp.jobs():
            path = self.chunk_path(*job)
            if not path.exists():
                raise DreamhomeError(f"{display_name(path)}: chunk missing after the run; run again with --resume")
            data, why = self._load(path, job)
            if why:
                raise DreamhomeError(f"{display_name(path)}: {why}; run again with --resume")
            per[job[0]].extend(data["games"])
        return [sorted(games, key=lambda g: g["game"]) for games in per]
