//! A referee for the IOI protocol (`docs/rules/ioiwari.md` §4-5): runs a player-1 program and a player-2 program as child processes,
//! relays the moves between them, and checks every move with its own engine.
//!
//! One game, from start `p1 .. p7`:
//! 1. player 2 is started with the seven counts appended to its arguments (as
//!    the IOI's `ioiwari2 [p1 .. p7]`) and must print them as its first line;
//! 2. player 1 is started and sent that start line;
//! 3. the referee reads a move (one pit number per line) from the side to move,
//!    validates it on its own [`Game`], and forwards it to the other side,
//!    until the board is empty; then it closes both inputs and waits for both
//!    programs to exit.
//!
//! A player that sends an unreadable or illegal move, closes its output, or
//! stays silent for longer than the move timeout forfeits the game (and both
//! children are killed). A child that does not exit after the game is killed
//! and noted, without changing the result. The referee only ever kills the
//! processes it started.

use std::collections::BTreeMap;
use std::fmt;
use std::io::{self, BufRead};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use super::protocol;
use super::rules::{Board, Game, Seat, PITS};
use super::solver::Solver;
use crate::child::{self, Fault, Limits, Spec, Stderr};

/// Longest line a child may write, in bytes (a longer one is a fault).
const MAX_LINE: usize = 4096;

/// Most bytes a child may write in one game (a game is under 100 lines).
const MAX_OUTPUT: u64 = 1 << 20;

/// Why the referee cannot run at all.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RefereeError {
    /// A player command with no program name.
    #[error("empty command for player {0}")]
    EmptyCommand(u8),
    /// A program could not be started.
    #[error("cannot start player {player} ({command}): {reason}")]
    Spawn {
        /// 1 or 2.
        player: u8,
        /// The command line.
        command: String,
        /// The operating system's message.
        reason: String,
    },
}

/// A program and its arguments, split on whitespace (no shell quoting).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlayerCommand {
    /// The program: a path, or a name looked up in `PATH`.
    pub program: String,
    /// Its arguments.
    pub args: Vec<String>,
}

impl PlayerCommand {
    /// Splits `text` on whitespace: the first word is the program.
    /// `player` (1 or 2) only labels the error.
    ///
    /// # Errors
    /// [`RefereeError::EmptyCommand`] if `text` has no word.
    pub fn parse(text: &str, player: u8) -> Result<PlayerCommand, RefereeError> {
        let mut words = text.split_whitespace().map(str::to_owned);
        let program = words.next().ok_or(RefereeError::EmptyCommand(player))?;
        Ok(PlayerCommand {
            program,
            args: words.collect(),
        })
    }
}

impl fmt::Display for PlayerCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.program)?;
        for a in &self.args {
            write!(f, " {a}")?;
        }
        Ok(())
    }
}

/// How a game ended.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// Played to the empty board; `margin` is player 1's bank minus player
    /// 2's.
    Finished {
        /// Player 1's bank minus player 2's.
        margin: i32,
    },
    /// A player broke the protocol or the rules and lost.
    Forfeit {
        /// The offender, 1 or 2.
        player: u8,
        /// What it did.
        reason: String,
    },
}

/// Everything the referee saw in one game.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRecord {
    /// The start, pits 1..7.
    pub start: [u8; PITS],
    /// The start's game value for player 1 (its margin under optimal play).
    pub value: i32,
    /// The moves played, as pit numbers 1..7, player 1's first.
    pub moves: Vec<u8>,
    /// The banks of players 1 and 2 when the game stopped.
    pub banks: [u32; 2],
    /// How it ended.
    pub outcome: Outcome,
    /// Moves of players 1 and 2 whose value was below the best available.
    pub suboptimal_moves: [u32; 2],
    /// Microseconds from player 1's start to its first move (start-up,
    /// solving and the first move).
    pub p1_first_us: Option<u64>,
    /// Microseconds from sending player 1 the opponent's move to its reply,
    /// for each later move.
    pub p1_move_us: Vec<u64>,
    /// Microseconds from player 2's start to its start line.
    pub p2_first_us: Option<u64>,
    /// Microseconds from sending player 2 a move to its reply.
    pub p2_move_us: Vec<u64>,
    /// Things that did not change the result: a child that had to be killed
    /// after the game, a non-zero exit status.
    pub notes: Vec<String>,
}

