//! Fresh checker tests for a new year (`homework-gen`): `in` files in the
//! original layout, with references from this project's engines, for shuffle
//! lists and for game deals chosen to exercise the rare paths of the rules
//! (`docs/rules/homework.md` §4-6: wars of every length, a war that runs out of cards,
//! the 100-hand rank tie-break at every rank, Rolling Stone suit changes and
//! takes, Scarabs 8 reversals on and off a pending scarab, a player's return
//! after winning a pile with his last scarab).
//!
//! Any deal can be written as shuffles: `npiles 52 i1 .. i52` is an arbitrary
//! permutation of the deck. A targeted test is a few random shuffles followed
//! by the `npiles 52` that turns their result into the deal found; the deal is
//! found by a seeded hill climb on a distance to the wanted event, played on
//! the engines themselves and observed turn by turn.

use rand::seq::SliceRandom;
use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::rolling_stone::{RollingStone, Turn as RsTurn};
use super::scarabs::{Kind, Scarabs};
use super::war::{War, WarOutcome};
use super::{Input, Task};
use crate::card::{Card, Rank, Suit};
use crate::deck::Deck;
use crate::shuffle::Shuffle;

/// Divisors of 52: the pile counts `npiles` can take.
pub const DIVISORS: [usize; 6] = [1, 2, 4, 13, 26, 52];

/// Turns after which a Rolling Stone or Scarabs deal counts as looping and is
/// not used (real deals end within a few thousand; `model.py` would loop).
const GAME_TURNS: u64 = 100_000;

/// One generated test.
#[derive(Debug, Clone)]
pub struct Generated {
    /// The task.
    pub task: Task,
    /// The text of `X.in`: CRLF line ends and no final line end, as the
    /// original tests.
    pub input: String,
    /// The text of `X.ref` (this project's answer).
    pub reference: String,
    /// The text of `X.debug` for a game: this project's step-by-step trace
    /// ([`super::trace()`], the original checker's format).
    pub debug: Option<String>,
    /// The rare path this test was made for, if any.
    pub feature: Option<String>,
}

/// A rare path of a game and how far a deal is from it.
struct Feature<P> {
    name: String,
    /// 0 when the profile shows the event; negative: the distance to it.
    distance: Box<dyn Fn(&P) -> i64>,
}

fn feature<P>(name: impl Into<String>, distance: impl Fn(&P) -> i64 + 'static) -> Feature<P> {
    Feature {
        name: name.into(),
        distance: Box::new(distance),
    }
}

fn flag(present: bool) -> i64 {
    if present {
        0
    } else {
        -1
    }
}

/// The canonical deck as a vector, top first.
fn canonical() -> Vec<Card> {
    Deck::standard().iter().collect()
}

fn deck_of(cards: &[Card]) -> Deck {
    cards.iter().copied().collect()
}

/// A random shuffle; `npiles` with `k` piles when given.
fn random_shuffle(rng: &mut impl Rng, k: Option<usize>) -> Shuffle {
    let pick = if k.is_some() {
        1
    } else {
        rng.random_range(0..4)
    };
    match pick {
        0 => Shuffle::Reverse,
        1 => {
            let k = k.unwrap_or_else(|| DIVISORS[rng.random_range(0..DIVISORS.len())]);
            let mut order: Vec<usize> = (1..=k).collect();
            order.shuffle(rng);
            Shuffle::NPiles { order }
        }
        2 => Shuffle::Interleave,
        _ => Shuffle::Mongean,
    }
}

/// A random list of 1..=`max` shuffles.
fn random_list(rng: &mut impl Rng, max: usize) -> Vec<Shuffle> {
    let n = rng.random_range(1..=max);
    (0..n).map(|_| random_shuffle(rng, None)).collect()
}

fn apply_all(shuffles: &[Shuffle]) -> Vec<Card> {
    let mut deck = Deck::standard();
    for s in shuffles {
        s.apply(&mut deck).expect("generated shuffles fit 52 cards");
    }
    deck.iter().collect()
}

