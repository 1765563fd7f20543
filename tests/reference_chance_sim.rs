//! Proves the independent reference referees (tests/reference_sim/) against every worked example
//! of docs/rules/apocalypse.md and docs/rules/ludo.md, against perft counts
//! derived by hand, and re-computes crates/games/src/{apocalypse,ludo}/perft.data so the data cannot drift.
//! The fast implementations in src/ are then checked against those data files elsewhere.

use crate::{common, reference_sim};

use common::perft_data::{self, PerftBlock};
use reference_sim::{apocalypse as apo, ludo};

const APO_START: &str = "npppn/p3p/5/P3P/NPPPN 00 0";
const LUDO_START: &str = "b,b,b,b/b,b,b,b r - 0";

/// Runs a check under both settings of the Apocalypse rule option DoubleStep.
fn for_both_double_step(check: impl Fn(bool)) {
    check(true);
    check(false);
}

fn strings(tokens: &[&str]) -> Vec<String> {
    tokens.iter().map(|t| t.to_string()).collect()
}

// =============================================================================================
// Apocalypse: worked examples (§4), each under both DoubleStep settings (none involves a double
// step, as the rules file says).

/// The worked examples as `label | position | white/black | result | outcome` (`-` while the
/// game goes on), one per line, in the rules file's own notation.
const APO_EXAMPLES: &str = "\
#1 | npppn/p3p/5/P3P/NPPPN 00 0 | c1c2/c5c4 | np1pn/p1p1p/5/P1P1P/NP1PN 00 1 | -
#2 | npppn/p3p/5/P3P/NPPPN 00 0 | a1b3/a5b3 | 1pppn/p3p/5/P3P/1PPPN 00 0 | -
#3 | np1pn/p1p1p/5/P1P1P/NP1PN 00 1 | c2c3/c4c3 | np1pn/p3p/5/P3P/NP1PN 00 0 | -
#4 | 1n3/4p/5/P1P2/5 00 0 | c2c3/b5c3 | 5/4p/2n2/P4/5 00 0 | -
#5 turn 1 | npppn/p3p/5/P3P/NPPPN 00 0 | d1d2/e4e3 | npppn/p4/4p/P2PP/NPP1N 00 1 | -
#5 turn 2 | npppn/p4/4p/P2PP/NPP1N 00 1 | d2e3/e3d2 | npppn/p4/4P/P2pP/NPP1N 00 2 | -
#6 | 2p2/4p/1N3/P4/5 00 0 | b3c5/e4e3 | 2N2/5/4p/P4/5 00 0 | -
#7 | 2p2/4p/1N3/P4/5 00 0 | b3c5/c5c4 | 2N2/2p1p/5/P4/5 00 1 | -
#8 | npppn/p3p/5/P3P/NPPPN 00 0 | a2b3/a5b3 | 1pppn/p3p/1n3/P3P/NPPPN 10 0 | -
#9 | npppn/p3p/5/P3P/NPPPN 10 0 | a2b3/a5b3 | 1pppn/p3p/1n3/P3P/NPPPN 20 0 | black
#9b | npppn/p3p/5/P3P/NPPPN 11 0 | a2b3/e4d3 | npppn/p3p/5/P3P/NPPPN 22 0 | draw
#10 | 5/2n1p/2P2/P4/N4 00 0 | c3c4/c4b2 | 5/4p/2P2/Pn3/N4 10 0 | -
#11 | 4n/1p1P1/5/P4/N4 00 0 | d4d5/b4b3 | 3Nn/5/1p3/P4/N4 00 0 | -
#12 | 4n/1p1P1/5/P4/N3N 00 0 | d4d5@b2/b4b3 | 4n/5/1p3/PP3/N3N 00 1 | -
#13 | 5/1p1P1/4n/P4/N3N 00 0 | d4d5@b2/e3d5 | 3n1/1p3/5/P4/N3N 00 0 | -
#14 | 5/1p1Pn/5/P4/N3N 00 0 | d4d5@c3/e4c3 | 5/1p3/2n2/P4/N3N 00 0 | -
#15 | 4n/1p1P1/5/5/N4 00 0 | d4d5/b4b3 | 4n/3P1/1p3/5/N4 10 0 | -
#16 | 4n/2p2/5/2P2/N4 00 0 | c2c3/c4c3 | 4n/5/5/5/N4 00 0 | draw
#18 | 4n/1p1P1/5/P4/N3N 00 0 | d4d5@d4/b4b3 | 4n/3P1/1p3/P4/N3N 00 1 | -
end order (1.9) | 2n2/5/p4/1P3/5 00 0 | b2a3/c5a4 | 5/n4/P4/5/5 00 0 | white
";

