//! The opponent's pending claim read through its own eyes
//! ([`crate::coup::SearchConfig::mind`]): for each hand the posterior
//! allows, how likely a player holding it was to make this claim, found by
//! searching its decision from its seat.
//!
//! The learnt bluff ratio says how often the opponent claims a character
//! it lacks, on average over its hands and positions; which hands and
//! positions those bluffs come from is what the ratio cannot say. A player
//! holding a Captain and an Assassin has honest actions that a player
//! holding two Contessas lacks, so a Tax claim is likelier a bluff from the
//! second. Here each hand's likelihood of the claim is the softmax of the
//! values of its legal answers at the claim's decision (the caller's
//! playouts, with my habits as the opponent has seen them; my hand drawn
//! from the cards it cannot see). That likelihood is the hand's factor,
//! with the claim's learnt ratio over its prior: the reading says which
//! hands bluff, the opponent's record how much more or less than others.

use rand::seq::SliceRandom;
use rand::RngExt;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::coup::game::character::Character;
use crate::coup::game::engine::{Cards, State};
use crate::coup::game::protocol::Reply;

/// A small floor on each action's probability, shared evenly over the
/// legal actions: a player may do anything now and then, and no hand is
/// ruled out by one claim.
const TREMBLE: f64 = 0.1;

/// The opponent's turn as it stood before its pending claim: what it saw.
pub(super) struct Turn<'a> {
    /// Cards not seen by me (my hand and the dead cards excluded), by
    /// [`Character::index`].
    pub unseen: &'a [u32; 5],
    /// My hand (hidden from the opponent).
    pub mine: &'a [Character],
    /// Coins by seat.
    pub coins: [i64; 2],
    /// My seat; the opponent's is the other.
    pub me: usize,
    /// Calls made before the claim (the claim's call number).
    pub calls: usize,
    /// The line before the claim: empty at its turn's start, my action
    /// before its block.
    pub before: &'a [char],
    /// The claim made.
    pub claim: Reply,
}

/// How the claim is read.
pub(super) struct Reading {
    /// The softmax temperature, in win probability
    /// ([`crate::coup::SearchConfig::mind`]).
    pub temperature: f64,
    /// Worlds per hand ([`crate::coup::SearchConfig::mind_worlds`]).
    pub worlds: usize,
}

/// Plays a state to its end (or the search's horizon, counted from the
/// state's call) by both seats' playout habits; the value for the seat
/// given, in [0, 1].
pub(super) type Playout<'a> = &'a dyn Fn(&mut State, usize, &mut ChaCha8Rng) -> f64;

/// Factors on the posterior weights of `hands` (each a hand of the
/// opponent with its weight): the claim's likelihood for the hand (see the
/// module's docs). A hand of zero weight gets factor 1.
pub(super) fn claim_factors(
    hands: &[(Vec<Character>, f64)],
    turn: &Turn,
    reading: &Reading,
    playout: Playout,
    rng: &mut ChaCha8Rng,
) -> Vec<f64> {
    let them = 1 - turn.me;
    let likelihood: Vec<Option<f64>> = hands
        .iter()
        .map(|(hand, w)| {
            (*w > 0.0).then(|| {
                let seed = rng.random::<u64>();
                claim_probability(hand, turn, them, reading, playout, seed)
            })
        })
        .collect();
    likelihood.into_iter().map(|l| l.unwrap_or(1.0)).collect()
}

