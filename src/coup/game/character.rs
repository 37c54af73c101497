//! The five Coup characters and their two one-character codes
//! (`docs/rules/coup.md` §3; the arbiter's `punishment_to_reveal`).

use super::CoupError;

/// One of the five characters; the deck holds three of each (15 cards).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Character {
    /// Exchange; blocks Steal. Held `_`, revealed `~`.
    Ambassador,
    /// Assassinate. Held `'`, revealed `^`.
    Assassin,
    /// Steal; blocks Steal. Held `<`, revealed `*`.
    Captain,
    /// Blocks Assassinate. Held `=`, revealed `!`.
    Contessa,
    /// Tax; blocks Foreign Aid. Held `0`, revealed `$`.
    Duke,
}

/// Copies of each character in the deck (`docs/rules/coup.md` §1).
pub const COPIES: usize = 3;

impl Character {
    /// All five characters, in index order (see [`Character::index`]).
    pub const ALL: [Character; 5] = [
        Character::Ambassador,
        Character::Assassin,
        Character::Captain,
        Character::Contessa,
        Character::Duke,
    ];

    /// Index 0..5 in [`Character::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// The "held / given up" code: `_ ' < = 0`.
    pub fn held(self) -> char {
        match self {
            Character::Ambassador => '_',
            Character::Assassin => '\'',
            Character::Captain => '<',
            Character::Contessa => '=',
            Character::Duke => '0',
        }
    }

    /// The "revealed" code (proof of a claim, and the command-line card code): `~ ^ * ! $`.
    pub fn revealed(self) -> char {
        match self {
            Character::Ambassador => '~',
            Character::Assassin => '^',
            Character::Captain => '*',
            Character::Contessa => '!',
            Character::Duke => '$',
        }
    }

    /// Parses a held code (`_ ' < = 0`).
    pub fn from_held(c: char) -> Option<Character> {
        Character::ALL.into_iter().find(|ch| ch.held() == c)
    }

    /// Parses a revealed code (`~ ^ * ! $`).
    pub fn from_revealed(c: char) -> Option<Character> {
        Character::ALL.into_iter().find(|ch| ch.revealed() == c)
    }
}

/// Parses a command-line hand in revealed codes, e.g. `"~!"`.
///
/// # Errors
/// [`CoupError::BadCard`] for any other character.
pub fn parse_hand(text: &str) -> Result<Vec<Character>, CoupError> {
    text.chars()
        .map(|c| Character::from_revealed(c).ok_or(CoupError::BadCard(c)))
        .collect()
}

/// Formats a hand in revealed codes (the command-line and Exchange stdout form).
pub fn format_hand(cards: &[Character]) -> String {
    cards.iter().map(|c| c.revealed()).collect()
}

/// The full 15-card deck, three of each character, unshuffled.
pub fn full_deck() -> Vec<Character> {
    let mut deck = Vec::with_capacity(15);
    for _ in 0..COPIES {
        deck.extend(Character::ALL);
    }
    deck
}
