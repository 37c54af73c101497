//! Plays an Ioiwari player-1 program against a player-2 program over one
//! start, a list, or all 357 legal starts, checking every move with the
//! library's engine (`docs/rules/ioiwari.md`).

use std::fmt::Write as _;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use cardgames::child;
use cardgames::ioiwari::protocol;
use cardgames::ioiwari::referee::{
    read_starts, GameRecord, Outcome, PlayerCommand, Referee, Summary,
};
use cardgames::ioiwari::Board;
use cardgames::report::ioiwari::{merge, Entry, Run};
use cardgames::report::{ReplayPick, Shard};
use cardgames::stats::wilson95;
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};

/// Referee for Ioiwari programs speaking the IOI protocol.
///
/// Player 2 is started with the seven start counts appended to its command
/// and must print them as its first line (like `ioiwari2 p1 .. p7`); player 1
/// is sent that line. Moves are relayed one per line and validated; an
/// unreadable or illegal move, a closed output or a timeout forfeits the game.
/// Commands are split on whitespace (no shell quoting). Without --start or
/// --starts-file, all 357 legal starts are played (a starts file with no start
/// is an error).
///
/// Output files (--games-out, --html) are checked before the first game: a
/// folder, a path that cannot be written or two flags naming one file is an
/// error then, not after every game was played.
///
/// Exit status: 0; 1 if --expect-optimal is given and some game was not won
/// by player 1 with a margin equal to the start's game value, or if an output
/// file cannot be written (the summary is still printed when the games were
/// played); 2 on bad arguments (two flags naming one file included) or a
/// program that cannot be started; 130 when interrupted.
///
/// Also: `ioiwari-referee merge LOG.jsonl... [--games-out OUT.jsonl]
/// [--json OUT.json] [--html OUT.html]` joins the game logs of `--shard`
/// runs; `ioiwari-referee report LOG.jsonl --html OUT.html` writes the pages
/// of a saved log (see their `--help`).
#[derive(Parser, Debug)]
#[command(name = "ioiwari-referee", version)]
struct Args {
    /// Player-1 command [default: the `ioiwari` beside this program].
    #[arg(long)]
    p1: Option<String>,
    /// Player-2 command [default: `ioiwari2 --no-log` beside this program].
    #[arg(long)]
    p2: Option<String>,
    /// A start to play, seven counts (repeatable), e.g. --start "4 3 2 4 2 3 2".
    #[arg(long, value_name = "PITS")]
    start: Vec<String>,
    /// A file of starts, one per line (blank lines and #-comments skipped).
    #[arg(long, value_name = "FILE")]
    starts_file: Option<PathBuf>,
    /// Longest wait for any line from a player, in milliseconds (1 to
    /// 86400000, a day).
    #[arg(long, default_value_t = 2000, value_parser = clap::value_parser!(u64).range(1..=MAX_MS))]
    timeout_ms: u64,
    /// Longest wait for a player to exit after the game, in milliseconds (0 to
    /// 86400000, a day).
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u64).range(0..=MAX_MS))]
    exit_grace_ms: u64,
    /// Pass the players' stderr through (discarded by default).
    #[arg(long)]
    show_stderr: bool,
    /// Print the summary as JSON instead of text.
    #[arg(long)]
    json: bool,
    /// Write every game's record (moves, times, outcome, and its `index`
    /// among the starts) as JSON lines here.
    #[arg(long, value_name = "FILE")]
    games_out: Option<PathBuf>,
    /// Write an HTML report here (standings, head to head, win rate over the
    /// run, faults, timing), with replay pages in FILE's stem + `-games/`.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Replay pages for the first N games (and every forfeited game).
    #[arg(long, value_name = "N", default_value_t = 20)]
    replays: usize,
    /// Play only part K of N of the starts (start i when i % N == K - 1);
    /// join the parts' --games-out logs with `merge`. A part that would hold
    /// no start is an error (N larger than the number of starts).
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Print one line per game.
    #[arg(long, short)]
    verbose: bool,
    /// Exit with status 1 unless player 1 wins every game with a margin equal
    /// to the start's game value.
    #[arg(long)]
    expect_optimal: bool,
}

/// The longest `--timeout-ms` and `--exit-grace-ms`: a day (a deadline far
/// beyond it would overflow the clock).
const MAX_MS: u64 = 86_400_000;

/// Why a run or a subcommand failed: its one-line message and exit status.
#[derive(Debug)]
struct Failure {
    message: String,
    status: u8,
}

impl From<String> for Failure {
    /// A bad argument, input or program: exit status 2.
    fn from(message: String) -> Failure {
        Failure { message, status: 2 }
    }
}

