//! Properties over generated files, run through the engine on an in-memory
//! file system: apply is idempotent, destroy∘apply is the identity on
//! bytes, and foreign entries survive apply.

use std::path::{Path, PathBuf};

use coffer::desired::DesiredFile;
use coffer::engine::{self, Mode};
use coffer::env::Env;
use coffer::fsys::{Fs, MemFs};
use proptest::prelude::*;

/// A JSON value with layout choices attached.
#[derive(Debug, Clone)]
enum J {
    Leaf(String),
    Arr(Vec<J>, Layout),
    Obj(Vec<(String, J)>, Layout),
}

#[derive(Debug, Clone, Copy)]
struct Layout {
    one_line: bool,
    blank_lines: bool,
}

#[derive(Debug, Clone)]
struct Style {
    indent: &'static str,
    eol: &'static str,
    minified: bool,
    final_newline: bool,
    bom: bool,
}

fn leaf() -> impl Strategy<Value = J> {
    prop_oneof![
        any::<i32>().prop_map(|n| J::Leaf(n.to_string())),
        "[a-zA-Z0-9 é€😀\\\\\"/]{0,10}".prop_map(|s| J::Leaf(serde_json::to_string(&s).unwrap())),
        Just(J::Leaf("\"\\u00e9\\n\\t\"".into())),
        Just(J::Leaf("true".into())),
        Just(J::Leaf("null".into())),
        Just(J::Leaf("-1.5e3".into())),
    ]
}

fn layout() -> impl Strategy<Value = Layout> {
    (prop::bool::weighted(0.3), prop::bool::weighted(0.2)).prop_map(|(one_line, blank_lines)| {
        Layout {
            one_line,
            blank_lines,
        }
    })
}

fn key() -> impl Strategy<Value = String> {
    "[a-z]{1,7}".prop_filter("not a key coffer manages", |k| {
        k != "hooks" && k != "version"
    })
}

fn value() -> impl Strategy<Value = J> {
    leaf().prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..4), layout()).prop_map(|(v, l)| J::Arr(v, l)),
            (prop::collection::btree_map(key(), inner, 0..4), layout())
                .prop_map(|(m, l)| J::Obj(m.into_iter().collect(), l)),
        ]
    })
}

/// A foreign hook entry in either shape.
fn foreign_entry() -> impl Strategy<Value = J> {
    let cmd = prop_oneof![
        Just("~/bin/guard.sh"),
        Just("npx other-tool hook"),
        Just("coffer-lookalike hook"),
        Just("'unbalanced"),
        Just("coffer mcp"),
    ]
    .prop_map(|c| J::Leaf(serde_json::to_string(c).unwrap()));
    (cmd, layout(), layout(), any::<bool>()).prop_map(|(c, l1, l2, nested)| {
        let handler = J::Obj(
            vec![
                ("type".into(), J::Leaf("\"command\"".into())),
                ("command".into(), c),
            ],
            l1,
        );
        if nested {
            J::Obj(
                vec![
                    ("matcher".into(), J::Leaf("\"Bash\"".into())),
                    ("hooks".into(), J::Arr(vec![handler], l2)),
                ],
                l2,
            )
        } else {
            handler
        }
    })
}

fn hooks() -> impl Strategy<Value = J> {
    let event = prop_oneof![
        Just("SessionStart"),
        Just("sessionStart"),
        Just("Stop"),
        Just("stop"),
        Just("PreToolUse")
    ];
    (
        prop::collection::btree_map(
            event,
            (prop::collection::vec(foreign_entry(), 0..3), layout()),
            0..3,
        ),
        layout(),
    )
        .prop_map(|(m, l)| {
            J::Obj(
                m.into_iter()
                    .map(|(k, (v, al))| (k.to_owned(), J::Arr(v, al)))
                    .collect(),
                l,
            )
        })
}

fn document() -> impl Strategy<Value = J> {
    (
        prop::collection::btree_map(key(), value(), 0..5),
        prop::option::of(hooks()),
        layout(),
        0usize..6,
    )
        .prop_map(|(m, hooks, l, at)| {
            let mut members: Vec<(String, J)> = m.into_iter().collect();
            if let Some(h) = hooks {
                members.insert(at.min(members.len()), ("hooks".into(), h));
            }
            J::Obj(members, l)
        })
}

