//! Synthetic files for what the corpus lacks (it is all LF, two-space,
//! BOM-free): line endings, byte-order marks, indentation, final newlines,
//! one-line and minified files, empty containers, blank lines, non-ASCII
//! text and escapes, deep nesting. Each is placed at every agent's path:
//! install then destroy is exact, a second apply changes nothing, a user's
//! edit survives, and the new text follows the file's own style.

use crate::common::{install_destroy_exact, user_edit_survives};

const TARGETS: [&str; 3] = [
    ".claude/settings.json",
    ".codex/hooks.json",
    ".cursor/hooks.json",
];

/// Every empty event array coffer may fill, for each agent's event names.
const EMPTY_EVENTS: &str = r#""SessionStart": [], "sessionStart": [], "Stop": [ ], "stop": [
  ], "PreToolUse": [], "preToolUse": []"#;

fn fixtures() -> Vec<(&'static str, String)> {
    let deep = 100_000;
    vec![
        ("crlf", "{\r\n  \"a\": 1,\r\n  \"hooks\": {\r\n    \"Stop\": []\r\n  }\r\n}\r\n".into()),
        ("crlf without final newline", "{\r\n  \"a\": [\r\n    1\r\n  ]\r\n}".into()),
        ("mixed line endings", "{\r\n  \"a\": 1,\n  \"b\": 2\r\n}\n".into()),
        ("an LF before the last brace of a CRLF file", "{\r\n  \"a\": 1\n}\r\n".into()),
        ("an empty object with mixed line breaks", "\r\n{\n\r\n    }\r\n".into()),
        ("bom", "\u{feff}{\n  \"a\": 1\n}\n".into()),
        ("bom with crlf", "\u{feff}{\r\n\t\"a\": 1\r\n}\r\n".into()),
        ("bom and empty object", "\u{feff}{}".into()),
        ("tabs", "{\n\t\"a\": {\n\t\t\"b\": [1, 2]\n\t}\n}\n".into()),
        ("four spaces", "{\n    \"a\": {\n        \"b\": true\n    }\n}\n".into()),
        ("no final newline", "{\n  \"a\": 1\n}".into()),
        ("two final newlines", "{\n  \"a\": 1\n}\n\n".into()),
        ("empty object", "{}\n".into()),
        ("empty object without newline", "{}".into()),
        ("empty object with a space", "{ }".into()),
        ("empty object on two lines", "{\n}\n".into()),
        ("empty object with a blank line", "{\n\n}".into()),
        ("space around the document", "\n  {}  \n\n".into()),
        ("one line", "{\"a\": 1}".into()),
        ("one line with newline", "{\"a\": 1}\n".into()),
        ("one line without spaces", "{\"a\":1,\"b\":\"x\"}".into()),
        ("minified", "{\"a\":1,\"b\":[1,2,{\"c\":null}],\"d\":{\"e\":{}},\"f\":-1.5e3}".into()),
        ("empty hooks", "{\n  \"hooks\": {}\n}\n".into()),
        ("empty hooks with a space", "{\n  \"a\": 1,\n  \"hooks\": { }\n}\n".into()),
        ("empty hooks on two lines", "{\n  \"hooks\": {\n  }\n}\n".into()),
        ("empty hooks one line", "{\"hooks\": {}}".into()),
        ("empty event arrays", format!("{{\n  \"hooks\": {{\n    {EMPTY_EVENTS}\n  }}\n}}\n")),
        ("empty event arrays one line", format!("{{\"hooks\": {{{}}}}}", EMPTY_EVENTS.replace('\n', ""))),
        ("hooks on one line in a multi-line file", "{\n  \"a\": 1,\n  \"hooks\": {\"Stop\": [{\"command\": \"x\"}], \"stop\": [{\"command\": \"x\"}]}\n}\n".into()),
        ("hooks on the first line", "{\"hooks\": {\n  \"Stop\": []\n}}".into()),
        (
            "blank lines between members",
            "{\n  \"a\": 1,\n\n  \"b\": 2,\n\n  \"hooks\": {\n\n    \"Stop\": [\n\n      {\"command\": \"x\"}\n\n    ]\n\n  }\n\n}\n".into(),
        ),
        ("trailing spaces", "{  \n  \"a\": 1,   \n  \"b\": [ 1 ]  \n}  \n".into()),
        ("closing brace after the last member", "{\n  \"a\": 1}\n".into()),
        ("two members on a line", "{\n  \"a\": 1, \"b\": 2\n}\n".into()),
        ("comma first", "{ \"a\": 1\n, \"b\": 2\n}\n".into()),
        (
            "non-ascii and escapes",
            "{\n  \"名前\": \"café ☕ \\u00e9\\ud83d\\ude00\",\n  \"emoji😀\": \"\\\"\\\\\\/\\b\\f\\n\\r\\t\",\n  \"ключ\": [\"ü\", \"\\u0000\"]\n}\n".into(),
        ),
        ("hooks key written with an escape", "{\n  \"ho\\u006fks\": {\n    \"Stop\": []\n  }\n}\n".into()),
        (
            "deep nesting beside the hooks",
            format!("{{\n  \"deep\": {}{},\n  \"a\": 1\n}}\n", "[".repeat(deep), "]".repeat(deep)),
        ),
        (
            "deep nesting inside an event array",
            format!("{{\"hooks\": {{\"Stop\": [{}{}], \"stop\": [{}{}]}}}}", "[".repeat(deep), "]".repeat(deep), "[".repeat(deep), "]".repeat(deep)),
        ),
    ]
}

