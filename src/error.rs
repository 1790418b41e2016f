//! The errors the engine reports. The binary turns them into miette
//! reports; each says which file and what to do.

use crate::desired::DesiredError;
use crate::diagnostic::Located;
use crate::state::StateError;

#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error(transparent)]
    Desired(#[from] DesiredError),
    /// A target file coffer cannot edit (does not parse, wrong shape).
    #[error(transparent)]
    Target(Box<Located>),
    #[error(transparent)]
    State(#[from] StateError),
    #[error("{0}")]
    Io(#[from] std::io::Error),
    #[error("plan is stale: {path} changed since the plan was made")]
    Stale { path: String },
    #[error("{message}")]
    Conflict { message: String, help: String },
}

impl Error {
    /// What the user should do next, where coffer can tell.
    pub fn help(&self) -> Option<String> {
        match self {
            Error::Stale { .. } => Some("run `coffer plan` again and review the new plan".into()),
            Error::State(StateError::Damaged { .. }) => Some(
                "move the file aside to start a fresh record; coffer still recognises its own hook entries".into(),
            ),
            Error::Conflict { help, .. } => Some(help.clone()),
            Error::Desired(DesiredError::Read { .. }) => Some(
                "pass the desired file with -f FILE (default: coffer.yaml here); `coffer import` writes one from what is installed".into(),
            ),
            Error::Io(_) => Some("nothing was written; fix the cause and run coffer again".into()),
            _ => None,
        }
    }
}
