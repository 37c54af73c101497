//! The opponent's claims in their contexts ([`claim_context`]) and which of
//! them a history resolved as honest or bluffs ([`resolved_claims`]).

use crate::coup::game::character::Character;
use crate::coup::game::history::{History, Side};
use crate::coup::game::protocol::Reply;

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

/// Where a claim was made, for [`Model::resolved_action_ratio`](super::rates::Model::resolved_action_ratio): the cards
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
    /// Action claims: [`Stats::resolved_action`](super::stats::Stats::resolved_action).
    pub action: ByListener,
    /// Blocks: [`Stats::resolved_block`](super::stats::Stats::resolved_block).
    pub block: ByListener,
    /// Action claims left unresolved: [`Stats::unresolved_action`](super::stats::Stats::unresolved_action).
    pub action_open: ByListener,
    /// Blocks left unresolved: [`Stats::unresolved_block`](super::stats::Stats::unresolved_block).
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