/// Splits one `|`-separated table row into exactly `N` trimmed fields.
fn table_row<const N: usize>(line: &str) -> [&str; N] {
    let fields: Vec<&str> = line.split('|').map(str::trim).collect();
    fields
        .try_into()
        .unwrap_or_else(|_| panic!("table row {line:?} needs {N} fields"))
}

#[test]
fn apocalypse_worked_examples_hold_under_both_double_step_settings() {
    for_both_double_step(|ds| {
        for line in APO_EXAMPLES.lines() {
            let [label, pos, turn, result, outcome] = table_row(line);
            let (white, black) = turn.split_once('/').expect("turn is white/black");
            let outcome = (outcome != "-").then_some(outcome);
            assert_eq!(
                apo::outcome(pos, ds),
                None,
                "{label} starts unfinished (ds={ds})"
            );
            let after = apo::play_joint(pos, white, black, ds);
            assert_eq!(after, result, "{label} result (ds={ds})");
            assert_eq!(
                apo::outcome(&after, ds),
                outcome,
                "{label} outcome (ds={ds})"
            );
        }
    });
}

#[test]
fn apocalypse_example_17_white_without_a_move_is_a_draw() {
    for_both_double_step(|ds| {
        let pos = "4n/p4/P4/5/5 00 0";
        assert_eq!(apo::outcome(pos, ds), Some("draw"));
        // §1.9: a finished position has no legal moves for either side.
        assert!(apo::legal_declarations(pos, true, ds).is_empty());
        assert!(apo::legal_declarations(pos, false, ds).is_empty());
        assert_eq!(apo::perft(pos, 1, ds), 0);
    });
}

#[test]
fn apocalypse_start_has_12_moves_each_with_double_step_and_9_without() {
    // Hand list: knights a1b3 a1c2 e1c2 e1d3, pushes a2a3 b1b2 c1c2 d1d2 e2e3, double steps
    // b1b3 c1c3 d1d3 (a2a4 and e2e4 are blocked by the black pawns on a4/e4).
    let white = [
        "a1b3", "a1c2", "a2a3", "b1b2", "b1b3", "c1c2", "c1c3", "d1d2", "d1d3", "e1c2", "e1d3",
        "e2e3",
    ];
    let black = [
        "a4a3", "a5b3", "a5c4", "b5b3", "b5b4", "c5c3", "c5c4", "d5d3", "d5d4", "e4e3", "e5c4",
        "e5d3",
    ];
    let white_moves = apo::legal_declarations(APO_START, true, true);
    assert_eq!(white_moves, strings(&white));
    assert_eq!(
        apo::legal_declarations(APO_START, false, true),
        strings(&black)
    );
    let no_double = |list: &[&str]| -> Vec<String> {
        let keep = |t: &&&str| !["b1b3", "c1c3", "d1d3", "b5b3", "c5c3", "d5d3"].contains(*t);
        list.iter().filter(keep).map(|t| t.to_string()).collect()
    };
    assert_eq!(
        apo::legal_declarations(APO_START, true, false),
        no_double(&white)
    );
    assert_eq!(
        apo::legal_declarations(APO_START, false, false),
        no_double(&black)
    );
    assert_eq!(apo::legal_declarations(APO_START, true, false).len(), 9);
}

#[test]
fn apocalypse_examples_legal_lists_show_the_rules_behind_them() {
    for_both_double_step(|ds| {
        // #10: c4 is occupied in S, so c3c4 is not legal; c3 has no diagonal target either.
        let w10 = apo::legal_declarations("5/2n1p/2P2/P4/N4 00 0", true, ds);
        assert!(!w10.contains(&"c3c4".to_string()) && !w10.iter().any(|t| t.starts_with("c3")));
        // #11: one knight, so the pawn promotes without a suffix.
        let w11 = apo::legal_declarations("4n/1p1P1/5/P4/N4 00 0", true, ds);
        assert!(w11.contains(&"d4d5".to_string()) && w11.contains(&"d4e5".to_string()));
        assert!(!w11.iter().any(|t| t.contains('@')));
        // #12/#18: two knights, so every pawn move to rank 5 names r: empty in S or the origin,
        // never rank 5; no bare d4d5.
        let w12 = apo::legal_declarations("4n/1p1P1/5/P4/N3N 00 0", true, ds);
        for ok in ["d4d5@b2", "d4d5@d4", "d4d5@c1", "d4e5@a3"] {
            assert!(w12.contains(&ok.to_string()), "{ok} legal");
        }
        for bad in [
            "d4d5", "d4d5@a1", "d4d5@b4", "d4d5@a5", "d4d5@c5", "d4c5@b2",
        ] {
            assert!(!w12.contains(&bad.to_string()), "{bad} illegal");
        }
        // #15: the last pawn may not promote.
        let w15 = apo::legal_declarations("4n/1p1P1/5/5/N4 00 0", true, ds);
        assert_eq!(w15, strings(&["a1b3", "a1c2"]));
    });
}

