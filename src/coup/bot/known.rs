//! Identification of a known policy: the contest winner's decision rule
//! ([`crate::coup::sparring::replica`], `docs/rules/coup.md` §7), tested
//! against the opponent's answers of this game.
//!
//! The rule is deterministic given its cards, coins, the history and its
//! flags, so the history fixes which of its possible hands could have made
//! the answers seen: [`replica_particles`] runs an exact filter over the
//! opponent's hidden hand from the deal on. Each particle is a hand and the
//! rule's flags, weighed by the chance of its draws (the deal, the card
//! drawn after each proved claim, the two drawn at each Exchange), from the
//! counts of the cards I cannot see. At each of the opponent's calls with a
//! choice, the particles whose rule would have answered otherwise are
//! dropped. What survives is the posterior over its hand *if* it plays by
//! that rule; an empty set rules the rule out for this game.
//!
//! The search (`bot/determinized.rs`) plays the opponent by the rule in a
//! share of its worlds, the posterior probability of the rule
//! ([`Identified::log_odds`] with [`super::SearchConfig::known_prior`] and
//! the memory's [`super::opponent::Stats::replica`]).

use std::collections::BTreeMap;

use crate::coup::game::character::Character;
use crate::coup::game::history::{calls_made, History};
use crate::coup::game::protocol::{Action, Reply, LINE_END};
use crate::coup::game::rules::{is_exchange_call, legal_answers};
use crate::coup::sparring::replica::{decide_call, Call, Flags};

/// One hypothesis about the opponent: its hand now, the rule's flags, and
/// the probability of the draws that led there (unnormalised).
#[derive(Debug, Clone, PartialEq)]
pub struct Particle {
    /// Its cards now (sorted by [`Character::index`]).
    pub hand: Vec<Character>,
    /// The rule's flags now.
    pub flags: Flags,
    /// Weight (the draws' probability, up to a common factor).
    pub weight: f64,
}

/// The filter's result for a history.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Identified {
    /// The hypotheses that explain every answer (weights sum to 1); empty
    /// when none does.
    pub particles: Vec<Particle>,
    /// The opponent's calls with more than one legal answer.
    pub choices: usize,
    /// Natural log of the evidence for the rule against a player who picks
    /// uniformly among its legal answers: the sum over its calls with a
    /// choice of `ln(number of answers)`, plus the log of the surviving
    /// share of the prior mass. `-inf` when ruled out.
    pub log_odds: f64,
    /// The lines of the history holding a given-up card, and the history's
    /// line count (the rule's inputs beyond the last line).
    pub lossy_lines: i64,
    /// The history's line count as the rule counts it.
    pub turn: usize,
}

/// Weight of drawing each character: the cards I cannot see, plus a floor
/// so that a card my view counts out (my own earlier hands are not in the
/// history) never makes a true hypothesis impossible.
fn draw_weights(unseen: &[u32; 5]) -> [f64; 5] {
    unseen.map(|u| f64::from(u) + 0.1)
}

/// Probability of drawing `a` then `b`, two cards without replacement, by
/// the draw weights `w` (summing to `total`): the second draw's weight is
/// one less when it repeats the first, floored at 0.05. The deal and an
/// Exchange's two draws both weigh a pair by it.
fn pair_weight(w: &[f64; 5], total: f64, a: Character, b: Character) -> f64 {
    w[a.index()] / total * (w[b.index()] - f64::from(a == b)).max(0.05) / (total - 1.0)
}

fn sorted(mut hand: Vec<Character>) -> Vec<Character> {
    hand.sort_by_key(|c| c.index());
    hand
}

fn codes(hand: &[Character]) -> String {
    hand.iter().map(|c| c.revealed()).collect()
}

/// The history's calls in order: each call's text and its byte offset.
///
/// A call starts at each character where [`calls_made`] of the text up to
/// and including it exceeds the count at the last call's start. That count
/// is a sum over lines: [`calls_made`] of each complete line (with its
/// newline), plus one per character of the unfinished last line. So it is
/// kept as the text is read, each complete line counted once.
fn calls(text: &str) -> Vec<(usize, String)> {
    // The complete lines' calls, where the unfinished line begins, and its
    // characters so far.
    let mut complete = 0;
    let mut line_start = 0;
    let mut partial = 0;
    split_calls(text, |i, ch| {
        let end = i + ch.len_utf8();
        if ch == LINE_END {
            complete += calls_made(&text[line_start..end]);
            line_start = end;
            partial = 0;
        } else {
            partial += 1;
        }
        // `calls_made(&text[..end])`.
        complete + partial
    })
}

