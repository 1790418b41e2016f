//! JSON5 targets: OpenClaw's ~/.openclaw/openclaw.json, whose MCP servers
//! (`mcp.servers`) and providers (`models.providers`) coffer owns as
//! members.
//!
//! - Invalid JSON5 of every kind the spec rules out is refused with the
//!   byte where it stops being JSON5.
//! - The engine's reconcile of one file with `Syntax::Json5`, installing an
//!   MCP server, a provider and hook entries: apply, apply again (nothing
//!   changes), destroy (every byte back), on the openclaw example of
//!   agent-formats.md §6, on synthetic files covering every JSON5 feature,
//!   on every JSON and JSONC file of the corpus (JSON5 is a superset of
//!   both), and on generated JSON5 documents.
//! - The splice editor itself on generated JSON5 (`edits`).
//! - `coffer apply`, `destroy` and `import` for OpenClaw (`cli`).

mod cli;
mod edits;
mod generate;

use std::path::PathBuf;

use coffer::engine::reconcile::{Input, Retain, reconcile};
use coffer::formats::json::Flavor;
use coffer::formats::json::edit::JsonDoc;
use coffer::formats::json::validate::validate;
use coffer::formats::json::value;
use coffer::formats::text::Text;
use coffer::resource::{Claim, ClaimKind, Facet, Fragment, HookShape, Origin, Resource, Syntax};
use proptest::prelude::*;
use serde_json::{Value, json};

use crate::common::generate::FOREIGN_COMMANDS;
use crate::common::shared;

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(256)
}

// ---------------------------------------------------------------------------
// What is not JSON5

/// Invalid JSON5, each with the text at which the error must point (its
/// first occurrence; `""` for the end of the text after its last token)
/// and words of the message.
const INVALID: &[(&str, &str, &str)] = &[
    ("{a: 1 /* never closed", "/*", "unterminated block comment"),
    ("/* never closed", "/*", "unterminated block comment"),
    ("{1a: 1}", "1a", "expected a key"),
    ("{-a: 1}", "-a", "expected a key"),
    ("{a-b: 1}", "-b", "expected `:`"),
    ("{ctx-plugin: 1}", "-plugin", "expected `:`"),
    ("{a b: 1}", "b:", "expected `:`"),
    ("{a\\u002db: 1}", "\\u002d", "invalid escape in a key"),
    ("{\\x61: 1}", "\\x61", "invalid escape in a key"),
    ("{\\ud800: 1}", "\\ud800", "invalid escape in a key"),
    ("{a: 1 b: 2}", "b: 2", "expected `,` or `}`"),
    ("[1 2]", "2]", "expected `,` or `]`"),
    ("[+]", "]", "expected a number after `+`"),
    ("[-]", "]", "expected a number after `-`"),
    ("[+-1]", "-1", "expected a number after `+`"),
    ("[- 1]", " 1", "expected a number after `-`"),
    ("[.]", ".", "expected a value"),
    ("{a: 'x\ny'}", "\ny", "line break in a string"),
    ("{a: \"x\r\ny\"}", "\r\ny", "line break in a string"),
    ("{a: 'x", "'x", "unterminated string"),
    ("{a: 'x\\", "", "EOF while parsing a string"),
    ("[012]", "012", "may not start with 0 followed by digits"),
    ("[-00]", "00", "may not start with 0 followed by digits"),
    ("['\\01']", "\\01", "octal escapes"),
    ("['\\1']", "\\1", "octal escapes"),
    ("['\\9']", "\\9", "octal escapes"),
    ("['\\x4']", "\\x4", "two hexadecimal digits"),
    ("['\\u12g4']", "\\u12", "four hexadecimal digits"),
    ("[0x]", "]", "hexadecimal digits after `0x`"),
    ("[0xg]", "g", "hexadecimal digits after `0x`"),
    ("[0x1g]", "g]", "unexpected `g` after a value"),
    ("[1e]", "]", "digits in the exponent"),
    ("[1e+]", "]", "digits in the exponent"),
    ("[1a]", "a]", "unexpected `a` after a value"),
    ("[Infinit]", "Infinit", "expected a value"),
    ("[Infinityx]", "x]", "unexpected `x` after a value"),
    ("[nan]", "nan", "expected `true`, `false` or `null`"),
    ("[NaNa]", "a]", "unexpected `a` after a value"),
    ("{a: tru}", "tru", "expected `true`, `false` or `null`"),
    ("{a: truex}", "x}", "unexpected `x` after a value"),
    ("{a: undefined}", "undefined", "expected a value"),
    ("[,]", ",", "expected a value"),
    ("{,}", ",", "expected a key"),
    ("[1,,]", ",]", "expected a value"),
    ("{a: 1,,}", ",}", "expected a key"),
    ("{a: 1 / 2}", "/ 2", "a lone `/` is not a comment"),
    ("{a: 1}]", "]", "after the end of the document"),
    ("{} []", "[]", "after the end of the document"),
    ("{a: 1", "", "EOF while parsing an object"),
    (
        "{a: 1,\n  // more later\n",
        "",
        "EOF while parsing an object",
    ),
    ("[1", "", "EOF while parsing an array"),
    ("{a:", "", "EOF while parsing a value"),
    ("", "", "EOF while parsing a value"),
    ("\u{a0}\n", "", "EOF while parsing a value"),
    ("// only a comment\n", "", "EOF while parsing a value"),
    ("{\u{85}}", "\u{85}", "expected a key"),
    ("{a:\u{200b}1}", "\u{200b}", "expected a value"),
    ("{a: #1}", "#1", "expected a value"),
    ("{'a' 1}", "1}", "expected `:`"),
    ("{a: [1}", "}", "expected `,` or `]`"),
    ("{a: 1]", "]", "expected `,` or `}`"),
];

