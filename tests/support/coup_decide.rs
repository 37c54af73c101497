//! The Coup tests' shorthands for `coup::decide` on the arbiter's inputs
//! (`HISTORY OPP_COINS MY_COINS CARDS LEGAL...`, the history as text).

#![allow(dead_code)]

use cardgames::coup::opponent::Stats;
use cardgames::coup::{Config, Decision, Remembered, SearchConfig, Strategy, View};

/// `strategy`'s decision on the arbiter's inputs, without memory.
pub fn decide(
    strategy: Strategy,
    history: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
) -> Decision {
    decide_with(strategy, history, opp_coins, my_coins, cards, legal, None)
}

/// `strategy`'s decision with `memory`, the counts of past games against
/// this opponent (`Remembered::counts`).
pub fn decide_with(
    strategy: Strategy,
    history: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
    memory: Option<&Stats>,
) -> Decision {
    let config = SearchConfig::default();
    decide_configured(
        strategy, history, opp_coins, my_coins, cards, legal, memory, &config,
    )
}

/// `strategy`'s decision with the search settings `config` and `memory`'s
/// counts of past games.
#[allow(clippy::too_many_arguments)]
pub fn decide_configured(
    strategy: Strategy,
    history: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
    memory: Option<&Stats>,
    config: &SearchConfig,
) -> Decision {
    let view = View::new(history, opp_coins, my_coins, cards, legal);
    let config = Config {
        strategy,
        search: *config,
    };
    cardgames::coup::decide(&view, Remembered::counts(memory), &config)
}

/// Game `g` of a run of memory games of ours ("Ours") against "Rnd": our
/// seat (the first in even games) and the history file's name as the
/// arbiter gives it (`<first>_<second>_<round>_<game>.txt`).
pub fn memory_game(g: u64) -> (usize, String) {
    let ours = (g % 2) as usize;
    let name = if ours == 0 {
        format!("Ours_Rnd_{g}_0.txt")
    } else {
        format!("Rnd_Ours_{g}_1.txt")
    };
    (ours, name)
}
