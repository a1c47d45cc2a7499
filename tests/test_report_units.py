"""The balance report's parts, quickly: restricted play (ROUND-COLUMN), the statistics, the
command's refusals of bad input."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamhome.game.actions import TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.roster import make_bot
from dreamhome.game.state import GameState
from dreamhome.report import stats
from dreamhome.report.restricted import RestrictedBot, make_seat
from tests.helpers.cli import run_here


def _column_cards(obs, column):
    """The card types of a column, read here from the observation alone (SEE-1)."""
    rules = obs.rules
    room, res = obs.track_rooms[column], obs.track_res[column]
    return ({f"room:{rules.room_of_code(room).id}"} if room is not None else set()) | ({f"{res.kind}:{res.id}"} if res else set())


@pytest.mark.parametrize("card", ["room:kitchen", "roof:red", "helper:supplier", "furnishing:piano", "tool:drill"])
def test_a_restricted_seat_never_takes_a_column_holding_its_card(base, card):
    """ROUND-COLUMN: seat 0 never takes the card while another column is open to it; the rest
    of its play is the greedy bot's."""
    for seed in range(3):
        state = GameState(base, 2, seed)
        seats = [make_seat(f"greedy/no={card}", seed, 0), make_bot("greedy", seed, 1)]
        avoidable = unavoidable = 0
        while not state.is_terminal():
            actor = state.current_player()
            obs = state.observation(lookahead=True)
            legal = state.legal_actions()
            action = seats[actor].choose(obs, legal)
            if actor == 0:
                takes = [a for a in legal if isinstance(a, TakeColumn)]
                holding = {a for a in takes if card in _column_cards(obs, a.column)}
                if takes and len(holding) < len(takes):
                    avoidable += 1
                    assert action not in holding
                if isinstance(action, TakeRoomAtRoundStart):
                    assert f"room:{base.room_of_code(obs.track_rooms[action.column]).id}" != card
                unavoidable += bool(takes) and len(holding) == len(takes)
            state.apply_action(action)
        assert avoidable > 0
        assert isinstance(seats[0], RestrictedBot) and seats[0].forced == unavoidable


def test_an_unknown_kind_of_card_is_refused():
    from dreamhome.errors import DreamhomeError

    with pytest.raises(DreamhomeError, match="KIND:ID"):
        make_seat("greedy/no=castle:x", 0, 0)


def test_variance_shares_of_a_known_table():
    """Scores (weaker, stronger) of two games: the bots apart by 10, the games by 2 → the sums
    of squares are 100 between the bots, 4 between the games, 0 left (of 104)."""
    shares = stats.variance_shares([(0, 10), (2, 12)])
    assert shares == pytest.approx({"bots": 100 / 104, "draw": 4 / 104, "rest": 0.0})


@given(st.lists(st.tuples(st.integers(0, 90), st.integers(0, 90)), min_size=2, max_size=40))
def test_variance_shares_split_the_whole_variance(pairs):
    shares = stats.variance_shares(pairs)
    if statistics.pvariance([v for p in pairs for v in p]) == 0:
        assert shares == {"bots": None, "draw": None, "rest": None}
        return
    assert all(0 <= v <= 1 + 1e-9 for v in shares.values())
    assert sum(shares.values()) == pytest.approx(1.0)


def _game(index, scores, first=0, winners=None):
    top = max(scores)
    return {
        "game": index,
        "scores": scores,
        "first": first,
        "winners": winners if winners is not None else [p for p, s in enumerate(scores) if s == top],
        "tied_top": scores.count(top) > 1,
    }


@given(
    st.lists(st.tuples(st.integers(0, 60), st.integers(0, 60), st.integers(0, 60), st.integers(0, 60)), min_size=1, max_size=30)
)
def test_a_paired_difference_is_the_difference_of_the_means(rows):
    a = [_game(i, [w, x]) for i, (w, x, _y, _z) in enumerate(rows)]
    b = [_game(i, [y, z]) for i, (_w, _x, y, z) in enumerate(rows)]
    diff = stats.paired(a, b, lambda g: g["scores"][0])
    assert diff["n"] == len(rows)
    assert diff["mean"] == pytest.approx(statistics.fmean(r[2] for r in rows) - statistics.fmean(r[0] for r in rows))
    assert diff["low"] <= diff["mean"] <= diff["high"]


