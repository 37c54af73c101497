//! Per-opponent memory across games: a small text file in the bot's working
//! directory (the arbiter runs each bot in its own folder and keeps it across
//! games, `docs/rules/coup.md` §4).
//!
//! The arbiter names the history file `<first>_<second>_<round>_<game>.txt`
//! and runs a bot in `<botdir>/<its name>`, so [`opponent_name`] finds the
//! opponent from the file name and the working folder's name. For each
//! opponent the file keeps the counts ([`Stats`]) of its last
//! [`RECENT`] games, each under its game's file name, and the sum of older
//! ones. Every call replaces the entry of its own game by this game's counts,
//! so two games played at once never count each other twice, and the model
//! uses everything except its own game (which it reads from the history).
//!
//! For the portfolio ([`crate::coup::bot::SearchConfig::portfolio`]) the
//! entry also keeps which strategy (arm) each recent game was played with
//! and, once a game's finished history shows who lost both cards, the arms'
//! wins and games against this opponent, and the arm of a new game is
//! picked by the opponent's type ([`Entry::choose_typed_arm`], the default)
//! or by satisficing Thompson sampling from those counts
//! ([`Entry::choose_arm`]).
//! A settled game's counts are then re-read from its finished history
//! ([`GameResult::stats`]): a bot's last call comes before the last card
//! of a game it wins is shown, and that card settles the loser's claims.
//! The card counts each settled game reached give learnt card values
//! ([`Entry::card_values`]).
//!
//! Safety: the file is written to a temporary file and renamed over the old
//! one (atomic on POSIX), holds at most [`MAX_OPPONENTS`] opponents with
//! counts capped at [`CAP`] trials each, and is ignored when missing,
//! unreadable, too large or malformed (a malformed line is dropped alone).
//! Concurrent writers may lose one another's latest update, never corrupt
//! the file.

use std::collections::BTreeMap;
use std::path::Path;

use rand::RngExt;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rand_distr::{Beta, Distribution};

use super::fnv;
use super::opponent::{kind_index, Stats};
use crate::coup::game::history::{History, Side};
use crate::coup::game::protocol::Reply;
pub use crate::coup::game::protocol::CLAIM_KINDS;

/// The name of the entry that keeps my own answers to `opponent`, as it
/// saw them ([`Stats::mine_seen`]): the opponent's name and `#me` (an opponent
/// whose own name ends so would share it). Kept only while
/// [`crate::coup::SearchConfig::mind`] is on, which reads it as what an
/// adaptive opponent has learnt of me.
pub fn mine_key(opponent: &str) -> String {
    format!("{opponent}#me")
}

/// The memory file's name in the bot's working directory.
pub const FILE_NAME: &str = "coup-memory.txt";
/// First line of the file (format version).
pub const HEADER: &str = "coup-memory v14";
/// The previous format's header (read as well: the same fields, its
/// counts without [`crate::coup::bot::opponent::Stats::replica`]).
pub const HEADER_V13: &str = "coup-memory v13";
/// The previous format's header (read as well: the same fields, its
/// counts without [`crate::coup::bot::opponent::Stats::challenged_race`]).
pub const HEADER_V12: &str = "coup-memory v12";
/// The previous format's header (read as well: its lines have no
/// calibration by claim kind, [`Entry::kind_calibration`]).
pub const HEADER_V11: &str = "coup-memory v11";
/// The previous format's header (read as well: its lines have no
/// calibration of my challenges, [`Entry::calibration`]).
pub const HEADER_V10: &str = "coup-memory v10";
/// The previous format's header (read as well: its lines have no card
/// counts reached, [`Entry::positions`]).
pub const HEADER_V9: &str = "coup-memory v9";
/// The format before (read as well: its lines have no arms).
pub const HEADER_V8: &str = "coup-memory v8";
/// Strategies the portfolio chooses between
/// ([`crate::coup::bot::SearchConfig::arm`]).
pub const ARMS: usize = 2;
/// The win rate at which the portfolio keeps the first arm that reaches it
/// rather than look for a better one ([`Entry::choose_arm`]): winning more
/// games than it loses (satisficing: Russo and Van Roy, "Satisficing in
/// time-sensitive bandit learning", 2022). Arm 0, the default, won more
/// than half of its games against every opponent measured but Seer, so
/// an opponent it beats costs no exploration.
pub const ASPIRATION: f64 = 0.5;
/// Bins of [`Entry::calibration`]: the log-odds of a predicted bluff
/// probability, clamped to [-[`LOGIT_RANGE`], [`LOGIT_RANGE`]], in bins
/// of 0.5.
pub const CALIBRATION_BINS: usize = 16;
/// The log-odds range of [`Entry::calibration`]'s bins.
pub const LOGIT_RANGE: f64 = 4.0;
/// The width of [`Entry::calibration`]'s bins in log-odds.
const BIN_WIDTH: f64 = 2.0 * LOGIT_RANGE / CALIBRATION_BINS as f64;

