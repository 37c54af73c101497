//! `durak-server`'s JSON (`--json`): written, read back, merged from shards,
//! and turned into a report with replay pages of the recorded games.
//!
//! The keys written before the reports stay as they were (`partial`,
//! `team_a`, `team_b`, `seed`, `deals`, `duplicate`, `games_played`,
//! `wins_a`, `wins_b`, `games` with `deal`, `seed`, `swapped`, `winner`,
//! `forfeit`, `rounds`); added: `games_scheduled`, `shard`, and per game
//! `answers`, `time_us`, `max_answer_us` (by absolute player 0..4),
//! `budget_ms`, `steps` for the games recorded for replays, `endgame`
//! (`--endgame-nodes`), and `notes` when a program did not end cleanly.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::model::{
    ms_text, Chip, Fact, FaultRow, GameRow, HeadToHead, Replay, Report, SeatView, Series, Standing,
    Step, TimingRow,
};
use super::{check_shards, Shard};
use crate::card::{Card, Notation};
use crate::durak::referee::{EndgameCheck, GameRecord, LossReason, Step as RefStep};
use crate::durak::tournament::TournamentGame;
use crate::durak::Event;

/// A forfeit as the JSON writes it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ForfeitJson {
    /// `"A"` or `"B"`: the team that lost by it.
    pub team: String,
    /// The [`LossReason`] (`Illegal`, `Malformed`, `Crash`, `Timeout`).
    pub reason: String,
    /// The referee's description (`player 2: ...`).
    pub detail: String,
}

/// One answer of a recorded game (see [`RefStep`]); cards in the protocol's
/// notation (`AS`), players absolute 0..4.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct StepJson {
    /// Who was asked.
    pub player: usize,
    /// `MOVE`, `BEAT` or `ADD`.
    pub command: String,
    /// The answer line (empty on a crash or timeout).
    pub answer: String,
    /// Microseconds it took.
    pub us: u64,
    /// Every player's hand before the answer.
    pub hands: [Vec<String>; 4],
    /// Cards on the table.
    pub table: Vec<String>,
    /// The attack still to beat.
    pub open: Option<String>,
    /// Cards left in the talon.
    pub talon: usize,
    /// Trump suit letter (`S`, `H`, `C`, `D`).
    pub trump: String,
    /// What followed, absolute numbering: `give P CARD`, `move BY UNDER
    /// CARD`, `add BY UNDER CARD`, `beat BY CARD`, `take P`, `out P`.
    pub events: Vec<String>,
}

/// The endgame diagnostic of a game as the JSON writes it (`--endgame-nodes`; see
/// [`EndgameCheck`]).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EndgameJson {
    /// `"A"` or `"B"`: the team that wins the settled decision with perfect play; `null` when
    /// no decision of the game was settled within the node cap.
    pub winner: Option<String>,
    /// Cards in the hands and on the table at the first empty-talon decision.
    pub first_cards: usize,
    /// Cards in play at the settled decision (0 when none was).
    pub cards: usize,
    /// Solver nodes spent on the game.
    pub nodes: u64,
}

/// One game as the JSON writes it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GameJson {
    /// Deal number.
    pub deal: u64,
    /// The deal's seed.
    pub seed: u64,
    /// Whether team A sat at players 1 and 3.
    pub swapped: bool,
    /// `"A"`, `"B"`, or `null` for a capped game.
    pub winner: Option<String>,
    /// The forfeit, if any.
    pub forfeit: Option<ForfeitJson>,
    /// Rounds started.
    pub rounds: u32,
    /// Answers of each player.
    #[serde(default)]
    pub answers: [u32; 4],
    /// Answer time of each player, microseconds.
    #[serde(default)]
    pub time_us: [u64; 4],
    /// Slowest answer of each player, microseconds.
    #[serde(default)]
    pub max_answer_us: [u64; 4],
    /// The time budget at the end of the game, milliseconds.
    #[serde(default)]
    pub budget_ms: u64,
    /// Every answer, for the games recorded for replays.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<Vec<StepJson>>,
    /// The endgame diagnostic, when the run asked for it and the game reached an empty talon.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub endgame: Option<EndgameJson>,
    /// How programs ended when they did not end cleanly ([`GameRecord::notes`]: `player 2:
    /// did not exit after the game; killed`); absent when there is none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub notes: Vec<String>,
}