// =============================================================================================
// Apocalypse: rules the examples do not pin down, each derived by hand from §1.

#[test]
fn apocalypse_double_step_needs_empty_pass_and_landing_squares() {
    // W Pb1; B Nb3 Pc5. b1b3 lands on the knight: illegal even with DoubleStep.
    let pos = "2p2/5/1n3/5/1P3 00 0";
    assert_eq!(apo::legal_declarations(pos, true, true), strings(&["b1b2"]));
    // Black's c5c3 passes c4 and lands on c3, both empty: legal only with DoubleStep.
    assert!(apo::legal_declarations(pos, false, true).contains(&"c5c3".to_string()));
    assert!(!apo::legal_declarations(pos, false, false).contains(&"c5c3".to_string()));
    // A piece on the passed square blocks too: W Pa1 Pc1, B Nc2 Pc5. c3 is empty, but c1c3
    // would pass the knight on c2, so White's only move is a1a2 (a1 is no start square).
    let blocked = "2p2/5/5/2n2/P1P2 00 0";
    assert_eq!(
        apo::legal_declarations(blocked, true, true),
        strings(&["a1a2"])
    );
}

#[test]
fn apocalypse_redeployed_pawn_may_double_step_again() {
    // §1.2: position-based. Redeploy to c1, then c1c3 is offered with DoubleStep only.
    let after = apo::play_joint("4n/1p1P1/5/P4/N3N 00 0", "d4d5@c1", "b4b3", true);
    assert_eq!(after, "4n/5/1p3/P4/N1P1N 00 1");
    assert!(apo::legal_declarations(&after, true, true).contains(&"c1c3".to_string()));
    assert!(!apo::legal_declarations(&after, true, false).contains(&"c1c3".to_string()));
}

#[test]
fn apocalypse_redeploy_stage_b_conflicts() {
    for_both_double_step(|ds| {
        // Same r for both: both removed, no pawns left: draw (§1.5 B2, §1.6-1).
        let both = "n3n/2P2/5/2p2/N3N 00 0";
        let same = apo::play_joint(both, "c4c5@c3", "c2c1@c3", ds);
        assert_eq!(same, "n3n/5/5/5/N3N 00 0");
        assert_eq!(apo::outcome(&same, ds), Some("draw"));
        // Different r: both stand; redeploys do not reset the counter (§1.8).
        let apart = apo::play_joint(both, "c4c5@b3", "c2c1@b2", ds);
        assert_eq!(apart, "n3n/5/1P3/1p3/N3N 00 1");
        // r taken by an enemy pawn that stepped there: both removed; White has no pawn left.
        let pawn_clash = apo::play_joint("1n2n/P1p2/5/4p/N3N 00 0", "a4a5@c3", "c4c3", ds);
        assert_eq!(pawn_clash, "1n2n/5/5/4p/N3N 00 0");
        assert_eq!(apo::outcome(&pawn_clash, ds), Some("black"));
        // r on the opponent's last rank, where a black pawn promotes in B1: the redeploying
        // pawn meets a knight and is removed.
        let promoted = apo::play_joint("1n3/P4/5/2p1p/N3N 00 0", "a4a5@c1", "c2c1", ds);
        assert_eq!(promoted, "1n3/5/5/4p/N1n1N 00 0");
        assert_eq!(apo::outcome(&promoted, ds), Some("black"));
    });
}