#[test]
fn every_fixture_is_exact_at_every_agent_path() {
    let mut failures = Vec::new();
    let mut exact = 0;
    let fixtures = fixtures();
    for (name, text) in &fixtures {
        for rel in TARGETS {
            let bytes = text.as_bytes();
            let result = install_destroy_exact(rel, bytes).and_then(|installed| {
                follows_style(text, &String::from_utf8(installed).unwrap())?;
                if has_a_member(text) {
                    user_edit_survives(rel, bytes)
                } else {
                    Ok(())
                }
            });
            match result {
                Ok(()) => exact += 1,
                Err(e) => failures.push(format!("{name} at ~/{rel}: {e}")),
            }
        }
    }
    eprintln!(
        "synthetic fixtures: {exact}/{} exact ({} files × {} agent paths)",
        fixtures.len() * TARGETS.len(),
        fixtures.len(),
        TARGETS.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

fn has_a_member(text: &str) -> bool {
    text.contains('"')
}

/// The lines coffer added look like the file's: its BOM, line endings,
/// final newline and indentation (the character its indented lines use,
/// in multiples of its smallest indentation; two spaces in a file with
/// none).
pub fn follows_style(original: &str, installed: &str) -> Result<(), String> {
    let fail = |what: &str| Err(format!("{what}:\n{}", installed.escape_debug()));
    if original.starts_with('\u{feff}') != installed.starts_with('\u{feff}') {
        return fail("the BOM changed");
    }
    if original.ends_with('\n') != installed.ends_with('\n') {
        return fail("the final newline changed");
    }
    let crlf = original.matches("\r\n").count();
    let lf = original.matches('\n').count();
    if crlf == lf
        && crlf > 0
        && installed.matches("\r\n").count() != installed.matches('\n').count()
    {
        return fail("a bare LF in a CRLF file");
    }
    if crlf == 0 && installed.contains('\r') {
        return fail("a CR in an LF file");
    }
    let indent = |l: &str| l.len() - l.trim_start_matches([' ', '\t']).len();
    let indents: Vec<&str> = original
        .lines()
        .filter(|l| indent(l) > 0 && !l.trim().is_empty())
        .map(|l| &l[..indent(l)])
        .collect();
    let (unit_char, unit_len) = match indents.iter().min_by_key(|i| i.len()) {
        Some(i) => (i.as_bytes()[0], i.len()),
        None => (b' ', 2),
    };
    let old: std::collections::HashSet<&str> = original.lines().collect();
    for line in installed.lines().filter(|l| !old.contains(l)) {
        let ws = &line.as_bytes()[..indent(line)];
        if ws.iter().any(|b| *b != unit_char) || ws.len() % unit_len != 0 {
            return fail(&format!("a new line indented unlike the file: {line:?}"));
        }
    }
    Ok(())
}

/// What only JSONC allows: each built-in agent reads its hooks file as
/// strict JSON (the registry's `syntax: json`), so each is refused there,
/// pointing at the comment or comma, and the file stays as it was. The
/// same texts are accepted where the target is JSONC (jsonc.rs).
pub const JSONC_ONLY: [(&str, &str); 4] = [
    ("a line comment", "{\n  // mine\n  \"a\": 1\n}\n"),
    ("a block comment", "{\n  \"a\": 1 /* mine */\n}\n"),
    ("a trailing comma", "{\n  \"a\": [1, 2,],\n}\n"),
    ("a comment before the object", "// settings\n{}\n"),
];

#[test]
fn strict_targets_refuse_comments_and_trailing_commas() {
    use coffer::engine::Mode;
    use coffer::error::Error;

    use crate::common::{MemHome, agent_for, desired_for};
    for rel in TARGETS {
        for (what, text) in JSONC_ONLY {
            let home = MemHome::new();
            home.put(rel, text.as_bytes());
            let err = home
                .plan(&desired_for(agent_for(rel)), Mode::Apply)
                .expect_err(what);
            let Error::Target(located) = err else {
                panic!("{what} at ~/{rel}: {err}")
            };
            assert!(
                located.message.starts_with(&format!("~/{rel}:")),
                "{}",
                located.message
            );
            let help = located.help.as_deref().unwrap_or_default();
            assert!(help.contains("strict JSON"), "{what} at ~/{rel}: {help}");
            assert_eq!(home.read(rel).unwrap(), text.as_bytes());
        }
    }
}

#[test]
fn the_style_check_is_not_vacuous() {
    let tabs = "{\n\t\"a\": 1\n}\n";
    assert!(follows_style(tabs, "{\n\t\"a\": 1,\n\t\"b\": 2\n}\n").is_ok());
    assert!(follows_style(tabs, "{\n\t\"a\": 1,\n  \"b\": 2\n}\n").is_err());
    assert!(follows_style(tabs, "{\n\t\"a\": 1\n}").is_err());
    assert!(follows_style("{\r\n}\r\n", "{\r\n  \"b\": 2\n}\r\n").is_err());
    assert!(
        follows_style(
            "{\n    \"a\": 1\n}",
            "{\n    \"a\": {\n      \"b\": 2\n    }\n}"
        )
        .is_err()
    );
}
