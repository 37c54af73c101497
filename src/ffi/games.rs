//! C ABI for the homework games and the whole homework task.

use std::ffi::c_char;

use super::deck::CgDeck;
use super::{guard, ref_arg, returning, str_arg, write_text, CgStatus, Result};
use crate::deck::Deck;
use crate::homework::{self, GameError, HomeworkError, RollingStone, Scarabs, War, WarOutcome};

/// How a game of War ended.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgWarResult {
    /// 1 or 2.
    pub winner: u8,
    /// 0 when the winner took all the cards; otherwise, after 100 hands, the
    /// deciding rank as a `cg_card` rank number (14 = A, 13 = K, ..).
    pub rank: u8,
    /// Hands played (at most 100).
    pub hands: u32,
}

/// How a game of Rolling Stone or Scarabs ended.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgGameResult {
    /// The winner, 1-based (1..4 for a dealt deck).
    pub winner: u8,
    /// Turns played (one card turned or played per turn).
    pub turns: u64,
}

/// A copy of the deck behind a handle; the caller keeps its deck.
///
/// # Safety
/// `deck` is NULL or a live handle.
unsafe fn dealt(deck: *const CgDeck) -> Result<Deck> {
    // SAFETY: passed on from the exported function's caller.
    Ok(unsafe { ref_arg(deck) }?.0.clone())
}

fn game_status(error: GameError) -> CgStatus {
    match error {
        GameError::TooLong { .. } | GameError::NoCards | GameError::WarTie => {
            CgStatus::CgGameUnfinished
        }
    }
}

/// Plays War on a copy of the deck (player 1 gets the first half) and writes
/// the result into `*out`. Errors: `CG_NULL_POINTER`, `CG_GAME_UNFINISHED`
/// (equal rank counts after 100 hands).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_war_play(deck: *const CgDeck, out: *mut CgWarResult) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning(out, || {
            let mut war = War::deal(dealt(deck)?);
            let (winner, rank) = match war.play_to_end() {
                WarOutcome::AllCards { winner } => (winner, 0),
                WarOutcome::MoreOfRank { winner, rank } => (winner, rank as u8),
                WarOutcome::Tie => return Err(game_status(GameError::WarTie)),
            };
            let hands = war.hands();
            Ok(CgWarResult {
                winner,
                rank,
                hands,
            })
        })
    }
}

/// A four-player game's result: its 0-based winner and turns played.
fn four_player(played: std::result::Result<usize, GameError>, turns: u64) -> Result<CgGameResult> {
    let winner = played.map_err(game_status)?;
    Ok(CgGameResult {
        winner: winner as u8 + 1,
        turns,
    })
}

/// Plays Rolling Stone on a copy of the deck dealt to four players and writes
/// the result into `*out`. Errors: `CG_NULL_POINTER`, `CG_GAME_UNFINISHED`.
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_play(
    deck: *const CgDeck,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning(out, || {
            let mut game = RollingStone::deal(dealt(deck)?);
            four_player(game.play_to_end(), game.turns())
        })
    }
}

/// Plays Egyptian Scarabs on a copy of the deck dealt to four players and
/// writes the result into `*out`. Errors: `CG_NULL_POINTER`,
/// `CG_GAME_UNFINISHED`.
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_play(deck: *const CgDeck, out: *mut CgGameResult) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning(out, || {
            let mut game = Scarabs::deal(dealt(deck)?);
            four_player(game.play_to_end(), game.turns())
        })
    }
}

/// The whole homework task: `in_text` is the text of the checker's `in`
/// file; the text of `out` and a NUL go into `out` (`out_len` bytes) and its
/// length without the NUL into `*written` (also on `CG_BUFFER_TOO_SMALL`; 160
/// bytes always suffice). Errors: `CG_NULL_POINTER`, `CG_INVALID_UTF8`,
/// `CG_BAD_INPUT` (malformed `in`), `CG_BAD_SHUFFLE` (a shuffle that cannot
/// apply), `CG_GAME_UNFINISHED`, `CG_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `in_text` is NULL or a NUL-terminated string; `out` is NULL or valid for
/// `out_len` bytes; `written` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_homework_run(
    in_text: *const c_char,
    out: *mut c_char,
    out_len: usize,
    written: *mut usize,
) -> CgStatus {
    guard(|| {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let in_text = unsafe { str_arg(in_text) }?;
        let text = homework::run(in_text).map_err(|error| match error {
            HomeworkError::Shuffle { source, .. } if !source.is_syntax() => CgStatus::CgBadShuffle,
            HomeworkError::Game(error) => game_status(error),
            _ => CgStatus::CgBadInput,
        })?;
        // SAFETY: the caller's buffer and `written` guarantees.
        unsafe { write_text(&text, out, out_len, written) }
    })
}
