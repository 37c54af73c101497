//! Tournaments: many seeded deals, optionally duplicated with the teams swapping seats, run in
//! parallel, summarised (win rate with a 95% Wilson interval, duplicate pairs, forfeits by
//! reason, rounds, response times and budget use).

use std::collections::BTreeMap;
use std::fmt;
use std::time::Duration;

use super::process::ProcessSeat;
use super::referee::{
    play_game_with, GameRecord, LossReason, Naming, PlayOptions, Player, SeatFault,
};
use crate::durak::bot::search::SearchConfig;
use crate::durak::bot::strategy::Strategy;
use crate::durak::bot::DurakBot;
use crate::durak::protocol::Command;
use crate::durak::rules::Game;

/// An in-process seat: a [`DurakBot`] fed the lines directly.
#[derive(Debug, Clone)]
pub struct BotSeat(pub DurakBot);

impl Player for BotSeat {
    fn send(&mut self, line: &str) -> Result<(), SeatFault> {
        // A bot ignores lines it cannot read, as the program does.
        let _ = self.0.feed(line);
        Ok(())
    }

    fn ask(&mut self, command: Command, _time_left: Duration) -> Result<String, SeatFault> {
        Ok(self.0.answer(command))
    }

    fn reveal(&mut self, game: &Game, player: usize) {
        self.0.reveal(game, player);
    }
}

/// How a team's two seats are played.
#[derive(Debug, Clone)]
// A team spec is built twice per tournament; boxing the settings would only add noise.
#[allow(clippy::large_enum_variant)]
pub enum TeamSpec {
    /// In-process bots.
    InProcess(Strategy, SearchConfig),
    /// Two copies of a program (`sh -c`; `{seed}` in the text is replaced by a per-seat seed).
    Program(String),
}

/// One game of a tournament.
#[derive(Debug, Clone)]
pub struct TournamentGame {
    /// Deal number (0-based).
    pub deal: u64,
    /// The deal's seed (deck, trump, first mover).
    pub seed: u64,
    /// Whether team A sat at seats {1, 3} (the duplicate game).
    pub swapped: bool,
    /// The referee's record (team 0 = seats {0, 2}).
    pub record: GameRecord,
}

impl TournamentGame {
    /// Whether team A won.
    pub fn a_won(&self) -> bool {
        self.record.winner == Some(usize::from(self.swapped))
    }
    /// Whether team B won.
    pub fn b_won(&self) -> bool {
        self.record.winner == Some(usize::from(!self.swapped))
    }
}

/// The seed of seat `i`'s bot in the deal seeded `deal_seed`.
pub fn seat_seed(deal_seed: u64, i: usize) -> u64 {
    deal_seed.wrapping_mul(8).wrapping_add(i as u64 + 1)
}

/// The seed of deal `deal` in a tournament seeded `seed`.
pub fn deal_seed(seed: u64, deal: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(deal)
}

struct Failed(String);

impl Player for Failed {
    fn send(&mut self, _line: &str) -> Result<(), SeatFault> {
        Err(SeatFault::Crash(self.0.clone()))
    }
    fn ask(
        &mut self,
        _c: crate::durak::protocol::Command,
        _t: Duration,
    ) -> Result<String, SeatFault> {
        Err(SeatFault::Crash(self.0.clone()))
    }
}

pub(super) fn make_seat(spec: &TeamSpec, seed: u64) -> Box<dyn Player> {
    match spec {
        TeamSpec::InProcess(s, cfg) => Box::new(BotSeat(DurakBot::new(*s, seed).with_config(*cfg))),
        TeamSpec::Program(cmd) => {
            match ProcessSeat::spawn(&cmd.replace("{seed}", &seed.to_string())) {
                Ok(p) => Box::new(p),
                Err(e) => Box::new(Failed(format!("cannot start {cmd:?}: {e}"))),
            }
        }
    }
}

/// Plays deal `deal` once, team A at seats {0, 2} (or {1, 3} when `swapped`), lines naming
/// substitutes as `naming` says.
pub fn play_one(
    seed: u64,
    deal: u64,
    swapped: bool,
    a: &TeamSpec,
    b: &TeamSpec,
    transcript: bool,
    naming: Naming,
) -> TournamentGame {
    let opts = PlayOptions {
        transcript,
        naming,
        endgame_nodes: 0,
        steps: false,
        stop: None,
    };
    play_one_with(seed, deal, swapped, a, b, opts)
}

