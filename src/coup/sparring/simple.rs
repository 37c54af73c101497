//! The simple sparring strategies of `coup-bot` (`random`, `income`,
//! `honest`, `challenger`, `tax-bluffer`), the card values they give up and
//! keep by, and the passive answer every strategy falls back to. They read a
//! narrow view of the seat ([`Seat`]), built by the bot for each decision.

use rand::RngExt;
use rand_chacha::ChaCha8Rng;

use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::history::History;
use crate::coup::game::protocol::{Action, Block, Reply};
use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

/// What a simple strategy sees of one decision.
#[derive(Debug, Clone, Copy)]
pub struct Seat<'a> {
    /// The unfinished line of the history (empty at the start of my turn).
    pub line: &'a [char],
    /// The legal answers, in the arbiter's text.
    pub legal: &'a [String],
    /// My cards.
    pub hand: &'a [Character],
    /// The opponent's coins.
    pub opp_coins: i64,
    /// My cards left, at least 1.
    pub my_cards: usize,
    /// Copies of each character (by [`Character::index`]) neither in my hand
    /// nor revealed.
    pub unseen: [u32; 5],
    /// The history read from my side.
    pub history: &'a History,
}

/// A uniformly random legal answer (`legal` must not be empty).
pub fn random(legal: &[String], rng: &mut ChaCha8Rng) -> String {
    let i = rng.random_range(0..legal.len());
    legal[i].clone()
}

impl Seat<'_> {
    /// Whether I hold `c`.
    pub fn has(&self, c: Character) -> bool {
        self.hand.contains(&c)
    }

    /// Whether `a` is among the legal answers (compared in the arbiter's text).
    pub fn can(&self, a: Reply) -> bool {
        let text = a.text();
        self.legal.contains(&text)
    }

    /// The first of `prefs` that is legal.
    pub fn pick(&self, prefs: &[Reply]) -> Option<Reply> {
        prefs.iter().copied().find(|&a| self.can(a))
    }

    /// The claim `c` cannot be true: all copies are in my hand or dead.
    pub fn impossible(&self, c: Character) -> bool {
        self.unseen[c.index()] == 0
    }

    /// The last event of the unfinished line ([`Reply::from_code`]; `None`
    /// at the start of my turn).
    pub fn last_event(&self) -> Option<Reply> {
        self.line.last().and_then(|&c| Reply::from_code(c))
    }

    /// Whether my turn starts (the line is empty).
    pub fn turn_start(&self) -> bool {
        self.line.is_empty()
    }

    /// Give up the least valuable card; returns the matching legal answer.
    pub fn give_up(&self) -> String {
        let mut best: Option<(f64, &String)> = None;
        for a in self.legal {
            let Some(ch) = a.chars().next().and_then(Character::from_held) else {
                continue;
            };
            let v = card_value(ch, Some(self.history), self.opp_coins >= 3);
            if best.is_none_or(|(bv, _)| v < bv) {
                best = Some((v, a));
            }
        }
        best.map(|(_, a)| a.clone())
            .unwrap_or_else(|| safe_answer(self.legal))
    }

    /// Give up a card when that is what is asked, else a passive answer.
    pub fn fallback(&self) -> String {
        if self.legal.iter().any(|a| {
            a.chars()
                .next()
                .is_some_and(|c| Character::from_held(c).is_some())
        }) {
            return self.give_up();
        }
        safe_answer(self.legal)
    }

    /// Whether the opponent has claimed `c` and not been shown to lack it.
    pub fn opp_claims(&self, c: Character) -> bool {
        self.history.opp.claims[c.index()] > 0 && !self.history.opp.surely_not.contains(&c)
    }

    /// `income`: Income every turn (Coup when it must), never blocks nor
    /// challenges.
    pub fn income(&self) -> String {
        match self.pick(&[
            Reply::Act(Action::Income),
            Reply::Act(Action::Coup),
            Reply::Pass,
            Reply::EndTurn,
        ]) {
            Some(a) => a.text(),
            None => self.give_up(),
        }
    }

    /// Honest turn: Coup at 7, Assassinate with an Assassin, Tax with a
    /// Duke, Steal with a Captain, else Foreign Aid.
    pub fn honest_action(&self) -> String {
        let mut prefs = vec![Reply::Act(Action::Coup)];
        if self.has(Assassin) {
            prefs.push(Reply::Act(Action::Assassinate));
        }
        if self.has(Duke) {
            prefs.push(Reply::Act(Action::Tax));
        }
        if self.has(Captain)
            && self.opp_coins >= 2
            && !self.opp_claims(Captain)
            && !self.opp_claims(Ambassador)
        {
            prefs.push(Reply::Act(Action::Steal));
        }
        if !self.opp_claims(Duke) {
            prefs.push(Reply::Act(Action::ForeignAid));
        }
        self.pick(&prefs)
            .unwrap_or(Reply::Act(Action::Income))
            .text()
    }

    /// `honest` (`challenge_all` false) and `challenger` (true): honest turns,
    /// blocks only with the card held; challenges the claims that cannot be
    /// true, or every claim.
    pub fn honest(&self, challenge_all: bool) -> String {
        let last = self.last_event();
        if self.turn_start() {
            return self.honest_action();
        }
        if let Some(c) = last.and_then(Reply::claim) {
            if self.can(Reply::Challenge) && (challenge_all || self.impossible(c)) {
                return Reply::Challenge.text();
            }
        }
        match last {
            Some(Reply::Act(Action::ForeignAid)) => (if self.has(Duke) {
                Reply::Block(Block::Duke)
            } else {
                Reply::Pass
            })
            .text(),
            Some(Reply::Act(Action::Assassinate)) => {
                if self.has(Contessa) {
                    Reply::Block(Block::Contessa).text()
                } else if self.my_cards == 1 && !challenge_all {
                    // Nothing left to lose.
                    Reply::Challenge.text()
                } else {
                    self.give_up()
                }
            }
            Some(Reply::Act(Action::Steal)) => self.block_steal_if_held(),
            Some(Reply::Act(Action::Exchange | Action::Tax)) => Reply::Pass.text(),
            Some(Reply::Block(_)) => Reply::EndTurn.text(),
            _ => self.fallback(),
        }
    }

    /// `tax-bluffer`: Tax every turn and block Foreign Aid as a Duke, held or
    /// not; never challenges.
    pub fn tax_bluffer(&self) -> String {
        let last = self.last_event();
        if self.turn_start() {
            return self
                .pick(&[Reply::Act(Action::Coup), Reply::Act(Action::Tax)])
                .unwrap_or(Reply::Act(Action::Income))
                .text();
        }
        match last {
            Some(Reply::Act(Action::ForeignAid)) => Reply::Block(Block::Duke).text(),
            Some(Reply::Act(Action::Assassinate)) => {
                if self.has(Contessa) || self.my_cards == 1 {
                    Reply::Block(Block::Contessa).text()
                } else {
                    self.give_up()
                }
            }
            Some(Reply::Act(Action::Steal)) => self.block_steal_if_held(),
            Some(Reply::Act(Action::Exchange | Action::Tax)) => Reply::Pass.text(),
            Some(Reply::Block(_)) => Reply::EndTurn.text(),
            _ => self.fallback(),
        }
    }

    /// Blocks a Steal with a Captain or an Ambassador held, else passes.
    pub fn block_steal_if_held(&self) -> String {
        (if self.has(Captain) {
            Reply::Block(Block::Captain)
        } else if self.has(Ambassador) {
            Reply::Block(Block::Ambassador)
        } else {
            Reply::Pass
        })
        .text()
    }
}

