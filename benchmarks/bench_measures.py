"""Each measure of an option's worth against play-outs (issue 31, item 3; docs/REVIEW.md).

    PYTHONPATH=. python benchmarks/bench_measures.py                      # as docs/REVIEW.md
    PYTHONPATH=. python benchmarks/bench_measures.py --games 2 --every 12 --reference 24

Seeded 3-player games (greedy, hard, random; the seats rotate with the seed). At every
`--every`-th decision of the rounds with two options or more, every option is valued by:

- `bound`: the review's default measure (`lookahead.REVIEW`): the best final score the solver
  finds over the unseen cards as a pool — one CP-SAT solve an option;
- `expected@K`: the mean final score of K seeded play-outs (`lookahead.Settings.samples`,
  `players.playouts`), K = 4 and 8 — samples 0..K-1 — its pick and its charge read as the review
  reads them: ranked on the first half of the play-outs, valued on the second;
- the reference: the mean of `--reference` further play-outs (samples from K_max on, so the
  reference shares no sample with the measures it judges).

Per measure: its optimism (mean of its value less the reference's), its mean absolute error, the
points its best option gives away by the reference (the reference's best less the reference's
value of the measure's pick), and the loss it charges the move actually played against the
reference's loss of that move (mean difference: a positive one charges too much). The
reference's own noise is printed (the mean standard error of its differences between options).
Deterministic: the same figures on any machine; the times beside them are not.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402

from dreamhome import compile_rules  # noqa: E402
from dreamhome.game.phases import Phase  # noqa: E402
from dreamhome.game.state import GameState  # noqa: E402
from dreamhome.players.lookahead import REVIEW, option_values  # noqa: E402
from dreamhome.players.playouts import Estimate, play_out, sample_of, sample_seed  # noqa: E402
from dreamhome.players.roster import make_bot  # noqa: E402

BOTS = ["greedy", "hard", "random"]
SAMPLES = (4, 8)


def positions(seed: int, every: int) -> list[tuple[GameState, int]]:
    """The sampled decisions of one seeded game: (position before it, the option played)."""
    rules = compile_rules()
    names = BOTS[seed % 3 :] + BOTS[: seed % 3]
    bots = [make_bot(n, seed, s) for s, n in enumerate(names)]
    state = GameState(rules, len(names), seed)
    out: list[tuple[GameState, int]] = []
    n = 0
    while not state.is_terminal():
        bot = bots[state.current_player()]
        legal = state.legal_actions()
        action = bot.choose(state.observation(lookahead=bot.looks_ahead), legal)
        if state.phase != Phase.END and len(legal) > 1:
            if n % every == every // 2:
                out.append((state.snapshot(), legal.index(action)))
            n += 1
        state.apply_action(action)
    return out


def measure(args: tuple[int, int, int]) -> list[dict[str, Any]]:
    """Every sampled decision of game `seed` valued by every measure and the reference."""

    seed, every, reference = args
    out = []
    for state, chosen in positions(seed, every):
        me = state.current_player()
        legal = state.legal_actions()
        margin = state.phase == Phase.DISCARD
        t = time.perf_counter()
        bound = [v.value if v is not None else None for v in option_values(state, replace(REVIEW, samples=0))]
        bound_s = time.perf_counter() - t
        obs = state.observation(me, lookahead=False)
        runs: list[list[float]] = [[] for _ in legal]
        t = time.perf_counter()
        for k in range(max(SAMPLES) + reference):
            sseed = sample_seed(state, me, k)
            sampled = sample_of(obs, sseed)
            for i, action in enumerate(legal):
                finals = play_out(sampled.child(action), sseed).finals
                mine = float(finals[me])
                runs[i].append(mine - (sum(finals) - mine) / (state.n - 1) if margin else mine)
        per_sample_s = (time.perf_counter() - t) / (max(SAMPLES) + reference)
        ref = [Estimate.of(r[max(SAMPLES) :]) for r in runs]
        best_ref = max(range(len(legal)), key=lambda i: (ref[i].mean, -i))
        noise = statistics.fmean(ref[i].paired_error(ref[best_ref]) for i in range(len(legal)) if i != best_ref)
        row: dict[str, Any] = {
            "seed": seed,
            "round": state.round,
            "phase": state.phase.value,
            "options": len(legal),
            "margin": margin,
            "ref": [e.mean for e in ref],
            "ref_noise": noise,
            "chosen": chosen,
            "bound": bound,
            "bound_seconds": bound_s,
            "sample_seconds": per_sample_s,
        }
        for k in SAMPLES:
            row[f"expected@{k}"] = [statistics.fmean(r[:k]) for r in runs]
            row[f"expected@{k}/samples"] = [r[:k] for r in runs]
        out.append(row)
    return out


def summary(rows: list[dict[str, Any]], name: str) -> dict[str, float]:
    """One measure against the reference over the decisions (margins left out of the
    value errors: they are differences, not final scores)."""
    optimism, abs_err, pick_loss, charge = [], [], [], []
    for row in rows:
        ref, vals = row["ref"], row[name]
        if any(v is None for v in vals):
            continue
        best_ref = max(ref)
        if not row["margin"]:
            optimism += [v - r for v, r in zip(vals, ref)]
            abs_err += [abs(v - r) for v, r in zip(vals, ref)]
        samples = row.get(f"{name}/samples")
        if samples:  # as the review judges expected values: ranked on the first half, valued on the second
            half = len(samples[0]) // 2
            rank = [statistics.fmean(x[:half]) for x in samples]
            valued = [statistics.fmean(x[half:]) for x in samples]
        else:
            rank, valued = vals, vals
        pick = max(range(len(vals)), key=lambda i: (rank[i], -i))
        pick_loss.append(best_ref - ref[pick])
        charged = max(0.0, valued[pick] - valued[row["chosen"]])
        charge.append(charged - (best_ref - ref[row["chosen"]]))
    return {
        "optimism": statistics.fmean(optimism),
        "abs_error": statistics.fmean(abs_err),
        "pick_loss": statistics.fmean(pick_loss),
        "charge_bias": statistics.fmean(charge),
        "charge_abs": statistics.fmean(abs(c) for c in charge),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--every", type=int, default=8, help="value every N-th decision of the rounds")
    parser.add_argument("--reference", type=int, default=48, help="play-outs of the reference")
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", help="also write every decision's values as JSON here")
    a = parser.parse_args()
    print(machine())
    t = time.perf_counter()
    with ProcessPoolExecutor(a.workers) as pool:
        rows = [r for game in pool.map(measure, [(s, a.every, a.reference) for s in range(a.games)]) for r in game]
    print(
        f"{len(rows)} decisions of {a.games} games, {a.reference} reference play-outs an option, {time.perf_counter() - t:.0f} s"
    )
    if a.out:
        Path(a.out).write_text(json.dumps(rows))
    noise = statistics.fmean(r["ref_noise"] for r in rows)
    print(f"reference noise (standard error of an option's difference from the best): {noise:.2f}")
    bound_s = statistics.median(r["bound_seconds"] / r["options"] for r in rows)
    sample_s = statistics.median(r["sample_seconds"] / r["options"] for r in rows)
    ratio = sample_s / bound_s
    print(f"median time an option: bound {bound_s * 1000:.0f} ms; one play-out {sample_s * 1000:.0f} ms ({ratio:.1f}× a bound)")
    print(f"{'measure':<12} {'optimism':>9} {'|error|':>8} {'pick loss':>10} {'charge bias':>12} {'|charge err|':>13}")
    for name in ["bound", *(f"expected@{k}" for k in SAMPLES)]:
        s = summary(rows, name)
        print(
            f"{name:<12} {s['optimism']:>+9.2f} {s['abs_error']:>8.2f} {s['pick_loss']:>10.2f} "
            f"{s['charge_bias']:>+12.2f} {s['charge_abs']:>13.2f}"
        )


if __name__ == "__main__":
    main()
