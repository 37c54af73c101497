//! The C ABI: thin wrappers over the library, declared in the generated
//! `include/cardgames.h` (the C guide: `docs/c-api.md`).
//!
//! - Opaque handles (`cg_deck`) are created by `_new`/`_from_*` and freed by
//!   `_free`, which accepts NULL.
//! - Every fallible function returns a [`CgStatus`], checks every pointer for
//!   NULL, and writes its out-parameters only on success (the one documented
//!   exception: the `needed` length of a text written into a too-small buffer).
//!   Its last error names the function and says what went wrong, e.g.
//!   `cg_deck_len: deck is NULL`.
//! - Every exported body runs inside `shielded` (through `guard` for those
//!   returning a status), the one `catch_unwind` boundary, so a panic comes
//!   back as `CG_PANIC` (or a documented fallback value) instead of
//!   unwinding into C.
//! - Strings from C are NUL-terminated UTF-8; strings to C are written into
//!   caller buffers with their length, or are static.
//!
//! No game logic lives here: each function converts its arguments, calls the
//! module it wraps and converts the result.

#![allow(unsafe_code)]

pub mod card;
pub mod coup;
pub mod deck;
pub mod durak;
pub mod games;
pub mod ioiwari;

use std::cell::{Cell, RefCell};
use std::ffi::{c_char, CStr};
use std::panic::{catch_unwind, UnwindSafe};
use std::sync::OnceLock;

/// The result of every fallible C function. Numbers are explicit and never
/// reused; `CG_OK` is 0.
///
/// cbindgen:rename-all=ScreamingSnakeCase
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CgStatus {
    /// Success.
    CgOk = 0,
    /// A required pointer argument was NULL.
    CgNullPointer = 1,
    /// A string argument is not valid UTF-8.
    CgInvalidUtf8 = 2,
    /// A card's text is not a card of the notation, or a `cg_card` has a
    /// rank or suit out of range.
    CgBadCard = 3,
    /// A shuffle is malformed or cannot apply to the deck.
    CgBadShuffle = 4,
    /// An index is past the end.
    CgOutOfRange = 5,
    /// The caller's buffer is too small; the needed length was reported.
    CgBufferTooSmall = 6,
    /// An input text is malformed: the homework's `in`, or a Durak protocol
    /// line.
    CgBadInput = 7,
    /// A game has no winner: not within the turn limit, or War's rank
    /// counts tie after 100 hands; or it is not over yet.
    CgGameUnfinished = 8,
    /// An argument is out of its documented domain.
    CgInvalidArgument = 9,
    /// The position has no legal move (the game is over).
    CgNoMove = 10,
    /// No card to take: the deck is empty, or holds no card that matches.
    CgEmpty = 11,
    /// Writing to a caller's `FILE *` failed.
    CgIo = 12,
    /// A panic was caught at the boundary (a bug in the library).
    CgPanic = 99,
}

impl CgStatus {
    /// Every status, for mapping numbers from C.
    const ALL: [CgStatus; 14] = [
        CgStatus::CgOk,
        CgStatus::CgNullPointer,
        CgStatus::CgInvalidUtf8,
        CgStatus::CgBadCard,
        CgStatus::CgBadShuffle,
        CgStatus::CgOutOfRange,
        CgStatus::CgBufferTooSmall,
        CgStatus::CgBadInput,
        CgStatus::CgGameUnfinished,
        CgStatus::CgInvalidArgument,
        CgStatus::CgNoMove,
        CgStatus::CgEmpty,
        CgStatus::CgIo,
        CgStatus::CgPanic,
    ];

    const fn message(self) -> &'static CStr {
        match self {
            CgStatus::CgOk => c"ok",
            CgStatus::CgNullPointer => c"a required pointer argument is NULL",
            CgStatus::CgInvalidUtf8 => c"a string argument is not valid UTF-8",
            CgStatus::CgBadCard => c"not a card (bad card text, or rank or suit out of range)",
            CgStatus::CgBadShuffle => c"malformed shuffle, or it cannot apply to this deck",
            CgStatus::CgOutOfRange => c"index out of range",
            CgStatus::CgBufferTooSmall => c"buffer too small; the needed length was reported",
            CgStatus::CgBadInput => c"malformed input text",
            CgStatus::CgGameUnfinished => c"the game has no winner (yet)",
            CgStatus::CgInvalidArgument => c"argument out of its domain",
            CgStatus::CgNoMove => c"no legal move: the game is over",
            CgStatus::CgEmpty => c"no such card: the deck is empty or holds none that matches",
            CgStatus::CgIo => c"writing to the stream failed",
            CgStatus::CgPanic => c"internal error (panic caught at the C boundary)",
        }
    }
}

