//! Recognising what is coffer's by its content.
//!
//! A hook entry is coffer's when its command, split with shell rules, starts
//! with the hook program's words, the first compared by file name (so
//! `/usr/local/bin/coffer hook` is recognised as `coffer hook`). coffer
//! quotes everything it writes, so a command that cannot be split is by
//! definition someone else's, never an error.

use std::path::Path;

use serde_json::Value;

use crate::resource::HookShape;

/// Whether `command` runs the hook program `program`.
pub fn runs_program(command: &str, program: &[String]) -> bool {
    let Some(words) = shlex::split(command) else {
        return false;
    };
    let Some((first, rest)) = program.split_first() else {
        return false;
    };
    words.len() >= program.len()
        && file_name(&words[0]) == file_name(first)
        && words[1..program.len()] == *rest
}

fn file_name(word: &str) -> &str {
    Path::new(word)
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or(word)
}

/// Whether a hook entry (an element of an event array) is wholly coffer's.
pub fn owns_hook_entry(entry: &Value, shape: HookShape, program: &[String]) -> bool {
    let runs = |handler: &Value| {
        handler
            .get("command")
            .and_then(Value::as_str)
            .is_some_and(|c| runs_program(c, program))
    };
    match shape {
        HookShape::Flat => runs(entry),
        HookShape::MatcherGroups => entry
            .get("hooks")
            .and_then(Value::as_array)
            .is_some_and(|hs| !hs.is_empty() && hs.iter().all(runs)),
    }
}

/// A cheap test that rules out entries that cannot be coffer's without
/// parsing them: the program's file name must appear in the text (or the
/// text must use `\u` escapes, which could spell it).
pub fn may_own_text(text: &str, program: &[String]) -> bool {
    let Some(first) = program.first() else {
        return false;
    };
    memchr::memmem::find(text.as_bytes(), file_name(first).as_bytes()).is_some()
        || memchr::memmem::find(text.as_bytes(), b"\\u").is_some()
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn prog() -> Vec<String> {
        vec!["coffer".into(), "hook".into()]
    }

    #[test]
    fn recognises_by_program_file_name() {
        assert!(runs_program("coffer hook --event X", &prog()));
        assert!(runs_program("/usr/local/bin/coffer hook", &prog()));
        assert!(runs_program(
            "'/opt/my dir/coffer' hook --dialect claude",
            &prog()
        ));
        assert!(!runs_program("coffer mcp", &prog()));
        assert!(!runs_program("notcoffer hook", &prog()));
        assert!(!runs_program("echo coffer hook", &prog()));
        assert!(!runs_program("coffer hook 'unbalanced", &prog()));
    }

    #[test]
    fn groups_are_coffers_only_when_every_handler_is() {
        let mine = json!({"hooks": [{"type": "command", "command": "coffer hook"}]});
        let mixed = json!({"hooks": [{"command": "coffer hook"}, {"command": "other"}]});
        assert!(owns_hook_entry(&mine, HookShape::MatcherGroups, &prog()));
        assert!(!owns_hook_entry(&mixed, HookShape::MatcherGroups, &prog()));
        assert!(owns_hook_entry(
            &json!({"command": "coffer hook"}),
            HookShape::Flat,
            &prog()
        ));
        assert!(!owns_hook_entry(
            &json!({"prompt": "x"}),
            HookShape::Flat,
            &prog()
        ));
    }
}
