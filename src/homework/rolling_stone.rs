//! Rolling Stone for any number of players on linked-list hands
//! (`docs/rules/homework.md` §5).

use super::GameError;
use crate::card::{Card, Suit};
use crate::deck::Deck;

/// What one turn of Rolling Stone did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Turn {
    /// `player` (0-based) followed the suit in play (or led it) with `card`.
    Played {
        /// 0-based seat.
        player: usize,
        /// The card put on the table.
        card: Card,
    },
    /// `player` could not follow suit, took the `taken` table cards and led
    /// `card` of the next suit he holds.
    TookAndLed {
        /// 0-based seat.
        player: usize,
        /// How many cards he picked up.
        taken: usize,
        /// The card he led.
        card: Card,
    },
}

/// A player's hand kept as one linked list per suit (s, h, c, d), as the
/// reference debug dumps show it: a suit's list keeps the hand order of that
/// suit's cards, so "the first card of the suit" is its list's front.
type Hand = [Deck; 4];

/// A game of Rolling Stone in progress.
#[derive(Debug, Clone)]
pub struct RollingStone {
    hands: Vec<Hand>,
    /// Cards on the table, the last one played on top.
    table: Deck,
    /// Whose turn it is (0-based).
    turn: usize,
    /// The suit in play; `None` before the first lead.
    suit: Option<Suit>,
    winner: Option<usize>,
    turns: u64,
}

impl RollingStone {
    /// A game that runs longer than this many turns is cut off with
    /// [`GameError::TooLong`]. Real deals end within a few thousand.
    pub const TURN_LIMIT: u64 = 1_000_000;

    /// Deals a shuffled 52-card deck to four players, 13 consecutive cards
    /// each: player 1 the first 13, and so on.
    pub fn deal(deck: Deck) -> RollingStone {
        RollingStone::new(deck.split_into(4))
    }

    /// A game from the given hands (seat 0 leads first). A player dealt no
    /// card has already won.
    pub fn new(hands: Vec<Deck>) -> RollingStone {
        let winner = hands.iter().position(Deck::is_empty);
        let hands = hands
            .into_iter()
            .map(|mut deck| {
                let mut by_suit = Hand::default();
                sort_into_suits(&mut deck, &mut by_suit);
                by_suit
            })
            .collect();
        RollingStone {
            hands,
            table: Deck::new(),
            turn: 0,
            suit: None,
            winner,
            turns: 0,
        }
    }

    /// The cards of `suit` in the hand of seat `player` (0-based), in hand order.
    pub fn hand(&self, player: usize, suit: Suit) -> &Deck {
        &self.hands[player][suit.index()]
    }

    /// How many seats play.
    pub fn players(&self) -> usize {
        self.hands.len()
    }

    /// Whose turn it is (0-based seat).
    pub const fn current_player(&self) -> usize {
        self.turn
    }

    /// The suit in play; `None` before the first lead.
    pub const fn suit(&self) -> Option<Suit> {
        self.suit
    }

    /// How many cards seat `player` (0-based) holds.
    pub fn hand_len(&self, player: usize) -> usize {
        self.hands[player].iter().map(Deck::len).sum()
    }

    /// The cards on the table, the last one played first.
    pub fn table(&self) -> &Deck {
        &self.table
    }

    /// The winner's 0-based seat once someone has played his last card.
    pub const fn winner(&self) -> Option<usize> {
        self.winner
    }

    /// Plays one turn: the player to move plays the first card of the suit in
    /// play from his hand; without one, he takes the whole table (appended to
    /// his hand in table order) and leads the first suit he holds from the
    /// next one in the order s -> h -> c -> d -> s. The first lead of the game
    /// starts from s. Returns `None` once the game is over.
    #[inline(always)]
    pub fn play_turn(&mut self) -> Option<Turn> {
        if self.winner.is_some() {
            return None;
        }
        let player = self.turn;
        let hand = &mut self.hands[player];
        let turn = match self.suit {
            Some(suit) => match hand[suit.index()].move_front_to(&mut self.table) {
                Some(card) => Turn::Played { player, card },
                None => {
                    // Everything on the table follows the suit led since the
                    // last take, so the table joins that suit's list whole.
                    let taken = self.table.len();
                    self.table.reverse();
                    hand[suit.index()].append(&mut self.table);
                    let card = lead(hand, suit.next(), &mut self.table);
                    self.suit = Some(card.suit);
                    Turn::TookAndLed {
                        player,
                        taken,
                        card,
                    }
                }
            },
            None => {
                let card = lead(hand, Suit::Spades, &mut self.table);
                self.suit = Some(card.suit);
                Turn::Played { player, card }
            }
        };
        if self.hands[player].iter().all(Deck::is_empty) {
            self.winner = Some(player);
        }
        self.turn = (player + 1) % self.hands.len();
        self.turns += 1;
        Some(turn)
    }

    /// Plays to the end and returns the winner's 0-based seat.
    ///
    /// # Errors
    /// [`GameError::TooLong`] after [`RollingStone::TURN_LIMIT`] turns.
    pub fn play_to_end(&mut self) -> Result<usize, GameError> {
        self.play_within(Self::TURN_LIMIT)
    }

    /// Plays until the game is over or `turn_limit` turns have been played in
    /// all, and returns the winner's 0-based seat.
    ///
    /// # Errors
    /// [`GameError::TooLong`] when the limit is reached with no winner.
    pub fn play_within(&mut self, turn_limit: u64) -> Result<usize, GameError> {
        while self.turns < turn_limit {
            if self.play_turn().is_none() {
                return self.winner.ok_or(GameError::NoCards);
            }
        }
        self.winner.ok_or(GameError::TooLong {
            game: "rollingstone",
            turns: self.turns,
        })
    }

