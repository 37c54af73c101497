//! Egyptian Scarabs (scarabei) for any number of players on linked-list piles
//! (`docs/rules/homework.md` §6).

use super::GameError;
use crate::card::{Card, Rank};
use crate::deck::Deck;

/// The three kinds of card in Scarabs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// A, K, Q or J: the next player must answer with a scarab or an 8.
    Scarab,
    /// Any 8: reverses the direction, or passes a pending scarab on.
    Eight,
    /// Anything else.
    Number,
}

impl Kind {
    /// The kind of a card.
    pub fn of(card: Card) -> Kind {
        match card.rank {
            Rank::Ace | Rank::King | Rank::Queen | Rank::Jack => Kind::Scarab,
            Rank::Eight => Kind::Eight,
            _ => Kind::Number,
        }
    }
}

/// What one turn of Scarabs did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Turn {
    /// Who turned a card (0-based seat).
    pub player: usize,
    /// The card turned.
    pub card: Card,
    /// When the card was a number on a pending scarab: the seat that took
    /// the table (the last scarab player).
    pub taken_by: Option<usize>,
}

/// A game of Egyptian Scarabs in progress.
#[derive(Debug, Clone)]
pub struct Scarabs {
    piles: Vec<Deck>,
    /// Cards of the current hand, the last one turned on top.
    table: Deck,
    /// Whose turn it is (0-based).
    turn: usize,
    /// `true` while play goes 0 -> 1 -> 2 -> ..; an 8 flips it.
    forward: bool,
    /// The last player to turn a scarab while a scarab is pending.
    claim: Option<usize>,
    /// How many players hold cards (are in the rotation).
    holders: usize,
    turns: u64,
}

impl Scarabs {
    /// A game that runs longer than this many turns is cut off with
    /// [`GameError::TooLong`]. Real deals end within a few thousand.
    pub const TURN_LIMIT: u64 = 1_000_000;

    /// Deals a shuffled 52-card deck to four players, 13 consecutive cards
    /// each: player 1 the first 13, and so on.
    pub fn deal(deck: Deck) -> Scarabs {
        Scarabs::new(deck.split_into(4))
    }

    /// A game from the given piles, top card first; seat 0 starts.
    pub fn new(piles: Vec<Deck>) -> Scarabs {
        Scarabs {
            holders: piles.iter().filter(|p| !p.is_empty()).count(),
            piles,
            table: Deck::new(),
            turn: 0,
            forward: true,
            claim: None,
            turns: 0,
        }
    }

    /// The pile of seat `player` (0-based), top card first.
    pub fn pile(&self, player: usize) -> &Deck {
        &self.piles[player]
    }

    /// How many seats play.
    pub fn players(&self) -> usize {
        self.piles.len()
    }

    /// Whose turn it is (0-based seat).
    pub const fn current_player(&self) -> usize {
        self.turn
    }

    /// `true` while play goes 0 -> 1 -> 2 -> ..; an 8 flips it.
    pub const fn forward(&self) -> bool {
        self.forward
    }

    /// `true` while a scarab waits for an answer.
    pub const fn scarab_pending(&self) -> bool {
        self.claim.is_some()
    }

    /// The seat that turned the pending scarab: the one who takes the table
    /// if a number answers it; `None` when no scarab is pending.
    pub const fn claimant(&self) -> Option<usize> {
        self.claim
    }

    /// The cards of the current hand, the last one turned first.
    pub fn table(&self) -> &Deck {
        &self.table
    }

    /// The winner's 0-based seat once one player is left in the rotation
    /// (the only one holding cards), even if the last hand is still on the table.
    pub fn winner(&self) -> Option<usize> {
        if self.holders == 1 {
            self.piles.iter().position(|p| !p.is_empty())
        } else {
            None
        }
    }

    /// Plays one turn: the player to move turns his top card onto the table.
    ///
    /// With no scarab pending, a scarab makes one pending (this player's
    /// claim), an 8 reverses the direction, a number does nothing. With a
    /// scarab pending, a scarab takes over the claim, an 8 passes play on
    /// (the claim stays), and a number gives the whole table to the claimant,
    /// appended to his pile last-turned first; he starts the next hand. Play
    /// then passes in the current direction to the next player who holds
    /// cards: a player with an empty pile is out of the rotation until he
    /// wins a table. Returns `None` once the game is over.
    #[inline(always)]
    pub fn play_turn(&mut self) -> Option<Turn> {
        if self.holders <= 1 {
            return None;
        }
        let player = self.turn;
        let card = self.piles[player].move_front_to(&mut self.table)?;
        if self.piles[player].is_empty() {
            self.holders -= 1;
        }
        let mut taken_by = None;
        match (Kind::of(card), self.claim) {
            (Kind::Scarab, _) => self.claim = Some(player),
            (Kind::Eight, None) => self.forward = !self.forward,
            (Kind::Eight, Some(_)) | (Kind::Number, None) => {}
            (Kind::Number, Some(claimant)) => {
                if self.piles[claimant].is_empty() {
                    self.holders += 1;
                }
                self.piles[claimant].append(&mut self.table);
                self.claim = None;
                taken_by = Some(claimant);
            }
        }
        self.turn = match taken_by {
            Some(claimant) => claimant,
            None => self.next_holder(player),
        };
        self.turns += 1;
        Some(Turn {
            player,
            card,
            taken_by,
        })
    }

