//! War (razboi) for two players on linked-list piles
//! (`docs/rules/homework.md` §4).

use crate::card::Rank;
use crate::deck::Deck;

/// How a game of War ended. Players are numbered 1 and 2, as in `out`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum WarOutcome {
    /// The winner took all the opponent's cards (`out`: `1` or `2`).
    AllCards {
        /// 1 or 2.
        winner: u8,
    },
    /// After [`War::HAND_LIMIT`] hands the winner held more cards of `rank`,
    /// the first of A, K, Q, .., 3 where the counts differ (`out`: `1 A`).
    MoreOfRank {
        /// 1 or 2.
        winner: u8,
        /// The deciding rank.
        rank: Rank,
    },
    /// After [`War::HAND_LIMIT`] hands both held as many cards of every rank
    /// from A to 3. The statement promises this never happens; `out` has no
    /// way to write it.
    Tie,
}

/// A game of War in progress: two piles, top card first.
#[derive(Debug, Clone)]
pub struct War {
    piles: [Deck; 2],
    hands: u32,
}

impl War {
    /// The game is decided by rank counts after this many hands.
    pub const HAND_LIMIT: u32 = 100;

    /// Deals a shuffled deck: player 1 gets the first half, player 2 the rest
    /// (26 cards each from 52).
    pub fn deal(mut deck: Deck) -> War {
        let second = deck.split_off(deck.len() / 2);
        War::new(deck, second)
    }

    /// A game from two given piles, top card first.
    pub fn new(pile1: Deck, pile2: Deck) -> War {
        War {
            piles: [pile1, pile2],
            hands: 0,
        }
    }

    /// The pile of player 1 or 2, top card first.
    ///
    /// # Panics
    /// For a player other than 1 or 2.
    pub fn pile(&self, player: u8) -> &Deck {
        &self.piles[usize::from(player) - 1]
    }

    /// Hands played so far (a war is part of its hand).
    pub const fn hands(&self) -> u32 {
        self.hands
    }

