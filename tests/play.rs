//! `cardgames-play` played as a person plays it: the program runs on a pseudo-terminal, the
//! test reads the screen, types moves (by number, by code, and bad ones), and plays one game
//! of each of the three to the end with a fixed seed. Each saved game is then replayed game
//! for game under the servers' engines and bot decisions (Coup: the arbiter's `Table` and its
//! built-in seat's decision; Durak: the referee with the server's seeded in-process bots;
//! Ioiwari: the engine and the optimal player), and drawn by the server's `report`. Leaving
//! mid-game (a closed terminal, Ctrl-C, Ctrl-D) saves the game as the person's forfeit.
//!
//! The browser test (`web_game_in_headless_chromium`) drives `--web` in headless Chromium
//! through Playwright for Python (`tests/play_web.py`); it needs both, which `make setup`
//! installs, so a plain `cargo test` ignores it (`make test` runs it: see tests/support).

mod support;

use std::io::{Read, Write};
use std::os::fd::AsFd;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cardgames::coup::game::rules::{Outcome, Table};
use cardgames::durak::referee::{play_game_with, PlayOptions, Player, SeatFault};
use cardgames::durak::tournament::{seat_seed, BotSeat};
use cardgames::durak::{DurakBot, Game as DurakGame, Strategy};
use cardgames::ioiwari::{
    Board, Game as IoiwariGame, Player as IoiwariPlayer, Strategy as IoStrategy,
};
use cardgames::play::bots::CoupBot;
use nix::poll::{poll, PollFd, PollFlags};

const PROMPT: &str = "Your move (number or code";
const BIN: &str = env!("CARGO_BIN_EXE_cardgames-play");

