//! The `coup-bot` and `coup-arbiter` programs: the file protocol of
//! `docs/rules/coup.md` §4 (append one legal answer, stdout only after
//! an Exchange, never a non-zero exit).

use std::path::PathBuf;
use std::process::Command;

/// A history file holding `text` in a fresh folder, removed when the
/// returned guard drops (also when the test fails).
fn temp(text: &str) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let f = dir.path().join("h.txt");
    std::fs::write(&f, text).expect("write");
    (dir, f)
}

fn bot(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_coup-bot"))
        .args(args)
        .output()
        .expect("run coup-bot");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `coup-arbiter` with `args` and checks that it succeeded.
fn arbiter(args: &[String]) -> std::process::Output {
    let out = Command::new(env!("CARGO_BIN_EXE_coup-arbiter"))
        .args(args)
        .output()
        .expect("run arbiter");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

#[test]
fn appends_one_legal_answer() {
    let (_dir, f) = temp("I\n");
    let p = f.to_str().expect("path");
    let (code, out, _) = bot(&[p, "1", "2", "$^", "I\n", "F", "E", "T", "S"]);
    assert_eq!(code, 0);
    assert_eq!(out, "", "nothing on stdout outside an Exchange");
    let text = std::fs::read_to_string(&f).expect("read");
    let answer = text.strip_prefix("I\n").expect("history kept");
    assert!(["I\n", "F", "E", "T", "S"].contains(&answer), "{answer:?}");
}

#[test]
fn an_option_after_the_arguments_is_named_and_the_answer_stays_legal() {
    let (_dir, f) = temp("I\nT");
    let p = f.to_str().expect("path");
    let (code, out, err) = bot(&[p, "1", "2", "$^", "p", "q", "--explain"]);
    assert_eq!(code, 0);
    assert_eq!(out, "");
    assert!(
        err.contains("\"--explain\" stands among the legal answers")
            && err.contains("before HISTORY"),
        "{err}"
    );
    let text = std::fs::read_to_string(&f).expect("read");
    let answer = text.strip_prefix("I\nT").expect("history kept");
    assert!(["p", "q"].contains(&answer), "{answer:?}");
}

#[test]
fn exchange_prints_kept_cards() {
    let (_dir, f) = temp("Ep");
    let p = f.to_str().expect("path");
    let (code, out, _) = bot(&["--strategy", "honest", p, "1", "1", "$^~!", "\n"]);
    assert_eq!(code, 0);
    assert_eq!(std::fs::read_to_string(&f).expect("read"), "Ep\n");
    let kept = out.trim();
    assert_eq!(kept.chars().count(), 2);
    let mut pool: Vec<char> = "$^~!".chars().collect();
    for c in kept.chars() {
        let i = pool
            .iter()
            .position(|&x| x == c)
            .expect("kept card was offered");
        pool.remove(i);
    }
}

#[test]
fn never_fails_on_bad_input() {
    let (_dir, f) = temp("Q?!");
    let p = f.to_str().expect("path");
    let (code, out, err) = bot(&["--strategy", "nonsense", p, "x", "y", "zz", "p", "q"]);
    assert_eq!(code, 0);
    assert_eq!(out, "");
    assert!(!err.is_empty(), "says why on stderr");
    let text = std::fs::read_to_string(&f).expect("read");
    assert!(text == "Q?!p" || text == "Q?!q", "{text:?}");
    let (code, _, _) = bot(&[]);
    assert_eq!(code, 0);
    let (code, out, _) = bot(&["--help"]);
    assert_eq!(code, 0);
    assert!(out.contains("usage"));
}

#[test]
fn a_pair_with_no_game_shows_no_rate() {
    // One round is two games; shard 5/5 holds neither, and its matrix says so instead of 0.00.
    let args: Vec<String> = [
        "-q",
        "-r",
        "1",
        "builtin:honest",
        "builtin:random",
        "--shard",
        "5/5",
    ]
    .iter()
    .map(|a| a.to_string())
    .collect();
    let out = arbiter(&args);
    let text = String::from_utf8_lossy(&out.stdout);
    let rows: Vec<&str> = text
        .lines()
        .skip_while(|l| !l.starts_with("head to head"))
        .skip(2)
        .take(2)
        .collect();
    assert_eq!(rows.len(), 2, "{text}");
    for row in rows {
        assert_eq!(
            row.split_whitespace().collect::<Vec<_>>()[1..],
            ["-", "-"],
            "{text}"
        );
    }
}

#[test]
fn arbiter_runs_process_bots_without_forfeits() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("games");
    let json = tmp.path().join("r.json");
    let bot = env!("CARGO_BIN_EXE_coup-bot");
    let out = arbiter(&[
        "-q".into(),
        "-r".into(),
        "2".into(),
        "--work-dir".into(),
        dir.display().to_string(),
        "--json".into(),
        json.display().to_string(),
        format!("search={bot}"),
        format!("calc={bot} --strategy calculator"),
        format!("rnd={bot} --strategy random"),
    ]);
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("head to head"), "{text}");
    let report: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&json).expect("json")).expect("valid json");
    assert_eq!(
        report["report"]["forfeits"].as_array().map(|a| a.len()),
        Some(0),
        "{text}"
    );
    assert_eq!(report["games"].as_array().map(|a| a.len()), Some(12));
    assert!(!dir.exists(), "the arbiter left its work folder");
}