/// `text` cut into calls: each character `ch` at byte `i`, in order, is given
/// `made(i, ch)`, the calls made by the text up to and including it; a call
/// starts where that count exceeds the count at the last call's start.
fn split_calls(text: &str, mut made: impl FnMut(usize, char) -> usize) -> Vec<(usize, String)> {
    let mut out: Vec<(usize, String)> = Vec::new();
    let mut last = 0;
    for (i, ch) in text.char_indices() {
        let now = made(i, ch);
        if now > last || out.is_empty() {
            out.push((i, ch.to_string()));
            last = now;
        } else if let Some(call) = out.last_mut() {
            call.1.push(ch);
        }
    }
    out
}

/// The filter over the rule's hands for `text` (the history so far) read by
/// the player to call now, with `unseen` its counts of the cards it cannot
/// see ([`super::model::unseen`]). Coins at each call are the turn's
/// starting coins, replayed from a fresh start.
pub fn replica_particles(text: &str, unseen: &[u32; 5]) -> Identified {
    let w = draw_weights(unseen);
    let total: f64 = w.iter().sum();
    let me = calls_made(text) % 2;
    let opp = 1 - me;
    // The deal: every pair, by the draw weights.
    let mut particles: BTreeMap<(Vec<Character>, Vec<char>), f64> = BTreeMap::new();
    for a in Character::ALL {
        for b in Character::ALL {
            let p = pair_weight(&w, total, a, b);
            *particles
                .entry((sorted(vec![a, b]), Vec::new()))
                .or_insert(0.0) += p;
        }
    }
    let replayed = History::parse(text).map(|h| h.replay()).unwrap_or_default();
    let mut turn = 0usize;
    let mut lossy_lines = 0i64;
    let mut line = String::new();
    let mut prev = String::new();
    let mut line_lossy = false;
    let mut choices = 0usize;
    let mut log_odds = 0.0;
    for (k, (_, call)) in calls(text).into_iter().enumerate() {
        let seat = k % 2;
        if line.ends_with(LINE_END) {
            prev = std::mem::take(&mut line);
        }
        if seat == opp {
            // Coins at the turn's start: [mine, its] as the reader sees them.
            let t = turn - usize::from(!line.is_empty());
            let (c, _) = replayed.get(t).copied().unwrap_or(([1, 1], [2, 2]));
            let (my_coins, its_coins) = (c[0], c[1]);
            // The last line as the arbiter and the rule read it.
            let seen: &str = if !line.is_empty() {
                &line
            } else if turn == 0 {
                ""
            } else {
                &prev
            };
            let rule_seen: &str = if turn == 0 { "\n" } else { seen };
            let exchange = is_exchange_call(&line);
            let mut next: BTreeMap<(Vec<Character>, Vec<char>), f64> = BTreeMap::new();
            let observed = Reply::parse(&call);
            let mut choice = false;
            for ((hand, flags), weight) in &particles {
                let flags: Flags = flags.iter().copied().collect();
                let legal = legal_answers(seen, hand, its_coins, my_coins).unwrap_or_default();
                // The rule's call with `cards` (revealed codes) in hand, its
                // flags `f` updated: its answer and, on an Exchange, the
                // cards it keeps. Coins are passed from its side.
                let rule = |cards: &str, f: &mut Flags| {
                    let c = Call {
                        line: rule_seen,
                        turn,
                        lossy_lines,
                        opp_coins: my_coins,
                        my_coins: its_coins,
                        cards,
                        legal: &legal,
                    };
                    decide_call(&c, f)
                };
                if exchange {
                    for a in Character::ALL {
                        for b in Character::ALL {
                            let p = pair_weight(&w, total, a, b);
                            let mut offered = vec![a, b];
                            offered.extend_from_slice(hand);
                            let cards = codes(&offered);
                            let mut f = flags.clone();
                            let (_, keep) = rule(&cards, &mut f);
                            let kept = kept_hand(&offered, keep.as_deref(), hand.len());
                            *next
                                .entry((sorted(kept), f.into_iter().collect()))
                                .or_insert(0.0) += weight * p;
                        }
                    }
                    continue;
                }
                let mut f = flags.clone();
                let (answer, _) = rule(&codes(hand), &mut f);
                if legal.len() > 1 {
                    choice = true;
                    if answer != call {
                        continue;
                    }
                }
                let mut hand = hand.clone();
                // A card written before the turn's closing newline where
                // only the newline is legal is not given up: the arbiter
                // reads past it (the rule does so after a lost challenge of
                // a bluffed block, `docs/rules/coup.md` §6.5).
                let stray = legal.len() == 1 && legal[0] == Reply::EndTurn.text();
                match observed.filter(|_| !stray) {
                    Some(Reply::GiveUp(x) | Reply::GiveUpEnd(x)) => {
                        if let Some(i) = hand.iter().position(|&h| h == x) {
                            hand.remove(i);
                        } else {
                            continue;
                        }
                        *next.entry((hand, f.into_iter().collect())).or_insert(0.0) += weight;
                    }
                    Some(Reply::Reveal(x)) => {
                        let Some(i) = hand.iter().position(|&h| h == x) else {
                            continue;
                        };
                        let kept_for_exchange =
                            x == Character::Ambassador && line.starts_with(Action::Exchange.code());
                        if kept_for_exchange {
                            *next.entry((hand, f.into_iter().collect())).or_insert(0.0) += weight;
                            continue;
                        }
                        hand.remove(i);
                        let fv: Vec<char> = f.into_iter().collect();
                        for d in Character::ALL {
                            let p = w[d.index()] / total;
                            let mut h = hand.clone();
                            h.push(d);
                            *next.entry((sorted(h), fv.clone())).or_insert(0.0) += weight * p;
                        }
                    }
                    _ => {
                        *next.entry((hand, f.into_iter().collect())).or_insert(0.0) += weight;
                    }
                }
            }
            if choice {
                choices += 1;
                let before: f64 = particles.values().sum();
                let after: f64 = next.values().sum();
                let n = legal_count(seen, &particles, its_coins, my_coins);
                log_odds += (n as f64).ln() + (after / before.max(f64::MIN_POSITIVE)).ln();
            }
            particles = next;
            if particles.is_empty() {
                return Identified {
                    choices,
                    log_odds: f64::NEG_INFINITY,
                    lossy_lines,
                    turn,
                    ..Identified::default()
                };
            }
        }
        // The call's text joins the line.
        if line.is_empty() {
            turn += 1;
            line_lossy = false;
        }
        let given_up = Reply::parse(&call).and_then(|r| r.given_up()).is_some();
        if given_up && !line_lossy {
            lossy_lines += 1;
            line_lossy = true;
        }
        line.push_str(&call);
    }
    let sum: f64 = particles.values().sum();
    Identified {
        particles: particles
            .into_iter()
            .map(|((hand, flags), weight)| Particle {
                hand,
                flags: flags.into_iter().collect(),
                weight: weight / sum,
            })
            .collect(),
        choices,
        log_odds,
        lossy_lines,
        turn,
    }
}

