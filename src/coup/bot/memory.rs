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
//! For the portfolio ([`crate::coup::bot::SearchConfig::portfolio`]) the
//! entry also keeps which arm each game not yet settled was played with
//! (the arm of a game is picked at its first call by the opponent's type,
//! [`Entry::choose_typed_arm`]). Once a game's finished history shows who
//! lost both cards its counts are re-read from it ([`GameResult::stats`]):
//! a bot's last call comes before the last card of a game it wins is
//! shown, and that card settles the loser's claims.
//!
//! Only the current format ([`HEADER`]) is read: a file of an older one is
//! read as an empty memory (and replaced at the next save), which
//! [`Memory::load`] reports.
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
use crate::coup::game::history::{History, Side};

/// The name of the entry that keeps my own answers to `opponent`, as it
/// saw them ([`Stats::mine_seen`]): the opponent's name and `#me` (an opponent
/// whose own name ends so would share it). Kept only while
/// [`crate::coup::SearchConfig::mind`] is on, which reads it as what an
/// adaptive opponent has learnt of me.
pub fn mine_key(opponent: &str) -> String {
    format!("{opponent}#me")
}

/// The memory file's name in the bot's working directory.
pub const FILE_NAME: &str = "coup-memory.txt";
/// First line of the file (format version). v16 dropped four counts that
/// only the deleted strong strategy read (v15); v15 held four fields a
/// line where v14 held eight.
pub const HEADER: &str = "coup-memory v16";
/// Strategies the portfolio chooses between
/// ([`crate::coup::bot::SearchConfig::arm`]).
pub const ARMS: usize = 2;
/// Games kept separately per opponent before they are summed.
pub const RECENT: usize = 4;
/// Opponents kept (the least recently seen are dropped).
pub const MAX_OPPONENTS: usize = 64;
/// Trials per counter kept in the old games' sum ([`Stats::capped`]): past
/// it the counter and its successes are halved, so the model follows an
/// opponent that learns (the styles' memory forgets 3% a game) over its last
/// 12-25 resolved trials of each kind (and the last [`RECENT`] games whole)
/// rather than the whole match. 25 against 50: 61.0% [60.3, 61.8] against
/// 60.0% of 15,000 games against the five Seer styles, and 60.8% against
/// 60.4% of 6,000 against five members held out (`docs/coup.md`, "The
/// memory's window"); 50 against 200 gained a point the session before.
pub const CAP: u32 = 25;
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
    /// Games whose arm is chosen and whose end has not been read yet
    /// (history file name, arm), oldest first, at most [`RECENT`].
    pub pending: Vec<(String, usize)>,
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

    /// The arm game `game` is played with
    /// ([`crate::coup::bot::SearchConfig::portfolio`]): the
    /// one chosen at its first call, else arm 1 once the opponent, in the
    /// games `past` counts ([`Stats::block_answers`], pooled over the
    /// kinds of block, this game excluded: [`Entry::excluding`]), has both
    /// challenged one of my blocks and let one stand, else arm 0. The two
    /// deterministic answers to blocks are the fixed-rule types
    /// ([`crate::coup::bot::opponent::mixture_rate`] weighs the same two):
    /// challenging every one, as the contest winner does, and challenging
    /// none, as a player does that challenges only a claim it can rule out;
    /// arm 0's long playouts predict such players. A mixed answer rules
    /// both out for good; so does a Steal
    /// or an Assassination of its that the history proved a bluff
    /// ([`Stats::attack_bluffs`]) while it has let stand every block of
    /// mine it answered, at least one: a player that attacks without the
    /// card and never challenges a block is neither type. Both conditions
    /// only grow into the mixed answer, so the arm never goes back to 0 (an
    /// opponent not yet seen answering a block could, and a policy that
    /// changes between games is what Seer exploits). Recorded as pending.
    pub fn choose_typed_arm(&mut self, game: &str, past: &Stats) -> usize {
        if let Some((_, arm)) = self.pending.iter().find(|(g, _)| g == game) {
            return *arm;
        }
        let arm = typed_arm(past);
        self.track(game, arm);
        arm
    }

    /// Records game `game` as pending with arm `arm` (once; the oldest
    /// pending game beyond [`RECENT`] is forgotten), so that its result is
    /// read when it has ended ([`Entry::settle`]).
    pub fn track(&mut self, game: &str, arm: usize) {
        if !pending_name(game) || arm >= ARMS || self.pending.iter().any(|(g, _)| g == game) {
            return;
        }
        self.pending.push((game.to_string(), arm));
        if self.pending.len() > RECENT {
            self.pending.remove(0);
        }
    }

    /// Replaces the counts of the pending game `game` by those of the whole
    /// game while they are still among the recent ones
    /// ([`GameResult::stats`]), and drops it from the pending list; `false`
    /// (nothing changed) when it is not pending.
    pub fn settle(&mut self, game: &str, result: &GameResult) -> bool {
        let Some(i) = self.pending.iter().position(|(g, _)| g == game) else {
            return false;
        };
        self.pending.remove(i);
        if let Some(e) = self.recent.iter_mut().find(|(g, _)| g == game) {
            // The finished history does not say whether the known rule
            // explained it (that needs my hands): keep the calls' verdict.
            let replica = e.1.replica;
            e.1 = result.stats;
            e.1.replica = replica;
        }
        true
    }
}

