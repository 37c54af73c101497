//! The arbiter's protocol as types: the seven actions, the replies
//! (challenge, block, pass, reveal, give up a card, end the turn), parsing from
//! and formatting to the arbiter's one-character codes (`docs/rules/coup.md`
//! §2.1 actions, §5.2 answers, §3 card characters), and the coin effects of a turn,
//! written once here for the rules, the history reader, the model and the bots.

use std::fmt;

use super::character::Character;

/// The character that closes a turn's line of the history file
/// (`docs/rules/coup.md` §5.1: a new turn starts after it).
pub const LINE_END: char = '\n';
/// Coins a Coup costs (`docs/rules/coup.md` §2.1: Coup, 7 coins).
pub const COUP_COST: i64 = 7;
/// Coins an Assassination costs (`docs/rules/coup.md` §2.1: Assassinate, 3 coins).
pub const ASSASSINATE_COST: i64 = 3;
/// The kinds of claim a player can challenge: the actions Exchange, Tax,
/// Steal, Assassinate and the blocks as Ambassador, Captain, Duke, Contessa
/// (`docs/rules/coup.md` §5).
pub const CLAIM_KINDS: [Reply; 8] = [
    Reply::Act(Action::Exchange),
    Reply::Act(Action::Tax),
    Reply::Act(Action::Steal),
    Reply::Act(Action::Assassinate),
    Reply::Block(Block::Ambassador),
    Reply::Block(Block::Captain),
    Reply::Block(Block::Duke),
    Reply::Block(Block::Contessa),
];

/// An action that opens a turn (`docs/rules/coup.md` §2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Action {
    /// `I`, +1 coin; its answer is `"I\n"` (it ends the turn at once).
    Income,
    /// `F`, +2 coins; blocked by a Duke.
    ForeignAid,
    /// `C`, 7 coins: the opponent gives up a card.
    Coup,
    /// `E`, claims Ambassador: draw two, keep as many as held.
    Exchange,
    /// `A`, claims Assassin, 3 coins: the opponent gives up a card; blocked by a Contessa.
    Assassinate,
    /// `S`, claims Captain: take 2 coins (1 when the opponent has 1); blocked by
    /// a Captain or an Ambassador.
    Steal,
    /// `T`, claims Duke, +3 coins.
    Tax,
}

impl Action {
    /// All seven actions, in the arbiter's offering order after Income.
    pub const ALL: [Action; 7] = [
        Action::Income,
        Action::ForeignAid,
        Action::Exchange,
        Action::Tax,
        Action::Assassinate,
        Action::Coup,
        Action::Steal,
    ];

    /// The one-character code: `I F C E A S T`.
    pub fn code(self) -> char {
        match self {
            Action::Income => 'I',
            Action::ForeignAid => 'F',
            Action::Coup => 'C',
            Action::Exchange => 'E',
            Action::Assassinate => 'A',
            Action::Steal => 'S',
            Action::Tax => 'T',
        }
    }

    /// Parses a code (`I F C E A S T`).
    pub fn from_code(c: char) -> Option<Action> {
        Action::ALL.into_iter().find(|a| a.code() == c)
    }

    /// The character the action claims (the arbiter's `actions_dict`), if any.
    pub fn claim(self) -> Option<Character> {
        match self {
            Action::Exchange => Some(Character::Ambassador),
            Action::Assassinate => Some(Character::Assassin),
            Action::Steal => Some(Character::Captain),
            Action::Tax => Some(Character::Duke),
            Action::Income | Action::ForeignAid | Action::Coup => None,
        }
    }

    /// The characters whose block stops the action (`docs/rules/coup.md`
    /// §2.1: a Duke stops Foreign Aid, a Captain or an Ambassador a Steal, a
    /// Contessa an Assassination).
    pub fn blocked_by(self) -> &'static [Character] {
        match self {
            Action::ForeignAid => &[Character::Duke],
            Action::Steal => &[Character::Ambassador, Character::Captain],
            Action::Assassinate => &[Character::Contessa],
            _ => &[],
        }
    }

    /// Coins the action costs its player: [`COUP_COST`], [`ASSASSINATE_COST`], else 0.
    pub fn cost(self) -> i64 {
        match self {
            Action::Coup => COUP_COST,
            Action::Assassinate => ASSASSINATE_COST,
            _ => 0,
        }
    }
}

