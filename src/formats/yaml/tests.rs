//! The editor's contract, asserted on bytes.

use serde_json::{Value as Json, json};

use super::{EditError, Expanded, Inserted, YamlDoc};

fn path(s: &str) -> Vec<String> {
    s.split('.').map(String::from).collect()
}

fn server() -> Json {
    json!({"command": "coffer", "args": ["mcp", "--stdio"], "env": {"TOKEN": "x"}})
}

/// coffer's server as a block entry at two spaces.
const SERVER: &str = "  coffer-memory:\n    command: coffer\n    args:\n      - mcp\n      - --stdio\n    env:\n      TOKEN: x\n";

/// Set `value` at `p`, check that a second set changes nothing and that
/// removal gives back `text` exactly; return the set text and the record.
fn install_at(text: &str, p: &str, value: &Json) -> (String, Inserted) {
    let p = path(p);
    let mut doc = YamlDoc::parse(text).unwrap();
    let ins = doc.set(&p, value).unwrap();
    let once = doc.to_string();
    assert_eq!(doc.set(&p, value).unwrap(), Inserted::default());
    assert_eq!(doc.to_string(), once, "second set changed the text");
    assert_eq!(doc.get(&p).as_ref(), Some(value));
    let mut again = YamlDoc::parse(&once).unwrap();
    assert!(again.remove(&p, &ins).unwrap());
    assert_eq!(again.to_string(), text, "removal is not the exact inverse");
    (once, ins)
}

fn install(text: &str) -> String {
    install_at(text, "mcp_servers.coffer-memory", &server()).0
}

#[test]
fn a_new_server_follows_the_users_servers_and_leaves_the_next_comment_alone() {
    let text = "# Hermes\nmodel: o3 # fast\nmcp_servers:\n  mine:\n    command: x\n  # more below\nhooks: {}\n";
    let want = format!(
        "# Hermes\nmodel: o3 # fast\nmcp_servers:\n  mine:\n    command: x\n{SERVER}  # more below\nhooks: {{}}\n"
    );
    assert_eq!(install(text), want);
}

#[test]
fn missing_parents_are_created_and_pruned() {
    let (out, ins) = install_at("model: o3\n", "mcp_servers.coffer-memory", &server());
    assert_eq!(out, format!("model: o3\nmcp_servers:\n{SERVER}"));
    assert_eq!(ins.created, vec![path("mcp_servers")]);
    assert_eq!(install(""), format!("mcp_servers:\n{SERVER}"));
    assert_eq!(install("\n\n"), format!("mcp_servers:\n{SERVER}\n\n"));
}

#[test]
fn a_new_key_is_set_apart_from_a_comment_above_it() {
    assert_eq!(
        install("# only\n# comments\n"),
        format!("# only\n# comments\n\nmcp_servers:\n{SERVER}")
    );
    assert_eq!(
        install("# no newline"),
        format!("# no newline\n\nmcp_servers:\n{}", SERVER.trim_end())
    );
    assert_eq!(
        install("---\n# c\n...\n"),
        format!("---\n# c\n\nmcp_servers:\n{SERVER}...\n")
    );
    assert_eq!(install("---\n"), format!("---\nmcp_servers:\n{SERVER}"));
}

#[test]
fn blank_separated_mappings_get_a_blank_line() {
    let text = "a: 1\n\n# b\nb: 2\n\nc: 3\n";
    assert_eq!(install(text), format!("{text}\nmcp_servers:\n{SERVER}"));
}

#[test]
fn an_empty_or_null_parent_is_expanded_and_restored() {
    for (text, kept) in [
        ("mcp_servers: {}\nhooks: x\n", " {}"),
        ("mcp_servers: ~  # none yet\n", " ~"),
        ("mcp_servers:    null", "    null"),
    ] {
        let (out, ins) = install_at(text, "mcp_servers.coffer-memory", &server());
        let expanded = Expanded {
            path: path("mcp_servers"),
            text: kept.into(),
        };
        assert_eq!(ins.expanded, Some(expanded), "{text}");
        assert!(out.starts_with("mcp_servers:"), "{out}");
        assert!(out.contains(SERVER.trim_end()), "{out}");
    }
    assert_eq!(
        install("mcp_servers: {} # later\n"),
        format!("mcp_servers: # later\n{SERVER}")
    );
    // Without the record, the emptied mapping reads as null: the same
    // meaning for `~`, an honest leftover for `{}`.
    let mut doc = YamlDoc::parse(&install("mcp_servers: {}\n")).unwrap();
    doc.remove(&path("mcp_servers.coffer-memory"), &Inserted::default())
        .unwrap();
    assert_eq!(doc.to_string(), "mcp_servers:\n");
}

