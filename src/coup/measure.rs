//! For measurement (beside the bot, as `crate::durak::measure`): the kinds of decision ([`decision_kind`]) the
//! clairvoyant bound (`coup::bot::decide_clairvoyant`, with the cargo
//! feature `measure`) can be limited to.

use crate::coup::game::protocol::Reply;

/// The kinds of decision, as bits of a mask ([`decision_kind`]): the clairvoyant bound can be
/// limited to some of them, so the distance to the ceiling splits by kind (`docs/coup.md`, "The
/// ceiling").
pub mod kind {
    /// Opening a turn: Income, Foreign Aid, Coup, Tax, Steal, Assassinate, Exchange.
    pub const ACTION: u8 = 1;
    /// Answering the opponent's action: let it stand, challenge its claim, or block.
    pub const CLAIM: u8 = 2;
    /// Everything else: reveal a challenged card, give one up, end the turn (and the
    /// Exchange's kept cards, chosen at that call).
    pub const OTHER: u8 = 4;
    /// Answering the opponent's block: accept it or challenge it.
    pub const BLOCK: u8 = 8;
    /// All four.
    pub const ALL: u8 = 15;
}

/// The kind of the decision whose legal answers are `legal` (one bit of [`kind`]), from the
/// lists of `docs/rules/coup.md` §5.2: an action when an action is legal; the answer to a block
/// when the choice is to challenge or to end the turn; the answer to an action when a challenge,
/// a block or a pass is legal; else [`kind::OTHER`].
pub fn decision_kind(legal: &[String]) -> u8 {
    let replies: Vec<Reply> = legal.iter().filter_map(|t| Reply::parse(t)).collect();
    let has = |f: fn(&Reply) -> bool| replies.iter().any(f);
    if has(|r| matches!(r, Reply::Act(_))) {
        kind::ACTION
    } else if has(|r| *r == Reply::Challenge) && has(|r| *r == Reply::EndTurn) {
        kind::BLOCK
    } else if has(|r| matches!(r, Reply::Challenge | Reply::Block(_) | Reply::Pass)) {
        kind::CLAIM
    } else {
        kind::OTHER
    }
}
