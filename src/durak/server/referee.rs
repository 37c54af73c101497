//! The referee: owns the true [`Game`], sends every seat its own view in relative numbers,
//! asks the commands, validates and times every answer (`docs/rules/durak.md` §3 and the
//! adopted readings §4.1 time, §4.5 ADD, §4.10 incorrect answers).

use std::fmt;
use std::time::{Duration, Instant};

use crate::card::Card;
use crate::card::Suit;
use crate::durak::bot::endgame::Solver;
use crate::durak::protocol::{deal_lines, event_info, format_answer, parse_answer, Command};
use crate::durak::rules::{budget, team, Event, Game, Pending, Round};

/// Why a seat failed to answer.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SeatFault {
    /// The program exited or closed its output, or a write failed or stayed
    /// blocked (it stopped reading its input).
    Crash(String),
    /// No answer before the budget ran out.
    Timeout,
    /// A line written before the command that asks for it: the description (with the
    /// line quoted).
    Unasked(String),
}

impl SeatFault {
    /// The description of the fault for a forfeit's detail.
    fn describe(self) -> String {
        match self {
            SeatFault::Crash(why) | SeatFault::Unasked(why) => why,
            SeatFault::Timeout => "no answer within the budget".into(),
        }
    }
}

/// A player the referee talks to: an in-process bot or a program over pipes.
pub trait Player {
    /// Sends an information line (without newline).
    ///
    /// # Errors
    /// A [`SeatFault::Crash`] if the seat cannot receive it.
    fn send(&mut self, line: &str) -> Result<(), SeatFault>;
    /// Sends a command and waits at most `time_left` for the answer line.
    ///
    /// # Errors
    /// [`SeatFault`] on a crash or a timeout.
    fn ask(&mut self, command: Command, time_left: Duration) -> Result<String, SeatFault>;
    /// Ends the game for this seat (closes the program's input). Returns a note when it did
    /// not end cleanly (a program that had to be killed, or exited with a failure status);
    /// the default has none.
    fn close(&mut self) -> Option<String> {
        None
    }
    /// Shows the seat the whole true state (`game`, absolute numbering, `player` = the seat
    /// about to be asked) just before [`Player::ask`]. Only in-process measurement bots use it
    /// (the clairvoyant bound, [`DeepConfig::clairvoyant`](crate::durak::deep::DeepConfig));
    /// nothing of it goes over the wire, so programs never see it. The default ignores it.
    fn reveal(&mut self, _game: &Game, _player: usize) {}
    /// Whether the seat's answers count against the game's time budget (`docs/rules/durak.md`
    /// §4.1). Only a person playing a seat (`cardgames-play durak`) is untimed: its answers
    /// are recorded with the time they took but never forfeit by time. The default is timed.
    fn timed(&self) -> bool {
        true
    }
}

/// Why a team lost by forfeit.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LossReason {
    /// A well-formed but illegal answer.
    Illegal,
    /// An answer that is not `NO` or a card, or a line written before it was asked for.
    Malformed,
    /// The program died or closed its output, or stopped reading its input.
    Crash,
    /// The cumulative time budget was exceeded.
    Timeout,
}

impl fmt::Display for LossReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            LossReason::Illegal => "illegal answer",
            LossReason::Malformed => "malformed answer",
            LossReason::Crash => "crash",
            LossReason::Timeout => "timeout",
        })
    }
}

/// The outcome of one refereed game. Seats/players are absolute 0..4; teams 0 = {0, 2}.
#[derive(Debug, Clone, PartialEq)]
pub struct GameRecord {
    /// The winning team, `None` for a capped game.
    pub winner: Option<usize>,
    /// A forfeit: the losing team, the reason and a description.
    pub forfeit: Option<(usize, LossReason, String)>,
    /// Rounds started.
    pub rounds: u32,
    /// Answer time used by each seat.
    pub time_used: [Duration; 4],
    /// Number of answers of each seat.
    pub answers: [u32; 4],
    /// Slowest single answer of each seat.
    pub max_answer: [Duration; 4],
    /// The budget at the end of the game (2 s + 0.1 s x rounds).
    pub budget: Duration,
    /// Per seat: every line sent and answer received (`> ` answers), when requested.
    pub transcript: Option<[Vec<String>; 4]>,
    /// Every answer with the whole table before it, when requested
    /// ([`PlayOptions::steps`]); for replay pages.
    pub steps: Option<Vec<Step>>,
    /// The exact value of the first decision with the talon empty that the solver settles,
    /// when requested ([`PlayOptions::endgame_nodes`]) and the game got there.
    pub endgame: Option<EndgameCheck>,
    /// How the seats' programs ended when it did not go cleanly (`player 2: did not exit
    /// after the game; killed`, [`Player::close`]), the seat that forfeited left out: its
    /// fault is the forfeit.
    pub notes: Vec<String>,
}

