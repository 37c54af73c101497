//! C ABI for the homework games: whole games (`cg_*_play`), games step by
//! step (`cg_war_new`/`_step`/`_pile`/`_free` and the same for Rolling Stone
//! and Scarabs), the whole homework task and its `.debug` trace.

use std::ffi::{c_char, c_void};

use super::card::CgCard;
use super::deck::CgDeck;
use super::{
    fail, guard, mut_arg, null, plural, ref_arg, returning, shielded, str_arg, write_text,
    CgStatus, Result,
};
use crate::card::Suit;
use crate::deck::Deck;
use crate::homework::rolling_stone::Turn as RollingTurn;
use crate::homework::{self, GameError, HomeworkError, RollingStone, Scarabs, War, WarOutcome};

/// How a game of War ended.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgWarResult {
    /// 1 or 2.
    pub winner: u8,
    /// 0 when the winner took all the cards; otherwise, after 100 hands, the
    /// deciding rank as a `cg_card` rank number (14 = A, 13 = K, ..).
    pub rank: u8,
    /// Hands played (at most 100).
    pub hands: u32,
}

/// How a game of Rolling Stone or Scarabs ended.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgGameResult {
    /// The winner, 1-based (1..4 for a dealt deck).
    pub winner: u8,
    /// Turns played (one card turned or played per turn).
    pub turns: u64,
}

/// A copy of the deck behind a handle, checked to deal evenly to `players`
/// (`CG_INVALID_ARGUMENT` otherwise: no card is dropped); the caller keeps
/// its deck. `game` is the game's English name, for messages.
///
/// # Safety
/// `deck` is NULL or a live handle.
unsafe fn dealt(deck: *const CgDeck, game: &str, players: usize) -> Result<Deck> {
    // SAFETY: passed on from the exported function's caller.
    let deck = &unsafe { ref_arg(deck, "deck") }?.0;
    let len = deck.len();
    if len == 0 {
        return Err(fail(
            CgStatus::CgInvalidArgument,
            format!("the deck is empty: {game} deals the deck to {players} players"),
        ));
    }
    if !len.is_multiple_of(players) {
        return Err(fail(
            CgStatus::CgInvalidArgument,
            format!(
                "{game} deals the deck evenly to {players} players, and {len} cards do not divide by {players}"
            ),
        ));
    }
    Ok(deck.clone())
}

/// A game error's status, with a message in the API's words as the last
/// error. `game` is the game's English name, `limit` the turn limit the
/// caller set (for `GameError::TooLong`).
fn game_status(error: GameError, game: &str, limit: u64) -> CgStatus {
    match error {
        GameError::TooLong { turns, .. } if limit < RollingStone::TURN_LIMIT => fail(
            CgStatus::CgGameUnfinished,
            format!("{game} has no winner after {}, the turn limit given (the game is not over; a larger limit may finish it)", plural(turns, "turn")),
        ),
        GameError::TooLong { turns, .. } => fail(
            CgStatus::CgGameUnfinished,
            format!("{game} has no winner after {}: real deals end within a few thousand, so this one very likely loops forever", plural(turns, "turn")),
        ),
        GameError::NoCards => fail(CgStatus::CgGameUnfinished, "no player holds a card"),
        GameError::WarTie => fail(
            CgStatus::CgGameUnfinished,
            "War has no winner: after 100 hands both players hold as many cards of every rank from A down to 3",
        ),
        GameError::BadDeal { len, players, .. } => fail(
            CgStatus::CgInvalidArgument,
            format!("{game} deals the deck evenly to {players} players, and {len} cards do not"),
        ),
    }
}

/// A War outcome as the C result.
fn war_result(outcome: WarOutcome, hands: u32) -> Result<CgWarResult> {
    let (winner, rank) = match outcome {
        WarOutcome::AllCards { winner } => (winner, 0),
        WarOutcome::MoreOfRank { winner, rank } => (winner, rank as u8),
        WarOutcome::Tie => return Err(game_status(GameError::WarTie, "War", 0)),
    };
    Ok(CgWarResult {
        winner,
        rank,
        hands,
    })
}

/// Plays War (rules: `docs/rules/homework.md` §4) on a copy of the deck
/// (player 1 gets the first half) and writes the result into `*out`. Errors: `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT`
/// (an empty deck or an odd number of cards), `CG_GAME_UNFINISHED` (equal
/// rank counts after 100 hands).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_war_play(deck: *const CgDeck, out: *mut CgWarResult) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_war_play", out, "out", || {
            let mut war = War::deal(dealt(deck, "War", 2)?);
            let outcome = war.play_to_end();
            war_result(outcome, war.hands())
        })
    }
}

