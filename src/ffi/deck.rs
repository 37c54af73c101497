//! C ABI for the linked-list deck and its four shuffles: the opaque `cg_deck`.

use std::ffi::c_char;

use super::card::{admitted, card_error, notation, CgCard};
use super::{
    fail, guard, mut_arg, null, plural, ref_arg, returning, shielded, str_arg, write_optional,
    write_text, CgStatus, Out, Result,
};
use crate::card::{Card, Suit};
use crate::deck::{Deck, Iter};
use crate::shuffle::Shuffle;

/// An opaque deck handle: create with `cg_deck_new`, `cg_deck_new_empty`,
/// `cg_deck_from_str`, `cg_deck_clone` or `cg_deck_split_off`, release with
/// `cg_deck_free`. The games lend `const cg_deck *` views of their piles,
/// which the caller never frees.
#[repr(transparent)]
pub struct CgDeck(pub(crate) Deck);

impl CgDeck {
    /// A borrowed deck seen as a handle (same layout: `repr(transparent)`).
    pub(crate) fn view(deck: &Deck) -> *const CgDeck {
        std::ptr::from_ref(deck).cast::<CgDeck>()
    }
}

fn handle(deck: Deck) -> *mut CgDeck {
    Box::into_raw(Box::new(CgDeck(deck)))
}

/// Creates the canonical 52-card deck `As Ah Ac Ad Ks .. 2d` (top first;
/// `docs/rules/homework.md` §1.2) into `*out`.
/// Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_new(out: *mut *mut CgDeck) -> CgStatus {
    // SAFETY: the caller's guarantee on `out`.
    unsafe { returning("cg_deck_new", out, "out", || Ok(handle(Deck::standard()))) }
}

/// Creates a deck from cards separated by white space, top first, in
/// `notation` (a `cg_notation`); `""` gives an empty deck. A deck is a pile,
/// not a set: the same card may appear more than once (`"As As"` is a pile
/// of two aces of spades), as in any pile the list operations build. The
/// homework's deck is always the 52 distinct cards of `cg_deck_new`. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_INVALID_ARGUMENT` (notation),
/// `CG_BAD_CARD` (the last error quotes the first bad card).
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
        returning("cg_deck_from_str", out, "out", || {
            let text = str_arg(text, "text")?;
            let notation = self::notation(notation)?;
            let deck = Deck::parse(text, notation);
            deck.map(handle).map_err(|e| card_error(&e, notation))
        })
    }
}

/// Frees a deck; NULL is accepted and ignored.
///
/// # Safety
/// `deck` is NULL or a handle from this library not freed before.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_free(deck: *mut CgDeck) {
    shielded((), || {
        if !deck.is_null() {
            // SAFETY: a live handle made by `Box::into_raw` in `handle`,
            // freed once (caller guarantee).
            drop(unsafe { Box::from_raw(deck) });
        }
    });
}

/// Writes the number of cards into `*out`. Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_len(deck: *const CgDeck, out: *mut usize) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_deck_len", out, "out", || {
            Ok(ref_arg(deck, "deck")?.0.len())
        })
    }
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
        returning("cg_deck_get", out, "out", || {
            let deck = &ref_arg(deck, "deck")?.0;
            deck.get(index).map(CgCard::from).ok_or_else(|| {
                fail(
                    CgStatus::CgOutOfRange,
                    format!(
                        "index {index} is past the end of a deck of {} cards (0 is the top)",
                        deck.len()
                    ),
                )
            })
        })
    }
}

/// Writes the cards separated by one space in `notation` and a NUL into
/// `buf` (`len` bytes), and the text's length without the NUL into
/// `*needed` (optional: NULL is allowed), also when the buffer is too small
/// (then `buf` is untouched and the status is `CG_BUFFER_TOO_SMALL`). A
/// 52-card deck needs 156 bytes; `buf` NULL with `len` 0 learns the size.
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
    guard("cg_deck_to_str", || {
        // SAFETY: NULL or a live handle (caller guarantee).
        let deck = unsafe { ref_arg(deck, "deck") }?;
        let notation = self::notation(notation)?;
        for card in &deck.0 {
            admitted(card, notation)?;
        }
        let text = deck.0.display(notation).to_string();
        // SAFETY: the caller's buffer and `needed` guarantees.
        unsafe { write_text(&text, "buf", buf, len, needed) }
    })
}

