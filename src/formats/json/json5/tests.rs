//! JSON5 as the validator and the scanner read it. The table of invalid
//! texts, the corpus and the property tests are in tests/it/json5.rs.

use super::validate::validate;
use super::*;
use crate::formats::json::Flavor;
use crate::formats::json::scan::Scanner;

/// The example of spec.json5.org, and one of every feature.
const VALID: [&str; 14] = [
    "// This file is written in JSON5 syntax, naturally, but npm needs a regular\n// JSON file, so compile via `npm run build`. Be sure to keep both in sync!\n{\n  // comments\n  unquoted: 'and you can quote me on that',\n  singleQuotes: 'I can use \"double quotes\" here',\n  lineBreaks: \"Look, Mom! \\\nNo \\\\n's!\",\n  hexadecimal: 0xdecaf,\n  leadingDecimalPoint: .8675309, andTrailing: 8675309.,\n  positiveSign: +1,\n  trailingComma: 'in objects', andIn: ['arrays',],\n  \"backwardsCompatible\": \"with JSON\",\n}\n",
    "{$_: 1, _$: 2, ümlaut: 3, 中文: 4, a1: 5, \\u0061b: 6, c\\u0064: 7, null: 8, true: 9}",
    "[Infinity, -Infinity, +Infinity, NaN, -NaN, +NaN, 0x0, 0XFF, -0x1f, .5, 5., +.5e-3, 1E+2, 0, -0, 0.0e0]",
    "['\\'', \"\\\"\", '\\x41', '\\u00e9', '\\0', '\\v', '\\q', '\\\r\n', '\\\u{2028}', '\u{2028}\u{2029}', '\t']",
    "\u{feff}\u{a0}{\u{b}\u{c}a\u{2028}:\u{2029}1\u{3000}}\u{1680}",
    "{a: 1, /* c */ b: [1, 2,], // d\n}",
    "{}",
    "[]",
    "1",
    "'top'",
    "/* only */ null // a comment\n",
    "{a: {b: {c: [[[]]]}}}",
    "{'single': 1, \"double\": 2, bare: 3,}",
    "// a line comment ends at LS\u{2028}{}",
];

#[test]
fn every_json5_feature_is_accepted() {
    for text in VALID {
        validate(text).unwrap_or_else(|e| panic!("{text:?}: {e:?}"));
    }
}

#[test]
fn errors_name_the_byte() {
    let cases: [(&str, &str, &str); 8] = [
        ("{a: 1 b: 2}", "b: 2", "expected `,` or `}`"),
        ("{1a: 1}", "1a", "expected a key"),
        ("[+]", "]", "expected a number after `+`"),
        ("{a: 'x\ny'}", "\ny", "line break in a string"),
        ("[012]", "012", "a number may not start with 0"),
        ("['\\01']", "\\01", "octal escapes"),
        ("{☕: 1}", "☕", "expected a key"),
        ("{a: 1 /* open", "/*", "unterminated block comment"),
    ];
    for (text, at, message) in cases {
        let e = validate(text).unwrap_err();
        assert_eq!(e.offset, text.find(at).unwrap(), "{text:?}: {e:?}");
        assert!(e.message.contains(message), "{text:?}: {e:?}");
    }
    let e = validate("{a: [1,\n").unwrap_err();
    assert_eq!(
        (e.offset, e.message.as_str()),
        (7, "EOF while parsing a value")
    );
}

/// Nothing recurses: deep nesting that closes is valid, and nesting that
/// does not is refused where the text ends, without a stack to overflow.
#[test]
fn deep_nesting_is_iterative() {
    let depth = 1_000_000;
    let text = format!("{{a: {}{}}}", "[".repeat(depth), "]".repeat(depth));
    validate(&text).unwrap();
    let s = Scanner::new(&text, Flavor::Json5);
    assert_eq!(s.skip_value(0), text.len());
    let e = validate(&"{a: [".repeat(depth)).unwrap_err();
    assert_eq!(e.offset, depth * 5);
}

#[test]
fn the_scanner_finds_keys_however_spelled() {
    let text =
        "{ servers: 1, 'a b': 'x}', \"c\": 0x1F, \\u0064: .5, e: Infinity,\u{a0}f\u{2028}: -NaN, }";
    let s = Scanner::new(text, Flavor::Json5);
    let c = s.container(s.root()).unwrap();
    let keys: Vec<&str> = c.items.iter().map(|i| i.key.as_deref().unwrap()).collect();
    assert_eq!(keys, ["servers", "a b", "c", "d", "e", "f"]);
    let values: Vec<&str> = c.items.iter().map(|i| &text[i.value.clone()]).collect();
    assert_eq!(values, ["1", "'x}'", "0x1F", ".5", "Infinity", "-NaN"]);
    assert_eq!(
        c.member("d").unwrap().1.start,
        text.find("\\u0064").unwrap()
    );
    assert!(c.items.last().unwrap().comma.is_some());
}

