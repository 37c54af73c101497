//! `coup-bot`: one decision of a Coup bot under the King-of-the-Hill arbiter
//! (`specs/coup.md`, "Invocation"):
//!
//!     coup-bot [--strategy NAME] HISTORY OPP_COINS MY_COINS CARDS LEGAL...
//!
//! Appends one legal answer to HISTORY; after a successful Exchange prints
//! the kept cards on stdout. Never exits non-zero: on bad input it falls back
//! to a safe legal answer and says why on stderr. Arguments are parsed by
//! hand (not clap) to keep the start-up cost of a process per decision low.

use std::io::Write;

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
    let history = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8_lossy(&bytes).into_owned(),
        Err(e) => {
            eprintln!("coup-bot: cannot read {path}: {e}; answering from the arguments alone");
            String::new()
        }
    };
    let d = decide(strategy, &history, opp_coins, my_coins, &cards, &legal);
    if let Some(note) = &d.note {
        eprintln!("coup-bot: {note}");
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