#[test]
fn apocalypse_void_declarations_and_penalties() {
    for_both_double_step(|ds| {
        // §1.7/§1.9: 0000 and anything that is not exactly a legal token are void (+1 each).
        let both_void = apo::play_joint(APO_START, "0000", "C5C4", ds);
        assert_eq!(both_void, "npppn/p3p/5/P3P/NPPPN 11 0");
        let black_void = apo::play_joint("npppn/p3p/5/P3P/NPPPN 00 7", "c1c2", "c5c5", ds);
        assert_eq!(black_void, "npppn/p3p/5/P1P1P/NP1PN 01 0");
        // One side at 2 points loses (§1.6-2).
        let lost = apo::play_joint("npppn/p3p/5/P3P/NPPPN 01 0", "c1c2", "xx", ds);
        assert_eq!(apo::outcome(&lost, ds), Some("white"));
        assert!(apo::legal_declarations(&lost, true, ds).is_empty());
    });
}

#[test]
fn apocalypse_no_progress_counter_draws_at_50() {
    for_both_double_step(|ds| {
        let at_49 = "npppn/p3p/5/P3P/NPPPN 00 49";
        let after = apo::play_joint(at_49, "c1c2", "c5c4", ds);
        assert_eq!(after, "np1pn/p1p1p/5/P1P1P/NP1PN 00 50");
        assert_eq!(apo::outcome(&after, ds), Some("draw"));
        assert_eq!(apo::perft(&after, 2, ds), 0);
        // A capture at 49 resets instead (#6's position with the counter at 49).
        let reset = apo::play_joint("2p2/4p/1N3/P4/5 00 49", "b3c5", "e4e3", ds);
        assert_eq!(reset, "2N2/5/4p/P4/5 00 0");
    });
}

#[test]
fn apocalypse_rejects_bad_position_strings() {
    assert!(apo::check_position(APO_START).is_ok());
    for bad in [
        "Pnppn/p3p/5/P3P/NPPPN 00 0", // White pawn on rank 5 (§1.9)
        "npppn/p3p/5/P3P/pPPPN 00 0", // Black pawn on rank 1 (§1.9)
        "npppn/p3p/5/P3P/NPPPN 00",   // missing counter
        "npppn/p3p/5/P3P 00 0",       // 4 ranks
        "npppn/p3p/6/P3P/NPPPN 00 0", // 6 squares
        "npppn/p3p/5/P3P/NPPPK 00 0", // unknown piece
        "npppn/p3p/5/P3P/NPPPN 30 0", // penalty 3
        "npppn/p3p/5/P3P/NPPPN 00 51",
        "npppn/p3p/5/P3P/NPPPN 00 -1",
    ] {
        assert!(
            apo::check_position(bad).is_err(),
            "{bad:?} must be rejected"
        );
    }
}

// =============================================================================================
// Apocalypse: hand-derived perft.

#[test]
fn apocalypse_start_perft_depth_1() {
    assert_eq!(apo::perft(APO_START, 1, true), 144); // 12 × 12
    assert_eq!(apo::perft(APO_START, 1, false), 81); // 9 × 9
    assert_eq!(apo::perft(APO_START, 0, true), 1);
}

/// `2n2/5/p4/1P3/5 00 0` (the end-order position). W: Pb2 → b2b3, b2a3 (2). B: Nc5 → d3 b3 e4
/// a4, Pa3 → a3a2, a3b2 (6). Depth 1 = 12. Depth 2, by White move:
/// - b2b3 with c5d3: W b3 (b4) = 1 × B Nd3 (e5 c5 b4 b2 e1 c1) + a3a2 = 7 → 7;
///   c5b3: knight beats pawn, White pawnless → 0; c5e4: 1 × (c5 c3 d2 + a3a2) = 4;
///   c5a4: W b3 (b4, b3a4) = 2 × B Na4 (c5 c3 b2) + a3a2 = 4 → 8;
///   a3a2: 1 × (Nc5 d3 b3 e4 a4; a2a1 is the last pawn promoting: illegal) = 4;
///   a3b2 (target moved: plain step): 1 × 4 = 4. Subtotal 27.
/// - b2a3 captures the unmoved a3 pawn with any knight move: Black pawnless → 4 × 0.
///   With a3a2 or a3b2 the pawn dodged: W a3 (a4) 1 × B (4 knight moves; the pawn's only move
///   would promote the last pawn) 4 = 4 each. Subtotal 8.
///
/// Total 35. No pawn stands on a start square, so both settings agree.
#[test]
fn apocalypse_end_order_position_perft_by_hand() {
    for_both_double_step(|ds| {
        let pos = "2n2/5/p4/1P3/5 00 0";
        assert_eq!(apo::perft(pos, 1, ds), 12);
        assert_eq!(apo::perft(pos, 2, ds), 35);
    });
}

