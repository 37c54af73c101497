//! Measurement bounds (feature `measure`, never in a deployed build): the clairvoyant
//! ceiling of `scripts/durak-ceiling` and its variants. The same deep search, caps and work
//! budget, whose determinizations come from the true deal instead of the bot's beliefs
//! ([`Worlds`]): every hand, or some hands ([`Measure::clairvoyant_players`]), or a summary of
//! the partner's hand ([`Summary`]), in some phases or commands only, or the heuristic alone
//! in some phases. The true state reaches an in-process bot from the referee
//! ([`crate::durak::referee::Player::reveal`]), never over the wire. Results:
//! `docs/experiments/durak.md`.

use rand::seq::SliceRandom;
use rand::Rng;

use crate::card::Suit;
use crate::durak::bot::sample::Beliefs;
use crate::durak::bot::tracker::Tracker;
use crate::durak::cards::{rank_index, CardSet};
use crate::durak::protocol::Command;
use crate::durak::rules::{Game, Pending};

settings! {
    /// The measurement bounds' settings (`inproc:deep:KEY=value` under `durak-server` built
    /// with `--features measure`; `inproc:clairvoyant` sets `clairvoyant=1`).
    pub struct Measure {
        clairvoyant: u8 = 0, [0, 2],
            "0 off; 1 every determinization is the true deal with the talon shuffled (the search sees every hand); 2 the true deal itself (the talon's order too).",
            "the ceiling: 98.8% vs in-process greedy where the bot won 91.5%, 1,000 games, seed 9001";
        clairvoyant_phases: u8 = 7, [0, 7],
            "Phases where the bound applies, a mask of phase_bit: 1 talon over 6 cards, 2 talon 1..6, 4 talon empty.",
            "clair@P rows of scripts/durak-ceiling";
        clairvoyant_commands: u8 = 7, [0, 7],
            "Commands where the bound applies, a mask of command_bit: 1 MOVE, 2 BEAT, 4 ADD.",
            "clair#C rows of scripts/durak-ceiling";
        clairvoyant_players: u8 = 14, [0, 14],
            "Whose hands the bound shows, bits of players numbered from the bot (2 the next player, 4 the partner, 8 the other opponent); the others are dealt from the bot's beliefs.",
            "clair+M rows: the partner's hand alone 96.4% vs in-process greedy";
        clairvoyant_summary: u8 = 0, [0, 8],
            "A summary of the partner's hand told at each decision (Summary by number, 0 none); each determinization is drawn again until the partner's hand has it.",
            "the bound on a signal between the partners: -0.4 to +2.5 points against greedy, paired, 1,000 games a summary";
        heuristic_phases: u8 = 0, [0, 7],
            "Phases (phase_bit mask) where the bot answers by its heuristic alone, without searching.",
            "heur@P rows of scripts/durak-ceiling";
    }
}

/// The phase bit of a decision with `talon` cards left in the talon (see
/// [`Measure::clairvoyant_phases`]): 1 over 6 cards, 2 one to 6, 4 none.
pub fn phase_bit(talon: usize) -> u8 {
    match talon {
        0 => 4,
        1..=6 => 2,
        _ => 1,
    }
}

/// [`Measure::clairvoyant_players`] showing every other player's hand (bits 1, 2 and 3).
pub const EVERY_HAND: u8 = 14;

/// The command bit of a decision (see [`Measure::clairvoyant_commands`]): 1 `MOVE`, 2
/// `BEAT`, 4 `ADD`.
pub fn command_bit(cmd: Command) -> u8 {
    match cmd {
        Command::Move => 1,
        Command::Beat => 2,
        Command::Add => 4,
    }
}

/// Where a measured decision's determinizations come from.
#[derive(Debug, Clone)]
pub enum Worlds {
    /// The true deal, numbered from the bot; its talon shuffled in each unless `order`.
    Truth {
        /// The true state.
        game: Game,
        /// Whether the talon's order is seen too ([`Measure::clairvoyant`] 2).
        order: bool,
    },
    /// The bot's beliefs around the hands it was shown ([`showing`]), and the summary of the
    /// partner's hand with its true value that every determinization must match.
    Told {
        /// The tracker told the shown hands.
        tracker: Tracker,
        /// The partner's summary and its value.
        summary: Option<(Summary, u64)>,
    },
}

impl Worlds {
    /// One determinization waiting for the bot's `command` (`None` when none fits). With a
    /// summary, the first of up to [`SUMMARY_DRAWS`] draws whose partner hand has it (the last
    /// draw if none has).
    pub fn draw<R: Rng + ?Sized>(&self, command: Command, rng: &mut R) -> Option<Game> {
        match self {
            Worlds::Truth { game, order } => {
                let mut g = game.clone();
                if !order {
                    g.talon.shuffle(rng);
                }
                Some(g)
            }
            Worlds::Told { tracker, summary } => {
                let Some((summary, value)) = *summary else {
                    return tracker.sample_with(command, Beliefs::Play, rng);
                };
                let mut last = None;
                for _ in 0..SUMMARY_DRAWS {
                    let g = tracker.sample_with(command, Beliefs::Play, rng)?;
                    if summary.of(g.hands[2], g.trump) == value {
                        return Some(g);
                    }
                    last = Some(g);
                }
                last
            }
        }
    }
}

