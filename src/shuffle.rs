//! The homework's four shuffles, done on the linked list by relinking nodes
//! (`docs/rules/homework.md` §3).

use std::fmt;
use std::mem;

use thiserror::Error;

use crate::deck::Deck;

/// Why a shuffle line or a shuffle was refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum ShuffleError {
    /// The line names no known shuffle.
    #[error("unknown shuffle {0:?} (expected inversare, npiles, intercalare or mongean)")]
    Unknown(String),
    /// A shuffle without parameters was given some.
    #[error("{name} takes no parameters, got {extra:?}")]
    Extra {
        /// The shuffle's name in the file.
        name: &'static str,
        /// What followed it.
        extra: String,
    },
    /// `npiles` without a pile count K that is a whole number from 1 up.
    #[error("npiles needs a pile count K >= 1, got {0:?}")]
    PileCount(String),
    /// An `npiles` pile number is not a whole number.
    #[error("npiles pile number {0:?} is not a whole number")]
    PileNumber(String),
    /// `npiles K` followed by a number of pile numbers other than K.
    #[error("npiles {k} needs {k} pile numbers, got {got}")]
    PileNumbers {
        /// K.
        k: usize,
        /// How many numbers followed K.
        got: usize,
    },
    /// The pile numbers are not each of 1..=K exactly once.
    #[error("npiles pile numbers {} are not a permutation of 1..={k}", clip_list(.0), k = .0.len())]
    NotPermutation(Vec<usize>),
    /// K does not divide the deck into equal piles.
    #[error("npiles {k} cannot cut a deck of {len} cards into equal piles")]
    Indivisible {
        /// K.
        k: usize,
        /// The deck's length.
        len: usize,
    },
    /// Interleave needs two equal halves.
    #[error("intercalare needs an even number of cards, the deck has {0}")]
    OddLength(usize),
}

/// Longest piece of input quoted in an error message, in characters.
pub(crate) const QUOTE_CHARS: usize = 40;

/// `text` as quoted in an error message: the prefix whose `{:?}` escaping
/// takes at most [`QUOTE_CHARS`] characters (a control character counts as
/// its escape, up to 10), then `...` and the full length when it was cut, so
/// one bad line of any size gives a short one-line message.
pub(crate) fn clip(text: &str) -> String {
    let mut width = 0;
    for (i, c) in text.char_indices() {
        width += c.escape_debug().count();
        if width > QUOTE_CHARS {
            return format!("{}... ({} bytes)", &text[..i], text.len());
        }
    }
    text.to_owned()
}

/// Pile numbers as quoted in an error message: the first ten, then how many.
fn clip_list(order: &[usize]) -> String {
    if order.len() <= 10 {
        format!("{order:?}")
    } else {
        let head: Vec<String> = order[..10].iter().map(ToString::to_string).collect();
        format!("[{}, ... ({} numbers)]", head.join(", "), order.len())
    }
}

impl ShuffleError {
    /// `true` for a malformed shuffle line, `false` for a well-formed shuffle
    /// that cannot apply to the deck (K not dividing it, an odd interleave).
    pub fn is_syntax(&self) -> bool {
        !matches!(
            self,
            ShuffleError::Indivisible { .. } | ShuffleError::OddLength(_)
        )
    }
}

/// One shuffle of the homework (`docs/rules/homework.md` §3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Shuffle {
    /// `inversare`: the first card becomes last and the last first.
    Reverse,
    /// `npiles K i1 .. iK`: cut the deck into K equal consecutive piles, then
    /// stack them in the order of the 1-based pile numbers `order`
    /// (a permutation of 1..=K; K = `order.len()`).
    NPiles {
        /// 1-based pile numbers, first pile of the result first.
        order: Vec<usize>,
    },
    /// `intercalare`: halves, then one card from the first half, one from the
    /// second, and so on (the result starts with the first half's top card).
    Interleave,
    /// `mongean`: the first card aside, the next on top of the pile, the next
    /// underneath, alternating.
    Mongean,
}

