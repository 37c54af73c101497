//! The `search` strategy: determinized Monte Carlo search on the one engine
//! ([`crate::coup::game::engine`]).
//!
//! For one decision: draw [`SearchConfig::worlds`] worlds from my
//! information state (the opponent's hand from the hand posterior of
//! [`crate::coup::bot::model::hand_distribution`], weighted by its learnt bluff
//! ratios; the deck from the cards left), and in each world play every root
//! answer to the end of the game through the engine, the same world for
//! every answer (common random numbers: the shared
//! [`crate::search::flat::evaluate`] over [`FlatWorlds`]). The answer with
//! the most wins is chosen; with [`SearchConfig::tree`] the answers to the
//! opponent's moves are searched by the tree (`bot/tree.rs`). Both sides play the
//! rest of the game by [`Habits`]: the opponent by the habits learnt from its
//! answers (this game and the memory, [`Model`]), I by my own. Neither
//! rollout policy looks at the other side's cards, so a world's hidden cards
//! steer only the outcomes, never a decision.
//!
//! Deterministic: the random stream is seeded from the decision's input and
//! the work is capped by the number of worlds. The clock is read only as a
//! safety net ([`SearchConfig::clock_ms`], 1 s): a search past it stops
//! early and the decision's note says so.

use rand::seq::SliceRandom;
use rand::RngExt;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

use super::config::{fixed, SearchConfig};
use super::opponent::{ACTION_KINDS, BLOCK_KINDS};
use super::posterior::marginals;
use super::rollout::{cut_value, playout, rollout_answer, rollout_keep, Habits};
use super::rule::{rule_playout, KnownRule, RuleSeat};
use super::view::Ctx;
use crate::coup::game::character::Character;
use crate::coup::game::engine::{at_turn_start, Cards, State};
use crate::coup::game::history::calls_made;
use crate::coup::game::protocol::Reply;
use crate::coup::game::rules::{is_exchange_call, last_line};
use crate::search::flat::Worlds;
use crate::search::{Caps, Progress};

/// The flat search's policies as the tree search's
/// ([`super::tree::Policies`]), for seat `me`.
struct Rollouts<'a> {
    me: usize,
    habits: &'a [Habits; 2],
    config: &'a SearchConfig,
}

impl super::tree::Policies for Rollouts<'_> {
    fn opponent(&self, s: &State, legal: &[Reply], rng: &mut ChaCha8Rng) -> Reply {
        rollout_answer(s, legal, &self.habits[s.to_call()], rng)
    }
    fn keep(&self, pool: &[Character], size: usize) -> Cards {
        rollout_keep(pool, size)
    }
    fn playout(&self, s: &mut State, start: usize, rng: &mut ChaCha8Rng) -> f64 {
        playout(s, self.me, self.habits, self.config, start, rng)
    }
    fn cut(&self, s: &State) -> f64 {
        cut_value(s, self.me, self.config)
    }
}

/// The flat search's worlds ([`crate::search::flat`], which values every root
/// answer in every world): a world drawn from the hand posterior with a seed
/// that every answer's playout starts from (common random numbers), and in the
/// contest winner's rule's share of the worlds the rule's seat
/// ([`KnownRule::draw`]).
struct FlatWorlds<'a, F> {
    /// Draws one world from the posterior.
    draw: F,
    rng: &'a mut ChaCha8Rng,
    rule: Option<&'a KnownRule>,
    roots: &'a [Reply],
    /// At an Exchange, the hand each root keeps (the roots are then all
    /// the same answer); empty otherwise.
    keeps: &'a [Cards],
    me: usize,
    habits: &'a [Habits; 2],
    config: &'a SearchConfig,
    /// The calls each answer's worlds ran to their end or cut (the pace that
    /// orders equal wins, [`pace`]).
    lengths: Vec<usize>,
}