/// One answer of a recorded game ([`PlayOptions::steps`]), in absolute numbering.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The player asked (0..4; team 0 = players 0 and 2).
    pub player: usize,
    /// The command sent.
    pub command: Command,
    /// The answer line as received (trimmed); empty when the seat crashed or timed out.
    pub answer: String,
    /// Time the answer took.
    pub took: Duration,
    /// Every player's hand before the answer.
    pub hands: [Vec<Card>; 4],
    /// The cards on the table before the answer (attacks and beats of the round).
    pub table: Vec<Card>,
    /// The attacking card still to beat, if any.
    pub open: Option<Card>,
    /// Cards left in the talon before the answer.
    pub talon: usize,
    /// The trump suit.
    pub trump: Suit,
    /// What the answer caused (the information lines' events); empty on a fault.
    pub events: Vec<Event>,
}

/// The endgame diagnostic ([`PlayOptions::endgame_nodes`]): the game at its first decision
/// with the talon empty that the exact solver settles within its node cap, as a
/// perfect-information game (every hand known, all four playing perfectly; [`Solver`]). The
/// first empty-talon decision itself is tried first; while its endgame is too large, the next
/// decision with [`ENDGAME_RETRY_CARDS`] fewer cards in play is tried with the same cap (the
/// solver's table is kept, so later tries reuse earlier work), until one is settled or the
/// game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EndgameCheck {
    /// Whether team 0 wins with perfect play from the settled decision; `None` when no
    /// decision of the game was settled within the cap.
    pub team0_wins: Option<bool>,
    /// Cards in the hands and on the table at the first empty-talon decision.
    pub first_cards: usize,
    /// Cards in the hands and on the table at the settled decision (0 when none was).
    pub cards: usize,
    /// Solver nodes spent on the game's tries.
    pub nodes: u64,
}

/// How [`play_game_with`] runs a game.
#[derive(Debug, Clone, Copy, Default)]
pub struct PlayOptions {
    /// Keep every seat's transcript.
    pub transcript: bool,
    /// How lines name a partner playing an out player's seat.
    pub naming: Naming,
    /// Solve the first empty-talon decision exactly with at most this many solver nodes, or
    /// the first later one that fits the cap ([`GameRecord::endgame`]; 0: no diagnostic). The
    /// solves happen outside every seat's clock.
    pub endgame_nodes: u64,
    /// Record every answer with the table before it ([`GameRecord::steps`]).
    pub steps: bool,
    /// Polled before every answer and during the endgame diagnostic's solves: once it returns
    /// true the game stops unfinished (no winner, no forfeit). A server passes its
    /// interruption flag, so in-process games end at once too. `None`: never stopped.
    pub stop: Option<fn() -> bool>,
}

/// How move/add/beat/take lines name a partner who plays an out player's seat (reading
/// "Substitution"; both occur in the wild, bots must accept both).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Naming {
    /// The physical player who acts or defends (this project's reading).
    #[default]
    Physical,
    /// The seat whose role is played.
    Seat,
}

/// [`play_game_named`] with the project's [`Naming::Physical`].
pub fn play_game(
    game: Game,
    dealt: &[Vec<Card>; 4],
    seats: &mut [&mut dyn Player; 4],
    transcript: bool,
) -> GameRecord {
    play_game_named(game, dealt, seats, transcript, Naming::Physical)
}

