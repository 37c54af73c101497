//! [`Deck`]: a pile of cards kept as a hand-written singly linked list.
//!
//! The homework requires the deck and every player's pile to be a singly
//! linked list (`docs/rules/homework.md` §2). Nodes are `Box`ed and owned
//! by the previous node (`Option<Box<Node>>`), so the list is safe Rust. The
//! shuffles and games move nodes between lists ([`Deck::move_front_to`],
//! [`Deck::append`], [`Deck::split_off`]) rather than copying cards.

use std::fmt;

use crate::card::{Card, CardError, Notation, Rank, Suit};

type Link = Option<Box<Node>>;

struct Node {
    card: Card,
    next: Link,
}

/// A sequence of cards, front (top of the pile) first, as a singly linked list.
///
/// Costs: `push_front`, `pop_front`, `front`, `len`, `move_front_to` are O(1);
/// `push_back`, `append`, `split_off`, `get`, `remove_first` walk the list.
/// Dropping a list of any length uses constant stack.
#[derive(Default)]
pub struct Deck {
    head: Link,
    len: usize,
}

impl Deck {
    /// An empty deck.
    pub const fn new() -> Deck {
        Deck { head: None, len: 0 }
    }

    /// The homework's canonical 52-card deck: ranks A down to 2, each rank's
    /// suits in the order s, h, c, d: `As Ah Ac Ad Ks ... 2c 2d`
    /// (`docs/rules/homework.md` §1.2).
    pub fn standard() -> Deck {
        Deck::descending_from(Rank::Two)
    }

    /// The 36-card Durak deck in the same order, ranks A down to 6:
    /// `AS AH AC AD KS ... 6C 6D` in Durak notation (`docs/rules/durak.md` §1.2).
    pub fn durak() -> Deck {
        Deck::descending_from(Rank::Six)
    }

    fn descending_from(lowest: Rank) -> Deck {
        Rank::DESCENDING
            .into_iter()
            .filter(|&rank| rank >= lowest)
            .flat_map(|rank| Suit::ALL.map(|suit| Card::new(rank, suit)))
            .collect()
    }

    /// Reads cards separated by white space in the given notation, top first
    /// (`"As Kd Tc"`); an empty text is an empty deck.
    ///
    /// # Errors
    /// The [`CardError`] of the first card that does not parse.
    pub fn parse(text: &str, notation: Notation) -> Result<Deck, CardError> {
        text.split_whitespace()
            .map(|word| Card::parse(word, notation))
            .collect()
    }