impl Failure {
    /// An output file that cannot be written: exit status 1.
    fn output(message: String) -> Failure {
        Failure { message, status: 1 }
    }
}

/// Checks the output files named by flags before any work
/// ([`child::check_outputs`]).
fn check_outputs(outputs: &[(&str, Option<&std::path::Path>)]) -> Result<(), Failure> {
    child::check_outputs(outputs).map_err(|e| Failure {
        status: e.status(),
        message: e.message,
    })
}

fn sibling(name: &str) -> String {
    std::env::current_exe()
        .ok()
        .and_then(|exe| exe.parent().map(|dir| dir.join(name)))
        .map(|p| p.display().to_string())
        .unwrap_or_else(|| name.to_owned())
}

/// Joins the game logs (`--games-out`) of the shards of one run (`--shard
/// K/N`) into the log of the unsplit run, and prints its summary.
///
/// Every shard must be given exactly once: a missing shard, one given twice
/// or a log with no game is an error (exit status 2) and nothing is written.
/// The output files are checked before the logs are read (exit status 1, or
/// 2 when two flags name one file).
#[derive(Parser, Debug)]
#[command(name = "ioiwari-referee merge")]
struct MergeArgs {
    /// The shards' `--games-out` files.
    #[arg(required = true)]
    logs: Vec<PathBuf>,
    /// Write the joined log (JSON lines, as --games-out) here.
    #[arg(long, value_name = "FILE")]
    games_out: Option<PathBuf>,
    /// Write the joined run as one JSON document (players, games) here.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the HTML report here.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Replay pages for the first N games (and every forfeited game).
    #[arg(long, value_name = "N", default_value_t = 20)]
    replays: usize,
}

/// Writes the HTML report (and replay pages) of a saved game log.
#[derive(Parser, Debug)]
#[command(name = "ioiwari-referee report")]
struct ReportArgs {
    /// A `--games-out` log (or a `merge --json` document).
    log: PathBuf,
    /// Write the HTML report here.
    #[arg(long, value_name = "FILE", required = true)]
    html: PathBuf,
    /// Replay pages for the first N games (and every forfeited game).
    #[arg(long, value_name = "N", default_value_t = 20)]
    replays: usize,
}