/// Shuffles whose result is `deal`: up to 3 random ones, then the
/// `npiles 52` that maps their result onto `deal`.
fn shuffles_for(rng: &mut impl Rng, deal: &[Card]) -> Vec<Shuffle> {
    let n = rng.random_range(0..=3);
    let mut list: Vec<Shuffle> = (0..n).map(|_| random_shuffle(rng, None)).collect();
    let before = apply_all(&list);
    let order = deal
        .iter()
        .map(|c| {
            before
                .iter()
                .position(|b| b == c)
                .expect("a deal is a permutation")
                + 1
        })
        .collect();
    list.push(Shuffle::NPiles { order });
    list
}

fn in_text(task: &str, shuffles: &[Shuffle]) -> String {
    let mut lines = vec![task.to_owned(), shuffles.len().to_string()];
    lines.extend(shuffles.iter().map(ToString::to_string));
    lines.join("\r\n")
}

/// What a War deal does.
#[derive(Debug, Clone, Default)]
pub struct WarProfile {
    /// How it ended.
    pub outcome: Option<WarOutcome>,
    /// Cards each player turned in a war step, when the war card's value set it.
    pub full_lengths: Vec<usize>,
    /// A war step cut short by a player's cards (fewer than the value, not 0).
    pub cut_short: bool,
    /// Fewest cards a player had left behind a tied card (0: the war could not
    /// be played and ran out of cards).
    pub fewest_behind_tie: usize,
    /// A war whose last turned cards tied again.
    pub double_war: bool,
}

/// Plays War on `deal`, watching every war; `None` for a tie after 100 hands
/// (the statement excludes it).
pub fn war_profile(deal: &[Card]) -> Option<WarProfile> {
    let mut game = War::deal(deck_of(deal));
    let mut p = WarProfile {
        fewest_behind_tie: usize::MAX,
        ..WarProfile::default()
    };
    while game.outcome().is_none() {
        let (a, b) = (game.pile(1), game.pile(2));
        let (mut i, mut depth) = (0, 0);
        while let (Some(x), Some(y)) = (a.get(i), b.get(i)) {
            if x.rank != y.rank {
                break;
            }
            let behind = (a.len() - i - 1).min(b.len() - i - 1);
            p.fewest_behind_tie = p.fewest_behind_tie.min(behind);
            let value = usize::from(x.rank.war_value());
            let n = behind.min(value);
            if n == value {
                p.full_lengths.push(n);
            } else if n > 0 {
                p.cut_short = true;
            }
            depth += 1;
            if depth > 1 {
                p.double_war = true;
            }
            if n == 0 {
                break;
            }
            i += n;
        }
        if game.play_hand().is_none() {
            break;
        }
    }
    let outcome = game.outcome()?;
    if outcome == WarOutcome::Tie {
        return None;
    }
    p.outcome = Some(outcome);
    Some(p)
}

fn war_features() -> Vec<Feature<WarProfile>> {
    let mut f = Vec::new();
    // Wars of every length the war card's value sets: 2..=10, 12..=15.
    for rank in Rank::DESCENDING {
        let n = usize::from(rank.war_value());
        let name = format!("war of {n} cards ({})", rank.code());
        f.push(feature(name, move |p: &WarProfile| {
            flag(p.full_lengths.contains(&n))
        }));
    }
    f.push(feature(
        "war cut short by a player's cards",
        |p: &WarProfile| flag(p.cut_short),
    ));
    f.push(feature(
        "war that runs out of cards (none behind the tie)",
        |p: &WarProfile| -(p.fewest_behind_tie.min(26) as i64),
    ));
    f.push(feature("war tied again (double war)", |p: &WarProfile| {
        flag(p.double_war)
    }));
    f.push(feature("player 1 takes all the cards", |p: &WarProfile| {
        flag(p.outcome == Some(WarOutcome::AllCards { winner: 1 }))
    }));
    f.push(feature("player 2 takes all the cards", |p: &WarProfile| {
        flag(p.outcome == Some(WarOutcome::AllCards { winner: 2 }))
    }));
    // The 100-hand tie-break decided at every rank A..3.
    for (index, rank) in Rank::DESCENDING[..12].iter().copied().enumerate() {
        let name = format!("100 hands, decided by rank {}", rank.code());
        f.push(feature(name, move |p: &WarProfile| match p.outcome {
            Some(WarOutcome::MoreOfRank { rank: r, .. }) => {
                let d = Rank::DESCENDING.iter().position(|&x| x == r).unwrap_or(0);
                -(d.abs_diff(index) as i64)
            }
            _ => -20,
        }));
    }
    f
}

