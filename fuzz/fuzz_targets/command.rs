//! The protocol's command parser must never panic, whatever the line.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let line = String::from_utf8_lossy(data);
    let _ = quartet_protocol::parse::parse_command(&line);
});