/// The bin of [`Entry::calibration`] of a predicted probability `p`.
fn calibration_bin(p: f64) -> usize {
    let logit = (p / (1.0 - p)).ln().clamp(-LOGIT_RANGE, LOGIT_RANGE);
    (((logit + LOGIT_RANGE) / BIN_WIDTH) as usize).min(CALIBRATION_BINS - 1)
}

/// The maximum a posteriori offset `a` of a logistic calibration with
/// slope 1 over calibration bins `[bluffs, challenges]`: each bin's
/// bluffs are Binomial with the probability `sigma(centre + base + a)`, the
/// bin's log-odds centre plus a known offset `base`, and `a` has a normal
/// prior N(0, `sd`²) (Newton's method on the concave log posterior). 0
/// without evidence.
fn map_offset(bins: &[[u32; 2]; CALIBRATION_BINS], base: f64, sd: f64) -> f64 {
    let centre = |b: usize| -LOGIT_RANGE + BIN_WIDTH * (b as f64 + 0.5);
    let mut a = 0.0;
    for _ in 0..30 {
        let (mut grad, mut curv) = (-a / sd.powi(2), 1.0 / sd.powi(2));
        for (b, &[bluffs, n]) in bins.iter().enumerate() {
            let q = 1.0 / (1.0 + (-(centre(b) + base + a)).exp());
            grad += f64::from(bluffs) - f64::from(n) * q;
            curv += f64::from(n) * q * (1.0 - q);
        }
        let step = grad / curv;
        a += step;
        if step.abs() < 1e-9 {
            break;
        }
    }
    a
}
/// The prior standard deviation of a claim kind's log-odds offset around
/// the opponent's overall one ([`Entry::kind_odds_factors`]): a kind's
/// bluffs may be off by another factor of `e` either way.
pub const KIND_PRIOR_SD: f64 = 1.0;
/// Predictions kept for the pending games ([`Entry::challenges`]).
pub const MAX_CHALLENGES: usize = 64;
/// The prior standard deviation of [`Entry::odds_factor`]'s log: before
/// any evidence the model's bluff odds may be off by a factor of `e`
/// either way (a log-odds offset of 1).
pub const ODDS_PRIOR_SD: f64 = 1.0;
/// Games kept separately per opponent before they are summed.
pub const RECENT: usize = 4;
/// Opponents kept (the least recently seen are dropped).
pub const MAX_OPPONENTS: usize = 64;
/// Trials per counter kept in the old games' sum ([`Stats::capped`]).
pub const CAP: u32 = 200;
/// Files larger than this are ignored (and replaced).
pub const MAX_BYTES: u64 = 1 << 20;

/// What is remembered of one opponent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// Write counter of the last update (for dropping the least recent).
    pub stamp: u64,
    /// Older games, summed and capped.
    pub old: Stats,
    /// The last games, by history file name, oldest first.
    pub recent: Vec<(String, Stats)>,
    /// Settled games of each arm against this opponent: `[won, played]`.
    pub outcomes: [[u32; 2]; ARMS],
    /// Games whose arm is chosen and whose end has not been read yet
    /// (history file name, arm), oldest first, at most [`RECENT`].
    pub pending: Vec<(String, usize)>,
    /// Settled games by the card counts they reached, from my side:
    /// `[my cards - 1][its cards - 1]` = `[won, reached]` (each count once
    /// per game; [`Entry::card_values`]).
    pub positions: [[[u32; 2]; 2]; 2],
    /// My challenges of its claims in settled games, by the model's
    /// predicted probability that the claim was a bluff (the log-odds in
    /// [`CALIBRATION_BINS`] bins): `[bluffs, challenges]`
    /// ([`Entry::odds_factor`]).
    pub calibration: [[u32; 2]; CALIBRATION_BINS],
    /// [`Entry::calibration`] by the kind of the claim challenged (the
    /// order of [`CLAIM_KINDS`]; [`Entry::kind_odds_factors`]).
    pub kind_calibration: [[[u32; 2]; CALIBRATION_BINS]; CLAIM_KINDS.len()],
    /// Predictions of my challenges in pending games whose outcome is read
    /// when the game is settled: (history file name, turn line, predicted
    /// probability that the claim is a bluff in ten-thousandths), at most
    /// [`MAX_CHALLENGES`].
    pub challenges: Vec<(String, usize, u16)>,
}