/// Example 12's position `4n/1p1P1/5/P4/N3N 00 0`. White: Na1 (b3 c2), Ne1 (d3 c2), Pa2 (a3;
/// a2a4 with DoubleStep), Pd4 to d5 or ×e5, each with 16 redeploy squares (the 20 squares of
/// ranks 1–4 minus a1 e1 a2 b4, d4 included) = 32. So W = 37 without, 38 with DoubleStep.
/// Black: Ne5 (d3 c4), Pb4 (b3) = 3. Depth 1 = 111 / 114.
/// Example 11's position has one white knight: d4d5 and d4e5 promote, W = 2 + 1 + 2 = 5 / 6,
/// so depth 1 = 15 / 18.
#[test]
fn apocalypse_redeploy_and_promotion_positions_perft_by_hand() {
    assert_eq!(apo::perft("4n/1p1P1/5/P4/N3N 00 0", 1, false), 111);
    assert_eq!(apo::perft("4n/1p1P1/5/P4/N3N 00 0", 1, true), 114);
    assert_eq!(apo::perft("4n/1p1P1/5/P4/N4 00 0", 1, false), 15);
    assert_eq!(apo::perft("4n/1p1P1/5/P4/N4 00 0", 1, true), 18);
}

/// `5/1p3/5/P4/5 00 0`: W Pa2, B Pb4, no knights. Turn 1 is forced (a2a3/b4b3; a2a4 only
/// with DoubleStep, b4 is not a black start square). Without DoubleStep: then a3a4/b3b2 is
/// forced, and then White's only pawn could only promote on a5: no legal move, a draw.
/// So depth 1, 2, 3 = 1, 1, 0. With DoubleStep White also has a2a4 at the root (2 × 1 = 2).
#[test]
fn apocalypse_lone_pawns_perft_by_hand() {
    let pos = "5/1p3/5/P4/5 00 0";
    assert_eq!(apo::perft(pos, 1, false), 1);
    assert_eq!(apo::perft(pos, 2, false), 1);
    assert_eq!(apo::perft(pos, 3, false), 0);
    assert_eq!(apo::perft(pos, 1, true), 2);
}

// =============================================================================================
// Ludo: worked examples (§4).

