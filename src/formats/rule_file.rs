//! Whole rule files coffer owns, such as a Cursor rule
//! `.cursor/rules/coffer-NAME.mdc`.
//!
//! Where an agent reads rules from files of their own, coffer writes a whole
//! file instead of a block in someone else's. Such a file is coffer's by two
//! proofs (DESIGN, "Ownership"): the provenance record, and a header line in
//! the file itself, the first after the front matter. This module renders
//! the file and recognises that line; a file without it is never coffer's.

/// How the header line starts. Recognition looks only at this, so the
/// wording after it may change without orphaning files already written.
const MARK: &str = "<!-- coffer:managed";

/// The first line of the body of every rule file coffer writes.
pub const HEADER: &str =
    "<!-- coffer:managed: written by coffer from your desired state; edit that, not this file -->";

/// A rule that always applies, optionally limited to some files.
#[derive(Debug, Clone, Copy)]
pub struct Rule<'a> {
    /// What the rule is for; the agent shows it and may use it to decide.
    pub description: &'a str,
    /// File patterns (Cursor's `globs`); empty for none.
    pub globs: &'a [String],
    /// The rule text, plain with LF line breaks.
    pub body: &'a str,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum RuleError {
    #[error("glob `{0}` cannot go in a rule file: it is empty or holds a comma or line break")]
    Glob(String),
}

/// The whole file for `rule`: YAML front matter (`alwaysApply` a boolean,
/// as Cursor requires), the header line, then the body. Always LF: the file
/// is new and coffer's, so there is no style of the user's to follow.
pub fn render(rule: &Rule) -> Result<String, RuleError> {
    let mut out = format!("---\ndescription: {}\n", yaml_string(rule.description));
    if !rule.globs.is_empty() {
        // Cursor reads `globs` as one comma-separated string, unquoted.
        if let Some(bad) = rule
            .globs
            .iter()
            .find(|g| g.trim().is_empty() || g.contains([',', '\n', '\r']))
        {
            return Err(RuleError::Glob(bad.clone()));
        }
        out.push_str(&format!("globs: {}\n", rule.globs.join(",")));
    }
    out.push_str("alwaysApply: true\n---\n");
    out.push_str(HEADER);
    out.push('\n');
    let body = rule.body.replace("\r\n", "\n");
    out.push_str(&body);
    if !body.is_empty() && !body.ends_with('\n') {
        out.push('\n');
    }
    Ok(out)
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
        globs: Option<String>,
        always_apply: bool,
    }

    fn front(file: &str) -> Front {
        let yaml = file.strip_prefix("---\n").unwrap().split("\n---\n").next();
        serde_saphyr::from_str(yaml.unwrap()).unwrap()
    }

    #[test]
    fn renders_cursor_front_matter_then_the_header() {
        let rule = Rule {
            description: "Team conventions",
            globs: &[],
            body: "Use pnpm.",
        };
        let file = render(&rule).unwrap();
        assert_eq!(
            file,
            format!(
                "---\ndescription: Team conventions\nalwaysApply: true\n---\n{HEADER}\nUse pnpm.\n"
            )
        );
        assert!(is_coffer_owned(&file));
        let f = front(&file);
        assert!(f.always_apply && f.globs.is_none());
    }

    #[test]
    fn descriptions_that_yaml_would_misread_are_quoted() {
        for d in [
            "yes",
            "Note: read me",
            "# not a comment",
            "1.5",
            "",
            "a\nb",
            "ü ok",
        ] {
            let globs = ["src/**/*.ts".to_owned(), "*.md".to_owned()];
            let rule = Rule {
                description: d,
                globs: &globs,
                body: "",
            };
            let f = front(&render(&rule).unwrap());
            assert_eq!(f.description, d);
            assert_eq!(f.globs.as_deref(), Some("src/**/*.ts,*.md"));
        }
        let bad = ["a,b".to_owned()];
        let rule = Rule {
            description: "x",
            globs: &bad,
            body: "",
        };
        assert_eq!(render(&rule), Err(RuleError::Glob("a,b".into())));
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