/// What a Rolling Stone deal does.
#[derive(Debug, Clone, Default)]
pub struct RollingStoneProfile {
    /// 0-based winner.
    pub winner: usize,
    /// Suits skipped by player 1's first lead (0 when he holds a spade).
    pub first_lead_skip: usize,
    /// For k = 0..4: a take after which k suits were skipped before the lead
    /// (k = 3 never happens: the taker holds another suit).
    pub take_skips: [bool; 4],
    /// Takes in the game.
    pub takes: usize,
    /// The most cards taken at once.
    pub largest_take: usize,
    /// Player 1's dealt cards per suit (s, h, c, d).
    pub first_hand_suits: [usize; 4],
}

/// Plays Rolling Stone on `deal`, watching every take; `None` when it loops.
pub fn rolling_stone_profile(deal: &[Card]) -> Option<RollingStoneProfile> {
    let mut game = RollingStone::deal(deck_of(deal));
    let mut p = RollingStoneProfile::default();
    for card in &deal[..13] {
        p.first_hand_suits[card.suit.index()] += 1;
    }
    let mut suit: Option<Suit> = None;
    while let Some(turn) = game.play_turn() {
        if game.turns() > GAME_TURNS {
            return None;
        }
        match turn {
            RsTurn::Played { card, .. } => {
                if suit.is_none() {
                    p.first_lead_skip = card.suit.index();
                }
                suit = Some(card.suit);
            }
            RsTurn::TookAndLed { taken, card, .. } => {
                let from = suit.map_or(0, |s| s.next().index());
                p.take_skips[(card.suit.index() + 4 - from) % 4] = true;
                p.takes += 1;
                p.largest_take = p.largest_take.max(taken);
                suit = Some(card.suit);
            }
        }
    }
    p.winner = game.winner()?;
    Some(p)
}

fn rolling_stone_features() -> Vec<Feature<RollingStoneProfile>> {
    let mut f = Vec::new();
    for k in 0..3 {
        let name = format!("take, then the lead skips {k} suits of the order");
        f.push(feature(name, move |p: &RollingStoneProfile| {
            flag(p.take_skips[k])
        }));
    }
    // Skipping all three others cannot happen: the taker held a card of
    // another suit (else he would have won), so the lead finds one.
    for k in 1..4 {
        let name = format!("player 1's first lead skips {k} suits");
        f.push(feature(name, move |p: &RollingStoneProfile| {
            let before: usize = p.first_hand_suits[..k].iter().sum();
            -(before as i64) - i64::from(p.first_hand_suits[k] == 0)
        }));
    }
    // The table since the last take holds one suit: 13 cards at most.
    f.push(feature(
        "a take of 10 cards or more",
        |p: &RollingStoneProfile| (p.largest_take as i64 - 10).min(0),
    ));
    for seat in 0..4 {
        let name = format!("player {} wins", seat + 1);
        f.push(feature(name, move |p: &RollingStoneProfile| {
            flag(p.winner == seat)
        }));
    }
    f
}

/// What a Scarabs deal does.
#[derive(Debug, Clone, Default)]
pub struct ScarabsProfile {
    /// 0-based winner.
    pub winner: usize,
    /// An 8 turned with no scarab pending (the direction reversed).
    pub eight_reverses: bool,
    /// An 8 turned on a pending scarab (play passed on, the claim kept).
    pub eight_on_scarab: bool,
    /// A pile won by a claim that an 8 had passed over.
    pub won_over_eight: bool,
    /// A scarab on a pending scarab (the claim taken over).
    pub scarab_over_scarab: bool,
    /// A player left the rotation (empty pile).
    pub eliminated: bool,
    /// A player with an empty pile won a table with his last scarab and
    /// came back.
    pub came_back: bool,
}

