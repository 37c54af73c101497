//! What one player can know, rebuilt from the information lines (`docs/rules/durak.md`
//! §3): own hand, cards seen, cards known to sit in each hand after takes, hand sizes,
//! the talon count, the unseen pool, who is out and which seat each player plays.
//!
//! Players are stored 0..4 = relative numbers 1..=4 (0 is the tracker's owner). Lines may name
//! a substituting partner either by his own number or by the out seat's number: both are
//! accepted (an out player's number is mapped to his partner).

use rand::seq::SliceRandom;
use rand::{Rng, RngExt};

use crate::card::{Card, Suit};
use crate::durak::cards::{beats, rank_index, value, CardSet, DECK_SIZE};
use crate::durak::legal;
use crate::durak::protocol::{Command, Info};
use crate::durak::rules::{partner, team, Answer, Game, Pending, Round, ROUND_LIMIT};
use crate::durak::seat::Seat;

/// The knowledge of player 1 (index 0) about the game so far.
#[derive(Debug, Clone, Default)]
pub struct Tracker {
    /// A summary of the partner's true hand and its value ([`Tracker::showing`]), which every
    /// determinization must match: for the partial clairvoyant bound only, `None` in play.
    pub partner_summary: Option<(Summary, u64)>,
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
    /// Cards each other player (the opponents, and the partner) is believed not to hold from
    /// how he played ([`Beliefs::play`], [`Beliefs::partner`]): after a beat, the cards that would have beaten the same card more
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
    /// Cards each other player is believed not to hold from his leads ([`Beliefs::leads`]):
    /// after a lead, every cheaper card (by [`value`]). Formed, covered and dropped as
    /// [`Tracker::lacks`] is, with its own count of cards drawn since
    /// ([`Tracker::lead_free`]).
    pub lead_lacks: [CardSet; 4],
    /// Cards each other player drew since [`Tracker::lead_lacks`] was first formed.
    pub lead_free: [usize; 4],
    /// Players seen playing a card their beliefs barred: a card the take beliefs barred
    /// ([`Tracker::banned`]), or one the play beliefs barred ([`Tracker::lacks`]) while he had
    /// drawn nothing since they were formed. Such a player does not play by the rules the
    /// beliefs assume ([`Beliefs::doubt`]).
    pub broke: [bool; 4],
}

/// What a determinization assumes beyond the hard facts ([`Tracker::sample_with`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Beliefs {
    /// Keep [`Tracker::lacks`] out of the opponents' hands: opponents beat with their cheapest
    /// beater and throw in the plain cards they can (what `bot_greedy.py`'s and
    /// `bot_smart.py`'s rules do, and this project's heuristic).
    pub play: bool,
    /// Probability that the talon's bottom card is a trump, i.e. that the server announces the
    /// bottom card's suit as trump (the usual deal, `referee.py`'s reading) rather than a suit
    /// drawn apart from the deck (`docs/rules/durak.md` §4.2, where nothing is known
    /// about the bottom card). A determinization puts an unseen trump at the bottom with this
    /// probability while the talon is not empty.
    pub bottom_trump: f64,
    /// With [`Beliefs::play`], keep the partner's [`Tracker::lacks`] out of his hand too: the
    /// partner is read like the opponents (his cheapest beater, his throw-ins and declines),
    /// which holds as far as he plays the same heuristic rules (this program's partner keeps
    /// its heuristic's answer unless its search finds a clearly better one).
    pub partner: bool,
    /// Deal each group of hidden slots as a uniform draw from the cards it may hold
    /// (`--deep uniform_deal=1`): the pool is shuffled again before each hand's believed
    /// slots, before its slots drawn since the belief ([`Tracker::lacks_free`]) and before the
    /// talon is laid. Off (the default), every group takes the first allowed cards of one
    /// shuffled pool, where the cards an earlier group was kept from still lie in front, so
    /// a player's drawn slots take exactly the cards he is believed to lack first (in
    /// `tests/durak_beliefs.rs`, 973 times in 1,000 where a uniform draw gives 451).
    ///
    /// Measured (`referee.py`, duplicate deals, `--jobs 1`, paired game for game against the
    /// default on the same deals): against `bot_greedy.py` +4.0 points (87.2% to 91.2%, 400
    /// games, seed 1), +2.5 (88.2% to 90.8%, 400 games, seed 5001) and -0.1 (90.3% to 90.2%,
    /// 1,000 games, seed 9001), pooled +1.4 +- 1.6 points (95%); against `bot_smart.py` 72.0%
    /// to 74.0% (400 games, seed 1; rerun on nearly the same deals, seed 2, 75.8% to 74.5%),
    /// 75.8% to 74.5% (400 games, seed 5001) and, at seed 9001, 74.6% [71.8, 77.2] over 1,000 games against the default's 76.7%
    /// [74.0, 79.2] (measured the day before on a loaded machine; this opponent's rollouts
    /// run on the clock). No gain beyond the noise: off.
    pub uniform: bool,
    /// Read leads too ([`Tracker::lead_lacks`]): a player who leads holds no cheaper card
    /// (`bot_greedy.py`'s rule: its lowest card, plain before trumps; `--deep read_leads=1`).
    /// Off: with [`Beliefs::mixing`] and [`Beliefs::uniform`] it predicts the hidden cards
    /// better against greedy (docs/durak.md, "The belief audit") and won 91.3% of 1,000
    /// games against the in-process greedy player where the default won 91.5%.
    pub leads: bool,
    /// Random swaps of hidden cards between places after the deal, each kept when it breaks
    /// no belief the deal kept (a Metropolis chain whose stationary law is the uniform one
    /// over the deals that keep every belief: the deal alone serves the most constrained
    /// player first and leans on the others' beliefs less than they imply; `--deep
    /// mixing=N`). 0 (off) by default, measured with [`Beliefs::leads`].
    pub mixing: usize,
    /// Probability that a determinization deals a player by the facts alone, his take and
    /// play beliefs dropped (1 for a player seen breaking them, [`Tracker::broke`]): the
    /// prior that a player does not follow the rules the beliefs assume (`--deep doubt=P`).
    /// Against `bot_smart.py`, whose late play breaks the beliefs in about half the
    /// decisions, 0.5 predicts far better (docs/durak.md, "The belief audit") but won 75.9%
    /// of 1,000 games under `referee.py` where the default won 76.7%, and 89.1% against
    /// `bot_greedy.py` (90.3%). 0 (off) by default.
    pub doubt: f64,
}

