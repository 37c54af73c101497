//! The bots never die mid-game (issue 10): whatever they are fed, they answer
//! from the legal set or end cleanly as documented, never panic or abort.
//!
//! - Durak: any sequence of lines (protocol-like lines with any values, and
//!   arbitrary text) fed to [`DurakBot`]: each command's answer is one of the
//!   tracker's legal answers; the `durak-bot` program on arbitrary bytes exits
//!   0 and prints only cards or `NO`.
//! - Coup: any history text, coins, cards and legal list: [`decide`] answers
//!   from the legal list given (or, with none, from the engine's own list, or
//!   `"\n"`), keeps only offered cards; `coup-bot` on arbitrary files and
//!   arguments exits 0.
//! - Ioiwari: any input to `ioiwari` / `ioiwari2`: exit 0, or 1 with one line
//!   on stderr (their documented exits), never a crash; every move printed is
//!   a pit number 1..7.

use std::io::Write;
use std::process::{Command, Stdio};

use cardgames::coup::{
    decide, legal_answers, Character, Config, Remembered, Strategy as CoupStrategy, View,
};
use cardgames::durak::deep::DeepConfig;
use cardgames::durak::protocol::format_answer;
use cardgames::durak::referee::play_game;
use cardgames::durak::tournament::BotSeat;
use cardgames::durak::Game;
use cardgames::durak::{DurakBot, Strategy as DurakStrategy};
use proptest::prelude::*;

const RANKS: &[&str] = &["6", "7", "8", "9", "T", "J", "Q", "K", "A"];
const SUITS: &[&str] = &["S", "C", "D", "H"];

/// Mostly a real card, sometimes `??` or junk.
fn card() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (prop::sample::select(RANKS), prop::sample::select(SUITS)).prop_map(|(r, s)| r.to_owned() + s),
        1 => Just("??".to_owned()),
        1 => prop::sample::select(&["X", "10S", "6", "S", "6Z", ""][..]).prop_map(str::to_owned),
    ]
}

/// Mostly a real player number 1..4.
fn player() -> impl Strategy<Value = String> {
    prop_oneof![
        8 => (1i32..=4).prop_map(|p| p.to_string()),
        1 => prop::sample::select(&["0", "5", "-1", "x"][..]).prop_map(str::to_owned),
    ]
}

/// A protocol-like Durak line with any values, or arbitrary text.
fn durak_line() -> impl Strategy<Value = String> {
    prop_oneof![
        3 => prop::sample::select(&["S", "C", "D", "H", "Z"][..]).prop_map(|s| format!("trump {s}")),
        6 => (player(), card()).prop_map(|(p, c)| format!("give {p} {c}")),
        3 => (player(), player(), card()).prop_map(|(a, b, c)| format!("move {a} {b} {c}")),
        2 => (player(), card()).prop_map(|(a, c)| format!("beat {a} {c}")),
        2 => (player(), player(), card()).prop_map(|(a, b, c)| format!("add {a} {b} {c}")),
        1 => player().prop_map(|p| format!("take {p}")),
        2 => player().prop_map(|p| format!("out {p}")),
        4 => prop::sample::select(&["MOVE", "BEAT", "ADD", " MOVE\r", "move", "NO"][..]).prop_map(str::to_owned),
        1 => ".{0,30}",
    ]
}

fn durak_strategy() -> impl Strategy<Value = DurakStrategy> {
    prop::sample::select(
        &[
            DurakStrategy::Random,
            DurakStrategy::Greedy,
            DurakStrategy::Heuristic,
            DurakStrategy::Deep,
        ][..],
    )
}

