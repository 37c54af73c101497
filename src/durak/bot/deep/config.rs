//! The deep search's settings ([`DeepConfig`]), a leaf of [`super`]: the flat search, the
//! trees and the evaluation all read them.

use crate::durak::bot::strategy::HeuristicParams;
use crate::durak::bot::tracker::{Beliefs, Summary};
use crate::durak::protocol::Command;

/// Settings of the deep search; every field is a cap or a share with a stated meaning.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct DeepConfig {
    /// Share of the game's time budget (2 s + 0.1 s x rounds started) the work caps aim to
    /// spend, assuming [`DeepConfig::units_per_second`].
    pub budget_share: f64,
    /// Work units (playout steps + solver nodes) this machine runs per second, taken low so a
    /// loaded machine stays inside [`DeepConfig::budget_share`] of the budget (measured on the
    /// 2-core test machine: about 7 million per second alone, 2.5 to 3.5 million with a load
    /// of 4, under 2 million at a load of 6-7).
    pub units_per_second: f64,
    /// Share of the budget after which the wall-clock safety net cuts a decision short.
    pub hard_share: f64,
    /// Determinizations per decision at most (one byte per answer and determinization is kept
    /// for the rejection tests). At 400 this cap, not the work cap, ends most decisions (about
    /// 5% of the budget spent on a quiet machine). Raising it so the work cap binds
    /// (`max_samples=100000,root_cards=16,exact_cards=12,root_nodes=200000,leaf_nodes=20000,
    /// reject_z=3`, share 0.2 at 4e6 units/s) was measured no stronger, referee.py, seed 9001,
    /// 1000 games each: 59.4% against 60.8% vs `bot_smart.py`, 77.5% against 80.1% vs
    /// `bot_greedy.py`, while spending 4 times the work and reaching the wall-clock net on a
    /// loaded machine.
    pub max_samples: usize,
    /// Determinizations per decision at least, when the work cap allows one per answer.
    pub min_samples: usize,
    /// Node cap of one root answer's exact solve (talon empty at the decision).
    pub root_nodes: u64,
    /// Solve a decision's positions exactly when the talon is empty and at most this many
    /// cards are in the hands and on the table (larger endgames rarely finish within
    /// [`DeepConfig::root_nodes`]: measured, 16-19 cards need a median 55,000 nodes; and
    /// solving them scored worse against `bot_smart.py`: root_cards 24 with exact_cards 14
    /// won 50-54% of 200 games where 16 and 12 won 60-66%, as perfect-information values of
    /// large endgames assume opponents who see every card).
    pub root_cards: usize,
    /// Playouts stop for an exact solve once the talon is empty and at most this many cards
    /// are in play (12-15 cards: a median 2,500 nodes).
    pub exact_cards: usize,
    /// Node cap of the exact solve that ends a playout when the talon runs out.
    pub leaf_nodes: u64,
    /// Own team's playout policy.
    pub heuristic: HeuristicParams,
    /// An alternative model of the opponents in playouts...
    pub opponent: HeuristicParams,
    /// ...used in this share of the determinizations: a hedge over unknown opponents.
    pub opponent_mix: f64,
    /// Successive rejection: after `min_samples`, then at every doubling of the
    /// determinizations, an answer whose mean score trails the leader's by more than this many
    /// standard errors (paired on the same determinizations) is no longer evaluated, so the
    /// work goes to the answers still in contention; the decision ends when one is left.
    /// 0 turns it off (the default: with the 400-sample cap it was not measured at scale).
    /// 3 keeps a false rejection of an equal answer near 0.1% per test.
    pub reject_z: f64,
    /// The heuristic's answer (the playout policy's own choice) is kept unless another answer
    /// scores this many standard errors above it on the same determinizations (a one-sided
    /// paired test; 1.645 = 5% false switches when the answers are equal): a prior for the
    /// rule-based answer where the samples cannot tell the answers apart (early in the game
    /// most answers differ by less than the sampling error, and the argmax of noisy scores
    /// then picks at random). Measured against `bot_smart.py` under `referee.py`, seed 777,
    /// 400 deals = 800 games: off 61.3%, 1.5 69.2%, 1.645 67.4%, 3 65.2%; with 1.645 and
    /// 1600 determinizations 64.6%. 0 turns it off.
    pub keep_z: f64,
    /// What the determinizations assume about the hidden cards beyond the facts.
    pub beliefs: Beliefs,
    /// The search over information sets: 0 the flat search (every answer scored by one
    /// playout and solve per determinization: after the answer, everybody plays as if the
    /// determinization's cards were seen); 1 the same paired root, but each answer's
    /// evaluation is an iteration of single-observer ISMCTS in a tree below it, where our
    /// team's later decisions choose by UCB1 over statistics shared by every determinization
    /// that reached them, so a later choice cannot depend on cards the bot does not see
    /// (strategy fusion); 2 single-observer ISMCTS from the root, UCB1 choosing our answer too
    /// (at most [`DeepConfig::max_samples`] x answers iterations, the flat search's number of
    /// evaluations; the most visited answer is played, subject to [`DeepConfig::keep_z`] as
    /// an unpaired test). Trees follow the answers from the root, opponents' included (with
    /// [`DeepConfig::tree_opp`] off they answer by the playout policy), and add one node per
    /// iteration, whose position is evaluated like the flat search's answers.
    ///
    /// Measured (`durak-bot` seed 1, tournament seed 777, duplicate deals, 800 games each),
    /// flat / 1: 85.2% / 89.4% vs `inproc:greedy` and 60.8% / 72.4% vs `inproc:search` under
    /// `durak-server`, 66.6% / 73.8% vs `bot_smart.py` under `referee.py`; at seed 9001
    /// 87.2% / 90.1% vs greedy; 1 against flat, 400 games: 56.8%. In 400 games vs
    /// greedy, 2 scored 87.5% and 1 scored 91.5% (both with [`DeepConfig::tree_opp`] 0).
    /// Trees cost 1.5 to 2 times the flat search's thinking time (more work per decision,
    /// and a tree step costs more than a playout step).
    pub tree: u8,
    /// UCB1's exploration constant in the trees (scores scaled to 0..1). Measured vs
    /// `inproc:greedy`, 400 games, seed 777: 0.4 89.8%, 0.7 91.5%, 1.2 90.2% (within noise).
    pub ucb_c: f64,
    /// Which opponents' decisions in the trees choose by UCB1 for their team (SO-ISMCTS proper)
    /// instead of following the playout policy: 0 none; 1 both; 2 (the default) each opponent
    /// once he has been seen breaking the play beliefs ([`Tracker::broke`]), which a player who
    /// keeps to the heuristic's rules never does. The playout policy predicts a rule-bound
    /// player, and the search gains by the mistakes it foresees; against a player who
    /// searches, the same trees plan on mistakes he does not make.
    ///
    /// Measured (twenty-eighth session; `referee.py`, 500 duplicate deals = 1,000 games per
    /// row, `--jobs 2`, 0 illegal answers, timeouts or crashes, paired by deal): against
    /// `bot_smart.py`, 2 won 76.5% of 4,000 games at seeds 9001, 4242, 1 and 5001 (77.9%,
    /// 76.6%, 74.5%, 77.1%), where 0 won 74.8% (74.5%, 75.5%, 72.8%, 76.5%): +1.7 +- 1.6
    /// points. 1 won 79.0% and 75.1% at seeds 9001 and 4242. Against `bot_greedy.py` 2 plays
    /// game for game as 0 does (90.3% at seed 9001), because the greedy player never breaks
    /// the beliefs. 1 wins 86.0% against the in-process greedy player (0: 91.5%, seed 9001,
    /// 1,000 games), and all of that loss lies once the talon is empty. In 400 games at seed
    /// 777 against the greedy player, tree 2 with 1 scored 85.2% and tree 1 with 1 87.2%.
    ///
    /// [`Tracker::broke`]: crate::durak::tracker::Tracker::broke
    pub tree_opp: u8,
    /// Decisions that choose by UCB1 on one path of a tree at most; below, the playout
    /// evaluates. Measured vs `inproc:greedy`, 400 games, seed 777: 1 89.2%, 3 92.5%, 64 (no
    /// cap in practice) 91.5% (within noise; and 800 determinizations instead of 400:
    /// 91.8%).
    pub tree_depth: usize,
    /// The clairvoyant bound, for measurement only (never the contest bot's setting): 0 off;
    /// 1 every determinization is the true deal with the talon's order shuffled (the search
    /// sees every hand); 2 the true deal itself (it sees the talon's order too, so the game
    /// is one of perfect information). The true state comes from the referee in-process
    /// ([`Player::reveal`](crate::durak::referee::Player::reveal)); a bot that is not shown it
    /// searches as usual. The search, its caps and its work budget are unchanged.
    pub clairvoyant: u8,
    /// Phases where [`DeepConfig::clairvoyant`] applies, a bit mask of [`phase_bit`]: 1 talon
    /// over 6 cards, 2 talon of 1 to 6 cards, 4 talon empty (7: always). Elsewhere the bot
    /// searches from what it sees.
    pub clairvoyant_phases: u8,
    /// Commands where [`DeepConfig::clairvoyant`] applies, a bit mask of [`command_bit`]: 1
    /// `MOVE` (leads and the attacker's throw-ins), 2 `BEAT`, 4 `ADD` (7: always). With
    /// [`DeepConfig::clairvoyant_phases`] both must hold.
    pub clairvoyant_commands: u8,
    /// Whose hands [`DeepConfig::clairvoyant`] shows, a bit mask of players numbered from the
    /// bot (bit 1: the next player, an opponent; bit 2: the partner; bit 3: the other
    /// opponent; [`EVERY_HAND`], all three, the default). With fewer than all three, each
    /// determinization deals the shown hands as they are and the others from the bot's beliefs
    /// (the shown cards taken out of them), the talon's order unknown whatever `clairvoyant`
    /// says: 4 measures what the partner's hand is worth, 10 the opponents'.
    pub clairvoyant_players: u8,
    /// A summary of the partner's hand the bot is told at each decision where
    /// [`DeepConfig::clairvoyant`] applies, [`Summary`] by number (0, the default: none): each
    /// determinization is drawn again (up to [`crate::durak::tracker::SUMMARY_DRAWS`] times) until the partner's
    /// dealt hand has the true summary. With `clairvoyant_players=0` it bounds what a signal
    /// between the partners could carry (docs/durak.md, "What a signal between the partners
    /// could carry at most").
    pub clairvoyant_summary: u8,
    /// Phases (same bits) where the bot answers with its heuristic alone, without searching:
    /// with [`DeepConfig::clairvoyant_phases`] it splits the distance from the heuristic to
    /// the ceiling by phase. 0 (the default): search in every phase.
    pub heuristic_phases: u8,
}

