//! Property tests of the linked-list deck, the shuffles and the homework games
//! against plain `Vec` models and conservation invariants.

use std::collections::HashSet;

use cardgames::homework::{RollingStone, Scarabs, War};
use cardgames::{Card, Deck, Shuffle, Suit};
use proptest::prelude::*;

/// The divisors of 52, the only pile counts n-piles accepts on the full deck.
const DIVISORS: [usize; 6] = [1, 2, 4, 13, 26, 52];

fn npiles() -> impl Strategy<Value = Shuffle> {
    proptest::sample::select(DIVISORS.to_vec())
        .prop_flat_map(|k| Just((1..=k).collect::<Vec<usize>>()).prop_shuffle())
        .prop_map(|order| Shuffle::npiles(order).expect("a permutation"))
}

fn shuffle() -> impl Strategy<Value = Shuffle> {
    prop_oneof![
        Just(Shuffle::Reverse),
        Just(Shuffle::Interleave),
        Just(Shuffle::Mongean),
        npiles(),
    ]
}

fn shuffled(shuffles: &[Shuffle]) -> Deck {
    let mut deck = Deck::standard();
    for s in shuffles {
        s.apply(&mut deck).expect("valid on 52 cards");
    }
    deck
}

/// The straightforward model of each shuffle on a `Vec`.
fn model(cards: &[Card], shuffle: &Shuffle) -> Vec<Card> {
    match shuffle {
        Shuffle::Reverse => cards.iter().rev().copied().collect(),
        Shuffle::Interleave => {
            let (a, b) = cards.split_at(cards.len() / 2);
            a.iter().zip(b).flat_map(|(x, y)| [*x, *y]).collect()
        }
        Shuffle::Mongean => {
            let mut pile = std::collections::VecDeque::new();
            for (i, &c) in cards.iter().enumerate() {
                if i % 2 == 0 {
                    pile.push_back(c);
                } else {
                    pile.push_front(c);
                }
            }
            pile.into()
        }
        Shuffle::NPiles { order } => {
            let size = cards.len() / order.len();
            let piles: Vec<&[Card]> = cards.chunks(size).collect();
            order
                .iter()
                .flat_map(|&i| piles[i - 1].iter().copied())
                .collect()
        }
    }
}

fn assert_full_deck(cards: impl IntoIterator<Item = Card>) {
    let cards: Vec<Card> = cards.into_iter().collect();
    assert_eq!(cards.len(), 52);
    let distinct: HashSet<&Card> = cards.iter().collect();
    assert_eq!(distinct.len(), 52, "a card is duplicated");
}

proptest! {
    #[test]
    fn every_shuffle_sequence_keeps_52_distinct_cards(shuffles in prop::collection::vec(shuffle(), 0..20)) {
        let deck = shuffled(&shuffles);
        prop_assert_eq!(deck.len(), 52);
        assert_full_deck(&deck);
    }

    #[test]
    fn every_shuffle_matches_the_vec_model(before in prop::collection::vec(shuffle(), 0..6), s in shuffle()) {
        let mut deck = shuffled(&before);
        let cards: Vec<Card> = deck.iter().collect();
        s.apply(&mut deck).unwrap();
        prop_assert_eq!(deck.iter().collect::<Vec<_>>(), model(&cards, &s));
        prop_assert_eq!(deck.len(), 52);
    }

    #[test]
    fn reverse_twice_is_the_identity(shuffles in prop::collection::vec(shuffle(), 0..6)) {
        let mut deck = shuffled(&shuffles);
        let before = deck.clone();
        Shuffle::Reverse.apply(&mut deck).unwrap();
        Shuffle::Reverse.apply(&mut deck).unwrap();
        prop_assert_eq!(deck, before);
    }

    #[test]
    fn npiles_in_the_identity_order_is_the_identity(
        shuffles in prop::collection::vec(shuffle(), 0..6),
        k in proptest::sample::select(DIVISORS.to_vec()),
    ) {
        let mut deck = shuffled(&shuffles);
        let before = deck.clone();
        Shuffle::npiles((1..=k).collect()).unwrap().apply(&mut deck).unwrap();
        prop_assert_eq!(deck, before);
    }

    #[test]
    fn war_conserves_cards_every_hand(shuffles in prop::collection::vec(shuffle(), 0..8)) {
        let mut war = War::deal(shuffled(&shuffles));
        while war.outcome().is_none() {
            war.play_hand();
            assert_full_deck(war.pile(1).iter().chain(war.pile(2)));
        }
        prop_assert!(war.hands() <= War::HAND_LIMIT);
    }

    #[test]
    fn rolling_stone_conserves_cards_every_turn(shuffles in prop::collection::vec(shuffle(), 0..8)) {
        let mut game = RollingStone::deal(shuffled(&shuffles));
        let mut turns = 0;
        while game.play_turn().is_some() && turns < 20_000 {
            turns += 1;
            let hands = (0..4).flat_map(|p| Suit::ALL.map(|suit| game.hand(p, suit)));
            assert_full_deck(hands.flat_map(Deck::iter).chain(game.table()));
        }
    }

    #[test]
    fn scarabs_conserve_cards_every_turn(shuffles in prop::collection::vec(shuffle(), 0..8)) {
        let mut game = Scarabs::deal(shuffled(&shuffles));
        let mut turns = 0;
        while game.play_turn().is_some() && turns < 20_000 {
            turns += 1;
            assert_full_deck((0..4).flat_map(|p| game.pile(p).iter()).chain(game.table()));
        }
    }
}
