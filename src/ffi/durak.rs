//! C ABI for the Durak bot: a handle fed with protocol lines that answers
//! commands (`docs/rules/durak.md` §3).

use std::ffi::c_char;

use super::{fail, guard, mut_arg, returning, shielded, str_arg, write_text, CgStatus};
use crate::durak::bot::decide;
use crate::durak::deep::DeepConfig;
use crate::durak::protocol::{format_answer, parse_line};
use crate::durak::{DurakBot, DurakError, Line, Strategy};

/// An opaque Durak bot handle (the deep search, `Strategy::Deep`): create with
/// `cg_durak_bot_new`, release with `cg_durak_bot_free`.
pub struct CgDurakBot(DurakBot);

/// Every answer is a card (`8S`) or `NO`: two characters.
const ANSWER_LEN: usize = 2;

/// Creates a bot for one seat of one game of Durak (rules and protocol:
/// `docs/rules/durak.md`); `seed` makes its sampling repeatable. Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_durak_bot_new(seed: u64, out: *mut *mut CgDurakBot) -> CgStatus {
    // SAFETY: the caller's guarantee on `out`.
    unsafe {
        returning("cg_durak_bot_new", out, "out", || {
            let bot = DurakBot::new(Strategy::Deep, seed);
            Ok(Box::into_raw(Box::new(CgDurakBot(bot))))
        })
    }
}

/// Frees a bot; NULL is accepted and ignored.
///
/// # Safety
/// `bot` is NULL or a handle from `cg_durak_bot_new` not freed before.
#[no_mangle]
pub unsafe extern "C" fn cg_durak_bot_free(bot: *mut CgDurakBot) {
    shielded((), || {
        if !bot.is_null() {
            // SAFETY: a live handle made by `Box::into_raw` in
            // `cg_durak_bot_new`, freed once (caller guarantee).
            drop(unsafe { Box::from_raw(bot) });
        }
    });
}

/// Replaces the bot's settings by `settings`: `key=value` pairs separated by commas over the
/// defaults, read as `durak-bot --deep` reads them (`durak-bot --help` lists every key; `""`
/// restores the defaults), so the same seed, settings and lines give `durak-bot`'s answers.
/// `hard_share=100` moves the wall-clock safety net to a hundred times the game's time budget:
/// the work caps alone then end each search, and the answers replay even in a slow run
/// (valgrind). Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_INVALID_ARGUMENT` (an item without `=`, an
/// unknown key, a value not a number or out of its range; the settings are unchanged).
///
/// # Safety
/// `bot` is NULL or a live handle; `settings` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn cg_durak_bot_set(
    bot: *mut CgDurakBot,
    settings: *const c_char,
) -> CgStatus {
    guard("cg_durak_bot_set", || {
        // SAFETY: the caller's guarantees on `bot` and `settings`.
        let (bot, settings) = unsafe { (mut_arg(bot, "bot")?, str_arg(settings, "settings")?) };
        let config =
            DeepConfig::parse(settings).map_err(|e| fail(CgStatus::CgInvalidArgument, e))?;
        bot.0.set_config(config);
        Ok(())
    })
}

/// Feeds one information line the server sent (`trump S`, `give 1 6S`,
/// `move 2 3 6D`, ..; the lines: `docs/rules/durak.md` §3; CR and extra
/// spaces tolerated). Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_BAD_INPUT` (not a protocol
/// line; the state is unchanged), `CG_INVALID_ARGUMENT` (a command: pass it
/// to `cg_durak_bot_answer` instead).
///
/// # Safety
/// `bot` is NULL or a live handle; `line` is NULL or a NUL-terminated string.
#[no_mangle]
pub unsafe extern "C" fn cg_durak_bot_feed(bot: *mut CgDurakBot, line: *const c_char) -> CgStatus {
    guard("cg_durak_bot_feed", || {
        // SAFETY: the caller's guarantees on `bot` and `line`.
        let (bot, line) = unsafe { (mut_arg(bot, "bot")?, str_arg(line, "line")?) };
        match bot.0.feed(line) {
            Ok(None) => Ok(()),
            Ok(Some(_)) => Err(fail(
                CgStatus::CgInvalidArgument,
                format!(
                    "{:?} is a command: pass it to cg_durak_bot_answer",
                    line.trim()
                ),
            )),
            Err(error) => Err(protocol_error(&error)),
        }
    })
}

/// `CG_BAD_INPUT` for a line that is not of the Durak protocol.
fn protocol_error(error: &DurakError) -> CgStatus {
    fail(
        CgStatus::CgBadInput,
        format!(
            "{error}: not a line of the Durak protocol (information: trump, give, move, add, beat, take, out; commands: MOVE, BEAT, ADD)"
        ),
    )
}

/// Answers a command line (`MOVE`, `BEAT` or `ADD`): writes the answer, a
/// card in Durak notation or `NO`, and a NUL into `buf` (`len` bytes, at
/// least 3) and 2 into `*needed`. The answer is legal as far as the lines
/// fed allow. `needed` is optional (NULL is allowed). Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_UTF8`, `CG_BAD_INPUT`
/// (not a protocol line), `CG_INVALID_ARGUMENT` (an information line),
/// `CG_BUFFER_TOO_SMALL` (checked before thinking, so nothing is lost).
///
/// # Safety
/// `bot` is NULL or a live handle; `command` is NULL or a NUL-terminated
/// string; `buf` is NULL or valid for `len` bytes; `needed` is NULL or valid
/// for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_durak_bot_answer(
    bot: *mut CgDurakBot,
    command: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> CgStatus {
    guard("cg_durak_bot_answer", || {
        // SAFETY: the caller's guarantees on `bot` and `command`.
        let (bot, command) = unsafe { (mut_arg(bot, "bot")?, str_arg(command, "command")?) };
        if len <= ANSWER_LEN {
            // SAFETY: the caller's guarantees on `buf` and `needed`; the
            // placeholder does not fit, so only `needed` is written.
            return unsafe { write_text("NO", "buf", buf, len, needed) };
        }
        // Checked before feeding, so an information line changes nothing.
        let command = match parse_line(command) {
            Ok(Line::Command(parsed)) => parsed,
            Ok(Line::Info(_)) => {
                return Err(fail(
                    CgStatus::CgInvalidArgument,
                    format!(
                        "{:?} is an information line: pass it to cg_durak_bot_feed",
                        command.trim()
                    ),
                ))
            }
            Err(error) => return Err(protocol_error(&error)),
        };
        // The library's one decision path, as `durak-bot` and the tests take it.
        let answer = format_answer(decide(&mut bot.0, command).answer);
        // SAFETY: the caller's guarantees on `buf` and `needed`.
        unsafe { write_text(&answer, "buf", buf, len, needed) }
    })
}
