//! The exact endgame solver against a plain exhaustive minimax, and the search bot's legality.

use cardgames::durak::rules::team;
use cardgames::durak::search::{playout, solve};
use cardgames::durak::strategy::{heuristic, Ctx, HeuristicParams};
use cardgames::durak::{Event, Game, Pending};

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

#[test]
fn playouts_finish_and_conserve_cards() {
    let hp = HeuristicParams::default();
    for seed in 0..300u64 {
        let (mut g, _) = Game::new(seed);
        let w = playout(&hp, &HeuristicParams::plain(), &mut g, &mut Vec::new());
        assert!(w.is_some(), "seed {seed}");
        // Every card is in a hand, the talon, or left the game: hands + talon <= 36.
        let left: usize = g.hands.iter().map(|h| h.len()).sum::<usize>() + g.talon.len();
        assert!(left <= 36);
        assert!(g.out[w.unwrap()] && g.out[w.unwrap() + 2]);
    }
}