/// The phase bit of a decision with `talon` cards left in the talon (see
/// [`DeepConfig::clairvoyant_phases`]): 1 over 6 cards, 2 one to 6, 4 none.
pub fn phase_bit(talon: usize) -> u8 {
    match talon {
        0 => 4,
        1..=6 => 2,
        _ => 1,
    }
}

/// [`DeepConfig::clairvoyant_players`] showing every other player's hand (bits 1, 2 and 3).
pub const EVERY_HAND: u8 = 14;

/// The command bit of a decision (see [`DeepConfig::clairvoyant_commands`]): 1 `MOVE`, 2
/// `BEAT`, 4 `ADD`.
pub fn command_bit(cmd: Command) -> u8 {
    match cmd {
        Command::Move => 1,
        Command::Beat => 2,
        Command::Add => 4,
    }
}

impl Default for DeepConfig {
    fn default() -> DeepConfig {
        DeepConfig {
            budget_share: 0.25,
            units_per_second: 1.6e6,
            hard_share: 0.3,
            max_samples: 400,
            min_samples: 8,
            root_nodes: 60_000,
            root_cards: 12,
            exact_cards: 8,
            leaf_nodes: 5_000,
            heuristic: HeuristicParams::default(),
            opponent: HeuristicParams::plain(),
            opponent_mix: 0.5,
            reject_z: 0.0,
            keep_z: 1.645,
            beliefs: Beliefs {
                play: true,
                bottom_trump: 0.0,
                partner: false,
                uniform: false,
                leads: false,
                mixing: 0,
                doubt: 0.0,
            },
            tree: 1,
            ucb_c: 0.7,
            tree_opp: 2,
            tree_depth: 64,
            clairvoyant: 0,
            clairvoyant_phases: 7,
            clairvoyant_commands: 7,
            clairvoyant_players: EVERY_HAND,
            clairvoyant_summary: 0,
            heuristic_phases: 0,
        }
    }
}

