//! Determinizations: full deals consistent with what a [`Tracker`] has seen and believes,
//! for the deep search and the belief audit (`docs/rules/durak.md` §3 for what is seen).

use rand::seq::SliceRandom;
use rand::Rng;

use super::tracker::Tracker;
use crate::card::Card;
use crate::durak::cards::CardSet;
use crate::durak::protocol::Command;
use crate::durak::rules::{team, Game, Pending, Round};
use crate::durak::seat::Seat;

/// What a determinization assumes beyond the hard facts ([`Tracker::sample_with`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Beliefs {
    /// The facts and the take beliefs only ([`Tracker::banned`]).
    Takes,
    /// Also keep the opponents' [`Tracker::lacks`] out of their hands: opponents beat with
    /// their cheapest beater and throw in the plain cards they can (what `bot_greedy.py`'s and
    /// `bot_smart.py`'s rules do, and this project's heuristic). The deep search's.
    Play,
}

impl Tracker {
    /// A full game consistent with everything seen (a determinization): unknown cards dealt at
    /// random to the others' unknown slots and the talon, waiting for player 0's `command`.
    /// Returns `None` before the trump is known or if player 0 cannot be the one asked.
    /// Assumes [`Beliefs::Takes`].
    pub fn sample_game<R: Rng + ?Sized>(&self, command: Command, rng: &mut R) -> Option<Game> {
        self.sample_with(command, Beliefs::Takes, rng)
    }

    /// [`Tracker::sample_game`] under the given `beliefs`: one shuffle of the unseen cards;
    /// the players with the most barred cards are served first, each from the first cards of
    /// the pool he may hold (his slots drawn since his play beliefs formed only from those
    /// the take beliefs allow), the rest from the pool's end when too few fit; the talon last.
    pub fn sample_with<R: Rng + ?Sized>(
        &self,
        command: Command,
        beliefs: Beliefs,
        rng: &mut R,
    ) -> Option<Game> {
        let trump = self.trump?;
        let mut pool: Vec<Card> = self.unseen().iter().collect();
        pool.shuffle(rng);
        let talon_len = self.talon().min(pool.len());
        let mut hands = [CardSet::EMPTY; 4];
        hands[0] = self.hand;
        let reads = |p: usize| beliefs == Beliefs::Play && team(p) != 0;
        let avoid: [CardSet; 4] = std::array::from_fn(|p| {
            if reads(p) {
                self.banned[p].union(self.lacks[p])
            } else {
                self.banned[p]
            }
        });
        // Players with beliefs about missing cards are served first, from the cards they may
        // hold; if the beliefs cannot all hold, the rest is dealt without them.
        let mut order: Vec<usize> = (1..4).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(avoid[p].len()));
        for p in order {
            hands[p] = self.known[p];
            let missing = self.sizes[p].saturating_sub(self.known[p].len());
            // The slots drawn since the play beliefs were formed only obey the take beliefs.
            let free = if reads(p) {
                self.lacks_free[p].min(missing)
            } else {
                0
            };
            deal(&mut pool, &mut hands[p], missing - free, avoid[p]);
            deal(&mut pool, &mut hands[p], free, self.banned[p]);
        }
        let talon: Vec<Card> = pool.drain(pool.len().saturating_sub(talon_len)..).collect();
        let round = self.round.unwrap_or_default();
        let mut game = Game {
            trump,
            talon,
            hands,
            out: self.out,
            mover_seat: self.mover_seat,
            round,
            rounds: self.rounds.max(1),
            pending: Pending::Move(0),
        };
        match command {
            Command::Move => {
                if game.controller(game.mover_seat) != 0 {
                    let me = Seat::ALL[0];
                    game.mover_seat = if self.out[0] { me.partner() } else { me };
                }
                game.round = Round::default();
            }
            Command::Beat => {
                let r = self.round?;
                r.open?;
                if r.defender != 0 {
                    return None;
                }
                game.pending = Pending::Beat(0);
            }
            Command::Add => {
                self.round?;
                let (throwers, n) = game.throwers();
                let i = throwers[..n].iter().position(|&t| t == 0)?;
                game.round.add_index = i;
                game.pending = Pending::Add(0);
            }
        }
        Some(game)
    }
}

/// Moves `n` cards from `pool` into `hand`, the first ones in pool order that are not in
/// `avoid`; when too few are, the rest from the pool's end regardless.
fn deal(pool: &mut Vec<Card>, hand: &mut CardSet, n: usize, avoid: CardSet) {
    let mut missing = n;
    let mut i = 0;
    while missing > 0 && i < pool.len() {
        if avoid.contains(pool[i]) {
            i += 1;
        } else {
            hand.insert(pool.swap_remove(i));
            missing -= 1;
        }
    }
    while missing > 0 {
        let Some(c) = pool.pop() else { break };
        hand.insert(c);
        missing -= 1;
    }
}
