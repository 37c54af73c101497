//! Game-agnostic search, written once and used by both contest bots (Coup and Durak), in the
//! manner of OpenSpiel's `algorithms/is_mcts` and its minimax solvers.
//!
//! | module | what | used by |
//! |---|---|---|
//! | [`flat`] | flat determinized evaluation: every candidate action valued in every sampled world (common random numbers: the worlds are shared by the actions) | Coup's flat search, Durak's deep search |
//! | [`ismcts`] | single-observer information-set Monte Carlo tree search (Cowling, Powley and Whitehouse 2012): nodes are action sequences, UCB1 with availability counts, one expansion per iteration | Coup's tree search, Durak's trees |
//! | [`exact`] | exact boolean two-team minimax of a perfect-information position, with a transposition table, a node cap and a depth cap | Durak's endgame, the Durak referee's verdicts |
//!
//! Each game plugs in through a thin adapter that implements the module's trait: the game
//! offers the decision to come (the player to move and the legal actions, or the policy's
//! action for a player that does not search, or the end with its value), applying an
//! action, and a value for a leaf; the adapter draws the worlds from its own information
//! state (where each bot's posterior over the hidden cards plugs in).
//!
//! Work is capped by counts (worlds, iterations, solver nodes), so the same seed and the
//! same input give the same answer; a wall-clock [`Caps::deadline`] is only a safety net,
//! reported when it fires ([`Progress::clock_cut`]).

pub mod exact;
pub mod flat;
pub mod ismcts;

use std::time::Instant;

/// The work caps of one search.
///
/// A search stops at the first cap reached: `max_samples` worlds (or iterations), or
/// `work` units once at least `min_samples` are done. The `deadline` is the clock's safety
/// net: it is polled before each evaluation and never stops the first world, so a search
/// always returns something from at least one complete world.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Caps {
    /// Worlds (flat search) or iterations (tree search) at most.
    pub max_samples: usize,
    /// Worlds or iterations always done before the work cap may stop the search.
    pub min_samples: usize,
    /// Work units at most (each adapter's unit: playout steps, solver nodes, ...);
    /// `u64::MAX`: no work cap.
    pub work: u64,
    /// The clock's safety net (`None`: counts only).
    pub deadline: Option<Instant>,
}

impl Caps {
    /// At most `n` worlds or iterations, no work cap, no clock.
    pub fn samples(n: usize) -> Caps {
        Caps {
            max_samples: n,
            min_samples: 0,
            work: u64::MAX,
            deadline: None,
        }
    }

    /// Whether another world (iteration) may start after `p`.
    pub fn allow(&self, p: &Progress) -> bool {
        p.samples < self.max_samples && (p.work < self.work || p.samples < self.min_samples)
    }

    /// Whether the clock's safety net has fired (never during the first world).
    pub fn clock_passed(&self, p: &Progress) -> bool {
        p.samples > 0 && self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// How far a search has got: worlds (iterations) completed, work spent, and whether the
/// clock's safety net stopped it.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Progress {
    /// Worlds (flat search) or iterations (tree search) completed.
    pub samples: usize,
    /// Work units spent, as the adapter counts them.
    pub work: u64,
    /// Whether the deadline stopped the search before a count cap did.
    pub clock_cut: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn caps_stop_at_the_first_count_reached() {
        let caps = Caps {
            max_samples: 10,
            min_samples: 3,
            work: 100,
            deadline: None,
        };
        let at = |samples, work| Progress {
            samples,
            work,
            clock_cut: false,
        };
        assert!(caps.allow(&at(0, 0)));
        assert!(caps.allow(&at(2, 500)), "min_samples before the work cap");
        assert!(!caps.allow(&at(3, 100)), "work cap after min_samples");
        assert!(caps.allow(&at(9, 99)));
        assert!(!caps.allow(&at(10, 0)), "sample cap");
    }

    #[test]
    fn the_deadline_never_stops_the_first_world() {
        let caps = Caps {
            deadline: Some(Instant::now()),
            ..Caps::samples(5)
        };
        assert!(!caps.clock_passed(&Progress::default()));
        let one = Progress {
            samples: 1,
            ..Progress::default()
        };
        assert!(caps.clock_passed(&one));
    }
}
