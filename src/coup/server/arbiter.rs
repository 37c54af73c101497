//! Tournaments under the arbiter's rules (`docs/rules/coup.md` §4 and
//! §6): bot commands run once per decision with the original
//! arguments, history file and working directory; every ordered pair plays
//! once per round; forfeits are detected with their reason; calls are timed.
//!
//! A bot command `builtin:NAME` runs strategy NAME in-process through
//! [`crate::coup::bot::decide`] (same rules, no process, no memory), for fast experiments;
//! `builtin:search` and `builtin:clairvoyant` take search settings after the name
//! (`builtin:search worlds=900 tree=1`, as `coup-bot --search` takes them).

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use rand::seq::SliceRandom;
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;
use serde::{Deserialize, Serialize};

use crate::child::{self, Fault, Limits, Spec, Stderr};
use crate::coup::bot::{decide, Config, Decision, Remembered, SearchConfig, Strategy, View};
use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::rules::{Call, Outcome, Table};

/// Most bytes a bot may print on stdout in one call (an Exchange prints two
/// card codes and a newline).
pub const MAX_CALL_OUTPUT: u64 = 64 * 1024;

/// Most bytes the history file may hold after a call: a real game's history is
/// a few kB; a bot that appends more forfeits and the file is not read whole.
pub const MAX_HISTORY: u64 = 1 << 20;

/// The default time limit of one call ([`Settings::timeout`]): generous, a
/// decision of the project's bots takes milliseconds, a Python bot's start-up about 50 ms.
pub const DEFAULT_TIMEOUT: Duration = Duration::from_secs(5);

/// A competitor: a unique name (its folder's name) and its command.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotKind {
    /// An external program and its leading arguments.
    Process(Vec<String>),
    /// A built-in strategy run in-process, and the search settings it was given
    /// (`KEY=VALUE` words, each checked by [`SearchConfig::set`]; `search` only).
    Builtin(Strategy, Vec<String>),
    /// The clairvoyant bound, for measurement only (the cargo feature
    /// `measure`): the `search` strategy told the opponent's true hand
    /// (`coup::bot::decide_clairvoyant`)
    /// at the calls whose [`decision_kind`](crate::coup::measure::decision_kind) is in
    /// the mask (`builtin:clairvoyant` every call, `builtin:clairvoyant:MASK` some
    /// kinds, the bits of [`crate::coup::measure::kind`]); elsewhere the honest `search`.
    /// Both halves play with the search settings given (as for [`BotKind::Builtin`]),
    /// so a setting's ceiling is measured beside its honest rate.
    Clairvoyant(u8, Vec<String>),
}

/// A competitor.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Bot {
    /// Unique name, used for its folder and the history file name.
    pub name: String,
    /// How to call it.
    pub kind: BotKind,
}

impl Bot {
    /// Parses `NAME=COMMAND` (or a bare COMMAND, named after its strategy or
    /// program). COMMAND is split on whitespace; `builtin:STRATEGY` runs a
    /// strategy in-process, and the words after `builtin:search` or
    /// `builtin:clairvoyant` are its search settings (`KEY=VALUE`). A relative
    /// program path containing `/` is made absolute against the current
    /// directory (the bot runs in its folder).
    ///
    /// # Errors
    /// A one-line message for an empty command, an unknown built-in, a search
    /// setting [`SearchConfig::set`] refuses, words after another built-in, or a
    /// name that cannot be a folder name (empty, `.`, `..`, holding `/` or
    /// NUL: D15, every game would forfeit, charged to the wrong bot).
    pub fn parse(spec: &str) -> Result<Bot, String> {
        let (name, cmd) = match spec.split_once('=') {
            Some((n, c)) if !n.contains(' ') && !n.is_empty() => (Some(n.to_string()), c),
            _ => (None, spec),
        };
        let mut words: Vec<String> = cmd.split_whitespace().map(str::to_string).collect();
        if words.is_empty() {
            return Err(format!("empty bot command in {spec:?}"));
        }
        if let Some(rest) = words[0].strip_prefix("builtin:clairvoyant") {
            if cfg!(not(feature = "measure")) {
                return Err(format!(
                    "{} is for measurement only: build coup-arbiter with --features measure",
                    words[0]
                ));
            }
            let mask = match rest.strip_prefix(':') {
                None if rest.is_empty() => crate::coup::measure::kind::ALL,
                Some(m) => m
                    .parse::<u8>()
                    .ok()
                    .filter(|m| (1..=crate::coup::measure::kind::ALL).contains(m))
                    .ok_or_else(|| {
                        format!("builtin:clairvoyant:MASK takes a mask of 1 to 15, got {m:?}")
                    })?,
                None => return Err(format!("unknown built-in {:?}", words[0])),
            };
            let name = name.unwrap_or_else(|| "clairvoyant".to_string());
            check_name(&name)?;
            search_config(&words[1..])?;
            return Ok(Bot {
                name,
                kind: BotKind::Clairvoyant(mask, words.split_off(1)),
            });
        }
        if let Some(s) = words[0].strip_prefix("builtin:") {
            let strategy = Strategy::parse(s).map_err(|e| e.to_string())?;
            let name = name.unwrap_or_else(|| strategy.name().to_string());
            check_name(&name)?;
            if strategy != Strategy::Search && words.len() > 1 {
                return Err(format!(
                    "{} takes no settings (only builtin:search and builtin:clairvoyant do), got {:?}",
                    words[0], words[1]
                ));
            }
            search_config(&words[1..])?;
            return Ok(Bot {
                name,
                kind: BotKind::Builtin(strategy, words.split_off(1)),
            });
        }
        let p = Path::new(&words[0]);
        if p.is_relative() && words[0].contains('/') {
            if let Ok(abs) = std::fs::canonicalize(p) {
                words[0] = abs.to_string_lossy().into_owned();
            }
        }
        let default_name = match words.iter().position(|w| w == "--strategy") {
            Some(i) if i + 1 < words.len() => words[i + 1].clone(),
            _ => Path::new(&words[0])
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_else(|| "bot".into()),
        };
        let name = name.unwrap_or(default_name);
        check_name(&name)?;
        Ok(Bot {
            name,
            kind: BotKind::Process(words),
        })
    }
}

