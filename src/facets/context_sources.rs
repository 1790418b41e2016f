//! The context facet's sources and tiers, compiled into the settings the
//! hook reads at run time ([`crate::state::hook_config`]).
//!
//! Everything the hook would otherwise have to work out at every session
//! start is settled here, once: paths resolved against the desired file or
//! the home, `{agent}` put into URLs, shared and per-agent settings merged,
//! defaults filled in and limits checked. A mistake that makes a source
//! meaningless (a missing file that is not a glob, an `https://` URL) is an
//! error at its place in the desired file; a limit outside its hard bounds
//! disables just that provider, with a warning, as the provider contract
//! says.

use std::path::{Path, PathBuf};

use crate::desired::{ContextFacet, DesiredError, DesiredFile, Event, SourceSpec, Sp, Span};
use crate::env::Env;
use crate::state::hook_config::{FORMAT, HookConfig, Source, SourceKind, limits};

/// The hook settings of one agent, and the warnings compiling them raised.
pub(super) fn compile(
    file: &DesiredFile,
    agent: &str,
    dialect: &str,
    events: &[(String, Event)],
    facet_at: &Sp<ContextFacet>,
    env: &Env,
) -> Result<(HookConfig, Vec<String>), DesiredError> {
    let facet = &facet_at.value;
    let shared = file.desired.context.as_ref().map(|c| &c.value);
    let pick = |own: Option<bool>, shared: Option<bool>, default| own.or(shared).unwrap_or(default);
    let cap =
        |what: &str, own: &Option<Sp<u64>>, shared: Option<&Option<Sp<u64>>>, default| match own
            .as_ref()
            .or(shared.and_then(Option::as_ref))
        {
            None => Ok(default),
            Some(v) => within(v, limits::CONTEXT_BYTES_BOUNDS).map_err(|(lo, hi)| {
                file.error_at(
                    v.span,
                    &format!("{what} out of range"),
                    &format!("must be {lo} to {hi}"),
                    None,
                )
            }),
        };
    let base = desired_dir(&file.path);
    let mut ctx = Ctx {
        file,
        env,
        agent,
        base: &base,
        warnings: Vec::new(),
    };
    let specs = shared
        .and_then(|s| s.sources.as_deref())
        .unwrap_or_default()
        .iter()
        .chain(facet.sources.as_deref().unwrap_or_default());
    let mut sources = Vec::new();
    for (i, spec) in specs.enumerate() {
        if let Some(kind) = ctx.source(spec)? {
            let id = match kind {
                SourceKind::File { .. } => "file",
                SourceKind::Command { .. } => "command",
                SourceKind::Url { .. } => "url",
            };
            sources.push(Source {
                id: format!("{id}-{}", i + 1),
                kind,
            });
        }
    }
    let config = HookConfig {
        format: FORMAT.to_owned(),
        agent: agent.to_owned(),
        dialect: dialect.to_owned(),
        events: events
            .iter()
            .map(|(native, e)| (native.clone(), e.as_str().to_owned()))
            .collect(),
        session_note: pick(
            facet.session_note,
            shared.and_then(|s| s.session_note),
            true,
        ),
        per_prompt: pick(facet.per_prompt, shared.and_then(|s| s.per_prompt), false),
        note_max_bytes: cap(
            "note_max_bytes",
            &facet.note_max_bytes,
            shared.map(|s| &s.note_max_bytes),
            limits::NOTE_MAX_BYTES,
        )?,
        prompt_max_bytes: cap(
            "prompt_max_bytes",
            &facet.prompt_max_bytes,
            shared.map(|s| &s.prompt_max_bytes),
            limits::PROMPT_MAX_BYTES,
        )?,
        stdin_max_bytes: limits::STDIN_MAX_BYTES,
        stdin_timeout_ms: limits::STDIN_TIMEOUT_MS,
        audit: pick(facet.audit, shared.and_then(|s| s.audit), false),
        sources,
    };
    let prompt_event = events.iter().any(|(_, e)| *e == Event::UserPromptSubmit);
    if config.per_prompt && !prompt_event {
        ctx.warn(
            facet_at.span,
            "per_prompt has no effect without the `user-prompt-submit` event",
        );
    }
    Ok((config, ctx.warnings))
}

struct Ctx<'a> {
    file: &'a DesiredFile,
    env: &'a Env,
    agent: &'a str,
    base: &'a Path,
    warnings: Vec<String>,
}

