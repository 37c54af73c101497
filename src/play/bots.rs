//! The one adapter between `cardgames-play` and the bots: one entry per game, each calling
//! the decision entry the servers call (Coup: [`decide`], as `coup-arbiter`'s
//! `builtin:` seats; Durak: [`DurakBot`], as `durak-server`'s `inproc:` seats and
//! `durak-bot`; Ioiwari: [`IoiwariPlayer`], as the `ioiwari` program), with the same
//! settings the servers accept. Nothing else in [`crate::play`] names a bot's internals, so a
//! change of the bots' entries is a change of this file alone.

use crate::card::Notation;
use crate::coup::bot::{
    decide, Config, Decision, Remembered, SearchConfig as CoupConfig, Strategy as CoupStrategy,
    View,
};
use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::rules::Call;
use crate::durak::bot::decide as durak_decide;
use crate::durak::cards::CardSet;
use crate::durak::deep::DeepConfig;
use crate::durak::protocol::{format_answer, Command};
use crate::durak::tournament::seat_seed;
use crate::durak::{DurakBot, Strategy as DurakStrategy};
use crate::ioiwari::{Board, Player as IoiwariPlayer, Strategy as IoiwariStrategy, PITS};

/// A Coup bot: a strategy and its search settings (`coup-bot --strategy NAME --search
/// KEY=VALUE`; `coup-arbiter`'s `builtin:NAME KEY=VALUE...`).
#[derive(Debug, Clone)]
pub struct CoupBot {
    /// The strategy.
    pub strategy: CoupStrategy,
    /// Its settings.
    pub config: CoupConfig,
}

impl CoupBot {
    /// From `--bot` settings: `strategy=NAME` (default `search`) and `KEY=VALUE` search
    /// settings ([`CoupConfig::set`]).
    ///
    /// # Errors
    /// A one-line message: an unknown strategy or setting.
    pub fn new(settings: &[String]) -> Result<CoupBot, String> {
        let (name, rest) = super::strategy_of(settings, "search");
        let strategy = CoupStrategy::parse(name).map_err(|e| e.to_string())?;
        let mut config = CoupConfig::default();
        for kv in rest {
            config.set(kv).map_err(|e| e.to_string())?;
        }
        Ok(CoupBot { strategy, config })
    }

