//! Compiles and runs the C harnesses of `c_tests/` against the static library
//! this `cargo test` built (with the `cc` crate's compiler), so the README's
//! test command covers the C ABI: the header alone under `-std=c99 -pedantic
//! -Werror`, every `c_tests/test_*.c`, and the C coursework program
//! `c_tests/homework.c` on the checker tests.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "support/coup_decide.rs"]
mod coup_decide;
mod support;

const C_FLAGS: [&str; 5] = ["-std=c99", "-Wall", "-Wextra", "-Werror", "-pedantic"];
/// What the Rust static library needs from the system (`--print native-static-libs`).
const NATIVE_LIBS: [&str; 7] = [
    "-lgcc_s",
    "-lutil",
    "-lrt",
    "-lpthread",
    "-lm",
    "-ldl",
    "-lc",
];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// `libcardgames.a` of this build: next to the test binary, in `target/<profile>/deps`.
fn static_lib() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let lib = exe.parent().unwrap().join("libcardgames.a");
    assert!(lib.is_file(), "{} not built", lib.display());
    lib
}

fn compiler() -> Command {
    cc::Build::new()
        .cargo_metadata(false)
        .opt_level(0)
        .debug(true)
        .target(env!("CARDGAMES_BUILD_TARGET"))
        .host(env!("CARDGAMES_BUILD_HOST"))
        .get_compiler()
        .to_command()
}

/// `-DCG_DEBUG_PANIC` when this build exports `cg_debug_panic`.
fn defines() -> Vec<&'static str> {
    if cfg!(feature = "debug-panic") {
        vec!["-DCG_DEBUG_PANIC"]
    } else {
        vec![]
    }
}

/// Compiles one C program against the static library into `dir`.
fn build(source: &str, dir: &Path) -> PathBuf {
    let exe = dir.join(Path::new(source).file_stem().unwrap());
    let status = compiler()
        .args(C_FLAGS)
        .args(defines())
        .arg("-I")
        .arg(root().join("include"))
        .arg(root().join(source))
        .arg(static_lib())
        .args(NATIVE_LIBS)
        .arg("-o")
        .arg(&exe)
        .status()
        .unwrap();
    assert!(status.success(), "compiling {source} failed");
    exe
}

#[test]
fn the_header_alone_compiles_as_pedantic_c89_c99_cxx98_and_cxx17() {
    let dir = tempfile::tempdir().unwrap();
    let strict = ["-pedantic", "-Wall", "-Wextra", "-Werror"];
    for (language, standard) in [
        ("c", "c89"),
        ("c", "c99"),
        ("c++", "c++98"),
        ("c++", "c++17"),
    ] {
        for define in ["-DCG_HEADER_CHECK", "-DCG_DEBUG_PANIC"] {
            let status = compiler()
                .args(["-x", language])
                .arg(format!("-std={standard}"))
                .args(strict)
                .arg(define)
                .arg("-I")
                .arg(root().join("include"))
                .arg("-c")
                .arg(root().join("c_tests/header_only.c"))
                .arg("-o")
                .arg(dir.path().join("header_only.o"))
                .status()
                .unwrap();
            assert!(status.success(), "header_only.c as {standard} {define}");
        }
    }
}