impl GameRecord {
    /// The record of a game not played yet from `start`, whose game value is `value`.
    pub fn new(start: Board, value: i32) -> GameRecord {
        GameRecord {
            start: start.pits(),
            value,
            moves: Vec::new(),
            banks: [0, 0],
            outcome: Outcome::Finished { margin: 0 },
            suboptimal_moves: [0, 0],
            p1_first_us: None,
            p1_move_us: Vec::new(),
            p2_first_us: None,
            p2_move_us: Vec::new(),
            notes: Vec::new(),
        }
    }

    /// Player 1's score from the game: `Some(margin)` if finished, `None` on a
    /// forfeit.
    pub fn margin(&self) -> Option<i32> {
        match self.outcome {
            Outcome::Finished { margin } => Some(margin),
            Outcome::Forfeit { .. } => None,
        }
    }

    /// 1 if player 1 won (on the board or by player 2's forfeit), 0 for a
    /// draw, -1 if it lost.
    pub fn result_for_p1(&self) -> i32 {
        match &self.outcome {
            Outcome::Finished { margin } => margin.signum(),
            Outcome::Forfeit { player: 2, .. } => 1,
            Outcome::Forfeit { .. } => -1,
        }
    }
}

/// A running player: a [`child::Child`] in its own process group (killed
/// whole when the game ends or it forfeits), with its start time.
struct Proc {
    child: child::Child,
    started: Instant,
    /// It was killed for not reading its input ([`Proc::send`]).
    blocked: bool,
}

impl Proc {
    fn spawn(
        command: &PlayerCommand,
        extra: &[String],
        player: u8,
        show_stderr: bool,
    ) -> Result<Proc, RefereeError> {
        let started = Instant::now();
        let child = Spec::new(&command.program)
            .args(&command.args)
            .args(extra)
            .stderr(if show_stderr {
                Stderr::Inherit
            } else {
                Stderr::Null
            })
            .limits(Limits {
                max_line: MAX_LINE,
                max_output: MAX_OUTPUT,
                ..Limits::default()
            })
            .spawn()
            .map_err(|e| RefereeError::Spawn {
                player,
                command: command.to_string(),
                reason: e.to_string(),
            })?;
        Ok(Proc {
            child,
            started,
            blocked: false,
        })
    }

    /// Sends one line. A closed input (the child has exited) is left for the
    /// next read to notice, with its exit status.
    ///
    /// # Errors
    /// [`Fault::InputBlocked`]: it stopped reading its input (its group is
    /// killed), a forfeit.
    fn send(&mut self, line: &str) -> Result<(), Fault> {
        match self.child.send_line(line) {
            Err(f @ Fault::InputBlocked(_)) => {
                self.blocked = true;
                Err(f)
            }
            _ => Ok(()),
        }
    }

    /// The next non-blank line, without its line end.
    fn recv(&mut self, timeout: Duration) -> Result<String, Fault> {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.child.recv_line(left) {
                Ok(line) if line.trim().is_empty() => continue,
                Ok(line) => return Ok(line),
                Err(Fault::Timeout(_)) => return Err(Fault::Timeout(timeout)),
                Err(f) => return Err(f),
            }
        }
    }

    /// Closes the child's input and waits up to `grace` for it to exit, then
    /// kills its group. Returns a note if it had to be killed or exited
    /// non-zero (none when it was killed for not reading its input: that has
    /// its own note).
    fn finish(self, grace: Duration, player: u8) -> Option<String> {
        let f = self.child.finish(grace);
        if self.blocked {
            None
        } else if f.killed {
            Some(format!(
                "player {player} did not exit within {} ms after the game; killed",
                grace.as_millis()
            ))
        } else {
            f.note().map(|n| format!("player {player} {n}"))
        }
    }
}