/// A block: the character claimed to stop an action (`docs/rules/coup.md` §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Block {
    /// `d`: a Duke blocks Foreign Aid.
    Duke,
    /// `s`: a Contessa blocks an Assassination.
    Contessa,
    /// `c`: a Captain blocks a Steal.
    Captain,
    /// `a`: an Ambassador blocks a Steal.
    Ambassador,
}

impl Block {
    /// All four blocks.
    pub const ALL: [Block; 4] = [
        Block::Duke,
        Block::Contessa,
        Block::Captain,
        Block::Ambassador,
    ];

    /// The one-character code: `d s c a`.
    pub fn code(self) -> char {
        match self {
            Block::Duke => 'd',
            Block::Contessa => 's',
            Block::Captain => 'c',
            Block::Ambassador => 'a',
        }
    }

    /// Parses a code (`d s c a`).
    pub fn from_code(c: char) -> Option<Block> {
        Block::ALL.into_iter().find(|b| b.code() == c)
    }

    /// The character the block claims.
    pub fn character(self) -> Character {
        match self {
            Block::Duke => Character::Duke,
            Block::Contessa => Character::Contessa,
            Block::Captain => Character::Captain,
            Block::Ambassador => Character::Ambassador,
        }
    }
}

/// One answer a bot appends to the history file (`docs/rules/coup.md` §5.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Reply {
    /// An action opening the turn (Income is written `"I\n"`).
    Act(Action),
    /// `p`: let the action (or block) stand.
    Pass,
    /// `q`: challenge the last claim.
    Challenge,
    /// `d s c a`: block.
    Block(Block),
    /// `~ ^ * ! $`: reveal the challenged character (proof; it is replaced).
    Reveal(Character),
    /// `_ ' < = 0`: give up a card (to a Coup, an Assassination or a lost challenge).
    GiveUp(Character),
    /// A given-up card followed by `'\n'`: the loss that also ends the turn.
    GiveUpEnd(Character),
    /// `'\n'`: end the turn (accept a block, or nothing left to answer).
    EndTurn,
}

impl Reply {
    /// Parses one whole answer as the arbiter lists it (`"I\n"`, `"q"`, `"0\n"` ...).
    pub fn parse(text: &str) -> Option<Reply> {
        let mut it = text.chars();
        let (a, b, rest) = (it.next()?, it.next(), it.next());
        if rest.is_some() {
            return None;
        }
        match (a, b) {
            ('I', Some(LINE_END)) => Some(Reply::Act(Action::Income)),
            (LINE_END, None) => Some(Reply::EndTurn),
            ('p', None) => Some(Reply::Pass),
            ('q', None) => Some(Reply::Challenge),
            (c, Some(LINE_END)) => Character::from_held(c).map(Reply::GiveUpEnd),
            (c, None) => Action::from_code(c)
                .filter(|a| *a != Action::Income)
                .map(Reply::Act)
                .or_else(|| Block::from_code(c).map(Reply::Block))
                .or_else(|| Character::from_revealed(c).map(Reply::Reveal))
                .or_else(|| Character::from_held(c).map(Reply::GiveUp)),
            _ => None,
        }
    }

    /// The answer's text, as appended to the history file.
    pub fn text(self) -> String {
        self.to_string()
    }

    /// The answer's characters as appended to the history file, without
    /// allocating: its code, then [`LINE_END`] where the answer also closes
    /// the line (Income, a given-up card that ends the turn; the end of the
    /// turn is that character alone).
    pub fn codes(self) -> (char, Option<char>) {
        match self {
            Reply::Act(Action::Income) => (Action::Income.code(), Some(LINE_END)),
            Reply::Act(a) => (a.code(), None),
            Reply::Pass => ('p', None),
            Reply::Challenge => ('q', None),
            Reply::Block(b) => (b.code(), None),
            Reply::Reveal(c) => (c.revealed(), None),
            Reply::GiveUp(c) => (c.held(), None),
            Reply::GiveUpEnd(c) => (c.held(), Some(LINE_END)),
            Reply::EndTurn => (LINE_END, None),
        }
    }

