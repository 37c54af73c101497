//! The one Coup engine (`cardgames::coup::engine`) against the independent
//! port of the contest's arbiter (`../shared/coup/arbiter3.py`): random games
//! between two `coup-bot --strategy random` programs are played under the
//! Python arbiter, and every call of its log is replayed through the engine:
//! the same legal answers, the same coins before every call, and the same
//! winner; and the history read back (`History::replay`) gives the same
//! coins and cards at the start of every turn. Hands are taken from the log
//! at each call (the two arbiters
//! shuffle returned cards with different generators), so what is checked is
//! the rules themselves, not the deck order.
//!
//! Needs python3 (required) and `../shared/coup/arbiter3.py`: without it the
//! test does not run and says so, except under `CI`, where it fails
//! (`support::outside`).

mod support;

use std::process::Command;

use cardgames::coup::engine::{at_turn_start, Cards, End, State};
use cardgames::coup::{Character, History, Reply};
use rand_chacha::rand_core::SeedableRng;
use rand_chacha::ChaCha8Rng;

/// One call of the arbiter's log.
#[derive(Debug)]
struct LoggedCall {
    game: String,
    opp_coins: i64,
    my_coins: i64,
    cards: Vec<Character>,
    legal: Vec<String>,
    played: String,
    kept: Option<String>,
}

/// Reads a Python `repr` of a short string: `'I\n'`, `"'"`, `'q'`.
fn unrepr(s: &str) -> String {
    let inner = &s[1..s.len() - 1];
    inner.replace("\\n", "\n").replace("\\'", "'")
}

/// The calls of an arbiter3.py log (`' '.join(args)` per call, then
/// `NAME played REPR`), with the Exchange keeps (`tried to take REPR from`).
fn parse_log(log: &str, games_dir: &str) -> Vec<LoggedCall> {
    let mut out: Vec<LoggedCall> = Vec::new();
    let lines: Vec<&str> = log.split('\n').collect();
    let mut i = 0;
    let mut pending: Option<LoggedCall> = None;
    while i < lines.len() {
        let line = lines[i];
        if pending.is_none() && line.contains(games_dir) && line.contains(".txt ") {
            let mut text = line.to_string();
            while i + 1 < lines.len()
                && !lines[i + 1].contains(" played ")
                && !lines[i + 1].contains(games_dir)
            {
                i += 1;
                text.push('\n');
                text.push_str(lines[i]);
            }
            let (head, rest) = text.split_once(".txt ").expect("a history file");
            let game = head.rsplit('/').next().unwrap_or(head).to_string();
            let mut parts = rest.splitn(4, ' ');
            let opp_coins = parts.next().and_then(|x| x.parse().ok()).expect("coins");
            let my_coins = parts.next().and_then(|x| x.parse().ok()).expect("coins");
            let cards = parts
                .next()
                .expect("cards")
                .chars()
                .filter_map(Character::from_revealed)
                .collect();
            let legal_text = parts.next().unwrap_or("");
            let mut legal = Vec::new();
            let chars: Vec<char> = legal_text.chars().collect();
            let mut j = 0;
            while j < chars.len() {
                if chars[j] == ' ' {
                    j += 1;
                } else if chars.get(j + 1) == Some(&'\n') {
                    legal.push(format!("{}\n", chars[j]));
                    j += 2;
                } else {
                    legal.push(chars[j].to_string());
                    j += 1;
                }
            }
            pending = Some(LoggedCall {
                game,
                opp_coins,
                my_coins,
                cards,
                legal,
                played: String::new(),
                kept: None,
            });
        } else if let Some(p) = pending.as_mut().filter(|_| line.contains(" played ")) {
            let (_, repr) = line.split_once(" played ").unwrap_or(("", "''"));
            p.played = unrepr(repr.trim());
            out.push(pending.take().expect("pending"));
        } else if line.contains(" tried to take ") {
            let repr = line
                .split_once(" tried to take ")
                .and_then(|(_, r)| r.split_once(" from "))
                .map(|(r, _)| r.to_string())
                .unwrap_or_default();
            if let Some(last) = out.last_mut() {
                last.kept = Some(unrepr(&repr));
            }
        }
        i += 1;
    }
    out
}

