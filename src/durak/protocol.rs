//! Protocol lines (`docs/rules/durak.md` §3): information lines (lower case), commands
//! (upper case) and answers, parsed and formatted; each receiver's relative numbering.
//!
//! In a line, players are numbered 1..4 relative to the receiver (the receiver is always 1,
//! the others follow clockwise). Parsing tolerates CRLF, leading/trailing and repeated spaces.

use std::fmt;

use super::seat::Seat;
pub use super::types::Command;
use super::types::{Answer, DurakError, Event};
use crate::card::{Card, Notation, Suit};

/// An information line; players are relative numbers 1..=4.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Info {
    /// `trump <suit>`.
    Trump(Suit),
    /// `give <player> <card|??>`: the card is `None` (`??`) unless it went to the receiver.
    Give {
        /// Who drew.
        player: u8,
        /// The card, if shown.
        card: Option<Card>,
    },
    /// `move <by> <under> <card>`.
    Move {
        /// Attacker.
        by: u8,
        /// Defender.
        under: u8,
        /// Card.
        card: Card,
    },
    /// `add <by> <under> <card>`.
    Add {
        /// Thrower.
        by: u8,
        /// Defender.
        under: u8,
        /// Card.
        card: Card,
    },
    /// `beat <by> <card>`.
    Beat {
        /// Defender.
        by: u8,
        /// Card.
        card: Card,
    },
    /// `take <player>`.
    Take {
        /// The defender who refused.
        player: u8,
    },
    /// `out <player>`.
    Out {
        /// Who left.
        player: u8,
    },
}

/// Any line the server sends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Line {
    /// An information line.
    Info(Info),
    /// A command.
    Command(Command),
}

/// The relative number (1..=4) of absolute player `player` as seen by absolute player `receiver`.
pub fn relative(receiver: usize, player: usize) -> u8 {
    Seat::new(player).relative_to(Seat::new(receiver))
}

/// The absolute player (0..4) that `receiver` calls `rel` (1..=4).
pub fn absolute(receiver: usize, rel: u8) -> usize {
    Seat::from_relative(Seat::new(receiver), rel).index()
}

/// The line `receiver` is sent for an event (cards drawn by others become `??`).
pub fn event_info(event: &Event, receiver: usize) -> Info {
    let r = |p: usize| relative(receiver, p);
    match *event {
        Event::Give { player, card } => Info::Give {
            player: r(player),
            card: (player == receiver).then_some(card),
        },
        Event::Move { by, under, card } => Info::Move {
            by: r(by),
            under: r(under),
            card,
        },
        Event::Add { by, under, card } => Info::Add {
            by: r(by),
            under: r(under),
            card,
        },
        Event::Beat { by, card } => Info::Beat { by: r(by), card },
        Event::Take { player } => Info::Take { player: r(player) },
        Event::Out { player } => Info::Out { player: r(player) },
    }
}

fn card_text(c: Card) -> impl fmt::Display {
    c.display(Notation::Durak)
}

impl fmt::Display for Info {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Info::Trump(s) => write!(f, "trump {}", s.code().to_ascii_uppercase()),
            Info::Give {
                player,
                card: Some(c),
            } => write!(f, "give {player} {}", card_text(c)),
            Info::Give { player, card: None } => write!(f, "give {player} ??"),
            Info::Move { by, under, card } => write!(f, "move {by} {under} {}", card_text(card)),
            Info::Add { by, under, card } => write!(f, "add {by} {under} {}", card_text(card)),
            Info::Beat { by, card } => write!(f, "beat {by} {}", card_text(card)),
            Info::Take { player } => write!(f, "take {player}"),
            Info::Out { player } => write!(f, "out {player}"),
        }
    }
}

impl fmt::Display for Command {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Command::Move => "MOVE",
            Command::Beat => "BEAT",
            Command::Add => "ADD",
        })
    }
}

impl fmt::Display for Line {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Line::Info(i) => i.fmt(f),
            Line::Command(c) => c.fmt(f),
        }
    }
}

/// Formats an answer: the card in Durak notation, or `NO`.
pub fn format_answer(answer: Answer) -> String {
    match answer {
        Answer::Card(c) => card_text(c).to_string(),
        Answer::No => "NO".to_owned(),
    }
}

