//! The deep search: its exact endgame solver against a plain exhaustive minimax, its answers
//! always legal, and a short in-process tournament that replays exactly from its seed.

use cardgames::durak::cards::CardSet;
use cardgames::durak::deep::{
    deep_search, DecisionStats, DeepConfig, SearchContext, SearchSettings, Worlds,
};
use cardgames::durak::endgame::{ordered_answers, Solver};
use cardgames::durak::protocol::Command;
use cardgames::durak::referee::Naming;
use cardgames::durak::rules::team;
use cardgames::durak::strategy::{heuristic, Ctx, HeuristicParams};
use cardgames::durak::tournament::{play_one, TeamSpec};
use cardgames::durak::tracker::Tracker;
use cardgames::durak::DurakBot;
use cardgames::durak::{Answer, Event, Game, Pending, Strategy};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// Exhaustive minimax with no ordering, no cut-offs and no table: does team 0 win with
/// perfect play?
fn naive(game: &Game) -> bool {
    let p = match game.pending {
        Pending::Over(w) => return w == Some(0),
        Pending::Move(p) | Pending::Beat(p) | Pending::Add(p) => p,
    };
    let mut values = game.legal_answers().into_iter().map(|a| {
        let mut g = game.clone();
        g.apply(a, &mut Vec::new()).unwrap();
        naive(&g)
    });
    if team(p) == 0 {
        values.any(|v| v)
    } else {
        values.all(|v| v)
    }
}

#[test]
fn solver_with_its_table_agrees_with_exhaustive_minimax() {
    let mut solver = Solver::new();
    let mut checked = 0;
    for seed in 0..800u64 {
        let (mut g, _) = Game::new(seed);
        let mut events: Vec<Event> = Vec::new();
        let mut positions = Vec::new();
        // Every empty-talon position of a heuristic game with at most 8 cards in play, so the
        // table is reused across positions of the same game as in the bot.
        while let Some((cmd, ctx)) = Ctx::from_game(&g) {
            let in_play: usize =
                g.hands.iter().map(|h| h.len()).sum::<usize>() + g.round.table.len();
            if g.talon.is_empty() && in_play <= 8 {
                positions.push(g.clone());
            }
            g.apply(heuristic(cmd, &ctx), &mut events).unwrap();
        }
        solver.clear();
        for pos in positions.iter().rev() {
            let mut nodes = u64::MAX;
            let fast = solver.solve(pos, &mut nodes);
            assert_eq!(fast, Some(naive(pos)), "seed {seed}: {pos:?}");
            checked += 1;
        }
    }
    assert!(checked > 500, "only {checked} endgame positions checked");
}

#[test]
fn solver_refuses_positions_with_a_talon_and_respects_its_cap() {
    let (g, _) = Game::new(5);
    let mut solver = Solver::new();
    let mut nodes = 1000;
    assert_eq!(solver.solve(&g, &mut nodes), None);
    assert_eq!(nodes, 1000);
}

fn deep_vs(opponent: Strategy, seed: u64, deals: u64) -> Vec<String> {
    // A small work rate keeps the debug-built test quick; the safety net is pushed far away
    // so only the work caps decide (a clock cut would make the runs differ).
    let cfg = DeepConfig::parse("units_per_second=40000,hard_share=100").unwrap();
    let a = TeamSpec::InProcess(Strategy::Deep, cfg);
    let b = TeamSpec::InProcess(opponent, DeepConfig::default());
    (0..deals)
        .flat_map(|d| [false, true].map(|swapped| (d, swapped)))
        .map(|(d, swapped)| {
            let g = play_one(seed, d, swapped, &a, &b, true, Naming::Physical);
            assert_eq!(g.record.forfeit, None, "deal {d}: a forfeit");
            format!("{:?} {:?}", g.record.winner, g.record.transcript)
        })
        .collect()
}

#[test]
fn deep_tournament_replays_exactly_from_its_seed() {
    let first = deep_vs(Strategy::Heuristic, 12, 3);
    let second = deep_vs(Strategy::Heuristic, 12, 3);
    assert_eq!(first.len(), 6);
    for (i, (x, y)) in first.iter().zip(&second).enumerate() {
        assert_eq!(x, y, "game {i} differs between two runs of the same seed");
    }
}