/// Plays games between two commands, validating every move.
#[derive(Debug)]
pub struct Referee {
    /// The player-1 command.
    pub player1: PlayerCommand,
    /// The player-2 command; the seven start counts are appended to it.
    pub player2: PlayerCommand,
    /// How long a player may take for one line (its first line included).
    pub move_timeout: Duration,
    /// How long a player may take to exit after the game.
    pub exit_grace: Duration,
    /// Pass the children's stderr through (otherwise it is discarded).
    pub show_stderr: bool,
    solver: Solver,
}

impl Referee {
    /// A referee with a 2 s move timeout, 1 s exit grace, children's stderr
    /// discarded.
    pub fn new(player1: PlayerCommand, player2: PlayerCommand) -> Referee {
        Referee {
            player1,
            player2,
            move_timeout: Duration::from_secs(2),
            exit_grace: Duration::from_secs(1),
            show_stderr: false,
            solver: Solver::new(),
        }
    }

    /// Plays one game from `start`.
    ///
    /// # Errors
    /// [`RefereeError::Spawn`] if a program cannot be started at all; every
    /// misbehaviour of a running program is a forfeit in the record instead.
    pub fn play(&mut self, start: Board) -> Result<GameRecord, RefereeError> {
        let mut record = GameRecord::new(start, self.solver.value(start));
        let start_args: Vec<String> = start.pits().iter().map(u8::to_string).collect();
        let mut p2 = Proc::spawn(&self.player2, &start_args, 2, self.show_stderr)?;
        let forfeit = |player: u8, reason: String| Outcome::Forfeit { player, reason };
        let line = match p2.recv(self.move_timeout) {
            Ok(line) => line,
            Err(fault) => {
                record.outcome = forfeit(2, format!("start line: {fault}"));
                return Ok(record);
            }
        };
        record.p2_first_us = Some(micros(p2.started.elapsed()));
        match protocol::parse_pits(&line) {
            Ok(pits) if pits == start.pits() => {}
            _ => {
                record.outcome = forfeit(2, format!("printed start {line:?}, expected {start}"));
                return Ok(record);
            }
        }
        let mut p1 = Proc::spawn(&self.player1, &[], 1, self.show_stderr)?;
        if let Err(fault) = p1.send(&start.to_string()) {
            record.outcome = forfeit(1, format!("start line: {fault}"));
            return Ok(record);
        }
        let mut game = Game::new(start);
        let mut sent = [p1.started, Instant::now()];
        while !game.is_over() {
            let seat = game.to_move();
            let n = seat.number();
            let (mover, other) = match seat {
                Seat::First => (&mut p1, &mut p2),
                Seat::Second => (&mut p2, &mut p1),
            };
            let line = match mover.recv(self.move_timeout) {
                Ok(line) => line,
                Err(fault) => {
                    record.outcome =
                        forfeit(n, format!("move {}: {fault}", game.moves().len() + 1));
                    break;
                }
            };
            let took = micros(sent[seat.index()].elapsed());
            match (seat, record.p1_first_us) {
                (Seat::First, None) => record.p1_first_us = Some(took),
                (Seat::First, Some(_)) => record.p1_move_us.push(took),
                (Seat::Second, _) => record.p2_move_us.push(took),
            }
            let board = game.board();
            let values = self.solver.move_values(board);
            let pit = match protocol::parse_move(&line).and_then(|pit| game.play(pit).map(|_| pit))
            {
                Ok(pit) => pit,
                Err(e) => {
                    record.outcome = forfeit(
                        n,
                        format!(
                            "move {} {line:?} on board {board}: {e}",
                            game.moves().len() + 1
                        ),
                    );
                    break;
                }
            };
            let best = values.iter().flatten().max().copied();
            if values[pit] < best {
                record.suboptimal_moves[seat.index()] += 1;
            }
            record.moves.push(pit as u8 + 1);
            if let Err(fault) = other.send(&protocol::format_move(pit)) {
                let m = seat.other().number();
                let why = format!("move {} (its opponent's): {fault}", game.moves().len());
                if game.is_over() {
                    // The game was decided by this move; the fault is a note.
                    record.notes.push(format!("player {m}: {why}"));
                } else {
                    record.outcome = forfeit(m, why);
                    break;
                }
            }
            sent[seat.other().index()] = Instant::now();
        }
        record.banks = game.banks();
        if game.is_over() {
            record.outcome = Outcome::Finished {
                margin: game.margin(),
            };
            // Both programs have seen the last move; let them exit.
            record.notes.extend(p1.finish(self.exit_grace, 1));
            record.notes.extend(p2.finish(self.exit_grace, 2));
        }
        // On a forfeit both are killed when dropped.
        Ok(record)
    }
}