/// A whole `durak-server --json` file.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Run {
    /// Whether the run was interrupted.
    #[serde(default)]
    pub partial: bool,
    /// Team A's command.
    pub team_a: String,
    /// Team B's command.
    pub team_b: String,
    /// Tournament seed.
    pub seed: u64,
    /// Deals of the whole (unsplit) run.
    pub deals: u64,
    /// Whether each deal is played twice.
    pub duplicate: bool,
    /// Games in `games`.
    pub games_played: usize,
    /// Games team A won.
    pub wins_a: usize,
    /// Games team B won.
    pub wins_b: usize,
    /// Every finished game, in schedule order.
    pub games: Vec<GameJson>,
    /// Games this run was to play (its shard's share when split).
    #[serde(default)]
    pub games_scheduled: usize,
    /// `"K/N"` for one shard of a split run.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shard: Option<String>,
}

/// The command line's letter (`"A"` = `--team-a`) of a game's physical team `team` (0:
/// seats 1 and 3, 1: seats 2 and 4); team A sits at parity `swapped`.
pub fn team_letter(team: usize, swapped: bool) -> &'static str {
    if (team == 1) == swapped {
        "A"
    } else {
        "B"
    }
}

fn team_of(letter: &str, swapped: bool) -> usize {
    usize::from((letter == "A") == swapped)
}

/// The team of the program a game's note is about (`player N: ...`, N the absolute seat
/// 1..=4, [`GameRecord::notes`](crate::durak::server::referee::GameRecord::notes)), as
/// `team A` or `team B`; `-` for a note that names no seat.
fn note_team(note: &str, swapped: bool) -> String {
    let seat = note
        .strip_prefix("player ")
        .and_then(|rest| rest.split(':').next())
        .and_then(|n| n.parse::<usize>().ok())
        .filter(|n| (1..=4).contains(n));
    match seat {
        Some(n) if (n - 1) % 2 == team_of("A", swapped) => "team A".into(),
        Some(_) => "team B".into(),
        None => "-".into(),
    }
}

fn card_text(c: Card) -> String {
    c.display(Notation::Durak).to_string()
}

fn event_text(e: &Event) -> String {
    match *e {
        Event::Give { player, card } => format!("give {player} {}", card_text(card)),
        Event::Move { by, under, card } => format!("move {by} {under} {}", card_text(card)),
        Event::Add { by, under, card } => format!("add {by} {under} {}", card_text(card)),
        Event::Beat { by, card } => format!("beat {by} {}", card_text(card)),
        Event::Take { player } => format!("take {player}"),
        Event::Out { player } => format!("out {player}"),
    }
}

fn step_json(s: &RefStep) -> StepJson {
    StepJson {
        player: s.player,
        command: s.command.to_string(),
        answer: s.answer.clone(),
        us: s.took.as_micros() as u64,
        hands: std::array::from_fn(|i| s.hands[i].iter().map(|&c| card_text(c)).collect()),
        table: s.table.iter().map(|&c| card_text(c)).collect(),
        open: s.open.map(card_text),
        talon: s.talon,
        trump: s.trump.code().to_ascii_uppercase().to_string(),
        events: s.events.iter().map(event_text).collect(),
    }
}