impl Shuffle {
    /// The shuffle's name as the homework's input file spells it.
    pub const fn name(&self) -> &'static str {
        match self {
            Shuffle::Reverse => "inversare",
            Shuffle::NPiles { .. } => "npiles",
            Shuffle::Interleave => "intercalare",
            Shuffle::Mongean => "mongean",
        }
    }

    /// Reads one shuffle line of the homework's `in` file: `inversare`,
    /// `npiles K i1 .. iK`, `intercalare` or `mongean`, words separated by any
    /// white space.
    ///
    /// # Errors
    /// [`ShuffleError`] for an unknown name, stray parameters, a bad K, pile
    /// numbers that are not whole numbers, the wrong count of them, or not a
    /// permutation of 1..=K.
    pub fn parse_line(line: &str) -> Result<Shuffle, ShuffleError> {
        let mut words = line.split_whitespace();
        let name = words.next().unwrap_or("");
        let shuffle = match name {
            "inversare" => Shuffle::Reverse,
            "intercalare" => Shuffle::Interleave,
            "mongean" => Shuffle::Mongean,
            "npiles" => {
                let k_text = words.next().unwrap_or("");
                let k = k_text
                    .parse::<usize>()
                    .ok()
                    .filter(|&k| k >= 1)
                    .ok_or_else(|| ShuffleError::PileCount(clip(k_text)))?;
                let order = words
                    .map(|w| w.parse().map_err(|_| ShuffleError::PileNumber(clip(w))))
                    .collect::<Result<Vec<usize>, _>>()?;
                if order.len() != k {
                    return Err(ShuffleError::PileNumbers {
                        k,
                        got: order.len(),
                    });
                }
                return Shuffle::npiles(order);
            }
            _ => return Err(ShuffleError::Unknown(clip(line.trim()))),
        };
        let extra: Vec<&str> = words.collect();
        if extra.is_empty() {
            Ok(shuffle)
        } else {
            Err(ShuffleError::Extra {
                name: shuffle.name(),
                extra: clip(&extra.join(" ")),
            })
        }
    }

    /// An n-piles shuffle with these 1-based pile numbers.
    ///
    /// # Errors
    /// [`ShuffleError::NotPermutation`] unless `order` holds each of
    /// 1..=`order.len()` exactly once (an empty order too).
    pub fn npiles(order: Vec<usize>) -> Result<Shuffle, ShuffleError> {
        let k = order.len();
        let mut seen = vec![false; k];
        for &i in &order {
            match seen.get_mut(i.wrapping_sub(1)) {
                Some(slot @ false) => *slot = true,
                _ => return Err(ShuffleError::NotPermutation(order)),
            }
        }
        if k == 0 {
            return Err(ShuffleError::NotPermutation(order));
        }
        Ok(Shuffle::NPiles { order })
    }

    /// Shuffles `deck` in place, relinking its nodes (no card is copied).
    ///
    /// # Errors
    /// [`ShuffleError::Indivisible`] when n-piles' K does not divide the
    /// deck, [`ShuffleError::NotPermutation`] for a hand-built bad order,
    /// [`ShuffleError::OddLength`] when interleaving an odd number of cards.
    /// The deck is unchanged on error.
    pub fn apply(&self, deck: &mut Deck) -> Result<(), ShuffleError> {
        match self {
            Shuffle::Reverse => deck.reverse(),
            Shuffle::NPiles { order } => npiles(deck, order)?,
            Shuffle::Interleave => interleave(deck)?,
            Shuffle::Mongean => mongean(deck),
        }
        Ok(())
    }
}

fn npiles(deck: &mut Deck, order: &[usize]) -> Result<(), ShuffleError> {
    let (k, len) = (order.len(), deck.len());
    if k == 0 || !len.is_multiple_of(k) {
        return Err(ShuffleError::Indivisible { k, len });
    }
    let mut seen = vec![false; k];
    if !order.iter().all(|&i| {
        seen.get_mut(i.wrapping_sub(1))
            .is_some_and(|slot| !mem::replace(slot, true))
    }) {
        return Err(ShuffleError::NotPermutation(order.to_vec()));
    }
    let mut piles = mem::take(deck).split_into(k);
    // Stack the piles from the last one up, so each `append` walks one pile.
    for &i in order.iter().rev() {
        let mut pile = mem::take(&mut piles[i - 1]);
        pile.append(deck);
        *deck = pile;
    }
    Ok(())
}

fn interleave(deck: &mut Deck) -> Result<(), ShuffleError> {
    let len = deck.len();
    if !len.is_multiple_of(2) {
        return Err(ShuffleError::OddLength(len));
    }
    let mut second = deck.split_off(len / 2);
    let mut out = Deck::new();
    while deck.move_front_to(&mut out).is_some() {
        second.move_front_to(&mut out);
    }
    out.reverse();
    *deck = out;
    Ok(())
}

/// Cards at even positions (0, 2, ..) go under the pile in order; cards at odd
/// positions go on top, so they end up first and reversed.
fn mongean(deck: &mut Deck) {
    let mut top = Deck::new();
    let mut bottom = Deck::new();
    loop {
        if deck.move_front_to(&mut bottom).is_none() || deck.move_front_to(&mut top).is_none() {
            break;
        }
    }
    bottom.reverse();
    top.append(&mut bottom);
    *deck = top;
}

/// The homework's line for the shuffle: `npiles 3 3 1 2`, `mongean`, ...
impl fmt::Display for Shuffle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        if let Shuffle::NPiles { order } = self {
            write!(f, " {}", order.len())?;
            for i in order {
                write!(f, " {i}")?;
            }
        }
        Ok(())
    }
}

