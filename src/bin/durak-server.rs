//! `durak-server`: referees 2 vs 2 Durak games between two teams (`docs/rules/durak.md`).
//!
//! Each team is either a program (two copies started per game, `sh -c`) or, for fast tuning,
//! an in-process strategy written `inproc:<strategy>`. `--html` writes a report with replay
//! pages; `--shard K/N` plays part of the games, `merge` joins the parts' JSON, `report` writes
//! the pages of a saved run.

use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

use cardgames::child;
use cardgames::durak::audit::{audit_deal, Audit, PHASES};
use cardgames::durak::deep::DeepConfig;
use cardgames::durak::referee::{Naming, PlayOptions};
use cardgames::durak::sample::Beliefs;
use cardgames::durak::strategy::HeuristicParams;
use cardgames::durak::tournament::{play_one_with, Summary, TeamSpec, TournamentGame};
use cardgames::durak::Strategy;
use cardgames::report::durak::{merge, paired, read_outcomes, team_letter, Paired, Run};
use cardgames::report::{ReplayPick, Shard};
use cardgames::stats::wilson95;
use clap::Parser;
use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;

/// Referee Durak 2 vs 2 tournaments between two bots.
///
/// Also: `durak-server merge SHARD.json... --json OUT.json [--html OUT.html]` joins the JSON of
/// `--shard` runs; `durak-server report RUN.json --html OUT.html` writes the pages of a saved run;
/// `durak-server beliefs` scores beliefs about the hidden cards against the true deal;
/// `durak-server compare BASE.json RUN.json...` compares runs of the same deals game for game
/// (see their `--help`).
#[derive(Parser, Debug)]
#[command(name = "durak-server", version)]
struct Args {
    /// Team A (seats 1 and 3 in the first game of a deal): a command, or
    /// `inproc:<random|greedy|heuristic>[:knobs]`, knobs written key=value,... (the heuristic's:
    /// `durak-bot --help`), or `inproc:deep[:knobs]` (the deep search's settings, as
    /// `durak-bot --deep`), or, in a build with `--features measure`, the measurement bounds
    /// `inproc:clairvoyant[:knobs]` (deep search seeing every hand) and
    /// `inproc:clairvoyant2[:knobs]` (seeing the talon's order too).
    #[arg(long, short = 'a')]
    team_a: String,
    /// Team B, same forms.
    #[arg(long, short = 'b')]
    team_b: String,
    /// Number of deals, at least 1.
    #[arg(long, default_value_t = 100, value_parser = clap::value_parser!(u64).range(1..))]
    deals: u64,
    /// Tournament seed (deck order, trump and first mover of every deal derive from it).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Play every deal twice, the teams swapping seats.
    #[arg(long)]
    duplicate: bool,
    /// Games played in parallel (rayon threads), 1 to 1024.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    jobs: u16,
    /// Write each game's four transcripts into this directory.
    #[arg(long)]
    transcripts: Option<PathBuf>,
    /// Name a partner who plays an out player's seat by that seat's number (the default names
    /// the physical player, this project's reading).
    #[arg(long)]
    name_seats: bool,
    /// Write the results as JSON to this file (before anything is printed): the settings,
    /// `partial` (true when interrupted), the counts and every game.
    #[arg(long)]
    json: Option<PathBuf>,
    /// Write an HTML report here (standings, head to head, win rate over the run, faults,
    /// timing), with replay pages in FILE's stem + `-games/`.
    #[arg(long, value_name = "FILE")]
    html: Option<PathBuf>,
    /// Replay pages for the first N games (and every game with a forfeit); their answers are
    /// kept in the JSON too.
    #[arg(long, value_name = "N", default_value_t = 10)]
    replays: usize,
    /// Play only part K of N of the games (game i when i % N == K - 1, games numbered deal by
    /// deal; the seeds do not depend on the split); join the parts' JSON with `merge`.
    #[arg(long, value_name = "K/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Solve each game's first decision with the talon empty exactly (every hand known, all
    /// four playing perfectly) with at most this many solver nodes (or, when it is too large,
    /// a later one with 4 fewer cards in play, until one fits), and report how often each team reached a won
    /// endgame, converted it, or saved a lost one (0: off; the solves are outside the seats'
    /// clocks).
    #[arg(long, default_value_t = 0)]
    endgame_nodes: u64,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// Joins the JSON of the shards of one run (`--shard K/N`) into the JSON an unsplit run writes,
/// and prints its summary.
#[derive(Parser, Debug)]
#[command(name = "durak-server merge")]
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

/// Scores beliefs about the hidden cards against the true deal: whole games in process, team A
/// an in-process bot (its first seat audited at every decision), team B any team; each belief's
/// determinizations give every hidden card a distribution over its places (the other three
/// hands, the talon), scored by the log loss of the true place (docs/durak.md, "The belief
/// audit"). The audit does not change the games: every belief is scored on the same positions.
#[derive(Parser, Debug)]
#[command(name = "durak-server beliefs")]
struct BeliefsArgs {
    /// Team A, audited: inproc:deep\[:knobs\] or another in-process strategy.
    #[arg(long, short = 'a', default_value = "inproc:deep")]
    team_a: String,
    /// Team B: a command or an in-process strategy (as for the tournament).
    #[arg(long, short = 'b', default_value = "inproc:greedy")]
    team_b: String,
    /// Number of deals (each played twice, the teams swapping seats).
    #[arg(long, default_value_t = 50)]
    deals: u64,
    /// Tournament seed (the deals are the tournament's of this seed).
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Determinizations per belief and decision.
    #[arg(long, default_value_t = 200)]
    samples: usize,
    /// Beliefs to score, the first the reference of the differences: `takes` (the facts and
    /// the take beliefs) or `play` (also the reading of the opponents' beats, throw-ins and
    /// declines: the deep search's).
    #[arg(long, value_delimiter = ' ', default_value = "takes play")]
    beliefs: Vec<String>,
    /// Deals played in parallel (rayon threads), 1 to 1024.
    #[arg(long, short = 'j', default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=1024))]
    jobs: u16,
    /// No progress bar.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// The progress bar over `games` games (hidden when `quiet`).
fn progress_bar(games: usize, quiet: bool) -> Result<ProgressBar, String> {
    let bar = if quiet {
        ProgressBar::hidden()
    } else {
        ProgressBar::new(games as u64)
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games {elapsed_precise} eta {eta}")
            .map_err(|e| e.to_string())?,
    );
    Ok(bar)
}

/// The rayon pool that plays `games` games `jobs` at a time: `jobs` threads, no more than
/// there are games, at least one.
fn thread_pool(jobs: u16, games: usize) -> Result<rayon::ThreadPool, String> {
    rayon::ThreadPoolBuilder::new()
        .num_threads(usize::from(jobs).min(games).max(1))
        .build()
        .map_err(|e| e.to_string())
}

/// A belief of `durak-server beliefs --beliefs`.
fn parse_beliefs(spec: &str) -> Result<Beliefs, String> {
    match spec {
        "takes" => Ok(Beliefs::Takes),
        "play" => Ok(Beliefs::Play),
        _ => Err(format!("unknown belief {spec:?} (takes, play)")),
    }
}

fn beliefs_main(args: BeliefsArgs) -> Result<(), String> {
    let beliefs: Vec<Beliefs> = args
        .beliefs
        .iter()
        .map(|s| parse_beliefs(s))
        .collect::<Result<_, _>>()?;
    if beliefs.is_empty() {
        return Err("no belief to score".into());
    }
    if args.deals == 0 {
        return Err("--deals must be at least 1".into());
    }
    let a = team(&args.team_a)?;
    if !matches!(a, TeamSpec::InProcess(..)) {
        return Err(format!(
            "team A must be in process (inproc:...), not {:?}",
            args.team_a
        ));
    }
    let b = team(&args.team_b)?;
    let jobs: Vec<(u64, bool)> = (0..args.deals)
        .flat_map(|d| [(d, false), (d, true)])
        .collect();
    let bar = progress_bar(jobs.len(), args.quiet)?;
    let pool = thread_pool(args.jobs, jobs.len())?;
    let audits: Vec<Audit> = pool.install(|| {
        jobs.par_iter()
            .filter_map(|&(deal, swapped)| {
                let r = audit_deal(args.seed, deal, swapped, &a, &b, &beliefs, args.samples);
                bar.inc(1);
                r
            })
            .collect()
    });
    bar.finish_and_clear();
    let mut total = Audit::new(beliefs.len());
    for x in &audits {
        total.add(x);
    }
    let mut out = format!(
        "belief audit: team A {} (first seat audited), team B {}, seed {}, {} deals x 2, {} samples\n",
        args.team_a, args.team_b, args.seed, args.deals, args.samples
    );
    for (ph, name) in PHASES.iter().enumerate() {
        if total.decisions[ph] == 0 {
            let _ = writeln!(out, "{name}: no decision audited");
            continue;
        }
        let _ = writeln!(
            out,
            "{name}: {} decisions, {} hidden cards\n  {:<24} {:>10} {:>9} {:>28} {:>14}",
            total.decisions[ph],
            total.scores[0][ph].cards,
            "belief",
            "log loss",
            "p(truth)",
            "vs first, per card (95%)",
            "truth breaks it"
        );
        for (i, spec) in args.beliefs.iter().enumerate() {
            let s = &total.scores[i][ph];
            let n = s.cards.max(1) as f64;
            // Paired by game: each game's per-card difference from the first belief.
            let diffs: Vec<f64> = audits
                .iter()
                .filter(|x| x.scores[0][ph].cards > 0)
                .map(|x| {
                    (x.scores[i][ph].log_loss - x.scores[0][ph].log_loss)
                        / x.scores[0][ph].cards as f64
                })
                .collect();
            let (mean, half) = cardgames::stats::mean_and_half95(&diffs);
            let _ = writeln!(
                out,
                "  {:<24} {:>10.4} {:>9.4} {:>+17.4} +- {:.4} {:>13.1}%",
                spec,
                s.log_loss / n,
                s.p_truth / n,
                mean,
                half,
                100.0 * s.broken as f64 / s.decisions.max(1) as f64
            );
        }
    }
    child::print_stdout(&out)
}

/// Writes the HTML report (and replay pages) of a saved run's `--json`.
#[derive(Parser, Debug)]
#[command(name = "durak-server report")]
struct ReportArgs {
    /// A `--json` file of durak-server (or of `merge`).
    run: PathBuf,
    /// Write the HTML report here.
    #[arg(long, value_name = "FILE", required = true)]
    html: PathBuf,
}

/// Compares runs of the same deals game for game with a base run.
#[derive(Parser, Debug)]
#[command(
    name = "durak-server compare",
    about = "Compares runs of the same deals game for game with a base run: each run's win \
             rate (its first team's: A of durak-server, X of referee.py) with its 95% Wilson \
             interval, its duplicate pairs, and the paired difference from the base in points \
             with its 95% interval, on the games both files hold."
)]
struct CompareArgs {
    /// The base run: a `--json` file of durak-server or of ../shared/durak's referee.py.
    base: PathBuf,
    /// The runs compared with it (the same tournament seed, so the same deals).
    #[arg(required = true)]
    runs: Vec<PathBuf>,
}

