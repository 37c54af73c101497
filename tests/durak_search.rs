//! Heuristic games (the search's playout policy, the opponents' plainer model beside it) finish
//! and conserve cards at every step.

use cardgames::durak::cards::CardSet;
use cardgames::durak::rules::team;
use cardgames::durak::strategy::{heuristic_with, Ctx, HeuristicParams};
use cardgames::durak::{Answer, Event, Game};

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
        // Step by step as a playout plays: every card stays in exactly one place, and the
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
        // The game ended with a winning team, both of its players out.
        let w = g.winner();
        assert!(w.is_some(), "seed {seed}");
        let w = w.unwrap();
        assert!(g.out[w] && g.out[w + 2], "seed {seed}");
    }
}
