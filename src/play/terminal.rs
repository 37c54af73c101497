//! The terminal front: the screen as lines of text (cards as `[10♥]`, `[Duke]`, a hidden
//! card `[?]`), the legal moves numbered and named, a move typed as its number or its code.
//! A line that is neither gets a one-line hint and the same prompt again. The end of input
//! (Ctrl-D, a closed terminal) and Ctrl-C leave the game, which is then saved as it stands.
//!
//! Input is read by a thread of its own, so the game notices Ctrl-C ([`super::leaving`])
//! while it waits; output errors (a terminal gone) are ignored: the game still ends and is
//! saved.

use std::io::{BufRead, Write};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use super::{Chip, Choice, Ending, Front, Screen, Told};

/// What the input thread reads.
enum Input {
    Line(String),
    End,
}

/// The terminal front over stdin and stdout.
pub struct Terminal {
    input: Receiver<Input>,
}

impl Default for Terminal {
    fn default() -> Self {
        Terminal::new()
    }
}

/// Writes to stdout, ignoring a terminal that is gone.
fn say(text: &str) {
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(text.as_bytes()).and_then(|()| out.flush());
}

/// A card as the terminal draws it.
pub fn card_text(c: &Chip) -> String {
    let classes: Vec<&str> = c.class.split_whitespace().collect();
    let mut t = c.text.clone();
    if classes.contains(&"lost") {
        t = format!("x {t}");
    }
    if classes.contains(&"offered") {
        t = format!("+{t}");
    }
    if classes.contains(&"open") {
        t.push_str(" to beat");
    }
    format!("[{t}]")
}

/// The screen as text, the choices numbered (their codes on the right).
pub fn render(screen: &Screen, choices: &[Choice]) -> String {
    let mut s = format!("\n=== {} ===\n", screen.title);
    let facts: Vec<String> = screen
        .facts
        .iter()
        .map(|(k, v)| format!("{k}: {v}"))
        .collect();
    s.push_str(&facts.join(" | "));
    s.push('\n');
    for z in &screen.zones {
        let cards: Vec<String> = z.cards.iter().map(card_text).collect();
        s.push_str(&format!("{}: {}", z.name, cards.join(" ")));
        if !z.note.is_empty() {
            s.push_str(&format!("   ({})", z.note));
        }
        s.push('\n');
    }
    if !screen.asked.is_empty() {
        s.push_str(&screen.asked);
        s.push('\n');
    }
    s.push_str(&list(choices));
    s
}

/// Whether every choice's code is a number (Ioiwari's pits): then the code is the number
/// typed, and the list shows no other.
fn numeric(choices: &[Choice]) -> bool {
    choices.iter().all(|c| c.code.parse::<usize>().is_ok())
}

fn list(choices: &[Choice]) -> String {
    if numeric(choices) {
        return choices
            .iter()
            .map(|c| format!("  {:>2}  {}\n", c.code, c.words))
            .collect();
    }
    let width = choices
        .iter()
        .map(|c| c.words.chars().count())
        .max()
        .unwrap_or(0);
    choices
        .iter()
        .enumerate()
        .map(|(i, c)| {
            let pad = width - c.words.chars().count();
            format!(
                "  {:>2}  {}{}   {}\n",
                i + 1,
                c.words,
                " ".repeat(pad),
                c.code
            )
        })
        .collect()
}

/// Reads a typed move: a number 1..=n, or a choice's code (exactly, then ignoring case, then
/// with the line end `.` added, when that names one choice).
///
/// # Errors
/// The one-line hint to show.
pub fn parse_choice(text: &str, choices: &[Choice]) -> Result<usize, String> {
    let t = text.trim();
    let n = choices.len();
    if numeric(choices) {
        // The codes are the numbers (pits): only they are typed.
        return choices.iter().position(|c| c.code == t).ok_or_else(|| {
            let codes: Vec<&str> = choices.iter().map(|c| c.code.as_str()).collect();
            format!(
                "{t:?} is not one of the moves: type one of {} (? lists them again)",
                codes.join(", ")
            )
        });
    }
    if let Ok(k) = t.parse::<usize>() {
        if (1..=n).contains(&k) {
            return Ok(k - 1);
        }
    }
    let unique = |f: &dyn Fn(&Choice) -> bool| {
        let found: Vec<usize> = (0..n).filter(|&i| f(&choices[i])).collect();
        (found.len() == 1).then(|| found[0])
    };
    if !t.is_empty() {
        let dotted = format!("{t}.");
        if let Some(i) = unique(&|c| c.code == t)
            .or_else(|| unique(&|c| c.code.eq_ignore_ascii_case(t)))
            .or_else(|| unique(&|c| c.code == dotted))
        {
            return Ok(i);
        }
    }
    let example = choices.first().map(|c| c.code.as_str()).unwrap_or("");
    Err(format!(
        "{:?} is not one of the moves: type a number from 1 to {n} or a code such as {example} (? lists them again)",
        t
    ))
}

