//! Durak 2 vs 2 with the person at one seat: the referee ([`play_game_with`], the servers'
//! one game loop over [`Game`]) plays the deal `durak-server --seed S --deals 1` plays, the
//! person's seat a [`Player`] that asks the front, the three others the bots seeded as the
//! server seeds its `inproc:` seats. The person's seat is untimed ([`Player::timed`]); the
//! game is saved as that one-deal run of `durak-server --json`, the person's team as team A
//! (`docs/rules/durak.md`).

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use super::bots::{durak_name, DurakBots, DurakSeat};
use super::{back, Choice, Front, Options, Played, Screen, Told, Zone, LEFT};
use crate::card::{Card, Notation};
use crate::durak::cards::CardSet;
use crate::durak::protocol::{format_answer, parse_line, Command, Info, Line};
use crate::durak::referee::{play_game_with, PlayOptions, Player, SeatFault};
use crate::durak::rules::{Answer, Game};
use crate::durak::tournament::{deal_seed, TournamentGame};
use crate::durak::tracker::Tracker;
use crate::report::durak::{chip, suit_name, Run};
use crate::report::Shard;

/// Moves told to the person, shared by the seats.
type Log = Rc<RefCell<Vec<Told>>>;

/// A card in the protocol's notation (`TS`).
fn code(c: Card) -> String {
    c.display(Notation::Durak).to_string()
}

/// A card as drawn (`10♠`).
fn face(c: Card) -> String {
    chip(&code(c), "", "").text
}

/// The name of absolute player `p` seen from the person at `me`.
fn player_name(p: usize, me: usize, bots: &DurakBots) -> String {
    if p == me {
        return "You".into();
    }
    let (role, s) = if (p + 4 - me) % 4 == 2 {
        ("your partner", bots.partner)
    } else {
        ("opponent", bots.opponents)
    };
    format!("Player {} ({role}, {})", p + 1, durak_name(s))
}

/// A bot's answer in words, from the command and the open card it answered.
fn bot_words(cmd: Command, answer: &str, open: Option<Card>) -> String {
    match (cmd, answer) {
        (Command::Beat, "NO") => "takes the table".into(),
        (Command::Add, "NO") => "throws in nothing".into(),
        (cmd, card) => {
            let c = crate::report::durak::chip(card, "", "").text;
            match cmd {
                Command::Move => format!("leads {c}"),
                Command::Add => format!("throws in {c}"),
                Command::Beat => match open {
                    Some(o) => format!("beats {} with {c}", face(o)),
                    None => format!("beats with {c}"),
                },
            }
        }
    }
}

/// A bot seat that logs its answers (with why, under `--explain`).
struct BotPlayer {
    seat: DurakSeat,
    name: String,
    /// The person's number relative to this bot (1 the next clockwise).
    about: usize,
    open: Option<Card>,
    explain: bool,
    log: Log,
}

impl Player for BotPlayer {
    fn send(&mut self, line: &str) -> Result<(), SeatFault> {
        // The open card, for the words of its beat.
        match parse_line(line) {
            Ok(Line::Info(Info::Move { card, .. } | Info::Add { card, .. })) => {
                self.open = Some(card)
            }
            Ok(Line::Info(Info::Beat { .. } | Info::Take { .. })) => self.open = None,
            _ => {}
        }
        self.seat.feed(line);
        Ok(())
    }

    fn ask(&mut self, command: Command, _left: Duration) -> Result<String, SeatFault> {
        let (answer, why) = self.seat.answer(command, self.about);
        self.log.borrow_mut().push(Told {
            who: self.name.clone(),
            text: bot_words(command, &answer, self.open),
            why: if self.explain { why } else { String::new() },
        });
        Ok(answer)
    }
}

/// The person's seat: what they know (the bots' own [`Tracker`], fed the same lines) and
/// the front that asks them.
struct Person<'a> {
    front: &'a mut dyn Front,
    tracker: Tracker,
    me: usize,
    names: [String; 4],
    title: String,
    log: Log,
    left: bool,
}

