//! Exploitable archetypes for sparring: each plays one simple idea to the
//! end, so a bot that reads its opponent must find and punish it.
//!
//! - [`Archetype::AlwaysTax`]: Tax every turn (Coup when it can), passes
//!   everything, never blocks or challenges;
//! - [`Archetype::AlwaysSteal`]: Steal every turn it can (else Tax), blocks
//!   Steals as Captain, never challenges;
//! - [`Archetype::AlwaysAssassinate`]: Assassinate whenever it has 3 coins
//!   (else Tax), blocks Assassinations as Contessa, never challenges;
//! - [`Archetype::ChallengeAll`]: honest turns, challenges every claim and
//!   every block it can;
//! - [`Archetype::NeverChallenge`]: honest turns and blocks only with cards
//!   it holds, never challenges;
//! - [`Archetype::BlockAll`]: honest turns, blocks every action it can
//!   block (with any card), never challenges.
//!
//! Cards are given up in a fixed preference (least useful to its idea first).

use rand::RngExt;

use crate::coup::game::character::Character;
use crate::coup::game::protocol::{Action, Block, Reply};
use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

/// One archetype.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Archetype {
    /// Tax every turn.
    AlwaysTax,
    /// Steal every turn.
    AlwaysSteal,
    /// Assassinate whenever possible.
    AlwaysAssassinate,
    /// Challenge everything.
    ChallengeAll,
    /// Never challenge, never bluff.
    NeverChallenge,
    /// Block everything.
    BlockAll,
}

fn has(hand: &[Character], c: Character) -> bool {
    hand.contains(&c)
}

/// The archetype's answer: `line` is the current (unfinished) line of the
/// history (empty at the start of my turn), `legal` the legal answers,
/// `hand` my cards, `my_coins`/`opp_coins` as the arbiter passes them.
/// Always one of `legal` (the first one when `legal` offers nothing it wants).
pub fn answer(
    a: Archetype,
    line: &str,
    legal: &[String],
    hand: &[Character],
    my_coins: i64,
    opp_coins: i64,
) -> String {
    use Character::{Ambassador, Assassin, Captain, Contessa, Duke};
    let can = |x: &str| legal.iter().any(|l| l == x);
    let pick = |prefs: &[&str]| -> String {
        prefs
            .iter()
            .find(|p| can(p))
            .map(|p| p.to_string())
            .unwrap_or_else(|| legal.first().cloned().unwrap_or_else(|| "\n".into()))
    };
    // Give up a card: the first of `keep_last` reversed, i.e. the least wanted.
    let keep_order: &[Character] = match a {
        Archetype::AlwaysTax => &[Duke, Contessa, Captain, Assassin, Ambassador],
        Archetype::AlwaysSteal => &[Captain, Duke, Contessa, Assassin, Ambassador],
        Archetype::AlwaysAssassinate => &[Assassin, Contessa, Duke, Captain, Ambassador],
        _ => &[Duke, Contessa, Assassin, Captain, Ambassador],
    };
    let give_up = || -> Option<String> {
        keep_order.iter().rev().find_map(|c| {
            legal
                .iter()
                .find(|l| l.starts_with(c.held()) && has(hand, *c))
                .cloned()
        })
    };
    if legal.iter().all(|l| {
        l.chars()
            .next()
            .is_some_and(|c| Character::from_held(c).is_some())
    }) {
        return give_up().unwrap_or_else(|| pick(&[]));
    }
    let last = line.chars().last().unwrap_or('\n');
    let challenger = a == Archetype::ChallengeAll;
    if line.is_empty() {
        // My turn.
        let honest = |mut prefs: Vec<&'static str>| {
            if has(hand, Assassin) && opp_coins >= 0 {
                prefs.push("A");
            }
            if has(hand, Duke) {
                prefs.push("T");
            }
            if has(hand, Captain) && opp_coins >= 2 {
                prefs.push("S");
            }
            prefs.extend(["F", "I\n"]);
            pick(&prefs)
        };
        return match a {
            Archetype::AlwaysTax => pick(&["C", "T"]),
            Archetype::AlwaysSteal => pick(&["C", "S", "T"]),
            Archetype::AlwaysAssassinate => pick(&["C", "A", "T"]),
            _ if my_coins >= 7 => pick(&["C"]),
            _ => honest(vec![]),
        };
    }
    // Challenged: prove the claim when I hold the card.
    if let Some(r) = legal.iter().find(|l| {
        l.chars()
            .next()
            .is_some_and(|c| Character::from_revealed(c).is_some())
    }) {
        return r.clone();
    }
    // Challenges.
    if challenger && can("q") {
        return "q".into();
    }
    match last {
        'F' => match a {
            Archetype::BlockAll => pick(&["d"]),
            _ if has(hand, Duke) && a != Archetype::AlwaysTax => pick(&["d"]),
            _ => pick(&["p"]),
        },
        'S' => match a {
            Archetype::BlockAll | Archetype::AlwaysSteal => pick(&["c"]),
            Archetype::AlwaysTax => pick(&["p"]),
            _ if has(hand, Captain) => pick(&["c"]),
            _ if has(hand, Ambassador) => pick(&["a"]),
            _ => pick(&["p"]),
        },
        'A' => match a {
            Archetype::BlockAll | Archetype::AlwaysAssassinate => pick(&["s"]),
            _ if has(hand, Contessa) && a != Archetype::AlwaysTax => pick(&["s"]),
            _ => give_up().unwrap_or_else(|| pick(&["s"])),
        },
        'E' | 'T' => pick(&["p"]),
        'a' | 'c' | 'd' | 's' => pick(&["\n"]),
        _ => give_up().unwrap_or_else(|| pick(&["\n", "p"])),
    }
}