impl Entry {
    /// Everything known of this opponent except the game `game`.
    pub fn excluding(&self, game: &str) -> Stats {
        let mut s = self.old;
        for (g, st) in &self.recent {
            if g != game {
                s.add(st);
            }
        }
        s
    }

    /// Records this game's counts under its name; the oldest recent game
    /// beyond [`RECENT`] goes into the capped sum.
    pub fn update(&mut self, game: &str, stats: Stats, stamp: u64) {
        self.stamp = stamp;
        if let Some(e) = self.recent.iter_mut().find(|(g, _)| g == game) {
            e.1 = stats;
            return;
        }
        self.recent.push((game.to_string(), stats));
        while self.recent.len() > RECENT {
            let (_, st) = self.recent.remove(0);
            self.old.add(&st);
            self.old = self.old.capped(CAP);
        }
    }

    /// The arm game `game` is played with: the one chosen at its first
    /// call, else arm 0 against an opponent with no settled game (the
    /// configured strategy until there is evidence), else a new choice by
    /// satisficing Thompson sampling: each arm's win rate is drawn from its
    /// Beta(1 + won, 1 + lost) posterior (a uniform prior), and the first
    /// arm in order whose draw reaches [`ASPIRATION`] plays, or, when none
    /// does, the arm of the highest draw. Recorded as pending. The draws
    /// are seeded by the game's name, so the same memory and game give the
    /// same arm.
    pub fn choose_arm(&mut self, game: &str) -> usize {
        if let Some((_, arm)) = self.pending.iter().find(|(g, _)| g == game) {
            return *arm;
        }
        let mut rng = ChaCha8Rng::seed_from_u64(fnv(game.as_bytes()));
        let draws: Vec<f64> = self
            .outcomes
            .iter()
            .map(|&[won, played]| {
                let lost = played.saturating_sub(won);
                Beta::new(1.0 + f64::from(won), 1.0 + f64::from(lost))
                    .map(|b| b.sample(&mut rng))
                    .unwrap_or_else(|_| rng.random::<f64>())
            })
            .collect();
        let highest = (0..ARMS).fold(0, |b, a| if draws[a] > draws[b] { a } else { b });
        let arm = if self.outcomes.iter().all(|o| o[1] == 0) {
            0
        } else {
            (0..ARMS)
                .find(|&a| draws[a] >= ASPIRATION)
                .unwrap_or(highest)
        };
        self.track(game, arm);
        arm
    }

    /// The arm game `game` is played with when the portfolio chooses by the
    /// opponent's type ([`crate::coup::bot::SearchConfig::typed_arms`]): the
    /// one chosen at its first call, else arm 1 once the opponent, in the
    /// games `past` counts ([`Stats::block_answers`], pooled over the
    /// kinds of block, this game excluded: [`Entry::excluding`]), has both
    /// challenged one of my blocks and let one stand, else arm 0. The two
    /// deterministic answers to blocks are the fixed-rule types
    /// ([`crate::coup::bot::opponent::mixture_rate`] weighs the same two):
    /// challenging every one, as the contest winner does, and challenging
    /// none, as a player does that challenges only a claim it can rule out;
    /// arm 0's long playouts predict such players. A mixed answer rules
    /// both out for good. With `attacks`
    /// ([`crate::coup::bot::SearchConfig::typed_arms`] 2), so does a Steal
    /// or an Assassination of its that the history proved a bluff
    /// ([`Stats::attack_bluffs`]) while it has let stand every block of
    /// mine it answered, at least one: a player that attacks without the
    /// card and never challenges a block is neither type. Both conditions
    /// only grow into the mixed answer, so the arm never goes back to 0 (an
    /// opponent not yet seen answering a block could, and a policy that
    /// changes between games is what Seer exploits). Recorded as pending,
    /// so the arms' results are kept as [`Entry::choose_arm`]'s are.
    pub fn choose_typed_arm(&mut self, game: &str, past: &Stats, attacks: bool) -> usize {
        if let Some((_, arm)) = self.pending.iter().find(|(g, _)| g == game) {
            return *arm;
        }
        let [blocks, challenged] = past.block_answers();
        let mixed = challenged > 0 && challenged < blocks;
        let attacker = attacks && blocks > 0 && challenged == 0 && past.attack_bluffs()[1] > 0;
        let arm = usize::from(mixed || attacker);
        self.track(game, arm);
        arm
    }