#[test]
fn the_program_and_the_library_decide_alike() {
    // `durak-bot` as a program and the same bot in process (both through `durak::bot::decide`,
    // as the C ABI), with the same settings and per-seat seeds, play the same deals: every
    // line of every seat's view is the same.
    let knobs = "units_per_second=40000,hard_share=100,max_samples=40";
    let program = TeamSpec::Program(format!(
        "{} --seed {{seed}} --deep {knobs}",
        env!("CARGO_BIN_EXE_durak-bot")
    ));
    let library = TeamSpec::InProcess(Strategy::Deep, DeepConfig::parse(knobs).unwrap());
    let greedy = TeamSpec::InProcess(Strategy::Greedy, DeepConfig::default());
    for (deal, swapped) in [(0, false), (0, true), (1, false)] {
        let p = play_one(21, deal, swapped, &program, &greedy, true, Naming::Physical);
        let l = play_one(21, deal, swapped, &library, &greedy, true, Naming::Physical);
        assert_eq!(p.record.forfeit, None, "deal {deal}");
        assert!(p.record.transcript.is_some());
        assert_eq!(
            p.record.transcript, l.record.transcript,
            "deal {deal} {swapped}"
        );
        assert_eq!(p.record.winner, l.record.winner);
    }
}

/// A bot after an opening deal (trump hearts, player 1 holding 6S 7D 8S 9C TH JS),
/// with `MOVE` asked.
fn opening() -> DurakBot {
    let mut bot = DurakBot::new(Strategy::Deep, 1);
    bot.feed("trump H").unwrap();
    for c in ["6S", "7D", "8S", "9C", "TH", "JS"] {
        bot.feed(&format!("give 1 {c}")).unwrap();
    }
    for p in 2..=4 {
        for _ in 0..6 {
            bot.feed(&format!("give {p} ??")).unwrap();
        }
    }
    bot
}

/// The deep search's answer to `tracker`'s `MOVE` with a fresh solver and the rng seeded by
/// `seed` (the determinizations drawn from `worlds` when given).
fn search_move(
    tracker: &Tracker,
    default: Answer,
    cfg: &DeepConfig,
    work_cap: u64,
    deadline: Option<std::time::Instant>,
    seed: u64,
    worlds: Option<&Worlds>,
) -> (Answer, DecisionStats) {
    let legal = tracker.legal(Command::Move);
    deep_search(SearchContext {
        tracker,
        cmd: Command::Move,
        legal: &legal,
        default,
        cfg,
        solver: &mut Solver::new(),
        work_cap,
        deadline,
        rng: &mut ChaCha8Rng::seed_from_u64(seed),
        worlds,
    })
}

#[test]
fn deep_search_answers_legally_replays_and_obeys_the_safety_net() {
    let bot = opening();
    let legal = bot.tracker().legal(Command::Move);
    let default = legal[0];
    let cfg = DeepConfig::default();
    let run = |stop_now: bool, seed: u64| {
        let deadline = stop_now.then(std::time::Instant::now);
        search_move(bot.tracker(), default, &cfg, 20_000, deadline, seed, None)
    };
    let (a, stats) = run(false, 3);
    assert!(legal.contains(&a));
    assert!(stats.samples >= cfg.min_samples && !stats.clock_cut);
    // The work cap binds (one determinization may finish past it).
    assert!(stats.work >= 20_000 && stats.work < 40_000, "{stats:?}");
    assert_eq!(run(false, 3), (a, stats), "same seed, same answer and work");
    // The clock's safety net never cuts the first determinization (crate::search::Caps), and
    // one determinization is no evidence against the kept answer.
    let (cut, cut_stats) = run(true, 3);
    assert_eq!(cut, default);
    assert!(
        cut_stats.clock_cut && cut_stats.samples == 1,
        "{cut_stats:?}"
    );
}

#[test]
fn deep_search_keeps_the_heuristic_answer_without_evidence_against_it() {
    let bot = opening();
    let legal = bot.tracker().legal(Command::Move);
    let run = |default, keep_z| {
        let cfg = DeepConfig {
            search: SearchSettings {
                keep_z,
                ..SearchSettings::default()
            },
            ..DeepConfig::default()
        };
        search_move(bot.tracker(), default, &cfg, u64::MAX, None, 5, None).0
    };
    // With the bar out of reach every default stands; without it the samples choose, and
    // some default is overruled (six leads cannot all score best on the same samples).
    for &d in &legal {
        assert_eq!(run(d, 1e9), d);
    }
    assert!(legal.iter().any(|&d| run(d, 0.0) != d));
}

