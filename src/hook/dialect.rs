//! Dialects: the exact bytes each agent expects on stdout, per event.
//!
//! Every agent reads hook output its own way, and a wrong shape is not a
//! harmless no-op: Codex fails a SessionStart hook whose stdout is plain
//! text, Cursor fails one whose stdout is not JSON, Claude Code reports a
//! hook error for JSON it cannot validate. So the shapes live in one table,
//! keyed by (dialect, native event), each row with its evidence; the rest of
//! the hook never asks which agent it serves.
//!
//! Evidence tags as in `shared/reference/agent-formats.md`: [P] primary
//! (vendor docs, vendor repository, vendor schema), [T] third party.

use serde_json::json;

/// What the hook prints for one (dialect, event).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Envelope {
    /// The context itself as plain text; nothing when there is none.
    PlainText,
    /// Plain text, except that text which itself starts with `{` goes in the
    /// `hookSpecificOutput` form: Claude Code reads stdout that starts with
    /// `{` as JSON, and when it is not, reports "Hook SessionStart:startup
    /// error" and drops the text (seen with Claude Code 2.1.332's debug log;
    /// docs/hook.md, "Verified").
    PlainUnlessJsonLike { event: &'static str },
    /// `{"hookSpecificOutput":{"hookEventName":E,"additionalContext":C}}`;
    /// nothing when there is no context.
    HookSpecific { event: &'static str },
    /// `{"additional_context":C}`; `{}` when there is no context, because
    /// Cursor parses all of stdout as JSON.
    AdditionalContext,
    /// `{"continue":true}` whatever the context: the event has no context
    /// channel, and the agent parses stdout as JSON.
    Continue,
    /// `{"context":C}`; nothing when there is no context.
    Context,
    /// `{}` whatever the context: no channel, JSON expected.
    EmptyObject,
    /// Nothing whatever the context: no channel.
    Nothing,
}

impl Envelope {
    /// Whether context printed in this envelope reaches the model.
    pub fn carries_context(self) -> bool {
        !matches!(
            self,
            Envelope::Continue | Envelope::EmptyObject | Envelope::Nothing
        )
    }

    /// The bytes to print for `context` (possibly empty).
    pub fn render(self, context: &str) -> Vec<u8> {
        let value = match self {
            Envelope::Nothing => return Vec::new(),
            Envelope::EmptyObject => json!({}),
            Envelope::Continue => json!({ "continue": true }),
            Envelope::AdditionalContext if context.is_empty() => json!({}),
            Envelope::AdditionalContext => json!({ "additional_context": context }),
            _ if context.is_empty() => return Vec::new(),
            Envelope::PlainText => return context.as_bytes().to_vec(),
            Envelope::PlainUnlessJsonLike { event } => {
                if !context.trim_start().starts_with('{') {
                    return context.as_bytes().to_vec();
                }
                hook_specific(event, context)
            }
            Envelope::HookSpecific { event } => hook_specific(event, context),
            Envelope::Context => json!({ "context": context }),
        };
        let mut out = serde_json::to_vec(&value).expect("JSON values serialise");
        out.push(b'\n');
        out
    }
}

fn hook_specific(event: &str, context: &str) -> serde_json::Value {
    json!({ "hookSpecificOutput": { "hookEventName": event, "additionalContext": context } })
}

/// One agent's way of running hooks.
#[derive(Debug)]
pub struct Dialect {
    pub name: &'static str,
    /// Environment variables that carry the session id into a hook's
    /// process, so that session state can be keyed without reading stdin.
    pub session_env: &'static [&'static str],
    /// Native event → envelope.
    pub events: &'static [(&'static str, Envelope)],
    /// Any other event.
    pub other: Envelope,
}

use Envelope::*;

