//! The playouts of the search: how each side plays the rest of a game
//! ([`Habits`], [`rollout_answer`], [`rollout_keep`]), and a world played to
//! its end or cut at the horizon and valued ([`playout`], [`cut_value`]).
//! Neither policy looks at the other side's cards.

use rand::{Rng, RngExt};

use super::config::{fixed, SearchConfig};
use super::opponent::{
    kind_index, race_standing, ClaimAt, Model, ACTION_KINDS, BLOCK_KINDS, RACES,
};

use crate::coup::game::character::Character;
use crate::coup::game::engine::{at_turn_start, Cards, State};
use crate::coup::game::protocol::{Action, Block, Reply};
use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

/// A learnt likelihood ratio of claiming a character without it, in a
/// claim's context (see [`Model::resolved_action_ratio`]).
type BluffRatio = fn(&Model, Character, ClaimAt) -> f64;

/// The opponent's bluff ratios the configuration reads, `(actions, blocks)`:
/// from its resolved claims ([`SearchConfig::resolved_bluffs`]) or from
/// its challenged ones.
pub(super) fn bluff_ratios(c: &SearchConfig) -> (BluffRatio, BluffRatio) {
    if c.resolved_bluffs {
        (Model::resolved_action_ratio, Model::resolved_block_ratio)
    } else {
        (
            |m: &Model, c, _| m.action_bluff_ratio(c),
            |m: &Model, c, _| m.block_bluff_ratio(c),
        )
    }
}

/// How one side plays out the rest of a game: probabilities of its choices
/// that its cards do not decide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Habits {
    /// Challenges of the other's action claims (Exchange, Tax, Steal,
    /// Assassinate), by own card count (index 0: one card, 1: two) and race
    /// standing ([`race_standing`] of own coins against the claimant's).
    pub challenge: [[[f64; RACES]; 2]; 4],
    /// Challenges of the other's blocks `a c d s`.
    pub challenge_block: [f64; 4],
    /// Blocks without the card, of Foreign Aid, Steal, Assassination.
    pub block_bluff: [f64; 3],
    /// Blocks with the card.
    pub block_held: f64,
    /// Tax claimed without a Duke at a turn start.
    pub tax_bluff: f64,
    /// An Exchange with an Ambassador at a turn with nothing better to do
    /// ([`fixed::ROLLOUT_EXCHANGE`]).
    pub exchange: f64,
    /// Foreign Aid rather than Income at such a turn
    /// ([`fixed::ROLLOUT_FOREIGN_AID`]).
    pub foreign_aid: f64,
}

impl Habits {
    /// My own habits in rollouts ([`fixed`]).
    pub fn mine() -> Habits {
        Habits {
            challenge: [[[fixed::MY_CHALLENGE; RACES]; 2]; 4],
            challenge_block: [fixed::MY_CHALLENGE; 4],
            block_bluff: [fixed::MY_BLOCK_BLUFF; 3],
            block_held: fixed::BLOCK_WHEN_HELD,
            tax_bluff: fixed::MY_TAX_BLUFF,
            exchange: fixed::ROLLOUT_EXCHANGE,
            foreign_aid: fixed::ROLLOUT_FOREIGN_AID,
        }
    }

