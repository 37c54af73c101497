//! The opponent's counts ([`Stats`]): from one history read from my side,
//! how the opponent answered my claims (challenges of my actions by kind,
//! its number of cards and the race standing, challenges of my blocks,
//! blocks of my actions) and how its own claims fared (caught bluffs against
//! proved claims, claims the history resolved). Stats of past games against
//! the same opponent ([`super::memory`]) add to those of this game.

use crate::coup::game::character::Character;
use crate::coup::game::history::{History, Side};
use crate::coup::game::protocol::{Action, Block, Reply};

/// Kinds of my character actions: Exchange, Tax, Steal, Assassinate.
pub const ACTION_KINDS: [Action; 4] = [
    Action::Exchange,
    Action::Tax,
    Action::Steal,
    Action::Assassinate,
];
/// Kinds of blocks: as Ambassador, Captain, Duke, Contessa.
pub const BLOCK_KINDS: [Block; 4] = [
    Block::Ambassador,
    Block::Captain,
    Block::Duke,
    Block::Contessa,
];

/// The index of `x` in one of the kind lists above ([`ACTION_KINDS`],
/// [`BLOCK_KINDS`]), the index of its counts in [`Stats`].
pub fn kind_index<T: PartialEq>(kinds: &[T], x: T) -> Option<usize> {
    kinds.iter().position(|k| *k == x)
}

/// Counts of one opponent's behaviour. Each pair is `[trials, hits]`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Stats {
    /// My character actions ([`ACTION_KINDS`]) by the opponent's card count
    /// at the time (index 0: one card, 1: two): `[claims, challenged]`.
    pub challenged: [[[u32; 2]; 2]; 4],
    /// [`Stats::challenged`] split by the race standing at the claim
    /// ([`race_standing`]: the opponent's coins against mine, before the
    /// turn), `[kind][its cards - 1][standing]`: a player may challenge when
    /// it is losing the coin race and let claims stand when it is winning it
    /// (the contest winner challenges whenever its time to win is longer
    /// than ours).
    pub challenged_race: [[[[u32; 2]; RACES]; 2]; 4],
    /// My blocks ([`BLOCK_KINDS`]): `[blocks, challenged]`.
    pub block_challenged: [[u32; 2]; 4],
    /// Its action claims I challenged, by character (index of
    /// [`Character::index`]): `[challenged, caught bluffing]`.
    pub action_caught: [[u32; 2]; 5],
    /// Its blocks I challenged, by character: `[challenged, caught bluffing]`.
    pub block_caught: [[u32; 2]; 5],
    /// Its first action claim of each character per hand (from a deal,
    /// an Exchange, a proved card's replacement or a card given up to the
    /// next), by character and by the claim's context ([`claim_context`](super::claims::claim_context):
    /// the cards I held, its own, its turns before), whose truth the
    /// history later showed: `[resolved, bluffs]`
    /// ([`resolved_claims`]). Unlike [`Stats::action_caught`], these are
    /// not only the claims I chose to challenge. By my cards because a
    /// player who can be challenged by an opponent with one card left
    /// bluffs differently: Seer's Assassinations were bluffs 78 times in
    /// 160 against two cards, once in 56 against one (600 games of
    /// `scripts/coup-bench.py --keep`, three runs at seed 7).
    pub resolved_action: ByListener,
    /// [`Stats::resolved_action`] for its blocks.
    pub resolved_block: ByListener,
    /// Its first action claims of each character per hand that the history
    /// left unresolved: `[unresolved, partly shown]`, the second counting
    /// those from a two-card hand of which one card, not the claimed
    /// character, was shown ([`resolved_claims`]). A bluff needs both cards
    /// shown to be resolved, an honest claim one: leaving the partly shown
    /// ones out would count too few bluffs ([`Model::resolved_action_ratio`](super::rates::Model::resolved_action_ratio)
    /// weighs them by their probability).
    pub unresolved_action: ByListener,
    /// [`Stats::unresolved_action`] for its blocks.
    pub unresolved_block: ByListener,
    /// Whether the contest winner's rule explained its answers
    /// ([`crate::coup::bot::known`]): `[1, 1]` for a game the rule could
    /// not explain, `[1, 0]` for one it explained to my last call, summed
    /// over games.
    pub replica: [u32; 2],
}

/// Race standings of [`race_standing`].
pub const RACES: usize = 3;

