//! The opponent's behaviour as counts and Bayesian rates.
//!
//! [`Stats`] counts, from one history read from my side, how the opponent
//! answered my claims (challenges of my actions by kind and by its number of
//! cards, challenges of my blocks, blocks of my actions) and how its own
//! claims fared when I challenged them (caught bluffs against proved claims).
//! Stats of past games against the same opponent ([`super::memory`]) add to
//! those of this game. [`Model`] turns the counts into rates: each rate is
//! the mean of a Beta posterior whose prior is stated next to it, so an
//! opponent seen for a few claims moves the rates a little and one seen for
//! hundreds decides them.

pub use super::claims::*;
pub use super::rates::*;
pub use super::stats::*;