impl GameJson {
    /// A played game as the JSON writes it (steps when it was recorded).
    pub fn new(g: &TournamentGame) -> GameJson {
        let r = &g.record;
        GameJson {
            deal: g.deal,
            seed: g.seed,
            swapped: g.swapped,
            winner: r.winner.map(|w| team_letter(w, g.swapped).to_string()),
            forfeit: r.forfeit.as_ref().map(|(team, reason, why)| ForfeitJson {
                team: team_letter(*team, g.swapped).to_string(),
                reason: format!("{reason:?}"),
                detail: why.clone(),
            }),
            rounds: r.rounds,
            answers: r.answers,
            time_us: r.time_used.map(|d| d.as_micros() as u64),
            max_answer_us: r.max_answer.map(|d| d.as_micros() as u64),
            budget_ms: r.budget.as_millis() as u64,
            steps: r.steps.as_ref().map(|s| s.iter().map(step_json).collect()),
            endgame: r.endgame.map(|e| EndgameJson {
                winner: e
                    .team0_wins
                    .map(|w| team_letter(usize::from(!w), g.swapped).to_string()),
                first_cards: e.first_cards,
                cards: e.cards,
                nodes: e.nodes,
            }),
            notes: r.notes.clone(),
        }
    }

    /// The game back as a [`TournamentGame`] (no transcript, no steps), for
    /// the text summary.
    pub fn to_game(&self) -> TournamentGame {
        let reason = |r: &str| match r {
            "Illegal" => LossReason::Illegal,
            "Malformed" => LossReason::Malformed,
            "Timeout" => LossReason::Timeout,
            _ => LossReason::Crash,
        };
        TournamentGame {
            deal: self.deal,
            seed: self.seed,
            swapped: self.swapped,
            record: GameRecord {
                winner: self.winner.as_deref().map(|l| team_of(l, self.swapped)),
                forfeit: self.forfeit.as_ref().map(|f| {
                    (
                        team_of(&f.team, self.swapped),
                        reason(&f.reason),
                        f.detail.clone(),
                    )
                }),
                rounds: self.rounds,
                time_used: self.time_us.map(Duration::from_micros),
                answers: self.answers,
                max_answer: self.max_answer_us.map(Duration::from_micros),
                budget: Duration::from_millis(self.budget_ms),
                transcript: None,
                steps: None,
                endgame: self.endgame.as_ref().map(|e| EndgameCheck {
                    team0_wins: e.winner.as_deref().map(|l| team_of(l, self.swapped) == 0),
                    first_cards: e.first_cards,
                    cards: e.cards,
                    nodes: e.nodes,
                }),
                notes: self.notes.clone(),
            },
        }
    }
}

impl Run {
    /// Assembles a run's JSON document from what `durak-server` played.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        team_a: &str,
        team_b: &str,
        seed: u64,
        deals: u64,
        duplicate: bool,
        games: &[TournamentGame],
        games_scheduled: usize,
        partial: bool,
        shard: Shard,
    ) -> Run {
        let games: Vec<GameJson> = games.iter().map(GameJson::new).collect();
        Run::from_games(
            team_a,
            team_b,
            seed,
            deals,
            duplicate,
            games,
            games_scheduled,
            partial,
            shard.to_string(),
        )
    }

    #[allow(clippy::too_many_arguments)]
    fn from_games(
        team_a: &str,
        team_b: &str,
        seed: u64,
        deals: u64,
        duplicate: bool,
        games: Vec<GameJson>,
        games_scheduled: usize,
        partial: bool,
        shard: String,
    ) -> Run {
        let wins = |t: &str| {
            games
                .iter()
                .filter(|g| g.winner.as_deref() == Some(t))
                .count()
        };
        Run {
            partial,
            team_a: team_a.to_string(),
            team_b: team_b.to_string(),
            seed,
            deals,
            duplicate,
            games_played: games.len(),
            wins_a: wins("A"),
            wins_b: wins("B"),
            games_scheduled,
            shard: (shard != "1/1").then_some(shard),
            games,
        }
    }

    /// Reads a `--json` file.
    ///
    /// # Errors
    /// A one-line message: unreadable, not the server's JSON.
    pub fn read(path: &Path) -> Result<Run, String> {
        let text = super::read_text(path)?;
        serde_json::from_str(&text)
            .map_err(|e| format!("{}: not a durak-server --json file: {e}", path.display()))
    }

    /// The index of a game in the unsplit schedule: deal by deal, the
    /// swapped game right after its deal's first when duplicated.
    pub fn index(&self, g: &GameJson) -> usize {
        if self.duplicate {
            2 * g.deal as usize + usize::from(g.swapped)
        } else {
            g.deal as usize
        }
    }

    /// The games back as [`TournamentGame`]s, for the text summary.
    pub fn tournament_games(&self) -> Vec<TournamentGame> {
        self.games.iter().map(GameJson::to_game).collect()
    }
}