/// A failed call's status, for `?` inside [`guard`] bodies.
pub(crate) type Result<T> = std::result::Result<T, CgStatus>;

thread_local! {
    /// The detail of this thread's last failed call (`cg_last_error_message`).
    static LAST_ERROR: RefCell<String> = const { RefCell::new(String::new()) };
    /// `true` while this thread runs inside [`guard`]: the panic hook then
    /// keeps the message as the last error instead of printing it.
    static IN_BOUNDARY: Cell<bool> = const { Cell::new(false) };
    /// The exported function this thread is running (for messages).
    static CURRENT: Cell<&'static str> = const { Cell::new("") };
}

/// Records the detail of a failure as this thread's last error and returns
/// its status, for `.map_err(|e| fail(CgStatus::X, e))` in bodies. [`guard`]
/// puts the exported function's name in front.
pub(crate) fn fail(status: CgStatus, detail: impl std::fmt::Display) -> CgStatus {
    LAST_ERROR.with(|last| *last.borrow_mut() = detail.to_string());
    status
}

/// `n` and `word`, with an `s` unless `n` is 1: `"1 card"`, `"3 cards"`.
pub(crate) fn plural(n: u64, word: &str) -> String {
    match n {
        1 => format!("1 {word}"),
        n => format!("{n} {word}s"),
    }
}

/// `CG_NULL_POINTER` for the argument named `arg`.
pub(crate) fn null(arg: &str) -> CgStatus {
    fail(CgStatus::CgNullPointer, format!("{arg} is NULL"))
}

/// The panic hook installed before ours, which ours defers to.
type Hook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Installs, once per process, a panic hook that stays silent for panics
/// inside the C boundary (their message becomes the last error) and defers
/// to the previous hook for every other panic of the process. The previous
/// hook is kept in a static and our hook captures nothing, so a C program's
/// heap holds no block of ours for it (std's default hook is zero-sized).
fn install_panic_hook() {
    static PREVIOUS: OnceLock<Hook> = OnceLock::new();
    PREVIOUS.get_or_init(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(|info| {
            if IN_BOUNDARY.with(Cell::get) {
                let _ = fail(CgStatus::CgPanic, format!("internal error: {info}"));
            } else if let Some(previous) = PREVIOUS.get() {
                previous(info);
            }
        }));
        previous
    });
}

/// Runs `body` inside the panic boundary (the one `catch_unwind` of the
/// ABI): its value, or `fallback` when it panics.
pub(crate) fn shielded<T>(fallback: T, body: impl FnOnce() -> T + UnwindSafe) -> T {
    install_panic_hook();
    let outer = IN_BOUNDARY.with(|flag| flag.replace(true));
    let result = catch_unwind(body);
    IN_BOUNDARY.with(|flag| flag.set(outer));
    result.unwrap_or(fallback)
}

/// Runs the body of the exported function `name`: its error or `CG_OK`, and
/// `CG_PANIC` when it panics (through [`shielded`]). The last error is
/// cleared first; a failure's detail (recorded with [`fail`], or the status
/// message when the body recorded none) becomes `"<name>: <detail>"`. A
/// success leaves the last error empty.
pub(crate) fn guard(
    name: &'static str,
    body: impl FnOnce() -> Result<()> + UnwindSafe,
) -> CgStatus {
    LAST_ERROR.with(|last| last.borrow_mut().clear());
    let outer = CURRENT.with(|current| current.replace(name));
    let status = shielded(Err(CgStatus::CgPanic), body).err();
    CURRENT.with(|current| current.set(outer));
    let Some(status) = status else {
        return CgStatus::CgOk;
    };
    LAST_ERROR.with(|last| {
        let mut last = last.borrow_mut();
        if last.is_empty() {
            last.push_str(status.message().to_str().unwrap_or("error"));
        }
        if !last.starts_with(name) {
            last.insert_str(0, &format!("{name}: "));
        }
    });
    status
}

/// Runs the body of the exported function `name` inside [`guard`] and writes
/// its value to the out-parameter `out` (named `out_name` in messages),
/// which is checked for NULL before the body runs and written only when the
/// body succeeds.
///
/// # Safety
/// `out` is NULL or valid for a write of a `T`.
pub(crate) unsafe fn returning<T: std::panic::RefUnwindSafe>(
    name: &'static str,
    out: *mut T,
    out_name: &'static str,
    body: impl FnOnce() -> Result<T> + UnwindSafe,
) -> CgStatus {
    guard(name, || {
        let out = Out::new(out, out_name)?;
        let value = body()?;
        // SAFETY: non-NULL, and valid for a write (caller guarantee).
        unsafe { out.write(value) };
        Ok(())
    })
}