impl DeepConfig {
    /// Reads `key=value` pairs separated by commas over the defaults (keys: the field names
    /// other than the heuristics'; `own.<knob>` and `opp.<knob>` set a knob of
    /// [`DeepConfig::heuristic`] and [`DeepConfig::opponent`], see [`HeuristicParams::set`]).
    ///
    /// # Errors
    /// A message naming the first unknown key or bad number.
    pub fn parse(text: &str) -> Result<DeepConfig, String> {
        let mut c = DeepConfig::default();
        for item in text.split(',').filter(|s| !s.is_empty()) {
            let (k, v) = item
                .split_once('=')
                .ok_or_else(|| format!("expected key=value, got {item:?}"))?;
            let x: f64 = v.parse().map_err(|_| format!("bad number in {item:?}"))?;
            if !(x >= 0.0 && x.is_finite()) {
                return Err(format!("out of range: {item:?}"));
            }
            match k {
                "budget_share" => c.budget_share = x,
                "units_per_second" => c.units_per_second = x,
                "hard_share" => c.hard_share = x,
                "max_samples" => c.max_samples = x as usize,
                "min_samples" => c.min_samples = x as usize,
                "root_nodes" => c.root_nodes = x as u64,
                "root_cards" => c.root_cards = x as usize,
                "exact_cards" => c.exact_cards = x as usize,
                "leaf_nodes" => c.leaf_nodes = x as u64,
                "opponent_mix" => c.opponent_mix = x.min(1.0),
                "reject_z" => c.reject_z = x,
                "keep_z" => c.keep_z = x,
                "play_beliefs" => c.beliefs.play = x != 0.0,
                "bottom_trump" => c.beliefs.bottom_trump = x.min(1.0),
                "partner_beliefs" => c.beliefs.partner = x != 0.0,
                "uniform_deal" => c.beliefs.uniform = x != 0.0,
                "read_leads" => c.beliefs.leads = x != 0.0,
                "mixing" => c.beliefs.mixing = x.clamp(0.0, 1e6) as usize,
                "doubt" => c.beliefs.doubt = x.clamp(0.0, 1.0),
                "tree" => {
                    if x > 2.0 {
                        return Err(format!("tree is 0, 1 or 2: {item:?}"));
                    }
                    c.tree = x as u8;
                }
                "ucb_c" => c.ucb_c = x,
                "tree_opp" => {
                    if x > 2.0 {
                        return Err(format!("tree_opp is 0, 1 or 2: {item:?}"));
                    }
                    c.tree_opp = x as u8;
                }
                "tree_depth" => c.tree_depth = x as usize,
                "clairvoyant" => {
                    if x > 2.0 {
                        return Err(format!("clairvoyant is 0, 1 or 2: {item:?}"));
                    }
                    c.clairvoyant = x as u8;
                }
                "clairvoyant_phases" => c.clairvoyant_phases = (x as u8) & 7,
                "clairvoyant_commands" => c.clairvoyant_commands = (x as u8) & 7,
                "clairvoyant_players" => c.clairvoyant_players = (x as u8) & EVERY_HAND,
                "clairvoyant_summary" => {
                    if Summary::from_number(x as u8).is_none() && x != 0.0 {
                        return Err(format!("clairvoyant_summary is 0 to 8: {item:?}"));
                    }
                    c.clairvoyant_summary = x as u8;
                }
                "heuristic_phases" => c.heuristic_phases = (x as u8) & 7,
                _ => match (k.strip_prefix("own."), k.strip_prefix("opp.")) {
                    (Some(knob), _) => c.heuristic.set(knob, x as i64)?,
                    (_, Some(knob)) => c.opponent.set(knob, x as i64)?,
                    _ => return Err(format!("unknown deep search parameter {k:?}")),
                },
            }
        }
        Ok(c)
    }
}
