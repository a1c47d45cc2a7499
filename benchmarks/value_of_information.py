"""What knowing the future is worth to the solver bot's planning (issue 25).

    PYTHONPATH=.:benchmarks python benchmarks/value_of_information.py --games 200 --seed 5000

Two bots in one seat of four against three greedy bots, seat rotating, the same seeds:
the solver bot comparing every column (`tuning_bots.FiveColumns`), and the same bot told the
true order of the room deck — its look-ahead's one scenario is the deals still to come, in
order (`tests/helpers/sampled_futures.add_offers`: one card from each round's deal), instead of the unseen pool.
It cheats (SEE-1), so it is a measurement, never a bot to seat. If the cheat gains little,
no better guess at the future (sampled deals, play-outs, learnt odds) can gain more: the
planning's limit is elsewhere.

Then a ceiling, on `--ceiling-games` games of the solver bot against three greedy bots: for each
seat, the best house (rooms, functionality, empty rooms) the room cards of its own turns' tracks
could have made, one card a round, known in advance (`sampled_futures.completion_bound_with_offers`),
beside the house it built.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_core import machine  # noqa: E402
from bench_strength import interval  # noqa: E402
from tuning_bots import FiveColumns  # noqa: E402


class Clairvoyant(FiveColumns):
    """`FiveColumns` whose look-ahead sees the deals to come (`deals`, set before each turn)."""

    name = "c5"  # FiveColumns' stream: the two bots draw alike wherever they choose alike
    deals: list[Counter[int]] | None = None

    def _scenarios(self, obs, house, pool):  # type: ignore[no-untyped-def]
        return [self.deals] if self.deals is not None else None


def play(job: tuple[int, bool]) -> float:
    """One game: the seat's score less the mean of the three greedy bots."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.state import GameState
    from dreamhome.players.roster import make_bot

    seed, cheat = job
    rules = compile_rules()
    seat = seed % 4
    bots = [make_bot("greedy", seed, s) for s in range(4)]
    me = Clairvoyant(seed, seat) if cheat else FiveColumns(seed, seat)
    bots[seat] = me
    state = GameState(rules, 4, seed)
    k = rules.game.deal_rooms
    while not state.is_terminal():
        p = state.current_player()
        if p == seat and isinstance(me, Clairvoyant):
            deck = list(reversed(state.room_deck))  # the deal pops from the end (game.flow)
            me.deals = [Counter(deck[r * k : (r + 1) * k]) for r in range(len(deck) // k)]
        state.apply_action(bots[p].choose(state.observation(p), state.legal_actions()))
    scores = state.returns()
    return scores[seat] - statistics.mean(s for i, s in enumerate(scores) if i != seat)


def ceiling(seed: int) -> list[tuple[bool, int, int]]:
    """(is the solver bot's seat, rooms + functionality + empty rooms built, the ceiling) per seat."""
    from dreamhome.dsl.compiler import compile_rules
    from dreamhome.game.actions import TakeColumn
    from dreamhome.game.state import GameState
    from dreamhome.house import House
    from dreamhome.players.roster import make_bot
    from dreamhome.scoring import score_components
    from tests.helpers.sampled_futures import completion_bound_with_offers

    rules = compile_rules()
    seat = seed % 4
    bots = [make_bot("solver" if s == seat else "greedy", seed, s) for s in range(4)]
    state = GameState(rules, 4, seed)
    offered: list[list[dict[int, int]]] = [[] for _ in range(4)]
    while not state.is_terminal():
        p = state.current_player()
        legal = state.legal_actions()
        obs = state.observation(p)
        cards = [obs.track_rooms[a.column] for a in legal if isinstance(a, TakeColumn)]
        if cards:
            offered[p].append(Counter(c for c in cards if c is not None))
        state.apply_action(bots[p].choose(obs, legal))
    pool = {r.code: r.count for r in rules.rooms}
    out = []
    for s in range(4):
        rooms, _furn, func, _roof, empty = score_components(rules, state.houses[s])
        best, _proven = completion_bound_with_offers(rules, House.empty(rules), pool, offered[s], deterministic_time=5.0)
        out.append((s == seat, rooms + func + empty, best))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seed", type=int, default=5000)
    parser.add_argument("--ceiling-games", type=int, default=40)
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    print(f"{time.strftime('%Y-%m-%d %H:%M', time.gmtime())} UTC — {machine()}\n")
    seeds = range(args.seed, args.seed + args.games)
    if args.games:
        with ProcessPoolExecutor(args.processes) as pool:
            plain = list(pool.map(play, [(s, False) for s in seeds]))
            cheat = list(pool.map(play, [(s, True) for s in seeds]))
        for name, diffs in (("every column, the unseen pool", plain), ("every column, the true deals (cheats)", cheat)):
            mean, half = interval(diffs)
            print(f"{name}: {mean:+.2f} ± {half:.2f} over three greedy bots ({len(diffs)} games)")
        mean, half = interval([c - p for c, p in zip(cheat, plain)])
        print(f"paired, game by game: the true deals are worth {mean:+.2f} ± {half:.2f} points a game")
    if args.ceiling_games:
        with ProcessPoolExecutor(args.processes) as pool:
            seats = [x for game in pool.map(ceiling, range(args.seed, args.seed + args.ceiling_games)) for x in game]
        for who, name in ((True, "solver bot"), (False, "greedy bots")):
            built = statistics.mean(b for w, b, _c in seats if w == who)
            best = statistics.mean(c for w, _b, c in seats if w == who)
            print(f"{name}: rooms + functionality + empty rooms built {built:.1f}, ceiling of its offers {best:.1f}")


if __name__ == "__main__":
    main()
