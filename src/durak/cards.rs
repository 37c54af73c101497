//! Card indices and card sets for the 36-card Durak deck (`docs/rules/durak.md` §1.2: ranks
//! `6 7 8 9 T J Q K A`, suits `H S C D`).
//!
//! Index of a card = `4 * (rank - 6) + suit index`, so a lower index never has a higher rank.
//! A [`CardSet`] is a 36-bit mask over those indices; it is what hands and tables are made of.

use crate::card::{Card, Rank, Suit};

/// Number of cards in the Durak deck.
pub const DECK_SIZE: usize = 36;

/// The nine Durak ranks, lowest first.
pub const RANKS: [Rank; 9] = [
    Rank::Six,
    Rank::Seven,
    Rank::Eight,
    Rank::Nine,
    Rank::Ten,
    Rank::Jack,
    Rank::Queen,
    Rank::King,
    Rank::Ace,
];

/// Rank index 0 (six) ..= 8 (ace). Ranks below six are clamped to 0 (they never occur in Durak).
pub fn rank_index(rank: Rank) -> u8 {
    (rank as u8).saturating_sub(Rank::Six as u8)
}

/// The card's index 0..36 in the Durak deck.
pub fn index(card: Card) -> u8 {
    rank_index(card.rank) * 4 + card.suit.index() as u8
}

/// The card with index `i` (0..36); indices are taken modulo 36.
pub fn card_at(i: u8) -> Card {
    let i = i % DECK_SIZE as u8;
    Card::new(RANKS[usize::from(i / 4)], Suit::ALL[usize::from(i % 4)])
}

/// True when `defence` beats `attack` with this trump: a higher card of the same suit, or any
/// trump over a non-trump; a trump only by a higher trump (`docs/rules/durak.md` §2.2).
pub fn beats(attack: Card, defence: Card, trump: Suit) -> bool {
    if defence.suit == attack.suit {
        defence.rank > attack.rank
    } else {
        defence.suit == trump
    }
}

/// A strength value for heuristics: rank index 0..9, plus 9 for trumps (so every trump
/// outranks every plain card).
pub fn value(card: Card, trump: Suit) -> u8 {
    rank_index(card.rank) + if card.suit == trump { 9 } else { 0 }
}

/// A set of Durak cards as a 36-bit mask (bit = [`index`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct CardSet(pub u64);

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// All 36 cards.
    pub const ALL: CardSet = CardSet((1u64 << DECK_SIZE) - 1);

    /// Whether the card is in the set.
    pub fn contains(self, card: Card) -> bool {
        self.0 & (1u64 << index(card)) != 0
    }
    /// Adds a card.
    pub fn insert(&mut self, card: Card) {
        self.0 |= 1u64 << index(card);
    }
    /// Removes a card; returns whether it was there.
    pub fn remove(&mut self, card: Card) -> bool {
        let had = self.contains(card);
        self.0 &= !(1u64 << index(card));
        had
    }
    /// Number of cards.
    pub fn len(self) -> usize {
        self.0.count_ones() as usize
    }
    /// Whether the set is empty.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }
    /// Union.
    pub fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }
    /// Cards of `self` not in `other`.
    pub fn minus(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }
    /// Intersection.
    pub fn intersect(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }
    /// All four cards of the ranks present in `self` (the throw-in mask of a table).
    pub fn rank_closure(self) -> CardSet {
        let mut out = 0u64;
        for r in 0..9 {
            if self.0 & (0xF << (4 * r)) != 0 {
                out |= 0xF << (4 * r);
            }
        }
        CardSet(out)
    }
    /// All cards of one suit.
    pub fn suit(suit: Suit) -> CardSet {
        let mut m = 0u64;
        for r in 0..9 {
            m |= 1 << (4 * r + suit.index());
        }
        CardSet(m)
    }
    /// The cards, lowest index (lowest rank) first.
    pub fn iter(self) -> impl Iterator<Item = Card> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let i = bits.trailing_zeros() as u8;
            bits &= bits - 1;
            Some(card_at(i))
        })
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for c in iter {
            set.insert(c);
        }
        set
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn indices_round_trip_over_the_deck() {
        for i in 0..36u8 {
            assert_eq!(index(card_at(i)), i);
        }
        let all: CardSet = crate::deck::Deck::durak().iter().collect();
        assert_eq!(all, CardSet::ALL);
    }
}