/// The simple sparring strategies of [`crate::coup::Strategy`] (`random`,
/// `income`, `honest`, `challenger`, `tax-bluffer`), read from the bot's view.
impl crate::coup::bot::Ctx<'_> {
    pub(in crate::coup) fn random(&mut self) -> String {
        let i = self.rng.random_range(0..self.legal.len());
        self.legal[i].clone()
    }

    pub(in crate::coup) fn income(&self) -> String {
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
    pub(in crate::coup) fn honest_action(&self) -> String {
        let mut prefs = vec![Reply::Act(Action::Coup)];
        if self.has(Assassin) {
            prefs.push(Reply::Act(Action::Assassinate));
        }
        if self.has(Duke) {
            prefs.push(Reply::Act(Action::Tax));
        }
        if self.has(Captain)
            && self.oc >= 2
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

    pub(in crate::coup) fn honest(&self, challenge_all: bool) -> String {
        let last = self.last();
        if self.turn_start() {
            return self.honest_action();
        }
        let claimed = Character::claimed_by(last);
        if let Some(c) = claimed {
            if self.can(Reply::Challenge) && (challenge_all || self.impossible(c)) {
                return Reply::Challenge.text();
            }
        }
        match last {
            'F' => (if self.has(Duke) {
                Reply::Block(Block::Duke)
            } else {
                Reply::Pass
            })
            .text(),
            'A' => {
                if self.has(Contessa) {
                    Reply::Block(Block::Contessa).text()
                } else if self.mk == 1 && !challenge_all {
                    // Nothing left to lose.
                    Reply::Challenge.text()
                } else {
                    self.give_up()
                }
            }
            'S' => {
                if self.has(Captain) {
                    Reply::Block(Block::Captain).text()
                } else if self.has(Ambassador) {
                    Reply::Block(Block::Ambassador).text()
                } else {
                    Reply::Pass.text()
                }
            }
            'E' | 'T' => Reply::Pass.text(),
            'a' | 'c' | 'd' | 's' => Reply::EndTurn.text(),
            _ => self.fallback(),
        }
    }

    pub(in crate::coup) fn tax_bluffer(&self) -> String {
        let last = self.last();
        if self.turn_start() {
            return self
                .pick(&[Reply::Act(Action::Coup), Reply::Act(Action::Tax)])
                .unwrap_or(Reply::Act(Action::Income))
                .text();
        }
        match last {
            'F' => Reply::Block(Block::Duke).text(),
            'A' => {
                if self.has(Contessa) || self.mk == 1 {
                    Reply::Block(Block::Contessa).text()
                } else {
                    self.give_up()
                }
            }
            'S' => self.block_steal_if_held(),
            'E' | 'T' => Reply::Pass.text(),
            'a' | 'c' | 'd' | 's' => Reply::EndTurn.text(),
            _ => self.fallback(),
        }
    }

    /// Blocks a Steal with a Captain or an Ambassador held, else passes.
    pub(in crate::coup) fn block_steal_if_held(&self) -> String {
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