impl std::str::FromStr for Shuffle {
    type Err = ShuffleError;

    fn from_str(line: &str) -> Result<Shuffle, ShuffleError> {
        Shuffle::parse_line(line)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn deck(text: &str) -> Deck {
        text.parse().unwrap()
    }

    fn shuffled(text: &str, line: &str) -> String {
        let mut d = deck(text);
        line.parse::<Shuffle>().unwrap().apply(&mut d).unwrap();
        d.to_string()
    }

    // The four worked examples of `docs/rules/homework.md` §3.
    #[test]
    fn statement_examples() {
        assert_eq!(shuffled("As Kd Tc Jd 9h", "inversare"), "9h Jd Tc Kd As");
        assert_eq!(
            shuffled("Ks Ts 7s 9s 3s Ad", "npiles 3 3 1 2"),
            "3s Ad Ks Ts 7s 9s"
        );
        assert_eq!(
            shuffled("9s Td Jh 3s 2d 5h", "intercalare"),
            "9s 3s Td 2d Jh 5h"
        );
        assert_eq!(
            shuffled("Ks Tc Qh Ah 7s 6d", "mongean"),
            "6d Ah Tc Ks Qh 7s"
        );
    }

    #[test]
    fn mongean_steps_of_the_statement_for_every_prefix() {
        let steps = [
            "Ks",
            "Tc Ks",
            "Tc Ks Qh",
            "Ah Tc Ks Qh",
            "Ah Tc Ks Qh 7s",
            "6d Ah Tc Ks Qh 7s",
        ];
        let cards: Vec<&str> = "Ks Tc Qh Ah 7s 6d".split(' ').collect();
        for (n, want) in steps.iter().enumerate() {
            assert_eq!(shuffled(&cards[..=n].join(" "), "mongean"), *want);
        }
    }

    #[test]
    fn canonical_deck_reversed_matches_the_statement_output() {
        let mut d = Deck::standard();
        Shuffle::Reverse.apply(&mut d).unwrap();
        let text = d.to_string();
        assert!(text.starts_with("2d 2c 2h 2s 3d 3c 3h 3s"), "{text}");
        assert!(text.ends_with("Kd Kc Kh Ks Ad Ac Ah As"), "{text}");
    }

    #[test]
    fn lines_round_trip_through_display() {
        for line in ["inversare", "intercalare", "mongean", "npiles 4 1 4 3 2"] {
            assert_eq!(line.parse::<Shuffle>().unwrap().to_string(), line);
        }
        let spaced: Shuffle = "  npiles\t2   2 1  ".parse().unwrap();
        assert_eq!(spaced, Shuffle::NPiles { order: vec![2, 1] });
    }

    #[test]
    fn bad_lines_are_refused_with_the_reason() {
        use ShuffleError as E;
        let err = |line: &str| line.parse::<Shuffle>().unwrap_err();
        assert_eq!(err("shuffle"), E::Unknown("shuffle".into()));
        assert_eq!(err(""), E::Unknown("".into()));
        assert!(matches!(
            err("mongean 3"),
            E::Extra {
                name: "mongean",
                ..
            }
        ));
        assert_eq!(err("npiles"), E::PileCount("".into()));
        assert_eq!(err("npiles 0"), E::PileCount("0".into()));
        assert_eq!(err("npiles x 1"), E::PileCount("x".into()));
        assert_eq!(err("npiles 2 1 b"), E::PileNumber("b".into()));
        assert_eq!(err("npiles 3 1 2"), E::PileNumbers { k: 3, got: 2 });
        assert_eq!(err("npiles 2 1 2 2"), E::PileNumbers { k: 2, got: 3 });
        assert_eq!(err("npiles 2 1 1"), E::NotPermutation(vec![1, 1]));
        assert_eq!(err("npiles 2 0 1"), E::NotPermutation(vec![0, 1]));
        assert_eq!(err("npiles 2 1 3"), E::NotPermutation(vec![1, 3]));
    }

    #[test]
    fn npiles_must_divide_the_deck_and_leaves_it_unchanged_otherwise() {
        let mut d = Deck::standard();
        let five = Shuffle::npiles(vec![1, 2, 3, 4, 5]).unwrap();
        assert_eq!(
            five.apply(&mut d),
            Err(ShuffleError::Indivisible { k: 5, len: 52 })
        );
        assert_eq!(d, Deck::standard());
        let bad = Shuffle::NPiles { order: vec![2, 2] };
        assert!(matches!(
            bad.apply(&mut d),
            Err(ShuffleError::NotPermutation(_))
        ));
        assert_eq!(d, Deck::standard());
        let mut odd = deck("As Kd Tc");
        assert_eq!(
            Shuffle::Interleave.apply(&mut odd),
            Err(ShuffleError::OddLength(3))
        );
    }
}