/// Every dialect the hook knows.
pub const DIALECTS: &[Dialect] = &[
    Dialect {
        name: "claude",
        // [P] SchemaStore claude-code-settings.json (env): "Set
        // automatically to the current session ID in … hook command
        // subprocesses". Verified with Claude Code 2.1.332: at SessionStart
        // it equals the session_id UserPromptSubmit later gets on stdin.
        session_env: &["CLAUDE_CODE_SESSION_ID"],
        events: &[
            // [P] code.claude.com/docs/en/hooks: SessionStart stdout on exit 0
            // is added as context. [P] anthropics/claude-code#38731, PR
            // #39164: the JSON form at SessionStart was reported to show
            // "SessionStart:startup hook error" in the banner, and the
            // official plugins switched to plain text. Verified with Claude
            // Code 2.1.332: plain text reaches the model ("SessionStart:startup
            // hook success: …"), and so does the JSON form used for text
            // starting with `{`.
            (
                "SessionStart",
                PlainUnlessJsonLike {
                    event: "SessionStart",
                },
            ),
            // [P] code.claude.com/docs/en/hooks: UserPromptSubmit takes
            // hookSpecificOutput.additionalContext with hookEventName;
            // [T] devflow PR #52: without hookEventName it is dropped.
            // Verified with Claude Code 2.1.332 ("provided additionalContext").
            (
                "UserPromptSubmit",
                HookSpecific {
                    event: "UserPromptSubmit",
                },
            ),
        ],
        other: Nothing,
    },
    Dialect {
        name: "codex",
        // Third-party reports name CODEX_THREAD_ID, but Codex 0.171.0 sets
        // no session variable for hooks (their environment checked), so
        // session start keeps no per-session state.
        session_env: &[],
        events: &[
            // [P] codex-rs/hooks/schema/generated/
            // session-start.command.output.schema.json: additionalProperties
            // false, hookSpecificOutput.hookEventName const "SessionStart"
            // and required. [T] token-optimizer#81: plain text failed with
            // "hook returned invalid session start JSON output" (Codex
            // 0.171.0 accepts it; the schema's form holds across versions).
            // Empty stdout completes ([T] openai/codex#45999's table).
            // Verified with Codex 0.171.0: "hook: SessionStart Completed",
            // and the context reaches the model.
            (
                "SessionStart",
                HookSpecific {
                    event: "SessionStart",
                },
            ),
            // [P] developers.openai.com/codex/hooks: UserPromptSubmit takes
            // the same hookSpecificOutput.additionalContext (its generated
            // user-prompt-submit output schema is listed in
            // shared/schemas-upstream/SOURCES.md, not saved). Verified with
            // Codex 0.171.0, as above.
            (
                "UserPromptSubmit",
                HookSpecific {
                    event: "UserPromptSubmit",
                },
            ),
        ],
        other: Nothing,
    },
    Dialect {
        name: "cursor",
        session_env: &[],
        events: &[
            // [T] cupcake.eqtylab.io, tower1229/LingXi: sessionStart takes
            // top-level additional_context. [T] mindfold-ai/Trellis#18:
            // Cursor parses stdout as JSON ("JSON Parse Error"), so even
            // "nothing" is `{}`.
            ("sessionStart", AdditionalContext),
            // [T] reference §4: beforeSubmitPrompt only reads `continue`;
            // it has no context channel.
            ("beforeSubmitPrompt", Continue),
        ],
        other: EmptyObject,
    },
    Dialect {
        name: "gemini",
        // [P] gemini-cli 0.61.0 (its published bundle, the hook runner's
        // spawn): `GEMINI_SESSION_ID: input.session_id` in every hook's
        // environment. Verified: it equals the session_id BeforeAgent gets.
        session_env: &["GEMINI_SESSION_ID"],
        events: &[
            // [P] google-gemini/gemini-cli docs/hooks/reference.md:
            // SessionStart and BeforeAgent take
            // hookSpecificOutput.additionalContext; stdout must be JSON only.
            // hookEventName is what Claude-style readers key on; Gemini
            // ignores fields it does not use. Verified with gemini-cli
            // 0.61.0 (`gemini -p`): both contexts reach the model.
            (
                "SessionStart",
                HookSpecific {
                    event: "SessionStart",
                },
            ),
            (
                "BeforeAgent",
                HookSpecific {
                    event: "BeforeAgent",
                },
            ),
        ],
        other: Nothing,
    },
    Dialect {
        name: "vscode",
        session_env: &[],
        events: &[
            // [P] microsoft/vscode-docs docs/agent-customization/hooks.md:
            // SessionStart stdout is
            // {"hookSpecificOutput":{"hookEventName":"SessionStart",
            // "additionalContext":…}}.
            (
                "SessionStart",
                HookSpecific {
                    event: "SessionStart",
                },
            ),
            // Assumed to follow the same Claude-compatible output (not
            // verified for UserPromptSubmit).
            (
                "UserPromptSubmit",
                HookSpecific {
                    event: "UserPromptSubmit",
                },
            ),
        ],
        other: Nothing,
    },
    // opencode and openclaw have no shell hooks ([P] reference §5, §6):
    // coffer drops a thin plugin that runs `coffer hook` and pushes what it
    // prints into the system prompt (`output.system` of
    // experimental.chat.system.transform; before_prompt_build's
    // appendSystemContext). That contract is coffer's own: plain text.
    Dialect {
        name: "opencode",
        session_env: &[],
        events: &[],
        other: PlainText,
    },
    Dialect {
        name: "openclaw",
        session_env: &[],
        events: &[],
        other: PlainText,
    },
    Dialect {
        name: "hermes",
        session_env: &[],
        events: &[
            // [P] hermes-agent website/docs/user-guide/features/hooks.md:
            // only pre_llm_call injects, by printing {"context": …}; it
            // fires every turn and appends to the user message. Verified
            // with hermes-agent 0.19.0: `hermes hooks test pre_llm_call`
            // parses coffer's output into {"context": …}; its
            // agent/shell_hooks.py sends session_id, cwd and
            // extra.{user_message, is_first_turn} on stdin.
            ("pre_llm_call", Context),
            // [P] same page: on_session_start is observe-only.
            ("on_session_start", Nothing),
        ],
        other: Nothing,
    },
];

