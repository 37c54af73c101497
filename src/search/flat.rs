//! Flat determinized evaluation: every candidate action is valued in every sampled world.
//!
//! The worlds are shared by the actions (common random numbers): action `i` and action `j`
//! are compared on the same hidden cards, so their difference has far less variance than
//! two independent samples would. An adapter that wants the randomness after the action to
//! be shared as well draws a seed with the world and starts each action's generator from it
//! (Coup's playouts do).

use super::{Caps, Progress};

/// The worlds of one decision and the value of an action in each (implemented by each bot's
/// adapter).
pub trait Worlds {
    /// One world: a determinization of the hidden information (and whatever the adapter
    /// keeps with it, e.g. a seed for the playouts).
    type World;

    /// The next world, given the search so far (an adapter may size a world's budget from
    /// the work left); `None` when no world fits what is known, which ends the search.
    fn draw(&mut self, progress: &Progress) -> Option<Self::World>;

    /// The value of action `action` (an index into the decision's candidates) in `world`,
    /// in the adapter's own units, larger better, and the work units it cost.
    fn value(&mut self, world: &Self::World, action: usize) -> (f64, u64);
}

/// What a flat search found.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Flat {
    /// Each action's total value over the completed worlds (`actions` entries).
    pub totals: Vec<f64>,
    /// Each completed world's values, row by row (`actions` per row), when asked for (the
    /// paired tests between two actions need them); empty otherwise.
    pub rows: Vec<f64>,
    /// Worlds completed, work spent, and whether the clock cut the search.
    pub progress: Progress,
}

impl Flat {
    /// The index of the action of highest total; ties go to the earliest action, or to
    /// `prefer` when it is among the best.
    pub fn best(&self, prefer: Option<usize>) -> Option<usize> {
        let mut best = prefer.filter(|&i| i < self.totals.len());
        for (i, &t) in self.totals.iter().enumerate() {
            if best.is_none_or(|b| t > self.totals[b]) {
                best = Some(i);
            }
        }
        best
    }
}

/// Values `actions` candidate actions over worlds drawn by `worlds` until a cap of `caps`
/// is reached. A world cut short by the clock is dropped, so every action's total is over
/// the same worlds.
pub fn evaluate<W: Worlds>(worlds: &mut W, actions: usize, caps: &Caps, keep_rows: bool) -> Flat {
    let mut out = Flat {
        totals: vec![0.0; actions],
        ..Flat::default()
    };
    let mut row = vec![0.0; actions];
    'worlds: while caps.allow(&out.progress) {
        if caps.clock_passed(&out.progress) {
            out.progress.clock_cut = true;
            break;
        }
        let Some(world) = worlds.draw(&out.progress) else {
            break;
        };
        for (i, v) in row.iter_mut().enumerate() {
            if i > 0 && caps.clock_passed(&out.progress) {
                out.progress.clock_cut = true;
                break 'worlds;
            }
            let (value, work) = worlds.value(&world, i);
            *v = value;
            out.progress.work += work;
        }
        for (t, v) in out.totals.iter_mut().zip(&row) {
            *t += v;
        }
        if keep_rows {
            out.rows.extend_from_slice(&row);
        }
        out.progress.samples += 1;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// A hidden coin that shows heads with probability 0.7; the actions bet on heads (1 if
    /// right), on tails, or pass (0.5 in every world). Betting on heads is worth 0.7.
    struct Coin(ChaCha8Rng);

    impl Worlds for Coin {
        type World = bool;
        fn draw(&mut self, _: &Progress) -> Option<bool> {
            Some(self.0.random_bool(0.7))
        }
        fn value(&mut self, heads: &bool, action: usize) -> (f64, u64) {
            let v = match action {
                0 => f64::from(u8::from(*heads)),
                1 => f64::from(u8::from(!*heads)),
                _ => 0.5,
            };
            (v, 1)
        }
    }

    #[test]
    fn the_best_bet_on_shared_worlds() {
        let mut coin = Coin(ChaCha8Rng::seed_from_u64(1));
        let flat = evaluate(&mut coin, 3, &Caps::samples(2000), true);
        assert_eq!(flat.progress.samples, 2000);
        assert_eq!(flat.progress.work, 6000);
        assert_eq!(flat.best(None), Some(0));
        let heads = flat.totals[0] / 2000.0;
        assert!((heads - 0.7).abs() < 0.03, "{heads}");
        // Common worlds: heads and tails add up to exactly one per world.
        assert_eq!(flat.totals[0] + flat.totals[1], 2000.0);
        assert_eq!(flat.rows.len(), 6000);
    }

    #[test]
    fn the_work_cap_binds_after_the_minimum() {
        let mut coin = Coin(ChaCha8Rng::seed_from_u64(2));
        let caps = Caps {
            max_samples: 100,
            min_samples: 5,
            work: 9,
            deadline: None,
        };
        let flat = evaluate(&mut coin, 3, &caps, false);
        assert_eq!(flat.progress.samples, 5);
        assert!(flat.rows.is_empty());
    }

    #[test]
    fn ties_go_to_the_preferred_action() {
        let flat = Flat {
            totals: vec![1.0, 3.0, 3.0],
            ..Flat::default()
        };
        assert_eq!(flat.best(None), Some(1));
        assert_eq!(flat.best(Some(2)), Some(2));
        assert_eq!(flat.best(Some(0)), Some(1));
    }
}
