//! Unified diffs of planned changes, with secrets taken out before the
//! diff is made, so that no line of output (text or JSON) can carry one.
//!
//! coffer's edits are splices: on a 10 MB settings file the before and
//! after texts share all but a few lines. Diffing the whole files costs
//! tens of milliseconds (tokenising every line of both, DESIGN.md,
//! "Formats"), so the diff is made over the middle that differs, with the
//! common prefix and suffix cut at line boundaries and enough of them kept
//! for the context lines; the hunk headers then get the cut lines added
//! back. The result is the same text as a diff of the whole files (a test
//! below checks it on many generated edits).

use std::borrow::Cow;

use similar::{DiffOp, TextDiff};

/// Context lines around each change, as `diff -u` does.
const CONTEXT: usize = 3;

/// The unified diff of one file, headed `--- a/PATH` / `+++ b/PATH`.
pub fn unified(
    display: &str,
    before: Option<&[u8]>,
    after: Option<&[u8]>,
    secrets: &[String],
) -> String {
    let before = redact(before, secrets);
    let after = redact(after, secrets);
    let header = |diff: &TextDiff<str>| {
        diff.unified_diff()
            .context_radius(CONTEXT)
            .header(&format!("a/{display}"), &format!("b/{display}"))
            .to_string()
    };
    let cut = middle(&before, &after, CONTEXT + 1);
    if cut.skipped_lines == 0 && !cut.suffix_cut {
        return header(&TextDiff::from_lines(&before, &after));
    }
    let diff = TextDiff::from_lines(cut.old, cut.new);
    // similar slides each change down past equal lines that repeat it
    // (compaction). If the last change slid into the lines kept after the
    // cut, it might have slid further in the whole files: diff those.
    let tail = match diff.ops().last() {
        Some(DiffOp::Equal { len, .. }) => *len,
        _ => 0,
    };
    if cut.suffix_cut && tail <= CONTEXT {
        return header(&TextDiff::from_lines(&before, &after));
    }
    shift_hunks(&header(&diff), cut.skipped_lines)
}

/// The text a diff shows, secrets replaced; borrowed when nothing changes.
fn redact<'a>(bytes: Option<&'a [u8]>, secrets: &[String]) -> Cow<'a, str> {
    // std's validation is much faster than from_utf8_lossy's chunking, and
    // coffer's own output is always UTF-8.
    let mut text = match bytes.map(std::str::from_utf8) {
        None => Cow::Borrowed(""),
        Some(Ok(s)) => Cow::Borrowed(s),
        Some(Err(_)) => String::from_utf8_lossy(bytes.unwrap_or_default()),
    };
    for secret in secrets {
        if text.contains(secret.as_str()) {
            text = Cow::Owned(text.replace(secret.as_str(), "(sensitive)"));
        }
    }
    text
}

/// The parts of two texts that differ, with whole lines around them.
struct Middle<'a> {
    old: &'a str,
    new: &'a str,
    /// Whole common lines cut before them (the same number in both).
    skipped_lines: usize,
    /// Whether common lines were cut after them.
    suffix_cut: bool,
}

/// The parts of `a` and `b` that differ, each widened by `keep` whole
/// lines on both sides where there are common lines to cut.
fn middle<'a>(a: &'a str, b: &'a str, keep: usize) -> Middle<'a> {
    let (ab, bb) = (a.as_bytes(), b.as_bytes());
    // The longest common prefix, cut back to just after a line break.
    let raw_prefix = super::bytes::common_prefix(ab, bb);
    let mut start = memchr::memrchr(b'\n', &ab[..raw_prefix]).map_or(0, |i| i + 1);
    // The longest common suffix that leaves the prefix alone, cut forward
    // to just after a line break inside it, so that it starts a line in
    // both texts.
    let room = ab.len().min(bb.len()) - start;
    let raw_suffix = super::bytes::common_suffix(&ab[ab.len() - room..], &bb[bb.len() - room..]);
    let suffix_from = ab.len() - raw_suffix;
    let mut suffix = match memchr::memchr(b'\n', &ab[suffix_from..]) {
        Some(i) => raw_suffix - (i + 1),
        None => 0,
    };
    for _ in 0..keep {
        if start == 0 {
            break;
        }
        start = memchr::memrchr(b'\n', &ab[..start - 1]).map_or(0, |i| i + 1);
    }
    for _ in 0..keep {
        if suffix == 0 {
            break;
        }
        let from = ab.len() - suffix;
        suffix -= memchr::memchr(b'\n', &ab[from..]).map_or(suffix, |i| i + 1);
    }
    Middle {
        old: &a[start..a.len() - suffix],
        new: &b[start..b.len() - suffix],
        skipped_lines: memchr::memchr_iter(b'\n', &ab[..start]).count(),
        suffix_cut: suffix > 0,
    }
}

