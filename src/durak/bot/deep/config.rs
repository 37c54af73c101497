//! The deep search's settings ([`DeepConfig`]), one table (name, default, bounds, meaning,
//! the measurement that set it) that gives the struct, the defaults, the parser and
//! `durak-bot --help`. Options measured and not kept are gone; their results are rows of
//! `docs/experiments/durak.md`.

use crate::durak::bot::settings::pairs;
use crate::durak::bot::strategy::HeuristicParams;

settings! {
    /// The deep search's caps, shares and statistics (the scalar settings of [`DeepConfig`]).
    pub struct SearchSettings {
        budget_share: f64 = 0.25, [0, 1],
            "Share of the game's time budget (2 s + 0.1 s x rounds started) the work caps aim to spend at units_per_second.",
            "worst game 5-10% of the budget on a quiet machine, 37% at a load of 10-14 (docs/durak.md)";
        units_per_second: f64 = 1.6e6, [1, 1e12],
            "Work units (playout steps, solver nodes, tree steps) assumed per second, taken low so a loaded machine stays inside the share.",
            "7 million per second alone on the 2-core machine, 2.5-3.5 million at a load of 4, under 2 million at 6-7";
        hard_share: f64 = 0.3, [0, 100],
            "Share of the budget after which the wall-clock safety net cuts a decision short (logged; the answers may then not replay).",
            "a net, not a setting of strength: under a load of 10-14 it cut decisions and the games stopped replaying (measure with hard_share=1)";
        max_samples: usize = 400, [1, 1e6],
            "Determinizations per decision at most (this cap, not the work cap, ends most decisions).",
            "max_samples=100000 with larger caps: 59.4% against 60.8% vs bot_smart.py, 1,000 games, seed 9001, at 4 times the work";
        min_samples: usize = 8, [0, 1e6],
            "Determinizations per decision at least, when the work cap allows one per answer.",
            "not measured apart; a floor so a late decision is never judged on one sample";
        root_nodes: u64 = 60_000, [0, 1e12],
            "Node cap of one root answer's exact solve (talon empty at the decision).",
            "16-19 cards need a median 55,000 nodes";
        root_cards: usize = 12, [0, 36],
            "Solve a decision's positions exactly once the talon is empty and at most this many cards are in play.",
            "root_cards 24 with exact_cards 14 won 50-54% of 200 games vs bot_smart.py where 16 and 12 won 60-66%";
        exact_cards: usize = 8, [0, 36],
            "Playouts stop for an exact solve once the talon is empty and at most this many cards are in play.",
            "12-15 cards need a median 2,500 nodes; see root_cards";
        leaf_nodes: u64 = 5_000, [0, 1e12],
            "Node cap of the exact solve that ends a playout.",
            "set with exact_cards";
        opponent_mix: f64 = 0.5, [0, 1],
            "Share of the determinizations whose opponents play the plainer model (opp.*) instead of the own heuristic (own.*): a hedge over unknown opponents.",
            "1: -2.8 and -2.5 points, 0: -3.5 and -4.5 points vs bot_greedy.py, 400 games at seeds 1 and 5001";
        keep_z: f64 = 1.645, [0, 100],
            "The heuristic's answer stands unless another scores this many standard errors above it on the same determinizations (one-sided paired test; 0 off).",
            "vs bot_smart.py, seed 777, 800 games: off 61.3%, 1.5 69.2%, 1.645 67.4%, 3 65.2%; 1 and 2.5 within noise at seeds 1, 5001, 9001";
        ucb_c: f64 = 0.7, [0, 100],
            "UCB1's exploration constant in the information-set trees (scores scaled to 0..1).",
            "vs inproc:greedy, 400 games, seed 777: 0.4 89.8%, 0.7 91.5%, 1.2 90.2%";
        tree_opp: u8 = 2, [0, 2],
            "Opponents whose tree decisions choose by UCB1: 0 none, 1 both, 2 each once seen breaking the play beliefs (Tracker::broke).",
            "2 won 76.5% of 4,000 games vs bot_smart.py over 4 seeds, 0 74.8% (+1.7 +- 1.6); 1 86.0% vs in-process greedy where 0 and 2 won 91.5%";
        tree_depth: usize = 64, [0, 1e6],
            "Decisions that choose by UCB1 on one path of a tree at most; below, the playout evaluates.",
            "vs inproc:greedy, 400 games, seed 777: 1 89.2%, 3 92.5%, 64 (no cap in practice) 91.5%";
    }
}

