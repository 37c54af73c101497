//! The homework checker's program: reads `in` from the current directory and
//! writes `out` (`docs/rules/homework.md` §7).
//!
//! Takes no arguments, so it parses none with clap: the whole process must stay
//! within a budget of 400,000 instructions per checker test (measured with
//! `valgrind --tool=callgrind`, see the README).
//!
//! For the same budget it has no Rust `main`: std's start-up installs a stack
//! overflow guard that reads `/proc/self/maps` through `sscanf`, about 97,000
//! instructions (a third of the budget) that this program, which never
//! recurses, does not need. The C `main` below is the whole program; arguments
//! still come from `std::env::args_os` (glibc hands them to std at load time).

#![no_main]

use std::io::Write;

const HELP: &str = "\
usage: homework [--debug]

Reads the file `in` of the current directory (a task: amestecare, razboi,
rollingstone or scarabei, then the number of shuffles and one shuffle per line),
shuffles the canonical 52-card deck, plays the game and writes the result to
`out`. It first removes an old `out` (and `out.debug`); on bad input (or an
`in` over 1 MiB) it prints one line on stderr, exits with status 1 and leaves
no `out`.

  --debug   also write `out.debug`: the game step by step, in the format of
            the original checker's `.debug` files (`make debug`)
";

/// The process entry point, called by the C runtime; returns the exit status.
// SAFETY: `main` is the C runtime's entry symbol; no other object of this
// program defines it, because the crate declares `#![no_main]`.
#[allow(unsafe_code)]
#[no_mangle]
pub extern "C" fn main(_argc: i32, _argv: *const *const u8) -> i32 {
    let mut debug = false;
    if let Some(arg) = std::env::args_os().nth(1) {
        if arg == "--debug" && std::env::args_os().nth(2).is_none() {
            debug = true;
        } else if arg == "-h" || arg == "--help" {
            let mut stdout = std::io::stdout().lock();
            // Nothing flushes stdout at exit without std's `main`: flush here.
            return match stdout
                .write_all(HELP.as_bytes())
                .and_then(|()| stdout.flush())
            {
                Ok(()) => 0,
                Err(_) => 1,
            };
        } else {
            // The argument that is too many: the first, or one after `--debug`.
            let extra = match std::env::args_os().nth(2) {
                Some(second) if arg == "--debug" => second,
                _ => arg,
            };
            cardgames::diag!(
                "homework: unexpected argument {extra:?} (the program takes at most one, --debug; see --help)"
            );
            return 2;
        }
    }
    // A stale `out` from an earlier test must not survive a failed run: the
    // checker would diff it against this test's reference (D13).
    for stale in ["out", "out.debug"] {
        match std::fs::remove_file(stale) {
            Ok(()) => {}
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                cardgames::diag!("homework: cannot remove the old {stale}: {e}");
                return 1;
            }
        }
    }
    let result = read_in().and_then(|text| {
        if debug {
            let traced = cardgames::homework::trace(&text).map_err(|e| e.to_string())?;
            // `out.debug` first: `out` appears only once everything is written.
            std::fs::write("out.debug", traced.debug)
                .and_then(|()| std::fs::write("out", traced.out))
                .map_err(|e| format!("cannot write out or out.debug: {e}"))
        } else {
            let out = cardgames::homework::run(&text).map_err(|e| e.to_string())?;
            std::fs::write("out", out).map_err(|e| format!("cannot write out: {e}"))
        }
    });
    match result {
        Ok(()) => 0,
        Err(message) => {
            cardgames::diag!("homework: {message}");
            1
        }
    }
}

/// Largest `in` read, in bytes: a real one is under 10 kB; 1 MiB leaves room
/// for thousands of shuffles and bounds time and memory on a runaway file.
const MAX_IN: u64 = 1 << 20;

/// The text of `in`, or a one-line error: unreadable, larger than [`MAX_IN`],
/// or not UTF-8.
fn read_in() -> Result<String, String> {
    use std::io::Read;
    let file = std::fs::File::open("in").map_err(|e| format!("cannot read in: {e}"))?;
    let mut bytes = Vec::new();
    file.take(MAX_IN + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("cannot read in: {e}"))?;
    if bytes.len() as u64 > MAX_IN {
        return Err(format!(
            "cannot read in: larger than {MAX_IN} bytes, not a homework input"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        format!(
            "cannot read in: not UTF-8 text (bad byte at {})",
            e.utf8_error().valid_up_to()
        )
    })
}