/// The probability that the opponent (seat `them`) holding `hand` makes
/// `turn.claim` after `turn.before`: the softmax of each legal answer's
/// value over the reading's worlds (common random numbers across the
/// answers), with [`TREMBLE`].
fn claim_probability(
    hand: &[Character],
    turn: &Turn,
    them: usize,
    reading: &Reading,
    playout: Playout,
    seed: u64,
) -> f64 {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    // The cards it cannot see: the ones I cannot, less its hand, and mine.
    let mut pool: Vec<Character> = Vec::new();
    for c in Character::ALL {
        let held = hand.iter().filter(|&&h| h == c).count() as u32;
        for _ in 0..turn.unseen[c.index()].saturating_sub(held) {
            pool.push(c);
        }
    }
    pool.extend_from_slice(turn.mine);
    let mut dealt = [Cards::default(); 2];
    dealt[them] = Cards::from_slice(hand);
    let start = State::from_parts(turn.coins, dealt, Cards::default(), turn.before, turn.calls);
    let Some(legal) = start.legal() else {
        return 1.0;
    };
    let actions = legal.as_slice();
    let Some(chosen) = actions.iter().position(|&a| a == turn.claim) else {
        return 1.0;
    };
    let mut wins = vec![0.0; actions.len()];
    for _ in 0..reading.worlds {
        pool.shuffle(&mut rng);
        let (mine, deck) = pool.split_at(turn.mine.len().min(pool.len()));
        let mut world = start;
        world.hands[turn.me] = Cards::from_slice(mine);
        world.deck = Cards::from_slice(deck);
        let seed: u64 = rng.random();
        for (i, &a) in actions.iter().enumerate() {
            let mut s = world;
            let mut r = ChaCha8Rng::seed_from_u64(seed);
            wins[i] += match s.apply(a, None, &mut r) {
                Some(end) => end.reward(them),
                None => playout(&mut s, them, &mut r),
            };
        }
    }
    let n = reading.worlds.max(1) as f64;
    let best = wins.iter().copied().fold(f64::MIN, f64::max) / n;
    let t = reading.temperature.max(1e-6);
    let weights: Vec<f64> = wins.iter().map(|w| ((w / n - best) / t).exp()).collect();
    let total: f64 = weights.iter().sum();
    TREMBLE / actions.len() as f64 + (1.0 - TREMBLE) * weights[chosen] / total
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::coup::bot::config::SearchConfig;
    use crate::coup::bot::rollout::{playout, Habits};
    use crate::coup::game::protocol::Action;
    use Character::{Assassin, Contessa, Duke};

    const READING: Reading = Reading {
        temperature: 0.03,
        worlds: 64,
    };

    /// The search's playouts with these habits.
    fn factors(
        hands: &[(Vec<Character>, f64)],
        turn: &Turn,
        reading: &Reading,
        habits: &[Habits; 2],
        seed: u64,
    ) -> Vec<f64> {
        let config = SearchConfig::default();
        let play = |s: &mut State, seat: usize, rng: &mut ChaCha8Rng| {
            let from = s.calls;
            playout(s, seat, habits, &config, from, rng)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        claim_factors(hands, turn, reading, &play, &mut rng)
    }

    /// The cards I cannot see when I hold `mine`: three of each character
    /// less mine (docs/rules/coup.md §1).
    fn unseen(mine: &[Character]) -> [u32; 5] {
        Character::ALL.map(|c| 3 - mine.iter().filter(|&&m| m == c).count() as u32)
    }

    #[test]
    fn an_assassination_against_a_player_who_challenges_everything_is_honest() {
        // I hold one Duke and challenge every claim; the opponent (seat 1,
        // one card, 3 coins) assassinates. With an Assassin that wins at
        // once, challenged or not (a lost challenge costs my last card,
        // docs/rules/coup.md §3); with a Contessa the challenge catches
        // the bluff and it loses its last card. So only the tremble is
        // left for the bluffer.
        let mine = [Duke];
        let mut habits = [Habits::mine(); 2];
        habits[0].challenge = [[[1.0; crate::coup::bot::opponent::RACES]; 2]; 4];
        let turn = Turn {
            unseen: &unseen(&mine),
            mine: &mine,
            coins: [1, 3],
            me: 0,
            calls: 9,
            before: &[],
            claim: Reply::Act(Action::Assassinate),
        };
        let hands = vec![(vec![Assassin], 1.0), (vec![Contessa], 1.0)];
        let f = factors(&hands, &turn, &READING, &habits, 7);
        // Each likelihood is the tremble shared over its six legal actions
        // (Income, Foreign Aid, Tax, Steal, Assassinate, Exchange) plus the
        // rest by the softmax of their values: the Assassin's holder gives
        // nearly all of the rest to the Assassination, the Contessa's
        // holder nearly none.
        let share = |x: f64| (x - TREMBLE / 6.0) / (1.0 - TREMBLE);
        assert!(share(f[0]) > 0.95, "{f:?}");
        assert!(share(f[1]) < 0.01, "{f:?}");
        // Replays: the same seed gives the same factors.
        assert_eq!(factors(&hands, &turn, &READING, &habits, 7), f);
    }
}
