//! The opponent's behaviour as counts and Bayesian rates.
//!
//! [`Stats`] counts, from one history read from my side, how the opponent
//! answered my claims (challenges of my actions by kind and by its number of
//! cards, challenges of my blocks, blocks of my actions) and how its own
//! claims fared when I challenged them (caught bluffs against proved claims).
//! Stats of past games against the same opponent ([`super::memory`]) add to
//! those of this game. [`Model`] turns the counts into rates: each rate is
//! the mean of a Beta posterior whose prior is stated next to it, so an
//! opponent seen for a few claims moves the rates a little and one seen for
//! hundreds decides them.

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
/// Blockable actions: Foreign Aid, Steal, Assassinate.
pub const BLOCKABLE: [Action; 3] = [Action::ForeignAid, Action::Steal, Action::Assassinate];

/// The index of `x` in one of the kind lists above ([`ACTION_KINDS`],
/// [`BLOCK_KINDS`], [`BLOCKABLE`]), the index of its counts in [`Stats`].
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
    /// My blockable actions ([`BLOCKABLE`]) it did not challenge:
    /// `[actions, blocked]`.
    pub blocked: [[u32; 2]; 3],
    /// Its action claims I challenged, by character (index of
    /// [`Character::index`]): `[challenged, caught bluffing]`.
    pub action_caught: [[u32; 2]; 5],
    /// Its blocks I challenged, by character: `[challenged, caught bluffing]`.
    pub block_caught: [[u32; 2]; 5],
    /// My first action of each [`BLOCKABLE`] kind in the game that it did
    /// not challenge while it held two cards (so, mostly, against the hand
    /// it was dealt): `[1, blocked]` per game. One draw per two-card hand:
    /// repeated actions against the same hand (an honest blocker holding
    /// the card blocks them all), or a last card kept because it blocks,
    /// would overstate how often hands block.
    pub first_blocked: [[u32; 2]; 3],
    /// Its Contessa blocks of my Assassination of its last card that I
    /// challenged: `[challenged, caught bluffing]` (with one card left a
    /// player without a Contessa may block in despair, or keep a Contessa
    /// as its last card: how honest such blocks are differs by player).
    pub last_contessa: [u32; 2],
    /// My Assassinations of its last card that it did not challenge:
    /// `[assassinations, blocked]`. With one card left, giving up loses the
    /// game, so how often such a player blocks (with a Contessa or in
    /// despair) is its own habit, not its two-card block rate.
    pub last_blocked: [u32; 2],
    /// Its first action of the game (its first turn, holding the two cards
    /// it was dealt), per [`ACTION_KINDS`]: `[1, taken]` per game. One draw
    /// per dealt hand: how often hands open with a claim, against how
    /// often a dealt hand holds the card, bounds how often it is claimed
    /// without it ([`crate::coup::bot::opponent::P_HOLD_TWO`]); repeated claims
    /// within a game come from the same hand and say less.
    pub first_action: [[u32; 2]; 4],
    /// Its first action claim of each character per hand (from a deal,
    /// an Exchange, a proved card's replacement or a card given up to the
    /// next), by character and by the claim's context ([`claim_context`]:
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
    /// ones out would count too few bluffs ([`Model::resolved_action_ratio`]
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
/// ([`Model::challenge_action_at`]): a hierarchical Beta model, each
/// standing's own answers added to it.
pub const RACE_PRIOR_WEIGHT: f64 = 4.0;

/// Contexts of a claim in [`ByListener`]: the cards the other player (who
/// may challenge) held, 1 or 2, times the claimant's own cards, 1 or 2,
/// times the claimant's turns taken before the claim, 0, 1, or 2 and more
/// ([`claim_context`]).
pub const CONTEXTS: usize = 12;

/// Counts `[trials, hits]` of a player's claims by [`Character::index`] and
/// by the claim's context ([`claim_context`]).
pub type ByListener = [[[u32; 2]; CONTEXTS]; 5];

/// The [`ByListener`] index of a claim made while the other player held
/// `listener` cards and the claimant `claimant` (each 1 or 2), after the
/// claimant had taken `turns_before` turns:
/// `(listener - 1) + 2 * (claimant - 1) + 4 * min(turns_before, 2)`.
/// By the claimant's cards because a bluff caught on the last card loses
/// the game: Seer's Assassinations against our two cards were bluffs 62
/// times in 203 while it held two cards, 19 in 142 while it held one
/// (1,600 games of `scripts/coup-bench.py --keep`, arbiter3 seeds 7-31).
/// By the turn because a player's bluffs depend on the phase of the game:
/// Seer's first-turn Tax claims with two cards against two were bluffs 8
/// times in 269, its second-turn ones 84 in 237, and its first-turn
/// Exchanges 121 in 294 (800 games, arbiter3 seeds 7, 11, 13, 17).
pub fn claim_context(listener: usize, claimant: usize, turns_before: usize) -> usize {
    (listener.clamp(1, 2) - 1) + 2 * (claimant.clamp(1, 2) - 1) + 4 * turns_before.min(2)
}

