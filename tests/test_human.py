"""A human seat in the terminal (`dreamhome play --bots human,…`), driven through a pipe, and its
hints (dreamhome.players.hints).

The games are played by the real command with scripted stdin — one whole game in a subprocess
through a real pipe, the others in this process through the same entry point
(tests/helpers/cli.run_here); their results are checked against the independent scorer of
tests/helpers/reference.py and against `dreamhome replay`, and a saved-then-resumed game against
the same game played in one go.
"""

from __future__ import annotations

import json
import re
import string
import subprocess
import sys
from pathlib import Path

import pytest

from dreamhome.engine.endgame import END_ROLES, helper_uses
from dreamhome.game.actions import EndTurn, PlaceRoom, TakeColumn
from dreamhome.game.record import GameResult, load_record, replay_record
from dreamhome.game.state import GameState
from dreamhome.house import house_to_json
from dreamhome.players.hints import hint
from dreamhome.players.playing import resume_record
from dreamhome.players.roster import make_bot
from dreamhome.ruleset import EMPTY, SCAFFOLD
from tests.helpers.cli import Ran, run_here
from tests.helpers.games import decision_positions
from tests.helpers.paths import ROOT
from tests.helpers.reference import reference_score
from tests.helpers.rules import compiled

# One worker runs this module (pytest --dist loadgroup, pyproject.toml): its module fixtures —
# the whole games played through a pipe — are computed once, not once in every worker.
pytestmark = pytest.mark.xdist_group("test_human")

GAME = ("--players", "2", "--bots", "human,greedy", "--seed", "5", "--first-player", "0")
# Seat 0 leads round 1 of a 2-player game: ROUND-1's discard, then its take, then its placement.
OPENING = ["bogus", "99", "", "help", "save", "save /", "1", "hint", "2", "undo", "1"]
ANSWERS = 400  # more "1"s than any game needs; the rest of the input is left unread


def play(*args: str, lines: list[str], lang: str | None = None) -> subprocess.CompletedProcess[str]:
    """`dreamhome [--lang LANG] play ARGS…` in a fresh process fed `lines` on a plain pipe (so
    stdout is no terminal): the whole game of `whole_game`, the module's one game through a real
    pipe."""
    proc = subprocess.run(
        [sys.executable, "-m", "dreamhome", *(("--lang", lang) if lang else ()), "play", *args],
        input="".join(line + "\n" for line in lines),
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"COLUMNS": "160", "PATH": "/usr/bin:/bin", "HOME": "/tmp", "PYTHONPATH": str(ROOT)},
        timeout=600,
    )
    assert "Traceback" not in proc.stderr, proc.stderr
    return proc


def play_here(*args: str, lines: list[str], lang: str | None = None) -> Ran:
    """The same command run in this process (tests/helpers/cli.run_here: the user's entry point,
    its exit statuses and one-line errors, stdin read to its end, stdout no terminal): a
    process start-up saved per game where what is read is what the seat says and saves."""
    return run_here(*(("--lang", lang) if lang else ()), "play", *args, cwd=ROOT, input="".join(line + "\n" for line in lines))


def final_scores(stdout: str) -> list[int]:
    return [int(m) for m in re.findall(r"^seat \d+ \([^)]*\): (\d+)", stdout, flags=re.M) if m][-2:]


@pytest.fixture(scope="module")
def whole_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[subprocess.CompletedProcess[str], Path]:
    record = tmp_path_factory.mktemp("human") / "whole.json"
    # --no-review: the game review printed at a terminal game's end is tests/test_cli.py's
    # (test_a_terminal_game_ends_with_its_review) and, in Russian, `russian_game`'s; a review is
    # most of a whole game's time, and nothing here reads it.
    return play(*GAME, "--record", str(record), "--no-review", lines=OPENING + ["1"] * ANSWERS), record


