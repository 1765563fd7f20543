//! The joint setup of `Placement together` (rules 1.3(d), 1.7, worked examples 18 to 24 of
//! §4.1), through the rules and the notation.

use crate::rnb::{PLACEMENT, Rnb};
use quartet_core::game::{Action, Game, Node, Outcome, Player, RuleOptions};
use quartet_core::notation::{Notation, NotationError};

const SOUTH_SAFE: &str = "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1";
const SOUTH_LINE: &str = "R@a1,R@b1,R@c1,R@e1,B@f1,B@a2,B@b2,B@c2";
const NORTH_SAFE: &str = "R@a5,R@b5,R@e5,R@f5,B@a6,B@b6,B@e6,B@f6";
const NORTH_LINE: &str = "R@a5,R@b5,R@c5,R@d5,B@e5,B@f5,B@a6,B@b6";

fn together() -> RuleOptions {
    RuleOptions::default()
        .with(
            &PLACEMENT,
            PLACEMENT.parse_value("together").expect("a word"),
        )
        .expect("in range")
}

fn start() -> Rnb {
    Rnb::start(&together())
}

/// The position after the joint token `south/north`, checked through the notation.
fn after(south: &str, north: &str) -> Rnb {
    let mut pos = start();
    let action = pos
        .parse_action(&format!("{south}/{north}"))
        .unwrap_or_else(|e| panic!("{e}"));
    pos.try_apply(action).expect("legal");
    assert_eq!(pos.hash(), pos.hash_from_scratch(), "incremental hash");
    pos
}

#[test]
fn the_setup_is_one_simultaneous_node_of_11550_by_11550_joint_turns() {
    let pos = start();
    assert_eq!(pos.format_position(), "2k3/6/6/6/6/3K2 sn 4444 0");
    assert_eq!(pos.node(), Node::Simultaneous);
    assert_eq!(pos.end_reason(), None);
    assert_eq!(pos.acting_player(), None);
    let mut moves = Vec::new();
    for p in [Player::First, Player::Second] {
        pos.legal_moves(p, &mut moves);
        assert_eq!(moves.len(), 11_550, "C(11,8) x C(8,4)");
    }
    assert_eq!(pos.count_children(), 133_402_500);
    let alternate = Rnb::start(&RuleOptions::default());
    assert_ne!(
        pos.hash(),
        alternate.hash(),
        "the node kind is part of the hash"
    );
    assert_eq!(pos.hash(), pos.hash_from_scratch());
    assert!(
        pos.diagram()
            .ends_with("South and North arrange at once (Placement together)")
    );
    assert_eq!(pos.describe()["phase"], "placement");
}

#[test]
fn example_18_both_keep_the_line_rule_and_south_moves_first() {
    let pos = after(SOUTH_SAFE, NORTH_SAFE);
    assert_eq!(
        pos.format_position(),
        "bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0"
    );
    assert_eq!(pos.node(), Node::Turn(Player::First));
    assert_eq!(pos.count_children(), 19);
    assert_eq!(pos.repetition_window(), Some(0));
}

#[test]
fn examples_19_to_21_each_line_loses_and_two_lines_draw() {
    for (south, north, fen, outcome) in [
        (
            SOUTH_LINE,
            NORTH_SAFE,
            "bbk1bb/rr2rr/6/6/BBB3/RRRKRB s 0000 0",
            Outcome::Win(Player::Second),
        ),
        (
            SOUTH_LINE,
            NORTH_LINE,
            "bbk3/rrrrbb/6/6/BBB3/RRRKRB s 0000 0",
            Outcome::Draw,
        ),
        (
            SOUTH_SAFE,
            NORTH_LINE,
            "bbk3/rrrrbb/6/6/RR2RR/BB1KBB s 0000 0",
            Outcome::Win(Player::First),
        ),
    ] {
        let pos = after(south, north);
        assert_eq!(pos.format_position(), fen);
        assert_eq!(pos.node(), Node::Terminal(outcome), "{fen}");
        assert_eq!(pos.end_reason(), Some(crate::rnb::SIX_IN_A_RANK));
        assert_eq!(pos.count_children(), 0);
        // The bare string is judged the same way (rule 1.8).
        let parsed = Rnb::parse_position(fen, &together()).expect("as the setup leaves it");
        assert_eq!(parsed.node(), Node::Terminal(outcome));
        assert_eq!(parsed.hash(), pos.hash());
    }
}

