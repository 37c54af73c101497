//! Decisions by simulation: every legal answer is played out to the end of
//! the game many times and the one that wins most often is chosen.
//!
//! Each simulation (a determinized rollout) draws the opponent's hidden hand
//! from its posterior ([`crate::coup::model::hand_distribution`]: the 15-card
//! deck, every public event, the claim likelihood ratios learned from this
//! opponent), puts the other unseen cards in the deck, applies the answer and
//! then lets both seats play by a [`Behaviour`] until someone has no card
//! left (the original arbiter's rules, quirks included: a failed challenge of
//! an Assassination or a caught Contessa bluff against one loses both cards,
//! an Ambassador proved against a challenged Exchange is kept). The
//! opponent's behaviour is its learned model ([`crate::coup::opponent::Model`]:
//! Beta posteriors of its challenge, block and bluff rates, this game and
//! memory); mine answers that model. Every answer is played against the same
//! samples (common random numbers), so the comparison has less noise than
//! each estimate. Deterministic: the random stream is seeded from the input.

use super::*;
use rand::RngExt as _;

/// Simulations per legal answer (the work cap that binds; the answers of
/// one decision share their samples). 0.5 / sqrt(N) is the standard error
/// of one estimate; differences between answers are sharper (common samples).
pub(in crate::coup) const ROLLOUTS: usize = 160;
/// Turns simulated before a game counts as a draw. The arbiter stops a
/// game after 200 calls (about 70 turns); a draw scores nothing, so it is
/// worth as much to me as a loss.
const MAX_TURNS: u32 = 60;
/// Value of a draw (the benchmark and the contest score only wins).
const DRAW_VALUE: f64 = 0.0;
/// My simulated bluffs of an action: always while the opponent challenges
/// it at most `BLUFF_UNTIL - BLUFF_RAMP` of the time, never from
/// `BLUFF_UNTIL` up, in proportion between. A Tax bluff gains 3 coins or
/// loses a card (worth about a Coup, 7 coins): break-even near a 0.3
/// challenge rate against an Income.
const BLUFF_UNTIL: f64 = 0.3;
/// See [`BLUFF_UNTIL`].
const BLUFF_RAMP: f64 = 0.2;

/// How one seat plays in a simulation. Probabilities are per decision.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(in crate::coup) struct Behaviour {
    /// Challenge of a claimed action `E T S A` (index of
    /// [`crate::coup::opponent::ACTION_KINDS`]) by its own card count
    /// (index 0: one card, 1: two).
    pub chal_act: [[f64; 2]; 4],
    /// Challenge of a block `a c d s` ([`crate::coup::opponent::BLOCK_KINDS`]).
    pub chal_block: [f64; 4],
    /// Block of `F S A` ([`crate::coup::opponent::BLOCKABLE`]) when holding
    /// a card that blocks it.
    pub block_honest: f64,
    /// Block of `F S A` without such a card (a bluff).
    pub block_bluff: [f64; 3],
    /// Claim of each character's action on its own turn without holding it
    /// (by [`Character::index`]; Contessa unused).
    pub act_bluff: [f64; 5],
    /// Whether it uses Foreign Aid, Steal, Assassinate at all (an action its
    /// opponent blocks reliably is a wasted turn).
    pub uses: [bool; 3],
}

/// Keep value of a card when giving one up or exchanging: the card that
/// gains most (Duke's Tax), then the killer and its counter, Captain,
/// Ambassador last (the order of the original field's bots, e.g. Calculator's
/// default).
fn keep_value(c: Character) -> u8 {
    match c {
        Duke => 5,
        Assassin => 4,
        Contessa => 3,
        Captain => 2,
        Ambassador => 1,
    }
}

#[derive(Debug, Clone, Copy)]
struct Hand {
    c: [Character; 2],
    n: usize,
}

