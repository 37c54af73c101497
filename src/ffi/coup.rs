//! C ABI for the Coup bot: one decision from the arbiter's inputs, and the
//! memory it keeps of each opponent across games (`cg_coup_memory`).

use std::ffi::c_char;

use super::{
    fail, guard, mut_arg, null, returning, shielded, str_arg, write_text, write_texts, CgStatus,
    Result, TextOut,
};
use crate::coup::memory::{Memory, HEADER};
use crate::coup::{
    decide, parse_hand, Config, CoupError, History, Recall, Remembered, Reply, Strategy, View,
};

/// An opaque handle on the Coup bot's memory of its opponents (what
/// `coup-bot` keeps in `coup-memory.txt`): create with
/// `cg_coup_memory_new`, fill with `cg_coup_memory_load`, keep up to date
/// with `cg_coup_memory_update`, pass to `cg_coup_decide_remembering`,
/// write out with `cg_coup_memory_text`, release with `cg_coup_memory_free`.
pub struct CgCoupMemory(Memory);

/// Creates an empty memory (every opponent unknown). Errors:
/// `CG_NULL_POINTER`.
///
/// # Safety
/// `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_coup_memory_new(out: *mut *mut CgCoupMemory) -> CgStatus {
    // SAFETY: the caller's guarantee on `out`.
    unsafe {
        returning("cg_coup_memory_new", out, "out", || {
            Ok(Box::into_raw(Box::new(CgCoupMemory(Memory::default()))))
        })
    }
}

/// Frees a memory; NULL is accepted and ignored.
///
/// # Safety
/// `memory` is NULL or a handle from `cg_coup_memory_new` not freed before.
#[no_mangle]
pub unsafe extern "C" fn cg_coup_memory_free(memory: *mut CgCoupMemory) {
    shielded((), || {
        if !memory.is_null() {
            // SAFETY: a live handle made by `Box::into_raw` in
            // `cg_coup_memory_new`, freed once (caller guarantee).
            drop(unsafe { Box::from_raw(memory) });
        }
    });
}

/// Replaces the memory's contents by those of `text`, a `coup-memory.txt`
/// of the current format (its first line `coup-memory v16`; a malformed
/// line is dropped alone, as `coup-bot` reads it); `""` empties it. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_BAD_INPUT` (another first
/// line, an older format's among them: the memory is unchanged).
///
/// # Safety
/// `memory` is NULL or a live handle; `text` is NULL or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn cg_coup_memory_load(
    memory: *mut CgCoupMemory,
    text: *const c_char,
) -> CgStatus {
    guard("cg_coup_memory_load", || {
        // SAFETY: the caller's guarantees on `memory` and `text`.
        let (memory, text) = unsafe { (mut_arg(memory, "memory")?, str_arg(text, "text")?) };
        let head = text.lines().next().unwrap_or(HEADER);
        if head != HEADER {
            return Err(fail(
                CgStatus::CgBadInput,
                format!("text starts {head:?}, not {HEADER:?}: not a memory of this format"),
            ));
        }
        memory.0 = Memory::parse(text);
        Ok(())
    })
}

/// Writes the memory as `coup-memory.txt`'s text (what
/// `cg_coup_memory_load` reads back) and a NUL into `buf` (`len` bytes),
/// its length into `*needed` (optional: NULL is allowed). Errors:
/// `CG_NULL_POINTER`, `CG_BUFFER_TOO_SMALL` (the length reported).
///
/// # Safety
/// `memory` is NULL or a live handle; `buf` is NULL or valid for `len`
/// bytes; `needed` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_coup_memory_text(
    memory: *mut CgCoupMemory,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> CgStatus {
    guard("cg_coup_memory_text", || {
        // SAFETY: the caller's guarantee on `memory`.
        let memory = unsafe { mut_arg(memory, "memory") }?;
        let text = memory.0.format();
        // SAFETY: the caller's guarantees on the buffer.
        unsafe { write_text(&text, "buf", buf, len, needed) }
    })
}

