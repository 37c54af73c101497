//! The `search` strategy: determinized Monte Carlo search on the one engine
//! ([`crate::coup::game::engine`]).
//!
//! For one decision: draw [`SearchConfig::worlds`] worlds from my
//! information state (the opponent's hand from the hand posterior of
//! [`crate::coup::bot::model::hand_distribution`], weighted by its learnt bluff
//! ratios; the deck from the cards left), and in each world play every root
//! answer (and, on an Exchange call, every keep) to the end of the game
//! through the engine, the same world for every answer (common random
//! numbers). The answer with the most wins is chosen. Both sides play the
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
use rand::{Rng, RngExt};

use super::opponent::{
    kind_index, race_standing, ClaimAt, Model, ACTION_KINDS, BLOCK_KINDS, RACES,
};
use super::params::{StrongConfig, STRONG_KEYS};
use super::view::Ctx;
use crate::coup::game::character::Character;
use crate::coup::game::protocol::{Action, Block, Reply, CLAIM_KINDS};
use crate::coup::game::rules::{hands_of, is_exchange_call, last_line};
use crate::coup::game::CoupError;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::coup::bot::model::{
    hand_distribution, hand_distribution_chosen, PassWeights, EXCHANGE_RANK, HALF_PASS,
    PASSED_OVER_WEIGHT,
};
use std::time::{Duration, Instant};

use super::known::{replica_particles, Identified};
use crate::coup::game::engine::{at_turn_start, Cards, State};
use crate::coup::game::history::{calls_made, Side};
use crate::coup::game::protocol::LINE_END;
use crate::coup::sparring::replica::{decide_call, Call, Flags};
use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

