//! JSONTestSuite (../shared/conformance/json-test-suite) against a strict
//! JSON target, `~/.claude/settings.json`:
//!
//! - every `n_` file is refused: exit 1, a message naming the file and the
//!   position, and the file left as it was (deep nesting included: an
//!   error, never a stack overflow);
//! - every `y_` file whose top level is an object survives install and
//!   destroy byte for byte; any other `y_` file is refused cleanly;
//! - no `i_` file crashes coffer or leaves a partial write; each either
//!   round-trips exactly or is refused like an `n_` file.
//!
//! The bulk runs through the engine's library API on an in-memory file
//! system; the exit code and the printed message are checked through the
//! binary for every `n_` file, since that is what users see.

use std::path::PathBuf;

use coffer::engine::Mode;
use coffer::error::Error;

use crate::common::{MemHome, TestEnv, desired_for, install_destroy_exact, shared};

const TARGET: &str = ".claude/settings.json";

/// The suite's files with the given prefix, sorted.
fn suite(prefix: &str) -> Option<Vec<(String, Vec<u8>)>> {
    let dir: PathBuf = shared()?.join("conformance/json-test-suite/test_parsing");
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(&dir)
        .expect("the JSONTestSuite folder")
        .flatten()
        .map(|e| e.file_name().into_string().unwrap())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".json"))
        .map(|n| {
            let bytes = std::fs::read(dir.join(&n)).unwrap();
            (n, bytes)
        })
        .collect();
    out.sort();
    Some(out)
}

/// Plan an apply of coffer's hooks into `bytes`; `Ok` when coffer would
/// edit the file, the refusal's message otherwise. Refusals must be
/// user errors that point into the file, and plan must not write.
fn refusal(bytes: &[u8]) -> Result<(), String> {
    let home = MemHome::new();
    home.put(TARGET, bytes);
    let result = home.plan(&desired_for("claude-code"), Mode::Apply);
    assert_eq!(home.read(TARGET).unwrap(), bytes, "plan wrote the file");
    match result {
        Ok(_) => Ok(()),
        Err(Error::Target(located)) => Err(located.message.clone()),
        Err(other) => panic!("not a refusal that points into the file: {other}"),
    }
}

/// `~/.claude/settings.json:LINE:COL: …`
fn names_file_and_position(message: &str) -> bool {
    let Some(rest) = message.strip_prefix(&format!("~/{TARGET}:")) else {
        return false;
    };
    let mut parts = rest.splitn(3, ':');
    let line = parts.next().and_then(|l| l.parse::<usize>().ok());
    let col = parts.next().and_then(|c| c.parse::<usize>().ok());
    matches!((line, col), (Some(l), Some(c)) if l >= 1 && c >= 1) && parts.next().is_some()
}

#[test]
fn every_n_file_is_refused_with_its_position() {
    let Some(files) = suite("n_") else { return };
    assert_eq!(files.len(), 188, "the suite changed");
    let mut accepted = Vec::new();
    for (name, bytes) in &files {
        match refusal(bytes) {
            Ok(()) => accepted.push(name.clone()),
            Err(message) => assert!(
                names_file_and_position(&message),
                "{name}: the message does not name the file and position: {message}"
            ),
        }
    }
    eprintln!(
        "JSONTestSuite n_: {}/{} refused",
        files.len() - accepted.len(),
        files.len()
    );
    assert!(accepted.is_empty(), "accepted invalid JSON: {accepted:?}");
}