impl Hand {
    fn new(cards: &[Character]) -> Hand {
        let mut h = Hand { c: [Duke; 2], n: 0 };
        for &x in cards.iter().take(2) {
            h.push(x);
        }
        h
    }
    fn cards(&self) -> &[Character] {
        &self.c[..self.n]
    }
    fn has(&self, x: Character) -> bool {
        self.cards().contains(&x)
    }
    fn count(&self, x: Character) -> u32 {
        self.cards().iter().filter(|&&c| c == x).count() as u32
    }
    fn push(&mut self, x: Character) {
        if self.n < 2 {
            self.c[self.n] = x;
            self.n += 1;
        }
    }
    fn remove(&mut self, x: Character) {
        if let Some(i) = self.cards().iter().position(|&c| c == x) {
            self.c[i] = self.c[self.n - 1];
            self.n -= 1;
        }
    }
    /// The card it gives up: the one it values least.
    fn worst(&self) -> Option<Character> {
        self.cards().iter().copied().min_by_key(|&c| keep_value(c))
    }
}

/// A splitmix64 stream: small, fast, and reproducible.
#[derive(Debug, Clone)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn unit(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, p: f64) -> bool {
        self.unit() < p
    }
}

/// A decision point of a turn.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Point {
    /// The actor opens its turn.
    Act,
    /// The other seat answers the action.
    Respond(char),
    /// The actor answers a block.
    ChallengeBlock(char),
}

struct Sim<'b> {
    coins: [i64; 2],
    hands: [Hand; 2],
    deck: Vec<Character>,
    dead: [u32; 5],
    beh: [&'b Behaviour; 2],
    /// Seats that play the race calculator's rule ([`Sim::calc_decide`]).
    calc: [bool; 2],
    /// What each seat was seen to use (`USED_*` bits), as the race
    /// calculator tracks its opponent.
    used: [u8; 2],
    rng: Rng,
    /// Answers already given in the current turn (the history's last line
    /// plus the answer under test), consumed before any policy is asked.
    script: Vec<char>,
}

/// `Sim::used` bits: Tax, Steal, Assassinate, Foreign Aid.
const USED_DUKE: u8 = 1;
const USED_CAPTAIN: u8 = 2;
const USED_ASSASSIN: u8 = 4;
const USED_FA: u8 = 8;