/// The search's parameters, each with its meaning; settable from the
/// command line as `--search key=value` ([`SearchConfig::set`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct SearchConfig {
    /// Worlds (determinizations) per decision; every root answer is played
    /// out once in each. 300 worlds × up to 7 answers keep a call near 3 ms
    /// (measured by `make coup-bench`'s timing column); the standard error
    /// of a value is then at most 0.5 / sqrt(300) = 0.029. More worlds buy
    /// nothing: at 900 (2.1-2.4 ms a call) the default won 49.1% [46.7,
    /// 51.6] of 1,600 games against Seer (seeds 7-31; 51.4% at 300). With
    /// [`SearchConfig::iterations`] scaled alike, a third to ten times the
    /// search won 50.0-55.0% of 800 games (seeds 7-17; the default 51.4%),
    /// three times 53.1% [50.7, 55.6] of 1,600 (docs/coup-log.md, "Which of
    /// Seer's lessons cost us"). Against the real Calculator with memory
    /// (seeds 7-67, 3,200 games) 150 worlds won 71.5% [69.9, 73.1], 300
    /// 73.8% [72.2, 75.3], 600 70.7% [69.1, 72.2] (docs/coup-log.md, "The
    /// flat arm against the Calculator once the type read chooses it").
    pub worlds: usize,
    /// Probability that my rollout policy claims Tax without a Duke at a
    /// turn it has nothing better to do (the rest: Income or Foreign Aid).
    pub my_tax_bluff: f64,
    /// Probability that a rollout turn with nothing better to do (no
    /// Coup, Assassination, Tax or Steal chosen) Exchanges when the player
    /// holds an Ambassador, for both sides; a guess of this rollout policy,
    /// measured flat: 0.1 and 0.6 won 48.4% and 47.6% of 800 games against
    /// Seer (arbiter3 seeds 7-17; 0.3: 51.4%; docs/coup-log.md, "Which of
    /// Seer's lessons cost us").
    pub rollout_exchange: f64,
    /// Probability that such a turn takes Foreign Aid rather than Income,
    /// for both sides: no preference; 0.2 and 0.8 won 48.6% and 52.4% of
    /// the same 800 games (0.5: 51.4%), within the noise.
    pub rollout_foreign_aid: f64,
    /// Probability that my rollout policy challenges an action claim it
    /// cannot disprove: the mean challenge rate of the field of opponents.
    pub my_challenge: f64,
    /// Probability that my rollout policy blocks without the card.
    pub my_block_bluff: f64,
    /// Probability that a player blocks when it holds the blocking card.
    pub block_when_held: f64,
    /// Whether every repeated standing claim of a character counts as its
    /// own evidence in the hand posterior (up to three), or only once.
    /// With the tree, resolved ratios and the Exchange prior, once won
    /// 51.1% [47.7, 54.6] of 800 games against Seer (seeds 7-17) against
    /// 45.5% with every repeat; the flat default keeps every repeat (its
    /// measurements were made so). Once on the flat arm predicts the real
    /// Calculator's bluffs better at three of six seeds (it repeats the
    /// claims it bluffed) but won 69.6% [67.9, 71.1] of 3,200 games
    /// against it (seeds 7-67; every repeat 73.8%), challenging its honest
    /// repeated Taxes more (docs/coup-log.md, "The flat arm against the
    /// Calculator once the type read chooses it").
    pub repeat_claims: bool,
    /// Calls a rollout plays before it stops and the position is valued by
    /// [`SearchConfig::card_value`] (0: play every world to its end).
    /// Rollout policies are cruder than either player, and the longer they
    /// run the more their noise evens out who leads: measured against Seer,
    /// full rollouts valued one card against two at 0.27 where the games
    /// themselves won 0.14. Eight calls (about three turns) measured at
    /// arbiter3 seed 7, 200 games each, against full rollouts: Seer 50.5%
    /// against 45.5%, Calculator 75.0% against 70.0%, the honest stand-in
    /// 95.5% against 83.0%. With the tree, 4 calls won 52.4% [49.9, 54.8]
    /// of the 1,600 games of [`SearchConfig::tree`] against Seer, 2 calls
    /// 43.8%, 6 calls 48.6%, 8 calls 48.1% (all with
    /// [`SearchConfig::claimant_cards`]): the rollouts after a pass let the
    /// opponent's learnt habits outrun my fixed ones.
    pub horizon: usize,
    /// Calls a rollout may run past [`SearchConfig::horizon`] to reach the
    /// start of a turn, where it is cut (a quiescence extension): the
    /// horizon's value ([`SearchConfig::card_value`], coin lead) describes a
    /// position between turns, and a cut mid-turn values a claim, a block
    /// or a Coup before its answer as if it had not been made. 0: cut at
    /// the horizon wherever it falls.
    ///
    /// 8 by default, 0 on the portfolio's arm 1 ([`SearchConfig::arm`],
    /// whose horizon and card values were set against Seer on cuts
    /// mid-turn). Measured on arm 0 (arbiter3, memory on, seeds 7-67, 3,200
    /// games each; docs/coup-log.md, "Cuts between turns"): the real Calculator
    /// 70.8% [69.2, 72.3] against 65.9% [64.2, 67.5] with cuts anywhere,
    /// Seer 52.1% [50.4, 53.9] against 52.4% [50.6, 54.1]. Extending also
    /// past a turn's start where the player to move holds 7 coins (its
    /// Coup to come): Calculator 71.4%, Seer 50.1%; on both arms 70.5%,
    /// 47.4%; only there (cuts mid-turn kept): the same games as none.
    pub quiescence: usize,
    /// Probability of winning with `[my cards][its cards]` (1 or 2 each),
    /// the value of a rollout cut at the horizon: measured as the share of
    /// games won after the first time each card count was reached (200
    /// games against Seer at arbiter3 seed 7, `scripts/coup-bench.py`).
    /// Even values (`0.5,0.25,0.75,0.5`) with the tree's answers at
    /// `horizon=4` won 55.2% [52.8, 57.7] of the 1,600 games of
    /// [`SearchConfig::tree`] against Seer and 57.0% [50.1, 63.7] against
    /// the real Calculator (docs/coup-log.md, "The tree search").
    pub card_value: [[f64; 2]; 2],
    /// Which decisions the search makes (the rest are the strong
    /// strategy's): 0 all, 1 only the answers to the opponent's moves (its
    /// claims, blocks, challenges; my give-ups), 2 only my turns' actions
    /// and Exchange keeps.
    pub scope: u8,
    /// Whether the opponent's challenges of my claims follow how doubtful
    /// each looks from the public record at this decision
    /// (`Ctx::public_doubt`): its learnt challenge rates scaled by the
    /// public probability that I lack the card over that of a fresh claim.
    /// Measured against Seer (arbiter3 seed 7, 200 games): 48.0% with it,
    /// 41.0-44.5% in five runs without.
    pub public_doubt: bool,
    /// Whether the posterior reads the opponent's Income and Foreign Aid
    /// as a Duke passed over, weighing a hand with a Duke by
    /// [`PASSED_OVER_WEIGHT`] for each (`Ctx::pass_weights`).
    pub passed_over: bool,
    /// The likelihood ratio of a declined block, P(declines | holds the
    /// blocking card) / P(declines | lacks it): each pass on my Foreign Aid
    /// or Steal, and each card given up to my Assassination, weighs an
    /// opponent's hand holding the blocking card by this
    /// (`Ctx::pass_weights`). 0.5 by default (the strong bot's reading).
    /// Seer and Calculator block whenever they hold the card (in arbiter3's
    /// logs, `scripts/coup-games.py --blocks`: Seer 88-100% of the times it could, by
    /// action and cards left; Calculator every time), which would put it
    /// near 0.05; measured at 0.05, seeds 7-31, 1,600 games a cell: Seer
    /// 52.1% [49.7, 54.6] (the default 51.4%), the Calculator replica 62.8%
    /// (63.7%), the real Calculator with memory, seeds 7-17, 62.5% [59.1,
    /// 65.8] (65.2%), the real Calculator with a fresh folder per game,
    /// seeds 7-17, 61.9% [58.5, 65.2] (60.6%): nothing, so the default
    /// stays.
    pub declined_block: f64,
    /// The opponent's true hand, for the clairvoyant bound only
    /// ([`crate::coup::bot::decide_clairvoyant`]); `None` in play.
    pub known_opponent: Option<Cards>,
    /// Whether the posterior's prior for a hand the opponent chose at an
    /// Exchange is the best of the cards it saw by
    /// [`crate::coup::bot::model::EXCHANGE_RANK`] rather than a blind draw
    /// ([`crate::coup::bot::model::hand_distribution_chosen`]). Off: it
    /// predicts better and did not play better. On 200 games against Seer
    /// (arbiter3 seed 7), 32 of the 39 times the search challenged a Tax
    /// claimed after Seer's Exchange Seer held the Duke (91 of its 106
    /// such claims were honest); with it, the Brier score of the
    /// predicted bluffs on those games went from 0.212 to 0.203
    /// (`scripts/coup-calibration.py`), and the win rate against Seer
    /// (arbiter3 seeds 7 and 11, 400 games) from 54.0% [49.1, 58.8] to
    /// 51.7% [46.9, 56.6] (docs/coup-log.md, "Calibration").
    pub exchange_prior: bool,
    /// Whether the opponent's bluff ratios come from its claims whose truth
    /// the history showed ([`Model::resolved_action_ratio`]: every first
    /// claim of a character in a hand, challenged or not, by my cards at
    /// the claim) rather than from the claims I challenged alone
    /// ([`Model::action_bluff_ratio`], a sample chosen by my own
    /// suspicion). Off: with the Exchange prior it lowered the Brier score
    /// on Seer's claims to 0.195 and the win rate against Seer to 46.5-49.2%
    /// (400 games, arbiter3 seeds 7 and 11; docs/coup-log.md, "Calibration").
    /// Arm 1 of the portfolio has it ([`SearchConfig::arm`]); on arm 0 too
    /// (`--search resolved_bluffs=1` on the default, 2026-11-27, seeds
    /// 7-17, 800 games each): the real Calculator with memory 63.2% [59.9,
    /// 66.5] (the default 65.2%), Seer 49.4% [45.9, 52.8] (51.4%).
    pub resolved_bluffs: bool,
    /// Value of each coin of lead at the horizon (a Coup costs 7 coins and
    /// takes a card, worth about a quarter of a game between two-card
    /// hands: 0.25 / 7 per coin, rounded).
    pub coin_value: f64,
    /// Whether decisions are made by information-set Monte Carlo tree
    /// search (`bot/tree.rs`: my later decisions searched too)
    /// instead of the flat search (every root answer played out by the
    /// rollout policies alone). Off: against Seer (arbiter3, seeds 7, 11,
    /// 13, 17, 19, 23, 29, 31, 200 games each, with `resolved_bluffs=1
    /// exchange_prior=1 repeat_claims=0`) it won 47.9% [45.4, 50.3] of
    /// 1,600 games against the flat search's 44.4% [42.0, 46.9] with the
    /// same model and the default's 42.6% [40.2, 45.1]; but against the
    /// real Calculator (seed 7, 200 games, memory on) 61.0% [54.1, 67.5]
    /// against the default's 75.0%, and 56.5% [49.6, 63.2] against its
    /// replica with the default model: a best response to the opponent's
    /// learnt habits, which do not know that a race calculator challenges
    /// when it is losing the race (docs/coup-log.md, "The tree search").
    pub tree: bool,
    /// Iterations of the tree search per decision (one world each). 2,000
    /// keep a call near 3 ms with process start (`make coup-bench`'s
    /// timing column, a quiet machine); 4,000 played the same against Seer
    /// (47.9% of the same 1,600 games).
    pub iterations: usize,
    /// The exploration constant `c` of the tree's UCB1 rule
    /// `wins/visits + c * sqrt(ln(available)/visits)`; rewards lie in
    /// [0, 1], for which UCB1's regret bound takes `c = sqrt(2)`. 0.7
    /// played the same against Seer (46.9% [44.4, 49.3], the 1,600 games
    /// of [`SearchConfig::tree`]).
    pub exploration: f64,
    /// The clock's safety net, in milliseconds of wall time for one
    /// search: past it no further world (or tree iteration) starts, the
    /// answer comes from those played, and the decision's note says so
    /// (`coup-bot` prints it on stderr). A call takes a few ms (22 at most
    /// in the benchmarks, docs/coup.md) and the arbiter forfeits a bot
    /// after 5 s, so 1,000 ms never binds there: the caps (`worlds`,
    /// `iterations`) decide and the same input gives the same answer. 0: no
    /// clock is read.
    pub clock_ms: f64,
    /// Whether the opponent's challenges of my action claims in the
    /// playouts follow its rate in the race standing of the moment
    /// ([`Model::challenge_action_at`]: its rate for the kind and its card
    /// count as a prior worth four claims, then its answers in that
    /// standing) rather than its rate over all standings. Off: on both arms
    /// it won 67.2% [63.9, 70.4] against the real Calculator (seeds 7-17,
    /// 800 games; the default 65.1%) and 50.6% [48.2, 53.1] against Seer
    /// (seeds 7-31, 1,600 games; the default 53.4%), on arm 0 alone 67.1%
    /// and 49.6%: the trade between the two seen before (docs/coup-log.md,
    /// "Against Seer: what has been tried"). On arm 0 alone under the type
    /// read (a test build, thirty-fourth session, seeds 7-67, 3,200 games
    /// each): 73.0% [71.5, 74.5] against the real Calculator (the default
    /// 73.8%), 55.0% against Seer (55.7%). The memory keeps the counts
    /// either way.
    pub race_challenges: bool,
    /// Whether the ratio of the claim I am answering is the opponent's in
    /// that claim's context, its turns taken before it
    /// ([`crate::coup::bot::opponent::claim_context`]), rather than over
    /// all turns (with [`SearchConfig::resolved_bluffs`] only). Off: with
    /// the tree it won 43.8% [41.3, 46.2] of the 1,600 games of
    /// [`SearchConfig::tree`] against 47.9% without, although Seer's
    /// bluffs depend strongly on the turn (docs/coup-log.md, "The tree
    /// search").
    pub claim_turns: bool,
    /// Whether the ratio of the claim I am answering is the opponent's with
    /// as many cards as it holds now, converted to a likelihood ratio with
    /// the chance of holding the card in a hand of that size, rather than
    /// pooled over its card counts (with [`SearchConfig::resolved_bluffs`]
    /// only). A claim on the last card risks the game (the counts are in
    /// the docs of [`crate::coup::bot::opponent::claim_context`]). Off:
    /// with the tree and the model of [`SearchConfig::tree`] it won 48.1%
    /// [45.6, 50.5] of the same 1,600 games against Seer (46.4% without),
    /// and with `horizon=4` too 52.4% [49.9, 54.8], but against the real
    /// Calculator (seed 7, 200 games) 64.5% with memory and 44.5% with a
    /// fresh folder per game, against the default's 75.0% and 54.5%
    /// (docs/coup-log.md, "The tree search").
    pub claimant_cards: bool,
    /// With [`SearchConfig::tree`]: the tree decides only my answers to the
    /// opponent's moves (challenges, blocks, reveals, give-ups); my turns'
    /// actions and keeps stay with the flat search. Off: with the model of
    /// [`SearchConfig::claimant_cards`] and `horizon=4` it won 53.0% [50.6,
    /// 55.4] of the 1,600 games against Seer (the best row measured) and
    /// 63.5% [56.6, 69.9] against the real Calculator (seed 7, memory on;
    /// the default 75.0%; docs/coup-log.md, "The tree search"). Measured again on
    /// arm 1 ([`SearchConfig::arm`]) with the tree deciding my turns too:
    /// Seer 54.3% [51.9, 56.7], the Calculator replica 62.3% [59.9, 64.7]
    /// (arm 1: 52.8%, 62.4%; seeds 7-31, 1,600 games each), with
    /// [`SearchConfig::learnt_odds`] 1 as well Seer 52.8%: within the noise.
    pub tree_answers_only: bool,
    /// Whether `coup-bot` chooses, per opponent and per game, between this
    /// configuration (arm 0) and the tree's answers with the learnt model
    /// (arm 1, [`SearchConfig::arm`]): by the opponent's type with
    /// [`SearchConfig::typed_arms`] (the default), else by satisficing
    /// Thompson sampling on the arms' results against that opponent, read
    /// from its finished games ([`crate::coup::memory::Entry::choose_arm`]).
    /// Needs the memory; the C ABI, `--no-memory` and a first game play
    /// arm 0. Measured with Thompson sampling and an earlier arm 1
    /// (arbiter3, memory on, 200 games per seed, seeds 7, 11, 13, 17, 19,
    /// 23, 29, 31; docs/coup-log.md, "The portfolio"): against Seer
    /// 49.1% [46.7, 51.6] where arm 0 alone won 42.6% [40.2, 45.1] (arm 1
    /// alone 55.2%); against the Calculator replica 66.4% [64.0, 68.6]
    /// where arm 0 alone won 68.4% [66.1, 70.7]; plain Thompson sampling
    /// won 51.4% and 63.2%.
    pub portfolio: bool,
    /// With [`SearchConfig::portfolio`], how the arm is chosen: 0 by the
    /// arms' results, 1 by the opponent's answers to my blocks, 2 (the
    /// default) by those and by the attacks it bluffed. With 1, arm 0
    /// plays while the opponent's answers to my blocks in its earlier games
    /// are all challenges (the contest winner's rule) or all passes (a player that
    /// challenges only what it can rule out): fixed rules, which arm 0's
    /// long playouts cut between turns predict; arm 1 (with the claimant's
    /// mind) plays from the first game after it has both challenged a block
    /// and let one stand, for good
    /// ([`crate::coup::memory::Entry::choose_typed_arm`]). With 2, arm 1
    /// also plays against an opponent that has let stand every block of
    /// mine it answered (one at least) once the history has proved one of
    /// its Steals or Assassinations a bluff
    /// ([`Stats::attack_bluffs`](crate::coup::opponent::Stats::attack_bluffs)):
    /// arm 0's playouts, which cut between turns, keep challenging such a
    /// player's honest claims. One arm per opponent, not per game, since
    /// Seer exploits a policy that changes from game to game. Off:
    /// satisficing Thompson sampling
    /// ([`crate::coup::memory::Entry::choose_arm`]). Measured (arbiter3,
    /// memory on, seeds 7-67, 3,200 games each; docs/coup-log.md, "The arm
    /// by the opponent's type"): Seer 56.5% [54.8, 58.2] where the previous
    /// default (Thompson sampling, arm 1 without the mind) won 52.3%, the
    /// real Calculator 73.8% [72.2, 75.3] where it won 71.7% (arm 0 in every
    /// game); on 16 held-out seeds (71-149) 53.7% and 72.1% (52.3%,
    /// 69.9%) with 1; at seed 7 every stand-in, archetype and sparring
    /// strategy 85.5% or more with 1 (`always-assassinate` the lowest,
    /// which arm 1 alone beats 99.6%). With 2 (docs/coup-log.md, "Attackers
    /// that bluff and let blocks stand"; seeds 7-31, 1,600 games each):
    /// si-bandit 99.9%, si-bloodymurder 99.0%, always-steal 99.9%,
    /// always-assassinate 99.0% (with 1: 92.1%, 89.1%, 92.9%, 87.4%), every
    /// other row of the seed-7 field the same games; Seer 55.7% over seeds
    /// 7-67 and 55.1% over 71-149 (with 1: 56.5%, 53.7%), the Calculator
    /// the same games.
    pub typed_arms: u8,
    /// How many games the configured [`SearchConfig::card_value`] weigh
    /// against the card counts reached in this opponent's settled games
    /// (`coup-bot` with its memory: [`crate::coup::memory::Entry::card_values`]);
    /// 0: the configured values alone (the C ABI, `--no-memory`). Off: on
    /// arm 1 of the portfolio ([`SearchConfig::arm`]), 20 won 53.1% [50.6,
    /// 55.5] of 1,600 games against Seer (arm 1: 55.2%) and 60.9% [58.5,
    /// 63.3] against the Calculator replica (61.4%), arbiter3 seeds 7-31
    /// (docs/coup-log.md, "What the memory saw of a game").
    pub learnt_values: f64,
    /// With [`SearchConfig::resolved_bluffs`], the probability that an
    /// honest claimant holding the claimed card and another gives up the
    /// other one first, which decides what a claim with one other card
    /// shown says ([`crate::coup::bot::opponent::Model::keep_claimed`]);
    /// `None` (`keep_claimed=-1`): the unseen card taken as a blind draw,
    /// which reads such claims as likelier bluffs than the claims resolved.
    /// Off: 1 (a partly shown claim says nothing) won 50.7% [48.3, 53.2] of
    /// 1,600 games against Seer on arm 1 (55.2% with the blind draw) and
    /// 63.1% against the Calculator replica (61.4%); measured before a
    /// settled game's counts were re-read from its finished history, which
    /// mended the miscalibration it was meant to mend (docs/coup-log.md, "What
    /// the memory saw of a game").
    pub keep_claimed: Option<f64>,
    /// A factor on every learnt likelihood ratio P(claim | lacks the card) /
    /// P(claim | holds it) of the hand posterior (the search's worlds;
    /// each ratio still at most 1): below 1 the opponent's standing claims
    /// read as more honest than its counts say. 1 (the model as learnt) by
    /// default; it applies to the flat search (arm 0), while arm 1 of the
    /// portfolio reads the ratios as learnt ([`SearchConfig::arm`]; after an
    /// `arm=1` key it sets that arm's). The flat search values the challenges
    /// it chooses 6 to 24 points above what they win (docs/coup-log.md,
    /// "Choosing the playouts by how well they predict"); at 0.4 on arm 0 it
    /// won 74.6% [73.1, 76.1] of 3,200 games against the real Calculator
    /// with memory (71.7% at 1; paired by seed +2.9, t interval +-2.1) and
    /// 50.6% [48.9, 52.4] against Seer (52.3%; -1.7 +-3.2; on 16 other seeds
    /// 50.0% against 52.3%), every stand-in at seed 7 as well or better
    /// (arbiter3, seeds 7-67; docs/coup-log.md, "Challenging less on the flat
    /// arm"): the trade between the two strong opponents again, so 1 stays;
    /// at 0.4 on both arms (before arm 1 ignored it) 73.8% and 47.9%. Since
    /// the type read gives the Calculator arm 0 and Seer arm 1 (thirty-fourth
    /// session, seeds 7-67): 0.4 won 73.8% [72.3, 75.3] against the real
    /// Calculator (1: 73.8%) and 53.9% against Seer (55.7%).
    /// Arm 1's model over-predicted Seer's bluffs (0.35 predicted
    /// against 0.23 observed, 700 claims, arbiter3 seed 7), yet 0.5, 0.3
    /// and 0.15 on arm 1 won 53.1% [50.6, 55.5], 54.6% [52.2, 57.1] and
    /// 49.9% [47.5, 52.4] of 1,600 games against Seer (arm 1: 52.8%
    /// [50.4, 55.2], seeds 7-31; 0.3: 65.2% against 62.4% of the
    /// Calculator replica's): Seer
    /// answered a bot that challenges less by bluffing more (0.37 of its
    /// claims at 0.3), and the model under-predicted in turn (docs/coup-log.md,
    /// "Where the cards go").
    pub bluff_odds: f64,
    /// Factors on the learnt likelihood ratios of each claim kind, on top
    /// of [`SearchConfig::bluff_odds`], in the order of
    /// [`crate::coup::memory::CLAIM_KINDS`] (`ETSAacds`): the pending
    /// claim's ratio takes its kind's factor, a standing claim of a
    /// character its action's (a Contessa: the Contessa block's). All 1 by
    /// default; `coup-bot` sets them from its memory with
    /// [`SearchConfig::learnt_odds`] 2.
    pub kind_odds: [f64; CLAIM_KINDS.len()],
    /// The power `t` of every claim's likelihood ratio in the hand
    /// posterior (`r^t`, after [`SearchConfig::bluff_odds`] and
    /// [`SearchConfig::kind_odds`]): a tempered likelihood, one power on all
    /// the evidence of claims, set by how well the posterior predicts.
    /// 1: the ratios as learnt; below 1 each claim weighs less (the
    /// correction for evidence counted as independent that is not), the
    /// posterior nearer the deal's odds; above 1, more.
    ///
    /// 1.3 by default, chosen by calibration on games the model had not
    /// learnt from (`scripts/coup-calibration.py`: each prediction made
    /// with the memory of the games before it): the Brier score of the
    /// predicted bluffs, against Seer / the Calculator replica at arbiter3
    /// seed 11, 0.168 / 0.068 at 1, 0.164 / 0.058 at 1.3, 0.165 / 0.054 at
    /// 1.6, Seer 0.171 at 2; checked at seed 13, 0.190 / 0.086 at 1, 0.189 /
    /// 0.077 at 1.3, 0.192 / 0.073 at 1.6. The model read both opponents
    /// as bigger bluffers than they were: their claims are better evidence
    /// than the learnt ratios said. Played (arbiter3 seeds 7-31, 1,600
    /// games each): Seer 53.4% [50.9, 55.8] at 1.3, 53.3% at 1.6, 51.2%
    /// at 2 (1: 51.4% [48.9, 53.8]); the replica 65.1%, 65.6%, 64.7%
    /// (1: 63.7%); the real Calculator with memory, seeds 7-17, 65.1%
    /// (1: 65.2%); docs/coup-log.md, "Tempered claims".
    pub temper: f64,
    /// Whether `coup-bot` multiplies [`SearchConfig::bluff_odds`] by the
    /// factor its memory learnt for this opponent from the outcomes of my
    /// challenges of its claims against the model's predictions at them
    /// ([`crate::coup::memory::Entry::odds_factor`]): the calibration the
    /// fixed factor stands in for. Off: on arm 1 alone it won 54.1% [51.6,
    /// 56.5] of 1,600 games against Seer and 64.8% against the Calculator
    /// replica (arm 1: 52.8%, 62.4%); in the portfolio on both arms 47.8%
    /// and 68.9% (the default: 51.7%, 64.5%), on arm 1 only 51.3% and
    /// 65.3% (arbiter3, seeds 7-31; docs/coup-log.md, "Where the cards go").
    /// 0: off; 1: that factor; 2: a factor per claim kind on top of it
    /// ([`SearchConfig::kind_odds`] from
    /// [`crate::coup::memory::Entry::kind_odds_factors`]), which on arm 1
    /// won 51.6% [49.2, 54.1] against Seer and 65.6% against the replica
    /// (the same 1,600 games; docs/coup-log.md, "Where the cards go").
    pub learnt_odds: u8,
    /// Whether the opponent's challenges in the search's playouts follow
    /// policy identification ([`Model::identified_challenge_block`],
    /// [`Model::identified_challenge_action`]: "challenges every claim",
    /// "never challenges one" or a learnt rate, each a hypothesis weighed
    /// by the likelihood of all its answers so far) instead of the learnt
    /// rates alone. Before any answer a block is expected challenged at
    /// 0.3 + 0.5 x 0.25 = 0.425 rather than 0.25, and one player that has
    /// challenged every block so far is soon believed to challenge the
    /// next. On, the default: with a fresh folder per game (no memory) it
    /// won 60.6% [57.2, 64.0] of 800 games against the real Calculator
    /// (arbiter3 seeds 7, 11, 13, 17) where the search without it won
    /// 51.1% [47.7, 54.6], and 83.5% against 79.5% of the honest
    /// stand-in's (seed 7); with memory the rows did not move beyond the
    /// noise (docs/coup-log.md, "Policy identification").
    pub identified: bool,
    /// Prior probability that the opponent plays by the contest winner's
    /// rule ([`super::known`], `docs/rules/coup.md` §7), one known entry of
    /// the original field. The posterior weighs this game's answers (an
    /// exact filter over its hands under the rule, against a player
    /// choosing uniformly among its legal answers) and the memory (one
    /// earlier game the rule could not explain rules it out; one it
    /// explained to the end makes it near certain). In that share of the
    /// worlds its hand is drawn from the filter and its rollout answers
    /// are the rule's; the decision is then searched flat (the tree's
    /// policies do not include the rule). 0 turns it off. Measured at seed 7
    /// (arbiter3, 200 games, memory on; docs/coup-log.md, "The contest
    /// winner's rule, identified"): the real Calculator 81.0% [75.0, 85.8]
    /// (72.0% without), 87.5% [82.2, 91.4] with a fresh folder per game
    /// (64.5%); Seer 61.5%, the same games as without.
    pub known_prior: f64,
    /// Calls played in a rollout whose opponent plays by the known rule
    /// before it is cut ([`SearchConfig::horizon`] for the others); 0
    /// plays it to the end.
    pub known_horizon: usize,
    /// Log odds (nats) for the rule added by each earlier game against
    /// this opponent that the rule explained to my last call
    /// ([`super::opponent::Stats::replica`]).
    pub known_game_odds: f64,
    /// Log odds (nats) against the rule taken away by each earlier game
    /// the rule could not explain: `ln(1/e)` for a chance `e` that the
    /// filter loses a game the rule did play (none of 200 measured).
    pub known_break_odds: f64,
    /// Whether my own rollout answers, where the opponent plays by the
    /// known rule, are the rule's too (from no flags) rather than my
    /// [`Habits`].
    pub known_self: bool,
    /// The least posterior share for which the rule plays in the
    /// rollouts at all (below it the search is the one without the rule).
    pub known_min_share: f64,
    /// The opponent's pending claim read through its own eyes
    /// (`src/coup/bot/mind.rs`): the softmax temperature, in win
    /// probability, of a search of its decision from its seat for every
    /// hand the posterior allows, which gives each hand the likelihood of
    /// the claim. 0: off (the default). Measured (arbiter3, memory on, 200
    /// games a seed; docs/coup-log.md, "The claim through the claimant's
    /// eyes"): with [`SearchConfig::mind_raw`], `mind_odds=0.5`,
    /// `mind_worlds=96` and 0.03, Seer 54.2% [52.5, 55.9] of 3,200 games
    /// (seeds 7-67; the default 52.4% [50.6, 54.1]) and the real
    /// Calculator 61.0% [57.6, 64.3] (seeds 7-17; the default 65.1%);
    /// without `mind_raw`, Seer 51.2% of 1,600.
    pub mind: f64,
    /// Worlds per hand of [`SearchConfig::mind`]'s search (32; 96 in the
    /// best row measured).
    pub mind_worlds: usize,
    /// Whether [`SearchConfig::mind`] reads its blocks of my actions too,
    /// not only its action claims (off: Seer 51.2% either way, 1,600
    /// games).
    pub mind_blocks: bool,
    /// Whether [`SearchConfig::mind`]'s likelihood replaces the learnt
    /// ratio of the pending claim, its level included (times
    /// [`SearchConfig::mind_odds`] and [`SearchConfig::bluff_odds`] on the
    /// hands that lack the claimed character), rather than only spreading
    /// that ratio over the hands of each class (holding the character or
    /// not) by their likelihoods. With [`SearchConfig::repeat_claims`]
    /// off, the ratio replaced is the one all standing claims of the
    /// character share.
    pub mind_raw: bool,
    /// With [`SearchConfig::mind_raw`], a factor on the likelihood of the
    /// hands that lack the claimed character: below 1, the claimant bluffs
    /// less than a player searching as this bot does would. 1 by default;
    /// at `mind=0.05` with my habits from the game alone (an earlier
    /// build), 0.5 calibrated best on Seer's claims in games of the default
    /// it did not learn from (Brier 0.184 against the default's 0.229 and
    /// the base rate's 0.226, 695 claims, arbiter3 seed 11), 1
    /// over-predicted them (0.194) and 0.35 under-predicted them (0.189).
    pub mind_odds: f64,
    /// Claim kinds [`SearchConfig::mind`] leaves to the learnt ratios, by
    /// [`CLAIM_KINDS`] index (`mind_skip=EA`: the codes of the kinds). None
    /// by default: on arm 1 with the mind, the mind under-predicted Seer's
    /// Exchange and Assassination bluffs (0.28-0.41 predicted, 0.51-0.70
    /// observed, arbiter3 seeds 7 and 11) where the learnt ratios predicted
    /// them well, yet `mind_skip=EA` won 53.2% [51.4, 54.9] of 3,200 games
    /// against Seer where the mind on every kind won 57.2%: challenged
    /// more, Seer bluffed them less (docs/coup-log.md, "Choosing the
    /// playouts by how well they predict, and what Seer does when we read
    /// it better").
    pub mind_skip: [bool; CLAIM_KINDS.len()],
    /// The strong strategy's parameters and the horizon's prior pace, set
    /// as `strong.KEY=VALUE` (keys: [`crate::coup::bot::STRONG_KEYS`]): the
    /// search's fallback and `--strategy strong` decide with them.
    pub strong: StrongConfig,
}