    /// Records game `game` as pending with arm `arm` (once; the oldest
    /// pending game beyond [`RECENT`] is forgotten), so that its result is
    /// read when it has ended ([`Entry::settle`]).
    pub fn track(&mut self, game: &str, arm: usize) {
        if !pending_name(game) || arm >= ARMS || self.pending.iter().any(|(g, _)| g == game) {
            return;
        }
        self.pending.push((game.to_string(), arm));
        if self.pending.len() > RECENT {
            self.pending.remove(0);
            let pending = &self.pending;
            self.challenges
                .retain(|(g, _, _)| pending.iter().any(|(p, _)| p == g));
        }
    }

    /// Records that I challenged a claim on turn line `line` of the pending
    /// game `game` with the model's probability `p` that it is a bluff
    /// (once per line; the outcome is read when the game is settled,
    /// [`Entry::settle`]). `false` (nothing changed) when the game is not
    /// pending, the line is known or [`MAX_CHALLENGES`] are kept.
    pub fn note_challenge(&mut self, game: &str, line: usize, p: f64) -> bool {
        let known = self
            .challenges
            .iter()
            .any(|(g, l, _)| g == game && *l == line);
        if known
            || !p.is_finite()
            || self.challenges.len() >= MAX_CHALLENGES
            || !self.pending.iter().any(|(g, _)| g == game)
        {
            return false;
        }
        let p = (p.clamp(0.0, 1.0) * 1e4).round() as u16;
        self.challenges.push((game.to_string(), line, p));
        true
    }

    /// The factor on the model's bluff odds that its predictions at my
    /// challenges of this opponent's claims call for: `e^a`, where `a` is
    /// the maximum a posteriori log-odds offset of a logistic calibration
    /// with slope 1 (the observed bluffs of each bin against the model's
    /// log-odds at the bin's centre plus `a`), under a normal prior of
    /// standard deviation [`ODDS_PRIOR_SD`]. 1 without evidence. A
    /// challenge is chosen on what I see, so given the prediction the
    /// challenged claims are a fair sample of its claims.
    pub fn odds_factor(&self) -> f64 {
        map_offset(&self.calibration, 0.0, ODDS_PRIOR_SD).exp()
    }

    /// The bluff odds factor of each claim kind (the order of
    /// [`CLAIM_KINDS`]): `e^(a + b)`, `a` the opponent's overall offset
    /// ([`Entry::odds_factor`]) and `b` the kind's maximum a posteriori
    /// offset on top of it from its own bins ([`Entry::kind_calibration`]),
    /// under a normal prior of standard deviation [`KIND_PRIOR_SD`]. A kind
    /// without evidence takes the overall factor.
    pub fn kind_odds_factors(&self) -> [f64; CLAIM_KINDS.len()] {
        let a = self.odds_factor().ln();
        self.kind_calibration
            .each_ref()
            .map(|bins| (a + map_offset(bins, a, KIND_PRIOR_SD)).exp())
    }