#[test]
fn invalid_json5_is_refused_where_it_stops_being_json5() {
    for &(text, at, message) in INVALID {
        let e = validate(text, Flavor::Json5).expect_err(text);
        let want = if at.is_empty() {
            text.trim_end_matches(['\n', '\u{a0}']).len()
        } else {
            text.find(at).unwrap()
        };
        assert_eq!(e.offset, want, "{text:?}: {e:?}");
        assert!(e.message.contains(message), "{text:?}: {e:?}");
    }
    let e = validate("{ctx-plugin: 1}", Flavor::Json5).unwrap_err();
    assert!(e.help.unwrap().contains("must be quoted"));
    eprintln!(
        "invalid JSON5: {}/{} refused with their offset",
        INVALID.len(),
        INVALID.len()
    );
}

/// Nesting far deeper than any stack: valid when it closes, refused where
/// it ends when it does not, and a crash in neither case; the engine then
/// edits beside it.
#[test]
fn deep_nesting_is_refused_cleanly_or_edited_beside() {
    let depth = 200_000;
    let open = format!("{{deep: {}", "[".repeat(depth));
    let e = validate(&open, Flavor::Json5).unwrap_err();
    assert_eq!(
        (e.offset, e.message.as_str()),
        (open.len(), "EOF while parsing a value")
    );
    let closed = format!("{open}{}}}\n", "]".repeat(depth));
    engine_round_trip(closed.as_bytes(), &["Stop"]).unwrap();
}

// ---------------------------------------------------------------------------
// The engine's reconcile of one JSON5 file

const SERVER: &str = "coffer-test";
const PROVIDER: &str = "cofferProxy";

fn server_value() -> Value {
    json!({"command": "coffer", "args": ["mcp", "--stdio"], "env": {"TOKEN": "${TOKEN}"}})
}

fn provider_value() -> Value {
    json!({
        "baseUrl": "http://localhost:9090/v1",
        "apiKey": "${MY_KEY}",
        "api": "openai-completions",
        "models": [{"id": "qwen", "name": "qwen"}]
    })
}

fn member(facet: Facet, parent: [&str; 2], name: &str, value: Value) -> Resource {
    Resource::new(
        Origin {
            agent: "openclaw".into(),
            facet,
        },
        PathBuf::from("/h/.openclaw/openclaw.json"),
        Syntax::Json5,
        Fragment::Member {
            parent: parent.map(str::to_owned).to_vec(),
            name: name.into(),
            value,
            item_key: None,
            adopt: false,
        },
    )
}