impl Sim<'_> {
    /// Whether seat `s` has a plan that wins the coin race by the race
    /// calculator's count (turns to remove the other's cards with Income,
    /// Foreign Aid, Tax, Steal or Assassination against the other's speed:
    /// 3 a turn if it taxes, 2 if it takes Foreign Aid, else 1; its kill
    /// costs 3 if it assassinates and `s` holds no Contessa, else 7).
    fn calc_winning(&self, s: usize) -> bool {
        let o = 1 - s;
        let h = self.hands[s];
        let (c, n) = (self.coins[s], h.n as i64);
        let (oc, k) = (self.coins[o], self.hands[o].n as i64);
        let u = self.used[o];
        let pos = |x: i64| x.max(0);
        let speed = if u & USED_DUKE != 0 {
            3
        } else if u & USED_FA != 0 && !h.has(Duke) {
            2
        } else {
            1
        };
        let kill = if u & USED_ASSASSIN != 0 && !h.has(Contessa) {
            3
        } else {
            7
        };
        let theirs = pos(kill * n - oc + speed - 1) / speed + n;
        let mut mine = pos(7 * k - c) + k;
        if u & USED_DUKE == 0 {
            mine = mine.min(pos(7 * k - c + 1) / 2 + k);
        }
        if h.has(Duke) {
            mine = mine.min(pos(7 * k - c + 2) / 3 + k);
        }
        if h.has(Assassin) {
            mine = mine.min(pos(3 * k - c) + k);
        }
        if h.has(Captain) {
            mine = mine.min(pos(7 * k - c + 1) / 2 + k);
        }
        mine <= theirs
    }

    /// The race calculator's rule (the style of the original contest's
    /// winner, [`crate::coup::replica`]): claims only what it holds unless no
    /// plan wins (then it taxes anyway), blocks only with a held card,
    /// challenges every block, challenges a claimed action only when no plan
    /// of its own wins, gives up a card to an Assassination while it has
    /// two and challenges it with its last.
    fn calc_decide(&mut self, s: usize, p: Point) -> char {
        let o = 1 - s;
        let h = self.hands[s];
        match p {
            Point::Act => {
                let c = self.coins[s];
                if c >= COUP_COST {
                    'C'
                } else if h.has(Assassin) && c >= ASSASSINATE_COST {
                    'A'
                } else if h.has(Duke) {
                    'T'
                } else if h.has(Captain) && self.coins[o] >= 1 {
                    'S'
                } else if !self.calc_winning(s) {
                    'T'
                } else if self.used[o] & USED_DUKE == 0 {
                    'F'
                } else {
                    'I'
                }
            }
            Point::Respond(x) => match x {
                'F' => {
                    if h.has(Duke) {
                        'd'
                    } else {
                        'p'
                    }
                }
                'S' if h.has(Ambassador) => 'a',
                'S' if h.has(Captain) => 'c',
                'A' if h.has(Contessa) => 's',
                _ if s == 0 && self.known_bluffer(x, h.n) => 'q',
                'A' if h.n >= 2 => 'g',
                'A' => 'q',
                _ => {
                    if self.calc_winning(s) {
                        'p'
                    } else {
                        'q'
                    }
                }
            },
            Point::ChallengeBlock(x) => {
                if s == 0 {
                    let k = crate::coup::opponent::BLOCK_KINDS.find(x).unwrap_or(0);
                    if self.rng.chance(self.beh[0].chal_block[k]) {
                        'q'
                    } else {
                        '\n'
                    }
                } else {
                    'q'
                }
            }
        }
    }

    /// My model says the opponent's claim of action `x` is more likely a
    /// bluff than not ([`Ctx::my_behaviour`]'s challenge rule), with `n`
    /// cards of mine.
    fn known_bluffer(&self, x: char, n: usize) -> bool {
        crate::coup::opponent::ACTION_KINDS
            .find(x)
            .is_some_and(|k| self.beh[0].chal_act[k][(n >= 2) as usize] >= 0.5)
    }

    fn alive(&self, s: usize) -> bool {
        self.hands[s].n > 0
    }

    fn lose(&mut self, s: usize) {
        if let Some(c) = self.hands[s].worst() {
            self.hands[s].remove(c);
            self.dead[c.index()] += 1;
        }
    }

    fn kill(&mut self, s: usize) {
        while self.alive(s) {
            self.lose(s);
        }
    }

    /// A proved card goes back to the deck and a new one is drawn.
    fn replace(&mut self, s: usize, c: Character) {
        self.hands[s].remove(c);
        if !self.deck.is_empty() {
            let i = self.rng.below(self.deck.len());
            let new = self.deck.swap_remove(i);
            self.hands[s].push(new);
        }
        self.deck.push(c);
    }

    /// The claim of `c` is provably false from seat `s`'s view.
    fn impossible(&self, s: usize, c: Character) -> bool {
        self.hands[s].count(c) + self.dead[c.index()] >= 3
    }

    fn decide(&mut self, s: usize, p: Point) -> char {
        if !self.script.is_empty() {
            return self.script.remove(0);
        }
        if self.calc[s] {
            return self.calc_decide(s, p);
        }
        let b = self.beh[s];
        let o = 1 - s;
        let h = self.hands[s];
        let two = (h.n >= 2) as usize;
        match p {
            Point::Act => {
                let c = self.coins[s];
                if c >= COUP_COST {
                    return 'C';
                }
                let r = &mut self.rng;
                if c >= ASSASSINATE_COST
                    && b.uses[2]
                    && (h.has(Assassin) || r.chance(b.act_bluff[Assassin.index()]))
                {
                    return 'A';
                }
                if h.has(Duke) || r.chance(b.act_bluff[Duke.index()]) {
                    return 'T';
                }
                if self.coins[o] >= 1
                    && b.uses[1]
                    && (h.has(Captain) || r.chance(b.act_bluff[Captain.index()]))
                {
                    return 'S';
                }
                if h.has(Ambassador) && r.chance(0.5) {
                    return 'E';
                }
                if b.uses[0] {
                    'F'
                } else {
                    'I'
                }
            }
            Point::Respond(x) => {
                let claim = Character::claimed_by(x);
                if let Some(c) = claim {
                    if self.impossible(s, c) {
                        return 'q';
                    }
                }
                let kind = crate::coup::opponent::ACTION_KINDS.find(x);
                let chal = kind.map_or(0.0, |k| b.chal_act[k][two]);
                let r = &mut self.rng;
                match x {
                    'F' => {
                        let bl = if h.has(Duke) {
                            b.block_honest
                        } else {
                            b.block_bluff[0]
                        };
                        if r.chance(bl) {
                            'd'
                        } else {
                            'p'
                        }
                    }
                    'S' => {
                        if h.has(Captain) && r.chance(b.block_honest) {
                            'c'
                        } else if h.has(Ambassador) && r.chance(b.block_honest) {
                            'a'
                        } else if r.chance(chal) {
                            'q'
                        } else if r.chance(b.block_bluff[1]) {
                            'c'
                        } else {
                            'p'
                        }
                    }
                    'A' => {
                        if h.has(Contessa) && r.chance(b.block_honest) {
                            's'
                        } else if r.chance(chal) {
                            'q'
                        } else if h.n < 2 || r.chance(b.block_bluff[2]) {
                            // Giving up the last card loses for sure.
                            's'
                        } else {
                            'g'
                        }
                    }
                    _ => {
                        if r.chance(chal) {
                            'q'
                        } else {
                            'p'
                        }
                    }
                }
            }
            Point::ChallengeBlock(x) => {
                if let Some(c) = Character::claimed_by(x) {
                    if self.impossible(s, c) {
                        return 'q';
                    }
                }
                let k = crate::coup::opponent::BLOCK_KINDS.find(x).unwrap_or(0);
                if self.rng.chance(b.chal_block[k]) {
                    'q'
                } else {
                    '\n'
                }
            }
        }
    }

    fn exchange(&mut self, s: usize) {
        let mut pool: Vec<Character> = self.hands[s].cards().to_vec();
        for _ in 0..2 {
            if !self.deck.is_empty() {
                let i = self.rng.below(self.deck.len());
                pool.push(self.deck.swap_remove(i));
            }
        }
        let n = self.hands[s].n;
        let mut kept = Hand::new(&[]);
        for _ in 0..n {
            let best = pool
                .iter()
                .enumerate()
                .max_by_key(|(_, &c)| keep_value(c) as i32 - 10 * kept.has(c) as i32)
                .map(|(i, _)| i);
            if let Some(i) = best {
                kept.push(pool.swap_remove(i));
            }
        }
        self.hands[s] = kept;
        self.deck.extend(pool);
    }

    fn effect(&mut self, a: usize, x: char) {
        let o = 1 - a;
        match x {
            'T' => self.coins[a] += 3,
            'S' => {
                let n = effects(Action::Steal, self.coins[o]).0;
                self.coins[a] += n;
                self.coins[o] -= n;
            }
            'E' => self.exchange(a),
            _ => {}
        }
    }

    /// Plays one turn of seat `a`.
    fn turn(&mut self, a: usize) {
        let o = 1 - a;
        let act = self.decide(a, Point::Act);
        self.used[a] |= match act {
            'T' => USED_DUKE,
            'S' => USED_CAPTAIN,
            'A' => USED_ASSASSIN,
            'F' => USED_FA,
            _ => 0,
        };
        if act == 'I' {
            self.used[a] &= USED_ASSASSIN;
        }
        match act {
            'C' => {
                self.coins[a] -= COUP_COST;
                self.lose(o);
            }
            'F' => {
                if self.decide(o, Point::Respond('F')) == 'd' {
                    if self.decide(a, Point::ChallengeBlock('d')) == 'q' {
                        if self.hands[o].has(Duke) {
                            self.replace(o, Duke);
                            self.lose(a);
                        } else {
                            self.lose(o);
                            self.coins[a] += 2;
                        }
                    }
                } else {
                    self.coins[a] += 2;
                }
            }
            'T' | 'E' | 'S' | 'A' => {
                let claim = Character::claimed_by(act).unwrap_or(Duke);
                let r = self.decide(o, Point::Respond(act));
                if r == 'q' {
                    if self.hands[a].has(claim) {
                        if act != 'E' {
                            self.replace(a, claim);
                        }
                        if act == 'A' {
                            self.coins[a] -= ASSASSINATE_COST;
                            self.kill(o);
                            return;
                        }
                        self.lose(o);
                        if self.alive(o) || act == 'T' || act == 'E' {
                            self.effect(a, act);
                        }
                    } else {
                        self.lose(a);
                    }
                    return;
                }
                match r {
                    'c' | 'a' | 's' => {
                        let block = Character::claimed_by(r).unwrap_or(Contessa);
                        if self.decide(a, Point::ChallengeBlock(r)) == 'q' {
                            if self.hands[o].has(block) {
                                self.replace(o, block);
                                self.lose(a);
                                if act == 'A' {
                                    self.coins[a] -= ASSASSINATE_COST;
                                }
                            } else if act == 'A' {
                                self.coins[a] -= ASSASSINATE_COST;
                                self.kill(o);
                            } else {
                                self.lose(o);
                                self.effect(a, act);
                            }
                        } else if act == 'A' {
                            self.coins[a] -= ASSASSINATE_COST;
                        }
                    }
                    _ if act == 'A' => {
                        self.coins[a] -= ASSASSINATE_COST;
                        self.lose(o);
                    }
                    _ => self.effect(a, act),
                }
            }
            _ => self.coins[a] += 1,
        }
    }

    /// Plays from seat `first`'s turn to the end: 1 if seat 0 wins.
    fn play(&mut self, first: usize) -> f64 {
        let mut s = first;
        for _ in 0..MAX_TURNS {
            self.turn(s);
            if !self.alive(1) {
                return 1.0;
            }
            if !self.alive(0) {
                return 0.0;
            }
            s = 1 - s;
        }
        DRAW_VALUE
    }
}

