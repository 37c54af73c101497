//! Fast policies: random legal, greedy, and the strong heuristic (the sparring bots, and the
//! playout policy of the search). They decide from a [`Ctx`]: what one player sees.

use rand::seq::IndexedRandom;
use rand::Rng;

use super::tracker::Tracker;
use crate::card::{Card, Suit};
use crate::durak::cards::{rank_index, value, CardSet};
use crate::durak::legal;
use crate::durak::protocol::Command;
use crate::durak::rules::{Answer, Game, Pending, Round};
use crate::durak::seat::Seat;

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
    pub mover_seat: Seat,
    /// Who is out.
    pub out: [bool; 4],
    /// Cards known to be in each hand (the true hands in a full game; own hand and the
    /// cards seen taken for a tracker).
    pub known: [CardSet; 4],
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
                known: game.hands,
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
            known: {
                let mut k = t.known;
                k[0] = t.hand;
                k
            },
        }
    }

    /// Legal answers (from the view; `NO` included for `BEAT` and `ADD`).
    pub fn legal(&self, cmd: Command) -> Vec<Answer> {
        legal::answers(cmd, self.hand, &self.round, self.trump)
    }

    fn beaters(&self) -> CardSet {
        legal::beaters(self.hand, self.round.open, self.trump)
    }

    fn throwable(&self) -> CardSet {
        legal::throwable(self.hand, &self.round)
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
    /// Determinized search with heuristic playouts to the empty talon and exact endgame
    /// solving, within a share of the time budget ([`super::deep`]; the contest bot).
    Deep,
}

/// The answer of a fast policy (for [`Strategy::Deep`] this is the heuristic, its kept answer).
pub fn policy<R: Rng + ?Sized>(strategy: Strategy, cmd: Command, ctx: &Ctx, rng: &mut R) -> Answer {
    match strategy {
        Strategy::Random => *ctx.legal(cmd).choose(rng).unwrap_or(&Answer::No),
        Strategy::Greedy => greedy(cmd, ctx),
        Strategy::Heuristic | Strategy::Deep => heuristic(cmd, ctx),
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

settings! {
    /// The strong heuristic's knobs (ranks are indices 0 = six ..= 8 = ace). Its other
    /// rules are fixed: plain throw-ins of every rank while the talon lasts, every rank once
    /// it is empty.
    pub struct HeuristicParams {
        take_trump_rank: u8 = 6, [0, 99],
            "Take instead of beating with a trump of at least this rank index (99: never take on purpose)...",
            "own.take_trump_rank 4 / 8: 91.1% / 90.4% vs in-process greedy where 6 won 91.5%, 1,000 games, seed 9001";
        take_talon: usize = 10, [0, 36],
            "...while at least this many cards remain in the talon...",
            "own.take_talon 6 / 14: 91.2% / 91.2% where 10 won 91.5%, same games";
        take_table_value: u32 = 8, [0, 200],
            "...and the table holds at most two cards worth at most this much in total.",
            "hand-set with the heuristic; not measured apart";
        throw_trump_end: u8 = 9, [0, 9],
            "Trumps of a rank index below this may be thrown in once the talon is empty (any when 2 cards or fewer are left; 0: none, the opponents' model).",
            "hand-set with the heuristic; the opponents' plain model uses 0";
        lead_pair: i32 = 2, [-100, 100],
            "How much a lead prefers a rank held several times (per extra card).",
            "own.lead_pair 0 / 4: 92.3% [90.5, 93.8] / 89.6% where 2 won 91.5%, 1,000 games, seed 9001 (noise)";
    }
}

impl HeuristicParams {
    /// A model of a plainer player: never takes on purpose, never throws in trumps.
    pub fn plain() -> HeuristicParams {
        HeuristicParams {
            take_trump_rank: 99,
            throw_trump_end: 0,
            ..HeuristicParams::default()
        }
    }

    /// Reads `key=value` pairs separated by commas over the defaults (keys:
    /// [`HeuristicParams::KEYS`]).
    ///
    /// # Errors
    /// One line naming the first bad item; an unknown key's lists the accepted keys.
    pub fn parse(text: &str) -> Result<HeuristicParams, String> {
        let mut p = HeuristicParams::default();
        for (k, v) in super::settings::pairs(text)? {
            if !p.set(k, v)? {
                return Err(format!(
                    "unknown heuristic setting {k:?} (accepted: {})",
                    HeuristicParams::KEYS.join(", ")
                ));
            }
        }
        Ok(p)
    }
}

/// The strong heuristic with its default knobs.
pub fn heuristic(cmd: Command, ctx: &Ctx) -> Answer {
    heuristic_with(&HeuristicParams::default(), cmd, ctx)
}

/// The strong heuristic: keeps trumps and high cards, leads low cards (pairs first), takes
/// cheap tables early instead of spending high trumps, throws in generously against the
/// opponents, and sheds everything it can once the talon is empty.
pub fn heuristic_with(hp: &HeuristicParams, cmd: Command, ctx: &Ctx) -> Answer {
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
                (2 * v - hp.lead_pair * (same - 1), c.suit)
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
            if b.suit == trump
                && rank_index(b.rank) >= hp.take_trump_rank
                && ctx.talon >= hp.take_talon
                && table_cards <= 2
                && table_value <= hp.take_table_value
            {
                return Answer::No;
            }
            Answer::Card(b)
        }
        Command::Add => {
            let can = ctx.throwable();
            if can.is_empty() {
                return Answer::No;
            }
            if let Some(c) = ctx.lowest(can.minus(trumps)) {
                return Answer::Card(c);
            }
            if endgame {
                let t = ctx
                    .lowest(can.intersect(trumps))
                    .filter(|&c| rank_index(c.rank) < hp.throw_trump_end || ctx.hand.len() <= 2);
                if let Some(c) = t {
                    return Answer::Card(c);
                }
            }
            Answer::No
        }
    }
}