#[test]
fn whitespace_is_json5_whitespace() {
    for ws in [
        "\t", "\n", "\u{b}", "\u{c}", "\r", " ", "\u{a0}", "\u{2028}", "\u{2029}", "\u{feff}",
        "\u{1680}", "\u{2000}", "\u{200a}", "\u{202f}", "\u{205f}", "\u{3000}",
    ] {
        assert_eq!(whitespace_len(ws, 0), ws.len(), "{ws:?}");
    }
    for not in ["\u{85}", "\u{200b}", "\u{180e}", "a", "\0", "é"] {
        assert_eq!(whitespace_len(not, 0), 0, "{not:?}");
    }
    assert_eq!(inline_space_len("\u{2028}", 0), 0);
    assert_eq!(inline_space_len("\u{a0}", 0), 2);
}

#[test]
fn line_comments_end_at_every_line_terminator() {
    assert_eq!(line_comment_end("// a\u{2028}b", 0), 4);
    assert_eq!(line_comment_end("// é\u{2029}", 0), 5);
    assert_eq!(line_comment_end("// ☕ €\r\n", 0), 10);
    assert_eq!(line_comment_end("// ☕", 0), 6);
}

#[test]
fn identifiers() {
    for id in [
        "a",
        "$",
        "_",
        "ümlaut",
        "中文",
        "a1",
        "a$_",
        "ab\u{200c}c",
        "null",
    ] {
        assert!(is_identifier(id), "{id}");
        assert_eq!(identifier_end(id, 0), Ok(id.len()));
    }
    for not in ["", "1a", "a-b", "a b", "\u{300}a"] {
        assert!(!is_identifier(not), "{not}");
    }
    assert_eq!(identifier_end("\\u0061b: 1", 0), Ok(7));
    assert_eq!(identifier_end("a\\u0062: 1", 0), Ok(7));
    assert_eq!(identifier_end("1a", 0), Ok(0));
    assert_eq!(identifier_end("a\\u002d", 0), Err(1));
    assert_eq!(identifier_end("a\\x41", 0), Err(1));
    assert_eq!(identifier_end("\\ud800", 0), Err(0));
}

#[test]
fn strings_end_at_their_own_quote() {
    assert_eq!(string_end(br#"'a"b' x"#, 0), 5);
    assert_eq!(string_end(br#""a'b\"" x"#, 0), 7);
    assert_eq!(string_end(b"'a\\\nb'", 0), 6);
}

/// What reading JSON5 costs beside JSON, on a settings file of 50,000 hook
/// entries (about 11 MB, the size DESIGN.md measures): run by hand with
/// `cargo test --release --lib json5_cost -- --ignored --nocapture`.
#[test]
#[ignore = "a measurement, run by hand in release"]
fn json5_cost() {
    let entry = "{\"matcher\": \"Bash\", \"hooks\": [{\"type\": \"command\", \"command\": \"~/bin/guard.sh --check é\", \"timeout\": 30}]}";
    let entries = vec![entry; 50_000].join(",\n      ");
    let text =
        format!("{{\n  \"hooks\": {{\n    \"PreToolUse\": [\n      {entries}\n    ]\n  }}\n}}\n");
    let time = |what: &str, f: &dyn Fn()| {
        let start = std::time::Instant::now();
        for _ in 0..5 {
            f();
        }
        eprintln!("{what}: {:.1} ms", start.elapsed().as_secs_f64() * 200.0);
    };
    eprintln!("{:.1} MB", text.len() as f64 / 1e6);
    time("validate as JSON", &|| {
        crate::formats::json::validate::validate(&text, Flavor::Json).unwrap()
    });
    time("validate as JSONC", &|| {
        crate::formats::json::validate::validate(&text, Flavor::Jsonc).unwrap()
    });
    time("validate as JSON5", &|| validate(&text).unwrap());
    for flavor in [Flavor::Json, Flavor::Json5] {
        time(
            &format!("open and scan to the array as {flavor:?}"),
            &|| {
                let doc = crate::formats::json::edit::JsonDoc::new(text.clone(), flavor).unwrap();
                let path = ["hooks".to_owned(), "PreToolUse".to_owned()];
                assert_eq!(
                    doc.container(&path, false).unwrap().unwrap().items.len(),
                    50_000
                );
            },
        );
    }
}
