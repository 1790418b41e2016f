//! The opt-in audit log: what each source did, never what it said.
//!
//! One JSON line per source per hook run in `<state>/hook-audit.jsonl`:
//! provider id, delivery status, elapsed time, counts, reason codes, byte
//! count, and a keyed fingerprint of the text — HMAC-SHA-256 under a random
//! key kept owner-only beside it — so that two deliveries can be compared
//! without the log holding, or letting anyone guess, the text itself.
//! Context and prompts never go here.

use std::io::{Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use serde::Serialize;
use sha2::{Digest, Sha256};

use super::compose::Delivery;
use super::sources::Outcome;

pub const LOG: &str = "hook-audit.jsonl";
pub const KEY: &str = "hook-audit.key";

#[derive(Serialize)]
struct Line<'a> {
    ts_ms: u128,
    dialect: &'a str,
    event: &'a str,
    source: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    provider: Option<&'a str>,
    status: &'a str,
    delivery: &'a str,
    elapsed_us: u128,
    matched: u32,
    succeeded: u32,
    failed: u32,
    reasons: &'a [String],
    bytes: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    fingerprint: Option<String>,
}

/// Append one line per outcome. Best effort: an audit log that cannot be
/// written must not cost the agent its context.
pub fn record(
    state_dir: &Path,
    dialect: &str,
    event: &str,
    outcomes: &[Outcome],
    delivered: &[Delivery],
) {
    let Some(key) = key(state_dir) else { return };
    let ts_ms = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_millis());
    let mut text = Vec::new();
    for (o, d) in outcomes.iter().zip(delivered) {
        let line = Line {
            ts_ms,
            dialect,
            event,
            source: &o.id,
            provider: o.provider.as_deref(),
            status: o.status.as_str(),
            delivery: d.as_str(),
            elapsed_us: o.elapsed.as_micros(),
            matched: o.counts[0],
            succeeded: o.counts[1],
            failed: o.counts[2],
            reasons: &o.reasons,
            bytes: o.text.len(),
            fingerprint: (!o.text.is_empty()).then(|| hex(&hmac_sha256(&key, o.text.as_bytes()))),
        };
        if serde_json::to_writer(&mut text, &line).is_ok() {
            text.push(b'\n');
        }
    }
    // One write with O_APPEND: lines of concurrent hooks do not interleave.
    let _ = std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .mode(0o600)
        .open(state_dir.join(LOG))
        .and_then(|mut f| f.write_all(&text));
}

/// The fingerprint key, created on first use: 32 random bytes, mode 0600.
/// It is written under a temporary name and linked into place, so that two
/// hooks starting at once agree on one key and never read half of one.
fn key(state_dir: &Path) -> Option<Vec<u8>> {
    let path = state_dir.join(KEY);
    if let Ok(k) = std::fs::read(&path)
        && k.len() == 32
    {
        return Some(k);
    }
    let mut fresh = vec![0u8; 32];
    std::fs::File::open("/dev/urandom")
        .and_then(|mut f| f.read_exact(&mut fresh))
        .ok()?;
    let tmp: PathBuf = state_dir.join(format!("{KEY}.{}.tmp", std::process::id()));
    let written = std::fs::OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(0o600)
        .open(&tmp)
        .and_then(|mut f| f.write_all(&fresh).and_then(|_| f.sync_all()));
    let linked = written.and_then(|_| std::fs::hard_link(&tmp, &path));
    let _ = std::fs::remove_file(&tmp);
    match linked {
        Ok(()) => Some(fresh),
        // Another hook won the race: use its key.
        Err(_) => std::fs::read(&path).ok().filter(|k| k.len() == 32),
    }
}

/// HMAC-SHA-256 (RFC 2104).
pub fn hmac_sha256(key: &[u8], message: &[u8]) -> [u8; 32] {
    const BLOCK: usize = 64;
    let mut k = [0u8; BLOCK];
    if key.len() > BLOCK {
        k[..32].copy_from_slice(&Sha256::digest(key));
    } else {
        k[..key.len()].copy_from_slice(key);
    }
    let pad = |byte: u8| k.map(|b| b ^ byte);
    let inner = Sha256::new()
        .chain_update(pad(0x36))
        .chain_update(message)
        .finalize();
    Sha256::new()
        .chain_update(pad(0x5c))
        .chain_update(inner)
        .finalize()
        .into()
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hmac_matches_rfc_4231() {
        // Test case 2.
        assert_eq!(
            hex(&hmac_sha256(b"Jefe", b"what do ya want for nothing?")),
            "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
        // Test case 6: a key longer than the block.
        assert_eq!(
            hex(&hmac_sha256(
                &[0xaa; 131],
                b"Test Using Larger Than Block-Size Key - Hash Key First"
            )),
            "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"
        );
    }
}