#[test]
fn engine_agrees_with_the_python_arbiter() {
    let Some(shared) = support::shared("coup/arbiter3.py", "the contest's Coup arbiter") else {
        return;
    };
    support::require_tool("python3");
    let dir = tempfile::tempdir().expect("temp dir");
    let w = dir.path();
    for b in ["A", "B"] {
        std::fs::create_dir_all(w.join("bots").join(b)).expect("bot dir");
    }
    let bot = env!("CARGO_BIN_EXE_coup-bot");
    let cmd = format!("[\"{bot}\", \"--no-memory\", \"--strategy\", \"random\"]");
    std::fs::write(
        w.join("bots.json"),
        format!("{{\"A\": {cmd}, \"B\": {cmd}}}"),
    )
    .expect("config");
    let games = w.join("games");
    let status = Command::new("python3")
        .arg(&shared)
        .args(["--config", &w.join("bots.json").to_string_lossy()])
        .args(["--bots", "A,B", "--rounds", "40", "--seed", "5"])
        .args(["--botdir", &w.join("bots").to_string_lossy()])
        .args(["--games-dir", &games.to_string_lossy()])
        .args(["--log", &w.join("log").to_string_lossy()])
        .output()
        .expect("python3 runs");
    assert!(status.status.success(), "arbiter3.py failed: {status:?}");
    let log = std::fs::read_to_string(w.join("log")).expect("log");
    let calls = parse_log(&log, &games.to_string_lossy());
    assert!(calls.len() > 1000, "only {} calls in the log", calls.len());
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    let mut checked = 0;
    let mut replayed_turns = 0;
    let mut i = 0;
    while i < calls.len() {
        let game = calls[i].game.clone();
        let n = calls[i..].iter().take_while(|c| c.game == game).count();
        let first = &calls[i];
        let mut coins = [first.my_coins, first.opp_coins];
        let mut s = State::deal(Cards::from_slice(&[Character::Duke; 15]), coins);
        // The history file as the arbiter writes it.
        let mut text = String::new();
        for (k, c) in calls[i..i + n].iter().enumerate() {
            let seat = k % 2;
            assert_eq!(s.to_call(), seat);
            coins = s.coins;
            assert_eq!(
                (coins[seat], coins[1 - seat]),
                (c.my_coins, c.opp_coins),
                "{game} call {k}: coins"
            );
            if at_turn_start(s.line()) {
                // Read from the first player's side: `me` is seat 0.
                let h = History::parse_as(&text, true).expect("a history");
                let (replayed, held) = *h.replay().last().expect("a state");
                assert_eq!(
                    replayed, s.coins,
                    "{game} call {k}: replayed coins of {text:?}"
                );
                assert_eq!(
                    held,
                    [s.hands[0].len(), s.hands[1].len()],
                    "{game} call {k}: replayed cards of {text:?}"
                );
                replayed_turns += 1;
            }
            // The hand as the arbiter passed it (after an Exchange's draw:
            // the two drawn cards first).
            let exchange = s.exchange_due();
            let hand = if exchange {
                &c.cards[2..]
            } else {
                &c.cards[..]
            };
            s.hands[seat] = Cards::from_slice(hand);
            if exchange {
                s.drawn = Some([c.cards[0], c.cards[1]]);
                s.deck = Cards::from_slice(&[Character::Duke; 9]);
            }
            if k > 0 {
                // The first call always offers the arbiter's fixed list.
                let legal: Vec<String> = s
                    .legal()
                    .expect("a legal list")
                    .as_slice()
                    .iter()
                    .map(|r| r.text())
                    .collect();
                assert_eq!(legal, c.legal, "{game} call {k}: legal answers");
            }
            let answer = Reply::parse(&c.played).expect("a known answer");
            let kept: Option<Vec<Character>> = c.kept.as_ref().map(|k| {
                k.trim()
                    .chars()
                    .filter_map(Character::from_revealed)
                    .collect()
            });
            checked += 1;
            if s.deck.len() < 2 {
                s.deck = Cards::from_slice(&[Character::Duke; 9]);
            }
            let end = s.apply(answer, kept.as_deref(), &mut rng);
            text.push_str(&c.played);
            if k + 1 == n {
                // The log's last call ended the game (or the call limit did).
                let winner = log
                    .split(&format!("{game}.txt\n"))
                    .nth(1)
                    .and_then(|rest| rest.split("wins").next())
                    .and_then(|before| before.lines().last())
                    .map(|l| l.split_whitespace().next().unwrap_or("").to_string());
                if let Some(End::Win(w)) = end {
                    let first_name = game.split('_').next().unwrap_or("");
                    let name = if w == 0 {
                        first_name.to_string()
                    } else {
                        game.split('_').nth(1).unwrap_or("").to_string()
                    };
                    assert_eq!(winner.as_deref(), Some(name.as_str()), "{game}: winner");
                } else {
                    assert!(
                        n >= 200 || end == Some(End::Draw),
                        "{game}: no end after {n} calls: {end:?}"
                    );
                }
            } else {
                assert_eq!(
                    end, None,
                    "{game} call {k}: the engine ended the game early"
                );
            }
        }
        i += n;
    }
    assert!(checked > 1000);
    assert!(replayed_turns > 500, "only {replayed_turns} turns replayed");
}
