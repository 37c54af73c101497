//! Per-opponent memory across games: a small text file in the bot's working
//! directory (the arbiter runs each bot in its own folder and keeps it across
//! games, `docs/rules/coup.md` §4).
//!
//! The arbiter names the history file `<first>_<second>_<round>_<game>.txt`
//! and runs a bot in `<botdir>/<its name>`, so [`opponent_name`] finds the
//! opponent from the file name and the working folder's name. For each
//! opponent the file keeps the counts ([`Stats`]) of its last
//! [`RECENT`] games, each under its game's file name, and the sum of older
//! ones. Every call replaces the entry of its own game by this game's counts,
//! so two games played at once never count each other twice, and the model
//! uses everything except its own game (which it reads from the history).
//!
//! Safety: the file is written to a temporary file and renamed over the old
//! one (atomic on POSIX), holds at most [`MAX_OPPONENTS`] opponents with
//! counts capped at [`CAP`] trials each, and is ignored when missing,
//! unreadable, too large or malformed (a malformed line is dropped alone).
//! Concurrent writers may lose one another's latest update, never corrupt
//! the file.

use std::collections::BTreeMap;
use std::path::Path;

use super::opponent::Stats;

/// The memory file's name in the bot's working directory.
pub const FILE_NAME: &str = "coup-memory.txt";
/// First line of the file (format version).
pub const HEADER: &str = "coup-memory v8";
/// Games kept separately per opponent before they are summed.
pub const RECENT: usize = 4;
/// Opponents kept (the least recently seen are dropped).
pub const MAX_OPPONENTS: usize = 64;
/// Trials per counter kept in the old games' sum ([`Stats::capped`]).
pub const CAP: u32 = 200;
/// Files larger than this are ignored (and replaced).
pub const MAX_BYTES: u64 = 1 << 20;

/// What is remembered of one opponent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Entry {
    /// Write counter of the last update (for dropping the least recent).
    pub stamp: u64,
    /// Older games, summed and capped.
    pub old: Stats,
    /// The last games, by history file name, oldest first.
    pub recent: Vec<(String, Stats)>,
}

impl Entry {
    /// Everything known of this opponent except the game `game`.
    pub fn excluding(&self, game: &str) -> Stats {
        let mut s = self.old;
        for (g, st) in &self.recent {
            if g != game {
                s.add(st);
            }
        }
        s
    }

    /// Records this game's counts under its name; the oldest recent game
    /// beyond [`RECENT`] goes into the capped sum.
    pub fn update(&mut self, game: &str, stats: Stats, stamp: u64) {
        self.stamp = stamp;
        if let Some(e) = self.recent.iter_mut().find(|(g, _)| g == game) {
            e.1 = stats;
            return;
        }
        self.recent.push((game.to_string(), stats));
        while self.recent.len() > RECENT {
            let (_, st) = self.recent.remove(0);
            self.old.add(&st);
            self.old = self.old.capped(CAP);
        }
    }
}

/// The whole memory: opponents by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// Opponents by name.
    pub opponents: BTreeMap<String, Entry>,
}

fn clean(name: &str) -> bool {
    !name.is_empty() && name.len() <= 200 && !name.chars().any(|c| c.is_whitespace() || c == '|')
}

fn nums(s: &str) -> Option<Vec<u32>> {
    s.split(',').map(|x| x.parse().ok()).collect()
}

impl Memory {
    /// Parses the file's text; malformed lines (or a wrong header: then
    /// everything) are ignored.
    pub fn parse(text: &str) -> Memory {
        let mut m = Memory::default();
        let mut lines = text.lines();
        if lines.next() != Some(HEADER) {
            return m;
        }
        for line in lines {
            if let Some((name, e)) = Self::parse_line(line) {
                m.opponents.insert(name, e);
            }
        }
        m
    }

    /// `name stamp old|game=counts|game=counts...`
    fn parse_line(line: &str) -> Option<(String, Entry)> {
        let mut f = line.split(' ');
        let name = f.next()?.to_string();
        let stamp = f.next()?.parse().ok()?;
        let rest = f.next()?;
        if f.next().is_some() || !clean(&name) {
            return None;
        }
        let mut parts = rest.split('|');
        let old = Stats::from_slice(&nums(parts.next()?)?)?;
        let mut recent = Vec::new();
        for p in parts {
            let (g, counts) = p.split_once('=')?;
            if !clean(g) || g.contains('=') {
                return None;
            }
            recent.push((g.to_string(), Stats::from_slice(&nums(counts)?)?));
        }
        if recent.len() > RECENT {
            return None;
        }
        Some((name, Entry { stamp, old, recent }))
    }