/// The number of legal answers at a call (the same for every hypothesis
/// but for a reveal: the first particle's list).
fn legal_count(
    line: &str,
    particles: &BTreeMap<(Vec<Character>, Vec<char>), f64>,
    my: i64,
    opp: i64,
) -> usize {
    particles
        .keys()
        .next()
        .and_then(|(hand, _)| legal_answers(line, hand, my, opp))
        .map_or(1, |l| l.len())
}

/// The hand kept from `offered` by the rule's `keep` text, filled from the
/// offer's end when the text is short (the original shuffles then).
fn kept_hand(offered: &[Character], keep: Option<&str>, size: usize) -> Vec<Character> {
    let mut pool = offered.to_vec();
    let mut out = Vec::new();
    for c in keep
        .unwrap_or("")
        .chars()
        .filter_map(Character::from_revealed)
    {
        if out.len() < size {
            if let Some(i) = pool.iter().position(|&p| p == c) {
                out.push(pool.remove(i));
            }
        }
    }
    while out.len() < size {
        match pool.pop() {
            Some(c) => out.push(c),
            None => break,
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`calls`] as first written: [`calls_made`] of every prefix.
    fn calls_by_prefix(text: &str) -> Vec<(usize, String)> {
        split_calls(text, |i, ch| calls_made(&text[..i + ch.len_utf8()]))
    }

    /// The running count splits the history as the count of every prefix
    /// does, on lines the arbiter writes and on stray text after a line's
    /// events (where the count drops at the newline).
    #[test]
    fn calls_match_the_count_of_every_prefix() {
        for text in [
            "",
            "T",
            "I\n",
            "I\nI\nT",
            "Tp\nFd",
            "Fd\n",
            "Tq'\nTp\nA",
            "Tp\nScq'=\nTp\n",
            "Tp\nTp\nA0\nE",
            "IX\nT",
            "IXY\nTp\nS",
            "TpXY\nI\nS",
            "EpXX\nTp\n",
            "\n\nT\n",
            "Tpé\nI\n",
        ] {
            assert_eq!(calls(text), calls_by_prefix(text), "{text:?}");
        }
    }
}