def test_seats_count_turn_order_shared_wins_and_tie_breaks():
    """SCORE-WIN: a shared victory is a share of a win; the tie-break decides when the top score
    is shared but one winner remains."""
    games = [
        _game(0, [30, 20], first=1),  # seat 0 wins, it played second
        _game(1, [25, 25], first=0, winners=[1]),  # tied top, the tie-break gave it to seat 1 (second)
        _game(2, [10, 10], first=0, winners=[0, 1]),  # still tied: half a win each
    ]
    s = stats.seats(games, 2)
    first, second = (p["win_rate"]["rate"] for p in s["positions"])
    assert first == pytest.approx(0.5 / 3) and second == pytest.approx(2.5 / 3)
    assert s["tiebreak_decided"]["rate"] == pytest.approx(1 / 3) and s["ties_left"]["rate"] == pytest.approx(1 / 3)
    assert s["balance"] == pytest.approx(2.5 / 3 - 0.5)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "9"], "--players: 9"),
        (["--players", "two"], "player counts"),
        (["--vs", "nosuch"], "unknown ruleset or variant 'nosuch'"),
        (["--bots", "greedy,nosuch"], "unknown bot 'nosuch'"),
        (["--players", "2", "--card-players", "3"], "--card-players: 3"),
        (["--games", "0"], "--games must be from 1"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, message):
    proc = run_here("report", *args, "--out", tmp_path / "r")
    assert proc.returncode == 2
    assert message in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "r").exists()


def test_a_directory_holding_a_report_is_not_overwritten_without_resume(tmp_path):
    args = ("report", "--players", "2", "--bots", "greedy", "--games", "1", "--no-cards", "--out", tmp_path / "r")
    assert run_here(*args).returncode == 0
    before = (tmp_path / "r" / "report.json").read_text()
    again = run_here(*args)
    assert again.returncode == 2 and "--resume" in again.stderr
    resumed = run_here(*args, "--resume")
    assert resumed.returncode == 0 and (tmp_path / "r" / "report.json").read_text() == before


def test_help_explains_the_command():
    proc = run_here("report", "--help")
    assert proc.returncode == 0 and "restricted play" in proc.stdout and "--vs" in proc.stdout


def test_a_report_game_is_the_game_drivers_game_and_counts_every_move(base):
    """The report's summary of a game is the game `play_game` plays from that seed (same scores,
    same first player), and its decisions plus the forced steps are every move of the record."""
    from dreamhome.game.record import play_game
    from dreamhome.report.play import play_report_game

    for seed in (1, 2):
        summary = play_report_game(base, 3, ["greedy"] * 3, seed)
        game = play_game(base, 3, ["greedy"] * 3, seed)
        moves = [e for e in game.record()["events"] if "action" in e]
        assert summary["scores"] == game.scores() and summary["winners"] == game.winners()
        assert summary["first"] == game.record()["first_player"]
        for seat in range(3):
            mine = [e for e in moves if e["player"] == seat]
            assert summary["decisions"][seat] + summary["forced_steps"][seat] == len(mine)
            assert summary["forced_steps"][seat] == sum(1 for e in mine if e.get("forced"))


def test_restricted_play_has_its_unrestricted_games_whatever_the_ladder():
    """The card conditions pair with greedy self-play at --card-players, played even when the
    ladder has no greedy bot; every card type a condition, seat 0 restricted."""
    from dreamhome.report.plan import build_plan

    plan = build_plan(rules_path=None, players=[3], ladder=["solver"], games=2)
    conditions = plan.conditions()
    assert plan.card_baseline(0) in conditions
    cards = [c for c in conditions if c.role == "card"]
    assert len(cards) == len(plan.cards[0]) and all(c.bots[0].endswith("/no=" + c.card) and c.players == 3 for c in cards)
    assert len({c.key for c in conditions}) == len(conditions)
