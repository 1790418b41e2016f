//! The program installed hooks run: `coffer hook --dialect D --event E`.
//!
//! For now a stub: it reads nothing, prints nothing and exits 0, so that an
//! installed hook never disturbs its agent. It is dispatched before the
//! argument parser so that no mistake in its arguments can print an error
//! into an agent's session.

use std::ffi::OsString;

/// Whether the command line is a hook invocation (and not a request for
/// its help text).
pub fn is_hook_invocation(args: &[OsString]) -> bool {
    args.get(1).is_some_and(|a| a == "hook")
        && !args[2..].iter().any(|a| a == "--help" || a == "-h")
}

/// Run the hook. Always succeeds.
pub fn main(_args: &[OsString]) -> u8 {
    0
}