/// A four-player game's result: its 0-based winner and turns played.
fn four_player(
    game: &str,
    limit: u64,
    played: std::result::Result<usize, GameError>,
    turns: u64,
) -> Result<CgGameResult> {
    let winner = played.map_err(|e| game_status(e, game, limit))?;
    Ok(CgGameResult {
        winner: winner as u8 + 1,
        turns,
    })
}

/// Plays Rolling Stone (rules: `docs/rules/homework.md` §5) on a copy of the
/// deck dealt to four players, at most 1,000,000 turns, and writes the
/// result into `*out`. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (an empty deck or a length not a
/// multiple of 4), `CG_GAME_UNFINISHED` (the turn limit was reached).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_play(
    deck: *const CgDeck,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: passed on.
    unsafe { rolling_stone_play("cg_rolling_stone_play", deck, RollingStone::TURN_LIMIT, out) }
}

/// Plays Rolling Stone for the exported function `name`.
///
/// # Safety
/// As `cg_rolling_stone_play`.
unsafe fn rolling_stone_play(
    name: &'static str,
    deck: *const CgDeck,
    turn_limit: u64,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning(name, out, "out", || {
            let mut game = RollingStone::deal(dealt(deck, "Rolling Stone", 4)?);
            let played = game.play_within(turn_limit);
            four_player("Rolling Stone", turn_limit, played, game.turns())
        })
    }
}

/// `cg_rolling_stone_play` with the caller's turn limit: `CG_GAME_UNFINISHED`
/// once `turn_limit` turns were played with no winner.
///
/// # Safety
/// As `cg_rolling_stone_play`.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_play_within(
    deck: *const CgDeck,
    turn_limit: u64,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: passed on.
    unsafe { rolling_stone_play("cg_rolling_stone_play_within", deck, turn_limit, out) }
}

/// Plays Egyptian Scarabs (rules: `docs/rules/homework.md` §6) on a copy of
/// the deck dealt to four players, at most 1,000,000 turns, and writes the
/// result into `*out`. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (an empty deck or a length not a
/// multiple of 4), `CG_GAME_UNFINISHED` (the turn limit was reached).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_play(deck: *const CgDeck, out: *mut CgGameResult) -> CgStatus {
    // SAFETY: passed on.
    unsafe { scarabs_play("cg_scarabs_play", deck, Scarabs::TURN_LIMIT, out) }
}

/// Plays Scarabs for the exported function `name`.
///
/// # Safety
/// As `cg_scarabs_play`.
unsafe fn scarabs_play(
    name: &'static str,
    deck: *const CgDeck,
    turn_limit: u64,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning(name, out, "out", || {
            let mut game = Scarabs::deal(dealt(deck, "Scarabs", 4)?);
            let played = game.play_within(turn_limit);
            four_player("Scarabs", turn_limit, played, game.turns())
        })
    }
}

/// `cg_scarabs_play` with the caller's turn limit: `CG_GAME_UNFINISHED` once
/// `turn_limit` turns were played with no winner.
///
/// # Safety
/// As `cg_scarabs_play`.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_play_within(
    deck: *const CgDeck,
    turn_limit: u64,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: passed on.
    unsafe { scarabs_play("cg_scarabs_play_within", deck, turn_limit, out) }
}

/// A homework error's status, with its one-line message as the last error.
fn homework_status(error: HomeworkError) -> CgStatus {
    match error {
        HomeworkError::Shuffle { ref source, .. } if !source.is_syntax() => {
            fail(CgStatus::CgBadShuffle, error)
        }
        HomeworkError::Game(error) => fail(
            match error {
                GameError::BadDeal { .. } => CgStatus::CgInvalidArgument,
                _ => CgStatus::CgGameUnfinished,
            },
            error,
        ),
        _ => fail(CgStatus::CgBadInput, error),
    }
}

