//! `coup-arbiter`'s JSON (`--json`): read back, merged from shards, and
//! turned into a report with replay pages of the traced games.
//!
//! The JSON's keys: `partial`, `games_scheduled`, `report` (the text
//! report's standings, matrix and forfeits), `games` (every
//! [`GameRecord`], with `turns` for the games traced for replays), and
//! since the reports `bots` (names and commands, in index order) and
//! `shard` (`"K/N"`, absent for an unsplit run).

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use super::model::{
    ms_text, Chip, Fact, FaultRow, GameRow, HeadToHead, Replay, Report, SeatView, Series, Standing,
    Step, TimingRow,
};
use super::{check_shards, Shard};
use crate::coup::arbiter::{self, Bot, BotKind, GameRecord, Settings};
use crate::coup::{Action, Block, Character, Reply};

/// A competitor as the JSON names it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct BotEntry {
    /// Its unique name.
    pub name: String,
    /// Its command as given (`builtin:search`, a program and arguments).
    pub command: String,
}

/// A whole `coup-arbiter --json` file.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Run {
    /// Whether the run was interrupted.
    #[serde(default)]
    pub partial: bool,
    /// Games this run was to play (its shard's share when split).
    pub games_scheduled: usize,
    /// The summary.
    pub report: arbiter::Report,
    /// Every finished game, in schedule order.
    pub games: Vec<GameRecord>,
    /// The bots in index order (absent in files written before the
    /// reports: then read from the matrix's order).
    #[serde(default)]
    pub bots: Vec<BotEntry>,
    /// `"K/N"` for one shard of a split run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

impl Run {
    /// Assembles a run's JSON document from what `coup-arbiter` played.
    pub fn new(
        bots: &[Bot],
        commands: &[String],
        games: Vec<GameRecord>,
        settings: &Settings,
        games_scheduled: usize,
        partial: bool,
        shard: Shard,
    ) -> Run {
        Run {
            partial,
            games_scheduled,
            report: arbiter::summarize(bots, &games, settings),
            games,
            bots: bots
                .iter()
                .zip(commands)
                .map(|(b, c)| BotEntry {
                    name: b.name.clone(),
                    // `NAME=COMMAND`: the command part.
                    command: c
                        .strip_prefix(&format!("{}=", b.name))
                        .unwrap_or(c)
                        .to_string(),
                })
                .collect(),
            shard: (shard != Shard::ALL).then(|| shard.to_string()),
        }
    }

    /// Reads a `--json` file.
    ///
    /// # Errors
    /// A one-line message: unreadable, not the arbiter's JSON.
    pub fn read(path: &Path) -> Result<Run, String> {
        let text = super::read_text(path)?;
        let mut run: Run = serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a coup-arbiter --json file: {e}", path.display()))?;
        if run.bots.is_empty() {
            // Older files: the matrix lists every ordered pair, rows in index order.
            for p in &run.report.matrix {
                if !run.bots.iter().any(|b| b.name == p.bot) {
                    run.bots.push(BotEntry {
                        name: p.bot.clone(),
                        command: String::new(),
                    });
                }
            }
        }
        Ok(run)
    }

    /// The index of a game in the unsplit schedule ([`arbiter::schedule`]).
    pub fn index(&self, g: &GameRecord) -> usize {
        let n = self.bots.len();
        g.round * n * n.saturating_sub(1) + g.game
    }

    fn settings(&self) -> Settings {
        Settings {
            rounds: self.report.rounds,
            seed: self.report.seed,
            quirks: self.report.original_quirks,
            work_dir: PathBuf::new(),
            show_stderr: false,
            timeout: arbiter::DEFAULT_TIMEOUT,
            keep_bot_dirs: false,
        }
    }

    /// The bots, named as in the run (commands are not parsed again).
    pub fn bot_list(&self) -> Vec<Bot> {
        self.bots
            .iter()
            .map(|b| Bot {
                name: b.name.clone(),
                kind: BotKind::Process(vec![b.command.clone()]),
            })
            .collect()
    }
}

