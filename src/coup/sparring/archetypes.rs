//! Exploitable archetypes for sparring: each plays one simple idea to the
//! end, so a bot that reads its opponent must find and punish it.
//!
//! - [`Archetype::AlwaysTax`]: Tax every turn (Coup when it can), passes
//!   everything, never blocks or challenges;
//! - [`Archetype::AlwaysSteal`]: Steal every turn it can (else Tax), blocks
//!   Steals as Captain, never challenges;
//! - [`Archetype::AlwaysAssassinate`]: Assassinate whenever it has 3 coins
//!   (else Tax), blocks Assassinations as Contessa, never challenges;
//! - [`Archetype::ChallengeAll`]: honest turns, challenges every claim and
//!   every block it can;
//! - [`Archetype::NeverChallenge`]: honest turns and blocks only with cards
//!   it holds, never challenges;
//! - [`Archetype::BlockAll`]: honest turns, blocks every action it can
//!   block (with any card), never challenges.
//!
//! Cards are given up in a fixed preference (least useful to its idea first).

use crate::coup::game::character::Character;
use crate::coup::game::protocol::{Action, Block, Reply};

/// One archetype.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Archetype {
    /// Tax every turn.
    AlwaysTax,
    /// Steal every turn.
    AlwaysSteal,
    /// Assassinate whenever possible.
    AlwaysAssassinate,
    /// Challenge everything.
    ChallengeAll,
    /// Never challenge, never bluff.
    NeverChallenge,
    /// Block everything.
    BlockAll,
}

fn has(hand: &[Character], c: Character) -> bool {
    hand.contains(&c)
}

/// The archetype's answer: `line` is the current (unfinished) line of the
/// history (empty at the start of my turn), `legal` the legal answers,
/// `hand` my cards, `my_coins`/`opp_coins` as the arbiter passes them.
/// Always one of `legal` (the first one when `legal` offers nothing it wants).
pub fn answer(
    a: Archetype,
    line: &str,
    legal: &[String],
    hand: &[Character],
    my_coins: i64,
    opp_coins: i64,
) -> String {
    use Character::{Ambassador, Assassin, Captain, Contessa, Duke};
    let can = |x: Reply| legal.contains(&x.text());
    let pick = |prefs: &[Reply]| -> String {
        prefs
            .iter()
            .find(|&&p| can(p))
            .map(|p| p.text())
            .unwrap_or_else(|| {
                legal
                    .first()
                    .cloned()
                    .unwrap_or_else(|| Reply::EndTurn.text())
            })
    };
    // Give up a card: the first of `keep_last` reversed, i.e. the least wanted.
    let keep_order: &[Character] = match a {
        Archetype::AlwaysTax => &[Duke, Contessa, Captain, Assassin, Ambassador],
        Archetype::AlwaysSteal => &[Captain, Duke, Contessa, Assassin, Ambassador],
        Archetype::AlwaysAssassinate => &[Assassin, Contessa, Duke, Captain, Ambassador],
        _ => &[Duke, Contessa, Assassin, Captain, Ambassador],
    };
    let answers: Vec<Option<Reply>> = legal.iter().map(|l| Reply::parse(l)).collect();
    let give_up = || -> Option<String> {
        keep_order
            .iter()
            .rev()
            .filter(|&&c| has(hand, c))
            .find_map(|&c| {
                legal
                    .iter()
                    .zip(&answers)
                    .find(|(_, r)| r.and_then(Reply::given_up) == Some(c))
                    .map(|(l, _)| l.clone())
            })
    };
    if answers
        .iter()
        .all(|r| r.and_then(Reply::given_up).is_some())
    {
        return give_up().unwrap_or_else(|| pick(&[]));
    }
    let last = line.chars().last().and_then(Reply::from_code);
    let challenger = a == Archetype::ChallengeAll;
    let act = Reply::Act;
    if line.is_empty() {
        // My turn.
        let honest = |mut prefs: Vec<Reply>| {
            if has(hand, Assassin) && opp_coins >= 0 {
                prefs.push(act(Action::Assassinate));
            }
            if has(hand, Duke) {
                prefs.push(act(Action::Tax));
            }
            if has(hand, Captain) && opp_coins >= 2 {
                prefs.push(act(Action::Steal));
            }
            prefs.extend([act(Action::ForeignAid), act(Action::Income)]);
            pick(&prefs)
        };
        return match a {
            Archetype::AlwaysTax => pick(&[act(Action::Coup), act(Action::Tax)]),
            Archetype::AlwaysSteal => {
                pick(&[act(Action::Coup), act(Action::Steal), act(Action::Tax)])
            }
            Archetype::AlwaysAssassinate => pick(&[
                act(Action::Coup),
                act(Action::Assassinate),
                act(Action::Tax),
            ]),
            _ if my_coins >= Action::Coup.cost() => pick(&[act(Action::Coup)]),
            _ => honest(vec![]),
        };
    }
    // Challenged: prove the claim when I hold the card.
    if let Some((l, _)) = legal
        .iter()
        .zip(&answers)
        .find(|(_, r)| r.and_then(Reply::revealed).is_some())
    {
        return l.clone();
    }
    // Challenges.
    if challenger && can(Reply::Challenge) {
        return Reply::Challenge.text();
    }
    let block = |b: Block| pick(&[Reply::Block(b)]);
    let pass = || pick(&[Reply::Pass]);
    match last {
        Some(Reply::Act(Action::ForeignAid)) => match a {
            Archetype::BlockAll => block(Block::Duke),
            _ if has(hand, Duke) && a != Archetype::AlwaysTax => block(Block::Duke),
            _ => pass(),
        },
        Some(Reply::Act(Action::Steal)) => match a {
            Archetype::BlockAll | Archetype::AlwaysSteal => block(Block::Captain),
            Archetype::AlwaysTax => pass(),
            _ if has(hand, Captain) => block(Block::Captain),
            _ if has(hand, Ambassador) => block(Block::Ambassador),
            _ => pass(),
        },
        Some(Reply::Act(Action::Assassinate)) => match a {
            Archetype::BlockAll | Archetype::AlwaysAssassinate => block(Block::Contessa),
            _ if has(hand, Contessa) && a != Archetype::AlwaysTax => block(Block::Contessa),
            _ => give_up().unwrap_or_else(|| block(Block::Contessa)),
        },
        Some(Reply::Act(Action::Exchange | Action::Tax)) => pass(),
        Some(Reply::Block(_)) => pick(&[Reply::EndTurn]),
        _ => give_up().unwrap_or_else(|| pick(&[Reply::EndTurn, Reply::Pass])),
    }
}