/// A learnt likelihood ratio of claiming a character without it, in a
/// claim's context (see [`Model::resolved_action_ratio`]).
type BluffRatio = fn(&Model, Character, ClaimAt) -> f64;

/// The opponent's bluff ratios the configuration reads, `(actions, blocks)`:
/// from its resolved claims ([`SearchConfig::resolved_bluffs`]) or from
/// its challenged ones.
fn bluff_ratios(c: &SearchConfig) -> (BluffRatio, BluffRatio) {
    if c.resolved_bluffs {
        (Model::resolved_action_ratio, Model::resolved_block_ratio)
    } else {
        (
            |m: &Model, c, _| m.action_bluff_ratio(c),
            |m: &Model, c, _| m.block_bluff_ratio(c),
        )
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        SearchConfig {
            worlds: 300,
            my_tax_bluff: 0.2,
            rollout_exchange: 0.3,
            rollout_foreign_aid: 0.5,
            my_challenge: 0.15,
            my_block_bluff: 0.1,
            block_when_held: 0.95,
            repeat_claims: true,
            horizon: 8,
            quiescence: 8,
            card_value: [[0.39, 0.14], [0.72, 0.46]],
            coin_value: 0.035,
            scope: 0,
            public_doubt: true,
            known_opponent: None,
            known_prior: 0.1,
            known_horizon: 0,
            known_game_odds: 5.0,
            known_break_odds: 10.0,
            known_self: false,
            known_min_share: 0.05,
            passed_over: true,
            declined_block: 0.5,
            exchange_prior: false,
            resolved_bluffs: false,
            tree: false,
            iterations: 2000,
            clock_ms: 1000.0,
            race_challenges: false,
            exploration: std::f64::consts::SQRT_2,
            claim_turns: false,
            claimant_cards: false,
            tree_answers_only: false,
            portfolio: true,
            typed_arms: 2,
            learnt_values: 0.0,
            keep_claimed: None,
            bluff_odds: 1.0,
            kind_odds: [1.0; CLAIM_KINDS.len()],
            temper: 1.3,
            learnt_odds: 0,
            identified: true,
            mind: 0.0,
            mind_worlds: 32,
            mind_blocks: false,
            mind_raw: false,
            mind_odds: 1.0,
            mind_skip: [false; CLAIM_KINDS.len()],
            strong: StrongConfig::default(),
        }
    }
}

