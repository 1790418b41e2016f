//! Whole rule files coffer owns, such as a Cursor rule
//! `.cursor/rules/coffer-NAME.mdc`.
//!
//! Where an agent reads rules from files of their own, coffer writes a whole
//! file instead of a block in someone else's. Such a file is coffer's by two
//! proofs (DESIGN, "Ownership"): the provenance record, and a header line in
//! the file itself, the first after the front matter. This module renders
//! the file and recognises that line; a file without it is never coffer's.

use serde_json::{Map, Value};

/// How the header line starts. Recognition looks only at this, so the
/// wording after it may change without orphaning files already written.
const MARK: &str = "<!-- coffer:managed";

/// The first line of the body of every rule file coffer writes.
pub const HEADER: &str =
    "<!-- coffer:managed: written by coffer from your desired state; edit that, not this file -->";

/// A rule file: its description, the front matter the agent needs, and
/// the text.
#[derive(Debug, Clone, Copy)]
pub struct Rule<'a> {
    /// What the rule is for; the agent shows it and may use it to decide.
    pub description: &'a str,
    /// The keys each agent needs (`alwaysApply: true` for Cursor,
    /// `trigger: always_on` for Windsurf, …), from the registry.
    pub frontmatter: &'a Map<String, Value>,
    /// The rule text, plain with LF line breaks.
    pub body: &'a str,
}

/// The whole file for `rule`: YAML front matter, the header line, then the
/// body. Always LF: the file is new and coffer's, so there is no style of
/// the user's to follow.
pub fn render(rule: &Rule) -> String {
    let mut out = format!("---\ndescription: {}\n", yaml_string(rule.description));
    for (key, value) in rule.frontmatter {
        let scalar = match value {
            Value::String(s) => yaml_string(s),
            // Booleans stay booleans (Cursor requires it); lists and maps
            // in JSON's flow style are valid YAML.
            other => other.to_string(),
        };
        out.push_str(&format!("{key}: {scalar}\n"));
    }
    out.push_str("---\n");
    out.push_str(HEADER);
    out.push('\n');
    let body = rule.body.replace("\r\n", "\n");
    out.push_str(&body);
    if !body.is_empty() && !body.ends_with('\n') {
        out.push('\n');
    }
    out
}

/// Whether `text` is a rule file coffer wrote: its first line after any
/// front matter is coffer's header.
pub fn is_coffer_owned(text: &str) -> bool {
    let mut lines = text.strip_prefix('\u{feff}').unwrap_or(text).lines();
    let mut first = lines.next();
    if first.map(str::trim_end) == Some("---") {
        first = lines
            .find(|l| l.trim_end() == "---")
            .and_then(|_| lines.next());
    }
    first.is_some_and(|l| l.starts_with(MARK))
}

/// A YAML scalar for `s`: plain when that cannot be misread (as a boolean,
/// a number, a mapping, a comment…), else double-quoted. JSON's string
/// escapes are all valid in YAML's double-quoted style.
fn yaml_string(s: &str) -> String {
    let plain = s.starts_with(|c: char| c.is_alphabetic())
        && !s.ends_with(' ')
        && s.chars()
            .all(|c| c.is_alphanumeric() || " .,()/'_-".contains(c))
        && !matches!(
            s.to_ascii_lowercase().as_str(),
            "true" | "false" | "yes" | "no" | "on" | "off" | "null" | "y" | "n"
        );
    if plain {
        s.to_owned()
    } else {
        serde_json::to_string(s).expect("a string serialises")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(serde::Deserialize, Debug)]
    #[serde(rename_all = "camelCase", deny_unknown_fields)]
    struct Front {
        description: String,
        apply_to: Option<String>,
        always_apply: Option<bool>,
    }

    fn front(file: &str) -> Front {
        let yaml = file.strip_prefix("---\n").unwrap().split("\n---\n").next();
        serde_saphyr::from_str(yaml.unwrap()).unwrap()
    }

    fn keys(v: serde_json::Value) -> Map<String, Value> {
        v.as_object().unwrap().clone()
    }

    #[test]
    fn renders_the_agents_front_matter_then_the_header() {
        let fm = keys(serde_json::json!({"alwaysApply": true}));
        let rule = Rule {
            description: "Team conventions",
            frontmatter: &fm,
            body: "Use pnpm.",
        };
        let file = render(&rule);
        assert_eq!(
            file,
            format!(
                "---\ndescription: Team conventions\nalwaysApply: true\n---\n{HEADER}\nUse pnpm.\n"
            )
        );
        assert!(is_coffer_owned(&file));
        assert_eq!(front(&file).always_apply, Some(true));
        let fm = keys(serde_json::json!({"applyTo": "**"}));
        let file = render(&Rule {
            description: "x",
            frontmatter: &fm,
            body: "",
        });
        assert_eq!(front(&file).apply_to.as_deref(), Some("**"), "{file}");
    }

    #[test]
    fn descriptions_that_yaml_would_misread_are_quoted() {
        let fm = Map::new();
        for d in [
            "yes",
            "Note: read me",
            "# not a comment",
            "1.5",
            "",
            "a\nb",
            "ü ok",
        ] {
            let rule = Rule {
                description: d,
                frontmatter: &fm,
                body: "",
            };
            assert_eq!(front(&render(&rule)).description, d);
        }
    }

    #[test]
    fn only_files_with_the_header_first_are_coffers() {
        assert!(is_coffer_owned(&format!("{HEADER}\r\nbody\r\n")));
        assert!(is_coffer_owned(&format!(
            "\u{feff}---\r\nalwaysApply: true\r\n---\r\n{HEADER}\r\n"
        )));
        assert!(!is_coffer_owned(&format!(
            "---\na: 1\n---\n# Mine\n{HEADER}\n"
        )));
        assert!(!is_coffer_owned(&format!("---\n{HEADER}\n")));
        assert!(!is_coffer_owned("---\ndescription: x\n---\nUse pnpm.\n"));
        assert!(!is_coffer_owned(""));
    }
}
