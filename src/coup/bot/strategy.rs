//! The `coup-bot` program's strategies ([`Strategy`]) and the dispatch of a
//! decision to one of them once the search (if any) has found no choice
//! (the `search` strategy then answers as the honest sparring strategy).

use super::view::Ctx;
use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::history::History;
use crate::coup::game::CoupError;
use crate::coup::sparring::simple::{keep_cards, random, safe_answer};
use crate::coup::sparring::Archetype;

/// A named strategy of the `coup-bot` program.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Race calculator: least aggressive plan that wins the race, blocks only
    /// with held cards, challenges mostly when losing the race.
    Calculator,
    /// Uniformly random legal answer.
    Random,
    /// Income every turn, never blocks or challenges.
    Income,
    /// Never bluffs; challenges only claims its own view proves impossible.
    Honest,
    /// Challenges every claim it can.
    Challenger,
    /// Claims Duke relentlessly (Tax, Duke blocks), never challenges.
    TaxBluffer,
    /// Archetype: Tax every turn ([`crate::coup::sparring`]).
    AlwaysTax,
    /// Archetype: Steal every turn, block Steals as Captain.
    AlwaysSteal,
    /// Archetype: Assassinate at 3 coins, block as Contessa.
    AlwaysAssassinate,
    /// Archetype: challenge every claim and block.
    ChallengeAll,
    /// Archetype: never challenge, never bluff.
    NeverChallenge,
    /// Archetype: block every action it can.
    BlockAll,
    /// Determinized Monte Carlo search on the one engine: every answer
    /// played out in worlds drawn from the hand posterior, the opponent by
    /// its learnt habits (`bot/determinized.rs`).
    Search,
}

impl Strategy {
    /// Every strategy with its command-line name.
    pub const ALL: [(Strategy, &'static str); 13] = [
        (Strategy::Calculator, "calculator"),
        (Strategy::Random, "random"),
        (Strategy::Income, "income"),
        (Strategy::Honest, "honest"),
        (Strategy::Challenger, "challenger"),
        (Strategy::TaxBluffer, "tax-bluffer"),
        (Strategy::AlwaysTax, "always-tax"),
        (Strategy::AlwaysSteal, "always-steal"),
        (Strategy::AlwaysAssassinate, "always-assassinate"),
        (Strategy::ChallengeAll, "challenge-all"),
        (Strategy::NeverChallenge, "never-challenge"),
        (Strategy::BlockAll, "block-all"),
        (Strategy::Search, "search"),
    ];

    /// Parses a command-line name (`search`, `calculator`, `random`,
    /// `income`, `honest`, `challenger`, `tax-bluffer`, and the archetypes
    /// `always-tax`, `always-steal`, `always-assassinate`, `challenge-all`,
    /// `never-challenge`, `block-all`).
    ///
    /// # Errors
    /// [`CoupError::UnknownStrategy`].
    pub fn parse(name: &str) -> Result<Strategy, CoupError> {
        Strategy::ALL
            .iter()
            .find(|(_, n)| *n == name)
            .map(|(s, _)| *s)
            .ok_or_else(|| CoupError::UnknownStrategy(name.to_string()))
    }

    /// The command-line name.
    pub fn name(self) -> &'static str {
        Strategy::ALL
            .iter()
            .find(|(s, _)| *s == self)
            .map(|(_, n)| *n)
            .unwrap_or("search")
    }
}

/// The cards `strategy` keeps from an Exchange offer: the first `keep` for
/// `random` (still legal and varied), else the best card values
/// ([`keep_cards`]).
pub(super) fn keep_for(
    strategy: Strategy,
    offered: &[Character],
    keep: usize,
    h: Option<&History>,
) -> String {
    if strategy == Strategy::Random {
        return format_hand(&offered.iter().copied().take(keep).collect::<Vec<_>>());
    }
    keep_cards(offered, keep, h)
}

impl Ctx<'_> {
    pub(super) fn choose(&mut self, s: Strategy) -> String {
        // Forced or trivial answers first.
        if self.legal.len() == 1 {
            return self.legal[0].clone();
        }
        let is_give_up = self.legal.iter().all(|a| {
            a.chars()
                .next()
                .is_some_and(|c| Character::from_held(c).is_some())
        });
        if is_give_up {
            return if s == Strategy::Random {
                random(self.legal, &mut self.rng)
            } else {
                self.give_up()
            };
        }
        match s {
            Strategy::Random => random(self.legal, &mut self.rng),
            Strategy::Income => self.seat().income(),
            Strategy::Honest => self.seat().honest(false),
            Strategy::Challenger => self.seat().honest(true),
            Strategy::TaxBluffer => self.seat().tax_bluffer(),
            // Answered by the replica before a context is built.
            Strategy::Calculator => safe_answer(self.legal),
            Strategy::AlwaysTax
            | Strategy::AlwaysSteal
            | Strategy::AlwaysAssassinate
            | Strategy::ChallengeAll
            | Strategy::NeverChallenge
            | Strategy::BlockAll => {
                let kind = match s {
                    Strategy::AlwaysTax => Archetype::AlwaysTax,
                    Strategy::AlwaysSteal => Archetype::AlwaysSteal,
                    Strategy::AlwaysAssassinate => Archetype::AlwaysAssassinate,
                    Strategy::ChallengeAll => Archetype::ChallengeAll,
                    Strategy::NeverChallenge => Archetype::NeverChallenge,
                    _ => Archetype::BlockAll,
                };
                let line: String = self.line.iter().collect();
                crate::coup::sparring::answer(kind, &line, self.legal, &self.hand, self.mc, self.oc)
            }
            // The search found no choice (`decide_told` says so in the
            // decision's note): the honest sparring answer.
            Strategy::Search => self.seat().honest(false),
        }
    }
}