    /// A `Display` of the cards separated by one space in the given notation.
    pub fn display(&self, notation: Notation) -> impl fmt::Display + '_ {
        DeckText(self, notation)
    }

    /// Number of cards.
    pub const fn len(&self) -> usize {
        self.len
    }

    /// `true` when the deck holds no card.
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The top card, if any.
    pub fn front(&self) -> Option<Card> {
        self.head.as_ref().map(|node| node.card)
    }

    /// The card at `index` (0 = top), walking the list; `None` past the end.
    pub fn get(&self, index: usize) -> Option<Card> {
        self.iter().nth(index)
    }

    /// Puts a card on top.
    pub fn push_front(&mut self, card: Card) {
        self.push_front_node(Box::new(Node { card, next: None }));
    }

    /// Takes the top card off.
    pub fn pop_front(&mut self) -> Option<Card> {
        self.pop_front_node().map(|node| node.card)
    }

    /// Puts a card at the bottom (walks the list).
    pub fn push_back(&mut self, card: Card) {
        *self.tail_link() = Some(Box::new(Node { card, next: None }));
        self.len += 1;
    }

    /// Moves the top card of `self` onto the top of `dst`, relinking the node
    /// (no allocation). Returns the card moved, `None` when `self` is empty.
    pub fn move_front_to(&mut self, dst: &mut Deck) -> Option<Card> {
        let node = self.pop_front_node()?;
        let card = node.card;
        dst.push_front_node(node);
        Some(card)
    }

    /// Moves the top card of `self` to the bottom of `dst`, relinking the node
    /// (walks `dst`). Returns the card moved, `None` when `self` is empty.
    pub fn move_front_to_back(&mut self, dst: &mut Deck) -> Option<Card> {
        let node = self.pop_front_node()?;
        let card = node.card;
        *dst.tail_link() = Some(node);
        dst.len += 1;
        Some(card)
    }

    /// Moves the top card to the bottom of the same deck (walks the list).
    /// Returns that card, `None` when the deck is empty.
    pub fn rotate_front_to_back(&mut self) -> Option<Card> {
        let node = self.pop_front_node()?;
        let card = node.card;
        *self.tail_link() = Some(node);
        self.len += 1;
        Some(card)
    }

    /// Unlinks the first card (from the top) for which `pred` holds and puts
    /// its node on top of `dst`. Returns that card, `None` when none matches.
    pub fn move_first_matching_to(
        &mut self,
        mut pred: impl FnMut(Card) -> bool,
        dst: &mut Deck,
    ) -> Option<Card> {
        let mut link = &mut self.head;
        while link.as_ref().is_some_and(|node| !pred(node.card)) {
            // The condition just checked that `link` holds a node.
            link = &mut link.as_mut()?.next;
        }
        let mut node = link.take()?;
        *link = node.next.take();
        self.len -= 1;
        let card = node.card;
        dst.push_front_node(node);
        Some(card)
    }

    /// Moves every card of `other` to the bottom of `self`, keeping their
    /// order, and leaves `other` empty. Walks `self` once; no allocation.
    pub fn append(&mut self, other: &mut Deck) {
        if other.head.is_some() {
            *self.tail_link() = other.head.take();
            self.len += std::mem::take(&mut other.len);
        }
    }

    /// Splits the deck in two: `self` keeps the first `at` cards and the rest
    /// is returned, in order. Walks `at` nodes; no allocation.
    ///
    /// # Panics
    /// When `at > self.len()`, like `Vec::split_off`.
    pub fn split_off(&mut self, at: usize) -> Deck {
        assert!(
            at <= self.len,
            "split index {at} past the end of a deck of {}",
            self.len
        );
        let mut link = &mut self.head;
        for _ in 0..at {
            // `at <= len`, so the first `at` links all hold nodes.
            link = &mut link.as_mut().expect("length invariant").next;
        }
        let rest = Deck {
            head: link.take(),
            len: self.len - at,
        };
        self.len = at;
        rest
    }

    /// Cuts the deck into `k` consecutive piles of `len / k` cards each, top
    /// pile first (any remainder is dropped with the deck). Relinks nodes.
    ///
    /// # Panics
    /// When `k` is 0.
    pub fn split_into(mut self, k: usize) -> Vec<Deck> {
        let size = self.len / k;
        (0..k)
            .map(|_| {
                let rest = self.split_off(size);
                std::mem::replace(&mut self, rest)
            })
            .collect()
    }

    /// Reverses the deck in place by relinking: the top card becomes the
    /// bottom one (`docs/rules/homework.md` §3.1).
    pub fn reverse(&mut self) {
        let mut reversed: Link = None;
        let mut rest = self.head.take();
        while let Some(mut node) = rest {
            rest = node.next.take();
            node.next = reversed;
            reversed = Some(node);
        }
        self.head = reversed;
    }

    /// The cards from top to bottom.
    pub fn iter(&self) -> Iter<'_> {
        Iter {
            next: self.head.as_deref(),
        }
    }

    fn push_front_node(&mut self, mut node: Box<Node>) {
        node.next = self.head.take();
        self.head = Some(node);
        self.len += 1;
    }

    fn pop_front_node(&mut self) -> Option<Box<Node>> {
        let mut node = self.head.take()?;
        self.head = node.next.take();
        self.len -= 1;
        Some(node)
    }

    /// The empty link after the last node.
    fn tail_link(&mut self) -> &mut Link {
        let mut link = &mut self.head;
        while let Some(node) = link {
            link = &mut node.next;
        }
        link
    }
}

