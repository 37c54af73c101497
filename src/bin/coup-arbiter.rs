//! `coup-arbiter`: a round-robin Coup tournament under the King-of-the-Hill
//! arbiter's rules (`docs/rules/coup.md`). Each bot is a command run once per
//! decision (or `builtin:NAME` for an in-process strategy); every ordered pair
//! plays once per round; prints standings, a head-to-head matrix with 95%
//! intervals and per-bot call timing, optionally as JSON and as HTML pages
//! (`--html`); `--shard K/N` plays one part of the games, `merge` joins the
//! parts, `report` writes the pages of a saved run.

use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

use cardgames::child;
use cardgames::coup::arbiter::{
    format_report, play_game_traced, schedule, Bot, BotKind, Carry, GameRecord, Settings,
};
use cardgames::report::coup::{merge, Run};
use cardgames::report::{ReplayPick, Shard};

/// Referee Coup bots in a round robin (every pair plays both seats each round).
///
/// Also: `coup-arbiter merge SHARD.json... --json OUT.json [--html OUT.html]`
/// joins the JSON of `--shard` runs; `coup-arbiter report RUN.json --html
/// OUT.html` writes the pages of a saved run (see their `--help`).
#[derive(Parser, Debug)]
#[command(name = "coup-arbiter", version)]
struct Args {
    /// Bots, as `NAME=COMMAND` or `COMMAND` (e.g. "target/release/coup-bot --strategy honest",
    /// or "builtin:calculator" to run a strategy in-process; "builtin:search KEY=VALUE ..." and
    /// "builtin:clairvoyant KEY=VALUE ..." take search settings). At least two.
    #[arg(required = true, num_args = 2..)]
    bots: Vec<String>,
    /// Rounds of the round robin, at least 1.
    #[arg(short, long, default_value_t = 10, value_parser = clap::value_parser!(u32).range(1..))]
    rounds: u32,
    /// Master seed (each game's seed derives from it).
    #[arg(short, long, default_value_t = 1)]
    seed: u64,
    /// Worker threads for games in parallel, 1 to 1024.
    #[arg(short = 'j', long, default_value_t = 2, value_parser = clap::value_parser!(u16).range(1..=1024))]
    threads: u16,
    /// Folder for history files and bot folders (a fresh one per game).
    #[arg(long, default_value = "coup-games")]
    work_dir: PathBuf,
    /// Write the report as JSON to this file.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Keep the original arbiter's quirks: no reset after a drawn game, the
    /// fixed first-turn list, the lax append check (games then run in order).
    #[arg(long)]
    original_quirks: bool,
    /// Time limit of one call in seconds: a bot still running then is killed
    /// (its whole process group) and forfeits the game.
    #[arg(long, default_value_t = 5.0, value_parser = parse_seconds)]
    timeout: f64,
    /// Pass the bots' stderr through.
    #[arg(long)]
    show_stderr: bool,
    /// Keep each bot's folder (WORK_DIR/bots/NAME) across games and every
    /// game's history file (WORK_DIR/games), as the original arbiter does,
    /// so bots can remember opponents; default: a fresh folder per game.
    #[arg(long)]
    keep_bot_dirs: bool,
    /// Write an HTML report here (standings, head to head, win rate over
    /// the run, faults, timing), with replay pages in FILE's stem + `-games/`.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Replay pages for the first N games of the schedule (and every game
    /// with a forfeit); their calls are kept in the JSON too.
    #[arg(long, value_name = "N", default_value_t = 20)]
    replays: usize,
    /// Play only part K of N of the games (game i when i % N == K - 1; the
    /// seeds do not depend on the split); join the parts' JSON with `merge`.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// Joins the JSON of the shards of one run (`--shard K/N`) into the JSON an
/// unsplit run writes, and prints its report.
#[derive(Parser, Debug)]
#[command(name = "coup-arbiter merge")]
struct MergeArgs {
    /// The shards' `--json` files (all N of them).
    #[arg(required = true)]
    shards: Vec<PathBuf>,
    /// Write the joined JSON here.
    #[arg(long, value_name = "FILE")]
    json: Option<PathBuf>,
    /// Write the HTML report here.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
}

/// Writes the HTML report (and replay pages) of a saved run's `--json`.
#[derive(Parser, Debug)]
#[command(name = "coup-arbiter report")]
struct ReportArgs {
    /// A `--json` file of coup-arbiter (or of `merge`).
    run: PathBuf,
    /// Write the HTML report here.
    #[arg(long, value_name = "FILE", required = true)]
    html: PathBuf,
}

fn write_json(run: &Run, path: &std::path::Path) -> Result<(), String> {
    let text =
        serde_json::to_string_pretty(run).map_err(|e| format!("cannot encode the report: {e}"))?;
    std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn merge_main(args: MergeArgs) -> Result<(), String> {
    child::check_outputs(&[
        ("--json", args.json.as_deref()),
        ("--html", args.html.as_deref()),
    ])?;
    let runs = args
        .shards
        .iter()
        .map(|p| Run::read(p))
        .collect::<Result<Vec<_>, _>>()?;
    let run = merge(runs)?;
    if let Some(p) = &args.json {
        write_json(&run, p)?;
    }
    if let Some(p) = &args.html {
        cardgames::report::coup::write_html(&run, p)?;
    }
    child::print_stdout(&format_report(&run.report, &run.bot_list()))
}

fn subcommand(name: &str) -> ExitCode {
    // The usage line names the program and the subcommand.
    let argv = std::iter::once(format!("coup-arbiter {name}")).chain(std::env::args().skip(2));
    let result = if name == "merge" {
        merge_main(cardgames::child::parse_args_from::<MergeArgs, _, _>(argv))
    } else {
        let args = cardgames::child::parse_args_from::<ReportArgs, _, _>(argv);
        child::check_outputs(&[("--html", Some(&args.html))])
            .map_err(String::from)
            .and_then(|()| Run::read(&args.run))
            .and_then(|run| cardgames::report::coup::write_html(&run, &args.html))
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cardgames::diag!("coup-arbiter {name}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    if let Some(name @ ("merge" | "report")) = std::env::args().nth(1).as_deref() {
        return subcommand(name);
    }
    let args = cardgames::child::parse_args::<Args>();
    let shard = args.shard.unwrap_or(Shard::ALL);
    if args.original_quirks && shard.count > 1 {
        cardgames::diag!("coup-arbiter: --shard cannot split a run with --original-quirks (each game starts from the one before)");
        return ExitCode::from(2);
    }
    let bots: Result<Vec<Bot>, String> = args.bots.iter().map(|s| Bot::parse(s)).collect();
    let bots = match bots {
        Ok(b) => b,
        Err(e) => {
            cardgames::diag!("coup-arbiter: {e}");
            return ExitCode::from(2);
        }
    };
    for (i, b) in bots.iter().enumerate() {
        if bots[..i].iter().any(|o| o.name == b.name) {
            cardgames::diag!(
                "coup-arbiter: two bots are named {:?}; name them NAME=COMMAND",
                b.name
            );
            return ExitCode::from(2);
        }
    }
    for b in &bots {
        if let BotKind::Process(words) = &b.kind {
            if let Err(e) = child::check_program(&words[0]) {
                cardgames::diag!("coup-arbiter: bot {}: {e}", b.name);
                return ExitCode::from(2);
            }
        }
    }
    if let Err(e) = child::check_outputs(&[
        ("--json", args.json.as_deref()),
        ("--html", args.html.as_deref()),
    ]) {
        cardgames::diag!("coup-arbiter: {e}");
        return ExitCode::from(e.status());
    }
    let made_work_dir = !args.work_dir.exists();
    let work_dir = match std::fs::create_dir_all(&args.work_dir)
        .and_then(|_| std::fs::canonicalize(&args.work_dir))
    {
        Ok(d) => d,
        Err(e) => {
            cardgames::diag!(
                "coup-arbiter: cannot create {}: {e}",
                args.work_dir.display()
            );
            return ExitCode::FAILURE;
        }
    };
    let settings = Settings {
        rounds: args.rounds as usize,
        seed: args.seed,
        quirks: args.original_quirks,
        work_dir,
        show_stderr: args.show_stderr,
        keep_bot_dirs: args.keep_bot_dirs,
        timeout: Duration::from_secs_f64(args.timeout),
    };
    let games: Vec<(usize, (usize, usize, usize, usize))> =
        schedule(bots.len(), args.rounds as usize)
            .into_iter()
            .enumerate()
            .filter(|(i, _)| shard.holds(*i))
            .collect();
    // Calls are traced only when a JSON or HTML report is asked for, and kept
    // for the games that get a replay page.
    let trace = args.json.is_some() || args.html.is_some();
    let pick = ReplayPick {
        first: args.replays,
    };
    let keep = |i: usize, mut rec: GameRecord| {
        if !pick.wants(i, rec.forfeit.is_some()) {
            rec.turns = Vec::new();
        }
        rec
    };
    let bar = if args.quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games.len() as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let _adopted = match child::install_interrupt().and_then(|()| child::adopt_orphans()) {
        Ok(adopted) => adopted,
        Err(e) => {
            cardgames::diag!("coup-arbiter: {e}");
            return ExitCode::FAILURE;
        }
    };
    // Games still running when SIGINT/SIGTERM arrives end at once (their bots are killed,
    // their folders removed) and are dropped; the finished ones are reported as partial.
    let records: Vec<GameRecord> = if settings.quirks {
        let mut carry: Option<Carry> = None;
        let mut records = Vec::new();
        for &(i, (r, g, a, b)) in &games {
            if child::interrupted() {
                break;
            }
            let (rec, next) = play_game_traced(&bots, a, b, r, g, &settings, carry.as_ref(), trace);
            let rec = keep(i, rec);
            if child::interrupted() {
                break;
            }
            carry = next;
            bar.inc(1);
            records.push(rec);
        }
        records
    } else {
        let pool = match rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(args.threads).min(games.len()).max(1))
            .build()
        {
            Ok(p) => p,
            Err(e) => {
                cardgames::diag!("coup-arbiter: cannot start threads: {e}");
                return ExitCode::FAILURE;
            }
        };
        pool.install(|| {
            games
                .par_iter()
                .filter_map(|&(i, (r, g, a, b))| {
                    if child::interrupted() {
                        return None;
                    }
                    let (rec, _) = play_game_traced(&bots, a, b, r, g, &settings, None, trace);
                    let rec = keep(i, rec);
                    bar.inc(1);
                    (!child::interrupted()).then_some(rec)
                })
                .collect()
        })
    };
    bar.finish_and_clear();
    if made_work_dir {
        // Every game removed its own folder; leave no empty folder behind.
        let _ = std::fs::remove_dir(&settings.work_dir);
    }
    let partial = child::interrupted();
    let run = Run::new(
        &bots,
        &args.bots,
        records,
        &settings,
        games.len(),
        partial,
        shard,
    );
    let report = &run.report;
    // The JSON first: a closed stdout must not lose a finished tournament.
    if let Some(path) = &args.json {
        if let Err(e) = write_json(&run, path) {
            cardgames::diag!("coup-arbiter: {e}");
            return ExitCode::FAILURE;
        }
    }
    if let Some(path) = &args.html {
        if let Err(e) = cardgames::report::coup::write_html(&run, path) {
            cardgames::diag!("coup-arbiter: {e}");
            return ExitCode::FAILURE;
        }
    }
    let records = &run.games;
    let mut text = String::new();
    if partial {
        text = format!(
            "interrupted: {} of {} games finished, reported below\n",
            records.len(),
            games.len()
        );
    }
    text.push_str(&format_report(report, &bots));
    if let Err(e) = child::print_stdout(&text) {
        cardgames::diag!("coup-arbiter: {e}");
        return ExitCode::FAILURE;
    }
    if partial {
        cardgames::diag!("coup-arbiter: interrupted");
        return ExitCode::from(130);
    }
    ExitCode::SUCCESS
}

/// A positive, finite number of seconds (at most a day).
fn parse_seconds(text: &str) -> Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(x) if x > 0.0 && x <= 86_400.0 => Ok(x),
        _ => Err(format!("expected seconds in (0, 86400], got {text:?}")),
    }
}
