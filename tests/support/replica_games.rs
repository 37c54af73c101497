//! Games of the Calculator replica ([`cardgames::coup::replica`]) against
//! the other strategies under the in-process arbiter, for the tests that
//! read positions of its games (`tests/coup_replica.rs`,
//! `tests/coup_known.rs`).

use cardgames::coup::replica::decide;
use cardgames::coup::rules::{Call, Outcome, Table};
use cardgames::coup::{format_hand, Strategy};

/// Plays one game from the deal of `seed` (the original quirks on): the
/// replica in seat `rule_seat`, its state file (named `file`) carried
/// between its calls, against `other` in the other seat. Before each call
/// is answered, `visit` sees the table, the call and the replica's state
/// file as it stands. A forfeit fails the test.
pub fn play_replica_game(
    seed: u64,
    rule_seat: usize,
    other: Strategy,
    file: &str,
    mut visit: impl FnMut(&Table, &Call, &str),
) {
    let mut t = Table::new(seed, true);
    let mut state = String::new();
    while let Ok(call) = t.next_call() {
        visit(&t, &call, &state);
        let cards = format_hand(&call.cards);
        let (text, stdout) = if call.seat == rule_seat {
            let a = decide(
                &t.history,
                file,
                &state,
                call.opp_coins,
                call.my_coins,
                &cards,
                &call.legal,
            );
            state = a.state;
            (a.text, a.keep.unwrap_or_default())
        } else {
            let view = cardgames::coup::View::new(
                &t.history,
                call.opp_coins,
                call.my_coins,
                &cards,
                &call.legal,
            );
            let config = cardgames::coup::Config::of(other);
            let d = cardgames::coup::decide(&view, cardgames::coup::Remembered::Nothing, &config);
            (d.answer, d.exchange_keep.unwrap_or_default())
        };
        let new_text = format!("{}{}", t.history, text);
        match t.apply_file(&call, &new_text, &stdout) {
            None => {}
            Some(Outcome::Forfeit { reason, .. }) => panic!("seed {seed}: forfeit: {reason}"),
            Some(_) => break,
        }
    }
}
