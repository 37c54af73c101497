//! C ABI for the linked-list deck and its four shuffles: the opaque `cg_deck`.

use std::ffi::c_char;

use super::card::{notation, CgCard};
use super::{guard, mut_arg, ref_arg, returning, str_arg, write_text, CgStatus, Result};
use crate::deck::Deck;
use crate::shuffle::Shuffle;

/// An opaque deck handle: create with `cg_deck_new` or `cg_deck_from_str`,
/// release with `cg_deck_free`.
pub struct CgDeck(pub(crate) Deck);

fn handle(deck: Deck) -> *mut CgDeck {
    Box::into_raw(Box::new(CgDeck(deck)))
}

/// Creates the canonical 52-card deck `As Ah Ac Ad Ks .. 2d` into `*out`.
/// Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_new(out: *mut *mut CgDeck) -> CgStatus {
    // SAFETY: the caller's guarantee on `out`.
    unsafe { returning(out, || Ok(handle(Deck::standard()))) }
}

/// Creates a deck from cards separated by white space, top first, in
/// `notation` (a `cg_notation`); `""` gives an empty deck. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_INVALID_ARGUMENT`, `CG_BAD_CARD`.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_from_str(
    text: *const c_char,
    notation: u32,
    out: *mut *mut CgDeck,
) -> CgStatus {
    // SAFETY: the caller's guarantees: `text` is NULL or a NUL-terminated
    // string, `out` is NULL or valid for a write.
    unsafe {
        returning(out, || {
            let text = str_arg(text)?;
            let deck = Deck::parse(text, self::notation(notation)?);
            deck.map(handle).map_err(|_| CgStatus::CgBadCard)
        })
    }
}

/// Frees a deck; NULL is accepted and ignored.
///
/// # Safety
/// `deck` is NULL or a handle from this library not freed before.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_free(deck: *mut CgDeck) {
    if !deck.is_null() {
        // SAFETY: a live handle made by `Box::into_raw` in `new_handle`,
        // freed once (caller guarantee). Dropping a deck cannot panic.
        drop(unsafe { Box::from_raw(deck) });
    }
}

/// Writes the number of cards into `*out`. Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_len(deck: *const CgDeck, out: *mut usize) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe { returning(out, || Ok(ref_arg(deck)?.0.len())) }
}

/// Writes the card at `index` (0 = top) into `*out`. Errors:
/// `CG_NULL_POINTER`, `CG_OUT_OF_RANGE`.
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_get(
    deck: *const CgDeck,
    index: usize,
    out: *mut CgCard,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning(out, || {
            let card = ref_arg(deck)?.0.get(index);
            card.map(CgCard::from).ok_or(CgStatus::CgOutOfRange)
        })
    }
}

/// Writes the cards separated by one space in `notation` and a NUL into
/// `buf` (`len` bytes), and the text's length without the NUL into
/// `*needed`, also when the buffer is too small (then `buf` is untouched and
/// the status is `CG_BUFFER_TOO_SMALL`). A 52-card deck needs 156 bytes.
/// Errors: `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT`, `CG_BAD_CARD` (a card
/// below 6 in Durak notation), `CG_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `deck` is NULL or a live handle; `buf` is NULL or valid for `len` bytes;
/// `needed` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_to_str(
    deck: *const CgDeck,
    notation: u32,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> CgStatus {
    guard(|| {
        // SAFETY: NULL or a live handle (caller guarantee).
        let deck = unsafe { ref_arg(deck) }?;
        let notation = self::notation(notation)?;
        if !deck.0.iter().all(|card| notation.admits(card.rank)) {
            return Err(CgStatus::CgBadCard);
        }
        let text = deck.0.display(notation).to_string();
        // SAFETY: the caller's buffer and `needed` guarantees.
        unsafe { write_text(&text, buf, len, needed) }
    })
}

fn shuffle(deck: *mut CgDeck, shuffle: Result<Shuffle>) -> CgStatus {
    guard(|| {
        // SAFETY: every exported caller passes on its caller's guarantee:
        // NULL or a live handle not used elsewhere during the call.
        let deck = unsafe { mut_arg(deck) }?;
        shuffle?
            .apply(&mut deck.0)
            .map_err(|_| CgStatus::CgBadShuffle)
    })
}

/// Applies one shuffle line of the homework's format (`"inversare"`,
/// `"npiles 4 1 4 3 2"`, `"intercalare"`, `"mongean"`); the deck is unchanged
/// on error. Errors: `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_BAD_SHUFFLE`.
///
/// # Safety
/// `deck` is NULL or a live handle; `line` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_shuffle(deck: *mut CgDeck, line: *const c_char) -> CgStatus {
    // SAFETY: the caller passes NULL or a NUL-terminated string.
    let parsed = unsafe { str_arg(line) }
        .and_then(|line| Shuffle::parse_line(line).map_err(|_| CgStatus::CgBadShuffle));
    shuffle(deck, parsed)
}

/// Reverses the deck (`inversare`). Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_reverse(deck: *mut CgDeck) -> CgStatus {
    shuffle(deck, Ok(Shuffle::Reverse))
}

/// Cuts the deck into `k` equal piles and stacks them in the order of the
/// 1-based pile numbers `order[0..k]` (`npiles`). Errors: `CG_NULL_POINTER`,
/// `CG_BAD_SHUFFLE` (not a permutation of 1..k, or k does not divide the deck).
///
/// # Safety
/// `deck` is NULL or a live handle; `order` is NULL or valid for `k` reads.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_npiles(
    deck: *mut CgDeck,
    order: *const usize,
    k: usize,
) -> CgStatus {
    let order = if order.is_null() {
        Err(CgStatus::CgNullPointer)
    } else {
        // SAFETY: non-NULL and valid for `k` reads (caller guarantee).
        let order = unsafe { std::slice::from_raw_parts(order, k) };
        Shuffle::npiles(order.to_vec()).map_err(|_| CgStatus::CgBadShuffle)
    };
    shuffle(deck, order)
}

/// Interleaves the two halves (`intercalare`). Errors: `CG_NULL_POINTER`,
/// `CG_BAD_SHUFFLE` (an odd number of cards).
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_interleave(deck: *mut CgDeck) -> CgStatus {
    shuffle(deck, Ok(Shuffle::Interleave))
}

/// The Mongean shuffle (`mongean`). Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_mongean(deck: *mut CgDeck) -> CgStatus {
    shuffle(deck, Ok(Shuffle::Mongean))
}
