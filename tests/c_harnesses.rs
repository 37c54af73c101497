//! Compiles and runs the C harnesses of `c_tests/` against the static library
//! this `cargo test` built (with the `cc` crate's compiler), so the README's
//! test command covers the C ABI: the header alone under `-std=c99 -pedantic
//! -Werror`, every `c_tests/test_*.c`, and the C coursework program
//! `c_tests/homework.c` on the checker tests.

use std::path::{Path, PathBuf};
use std::process::Command;

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
    let original = root().join("../shared/hw-tests/tests");
    if original.is_dir() {
        assert_eq!(c_homework_passes(&original), 22);
    } else {
        eprintln!("skipped: {} not found", original.display());
    }
}
