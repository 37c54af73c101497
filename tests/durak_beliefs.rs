//! What the Durak tracker infers from how the others play, and how determinizations use it
//! (`Tracker::lacks`, `Beliefs`): lines written by hand in the protocol of `docs/rules/durak.md` §3,
//! with the inferences worked out from the rules.

use cardgames::durak::cards::CardSet;
use cardgames::durak::deep::{opponents_searching, DeepConfig};
use cardgames::durak::protocol::parse_answer;
use cardgames::durak::sample::Beliefs;
use cardgames::durak::tracker::Tracker;
use cardgames::durak::{Answer, Command, DurakBot, Strategy};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

fn set(text: &str) -> CardSet {
    text.split_whitespace()
        .map(|c| match parse_answer(c).unwrap() {
            Answer::Card(card) => card,
            Answer::No => panic!("not a card: {c}"),
        })
        .collect()
}

/// Trump hearts; player 1 (the tracker's owner) holds 7S 6D 8D 9C TC JD, the others six
/// unknown cards each.
fn dealt() -> DurakBot {
    let mut bot = DurakBot::new(Strategy::Greedy, 1);
    for line in ["trump H"]
        .into_iter()
        .map(String::from)
        .chain(["7S", "6D", "8D", "9C", "TC", "JD"].map(|c| format!("give 1 {c}")))
        .chain((2..=4).flat_map(|p| (0..6).map(move |_| format!("give {p} ??"))))
    {
        bot.feed(&line).unwrap();
    }
    bot
}

fn feed(bot: &mut DurakBot, lines: &[&str]) {
    for l in lines {
        bot.feed(l).unwrap();
    }
}

const PLAY: Beliefs = Beliefs::Play;

/// Cards dealt to `player` (0-based) over `n` determinizations for `cmd`.
fn dealt_to(t: &Tracker, cmd: Command, beliefs: Beliefs, player: usize, n: u64) -> CardSet {
    let mut seen = CardSet::EMPTY;
    for seed in 0..n {
        let g = t
            .sample_with(cmd, beliefs, &mut ChaCha8Rng::seed_from_u64(seed))
            .unwrap();
        seen = seen.union(g.hands[player]);
    }
    seen
}

#[test]
fn a_beat_with_a_dear_card_rules_out_the_cheaper_beaters() {
    let mut bot = dealt();
    // Player 2 beats the 7S with the ten of trumps: he holds no higher spade and no trump
    // below the ten (6H-9H), or he would have beaten with it.
    feed(&mut bot, &["move 1 2 7S", "beat 2 TH"]);
    let t = bot.tracker();
    let expected = set("8S 9S TS JS QS KS AS 6H 7H 8H 9H");
    assert_eq!(t.lacks[1], expected);
    assert_eq!(t.lacks[2], CardSet::EMPTY, "the partner did not play");
    // Determinizations keep those cards out of his hand (26 unseen cards are enough to fill
    // his five unknown slots without them); without the belief they do reach him.
    let with = dealt_to(t, Command::Add, PLAY, 1, 300);
    assert!(with.intersect(expected).is_empty());
    let without = dealt_to(t, Command::Add, Beliefs::Takes, 1, 300);
    assert_eq!(without.intersect(expected), expected);
}

