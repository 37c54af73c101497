//! The `search` strategy on positions with a known right answer, and the
//! hand posterior it samples from on hand-computed cases
//! (`docs/rules/coup.md`; the posterior is `coup::model::hand_distribution`).

#[path = "support/coup_decide.rs"]
mod coup_decide;
use cardgames::coup::history::Record;
use cardgames::coup::model::{hand_distribution, HALF_PASS};
use cardgames::coup::opponent::Stats;
use cardgames::coup::{legal_answers, Character, Decision, SearchConfig, Strategy, SEARCH_KEYS};
use coup_decide::{decide_configured, decide_with};

use Character::{Ambassador, Assassin, Captain, Contessa, Duke};

fn legal(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

/// The search's decision without memory: `history`, the opponent's and my
/// coins, my cards and the legal answers, as the arbiter passes them.
fn searched(history: &str, opp: i64, mine: i64, cards: &str, answers: &[&str]) -> Decision {
    decide_with(
        Strategy::Search,
        history,
        opp,
        mine,
        cards,
        &legal(answers),
        None,
    )
}

#[test]
fn a_claim_that_is_certainly_false_is_challenged() {
    // I Assassinated and it gave up a Duke; I hold the other two Dukes. Its
    // Tax claim cannot be true: a challenge wins the game at once.
    let history = "A0\nT";
    let d = searched(history, 4, 0, "$$", &["p", "q"]);
    assert_eq!(d.answer, "q", "{}", d.explanation);
    assert!(d.note.is_none(), "no fallback: {:?}", d.note);
}

#[test]
fn a_won_game_is_finished_at_once() {
    // My Tax, its Steal challenged and lost (it gave up a card), my Tax, its
    // Steal blocked: my turn with 7 coins against its last card and 1 coin.
    // Every answer wins every world the search plays; the Coup wins now.
    let history = "Tp\nSq'\nTp\nSc\n";
    let d = searched(history, 1, 7, "*!", &["I", "F", "E", "T", "A", "C", "S"]);
    assert_eq!(d.answer, "C", "{}", d.explanation);
    assert!(d.note.is_none(), "no fallback: {:?}", d.note);
}

#[test]
fn an_exchange_keep_is_searched_over_every_distinct_hand() {
    // My Exchange went through: Duke and Contessa drawn, Ambassador and
    // Assassin held. Each of the six hands of two is valued in the worlds,
    // and the one kept is the first of the explanation.
    let keeps = |cards: &str| {
        let d = searched("I\nI\nEp", 1, 1, cards, &["\n"]);
        assert_eq!(d.answer, "\n");
        assert!(d.note.is_none() && !d.fallback, "{:?}", d.note);
        let kept = d.exchange_keep.expect("kept cards");
        let lines: Vec<String> = d
            .explanation
            .lines()
            .filter_map(|l| l.strip_prefix("keep ").map(str::to_string))
            .collect();
        assert!(
            lines
                .first()
                .is_some_and(|l| l.starts_with(&format!("{kept} "))),
            "kept {kept}: {}",
            d.explanation
        );
        lines.len()
    };
    assert_eq!(keeps("$!~^"), 6);
    // Two Captains among the four: four distinct hands (two Captains, a
    // Captain with either other card, the other two).
    assert_eq!(keeps("**~^"), 4);
    // One card held: one of the three offered.
    assert_eq!(keeps("$!~"), 3);
}

/// The search's answer to a claim (pass or challenge, no memory) with one
/// setting of [`SearchConfig`] (`key=value`).
fn answer_with(setting: &str, history: &str, opp: i64, mine: i64, cards: &str) -> Decision {
    let mut config = SearchConfig::default();
    config.set(setting).unwrap();
    answer_configured(&config, history, opp, mine, cards)
}

/// [`answer_with`] with a whole configuration.
fn answer_configured(
    config: &SearchConfig,
    history: &str,
    opp: i64,
    mine: i64,
    cards: &str,
) -> Decision {
    let list = legal(&["p", "q"]);
    decide_configured(
        Strategy::Search,
        history,
        opp,
        mine,
        cards,
        &list,
        None,
        config,
    )
}

#[test]
fn a_block_it_always_holds_is_not_challenged() {
    // My Assassination is blocked by a Contessa; in 40 past challenges its
    // Contessa blocks were never a bluff. Challenging would cost me a card
    // for nothing.
    let mut mem = Stats::default();
    mem.block_caught[Contessa.index()] = [40, 0];
    let d = decide_with(
        Strategy::Search,
        "As",
        1,
        3,
        "^$",
        &legal(&["q", "\n"]),
        Some(&mem),
    );
    assert_eq!(d.answer, "\n", "{}", d.explanation);
    assert!(d.note.is_none(), "no fallback: {:?}", d.note);
}

#[test]
fn the_same_input_gives_the_same_answer() {
    let answers = ["a", "c", "p", "q"];
    let a = searched("Tp\nS", 4, 1, "*~", &answers);
    let b = searched("Tp\nS", 4, 1, "*~", &answers);
    assert_eq!(a, b);
    assert!(answers.contains(&a.answer.as_str()));
}

/// The probability that a player of record `r` holding `k` of the `unseen`
/// cards holds each character, its standing claims at `ratio`: the
/// marginals of [`hand_distribution`].
fn hand_posterior(r: &Record, unseen: &[u32; 5], k: usize, ratio: [f64; 5]) -> [f64; 5] {
    let hands = hand_distribution(r, unseen, k, ratio, false, HALF_PASS);
    let total: f64 = hands.iter().map(|h| h.1).sum();
    Character::ALL.map(|c| {
        let with: f64 = hands.iter().filter(|h| h.0.contains(&c)).map(|h| h.1).sum();
        with / total
    })
}

#[test]
fn the_posterior_is_hypergeometric_without_evidence() {
    // 13 unseen cards (one Duke among them), a hand of two: it holds the
    // Duke with 1 - C(12,2)/C(13,2) = 12/78, an Ambassador (three unseen)
    // with 1 - C(10,2)/C(13,2) = 33/78.
    let unseen = [3, 3, 3, 3, 1];
    let p = hand_posterior(&Record::default(), &unseen, 2, [1.0; 5]);
    assert!((p[Duke.index()] - 12.0 / 78.0).abs() < 1e-12, "{p:?}");
    assert!((p[Ambassador.index()] - 33.0 / 78.0).abs() < 1e-12, "{p:?}");
    assert!((p[Assassin.index()] - 33.0 / 78.0).abs() < 1e-12, "{p:?}");
}

#[test]
fn a_standing_claim_weighs_hands_without_the_card_by_its_ratio() {
    // One standing Duke claim at ratio 1/2: the 12 hands holding the Duke
    // keep their weight, the 66 without it count half, so it holds the Duke
    // with 12 / (12 + 33) = 4/15.
    let unseen = [3, 3, 3, 3, 1];
    let r = Record {
        active_claims: vec![Duke],
        ..Record::default()
    };
    let p = hand_posterior(&r, &unseen, 2, [0.5; 5]);
    assert!((p[Duke.index()] - 4.0 / 15.0).abs() < 1e-12, "{p:?}");
    // A caught bluff rules the character out.
    let r = Record {
        surely_not: vec![Captain],
        ..Record::default()
    };
    let p = hand_posterior(&r, &unseen, 2, [1.0; 5]);
    assert_eq!(p[Captain.index()], 0.0);
}

/// Runs `scripts/SCRIPT --self-test` and asserts it passes.
fn script_self_test(script: &str) {
    let out = std::process::Command::new("python3")
        .arg(format!("{}/scripts/{script}", env!("CARGO_MANIFEST_DIR")))
        .arg("--self-test")
        .output()
        .expect("python3 runs (it is required: make setup)");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn the_calibration_table_is_computed_right() {
    // scripts/coup-calibration.py's binning, observed frequencies, Wilson
    // intervals and Brier score on cases computed by hand.
    script_self_test("coup-calibration.py");
}

#[test]
fn the_loss_causes_are_read_right() {
    // scripts/coup-games.py --losses: why each card was given up, on
    // answer sequences made by hand (a caught bluff, a failed challenge of
    // a proved block, an Assassination, a Coup, the double loss), and the
    // rows of --blocks (a blocker held or not) and --openings (a bluffed
    // opening Tax challenged), --claims and --cells (a claim's situation),
    // and --exposure (the rate the claimant saw, run by run and decayed, and
    // the logistic slope against its maximum-likelihood value by hand).
    script_self_test("coup-games.py");
}

#[test]
fn the_benchmark_intervals_are_computed_right() {
    // scripts/wilson.py: the Wilson interval of a count and the Student t
    // interval of several runs' mean rate, on cases computed by hand.
    script_self_test("wilson.py");
}

#[test]
fn the_horizon_value_fit_is_computed_right() {
    // scripts/coup-value-fit.py: the logistic fit (Newton's method) and the
    // held-out scores on cases computed by hand.
    script_self_test("coup-value-fit.py");
}

#[test]
fn the_claim_recalibration_is_fitted_right() {
    // scripts/coup-recalibrate.py: the reading of the claims' situations
    // from a calibration dump (the bot computes them:
    // `explain_prints_the_situation_of_a_pending_claim` in tests/coup_cli.rs)
    // and the per-row logistic fit on rows drawn from known models.
    script_self_test("coup-recalibrate.py");
}

#[test]
fn every_listed_search_key_is_accepted_and_an_unknown_one_lists_them() {
    for key in SEARCH_KEYS {
        let value = match *key {
            "card_value" => "0.5,0.25,0.75,0.5",
            _ => "1",
        };
        let mut c = SearchConfig::default();
        assert!(c.set(&format!("{key}={value}")).is_ok(), "{key}");
    }
    let err = SearchConfig::default()
        .set("wrolds=3")
        .unwrap_err()
        .to_string();
    assert!(SEARCH_KEYS.iter().all(|k| err.contains(k)), "{err}");
    // A value that is no finite number, or the wrong count of numbers, is named for what it
    // is, in one line, and leaves the setting as it was.
    for (bad, says) in [
        ("worlds=x", "\"x\" is not a finite number"),
        ("worlds=NaN", "\"NaN\" is not a finite number"),
        ("mind=inf", "\"inf\" is not a finite number"),
        ("card_value=0.5,0.5", "card_value takes 4 numbers"),
        ("card_value=0.5,0.5,x,1", "\"x\" is not a finite number"),
        ("arm=2", "arm is 0 or 1"),
        ("worlds", "expected key=value"),
    ] {
        let mut c = SearchConfig::default();
        let err = c.set(bad).unwrap_err().to_string();
        assert!(err.contains(says) && !err.contains('\n'), "{bad}: {err}");
        assert_eq!(c, SearchConfig::default(), "{bad}");
    }
}

#[test]
fn arm_1_is_the_portfolio_arm_played_alone_and_later_keys_change_it() {
    // The settings of `SearchConfig::arm(1)`, written out key by key as docs/experiments/coup-log.md's
    // commands did before the key existed.
    let mut spelled = SearchConfig::default();
    for kv in [
        "portfolio=0",
        "tree=1",
        "resolved_bluffs=1",
        "exchange_prior=1",
        "repeat_claims=0",
        "claimant_cards=1",
        "horizon=4",
        "quiescence=0",
        "card_value=0.5,0.25,0.75,0.5",
        "mind=0.03",
        "mind_worlds=192",
        "mind_odds=0.35",
        "recalibrate=1",
    ] {
        spelled.set(kv).unwrap();
    }
    let mut arm = SearchConfig::default();
    arm.set("arm=1").unwrap();
    assert_eq!(arm, spelled);
    assert!(!arm.portfolio && arm != SearchConfig::default());
    arm.set("horizon=8").unwrap();
    assert_eq!(arm.horizon, 8);
    // Arm 0 is the configuration itself, alone.
    let mut zero = SearchConfig::default();
    zero.set("arm=0").unwrap();
    assert_eq!(
        zero,
        SearchConfig {
            portfolio: false,
            ..SearchConfig::default()
        }
    );
}

#[test]
fn the_help_lists_every_key_with_its_default() {
    let help = SearchConfig::help();
    for key in SEARCH_KEYS {
        assert!(help.contains(&format!("  {key}=")), "{key}: {help}");
    }
    assert!(help.contains("  worlds=300  "), "{help}");
    assert!(
        help.contains("  card_value=0.39,0.14,0.72,0.46  "),
        "{help}"
    );
    assert!(help.contains("  portfolio=1  "), "{help}");
}

#[test]
fn the_explanation_says_visits_only_where_the_tree_ran() {
    // Arm 1's tree answers the opponent's moves; my turns are searched
    // flat, over worlds.
    let mut arm = SearchConfig::default();
    arm.set("arm=1").unwrap();
    arm.set("known_prior=0").unwrap();
    let answer = decide_configured(
        Strategy::Search,
        "Tp\nS",
        4,
        1,
        "*~",
        &legal(&["a", "c", "p", "q"]),
        None,
        &arm,
    );
    assert!(
        answer.explanation.contains(" visits)"),
        "{}",
        answer.explanation
    );
    let turn = decide_configured(
        Strategy::Search,
        "",
        1,
        1,
        "$^",
        &legal(&["I\n", "F", "T", "E", "S"]),
        None,
        &arm,
    );
    assert!(
        turn.explanation.contains(" worlds)"),
        "{}",
        turn.explanation
    );
    assert!(
        !turn.explanation.contains(" visits)"),
        "{}",
        turn.explanation
    );
}

/// The information-set tree search (`SearchConfig::tree`), whatever the
/// default strategy's configuration.
/// The tree search alone: the known rule off (`known_prior=0`), since a
/// history the contest winner's rule explains is searched flat, with the
/// rule in the rollouts.
fn tree() -> SearchConfig {
    let mut c = SearchConfig::default();
    for kv in ["tree=1", "iterations=2000", "known_prior=0"] {
        c.set(kv).unwrap();
    }
    c
}

/// The root visits the tree's explanation lists (`"p" 0.123 (456 visits)`).
fn visits(explanation: &str) -> Vec<usize> {
    explanation
        .lines()
        .filter_map(|l| l.strip_suffix(" visits)"))
        .filter_map(|l| l.rsplit('(').next()?.parse().ok())
        .collect()
}

#[test]
fn the_tree_challenges_a_claim_that_is_certainly_false() {
    // As above: its Duke is dead and I hold the other two.
    let d = decide_configured(
        Strategy::Search,
        "A0\nT",
        4,
        0,
        "$$",
        &legal(&["p", "q"]),
        None,
        &tree(),
    );
    assert_eq!(d.answer, "q", "{}", d.explanation);
    assert!(!d.fallback && d.note.is_none(), "{:?}", d.note);
}

#[test]
fn the_tree_does_not_challenge_a_block_it_always_holds() {
    // Its Contessa blocks were never bluffs: 40 challenged, 40 shown
    // honest against my two cards.
    let mut mem = Stats::default();
    mem.block_caught[Contessa.index()] = [40, 0];
    mem.resolved_block[Contessa.index()][1] = [40, 0];
    let d = decide_configured(
        Strategy::Search,
        "As",
        1,
        3,
        "^$",
        &legal(&["q", "\n"]),
        Some(&mem),
        &tree(),
    );
    assert_eq!(d.answer, "\n", "{}", d.explanation);
}

#[test]
fn the_tree_takes_a_coup_that_wins_at_once() {
    // It has one card left after my Assassination; I have 7 coins.
    let history = "A0\nI\n";
    let list = legal_answers("", &[Duke, Captain], 7, 2).unwrap();
    let d = decide_configured(Strategy::Search, history, 2, 7, "$*", &list, None, &tree());
    assert_eq!(d.answer, "C", "{}", d.explanation);
}

#[test]
fn the_tree_replays_and_its_iteration_cap_binds() {
    let list = legal(&["a", "c", "p", "q"]);
    let run = |iterations: usize| {
        let mut c = tree();
        c.set(&format!("iterations={iterations}")).unwrap();
        decide_configured(Strategy::Search, "Tp\nS", 4, 1, "*~", &list, None, &c)
    };
    let (a, b) = (run(1500), run(1500));
    assert_eq!(a, b, "same input, same answer and explanation");
    assert!(list.contains(&a.answer));
    // Every iteration visits exactly one root answer.
    assert_eq!(
        visits(&a.explanation).iter().sum::<usize>(),
        1500,
        "{}",
        a.explanation
    );
    assert_eq!(visits(&run(300).explanation).iter().sum::<usize>(), 300);
}

#[test]
fn identified_challenges_follow_a_pure_policy_once_the_answers_show_one() {
    use cardgames::coup::bot::Habits;
    use cardgames::coup::opponent::Model;
    use cardgames::coup::Block;
    // The playouts' rate (identified) and the learnt rate alone, of the
    // first kind of block (an Ambassador's).
    let habits = |answers: [u32; 2], identified: bool| {
        let s = Stats {
            block_challenged: [answers; 4],
            ..Stats::default()
        };
        let m = Model::new(&s, None);
        if identified {
            Habits::learnt(&m, &SearchConfig::default(), 2, false).challenge_block[0]
        } else {
            m.challenge_block(Block::Ambassador)
        }
    };
    // It challenged each of my 12 blocks (3 of each kind): "challenges
    // every block" explains it, so the playouts expect the next one
    // challenged all but surely, the rate alone less so.
    let (rate, identified) = (habits([3, 3], false), habits([3, 3], true));
    assert!(
        identified > 0.99 && identified > rate,
        "{identified} {rate}"
    );
    // It let all 12 stand: "never" is the likely policy.
    let (rate, identified) = (habits([3, 0], false), habits([3, 0], true));
    assert!(
        identified < rate && identified < 0.01,
        "{identified} {rate}"
    );
    // Before any answer: the prior mixture, above the rate (some players
    // challenge every block).
    assert!(habits([0, 0], true) > habits([0, 0], false));
}

/// The worlds (or visits) of each root answer the explanation lists
/// (`"p" 0.123 (300 worlds)`).
fn worlds(explanation: &str) -> Vec<usize> {
    explanation
        .lines()
        .filter_map(|l| {
            l.strip_suffix(" worlds)")
                .or_else(|| l.strip_suffix(" visits)"))
        })
        .filter_map(|l| l.rsplit('(').next()?.parse().ok())
        .collect()
}

#[test]
fn the_clock_is_only_a_safety_net_that_stops_a_search_and_says_so() {
    // Its Tax claim, my Duke and Captain: pass or challenge.
    let (history, opp, mine, cards) = ("I\nT", 1, 2, "$*");
    // On a working machine the caps decide: every world is played and
    // nothing is noted.
    let capped = answer_with("worlds=300", history, opp, mine, cards);
    assert_eq!(capped.note, None);
    assert_eq!(
        worlds(&capped.explanation),
        [300, 300],
        "{}",
        capped.explanation
    );
    // A deadline already past: one world, a legal answer, and the note.
    let stopped = answer_with("clock_ms=0.000001", history, opp, mine, cards);
    assert!(["p", "q"].contains(&stopped.answer.as_str()));
    assert_eq!(
        worlds(&stopped.explanation),
        [1, 1],
        "{}",
        stopped.explanation
    );
    let note = stopped.note.expect("the clock's note");
    assert!(note.contains("stopped after 1 of 300 worlds"), "{note}");
    // The tree alike, by iterations.
    let mut config = tree();
    config.set("clock_ms=0.000001").unwrap();
    let d = answer_configured(&config, history, opp, mine, cards);
    assert_eq!(
        visits(&d.explanation).iter().sum::<usize>(),
        1,
        "{}",
        d.explanation
    );
    let note = d.note.expect("the clock's note");
    assert!(
        note.contains("stopped after 1 of 2000 iterations"),
        "{note}"
    );
}

/// The posterior probability that the opponent holds `c`, from a
/// decision's explanation (`posterior holds ~:0.123 ...`).
fn held(d: &Decision, c: Character) -> f64 {
    let line = d
        .explanation
        .lines()
        .find(|l| l.starts_with("posterior holds"));
    let field = line.and_then(|l| l.split(' ').find(|f| f.starts_with(c.revealed())));
    field
        .and_then(|f| f[c.revealed().len_utf8() + 1..].parse().ok())
        .unwrap()
}

#[test]
fn the_claimants_eyes_reading_follows_the_opponents_record() {
    // Its Tax claim at its turn's start, read on arm 1 (the claimant's
    // eyes). Its earlier Tax claims whose truth the history showed: all
    // honest, or two in three bluffs. The reading says which hands would
    // bluff here; the record says how much this player bluffs
    // (`docs/coup.md`), so the same claim is likelier true from the honest
    // record than with none, and likelier false from the bluffing one.
    let mut config = SearchConfig::default();
    config.set("arm=1").unwrap();
    let record = |bluffs: u32| {
        let mut s = Stats::default();
        for e in &mut s.resolved_action[Duke.index()] {
            *e = [6, bluffs];
        }
        s
    };
    let read = |mem: Option<&Stats>| {
        let list = legal(&["p", "q"]);
        let d = decide_configured(Strategy::Search, "I\nT", 2, 2, "^*", &list, mem, &config);
        held(&d, Duke)
    };
    let (honest, none, bluffer) = (read(Some(&record(0))), read(None), read(Some(&record(4))));
    assert!(honest > none + 0.05, "honest {honest} against none {none}");
    assert!(
        bluffer < none - 0.05,
        "bluffer {bluffer} against none {none}"
    );
}
