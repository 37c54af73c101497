//! The bot side: [`DurakBot`], a player fed protocol lines that answers commands
//! (`docs/rules/durak.md` §3), the plain-Rust type behind `durak-bot` and the C wrapper,
//! and the parts it is built from.
//!
//! - [`settings`](mod@settings): the settings tables the configurations are declared with.
//! - [`tracker`]: what one player knows, rebuilt from the lines.
//! - [`belief`]: how well a belief about the hidden cards predicts them (measurement only).
//! - [`strategy`]: random, greedy and heuristic policies.
//! - [`endgame`]: exact solving of empty-talon positions with a transposition table.
//! - [`deep`]: the contest search: determinizations, information-set trees, playouts, exact
//!   endgames.
//! - `measure` (feature `measure`): the clairvoyant ceiling and its variants.

#[macro_use]
pub mod settings;
pub mod belief;
pub mod deep;
pub mod endgame;
#[cfg(feature = "measure")]
pub mod measure;
pub mod strategy;
pub mod tracker;

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::protocol::{format_answer, parse_line, Info, Line};
#[cfg(feature = "measure")]
use super::rules::Game;
use super::types::{Answer, Command, DurakError};
use deep::{deep_search, DeepConfig, SearchContext};
use endgame::Solver;
use strategy::{heuristic_with, policy, Ctx, Strategy};
use tracker::Tracker;

pub use super::rules::{budget, BUDGET_BASE, BUDGET_PER_ROUND};

/// One bot seat: tracks the game from information lines and answers commands, always legally
/// as far as the lines it was fed allow.
///
/// ```
/// use cardgames::durak::{DurakBot, Strategy};
/// let mut bot = DurakBot::new(Strategy::Greedy, 7);
/// for line in ["trump S", "give 1 6S", "give 1 7D"] {
///     bot.feed(line).unwrap();
/// }
/// let cmd = bot.feed("MOVE").unwrap().unwrap();
/// assert_eq!(bot.answer(cmd), "7D");
/// ```
#[derive(Debug, Clone)]
pub struct DurakBot {
    strategy: Strategy,
    rng: ChaCha8Rng,
    tracker: Tracker,
    deep: DeepConfig,
    solver: Option<Box<Solver>>,
    thinking: Duration,
    work: u64,
    decisions: u64,
    clock_cuts: u64,
    fallbacks: u64,
    last: deep::DecisionStats,
    last_cap: u64,
    /// The true state shown before the next answer (the measurement bounds only).
    #[cfg(feature = "measure")]
    truth: Option<Game>,
}

impl DurakBot {
    /// A bot playing `strategy`, its randomness seeded with `seed`.
    pub fn new(strategy: Strategy, seed: u64) -> DurakBot {
        DurakBot {
            strategy,
            rng: ChaCha8Rng::seed_from_u64(seed),
            tracker: Tracker::new(),
            deep: DeepConfig::default(),
            solver: None,
            thinking: Duration::ZERO,
            work: 0,
            decisions: 0,
            clock_cuts: 0,
            fallbacks: 0,
            last: deep::DecisionStats::default(),
            last_cap: 0,
            #[cfg(feature = "measure")]
            truth: None,
        }
    }

    /// Replaces the settings: the deep search's for [`Strategy::Deep`], and
    /// [`DeepConfig::heuristic`] for [`Strategy::Heuristic`] (and the deep search's kept
    /// answer).
    pub fn with_config(mut self, config: DeepConfig) -> DurakBot {
        self.deep = config;
        self
    }

    /// Work units (playout steps + solver nodes) the deep search spent in the current game.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// The last deep-search decision's statistics and its work cap (for diagnostics).
    pub fn last_decision(&self) -> (deep::DecisionStats, u64) {
        (self.last, self.last_cap)
    }

    /// Decisions searched by the deep search in the current game.
    pub fn decisions(&self) -> u64 {
        self.decisions
    }

    /// Decisions (over the bot's life) that the wall-clock safety net cut short. Zero when the
    /// work caps bind, as intended; a non-zero count means the answers may not replay.
    pub fn clock_cuts(&self) -> u64 {
        self.clock_cuts
    }

    /// Answers (over the bot's life) where the strategy chose an answer outside the non-empty
    /// legal set and [`DurakBot::answer`] replaced it by the first legal one: the program's
    /// safety net, never used by a correct strategy (the tests assert zero).
    pub fn fallbacks(&self) -> u64 {
        self.fallbacks
    }

