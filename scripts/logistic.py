"""Logistic regression by Newton's method, for the analysis scripts (pure Python: the
systems are small)."""
import math


def sigmoid(z):
    """1 / (1 + e^-z), with z clamped to [-30, 30] (no overflow)."""
    return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


def solve(m, v):
    """x with m x = v (Gaussian elimination with partial pivoting; m is small); None when m
    is singular."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[piv] = a[piv], a[c]
        if abs(a[c][c]) < 1e-12:
            return None
        for r in range(n):
            if r != c:
                f = a[r][c] / a[c][c]
                a[r] = [x - f * y for x, y in zip(a[r], a[c])]
    return [a[i][n] / a[i][i] for i in range(n)]


def fit_logistic_hessian(rows, ridge=1e-3):
    """Maximum a posteriori weights of P(y) = sigmoid(w . x) over (x, y) rows (Newton's method,
    a ridge of `ridge` per observation so that an empty feature stays at 0), and the negative
    Hessian of the log posterior at them (its inverse: the weights' covariance)."""
    k = len(rows[0][0])
    w = [0.0] * k
    h = None
    for _ in range(50):
        g = [-ridge * len(rows) * wi for wi in w]
        h = [[ridge * len(rows) if i == j else 0.0 for j in range(k)] for i in range(k)]
        for x, y in rows:
            p = sigmoid(sum(a * b for a, b in zip(w, x)))
            q = p * (1.0 - p)
            for i in range(k):
                g[i] += (y - p) * x[i]
                if x[i]:
                    for j in range(k):
                        h[i][j] += q * x[i] * x[j]
        step = solve(h, g)
        if step is None:
            break
        w = [a + b for a, b in zip(w, step)]
        if sum(abs(s) for s in step) < 1e-9:
            break
    return w, h


def fit_logistic(rows, ridge=1e-3):
    """The weights of `fit_logistic_hessian`."""
    return fit_logistic_hessian(rows, ridge)[0]