impl Person<'_> {
    fn flush(&mut self) {
        let told: Vec<Told> = self.log.borrow_mut().drain(..).collect();
        for t in told {
            self.front.told(t);
        }
    }

    /// The absolute player of the tracker's index `k` (0 = the person).
    fn abs(&self, k: usize) -> usize {
        (self.me + k) % 4
    }

    fn screen(&self, asked: String) -> Screen {
        let t = &self.tracker;
        let trump = t
            .trump
            .map(|s| s.code().to_ascii_uppercase().to_string())
            .unwrap_or_default();
        let cards = |set: CardSet, extra: &str| -> Vec<super::Chip> {
            let mut v: Vec<Card> = set.iter().collect();
            // By suit (trumps last), then rank.
            v.sort_by_key(|c| (t.trump == Some(c.suit), c.suit.index(), c.rank));
            v.into_iter()
                .map(|c| chip(&code(c), &trump, extra))
                .collect()
        };
        let mut zones = Vec::new();
        let round = t.round.filter(|r| !r.table.is_empty());
        if let Some(r) = round {
            let mut table: Vec<super::Chip> = Vec::new();
            for c in r.table.iter() {
                let open = r.open == Some(c);
                table.push(chip(&code(c), &trump, if open { "open" } else { "" }));
            }
            zones.push(Zone {
                name: "Table".into(),
                cards: table,
                note: format!(
                    "{} {} {}; {} of {} attack cards{}",
                    self.names[(self.me + r.attacker_seat.index()) % 4],
                    if r.attacker_seat.index() == 0 {
                        "attack"
                    } else {
                        "attacks"
                    },
                    self.names[(self.me + r.defender_seat.index()) % 4],
                    r.attacks,
                    r.limit,
                    match r.open {
                        Some(c) => format!("; {} is still to beat", face(c)),
                        None => String::new(),
                    }
                ),
                mine: false,
            });
        }
        zones.push(Zone {
            name: "Your hand".into(),
            cards: cards(t.hand, ""),
            note: format!("{} cards", t.hand.len()),
            mine: true,
        });
        for k in 1..4 {
            let known = t.known[k];
            let mut v = cards(known, "known");
            for _ in known.len()..t.sizes[k] {
                v.push(back());
            }
            let out = if t.out[k] { ", out of the game" } else { "" };
            zones.push(Zone {
                name: self.names[self.abs(k)].clone(),
                cards: v,
                note: format!(
                    "{} card{}{}{out}",
                    t.sizes[k],
                    if t.sizes[k] == 1 { "" } else { "s" },
                    if known.is_empty() {
                        String::new()
                    } else {
                        "; the face-up ones were taken from the table".into()
                    }
                ),
                mine: false,
            });
        }
        Screen {
            title: self.title.clone(),
            facts: vec![
                (
                    "trump".into(),
                    if trump.is_empty() {
                        "-".into()
                    } else {
                        suit_name(&trump).into()
                    },
                ),
                ("talon".into(), format!("{} cards", t.talon())),
                ("round".into(), t.rounds.to_string()),
                ("you are".into(), format!("player {}", self.me + 1)),
            ],
            zones,
            asked,
        }
    }
}

impl Player for Person<'_> {
    fn send(&mut self, line: &str) -> Result<(), SeatFault> {
        self.flush();
        if let Ok(Line::Info(info)) = parse_line(line) {
            self.tracker.apply(info);
            match info {
                Info::Give {
                    player: 1,
                    card: Some(c),
                } if self.tracker.rounds > 0 => self.front.told(Told {
                    who: "You".into(),
                    text: format!("draw {}", face(c)),
                    why: String::new(),
                }),
                Info::Out { player } => self.front.told(Told {
                    who: String::new(),
                    text: format!(
                        "{} out of the game",
                        match player {
                            1 => "You are".to_string(),
                            p => format!("{} is", self.names[self.abs(usize::from(p) - 1)]),
                        }
                    ),
                    why: String::new(),
                }),
                _ => {}
            }
        }
        Ok(())
    }

    fn ask(&mut self, command: Command, _left: Duration) -> Result<String, SeatFault> {
        self.flush();
        if self.left || super::leaving() {
            self.left = true;
            return Err(SeatFault::Crash(LEFT.into()));
        }
        self.tracker.on_command(command);
        let legal = self.tracker.legal(command);
        let open = self.tracker.round.and_then(|r| r.open);
        let choices: Vec<Choice> = legal
            .iter()
            .map(|&a| Choice {
                code: format_answer(a),
                words: match (command, a) {
                    (Command::Move, Answer::Card(c)) => format!("lead {}", face(c)),
                    (Command::Add, Answer::Card(c)) => format!("throw in {}", face(c)),
                    (Command::Beat, Answer::Card(c)) => match open {
                        Some(o) => format!("beat {} with {}", face(o), face(c)),
                        None => format!("beat with {}", face(c)),
                    },
                    (Command::Beat, Answer::No) => {
                        "take the table (pick up every card on it)".into()
                    }
                    (_, Answer::No) => "throw in nothing".into(),
                },
            })
            .collect();
        let asked = match command {
            Command::Move => "Your lead: choose a card to attack with".to_string(),
            Command::Beat => match open {
                Some(o) => format!("You defend: beat {} or take the table", face(o)),
                None => "You defend".to_string(),
            },
            Command::Add => "You may throw in a card of a rank on the table".to_string(),
        };
        let screen = self.screen(asked);
        match self.front.choose(&screen, &choices) {
            Some(i) => {
                self.front.told(Told {
                    who: "You".into(),
                    text: choices[i].words.clone(),
                    why: String::new(),
                });
                Ok(choices[i].code.clone())
            }
            None => {
                self.left = true;
                Err(SeatFault::Crash(LEFT.into()))
            }
        }
    }

    fn timed(&self) -> bool {
        false
    }
}

