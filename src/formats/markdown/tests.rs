use super::*;

const BODY: &str = "Use the memory tool.\nKeep answers short.\n";

fn install(text: &str) -> (String, Placement) {
    upsert(text, "rules", BODY, None).unwrap()
}

fn problem(text: &str) -> (usize, Problem) {
    match find_blocks(text).unwrap_err() {
        MarkdownError::Markers {
            offset, problem, ..
        } => (offset, problem),
        e => panic!("unexpected {e}"),
    }
}

#[test]
fn blocks_are_found_with_their_ranges() {
    let text = "# Title\n\n<!-- coffer:begin a -->\nbody\n<!-- coffer:end a -->\ntail\n";
    let blocks = find_blocks(text).unwrap();
    assert_eq!(blocks.len(), 1);
    let b = &blocks[0];
    assert_eq!(b.name, "a");
    assert_eq!(
        &text[b.range.clone()],
        "<!-- coffer:begin a -->\nbody\n<!-- coffer:end a -->\n"
    );
    assert_eq!(&text[b.body.clone()], "body\n");
}

#[test]
fn markers_in_fences_and_other_tools_blocks_are_left_alone() {
    let text = "\
<!-- BEGIN:nx -->\nnx text\n<!-- END:nx -->\n\n\
```markdown\n<!-- coffer:begin x -->\n```\n\n\
  ~~~~\n<!-- coffer:end y -->\n~~~\n~~~~~\n";
    assert_eq!(find_blocks(text).unwrap(), []);
    let (out, p) = install(text);
    assert_eq!(find_blocks(&out).unwrap().len(), 1);
    assert_eq!(remove(&out, "rules", Some(&p)).unwrap(), text);
}

#[test]
fn broken_markers_are_errors_at_the_offending_line() {
    let (b, e) = (begin_marker("a"), end_marker("a"));
    let pre = "intro\n";
    assert_eq!(
        problem(&format!("{pre}{b}\nbody\n")),
        (6, Problem::Unclosed("a".into()))
    );
    assert_eq!(
        problem(&format!("{pre}{e}\n")),
        (6, Problem::StrayEnd("a".into()))
    );
    let nested = format!("{b}\n{}\n", begin_marker("b"));
    assert!(matches!(problem(&nested), (24, Problem::Nested { .. })));
    let crossed = format!("{b}\n{}\n", end_marker("b"));
    assert!(matches!(
        problem(&crossed),
        (24, Problem::Mismatched { .. })
    ));
    let twice = format!("{b}\n{e}\n{b}\n{e}\n");
    assert_eq!(problem(&twice), (46, Problem::Duplicate("a".into())));
    assert_eq!(
        problem("x\n<!-- coffer:begin -->\n"),
        (2, Problem::Malformed)
    );
    let swallowed = format!("{pre}```\n{b}\nbody\n{e}\n");
    assert_eq!(
        problem(&swallowed),
        (10, Problem::InOpenFence { fence_line: 2 })
    );
    let msg = find_blocks(&format!("{pre}{b}\n")).unwrap_err().to_string();
    assert!(
        msg.starts_with("line 2: `<!-- coffer:begin a -->` has no"),
        "{msg}"
    );
    // The engine refuses such a file: so do upsert and remove.
    assert!(upsert(&format!("{e}\n"), "a", "x", None).is_err());
    assert!(remove(&format!("{e}\n"), "a", None).is_err());
}

#[test]
fn insertion_leaves_one_blank_line_and_a_final_newline() {
    let cases = [
        ("", ""),
        ("text", "text\n\n"),
        ("text\n", "text\n\n"),
        ("text\n\n", "text\n\n"),
        ("text\n\n\n  \n", "text\n\n"),
        ("  \n\n", ""),
        ("text\r\n\r\n", "text\r\n\r\n"),
        ("```\ncode\n", "```\ncode\n```\n\n"),
        ("````rust\ncode\n\n", "````rust\ncode\n\n````\n\n"),
        ("~~~\ncode", "~~~\ncode\n~~~\n\n"),
        ("héllo — 世界 😀", "héllo — 世界 😀\n\n"),
    ];
    for (before, prefix) in cases {
        let (out, p) = install(before);
        let eol = text::line_ending(before);
        let block = format!(
            "<!-- coffer:begin rules -->{eol}{}<!-- coffer:end rules -->{eol}",
            BODY.replace('\n', eol)
        );
        assert_eq!(out, format!("{prefix}{block}"), "{before:?}");
        assert_eq!(
            remove(&out, "rules", Some(&p)).unwrap(),
            before,
            "{before:?}"
        );
        assert_eq!(install(&out).0, out, "{before:?}: upsert twice");
    }
}