/// The whole homework task: `in_text` is the text of the checker's `in`
/// file (its format: `docs/rules/homework.md` §7); the text of `out` and a
/// NUL go into `out` (`out_len` bytes) and its length without the NUL into
/// `*written` (optional: NULL is allowed; also written on
/// `CG_BUFFER_TOO_SMALL`; 160 bytes always suffice). Errors: `CG_NULL_POINTER`, `CG_INVALID_UTF8`,
/// `CG_BAD_INPUT` (malformed `in`; the last error names the line, e.g.
/// `in:3: unknown shuffle "shuffle"`), `CG_BAD_SHUFFLE` (a shuffle that
/// cannot apply), `CG_GAME_UNFINISHED`, `CG_BUFFER_TOO_SMALL`.
///
/// # Safety
/// `in_text` is NULL or a NUL-terminated string; `out` is NULL or valid for
/// `out_len` bytes; `written` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_homework_run(
    in_text: *const c_char,
    out: *mut c_char,
    out_len: usize,
    written: *mut usize,
) -> CgStatus {
    guard("cg_homework_run", || {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let in_text = unsafe { str_arg(in_text, "in_text") }?;
        let text = homework::run(in_text).map_err(homework_status)?;
        // SAFETY: the caller's buffer and `written` guarantees.
        unsafe { write_text(&text, "out", out, out_len, written) }
    })
}

/// The `.debug` trace of the homework task `in_text` (the format of the
/// original checker's `.debug` files: the piles after every step;
/// `docs/rules/homework.md` §8) and a NUL into `buf` (`len` bytes), its
/// length without the NUL into `*needed` (optional: NULL is allowed; also
/// written on `CG_BUFFER_TOO_SMALL`: call once with `buf` NULL and `len` 0
/// to learn the size; a Rolling Stone trace can pass 2 MB).
/// Errors: as `cg_homework_run`.
///
/// # Safety
/// `in_text` is NULL or a NUL-terminated string; `buf` is NULL or valid for
/// `len` bytes; `needed` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_homework_trace(
    in_text: *const c_char,
    buf: *mut c_char,
    len: usize,
    needed: *mut usize,
) -> CgStatus {
    guard("cg_homework_trace", || {
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let in_text = unsafe { str_arg(in_text, "in_text") }?;
        let traced = homework::trace(in_text).map_err(homework_status)?;
        // SAFETY: the caller's buffer and `needed` guarantees.
        unsafe { write_text(&traced.debug, "buf", buf, len, needed) }
    })
}

/// C's `FILE` from `<stdio.h>`, only ever behind a pointer.
#[repr(C)]
pub struct FILE {
    _private: [u8; 0],
}

extern "C" {
    fn fwrite(ptr: *const c_void, size: usize, count: usize, stream: *mut FILE) -> usize;
}

/// Writes the `.debug` trace of the homework task `in_text` (as
/// `cg_homework_trace`) to `stream`, which stays open and is not flushed.
/// Nothing is written when the task fails. Errors: as `cg_homework_run`,
/// and `CG_IO` when `fwrite` writes less than the whole trace.
///
/// # Safety
/// `in_text` is NULL or a NUL-terminated string; `stream` is NULL or an
/// open `FILE *` the caller may write to.
#[no_mangle]
pub unsafe extern "C" fn cg_homework_trace_file(
    in_text: *const c_char,
    stream: *mut FILE,
) -> CgStatus {
    guard("cg_homework_trace_file", || {
        if stream.is_null() {
            return Err(null("stream"));
        }
        // SAFETY: the caller passes NULL or a NUL-terminated string.
        let in_text = unsafe { str_arg(in_text, "in_text") }?;
        let traced = homework::trace(in_text).map_err(homework_status)?;
        let bytes = traced.debug.as_bytes();
        if bytes.is_empty() {
            return Ok(());
        }
        // SAFETY: `bytes` is valid for `bytes.len()` reads; `stream` is a
        // non-NULL open FILE (caller guarantee).
        let written = unsafe { fwrite(bytes.as_ptr().cast(), 1, bytes.len(), stream) };
        if written == bytes.len() {
            Ok(())
        } else {
            Err(fail(
                CgStatus::CgIo,
                format!("fwrite wrote {written} of {} bytes", bytes.len()),
            ))
        }
    })
}

// ---- War step by step ----

/// An opaque game of War in progress: `cg_war_new`, `cg_war_step`,
/// `cg_war_pile`, `cg_war_outcome`, `cg_war_free`.
pub struct CgWar(War);

/// What one hand of War did.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgWarHand {
    /// Who took the hand: 1 or 2; 0 when both ran out in a war (each took
    /// his own cards back).
    pub winner: u8,
    /// Player 1's first card of the hand (the cards of a war are not listed).
    pub card1: CgCard,
    /// Player 2's first card of the hand.
    pub card2: CgCard,
    /// Hands played so far, this one included.
    pub hands: u32,
}