    /// One event of a history line from its character (`docs/rules/coup.md`
    /// §5): an action (Income included: the newline after it belongs to the
    /// line, not to the event), a pass, a challenge, a block, a revealed or
    /// a given-up card. The codes are disjoint, so an event reads the same
    /// at every place of a line. `None` for the newline and for any other
    /// character.
    pub fn from_code(c: char) -> Option<Reply> {
        match c {
            'p' => Some(Reply::Pass),
            'q' => Some(Reply::Challenge),
            _ => Action::from_code(c)
                .map(Reply::Act)
                .or_else(|| Block::from_code(c).map(Reply::Block))
                .or_else(|| Character::from_revealed(c).map(Reply::Reveal))
                .or_else(|| Character::from_held(c).map(Reply::GiveUp)),
        }
    }

    /// The character an action or a block claims (the arbiter's
    /// `actions_dict`, [`Action::claim`], [`Block::character`]); `None` for
    /// every other reply.
    pub fn claim(self) -> Option<Character> {
        match self {
            Reply::Act(a) => a.claim(),
            Reply::Block(b) => Some(b.character()),
            _ => None,
        }
    }

    /// The card given up, with or without the turn's end.
    pub fn given_up(self) -> Option<Character> {
        match self {
            Reply::GiveUp(c) | Reply::GiveUpEnd(c) => Some(c),
            _ => None,
        }
    }

    /// The card revealed to prove a claim.
    pub fn revealed(self) -> Option<Character> {
        match self {
            Reply::Reveal(c) => Some(c),
            _ => None,
        }
    }
}

/// The events of one history line, its closing newline left out
/// ([`Reply::from_code`] for each character).
///
/// # Errors
/// The first character that is no event of the protocol.
pub fn line_events(line: &str) -> Result<Vec<Reply>, char> {
    line.chars().map(|c| Reply::from_code(c).ok_or(c)).collect()
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (code, end) = self.codes();
        write!(f, "{code}")?;
        match end {
            Some(e) => write!(f, "{e}"),
            None => Ok(()),
        }
    }
}

/// The arbiter's `exchange_cards` condition on a turn's line so far, read
/// from its first event, its number of events and its last event: an
/// Exchange with an even number of events ending in a pass or a given-up
/// card (unchallenged, or its Ambassador proved and the challenger's card
/// given up). The next call then redraws the hand (`docs/rules/coup.md`
/// §5.2). The engine asks it of the line being played, the history reader
/// of every finished turn.
pub fn exchange_completes(first: Option<Reply>, len: usize, last: Option<Reply>) -> bool {
    first == Some(Reply::Act(Action::Exchange))
        && len >= 2
        && len.is_multiple_of(2)
        && matches!(last, Some(Reply::Pass | Reply::GiveUp(_)))
}

/// Whether the card just given up at the end of `line` (the turn's line so
/// far, the given-up card last) costs its owner the second card too: an
/// Assassination whose challenge failed (`Aq^'`) or whose Contessa block
/// was caught as a bluff (`Asq=`) (`docs/rules/coup.md` §2.2, rule 4).
pub fn costs_both_cards(line: &[char]) -> bool {
    let mut events = [Reply::Pass; 4];
    line.len() == 4
        && line
            .iter()
            .zip(events.iter_mut())
            .all(|(&c, e)| Reply::from_code(c).map(|r| *e = r).is_some())
        && events_cost_both_cards(&events)
}

/// [`costs_both_cards`] for a line read as events ([`line_events`]).
pub fn events_cost_both_cards(events: &[Reply]) -> bool {
    matches!(
        events,
        [
            Reply::Act(Action::Assassinate),
            Reply::Challenge | Reply::Block(Block::Contessa),
            _,
            Reply::GiveUp(_)
        ]
    )
}