/// The search settings `KEY=VALUE` applied to the default ([`SearchConfig::set`]).
///
/// # Errors
/// The one-line message of the first setting refused.
fn search_config(settings: &[String]) -> Result<SearchConfig, String> {
    let mut config = SearchConfig::default();
    for kv in settings {
        config.set(kv).map_err(|e| e.to_string())?;
    }
    Ok(config)
}

/// The longest bot name, in bytes: a game's history file is named
/// `FIRST_SECOND_ROUND_GAME.txt`, and a file name has at most 255 bytes.
pub const MAX_NAME_BYTES: usize = 100;

/// A bot name must be one plain folder and file-name part, short enough
/// for two of them in a history file's name ([`MAX_NAME_BYTES`]).
fn check_name(name: &str) -> Result<(), String> {
    if name.is_empty() || name == "." || name == ".." || name.contains(['/', '\0']) {
        return Err(format!(
            "bot name {} cannot be a folder name (no '/', not empty, '.' or '..'); name it NAME=COMMAND",
            crate::child::quote(name.as_bytes())
        ));
    }
    if name.len() > MAX_NAME_BYTES {
        let head: String = name.chars().take(20).collect();
        return Err(format!(
            "bot name {}... has {} bytes, more than {MAX_NAME_BYTES} (it names the history files); name it NAME=COMMAND",
            crate::child::quote(head.as_bytes()),
            name.len()
        ));
    }
    Ok(())
}

/// One call of a traced game ([`play_game_traced`]): what the seat was
/// shown and what it answered, for replay pages.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Turn {
    /// Seat called (0 = the game's first player).
    pub seat: usize,
    /// Coins of seats 0 and 1 before the answer.
    pub coins: [i64; 2],
    /// Cards each seat held before the answer, as command-line card codes
    /// (`docs/rules/coup.md` §3: `~ ^ * ! $`).
    pub hands: [String; 2],
    /// On the call completing an Exchange: the cards offered (the two drawn
    /// first, then the hand).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub offered: Option<String>,
    /// The legal answers offered, in the arbiter's order.
    pub legal: Vec<String>,
    /// What the call appended to the history file; empty when the call
    /// forfeited the game.
    pub answer: String,
    /// On the call completing an Exchange: the hand the seat kept.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub kept: Option<String>,
    /// Wall time of the call, nanoseconds.
    pub ns: u64,
}

