//! What one player can know, rebuilt from the information lines (`docs/rules/durak.md`
//! §3): own hand, cards seen, cards known to sit in each hand after takes, hand sizes,
//! the talon count, the unseen pool, who is out and which seat each player plays.
//!
//! The determinizations drawn from it are [`super::sample`]'s.
//!
//! Players are stored 0..4 = relative numbers 1..=4 (0 is the tracker's owner). Lines may name
//! a substituting partner either by his own number or by the out seat's number: both are
//! accepted (an out player's number is mapped to his partner).

use crate::card::{Card, Suit};
use crate::durak::cards::{beats, value, CardSet, DECK_SIZE};
use crate::durak::legal;
use crate::durak::protocol::{Command, Info};
use crate::durak::rules::{partner, Answer, Round, ROUND_LIMIT};
use crate::durak::seat::Seat;

/// The knowledge of player 1 (index 0) about the game so far.
#[derive(Debug, Clone, Default)]
pub struct Tracker {
    /// The trump suit, once announced.
    pub trump: Option<Suit>,
    /// Own hand.
    pub hand: CardSet,
    /// Hand sizes of the four players.
    pub sizes: [usize; 4],
    /// Cards known to be in each hand (own hand for index 0; taken cards for the others).
    pub known: [CardSet; 4],
    /// Cards that left the game (beaten off).
    pub gone: CardSet,
    /// `give` lines seen (each moves one card out of the 36-card deck).
    pub gives: usize,
    /// Who is out.
    pub out: [bool; 4],
    /// The current round, while one is on the table.
    pub round: Option<Round>,
    /// The seat that leads next (meaningful once [`Tracker::seats_known`]).
    pub mover_seat: Seat,
    /// Whether a round has been seen, so seats can be followed.
    pub seats_known: bool,
    /// Rounds started (`move` lines seen).
    pub rounds: u32,
    /// Cards each player is believed not to hold: after refusing to beat, the cards that
    /// would have beaten the open card (only the plain ones while 10 or more cards remain in
    /// the talon, when a player may take on purpose to keep a high trump). Cleared when the
    /// player draws. A belief used to weight determinizations, never for legality.
    pub banned: [CardSet; 4],
    /// Cards each other player is believed not to hold from how he played (read for the
    /// opponents under [`Beliefs::Play`](super::sample::Beliefs::Play)): after a beat, the cards that would have beaten the same card more
    /// cheaply (lower in the suit, or plain instead of a trump); after a throw-in, the cheaper
    /// cards of the table's ranks; after a round he let end below its limit without throwing
    /// in, or a throw-in by his partner that he was asked before, the plain cards of the
    /// table's ranks. Each belief holds for the cards he held when it was formed: cards he
    /// drew since ([`Tracker::lacks_free`]) may be any. A belief used to weight
    /// determinizations, never for legality.
    pub lacks: [CardSet; 4],
    /// Cards each other player drew since [`Tracker::lacks`] was first formed (the hand's slots
    /// the belief does not cover).
    pub lacks_free: [usize; 4],
    /// Cards each other player is believed not to hold from his leads: after a lead, every
    /// cheaper card (by [`value`]). Formed, covered and dropped as [`Tracker::lacks`] is, with
    /// its own count of cards drawn since ([`Tracker::lead_free`]). Only [`Tracker::broke`]
    /// reads it (dealing by it was measured no stronger: `docs/experiments/durak.md`).
    pub lead_lacks: [CardSet; 4],
    /// Cards each other player drew since [`Tracker::lead_lacks`] was first formed.
    pub lead_free: [usize; 4],
    /// Players seen playing a card their beliefs barred: a card the take beliefs barred
    /// ([`Tracker::banned`]), or one the play beliefs barred ([`Tracker::lacks`]) while he had
    /// drawn nothing since they were formed. Such a player does not play by the rules the
    /// beliefs assume: the trees search for him ([`crate::durak::deep::SearchSettings::tree_opp`]).
    pub broke: [bool; 4],
}

impl Tracker {
    /// A tracker before any line.
    pub fn new() -> Tracker {
        Tracker::default()
    }

    /// Cards still in the talon.
    pub fn talon(&self) -> usize {
        DECK_SIZE.saturating_sub(self.gives)
    }

    /// The physical player meant by a line's (0-based) player: an out player's partner.
    fn phys(&self, p: usize) -> usize {
        if self.out[p] {
            partner(p)
        } else {
            p
        }
    }

