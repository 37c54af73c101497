//! The arbiter's rules (`docs/rules/coup.md` and the arbiter's `get_legal_actions`,
//! `determine_turn_effects` and move loop): legal answers for every last
//! character, and coin / card bookkeeping across the spec's example lines.

use cardgames::coup::character::Character::{self, *};
use cardgames::coup::rules::{check_exchange, is_exchange_call, legal_answers, Outcome, Table};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn v(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// (last line, cards, my coins, opponent coins, expected legal answers)
type Case<'a> = (&'a str, &'a [Character], i64, i64, Vec<String>);

#[test]
fn legal_answers_for_every_last_character() {
    let dc = [Duke, Contessa];
    // (last line, cards, my coins, opponent coins, expected)
    let table: Vec<Case> = vec![
        // Start of a turn.
        ("", &dc, 1, 1, v(&["I\n", "F", "E", "T", "S"])),
        ("I\n", &dc, 2, 1, v(&["I\n", "F", "E", "T", "S"])),
        ("Fp\n", &dc, 3, 0, v(&["I\n", "F", "E", "T", "A"])),
        ("Tp\n", &dc, 7, 2, v(&["I\n", "F", "E", "T", "A", "C", "S"])),
        ("C=\n", &dc, 9, 2, v(&["I\n", "F", "E", "T", "A", "C", "S"])),
        ("I\n", &dc, 10, 2, v(&["C"])),
        ("I\n", &dc, 14, 0, v(&["C"])),
        // Opponent's action.
        ("F", &dc, 1, 1, v(&["d", "p"])),
        ("C", &dc, 1, 7, v(&["0", "="])),
        ("E", &dc, 1, 1, v(&["p", "q"])),
        ("T", &dc, 1, 1, v(&["p", "q"])),
        ("A", &dc, 1, 3, v(&["s", "q", "0", "="])),
        ("S", &dc, 2, 1, v(&["a", "c", "p", "q"])),
        // Opponent blocked my action.
        ("Fd", &dc, 1, 1, v(&["q", "\n"])),
        ("Sa", &dc, 1, 1, v(&["q", "\n"])),
        ("Sc", &dc, 1, 1, v(&["q", "\n"])),
        ("As", &dc, 3, 1, v(&["q", "\n"])),
        // Pass or a card given up: end the turn.
        ("Fp", &dc, 1, 1, v(&["\n"])),
        ("C=", &dc, 8, 1, v(&["\n"])),
        ("A_", &dc, 3, 1, v(&["\n"])),
        ("Tq'", &dc, 1, 1, v(&["\n"])),
        ("Fdq0", &dc, 1, 1, v(&["\n"])),
        ("Eq~<", &dc, 1, 1, v(&["\n"])),
        ("Sq<", &dc, 1, 1, v(&["\n"])),
        // `q` after an action: reveal if held, else give up a card AND end the turn.
        ("Tq", &dc, 1, 1, v(&["$"])),
        ("Tq", &[Captain, Contessa], 1, 1, v(&["<\n", "=\n"])),
        ("Sq", &[Captain], 1, 1, v(&["*"])),
        ("Eq", &[Ambassador, Duke], 1, 1, v(&["~"])),
        ("Eq", &[Assassin], 1, 1, v(&["'\n"])),
        ("Aq", &[Assassin, Duke], 3, 1, v(&["^"])),
        ("Aq", &[Duke, Duke], 3, 1, v(&["0\n", "0\n"])),
        // `q` after a block: reveal if held, else give up a card WITHOUT a newline.
        ("Fdq", &dc, 1, 1, v(&["$"])),
        ("Fdq", &[Captain, Contessa], 1, 1, v(&["<", "="])),
        ("Saq", &[Ambassador], 1, 1, v(&["~"])),
        ("Scq", &[Ambassador], 1, 1, v(&["_"])),
        ("Asq", &[Contessa], 1, 1, v(&["!"])),
        ("Asq", &[Duke, Captain], 1, 1, v(&["0", "<"])),
        // A proved claim: the challenger gives up a card; with a newline when
        // the challenger is the turn player (it challenged a block).
        ("Tq$", &dc, 1, 1, v(&["0", "="])),
        ("Sq*", &[Duke], 1, 1, v(&["0"])),
        ("Eq~", &dc, 1, 1, v(&["0", "="])),
        ("Aq^", &dc, 1, 1, v(&["0", "="])),
        ("Fdq$", &dc, 1, 1, v(&["0\n", "=\n"])),
        ("Saq~", &dc, 1, 1, v(&["0\n", "=\n"])),
        ("Scq*", &dc, 1, 1, v(&["0\n", "=\n"])),
        ("Asq!", &dc, 1, 1, v(&["0\n", "=\n"])),
    ];
    for (line, cards, mine, theirs, expected) in table {
        assert_eq!(
            legal_answers(line, cards, mine, theirs),
            Some(expected),
            "last line {line:?} cards {cards:?}"
        );
    }
    // Characters the arbiter never expects: it returns None and forfeits.
    for bad in ["x", "I", "Fz", "Fp9"] {
        assert_eq!(legal_answers(bad, &dc, 1, 1), None, "{bad:?}");
    }
}

#[test]
fn exchange_call_detection_and_check() {
    assert!(is_exchange_call("Ep"));
    assert!(is_exchange_call("Eq~<"));
    assert!(is_exchange_call("Eq~0"));
    assert!(!is_exchange_call("Eq'"), "caught bluffing: no exchange");
    assert!(!is_exchange_call("Ep\n"));
    assert!(!is_exchange_call("Tp"));
    assert!(!is_exchange_call("E"));
    let offered = [Duke, Assassin, Contessa, Duke];
    assert_eq!(
        check_exchange(&offered, "$^\n", 2),
        Some(vec![Duke, Assassin])
    );
    assert_eq!(check_exchange(&offered, "$$", 2), Some(vec![Duke, Duke]));
    assert_eq!(
        check_exchange(&offered, "^^", 2),
        None,
        "only one Assassin offered"
    );
    assert_eq!(check_exchange(&offered, "$", 2), None, "too few");
    assert_eq!(check_exchange(&offered, "$^!", 2), None, "too many");
    assert_eq!(check_exchange(&offered, "*$", 2), None, "not offered");
}

/// A table with a known deal: seat 0 holds `a`, seat 1 holds `b`, and the
/// deck is drawn from the end of `rest`.
fn table(a: [Character; 2], b: [Character; 2], rest: &[Character], coins: [i64; 2]) -> Table {
    let mut deck = rest.to_vec();
    deck.extend([b[1], b[0], a[1], a[0]]);
    Table::with_deck(deck, coins, false, ChaCha8Rng::seed_from_u64(7))
}

/// Plays `answers` (each with the stdout for its call) and returns the last outcome.
fn play(t: &mut Table, answers: &[(&str, &str)]) -> Option<Outcome> {
    let mut out = None;
    for (i, (a, stdout)) in answers.iter().enumerate() {
        assert!(out.is_none(), "game ended before answer {i}");
        let call = t.next_call().expect("a call");
        out = t.play(&call, a, stdout);
        assert!(
            !matches!(out, Some(Outcome::Forfeit { .. })),
            "answer {a:?} forfeited: {out:?}"
        );
    }
    out
}

fn total_cards(t: &Table, lost: usize) -> usize {
    t.deck().len() + t.cards(0).len() + t.cards(1).len() + lost
}

const REST: [Character; 11] = [
    Ambassador, Ambassador, Assassin, Assassin, Captain, Captain, Contessa, Contessa, Duke, Duke,
    Captain,
];

#[test]
fn income_foreign_aid_and_coup() {
    let mut t = table([Duke, Captain], [Contessa, Assassin], &REST, [1, 1]);
    assert_eq!(t.cards(0), vec![Duke, Captain]);
    play(&mut t, &[("I\n", "")]);
    assert_eq!((t.coins(0), t.coins(1)), (2, 1));
    play(&mut t, &[("F", ""), ("p", ""), ("\n", "")]);
    assert_eq!(t.history, "I\nFp\n");
    assert_eq!((t.coins(0), t.coins(1)), (2, 3));
    // A Foreign Aid blocked and the block accepted: no coins.
    play(&mut t, &[("F", ""), ("d", ""), ("\n", "")]);
    assert_eq!(t.coins(0), 2);
    // Seat 1's aid blocked by seat 0's real Duke, challenged: the challenger
    // (turn player) gives up a card with a newline; the Duke is replaced.
    play(
        &mut t,
        &[("F", ""), ("d", ""), ("q", ""), ("$", ""), ("=\n", "")],
    );
    assert_eq!(t.history.lines().last(), Some("Fdq$="));
    assert_eq!(t.coins(1), 3);
    assert_eq!(t.cards(1), vec![Assassin]);
    assert_eq!(t.cards(0).len(), 2);
    assert_eq!(
        t.cards(0)[0],
        Captain,
        "the Duke went back, a new card came last"
    );
    assert_eq!(total_cards(&t, 1), 15);
    // Seat 0's aid blocked by a bluffed Duke, caught: the blocker loses its
    // last card (no newline), the game ends.
    let out = play(&mut t, &[("F", ""), ("d", ""), ("q", ""), ("'", "")]);
    assert_eq!(out, Some(Outcome::Win { winner: 0 }));
    // Coup: 7 coins charged when the victim gives up the card; the victim loses.
    let mut t = table([Duke, Captain], [Contessa, Assassin], &REST, [7, 1]);
    let out = play(&mut t, &[("C", ""), ("=", ""), ("\n", "")]);
    assert_eq!(out, None);
    assert_eq!(t.history, "C=\n");
    assert_eq!(t.coins(0), 0);
    assert_eq!(t.cards(1), vec![Assassin]);
    assert_eq!(total_cards(&t, 1), 15);
}

#[test]
fn forced_coup_at_ten() {
    let mut t = table([Duke, Captain], [Contessa, Assassin], &REST, [10, 1]);
    let call = t.next_call().expect("call");
    assert_eq!(call.legal, vec!["C".to_string()]);
    assert!(matches!(
        t.play(&call, "I\n", ""),
        Some(Outcome::Forfeit { loser: 0, .. })
    ));
}

#[test]
fn exchange_challenged_ambassador_kept_then_four_cards() {
    // Spec example `Eq~<\n`.
    let mut t = table([Ambassador, Duke], [Captain, Contessa], &REST, [1, 1]);
    play(&mut t, &[("E", ""), ("q", ""), ("~", ""), ("<", "")]);
    assert_eq!(t.cards(1), vec![Contessa]);
    assert_eq!(
        t.cards(0),
        vec![Ambassador, Duke],
        "the revealed Ambassador is kept"
    );
    let call = t.next_call().expect("exchange call");
    assert!(call.exchange);
    assert_eq!(call.cards.len(), 4, "two drawn cards first, then the hand");
    assert_eq!(&call.cards[2..], &[Ambassador, Duke]);
    assert_eq!(call.legal, vec!["\n".to_string()]);
    let drawn = [call.cards[0], call.cards[1]];
    let keep = format!("{}{}", drawn[0].revealed(), Duke.revealed());
    assert_eq!(t.play(&call, "\n", &keep), None);
    assert_eq!(t.cards(0), vec![drawn[0], Duke]);
    assert_eq!(t.history, "Eq~<\n");
    assert_eq!(total_cards(&t, 1), 15);
    assert_eq!((t.coins(0), t.coins(1)), (1, 1));
}

#[test]
fn illegal_exchange_forfeits() {
    let mut t = table([Ambassador, Duke], [Captain, Contessa], &REST, [1, 1]);
    play(&mut t, &[("E", ""), ("p", "")]);
    let call = t.next_call().expect("exchange call");
    let out = t.play(&call, "\n", "$$$");
    assert!(
        matches!(out, Some(Outcome::Forfeit { loser: 0, .. })),
        "{out:?}"
    );
}

#[test]
fn tax_bluff_caught() {
    // Spec example `Tq'\n`.
    let mut t = table([Assassin, Captain], [Duke, Contessa], &REST, [1, 1]);
    play(&mut t, &[("T", ""), ("q", ""), ("'\n", "")]);
    assert_eq!(t.history, "Tq'\n");
    assert_eq!(t.coins(0), 1, "a caught Tax gives nothing");
    assert_eq!(t.cards(0), vec![Captain]);
    // An honest Tax challenged: the Duke is replaced, the challenger pays, the Tax stands.
    let mut t = table([Duke, Captain], [Ambassador, Contessa], &REST, [1, 1]);
    play(
        &mut t,
        &[("T", ""), ("q", ""), ("$", ""), ("_", ""), ("\n", "")],
    );
    assert_eq!(t.coins(0), 4);
    assert_eq!(t.cards(1), vec![Contessa]);
    assert_eq!(t.cards(0).len(), 2);
    assert_eq!(t.cards(0)[0], Captain);
    assert_eq!(total_cards(&t, 1), 15);
}

#[test]
fn assassination_contessa_block_upheld() {
    // Spec example `Asq!'\n`: the assassin loses Assassin and the 3 coins.
    let mut t = table([Assassin, Duke], [Contessa, Captain], &REST, [3, 1]);
    play(
        &mut t,
        &[("A", ""), ("s", ""), ("q", ""), ("!", ""), ("'\n", "")],
    );
    assert_eq!(t.history, "Asq!'\n");
    assert_eq!(t.coins(0), 0);
    assert_eq!(t.cards(0), vec![Duke]);
    assert_eq!(t.cards(1).len(), 2, "Contessa replaced");
    assert_eq!(total_cards(&t, 1), 15);
    // A Contessa block accepted: the 3 coins stay paid.
    let mut t = table([Assassin, Duke], [Contessa, Captain], &REST, [3, 1]);
    play(&mut t, &[("A", ""), ("s", ""), ("\n", "")]);
    assert_eq!(t.coins(0), 0);
    // Accepted assassination: coins charged when the card is given up.
    let mut t = table([Assassin, Duke], [Contessa, Captain], &REST, [4, 1]);
    play(&mut t, &[("A", ""), ("<", ""), ("\n", "")]);
    assert_eq!(t.coins(0), 1);
    assert_eq!(t.cards(1), vec![Contessa]);
    // A bluffed Assassinate caught: no coins charged.
    let mut t = table([Duke, Duke], [Contessa, Captain], &REST, [3, 1]);
    play(&mut t, &[("A", ""), ("q", ""), ("0\n", "")]);
    assert_eq!(t.coins(0), 3);
}

#[test]
fn double_loss_on_assassination() {
    // A failed challenge of a real Assassin: `Aq^X` loses the game at once.
    let mut t = table([Assassin, Duke], [Contessa, Captain], &REST, [3, 1]);
    let out = play(&mut t, &[("A", ""), ("q", ""), ("^", ""), ("<", "")]);
    assert_eq!(out, Some(Outcome::Win { winner: 0 }));
    // A Contessa bluff caught: `AsqX` also loses at once.
    let mut t = table([Assassin, Duke], [Duke, Captain], &REST, [3, 1]);
    let out = play(&mut t, &[("A", ""), ("s", ""), ("q", ""), ("0", "")]);
    assert_eq!(out, Some(Outcome::Win { winner: 0 }));
}

#[test]
fn steal_challenged_and_blocks() {
    // Spec example `Sq*0\n`.
    let mut t = table([Captain, Contessa], [Duke, Assassin], &REST, [1, 3]);
    play(
        &mut t,
        &[("S", ""), ("q", ""), ("*", ""), ("0", ""), ("\n", "")],
    );
    assert_eq!(t.history, "Sq*0\n");
    assert_eq!((t.coins(0), t.coins(1)), (3, 1));
    assert_eq!(t.cards(1), vec![Assassin]);
    // The victim takes Income (2 coins); a Steal then takes 2.
    play(&mut t, &[("I\n", ""), ("S", ""), ("p", ""), ("\n", "")]);
    assert_eq!((t.coins(0), t.coins(1)), (5, 0));
    // With the victim at 1: takes 1.
    let mut t = table([Captain, Contessa], [Duke, Assassin], &REST, [1, 1]);
    play(&mut t, &[("S", ""), ("p", ""), ("\n", "")]);
    assert_eq!((t.coins(0), t.coins(1)), (2, 0));
    // Steal not offered against 0 coins.
    let mut t = table([Captain, Contessa], [Duke, Assassin], &REST, [1, 0]);
    let call = t.next_call().expect("call");
    assert!(!call.legal.contains(&"S".to_string()));
    // An Ambassador block challenged and upheld: the Ambassador IS replaced.
    let mut t = table([Captain, Contessa], [Ambassador, Assassin], &REST, [1, 2]);
    play(
        &mut t,
        &[("S", ""), ("a", ""), ("q", ""), ("~", ""), ("=\n", "")],
    );
    assert_eq!(t.cards(0), vec![Captain]);
    assert_eq!(t.cards(1).len(), 2);
    assert_eq!(t.cards(1)[0], Assassin);
    assert_eq!(
        (t.coins(0), t.coins(1)),
        (1, 2),
        "the blocked steal takes nothing"
    );
    // A Captain block caught: the blocker loses a card and the steal goes through.
    let mut t = table([Captain, Contessa], [Duke, Assassin], &REST, [1, 2]);
    play(
        &mut t,
        &[("S", ""), ("c", ""), ("q", ""), ("0", ""), ("\n", "")],
    );
    assert_eq!((t.coins(0), t.coins(1)), (3, 0));
}

#[test]
fn losing_the_last_card_ends_the_game() {
    let mut t = table([Duke, Captain], [Contessa, Assassin], &REST, [7, 1]);
    play(&mut t, &[("C", ""), ("=", ""), ("\n", "")]);
    play(&mut t, &[("I\n", "")]);
    t.state.coins[0] = 7;
    let out = play(&mut t, &[("C", ""), ("'", "")]);
    assert_eq!(out, Some(Outcome::Win { winner: 0 }));
}

#[test]
fn draw_after_two_hundred_calls() {
    let mut t = Table::new(3, false);
    for _ in 0..200 {
        let call = t.next_call().expect("call");
        assert_eq!(t.play(&call, "I\n", ""), None);
        // Keep everyone under the forced Coup.
        t.state.coins[0] = 1;
        t.state.coins[1] = 1;
    }
    assert_eq!(t.next_call().err(), Some(Outcome::Draw));
}

#[test]
fn quirk_first_turn_list_and_lax_append() {
    let mut t = Table::new(3, true);
    t.state.coins[1] = 0;
    let call = t.next_call().expect("call");
    assert_eq!(call.legal, vec!["I\n", "F", "E", "S", "T"]);
    // The original accepts any text of one or two characters whose line ends with a legal answer.
    assert_eq!(t.apply_file(&call, "xT", ""), None);
    let mut strict = Table::new(3, false);
    let call = strict.next_call().expect("call");
    assert!(matches!(
        strict.apply_file(&call, "xT", ""),
        Some(Outcome::Forfeit { .. })
    ));
}

/// The history reader's count of calls (`history::calls_made`) against the
/// table's own counter (one per call, as the arbiter's move loop) over
/// random legal games, every Exchange keeping the first cards offered.
/// Each game also gets a stray card before one newline that ends a turn,
/// as the real Calculator writes (`Scq'=\n`): no extra call.
#[test]
fn calls_made_counts_every_call_of_random_games() {
    use cardgames::coup::history::calls_made;
    use cardgames::coup::rules::last_line;
    use rand::RngExt;
    let mut rng = ChaCha8Rng::seed_from_u64(13);
    let mut checked = 0;
    for game in 0..300u64 {
        let mut t = Table::new(game, true);
        let mut stray = false;
        loop {
            assert_eq!(calls_made(&t.history), t.calls(), "history {:?}", t.history);
            checked += 1;
            let Ok(call) = t.next_call() else { break };
            let a = call.legal[rng.random_range(0..call.legal.len())].clone();
            let keep = if call.exchange {
                let n = call.cards.len() - 2;
                call.cards[..n].iter().map(|c| c.revealed()).collect()
            } else {
                String::new()
            };
            // A stray card before an end-of-turn newline (quirk mode accepts it).
            let text = if a == "\n" && !stray && last_line(&t.history).len() >= 3 {
                stray = true;
                format!("{}={a}", t.history)
            } else {
                format!("{}{a}", t.history)
            };
            if t.apply_file(&call, &text, &keep).is_some() {
                break;
            }
        }
        assert_eq!(calls_made(&t.history), t.calls());
    }
    assert!(checked > 3000, "{checked} positions checked");
}