/// Borrows a NUL-terminated UTF-8 string from C, the argument named `arg`.
///
/// # Safety
/// `text` is NULL or points to a NUL-terminated string that stays valid and
/// unchanged for `'a`.
pub(crate) unsafe fn str_arg<'a>(text: *const c_char, arg: &str) -> Result<&'a str> {
    if text.is_null() {
        return Err(null(arg));
    }
    // SAFETY: non-NULL, and the caller guarantees a live NUL-terminated string.
    let text = unsafe { CStr::from_ptr(text) };
    text.to_str().map_err(|e| {
        fail(
            CgStatus::CgInvalidUtf8,
            format!(
                "{arg} is not valid UTF-8 (byte {} is not part of a UTF-8 character)",
                e.valid_up_to()
            ),
        )
    })
}

/// Borrows the object behind a handle from C, the argument named `arg`.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` not mutated elsewhere for `'a`.
pub(crate) unsafe fn ref_arg<'a, T>(ptr: *const T, arg: &str) -> Result<&'a T> {
    // SAFETY: the caller guarantees a NULL or valid, live pointer.
    unsafe { ptr.as_ref() }.ok_or_else(|| null(arg))
}

/// Mutably borrows the object behind a handle from C, the argument named `arg`.
///
/// # Safety
/// `ptr` is NULL or points to a live `T` not accessed elsewhere for `'a`.
pub(crate) unsafe fn mut_arg<'a, T>(ptr: *mut T, arg: &str) -> Result<&'a mut T> {
    // SAFETY: the caller guarantees a NULL or valid, exclusive pointer.
    unsafe { ptr.as_mut() }.ok_or_else(|| null(arg))
}

/// An out-parameter, checked for NULL before any work is done; written with
/// [`Out::write`] once the call has succeeded.
pub(crate) struct Out<T>(*mut T);

impl<T> Out<T> {
    /// Checks `ptr`, the argument named `arg`, for NULL.
    pub(crate) fn new(ptr: *mut T, arg: &str) -> Result<Out<T>> {
        if ptr.is_null() {
            Err(null(arg))
        } else {
            Ok(Out(ptr))
        }
    }

    /// Writes the value.
    ///
    /// # Safety
    /// The pointer given to [`Out::new`] is valid for writes of a `T`.
    pub(crate) unsafe fn write(self, value: T) {
        // SAFETY: non-NULL (checked in `new`), and the caller guarantees it is
        // valid for writes; `write` does not drop the old (uninitialised) value.
        unsafe { self.0.write(value) }
    }
}

/// Writes `value` through an optional out-pointer: nothing when it is NULL.
///
/// # Safety
/// `ptr` is NULL or valid for a write of a `T`.
pub(crate) unsafe fn write_optional<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: non-NULL, valid for a write (caller guarantee).
        unsafe { ptr.write(value) }
    }
}

/// A caller's text buffer: `buf` of `len` bytes, and where to report the
/// length of the text (without its NUL).
pub(crate) struct TextOut {
    /// The buffer's argument name, for messages.
    pub name: &'static str,
    /// The buffer: valid for `len` bytes, or NULL (allowed when `len` is 0).
    pub buf: *mut c_char,
    /// Its size in bytes.
    pub len: usize,
    /// Optional: NULL or valid for a write.
    pub needed: *mut usize,
}

/// Writes each text and a NUL into its caller buffer, all or none: every
/// non-NULL `needed` is written (also on `CG_BUFFER_TOO_SMALL`, so the caller
/// can retry with larger buffers), the buffers only when every text fits. A
/// NULL buffer is accepted with `len` 0 (to learn the size first).
///
/// # Safety
/// Each `TextOut` holds the guarantees its fields document.
pub(crate) unsafe fn write_texts(texts: &[(&str, &TextOut)]) -> Result<()> {
    if let Some((_, out)) = texts
        .iter()
        .find(|(_, out)| out.buf.is_null() && out.len > 0)
    {
        return Err(fail(
            CgStatus::CgNullPointer,
            format!("{} is NULL but its length is {} (NULL is allowed with length 0, to learn the size)", out.name, out.len),
        ));
    }
    let short = texts.iter().find(|(text, out)| text.len() >= out.len);
    for (text, out) in texts {
        // SAFETY: `needed` is NULL or valid for a write (caller guarantee).
        unsafe { write_optional(out.needed, text.len()) };
        if short.is_none() {
            // SAFETY: every text fits, so `buf` is non-NULL (len > text.len()
            // >= 0, and a NULL buffer was refused above unless len is 0) and
            // valid for `len > text.len()` bytes: the text and its NUL fit;
            // `text` is Rust-owned, so no overlap.
            unsafe {
                std::ptr::copy_nonoverlapping(text.as_ptr(), out.buf.cast::<u8>(), text.len());
                out.buf.add(text.len()).write(0);
            }
        }
    }
    match short {
        None => Ok(()),
        Some((text, out)) => Err(fail(
            CgStatus::CgBufferTooSmall,
            format!(
                "{} holds {}, the text needs {} (its {} and a NUL)",
                out.name,
                plural(out.len as u64, "byte"),
                text.len() + 1,
                plural(text.len() as u64, "character")
            ),
        )),
    }
}

