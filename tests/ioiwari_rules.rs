//! The Ioiwari rules against hand-worked moves, stone conservation, and the
//! solver against an independent brute force (`docs/rules/ioiwari.md`).

use cardgames::ioiwari::{self, Board, Game, IoiwariError, Player, Seat, Solver};
use proptest::prelude::*;

/// Our move-choosing strategy (proptest's prelude has its own `Strategy`).
type Plays = ioiwari::Strategy;

fn board(pits: [u8; 7]) -> Board {
    Board::new(pits).expect("a board with pits 0..=5")
}

/// Sow from pit *number* `n` (1-based) and return (board, mover, opponent).
fn sow(pits: [u8; 7], n: usize) -> ([u8; 7], u8, u8) {
    let s = board(pits).sow(n - 1).expect("a non-empty pit");
    (s.board.pits(), s.mover_gain, s.opponent_gain)
}

#[test]
fn hand_worked_plain_move() {
    // 4 from pit 1: drop into pits 2, 3, 4 (3->4, 2->3, 4->5); the last stone
    // meets pit 5 holding 2: those 2 and the stone go to the mover's bank.
    assert_eq!(sow([4, 3, 2, 4, 2, 3, 2], 1), ([0, 4, 3, 5, 0, 3, 2], 3, 0));
    // 2 from pit 7 wraps to pit 1 (4->5), then the last stone meets pit 2
    // holding 3: 3 + 1 to the mover.
    assert_eq!(sow([4, 3, 2, 4, 2, 3, 2], 7), ([5, 0, 2, 4, 2, 3, 0], 4, 0));
}

#[test]
fn hand_worked_last_stone_to_the_opponent() {
    // 1 stone from pit 3 onto an empty pit 4: it goes to the opponent.
    assert_eq!(sow([0, 0, 1, 0, 2, 0, 0], 3), ([0, 0, 0, 0, 2, 0, 0], 0, 1));
    // 1 stone onto a 5-stone pit: to the opponent, the pit keeps its 5.
    assert_eq!(sow([0, 0, 1, 5, 0, 0, 0], 3), ([0, 0, 0, 5, 0, 0, 0], 0, 1));
    // 1 stone onto a 4-stone pit: 4 + 1 to the mover.
    assert_eq!(sow([0, 0, 1, 4, 0, 0, 0], 3), ([0; 7], 5, 0));
}

#[test]
fn hand_worked_five_stone_rule() {
    // 3 from pit 1: pit 2 holds 5, so it gives one stone to the mover's bank
    // and the hand keeps 3; pits 3 and 4 receive one each; the last stone
    // meets an empty pit 5 and goes to the opponent.
    assert_eq!(sow([3, 5, 1, 0, 0, 0, 0], 1), ([0, 4, 2, 1, 0, 0, 0], 1, 1));
    // 2 from pit 1: pit 2 goes 4 -> 5 by a drop; the last stone meets pit 3
    // holding 1: 1 + 1 to the mover.
    assert_eq!(sow([2, 4, 1, 0, 0, 0, 0], 1), ([0, 5, 0, 0, 0, 0, 0], 2, 0));
}

#[test]
fn hand_worked_lap_over_the_emptied_pit() {
    // 5 from pit 1 on [5,5,5,5,0,0,0]: pits 2-4 hold 5 and each give a stone
    // to the bank (3 banked, hand still 5); pits 5, 6, 7 and the emptied pit 1
    // receive a stone each (hand 1); the last stone meets pit 2, now 4:
    // 4 + 1 to the mover.
    assert_eq!(sow([5, 5, 5, 5, 0, 0, 0], 1), ([1, 0, 4, 4, 1, 1, 1], 8, 0));
    // 4 from pit 1 on [4,5,5,5,1,0,0]: 3 banked from the 5s, drops into pits
    // 5, 6, 7; the last stone lands on the emptied pit 1 (0 stones): it goes
    // to the opponent.
    assert_eq!(sow([4, 5, 5, 5, 1, 0, 0], 1), ([0, 4, 4, 4, 2, 1, 1], 3, 1));
}

