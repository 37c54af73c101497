//! C ABI for the Coup bot: one decision from the arbiter's inputs.

use std::ffi::c_char;

use super::{fail, guard, null, str_arg, write_texts, CgStatus, Result, TextOut};
use crate::coup::{decide, parse_hand, CoupError, History, Reply, Strategy};

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
/// determinized search over the hand posterior), `"strong"` (a Bayesian
/// evaluation of a coin race), `"calculator"` (a replica of the contest
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
        let decision = decide(strategy, history, opp_coins, my_coins, cards, &legal);
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
    })
}