fn style() -> impl Strategy<Value = Style> {
    (
        prop_oneof![Just("  "), Just("    "), Just("\t")],
        prop_oneof![Just("\n"), Just("\r\n")],
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.1),
    )
        .prop_map(|(indent, eol, minified, final_newline, bom)| Style {
            indent,
            eol,
            minified,
            final_newline,
            bom,
        })
}

/// The items of a container, with keys for objects.
type Items<'a> = Vec<(Option<&'a str>, &'a J)>;

fn print(j: &J, s: &Style, depth: usize, out: &mut String) {
    let (open, close, items, layout): (char, char, Items, Layout) = match j {
        J::Leaf(t) => {
            out.push_str(t);
            return;
        }
        J::Arr(v, l) => ('[', ']', v.iter().map(|x| (None, x)).collect(), *l),
        J::Obj(m, l) => (
            '{',
            '}',
            m.iter().map(|(k, x)| (Some(k.as_str()), x)).collect(),
            *l,
        ),
    };
    let (colon, comma) = if s.minified { (":", ",") } else { (": ", ", ") };
    out.push(open);
    if s.minified || layout.one_line || items.is_empty() {
        for (i, (k, v)) in items.iter().enumerate() {
            if i > 0 {
                out.push_str(comma);
            }
            if let Some(k) = k {
                out.push_str(&format!("\"{k}\"{colon}"));
            }
            let flat = Style {
                minified: s.minified,
                ..s.clone()
            };
            print_one_line(v, &flat, out);
        }
    } else {
        for (i, (k, v)) in items.iter().enumerate() {
            out.push_str(s.eol);
            if layout.blank_lines && i > 0 {
                out.push_str(s.eol);
            }
            out.push_str(&s.indent.repeat(depth + 1));
            if let Some(k) = k {
                out.push_str(&format!("\"{k}\"{colon}"));
            }
            print(v, s, depth + 1, out);
            if i + 1 < items.len() {
                out.push(',');
            }
        }
        out.push_str(s.eol);
        out.push_str(&s.indent.repeat(depth));
    }
    out.push(close);
}

fn print_one_line(j: &J, s: &Style, out: &mut String) {
    let forced = match j {
        J::Leaf(_) => j.clone(),
        J::Arr(v, l) => J::Arr(
            v.clone(),
            Layout {
                one_line: true,
                ..*l
            },
        ),
        J::Obj(m, l) => J::Obj(
            m.clone(),
            Layout {
                one_line: true,
                ..*l
            },
        ),
    };
    let mut s = s.clone();
    s.minified = s.minified || matches!(forced, J::Leaf(_));
    match forced {
        J::Leaf(t) => out.push_str(&t),
        other => {
            // Children of a one-line container are one-line too.
            let mut inner = String::new();
            print(&force_one_line(&other), &s, 0, &mut inner);
            out.push_str(&inner);
        }
    }
}

fn force_one_line(j: &J) -> J {
    match j {
        J::Leaf(t) => J::Leaf(t.clone()),
        J::Arr(v, l) => J::Arr(
            v.iter().map(force_one_line).collect(),
            Layout {
                one_line: true,
                ..*l
            },
        ),
        J::Obj(m, l) => J::Obj(
            m.iter()
                .map(|(k, v)| (k.clone(), force_one_line(v)))
                .collect(),
            Layout {
                one_line: true,
                ..*l
            },
        ),
    }
}

fn render(j: &J, s: &Style) -> Vec<u8> {
    let mut out = String::new();
    if s.bom {
        out.push('\u{feff}');
    }
    print(j, s, 0, &mut out);
    if s.final_newline {
        out.push_str(s.eol);
    }
    out.into_bytes()
}

const HOME: &str = "/h";
const TARGETS: [&str; 3] = [
    "/h/.claude/settings.json",
    "/h/.codex/hooks.json",
    "/h/.cursor/hooks.json",
];

