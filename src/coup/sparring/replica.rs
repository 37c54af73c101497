//! A replica of the decision rule of Calculator, the winner of the original
//! contest (`docs/rules/coup.md` §7), written from its observed
//! behaviour: a race calculator that claims its own cards, blocks only with
//! cards it holds, challenges every block made against it, and otherwise
//! passes unless no plan of its own wins the race.
//!
//! It keeps a small state between its calls in `state.txt` in its working
//! folder: the history file's name, then a set of one-character flags —
//! `1` (set on every call), `$` `*` `^` (it is attacking with Duke, Captain,
//! Assassin), `d` `c` `A` `F` (the opponent used Duke, Captain, Assassin,
//! Foreign Aid). The flags are read only when the file names the same game.
//! [`decide`] takes that text and returns the new one, so the caller owns the
//! file; [`crate::coup::bot`] runs it without state (a fresh game each call).
//!
//! Quirks it shares with the original, on purpose: its card count of the
//! opponent counts history lines holding any given-up card (a stray card
//! after a caught block does not count twice); at the start of a turn it sees
//! the previous line (which ends with a newline), so its first-turn rule only
//! runs on an empty history; after a challenged block that was a bluff it
//! still gives up a card with its newline, which the arbiter accepts
//! (`Scq'=`); losing a card it gives up its least favoured one.

use crate::coup::game::character::{format_hand, Character};
use crate::coup::game::rules::check_exchange;
use crate::coup::sparring::simple::safe_answer;
use std::collections::BTreeSet;

/// What the replica answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Answer {
    /// Text appended to the history file.
    pub text: String,
    /// Cards kept (revealed codes) after an Exchange, printed on stdout.
    pub keep: Option<String>,
    /// The new content of `state.txt`.
    pub state: String,
}

fn held_of(revealed: char) -> char {
    match revealed {
        '~' => '_',
        '^' => '\'',
        '*' => '<',
        '!' => '=',
        _ => '0',
    }
}

/// Times (in turns) to win the race for each of its plans, and the
/// opponent's, as the original computes them (integer turns).
struct Race {
    duke: i64,
    income: i64,
    faid: i64,
    assassin: i64,
    captain: i64,
    faid_assassin: i64,
    duke_assassin: i64,
    captain_assassin: i64,
    opponent: i64,
    opponent_captained: i64,
}

impl Race {
    fn new(flags: &BTreeSet<char>, cards: &str, me: (i64, i64), opp: (i64, i64)) -> Race {
        let (coins, n) = me;
        let (oc, o) = opp;
        let stolen = flags.contains(&'c') && !cards.contains('*') && !cards.contains('~');
        let assassinated = flags.contains(&'A') && !cards.contains('!');
        let pos = |x: i64| x.max(0);
        let drain = if stolen { 2 * (o - n) } else { 0 };
        let speed = if stolen {
            2
        } else if flags.contains(&'d') {
            3
        } else if flags.contains(&'F') && !cards.contains('$') {
            2
        } else {
            1
        };
        let kill = if assassinated { 3 } else { 7 };
        let never = 1000;
        Race {
            income: if stolen {
                never
            } else {
                pos(7 * o - coins) + o
            },
            faid: if stolen {
                never
            } else {
                pos(7 * o - coins + 1) / 2 + o
            },
            duke: pos(7 * o + drain - coins + 2) / if stolen { 1 } else { 3 } + o,
            assassin: if !stolen {
                pos(3 * o - coins) + o
            } else if coins >= 5 * o - 2 {
                o
            } else {
                never
            },
            captain: pos(7 * o - coins + 1) / 2 + o,
            faid_assassin: if stolen {
                never
            } else {
                pos(3 * o - coins + 1) / 2 + o
            },
            duke_assassin: pos(3 * o + drain - coins + 2) / if stolen { 1 } else { 3 } + o,
            captain_assassin: pos(3 * o - coins + 1) / 2 + o,
            opponent: pos(kill * n - oc + speed - 1) / speed + n,
            opponent_captained: if speed > 2 {
                let taken = if oc > 2 { oc - 2 } else { 0 };
                pos(kill * n + 2 * (n - o) - taken + speed - 3) / (speed - 2) + n
            } else {
                never
            },
        }
    }