/// A passive legal answer: pass, end the turn, Income, or the first one.
pub fn safe_answer(legal: &[String]) -> String {
    for pref in [Reply::Pass, Reply::EndTurn, Reply::Act(Action::Income)] {
        let text = pref.text();
        if legal.contains(&text) {
            return text;
        }
    }
    legal
        .first()
        .cloned()
        .unwrap_or_else(|| Reply::EndTurn.text())
}

/// Base value of keeping a card: Duke (Tax, blocks Foreign Aid) first; a
/// Contessa is worth more once the opponent claimed an Assassin (`h`) or
/// (`opp_coins_hint`) may afford one.
pub fn card_value(c: Character, h: Option<&History>, opp_coins_hint: bool) -> f64 {
    match c {
        Duke => 5.0,
        Assassin => 4.0,
        Contessa => {
            let threat = h.is_some_and(|h| h.opp.claims[Assassin.index()] > 0) || opp_coins_hint;
            if threat {
                4.5
            } else {
                3.0
            }
        }
        Captain => 3.5,
        Ambassador => 2.0,
    }
}

/// The `keep` cards to keep from an Exchange offer: best values, a second copy
/// of a character worth less. `h`, the history read from my side, raises a
/// Contessa's value once the opponent has claimed an Assassin.
pub fn keep_cards(offered: &[Character], keep: usize, h: Option<&History>) -> String {
    let mut pool = offered.to_vec();
    let mut kept: Vec<Character> = Vec::new();
    for _ in 0..keep {
        let best = pool
            .iter()
            .enumerate()
            .map(|(i, &c)| {
                let dup = if kept.contains(&c) { 3.0 } else { 0.0 };
                (i, card_value(c, h, true) - dup)
            })
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(i, _)| i);
        if let Some(i) = best {
            kept.push(pool.remove(i));
        }
    }
    format_hand(&kept)
}