/// Updates the memory with a finished game: `history` is the whole text of
/// the game `game` (its history file's name, `<first>_<second>_<round>_<game>.txt`)
/// that the player named `me` played against `opponent`. When the memory
/// holds that game as pending (a game `cg_coup_decide_remembering` decided
/// in), its counts become the whole game's and it leaves the pending list,
/// as `coup-bot` settles a game from its history file; `*settled`
/// (optional: NULL is allowed) says whether it did (0 when the game was not
/// pending or is not finished). Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_UTF8`.
///
/// # Safety
/// `memory` is NULL or a live handle; each string is NULL or
/// NUL-terminated; `settled` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_coup_memory_update(
    memory: *mut CgCoupMemory,
    me: *const c_char,
    opponent: *const c_char,
    game: *const c_char,
    history: *const c_char,
    settled: *mut i32,
) -> CgStatus {
    guard("cg_coup_memory_update", || {
        // SAFETY: the caller's guarantees on the handle and the strings.
        let (memory, me, opponent, game, history) = unsafe {
            (
                mut_arg(memory, "memory")?,
                str_arg(me, "me")?,
                str_arg(opponent, "opponent")?,
                str_arg(game, "game")?,
                str_arg(history, "history")?,
            )
        };
        let done = memory.0.settle(me, opponent, game, history);
        // SAFETY: the caller's guarantee on `settled`.
        unsafe { super::write_optional(settled, i32::from(done)) };
        Ok(())
    })
}

/// Borrows the `count` strings of `legal`.
///
/// # Safety
/// `legal` is NULL or valid for `count` reads of NULL or NUL-terminated strings.
unsafe fn legal_answers(legal: *const *const c_char, count: usize) -> Result<Vec<String>> {
    if legal.is_null() {
        return Err(null("legal"));
    }
    // SAFETY: non-NULL and valid for `count` reads (caller guarantee).
    let pointers = unsafe { std::slice::from_raw_parts(legal, count) };
    pointers
        .iter()
        // SAFETY: each is NULL or a NUL-terminated string (caller guarantee).
        .enumerate()
        .map(|(i, &answer)| unsafe { str_arg(answer, &format!("legal[{i}]")) }.map(str::to_owned))
        .collect()
}

/// The checks of [`cg_coup_decide`]'s inputs that the bot's own reading forgives (the
/// command-line bot answers whatever it is given, so as never to forfeit; a C caller is told
/// instead): the history in the protocol's characters (`docs/rules/coup.md` §5), 1 to 4 cards
/// in revealed codes (§4: n+2 after an Exchange), coins not negative. A legal string the bot
/// does not know stays an answer it may give: the arbiter decides what is legal.
fn check_inputs(history: &str, opp_coins: i64, my_coins: i64, cards: &str) -> Result<()> {
    let bad = |e: String| fail(CgStatus::CgInvalidArgument, e);
    History::parse(history).map_err(|e| match e {
        CoupError::BadHistory(what) => bad(format!("history: {what}")),
        e => bad(format!("history: {e}")),
    })?;
    let hand = parse_hand(cards).map_err(|e| bad(format!("cards {cards:?}: {e}")))?;
    if !(1..=4).contains(&hand.len()) {
        return Err(bad(format!(
            "cards {cards:?}: {} cards, where a player asked holds 1 to 4",
            hand.len()
        )));
    }
    for (name, coins) in [("opp_coins", opp_coins), ("my_coins", my_coins)] {
        if coins < 0 {
            return Err(bad(format!(
                "{name} is {coins}: a player holds 0 coins or more"
            )));
        }
    }
    Ok(())
}

