//! What the agent tells the hook: standard input at prompt events, and the
//! working directory.
//!
//! Standard input is read only at prompt events, and then with a size and a
//! time bound: an agent that leaves it open, or a prompt of a gigabyte,
//! must not stall the turn. At session start it is never touched (see
//! DESIGN.md, "Hook runtime").

use std::io::Read;
use std::path::PathBuf;
use std::sync::mpsc;
use std::time::Duration;

use serde_json::Value;

/// The fields coffer uses from an agent's hook input. Agents name them
/// differently; the first name present wins.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Input {
    pub session_id: Option<String>,
    pub cwd: Option<PathBuf>,
    pub prompt: Option<String>,
    /// Hermes says whether this is the first turn (`extra.is_first_turn`).
    pub first_turn: Option<bool>,
}

/// Longest session id coffer keys state by; anything longer is ignored.
const MAX_SESSION_ID: usize = 256;

/// Read standard input to its end, unless it is larger than `max` bytes or
/// still open after `timeout`. The reading thread is left behind on a
/// timeout; the process exits soon after and takes it along.
pub fn read_stdin(max: u64, timeout: Duration) -> Option<Vec<u8>> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut buf = Vec::new();
        let res = std::io::stdin().lock().take(max + 1).read_to_end(&mut buf);
        let _ = tx.send(res.ok().map(|_| buf));
    });
    rx.recv_timeout(timeout)
        .ok()
        .flatten()
        .filter(|b| b.len() as u64 <= max)
}

/// The fields of a hook input document. Anything unreadable is no input.
pub fn parse(bytes: &[u8]) -> Input {
    let Ok(v) = serde_json::from_slice::<Value>(bytes) else {
        return Input::default();
    };
    let text = |ptrs: &[&str]| {
        ptrs.iter()
            .find_map(|p| v.pointer(p).and_then(Value::as_str))
            .map(str::to_owned)
    };
    Input {
        // Claude, Codex, Gemini, Hermes, Cursor: session_id; VS Code:
        // sessionId; older Cursor builds: conversation_id.
        session_id: text(&["/session_id", "/sessionId", "/conversation_id"])
            .filter(|s| !s.is_empty() && s.len() <= MAX_SESSION_ID),
        // Cursor sends workspace_roots instead of cwd.
        cwd: text(&["/cwd", "/workspace_roots/0"]).map(PathBuf::from),
        prompt: text(&["/prompt", "/extra/user_message"]),
        first_turn: v.pointer("/extra/is_first_turn").and_then(Value::as_bool),
    }
}

/// The working directory to tell providers: the agent's, else the
/// process's, and none at all when that folder no longer exists — a
/// provider told an empty or vanished folder would look in the wrong place.
pub fn resolve_cwd(reported: Option<PathBuf>) -> Option<PathBuf> {
    reported
        .filter(|p| p.is_absolute() && p.is_dir())
        .or_else(|| std::env::current_dir().ok().filter(|p| p.is_dir()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_come_from_each_agents_names() {
        let i = parse(br#"{"session_id":"s1","cwd":"/w","prompt":"hi"}"#);
        assert_eq!(i.session_id.as_deref(), Some("s1"));
        assert_eq!(i.cwd, Some(PathBuf::from("/w")));
        assert_eq!(i.prompt.as_deref(), Some("hi"));
        let i = parse(br#"{"conversation_id":"c","workspace_roots":["/r"]}"#);
        assert_eq!(
            (i.session_id.as_deref(), i.cwd),
            (Some("c"), Some("/r".into()))
        );
        let i = parse(br#"{"session_id":"h","extra":{"is_first_turn":true,"user_message":"q"}}"#);
        assert_eq!((i.first_turn, i.prompt.as_deref()), (Some(true), Some("q")));
        assert_eq!(parse(b"not json"), Input::default());
        let long = format!(r#"{{"session_id":"{}"}}"#, "x".repeat(MAX_SESSION_ID + 1));
        assert_eq!(parse(long.as_bytes()).session_id, None);
    }

    #[test]
    fn a_vanished_reported_cwd_is_not_used() {
        let gone = std::env::temp_dir().join("coffer-no-such-folder-7f3a");
        assert_ne!(resolve_cwd(Some(gone.clone())), Some(gone));
    }
}
