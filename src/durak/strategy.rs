//! Fast policies: random legal, greedy, and the strong heuristic (the sparring bots, and the
//! playout policy of the search). They decide from a [`Ctx`]: what one player sees.

use rand::seq::IndexedRandom;
use rand::Rng;

use super::cards::{beats, rank_index, value, CardSet};
use super::protocol::Command;
use super::rules::{Answer, Game, Pending, Round};
use super::tracker::Tracker;
use crate::card::{Card, Suit};

/// What a policy sees when it decides.
#[derive(Debug, Clone, Copy)]
pub struct Ctx {
    /// Trump suit.
    pub trump: Suit,
    /// Own hand.
    pub hand: CardSet,
    /// The round on the table (default when leading).
    pub round: Round,
    /// Cards in the talon.
    pub talon: usize,
    /// Hand sizes, indexed like the players of the source (game or tracker).
    pub sizes: [usize; 4],
    /// Who the deciding player is, in the same indexing.
    pub me: usize,
    /// The seat the deciding player leads from (for `MOVE`).
    pub mover_seat: usize,
    /// Who is out.
    pub out: [bool; 4],
}

impl Ctx {
    /// The view of the player asked by `game` (None when the game is over).
    pub fn from_game(game: &Game) -> Option<(Command, Ctx)> {
        let (cmd, p) = match game.pending {
            Pending::Move(p) => (Command::Move, p),
            Pending::Beat(p) => (Command::Beat, p),
            Pending::Add(p) => (Command::Add, p),
            Pending::Over(_) => return None,
        };
        Some((
            cmd,
            Ctx {
                trump: game.trump,
                hand: game.hands[p],
                round: game.round,
                talon: game.talon.len(),
                sizes: game.hands.map(|h| h.len()),
                me: p,
                mover_seat: game.mover_seat,
                out: game.out,
            },
        ))
    }

    /// Player 0's view from a tracker.
    pub fn from_tracker(t: &Tracker) -> Ctx {
        Ctx {
            trump: t.trump.unwrap_or(Suit::Spades),
            hand: t.hand,
            round: t.round.unwrap_or_default(),
            talon: t.talon(),
            sizes: t.sizes,
            me: 0,
            mover_seat: t.mover_seat,
            out: t.out,
        }
    }

    /// Legal answers (from the view; `NO` included for `BEAT` and `ADD`).
    pub fn legal(&self, cmd: Command) -> Vec<Answer> {
        let mut v: Vec<Answer> = match cmd {
            Command::Move => self.hand.iter().map(Answer::Card).collect(),
            Command::Beat => self.beaters().iter().map(Answer::Card).collect(),
            Command::Add => self.throwable().iter().map(Answer::Card).collect(),
        };
        if cmd != Command::Move {
            v.push(Answer::No);
        }
        v
    }

    fn beaters(&self) -> CardSet {
        match self.round.open {
            Some(open) => self
                .hand
                .iter()
                .filter(|&c| beats(open, c, self.trump))
                .collect(),
            None => CardSet::EMPTY,
        }
    }

    fn throwable(&self) -> CardSet {
        if self.round.attacks >= self.round.limit {
            return CardSet::EMPTY;
        }
        self.hand.intersect(self.round.table.rank_closure())
    }

    fn lowest(&self, set: CardSet) -> Option<Card> {
        set.iter().min_by_key(|&c| (value(c, self.trump), c.suit))
    }
}

/// Which policy a bot plays (`durak-bot --strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Strategy {
    /// Uniformly random legal answer.
    Random,
    /// Lowest legal card, always beat when possible, throw in lowest non-trumps.
    Greedy,
    /// The strong hand-written heuristic.
    Heuristic,
    /// Determinized search with heuristic playouts (the contest bot).
    Search,
}

/// The answer of a fast policy (for [`Strategy::Search`] this is the heuristic).
pub fn decide<R: Rng + ?Sized>(strategy: Strategy, cmd: Command, ctx: &Ctx, rng: &mut R) -> Answer {
    match strategy {
        Strategy::Random => *ctx.legal(cmd).choose(rng).unwrap_or(&Answer::No),
        Strategy::Greedy => greedy(cmd, ctx),
        Strategy::Heuristic | Strategy::Search => heuristic(cmd, ctx),
    }
}

/// Greedy: lowest card by value (plain cards below trumps), always beat with the lowest
/// beating card, throw in the lowest plain card of a table rank.
pub fn greedy(cmd: Command, ctx: &Ctx) -> Answer {
    let pick = match cmd {
        Command::Move => ctx.lowest(ctx.hand),
        Command::Beat => ctx.lowest(ctx.beaters()),
        Command::Add => ctx.lowest(ctx.throwable().minus(CardSet::suit(ctx.trump))),
    };
    pick.map_or(Answer::No, Answer::Card)
}

/// The strong heuristic: keeps trumps and high cards, leads low cards (pairs first), takes
/// cheap tables early instead of spending high trumps, throws in generously against the
/// opponents, and sheds everything it can once the talon is empty.
pub fn heuristic(cmd: Command, ctx: &Ctx) -> Answer {
    let trump = ctx.trump;
    let trumps = CardSet::suit(trump);
    let endgame = ctx.talon == 0;
    match cmd {
        Command::Move => {
            let plain = ctx.hand.minus(trumps);
            let pool = if plain.is_empty() { ctx.hand } else { plain };
            let best = pool.iter().min_by_key(|&c| {
                let same = ctx
                    .hand
                    .intersect(CardSet::from_iter([c]).rank_closure())
                    .len() as i32;
                let v = i32::from(value(c, trump));
                // Pairs let the partner and us shed more under the same defender.
                let pair_bonus = if endgame { 3 } else { 2 } * (same - 1);
                (2 * v - pair_bonus, c.suit)
            });
            best.map_or(Answer::No, Answer::Card)
        }
        Command::Beat => {
            let Some(b) = ctx.lowest(ctx.beaters()) else {
                return Answer::No;
            };
            if endgame {
                return Answer::Card(b);
            }
            let table_cards = ctx.round.table.len();
            let table_value: u32 = ctx
                .round
                .table
                .iter()
                .map(|c| u32::from(value(c, trump)))
                .sum();
            let cheap_table = table_cards <= 2 && table_value <= 8;
            if b.suit == trump {
                let r = rank_index(b.rank);
                // A high trump on a cheap early table: take instead.
                if ctx.talon >= 6 && r >= 4 && cheap_table {
                    return Answer::No;
                }
                if ctx.talon >= 10 && r >= 6 && table_cards <= 3 {
                    return Answer::No;
                }
            }
            Answer::Card(b)
        }
        Command::Add => {
            let can = ctx.throwable();
            if can.is_empty() {
                return Answer::No;
            }
            let plain = can.minus(trumps);
            let limit_rank = if endgame {
                9
            } else if ctx.round.taking {
                if ctx.talon <= 6 {
                    8
                } else {
                    6
                }
            } else if ctx.talon <= 6 {
                6
            } else {
                4
            };
            let pick = ctx
                .lowest(plain)
                .filter(|&c| rank_index(c.rank) < limit_rank);
            if let Some(c) = pick {
                return Answer::Card(c);
            }
            if endgame {
                // Shedding is all that counts now, but keep the top trumps for defence.
                let t = ctx
                    .lowest(can.intersect(trumps))
                    .filter(|&c| rank_index(c.rank) <= 4 || ctx.hand.len() <= 2);
                if let Some(c) = t {
                    return Answer::Card(c);
                }
            }
            Answer::No
        }
    }
}