/// A search small enough for hundreds of cases in a debug build.
fn small_search() -> DeepConfig {
    DeepConfig::parse("max_samples=6,min_samples=1,exact_cards=3,leaf_nodes=200,root_nodes=200")
        .unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn durak_bot_answers_legally_to_any_lines(
        strategy in durak_strategy(),
        seed in any::<u64>(),
        lines in prop::collection::vec(durak_line(), 0..80),
    ) {
        let mut bot = DurakBot::new(strategy, seed).with_config(small_search());
        for line in &lines {
            if let Ok(Some(cmd)) = bot.feed(line) {
                let mut t = bot.tracker().clone();
                t.on_command(cmd);
                let legal = t.legal(cmd);
                let answer = bot.answer(cmd);
                let legal_text: Vec<String> = legal.iter().map(|&a| format_answer(a)).collect();
                // With nothing legal (a MOVE on an empty hand, impossible from a correct
                // server) the documented answer is NO.
                prop_assert!(
                    legal_text.contains(&answer) || (legal.is_empty() && answer == "NO"),
                    "{answer:?} not in {legal_text:?} after {lines:?}"
                );
                // The strategy's own answer was legal: `answer`'s safety net replaced nothing.
                prop_assert_eq!(bot.fallbacks(), 0, "{:?} chose outside {:?} after {:?}", strategy, legal_text, lines);
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Whole refereed games between every pair of strategies: every answer the strategies
    /// themselves chose was legal (the bot's safety net never replaced one, and the referee
    /// saw no forfeit).
    #[test]
    fn durak_strategies_answer_legally_in_real_games(
        seed in any::<u64>(),
        a in durak_strategy(),
        b in durak_strategy(),
    ) {
        let (game, dealt) = Game::new(seed);
        let mut seats: Vec<BotSeat> = (0..4u64)
            .map(|i| {
                let s = if i % 2 == 0 { a } else { b };
                BotSeat(DurakBot::new(s, seed ^ i).with_config(small_search()))
            })
            .collect();
        let [s0, s1, s2, s3] = &mut seats[..] else { unreachable!("four seats") };
        let record = play_game(game, &dealt, &mut [s0, s1, s2, s3], false);
        prop_assert_eq!(record.forfeit, None, "{:?} vs {:?}", a, b);
        for (i, seat) in seats.iter().enumerate() {
            let s = if i % 2 == 0 { a } else { b };
            prop_assert_eq!(seat.0.fallbacks(), 0, "seat {} ({:?}) answered illegally", i, s);
        }
    }
}

const COUP_CHARS: &[char] = &[
    'I', 'F', 'E', 'T', 'A', 'C', 'S', 'p', 'q', 'a', 'c', 'd', 's', '_', '\'', '<', '=', '0', '~',
    '^', '*', '!', '$', '\n', 'é', '\u{fffd}', ' ',
];

/// Protocol characters in any order (a history text, a card string, a legal answer).
fn coup_text(max: usize) -> impl Strategy<Value = String> {
    prop_oneof![
        4 => prop::collection::vec(prop::sample::select(COUP_CHARS), 0..max)
            .prop_map(|v| v.into_iter().collect()),
        1 => ".{0,12}",
    ]
}

fn coup_strategy() -> impl Strategy<Value = CoupStrategy> {
    prop::sample::select(
        CoupStrategy::ALL
            .iter()
            .map(|(s, _)| *s)
            .collect::<Vec<_>>(),
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(600))]

    #[test]
    fn coup_decide_answers_from_the_legal_set_for_any_input(
        strategy in coup_strategy(),
        history in coup_text(200),
        opp in -3i64..15,
        mine in -3i64..15,
        cards in coup_text(8),
        legal in prop::collection::vec(coup_text(3), 0..8),
    ) {
        let view = View::new(&history, opp, mine, &cards, &legal);
        let d = decide(&view, Remembered::Nothing, &Config::of(strategy));
        let given: Vec<&String> = legal.iter().filter(|a| !a.is_empty()).collect();
        if given.is_empty() {
            // With no list the bot computes one from the history (or answers "\n").
            let line = cardgames::coup::rules::last_line(&history);
            let hand: Vec<Character> = cards.chars().filter_map(Character::from_revealed).collect();
            let own = legal_answers(line, &hand, mine, opp).unwrap_or_default();
            prop_assert!(
                d.answer == "\n" || own.contains(&d.answer),
                "{:?} not in {own:?}",
                d.answer
            );
        } else {
            prop_assert!(given.contains(&&d.answer), "{:?} not in {given:?}", d.answer);
        }
        // (Arbitrary input may need `decide`'s safety net, so `d.fallback` is not asserted
        // here: tests/coup_bot.rs asserts it on reachable positions.)
        if let Some(keep) = &d.exchange_keep {
            let mut pool: Vec<char> = cards.chars().collect();
            for c in keep.chars() {
                let i = pool.iter().position(|&x| x == c);
                prop_assert!(i.is_some(), "kept {c:?} not offered in {cards:?}");
                pool.remove(i.unwrap());
            }
        }
    }
}

/// Runs `program` with `args` and `input` on stdin; returns (exit code, stdout, stderr).
fn run(program: &str, args: &[&str], input: &[u8]) -> (Option<i32>, String, String) {
    let mut child = Command::new(program)
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let bytes = input.to_vec();
    // A thread: a program that stops reading must not block the test.
    let writer = std::thread::spawn(move || {
        let _ = stdin.write_all(&bytes);
    });
    let out = child.wait_with_output().unwrap();
    let _ = writer.join();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Bytes that are mostly protocol-like lines joined by newlines, with raw bytes mixed in.
fn durak_bytes() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(
        prop_oneof![
            4 => durak_line().prop_map(|l| (l + "\n").into_bytes()),
            1 => prop::collection::vec(any::<u8>(), 0..40),
        ],
        0..40,
    )
    .prop_map(|parts| parts.concat())
}

fn ioiwari_bytes() -> impl Strategy<Value = Vec<u8>> {
    let line = prop_oneof![
        3 => prop::collection::vec(0u8..9, 7).prop_map(|v| v.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")),
        1 => Just("4 3 2 4 2 3 2".to_owned()),
        4 => (0i32..10).prop_map(|n| n.to_string()),
        1 => ".{0,12}",
    ];
    prop::collection::vec(
        prop_oneof![
            6 => line.prop_map(|l| (l + "\n").into_bytes()),
            1 => prop::collection::vec(any::<u8>(), 0..20),
        ],
        0..20,
    )
    .prop_map(|parts| parts.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn durak_bot_program_never_fails(input in durak_bytes(), strategy in 0usize..4) {
        let name = ["random", "greedy", "heuristic", "deep"][strategy];
        let (code, out, err) = run(
            env!("CARGO_BIN_EXE_durak-bot"),
            &["--strategy", name, "--deep", "max_samples=6,min_samples=1"],
            &input,
        );
        prop_assert_eq!(code, Some(0), "stderr {}", err);
        for line in out.lines() {
            let ok = line == "NO"
                || (line.len() == 2
                    && "6789TJQKA".contains(&line[..1])
                    && "SCDH".contains(&line[1..]));
            prop_assert!(ok, "answered {:?}", line);
        }
    }

    #[test]
    fn coup_bot_program_never_fails(
        history in prop::collection::vec(any::<u8>(), 0..300),
        opp in ".{0,4}",
        cards in coup_text(6),
        legal in prop::collection::vec(coup_text(3), 0..6),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("h.txt");
        std::fs::write(&path, &history).unwrap();
        // An argument cannot hold NUL.
        let legal: Vec<String> = legal.iter().map(|a| a.replace('\0', "")).collect();
        let mut args = vec![path.to_str().unwrap().to_owned(), opp.replace('\0', ""), "2".into(), cards.replace('\0', "")];
        args.extend(legal.iter().cloned());
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let (code, _, err) = run(env!("CARGO_BIN_EXE_coup-bot"), &refs, b"");
        prop_assert_eq!(code, Some(0), "stderr {}", err);
        let after = std::fs::read(&path).unwrap();
        prop_assert!(after.starts_with(&history), "the history was rewritten");
        let given: Vec<&String> = legal.iter().filter(|a| !a.is_empty()).collect();
        if !given.is_empty() {
            let appended = String::from_utf8_lossy(&after[history.len()..]).into_owned();
            prop_assert!(given.contains(&&appended), "appended {:?} not in {:?}", appended, given);
        }
    }

    #[test]
    fn ioiwari_players_exit_cleanly_on_any_input(input in ioiwari_bytes()) {
        for program in [env!("CARGO_BIN_EXE_ioiwari"), env!("CARGO_BIN_EXE_ioiwari2")] {
            let (code, out, err) = run(program, &["--no-log"][..usize::from(program.ends_with('2'))], &input);
            prop_assert!(code == Some(0) || code == Some(1), "{program}: exit {code:?}, stderr {err}");
            if code == Some(1) {
                prop_assert_eq!(err.lines().count(), 1, "{}: {}", program, err);
                prop_assert!(err.len() < 300, "{}: {} bytes of stderr", program, err.len());
            }
            for (i, line) in out.lines().enumerate() {
                // ioiwari2 echoes the start line first.
                if program.ends_with('2') && i == 0 {
                    continue;
                }
                prop_assert!(
                    matches!(line.trim().parse::<u8>(), Ok(1..=7)),
                    "{program}: printed {line:?}"
                );
            }
        }
    }
}
