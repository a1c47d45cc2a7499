"""The balance report's parts, quickly: restricted play (ROUND-COLUMN), the statistics, the
command's refusals of bad input."""

from __future__ import annotations

import statistics

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dreamhome.game.actions import TakeColumn, TakeRoomAtRoundStart
from dreamhome.game.state import GameState
from dreamhome.players.roster import make_bot
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


def test_the_deals_share_of_a_known_table():
    """Margins of three deals, each played twice: deal means 0, 6, 12 (MSB = 2·36 = 72), within
    each deal ±1 (MSW = 2·3/3 = 2): σ²_deal = (72 − 2)/2 = 35, its share 35/37."""
    assert stats.deal_share([[-1, 1], [5, 7], [11, 13]]) == pytest.approx(35 / 37)
    assert stats.deal_share([[0, 10], [10, 0], [5, 5]]) == 0.0  # the deals alike: no share
    assert stats.deal_share([[3, 3], [8, 8]]) == 1.0  # nothing varies within a deal
    assert stats.deal_share([[1, 2]]) is None  # one deal: no estimate


@given(st.lists(st.tuples(st.integers(-30, 30), st.integers(-30, 30), st.integers(-30, 30)), min_size=2, max_size=30))
def test_the_deals_share_is_a_share(groups):
    share = stats.deal_share(groups)
    values = [v for g in groups for v in g]
    if statistics.pvariance(values) == 0:
        assert share is None
    else:
        assert share is not None and 0 <= share <= 1


def test_a_rung_reads_the_weaker_bot_in_whatever_seat_it_sat():
    """Three players, the weaker bot in seat k of rotation k (it never wins here): its win rate is
    0 against an even 1/3 and a stronger seat's is 1/2, whichever seat won; the margin is
    the stronger seats' mean less the weaker's."""
    rotations = []
    for k in range(3):
        games = []
        for i in range(4):
            scores = [20 + i, 30, 40 - i]
            scores[k] = 10
            games.append(_game(i, scores))
        rotations.append((k, games))
    rung = stats.ladder(rotations, 3, seed=0)
    assert rung["weaker_win_rate"]["rate"] == 0 and rung["even_share"] == pytest.approx(1 / 3)
    assert rung["stronger_win_rate"]["rate"] == pytest.approx(0.5)
    assert rung["weaker_win_rate"]["high"] < 1 / 3 < rung["stronger_win_rate"]["low"]
    assert rung["games"] == 12 and rung["deals"] == 4
    margins = [statistics.fmean(s for p, s in enumerate(g["scores"]) if p != k) - 10 for k, gs in rotations for g in gs]
    expected = statistics.fmean(margins)
    assert rung["margin"]["mean"] == pytest.approx(expected)


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


@pytest.mark.slow
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
    from dreamhome.players.playing import play_game
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


@pytest.mark.slow
def test_vs_without_cards_or_a_ladder_has_no_empty_table_and_lists_the_assumptions_once(tmp_path):
    """Issue 35: `--vs` with one bot and --no-cards left an empty plot, header-only tables and
    the assumptions twice."""
    import re

    out = tmp_path / "r"
    args = ("report", "--vs", "kids", "--players", "2", "--bots", "greedy", "--no-cards", "--games", "2", "--chunk", "1")
    assert run_here(*args, "--out", out).returncode == 0
    html = (out / "report.html").read_text()
    tables = re.findall(r"<table>(.*?)</table>", html, re.S)
    assert tables and all(t.count("<tr>") >= 2 for t in tables)
    assert html.count('<th class="l">card</th>') == 1  # the assumptions' table, once
    assert "The same assumed values as above." in html
    assert html.count("data:image/png;base64,") == 4  # seats, shape, tension, the differences: no empty plot


def _holm_step_down(pvalues, alpha):
    """Holm (1979) as he states it: reject the smallest p-values in order while p_(k) ≤ α/(m − k + 1)."""
    order = sorted(range(len(pvalues)), key=lambda i: pvalues[i])
    rejected = set()
    for k, i in enumerate(order):
        if pvalues[i] > alpha / (len(pvalues) - k):
            break
        rejected.add(i)
    return rejected


@given(st.lists(st.floats(0, 1), min_size=1, max_size=40), st.sampled_from([0.01, 0.05, 0.1]))
def test_holms_adjusted_p_values_reject_what_the_step_down_procedure_rejects(pvalues, alpha):
    adjusted = stats.holm(pvalues)
    assert {i for i, p in enumerate(adjusted) if p <= alpha} == _holm_step_down(pvalues, alpha)
    assert all(p <= a <= 1 for p, a in zip(pvalues, adjusted))