/// Joins the shards of one split run into the run an unsplit one gives:
/// every game once, in schedule order, summarised again.
///
/// # Errors
/// A one-line message: no input, runs of different tournaments (bots,
/// seed, rounds), shards missing or given twice, a game in two shards.
pub fn merge(runs: Vec<Run>) -> Result<Run, String> {
    let first = runs.first().ok_or("nothing to merge")?.clone();
    for r in &runs[1..] {
        if r.bots
            .iter()
            .map(|b| &b.name)
            .ne(first.bots.iter().map(|b| &b.name))
            || r.report.seed != first.report.seed
            || r.report.rounds != first.report.rounds
            || r.report.original_quirks != first.report.original_quirks
        {
            return Err(
                "the inputs are not shards of one tournament (bots, seed or rounds differ)".into(),
            );
        }
    }
    check_shards(&runs.iter().map(|r| r.shard.clone()).collect::<Vec<_>>())?;
    let mut games: Vec<GameRecord> = Vec::new();
    let mut partial = false;
    let mut scheduled = 0;
    for r in runs {
        partial |= r.partial;
        scheduled += r.games_scheduled;
        games.extend(r.games);
    }
    games.sort_by_key(|g| first.index(g));
    if let Some(w) = games
        .windows(2)
        .find(|w| first.index(&w[0]) == first.index(&w[1]))
    {
        return Err(format!(
            "round {} game {} is in two inputs",
            w[0].round, w[0].game
        ));
    }
    let bots = first.bot_list();
    Ok(Run {
        partial,
        games_scheduled: scheduled,
        report: arbiter::summarize(&bots, &games, &first.settings()),
        games,
        bots: first.bots,
        shard: None,
    })
}

/// The character's name and the replay's CSS class.
fn character(c: Character) -> (String, String) {
    let name = format!("{c:?}");
    let class = name.to_lowercase();
    (name, class)
}

/// Cards in revealed codes (`~^*!$`, others skipped) as the pages draw them: one chip per
/// card, named and classed by its character, plus `class_extra`.
pub fn chips(codes: &str, class_extra: &str) -> Vec<Chip> {
    codes
        .chars()
        .filter_map(Character::from_revealed)
        .map(|c| {
            let (name, class) = character(c);
            Chip {
                text: name.clone(),
                class: format!("{class} {class_extra}").trim().to_string(),
                title: format!("{name} (code {})", c.revealed()),
            }
        })
        .collect()
}

/// An answer's text as the page shows it: a line end as `⏎`.
fn visible(text: &str) -> String {
    text.replace('\n', "⏎")
}

/// An answer in words (`docs/rules/coup.md` §3-4).
pub fn describe(answer: &str) -> String {
    let Some(reply) = Reply::parse(answer) else {
        return if answer.is_empty() {
            "no legal answer (forfeit)".into()
        } else {
            format!("unknown answer {}", visible(answer))
        };
    };
    let name = |c: Character| format!("{c:?}");
    match reply {
        Reply::Act(a) => match a {
            Action::Income => "Income: +1 coin, ends the turn".into(),
            Action::ForeignAid => "Foreign Aid: +2 coins".into(),
            Action::Coup => "Coup: pays 7, the opponent loses a card".into(),
            Action::Exchange => "Exchange (claims Ambassador)".into(),
            Action::Assassinate => "Assassinate (claims Assassin, pays 3)".into(),
            Action::Steal => "Steal (claims Captain)".into(),
            Action::Tax => "Tax (claims Duke): +3 coins".into(),
        },
        Reply::Pass => "pass: lets it stand".into(),
        Reply::Challenge => "challenge the claim".into(),
        Reply::Block(b) => format!(
            "block, claiming {}",
            match b {
                Block::Duke => "Duke",
                Block::Contessa => "Contessa",
                Block::Captain => "Captain",
                Block::Ambassador => "Ambassador",
            }
        ),
        Reply::Reveal(c) => format!("reveal {} (proves the claim)", name(c)),
        Reply::GiveUp(c) => format!("give up {}", name(c)),
        Reply::GiveUpEnd(c) => format!("give up {}, end of turn", name(c)),
        Reply::EndTurn => "end the turn".into(),
    }
}