/// Where a claim was made, for [`Model::resolved_action_ratio`]: the cards
/// I held (1 or 2) and, when the model should tell them apart, the
/// claimant's own cards (fields of [`claim_context`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClaimAt {
    /// My cards at the claim, 1 or 2.
    pub mine: usize,
    /// The claimant's cards at the claim, 1 or 2; `None`: pooled.
    pub claimant: Option<usize>,
}

impl ClaimAt {
    /// A claim made against my `mine` cards, its other fields pooled.
    pub fn against(mine: usize) -> ClaimAt {
        ClaimAt {
            mine,
            claimant: None,
        }
    }
}

/// What [`resolved_claims`] reads from a history for one side, each by
/// [`Character::index`] and the other side's cards ([`ByListener`]):
/// `[resolved, bluffs]` and `[unresolved, partly shown]` for its action
/// claims and for its blocks.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Resolved {
    /// Action claims: [`Stats::resolved_action`].
    pub action: ByListener,
    /// Blocks: [`Stats::resolved_block`].
    pub block: ByListener,
    /// Action claims left unresolved: [`Stats::unresolved_action`].
    pub action_open: ByListener,
    /// Blocks left unresolved: [`Stats::unresolved_block`].
    pub block_open: ByListener,
}

/// The truth of a player's claims as the history shows it: for its first
/// claim of each character in each hand (the cards held from a deal, an
/// Exchange, a proved card's replacement or a card given up, until the
/// next such change),
/// whether it was a bluff, once the history reveals it: a claim is honest
/// when the card is proved or given up from that hand, a bluff when it is
/// caught, or when every card the hand held at the claim is given up
/// without it (`docs/rules/coup.md` §3: a given-up card is shown). Claims
/// whose hand is redrawn before it is known, or still unknown at the end of
/// the history, are counted as unresolved, apart from those of which one
/// card of a two-card hand (not the claimed character) was shown.
pub fn resolved_claims(h: &History, who: Side) -> Resolved {
    struct Pending {
        claimed: Character,
        block: bool,
        size: usize,
        // The claim's context, a ByListener index.
        listener: usize,
        shown: Vec<Character>,
    }
    let mut out = Resolved::default();
    let mut pending: Vec<Pending> = Vec::new();
    let mut claimed_in_hand = [[false; 5]; 2];
    let mut held = 2usize;
    let mut other_held = 2usize;
    // The claimant's turns completed so far.
    let mut own_turns = 0usize;
    let settle = |p: &Pending, bluff: bool, out: &mut Resolved| {
        let e = if p.block {
            &mut out.block
        } else {
            &mut out.action
        };
        e[p.claimed.index()][p.listener][0] += 1;
        e[p.claimed.index()][p.listener][1] += bluff as u32;
    };
    // A card of the claimant's hand is shown: the claim is settled (honest
    // if it is the claimed card, a bluff once every card of the hand was
    // shown without it) or still pending.
    let show = |mut p: Pending, ch: Character, out: &mut Resolved| {
        p.shown.push(ch);
        if p.claimed == ch {
            settle(&p, false, out);
        } else if p.shown.len() >= p.size {
            settle(&p, true, out);
        } else {
            return Some(p);
        }
        None
    };
    // A claim whose hand is redrawn, or the history ends, before it is known.
    let leave = |p: &Pending, out: &mut Resolved| {
        let e = if p.block {
            &mut out.block_open
        } else {
            &mut out.action_open
        };
        e[p.claimed.index()][p.listener][0] += 1;
        e[p.claimed.index()][p.listener][1] += u32::from(p.size == 2 && !p.shown.is_empty());
    };
    for t in &h.turns {
        let e = &t.events;
        for (pos, &c) in e.iter().enumerate() {
            if t.by(pos) != who {
                if c.given_up().is_some() {
                    other_held = other_held.saturating_sub(1);
                }
                continue;
            }
            let claim = match (pos, c) {
                (0, Reply::Act(a)) if a.claim().is_some() => Some(false),
                (1, Reply::Block(_)) => Some(true),
                _ => None,
            };
            if let Some(block) = claim {
                if let Some(ch) = c.claim() {
                    let seen = &mut claimed_in_hand[block as usize][ch.index()];
                    if !*seen {
                        *seen = true;
                        pending.push(Pending {
                            claimed: ch,
                            block,
                            size: held,
                            listener: claim_context(other_held, held, own_turns),
                            shown: Vec::new(),
                        });
                    }
                }
                continue;
            }
            if let Some(ch) = c.revealed() {
                // Proved: the claim of `ch` was honest; the card is replaced.
                let rest: Vec<Pending> = pending
                    .drain(..)
                    .filter_map(|p| show(p, ch, &mut out))
                    .collect();
                // The other card stays, but the hand now holds an unknown one.
                for p in &rest {
                    leave(p, &mut out);
                }
                claimed_in_hand = [[false; 5]; 2];
                continue;
            }
            if let Some(ch) = c.given_up() {
                let caught = pos >= 2 && e[pos - 1] == Reply::Challenge;
                let caught_claim = if caught { e[pos - 2].claim() } else { None };
                let mut rest = Vec::new();
                for p in pending.drain(..) {
                    if caught_claim == Some(p.claimed) && p.block == (pos - 2 == 1) {
                        settle(&p, true, &mut out);
                    } else if let Some(p) = show(p, ch, &mut out) {
                        rest.push(p);
                    }
                }
                pending = rest;
                held = held.saturating_sub(1);
                // The card left is a hand of its own: its claims count anew.
                claimed_in_hand = [[false; 5]; 2];
            }
        }
        // A completed Exchange redraws the hand: what is still unknown stays so.
        if t.actor == who && t.exchanged() {
            for p in pending.drain(..) {
                leave(&p, &mut out);
            }
            claimed_in_hand = [[false; 5]; 2];
        }
        if t.actor == who {
            own_turns += 1;
        }
    }
    for p in &pending {
        leave(p, &mut out);
    }
    out
}

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
    pub const LEN: usize = Self::LEN_V13 + 2;
    /// [`Stats::LEN`] before [`Stats::replica`] (memory format v13).
    pub const LEN_V13: usize = Self::LEN_V12 + 4 * 2 * RACES * 2;
    /// [`Stats::LEN`] before [`Stats::challenged_race`] (memory format v12).
    pub const LEN_V12: usize = 16 + 8 + 6 + 10 + 10 + 6 + 2 + 8 + 2 + 4 * 10 * CONTEXTS;

    /// Reads this game's counts from a history (my side), using the public
    /// card counts of [`History::replay`].
    pub fn from_history(h: &History) -> Stats {
        let mut s = Stats::default();
        let states = h.replay();
        let mut opened = false;
        for (i, t) in h.turns.iter().enumerate() {
            let opp_cards = states.get(i).map_or(2, |st| st.1[1]);
            if t.actor != Side::Me && !opened {
                if let Some(first) = t.event(0) {
                    opened = true;
                    if opp_cards >= 2 {
                        for (k, a) in ACTION_KINDS.into_iter().enumerate() {
                            s.first_action[k] = [1, (first == Reply::Act(a)) as u32];
                        }
                    }
                }
            }
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
                if action == Some(Action::Assassinate) && opp_cards == 1 && !challenged {
                    s.last_blocked[0] += 1;
                    s.last_blocked[1] += (second == Reply::Block(Block::Contessa)) as u32;
                }
                if let Some(k) = action.and_then(|a| kind_index(&BLOCKABLE, a)) {
                    if !challenged {
                        let b = matches!(second, Reply::Block(_)) as u32;
                        s.blocked[k][0] += 1;
                        s.blocked[k][1] += b;
                        if s.first_blocked[k][0] == 0 && opp_cards >= 2 {
                            s.first_blocked[k] = [1, b];
                        }
                    }
                }
                if let (Reply::Block(b), Some(Reply::Challenge)) = (second, t.event(2)) {
                    if let Some(ans) = t.event(3) {
                        let caught = ans.given_up().is_some() as u32;
                        let e = &mut s.block_caught[b.character().index()];
                        e[0] += 1;
                        e[1] += caught;
                        if b == Block::Contessa && opp_cards == 1 {
                            s.last_contessa[0] += 1;
                            s.last_contessa[1] += caught;
                        }
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

    /// This game's counts once I give `answer` to `h`: as
    /// [`Stats::from_history`], except that my challenge (`q`) of a Contessa
    /// block of its last card counts as a caught bluff until a later call
    /// shows otherwise. A caught bluff there ends the game and I am never
    /// called again, while a proved Contessa always calls me (to give up a
    /// card, my last one included): read from later calls alone,
    /// [`Stats::last_contessa`] would record every such challenge as proved
    /// (measured against the tax bluffer: 192 challenges, 0 caught).
    pub fn with_answer(h: &History, answer: &str) -> Stats {
        let mut s = Stats::from_history(h);
        let contessa_block = [
            Reply::Act(Action::Assassinate),
            Reply::Block(Block::Contessa),
        ];
        let challenged_last_contessa = Reply::parse(answer) == Some(Reply::Challenge)
            && h.turns
                .last()
                .is_some_and(|t| t.actor == Side::Me && !t.complete && t.events == contessa_block)
            && h.replay().last().is_some_and(|st| st.1[1] == 1);
        if challenged_last_contessa {
            s.last_contessa[0] += 1;
            s.last_contessa[1] += 1;
        }
        s
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
            .chain(&self.blocked)
            .chain(&self.action_caught)
            .chain(&self.block_caught)
            .chain(&self.first_blocked)
            .chain(std::iter::once(&self.last_contessa))
            .chain(&self.first_action)
            .chain(std::iter::once(&self.last_blocked))
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
    /// [`Stats::LEN`] counters (or [`Stats::LEN_V12`], a v12 memory's:
    /// no race counts yet) with hits never above trials.
    pub fn from_slice(v: &[u32]) -> Option<Stats> {
        if ![Self::LEN, Self::LEN_V13, Self::LEN_V12].contains(&v.len())
            || v.chunks(2).any(|p| p[1] > p[0])
        {
            return None;
        }
        let padded;
        let v = if v.len() < Self::LEN {
            padded = [v, &vec![0; Self::LEN - v.len()]].concat();
            &padded[..]
        } else {
            v
        };
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
            .chain(&mut s.blocked)
            .chain(&mut s.action_caught)
            .chain(&mut s.block_caught)
            .chain(&mut s.first_blocked)
            .chain(std::iter::once(&mut s.last_contessa))
            .chain(&mut s.first_action)
            .chain(std::iter::once(&mut s.last_blocked))
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

/// Pseudo-observations a parent level's rate is worth as the prior of the
/// level below it in the model's hierarchical rates (a kind's rate under the
/// rate pooled over kinds, a card count's or a context's under its kind's):
/// two claims, so a level's own counts take over after a few observations,
/// and a level never seen keeps its parent's rate.
pub const LEVEL_PRIOR_WEIGHT: f64 = 2.0;

/// A rate `m` as a Beta prior `(hits, misses)` worth `w` observations.
fn prior_of(m: f64, w: f64) -> (f64, f64) {
    (w * m, w * (1.0 - m))
}

/// The share of bluffs among a player's action claims after `caught` caught
/// bluffs in `tested` claims whose truth was shown: the mean of
/// [`PRIOR_ACTION_BLUFF`] updated by them.
pub fn action_bluff_share_after(caught: u32, tested: u32) -> f64 {
    beta_mean(PRIOR_ACTION_BLUFF, [tested, caught])
}

/// A level's rate `m` (the parent's, as a prior worth [`LEVEL_PRIOR_WEIGHT`]
/// observations) after `e = [trials, hits]` of its own: the posterior mean
/// `(w m + hits) / (w + trials)`.
pub fn level_rate_after(m: f64, e: [u32; 2]) -> f64 {
    beta_mean(prior_of(m, LEVEL_PRIOR_WEIGHT), e)
}

/// A Beta prior `(hits, misses)` in pseudo-observations and its posterior mean
/// after `[trials, hits]`.
fn beta_mean(prior: (f64, f64), e: [u32; 2]) -> f64 {
    (prior.0 + e[1] as f64) / (prior.0 + prior.1 + e[0] as f64)
}

/// A share `f` of bluffs among claims of a character held with probability
/// `hold` ([`P_HOLD_TWO`] in a hand of two, [`P_HOLD_ONE`] of one) as the
/// likelihood ratio of claiming without the card to claiming with it:
/// `f/(1-f) * P/(1-P)`, kept within [0.001, 50].
fn share_to_ratio(f: f64, hold: f64) -> f64 {
    let odds = hold / (1.0 - hold);
    (f / (1.0 - f).max(1e-9) * odds).clamp(1e-3, 50.0)
}

/// The share of bluffs among claims by expectation maximization
/// ([`Model::resolved_action_ratio`]): `known` = `[resolved, bluffs]`,
/// `partly` = claims with one other card shown and one unknown.
///
/// Each such claim was honest with probability `P1 / (P1 + (1 - P1) r)`
/// (`P1` = [`P_HOLD_ONE`], `r` the ratio of the current share): the unseen
/// card taken as a blind draw. The share is the fixed point of the Beta
/// posterior mean with those expected bluffs (a contraction: 50 steps
/// settle it far below 1e-9).
fn em_share(prior: (f64, f64), known: [u32; 2], partly: u32) -> f64 {
    let mut f = beta_mean(prior, known);
    if partly == 0 {
        return f;
    }
    let n = prior.0 + prior.1 + f64::from(known[0]) + f64::from(partly);
    for _ in 0..50 {
        let r = share_to_ratio(f, P_HOLD_TWO);
        let bluff = 1.0 - P_HOLD_ONE / (P_HOLD_ONE + (1.0 - P_HOLD_ONE) * r);
        f = (prior.0 + f64::from(known[1]) + f64::from(partly) * bluff) / n;
    }
    f
}

/// Prior of a challenge of my action claim while the opponent holds two
/// cards: Beta(1, 4), mean 0.2 (a challenge risks a card; most players in the
/// original field challenged a minority of claims).
pub const PRIOR_CHALLENGE: (f64, f64) = (1.0, 4.0);
/// Prior of a challenge of my Assassination while the opponent holds two
/// cards: Beta(1, 9), mean 0.1. A lost challenge of an Assassination costs
/// the challenger both cards (the challenge and the Assassination), the game,
/// so a player challenges one only when it believes a bluff more likely than
/// not; before any evidence, half as often as other claims
/// ([`PRIOR_CHALLENGE`]).
pub const PRIOR_CHALLENGE_ASSASSIN_TWO: (f64, f64) = (1.0, 9.0);
/// Prior of a challenge of my Assassination while the opponent holds one
/// card: Beta(1, 1), mean 0.5 (it loses the game unless it blocks or
/// challenges, so either answer is as likely a priori).
pub const PRIOR_CHALLENGE_ASSASSIN_LAST: (f64, f64) = (1.0, 1.0);
/// Prior of a challenge of my block: Beta(1, 3), mean 0.25 (a wrongly
/// challenged block costs the challenger a card, a caught one two coins or a
/// card; contest bots such as Calculator challenged every block).
pub const PRIOR_CHALLENGE_BLOCK: (f64, f64) = (1.0, 3.0);
/// Prior of the share of bluffs among its challenged action claims:
/// Beta(0.6, 1.4), mean 0.3.
pub const PRIOR_ACTION_BLUFF: (f64, f64) = (0.6, 1.4);
/// Prior of the share of bluffs among its challenged blocks: Beta(0.3, 1.7),
/// mean 0.15 (a caught block costs a card and, against an Assassination with
/// two cards, the game).
pub const PRIOR_BLOCK_BLUFF: (f64, f64) = (0.3, 1.7);
/// Weight in pseudo-observations of the hand model's block prediction when
/// learning how often it blocks my actions.
pub const BLOCK_PRIOR_WEIGHT: f64 = 2.0;
/// Probability that a given character is among two cards drawn from the
/// full 15-card deck: 1 - C(12,2)/C(15,2) = 39/105. Converts a share of
/// bluffs among claims into a likelihood ratio of claiming without the card.
pub const P_HOLD_TWO: f64 = 39.0 / 105.0;
/// Probability that two cards drawn from the full 15-card deck hold at least
/// one of two given characters (a Captain or an Ambassador, either of which
/// blocks a Steal): 1 - C(9,2)/C(15,2) = 69/105.
pub const P_HOLD_EITHER_TWO: f64 = 69.0 / 105.0;
/// Probability that one card drawn from the full 15-card deck is a given
/// character: 3/15. The chance that the unseen card of a partly shown hand
/// is the claimed one ([`Model::resolved_action_ratio`]).
pub const P_HOLD_ONE: f64 = 3.0 / 15.0;

/// Prior weights of the two pure policies in the challenge mixtures of
/// [`Model::identified_challenge_block`]: `(always, never)`. In the original
/// field Calculator challenged every block made against it while stand-ins
/// such as `honest`, `taxman` or `bandit` never challenge one; the rest of
/// the weight is the Beta-rate model of [`Model::challenge_block`].
pub const BLOCK_POLICY_PRIOR: (f64, f64) = (0.3, 0.2);
/// As [`BLOCK_POLICY_PRIOR`] for challenges of my actions
/// ([`Model::identified_challenge_action`]): few bots challenge every claim
/// (the `challenger` stand-in), many never do (tax and steal spammers,
/// honest players that only call impossible claims).
pub const ACTION_POLICY_PRIOR: (f64, f64) = (0.1, 0.3);

/// Posterior predictive of a yes/no answer under a mixture of three
/// policies — always yes (prior weight `w.0`), never (`w.1`), and a rate
/// with a Beta `prior` whose prediction is `rate` — after `[trials, hits]`
/// of the same kind of answer. This is Bayesian policy identification: one
/// answer that contradicts a pure policy rules it out, a run of answers
/// that fits one makes it likely.
pub fn mixture_rate(w: (f64, f64), prior: (f64, f64), e: [u32; 2], rate: f64) -> f64 {
    let [t, k] = e;
    let t = t.min(400);
    let k = k.min(t);
    // log of the Beta-binomial likelihood of the exact sequence.
    let mut ll = 0.0;
    for j in 0..k {
        ll += (prior.0 + j as f64).ln();
    }
    for j in 0..(t - k) {
        ll += (prior.1 + j as f64).ln();
    }
    for j in 0..t {
        ll -= (prior.0 + prior.1 + j as f64).ln();
    }
    let wa = if k == t { w.0 } else { 0.0 };
    let wn = if k == 0 { w.1 } else { 0.0 };
    let wb = (1.0 - w.0 - w.1).max(0.0) * ll.exp();
    let z = wa + wn + wb;
    if z <= 0.0 {
        return rate;
    }
    (wa + wb * rate) / z
}

/// `[trials, hits]` counts summed over kinds.
pub(in crate::coup) fn pooled<'a>(counts: impl IntoIterator<Item = &'a [u32; 2]>) -> [u32; 2] {
    counts
        .into_iter()
        .fold([0, 0], |a, e| [a[0] + e[0], a[1] + e[1]])
}

/// The opponent's behaviour rates: this game's counts plus past games'.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Model {
    /// Counts, this game and memory together.
    pub stats: Stats,
}

impl Model {
    /// This game's counts plus `memory` (past games against this opponent).
    pub fn new(game: &Stats, memory: Option<&Stats>) -> Model {
        let mut stats = *game;
        if let Some(m) = memory {
            stats.add(m);
        }
        Model { stats }
    }

    /// Probability that it challenges my action claim `a` (one of
    /// [`ACTION_KINDS`]; 0 for any other action) while it holds `opp_cards`
    /// cards. With one card the Assassination has its own prior; every rate
    /// pools both card counts as a prior worth two claims.
    pub fn challenge_action(&self, a: Action, opp_cards: usize) -> f64 {
        let Some(k) = kind_index(&ACTION_KINDS, a) else {
            return 0.0;
        };
        let prior = if a == Action::Assassinate && opp_cards <= 1 {
            PRIOR_CHALLENGE_ASSASSIN_LAST
        } else if a == Action::Assassinate {
            PRIOR_CHALLENGE_ASSASSIN_TWO
        } else {
            PRIOR_CHALLENGE
        };
        let both = self.stats.challenged[k];
        let pooled = beta_mean(PRIOR_CHALLENGE, pooled(&both));
        let here = both[(opp_cards >= 2) as usize];
        // The card count's prior mean and the pooled rate, weighed equally.
        let m = (prior.0 / (prior.0 + prior.1) + pooled) / 2.0;
        level_rate_after(m, here)
    }

    /// [`Model::challenge_action`] in one race standing ([`race_standing`]
    /// of its coins against mine): that rate as a prior worth
    /// [`RACE_PRIOR_WEIGHT`] claims, then its answers in that standing.
    pub fn challenge_action_at(&self, a: Action, opp_cards: usize, race: usize) -> f64 {
        let Some(k) = kind_index(&ACTION_KINDS, a) else {
            return 0.0;
        };
        let m = self.challenge_action(a, opp_cards);
        let here = self.stats.challenged_race[k][(opp_cards >= 2) as usize][race.min(RACES - 1)];
        let w = RACE_PRIOR_WEIGHT;
        beta_mean(prior_of(m, w), here)
    }

    /// Probability that it challenges my block `b`: its rate for this kind
    /// of block with its rate for all blocks as a prior worth two.
    pub fn challenge_block(&self, b: Block) -> f64 {
        let pooled = beta_mean(PRIOR_CHALLENGE_BLOCK, pooled(&self.stats.block_challenged));
        match kind_index(&BLOCK_KINDS, b) {
            Some(k) => level_rate_after(pooled, self.stats.block_challenged[k]),
            None => pooled,
        }
    }

    /// [`Model::challenge_block`] under policy identification
    /// ([`mixture_rate`], [`BLOCK_POLICY_PRIOR`]): all its answers to my
    /// blocks, this game and memory, decide between "challenges every
    /// block", "never challenges one" and the rate model.
    pub fn identified_challenge_block(&self, b: Block) -> f64 {
        mixture_rate(
            BLOCK_POLICY_PRIOR,
            PRIOR_CHALLENGE_BLOCK,
            pooled(&self.stats.block_challenged),
            self.challenge_block(b),
        )
    }

    /// [`Model::challenge_action`] under policy identification
    /// ([`mixture_rate`], [`ACTION_POLICY_PRIOR`]) over all its answers to
    /// my action claims.
    pub fn identified_challenge_action(&self, a: Action, opp_cards: usize) -> f64 {
        self.identified_action_rate(self.challenge_action(a, opp_cards))
    }

    /// A rate of challenging my action claims (the rate model's:
    /// [`Model::challenge_action`], [`Model::challenge_action_at`]) under
    /// policy identification over all its answers to my action claims.
    pub fn identified_action_rate(&self, rate: f64) -> f64 {
        mixture_rate(
            ACTION_POLICY_PRIOR,
            PRIOR_CHALLENGE,
            pooled(self.stats.challenged.iter().flatten()),
            rate,
        )
    }

    /// Probability that it blocks my action `a` (one of [`BLOCKABLE`]; 0
    /// for any other action) when it does not challenge, given `predicted`
    /// (the hand model's probability that it holds a blocking card) as a
    /// prior worth [`BLOCK_PRIOR_WEIGHT`].
    pub fn block(&self, a: Action, predicted: f64) -> f64 {
        let Some(k) = kind_index(&BLOCKABLE, a) else {
            return 0.0;
        };
        let w = BLOCK_PRIOR_WEIGHT;
        beta_mean(prior_of(predicted, w), self.stats.blocked[k])
    }

    /// Likelihood ratio P(claim | lacks the card) / P(claim | holds it) for
    /// its action claims of `c`, from the share of bluffs among its
    /// challenged claims (all characters pooled as a prior worth two): a
    /// share `f` among claims of a character held with probability
    /// [`P_HOLD_TWO`] means a ratio `f/(1-f) * P/(1-P)`.
    pub fn action_bluff_ratio(&self, c: Character) -> f64 {
        Self::ratio(&self.stats.action_caught, c, PRIOR_ACTION_BLUFF)
    }

    /// [`Model::action_bluff_ratio`] for its blocks.
    pub fn block_bluff_ratio(&self, c: Character) -> f64 {
        Self::ratio(&self.stats.block_caught, c, PRIOR_BLOCK_BLUFF)
    }

    /// Likelihood ratio P(claim | lacks the card) / P(claim | holds it) for
    /// its first action claim of `c` in a hand, in the claim's context
    /// `at`, from its claims whose truth the history showed
    /// ([`Stats::resolved_action`], challenged or not) and those of which
    /// one other card was shown ([`Stats::unresolved_action`]), by
    /// expectation maximization: the share of bluffs is the
    /// Beta posterior mean of the known bluffs plus, for each partly shown
    /// claim, the probability that it was a bluff given the share (honest
    /// only if the unseen card is the claimed one, a card drawn with
    /// probability [`P_HOLD_ONE`]). Shrunk in levels, each a prior worth
    /// two for the next: all its claims, the character's, the character's
    /// against my cards, then (when given) against my cards with its own
    /// card count ([`claim_context`]).
    /// Converted as in [`Model::action_bluff_ratio`], with the chance of
    /// holding the card in a hand of its cards when they are given
    /// ([`P_HOLD_ONE`] for one card).
    pub fn resolved_action_ratio(&self, c: Character, at: ClaimAt) -> f64 {
        let s = &self.stats;
        self.em_ratio(
            &s.resolved_action,
            &s.unresolved_action,
            c,
            at,
            PRIOR_ACTION_BLUFF,
        )
    }

    /// [`Model::resolved_action_ratio`] for its blocks
    /// ([`Stats::resolved_block`], [`Stats::unresolved_block`]).
    pub fn resolved_block_ratio(&self, c: Character, at: ClaimAt) -> f64 {
        let s = &self.stats;
        self.em_ratio(
            &s.resolved_block,
            &s.unresolved_block,
            c,
            at,
            PRIOR_BLOCK_BLUFF,
        )
    }

    /// The share of [`Model::resolved_action_ratio`], shrunk level by level
    /// over the contexts that match more and more of `at`, as a likelihood
    /// ratio.
    fn em_ratio(
        &self,
        known: &ByListener,
        open: &ByListener,
        c: Character,
        at: ClaimAt,
        prior: (f64, f64),
    ) -> f64 {
        let i = c.index();
        let all = em_share(
            prior,
            pooled(known.iter().flatten()),
            open.iter().flatten().map(|e| e[1]).sum(),
        );
        let mut f = em_share(
            prior_of(all, LEVEL_PRIOR_WEIGHT),
            pooled(&known[i]),
            open[i].iter().map(|e| e[1]).sum(),
        );
        // The levels below the character's: its contexts against my cards,
        // then those with its own cards too (when `at` gives them).
        let fits = |k: usize, level: usize| {
            k % 2 == at.mine.clamp(1, 2) - 1
                && (level < 2 || at.claimant.is_none_or(|n| (k / 2) % 2 == n.clamp(1, 2) - 1))
        };
        for level in 1..=2 {
            if level == 2 && at.claimant.is_none() {
                continue;
            }
            let cells = (0..CONTEXTS).filter(|&k| fits(k, level));
            f = em_share(
                prior_of(f, LEVEL_PRIOR_WEIGHT),
                pooled(cells.clone().map(|k| &known[i][k])),
                cells.map(|k| open[i][k][1]).sum(),
            );
        }
        let hold = match at.claimant {
            Some(1) => P_HOLD_ONE,
            _ => P_HOLD_TWO,
        };
        share_to_ratio(f, hold)
    }

    fn ratio(tests: &[[u32; 2]; 5], c: Character, prior: (f64, f64)) -> f64 {
        let pooled = beta_mean(prior, pooled(tests));
        share_to_ratio(level_rate_after(pooled, tests[c.index()]), P_HOLD_TWO)
    }

    /// Overall share of bluffs among its challenged action claims.
    pub fn action_bluff_share(&self) -> f64 {
        beta_mean(PRIOR_ACTION_BLUFF, pooled(&self.stats.action_caught))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_hold_probabilities_are_the_hypergeometric_ones() {
        // Two cards from 15 with three of each character, counted over
        // every pair: a given character, and either of two given ones.
        let deck: Vec<usize> = (0..15).map(|i| i / 3).collect();
        let (mut pairs, mut one, mut either) = (0.0, 0.0, 0.0);
        for a in 0..15 {
            for b in a + 1..15 {
                pairs += 1.0;
                one += f64::from(u8::from(deck[a] == 0 || deck[b] == 0));
                either += f64::from(u8::from(deck[a] <= 1 || deck[b] <= 1));
            }
        }
        assert!((P_HOLD_TWO - one / pairs).abs() < 1e-12);
        assert!((P_HOLD_EITHER_TWO - either / pairs).abs() < 1e-12);
        assert!((P_HOLD_ONE - 3.0 / 15.0).abs() < 1e-12);
        // The action prior: 0.3 with no evidence, a caught bluff in one test.
        assert!((action_bluff_share_after(0, 0) - 0.3).abs() < 1e-12);
        assert!((action_bluff_share_after(1, 1) - 1.6 / 3.0).abs() < 1e-12);
    }

    #[test]
    fn stats_roundtrip_and_cap() {
        let h = History::parse("Tp\nSq*<\nFdq$_\n").unwrap();
        let s = Stats::from_history(&h);
        assert_eq!(Stats::from_slice(&s.to_vec()), Some(s));
        let mut big = s;
        big.challenged[1][1] = [1000, 500];
        // 1000 -> 500 -> 250 -> 125 -> 62 (half to even), hits alike.
        assert_eq!(big.capped(100).challenged[1][1], [62, 31]);
        assert_eq!(big.capped(2000), big);
    }

    #[test]
    fn my_claims_are_counted_by_the_race_standing_before_the_turn() {
        assert_eq!(
            [
                race_standing(5, 2),
                race_standing(4, 3),
                race_standing(3, 4),
                race_standing(2, 4)
            ],
            [2, 1, 1, 0]
        );
        // My Tax at 1 coin against 1 (level), its Income, my Tax at 4
        // against its 2: it is behind, and challenges.
        let h = History::parse_as("Tp\nI\nTq", true).unwrap();
        let s = Stats::from_history(&h);
        let tax = kind_index(&ACTION_KINDS, Action::Tax).unwrap();
        assert_eq!(s.challenged[tax][1], [2, 1]);
        assert_eq!(s.challenged_race[tax][1], [[1, 1], [1, 0], [0, 0]]);
        // A v12 memory's counts (no race counts yet) still read.
        let v = s.to_vec();
        let old = Stats::from_slice(&v[..Stats::LEN_V12]).unwrap();
        assert_eq!(old.challenged_race, [[[[0; 2]; RACES]; 2]; 4]);
        assert_eq!(old.challenged, s.challenged);
        // Its rate when behind: the kind's rate worth four claims, then the
        // one challenge seen there.
        let m = Model::new(&s, None);
        let base = m.challenge_action(Action::Tax, 2);
        let want = (RACE_PRIOR_WEIGHT * base + 1.0) / (RACE_PRIOR_WEIGHT + 1.0);
        assert!((m.challenge_action_at(Action::Tax, 2, 0) - want).abs() < 1e-12);
        let level = RACE_PRIOR_WEIGHT * base / (RACE_PRIOR_WEIGHT + 1.0);
        assert!((m.challenge_action_at(Action::Tax, 2, 1) - level).abs() < 1e-12);
        assert!((m.challenge_action_at(Action::Tax, 2, 2) - base).abs() < 1e-12);
    }

    #[test]
    fn capping_game_by_game_keeps_the_rate() {
        // Memory adds one game at a time and caps again: a counter with a
        // true rate of 1 in 10 must stay near 0.1 over thousands of games
        // (rescaling to the cap with rounding drifted it toward 0.5).
        for (every, rate) in [(10u32, 0.1), (2, 0.5), (5, 0.8)] {
            let mut s = Stats::default();
            for g in 0..5000u32 {
                let hit = if rate < 0.5 {
                    g % every == 0
                } else if rate == 0.5 {
                    g % 2 == 0
                } else {
                    g % every != 0
                };
                let mut one = Stats::default();
                one.block_caught[2] = [1, hit as u32];
                s.add(&one);
                s = s.capped(200);
                assert!(s.block_caught[2][0] <= 200);
            }
            let [n, k] = s.block_caught[2];
            let got = k as f64 / n as f64;
            assert!((got - rate).abs() < 0.03, "rate {rate}: {k}/{n}");
        }
    }

    #[test]
    fn priors_are_the_stated_means() {
        let m = Model::default();
        assert!((m.challenge_action(Action::Tax, 2) - 0.2).abs() < 1e-12);
        // A two-card Assassination: half its own prior mean (0.1), half the
        // pooled Assassination rate under the claims' prior (0.2).
        assert!((m.challenge_action(Action::Assassinate, 2) - 0.15).abs() < 1e-12);
        // Its last card: half 0.5, half 0.2.
        assert!((m.challenge_action(Action::Assassinate, 1) - 0.35).abs() < 1e-12);
        // Four two-card Assassinations let stand: the pooled rate is
        // Beta(1, 4) after [4, 0] = 1/9, the prior mean m = 0.05 + 0.5 / 9,
        // worth two claims, then [4, 0]: 2m / 6.
        let mut s = Stats::default();
        s.challenged[kind_index(&ACTION_KINDS, Action::Assassinate).unwrap()][1] = [4, 0];
        let m = Model::new(&s, None);
        let want = 2.0 * (0.05 + 0.5 / 9.0) / 6.0;
        assert!((m.challenge_action(Action::Assassinate, 2) - want).abs() < 1e-12);
        assert!((m.challenge_block(Block::Captain) - 0.25).abs() < 1e-12);
        assert!((m.action_bluff_share() - 0.3).abs() < 1e-12);
    }
}