/// The portfolio reads its earlier games against this opponent from their
/// finished histories beside the current one: a finished game's counts
/// replace those its last call recorded, and it leaves the pending list; a
/// game still running stays, and the new game's arm is recorded as pending.
#[test]
fn portfolio_settles_finished_games_from_their_histories() {
    use cardgames::coup::memory::{game_result, Memory};
    use cardgames::coup::opponent::Stats;
    let root = tempfile::tempdir().expect("temp dir");
    let games = root.path().join("games");
    let me = root.path().join("Ours");
    std::fs::create_dir_all(&games).expect("games");
    std::fs::create_dir_all(&me).expect("bot folder");
    // Game 0: I moved first; Seer's Contessa block was caught, so Seer
    // lost both cards at once (`docs/rules/coup.md` §2.2 rule 4): I won.
    std::fs::write(games.join("Ours_Seer_0_0.txt"), "I\nI\nI\nI\nAsq=").expect("g0");
    // Game 1: Seer moved first and caught my Tax bluffs twice: I lost.
    std::fs::write(games.join("Seer_Ours_0_1.txt"), "I\nTq0\nI\nTq'\n").expect("g1");
    // Game 2: a draw or a forfeit (both hold cards): stays pending.
    std::fs::write(games.join("Ours_Seer_1_0.txt"), "I\nI\n").expect("g2");
    let mut m = Memory::default();
    let e = m.opponents.entry("Seer".into()).or_default();
    e.pending = vec![
        ("Ours_Seer_0_0.txt".into(), 1),
        ("Seer_Ours_0_1.txt".into(), 0),
        ("Ours_Seer_1_0.txt".into(), 1),
    ];
    e.recent = vec![("Ours_Seer_0_0.txt".into(), Stats::default())];
    m.save(&me).expect("save");
    let now = games.join("Seer_Ours_1_1.txt");
    std::fs::write(&now, "").expect("g3");
    let out = Command::new(env!("CARGO_BIN_EXE_coup-bot"))
        .current_dir(&me)
        .args(["--search", "portfolio=1", now.to_str().expect("path")])
        .args(["1", "1", "$^", "I\n", "F", "E", "T", "S"])
        .output()
        .expect("run coup-bot");
    assert!(out.status.success());
    let e = &Memory::load(&me).opponents["Seer"];
    let game0 = game_result("I\nI\nI\nI\nAsq=", true).expect("finished");
    assert_ne!(game0.stats, Stats::default());
    assert_eq!(e.recent[0], ("Ours_Seer_0_0.txt".to_string(), game0.stats));
    let pending: Vec<&str> = e.pending.iter().map(|(g, _)| g.as_str()).collect();
    assert_eq!(pending, ["Ours_Seer_1_0.txt", "Seer_Ours_1_1.txt"]);
}