impl Drop for Deck {
    /// Frees node by node, so a long list does not recurse through `Box` drops.
    fn drop(&mut self) {
        let mut rest = self.head.take();
        while let Some(mut node) = rest {
            rest = node.next.take();
        }
    }
}

impl Clone for Deck {
    fn clone(&self) -> Deck {
        self.iter().collect()
    }
}

impl PartialEq for Deck {
    fn eq(&self, other: &Deck) -> bool {
        self.len == other.len && self.iter().eq(other.iter())
    }
}

impl Eq for Deck {}

struct DeckText<'a>(&'a Deck, Notation);

impl fmt::Display for DeckText<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, card) in self.0.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            fmt::Display::fmt(&card.display(self.1), f)?;
        }
        Ok(())
    }
}

/// Cards separated by one space, homework notation: `As Ah Ac`.
impl fmt::Display for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        DeckText(self, Notation::Homework).fmt(f)
    }
}

/// Parses the homework notation; see [`Deck::parse`].
impl std::str::FromStr for Deck {
    type Err = CardError;

    fn from_str(text: &str) -> Result<Deck, CardError> {
        Deck::parse(text, Notation::Homework)
    }
}

impl fmt::Debug for Deck {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Deck[{self}]")
    }
}

/// Borrowing iterator over a [`Deck`], top first. One pointer wide (the
/// next node, or none), which the C ABI's `cg_deck_iter` relies on.
#[repr(transparent)]
pub struct Iter<'a> {
    next: Option<&'a Node>,
}

impl Iterator for Iter<'_> {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        let node = self.next?;
        self.next = node.next.as_deref();
        Some(node.card)
    }
}

impl<'a> IntoIterator for &'a Deck {
    type Item = Card;
    type IntoIter = Iter<'a>;

    fn into_iter(self) -> Iter<'a> {
        self.iter()
    }
}

/// Owning iterator over a [`Deck`], top first; frees nodes as it goes.
pub struct IntoIter(Deck);

impl Iterator for IntoIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        self.0.pop_front()
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        (self.0.len, Some(self.0.len))
    }
}

impl ExactSizeIterator for IntoIter {}

impl IntoIterator for Deck {
    type Item = Card;
    type IntoIter = IntoIter;

    fn into_iter(self) -> IntoIter {
        IntoIter(self)
    }
}

/// Adds the cards at the bottom, in order (walks the list once).
impl Extend<Card> for Deck {
    fn extend<I: IntoIterator<Item = Card>>(&mut self, cards: I) {
        let mut added = 0;
        let mut link = self.tail_link();
        for card in cards {
            link = &mut link.insert(Box::new(Node { card, next: None })).next;
            added += 1;
        }
        self.len += added;
    }
}