    /// Shows the bot the true state before its next answer (the referee's
    /// [`Player::reveal`](crate::durak::referee::Player::reveal)): `game` in absolute numbering,
    /// `me` the bot's own player there. Kept only by a bot whose
    /// [`measure::Measure::clairvoyant`] is on (the measurement bound); the next
    /// [`DurakBot::answer`] uses it and drops it.
    #[cfg(feature = "measure")]
    pub fn reveal(&mut self, game: &Game, me: usize) {
        if self.strategy == Strategy::Deep && self.deep.measure.clairvoyant > 0 {
            self.truth = Some(game.rotated(me));
        }
    }

    /// What the bot knows.
    pub fn tracker(&self) -> &Tracker {
        &self.tracker
    }

    /// Thinking time spent in the current game (reset by each `trump` line).
    pub fn thinking(&self) -> Duration {
        self.thinking
    }

    /// Feeds one server line (CRLF and extra spaces tolerated). Information lines update the
    /// state and return `Ok(None)`; a command returns `Ok(Some(command))`, to be passed to
    /// [`DurakBot::answer`].
    ///
    /// # Errors
    /// [`DurakError::Malformed`] for a line that is neither (the state is unchanged).
    pub fn feed(&mut self, line: &str) -> Result<Option<Command>, DurakError> {
        match parse_line(line)? {
            Line::Info(info) => {
                if matches!(info, Info::Trump(_)) {
                    self.thinking = Duration::ZERO;
                    self.work = 0;
                    self.decisions = 0;
                    if let Some(s) = self.solver.as_mut() {
                        s.clear();
                    }
                }
                self.tracker.apply(info);
                Ok(None)
            }
            Line::Command(c) => Ok(Some(c)),
        }
    }

    /// The answer line (without newline) to `command`: a card in Durak notation or `NO`.
    /// Always one of the tracker's legal answers; a `MOVE` with an empty hand (impossible under
    /// a correct server) answers `NO`.
    pub fn answer(&mut self, command: Command) -> String {
        let start = Instant::now();
        self.tracker.on_command(command);
        let legal = self.tracker.legal(command);
        let ctx = Ctx::from_tracker(&self.tracker);
        let mut a = match self.strategy {
            Strategy::Heuristic | Strategy::Deep => {
                heuristic_with(&self.deep.heuristic, command, &ctx)
            }
            s => policy(s, command, &ctx, &mut self.rng),
        };
        #[cfg(feature = "measure")]
        let (searching, worlds) = measure::prepare(
            &self.deep.measure,
            self.truth.take(),
            &self.tracker,
            command,
        );
        #[cfg(not(feature = "measure"))]
        let (searching, worlds): (bool, Option<deep::Worlds>) = (true, None);
        if self.strategy == Strategy::Deep && searching && legal.len() > 1 {
            let cap = self.work_cap();
            let hard = budget(self.tracker.rounds).mul_f64(self.deep.hard_share);
            let spent = self.thinking;
            let deadline = start + hard.saturating_sub(spent);
            let solver = self.solver.get_or_insert_with(|| Box::new(Solver::new()));
            let (b, stats) = deep_search(SearchContext {
                tracker: &self.tracker,
                cmd: command,
                legal: &legal,
                default: a,
                cfg: &self.deep,
                solver,
                work_cap: cap,
                deadline: Some(deadline),
                rng: &mut self.rng,
                worlds: worlds.as_ref(),
            });
            a = b;
            self.last = stats;
            self.last_cap = cap;
            self.work += stats.work;
            self.decisions += 1;
            self.clock_cuts += u64::from(stats.clock_cut);
        }
        if !legal.contains(&a) {
            // The safety net; an empty legal set (a MOVE on an empty hand, impossible from a
            // correct server) is the input's fault, not the strategy's.
            self.fallbacks += u64::from(!legal.is_empty());
            a = legal.first().copied().unwrap_or(Answer::No);
        }
        self.thinking += start.elapsed();
        format_answer(a)
    }

    /// The deep search's time manager, in work units: [`deep::SearchSettings::budget_share`] of
    /// the budget so far (2 s + 0.1 s x rounds started) at
    /// [`deep::SearchSettings::units_per_second`], minus
    /// the work already spent, spread over the own decisions expected to remain (two more than
    /// the own hand plus a third of the talon: each held card is led, thrown or kept through a
    /// round, and each card drawn brings about one more decision per three).
    fn work_cap(&self) -> u64 {
        let allowed = budget(self.tracker.rounds).as_secs_f64()
            * self.deep.budget_share
            * self.deep.units_per_second;
        let left = (allowed as u64).saturating_sub(self.work);
        let expected = 2 + self.tracker.hand.len() as u64 + self.tracker.talon() as u64 / 3;
        left / expected
    }
}
