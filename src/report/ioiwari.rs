//! `ioiwari-referee`'s game log (`--games-out`, one JSON [`GameRecord`]
//! a line, with its `index` among the starts played, the players' commands
//! `p1` and `p2`, and `shard` (`"K/N"`) when the run was split): read back,
//! merged from shards, and turned into a report with replay pages rebuilt by
//! the engine from each game's start and moves.

use std::path::Path;

use serde::{Deserialize, Serialize};

use super::model::{
    ms_text, Chip, Fact, FaultRow, GameRow, HeadToHead, Replay, Report, SeatView, Series, Standing,
    Step, TimingRow,
};
use super::{check_shards, ReplayPick};
use crate::ioiwari::referee::{GameRecord, Outcome, Summary};
use crate::ioiwari::solver::Solver;
use crate::ioiwari::{Board, Game};

/// One line of the game log: the game's index among the starts of the
/// (unsplit) run, the run's players and shard, and its record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Entry {
    /// Index of the start in the unsplit run (0-based).
    pub index: usize,
    /// `"K/N"` when the game was played by one shard of a split run
    /// (`--shard K/N`); absent for an unsplit run and in logs written before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Player 1's command (empty in logs written before it was recorded).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub p1: String,
    /// Player 2's command (empty in logs written before it was recorded).
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub p2: String,
    /// The game.
    #[serde(flatten)]
    pub record: GameRecord,
}

/// A run: the players' commands (when known) and every game.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Player 1's command.
    #[serde(default)]
    pub p1: String,
    /// Player 2's command.
    #[serde(default)]
    pub p2: String,
    /// Whether the run was interrupted.
    #[serde(default)]
    pub partial: bool,
    /// `"K/N"` for one shard of a split run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
    /// Every game, by index.
    pub games: Vec<Entry>,
}

impl Run {
    /// Reads a game log (`--games-out`, JSON lines) or a joined run
    /// (`merge --json`, one document with `games`). The log's players and
    /// shard are its lines' (which must agree).
    ///
    /// # Errors
    /// A one-line message naming the file (and line): unreadable, not a log,
    /// lines of different runs, or no game at all.
    pub fn read(path: &Path) -> Result<Run, String> {
        let text = super::read_text(path)?;
        let run = match serde_json::from_str::<Run>(&text) {
            Ok(run) => run,
            Err(_) => Self::read_lines(path, &text)?,
        };
        if run.games.is_empty() {
            return Err(format!(
                "{}: no game in the file (not an ioiwari-referee log?)",
                path.display()
            ));
        }
        Ok(run)
    }

    fn read_lines(path: &Path, text: &str) -> Result<Run, String> {
        let mut games: Vec<Entry> = Vec::new();
        for (n, line) in text.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let at = || format!("{}:{}", path.display(), n + 1);
            let mut e: Entry = serde_json::from_str(line)
                .map_err(|e| format!("{}: not an ioiwari-referee game line: {e}", at()))?;
            if !line.contains("\"index\"") {
                e.index = games.len();
            }
            if let Some(first) = games.first() {
                if (&e.shard, &e.p1, &e.p2) != (&first.shard, &first.p1, &first.p2) {
                    return Err(format!(
                        "{}: the line is from another run than line 1 (shard or players differ)",
                        at()
                    ));
                }
            }
            games.push(e);
        }
        let first = games.first();
        Ok(Run {
            p1: first.map(|e| e.p1.clone()).unwrap_or_default(),
            p2: first.map(|e| e.p2.clone()).unwrap_or_default(),
            partial: false,
            shard: first.and_then(|e| e.shard.clone()),
            games,
        })
    }

    /// The games' records, in order.
    pub fn records(&self) -> Vec<GameRecord> {
        self.games.iter().map(|e| e.record.clone()).collect()
    }
}

/// Joins the logs of the shards of one run into the log of the unsplit run:
/// every game once, by index, with the first input's players.
///
/// # Errors
/// A one-line message: no input, shards missing or given twice, or a game
/// index in two inputs.
pub fn merge(runs: Vec<Run>) -> Result<Run, String> {
    let first = runs.first().ok_or("nothing to merge")?.clone();
    check_shards(&runs.iter().map(|r| r.shard.clone()).collect::<Vec<_>>())?;
    let mut games: Vec<Entry> = Vec::new();
    let mut partial = false;
    for r in runs {
        partial |= r.partial;
        games.extend(r.games.into_iter().map(|e| Entry {
            shard: None,
            p1: if e.p1.is_empty() { r.p1.clone() } else { e.p1 },
            p2: if e.p2.is_empty() { r.p2.clone() } else { e.p2 },
            ..e
        }));
    }
    games.sort_by_key(|e| e.index);
    if let Some(w) = games.windows(2).find(|w| w[0].index == w[1].index) {
        return Err(format!("game {} is in two inputs", w[0].index));
    }
    Ok(Run {
        p1: first.p1,
        p2: first.p2,
        partial,
        shard: None,
        games,
    })
}