impl<F: Fn(&mut ChaCha8Rng) -> State> Worlds for FlatWorlds<'_, F> {
    type World = (State, u64, Option<(State, RuleSeat)>);

    fn draw(&mut self, _: &Progress) -> Option<Self::World> {
        let world = (self.draw)(self.rng);
        let seed: u64 = self.rng.random();
        let ruled = self.rule.and_then(|k| k.draw(&world, self.me, self.rng));
        Some((world, seed, ruled))
    }

    /// The answer's value (1 won, 0 lost, the cut value at the horizon) and
    /// the calls it ran as the work.
    fn value(&mut self, drawn: &Self::World, i: usize) -> (f64, u64) {
        let (world, seed, ruled) = drawn;
        let (me, r) = (self.me, self.roots[i]);
        let mut rng = ChaCha8Rng::seed_from_u64(*seed);
        let (mut s, mut seat) = match ruled {
            Some((w, seat)) => (*w, Some(seat.clone())),
            None => (*world, None),
        };
        let new_line = RuleSeat::starts_line(&s);
        let keep = self.keeps.get(i).map(Cards::as_slice);
        let end = s.apply(r, keep, &mut rng);
        let v = match (end, seat.as_mut()) {
            (Some(end), _) => end.reward(me),
            (None, Some(seat)) => {
                seat.after(new_line, r);
                let (h, start) = (fixed::KNOWN_HORIZON, s.calls);
                let mine = &self.habits[me];
                rule_playout(&mut s, me, mine, seat, h, self.config, start, &mut rng)
            }
            (None, None) => {
                let start = s.calls;
                playout(&mut s, me, self.habits, self.config, start, &mut rng)
            }
        };
        let calls = s.calls - world.calls;
        self.lengths[i] += calls;
        (v, calls as u64)
    }
}

/// One root choice: the answer with its wins.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The answer.
    pub answer: Reply,
    /// At the call that finishes an Exchange, the hand this choice keeps;
    /// `None` otherwise.
    pub keep: Option<Cards>,
    /// Wins over the worlds played.
    pub wins: f64,
    /// Worlds played (the flat search: every answer in every world) or
    /// the answer's visits (the tree search: one world per iteration).
    pub worlds: usize,
}

/// What [`Ctx::search_choices`] found.
#[derive(Debug, Clone, Default)]
pub(in crate::coup) struct Searched {
    /// The choices, best first (empty when the history cannot be set up
    /// as an engine state).
    pub(in crate::coup) choices: Vec<Choice>,
    /// The note of the clock's safety net when it stopped the search
    /// ([`SearchConfig::clock_ms`]).
    pub(in crate::coup) clock_note: Option<String>,
    /// The hand posterior's marginals the worlds were drawn from
    /// ([`Ctx::opponent_hands`]; zeros when there are no choices).
    pub(in crate::coup) posterior: [f64; 5],
    /// Whether the tree search ran (the choices' counts are then visits,
    /// else worlds).
    pub(in crate::coup) tree: bool,
    /// The opponent's pending claim's row and situation
    /// ([`Ctx::claim_features`]), if one is pending.
    pub(in crate::coup) claim: Option<super::posterior::Situation>,
}

/// The order of two answers of the flat search whose wins are equal, `a`'s
/// worlds having run `la` calls in all and the other's `lb`: a won position
/// (wins at least half the worlds) is best finished in fewer calls, a lost
/// one dragged out in more (the opponent may yet err). Equal wins happen
/// when every world is won or lost whatever the answer (a Coup on the
/// opponent's last card against Income at 7 coins), where ranking by wins
/// alone kept the first legal answer and let a won game stall.
fn pace(a: &Choice, la: usize, lb: usize) -> std::cmp::Ordering {
    if 2.0 * a.wins >= a.worlds as f64 {
        la.cmp(&lb)
    } else {
        lb.cmp(&la)
    }
}

