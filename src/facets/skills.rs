//! The skills facet: SKILL.md folders copied into the agent's skills
//! folder, one whole file coffer owns per file of the skill.
//!
//! Copies, not links: a copy can be planned and diffed like every other
//! file, and removing it cannot touch the user's source folder.

use std::path::{Path, PathBuf};

use super::{Compiled, Placed};
use crate::desired::{DesiredError, SkillsFacet, Sp};
use crate::registry::{AgentDescriptor, SkillsSupport};
use crate::resource::{Facet, Fragment, Resource, Syntax};

pub(super) fn compile(
    placed: &Placed,
    agent: &AgentDescriptor,
    facet: &Sp<SkillsFacet>,
    out: &mut Compiled,
) -> Result<(), DesiredError> {
    let spec = match &agent.skills {
        SkillsSupport::SkillFolders(spec) => spec,
        SkillsSupport::Unsupported { evidence } => {
            return Err(placed.unsupported(agent, "skills", facet.span, evidence));
        }
    };
    let (folder, origin) = placed.target(agent, Facet::Skills, &spec.places, facet.span)?;
    for skill in &facet.value {
        let source = placed.input_path(&skill.value);
        let bad = |what: &str| {
            placed.file.error_at(
                skill.span,
                &format!("skill {} {what}", source.display()),
                "this skill",
                Some("a skill is a folder holding a SKILL.md (https://agentskills.io)".into()),
            )
        };
        if !source.join("SKILL.md").is_file() {
            return Err(bad("has no SKILL.md"));
        }
        let name = source
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| bad("has no usable folder name"))?
            .to_owned();
        let mut files = Vec::new();
        walk(&source, &mut files).map_err(|e| bad(&format!("cannot be read: {e}")))?;
        files.sort();
        for file in files {
            let rel = file.strip_prefix(&source).expect("walked below the source");
            let content = std::fs::read(&file).map_err(|e| bad(&format!("cannot be read: {e}")))?;
            let content = String::from_utf8(content).map_err(|_| {
                bad(&format!(
                    "holds a file that is not UTF-8 text ({})",
                    rel.display()
                ))
            })?;
            out.resources.push(Resource::new(
                origin.clone(),
                folder.join(&name).join(rel),
                Syntax::Whole,
                Fragment::File {
                    content,
                    // A skill's scripts must stay runnable in the copy.
                    executable: is_executable(&file),
                },
            ));
        }
    }
    Ok(())
}

fn is_executable(path: &Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(path).is_ok_and(|m| m.permissions().mode() & 0o111 != 0)
}

/// Every file below `dir`, leaving out version-control folders.
fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> std::io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let path = entry.path();
        if entry.file_name() == ".git" {
            continue;
        }
        if entry.file_type()?.is_dir() {
            walk(&path, out)?;
        } else {
            out.push(path);
        }
    }
    Ok(())
}