def test_a_whole_game_through_a_pipe_ends_with_the_scorers_scores(whole_game):
    proc, record = whole_game
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "\x1b[" not in out  # piped: no colour codes
    assert "unknown command 'bogus'" in out and "no option 99: choose 1–" in out  # bad input: one line, prompt again
    assert "commands:" in out and "save FILE" in out  # help
    assert "save needs a file name" in out and "not saved: /" in out
    assert "round 1 of 12" in out and "track" in out and "your options" in out
    data = load_record(record)
    assert "finished" not in data
    rules = compiled()
    # SCORE-*: the scores printed and recorded are the independent scorer's on the final houses.
    expected = [reference_score(rules, house)["total"] for house in data["houses"]]
    assert data["scores"] == expected == final_scores(out)
    result = replay_record(data, "whole")
    assert result.scores() == expected
    replay = run_here("replay", record, cwd=ROOT)
    assert replay.returncode == 0 and "every event verified" in replay.stdout


def test_the_hint_names_every_option_and_the_best(whole_game):
    out = whole_game[0].stdout
    table = out[out.index("keeps reachable") : out.index("keeps reachable:")]
    assert table.count("take column") >= 2 and "← best" in table
    assert re.search(r"take column \d .*\s\d+\s", table)  # a bound beside each option


def test_undo_takes_back_the_take_and_the_record_never_holds_it(whole_game):
    proc, record = whole_game
    out = proc.stdout
    undone = re.search(r"seat 0 \(you\): take column (\d)\n", out)
    assert undone is not None
    assert f"took back: take column {undone.group(1)}" in out
    kept = re.findall(r"seat 0 \(you\): take column (\d)\n", out)[1]
    assert kept != undone.group(1)
    takes = [
        e["action"]["column"]
        for e in load_record(record)["events"]
        if e.get("round") == 1 and e.get("player") == 0 and e.get("action", {}).get("type") == "TakeColumn"
    ]
    assert takes == [int(kept)]


def test_undo_after_another_player_acted_is_refused():
    proc = play_here(*GAME, lines=["1", "1", "1", "undo", "quit"])  # discard, take, place; then greedy plays
    assert proc.returncode == 0
    assert "nothing to undo" in proc.stdout
    assert "quit: the game was not saved" in proc.stdout


def test_save_and_resume_end_exactly_as_the_game_played_in_one_go(whole_game, tmp_path):
    _, whole = whole_game
    saved = tmp_path / "saved.json"
    first = play_here(*GAME, lines=OPENING + ["1"] * 25 + [f"save {saved}", "quit"])
    assert first.returncode == 0, first.stderr
    assert f"quit: continue from your last save with `dreamhome play --resume {saved}`" in first.stdout
    data = json.loads(saved.read_text(encoding="utf-8"))
    assert data["finished"] is False and data["bots"] == ["human", "greedy"]
    resumed = tmp_path / "resumed.json"
    second = play_here("--resume", str(saved), "--record", str(resumed), "--no-review", lines=["1"] * ANSWERS)
    assert second.returncode == 0, second.stderr
    assert json.loads(resumed.read_text(encoding="utf-8")) == json.loads(whole.read_text(encoding="utf-8"))


def test_resume_continues_the_random_stream_of_a_random_bot(tmp_path):
    """A random bot draws at each of its decisions: resumed, it must draw as if never stopped."""
    game = ("--players", "2", "--bots", "random,human", "--seed", "11")
    whole = tmp_path / "whole.json"
    assert play_here(*game, "--record", str(whole), "--no-review", lines=["1"] * ANSWERS).returncode == 0  # the records compared
    saved = tmp_path / "saved.json"
    assert play_here(*game, lines=["1"] * 30 + [f"save {saved}", "quit"]).returncode == 0
    resumed = tmp_path / "resumed.json"
    assert play_here("--resume", str(saved), "--record", str(resumed), "--no-review", lines=["1"] * ANSWERS).returncode == 0
    assert json.loads(resumed.read_text(encoding="utf-8")) == json.loads(whole.read_text(encoding="utf-8"))


def test_an_unfinished_record_is_refused_by_replay_in_one_line(tmp_path):
    saved = tmp_path / "saved.json"
    assert play_here(*GAME, lines=["1", "1", f"save {saved}", "quit"]).returncode == 0
    proc = run_here("replay", saved, cwd=ROOT)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and "unfinished game" in lines[0] and "--resume" in lines[0]
    # Edited while saved: the resume refuses it (its digest, or the first event that differs).
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["seed"] = 6
    saved.write_text(json.dumps(data), encoding="utf-8")
    bad = play_here("--resume", str(saved), lines=["quit"])
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize(
    ("name", "needle"),
    [("two_players_kids.v2.json", "already finished"), ("two_players_kids.json", "record/1 game is finished")],
)
def test_resume_refuses_a_finished_record_in_one_line(name, needle):
    proc = play_here("--resume", str(ROOT / "tests" / "golden" / name), lines=["quit"])
    assert proc.returncode == 2
    assert len(proc.stderr.strip().splitlines()) == 1 and needle in proc.stderr