#[test]
fn every_c_harness_passes() {
    let dir = tempfile::tempdir().unwrap();
    let mut harnesses: Vec<String> = std::fs::read_dir(root().join("c_tests"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .filter(|name| name.starts_with("test_") && name.ends_with(".c"))
        .collect();
    harnesses.sort();
    assert!(!harnesses.is_empty());
    for name in harnesses {
        let exe = build(&format!("c_tests/{name}"), dir.path());
        let out = Command::new(&exe).current_dir(dir.path()).output().unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        let last = stdout.lines().last().unwrap_or("");
        assert!(
            out.status.success() && last.ends_with(" 0 failed"),
            "{name}: {stdout}{}",
            String::from_utf8_lossy(&out.stderr)
        );
        eprintln!("{name}: {last}");
    }
}

/// `c_tests/homework.c` through the checker's steps on every test of `tests`.
fn c_homework_passes(tests: &Path) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let exe = build("c_tests/homework.c", dir.path());
    let mut count = 0;
    for game in std::fs::read_dir(tests).unwrap() {
        for file in std::fs::read_dir(game.unwrap().path()).unwrap() {
            let input = file.unwrap().path();
            if input.extension().is_none_or(|e| e != "in") {
                continue;
            }
            std::fs::copy(&input, dir.path().join("in")).unwrap();
            let out = Command::new(&exe).current_dir(dir.path()).output().unwrap();
            assert!(out.status.success(), "{}", input.display());
            let squeeze = |s: String| s.split_whitespace().collect::<String>();
            let got = squeeze(std::fs::read_to_string(dir.path().join("out")).unwrap());
            let want = squeeze(std::fs::read_to_string(input.with_extension("ref")).unwrap());
            assert_eq!(got, want, "{}", input.display());
            count += 1;
        }
    }
    count
}

#[test]
fn the_c_coursework_program_passes_the_checker_tests() {
    assert_eq!(c_homework_passes(&root().join("checker/tests")), 22);
}

#[test]
#[ignore = "needs ../shared/hw-tests (outside the repository); make test runs it, or lists it as not run"]
fn the_c_coursework_program_passes_the_original_checker_tests() {
    let Some(tests) = support::shared_hw_tests() else {
        return;
    };
    assert_eq!(c_homework_passes(&tests), 22);
}

/// Runs the student-style coursework (`c_tests/coursework/homework.c`, its
/// own games on the list operations) with `--debug` on `input`: its exit
/// success, `out` and `out.debug`.
fn coursework(exe: &Path, dir: &Path, input: &str) -> (bool, String, String) {
    std::fs::write(dir.join("in"), input).unwrap();
    let _ = std::fs::remove_file(dir.join("out"));
    let status = Command::new(exe)
        .arg("--debug")
        .current_dir(dir)
        .status()
        .unwrap();
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap_or_default();
    (status.success(), read("out"), read("out.debug"))
}

/// The coursework equals the library (`homework::run`, `homework::trace`)
/// on every test of `tests`, and the official `.ref`/`.debug` files.
fn coursework_matches(exe: &Path, tests: &Path) -> usize {
    let dir = tempfile::tempdir().unwrap();
    let mut count = 0;
    for game in std::fs::read_dir(tests).unwrap() {
        for file in std::fs::read_dir(game.unwrap().path()).unwrap() {
            let path = file.unwrap().path();
            if path.extension().is_none_or(|e| e != "in") {
                continue;
            }
            let input = std::fs::read_to_string(&path).unwrap();
            let (ok, out, debug) = coursework(exe, dir.path(), &input);
            let traced = cardgames::homework::trace(&input).unwrap();
            assert!(ok, "{}", path.display());
            assert_eq!(out, traced.out, "{}", path.display());
            assert_eq!(debug, traced.debug, "{}", path.display());
            let squeeze = |s: &str| s.split_whitespace().collect::<String>();
            let reference = std::fs::read_to_string(path.with_extension("ref")).unwrap();
            assert_eq!(squeeze(&out), squeeze(&reference), "{}", path.display());
            if let Ok(official) = std::fs::read_to_string(path.with_extension("debug")) {
                // rollingstone4.debug ends with a stray line (see homework::trace).
                let official = official.replace("\r\n", "\n");
                assert!(official.starts_with(&debug), "{}", path.display());
                let rest = &official[debug.len()..];
                assert!(
                    rest.is_empty() || rest == "[6, 11, 2, 13, 12, 4, 8, 7, 5, 3, 10, 1, 9]\n",
                    "{}",
                    path.display()
                );
            }
            count += 1;
        }
    }
    count
}

#[test]
#[ignore = "needs ../shared/hw-tests (outside the repository); make test runs it, or lists it as not run"]
fn the_student_coursework_passes_the_original_checker_tests() {
    let Some(tests) = support::shared_hw_tests() else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let exe = build("c_tests/coursework/homework.c", dir.path());
    assert_eq!(coursework_matches(&exe, &tests), 22);
}

#[test]
fn the_student_coursework_on_the_list_operations_equals_the_library() {
    use rand::{RngExt, SeedableRng};

    let dir = tempfile::tempdir().unwrap();
    let exe = build("c_tests/coursework/homework.c", dir.path());
    assert_eq!(coursework_matches(&exe, &root().join("checker/tests")), 22);
    // 1,000 generated deals (seed 9): every task, 0..8 shuffles of every kind.
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(9);
    let tasks = ["razboi", "rollingstone", "scarabei", "amestecare"];
    let work = tempfile::tempdir().unwrap();
    let mut finished = 0;
    for deal in 0..1000 {
        let count = rng.random_range(0..9);
        let mut input = format!("{}\n{count}\n", tasks[deal % 4]);
        for _ in 0..count {
            let line = match rng.random_range(0..4) {
                0 => "inversare".to_owned(),
                1 => "intercalare".to_owned(),
                2 => "mongean".to_owned(),
                _ => {
                    let k = [1, 2, 4, 13, 26, 52][rng.random_range(0..6)];
                    let mut order: Vec<usize> = (1..=k).collect();
                    for i in (1..k).rev() {
                        order.swap(i, rng.random_range(0..=i));
                    }
                    let order: Vec<String> = order.iter().map(usize::to_string).collect();
                    format!("npiles {k} {}", order.join(" "))
                }
            };
            input.push_str(&line);
            input.push('\n');
        }
        let (ok, out, debug) = coursework(&exe, work.path(), &input);
        match cardgames::homework::trace(&input) {
            Ok(traced) => {
                assert!(ok, "{input}");
                assert_eq!(out, traced.out, "{input}");
                assert_eq!(debug, traced.debug, "{input}");
                finished += 1;
            }
            // A War tie or a game that loops: both refuse it.
            Err(_) => assert!(!ok, "{input}"),
        }
    }
    assert!(finished > 900, "{finished}");
}

/// The names of the functions `include/cardgames.h` declares.
fn exported_functions() -> Vec<String> {
    let header = std::fs::read_to_string(root().join("include/cardgames.h")).unwrap();
    let mut names: Vec<String> = header
        .lines()
        .filter(|line| !line.starts_with(' ') && !line.starts_with('/') && !line.starts_with('#'))
        .filter_map(|line| {
            let open = line.find('(')?;
            let name = line[..open].rsplit([' ', '*']).next()?;
            name.starts_with("cg_").then(|| name.to_owned())
        })
        .collect();
    names.sort();
    names.dedup();
    names
}

#[test]
fn every_exported_function_is_called_by_c_tests() {
    let names = exported_functions();
    assert!(names.len() > 60, "{names:?}");
    let mut sources = String::new();
    for dir in ["c_tests", "c_tests/coursework"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let path = entry.unwrap().path();
            if path.extension().is_some_and(|e| e == "c") {
                sources.push_str(&std::fs::read_to_string(path).unwrap());
            }
        }
    }
    let uncalled: Vec<&String> = names
        .iter()
        .filter(|name| !sources.contains(&format!("{name}(")))
        .collect();
    assert!(uncalled.is_empty(), "not called by c_tests/: {uncalled:?}");
    // The randomized harness alone calls each of them too.
    let fuzz = std::fs::read_to_string(root().join("c_tests/fuzz_abi.c")).unwrap();
    let missed: Vec<&String> = names
        .iter()
        .filter(|name| !fuzz.contains(&format!("{name}(")))
        .collect();
    assert!(
        missed.is_empty(),
        "not called by c_tests/fuzz_abi.c: {missed:?}"
    );
}