    fn controller(&self, seat: Seat) -> usize {
        self.phys(seat.index())
    }

    fn remove_card(&mut self, p: usize, card: Card) {
        if p != 0
            && !self.known[p].contains(card)
            && (self.banned[p].contains(card)
                || (self.lacks_free[p] == 0 && self.lacks[p].contains(card))
                || (self.lead_free[p] == 0 && self.lead_lacks[p].contains(card)))
        {
            self.broke[p] = true;
        }
        if p == 0 {
            self.hand.remove(card);
            self.sizes[0] = self.hand.len();
        } else {
            self.known[p].remove(card);
            self.sizes[p] = self.sizes[p].saturating_sub(1);
        }
    }

    /// Adds the belief that `p` holds none of `cards` now; beliefs that no longer cover any
    /// of his unknown cards are dropped first.
    fn believe(&mut self, p: usize, cards: CardSet) {
        let hidden = self.sizes[p].saturating_sub(self.known[p].len());
        add_belief(&mut self.lacks[p], &mut self.lacks_free[p], hidden, cards);
    }

    /// [`Tracker::believe`] for a lead's belief ([`Tracker::lead_lacks`]).
    fn believe_lead(&mut self, p: usize, cards: CardSet) {
        let hidden = self.sizes[p].saturating_sub(self.known[p].len());
        add_belief(
            &mut self.lead_lacks[p],
            &mut self.lead_free[p],
            hidden,
            cards,
        );
    }

    /// Ends the current round, if any: the table goes to the taker or leaves the game.
    pub fn resolve_round(&mut self) {
        if let Some(r) = self.round.take() {
            if r.attacks < r.limit {
                // Every thrower still in declined at the final table (`docs/rules/durak.md`
                // §4.5: the round ends when nobody throws in).
                let plain = match self.trump {
                    Some(t) => r.table.rank_closure().minus(CardSet::suit(t)),
                    None => CardSet::EMPTY,
                };
                for seat in [r.attacker_seat, r.attacker_seat.partner()] {
                    let t = self.controller(seat);
                    if t != 0 && !self.out[t] {
                        self.believe(t, plain);
                    }
                }
            }
            if r.taking {
                let d = r.defender;
                if d == 0 {
                    self.hand = self.hand.union(r.table);
                    self.sizes[0] = self.hand.len();
                } else {
                    self.known[d] = self.known[d].union(r.table);
                    self.sizes[d] += r.table.len();
                }
                self.mover_seat = r.defender_seat.next();
            } else {
                self.gone = self.gone.union(r.table);
                self.mover_seat = r.defender_seat;
            }
        }
    }