/// Runs the exported shuffle `name` inside the boundary: `make` builds the
/// shuffle from the arguments (recording its error), then it is applied.
///
/// # Safety
/// `deck` is NULL or a live handle not used elsewhere during the call.
unsafe fn shuffle(
    name: &'static str,
    deck: *mut CgDeck,
    make: impl FnOnce() -> Result<Shuffle> + std::panic::UnwindSafe,
) -> CgStatus {
    guard(name, || {
        // SAFETY: the caller's guarantee: NULL or a live handle not used
        // elsewhere during the call.
        let deck = unsafe { mut_arg(deck, "deck") }?;
        make()?
            .apply(&mut deck.0)
            .map_err(|e| fail(CgStatus::CgBadShuffle, e))
    })
}

/// Applies one shuffle line of the homework's format (`"inversare"`,
/// `"npiles 4 1 4 3 2"`, `"intercalare"`, `"mongean"`; the four shuffles and
/// the line format: `docs/rules/homework.md` §3); the deck is unchanged on
/// error, and the last error says what is wrong with the line. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_BAD_SHUFFLE`.
///
/// # Safety
/// `deck` is NULL or a live handle; `line` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_shuffle(deck: *mut CgDeck, line: *const c_char) -> CgStatus {
    let make = || {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let line = unsafe { str_arg(line, "line") }?;
        Shuffle::parse_line(line).map_err(|e| fail(CgStatus::CgBadShuffle, e))
    };
    // SAFETY: the caller's guarantee on `deck`.
    unsafe { shuffle("cg_deck_shuffle", deck, make) }
}

/// Reverses the deck (`inversare`, `docs/rules/homework.md` §3.1). Errors:
/// `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_reverse(deck: *mut CgDeck) -> CgStatus {
    // SAFETY: the caller's guarantee on `deck`.
    unsafe { shuffle("cg_deck_reverse", deck, || Ok(Shuffle::Reverse)) }
}

/// Cuts the deck into `k` equal piles of consecutive cards (pile 1 holds the
/// top cards) and stacks them in the order of the 1-based pile numbers
/// `order[0..k]`: pile `order[0]` ends on top (`npiles`,
/// `docs/rules/homework.md` §3.2). Errors: `CG_NULL_POINTER`,
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
    let make = || {
        if order.is_null() {
            return Err(null("order"));
        }
        // SAFETY: non-NULL and valid for `k` reads (caller guarantee).
        let order = unsafe { std::slice::from_raw_parts(order, k) };
        Shuffle::npiles(order.to_vec()).map_err(|e| fail(CgStatus::CgBadShuffle, e))
    };
    // SAFETY: the caller's guarantee on `deck`.
    unsafe { shuffle("cg_deck_npiles", deck, make) }
}

/// Interleaves the two halves, starting with the top card of the first
/// (top) half (`intercalare`, `docs/rules/homework.md` §3.3). Errors:
/// `CG_NULL_POINTER`, `CG_BAD_SHUFFLE` (an odd number of cards).
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_interleave(deck: *mut CgDeck) -> CgStatus {
    // SAFETY: the caller's guarantee on `deck`.
    unsafe { shuffle("cg_deck_interleave", deck, || Ok(Shuffle::Interleave)) }
}

/// The Mongean shuffle (`mongean`, `docs/rules/homework.md` §3.4). Errors:
/// `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_mongean(deck: *mut CgDeck) -> CgStatus {
    // SAFETY: the caller's guarantee on `deck`.
    unsafe { shuffle("cg_deck_mongean", deck, || Ok(Shuffle::Mongean)) }
}

/// Creates an empty deck into `*out`. Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_new_empty(out: *mut *mut CgDeck) -> CgStatus {
    // SAFETY: the caller's guarantee on `out`.
    unsafe { returning("cg_deck_new_empty", out, "out", || Ok(handle(Deck::new()))) }
}

/// Creates a copy of `deck` (same cards, same order) into `*out`; the copy
/// is the caller's to free. Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle (or a game's view); `out` is NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_clone(deck: *const CgDeck, out: *mut *mut CgDeck) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_deck_clone", out, "out", || {
            Ok(handle(ref_arg(deck, "deck")?.0.clone()))
        })
    }
}

/// Puts `card` on top of the deck. O(1). Any card may be pushed, also one
/// the deck already holds. Errors: `CG_NULL_POINTER`, `CG_BAD_CARD` (rank not
/// 2..14 or suit not 0..3).
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_push_front(deck: *mut CgDeck, card: CgCard) -> CgStatus {
    guard("cg_deck_push_front", || {
        // SAFETY: NULL or a live handle not used elsewhere (caller guarantee).
        let deck = unsafe { mut_arg(deck, "deck") }?;
        deck.0.push_front(Card::try_from(card)?);
        Ok(())
    })
}