    /// The opponent's habits, learnt: its challenge rates from [`Model`]
    /// (Beta posteriors of its answers to my claims), its bluff rates from
    /// the likelihood ratios of its caught and proved claims (a ratio `r`
    /// of claiming without the card to claiming with it means a bluff rate
    /// `r` times the rate of claiming with it), those against my `mine`
    /// cards at the root. Its challenge rates are identified
    /// ([`Model::identified_action_rate`]) and, with `by_race`, read in the
    /// race standing of the moment ([`Model::challenge_action_at`]; how
    /// [`SearchConfig::mind`] sees my habits as an adaptive player would).
    pub fn learnt(m: &Model, c: &SearchConfig, mine: usize, by_race: bool) -> Habits {
        let mut challenge = [[[0.0; RACES]; 2]; 4];
        for (k, a) in ACTION_KINDS.into_iter().enumerate() {
            for (two, cards) in challenge[k].iter_mut().enumerate() {
                for (race, r) in cards.iter_mut().enumerate() {
                    let n = two + 1;
                    let rate = if by_race {
                        m.challenge_action_at(a, n, race)
                    } else {
                        m.challenge_action(a, n)
                    };
                    *r = m.identified_action_rate(rate);
                }
            }
        }
        let mut challenge_block = [0.0; 4];
        for (k, b) in BLOCK_KINDS.into_iter().enumerate() {
            challenge_block[k] = m.identified_challenge_block(b);
        }
        let held = fixed::BLOCK_WHEN_HELD;
        let (action, block) = bluff_ratios(c);
        let pooled = ClaimAt::against(mine);
        Habits {
            challenge,
            challenge_block,
            block_bluff: [
                (block(m, Duke, pooled) * held).min(1.0),
                (block(m, Captain, pooled) * held).min(1.0),
                (block(m, Contessa, pooled) * held).min(1.0),
            ],
            block_held: held,
            // It claims Tax at every turn it holds a Duke (the rollout
            // policy), so its rate without one is the ratio itself.
            tax_bluff: action(m, Duke, pooled).min(1.0),
            exchange: fixed::ROLLOUT_EXCHANGE,
            foreign_aid: fixed::ROLLOUT_FOREIGN_AID,
        }
    }
}

/// How much a card is worth keeping in a rollout (higher: kept longer).
fn keep_rank(c: Character) -> u8 {
    match c {
        Duke => 5,
        Assassin => 4,
        Captain => 3,
        Contessa => 2,
        Ambassador => 1,
    }
}

