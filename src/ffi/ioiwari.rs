//! C ABI for the Ioiwari solver: the value of a board and a best move.

use std::ffi::c_int;

use super::{returning, CgStatus};
use crate::ioiwari::{self, IoiwariError, PITS};

/// Reads the 7 pit counts behind `pits`.
///
/// # Safety
/// `pits` is NULL or valid for 7 reads.
unsafe fn board(pits: *const u8) -> super::Result<[u8; PITS]> {
    if pits.is_null() {
        return Err(CgStatus::CgNullPointer);
    }
    // SAFETY: non-NULL and valid for `PITS` reads (caller guarantee).
    Ok(unsafe { pits.cast::<[u8; PITS]>().read() })
}

fn status(_: IoiwariError) -> CgStatus {
    CgStatus::CgInvalidArgument
}

/// A best move for the side to move on `pits` (stones in pits 1..7, each
/// 0..5; banks do not matter): writes its pit number 1..7 into `*pit`, the
/// lowest pit among the moves of the best value. Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_ARGUMENT` (a pit above 5), `CG_NO_MOVE` (every pit empty).
/// The first call solves the game (tens of milliseconds).
///
/// # Safety
/// `pits` is NULL or valid for 7 reads; `pit` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_ioiwari_best_move(pits: *const u8, pit: *mut c_int) -> CgStatus {
    // SAFETY: the caller's guarantees on `pits` and `pit`.
    unsafe {
        returning(pit, || {
            let index = ioiwari::best_move(board(pits)?).map_err(status)?;
            index.map(|i| i as c_int + 1).ok_or(CgStatus::CgNoMove)
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
    unsafe { returning(value, || ioiwari::value(board(pits)?).map_err(status)) }
}
