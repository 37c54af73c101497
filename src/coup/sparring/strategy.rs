//! The `coup-bot` program's strategies ([`Strategy`]) and the answers of
//! the sparring ones ([`play`]); the `search` strategy is the bot
//! ([`crate::coup::bot::decide`]), which answers as the honest sparring
//! strategy when its search finds no choice.

use rand_chacha::ChaCha8Rng;

use super::simple::{keep_cards, random, safe_answer, Seat};
use super::Archetype;
use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::history::History;
use crate::coup::game::CoupError;

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
    /// One of the archetypes ([`Archetype`]), each playing one simple idea.
    Archetype(Archetype),
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
        (Strategy::Archetype(Archetype::AlwaysTax), "always-tax"),
        (Strategy::Archetype(Archetype::AlwaysSteal), "always-steal"),
        (
            Strategy::Archetype(Archetype::AlwaysAssassinate),
            "always-assassinate",
        ),
        (
            Strategy::Archetype(Archetype::ChallengeAll),
            "challenge-all",
        ),
        (
            Strategy::Archetype(Archetype::NeverChallenge),
            "never-challenge",
        ),
        (Strategy::Archetype(Archetype::BlockAll), "block-all"),
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
pub fn keep_for(
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

/// The answer of the sparring `strategy` (or, for `search`, the honest
/// one) seen from `seat` with `my_coins`: the one legal answer when there
/// is one, a card to give up by the card values, else the strategy's own
/// rule (`calculator` is the replica's, answered before: here safely).
pub fn play(strategy: Strategy, seat: &Seat, my_coins: i64, rng: &mut ChaCha8Rng) -> String {
    let legal = seat.legal;
    if legal.len() == 1 {
        return legal[0].clone();
    }
    let is_give_up = legal.iter().all(|a| {
        a.chars()
            .next()
            .is_some_and(|c| Character::from_held(c).is_some())
    });
    match strategy {
        Strategy::Random => random(legal, rng),
        _ if is_give_up => seat.give_up(),
        Strategy::Income => seat.income(),
        Strategy::Challenger => seat.honest(true),
        Strategy::TaxBluffer => seat.tax_bluffer(),
        Strategy::Calculator => safe_answer(legal),
        Strategy::Archetype(kind) => {
            let line: String = seat.line.iter().collect();
            super::answer(kind, &line, legal, seat.hand, my_coins, seat.opp_coins)
        }
        // Honest, and the search when it found no choice.
        Strategy::Honest | Strategy::Search => seat.honest(false),
    }
}