#[test]
fn a_null_parent_gets_the_member_below_its_key() {
    let text = "mcp_servers:\n  # add servers here\nhooks: 1\n";
    assert_eq!(
        install(text),
        format!("mcp_servers:\n{SERVER}  # add servers here\nhooks: 1\n")
    );
}

#[test]
fn crlf_and_four_spaces_are_followed() {
    let text = "hooks:\r\n    a: 1\r\nmcp_servers:\r\n    mine:\r\n        command: x\r\n";
    let out = install(text);
    assert!(out.starts_with(text));
    assert!(!out.replace("\r\n", "").contains('\n'), "{out:?}");
    assert!(out.ends_with("    coffer-memory:\r\n        command: coffer\r\n        args:\r\n            - mcp\r\n            - --stdio\r\n        env:\r\n            TOKEN: x\r\n"));
}

#[test]
fn indentless_lists_are_followed() {
    let text = "x:\n  args:\n  - a\n";
    let out = install(text);
    assert!(
        out.ends_with("    args:\n    - mcp\n    - --stdio\n    env:\n      TOKEN: x\n"),
        "{out}"
    );
}

#[test]
fn flow_parents_get_flow_text() {
    let hermes = "model: { provider: custom, default: my-model }\n";
    let (out, _) = install_at(hermes, "model.base_url", &json!("http://localhost:8080/v1"));
    assert_eq!(
        out,
        "model: { provider: custom, default: my-model, base_url: \"http://localhost:8080/v1\" }\n"
    );
    let (out, ins) = install_at("{}\n", "mcp_servers.s", &json!({"args": ["-y", "x"]}));
    assert_eq!(out, "{mcp_servers: {s: {args: [-y, x]}}}\n");
    assert_eq!(ins.created, vec![path("mcp_servers")]);
    let multi = "mcp_servers: {\n  a: 1,\n  b: 2\n}\n";
    let (out, _) = install_at(multi, "mcp_servers.c", &json!(3));
    assert_eq!(out, "mcp_servers: {\n  a: 1,\n  b: 2,\n  c: 3\n}\n");
    let own_line = "mcp_servers:\n  {}\n";
    let (out, _) = install_at(own_line, "mcp_servers.c", &json!(3));
    assert_eq!(out, "mcp_servers:\n  {c: 3}\n");
}

#[test]
fn values_are_replaced_in_place() {
    let text = "model:\n  base_url: http://old # my proxy\n  x: 1\n";
    let mut doc = YamlDoc::parse(text).unwrap();
    let p = path("model.base_url");
    assert_eq!(doc.set(&p, &json!("yes")).unwrap(), Inserted::default());
    assert_eq!(
        doc.to_string(),
        "model:\n  base_url: \"yes\" # my proxy\n  x: 1\n"
    );
    doc.set(&p, &json!(["a"])).unwrap();
    assert_eq!(
        doc.to_string(),
        "model:\n  base_url:\n    - a # my proxy\n  x: 1\n"
    );
    doc.set(&p, &json!({"k": null})).unwrap();
    assert_eq!(
        doc.to_string(),
        "model:\n  base_url:\n    k: null # my proxy\n  x: 1\n"
    );
    let mut doc = YamlDoc::parse("s: {a: 1}\nt: |\n  x\nu:\n").unwrap();
    doc.set(&path("s"), &json!({"b": [1]})).unwrap();
    doc.set(&path("t"), &json!(2)).unwrap();
    doc.set(&path("u"), &json!({"v": 1})).unwrap();
    assert_eq!(doc.to_string(), "s: {b: [1]}\nt: 2\nu:\n  v: 1\n");
}

#[test]
fn spelling_does_not_change_the_meaning() {
    let a = YamlDoc::parse("s: {'a': [1, \"x\"], b: ~}\n").unwrap();
    let b = YamlDoc::parse("s:\n  a:\n    - 0x1\n    - x\n  \"b\":\n").unwrap();
    assert_eq!(a.get(&path("s")), b.get(&path("s")));
    assert_eq!(a.get(&[]), Some(json!({"s": {"a": [1, "x"], "b": null}})));
    assert_eq!(YamlDoc::parse("").unwrap().get(&[]), None);
}