/// An MCP server and a provider where OpenClaw keeps them, hook entries
/// at `events` (OpenClaw has no shell hooks, but a JSON5 hooks file must
/// work as well as a JSON one), and the claim for the hook entries.
fn openclaw_resources(events: &[&str]) -> (Vec<Resource>, Claim) {
    let origin = Origin {
        agent: "openclaw".into(),
        facet: Facet::Context,
    };
    let path = PathBuf::from("/h/.openclaw/openclaw.json");
    let mut resources: Vec<Resource> = events
        .iter()
        .map(|e| {
            Resource::new(
                origin.clone(),
                path.clone(),
                Syntax::Json5,
                Fragment::ArrayEntry {
                    array: vec!["hooks".into(), (*e).into()],
                    value: json!({"hooks": [{"type": "command", "command": format!("coffer hook --event {e}")}]}),
                },
            )
        })
        .collect();
    resources.push(member(
        Facet::Mcp,
        ["mcp", "servers"],
        SERVER,
        server_value(),
    ));
    resources.push(member(
        Facet::Provider,
        ["models", "providers"],
        PROVIDER,
        provider_value(),
    ));
    let claim = Claim {
        origin,
        path,
        syntax: Syntax::Json5,
        kind: ClaimKind::HookEntries {
            parent: vec!["hooks".into()],
            shape: HookShape::MatcherGroups,
            program: vec!["coffer".into(), "hook".into()],
        },
    };
    (resources, claim)
}

fn run(
    syntax: Syntax,
    before: &[u8],
    resources: &[&Resource],
    claims: &[&Claim],
    record: Option<&coffer::state::FileRecord>,
) -> Result<coffer::engine::reconcile::Outcome, String> {
    reconcile(&Input {
        display: "~/.openclaw/openclaw.json",
        before: Some(before),
        syntax,
        resources,
        claims,
        record,
        retain: Retain::Nothing,
    })
    .map_err(|e| e.to_string())
}

