//! Generated JSON5 text: the tree and layout of `common::generate`, printed
//! with what only JSON5 has, chosen at random at every place it may stand:
//! keys bare, single- or double-quoted or spelled with `\u` escapes;
//! JSON5 numbers and strings; comments and trailing commas; and the
//! whitespace JSON lacks (NBSP, BOM, VT, FF, U+2028, U+2029, U+3000).

use proptest::prelude::*;

use crate::common::generate::{J, layout, members};

/// Scalars only JSON5 has, beside JSON's.
pub fn leaf() -> impl Strategy<Value = J> {
    prop::sample::select(vec![
        "0",
        "-12",
        "1E+2",
        "0x1F",
        "-0XaB",
        "+1",
        ".5",
        "5.",
        "-.5e3",
        "Infinity",
        "-Infinity",
        "NaN",
        "+NaN",
        "true",
        "false",
        "null",
        "''",
        "'single'",
        "'it\\'s \"quoted\"'",
        "\"double 'q'\"",
        "'line \\\ncontinued'",
        "'\\x41\\v\\0\\q'",
        "'é ☕ 😀 中文'",
        "'\u{2028} and \u{2029} raw'",
        "\"a // not a comment\"",
        "'/* nor this */'",
        "'}], \\' {['",
    ])
    .prop_map(|s| J::Leaf(s.to_owned()))
}

/// Keys that are identifiers or not, so that every spelling is tried.
pub fn key() -> impl Strategy<Value = String> + Clone {
    prop_oneof![
        4 => "[a-z]{1,6}",
        1 => "[a-z]{1,3}[-. ][a-z]{1,3}",
        1 => prop::sample::select(vec!["$ref", "_x", "ümlaut", "null", "true", "a1"])
            .prop_map(str::to_owned),
    ]
    .prop_filter("not a key coffer manages", |k| {
        !matches!(k.as_str(), "hooks" | "version" | "mcp" | "models")
    })
}

pub fn value() -> impl Strategy<Value = J> {
    leaf().prop_recursive(4, 32, 4, |inner| {
        prop_oneof![
            (prop::collection::vec(inner.clone(), 0..4), layout()).prop_map(|(v, l)| J::Arr(v, l)),
            (members(key(), inner, 0..4), layout()).prop_map(|(m, l)| J::Obj(m, l)),
        ]
    })
}

/// How a whole file is written.
#[derive(Debug, Clone)]
pub struct Style {
    pub indent: &'static str,
    pub eol: &'static str,
    pub final_newline: bool,
    pub bom: bool,
    /// One choice per place trivia may stand, used in turn; empty for a
    /// tidy file.
    pub trivia: Vec<u8>,
    /// One choice per key: how it is spelled.
    pub keys: Vec<u8>,
}

pub fn style() -> impl Strategy<Value = Style> {
    (
        prop::sample::select(vec!["  ", "    ", "\t"]),
        prop::sample::select(vec!["\n", "\r\n"]),
        prop::bool::weighted(0.8),
        prop::bool::weighted(0.1),
        prop_oneof![Just(Vec::new()), prop::collection::vec(any::<u8>(), 1..48)],
        prop::collection::vec(any::<u8>(), 1..16),
    )
        .prop_map(|(indent, eol, final_newline, bom, trivia, keys)| Style {
            indent,
            eol,
            final_newline,
            bom,
            trivia,
            keys,
        })
}

struct Printer<'a> {
    style: &'a Style,
    trivia: usize,
    keys: usize,
    out: String,
}

