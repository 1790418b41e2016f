//! Tests of the splice editor: each insertion and its removal, byte for byte.
use super::*;
use serde_json::json;

fn doc(t: &str, jsonc: bool) -> JsonDoc {
    super::super::validate::validate(t, jsonc).unwrap();
    JsonDoc::new(t.to_owned(), jsonc).unwrap()
}

fn path(p: &[&str]) -> Vec<String> {
    p.iter().map(|s| s.to_string()).collect()
}

/// Insert then remove must give back the bytes.
fn round_trip(original: &str, jsonc: bool, at: &[&str], expect_after: &str) {
    let mut d = doc(original, jsonc);
    let ins = d
        .append_to_array(&path(at), &json!({"command": "x"}))
        .unwrap();
    assert_eq!(d.text, expect_after, "after insert");
    super::super::validate::validate(&d.text, jsonc).unwrap();
    let mut d = JsonDoc::new(d.text, jsonc).unwrap();
    // Undo: remove created paths deepest first, or the element itself.
    if let Some(first) = ins.created.first() {
        let parent = &first[..first.len() - 1];
        let c = d.container(parent, true).unwrap().unwrap();
        let (i, _) = c.member(first.last().unwrap()).unwrap();
        d.remove_item(parent, true, i).unwrap();
    } else {
        let c = d.container(&path(at), false).unwrap().unwrap();
        d.remove_item(&path(at), false, c.items.len() - 1).unwrap();
    }
    if let Some(e) = ins.expanded {
        d.set_inner(&e.path, e.is_object, &e.inner).unwrap();
    }
    assert_eq!(d.text, original, "after removal");
}

#[test]
fn multiline_object_gains_a_member_on_its_own_line() {
    round_trip(
        "{\n  \"a\": 1\n}\n",
        false,
        &["hooks", "E"],
        "{\n  \"a\": 1,\n  \"hooks\": {\n    \"E\": [\n      {\n        \"command\": \"x\"\n      }\n    ]\n  }\n}\n",
    );
}

#[test]
fn one_line_object_stays_one_line() {
    round_trip(
        "{\"a\": 1}",
        false,
        &["h"],
        "{\"a\": 1, \"h\": [{\"command\": \"x\"}]}",
    );
    round_trip(
        "{\"a\":1}",
        false,
        &["h"],
        "{\"a\":1,\"h\":[{\"command\":\"x\"}]}",
    );
}

#[test]
fn empty_root_expands_and_comes_back() {
    round_trip(
        "{}",
        false,
        &["h"],
        "{\n  \"h\": [\n    {\n      \"command\": \"x\"\n    }\n  ]\n}",
    );
    round_trip(
        "{ }\n",
        false,
        &["h"],
        "{\n  \"h\": [\n    {\n      \"command\": \"x\"\n    }\n  ]\n}\n",
    );
}

#[test]
fn existing_empty_array_is_restored() {
    round_trip(
        "{\r\n\t\"h\": []\r\n}",
        false,
        &["h"],
        "{\r\n\t\"h\": [\r\n\t\t{\r\n\t\t\t\"command\": \"x\"\r\n\t\t}\r\n\t]\r\n}",
    );
}

#[test]
fn comments_and_trailing_commas_in_jsonc() {
    round_trip(
        "{\n  \"a\": 1, // one\n}\n",
        true,
        &["h"],
        "{\n  \"a\": 1, // one\n  \"h\": [\n    {\n      \"command\": \"x\",\n    },\n  ],\n}\n",
    );
    round_trip(
        "{\n  \"a\": 1 // one\n}\n",
        true,
        &["h"],
        "{\n  \"a\": 1, // one\n  \"h\": [\n    {\n      \"command\": \"x\"\n    }\n  ]\n}\n",
    );
}

/// A line comment ends before the CR of a CRLF: text added after it
/// must not land between CR and LF.
#[test]
fn after_a_line_comment_in_a_crlf_file() {
    round_trip(
        "{\r\n  \"a\": 1, // one\r\n}",
        true,
        &["h"],
        "{\r\n  \"a\": 1, // one\r\n  \"h\": [\r\n    {\r\n      \"command\": \"x\",\r\n    },\r\n  ],\r\n}",
    );
    round_trip(
        "{\r\n  \"a\": 1 // one\r\n}",
        true,
        &["h"],
        "{\r\n  \"a\": 1, // one\r\n  \"h\": [\r\n    {\r\n      \"command\": \"x\"\r\n    }\r\n  ]\r\n}",
    );
}