/// Reads an answer line (`NO` or a card), tolerating CRLF and surrounding spaces.
///
/// # Errors
/// [`DurakError::Malformed`] for anything else.
pub fn parse_answer(text: &str) -> Result<Answer, DurakError> {
    let t = text.trim();
    if t == "NO" {
        return Ok(Answer::No);
    }
    Card::parse(t, Notation::Durak)
        .map(Answer::Card)
        .map_err(|_| DurakError::Malformed(text.to_owned()))
}

/// Reads one server line, tolerating CRLF and extra spaces.
///
/// # Errors
/// [`DurakError::Malformed`] naming the line for an unknown keyword, a player outside 1..=4,
/// a bad card or suit, or a wrong number of fields.
pub fn parse_line(text: &str) -> Result<Line, DurakError> {
    let bad = || DurakError::Malformed(text.to_owned());
    let words: Vec<&str> = text.split_whitespace().collect();
    let player = |w: &str| -> Result<u8, DurakError> {
        match w.parse::<u8>() {
            Ok(p @ 1..=4) => Ok(p),
            _ => Err(bad()),
        }
    };
    let card = |w: &str| Card::parse(w, Notation::Durak).map_err(|_| bad());
    let info = match words.as_slice() {
        ["MOVE"] => return Ok(Line::Command(Command::Move)),
        ["BEAT"] => return Ok(Line::Command(Command::Beat)),
        ["ADD"] => return Ok(Line::Command(Command::Add)),
        ["trump", s] => {
            let suit = match *s {
                "S" => Suit::Spades,
                "H" => Suit::Hearts,
                "C" => Suit::Clubs,
                "D" => Suit::Diamonds,
                _ => return Err(bad()),
            };
            Info::Trump(suit)
        }
        ["give", p, "??"] => Info::Give {
            player: player(p)?,
            card: None,
        },
        ["give", p, c] => Info::Give {
            player: player(p)?,
            card: Some(card(c)?),
        },
        ["move", p, d, c] => Info::Move {
            by: player(p)?,
            under: player(d)?,
            card: card(c)?,
        },
        ["add", p, d, c] => Info::Add {
            by: player(p)?,
            under: player(d)?,
            card: card(c)?,
        },
        ["beat", p, c] => Info::Beat {
            by: player(p)?,
            card: card(c)?,
        },
        ["take", p] => Info::Take { player: player(p)? },
        ["out", p] => Info::Out { player: player(p)? },
        _ => return Err(bad()),
    };
    Ok(Line::Info(info))
}

/// The initial lines for `receiver`: `trump`, then six `give` lines per player in the
/// receiver's own order 1, 2, 3, 4 (`docs/rules/durak.md` §3.4).
pub fn deal_lines(receiver: usize, trump: Suit, dealt: &[Vec<Card>; 4]) -> Vec<Info> {
    let mut lines = vec![Info::Trump(trump)];
    for k in 0..4 {
        let p = Seat::new(receiver).plus(k).index();
        for &card in &dealt[p] {
            lines.push(Info::Give {
                player: relative(receiver, p),
                card: (p == receiver).then_some(card),
            });
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_round_trip_and_tolerate_spaces() {
        for text in [
            "trump S",
            "give 2 ??",
            "give 1 TS",
            "move 2 3 6D",
            "add 1 4 7S",
            "beat 4 AS",
            "take 4",
            "out 3",
            "MOVE",
            "BEAT",
            "ADD",
        ] {
            let line = parse_line(text).unwrap();
            assert_eq!(line.to_string(), text);
        }
        assert_eq!(
            parse_line("  move  2 3   6D \r\n").unwrap().to_string(),
            "move 2 3 6D"
        );
        assert!(parse_line("move 5 3 6D").is_err());
        assert!(parse_line("give 1 5S").is_err());
        assert!(parse_line("beat 1").is_err());
        assert_eq!(parse_answer(" NO\r\n").unwrap(), Answer::No);
        assert!(parse_answer("no").is_err());
    }

    #[test]
    fn relative_numbering() {
        assert_eq!(relative(2, 2), 1);
        assert_eq!(relative(2, 3), 2);
        assert_eq!(relative(2, 1), 4);
        for r in 0..4 {
            for p in 0..4 {
                assert_eq!(absolute(r, relative(r, p)), p);
            }
        }
    }
}