/// The race standing of a player about to answer a claim, from its coins
/// and the claimant's before the turn: 0 behind (two coins or more fewer),
/// 1 level (within one coin), 2 ahead; a Coup costs 7, so two coins are
/// most of a turn's income.
pub fn race_standing(my_coins: i64, claimant_coins: i64) -> usize {
    match my_coins - claimant_coins {
        d if d < -1 => 0,
        d if d > 1 => 2,
        _ => 1,
    }
}

/// Weight, in claims, of an opponent's challenge rate for a kind of claim
/// and its card count as the prior of the same rate in one race standing
/// ([`Model::challenge_action_at`](super::rates::Model::challenge_action_at)): a hierarchical Beta model, each
/// standing's own answers added to it.
pub const RACE_PRIOR_WEIGHT: f64 = 4.0;

use super::claims::{resolved_claims, ByListener, CONTEXTS};

impl Stats {
    /// My blocks the opponent answered, over every kind
    /// ([`Stats::block_challenged`] summed): `[blocks, challenged]`.
    pub fn block_answers(&self) -> [u32; 2] {
        pooled(&self.block_challenged)
    }

    /// Its first Steal and Assassination claims per hand whose truth the
    /// history showed ([`Stats::resolved_action`] of the Captain and the
    /// Assassin, summed over the contexts): `[resolved, bluffs]`. An attack
    /// proved a bluff tells a player that claims a card to hurt me without
    /// it from one that claims only what it holds; a claim is resolved a
    /// bluff only when both of the claimant's cards were shown without it.
    pub fn attack_bluffs(&self) -> [u32; 2] {
        pooled(
            [Character::Captain, Character::Assassin]
                .iter()
                .flat_map(|c| &self.resolved_action[c.index()]),
        )
    }

    /// Number of counters in [`Stats::to_vec`].
    pub const LEN: usize = 16 + 8 + 10 + 10 + 4 * 10 * CONTEXTS + 4 * 2 * RACES * 2 + 2;

    /// Reads this game's counts from a history (my side), using the public
    /// card counts of [`History::replay`].
    pub fn from_history(h: &History) -> Stats {
        let mut s = Stats::default();
        let states = h.replay();
        for (i, t) in h.turns.iter().enumerate() {
            let opp_cards = states.get(i).map_or(2, |st| st.1[1]);
            let (Some(first), Some(second)) = (t.event(0), t.event(1)) else {
                continue;
            };
            let action = t.action();
            let challenged = second == Reply::Challenge;
            if t.actor == Side::Me {
                if let Some(k) = action.and_then(|a| kind_index(&ACTION_KINDS, a)) {
                    let two = (opp_cards >= 2) as usize;
                    let coins = states.get(i).map_or([1, 1], |st| st.0);
                    let race = race_standing(coins[1], coins[0]);
                    for e in [
                        &mut s.challenged[k][two],
                        &mut s.challenged_race[k][two][race],
                    ] {
                        e[0] += 1;
                        e[1] += challenged as u32;
                    }
                }
                if let (Reply::Block(b), Some(Reply::Challenge)) = (second, t.event(2)) {
                    if let Some(ans) = t.event(3) {
                        let e = &mut s.block_caught[b.character().index()];
                        e[0] += 1;
                        e[1] += ans.given_up().is_some() as u32;
                    }
                }
            } else {
                if let Reply::Block(b) = second {
                    // Answered: challenged or not; a complete line ending
                    // with the block: accepted.
                    let k = kind_index(&BLOCK_KINDS, b).unwrap_or(0);
                    let answered = t.event(2).map(|a| a == Reply::Challenge);
                    if let Some(challenged) = answered.or(t.complete.then_some(false)) {
                        s.block_challenged[k][0] += 1;
                        s.block_challenged[k][1] += challenged as u32;
                    }
                }
                if let (Some(ch), true, Some(ans)) = (first.claim(), challenged, t.event(2)) {
                    let e = &mut s.action_caught[ch.index()];
                    e[0] += 1;
                    e[1] += ans.given_up().is_some() as u32;
                }
            }
        }
        let r = resolved_claims(h, Side::Opponent);
        s.resolved_action = r.action;
        s.resolved_block = r.block;
        s.unresolved_action = r.action_open;
        s.unresolved_block = r.block_open;
        s
    }