/// Joins the shards of one split run into the run an unsplit one gives.
///
/// # Errors
/// A one-line message: no input, runs of different tournaments, shards
/// missing or given twice, a game in two shards.
pub fn merge(runs: Vec<Run>) -> Result<Run, String> {
    let first = runs.first().ok_or("nothing to merge")?.clone();
    for r in &runs[1..] {
        if (&r.team_a, &r.team_b, r.seed, r.deals, r.duplicate)
            != (
                &first.team_a,
                &first.team_b,
                first.seed,
                first.deals,
                first.duplicate,
            )
        {
            return Err("the inputs are not shards of one tournament (teams, seed, deals or --duplicate differ)".into());
        }
    }
    check_shards(&runs.iter().map(|r| r.shard.clone()).collect::<Vec<_>>())?;
    let mut partial = false;
    let mut scheduled = 0;
    let mut games = Vec::new();
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
            "deal {} (swapped {}) is in two inputs",
            w[0].deal, w[0].swapped
        ));
    }
    Ok(Run::from_games(
        &first.team_a,
        &first.team_b,
        first.seed,
        first.deals,
        first.duplicate,
        games,
        scheduled,
        partial,
        "1/1".into(),
    ))
}

fn suit_symbol(c: char) -> (&'static str, bool) {
    match c {
        'S' => ("♠", false),
        'H' => ("♥", true),
        'C' => ("♣", false),
        _ => ("♦", true),
    }
}

/// A card (`AS`) as the page shows it: `A♠`, red for hearts and diamonds, classed `trump`
/// when its suit's letter starts `trump` (`"S"`, or `""` for none), plus `extra`.
pub fn chip(code: &str, trump: &str, extra: &str) -> Chip {
    let mut it = code.chars();
    let (r, s) = (it.next().unwrap_or('?'), it.next().unwrap_or('?'));
    let (sym, red) = suit_symbol(s);
    let rank = if r == 'T' {
        "10".to_string()
    } else {
        r.to_string()
    };
    let mut class = if red { "red" } else { "black" }.to_string();
    if trump.starts_with(s) {
        class.push_str(" trump");
    }
    if !extra.is_empty() {
        class.push(' ');
        class.push_str(extra);
    }
    Chip {
        text: format!("{rank}{sym}"),
        class,
        title: code.to_string(),
    }
}

fn pretty(code: &str) -> String {
    chip(code, "", "").text
}

/// A suit letter (`S`, `H`, `C`, `D`) in words with its symbol: `spades ♠`.
pub fn suit_name(s: &str) -> &'static str {
    match s {
        "S" => "spades ♠",
        "H" => "hearts ♥",
        "C" => "clubs ♣",
        _ => "diamonds ♦",
    }
}

fn answer_words(cmd: &str, answer: &str) -> String {
    match (cmd, answer) {
        (_, "") => "no answer".into(),
        ("BEAT", "NO") => "does not beat: takes the table".into(),
        ("ADD", "NO") => "adds nothing".into(),
        ("MOVE", c) => format!("leads {}", pretty(c)),
        ("BEAT", c) => format!("beats with {}", pretty(c)),
        ("ADD", c) => format!("throws in {}", pretty(c)),
        (_, c) => c.to_string(),
    }
}

/// The events in words, draws from the talon counted per player.
fn events_words(events: &[String]) -> String {
    let mut draws = [0usize; 4];
    let mut out = Vec::new();
    for e in events {
        let w: Vec<&str> = e.split(' ').collect();
        match w.as_slice() {
            ["give", p, _] => {
                if let Ok(p) = p.parse::<usize>() {
                    if p < 4 {
                        draws[p] += 1;
                    }
                }
            }
            ["take", p] => out.push(format!("P{p} takes the table")),
            ["out", p] => out.push(format!("P{p} is out")),
            _ => {}
        }
    }
    for (p, &d) in draws.iter().enumerate() {
        if d > 0 {
            out.push(format!("P{p} draws {d}"));
        }
    }
    out.join("; ")
}

