//! The homework checker's task: read the text of `in`, shuffle the canonical
//! deck, play the named game, and produce the text of `out`
//! (`docs/rules/homework.md` §7).
//!
//! `in` is: the task name on the first line (`amestecare`, `razboi`,
//! `rollingstone`, `scarabei`), a count N on the second, then N shuffle lines
//! (see [`Shuffle::parse_line`]). LF and CRLF line ends, extra spaces, a
//! missing final newline, a leading UTF-8 byte order mark (Notepad) and blank
//! lines anywhere are accepted (blank lines are skipped; error messages count
//! lines in the file as it is); anything but blank lines after the last
//! shuffle is an error. Messages quote at most a short prefix of a bad line.

pub mod gen;
pub mod rolling_stone;
pub mod scarabs;
pub mod trace;
pub mod war;

use thiserror::Error;

pub use rolling_stone::RollingStone;
pub use scarabs::Scarabs;
pub use trace::{trace, Traced};
pub use war::{War, WarOutcome};

use crate::deck::Deck;
use crate::shuffle::{clip, Shuffle, ShuffleError};

/// Why a game could not produce a winner.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum GameError {
    /// The game ran past its turn limit: it would loop forever.
    #[error("{game} did not end within {turns} turns: the deal loops forever")]
    TooLong {
        /// The game's task name.
        game: &'static str,
        /// Turns played when it was cut off.
        turns: u64,
    },
    /// Nobody holds a card, so nobody can win (only from hand-built piles).
    #[error("no player holds a card")]
    NoCards,
    /// The deck cannot be dealt: it is empty, or its length is not a
    /// multiple of the number of players (the homework deals 52 cards to 2
    /// or 4; other lengths are rejected rather than dropping cards).
    #[error("{game} deals {len} cards to {players} players: the deck must be non-empty and divide evenly")]
    BadDeal {
        /// The game's task name.
        game: &'static str,
        /// The deck's length.
        len: usize,
        /// Players the game deals to.
        players: usize,
    },
    /// War ended after 100 hands with equal counts of every rank from A to 3;
    /// the statement excludes this and `out` cannot express it.
    #[error("razboi ended in a tie after 100 hands (equal counts of every rank A..3)")]
    WarTie,
}

/// Checks that a deck of `len` cards deals evenly to `players` players with
/// at least one card each, as the homework's deals do (52 cards to 2 or 4).
/// [`War::deal`], [`RollingStone::deal`] and [`Scarabs::deal`] accept any
/// deck (a remainder of `len % players` cards is dropped, an empty deck
/// gives an unplayable game); the C ABI calls this first and rejects such
/// decks.
///
/// # Errors
/// [`GameError::BadDeal`].
pub fn check_deal(game: &'static str, len: usize, players: usize) -> Result<(), GameError> {
    if len == 0 || players == 0 || !len.is_multiple_of(players) {
        return Err(GameError::BadDeal { game, len, players });
    }
    Ok(())
}

/// Why the homework could not run; every message fits on one line.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum HomeworkError {
    /// `in` is empty or holds only blank lines.
    #[error("in: no task name (the file is empty or blank)")]
    MissingTask,
    /// The first non-blank line is not a known task.
    #[error(
        "in:{line}: unknown task {text:?} (expected amestecare, razboi, rollingstone or scarabei)"
    )]
    UnknownTask {
        /// 1-based line number.
        line: usize,
        /// The line's text (at most a short prefix of it).
        text: String,
    },
    /// The line after the task is not a count.
    #[error("in:{line}: expected the number of shuffles, got {text:?}")]
    BadCount {
        /// 1-based line number.
        line: usize,
        /// The line's text (at most a short prefix of it).
        text: String,
    },
    /// Fewer shuffle lines than the count says.
    #[error("in: expected {expected} shuffle lines after line 2, found {found}")]
    MissingShuffles {
        /// The count on line 2.
        expected: usize,
        /// The shuffle lines present.
        found: usize,
    },
    /// Something other than blank lines after the last shuffle.
    #[error("in:{line}: unexpected text {text:?} after the {expected} shuffles")]
    TrailingText {
        /// 1-based line number.
        line: usize,
        /// The count on line 2.
        expected: usize,
        /// The line's text (at most a short prefix of it).
        text: String,
    },
    /// A shuffle line is malformed or cannot apply to the deck.
    #[error("in:{line}: {source}")]
    Shuffle {
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        source: ShuffleError,
    },
    /// The game could not finish.
    #[error(transparent)]
    Game(#[from] GameError),
}