/// By default the portfolio chooses the arm by the opponent's type: arm 0
/// against an opponent that has challenged every block of mine it
/// answered, or none, arm 1 once its remembered answers both challenged
/// one and let one stand, or once one that challenged none was proved
/// bluffing a Steal (`memory::Entry::choose_typed_arm`); `--explain` names
/// the arm and the counts it read.
#[test]
fn portfolio_chooses_the_arm_by_the_opponents_block_answers() {
    use cardgames::coup::memory::Memory;
    use cardgames::coup::opponent::Stats;
    use cardgames::coup::Character;
    let never = [[2, 0], [0, 0], [2, 0], [0, 0]];
    for (blocks, steals, arm, read) in [
        (
            [[2, 2], [0, 0], [1, 1], [0, 0]],
            [1, 1],
            0,
            "challenged 3 of the 3 blocks",
        ),
        (
            [[2, 2], [0, 0], [2, 1], [0, 0]],
            [0, 0],
            1,
            "challenged 3 of the 4 blocks",
        ),
        (never, [2, 0], 0, "challenged 0 of the 4 blocks"),
        (
            never,
            [2, 1],
            1,
            "1 of its 2 Steals and Assassinations the history resolved were bluffs",
        ),
    ] {
        let root = tempfile::tempdir().expect("temp dir");
        let games = root.path().join("games");
        let me = root.path().join("Ours");
        std::fs::create_dir_all(&games).expect("games");
        std::fs::create_dir_all(&me).expect("bot folder");
        let mut m = Memory::default();
        let e = m.opponents.entry("Seer".into()).or_default();
        e.old = Stats {
            block_challenged: blocks,
            ..Stats::default()
        };
        e.old.resolved_action[Character::Captain.index()][0] = steals;
        m.save(&me).expect("save");
        let now = games.join("Seer_Ours_5_1.txt");
        std::fs::write(&now, "").expect("game");
        let out = Command::new(env!("CARGO_BIN_EXE_coup-bot"))
            .current_dir(&me)
            .args(["--explain", now.to_str().expect("path")])
            .args(["1", "1", "$^", "I\n", "F", "E", "T", "S"])
            .output()
            .expect("run coup-bot");
        assert!(out.status.success());
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("portfolio: arm {arm} against Seer")),
            "{err}"
        );
        assert!(err.contains(read), "{err}");
        let e = &Memory::load(&me).opponents["Seer"];
        assert_eq!(e.pending, [("Seer_Ours_5_1.txt".to_string(), arm)]);
    }
}

/// With `--keep-bot-dirs` the arbiter keeps every game's history file in
/// `WORK_DIR/games`, as the original arbiter does, and `coup-bot`'s
/// portfolio settles its earlier games from them.
#[test]
fn arbiter_keeps_histories_for_the_portfolio() {
    use cardgames::coup::memory::Memory;
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path().join("work");
    let bot = env!("CARGO_BIN_EXE_coup-bot");
    arbiter(&[
        "-q".into(),
        "-r".into(),
        "3".into(),
        "-j".into(),
        "1".into(),
        "--keep-bot-dirs".into(),
        "--work-dir".into(),
        dir.display().to_string(),
        format!("ours={bot}"),
        format!("rnd={bot} --strategy random"),
    ]);
    let games = std::fs::read_dir(dir.join("games"))
        .expect("games kept")
        .count();
    assert_eq!(games, 6, "three rounds, both seats");
    let m = Memory::load(&dir.join("bots").join("ours"));
    let e = &m.opponents["rnd"];
    // Every game but the last is settled (a drawn one would stay pending;
    // unsettled, four would be).
    assert!((1..=2).contains(&e.pending.len()), "{e:?}");
}