#[test]
fn beliefs_hold_for_the_cards_held_when_they_were_formed() {
    let mut bot = dealt();
    let round_one = set("8S 9S TS JS QS KS AS 6H 7H 8H 9H");
    feed(
        &mut bot,
        &[
            "move 1 2 7S",
            "beat 2 TH",
            // Drawing starts with the attacker: player 1, then player 2 (the others hold 6).
            "give 1 QD",
            "give 2 ??",
            // Player 2 (who beat) leads against player 3; player 3 beats with the jack.
            "move 2 3 9S",
            "beat 3 JS",
        ],
    );
    // The card player 2 drew may be anything: one of his five slots is free.
    assert_eq!(bot.tracker().lacks[1], round_one);
    assert_eq!(bot.tracker().lacks_free[1], 1);
    // Player 4 throws in the JC: player 2, asked first, declined, so he holds no plain 9 or J;
    // player 4 holds no cheaper card of those ranks (the plain nines).
    feed(&mut bot, &["add 4 3 JC"]);
    let t = bot.tracker();
    assert_eq!(t.lacks[1], round_one.union(set("9S 9D 9C JS JD JC")));
    assert_eq!(t.lacks[3], set("9S 9D 9C"));
    // Player 3 beats it; nobody throws in again, so at the round's end neither thrower holds
    // a plain 9, J or Q; then both draw a card.
    feed(
        &mut bot,
        &[
            "beat 3 QC",
            "give 2 ??",
            "give 4 ??",
            "give 3 ??",
            "give 3 ??",
        ],
    );
    let t = bot.tracker();
    let plain_9jq = set("9S 9D 9C JS JD JC QS QD QC");
    assert_eq!(t.lacks[3], plain_9jq);
    assert_eq!(t.lacks_free[3], 1);
    assert_eq!(t.lacks_free[1], 2);
    // Player 3 leads at player 4, who beats the 6C with the 8C: the 7C would have done. The
    // round is still open, so no decline by the attackers (3 and 1) is read yet.
    feed(&mut bot, &["move 3 4 6C", "beat 4 8C"]);
    let t = bot.tracker();
    assert_eq!(t.lacks[3], plain_9jq.union(set("7C")));
    // The partner (player 3) is read too (only to see whether he breaks the beliefs; his
    // hand is dealt by the take beliefs): he beat the 9S with the JS, so he lacks the TS.
    assert!(t.lacks[2].intersect(set("TS")) == set("TS"));
    // Player 2's six cards: at most his two drawn ones are among what he is believed to lack,
    // and that happens.
    let unseen = t.unseen();
    let mut most = 0;
    for seed in 0..300 {
        let g = t
            .sample_with(Command::Add, PLAY, &mut ChaCha8Rng::seed_from_u64(seed))
            .unwrap();
        most = most.max(g.hands[1].intersect(t.lacks[1]).intersect(unseen).len());
    }
    assert_eq!(most, 2);
}

#[test]
fn an_attacker_who_keeps_his_cards_lacks_the_table_ranks() {
    let mut bot = dealt();
    // Player 2 leads the 9S at player 3, who beats with the JS; nobody throws in. Player 2
    // then draws but player 4 (his partner, who never played) does not.
    feed(
        &mut bot,
        &["move 2 3 9S", "beat 3 JS", "give 2 ??", "give 3 ??"],
    );
    let t = bot.tracker();
    assert_eq!(t.lacks[3], set("9S 9D 9C JS JD JC"));
    // Of those, 9D and JC are unseen: the determinizations keep them from player 4.
    let unseen = set("9D JC");
    assert!(dealt_to(t, Command::Move, PLAY, 3, 300)
        .intersect(unseen)
        .is_empty());
    assert_eq!(
        dealt_to(t, Command::Move, Beliefs::Takes, 3, 300).intersect(unseen),
        unseen
    );
}

/// Player 2 beats the 7S with the TH (he lacks the 11 dearer spades and lower trumps, all
/// unseen), then draws one card: five of his six slots are covered by the belief, the sixth
/// may be any card.
fn one_slot_drawn_since_a_beat() -> DurakBot {
    let mut bot = dealt();
    feed(
        &mut bot,
        &["move 1 2 7S", "beat 2 TH", "give 1 QD", "give 2 ??"],
    );
    bot
}

#[test]
fn slots_drawn_since_a_belief_take_the_lacked_cards_first() {
    let bot = one_slot_drawn_since_a_beat();
    let t = bot.tracker();
    let lacks = t.lacks[1];
    assert_eq!(
        (lacks.len(), t.lacks_free[1], t.unseen().len()),
        (11, 1, 28)
    );
    // Over 1000 determinizations, how often player 2's drawn slot holds a card he is
    // believed to lack: the single-pool deal serves his five believed slots from the cards he
    // may hold first, so the lacked cards still lie in front for the drawn slot, nearly
    // always (973 times in 1000 here; a uniform draw would give about 480: 11 of 23 cards).
    let drawn: usize = (0..1000)
        .map(|seed| {
            let g = t
                .sample_with(Command::Move, PLAY, &mut ChaCha8Rng::seed_from_u64(seed))
                .unwrap();
            // At most the drawn slot holds a lacked card.
            let held = g.hands[1].intersect(lacks).len();
            assert!(held <= 1, "seed {seed}");
            held
        })
        .sum();
    assert!(drawn > 900, "single pool: drawn slot {drawn} of 1000");
}