/// The report, the learning-curve series and the replay pages of a run.
pub fn build(run: &Run) -> (Report, Vec<Series>, Vec<Replay>) {
    let names = ["team A".to_string(), "team B".to_string()];
    let mut series: Vec<Series> = names
        .iter()
        .map(|n| Series {
            name: n.clone(),
            wins: Vec::new(),
        })
        .collect();
    let mut faults = Vec::new();
    let mut rows = Vec::new();
    let mut forfeits = [0u64; 2];
    let mut answers = [0u64; 2];
    let mut time_us = [0u64; 2];
    let mut max_us = [0u64; 2];
    let mut share_sum = [0f64; 2];
    let mut share_max = [0f64; 2];
    for g in &run.games {
        let index = run.index(g);
        series[0].wins.push(g.winner.as_deref() == Some("A"));
        series[1].wins.push(g.winner.as_deref() == Some("B"));
        let label = format!(
            "deal {}{}",
            g.deal,
            if g.swapped { " (swapped)" } else { "" }
        );
        let seats_a = if g.swapped { "P1+P3" } else { "P0+P2" };
        let seats_b = if g.swapped { "P0+P2" } else { "P1+P3" };
        for (t, l) in ["A", "B"].iter().enumerate() {
            let parity = team_of(l, g.swapped);
            let mut share: f64 = 0.0;
            for p in [parity, parity + 2] {
                answers[t] += u64::from(g.answers[p]);
                time_us[t] += g.time_us[p];
                max_us[t] = max_us[t].max(g.max_answer_us[p]);
                if g.budget_ms > 0 {
                    share = share.max(g.time_us[p] as f64 / 1000.0 / g.budget_ms as f64);
                }
            }
            share_sum[t] += share;
            share_max[t] = share_max[t].max(share);
        }
        for note in &g.notes {
            faults.push(FaultRow {
                index,
                game: label.clone(),
                who: note_team(note, g.swapped),
                reason: format!("after the game: {note}"),
                href: None,
            });
        }
        let result = match (&g.forfeit, g.winner.as_deref()) {
            (Some(f), _) => {
                forfeits[usize::from(f.team == "B")] += 1;
                faults.push(FaultRow {
                    index,
                    game: label.clone(),
                    who: format!("team {}", f.team),
                    reason: format!("{}: {}", f.reason, f.detail),
                    href: None,
                });
                format!(
                    "team {} wins: team {} forfeited ({}: {})",
                    g.winner.as_deref().unwrap_or("?"),
                    f.team,
                    f.reason,
                    f.detail
                )
            }
            (None, Some(w)) => format!("team {w} wins"),
            (None, None) => "capped without a winner".into(),
        };
        rows.push(GameRow {
            index,
            label,
            players: format!("A {seats_a}, B {seats_b}"),
            result,
            faulted: g.forfeit.is_some(),
            length: format!("{} rounds", g.rounds),
            href: None,
        });
    }
    let n = run.games.len() as u64;
    let (wa, wb) = (run.wins_a as u64, run.wins_b as u64);
    let capped = n - wa - wb;
    let mut standings = vec![
        Standing::new("team A", wa, capped, wb, forfeits[0]),
        Standing::new("team B", wb, capped, wa, forfeits[1]),
    ];
    standings.sort_by_key(|s| std::cmp::Reverse(s.wins));
    let timing = (0..2)
        .map(|t| TimingRow {
            name: names[t].clone(),
            calls: answers[t],
            mean_ms: if answers[t] > 0 {
                time_us[t] as f64 / 1000.0 / answers[t] as f64
            } else {
                0.0
            },
            max_ms: max_us[t] as f64 / 1000.0,
            note: format!(
                "time budget used per game (worst copy): mean {:.2}%, max {:.2}%",
                if n > 0 {
                    100.0 * share_sum[t] / n as f64
                } else {
                    0.0
                },
                100.0 * share_max[t]
            ),
        })
        .collect();
    let mut facts = vec![
        Fact::new("team A", &run.team_a),
        Fact::new("team B", &run.team_b),
        Fact::new("seed", run.seed),
        Fact::new("deals", run.deals),
        Fact::new("duplicate", run.duplicate),
        Fact::new(
            "games",
            format!(
                "{} of {}",
                run.games.len(),
                run.games_scheduled.max(run.games.len())
            ),
        ),
    ];
    if let Some(s) = &run.shard {
        facts.push(Fact::new("shard", s));
    }
    let mut notes = Vec::new();
    if run.duplicate {
        let mut pairs = [0u64; 3];
        for w in run.games.windows(2) {
            if w[0].deal == w[1].deal && !w[0].swapped && w[1].swapped {
                if let (Some(x), Some(y)) = (w[0].winner.as_deref(), w[1].winner.as_deref()) {
                    pairs[match (x, y) {
                        ("A", "A") => 0,
                        ("B", "B") => 2,
                        _ => 1,
                    }] += 1;
                }
            }
        }
        notes.push(format!(
            "Duplicate pairs (the same deal with the teams' seats swapped): A won both {}, split {}, B won both {}.",
            pairs[0], pairs[1], pairs[2]
        ));
    }
    let report = Report {
        title: "Durak 2 vs 2 tournament".into(),
        facts,
        partial: run.partial,
        standings,
        head_to_head: HeadToHead {
            names: names.to_vec(),
            wins: vec![vec![0, wa], vec![wb, 0]],
            games: vec![vec![0, n], vec![n, 0]],
        },
        faults,
        timing,
        games: rows,
        notes,
    };
    let replays = run
        .games
        .iter()
        .filter_map(|g| g.steps.as_ref().map(|s| replay(run, g, s)))
        .collect();
    (report, series, replays)
}

