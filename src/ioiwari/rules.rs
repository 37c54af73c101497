//! The board, the sowing move and a whole game with its banks
//! (`docs/rules/ioiwari.md` §1-3).
//!
//! Pits are indexed `0..7` in Rust; the protocol numbers them `1..=7`
//! clockwise, so pit number `n` is index `n - 1`. Clockwise means increasing
//! index, wrapping from 6 to 0.

use std::fmt;

use super::IoiwariError;

/// Number of pits on the rim of the board.
pub const PITS: usize = 7;

/// Stones at the start of a game (spec: "20 stones").
pub const START_STONES: u32 = 20;

/// Most stones a pit can ever hold: a pit holding 5 gives a stone away instead
/// of receiving one, and starts hold at most 4 (spec: the sowing rules).
pub const MAX_PIT: u8 = 5;

/// Fewest and most stones a pit holds at the start (spec: "at least 2 and at
/// most 4").
pub const START_PIT: std::ops::RangeInclusive<u8> = 2..=4;

/// The seven pits: `pits[i]` stones in pit number `i + 1`, each `0..=5`.
///
/// The banks are not part of the board: a position's future depends only on
/// the pits, so the solver works on boards alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Board {
    pits: [u8; PITS],
}

/// What one move did: the board after it and the stones each bank received.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sow {
    /// The board after the move.
    pub board: Board,
    /// Stones that went into the bank of the player who moved.
    pub mover_gain: u8,
    /// Stones that went into the opponent's bank (at most 1: the last stone
    /// landing on an empty or a 5-stone pit).
    pub opponent_gain: u8,
}

impl Sow {
    /// The move's immediate bank difference for the mover:
    /// `mover_gain - opponent_gain`.
    pub fn net(&self) -> i32 {
        i32::from(self.mover_gain) - i32::from(self.opponent_gain)
    }
}

impl Board {
    /// A board of any pit counts `0..=5` (not only a legal start).
    ///
    /// # Errors
    /// [`IoiwariError::TooManyStones`] if a pit holds more than 5 stones.
    pub fn new(pits: [u8; PITS]) -> Result<Board, IoiwariError> {
        if let Some(i) = pits.iter().position(|&s| s > MAX_PIT) {
            return Err(IoiwariError::TooManyStones {
                pit: i + 1,
                stones: pits[i],
            });
        }
        Ok(Board { pits })
    }

    /// A legal starting board: every pit holds 2..=4 stones, 20 in all
    /// (spec: the start).
    ///
    /// # Errors
    /// [`IoiwariError::BadStart`] naming what is wrong.
    pub fn start(pits: [u8; PITS]) -> Result<Board, IoiwariError> {
        if let Some(i) = pits.iter().position(|s| !START_PIT.contains(s)) {
            return Err(IoiwariError::BadStart(format!(
                "pit {} holds {} stones, a start needs 2 to 4 in every pit",
                i + 1,
                pits[i]
            )));
        }
        let total: u32 = pits.iter().map(|&s| u32::from(s)).sum();
        if total != START_STONES {
            return Err(IoiwariError::BadStart(format!(
                "the pits hold {total} stones, a start needs {START_STONES}"
            )));
        }
        Ok(Board { pits })
    }

    /// Every legal start (each pit 2..=4, 20 stones), in lexicographic order
    /// of the pit counts.
    pub fn all_starts() -> Vec<Board> {
        let mut out = Vec::new();
        let mut pits = [0u8; PITS];
        fn rec(i: usize, left: u8, pits: &mut [u8; PITS], out: &mut Vec<Board>) {
            if i == PITS {
                if left == 0 {
                    out.push(Board { pits: *pits });
                }
                return;
            }
            for s in START_PIT {
                if s <= left {
                    pits[i] = s;
                    rec(i + 1, left - s, pits, out);
                }
            }
        }
        rec(0, START_STONES as u8, &mut pits, &mut out);
        out
    }

    /// The pit counts, index `i` = pit number `i + 1`.
    pub fn pits(&self) -> [u8; PITS] {
        self.pits
    }

    /// Stones left on the board.
    pub fn stones(&self) -> u32 {
        self.pits.iter().map(|&s| u32::from(s)).sum()
    }

    /// True when every pit is empty: the game is over (spec: the end).
    pub fn is_empty(&self) -> bool {
        self.pits == [0; PITS]
    }