#[test]
fn the_randomized_abi_harness_finds_nothing_in_a_short_run() {
    // `make fuzz-c` runs it longer under ASan/UBSan; here 1 s, seed 7.
    let dir = tempfile::tempdir().unwrap();
    let exe = build("c_tests/fuzz_abi.c", dir.path());
    let out = Command::new(&exe).args(["1", "7"]).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(" 0 failures"),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Every exported function's body runs inside the panic boundary: it calls
/// `guard`, `returning` or `shielded` (src/ffi/mod.rs), or a helper of its
/// module that does (listed here, each checked to call `guard` or
/// `returning` itself).
#[test]
fn every_export_runs_inside_the_panic_boundary() {
    let helpers = ["shuffle(", "rolling_stone_play(", "scarabs_play("];
    let boundary = ["guard(", "returning(", "shielded("];
    let mut exports = 0;
    let mut outside = Vec::new();
    for entry in std::fs::read_dir(root().join("src/ffi")).unwrap() {
        let path = entry.unwrap().path();
        let source = std::fs::read_to_string(&path).unwrap();
        // Each item: from a `#[no_mangle]` to the first line that is `}`.
        for item in source.split("#[no_mangle]").skip(1) {
            let body = &item[..item.find("\n}\n").unwrap()];
            let name = body
                .split("fn ")
                .nth(1)
                .and_then(|rest| rest.split('(').next())
                .unwrap()
                .to_owned();
            exports += 1;
            let inside = body.find('{').is_some_and(|open| {
                let body = &body[open..];
                boundary
                    .iter()
                    .chain(&helpers)
                    .any(|call| body.contains(call))
            });
            if !inside {
                outside.push(name);
            }
        }
        for helper in helpers {
            let name = helper.trim_end_matches('(');
            if let Some(at) = source.find(&format!("fn {name}(")) {
                let body = &source[at..];
                let body = &body[..body.find("\n}\n").unwrap()];
                assert!(
                    body.contains("guard(") || body.contains("returning("),
                    "{name} in {} does not run inside guard",
                    path.display()
                );
            }
        }
    }
    assert_eq!(exports, exported_functions().len(), "exports counted");
    assert!(
        outside.is_empty(),
        "outside the panic boundary: {outside:?}"
    );
}

/// Every export that returns a `cg_status` (but `cg_debug_panic`, which
/// test_boundary.c covers) has a row in the table of error paths,
/// c_tests/test_errors.c, which asserts the status and the exact message.
#[test]
fn every_fallible_export_has_an_error_row() {
    let header = std::fs::read_to_string(root().join("include/cardgames.h")).unwrap();
    let table = std::fs::read_to_string(root().join("c_tests/test_errors.c")).unwrap();
    let fallible: Vec<&str> = header
        .lines()
        .filter_map(|line| line.strip_prefix("enum cg_status "))
        .filter_map(|rest| rest.split('(').next())
        .filter(|name| *name != "cg_debug_panic")
        .collect();
    assert!(fallible.len() > 50, "{fallible:?}");
    let missing: Vec<&&str> = fallible
        .iter()
        .filter(|name| {
            !table.contains(&format!("ROW({name}("))
                && !table.contains(&format!("ROW_PREFIX({name}("))
        })
        .collect();
    assert!(
        missing.is_empty(),
        "no error row in c_tests/test_errors.c: {missing:?}"
    );
}

/// One field of `c_tests/agree_coup.c`'s transcript: `LENGTH:BYTES\n`.
fn field(out: &mut String, text: &str) {
    out.push_str(&format!("{}:{}\n", text.len(), text));
}

/// The C ABI with a memory decides as the library's `coup::decide` with the same memory
/// (and so as `coup-bot` in its folder: `tests/coup_agree.rs`): twelve games of the default
/// bot against a random player (which answers blocks both ways, so both arms of the
/// portfolio play), every decision of ours written with the memory text before it, then
/// answered again by `c_tests/agree_coup.c` through `cg_coup_memory_load` and
/// `cg_coup_decide_remembering`.
#[test]
fn the_c_abi_with_memory_decides_as_the_library() {
    use cardgames::coup::memory::Memory;
    use cardgames::coup::rules::{Outcome, Table};
    use cardgames::coup::{decide, format_hand, Config, Recall, Remembered, Strategy, View};

    let mut memory = Memory::default();
    let mut transcript = String::new();
    let mut ours_calls = 0;
    let mut arm1 = false;
    for g in 0..12u64 {
        let (ours, name) = coup_decide::memory_game(g);
        let mut t = Table::new(0xc0de_0000 + g, false);
        for _ in 0..60 {
            let Ok(call) = t.next_call() else { break };
            let cards = format_hand(&call.cards);
            let view = View::new(
                &t.history,
                call.opp_coins,
                call.my_coins,
                &cards,
                &call.legal,
            );
            let d = if call.seat == ours {
                let before = memory.format();
                let recall = Recall {
                    memory: &mut memory,
                    opponent: "Rnd",
                    game: &name,
                };
                let d = decide(&view, Remembered::Kept(recall), &Config::default());
                ours_calls += 1;
                arm1 |= d.explanation.contains("portfolio: arm 1");
                field(&mut transcript, &before);
                for f in ["Rnd", &name, &t.history] {
                    field(&mut transcript, f);
                }
                field(&mut transcript, &call.opp_coins.to_string());
                field(&mut transcript, &call.my_coins.to_string());
                field(&mut transcript, &cards);
                field(&mut transcript, &call.legal.len().to_string());
                for l in &call.legal {
                    field(&mut transcript, l);
                }
                field(&mut transcript, &d.answer);
                field(&mut transcript, d.exchange_keep.as_deref().unwrap_or(""));
                d
            } else {
                decide(&view, Remembered::Nothing, &Config::of(Strategy::Random))
            };
            let keep = d.exchange_keep.clone().unwrap_or_default();
            match t.play(&call, &d.answer, &keep) {
                None => {}
                Some(Outcome::Forfeit { reason, .. }) => panic!("forfeit: {reason}"),
                Some(_) => break,
            }
        }
        memory.settle("Ours", "Rnd", &name, &t.history);
    }
    assert!(ours_calls > 80, "only {ours_calls} decisions");
    assert!(arm1, "the portfolio's arm 1 never played");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("transcript");
    std::fs::write(&path, &transcript).unwrap();
    let exe = build("c_tests/agree_coup.c", dir.path());
    let out = Command::new(&exe).arg(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success() && stdout.contains(&format!("{ours_calls} decisions, 0 failed")),
        "{stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Runs `c_tests/agree_durak.c` (built as `exe`) on `transcript`: its exit success, and its
/// stdout followed by its stderr.
fn agree_durak(exe: &Path, transcript: &str) -> (bool, String) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("transcript");
    std::fs::write(&path, transcript).unwrap();
    let out = Command::new(exe).arg(&path).output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    (
        out.status.success(),
        stdout + &String::from_utf8_lossy(&out.stderr),
    )
}

/// A Durak seat played in process by a `DurakBot` (without the `cli` feature's tournaments).
struct DurakSeat(cardgames::durak::DurakBot);

impl cardgames::durak::referee::Player for DurakSeat {
    fn send(&mut self, line: &str) -> Result<(), cardgames::durak::referee::SeatFault> {
        self.0.feed(line).unwrap();
        Ok(())
    }
    fn ask(
        &mut self,
        command: cardgames::durak::Command,
        _: std::time::Duration,
    ) -> Result<String, cardgames::durak::referee::SeatFault> {
        Ok(self.0.answer(command))
    }
}

/// The C ABI decides Durak as the library's `durak::bot::decide` (and so as `durak-bot`:
/// `tests/durak_deep.rs`): eight games (four deals, both ways) of the deep bot against the
/// greedy one, with work caps small for a debug build and the wall-clock safety net at a
/// hundred times the budget (`hard_share=100`, given to C through `cg_durak_bot_set`), so only
/// the work caps end a search. Every command of each deep seat is decided again here by a fresh bot through
/// `decide` (as in the game, no clock cut), then by `c_tests/agree_durak.c` through
/// `cg_durak_bot_*`; a transcript with one answer changed to another legal one fails there.
#[test]
fn the_c_abi_decides_durak_as_the_library() {
    use cardgames::durak::bot::decide;
    use cardgames::durak::deep::DeepConfig;
    use cardgames::durak::protocol::format_answer;
    use cardgames::durak::referee::play_game;
    use cardgames::durak::{DurakBot, Game, Strategy};

    let knobs = "units_per_second=40000,hard_share=100,max_samples=40";
    let cfg = DeepConfig::parse(knobs).unwrap();
    let mut transcript = String::new();
    // Searched decisions: where the answer's line starts, and another legal answer.
    let mut searched = Vec::new();
    let mut decisions = 0;
    for (deal, swapped) in (0..4u64).flat_map(|d| [(d, false), (d, true)]) {
        let seed_of = |seat: usize| 69_000 + 10 * deal + seat as u64;
        let mut seats = [0, 1, 2, 3].map(|seat| {
            let strategy = [Strategy::Deep, Strategy::Greedy][(seat + usize::from(swapped)) % 2];
            DurakSeat(DurakBot::new(strategy, seed_of(seat)).with_config(cfg))
        });
        let [a, b, c, d] = &mut seats;
        let (game, dealt) = Game::new(690 + deal);
        let record = play_game(game, &dealt, &mut [a, b, c, d], true);
        assert_eq!(record.forfeit, None, "deal {deal}");
        let views = record.transcript.unwrap();
        for seat in [0, 2].map(|s| s + usize::from(swapped)) {
            let seed = seed_of(seat);
            let mut bot = DurakBot::new(Strategy::Deep, seed).with_config(cfg);
            transcript.push_str(&format!("bot {seed} {knobs}\n"));
            let lines = &views[seat];
            for (i, line) in lines.iter().enumerate() {
                transcript.push_str(line);
                transcript.push('\n');
                if line.starts_with("> ") {
                    continue;
                }
                let Some(command) = bot.feed(line).unwrap() else {
                    continue;
                };
                let d = decide(&mut bot, command);
                let answer = format_answer(d.answer);
                assert_eq!(lines[i + 1], format!("> {answer}"), "deal {deal}, line {i}");
                decisions += 1;
                if d.search.is_some() {
                    let legal = bot.tracker().legal(command);
                    let other = legal.into_iter().find(|&a| a != d.answer).unwrap();
                    searched.push((transcript.len(), answer.len(), format_answer(other)));
                }
            }
            assert_eq!(bot.clock_cuts(), 0, "deal {deal}: the clock cut a decision");
        }
    }
    assert!(searched.len() > 100, "only {} searched", searched.len());
    let dir = tempfile::tempdir().unwrap();
    let exe = build("c_tests/agree_durak.c", dir.path());
    let (ok, out) = agree_durak(&exe, &transcript);
    assert!(
        ok && out.contains(&format!("{decisions} decisions, 0 failed")),
        "{out}"
    );
    // One answer changed, midway: that one decision fails, the others still agree.
    let (at, len, other) = &searched[searched.len() / 2];
    let mut changed = transcript.clone();
    changed.replace_range(at + 2..at + 2 + len, other);
    let (ok, out) = agree_durak(&exe, &changed);
    assert!(
        !ok && out.contains(&format!("{decisions} decisions, 1 failed")),
        "{out}"
    );
    eprint!("{out}");
    eprintln!(
        "agree_durak: {decisions} decisions ({} searched) agree",
        searched.len()
    );
}