    /// Its cards from most to least wanted, by the plan that wins (strictly).
    fn favourites(&self, flags: &BTreeSet<char>, cards: &str) -> [char; 5] {
        let has = |c: char| cards.contains(c);
        let r = self;
        if r.duke < r.opponent && has('$') {
            ['$', '!', '*', '~', '^']
        } else if r.duke_assassin < r.opponent && (has('$') || flags.contains(&'$')) && has('^') {
            ['^', '$', '!', '*', '~']
        } else if r.assassin < r.opponent && has('^') {
            ['^', '!', '*', '~', '$']
        } else if r.captain < r.opponent_captained && has('*') {
            ['*', '!', '$', '^', '~']
        } else if r.faid < r.opponent && has('^') && !flags.contains(&'d') {
            ['!', '*', '~', '$', '^']
        } else if r.faid_assassin < r.opponent && has('^') && !flags.contains(&'d') {
            ['^', '!', '*', '~', '$']
        } else if r.captain_assassin < r.opponent_captained && has('*') && has('^') {
            ['^', '*', '!', '$', '~']
        } else {
            ['!', '*', '~', '$', '^']
        }
    }
}

/// The replica's flags between calls (the second line of `state.txt`, see
/// the module's documentation).
pub type Flags = BTreeSet<char>;

/// What one call of the replica reads, besides its flags: the parts of the
/// history file it looks at, and the command line.
#[derive(Debug, Clone, Copy)]
pub struct Call<'a> {
    /// The history's last line as a file iterates it (with its newline when
    /// complete); `"\n"` for an empty history.
    pub line: &'a str,
    /// The number of lines in the history file (0 when empty): its
    /// first-turn rules look for 1.
    pub turn: usize,
    /// The history lines holding a given-up card: its count of the
    /// opponent's cards is 4 minus its own minus these.
    pub lossy_lines: i64,
    /// The opponent's coins, as the arbiter passes them.
    pub opp_coins: i64,
    /// Its own coins.
    pub my_coins: i64,
    /// Its cards, revealed codes (n+2 on an Exchange, the drawn two first).
    pub cards: &'a str,
    /// The legal answers, as the arbiter lists them.
    pub legal: &'a [String],
}

impl<'a> Call<'a> {
    /// The call the arbiter makes with `history` (the history file's text)
    /// and the command line's coins, cards and legal answers.
    pub fn from_history(
        history: &'a str,
        opp_coins: i64,
        my_coins: i64,
        cards: &'a str,
        legal: &'a [String],
    ) -> Call<'a> {
        let lossy = |l: &str| l.chars().any(|c| "_'<=0".contains(c));
        let mut turn = 0;
        let mut lossy_lines = 0;
        let mut line = "\n";
        for l in history.split_inclusive('\n') {
            turn += 1;
            lossy_lines += i64::from(lossy(l));
            line = l;
        }
        Call {
            line,
            turn,
            lossy_lines,
            opp_coins,
            my_coins,
            cards,
            legal,
        }
    }
}

/// One decision of the replica.
///
/// - `history`: the history file's text; `file`: its name as passed on the
///   command line (the state is kept per name);
/// - `state`: the current `state.txt` text (empty when absent);
/// - `opp_coins`, `my_coins`, `cards` (revealed codes; n+2 on an Exchange),
///   `legal` as the arbiter passes them.
pub fn decide(
    history: &str,
    file: &str,
    state: &str,
    opp_coins: i64,
    my_coins: i64,
    cards: &str,
    legal: &[String],
) -> Answer {
    let mut st = state.lines();
    let mut flags = Flags::new();
    if st.next().map(str::trim) == Some(file) {
        flags = st.next().unwrap_or("").trim().chars().collect();
    }
    let call = Call::from_history(history, opp_coins, my_coins, cards, legal);
    let (text, keep) = decide_call(&call, &mut flags);
    let flag_text: String = flags.iter().collect();
    Answer {
        text,
        keep,
        state: format!("{file}\n{flag_text}\n"),
    }
}