impl Printer<'_> {
    fn trivia(&mut self, depth: usize) {
        let t = &self.style.trivia;
        if t.is_empty() {
            return;
        }
        let choice = t[self.trivia % t.len()];
        self.trivia += 1;
        let eol = self.style.eol;
        let indent = self.style.indent.repeat(depth);
        let s = match choice % 20 {
            0 => " ".to_owned(),
            1 => "\t".to_owned(),
            2 => format!("{eol}{indent}"),
            3 => "/* c */".to_owned(),
            4 => format!(" // c{eol}{indent}"),
            5 => format!("/* two{eol}lines, ] }} \" ' // */"),
            6 => format!("{eol}{eol}{indent}"),
            7 => format!("{eol}{indent}// a line of its own{eol}{indent}"),
            8 => "\u{a0}".to_owned(),
            9 => "\u{feff}".to_owned(),
            10 => "\u{2028}".to_owned(),
            11 => format!("\u{2029}{eol}{indent}"),
            12 => "\u{b}\u{c}".to_owned(),
            13 => "\u{3000}".to_owned(),
            14 => format!(" // ends at LS\u{2028}{indent}"),
            _ => String::new(),
        };
        self.out.push_str(&s);
    }

    fn key(&mut self, k: &str) {
        let choice = self.style.keys[self.keys % self.style.keys.len()];
        self.keys += 1;
        let bare = coffer::formats::json::json5::is_identifier(k);
        let s = match choice % 5 {
            0 | 1 if bare => k.to_owned(),
            2 if bare => {
                // The first letter as a `\u` escape.
                let mut c = k.chars();
                let first = c.next().unwrap();
                format!("\\u{:04x}{}", first as u32, c.as_str())
            }
            3 => format!("'{}'", k.replace('\'', "\\'")),
            _ => serde_json::to_string(k).unwrap(),
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
        self.out.push(open);
        self.trivia(depth + 1);
        let n = items.len();
        for (i, (k, v)) in items.into_iter().enumerate() {
            if !layout.one_line {
                self.out.push_str(self.style.eol);
                self.out.push_str(&self.style.indent.repeat(depth + 1));
            } else if i > 0 {
                self.out.push(' ');
            }
            if let Some(k) = k {
                self.key(k);
                self.trivia(depth + 1);
                self.out.push_str(": ");
                self.trivia(depth + 1);
            }
            self.print(v, depth + 1);
            self.trivia(depth + 1);
            if i + 1 < n || layout.trailing_comma {
                self.out.push(',');
                self.trivia(depth + 1);
            }
        }
        if !layout.one_line && n > 0 {
            self.out.push_str(self.style.eol);
            self.out.push_str(&self.style.indent.repeat(depth));
        }
        self.out.push(close);
    }
}

/// The text of `j` written in `style`.
pub fn render(j: &J, style: &Style) -> String {
    let mut p = Printer {
        style,
        trivia: 0,
        keys: 0,
        out: String::new(),
    };
    if style.bom {
        p.out.push('\u{feff}');
    }
    p.trivia(0);
    p.print(j, 0);
    p.trivia(0);
    if style.final_newline {
        p.out.push_str(style.eol);
    }
    p.out
}

/// Other people's entries of a named-member object (MCP servers,
/// providers), under lower-case names, so never the tests' own.
fn named_members() -> impl Strategy<Value = J> {
    let entry = (layout(), layout()).prop_map(|(l1, l2)| {
        J::Obj(
            vec![
                ("command".into(), J::Leaf("'npx'".into())),
                (
                    "args".into(),
                    J::Arr(vec![J::Leaf("\"-y\"".into()), J::Leaf("'pkg'".into())], l2),
                ),
                ("timeout".into(), J::Leaf("Infinity".into())),
            ],
            l1,
        )
    });
    (members("[a-z]{1,7}", entry, 0..3), layout()).prop_map(|(m, l)| J::Obj(m, l))
}

/// `parent: { child: <named members> }`, maybe with more beside.
fn nest(parent: &str, child: &str) -> impl Strategy<Value = (String, J)> {
    let (parent, child) = (parent.to_owned(), child.to_owned());
    (
        prop::option::of(named_members()),
        members(key(), value(), 0..2),
        layout(),
    )
        .prop_map(move |(named, mut others, l)| {
            if let Some(n) = named {
                others.push((child.clone(), n));
            }
            (parent.clone(), J::Obj(others, l))
        })
}

/// An OpenClaw-like document: members in random order, maybe `mcp` with
/// `servers`, `models` with `providers` and a `hooks` object of other
/// tools' hook entries among them at random places.
pub fn openclaw_document() -> impl Strategy<Value = J> {
    (
        members(key(), value(), 0..5),
        prop::option::of(nest("mcp", "servers")),
        prop::option::of(nest("models", "providers")),
        prop::option::of(crate::common::generate::hooks()),
        layout(),
        (0usize..6, 0usize..7, 0usize..8),
    )
        .prop_map(|(mut m, mcp, models, hooks, l, (a, b, c))| {
            for (at, member) in [
                (a, mcp),
                (b, models),
                (c, hooks.map(|h| ("hooks".into(), h))),
            ] {
                if let Some(member) = member {
                    m.insert(at.min(m.len()), member);
                }
            }
            J::Obj(m, l)
        })
}
