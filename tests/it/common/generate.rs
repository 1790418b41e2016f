//! Generated JSON and JSONC text for the property tests.
//!
//! A document is a tree of values whose containers carry their layout, and
//! the printer decides, at every place where JSON allows whitespace (and
//! JSONC a comment), what stands there, from a stream of choice bytes. So
//! the same tree comes out with random whitespace, tabs or spaces, LF or
//! CRLF, blank lines, a BOM, trailing commas and comments in every
//! position, and proptest can shrink each of those choices on its own.

use proptest::prelude::*;

/// A JSON value; containers carry their layout. Object members keep the
/// order they were generated in, which is random.
#[derive(Debug, Clone)]
pub enum J {
    /// The literal text of a scalar.
    Leaf(String),
    Arr(Vec<J>, Layout),
    Obj(Vec<(String, J)>, Layout),
}

#[derive(Debug, Clone, Copy)]
pub struct Layout {
    pub one_line: bool,
    /// In JSONC, a comma after the last item.
    pub trailing_comma: bool,
}

/// How a whole file is written.
#[derive(Debug, Clone)]
pub struct Style {
    pub indent: &'static str,
    pub eol: &'static str,
    /// Every third line break is the other kind (LF among CRLF, or the
    /// reverse), as in a file edited on two systems.
    pub mixed_eol: bool,
    pub final_newline: bool,
    pub bom: bool,
    /// No spaces at all: `{"a":1,"b":[1,2]}`.
    pub minified: bool,
    /// Comments and trailing commas may appear.
    pub jsonc: bool,
    /// One choice per place trivia may stand, used in turn; empty for a
    /// tidy file.
    pub trivia: Vec<u8>,
}

pub fn leaf() -> impl Strategy<Value = J> {
    prop::sample::select(vec![
        "0",
        "-12",
        "-0.5e-3",
        "1E+2",
        "true",
        "false",
        "null",
        "\"\"",
        "\"plain\"",
        "\"a // not a comment\"",
        "\"/* nor this */\"",
        "\"}], \\\" {[\"",
        "\"é ☕ 😀 中文\"",
        "\"\\u00e9\\ud83d\\ude00\\\\\\/\\b\\f\\n\\r\\t\"",
    ])
    .prop_map(|s| J::Leaf(s.to_owned()))
}

pub fn layout() -> impl Strategy<Value = Layout> {
    (prop::bool::weighted(0.3), prop::bool::weighted(0.3)).prop_map(|(one_line, trailing_comma)| {
        Layout {
            one_line,
            trailing_comma,
        }
    })
}

/// Members with distinct keys, in the random order they were drawn.
pub fn members(
    key: impl Strategy<Value = String>,
    value: impl Strategy<Value = J>,
    size: std::ops::Range<usize>,
) -> impl Strategy<Value = Vec<(String, J)>> {
    prop::collection::vec((key, value), size).prop_map(|mut m| {
        let mut seen = std::collections::HashSet::new();
        m.retain(|(k, _)| seen.insert(k.clone()));
        m
    })
}

/// Any value, with keys from `key`.
pub fn value(key: impl Strategy<Value = String> + Clone + 'static) -> impl Strategy<Value = J> {
    leaf().prop_recursive(4, 32, 4, move |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..4), layout()).prop_map(|(v, l)| J::Arr(v, l)),
            (members(key.clone(), inner, 0..4), layout()).prop_map(|(m, l)| J::Obj(m, l)),
        ]
    })
}

pub fn style(jsonc: bool) -> impl Strategy<Value = Style> {
    (
        prop::sample::select(vec!["  ", "    ", "\t"]),
        (
            prop::sample::select(vec!["\n", "\r\n"]),
            prop::bool::weighted(0.1),
        ),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.1),
        prop::bool::weighted(if jsonc { 0.0 } else { 0.1 }),
        prop_oneof![Just(Vec::new()), prop::collection::vec(any::<u8>(), 1..48),],
    )
        .prop_map(
            move |(indent, (eol, mixed_eol), final_newline, bom, minified, trivia)| Style {
                indent,
                eol,
                mixed_eol,
                final_newline,
                bom,
                minified,
                jsonc,
                trivia,
            },
        )
}

struct Printer<'a> {
    style: &'a Style,
    next: usize,
    breaks: usize,
    out: String,
}

