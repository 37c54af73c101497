//! The browser front (`cardgames-play --web`): the same game served on 127.0.0.1 only, on a
//! free port, at a URL carrying a random token (`/?token=...`); every request without that
//! token gets 403. The page (a minijinja template, `templates/play/page.html`) draws the
//! cards as cards, the legal moves as buttons of one plain HTML form (no script), the moves
//! so far in words with each bot move's explanation folded under it, and at the end the
//! result and a link to the replay page the server's report writes (served at `/replay`).
//!
//! The game runs in a thread of its own, asking the person through [`WebFront`]; the state
//! lives on the server, so a refreshed page resumes and a second tab sees the same game. A
//! move is posted with the number of the decision it answers (`seq`): a stale tab's post gets
//! 409, an illegal choice or a malformed body 400, and nothing changes.

use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use minijinja::{context, Environment};
use tiny_http::{Header, Method, Request, Response, Server};

use super::{Choice, Ending, Front, Options, Screen, Told};

const PAGE: &str = include_str!("../../templates/play/page.html");
const STYLE: &str = include_str!("../../templates/play/style.css");

/// Largest request body read, in bytes (a move's form is under 100).
const MAX_BODY: u64 = 4096;
/// How long a page load waits for the bots to reach the person's next decision before it
/// shows "thinking" (and refreshes itself).
const WAIT: Duration = Duration::from_secs(15);

/// The game as the server shows it.
#[derive(Debug, Default)]
struct State {
    screen: Screen,
    choices: Vec<Choice>,
    /// Whether the game waits for the person.
    waiting: bool,
    /// The decision's number: a post must name the current one.
    seq: u64,
    answer: Option<usize>,
    log: Vec<Told>,
    ending: Option<Ending>,
    /// The game failed (a message for the page).
    failed: Option<String>,
}

/// The state shared by the game thread and the request handlers.
#[derive(Debug, Default)]
pub struct Shared {
    state: Mutex<State>,
    changed: Condvar,
}

impl Shared {
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The front the game thread talks to: publishes what the page shows and waits for a post.
pub struct WebFront {
    shared: Arc<Shared>,
}

impl Front for WebFront {
    fn told(&mut self, told: Told) {
        self.shared.lock().log.push(told);
        self.shared.changed.notify_all();
    }

    fn choose(&mut self, screen: &Screen, choices: &[Choice]) -> Option<usize> {
        let mut s = self.shared.lock();
        s.screen = screen.clone();
        s.choices = choices.to_vec();
        s.answer = None;
        s.waiting = true;
        s.seq += 1;
        self.shared.changed.notify_all();
        loop {
            if let Some(i) = s.answer.take() {
                s.waiting = false;
                return Some(i);
            }
            if super::leaving() {
                s.waiting = false;
                return None;
            }
            s = self
                .shared
                .changed
                .wait_timeout(s, Duration::from_millis(200))
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    fn finished(&mut self, ending: &Ending) {
        let mut s = self.shared.lock();
        s.ending = Some(ending.clone());
        s.waiting = false;
        s.seq += 1;
        self.shared.changed.notify_all();
    }
}

/// 32 hex digits from the operating system's randomness: the page's token. (A token must
/// not be guessable, so it is the one random value here not drawn from the seed.)
///
/// # Errors
/// `/dev/urandom` cannot be read.
pub fn token() -> Result<String, String> {
    let mut bytes = [0u8; 16];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut bytes))
        .map_err(|e| format!("cannot read /dev/urandom for the page's token: {e}"))?;
    Ok(bytes.iter().map(|b| format!("{b:02x}")).collect())
}

/// Decodes `application/x-www-form-urlencoded` text (or a query string) into pairs;
/// `None` for a bad `%` escape or text that is not UTF-8.
pub fn form_pairs(text: &str) -> Option<Vec<(String, String)>> {
    let decode = |s: &str| -> Option<String> {
        let b = s.as_bytes();
        let mut out = Vec::with_capacity(b.len());
        let mut i = 0;
        while i < b.len() {
            match b[i] {
                b'+' => out.push(b' '),
                b'%' => {
                    let hex = std::str::from_utf8(b.get(i + 1..i + 3)?).ok()?;
                    out.push(u8::from_str_radix(hex, 16).ok()?);
                    i += 2;
                }
                c => out.push(c),
            }
            i += 1;
        }
        String::from_utf8(out).ok()
    };
    text.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| {
            let (k, v) = p.split_once('=').unwrap_or((p, ""));
            Some((decode(k)?, decode(v)?))
        })
        .collect()
}