fn replay(run: &Run, g: &GameJson, steps: &[StepJson]) -> Replay {
    let team = |p: usize| team_letter(p % 2, g.swapped);
    let last = steps.len();
    let trump = steps.first().map(|s| s.trump.clone()).unwrap_or_default();
    let list = steps
        .iter()
        .enumerate()
        .map(|(k, s)| {
            let fault = k + 1 == last && g.forfeit.is_some();
            let seats = (0..4)
                .map(|p| SeatView {
                    name: format!("P{p} (team {})", team(p)),
                    cards: s.hands[p].iter().map(|c| chip(c, &s.trump, "")).collect(),
                    info: format!(
                        "{} card{}",
                        s.hands[p].len(),
                        if s.hands[p].len() == 1 { "" } else { "s" }
                    ),
                    acting: p == s.player,
                })
                .collect();
            let mut table: Vec<Chip> = s
                .table
                .iter()
                .map(|c| {
                    chip(
                        c,
                        &s.trump,
                        if s.open.as_deref() == Some(c.as_str()) {
                            "open"
                        } else {
                            ""
                        },
                    )
                })
                .collect();
            table.push(Chip {
                text: format!("talon {}", s.talon),
                class: "empty".into(),
                title: "cards left in the talon".into(),
            });
            Step {
                n: k + 1,
                actor: format!("P{} (team {})", s.player, team(s.player)),
                asked: s.command.clone(),
                action: if fault {
                    format!(
                        "forfeit: {}",
                        g.forfeit
                            .as_ref()
                            .map(|f| format!("{}: {}", f.reason, f.detail))
                            .unwrap_or_default()
                    )
                } else {
                    answer_words(&s.command, &s.answer)
                },
                raw: s.answer.clone(),
                time: ms_text(s.us as f64 / 1000.0),
                seats,
                table,
                table_label: "table (open attack ringed)".into(),
                note: events_words(&s.events),
                fault,
            }
        })
        .collect();
    let result = match (&g.forfeit, g.winner.as_deref()) {
        (Some(f), _) => format!(
            "Team {} wins: team {} forfeited ({}: {})",
            g.winner.as_deref().unwrap_or("?"),
            f.team,
            f.reason,
            f.detail
        ),
        (None, Some(w)) => format!(
            "Team {w} wins ({})",
            if w == "A" { &run.team_a } else { &run.team_b }
        ),
        (None, None) => "Capped without a winner".into(),
    };
    Replay {
        index: run.index(g),
        title: format!("Durak: deal {}{}", g.deal, if g.swapped { " (swapped)" } else { "" }),
        facts: vec![
            Fact::new("seed", g.seed),
            Fact::new("trump", suit_name(&trump)),
            Fact::new("team A", format!("{} at {}", run.team_a, if g.swapped { "P1, P3" } else { "P0, P2" })),
            Fact::new("team B", format!("{} at {}", run.team_b, if g.swapped { "P0, P2" } else { "P1, P3" })),
            Fact::new("rounds", g.rounds),
        ],
        result,
        steps: list,
        legend: vec![
            "Players P0..P3 in absolute numbering (teams: P0+P2 and P1+P3); the yellow cards are trumps; the ringed table card is the attack still to beat.".into(),
            "Commands (docs/rules/durak.md §3): MOVE leads a round, BEAT answers the open attack (NO takes), ADD throws in a card of a rank on the table (NO passes).".into(),
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

/// One game's outcome for a paired comparison ([`paired`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Outcome {
    /// The deal's seed (the same deal in two files has the same seed).
    pub seed: u64,
    /// Whether the first team won: team A (`--team-a`) of `durak-server`, team X (`--team-x`)
    /// of `referee.py`. A capped game counts as not won.
    pub won: bool,
}

/// The games of a run keyed by deal and seating: `(deal, swapped)`.
pub type Outcomes = BTreeMap<(u64, bool), Outcome>;

/// A game of `referee.py --json` (a list of them): the keys read, the others ignored.
#[derive(Deserialize)]
struct RefereeGame {
    deal: u64,
    seed: u64,
    swapped: bool,
    winner: Option<String>,
}

/// The game outcomes of a `durak-server --json` file ([`Run`]) or of a `../shared/durak`
/// `referee.py --json` file (a list of games with `deal`, `seed`, `swapped` and `winner`,
/// `"X"` or `"Y"`).
///
/// # Errors
/// The file cannot be read, or is neither kind of file (one line naming it).
pub fn read_outcomes(path: &Path) -> Result<Outcomes, String> {
    let text = super::read_text(path)?;
    if let Ok(run) = serde_json::from_str::<Run>(&text) {
        return Ok(run
            .games
            .iter()
            .map(|g| {
                let won = g.winner.as_deref() == Some("A");
                ((g.deal, g.swapped), Outcome { seed: g.seed, won })
            })
            .collect());
    }
    let games: Vec<RefereeGame> = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: neither a durak-server nor a referee.py --json file: {e}",
            path.display()
        )
    })?;
    Ok(games
        .into_iter()
        .map(|g| {
            let won = g.winner.as_deref() == Some("X");
            ((g.deal, g.swapped), Outcome { seed: g.seed, won })
        })
        .collect())
}

