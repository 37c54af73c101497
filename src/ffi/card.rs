//! C ABI for cards: `cg_card` values, parsing and formatting in both notations.

use std::ffi::c_char;

use super::{guard, returning, str_arg, write_text, CgStatus, Result};
use crate::card::{Card, Notation, Rank, Suit};

/// Which notation a card text uses; pass as the `notation` argument.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CgNotation {
    /// `As`, `Td`, `2c`: 13 ranks, lower-case suit.
    Homework = 0,
    /// `AS`, `TD`, `6C`: ranks 6..A, upper-case suit.
    Durak = 1,
}

/// A card as a plain value: `rank` 2..14 (T = 10, J = 11, Q = 12, K = 13,
/// A = 14), `suit` 0..3 in the order s, h, c, d.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgCard {
    /// 2..14.
    pub rank: u8,
    /// 0 spades, 1 hearts, 2 clubs, 3 diamonds.
    pub suit: u8,
}

impl From<Card> for CgCard {
    fn from(card: Card) -> CgCard {
        CgCard {
            rank: card.rank as u8,
            suit: card.suit as u8,
        }
    }
}

impl TryFrom<CgCard> for Card {
    type Error = CgStatus;

    fn try_from(card: CgCard) -> Result<Card> {
        let rank = Rank::from_number(card.rank).ok_or(CgStatus::CgBadCard)?;
        let suit = Suit::from_index(usize::from(card.suit)).ok_or(CgStatus::CgBadCard)?;
        Ok(Card::new(rank, suit))
    }
}

/// A `cg_notation` number from C.
pub(crate) fn notation(value: u32) -> Result<Notation> {
    match value {
        0 => Ok(Notation::Homework),
        1 => Ok(Notation::Durak),
        _ => Err(CgStatus::CgInvalidArgument),
    }
}

/// Reads a card: `text` is its two characters in `notation` (a `cg_notation`).
/// Errors: `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_INVALID_ARGUMENT` (notation),
/// `CG_BAD_CARD`.
///
/// # Safety
/// `text` is NULL or a NUL-terminated string; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_card_parse(
    text: *const c_char,
    notation: u32,
    out: *mut CgCard,
) -> CgStatus {
    // SAFETY: the caller's guarantees: `text` is NULL or a NUL-terminated
    // string, `out` is NULL or valid for a write.
    unsafe {
        returning(out, || {
            let text = str_arg(text)?;
            let notation = self::notation(notation)?;
            Card::parse(text, notation)
                .map(CgCard::from)
                .map_err(|_| CgStatus::CgBadCard)
        })
    }
}

/// Writes a card's two characters and a NUL in `notation` into `buf` (`len`
/// bytes, so at least 3) and 2 into `*needed`. Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_ARGUMENT`, `CG_BAD_CARD` (no such card, or below 6 in Durak
/// notation), `CG_BUFFER_TOO_SMALL` (with `*needed` set).
///
/// # Safety
/// `buf` is NULL or valid for `len` bytes; `needed` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_card_format(
    card: CgCard,
    notation: u32,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> CgStatus {
    guard(|| {
        let notation = self::notation(notation)?;
        let card = Card::try_from(card)?;
        if !notation.admits(card.rank) {
            return Err(CgStatus::CgBadCard);
        }
        let text = card.display(notation).to_string();
        // SAFETY: the caller's buffer and `needed` guarantees.
        unsafe { write_text(&text, buf, len, needed) }
    })
}

/// The homework's value of a card (`specs/homework.md`, "The deck"): A = 15,
/// K = 14, Q = 13, J = 12, T = 10, 9..2 their face value (there is no 11).
/// War compares these and turns this many cards in a war. Returns 0 for a
/// `cg_card` that is no card (rank not 2..14 or suit not 0..3).
#[no_mangle]
pub extern "C" fn cg_card_value(card: CgCard) -> i32 {
    Card::try_from(card).map_or(0, |card| i32::from(card.rank.war_value()))
}