/// One game's result, in bot indices.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct GameRecord {
    /// Round number.
    pub round: usize,
    /// Game number within the round.
    pub game: usize,
    /// Bot in seat 0 (moves first).
    pub first: usize,
    /// Bot in seat 1.
    pub second: usize,
    /// The winner's index; `None` for a draw.
    pub winner: Option<usize>,
    /// Forfeiting bot and the reason, if any.
    pub forfeit: Option<(usize, String)>,
    /// Calls made.
    pub calls: usize,
    /// The game's seed.
    pub seed: u64,
    /// Time spent in each seat's calls, nanoseconds, and their count.
    pub call_ns: [(u64, u64); 2],
    /// Longest single call of each seat, nanoseconds.
    pub max_call_ns: [u64; 2],
    /// The final history text.
    pub history: String,
    /// Every call, when the game was traced ([`play_game_traced`]); empty
    /// (and absent from the JSON) otherwise.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub turns: Vec<Turn>,
}

impl GameRecord {
    /// The record of a game not played yet: game `game` of round `round`, bot `first` in
    /// seat 0 and `second` in seat 1, dealt from `seed`.
    pub fn new(round: usize, game: usize, first: usize, second: usize, seed: u64) -> GameRecord {
        GameRecord {
            round,
            game,
            first,
            second,
            winner: None,
            forfeit: None,
            calls: 0,
            seed,
            call_ns: [(0, 0); 2],
            max_call_ns: [0; 2],
            history: String::new(),
            turns: Vec::new(),
        }
    }
}

/// Tournament settings.
#[derive(Debug, Clone)]
pub struct Settings {
    /// Rounds; each plays every ordered pair once.
    pub rounds: usize,
    /// Master seed.
    pub seed: u64,
    /// Keep the original's quirks (no reset after a draw, fixed first-turn
    /// list, lax append check); forces games to run in order.
    pub quirks: bool,
    /// Folder for games' history files and bots' folders. Its last component
    /// must be a real folder, not a symbolic link (`coup-arbiter` passes the
    /// canonical path): the arbiter follows nothing a bot may have planted, so
    /// a link there is taken for a bot's and replaced by a fresh folder.
    pub work_dir: PathBuf,
    /// Keep bots' stderr (else discarded).
    pub show_stderr: bool,
    /// Time limit of one call; a bot over it is killed (its whole process
    /// group) and forfeits the game.
    pub timeout: Duration,
    /// Run each bot in `work_dir/bots/<name>`, kept across games as the
    /// original arbiter does (a bot may remember its opponents there), and
    /// keep every game's history file in `work_dir/games`; else a fresh
    /// folder per game for both, removed after it.
    pub keep_bot_dirs: bool,
}

/// The folder of a game's history file: with [`Settings::keep_bot_dirs`]
/// `work_dir/games`, where every game's file stays after the game, as the
/// original arbiter keeps them (a bot may read how its earlier games
/// ended: `coup-bot`'s portfolio does); else the game's own folder,
/// removed after it.
fn history_dir(settings: &Settings, game_dir: &Path) -> PathBuf {
    if settings.keep_bot_dirs {
        settings.work_dir.join("games")
    } else {
        game_dir.to_path_buf()
    }
}

/// The folder a bot runs in: kept across games under `work_dir/bots/<name>`
/// with [`Settings::keep_bot_dirs`], else inside the game's own folder.
fn bot_dir(settings: &Settings, game_dir: &Path, name: &str) -> PathBuf {
    if settings.keep_bot_dirs {
        settings.work_dir.join("bots").join(name)
    } else {
        game_dir.join(name)
    }
}