    /// Counts the pending game `game` as won or lost by its arm, and the
    /// card counts it reached ([`Entry::positions`]), replaces its counts
    /// by those of the whole game while they are still among the recent
    /// ones ([`GameResult::stats`]), and drops it from the pending list;
    /// `false` (nothing changed) when it is not pending. Counts are capped
    /// at [`CAP`] games (halved), so an opponent that changes is followed.
    pub fn settle(&mut self, game: &str, result: &GameResult) -> bool {
        let Some(i) = self.pending.iter().position(|(g, _)| g == game) else {
            return false;
        };
        let (_, arm) = self.pending.remove(i);
        if let Some(e) = self.recent.iter_mut().find(|(g, _)| g == game) {
            // The finished history does not say whether the known rule
            // explained it (that needs my hands): keep the calls' verdict.
            let replica = e.1.replica;
            e.1 = result.stats;
            e.1.replica = replica;
        }
        let halve = |o: &mut [u32; 2]| {
            if o[1] > CAP {
                *o = [o[0] / 2, o[1] / 2];
            }
        };
        for &(line, kind, bluff) in &result.challenges {
            let predicted = self
                .challenges
                .iter()
                .find(|(g, l, _)| g == game && *l == line);
            if let Some(&(_, _, p)) = predicted {
                let bin = calibration_bin(f64::from(p) / 1e4);
                let kind =
                    kind_index(&CLAIM_KINDS, kind).map(|k| &mut self.kind_calibration[k][bin]);
                for c in std::iter::once(&mut self.calibration[bin]).chain(kind) {
                    c[0] += u32::from(bluff);
                    c[1] += 1;
                    halve(c);
                }
            }
        }
        self.challenges.retain(|(g, _, _)| g != game);
        let o = &mut self.outcomes[arm];
        o[0] += u32::from(result.won);
        o[1] += 1;
        halve(o);
        for (mine, row) in self.positions.iter_mut().enumerate() {
            for (its, p) in row.iter_mut().enumerate() {
                if result.reached[mine][its] {
                    p[0] += u32::from(result.won);
                    p[1] += 1;
                    halve(p);
                }
            }
        }
        true
    }

    /// My probability of winning from each card count against this
    /// opponent, `[my cards - 1][its cards - 1]`: the share of the settled
    /// games that reached it and were won, with `prior` (the configured
    /// values, [`crate::coup::bot::SearchConfig::card_value`]) worth
    /// `weight` games — the Beta posterior mean. What a card is worth
    /// depends on the opponent: a player that converts a card lead into a
    /// win leaves less to the one behind.
    pub fn card_values(&self, prior: [[f64; 2]; 2], weight: f64) -> [[f64; 2]; 2] {
        let mut v = prior;
        for (mine, row) in v.iter_mut().enumerate() {
            for (its, x) in row.iter_mut().enumerate() {
                let [won, reached] = self.positions[mine][its];
                *x = (weight * *x + f64::from(won)) / (weight + f64::from(reached));
            }
        }
        v
    }
}

/// A finished game read from one player's side ([`game_result`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// Whether that player won.
    pub won: bool,
    /// Whether the game passed through each card count between turns,
    /// `[its cards - 1][the other's cards - 1]`, its start (two each)
    /// included.
    pub reached: [[bool; 2]; 2],
    /// The other player's counts over the whole game
    /// ([`Stats::from_history`]): the cards shown after that player's last
    /// call included, which its last call could not see (the loser's last
    /// card, given up to the winner's last move, settles its claims).
    pub stats: Stats,
    /// That player's challenges of the other's claims, `(turn line, claim
    /// kind, bluff)` ([`History::my_challenges`]).
    pub challenges: Vec<(usize, Reply, bool)>,
}

/// The result of a finished history for its first player (`first`) or its
/// second: who won ([`History::loser`], with the double loss of
/// `docs/rules/coup.md` §2.2 rule 4), the card counts reached
/// ([`History::replay`]) and the other player's counts. `None` while both
/// hold a card (a game still running, a draw, a forfeit) or when the text
/// is not a history. The first player writes the first line
/// (`docs/rules/coup.md` §5.1).
pub fn game_result(text: &str, first: bool) -> Option<GameResult> {
    let h = History::parse_as(text, first).ok()?;
    let won = h.loser()? == Side::Opponent;
    let mut reached = [[false; 2]; 2];
    for (_, [mine, its]) in h.replay() {
        if (1..=2).contains(&mine) && (1..=2).contains(&its) {
            reached[mine - 1][its - 1] = true;
        }
    }
    Some(GameResult {
        won,
        reached,
        stats: Stats::from_history(&h),
        challenges: h.my_challenges(),
    })
}

/// The whole memory: opponents by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// Opponents by name.
    pub opponents: BTreeMap<String, Entry>,
}

