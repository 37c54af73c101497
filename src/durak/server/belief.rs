//! How well a belief about the hidden cards predicts where they are: the determinizations
//! of [`Tracker::sample_with`] scored against the true deal (a measurement tool, never used
//! in play; `durak-server beliefs` drives it over whole games).
//!
//! For every card player 0 has not seen (hidden in another hand or in the talon), the
//! samples give a distribution over its four possible places (players 1, 2, 3, the talon);
//! the score is the log loss of the true place, `-ln p`, with `p` the sampled share smoothed
//! by half a sample per place (so a place no sample chose costs `ln(2 (n + 2))`, not
//! infinity). Lower is better; a belief that predicts no better than the facts alone scores
//! the same as [`Beliefs::Takes`] on the same positions.

use rand::Rng;

use crate::card::Card;
use crate::durak::bot::sample::Beliefs;
use crate::durak::bot::tracker::Tracker;
use crate::durak::protocol::Command;
use crate::durak::rules::{team, Game};

/// Places a hidden card can be: players 1, 2, 3 (numbered from player 0), the talon.
const PLACES: usize = 4;

/// Half a sample per place: the smoothing of the sampled shares.
const SMOOTHING: f64 = 0.5;

/// The score of one belief at one decision.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct BeliefScore {
    /// Hidden cards scored.
    pub cards: u64,
    /// Sum over those cards of `-ln p(true place)`, in nats.
    pub log_loss: f64,
    /// Sum over those cards of `p(true place)`.
    pub p_truth: f64,
    /// Decisions scored, and of them those where the true deal breaks the belief
    /// ([`broken`]): the determinizations could not hold the truth.
    pub decisions: u64,
    /// See [`BeliefScore::decisions`].
    pub broken: u64,
}

impl BeliefScore {
    /// Adds another score's sums.
    pub fn add(&mut self, o: &BeliefScore) {
        self.cards += o.cards;
        self.log_loss += o.log_loss;
        self.p_truth += o.p_truth;
        self.decisions += o.decisions;
        self.broken += o.broken;
    }
}

/// Where `card` lies in `game`: 0, 1, 2 for the hands of players 1, 2, 3, and 3 for anywhere
/// else (the talon).
fn place(game: &Game, card: Card) -> usize {
    (1..4)
        .find(|&p| game.hands[p].contains(card))
        .unwrap_or(PLACES)
        - 1
}

/// Whether the true deal `truth` (numbered from player 0) breaks `beliefs`: some player
/// holds a card the take beliefs bar ([`Tracker::banned`], cleared when he draws), or, where
/// `beliefs` reads his play, more cards barred by the play beliefs ([`Tracker::lacks`]) than he
/// drew since they were formed.
pub fn broken(tracker: &Tracker, truth: &Game, beliefs: Beliefs) -> bool {
    (1..4).any(|p| {
        let held = truth.hands[p].minus(tracker.known[p]);
        if !held.intersect(tracker.banned[p]).is_empty() {
            return true;
        }
        beliefs == Beliefs::Play
            && team(p) != 0
            && held.intersect(tracker.lacks[p]).len() > tracker.lacks_free[p]
    })
}

/// Scores `beliefs` at player 0's decision `command`: `samples` determinizations drawn by
/// [`Tracker::sample_with`], each hidden card's sampled place against its place in `truth`
/// (the true game numbered from player 0, as [`Game::rotated`] gives it). `None` when the
/// tracker cannot sample (before the trump is known).
pub fn belief_score<R: Rng + ?Sized>(
    tracker: &Tracker,
    command: Command,
    truth: &Game,
    beliefs: Beliefs,
    samples: usize,
    rng: &mut R,
) -> Option<BeliefScore> {
    let hidden: Vec<_> = tracker.unseen().iter().collect();
    let mut counts = vec![[0u32; PLACES]; hidden.len()];
    let mut drawn = 0;
    for _ in 0..samples {
        let Some(g) = tracker.sample_with(command, beliefs, rng) else {
            continue;
        };
        drawn += 1;
        for (c, row) in hidden.iter().zip(counts.iter_mut()) {
            row[place(&g, *c)] += 1;
        }
    }
    if drawn == 0 {
        return None;
    }
    let mut score = BeliefScore {
        decisions: 1,
        broken: u64::from(broken(tracker, truth, beliefs)),
        ..BeliefScore::default()
    };
    let total = f64::from(drawn) + SMOOTHING * PLACES as f64;
    for (c, row) in hidden.iter().zip(&counts) {
        let p = (f64::from(row[place(truth, *c)]) + SMOOTHING) / total;
        score.cards += 1;
        score.log_loss -= p.ln();
        score.p_truth += p;
    }
    Some(score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::durak::protocol::format_answer;
    use crate::durak::rules::Answer;
    use crate::durak::DurakBot;
    use crate::durak::Strategy;
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_place_the_samples_always_choose_scores_its_smoothed_share() {
        // Player 1 (index 0) holds six cards; the others hold six unknown cards each and the
        // talon the remaining 12.
        let mut bot = DurakBot::new(Strategy::Greedy, 1);
        let mut game = Game::new(5).0;
        game.trump = crate::card::Suit::Hearts;
        let lines = std::iter::once("trump H".to_string())
            .chain(
                game.hands[0]
                    .iter()
                    .map(|c| format!("give 1 {}", format_answer(Answer::Card(c)))),
            )
            .chain((2..=4).flat_map(|p| (0..6).map(move |_| format!("give {p} ??"))));
        for l in lines {
            bot.feed(&l).unwrap();
        }
        let t = bot.tracker();
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let s = belief_score(t, Command::Move, &game, Beliefs::Takes, 100, &mut rng).unwrap();
        // 30 hidden cards, none barred by anything: each place's share is about its slots'
        // (6, 6, 6 of 30, the talon 12), so p(truth) averages near (3 * 6 * 0.2 + 12 * 0.4) / 30.
        assert_eq!((s.cards, s.decisions, s.broken), (30, 1, 0));
        let mean = s.p_truth / 30.0;
        assert!((0.25..=0.31).contains(&mean), "{mean}");
        assert!(s.log_loss / 30.0 > -mean.ln() - 0.2);
        // A belief that bars a card its true holder has is broken by the truth.
        let mut t2 = t.clone();
        let held = game.hands[1].iter().next().unwrap();
        t2.banned[1].insert(held);
        assert!(broken(&t2, &game, Beliefs::Takes));
        assert!(!broken(t, &game, Beliefs::Takes));
    }
}
