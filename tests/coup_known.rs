//! The filter that identifies the contest winner's rule
//! ([`cardgames::coup::known`]): against the arbiter's true state in games
//! the replica plays, on the rule's worked first move
//! (`docs/rules/coup.md` §7, `src/coup/sparring/replica.rs`), and on a
//! player the rule cannot explain.

#[path = "support/replica_games.rs"]
mod replica_games;

use cardgames::coup::known::replica_particles;
use cardgames::coup::model::unseen;
use cardgames::coup::sparring::Archetype;
use cardgames::coup::{Character, History, Strategy};
use replica_games::play_replica_game;

/// The cards the player to call cannot see, from its side of `history`.
fn unseen_by(history: &str, mine: &[Character]) -> [u32; 5] {
    let h = History::parse(history).expect("a history the arbiter wrote");
    unseen(&h, mine)
}

fn sorted(mut v: Vec<Character>) -> Vec<Character> {
    v.sort_by_key(|c| c.index());
    v
}

/// Games of the replica (its state file carried between its calls)
/// against other strategies under the in-process arbiter
/// (`tests/support/replica_games.rs`): at every call of
/// the other seat, the filter run from that seat's side keeps a hypothesis
/// equal to the replica's true hand and flags, and never runs dry.
#[test]
fn the_filter_keeps_the_true_hand_and_flags_in_replica_games() {
    let file = "g.txt";
    let others = [
        Strategy::Random,
        Strategy::Honest,
        Strategy::Challenger,
        Strategy::TaxBluffer,
        Strategy::Archetype(Archetype::BlockAll),
        Strategy::Archetype(Archetype::AlwaysSteal),
        Strategy::Archetype(Archetype::AlwaysAssassinate),
    ];
    let mut checked = 0;
    for game in 0..140u64 {
        let rule_seat = (game % 2) as usize;
        let other = others[(game as usize / 2) % others.len()];
        play_replica_game(1000 + game, rule_seat, other, file, |t, call, state| {
            if call.seat == rule_seat {
                return;
            }
            let id = replica_particles(&t.history, &unseen_by(&t.history, &call.cards));
            let truth = sorted(t.cards(rule_seat));
            let flags: String = state.lines().nth(1).unwrap_or("").to_string();
            assert!(
                id.particles.iter().any(|p| p.hand == truth
                    && (state.is_empty() || p.flags.iter().collect::<String>() == flags)),
                "game {game}: the true hand {truth:?} (flags {flags:?}) is not among {} hypotheses after {:?}",
                id.particles.len(),
                t.history
            );
            let total: f64 = id.particles.iter().map(|p| p.weight).sum();
            assert!((total - 1.0).abs() < 1e-9, "weights sum to {total}");
            checked += 1;
        });
    }
    assert!(checked > 1000, "only {checked} calls checked");
}

/// The rule's first move (replica.rs, `line == "\n"`): Tax with a Duke;
/// else Steal with a Captain, Income with an Assassin, Exchange with an
/// Ambassador; a Tax with none of these means two Contessas. So an opening
/// Tax leaves only hands with a Duke and the Contessa pair.
#[test]
fn an_opening_tax_leaves_the_duke_hands_and_the_contessa_pair() {
    let id = replica_particles("T", &[3, 3, 3, 3, 1]);
    assert!(!id.particles.is_empty());
    let pair = vec![Character::Contessa, Character::Contessa];
    for p in &id.particles {
        assert!(
            p.hand.contains(&Character::Duke) || p.hand == pair,
            "{:?} would not open with Tax",
            p.hand
        );
    }
    assert!(id.particles.iter().any(|p| p.hand == pair));
    // Flags: '1' on every call, '$' for the Tax plan.
    assert!(id.particles.iter().all(|p| p.flags.contains(&'$')));
    assert_eq!(id.choices, 1);
    // An Income opening: an Assassin, and neither a Duke nor a Captain.
    let id = replica_particles("I\n", &[3, 3, 3, 3, 1]);
    for p in &id.particles {
        assert!(p.hand.contains(&Character::Assassin), "{:?}", p.hand);
        assert!(!p.hand.contains(&Character::Duke) && !p.hand.contains(&Character::Captain));
    }
}

/// The rule challenges every block made against it: a player who let my
/// Duke block of its Foreign Aid stand is not playing it.
#[test]
fn a_block_let_stand_rules_the_rule_out() {
    // It moved first with Foreign Aid, I blocked as Duke, it ended its turn.
    let id = replica_particles("Fd\n", &[3, 3, 3, 3, 2]);
    assert!(id.particles.is_empty());
    assert_eq!(id.log_odds, f64::NEG_INFINITY);
    // Its Tax opening and its Duke block of my Foreign Aid fit every hand
    // with a Duke.
    let id = replica_particles("Tp\nFd", &[3, 3, 3, 3, 2]);
    assert!(!id.particles.is_empty());
    assert!(id
        .particles
        .iter()
        .all(|p| p.hand.contains(&Character::Duke)));
}
