//! The strong strategy's parameters (its race evaluation, bluff and challenge
//! priors) and the horizon's prior pace, shared by the bot's parts.

/// Logistic scale of one turn of race advantage in the strong bot's evaluation.
pub(super) const STRONG_SCALE: f64 = 0.55;
/// Logistic weight of one card of advantage.
pub(super) const STRONG_CARDS: f64 = 0.9;
/// Below this challenge rate of the opponent, my evaluation assumes I can Tax.
pub(super) const STRONG_BLUFF_TAX: f64 = 0.16;
/// Bluff rate of a Contessa block by a player with two cards.
pub(super) const STRONG_BETA_CONTESSA2: f64 = 0.03;
/// Bluff-rate factor for Duke, Captain and Ambassador blocks.
pub(super) const STRONG_BETA_BLOCK: f64 = 0.3;
/// Bluff-rate factor for actions.
pub(super) const STRONG_BETA_ACTION: f64 = 1.25;
/// Below this challenge rate of Assassinations, my evaluation assumes I can Assassinate.
pub(super) const STRONG_BLUFF_ASSASSIN: f64 = 0.2;
/// Bluff rate of a Contessa block by a player with one card left.
pub(super) const STRONG_BETA_CONTESSA1: f64 = 0.5;
/// Prior rate at which the opponent challenges my claims (worth one observation).
pub(super) const STRONG_PC_PRIOR: f64 = 0.08;
/// Prior challenge rate of an opponent that is losing the race.
pub(super) const STRONG_PC_LEADING: f64 = 0.4;
/// Prior challenge rate of an opponent that is winning the race.
pub(super) const STRONG_PC_TRAILING: f64 = 0.12;
/// The opponent's assumed coin gain per turn before it claims a Duke.
pub(super) const STRONG_OPP_GAIN: f64 = 2.5;
/// The opponent's assumed cost per kill before it claims an Assassin.
pub(super) const STRONG_OPP_KILL: f64 = 7.0;
/// Whether the turn choice looks one opponent turn ahead (1) or not (0).
pub(super) const STRONG_PLY2: u32 = 1;
/// How far a Tax claim by an opponent not believed to hold a Duke is still
/// expected to pay (it may bluff unchallenged).
pub(super) const STRONG_TAX_TRUST: f64 = 0.7;
/// Weight of the opponent's best reply (the rest: the mean reply).
pub(super) const STRONG_REPLY_MIN: f64 = 0.7;
/// Largest difference of two turn values that counts as a tie (a win
/// probability of one in ten thousand: below what a 200-game row resolves).
pub(super) const STRONG_TIE: f64 = 1e-4;
/// Value bonus of an honest claim among my first two claims.
pub(super) const STRONG_PROBE_BONUS: f64 = 0.04;
/// Prior mean of the challenge rate expected for a Contessa block with two
/// cards: catching one wins the challenger the game while a wrong challenge
/// costs it one card, so challenging pays once a bluff is about a third
/// likely, and a two-card hand lacks a Contessa 66 times in 105: an even
/// chance before its answers are seen (measured: the real contest winner,
/// which challenges every block, without memory 61.5% at 0.5 against
/// 60.0% at 0.375, seed 7, 200 games).
pub(super) const STRONG_PC_CONTESSA: f64 = 0.5;
/// Weight of [`STRONG_PC_CONTESSA`] in blocks against its answers to my
/// Contessa blocks (this game and memory).
pub(super) const STRONG_PC_CONTESSA_W: f64 = 4.0;
/// Factor on my race turns against an opponent that Steals unblocked.
pub(super) const STRONG_STEAL_DRAIN: f64 = 1.04;
/// Public probability of a claim at which the opponent challenges at its usual rate.
pub(super) const STRONG_PLAUSIBLE: f64 = 0.4;
/// Coins a turn my evaluation credits to future Tax bluffs (an honest Tax: 3).
pub(super) const STRONG_BLUFF_TAX_GAIN: f64 = 2.6;
/// Bluff-rate factor for Assassinations.
pub(super) const STRONG_BETA_ASSASSIN: f64 = 1.0;

/// Tempo of having the next turn, in race turns.
pub(super) const STRONG_TEMPO: f64 = 0.3;
/// Challenge rate expected of a one-card opponent without a Contessa facing
/// Assassination (giving up would lose the game: it contests).
pub(super) const STRONG_A1_CHAL: f64 = 1.0;
/// Base rate of bluffed blocks.
pub(super) const STRONG_BLOCK_BLUFF: f64 = 0.06;
/// Weight of challenges seen in the other race situation.
pub(super) const STRONG_LEAD_W: f64 = 0.18;

/// Weight of each Assassination of mine seen when the opponent has one card.
pub(super) const STRONG_A1_SEEN: f64 = 1.0;

/// Calls per turn assumed before any turn of the game is complete: an
/// action, its answer and the closing newline (`Tp\n`, `Fd\n`, `C=\n`;
/// `docs/rules/coup.md` §5).
pub(super) const HORIZON_CALLS_PER_TURN: f64 = 3.0;
/// Weight of [`HORIZON_CALLS_PER_TURN`] in turns against this game's pace.
pub(super) const HORIZON_PRIOR_TURNS: f64 = 2.0;

/// Tests of its blocks (challenges, this game and past ones) from which the
/// learned block-bluff ratio replaces the prior ratios.
pub(super) const MODEL_MIN_TESTS: u32 = 2;

/// Probability that a player holding the blocking card blocks (the
/// original field's bots all blocked with the card when they held it).
pub(super) const STRONG_BLOCK_HONEST: f64 = 0.95;