/// [`play_one`] with every option of [`PlayOptions`] (the endgame diagnostic too).
pub fn play_one_with(
    seed: u64,
    deal: u64,
    swapped: bool,
    a: &TeamSpec,
    b: &TeamSpec,
    opts: PlayOptions,
) -> TournamentGame {
    let s = deal_seed(seed, deal);
    let (game, dealt) = Game::new(s);
    let mut seats: Vec<Box<dyn Player>> = (0..4usize)
        .map(|i| {
            let a_here = (i % 2 == 0) != swapped;
            make_seat(if a_here { a } else { b }, seat_seed(s, i))
        })
        .collect();
    let mut it = seats.iter_mut();
    let (Some(s0), Some(s1), Some(s2), Some(s3)) = (it.next(), it.next(), it.next(), it.next())
    else {
        unreachable!("four seats were made")
    };
    let record = play_game_with(
        game,
        &dealt,
        &mut [s0.as_mut(), s1.as_mut(), s2.as_mut(), s3.as_mut()],
        opts,
    );
    TournamentGame {
        deal,
        seed: s,
        swapped,
        record,
    }
}

/// Per-team statistics.
#[derive(Debug, Clone, Default)]
pub struct TeamStats {
    /// Games won.
    pub wins: u64,
    /// Forfeits by reason.
    pub forfeits: BTreeMap<LossReason, u64>,
    /// Answers given.
    pub answers: u64,
    /// Total answer time.
    pub time: Duration,
    /// Slowest single answer.
    pub max_answer: Duration,
    /// Sum over games of the largest budget share used by one of the team's two copies.
    pub budget_share_sum: f64,
    /// Largest budget share used by one copy in one game.
    pub budget_share_max: f64,
    /// Endgame diagnostic ([`PlayOptions::endgame_nodes`]): games whose first empty-talon
    /// decision was solved as a win for this team...
    pub endgame_won: u64,
    /// ...of which the team won the game (a won endgame converted)...
    pub converted: u64,
    /// ...games solved as a loss for this team...
    pub endgame_lost: u64,
    /// ...of which the team still won (a lost endgame saved: the other side erred).
    pub saved: u64,
}

/// A tournament's summary.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    /// Games played.
    pub games: u64,
    /// Games with no winner (round cap).
    pub capped: u64,
    /// Team A, then team B.
    pub teams: [TeamStats; 2],
    /// Duplicate pairs: A won both, split, B won both (pairs with a capped game not counted).
    pub pairs: [u64; 3],
    /// Rounds: total, min, max.
    pub rounds: (u64, u32, u32),
    /// Endgame diagnostic: games that reached an empty-talon decision with the check on, of
    /// them those settled at the first such decision, those never settled, and the sums of
    /// the cards in play at the first empty-talon decision and at the settled one.
    pub endgames: (u64, u64, u64, u64, u64),
}