/// Whether `name` may name an opponent or a game: not empty, at most 200
/// bytes, no whitespace, `|` or path separator (a game is a file beside
/// the current history, never a path elsewhere).
fn clean(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && !name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '|' | '/' | '\\'))
}

/// Whether `game` may stand in the pending list: [`clean`], and none of
/// the arms field's separators `=` and `;`.
fn pending_name(game: &str) -> bool {
    clean(game) && !game.contains(['=', ';'])
}

fn nums(s: &str) -> Option<Vec<u32>> {
    s.split(',').map(|x| x.parse().ok()).collect()
}

/// `N` pairs `won,total` from comma-separated counts (the arms' and the
/// positions' fields); `None` unless exactly `2 N` numbers with no pair
/// won more often than played.
fn won_pairs<const N: usize>(s: &str) -> Option<[[u32; 2]; N]> {
    let counts = nums(s)?;
    if counts.len() != 2 * N || counts.chunks(2).any(|c| c[0] > c[1]) {
        return None;
    }
    let mut pairs = [[0; 2]; N];
    for (p, c) in pairs.iter_mut().zip(counts.chunks(2)) {
        *p = [c[0], c[1]];
    }
    Some(pairs)
}

/// The comma-separated text of `won,total` pairs ([`won_pairs`]'s input).
fn pairs_text(pairs: &[[u32; 2]]) -> String {
    let counts: Vec<String> = pairs.iter().flatten().map(|x| x.to_string()).collect();
    counts.join(",")
}

impl Memory {
    /// Parses the file's text; malformed lines (or a wrong header: then
    /// everything) are ignored.
    pub fn parse(text: &str) -> Memory {
        let mut m = Memory::default();
        let mut lines = text.lines();
        // Each format's line has a fixed number of fields, so a line cut at
        // a field's end does not pass for an older format's.
        let fields = match lines.next() {
            Some(HEADER | HEADER_V13 | HEADER_V12) => 8,
            Some(HEADER_V11) => 7,
            Some(HEADER_V10) => 5,
            Some(HEADER_V9) => 4,
            Some(HEADER_V8) => 3,
            _ => return m,
        };
        for line in lines {
            if line.split(' ').count() != fields {
                continue;
            }
            if let Some((name, e)) = Self::parse_line(line) {
                m.opponents.insert(name, e);
            }
        }
        m
    }

    /// `name stamp old|game=counts|game=counts... arms positions`, where
    /// `arms` is `won,played,won,played;game=arm;game=arm...` (absent in v8
    /// files) and `positions` the `won,reached` pairs of
    /// [`Entry::positions`] in the order 1-1, 1-2, 2-1, 2-2 (absent in v9),
    /// then `calibration challenges` (absent in v10): the pairs of
    /// [`Entry::calibration`] and the predictions of [`Entry::challenges`]
    /// as `game@line@p;...` (`-` when there is none), then `kinds` (absent
    /// in v11): the non-empty bins of [`Entry::kind_calibration`] as
    /// `<kind><bin>=bluffs,challenges;...`, the kind its character of
    /// [`CLAIM_KINDS`] (`T8=3,10;c9=0,5`: Tax in bin 8, the Captain block
    /// in bin 9; `-` when there is none).
    fn parse_line(line: &str) -> Option<(String, Entry)> {
        let mut f = line.split(' ');
        let name = f.next()?.to_string();
        let stamp = f.next()?.parse().ok()?;
        let rest = f.next()?;
        let arms = f.next();
        let positions = match f.next() {
            Some(p) => Self::parse_positions(p)?,
            None => Default::default(),
        };
        let calibration = match f.next() {
            Some(c) => won_pairs::<CALIBRATION_BINS>(c)?,
            None => [[0; 2]; CALIBRATION_BINS],
        };
        let challenges = match f.next() {
            Some(c) => Self::parse_challenges(c)?,
            None => Vec::new(),
        };
        let kind_calibration = match f.next() {
            Some(k) => Self::parse_kinds(k)?,
            None => Default::default(),
        };
        if f.next().is_some() || !clean(&name) {
            return None;
        }
        let (outcomes, pending) = match arms {
            Some(a) => Self::parse_arms(a)?,
            None => Default::default(),
        };
        let mut parts = rest.split('|');
        let old = Stats::from_slice(&nums(parts.next()?)?)?;
        let mut recent = Vec::new();
        for p in parts {
            let (g, counts) = p.split_once('=')?;
            if !clean(g) || g.contains('=') {
                return None;
            }
            recent.push((g.to_string(), Stats::from_slice(&nums(counts)?)?));
        }
        if recent.len() > RECENT {
            return None;
        }
        Some((
            name,
            Entry {
                stamp,
                old,
                recent,
                outcomes,
                pending,
                positions,
                calibration,
                kind_calibration,
                challenges,
            },
        ))
    }

