//! `coup-bot`: one decision of a Coup bot under the King-of-the-Hill arbiter
//! (`docs/rules/coup.md` §4):
//!
//!     coup-bot [--no-memory] [--strategy NAME] HISTORY OPP_COINS MY_COINS CARDS LEGAL...
//!
//! Appends one legal answer to HISTORY; after a successful Exchange prints
//! the kept cards on stdout. Never exits non-zero: on bad input it falls back
//! to a safe legal answer and says why on stderr. Arguments are parsed by
//! hand (not clap) to keep the start-up cost of a process per decision low.

use std::io::{Read, Seek, SeekFrom};
use std::path::Path;

use cardgames::coup::bot::replica_decision;
use cardgames::coup::memory::{opponent_name, Memory};
use cardgames::coup::sparring::replica;
use cardgames::coup::{decide, Config, Recall, Remembered, SearchConfig, Strategy, View};

const HELP: &str = "\
usage: coup-bot [--no-memory] [--strategy NAME] [--search KEY=VALUE]... [--explain]
                HISTORY OPP_COINS MY_COINS CARDS LEGAL...
       coup-bot --help | --version

One decision of a Coup bot: reads the history file, appends one legal answer,
prints the kept cards on stdout after a successful Exchange.
The search strategy keeps per-opponent counts across games in
coup-memory.txt in their working folder (opponent named by the history file
<first>_<second>_<round>_<game>.txt and the folder's name); --no-memory
neither reads nor writes it. With memory the search plays one of two arms per
opponent, chosen by the opponent's type (its answers to my blocks and its
bluffed attacks in earlier games, settled from their history files beside
HISTORY). --explain prints why on stderr.
strategies: search (default: determinized Monte Carlo over the hand posterior,
the Exchange keep included), calculator (a replica of the contest
winner; keeps state.txt in its folder), random, income, honest, challenger,
tax-bluffer, and the archetypes always-tax, always-steal, always-assassinate,
challenge-all, never-challenge, block-all
search settings (--search KEY=VALUE; KEY=DEFAULT  meaning):
";

