use std::process::ExitCode;

use clap::Parser;

/// The shipped binary is linked against musl (scripts/build-dist.sh), whose
/// own allocator cost a five-agent plan 70 more page faults and 0.8 ms of CPU
/// over dlmalloc, which is written in Rust and needs no C toolchain.
#[cfg(target_env = "musl")]
#[global_allocator]
static ALLOCATOR: dlmalloc::GlobalDlmalloc = dlmalloc::GlobalDlmalloc;

fn main() -> ExitCode {
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if coffer::hook::is_hook_invocation(&args) {
        return ExitCode::from(coffer::hook::main(&args[2..]));
    }
    let cli = match coffer::cli::Cli::try_parse_from(&args) {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            // Usage errors are errors: exit 1, never clap's 2, which means
            // "changes pending" to `plan --detailed-exitcode` users.
            return ExitCode::from(if e.use_stderr() { 1 } else { 0 });
        }
    };
    ExitCode::from(coffer::cli::run(cli).exit_code())
}