/// Deals a copy of `deck` (player 1 the first half, player 2 the rest) into
/// a new game of War (`docs/rules/homework.md` §4) written into `*out`. Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_ARGUMENT` (an empty deck or an odd number of cards).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_war_new(deck: *const CgDeck, out: *mut *mut CgWar) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_war_new", out, "out", || {
            let war = War::deal(dealt(deck, "War", 2)?);
            Ok(Box::into_raw(Box::new(CgWar(war))))
        })
    }
}

/// Plays one hand (a war is part of its hand: `docs/rules/homework.md`
/// §4.2-4.4) and writes what happened into `*out`. Errors: `CG_NULL_POINTER`, `CG_NO_MOVE` (the game is over: a pile
/// is empty or 100 hands were played; see `cg_war_outcome`).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_war_step(game: *mut CgWar, out: *mut CgWarHand) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_war_step", out, "out", || {
            let war = &mut mut_arg(game, "game")?.0;
            let over = |hands: u32| {
                fail(
                    CgStatus::CgNoMove,
                    format!(
                        "the game is over after {} (a pile is empty, or 100 hands were played): see cg_war_outcome",
                        plural(u64::from(hands), "hand")
                    ),
                )
            };
            if war.outcome().is_some() {
                return Err(over(war.hands()));
            }
            let front = |player| war.pile(player).front().map(CgCard::from);
            let (Some(card1), Some(card2)) = (front(1), front(2)) else {
                return Err(over(war.hands()));
            };
            let winner = war.play_hand().unwrap_or(0);
            Ok(CgWarHand {
                winner,
                card1,
                card2,
                hands: war.hands(),
            })
        })
    }
}

/// Lends player `player`'s pile (1 or 2), top card first, into `*out`: a
/// view valid until the next `cg_war_step` or `cg_war_free`, read with the
/// `cg_deck` functions that take a `const cg_deck *`, never freed by the
/// caller. Errors: `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (player).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_war_pile(
    game: *const CgWar,
    player: u32,
    out: *mut *const CgDeck,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_war_pile", out, "out", || {
            let war = &ref_arg(game, "game")?.0;
            let player = u8::try_from(player)
                .ok()
                .filter(|p| (1..=2).contains(p))
                .ok_or_else(|| invalid_player(player, 2))?;
            Ok(CgDeck::view(war.pile(player)))
        })
    }
}

/// Writes the result into `*out` once the game is over. Errors:
/// `CG_NULL_POINTER`, `CG_GAME_UNFINISHED` (still going, or a tie after 100
/// hands: the last error says which).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_war_outcome(game: *const CgWar, out: *mut CgWarResult) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_war_outcome", out, "out", || {
            let war = &ref_arg(game, "game")?.0;
            let outcome = war.outcome().ok_or_else(|| {
                fail(
                    CgStatus::CgGameUnfinished,
                    format!(
                        "the game is not over yet: {} played, both piles hold cards",
                        plural(u64::from(war.hands()), "hand")
                    ),
                )
            })?;
            war_result(outcome, war.hands())
        })
    }
}

/// Frees a game of War; NULL is accepted and ignored. Views of its piles
/// become invalid.
///
/// # Safety
/// `game` is NULL or a game from `cg_war_new` not freed before.
#[no_mangle]
pub unsafe extern "C" fn cg_war_free(game: *mut CgWar) {
    shielded((), || {
        if !game.is_null() {
            // SAFETY: made by `Box::into_raw` in `cg_war_new`, freed once.
            drop(unsafe { Box::from_raw(game) });
        }
    });
}

/// `CG_INVALID_ARGUMENT` for a player number outside 1..=players.
fn invalid_player(player: u32, players: usize) -> CgStatus {
    fail(
        CgStatus::CgInvalidArgument,
        format!("player {player} is not 1..{players} (players are numbered from 1)"),
    )
}

/// The 0-based seat of a 1-based player number.
fn seat(player: u32, players: usize) -> Result<usize> {
    usize::try_from(player)
        .ok()
        .filter(|p| (1..=players).contains(p))
        .map(|p| p - 1)
        .ok_or_else(|| invalid_player(player, players))
}

// ---- Rolling Stone step by step ----

/// An opaque game of Rolling Stone in progress: `cg_rolling_stone_new`,
/// `_step`, `_hand`, `_table`, `_winner`, `_free`.
pub struct CgRollingStone(RollingStone);

/// What one turn of Rolling Stone did.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgRollingStoneTurn {
    /// Who played, 1..4.
    pub player: u8,
    /// The card he put on the table.
    pub card: CgCard,
    /// 0 when he followed suit (or led the first card); otherwise he could
    /// not follow, took this many table cards, and led `card`.
    pub taken: u32,
}