/// The four tasks of the checker, by the names of the `in` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Task {
    /// `amestecare`: shuffle and print the deck.
    Shuffle,
    /// `razboi`: War.
    War,
    /// `rollingstone`: Rolling Stone.
    RollingStone,
    /// `scarabei`: Egyptian Scarabs.
    Scarabs,
}

impl Task {
    /// The task of an `in` file's first word (`război` with its diacritic too).
    pub fn from_name(name: &str) -> Option<Task> {
        Some(match name {
            "amestecare" => Task::Shuffle,
            "razboi" | "război" => Task::War,
            "rollingstone" => Task::RollingStone,
            "scarabei" => Task::Scarabs,
            _ => return None,
        })
    }
}

/// A parsed `in` file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Input {
    /// What to do after shuffling.
    pub task: Task,
    /// The shuffles, in order, each with its 1-based line number.
    pub shuffles: Vec<(usize, Shuffle)>,
}

impl Input {
    /// Parses the text of an `in` file.
    ///
    /// # Errors
    /// [`HomeworkError`] for an empty file, an unknown task, a bad count, a
    /// malformed shuffle line (with its line number), too few shuffle lines, or
    /// text after the last one.
    pub fn parse(text: &str) -> Result<Input, HomeworkError> {
        // A byte order mark is no part of the task name.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        // `lines` drops the final line end; `trim` drops CR and extra spaces;
        // blank lines are skipped but keep their place in the numbering.
        let mut lines = text
            .lines()
            .map(str::trim)
            .enumerate()
            .map(|(i, l)| (i + 1, l))
            .filter(|(_, l)| !l.is_empty());
        let Some((task_no, task_line)) = lines.next() else {
            return Err(HomeworkError::MissingTask);
        };
        let task = Task::from_name(task_line).ok_or_else(|| HomeworkError::UnknownTask {
            line: task_no,
            text: clip(task_line),
        })?;
        let (count_no, count_line) = lines.next().unwrap_or((task_no + 1, ""));
        let expected: usize = count_line.parse().map_err(|_| HomeworkError::BadCount {
            line: count_no,
            text: clip(count_line),
        })?;
        let mut shuffles = Vec::with_capacity(expected.min(1024));
        for (line, text) in lines {
            if shuffles.len() < expected {
                let shuffle = Shuffle::parse_line(text)
                    .map_err(|source| HomeworkError::Shuffle { line, source })?;
                shuffles.push((line, shuffle));
            } else {
                return Err(HomeworkError::TrailingText {
                    line,
                    expected,
                    text: clip(text),
                });
            }
        }
        if shuffles.len() < expected {
            return Err(HomeworkError::MissingShuffles {
                expected,
                found: shuffles.len(),
            });
        }
        Ok(Input { task, shuffles })
    }

    /// Shuffles the canonical deck, plays the task's game and returns the text
    /// of `out`: the deck (`As Ah ..`), `1`/`2` or `1 C`/`2 C` for War, the
    /// 1-based winner for the four-player games; one line with its newline.
    ///
    /// # Errors
    /// [`HomeworkError::Shuffle`] when a shuffle cannot apply (n-piles K not
    /// dividing 52); [`HomeworkError::Game`] when a game would not end or War
    /// ties.
    pub fn run(&self) -> Result<String, HomeworkError> {
        let mut deck = Deck::standard();
        for (line, shuffle) in &self.shuffles {
            shuffle
                .apply(&mut deck)
                .map_err(|source| HomeworkError::Shuffle {
                    line: *line,
                    source,
                })?;
        }
        let out = match self.task {
            Task::Shuffle => deck.to_string(),
            Task::War => match War::deal(deck).play() {
                WarOutcome::AllCards { winner } => winner.to_string(),
                WarOutcome::MoreOfRank { winner, rank } => format!("{winner} {}", rank.code()),
                WarOutcome::Tie => return Err(GameError::WarTie.into()),
            },
            Task::RollingStone => (RollingStone::deal(deck).play()? + 1).to_string(),
            Task::Scarabs => (Scarabs::deal(deck).play()? + 1).to_string(),
        };
        Ok(out + "\n")
    }
}