/// The arm the opponent's type calls for in the counts `past`
/// ([`Entry::choose_typed_arm`], which keeps a game's first choice): 1 once
/// it has both challenged a block of mine and let one stand, or has let
/// stand every block it answered (one at least) and was proved bluffing a
/// Steal or an Assassination; else 0.
pub fn typed_arm(past: &Stats) -> usize {
    let [blocks, challenged] = past.block_answers();
    let mixed = challenged > 0 && challenged < blocks;
    let attacker = blocks > 0 && challenged == 0 && past.attack_bluffs()[1] > 0;
    usize::from(mixed || attacker)
}

/// A finished game read from one player's side ([`game_result`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GameResult {
    /// Whether that player won.
    pub won: bool,
    /// The other player's counts over the whole game
    /// ([`Stats::from_history`]): the cards shown after that player's last
    /// call included, which its last call could not see (the loser's last
    /// card, given up to the winner's last move, settles its claims).
    pub stats: Stats,
}

/// The result of a finished history for its first player (`first`) or its
/// second: who won ([`History::loser`], with the double loss of
/// `docs/rules/coup.md` §2.2 rule 4) and the other player's counts. `None` while both
/// hold a card (a game still running, a draw, a forfeit) or when the text
/// is not a history. The first player writes the first line
/// (`docs/rules/coup.md` §5.1).
pub fn game_result(text: &str, first: bool) -> Option<GameResult> {
    let h = History::parse_as(text, first).ok()?;
    let won = h.loser()? == Side::Opponent;
    Some(GameResult {
        won,
        stats: Stats::from_history(&h),
    })
}

/// The whole memory: opponents by name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Memory {
    /// Opponents by name.
    pub opponents: BTreeMap<String, Entry>,
}

/// Whether `name` may name an opponent or a game: not empty, at most 200
/// bytes, no whitespace, `|` or path separator (a game is a file beside
/// the current history, never a path elsewhere).
fn clean(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 200
        && !name
            .chars()
            .any(|c| c.is_whitespace() || matches!(c, '|' | '/' | '\\'))
}

/// Whether `game` may stand in the pending list: [`clean`], and none of
/// the arms field's separators `=` and `;`.
fn pending_name(game: &str) -> bool {
    clean(game) && !game.contains(['=', ';'])
}

fn nums(s: &str) -> Option<Vec<u32>> {
    s.split(',').map(|x| x.parse().ok()).collect()
}

impl Memory {
    /// Parses the file's text; malformed lines (or a wrong header, an old
    /// format's among them: then everything) are ignored.
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

    /// `name stamp old|game=counts|game=counts... pending`, where
    /// `pending` is `game=arm;game=arm...` ([`Entry::pending`]; `-` when
    /// there is none).
    fn parse_line(line: &str) -> Option<(String, Entry)> {
        let mut f = line.split(' ');
        let name = f.next()?.to_string();
        let stamp = f.next()?.parse().ok()?;
        let rest = f.next()?;
        let pending = Self::parse_pending(f.next()?)?;
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
        Some((
            name,
            Entry {
                stamp,
                old,
                recent,
                pending,
            },
        ))
    }

