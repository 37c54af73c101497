//! `durak-bot`: plays one seat of 2 vs 2 Durak over stdin/stdout (`specs/durak.md`,
//! "Protocol"). Reads lines until EOF, answers each command on its own line and flushes.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use cardgames::durak::deep::DeepConfig;
use cardgames::durak::search::SearchConfig;
use cardgames::durak::{DurakBot, Strategy};
use clap::{Parser, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Kind {
    Random,
    Greedy,
    Heuristic,
    Search,
    Deep,
}

/// A Durak 2 vs 2 bot speaking the olympiad protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Playing strategy (deep is the contest bot; the others are sparring partners, search
    /// being the previous contest bot).
    #[arg(long, value_enum, default_value_t = Kind::Deep)]
    strategy: Kind,
    /// Seed of the bot's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Deep: share of the time budget (2 s + 0.1 s x rounds) the work caps aim to spend.
    #[arg(long, default_value_t = DeepConfig::default().budget_share)]
    share: f64,
    /// Deep: work units (playout steps + solver nodes) assumed per second.
    #[arg(long, default_value_t = DeepConfig::default().units_per_second)]
    rate: f64,
    /// Deep: further settings as key=value,... over the defaults (see DeepConfig), e.g.
    /// `root_cards=12,exact_cards=8`.
    #[arg(long, default_value = "")]
    deep: String,
    /// Print a summary of the deep search's work per game on stderr.
    #[arg(long)]
    verbose: bool,
    /// Search: determinizations per decision at most.
    #[arg(long, default_value_t = SearchConfig::default().samples)]
    samples: usize,
    /// Search: cap per decision in milliseconds.
    #[arg(long, default_value_t = 20)]
    max_ms: u64,
}

fn main() -> ExitCode {
    let args = Args::parse();
    let strategy = match args.strategy {
        Kind::Random => Strategy::Random,
        Kind::Greedy => Strategy::Greedy,
        Kind::Heuristic => Strategy::Heuristic,
        Kind::Search => Strategy::Search,
        Kind::Deep => Strategy::Deep,
    };
    if !(args.share > 0.0 && args.share <= 1.0) || !(args.rate > 0.0) {
        eprintln!("durak-bot: --share must be in (0, 1] and --rate positive");
        return ExitCode::FAILURE;
    }
    let deep = match DeepConfig::parse(&args.deep) {
        Ok(d) => DeepConfig {
            budget_share: args.share,
            units_per_second: args.rate,
            ..d
        },
        Err(e) => {
            eprintln!("durak-bot: --deep: {e}");
            return ExitCode::FAILURE;
        }
    };
    let cfg = SearchConfig {
        samples: args.samples,
        max_decision: Duration::from_millis(args.max_ms),
        ..SearchConfig::default()
    };
    let mut bot = DurakBot::new(strategy, args.seed).with_config(SearchConfig { deep, ..cfg });
    let mut cuts = 0;
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        // Unreadable lines are skipped: a bot never stops mid-game.
        if let Ok(Some(command)) = bot.feed(&line) {
            let answer = bot.answer(command);
            if bot.clock_cuts() > cuts {
                cuts = bot.clock_cuts();
                eprintln!(
                    "durak-bot: wall-clock safety net cut a decision short ({:.3} s thought, round {})",
                    bot.thinking().as_secs_f64(),
                    bot.tracker().rounds
                );
            }
            if args.verbose {
                eprintln!(
                    "durak-bot: decision {} work {} thought {:.3} s",
                    bot.decisions(),
                    bot.work(),
                    bot.thinking().as_secs_f64()
                );
            }
            if writeln!(out, "{answer}")
                .and_then(|()| out.flush())
                .is_err()
            {
                break;
            }
        }
    }
    ExitCode::SUCCESS
}