fn main() {
    // Lossy: a non-UTF-8 argument must not make the bot panic.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if args.first().is_some_and(|a| a == "-V" || a == "--version") {
        let version = concat!("coup-bot ", env!("CARGO_PKG_VERSION"), "\n");
        if let Err(e) = cardgames::child::print_stdout(version) {
            cardgames::diag!("coup-bot: {e}");
            std::process::exit(1);
        }
        return;
    }
    if args.first().is_some_and(|a| a == "-h" || a == "--help") {
        let help = format!("{HELP}{}", SearchConfig::help());
        if let Err(e) = cardgames::child::print_stdout(&help) {
            cardgames::diag!("coup-bot: {e}");
            std::process::exit(1);
        }
        return;
    }
    let mut strategy = Strategy::Search;
    let mut no_memory = false;
    let mut explain = false;
    let mut config = SearchConfig::default();
    let mut rest: &[String] = &args;
    // Options come first; the arbiter's arguments follow.
    while let Some(first) = rest.first() {
        let (name, inline) = match first.split_once('=') {
            Some((n, v)) if n.starts_with("--") => (n, Some(v.to_string())),
            _ => (first.as_str(), None),
        };
        let takes_value = matches!(name, "--strategy" | "--search");
        let value = if takes_value {
            match inline {
                Some(v) => {
                    rest = &rest[1..];
                    Some(v)
                }
                None => {
                    let v = rest.get(1).cloned();
                    rest = rest.get(2..).unwrap_or(&[]);
                    v
                }
            }
        } else {
            None
        };
        match name {
            "--no-memory" => {
                no_memory = true;
                rest = &rest[1..];
            }
            "--explain" => {
                explain = true;
                rest = &rest[1..];
            }
            "--strategy" => match value.as_deref().map(Strategy::parse) {
                Some(Ok(s)) => strategy = s,
                Some(Err(e)) => cardgames::diag!("coup-bot: {e}; playing search"),
                None => cardgames::diag!("coup-bot: --strategy needs a name; playing search"),
            },
            "--search" => match value.as_deref().map(|kv| config.set(kv)) {
                Some(Ok(())) => {}
                Some(Err(e)) => cardgames::diag!("coup-bot: {e}; ignored"),
                None => cardgames::diag!("coup-bot: --search needs key=value; ignored"),
            },
            _ => break,
        }
    }
    let Some(path) = rest.first() else {
        cardgames::diag!("coup-bot: no history file given (see --help); nothing to do");
        return;
    };
    let number = |i: usize, what: &str| -> i64 {
        match rest.get(i).map(|s| s.trim().parse::<i64>()) {
            Some(Ok(n)) => n,
            _ => {
                cardgames::diag!("coup-bot: bad or missing {what}; assuming 0");
                0
            }
        }
    };
    let opp_coins = number(1, "OPP_COINS");
    let my_coins = number(2, "MY_COINS");
    let cards = rest.get(3).cloned().unwrap_or_default();
    let legal: Vec<String> = rest.get(4..).unwrap_or(&[]).to_vec();
    // No answer of the protocol starts with "--": an option written after
    // the positional arguments (the arbiter never does) would be a legal
    // answer here, never chosen, and the option silently lost.
    if let Some(opt) = legal.iter().find(|a| a.starts_with("--")) {
        cardgames::diag!(
            "coup-bot: {opt:?} stands among the legal answers and is not applied: options go before HISTORY (see --help)"
        );
    }
    let odd = |a: &&String| !a.starts_with("--") && cardgames::coup::Reply::parse(a).is_none();
    if let Some(odd) = legal.iter().find(odd) {
        cardgames::diag!(
            "coup-bot: {odd:?} stands among the legal answers and is no answer of the protocol (docs/rules/coup.md §5.2)"
        );
    }
    let history = match read_history(path) {
        Ok((bytes, cut)) => {
            if cut {
                cardgames::diag!(
                    "coup-bot: {path} is over {MAX_HISTORY} bytes; reading only its last lines"
                );
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Err(e) => {
            cardgames::diag!(
                "coup-bot: cannot read {path}: {e}; answering from the arguments alone"
            );
            String::new()
        }
    };
    // Memory across games (the search strategy): this
    // opponent's counts in coup-memory.txt in the working folder, updated
    // with this game's; skipped when the opponent's name cannot be read
    // from the file name or --no-memory is given.
    let dir = std::env::current_dir().ok();
    let me = dir
        .as_ref()
        .and_then(|d| d.file_name())
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let known = if strategy == Strategy::Search && !no_memory {
        dir.zip(opponent_name(path, &me))
    } else {
        None
    };
    let mut memory = known.as_ref().map(|(dir, _)| {
        let (memory, why) = Memory::read(dir);
        if let Some(why) = why {
            cardgames::diag!("coup-bot: {why}");
        }
        memory
    });
    // The portfolio: settle this opponent's earlier games from their
    // finished histories beside this one before the arm is chosen.
    let mut settled = false;
    if let (Strategy::Search, Some((_, (opp, game))), Some(m)) = (strategy, &known, memory.as_mut())
    {
        let folder = Path::new(path).parent().unwrap_or(Path::new("."));
        settled = m.settle_pending((&me, opp, game), folder, |p| {
            let (bytes, cut) = read_history(&p.to_string_lossy()).ok()?;
            (!cut).then(|| String::from_utf8_lossy(&bytes).into_owned())
        });
    }
    let d = if strategy == Strategy::Calculator {
        // The contest winner's replica keeps its flags in ./state.txt, as
        // the original does.
        let state = std::fs::read_to_string("state.txt").unwrap_or_default();
        let a = replica::decide(&history, path, &state, opp_coins, my_coins, &cards, &legal);
        if let Err(e) = std::fs::write("state.txt", &a.state) {
            cardgames::diag!("coup-bot: cannot write state.txt: {e}");
        }
        replica_decision(a, &cards, &legal)
    } else {
        let view = View {
            history: &history,
            opp_coins,
            my_coins,
            cards: &cards,
            legal: &legal,
        };
        let remembered = match (&known, memory.as_mut()) {
            (Some((_, (opponent, game))), Some(memory)) => Remembered::Kept(Recall {
                memory,
                opponent,
                game,
            }),
            _ => Remembered::Nothing,
        };
        decide(
            &view,
            remembered,
            &Config {
                strategy,
                search: config,
            },
        )
    };
    if explain && !d.explanation.is_empty() {
        cardgames::diag!("{}", d.explanation);
    }
    if let (Some((dir, _)), Some(m)) = (&known, memory.as_ref()) {
        if settled || d.memory_changed {
            if let Err(e) = m.save(dir) {
                cardgames::diag!("coup-bot: cannot save the memory file: {e}");
            }
        }
    }
    if let Some(note) = &d.note {
        cardgames::diag!("coup-bot: {}", clip(note));
    }
    cardgames::child::deliver_coup_answer("coup-bot", path, &d.answer, d.exchange_keep.as_deref());
}

/// Largest part of a history file read, in bytes. A real history is under
/// 200 lines (a few kB); reading a runaway file whole would cost seconds and
/// gigabytes (D16), so only its last 64 KiB are read, from a line start.
const MAX_HISTORY: u64 = 64 * 1024;

/// The history file's bytes (all of them, or the whole lines within its last
/// [`MAX_HISTORY`] bytes) and whether it was cut.
/// Opened without blocking: an earlier game's file that another bot replaced
/// by a FIFO (or anything but a regular file) is an error, not a hang.
fn read_history(path: &str) -> std::io::Result<(Vec<u8>, bool)> {
    use std::os::unix::fs::OpenOptionsExt;
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(nix::fcntl::OFlag::O_NONBLOCK.bits())
        .open(path)?;
    let meta = file.metadata()?;
    if !meta.is_file() {
        return Err(std::io::Error::other("not a regular file"));
    }
    let len = meta.len();
    let cut = len > MAX_HISTORY;
    if cut {
        file.seek(SeekFrom::Start(len - MAX_HISTORY))?;
    }
    let mut bytes = Vec::new();
    file.take(MAX_HISTORY).read_to_end(&mut bytes)?;
    if cut {
        // Drop the partial line the cut landed in.
        let start = bytes
            .iter()
            .position(|&b| b == b'\n')
            .map_or(bytes.len(), |i| i + 1);
        bytes.drain(..start);
    }
    Ok((bytes, cut))
}

/// A note as printed: at most 200 characters, so one huge bad line cannot
/// flood the arbiter's stderr.
fn clip(note: &str) -> String {
    match note.char_indices().nth(200) {
        None => note.to_owned(),
        Some((cut, _)) => format!("{}... ({} bytes)", &note[..cut], note.len()),
    }
}
