//! `durak-bot`: plays one seat of 2 vs 2 Durak over stdin/stdout (`docs/rules/durak.md`
//! §3). Reads lines until EOF, answers each command on its own line and flushes.

use cardgames::durak::bot::decide;
use cardgames::durak::deep::DeepConfig;
use cardgames::durak::protocol::format_answer;
use cardgames::durak::{DurakBot, Strategy};
use clap::{Parser, ValueEnum};
use std::io::{self, BufRead, Write};
use std::process::ExitCode;

#[derive(Debug, Clone, Copy, ValueEnum)]
enum Kind {
    Random,
    Greedy,
    Heuristic,
    Deep,
}

/// A Durak 2 vs 2 bot speaking the olympiad protocol on stdin/stdout.
#[derive(Parser, Debug)]
#[command(name = "durak-bot", version, after_long_help = DeepConfig::help())]
struct Args {
    /// Playing strategy (deep is the contest bot; the others are sparring partners).
    #[arg(long, value_enum, default_value_t = Kind::Deep)]
    strategy: Kind,
    /// Seed of the bot's randomness.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Settings as key=value,... over the defaults: the deep search's keys, and own.KEY /
    /// opp.KEY for the heuristic (the heuristic strategy plays own.KEY); `--help` lists every
    /// key with its default, meaning and the measurement that set it.
    #[arg(long, default_value = "")]
    deep: String,
    /// Print a summary of the deep search's work per decision on stderr.
    #[arg(long)]
    verbose: bool,
}

/// Unreadable server lines reported on stderr, at most this many per run (the bot skips them
/// and keeps playing).
const REPORTED_BAD_LINES: usize = 10;

fn main() -> ExitCode {
    let args = cardgames::child::parse_args::<Args>();
    let strategy = match args.strategy {
        Kind::Random => Strategy::Random,
        Kind::Greedy => Strategy::Greedy,
        Kind::Heuristic => Strategy::Heuristic,
        Kind::Deep => Strategy::Deep,
    };
    let config = match DeepConfig::parse(&args.deep) {
        Ok(c) => c,
        Err(e) => {
            cardgames::diag!("durak-bot: --deep: {e} (see --help)");
            return ExitCode::from(2);
        }
    };
    #[cfg(feature = "measure")]
    if config.measure.clairvoyant > 0 {
        cardgames::diag!(
            "durak-bot: --deep clairvoyant needs the true hidden state: it runs only in-process (durak-server -a inproc:clairvoyant)"
        );
        return ExitCode::from(2);
    }
    let mut bot = DurakBot::new(strategy, args.seed).with_config(config);
    let mut cuts = 0;
    let mut bad_lines = 0;
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let mut out = io::stdout().lock();
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        // Bytes, not `lines()`: a line that is not UTF-8 must not stop the bot
        // (it would never answer the next command). At most MAX_LINE bytes of
        // a line are kept; the rest of an over-long line is read and dropped.
        match read_line_capped(&mut input, &mut bytes, MAX_LINE) {
            Ok(0) => break,
            Ok(_) => {}
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(_) => break,
        }
        let text = String::from_utf8_lossy(&bytes);
        let line = text.trim_end_matches(['\n', '\r']);
        if line.trim().is_empty() {
            continue;
        }
        // Unreadable lines are skipped, said on stderr: a bot never stops mid-game.
        let fed = bot.feed(line);
        if let Err(e) = &fed {
            bad_lines += 1;
            if bad_lines <= REPORTED_BAD_LINES {
                cardgames::diag!("durak-bot: skipped a line it cannot read: {e}");
            }
            if bad_lines == REPORTED_BAD_LINES {
                cardgames::diag!("durak-bot: further unreadable lines are skipped silently");
            }
        }
        if let Ok(Some(command)) = fed {
            let decision = decide(&mut bot, command);
            if bot.clock_cuts() > cuts {
                cuts = bot.clock_cuts();
                cardgames::diag!(
                    "durak-bot: wall-clock safety net cut a decision short ({:.3} s thought, round {})",
                    bot.thinking().as_secs_f64(),
                    bot.tracker().rounds
                );
            }
            if let (true, Some((stats, cap))) = (args.verbose, decision.search) {
                cardgames::diag!(
                    "durak-bot: decision {} work {} thought {:.3} s; this one: samples {} work {} cap {} talon {} hand {}",
                    bot.decisions(),
                    bot.work(),
                    bot.thinking().as_secs_f64(),
                    stats.samples,
                    stats.work,
                    cap,
                    bot.tracker().talon(),
                    bot.tracker().hand.len()
                );
            }
            let answer = format_answer(decision.answer);
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

/// Longest line kept, in bytes; real protocol lines are under 20 bytes.
const MAX_LINE: usize = 4096;

/// Reads one line (through its `'\n'`, or to EOF) into `buf`, keeping at most
/// `cap` bytes of it; returns the bytes consumed (0 at EOF).
fn read_line_capped(input: &mut impl BufRead, buf: &mut Vec<u8>, cap: usize) -> io::Result<usize> {
    let mut consumed = 0;
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            return Ok(consumed);
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let room = cap.saturating_sub(buf.len());
        buf.extend_from_slice(&chunk[..take.min(room)]);
        input.consume(take);
        consumed += take;
        if done {
            return Ok(consumed);
        }
    }
}