fn field<'a>(pairs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    pairs
        .iter()
        .find(|(k, _)| k == name)
        .map(|(_, v)| v.as_str())
}

fn header(name: &str, value: &str) -> Header {
    // Every header here is a constant name and printable ASCII (the token is hex).
    Header::from_bytes(name.as_bytes(), value.as_bytes()).expect("a valid header")
}

fn respond(req: Request, status: u16, body: String) {
    let _ = req.respond(
        Response::from_string(body)
            .with_status_code(status)
            .with_header(header("Content-Type", "text/html; charset=utf-8")),
    );
}

/// A short page for an error answer.
fn error_page(status: u16, what: &str) -> String {
    format!(
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{status}</title></head><body><p>{status}: {}</p></body></html>\n",
        minijinja::HtmlEscape(what)
    )
}

fn render(env: &Environment<'_>, s: &State, token: &str, thinking: bool) -> Result<String, String> {
    let tmpl = env.get_template("page.html").map_err(|e| e.to_string())?;
    let log: Vec<&Told> = s.log.iter().rev().take(60).collect();
    tmpl.render(context! {
        css => STYLE,
        screen => if s.ending.is_some() { s.ending.as_ref().map(|e| &e.screen) } else { Some(&s.screen) },
        choices => if s.waiting && s.ending.is_none() { s.choices.clone() } else { Vec::new() },
        seq => s.seq,
        token => token,
        log => log,
        ending => s.ending.as_ref().map(|e| context! {
            result => e.result.clone(),
            saved => e.saved.display().to_string(),
            report_command => e.report_command.clone(),
        }),
        failed => s.failed.clone(),
        thinking => thinking,
    })
    .map_err(|e| format!("the page's template: {e}"))
}

