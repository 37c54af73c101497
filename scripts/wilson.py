"""The 95% intervals the Coup benchmark scripts report: the Wilson score interval of a win
count (the same formula as `cardgames::stats::wilson95` in the library), and the Student t
interval of the mean of several runs' rates (`between_runs`), which does not assume that a
run's games are independent of one another.

`python3 scripts/wilson.py --self-test` checks both on cases computed by hand."""
import math
import sys

# Two-sided 95% quantiles of Student's t distribution for 1..30 degrees of freedom (any
# statistics table); beyond 30 the normal quantile 1.96 is used, at most 2% narrow.
T95 = [12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228,
       2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086,
       2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042]


def wilson(k, n, z=1.96):
    """(low, high) of the Wilson interval for k successes in n trials; (0, 1) when n is 0."""
    if n == 0:
        return (0.0, 1.0)
    p = k / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    # Rounding can leave the ends a hair outside [0, 1] (a printed -0.000) when k is 0 or n.
    return (max(0.0, c - h), min(1.0, c + h))


def between_runs(rates):
    """(mean, low, high) of the 95% Student t interval of the mean of `rates` (one win rate
    per run, at least two runs), clipped to [0, 1]. A run's games share both bots' memories
    and the arbiter's deck, so they need not be independent; the spread between runs (each
    seed's run is independent of the others) measures the noise whatever the dependence
    within a run. Equal-sized runs are assumed (the mean of the rates is the pooled rate)."""
    k = len(rates)
    if k < 2:
        raise ValueError('between_runs needs at least two runs')
    mean = sum(rates) / k
    sd = math.sqrt(sum((r - mean) ** 2 for r in rates) / (k - 1))
    t = T95[k - 2] if k - 1 <= len(T95) else 1.96
    h = t * sd / math.sqrt(k)
    return (mean, max(0.0, mean - h), min(1.0, mean + h))


def self_test():
    # Wilson, 7 of 10: centre (0.7 + 0.1921) / 1.3842, half-width 1.96 * sqrt(0.021 + 0.00096) / 1.3842.
    lo, hi = wilson(7, 10)
    assert abs(lo - 0.39677) < 1e-4 and abs(hi - 0.89222) < 1e-4, (lo, hi)
    assert wilson(0, 0) == (0.0, 1.0)
    # Three runs at 0.4, 0.5, 0.6: mean 0.5, sd 0.1, half-width 4.303 * 0.1 / sqrt(3) = 0.24843.
    m, lo, hi = between_runs([0.4, 0.5, 0.6])
    assert abs(m - 0.5) < 1e-12 and abs(lo - 0.25157) < 1e-4 and abs(hi - 0.74843) < 1e-4, (m, lo, hi)
    # Two runs at 0.5 and 0.6: half-width 12.706 * 0.070711 / sqrt(2) = 0.6353, clipped.
    assert between_runs([0.5, 0.6]) == (0.55, 0.0, 1.0)
    # Equal runs: no spread, a zero-width interval.
    assert between_runs([0.5, 0.5, 0.5, 0.5]) == (0.5, 0.5, 0.5)
    try:
        between_runs([0.5])
        raise AssertionError('one run accepted')
    except ValueError:
        pass
    print('wilson: self-test passed')


if __name__ == '__main__':
    if sys.argv[1:] != ['--self-test']:
        sys.exit('usage: scripts/wilson.py --self-test (a module of the benchmark scripts)')
    self_test()