/// Coins moved when an action succeeds (unblocked, and not lost to a
/// challenge): `(gained by its player, lost by the opponent)`, given the
/// opponent's coins before the turn. The arbiter's `determine_turn_effects`:
/// Income +1, Foreign Aid +2, Tax +3, Steal 2 (1 when the opponent has exactly
/// 1 coin; the arbiter does not clamp at 0). Exchange, Coup and Assassinate
/// move no coins here; their costs are [`Action::cost`].
pub fn effects(action: Action, opp_coins: i64) -> (i64, i64) {
    match action {
        Action::Income => (1, 0),
        Action::ForeignAid => (2, 0),
        Action::Tax => (3, 0),
        Action::Steal => {
            let n = if opp_coins == 1 { 1 } else { 2 };
            (n, n)
        }
        Action::Exchange | Action::Coup | Action::Assassinate => (0, 0),
    }
}

/// Characters read from the claims of actions and blocks (kept here, beside the
/// codes, so that `character` needs nothing of the protocol).
impl Character {
    /// The character an action or block claims (the arbiter's `actions_dict`):
    /// `E`/`a` Ambassador, `A` Assassin, `S`/`c` Captain, `s` Contessa, `T`/`d` Duke.
    /// The codes are those of [`Action`] and [`Block`].
    pub fn claimed_by(c: char) -> Option<Character> {
        Action::from_code(c)
            .and_then(Action::claim)
            .or_else(|| Block::from_code(c).map(Block::character))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_answer_round_trips() {
        let mut all = Vec::new();
        all.extend(Action::ALL.map(Reply::Act));
        all.extend([Reply::Pass, Reply::Challenge, Reply::EndTurn]);
        all.extend(Block::ALL.map(Reply::Block));
        for c in Character::ALL {
            all.extend([Reply::Reveal(c), Reply::GiveUp(c), Reply::GiveUpEnd(c)]);
        }
        for r in all {
            assert_eq!(Reply::parse(&r.text()), Some(r), "{r:?}");
        }
        assert_eq!(Reply::Act(Action::Income).text(), "I\n");
        assert_eq!(Reply::GiveUpEnd(Character::Duke).text(), "0\n");
        assert_eq!(Reply::parse("I"), None);
        assert_eq!(Reply::parse("pq"), None);
    }

    #[test]
    fn an_exchange_completes_after_a_pass_or_a_failed_challenge() {
        // docs/rules/coup.md §5.2: `Ep` stands, `Eq~<` proves the Ambassador
        // (the challenger gives up its Captain); `Eq_` is a caught bluff, `E`
        // and `Eq~` wait for an answer, `Tp` is no Exchange.
        let completes = |line: &str| {
            let e = line_events(line).expect("events");
            exchange_completes(e.first().copied(), e.len(), e.last().copied())
        };
        assert!(completes("Ep"));
        assert!(completes("Eq~<"));
        for line in ["Eq_", "E", "Eq~", "Tp", ""] {
            assert!(!completes(line), "{line:?}");
        }
        let codes = |r: Reply| r.codes();
        assert_eq!(codes(Reply::Act(Action::Income)), ('I', Some(LINE_END)));
        assert_eq!(codes(Reply::EndTurn), (LINE_END, None));
    }

    #[test]
    fn effects_follow_the_arbiter() {
        assert_eq!(effects(Action::Steal, 1), (1, 1));
        assert_eq!(effects(Action::Steal, 5), (2, 2));
        assert_eq!(effects(Action::Tax, 0), (3, 0));
        assert_eq!(Action::Coup.cost(), 7);
        assert_eq!(Action::Steal.claim(), Some(Character::Captain));
    }

    #[test]
    fn claims_match_the_arbiters_actions_dict() {
        let dict = [
            ('E', Character::Ambassador),
            ('a', Character::Ambassador),
            ('A', Character::Assassin),
            ('S', Character::Captain),
            ('c', Character::Captain),
            ('s', Character::Contessa),
            ('T', Character::Duke),
            ('d', Character::Duke),
        ];
        for c in "IFCEASTpqacds_'<=0~^*!$\n".chars() {
            let want = dict.iter().find(|(k, _)| *k == c).map(|(_, v)| *v);
            assert_eq!(Character::claimed_by(c), want, "{c:?}");
        }
    }
}
