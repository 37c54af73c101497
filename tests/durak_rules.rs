//! Rules of 2 vs 2 Durak (`docs/rules/durak.md` §2 and the readings of §4).

use cardgames::durak::cards::{beats, CardSet};
use cardgames::durak::{Answer, Event, Game, Pending};
use cardgames::{Card, Notation, Suit};

fn c(text: &str) -> Card {
    Card::parse(text, Notation::Durak).unwrap()
}

fn set(text: &str) -> CardSet {
    text.split_whitespace().map(c).collect()
}

fn play(game: &mut Game, answer: &str) -> Vec<Event> {
    let mut events = Vec::new();
    let a = if answer == "NO" {
        Answer::No
    } else {
        Answer::Card(c(answer))
    };
    game.apply(a, &mut events).unwrap();
    events
}

/// A talon written in drawing order (the engine draws from the end).
fn talon(text: &str) -> Vec<Card> {
    let mut v: Vec<Card> = text.split_whitespace().map(c).collect();
    v.reverse();
    v
}

#[test]
fn beating_same_suit_higher_or_trump_over_plain_and_trump_only_by_higher_trump() {
    let t = Suit::Spades;
    assert!(beats(c("6D"), c("7D"), t));
    assert!(!beats(c("7D"), c("6D"), t));
    assert!(!beats(c("6D"), c("AH"), t));
    assert!(beats(c("AD"), c("6S"), t));
    assert!(!beats(c("7S"), c("AD"), t));
    assert!(!beats(c("7S"), c("6S"), t));
    assert!(beats(c("7S"), c("8S"), t));
    // The engine refuses a wrong beat and leaves the state unchanged.
    let mut g = Game::from_parts(
        t,
        [set("6D 7D"), set("AH 6S 8D"), set("9D"), set("9H")],
        vec![],
        0,
    );
    play(&mut g, "7D");
    let before = g.clone();
    assert!(g.apply(Answer::Card(c("AH")), &mut Vec::new()).is_err());
    assert!(
        g.apply(Answer::Card(c("9D")), &mut Vec::new()).is_err(),
        "not in hand"
    );
    assert_eq!(g, before);
    assert!(g.apply(Answer::Card(c("8D")), &mut Vec::new()).is_ok());
    let mut g = Game::from_parts(
        t,
        [set("6D 7D"), set("AH 6S 8D"), set("9D"), set("9H")],
        vec![],
        0,
    );
    assert!(
        g.apply(Answer::No, &mut Vec::new()).is_err(),
        "NO is not a move"
    );
}

#[test]
fn round_limit_is_min_six_and_defenders_cards_at_the_start() {
    // Defender (1) holds 2 cards: only 2 attack cards may go under him.
    let mut g = Game::from_parts(
        Suit::Hearts,
        [set("6D 6C 6S"), set("7D 7C"), set("9S"), set("9H")],
        vec![],
        0,
    );
    play(&mut g, "6D");
    play(&mut g, "7D");
    assert_eq!(g.pending, Pending::Add(0));
    play(&mut g, "6C");
    play(&mut g, "7C");
    // Player 0 still holds 6S (rank on the table) but the limit (2) is reached.
    assert!(g.throwable(0).is_empty());
    // Player 1 beat with his last card and left; he beat off, so his seat moves next,
    // played by his partner 3.
    assert!(g.out[1] && !g.is_over());
    assert_eq!(g.pending, Pending::Move(3));
    // With six or more cards the cap is six, also after a take.
    let mut g = Game::from_parts(
        Suit::Hearts,
        [
            set("6D 6C 6S 6H 7C 7S 7H 8S"),
            set("7D 9C TC JC QC KC AC 9D"),
            set("8D 8C"),
            set("AH"),
        ],
        vec![],
        0,
    );
    play(&mut g, "6D");
    play(&mut g, "7D");
    play(&mut g, "6C");
    play(&mut g, "NO");
    for card in ["6S", "7C", "7S", "6H"] {
        assert_eq!(g.pending, Pending::Add(0));
        let before = g.clone();
        assert!(
            g.apply(Answer::Card(c("8S")), &mut Vec::new()).is_err(),
            "rank 8 is not on the table"
        );
        assert_eq!(g, before);
        play(&mut g, card);
    }
    // Six attack cards: 7H (rank on the table) may not follow; the round is over.
    assert!(matches!(g.pending, Pending::Move(_)));
    assert!(g.hands[0].contains(c("7H")));
    assert_eq!(g.hands[1].len(), 7 + 7);
}

