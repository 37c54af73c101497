//! The lines of the IOI protocol (`docs/rules/ioiwari.md` §4): a start
//! line of seven stone counts, then one pit number 1..7 per line.
//!
//! Leading and trailing spaces and a CR before the LF are accepted; blank
//! lines between moves are skipped by [`read_line`].

use std::io::{self, BufRead, Read};

use super::rules::PITS;
use super::IoiwariError;

/// Parses seven whitespace-separated stone counts (`"4 3 2 4 2 3 2"`).
///
/// # Errors
/// [`IoiwariError::BadStartLine`] if there are not exactly seven integers
/// 0..=255. Whether they form a board or a legal start is checked by
/// [`super::Board::new`] / [`super::Board::start`].
pub fn parse_pits(text: &str) -> Result<[u8; PITS], IoiwariError> {
    let bad = || IoiwariError::BadStartLine(crate::shuffle::clip(text.trim()));
    let mut pits = [0u8; PITS];
    let mut words = text.split_whitespace();
    for p in &mut pits {
        *p = words.next().ok_or_else(bad)?.parse().map_err(|_| bad())?;
    }
    if words.next().is_some() {
        return Err(bad());
    }
    Ok(pits)
}

/// Parses a move line: one pit number 1..=7; returns its 0-based index.
///
/// # Errors
/// [`IoiwariError::BadMoveLine`] if the line is not one non-negative integer,
/// [`IoiwariError::NoSuchPit`] if it is outside 1..=7.
pub fn parse_move(line: &str) -> Result<usize, IoiwariError> {
    let text = line.trim();
    let n: u64 = text
        .parse()
        .map_err(|_| IoiwariError::BadMoveLine(crate::shuffle::clip(text)))?;
    if !(1..=PITS as u64).contains(&n) {
        return Err(IoiwariError::NoSuchPit(n));
    }
    Ok(n as usize - 1)
}

/// Formats a 0-based pit index as its protocol line (without the newline).
pub fn format_move(pit: usize) -> String {
    (pit + 1).to_string()
}

/// Longest line [`read_line`] accepts, in bytes: real lines are under 20.
pub const MAX_LINE: u64 = 4096;

/// Reads the next non-blank line, without its line end; `Ok(None)` at end of
/// input. At most [`MAX_LINE`] bytes are read for one line, so a runaway
/// input costs bounded memory.
///
/// # Errors
/// The reader's I/O error; [`io::ErrorKind::InvalidData`] for a line that is
/// not UTF-8 or longer than [`MAX_LINE`] bytes.
pub fn read_line(reader: &mut impl BufRead) -> io::Result<Option<String>> {
    let mut bytes = Vec::new();
    loop {
        bytes.clear();
        let n = reader
            .by_ref()
            .take(MAX_LINE)
            .read_until(b'\n', &mut bytes)?;
        if n == 0 {
            return Ok(None);
        }
        if n as u64 == MAX_LINE && bytes.last() != Some(&b'\n') {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!("a line longer than {MAX_LINE} bytes"),
            ));
        }
        let line = std::str::from_utf8(&bytes)
            .map_err(|_| io::Error::new(io::ErrorKind::InvalidData, "a line that is not UTF-8"))?;
        if !line.trim().is_empty() {
            return Ok(Some(line.trim_end_matches(['\r', '\n']).to_owned()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_lines() {
        assert_eq!(parse_pits(" 4 3 2 4  2 3 2\r\n"), Ok([4, 3, 2, 4, 2, 3, 2]));
        assert!(parse_pits("4 3 2 4 2 3").is_err());
        assert!(parse_pits("4 3 2 4 2 3 2 1").is_err());
        assert!(parse_pits("4 3 2 x 2 3 2").is_err());
        assert!(parse_pits("4 3 2 -4 2 3 2").is_err());
    }

    #[test]
    fn move_lines() {
        assert_eq!(parse_move("1"), Ok(0));
        assert_eq!(parse_move(" 7\r"), Ok(6));
        assert_eq!(parse_move("0"), Err(IoiwariError::NoSuchPit(0)));
        assert_eq!(parse_move("8"), Err(IoiwariError::NoSuchPit(8)));
        assert!(matches!(
            parse_move("3 4"),
            Err(IoiwariError::BadMoveLine(_))
        ));
        assert!(matches!(
            parse_move("-1"),
            Err(IoiwariError::BadMoveLine(_))
        ));
        assert!(matches!(parse_move(""), Err(IoiwariError::BadMoveLine(_))));
        assert_eq!(format_move(0), "1");
    }

    #[test]
    fn reads_lines_skipping_blanks() {
        let mut input = io::Cursor::new("\n  \n3\r\n\n5");
        assert_eq!(read_line(&mut input).unwrap(), Some("3".to_owned()));
        assert_eq!(read_line(&mut input).unwrap(), Some("5".to_owned()));
        assert_eq!(read_line(&mut input).unwrap(), None);
    }
}