#[test]
fn illegal_moves_are_refused() {
    let mut game = Game::new(Board::start([4, 3, 2, 4, 2, 3, 2]).unwrap());
    game.play(0).unwrap();
    assert_eq!(game.play(0), Err(IoiwariError::EmptyPit(1)));
    assert_eq!(game.play(7), Err(IoiwariError::NoSuchPit(8)));
    assert_eq!(game.to_move(), Seat::Second);
    assert_eq!(game.banks(), [3, 0]);
    let mut over = Game::new(board([0; 7]));
    assert_eq!(over.play(0), Err(IoiwariError::GameOver));
}

#[test]
fn starts_are_validated() {
    assert!(Board::start([4, 3, 2, 4, 2, 3, 2]).is_ok());
    assert!(matches!(
        Board::start([5, 3, 2, 3, 2, 3, 2]),
        Err(IoiwariError::BadStart(_))
    ));
    assert!(matches!(
        Board::start([4, 4, 4, 4, 2, 2, 2]),
        Err(IoiwariError::BadStart(_))
    ));
    assert!(matches!(
        Board::new([0, 6, 0, 0, 0, 0, 0]),
        Err(IoiwariError::TooManyStones { pit: 2, stones: 6 })
    ));
    let starts = Board::all_starts();
    // 20 - 14 = 6 extra stones over 7 pits, at most 2 each: the coefficient
    // of x^6 in (1 + x + x^2)^7 is 357.
    assert_eq!(starts.len(), 357);
    assert!(starts
        .iter()
        .all(|b| Board::start(b.pits()).as_ref() == Ok(b)));
}

fn any_board() -> impl Strategy<Value = Board> {
    proptest::array::uniform7(0u8..=5).prop_map(board)
}

proptest! {
    #[test]
    fn every_move_conserves_stones(b in any_board(), pit in 0usize..7) {
        if let Some(s) = b.sow(pit) {
            prop_assert_eq!(
                b.stones(),
                s.board.stones() + u32::from(s.mover_gain) + u32::from(s.opponent_gain)
            );
            prop_assert!(s.board.stones() < b.stones());
            prop_assert!(s.opponent_gain <= 1);
            prop_assert!(s.board.pits().iter().all(|&p| p <= 5));
        } else {
            prop_assert_eq!(b.pits()[pit], 0);
        }
    }

    #[test]
    fn random_games_keep_20_stones(start in 0usize..357, seed in any::<u64>()) {
        let b = Board::all_starts()[start];
        let mut game = Game::new(b);
        let mut player = Player::new(Plays::Random, seed);
        while let Some(pit) = player.choose(game.board()) {
            game.play(pit).unwrap();
            let [a, c] = game.banks();
            prop_assert_eq!(game.board().stones() + a + c, 20);
        }
        prop_assert!(game.is_over());
        prop_assert!(game.moves().len() <= 20);
    }

    #[test]
    fn codes_round_trip(b in any_board()) {
        prop_assert_eq!(Board::from_code(b.code()), Ok(b));
    }
}

/// Plain negamax without memo: the independent truth for small boards.
fn brute(b: Board) -> i32 {
    b.moves()
        .filter_map(|pit| b.sow(pit))
        .map(|s| s.net() - brute(s.board))
        .max()
        .unwrap_or(0)
}

#[test]
fn solver_matches_brute_force_on_small_boards() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for code in (0..279_936).step_by(7) {
        let b = Board::from_code(code).unwrap();
        if b.stones() <= 9 {
            assert_eq!(solver.value(b), brute(b), "board {b}");
            checked += 1;
        }
    }
    assert!(checked > 1000, "only {checked} boards checked");
}

#[test]
fn every_start_is_a_first_player_win() {
    let table = ioiwari::table();
    let mut solver = Solver::new();
    for b in Board::all_starts() {
        let v = table.value(b);
        assert!(v > 0, "start {b} has value {v}");
        assert_eq!(solver.value(b), v, "lazy and full tables disagree on {b}");
        assert_eq!(ioiwari::value(b.pits()), Ok(v));
    }
}

fn play(b: Board, p1: &mut Player, p2: &mut Player) -> i32 {
    let mut game = Game::new(b);
    while !game.is_over() {
        let player = match game.to_move() {
            Seat::First => &mut *p1,
            Seat::Second => &mut *p2,
        };
        let pit = player.choose(game.board()).unwrap();
        game.play(pit).unwrap();
    }
    game.margin()
}