/// The worked examples step by step as `label | position | legal tokens | token | result`.
const LUDO_STEPS: &str = "\
#1 roll | b,b,b,b/b,b,b,b r - 0 | r1 r2 r3 r4 r5 r6 | r3 | b,b,b,b/b,b,b,b r 3 0
#1 move | b,b,b,b/b,b,b,b r 3 0 | pass | pass | b,b,b,b/b,b,b,b y - 0
#2 roll | b,b,b,b/b,b,b,b r - 0 | r1 r2 r3 r4 r5 r6 | r6 | b,b,b,b/b,b,b,b r 6 1
#2 move | b,b,b,b/b,b,b,b r 6 1 | b-0 | b-0 | b,b,b,0/b,b,b,b r - 1
#3 roll | b,b,b,0/b,b,b,b r - 1 | r1 r2 r3 r4 r5 r6 | r6 | b,b,b,0/b,b,b,b r 6 2
#3 move | b,b,b,0/b,b,b,b r 6 2 | b-0 0-6 | 0-6 | b,b,b,6/b,b,b,b r - 2
#3 third six | b,b,b,6/b,b,b,b r - 2 | r1 r2 r3 r4 r5 r6 | r6 | b,b,b,6/b,b,b,b r 6 3
#3 void | b,b,b,6/b,b,b,b r 6 3 | pass | pass | b,b,b,6/b,b,b,b y - 0
#4 roll | b,b,b,27/b,b,b,4 r - 0 | r1 r2 r3 r4 r5 r6 | r3 | b,b,b,27/b,b,b,4 r 3 0
#4 capture | b,b,b,27/b,b,b,4 r 3 0 | 27-30 | 27-30 | b,b,b,30/b,b,b,b r - 0
#5 | b,b,b,5/b,b,b,34 r 3 0 | 5-8 | 5-8 | b,b,b,8/b,b,b,34 y - 0
#6 roll | b,b,b,b/b,b,b,26 r - 0 | r1 r2 r3 r4 r5 r6 | r6 | b,b,b,b/b,b,b,26 r 6 1
#6 enter | b,b,b,b/b,b,b,26 r 6 1 | b-0 | b-0 | b,b,b,0/b,b,b,26 r - 1
#7 roll | b,b,b,30/b,b,10,10 r - 0 | r1 r2 r3 r4 r5 r6 | r6 | b,b,b,30/b,b,10,10 r 6 1
#7 capture | b,b,b,30/b,b,10,10 r 6 1 | b-0 30-36 | 30-36 | b,b,b,36/b,b,b,b r - 1
#8 roll 4 | b,b,b,53/b,b,b,b r - 0 | r1 r2 r3 r4 r5 r6 | r4 | b,b,b,53/b,b,b,b r 4 0
#8 no move | b,b,b,53/b,b,b,b r 4 0 | pass | pass | b,b,b,53/b,b,b,b y - 0
#8 goal | b,b,b,53/b,b,b,b r 3 0 | 53-56 | 53-56 | b,b,b,56/b,b,b,b r - 0
#9 | b,b,b,10/b,b,38,38 r 5 0 | 10-15 | 10-15 | b,b,b,15/b,b,38,38 y - 0
#10 | 53,56,56,56/b,b,b,b r 6 1 | pass | pass | 53,56,56,56/b,b,b,b y - 0
#11 | 53,56,56,56/b,b,b,b r 3 0 | 53-56 | 53-56 | 56,56,56,56/b,b,b,b r - 0
#13 roll | b,b,b,30/b,b,b,0 y - 0 | r1 r2 r3 r4 r5 r6 | r4 | b,b,b,30/b,b,b,0 y 4 0
#13 capture | b,b,b,30/b,b,b,0 y 4 0 | 0-4 | 0-4 | b,b,b,b/b,b,b,4 y - 0
#15 enter | b,b,0,6/b,b,b,b r 6 1 | b-0 0-6 6-12 | b-0 | b,0,0,6/b,b,b,b r - 1
#15 stack | b,b,0,6/b,b,b,b r 6 1 | b-0 0-6 6-12 | 0-6 | b,b,6,6/b,b,b,b r - 1
#15 dedup | b,b,6,6/b,b,b,b r 2 0 | 6-8 | 6-8 | b,b,6,8/b,b,b,b y - 0
";

#[test]
fn ludo_worked_examples() {
    for line in LUDO_STEPS.lines() {
        let [label, pos, legal, token, result] = table_row(line);
        let legal: Vec<String> = legal.split(' ').map(str::to_string).collect();
        assert_eq!(ludo::legal_tokens(pos), legal, "{label} legal tokens");
        assert_eq!(ludo::play(pos, token), result, "{label} result");
    }
}

#[test]
fn ludo_example_11_win_is_terminal_and_example_12_home_entry() {
    let won = ludo::play("53,56,56,56/b,b,b,b r 3 0", "53-56");
    assert_eq!(ludo::winner(&won), Some("red"));
    assert!(ludo::legal_tokens(&won).is_empty());
    assert_eq!(ludo::perft(&won, 3), 0);
    assert_eq!(ludo::winner("b,b,b,53/b,b,b,b r - 0"), None);
    let home = "b,b,48,50/b,b,b,b r 6 1";
    assert_eq!(
        ludo::legal_tokens(home),
        strings(&["b-0", "48-54", "50-56"])
    );
    assert_eq!(
        ludo::legal_tokens("b,b,48,50/b,b,b,b r 1 0"),
        strings(&["48-49", "50-51"])
    );
}

#[test]
fn ludo_example_14_chain_of_sixes_after_a_capture_roll() {
    let mut pos = "b,b,b,27/b,b,b,4 r - 0".to_string();
    let steps = [
        ("r3", "b,b,b,27/b,b,b,4 r 3 0"),
        ("27-30", "b,b,b,30/b,b,b,b r - 0"),
        ("r6", "b,b,b,30/b,b,b,b r 6 1"),
        ("30-36", "b,b,b,36/b,b,b,b r - 1"),
        ("r6", "b,b,b,36/b,b,b,b r 6 2"),
        ("36-42", "b,b,b,42/b,b,b,b r - 2"),
        ("r6", "b,b,b,42/b,b,b,b r 6 3"),
        ("pass", "b,b,b,42/b,b,b,b y - 0"),
    ];
    for (token, expected) in steps {
        pos = ludo::play(&pos, token);
        assert_eq!(pos, expected, "after {token}");
    }
    // §1.10: b-0 is also legal at those 6s.
    assert_eq!(
        ludo::legal_tokens("b,b,b,30/b,b,b,b r 6 1"),
        strings(&["b-0", "30-36"])
    );
}

