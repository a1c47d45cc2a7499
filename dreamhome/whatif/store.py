"""An experiment's directory: its manifest and one file per finished chunk.

Chunks are written atomically as they finish, so an interrupted run (Ctrl-C, a
killed worker) leaves a valid partial result that `--resume` continues.
"""

from __future__ import annotations

import json
from pathlib import Path

from dreamhome.errors import DreamhomeError
from dreamhome.house import write_atomic
from dreamhome.whatif.experiment import Experiment


class Store:
    def __init__(self, directory: str | Path, experiment: Experiment, resume: bool):
        self.dir = Path(directory)
        self.exp = experiment
        manifest = self.dir / "manifest.json"
        if manifest.exists():
            try:
                old = json.loads(manifest.read_text())
            except (OSError, json.JSONDecodeError) as exc:
                raise DreamhomeError(f"{manifest}: unreadable manifest ({exc})") from None
            if not resume:
                raise DreamhomeError(f"{self.dir} already holds an experiment; use --resume to continue it, or another --out")
            if old.get("id") != experiment.id:
                raise DreamhomeError(
                    f"{self.dir} holds a different experiment (id {old.get('id')}, this one is "
                    f"{experiment.id}: other rulesets, games, players, bots, seed or chunk size); "
                    "refusing to resume it"
                )
        elif resume and self.dir.exists() and any(self.dir.iterdir()):
            raise DreamhomeError(f"{self.dir} holds no experiment manifest; refusing to resume into it")
        (self.dir / "chunks").mkdir(parents=True, exist_ok=True)
        if not manifest.exists():
            write_atomic(manifest, json.dumps(experiment.to_dict(), indent=2) + "\n")

    def chunk_path(self, ruleset: int, start: int, end: int) -> Path:
        return self.dir / "chunks" / f"r{ruleset}-{start:07d}-{end:07d}.json"

    def done(self) -> set[tuple[int, int, int]]:
        out = set()
        for path in (self.dir / "chunks").glob("r*.json"):
            try:
                data = json.loads(path.read_text())
                out.add((data["ruleset"], data["start"], data["end"]))
            except (OSError, json.JSONDecodeError, KeyError):
                continue  # a damaged chunk is played again
        return out

    def save(self, chunk: dict) -> None:
        write_atomic(self.chunk_path(chunk["ruleset"], chunk["start"], chunk["end"]), json.dumps(chunk) + "\n")

    def load_games(self) -> list[list[dict]]:
        """Per ruleset, every stored game, sorted by game index."""
        per = [[] for _ in self.exp.rulesets]
        for path in sorted((self.dir / "chunks").glob("r*.json")):
            data = json.loads(path.read_text())
            per[data["ruleset"]].extend(data["games"])
        return [sorted(games, key=lambda g: g["game"]) for games in per]