/// One Coup decision, with the inputs of the arbiter's command line
/// `BOT HISTORY OPP_COINS MY_COINS CARDS LEGAL...` (`docs/rules/coup.md`
/// §4), except that `history` is the history file's text (its format and
/// the answers' codes: `docs/rules/coup.md` §5).
///
/// `strategy` names the player: `"search"` (the default when NULL:
/// determinized search over the hand posterior), `"calculator"` (a replica of the contest
/// winner), `"random"`, `"income"`, `"honest"`, `"challenger"`,
/// `"tax-bluffer"`, and the archetypes `"always-tax"`, `"always-steal"`,
/// `"always-assassinate"`, `"challenge-all"`, `"never-challenge"`,
/// `"block-all"`; `cards` are the revealed characters (`~^*!$`), n+2 of
/// them after a successful Exchange; `legal` holds `legal_count` answers
/// (`"I\n"`, `"F"`, ..). The answer to append to the history goes into
/// `answer` (one of `legal`), the kept cards after an Exchange into
/// `exchange` (`""` otherwise); each with its length in `*_written` (each
/// optional: NULL is allowed). Both
/// buffers are written only when both fit: the answer is one of `legal`, so
/// `answer_len` = the longest legal string's length + 1 always fits it, and
/// the kept cards are at most 2 characters, so `exchange_len` = 3 always fits.
/// The answer is always one of `legal`; a legal string that is no answer of
/// the protocol (`docs/rules/coup.md` §5.2: `"x"`, `"I"` without its newline)
/// fails the call instead of being answered.
/// Deterministic for given inputs. Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_UTF8`, `CG_INVALID_ARGUMENT` (unknown strategy, no legal
/// answer, an empty legal string or one that is no answer of the protocol, a
/// history with a character the protocol never writes, cards other than 1 to
/// 4 revealed codes, negative coins, or no legal answer the bot can choose),
/// `CG_BUFFER_TOO_SMALL` (with both lengths reported).
///
/// # Safety
/// Every `const char *` is NULL or NUL-terminated (`strategy` may be NULL);
/// `legal` is NULL or valid for `legal_count` such strings; each buffer is
/// NULL or valid for its length; each `*_written` NULL or valid for a write.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cg_coup_decide(
    strategy: *const c_char,
    history: *const c_char,
    opp_coins: i64,
    my_coins: i64,
    cards: *const c_char,
    legal: *const *const c_char,
    legal_count: usize,
    answer: *mut c_char,
    answer_len: usize,
    answer_written: *mut usize,
    exchange: *mut c_char,
    exchange_len: usize,
    exchange_written: *mut usize,
) -> CgStatus {
    guard("cg_coup_decide", || {
        let (memory, opponent, game) = (std::ptr::null_mut(), std::ptr::null(), std::ptr::null());
        // SAFETY: the caller's guarantees, passed on; no memory.
        unsafe {
            decide_into(
                memory,
                opponent,
                game,
                strategy,
                history,
                opp_coins,
                my_coins,
                cards,
                legal,
                legal_count,
                answer,
                answer_len,
                answer_written,
                exchange,
                exchange_len,
                exchange_written,
            )
        }
    })
}

/// `cg_coup_decide` with the bot's memory of its opponents, as `coup-bot`
/// decides in its working folder: `memory` (NULL: none, as
/// `cg_coup_decide`) is read for the opponent named `opponent` and updated
/// with this game's counts under the game's name `game` (its history file's
/// name, `<first>_<second>_<round>_<game>.txt`); with memory the `search`
/// strategy plays the arm of its portfolio the opponent's type calls for.
/// Given the same memory, it answers as `coup-bot` does. `opponent` and
/// `game` may be NULL only when `memory` is. Errors: those of
/// `cg_coup_decide`, and `CG_NULL_POINTER` for a NULL `opponent` or `game`
/// with a memory.
///
/// # Safety
/// As `cg_coup_decide`; `memory` is NULL or a live handle; `opponent` and
/// `game` are NULL or NUL-terminated strings.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn cg_coup_decide_remembering(
    memory: *mut CgCoupMemory,
    opponent: *const c_char,
    game: *const c_char,
    strategy: *const c_char,
    history: *const c_char,
    opp_coins: i64,
    my_coins: i64,
    cards: *const c_char,
    legal: *const *const c_char,
    legal_count: usize,
    answer: *mut c_char,
    answer_len: usize,
    answer_written: *mut usize,
    exchange: *mut c_char,
    exchange_len: usize,
    exchange_written: *mut usize,
) -> CgStatus {
    guard("cg_coup_decide_remembering", || {
        // SAFETY: the caller's guarantees, passed on.
        unsafe {
            decide_into(
                memory,
                opponent,
                game,
                strategy,
                history,
                opp_coins,
                my_coins,
                cards,
                legal,
                legal_count,
                answer,
                answer_len,
                answer_written,
                exchange,
                exchange_len,
                exchange_written,
            )
        }
    })
}