// =============================================================================================
// Ludo: rules the examples do not pin down.

#[test]
fn ludo_track_frames_and_home_column_safety() {
    // Yellow 20 → 24 is A50, where Red's 50 stands: captured, extra roll (§1.2, §1.6).
    assert_eq!(
        ludo::play("b,b,b,50/b,b,b,20 y 4 0", "20-24"),
        "b,b,b,b/b,b,b,24 y - 0"
    );
    // Yellow 24 → 25 is A51; Red's 51 is in its home column, never shared (§1.3).
    assert_eq!(
        ludo::play("b,b,b,51/b,b,b,24 y 1 0", "24-25"),
        "b,b,b,51/b,b,b,25 r - 0"
    );
    // Red 8 → 13 is Green's start square A13 (safe even unused); Yellow 39 is A13 too.
    assert_eq!(
        ludo::play("b,b,b,8/b,b,b,39 r 5 0", "8-13"),
        "b,b,b,13/b,b,b,39 y - 0"
    );
    // Red 10 → 12 is A12, not safe; Yellow 38 is A12: captured.
    assert_eq!(
        ludo::play("b,b,b,10/b,b,b,38 r 2 0", "10-12"),
        "b,b,b,12/b,b,b,b r - 0"
    );
    // A non-6 resets sixes even when its move captures and the turn goes on (§1.4, §1.6).
    let rolled = ludo::play("b,b,b,27/b,b,b,4 r - 1", "r3");
    assert_eq!(rolled, "b,b,b,27/b,b,b,4 r 3 0");
    assert_eq!(ludo::play(&rolled, "27-30"), "b,b,b,30/b,b,b,b r - 0");
}

#[test]
fn ludo_rejects_bad_position_strings() {
    assert!(ludo::check_position(LUDO_START).is_ok());
    assert!(ludo::check_position("b,b/3,b r - 0").is_err()); // unsorted
    for bad in [
        "b,b,b,b/b,b,b,b r 3 1",     // §1.10: a pending 3 with one six counted
        "b,b,b,b/b,b,b,b r 6 0",     // a pending 6 counts itself
        "b,b,b,b/b,b,b,b r - 3",     // the third 6 is pending, so never at a chance node
        "b,b,b,b/b,b,b,b g - 0",     // unknown side
        "b,b,b,b/b,b,b,b r 7 0",     // die 7
        "b,b,b,57/b,b,b,b r - 0",    // beyond the goal
        "b,b,b,07/b,b,b,b r - 0",    // leading zero
        "b,b,5,3/b,b,b,b r - 0",     // not ascending
        "b,b,b/b,b,b,b r - 0",       // piece counts differ
        "b,b,b,b,b/b,b,b,b,b r - 0", // 5 pieces
        "b,b,b,b/b,b,b,b r -",       // missing field
        "56,56/56,56 r - 0",         // both sides finished
    ] {
        assert!(
            ludo::check_position(bad).is_err(),
            "{bad:?} must be rejected"
        );
    }
    assert!(ludo::check_position("b,b/b,b r - 0").is_ok());
    assert!(ludo::check_position("56/b r 6 3").is_ok());
}

#[test]
fn ludo_piece_option_wins_with_fewer_pieces() {
    let won = ludo::play("55/b r 1 0", "55-56");
    assert_eq!(won, "56/b r - 0");
    assert_eq!(ludo::winner(&won), Some("red"));
    assert_eq!(ludo::winner("b,3/56,56 r - 0"), Some("yellow"));
    assert_eq!(ludo::winner("56,56,56/b,56,56 r - 0"), Some("red"));
}

// =============================================================================================
// Ludo: hand-derived perft.

/// Start: depth 1 = 6 rolls. Depth 2: each roll has one move (r1..r5 pass, r6 b-0) = 6.
/// Depth 3: five Yellow chance nodes + one Red chance node `b,b,b,0/... r - 1` = 36.
/// Depth 4: Yellow after j<6 passes, after 6 enters: 30 × 1; Red at 0 after k<6 has 0-k (1),
/// after 6 has b-0 and 0-6 (2): 5 + 2. Total 37. Depth 5: all 37 are chance nodes: 222.
/// Depth 6: 25 × `start r - 0` (6 rolls, 1 move each) = 150; 5 × Yellow at 0 with sixes 1
/// (0-j for j<6; b-0, 0-6 for 6) = 35; 5 × Yellow with everything in base = 30;
/// `b,b,0,0 r - 2` and `b,b,b,6 r - 2` (five k<6 moves, and the third 6 is a pass) = 6 + 6.
/// Total 227.
#[test]
fn ludo_start_perft_by_hand() {
    let expected = [1, 6, 6, 36, 37, 222, 227];
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(
            ludo::perft(LUDO_START, depth as u32),
            count,
            "depth {depth}"
        );
    }
}