/// Settings of the deep search: [`SearchSettings`] (reached through `Deref`, so
/// `cfg.max_samples`), the own team's playout policy and the opponents' alternative model,
/// and (feature `measure`) the measurement bounds.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeepConfig {
    /// The caps, shares and statistics (`key=value`).
    pub search: SearchSettings,
    /// The own team's playout policy and kept answer (`own.KEY=value`).
    pub heuristic: HeuristicParams,
    /// The opponents' alternative model in [`SearchSettings::opponent_mix`] of the
    /// determinizations (`opp.KEY=value`; [`HeuristicParams::plain`] by default).
    pub opponent: HeuristicParams,
    /// The clairvoyant bound and its variants (measurement only).
    #[cfg(feature = "measure")]
    pub measure: crate::durak::measure::Measure,
}

impl Default for DeepConfig {
    fn default() -> DeepConfig {
        DeepConfig {
            search: SearchSettings::default(),
            heuristic: HeuristicParams::default(),
            opponent: HeuristicParams::plain(),
            #[cfg(feature = "measure")]
            measure: crate::durak::measure::Measure::default(),
        }
    }
}

impl std::ops::Deref for DeepConfig {
    type Target = SearchSettings;
    fn deref(&self) -> &SearchSettings {
        &self.search
    }
}

impl std::ops::DerefMut for DeepConfig {
    fn deref_mut(&mut self) -> &mut SearchSettings {
        &mut self.search
    }
}

impl DeepConfig {
    /// Every key `durak-bot --deep` accepts, for `--help` and the unknown key's error.
    pub fn help() -> String {
        #[allow(unused_mut)]
        let mut text = format!(
            "Deep search settings (--deep key=value,...):\n{}\
             Own team's heuristic (own.KEY=value) and the opponents' model (opp.KEY=value, \
             take_trump_rank=99 and throw_trump_end=0 by default):\n{}",
            SearchSettings::HELP,
            HeuristicParams::HELP
        );
        #[cfg(feature = "measure")]
        {
            text.push_str("Measurement bounds (feature measure, in-process only):\n");
            text.push_str(crate::durak::measure::Measure::HELP);
        }
        text
    }

    /// The accepted keys in one line.
    pub fn keys() -> String {
        let mut keys: Vec<String> = SearchSettings::KEYS.iter().map(|k| k.to_string()).collect();
        #[cfg(feature = "measure")]
        keys.extend(
            crate::durak::measure::Measure::KEYS
                .iter()
                .map(|k| k.to_string()),
        );
        keys.push(format!(
            "own.KEY and opp.KEY with KEY one of {}",
            HeuristicParams::KEYS.join(", ")
        ));
        keys.join(", ")
    }

    /// Reads `key=value` pairs separated by commas over the defaults: the keys of
    /// [`SearchSettings`], `own.KEY` and `opp.KEY` for [`DeepConfig::heuristic`] and
    /// [`DeepConfig::opponent`] (keys of [`HeuristicParams`]), and with the feature `measure`
    /// those of `measure::Measure`.
    ///
    /// # Errors
    /// One line naming the first bad item; an unknown key's lists the accepted keys.
    pub fn parse(text: &str) -> Result<DeepConfig, String> {
        let mut c = DeepConfig::default();
        for (k, v) in pairs(text)? {
            let known = match (k.strip_prefix("own."), k.strip_prefix("opp.")) {
                (Some(knob), _) => c.heuristic.set(knob, v)?,
                (_, Some(knob)) => c.opponent.set(knob, v)?,
                _ => c.search.set(k, v)? || c.set_measure(k, v)?,
            };
            if !known {
                return Err(format!(
                    "unknown deep search setting {k:?} (accepted: {})",
                    DeepConfig::keys()
                ));
            }
        }
        Ok(c)
    }

    #[cfg(feature = "measure")]
    fn set_measure(&mut self, key: &str, value: &str) -> Result<bool, String> {
        self.measure.set(key, value)
    }

    #[cfg(not(feature = "measure"))]
    fn set_measure(&mut self, _key: &str, _value: &str) -> Result<bool, String> {
        Ok(false)
    }
}