fn desired(events: &[&str]) -> DesiredFile {
    let list = events.join(", ");
    let text = format!(
        "version: 1\nagents:\n  claude-code:\n    context:\n      events: [{list}]\n  codex:\n    context:\n      events: [{list}]\n  cursor:\n    context:\n      events: [{list}]\n"
    );
    coffer::desired::parse(Path::new("coffer.yaml"), text).unwrap()
}

fn run(fs: &MemFs, env: &Env, file: &DesiredFile, mode: Mode) -> bool {
    let plan = engine::plan(file, mode, env, fs).expect("plans");
    engine::apply(&plan, env, fs).expect("applies");
    plan.has_changes()
}

fn events() -> impl Strategy<Value = Vec<&'static str>> {
    prop::sample::subsequence(
        vec![
            "session-start",
            "user-prompt-submit",
            "pre-tool-use",
            "post-tool-use",
            "stop",
            "pre-compact",
        ],
        1..4,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256)
    ))]

    #[test]
    fn apply_is_idempotent_and_destroy_is_its_exact_inverse(
        docs in prop::collection::vec(prop::option::of((document(), style())), 3),
        evs in events(),
    ) {
        let fs = MemFs::with_dirs(&["/h/.claude", "/h/.codex", "/h/.cursor"]);
        let env = Env::for_home(HOME);
        let mut originals = Vec::new();
        for (path, doc) in TARGETS.iter().zip(&docs) {
            let bytes = doc.as_ref().map(|(j, s)| render(j, s));
            if let Some(b) = &bytes {
                fs.put(Path::new(path), b);
            }
            originals.push((PathBuf::from(path), bytes));
        }
        let file = desired(&evs);

        prop_assert!(run(&fs, &env, &file, Mode::Apply), "the first apply changes something");
        let applied = fs.files();
        for (path, before) in &originals {
            let after = String::from_utf8(applied[path].clone()).unwrap();
            if let Some(before) = before {
                for cmd in ["~/bin/guard.sh", "npx other-tool hook", "coffer-lookalike hook", "'unbalanced", "coffer mcp"] {
                    let quoted = serde_json::to_string(cmd).unwrap();
                    let n_before = String::from_utf8_lossy(before).matches(&quoted).count();
                    prop_assert_eq!(after.matches(&quoted).count(), n_before, "foreign entry {} lost in {:?}", cmd, path);
                }
            }
            prop_assert!(serde_json::from_str::<serde_json::Value>(after.trim_start_matches('\u{feff}')).is_ok(), "invalid JSON written:\n{}", after);
        }

        let second = engine::plan(&file, Mode::Apply, &env, &fs).unwrap();
        prop_assert!(!second.has_changes(), "second plan not empty: {:?}", second.files.iter().map(|f| &f.display).collect::<Vec<_>>());

        run(&fs, &env, &file, Mode::Destroy);
        for (path, before) in &originals {
            let now = fs.read(path).unwrap();
            prop_assert_eq!(
                now.as_deref().map(String::from_utf8_lossy),
                before.as_deref().map(String::from_utf8_lossy),
                "destroy did not restore {:?}", path
            );
        }
    }

    #[test]
    fn changing_the_desired_events_then_destroying_restores_bytes(
        doc in document(),
        st in style(),
        first in events(),
        second in events(),
    ) {
        let fs = MemFs::with_dirs(&["/h/.claude", "/h/.codex", "/h/.cursor"]);
        let env = Env::for_home(HOME);
        let original = render(&doc, &st);
        for p in TARGETS {
            fs.put(Path::new(p), &original);
        }
        run(&fs, &env, &desired(&first), Mode::Apply);
        run(&fs, &env, &desired(&second), Mode::Apply);
        prop_assert!(!engine::plan(&desired(&second), Mode::Apply, &env, &fs).unwrap().has_changes());
        run(&fs, &env, &desired(&second), Mode::Destroy);
        for p in TARGETS {
            prop_assert_eq!(
                String::from_utf8_lossy(&fs.read(Path::new(p)).unwrap().unwrap()).into_owned(),
                String::from_utf8_lossy(&original).into_owned(),
                "{}", p
            );
        }
    }
}