impl Terminal {
    /// Starts reading stdin.
    pub fn new() -> Terminal {
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let stdin = std::io::stdin();
            let mut lock = stdin.lock();
            let mut buf = Vec::new();
            loop {
                buf.clear();
                match lock.read_until(b'\n', &mut buf) {
                    Ok(0) | Err(_) => {
                        let _ = tx.send(Input::End);
                        return;
                    }
                    Ok(_) => {
                        let line = String::from_utf8_lossy(&buf).into_owned();
                        if tx.send(Input::Line(line)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Terminal { input: rx }
    }

    /// The next line typed; `None` at the end of input or once the person is leaving.
    fn line(&self) -> Option<String> {
        loop {
            if super::leaving() {
                return None;
            }
            match self.input.recv_timeout(Duration::from_millis(100)) {
                Ok(Input::Line(l)) => return Some(l),
                Ok(Input::End) | Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }
}

const PROMPT: &str = "Your move (number or code; Ctrl-D or Ctrl-C saves and quits)> ";

impl Front for Terminal {
    fn told(&mut self, told: Told) {
        let mut s = if told.who.is_empty() {
            format!("  {}\n", told.text)
        } else {
            format!("  {}: {}\n", told.who, told.text)
        };
        for line in told.why.lines().filter(|l| !l.trim().is_empty()) {
            s.push_str(&format!("      why: {line}\n"));
        }
        say(&s);
    }

    fn choose(&mut self, screen: &Screen, choices: &[Choice]) -> Option<usize> {
        say(&render(screen, choices));
        loop {
            say(PROMPT);
            let line = self.line()?;
            let t = line.trim();
            if t == "?" || t == "help" {
                say(&list(choices));
                continue;
            }
            match parse_choice(t, choices) {
                Ok(i) => return Some(i),
                Err(hint) => say(&format!("{hint}\n")),
            }
        }
    }

    fn finished(&mut self, ending: &Ending) {
        let mut s = render(&ending.screen, &[]);
        s.push_str(&format!("\n*** {} ***\n", ending.result));
        s.push_str(&format!("Saved: {}\n", ending.saved.display()));
        s.push_str(&format!("Replay: {}\n", ending.replay.display()));
        s.push_str(&format!("Drawn again by: {}\n", ending.report_command));
        say(&s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn c(code: &str, words: &str) -> Choice {
        Choice {
            code: code.into(),
            words: words.into(),
        }
    }

    #[test]
    fn a_move_is_typed_by_number_or_code() {
        let coup = [c("I.", "Income"), c("T", "Tax"), c(".$!", "end, keeping")];
        assert_eq!(parse_choice("2", &coup), Ok(1));
        assert_eq!(parse_choice(" T ", &coup), Ok(1));
        assert_eq!(parse_choice("t", &coup), Ok(1));
        // Income's line end may be left out.
        assert_eq!(parse_choice("I", &coup), Ok(0));
        assert_eq!(parse_choice(".$!", &coup), Ok(2));
        for bad in ["", "0", "4", "x", "TT", "-1"] {
            let hint = parse_choice(bad, &coup).unwrap_err();
            assert!(hint.contains("from 1 to 3"), "{bad:?}: {hint}");
            assert_eq!(hint.lines().count(), 1);
        }
        // Pits: the number typed is the pit, never the list's position.
        let pits = [c("2", "pit 2"), c("5", "pit 5")];
        assert_eq!(parse_choice("5", &pits), Ok(1));
        assert!(parse_choice("1", &pits).is_err());
        assert!(render(&Screen::default(), &pits).contains("   5  pit 5"));
    }
}