    /// Applies one information line.
    pub fn apply(&mut self, info: Info) {
        let ix = |p: u8| usize::from(p.clamp(1, 4) - 1);
        match info {
            Info::Trump(s) => {
                *self = Tracker::new();
                self.trump = Some(s);
            }
            Info::Give { player, card } => {
                self.resolve_round();
                let p = self.phys(ix(player));
                self.gives += 1;
                self.banned[p] = CardSet::EMPTY;
                if !self.lacks[p].is_empty() {
                    self.lacks_free[p] += 1;
                }
                if !self.lead_lacks[p].is_empty() {
                    self.lead_free[p] += 1;
                }
                if p == 0 {
                    if let Some(c) = card {
                        self.hand.insert(c);
                    }
                    self.sizes[0] = self.hand.len();
                } else {
                    self.sizes[p] += 1;
                    if let Some(c) = card {
                        self.known[p].insert(c);
                    }
                }
            }
            Info::Move { by, under, card } => {
                self.resolve_round();
                let (by, under) = (ix(by), ix(under));
                let p = self.phys(by);
                let d = self.phys(under);
                let attacker_seat = if self.out[by] {
                    Seat::new(by)
                } else if self.out[under] {
                    Seat::new(under).prev()
                } else if self.seats_known && self.controller(self.mover_seat) == p {
                    self.mover_seat
                } else if self.controller(Seat::new(p).next()) == d {
                    Seat::new(p)
                } else {
                    Seat::new(p).partner()
                };
                let mut table = CardSet::EMPTY;
                table.insert(card);
                self.round = Some(Round {
                    attacker_seat,
                    defender_seat: attacker_seat.next(),
                    defender: d,
                    first_attacker: p,
                    table,
                    attacks: 1,
                    open: Some(card),
                    limit: self.sizes[d].min(ROUND_LIMIT),
                    taking: false,
                    add_index: 0,
                });
                self.seats_known = true;
                self.rounds += 1;
                self.remove_card(p, card);
                if let (true, Some(trump)) = (p != 0, self.trump) {
                    let cheaper: CardSet = CardSet::ALL
                        .iter()
                        .filter(|&c| value(c, trump) < value(card, trump))
                        .collect();
                    self.believe_lead(p, cheaper);
                }
            }
            Info::Add { by, card, .. } => {
                let p = self.phys(ix(by));
                self.remove_card(p, card);
                if let (Some(r), Some(trump)) = (self.round, self.trump) {
                    // The thrower holds no cheaper card of the table's ranks; a throw by the
                    // attacker's partner means the attacker, asked first, declined
                    // (`docs/rules/durak.md` §4.5).
                    let ranks = r.table.rank_closure();
                    let cheaper: CardSet = ranks
                        .iter()
                        .filter(|&c| value(c, trump) < value(card, trump))
                        .collect();
                    if p != 0 {
                        self.believe(p, cheaper);
                    }
                    let first = self.controller(r.attacker_seat);
                    if first != p && first != 0 && !self.out[first] {
                        let plain = ranks.minus(CardSet::suit(trump));
                        self.believe(first, plain);
                    }
                }
                if let Some(r) = self.round.as_mut() {
                    r.table.insert(card);
                    r.attacks += 1;
                    if !r.taking {
                        r.open = Some(card);
                    }
                }
            }
            Info::Beat { by, card } => {
                let p = self.phys(ix(by));
                self.remove_card(p, card);
                let open = self.round.and_then(|r| r.open);
                if let (Some(open), Some(trump)) = (open, self.trump) {
                    if p != 0 {
                        let cheaper: CardSet = legal::beaters(CardSet::ALL, Some(open), trump)
                            .iter()
                            .filter(|&c| beats(c, card, trump))
                            .collect();
                        self.believe(p, cheaper);
                    }
                }
                if let Some(r) = self.round.as_mut() {
                    r.table.insert(card);
                    r.open = None;
                }
            }
            Info::Take { .. } => {
                let talon = self.talon();
                if let (Some(r), Some(trump)) = (self.round.as_mut(), self.trump) {
                    if let Some(open) = r.open {
                        let d = r.defender;
                        let trumps = CardSet::suit(trump);
                        let mut ban = legal::beaters(CardSet::ALL, Some(open), trump);
                        if talon >= 10 {
                            ban = ban.minus(trumps);
                        }
                        self.banned[d] = self.banned[d].union(ban);
                    }
                    r.taking = true;
                    r.open = None;
                }
            }
            Info::Out { player } => {
                let p = ix(player);
                if !self.out[p] {
                    self.out[p] = true;
                }
            }
        }
    }

    /// Called when a command arrives: a `MOVE` closes any round still on the table.
    pub fn on_command(&mut self, command: Command) {
        if command == Command::Move {
            self.resolve_round();
        }
    }

    /// Own legal answers to `command` as far as this tracker can tell (`NO` is always among
    /// them for `BEAT` and `ADD`, so an answer from this list is legal under any reading).
    pub fn legal(&self, command: Command) -> Vec<Answer> {
        let trump = self.trump.unwrap_or(Suit::Spades);
        legal::answers(command, self.hand, &self.round.unwrap_or_default(), trump)
    }

    /// Cards whose place is unknown to player 1: not in his hand, not gone, not on the table,
    /// not known to be in another hand. They are in the others' hands or the talon.
    pub fn unseen(&self) -> CardSet {
        let mut seen = self.hand.union(self.gone);
        if let Some(r) = self.round {
            seen = seen.union(r.table);
        }
        for k in &self.known[1..] {
            seen = seen.union(*k);
        }
        CardSet::ALL.minus(seen)
    }
}

/// Adds `cards` to a player's belief `lacks`, first dropping it when the cards drawn since it
/// was formed (`free`) fill all `hidden` slots of his hand (it then covers none).
fn add_belief(lacks: &mut CardSet, free: &mut usize, hidden: usize, cards: CardSet) {
    if *free >= hidden {
        *lacks = CardSet::EMPTY;
        *free = 0;
    }
    *lacks = lacks.union(cards);
}
