//! What the seat sees: the history read from my side, my hand, the legal
//! answers, the coins and cards of both sides, and how the opponent has
//! answered my claims in this game ([`Ctx`], built once per decision).

use super::model::{hand_probabilities, inferred_plan, unseen, Plan};
use super::opponent::{Model, Stats};
use super::params::StrongConfig;
use crate::coup::game::character::Character;
use crate::coup::game::history::{action_index, History};
use crate::coup::game::protocol::Reply;
use crate::coup::sparring::simple::Seat;
use rand_chacha::ChaCha8Rng;

/// How the opponent has answered my claims in this game.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::coup) struct Answers {
    /// My turns by action (index of [`action_index`]).
    pub(in crate::coup) done: [u32; 7],
    /// Of those, how many the opponent blocked.
    pub(in crate::coup) blocked: [u32; 7],
    /// Of those, how many the opponent challenged.
    pub(in crate::coup) challenged: [u32; 7],
    /// My blocks.
    pub(in crate::coup) blocks: u32,
    /// My blocks the opponent challenged.
    pub(in crate::coup) blocks_challenged: u32,
    /// My claims (actions and blocks) made while I led the race (index 1) or
    /// not (index 0), and how many of them the opponent challenged.
    pub(in crate::coup) by_lead: [(u32, u32); 2],
}

impl Answers {
    fn read(h: &History) -> Answers {
        let mut a = Answers::default();
        for t in &h.turns {
            if t.actor == crate::coup::game::history::Side::Me {
                let Some(act) = t.action() else { continue };
                let i = action_index(act);
                let Some(resp) = t.event(1) else { continue };
                a.done[i] += 1;
                match resp {
                    Reply::Challenge => a.challenged[i] += 1,
                    Reply::Block(_) => a.blocked[i] += 1,
                    _ => {}
                }
            } else if matches!(t.event(1), Some(Reply::Block(_))) {
                a.blocks += 1;
                if t.event(2) == Some(Reply::Challenge) {
                    a.blocks_challenged += 1;
                }
            }
        }
        a
    }
}

