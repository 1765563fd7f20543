//! The integration tests, one binary (as ripgrep has): each file of tests/ is a module of it,
//! so the library crates are linked once, and the helpers in `common`, `support`,
//! `reference` and `reference_sim` are shared.

mod common;
mod reference;
mod reference_sim;
#[path = "fixtures/referee/support.rs"]
mod support;

mod architecture;
mod bench_signature;
mod cli_games;
mod cli_shell;
mod cli_solve;
mod doc_commands;
mod doc_examples;
mod fuzz_regressions;
#[cfg(feature = "gui")]
mod gui_hostile;
mod hardening;
mod history;
mod invariants;
mod ludo_strength;
mod network_training;
mod never_loses_at_once;
mod nnue_options;
mod perft;
mod playthroughs;
mod protocol;
mod protocol_clients;
mod protocol_during_search;
mod protocol_kinds;
mod protocol_queries;
mod protocol_reader_latency;
mod protocol_review;
mod protocol_rnb_together;
mod protocol_skill;
mod readme;
mod referee_adjudication;
mod referee_books;
mod referee_dice;
mod referee_long;
mod referee_match;
mod referee_real;
mod referee_records;
mod referee_resume;
mod referee_shards;
mod referee_simultaneous;
mod referee_tournament;
mod reference_alternating;
mod reference_chance_sim;
mod replay_records;
mod review_command;
mod rnb_setup_strength;
mod selfplay_merge;
mod simultaneous_exact;
mod skill_levels;
