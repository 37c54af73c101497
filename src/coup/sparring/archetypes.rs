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
    let can = |x: &str| legal.iter().any(|l| l == x);
    let pick = |prefs: &[&str]| -> String {
        prefs
            .iter()
            .find(|p| can(p))
            .map(|p| p.to_string())
            .unwrap_or_else(|| legal.first().cloned().unwrap_or_else(|| "\n".into()))
    };
    // Give up a card: the first of `keep_last` reversed, i.e. the least wanted.
    let keep_order: &[Character] = match a {
        Archetype::AlwaysTax => &[Duke, Contessa, Captain, Assassin, Ambassador],
        Archetype::AlwaysSteal => &[Captain, Duke, Contessa, Assassin, Ambassador],
        Archetype::AlwaysAssassinate => &[Assassin, Contessa, Duke, Captain, Ambassador],
        _ => &[Duke, Contessa, Assassin, Captain, Ambassador],
    };
    let give_up = || -> Option<String> {
        keep_order.iter().rev().find_map(|c| {
            legal
                .iter()
                .find(|l| l.starts_with(c.held()) && has(hand, *c))
                .cloned()
        })
    };
    if legal.iter().all(|l| {
        l.chars()
            .next()
            .is_some_and(|c| Character::from_held(c).is_some())
    }) {
        return give_up().unwrap_or_else(|| pick(&[]));
    }
    let last = line.chars().last().unwrap_or('\n');
    let challenger = a == Archetype::ChallengeAll;
    if line.is_empty() {
        // My turn.
        let honest = |mut prefs: Vec<&'static str>| {
            if has(hand, Assassin) && opp_coins >= 0 {
                prefs.push("A");
            }
            if has(hand, Duke) {
                prefs.push("T");
            }
            if has(hand, Captain) && opp_coins >= 2 {
                prefs.push("S");
            }
            prefs.extend(["F", "I\n"]);
            pick(&prefs)
        };
        return match a {
            Archetype::AlwaysTax => pick(&["C", "T"]),
            Archetype::AlwaysSteal => pick(&["C", "S", "T"]),
            Archetype::AlwaysAssassinate => pick(&["C", "A", "T"]),
            _ if my_coins >= 7 => pick(&["C"]),
            _ => honest(vec![]),
        };
    }
    // Challenged: prove the claim when I hold the card.
    if let Some(r) = legal.iter().find(|l| {
        l.chars()
            .next()
            .is_some_and(|c| Character::from_revealed(c).is_some())
    }) {
        return r.clone();
    }
    // Challenges.
    if challenger && can("q") {
        return "q".into();
    }
    match last {
        'F' => match a {
            Archetype::BlockAll => pick(&["d"]),
            _ if has(hand, Duke) && a != Archetype::AlwaysTax => pick(&["d"]),
            _ => pick(&["p"]),
        },
        'S' => match a {
            Archetype::BlockAll | Archetype::AlwaysSteal => pick(&["c"]),
            Archetype::AlwaysTax => pick(&["p"]),
            _ if has(hand, Captain) => pick(&["c"]),
            _ if has(hand, Ambassador) => pick(&["a"]),
            _ => pick(&["p"]),
        },
        'A' => match a {
            Archetype::BlockAll | Archetype::AlwaysAssassinate => pick(&["s"]),
            _ if has(hand, Contessa) && a != Archetype::AlwaysTax => pick(&["s"]),
            _ => give_up().unwrap_or_else(|| pick(&["s"])),
        },
        'E' | 'T' => pick(&["p"]),
        'a' | 'c' | 'd' | 's' => pick(&["\n"]),
        _ => give_up().unwrap_or_else(|| pick(&["\n", "p"])),
    }
}
