//! The contest winner's rule as the opponent's policy in a share of the
//! worlds ([`SearchConfig::known_prior`], [`super::known`]): its seat in a
//! rollout ([`RuleSeat`], [`rule_playout`]) and the share of worlds it plays
//! in ([`KnownRule`]).

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use super::config::{fixed, SearchConfig};
use super::known::{replica_particles, Identified};
use super::rollout::{cut_value, rollout_answer, rollout_keep, Habits};
use super::view::Ctx;
use crate::coup::game::character::Character;
use crate::coup::game::engine::{at_turn_start, Cards, State};
use crate::coup::game::protocol::{Reply, LINE_END};
use crate::coup::game::rules::last_line;
use crate::coup::sparring::replica::{decide_call, Call, Flags};

/// The opponent's seat played by the contest winner's rule in a rollout
/// ([`super::known`]): its flags and the parts of the history file the rule
/// reads besides the last line, kept up to date call by call.
#[derive(Debug, Clone)]
pub(super) struct RuleSeat {
    flags: Flags,
    /// Lines of the history file (one more once a call starts a line).
    turn: usize,
    /// Lines holding a given-up card.
    lossy_lines: i64,
    /// Whether the current line holds one.
    line_lossy: bool,
}

impl RuleSeat {
    /// Whether the next call starts a line.
    pub(super) fn starts_line(s: &State) -> bool {
        s.line().is_empty() || s.line().last() == Some(&LINE_END)
    }

    /// Counts the call `answer` just applied (`new_line` from
    /// [`RuleSeat::starts_line`] before it).
    pub(super) fn after(&mut self, new_line: bool, answer: Reply) {
        if new_line {
            self.turn += 1;
            self.line_lossy = false;
        }
        if answer.given_up().is_some() && !self.line_lossy {
            self.lossy_lines += 1;
            self.line_lossy = true;
        }
    }

    /// The rule's answer for the seat to call (and its kept cards on an
    /// Exchange call); the first legal answer when the rule's is not legal.
    fn answer(&mut self, s: &State, legal: &[Reply]) -> (Reply, Option<Cards>) {
        let who = s.to_call();
        let line: String = if s.line().is_empty() && self.turn == 0 {
            LINE_END.to_string()
        } else {
            s.line().iter().collect()
        };
        let mut offered: Vec<Character> = Vec::new();
        if s.exchange_due() {
            offered.extend(s.drawn.iter().flatten());
        }
        offered.extend_from_slice(s.hands[who].as_slice());
        let cards: String = offered.iter().map(|c| c.revealed()).collect();
        let texts: Vec<String> = legal.iter().map(|r| r.text()).collect();
        let call = Call {
            line: &line,
            turn: self.turn,
            lossy_lines: self.lossy_lines,
            opp_coins: s.coins[1 - who],
            my_coins: s.coins[who],
            cards: &cards,
            legal: &texts,
        };
        let (text, keep) = decide_call(&call, &mut self.flags);
        let answer = Reply::parse(&text)
            .filter(|r| legal.contains(r))
            .unwrap_or(legal[0]);
        let kept = keep.map(|k| {
            Cards::from_slice(
                &k.chars()
                    .filter_map(Character::from_revealed)
                    .collect::<Vec<_>>(),
            )
        });
        (answer, kept)
    }
}

/// [`playout`] with the opponent's seat played by the contest winner's rule
/// (`seat`) and mine by `mine`; cut after `horizon` calls (0: never).
#[allow(clippy::too_many_arguments)]
pub(super) fn rule_playout<R: Rng + ?Sized>(
    s: &mut State,
    me: usize,
    mine: &Habits,
    seat: &mut RuleSeat,
    horizon: usize,
    config: &SearchConfig,
    start: usize,
    rng: &mut R,
) -> f64 {
    loop {
        if s.out_of_calls() {
            return 0.0;
        }
        if horizon > 0 && s.calls - start >= horizon && at_turn_start(s.line()) {
            return cut_value(s, me, config);
        }
        let who = s.to_call();
        let mut keep = None;
        if s.exchange_due() {
            if !s.draw_exchange() {
                return 0.0;
            }
            if who == me {
                keep = Some(rollout_keep(
                    s.exchange_pool().as_slice(),
                    s.hands[who].len(),
                ));
            }
        }
        let Some(legal) = s.legal().filter(|l| !l.as_slice().is_empty()) else {
            return 0.0;
        };
        let answer = if who == me {
            rollout_answer(s, legal.as_slice(), mine, rng)
        } else {
            let (a, k) = seat.answer(s, legal.as_slice());
            keep = k;
            a
        };
        let new_line = RuleSeat::starts_line(s);
        let end = s.apply(answer, keep.as_ref().map(|k| k.as_slice()), rng);
        seat.after(new_line, answer);
        if let Some(end) = end {
            return end.reward(me);
        }
    }
}

