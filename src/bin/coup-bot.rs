//! `coup-bot`: one decision of a Coup bot under the King-of-the-Hill arbiter
//! (`specs/coup.md`, "Invocation"):
//!
//!     coup-bot [--strategy NAME] HISTORY OPP_COINS MY_COINS CARDS LEGAL...
//!
//! Appends one legal answer to HISTORY; after a successful Exchange prints
//! the kept cards on stdout. Never exits non-zero: on bad input it falls back
//! to a safe legal answer and says why on stderr. Arguments are parsed by
//! hand (not clap) to keep the start-up cost of a process per decision low.

use std::io::{Read, Seek, SeekFrom, Write};

use cardgames::coup::{decide, Strategy};

const HELP: &str = "\
usage: coup-bot [--strategy NAME] HISTORY OPP_COINS MY_COINS CARDS LEGAL...

One decision of a Coup bot: reads the history file, appends one legal answer,
prints the kept cards on stdout after a successful Exchange.
strategies: strong (default), calculator, random, income, honest, challenger,
tax-bluffer
";

fn main() {
    // Lossy: a non-UTF-8 argument must not make the bot panic.
    let args: Vec<String> = std::env::args_os()
        .skip(1)
        .map(|a| a.to_string_lossy().into_owned())
        .collect();
    if args.first().is_some_and(|a| a == "-h" || a == "--help") {
        print!("{HELP}");
        return;
    }
    let mut strategy = Strategy::Strong;
    let mut rest: &[String] = &args;
    if let Some(first) = rest.first() {
        if first == "--strategy" {
            match rest.get(1).map(|n| Strategy::parse(n)) {
                Some(Ok(s)) => strategy = s,
                Some(Err(e)) => eprintln!("coup-bot: {e}; playing strong"),
                None => eprintln!("coup-bot: --strategy needs a name; playing strong"),
            }
            rest = rest.get(2..).unwrap_or(&[]);
        } else if let Some(name) = first.strip_prefix("--strategy=") {
            match Strategy::parse(name) {
                Ok(s) => strategy = s,
                Err(e) => eprintln!("coup-bot: {e}; playing strong"),
            }
            rest = &rest[1..];
        }
    }
    let Some(path) = rest.first() else {
        eprintln!("coup-bot: no history file given (see --help); nothing to do");
        return;
    };
    let number = |i: usize, what: &str| -> i64 {
        match rest.get(i).map(|s| s.trim().parse::<i64>()) {
            Some(Ok(n)) => n,
            _ => {
                eprintln!("coup-bot: bad or missing {what}; assuming 0");
                0
            }
        }
    };
    let opp_coins = number(1, "OPP_COINS");
    let my_coins = number(2, "MY_COINS");
    let cards = rest.get(3).cloned().unwrap_or_default();
    let legal: Vec<String> = rest.get(4..).unwrap_or(&[]).to_vec();
    let history = match read_history(path) {
        Ok((bytes, cut)) => {
            if cut {
                eprintln!(
                    "coup-bot: {path} is over {MAX_HISTORY} bytes; reading only its last lines"
                );
            }
            String::from_utf8_lossy(&bytes).into_owned()
        }
        Err(e) => {
            eprintln!("coup-bot: cannot read {path}: {e}; answering from the arguments alone");
            String::new()
        }
    };
    let d = decide(strategy, &history, opp_coins, my_coins, &cards, &legal);
    if let Some(note) = &d.note {
        eprintln!("coup-bot: {}", clip(note));
    }
    let appended = std::fs::OpenOptions::new()
        .append(true)
        .open(path)
        .and_then(|mut f| f.write_all(d.answer.as_bytes()));
    if let Err(e) = appended {
        eprintln!("coup-bot: cannot append to {path}: {e}");
    }
    if let Some(keep) = d.exchange_keep {
        let mut out = std::io::stdout().lock();
        let _ = writeln!(out, "{keep}");
    }
}

/// Largest part of a history file read, in bytes. A real history is under
/// 200 lines (a few kB); reading a runaway file whole would cost seconds and
/// gigabytes (D16), so only its last 64 KiB are read, from a line start.
const MAX_HISTORY: u64 = 64 * 1024;

/// The history file's bytes (all of them, or the whole lines within its last
/// [`MAX_HISTORY`] bytes) and whether it was cut.
fn read_history(path: &str) -> std::io::Result<(Vec<u8>, bool)> {
    let mut file = std::fs::File::open(path)?;
    let len = file.metadata()?.len();
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