#[test]
fn an_existing_block_is_updated_where_it_stands() {
    let text = "a\n\n<!-- coffer:begin rules -->\nold\n<!-- coffer:end rules -->\n\nz\n";
    let (out, p) = upsert(text, "rules", "new\nlines", None).unwrap();
    assert_eq!(
        out,
        "a\n\n<!-- coffer:begin rules -->\nnew\nlines\n<!-- coffer:end rules -->\n\nz\n"
    );
    // With no record, the placement is what removal without one assumes.
    assert_eq!(p.before, "\n");
    let (same, q) = upsert(&out, "rules", "new\nlines", Some(&p)).unwrap();
    assert_eq!((same.as_str(), &q), (out.as_str(), &p));
    let empty = upsert(text, "rules", "", None).unwrap().0;
    assert!(empty.contains("rules -->\n<!-- coffer:end"));
}

#[test]
fn a_new_body_then_removal_gives_back_the_original() {
    let text = "# Rules\r\n\r\nBe kind.\r\n\r\n\r\n";
    let (one, p) = install(text);
    let (two, q) = upsert(&one, "rules", "Other text\nhere", Some(&p)).unwrap();
    assert_eq!(p, q);
    assert!(two.contains("Other text\r\nhere\r\n<!-- coffer:end rules -->\r\n"));
    assert_eq!(remove(&two, "rules", Some(&q)).unwrap(), text);
}

#[test]
fn user_edits_and_appended_text_survive_removal() {
    let text = "# Title\nintro";
    let (out, p) = install(text);
    let edited = out.replace("intro", "intro, edited");
    assert_eq!(
        remove(&edited, "rules", Some(&p)).unwrap(),
        "# Title\nintro, edited"
    );
    let appended = format!("{out}\nMy notes.\n");
    assert_eq!(
        remove(&appended, "rules", Some(&p)).unwrap(),
        "# Title\nintro\n\nMy notes.\n"
    );
    let glued = format!("{out}My notes.\n");
    assert_eq!(
        remove(&glued, "rules", Some(&p)).unwrap(),
        "# Title\nintro\n\nMy notes.\n"
    );
}

#[test]
fn without_a_record_only_the_block_and_its_blank_lines_go() {
    let block = "<!-- coffer:begin rules -->\nx\n<!-- coffer:end rules -->\n";
    let cases = [
        (format!("a\n\n{block}"), "a\n"),
        (format!("a\n\n\n{block}\n"), "a\n\n"),
        (format!("a\n\n{block}\nb\n"), "a\n\nb\n"),
        (format!("a\n{block}b\n"), "a\nb\n"),
        (format!("a\n\n{block}b\n"), "a\n\nb\n"),
        (format!("{block}\nb\n"), "b\n"),
        (format!("\n{block}\n\nb\n"), "\nb\n"),
        (block.to_owned(), ""),
        (format!("```\ncode\n```\n\n{block}"), "```\ncode\n```\n"),
    ];
    for (text, want) in cases {
        assert_eq!(remove(&text, "rules", None).unwrap(), want, "{text:?}");
    }
    // A record that no longer fits is not trusted beyond that.
    let stale = Placement {
        before: "\n".into(),
        displaced: "text the record should not hold\n".into(),
    };
    let text = format!("a\n\n{block}");
    assert_eq!(remove(&text, "rules", Some(&stale)).unwrap(), "a\n");
    assert_eq!(remove("no block\n", "rules", None).unwrap(), "no block\n");
}

#[test]
fn bodies_and_names_that_would_break_the_block_are_refused() {
    for body in [
        "```\nopen fence",
        "<!-- coffer:end rules -->",
        "<!-- coffer:begin b -->",
    ] {
        assert_eq!(
            upsert("text\n", "rules", body, None).unwrap_err(),
            MarkdownError::BodyBreaksBlock("rules".into()),
            "{body:?}"
        );
    }
    let fenced = "```\n<!-- coffer:end rules -->\n```\n";
    assert!(upsert("text\n", "rules", fenced, None).is_ok());
    for name in ["", "two words", "a-->", "é"] {
        assert!(matches!(
            upsert("", name, "x", None),
            Err(MarkdownError::InvalidName(_))
        ));
    }
}

#[test]
fn placement_round_trips_through_serde() {
    let (_, p) = install("```\ncode");
    let json = serde_json::to_string(&p).unwrap();
    assert_eq!(json, r#"{"before":"\n```\n\n","displaced":""}"#);
    assert_eq!(serde_json::from_str::<Placement>(&json).unwrap(), p);
}