def test_resume_refuses_a_record_whose_bot_would_play_otherwise(tmp_path):
    """The bots are replayed from the seed: a record whose bot seat was swapped (digest fixed
    up, as an editor would) names the first event where the bot plays differently."""
    from dreamhome.game.record import record_digest

    saved = tmp_path / "saved.json"
    game = ("--players", "2", "--bots", "human,random", "--seed", "4")
    assert play_here(*game, lines=["1"] * 30 + [f"save {saved}", "quit"]).returncode == 0
    data = json.loads(saved.read_text(encoding="utf-8"))
    data["bots"] = ["human", "greedy"]
    data["digest"] = record_digest(data)
    saved.write_text(json.dumps(data), encoding="utf-8")
    proc = play_here("--resume", str(saved), lines=["quit"])
    assert proc.returncode == 2
    line = proc.stderr.strip()
    assert "\n" not in line and "the greedy bot at seat 1 plays" in line and "the record says" in line


def test_end_of_input_is_one_line_and_exit_2():
    proc = play_here(*GAME, lines=["1"])
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == ["dreamhome: end of input before the game ended: the game was not saved"]


def test_resume_takes_nothing_but_the_file(tmp_path):
    saved = tmp_path / "saved.json"
    assert play_here(*GAME, lines=["1", f"save {saved}", "quit"]).returncode == 0
    proc = play_here("--resume", str(saved), "--seed", "3", lines=["quit"])
    assert proc.returncode == 2 and "drop --seed" in proc.stderr
    assert play_here(*GAME, "--json", lines=["quit"]).returncode == 2


def test_a_saved_record_matches_the_record_schema(tmp_path):
    from tests.helpers.schemas import validator

    saved = tmp_path / "saved.json"
    assert play_here(*GAME, lines=["1", "1", f"save {saved}", "quit"]).returncode == 0
    validator("record.schema.json").validate(json.loads(saved.read_text(encoding="utf-8")))


# ---- hints (in process) ------------------------------------------------------------------


def _greedy_states(seed: int, players: int = 2) -> list[GameState]:
    """Every decision point of a seeded greedy game."""
    return decision_positions(compiled(), players, seed)


def test_at_the_last_placement_each_bound_is_the_scorers_score_of_the_finished_house():
    """With one free space left and no end-game helper, the bound of each placement is the score
    of the house it finishes (no completion is left to choose): the independent scorer's."""
    checked = 0
    rules = compiled()
    for seed in range(12):
        for state in _greedy_states(seed):
            p = state.current_player()
            house = state.houses[p]
            legal = state.legal_actions()
            free = sum(1 for c in house.cells if c in (EMPTY, SCAFFOLD))
            if (
                free != 1
                or not all(isinstance(a, PlaceRoom) for a in legal)
                or any(helper_uses(rules, house).of(role) for role in END_ROLES)
            ):
                continue
            h = hint(state, work=5.0)
            for option in h.options:
                after = state.child(option.action).houses[p]
                assert option.proven
                assert option.bound == reference_score(rules, house_to_json(rules, after))["total"], option.text
            checked += 1
    assert checked >= 3


@pytest.mark.slow
def test_a_hint_changes_nothing_and_picks_the_reviews_best():
    """Issue 31: the hint's pick is an option the review marks best, with the review's value."""
    from dreamhome.players.evaluation import evaluate

    states = _greedy_states(2)
    for state in states[5:40:7]:
        events, legal = len(state.events), state.legal_actions()
        h = hint(state, work=0.1)
        assert len(state.events) == events and state.legal_actions() == legal
        assert [o.action for o in h.options] == legal
        assert h.bot_choice is not None
        ev = evaluate(state, legal[h.bot_choice], work=0.1)
        assert ev.loss == 0 and h.pick_value == ev.best_value == max(o.bound for o in h.options if o.bound is not None)
        assert all(o.bound is not None or o.note for o in h.options)
        takes = [o for o in h.options if isinstance(o.action, TakeColumn)]
        assert all(o.bound is not None and o.bound >= 0 for o in takes)