fn name(run: &Run, p: usize) -> String {
    let cmd = if p == 1 { &run.p1 } else { &run.p2 };
    match cmd.split_whitespace().next() {
        Some(prog) => format!(
            "player {p} ({})",
            Path::new(prog)
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default()
        ),
        None => format!("player {p}"),
    }
}

/// The report, the learning-curve series and the replay pages of a run:
/// replays for the games `pick` wants (a forfeit counts as a fault).
pub fn build(run: &Run, pick: ReplayPick) -> (Report, Vec<Series>, Vec<Replay>) {
    let names = [name(run, 1), name(run, 2)];
    let records = run.records();
    let s = Summary::of(&records);
    let mut series: Vec<Series> = names
        .iter()
        .map(|n| Series {
            name: n.clone(),
            wins: Vec::new(),
        })
        .collect();
    let mut faults = Vec::new();
    let mut rows = Vec::new();
    let mut replays = Vec::new();
    let mut solver = Solver::new();
    for e in &run.games {
        let r = &e.record;
        let res = r.result_for_p1();
        series[0].wins.push(res > 0);
        series[1].wins.push(res < 0);
        let start = r.start.map(|x| x.to_string()).join(" ");
        let label = format!("start {start}");
        let faulted = matches!(r.outcome, Outcome::Forfeit { .. });
        let result = match &r.outcome {
            Outcome::Finished { margin } => format!(
                "{} (banks {}-{}; margin {margin:+}, game value {:+})",
                match margin.signum() {
                    1 => "player 1 wins",
                    -1 => "player 2 wins",
                    _ => "draw",
                },
                r.banks[0],
                r.banks[1],
                r.value
            ),
            Outcome::Forfeit { player, reason } => {
                faults.push(FaultRow {
                    index: e.index,
                    game: label.clone(),
                    who: names[usize::from(*player == 2)].clone(),
                    reason: reason.clone(),
                    href: None,
                });
                format!("player {player} forfeits: {reason}")
            }
        };
        rows.push(GameRow {
            index: e.index,
            label,
            players: "player 1 vs player 2".into(),
            result,
            faulted,
            length: format!("{} moves", r.moves.len()),
            href: None,
        });
        if pick.wants(e.index, faulted) {
            replays.push(replay(run, e, &names, &mut solver));
        }
    }
    let standings = vec![
        Standing::new(
            &names[0],
            s.p1_wins as u64,
            s.draws as u64,
            s.p1_losses as u64,
            s.forfeits[0] as u64,
        ),
        Standing::new(
            &names[1],
            s.p1_losses as u64,
            s.draws as u64,
            s.p1_wins as u64,
            s.forfeits[1] as u64,
        ),
    ];
    let n = s.games as u64;
    let timing = [
        (
            format!("{} first move (start-up + solve)", names[0]),
            s.p1_first,
        ),
        (format!("{} later moves", names[0]), s.p1_move),
        (format!("{} start line (start-up)", names[1]), s.p2_first),
        (format!("{} moves", names[1]), s.p2_move),
    ]
    .into_iter()
    .map(|(name, t)| TimingRow {
        name,
        calls: t.count as u64,
        mean_ms: t.mean_us / 1000.0,
        max_ms: t.max_us as f64 / 1000.0,
        note: String::new(),
    })
    .collect();
    let mut facts = vec![
        Fact::new("player 1", if run.p1.is_empty() { "?" } else { &run.p1 }),
        Fact::new("player 2", if run.p2.is_empty() { "?" } else { &run.p2 }),
        Fact::new("games", s.games),
    ];
    if let Some(shard) = &run.shard {
        facts.push(Fact::new("shard", shard));
    }
    let report = Report {
        title: "Ioiwari games".into(),
        facts,
        partial: run.partial,
        standings,
        head_to_head: HeadToHead {
            names: names.to_vec(),
            wins: vec![vec![0, s.p1_wins as u64], vec![s.p1_losses as u64, 0]],
            games: vec![vec![0, n], vec![n, 0]],
        },
        faults,
        timing,
        games: rows,
        notes: vec![format!(
            "Player 1's margin equals the start's game value (optimal play) in {} finished games, below it in {}, above in {}; moves below the best value: player 1 {}, player 2 {}.",
            s.margin_equals_value, s.margin_below_value, s.margin_above_value, s.suboptimal_moves[0], s.suboptimal_moves[1]
        )],
    };
    (report, series, replays)
}

