//! SIGINT and SIGTERM for `quartet match`: the first one asks the match to stop (the
//! runner reads the signal's number and stops starting games), a second one exits at once.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize};

/// Installs the handlers: SIGINT and SIGTERM store their number in `interrupt` (read by
/// [`crate::runner::run`] through its configuration); a second such signal exits the
/// process at once with 128 + its number. Fails only when a handler cannot be installed.
pub fn install_handlers(interrupt: &Arc<AtomicUsize>) -> Result<(), String> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    use signal_hook::flag;
    let again = Arc::new(AtomicBool::new(false));
    for signal in [SIGINT, SIGTERM] {
        let code = 128 + signal;
        flag::register_conditional_shutdown(signal, code, Arc::clone(&again))
            .and_then(|_| flag::register(signal, Arc::clone(&again)))
            .and_then(|_| flag::register_usize(signal, Arc::clone(interrupt), signal as usize))
            .map_err(|e| format!("cannot handle signal {signal}: {e}"))?;
    }
    Ok(())
}
