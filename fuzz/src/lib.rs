//! The checks of the fuzz targets, one function per target, shared by the
//! libFuzzer binaries (`fuzz_targets/`, nightly) and the stable replay test
//! (`tests/fuzz_corpus.rs` includes this file), so the saved corpus and every
//! crash found are re-run by `cargo test`.
//!
//! Each function takes any bytes and panics only on a real defect: a panic or
//! an abort inside the library, an answer outside the legal set, a `CG_PANIC`
//! from the C ABI, or an error message that is not one short line.

use std::ffi::{c_char, CString};
use std::io::Cursor;

use cardgames::coup::{decide, Config, Remembered, Strategy as CoupStrategy, View};
use cardgames::durak::deep::DeepConfig;
use cardgames::durak::protocol::format_answer;
use cardgames::durak::{DurakBot, Strategy as DurakStrategy};
use cardgames::ffi::CgStatus;
use cardgames::ioiwari::{protocol, Board, Game, Player, Strategy as IoiStrategy};

/// Longest input text used: the parsers bound their own input sizes above
/// this, and long inputs only slow the fuzzer down.
const MAX_TEXT: usize = 4096;

fn text(data: &[u8]) -> String {
    String::from_utf8_lossy(&data[..data.len().min(MAX_TEXT)]).into_owned()
}

/// The homework's `in` parser and games: a result, or one short error line.
pub fn homework_input(data: &[u8]) {
    if let Err(e) = cardgames::homework::run(&text(data)) {
        let message = e.to_string();
        assert!(!message.contains('\n'), "{message:?}");
        assert!(message.len() < 300, "{} bytes", message.len());
    }
}

/// One Coup decision: byte 0 the strategy, bytes 1-2 the coins, then
/// NUL-separated history, cards and legal answers.
pub fn coup_decision(data: &[u8]) {
    let Some((head, rest)) = data.split_first_chunk::<3>() else {
        return;
    };
    let all = CoupStrategy::ALL;
    let strategy = all[usize::from(head[0]) % all.len()].0;
    let (opp, mine) = (i64::from(head[1] as i8), i64::from(head[2] as i8));
    let mut parts = rest.split(|&b| b == 0).map(text);
    let history = parts.next().unwrap_or_default();
    let cards = parts.next().unwrap_or_default();
    let legal: Vec<String> = parts.take(12).collect();
    let view = View::new(&history, opp, mine, &cards, &legal);
    let d = decide(&view, Remembered::Nothing, &Config::of(strategy));
    let given: Vec<&String> = legal.iter().filter(|a| !a.is_empty()).collect();
    if !given.is_empty() {
        assert!(
            given.contains(&&d.answer),
            "{:?} not in {given:?}",
            d.answer
        );
    }
    if let Some(keep) = d.exchange_keep {
        let mut pool: Vec<char> = cards.chars().collect();
        for c in keep.chars() {
            let i = pool
                .iter()
                .position(|&x| x == c)
                .expect("a kept card was offered");
            pool.remove(i);
        }
    }
}

/// A Durak line stream: byte 0 the strategy and seed, then lines; every
/// command's answer is one of the tracker's legal answers (`NO` when none).
pub fn durak_lines(data: &[u8]) {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let strategy = [
        DurakStrategy::Random,
        DurakStrategy::Greedy,
        DurakStrategy::Heuristic,
        DurakStrategy::Deep,
    ][usize::from(first % 4)];
    let config = DeepConfig::parse(
        "max_samples=4,min_samples=1,exact_cards=3,leaf_nodes=100,root_nodes=100",
    )
    .expect("valid settings");
    let mut bot = DurakBot::new(strategy, u64::from(first)).with_config(config);
    for line in text(rest).lines().take(300) {
        if let Ok(Some(cmd)) = bot.feed(line) {
            let mut t = bot.tracker().clone();
            t.on_command(cmd);
            let legal: Vec<String> = t.legal(cmd).into_iter().map(format_answer).collect();
            let answer = bot.answer(cmd);
            assert!(
                legal.contains(&answer) || (legal.is_empty() && answer == "NO"),
                "{answer:?} not in {legal:?}"
            );
        }
    }
}