/// The dialect called `name`, if the hook knows it.
pub fn find(name: &str) -> Option<&'static Dialect> {
    DIALECTS.iter().find(|d| d.name == name)
}

/// The envelope for `event` in dialect `name`. An unknown dialect prints
/// nothing: the safest bytes for an agent coffer does not know.
pub fn envelope(name: &str, event: &str) -> Envelope {
    match find(name) {
        Some(d) => d
            .events
            .iter()
            .find(|(e, _)| *e == event)
            .map_or(d.other, |(_, env)| *env),
        None => Nothing,
    }
}

/// The session id the agent put in the environment, if it does.
pub fn session_from_env(name: &str) -> Option<String> {
    find(name)?
        .session_env
        .iter()
        .find_map(|var| std::env::var(var).ok().filter(|v| !v.is_empty()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(b: Vec<u8>) -> String {
        String::from_utf8(b).unwrap()
    }

    #[test]
    fn claude_session_start_is_plain_unless_it_looks_like_json() {
        let e = envelope("claude", "SessionStart");
        assert_eq!(text(e.render("rules\n")), "rules\n");
        assert_eq!(
            text(e.render("{\"a\":1}")),
            "{\"hookSpecificOutput\":{\"hookEventName\":\"SessionStart\",\"additionalContext\":\"{\\\"a\\\":1}\"}}\n"
        );
        assert_eq!(e.render(""), b"");
    }

    #[test]
    fn empty_context_prints_the_minimal_valid_envelope() {
        assert_eq!(envelope("codex", "SessionStart").render(""), b"");
        assert_eq!(envelope("cursor", "sessionStart").render(""), b"{}\n");
        assert_eq!(
            envelope("cursor", "beforeSubmitPrompt").render("x"),
            b"{\"continue\":true}\n"
        );
        assert_eq!(envelope("cursor", "stop").render("x"), b"{}\n");
        assert_eq!(envelope("nobody", "SessionStart").render("x"), b"");
        assert_eq!(envelope("hermes", "on_session_start").render("x"), b"");
    }

    #[test]
    fn every_dialect_is_listed_once() {
        let mut names: Vec<_> = DIALECTS.iter().map(|d| d.name).collect();
        names.sort();
        names.dedup();
        assert_eq!(names.len(), DIALECTS.len());
    }
}
