//! The exact endgame solver against a plain exhaustive minimax, and the search bot's legality.

use cardgames::durak::cards::CardSet;
use cardgames::durak::rules::team;
use cardgames::durak::search::{playout, solve};
use cardgames::durak::strategy::{heuristic, heuristic_with, Ctx, HeuristicParams};
use cardgames::durak::{Answer, Event, Game, Pending};

/// Exhaustive minimax with no ordering and no cut-offs: does team 0 win with perfect play?
fn naive(game: &Game) -> bool {
    let p = match game.pending {
        Pending::Over(w) => return w == Some(0),
        Pending::Move(p) | Pending::Beat(p) | Pending::Add(p) => p,
    };
    let values: Vec<bool> = game
        .legal_answers()
        .into_iter()
        .map(|a| {
            let mut g = game.clone();
            g.apply(a, &mut Vec::new()).unwrap();
            naive(&g)
        })
        .collect();
    if team(p) == 0 {
        values.iter().any(|&v| v)
    } else {
        values.iter().all(|&v| v)
    }
}

#[test]
fn exact_solver_agrees_with_exhaustive_minimax_on_small_endgames() {
    let mut checked = 0;
    for seed in 0..1500u64 {
        let (mut g, _) = Game::new(seed);
        let mut events: Vec<Event> = Vec::new();
        // Play the heuristic until the talon is empty and at most 6 cards remain in hands and on the table.
        while let Some((cmd, ctx)) = Ctx::from_game(&g) {
            let in_play: usize =
                g.hands.iter().map(|h| h.len()).sum::<usize>() + g.round.table.len();
            if g.talon.is_empty() && in_play <= 6 {
                break;
            }
            g.apply(heuristic(cmd, &ctx), &mut events).unwrap();
        }
        if g.is_over() {
            continue;
        }
        let mut nodes = u32::MAX;
        let fast = solve(&g, &mut nodes, &mut events);
        assert_eq!(fast, Some(naive(&g)), "seed {seed}: {g:?}");
        checked += 1;
    }
    assert!(checked > 100, "only {checked} endgames reached");
}

/// Hands, talon and table as one set, checking that no card is in two places.
fn cards_in_play(g: &Game) -> CardSet {
    let parts = [
        g.hands[0],
        g.hands[1],
        g.hands[2],
        g.hands[3],
        g.round.table,
    ];
    let mut all: CardSet = g.talon.iter().copied().collect();
    assert_eq!(all.len(), g.talon.len(), "a card twice in the talon");
    for part in parts {
        assert!(
            all.intersect(part).is_empty(),
            "a card in two places: {g:?}"
        );
        all = all.union(part);
    }
    all
}

#[test]
fn playouts_finish_and_conserve_cards() {
    let hp = HeuristicParams::default();
    let plain = HeuristicParams::plain();
    for seed in 0..300u64 {
        // Step by step as `playout` plays: every card stays in exactly one place, and the
        // only cards ever leaving play are a beaten table's, discarded when its round ends.
        let (mut g, _) = Game::new(seed);
        let mut discarded = CardSet::default();
        let mut before = cards_in_play(&g);
        assert_eq!(before.len(), 36);
        let mut events: Vec<Event> = Vec::new();
        while let Some((cmd, ctx)) = Ctx::from_game(&g) {
            let mut table = g.round.table;
            let hp = if team(ctx.me) == 0 { &hp } else { &plain };
            let answer = heuristic_with(hp, cmd, &ctx);
            if let Answer::Card(c) = answer {
                // The card just played joins the table (and may end the round at once).
                table.insert(c);
            }
            g.apply(answer, &mut events).unwrap();
            let after = cards_in_play(&g);
            let gone = before.minus(after);
            assert!(
                after.minus(before).is_empty(),
                "seed {seed}: a card from nowhere"
            );
            if !gone.is_empty() {
                assert_eq!(
                    gone.minus(table),
                    CardSet::default(),
                    "seed {seed}: lost {gone:?}"
                );
                assert_eq!(gone, table, "seed {seed}: part of a table discarded");
                assert!(g.round.table.is_empty(), "seed {seed}: discarded mid-round");
            }
            discarded = discarded.union(gone);
            assert_eq!(after.len() + discarded.len(), 36, "seed {seed}");
            before = after;
        }
        let mut fresh = Game::new(seed).0;
        let w = playout(&hp, &plain, &mut fresh, &mut Vec::new());
        assert!(w.is_some(), "seed {seed}");
        assert_eq!(
            w,
            g.winner(),
            "seed {seed}: playout differs from the same steps"
        );
        assert!(fresh.out[w.unwrap()] && fresh.out[w.unwrap() + 2]);
    }
}
