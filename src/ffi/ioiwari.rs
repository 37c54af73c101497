//! C ABI for the Ioiwari solver (`docs/rules/ioiwari.md`): the value of a
//! board and a best move, from a solved table the C side can release.

use std::ffi::c_int;
use std::sync::{Arc, Mutex, PoisonError};

use super::{fail, null, returning, shielded, CgStatus};
use crate::ioiwari::{Board, IoiwariError, SolvedTable, PITS};

/// The C side's solved table: built on first use, dropped by
/// `cg_ioiwari_release` (unlike the library's process-wide
/// [`crate::ioiwari::table`], which lives until the process ends).
static TABLE: Mutex<Option<Arc<SolvedTable>>> = Mutex::new(None);

/// The solved table, built now if there is none.
fn table() -> Arc<SolvedTable> {
    let mut table = TABLE.lock().unwrap_or_else(PoisonError::into_inner);
    Arc::clone(table.get_or_insert_with(|| Arc::new(SolvedTable::build())))
}

/// Reads the 7 pit counts behind `pits` as a board.
///
/// # Safety
/// `pits` is NULL or valid for 7 reads.
unsafe fn board(pits: *const u8) -> super::Result<Board> {
    if pits.is_null() {
        return Err(null("pits"));
    }
    // SAFETY: non-NULL and valid for `PITS` reads (caller guarantee).
    let pits = unsafe { pits.cast::<[u8; PITS]>().read() };
    Board::new(pits).map_err(status)
}

/// `CG_INVALID_ARGUMENT` with the solver's reason.
fn status(error: IoiwariError) -> CgStatus {
    fail(CgStatus::CgInvalidArgument, error)
}

/// A best move (rules: `docs/rules/ioiwari.md` §1-3) for the side to move
/// on `pits` (stones in pits 1..7, each
/// 0..5; banks do not matter): writes its pit number 1..7 into `*pit`, the
/// lowest pit among the moves of the best value. Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_ARGUMENT` (a pit above 5), `CG_NO_MOVE` (every pit empty).
/// The first call solves the game (tens of milliseconds) into a table of
/// about 280 kB, kept until `cg_ioiwari_release`.
///
/// # Safety
/// `pits` is NULL or valid for 7 reads; `pit` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_ioiwari_best_move(pits: *const u8, pit: *mut c_int) -> CgStatus {
    // SAFETY: the caller's guarantees on `pits` and `pit`.
    unsafe {
        returning("cg_ioiwari_best_move", pit, "pit", || {
            let index = table().best_move(board(pits)?);
            index.map(|i| i as c_int + 1).ok_or_else(|| {
                fail(
                    CgStatus::CgNoMove,
                    "every pit is empty: the game is over, there is no move",
                )
            })
        })
    }
}

/// The game-theoretic value of `pits` for the side to move: the final
/// difference (own bank minus the opponent's, stones won from now on) under
/// optimal play by both, into `*value`. Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_ARGUMENT` (a pit above 5).
///
/// # Safety
/// `pits` is NULL or valid for 7 reads; `value` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_ioiwari_value(pits: *const u8, value: *mut c_int) -> CgStatus {
    // SAFETY: the caller's guarantees on `pits` and `value`.
    unsafe {
        returning("cg_ioiwari_value", value, "value", || {
            Ok(table().value(board(pits)?))
        })
    }
}

/// Frees the solved table (about 280 kB) that `cg_ioiwari_best_move` and
/// `cg_ioiwari_value` build on their first call, so that a program's
/// valgrind report shows none of the library's memory as "still
/// reachable". A later call builds the table again. Safe to call at any
/// time, also when no table was built, and from any thread (a call in
/// progress on another thread keeps its table until it returns).
#[no_mangle]
pub extern "C" fn cg_ioiwari_release() {
    shielded((), || {
        let taken = TABLE.lock().unwrap_or_else(PoisonError::into_inner).take();
        drop(taken);
    });
}