/// The value of member `key` of the object at `parent` (the document is
/// not parsed whole: it may be deeper than serde_json goes).
fn member_value(body: &str, parent: &[String], key: &str) -> Option<Value> {
    let doc = JsonDoc::new(body.to_owned(), Flavor::Json5).ok()?;
    let c = doc.container(parent, true).ok()??;
    let (_, item) = c.member(key)?;
    value::parse(doc.slice(item.value.clone()), Flavor::Json5)
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// Apply, apply again, let the user edit, destroy, through the engine's
/// reconcile of one file read as JSON5; the file as installed.
fn engine_round_trip(original: &[u8], events: &[&str]) -> Result<Vec<u8>, String> {
    let (resources, claim) = openclaw_resources(events);
    round_trip_with(original, &resources.iter().collect::<Vec<_>>(), &[&claim])
}

/// [`engine_round_trip`] with the given resources.
fn round_trip_with(
    original: &[u8],
    resources: &[&Resource],
    claims: &[&Claim],
) -> Result<Vec<u8>, String> {
    let applied = run(Syntax::Json5, original, resources, claims, None)?;
    let installed = applied.after.ok_or("the file went away")?;
    let body = Text::decode(&installed).unwrap().body;
    validate(&body, Flavor::Json5).map_err(|e| format!("invalid JSON5 {e:?}:\n{body}"))?;
    for (r, name) in resources
        .iter()
        .zip(resources.iter().map(|r| r.fragment.label()))
    {
        if let Fragment::Member {
            parent,
            name: key,
            value: want,
            ..
        } = &r.fragment
            && member_value(&body, parent, key).as_ref() != Some(want)
        {
            return Err(format!("{name} is not there:\n{body}"));
        }
    }
    for cmd in FOREIGN_COMMANDS {
        let quoted = serde_json::to_string(cmd).unwrap();
        let count = |b: &[u8]| text(b).matches(&quoted).count();
        if count(&installed) != count(original) {
            return Err(format!("{cmd} lost:\n{body}"));
        }
    }

    let again = run(
        Syntax::Json5,
        &installed,
        resources,
        claims,
        applied.record.as_ref(),
    )?;
    if again.after.as_deref() != Some(&installed[..]) || !again.changes.is_empty() {
        return Err(format!(
            "a second apply changed the file:\n{}",
            text(again.after.as_deref().unwrap_or_default())
        ));
    }
    let destroyed = run(
        Syntax::Json5,
        &installed,
        &[],
        claims,
        again.record.as_ref(),
    )?;
    if destroyed.after.as_deref() != Some(original) {
        return Err(format!(
            "destroy did not restore the file\n--- original\n{:?}\n--- installed\n{:?}\n--- after destroy\n{:?}",
            text(original),
            body,
            text(destroyed.after.as_deref().unwrap_or_default())
        ));
    }
    if destroyed.record.is_some() {
        return Err("the record outlived the members".into());
    }
    user_edit_survives(original, &installed, claims, applied.record.as_ref())?;
    Ok(installed)
}

/// A member the user adds at the top of the object between apply and
/// destroy is there after the destroy, and nothing else changed.
fn user_edit_survives(
    original: &[u8],
    installed: &[u8],
    claims: &[&Claim],
    record: Option<&coffer::state::FileRecord>,
) -> Result<(), String> {
    const EDIT: &[u8] = b"userEdit: true, ";
    let open = |b: &[u8]| {
        let body = Text::decode(b).unwrap();
        let s = coffer::formats::json::scan::Scanner::new(&body.body, Flavor::Json5);
        body.file_offset(s.root()) + 1
    };
    let root_has_members = |b: &[u8]| {
        let body = Text::decode(b).unwrap().body;
        let s = coffer::formats::json::scan::Scanner::new(&body, Flavor::Json5);
        !s.container(s.root()).unwrap().items.is_empty()
    };
    if !root_has_members(original) {
        return Ok(());
    }
    let mut edited = installed.to_vec();
    let at = open(&edited);
    edited.splice(at..at, EDIT.iter().copied());
    let destroyed = run(Syntax::Json5, &edited, &[], claims, record)?;
    let mut expected = original.to_vec();
    let at = open(&expected);
    expected.splice(at..at, EDIT.iter().copied());
    if destroyed.after.as_deref() != Some(&expected[..]) {
        return Err(format!(
            "the user's edit did not survive exactly\n--- expected\n{:?}\n--- after destroy\n{:?}",
            text(&expected),
            text(destroyed.after.as_deref().unwrap_or_default())
        ));
    }
    Ok(())
}

/// The example of agent-formats.md §6, as OpenClaw's docs write it.
const OPENCLAW: &str = r#"{ plugins: { load: { paths: ["~/dev/ctx-plugin"] }, entries: { "ctx-plugin": { enabled: true } } },
  hooks:   { internal: { enabled: true, entries: { "session-memory": { enabled: true } } } },
  mcp:     { servers: { ctx: { command: "npx", args: ["-y", "ctx-mcp"], env: { API_KEY: "x" } } } },
  models:  { providers: { myproxy: { baseUrl: "http://localhost:8080/v1", apiKey: "sk-x", api: "openai-completions",
                                     models: [{ id: "my-model", name: "My model" }] } } },
  agents:  { defaults: { model: { primary: "myproxy/my-model" } } } }
"#;