/// [`write_texts`] for one text, into the buffer argument `buf`.
///
/// # Safety
/// `buf` is NULL or valid for writes of `len` bytes; `needed` is NULL or
/// valid for a write.
pub(crate) unsafe fn write_text(
    text: &str,
    name: &'static str,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> Result<()> {
    // SAFETY: passed on from the caller.
    unsafe {
        write_texts(&[(
            text,
            &TextOut {
                name,
                buf,
                len,
                needed,
            },
        )])
    }
}

/// The static, NUL-terminated message of a `cg_status` value (never NULL; a
/// number that is no status gets "unknown status").
#[no_mangle]
pub extern "C" fn cg_status_str(status: i32) -> *const c_char {
    shielded(c"internal error".as_ptr(), || {
        CgStatus::ALL
            .iter()
            .find(|s| **s as i32 == status)
            .map_or(c"unknown status", |s| s.message())
            .as_ptr()
    })
}

/// The library's version, e.g. `"0.1.0"`: a static NUL-terminated string.
#[no_mangle]
pub extern "C" fn cg_version() -> *const c_char {
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(version) => version,
            Err(_) => panic!("the package version has no NUL"),
        };
    shielded(VERSION.as_ptr(), || VERSION.as_ptr())
}

/// Writes the message of this thread's most recent call to a function that
/// returns a `cg_status` (other than this one): its detail when it failed
/// (e.g. `in:3: unknown shuffle "shuffle"`, which `CG_BAD_INPUT` alone
/// cannot say), `""` when it succeeded. The text and a NUL go into `buf`
/// (`len` bytes) and its length without the NUL into `*needed` (also on
/// `CG_BUFFER_TOO_SMALL`). 256 bytes hold every message except those quoting
/// long caller text; retry with `*needed + 1` bytes. Errors:
/// `CG_NULL_POINTER`, `CG_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `buf` is NULL or valid for `len` bytes; `needed` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_last_error_message(
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> CgStatus {
    // Not through `guard`, which would replace the message it reports; a
    // failure here leaves the last error as it was.
    let text = LAST_ERROR.with(|last| last.borrow().clone());
    shielded(CgStatus::CgPanic, || {
        // SAFETY: the caller's buffer and `needed` guarantees.
        let written = unsafe { write_text(&text, "buf", buf, len, needed) };
        LAST_ERROR.with(|last| *last.borrow_mut() = text.clone());
        written.err().unwrap_or(CgStatus::CgOk)
    })
}

/// Panics inside the C boundary on purpose and returns what the boundary
/// makes of it: always `CG_PANIC`, with the panic's message as the thread's
/// last error and nothing on stderr. For harnesses that check the boundary:
/// exported only by libraries built with the `debug-panic` feature (the
/// header declares it when `CG_DEBUG_PANIC` is defined).
#[cfg(feature = "debug-panic")]
#[no_mangle]
pub extern "C" fn cg_debug_panic() -> CgStatus {
    guard("cg_debug_panic", || {
        panic!("cg_debug_panic: a deliberate panic inside the C boundary")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_panic_comes_back_as_cg_panic() {
        assert_eq!(
            guard("t", || panic!("a deliberate panic")),
            CgStatus::CgPanic
        );
        #[cfg(feature = "debug-panic")]
        assert_eq!(cg_debug_panic(), CgStatus::CgPanic);
        assert_eq!(guard("t", || Err(CgStatus::CgBadCard)), CgStatus::CgBadCard);
        assert_eq!(guard("t", || Ok(())), CgStatus::CgOk);
    }

    #[test]
    fn every_status_has_a_static_message() {
        // SAFETY: cg_status_str returns a static NUL-terminated string.
        let text = unsafe { CStr::from_ptr(cg_status_str(CgStatus::CgPanic as i32)) };
        assert!(text.to_str().unwrap().contains("panic"));
        // SAFETY: as above.
        let unknown = unsafe { CStr::from_ptr(cg_status_str(1234)) };
        assert_eq!(unknown.to_str().unwrap(), "unknown status");
        // SAFETY: as above.
        let version = unsafe { CStr::from_ptr(cg_version()) };
        assert_eq!(version.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
    }
}