/// The indentation unit comes from how items are indented, not from
/// the first indented line, which may belong to a comment.
#[test]
fn indentation_is_measured_on_items() {
    let header = "/**\n * Settings\n */\n";
    round_trip(
        &format!("{header}{{\n    \"a\": 1\n}}\n"),
        true,
        &["h"],
        &format!(
            "{header}{{\n    \"a\": 1,\n    \"h\": [\n        {{\n            \"command\": \"x\"\n        }}\n    ]\n}}\n"
        ),
    );
    // Members on the top line; the first nested item decides.
    round_trip(
        &format!("{header}{{\"a\": {{\n\t\"b\": 1\n}}, \"h\": [\n\t1\n]}}"),
        true,
        &["h"],
        &format!(
            "{header}{{\"a\": {{\n\t\"b\": 1\n}}, \"h\": [\n\t1,\n\t{{\n\t\t\"command\": \"x\"\n\t}}\n]}}"
        ),
    );
}

#[test]
fn an_empty_container_among_others_on_a_line_stays_on_it() {
    round_trip(
        "{\n  \"a\": {\"h\": [], \"b\": 1}\n}\n",
        false,
        &["a", "h"],
        "{\n  \"a\": {\"h\": [{\"command\": \"x\"}], \"b\": 1}\n}\n",
    );
    // On a line of its own it opens up, and closes again on removal.
    round_trip(
        "{\n  \"a\": {\n    \"h\": [ ]\n  }\n}\n",
        false,
        &["a", "h"],
        "{\n  \"a\": {\n    \"h\": [\n      {\n        \"command\": \"x\"\n      }\n    ]\n  }\n}\n",
    );
}

/// Comments inside an empty container stay first; the item follows on
/// its own line, and the recorded inside closes the container again.
#[test]
fn comments_in_an_empty_container_stay_first() {
    round_trip(
        "{\n  \"h\": [ // later\n  ]\n}\n",
        true,
        &["h"],
        "{\n  \"h\": [ // later\n    {\n      \"command\": \"x\"\n    }\n  ]\n}\n",
    );
    round_trip(
        "{\n  \"h\": [ /* a */ /* b */ ]\n}",
        true,
        &["h"],
        "{\n  \"h\": [ /* a */ /* b */\n    {\n      \"command\": \"x\"\n    }\n  ]\n}",
    );
    let d = doc("{}", true);
    assert!(d.same_but_whitespace(" /* a */ /* b */ ", " /* a */ /* b */\n  "));
    assert!(d.same_but_whitespace(" ", "\n"));
    assert!(!d.same_but_whitespace(" // later\n", " // sooner\n"));
    assert!(!d.same_but_whitespace(" /* a */ ", " "));
    assert!(!d.same_but_whitespace(" ", " 1 "));
}

/// In a file that mixes CRLF and LF, the break after the last item
/// keeps its kind.
#[test]
fn mixed_line_endings_come_back() {
    round_trip(
        "{\r\n  \"a\": 1\n}",
        false,
        &["h"],
        "{\r\n  \"a\": 1,\r\n  \"h\": [\r\n    {\r\n      \"command\": \"x\"\r\n    }\r\n  ]\n}",
    );
}

#[test]
fn closing_bracket_on_the_last_line() {
    round_trip(
        "{\n  \"h\": [\n    1]}",
        false,
        &["h"],
        "{\n  \"h\": [\n    1,\n    {\n      \"command\": \"x\"\n    }]}",
    );
}

#[test]
fn wrong_types_are_errors() {
    let d = doc("{\"hooks\": []}", false);
    let e = d.container(&path(&["hooks", "E"]), false).unwrap_err();
    assert!(matches!(e, EditError::WrongType { .. }));
    assert!(JsonDoc::new("[1]".into(), false).is_err());
}

#[test]
fn a_duplicate_key_on_the_path_is_an_error() {
    let text = "{\"hooks\": {}, \"a\": 1, \"hooks\": {\"E\": []}, \"a\": 2}";
    let mut d = doc(text, false);
    let e = d
        .append_to_array(&path(&["hooks", "E"]), &json!(1))
        .unwrap_err();
    assert_eq!(
        e,
        EditError::DuplicateKey {
            path: "`hooks`".into(),
            offset: text.rfind("\"hooks\"").unwrap()
        }
    );
    assert_eq!(d.text, text);
    // Duplicates elsewhere are the file's business.
    d.append_to_array(&path(&["b"]), &json!(1)).unwrap();
}