/// The per-game seed: the master seed mixed with the game's position.
pub fn game_seed(seed: u64, round: usize, game: usize) -> u64 {
    let mut x = seed
        ^ (round as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ (game as u64).wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
    x ^= x >> 31;
    x = x.wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x ^ (x >> 29)
}

/// The schedule: (round, game, first, second) for every ordered pair, in the
/// original's order (`itertools.permutations`).
pub fn schedule(n_bots: usize, rounds: usize) -> Vec<(usize, usize, usize, usize)> {
    let mut v = Vec::new();
    for r in 0..rounds {
        let mut g = 0;
        for i in 0..n_bots {
            for j in 0..n_bots {
                if i != j {
                    v.push((r, g, i, j));
                    g += 1;
                }
            }
        }
    }
    v
}

/// State the original arbiter carries from game to game (its `Player`
/// objects and global deck): every bot's coins, reset to 1 only for the two
/// players of a game that had a winner, and the deck, rebuilt only after a
/// game with a winner (after a draw the next game deals from what is left).
#[derive(Debug, Clone)]
pub struct Carry {
    /// The deck a drawn game left; `None` for a fresh shuffled deck.
    pub deck: Option<Vec<crate::coup::game::character::Character>>,
    /// Coins of every bot, by bot index.
    pub coins: Vec<i64>,
}

/// Plays one game. Under the quirks, `carry` gives the coins and deck to
/// start from, and the state to carry on is returned; otherwise every game
/// starts fresh and `None` is returned.
pub fn play_game(
    bots: &[Bot],
    first: usize,
    second: usize,
    round: usize,
    game: usize,
    settings: &Settings,
    carry: Option<&Carry>,
) -> (GameRecord, Option<Carry>) {
    play_game_traced(bots, first, second, round, game, settings, carry, false)
}

/// [`play_game`], also recording every call in [`GameRecord::turns`] when
/// `trace` is set (for replay pages; the game itself is the same).
#[allow(clippy::too_many_arguments)]
pub fn play_game_traced(
    bots: &[Bot],
    first: usize,
    second: usize,
    round: usize,
    game: usize,
    settings: &Settings,
    carry: Option<&Carry>,
    trace: bool,
) -> (GameRecord, Option<Carry>) {
    let seed = game_seed(settings.seed, round, game);
    let mut table = match carry {
        Some(c) if settings.quirks => {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            // (The original would crash dealing from fewer than 4 cards; start afresh.)
            let deck = c.deck.clone().filter(|d| d.len() >= 4).unwrap_or_else(|| {
                let mut d = crate::coup::game::character::full_deck();
                d.shuffle(&mut rng);
                d
            });
            let coin = |i: usize| c.coins.get(i).copied().unwrap_or(1);
            Table::with_deck(deck, [coin(first), coin(second)], true, rng)
        }
        _ => Table::new(seed, settings.quirks),
    };
    let ids = [first, second];
    let names = [&bots[first].name, &bots[second].name];
    let game_dir = settings.work_dir.join(format!("r{round}_g{game}"));
    let histories = history_dir(settings, &game_dir);
    let file = histories.join(format!("{}_{}_{}_{}.txt", names[0], names[1], round, game));
    let mut record = GameRecord::new(round, game, first, second, seed);
    let uses_files = ids
        .iter()
        .any(|&i| matches!(bots[i].kind, BotKind::Process(_)));
    if uses_files {
        if let Err((seat, reason, its_own)) =
            set_up_files(settings, &game_dir, &histories, &file, names)
        {
            record.forfeit = Some((ids[seat], reason));
            // (A bot that ruined its own folder loses; the arbiter's own failure names no winner.)
            record.winner = its_own.then_some(ids[1 - seat]);
            let _ = remove_entry(&game_dir);
            return (record, None);
        }
    }
    // The in-process seats' search settings, read once a game (checked when the bots were
    // parsed).
    let configs = ids.map(|i| match &bots[i].kind {
        BotKind::Builtin(_, words) | BotKind::Clairvoyant(_, words) => {
            search_config(words).unwrap_or_default()
        }
        BotKind::Process(_) => SearchConfig::default(),
    });
    let outcome = loop {
        let call = match table.next_call() {
            Ok(c) => c,
            Err(o) => break o,
        };
        let bot = &bots[ids[call.seat]];
        let before = trace.then(|| {
            (
                table.history.len(),
                [table.coins(0), table.coins(1)],
                [format_hand(&table.cards(0)), format_hand(&table.cards(1))],
                record.call_ns[call.seat].0,
            )
        });
        let start = Instant::now();
        let result = match &bot.kind {
            BotKind::Builtin(..) | BotKind::Clairvoyant(..) => {
                let strategy = match bot.kind {
                    BotKind::Builtin(s, _) => Some(s),
                    BotKind::Clairvoyant(mask, _)
                        if mask & crate::coup::measure::decision_kind(&call.legal) == 0 =>
                    {
                        Some(Strategy::Search)
                    }
                    _ => None,
                };
                let config = &configs[call.seat];
                let cards = format_hand(&call.cards);
                let view = View {
                    history: &table.history,
                    opp_coins: call.opp_coins,
                    my_coins: call.my_coins,
                    cards: &cards,
                    legal: &call.legal,
                };
                let d = match strategy {
                    Some(strategy) => {
                        let config = Config {
                            strategy,
                            search: *config,
                        };
                        decide(&view, Remembered::Nothing, &config)
                    }
                    None => clairvoyant(&view, &table.cards(1 - call.seat), config),
                };
                let stdout = d.exchange_keep.unwrap_or_default();
                let ns = start.elapsed().as_nanos() as u64;
                account(&mut record, call.seat, ns);
                if uses_files {
                    let _ = fresh_file(&file, &format!("{}{}", table.history, d.answer));
                }
                table.play(&call, &d.answer, &stdout)
            }
            BotKind::Process(cmd) => match run_process(
                cmd,
                &file,
                &bot_dir(settings, &game_dir, names[call.seat]),
                &call,
                settings,
            ) {
                Err(reason) => {
                    account(&mut record, call.seat, start.elapsed().as_nanos() as u64);
                    Some(Outcome::Forfeit {
                        loser: call.seat,
                        reason,
                    })
                }
                Ok(stdout) => {
                    account(&mut record, call.seat, start.elapsed().as_nanos() as u64);
                    match read_history(&file) {
                        Ok(text) => table.apply_file(&call, &text, &stdout),
                        Err(reason) => Some(Outcome::Forfeit {
                            loser: call.seat,
                            reason,
                        }),
                    }
                }
            },
        };
        if let Some((len, coins, hands, ns_before)) = before {
            let answer = if result
                .as_ref()
                .is_some_and(|o| matches!(o, Outcome::Forfeit { loser, .. } if *loser == call.seat))
            {
                String::new()
            } else {
                table.history.get(len..).unwrap_or("").to_string()
            };
            record.turns.push(Turn {
                seat: call.seat,
                coins,
                hands,
                offered: call.exchange.then(|| format_hand(&call.cards)),
                legal: call.legal.clone(),
                kept: (call.exchange && !answer.is_empty())
                    .then(|| format_hand(&table.cards(call.seat))),
                answer,
                ns: record.call_ns[call.seat].0 - ns_before,
            });
        }
        if let Some(o) = result {
            break o;
        }
    };
    record.calls = table.calls();
    record.history = table.history.clone();
    let drawn = outcome == Outcome::Draw;
    match outcome {
        Outcome::Win { winner } => record.winner = Some(ids[winner]),
        Outcome::Forfeit { loser, reason } => {
            record.winner = Some(ids[1 - loser]);
            record.forfeit = Some((ids[loser], reason));
        }
        Outcome::Draw => {}
    }
    let next = settings.quirks.then(|| {
        let mut coins = carry
            .map(|c| c.coins.clone())
            .unwrap_or_else(|| vec![1; bots.len()]);
        if drawn {
            coins[first] = table.coins(0);
            coins[second] = table.coins(1);
            Carry {
                deck: Some(table.deck()),
                coins,
            }
        } else {
            coins[first] = 1;
            coins[second] = 1;
            Carry { deck: None, coins }
        }
    });
    if uses_files {
        if settings.keep_bot_dirs
            && !std::fs::symlink_metadata(&file).is_ok_and(|m| m.file_type().is_file())
        {
            // The kept file is read by bots in later games: a FIFO, link or folder a bot
            // left in its place gives way to the game's history.
            let _ = fresh_file(&file, &record.history);
        }
        let _ = remove_entry(&game_dir);
    }
    (record, next)
}

fn account(r: &mut GameRecord, seat: usize, ns: u64) {
    r.call_ns[seat].0 += ns;
    r.call_ns[seat].1 += 1;
    r.max_call_ns[seat] = r.max_call_ns[seat].max(ns);
}

/// Runs one external call with the original's arguments in the bot's folder,
/// in its own process group (killed whole after the call), at most
/// [`Settings::timeout`] and [`MAX_CALL_OUTPUT`] bytes of stdout; returns its
/// stdout, or the forfeit reason.
fn run_process(
    cmd: &[String],
    file: &Path,
    dir: &Path,
    call: &Call,
    settings: &Settings,
) -> Result<String, String> {
    let run = Spec::new(&cmd[0])
        .args(&cmd[1..])
        .arg(file)
        .arg(call.opp_coins.to_string())
        .arg(call.my_coins.to_string())
        .arg(format_hand(&call.cards))
        .args(&call.legal)
        .current_dir(dir)
        .stderr(if settings.show_stderr {
            Stderr::Inherit
        } else {
            Stderr::Null
        })
        .limits(Limits {
            max_line: MAX_CALL_OUTPUT as usize,
            max_output: MAX_CALL_OUTPUT,
            ..Limits::default()
        })
        .run(settings.timeout)
        .map_err(|e| format!("cannot run {}: {e}", child::quote(cmd[0].as_bytes())))?;
    match (&run.fault, run.status) {
        (Some(Fault::Timeout(t)), _) => {
            return Err(format!("no answer within {} ms (killed)", t.as_millis()))
        }
        (Some(f), _) => return Err(format!("{f} (killed)")),
        (None, Some(s)) if !s.success() => {
            return Err(format!("non-zero exit status ({s})"));
        }
        (None, None) => return Err("killed".into()),
        (None, Some(_)) => {}
    }
    Ok(String::from_utf8_lossy(&run.stdout).into_owned())
}

/// The history file after a call, as text; the forfeit reason when it is
/// gone, no longer a regular file (a bot replaced it with a FIFO, a
/// directory, a symbolic link...), not UTF-8, or over [`MAX_HISTORY`] bytes
/// (not read whole then). Never blocks and never follows a link: opened with
/// `O_NOFOLLOW | O_NONBLOCK`, and checked to be a regular file before it is read.
fn read_history(file: &Path) -> Result<String, String> {
    use std::io::Read;
    use std::os::unix::fs::OpenOptionsExt;
    let flags = (nix::fcntl::OFlag::O_NOFOLLOW | nix::fcntl::OFlag::O_NONBLOCK).bits();
    let f = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(flags)
        .open(file)
        .map_err(|e| match std::fs::symlink_metadata(file) {
            // (O_NOFOLLOW fails on a link; a socket cannot be opened at all.)
            Ok(m) if !m.is_file() => not_a_file(&m.file_type()),
            _ => format!("history file unreadable after the call: {e}"),
        })?;
    let meta = f
        .metadata()
        .map_err(|e| format!("history file unreadable after the call: {e}"))?;
    if !meta.is_file() {
        return Err(not_a_file(&meta.file_type()));
    }
    let mut bytes = Vec::new();
    f.take(MAX_HISTORY + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("history file unreadable after the call: {e}"))?;
    if bytes.len() as u64 > MAX_HISTORY {
        return Err(format!(
            "history file grew over {MAX_HISTORY} bytes after the call"
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let bytes = e.into_bytes();
        format!(
            "history file is not UTF-8 after the call (at byte {at}: {})",
            child::quote(&bytes[at..])
        )
    })
}

/// The forfeit reason of a history file that is no longer a regular file.
fn not_a_file(kind: &std::fs::FileType) -> String {
    if kind.is_symlink() {
        "history file replaced by a symbolic link after the call".into()
    } else {
        format!(
            "history file is no longer a regular file ({}) after the call",
            kind_name(kind)
        )
    }
}

/// What a file-system entry is, in words: "a FIFO", "a directory"...
fn kind_name(kind: &std::fs::FileType) -> &'static str {
    use std::os::unix::fs::FileTypeExt;
    if kind.is_dir() {
        "a directory"
    } else if kind.is_symlink() {
        "a symbolic link"
    } else if kind.is_fifo() {
        "a FIFO"
    } else if kind.is_socket() {
        "a socket"
    } else if kind.is_block_device() || kind.is_char_device() {
        "a device"
    } else if kind.is_file() {
        "a file"
    } else {
        "not a file"
    }
}

/// How often the arbiter removes an entry planted where it creates one of
/// its own before giving up: only a bot running at the same time (another
/// game, `-j` over 1) can plant it again in between.
const SETUP_TRIES: usize = 5;

/// Removes whatever is at `path` without following a symbolic link: a
/// directory with its contents, anything else (file, link, FIFO, socket)
/// by unlinking it. Nothing there is fine.
fn remove_entry(path: &Path) -> std::io::Result<()> {
    let gone = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e),
        // (remove_dir_all does not follow links, inside the folder either.)
        Ok(m) if m.is_dir() => std::fs::remove_dir_all(path),
        Ok(_) => std::fs::remove_file(path),
    };
    match gone {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        r => r,
    }
}

