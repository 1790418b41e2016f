//! Putting the sources' texts together under a size cap.
//!
//! The cap is a promise to the agent (Claude Code, for one, moves hook
//! output over 10,000 characters out of the context), so it holds for the
//! whole text, marker included, and a cut never splits a character.

/// Appended where the text was cut.
pub const TRUNCATED: &str = "\n[coffer: context truncated]\n";

/// How much of one source's text went out.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Nothing to deliver (failed, empty or skipped).
    None,
    Full,
    Truncated,
    /// Past the cap: none of it went out.
    Dropped,
}

impl Delivery {
    pub fn as_str(self) -> &'static str {
        match self {
            Delivery::None => "none",
            Delivery::Full => "full",
            Delivery::Truncated => "truncated",
            Delivery::Dropped => "dropped",
        }
    }
}

/// Texts separated by one blank line, ending in one newline.
pub fn join<S: AsRef<str>>(texts: &[S]) -> String {
    let parts: Vec<&str> = texts
        .iter()
        .map(|t| t.as_ref().trim_end_matches(['\n', '\r']))
        .filter(|t| !t.trim().is_empty())
        .collect();
    if parts.is_empty() {
        return String::new();
    }
    let mut out = parts.join("\n\n");
    out.push('\n');
    out
}

/// Join `texts` and cap the result at `cap` bytes; say per text how much
/// of it went out.
pub fn capped(texts: &[&str], cap: usize) -> (String, Vec<Delivery>) {
    let full = join(texts);
    let mut deliveries: Vec<Delivery> = texts
        .iter()
        .map(|t| {
            if t.trim().is_empty() {
                Delivery::None
            } else {
                Delivery::Full
            }
        })
        .collect();
    if full.len() <= cap {
        return (full, deliveries);
    }
    let keep = floor_char_boundary(&full, cap.saturating_sub(TRUNCATED.len()));
    // Which texts the cut falls in: walk the joined text in the same order.
    let mut at = 0;
    for (t, d) in texts.iter().zip(deliveries.iter_mut()) {
        if *d == Delivery::None {
            continue;
        }
        let len = t.trim_end_matches(['\n', '\r']).len();
        *d = if at + len <= keep {
            Delivery::Full
        } else if at < keep {
            Delivery::Truncated
        } else {
            Delivery::Dropped
        };
        at += len + 2;
    }
    let mut out = full[..keep].to_owned();
    out.push_str(TRUNCATED);
    if out.len() > cap {
        // A cap smaller than the marker: no room for anything.
        return (String::new(), vec![Delivery::Dropped; texts.len()]);
    }
    (out, deliveries)
}

fn floor_char_boundary(s: &str, mut i: usize) -> usize {
    if i >= s.len() {
        return s.len();
    }
    while !s.is_char_boundary(i) {
        i -= 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn joins_with_blank_lines() {
        assert_eq!(join(&["a\n", "", "b"]), "a\n\nb\n");
        assert_eq!(join::<&str>(&[]), "");
    }

    #[test]
    fn caps_the_whole_text_at_a_char_boundary() {
        let a = "é".repeat(100);
        let (out, d) = capped(&[&a, "tail"], 64);
        assert!(out.len() <= 64, "{}", out.len());
        assert!(out.ends_with(TRUNCATED));
        assert_eq!(d, [Delivery::Truncated, Delivery::Dropped]);
        let (out, d) = capped(&["short", "", "x".repeat(500).as_str()], 100);
        assert!(out.starts_with("short\n\nxxx"));
        assert_eq!(d, [Delivery::Full, Delivery::None, Delivery::Truncated]);
        let (out, d) = capped(&["fits"], 100);
        assert_eq!((out.as_str(), d), ("fits\n", vec![Delivery::Full]));
    }
}
