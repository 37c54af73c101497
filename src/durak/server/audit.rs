//! The belief audit (`durak-server beliefs`): whole games in process, and at every decision
//! of one in-process bot the determinizations of several beliefs scored against the true deal
//! ([`crate::durak::server::belief::belief_score`]). The bot plays as it would; the audit only looks,
//! so every belief is scored on the same positions and their differences are paired.

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::referee::{play_game_with, PlayOptions, Player, SeatFault};
use super::tournament::{deal_seed, make_seat, seat_seed, BotSeat, TeamSpec};
use crate::durak::bot::sample::Beliefs;
use crate::durak::bot::DurakBot;
use crate::durak::protocol::Command;
use crate::durak::rules::Game;
use crate::durak::server::belief::{belief_score, BeliefScore};
use std::time::Duration;

/// Game phases of the audit, by the cards left in the talon at the decision: more than 6,
/// 1 to 6, none (the phases of `docs/durak.md`'s ceiling table).
pub const PHASES: [&str; 3] = ["talon > 6", "talon 1..6", "talon empty"];

/// The phase index of a decision with `talon` cards left.
fn phase(talon: usize) -> usize {
    match talon {
        0 => 2,
        1..=6 => 1,
        _ => 0,
    }
}

/// Scores of each belief (outer index, in the order given) in each phase ([`PHASES`]), and
/// the decisions audited per phase.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Audit {
    /// `scores[belief][phase]`.
    pub scores: Vec<[BeliefScore; 3]>,
    /// Decisions audited per phase.
    pub decisions: [u64; 3],
}

impl Audit {
    /// An empty audit of `beliefs` beliefs.
    pub fn new(beliefs: usize) -> Audit {
        Audit {
            scores: vec![[BeliefScore::default(); 3]; beliefs],
            decisions: [0; 3],
        }
    }

    /// Adds another audit's sums (of the same beliefs).
    pub fn add(&mut self, o: &Audit) {
        for (mine, theirs) in self.scores.iter_mut().zip(&o.scores) {
            for (m, t) in mine.iter_mut().zip(theirs) {
                m.add(t);
            }
        }
        for (m, t) in self.decisions.iter_mut().zip(&o.decisions) {
            *m += t;
        }
    }
}

/// The audited seat: a bot seat that, before each answer, scores the beliefs on what it knows.
struct AuditSeat<'a> {
    seat: BotSeat,
    beliefs: &'a [Beliefs],
    samples: usize,
    truth: Option<Game>,
    rng: ChaCha8Rng,
    audit: Audit,
}

impl Player for AuditSeat<'_> {
    fn send(&mut self, line: &str) -> Result<(), SeatFault> {
        self.seat.send(line)
    }

    fn ask(&mut self, command: Command, time_left: Duration) -> Result<String, SeatFault> {
        if let Some(truth) = self.truth.take() {
            // The tracker as the bot's answer will see it.
            let mut tracker = self.seat.0.tracker().clone();
            tracker.on_command(command);
            let ph = phase(tracker.talon());
            let mut any = false;
            for (b, row) in self.beliefs.iter().zip(self.audit.scores.iter_mut()) {
                if let Some(s) =
                    belief_score(&tracker, command, &truth, *b, self.samples, &mut self.rng)
                {
                    row[ph].add(&s);
                    any = true;
                }
            }
            self.audit.decisions[ph] += u64::from(any);
        }
        self.seat.ask(command, time_left)
    }

    fn reveal(&mut self, game: &Game, player: usize) {
        self.truth = Some(game.rotated(player));
        self.seat.reveal(game, player);
    }
}

/// Plays deal `deal` of a tournament seeded `seed` as [`super::tournament::play_one`] does,
/// team A (in-process, `a`) at seats {0, 2} (or {1, 3} when `swapped`) against `b`, and audits
/// `beliefs` at every decision of team A's first seat with `samples` determinizations each.
/// Returns `None` when `a` is not an in-process team.
pub fn audit_deal(
    seed: u64,
    deal: u64,
    swapped: bool,
    a: &TeamSpec,
    b: &TeamSpec,
    beliefs: &[Beliefs],
    samples: usize,
) -> Option<Audit> {
    let TeamSpec::InProcess(strategy, cfg) = a else {
        return None;
    };
    let s = deal_seed(seed, deal);
    let (game, dealt) = Game::new(s);
    let audited = usize::from(swapped);
    let mut audit_seat = AuditSeat {
        seat: BotSeat(DurakBot::new(*strategy, seat_seed(s, audited)).with_config(*cfg)),
        beliefs,
        samples,
        truth: None,
        rng: ChaCha8Rng::seed_from_u64(s ^ 0xA0D1_7000),
        audit: Audit::new(beliefs.len()),
    };
    let mut others: Vec<Box<dyn Player>> = (0..4)
        .filter(|&i| i != audited)
        .map(|i| make_seat(if (i % 2 == 0) != swapped { a } else { b }, seat_seed(s, i)))
        .collect();
    {
        let mut it = others.iter_mut();
        let (Some(x), Some(y), Some(z)) = (it.next(), it.next(), it.next()) else {
            unreachable!("three other seats were made")
        };
        let mut seats: [&mut dyn Player; 4] = if swapped {
            [x.as_mut(), &mut audit_seat, y.as_mut(), z.as_mut()]
        } else {
            [&mut audit_seat, x.as_mut(), y.as_mut(), z.as_mut()]
        };
        let opts = PlayOptions {
            transcript: false,
            naming: super::referee::Naming::Physical,
            endgame_nodes: 0,
            steps: false,
            stop: None,
        };
        play_game_with(game, &dealt, &mut seats, opts);
    }
    Some(audit_seat.audit)
}