/// The opponent played by the contest winner's rule in a share of the worlds
/// ([`SearchConfig::known_prior`]): the filter's hypotheses and that share.
pub(super) struct KnownRule {
    id: Identified,
    share: f64,
    /// Whether the history's unfinished line holds a given-up card.
    line_lossy: bool,
}

impl KnownRule {
    /// In [`KnownRule::share`] of the calls: `world` with the opponent's
    /// hand drawn from the filter (the rest of the cards I cannot see
    /// reshuffled into the deck) and the rule's seat; `None` otherwise.
    pub(super) fn draw<R: Rng + ?Sized>(
        &self,
        world: &State,
        me: usize,
        rng: &mut R,
    ) -> Option<(State, RuleSeat)> {
        if rng.random::<f64>() >= self.share {
            return None;
        }
        let mut x = rng.random::<f64>();
        let particles = &self.id.particles;
        let mut pick = particles.last()?;
        for p in particles {
            if x < p.weight {
                pick = p;
                break;
            }
            x -= p.weight;
        }
        let mut pool: Vec<Character> = world.deck.as_slice().to_vec();
        pool.extend_from_slice(world.hands[1 - me].as_slice());
        let mut hand = Cards::default();
        for &c in &pick.hand {
            if let Some(i) = pool.iter().position(|&p| p == c) {
                hand.push(pool.remove(i));
            }
        }
        // A card the pool lacks (my view counts it out): any other.
        while hand.len() < world.hands[1 - me].len() {
            hand.push(pool.pop()?);
        }
        pool.shuffle(rng);
        let mut s = *world;
        s.hands[1 - me] = hand;
        s.deck = Cards::from_slice(&pool);
        let seat = RuleSeat {
            flags: pick.flags.clone(),
            turn: self.id.turn,
            lossy_lines: self.id.lossy_lines,
            line_lossy: self.line_lossy,
        };
        Some((s, seat))
    }
}

impl Ctx<'_> {
    /// The contest winner's rule as the opponent's policy
    /// ([`SearchConfig::known_prior`]): `None` when it is off, when an
    /// earlier game or this one rules the rule out, when the opponent's
    /// hand is told (the clairvoyant bound), or when the posterior share
    /// stays under [`fixed::KNOWN_MIN_SHARE`].
    pub(super) fn known_rule(&self, history: &str, config: &SearchConfig) -> Option<KnownRule> {
        if config.known_prior <= 0.0 || self.clairvoyant.is_some() {
            return None;
        }
        let [games, broken] = self.mem.replica;
        let id = replica_particles(history, &self.unseen);
        if id.particles.is_empty() {
            return None;
        }
        let prior = config.known_prior.min(1.0 - 1e-9);
        let explained = f64::from(games - broken);
        let log_odds =
            (prior / (1.0 - prior)).ln() + id.log_odds + fixed::KNOWN_GAME_ODDS * explained
                - fixed::KNOWN_BREAK_ODDS * f64::from(broken);
        let share = 1.0 / (1.0 + (-log_odds).exp());
        let line = last_line(history);
        let line_lossy = !line.ends_with(LINE_END)
            && line
                .chars()
                .any(|c| Reply::from_code(c).and_then(Reply::given_up).is_some());
        (share >= fixed::KNOWN_MIN_SHARE).then_some(KnownRule {
            id,
            share,
            line_lossy,
        })
    }
}