/// Makes `path`, a folder the arbiter owns, a real directory: kept when it is
/// one (unless `fresh`, then emptied); anything else there, planted by a bot
/// (a file, a link, a FIFO), is removed without following it and the folder
/// created.
fn own_dir(path: &Path, fresh: bool) -> std::io::Result<()> {
    let mut tries = 0;
    loop {
        match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_dir() && !fresh => return Ok(()),
            Ok(_) => remove_entry(path)?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(e),
        }
        match std::fs::create_dir(path) {
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < SETUP_TRIES => {
                tries += 1;
            }
            r => return r,
        }
    }
}

/// Writes `text` to `path` as a new file: whatever is there (the last call's
/// file, or a FIFO or link a bot planted) is removed without following it,
/// and the file is created exclusively (`O_CREAT | O_EXCL`: an entry planted
/// in between fails the creation instead of being followed or blocking).
fn fresh_file(path: &Path, text: &str) -> std::io::Result<()> {
    use std::io::Write;
    let mut tries = 0;
    loop {
        remove_entry(path)?;
        match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .open(path)
        {
            Ok(mut f) => return f.write_all(text.as_bytes()),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && tries < SETUP_TRIES => {
                tries += 1;
            }
            Err(e) => return Err(e),
        }
    }
}

/// Prepares a game's files: the work folder, the game's own folder (fresh),
/// the history folder and an empty history file, then each bot's folder.
/// Entries the arbiter owns that a bot planted are removed and recreated,
/// never followed. A bot's own folder that cannot be made a folder (it
/// replaced it with a file, with `keep_bot_dirs`) is that bot's forfeit:
/// `Err((seat, reason, true))`, the reason naming the path. Were the arbiter's
/// own entries still impossible to create (an unusable work folder, or a bot
/// of a game running alongside planting them again and again), the seat first
/// to move is charged, as nothing better is known: `Err((0, reason, false))`.
fn set_up_files(
    settings: &Settings,
    game_dir: &Path,
    histories: &Path,
    file: &Path,
    names: [&String; 2],
) -> Result<(), (usize, String, bool)> {
    let arbiter = |path: &Path, e: std::io::Error| {
        (
            0,
            format!("arbiter could not create {}: {e}", path.display()),
            false,
        )
    };
    if let Some(parent) = settings.work_dir.parent() {
        std::fs::create_dir_all(parent).map_err(|e| arbiter(parent, e))?;
    }
    own_dir(&settings.work_dir, false).map_err(|e| arbiter(&settings.work_dir, e))?;
    own_dir(game_dir, true).map_err(|e| arbiter(game_dir, e))?;
    if settings.keep_bot_dirs {
        own_dir(histories, false).map_err(|e| arbiter(histories, e))?;
        let bots = settings.work_dir.join("bots");
        own_dir(&bots, false).map_err(|e| arbiter(&bots, e))?;
    }
    fresh_file(file, "").map_err(|e| arbiter(file, e))?;
    for (seat, name) in names.iter().enumerate() {
        let dir = bot_dir(settings, game_dir, name);
        std::fs::create_dir_all(&dir).map_err(|e| {
            (
                seat,
                format!("could not create its folder {}: {e}", dir.display()),
                true,
            )
        })?;
    }
    Ok(())
}