#[test]
fn throw_in_order_attacker_first_then_partner_never_defenders_team() {
    let mut g = Game::from_parts(
        Suit::Hearts,
        [set("6D 7S 8S"), set("7D 6C 9S"), set("6S 8C"), set("6H 7C")],
        talon("AS AC"),
        0,
    );
    play(&mut g, "6D");
    play(&mut g, "7D");
    assert_eq!(g.pending, Pending::Add(0), "the attacker is asked first");
    play(&mut g, "NO");
    assert_eq!(g.pending, Pending::Add(2), "then his partner");
    play(&mut g, "6S");
    assert_eq!(g.pending, Pending::Beat(1));
    play(&mut g, "NO");
    assert_eq!(
        g.pending,
        Pending::Add(0),
        "after a take the attacker is asked first again"
    );
    play(&mut g, "NO");
    // Player 2 has nothing eligible; player 3 holds 6H and 7C (ranks on the table) but is on
    // the defender's team: never asked. The round is over.
    assert!(matches!(g.pending, Pending::Move(_)));
    // If the attacker holds nothing eligible, the partner is asked directly.
    let mut g = Game::from_parts(
        Suit::Hearts,
        [set("6D 8S"), set("7D 9S"), set("6S 8C"), set("6H")],
        vec![],
        0,
    );
    play(&mut g, "6D");
    play(&mut g, "7D");
    assert_eq!(g.pending, Pending::Add(2));
}
#[test]
fn drawing_starts_with_the_first_attacker_then_counter_clockwise() {
    let hands = [
        set("6D 7D 8D 9D TD JD"),
        set("6S 7S 8S 9S TS JS"),
        set("6C 8H 9C TC JC QC"),
        set("7C KD KS KC AD AS"),
    ];
    for (talon_text, expected) in [
        ("AH AC QH QS QD KH", vec![2, 0, 0, 3, 3, 3]),
        ("AH AC", vec![2, 0]),
    ] {
        let mut g = Game::from_parts(Suit::Hearts, hands, talon(talon_text), 2);
        assert_eq!(g.pending, Pending::Move(2));
        let mut events = play(&mut g, "6C");
        events.extend(play(&mut g, "7C"));
        assert_eq!(
            g.pending,
            Pending::Add(0),
            "2 has no 6 or 7; his partner 0 does"
        );
        events.extend(play(&mut g, "6D"));
        events.extend(play(&mut g, "KD"));
        events.extend(play(&mut g, "7D"));
        events.extend(play(&mut g, "AD"));
        let drawers: Vec<usize> = events
            .iter()
            .filter_map(|e| match e {
                Event::Give { player, .. } => Some(*player),
                _ => None,
            })
            .collect();
        assert_eq!(drawers, expected);
        assert_eq!(
            g.pending,
            Pending::Move(3),
            "the defender beat off and moves next"
        );
        let total: usize = g.hands.iter().map(|h| h.len()).sum::<usize>() + g.talon.len();
        assert_eq!(
            total,
            24 + talon_text.split_whitespace().count() - 6,
            "cards are conserved"
        );
    }
}

#[test]
fn a_take_passes_the_move_to_the_seat_after_the_defender() {
    let mut g = Game::from_parts(
        Suit::Hearts,
        [set("6D 9S"), set("7C 8C"), set("TS"), set("JS")],
        vec![],
        0,
    );
    play(&mut g, "6D");
    play(&mut g, "NO");
    assert_eq!(g.pending, Pending::Move(2));
    assert_eq!(g.hands[1], set("7C 8C 6D"));
}

#[test]
fn going_out_mid_round_and_the_partner_becomes_first_thrower() {
    // Talon empty: 0 leads his last card and leaves at once; 2 throws in instead.
    let mut g = Game::from_parts(
        Suit::Hearts,
        [set("6D"), set("7D 9C 9S"), set("7S TS"), set("8S")],
        vec![],
        0,
    );
    let events = play(&mut g, "6D");
    assert_eq!(
        events,
        vec![
            Event::Move {
                by: 0,
                under: 1,
                card: c("6D")
            },
            Event::Out { player: 0 }
        ]
    );
    assert!(g.out[0]);
    assert_eq!(g.pending, Pending::Beat(1));
    play(&mut g, "7D");
    assert_eq!(g.pending, Pending::Add(2));
    play(&mut g, "7S");
    play(&mut g, "NO");
    // 1 took: the next seat is 2, played by its owner.
    assert_eq!(g.pending, Pending::Move(2));
}

