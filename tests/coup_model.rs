//! The opponent model, the memory file and constructed positions whose right
//! answer is known.

#[path = "support/coup_decide.rs"]
mod coup_decide;
use cardgames::coup::character::Character;
use cardgames::coup::character::Character::*;
use cardgames::coup::memory::{
    game_result, opponent_name, Entry, GameResult, Memory, FILE_NAME, HEADER, RECENT,
};
use cardgames::coup::model::{bluff_rate, hand_distribution, PassWeights, HALF_PASS};
use cardgames::coup::opponent::{
    action_bluff_share_after, kind_index, race_standing, Model, Stats, ACTION_KINDS,
    P_HOLD_EITHER_TWO, P_HOLD_ONE, P_HOLD_TWO, RACE_PRIOR_WEIGHT,
};
use cardgames::coup::{Action, Block, History, Strategy};
use coup_decide::{decide, decide_with};

fn legal(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

// ----- the hand posterior, against hand-computed values -----

/// The probability that the player of record `r`, holding `k` cards of the
/// `unseen` pool, holds each character: the marginals of the hand
/// distribution with its standing claims weighed at its bluff rate.
fn hand_probabilities(r: &cardgames::coup::Record, unseen: &[u32; 5], k: usize) -> [f64; 5] {
    let ratio = [bluff_rate(r).clamp(0.02, 1.0); 5];
    marginals(&hand_distribution(r, unseen, k, ratio, false, HALF_PASS))
}

#[test]
fn posterior_without_evidence_is_hypergeometric() {
    // Two cards from the 15-card deck: P(at least one Duke) = 1 - C(12,2)/C(15,2).
    let h = History::parse("").unwrap();
    let p = hand_probabilities(&h.opp, &[3; 5], 2);
    assert!((p[Duke.index()] - 39.0 / 105.0).abs() < 1e-12, "{p:?}");
    // I hold two Dukes: 13 unseen, one Duke among them: 1 - C(12,2)/C(13,2) = 12/78.
    let p = hand_probabilities(&h.opp, &[3, 3, 3, 3, 1], 2);
    assert!((p[Duke.index()] - 12.0 / 78.0).abs() < 1e-12, "{p:?}");
    // One card left: the share of the character in the unseen pool.
    let p = hand_probabilities(&h.opp, &[1, 2, 3, 3, 3], 1);
    assert!((p[Ambassador.index()] - 1.0 / 12.0).abs() < 1e-12, "{p:?}");
}

#[test]
fn posterior_with_a_claim_and_a_caught_bluff() {
    // The opponent (line 0) claimed Tax unchallenged: hands without a Duke are
    // weighted by the bluff rate 0.3 (prior 0.6 / 2, nothing proved or caught).
    let h = History::parse("Tp\n").unwrap();
    let p = hand_probabilities(&h.opp, &[3; 5], 2);
    let with = 39.0;
    let without = 66.0 * 0.3;
    assert!(
        (p[Duke.index()] - with / (with + without)).abs() < 1e-12,
        "{p:?}"
    );
    // Caught bluffing Tax (gave up Assassin): no Duke in the remaining card.
    let h = History::parse("Tq'\n").unwrap();
    let p = hand_probabilities(&h.opp, &[3, 2, 3, 3, 3], 1);
    assert_eq!(p[Duke.index()], 0.0);
    assert!((p[Ambassador.index()] - 3.0 / 11.0).abs() < 1e-12, "{p:?}");
}

#[test]
fn behaviour_rates_follow_the_counts() {
    // Priors are the stated means.
    let m = Model::default();
    assert!((m.challenge_block(Block::Contessa) - 0.25).abs() < 1e-12);
    assert!((m.challenge_action(Action::Tax, 2) - 0.2).abs() < 1e-12);
    // Twenty challenged blocks out of twenty: Beta(1,3) + 20/20 for the
    // pooled rate 21/24, then that as a prior worth two for Contessa blocks.
    let mut s = Stats::default();
    s.block_challenged[3] = [20, 20];
    let m = Model::new(&Stats::default(), Some(&s));
    let pooled = 21.0 / 24.0;
    assert!((m.challenge_block(Block::Contessa) - (2.0 * pooled + 20.0) / 22.0).abs() < 1e-12);
    assert!((m.challenge_block(Block::Duke) - pooled).abs() < 1e-12);
    // Its claims of Duke proved 30 times out of 30: a tiny bluff ratio.
    let mut s = Stats::default();
    s.action_caught[Duke.index()] = [30, 0];
    let m = Model::new(&Stats::default(), Some(&s));
    assert!(
        m.action_bluff_ratio(Duke) < 0.01,
        "{}",
        m.action_bluff_ratio(Duke)
    );
}

#[test]
fn stats_read_from_a_history() {
    // Line 0 mine: Steal blocked as Captain, I challenged, it was caught.
    // Line 1 its: Tax, I challenged, Duke shown. Line 2 mine: Tax challenged.
    // (It had lost a card by then.) Line 3 its: Assassinate, I block as Contessa, it challenges, I prove it.
    let h = History::parse("Scq'\nTq$_\nTq$<\nAsq!=\n").unwrap();
    assert!(h.i_went_first);
    let s = Stats::from_history(&h);
    assert_eq!(s.block_caught[Captain.index()], [1, 1]);
    assert_eq!(s.action_caught[Duke.index()], [1, 0]);
    assert_eq!(
        s.challenged[1][0],
        [1, 1],
        "Tax challenged while it held one card"
    );
    assert_eq!(s.challenged[2][1], [1, 0], "Steal not challenged");
    assert_eq!(s.block_challenged[3], [1, 1], "Contessa block challenged");
    // Its last-card Contessa block, challenged and caught (it gave up its
    // Duke).
    let h = History::parse("Tp\nI\nTp\nI\nC_\nI\nTp\nI\nAsq0").unwrap();
    let s = Stats::from_history(&h);
    assert_eq!(s.block_caught[Contessa.index()], [1, 1]);
    // An accepted block (the line ends with it) is a block not challenged.
    let h = History::parse("Sc\nI\nI\n").unwrap();
    let s = Stats::from_history(&h);
    assert_eq!(s.block_challenged[1], [1, 0]);
}

#[test]
fn a_stray_card_before_the_newline_is_not_a_loss() {
    // Calculator challenged a Captain block that was a bluff (the blocker gave
    // up Assassin), then wrote a card with its closing newline: `Scq'=`.
    let h = History::parse("Scq'=\n").unwrap();
    let (actor, victim) = if h.i_went_first {
        (&h.me, &h.opp)
    } else {
        (&h.opp, &h.me)
    };
    assert_eq!(victim.lost, vec![Assassin]);
    assert!(actor.lost.is_empty(), "{:?}", actor.lost);
    let last = *h.replay().last().unwrap();
    assert_eq!(last.1.iter().sum::<usize>(), 3, "{last:?}");
}

// ----- constructed positions with a known right answer -----

#[test]
fn challenges_a_certainly_false_claim_when_affordable() {
    // I hold two Dukes and the third is dead: its Tax is a bluff. I have two
    // cards, so a challenge costs nothing; it must be made.
    let hist = "Tp\nC0\nT";
    let d = decide(Strategy::Search, hist, 1, 1, "$$", &legal(&["p", "q"]));
    assert_eq!(d.answer, "q");
}

#[test]
fn never_challenges_a_claim_it_knows_is_true() {
    // Its Duke claims were proved 40 times out of 40 in past games: pass.
    let mut mem = Stats::default();
    mem.action_caught[Duke.index()] = [40, 0];
    for (hist, cards) in [("T", "!*"), ("I\nT", "~^"), ("Tp\nIp\nT", "!!")] {
        let legal = legal(&["p", "q"]);
        let d = decide_with(Strategy::Search, hist, 1, 1, cards, &legal, Some(&mem));
        assert_eq!(d.answer, "p", "{hist:?} {cards}");
    }
}

#[test]
fn never_bluff_blocks_against_a_block_challenger() {
    // It challenged each of my 20 blocks in past games; it assassinates me
    // and I hold no Contessa: a bluffed Contessa block would lose both cards.
    let mut mem = Stats::default();
    for k in 0..4 {
        mem.block_challenged[k] = [5, 5];
    }
    for (hist, cards, coins) in [("Tp\nTp\nA", "$~", 7), ("Tp\nIp\nTp\nA", "*^", 5)] {
        let legal = legal(&["s", "q", "_", "0", "<", "'"]);
        let d = decide_with(Strategy::Search, hist, coins, 1, cards, &legal, Some(&mem));
        assert_ne!(d.answer, "s", "{hist:?} {cards}");
    }
    // Nor a Captain block of a Steal.
    let mut mem = Stats::default();
    mem.block_challenged[1] = [10, 10];
    let d = decide_with(
        Strategy::Search,
        "Tp\nIp\nS",
        4,
        3,
        "$!",
        &legal_steal(),
        Some(&mem),
    );
    assert!(d.answer != "c" && d.answer != "a", "{}", d.answer);
}

#[test]
fn challenges_a_doubtful_block_when_accepting_it_is_a_certain_draw() {
    // I Couped its Ambassador, each of us took Income once, then both
    // sides' Foreign Aid was blocked by a Duke 59 times (3 calls a turn).
    // Now its Duke blocks my Foreign Aid again with 196 of the arbiter's 200
    // calls made: accepting leaves 3 calls, too few for the 6 coins I lack,
    // so it ends the game as a draw (which scores nothing, `docs/rules/coup.md` §6.1);
    // a challenge wins unless its last card is a Duke (I hold one of the three).
    let mut hist = String::from("Tp\nFd\nTp\nFd\nC_\nI\nI\n");
    for _ in 0..59 {
        hist.push_str("Fd\n");
    }
    hist.push_str("Fd");
    assert_eq!(cardgames::coup::history::calls_made(&hist), 196);
    let h = cardgames::coup::History::parse(&hist).expect("parse");
    assert!(h.i_went_first && h.opp.lost == vec![Ambassador]);
    let legal = legal(&["q", "\n"]);
    let d = decide(Strategy::Search, &hist, 2, 1, "$!", &legal);
    assert_eq!(d.answer, "q");
}

fn legal_steal() -> Vec<String> {
    legal(&["a", "c", "p", "q"])
}

// ----- the memory file -----

/// A fresh folder, removed when the returned guard drops.
fn tmpdir(name: &str) -> tempfile::TempDir {
    tempfile::Builder::new()
        .prefix(&format!("coup-memory-test-{name}-"))
        .tempdir()
        .unwrap()
}

fn sample_stats(x: u32) -> Stats {
    let mut s = Stats::default();
    s.block_challenged[0] = [x + 1, x];
    s.action_caught[Duke.index()] = [x, 1.min(x)];
    s
}

#[test]
fn memory_roundtrip_and_bounds() {
    let dir = tmpdir("roundtrip");
    let d = dir.path().to_path_buf();
    let mut m = Memory::default();
    for g in 0..10 {
        m.record("Calc", &format!("Ours_Calc_{g}_0.txt"), sample_stats(g));
    }
    m.save(&d).unwrap();
    let back = Memory::load(&d);
    assert_eq!(back, m);
    let e = &back.opponents["Calc"];
    assert_eq!(e.recent.len(), 4, "the last four games apart");
    // Older games summed: 0..6 -> trials of block_challenged[0] = 1+...+6+... .
    assert_eq!(
        e.old.block_challenged[0][0],
        (0..6).map(|g| g + 1).sum::<u32>()
    );
    // The current game is excluded from what the model is given.
    let ex = e.excluding("Ours_Calc_9_0.txt");
    assert_eq!(
        ex.block_challenged[0][0],
        (0..9).map(|g| g + 1).sum::<u32>()
    );
    // At most 64 opponents.
    for i in 0..100 {
        m.record(&format!("B{i}"), "x_y_0_0.txt", sample_stats(1));
    }
    assert_eq!(m.opponents.len(), 64);
    assert!(m.opponents.contains_key("B99"));
}

#[test]
fn memory_ignores_corruption_and_truncation() {
    let dir = tmpdir("corrupt");
    let d = dir.path().to_path_buf();
    // Missing file: empty memory.
    assert!(Memory::load(&d).opponents.is_empty());
    // Garbage (and binary) content: empty memory, then a valid rewrite.
    std::fs::write(d.join(FILE_NAME), b"\xff\x00garbage\nmore\n").unwrap();
    let mut m = Memory::load(&d);
    assert!(m.opponents.is_empty());
    m.record("Calc", "Ours_Calc_0_0.txt", sample_stats(3));
    m.record("Other", "Ours_Other_0_0.txt", sample_stats(2));
    m.save(&d).unwrap();
    let text = std::fs::read_to_string(d.join(FILE_NAME)).unwrap();
    assert!(text.starts_with(HEADER));
    // Truncated in the middle of the last line: that line is dropped alone.
    // Cut at a field's end too (" -\n" is the last field): a line of the
    // current format has all of its fields.
    for n in [4, 2] {
        let cut = &text[..text.len() - n];
        std::fs::write(d.join(FILE_NAME), cut).unwrap();
        let m2 = Memory::load(&d);
        assert_eq!(m2.opponents.len(), 1, "cut {n}");
        assert_eq!(m2.opponents["Calc"], m.opponents["Calc"]);
    }
    // A line with hits above trials, or a wrong count of numbers, is dropped.
    let bad = format!(
        "{HEADER}\nX 1 1,2 -\nY 1 {} -\n",
        vec!["0"; Stats::LEN].join(",")
    );
    std::fs::write(d.join(FILE_NAME), bad).unwrap();
    let m3 = Memory::load(&d);
    assert_eq!(m3.opponents.keys().collect::<Vec<_>>(), vec!["Y"]);
    // A wrong header, an older format's among them: read as empty, and
    // said so.
    for old in ["coup-memory v0", "coup-memory v14", "coup-memory v15"] {
        std::fs::write(d.join(FILE_NAME), text.replace(HEADER, old)).unwrap();
        let (m, why) = Memory::read(&d);
        assert!(m.opponents.is_empty());
        assert!(why.is_some_and(|w| w.contains(old) && !w.contains('\n')));
    }
    std::fs::write(d.join(FILE_NAME), &text).unwrap();
    assert_eq!(Memory::read(&d).1, None, "the current format says nothing");
}

#[test]
fn memory_survives_concurrent_writers() {
    let dir = tmpdir("concurrent");
    let d = dir.path().to_path_buf();
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let d = d.clone();
            std::thread::spawn(move || {
                for i in 0..50u32 {
                    let mut m = Memory::load(&d);
                    m.record("Calc", &format!("Ours_Calc_{t}_{i}.txt"), sample_stats(i));
                    let _ = m.save(&d);
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let text = std::fs::read_to_string(d.join(FILE_NAME)).unwrap();
    assert!(text.starts_with(HEADER));
    let m = Memory::load(&d);
    assert_eq!(m.opponents.len(), 1, "{text}");
    assert!(!m.opponents["Calc"].recent.is_empty());
}

// ----- the portfolio -----

#[test]
fn the_result_of_a_finished_history() {
    let won = |text: &str| game_result(text, true).map(|r| r.won);
    // The first player caught bluffing twice: it lost, after one card
    // against two; the second player saw two against one.
    let first = game_result("Tq0\nI\nTq'\n", true).unwrap();
    assert!(!first.won);
    let second = game_result("Tq0\nI\nTq'\n", false).unwrap();
    assert!(second.won);
    // The other player's counts over the whole game: the second player
    // caught both Tax claims (first claims of two hands, both bluffs).
    assert_eq!(second.stats.action_caught[Duke.index()], [2, 2]);
    assert_eq!(first.stats.action_caught, [[0, 0]; 5]);
    // A history read from a chosen side: the side to answer next (here the
    // first player, answering the Steal) reads it as `parse` does.
    let text = "Tp\nS";
    assert_eq!(
        History::parse_as(text, true).unwrap(),
        History::parse(text).unwrap()
    );
    let other = History::parse_as(text, false).unwrap();
    assert!(!other.i_went_first);
    assert_eq!(other.opp.claims, History::parse(text).unwrap().me.claims);
    // The second player's Contessa block caught: it loses both cards at
    // once, with one written (docs/rules/coup.md §2.2 rule 4).
    assert_eq!(won("I\nI\nI\nI\nAsq="), Some(true));
    // The first player challenged the second's honest Assassination: it
    // loses both cards.
    assert_eq!(won("I\nI\nI\nAq^'"), Some(false));
    // A caught Assassination bluff costs one card only; a shown Contessa
    // costs the challenger one card: the game goes on.
    assert_eq!(won("I\nI\nI\nAq'\n"), None);
    assert_eq!(won("I\nI\nI\nI\nAsq!'"), None);
    assert_eq!(won(""), None);
    assert_eq!(won("I\nX"), None, "not a history");
}

#[test]
fn a_settled_game_takes_the_whole_games_counts() {
    let mut e = Entry::default();
    e.track("Ours_Calc_0_0.txt", 0);
    e.track("Ours_Calc_0_0.txt", 0);
    assert_eq!(e.pending.len(), 1, "tracked once");
    let lost = game_result("Tq0\nI\nTq'\n", true).unwrap();
    e.recent
        .push(("Ours_Calc_0_0.txt".into(), Stats::default()));
    assert!(e.settle("Ours_Calc_0_0.txt", &lost));
    assert!(!e.settle("Ours_Calc_0_0.txt", &lost), "settled once");
    assert_eq!(
        e.recent[0].1, lost.stats,
        "the whole game's counts replace the last call's"
    );
    assert!(e.pending.is_empty());
    // At most RECENT pending games.
    for g in 0..6 {
        e.track(&format!("Ours_Calc_{g}_1.txt"), 1);
    }
    assert_eq!(e.pending.len(), RECENT);
    let won = GameResult {
        won: true,
        stats: Stats::default(),
    };
    let (g, _) = e.pending[0].clone();
    assert!(e.settle(&g, &won));
    assert_eq!(e.pending.len(), RECENT - 1);
}

#[test]
fn typed_choice_plays_arm_1_against_a_mixed_answer_to_blocks() {
    let names: Vec<String> = (0..20).map(|g| format!("Ours_Seer_{g}_0.txt")).collect();
    // No block answered yet, every one challenged (the contest winner's
    // habit) or none (a player that challenges only what it can rule out):
    // arm 0, whatever the arms' results say.
    let none = Stats::default();
    let all = Stats {
        block_challenged: [[3, 3], [0, 0], [5, 5], [1, 1]],
        ..Stats::default()
    };
    let never = Stats {
        block_challenged: [[4, 0], [2, 0], [7, 0], [0, 0]],
        ..Stats::default()
    };
    for past in [&none, &all, &never] {
        let mut e = Entry::default();
        assert!(names.iter().all(|g| e.choose_typed_arm(g, past) == 0));
    }
    // Blocks both challenged and let stand, of one kind or across kinds:
    // arm 1 for every later game.
    let one = Stats {
        block_challenged: [[3, 3], [0, 0], [6, 5], [1, 1]],
        ..Stats::default()
    };
    let across = Stats {
        block_challenged: [[2, 2], [0, 0], [3, 0], [0, 0]],
        ..Stats::default()
    };
    for past in [&one, &across] {
        let mut e = Entry::default();
        assert!(names.iter().all(|g| e.choose_typed_arm(g, past) == 1));
    }
    // A game keeps the arm chosen at its first call, and is pending.
    let mut e = Entry::default();
    assert_eq!(e.choose_typed_arm(&names[0], &none), 0);
    assert_eq!(
        e.choose_typed_arm(&names[0], &one),
        0,
        "chosen once per game"
    );
    assert_eq!(e.pending, [(names[0].clone(), 0)]);
}

#[test]
fn typed_choice_plays_arm_1_against_an_attacker_that_bluffs_and_lets_blocks_stand() {
    let names: Vec<String> = (0..20).map(|g| format!("Ours_Bandit_{g}_0.txt")).collect();
    let mut bluffer = Stats {
        block_challenged: [[0, 0], [5, 0], [0, 0], [3, 0]],
        ..Stats::default()
    };
    // One Steal proved a bluff (both cards shown without a Captain) in
    // some context, two honest Assassinations in others.
    bluffer.resolved_action[Character::Captain.index()][1] = [1, 1];
    bluffer.resolved_action[Character::Assassin.index()][5] = [2, 0];
    // Bluffed Taxes and Exchanges are not attacks.
    bluffer.resolved_action[Character::Duke.index()][0] = [9, 9];
    bluffer.resolved_action[Character::Ambassador.index()][0] = [4, 4];
    assert_eq!(bluffer.attack_bluffs(), [3, 1]);
    let arm = |past: &Stats| {
        let mut e = Entry::default();
        let arms: Vec<usize> = names.iter().map(|g| e.choose_typed_arm(g, past)).collect();
        assert!(arms.iter().all(|&a| a == arms[0]), "one arm per opponent");
        arms[0]
    };
    assert_eq!(arm(&bluffer), 1);
    // Honest attacks, or bluffed Taxes alone: arm 0.
    let mut honest = bluffer;
    honest.resolved_action[Character::Captain.index()][1] = [1, 0];
    assert_eq!(honest.attack_bluffs(), [3, 0]);
    assert_eq!(arm(&honest), 0);
    // No block of mine answered yet: no type read.
    let mut unseen = bluffer;
    unseen.block_challenged = [[0, 0]; 4];
    assert_eq!(arm(&unseen), 0);
    // An attacker that challenges every block of mine plays the contest
    // winner's rule: arm 0; one that challenges some and not others: arm 1.
    let mut challenger = bluffer;
    challenger.block_challenged = [[0, 0], [5, 5], [0, 0], [3, 3]];
    assert_eq!(arm(&challenger), 0);
    challenger.block_challenged[3] = [3, 1];
    assert_eq!(arm(&challenger), 1);
}

#[test]
fn memory_keeps_the_pending_arms() {
    let dir = tmpdir("arms");
    let d = dir.path().to_path_buf();
    let mut m = Memory::default();
    m.record("Seer", "Ours_Seer_0_0.txt", sample_stats(2));
    let e = m.opponents.get_mut("Seer").unwrap();
    e.pending = vec![("Seer_Ours_0_1.txt".into(), 1)];
    m.save(&d).unwrap();
    assert_eq!(Memory::load(&d), m);
    // An arm out of range, a game that is a path: the line is dropped.
    let text = std::fs::read_to_string(d.join(FILE_NAME)).unwrap();
    for bad in [" g_h_0_0.txt=2", " ../g_h_0_0.txt=1"] {
        let t = text.trim_end().rsplit_once(' ').unwrap().0.to_string() + bad + "\n";
        std::fs::write(d.join(FILE_NAME), t).unwrap();
        assert!(Memory::load(&d).opponents.is_empty(), "{bad}");
    }
}

#[test]
fn opponent_names() {
    assert_eq!(
        opponent_name("/x/Ours_Calculator_3_1.txt", "Ours").map(|p| p.0),
        Some("Calculator".to_string())
    );
    assert_eq!(opponent_name("/x/hist.txt", "Ours"), None);
    // The opponent's name may hold an underscore; the file name comes back whole.
    assert_eq!(
        opponent_name("/g/Ours_Calc_u_3_1.txt", "Ours"),
        Some(("Calc_u".into(), "Ours_Calc_u_3_1.txt".into()))
    );
    assert_eq!(
        opponent_name("/g/Calc_Ours_0_12.txt", "Ours"),
        Some(("Calc".into(), "Calc_Ours_0_12.txt".into()))
    );
    assert_eq!(opponent_name("/g/A_B_0_1.txt", "Ours"), None);
}

#[test]
fn policy_mixture_identifies_pure_policies() {
    use cardgames::coup::opponent::mixture_rate;
    // No evidence: the prior mixture, w_always + w_rate * rate.
    let p = mixture_rate((0.3, 0.2), (1.0, 3.0), [0, 0], 0.25);
    assert!((p - (0.3 + 0.5 * 0.25)).abs() < 1e-12);
    // One challenge: never is ruled out; always : rate = 0.3 : 0.5 * 1/4.
    let p = mixture_rate((0.3, 0.2), (1.0, 3.0), [1, 1], 0.4);
    let (wa, wb) = (0.3, 0.5 * 0.25);
    assert!((p - (wa + wb * 0.4) / (wa + wb)).abs() < 1e-12);
    // One block let stand: always is ruled out.
    let p = mixture_rate((0.3, 0.2), (1.0, 3.0), [1, 0], 0.2);
    let (wn, wb) = (0.2, 0.5 * 0.75);
    assert!((p - wb * 0.2 / (wn + wb)).abs() < 1e-12);
    // Twenty challenges in twenty: almost surely "always".
    assert!(mixture_rate((0.3, 0.2), (1.0, 3.0), [20, 20], 0.9) > 0.999);
    // Mixed answers: only the rate model is left.
    assert!((mixture_rate((0.3, 0.2), (1.0, 3.0), [10, 4], 0.37) - 0.37).abs() < 1e-12);
}

#[test]
fn a_declined_block_weighs_the_hands_holding_the_card() {
    // I (line 0, to move again) stole and the opponent passed: it declined
    // to block with a Captain or an Ambassador; then it took Income.
    let h = History::parse("Sp\nI\n").unwrap();
    assert_eq!(h.opp.declined, vec![Ambassador, Captain]);
    // The posterior probability that it holds `card`.
    let holds = |card: Character, pass: PassWeights| {
        let hands = hand_distribution(&h.opp, &[3; 5], 2, [1.0; 5], false, pass);
        let total: f64 = hands.iter().map(|x| x.1).sum();
        let with: f64 = hands
            .iter()
            .filter(|x| x.0.contains(&card))
            .map(|x| x.1)
            .sum();
        with / total
    };
    // Weight 1: the hypergeometric 39 of 105.
    let none = PassWeights {
        block: 1.0,
        tax: None,
    };
    assert!((holds(Captain, none) - 39.0 / 105.0).abs() < 1e-12);
    // Weight 0.1 on each held blocking card, counted by hand: with a Captain
    // 3 x 0.1 (two) + 9 x 0.01 (and an Ambassador) + 27 x 0.1 (and another)
    // = 3.09; without, 3 x 0.1 + 27 x 0.1 (an Ambassador) + 36 = 39.
    let tenth = PassWeights {
        block: 0.1,
        tax: None,
    };
    assert!((holds(Captain, tenth) - 3.09 / 42.09).abs() < 1e-12);
    // The turn weight reads Income as a Duke passed over, and only when set.
    let passed = PassWeights {
        block: 1.0,
        tax: Some(0.5),
    };
    assert!((holds(Duke, none) - 39.0 / 105.0).abs() < 1e-12);
    assert!(
        (holds(Duke, passed) - 19.5 / 85.5).abs() < 1e-12,
        "{}",
        holds(Duke, passed)
    );
}

#[test]
fn the_hand_distribution_without_evidence_counts_every_hand() {
    let unseen = [3, 2, 3, 3, 2];
    let ratio = [0.3, 0.5, 0.2, 1.0, 0.25];
    // Hypergeometric weights without evidence count C(13, 2) = 78 hands.
    let prior: f64 = hand_distribution(&Default::default(), &unseen, 2, ratio, true, HALF_PASS)
        .iter()
        .map(|x| x.1)
        .sum();
    assert!((prior - 78.0).abs() < 1e-9);
}

#[test]
fn keeps_the_ambassador_against_a_player_who_challenges_every_claim() {
    // It Taxed, then challenged my Exchange and lost a card to my
    // Ambassador; it has challenged every claim of mine in 20 past games.
    // Offered Assassin, Contessa, Assassin, Ambassador with 1 coin: the
    // Ambassador is the claim I can make next turn, and its challenge costs
    // it its last card; an Assassin is no claim below 3 coins.
    let hist = "Tp\nEq~<";
    let mut mem = Stats::default();
    for k in 0..4 {
        mem.challenged[k] = [[20, 20], [20, 20]];
    }
    let d = decide_with(
        Strategy::Search,
        hist,
        4,
        1,
        "^!^~",
        &legal(&["\n"]),
        Some(&mem),
    );
    let keep = d.exchange_keep.expect("an Exchange call");
    assert!(keep.contains('~'), "kept {keep}");
    assert_eq!(keep.len(), 2);
}

// ----- the Exchange-aware prior and the resolved claims -----

/// The probability of each character in the hand, from unnormalized weights.
fn marginals(d: &[(Vec<Character>, f64)]) -> [f64; 5] {
    let total: f64 = d.iter().map(|e| e.1).sum();
    let mut p = [0.0; 5];
    for (hand, w) in d {
        for c in Character::ALL {
            if hand.contains(&c) {
                p[c.index()] += w / total;
            }
        }
    }
    p
}

#[test]
fn a_hand_chosen_at_an_exchange_keeps_its_best_cards() {
    use cardgames::coup::model::{hand_distribution_chosen, EXCHANGE_RANK};
    // The marginals of `k` cards kept of `r.chosen_from` drawn from `pool`
    // (by EXCHANGE_RANK when `ranked`, else drawn blind), no other evidence.
    let kept = |r: &cardgames::coup::Record, pool: &[u32; 5], k: usize, ranked: bool| {
        let rank = ranked.then_some(EXCHANGE_RANK);
        marginals(&hand_distribution_chosen(
            r, pool, k, [1.0; 5], false, HALF_PASS, rank,
        ))
    };
    // One card kept of two drawn from two Ambassadors and a Duke: it holds
    // the Duke unless it drew both Ambassadors: 1 - C(2,2)/C(3,2) = 2/3
    // (drawn blind: 1/3).
    let mut r = History::parse("").unwrap().opp;
    let pool = [2, 0, 0, 0, 1];
    r.chosen_from = 2;
    let p = kept(&r, &pool, 1, true);
    assert!((p[Duke.index()] - 2.0 / 3.0).abs() < 1e-12, "{p:?}");
    assert!((kept(&r, &pool, 1, false)[Duke.index()] - 1.0 / 3.0).abs() < 1e-12);
    // Two cards kept of three drawn from 2 Ambassadors, 2 Contessas and a
    // Duke (10 draws, counted by hand): Duke kept in 6, a Contessa in 9, an
    // Ambassador in 3. Blind, two of five: the Duke in 4 of 10.
    r.chosen_from = 3;
    let pool = [2, 0, 0, 2, 1];
    let p = kept(&r, &pool, 2, true);
    assert!((p[Duke.index()] - 0.6).abs() < 1e-12, "{p:?}");
    assert!((p[Contessa.index()] - 0.9).abs() < 1e-12, "{p:?}");
    assert!((p[Ambassador.index()] - 0.3).abs() < 1e-12, "{p:?}");
    r.chosen_from = 0;
    let p = kept(&r, &pool, 2, true);
    assert!((p[Duke.index()] - 0.4).abs() < 1e-12, "{p:?}");
}

#[test]
fn chosen_from_follows_exchanges_and_proofs() {
    // Line 0 (the reader's, 2 lines read): an Exchange kept 2 of 4.
    let h = History::parse("Ep\nI\n").unwrap();
    assert_eq!(h.me.chosen_from, 4);
    assert_eq!(h.opp.chosen_from, 0);
    // Then it proved a Duke: the replacement is drawn blind.
    let h = History::parse("Ep\nI\nTq$_\nI\n").unwrap();
    assert_eq!(h.me.chosen_from, 0);
}

#[test]
fn resolved_claims_read_the_truth_from_the_history() {
    use cardgames::coup::opponent::{claim_context, resolved_claims, CONTEXTS};
    use cardgames::coup::Side;
    let duke = Duke.index();
    let captain = Captain.index();
    let none = [[0, 0]; CONTEXTS];
    // One count in the context of a claim made against `listener` cards
    // after `turns` turns of the claimant, which held two cards.
    let at = |listener: usize, turns: usize, e: [u32; 2]| {
        let mut x = none;
        x[claim_context(listener, 2, turns)] = e;
        x
    };
    // The reader (lines 0, 2, 4) taxed at its first turn, was caught
    // bluffing a Steal at its second (gave up an Assassin), then lost its
    // Ambassador to a Coup: no Duke in that hand, so the Tax was a bluff too.
    let h = History::parse("Tp\nI\nSq'\nC_\n").unwrap();
    let r = resolved_claims(&h, Side::Me);
    assert_eq!(r.action[duke], at(2, 0, [1, 1]));
    assert_eq!(r.action[captain], at(2, 1, [1, 1]));
    assert_eq!(r.block, [none; 5]);
    assert_eq!(r.action_open, [none; 5]);
    // The opponent's side of the same history claimed nothing.
    assert_eq!(resolved_claims(&h, Side::Opponent), Default::default());
    // Before the Coup, the Tax is partly shown: the Assassin given up was
    // not a Duke, the other card is unknown.
    let h = History::parse("Tp\nI\nSq'\nI\n").unwrap();
    let r = resolved_claims(&h, Side::Me);
    assert_eq!(r.action[duke], none);
    assert_eq!(r.action_open[duke], at(2, 0, [1, 1]));
    // A Tax proved at the opponent's first turn: honest (the challenger
    // then gave up its Ambassador). Its Tax at its second turn comes from a
    // hand with a new card, against one card, still unresolved, nothing of
    // that hand shown.
    let h = History::parse("Tq$_\nI\nTp\n").unwrap();
    let r = resolved_claims(&h, Side::Opponent);
    assert_eq!(r.action[duke], at(2, 0, [1, 0]));
    assert_eq!(r.action_open[duke], at(1, 1, [1, 0]));
    // An Exchange redraws the hand: the earlier Tax stays unresolved even
    // when both later cards are shown without a Duke.
    let h = History::parse("Tp\nI\nEp\nC_\nI\nC'\n").unwrap();
    let r = resolved_claims(&h, Side::Me);
    assert_eq!(
        (r.action[duke], r.action_open[duke]),
        (none, at(2, 0, [1, 0]))
    );
    let h = History::parse("Tp\nI\nI\nC_\nI\nC'\n").unwrap();
    assert_eq!(resolved_claims(&h, Side::Me).action[duke], at(2, 0, [1, 1]));
    // A Captain block (line 0's Steal, blocked by the reader at line 1,
    // before its first turn) whose Captain is later given up: honest.
    let h = History::parse("Sc\nI\nC<\n").unwrap();
    assert_eq!(
        resolved_claims(&h, Side::Me).block[captain],
        at(2, 0, [1, 0])
    );
    // A card given up starts a hand of its own: the reader taxed with two
    // cards, gave up a Captain to a Coup, taxed again on its last card,
    // then gave up a Duke: both claims honest, each in its own context.
    let h = History::parse("Tp\nC<\nTp\nC0\n").unwrap();
    let mut want = at(2, 0, [1, 0]);
    want[claim_context(2, 1, 1)] = [1, 0];
    assert_eq!(resolved_claims(&h, Side::Me).action[duke], want);
    // The same with a Contessa given up last: no Duke, two bluffs.
    let h = History::parse("Tp\nC<\nTp\nC=\n").unwrap();
    let mut want = at(2, 0, [1, 1]);
    want[claim_context(2, 1, 1)] = [1, 1];
    assert_eq!(resolved_claims(&h, Side::Me).action[duke], want);
}

#[test]
fn a_claim_on_the_last_card_has_its_own_ratio() {
    use cardgames::coup::opponent::{claim_context, ClaimAt};
    // Assassinations against two cards: 5 bluffs in 10 from a hand of two,
    // none in 10 from a last card. Beta(0.6, 1.4) over all claims: 5.6/22;
    // each level a prior worth two for the next: the Assassin's
    // (2 * 5.6/22 + 5) / 22, against two cards the same counts again, then
    // by the claimant's cards: (2 f + 0) / 12 on one card, (2 f + 5) / 12
    // on two. A share is a ratio by the chance of holding an Assassin:
    // 3/15 in one card, 39/105 in two (`f / (1 - f) * P / (1 - P)`).
    let mut s = Stats::default();
    s.resolved_action[Assassin.index()][claim_context(2, 2, 0)] = [10, 5];
    s.resolved_action[Assassin.index()][claim_context(2, 1, 1)] = [10, 0];
    let all = 5.6 / 22.0;
    let assassin = (2.0 * all + 5.0) / 22.0;
    let listener = (2.0 * assassin + 5.0) / 22.0;
    let ratio = |f: f64, p: f64| f / (1.0 - f) * p / (1.0 - p);
    let m = Model::new(&s, None);
    let claimant = |n| ClaimAt {
        mine: 2,
        claimant: Some(n),
    };
    let one = ratio(2.0 * listener / 12.0, 0.2);
    let two = ratio((2.0 * listener + 5.0) / 12.0, 39.0 / 105.0);
    let got = (
        m.resolved_action_ratio(Assassin, claimant(1)),
        m.resolved_action_ratio(Assassin, claimant(2)),
    );
    assert!((got.0 - one).abs() < 1e-12, "{got:?} against {one}");
    assert!((got.1 - two).abs() < 1e-12, "{got:?} against {two}");
    // The pooled ratio (both hands' claims, converted as from two cards)
    // is 18 times the last card's.
    let pooled = m.resolved_action_ratio(Assassin, ClaimAt::against(2));
    assert!((pooled - ratio(listener, 39.0 / 105.0)).abs() < 1e-12);
    assert!(got.0 < pooled / 15.0, "{got:?} {pooled}");
}

#[test]
fn partly_shown_claims_count_as_likely_bluffs() {
    // Ten Tax claims against two cards resolved honest, ten partly shown
    // (an other card given up, the second never seen). Each partly shown
    // claim was honest only if its unseen card is a Duke:
    // h(f) = 0.2 / (0.2 + 0.8 r(f)), r(f) = f / (1 - f) * (39/66). Every
    // level of the shrinkage (all claims, Duke's, Duke's against two
    // cards) sees the same counts, each a prior worth two for the next:
    // f1 = (0.6 + 10 (1 - h)) / 22 = 0.188128, f2 = (2 f1 + 10 (1 - h)) / 22
    // = 0.153405, f3 = (2 f2 + 10 (1 - h)) / 22 = 0.141015 (each solved by
    // bisection, apart from the model's iteration). Leaving the partly
    // shown claims out: 0.05, 0.1/12, then (2 * 0.1/12) / 12 = 0.0014, whose
    // ratio is below the floor of 0.001 (share 0.001 / (0.001 + 39/66)).
    use cardgames::coup::opponent::{claim_context, ClaimAt};
    let mut s = Stats::default();
    // Claims against two cards, of a claimant with two, at its first turn.
    let k = claim_context(2, 2, 0);
    s.resolved_action[Duke.index()][k] = [10, 0];
    s.unresolved_action[Duke.index()][k] = [10, 10];
    let share = |r: f64| r / (r + 39.0 / 66.0);
    let f = share(Model::new(&s, None).resolved_action_ratio(Duke, ClaimAt::against(2)));
    assert!((f - 0.141015).abs() < 1e-5, "share {f}");
    // Against one card nothing was seen: the Duke's share, 0.153405.
    let f = share(Model::new(&s, None).resolved_action_ratio(Duke, ClaimAt::against(1)));
    assert!((f - 0.153405).abs() < 1e-5, "share {f}");
    s.unresolved_action = Default::default();
    let f = share(Model::new(&s, None).resolved_action_ratio(Duke, ClaimAt::against(2)));
    assert!((f - share(1e-3)).abs() < 1e-12, "share {f}");
}

// ----- the counts (`Stats`): the memory file's format, the cap, the race standing -----

#[test]
fn stats_roundtrip_and_cap() {
    let h = History::parse("Tp\nSq*<\nFdq$_\n").unwrap();
    let s = Stats::from_history(&h);
    assert_eq!(Stats::from_slice(&s.to_vec()), Some(s));
    let mut big = s;
    big.challenged[1][1] = [1000, 500];
    // 1000 -> 500 -> 250 -> 125 -> 62 (half to even), hits alike.
    assert_eq!(big.capped(100).challenged[1][1], [62, 31]);
    assert_eq!(big.capped(2000), big);
}

#[test]
fn my_claims_are_counted_by_the_race_standing_before_the_turn() {
    assert_eq!(
        [
            race_standing(5, 2),
            race_standing(4, 3),
            race_standing(3, 4),
            race_standing(2, 4)
        ],
        [2, 1, 1, 0]
    );
    // My Tax at 1 coin against 1 (level), its Income, my Tax at 4
    // against its 2: it is behind, and challenges.
    let h = History::parse_as("Tp\nI\nTq", true).unwrap();
    let s = Stats::from_history(&h);
    let tax = kind_index(&ACTION_KINDS, Action::Tax).unwrap();
    assert_eq!(s.challenged[tax][1], [2, 1]);
    assert_eq!(s.challenged_race[tax][1], [[1, 1], [1, 0], [0, 0]]);
    // A count list of another length (an older memory's) is refused.
    let v = s.to_vec();
    assert_eq!(Stats::from_slice(&v), Some(s));
    assert_eq!(Stats::from_slice(&v[..v.len() - 2]), None);
    // Its rate when behind: the kind's rate worth four claims, then the
    // one challenge seen there.
    let m = Model::new(&s, None);
    let base = m.challenge_action(Action::Tax, 2);
    let want = (RACE_PRIOR_WEIGHT * base + 1.0) / (RACE_PRIOR_WEIGHT + 1.0);
    assert!((m.challenge_action_at(Action::Tax, 2, 0) - want).abs() < 1e-12);
    let level = RACE_PRIOR_WEIGHT * base / (RACE_PRIOR_WEIGHT + 1.0);
    assert!((m.challenge_action_at(Action::Tax, 2, 1) - level).abs() < 1e-12);
    assert!((m.challenge_action_at(Action::Tax, 2, 2) - base).abs() < 1e-12);
}

#[test]
fn capping_game_by_game_keeps_the_rate() {
    // Memory adds one game at a time and caps again: a counter with a
    // true rate of 1 in 10 must stay near 0.1 over thousands of games
    // (rescaling to the cap with rounding drifted it toward 0.5).
    for (every, rate) in [(10u32, 0.1), (2, 0.5), (5, 0.8)] {
        let mut s = Stats::default();
        for g in 0..5000u32 {
            let hit = if rate < 0.5 {
                g % every == 0
            } else if rate == 0.5 {
                g % 2 == 0
            } else {
                g % every != 0
            };
            let mut one = Stats::default();
            one.block_caught[2] = [1, hit as u32];
            s.add(&one);
            s = s.capped(200);
            assert!(s.block_caught[2][0] <= 200);
        }
        let [n, k] = s.block_caught[2];
        let got = k as f64 / n as f64;
        assert!((got - rate).abs() < 0.03, "rate {rate}: {k}/{n}");
    }
}

#[test]
fn the_hold_probabilities_are_the_hypergeometric_ones() {
    // Two cards from 15 with three of each character, counted over
    // every pair: a given character, and either of two given ones.
    let deck: Vec<usize> = (0..15).map(|i| i / 3).collect();
    let (mut pairs, mut one, mut either) = (0.0, 0.0, 0.0);
    for a in 0..15 {
        for b in a + 1..15 {
            pairs += 1.0;
            one += f64::from(u8::from(deck[a] == 0 || deck[b] == 0));
            either += f64::from(u8::from(deck[a] <= 1 || deck[b] <= 1));
        }
    }
    assert!((P_HOLD_TWO - one / pairs).abs() < 1e-12);
    assert!((P_HOLD_EITHER_TWO - either / pairs).abs() < 1e-12);
    assert!((P_HOLD_ONE - 3.0 / 15.0).abs() < 1e-12);
    // The action prior: 0.3 with no evidence, a caught bluff in one test.
    assert!((action_bluff_share_after(0, 0) - 0.3).abs() < 1e-12);
    assert!((action_bluff_share_after(1, 1) - 1.6 / 3.0).abs() < 1e-12);
}

#[test]
fn priors_are_the_stated_means() {
    let m = Model::default();
    assert!((m.challenge_action(Action::Tax, 2) - 0.2).abs() < 1e-12);
    // A two-card Assassination: half its own prior mean (0.1), half the
    // pooled Assassination rate under the claims' prior (0.2).
    assert!((m.challenge_action(Action::Assassinate, 2) - 0.15).abs() < 1e-12);
    // Its last card: half 0.5, half 0.2.
    assert!((m.challenge_action(Action::Assassinate, 1) - 0.35).abs() < 1e-12);
    // Four two-card Assassinations let stand: the pooled rate is
    // Beta(1, 4) after [4, 0] = 1/9, the prior mean m = 0.05 + 0.5 / 9,
    // worth two claims, then [4, 0]: 2m / 6.
    let mut s = Stats::default();
    s.challenged[kind_index(&ACTION_KINDS, Action::Assassinate).unwrap()][1] = [4, 0];
    let m = Model::new(&s, None);
    let want = 2.0 * (0.05 + 0.5 / 9.0) / 6.0;
    assert!((m.challenge_action(Action::Assassinate, 2) - want).abs() < 1e-12);
    assert!((m.challenge_block(Block::Captain) - 0.25).abs() < 1e-12);
}