fn micros(d: Duration) -> u64 {
    u64::try_from(d.as_micros()).unwrap_or(u64::MAX)
}

/// Count, mean and maximum of a set of times.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize)]
pub struct TimeStats {
    /// How many times.
    pub count: usize,
    /// Their mean, microseconds.
    pub mean_us: f64,
    /// Their 99th percentile (nearest rank), microseconds.
    pub p99_us: u64,
    /// Their maximum, microseconds.
    pub max_us: u64,
}

impl TimeStats {
    fn of(times: impl Iterator<Item = u64>) -> TimeStats {
        let mut times: Vec<u64> = times.collect();
        times.sort_unstable();
        let count = times.len();
        let sum: u128 = times.iter().map(|&t| u128::from(t)).sum();
        // Nearest rank: the smallest time >= 99% of all.
        let p99 = match count {
            0 => 0,
            _ => times[(count * 99).div_ceil(100) - 1],
        };
        TimeStats {
            count,
            mean_us: if count == 0 {
                0.0
            } else {
                sum as f64 / count as f64
            },
            p99_us: p99,
            max_us: times.last().copied().unwrap_or(0),
        }
    }
}

impl fmt::Display for TimeStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "mean {:.3} ms, p99 {:.3} ms, max {:.3} ms over {}",
            self.mean_us / 1000.0,
            self.p99_us as f64 / 1000.0,
            self.max_us as f64 / 1000.0,
            self.count
        )
    }
}

/// Totals over many games, from player 1's side.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Games played.
    pub games: usize,
    /// Player 1 won (on the board, or player 2 forfeited).
    pub p1_wins: usize,
    /// Draws.
    pub draws: usize,
    /// Player 1 lost (on the board, or it forfeited).
    pub p1_losses: usize,
    /// Forfeits by player 1 and by player 2.
    pub forfeits: [usize; 2],
    /// Finished games by player 1's final margin.
    pub margins: BTreeMap<i32, usize>,
    /// Finished games whose margin equals the start's game value.
    pub margin_equals_value: usize,
    /// Finished games whose margin is below the game value (player 1 erred).
    pub margin_below_value: usize,
    /// Finished games whose margin is above the game value (player 2 erred).
    pub margin_above_value: usize,
    /// Moves below the best value, by player 1 and by player 2.
    pub suboptimal_moves: [u64; 2],
    /// Player 1's first reply (start-up, solve, first move).
    pub p1_first: TimeStats,
    /// Player 1's later replies.
    pub p1_move: TimeStats,
    /// Player 2's start line.
    pub p2_first: TimeStats,
    /// Player 2's replies.
    pub p2_move: TimeStats,
    /// Notes from all games (kills after the game, non-zero exits).
    pub notes: usize,
}

