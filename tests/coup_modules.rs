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

#[path = "support/modules.rs"]
mod modules;

use std::collections::{BTreeMap, BTreeSet};

use modules::{find_cycle, graph, names, Module};

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
