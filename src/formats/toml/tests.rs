//! The editor's contract, asserted on bytes.

use serde_json::{Map, Value as Json, json};

use super::{EditError, Inserted, TomlDoc};

fn path(s: &str) -> Vec<String> {
    s.split('.').map(String::from).collect()
}

fn obj(v: Json) -> Map<String, Json> {
    match v {
        Json::Object(m) => m,
        _ => panic!("not an object"),
    }
}

fn server() -> Map<String, Json> {
    obj(json!({"command": "coffer", "args": ["mcp", "--stdio"], "env": {"TOKEN": "x"}}))
}

const SERVER: &str = "[mcp_servers.coffer-memory]\ncommand = \"coffer\"\nargs = [\"mcp\", \"--stdio\"]\nenv = { TOKEN = \"x\" }\n";

/// Insert coffer's server, check that a second insert changes nothing and
/// that removal gives back `text` exactly; return the installed text.
fn install(text: &str) -> String {
    let p = path("mcp_servers.coffer-memory");
    let mut doc = TomlDoc::parse(text).unwrap();
    doc.set_table(&p, &server()).unwrap();
    let once = doc.to_string();
    assert_eq!(doc.set_table(&p, &server()).unwrap(), Inserted::default());
    assert_eq!(doc.to_string(), once, "second insert changed the text");
    assert_eq!(doc.get(&p), Some(Json::Object(server())));
    let mut again = TomlDoc::parse(&once).unwrap();
    assert!(again.remove(&p).unwrap());
    assert_eq!(again.to_string(), text, "removal is not the exact inverse");
    once
}

#[test]
fn a_new_table_follows_the_last_mcp_table_and_leaves_the_next_comment_alone() {
    let text = "# my config\nmodel = \"o3\" # fast\n\n[mcp_servers.mine]\ncommand = \"x\"\n\n# profiles below\n[profiles.a]\nmodel = \"o4\"\n# end\n";
    let want = format!(
        "# my config\nmodel = \"o3\" # fast\n\n[mcp_servers.mine]\ncommand = \"x\"\n\n{SERVER}\n# profiles below\n[profiles.a]\nmodel = \"o4\"\n# end\n"
    );
    assert_eq!(install(text), want);
}

#[test]
fn without_mcp_tables_it_goes_at_the_end_after_the_eof_comment() {
    let text = "model = \"o3\"\n\n[profiles.a]\nx = 1\n\n# the end\n\n";
    let want = format!("model = \"o3\"\n\n[profiles.a]\nx = 1\n\n# the end\n\n{SERVER}\n");
    assert_eq!(install(text), want);
}

#[test]
fn empty_blank_and_comment_only_files() {
    assert_eq!(install(""), SERVER);
    assert_eq!(install("\n\n"), format!("{SERVER}\n\n"));
    assert_eq!(
        install("# only\n# comments\n"),
        format!("# only\n# comments\n\n{SERVER}")
    );
    assert_eq!(
        install("# no newline"),
        format!("# no newline\n\n{}", SERVER.trim_end())
    );
}

#[test]
fn crlf_files_get_crlf_lines() {
    let text = "model = \"o3\"\r\n\r\n[mcp_servers.mine]\r\ncommand = \"x\"\r\n";
    let out = install(text);
    assert_eq!(out, format!("{text}\r\n{}", SERVER.replace('\n', "\r\n")));
    assert!(!out.replace("\r\n", "").contains('\n'));
}

#[test]
fn a_file_without_final_newline_keeps_none() {
    let text = "[mcp_servers.mine]\ncommand = \"x\"";
    assert_eq!(install(text), format!("{text}\n\n{}", SERVER.trim_end()));
}

#[test]
fn tables_without_blank_lines_between_get_none() {
    let text = "[a]\nx = 1\n[mcp_servers.mine]\ncommand = \"x\"\n[b]\ny = 2\n";
    let want = format!("[a]\nx = 1\n[mcp_servers.mine]\ncommand = \"x\"\n{SERVER}[b]\ny = 2\n");
    assert_eq!(install(text), want);
}

#[test]
fn sub_tables_of_the_family_count_and_an_explicit_parent_stays() {
    let text = "[mcp_servers]\n[mcp_servers.mine]\ncommand = \"x\"\n[mcp_servers.mine.env]\nA = \"1\"\n\n[b]\n";
    let out = install(text);
    assert!(out.contains(&format!("A = \"1\"\n{SERVER}\n[b]")), "{out}");
    let mut doc = TomlDoc::parse(&out).unwrap();
    doc.remove(&path("mcp_servers.mine")).unwrap();
    doc.remove(&path("mcp_servers.coffer-memory")).unwrap();
    assert_eq!(doc.to_string(), "[mcp_servers]\n\n[b]\n");
}