/// A tracker that knows every card of `game` (player 0 to lead, talon empty): the own hand,
/// the others' hands as if seen taken, the rest gone. Its determinizations are `game` itself.
fn open_tracker(game: &Game) -> Tracker {
    let mut t = Tracker::new();
    t.trump = Some(game.trump);
    t.hand = game.hands[0];
    t.sizes = game.hands.map(|h| h.len());
    t.known = game.hands;
    t.known[0] = CardSet::EMPTY;
    let held = game.hands.iter().fold(CardSet::EMPTY, |a, &h| a.union(h));
    t.gone = CardSet::ALL.minus(held);
    t.gives = 36;
    t.out = game.out;
    t.mover_seat = game.mover_seat;
    t.seats_known = true;
    t.rounds = game.rounds;
    t
}

/// Empty-talon positions of seeded heuristic games where player 0 leads, at most 10 cards are
/// in play, and the exact solver finds exactly one winning lead, which is not the heuristic's.
fn only_winning_leads(want: usize) -> Vec<(Game, Answer, Answer)> {
    let mut found = Vec::new();
    let mut solver = Solver::new();
    for seed in 0..2000u64 {
        let (mut g, _) = Game::new(seed);
        let mut events: Vec<Event> = Vec::new();
        while let Some((cmd, ctx)) = Ctx::from_game(&g) {
            let in_play: usize = g.hands.iter().map(|h| h.len()).sum();
            let h = heuristic(cmd, &ctx);
            if g.talon.is_empty() && in_play <= 10 && g.pending == Pending::Move(0) {
                let legal = g.legal_answers();
                solver.clear();
                let values = solver.solve_answers(&g, &legal, &mut u64::MAX.clone());
                let wins: Vec<Answer> = legal
                    .iter()
                    .zip(&values)
                    .filter(|(_, v)| **v == Some(true))
                    .map(|(a, _)| *a)
                    .collect();
                if legal.len() >= 3 && wins.len() == 1 && wins[0] != h {
                    found.push((g.clone(), wins[0], h));
                    break;
                }
            }
            g.apply(h, &mut events).unwrap();
        }
        if found.len() == want {
            break;
        }
    }
    found
}

#[test]
fn information_set_searches_find_the_only_winning_lead() {
    let positions = only_winning_leads(4);
    assert_eq!(positions.len(), 4, "too few test positions");
    for (g, win, heuristic_lead) in &positions {
        let tracker = open_tracker(g);
        let legal = tracker.legal(Command::Move);
        assert!(legal.contains(win) && legal.contains(heuristic_lead));
        // The trees, with the opponents choosing by UCB1 too, must find the lead that wins
        // against every defence.
        let cfg = DeepConfig::parse("tree_opp=1").unwrap();
        let (a, stats) = search_move(&tracker, *heuristic_lead, &cfg, 200_000, None, 1, None);
        assert_eq!(a, *win, "{stats:?}, position {g:?}");
        assert!(stats.samples > 0 && !stats.clock_cut);
    }
}

#[test]
fn the_endgame_diagnostic_is_the_exact_value_of_the_first_empty_talon_decision() {
    // Small empty-talon deals (two cards each) played by four heuristic bots: the referee's
    // diagnostic must be the exhaustive minimax value of the starting position.
    use cardgames::durak::referee::{play_game_with, PlayOptions};
    use cardgames::durak::tournament::BotSeat;
    let mut checked = 0;
    for seed in 0..30u64 {
        let (full, _) = Game::new(seed);
        // Two cards each from the deal, talon empty, the deal's first mover leads.
        let hands: [CardSet; 4] =
            std::array::from_fn(|p| full.hands[p].iter().take(2).collect::<CardSet>());
        let first = match full.pending {
            Pending::Move(p) => p,
            _ => unreachable!("a new game waits for a lead"),
        };
        let game = Game::from_parts(full.trump, hands, Vec::new(), first);
        let dealt: [Vec<cardgames::Card>; 4] = std::array::from_fn(|p| hands[p].iter().collect());
        let mut seats: Vec<BotSeat> = (0..4)
            .map(|i| BotSeat(DurakBot::new(Strategy::Heuristic, i)))
            .collect();
        let [s0, s1, s2, s3] = &mut seats[..] else {
            unreachable!()
        };
        let opts = PlayOptions {
            endgame_nodes: 1_000_000,
            ..PlayOptions::default()
        };
        let rec = play_game_with(game.clone(), &dealt, &mut [s0, s1, s2, s3], opts);
        let e = rec.endgame.expect("the game starts with the talon empty");
        assert_eq!(e.team0_wins, Some(naive(&game)), "seed {seed}");
        assert_eq!((e.first_cards, e.cards), (8, 8));
        assert!(e.nodes > 0);
        checked += 1;
    }
    assert_eq!(checked, 30);
}

/// The measurement bounds (feature `measure`: `cargo test --features measure --test durak_deep`).
#[cfg(feature = "measure")]
mod measure {
    use super::*;
    use cardgames::durak::measure::{showing, Summary, Worlds, EVERY_HAND};