/// Plays Scarabs on `deal`, watching every turn; `None` when it loops.
pub fn scarabs_profile(deal: &[Card]) -> Option<ScarabsProfile> {
    let mut game = Scarabs::deal(deck_of(deal));
    let mut p = ScarabsProfile::default();
    let mut pending = false;
    let mut eight_since_claim = false;
    while game.winner().is_none() {
        let empty_before: Vec<bool> = (0..4).map(|s| game.pile(s).is_empty()).collect();
        let turn = game.play_turn()?;
        if game.turns() > GAME_TURNS {
            return None;
        }
        match Kind::of(turn.card) {
            Kind::Scarab => {
                if pending {
                    p.scarab_over_scarab = true;
                }
                pending = true;
                eight_since_claim = false;
            }
            Kind::Eight if pending => {
                p.eight_on_scarab = true;
                eight_since_claim = true;
            }
            Kind::Eight => p.eight_reverses = true,
            Kind::Number => {
                if let Some(taker) = turn.taken_by {
                    if empty_before[taker] {
                        p.came_back = true;
                    }
                    if eight_since_claim {
                        p.won_over_eight = true;
                    }
                }
                pending = false;
                eight_since_claim = false;
            }
        }
        if (0..4).any(|s| game.pile(s).is_empty() && !empty_before[s]) {
            p.eliminated = true;
        }
    }
    p.winner = game.winner()?;
    Some(p)
}

fn scarabs_features() -> Vec<Feature<ScarabsProfile>> {
    let mut f = vec![
        feature(
            "8 with no scarab pending (reverses)",
            |p: &ScarabsProfile| flag(p.eight_reverses),
        ),
        feature("8 on a pending scarab (passes on)", |p: &ScarabsProfile| {
            flag(p.eight_on_scarab)
        }),
        feature(
            "pile won by a claim an 8 passed over",
            |p: &ScarabsProfile| flag(p.won_over_eight),
        ),
        feature(
            "scarab on a pending scarab (claim taken over)",
            |p: &ScarabsProfile| flag(p.scarab_over_scarab),
        ),
        feature("a player leaves the rotation", |p: &ScarabsProfile| {
            flag(p.eliminated)
        }),
        feature(
            "return after winning a pile with the last scarab",
            |p: &ScarabsProfile| flag(p.came_back),
        ),
    ];
    for seat in 0..4 {
        let name = format!("player {} wins", seat + 1);
        f.push(feature(name, move |p: &ScarabsProfile| {
            flag(p.winner == seat)
        }));
    }
    f
}

/// Seeded hill climb over deals towards `distance == 0`: random swaps, kept
/// when not worse, a fresh random deal after `restart` steps without gain.
fn find_deal<P>(
    rng: &mut impl Rng,
    profile: &dyn Fn(&[Card]) -> Option<P>,
    distance: &dyn Fn(&P) -> i64,
    budget: usize,
) -> Option<Vec<Card>> {
    let restart = 3000;
    let score = |deal: &[Card]| profile(deal).map_or(i64::MIN, |p| distance(&p));
    let mut best = canonical();
    best.shuffle(rng);
    let mut best_score = score(&best);
    let mut stale = 0;
    for _ in 0..budget {
        if best_score == 0 {
            return Some(best);
        }
        let mut cand = best.clone();
        for _ in 0..rng.random_range(1..=2) {
            let (i, j) = (rng.random_range(0..52), rng.random_range(0..52));
            cand.swap(i, j);
        }
        let s = score(&cand);
        if s > best_score {
            stale = 0;
        } else {
            stale += 1;
        }
        if s >= best_score {
            best = cand;
            best_score = s;
        }
        if stale > restart {
            best.shuffle(rng);
            best_score = score(&best);
            stale = 0;
        }
    }
    (best_score == 0).then_some(best)
}

/// A random deal's shuffles whose game ends: a natural list of random
/// shuffles (odd tests) or random shuffles then an `npiles 52` to a uniformly
/// random deal (even tests).
fn random_game_shuffles<P>(
    rng: &mut impl Rng,
    profile: &dyn Fn(&[Card]) -> Option<P>,
    natural: bool,
) -> Vec<Shuffle> {
    loop {
        let list = if natural {
            random_list(rng, 8)
        } else {
            let mut deal = canonical();
            deal.shuffle(rng);
            shuffles_for(rng, &deal)
        };
        if profile(&apply_all(&list)).is_some() {
            return list;
        }
    }
}

/// The features of a task's generation that were found, and those that were not.
#[derive(Debug, Clone, Default)]
pub struct Coverage {
    /// Rare paths with a test made for them.
    pub covered: Vec<String>,
    /// Rare paths the search did not reach within its budget (or `count`
    /// was too small to give them a test).
    pub missing: Vec<String>,
}