/// Deals a copy of `deck` to four players (13 consecutive cards each from
/// 52: player 1 the first) into a new game of Rolling Stone
/// (`docs/rules/homework.md` §5) written into `*out`. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (an empty deck or a length not a
/// multiple of 4).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_new(
    deck: *const CgDeck,
    out: *mut *mut CgRollingStone,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_rolling_stone_new", out, "out", || {
            let game = RollingStone::deal(dealt(deck, "Rolling Stone", 4)?);
            Ok(Box::into_raw(Box::new(CgRollingStone(game))))
        })
    }
}

/// Plays one turn and writes it into `*out`. Errors: `CG_NULL_POINTER`,
/// `CG_NO_MOVE` (someone has won; see `cg_rolling_stone_winner`).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_step(
    game: *mut CgRollingStone,
    out: *mut CgRollingStoneTurn,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_rolling_stone_step", out, "out", || {
            let game = &mut mut_arg(game, "game")?.0;
            let Some(turn) = game.play_turn() else {
                return Err(game_over(
                    game.winner(),
                    game.turns(),
                    "cg_rolling_stone_winner",
                ));
            };
            let (player, card, taken) = match turn {
                RollingTurn::Played { player, card } => (player, card, 0),
                RollingTurn::TookAndLed {
                    player,
                    taken,
                    card,
                } => (player, card, taken),
            };
            Ok(CgRollingStoneTurn {
                player: player as u8 + 1,
                card: CgCard::from(card),
                taken: u32::try_from(taken).unwrap_or(u32::MAX),
            })
        })
    }
}

/// Lends the cards of suit `suit` (0 s, 1 h, 2 c, 3 d) in player `player`'s
/// hand (1..4), in hand order (the first is the one he plays), into `*out`:
/// a view valid until the next step or free, never freed by the caller.
/// Errors: `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (player or suit).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_hand(
    game: *const CgRollingStone,
    player: u32,
    suit: u32,
    out: *mut *const CgDeck,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_rolling_stone_hand", out, "out", || {
            let game = &ref_arg(game, "game")?.0;
            let seat = seat(player, game.players())?;
            let suit = usize::try_from(suit)
                .ok()
                .and_then(Suit::from_index)
                .ok_or_else(|| {
                    fail(
                        CgStatus::CgInvalidArgument,
                        format!("suit {suit} is not 0..3 (0 s, 1 h, 2 c, 3 d)"),
                    )
                })?;
            Ok(CgDeck::view(game.hand(seat, suit)))
        })
    }
}

/// Lends the table, the last card played first, into `*out` (a view as for
/// `cg_rolling_stone_hand`). Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_table(
    game: *const CgRollingStone,
    out: *mut *const CgDeck,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_rolling_stone_table", out, "out", || {
            Ok(CgDeck::view(ref_arg(game, "game")?.0.table()))
        })
    }
}

/// Writes the winner (1..4) and the turns played into `*out` once someone
/// has played his last card. Errors: `CG_NULL_POINTER`, `CG_GAME_UNFINISHED`
/// (no winner yet).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_winner(
    game: *const CgRollingStone,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_rolling_stone_winner", out, "out", || {
            let game = &ref_arg(game, "game")?.0;
            finished(game.winner(), game.turns())
        })
    }
}

/// Frees a game of Rolling Stone; NULL is accepted and ignored.
///
/// # Safety
/// `game` is NULL or a game from `cg_rolling_stone_new` not freed before.
#[no_mangle]
pub unsafe extern "C" fn cg_rolling_stone_free(game: *mut CgRollingStone) {
    shielded((), || {
        if !game.is_null() {
            // SAFETY: made by `Box::into_raw` in `cg_rolling_stone_new`, freed once.
            drop(unsafe { Box::from_raw(game) });
        }
    });
}

/// The result of a four-player game once it has a winner (0-based `winner`,
/// as the engines report it): `CG_GAME_UNFINISHED` before.
fn finished(winner: Option<usize>, turns: u64) -> Result<CgGameResult> {
    let winner = winner.ok_or_else(|| {
        fail(
            CgStatus::CgGameUnfinished,
            format!(
                "no winner yet: the game goes on after {}",
                plural(turns, "turn")
            ),
        )
    })?;
    Ok(CgGameResult {
        winner: winner as u8 + 1,
        turns,
    })
}