    /// Plays one hand: both turn their top card; the higher value takes both,
    /// own card first. On equal values each turns
    /// `min(value, cards left of each)` more cards and the last ones decide;
    /// the winner puts at his bottom his own turned cards, last turned first
    /// (his tied card last), then the opponent's the same way. A tie between
    /// the last turned cards starts another war on their value. A player who
    /// has no card left to turn in a war loses it. Returns the hand's winner
    /// (1 or 2), or `None` if the game was already over or both players ran
    /// out in a war (each then takes back his own cards).
    pub fn play_hand(&mut self) -> Option<u8> {
        if self.outcome().is_some() {
            return None;
        }
        self.hands += 1;
        let [pile1, pile2] = &mut self.piles;
        // The turned cards, last turned on top: the order they are picked up in.
        let mut turned = [Deck::new(), Deck::new()];
        let mut card1 = pile1.move_front_to(&mut turned[0])?;
        let mut card2 = pile2.move_front_to(&mut turned[1])?;
        while card1.rank == card2.rank {
            let count = pile1
                .len()
                .min(pile2.len())
                .min(usize::from(card1.rank.war_value()));
            if count == 0 {
                break;
            }
            for _ in 0..count {
                card1 = pile1.move_front_to(&mut turned[0])?;
                card2 = pile2.move_front_to(&mut turned[1])?;
            }
        }
        let winner = match card1.rank.cmp(&card2.rank) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            // Tied with no card left to turn: the one who still has cards wins.
            std::cmp::Ordering::Equal => match pile1.len().cmp(&pile2.len()) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => {
                    let [t1, t2] = &mut turned;
                    pile1.append(t1);
                    pile2.append(t2);
                    return None;
                }
            },
        };
        let [t1, t2] = &mut turned;
        let (own, other) = if winner == 0 { (t1, t2) } else { (t2, t1) };
        own.append(other);
        self.piles[winner].append(own);
        Some(winner as u8 + 1)
    }

    /// The outcome once the game is over: a pile is empty, or
    /// [`War::HAND_LIMIT`] hands were played. `None` while it goes on.
    pub fn outcome(&self) -> Option<WarOutcome> {
        match (self.piles[0].is_empty(), self.piles[1].is_empty()) {
            (false, true) => return Some(WarOutcome::AllCards { winner: 1 }),
            (true, false) => return Some(WarOutcome::AllCards { winner: 2 }),
            (true, true) => return Some(WarOutcome::Tie),
            (false, false) if self.hands < War::HAND_LIMIT => return None,
            (false, false) => {}
        }
        // The statement requires a frequency vector: counts indexed by rank.
        let mut counts = [[0u8; 15]; 2];
        for (pile, count) in self.piles.iter().zip(&mut counts) {
            for card in pile {
                count[card.rank as usize] += 1;
            }
        }
        Rank::DESCENDING[..12]
            .iter()
            .find_map(|&rank| {
                let (a, b) = (counts[0][rank as usize], counts[1][rank as usize]);
                (a != b).then_some(WarOutcome::MoreOfRank {
                    winner: if a > b { 1 } else { 2 },
                    rank,
                })
            })
            .or(Some(WarOutcome::Tie))
    }

    /// Plays to the end (at most [`War::HAND_LIMIT`] hands).
    pub fn play(mut self) -> WarOutcome {
        self.play_to_end()
    }

    /// Plays the remaining hands (at most [`War::HAND_LIMIT`] in all) and
    /// returns the outcome.
    pub fn play_to_end(&mut self) -> WarOutcome {
        loop {
            if let Some(outcome) = self.outcome() {
                return outcome;
            }
            self.play_hand();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Ranks only, as in the statement's example; suits are irrelevant to War.
    fn pile(ranks: &str) -> Deck {
        let suits = ["s", "h", "c", "d"];
        ranks
            .split_whitespace()
            .enumerate()
            .map(|(i, r)| format!("{r}{}", suits[i % 4]).parse().unwrap())
            .collect()
    }

    fn ranks(deck: &Deck) -> String {
        let codes: Vec<String> = deck.iter().map(|c| c.rank.code().to_string()).collect();
        codes.join(" ")
    }

    #[test]
    fn statement_worked_example_hand_by_hand() {
        let mut war = War::new(pile("3 5 T J 8 A 4 7 A"), pile("4 5 K K 6 Q 9 7 T J"));
        assert_eq!(war.play_hand(), Some(2));
        assert_eq!(ranks(war.pile(1)), "5 T J 8 A 4 7 A");
        assert_eq!(ranks(war.pile(2)), "5 K K 6 Q 9 7 T J 4 3");
        assert_eq!(war.play_hand(), Some(2));
        assert_eq!(ranks(war.pile(1)), "7 A");
        assert_eq!(ranks(war.pile(2)), "7 T J 4 3 9 Q 6 K K 5 4 A 8 J T 5");
        assert_eq!(war.play_hand(), Some(1));
        assert_eq!(ranks(war.pile(1)), "A 7 T 7");
        assert_eq!(ranks(war.pile(2)), "J 4 3 9 Q 6 K K 5 4 A 8 J T 5");
        assert_eq!(war.hands(), 3);
        assert_eq!(war.outcome(), None);
    }

    #[test]
    fn the_player_who_runs_out_loses_all() {
        let war = War::new(pile("A K"), pile("2 3"));
        assert_eq!(war.play(), WarOutcome::AllCards { winner: 1 });
    }

    #[test]
    fn a_war_tie_starts_another_war() {
        // 5 vs 5: one more card each (P2 has one left): 9 vs 9, then one
        // more... none left for P2, so P1 (with cards) wins the war.
        let mut war = War::new(pile("5 9 2"), pile("5 9"));
        assert_eq!(war.play_hand(), Some(1));
        assert_eq!(ranks(war.pile(1)), "2 9 5 9 5");
        assert_eq!(war.outcome(), Some(WarOutcome::AllCards { winner: 1 }));
    }

    #[test]
    fn after_100_hands_the_rank_counts_decide_from_aces_down_to_threes() {
        let decided = |p1: &str, p2: &str| {
            let mut war = War::new(pile(p1), pile(p2));
            assert_eq!(war.outcome(), None);
            war.hands = War::HAND_LIMIT;
            war.outcome()
        };
        let more = |winner, rank| Some(WarOutcome::MoreOfRank { winner, rank });
        assert_eq!(decided("A K K 2", "A K Q Q"), more(1, Rank::King));
        assert_eq!(decided("2 J 9", "A 2"), more(2, Rank::Ace));
        assert_eq!(decided("3 3 2", "3 2 2"), more(1, Rank::Three));
        // Twos are not counted: equal counts from A to 3 is a tie.
        assert_eq!(decided("A 2 2", "A 2"), Some(WarOutcome::Tie));
    }

    #[test]
    fn cards_are_conserved_every_hand() {
        let mut war = War::deal(Deck::standard());
        while war.outcome().is_none() {
            war.play_hand();
            assert_eq!(war.pile(1).len() + war.pile(2).len(), 52);
        }
        assert_eq!(war.hands(), 26, "P1 beats P2 in each of the 26 hands");
        assert_eq!(war.outcome(), Some(WarOutcome::AllCards { winner: 1 }));
    }
}