/// A run compared game for game with a base run of the same deals ([`paired`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Paired {
    /// Games both runs hold (the same deal and seating).
    pub games: u64,
    /// Of them, games the base run's first team won.
    pub base_wins: u64,
    /// Of them, games the compared run's first team won.
    pub wins: u64,
    /// The compared run's deals held both ways in both runs: won both, split, lost both.
    pub pairs: [u64; 3],
    /// Games whose winner differs between the runs.
    pub changed: u64,
    /// The win rate's difference (compared minus base), in points, and the half-width of its
    /// 95% interval ([`crate::stats::mean_and_half95`]), over deals: each deal's difference
    /// is the mean over its games both runs hold, since a deal's two games (the same cards,
    /// the seats swapped) are not independent of each other.
    pub difference: (f64, f64),
}

/// Compares `run` with `base` on the games both hold, game for game: the same deal and seating
/// played by two settings, so the difference's interval is far narrower than the two rates'.
///
/// # Errors
/// No game in common, or a deal whose seed differs between the runs (not the same deals: other
/// tournament seeds).
pub fn paired(base: &Outcomes, run: &Outcomes) -> Result<Paired, String> {
    // Per deal: the sum of its games' differences and their count.
    let mut by_deal: BTreeMap<u64, (f64, f64)> = BTreeMap::new();
    let mut p = Paired {
        games: 0,
        base_wins: 0,
        wins: 0,
        pairs: [0; 3],
        changed: 0,
        difference: (0.0, 0.0),
    };
    for (key, b) in base {
        let Some(r) = run.get(key) else { continue };
        if r.seed != b.seed {
            return Err(format!(
                "deal {} has seed {} in one run and {} in the other: not the same deals",
                key.0, b.seed, r.seed
            ));
        }
        p.games += 1;
        p.base_wins += u64::from(b.won);
        p.wins += u64::from(r.won);
        p.changed += u64::from(r.won != b.won);
        let d = by_deal.entry(key.0).or_default();
        d.0 += 100.0 * f64::from(i8::from(r.won) - i8::from(b.won));
        d.1 += 1.0;
        if key.1 {
            if let (Some(first), true) =
                (run.get(&(key.0, false)), base.contains_key(&(key.0, false)))
            {
                p.pairs[2 - usize::from(first.won) - usize::from(r.won)] += 1;
            }
        }
    }
    if p.games == 0 {
        return Err("the runs have no game in common (deal and seating)".into());
    }
    let diffs: Vec<f64> = by_deal.values().map(|(sum, n)| sum / n).collect();
    p.difference = crate::stats::mean_and_half95(&diffs);
    Ok(p)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes(games: &[(u64, bool, bool)]) -> Outcomes {
        games
            .iter()
            .map(|&(deal, swapped, won)| {
                let seed = 100 + deal;
                ((deal, swapped), Outcome { seed, won })
            })
            .collect()
    }

    #[test]
    fn a_worked_paired_comparison() {
        // Base: deal 0 won both ways, deal 1 won then lost. Run: deal 0 won then lost, deal 1
        // won both. Per deal: -50 and +50 points, so the mean is 0 and the half-width
        // 1.96 x 70.71 / sqrt 2 = 98.0 points; two games changed winner.
        let base = outcomes(&[
            (0, false, true),
            (0, true, true),
            (1, false, true),
            (1, true, false),
        ]);
        let run = outcomes(&[
            (0, false, true),
            (0, true, false),
            (1, false, true),
            (1, true, true),
        ]);
        let p = paired(&base, &run).unwrap();
        assert_eq!((p.games, p.base_wins, p.wins, p.changed), (4, 3, 3, 2));
        assert_eq!(p.pairs, [1, 1, 0]);
        assert_eq!(p.difference.0, 0.0);
        assert!((p.difference.1 - 98.0).abs() < 0.05, "{:?}", p.difference);
        // A run against itself: no difference, no change.
        let same = paired(&run, &run).unwrap();
        assert_eq!((same.changed, same.difference), (0, (0.0, 0.0)));
        assert_eq!(same.pairs, [1, 1, 0]);
    }

    #[test]
    fn comparisons_need_the_same_deals() {
        let base = outcomes(&[(0, false, true), (0, true, true)]);
        let mut other = base.clone();
        other.get_mut(&(0, true)).unwrap().seed = 7;
        let e = paired(&base, &other).unwrap_err();
        assert!(
            e.contains("deal 0") && e.contains("not the same deals"),
            "{e}"
        );
        let elsewhere = outcomes(&[(5, false, true)]);
        assert!(paired(&base, &elsewhere)
            .unwrap_err()
            .contains("no game in common"));
        // Only the games both hold count; a deal held one way is not a pair.
        let half = outcomes(&[(0, false, false)]);
        let p = paired(&base, &half).unwrap();
        assert_eq!((p.games, p.changed, p.pairs), (1, 1, [0, 0, 0]));
        assert_eq!(p.difference, (-100.0, 0.0));
    }
}
