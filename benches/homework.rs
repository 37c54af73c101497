//! Criterion benchmarks: each shuffle on the 52-card list, a full game of each
//! kind, and the whole `in` -> `out` task. Targets (issue "The homework end to
//! end"): under 1 µs per shuffle, under 20 µs per game.

use std::hint::black_box;

use cardgames::homework::{self, RollingStone, Scarabs, War};
use cardgames::{Deck, Shuffle};
use criterion::{criterion_group, criterion_main, BatchSize, Criterion};

/// The deck of the original test razboi3 / scarabei-like mixes: a few shuffles.
fn mixed() -> Deck {
    let mut deck = Deck::standard();
    for line in ["intercalare", "mongean", "npiles 4 4 2 1 3", "inversare"] {
        line.parse::<Shuffle>().unwrap().apply(&mut deck).unwrap();
    }
    deck
}

fn shuffles(c: &mut Criterion) {
    let mut group = c.benchmark_group("shuffle");
    for line in [
        "inversare",
        "intercalare",
        "mongean",
        "npiles 4 1 4 3 2",
        "npiles 13 2 1 5 4 3 7 8 10 9 12 11 13 6",
    ] {
        let shuffle: Shuffle = line.parse().unwrap();
        let mut deck = Deck::standard();
        group.bench_function(line, |b| {
            b.iter(|| shuffle.apply(black_box(&mut deck)).unwrap())
        });
    }
    group.finish();
}

fn games(c: &mut Criterion) {
    let mut group = c.benchmark_group("game");
    group.bench_function("razboi", |b| {
        b.iter_batched(mixed, |deck| War::deal(deck).play(), BatchSize::SmallInput)
    });
    group.bench_function("rollingstone", |b| {
        b.iter_batched(
            mixed,
            |deck| RollingStone::deal(deck).play().unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.bench_function("scarabei", |b| {
        b.iter_batched(
            mixed,
            |deck| Scarabs::deal(deck).play().unwrap(),
            BatchSize::SmallInput,
        )
    });
    group.finish();
}

fn task(c: &mut Criterion) {
    let input = "scarabei\r\n4\r\nintercalare\r\nmongean\r\nnpiles 4 4 2 1 3\r\ninversare\r\n";
    c.bench_function("homework::run scarabei", |b| {
        b.iter(|| homework::run(black_box(input)).unwrap())
    });
}

criterion_group!(benches, shuffles, games, task);
criterion_main!(benches);