    /// The file's text.
    pub fn format(&self) -> String {
        let join = |s: &Stats| {
            s.to_vec()
                .iter()
                .map(|x| x.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        let mut out = format!("{HEADER}\n");
        for (name, e) in &self.opponents {
            out.push_str(&format!("{name} {} {}", e.stamp, join(&e.old)));
            for (g, s) in &e.recent {
                out.push_str(&format!("|{g}={}", join(s)));
            }
            out.push('\n');
        }
        out
    }

    /// Reads `dir/coup-memory.txt`; empty when missing, unreadable, larger
    /// than [`MAX_BYTES`] or malformed.
    pub fn load(dir: &Path) -> Memory {
        let path = dir.join(FILE_NAME);
        match std::fs::metadata(&path) {
            Ok(md) if md.len() <= MAX_BYTES => {}
            _ => return Memory::default(),
        }
        match std::fs::read(&path) {
            Ok(bytes) => Memory::parse(&String::from_utf8_lossy(&bytes)),
            Err(_) => Memory::default(),
        }
    }

    /// Records `stats` of game `game` against `opponent` and keeps at most
    /// [`MAX_OPPONENTS`] opponents.
    pub fn record(&mut self, opponent: &str, game: &str, stats: Stats) {
        if !clean(opponent) || !clean(game) || game.contains('=') {
            return;
        }
        let stamp = self.opponents.values().map(|e| e.stamp).max().unwrap_or(0) + 1;
        self.opponents
            .entry(opponent.to_string())
            .or_default()
            .update(game, stats, stamp);
        while self.opponents.len() > MAX_OPPONENTS {
            let oldest = self
                .opponents
                .iter()
                .min_by_key(|(_, e)| e.stamp)
                .map(|(n, _)| n.clone());
            match oldest {
                Some(n) => self.opponents.remove(&n),
                None => break,
            };
        }
    }

    /// Writes the file atomically: a temporary file named after this
    /// process and save, then a rename over `dir/coup-memory.txt`.
    ///
    /// # Errors
    /// The I/O error of the write or the rename (the old file is then intact).
    pub fn save(&self, dir: &Path) -> std::io::Result<()> {
        static SAVES: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
        let n = SAVES.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let tmp = dir.join(format!(".{FILE_NAME}.{}.{n}.tmp", std::process::id()));
        std::fs::write(&tmp, self.format())?;
        std::fs::rename(&tmp, dir.join(FILE_NAME)).inspect_err(|_| {
            let _ = std::fs::remove_file(&tmp);
        })
    }
}

/// The opponent's name and the game's name from the history file's path and
/// my own name (my working folder's name): the file is
/// `<first>_<second>_<round>_<game>.txt` and I am one of the two. `None`
/// when the name does not have that shape or does not contain mine.
pub fn opponent_name(history_path: &str, my_name: &str) -> Option<(String, String)> {
    let file = Path::new(history_path).file_name()?.to_str()?;
    let stem = file.strip_suffix(".txt")?;
    let mut it = stem.rsplitn(3, '_');
    let game = it.next()?;
    let round = it.next()?;
    let pair = it.next()?;
    if game.parse::<u32>().is_err() || round.parse::<u32>().is_err() || my_name.is_empty() {
        return None;
    }
    let opp = if let Some(o) = pair.strip_prefix(&format!("{my_name}_")) {
        o
    } else {
        pair.strip_suffix(&format!("_{my_name}"))?
    };
    (clean(opp) && clean(file)).then(|| (opp.to_string(), file.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_from_the_file_name() {
        assert_eq!(
            opponent_name("/g/Ours_Calc_u_3_1.txt", "Ours"),
            Some(("Calc_u".into(), "Ours_Calc_u_3_1.txt".into()))
        );
        assert_eq!(
            opponent_name("/g/Calc_Ours_0_12.txt", "Ours"),
            Some(("Calc".into(), "Calc_Ours_0_12.txt".into()))
        );
        assert_eq!(opponent_name("/g/history.txt", "Ours"), None);
        assert_eq!(opponent_name("/g/A_B_0_1.txt", "Ours"), None);
    }
}
