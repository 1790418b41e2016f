//! Reading a desired file: parse with positions, then check what YAML alone
//! cannot (the version, the hook command). Checks that need the registry
//! live with the facets; they use [`DesiredFile::error_at`] to point here.

use std::path::{Path, PathBuf};

use super::model::Desired;
use super::spanned::Span;
use crate::diagnostic::Located;

/// A parsed desired file and the text it came from, for error positions.
#[derive(Debug, Clone)]
pub struct DesiredFile {
    pub path: PathBuf,
    pub text: String,
    pub desired: Desired,
}

#[derive(Debug, thiserror::Error)]
pub enum DesiredError {
    #[error("cannot read the desired file {path}: {source}")]
    Read {
        path: String,
        #[source]
        source: std::io::Error,
    },
    #[error(transparent)]
    Invalid(Box<Located>),
}

impl DesiredFile {
    /// An error about the value at `span` of this file.
    pub fn error_at(
        &self,
        span: Span,
        what: &str,
        label: &str,
        help: Option<String>,
    ) -> DesiredError {
        let shown = self.path.display().to_string();
        DesiredError::Invalid(Box::new(
            Located::new(&shown, &self.text, span.offset, span.len, what, label).with_help(help),
        ))
    }
}

/// Read and parse the desired file at `path`.
pub fn load(path: &Path) -> Result<DesiredFile, DesiredError> {
    let text = std::fs::read_to_string(path).map_err(|source| DesiredError::Read {
        path: path.display().to_string(),
        source,
    })?;
    parse(path, text)
}

/// Parse desired-file text that was read from `path`.
pub fn parse(path: &Path, text: String) -> Result<DesiredFile, DesiredError> {
    let desired: Desired = match serde_saphyr::from_str(&text) {
        Ok(d) => d,
        Err(error) => return Err(yaml_error(path, &text, &error)),
    };
    let file = DesiredFile {
        path: path.to_owned(),
        text,
        desired,
    };
    let version = &file.desired.version;
    if version.value != 1 {
        return Err(file.error_at(
            version.span,
            &format!("unsupported desired-state version {}", version.value),
            "this coffer reads version 1",
            Some("set `version: 1`".into()),
        ));
    }
    let command = &file.desired.hook.command;
    match shlex::split(&command.value) {
        Some(words) if !words.is_empty() => {}
        _ => {
            return Err(file.error_at(
                command.span,
                "the hook command cannot be split into words",
                "unbalanced quotes or empty",
                Some("write the program and its leading arguments, e.g. `coffer hook`".into()),
            ));
        }
    }
    Ok(file)
}

/// A YAML or shape error from the parser, as a located error like the rest.
fn yaml_error(path: &Path, text: &str, error: &serde_saphyr::Error) -> DesiredError {
    let (offset, len) = error
        .location()
        .map(|l| {
            let span = l.span();
            (
                span.byte_offset().unwrap_or(0) as usize,
                span.byte_len().unwrap_or(0) as usize,
            )
        })
        .unwrap_or((0, 0));
    let full = error.without_snippet().to_string();
    let message = match full.rfind(" at line ") {
        Some(i) => &full[..i],
        None => &full,
    };
    let (message, help) = match message.strip_prefix("duplicate mapping key: ") {
        Some(rest) => (
            format!(
                "duplicate key `{}`",
                rest.split(", set ").next().unwrap_or(rest)
            ),
            "each key may appear only once; merge the two entries".to_owned(),
        ),
        None => (
            message.to_owned(),
            "fix the desired file; `coffer schema` prints its format".to_owned(),
        ),
    };
    let shown = path.display().to_string();
    DesiredError::Invalid(Box::new(
        Located::new(&shown, text, offset, len, &message, &message).with_help(Some(help)),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn version_must_be_one() {
        let e = parse(Path::new("c.yaml"), "version: 2\n".into()).unwrap_err();
        assert!(e.to_string().contains("c.yaml:1:10"), "{e}");
    }

    #[test]
    fn unknown_keys_and_duplicates_are_yaml_errors() {
        for text in [
            "version: 1\nagents:\n  codex:\n    contxt: {}\n",
            "version: 1\nagents:\n  codex: {}\n  codex: {}\n",
            "version: 1\nversion: 1\n",
            "version: 1\nextra: 1\n",
        ] {
            let e = parse(Path::new("c.yaml"), text.into()).unwrap_err();
            assert!(e.to_string().starts_with("c.yaml:"), "{text}: {e}");
        }
    }
}