impl Beliefs {
    /// The facts and the take beliefs only ([`Tracker::banned`]): what
    /// [`Tracker::sample_game`] assumes.
    pub const TAKES: Beliefs = Beliefs {
        play: false,
        bottom_trump: 0.0,
        partner: false,
        uniform: false,
        leads: false,
        mixing: 0,
        doubt: 0.0,
    };
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

    /// This tracker told the true hands of the players in `players` (a bit mask, bit `p` for
    /// player `p` numbered from the bot, 1..=3) from `truth` (the game numbered from the bot):
    /// their cards become known, so every determinization deals them as they are and the
    /// others' unknown slots and the talon from the remaining cards. For the partial
    /// clairvoyant bound ([`crate::durak::deep::DeepConfig::clairvoyant_players`]) only.
    /// With a `summary`, determinizations also deal the partner (player 2) a hand with the
    /// true hand's summary ([`crate::durak::deep::DeepConfig::clairvoyant_summary`]).
    pub fn showing(&self, truth: &Game, players: u8, summary: Option<Summary>) -> Tracker {
        let mut t = self.clone();
        for p in (1..4).filter(|p| players & (1 << p) != 0) {
            t.known[p] = truth.hands[p];
        }
        t.partner_summary = summary.map(|s| (s, s.of(truth.hands[2], truth.trump)));
        t
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

    /// A full game consistent with everything seen (a determinization): unknown cards dealt at
    /// random to the others' unknown slots and the talon, waiting for player 0's `command`.
    /// Returns `None` before the trump is known or if player 0 cannot be the one asked.
    /// Assumes [`Beliefs::TAKES`].
    pub fn sample_game<R: Rng + ?Sized>(&self, command: Command, rng: &mut R) -> Option<Game> {
        self.sample_with(command, &Beliefs::TAKES, rng)
    }

    /// [`Tracker::sample_game`] under the given `beliefs`. With a
    /// [`Tracker::partner_summary`], the first of up to [`SUMMARY_DRAWS`] draws whose partner
    /// hand has it (the last draw if none has).
    pub fn sample_with<R: Rng + ?Sized>(
        &self,
        command: Command,
        beliefs: &Beliefs,
        rng: &mut R,
    ) -> Option<Game> {
        let Some((summary, value)) = self.partner_summary else {
            return self.draw(command, beliefs, rng);
        };
        let mut last = None;
        for _ in 0..SUMMARY_DRAWS {
            let g = self.draw(command, beliefs, rng)?;
            if summary.of(g.hands[2], g.trump) == value {
                return Some(g);
            }
            last = Some(g);
        }
        last
    }

    /// One determinization of [`Tracker::sample_with`], without the partner summary.
    fn draw<R: Rng + ?Sized>(
        &self,
        command: Command,
        beliefs: &Beliefs,
        rng: &mut R,
    ) -> Option<Game> {
        let trump = self.trump?;
        let mut pool: Vec<Card> = self.unseen().iter().collect();
        pool.shuffle(rng);
        let talon_len = self.talon().min(pool.len());
        // The bottom card, set aside before the deal: the first trump of the shuffled pool.
        let bottom = if talon_len > 0
            && beliefs.bottom_trump > 0.0
            && rng.random_bool(beliefs.bottom_trump.min(1.0))
        {
            pool.iter()
                .position(|c| c.suit == trump)
                .map(|i| pool.swap_remove(i))
        } else {
            None
        };
        let mut hands = [CardSet::EMPTY; 4];
        hands[0] = self.hand;
        // Players dealt by the facts alone in this determinization.
        let doubted: [bool; 4] = std::array::from_fn(|p| {
            p != 0
                && beliefs.doubt > 0.0
                && (self.broke[p] || rng.random_bool(beliefs.doubt.min(1.0)))
        });
        let reads = |p: usize| beliefs.play && (team(p) != 0 || beliefs.partner) && !doubted[p];
        let banned: [CardSet; 4] = std::array::from_fn(|p| {
            if doubted[p] {
                CardSet::EMPTY
            } else {
                self.banned[p]
            }
        });
        let avoid: [CardSet; 4] = std::array::from_fn(|p| {
            if reads(p) {
                let a = banned[p].union(self.lacks[p]);
                if beliefs.leads {
                    a.union(self.lead_lacks[p])
                } else {
                    a
                }
            } else {
                banned[p]
            }
        });
        // Players with beliefs about missing cards are served first, from the cards they may
        // hold; if the beliefs cannot all hold, the rest is dealt without them.
        let mut order: Vec<usize> = (1..4).collect();
        order.sort_by_key(|&p| std::cmp::Reverse(avoid[p].len()));
        // Every hidden card dealt: (card, place (a hand, or 4 for the talon), cards barred
        // from its slot), for the mixing chain (recorded only when it runs).
        let mut slots: Vec<(Card, usize, CardSet)> = Vec::new();
        for p in order {
            hands[p] = self.known[p];
            let missing = self.sizes[p].saturating_sub(self.known[p].len());
            // The slots drawn since the play beliefs were formed only obey the take beliefs.
            let free = if !reads(p) {
                0
            } else if beliefs.leads {
                self.lacks_free[p].max(self.lead_free[p]).min(missing)
            } else {
                self.lacks_free[p].min(missing)
            };
            if beliefs.uniform {
                pool.shuffle(rng);
            }
            let before = hands[p];
            deal(&mut pool, &mut hands[p], missing - free, avoid[p]);
            if beliefs.mixing > 0 {
                slots.extend(hands[p].minus(before).iter().map(|c| (c, p, avoid[p])));
            }
            if beliefs.uniform && free > 0 {
                pool.shuffle(rng);
            }
            let before = hands[p];
            deal(&mut pool, &mut hands[p], free, banned[p]);
            if beliefs.mixing > 0 {
                slots.extend(hands[p].minus(before).iter().map(|c| (c, p, banned[p])));
            }
        }
        if beliefs.uniform {
            pool.shuffle(rng);
        }
        let mut talon: Vec<Card> = Vec::with_capacity(talon_len);
        talon.extend(bottom);
        let rest = talon_len - talon.len();
        talon.extend(pool.drain(pool.len().saturating_sub(rest)..));
        if beliefs.mixing > 0 {
            let first = talon.len() - rest;
            slots.extend(talon[first..].iter().map(|&c| (c, 4, CardSet::EMPTY)));
            mix(&mut slots, beliefs.mixing, rng);
            hands[1..4].copy_from_slice(&self.known[1..4]);
            let mut t = talon[first..].iter_mut();
            for &(c, place, _) in &slots {
                match place {
                    4 => {
                        if let Some(x) = t.next() {
                            *x = c;
                        }
                    }
                    p => hands[p].insert(c),
                }
            }
        }
        let round = self.round.unwrap_or_default();
        let mut game = Game {
            trump,
            talon,
            hands,
            out: self.out,
            mover_seat: self.mover_seat,
            round,
            rounds: self.rounds.max(1),
            pending: Pending::Move(0),
        };
        match command {
            Command::Move => {
                if game.controller(game.mover_seat) != 0 {
                    let me = Seat::ALL[0];
                    game.mover_seat = if self.out[0] { me.partner() } else { me };
                }
                game.round = Round::default();
            }
            Command::Beat => {
                let r = self.round?;
                r.open?;
                if r.defender != 0 {
                    return None;
                }
                game.pending = Pending::Beat(0);
            }
            Command::Add => {
                self.round?;
                let (throwers, n) = game.throwers();
                let i = throwers[..n].iter().position(|&t| t == 0)?;
                game.round.add_index = i;
                game.pending = Pending::Add(0);
            }
        }
        Some(game)
    }
}

/// Most determinizations [`Tracker::sample_with`] draws to match a
/// [`Tracker::partner_summary`].
pub const SUMMARY_DRAWS: usize = 400;

/// A summary of a hand that a signal between the partners might pass, for the bound on what
/// signals could be worth ([`crate::durak::deep::DeepConfig::clairvoyant_summary`], numbered
/// 1 to 8 in this order). "Plain" cards are those not of the trump suit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Summary {
    /// The number of plain cards in each suit.
    SuitCounts,
    /// The same, 2 standing for two or more.
    SuitCountsToTwo,
    /// Which plain suits the hand holds.
    SuitsHeld,
    /// The number of plain queens, kings and aces in each suit.
    HighCounts,
    /// The sum of the plain cards' rank indices (6 = 0 .. ace = 8) in each suit, divided by 8.
    RankSums,
    /// Whether the hand holds a plain queen or higher, in each suit.
    HighHeld,
    /// The number of trumps.
    Trumps,
    /// Which ranks the plain cards have (any suit).
    PlainRanks,
}

