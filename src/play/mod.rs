//! A person against the bots (`cardgames-play`, `docs/play.md`): Coup, Durak and Ioiwari
//! played on the servers' engines with the servers' bot decisions, in a terminal or in a
//! browser on the loopback interface, and saved in the servers' JSON so that their `report`
//! draws the game like any tournament game.
//!
//! - [`coup`], [`durak`], [`ioiwari`]: one game each, over its engine
//!   ([`crate::coup::game::rules::Table`], the Durak referee
//!   [`crate::durak::referee::play_game_with`], [`crate::ioiwari::Game`]), asking the person
//!   through a [`Front`] and the bots through [`bots`].
//! - [`bots`]: the one adapter between this module and the bots' decision entries.
//! - [`terminal`], [`web`]: the two fronts.
//!
//! A game never holds a rule of its own: the legal choices it offers are the engine's, each
//! named in words; the person's choice goes back to the engine as its protocol code.

pub mod bots;
pub mod coup;
pub mod durak;
pub mod ioiwari;
pub mod terminal;
pub mod web;

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};

use serde::Serialize;

pub use crate::report::model::Chip;

/// The three games.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GameKind {
    /// Coup, two players, against `coup-bot`'s strategies (`docs/rules/coup.md`).
    Coup,
    /// Durak 2 vs 2: the person, a bot partner and two bot opponents (`docs/rules/durak.md`).
    Durak,
    /// Ioiwari against the optimal player (`docs/rules/ioiwari.md`).
    Ioiwari,
}

impl GameKind {
    /// The game's name as the command line writes it.
    pub fn name(self) -> &'static str {
        match self {
            GameKind::Coup => "coup",
            GameKind::Durak => "durak",
            GameKind::Ioiwari => "ioiwari",
        }
    }

    /// The server program whose `report RUN --html OUT` draws a saved game.
    pub fn server(self) -> &'static str {
        match self {
            GameKind::Coup => "coup-arbiter",
            GameKind::Durak => "durak-server",
            GameKind::Ioiwari => "ioiwari-referee",
        }
    }

    /// The seats the person may take (1-based): Coup 1 (moves first) or 2, Durak 1 to 4,
    /// Ioiwari player 1 or 2.
    pub fn seats(self) -> usize {
        match self {
            GameKind::Durak => 4,
            _ => 2,
        }
    }
}

/// What `cardgames-play` was asked.
#[derive(Debug, Clone)]
pub struct Options {
    /// The game.
    pub game: GameKind,
    /// The game's seed (the deal, and every bot's randomness).
    pub seed: u64,
    /// The person's seat, 1-based (see [`GameKind::seats`]).
    pub seat: usize,
    /// `KEY=VALUE` settings passed to the bots (see each game's module).
    pub bot: Vec<String>,
    /// Show after each bot move why it chose it.
    pub explain: bool,
    /// Where the game is saved (the server's JSON); the replay pages go beside it.
    pub save: PathBuf,
}

/// Everything the person may see at a decision, for either front: facts (coins, trump,
/// talon...), zones of cards (their own hand face up, the others' as backs or revealed), and
/// what is asked.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Screen {
    /// The game's title (`Coup, seed 7`).
    pub title: String,
    /// Labelled values: coins, trump, talon, whose turn.
    pub facts: Vec<(String, String)>,
    /// Rows of cards, the person's own first.
    pub zones: Vec<Zone>,
    /// What the person is asked now (`The bot claims Duke (Tax): your answer`).
    pub asked: String,
}

/// A row of cards on the screen.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Zone {
    /// Whose or what (`Your hand`, `Player 3 (partner, bot)`, `Table`).
    pub name: String,
    /// The cards, as the reports draw them (a hidden card is a chip of class `back`).
    pub cards: Vec<Chip>,
    /// A line under the cards (`5 cards; known: 7♠`).
    pub note: String,
    /// Whether the zone is the person's own.
    pub mine: bool,
}

/// A legal move offered to the person.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Choice {
    /// What may be typed for it besides its number: the protocol's code (`T`, `7S`, `3`;
    /// Coup's line end written `.`).
    pub code: String,
    /// The move in words (`block, claiming Contessa`).
    pub words: String,
}

/// Something that happened, as the person is told it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Told {
    /// Who moved (`Bot`, `You`, `Player 3`); empty for the game itself.
    pub who: String,
    /// The move in words.
    pub text: String,
    /// Why the bot chose it (with `--explain`); empty otherwise.
    pub why: String,
}

/// How a game ended, for the fronts.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Ending {
    /// The last screen (all cards as the person saw them at the end).
    pub screen: Screen,
    /// The result in words (`You win`, `Team B wins`...).
    pub result: String,
    /// Whether the person left before the end (the game is saved as their forfeit).
    pub left: bool,
    /// The saved JSON.
    pub saved: PathBuf,
    /// The game's replay page, written by the report the server writes.
    pub replay: PathBuf,
    /// The command that draws the saved game again.
    pub report_command: String,
}

