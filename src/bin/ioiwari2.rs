//! The IOI's `ioiwari2` tool (`docs/rules/ioiwari.md` §5): plays one start as
//! player 2, logging the dialogue to `ioiwari.out`.

use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use cardgames::ioiwari::{protocol, Board, Game, Player, Strategy};
use clap::Parser;

/// Plays Ioiwari as player 2 over stdin/stdout, like the tool given to IOI
/// contestants.
///
/// Prints the start line (default `4 3 2 4 2 3 2`), then reads player 1's
/// moves (one pit number 1..7 per line) and prints its own. The dialogue is
/// logged to `ioiwari.out` and the result reported on stderr. An unreadable or
/// illegal move, or end of input before the game ends, forfeits the game for
/// player 1. Exit status: 0 when the game was played to the end, 1 when player
/// 1 forfeited, 2 on bad arguments.
#[derive(Parser, Debug)]
#[command(name = "ioiwari2", version)]
struct Args {
    /// The start: seven stone counts for pits 1..7, each 2..4, 20 in all.
    #[arg(num_args = 7, value_names = ["P1", "P2", "P3", "P4", "P5", "P6", "P7"])]
    pits: Option<Vec<u8>>,
    /// Where to log the dialogue.
    #[arg(long, default_value = "ioiwari.out", conflicts_with = "no_log")]
    log: PathBuf,
    /// Do not write a log.
    #[arg(long)]
    no_log: bool,
    /// How player 2 chooses moves (`optimal` unless testing).
    #[arg(long, value_enum, default_value = "optimal")]
    strategy: Strategy,
    /// Seed of the random strategy.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

const DEFAULT_START: [u8; 7] = [4, 3, 2, 4, 2, 3, 2];

/// The dialogue log; writing to it never stops the game.
struct Log(Option<BufWriter<File>>);

impl Log {
    fn line(&mut self, text: &str) {
        if let Some(w) = &mut self.0 {
            if writeln!(w, "{text}").is_err() {
                self.0 = None;
            }
        }
    }
    fn finish(&mut self, text: &str) {
        self.line(text);
        if let Some(w) = &mut self.0 {
            // A failing log is reported but does not change the result.
            if let Err(e) = w.flush() {
                cardgames::diag!("ioiwari2: cannot write the log: {e}");
            }
        }
    }
}

fn main() -> ExitCode {
    let args = cardgames::child::parse_args::<Args>();
    let pits = match &args.pits {
        None => DEFAULT_START,
        Some(v) => {
            let mut pits = [0u8; 7];
            pits.copy_from_slice(v);
            pits
        }
    };
    let start = match Board::start(pits) {
        Ok(b) => b,
        Err(e) => {
            cardgames::diag!("ioiwari2: {e}");
            return ExitCode::from(2);
        }
    };
    let mut log = if args.no_log {
        Log(None)
    } else {
        match File::create(&args.log) {
            Ok(f) => Log(Some(BufWriter::new(f))),
            Err(e) => {
                cardgames::diag!("ioiwari2: cannot create {}: {e}", args.log.display());
                return ExitCode::from(2);
            }
        }
    };
    let mut player = Player::new(args.strategy, args.seed);
    if args.strategy == Strategy::Optimal {
        player.prepare(start);
    }
    let result = play(start, &mut player, &mut log);
    let (status, message) = match result {
        Ok(game) => {
            let [a, b] = game.banks();
            let verdict = match a.cmp(&b) {
                std::cmp::Ordering::Greater => "player 1 wins",
                std::cmp::Ordering::Less => "player 2 wins",
                std::cmp::Ordering::Equal => "draw",
            };
            (
                ExitCode::SUCCESS,
                format!(
                    "{verdict}: banks {a} to {b} after {} moves",
                    game.moves().len()
                ),
            )
        }
        Err(forfeit) => (
            ExitCode::FAILURE,
            format!("player 1 forfeits, player 2 wins: {forfeit}"),
        ),
    };
    log.finish(&format!("result: {message}"));
    cardgames::diag!("ioiwari2: {message}");
    status
}

/// Plays the game; `Err` is player 1's forfeit, with the reason.
fn play(start: Board, player: &mut Player, log: &mut Log) -> Result<Game, String> {
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let mut game = Game::new(start);
    let mut say = |text: &str, log: &mut Log| -> Result<(), String> {
        writeln!(output, "{text}")
            .and_then(|()| output.flush())
            .map_err(|e| format!("cannot write to player 1 ({e})"))?;
        log.line(&format!("> {text}"));
        Ok(())
    };
    log.line(&format!("start: {start}"));
    say(&start.to_string(), log)?;
    loop {
        let line = match protocol::read_line(&mut input) {
            Ok(Some(line)) => line,
            Ok(None) => {
                return Err(format!(
                    "input ended before the game did (board {})",
                    game.board()
                ))
            }
            Err(e) => return Err(format!("unreadable input ({e})")),
        };
        log.line(&format!("< {line}"));
        let board = game.board();
        protocol::parse_move(&line)
            .and_then(|pit| game.play(pit))
            .map_err(|e| format!("illegal move {line:?} on board {board}: {e}"))?;
        log_state(&game, log);
        if game.is_over() {
            return Ok(game);
        }
        let Some(pit) = player.choose(game.board()) else {
            return Ok(game);
        };
        say(&protocol::format_move(pit), log)?;
        game.play(pit)
            .map_err(|e| format!("internal error, player 2's own move {}: {e}", pit + 1))?;
        log_state(&game, log);
        if game.is_over() {
            return Ok(game);
        }
    }
}

fn log_state(game: &Game, log: &mut Log) {
    let [a, b] = game.banks();
    log.line(&format!("  board {}  banks {a} {b}", game.board()));
}
