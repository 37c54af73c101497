//! The bot side: [`DurakBot`], a player fed protocol lines that answers commands
//! (`docs/rules/durak.md` §3), the plain-Rust type behind `durak-bot` and the C wrapper,
//! and the parts it is built from.
//!
//! - [`settings`](mod@settings): the settings tables the configurations are declared with.
//! - [`tracker`]: what one player knows, rebuilt from the lines.
//! - [`sample`]: determinizations, full deals consistent with what it knows and believes.
//! - [`strategy`]: random, greedy and heuristic policies.
//! - [`endgame`]: exact solving of empty-talon positions with a transposition table.
//! - [`deep`]: the contest search: determinizations, information-set trees, playouts, exact
//!   endgames.
//!
//! The measurement modes (the clairvoyant ceiling and its variants, feature `measure`) live
//! beside it in `durak::measure`, the belief audit's scoring in `durak::server::belief`.

#[macro_use]
pub mod settings;
pub mod deep;
pub mod endgame;
pub mod sample;
pub mod strategy;
pub mod tracker;

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

#[cfg(feature = "measure")]
use super::measure;
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

    /// Replaces the settings of a bot in play, as [`DurakBot::with_config`] does (the C ABI's
    /// `cg_durak_bot_set`).
    pub fn set_config(&mut self, config: DeepConfig) {
        self.deep = config;
    }

    /// Work units (playout steps + solver nodes) the deep search spent in the current game.
    pub fn work(&self) -> u64 {
        self.work
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

    /// The answer line (without newline) to `command`: [`decide`]'s answer in Durak notation
    /// (a card, or `NO`).
    pub fn answer(&mut self, command: Command) -> String {
        format_answer(decide(self, command).answer)
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

/// What [`decide`] answered, and what its search cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Decision {
    /// The answer: one of the tracker's legal answers (`NO` for a `MOVE` with an empty hand,
    /// impossible under a correct server).
    pub answer: Answer,
    /// The deep search's statistics and the work cap it was given, when it searched (a
    /// [`Strategy::Deep`] bot with more than one legal answer).
    pub search: Option<(deep::DecisionStats, u64)>,
}

/// The bot's decision: the one entry that `durak-bot`, the C ABI (`cg_durak_bot_answer`), the
/// in-process seats of `durak-server` and the tests all go through, so the same settings, seed
/// and lines give the same answers everywhere. `command` is the command line just read (the
/// lines before it fed with [`DurakBot::feed`]). The strategy's fast answer (for
/// [`Strategy::Deep`] the heuristic's, [`deep::DeepConfig::heuristic`]) stands unless the deep
/// search replaces it; the clock spent is added to [`DurakBot::thinking`].
pub fn decide(bot: &mut DurakBot, command: Command) -> Decision {
    let start = Instant::now();
    bot.tracker.on_command(command);
    let legal = bot.tracker.legal(command);
    let ctx = Ctx::from_tracker(&bot.tracker);
    let mut a = match bot.strategy {
        Strategy::Heuristic | Strategy::Deep => heuristic_with(&bot.deep.heuristic, command, &ctx),
        s => policy(s, command, &ctx, &mut bot.rng),
    };
    let mut search = None;
    #[cfg(feature = "measure")]
    let (searching, worlds) =
        measure::prepare(&bot.deep.measure, bot.truth.take(), &bot.tracker, command);
    #[cfg(not(feature = "measure"))]
    let (searching, worlds): (bool, Option<deep::Worlds>) = (true, None);
    if bot.strategy == Strategy::Deep && searching && legal.len() > 1 {
        let cap = bot.work_cap();
        let hard = budget(bot.tracker.rounds).mul_f64(bot.deep.hard_share);
        let spent = bot.thinking;
        let deadline = start + hard.saturating_sub(spent);
        let solver = bot.solver.get_or_insert_with(|| Box::new(Solver::new()));
        let (b, stats) = deep_search(SearchContext {
            tracker: &bot.tracker,
            cmd: command,
            legal: &legal,
            default: a,
            cfg: &bot.deep,
            solver,
            work_cap: cap,
            deadline: Some(deadline),
            rng: &mut bot.rng,
            worlds: worlds.as_ref(),
        });
        a = b;
        search = Some((stats, cap));
        bot.work += stats.work;
        bot.decisions += 1;
        bot.clock_cuts += u64::from(stats.clock_cut);
    }
    if !legal.contains(&a) {
        // The safety net; an empty legal set (a MOVE on an empty hand, impossible from a
        // correct server) is the input's fault, not the strategy's.
        bot.fallbacks += u64::from(!legal.is_empty());
        a = legal.first().copied().unwrap_or(Answer::No);
    }
    bot.thinking += start.elapsed();
    Decision { answer: a, search }
}
