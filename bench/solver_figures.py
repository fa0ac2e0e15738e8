"""Solver keys of bench/headline.py (a few seeds, short limits; the full run is bench_solver.py)."""

from bench_solver import headline_figures


def headline() -> dict:
    return headline_figures(seeds=range(5), time_limit=10.0)