/// Everything a strategy looks at for one decision.
pub(in crate::coup) struct Ctx<'a> {
    pub(in crate::coup) answers: Answers,
    /// This game's counts and past games' ([`crate::coup::bot::opponent`]).
    pub(in crate::coup) model: Model,
    /// Past games' counts alone (zero without memory).
    pub(in crate::coup) mem: Stats,
    /// My answers to this opponent in past games as it saw them (the
    /// memory's entry of [`crate::coup::memory::mine_key`]), when kept.
    pub(in crate::coup) mem_mine: Option<Stats>,
    pub(in crate::coup) h: History,
    pub(in crate::coup) line: Vec<char>,
    pub(in crate::coup) legal: &'a [String],
    pub(in crate::coup) hand: Vec<Character>,
    pub(in crate::coup) mc: i64,
    pub(in crate::coup) oc: i64,
    pub(in crate::coup) mk: usize,
    pub(in crate::coup) ok: usize,
    pub(in crate::coup) p_opp: [f64; 5],
    pub(in crate::coup) unseen: [u32; 5],
    pub(in crate::coup) rng: ChaCha8Rng,
    /// Calls the arbiter still makes before it ends the game as a draw,
    /// this one included: [`crate::coup::game::rules::MAX_CALLS`] minus
    /// [`crate::coup::game::history::calls_made`] of the history.
    pub(in crate::coup) calls_left: usize,
    /// Mean calls per complete turn of this game so far, with a prior of
    /// [`StrongConfig::horizon_calls_per_turn`](crate::coup::bot::StrongConfig::horizon_calls_per_turn)
    /// worth
    /// [`StrongConfig::horizon_prior_turns`](crate::coup::bot::StrongConfig::horizon_prior_turns)
    /// turns.
    pub(in crate::coup) calls_per_turn: f64,
    /// Why: the values behind the decision, one line each, for
    /// [`crate::coup::bot::Decision::explanation`] (never printed here: a
    /// decision does no I/O).
    pub(in crate::coup) explain: Vec<String>,
    /// The strong strategy's parameters and the horizon's prior pace.
    pub(in crate::coup) p: StrongConfig,
    /// The opponent's true hand, for the clairvoyant bound only
    /// ([`crate::coup::bot::decide_clairvoyant`]); `None` in play.
    pub(in crate::coup) clairvoyant: Option<crate::coup::game::engine::Cards>,
}
impl<'a> Ctx<'a> {
    #[allow(clippy::too_many_arguments)]
    pub(in crate::coup) fn new(
        h: History,
        line: String,
        legal: &'a [String],
        hand: Vec<Character>,
        offered: &[Character],
        mc: i64,
        oc: i64,
        rng: ChaCha8Rng,
        p: StrongConfig,
    ) -> Ctx<'a> {
        // A complete last line means a new turn starts: nothing of it is pending.
        let line: Vec<char> = if line.ends_with('\n') {
            Vec::new()
        } else {
            line.chars().collect()
        };
        let u = unseen(&h, offered);
        let ok = h.opp.cards_left().max(1);
        let p_opp = hand_probabilities(&h.opp, &u, ok);
        let mk = hand.len().max(1);
        let answers = Answers::read(&h);
        let mut ctx = Ctx {
            answers,
            model: Model::default(),
            mem: Stats::default(),
            mem_mine: None,
            h,
            line,
            legal,
            hand,
            mc,
            oc,
            mk,
            ok,
            p_opp,
            unseen: u,
            rng,
            calls_left: crate::coup::game::rules::MAX_CALLS,
            calls_per_turn: p.horizon_calls_per_turn,
            explain: Vec::new(),
            p,
            clairvoyant: None,
        };
        ctx.learn_challenges();
        ctx
    }

    /// Replays the coins and splits my past claims by whether I led the race
    /// then (an opponent that challenges mostly when losing shows it here).
    pub(in crate::coup) fn learn_challenges(&mut self) {
        let states = self.h.replay();
        let mut by_lead = [(0u32, 0u32); 2];
        for (i, t) in self.h.turns.iter().enumerate() {
            let Some(&(coins, cards)) = states.get(i) else {
                break;
            };
            // My action claims only: blocks have their own rate.
            let (mine, blocking) = if t.actor == crate::coup::game::history::Side::Me {
                (t.action().and_then(|a| a.claim()).is_some(), false)
            } else {
                (false, true)
            };
            let answer = if blocking { t.event(2) } else { t.event(1) };
            if !mine || answer.is_none() || cards[0] == 0 || cards[1] == 0 {
                continue;
            }
            let lead = self.public_lead(coins[0], cards[0], coins[1], cards[1], blocking);
            let e = &mut by_lead[lead as usize];
            e.0 += 1;
            if answer == Some(Reply::Challenge) {
                e.1 += 1;
            }
        }
        self.answers.by_lead = by_lead;
    }

    /// Sets the horizon from the history's full text (see
    /// [`Ctx::calls_left`] and [`Ctx::calls_per_turn`]).
    pub(in crate::coup) fn set_horizon(&mut self, history: &str) {
        let made = crate::coup::game::history::calls_made(history);
        self.calls_left = crate::coup::game::rules::MAX_CALLS.saturating_sub(made);
        let done = self.h.turns.iter().filter(|t| t.complete).count();
        let in_done = if done == self.h.turns.len() {
            made
        } else {
            // The unfinished last line: one call per character so far.
            let last = self.h.turns.last().map_or(0, |t| t.events.len());
            made.saturating_sub(last)
        };
        self.calls_per_turn = (in_done as f64
            + self.p.horizon_calls_per_turn * self.p.horizon_prior_turns)
            / (done as f64 + self.p.horizon_prior_turns);
    }

    /// My turns before the draw, with me (`my_next`) or the opponent to
    /// move next: half the turns the remaining calls allow at this game's
    /// pace, the half-turn of who starts included.
    pub(in crate::coup) fn my_turns_left(&self, my_next: bool) -> f64 {
        let turns = self.calls_left as f64 / self.calls_per_turn.max(1.0);
        let start = if my_next { 0.5 } else { -0.5 };
        (turns / 2.0 + start).max(0.0)
    }

    /// The narrow view the simple strategies read ([`Seat`]).
    pub(in crate::coup) fn seat(&self) -> Seat<'_> {
        Seat {
            line: &self.line,
            legal: self.legal,
            hand: &self.hand,
            opp_coins: self.oc,
            my_cards: self.mk,
            unseen: self.unseen,
            history: &self.h,
        }
    }

    pub(in crate::coup) fn has(&self, c: Character) -> bool {
        self.seat().has(c)
    }

    /// The claim `c` cannot be true: all copies are in my hand or dead.
    pub(in crate::coup) fn impossible(&self, c: Character) -> bool {
        self.seat().impossible(c)
    }

    /// The last event of the unfinished line (`None` at my turn's start).
    pub(in crate::coup) fn last_event(&self) -> Option<Reply> {
        self.seat().last_event()
    }

    pub(in crate::coup) fn turn_start(&self) -> bool {
        self.seat().turn_start()
    }

    /// Give up the least valuable card; returns the matching legal answer.
    pub(in crate::coup) fn give_up(&self) -> String {
        self.seat().give_up()
    }

    pub(in crate::coup) fn fallback(&self) -> String {
        self.seat().fallback()
    }

    // ----- the race calculator -----

    pub(in crate::coup) fn opp_plan(&self) -> Plan {
        inferred_plan(&self.h.opp)
    }

    pub(in crate::coup) fn opp_claims(&self, c: Character) -> bool {
        self.seat().opp_claims(c)
    }
}