/// The Ioiwari protocol: start lines, move lines, the line reader, and the
/// players on any board those give.
pub fn ioiwari_protocol(data: &[u8]) {
    let mut input = Cursor::new(data);
    let mut lines = Vec::new();
    while let Ok(Some(line)) = protocol::read_line(&mut input) {
        assert!(line.len() as u64 <= protocol::MAX_LINE);
        lines.push(line);
        if lines.len() > 200 {
            break;
        }
    }
    let Some((start, moves)) = lines.split_first() else {
        return;
    };
    let Ok(pits) = protocol::parse_pits(start) else {
        return;
    };
    let strategies: &[IoiStrategy] = if Board::start(pits).is_ok() {
        &[
            IoiStrategy::Optimal,
            IoiStrategy::Greedy,
            IoiStrategy::Random,
        ]
    } else {
        &[IoiStrategy::Greedy, IoiStrategy::Random]
    };
    let Ok(board) = Board::new(pits) else {
        return;
    };
    for &s in strategies {
        let mut player = Player::new(s, 1);
        let mut game = Game::new(board);
        for line in moves {
            if let Some(pit) = player.choose(game.board()) {
                assert!(game.board().moves().any(|m| m == pit), "illegal {pit}");
            }
            let Ok(pit) = protocol::parse_move(line) else {
                break;
            };
            if game.play(pit).is_err() || game.is_over() {
                break;
            }
        }
    }
}

/// A C string of the text (NULs dropped), as C callers pass them.
fn c_string(data: &[u8]) -> CString {
    let bytes: Vec<u8> = data[..data.len().min(MAX_TEXT)]
        .iter()
        .copied()
        .filter(|&b| b != 0)
        .collect();
    CString::new(bytes).expect("no NUL left")
}

fn no_panic(status: CgStatus, what: &str) {
    assert_ne!(
        status,
        CgStatus::CgPanic,
        "{what} panicked inside the library"
    );
}

/// The C ABI's text inputs: card and deck parsing, a shuffle line, the
/// homework's `in`, Durak lines and a Coup decision, each with the fuzzed
/// text; none may panic inside the library (`CG_PANIC`).
#[allow(unsafe_code)]
pub fn c_abi_text(data: &[u8]) {
    use cardgames::ffi::card::{cg_card_parse, CgCard};
    use cardgames::ffi::coup::cg_coup_decide;
    use cardgames::ffi::deck::{cg_deck_free, cg_deck_from_str, cg_deck_shuffle, cg_deck_to_str};
    use cardgames::ffi::durak::{
        cg_durak_bot_answer, cg_durak_bot_feed, cg_durak_bot_free, cg_durak_bot_new,
        cg_durak_bot_set,
    };
    use cardgames::ffi::games::cg_homework_run;

    let s = c_string(data);
    let p: *const c_char = s.as_ptr();
    let notation = u32::from(data.first().copied().unwrap_or(0) % 3);
    let mut buf = [0 as c_char; 256];
    let mut n = 0usize;
    // SAFETY: `p` is a NUL-terminated string alive for the whole block;
    // every out-pointer points to a local of the right type; `buf` is valid
    // for its length; handles come from the library and are freed once.
    unsafe {
        let mut card = std::mem::zeroed::<CgCard>();
        no_panic(cg_card_parse(p, notation, &mut card), "cg_card_parse");
        let mut deck = std::ptr::null_mut();
        let st = cg_deck_from_str(p, notation, &mut deck);
        no_panic(st, "cg_deck_from_str");
        if st == CgStatus::CgOk {
            no_panic(cg_deck_shuffle(deck, p), "cg_deck_shuffle");
            let st = cg_deck_to_str(deck, notation, buf.as_mut_ptr(), buf.len(), &mut n);
            no_panic(st, "cg_deck_to_str");
            cg_deck_free(deck);
        }
        no_panic(
            cg_homework_run(p, buf.as_mut_ptr(), buf.len(), &mut n),
            "cg_homework_run",
        );
        let mut bot = std::ptr::null_mut();
        if cg_durak_bot_new(u64::from(notation), &mut bot) == CgStatus::CgOk {
            no_panic(cg_durak_bot_set(bot, p), "cg_durak_bot_set");
            // Back to the defaults: settings read from the input could make a decision slow.
            no_panic(cg_durak_bot_set(bot, c"".as_ptr()), "cg_durak_bot_set");
            for line in text(data).lines().take(100) {
                let Ok(line) = CString::new(line.replace('\0', "")) else {
                    continue;
                };
                no_panic(cg_durak_bot_feed(bot, line.as_ptr()), "cg_durak_bot_feed");
                let st = cg_durak_bot_answer(bot, line.as_ptr(), buf.as_mut_ptr(), 3, &mut n);
                no_panic(st, "cg_durak_bot_answer");
            }
            cg_durak_bot_free(bot);
        }
        let legal = [p, c"I\n".as_ptr()];
        let mut keep = [0 as c_char; 16];
        let mut k = 0usize;
        let st = cg_coup_decide(
            std::ptr::null(),
            p,
            1,
            2,
            p,
            legal.as_ptr(),
            legal.len(),
            buf.as_mut_ptr(),
            buf.len(),
            &mut n,
            keep.as_mut_ptr(),
            keep.len(),
            &mut k,
        );
        no_panic(st, "cg_coup_decide");
    }
}