/// Synthetic JSON5 files: each feature of the format, where coffer's
/// members and hook entries go in beside it.
const FIXTURES: &[(&str, &str)] = &[
    ("agent-formats.md §6", OPENCLAW),
    (
        "the spec's example",
        "// This file is written in JSON5 syntax, naturally, but npm needs a regular\n// JSON file, so compile via `npm run build`. Be sure to keep both in sync!\n{\n  // comments\n  unquoted: 'and you can quote me on that',\n  singleQuotes: 'I can use \"double quotes\" here',\n  lineBreaks: \"Look, Mom! \\\nNo \\\\n's!\",\n  hexadecimal: 0xdecaf,\n  leadingDecimalPoint: .8675309, andTrailing: 8675309.,\n  positiveSign: +1,\n  trailingComma: 'in objects', andIn: ['arrays',],\n  \"backwardsCompatible\": \"with JSON\",\n}\n",
    ),
    (
        "unquoted keys everywhere",
        "{\n  gateway: { port: 18789 },\n  mcp: {\n    servers: {\n      ctx: { command: 'npx', args: ['-y', 'ctx-mcp'] },\n    },\n  },\n  models: {\n    providers: {},\n  },\n}\n",
    ),
    (
        "keys spelled every way",
        "{\n  $schema: 'x',\n  _private: 1,\n  ümlaut: 2,\n  \\u006dcp: {\n    'servers': {\n      \"ctx\": {},\n    },\n  },\n  'models': { \"providers\": { a_1: null } },\n}\n",
    ),
    (
        "single quotes",
        "{\n  'mcp': {\n    'servers': {\n      'ctx': {\n        'command': 'npx',\n        'args': ['it\\'s', \"q\"],\n      },\n    },\n  },\n}\n",
    ),
    (
        "hex, signs and decimal points",
        "{\n  a: 0x1F,\n  b: -0XaB,\n  c: +1,\n  d: .5,\n  e: 5.,\n  f: -.5e-3,\n  models: { providers: { x: { port: 0x1F90 } } },\n}\n",
    ),
    (
        "Infinity and NaN",
        "{\n  limits: [Infinity, -Infinity, NaN, +NaN],\n  mcp: { servers: { slow: { timeout: Infinity } } },\n}\n",
    ),
    (
        "comments in every position",
        "// head\n/* block\n   header */\n{ // after the brace\n  /* before a key */ mcp /* after a key */ : /* before a value */ { // inner\n    servers: { /* none yet */ },\n  }, // after a comma\n  // before the brace\n} // tail\n/* end */",
    ),
    (
        "a commented-out member last",
        "{\n  a: 1,\n  // mcp: { servers: {} },\n}\n",
    ),
    (
        "trailing commas everywhere",
        "{\n  a: [\n    1,\n  ],\n  models: {\n    providers: {\n      x: {},\n    },\n  },\n}\n",
    ),
    (
        "no trailing commas",
        "{\n  a: [\n    1\n  ],\n  models: {\n    providers: {\n      x: {}\n    }\n  }\n}\n",
    ),
    (
        "escaped line breaks in strings",
        "{\n  banner: 'one \\\ntwo \\\r\nthree',\n  b: \"a\\\u{2028}b\",\n}\n",
    ),
    (
        "extra whitespace",
        "{\u{a0}a:\u{3000}1,\u{b}b:\u{c}2,\n\u{feff}\u{2028}c\u{2029}: 'LS \u{2028} and PS \u{2029} in a string',\n}\u{1680}\n",
    ),
    ("crlf", "{\r\n  a: 1, // one\r\n  b: 'two',\r\n}\r\n"),
    ("bom", "\u{feff}// head\n{a: 1}\n"),
    (
        "a bom, then U+FEFF as whitespace",
        "\u{feff}\u{feff}{a: 1}\u{feff}",
    ),
    ("no final newline", "{\n  a: 1,\n}"),
    ("an empty object", "{}"),
    ("an empty object on its own line", "{}\n"),
    ("an empty object holding a comment", "{ /* nothing yet */ }"),
    ("minified", "{a:1,b:[1,2,],c:{d:'e'},}"),
    ("one line with comments", "{a: 1 /* c */, 'b': 2,} // end"),
    (
        "tabs",
        "{\n\t// tabs\n\tmcp: {\n\t\tservers: {\n\t\t\tctx: {},\n\t\t},\n\t},\n}",
    ),
    (
        "comment markers inside strings",
        "{\n  url: 'https://x.y/*z*/', // real comment\n  glob: \"src/**/*.ts\",\n  q: '\\'//\\'',\n}\n",
    ),
    (
        "other tools' hooks",
        "{\n  hooks: {\n    Stop: [\n      { hooks: [{ type: 'command', command: '~/bin/guard.sh' }] },\n    ],\n  },\n}\n",
    ),
];

#[test]
fn every_json5_fixture_is_exact_through_the_engine() {
    for (name, text) in FIXTURES {
        for events in [&[][..], &["SessionStart", "Stop"][..]] {
            engine_round_trip(text.as_bytes(), events).unwrap_or_else(|e| panic!("{name}: {e}"));
        }
    }
    eprintln!(
        "synthetic JSON5 fixtures: {}/{} exact",
        FIXTURES.len(),
        FIXTURES.len()
    );
}