    /// `game` with every card but player 0's hidden from `tracker`: the others' hands are unseen
    /// (its determinizations deal them at random).
    fn hidden_tracker(game: &Game) -> Tracker {
        let mut t = open_tracker(game);
        t.known = [CardSet::EMPTY; 4];
        t
    }

    #[test]
    fn the_clairvoyant_bound_searches_the_true_deal() {
        // The positions have one winning lead; a tracker that sees only its own hand is given the
        // true deal (the clairvoyant bound, talon empty so both bounds agree): every
        // determinization is then the true deal and the trees find the win.
        let positions = only_winning_leads(4);
        assert_eq!(positions.len(), 4, "too few test positions");
        for (g, win, heuristic_lead) in &positions {
            let tracker = hidden_tracker(g);
            for clairvoyant in [1, 2] {
                let cfg =
                    DeepConfig::parse(&format!("tree_opp=1,clairvoyant={clairvoyant}")).unwrap();
                let worlds = Worlds::Truth {
                    game: g.clone(),
                    order: clairvoyant == 2,
                };
                let (a, stats) = search_move(
                    &tracker,
                    *heuristic_lead,
                    &cfg,
                    200_000,
                    None,
                    1,
                    Some(&worlds),
                );
                assert_eq!(
                    a, *win,
                    "clairvoyant {clairvoyant}, {stats:?}, position {g:?}"
                );
            }
        }
    }

    #[test]
    fn the_partial_bound_deals_the_shown_hands_as_they_are() {
        // With the talon empty, a tracker that sees only its own hand deals the others' cards
        // at random; shown the partner's hand (player 2), every determinization must hold it
        // exactly and deal the two opponents the rest, as a set the true one.
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for seed in 0..8u64 {
            // A seeded deal of six cards each, the talon set aside (gone, to the tracker); player
            // 0 leads.
            let (full, _) = Game::new(seed);
            let g = &Game::from_parts(full.trump, full.hands, Vec::new(), 0);
            let hidden = hidden_tracker(g);
            let shown = showing(&hidden, g, 4);
            let opponents = g.hands[1].union(g.hands[3]);
            let mut partner_differs = 0;
            for _ in 0..50 {
                let d = shown.sample_game(Command::Move, &mut rng).unwrap();
                assert_eq!(d.hands[2], g.hands[2], "the partner's hand as it is");
                assert_eq!(d.hands[1].union(d.hands[3]), opponents);
                assert_eq!(d.hands[1].len(), g.hands[1].len());
                let h = hidden.sample_game(Command::Move, &mut rng).unwrap();
                partner_differs += usize::from(h.hands[2] != g.hands[2]);
            }
            // Without it the partner's hand is a guess (or the test shows nothing).
            assert!(partner_differs > 40, "seed {seed}: {partner_differs} of 50");
            // Every hand shown: the true deal itself.
            let all = showing(&hidden, g, EVERY_HAND)
                .sample_game(Command::Move, &mut rng)
                .unwrap();
            assert_eq!(all.hands, g.hands);
        }
        assert_eq!(
            DeepConfig::default().measure.clairvoyant_players,
            EVERY_HAND
        );
        let c = DeepConfig::parse("clairvoyant=1,clairvoyant_players=4")
            .unwrap()
            .measure;
        assert_eq!((c.clairvoyant, c.clairvoyant_players), (1, 4));
    }

    #[test]
    fn a_told_summary_of_the_partners_hand_holds_in_every_determinization() {
        // The signal bound: told only the number of plain cards the partner holds in each suit
        // (no hand shown), determinizations deal it a hand with those counts (all but the rare
        // ones where none of SUMMARY_DRAWS draws had them), while a tracker told nothing deals
        // other counts too.
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let counts = Summary::from_number(1).unwrap();
        assert_eq!(counts, Summary::SuitCounts);
        let (mut matched, mut told_other, mut blind_other) = (0, 0, 0);
        for seed in 0..8u64 {
            let (full, _) = Game::new(seed);
            let g = &Game::from_parts(full.trump, full.hands, Vec::new(), 0);
            let hidden = hidden_tracker(g);
            let truth = counts.of(g.hands[2], g.trump);
            let told = Worlds::Told {
                tracker: hidden.clone(),
                summary: Some((counts, truth)),
            };
            for _ in 0..20 {
                let d = told.draw(Command::Move, &mut rng).unwrap();
                matched += usize::from(counts.of(d.hands[2], d.trump) == truth);
                told_other += usize::from(d.hands[2] != g.hands[2]);
                let h = hidden.sample_game(Command::Move, &mut rng).unwrap();
                blind_other += usize::from(counts.of(h.hands[2], h.trump) != truth);
            }
        }
        assert!(matched >= 150, "{matched} of 160 matched");
        // The counts do not give the hand away, and without them they are a guess.
        assert!(told_other > 100, "{told_other} of 160");
        assert!(blind_other > 80, "{blind_other} of 160");
        let c = DeepConfig::parse("clairvoyant_players=0,clairvoyant_summary=8")
            .unwrap()
            .measure;
        assert_eq!((c.clairvoyant_players, c.clairvoyant_summary), (0, 8));
        assert!(DeepConfig::parse("clairvoyant_summary=9").is_err());
    }