def test_in_the_end_game_the_hint_follows_the_solver_bots_plan():
    """END-ORDER: at the start of an end turn, the hint's pick is the solver bot's; at every end
    decision the pick's bound (the plan's score) is at least every option's floor (the score
    right after it), and ending the turn is exactly the house's score."""
    first_decisions = 0
    rules = compiled()
    for seed in range(6):
        for state in _greedy_states(seed, players=3):
            if state.observation().phase != "end":
                continue
            legal = state.legal_actions()
            h = hint(state, work=60.0)  # the bot's deterministic work decides the plan
            assert h.bot_choice is not None
            best = h.options[h.bot_choice]
            assert best.bound is not None and all(o.bound is not None and o.bound <= best.bound for o in h.options)
            for o in h.options:
                if isinstance(o.action, EndTurn):
                    house = house_to_json(rules, state.observation().house_with_piles(state.current_player()))
                    assert o.proven and o.bound == reference_score(rules, house)["total"]
            if state.events[-1].get("player") != state.current_player():  # the first decision of a turn
                bot = make_bot("solver", state.seed, state.current_player())
                assert h.bot_choice == legal.index(bot.choose(state.observation(), legal))
                first_decisions += 1
        if first_decisions >= 3:
            break
    assert first_decisions >= 3


def test_a_finished_game_has_no_hint():
    state = _greedy_states(1)[-1]
    final = state.clone()
    bots = [make_bot("greedy", 1, p) for p in range(2)]
    while not final.is_terminal():
        bot = bots[final.current_player()]
        final.apply_action(bot.choose(final.observation(), final.legal_actions()))
    assert hint(final).options == () and hint(final).bot_choice is None


def test_resume_record_in_process_gives_the_bots_back_where_they_were(whole_game, tmp_path):
    saved = tmp_path / "saved.json"
    assert play_here(*GAME, lines=OPENING + ["1"] * 12 + [f"save {saved}", "quit"]).returncode == 0
    resumed = resume_record(load_record(saved), "saved")
    assert resumed.bots == ("human", "greedy") and resumed.seats[0] is None
    assert not resumed.state.is_terminal()
    assert GameResult(resumed.state, resumed.bots).record()["finished"] is False


# ---- the seat in the rulebooks' languages (dreamhome.render.action_text, --lang) -----------------

RU = dict(json.loads((ROOT / "dreamhome" / "locales" / "ru.json").read_text(encoding="utf-8"))["text"])
EN = dict(json.loads((ROOT / "dreamhome" / "locales" / "en.json").read_text(encoding="utf-8"))["text"])


def _fragments(template: str) -> list[str]:
    """The literal parts of a catalogue entry, placeholders left out."""
    return [part for part, *_ in string.Formatter().parse(template)]


@pytest.fixture(scope="module")
def russian_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[Ran, Path]:
    record = tmp_path_factory.mktemp("human-ru") / "whole.json"
    return play_here(*GAME, "--record", str(record), lines=OPENING + ["1"] * ANSWERS, lang="ru"), record


@pytest.mark.slow
def test_a_whole_game_in_russian_through_a_pipe(russian_game):
    """`dreamhome --lang ru play`: the same game as in English (the record is the engine's, in
    English), every line the person reads in Russian: labels, card names, options, errors, help."""
    proc, record = russian_game
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    data = load_record(record)
    rules = compiled()
    expected = [reference_score(rules, house)["total"] for house in data["houses"]]
    assert data["scores"] == expected
    assert replay_record(data, "ru").scores() == expected
    # The final lines in Russian, with the scorer's totals.
    finals = re.findall(r"^место (\d) \((вы|greedy)\): (\d+)", out, flags=re.M)
    assert [int(points) for _, _, points in finals[-2:]] == expected
    # The Russian names of the cards dealt in round 1 (base.dh's `name ru`), as the track shows them.
    deal = next(e for e in data["events"] if e.get("event") == "deal")
    for room in filter(None, deal["rooms"]):
        assert rules.card_name(room, "ru") in out
    # Bad input, help, save errors, the prompt: each from the Russian catalogue.
    assert "неизвестная команда 'bogus'" in out and "нет варианта 99" in out
    assert RU["seat.help"] in out and RU["seat.save_needs_file"] in out and "не сохранено: /" in out
    assert "место 0 [1-" in out and RU["seat.options"] in out and RU["seat.hint_explain"] in out
    assert "раунд 1 из 12" in out and RU["seat.track"] in out
    # No English text of a key the Russian catalogue translates (its literal parts, where long
    # enough to be English words rather than punctuation), in the seat's and the actions' keys.
    checked: list[str] = []
    for key, english in EN.items():
        if key.split(".")[0] not in ("seat", "action", "card", "phase") or RU[key] == english:
            continue
        for part in _fragments(english):
            words = part.strip(" :·—()[]>.,;")
            if len(words) >= 6 and words not in RU[key]:
                checked.append(words)
                assert words not in out, (key, words)
    assert len(checked) > 40 and "your options" in checked