fn compare_main(args: CompareArgs) -> Result<(), String> {
    let base = read_outcomes(&args.base)?;
    // A run's rate with its interval and its duplicate pairs.
    let rate = |p: &Paired| {
        let (lo, hi) = wilson95(p.wins, p.games);
        let pct = 100.0 * p.wins as f64 / p.games.max(1) as f64;
        let [both, split, lost] = p.pairs;
        format!(
            "{pct:.1}% [{:.1}, {:.1}] (pairs {both} / {split} / {lost})",
            100.0 * lo,
            100.0 * hi
        )
    };
    let mut out = format!(
        "{}: {}\n",
        args.base.display(),
        rate(&paired(&base, &base)?)
    );
    for path in &args.runs {
        let run = read_outcomes(path)?;
        let p = paired(&base, &run).map_err(|e| format!("{}: {e}", path.display()))?;
        let common = if p.games as usize == base.len().max(run.len()) {
            String::new()
        } else {
            format!(" on the {} games both hold", p.games)
        };
        let _ = writeln!(
            out,
            "{}: {}; paired difference {:+.1} +- {:.1} points (95%){common}, {} of {} games changed winner",
            path.display(),
            rate(&p),
            p.difference.0,
            p.difference.1,
            p.changed,
            p.games
        );
    }
    child::print_stdout(&out)
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
        write_run(p, &run)?;
    }
    if let Some(p) = &args.html {
        cardgames::report::durak::write_html(&run, p)?;
    }
    let mut out = format!(
        "team A: {}\nteam B: {}\nseed {}, deals {}, duplicate {}\n",
        run.team_a, run.team_b, run.seed, run.deals, run.duplicate
    );
    let _ = write!(out, "{}", Summary::new(&run.tournament_games()));
    child::print_stdout(&out)
}