#[test]
fn example_22_any_order_and_case_is_read_and_written_canonically() {
    let pos = start();
    let lenient = "B@f1,R@e2,b@a1,R@b2,B@e1,R@f2,r@a2,B@b1";
    let Ok(Action::Joint(south, north)) = pos.parse_action(&format!("{lenient}/{NORTH_SAFE}"))
    else {
        panic!("a legal joint token");
    };
    assert_eq!(pos.format_move(south), SOUTH_SAFE);
    assert_eq!(pos.format_move(north), NORTH_SAFE);
    assert_eq!(pos.parse_declaration(Player::First, lenient), Ok(south));
    assert!(matches!(
        pos.parse_declaration(Player::Second, lenient),
        Err(NotationError::Illegal { .. })
    ));
}

#[test]
fn example_23_and_24_malformed_and_illegal_arrangements() {
    let pos = start();
    let joint = |south: &str| pos.parse_action(&format!("{south}/{NORTH_SAFE}"));
    for malformed in [
        "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1",
        "R@a2,R@b2,R@e2,R@f2,R@c2,B@a1,B@b1,B@e1",
        "R@a2,R@a2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1",
        "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,a1a2",
        "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@f1,",
    ] {
        assert!(
            matches!(joint(malformed), Err(NotationError::Syntax { .. })),
            "{malformed}"
        );
    }
    for (illegal, why) in [
        (
            "R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@a3",
            "a3 is outside the zone",
        ),
        ("R@a2,R@b2,R@e2,R@f2,B@a1,B@b1,B@e1,B@d1", "d1 is the base"),
    ] {
        match joint(illegal) {
            Err(NotationError::Illegal { why: w, .. }) => assert!(w.contains(why), "{w}"),
            other => panic!("{illegal}: {other:?}"),
        }
    }
    // A single placement, a step or one half alone is not the joint turn.
    for token in ["R@a2", "d1d2", SOUTH_SAFE] {
        assert!(
            matches!(pos.parse_action(token), Err(NotationError::Illegal { .. })),
            "{token}"
        );
    }
    // A joint token anywhere else is illegal.
    let later = after(SOUTH_SAFE, NORTH_SAFE);
    assert!(matches!(
        later.parse_action(&format!("{SOUTH_SAFE}/{NORTH_SAFE}")),
        Err(NotationError::Illegal { .. })
    ));
    assert!(later.parse_declaration(Player::First, SOUTH_SAFE).is_err());
}

#[test]
fn position_strings_follow_the_placement_rule() {
    let alternate = RuleOptions::default();
    for (text, rules) in [
        // `sn` is only the start of Placement together.
        ("2k3/6/6/6/6/3K2 sn 4444 0", &alternate),
        ("2k3/6/6/6/6/R2K2 sn 3444 0", &together()),
        ("r1k3/6/6/6/6/R2K2 sn 3434 0", &together()),
        // Under together no other placement-phase position exists.
        ("2k3/6/6/6/6/3K2 s 4444 0", &together()),
        ("2k3/6/6/6/6/R2K2 n 3444 0", &together()),
        // South to move with a line: only as the setup leaves it, and only under together.
        ("bbk1bb/rr2rr/6/6/BBB3/RRRKRB s 0000 0", &alternate),
        ("bbk1bb/rr2rr/6/6/BBB3/RRRKRB s 0000 1", &together()),
        ("bbk1bb/rr2rr/6/B5/6/RRRKRB s 0000 0", &together()),
    ] {
        assert!(
            Rnb::parse_position(text, rules).is_err(),
            "{text} under {rules:?}"
        );
    }
    // Movement positions read the same under both rules.
    let text = "bbk1bb/rr2rr/6/6/RR2RR/BB1KBB s 0000 0";
    assert_eq!(
        Rnb::parse_position(text, &alternate),
        Rnb::parse_position(text, &together())
    );
}
