//! [`Seat`]: one of the four places at the table, with the arithmetic of the turn order
//! (`docs/rules/durak.md` §1.1, §3.1: players 1..4 sit in turn order, teams `{1, 3}` and `{2, 4}`, each program
//! numbers the players from itself).
//!
//! The engine works in absolute numbering 0..4 (the spec's player `n` is seat `n - 1`); the
//! protocol's relative numbers 1..=4 are seats seen from a viewer ([`Seat::relative_to`],
//! [`Seat::from_relative`]). Tables indexed by seat stay `[T; 4]`, indexed by [`Seat::index`].

/// An absolute seat 0..4. Seat `s + 1` (mod 4) moves after `s` (clockwise turn order); `s`
/// and `s + 2` are partners; team 0 is `{0, 2}`, team 1 is `{1, 3}`. The default is seat 0.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub struct Seat(u8);

impl Seat {
    /// The four seats in turn order, starting at seat 0.
    pub const ALL: [Seat; 4] = [Seat(0), Seat(1), Seat(2), Seat(3)];

    /// The seat `i mod 4` (so any player count wraps around the table).
    pub fn new(i: usize) -> Seat {
        Seat((i % 4) as u8)
    }

    /// The seat number 0..4, for indexing `[T; 4]` tables.
    pub fn index(self) -> usize {
        usize::from(self.0)
    }

    /// The seat `k` places further in turn order.
    pub fn plus(self, k: usize) -> Seat {
        Seat::new(self.index() + k % 4)
    }

    /// The next seat in turn order (the defender of an attack from `self`).
    pub fn next(self) -> Seat {
        self.plus(1)
    }

    /// The previous seat in turn order (the attacker of a defence by `self`).
    pub fn prev(self) -> Seat {
        self.plus(3)
    }

    /// The partner, across the table (`self + 2 mod 4`).
    pub fn partner(self) -> Seat {
        self.plus(2)
    }

    /// The team: 0 for seats `{0, 2}`, 1 for `{1, 3}`.
    pub fn team(self) -> usize {
        self.index() % 2
    }

    /// The relative number 1..=4 by which `viewer` calls this seat (the viewer is 1,
    /// the next seat in turn order 2, ...; `docs/rules/durak.md` §3.1).
    pub fn relative_to(self, viewer: Seat) -> u8 {
        // Four seats, so the difference 0..4 fits u8.
        (self.index() + 4 - viewer.index()) as u8 % 4 + 1
    }

    /// The seat that `viewer` calls `rel` (1..=4; 0 is read as 1, larger values wrap).
    pub fn from_relative(viewer: Seat, rel: u8) -> Seat {
        viewer.plus(usize::from(rel.saturating_sub(1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turn_order_partners_teams_and_relative_numbers() {
        for s in Seat::ALL {
            assert_eq!(s.next().prev(), s);
            assert_eq!(s.partner().partner(), s);
            assert_eq!(s.next().next(), s.partner());
            assert_eq!(s.partner().team(), s.team());
            assert_ne!(s.next().team(), s.team());
            assert_eq!(s.relative_to(s), 1);
            assert_eq!(s.next().relative_to(s), 2);
            assert_eq!(s.prev().relative_to(s), 4);
            for rel in 1..=4 {
                assert_eq!(Seat::from_relative(s, rel).relative_to(s), rel);
            }
        }
        assert_eq!(Seat::new(5), Seat::ALL[1]);
        assert_eq!(Seat::ALL[3].next(), Seat::ALL[0]);
        assert_eq!(Seat::ALL[0].prev(), Seat::ALL[3]);
    }
}
