//! The homework checker's program: reads `in` from the current directory and
//! writes `out` (`specs/homework.md`, "Testing").
//!
//! Takes no arguments, so it parses none with clap: the whole process must stay
//! within a budget of 400,000 instructions per checker test.

use std::process::ExitCode;

const HELP: &str = "\
usage: homework

Reads the file `in` of the current directory (a task: amestecare, razboi,
rollingstone or scarabei, then the number of shuffles and one shuffle per line),
shuffles the canonical 52-card deck, plays the game and writes the result to
`out`. On bad input it prints one line on stderr, exits with status 1 and
writes no `out`.
";

fn main() -> ExitCode {
    if let Some(arg) = std::env::args_os().nth(1) {
        if arg == "-h" || arg == "--help" {
            print!("{HELP}");
            return ExitCode::SUCCESS;
        }
        eprintln!("homework: unexpected argument {arg:?} (the program takes none; see --help)");
        return ExitCode::from(2);
    }
    let result = std::fs::read_to_string("in")
        .map_err(|e| format!("cannot read in: {e}"))
        .and_then(|text| cardgames::homework::run(&text).map_err(|e| e.to_string()))
        .and_then(|out| std::fs::write("out", out).map_err(|e| format!("cannot write out: {e}")));
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("homework: {message}");
            ExitCode::FAILURE
        }
    }
}
