//! Playing cards: [`Rank`], [`Suit`], [`Card`], and their two text notations.
//!
//! - [`Notation::Homework`]: rank then lower-case suit, `As`, `Td`, `2c`
//!   (`docs/rules/homework.md` §1.1). All 13 ranks.
//! - [`Notation::Durak`]: rank then upper-case suit, `TS`, `6H`
//!   (`docs/rules/durak.md` §1.2). Ranks 6..A only (36-card deck).

use std::fmt;

use thiserror::Error;

/// Why a card's text was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CardError {
    /// The text is not exactly two characters (after trimming nothing: callers trim).
    #[error("card {0:?} must be two characters: a rank and a suit")]
    Length(String),
    /// The first character is not a rank code of the notation.
    #[error("card {0:?} has an unknown rank")]
    Rank(String),
    /// The second character is not a suit code of the notation.
    #[error("card {0:?} has an unknown suit")]
    Suit(String),
}

/// A rank, from [`Rank::Two`] (lowest) to [`Rank::Ace`] (highest).
///
/// The discriminant is the face value for 2..10 (`Jack = 11` ... `Ace = 14`),
/// so `Rank as u8` orders ranks; the homework's own values (no 11) come from
/// [`Rank::war_value`].
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Rank {
    /// 2
    Two = 2,
    /// 3
    Three,
    /// 4
    Four,
    /// 5
    Five,
    /// 6
    Six,
    /// 7
    Seven,
    /// 8
    Eight,
    /// 9
    Nine,
    /// T
    Ten,
    /// J
    Jack,
    /// Q
    Queen,
    /// K
    King,
    /// A
    Ace,
}

impl Rank {
    /// All 13 ranks, highest first (the canonical deck's order, `docs/rules/homework.md` §1.2).
    pub const DESCENDING: [Rank; 13] = [
        Rank::Ace,
        Rank::King,
        Rank::Queen,
        Rank::Jack,
        Rank::Ten,
        Rank::Nine,
        Rank::Eight,
        Rank::Seven,
        Rank::Six,
        Rank::Five,
        Rank::Four,
        Rank::Three,
        Rank::Two,
    ];

    /// The rank's code letter: `A K Q J T 9 .. 2` (the same in both notations).
    pub const fn code(self) -> char {
        match self {
            Rank::Ace => 'A',
            Rank::King => 'K',
            Rank::Queen => 'Q',
            Rank::Jack => 'J',
            Rank::Ten => 'T',
            Rank::Nine => '9',
            Rank::Eight => '8',
            Rank::Seven => '7',
            Rank::Six => '6',
            Rank::Five => '5',
            Rank::Four => '4',
            Rank::Three => '3',
            Rank::Two => '2',
        }
    }

    /// The rank of a code letter, `None` for anything else.
    pub const fn from_code(c: char) -> Option<Rank> {
        Some(match c {
            'A' => Rank::Ace,
            'K' => Rank::King,
            'Q' => Rank::Queen,
            'J' => Rank::Jack,
            'T' => Rank::Ten,
            '9' => Rank::Nine,
            '8' => Rank::Eight,
            '7' => Rank::Seven,
            '6' => Rank::Six,
            '5' => Rank::Five,
            '4' => Rank::Four,
            '3' => Rank::Three,
            '2' => Rank::Two,
            _ => return None,
        })
    }

    /// The rank whose number (`Rank as u8`) is `n`: 2..=10 face value, 11 J,
    /// 12 Q, 13 K, 14 A; `None` otherwise.
    pub fn from_number(n: u8) -> Option<Rank> {
        Rank::DESCENDING.into_iter().find(|r| *r as u8 == n)
    }

    /// The homework's card value: A=15, K=14, Q=13, J=12, T=10, 9..2 face
    /// value; there is no 11 (`docs/rules/homework.md` §1.3). War compares
    /// these and turns this many cards in a war.
    pub const fn war_value(self) -> u8 {
        match self {
            Rank::Ace => 15,
            Rank::King => 14,
            Rank::Queen => 13,
            Rank::Jack => 12,
            r => r as u8,
        }
    }
}

/// A suit. The discriminants give the homework's order `s h c d`.
#[repr(u8)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    /// Spades: `s` / `S`.
    Spades = 0,
    /// Hearts: `h` / `H`.
    Hearts = 1,
    /// Clubs: `c` / `C`.
    Clubs = 2,
    /// Diamonds: `d` / `D`.
    Diamonds = 3,
}

impl Suit {
    /// The four suits in the homework's order s, h, c, d (`docs/rules/homework.md` §1.1).
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Clubs, Suit::Diamonds];

    /// The suit's lower-case code letter (`s h c d`); Durak upper-cases it.
    pub const fn code(self) -> char {
        match self {
            Suit::Spades => 's',
            Suit::Hearts => 'h',
            Suit::Clubs => 'c',
            Suit::Diamonds => 'd',
        }
    }

    /// Index 0..4 in the order s, h, c, d.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The suit of index 0..4 (s, h, c, d); `None` past 3.
    pub fn from_index(index: usize) -> Option<Suit> {
        Suit::ALL.get(index).copied()
    }

    /// The next suit in the circular order s -> h -> c -> d -> s (Rolling Stone).
    pub const fn next(self) -> Suit {
        Suit::ALL[(self as usize + 1) % 4]
    }
}