/// Checks the replica's answer `a` against the `legal` answers, and its Exchange keep
/// against the offered `cards` (revealed codes, as given to [`decide`]): an illegal
/// answer is replaced by a safe one, an illegal keep by the cards held. The safety net of
/// a correct replica, never needed (the tests assert it); returns why, when it was used.
pub fn check(a: &mut Answer, cards: &str, legal: &[String]) -> Option<String> {
    let mut note = None;
    if !legal.contains(&a.text) {
        note = Some(format!(
            "replica chose {:?}, not legal: answering safely",
            a.text
        ));
        a.text = safe_answer(legal);
    }
    let offered: Vec<Character> = cards.chars().filter_map(Character::from_revealed).collect();
    let n = offered.len().saturating_sub(2);
    if let Some(k) = a
        .keep
        .as_ref()
        .filter(|k| check_exchange(&offered, k, n).is_none())
    {
        note = Some(format!(
            "replica kept {k:?}, not a legal keep: keeping the cards held"
        ));
        a.keep = Some(format_hand(&offered[offered.len() - n..]));
    }
    note
}

/// One decision of the replica on a [`Call`], its `flags` updated as its
/// state file would be: the answer's text and, on an Exchange call, the
/// cards it keeps (revealed codes).
pub fn decide_call(call: &Call, flags: &mut Flags) -> (String, Option<String>) {
    let Call {
        line,
        turn,
        lossy_lines,
        opp_coins,
        my_coins,
        cards,
        legal,
    } = *call;
    let my_n = cards.chars().count() as i64;
    let opp_n = 4 - my_n - lossy_lines;
    flags.insert('1');
    let (mut mc, mut oc, mut n) = (my_coins, opp_coins, my_n);
    match line {
        "T" => {
            oc += 3;
            flags.insert('d');
        }
        "S" => {
            let t = if mc > 2 { 2 } else { mc };
            oc += t;
            mc -= t;
            flags.insert('c');
        }
        "A" => {
            oc -= 3;
            n -= 1;
            flags.insert('A');
        }
        "F" => {
            flags.insert('F');
        }
        "I\n" => {
            for f in ['d', 'c', 'F'] {
                flags.remove(&f);
            }
        }
        _ => {}
    }
    let race = Race::new(flags, cards, (mc, n), (oc, opp_n));
    let has = |c: char| cards.contains(c);
    let can = |a: &str| legal.iter().any(|l| l == a);
    let lose = |flags: &Flags| -> String {
        let fav = race.favourites(flags, cards);
        let worst = fav.iter().rev().find(|&&c| has(c)).copied().unwrap_or('!');
        held_of(worst).to_string()
    };
    let l: Vec<char> = line.chars().collect();
    let last = l.last().copied().unwrap_or('\n');
    let mut action = legal.first().cloned().unwrap_or_default();
    let reveal = legal
        .iter()
        .find(|a| a.len() == 1 && "~^*!$".contains(a.as_str()));
    if line == "\n" {
        // First move of a game (an empty history).
        if has('$') && can("T") {
            action = "T".into();
            flags.insert('$');
        } else if has('*') && can("S") {
            action = "S".into();
            flags.insert('*');
        } else if has('^') && can("I\n") {
            action = "I\n".into();
            flags.insert('^');
        } else if has('~') && can("E") {
            action = "E".into();
        } else if can("T") {
            action = "T".into();
            flags.insert('$');
        }
    } else if let Some(r) = reveal {
        action = r.clone();
        let c = r.chars().next().unwrap_or('$');
        flags.remove(&c);
    } else if has('$') && can("d") {
        action = "d".into();
    } else if has('~') && can("a") {
        action = "a".into();
    } else if has('*') && can("c") {
        action = "c".into();
    } else if has('!') && can("s") {
        action = "s".into();
    } else if can("q") && ("dacs".contains(last) || (flags.contains(&'*') && "SE".contains(last))) {
        // Every block made against it; Steals and Exchanges while it steals.
        action = "q".into();
    } else if can("q") && turn == 1 {
        match line {
            "T" => {
                if ["$$", "^^", "!!"].contains(&cards) {
                    action = "q".into();
                } else {
                    action = "p".into();
                    flags.insert('d');
                }
            }
            "S" => {
                if has('$') && has('^') {
                    action = "p".into();
                    flags.insert('c');
                } else {
                    action = "q".into();
                }
            }
            "E" => action = "p".into(),
            _ => {}
        }
    } else if line == "A" && cards.chars().count() > 1 {
        action = lose(flags);
        flags.insert('A');
    } else if line == "A" {
        action = "q".into();
    } else if line == "C" {
        action = lose(flags);
    } else if l.len() == 2 && l[1] == 'q' {
        action = lose(flags) + "\n";
        let f = match line {
            "Tq" => Some('$'),
            "Sq" => Some('*'),
            "Aq" => Some('^'),
            _ => None,
        };
        if let Some(f) = f {
            flags.remove(&f);
        }
    } else if (l.len() == 3 && (l[1] == 'q' || l[2] == 'q')) || (l.len() == 4 && l[2] == 'q') {
        action = lose(flags);
        if l.len() == 4 {
            action.push('\n');
        }
    } else {
        action = race_move(&race, flags, cards, mc, opp_n, n, legal, action);
    }
    if action == "q" {
        match line {
            "T" | "Fd" => {
                flags.remove(&'d');
            }
            "S" | "Sc" => {
                flags.remove(&'c');
            }
            "A" => {
                flags.remove(&'A');
            }
            _ => {}
        }
    }
    let keep = (cards.chars().count() > 2).then(|| {
        let k = cards.chars().count() - 2;
        let fav = race.favourites(flags, cards);
        let present: Vec<char> = fav.iter().copied().filter(|&c| has(c)).collect();
        present.iter().take(k).collect::<String>()
    });
    (action, keep)
}

