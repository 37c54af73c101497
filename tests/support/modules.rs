//! The import graph of a game's modules, read from its sources, for the
//! `*_modules` tests (`tests/durak_modules.rs`, `tests/coup_modules.rs`).
//!
//! A module depends on another when a `use` declaration or a path in its code
//! (`crate::...`, `super::...`, or a child module's name) names it. Comments and
//! `#[cfg(test)]` modules are left out; a re-export (`pub use`) counts like any
//! import, so a path through the re-exports of a game's root (`crate::durak::Game`)
//! depends on the root, which depends on every part: inside a game, import from
//! the defining module.

#![allow(dead_code)]

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// A module path below the crate root, e.g. `["durak", "bot", "deep"]`.
pub type Module = Vec<String>;

/// Every module of the tree below `dir` (named `prefix`), with its source text.
fn modules(dir: &Path, prefix: &[String], found: &mut BTreeMap<Module, String>) {
    for entry in std::fs::read_dir(dir).expect("read a source folder") {
        let path = entry.expect("entry").path();
        let name = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
        let mut module = prefix.to_vec();
        if path.is_dir() {
            module.push(name.to_string());
            modules(&path, &module, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            if name != "mod" {
                module.push(name.to_string());
            }
            found.insert(module, std::fs::read_to_string(&path).expect("read source"));
        }
    }
}

/// The code of a source file without comments and without its `#[cfg(test)]` part.
pub fn code(text: &str) -> String {
    let text = text.split("#[cfg(test)]").next().unwrap_or("");
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths a `use` tree names: `a::{b, c::{d, e}}` gives `a::b`, `a::c::d`, `a::c::e`.
fn expand(prefix: &str, tree: &str) -> Vec<String> {
    let Some(open) = tree.find('{') else {
        let path = tree.split(" as ").next().unwrap_or("").trim();
        return vec![format!("{prefix}{path}")];
    };
    let prefix = format!("{prefix}{}", &tree[..open]);
    let inner = &tree[open + 1..tree.rfind('}').unwrap_or(tree.len())];
    let (mut parts, mut depth, mut start) = (Vec::new(), 0, 0);
    for (i, ch) in inner.char_indices() {
        match ch {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                parts.push(&inner[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    parts.push(&inner[start..]);
    parts
        .into_iter()
        .filter(|p| !p.trim().is_empty())
        .flat_map(|p| expand(&prefix, p.trim()))
        .collect()
}

/// Every path that `text` (the code of `module`) names: use trees, and the paths in the code
/// that start with `crate::`, `super::` or one of `children`.
pub fn paths(text: &str, children: &[String]) -> Vec<String> {
    // A visibility (`pub(in crate::coup)`) names a scope, not a dependency.
    let mut kept = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("pub(in ") {
        kept.push_str(&rest[..i + 3]);
        rest = &rest[i + 3..];
        rest = &rest[rest.find(')').unwrap_or(rest.len())..];
    }
    kept.push_str(rest);
    let text = kept.as_str();
    let mut found = Vec::new();
    let mut rest = text;
    while let Some(i) = rest.find("use ") {
        let before = rest[..i].chars().last();
        rest = &rest[i + 4..];
        if before.is_some_and(|c| c.is_alphanumeric() || c == '_') {
            continue;
        }
        let end = rest.find(';').unwrap_or(rest.len());
        let tree: String = rest[..end].split_whitespace().collect::<Vec<_>>().join(" ");
        found.extend(expand("", &tree.replace(":: ", "::").replace(" ::", "::")));
        rest = &rest[end..];
    }
    let bytes = text.as_bytes();
    let word = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    for start in 0..bytes.len() {
        if !text.is_char_boundary(start)
            || (start > 0 && (word(bytes[start - 1]) || bytes[start - 1] == b':'))
        {
            continue;
        }
        let path_end = text[start..]
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .map_or(text.len(), |n| start + n);
        let path = &text[start..path_end];
        let head = path.split("::").next().unwrap_or("");
        if path.contains("::")
            && (head == "crate" || head == "super" || children.iter().any(|c| c == head))
        {
            found.push(path.trim_end_matches(':').to_string());
        }
    }
    found
}

/// The module `path` names when written in `module`, if it is one of `all` (the longest
/// module prefix of the path).
pub fn resolve(module: &Module, path: &str, all: &BTreeSet<Module>) -> Option<Module> {
    let mut parts: Vec<&str> = path.split("::").collect();
    let mut base: Module = match parts.first() {
        Some(&"crate") => {
            parts.remove(0);
            Vec::new()
        }
        _ => module.clone(),
    };
    while let Some(&head) = parts.first() {
        match head {
            "super" => {
                base.pop();
            }
            "self" => {}
            _ => break,
        }
        parts.remove(0);
    }
    let full: Module = base
        .into_iter()
        .chain(parts.iter().map(|s| s.to_string()))
        .collect();
    (1..=full.len())
        .rev()
        .map(|n| full[..n].to_vec())
        .find(|m| all.contains(m))
}

/// The dependency graph of the modules of `src/<game>/` (`game` is also the root
/// module's name): each module with the modules it names.
pub fn graph(game: &str) -> BTreeMap<Module, BTreeSet<Module>> {
    let mut sources = BTreeMap::new();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src").join(game);
    modules(&root, &[game.to_string()], &mut sources);
    let all: BTreeSet<Module> = sources.keys().cloned().collect();
    let mut edges = BTreeMap::new();
    for (module, text) in &sources {
        let children: Vec<String> = all
            .iter()
            .filter(|m| m.len() == module.len() + 1 && m.starts_with(module))
            .map(|m| m[module.len()].clone())
            .collect();
        let targets: BTreeSet<Module> = paths(&code(text), &children)
            .iter()
            .filter_map(|p| resolve(module, p, &all))
            .filter(|t| t != module)
            .collect();
        edges.insert(module.clone(), targets);
    }
    edges
}

/// A cycle of `edges` (its modules in order), if there is one.
pub fn find_cycle(edges: &BTreeMap<Module, BTreeSet<Module>>) -> Option<Vec<Module>> {
    fn visit(
        m: &Module,
        edges: &BTreeMap<Module, BTreeSet<Module>>,
        done: &mut BTreeSet<Module>,
        stack: &mut Vec<Module>,
    ) -> Option<Vec<Module>> {
        if let Some(i) = stack.iter().position(|s| s == m) {
            return Some(stack[i..].to_vec());
        }
        if done.contains(m) {
            return None;
        }
        stack.push(m.clone());
        for next in edges.get(m).into_iter().flatten() {
            if let Some(cycle) = visit(next, edges, done, stack) {
                return Some(cycle);
            }
        }
        stack.pop();
        done.insert(m.clone());
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|m| visit(m, edges, &mut done, &mut Vec::new()))
}

pub fn names(cycle: &[Module]) -> String {
    cycle
        .iter()
        .map(|m| m.join("::"))
        .collect::<Vec<_>>()
        .join(" -> ")
}
