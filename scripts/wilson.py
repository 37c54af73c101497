"""The 95% Wilson score interval the Coup benchmark scripts report (the same formula as
`cardgames::stats::wilson95` in the library)."""
import math


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
