//! Tournament reports a person looks at: static HTML pages (no server, no
//! network) built from the JSON the servers write, and the sharding of a
//! tournament over several machines.
//!
//! - [`model`]: what a report and a replay page show, game-independent.
//! - [`render`]: the pages (minijinja templates in `templates/tournament/`)
//!   and the charts (plotters, SVG backend), written as a report file plus a
//!   folder of replay pages beside it.
//! - [`coup`], [`durak`], [`ioiwari`]: each server's JSON, read back, merged
//!   from shards, and turned into the model.
//!
//! A report is written to `FILE` (e.g. `run.html`); the replay pages go to
//! `FILE`'s stem plus `-games/` beside it (`run-games/game-00012.html`),
//! linked from the report's list of games and back.

use std::fmt;

pub mod coup;
pub mod durak;
pub mod ioiwari;
pub mod model;
pub mod render;

pub use render::write_site;

/// One part of a split run: `--shard K/N` plays the games whose index `i`
/// (0-based, in the unsplit schedule) has `i % N == K - 1`. Each game's seed
/// depends on its index alone, so the shards together play exactly the games
/// of the unsplit run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    /// K, 1-based.
    pub index: usize,
    /// N, at least 1.
    pub count: usize,
}

impl Shard {
    /// The whole run (`1/1`).
    pub const ALL: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with `1 <= K <= N`.
    ///
    /// # Errors
    /// A one-line message naming the text.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("expected a shard K/N with 1 <= K <= N, got {text:?}");
        let (k, n) = text.trim().split_once('/').ok_or_else(bad)?;
        let index: usize = k.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if index == 0 || count == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// Whether game `i` (0-based index in the unsplit schedule) is this shard's.
    pub fn holds(self, i: usize) -> bool {
        i % self.count == self.index - 1
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// Checks that shard labels (`"K/N"`, one per input) are every shard of one
/// split exactly once; a missing label (an unsplit run) counts as `1/1`.
///
/// # Errors
/// A one-line message: mixed N, a shard given twice, or the missing ones.
pub fn check_shards(labels: &[Option<String>]) -> Result<(), String> {
    let shards = labels
        .iter()
        .map(|l| l.as_deref().map_or(Ok(Shard::ALL), Shard::parse))
        .collect::<Result<Vec<_>, _>>()?;
    let n = shards.first().map_or(1, |s| s.count);
    if let Some(s) = shards.iter().find(|s| s.count != n) {
        return Err(format!(
            "shard {s} is from a split into {} parts, the first input's is into {n}",
            s.count
        ));
    }
    let mut seen = vec![false; n];
    for s in &shards {
        if std::mem::replace(&mut seen[s.index - 1], true) {
            return Err(format!("shard {s} is given twice"));
        }
    }
    let missing: Vec<String> = (1..=n)
        .filter(|k| !seen[k - 1])
        .map(|k| format!("{k}/{n}"))
        .collect();
    if !missing.is_empty() {
        return Err(format!("missing shard(s) {}", missing.join(", ")));
    }
    Ok(())
}

/// Which games get a replay page: the first `first` games of the schedule
/// (by index) and every game with a fault.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayPick {
    /// Games with index below this get a page.
    pub first: usize,
}

impl ReplayPick {
    /// Whether game `index` gets a replay page.
    pub fn wants(self, index: usize, faulted: bool) -> bool {
        index < self.first || faulted
    }
}

/// Reads a whole file as text, with a one-line error naming it.
///
/// # Errors
/// The file cannot be read.
pub fn read_text(path: &std::path::Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_games() {
        let n = 3;
        let shards: Vec<Shard> = (1..=n)
            .map(|k| Shard::parse(&format!("{k}/{n}")).unwrap())
            .collect();
        for i in 0..20 {
            assert_eq!(shards.iter().filter(|s| s.holds(i)).count(), 1, "game {i}");
        }
        assert!(Shard::parse("0/3").is_err());
        assert!(Shard::parse("4/3").is_err());
        assert!(Shard::parse("x").is_err());
        assert_eq!(Shard::parse(" 2/5 ").unwrap().to_string(), "2/5");
    }

    #[test]
    fn shard_sets_are_checked() {
        let l = |v: &[&str]| v.iter().map(|s| Some(s.to_string())).collect::<Vec<_>>();
        assert!(check_shards(&l(&["1/3", "3/3", "2/3"])).is_ok());
        assert!(check_shards(&[None]).is_ok());
        assert_eq!(
            check_shards(&l(&["1/3", "3/3"])).unwrap_err(),
            "missing shard(s) 2/3"
        );
        assert!(check_shards(&l(&["1/3", "1/3", "2/3"]))
            .unwrap_err()
            .contains("twice"));
        assert!(check_shards(&l(&["1/3", "2/2"])).is_err());
    }
}
