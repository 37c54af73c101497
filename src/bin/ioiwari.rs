//! Ioiwari player 1 (`docs/rules/ioiwari.md` §4): reads the start line,
//! then writes its moves and reads the opponent's, one pit number per line.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::Instant;

use cardgames::ioiwari::{protocol, Board, Game, Player, Strategy};
use clap::Parser;

/// Plays Ioiwari as the starting player over stdin/stdout.
///
/// Reads the seven starting stone counts, then alternately prints the pit it
/// empties (1..7, one per line, flushed) and reads the opponent's. Exits with
/// status 0 when the board is empty or its input ends; on a malformed start
/// line or an illegal opponent move it prints one line on stderr and exits
/// with status 1.
#[derive(Parser, Debug)]
#[command(name = "ioiwari", version)]
struct Args {
    /// How to choose moves: `optimal` always takes a move of the best
    /// game-theoretic value; `random` and `greedy` are weak test players.
    #[arg(long, value_enum, default_value = "optimal")]
    strategy: Strategy,
    /// Seed of the random strategy.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Solve all 6^7 boards up front instead of only those reachable from the
    /// start.
    #[arg(long)]
    full_table: bool,
    /// Report on stderr the solve time, and each move with its value and the
    /// time taken to choose it.
    #[arg(long, short)]
    verbose: bool,
}

fn main() -> ExitCode {
    let args = cardgames::child::parse_args::<Args>();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            cardgames::diag!("ioiwari: {message}");
            ExitCode::FAILURE
        }
    }
}

/// Reads words until seven stone counts are read; `Ok(None)` on end of input.
fn read_start(input: &mut impl BufRead) -> Result<Option<Board>, String> {
    let mut text = String::new();
    while text.split_whitespace().count() < 7 {
        match protocol::read_line(input).map_err(|e| format!("cannot read the start: {e}"))? {
            Some(line) => {
                text.push(' ');
                text.push_str(&line);
            }
            None if text.trim().is_empty() => return Ok(None),
            None => break,
        }
    }
    let pits = protocol::parse_pits(&text).map_err(|e| format!("start line: {e}"))?;
    Board::new(pits)
        .map(Some)
        .map_err(|e| format!("start line: {e}"))
}

fn run(args: &Args) -> Result<(), String> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let Some(start) = read_start(&mut input)? else {
        return Ok(());
    };
    let started = Instant::now();
    let mut player = if args.full_table {
        Player::with_full_table(args.strategy, args.seed)
    } else {
        Player::new(args.strategy, args.seed)
    };
    if args.strategy == Strategy::Optimal {
        let value = player.prepare(start);
        if args.verbose {
            cardgames::diag!(
                "ioiwari: start {start}: value {value:+} for player 1, solved in {} us",
                started.elapsed().as_micros()
            );
        }
    }
    let mut game = Game::new(start);
    loop {
        let thinking = Instant::now();
        let Some(pit) = player.choose(game.board()) else {
            return Ok(()); // the board is empty
        };
        if args.verbose {
            cardgames::diag!(
                "ioiwari: board {}: pit {} chosen in {:.1} us",
                game.board(),
                pit + 1,
                thinking.elapsed().as_secs_f64() * 1e6
            );
        }
        writeln!(output, "{}", protocol::format_move(pit))
            .and_then(|()| output.flush())
            .map_err(|e| format!("cannot write my move: {e}"))?;
        game.play(pit)
            .map_err(|e| format!("internal error, my own move {}: {e}", pit + 1))?;
        if game.is_over() {
            return Ok(());
        }
        let Some(line) =
            protocol::read_line(&mut input).map_err(|e| format!("cannot read a move: {e}"))?
        else {
            return Ok(());
        };
        protocol::parse_move(&line)
            .and_then(|pit| game.play(pit))
            .map_err(|e| format!("opponent's move {line:?}: {e}"))?;
    }
}
