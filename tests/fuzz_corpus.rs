//! Replays the fuzz targets' saved corpus and every crash input kept as a
//! regression (`fuzz/corpus/<target>/`, `fuzz/artifacts/<target>/`) through the
//! same checks the libFuzzer binaries run (`fuzz/src/lib.rs`), on stable.

#[path = "../fuzz/src/lib.rs"]
#[allow(dead_code)]
mod checks;

use std::path::Path;

/// Runs `check` on every file of the target's corpus and artifacts; returns how many.
fn replay(target: &str, check: fn(&[u8])) -> usize {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut n = 0;
    for dir in ["corpus", "artifacts"] {
        let Ok(entries) = std::fs::read_dir(root.join(dir).join(target)) else {
            continue;
        };
        let mut files: Vec<_> = entries.filter_map(|e| e.ok().map(|e| e.path())).collect();
        files.sort();
        for f in files {
            let data = std::fs::read(&f).unwrap();
            let result = std::panic::catch_unwind(|| check(&data));
            assert!(result.is_ok(), "{target}: {} fails", f.display());
            n += 1;
        }
    }
    n
}

#[test]
fn homework_input_corpus() {
    assert!(
        replay("homework_input", checks::homework_input) > 0,
        "no corpus"
    );
}

#[test]
fn coup_decision_corpus() {
    assert!(
        replay("coup_decision", checks::coup_decision) > 0,
        "no corpus"
    );
}

#[test]
fn durak_lines_corpus() {
    assert!(replay("durak_lines", checks::durak_lines) > 0, "no corpus");
}

#[test]
fn ioiwari_protocol_corpus() {
    assert!(
        replay("ioiwari_protocol", checks::ioiwari_protocol) > 0,
        "no corpus"
    );
}

#[test]
fn c_abi_text_corpus() {
    assert!(replay("c_abi_text", checks::c_abi_text) > 0, "no corpus");
}