#[test]
fn optimal_play_realises_the_value_and_weak_players_do_worse() {
    let table = ioiwari::table();
    let (mut p1, mut p2) = (
        Player::new(Plays::Optimal, 1),
        Player::new(Plays::Optimal, 2),
    );
    let mut weak_p1_wins = [0usize; 2];
    for (i, b) in Board::all_starts().into_iter().enumerate() {
        let v = table.value(b);
        // Optimal against optimal: the final margin is the value.
        assert_eq!(play(b, &mut p1, &mut p2), v, "start {b}");
        // Optimal player 1 against a weak player 2: at least the value.
        for s in [Plays::Random, Plays::Greedy] {
            let mut weak = Player::new(s, i as u64);
            assert!(play(b, &mut p1, &mut weak) >= v, "start {b} vs {s:?}");
        }
        // A weak player 1 against optimal player 2: at most the value.
        for (k, s) in [Plays::Random, Plays::Greedy].into_iter().enumerate() {
            let mut weak = Player::new(s, i as u64);
            let m = play(b, &mut weak, &mut p2);
            assert!(m <= v, "start {b}: weak {s:?} beat the value");
            if m > 0 {
                weak_p1_wins[k] += 1;
            }
        }
    }
    // Both weak players win fewer than half of the 357 starts.
    assert!(weak_p1_wins[0] < 357 / 2, "random won {}", weak_p1_wins[0]);
    assert!(weak_p1_wins[1] < 357 / 2, "greedy won {}", weak_p1_wins[1]);
}

#[test]
fn best_move_api() {
    let pits = [4, 3, 2, 4, 2, 3, 2];
    let values = ioiwari::move_values(pits).unwrap();
    let best = ioiwari::best_move(pits).unwrap().unwrap();
    let max = values.iter().flatten().max().copied().unwrap();
    assert_eq!(values[best], Some(max));
    assert_eq!(ioiwari::value(pits), Ok(max));
    assert!(values[..best].iter().all(|v| *v != Some(max)));
    assert_eq!(ioiwari::best_move([0; 7]), Ok(None));
    assert_eq!(ioiwari::value([0; 7]), Ok(0));
    assert!(ioiwari::best_move([6, 0, 0, 0, 0, 0, 0]).is_err());
}

#[test]
fn values_are_invariant_under_rotation() {
    // The board is a ring: rotating every pit by one place changes nothing.
    let table = ioiwari::table();
    for code in (0..279_936).step_by(11) {
        let b = Board::from_code(code).unwrap();
        let mut pits = b.pits();
        pits.rotate_left(1);
        assert_eq!(table.value(board(pits)), table.value(b), "board {b}");
    }
}

/// Published by the IOI 2001 task authors ("Some information about task
/// IOIWARI", history.ioinformatics.org/locations/ioi01/contest/day1/ioiwari/):
/// for a start, the optimal final difference for player 1 and the difference
/// reached by a one-step look-ahead greedy player 1, both against an optimal
/// player 2. A sample of their table.
const IOI_PUBLISHED: [([u8; 7], i32, i32); 8] = [
    ([4, 4, 4, 2, 2, 2, 2], 4, -6),
    ([3, 4, 3, 4, 2, 2, 2], 2, -8),
    ([4, 4, 3, 2, 3, 2, 2], 6, 0),
    ([4, 2, 3, 4, 3, 2, 2], 2, 0),
    ([4, 3, 2, 3, 4, 2, 2], 6, -8),
    ([3, 3, 4, 3, 2, 3, 2], 6, -6),
    ([4, 2, 4, 2, 3, 3, 2], 4, -4),
    ([4, 2, 3, 3, 3, 3, 2], 2, -4),
];

#[test]
fn values_match_the_ioi_published_table() {
    for (pits, optimal, greedy) in IOI_PUBLISHED {
        let b = Board::start(pits).unwrap();
        assert_eq!(ioiwari::value(pits), Ok(optimal), "start {b}");
        let mut p1 = Player::new(Plays::Greedy, 0);
        let mut p2 = Player::new(Plays::Optimal, 0);
        assert_eq!(play(b, &mut p1, &mut p2), greedy, "greedy from {b}");
    }
}