def test_a_p_value_is_the_normal_tests():
    scipy_stats = pytest.importorskip("scipy.stats")
    values = [1.0, 2.5, -0.5, 3.0, 1.5, 0.0, 2.0]
    ci = stats.mean_ci(values)
    z = ci["mean"] / (ci["sd"] / len(values) ** 0.5)
    assert stats.p_value(ci) == pytest.approx(2 * scipy_stats.norm.sf(abs(z)))
    z_half = (ci["mean"] - 0.5) / (ci["sd"] / len(values) ** 0.5)
    assert stats.p_value(ci, 0.5, one_sided=True) == pytest.approx(scipy_stats.norm.sf(z_half))


@given(st.lists(st.integers(0, 80), min_size=1, max_size=300))
def test_a_high_quantiles_interval_brackets_it(values):
    top = stats.quantile_ci(values, 0.99)
    ordered = sorted(values)
    assert top["low"] <= top["value"] <= top["high"] <= ordered[-1]
    assert top["value"] == ordered[max(0, -(-99 * len(values) // 100) - 1)]


@pytest.mark.parametrize("card", ["room:kitchen", "roof:red", "helper:supplier"])
def test_an_always_take_seat_takes_a_column_holding_its_card_whenever_it_may(base, card):
    for seed in range(2):
        state = GameState(base, 2, seed)
        seats = [make_seat(f"greedy/always={card}", seed, 0), make_bot("greedy", seed, 1)]
        chances = 0
        while not state.is_terminal():
            actor = state.current_player()
            obs = state.observation(lookahead=True)
            legal = state.legal_actions()
            action = seats[actor].choose(obs, legal)
            if actor == 0:
                holding = [a for a in legal if isinstance(a, TakeColumn) and card in _column_cards(obs, a.column)]
                if holding:
                    chances += 1
                    assert action in holding
            state.apply_action(action)
        assert chances > 0


def test_a_cards_copies_and_worth_per_copy_are_the_decks_and_the_worth_shared(base):
    base_games = [dict(_game(i, [30, 20]), forced=[0, 0]) for i in range(4)]
    restricted = [dict(_game(i, [30 - 3 * i, 20]), forced=[i % 2, 0]) for i in range(4)]
    entry = stats.card(restricted, [], base_games, copies=3)
    assert entry["worth"] == pytest.approx(4.5) and entry["copies"] == 3
    assert entry["worth_per_copy"]["mean"] == pytest.approx(1.5)
    assert entry["worth_per_copy"]["low"] == pytest.approx(entry["low"] / 3)
    assert entry["forced_takes"]["mean"] == pytest.approx(0.5)
    from dreamhome.report.restricted import card_copies

    copies = card_copies(base)
    assert copies["room:bathroom"] == base.room("bathroom").count and all(n > 0 for n in copies.values())


def test_the_games_needed_for_a_three_point_edge_have_the_power_they_claim():
    """Issue 35: about 1,900 games detect a 3-point first-seat edge in 3 players. At the games
    `games_needed` gives, the exact binomial test (scipy) has power 80% within a point or two."""
    from dreamhome.report.power import games_needed, power_at

    binom = pytest.importorskip("scipy.stats").binom
    for players in (2, 3, 4):
        n = games_needed(players)
        p0 = 1 / players
        low, high = binom.ppf(0.025, n, p0), binom.isf(0.025, n, p0)  # the test's acceptance region
        exact = binom.sf(high, n, p0 + 0.03) + binom.cdf(low - 1, n, p0 + 0.03)
        assert exact == pytest.approx(0.8, abs=0.02), (players, n, exact)
        assert power_at(players, n) == pytest.approx(0.8, abs=0.001)
    assert 1_850 <= games_needed(3) <= 2_000


@pytest.mark.slow
def test_precision_plays_on_until_the_first_seats_interval_is_as_narrow_as_asked(tmp_path):
    """Issue 35's check: `--precision W` stops once every first seat's interval is at most W wide,
    and not a block later: without its last block the interval (recounted here from the stored
    games) is wider than W."""
    import json

    from dreamhome.intervals import proportion_ci

    out = tmp_path / "p"
    proc = run_here(
        "report",
        "--players",
        "2",
        "--bots",
        "greedy",
        "--no-cards",
        "--games",
        10,
        "--chunk",
        5,
        "--precision",
        0.3,
        "--out",
        out,
    )
    assert proc.returncode == 0, proc.stderr
    doc = json.loads((out / "report.json").read_text())
    precision = doc["precision"]
    assert precision["reached"] and precision["blocks"] >= 1
    (row,) = precision["conditions"]
    assert row["width"] <= 0.3 and row["games"] == doc["seats"][0]["games"] == 10 + sum(
        e["games"] for e in doc["plan"]["extensions"]
    )
    games = sorted(
        (g for f in (out / "games").rglob("chunks/*.json") for g in json.loads(f.read_text())["games"]), key=lambda g: g["seed"]
    )
    assert [g["seed"] for g in games] == list(range(row["games"]))  # seeds 0…n−1, each once

    def first_seat_width(played):
        ci = proportion_ci(sum(1 / len(g["winners"]) for g in played if g["first"] in g["winners"]), len(played))
        return ci["high"] - ci["low"]

    assert first_seat_width(games) == pytest.approx(row["width"])
    assert first_seat_width(games[: row["games"] - doc["plan"]["extensions"][-1]["games"]]) > 0.3
    assert "--precision 0.3: reached" in proc.stdout
    # resumable: the blocks' games lost, a rerun with --resume plays the same blocks to the same report
    before = (out / "report.json").read_bytes()
    for chunk in (out / "games").glob("*extension*/chunks/*.json"):
        chunk.unlink()
    again = run_here(
        "report",
        "--players",
        "2",
        "--bots",
        "greedy",
        "--no-cards",
        "--games",
        10,
        "--chunk",
        5,
        "--precision",
        0.3,
        "--out",
        out,
        "--resume",
    )
    assert again.returncode == 0, again.stderr
    assert (out / "report.json").read_bytes() == before


def _seats_section(wins, games, players=2):
    rate = stats.proportion_ci(wins, games)
    return {"seats": [{"players": players, "bot": "greedy", "even_share": 1 / players, "positions": [{"win_rate": rate}]}]}


def test_a_verdict_names_a_direction_only_when_its_interval_is_clear_of_the_line():
    from dreamhome.report import verdicts

    (more,) = verdicts.seats(_seats_section(700, 1000), "en")
    (unclear,) = verdicts.seats(_seats_section(52, 100), "en")
    (less,) = verdicts.seats(_seats_section(300, 1000), "en")
    assert "more often" in more and "cannot tell" in unclear and "less often" in less
    (plus,) = verdicts.seats(_seats_section(700, 1000), "fr")
    assert "plus souvent" in plus and "70,0" in plus  # French words, a decimal comma


@pytest.mark.slow
@pytest.mark.parametrize(
    ("lang", "title", "decimal"),
    [("ru", "Отчёт о балансе", ","), ("fr", "Rapport d'équilibre", ","), ("hu", "Egyensúlyjelentés", ",")],
)
def test_the_page_is_in_the_readers_language_with_its_number_format(tmp_path, lang, title, decimal):
    import re
    from html import unescape

    out = tmp_path / lang
    proc = run_here(
        "--lang", lang, "report", "--players", "2", "--bots", "greedy", "--no-cards", "--games", "3", "--chunk", "3", "--out", out
    )
    assert proc.returncode == 0, proc.stderr
    page = unescape((out / "report.html").read_text())
    assert f"<html lang='{lang}'>" in page and title in page
    verdicts = re.findall(r'<ul class="verdict">(.*?)</ul>', page, re.S)
    assert verdicts and all(re.search(rf"\d{re.escape(decimal)}\d", v) for v in verdicts[:1])
    # summary.txt and the page's summary block in the language too (issue 35, item 8); report.json keeps its English names
    said = (out / "summary.txt").read_text()
    assert said.startswith(title) and "first seat wins" not in said and "players" not in said and "best house" not in said
    assert "first seat wins" not in page and "proven best" not in page.lower()
    assert '"first_advantage"' in (out / "report.json").read_text()


def test_vs_pairs_a_rungs_rotations_game_by_game():
    """With --vs, a rung's change pairs each rotation's game with the same rotation and seed of
    the other ruleset: 2 rotations × 3 games, the weaker seat's margin read in each."""
    from dreamhome.report.document import build_document
    from dreamhome.report.plan import build_plan
    from dreamhome.report.run import run_plan

    plan = build_plan(rules_path=None, vs="kids", players=[2], ladder=["random", "greedy"], games=3, chunk=3, cards=False, seed=4)
    results = run_plan(plan, None, executor_name="local", workers=1)
    doc = build_document(plan, results, plan.compiled())
    (change,) = doc["vs"]["differences"]["ladder"]
    rotations = [plan.rungs(0)[0][2], plan.rungs(1)[0][2]]
    diffs = []
    for a, b in zip(*rotations):
        weak = a.bots.index("random")
        for ga, gb in zip(results[a], results[b]):
            diffs.append((gb["scores"][1 - weak] - gb["scores"][weak]) - (ga["scores"][1 - weak] - ga["scores"][weak]))
    assert change["margin"]["n"] == 6 and change["margin"]["mean"] == pytest.approx(statistics.fmean(diffs))