/// The body of `cg_coup_decide` and `cg_coup_decide_remembering`: checks the
/// inputs, decides, writes the answer and the kept cards.
///
/// # Safety
/// As `cg_coup_decide_remembering`.
#[allow(clippy::too_many_arguments)]
unsafe fn decide_into(
    memory: *mut CgCoupMemory,
    opponent: *const c_char,
    game: *const c_char,
    strategy: *const c_char,
    history: *const c_char,
    opp_coins: i64,
    my_coins: i64,
    cards: *const c_char,
    legal: *const *const c_char,
    legal_count: usize,
    answer: *mut c_char,
    answer_len: usize,
    answer_written: *mut usize,
    exchange: *mut c_char,
    exchange_len: usize,
    exchange_written: *mut usize,
) -> Result<()> {
    let strategy = if strategy.is_null() {
        Strategy::Search
    } else {
        // SAFETY: non-NULL, so a NUL-terminated string (caller guarantee).
        let name = unsafe { str_arg(strategy, "strategy") }?;
        Strategy::parse(name).map_err(|e| fail(CgStatus::CgInvalidArgument, e))?
    };
    // SAFETY: the caller's guarantees on the strings and the array.
    let (history, cards, legal) = unsafe {
        (
            str_arg(history, "history")?,
            str_arg(cards, "cards")?,
            legal_answers(legal, legal_count)?,
        )
    };
    if legal.is_empty() {
        return Err(fail(
            CgStatus::CgInvalidArgument,
            "legal_count is 0: no legal answer given",
        ));
    }
    if let Some(i) = legal.iter().position(String::is_empty) {
        return Err(fail(
            CgStatus::CgInvalidArgument,
            format!("legal[{i}] is empty"),
        ));
    }
    if let Some(i) = legal.iter().position(|a| Reply::parse(a).is_none()) {
        return Err(fail(
            CgStatus::CgInvalidArgument,
            format!(
                "legal[{i}] = {:?} is no answer of the protocol (docs/rules/coup.md §5.2)",
                legal[i]
            ),
        ));
    }
    check_inputs(history, opp_coins, my_coins, cards)?;
    // SAFETY: the caller's guarantee on `memory`.
    let remembered = match unsafe { memory.as_mut() } {
        None => Remembered::Nothing,
        Some(memory) => Remembered::Kept(Recall {
            memory: &mut memory.0,
            // SAFETY: the caller's guarantees on the strings.
            opponent: unsafe { str_arg(opponent, "opponent") }?,
            // SAFETY: as above.
            game: unsafe { str_arg(game, "game") }?,
        }),
    };
    let view = View {
        history,
        opp_coins,
        my_coins,
        cards,
        legal: &legal,
    };
    let decision = decide(&view, remembered, &Config::of(strategy));
    if !legal.contains(&decision.answer) {
        return Err(fail(
            CgStatus::CgInvalidArgument,
            format!(
                "no answer of {legal:?} is one the bot can choose (it chose {:?})",
                decision.answer
            ),
        ));
    }
    let keep = decision.exchange_keep.unwrap_or_default();
    let answer = TextOut {
        name: "answer",
        buf: answer,
        len: answer_len,
        needed: answer_written,
    };
    let exchange = TextOut {
        name: "exchange",
        buf: exchange,
        len: exchange_len,
        needed: exchange_written,
    };
    // SAFETY: the caller's guarantees on the buffers and lengths.
    unsafe { write_texts(&[(&decision.answer, &answer), (&keep, &exchange)]) }
}