/// The report, the learning-curve series and the replay pages of a run.
pub fn build(run: &Run) -> (Report, Vec<Series>, Vec<Replay>) {
    let names: Vec<String> = run.bots.iter().map(|b| b.name.clone()).collect();
    let n = names.len();
    let name = |i: usize| names.get(i).cloned().unwrap_or_else(|| format!("bot {i}"));
    let standings = run
        .report
        .standings
        .iter()
        .map(|s| {
            Standing::new(
                &s.name,
                s.wins.into(),
                s.draws.into(),
                s.losses.into(),
                s.forfeits.into(),
            )
        })
        .collect();
    let mut wins = vec![vec![0u64; n]; n];
    let mut games = vec![vec![0u64; n]; n];
    for p in &run.report.matrix {
        if let (Some(i), Some(j)) = (
            names.iter().position(|x| *x == p.bot),
            names.iter().position(|x| *x == p.opponent),
        ) {
            wins[i][j] = p.wins.into();
            games[i][j] = p.games.into();
        }
    }
    let mut series: Vec<Series> = names
        .iter()
        .map(|x| Series {
            name: x.clone(),
            wins: Vec::new(),
        })
        .collect();
    let mut faults = Vec::new();
    let mut rows = Vec::new();
    for g in &run.games {
        let index = run.index(g);
        for b in [g.first, g.second] {
            if let Some(s) = series.get_mut(b) {
                s.wins.push(g.winner == Some(b));
            }
        }
        let label = format!("round {} game {}", g.round, g.game);
        let result = match (&g.forfeit, g.winner) {
            (Some((b, why)), _) => {
                faults.push(FaultRow {
                    index,
                    game: label.clone(),
                    who: name(*b),
                    reason: why.clone(),
                    href: None,
                });
                format!(
                    "{} wins: {} forfeited ({why})",
                    name(g.winner.unwrap_or(usize::MAX)),
                    name(*b)
                )
            }
            (None, Some(w)) => format!("{} wins", name(w)),
            (None, None) => "draw (200 calls without a winner: both lose)".into(),
        };
        rows.push(GameRow {
            index,
            label,
            players: format!("{} vs {}", name(g.first), name(g.second)),
            result,
            faulted: g.forfeit.is_some(),
            length: format!("{} calls", g.calls),
            href: None,
        });
    }
    let timing = run
        .report
        .standings
        .iter()
        .map(|s| TimingRow {
            name: s.name.clone(),
            calls: s.calls,
            mean_ms: s.mean_call_us / 1000.0,
            max_ms: s.max_call_us / 1000.0,
            note: String::new(),
        })
        .collect();
    let played = run.games.len();
    let mut facts = vec![
        Fact::new("seed", run.report.seed),
        Fact::new("rounds", run.report.rounds),
        Fact::new("games", format!("{played} of {}", run.games_scheduled)),
        Fact::new("original quirks", run.report.original_quirks),
    ];
    if let Some(s) = &run.shard {
        facts.push(Fact::new("shard", s));
    }
    for b in &run.bots {
        if !b.command.is_empty() && b.command != b.name {
            facts.push(Fact::new(&b.name, &b.command));
        }
    }
    let report = Report {
        title: "Coup tournament".into(),
        facts,
        partial: run.partial,
        standings,
        head_to_head: HeadToHead {
            names: names.clone(),
            wins,
            games,
        },
        faults,
        timing,
        games: rows,
        notes: vec!["A win is one point; a draw (200 calls) loses for both; a forfeit loses the game. Ranked by wins.".into()],
    };
    let replays = run
        .games
        .iter()
        .filter(|g| !g.turns.is_empty())
        .map(|g| replay(run, g, &name))
        .collect();
    (report, series, replays)
}

