//! The hook's settings files in the state folder, planned and written.
//!
//! They are state, not target files: coffer owns them whole, so there is no
//! reconciling, only "what should the bytes be". One file per dialect; a
//! dialect whose agent no longer has a context facet loses its file, so
//! that an entry left behind by hand finds no settings and stays silent.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use super::plan::Mode;
use crate::env::Env;
use crate::facets::Compiled;
use crate::fsys::{Fs, missing_dirs};
use crate::registry::Registry;
use crate::state::hook_config;

/// A settings file that changes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HookSettingsPlan {
    pub dialect: String,
    pub path: PathBuf,
    /// The path as users read it.
    pub display: String,
    pub before: Option<Vec<u8>>,
    /// `None`: the file goes.
    pub after: Option<Vec<u8>>,
}

pub(super) fn plan(
    compiled: &Compiled,
    mode: Mode,
    registry: &Registry,
    env: &Env,
    fs: &dyn Fs,
) -> std::io::Result<Vec<HookSettingsPlan>> {
    let wanted: BTreeMap<&str, Vec<u8>> = match mode {
        Mode::Apply => compiled
            .hook_configs
            .iter()
            .map(|c| (c.dialect.as_str(), hook_config::encode(c)))
            .collect(),
        Mode::Destroy => BTreeMap::new(),
    };
    // Apply looks at every dialect coffer knows (an agent dropped from the
    // desired file loses its settings); destroy only at the named agents'.
    // (A plan's registry has read only the named agents; `dialects` lists
    // the others' too.)
    let known = match mode {
        Mode::Apply => registry.dialects(),
        Mode::Destroy => registry
            .agents()
            .iter()
            .filter(|a| compiled.agents.contains(&a.id))
            .filter_map(|a| a.context.dialect())
            .collect(),
    };
    let dialects: BTreeSet<&str> = known.into_iter().chain(wanted.keys().copied()).collect();
    let mut out = Vec::new();
    for dialect in dialects {
        let path = hook_config::path(&env.state_dir, env.project_root.as_deref(), dialect);
        let before = fs.read(&path)?;
        let after = wanted.get(dialect).cloned();
        if before != after {
            out.push(HookSettingsPlan {
                dialect: dialect.to_owned(),
                display: env.display(&path),
                path,
                before,
                after,
            });
        }
    }
    Ok(out)
}

/// Write or remove each settings file; the folder goes once it is empty.
pub(super) fn apply(plans: &[HookSettingsPlan], fs: &dyn Fs) -> std::io::Result<()> {
    for p in plans {
        match &p.after {
            Some(bytes) => {
                for dir in missing_dirs(fs, &p.path) {
                    fs.create_dir(&dir)?;
                }
                // A URL source may carry a token: the settings are the owner's alone.
                fs.write_mode(&p.path, bytes, Some(0o600))?;
            }
            None => {
                fs.remove_file(&p.path)?;
                if let Some(dir) = p.path.parent() {
                    fs.remove_empty_dir(dir)?;
                }
            }
        }
    }
    Ok(())
}