    /// The kinds field of a line (see [`Memory::parse_line`]).
    #[allow(clippy::type_complexity)]
    fn parse_kinds(k: &str) -> Option<[[[u32; 2]; CALIBRATION_BINS]; CLAIM_KINDS.len()]> {
        let mut out = [[[0; 2]; CALIBRATION_BINS]; CLAIM_KINDS.len()];
        if k == "-" {
            return Some(out);
        }
        for e in k.split(';') {
            let (kind, rest) = CLAIM_KINDS
                .iter()
                .enumerate()
                .find_map(|(i, k)| e.strip_prefix(k.text().as_str()).map(|rest| (i, rest)))?;
            let (bin, pair) = rest.split_once('=')?;
            let bin: usize = bin.parse().ok()?;
            let [pair] = won_pairs::<1>(pair)?;
            *out[kind].get_mut(bin)? = pair;
        }
        Some(out)
    }

    /// The challenges field of a line (see [`Memory::parse_line`]).
    fn parse_challenges(c: &str) -> Option<Vec<(String, usize, u16)>> {
        if c == "-" {
            return Some(Vec::new());
        }
        let mut out = Vec::new();
        for e in c.split(';') {
            let (rest, p) = e.rsplit_once('@')?;
            let (g, line) = rest.rsplit_once('@')?;
            let p: u16 = p.parse().ok()?;
            if !pending_name(g) || p > 10_000 {
                return None;
            }
            out.push((g.to_string(), line.parse().ok()?, p));
        }
        (out.len() <= MAX_CHALLENGES).then_some(out)
    }

    /// The positions field of a line (see [`Memory::parse_line`]).
    fn parse_positions(p: &str) -> Option<[[[u32; 2]; 2]; 2]> {
        let [a, b, c, d] = won_pairs::<4>(p)?;
        Some([[a, b], [c, d]])
    }

    /// The arms field of a line (see [`Memory::parse_line`]).
    #[allow(clippy::type_complexity)]
    fn parse_arms(a: &str) -> Option<([[u32; 2]; ARMS], Vec<(String, usize)>)> {
        let mut parts = a.split(';');
        let outcomes = won_pairs::<ARMS>(parts.next()?)?;
        let mut pending = Vec::new();
        for p in parts {
            let (g, arm) = p.rsplit_once('=')?;
            let arm: usize = arm.parse().ok()?;
            if !pending_name(g) || arm >= ARMS {
                return None;
            }
            pending.push((g.to_string(), arm));
        }
        (pending.len() <= RECENT).then_some((outcomes, pending))
    }