fn seat_named(ev: Event, before: &Round, after: &Round) -> Event {
    match ev {
        Event::Move { card, .. } => Event::Move {
            by: after.attacker_seat.index(),
            under: after.defender_seat.index(),
            card,
        },
        Event::Add { card, .. } => Event::Add {
            by: if before.add_index == 0 {
                before.attacker_seat.index()
            } else {
                before.attacker_seat.partner().index()
            },
            under: before.defender_seat.index(),
            card,
        },
        Event::Beat { card, .. } => Event::Beat {
            by: before.defender_seat.index(),
            card,
        },
        Event::Take { .. } => Event::Take {
            player: before.defender_seat.index(),
        },
        other => other,
    }
}

/// Plays one game between the four seats (index = absolute player) from `game` as dealt
/// (`dealt` = the initial hands in deal order). Sends `trump` and the deal, then runs the game;
/// every answer is checked by the engine. Closes all seats at the end.
pub fn play_game_named(
    game: Game,
    dealt: &[Vec<Card>; 4],
    seats: &mut [&mut dyn Player; 4],
    transcript: bool,
    naming: Naming,
) -> GameRecord {
    play_game_with(
        game,
        dealt,
        seats,
        PlayOptions {
            transcript,
            naming,
            endgame_nodes: 0,
            steps: false,
            stop: None,
        },
    )
}