/// Which text notation a card is read or written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Notation {
    /// `As`, `Td`, `2c`: any of the 13 ranks, lower-case suit.
    Homework,
    /// `AS`, `TD`, `6C`: ranks 6..A only, upper-case suit.
    Durak,
}

impl Notation {
    /// Whether the notation has cards of this rank (Durak: 6..A only).
    pub fn admits(self, rank: Rank) -> bool {
        self == Notation::Homework || rank >= Rank::Six
    }
}

/// One playing card. Two bytes, `Copy`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Card {
    /// The rank.
    pub rank: Rank,
    /// The suit.
    pub suit: Suit,
}

impl Card {
    /// A card of this rank and suit.
    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card { rank, suit }
    }

    /// Reads a card in the given notation. The text must be exactly the two
    /// characters (callers split and trim).
    ///
    /// # Errors
    /// [`CardError`] naming the text when its length, rank or suit is wrong
    /// for the notation (a Durak card below 6 is an unknown rank).
    pub fn parse(text: &str, notation: Notation) -> Result<Card, CardError> {
        let mut chars = text.chars();
        let (Some(r), Some(s), None) = (chars.next(), chars.next(), chars.next()) else {
            return Err(CardError::Length(text.to_owned()));
        };
        let rank = Rank::from_code(r)
            .filter(|&rank| notation.admits(rank))
            .ok_or_else(|| CardError::Rank(text.to_owned()))?;
        let suit = match (notation, s) {
            (Notation::Homework, 's') | (Notation::Durak, 'S') => Suit::Spades,
            (Notation::Homework, 'h') | (Notation::Durak, 'H') => Suit::Hearts,
            (Notation::Homework, 'c') | (Notation::Durak, 'C') => Suit::Clubs,
            (Notation::Homework, 'd') | (Notation::Durak, 'D') => Suit::Diamonds,
            _ => return Err(CardError::Suit(text.to_owned())),
        };
        Ok(Card { rank, suit })
    }

    /// The card's two characters in the given notation, e.g. `['T', 'd']` or `['T', 'D']`.
    pub const fn chars(self, notation: Notation) -> [char; 2] {
        let suit = self.suit.code();
        let suit = match notation {
            Notation::Homework => suit,
            Notation::Durak => suit.to_ascii_uppercase(),
        };
        [self.rank.code(), suit]
    }

    /// A `Display` of the card in the given notation.
    pub const fn display(self, notation: Notation) -> impl fmt::Display {
        CardText(self, notation)
    }
}

struct CardText(Card, Notation);

impl fmt::Display for CardText {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [r, s] = self.0.chars(self.1);
        write!(f, "{r}{s}")
    }
}

/// Homework notation (`As`, `Td`), the notation of [`crate::Deck`]'s `Display`.
impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        CardText(*self, Notation::Homework).fmt(f)
    }
}

/// Parses the homework notation; see [`Card::parse`].
impl std::str::FromStr for Card {
    type Err = CardError;

    fn from_str(text: &str) -> Result<Card, CardError> {
        Card::parse(text, Notation::Homework)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn homework_notation_round_trips_all_52_cards() {
        for rank in Rank::DESCENDING {
            for suit in Suit::ALL {
                let card = Card::new(rank, suit);
                let text = card.to_string();
                assert_eq!(text.len(), 2);
                assert_eq!(text.parse::<Card>(), Ok(card));
            }
        }
        assert_eq!("Td".parse(), Ok(Card::new(Rank::Ten, Suit::Diamonds)));
        assert_eq!("2c".parse(), Ok(Card::new(Rank::Two, Suit::Clubs)));
    }

    #[test]
    fn durak_notation_has_ranks_six_to_ace_and_upper_case_suits() {
        let ts = Card::parse("TS", Notation::Durak).unwrap();
        assert_eq!(ts, Card::new(Rank::Ten, Suit::Spades));
        assert_eq!(ts.display(Notation::Durak).to_string(), "TS");
        assert_eq!(
            Card::parse("6H", Notation::Durak),
            Ok(Card::new(Rank::Six, Suit::Hearts))
        );
        assert!(matches!(
            Card::parse("5H", Notation::Durak),
            Err(CardError::Rank(_))
        ));
        assert!(matches!(
            Card::parse("6h", Notation::Durak),
            Err(CardError::Suit(_))
        ));
        assert!(matches!(
            Card::parse("6H", Notation::Homework),
            Err(CardError::Suit(_))
        ));
    }

    #[test]
    fn bad_text_is_refused_with_the_reason() {
        assert!(matches!("A".parse::<Card>(), Err(CardError::Length(_))));
        assert!(matches!("Ass".parse::<Card>(), Err(CardError::Length(_))));
        assert!(matches!("1s".parse::<Card>(), Err(CardError::Rank(_))));
        assert!(matches!("Ax".parse::<Card>(), Err(CardError::Suit(_))));
        assert_eq!(
            "Ax".parse::<Card>().unwrap_err().to_string(),
            "card \"Ax\" has an unknown suit"
        );
    }

    #[test]
    fn war_values_follow_the_statement_table() {
        let values: Vec<u8> = Rank::DESCENDING.iter().map(|r| r.war_value()).collect();
        assert_eq!(values, [15, 14, 13, 12, 10, 9, 8, 7, 6, 5, 4, 3, 2]);
    }

    #[test]
    fn suits_cycle_s_h_c_d() {
        assert_eq!(Suit::Diamonds.next(), Suit::Spades);
        assert_eq!(Suit::Spades.next(), Suit::Hearts);
    }
}
