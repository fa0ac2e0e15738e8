"""Rates the pytest benchmarks record beside their timings."""


def record_rate(benchmark, count: float, key: str = "games_per_s") -> None:
    """``count`` per second of the median round, into the benchmark's extra info. With benchmarks
    disabled (plain ``pytest bench``, each benchmark run once as a test) there are no statistics,
    and nothing is recorded."""
    if benchmark.stats is not None:
        benchmark.extra_info[key] = count / benchmark.stats.stats.median