/// The answer `a` as a scripted decision: `I\n` is `I`, a given-up card
/// (answering an Assassination) is `g`.
fn script_char(a: &str) -> char {
    let c = a.chars().next().unwrap_or('\n');
    if Character::from_held(c).is_some() {
        'g'
    } else {
        c
    }
}

impl Ctx<'_> {
    /// The opponent's behaviour for the simulations, from its learned model.
    pub(in crate::coup) fn opp_behaviour(&self) -> Behaviour {
        let m = &self.model;
        let mut chal_act = [[0.0; 2]; 4];
        for (k, a) in crate::coup::opponent::ACTION_KINDS.chars().enumerate() {
            for (n, e) in chal_act[k].iter_mut().enumerate() {
                *e = m.identified_challenge_action(a, n + 1);
            }
        }
        let mut chal_block = [0.0; 4];
        for (k, b) in crate::coup::opponent::BLOCK_KINDS.chars().enumerate() {
            chal_block[k] = m.identified_challenge_block(b);
        }
        let act_bluff = self.opp_act_bluff();
        Behaviour {
            chal_act,
            chal_block,
            block_honest: STRONG_BLOCK_HONEST,
            block_bluff: self.opp_block_bluff(),
            act_bluff,
            uses: [true; 3],
        }
    }

    /// The opponent's rate of claiming each character's action on its turn
    /// without the card: Beta(0.2, 1.8) (mean 0.1) updated by the claims its
    /// hand does not explain — of its turns, a share [`PRIOR_HOLD`] holds
    /// the card; claims beyond that are counted as bluffs, the other turns
    /// as chances to bluff — and its claims caught as bluffs; at least the
    /// likelihood ratio learned from its challenged claims
    /// ([`crate::coup::opponent::Model::action_bluff_ratio`]) when those
    /// were tested.
    pub(in crate::coup) fn opp_act_bluff(&self) -> [f64; 5] {
        let r = &self.h.opp;
        let turns = r.turns as f64;
        let mut out = [0.0; 5];
        for c in Character::ALL {
            let i = c.index();
            let ph = PRIOR_HOLD[i];
            let [t, caught] = self.model.stats.action_caught[i];
            let x = (r.claims[i] as f64 - turns * ph).max(0.0) + caught as f64;
            let m = turns * (1.0 - ph) + t as f64;
            let freq = (0.2 + x) / (2.0 + m.max(x));
            let tested = if t > 0 {
                self.model.action_bluff_ratio(c)
            } else {
                0.0
            };
            out[i] = freq.max(tested).min(1.0);
        }
        out[Contessa.index()] = 0.0;
        out
    }

    /// Likelihood ratios P(claim | lacks) / P(claim | holds) of its claims
    /// for drawing its hand, consistent with its simulated behaviour `opp`:
    /// per character the larger of its action-bluff rate and its block-bluff
    /// rate over its honest block rate (Duke blocks Foreign Aid, Captain and
    /// Ambassador block Steal, Contessa blocks Assassination); a character
    /// whose claims were tested at least [`MODEL_MIN_TESTS`] times keeps the
    /// learned ratio of [`Ctx::claim_ratios`].
    fn sample_ratios(&self, opp: &Behaviour) -> [f64; 5] {
        let learned = self.claim_ratios();
        let s = &self.model.stats;
        let mut out = [0.0; 5];
        for c in Character::ALL {
            let i = c.index();
            if s.block_caught[i][0] + s.action_caught[i][0] >= MODEL_MIN_TESTS {
                out[i] = learned[i];
                continue;
            }
            let k = match c {
                Duke => 0,
                Contessa => 2,
                Assassin => {
                    out[i] = opp.act_bluff[i].clamp(0.02, 1.0);
                    continue;
                }
                _ => 1,
            };
            let blocks = opp.block_bluff[k] / opp.block_honest.max(1e-9);
            out[i] = opp.act_bluff[i].max(blocks).clamp(0.02, 1.0);
        }
        out
    }

    /// The opponent's rate of blocking `F S A` without a blocking card:
    /// Beta(0.5, 4.5) (mean 0.1, [`STRONG_BLOCK_BLUFF`]'s order) updated by
    /// the blocks it made beyond what its hand explains (each of my
    /// blockable actions it answered: the hand model's probability of a
    /// blocking card times [`STRONG_BLOCK_HONEST`] is the honest share) and
    /// its blocks caught as bluffs.
    pub(in crate::coup) fn opp_block_bluff(&self) -> [f64; 3] {
        let s = &self.model.stats;
        let blockers: [&[Character]; 3] = [&[Duke], &[Captain, Ambassador], &[Contessa]];
        let mut out = [0.0; 3];
        for k in 0..3 {
            let none: f64 = blockers[k]
                .iter()
                .map(|c| 1.0 - PRIOR_HOLD[c.index()])
                .product();
            let p_h = 1.0 - none;
            let [n, b] = s.blocked[k];
            let mut x = (b as f64 - n as f64 * p_h * STRONG_BLOCK_HONEST).max(0.0);
            let mut m = n as f64 * (1.0 - p_h);
            for c in blockers[k] {
                let [t, caught] = s.block_caught[c.index()];
                x += caught as f64;
                m += t as f64;
            }
            out[k] = ((0.5 + x) / (5.0 + m.max(x))).min(1.0);
        }
        out
    }

    /// My behaviour for the simulations: an answer to the opponent's model.
    /// I challenge a claim (a block) when the model makes it a bluff more
    /// likely than not (an Assassination with two cards, where a failed
    /// challenge loses both, only at two to one); I bluff an action it
    /// rarely challenges ([`STRONG_BLUFF_TAX`]); I avoid an action it
    /// blocks more often than not.
    pub(in crate::coup) fn my_behaviour(&self, opp: &Behaviour) -> Behaviour {
        let m = &self.model;
        let p_bluff = |ratio: f64, ph: f64| {
            let r = ratio * (1.0 - ph);
            r / (r + ph).max(1e-9)
        };
        let mut chal_act = [[0.0; 2]; 4];
        for (k, a) in crate::coup::opponent::ACTION_KINDS.chars().enumerate() {
            let c = Character::claimed_by(a).unwrap_or(Duke);
            let ratio = m.action_bluff_ratio(c).max(opp.act_bluff[c.index()]);
            let pb = p_bluff(ratio, PRIOR_HOLD[c.index()]);
            chal_act[k][0] = (pb > 0.5) as u8 as f64;
            let need = if a == 'A' { 2.0 / 3.0 } else { 0.5 };
            chal_act[k][1] = (pb > need) as u8 as f64;
        }
        let mut chal_block = [0.0; 4];
        for (k, b) in crate::coup::opponent::BLOCK_KINDS.chars().enumerate() {
            let c = Character::claimed_by(b).unwrap_or(Duke);
            let j = match b {
                'd' => 0,
                's' => 2,
                _ => 1,
            };
            let ph = PRIOR_HOLD[c.index()];
            let bl = opp.block_bluff[j] * (1.0 - ph);
            let pb = bl / (bl + opp.block_honest * ph).max(1e-9);
            chal_block[k] = (pb > 0.5) as u8 as f64;
        }
        let mut act_bluff = [0.0; 5];
        for (c, a) in [(Duke, 'T'), (Captain, 'S'), (Assassin, 'A')] {
            let rate = m.identified_challenge_action(a, self.ok.max(1));
            act_bluff[c.index()] = ((BLUFF_UNTIL - rate) / BLUFF_RAMP).clamp(0.0, 1.0);
        }
        let blocks = |k: usize, chars: &[Character]| {
            let none: f64 = chars.iter().map(|c| 1.0 - self.p_opp[c.index()]).product();
            (1.0 - none) * opp.block_honest + none * opp.block_bluff[k]
        };
        Behaviour {
            chal_act,
            chal_block,
            block_honest: 1.0,
            block_bluff: [0.0; 3],
            act_bluff,
            // Foreign Aid (+2) beats Income (+1) while blocked less than half
            // the time; a Steal moves 4 coins of difference, so a quarter
            // getting through is enough; an Assassination costs 3 coins and
            // a turn, worth it while blocked less than 60%.
            uses: [
                blocks(0, &[Duke]) < 0.5,
                blocks(1, &[Captain, Ambassador]) < 0.75,
                blocks(2, &[Contessa]) < 0.6,
            ],
        }
    }

    /// What each seat used, as the race calculator tracks it: Tax, Steal,
    /// Assassinate, Foreign Aid since its last Income (Assassinate for good).
    fn used_flags(&self) -> [u8; 2] {
        let mut used = [0u8; 2];
        for t in &self.h.turns {
            let s = (t.actor != crate::coup::history::Side::Me) as usize;
            match t.text.chars().next() {
                Some('T') => used[s] |= USED_DUKE,
                Some('S') => used[s] |= USED_CAPTAIN,
                Some('A') => used[s] |= USED_ASSASSIN,
                Some('F') => used[s] |= USED_FA,
                Some('I') => used[s] &= USED_ASSASSIN,
                _ => {}
            }
        }
        used
    }

    /// Posterior probability that the opponent plays the race calculator's
    /// rule ([`Sim::calc_decide`]) rather than the rate model: prior
    /// [`CALC_PRIOR`], then the answers that tell them apart without knowing
    /// its hand. The rule challenges every block (each of my blocks it
    /// challenged counts [`CALC_FIT`] to one for it; one it let stand
    /// counts [`CALC_MISFIT`]); it never blocks without the card, never
    /// challenges an Assassination with two cards nor gives up its last
    /// card to one ([`CALC_MISFIT`] each).
    pub(in crate::coup) fn calc_weight(&self) -> f64 {
        use crate::coup::history::Side;
        // This game's answers and memory's, from the model's counts.
        let st = &self.model.stats;
        let mut log_odds = (CALC_PRIOR / (1.0 - CALC_PRIOR)).ln();
        let blocks = crate::coup::opponent::pooled(&st.block_challenged);
        log_odds += blocks[1] as f64 * CALC_FIT.ln();
        log_odds += (blocks[0] - blocks[1]) as f64 * CALC_MISFIT.ln();
        let caught: u32 = st.block_caught.iter().map(|e| e[1]).sum();
        log_odds += caught as f64 * CALC_MISFIT.ln();
        let a2 = st.challenged[3][1][1];
        log_odds += a2 as f64 * CALC_MISFIT.ln();
        // Its last card given up to my Assassination (this game only).
        let states = self.h.replay();
        for (i, t) in self.h.turns.iter().enumerate() {
            let c: Vec<char> = t.text.chars().collect();
            let opp_cards = states.get(i).map_or(2, |st| st.1[1]);
            if t.actor == Side::Me
                && c.first() == Some(&'A')
                && c.get(1).is_some_and(|&y| Character::from_held(y).is_some())
                && opp_cards == 1
            {
                log_odds += CALC_MISFIT.ln();
            }
        }
        let odds = log_odds.clamp(-30.0, 30.0).exp();
        odds / (1.0 + odds)
    }

    /// The answer among the legal ones that wins most simulations, with the
    /// estimated win probabilities of all candidates; `None` when the
    /// position is not one the simulation starts from (a card to give up).
    pub(in crate::coup) fn rollout_choice(&mut self) -> Option<(String, Vec<(String, f64)>)> {
        // Where the turn stands: the actor and the answers given so far.
        // My action, or my answer to its action or to its block.
        let line = &self.line;
        let (first, prefix): (usize, Vec<char>) = match line.len() {
            0 => (0, vec![]),
            1 if "FTESA".contains(line[0]) => (1, line.clone()),
            2 if "FSA".contains(line[0]) && "acds".contains(line[1]) => (0, line.clone()),
            _ => return None,
        };
        let mut cands: Vec<String> = Vec::new();
        for a in self.legal.iter() {
            let c = script_char(a);
            let a = if c == 'g' { self.give_up() } else { a.clone() };
            if !cands.contains(&a) {
                cands.push(a);
            }
        }
        if cands.len() <= 1 {
            return None;
        }
        let opp = self.opp_behaviour();
        let me = self.my_behaviour(&opp);
        let ratios = self.sample_ratios(&opp);
        let hands =
            crate::coup::model::hand_distribution(&self.h.opp, &self.unseen, self.ok, ratios, true);
        let total: f64 = hands.iter().map(|h| h.1).sum();
        if total <= 0.0 {
            return None;
        }
        let mut dead = [0u32; 5];
        for c in self.h.me.lost.iter().chain(&self.h.opp.lost) {
            dead[c.index()] += 1;
        }
        let my_hand = Hand::new(&self.hand);
        let w_calc = self.calc_weight();
        let used = self.used_flags();
        let mut rng = Rng(self.rng.random::<u64>());
        let mut sums = vec![0.0; cands.len()];
        for _ in 0..ROLLOUTS {
            // One determinization: the opponent's hand, the deck, the seed.
            let mut t = rng.unit() * total;
            let mut pick = &hands[0].0;
            for (h, w) in &hands {
                pick = h;
                if t < *w {
                    break;
                }
                t -= w;
            }
            let mut deck = Vec::with_capacity(15);
            for c in Character::ALL {
                let n = self.unseen[c.index()] - pick.iter().filter(|&&x| x == c).count() as u32;
                deck.extend(std::iter::repeat_n(c, n as usize));
            }
            let seed = rng.next();
            let calc_draw = rng.unit();
            for (i, a) in cands.iter().enumerate() {
                let mut script = prefix.clone();
                script.push(script_char(a));
                let mut sim = Sim {
                    coins: [self.mc, self.oc],
                    hands: [my_hand, Hand::new(pick)],
                    deck: deck.clone(),
                    dead,
                    beh: [&me, &opp],
                    // My seat plays the race calculator's rule, answering
                    // blocks by my model of the opponent.
                    calc: [true, calc_draw < w_calc],
                    used,
                    rng: Rng(seed),
                    script,
                };
                sums[i] += sim.play(first);
            }
        }
        let vals: Vec<(String, f64)> = cands
            .into_iter()
            .zip(sums)
            .map(|(a, s)| (a, s / ROLLOUTS as f64))
            .collect();
        let best = vals
            .iter()
            .fold(None::<&(String, f64)>, |b, x| match b {
                Some(bx) if bx.1 >= x.1 => Some(bx),
                _ => Some(x),
            })
            .map(|x| x.0.clone())?;
        if std::env::var_os("COUP_DEBUG").is_some() {
            eprintln!("rollout {:?} me {:?}\nopp {:?}", vals, me, opp);
        }
        Some((best, vals))
    }
}

/// Prior probability that the opponent follows the race calculator's rule:
/// the public contest winner's style, one known entry among many.
const CALC_PRIOR: f64 = 0.3;
/// Likelihood ratio (rule : rate model) of a challenge of my block: the
/// rule always challenges, the rate model about 0.4 of the time
/// ([`crate::coup::opponent::BLOCK_POLICY_PRIOR`] mixture before evidence).
const CALC_FIT: f64 = 2.5;
/// Likelihood ratio of an answer the rule never gives (it may still come
/// from a stray character of the original program or a variant of it).
const CALC_MISFIT: f64 = 0.02;

/// Probability that a given character is among two cards drawn from the
/// full deck ([`crate::coup::opponent::P_HOLD_TWO`]), per character: the
/// hold rate an observer assumes before any evidence.
const PRIOR_HOLD: [f64; 5] = [crate::coup::opponent::P_HOLD_TWO; 5];