impl Ctx<'_> {
    /// One source, or `None` when a limit outside its bounds disables it.
    fn source(&mut self, spec: &Sp<SourceSpec>) -> Result<Option<SourceKind>, DesiredError> {
        let s = &spec.value;
        match (&s.file, &s.command, &s.url) {
            (Some(f), None, None) => {
                if let Some(extra) = s.timeout_ms.as_ref().or(s.max_output_bytes.as_ref()) {
                    return Err(self.err(
                        extra.span,
                        "a file source takes no limits",
                        "only for `command` and `url`",
                    ));
                }
                self.file_source(f).map(Some)
            }
            (None, Some(c), None) => self.command_source(spec, c),
            (None, None, Some(u)) => self.url_source(spec, u),
            _ => Err(self.err(
                spec.span,
                "a source is exactly one of `file`, `command`, `url`",
                "this source",
            )),
        }
    }

    fn file_source(&mut self, f: &Sp<String>) -> Result<SourceKind, DesiredError> {
        let glob = f.value.contains(['*', '?', '[']);
        let path = self.resolve(&f.value, glob);
        if glob {
            let matches = path
                .to_str()
                .and_then(|p| glob::glob(p).ok())
                .map(|m| m.flatten().any(|p| p.is_file()));
            match matches {
                None => return Err(self.err(f.span, "not a valid glob pattern", "this pattern")),
                Some(false) => self.warn(f.span, &format!("`{}` matches no file yet", f.value)),
                Some(true) => {}
            }
        } else if !path.is_file() {
            return Err(self.err_help(
                f.span,
                &format!("no file at {}", self.env.display(&path)),
                "not found",
                "paths are relative to the desired file; use a glob for files that may not exist yet",
            ));
        }
        Ok(SourceKind::File { path, glob })
    }

    fn command_source(
        &mut self,
        spec: &Sp<SourceSpec>,
        c: &Sp<Vec<String>>,
    ) -> Result<Option<SourceKind>, DesiredError> {
        let Some(program) = c.value.first().filter(|p| !p.is_empty()) else {
            return Err(self.err(c.span, "the command is empty", "name a program"));
        };
        let mut argv = c.value.clone();
        if program.contains('/') || program.starts_with('~') {
            let path = self.resolve(program, false);
            if !path.is_file() {
                return Err(self.err_help(
                    c.span,
                    &format!("no program at {}", self.env.display(&path)),
                    "not found",
                    "paths are relative to the desired file; a bare name is looked up on PATH",
                ));
            }
            argv[0] = path.to_string_lossy().into_owned();
        }
        let (timeout_ms, max_output_bytes) = match self.limits(
            spec,
            limits::COMMAND_TIMEOUT_MS,
            limits::COMMAND_TIMEOUT_BOUNDS,
        ) {
            Some(l) => l,
            None => return Ok(None),
        };
        Ok(Some(SourceKind::Command {
            argv,
            timeout_ms,
            max_output_bytes,
        }))
    }

    fn url_source(
        &mut self,
        spec: &Sp<SourceSpec>,
        u: &Sp<String>,
    ) -> Result<Option<SourceKind>, DesiredError> {
        let url = u.value.replace("{agent}", self.agent);
        let host = url
            .strip_prefix("http://")
            .map(|r| r.split(['/', '?', '#']).next().unwrap_or(""));
        if host.is_none_or(str::is_empty) {
            return Err(self.err_help(
                u.span,
                "not an http:// URL",
                "this URL",
                "the URL source is for a provider on this machine and speaks plain HTTP; run a command source for anything else",
            ));
        }
        let Some((timeout_ms, max_output_bytes)) =
            self.limits(spec, limits::URL_TIMEOUT_MS, limits::URL_TIMEOUT_BOUNDS)
        else {
            return Ok(None);
        };
        Ok(Some(SourceKind::Url {
            url,
            timeout_ms,
            max_output_bytes,
        }))
    }

    /// The provider's limits, or `None` (with a warning) when one is
    /// outside its hard bounds.
    fn limits(
        &mut self,
        spec: &Sp<SourceSpec>,
        timeout: u64,
        bounds: (u64, u64),
    ) -> Option<(u64, u64)> {
        let s = &spec.value;
        let mut ok = true;
        for (value, bounds, what) in [
            (&s.timeout_ms, bounds, "timeout_ms"),
            (
                &s.max_output_bytes,
                limits::OUTPUT_BYTES_BOUNDS,
                "max_output_bytes",
            ),
        ] {
            if let Some(v) = value
                && let Err((lo, hi)) = within(v, bounds)
            {
                self.warn(
                    v.span,
                    &format!("{what} must be {lo} to {hi}; this source is disabled"),
                );
                ok = false;
            }
        }
        ok.then(|| {
            (
                s.timeout_ms.as_ref().map_or(timeout, |v| v.value),
                s.max_output_bytes
                    .as_ref()
                    .map_or(limits::OUTPUT_BYTES, |v| v.value),
            )
        })
    }

    /// `~/…` under the home, absolute as is, anything else relative to the
    /// desired file's folder. In a glob the folder is escaped, so that a
    /// `[` in it is not read as a pattern.
    fn resolve(&self, p: &str, glob: bool) -> PathBuf {
        let (base, rest) = if p == "~" {
            (self.env.home.as_path(), "")
        } else if let Some(rest) = p.strip_prefix("~/") {
            (self.env.home.as_path(), rest)
        } else if Path::new(p).is_absolute() {
            return PathBuf::from(p);
        } else {
            (self.base, p)
        };
        // Collecting the components drops `./` segments.
        let rest: PathBuf = Path::new(rest)
            .components()
            .filter(|c| *c != std::path::Component::CurDir)
            .collect();
        if glob {
            let base = glob::Pattern::escape(&base.to_string_lossy());
            PathBuf::from(base).join(rest)
        } else {
            base.join(rest)
        }
    }

    fn err(&self, span: Span, what: &str, label: &str) -> DesiredError {
        self.file.error_at(span, what, label, None)
    }

    fn err_help(&self, span: Span, what: &str, label: &str, help: &str) -> DesiredError {
        self.file.error_at(span, what, label, Some(help.to_owned()))
    }

    fn warn(&mut self, span: Span, what: &str) {
        let (line, col) =
            crate::formats::text::line_col(&self.file.text, span.offset.min(self.file.text.len()));
        self.warnings
            .push(format!("{}:{line}:{col}: {what}", self.file.path.display()));
    }
}

fn within(v: &Sp<u64>, (lo, hi): (u64, u64)) -> Result<u64, (u64, u64)> {
    if (lo..=hi).contains(&v.value) {
        Ok(v.value)
    } else {
        Err((lo, hi))
    }
}

/// The folder of the desired file, absolute.
fn desired_dir(path: &Path) -> PathBuf {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_owned());
    abs.parent()
        .map_or_else(|| PathBuf::from("/"), Path::to_path_buf)
}