/// A rollout policy's answer for the seat to call. Looks only at public
/// facts (coins, card counts, the line) and the seat's own cards.
pub(super) fn rollout_answer<R: Rng + ?Sized>(
    s: &State,
    legal: &[Reply],
    habits: &Habits,
    rng: &mut R,
) -> Reply {
    let me = s.to_call();
    let hand = s.hands[me];
    let (c, oc) = (s.coins[me], s.coins[1 - me]);
    let ok = s.hands[1 - me].len();
    let has = |x: Character| hand.contains(x);
    let can = |r: Reply| legal.contains(&r);
    let worst = || {
        let w = hand
            .as_slice()
            .iter()
            .copied()
            .min_by_key(|&x| keep_rank(x))
            .unwrap_or(Ambassador);
        legal
            .iter()
            .copied()
            .find(|r| matches!(r, Reply::GiveUp(x) | Reply::GiveUpEnd(x) if *x == w))
            .unwrap_or(legal[0])
    };
    if legal.len() <= 1 {
        return legal.first().copied().unwrap_or(Reply::EndTurn);
    }
    // The last event of the line; none at a turn's start.
    let last = s.line().last().and_then(|&c| Reply::from_code(c));
    let two = (hand.len() >= 2) as usize;
    let race = race_standing(c, oc);
    let act = |a: Action| Reply::Act(a);
    match last {
        None => {
            if can(act(Action::Coup)) && (c >= 7) {
                return act(Action::Coup);
            }
            if has(Assassin) && can(act(Action::Assassinate)) {
                return act(Action::Assassinate);
            }
            if has(Duke) {
                return act(Action::Tax);
            }
            if has(Captain) && oc >= 2 && can(act(Action::Steal)) {
                return act(Action::Steal);
            }
            if rng.random_bool(habits.tax_bluff.clamp(0.0, 1.0)) {
                return act(Action::Tax);
            }
            if has(Ambassador) && ok > 0 && rng.random_bool(habits.exchange.clamp(0.0, 1.0)) {
                return act(Action::Exchange);
            }
            if rng.random_bool(habits.foreign_aid.clamp(0.0, 1.0)) {
                act(Action::ForeignAid)
            } else {
                act(Action::Income)
            }
        }
        Some(Reply::Act(Action::ForeignAid)) => {
            if (has(Duke) && rng.random_bool(habits.block_held))
                || rng.random_bool(habits.block_bluff[0].clamp(0.0, 1.0))
            {
                Reply::Block(Block::Duke)
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(a @ (Action::Exchange | Action::Tax))) => {
            let k = kind_index(&ACTION_KINDS, a).unwrap_or(0);
            if rng.random_bool(habits.challenge[k][two][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(Action::Steal)) => {
            if has(Captain) && rng.random_bool(habits.block_held) {
                Reply::Block(Block::Captain)
            } else if has(Ambassador) && rng.random_bool(habits.block_held) {
                Reply::Block(Block::Ambassador)
            } else if rng.random_bool(habits.challenge[2][two][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else if rng.random_bool(habits.block_bluff[1].clamp(0.0, 1.0)) {
                Reply::Block(Block::Captain)
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(Action::Assassinate)) => {
            if has(Contessa) {
                Reply::Block(Block::Contessa)
            } else if hand.len() <= 1 {
                // Giving up loses the game: contest it one way or the other.
                if rng.random_bool(habits.challenge[3][0][race].clamp(0.0, 1.0)) {
                    Reply::Challenge
                } else {
                    Reply::Block(Block::Contessa)
                }
            } else if rng.random_bool(habits.challenge[3][1][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else if rng.random_bool(habits.block_bluff[2].clamp(0.0, 1.0)) {
                Reply::Block(Block::Contessa)
            } else {
                worst()
            }
        }
        Some(Reply::Block(b)) => {
            let k = kind_index(&BLOCK_KINDS, b).unwrap_or(0);
            if rng.random_bool(habits.challenge_block[k].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else {
                Reply::EndTurn
            }
        }
        _ => {
            // A forced reveal, a card to give up, or the end of a turn.
            if let Some(&r) = legal.iter().find(|r| matches!(r, Reply::Reveal(_))) {
                return r;
            }
            if legal.contains(&Reply::EndTurn) {
                return Reply::EndTurn;
            }
            worst()
        }
    }
}

/// The best `size` cards of an Exchange offer by [`keep_rank`], a second
/// copy of a character last.
pub(super) fn rollout_keep(pool: &[Character], size: usize) -> Cards {
    let mut sorted = pool.to_vec();
    sorted.sort_by_key(|&c| std::cmp::Reverse(keep_rank(c)));
    let mut kept = Cards::default();
    for &c in &sorted {
        if kept.len() < size && !kept.contains(c) {
            kept.push(c);
        }
    }
    for &c in &sorted {
        if kept.len() < size {
            let mut left = Cards::from_slice(pool);
            for &k in kept.as_slice() {
                left.remove(k);
            }
            if left.contains(c) {
                kept.push(c);
            }
        }
    }
    kept
}

/// The value of a rollout cut at the horizon, for seat `me`
/// ([`SearchConfig::card_value`], [`fixed::COIN_VALUE`]).
pub(crate) fn cut_value(s: &State, me: usize, c: &SearchConfig) -> f64 {
    let mk = s.hands[me].len().clamp(1, 2) - 1;
    let ok = s.hands[1 - me].len().clamp(1, 2) - 1;
    let lead = (s.coins[me] - s.coins[1 - me]) as f64;
    (c.card_value[mk][ok] + fixed::COIN_VALUE * lead).clamp(0.0, 1.0)
}

/// Whether a rollout may be cut at the horizon in `s`: not once both
/// players are down to their last card, where the next successful
/// challenge, Assassination or Coup ends the game and the coins decide who
/// gets there first, which [`cut_value`]'s card values and linear coin lead
/// cannot tell: such a world is played to its end (measured in
/// `docs/experiments/coup.md`, "Endgames played to the end").
pub(super) fn may_cut(s: &State) -> bool {
    !s.hands[0].is_empty() && s.hands.iter().any(|h| h.len() >= 2)
}

/// Plays a world to its end (or to the horizon); 1.0 when seat `me` wins,
/// 0.0 otherwise (a draw loses both players).
/// The horizon counts the calls made since call number `start`.
pub(super) fn playout<R: Rng + ?Sized>(
    s: &mut State,
    me: usize,
    habits: &[Habits; 2],
    config: &SearchConfig,
    start: usize,
    rng: &mut R,
) -> f64 {
    loop {
        if s.out_of_calls() {
            return 0.0;
        }
        // Past the horizon, cut at a turn's start (or once the quiescence
        // extension is spent).
        let played = s.calls - start;
        if config.horizon > 0
            && played >= config.horizon
            && may_cut(s)
            && (at_turn_start(s.line()) || played >= config.horizon + config.quiescence)
        {
            return cut_value(s, me, config);
        }
        let seat = s.to_call();
        let mut keep = None;
        if s.exchange_due() {
            if !s.draw_exchange() {
                return 0.0;
            }
            keep = Some(rollout_keep(
                s.exchange_pool().as_slice(),
                s.hands[seat].len(),
            ));
        }
        let Some(legal) = s.legal().filter(|l| !l.as_slice().is_empty()) else {
            return 0.0;
        };
        let answer = rollout_answer(s, legal.as_slice(), &habits[seat], rng);
        let kept = keep.as_ref().map(|k| k.as_slice());
        if let Some(end) = s.apply(answer, kept, rng) {
            return end.reward(me);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::rand_core::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    /// My rollout (seat 0: two cards, 8 coins) cut at once, `line` being the
    /// turn so far with seat 1 to answer it at call 1, under `quiescence`:
    /// its value and the calls made when it was cut.
    fn cut(line: &[char], quiescence: usize) -> (f64, usize) {
        let config = SearchConfig {
            horizon: 1,
            quiescence,
            ..SearchConfig::default()
        };
        let hands = [
            Cards::from_slice(&[Duke, Contessa]),
            Cards::from_slice(&[Captain, Assassin]),
        ];
        let deck = Cards::from_slice(&[Ambassador; 5]);
        let mut s = State::from_parts([8, 2], hands, deck, line, 1);
        let habits = [Habits::mine(); 2];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let v = playout(&mut s, 0, &habits, &config, 0, &mut rng);
        (v, s.calls)
    }

    #[test]
    fn quiescence_cuts_a_rollout_only_between_turns() {
        let c = SearchConfig::default();
        assert_eq!((c.quiescence, c.arm(1).quiescence), (8, 0));
        let [_, [two_vs_one, two_vs_two]] = c.card_value;
        let close = |(x, calls): (f64, usize), want: f64, at: usize| {
            assert!(
                (x - want).abs() < 1e-12 && calls == at,
                "{x} at call {calls} against {want} at {at}"
            );
        };
        // Cut right after my Coup: two cards each, 6 coins ahead, as if it
        // had not been made.
        close(cut(&['C'], 0), two_vs_two + 6.0 * fixed::COIN_VALUE, 1);
        // Cut between turns: its card given up (my 7 coins paid), my turn
        // ended, its turn to come: two cards against one, 1 coin behind.
        close(cut(&['C'], 8), two_vs_one - fixed::COIN_VALUE, 3);
        // The extension is capped: one call past the horizon, mid-turn.
        close(cut(&['C'], 1), two_vs_one - fixed::COIN_VALUE, 2);
        // A turn's start is cut at once.
        close(
            cut(&['I', '\n'], 8),
            two_vs_two + 6.0 * fixed::COIN_VALUE,
            1,
        );
    }

    #[test]
    fn a_world_with_one_card_each_is_played_to_its_end() {
        // One card each at a turn's start, horizon 1: never cut, so every
        // world ends in a win or a loss (a cut would give 0.39 and coins).
        let config = SearchConfig {
            horizon: 1,
            ..SearchConfig::default()
        };
        let habits = [Habits::mine(); 2];
        let deck = Cards::from_slice(&[Ambassador, Ambassador, Captain, Assassin, Contessa]);
        for seed in 0..50 {
            let hands = [Cards::from_slice(&[Duke]), Cards::from_slice(&[Captain])];
            let mut s = State::from_parts([3, 2], hands, deck, &[], 4);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let v = playout(&mut s, 0, &habits, &config, 4, &mut rng);
            assert!(v == 0.0 || v == 1.0, "seed {seed}: {v} at call {}", s.calls);
            assert!(s.calls > 5, "seed {seed}: ended at call {}", s.calls);
        }
        // Two cards against one are cut at the horizon as before.
        let hands = [
            Cards::from_slice(&[Duke, Contessa]),
            Cards::from_slice(&[Captain]),
        ];
        let mut s = State::from_parts([3, 2], hands, deck, &[], 4);
        let mut rng = ChaCha8Rng::seed_from_u64(0);
        let v = playout(&mut s, 0, &habits, &config, 4, &mut rng);
        assert!(v > 0.0 && v < 1.0, "{v}");
    }
}
