"""Measurements of the search, shared by bench/bench_search.py and bench/headline.py."""

from __future__ import annotations

import statistics
import time

import trigon_fast as tf
from trigon_fast import _core

# 24 moves (6 per colour) of a fixed four-player game, in Pentobi notation (stable across
# changes of placement ids). Blue is to move with 550 legal moves.
MID_GAME = [
    "s13,r14,s14,q15,r15,q16", "i11,i12,j12,k12,l12,l13", "z11,aa11,z12,aa12,z13,aa13",
    "i7,j7,i8,j8,k8,j9", "m17,n17,o17,p17,q17,m18", "l14,n14,l15,m15,n15,o15",
    "z14,y15,z15,y16,z16,z17", "m9,n9,k10,l10,m10,n10", "h17,i17,j17,i18,j18,k18",
    "e12,f12,e13,f13,g13,h13", "u14,v14,v15,w15,v16,w16", "p11,q11,r11,s11,s12,t12",
    "u11,u12,v12,u13,v13,w13", "d8,d9,e9,e10,f10,f11", "u17,w17,u18,v18,w18,x18",
    "p9,q9,r9,s9,t9,q10", "v9,w9,u10,v10,w10,x10", "e7,f7,g7,h7,f8,g8",
    "z8,y9,z9,aa9,y10,aa10", "t6,q7,r7,s7,t7,q8", "u6,v6,u7,v7,w7,u8",
    "l4,k5,l5,j6,k6,l6", "ab14,ac14,ad14,ab15,ac15,ac16", "m6,n6,o6,p6,n7,o7",
]

SIMULATIONS = 20000


def empty_game():
    return tf.Game(tf.Variant.FOUR_PLAYER)


def mid_game():
    return tf.Game(tf.Variant.FOUR_PLAYER, MID_GAME)


def sims_per_second(game, threads, simulations=SIMULATIONS, repeats=3, cpu=False):
    """Best of `repeats` searches (the machine is shared: the best run is the least disturbed).
    With ``cpu``, also simulations per CPU-second of the process, all threads together: less
    sensitive to other load, and equal for 1 and 2 threads when threads cost nothing extra."""
    best = best_cpu = 0.0
    for r in range(repeats):
        c0 = time.process_time()
        a = tf.analyse(game, simulations=simulations, threads=threads, seed=r)
        used = time.process_time() - c0
        best = max(best, a.simulations / a.seconds)
        best_cpu = max(best_cpu, a.simulations / used if used > 0 else 0.0)
    return (best, best_cpu) if cpu else best


def bytes_per_1000_nodes(simulations=SIMULATIONS):
    s = _core.Searcher()
    p = _core.SearchParams()
    p.max_simulations = simulations
    raw, _ = s.run(empty_game().position, p)
    # Memory held by allocated chunks, per node used (includes the last chunk's unused tail).
    return {
        "node_bytes": int(_core.SEARCH_NODE_BYTES),
        "bytes_per_1000_nodes": 1000 * _core.SEARCH_NODE_BYTES,
        "allocated_bytes_per_1000_nodes": 1000 * s.memory_bytes / max(raw.nodes, 1),
        "nodes_per_simulation": raw.nodes / raw.simulations,
    }


SECONDS = 2.0  # per timed search in the headline figures
REPEATS = 3


def timed_rates(make, threads_list=(1, 2), seconds=SECONDS, repeats=REPEATS):
    """Median simulations/s and per CPU-second of timed searches, the thread counts taking turns
    (so that a burst of other load hits them alike). Timed runs of a few seconds, not short
    fixed-count ones: a run of under a second is dominated by the first, root-bound phase."""
    wall = {t: [] for t in threads_list}
    cpu = {t: [] for t in threads_list}
    for r in range(repeats):
        for t in threads_list:
            c0 = time.process_time()
            a = tf.analyse(make(), time=seconds, threads=t, seed=r)
            used = time.process_time() - c0
            wall[t].append(a.simulations / a.seconds)
            cpu[t].append(a.simulations / used if used > 0 else 0.0)
    return ({t: statistics.median(v) for t, v in wall.items()}, {t: statistics.median(v) for t, v in cpu.items()})


def headline() -> dict:
    """The search figures of bench/headline.py."""
    empty, empty_cpu = timed_rates(empty_game)
    mid, mid_cpu = timed_rates(mid_game)
    return {
        "search_sims_per_s_1t": round(empty[1]),
        "search_sims_per_cpu_s_1t": round(empty_cpu[1]),
        "search_sims_per_cpu_s_2t": round(empty_cpu[2]),
        # CPU cost per simulation with 1 thread over that with 2: the scaling on 2 idle cores
        # if the machine is busy (shared) while measuring.
        "search_cpu_efficiency_2t": round(empty_cpu[2] / empty_cpu[1], 2),
        "search_sims_per_cpu_s_mid_1t": round(mid_cpu[1]),
        "search_sims_per_s_2t": round(empty[2]),
        "search_scaling_2t": round(empty[2] / empty[1], 2),
        "search_sims_per_s_mid_1t": round(mid[1]),
        "search_sims_per_s_mid_2t": round(mid[2]),
        "search_scaling_mid_2t": round(mid[2] / mid[1], 2),
        **bytes_per_1000_nodes(),
    }