/// The keys [`SearchConfig::set`] accepts, as `--search key=value` names them (the message
/// of an unknown key lists them).
pub const SEARCH_KEYS: [&str; 48] = [
    "worlds",
    "my_tax_bluff",
    "rollout_exchange",
    "rollout_foreign_aid",
    "my_challenge",
    "my_block_bluff",
    "block_when_held",
    "repeat_claims",
    "horizon",
    "quiescence",
    "card_value",
    "coin_value",
    "scope",
    "public_doubt",
    "passed_over",
    "declined_block",
    "exchange_prior",
    "resolved_bluffs",
    "tree",
    "iterations",
    "clock_ms",
    "race_challenges",
    "exploration",
    "claim_turns",
    "claimant_cards",
    "tree_answers_only",
    "portfolio",
    "typed_arms",
    "learnt_values",
    "keep_claimed",
    "bluff_odds",
    "kind_odds",
    "learnt_odds",
    "identified",
    "known_prior",
    "known_horizon",
    "known_game_odds",
    "known_break_odds",
    "known_self",
    "known_min_share",
    "temper",
    "mind",
    "mind_worlds",
    "mind_blocks",
    "mind_raw",
    "mind_odds",
    "mind_skip",
    "arm",
];

impl SearchConfig {
    /// The configuration of the portfolio's arm `arm`
    /// ([`SearchConfig::portfolio`]): 0 (or any other) is `self`; 1 is
    /// `self` with the tree deciding the answers to the opponent's moves,
    /// its bluffs read from its resolved claims by the claimant's cards
    /// with the Exchange prior and repeated claims counted once, rollouts
    /// cut after 4 calls wherever they fall (no [`SearchConfig::quiescence`])
    /// and valued by even card values, the learnt ratios unscaled
    /// ([`SearchConfig::bluff_odds`] 1) — the best row
    /// against Seer, 55.2% [52.8, 57.7] of 1,600 games, where `self` by
    /// default won 42.6%, and 57.0% against the real Calculator at seed 7,
    /// where the default won 75.0% (61.4% against 68.4% over eight seeds
    /// of the Calculator replica; docs/coup-log.md, "The portfolio") —
    /// and its claims read through the claimant's eyes
    /// ([`SearchConfig::mind`] 0.03 with 96 worlds a hand,
    /// [`SearchConfig::mind_raw`], [`SearchConfig::mind_odds`] 0.5): played
    /// alone, 57.2% [55.5, 59.0] of 3,200 games against Seer and 62.6%
    /// against the real Calculator (docs/coup-log.md, "One arm against an
    /// adaptive opponent").
    pub fn arm(&self, arm: usize) -> SearchConfig {
        match arm {
            1 => SearchConfig {
                mind: 0.03,
                mind_worlds: 96,
                mind_raw: true,
                mind_odds: 0.5,
                tree: true,
                tree_answers_only: true,
                resolved_bluffs: true,
                exchange_prior: true,
                repeat_claims: false,
                claimant_cards: true,
                horizon: 4,
                quiescence: 0,
                card_value: [[0.5, 0.25], [0.75, 0.5]],
                bluff_odds: 1.0,
                ..*self
            },
            _ => *self,
        }
    }