fn replay(run: &Run, g: &GameRecord, name: &dyn Fn(usize) -> String) -> Replay {
    let seats = [g.first, g.second];
    let last = g.turns.len();
    let steps = g
        .turns
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let fault =
                k + 1 == last && g.forfeit.as_ref().is_some_and(|(b, _)| *b == seats[t.seat]);
            let views = (0..2)
                .map(|s| {
                    let offered = (s == t.seat).then_some(t.offered.as_deref()).flatten();
                    let cards = match offered {
                        // The two drawn cards come first on an Exchange call.
                        Some(o) => {
                            let mut c = chips(&o.chars().take(2).collect::<String>(), "offered");
                            c.extend(chips(&t.hands[s], ""));
                            c
                        }
                        None => chips(&t.hands[s], ""),
                    };
                    SeatView {
                        name: format!("seat {s}: {}", name(seats[s])),
                        cards,
                        info: format!(
                            "{} coin{}",
                            t.coins[s],
                            if t.coins[s] == 1 { "" } else { "s" }
                        ),
                        acting: s == t.seat,
                    }
                })
                .collect();
            let legal: Vec<String> = t.legal.iter().map(|l| visible(l)).collect();
            Step {
                n: k + 1,
                actor: name(seats[t.seat]),
                asked: format!("legal: {}", legal.join(" ")),
                action: if fault {
                    format!(
                        "forfeit: {}",
                        g.forfeit.as_ref().map(|f| f.1.as_str()).unwrap_or("")
                    )
                } else {
                    describe(&t.answer)
                },
                raw: visible(&t.answer),
                time: ms_text(t.ns as f64 / 1e6),
                seats: views,
                table: Vec::new(),
                table_label: String::new(),
                note: t
                    .kept
                    .as_ref()
                    .map(|k| {
                        let kept: Vec<String> = chips(k, "").into_iter().map(|c| c.text).collect();
                        format!("kept {}", kept.join(", "))
                    })
                    .unwrap_or_default(),
                fault,
            }
        })
        .collect();
    let result = match (&g.forfeit, g.winner) {
        (Some((b, why)), Some(w)) => format!("{} wins: {} forfeited ({why})", name(w), name(*b)),
        (_, Some(w)) => format!("{} wins", name(w)),
        _ => "Draw: 200 calls without a winner (both lose)".into(),
    };
    Replay {
        index: run.index(g),
        title: format!("Coup: round {} game {}, {} vs {}", g.round, g.game, name(g.first), name(g.second)),
        facts: vec![
            Fact::new("seed", g.seed),
            Fact::new("seat 0 (moves first)", name(g.first)),
            Fact::new("seat 1", name(g.second)),
            Fact::new("calls", g.calls),
        ],
        result,
        steps,
        legend: vec![
            "Cards are the characters each seat holds when asked; dashed cards are the two drawn by an Exchange.".into(),
            "Answer codes (docs/rules/coup.md §3): I⏎ Income, F Foreign Aid, C Coup, E Exchange, A Assassinate, S Steal, T Tax; p pass, q challenge; d s c a block (Duke, Contessa, Captain, Ambassador); ~ ^ * ! $ reveal, _ ' < = 0 give up (Ambassador, Assassin, Captain, Contessa, Duke); ⏎ ends the turn.".into(),
            format!("Final history: {}", visible(&g.history)),
        ],
    }
}

/// Writes the report and replay pages of a run to `path` ([`super::write_site`]).
///
/// # Errors
/// A one-line message.
pub fn write_html(run: &Run, path: &Path) -> Result<(), String> {
    let (report, series, replays) = build(run);
    super::write_site(&report, &series, &replays, path)
}