    /// The name the saved game gives the bot (`coup-arbiter`'s name of a `builtin:` seat).
    pub fn name(&self) -> &'static str {
        self.strategy.name()
    }

    /// The command the saved game records (`builtin:search worlds=900`).
    pub fn command(&self, settings: &[String]) -> String {
        let (_, rest) = super::strategy_of(settings, "search");
        let mut words = vec![format!("builtin:{}", self.strategy.name())];
        words.extend(rest.iter().map(|s| s.to_string()));
        words.join(" ")
    }

    /// The bot's explanation ([`Decision::explanation`], `coup-bot --explain`'s lines) in
    /// words: each answer it weighed named (`Tax (claims Duke): +3 coins: won 48.6% of 300
    /// worlds`) and its belief about your hand by character's name.
    pub fn explain(explanation: &str) -> String {
        let name = |code: char| Character::from_revealed(code).map(|c| format!("{c:?}"));
        explanation
            .lines()
            .map(|line| {
                if let Some(rest) = line.strip_prefix("posterior holds ") {
                    let parts: Vec<String> = rest
                        .split_whitespace()
                        .filter_map(|kv| {
                            let (c, p) = kv.split_once(':')?;
                            let p: f64 = p.parse().ok()?;
                            Some(format!("{} {:.0}%", name(c.chars().next()?)?, 100.0 * p))
                        })
                        .collect();
                    return format!(
                        "the chance it gives each character being in your hand: {}",
                        parts.join(", ")
                    );
                }
                // `"CODE"[ keep CARDS] SHARE (N worlds|visits)`, the code Debug-quoted.
                let parsed = line.strip_prefix('"').and_then(|l| {
                    let (code, rest) = l.split_once('"')?;
                    let answer = code.replace("\\n", "\n");
                    let mut words: Vec<&str> = rest.split_whitespace().collect();
                    let keep = match words.first() {
                        Some(&"keep") if words.len() > 1 => {
                            let k: Vec<String> = words[1].chars().filter_map(name).collect();
                            words.drain(..2);
                            format!(", keeping {}", k.join(" and "))
                        }
                        _ => String::new(),
                    };
                    let share: f64 = words.first()?.parse().ok()?;
                    let n = words.get(1)?.trim_start_matches('(');
                    let unit = words.get(2)?.trim_end_matches(')');
                    Some(format!(
                        "{}{keep}: won {:.1}% of {n} {unit}",
                        crate::report::coup::describe(&answer),
                        100.0 * share
                    ))
                });
                parsed.unwrap_or_else(|| line.to_string())
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    /// The bot's answer to one call of the arbiter, as `coup-arbiter` asks a built-in seat:
    /// the history so far and the call's coins, cards and legal answers.
    pub fn decide(&self, history: &str, call: &Call) -> Decision {
        let cards = format_hand(&call.cards);
        let view = View::new(history, call.opp_coins, call.my_coins, &cards, &call.legal);
        let config = Config {
            strategy: self.strategy,
            search: self.config,
        };
        decide(&view, Remembered::Nothing, &config)
    }
}

/// Durak's bots: the partner's and the opponents' strategies and the search settings
/// (`durak-server`'s `inproc:NAME:KNOBS` teams).
#[derive(Debug, Clone)]
pub struct DurakBots {
    /// The person's partner's strategy.
    pub partner: DurakStrategy,
    /// The opponents' strategy.
    pub opponents: DurakStrategy,
    /// The settings every bot plays with.
    pub config: DeepConfig,
}

/// A Durak strategy by its name in `durak-bot --strategy` and `durak-server inproc:NAME`.
fn durak_strategy(name: &str) -> Result<DurakStrategy, String> {
    Ok(match name {
        "random" => DurakStrategy::Random,
        "greedy" => DurakStrategy::Greedy,
        "heuristic" => DurakStrategy::Heuristic,
        "deep" => DurakStrategy::Deep,
        _ => {
            return Err(format!(
                "unknown Durak strategy {name:?} (random, greedy, heuristic, deep)"
            ))
        }
    })
}

/// A Durak strategy's name, as `durak-bot --strategy` takes it.
pub fn durak_name(s: DurakStrategy) -> &'static str {
    match s {
        DurakStrategy::Random => "random",
        DurakStrategy::Greedy => "greedy",
        DurakStrategy::Heuristic => "heuristic",
        DurakStrategy::Deep => "deep",
    }
}

impl DurakBots {
    /// From `--bot` settings: `strategy=NAME` (all three bots, default `deep`),
    /// `partner=NAME`, `opponents=NAME`, and the deep search's `KEY=VALUE` knobs
    /// ([`DeepConfig::parse`], as `durak-bot --deep` takes them).
    ///
    /// # Errors
    /// A one-line message: an unknown strategy or knob.
    pub fn new(settings: &[String]) -> Result<DurakBots, String> {
        let (name, rest) = super::strategy_of(settings, "deep");
        let all = durak_strategy(name)?;
        let (mut partner, mut opponents) = (all, all);
        let mut knobs = Vec::new();
        for kv in rest {
            match kv.split_once('=') {
                Some(("partner", v)) => partner = durak_strategy(v)?,
                Some(("opponents", v)) => opponents = durak_strategy(v)?,
                _ => knobs.push(kv),
            }
        }
        let deep = DeepConfig::parse(&knobs.join(","))?;
        #[cfg(feature = "measure")]
        if deep.measure.clairvoyant > 0 {
            return Err("the clairvoyant bound sees every hand: not a bot to play against".into());
        }
        Ok(DurakBots {
            partner,
            opponents,
            config: deep,
        })
    }

    /// The bot of absolute seat `seat` in the deal seeded `deal_seed`, seeded as
    /// `durak-server` seeds it; `partner` tells which strategy it plays.
    pub fn seat(&self, deal_seed: u64, seat: usize, partner: bool) -> DurakSeat {
        let strategy = if partner {
            self.partner
        } else {
            self.opponents
        };
        DurakSeat {
            bot: DurakBot::new(strategy, seat_seed(deal_seed, seat)).with_config(self.config),
        }
    }
}

/// One Durak bot seat, fed the referee's lines.
#[derive(Debug, Clone)]
pub struct DurakSeat {
    bot: DurakBot,
}

impl DurakSeat {
    /// Feeds a referee line (lines it cannot read are skipped, as the program skips them).
    pub fn feed(&mut self, line: &str) {
        let _ = self.bot.feed(line);
    }

    /// The answer line to `command`, and why in words: the search's work, and what the bot
    /// knows and believes of the hand of the player `about` (relative to the bot: 1 the
    /// next player clockwise, 2 its partner, 3 the previous).
    pub fn answer(&mut self, command: Command, about: usize) -> (String, String) {
        let decision = durak_decide(&mut self.bot, command);
        let answer = format_answer(decision.answer);
        let t = self.bot.tracker();
        let mut why = Vec::new();
        if let Some((stats, cap)) = decision.search {
            why.push(format!(
                "searched {} deals of the hidden cards consistent with what it saw ({} work units of {} allowed), playing each answer out",
                stats.samples, stats.work, cap
            ));
        } else {
            let legal = t.legal(command).len();
            why.push(if legal <= 1 {
                "its only legal answer".to_string()
            } else {
                "its rule's answer (no search at this decision)".to_string()
            });
        }
        let about = about % 4;
        let cards = |set: CardSet| {
            let v: Vec<String> = set
                .iter()
                .map(|c| {
                    crate::report::durak::chip(&c.display(Notation::Durak).to_string(), "", "").text
                })
                .collect();
            if v.is_empty() {
                "none".to_string()
            } else {
                v.join(" ")
            }
        };
        why.push(format!(
            "of your {} cards it knows {}",
            t.sizes[about],
            cards(t.known[about])
        ));
        let lacks = t.lacks[about].union(t.banned[about]).intersect(t.unseen());
        if !lacks.is_empty() {
            why.push(format!("it believes you lack {}", cards(lacks)));
        }
        (answer, why.join("; "))
    }
}

/// The Ioiwari bot (`ioiwari --strategy NAME`, default `optimal`).
pub struct IoiwariBot {
    player: IoiwariPlayer,
    name: String,
}

impl IoiwariBot {
    /// From `--bot` settings: `strategy=optimal|random|greedy`; `seed` drives `random`.
    ///
    /// # Errors
    /// A one-line message: an unknown strategy or any other setting.
    pub fn new(settings: &[String], seed: u64) -> Result<IoiwariBot, String> {
        use clap::ValueEnum;
        let (name, rest) = super::strategy_of(settings, "optimal");
        if let Some(kv) = rest.first() {
            return Err(format!(
                "the Ioiwari bot takes only strategy=NAME, got {kv:?}"
            ));
        }
        let strategy = IoiwariStrategy::from_str(name, true)
            .map_err(|_| format!("unknown Ioiwari strategy {name:?} (optimal, random, greedy)"))?;
        Ok(IoiwariBot {
            player: IoiwariPlayer::new(strategy, seed),
            name: name.to_string(),
        })
    }

    /// The command the saved game records for it.
    pub fn command(&self) -> String {
        format!("ioiwari --strategy {}", self.name)
    }

    /// The pit (0-based) it empties on `board`, and why: every move's value under optimal
    /// play (the final bank difference for the mover).
    pub fn choose(&mut self, board: Board) -> (Option<usize>, String) {
        let pit = self.player.choose(board);
        let values = crate::ioiwari::table().move_values(board);
        let why: Vec<String> = (0..PITS)
            .filter_map(|i| values[i].map(|v| format!("pit {}: {v:+}", i + 1)))
            .collect();
        (
            pit,
            format!(
                "what each move gains the bot over you from here on, both playing best after it: {}",
                why.join(", ")
            ),
        )
    }
}