#[test]
fn a_comment_written_above_coffers_table_survives_its_removal() {
    // toml_edit would delete it with the table (it is the table's decor).
    let installed = install("[mcp_servers.mine]\ncommand = \"x\"\n");
    let edited = installed.replace(
        "\n[mcp_servers.coffer",
        "\n# mine, not coffer's\n[mcp_servers.coffer",
    );
    let mut doc = TomlDoc::parse(&edited).unwrap();
    doc.remove(&path("mcp_servers.coffer-memory")).unwrap();
    assert_eq!(
        doc.to_string(),
        "[mcp_servers.mine]\ncommand = \"x\"\n\n# mine, not coffer's\n"
    );
}

#[test]
fn a_changed_table_is_rewritten_in_place_and_an_equal_one_is_left_alone() {
    let text = "[mcp_servers.coffer-memory] # keep\ncommand = 'old'\n\n# next\n[b]\n";
    let mut doc = TomlDoc::parse(text).unwrap();
    doc.set_table(&path("mcp_servers.coffer-memory"), &server())
        .unwrap();
    let body = SERVER.split_once('\n').unwrap().1;
    assert_eq!(
        doc.to_string(),
        format!("[mcp_servers.coffer-memory] # keep\n{body}\n# next\n[b]\n")
    );

    let same = "[mcp_servers.coffer-memory]\ncommand = 'coffer'\nargs = [\n  \"mcp\",\n  '--stdio',\n]\n[mcp_servers.coffer-memory.env]\nTOKEN = \"x\"\n";
    let mut doc = TomlDoc::parse(same).unwrap();
    assert_eq!(
        doc.get(&path("mcp_servers.coffer-memory")),
        Some(Json::Object(server()))
    );
    doc.set_table(&path("mcp_servers.coffer-memory"), &server())
        .unwrap();
    assert_eq!(doc.to_string(), same);
}

#[test]
fn replacing_drops_the_old_sub_tables() {
    let text = "[mcp_servers.coffer-memory]\ncommand = \"old\"\n\n[mcp_servers.coffer-memory.env]\nOLD = \"1\"\n";
    let mut doc = TomlDoc::parse(text).unwrap();
    doc.set_table(&path("mcp_servers.coffer-memory"), &server())
        .unwrap();
    assert_eq!(doc.to_string(), SERVER);
}

#[test]
fn created_names_what_did_not_exist() {
    let mut doc = TomlDoc::parse("").unwrap();
    let ins = doc
        .set_table(&path("mcp_servers.coffer-memory"), &server())
        .unwrap();
    assert_eq!(
        ins.created,
        vec![path("mcp_servers"), path("mcp_servers.coffer-memory")]
    );
    let ins = doc
        .set_table(&path("mcp_servers.other"), &server())
        .unwrap();
    assert_eq!(ins.created, vec![path("mcp_servers.other")]);
}

#[test]
fn dotted_key_parents_work_and_dotted_targets_are_refused() {
    let text = "mcp_servers.mine.command = \"x\"\n";
    assert_eq!(install(text), format!("{text}\n{SERVER}"));

    let text = "mcp_servers.coffer-memory.command = \"x\"\n";
    let mut doc = TomlDoc::parse(text).unwrap();
    let e = doc
        .set_table(&path("mcp_servers.coffer-memory"), &server())
        .unwrap_err();
    assert!(
        matches!(e, EditError::DottedKeys { offset: 12, .. }),
        "{e:?}"
    );
    assert!(doc.remove(&path("mcp_servers.coffer-memory")).is_err());
    assert_eq!(doc.to_string(), text);
}

#[test]
fn inline_tables_and_non_tables_are_refused_with_the_file_untouched() {
    for (text, want) in [
        (
            "mcp_servers = { mine = { command = \"x\" } }\n",
            "InlineTable",
        ),
        (
            "[mcp_servers]\ncoffer-memory = { command = \"x\" }\n",
            "InlineTable",
        ),
        ("mcp_servers = 1\n", "NotATable"),
        ("[[mcp_servers]]\nx = 1\n", "NotATable"),
    ] {
        let mut doc = TomlDoc::parse(text).unwrap();
        let e = doc
            .set_table(&path("mcp_servers.coffer-memory"), &server())
            .unwrap_err();
        assert!(format!("{e:?}").starts_with(want), "{text}: {e:?}");
        assert!(e.to_string().contains("mcp_servers"), "{e}");
        assert_eq!(doc.to_string(), text);
    }
}