#[test]
fn every_y_object_round_trips_and_other_y_files_are_refused() {
    let Some(files) = suite("y_") else { return };
    assert_eq!(files.len(), 95, "the suite changed");
    let (mut exact, mut refused, mut failures) = (0, 0, Vec::new());
    for (name, bytes) in &files {
        let is_object = serde_json::from_slice::<serde_json::Value>(bytes)
            .expect("serde_json accepts every y_ file")
            .is_object();
        if is_object {
            match install_destroy_exact(TARGET, bytes) {
                Ok(_) => exact += 1,
                Err(e) => failures.push(format!("{name}: {e}")),
            }
        } else {
            match refusal(bytes) {
                Err(m) if m.contains("top level is not an object") => refused += 1,
                other => failures.push(format!("{name}: not refused as a non-object: {other:?}")),
            }
        }
    }
    eprintln!(
        "JSONTestSuite y_: {exact} objects exact, {refused} non-objects refused, of {}",
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// The suite's value inside an object, so that it reaches the places
/// coffer scans and splices around instead of being refused at the top.
fn wrapped(bytes: &[u8]) -> Vec<u8> {
    let mut out = b"{\"v\": ".to_vec();
    out.extend_from_slice(bytes);
    out.extend_from_slice(b"}\n");
    out
}

#[test]
fn every_y_value_inside_an_object_round_trips() {
    let Some(files) = suite("y_") else { return };
    let failures: Vec<String> = files
        .iter()
        .filter_map(|(name, bytes)| {
            install_destroy_exact(TARGET, &wrapped(bytes))
                .err()
                .map(|e| format!("{name}: {e}"))
        })
        .collect();
    eprintln!(
        "JSONTestSuite y_ wrapped in an object: {}/{} exact",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

/// How coffer treated an `i_` file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Outcome {
    Exact,
    NotUtf8,
    NotAnObject,
    Invalid,
}

/// Each `i_` file as it is and wrapped in an object: accepted and exact,
/// or refused with the file and position, never anything else.
#[test]
fn no_i_file_crashes_or_is_half_written() {
    let Some(files) = suite("i_") else { return };
    assert_eq!(files.len(), 35, "the suite changed");
    let mut outcomes: std::collections::BTreeMap<(bool, Outcome), Vec<&str>> = Default::default();
    for (name, bytes) in &files {
        for (is_wrapped, bytes) in [(false, bytes.clone()), (true, wrapped(bytes))] {
            let outcome = match refusal(&bytes) {
                Ok(()) => {
                    install_destroy_exact(TARGET, &bytes)
                        .unwrap_or_else(|e| panic!("{name} was accepted but is not exact: {e}"));
                    Outcome::Exact
                }
                Err(message) => {
                    assert!(names_file_and_position(&message), "{name}: {message}");
                    if message.contains("not valid UTF-8") {
                        Outcome::NotUtf8
                    } else if message.contains("top level is not an object") {
                        Outcome::NotAnObject
                    } else {
                        Outcome::Invalid
                    }
                }
            };
            outcomes
                .entry((is_wrapped, outcome))
                .or_default()
                .push(name);
        }
    }
    for ((is_wrapped, outcome), names) in &outcomes {
        let how = if *is_wrapped {
            "wrapped in an object"
        } else {
            "as is"
        };
        eprintln!(
            "JSONTestSuite i_ {how}: {outcome:?} {}: {names:?}",
            names.len()
        );
    }
    // The decisions, kept: a BOM is accepted (and kept) at the start of a
    // file, never inside; lone surrogate escapes, huge numbers and deep
    // nesting are valid JSON and edited like any other; anything that is
    // not UTF-8 is refused. Only the non-objects are refused as they are.
    let count = |wrapped, o| outcomes.get(&(wrapped, o)).map_or(0, Vec::len);
    assert_eq!(
        [
            count(false, Outcome::Exact),
            count(false, Outcome::NotUtf8),
            count(false, Outcome::NotAnObject),
            count(false, Outcome::Invalid),
        ],
        [2, 13, 20, 0]
    );
    assert_eq!(
        [
            count(true, Outcome::Exact),
            count(true, Outcome::NotUtf8),
            count(true, Outcome::NotAnObject),
            count(true, Outcome::Invalid),
        ],
        [21, 13, 0, 1]
    );
}

/// What users see: for every `n_` file, `coffer apply` exits 1, prints the
/// file and position, and writes nothing (not even the ledger).
#[test]
fn apply_refuses_every_n_file_through_the_binary() {
    let Some(files) = suite("n_") else { return };
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  claude-code:\n    context: {}\n");
    for (name, bytes) in &files {
        env.put(TARGET, bytes);
        let before = env.tree();
        let r = env.run(&["apply", "--auto-approve"]);
        assert_eq!(r.code, 1, "{name}:\n{}", r.snapshot());
        assert!(
            r.stderr.lines().any(names_file_and_position_in_report),
            "{name}: no `~/{TARGET}:LINE:COL:` in\n{}",
            r.stderr
        );
        assert_eq!(env.tree(), before, "{name}: something was written");
        // A snippet of a huge line (100,000 brackets) would flood the
        // terminal; such lines are left out.
        let longest = r.stderr.lines().map(|l| l.chars().count()).max();
        assert!(longest < Some(500), "{name}: a {longest:?}-character line");
    }
}

/// A line of a report holding `~/.claude/settings.json:LINE:COL: …`.
fn names_file_and_position_in_report(line: &str) -> bool {
    line.find(&format!("~/{TARGET}:"))
        .is_some_and(|at| names_file_and_position(&line[at..]))
}

/// The binary on every `i_` file: apply either succeeds (and destroy gives
/// the bytes back) or exits 1 having written nothing; never a crash.
#[test]
fn the_binary_never_crashes_on_an_i_file() {
    let Some(files) = suite("i_") else { return };
    let env = TestEnv::new();
    env.desired("version: 1\nagents:\n  claude-code:\n    context: {}\n");
    for (name, bytes) in &files {
        env.put(TARGET, bytes);
        let before = env.tree();
        let r = env.run(&["apply", "--auto-approve"]);
        match r.code {
            0 => {
                env.destroy();
                assert_eq!(env.read(TARGET).unwrap(), *bytes, "{name}");
            }
            1 => assert_eq!(env.tree(), before, "{name}: something was written"),
            _ => panic!("{name}:\n{}", r.snapshot()),
        }
    }
}
