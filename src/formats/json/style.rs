//! What a file's own text says about how new text in it should look:
//! indentation unit, line ending, spacing, trailing commas and, in JSON5,
//! bare keys and the quote of strings.
//!
//! Each habit is read off the first containers of the document, breadth
//! first from the top-level object, within a small budget: the first few
//! containers decide in any real file, and a large file is never walked
//! whole (DESIGN.md, "Formats").

use std::collections::VecDeque;

use super::Flavor;
use super::json5::is_identifier;
use super::render::Style;
use super::scan::{Container, Scanner};
use crate::formats::text;

/// Containers looked at before a habit is taken as unknown.
const BUDGET: usize = 32;

/// Keys and strings looked at for JSON5's habits: enough to see a
/// pattern, few enough that a large file is never read whole for it.
const SAMPLE: usize = 256;

/// The first containers of the document, breadth first from `root`. Each
/// is scanned only when its turn comes, so a habit found early costs no
/// scan of the containers after it.
fn containers<'a>(
    text: &'a str,
    root: &Container,
    flavor: Flavor,
) -> impl Iterator<Item = Container> + 'a {
    let scanner = Scanner::new(text, flavor);
    let mut first = Some(root.clone());
    let mut queue: VecDeque<usize> = VecDeque::new();
    std::iter::from_fn(move || {
        let c = match first.take() {
            Some(root) => root,
            None => loop {
                if let Ok(c) = scanner.container(queue.pop_front()?) {
                    break c;
                }
            },
        };
        queue.extend(
            c.items
                .iter()
                .map(|it| it.value.start)
                .filter(|&v| matches!(text.as_bytes()[v], b'{' | b'[')),
        );
        Some(c)
    })
    .take(BUDGET)
}

/// How much deeper than its container's line the file indents an item that
/// starts a line, measured on the first such item, breadth first from the
/// top-level object. Measuring JSON structure rather than the first
/// indented line keeps a comment's layout (` * ` inside a `/** … */`
/// header) from passing for the file's indentation. A file with no such
/// item falls back on its first indented line.
fn indent_unit(text: &str, root: &Container, flavor: Flavor) -> String {
    for c in containers(text, root, flavor) {
        let base = text::line_indent(text, c.open);
        for it in &c.items {
            if text::starts_line(text, it.start)
                && let Some(unit) = text::line_indent(text, it.start).strip_prefix(base)
                && !unit.is_empty()
            {
                return unit.to_owned();
            }
        }
    }
    text::indent_unit(text)
}

/// How the file writes what JSON5 leaves open.
struct Habits {
    quote: char,
    bare_keys: bool,
    padded: bool,
}

/// Whether the file leaves its keys bare, which quote its strings use, and
/// whether its one-line objects have spaces inside their braces.
///
/// Keys: bare when more keys that could be bare are bare than quoted
/// (`"ctx-plugin"` must be quoted, so it says nothing). Strings: `'` when
/// more strings and quoted keys use it than `"`. Braces: padded when more
/// one-line objects are than are not. Ties, and files with none, go to
/// JSON's way.
fn json5_habits(text: &str, root: &Container) -> Habits {
    let (mut bare, mut quoted_ids, mut single, mut double) = (0, 0, 0, 0);
    let (mut padded, mut tight) = (0, 0);
    let mut quote = |first: u8| match first {
        b'\'' => single += 1,
        b'"' => double += 1,
        _ => {}
    };
    let mut seen = 0;
    for c in containers(text, root, Flavor::Json5) {
        if seen >= SAMPLE {
            break;
        }
        if c.is_object && !c.items.is_empty() && !text[c.open..c.close].contains('\n') {
            if text[c.open + 1..].starts_with([' ', '\t']) {
                padded += 1;
            } else {
                tight += 1;
            }
        }
        for it in c.items.iter().take(SAMPLE - seen) {
            seen += 1;
            if let Some(key) = &it.key {
                let first = text.as_bytes()[it.start];
                quote(first);
                if first != b'"' && first != b'\'' {
                    bare += 1;
                } else if is_identifier(key) {
                    quoted_ids += 1;
                }
            }
            quote(text.as_bytes()[it.value.start]);
        }
    }
    Habits {
        quote: if single > double { '\'' } else { '"' },
        bare_keys: bare > quoted_ids,
        padded: padded > tight,
    }
}

pub(super) fn detect_style(text: &str, root: &Container, flavor: Flavor) -> Style {
    let colon = match root.items.first() {
        Some(it) if !text[..it.value.start].ends_with([' ', '\t', '\r', '\n']) => ":",
        _ => ": ",
    };
    let habits = if flavor.is_json5() {
        json5_habits(text, root)
    } else {
        Habits {
            quote: '"',
            bare_keys: false,
            padded: false,
        }
    };
    Style {
        indent: indent_unit(text, root, flavor),
        eol: text::line_ending(text),
        colon,
        comma: if colon == ":" { "," } else { ", " },
        trailing_commas: flavor.lenient()
            && root.items.last().is_some_and(|l| l.comma.is_some())
            && text[root.open..root.close].contains('\n'),
        json5: flavor.is_json5(),
        quote: habits.quote,
        bare_keys: habits.bare_keys,
        padded: habits.padded,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn style(text: &str) -> Style {
        let s = Scanner::new(text, Flavor::Json5);
        detect_style(text, &s.container(s.root()).unwrap(), Flavor::Json5)
    }

    #[test]
    fn json5_habits_are_read_off_the_file() {
        let openclaw = "{ plugins: { entries: { \"ctx-plugin\": { enabled: true } } },\n  mcp: { servers: { ctx: { command: \"npx\" } } } }";
        let s = style(openclaw);
        assert_eq!(
            (s.quote, s.bare_keys, s.json5, s.padded),
            ('"', true, true, true)
        );
        let s = style("{a: 'x', b: ['y', \"z\"], 'c-d': 'w'}");
        assert_eq!((s.quote, s.bare_keys, s.padded), ('\'', true, false));
        let s = style("{\"a\": 'x', \"b\": 1}");
        assert_eq!((s.quote, s.bare_keys), ('"', false));
        let s = style("{'a': 'x', 'b': 1}");
        assert_eq!((s.quote, s.bare_keys), ('\'', false));
        let s = style("{}");
        assert_eq!((s.quote, s.bare_keys), ('"', false));
    }
}