#[test]
fn parents_that_are_not_mappings_are_refused() {
    let mut doc = YamlDoc::parse("mcp_servers:\n  - a\n").unwrap();
    let err = doc.set(&path("mcp_servers.x"), &json!(1)).unwrap_err();
    assert!(
        matches!(
            err,
            EditError::NotAMapping {
                found: "a list",
                offset: 15,
                ..
            }
        ),
        "{err:?}"
    );
    let mut doc = YamlDoc::parse("m: {a: }\n").unwrap();
    let err = doc.set(&path("m.a.b"), &json!(1)).unwrap_err();
    assert!(matches!(err, EditError::Unsupported { .. }), "{err:?}");
    let mut doc = YamlDoc::parse("? m\n: 1\n").unwrap();
    let err = doc.set(&path("m"), &json!({"a": 1})).unwrap_err();
    assert!(
        matches!(err, EditError::Unsupported { offset: 2, .. }),
        "{err:?}"
    );
}

#[test]
fn what_coffer_will_not_read_is_refused_with_an_offset() {
    for (text, offset, says) in [
        ("a: [1, 2\nb: 1\n", 10, ""),
        ("a: &x 1\nb: *x\n", 11, "alias"),
        ("a: 1\n---\nb: 2\n", 5, "second YAML document"),
        ("base: {}\nx:\n  <<: {a: 1}\n", 14, "merge key"),
        ("a: !custom 1\n", 3, "tag"),
        ("a: !!binary aGk=\n", 3, "tag"),
        ("a: !!int x\n", 3, "not of that type"),
        ("a: 1\nb: 2\na: 3\n", 10, "duplicate key `a`"),
        ("[a]: 1\n", 0, "collection used as a key"),
        ("a:\n?\n", 3, "an empty key"),
        ("a: 1\n: x\n", 5, ""),
        ("\u{feff}a: 1\n", 0, "byte-order mark"),
    ] {
        let err = YamlDoc::parse(text).unwrap_err();
        assert_eq!(err.offset, offset, "{text:?}: {err:?}");
        assert!(err.message.contains(says), "{text:?}: {err:?}");
    }
    assert!(YamlDoc::parse("a: &x 1\nb: !!str 2\nc: ! 3\n\"<<\": 4\n").is_ok());
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    for text in [
        "[".repeat(100_000),
        "{a: ".repeat(100_000),
        (0..2_000)
            .map(|i| format!("{}k:\n", " ".repeat(i)))
            .collect(),
        (0..2_000)
            .map(|i| format!("{}- \n", " ".repeat(i * 2)))
            .collect(),
    ] {
        let err = YamlDoc::parse(&text).unwrap_err();
        assert!(err.offset <= text.len());
    }
}

#[test]
fn the_engine_can_prune_after_all_removals() {
    for text in ["model: x\n", "mcp_servers: {}\n", "mcp_servers: ~\n"] {
        let mut doc = YamlDoc::parse(text).unwrap();
        let a = doc.set(&path("mcp_servers.a"), &json!(1)).unwrap();
        let b = doc.set(&path("mcp_servers.b"), &json!(2)).unwrap();
        assert_eq!(b, Inserted::default());
        // `a`'s record cannot prune a parent that still holds `b` ...
        assert!(doc.remove(&path("mcp_servers.a"), &a).unwrap());
        assert!(doc.remove(&path("mcp_servers.b"), &b).unwrap());
        assert!(!doc.remove(&path("mcp_servers.b"), &b).unwrap());
        // ... so the engine keeps the file's record and prunes at the end.
        doc.prune(&a.created, a.expanded.as_slice()).unwrap();
        assert_eq!(doc.to_string(), text);
        doc.prune(&a.created, a.expanded.as_slice()).unwrap();
        assert_eq!(doc.to_string(), text, "pruning twice changes nothing");
    }
}

#[test]
fn a_parent_the_user_added_to_stays() {
    let p = path("mcp_servers.coffer-memory");
    let mut doc = YamlDoc::parse("model: x\n").unwrap();
    let ins = doc.set(&p, &server()).unwrap();
    doc.set(&path("mcp_servers.mine"), &json!({"command": "z"}))
        .unwrap();
    assert!(doc.remove(&p, &ins).unwrap());
    assert_eq!(
        doc.to_string(),
        "model: x\nmcp_servers:\n  mine:\n    command: z\n"
    );
    // A comment the user wrote on it keeps it too, even once it is empty.
    let mut doc = YamlDoc::parse("mcp_servers: # mine\n").unwrap();
    doc.prune(&[path("mcp_servers")], &[]).unwrap();
    assert_eq!(doc.to_string(), "mcp_servers: # mine\n");
}