def test_every_action_class_has_a_text_in_each_language():
    """Each class of ACTION_CLASSES has its own entry in every catalogue (not the English
    fallback), whose placeholders are its fields and `card`; each flag field has its phrase."""
    from dataclasses import fields

    from dreamhome import i18n
    from dreamhome.game.actions import ACTION_CLASSES
    from dreamhome.render.action_text import action_key

    for lang in i18n.LANGUAGES:
        catalogue = json.loads((i18n.CATALOGUE_DIR / f"{lang}.json").read_text(encoding="utf-8"))["text"]
        for cls in ACTION_CLASSES:
            template = catalogue[action_key(cls)]
            names = {f.name for f in fields(cls)}
            placeholders = {f for _t, f, _s, _c in string.Formatter().parse(template) if f}
            assert placeholders <= names | {"card"}, (lang, cls.__name__)
            assert names - placeholders <= {"helper"}, (lang, cls.__name__)  # every field said (the helper is {card})
            for f in fields(cls):
                if f.type in ("bool", bool):
                    assert catalogue[f"action.flag.{f.name}"].strip(), (lang, f.name)


def _every_action_type() -> dict[str, list[tuple[GameState, object]]]:
    """Legal actions of random games (2 and 4 players, a variant with more helpers), by type."""
    from dreamhome.dsl.compiler import compile_rules

    found: dict[str, list[tuple[GameState, object]]] = {}
    for players, variant in ((2, []), (4, []), (4, ["handyman2"]), (4, ["handyman_floor"])):
        rules = compile_rules(None, variant)
        for seed in range(3):
            state = GameState(rules, players, seed)
            bots = [make_bot("random", seed, p) for p in range(players)]
            while not state.is_terminal():
                for action in state.legal_actions():
                    kept = found.setdefault(type(action).__name__, [])
                    if len(kept) < 6:
                        kept.append((state.clone(), action))
                bot = bots[state.current_player()]
                state.apply_action(bot.choose(state.observation(lookahead=bot.looks_ahead), state.legal_actions()))
    return found


def test_describe_says_each_action_in_each_language():
    """In English the engine's own text (`action_text`), cards by their names instead of their
    ids; in each language the rules' names of the cards the action names and its numbers."""
    from dreamhome import i18n
    from dreamhome.game.actions import ACTION_CLASSES
    from dreamhome.render.action_text import describe

    found = _every_action_type()
    assert set(found) == {cls.__name__ for cls in ACTION_CLASSES}
    for cases in found.values():
        for state, action in cases:
            rules = state.rules
            fields = action.to_dict()
            english = state.action_text(action)
            for name in ("room", "token", "color"):
                if isinstance(fields.get(name), str):
                    english = re.sub(rf"\b{fields[name]}\b", rules.card_name(fields[name]), english)
            assert describe(state, action, "en").lower() == english.lower()
            for lang in i18n.LANGUAGES:
                said = describe(state, action, lang)
                for name in ("room", "token"):
                    if isinstance(fields.get(name), str):
                        assert rules.card_name(fields[name], lang) in said, (lang, said)
                for name in ("column", "a", "b", "cell"):
                    if name in fields and not isinstance(fields[name], bool):
                        assert str(fields[name]) in said, (lang, said)
                # The card used: the engine's text starts with its English name; `lang`'s name is said.
                used = [c.id for c in (*rules.helpers, *rules.tools) if english.startswith(c.name)]
                for ident in used:
                    assert rules.card_name(ident, lang) in said, (lang, said)