/// `CG_NO_MOVE` for a step after the end of a four-player game.
fn game_over(winner: Option<usize>, turns: u64, result: &str) -> CgStatus {
    let who = winner.map_or(String::new(), |w| format!(": player {} won", w + 1));
    fail(
        CgStatus::CgNoMove,
        format!(
            "the game is over after {}{who} (see {result})",
            plural(turns, "turn")
        ),
    )
}

// ---- Scarabs step by step ----

/// An opaque game of Egyptian Scarabs in progress: `cg_scarabs_new`,
/// `_step`, `_pile`, `_table`, `_winner`, `_free`.
pub struct CgScarabs(Scarabs);

/// What one turn of Scarabs did.
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CgScarabsTurn {
    /// Who turned a card, 1..4.
    pub player: u8,
    /// The card turned.
    pub card: CgCard,
    /// 0, or when the card was a number on a pending scarab, the player
    /// (1..4) who took the table.
    pub taken_by: u8,
}

/// Deals a copy of `deck` to four players (13 consecutive cards each from
/// 52) into a new game of Scarabs (`docs/rules/homework.md` §6) written into
/// `*out`. Errors: `CG_NULL_POINTER`,
/// `CG_INVALID_ARGUMENT` (an empty deck or a length not a multiple of 4).
///
/// # Safety
/// `deck` is NULL or a live handle; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_new(deck: *const CgDeck, out: *mut *mut CgScarabs) -> CgStatus {
    // SAFETY: the caller's guarantees on `deck` and `out`.
    unsafe {
        returning("cg_scarabs_new", out, "out", || {
            let game = Scarabs::deal(dealt(deck, "Scarabs", 4)?);
            Ok(Box::into_raw(Box::new(CgScarabs(game))))
        })
    }
}

/// Plays one turn and writes it into `*out`. Errors: `CG_NULL_POINTER`,
/// `CG_NO_MOVE` (one player is left; see `cg_scarabs_winner`).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_step(
    game: *mut CgScarabs,
    out: *mut CgScarabsTurn,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_scarabs_step", out, "out", || {
            let game = &mut mut_arg(game, "game")?.0;
            let Some(turn) = game.play_turn() else {
                return Err(game_over(game.winner(), game.turns(), "cg_scarabs_winner"));
            };
            Ok(CgScarabsTurn {
                player: turn.player as u8 + 1,
                card: CgCard::from(turn.card),
                taken_by: turn.taken_by.map_or(0, |p| p as u8 + 1),
            })
        })
    }
}

/// Lends player `player`'s pile (1..4), top card first, into `*out`: a view
/// valid until the next step or free, never freed by the caller. Errors:
/// `CG_NULL_POINTER`, `CG_INVALID_ARGUMENT` (player).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_pile(
    game: *const CgScarabs,
    player: u32,
    out: *mut *const CgDeck,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_scarabs_pile", out, "out", || {
            let game = &ref_arg(game, "game")?.0;
            Ok(CgDeck::view(game.pile(seat(player, game.players())?)))
        })
    }
}

/// Lends the cards of the current hand, the last one turned first, into
/// `*out` (a view as for `cg_scarabs_pile`). Errors: `CG_NULL_POINTER`.
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_table(
    game: *const CgScarabs,
    out: *mut *const CgDeck,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_scarabs_table", out, "out", || {
            Ok(CgDeck::view(ref_arg(game, "game")?.0.table()))
        })
    }
}

/// Writes the winner (1..4) and the turns played into `*out` once one player
/// is left. Errors: `CG_NULL_POINTER`, `CG_GAME_UNFINISHED` (no winner yet).
///
/// # Safety
/// `game` is NULL or a live game; `out` is NULL or valid for a write.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_winner(
    game: *const CgScarabs,
    out: *mut CgGameResult,
) -> CgStatus {
    // SAFETY: the caller's guarantees on `game` and `out`.
    unsafe {
        returning("cg_scarabs_winner", out, "out", || {
            let game = &ref_arg(game, "game")?.0;
            finished(game.winner(), game.turns())
        })
    }
}

/// Frees a game of Scarabs; NULL is accepted and ignored.
///
/// # Safety
/// `game` is NULL or a game from `cg_scarabs_new` not freed before.
#[no_mangle]
pub unsafe extern "C" fn cg_scarabs_free(game: *mut CgScarabs) {
    shielded((), || {
        if !game.is_null() {
            // SAFETY: made by `Box::into_raw` in `cg_scarabs_new`, freed once.
            drop(unsafe { Box::from_raw(game) });
        }
    });
}
