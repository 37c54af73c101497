//! The strong strategy's parameters (its race evaluation, bluff and
//! challenge priors), the horizon's prior pace and the model's test count, in
//! one configuration type, [`StrongConfig`]: each field with its meaning.
//! None is a setting: no configuration the bot plays changes them.
//!
//! Where they act: the `strong` strategy (`--strategy strong`) decides with
//! all of them. The default `search` strategy decides by its own
//! [`crate::coup::SearchConfig`] and reads these only where it falls back on
//! the strong strategy: a call where the search finds no choice, an
//! Exchange keep it did not search. Unless a field says
//! otherwise, its value was set by hand when the strong strategy was written
//! against the original field and was not measured on its own.

/// One table of parameters: the struct and its defaults, so a parameter is
/// written once.
macro_rules! strong_config {
    ($( $(#[doc = $doc:literal])* $key:ident: $ty:ty = $default:expr, )*) => {
        /// The strong strategy's parameters and the horizon's prior pace
        /// (see the module's documentation for where each acts).
        #[derive(Debug, Clone, Copy, PartialEq)]
        pub struct StrongConfig {
            $( $(#[doc = $doc])* pub $key: $ty, )*
        }

        impl Default for StrongConfig {
            fn default() -> Self {
                StrongConfig { $( $key: $default, )* }
            }
        }
    };
}

strong_config! {
    /// Logistic scale of one turn of race advantage in the strong bot's evaluation.
    scale: f64 = 0.55,
    /// Logistic weight of one card of advantage.
    cards: f64 = 0.9,
    /// Below this challenge rate of the opponent, my evaluation assumes I can Tax.
    bluff_tax: f64 = 0.16,
    /// Bluff rate of a Contessa block by a player with two cards.
    beta_contessa2: f64 = 0.03,
    /// Bluff-rate factor for Duke, Captain and Ambassador blocks.
    beta_block: f64 = 0.3,
    /// Bluff-rate factor for actions.
    beta_action: f64 = 1.25,
    /// Below this challenge rate of Assassinations, my evaluation assumes I can Assassinate.
    bluff_assassin: f64 = 0.2,
    /// Bluff rate of a Contessa block by a player with one card left.
    beta_contessa1: f64 = 0.5,
    /// Prior rate at which the opponent challenges my claims (worth one observation).
    pc_prior: f64 = 0.08,
    /// Prior challenge rate of an opponent that is losing the race.
    pc_leading: f64 = 0.4,
    /// Prior challenge rate of an opponent that is winning the race.
    pc_trailing: f64 = 0.12,
    /// The opponent's assumed coin gain per turn before it claims a Duke.
    opp_gain: f64 = 2.5,
    /// The opponent's assumed cost per kill before it claims an Assassin.
    opp_kill: f64 = 7.0,
    /// Whether the turn choice looks one opponent turn ahead.
    ply2: bool = true,
    /// How far a Tax claim by an opponent not believed to hold a Duke is still
    /// expected to pay (it may bluff unchallenged).
    tax_trust: f64 = 0.7,
    /// Weight of the opponent's best reply (the rest: the mean reply).
    reply_min: f64 = 0.7,
    /// Largest difference of two turn values that counts as a tie (a win
    /// probability of one in ten thousand: below what a 200-game row resolves).
    tie: f64 = 1e-4,
    /// Value bonus of an honest claim among my first two claims.
    probe_bonus: f64 = 0.04,
    /// Prior mean of the challenge rate expected for a Contessa block with two
    /// cards: catching one wins the challenger the game while a wrong challenge
    /// costs it one card, so challenging pays once a bluff is about a third
    /// likely, and a two-card hand lacks a Contessa 66 times in 105: an even
    /// chance before its answers are seen (measured: the real contest winner,
    /// which challenges every block, without memory 61.5% at 0.5 against
    /// 60.0% at 0.375, seed 7, 200 games).
    pc_contessa: f64 = 0.5,
    /// Weight of [`StrongConfig::pc_contessa`] in blocks against its answers to my
    /// Contessa blocks (this game and memory).
    pc_contessa_w: f64 = 4.0,
    /// Factor on my race turns against an opponent that Steals unblocked.
    steal_drain: f64 = 1.04,
    /// Public probability of a claim at which the opponent challenges at its usual rate.
    plausible: f64 = 0.4,
    /// Coins a turn my evaluation credits to future Tax bluffs (an honest Tax: 3).
    bluff_tax_gain: f64 = 2.6,
    /// Bluff-rate factor for Assassinations.
    beta_assassin: f64 = 1.0,
    /// Tempo of having the next turn, in race turns.
    tempo: f64 = 0.3,
    /// Challenge rate expected of a one-card opponent without a Contessa facing
    /// Assassination (giving up would lose the game: it contests).
    a1_chal: f64 = 1.0,
    /// Base rate of bluffed blocks.
    block_bluff: f64 = 0.06,
    /// Weight of challenges seen in the other race situation.
    lead_w: f64 = 0.18,
    /// Weight of each Assassination of mine seen when the opponent has one card.
    a1_seen: f64 = 1.0,
    /// Calls per turn assumed before any turn of the game is complete: an
    /// action, its answer and the closing newline (`Tp\n`, `Fd\n`, `C=\n`;
    /// `docs/rules/coup.md` §5).
    horizon_calls_per_turn: f64 = 3.0,
    /// Weight of [`StrongConfig::horizon_calls_per_turn`] in turns against this game's pace.
    horizon_prior_turns: f64 = 2.0,
    /// Tests of its blocks (challenges, this game and past ones) from which the
    /// learned block-bluff ratio replaces the prior ratios.
    model_min_tests: u32 = 2,
    /// Probability that a player holding the blocking card blocks (the
    /// original field's bots all blocked with the card when they held it).
    block_honest: f64 = 0.95,
    /// Remembered claims (past games) that weigh as much as the race-lead
    /// prior in the opponent's challenge rate: past games count
    /// `n / (n + mem_prior)` for `n` remembered claims.
    mem_prior: f64 = 5.0,
    /// The opponent's observed challenge rate of my claims is kept at least
    /// this far from 0 and from 1 (a few claims never prove that it always or
    /// never challenges).
    rate_margin: f64 = 0.02,
    /// Least factor by which a plausible claim lowers the opponent's
    /// challenge rate ([`StrongConfig::plausible`] over the claim's public
    /// probability).
    doubt_min: f64 = 0.5,
    /// Greatest factor by which an implausible claim raises it.
    doubt_max: f64 = 3.0,
    /// Share of the opponent's action bluff rate that its blocks are taken to
    /// bluff on top of [`StrongConfig::block_bluff`] before any block of its
    /// was tested.
    block_from_action: f64 = 0.25,
    /// Greatest bluff rate of an untested opponent's blocks.
    block_bluff_max: f64 = 0.5,
    /// Coins a turn credited to an opponent that claims a Captain, at least
    /// (a Steal takes 2 coins from me as it gains 2).
    steal_gain: f64 = 2.5,
}