    /// The file's text.
    pub fn format(&self) -> String {
        let join = |s: &Stats| {
            s.to_vec()
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut out = format!("{HEADER}\n");
        for (name, e) in &self.opponents {
            out.push_str(&format!("{name} {} {}", e.stamp, join(&e.old)));
            for (g, s) in &e.recent {
                out.push_str(&format!("|{g}={}", join(s)));
            }
            out.push_str(&format!(" {}", pairs_text(&e.outcomes)));
            for (g, arm) in &e.pending {
                out.push_str(&format!(";{g}={arm}"));
            }
            out.push_str(&format!(" {}", pairs_text(e.positions.as_flattened())));
            out.push_str(&format!(" {}", pairs_text(&e.calibration)));
            let challenges: Vec<String> = e
                .challenges
                .iter()
                .map(|(g, line, p)| format!("{g}@{line}@{p}"))
                .collect();
            let kinds: Vec<String> = CLAIM_KINDS
                .iter()
                .zip(&e.kind_calibration)
                .flat_map(|(k, bins)| {
                    bins.iter()
                        .enumerate()
                        .filter(|(_, p)| p[1] > 0)
                        .map(move |(b, p)| format!("{k}{b}={}", pairs_text(&[*p])))
                })
                .collect();
            for field in [challenges, kinds] {
                if field.is_empty() {
                    out.push_str(" -");
                } else {
                    out.push_str(&format!(" {}", field.join(";")));
                }
            }
            out.push('\n');
        }
        out
    }

    /// Reads `dir/coup-memory.txt`; empty when missing, unreadable, larger
    /// than [`MAX_BYTES`] or malformed.
    pub fn load(dir: &Path) -> Memory {
        let path = dir.join(FILE_NAME);
        match std::fs::metadata(&path) {
            Ok(md) if md.len() <= MAX_BYTES => {}
            _ => return Memory::default(),
        }
        match std::fs::read(&path) {
            Ok(bytes) => Memory::parse(&String::from_utf8_lossy(&bytes)),
            Err(_) => Memory::default(),
        }
    }

    /// Records `stats` of game `game` against `opponent` and keeps at most
    /// [`MAX_OPPONENTS`] opponents.
    pub fn record(&mut self, opponent: &str, game: &str, stats: Stats) {
        if !clean(opponent) || !clean(game) || game.contains('=') {
            return;
        }
        let stamp = self.opponents.values().map(|e| e.stamp).max().unwrap_or(0) + 1;
        self.opponents
            .entry(opponent.to_string())
            .or_default()
            .update(game, stats, stamp);
        while self.opponents.len() > MAX_OPPONENTS {
            let oldest = self
                .opponents
                .iter()
                .min_by_key(|(_, e)| e.stamp)
                .map(|(n, _)| n.clone());
            match oldest {
                Some(n) => self.opponents.remove(&n),
                None => break,
            };
        }
    }

    /// The counts of the entry `name` without the game `game`
    /// ([`Entry::excluding`]); `None` when there is no such entry.
    pub fn past(&self, name: &str, game: &str) -> Option<Stats> {
        self.opponents.get(name).map(|e| e.excluding(game))
    }

    /// Whether the entry `name` already holds `stats` as the game `game`'s
    /// counts (recording them again would change nothing but the stamp).
    pub fn holds(&self, name: &str, game: &str, stats: &Stats) -> bool {
        self.opponents
            .get(name)
            .and_then(|e| e.recent.iter().find(|(g, _)| g == game))
            .is_some_and(|(_, s)| s == stats)
    }

    /// Writes the file atomically: a temporary file named after this
    /// process and save, then a rename over `dir/coup-memory.txt`.
    ///
    /// # Errors
    /// The I/O error of the write or the rename (the old file is then intact).
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{FILE_NAME}.{}.{n}.tmp", std::process::id()));
        std::fs::write(&tmp, self.format())?;
        std::fs::rename(&tmp, dir.join(FILE_NAME)).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

/// The opponent's name and the game's name from the history file's path and
/// my own name (my working folder's name): the file is
/// `<first>_<second>_<round>_<game>.txt` and I am one of the two. `None`
/// when the name does not have that shape or does not contain mine.
pub fn opponent_name(history_path: &str, my_name: &str) -> Option<(String, String)> {
    let file = Path::new(history_path).file_name()?.to_str()?;
    let stem = file.strip_suffix(".txt")?;
    let mut it = stem.rsplitn(3, '_');
    let game = it.next()?;
    let round = it.next()?;
    let pair = it.next()?;
    if game.parse::<u32>().is_err() || round.parse::<u32>().is_err() || my_name.is_empty() {
        return None;
    }
    let opp = if let Some(o) = pair.strip_prefix(&format!("{my_name}_")) {
        o
    } else {
        pair.strip_suffix(&format!("_{my_name}"))?
    };
    (clean(opp) && clean(file)).then(|| (opp.to_string(), file.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_the_file_name() {
        assert_eq!(
            opponent_name("/g/Ours_Calc_u_3_1.txt", "Ours"),
            Some(("Calc_u".into(), "Ours_Calc_u_3_1.txt".into()))
        );
        assert_eq!(
            opponent_name("/g/Calc_Ours_0_12.txt", "Ours"),
            Some(("Calc".into(), "Calc_Ours_0_12.txt".into()))
        );
        assert_eq!(opponent_name("/g/history.txt", "Ours"), None);
        assert_eq!(opponent_name("/g/A_B_0_1.txt", "Ours"), None);
    }
}