def test_an_action_class_the_catalogue_does_not_know_is_said_in_english():
    from dataclasses import dataclass

    from dreamhome.game.actions import Action
    from dreamhome.render.action_text import describe

    @dataclass(frozen=True)
    class Knock(Action):
        times: int

        def text(self, card: str = "") -> str:
            return f"knock {self.times} times"

    state = GameState(compiled(), 2, 1)
    assert describe(state, Knock(3), "ru") == "knock 3 times"


@pytest.mark.slow
def test_every_hint_note_is_said_in_each_language():
    """The notes `hints.hint` gives (English, its API) are each a catalogue entry: in English the
    very note, in the other languages a translation; a take's note names its room card there."""
    from dreamhome import i18n
    from dreamhome.terminal.seat import note_text

    seen: set[str] = set()
    for seed in (1, 2):
        states = _greedy_states(seed, players=3)
        picked = states[:2] + states[len(states) // 2 : len(states) // 2 + 2] + states[-3:]
        for state in picked:
            for o in hint(state, work=0.5).options:
                seen.add(o.note)
                assert note_text(state, o.action, o.note, "en") == o.note
                for lang in ("ru", "fr", "hu"):
                    said = note_text(state, o.action, o.note, lang)
                    assert said != o.note, (lang, o.note)
                    if o.note.endswith("resource card not counted"):
                        room = state.observation().track_rooms[o.action.column]
                        assert state.rules.card_name(state.rules.room_of_code(room).id, lang) in said
    assert len(seen) >= 4, seen
    assert set(i18n.keys()) >= {f"seat.note.{k}" for k in ("as_it_stands", "at_least", "end_plan", "completed")}


@pytest.mark.slow
def test_a_hint_is_the_same_on_a_busy_machine():
    """Issue 22 (hints you can trust): the hint's work is CP-SAT deterministic time, never the wall
    clock, so the same position hints the same with both cores busy as on a quiet machine —
    with a budget small enough that some bounds stay unproven, where a wall-clock cut would
    differ."""
    import multiprocessing

    states = [_greedy_states(3)[k] for k in (1, 11, 20)]
    quiet = [hint(state, work=0.02) for state in states]
    assert any(not o.proven for h in quiet for o in h.options)  # the budget does cut some solves
    burners = [multiprocessing.Process(target=_burn, daemon=True) for _ in range(3)]
    for b in burners:
        b.start()
    try:
        busy = [hint(state, work=0.02) for state in states]
    finally:
        for b in burners:
            b.terminate()
            b.join()
    shown = [[(o.bound, o.proven, o.note) for o in h.options] + [h.bot_choice, h.pick_value, h.reason] for h in quiet]
    assert shown == [[(o.bound, o.proven, o.note) for o in h.options] + [h.bot_choice, h.pick_value, h.reason] for h in busy]


def _burn() -> None:
    while True:
        pass


def test_play_bots_human_needs_no_players_and_takes_lang_after_the_subcommand():
    """Issue 22: `dreamhome play --bots human,solver` takes the player count from --bots, and
    `--lang` works after the subcommand as `--rules` does."""
    proc = play_here("--bots", "human,greedy", "--seed", "5", "--lang", "ru", lines=["quit"])
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    assert "раунд 1 из 12" in out and RU["seat.options"] in out  # the seat in Russian
    assert "место 1 (greedy)" in out and "место 2" not in out  # two seats: the names of --bots
    wrong = play_here("--players", "3", "--bots", "human,greedy", lines=["quit"])
    assert wrong.returncode == 2 and wrong.stderr.count("\n") == 1 and "--players 3 disagrees with --bots" in wrong.stderr


def test_the_whole_game_names_the_person_you_and_never_a_round_past_the_last(whole_game):
    out = whole_game[0].stdout
    assert "(human)" not in out and re.search(r"^seat 0 \(you\): \d+$", out, flags=re.M)
    rounds = [(int(r), int(n)) for r, n in re.findall(r"round (\d+) of (\d+)", out)]
    assert rounds and all(r <= n for r, n in rounds)
    assert "roof discard pile: " in out and "final scoring" in out