    /// Whether the tree search ([`SearchConfig::tree`],
    /// [`SearchConfig::tree_answers_only`]) makes a decision at my turn
    /// (`my_turn`: an action or an Exchange keep) or at an answer.
    pub fn uses_tree(&self, my_turn: bool) -> bool {
        self.tree && !(self.tree_answers_only && my_turn)
    }

    /// `self` without the bluff odds factors ([`SearchConfig::bluff_odds`],
    /// [`SearchConfig::kind_odds`]): the model as learnt.
    pub fn without_odds(&self) -> SearchConfig {
        SearchConfig {
            bluff_odds: 1.0,
            kind_odds: [1.0; CLAIM_KINDS.len()],
            ..*self
        }
    }

    /// Sets one parameter from `key=value`. One key sets several: `arm=N`
    /// plays the portfolio's arm `N` alone (every setting of
    /// [`SearchConfig::arm`], [`SearchConfig::portfolio`] off), so a key
    /// after it changes that arm. `mind_skip` takes claim codes
    /// (`mind_skip=EA`), `card_value` and `kind_odds` lists of numbers,
    /// every other key a number.
    ///
    /// # Errors
    /// [`CoupError::BadArgument`], one line, for a text without `=`, an unknown key, a value
    /// that is not a finite number, or the wrong count of numbers (`card_value` takes 4,
    /// `kind_odds` 8); the setting is then left as it was.
    pub fn set(&mut self, kv: &str) -> Result<(), CoupError> {
        let bad = |why: &str| CoupError::BadArgument(format!("--search {kv:?}: {why}"));
        let (k, v) = kv
            .split_once('=')
            .ok_or_else(|| bad("expected key=value"))?;
        // A finite number (NaN and the infinities would pass every clamp below unchanged).
        let num = |v: &str| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|x| x.is_finite())
                .ok_or_else(|| bad(&format!("{:?} is not a finite number", v.trim())))
        };
        match k.trim() {
            "worlds" => self.worlds = num(v)?.clamp(1.0, 1e6) as usize,
            "my_tax_bluff" => self.my_tax_bluff = num(v)?,
            "rollout_exchange" => self.rollout_exchange = num(v)?,
            "rollout_foreign_aid" => self.rollout_foreign_aid = num(v)?,
            "my_challenge" => self.my_challenge = num(v)?,
            "my_block_bluff" => self.my_block_bluff = num(v)?,
            "block_when_held" => self.block_when_held = num(v)?,
            "repeat_claims" => self.repeat_claims = num(v)? != 0.0,
            "horizon" => self.horizon = num(v)?.clamp(0.0, 1e4) as usize,
            "quiescence" => self.quiescence = num(v)?.clamp(0.0, 1e4) as usize,
            "coin_value" => self.coin_value = num(v)?,
            "scope" => self.scope = num(v)?.clamp(0.0, 2.0) as u8,
            "public_doubt" => self.public_doubt = num(v)? != 0.0,
            "passed_over" => self.passed_over = num(v)? != 0.0,
            "declined_block" => self.declined_block = num(v)?,
            "exchange_prior" => self.exchange_prior = num(v)? != 0.0,
            "resolved_bluffs" => self.resolved_bluffs = num(v)? != 0.0,
            "tree" => self.tree = num(v)? != 0.0,
            "tree_answers_only" => self.tree_answers_only = num(v)? != 0.0,
            "portfolio" => self.portfolio = num(v)? != 0.0,
            "typed_arms" => self.typed_arms = num(v)?.clamp(0.0, 2.0) as u8,
            "learnt_values" => self.learnt_values = num(v)?.max(0.0),
            "keep_claimed" => {
                let k = num(v)?;
                self.keep_claimed = (k >= 0.0).then_some(k.min(1.0));
            }
            "iterations" => self.iterations = num(v)?.clamp(1.0, 1e7) as usize,
            "clock_ms" => self.clock_ms = num(v)?.max(0.0),
            "race_challenges" => self.race_challenges = num(v)? != 0.0,
            "exploration" => self.exploration = num(v)?,
            "bluff_odds" => self.bluff_odds = num(v)?.max(0.0),
            "temper" => self.temper = num(v)?.clamp(0.0, 4.0),
            "learnt_odds" => self.learnt_odds = num(v)?.clamp(0.0, 2.0) as u8,
            "kind_odds" => {
                let x: Vec<f64> = v.split(',').map(num).collect::<Result<_, _>>()?;
                self.kind_odds = x.try_into().map_err(|_| bad("kind_odds takes 8 numbers"))?;
            }
            "identified" => self.identified = num(v)? != 0.0,
            "known_prior" => self.known_prior = num(v)?.clamp(0.0, 1.0),
            "known_horizon" => self.known_horizon = num(v)?.clamp(0.0, 1e6) as usize,
            "known_game_odds" => self.known_game_odds = num(v)?.max(0.0),
            "known_break_odds" => self.known_break_odds = num(v)?.max(0.0),
            "known_self" => self.known_self = num(v)? != 0.0,
            "known_min_share" => self.known_min_share = num(v)?.clamp(0.0, 1.0),
            "mind" => self.mind = num(v)?.max(0.0),
            "mind_worlds" => self.mind_worlds = num(v)?.clamp(1.0, 1e5) as usize,
            "mind_blocks" => self.mind_blocks = num(v)? != 0.0,
            "mind_raw" => self.mind_raw = num(v)? != 0.0,
            "mind_odds" => self.mind_odds = num(v)?.max(0.0),
            "arm" => {
                let arm = num(v)?;
                if arm != 0.0 && arm != 1.0 {
                    return Err(bad("arm is 0 or 1"));
                }
                *self = SearchConfig {
                    portfolio: false,
                    ..self.arm(arm as usize)
                };
            }
            "mind_skip" => {
                let mut skip = [false; CLAIM_KINDS.len()];
                for c in v.trim().chars() {
                    let i = Reply::from_code(c)
                        .and_then(|r| kind_index(&CLAIM_KINDS, r))
                        .ok_or_else(|| bad(&format!("{c:?} is not a claim's code (ETSAacds)")))?;
                    skip[i] = true;
                }
                self.mind_skip = skip;
            }
            "claim_turns" => self.claim_turns = num(v)? != 0.0,
            "claimant_cards" => self.claimant_cards = num(v)? != 0.0,
            "card_value" => {
                let x: Vec<f64> = v.split(',').map(num).collect::<Result<_, _>>()?;
                if x.len() != 4 {
                    return Err(bad("card_value takes 4 numbers"));
                }
                self.card_value = [[x[0], x[1]], [x[2], x[3]]];
            }
            key => {
                if let Some(strong) = key.strip_prefix("strong.") {
                    if self.strong.set(strong, num(v)?) {
                        return Ok(());
                    }
                }
                let keys = SEARCH_KEYS.join(", ");
                return Err(CoupError::BadArgument(format!(
                    "--search {k:?}: unknown (keys: {keys}, strong.KEY with KEY one of {}; \
                     card_value takes 4 numbers, kind_odds 8)",
                    STRONG_KEYS.join(", ")
                )));
            }
        }
        Ok(())
    }
}

/// How one side plays out the rest of a game: probabilities of its choices
/// that its cards do not decide.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Habits {
    /// Challenges of the other's action claims (Exchange, Tax, Steal,
    /// Assassinate), by own card count (index 0: one card, 1: two) and race
    /// standing ([`race_standing`] of own coins against the claimant's).
    pub challenge: [[[f64; RACES]; 2]; 4],
    /// Challenges of the other's blocks `a c d s`.
    pub challenge_block: [f64; 4],
    /// Blocks without the card, of Foreign Aid, Steal, Assassination.
    pub block_bluff: [f64; 3],
    /// Blocks with the card.
    pub block_held: f64,
    /// Tax claimed without a Duke at a turn start.
    pub tax_bluff: f64,
    /// An Exchange with an Ambassador at a turn with nothing better to do
    /// ([`SearchConfig::rollout_exchange`]).
    pub exchange: f64,
    /// Foreign Aid rather than Income at such a turn
    /// ([`SearchConfig::rollout_foreign_aid`]).
    pub foreign_aid: f64,
}

impl Habits {
    /// My own habits in rollouts.
    pub fn mine(c: &SearchConfig) -> Habits {
        Habits {
            challenge: [[[c.my_challenge; RACES]; 2]; 4],
            challenge_block: [c.my_challenge; 4],
            block_bluff: [c.my_block_bluff; 3],
            block_held: c.block_when_held,
            tax_bluff: c.my_tax_bluff,
            exchange: c.rollout_exchange,
            foreign_aid: c.rollout_foreign_aid,
        }
    }

