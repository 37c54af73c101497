//! Coup's modules are laid out like Durak's, without import cycles (issue 23):
//! `coup::game` (the characters, the protocol, the engine, the rules and the
//! history reader) names nothing of the strategies or the server;
//! `coup::sparring` names only `coup::game`; `coup::bot` names `coup::game`
//! and `coup::sparring` (its `decide` dispatches to the sparring strategies,
//! and gives up a card by their card values), never the server.
//!
//! The graph is read from the sources under `src/coup/` by
//! `tests/support/modules.rs` (comments and `#[cfg(test)]` parts left out; a
//! path through the re-exports of `coup`'s root depends on the root, which
//! depends on every part: inside Coup, import from the defining module).
//!
//! Outside the protocol (`coup::game::protocol`, with the card codes of
//! `coup::game::character`) everything reads the history as typed events: no
//! source of the engine, the history reader, the rules, the bot, the server
//! or the sparring strategies writes a protocol code as a literal (the
//! Calculator replica, a port of a program written on the codes, keeps them).

#[path = "support/modules.rs"]
mod modules;

use std::collections::{BTreeMap, BTreeSet};

use modules::{code, find_cycle, graph, names, Module};

fn m(s: &str) -> Module {
    s.split("::").map(str::to_string).collect()
}

/// The modules of `edges` below `part` (`part` included) that name a module
/// outside `allowed`, with those names.
fn outside(
    edges: &BTreeMap<Module, BTreeSet<Module>>,
    part: &str,
    allowed: &[&str],
) -> Vec<String> {
    let allowed: Vec<Module> = allowed.iter().map(|a| m(a)).collect();
    edges
        .iter()
        .filter(|(from, _)| from.starts_with(&m(part)))
        .flat_map(|(from, to)| {
            to.iter()
                .filter(|t| !allowed.iter().any(|a| t.starts_with(a)))
                .map(move |t| format!("{} -> {}", from.join("::"), t.join("::")))
        })
        .collect()
}

#[test]
fn coup_modules_import_each_other_without_cycles() {
    let edges = graph("coup");
    // The reader sees the imports it must see (so an empty graph cannot pass).
    for (from, to) in [
        ("coup::game::rules", "coup::game::engine"),
        ("coup::game::engine", "coup::game::protocol"),
        ("coup::game::protocol", "coup::game::character"),
        ("coup::bot::memory", "coup::bot::opponent"),
        ("coup::bot::determinized", "coup::game::engine"),
        ("coup::sparring::simple", "coup::game::protocol"),
        ("coup::server::arbiter", "coup::bot"),
    ] {
        assert!(edges[&m(from)].contains(&m(to)), "{from} -> {to} not seen");
    }
    for (part, allowed) in [
        ("coup::game", &["coup::game"][..]),
        ("coup::sparring", &["coup::game", "coup::sparring"][..]),
        (
            "coup::bot",
            &["coup::game", "coup::sparring", "coup::bot"][..],
        ),
    ] {
        let bad = outside(&edges, part, allowed);
        assert!(bad.is_empty(), "{part} names outside {allowed:?}: {bad:?}");
    }
    if let Some(cycle) = find_cycle(&edges) {
        panic!("import cycle: {} -> {}", names(&cycle), cycle[0].join("::"));
    }
}

#[test]
fn the_layout_check_sees_a_strategy_named_by_the_game() {
    let mut edges = BTreeMap::new();
    edges.insert(
        m("coup::game::engine"),
        [m("coup::game::protocol"), m("coup::bot::model")]
            .into_iter()
            .collect(),
    );
    edges.insert(m("coup::game::protocol"), BTreeSet::new());
    assert_eq!(
        outside(&edges, "coup::game", &["coup::game"]),
        ["coup::game::engine -> coup::bot::model"]
    );
}

#[test]
fn a_visibility_scope_is_no_dependency() {
    let found = modules::paths(
        "pub(in crate::coup) fn f() { crate::coup::game::engine::x(); }",
        &[],
    );
    assert_eq!(found, ["crate::coup::game::engine::x"]);
}

/// The history file's one-character codes (`docs/rules/coup.md` §5: the
/// actions, pass and challenge, the blocks, the revealed and the given-up
/// cards) written as a literal in `code`, a char (`'q'`) or a one-character
/// string (`"q"`). The given-up Ambassador `_` and Contessa `=` and the
/// newline are left out: the memory file's format uses them as separators.
fn protocol_literals(code: &str) -> Vec<String> {
    const CODES: &str = "IFCETSApqacds~^*!$<0";
    let c: Vec<char> = code.chars().collect();
    let mut found = Vec::new();
    for (i, w) in c.windows(3).enumerate() {
        let quoted = (w[0] == '\'' && w[2] == '\'') || (w[0] == '"' && w[2] == '"');
        // `'a` of a lifetime or a label is no literal: the quote must close.
        if quoted && CODES.contains(w[1]) && c.get(i.wrapping_sub(1)) != Some(&'\\') {
            found.push(w.iter().collect());
        }
    }
    for lit in ["'\\''", "\"'\""] {
        found.extend(code.matches(lit).map(str::to_string));
    }
    found
}

#[test]
fn only_the_protocol_writes_the_history_codes() {
    let src = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src/coup");
    let mut seen = 0;
    for dir in ["bot", "sparring", "server", "game"] {
        for entry in std::fs::read_dir(src.join(dir)).expect("the sources") {
            let path = entry.expect("entry").path();
            // The protocol and the card codes are where the codes are
            // written; the replica ports a program written on them.
            if ["protocol.rs", "character.rs", "replica.rs"]
                .iter()
                .any(|f| path.ends_with(f))
            {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("a source");
            let found = protocol_literals(&code(&text));
            assert!(found.is_empty(), "{}: {found:?}", path.display());
            seen += 1;
        }
    }
    assert!(seen >= 15, "only {seen} sources under {}", src.display());
}

#[test]
fn the_literal_check_sees_protocol_codes() {
    let code = "if last == 'q' || a == \"T\" || k == '\\'' { f::<'a>(x, '=', '\\n') }";
    assert_eq!(protocol_literals(code), ["'q'", "\"T\"", "'\\''"]);
}