/// The least aggressive plan that still wins the race, else something useful.
#[allow(clippy::too_many_arguments)]
fn race_move(
    r: &Race,
    flags: &mut BTreeSet<char>,
    cards: &str,
    coins: i64,
    opp_n: i64,
    my_n: i64,
    legal: &[String],
    default: String,
) -> String {
    let has = |c: char| cards.contains(c);
    let can = |a: &str| legal.iter().any(|l| l == a);
    let first = |prefs: &[&str], or: String| -> String {
        prefs
            .iter()
            .find(|p| can(p))
            .map(|p| p.to_string())
            .unwrap_or(or)
    };
    let mut action = if can("p") { "p".to_string() } else { default };
    let stolen_extra = if flags.contains(&'c') && !has('*') && !has('~') {
        2 * (opp_n - 1)
    } else {
        0
    };
    if r.duke <= r.opponent && (has('$') || flags.contains(&'$')) {
        action = first(&["C", "T"], action);
    } else if r.income <= r.opponent {
        action = first(&["C", "I\n"], action);
    } else if r.duke_assassin <= r.opponent
        && (has('$') || flags.contains(&'$'))
        && has('^')
        && my_n > 1
    {
        if 3 * opp_n <= coins - stolen_extra && can("A") {
            action = "A".into();
        } else if can("T") {
            action = "T".into();
        }
        flags.insert('^');
    } else if r.assassin <= r.opponent && has('^') {
        action = first(&["A", "I\n"], action);
        flags.insert('^');
    } else if r.captain <= r.opponent_captained && has('*') {
        action = first(&["C", "S", "I\n"], action);
        flags.insert('*');
    } else if r.faid <= r.opponent && !flags.contains(&'d') {
        action = first(&["C", "F"], action);
    } else if r.faid_assassin <= r.opponent && has('^') && !flags.contains(&'d') {
        action = first(&["A", "F"], action);
        flags.insert('^');
    } else if r.captain_assassin <= r.opponent_captained && has('*') && has('^') {
        action = first(&["A", "S"], action);
        flags.insert('^');
        flags.insert('*');
    } else if can("q") {
        action = "q".into();
    } else if can("C") && !flags.contains(&'^') {
        action = "C".into();
    } else if can("S") && flags.contains(&'*') {
        action = "S".into();
    } else if can("A") && flags.contains(&'^') {
        action = "A".into();
    } else if can("E") && has('~') && r.duke_assassin < r.opponent {
        action = "E".into();
    } else if can("F") && !flags.contains(&'d') {
        action = "F".into();
    } else if can("T") {
        action = "T".into();
        flags.insert('$');
    }
    action
}