    /// The legal moves: indices of the non-empty pits, ascending.
    pub fn moves(&self) -> impl Iterator<Item = usize> + '_ {
        (0..PITS).filter(|&i| self.pits[i] > 0)
    }

    /// Plays the move emptying pit index `pit` (0-based); `None` if that pit
    /// is empty or not on the board.
    ///
    /// The sowing (spec: a move): take all stones of the pit into the hand,
    /// then visit the following pits clockwise, the emptied pit included when
    /// the hand goes round the board:
    /// - more than one stone in hand: a pit holding 5 gives one stone to the
    ///   mover's bank (the hand keeps its stones); any other pit receives one
    ///   stone from the hand;
    /// - one stone in hand: a pit holding 1..=4 goes with the hand's stone into
    ///   the mover's bank; a pit holding 0 or 5 is left alone and the stone goes
    ///   to the opponent's bank. The move ends there.
    ///
    /// Every step either moves a stone off the board or from the hand, so a
    /// move ends after at most `2 * stones` steps.
    pub fn sow(&self, pit: usize) -> Option<Sow> {
        let mut pits = self.pits;
        let mut hand = *pits.get(pit)?;
        if hand == 0 {
            return None;
        }
        pits[pit] = 0;
        let (mut mover_gain, mut opponent_gain) = (0u8, 0u8);
        let mut j = pit;
        loop {
            j = if j + 1 == PITS { 0 } else { j + 1 };
            if hand > 1 {
                if pits[j] == MAX_PIT {
                    pits[j] -= 1;
                    mover_gain += 1;
                } else {
                    pits[j] += 1;
                    hand -= 1;
                }
            } else {
                if (1..=4).contains(&pits[j]) {
                    mover_gain += pits[j] + 1;
                    pits[j] = 0;
                } else {
                    opponent_gain += 1;
                }
                break;
            }
        }
        Some(Sow {
            board: Board { pits },
            mover_gain,
            opponent_gain,
        })
    }

    /// Base-6 code of the board, `sum(pits[i] * 6^i)`, in `0..6^7`: the
    /// solver's table index.
    pub fn code(&self) -> usize {
        self.pits
            .iter()
            .rev()
            .fold(0usize, |acc, &s| acc * 6 + usize::from(s))
    }

    /// The board of a [`Board::code`].
    ///
    /// # Errors
    /// [`IoiwariError::BadCode`] if `code >= 6^7`.
    pub fn from_code(code: usize) -> Result<Board, IoiwariError> {
        if code >= CODES {
            return Err(IoiwariError::BadCode(code));
        }
        let mut pits = [0u8; PITS];
        let mut c = code;
        for p in &mut pits {
            *p = (c % 6) as u8;
            c /= 6;
        }
        Ok(Board { pits })
    }
}

/// Number of distinct boards with every pit `0..=5`: `6^7`.
pub const CODES: usize = 6 * 6 * 6 * 6 * 6 * 6 * 6;

impl fmt::Display for Board {
    /// The protocol's start line: the seven counts separated by single spaces.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, s) in self.pits.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{s}")?;
        }
        Ok(())
    }
}

/// Player 1 moves first; player 2 second (spec: input/output).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Seat {
    /// The starting player.
    First,
    /// The second player (the IOI's `ioiwari2`).
    Second,
}

impl Seat {
    /// The other seat.
    pub fn other(self) -> Seat {
        match self {
            Seat::First => Seat::Second,
            Seat::Second => Seat::First,
        }
    }

    /// 0 for player 1, 1 for player 2.
    pub fn index(self) -> usize {
        match self {
            Seat::First => 0,
            Seat::Second => 1,
        }
    }

    /// 1 or 2, the spec's player number.
    pub fn number(self) -> u8 {
        self.index() as u8 + 1
    }
}

/// A game in progress: the board, both banks and whose turn it is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Game {
    board: Board,
    banks: [u32; 2],
    to_move: Seat,
    moves: Vec<usize>,
}

impl Game {
    /// A game from `board` with empty banks, player 1 to move.
    pub fn new(board: Board) -> Game {
        Game {
            board,
            banks: [0, 0],
            to_move: Seat::First,
            moves: Vec::new(),
        }
    }

    /// The board now.
    pub fn board(&self) -> Board {
        self.board
    }

    /// Stones in the banks of player 1 and player 2.
    pub fn banks(&self) -> [u32; 2] {
        self.banks
    }

    /// Whose turn it is (meaningless once [`Game::is_over`]).
    pub fn to_move(&self) -> Seat {
        self.to_move
    }

    /// The moves so far, as 0-based pit indices, player 1's first.
    pub fn moves(&self) -> &[usize] {
        &self.moves
    }

    /// True once every pit is empty (spec: the end).
    pub fn is_over(&self) -> bool {
        self.board.is_empty()
    }

    /// Player 1's bank minus player 2's: positive means player 1 leads (and,
    /// at the end, has won).
    pub fn margin(&self) -> i32 {
        self.banks[0] as i32 - self.banks[1] as i32
    }

    /// The side to move empties pit index `pit` (0-based).
    ///
    /// # Errors
    /// [`IoiwariError::GameOver`] if the board is empty,
    /// [`IoiwariError::NoSuchPit`] if `pit >= 7`, [`IoiwariError::EmptyPit`]
    /// if the pit holds no stone. The game is unchanged on error.
    pub fn play(&mut self, pit: usize) -> Result<Sow, IoiwariError> {
        if self.is_over() {
            return Err(IoiwariError::GameOver);
        }
        if pit >= PITS {
            return Err(IoiwariError::NoSuchPit(pit as u64 + 1));
        }
        let sow = self.board.sow(pit).ok_or(IoiwariError::EmptyPit(pit + 1))?;
        let me = self.to_move.index();
        self.banks[me] += u32::from(sow.mover_gain);
        self.banks[1 - me] += u32::from(sow.opponent_gain);
        self.board = sow.board;
        self.to_move = self.to_move.other();
        self.moves.push(pit);
        Ok(sow)
    }
}