/// With `--search mind` the memory also keeps my answers as the opponent
/// saw them (the entry `Seer#me`): my challenge of its Tax counts as one
/// of its Tax claims challenged against my two cards. Without it, no such
/// entry is written.
#[test]
fn mind_keeps_my_answers_as_the_opponent_saw_them() {
    use cardgames::coup::memory::{mine_key, Memory};
    use cardgames::coup::opponent::{kind_index, ACTION_KINDS};
    use cardgames::coup::Action;
    let tax = kind_index(&ACTION_KINDS, Action::Tax).expect("Tax is a kind");
    for mind in [true, false] {
        let root = tempfile::tempdir().expect("temp dir");
        let me = root.path().join("Ours");
        std::fs::create_dir_all(&me).expect("bot folder");
        // Seer moved first and claims Tax; my only legal answer here is
        // the challenge.
        let now = root.path().join("Seer_Ours_0_0.txt");
        std::fs::write(&now, "T").expect("history");
        let search = if mind { "mind=0.03" } else { "mind=0" };
        let out = Command::new(env!("CARGO_BIN_EXE_coup-bot"))
            .current_dir(&me)
            .args(["--search", search, now.to_str().expect("path")])
            .args(["1", "1", "$^", "q"])
            .output()
            .expect("run coup-bot");
        assert!(out.status.success());
        assert_eq!(std::fs::read_to_string(&now).expect("read"), "Tq");
        let m = Memory::load(&me);
        assert!(m.opponents.contains_key("Seer"));
        match m.opponents.get(&mine_key("Seer")) {
            Some(e) => {
                assert!(mind);
                let seen = e.excluding("another game");
                assert_eq!(seen.challenged[tax][1], [1, 1]);
            }
            None => assert!(!mind, "no {} entry", mine_key("Seer")),
        }
    }
}

/// Arm 1 recalibrates the bluff probability of the pending action claim
/// (`Ctx::opponent_hands`, `docs/coup.md`, "Reading the opponent's claims"):
/// an opening Tax against my Captain and Contessa, both players at 1 coin,
/// moves from the posterior's `p` to `sigmoid(w . x)`, with the Tax row's
/// weights and the features computed here by hand (the share of two-card
/// hands drawn from the 13 cards I cannot see that lack all three Dukes is
/// 10/13 * 9/12; no earlier claim or turn; its first turn) but the learnt
/// ratio's, read from the bot's `--explain`.
#[test]
fn arm_one_recalibrates_an_opening_tax() {
    // The posterior's probability that it holds a Duke, and the last feature
    // of the claim's situation (its learnt bluff ratio's log).
    let held = |recalibrate: &str| {
        let (_dir, f) = temp("T");
        let p = f.to_str().expect("path");
        let setting = format!("recalibrate={recalibrate}");
        let args = [
            "--no-memory",
            "--explain",
            "--search",
            "arm=1",
            "--search",
            &setting,
        ];
        let (code, _, err) = bot(&[&args[..], &[p, "1", "1", "*!", "p", "q"]].concat());
        assert_eq!(code, 0, "{err}");
        let line = err.lines().find(|l| l.starts_with("posterior holds"));
        let line = line.unwrap_or_else(|| panic!("no posterior in {err}"));
        let duke = line.split_whitespace().find_map(|kv| kv.strip_prefix("$:"));
        let duke = duke.and_then(|v| v.parse::<f64>().ok());
        let situation = err.lines().find(|l| l.starts_with("claim situation 1 "));
        let ratio = situation.and_then(|l| l.split(' ').next_back()?.parse::<f64>().ok());
        (
            duke.unwrap_or_else(|| panic!("{line}")),
            ratio.unwrap_or_else(|| panic!("{err}")),
        )
    };
    let (holds, ratio) = held("0");
    let p = 1.0 - holds;
    let logit = |x: f64| (x / (1.0 - x)).ln();
    let none = 10.0 / 13.0 * 9.0 / 12.0;
    let w = [
        -0.160, 0.261, 0.447, -0.029, -0.060, 0.530, -0.109, -0.682, 0.054, -0.256, 0.078, 0.196,
    ];
    let x = [
        1.0,
        logit(p),
        logit(none),
        0.0,
        0.0,
        1.0 / 7.0,
        1.0 / 7.0,
        0.0,
        0.0,
        0.0,
        1.0,
        ratio,
    ];
    let q = 1.0 / (1.0 + (-x.iter().zip(w).map(|(a, b)| a * b).sum::<f64>()).exp());
    let got = 1.0 - held("1").0;
    assert!(
        (got - q).abs() < 0.002,
        "recalibrated {got}, expected {q} (from {p})"
    );
    assert!(
        q - p > 0.1,
        "the recalibration moves this claim: {p} to {q}"
    );
}