impl Summary {
    /// Sums up `records`.
    pub fn of(records: &[GameRecord]) -> Summary {
        let mut margins = BTreeMap::new();
        let mut s = Summary {
            games: records.len(),
            p1_wins: 0,
            draws: 0,
            p1_losses: 0,
            forfeits: [0, 0],
            margins: BTreeMap::new(),
            margin_equals_value: 0,
            margin_below_value: 0,
            margin_above_value: 0,
            suboptimal_moves: [0, 0],
            p1_first: TimeStats::of(records.iter().filter_map(|r| r.p1_first_us)),
            p1_move: TimeStats::of(records.iter().flat_map(|r| r.p1_move_us.iter().copied())),
            p2_first: TimeStats::of(records.iter().filter_map(|r| r.p2_first_us)),
            p2_move: TimeStats::of(records.iter().flat_map(|r| r.p2_move_us.iter().copied())),
            notes: records.iter().map(|r| r.notes.len()).sum(),
        };
        for r in records {
            match r.result_for_p1() {
                1 => s.p1_wins += 1,
                0 => s.draws += 1,
                _ => s.p1_losses += 1,
            }
            if let Outcome::Forfeit { player, .. } = r.outcome {
                s.forfeits[usize::from(player == 2)] += 1;
            }
            if let Some(m) = r.margin() {
                *margins.entry(m).or_insert(0) += 1;
                match m.cmp(&r.value) {
                    std::cmp::Ordering::Equal => s.margin_equals_value += 1,
                    std::cmp::Ordering::Less => s.margin_below_value += 1,
                    std::cmp::Ordering::Greater => s.margin_above_value += 1,
                }
            }
            for k in 0..2 {
                s.suboptimal_moves[k] += u64::from(r.suboptimal_moves[k]);
            }
        }
        s.margins = margins;
        s
    }
}

/// Reads a list of starts, one per line (seven counts); blank lines and lines
/// starting with `#` are skipped.
///
/// # Errors
/// A message naming the first bad line.
pub fn read_starts(reader: impl BufRead) -> Result<Vec<Board>, String> {
    let mut starts = Vec::new();
    for (i, line) in reader.lines().enumerate() {
        let line = line.map_err(|e| format!("line {}: {e}", i + 1))?;
        let text = line.trim();
        if text.is_empty() || text.starts_with('#') {
            continue;
        }
        let board = protocol::parse_pits(text)
            .and_then(Board::start)
            .map_err(|e| format!("line {}: {e}", i + 1))?;
        starts.push(board);
    }
    Ok(starts)
}

/// Convenience for tests and tools: reads starts from a string.
///
/// # Errors
/// As [`read_starts`].
pub fn parse_starts(text: &str) -> Result<Vec<Board>, String> {
    read_starts(io::Cursor::new(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn time_stats() {
        let t = TimeStats::of((1..=200).rev());
        assert_eq!((t.count, t.p99_us, t.max_us), (200, 198, 200));
        assert!((t.mean_us - 100.5).abs() < 1e-9);
        assert_eq!(TimeStats::of(std::iter::empty()).max_us, 0);
    }

    #[test]
    fn commands_and_starts_parse() {
        let c = PlayerCommand::parse(" a/b  --x 1 ", 1).unwrap();
        assert_eq!(c.program, "a/b");
        assert_eq!(c.args, ["--x", "1"]);
        assert_eq!(
            PlayerCommand::parse("  ", 2),
            Err(RefereeError::EmptyCommand(2))
        );
        let starts = parse_starts("# x\n4 3 2 4 2 3 2\n\n2 2 2 2 4 4 4\n").unwrap();
        assert_eq!(starts.len(), 2);
        assert!(parse_starts("4 3 2 4 2 3 3\n").is_err());
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let mut r = Referee::new(
            PlayerCommand::parse("/nonexistent/p1", 1).unwrap(),
            PlayerCommand::parse("/nonexistent/p2", 2).unwrap(),
        );
        let start = Board::all_starts()[0];
        assert!(matches!(
            r.play(start),
            Err(RefereeError::Spawn { player: 2, .. })
        ));
    }
}