/// A front the game talks to: tells the person what happens and asks for their moves.
pub trait Front {
    /// A move (a bot's, the person's, the game's) as it happens.
    fn told(&mut self, told: Told);
    /// Shows `screen` and asks for one of `choices` (never empty); the index chosen, or
    /// `None` when the person left (end of input, Ctrl-C, closed terminal).
    fn choose(&mut self, screen: &Screen, choices: &[Choice]) -> Option<usize>;
    /// The game is over and saved.
    fn finished(&mut self, ending: &Ending);
}

/// Set once the person asked to stop (Ctrl-C, SIGTERM, SIGHUP): the fronts' waits poll it
/// and end the game as the person's leaving.
static LEAVING: AtomicBool = AtomicBool::new(false);

/// Whether the person asked to stop ([`install_interrupt`]).
pub fn leaving() -> bool {
    LEAVING.load(Ordering::SeqCst)
}

/// Makes Ctrl-C, SIGTERM and SIGHUP (a closed terminal) end the game as the person's leaving:
/// the game is saved as it stands. A second signal exits at once (status 130).
///
/// # Errors
/// A one-line message when the handler cannot be installed.
pub fn install_interrupt() -> Result<(), String> {
    ctrlc::set_handler(|| {
        if LEAVING.swap(true, Ordering::SeqCst) {
            std::process::exit(130);
        }
    })
    .map_err(|e| format!("cannot handle Ctrl-C: {e}"))
}

/// The default save path: `cardgames-play-GAME-SEED.json` in the current folder.
pub fn default_save(game: GameKind, seed: u64) -> PathBuf {
    PathBuf::from(format!("cardgames-play-{}-{seed}.json", game.name()))
}

/// The report page written beside a saved game: `FILE` with `.html`.
pub fn report_path(saved: &Path) -> PathBuf {
    saved.with_extension("html")
}

/// Plays the game `opts` asks for through `front`, saves it, writes its report (and replay
/// page) beside it, and tells the front how it ended.
///
/// # Errors
/// A one-line message: a bad `--bot` setting or seat, or a file that cannot be written.
pub fn play(opts: &Options, front: &mut dyn Front) -> Result<Ending, String> {
    check(opts)?;
    let played = match opts.game {
        GameKind::Coup => coup::play(opts, front)?,
        GameKind::Durak => durak::play(opts, front)?,
        GameKind::Ioiwari => ioiwari::play(opts, front)?,
    };
    let report = report_path(&opts.save);
    std::fs::write(&opts.save, played.json + "\n")
        .map_err(|e| format!("cannot write {}: {e}", opts.save.display()))?;
    (played.write_html)(&report)?;
    let replay = crate::report::render::replay_dir(&report)
        .join(crate::report::render::replay_file(played.index));
    let ending = Ending {
        screen: played.screen,
        result: played.result,
        left: played.left,
        saved: opts.save.clone(),
        replay,
        report_command: format!(
            "{} report {} --html {}",
            opts.game.server(),
            opts.save.display(),
            report.display()
        ),
    };
    front.finished(&ending);
    Ok(ending)
}

/// Checks the seat and the `--bot` settings before a game starts.
///
/// # Errors
/// A one-line message naming the bad seat or setting.
pub fn check(opts: &Options) -> Result<(), String> {
    if opts.seat == 0 || opts.seat > opts.game.seats() {
        return Err(format!(
            "--seat must be 1 to {} for {}, got {}",
            opts.game.seats(),
            opts.game.name(),
            opts.seat
        ));
    }
    match opts.game {
        GameKind::Coup => bots::CoupBot::new(&opts.bot).map(drop),
        GameKind::Durak => bots::DurakBots::new(&opts.bot).map(drop),
        GameKind::Ioiwari => bots::IoiwariBot::new(&opts.bot, opts.seed).map(drop),
    }
}

/// Writes a saved game's report at a path (the server's `report` call on the run).
pub type WriteHtml = Box<dyn Fn(&Path) -> Result<(), String>>;

/// A finished (or left) game, as a game module hands it back to [`play`].
pub struct Played {
    /// The server's JSON document.
    pub json: String,
    /// Writes the server's report of it (the same call the server's `report` makes).
    pub write_html: WriteHtml,
    /// The game's index in the run (its replay page's number).
    pub index: usize,
    /// The last screen.
    pub screen: Screen,
    /// The result in words.
    pub result: String,
    /// Whether the person left before the end.
    pub left: bool,
}

/// Splits the `--bot` settings into the strategy (`strategy=NAME`, or `default`) and the
/// rest, in order.
pub fn strategy_of<'a>(settings: &'a [String], default: &'a str) -> (&'a str, Vec<&'a str>) {
    let mut strategy = default;
    let mut rest = Vec::new();
    for kv in settings {
        match kv.split_once('=') {
            Some(("strategy", v)) => strategy = v,
            _ => rest.push(kv.as_str()),
        }
    }
    (strategy, rest)
}

/// A hidden card, drawn as a card's back.
pub fn back() -> Chip {
    Chip {
        text: "?".into(),
        class: "back".into(),
        title: "a card face down".into(),
    }
}

/// The reason a person's leaving is saved with.
pub const LEFT: &str = "the person left the game";
