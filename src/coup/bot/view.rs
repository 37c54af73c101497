//! What the seat sees: the history read from my side, my hand, the legal
//! answers, and the coins and cards of both sides ([`Ctx`], built once per
//! decision).

use super::model::unseen;
use super::opponent::{Model, Stats};
use crate::coup::game::character::Character;
use crate::coup::game::history::History;
use crate::coup::sparring::simple::Seat;
use rand_chacha::ChaCha8Rng;

/// Everything a strategy looks at for one decision.
pub(in crate::coup) struct Ctx<'a> {
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
    /// My cards (at least 1).
    pub(in crate::coup) mk: usize,
    pub(in crate::coup) unseen: [u32; 5],
    pub(in crate::coup) rng: ChaCha8Rng,
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
    ) -> Ctx<'a> {
        // A complete last line means a new turn starts: nothing of it is pending.
        let line: Vec<char> = if line.ends_with('\n') {
            Vec::new()
        } else {
            line.chars().collect()
        };
        let u = unseen(&h, offered);
        let mk = hand.len().max(1);
        Ctx {
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
            unseen: u,
            rng,
            clairvoyant: None,
        }
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
}