/// A game's tests: one per rare path found, then random deals up to `count`.
fn game_tests<P>(
    rng: &mut impl Rng,
    task: Task,
    profile: &dyn Fn(&[Card]) -> Option<P>,
    features: &[Feature<P>],
    (count, budget): (usize, usize),
    progress: &mut dyn FnMut(),
) -> (Vec<Generated>, Coverage) {
    let name = task_name(task);
    let mut coverage = Coverage::default();
    let mut tests = Vec::with_capacity(count);
    for f in features {
        if tests.len() >= count {
            coverage.missing.push(f.name.clone());
            continue;
        }
        match find_deal(rng, profile, &*f.distance, budget) {
            Some(deal) => {
                let list = shuffles_for(rng, &deal);
                tests.push(made(task, name, &list, Some(f.name.clone())));
                coverage.covered.push(f.name.clone());
                progress();
            }
            None => coverage.missing.push(f.name.clone()),
        }
    }
    while tests.len() < count {
        let list = random_game_shuffles(rng, profile, tests.len() % 2 == 1);
        tests.push(made(task, name, &list, None));
        progress();
    }
    (tests, coverage)
}

fn made(task: Task, name: &str, list: &[Shuffle], feature: Option<String>) -> Generated {
    let input = in_text(name, list);
    let traced = Input::parse(&input)
        .and_then(|i| i.trace())
        .expect("a generated test runs on this project's engines");
    Generated {
        task,
        input,
        reference: traced.out,
        debug: (task != Task::Shuffle).then_some(traced.debug),
        feature,
    }
}

/// Shuffle tests: random lists of 1..=10 shuffles; test `i` holds at least
/// one `npiles` with `DIVISORS[i % 6]` piles and one shuffle of kind `i % 4`.
fn shuffle_tests(rng: &mut impl Rng, count: usize, progress: &mut dyn FnMut()) -> Vec<Generated> {
    (0..count)
        .map(|i| {
            let mut list = random_list(rng, 8);
            list.push(random_shuffle(rng, Some(DIVISORS[i % DIVISORS.len()])));
            list.push(match i % 4 {
                0 => Shuffle::Reverse,
                1 => random_shuffle(rng, None),
                2 => Shuffle::Interleave,
                _ => Shuffle::Mongean,
            });
            list.shuffle(rng);
            progress();
            made(Task::Shuffle, "amestecare", &list, None)
        })
        .collect()
}

/// The original layout's directory and file stem of a task
/// (`tests_razboi`, `razboi`).
pub const fn layout(task: Task) -> (&'static str, &'static str) {
    match task {
        Task::Shuffle => ("tests_amestecare", "test"),
        Task::War => ("tests_razboi", "razboi"),
        Task::RollingStone => ("tests_rolling_stone", "rollingstone"),
        Task::Scarabs => ("tests_scarabei", "scarabei"),
    }
}

/// The name of a task in `in`.
pub const fn task_name(task: Task) -> &'static str {
    match task {
        Task::Shuffle => "amestecare",
        Task::War => "razboi",
        Task::RollingStone => "rollingstone",
        Task::Scarabs => "scarabei",
    }
}

/// Generates `count` tests of `task` from `seed` (the same seed gives the same
/// tests); game tests first cover the task's rare paths, one test each, each
/// searched for at most `budget` deals. `progress` is called once per test.
pub fn generate(
    task: Task,
    seed: u64,
    count: usize,
    budget: usize,
    progress: &mut dyn FnMut(),
) -> (Vec<Generated>, Coverage) {
    // One stream per task, so adding a task never changes another's tests.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(task as u64);
    match task {
        Task::Shuffle => (
            shuffle_tests(&mut rng, count, progress),
            Coverage::default(),
        ),
        Task::War => game_tests(
            &mut rng,
            task,
            &war_profile,
            &war_features(),
            (count, budget),
            progress,
        ),
        Task::RollingStone => game_tests(
            &mut rng,
            task,
            &rolling_stone_profile,
            &rolling_stone_features(),
            (count, budget),
            progress,
        ),
        Task::Scarabs => game_tests(
            &mut rng,
            task,
            &scarabs_profile,
            &scarabs_features(),
            (count, budget),
            progress,
        ),
    }
}