    /// The pending field of a line (see [`Memory::parse_line`]).
    fn parse_pending(a: &str) -> Option<Vec<(String, usize)>> {
        let mut pending = Vec::new();
        if a == "-" {
            return Some(pending);
        }
        for p in a.split(';') {
            let (g, arm) = p.rsplit_once('=')?;
            let arm: usize = arm.parse().ok()?;
            if !pending_name(g) || arm >= ARMS {
                return None;
            }
            pending.push((g.to_string(), arm));
        }
        (pending.len() <= RECENT).then_some(pending)
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
            let pending: Vec<String> = e
                .pending
                .iter()
                .map(|(g, arm)| format!("{g}={arm}"))
                .collect();
            if pending.is_empty() {
                out.push_str(" -");
            } else {
                out.push_str(&format!(" {}", pending.join(";")));
            }
            out.push('\n');
        }
        out
    }

    /// Reads `dir/coup-memory.txt`; empty when missing, unreadable, larger
    /// than [`MAX_BYTES`] or malformed ([`Memory::read`] says why).
    pub fn load(dir: &Path) -> Memory {
        Memory::read(dir).0
    }

    /// [`Memory::load`] with the reason (for stderr) when a file was there
    /// and was read as empty: too large, unreadable, or of another format
    /// than [`HEADER`] (an older one's: empty memory until the next save
    /// replaces it).
    pub fn read(dir: &Path) -> (Memory, Option<String>) {
        let path = dir.join(FILE_NAME);
        match std::fs::metadata(&path) {
            Ok(md) if md.len() <= MAX_BYTES => {}
            Ok(md) => {
                let why = format!(
                    "{FILE_NAME} is {} bytes, over {MAX_BYTES}: read as empty",
                    md.len()
                );
                return (Memory::default(), Some(why));
            }
            Err(_) => return (Memory::default(), None),
        }
        match std::fs::read(&path) {
            Ok(bytes) => {
                let text = String::from_utf8_lossy(&bytes);
                let head = text.lines().next().unwrap_or("");
                let why = (head != HEADER).then(|| {
                    format!(
                        "{FILE_NAME} starts {head:?}, not {HEADER:?} (an older format?): read as empty"
                    )
                });
                (Memory::parse(&text), why)
            }
            Err(e) => (
                Memory::default(),
                Some(format!("cannot read {FILE_NAME}: {e}")),
            ),
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

    /// Settles the pending game `game` against `opponent` from `text`, its
    /// finished history ([`game_result`], read from my side: I, named
    /// `me`, went first when the game's name starts `me_opponent_`;
    /// [`Entry::settle`]). `false` (nothing changed) when the game is not
    /// pending or `text` is not a finished game.
    pub fn settle(&mut self, me: &str, opponent: &str, game: &str, text: &str) -> bool {
        let Some(e) = self.opponents.get_mut(opponent) else {
            return false;
        };
        if !e.pending.iter().any(|(g, _)| g == game) {
            return false;
        }
        let first = game.starts_with(&format!("{me}_{opponent}_"));
        game_result(text, first).is_some_and(|r| e.settle(game, &r))
    }

    /// Settles every game pending against `opponent` but this one, `game`, from its
    /// finished history in `folder`, read by `read` (`None`: left pending), as a
    /// program does before it decides ([`Memory::settle`], I named `me`). Whether
    /// anything changed.
    pub fn settle_pending(
        &mut self,
        (me, opponent, game): (&str, &str, &str),
        folder: &Path,
        read: impl Fn(&Path) -> Option<String>,
    ) -> bool {
        let pending: Vec<String> = self.opponents.get(opponent).map_or(Vec::new(), |e| {
            e.pending.iter().map(|(g, _)| g.clone()).collect()
        });
        let mut settled = false;
        for g in pending.iter().filter(|g| *g != game) {
            if let Some(text) = read(&folder.join(g)) {
                settled |= self.settle(me, opponent, g, &text);
            }
        }
        settled
    }

    /// The counts of the entry `name` without the game `game`
    /// ([`Entry::excluding`]); `None` when there is no such entry.
    pub fn past(&self, name: &str, game: &str) -> Option<Stats> {
        self.opponents.get(name).map(|e| e.excluding(game))
    }

    /// Whether the entry `name` already holds `stats` as the game `game`'s
    /// counts (recording them again would change nothing but the stamp).
    pub fn holds(&self, name: &str, game: &str, stats: &Stats) -> bool {
        self.opponents
            .get(name)
            .and_then(|e| e.recent.iter().find(|(g, _)| g == game))
            .is_some_and(|(_, s)| s == stats)
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
