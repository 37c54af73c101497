//! The search's settings ([`SearchConfig`]), written once in one table that
//! generates the struct, its defaults, the parser of `--search KEY=VALUE`
//! ([`SearchConfig::set`]) and the help text ([`SearchConfig::help`]). A
//! setting is here only when a configuration the bot plays sets it: the
//! portfolio's arm 1 ([`SearchConfig::arm`]) differs from arm 0 (the
//! defaults) in every one but the work caps (`worlds`, `iterations`,
//! `clock_ms`), the
//! contest winner's prior (`known_prior`, 0 in tests of the tree) and the
//! portfolio switch. The values fixed by measurement are the constants of
//! [`super::fixed`]; every setting measured and not kept is a row of
//! `docs/experiments/coup.md`.

use crate::coup::game::CoupError;

/// A setting's value type: read from the text of `--search KEY=VALUE` and
/// written back for `--help`.
pub trait Setting: Sized {
    /// Reads `v` (numbers kept within `lo..=hi`, a switch on unless 0).
    ///
    /// # Errors
    /// A one-line reason when `v` is not a finite number (or not four of
    /// them for a table of card values).
    fn read(v: &str, lo: f64, hi: f64) -> Result<Self, String>;
    /// The value as `--search` takes it.
    fn text(&self) -> String;
}

/// A finite number (NaN and the infinities would pass every clamp
/// unchanged).
fn number(v: &str) -> Result<f64, String> {
    v.trim()
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite())
        .ok_or_else(|| format!("{:?} is not a finite number", v.trim()))
}

impl Setting for f64 {
    fn read(v: &str, lo: f64, hi: f64) -> Result<Self, String> {
        Ok(number(v)?.clamp(lo, hi))
    }
    fn text(&self) -> String {
        self.to_string()
    }
}

impl Setting for usize {
    fn read(v: &str, lo: f64, hi: f64) -> Result<Self, String> {
        Ok(number(v)?.clamp(lo, hi) as usize)
    }
    fn text(&self) -> String {
        self.to_string()
    }
}

impl Setting for bool {
    fn read(v: &str, _: f64, _: f64) -> Result<Self, String> {
        Ok(number(v)? != 0.0)
    }
    fn text(&self) -> String {
        u8::from(*self).to_string()
    }
}

impl Setting for [[f64; 2]; 2] {
    fn read(v: &str, lo: f64, hi: f64) -> Result<Self, String> {
        let x: Vec<f64> = v.split(',').map(number).collect::<Result<_, _>>()?;
        match x[..] {
            [a, b, c, d] => {
                Ok([a, b, c, d].map(|x| x.clamp(lo, hi))).map(|[a, b, c, d]| [[a, b], [c, d]])
            }
            _ => Err("card_value takes 4 numbers".into()),
        }
    }
    fn text(&self) -> String {
        let v: Vec<String> = self.as_flattened().iter().map(f64::to_string).collect();
        v.join(",")
    }
}