/// New text follows the file: bare keys where its keys are bare (quoted
/// where a key is not an identifier), its quote, its trailing commas.
#[test]
fn new_members_are_written_in_the_files_style() {
    let installed = |original: &str| text(&engine_round_trip(original.as_bytes(), &[]).unwrap());
    assert_eq!(
        installed(FIXTURES[2].1),
        "{\n  gateway: { port: 18789 },\n  mcp: {\n    servers: {\n      ctx: { command: 'npx', args: ['-y', 'ctx-mcp'] },\n      'coffer-test': {\n        command: 'coffer',\n        args: ['mcp', '--stdio'],\n        env: {\n          TOKEN: '${TOKEN}',\n        },\n      },\n    },\n  },\n  models: {\n    providers: {\n      cofferProxy: {\n        baseUrl: 'http://localhost:9090/v1',\n        apiKey: '${MY_KEY}',\n        api: 'openai-completions',\n        models: [\n          {\n            id: 'qwen',\n            name: 'qwen',\n          },\n        ],\n      },\n    },\n  },\n}\n"
    );
    // Quoted keys and double quotes stay so; no trailing commas either.
    assert_eq!(
        installed("{\n  \"a\": 'x',\n  \"b\": \"y\"\n}"),
        "{\n  \"a\": 'x',\n  \"b\": \"y\",\n  \"mcp\": {\n    \"servers\": {\n      \"coffer-test\": {\n        \"command\": \"coffer\",\n        \"args\": [\"mcp\", \"--stdio\"],\n        \"env\": {\n          \"TOKEN\": \"${TOKEN}\"\n        }\n      }\n    }\n  },\n  \"models\": {\n    \"providers\": {\n      \"cofferProxy\": {\n        \"baseUrl\": \"http://localhost:9090/v1\",\n        \"apiKey\": \"${MY_KEY}\",\n        \"api\": \"openai-completions\",\n        \"models\": [\n          {\n            \"id\": \"qwen\",\n            \"name\": \"qwen\"\n          }\n        ]\n      }\n    }\n  }\n}"
    );
}

/// A member that is there is found whatever the spelling of its name,
/// and one coffer did not create is a conflict, even when it holds a value
/// JSON cannot (`Infinity`), which is never equal to a desired one.
#[test]
fn a_same_named_member_is_found_however_spelled() {
    let (resources, claim) = openclaw_resources(&[]);
    let resources: Vec<&Resource> = resources.iter().collect();
    for spelling in [
        "'coffer-test'",
        "\"coffer-test\"",
        "'coffer\\u002dtest'",
        "'coffer\\x2dtest'",
    ] {
        for value in ["{ command: 'theirs' }", "{ timeout: Infinity }", "NaN"] {
            let file = format!("{{ mcp: {{ servers: {{ {spelling}: {value} }} }} }}");
            let Err(e) = run(Syntax::Json5, file.as_bytes(), &resources, &[&claim], None) else {
                panic!("{file}: no conflict");
            };
            assert!(e.contains("did not create"), "{file}: {e}");
        }
    }
    let file = "{ models: { providers: { \\u0063offerProxy: {} } } }";
    let Err(e) = run(Syntax::Json5, file.as_bytes(), &resources, &[&claim], None) else {
        panic!("{file}: no conflict");
    };
    assert!(e.contains("did not create"), "{e}");
}

/// A key on coffer's path written twice, in two spellings, is refused
/// like a duplicate written alike: readers disagree about which counts.
#[test]
fn a_key_on_the_path_written_twice_in_two_spellings_is_refused() {
    let (resources, claim) = openclaw_resources(&[]);
    let resources: Vec<&Resource> = resources.iter().collect();
    let file = "{\n  mcp: { servers: {} },\n  'mcp': {},\n}\n";
    let Err(e) = run(Syntax::Json5, file.as_bytes(), &resources, &[&claim], None) else {
        panic!("no error");
    };
    assert!(e.contains(":3:3: `mcp` appears more than once"), "{e}");
}