    /// The opponent's habits, learnt: its challenge rates from [`Model`]
    /// (Beta posteriors of its answers to my claims), its bluff rates from
    /// the likelihood ratios of its caught and proved claims (a ratio `r`
    /// of claiming without the card to claiming with it means a bluff rate
    /// `r` times the rate of claiming with it), those against my `mine`
    /// cards at the root.
    pub fn learnt(m: &Model, c: &SearchConfig, mine: usize) -> Habits {
        let mut challenge = [[[0.0; RACES]; 2]; 4];
        for (k, a) in ACTION_KINDS.into_iter().enumerate() {
            for (two, cards) in challenge[k].iter_mut().enumerate() {
                for (race, r) in cards.iter_mut().enumerate() {
                    let n = two + 1;
                    let rate = if c.race_challenges {
                        m.challenge_action_at(a, n, race)
                    } else {
                        m.challenge_action(a, n)
                    };
                    *r = if c.identified {
                        m.identified_action_rate(rate)
                    } else {
                        rate
                    };
                }
            }
        }
        let mut challenge_block = [0.0; 4];
        for (k, b) in BLOCK_KINDS.into_iter().enumerate() {
            challenge_block[k] = if c.identified {
                m.identified_challenge_block(b)
            } else {
                m.challenge_block(b)
            };
        }
        let held = c.block_when_held;
        let (action, block) = bluff_ratios(c);
        let pooled = ClaimAt::against(mine);
        Habits {
            challenge,
            challenge_block,
            block_bluff: [
                (block(m, Duke, pooled) * held).min(1.0),
                (block(m, Captain, pooled) * held).min(1.0),
                (block(m, Contessa, pooled) * held).min(1.0),
            ],
            block_held: held,
            // It claims Tax at every turn it holds a Duke (the rollout
            // policy), so its rate without one is the ratio itself.
            tax_bluff: action(m, Duke, pooled).min(1.0),
            exchange: c.rollout_exchange,
            foreign_aid: c.rollout_foreign_aid,
        }
    }
}

/// How much a card is worth keeping in a rollout (higher: kept longer).
fn keep_rank(c: Character) -> u8 {
    match c {
        Duke => 5,
        Assassin => 4,
        Captain => 3,
        Contessa => 2,
        Ambassador => 1,
    }
}

