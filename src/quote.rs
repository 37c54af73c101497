//! Short, printable quotes of untrusted text (what a bot or a submission
//! wrote), for error and forfeit messages that must stay one short line (D08
//! of the reliability list). Kept apart from the `child` process layer so the lean C
//! library, which has no process layer, can use it too.

/// Most bytes of a child's output quoted in a fault's text.
pub const QUOTE_BYTES: usize = 40;

/// A short, printable, one-line quote of what a child wrote: at most
/// [`QUOTE_BYTES`] bytes (lossy UTF-8, escaped like `{:?}`), then the full
/// length when it was cut.
pub fn quote(bytes: &[u8]) -> String {
    if bytes.len() <= QUOTE_BYTES {
        format!("{:?}", String::from_utf8_lossy(bytes))
    } else {
        format!(
            "{:?}... ({} bytes)",
            String::from_utf8_lossy(&bytes[..QUOTE_BYTES]),
            bytes.len()
        )
    }
}
