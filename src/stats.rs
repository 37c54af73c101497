//! Statistics shared by the tournaments and referees.

/// The 95% Wilson score interval of `successes` in `trials`, as fractions
/// `(low, high)`; `(0, 1)` when there are no trials. Used for every win rate
/// the servers report.
pub fn wilson95(successes: u64, trials: u64) -> (f64, f64) {
    if trials == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let n = trials as f64;
    let p = successes as f64 / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * (p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt() / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The mean of `xs` and the half-width of its 95% interval (normal approximation: 1.96
/// standard errors, the sample standard deviation over the square root of the count), as
/// `(mean, half)`; `(0, 0)` for no values, half 0 for one. Used for paired differences (one
/// value per game or per deal, the same deals played by two settings).
pub fn mean_and_half95(xs: &[f64]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() == 1 {
        return (mean, 0.0);
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, 1.959_963_984_540_054 * (var / n).sqrt())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mean_and_half_width_of_a_worked_sample() {
        // 1, 0, 0, -1: mean 0, sample variance 2/3, standard error sqrt(2/3 / 4) = 0.408.
        let (m, h) = mean_and_half95(&[1.0, 0.0, 0.0, -1.0]);
        assert_eq!(m, 0.0);
        assert!((h - 1.96 * (1.0f64 / 6.0).sqrt()).abs() < 1e-3, "{h}");
        assert_eq!(mean_and_half95(&[]), (0.0, 0.0));
        assert_eq!(mean_and_half95(&[0.5]), (0.5, 0.0));
    }

    #[test]
    fn known_intervals() {
        // 50 of 100: the textbook interval 0.404 .. 0.596.
        let (lo, hi) = wilson95(50, 100);
        assert!(
            (lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3,
            "{lo} {hi}"
        );
        // All of 357: the lower bound is 1 - z^2 / (n + z^2).
        let (lo, hi) = wilson95(357, 357);
        assert!((lo - 0.98935).abs() < 1e-4 && hi == 1.0, "{lo}");
        assert_eq!(wilson95(0, 0), (0.0, 1.0));
        assert_eq!(wilson95(0, 10).0, 0.0);
    }
}