/// One bot's line in the standings.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Standing {
    /// Bot name.
    pub name: String,
    /// Games won (one point each).
    pub wins: u32,
    /// Games lost (forfeits included).
    pub losses: u32,
    /// Drawn games (both lose).
    pub draws: u32,
    /// Games this bot forfeited.
    pub forfeits: u32,
    /// Games played.
    pub games: u32,
    /// Mean call time, microseconds.
    pub mean_call_us: f64,
    /// Longest call, microseconds.
    pub max_call_us: f64,
    /// Calls made.
    pub calls: u64,
}

/// Head-to-head between two bots.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Pairing {
    /// Row bot.
    pub bot: String,
    /// Column bot.
    pub opponent: String,
    /// Wins of the row bot over the column bot.
    pub wins: u32,
    /// Games between them.
    pub games: u32,
    /// Win rate of the row bot.
    pub rate: f64,
    /// 95% Wilson interval of the rate.
    pub ci95: (f64, f64),
}

/// A tournament's summary.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Report {
    /// Master seed.
    pub seed: u64,
    /// Rounds played.
    pub rounds: usize,
    /// Whether the original quirks were on.
    pub original_quirks: bool,
    /// Standings, best first (by wins).
    pub standings: Vec<Standing>,
    /// All ordered pairs of distinct bots.
    pub matrix: Vec<Pairing>,
    /// Every forfeit: (game, round, bot, reason).
    pub forfeits: Vec<(usize, usize, String, String)>,
}