    /// The next seat after `player`, in the current direction, that holds cards
    /// (`player` itself when nobody else does).
    fn next_holder(&self, player: usize) -> usize {
        let last = self.piles.len() - 1;
        let mut seat = player;
        for _ in 0..last {
            seat = match (self.forward, seat) {
                (true, s) if s == last => 0,
                (true, s) => s + 1,
                (false, 0) => last,
                (false, s) => s - 1,
            };
            if !self.piles[seat].is_empty() {
                return seat;
            }
        }
        player
    }

    /// Plays to the end and returns the winner's 0-based seat.
    ///
    /// # Errors
    /// [`GameError::TooLong`] after [`Scarabs::TURN_LIMIT`] turns.
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
                return self.winner().ok_or(GameError::NoCards);
            }
        }
        self.winner().ok_or(GameError::TooLong {
            game: "scarabei",
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

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(text: &str) -> Deck {
        text.parse().unwrap()
    }

    fn piles(game: &Scarabs) -> Vec<String> {
        (0..game.piles.len())
            .map(|p| game.pile(p).to_string())
            .collect()
    }

    #[test]
    fn a_number_on_a_scarab_gives_the_table_to_the_scarab_player_reversed() {
        // The start of the original test scarabei1: 0 turns As, 1 answers 6s.
        let mut game = Scarabs::new(vec![
            deck("As 8c Ah"),
            deck("6s Kd"),
            deck("Jh"),
            deck("3h"),
        ]);
        game.play_turn();
        let turn = game.play_turn().unwrap();
        assert_eq!(turn.taken_by, Some(0));
        assert_eq!(piles(&game)[0], "8c Ah 6s As");
        assert!(game.table().is_empty());
        assert_eq!(game.turn, 0, "the winner of the hand starts the next");
    }

    #[test]
    fn an_eight_reverses_only_when_no_scarab_is_pending() {
        let mut game = Scarabs::new(vec![deck("8c 2c"), deck("5d"), deck("Jh"), deck("3h 4h")]);
        game.play_turn();
        assert_eq!(game.turn, 3, "8c reversed the direction");
        game.play_turn(); // 3h: no constraint
        game.play_turn(); // Jh by 2: scarab pending, claim 2
        assert_eq!(game.claim, Some(2));
        game.play_turn(); // 5d by 1: number on a scarab, 2 takes
        assert_eq!(game.pile(2).to_string(), "5d Jh 3h 8c");
        assert_eq!(game.turn, 2);
    }

    #[test]
    fn an_eight_on_a_pending_scarab_passes_on_and_the_claim_stays() {
        let mut game = Scarabs::new(vec![deck("Ks 2s"), deck("8h 3s"), deck("4d 5d")]);
        game.play_turn(); // Ks: claim 0
        game.play_turn(); // 8h on a scarab: no reversal, claim stays 0
        assert!(game.forward);
        assert_eq!(game.turn, 2);
        let turn = game.play_turn().unwrap(); // 4d: 0 takes
        assert_eq!(turn.taken_by, Some(0));
        assert_eq!(game.pile(0).to_string(), "2s 4d 8h Ks");
    }

    #[test]
    fn a_player_leaves_with_his_last_card_and_comes_back_with_a_won_table() {
        // 0 turns his last card, a scarab, and leaves the rotation; 1 answers
        // with a number, so 0 takes the table, comes back and starts.
        let mut game = Scarabs::new(vec![deck("Qd"), deck("2c 3c"), deck("4c")]);
        game.play_turn();
        assert!(game.pile(0).is_empty());
        assert_eq!(game.turn, 1);
        game.play_turn();
        assert_eq!(game.pile(0).to_string(), "2c Qd");
        assert_eq!(game.turn, 0);
        assert_eq!(game.winner(), None);
    }

    #[test]
    fn the_game_ends_when_one_player_is_left_even_with_a_claim_pending() {
        // 0 leaves with a scarab; only 1 holds cards, so 1 wins at once.
        let game = Scarabs::new(vec![deck("Qd"), deck("2c 3c")]);
        assert_eq!(game.play(), Ok(1));
    }

    #[test]
    fn a_number_as_last_card_skips_the_empty_seat() {
        let mut game = Scarabs::new(vec![deck("2d"), deck("3d 9c"), deck("4d 9h")]);
        game.play_turn();
        game.play_turn();
        game.play_turn();
        assert_eq!(game.turn, 1, "seat 0 is out of the rotation");
    }

    #[test]
    fn cards_are_conserved_every_turn() {
        let mut game = Scarabs::deal(Deck::standard());
        while game.play_turn().is_some() {
            let held: usize = (0..4).map(|p| game.pile(p).len()).sum();
            assert_eq!(held + game.table().len(), 52);
        }
        assert!(game.winner().is_some());
    }

    #[test]
    fn a_game_past_its_turn_limit_is_cut_off_with_a_clear_error() {
        let mut game = Scarabs::deal(Deck::standard());
        let err = game.play_within(10).unwrap_err();
        assert_eq!(
            err,
            GameError::TooLong {
                game: "scarabei",
                turns: 10
            }
        );
        assert!(err.to_string().contains("loops forever"), "{err}");
        // The same deal, allowed exactly the turns it needs, ends normally.
        let mut full = Scarabs::deal(Deck::standard());
        let winner = full.play_to_end().unwrap();
        let mut exact = Scarabs::deal(Deck::standard());
        assert_eq!(exact.play_within(full.turns()), Ok(winner));
        let mut short = Scarabs::deal(Deck::standard());
        assert!(short.play_within(full.turns() - 1).is_err());
    }
}