/// The referee's four seats: `person` at absolute seat `me`, the `others` (three) in order
/// at the rest.
///
/// # Panics
/// When `others` holds not three seats.
pub fn seats<'a>(
    me: usize,
    person: &'a mut dyn Player,
    others: Vec<&'a mut dyn Player>,
) -> [&'a mut dyn Player; 4] {
    assert_eq!(others.len(), 3, "three seats besides the person's");
    let mut it = others.into_iter();
    let mut mine = Some(person);
    std::array::from_fn(|p| {
        let seat = if p == me { mine.take() } else { it.next() };
        seat.expect("four seats")
    })
}

/// Plays one deal of Durak (see the module's doc).
///
/// # Errors
/// A one-line message: a bad `--bot` setting, or the game cannot be encoded.
pub fn play(opts: &Options, front: &mut dyn Front) -> Result<Played, String> {
    let bots = DurakBots::new(&opts.bot)?;
    let me = opts.seat - 1;
    let seed = deal_seed(opts.seed, 0);
    let (game, dealt) = Game::new(seed);
    let log: Log = Rc::new(RefCell::new(Vec::new()));
    let names: [String; 4] = std::array::from_fn(|p| player_name(p, me, &bots));
    let mut bot_seats: Vec<BotPlayer> = (0..4)
        .filter(|&p| p != me)
        .map(|p| BotPlayer {
            seat: bots.seat(seed, p, (p + 4 - me) % 4 == 2),
            name: names[p].clone(),
            about: (me + 4 - p) % 4,
            open: None,
            explain: opts.explain,
            log: Rc::clone(&log),
        })
        .collect();
    let mut person = Person {
        front,
        tracker: Tracker::new(),
        me,
        names: names.clone(),
        title: format!("Durak 2 vs 2, seed {}", opts.seed),
        log: Rc::clone(&log),
        left: false,
    };
    let record = {
        let others = bot_seats.iter_mut().map(|b| b as &mut dyn Player).collect();
        let mut seats = seats(me, &mut person, others);
        play_game_with(
            game,
            &dealt,
            &mut seats,
            PlayOptions {
                steps: true,
                ..PlayOptions::default()
            },
        )
    };
    person.flush();
    let left = person.left;
    let mine = me % 2;
    let result = match (&record.forfeit, record.winner) {
        (Some(_), _) if left => {
            format!("You left: the game is saved as your team's forfeit ({LEFT})")
        }
        (Some((_, reason, why)), Some(w)) if w == mine => {
            format!("Your team wins: the opponents forfeited ({reason}: {why})")
        }
        (Some((_, reason, why)), _) => format!("Your team loses by forfeit ({reason}: {why})"),
        (None, Some(w)) if w == mine => {
            "Your team wins: you and your partner both got rid of your cards first".into()
        }
        (None, Some(_)) => "Your team loses: both opponents got rid of their cards first".into(),
        (None, None) => "No winner: the game hit the round cap".into(),
    };
    let screen = person.screen(String::new());
    let g = TournamentGame {
        deal: 0,
        seed,
        swapped: mine == 1,
        record,
    };
    let team_a = format!(
        "cardgames-play (you, player {}) + inproc:{}",
        me + 1,
        durak_name(bots.partner)
    );
    let team_b = format!("inproc:{}", durak_name(bots.opponents));
    let run = Run::new(
        &team_a,
        &team_b,
        opts.seed,
        1,
        false,
        &[g],
        1,
        left,
        Shard::ALL,
    );
    let json =
        serde_json::to_string_pretty(&run).map_err(|e| format!("cannot encode the game: {e}"))?;
    Ok(Played {
        json,
        write_html: Box::new(move |p| crate::report::durak::write_html(&run, p)),
        index: 0,
        screen,
        result,
        left,
    })
}