/// [`play_game_named`] with every option of [`PlayOptions`] (the endgame diagnostic too).
pub fn play_game_with(
    mut game: Game,
    dealt: &[Vec<Card>; 4],
    seats: &mut [&mut dyn Player; 4],
    opts: PlayOptions,
) -> GameRecord {
    let PlayOptions {
        transcript, naming, ..
    } = opts;
    let mut rec = GameRecord {
        winner: None,
        forfeit: None,
        rounds: 0,
        time_used: [Duration::ZERO; 4],
        answers: [0; 4],
        max_answer: [Duration::ZERO; 4],
        budget: budget(0),
        transcript: transcript.then(Default::default),
        steps: opts.steps.then(Vec::new),
        endgame: None,
        notes: Vec::new(),
    };
    let mut endgame_due = opts.endgame_nodes > 0;
    let mut endgame_solver: Option<Box<Solver>> = None;
    // Cards in play at the last try that hit the cap: the next try waits for fewer.
    let mut endgame_tried = usize::MAX;
    // A seat that could not be sent a line, and why.
    let mut crashed: Option<(usize, String)> = None;
    // The seat asked last: the one that forfeited, if a forfeit ended the loop.
    let mut asked: Option<usize> = None;
    'deal: for (r, seat) in seats.iter_mut().enumerate() {
        for info in deal_lines(r, game.trump, dealt) {
            let line = info.to_string();
            if let Some(t) = rec.transcript.as_mut() {
                t[r].push(line.clone());
            }
            if let Err(f) = seat.send(&line) {
                crashed = Some((r, f.describe()));
                break 'deal;
            }
        }
    }
    let mut events: Vec<Event> = Vec::new();
    while crashed.is_none() {
        if opts.stop.is_some_and(|stop| stop()) {
            break;
        }
        let (cmd, p) = match game.pending {
            Pending::Move(p) => (Command::Move, p),
            Pending::Beat(p) => (Command::Beat, p),
            Pending::Add(p) => (Command::Add, p),
            Pending::Over(w) => {
                rec.winner = w;
                break;
            }
        };
        if endgame_due
            && game.talon.is_empty()
            && in_play(&game) + ENDGAME_RETRY_CARDS <= endgame_tried
        {
            let solver = endgame_solver.get_or_insert_with(|| Box::new(Solver::new()));
            solver.stop = opts.stop;
            let mut left = opts.endgame_nodes;
            let v = solver.solve(&game, &mut left);
            let cards = in_play(&game);
            let check = rec.endgame.get_or_insert(EndgameCheck {
                team0_wins: None,
                first_cards: cards,
                cards: 0,
                nodes: 0,
            });
            check.nodes += opts.endgame_nodes - left;
            if v.is_some() {
                check.team0_wins = v;
                check.cards = cards;
                endgame_due = false;
            } else {
                endgame_tried = cards;
            }
        }
        let limit = budget(game.rounds);
        let left = limit.saturating_sub(rec.time_used[p]);
        if let Some(t) = rec.transcript.as_mut() {
            t[p].push(cmd.to_string());
        }
        if let Some(list) = rec.steps.as_mut() {
            list.push(Step {
                player: p,
                command: cmd,
                answer: String::new(),
                took: Duration::ZERO,
                hands: std::array::from_fn(|i| game.hands[i].iter().collect()),
                table: game.round.table.iter().collect(),
                open: game.round.open,
                talon: game.talon.len(),
                trump: game.trump,
                events: Vec::new(),
            });
        }
        seats[p].reveal(&game, p);
        asked = Some(p);
        let start = Instant::now();
        let reply = seats[p].ask(cmd, left);
        let took = start.elapsed();
        if let Some(step) = rec.steps.as_mut().and_then(|l| l.last_mut()) {
            step.took = took;
            if let Ok(text) = &reply {
                step.answer = text.trim().to_string();
            }
        }
        // An untimed seat (a person) spends none of the budget.
        let counted = if seats[p].timed() {
            took
        } else {
            Duration::ZERO
        };
        rec.time_used[p] += counted;
        rec.answers[p] += 1;
        rec.max_answer[p] = rec.max_answer[p].max(counted);
        // Seats are named 1..4 in the detail, as in the protocol and the transcripts.
        let lose = |reason: LossReason, why: String| {
            Some((team(p), reason, format!("player {}: {why}", p + 1)))
        };
        let text = match reply {
            Err(SeatFault::Timeout) => {
                rec.forfeit = lose(
                    LossReason::Timeout,
                    format!("no answer to {cmd} within the budget"),
                );
                break;
            }
            Err(SeatFault::Crash(why)) => {
                rec.forfeit = lose(LossReason::Crash, why);
                break;
            }
            Err(SeatFault::Unasked(why)) => {
                rec.forfeit = lose(LossReason::Malformed, why);
                break;
            }
            Ok(text) => text,
        };
        if let Some(t) = rec.transcript.as_mut() {
            t[p].push(format!("> {}", text.trim_end()));
        }
        if rec.time_used[p] > limit {
            rec.forfeit = lose(
                LossReason::Timeout,
                format!("{:?} used of {:?}", rec.time_used[p], limit),
            );
            break;
        }
        let answer = match parse_answer(&text) {
            Ok(a) => a,
            Err(_) => {
                rec.forfeit = lose(LossReason::Malformed, format!("{text:?} to {cmd}"));
                break;
            }
        };
        events.clear();
        let before = game.round;
        if let Err(e) = game.apply(answer, &mut events) {
            rec.forfeit = lose(
                LossReason::Illegal,
                format!("{} to {cmd}: {e}", format_answer(answer)),
            );
            break;
        }
        if let Some(step) = rec.steps.as_mut().and_then(|l| l.last_mut()) {
            step.events = events.clone();
        }
        'send: for &ev in &events {
            let ev = match naming {
                Naming::Physical => ev,
                Naming::Seat => seat_named(ev, &before, &game.round),
            };
            for (r, seat) in seats.iter_mut().enumerate() {
                let line = event_info(&ev, r).to_string();
                if let Some(t) = rec.transcript.as_mut() {
                    t[r].push(line.clone());
                }
                if let Err(f) = seat.send(&line) {
                    crashed = Some((r, f.describe()));
                    break 'send;
                }
            }
        }
    }
    // The seat that forfeited.
    let mut at_fault = rec.forfeit.as_ref().and(asked);
    if let Some((r, why)) = crashed {
        at_fault = Some(r);
        rec.forfeit = Some((
            team(r),
            LossReason::Crash,
            format!("player {}: {why}", r + 1),
        ));
    }
    if let Some((loser, _, _)) = rec.forfeit {
        rec.winner = Some(1 - loser);
    }
    rec.rounds = game.rounds;
    rec.budget = budget(game.rounds);
    for (r, seat) in seats.iter_mut().enumerate() {
        if let Some(note) = seat.close() {
            if at_fault != Some(r) {
                rec.notes.push(format!("player {}: {note}", r + 1));
            }
        }
    }
    rec
}

/// After a try of the endgame diagnostic hits its node cap, the next try waits until this
/// many fewer cards are in play (a few tries per game instead of one per decision).
pub const ENDGAME_RETRY_CARDS: usize = 4;

/// Cards in the hands and on the table.
fn in_play(game: &Game) -> usize {
    game.hands.iter().map(|h| h.len()).sum::<usize>() + game.round.table.len()
}