fn write_log(path: &std::path::Path, games: &[Entry]) -> Result<(), String> {
    let mut text = String::new();
    for e in games {
        text.push_str(&serde_json::to_string(e).map_err(|e| e.to_string())?);
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn merge_main(args: MergeArgs) -> Result<(), Failure> {
    check_outputs(&[
        ("--games-out", args.games_out.as_deref()),
        ("--json", args.json.as_deref()),
        ("--html", args.html.as_deref()),
    ])?;
    let runs = args
        .logs
        .iter()
        .map(|p| Run::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let run = merge(runs)?;
    // A write that fails now is reported after the summary.
    let mut failed = None;
    if let Some(p) = &args.games_out {
        failed = failed.or(write_log(p, &run.games).err());
    }
    if let Some(p) = &args.json {
        let written = serde_json::to_string_pretty(&run)
            .map_err(|e| e.to_string())
            .and_then(|text| {
                std::fs::write(p, text).map_err(|e| format!("cannot write {}: {e}", p.display()))
            });
        failed = failed.or(written.err());
    }
    let pick = ReplayPick {
        first: args.replays,
    };
    if let Some(p) = &args.html {
        failed = failed.or(cardgames::report::ioiwari::write_html(&run, pick, p).err());
    }
    let mut out = String::new();
    let records = run.records();
    print_summary(&mut out, &run.p1, &run.p2, &Summary::of(&records), &records);
    child::print_stdout(&out)?;
    failed.map_or(Ok(()), |e| Err(Failure::output(e)))
}

fn report_main(args: ReportArgs) -> Result<(), Failure> {
    check_outputs(&[("--html", Some(&args.html))])?;
    let run = Run::read(&args.log)?;
    let pick = ReplayPick {
        first: args.replays,
    };
    cardgames::report::ioiwari::write_html(&run, pick, &args.html).map_err(Failure::output)
}

fn subcommand(name: &str) -> ExitCode {
    // The usage line names the program and the subcommand.
    let argv = std::iter::once(format!("ioiwari-referee {name}")).chain(std::env::args().skip(2));
    let result = if name == "merge" {
        merge_main(cardgames::child::parse_args_from::<MergeArgs, _, _>(argv))
    } else {
        report_main(cardgames::child::parse_args_from::<ReportArgs, _, _>(argv))
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cardgames::diag!("ioiwari-referee {name}: {}", e.message);
            ExitCode::from(e.status)
        }
    }
}

fn main() -> ExitCode {
    if let Some(name @ ("merge" | "report")) = std::env::args().nth(1).as_deref() {
        return subcommand(name);
    }
    let args = cardgames::child::parse_args::<Args>();
    match run(&args) {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::FAILURE,
        Err(e) => {
            cardgames::diag!("ioiwari-referee: {}", e.message);
            if cardgames::child::interrupted() {
                ExitCode::from(130)
            } else {
                ExitCode::from(e.status)
            }
        }
    }
}

fn starts(args: &Args) -> Result<Vec<Board>, String> {
    let mut starts = Vec::new();
    for text in &args.start {
        let board = protocol::parse_pits(text)
            .and_then(Board::start)
            .map_err(|e| format!("--start {text:?}: {e}"))?;
        starts.push(board);
    }
    if let Some(path) = &args.starts_file {
        let file = File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
        let read =
            read_starts(BufReader::new(file)).map_err(|e| format!("{}: {e}", path.display()))?;
        // An empty file is a mistake (a failed export, the wrong file), not a request for
        // every start.
        if read.is_empty() {
            return Err(format!("{}: no start in the file", path.display()));
        }
        starts.extend(read);
    }
    if starts.is_empty() {
        starts = Board::all_starts();
    }
    Ok(starts)
}

fn run(args: &Args) -> Result<bool, Failure> {
    check_outputs(&[
        ("--games-out", args.games_out.as_deref()),
        ("--html", args.html.as_deref()),
    ])?;
    let p1 = args.p1.clone().unwrap_or_else(|| sibling("ioiwari"));
    let p2 = args
        .p2
        .clone()
        .unwrap_or_else(|| format!("{} --no-log", sibling("ioiwari2")));
    let mut referee = Referee::new(
        PlayerCommand::parse(&p1, 1).map_err(|e| e.to_string())?,
        PlayerCommand::parse(&p2, 2).map_err(|e| e.to_string())?,
    );
    referee.move_timeout = Duration::from_millis(args.timeout_ms);
    referee.exit_grace = Duration::from_millis(args.exit_grace_ms);
    referee.show_stderr = args.show_stderr;
    let shard = args.shard.unwrap_or(Shard::ALL);
    let all = starts(args)?;
    let total = all.len();
    let starts: Vec<(usize, Board)> = all
        .into_iter()
        .enumerate()
        .filter(|(i, _)| shard.holds(*i))
        .collect();
    if starts.is_empty() {
        // Its log would be empty, and `merge` could not tell which shard it is.
        return Err(format!(
            "--shard {shard}: no start falls in this shard ({total} starts over {} shards; \
             split into at most {total})",
            shard.count
        )
        .into());
    }
    let mut entries = Vec::new();
    let shard_label = (shard != Shard::ALL).then(|| shard.to_string());
    let mut games_out = match &args.games_out {
        Some(path) => Some(
            File::create(path)
                .map_err(|e| Failure::output(format!("cannot write {}: {e}", path.display())))?,
        ),
        None => None,
    };
    // A write that fails once the games have begun is reported after the summary.
    let mut failed: Option<String> = None;

    let bar = if starts.len() > 1 {
        let bar = ProgressBar::new(starts.len() as u64);
        if let Ok(style) =
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {elapsed} (eta {eta})")
        {
            bar.set_style(style);
        }
        bar
    } else {
        ProgressBar::hidden()
    };
    child::install_interrupt()?;
    let _adopted = child::adopt_orphans()?;
    let scheduled = starts.len();
    let mut records = Vec::with_capacity(starts.len());
    for (index, start) in starts {
        if child::interrupted() {
            break;
        }
        let record = referee.play(start).map_err(|e| e.to_string())?;
        if child::interrupted() {
            // Its programs were killed by the interruption: not a result.
            break;
        }
        if args.verbose {
            bar.suspend(|| cardgames::diag!("{}", describe(&record)));
        }
        if games_out.is_some() || args.html.is_some() {
            let entry = Entry {
                index,
                shard: shard_label.clone(),
                p1: p1.clone(),
                p2: p2.clone(),
                record: record.clone(),
            };
            if let Some(file) = &mut games_out {
                let line = serde_json::to_string(&entry).map_err(|e| e.to_string())?;
                if let Err(e) = writeln!(file, "{line}") {
                    // The games go on; the log stops here.
                    failed = Some(format!("cannot write the game log: {e}"));
                    games_out = None;
                }
            }
            if args.html.is_some() {
                entries.push(entry);
            }
        }
        bar.inc(1);
        records.push(record);
    }
    bar.finish_and_clear();

    let partial = child::interrupted();
    if let Some(path) = &args.html {
        let run = Run {
            p1: p1.clone(),
            p2: p2.clone(),
            partial,
            shard: shard_label,
            games: entries,
        };
        let pick = ReplayPick {
            first: args.replays,
        };
        if let Err(e) = cardgames::report::ioiwari::write_html(&run, pick, path) {
            failed = failed.or(Some(e));
        }
    }
    let summary = Summary::of(&records);
    let mut out = String::new();
    if args.json {
        let mut value = serde_json::to_value(&summary).map_err(|e| e.to_string())?;
        if let Some(map) = value.as_object_mut() {
            map.insert("partial".into(), partial.into());
            map.insert("games_scheduled".into(), scheduled.into());
        }
        out = serde_json::to_string_pretty(&value).map_err(|e| e.to_string())? + "\n";
    } else {
        if partial {
            let _ = writeln!(
                out,
                "interrupted: {} of {scheduled} games finished, reported below",
                records.len()
            );
        }
        print_summary(&mut out, &p1, &p2, &summary, &records);
    }
    child::print_stdout(&out)?;
    if partial {
        return Err(String::from("interrupted").into());
    }
    if let Some(e) = failed {
        return Err(Failure::output(e));
    }
    let optimal = records
        .iter()
        .all(|r| r.margin() == Some(r.value) && r.value > 0);
    Ok(!args.expect_optimal || optimal)
}

fn describe(r: &GameRecord) -> String {
    let start = r.start.map(|s| s.to_string()).join(" ");
    let moves = r
        .moves
        .iter()
        .map(u8::to_string)
        .collect::<Vec<_>>()
        .join(" ");
    match &r.outcome {
        Outcome::Finished { margin } => format!(
            "[{start}] value {:+}: margin {margin:+} (banks {} {}) moves {moves}",
            r.value, r.banks[0], r.banks[1]
        ),
        Outcome::Forfeit { player, reason } => {
            format!("[{start}] player {player} forfeits: {reason} (moves {moves})")
        }
    }
}

fn percent((lo, hi): (f64, f64)) -> String {
    format!("95% CI {:.1}-{:.1}%", lo * 100.0, hi * 100.0)
}

fn print_summary(out: &mut String, p1: &str, p2: &str, s: &Summary, records: &[GameRecord]) {
    let n = s.games;
    let pct = |k: usize| 100.0 * k as f64 / n.max(1) as f64;
    let _ = writeln!(out, "player 1: {p1}");
    let _ = writeln!(out, "player 2: {p2}");
    let _ = writeln!(
        out,
        "games {n}: player 1 wins {} ({:.1}%, {}), draws {} ({:.1}%), losses {} ({:.1}%)",
        s.p1_wins,
        pct(s.p1_wins),
        percent(wilson95(s.p1_wins as u64, n as u64)),
        s.draws,
        pct(s.draws),
        s.p1_losses,
        pct(s.p1_losses),
    );
    let _ = writeln!(
        out,
        "forfeits: player 1 {}, player 2 {}",
        s.forfeits[0], s.forfeits[1]
    );
    let finished: usize = s.margins.values().sum();
    let _ = writeln!(
        out,
        "margin = game value in {}/{finished} finished games (below: {}, above: {})",
        s.margin_equals_value, s.margin_below_value, s.margin_above_value
    );
    let hist: Vec<String> = s
        .margins
        .iter()
        .map(|(m, k)| format!("{m:+}: {k}"))
        .collect();
    let _ = writeln!(out, "margins (player 1): {}", hist.join(", "));
    let _ = writeln!(
        out,
        "moves below the best value: player 1 {}, player 2 {}",
        s.suboptimal_moves[0], s.suboptimal_moves[1]
    );
    let _ = writeln!(
        out,
        "player 1 first move (start-up + solve): {}",
        s.p1_first
    );
    let _ = writeln!(out, "player 1 later moves:                   {}", s.p1_move);
    let _ = writeln!(
        out,
        "player 2 start line (start-up):         {}",
        s.p2_first
    );
    let _ = writeln!(out, "player 2 moves:                         {}", s.p2_move);
    let problems: Vec<String> = records
        .iter()
        .filter(|r| matches!(r.outcome, Outcome::Forfeit { .. }))
        .map(describe)
        .chain(records.iter().flat_map(|r| r.notes.iter().cloned()))
        .collect();
    if !problems.is_empty() {
        let _ = writeln!(out, "problems ({}):", problems.len());
        for p in problems.iter().take(10) {
            let _ = writeln!(out, "  {p}");
        }
    }
}