#[test]
fn values_toml_cannot_hold_are_refused() {
    let mut doc = TomlDoc::parse("").unwrap();
    for v in [json!({"a": null}), json!({"a": [1, u64::MAX]})] {
        let e = doc.set_table(&path("t"), &obj(v)).unwrap_err();
        assert!(matches!(e, EditError::Unrepresentable { .. }), "{e:?}");
    }
    assert_eq!(doc.to_string(), "");
}

#[test]
fn keys_and_strings_that_need_quoting_round_trip() {
    let value = obj(json!({
        "a b": "line\nbreak \"quoted\" \\ tab\t\u{7f}é",
        "": 1.5, "f": 1.0, "n": -3, "t": true, "empty": {}, "list": [],
        "nested": {"x.y": [{"k": "v"}]}
    }));
    let p = vec!["mcp_servers".to_owned(), "my server".to_owned()];
    let mut doc = TomlDoc::parse("a = 1\n").unwrap();
    doc.set_table(&p, &value).unwrap();
    assert!(doc.to_string().contains("[mcp_servers.\"my server\"]\n\"a b\" = \"line\\nbreak \\\"quoted\\\" \\\\ tab\\t\\u007Fé\"\n\"\" = 1.5\nf = 1.0\n"));
    assert_eq!(doc.get(&p), Some(Json::Object(value)));
    doc.remove(&p).unwrap();
    assert_eq!(doc.to_string(), "a = 1\n");
}

#[test]
fn a_key_line_is_removed_alone() {
    let text = "# model\nmodel = \"o3\" # c\nx = 1\n";
    let mut doc = TomlDoc::parse(text).unwrap();
    assert!(doc.remove(&path("model")).unwrap());
    assert_eq!(doc.to_string(), "# model\nx = 1\n");
    assert!(!doc.remove(&path("nope.deeper")).unwrap());
}

#[test]
fn toml_1_1_syntax_is_refused_with_its_offset() {
    for (text, offset) in [
        ("a = { b = 1,\n c = 2 }\n", 12),
        ("a = { b = 1, }\n", 11),
        ("a = { b = [\n1,\n], c = \"}\" }\n", usize::MAX),
        ("a = \"\\x33\"\n", 5),
        ("a = \"\\\\x\"\n", usize::MAX),
        ("a = \"\\e\"\n", 5),
        ("\"\\x41\" = 1\n", 1),
        ("a = 17:45\n", 6),
        ("a = 1987-07-05T17:45Z\n", 17),
        ("a = 1987-07-05T17:45:00Z\n", usize::MAX),
        ("a = { b = { c = 1, } }\n", 17),
    ] {
        match TomlDoc::parse(text) {
            Ok(_) => assert_eq!(offset, usize::MAX, "{text:?} accepted"),
            Err(e) => {
                assert_eq!(e.offset, offset, "{text:?}: {e:?}");
                assert!(e.message.contains("TOML 1.1"), "{e:?}");
            }
        }
    }
}

#[test]
fn syntax_errors_carry_a_byte_offset() {
    let e = TomlDoc::parse("a = 1\nb = \n").unwrap_err();
    assert_eq!(e.offset, 10);
    assert!(!e.message.is_empty());
}

#[test]
fn a_second_byte_order_mark_is_refused() {
    // The text layer removed the first; toml_edit would skip this one.
    assert_eq!(TomlDoc::parse("\u{feff}a = 1\n").unwrap_err().offset, 0);
}

#[test]
fn a_provider_table_follows_its_own_family_and_survives_a_change() {
    let text = "model_provider = \"mine\"\n\n[model_providers.mine]\nname = \"Mine\"\n\n[mcp_servers.a]\ncommand = \"a\"\n";
    let p = path("model_providers.coffer");
    let mut doc = TomlDoc::parse(text).unwrap();
    let v1 = obj(json!({"name": "coffer", "base_url": "http://localhost:8080/v1"}));
    doc.set_table(&p, &v1).unwrap();
    assert_eq!(
        doc.to_string(),
        "model_provider = \"mine\"\n\n[model_providers.mine]\nname = \"Mine\"\n\n[model_providers.coffer]\nname = \"coffer\"\nbase_url = \"http://localhost:8080/v1\"\n\n[mcp_servers.a]\ncommand = \"a\"\n"
    );
    let v2 = obj(json!({"name": "coffer", "wire_api": "responses", "env_key": "K"}));
    doc.set_table(&p, &v2).unwrap();
    assert_eq!(doc.get(&p), Some(Json::Object(v2)));
    doc.remove(&p).unwrap();
    assert_eq!(doc.to_string(), text);
}