#[test]
fn substitution_partner_defends_and_attacks_for_an_out_seat() {
    // Player 0 is out (empty hand, empty talon). Seat 3 attacks "under seat 0": player 2 defends.
    let mut g = Game::from_parts(
        Suit::Hearts,
        [CardSet::EMPTY, set("9C"), set("7D 8S"), set("6D 6S")],
        vec![],
        3,
    );
    assert!(g.out[0]);
    assert_eq!(g.pending, Pending::Move(3));
    let events = play(&mut g, "6D");
    assert_eq!(
        events,
        vec![Event::Move {
            by: 3,
            under: 2,
            card: c("6D")
        }]
    );
    assert_eq!(g.pending, Pending::Beat(2));
    play(&mut g, "7D");
    // 3 has 6S (rank 6 on the table): asked; the defender's team never.
    assert_eq!(g.pending, Pending::Add(3));
    play(&mut g, "NO");
    // Beaten off: seat 0 moves next, played by player 2, under seat 1.
    assert_eq!(g.pending, Pending::Move(2));
    let events = play(&mut g, "8S");
    assert_eq!(
        events,
        vec![
            Event::Move {
                by: 2,
                under: 1,
                card: c("8S")
            },
            Event::Out { player: 2 }
        ]
    );
    // Both 0 and 2 are out: team 0 wins at once.
    assert_eq!(g.pending, Pending::Over(Some(0)));
    assert_eq!(g.winner(), Some(0));
}

#[test]
fn team_win_needs_both_partners_out() {
    let mut g = Game::from_parts(
        Suit::Hearts,
        [set("6D"), set("7C 8C"), set("AS 6C"), set("8D")],
        vec![],
        0,
    );
    play(&mut g, "6D"); // 0 out, 2 still holds cards
    assert!(!g.is_over());
    play(&mut g, "NO");
    assert!(!g.is_over());
    assert_eq!(
        g.pending,
        Pending::Add(2),
        "2 holds 6C, the rank on the table"
    );
    play(&mut g, "6C");
    // The limit (1 held two cards) is reached. 1 took 6D and 6C; next seat is 2 (not out), who leads AS and leaves: team 0 wins.
    assert_eq!(g.pending, Pending::Move(2));
    play(&mut g, "AS");
    assert_eq!(g.winner(), Some(0));
}

#[test]
fn is_legal_agrees_with_the_listed_answers() {
    // Every card and NO, at every decision of 100 games played through varied legal answers.
    let mut checked = 0;
    for seed in 0..100u64 {
        let (mut g, _) = Game::new(seed);
        let mut events = Vec::new();
        let mut i = 0usize;
        while !g.is_over() {
            let legal = g.legal_answers();
            for a in CardSet::ALL.iter().map(Answer::Card).chain([Answer::No]) {
                assert_eq!(g.is_legal(a), legal.contains(&a), "seed {seed}: {a:?}");
                checked += 1;
            }
            i += 1;
            g.apply(legal[i % legal.len()], &mut events).unwrap();
        }
    }
    assert!(checked > 10_000);
}

#[test]
fn a_rotated_game_plays_the_same_game_from_another_seat() {
    // Rotating by p then applying an answer equals applying it then rotating, at every
    // decision of seeded games (the answers do not depend on the numbering); the events name
    // the same physical players moved by p; and four rotations by 1 are the identity.
    for seed in 0..40u64 {
        let (mut g, _) = Game::new(seed);
        let mut k = 0usize;
        while !g.is_over() {
            let p = (seed as usize + k) % 4;
            let r = g.rotated(p);
            assert_eq!(r.legal_answers(), g.legal_answers(), "seed {seed}");
            assert_eq!(r.rotated(4 - p), g);
            assert_eq!(g.rotated(1).rotated(1).rotated(1).rotated(1), g);
            let legal = g.legal_answers();
            let a = legal[(seed as usize * 7 + k) % legal.len()];
            let (mut ev, mut rev) = (Vec::new(), Vec::new());
            let mut r2 = r.clone();
            g.apply(a, &mut ev).unwrap();
            r2.apply(a, &mut rev).unwrap();
            assert_eq!(r2, g.rotated(p), "seed {seed}, decision {k}");
            assert_eq!(ev.len(), rev.len());
            for (e, f) in ev.iter().zip(&rev) {
                let who = |e: &Event| match *e {
                    Event::Give { player, .. } | Event::Take { player } | Event::Out { player } => {
                        player
                    }
                    Event::Move { by, .. } | Event::Add { by, .. } | Event::Beat { by, .. } => by,
                };
                assert_eq!((who(e) + 4 - p) % 4, who(f));
            }
            k += 1;
        }
        if let Pending::Over(w) = g.pending {
            assert_eq!(g.rotated(1).winner(), w.map(|t| 1 - t));
        }
    }
}