/// Puts `card` at the bottom of the deck (walks the list: O(n)). Errors:
/// `CG_NULL_POINTER`, `CG_BAD_CARD`.
///
/// # Safety
/// `deck` is NULL or a live handle.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_push_back(deck: *mut CgDeck, card: CgCard) -> CgStatus {
    guard("cg_deck_push_back", || {
        // SAFETY: NULL or a live handle not used elsewhere (caller guarantee).
        let deck = unsafe { mut_arg(deck, "deck") }?;
        deck.0.push_back(Card::try_from(card)?);
        Ok(())
    })
}

/// Takes the top card off the deck into `*out`. O(1). Errors:
/// `CG_NULL_POINTER`, `CG_EMPTY` (the deck is unchanged, `*out` untouched).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_pop_front(deck: *mut CgDeck, out: *mut CgCard) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_deck_pop_front", out, "out", || {
            let deck = mut_arg(deck, "deck")?;
            deck.0.pop_front().map(CgCard::from).ok_or_else(empty_deck)
        })
    }
}

/// Writes the top card into `*out`, leaving the deck as it is. Errors:
/// `CG_NULL_POINTER`, `CG_EMPTY`.
///
/// # Safety
/// `deck` is NULL or a live handle (or a game's view); `out` is NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_peek_front(deck: *const CgDeck, out: *mut CgCard) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_deck_peek_front", out, "out", || {
            let deck = ref_arg(deck, "deck")?;
            deck.0.front().map(CgCard::from).ok_or_else(empty_deck)
        })
    }
}

/// `CG_EMPTY` for a deck with no card to take.
fn empty_deck() -> CgStatus {
    fail(CgStatus::CgEmpty, "the deck is empty")
}

/// `CG_EMPTY` for a move from an empty `from`.
fn empty_from() -> CgStatus {
    fail(CgStatus::CgEmpty, "from is empty: no card to move")
}

/// The two decks of a move, `from` and `to`, which may be the same handle.
enum Pair<'a> {
    Two(&'a mut Deck, &'a mut Deck),
    Same(&'a mut Deck),
}

/// Borrows the decks of a two-deck call.
///
/// # Safety
/// Each pointer is NULL or a live handle not used elsewhere during the call.
unsafe fn pair<'a>(from: *mut CgDeck, to: *mut CgDeck, names: [&str; 2]) -> Result<Pair<'a>> {
    if std::ptr::eq(from, to) {
        // SAFETY: the caller's guarantee; one borrow of the one deck.
        return Ok(Pair::Same(&mut unsafe { mut_arg(from, names[0]) }?.0));
    }
    // SAFETY: the caller's guarantee; distinct pointers to distinct handles,
    // so the two exclusive borrows do not alias.
    let (from, to) = unsafe { (mut_arg(from, names[0])?, mut_arg(to, names[1])?) };
    Ok(Pair::Two(&mut from.0, &mut to.0))
}

/// Writes the moved card into an optional out-pointer.
///
/// # Safety
/// `moved` is NULL or valid for a write.
unsafe fn report(moved: *mut CgCard, card: Card) {
    // SAFETY: the caller's guarantee.
    unsafe { write_optional(moved, CgCard::from(card)) };
}

/// Moves the top card of `from` onto the top of `to` by relinking its node
/// (no allocation, O(1)), and writes it into `*moved` unless `moved` is
/// NULL. `from == to` leaves the deck as it is. Errors: `CG_NULL_POINTER`
/// (`from` or `to`), `CG_EMPTY` (`from` is empty; nothing changes).
///
/// # Safety
/// `from` and `to` are NULL or live handles; `moved` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_move_front_to(
    from: *mut CgDeck,
    to: *mut CgDeck,
    moved: *mut CgCard,
) -> CgStatus {
    guard("cg_deck_move_front_to", || {
        // SAFETY: the caller's guarantees on `from` and `to`.
        let card = match unsafe { pair(from, to, ["from", "to"]) }? {
            Pair::Two(from, to) => from.move_front_to(to),
            Pair::Same(deck) => deck.front(),
        };
        // SAFETY: the caller's guarantee on `moved`.
        unsafe { report(moved, card.ok_or_else(empty_from)?) };
        Ok(())
    })
}