/// Summarises game records.
pub fn summarize(bots: &[Bot], games: &[GameRecord], settings: &Settings) -> Report {
    let n = bots.len();
    let mut st: Vec<Standing> = bots
        .iter()
        .map(|b| Standing {
            name: b.name.clone(),
            wins: 0,
            losses: 0,
            draws: 0,
            forfeits: 0,
            games: 0,
            mean_call_us: 0.0,
            max_call_us: 0.0,
            calls: 0,
        })
        .collect();
    let mut ns = vec![0u64; n];
    let mut wins = vec![vec![0u32; n]; n];
    let mut played = vec![vec![0u32; n]; n];
    let mut forfeits = Vec::new();
    for g in games {
        let ids = [g.first, g.second];
        for (seat, &b) in ids.iter().enumerate() {
            st[b].games += 1;
            ns[b] += g.call_ns[seat].0;
            st[b].calls += g.call_ns[seat].1;
            st[b].max_call_us = st[b].max_call_us.max(g.max_call_ns[seat] as f64 / 1000.0);
            match g.winner {
                Some(w) if w == b => st[b].wins += 1,
                Some(_) => st[b].losses += 1,
                None => st[b].draws += 1,
            }
        }
        played[g.first][g.second] += 1;
        played[g.second][g.first] += 1;
        if let Some(w) = g.winner {
            let l = if w == g.first { g.second } else { g.first };
            wins[w][l] += 1;
        }
        if let Some((b, reason)) = &g.forfeit {
            st[*b].forfeits += 1;
            forfeits.push((g.game, g.round, bots[*b].name.clone(), reason.clone()));
        }
    }
    for (s, t) in st.iter_mut().zip(&ns) {
        s.mean_call_us = if s.calls > 0 {
            *t as f64 / s.calls as f64 / 1000.0
        } else {
            0.0
        };
    }
    let mut matrix = Vec::new();
    for i in 0..n {
        for j in 0..n {
            if i != j {
                let (w, g) = (wins[i][j], played[i][j]);
                matrix.push(Pairing {
                    bot: bots[i].name.clone(),
                    opponent: bots[j].name.clone(),
                    wins: w,
                    games: g,
                    rate: if g > 0 { w as f64 / g as f64 } else { 0.0 },
                    ci95: crate::stats::wilson95(w.into(), g.into()),
                });
            }
        }
    }
    st.sort_by(|a, b| b.wins.cmp(&a.wins).then(a.name.cmp(&b.name)));
    Report {
        seed: settings.seed,
        rounds: settings.rounds,
        original_quirks: settings.quirks,
        standings: st,
        matrix,
        forfeits,
    }
}