/// The situation `--explain` prints for the opponent's pending claim
/// (`Ctx::claim_features`: "claim situation ROW x0 ... x11", the features
/// `scripts/coup-recalibrate.py` fits on), at five claims of one game made by
/// hand (the Duke `$`, Captain `*`, Contessa `!`; both players start at 1 coin).
/// The second feature is the posterior's and is not checked, nor the last
/// (the learnt ratio's log) beyond its sign; the third is the log-odds that a
/// hand of the claimant's card count drawn blind from the cards I cannot see
/// lacks the character, computed here by hand.
#[test]
fn explain_prints_the_situation_of_a_pending_claim() {
    let situation = |history: &str, coins: [&str; 2], hand: &str, legal: &[&str]| {
        let (_dir, f) = temp(history);
        let p = f.to_str().expect("path");
        let args = [
            &["--no-memory", "--explain", p, coins[0], coins[1], hand],
            legal,
        ]
        .concat();
        let (code, _, err) = bot(&args);
        assert_eq!(code, 0, "{err}");
        let line = err.lines().find_map(|l| l.strip_prefix("claim situation "));
        let line = line.unwrap_or_else(|| panic!("no situation in {err}"));
        let v: Vec<f64> = line
            .split(' ')
            .map(|x| x.parse().expect("number"))
            .collect();
        assert_eq!(v.len(), 13, "{line}");
        v
    };
    let ln = f64::ln;
    // (history, coins [its, mine], my hand, legal answers, the row and the features)
    type Case = (
        &'static str,
        [&'static str; 2],
        &'static str,
        &'static [&'static str],
        [f64; 12],
    );
    #[rustfmt::skip]
    let cases: [Case; 5] = [
        // Its opening Tax against my two Dukes: one Duke among the 13 cards
        // I cannot see; a pair lacks it with chance 11/13. Row 1 (Tax).
        ("T", ["1", "1"], "$$", &["p", "q"],
         [1.0, 1.0, 0.0, ln(11.0 / 2.0), 0.0, 0.0, 1.0 / 7.0, 1.0 / 7.0, 0.0, 0.0, 0.0, 1.0]),
        // Its Captain block of my Steal, its Tax standing: 3 Captains among
        // 13 cards (a pair lacks them with 10/13 * 9/12). Row 5 (Captain).
        ("Tp\nSc", ["4", "1"], "$$", &["q", "\n"],
         [5.0, 1.0, 0.0, ln(90.0 / 66.0), 0.0, 0.0, 4.0 / 7.0, 1.0 / 7.0, 0.0, 1.0, 1.0 / 6.0, 0.0]),
        // Its second Tax, its first and its block standing.
        ("Tp\nSc\nT", ["4", "1"], "$$", &["p", "q"],
         [1.0, 1.0, 0.0, ln(11.0 / 2.0), 0.0, 0.0, 4.0 / 7.0, 1.0 / 7.0, 1.0, 1.0, 1.0 / 6.0, 0.0]),
        // It showed the Duke (that Tax no longer stands) and I gave up a
        // Duke; its Exchange: 3 Ambassadors among 13 cards. Row 0.
        ("Tp\nSc\nTq$0\nI\nE", ["7", "2"], "$", &["p", "q"],
         [0.0, 1.0, 0.0, ln(90.0 / 66.0), 1.0, 0.0, 1.0, 2.0 / 7.0, 0.0, 2.0, 2.0 / 6.0, 0.0]),
        // Its Exchange cleared its claims; its new Captain block stood until
        // it gave up a Captain. Its Steal on its last card: 2 Captains left
        // among 12 cards. Row 2.
        ("Tp\nSc\nTq$0\nI\nEp\nSc\nI\nTq$<\nS", ["8", "5"], "$", &["a", "c", "p", "q"],
         [2.0, 1.0, 0.0, ln(5.0), 1.0, 1.0, 8.0 / 7.0, 5.0 / 7.0, 0.0, 0.0, 4.0 / 6.0, 0.0]),
    ];
    for (history, coins, hand, legal, want) in cases {
        let got = situation(history, coins, hand, legal);
        for (i, (g, w)) in got.iter().zip(want).enumerate() {
            assert!(
                i == 2 || (g - w).abs() < 1e-5,
                "{history:?}: feature {i} {g} != {w} ({got:?})"
            );
        }
        // The last: the log of its learnt bluff ratio (a likelihood ratio, at most 1).
        assert!(got[12] <= 0.0, "{history:?}: {got:?}");
    }
}