/// One piece: as the start up to depth 3 (36); at depth 4 Red at 0 after a 6 has only 0-6
/// (no piece left in base), so 30 + 6 = 36, and depth 5 = 216. Two pieces: like four, 37.
#[test]
fn ludo_small_piece_counts_perft_by_hand() {
    let one = [1, 6, 6, 36, 36, 216];
    for (depth, &count) in one.iter().enumerate() {
        assert_eq!(
            ludo::perft("b/b r - 0", depth as u32),
            count,
            "depth {depth}"
        );
    }
    assert_eq!(ludo::perft("b,b/b,b r - 0", 4), 37);
}

/// Example 8 `b,b,b,53/...`: r1..r3 move the 53 (to 54 55 56), r4 and r5 pass, r6 offers only
/// b-0 (53 + 6 > 56). One move per roll: depth 2 = 6.
/// Example 11 `53,56,56,56/...`: r1 r2 move on, r3 wins (terminal), r4..r6 pass. Depth 3: the
/// five non-winning moves hand over to Yellow, who has 6 rolls: 30.
#[test]
fn ludo_goal_positions_perft_by_hand() {
    assert_eq!(ludo::perft("b,b,b,53/b,b,b,b r - 0", 2), 6);
    assert_eq!(ludo::perft("53,56,56,56/b,b,b,b r - 0", 2), 6);
    assert_eq!(ludo::perft("53,56,56,56/b,b,b,b r - 0", 3), 30);
}

// =============================================================================================
// Data files: re-computed by the references so they cannot drift.

const CHEAP_NODE_BUDGET: u64 = 200_000;

fn apo_block_count(block: &PerftBlock, depth: u32) -> u64 {
    let ds = match block.rule("DoubleStep", "true") {
        "true" => true,
        "false" => false,
        other => panic!("block {}: DoubleStep={other}", block.id),
    };
    assert!(
        block.rules.iter().all(|(k, _)| k == "DoubleStep"),
        "block {}",
        block.id
    );
    apo::perft(&block.pos, depth, ds)
}

fn ludo_block_count(block: &PerftBlock, depth: u32) -> u64 {
    let pieces = block.pos.split('/').next().unwrap_or("").split(',').count();
    assert_eq!(
        block.rule("Pieces", "4"),
        pieces.to_string(),
        "block {}",
        block.id
    );
    assert!(
        block.rules.iter().all(|(k, _)| k == "Pieces"),
        "block {}",
        block.id
    );
    ludo::perft(&block.pos, depth)
}

/// Checks every row of a data file whose slowness is `slow`; returns the nodes checked.
fn check_data_file(game: &str, slow: bool, count: fn(&PerftBlock, u32) -> u64) -> u64 {
    let blocks = perft_data::load(game);
    let mut nodes = 0;
    for block in &blocks {
        for row in block.rows.iter().filter(|r| r.slow == slow) {
            let got = count(block, row.depth);
            assert_eq!(
                got, row.count,
                "{} depth {} (line {})",
                block.id, row.depth, row.line
            );
            nodes += got;
        }
    }
    nodes
}

#[test]
fn data_files_cheap_rows_match_the_references() {
    let apo_nodes = check_data_file("apocalypse", false, apo_block_count);
    let ludo_nodes = check_data_file("ludo", false, ludo_block_count);
    assert!(apo_nodes > 0 && ludo_nodes > 0);
    assert!(
        apo_nodes + ludo_nodes <= CHEAP_NODE_BUDGET,
        "cheap rows hold {} nodes; mark more rows `# slow`",
        apo_nodes + ludo_nodes
    );
}

#[test]
#[ignore = "slow: run with cargo test --release -- --ignored"]
fn data_files_slow_rows_match_the_references() {
    check_data_file("apocalypse", true, apo_block_count);
    check_data_file("ludo", true, ludo_block_count);
}