impl Summary {
    /// Summarises games (pairs are formed from the same deal played both ways).
    pub fn new(games: &[TournamentGame]) -> Summary {
        let mut s = Summary {
            rounds: (0, u32::MAX, 0),
            ..Summary::default()
        };
        let mut by_deal: BTreeMap<u64, [Option<bool>; 2]> = BTreeMap::new();
        for g in games {
            s.games += 1;
            let r = &g.record;
            s.rounds.0 += u64::from(r.rounds);
            s.rounds.1 = s.rounds.1.min(r.rounds);
            s.rounds.2 = s.rounds.2.max(r.rounds);
            if r.winner.is_none() {
                s.capped += 1;
            }
            let won = if g.a_won() {
                Some(true)
            } else if g.b_won() {
                Some(false)
            } else {
                None
            };
            by_deal.entry(g.deal).or_default()[usize::from(g.swapped)] = won;
            for (t, stats) in s.teams.iter_mut().enumerate() {
                // Team A sits at parity `swapped`, team B at the other parity.
                let parity = usize::from(g.swapped) ^ t;
                if r.winner == Some(parity) {
                    stats.wins += 1;
                }
                if let Some((loser, reason, _)) = &r.forfeit {
                    if *loser == parity {
                        *stats.forfeits.entry(*reason).or_default() += 1;
                    }
                }
                let mut share: f64 = 0.0;
                for seat in [parity, parity + 2] {
                    stats.answers += u64::from(r.answers[seat]);
                    stats.time += r.time_used[seat];
                    stats.max_answer = stats.max_answer.max(r.max_answer[seat]);
                    share = share.max(r.time_used[seat].as_secs_f64() / r.budget.as_secs_f64());
                }
                stats.budget_share_sum += share;
                stats.budget_share_max = stats.budget_share_max.max(share);
                if let Some(w) = r.endgame.and_then(|e| e.team0_wins) {
                    // Team 0 is parity 0; this team wins the endgame when its parity is the
                    // winning one.
                    let wins_endgame = w == (parity == 0);
                    let won_game = r.winner == Some(parity);
                    if wins_endgame {
                        stats.endgame_won += 1;
                        stats.converted += u64::from(won_game);
                    } else {
                        stats.endgame_lost += 1;
                        stats.saved += u64::from(won_game);
                    }
                }
            }
            if let Some(e) = r.endgame {
                s.endgames.0 += 1;
                s.endgames.1 += u64::from(e.team0_wins.is_some() && e.cards == e.first_cards);
                s.endgames.2 += u64::from(e.team0_wins.is_none());
                s.endgames.3 += e.first_cards as u64;
                if e.team0_wins.is_some() {
                    s.endgames.4 += e.cards as u64;
                }
            }
        }
        for pair in by_deal.values() {
            if let [Some(x), Some(y)] = pair {
                s.pairs[match (x, y) {
                    (true, true) => 0,
                    (false, false) => 2,
                    _ => 1,
                }] += 1;
            }
        }
        if s.games == 0 {
            s.rounds.1 = 0;
        }
        s
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.games;
        let (lo, hi) = crate::stats::wilson95(self.teams[0].wins, n);
        let rate = if n > 0 {
            self.teams[0].wins as f64 / n as f64
        } else {
            0.0
        };
        writeln!(f, "games: {n} (capped without winner: {})", self.capped)?;
        writeln!(
            f,
            "team A win rate: {:.1}% ({} of {n}), 95% Wilson interval [{:.1}%, {:.1}%]",
            100.0 * rate,
            self.teams[0].wins,
            100.0 * lo,
            100.0 * hi
        )?;
        writeln!(f, "team B wins: {}", self.teams[1].wins)?;
        if self.pairs.iter().sum::<u64>() > 0 {
            writeln!(
                f,
                "duplicate pairs: A won both {}, split {}, B won both {}",
                self.pairs[0], self.pairs[1], self.pairs[2]
            )?;
        }
        if n > 0 {
            writeln!(
                f,
                "rounds per game: mean {:.1}, min {}, max {}",
                self.rounds.0 as f64 / n as f64,
                self.rounds.1,
                self.rounds.2
            )?;
        }
        for (name, t) in ["A", "B"].iter().zip(&self.teams) {
            let forfeits: Vec<String> = t
                .forfeits
                .iter()
                .map(|(r, k)| format!("{r}: {k}"))
                .collect();
            let mean_ms = if t.answers > 0 {
                t.time.as_secs_f64() * 1e3 / t.answers as f64
            } else {
                0.0
            };
            writeln!(
                f,
                "team {name}: losses by forfeit [{}]; answers {}, mean {:.3} ms, max {:.1} ms; budget used per game (worst copy): mean {:.2}%, max {:.2}%",
                forfeits.join(", "),
                t.answers,
                mean_ms,
                t.max_answer.as_secs_f64() * 1e3,
                if n > 0 { 100.0 * t.budget_share_sum / n as f64 } else { 0.0 },
                100.0 * t.budget_share_max
            )?;
        }
        if self.endgames.0 > 0 {
            let (n, first, never, c0, c1) = self.endgames;
            let settled = n - never;
            writeln!(
                f,
                "empty talon, solved exactly (perfect information): reached in {n} games (mean {:.1} cards in play), settled at the first decision in {first}, later in {} (mean {:.1} cards), never in {never}",
                c0 as f64 / n as f64,
                settled - first,
                if settled > 0 { c1 as f64 / settled as f64 } else { 0.0 }
            )?;
            for (name, t) in ["A", "B"].iter().zip(&self.teams) {
                let solved = t.endgame_won + t.endgame_lost;
                let (lo, hi) = crate::stats::wilson95(t.endgame_won, solved);
                let pct = |k: u64, n: u64| {
                    if n > 0 {
                        100.0 * k as f64 / n as f64
                    } else {
                        0.0
                    }
                };
                writeln!(
                    f,
                    "team {name}: endgame won {:.1}% [{:.1}%, {:.1}%] ({} of {solved}), converted {:.1}% ({} of {}); lost {}, saved {:.1}% ({})",
                    pct(t.endgame_won, solved),
                    100.0 * lo,
                    100.0 * hi,
                    t.endgame_won,
                    pct(t.converted, t.endgame_won),
                    t.converted,
                    t.endgame_won,
                    t.endgame_lost,
                    pct(t.saved, t.endgame_lost),
                    t.saved
                )?;
            }
        }
        Ok(())
    }
}