/// Moves the top card of `from` to the bottom of `to` by relinking its node
/// (walks `to`: O(len of `to`)), and writes it into `*moved` unless `moved`
/// is NULL. `from == to` moves the top card to the bottom of the same deck.
/// Errors: `CG_NULL_POINTER`, `CG_EMPTY`.
///
/// # Safety
/// `from` and `to` are NULL or live handles; `moved` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_move_front_to_back(
    from: *mut CgDeck,
    to: *mut CgDeck,
    moved: *mut CgCard,
) -> CgStatus {
    guard("cg_deck_move_front_to_back", || {
        // SAFETY: the caller's guarantees on `from` and `to`.
        let card = match unsafe { pair(from, to, ["from", "to"]) }? {
            Pair::Two(from, to) => from.move_front_to_back(to),
            Pair::Same(deck) => deck.rotate_front_to_back(),
        };
        // SAFETY: the caller's guarantee on `moved`.
        unsafe { report(moved, card.ok_or_else(empty_from)?) };
        Ok(())
    })
}

/// Moves every card of `other` to the bottom of `deck`, keeping their order,
/// and leaves `other` empty (relinks: walks `deck` once, no allocation).
/// Errors: `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (`deck == other`).
///
/// # Safety
/// `deck` and `other` are NULL or live handles.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_append(deck: *mut CgDeck, other: *mut CgDeck) -> CgStatus {
    guard("cg_deck_append", || {
        // SAFETY: the caller's guarantees on both handles.
        match unsafe { pair(deck, other, ["deck", "other"]) }? {
            Pair::Two(deck, other) => deck.append(other),
            Pair::Same(_) => {
                return Err(fail(
                    CgStatus::CgInvalidArgument,
                    "deck and other are the same deck: a deck cannot be appended to itself",
                ))
            }
        }
        Ok(())
    })
}

/// Splits the deck: it keeps its first `at` cards and the rest goes, in
/// order, into a new deck written into `*out` (walks `at` nodes, no copy).
/// `at == len` gives an empty new deck. Errors: `CG_NULL_POINTER`,
/// `CG_OUT_OF_RANGE` (`at` past the end; nothing changes).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_split_off(
    deck: *mut CgDeck,
    at: usize,
    out: *mut *mut CgDeck,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_deck_split_off", out, "out", || {
            let deck = mut_arg(deck, "deck")?;
            if at > deck.0.len() {
                return Err(fail(
                    CgStatus::CgOutOfRange,
                    format!(
                        "index {at} is past the end of a deck of {}",
                        plural(deck.0.len() as u64, "card")
                    ),
                ));
            }
            Ok(handle(deck.0.split_off(at)))
        })
    }
}

/// Moves the first card (from the top) of suit `suit` (0 s, 1 h, 2 c, 3 d)
/// out of `from` onto the top of `to` by relinking its node, and writes it
/// into `*moved` unless `moved` is NULL: what Rolling Stone's "play the first
/// card of the suit" needs. `from == to` puts that card on top of the same
/// deck. Errors: `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (suit),
/// `CG_EMPTY` (no card of that suit; nothing changes).
///
/// # Safety
/// `from` and `to` are NULL or live handles; `moved` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_move_first_matching_to(
    from: *mut CgDeck,
    suit: u32,
    to: *mut CgDeck,
    moved: *mut CgCard,
) -> CgStatus {
    guard("cg_deck_move_first_matching_to", || {
        let suit_number = suit;
        let suit = usize::try_from(suit)
            .ok()
            .and_then(Suit::from_index)
            .ok_or_else(|| {
                fail(
                    CgStatus::CgInvalidArgument,
                    format!("suit {suit} is not 0..3 (0 s, 1 h, 2 c, 3 d)"),
                )
            })?;
        let matches = |card: Card| card.suit == suit;
        // SAFETY: the caller's guarantees on `from` and `to`.
        let card = match unsafe { pair(from, to, ["from", "to"]) }? {
            Pair::Two(from, to) => from.move_first_matching_to(matches, to),
            Pair::Same(deck) => {
                let mut taken = Deck::new();
                let card = deck.move_first_matching_to(matches, &mut taken);
                taken.append(deck);
                std::mem::swap(deck, &mut taken);
                card
            }
        };
        let card = card.ok_or_else(|| {
            fail(
                CgStatus::CgEmpty,
                format!("from holds no card of suit {suit_number} ({})", suit.code()),
            )
        })?;
        // SAFETY: the caller's guarantee on `moved`.
        unsafe { report(moved, card) };
        Ok(())
    })
}

