"""`play --resume FILE` runs no code the user did not name (issue 21): a record naming a
`module:Class` bot once imported that module before anything of the file was checked, so a
save file could run code. The record is checked first, and a bot of the user's own code is
imported only when `--bots` names it on the command line."""

from __future__ import annotations

import json
import subprocess
import sys

from dreamhome.game.record import record_digest
from tests.helpers.paths import ROOT

EVIL = "import pathlib\npathlib.Path('ran').write_text('x')\nfrom dreamhome.players.bots import RandomBot as Bot\n"


def _dh(*args: str, cwd, lines=("quit",)) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "dreamhome", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=cwd,
        env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": f"{cwd}:{ROOT}"},
        timeout=300,
    )


def _saved_with_module_bot(tmp_path, digest_ok: bool = True):
    (tmp_path / "evilbot.py").write_text(EVIL)
    saved = tmp_path / "saved.json"
    proc = _dh(
        "play", "--players", "2", "--bots", "human,random", "--seed", "4", cwd=tmp_path, lines=["1", f"save {saved}", "quit"]
    )
    assert proc.returncode == 0, proc.stderr
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["bots"] = ["human", "evilbot:Bot"]
    if digest_ok:
        data["digest"] = record_digest(data)
    saved.write_text(json.dumps(data), encoding="utf-8")
    (tmp_path / "ran").unlink(missing_ok=True)
    return saved


def test_a_record_naming_a_module_bot_runs_nothing_unless_the_user_names_it(tmp_path):
    saved = _saved_with_module_bot(tmp_path)
    proc = _dh("play", "--resume", str(saved), cwd=tmp_path)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1 and "--bots human,evilbot:Bot" in proc.stderr
    assert not (tmp_path / "ran").exists()
    other = _dh("play", "--resume", str(saved), "--bots", "human,random", cwd=tmp_path)
    assert other.returncode == 2 and "exactly" in other.stderr
    assert not (tmp_path / "ran").exists()


def test_an_edited_record_is_refused_before_any_import(tmp_path):
    saved = _saved_with_module_bot(tmp_path, digest_ok=False)
    proc = _dh("play", "--resume", str(saved), "--bots", "human,evilbot:Bot", cwd=tmp_path)
    assert proc.returncode == 2 and "digest" in proc.stderr
    assert not (tmp_path / "ran").exists()


def test_the_named_bot_is_imported_and_the_game_checked(tmp_path):
    """Named on the command line, the bot is the user's choice: it is imported and replayed
    (here it plays otherwise than the record's random bot did, which the replay refuses)."""
    saved = _saved_with_module_bot(tmp_path)
    proc = _dh("play", "--resume", str(saved), "--bots", "human,evilbot:Bot", cwd=tmp_path)
    assert (tmp_path / "ran").exists()
    assert "Traceback" not in proc.stderr
