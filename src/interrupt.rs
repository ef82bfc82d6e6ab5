//! Ctrl-C during a computation: it cancels the question (which ends with a diagnostic and what
//! it has) instead of killing the process mid-line.

use takeaway_core::CancelToken;

/// Sets `cancel` when Ctrl-C arrives. The handler only sets the token's flag, so it needs no
/// thread of its own: a thread would add its start to every short run of the command.
pub fn cancel_on_ctrl_c(cancel: &CancelToken) {
    // Registration fails only for signals that may not be caught; SIGINT may. If it ever did
    // fail, Ctrl-C would still end the process, as it does for any program.
    let _ = signal_hook::flag::register(signal_hook::consts::SIGINT, cancel.flag());
}