/// A member of coffer's that the user changed to hold `Infinity` is
/// rewritten by the next apply and removed by destroy.
#[test]
fn an_owned_member_holding_infinity_is_reconciled() {
    let (resources, claim) = openclaw_resources(&[]);
    let resources: Vec<&Resource> = resources.iter().collect();
    let claims = [&claim];
    let original = b"{\n  mcp: { servers: {} },\n}\n";
    let applied = run(Syntax::Json5, original, &resources, &claims, None).unwrap();
    let installed = text(&applied.after.unwrap());
    let edited = installed.replace("\"--stdio\"]", "\"--stdio\"], timeout: -Infinity");
    assert_ne!(edited, installed);
    let fixed = run(
        Syntax::Json5,
        edited.as_bytes(),
        &resources,
        &claims,
        applied.record.as_ref(),
    )
    .unwrap();
    assert_eq!(fixed.changes.len(), 1, "{:?}", fixed.changes);
    assert_eq!(text(fixed.after.as_deref().unwrap()), installed);
    let destroyed = run(
        Syntax::Json5,
        edited.as_bytes(),
        &[],
        &claims,
        fixed.record.as_ref(),
    )
    .unwrap();
    assert_eq!(text(destroyed.after.as_deref().unwrap()), text(original));
}

/// A desired value that changes is rewritten in place, and destroy still
/// gives back the original.
#[test]
fn a_changed_member_is_rewritten_and_destroy_is_still_exact() {
    let (resources, claim) = openclaw_resources(&[]);
    let claims = [&claim];
    let first: Vec<&Resource> = resources.iter().collect();
    let mut changed = resources.clone();
    changed[0] = member(
        Facet::Mcp,
        ["mcp", "servers"],
        SERVER,
        json!({"url": "http://localhost:1/mcp", "transport": "streamable-http"}),
    );
    let changed: Vec<&Resource> = changed.iter().collect();
    for (name, original) in FIXTURES {
        let a = run(Syntax::Json5, original.as_bytes(), &first, &claims, None).unwrap();
        let b = run(
            Syntax::Json5,
            a.after.as_deref().unwrap(),
            &changed,
            &claims,
            a.record.as_ref(),
        )
        .unwrap();
        let body = text(b.after.as_deref().unwrap());
        validate(body.trim_start_matches('\u{feff}'), Flavor::Json5)
            .unwrap_or_else(|e| panic!("{name}: {e:?}\n{body}"));
        assert!(body.contains("streamable-http"), "{name}: {body}");
        let c = run(
            Syntax::Json5,
            b.after.as_deref().unwrap(),
            &[],
            &claims,
            b.record.as_ref(),
        )
        .unwrap();
        assert_eq!(text(c.after.as_deref().unwrap()), *original, "{name}");
    }
}

// ---------------------------------------------------------------------------
// The JSON and JSONC corpus, read as JSON5

/// The one file SOURCES.md calls malformed: its object is never closed.
const BROKEN: &str = "02-0gis0-mcp-sampling.vscode-mcp.json";

fn corpus() -> Option<Vec<PathBuf>> {
    let corpus = shared()?.join("corpus");
    let mut out = Vec::new();
    for e in std::fs::read_dir(&corpus).unwrap().flatten() {
        if !e.path().is_dir() {
            continue;
        }
        for f in std::fs::read_dir(e.path()).unwrap().flatten() {
            let name = f.file_name().to_string_lossy().into_owned();
            if name.ends_with(".json") || name.ends_with(".jsonc") {
                out.push(f.path());
            }
        }
    }
    out.sort();
    Some(out)
}

/// The resources of [`openclaw_resources`] that fit in a file holding
/// `v`: where it has `hooks`, `mcp` or `models` of another shape (a
/// plugin's hooks array), coffer would refuse to replace them, rightly.
fn fitting(v: &Value) -> (Vec<Resource>, Vec<Claim>) {
    let fits = |path: &[&str], leaf_is_array: bool| {
        let mut at = v;
        for (i, k) in path.iter().enumerate() {
            match at.get(k) {
                None => return true,
                Some(next) if i + 1 == path.len() && leaf_is_array => return next.is_array(),
                Some(next) if !next.is_object() => return false,
                Some(next) => at = next,
            }
        }
        true
    };
    let events: Vec<&str> = ["SessionStart", "Stop"]
        .into_iter()
        .filter(|e| fits(&["hooks", e], true))
        .collect();
    let (mut resources, claim) = openclaw_resources(&events);
    resources.retain(|r| match &r.fragment {
        Fragment::Member { parent, name, .. } => {
            let p: Vec<&str> = parent.iter().map(String::as_str).collect();
            fits(&[&p[..], &[name.as_str()]].concat(), false)
        }
        _ => true,
    });
    let claims = if fits(&["hooks"], false) {
        vec![claim]
    } else {
        Vec::new()
    };
    (resources, claims)
}