/// Builds a deck whose top card is the iterator's first.
impl FromIterator<Card> for Deck {
    fn from_iter<I: IntoIterator<Item = Card>>(cards: I) -> Deck {
        let mut deck = Deck::new();
        deck.extend(cards);
        deck
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(text: &str) -> Deck {
        text.parse().unwrap()
    }

    #[test]
    fn parse_and_display_in_both_notations() {
        let d = Deck::parse(" TS\t6H  AD ", Notation::Durak).unwrap();
        assert_eq!(d.display(Notation::Durak).to_string(), "TS 6H AD");
        assert_eq!(d.to_string(), "Ts 6h Ad");
        assert!(Deck::parse("", Notation::Homework).unwrap().is_empty());
        assert_eq!(
            "As 1s".parse::<Deck>(),
            Err(CardError::Rank("1s".to_owned()))
        );
    }

    #[test]
    fn split_into_cuts_consecutive_equal_piles() {
        let piles = deck("As Kd Tc Jd 9h 2c").split_into(3);
        let texts: Vec<String> = piles.iter().map(Deck::to_string).collect();
        assert_eq!(texts, ["As Kd", "Tc Jd", "9h 2c"]);
        assert_eq!(piles.iter().map(Deck::len).collect::<Vec<_>>(), [2, 2, 2]);
    }

    #[test]
    fn standard_deck_is_the_canonical_order() {
        let d = Deck::standard();
        assert_eq!(d.len(), 52);
        let text = d.to_string();
        assert!(text.starts_with("As Ah Ac Ad Ks Kh Kc Kd Qs"), "{text}");
        assert!(text.ends_with("3d 2s 2h 2c 2d"), "{text}");
        assert_eq!(d.get(16), Some("Ts".parse().unwrap()));
        assert_eq!(d.get(52), None);
    }

    #[test]
    fn durak_deck_has_36_cards_from_ace_to_six() {
        let d = Deck::durak();
        assert_eq!(d.len(), 36);
        assert!(d.iter().all(|c| c.rank >= Rank::Six));
        assert_eq!(d.iter().last(), Some(Card::new(Rank::Six, Suit::Diamonds)));
    }

    #[test]
    fn front_and_back_operations_keep_order_and_length() {
        let mut d = Deck::new();
        assert!(d.is_empty());
        d.push_back("Kd".parse().unwrap());
        d.push_front("As".parse().unwrap());
        d.push_back("2c".parse().unwrap());
        assert_eq!(d.to_string(), "As Kd 2c");
        assert_eq!(d.len(), 3);
        assert_eq!(d.pop_front(), Some("As".parse().unwrap()));
        assert_eq!(d.front(), Some("Kd".parse().unwrap()));
        assert_eq!(d.len(), 2);
    }

    #[test]
    fn reverse_matches_the_statement_example() {
        let mut d = deck("As Kd Tc Jd 9h");
        d.reverse();
        assert_eq!(d, deck("9h Jd Tc Kd As"));
    }

    #[test]
    fn split_off_and_append_relink() {
        let mut d = deck("As Kd Tc Jd 9h");
        let mut rest = d.split_off(2);
        assert_eq!((d.to_string(), d.len()), ("As Kd".into(), 2));
        assert_eq!((rest.to_string(), rest.len()), ("Tc Jd 9h".into(), 3));
        rest.append(&mut d);
        assert!(d.is_empty());
        assert_eq!((rest.to_string(), rest.len()), ("Tc Jd 9h As Kd".into(), 5));
        let all = rest.split_off(0);
        assert!(rest.is_empty());
        assert_eq!(all.len(), 5);
    }

    #[test]
    #[should_panic(expected = "past the end")]
    fn split_off_past_the_end_panics() {
        deck("As").split_off(2);
    }

    #[test]
    fn node_moves_relink_between_decks() {
        let mut hand = deck("As Kd Tc Jd 9h");
        let mut table = Deck::new();
        assert_eq!(hand.move_front_to(&mut table), Some("As".parse().unwrap()));
        let picked = hand.move_first_matching_to(|c| c.suit == Suit::Diamonds, &mut table);
        assert_eq!(picked, Some("Kd".parse().unwrap()));
        let picked = hand.move_first_matching_to(|c| c.suit == Suit::Hearts, &mut table);
        assert_eq!(picked, Some("9h".parse().unwrap()));
        assert_eq!(
            hand.move_first_matching_to(|c| c.suit == Suit::Spades, &mut table),
            None
        );
        assert_eq!((hand.to_string(), hand.len()), ("Tc Jd".into(), 2));
        assert_eq!((table.to_string(), table.len()), ("9h Kd As".into(), 3));
    }

    #[test]
    fn owning_iterator_and_extend_preserve_order() {
        let mut d = deck("As Kd");
        d.extend(deck("Tc Jd"));
        assert_eq!(d.len(), 4);
        let cards: Vec<String> = d.into_iter().map(|c| c.to_string()).collect();
        assert_eq!(cards, ["As", "Kd", "Tc", "Jd"]);
    }

    #[test]
    fn a_million_nodes_drop_without_overflowing_the_stack() {
        let card = Card::new(Rank::Ace, Suit::Spades);
        let mut d = Deck::new();
        for _ in 0..1_000_000 {
            d.push_front(card);
        }
        assert_eq!(d.len(), 1_000_000);
        drop(d);
    }
}
