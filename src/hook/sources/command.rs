//! Provider programs: the request on stdin, a result on stdout, within a
//! time and a size limit.
//!
//! The provider runs in its own process group so that a timeout or an
//! oversized answer kills everything it started, not just the first
//! process: a shell script's `sleep` would otherwise hold the pipe open.
//! Its stderr goes nowhere — it is not the agent's to read, and it may
//! hold context.

use std::io::{Read, Write};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use super::{Got, from_result};
use crate::hook::protocol::Status;

pub(super) fn run(
    argv: &[String],
    request: &[u8],
    cwd: Option<&Path>,
    timeout: Duration,
    max: u64,
) -> Got {
    let deadline = Instant::now() + timeout;
    let Some((program, args)) = argv.split_first() else {
        return Got::failed(Status::SpawnFailed);
    };
    let mut cmd = Command::new(program);
    cmd.args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .process_group(0);
    if let Some(dir) = cwd {
        cmd.current_dir(dir);
    }
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Got::failed(Status::NotFound);
        }
        Err(_) => return Got::failed(Status::SpawnFailed),
    };
    // Write from a thread: a provider that never reads stdin must not block
    // the hook once the pipe buffer is full. Dropping the pipe is its EOF.
    if let Some(mut stdin) = child.stdin.take() {
        let request = request.to_vec();
        std::thread::spawn(move || {
            let _ = stdin.write_all(&request);
        });
    }
    let Some(stdout) = child.stdout.take() else {
        kill(&mut child);
        return Got::failed(Status::SpawnFailed);
    };
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let res = stdout.take(max + 1).read_to_end(&mut buf);
        let _ = tx.send(res.map(|_| buf));
    });
    let out = match rx.recv_timeout(deadline.saturating_duration_since(Instant::now())) {
        Ok(Ok(buf)) if buf.len() as u64 > max => {
            kill(&mut child);
            return Got::failed(Status::Oversized);
        }
        Ok(Ok(buf)) => buf,
        Ok(Err(_)) => {
            kill(&mut child);
            return Got::failed(Status::ReadFailed);
        }
        Err(_) => {
            kill(&mut child);
            return Got::failed(Status::Timeout);
        }
    };
    // stdout is closed; the exit usually follows at once.
    let mut pause = Duration::from_micros(50);
    let status = loop {
        match child.try_wait() {
            Ok(Some(s)) => break s,
            Ok(None) if Instant::now() < deadline => {
                std::thread::sleep(pause);
                pause = (pause * 2).min(Duration::from_millis(5));
            }
            _ => {
                kill(&mut child);
                return Got::failed(Status::Timeout);
            }
        }
    };
    if status.signal().is_some() {
        return Got::failed(Status::Signal);
    }
    if !status.success() {
        return Got::failed(Status::ExitNonzero);
    }
    from_result(&out)
}

/// Kill the provider's whole process group, then reap the provider.
fn kill(child: &mut Child) {
    if let Ok(pid) = libc::pid_t::try_from(child.id()) {
        // SAFETY: kill(2) with a negative pid signals that process group;
        // the group is the provider's own (process_group(0) above) and the
        // provider is not yet reaped, so its id cannot have been reused.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
}