/// Writes all the cards, top first, into `cards[0..len]` (one walk, O(n))
/// and their number into `*count`, also on `CG_BUFFER_TOO_SMALL` (then
/// `cards` is untouched). `cards` may be NULL with `cap` 0, to learn the
/// count. Errors: `CG_NULL_POINTER` (`deck`, `count`, or `cards` with `cap` >
/// 0), `CG_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `deck` is NULL or a live handle (or a game's view); `cards` is NULL or
/// valid for `cap` writes; `count` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_cards(
    deck: *const CgDeck,
    cards: *mut CgCard,
    cap: usize,
    count: *mut usize,
) -> CgStatus {
    guard("cg_deck_cards", || {
        // SAFETY: NULL or a live handle (caller guarantee).
        let deck = unsafe { ref_arg(deck, "deck") }?;
        let count = Out::new(count, "count")?;
        let len = deck.0.len();
        if cap > 0 && cards.is_null() {
            return Err(fail(
                CgStatus::CgNullPointer,
                format!("cards is NULL but cap is {cap} (NULL is allowed with cap 0, to learn the count)"),
            ));
        }
        if len > cap {
            // SAFETY: non-NULL, valid for a write (caller guarantee).
            unsafe { count.write(len) };
            return Err(fail(
                CgStatus::CgBufferTooSmall,
                format!(
                    "cards holds {}, the deck has {len}",
                    plural(cap as u64, "card")
                ),
            ));
        }
        for (i, card) in deck.0.iter().enumerate() {
            // SAFETY: `i < len <= cap`, and `cards` is valid for `cap` writes.
            unsafe { cards.add(i).write(CgCard::from(card)) };
        }
        // SAFETY: as above.
        unsafe { count.write(len) };
        Ok(())
    })
}

/// A position in a deck for `cg_deck_iter_next`: a plain value the caller
/// keeps (on the stack), set up by `cg_deck_iter_init`. It borrows the deck:
/// the deck must not change or be freed while the iterator is in use.
#[repr(C)]
#[derive(Debug, Clone, Copy)]
pub struct CgDeckIter {
    /// Private: the next node, NULL at the end.
    pub node: *const std::ffi::c_void,
}

/// Sets `*iter` to the top of `deck`. Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `deck` is NULL or a live handle (or a game's view); `iter` is NULL or
/// valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_iter_init(deck: *const CgDeck, iter: *mut CgDeckIter) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `iter`.
    unsafe {
        returning("cg_deck_iter_init", iter, "iter", || {
            let iter: Iter<'_> = ref_arg(deck, "deck")?.0.iter();
            // SAFETY: `Iter` is `repr(transparent)` over `Option<&Node>`,
            // which is one pointer wide (NULL for `None`).
            let node = std::mem::transmute::<Iter<'_>, *const std::ffi::c_void>(iter);
            Ok(CgDeckIter { node })
        })
    }
}

/// Writes the next card into `*out` and advances: returns 1 when a card was
/// written, 0 at the end of the deck or when `iter` or `out` is NULL
/// (then nothing is written).
///
/// # Safety
/// `iter` is NULL or was set by `cg_deck_iter_init` on a deck that has not
/// changed or been freed since; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_deck_iter_next(iter: *mut CgDeckIter, out: *mut CgCard) -> i32 {
    // SAFETY: the caller's guarantees on `iter` and `out`.
    shielded(0, || unsafe { iter_next(iter, out) })
}

/// The body of `cg_deck_iter_next`.
///
/// # Safety
/// As `cg_deck_iter_next`.
unsafe fn iter_next(iter: *mut CgDeckIter, out: *mut CgCard) -> i32 {
    // SAFETY: NULL or a valid iterator (caller guarantee).
    let (Some(iter), false) = (unsafe { iter.as_mut() }, out.is_null()) else {
        return 0;
    };
    // SAFETY: `node` came from `cg_deck_iter_init` or this function as a
    // transmuted `Iter` of a deck that is still alive and unchanged (caller
    // guarantee), so it is NULL or a live node.
    let mut cursor = unsafe { std::mem::transmute::<*const std::ffi::c_void, Iter<'_>>(iter.node) };
    let Some(card) = cursor.next() else {
        return 0;
    };
    // SAFETY: as in `cg_deck_iter_init`.
    iter.node = unsafe { std::mem::transmute::<Iter<'_>, *const std::ffi::c_void>(cursor) };
    // SAFETY: non-NULL and valid for a write (caller guarantee).
    unsafe { out.write(CgCard::from(card)) };
    1
}