/// Formats the standings and the head-to-head matrix as text tables.
pub fn format_report(r: &Report, bots: &[Bot]) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "seed {}  rounds {}  original quirks {}\n\n",
        r.seed, r.rounds, r.original_quirks
    ));
    s.push_str(&format!(
        "{:<4} {:<14} {:>6} {:>6} {:>6} {:>6} {:>8} {:>10} {:>10}\n",
        "#", "bot", "wins", "losses", "draws", "forf.", "games", "mean call", "max call"
    ));
    for (i, b) in r.standings.iter().enumerate() {
        s.push_str(&format!(
            "{:<4} {:<14} {:>6} {:>6} {:>6} {:>6} {:>8} {:>8.0}us {:>8.0}us\n",
            i + 1,
            b.name,
            b.wins,
            b.losses,
            b.draws,
            b.forfeits,
            b.games,
            b.mean_call_us,
            b.max_call_us
        ));
    }
    s.push_str("\nhead to head: row's win rate against column [95% interval]\n");
    let w = 22;
    s.push_str(&format!("{:<14}", ""));
    for b in bots {
        s.push_str(&format!("{:>w$}", b.name));
    }
    s.push('\n');
    for a in bots {
        s.push_str(&format!("{:<14}", a.name));
        for b in bots {
            let cell = r
                .matrix
                .iter()
                .find(|p| p.bot == a.name && p.opponent == b.name && p.games > 0)
                .map(|p| format!("{:.2} [{:.2},{:.2}]", p.rate, p.ci95.0, p.ci95.1))
                .unwrap_or_else(|| "-".into());
            s.push_str(&format!("{:>w$}", cell));
        }
        s.push('\n');
    }
    if !r.forfeits.is_empty() {
        s.push_str(&format!("\nforfeits ({}):\n", r.forfeits.len()));
        for (g, round, b, reason) in r.forfeits.iter().take(20) {
            s.push_str(&format!("  round {round} game {g}: {b}: {reason}\n"));
        }
    }
    s
}

/// The clairvoyant bound's decision ([`BotKind::Clairvoyant`]).
#[cfg(feature = "measure")]
fn clairvoyant(view: &View, opp_hand: &[Character], config: &SearchConfig) -> Decision {
    crate::coup::bot::decide_clairvoyant(view, opp_hand, config)
}

/// Without the `measure` feature no clairvoyant bot is parsed
/// ([`Bot::parse`] refuses it); the honest search, should one be built by hand.
#[cfg(not(feature = "measure"))]
fn clairvoyant(view: &View, _opp_hand: &[Character], config: &SearchConfig) -> Decision {
    let config = Config {
        strategy: Strategy::Search,
        search: *config,
    };
    decide(view, Remembered::Nothing, &config)
}