impl Printer<'_> {
    /// The next line break.
    fn eol(&mut self) -> &'static str {
        self.breaks += 1;
        match (
            self.style.mixed_eol && self.breaks.is_multiple_of(3),
            self.style.eol,
        ) {
            (true, "\n") => "\r\n",
            (true, _) => "\n",
            (false, eol) => eol,
        }
    }

    /// What stands in one place where trivia may, at nesting `depth`.
    fn trivia(&mut self, depth: usize) {
        let t = &self.style.trivia;
        if t.is_empty() || self.style.minified {
            return;
        }
        let choice = t[self.next % t.len()];
        self.next += 1;
        let eol = self.eol();
        let indent = self.style.indent.repeat(depth);
        let s = match (choice % 16, self.style.jsonc) {
            (0, _) => " ".to_owned(),
            (1, _) => "\t".to_owned(),
            (2, _) => format!("{eol}{indent}"),
            (3, true) => "/* c */".to_owned(),
            (4, true) => format!(" // c{eol}{indent}"),
            (5, true) => format!("/* two{eol}lines, ] }} \" // */"),
            (6, _) => format!("{eol}{eol}{indent}"),
            (7, true) => format!("{eol}{indent}// a line of its own{eol}{indent}"),
            (8, true) => " /**/ ".to_owned(),
            (3..=8, false) => format!(" {eol}{indent} "),
            _ => String::new(),
        };
        self.out.push_str(&s);
    }

    fn print(&mut self, j: &J, depth: usize) {
        let (open, close, items, layout) = match j {
            J::Leaf(t) => {
                self.out.push_str(t);
                return;
            }
            J::Arr(v, l) => ('[', ']', v.iter().map(|x| (None, x)).collect::<Vec<_>>(), l),
            J::Obj(m, l) => (
                '{',
                '}',
                m.iter().map(|(k, x)| (Some(k.as_str()), x)).collect(),
                l,
            ),
        };
        let style = self.style;
        let one_line = layout.one_line || style.minified;
        let (colon, comma) = if style.minified {
            (":", "")
        } else {
            (": ", " ")
        };
        self.out.push(open);
        self.trivia(depth + 1);
        let n = items.len();
        for (i, (k, v)) in items.into_iter().enumerate() {
            if !one_line {
                let eol = self.eol();
                self.out.push_str(eol);
                self.out.push_str(&style.indent.repeat(depth + 1));
            } else if i > 0 {
                self.out.push_str(comma);
            }
            if let Some(k) = k {
                self.out.push_str(&serde_json::to_string(k).unwrap());
                self.trivia(depth + 1);
                self.out.push_str(colon);
                self.trivia(depth + 1);
            }
            self.print(v, depth + 1);
            self.trivia(depth + 1);
            if i + 1 < n || (style.jsonc && layout.trailing_comma) {
                self.out.push(',');
                self.trivia(depth + 1);
            }
        }
        if !one_line && n > 0 {
            let eol = self.eol();
            self.out.push_str(eol);
            self.out.push_str(&style.indent.repeat(depth));
        }
        self.out.push(close);
    }
}

/// The text of `j` written in `style`.
pub fn render(j: &J, style: &Style) -> String {
    let mut p = Printer {
        style,
        next: 0,
        breaks: 0,
        out: String::new(),
    };
    if style.bom {
        p.out.push('\u{feff}');
    }
    p.trivia(0);
    p.print(j, 0);
    p.trivia(0);
    if style.final_newline {
        let eol = p.eol();
        p.out.push_str(eol);
    }
    p.out
}

/// Keys of generated objects: never one coffer manages, and lower case,
/// so that keys the tests create (upper case) collide with none.
pub fn key() -> impl Strategy<Value = String> + Clone {
    "[a-z]{1,7}".prop_filter("not a key coffer manages", |k| {
        k != "hooks" && k != "version"
    })
}

/// Commands of other tools' hook entries, some deceptively close to
/// coffer's own.
pub const FOREIGN_COMMANDS: [&str; 5] = [
    "~/bin/guard.sh",
    "npx other-tool hook",
    "coffer-lookalike hook",
    "'unbalanced",
    "coffer mcp",
];

/// Another tool's hook entry, in either agent shape.
pub fn foreign_entry() -> impl Strategy<Value = J> {
    let cmd = prop::sample::select(FOREIGN_COMMANDS.to_vec())
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

/// A `hooks` object: event arrays (some of the events coffer installs
/// at, in each agent's spelling) holding other tools' entries.
pub fn hooks() -> impl Strategy<Value = J> {
    let event = prop::sample::select(vec![
        "SessionStart",
        "sessionStart",
        "Stop",
        "stop",
        "PreToolUse",
        "UserPromptSubmit",
    ]);
    (
        members(
            event.prop_map(str::to_owned),
            (prop::collection::vec(foreign_entry(), 0..3), layout())
                .prop_map(|(v, l)| J::Arr(v, l)),
            0..3,
        ),
        layout(),
    )
        .prop_map(|(m, l)| J::Obj(m, l))
}

/// An `mcpServers` object holding other people's servers (lower-case
/// names, so never the one the tests install).
pub fn mcp_servers() -> impl Strategy<Value = J> {
    let server = (layout(), layout()).prop_map(|(l1, l2)| {
        J::Obj(
            vec![
                ("command".into(), J::Leaf("\"npx\"".into())),
                (
                    "args".into(),
                    J::Arr(
                        vec![J::Leaf("\"-y\"".into()), J::Leaf("\"pkg\"".into())],
                        l2,
                    ),
                ),
            ],
            l1,
        )
    });
    (members(key(), server, 0..3), layout()).prop_map(|(m, l)| J::Obj(m, l))
}

/// A settings document: members in random order, maybe a `hooks` object
/// and an `mcpServers` object among them at random places.
pub fn settings_document() -> impl Strategy<Value = J> {
    (
        members(key(), value(key()), 0..5),
        prop::option::of(hooks()),
        prop::option::of(mcp_servers()),
        layout(),
        (0usize..6, 0usize..7),
    )
        .prop_map(|(mut members, hooks, servers, l, (at, at2))| {
            if let Some(h) = hooks {
                members.insert(at.min(members.len()), ("hooks".into(), h));
            }
            if let Some(m) = servers {
                members.insert(at2.min(members.len()), ("mcpServers".into(), m));
            }
            J::Obj(members, l)
        })
}
