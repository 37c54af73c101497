//! No import cycle among Durak's modules (issue 27): the engine, the legality table and the
//! wire format take their types from the leaf `durak::types`, and the deep search's trees
//! their settings and evaluation from the leaves `deep::config` and `deep::eval`.
//!
//! The graph is read from the sources under `src/durak/`: a module depends on another when a
//! `use` declaration or a path in its code (`crate::durak::...`, `super::...`, or a child
//! module's name) names it. Comments and `#[cfg(test)]` modules are left out; a re-export
//! (`pub use`) counts like any import, so a path through the re-exports of `durak`'s root
//! (`crate::durak::Game`) depends on the root, which depends on every part: inside Durak,
//! import from the defining module.

#[path = "support/modules.rs"]
mod modules;

use std::collections::{BTreeMap, BTreeSet};

use modules::{code, find_cycle, graph, names, paths, resolve, Module};

#[test]
fn durak_modules_import_each_other_without_cycles() {
    let edges = graph("durak");
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    // The reader sees the imports it must see (so an empty graph cannot pass).
    for (from, to) in [
        ("durak::rules", "durak::types"),
        ("durak::protocol", "durak::types"),
        ("durak::legal", "durak::types"),
        ("durak::rules", "durak::legal"),
        ("durak::bot::deep", "durak::bot::deep::tree"),
        ("durak::bot::deep::tree", "durak::bot::deep::eval"),
        ("durak::bot::tracker", "durak::protocol"),
    ] {
        assert!(edges[&m(from)].contains(&m(to)), "{from} -> {to} not seen");
    }
    assert!(
        edges[&m("durak::types")]
            .iter()
            .all(|t| t == &m("durak::cards") || t == &m("durak::seat")),
        "durak::types is no leaf: {:?}",
        edges[&m("durak::types")]
    );
    if let Some(cycle) = find_cycle(&edges) {
        panic!("import cycle: {} -> {}", names(&cycle), cycle[0].join("::"));
    }
}

#[test]
fn the_reader_finds_a_cycle_when_there_is_one() {
    let m = |s: &str| s.split("::").map(str::to_string).collect::<Module>();
    let all: BTreeSet<Module> = [
        "durak",
        "durak::rules",
        "durak::types",
        "durak::bot",
        "durak::bot::deep",
    ]
    .iter()
    .map(|s| m(s))
    .collect();
    let text = code("use super::types::{Answer, Command};\n// use super::bot;\nfn f() { crate::durak::bot::deep::x(); }\n");
    let found: BTreeSet<Module> = paths(&text, &[])
        .iter()
        .filter_map(|p| resolve(&m("durak::rules"), p, &all))
        .collect();
    assert_eq!(
        found,
        [m("durak::types"), m("durak::bot::deep")]
            .into_iter()
            .collect()
    );
    let mut edges = BTreeMap::new();
    edges.insert(m("durak::rules"), found);
    edges.insert(m("durak::types"), BTreeSet::new());
    edges.insert(
        m("durak::bot::deep"),
        [m("durak::rules")].into_iter().collect(),
    );
    let cycle = find_cycle(&edges).expect("rules -> deep -> rules");
    assert_eq!(cycle.len(), 2, "{}", names(&cycle));
}
