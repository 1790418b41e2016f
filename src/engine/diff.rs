//! Unified diffs of planned changes, with secrets taken out before the
//! diff is made, so that no line of output (text or JSON) can carry one.

use similar::TextDiff;

/// The unified diff of one file, headed `--- a/PATH` / `+++ b/PATH`.
pub fn unified(
    display: &str,
    before: Option<&[u8]>,
    after: Option<&[u8]>,
    secrets: &[String],
) -> String {
    let before = redact(before, secrets);
    let after = redact(after, secrets);
    TextDiff::from_lines(&before, &after)
        .unified_diff()
        .context_radius(3)
        .header(&format!("a/{display}"), &format!("b/{display}"))
        .to_string()
}

fn redact(bytes: Option<&[u8]>, secrets: &[String]) -> String {
    let mut text = bytes
        .map(String::from_utf8_lossy)
        .unwrap_or_default()
        .into_owned();
    for secret in secrets {
        text = text.replace(secret.as_str(), "(sensitive)");
    }
    text
}

#[cfg(test)]
mod tests {
    #[test]
    fn secrets_never_reach_the_diff() {
        let d = super::unified(
            "~/f",
            Some(b"a\n"),
            Some(b"a\ntoken=s3cret\n"),
            &["s3cret".into()],
        );
        assert!(d.contains("+token=(sensitive)"), "{d}");
        assert!(!d.contains("s3cret"));
    }
}