impl Ctx<'_> {
    /// Searches this decision: every legal answer valued by the worlds of
    /// [`SearchConfig`]; at the call that finishes an Exchange (one legal
    /// answer), every hand of `offered` (the two drawn cards first, then my
    /// hand) I can keep, by the flat search.
    pub(in crate::coup) fn search_choices(
        &mut self,
        history: &str,
        config: &SearchConfig,
        offered: &[Character],
    ) -> Searched {
        // The clock's safety net: read only to stop a search gone too long.
        let deadline = (config.clock_ms > 0.0)
            .then(|| Instant::now() + Duration::from_secs_f64(config.clock_ms / 1000.0));
        let me = calls_made(history) % 2;
        let line: Vec<char> = last_line(history).chars().collect();
        // Root choices.
        let Some(legal) = crate::coup::game::engine::legal(&line, &self.hand, self.mc, self.oc)
        else {
            return Searched::default();
        };
        let allowed: Vec<Reply> = self.legal.iter().filter_map(|a| Reply::parse(a)).collect();
        let mut roots: Vec<Reply> = legal
            .as_slice()
            .iter()
            .copied()
            .filter(|r| allowed.contains(r))
            .collect();
        if roots.is_empty() {
            return Searched::default();
        }
        // At an Exchange: the two drawn cards and the hands to keep.
        let exchange = is_exchange_call(last_line(history));
        let (drawn, keeps) = match (exchange, offered) {
            (true, [a, b, ..]) if roots.len() == 1 => (Some([*a, *b]), keep_choices(offered)),
            (true, _) => return Searched::default(),
            _ => (None, Vec::new()),
        };
        if exchange {
            if keeps.is_empty() {
                return Searched::default();
            }
            roots = vec![roots[0]; keeps.len()];
        }
        // The posterior over the opponent's hand.
        let ok = self.h.opp.cards_left();
        let (hands, claim) = self.opponent_hands(&line, history, config);
        let posterior = marginals(&hands);
        let total: f64 = hands.iter().map(|h| h.1).sum();
        let habits = {
            let mine = Habits::mine();
            let theirs = Habits::learnt(&self.model, config, self.h.me.cards_left(), false);
            let mut h = [mine; 2];
            h[1 - me] = theirs;
            h
        };
        let mut pool_base: Vec<Character> = Vec::new();
        for c in Character::ALL {
            for _ in 0..self.unseen[c.index()] {
                pool_base.push(c);
            }
        }
        // The opponent's challenges of my claims follow how doubtful each
        // looks from the public record: its learnt rates scaled by the
        // doubt of the claimed character.
        let mut habits = habits;
        {
            let doubt = Character::ALL.map(|c| self.public_doubt(c));
            let o = &mut habits[1 - me];
            for (k, a) in ACTION_KINDS.into_iter().enumerate() {
                if let Some(c) = a.claim() {
                    for r in o.challenge[k].iter_mut().flatten() {
                        *r = (*r * doubt[c.index()]).clamp(0.0, 1.0);
                    }
                }
            }
            for (k, b) in BLOCK_KINDS.into_iter().enumerate() {
                let c = b.character();
                o.challenge_block[k] = (o.challenge_block[k] * doubt[c.index()]).clamp(0.0, 1.0);
            }
        }
        let mut coins = [0; 2];
        coins[me] = self.mc;
        coins[1 - me] = self.oc;
        let mine = Cards::from_slice(&self.hand);
        let calls = calls_made(history);
        let known = self.clairvoyant;
        // One world: the opponent's hand drawn from the posterior (or
        // uniformly from the unseen cards when the evidence rules out every
        // hand), the deck from the cards left.
        let world = |rng: &mut ChaCha8Rng| {
            let mut pool = pool_base.clone();
            pool.shuffle(rng);
            let mut theirs = Cards::default();
            let mut take = |c: Character, pool: &mut Vec<Character>| {
                if let Some(i) = pool.iter().position(|&p| p == c) {
                    pool.remove(i);
                    theirs.push(c);
                }
            };
            if let Some(known) = known {
                for &c in known.as_slice() {
                    take(c, &mut pool);
                }
            } else if total > 0.0 && !hands.is_empty() {
                let mut x = rng.random::<f64>() * total;
                let mut pick = &hands[hands.len() - 1].0;
                for (h, w) in &hands {
                    if x < *w {
                        pick = h;
                        break;
                    }
                    x -= w;
                }
                for &c in pick {
                    take(c, &mut pool);
                }
            } else {
                for _ in 0..ok {
                    if let Some(c) = pool.pop() {
                        theirs.push(c);
                    }
                }
            }
            let mut dealt = [Cards::default(); 2];
            dealt[me] = mine;
            dealt[1 - me] = theirs;
            let mut s = State::from_parts(coins, dealt, Cards::from_slice(&pool), &line, calls);
            s.drawn = drawn;
            s
        };
        // My turn's action, or an answer to the opponent.
        let my_turn = at_turn_start(&line);
        let rule = self.known_rule(history, config);
        let tree = config.tree && !my_turn && rule.is_none() && !exchange;
        // Each answer's wins and worlds (visits for the tree), and the
        // worlds (iterations) played of those the cap allows; the flat
        // search also counts the calls its worlds ran to their end or cut.
        let (wins, played, lengths, (done, cap, unit)) = if tree {
            let mut rng = ChaCha8Rng::seed_from_u64(self.rng.random());
            let policies = Rollouts {
                me,
                habits: &habits,
                config,
            };
            let caps = Caps {
                max_samples: config.iterations.max(1),
                min_samples: 0,
                work: u64::MAX,
                deadline,
            };
            let (wins, visits, done) = super::tree::search(
                &roots,
                me,
                &policies,
                &caps,
                fixed::EXPLORATION,
                config.horizon,
                world,
                &mut rng,
            );
            (
                wins,
                visits,
                Vec::new(),
                (done, config.iterations, "iterations"),
            )
        } else {
            let mut worlds = FlatWorlds {
                draw: world,
                rng: &mut self.rng,
                rule: rule.as_ref(),
                roots: &roots,
                keeps: &keeps,
                me,
                habits: &habits,
                config,
                lengths: vec![0; roots.len()],
            };
            let caps = Caps {
                max_samples: config.worlds,
                min_samples: 0,
                work: u64::MAX,
                deadline,
            };
            let flat = crate::search::flat::evaluate(&mut worlds, roots.len(), &caps, false);
            let done = flat.progress.samples;
            (
                flat.totals,
                vec![done; roots.len()],
                worlds.lengths,
                (done, config.worlds, "worlds"),
            )
        };
        let clock_note = (done < cap).then(|| {
            format!(
                "clock safety net: the search stopped after {done} of {cap} {unit} ({} ms)",
                config.clock_ms
            )
        });
        let mut ranked: Vec<(Choice, usize)> = roots
            .into_iter()
            .zip(wins.into_iter().zip(played))
            .enumerate()
            .map(|(i, (answer, (wins, worlds)))| {
                let choice = Choice {
                    answer,
                    keep: keeps.get(i).copied(),
                    wins,
                    worlds,
                };
                // Only the flat search counts calls (the tree ranks by visits).
                (choice, lengths.get(i).copied().unwrap_or(0))
            })
            .collect();
        // The flat search ranks by wins (every answer played in every
        // world), equal wins by pace; the tree by visits, the robust child
        // of MCTS.
        if tree {
            ranked
                .sort_by(|(a, _), (b, _)| b.worlds.cmp(&a.worlds).then(b.wins.total_cmp(&a.wins)));
        } else {
            ranked.sort_by(|(a, la), (b, lb)| {
                b.wins.total_cmp(&a.wins).then_with(|| pace(a, *la, *lb))
            });
        }
        let out: Vec<Choice> = ranked.into_iter().map(|(c, _)| c).collect();
        Searched {
            choices: out,
            clock_note,
            posterior,
            tree,
            claim,
        }
    }
}

/// The distinct hands of `offered.len() - 2` cards I can keep from the
/// `offered` cards at an Exchange (sorted, each once: at most six).
fn keep_choices(offered: &[Character]) -> Vec<Cards> {
    let n = offered.len().saturating_sub(2);
    let mut out: Vec<Cards> = Vec::new();
    let mut add = |mut hand: Vec<Character>| {
        hand.sort_by_key(|c| c.index());
        let hand = Cards::from_slice(&hand);
        if !out.contains(&hand) {
            out.push(hand);
        }
    };
    for i in 0..offered.len() {
        if n == 1 {
            add(vec![offered[i]]);
        }
        for j in i + 1..offered.len() {
            if n == 2 {
                add(vec![offered[i], offered[j]]);
            }
        }
    }
    out
}