/// Answers one request (see the module's doc for the rules).
fn handle(mut req: Request, shared: &Shared, token: &str, env: &Environment<'_>) {
    let url = req.url().to_string();
    let (path, query) = url.split_once('?').unwrap_or((url.as_str(), ""));
    let query = form_pairs(query).unwrap_or_default();
    let method = req.method().clone();
    match (&method, path) {
        (Method::Get, "/") | (Method::Get, "/replay") => {
            if field(&query, "token") != Some(token) {
                return respond(req, 403, error_page(403, "wrong or missing token"));
            }
            if path == "/replay" {
                let file: Option<PathBuf> = shared.lock().ending.as_ref().map(|e| e.replay.clone());
                return match file.map(std::fs::read_to_string) {
                    Some(Ok(html)) => respond(req, 200, html),
                    _ => respond(
                        req,
                        404,
                        error_page(404, "no replay yet: the game is not over"),
                    ),
                };
            }
            // Wait (a while) for the bots to reach the person's decision or the end.
            let deadline = Instant::now() + WAIT;
            let mut s = shared.lock();
            while !s.waiting && s.ending.is_none() && s.failed.is_none() {
                let now = Instant::now();
                if now >= deadline {
                    break;
                }
                s = shared
                    .changed
                    .wait_timeout(s, deadline - now)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
            let thinking = !s.waiting && s.ending.is_none() && s.failed.is_none();
            let page = render(env, &s, token, thinking);
            drop(s);
            match page {
                Ok(html) => respond(req, 200, html),
                Err(e) => respond(req, 500, error_page(500, &e)),
            }
        }
        (Method::Post, "/move") => {
            let mut body = String::new();
            if req
                .as_reader()
                .take(MAX_BODY)
                .read_to_string(&mut body)
                .is_err()
            {
                return respond(req, 400, error_page(400, "the body is not text"));
            }
            let Some(pairs) = form_pairs(&body) else {
                return respond(req, 400, error_page(400, "malformed form body"));
            };
            if field(&pairs, "token") != Some(token) {
                return respond(req, 403, error_page(403, "wrong or missing token"));
            }
            let (Some(Ok(seq)), Some(Ok(choice))) = (
                field(&pairs, "seq").map(str::parse::<u64>),
                field(&pairs, "choice").map(str::parse::<usize>),
            ) else {
                return respond(
                    req,
                    400,
                    error_page(400, "a move needs seq and choice numbers"),
                );
            };
            let mut s = shared.lock();
            if !s.waiting || seq != s.seq {
                drop(s);
                return respond(
                    req,
                    409,
                    error_page(
                        409,
                        "that page is out of date: reload it to see the game now",
                    ),
                );
            }
            if choice >= s.choices.len() || s.answer.is_some() {
                drop(s);
                return respond(req, 400, error_page(400, "not one of the legal moves"));
            }
            s.answer = Some(choice);
            // Answered: a page asked for now waits for the next decision.
            s.waiting = false;
            drop(s);
            shared.changed.notify_all();
            let location = format!("/?token={token}");
            let _ = req.respond(Response::empty(303).with_header(header("Location", &location)));
        }
        // The browser asks for an icon by itself (no token): there is none.
        (Method::Get, "/favicon.ico") => {
            let _ = req.respond(Response::empty(204));
        }
        (_, "/" | "/move" | "/replay") => respond(req, 405, error_page(405, "method not allowed")),
        _ => respond(req, 404, error_page(404, "no such page")),
    }
}

/// Serves the game `opts` asks for until the person stops the server (Ctrl-C) after the end:
/// binds 127.0.0.1 on a free port, prints the URL with its token, plays the game in a
/// thread. Returns how the game ended.
///
/// # Errors
/// A one-line message: the port cannot be bound, the token cannot be drawn, or the game
/// failed (a bad setting, a file that cannot be written).
pub fn serve(opts: Options) -> Result<Ending, String> {
    super::check(&opts)?;
    let server =
        Server::http("127.0.0.1:0").map_err(|e| format!("cannot listen on 127.0.0.1: {e}"))?;
    let port = server
        .server_addr()
        .to_ip()
        .map(|a| a.port())
        .ok_or("the server has no IP address")?;
    let token = token()?;
    let shared = Arc::new(Shared::default());
    let mut env = Environment::new();
    env.add_template("page.html", PAGE)
        .map_err(|e| format!("the page's template: {e}"))?;
    let env = Arc::new(env);
    let game = {
        let shared = Arc::clone(&shared);
        std::thread::spawn(move || {
            let mut front = WebFront {
                shared: Arc::clone(&shared),
            };
            let r = super::play(&opts, &mut front);
            if let Err(e) = &r {
                shared.lock().failed = Some(e.clone());
                shared.changed.notify_all();
            }
            r
        })
    };
    let _ = std::io::Write::write_all(
        &mut std::io::stdout(),
        format!("Play in your browser: http://127.0.0.1:{port}/?token={token}\n(Ctrl-C saves the game and stops the server)\n").as_bytes(),
    );
    let mut told_end = false;
    loop {
        if super::leaving() {
            break;
        }
        {
            let s = shared.lock();
            if s.failed.is_some() {
                break;
            }
            if let (Some(e), false) = (&s.ending, told_end) {
                told_end = true;
                let _ = std::io::Write::write_all(
                    &mut std::io::stdout(),
                    format!(
                        "{}\nSaved: {}\nReplay: {}\n(the page stays served: Ctrl-C stops the server)\n",
                        e.result,
                        e.saved.display(),
                        e.replay.display()
                    )
                    .as_bytes(),
                );
            }
        }
        match server.recv_timeout(Duration::from_millis(200)) {
            Ok(Some(req)) => {
                let (shared, env, token) = (Arc::clone(&shared), Arc::clone(&env), token.clone());
                std::thread::spawn(move || handle(req, &shared, &token, &env));
            }
            Ok(None) => {}
            Err(e) => return Err(format!("the server failed: {e}")),
        }
    }
    // Ctrl-C during the game: the game thread ends it as the person's leaving and saves it.
    shared.changed.notify_all();
    let ending = match game.join() {
        Ok(r) => r?,
        Err(_) => return Err("the game thread panicked".into()),
    };
    if !told_end {
        let _ = std::io::Write::write_all(
            &mut std::io::stdout(),
            format!("{}\nSaved: {}\n", ending.result, ending.saved.display()).as_bytes(),
        );
    }
    Ok(ending)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn form_bodies_are_decoded_or_refused() {
        let pairs = form_pairs("token=ab%2F&seq=3&choice=1+2").unwrap();
        assert_eq!(field(&pairs, "token"), Some("ab/"));
        assert_eq!(field(&pairs, "choice"), Some("1 2"));
        assert_eq!(field(&pairs, "nope"), None);
        assert!(form_pairs("seq=%zz").is_none());
        assert!(form_pairs("seq=%4").is_none());
        assert!(form_pairs("seq=%ff").is_none());
        assert_eq!(form_pairs("").unwrap(), Vec::new());
    }

    #[test]
    fn tokens_are_random_hex() {
        let (a, b) = (token().unwrap(), token().unwrap());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }
}
