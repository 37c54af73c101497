//! C ABI for cards: `cg_card` values, parsing and formatting in both notations.

use std::ffi::c_char;

use super::{fail, guard, returning, shielded, str_arg, write_text, CgStatus, Result};
use crate::card::{Card, CardError, Notation, Rank, Suit};

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
/// A = 14), `suit` 0..3 in the order s, h, c, d. The rank number is not the
/// card's War value: `cg_card_value` gives that (J = 12 .. A = 15, no 11).
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

    /// `CG_BAD_CARD` (recorded with its detail) for a rank outside 2..14 or
    /// a suit outside 0..3.
    fn try_from(card: CgCard) -> Result<Card> {
        let rank = Rank::from_number(card.rank).ok_or_else(|| {
            fail(
                CgStatus::CgBadCard,
                format!(
                    "card {{rank {}, suit {}}}: rank {} is not 2..14 (T = 10, J = 11, Q = 12, K = 13, A = 14)",
                    card.rank, card.suit, card.rank
                ),
            )
        })?;
        let suit = Suit::from_index(usize::from(card.suit)).ok_or_else(|| {
            fail(
                CgStatus::CgBadCard,
                format!(
                    "card {{rank {}, suit {}}}: suit {} is not 0..3 (0 s, 1 h, 2 c, 3 d)",
                    card.rank, card.suit, card.suit
                ),
            )
        })?;
        Ok(Card::new(rank, suit))
    }
}

/// A `cg_notation` number from C.
pub(crate) fn notation(value: u32) -> Result<Notation> {
    match value {
        0 => Ok(Notation::Homework),
        1 => Ok(Notation::Durak),
        _ => Err(fail(
            CgStatus::CgInvalidArgument,
            format!(
                "notation {value} is neither CG_NOTATION_HOMEWORK (0) nor CG_NOTATION_DURAK (1)"
            ),
        )),
    }
}

/// What a card's text looks like in `notation`, for messages.
pub(crate) const fn notation_hint(notation: Notation) -> &'static str {
    match notation {
        Notation::Homework => {
            "homework notation: a rank of A K Q J T 9 8 7 6 5 4 3 2, then a suit of s h c d, e.g. \"Td\""
        }
        Notation::Durak => {
            "Durak notation: a rank of A K Q J T 9 8 7 6, then a suit of S H C D, e.g. \"TD\""
        }
    }
}

/// `CG_BAD_CARD` for a card text that does not parse, with what the
/// notation expects.
pub(crate) fn card_error(error: &CardError, notation: Notation) -> CgStatus {
    fail(
        CgStatus::CgBadCard,
        format!("{error} ({})", notation_hint(notation)),
    )
}

/// `CG_BAD_CARD` unless every card has a text in `notation` (Durak has no
/// rank below 6).
pub(crate) fn admitted(card: Card, notation: Notation) -> Result<()> {
    if notation.admits(card.rank) {
        Ok(())
    } else {
        Err(fail(
            CgStatus::CgBadCard,
            format!(
                "card {} has no Durak notation (the Durak deck holds ranks 6..A only)",
                card.display(Notation::Homework)
            ),
        ))
    }
}

/// Reads a card: `text` is its two characters in `notation` (a
/// `cg_notation`: `Td` in the homework's, `TD` in Durak's;
/// `docs/rules/homework.md` §1.1, `docs/rules/durak.md` §1.2).
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
        returning("cg_card_parse", out, "out", || {
            let text = str_arg(text, "text")?;
            let notation = self::notation(notation)?;
            Card::parse(text, notation)
                .map(CgCard::from)
                .map_err(|e| card_error(&e, notation))
        })
    }
}

/// Writes a card's two characters and a NUL in `notation` into `buf` (`len`
/// bytes, so at least 3) and 2 into `*needed` (optional: NULL is allowed).
/// Errors: `CG_NULL_POINTER` (`buf` NULL with `len` > 0),
/// `CG_INVALID_ARGUMENT` (notation), `CG_BAD_CARD` (no such card, or below 6
/// in Durak notation), `CG_BUFFER_TOO_SMALL` (with `*needed` set).
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
    guard("cg_card_format", || {
        let notation = self::notation(notation)?;
        let card = Card::try_from(card)?;
        admitted(card, notation)?;
        let text = card.display(notation).to_string();
        // SAFETY: the caller's buffer and `needed` guarantees.
        unsafe { write_text(&text, "buf", buf, len, needed) }
    })
}

/// The homework's value of a card (`docs/rules/homework.md` §1): A = 15,
/// K = 14, Q = 13, J = 12, T = 10, 9..2 their face value (there is no 11),
/// so an array indexed by it needs 16 slots. This is not `cg_card.rank`
/// (J = 11 .. A = 14). War compares these and turns up to this many cards in
/// a war. Returns 0 for a `cg_card` that is no card (rank not 2..14 or suit
/// not 0..3); it sets no last error.
#[no_mangle]
pub extern "C" fn cg_card_value(card: CgCard) -> i32 {
    shielded(0, || {
        let rank = Rank::from_number(card.rank);
        let suit = Suit::from_index(usize::from(card.suit));
        rank.zip(suit)
            .map_or(0, |(rank, _)| i32::from(rank.war_value()))
    })
}
