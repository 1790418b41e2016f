//! Where things live: the home coffer manages, its state folder, and the
//! environment variables agents honour.
//!
//! The engine never reads the process environment itself; the binary builds
//! an `Env` once, and tests build their own, so every path is explicit.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

#[derive(Debug, Clone)]
pub struct Env {
    pub home: PathBuf,
    /// coffer's state folder (`$XDG_STATE_HOME/coffer`).
    pub state_dir: PathBuf,
    /// Variables path templates may refer to.
    pub vars: BTreeMap<String, String>,
    /// The folder of a project-scope desired file.
    pub project_root: Option<PathBuf>,
}

/// Variables that agents' path templates use.
const PATH_VARS: &[&str] = &["CODEX_HOME", "XDG_CONFIG_HOME"];

impl Env {
    /// An environment for `home` with the default state folder.
    pub fn for_home(home: impl Into<PathBuf>) -> Env {
        let home = home.into();
        Env {
            state_dir: home.join(".local/state/coffer"),
            home,
            vars: BTreeMap::new(),
            project_root: None,
        }
    }

    /// Read HOME, XDG_STATE_HOME and the path variables from the process.
    pub fn from_process() -> Result<Env, String> {
        let home = std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .or_else(std::env::home_dir)
            .ok_or("cannot tell the home folder: set HOME")?;
        if !home.is_absolute() {
            return Err(format!("HOME is not an absolute path: {}", home.display()));
        }
        let mut env = Env::for_home(home);
        if let Some(state) = std::env::var_os("XDG_STATE_HOME").map(PathBuf::from)
            && state.is_absolute()
        {
            env.state_dir = state.join("coffer");
        }
        for name in PATH_VARS {
            if let Ok(v) = std::env::var(name)
                && !v.is_empty()
            {
                env.vars.insert((*name).to_owned(), v);
            }
        }
        Ok(env)
    }

    pub fn var(&self, name: &str) -> Option<&str> {
        self.vars.get(name).map(String::as_str)
    }

    /// A path as users read it: relative to the project root in project
    /// scope, `~/…` under the home.
    pub fn display(&self, path: &Path) -> String {
        if let Some(rel) = self
            .project_root
            .as_ref()
            .and_then(|r| path.strip_prefix(r).ok())
        {
            return rel.display().to_string();
        }
        match path.strip_prefix(&self.home) {
            Ok(rel) if rel.as_os_str().is_empty() => "~".into(),
            Ok(rel) => format!("~/{}", rel.display()),
            Err(_) => path.display().to_string(),
        }
    }
}