impl Summary {
    /// Every summary, numbered 1 to 8 in this order.
    pub const ALL: [Summary; 8] = [
        Summary::SuitCounts,
        Summary::SuitCountsToTwo,
        Summary::SuitsHeld,
        Summary::HighCounts,
        Summary::RankSums,
        Summary::HighHeld,
        Summary::Trumps,
        Summary::PlainRanks,
    ];

    /// The summary numbered `n` (1..=8, [`Summary::ALL`]'s order); `None` otherwise.
    pub fn from_number(n: u8) -> Option<Summary> {
        Summary::ALL.get(usize::from(n).checked_sub(1)?).copied()
    }

    /// This summary of `hand` under `trump`, as a number (one byte per suit, in
    /// [`Suit::ALL`] order, or a rank bit set).
    pub fn of(self, hand: CardSet, trump: Suit) -> u64 {
        let plain = hand.minus(CardSet::suit(trump));
        // One byte per suit: `f` of the plain cards of each suit.
        let per_suit = |f: &dyn Fn(CardSet) -> usize| {
            Suit::ALL.iter().enumerate().fold(0, |key, (i, &s)| {
                key | (f(plain.intersect(CardSet::suit(s))) as u64) << (8 * i)
            })
        };
        let high = |cards: CardSet| cards.iter().filter(|c| rank_index(c.rank) >= 6).count();
        let rank_sum = |cards: CardSet| {
            cards
                .iter()
                .map(|c| usize::from(rank_index(c.rank)))
                .sum::<usize>()
        };
        match self {
            Summary::SuitCounts => per_suit(&|c| c.len()),
            Summary::SuitCountsToTwo => per_suit(&|c| c.len().min(2)),
            Summary::SuitsHeld => per_suit(&|c| usize::from(!c.is_empty())),
            Summary::HighCounts => per_suit(&high),
            Summary::RankSums => per_suit(&|c| rank_sum(c) / 8),
            Summary::HighHeld => per_suit(&|c| usize::from(high(c) > 0)),
            Summary::Trumps => hand.intersect(CardSet::suit(trump)).len() as u64,
            Summary::PlainRanks => plain.iter().fold(0, |k, c| k | 1 << rank_index(c.rank)),
        }
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

/// `steps` proposals of the mixing chain ([`Beliefs::mixing`]): two slots drawn at random
/// swap their cards when the swap breaks no more beliefs than it mends (from a deal that keeps
/// every belief: when it breaks none), so the chain keeps the deal's places, slot counts and
/// talon order and tends to the uniform law over the deals that keep the beliefs.
fn mix<R: Rng + ?Sized>(slots: &mut [(Card, usize, CardSet)], steps: usize, rng: &mut R) {
    let n = slots.len();
    if n < 2 {
        return;
    }
    for _ in 0..steps {
        let i = rng.random_range(0..n);
        let j = rng.random_range(0..n);
        let ((ci, pi, ai), (cj, pj, aj)) = (slots[i], slots[j]);
        if pi == pj && ai == aj {
            continue;
        }
        let broken = |c: Card, a: CardSet| usize::from(a.contains(c));
        if broken(cj, ai) + broken(ci, aj) <= broken(ci, ai) + broken(cj, aj) {
            slots[i].0 = cj;
            slots[j].0 = ci;
        }
    }
}

/// Moves `n` cards from `pool` into `hand`, the first ones in pool order that are not in
/// `avoid`; when too few are, the rest from the pool's end regardless.
fn deal(pool: &mut Vec<Card>, hand: &mut CardSet, n: usize, avoid: CardSet) {
    let mut missing = n;
    let mut i = 0;
    while missing > 0 && i < pool.len() {
        if avoid.contains(pool[i]) {
            i += 1;
        } else {
            hand.insert(pool.swap_remove(i));
            missing -= 1;
        }
    }
    while missing > 0 {
        let Some(c) = pool.pop() else { break };
        hand.insert(c);
        missing -= 1;
    }
}