fn subcommand(name: &str) -> ExitCode {
    // The usage line names the program and the subcommand.
    let argv = std::iter::once(format!("durak-server {name}")).chain(std::env::args().skip(2));
    let result = if name == "merge" {
        merge_main(cardgames::child::parse_args_from::<MergeArgs, _, _>(argv))
    } else if name == "compare" {
        compare_main(cardgames::child::parse_args_from::<CompareArgs, _, _>(argv))
    } else if name == "beliefs" {
        beliefs_main(cardgames::child::parse_args_from::<BeliefsArgs, _, _>(argv))
    } else {
        let args = cardgames::child::parse_args_from::<ReportArgs, _, _>(argv);
        child::check_outputs(&[("--html", Some(&args.html))])
            .map_err(String::from)
            .and_then(|()| Run::read(&args.run))
            .and_then(|run| cardgames::report::durak::write_html(&run, &args.html))
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cardgames::diag!("durak-server {name}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn team(text: &str) -> Result<TeamSpec, String> {
    match text.strip_prefix("inproc:") {
        Some(rest) => {
            let (name, knobs) = rest.split_once(':').unwrap_or((rest, ""));
            if name == "deep" {
                return Ok(TeamSpec::InProcess(
                    Strategy::Deep,
                    DeepConfig::parse(knobs)?,
                ));
            }
            if let Some(seeing) = clairvoyant(name) {
                #[cfg(feature = "measure")]
                {
                    let mut cfg = DeepConfig::parse(knobs)?;
                    cfg.measure.clairvoyant = seeing;
                    return Ok(TeamSpec::InProcess(Strategy::Deep, cfg));
                }
                #[cfg(not(feature = "measure"))]
                return Err(format!(
                    "inproc:{name} (clairvoyant={seeing}) is a measurement: build durak-server with --features measure"
                ));
            }
            let strategy = parse_strategy(name)?;
            let cfg = DeepConfig {
                heuristic: HeuristicParams::parse(knobs)?,
                ..DeepConfig::default()
            };
            Ok(TeamSpec::InProcess(strategy, cfg))
        }
        None if text.trim().is_empty() => Err("empty team command".into()),
        None => Ok(TeamSpec::Program(text.to_owned())),
    }
}

/// The measurement bounds' names: `clairvoyant` sees every hand (1), `clairvoyant2` the
/// talon's order too (2).
fn clairvoyant(name: &str) -> Option<u8> {
    match name {
        "clairvoyant" => Some(1),
        "clairvoyant2" => Some(2),
        _ => None,
    }
}

fn parse_strategy(name: &str) -> Result<Strategy, String> {
    Ok(match name {
        "random" => Strategy::Random,
        "greedy" => Strategy::Greedy,
        "heuristic" => Strategy::Heuristic,
        _ => {
            return Err(format!(
                "unknown strategy {name:?} (random, greedy, heuristic, deep; clairvoyant, clairvoyant2 with --features measure)"
            ))
        }
    })
}

/// The game's forfeit for a person: `team B, malformed answer: player 2: ...`, or `none`.
fn forfeit_text(g: &TournamentGame) -> String {
    g.record
        .forfeit
        .as_ref()
        .map_or("none".into(), |(t, reason, why)| {
            format!("team {}, {reason}: {why}", team_letter(*t, g.swapped))
        })
}

fn write_transcript(dir: &std::path::Path, g: &TournamentGame) -> std::io::Result<()> {
    let Some(t) = &g.record.transcript else {
        return Ok(());
    };
    let mut text = format!(
        "deal {} seed {} team A at seats {}\nwinner team {} forfeit {} rounds {}\n",
        g.deal,
        g.seed,
        if g.swapped { "2,4" } else { "1,3" },
        g.record
            .winner
            .map_or("none", |w| team_letter(w, g.swapped)),
        forfeit_text(g),
        g.record.rounds
    );
    for (seat, lines) in t.iter().enumerate() {
        text.push_str(&format!("== player {} view\n", seat + 1));
        for l in lines {
            text.push_str(l);
            text.push('\n');
        }
    }
    fs::write(
        dir.join(format!(
            "deal{:05}{}.txt",
            g.deal,
            if g.swapped { "b" } else { "a" }
        )),
        text,
    )
}

/// The two teams of a run, checked before any game: a team that cannot be parsed or a
/// program given by a path that cannot run is a usage error (exit status 2), an output file
/// that cannot be written ([`child::check_outputs`]) an error (status 1; 2 when two flags name
/// the same file).
fn teams(args: &Args) -> Result<(TeamSpec, TeamSpec), (u8, String)> {
    let usage = |flag: &str, e: String| (2, format!("{flag}: {e} (see --help)"));
    let mut specs = Vec::new();
    for (flag, text) in [("--team-a", &args.team_a), ("--team-b", &args.team_b)] {
        let spec = team(text).map_err(|e| usage(flag, e))?;
        if let TeamSpec::Program(command) = &spec {
            child::check_program(command).map_err(|e| (2, format!("{flag}: {e}")))?;
        }
        specs.push(spec);
    }
    child::check_outputs(&[
        ("--json", args.json.as_deref()),
        ("--html", args.html.as_deref()),
    ])
    .map_err(|e| (e.status(), e.message))?;
    if let Some(dir) = args
        .transcripts
        .as_deref()
        .filter(|d| d.exists() && !d.is_dir())
    {
        return Err((
            1,
            format!(
                "cannot write transcripts into {}: not a folder",
                dir.display()
            ),
        ));
    }
    let b = specs.pop().expect("two teams");
    let a = specs.pop().expect("two teams");
    Ok((a, b))
}

fn run(args: Args, a: TeamSpec, b: TeamSpec) -> Result<(), String> {
    if let Some(dir) = &args.transcripts {
        fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    let shard = args.shard.unwrap_or(Shard::ALL);
    let jobs: Vec<(usize, (u64, bool))> = (0..args.deals)
        .flat_map(|d| {
            if args.duplicate {
                vec![(d, false), (d, true)]
            } else {
                vec![(d, false)]
            }
        })
        .enumerate()
        .filter(|(i, _)| shard.holds(*i))
        .collect();
    // Answers are recorded only when a JSON or HTML report is asked for, and kept for the
    // games that get a replay page.
    let record = args.json.is_some() || args.html.is_some();
    let pick = ReplayPick {
        first: args.replays,
    };
    let bar = progress_bar(jobs.len(), args.quiet)?;
    let pool = thread_pool(args.jobs, jobs.len())?;
    let want_t = args.transcripts.is_some();
    let naming = if args.name_seats {
        Naming::Seat
    } else {
        Naming::Physical
    };
    child::install_interrupt()?;
    let _adopted = child::adopt_orphans()?;
    let start = Instant::now();
    // Games still running when SIGINT/SIGTERM arrives end at once (their programs are
    // killed) and are dropped; the finished ones are reported, marked partial.
    let games: Vec<TournamentGame> = pool.install(|| {
        jobs.par_iter()
            .filter_map(|&(i, (deal, swapped))| {
                if child::interrupted() {
                    return None;
                }
                let opts = PlayOptions {
                    transcript: want_t,
                    naming,
                    endgame_nodes: args.endgame_nodes,
                    steps: record,
                    stop: Some(child::interrupted),
                };
                let mut g = play_one_with(args.seed, deal, swapped, &a, &b, opts);
                if !pick.wants(i, g.record.forfeit.is_some()) {
                    g.record.steps = None;
                }
                bar.inc(1);
                (!child::interrupted()).then_some(g)
            })
            .collect()
    });
    bar.finish_and_clear();
    let partial = child::interrupted();
    if record {
        let run = Run::new(
            &args.team_a,
            &args.team_b,
            args.seed,
            args.deals,
            args.duplicate,
            &games,
            jobs.len(),
            partial,
            shard,
        );
        if let Some(path) = &args.json {
            write_run(path, &run)?;
        }
        if let Some(path) = &args.html {
            cardgames::report::durak::write_html(&run, path)?;
        }
    }
    if let Some(dir) = &args.transcripts {
        for g in &games {
            write_transcript(dir, g).map_err(|e| format!("cannot write transcript: {e}"))?;
        }
    }
    let mut out = String::new();
    if partial {
        let _ = writeln!(
            out,
            "interrupted: {} of {} games finished, reported below",
            games.len(),
            jobs.len()
        );
    }
    let _ = writeln!(out, "team A: {}\nteam B: {}", args.team_a, args.team_b);
    let _ = writeln!(
        out,
        "seed {}, deals {}, duplicate {}, jobs {}, wall {:.1} s",
        args.seed,
        args.deals,
        args.duplicate,
        args.jobs,
        start.elapsed().as_secs_f64()
    );
    let _ = write!(out, "{}", Summary::new(&games));
    for g in games.iter().filter(|g| g.record.forfeit.is_some()).take(5) {
        let _ = writeln!(
            out,
            "forfeit in deal {} (swapped {}): {}",
            g.deal,
            g.swapped,
            forfeit_text(g)
        );
    }
    for g in games.iter().filter(|g| !g.record.notes.is_empty()).take(5) {
        let _ = writeln!(
            out,
            "note in deal {} (swapped {}): {}",
            g.deal,
            g.swapped,
            g.record.notes.join("; ")
        );
    }
    child::print_stdout(&out)?;
    if partial {
        return Err("interrupted".into());
    }
    Ok(())
}

/// The results as JSON in `path` (see [`Run`]): the settings, `partial` (true when
/// interrupted), the counts and every game; team letters are the command line's (A =
/// `--team-a`).
fn write_run(path: &std::path::Path, run: &Run) -> Result<(), String> {
    let text = serde_json::to_string_pretty(run).map_err(|e| e.to_string())?;
    fs::write(path, text + "\n").map_err(|e| format!("cannot write {}: {e}", path.display()))
}

fn main() -> ExitCode {
    if let Some(name @ ("merge" | "report" | "beliefs" | "compare")) =
        std::env::args().nth(1).as_deref()
    {
        return subcommand(name);
    }
    let args = cardgames::child::parse_args::<Args>();
    let (a, b) = match teams(&args) {
        Ok(t) => t,
        Err((status, e)) => {
            cardgames::diag!("durak-server: {e}");
            return ExitCode::from(status);
        }
    };
    match run(args, a, b) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            cardgames::diag!("durak-server: {e}");
            if child::interrupted() {
                ExitCode::from(130)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