/// A rollout policy's answer for the seat to call. Looks only at public
/// facts (coins, card counts, the line) and the seat's own cards.
fn rollout_answer<R: Rng + ?Sized>(
    s: &State,
    legal: &[Reply],
    habits: &Habits,
    rng: &mut R,
) -> Reply {
    let me = s.to_call();
    let hand = s.hands[me];
    let (c, oc) = (s.coins[me], s.coins[1 - me]);
    let ok = s.hands[1 - me].len();
    let has = |x: Character| hand.contains(x);
    let can = |r: Reply| legal.contains(&r);
    let worst = || {
        let w = hand
            .as_slice()
            .iter()
            .copied()
            .min_by_key(|&x| keep_rank(x))
            .unwrap_or(Ambassador);
        legal
            .iter()
            .copied()
            .find(|r| matches!(r, Reply::GiveUp(x) | Reply::GiveUpEnd(x) if *x == w))
            .unwrap_or(legal[0])
    };
    if legal.len() <= 1 {
        return legal.first().copied().unwrap_or(Reply::EndTurn);
    }
    // The last event of the line; none at a turn's start.
    let last = s.line().last().and_then(|&c| Reply::from_code(c));
    let two = (hand.len() >= 2) as usize;
    let race = race_standing(c, oc);
    let act = |a: Action| Reply::Act(a);
    match last {
        None => {
            if can(act(Action::Coup)) && (c >= 7) {
                return act(Action::Coup);
            }
            if has(Assassin) && can(act(Action::Assassinate)) {
                return act(Action::Assassinate);
            }
            if has(Duke) {
                return act(Action::Tax);
            }
            if has(Captain) && oc >= 2 && can(act(Action::Steal)) {
                return act(Action::Steal);
            }
            if rng.random_bool(habits.tax_bluff.clamp(0.0, 1.0)) {
                return act(Action::Tax);
            }
            if has(Ambassador) && ok > 0 && rng.random_bool(habits.exchange.clamp(0.0, 1.0)) {
                return act(Action::Exchange);
            }
            if rng.random_bool(habits.foreign_aid.clamp(0.0, 1.0)) {
                act(Action::ForeignAid)
            } else {
                act(Action::Income)
            }
        }
        Some(Reply::Act(Action::ForeignAid)) => {
            if (has(Duke) && rng.random_bool(habits.block_held))
                || rng.random_bool(habits.block_bluff[0].clamp(0.0, 1.0))
            {
                Reply::Block(Block::Duke)
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(a @ (Action::Exchange | Action::Tax))) => {
            let k = kind_index(&ACTION_KINDS, a).unwrap_or(0);
            if rng.random_bool(habits.challenge[k][two][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(Action::Steal)) => {
            if has(Captain) && rng.random_bool(habits.block_held) {
                Reply::Block(Block::Captain)
            } else if has(Ambassador) && rng.random_bool(habits.block_held) {
                Reply::Block(Block::Ambassador)
            } else if rng.random_bool(habits.challenge[2][two][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else if rng.random_bool(habits.block_bluff[1].clamp(0.0, 1.0)) {
                Reply::Block(Block::Captain)
            } else {
                Reply::Pass
            }
        }
        Some(Reply::Act(Action::Assassinate)) => {
            if has(Contessa) {
                Reply::Block(Block::Contessa)
            } else if hand.len() <= 1 {
                // Giving up loses the game: contest it one way or the other.
                if rng.random_bool(habits.challenge[3][0][race].clamp(0.0, 1.0)) {
                    Reply::Challenge
                } else {
                    Reply::Block(Block::Contessa)
                }
            } else if rng.random_bool(habits.challenge[3][1][race].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else if rng.random_bool(habits.block_bluff[2].clamp(0.0, 1.0)) {
                Reply::Block(Block::Contessa)
            } else {
                worst()
            }
        }
        Some(Reply::Block(b)) => {
            let k = kind_index(&BLOCK_KINDS, b).unwrap_or(0);
            if rng.random_bool(habits.challenge_block[k].clamp(0.0, 1.0)) {
                Reply::Challenge
            } else {
                Reply::EndTurn
            }
        }
        _ => {
            // A forced reveal, a card to give up, or the end of a turn.
            if let Some(&r) = legal.iter().find(|r| matches!(r, Reply::Reveal(_))) {
                return r;
            }
            if legal.contains(&Reply::EndTurn) {
                return Reply::EndTurn;
            }
            worst()
        }
    }
}

/// The best `size` cards of an Exchange offer by [`keep_rank`], a second
/// copy of a character last.
fn rollout_keep(pool: &[Character], size: usize) -> Cards {
    let mut sorted = pool.to_vec();
    sorted.sort_by_key(|&c| std::cmp::Reverse(keep_rank(c)));
    let mut kept = Cards::default();
    for &c in &sorted {
        if kept.len() < size && !kept.contains(c) {
            kept.push(c);
        }
    }
    for &c in &sorted {
        if kept.len() < size {
            let mut left = Cards::from_slice(pool);
            for &k in kept.as_slice() {
                left.remove(k);
            }
            if left.contains(c) {
                kept.push(c);
            }
        }
    }
    kept
}

/// The value of a rollout cut at the horizon, for seat `me`
/// ([`SearchConfig::card_value`], [`SearchConfig::coin_value`]).
fn cut_value(s: &State, me: usize, c: &SearchConfig) -> f64 {
    let mk = s.hands[me].len().clamp(1, 2) - 1;
    let ok = s.hands[1 - me].len().clamp(1, 2) - 1;
    let lead = (s.coins[me] - s.coins[1 - me]) as f64;
    (c.card_value[mk][ok] + c.coin_value * lead).clamp(0.0, 1.0)
}

/// Plays a world to its end (or to the horizon); 1.0 when seat `me` wins,
/// 0.0 otherwise (a draw loses both players).
/// The horizon counts the calls made since call number `start`.
pub(super) fn playout<R: Rng + ?Sized>(
    s: &mut State,
    me: usize,
    habits: &[Habits; 2],
    config: &SearchConfig,
    start: usize,
    rng: &mut R,
) -> f64 {
    loop {
        if s.out_of_calls() {
            return 0.0;
        }
        // Past the horizon, cut at a turn's start (or once the quiescence
        // extension is spent).
        let played = s.calls - start;
        if config.horizon > 0
            && played >= config.horizon
            && !s.hands[0].is_empty()
            && (at_turn_start(s.line()) || played >= config.horizon + config.quiescence)
        {
            return cut_value(s, me, config);
        }
        let seat = s.to_call();
        let mut keep = None;
        if s.exchange_due() {
            if !s.draw_exchange() {
                return 0.0;
            }
            keep = Some(rollout_keep(
                s.exchange_pool().as_slice(),
                s.hands[seat].len(),
            ));
        }
        let Some(legal) = s.legal().filter(|l| !l.as_slice().is_empty()) else {
            return 0.0;
        };
        let answer = rollout_answer(s, legal.as_slice(), &habits[seat], rng);
        let kept = keep.as_ref().map(|k| k.as_slice());
        if let Some(end) = s.apply(answer, kept, rng) {
            return end.reward(me);
        }
    }
}

/// The opponent's seat played by the contest winner's rule in a rollout
/// ([`super::known`]): its flags and the parts of the history file the rule
/// reads besides the last line, kept up to date call by call.
#[derive(Debug, Clone)]
struct RuleSeat {
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
    fn starts_line(s: &State) -> bool {
        s.line().is_empty() || s.line().last() == Some(&LINE_END)
    }

    /// Counts the call `answer` just applied (`new_line` from
    /// [`RuleSeat::starts_line`] before it).
    fn after(&mut self, new_line: bool, answer: Reply) {
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
fn rule_playout<R: Rng + ?Sized>(
    s: &mut State,
    me: usize,
    mine: &Habits,
    seat: &mut RuleSeat,
    horizon: usize,
    config: &SearchConfig,
    start: usize,
    rng: &mut R,
) -> f64 {
    // My own seat by the same rule, from no flags ([`SearchConfig::known_self`]).
    let mut own = config.known_self.then(|| RuleSeat {
        flags: Flags::new(),
        ..seat.clone()
    });
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
        let answer = match (who == me, own.as_mut()) {
            (true, None) => rollout_answer(s, legal.as_slice(), mine, rng),
            (true, Some(own)) => {
                let (a, k) = own.answer(s, legal.as_slice());
                keep = k.or(keep);
                a
            }
            (false, _) => {
                let (a, k) = seat.answer(s, legal.as_slice());
                keep = k;
                a
            }
        };
        let new_line = RuleSeat::starts_line(s);
        let end = s.apply(answer, keep.as_ref().map(|k| k.as_slice()), rng);
        seat.after(new_line, answer);
        if let Some(own) = own.as_mut() {
            own.after(new_line, answer);
        }
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
    fn draw<R: Rng + ?Sized>(
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

/// One root choice: the answer and, on an Exchange call, the kept hand.
#[derive(Debug, Clone, PartialEq)]
pub struct Choice {
    /// The answer.
    pub answer: Reply,
    /// The hand kept (Exchange calls only).
    pub keep: Option<Vec<Character>>,
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
    /// ([`Ctx::search_posterior`]; zeros when there are no choices).
    pub(in crate::coup) posterior: [f64; 5],
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

/// The probability that the opponent holds at least one of each character
/// (index of [`Character::index`]) under the weighted `hands`; zeros when
/// no hand has weight.
fn marginals(hands: &[(Vec<Character>, f64)]) -> [f64; 5] {
    let total: f64 = hands.iter().map(|h| h.1).sum();
    let mut p = [0.0; 5];
    if total <= 0.0 {
        return p;
    }
    for (hand, w) in hands {
        for c in Character::ALL {
            if hand.contains(&c) {
                p[c.index()] += w / total;
            }
        }
    }
    p
}

impl Ctx<'_> {
    /// Likelihood ratios P(claim | lacks the card) / P(claim | holds it) of
    /// the opponent's standing claims, per character, for the hand
    /// posterior: its action claims' ratio ([`Model::action_bluff_ratio`],
    /// from the share of bluffs among its challenged actions), except a
    /// Contessa (only ever a block) and a block it has just made (the last
    /// character of `line`), which take its blocks' ratio
    /// ([`Model::block_bluff_ratio`]); with [`SearchConfig::resolved_bluffs`]
    /// the ratios of its resolved claims against as many cards as I hold
    /// now.
    fn search_ratios(&self, line: &[char], config: &SearchConfig) -> [f64; 5] {
        let (action, block) = bluff_ratios(config);
        let mine = self.h.me.cards_left();
        let pooled = ClaimAt::against(mine);
        let kind = |k: Reply| kind_index(&CLAIM_KINDS, k).map_or(1.0, |i| config.kind_odds[i]);
        let claim_of = |c: Character| Action::ALL.into_iter().find(|a| a.claim() == Some(c));
        let mut r = Character::ALL.map(|c| {
            action(&self.model, c, pooled).min(1.0)
                * claim_of(c).map_or(1.0, |a| kind(Reply::Act(a)))
        });
        r[Contessa.index()] =
            block(&self.model, Contessa, pooled).min(1.0) * kind(Reply::Block(Block::Contessa));
        // The claim I am answering, in its context when the configuration
        // says so: its turns taken before this one, its cards.
        let turns = config.claim_turns.then(|| {
            let all = self
                .h
                .turns
                .iter()
                .filter(|t| t.actor == Side::Opponent)
                .count();
            let current = self
                .h
                .turns
                .last()
                .is_some_and(|t| t.actor == Side::Opponent);
            all - current as usize
        });
        let at = ClaimAt {
            mine,
            claimant: config.claimant_cards.then(|| self.h.opp.cards_left()),
            turns,
        };
        match line.last().and_then(|&c| Reply::from_code(c)) {
            Some(k @ Reply::Block(b)) => {
                let c = b.character();
                r[c.index()] = block(&self.model, c, at).min(1.0) * kind(k);
            }
            Some(k @ Reply::Act(a)) if line.len() == 1 && ACTION_KINDS.contains(&a) => {
                if let Some(c) = a.claim() {
                    r[c.index()] = action(&self.model, c, at).min(1.0) * kind(k);
                }
            }
            _ => {}
        }
        r.map(|x| (x * config.bluff_odds).min(1.0).powf(config.temper))
    }

    /// The opponent's possible hands with their posterior weights, given
    /// the public record and its learnt bluff ratios
    /// ([`Ctx::search_ratios`]), and with [`SearchConfig::mind`] its
    /// pending action claim read through its eyes; `line` is the history's
    /// last line.
    fn opponent_hands(
        &mut self,
        line: &[char],
        history: &str,
        config: &SearchConfig,
    ) -> Vec<(Vec<Character>, f64)> {
        let ratios = self.search_ratios(line, config);
        let mut hands = hand_distribution_chosen(
            &self.h.opp,
            &self.unseen,
            self.h.opp.cards_left(),
            ratios,
            config.repeat_claims,
            Self::pass_weights(config),
            config.exchange_prior.then_some(EXCHANGE_RANK),
        );
        if config.mind > 0.0 {
            self.read_mind(&mut hands, &ratios, line, history, config);
        }
        hands
    }

    /// The hand posterior's marginals ([`Ctx::opponent_hands`]): the
    /// probability that the opponent holds at least one of each character
    /// (index of [`Character::index`]). The probability that its pending
    /// claim is a bluff is one minus the claimed character's entry.
    pub(in crate::coup) fn search_posterior(
        &mut self,
        line: &[char],
        history: &str,
        config: &SearchConfig,
    ) -> [f64; 5] {
        marginals(&self.opponent_hands(line, history, config))
    }

    /// How the search's posterior reads the opponent's passes: each
    /// declined block at [`SearchConfig::declined_block`]; with
    /// [`SearchConfig::passed_over`], every turn it took Income or Foreign
    /// Aid instead of Tax weighs a hand with a Duke by
    /// [`PASSED_OVER_WEIGHT`].
    fn pass_weights(config: &SearchConfig) -> PassWeights {
        PassWeights {
            block: config.declined_block,
            tax: config.passed_over.then_some(PASSED_OVER_WEIGHT),
        }
    }

    /// How much more doubtful my claim of `c` looks to the opponent than a
    /// fresh claim: the public probability that I lack `c` (the hand
    /// posterior of my public record over the cards not yet dead, at the
    /// likelihood ratio of my own caught and proved claims in this game,
    /// [`crate::coup::bot::model::bluff_rate`]) over the same probability with
    /// no record. A claim right after I was caught bluffing the same
    /// character is certain to be a bluff for anyone watching.
    pub(in crate::coup) fn public_doubt(&self, c: Character) -> f64 {
        let mut pool = [crate::coup::game::character::COPIES as u32; 5];
        for x in self.h.me.lost.iter().chain(&self.h.opp.lost) {
            pool[x.index()] = pool[x.index()].saturating_sub(1);
        }
        let k = self.h.me.cards_left().max(1);
        let f = crate::coup::bot::model::bluff_rate(&self.h.me).clamp(0.01, 0.99);
        let odds =
            crate::coup::bot::opponent::P_HOLD_TWO / (1.0 - crate::coup::bot::opponent::P_HOLD_TWO);
        let ratio = (f / (1.0 - f) * odds).clamp(1e-3, 1.0);
        let lack = |r: &crate::coup::game::history::Record| {
            let hands = hand_distribution(r, &pool, k, [ratio; 5], false, HALF_PASS);
            let total: f64 = hands.iter().map(|h| h.1).sum();
            let lacking: f64 = hands
                .iter()
                .filter(|h| !h.0.contains(&c))
                .map(|h| h.1)
                .sum();
            if total > 0.0 {
                lacking / total
            } else {
                1.0
            }
        };
        // My record as it will stand with this claim made.
        let mut now = self.h.me.clone();
        now.active_claims.push(c);
        let fresh = crate::coup::game::history::Record {
            active_claims: vec![c],
            ..Default::default()
        };
        let base = lack(&fresh).max(1e-3);
        lack(&now) / base
    }

    /// Weighs `hands` (the opponent's, with their posterior weights under
    /// `ratios`, [`Ctx::search_ratios`]) by
    /// how likely each was to make its pending claim, when `line` ends
    /// with one: an action claim at its turn's start or, with
    /// [`SearchConfig::mind_blocks`], a block of my action
    /// (`src/coup/bot/mind.rs`).
    fn read_mind(
        &mut self,
        hands: &mut [(Vec<Character>, f64)],
        ratios: &[f64; 5],
        line: &[char],
        history: &str,
        config: &SearchConfig,
    ) {
        let me = calls_made(history) % 2;
        // Its action claim at its turn's start, or its block of my action.
        let (before, last) = match line {
            [a] => (&line[..0], *a),
            [a, b] if Reply::from_code(*a).is_some_and(|r| matches!(r, Reply::Act(_))) => {
                (&line[..1], *b)
            }
            _ => return,
        };
        let Some((claim, claimed)) = Reply::from_code(last)
            .filter(|r| matches!(r, Reply::Act(_)) || config.mind_blocks)
            .filter(|&r| kind_index(&CLAIM_KINDS, r).is_none_or(|i| !config.mind_skip[i]))
            .and_then(|r| r.claim().map(|c| (r, c)))
        else {
            return;
        };
        let mut coins = [0; 2];
        coins[me] = self.mc;
        coins[1 - me] = self.oc;
        // My habits as it has seen them: my answers to it in this game and
        // in past ones, my challenges by the race standing (an adaptive
        // player keys them so); its own are my playout habits.
        let mut habits = [Habits::mine(config); 2];
        if let Some(seen) = super::opponent::Stats::mine_seen(history, "") {
            let mine = Model::new(&seen, self.mem_mine.as_ref());
            let seen = SearchConfig {
                race_challenges: true,
                ..*config
            };
            habits[me] = Habits::learnt(&mine, &seen, self.h.opp.cards_left());
        }
        let turn = super::mind::Turn {
            unseen: &self.unseen,
            mine: &self.hand,
            coins,
            me,
            calls: calls_made(history).saturating_sub(1),
            before,
            claim,
        };
        let reading = super::mind::Reading {
            temperature: config.mind,
            worlds: config.mind_worlds,
            raw: config.mind_raw,
        };
        let play = |s: &mut State, seat: usize, rng: &mut ChaCha8Rng| {
            let from = s.calls;
            playout(s, seat, &habits, config, from, rng)
        };
        let mut rng = ChaCha8Rng::seed_from_u64(self.rng.random());
        let factors = super::mind::claim_factors(hands, claimed, &turn, &reading, &play, &mut rng);
        // Raw: the pending claim's learnt ratio taken out of the weights.
        let ratio = ratios[claimed.index()].max(1e-9);
        for (h, f) in hands.iter_mut().zip(factors) {
            let lacks = !h.0.contains(&claimed);
            h.1 *= if config.mind_raw && lacks {
                config.mind_odds * config.bluff_odds * f / ratio
            } else {
                f
            };
        }
    }

    /// The contest winner's rule as the opponent's policy
    /// ([`SearchConfig::known_prior`]): `None` when it is off, when an
    /// earlier game or this one rules the rule out, or when the posterior
    /// share stays under [`SearchConfig::known_min_share`].
    fn known_rule(&self, history: &str, config: &SearchConfig) -> Option<KnownRule> {
        if config.known_prior <= 0.0 || config.known_opponent.is_some() {
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
            (prior / (1.0 - prior)).ln() + id.log_odds + config.known_game_odds * explained
                - config.known_break_odds * f64::from(broken);
        let share = 1.0 / (1.0 + (-log_odds).exp());
        let line = last_line(history);
        let line_lossy = !line.ends_with(LINE_END)
            && line
                .chars()
                .any(|c| Reply::from_code(c).and_then(Reply::given_up).is_some());
        (share >= config.known_min_share).then_some(KnownRule {
            id,
            share,
            line_lossy,
        })
    }

    /// Searches this decision: every legal answer (and keep) valued by the
    /// worlds of [`SearchConfig`]. `offered` is the card list the arbiter
    /// passed (n+2 on an Exchange call).
    pub(in crate::coup) fn search_choices(
        &mut self,
        history: &str,
        offered: &[Character],
        config: &SearchConfig,
    ) -> Searched {
        // The clock's safety net: read only to stop a search gone too long.
        let deadline = (config.clock_ms > 0.0)
            .then(|| Instant::now() + Duration::from_secs_f64(config.clock_ms / 1000.0));
        let me = calls_made(history) % 2;
        let line: Vec<char> = last_line(history).chars().collect();
        let exchange = is_exchange_call(last_line(history));
        // Root choices.
        let Some(legal) = crate::coup::game::engine::legal(&line, &self.hand, self.mc, self.oc)
        else {
            return Searched::default();
        };
        let allowed: Vec<Reply> = self.legal.iter().filter_map(|a| Reply::parse(a)).collect();
        let mut roots: Vec<(Reply, Option<Vec<Character>>)> = Vec::new();
        for &r in legal.as_slice() {
            if !allowed.contains(&r) {
                continue;
            }
            if exchange && r == Reply::EndTurn {
                for k in hands_of(offered, self.hand.len()) {
                    let mut sorted = k.clone();
                    sorted.sort_by_key(|c| c.index());
                    if !roots.iter().any(|(_, x)| {
                        x.as_ref().is_some_and(|x| {
                            let mut y = x.clone();
                            y.sort_by_key(|c| c.index());
                            y == sorted
                        })
                    }) {
                        roots.push((r, Some(k)));
                    }
                }
            } else {
                roots.push((r, None));
            }
        }
        if roots.is_empty() {
            return Searched::default();
        }
        // The posterior over the opponent's hand.
        let ok = self.h.opp.cards_left();
        let hands = self.opponent_hands(&line, history, config);
        let posterior = marginals(&hands);
        let total: f64 = hands.iter().map(|h| h.1).sum();
        let habits = {
            let mine = Habits::mine(config);
            let theirs = Habits::learnt(&self.model, config, self.h.me.cards_left());
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
        // looks from the public record (when public doubt is on): its
        // learnt rates scaled by the doubt of the claimed character.
        let mut habits = habits;
        if config.public_doubt {
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
        let mine = if exchange {
            Cards::from_slice(&offered[2..])
        } else {
            Cards::from_slice(&self.hand)
        };
        let calls = calls_made(history);
        let known = config.known_opponent;
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
            if exchange {
                s.drawn = Some([offered[0], offered[1]]);
            }
            s
        };
        // My turn's action or Exchange keep, or an answer to the opponent.
        let my_turn = at_turn_start(&line) || exchange;
        let rule = self.known_rule(history, config);
        let tree = config.uses_tree(my_turn) && rule.is_none();
        // Each answer's wins and worlds (visits for the tree), and the
        // worlds (iterations) played of those the cap allows; the flat
        // search also counts the calls its worlds ran to their end or cut.
        let (wins, played, lengths, (done, cap, unit)) = if tree {
            let mut rng = ChaCha8Rng::seed_from_u64(self.rng.random());
            let roots: Vec<(Reply, Option<Cards>)> = roots
                .iter()
                .map(|(r, k)| (*r, k.as_deref().map(Cards::from_slice)))
                .collect();
            let policies = Rollouts {
                me,
                habits: &habits,
                config,
            };
            let limits = super::tree::Limits {
                iterations: config.iterations,
                exploration: config.exploration,
                horizon: config.horizon,
                deadline,
            };
            let (wins, visits, done) =
                super::tree::search(&roots, me, &policies, limits, world, &mut rng);
            (
                wins,
                visits,
                Vec::new(),
                (done, config.iterations, "iterations"),
            )
        } else {
            let mut wins = vec![0.0; roots.len()];
            let mut lengths = vec![0usize; roots.len()];
            let mut done = 0;
            while done < config.worlds {
                if done > 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                    break;
                }
                done += 1;
                let world = world(&mut self.rng);
                let seed: u64 = self.rng.random();
                let ruled = rule
                    .as_ref()
                    .and_then(|k| k.draw(&world, me, &mut self.rng));
                for (i, (r, keep)) in roots.iter().enumerate() {
                    let mut rng = ChaCha8Rng::seed_from_u64(seed);
                    let (mut s, mut seat) = match &ruled {
                        Some((w, seat)) => (*w, Some(seat.clone())),
                        None => (world, None),
                    };
                    let new_line = RuleSeat::starts_line(&s);
                    let end = s.apply(*r, keep.as_deref(), &mut rng);
                    let v = match (end, seat.as_mut()) {
                        (Some(end), _) => end.reward(me),
                        (None, Some(seat)) => {
                            seat.after(new_line, *r);
                            let (h, start) = (config.known_horizon, s.calls);
                            let mine = &habits[me];
                            rule_playout(&mut s, me, mine, seat, h, config, start, &mut rng)
                        }
                        (None, None) => {
                            let start = s.calls;
                            playout(&mut s, me, &habits, config, start, &mut rng)
                        }
                    };
                    wins[i] += v;
                    lengths[i] += s.calls - world.calls;
                }
            }
            (
                wins,
                vec![done; roots.len()],
                lengths,
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
            .map(|(i, ((answer, keep), (wins, worlds)))| {
                let choice = Choice {
                    answer,
                    keep,
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
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// My rollout (seat 0: two cards, 8 coins) cut at once, `line` being the
    /// turn so far with seat 1 to answer it at call 1, under `quiescence`:
    /// its value and the calls made when it was cut.
    fn cut(line: &[char], quiescence: usize) -> (f64, usize) {
        let config = SearchConfig {
            horizon: 1,
            quiescence,
            ..SearchConfig::default()
        };
        let hands = [
            Cards::from_slice(&[Duke, Contessa]),
            Cards::from_slice(&[Captain, Assassin]),
        ];
        let deck = Cards::from_slice(&[Ambassador; 5]);
        let mut s = State::from_parts([8, 2], hands, deck, line, 1);
        let habits = [Habits::mine(&config); 2];
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let v = playout(&mut s, 0, &habits, &config, 0, &mut rng);
        (v, s.calls)
    }

    #[test]
    fn quiescence_cuts_a_rollout_only_between_turns() {
        let c = SearchConfig::default();
        assert_eq!((c.quiescence, c.arm(1).quiescence), (8, 0));
        let [_, [two_vs_one, two_vs_two]] = c.card_value;
        let close = |(x, calls): (f64, usize), want: f64, at: usize| {
            assert!(
                (x - want).abs() < 1e-12 && calls == at,
                "{x} at call {calls} against {want} at {at}"
            );
        };
        // Cut right after my Coup: two cards each, 6 coins ahead, as if it
        // had not been made.
        close(cut(&['C'], 0), two_vs_two + 6.0 * c.coin_value, 1);
        // Cut between turns: its card given up (my 7 coins paid), my turn
        // ended, its turn to come: two cards against one, 1 coin behind.
        close(cut(&['C'], 8), two_vs_one - c.coin_value, 3);
        // The extension is capped: one call past the horizon, mid-turn.
        close(cut(&['C'], 1), two_vs_one - c.coin_value, 2);
        // A turn's start is cut at once.
        close(cut(&['I', '\n'], 8), two_vs_two + 6.0 * c.coin_value, 1);
    }
}