/// Add `lines` to both line numbers of every hunk header.
fn shift_hunks(text: &str, lines: usize) -> String {
    let mut out = String::with_capacity(text.len() + 64);
    for (i, line) in text.split_inclusive('\n').enumerate() {
        // The two file headers come first; a content line never starts
        // with `@@` (it starts with ' ', '+', '-' or '\').
        match line.strip_prefix("@@ -") {
            Some(rest) if i >= 2 => {
                let mut parts = rest.splitn(2, " +");
                let old = parts.next().unwrap_or("");
                let rest = parts.next().unwrap_or("");
                let (new, tail) = rest.split_once(" @@").unwrap_or((rest, ""));
                out.push_str(&format!(
                    "@@ -{} +{} @@{tail}",
                    shift_range(old, lines),
                    shift_range(new, lines)
                ));
            }
            _ => out.push_str(line),
        }
    }
    out
}

fn shift_range(range: &str, lines: usize) -> String {
    let (start, len) = match range.split_once(',') {
        Some((s, l)) => (s, Some(l)),
        None => (range, None),
    };
    let start = start.parse::<usize>().unwrap_or(0) + lines;
    match len {
        Some(l) => format!("{start},{l}"),
        None => start.to_string(),
    }
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

    /// The diff over the middle is the diff over the whole files.
    fn whole(before: &str, after: &str) -> String {
        similar::TextDiff::from_lines(before, after)
            .unified_diff()
            .context_radius(super::CONTEXT)
            .header("a/f", "b/f")
            .to_string()
    }

    #[test]
    fn the_middle_gives_the_whole_files_diff() {
        // A small generator (no dependency): lines drawn from a few values,
        // so that repeats make the prefix/suffix cut ambiguous.
        let mut seed = 0x2545_f491_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n) as usize
        };
        let words = ["a", "b", "{", "}", "  \"x\": 1,", "", "}", "}"];
        for case in 0..5_000 {
            let n = next(40);
            let mut lines: Vec<String> = (0..n).map(|_| words[next(8)].to_owned()).collect();
            let before = join(&lines, next(2) == 0);
            for _ in 0..=next(3) {
                let at = next(lines.len() as u64 + 1);
                match next(3) {
                    0 => lines.insert(at, words[next(8)].to_owned()),
                    1 if at < lines.len() => {
                        lines.remove(at);
                    }
                    _ if at < lines.len() => lines[at].push('!'),
                    _ => lines.push("z".into()),
                }
            }
            let after = join(&lines, next(2) == 0);
            let mine = super::unified("f", Some(before.as_bytes()), Some(after.as_bytes()), &[]);
            assert_eq!(
                mine,
                whole(&before, &after),
                "case {case}:\n{before:?}\n{after:?}"
            );
        }
    }

    fn join(lines: &[String], final_newline: bool) -> String {
        let mut s = lines.join("\n");
        if final_newline && !s.is_empty() {
            s.push('\n');
        }
        s
    }

    #[test]
    fn absent_files_diff_as_empty() {
        let d = super::unified("f", None, Some(b"x\n"), &[]);
        assert_eq!(d, whole("", "x\n"));
        let d = super::unified("f", Some(b"x\ny\n"), None, &[]);
        assert_eq!(d, whole("x\ny\n", ""));
    }
}