/// Parses the text of `in` and returns the text of `out`; see [`Input::parse`]
/// and [`Input::run`].
///
/// # Errors
/// Any [`HomeworkError`] of either step.
pub fn run(in_text: &str) -> Result<String, HomeworkError> {
    Input::parse(in_text)?.run()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statement_example_of_amestecare() {
        let out = run("amestecare\n1\ninversare\n").unwrap();
        assert!(out.starts_with("2d 2c 2h 2s 3d 3c 3h 3s "));
        assert!(out.ends_with(" Kd Kc Kh Ks Ad Ac Ah As\n"));
    }

    #[test]
    fn crlf_extra_spaces_and_no_final_newline_are_accepted() {
        let plain = run("amestecare\n2\nnpiles 4 1 4 3 2\nmongean\n").unwrap();
        let messy = run("  amestecare \r\n 2\r\nnpiles  4 1 4 3   2 \r\n mongean").unwrap();
        assert_eq!(plain, messy);
        assert_eq!(run("razboi\r\n0\r\n\r\n\r\n").unwrap(), "1\n");
    }

    #[test]
    fn bad_input_is_refused_with_one_line() {
        use HomeworkError as E;
        let err = |text: &str| run(text).unwrap_err();
        assert_eq!(err(""), E::MissingTask);
        assert_eq!(err("\n\n"), E::MissingTask);
        let unknown = |line, text: &str| E::UnknownTask {
            line,
            text: text.into(),
        };
        let bad_count = |line, text: &str| E::BadCount {
            line,
            text: text.into(),
        };
        assert_eq!(err("poker\n0\n"), unknown(1, "poker"));
        assert_eq!(err("razboi\n"), bad_count(2, ""));
        assert_eq!(err("razboi\n-1\n"), bad_count(2, "-1"));
        assert_eq!(err("razboi\ntwo\n"), bad_count(2, "two"));
        assert_eq!(err("\n\npoker\n0\n"), unknown(3, "poker"));
        assert_eq!(
            err("razboi\n2\nmongean\n"),
            E::MissingShuffles {
                expected: 2,
                found: 1
            }
        );
        assert!(matches!(
            err("razboi\n1\nmongean\nmongean\n"),
            E::TrailingText {
                line: 4,
                expected: 1,
                ..
            }
        ));
        assert!(matches!(
            err("amestecare\n2\nmongean\nnpiles 3 1 2\n"),
            E::Shuffle {
                line: 4,
                source: ShuffleError::PileNumbers { k: 3, got: 2 }
            }
        ));
        assert!(matches!(
            err("amestecare\n1\nnpiles 5 1 2 3 4 5\n"),
            E::Shuffle {
                line: 3,
                source: ShuffleError::Indivisible { k: 5, len: 52 }
            }
        ));
        for text in [
            "",
            "poker\n0\n",
            "razboi\n2\nmongean\n",
            "amestecare\n1\nnpiles 5 1 2 3 4 5",
        ] {
            let message = err(text).to_string();
            assert!(!message.contains('\n'), "{message:?}");
        }
    }

    #[test]
    fn only_non_empty_decks_that_divide_among_the_players_deal() {
        assert_eq!(check_deal("razboi", 52, 2), Ok(()));
        assert_eq!(check_deal("scarabei", 52, 4), Ok(()));
        for (len, players) in [(0, 4), (0, 2), (53, 4), (51, 2), (5, 4), (4, 0)] {
            let err = check_deal("scarabei", len, players).unwrap_err();
            assert_eq!(
                err,
                GameError::BadDeal {
                    game: "scarabei",
                    len,
                    players
                }
            );
            assert!(!err.to_string().contains('\n'));
        }
    }

    #[test]
    fn unshuffled_war_is_won_by_player_1_taking_everything() {
        // Player 1 holds A..8 (8s 8h last), player 2 8c 8d 7s ..: every
        // hand of the first 26 pairs a higher card of player 1.
        assert_eq!(run("razboi\n0\n").unwrap(), "1\n");
    }
}