/// What a measured bot does at one decision: whether it searches at all
/// ([`Measure::heuristic_phases`]) and, when the bound applies (it was shown `truth`, the
/// true state in absolute numbering rotated to the bot, at this very decision, in a phase and
/// command the masks allow), where its determinizations come from.
pub fn prepare(
    m: &Measure,
    truth: Option<Game>,
    tracker: &Tracker,
    command: Command,
) -> (bool, Option<Worlds>) {
    let phase = phase_bit(tracker.talon());
    let searching = m.heuristic_phases & phase == 0;
    let asked = match command {
        Command::Move => Pending::Move(0),
        Command::Beat => Pending::Beat(0),
        Command::Add => Pending::Add(0),
    };
    // The true state serves only while it is the decision the bot was asked.
    let truth = truth.filter(|g| {
        m.clairvoyant > 0
            && m.clairvoyant_phases & phase != 0
            && m.clairvoyant_commands & command_bit(command) != 0
            && g.pending == asked
    });
    let summary = Summary::from_number(m.clairvoyant_summary);
    let worlds = truth.map(|game| {
        if m.clairvoyant_players != EVERY_HAND || summary.is_some() {
            Worlds::Told {
                tracker: showing(tracker, &game, m.clairvoyant_players),
                summary: summary.map(|s| (s, s.of(game.hands[2], game.trump))),
            }
        } else {
            Worlds::Truth {
                game,
                order: m.clairvoyant == 2,
            }
        }
    });
    (searching, worlds)
}

/// `tracker` told the true hands of the players in `players` (a bit mask, bit `p` for player
/// `p` numbered from the bot, 1..=3) from `truth` (the game numbered from the bot): their
/// cards become known, so every determinization deals them as they are and the others'
/// unknown slots and the talon from the remaining cards.
pub fn showing(tracker: &Tracker, truth: &Game, players: u8) -> Tracker {
    let mut t = tracker.clone();
    for p in (1..4).filter(|p| players & (1 << p) != 0) {
        t.known[p] = truth.hands[p];
    }
    t
}

/// Most determinizations [`Worlds::draw`] draws to match the partner's summary.
pub const SUMMARY_DRAWS: usize = 400;

/// A summary of a hand that a signal between the partners might pass, for the bound on what
/// signals could be worth ([`Measure::clairvoyant_summary`], numbered
/// 1 to 8 in this order). "Plain" cards are those not of the trump suit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Summary {
    /// The number of plain cards in each suit.
    SuitCounts,
    /// The same, 2 standing for two or more.
    SuitCountsToTwo,
    /// Which plain suits the hand holds.
    SuitsHeld,
    /// The number of plain queens, kings and aces in each suit.
    HighCounts,
    /// The sum of the plain cards' rank indices (6 = 0 .. ace = 8) in each suit, divided by 8.
    RankSums,
    /// Whether the hand holds a plain queen or higher, in each suit.
    HighHeld,
    /// The number of trumps.
    Trumps,
    /// Which ranks the plain cards have (any suit).
    PlainRanks,
}

impl Summary {
    /// Every summary, numbered 1 to 8 in this order.
    pub const ALL: [Summary; 8] = [
        Summary::SuitCounts,
        Summary::SuitCountsToTwo,
        Summary::SuitsHeld,
        Summary::HighCounts,
        Summary::RankSums,
        Summary::HighHeld,
        Summary::Trumps,
        Summary::PlainRanks,
    ];

    /// The summary numbered `n` (1..=8, [`Summary::ALL`]'s order); `None` otherwise.
    pub fn from_number(n: u8) -> Option<Summary> {
        Summary::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// This summary of `hand` under `trump`, as a number (one byte per suit, in
    /// [`Suit::ALL`] order, or a rank bit set).
    pub fn of(self, hand: CardSet, trump: Suit) -> u64 {
        let plain = hand.minus(CardSet::suit(trump));
        // One byte per suit: `f` of the plain cards of each suit.
        let per_suit = |f: &dyn Fn(CardSet) -> usize| {
            Suit::ALL.iter().enumerate().fold(0, |key, (i, &s)| {
                key | (f(plain.intersect(CardSet::suit(s))) as u64) << (8 * i)
            })
        };
        let high = |cards: CardSet| cards.iter().filter(|c| rank_index(c.rank) >= 6).count();
        let rank_sum = |cards: CardSet| {
            cards
                .iter()
                .map(|c| usize::from(rank_index(c.rank)))
                .sum::<usize>()
        };
        match self {
            Summary::SuitCounts => per_suit(&|c| c.len()),
            Summary::SuitCountsToTwo => per_suit(&|c| c.len().min(2)),
            Summary::SuitsHeld => per_suit(&|c| usize::from(!c.is_empty())),
            Summary::HighCounts => per_suit(&high),
            Summary::RankSums => per_suit(&|c| rank_sum(c) / 8),
            Summary::HighHeld => per_suit(&|c| usize::from(high(c) > 0)),
            Summary::Trumps => hand.intersect(CardSet::suit(trump)).len() as u64,
            Summary::PlainRanks => plain.iter().fold(0, |k, c| k | 1 << rank_index(c.rank)),
        }
    }
}
