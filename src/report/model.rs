//! What the pages show, independent of the game: a [`Report`] (standings,
//! head-to-head, learning curves, faults, timing, the list of games) and a
//! [`Replay`] (one game step by step). The game modules fill them from
//! their JSON; [`super::render`] turns them into HTML.

use serde::Serialize;

/// A label and its value (a setting of the run, a fact of a game).
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Fact {
    /// What.
    pub label: String,
    /// Its value, as text.
    pub value: String,
}

impl Fact {
    /// A fact from anything printable.
    pub fn new(label: &str, value: impl ToString) -> Fact {
        Fact {
            label: label.to_string(),
            value: value.to_string(),
        }
    }
}

/// One entrant's line in the standings.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Standing {
    /// Bot, team or player name.
    pub name: String,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn (or capped without a winner).
    pub draws: u64,
    /// Games lost (faults included).
    pub losses: u64,
    /// Games lost by the entrant's own fault (forfeits).
    pub faults: u64,
    /// Win rate, percent.
    pub rate: f64,
    /// 95% Wilson interval of the win rate, percent.
    pub lo: f64,
    /// Upper end of the interval, percent.
    pub hi: f64,
}

impl Standing {
    /// A line from counts; the rate and its interval are computed
    /// ([`crate::stats::wilson95`]).
    pub fn new(name: &str, wins: u64, draws: u64, losses: u64, faults: u64) -> Standing {
        let games = wins + draws + losses;
        let (lo, hi) = crate::stats::wilson95(wins, games);
        Standing {
            name: name.to_string(),
            games,
            wins,
            draws,
            losses,
            faults,
            rate: if games > 0 {
                100.0 * wins as f64 / games as f64
            } else {
                0.0
            },
            lo: 100.0 * lo,
            hi: 100.0 * hi,
        }
    }
}

/// The head-to-head matrix: row entrant's wins against the column entrant.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct HeadToHead {
    /// Entrants, rows and columns in this order.
    pub names: Vec<String>,
    /// `wins[i][j]`: games row `i` won against column `j`.
    pub wins: Vec<Vec<u64>>,
    /// `games[i][j]`: games between `i` and `j` (symmetric).
    pub games: Vec<Vec<u64>>,
}

/// One entrant's results in schedule order, for the learning curve.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    /// Entrant.
    pub name: String,
    /// `true` for each game won, in the order the games were scheduled.
    pub wins: Vec<bool>,
}

/// A game lost by a fault.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct FaultRow {
    /// The game's index in the schedule.
    pub index: usize,
    /// The game's label (e.g. `round 2 game 5`).
    pub game: String,
    /// Who faulted.
    pub who: String,
    /// Why.
    pub reason: String,
    /// Replay page link, filled by [`super::render::write_site`].
    pub href: Option<String>,
}

/// One entrant's timing.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TimingRow {
    /// Entrant (or entrant and kind of answer).
    pub name: String,
    /// Answers timed.
    pub calls: u64,
    /// Mean answer time, milliseconds.
    pub mean_ms: f64,
    /// Slowest answer, milliseconds.
    pub max_ms: f64,
    /// Anything else worth saying (budget share ...).
    pub note: String,
}

/// One game in the report's list.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct GameRow {
    /// Index in the schedule (0-based).
    pub index: usize,
    /// Label (`round 1 game 3`, `deal 7 (swapped)` ...).
    pub label: String,
    /// Who played (`a vs b`).
    pub players: String,
    /// Outcome in words.
    pub result: String,
    /// Whether someone faulted.
    pub faulted: bool,
    /// Length (calls, rounds, moves).
    pub length: String,
    /// Replay page link, filled by [`super::render::write_site`] for the
    /// games that have one.
    pub href: Option<String>,
}

/// A tournament report.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Report {
    /// Page title (`Coup tournament`).
    pub title: String,
    /// The run's settings.
    pub facts: Vec<Fact>,
    /// Whether the run was interrupted (only finished games are shown).
    pub partial: bool,
    /// Standings, best first.
    pub standings: Vec<Standing>,
    /// Head-to-head.
    pub head_to_head: HeadToHead,
    /// Faults.
    pub faults: Vec<FaultRow>,
    /// Timing.
    pub timing: Vec<TimingRow>,
    /// Every game.
    pub games: Vec<GameRow>,
    /// Free remarks shown under the standings.
    pub notes: Vec<String>,
}

/// A card or a counter on a replay page.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Chip {
    /// Text on the chip.
    pub text: String,
    /// CSS class (colour): `duke`, `red`, `black`, `trump`, `pit` ...
    pub class: String,
    /// Tooltip.
    pub title: String,
}

/// One seat's state at a step.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct SeatView {
    /// Seat name (with its bot or team).
    pub name: String,
    /// Its cards (or pits).
    pub cards: Vec<Chip>,
    /// Coins, bank, card count ...
    pub info: String,
    /// Whether this seat answers at this step.
    pub acting: bool,
}

/// One step of a replay: the state before an answer, and the answer.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Step {
    /// Step number, 1-based.
    pub n: usize,
    /// Who answered.
    pub actor: String,
    /// What was asked (command, legal answers).
    pub asked: String,
    /// The answer in words.
    pub action: String,
    /// The answer as sent (protocol text).
    pub raw: String,
    /// Time the answer took, in words (`1.2 ms`).
    pub time: String,
    /// Every seat before the answer.
    pub seats: Vec<SeatView>,
    /// What lies on the table (or the board) before the answer.
    pub table: Vec<Chip>,
    /// Label of the table (`table`, `pits 1..7`).
    pub table_label: String,
    /// What followed (events), in words.
    pub note: String,
    /// Whether this answer lost the game by a fault.
    pub fault: bool,
}

/// One game step by step.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Replay {
    /// Index of the game in the schedule.
    pub index: usize,
    /// Title (`Coup: round 0 game 1`).
    pub title: String,
    /// Facts of the game (seed, seats, outcome).
    pub facts: Vec<Fact>,
    /// The outcome in words.
    pub result: String,
    /// Every answer.
    pub steps: Vec<Step>,
    /// Legend lines (what the codes mean).
    pub legend: Vec<String>,
}

/// Milliseconds in words: `<1 µs`, `42 µs`, `1.25 ms`, `12.3 ms`, `1.25 s`.
pub fn ms_text(ms: f64) -> String {
    if ms < 0.0005 {
        "<1 µs".into()
    } else if ms >= 1000.0 {
        format!("{:.2} s", ms / 1000.0)
    } else if ms >= 10.0 {
        format!("{ms:.1} ms")
    } else if ms >= 1.0 {
        format!("{ms:.2} ms")
    } else {
        format!("{:.0} µs", ms * 1000.0)
    }
}