    /// The counts of my answers in `history` once `answer` is appended, as
    /// the other player reads them: [`Stats::from_history`] from its side,
    /// so that [`Stats::challenged`] counts its claims I challenged. `None`
    /// when the history cannot be read.
    pub fn mine_seen(history: &str, answer: &str) -> Option<Stats> {
        let second = crate::coup::game::history::calls_made(history) % 2 == 1;
        let theirs = History::parse_as(&format!("{history}{answer}"), second).ok()?;
        Some(Stats::from_history(&theirs))
    }

    /// All counters in a fixed order (the memory file's format).
    pub fn to_vec(&self) -> Vec<u32> {
        let mut v = Vec::with_capacity(Self::LEN);
        for k in &self.challenged {
            for e in k {
                v.extend_from_slice(e);
            }
        }
        for e in self
            .block_challenged
            .iter()
            .chain(&self.action_caught)
            .chain(&self.block_caught)
            .chain(self.resolved_action.iter().flatten())
            .chain(self.resolved_block.iter().flatten())
            .chain(self.unresolved_action.iter().flatten())
            .chain(self.unresolved_block.iter().flatten())
            .chain(self.challenged_race.iter().flatten().flatten())
            .chain(std::iter::once(&self.replica))
        {
            v.extend_from_slice(e);
        }
        v
    }

    /// The inverse of [`Stats::to_vec`]; `None` unless exactly
    /// [`Stats::LEN`] counters with hits never above trials.
    pub fn from_slice(v: &[u32]) -> Option<Stats> {
        if v.len() != Self::LEN || v.chunks(2).any(|p| p[1] > p[0]) {
            return None;
        }
        let mut s = Stats::default();
        let mut it = v.chunks(2).map(|p| [p[0], p[1]]);
        for k in &mut s.challenged {
            for e in k {
                *e = it.next()?;
            }
        }
        for e in s
            .block_challenged
            .iter_mut()
            .chain(&mut s.action_caught)
            .chain(&mut s.block_caught)
            .chain(s.resolved_action.iter_mut().flatten())
            .chain(s.resolved_block.iter_mut().flatten())
            .chain(s.unresolved_action.iter_mut().flatten())
            .chain(s.unresolved_block.iter_mut().flatten())
            .chain(s.challenged_race.iter_mut().flatten().flatten())
            .chain(std::iter::once(&mut s.replica))
        {
            *e = it.next()?;
        }
        Some(s)
    }

    /// Counter-wise sum (saturating).
    pub fn add(&mut self, o: &Stats) {
        let v: Vec<u32> = self
            .to_vec()
            .iter()
            .zip(o.to_vec())
            .map(|(a, b)| a.saturating_add(b))
            .collect();
        if let Some(s) = Stats::from_slice(&v) {
            *self = s;
        }
    }

    /// Halves every pair whose trial count exceeds `cap` (both counts
    /// rounded half to even, until the trials fit): old evidence keeps its
    /// rates but no more weight than `cap` observations, so the file stays
    /// bounded and the model can still follow an opponent that changes.
    ///
    /// Halving, not rescaling to exactly `cap`: [`crate::coup::bot::memory`]
    /// adds one game at a time and caps again, and a rescale rounded after
    /// every game pulls every rate toward one half (with 200 trials a
    /// single miss shrinks fewer than 100 hits by less than one half, so it
    /// rounds back and the hits never fall; measured: a bot with memory fell
    /// from 76-81% to 50-64% per 100 games against the tax bluffer after
    /// 300 games). A halving happens once per `cap / 2` new trials and
    /// moves a rate by at most half a hit in `cap / 2` trials.
    pub fn capped(&self, cap: u32) -> Stats {
        fn half(x: u32) -> u32 {
            // Round half to even: 3 -> 2, 5 -> 2, 7 -> 4.
            x / 2 + (x & 1 & (x >> 1))
        }
        let cap = cap.max(1);
        let v: Vec<u32> = self
            .to_vec()
            .chunks(2)
            .flat_map(|p| {
                let (mut n, mut k) = (p[0], p[1].min(p[0]));
                while n > cap {
                    n = half(n);
                    k = half(k).min(n);
                }
                [n, k]
            })
            .collect();
        Stats::from_slice(&v).unwrap_or_default()
    }
}

/// `[trials, hits]` counts summed over kinds.
pub(in crate::coup) fn pooled<'a>(counts: impl IntoIterator<Item = &'a [u32; 2]>) -> [u32; 2] {
    counts
        .into_iter()
        .fold([0, 0], |a, e| [a[0] + e[0], a[1] + e[1]])
}