    /// Plays to the end and returns the winner's 0-based seat; see
    /// [`Self::play_to_end`].
    ///
    /// # Errors
    /// As [`Self::play_to_end`].
    pub fn play(mut self) -> Result<usize, GameError> {
        self.play_to_end()
    }

    /// Turns played so far.
    pub const fn turns(&self) -> u64 {
        self.turns
    }
}

/// Moves every card of `cards` to the bottom of the hand's suit lists,
/// keeping their order within each suit. Leaves `cards` empty.
fn sort_into_suits(cards: &mut Deck, hand: &mut Hand) {
    // Reversed into per-suit stacks, each suit comes out in the original order.
    cards.reverse();
    let mut stacks = Hand::default();
    while let Some(card) = cards.front() {
        cards.move_front_to(&mut stacks[card.suit.index()]);
    }
    for (list, stack) in hand.iter_mut().zip(&mut stacks) {
        list.append(stack);
    }
}

/// Moves the first card of the first suit held, starting from `from` in the
/// circular order, from a non-empty hand to the table.
fn lead(hand: &mut Hand, from: Suit, table: &mut Deck) -> Card {
    let mut suit = from;
    while hand[suit.index()].is_empty() {
        suit = suit.next();
    }
    hand[suit.index()]
        .move_front_to(table)
        .expect("the hand holds this suit")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(text: &str) -> Deck {
        text.parse().unwrap()
    }

    fn card(text: &str) -> Card {
        text.parse().unwrap()
    }

    /// A hand listed suit by suit (s, h, c, d), each suit in hand order.
    fn held(game: &RollingStone, player: usize) -> String {
        let cards: Vec<String> = Suit::ALL
            .iter()
            .flat_map(|&suit| game.hand(player, suit).iter())
            .map(|c| c.to_string())
            .collect();
        cards.join(" ")
    }

    #[test]
    fn players_follow_suit_with_their_first_card_of_it() {
        // Seat 0 has no spade: he leads hearts, his first heart.
        let mut game = RollingStone::new(vec![deck("Kc 7h 2h"), deck("3s 9h"), deck("4h Ah 5d")]);
        let lead = game.play_turn();
        assert_eq!(
            lead,
            Some(Turn::Played {
                player: 0,
                card: card("7h")
            })
        );
        assert_eq!(
            game.play_turn(),
            Some(Turn::Played {
                player: 1,
                card: card("9h")
            })
        );
        assert_eq!(
            game.play_turn(),
            Some(Turn::Played {
                player: 2,
                card: card("4h")
            })
        );
        assert_eq!(game.table().to_string(), "4h 9h 7h");
        assert_eq!(held(&game, 0), "2h Kc");
    }

    #[test]
    fn a_player_who_cannot_follow_takes_the_table_and_leads_the_next_suit() {
        // 0 leads 2s, 1 follows with 5s, 2 has no spade: takes "2s 5s" in
        // table order and leads from hearts on: no heart, so clubs.
        let mut game = RollingStone::new(vec![deck("2s Kd"), deck("5s Qd"), deck("Ad 3c 4c")]);
        game.play_turn();
        game.play_turn();
        let turn = game.play_turn();
        assert_eq!(
            turn,
            Some(Turn::TookAndLed {
                player: 2,
                taken: 2,
                card: card("3c")
            })
        );
        assert_eq!(held(&game, 2), "2s 5s 4c Ad");
        assert_eq!(game.table().to_string(), "3c");
        // 0 has no club: takes 3c and leads from diamonds: Kd.
        let turn = game.play_turn();
        assert_eq!(
            turn,
            Some(Turn::TookAndLed {
                player: 0,
                taken: 1,
                card: card("Kd")
            })
        );
        assert_eq!(held(&game, 0), "3c");
    }

    #[test]
    fn the_suit_order_wraps_from_diamonds_to_spades() {
        // 1 cannot follow diamonds: the next suit after d is s.
        let mut game = RollingStone::new(vec![deck("Ad 5d"), deck("Kh Qs 3c")]);
        game.play_turn();
        let turn = game.play_turn();
        assert_eq!(
            turn,
            Some(Turn::TookAndLed {
                player: 1,
                taken: 1,
                card: card("Qs")
            })
        );
    }

    #[test]
    fn the_first_player_to_play_his_last_card_wins() {
        let mut game = RollingStone::new(vec![deck("As 2s"), deck("Ks"), deck("Qs Jh")]);
        game.play_turn();
        game.play_turn();
        assert_eq!(game.winner(), Some(1));
        assert_eq!(game.play_turn(), None);
        assert_eq!(game.play(), Ok(1));
    }

    #[test]
    fn cards_are_conserved_every_turn() {
        let mut game = RollingStone::deal(Deck::standard());
        while game.play_turn().is_some() {
            let held: usize = (0..4).map(|p| game.hand_len(p)).sum();
            assert_eq!(held + game.table().len(), 52);
        }
        assert!(game.winner().is_some());
    }

    #[test]
    fn a_game_past_its_turn_limit_is_cut_off_with_a_clear_error() {
        let mut game = RollingStone::deal(Deck::standard());
        let err = game.play_within(10).unwrap_err();
        assert_eq!(
            err,
            GameError::TooLong {
                game: "rollingstone",
                turns: 10
            }
        );
        assert!(err.to_string().contains("loops forever"), "{err}");
        // The same deal, allowed exactly the turns it needs, ends normally.
        let mut full = RollingStone::deal(Deck::standard());
        let winner = full.play_to_end().unwrap();
        let mut exact = RollingStone::deal(Deck::standard());
        assert_eq!(exact.play_within(full.turns()), Ok(winner));
        let mut short = RollingStone::deal(Deck::standard());
        assert!(short.play_within(full.turns() - 1).is_err());
    }
}
