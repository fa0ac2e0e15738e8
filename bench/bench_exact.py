"""Exact questions from a position: how often `can_place_all` and `max_placeable` settle them
(proven yes / proven no / not proven) within a time limit, and how long they take, by the
number of pieces each colour still has.

    python bench/bench_exact.py [--left 12,10,9,6] [--seeds 6] [--limit 5] [--threads 1,2] [--exhaustive]
                                [--questions all_colours,one_colour,max_placeable,solo]
    python -m pytest bench/bench_exact.py --benchmark-enable

Positions: four-player games taken back to `left` pieces per colour, played uniformly at random
(random play packs badly, so the all-colour question is usually a "no" to prove) or by the
search at level 3 (one thread per game), and complete solo-puzzle solutions taken back the same
way (always a "yes" to find), and near misses: a solution taken back to `left` pieces with its
last eight moves replaced by random legal ones (the "did I spoil it?" question; some "yes",
some short of a complete layout by a few triangles). Questions: all colours at once (with,
where not proven, how many triangles the best layout found left unplaced), each colour alone
(can_place_all(game, [c])), max_placeable for each colour, and (solo, only when asked) the solo
solver from the position, the triangle anywhere ("yes": a complete game found; else how many
triangles it left unplaced); with --exhaustive also the all-colour question answered by the
exhaustive search alone (heuristic=False: no guided search, no stages), with its node counts.
Prints one JSON object.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import random
import time

import trigon_fast as tf
from script_args import positive_int

NEAR_MISS_MOVES = 8  # moves of a solution replaced by random ones in a near-miss position


def _take_back(game: tf.Game, left: int):
    target = sum(1 for c in game.variant.colours) * (22 - left)
    if len(game.history) < target:
        return None  # the game ended before every colour had placed that many
    while len(game.history) > target:
        game.undo()
    return game


def positions(kind: str, left: int, seeds):
    if kind == "search":
        from trigon_fast import batch

        played = batch.play_games(tf.Variant.FOUR_PLAYER, games=len(seeds), seed=seeds[0], policy="search",
                                  level=3, threads=1)
    for k, seed in enumerate(seeds):
        if kind == "near_miss":
            g = tf.solve_solo(seed=seed, time_limit=30).game
            target = sum(1 for c in g.variant.colours) * (22 - left)
            while len(g.history) > target - NEAR_MISS_MOVES:
                g.undo()
            rng = random.Random(seed)
            for _ in range(NEAR_MISS_MOVES):
                moves = list(g.legal_moves)
                if not moves:
                    break
                g.push(rng.choice(moves))
            yield g
            continue
        if kind == "random":
            g = tf.random_game(tf.Variant.FOUR_PLAYER, seed)
        elif kind == "search":
            g = played.game(k)
        else:
            g = tf.solve_solo(seed=seed, time_limit=30).game
        g = _take_back(g, left)
        if g is not None:
            yield g


def _summary(answers, seconds) -> dict:
    n = len(answers)
    return {
        "positions": n,
        "yes": sum(a is True for a in answers),
        "no": sum(a is False for a in answers),
        "not_proven": sum(a is None for a in answers),
        "median_s": round(statistics.median(seconds), 3) if seconds else None,
        "max_s": round(max(seconds), 3) if seconds else None,
    }


KINDS = ("random", "search", "solution", "near_miss")


QUESTIONS = ("all_colours", "one_colour", "max_placeable", "solo")
DEFAULT_QUESTIONS = QUESTIONS[:3]  # (solo: asked for)


def measure(lefts=(12, 10, 9, 6), seeds=range(6), limit: float = 5.0, threads=(1,), kinds=KINDS,
            exhaustive: bool = False, questions=DEFAULT_QUESTIONS) -> dict:
    out = {"time_limit_s": limit, "seeds": len(seeds)}
    # The all-colour question with each thread count ("all_colours_2t": two threads).
    all_qs = [("all_colours" if n == 1 else f"all_colours_{n}t", n) for n in threads] if "all_colours" in questions else []
    extra = ["exhaustive_only"] if exhaustive else []
    extra += [q for q in ("one_colour", "max_placeable", "solo") if q in questions]
    for kind in kinds:
        for left in lefts:
            games = list(positions(kind, left, seeds))
            rows = {}
            for question in [q for q, _ in all_qs] + extra:
                answers, secs, shortfall, nodes = [], [], [], []
                for g in games:
                    if question == "exhaustive_only":
                        t0 = time.perf_counter()
                        r = tf.can_place_all(g, time_limit=limit, heuristic=False)
                        answers.append(r.answer)
                        secs.append(time.perf_counter() - t0)
                        nodes.append(r.nodes)
                        continue
                    if question == "solo":  # the solo solver from the position, triangle anywhere: True = complete
                        t0 = time.perf_counter()
                        sol = tf.solve_solo(game=g, time_limit=limit, triangle_last=False)
                        answers.append(True if sol.complete else None)
                        secs.append(time.perf_counter() - t0)
                        if not sol.complete:
                            shortfall.append(sol.unplaced_triangles)
                        continue
                    if question.startswith("all_colours"):
                        t0 = time.perf_counter()
                        r = tf.can_place_all(g, time_limit=limit, threads=dict(all_qs)[question])
                        answers.append(r.answer)
                        secs.append(time.perf_counter() - t0)
                        if r.answer is None and r.best_triangles is not None:
                            shortfall.append(r.target_triangles - r.best_triangles)
                        continue
                    for c in g.variant.colours:
                        t0 = time.perf_counter()
                        if question == "one_colour":
                            answers.append(tf.can_place_all(g, [c], time_limit=limit).answer)
                        else:
                            r = tf.max_placeable(g, c, time_limit=limit)
                            answers.append(True if r.proven else None)  # True: the maximum is exact
                        secs.append(time.perf_counter() - t0)
                rows[question] = _summary(answers, secs)
                if nodes:
                    rows[question]["nodes"] = nodes
                    rows[question]["nodes_per_s"] = round(sum(nodes) / max(sum(secs), 1e-9))
                if shortfall:  # not proven: triangles the guided search's best layout left unplaced
                    rows[question]["best_layout_unplaced"] = sorted(shortfall)
            out[f"{kind}_{left}_left"] = rows
    return out


def test_bench_can_place_all_endgame(benchmark):
    games = list(positions("random", 9, range(2)))

    def run():
        return [tf.can_place_all(g, time_limit=5).answer for g in games]

    answers = benchmark.pedantic(run, rounds=1, iterations=1)
    benchmark.extra_info["answers"] = answers
    assert all(a is not None for a in answers)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--left", default="12,10,9,6")
    ap.add_argument("--seeds", type=positive_int, default=6)
    ap.add_argument("--limit", type=float, default=5.0)
    ap.add_argument("--threads", default="1", help="thread counts for the all-colour question, e.g. 1,2")
    ap.add_argument("--kinds", default=",".join(KINDS), help="kinds of position, from " + ", ".join(KINDS))
    ap.add_argument("--questions", default=",".join(DEFAULT_QUESTIONS), help="questions asked, from " + ", ".join(QUESTIONS))
    ap.add_argument("--exhaustive", action="store_true",
                    help="also the all-colour question by the exhaustive search alone (heuristic=False)")
    args = ap.parse_args(argv)
    lefts = tuple(int(x) for x in args.left.split(","))
    threads = tuple(int(x) for x in args.threads.split(","))
    kinds = tuple(k for k in args.kinds.split(",") if k)
    if any(k not in KINDS for k in kinds):
        ap.error(f"--kinds: choose from {', '.join(KINDS)}")
    questions = tuple(q for q in args.questions.split(",") if q)
    if any(q not in QUESTIONS for q in questions):
        ap.error(f"--questions: choose from {', '.join(QUESTIONS)}")
    json.dump(measure(lefts, range(args.seeds), args.limit, threads, kinds, args.exhaustive, questions), sys.stdout,
              indent=1)
    print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
