//! `durak-bot`: plays one seat of 2 vs 2 Durak over stdin/stdout (`specs/durak.md`,
//! "Protocol"). Reads lines until EOF, answers each command on its own line and flushes.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Duration;

use cardgames::durak::search::SearchConfig;
use cardgames::durak::{DurakBot, Strategy};
use clap::{Parser, ValueEnum};

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Kind {
    Random,
    Greedy,
    Heuristic,
    Search,
}

/// A Durak 2 vs 2 bot speaking the olympiad protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(version)]
struct Args {
    /// Playing strategy (search is the contest bot; the others are sparring partners).
    #[arg(long, value_enum, default_value_t = Kind::Search)]
    strategy: Kind,
    /// Seed of the bot's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
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
    };
    let cfg = SearchConfig {
        samples: args.samples,
        max_decision: Duration::from_millis(args.max_ms),
        ..SearchConfig::default()
    };
    let mut bot = DurakBot::new(strategy, args.seed).with_config(cfg);
    let stdin = io::stdin();
    let mut out = io::stdout().lock();
    for line in stdin.lock().lines() {
        let Ok(line) = line else { break };
        // Unreadable lines are skipped: a bot never stops mid-game.
        if let Ok(Some(command)) = bot.feed(&line) {
            let answer = bot.answer(command);
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