/// The program on a pseudo-terminal: everything it wrote so far, and its input.
struct Pty {
    master: Option<std::fs::File>,
    child: Child,
    screen: Arc<Mutex<String>>,
    /// Tells the reader thread to stop (and drop its copy of the master).
    stop: Arc<AtomicBool>,
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Pty {
    fn spawn(dir: &Path, args: &[&str]) -> Pty {
        let pty = nix::pty::openpty(None, None).expect("openpty");
        // openpty's descriptors are inherited by every program started meanwhile (the
        // tests run in parallel): close-on-exec, or a closed terminal stays open in them.
        for fd in [&pty.master, &pty.slave] {
            nix::fcntl::fcntl(
                fd,
                nix::fcntl::FcntlArg::F_SETFD(nix::fcntl::FdFlag::FD_CLOEXEC),
            )
            .expect("FD_CLOEXEC");
        }
        let slave = std::fs::File::from(pty.slave);
        let child = Command::new(BIN)
            .args(args)
            .current_dir(dir)
            .stdin(Stdio::from(slave.try_clone().unwrap()))
            .stdout(Stdio::from(slave.try_clone().unwrap()))
            .stderr(Stdio::from(slave))
            .spawn()
            .expect("start cardgames-play");
        let master = std::fs::File::from(pty.master);
        let mut reader = master.try_clone().unwrap();
        let screen = Arc::new(Mutex::new(String::new()));
        let stop = Arc::new(AtomicBool::new(false));
        let (shared, stopped) = (Arc::clone(&screen), Arc::clone(&stop));
        let reader = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            while !stopped.load(Ordering::SeqCst) {
                let mut fds = [PollFd::new(reader.as_fd(), PollFlags::POLLIN)];
                match poll(&mut fds, 50u16) {
                    Ok(0) => continue,
                    Ok(_) => {}
                    Err(_) => break,
                }
                // EIO once the program and every copy of the slave are gone.
                match reader.read(&mut buf) {
                    Ok(n) if n > 0 => {
                        let text = String::from_utf8_lossy(&buf[..n]).replace('\r', "");
                        shared.lock().unwrap().push_str(&text);
                    }
                    _ => break,
                }
            }
        });
        Pty {
            master: Some(master),
            child,
            screen,
            stop,
            reader: Some(reader),
        }
    }

    /// Closes the terminal: the master's every copy.
    fn close(&mut self) {
        self.master = None;
        self.stop.store(true, Ordering::SeqCst);
        if let Some(r) = self.reader.take() {
            r.join().unwrap();
        }
    }

    fn text(&self) -> String {
        self.screen.lock().unwrap().clone()
    }

    /// Waits until the screen after byte `from` holds one of `marks`; returns the screen and
    /// which mark.
    fn wait(&self, from: usize, marks: &[&str]) -> (String, usize) {
        let start = Instant::now();
        loop {
            let t = self.text();
            if let Some(i) = marks
                .iter()
                .position(|m| t[from.min(t.len())..].contains(m))
            {
                return (t, i);
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "no {marks:?} on the screen after 120 s; screen ends:\n{}",
                &t[t.len().saturating_sub(3000)..]
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    fn type_line(&mut self, line: &str) {
        let m = self.master.as_mut().expect("terminal open");
        m.write_all(line.as_bytes()).unwrap();
        m.write_all(b"\n").unwrap();
    }

    fn exit(&mut self) -> Option<i32> {
        let start = Instant::now();
        loop {
            if let Some(s) = self.child.try_wait().unwrap() {
                return s.code();
            }
            assert!(
                start.elapsed() < Duration::from_secs(60),
                "the program did not exit"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// The numbered moves of the last list on the screen: (number typed, words, code).
fn moves(screen: &str) -> Vec<(String, String, String)> {
    let block = &screen[screen.rfind("===").unwrap_or(0)..];
    let block = &block[..block.rfind(PROMPT).unwrap_or(block.len())];
    block
        .lines()
        .filter_map(|l| {
            let l = l.strip_prefix("  ")?;
            let (n, rest) = l.trim_start().split_once("  ")?;
            n.parse::<usize>().ok()?;
            let (words, code) = match rest.rsplit_once("   ") {
                Some((w, c)) => (w.trim().to_string(), c.trim().to_string()),
                None => (rest.trim().to_string(), n.to_string()),
            };
            Some((n.to_string(), words, code))
        })
        .collect()
}

/// Plays a game on the terminal to its end: the first move listed each time, typed by its
/// number, except that the first prompt gets two bad lines first (each must draw the hint
/// and the same prompt again) and the second is answered by the move's code. Returns the
/// whole screen.
fn play_through(dir: &Path, args: &[&str]) -> String {
    let mut p = Pty::spawn(dir, args);
    let mut from = 0;
    let mut asked = 0;
    loop {
        let (screen, which) = p.wait(from, &[PROMPT, "*** "]);
        if which == 1 {
            p.wait(from, &["Drawn again by: "]);
            break;
        }
        let list = moves(&screen);
        assert!(
            !list.is_empty(),
            "no moves listed before the prompt:\n{}",
            &screen[from..]
        );
        if asked == 0 {
            for bad in ["no such move", "99"] {
                let before = p.text().len();
                p.type_line(bad);
                let (after, _) = p.wait(before, &["is not one of the moves"]);
                let tail = &after[before..];
                let hint = tail.find("is not one of the moves").unwrap();
                // The same prompt again, and no new screen in between.
                p.wait(before + hint, &[PROMPT]);
                assert!(
                    !p.text()[before..].contains("==="),
                    "a bad line changed the game"
                );
            }
        }
        from = p.text().len();
        let (n, _, code) = &list[0];
        p.type_line(if asked == 1 { code } else { n });
        asked += 1;
    }
    assert_eq!(p.exit(), Some(0), "cardgames-play {args:?} did not exit 0");
    p.text()
}

fn tmp() -> tempfile::TempDir {
    tempfile::tempdir().unwrap()
}

/// The server draws the saved game: `SERVER report SAVED --html OUT` writes the report and
/// its replay page.
fn server_draws(dir: &Path, server: &str, saved: &Path, replay: usize) {
    let bin = PathBuf::from(BIN).with_file_name(server);
    let out = Command::new(&bin)
        .args([
            "report",
            &saved.display().to_string(),
            "--html",
            "again.html",
        ])
        .current_dir(dir)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{server} report: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let page = dir.join(format!("again-games/game-{replay:05}.html"));
    let html = std::fs::read_to_string(&page).unwrap_or_else(|e| panic!("{}: {e}", page.display()));
    assert!(html.contains("data-page-ok"));
}

/// Replays a saved Coup game through the arbiter's true state: every call's legal list,
/// coins and hands as saved, every bot answer what the arbiter's built-in seat answers, and
/// the same winner.
fn replay_coup(saved: &Path) -> usize {
    let run = cardgames::report::coup::Run::read(saved).unwrap();
    assert_eq!(run.games.len(), 1);
    let g = &run.games[0];
    let you = run.bots.iter().position(|b| b.name == "you").unwrap();
    let bot = CoupBot::new(&[]).unwrap();
    let mut table = Table::new(g.seed, false);
    let seats = [g.first, g.second];
    let mut outcome = None;
    for (k, t) in g.turns.iter().enumerate() {
        let call = table.next_call().unwrap();
        assert_eq!((call.seat, &call.legal), (t.seat, &t.legal), "call {k}");
        assert_eq!([table.coins(0), table.coins(1)], t.coins, "call {k}");
        if seats[t.seat] != you {
            let d = bot.decide(&table.history, &call);
            assert_eq!(d.answer, t.answer, "the bot's answer at call {k}");
        }
        let keep = t.kept.clone().unwrap_or_default();
        outcome = table.play(&call, &t.answer, &keep);
        assert!(
            outcome.is_none() || k + 1 == g.turns.len(),
            "ended early at call {k}"
        );
    }
    assert_eq!(table.history, g.history);
    match outcome.expect("the game ended") {
        Outcome::Win { winner } => assert_eq!(Some(seats[winner]), g.winner),
        o => panic!("unexpected end {o:?}"),
    }
    g.turns.len()
}

/// A seat answering as the saved game says.
struct Scripted(Vec<String>);

impl Player for Scripted {
    fn send(&mut self, _line: &str) -> Result<(), SeatFault> {
        Ok(())
    }
    fn ask(&mut self, _c: cardgames::durak::Command, _t: Duration) -> Result<String, SeatFault> {
        Ok(self.0.remove(0))
    }
}

/// Replays a saved Durak game under the referee: the person's answers as saved, the three
/// others `durak-server`'s in-process deep bots seeded as it seeds them; every answer and
/// event as saved, and the same winner.
fn replay_durak(saved: &Path, me: usize) -> usize {
    let run = cardgames::report::durak::Run::read(saved).unwrap();
    let g = &run.games[0];
    let steps = g.steps.as_ref().expect("steps saved");
    let (game, dealt) = DurakGame::new(g.seed);
    let mut person = Scripted(
        steps
            .iter()
            .filter(|s| s.player == me)
            .map(|s| s.answer.clone())
            .collect(),
    );
    let mut bots: Vec<BotSeat> = (0..4)
        .filter(|&p| p != me)
        .map(|p| BotSeat(DurakBot::new(Strategy::Deep, seat_seed(g.seed, p))))
        .collect();
    let others = bots.iter_mut().map(|b| b as &mut dyn Player).collect();
    let mut seats = cardgames::play::durak::seats(me, &mut person, others);
    let rec = play_game_with(
        game,
        &dealt,
        &mut seats,
        PlayOptions {
            steps: true,
            ..PlayOptions::default()
        },
    );
    let again: Vec<(usize, String)> = rec
        .steps
        .unwrap()
        .iter()
        .map(|s| (s.player, s.answer.clone()))
        .collect();
    let saved: Vec<(usize, String)> = steps.iter().map(|s| (s.player, s.answer.clone())).collect();
    assert_eq!(again, saved, "the replay's answers differ");
    let team = |w: usize| cardgames::report::durak::team_letter(w, g.swapped).to_string();
    assert_eq!(rec.winner.map(team), g.winner);
    saved.len()
}

/// Replays a saved Ioiwari game on the engine: the bot's moves the optimal player's, the
/// banks as saved.
fn replay_ioiwari(saved: &Path, me: usize) -> usize {
    let run = cardgames::report::ioiwari::Run::read(saved).unwrap();
    let r = &run.games[0].record;
    let mut game = IoiwariGame::new(Board::start(r.start).unwrap());
    let mut bot = IoiwariPlayer::new(IoStrategy::Optimal, 1);
    for &m in &r.moves {
        let pit = usize::from(m) - 1;
        if game.to_move().index() != me {
            assert_eq!(bot.choose(game.board()), Some(pit));
        }
        game.play(pit).unwrap();
    }
    assert!(game.is_over());
    assert_eq!(game.banks(), r.banks);
    r.moves.len()
}

#[test]
fn coup_game_on_a_terminal_replays_under_the_arbiter() {
    let dir = tmp();
    let screen = play_through(dir.path(), &["coup", "--seed", "5", "--explain"]);
    assert!(screen.contains("Bot:"), "no bot move told");
    assert!(screen.contains("why: "), "--explain showed nothing");
    assert!(screen.contains("Your cards: ["));
    let saved = dir.path().join("cardgames-play-coup-5.json");
    assert!(screen.contains("Saved: cardgames-play-coup-5.json"));
    let calls = replay_coup(&saved);
    assert!(calls > 4);
    server_draws(dir.path(), "coup-arbiter", &saved, 0);
}

#[test]
fn durak_game_on_a_terminal_replays_under_the_referee() {
    let dir = tmp();
    let screen = play_through(
        dir.path(),
        &["durak", "--seed", "5", "--seat", "2", "--explain"],
    );
    assert!(screen.contains("trump: "));
    assert!(screen.contains("Player 4 (your partner, deep)"));
    assert!(screen.contains("searched "), "--explain showed no search");
    let saved = dir.path().join("cardgames-play-durak-5.json");
    let answers = replay_durak(&saved, 1);
    assert!(answers > 10);
    server_draws(dir.path(), "durak-server", &saved, 0);
}

#[test]
fn ioiwari_game_on_a_terminal_replays_on_the_engine() {
    let dir = tmp();
    let screen = play_through(dir.path(), &["ioiwari", "--seed", "5", "--seat", "2"]);
    assert!(screen.contains("The pits (1 to 7"));
    let saved = dir.path().join("cardgames-play-ioiwari-5.json");
    assert!(replay_ioiwari(&saved, 1) >= 2);
    server_draws(dir.path(), "ioiwari-referee", &saved, 0);
}

/// Starts a game, makes one move, and leaves as `leave` does; the game must be saved as the
/// person's forfeit (exit status 130) and still be drawn by the server's report.
fn leave_mid_game(game: &str, server: &str, leave: &dyn Fn(&mut Pty)) {
    let dir = tmp();
    let mut p = Pty::spawn(dir.path(), &[game, "--seed", "8", "--save", "left.json"]);
    let (_, _) = p.wait(0, &[PROMPT]);
    let from = p.text().len();
    p.type_line("1");
    p.wait(from, &[PROMPT]);
    leave(&mut p);
    assert_eq!(p.exit(), Some(130), "{game}: leaving is exit status 130");
    let text = std::fs::read_to_string(dir.path().join("left.json")).expect("saved");
    assert!(text.contains("the person left the game"), "{game}: {text}");
    server_draws(dir.path(), server, &dir.path().join("left.json"), 0);
}

#[test]
fn a_closed_terminal_mid_game_saves_it() {
    leave_mid_game("coup", "coup-arbiter", &|p| p.close());
}

#[test]
fn ctrl_c_mid_game_saves_it() {
    leave_mid_game("durak", "durak-server", &|p| {
        let pid = nix::unistd::Pid::from_raw(p.child.id() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGINT).unwrap();
    });
}

#[test]
fn end_of_input_mid_game_saves_it() {
    leave_mid_game("ioiwari", "ioiwari-referee", &|p| {
        // Ctrl-D at the start of a line: the terminal's end of input.
        p.master.as_mut().unwrap().write_all(&[4]).unwrap();
    });
}

#[test]
fn bad_settings_are_one_line_errors() {
    for args in [
        &["coup", "--seat", "3"][..],
        &["durak", "--bot", "strategy=nope"],
        &["ioiwari", "--bot", "depth=3"],
        &["coup", "--bot", "no_such_knob=1"],
    ] {
        let out = Command::new(BIN)
            .args(args)
            .stdin(Stdio::null())
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("cardgames-play: "), "{err}");
    }
}

/// Whether python3 can import Playwright.
fn have_playwright() -> bool {
    Command::new("python3")
        .args(["-c", "import playwright.sync_api"])
        .output()
        .is_ok_and(|o| o.status.success())
}

#[test]
#[ignore = "needs chromium and python3's playwright (make setup installs both)"]
fn web_game_in_headless_chromium() {
    let chromium = ["chromium", "chromium-browser"]
        .into_iter()
        .find(|b| support::have(b));
    support::require(
        "chromium (make setup, or apt-get install chromium)",
        chromium.is_some(),
    );
    support::require(
        "python3's playwright (make setup, or pip install playwright)",
        have_playwright(),
    );
    let dir = tmp();
    let shots = Path::new(env!("CARGO_TARGET_TMPDIR")).join("play-shots");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/play_web.py");
    let out = Command::new("python3")
        .arg(&script)
        .arg(BIN)
        .arg(dir.path())
        .arg(&shots)
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "tests/play_web.py failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for game in ["coup", "durak", "ioiwari"] {
        assert!(
            stdout.contains(&format!("{game}: played to the end")),
            "{stdout}"
        );
        let saved = dir.path().join(format!("{game}.json"));
        assert!(saved.is_file(), "{game} not saved");
    }
    replay_coup(&dir.path().join("coup.json"));
    replay_durak(&dir.path().join("durak.json"), 0);
    replay_ioiwari(&dir.path().join("ioiwari.json"), 0);
}

/// An in-process bot seat that says it is untimed, as the person's seat does.
struct Untimed(BotSeat);

impl Player for Untimed {
    fn send(&mut self, line: &str) -> Result<(), SeatFault> {
        self.0.send(line)
    }
    fn ask(&mut self, c: cardgames::durak::Command, t: Duration) -> Result<String, SeatFault> {
        // Slower than any bot: the time must not count.
        std::thread::sleep(Duration::from_millis(5));
        self.0.ask(c, t)
    }
    fn timed(&self) -> bool {
        false
    }
}

#[test]
fn the_referee_charges_no_time_to_an_untimed_seat() {
    let (game, dealt) = DurakGame::new(11);
    let mut person = Untimed(BotSeat(DurakBot::new(Strategy::Greedy, 1)));
    let mut bots: Vec<BotSeat> = (0..3)
        .map(|i| BotSeat(DurakBot::new(Strategy::Greedy, 2 + i)))
        .collect();
    let others = bots.iter_mut().map(|b| b as &mut dyn Player).collect();
    let mut seats = cardgames::play::durak::seats(2, &mut person, others);
    let rec = play_game_with(game, &dealt, &mut seats, PlayOptions::default());
    assert!(rec.answers[2] > 0);
    assert_eq!(rec.time_used[2], Duration::ZERO);
    assert_eq!(rec.max_answer[2], Duration::ZERO);
    assert!(rec
        .time_used
        .iter()
        .enumerate()
        .all(|(p, t)| p == 2 || *t < Duration::from_millis(5) * rec.answers[p]));
    assert!(rec.forfeit.is_none());
}