/// The table: each setting's documentation (its meaning and the
/// measurement that set it), name, type, default, range and one-line
/// meaning for `--help`.
macro_rules! search_config {
    ($( $(#[doc = $doc:literal])* $key:ident: $ty:ty = $default:expr, $lo:literal..=$hi:literal, $help:literal; )*) => {
        /// The search's settings (the table of `bot/config.rs`); the
        /// default is the portfolio's arm 0, [`SearchConfig::arm`] gives
        /// arm 1.
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct SearchConfig {
            $( $(#[doc = $doc])* pub $key: $ty, )*
        }

        impl Default for SearchConfig {
            fn default() -> Self {
                SearchConfig { $( $key: $default, )* }
            }
        }

        /// The keys [`SearchConfig::set`] accepts (and `arm`, which sets
        /// several), as `--search KEY=VALUE` names them.
        pub const SEARCH_KEYS: &[&str] = &[$( stringify!($key), )* "arm"];

        impl SearchConfig {
            /// Sets one setting from `key=value`: `arm=N` plays the
            /// portfolio's arm `N` alone (every setting of
            /// [`SearchConfig::arm`], the portfolio off), so a key after it
            /// changes that arm; `card_value` takes 4 numbers, every other
            /// key one number (a switch is on unless 0).
            ///
            /// # Errors
            /// [`CoupError::BadArgument`], one line, for a text without
            /// `=`, an unknown key (the message lists the keys), a value
            /// that is not a finite number or the wrong count of numbers;
            /// the setting is then left as it was.
            pub fn set(&mut self, kv: &str) -> Result<(), CoupError> {
                let bad = |why: &str| CoupError::BadArgument(format!("--search {kv:?}: {why}"));
                let (k, v) = kv.split_once('=').ok_or_else(|| bad("expected key=value"))?;
                match k.trim() {
                    $( stringify!($key) => {
                        self.$key = Setting::read(v, $lo as f64, $hi as f64).map_err(|e| bad(&e))?
                    } )*
                    "arm" => {
                        let arm = number(v).map_err(|e| bad(&e))?;
                        if arm != 0.0 && arm != 1.0 {
                            return Err(bad("arm is 0 or 1"));
                        }
                        *self = SearchConfig {
                            portfolio: false,
                            ..self.arm(arm as usize)
                        };
                    }
                    _ => {
                        return Err(bad(&format!(
                            "unknown key (keys: {}; card_value takes 4 numbers)",
                            SEARCH_KEYS.join(", ")
                        )))
                    }
                }
                Ok(())
            }

            /// One line per setting, `KEY=DEFAULT  meaning`, for `--help`.
            pub fn help() -> String {
                let d = SearchConfig::default();
                let mut out = String::new();
                $( out.push_str(&format!("  {}={}  {}\n", stringify!($key), Setting::text(&d.$key), $help)); )*
                out.push_str("  arm=0|1  play that arm of the portfolio alone (later keys change it)\n");
                out
            }
        }
    };
}

search_config! {
    /// Worlds (determinizations) per decision of the flat search; every
    /// root answer is played out once in each. 300 worlds × up to 7
    /// answers keep a call near 3 ms (`make coup-bench`'s timing column);
    /// the standard error of a value is then at most 0.5 / sqrt(300) =
    /// 0.029. A work cap: the rows measured at other values are in
    /// `docs/experiments/coup.md`.
    worlds: usize = 300, 1..=1_000_000, "worlds a flat search plays (the work cap)";
    /// Iterations of the tree search per decision (one world each). 2,000
    /// keep a call near 3 ms with process start; 4,000 played the same
    /// against Seer (47.9% of the same 1,600 games).
    iterations: usize = 2000, 1..=10_000_000, "iterations a tree search plays (the work cap)";
    /// The clock's safety net, in milliseconds of wall time for one
    /// search: past it no further world (or iteration) starts, the answer
    /// comes from those played and the decision's note says so. A call
    /// takes a few ms and the arbiter forfeits a bot after 5 s, so 1,000 ms
    /// never binds on a working machine: the caps decide and the same input
    /// gives the same answer. 0: no clock is read.
    clock_ms: f64 = 1000.0, 0..=1e9, "the clock's safety net for one search, ms (0: none)";
    /// Calls a rollout plays before it stops and the position is valued by
    /// [`SearchConfig::card_value`] (0: play every world to its end; a world
    /// with one card each is always played to its end, `rollout::may_cut`). Eight
    /// calls (about three turns) measured at arbiter3 seed 7, 200 games
    /// each, against full rollouts: Seer 50.5% against 45.5%, Calculator
    /// 75.0% against 70.0%, the honest stand-in 95.5% against 83.0%. On arm
    /// 1, 4 calls won 52.4% [49.9, 54.8] of 1,600 games against Seer, 2
    /// calls 43.8%, 6 calls 48.6%, 8 calls 48.1%.
    horizon: usize = 8, 0..=10_000, "calls a rollout plays before it is cut and valued";
    /// Calls a rollout may run past [`SearchConfig::horizon`] to reach the
    /// start of a turn, where it is cut (a quiescence extension; 0: cut at
    /// the horizon wherever it falls). 8 on arm 0, 0 on arm 1. Measured on
    /// arm 0 (arbiter3, memory on, seeds 7-67, 3,200 games each): the real
    /// Calculator 70.8% [69.2, 72.3] against 65.9% [64.2, 67.5] with cuts
    /// anywhere, Seer 52.1% [50.4, 53.9] against 52.4% [50.6, 54.1].
    quiescence: usize = 8, 0..=10_000, "calls a rollout may run past the horizon to a turn's start";
    /// Probability of winning with `[my cards][its cards]` (1 or 2 each),
    /// the value of a rollout cut at the horizon: the share of games won
    /// after the first time each card count was reached (200 games against
    /// Seer at arbiter3 seed 7). Arm 1 plays even values
    /// (`0.5,0.25,0.75,0.5`): with the tree at `horizon=4` they won 55.2%
    /// [52.8, 57.7] of 1,600 games against Seer.
    card_value: [[f64; 2]; 2] = [[0.39, 0.14], [0.72, 0.46]], 0..=1, "win probability of a cut rollout by card counts [1-1,1-2,2-1,2-2]";
    /// Whether every repeated standing claim of a character counts as its
    /// own evidence in the hand posterior (up to three), or only once. Arm
    /// 1 counts once: with the tree 51.1% [47.7, 54.6] of 800 games
    /// against Seer against 45.5% with every repeat; on the flat arm once
    /// won 69.6% [67.9, 71.1] of 3,200 games against the real Calculator
    /// (every repeat 73.8%).
    repeat_claims: bool = true, 0..=1, "every repeated claim counts as evidence (else once)";
    /// Whether the posterior's prior for a hand the opponent chose at an
    /// Exchange is the best of the cards it saw
    /// ([`crate::coup::bot::model::EXCHANGE_RANK`]) rather than a blind
    /// draw. On arm 1; on arm 0 it won 51.7% [46.9, 56.6] against 54.0%
    /// without (Seer, seeds 7 and 11, 400 games).
    exchange_prior: bool = false, 0..=1, "a hand kept at an Exchange is the best of those seen";
    /// Whether the opponent's bluff ratios come from its claims whose
    /// truth the history showed ([`crate::coup::bot::opponent::Model::resolved_action_ratio`])
    /// rather than from the claims I challenged alone. On arm 1; on arm 0
    /// (seeds 7-17, 800 games each) the real Calculator with memory 63.2%
    /// [59.9, 66.5] (without 65.2%), Seer 49.4% [45.9, 52.8] (51.4%).
    resolved_bluffs: bool = false, 0..=1, "bluff ratios from every resolved claim (else the challenged ones)";
    /// With [`SearchConfig::resolved_bluffs`]: the ratio of the claim I am
    /// answering is the opponent's with as many cards as it holds now.
    /// On arm 1: with the tree it won 48.1% [45.6, 50.5] of 1,600 games
    /// against Seer (46.4% without).
    claimant_cards: bool = false, 0..=1, "the pending claim's ratio by the claimant's card count";
    /// Whether information-set Monte Carlo tree search (`bot/tree.rs`)
    /// decides my answers to the opponent's moves (challenges, blocks,
    /// reveals, give-ups; my turns' actions stay with the flat search). On
    /// arm 1: with its model and `horizon=4` it won 53.0% [50.6, 55.4] of
    /// 1,600 games against Seer and 63.5% [56.6, 69.9] against the real
    /// Calculator (seed 7; the flat default 75.0%). A decision the contest
    /// winner's rule explains is searched flat.
    tree: bool = false, 0..=1, "the tree search answers the opponent's moves";
    /// The opponent's pending action claim read through its own eyes
    /// (`bot/mind.rs`): the softmax temperature, in win probability, of a
    /// search of its decision from its seat for every hand the posterior
    /// allows: each hand's likelihood, times the claim's learnt ratio over
    /// its prior and [`SearchConfig::mind_odds`] on the hands that lack the
    /// claimed character. 0: off (arm 0). On arm 1 at 0.03: alone, 57.2%
    /// [55.5, 59.0] of 3,200 games against Seer (seeds 7-67).
    mind: f64 = 0.0, 0..=1e9, "temperature of the claimant's-eyes reading (0: off)";
    /// Worlds per hand of [`SearchConfig::mind`]'s search: 192 on arm 1 (a
    /// value's error 0.5 / sqrt(n) is 0.036 there, 0.051 at 96, against the
    /// temperature 0.03). Against 96: a lower Brier score on the Seer
    /// styles' claims in 16 of 20 held-out runs, 55.4% of 7,000 games (55.0%).
    mind_worlds: usize = 32, 1..=100_000, "worlds per hand of the claimant's-eyes reading";
    /// With [`SearchConfig::mind`], a factor on the likelihood of the hands
    /// that lack the claimed character (below 1: the claimant bluffs less
    /// than a player searching as this bot does). 0.35 on arm 1: the best
    /// Brier score on four Seer styles' claims of five (0.5, 0.25, 1 tried,
    /// seeds 11-31); 56.9% of 7,000 games (0.5: 55.1%).
    mind_odds: f64 = 1.0, 0..=1e9, "factor on the claimant's-eyes likelihood of a bluff";
    /// Whether the pending action claim's bluff probability is recalibrated
    /// by its situation (`Ctx::opponent_hands` in `bot/posterior.rs`). On arm
    /// 1: 60.0% [58.8, 61.2] of 6,000 games against the five Seer styles at
    /// seeds 11, 13, 17 and 53, 59, 61 (58.0% without).
    recalibrate: bool = false, 0..=1, "the pending claim's bluff probability recalibrated by its situation";
    /// Prior probability that the opponent plays by the contest winner's
    /// rule ([`super::known`]); 0 turns the rule off. Measured at seed 7
    /// (arbiter3, 200 games, memory on): the real Calculator 81.0% [75.0,
    /// 85.8] (72.0% without), 87.5% [82.2, 91.4] with a fresh folder per
    /// game (64.5%); Seer 61.5%, the same games as without.
    known_prior: f64 = 0.1, 0..=1, "prior that the opponent plays the contest winner's rule";
    /// Whether `coup-bot` (with its memory) plays one arm per opponent,
    /// chosen by the opponent's type
    /// ([`crate::coup::memory::Entry::choose_typed_arm`]); off, the
    /// settings as given (`arm=N` turns it off). Measured (arbiter3, memory
    /// on, seeds 7-67, 3,200 games each): Seer 55.7%, the real Calculator
    /// 73.8% [72.2, 75.3].
    portfolio: bool = true, 0..=1, "one arm per opponent by its type, from the memory";
}

impl SearchConfig {
    /// The configuration of the portfolio's arm `arm`: 0 (or any other) is
    /// `self`; 1 is `self` with the tree answering the opponent's moves,
    /// its bluffs read from its resolved claims by the claimant's cards
    /// with the Exchange prior and repeated claims counted once, rollouts
    /// cut after 4 calls wherever they fall and valued by even card
    /// values, and its claims read through the claimant's eyes (its pending
    /// action claim recalibrated by its situation since `recalibrate`): played
    /// alone, 57.2% [55.5, 59.0] of 3,200 games against Seer and 62.6%
    /// against the real Calculator (`docs/experiments/coup-log.md`, "One
    /// arm against an adaptive opponent").
    pub fn arm(&self, arm: usize) -> SearchConfig {
        match arm {
            1 => SearchConfig {
                mind: 0.03,
                mind_worlds: 192,
                mind_odds: 0.35,
                recalibrate: true,
                tree: true,
                resolved_bluffs: true,
                exchange_prior: true,
                repeat_claims: false,
                claimant_cards: true,
                horizon: 4,
                quiescence: 0,
                card_value: [[0.5, 0.25], [0.75, 0.5]],
                ..*self
            },
            _ => *self,
        }
    }
}

/// The values fixed by measurement: no configuration the bot plays sets
/// them otherwise (the rows measured at other values are in
/// `docs/experiments/coup.md`).
pub mod fixed {
    /// Probability that my rollout policy claims Tax without a Duke at a
    /// turn it has nothing better to do (the rest: Income or Foreign Aid).
    pub const MY_TAX_BLUFF: f64 = 0.2;
    /// Probability that a rollout turn with nothing better to do Exchanges
    /// when the player holds an Ambassador, for both sides (0.1 and 0.6
    /// won 48.4% and 47.6% of 800 games against Seer, 0.3 51.4%).
    pub const ROLLOUT_EXCHANGE: f64 = 0.3;
    /// Probability that such a turn takes Foreign Aid rather than Income,
    /// for both sides (0.2 and 0.8: 48.6% and 52.4% of the same 800 games).
    pub const ROLLOUT_FOREIGN_AID: f64 = 0.5;
    /// Probability that my rollout policy challenges an action claim it
    /// cannot disprove: the mean challenge rate of the field of opponents.
    pub const MY_CHALLENGE: f64 = 0.15;
    /// Probability that my rollout policy blocks without the card.
    pub const MY_BLOCK_BLUFF: f64 = 0.1;
    /// Probability that a player blocks when it holds the blocking card.
    pub const BLOCK_WHEN_HELD: f64 = 0.95;
    /// Value of each coin of lead at the horizon (a Coup costs 7 coins and
    /// takes a card, about a quarter of a game between two-card hands).
    pub const COIN_VALUE: f64 = 0.035;
    /// The likelihood ratio of a declined block, P(declines | holds the
    /// blocking card) / P(declines | lacks it), in the hand posterior
    /// (0.05 measured: within the noise of 0.5 against Seer and both
    /// Calculators).
    pub const DECLINED_BLOCK: f64 = 0.5;
    /// The exploration constant `c` of the tree's UCB1 rule (rewards in
    /// [0, 1]: `sqrt(2)`; 0.7 played the same against Seer).
    pub const EXPLORATION: f64 = std::f64::consts::SQRT_2;
    /// The power of every claim's likelihood ratio in the hand posterior
    /// (a tempered likelihood), chosen by calibration on games the model
    /// had not learnt from: Brier score against Seer / the Calculator
    /// replica at seed 11, 0.168 / 0.068 at 1, 0.164 / 0.058 at 1.3.
    pub const TEMPER: f64 = 1.3;
    /// Calls a rollout whose opponent plays by the known rule plays before
    /// it is cut (0: to the end).
    pub const KNOWN_HORIZON: usize = 0;
    /// Log odds (nats) for the rule added by each earlier game against this
    /// opponent that the rule explained to my last call.
    pub const KNOWN_GAME_ODDS: f64 = 5.0;
    /// Log odds (nats) against the rule taken away by each earlier game the
    /// rule could not explain.
    pub const KNOWN_BREAK_ODDS: f64 = 10.0;
    /// The least posterior share for which the rule plays in the rollouts.
    pub const KNOWN_MIN_SHARE: f64 = 0.05;
}