/// The board's seven pits as chips (`pit N: stones`), the pit `moved` (0-based) marked.
pub fn pits(board: Board, moved: Option<usize>) -> Vec<Chip> {
    board
        .pits()
        .iter()
        .enumerate()
        .map(|(i, &k)| Chip {
            text: format!("{}: {k}", i + 1),
            class: if k == 0 {
                "pit empty"
            } else if moved == Some(i) {
                "pit open"
            } else {
                "pit"
            }
            .into(),
            title: format!("pit {} holds {k} stone(s)", i + 1),
        })
        .collect()
}

fn replay(run: &Run, e: &Entry, names: &[String; 2], solver: &mut Solver) -> Replay {
    let r = &e.record;
    let mut steps = Vec::new();
    let start = Board::new(r.start).ok();
    let mut game = start.map(Game::new);
    let (mut t1, mut t2) = (0usize, 0usize);
    for (k, &m) in r.moves.iter().enumerate() {
        let Some(g) = game.as_mut() else { break };
        let seat = g.to_move().index();
        let board = g.board();
        let banks = g.banks();
        let values = solver.move_values(board);
        let best = values.iter().flatten().max().copied();
        let pit = usize::from(m).saturating_sub(1);
        let mine = values.get(pit).copied().flatten();
        let time = if seat == 0 {
            let t = if t1 == 0 {
                r.p1_first_us
            } else {
                r.p1_move_us.get(t1 - 1).copied()
            };
            t1 += 1;
            t
        } else {
            let t = r.p2_move_us.get(t2).copied();
            t2 += 1;
            t
        };
        let sow = g.play(pit).ok();
        let seats = (0..2)
            .map(|s| SeatView {
                name: names[s].clone(),
                cards: Vec::new(),
                info: format!("bank {}", banks[s]),
                acting: s == seat,
            })
            .collect();
        steps.push(Step {
            n: k + 1,
            actor: names[seat].clone(),
            asked: "a pit".into(),
            action: format!("empties pit {m}"),
            raw: m.to_string(),
            time: time
                .map(|us| ms_text(us as f64 / 1000.0))
                .unwrap_or_default(),
            seats,
            table: pits(board, Some(pit)),
            table_label: "pits 1..7 (ringed: the one emptied)".into(),
            note: match (sow, mine, best) {
                (Some(s), Some(v), Some(b)) => format!(
                    "+{} to its bank, +{} to the other's; move value {v:+} (best {b:+}){}",
                    s.mover_gain,
                    s.opponent_gain,
                    if v < b { ": below the best" } else { "" }
                ),
                _ => String::new(),
            },
            fault: false,
        });
    }
    if let Outcome::Forfeit { player, reason } = &r.outcome {
        let board = game.as_ref().map(|g| g.board());
        let banks = game.as_ref().map(|g| g.banks()).unwrap_or([0, 0]);
        let seat = usize::from(*player == 2);
        steps.push(Step {
            n: steps.len() + 1,
            actor: names[seat].clone(),
            asked: "a pit".into(),
            action: format!("forfeit: {reason}"),
            raw: String::new(),
            time: String::new(),
            seats: (0..2)
                .map(|s| SeatView {
                    name: names[s].clone(),
                    cards: Vec::new(),
                    info: format!("bank {}", banks[s]),
                    acting: s == seat,
                })
                .collect(),
            table: board.map(|b| pits(b, None)).unwrap_or_default(),
            table_label: "pits 1..7 (ringed: the one emptied)".into(),
            note: String::new(),
            fault: true,
        });
    }
    let start_text = r.start.map(|x| x.to_string()).join(" ");
    Replay {
        index: e.index,
        title: format!("Ioiwari: start {start_text}"),
        facts: vec![
            Fact::new("game value for player 1", format!("{:+}", r.value)),
            Fact::new("player 1", if run.p1.is_empty() { "?" } else { &run.p1 }),
            Fact::new("player 2", if run.p2.is_empty() { "?" } else { &run.p2 }),
            Fact::new("moves", r.moves.len()),
        ],
        result: match &r.outcome {
            Outcome::Finished { margin } => format!("Finished: banks {}-{}, player 1's margin {margin:+}", r.banks[0], r.banks[1]),
            Outcome::Forfeit { player, reason } => format!("Player {player} forfeits: {reason}"),
        },
        steps,
        legend: vec![
            "The board before each move: seven pits on a ring (docs/rules/ioiwari.md §1-2); the move's value is the final bank difference for the mover under optimal play afterwards.".into(),
        ],
    }
}

/// Writes the report and replay pages of a run to `path` ([`super::write_site`]).
///
/// # Errors
/// A one-line message.
pub fn write_html(run: &Run, pick: ReplayPick, path: &Path) -> Result<(), String> {
    let (report, series, replays) = build(run, pick);
    super::write_site(&report, &series, &replays, path)
}