#[test]
fn a_lead_is_read_as_the_leaders_lowest_card_only_to_catch_a_breach() {
    let mut bot = dealt();
    // Player 4 leads the 9S at player 1: by the lowest-card rule he holds no plain 6, 7 or 8.
    feed(&mut bot, &["move 4 1 9S"]);
    let t = bot.tracker();
    let cheaper = set("6S 7S 8S 6D 7D 8D 6C 7C 8C");
    assert_eq!(t.lead_lacks[3], cheaper);
    // The determinizations do not deal by it: the unseen ones (player 1 holds 7S, 6D, 8D) all
    // reach player 4.
    let unseen = cheaper.intersect(t.unseen());
    assert_eq!(unseen, set("6S 8S 7D 6C 7C 8C"));
    assert_eq!(
        dealt_to(t, Command::Beat, PLAY, 3, 300).intersect(unseen),
        unseen
    );
    // A trump lead says he holds no plain card; throwing in a plain six onto the taker
    // before drawing again, he breaks the rule.
    let mut bot = dealt();
    feed(&mut bot, &["move 4 1 6H", "take 1"]);
    assert!(!bot.tracker().broke[3]);
    feed(&mut bot, &["add 4 1 6S"]);
    assert!(bot.tracker().broke[3]);
}

#[test]
fn a_player_who_plays_a_barred_card_is_searched_for_in_the_trees() {
    let mut bot = dealt();
    // Player 2 takes the 7S rather than beat it. With 12 cards in the talon he may be keeping
    // a trump, so only the plain beaters are barred: the dearer spades.
    feed(&mut bot, &["move 1 2 7S", "take 2", "give 1 QD"]);
    let t = bot.tracker();
    let barred = set("8S 9S TS JS QS KS AS");
    assert_eq!(t.banned[1], barred);
    assert!(!t.broke[1]);
    // No determinization gives him a barred card.
    assert!(dealt_to(t, Command::Move, PLAY, 1, 300)
        .intersect(barred)
        .is_empty());
    // Holding seven cards he draws nothing; player 3 (the next mover, the taker skipped)
    // attacks player 4, who beats; then player 4 leads the QC at player 1 and player 2 throws
    // in the QS he was believed to lack: caught breaking the take belief.
    feed(
        &mut bot,
        &[
            "move 3 4 6C",
            "beat 4 8C",
            "give 3 ??",
            "give 4 ??",
            "move 4 1 QC",
            "add 2 1 QS",
        ],
    );
    let t = bot.tracker();
    assert!(t.broke[1]);
    assert!(!t.broke[3]);
    // The search's trees then let player 2 choose by UCB1 for his team, not player 4, who
    // has kept to the rules (`DeepConfig::tree_opp`, 2 by default).
    assert_eq!(
        opponents_searching(&DeepConfig::default(), t),
        [false, true, false, false]
    );
}

#[test]
fn the_belief_audit_replays_and_refuses_bad_beliefs_in_one_line() {
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_durak-server"))
            .arg("beliefs")
            .args(args)
            .output()
            .unwrap()
    };
    let args = [
        "--deals",
        "2",
        "-q",
        "--samples",
        "50",
        "--beliefs",
        "takes play",
    ];
    let first = run(&args);
    assert!(first.status.success(), "{first:?}");
    let text = String::from_utf8(first.stdout.clone()).unwrap();
    for phase in ["talon > 6:", "talon 1..6:", "talon empty:"] {
        assert!(text.contains(phase), "{text}");
    }
    // The first belief is the reference of the differences; the audit replays from the seed.
    assert!(text
        .lines()
        .any(|l| l.trim_start().starts_with("takes") && l.contains("+0.0000 +- 0.0000")));
    assert_eq!(run(&args).stdout, first.stdout);
    let bad = run(&["--beliefs", "psychic"]);
    assert_eq!(bad.status.code(), Some(1));
    let err = String::from_utf8(bad.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("durak-server beliefs: unknown belief \"psychic\""),
        "{err}"
    );
}