    #[test]
    fn partner_summaries_read_a_worked_hand() {
        // Hearts trump; plain: 6 and queen of spades, ace of clubs; trumps: 7 and king of hearts.
        use cardgames::card::{Card, Rank, Suit};
        let hand: CardSet = [
            (Rank::Six, Suit::Spades),
            (Rank::Queen, Suit::Spades),
            (Rank::Ace, Suit::Clubs),
            (Rank::Seven, Suit::Hearts),
            (Rank::King, Suit::Hearts),
        ]
        .into_iter()
        .map(|(r, s)| Card::new(r, s))
        .collect();
        let of = |n| Summary::from_number(n).unwrap().of(hand, Suit::Hearts);
        // One byte per suit in Suit::ALL order: spades, hearts, clubs, diamonds.
        assert_eq!(of(1), 2 | 1 << 16); // two spades, one club
        assert_eq!(of(3), 1 | 1 << 16); // spades and clubs held
        assert_eq!(of(4), 1 | 1 << 16); // the queen of spades, the ace of clubs
        assert_eq!(of(5), 1 << 16); // rank sums 0 + 6 in spades (0 eighths), 8 in clubs (1)
        assert_eq!(of(7), 2); // two trumps
        assert_eq!(of(8), 1 | 1 << 6 | 1 << 8); // sixes, queens, aces
        assert_eq!(Summary::from_number(0), None);
    }
}

/// The solver's move ordering loses no legal answer and adds none.
#[test]
fn ordered_answers_are_exactly_the_legal_answers() {
    for seed in 0..200u64 {
        let (mut g, _) = Game::new(seed);
        let mut ev = Vec::new();
        while !g.is_over() {
            let mut legal = g.legal_answers();
            let mut out = [Answer::No; 40];
            let n = ordered_answers(&g, &mut out);
            let mut got = out[..n].to_vec();
            let ord = |a: &Answer| match a {
                Answer::No => 99,
                Answer::Card(c) => cardgames::durak::cards::index(*c),
            };
            legal.sort_by_key(ord);
            got.sort_by_key(ord);
            assert_eq!(got, legal, "seed {seed}");
            let a = legal[seed as usize % legal.len()];
            g.apply(a, &mut ev).unwrap();
        }
    }
}

/// The deep search's knobs reach its playout policies; bad ones are refused, one line.
#[test]
fn knobs_reach_the_playout_policies_and_unknown_ones_are_refused() {
    let c = DeepConfig::parse("keep_z=2,opp.lead_pair=0,own.take_talon=12").unwrap();
    assert_eq!(c.keep_z, 2.0);
    assert_eq!(c.opponent.lead_pair, 0);
    assert_eq!(
        c.opponent.take_trump_rank,
        HeuristicParams::plain().take_trump_rank
    );
    assert_eq!(c.heuristic.take_talon, 12);
    assert_eq!(c.heuristic.lead_pair, HeuristicParams::default().lead_pair);
    let t = DeepConfig::parse("ucb_c=0.5,tree_opp=1,tree_depth=3").unwrap();
    assert_eq!((t.ucb_c, t.tree_opp, t.tree_depth), (0.5, 1, 3));
    assert_eq!(DeepConfig::default().tree_opp, 2);
    for bad in [
        "tree_opp=3",
        "opp.nonsense=1",
        "own.throw_trump_end=300",
        "keep_z=-1",
        "max_samples=2.5",
        "opponent_mix=nan",
        "reject_z=3",
    ] {
        assert!(DeepConfig::parse(bad).is_err(), "{bad} accepted");
    }
    // An unknown key's error lists the accepted keys.
    let err = DeepConfig::parse("samples=3").unwrap_err();
    assert!(err.contains("\"samples\"") && err.contains("keep_z") && err.contains("own.KEY"));
    assert!(err.contains("lead_pair"), "{err}");
}
