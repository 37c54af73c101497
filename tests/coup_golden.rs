//! Behaviour lock for the Coup bots: every strategy's answer on a fixed set of
//! reachable positions (games played by the engine from fixed seeds) is hashed
//! and compared with the hash the code gave before the protocol/bot.rs refactor
//! of issue 13. A refactor that changes any answer changes the hash; set
//! `COUP_GOLDEN_DUMP=<file>` to write every answer for a diff.

use cardgames::coup::rules::{Outcome, Table};
use cardgames::coup::{decide, format_hand, Strategy};
use std::fmt::Write as _;

/// Games played; each seat's strategy and the seed follow from the game index.
const GAMES: u64 = 200;
/// Calls per game at most.
const STEPS: usize = 80;

/// FNV-1a, 64 bits.
fn fnv(h: &mut u64, bytes: &[u8]) {
    for &b in bytes {
        *h ^= u64::from(b);
        *h = h.wrapping_mul(0x100_0000_01b3);
    }
}

/// (hash of all answers, number of positions, dump text).
fn golden() -> (u64, usize, String) {
    let n = Strategy::ALL.len() as u64;
    let mut h = 0xcbf2_9ce4_8422_2325u64;
    let mut positions = 0;
    let mut dump = String::new();
    for g in 0..GAMES {
        let seats = [
            Strategy::ALL[(g % n) as usize].0,
            Strategy::ALL[((g / n + g) % n) as usize].0,
        ];
        let mut t = Table::new(0x5eed_0000 + g, g % 2 == 1);
        for _ in 0..STEPS {
            let Ok(call) = t.next_call() else { break };
            positions += 1;
            let cards = format_hand(&call.cards);
            let mut chosen = None;
            for (s, name) in Strategy::ALL.iter() {
                let d = decide(
                    *s,
                    &t.history,
                    call.opp_coins,
                    call.my_coins,
                    &cards,
                    &call.legal,
                );
                let line = format!(
                    "{g} {positions} {name} {:?} {:?}\n",
                    d.answer, d.exchange_keep
                );
                fnv(&mut h, line.as_bytes());
                dump.push_str(&line);
                if *s == seats[call.seat] {
                    chosen = Some(d);
                }
            }
            let d = chosen.expect("seat strategy is in ALL");
            match t.play(&call, &d.answer, d.exchange_keep.as_deref().unwrap_or("")) {
                None => {}
                Some(Outcome::Forfeit { reason, .. }) => panic!("forfeit: {reason}"),
                Some(_) => break,
            }
        }
        let _ = writeln!(dump, "end {g}");
    }
    (h, positions, dump)
}

#[test]
fn every_strategy_answers_as_before_the_refactor() {
    let (h, positions, dump) = golden();
    if let Ok(path) = std::env::var("COUP_GOLDEN_DUMP") {
        std::fs::write(&path, &dump).expect("write dump");
    }
    eprintln!("{positions} positions, hash {h:#018x}");
    assert!(positions > 1000, "only {positions} positions");
    assert_eq!(h, GOLDEN, "answers changed ({positions} positions)");
}

/// The hash of the answers before the refactor (commit e3cc854).
const GOLDEN: u64 = 0x59d9_db77_a464_0435;