/// Every JSON and JSONC file of the corpus, read as JSON5: exact through
/// the engine, and edited exactly as when it is read as JSONC (the same
/// spans, the same new text).
#[test]
fn every_json_and_jsonc_corpus_file_is_exact_as_json5() {
    let Some(files) = corpus() else { return };
    assert_eq!(files.len(), 57, "the corpus changed");
    let (mut exact, mut every_resource) = (0, 0);
    for path in &files {
        let name = path.file_name().unwrap().to_string_lossy();
        let original = std::fs::read(path).unwrap();
        if name == BROKEN {
            let body = Text::decode(&original).unwrap().body;
            let e = validate(&body, Flavor::Json5).expect_err("the file is broken");
            assert_eq!(e.message, "EOF while parsing an object");
            assert_eq!(e.offset, body.trim_end().len(), "{e:?}");
            continue;
        }
        let body = Text::decode(&original).unwrap().body;
        let (resources, claims) = fitting(&value::parse(&body, Flavor::Json5).unwrap());
        let resources: Vec<&Resource> = resources.iter().collect();
        let claims: Vec<&Claim> = claims.iter().collect();
        every_resource += usize::from(resources.len() == 4 && claims.len() == 1);
        let installed = round_trip_with(&original, &resources, &claims)
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let as_jsonc = run(Syntax::Jsonc, &original, &resources, &claims, None).unwrap();
        assert_eq!(
            text(&installed),
            text(as_jsonc.after.as_deref().unwrap()),
            "{name}: JSON5 and JSONC edit differently"
        );
        exact += 1;
    }
    eprintln!(
        "JSON and JSONC corpus as JSON5: {exact}/{} files exact ({every_resource} with two hook entries, a server and a provider; the others without what their shape refuses), the broken one refused",
        files.len() - 1
    );
}

// ---------------------------------------------------------------------------
// Properties over generated JSON5

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn the_engine_reconciles_json5_exactly(
        doc in generate::openclaw_document(),
        style in generate::style(),
        events in prop::sample::subsequence(vec!["SessionStart", "Stop", "PreToolUse"], 0..3),
    ) {
        let text = generate::render(&doc, &style);
        if let Err(e) = engine_round_trip(text.as_bytes(), &events) {
            return Err(TestCaseError::fail(format!("{text:?}\n{e}")));
        }
    }

}

/// A hook entry of coffer's is recognised by what its command says, not
/// by how JSON5 spells it: escapes JSON lacks included.
#[test]
fn coffers_hook_entry_is_recognised_however_spelled() {
    let (resources, claim) = openclaw_resources(&["Stop"]);
    let hooks_only: Vec<&Resource> = resources[..1].iter().collect();
    for command in [
        "'\\x63offer hook --event Stop'",
        "'c\\offer hook --event Stop'",
        "'cof\\\nfer hook --event Stop'",
        "\"\\u0063offer hook --event Stop\"",
    ] {
        let file = format!(
            "{{\n  hooks: {{\n    Stop: [\n      {{ hooks: [{{ type: 'command', command: {command} }}] }},\n    ],\n  }},\n}}\n"
        );
        let kept = run(Syntax::Json5, file.as_bytes(), &hooks_only, &[&claim], None).unwrap();
        assert!(kept.changes.is_empty(), "{file}: {:?}", kept.changes);
        assert_eq!(kept.after.as_deref(), Some(file.as_bytes()));
        let gone = run(Syntax::Json5, file.as_bytes(), &[], &[&claim], None).unwrap();
        assert_eq!(
            text(gone.after.as_deref().unwrap()),
            "{\n  hooks: {\n    Stop: [\n    ],\n  },\n}\n",
            "{file}"
        );
    }
}
