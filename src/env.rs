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
    /// The process environment: path templates refer to it, and desired
    /// values that agents cannot expand themselves are resolved from it.
    pub vars: BTreeMap<String, String>,
    /// The folder of a project-scope desired file.
    pub project_root: Option<PathBuf>,
}

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

    /// Read HOME, XDG_STATE_HOME and the rest of the process environment.
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
        env.vars = std::env::vars().filter(|(_, v)| !v.is_empty()).collect();
        Ok(env)
    }

    /// The ledger partition of the desired state being reconciled.
    pub fn scope_key(&self) -> String {
        match &self.project_root {
            Some(root) => format!("project:{}", root.display()),
            None => "user".into(),
        }
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
