// What the lifecycle test installs for each agent, and who installs it.
//
// ============================================================================
// THE SWITCH. Each line says whether `coffer apply` installs that facet
// (true) or the suite places the same thing by hand (false), in the shape the
// agent documents, so that the assertions already prove the agent reads that
// place. When coffer gains a facet, flip its line to true: its desired-file
// fragment is below and the assertions do not change. To try a flip without
// editing, list keys in COFFER_AGENTS_BY_COFFER (comma-separated).
// ============================================================================
export const BY_COFFER = {
  "claude-code.context": true,
  "claude-code.mcp": true,
  "claude-code.instructions": true,
  "codex.context": true,
  "codex.mcp": true,
  "codex.instructions": true,
  "gemini-cli.context": true,
  "gemini-cli.mcp": true,
  "gemini-cli.instructions": true,
  "opencode.context": true,
  "opencode.mcp": true,
};
for (const k of (process.env.COFFER_AGENTS_BY_COFFER || "").split(",").filter(Boolean)) {
  if (!(k in BY_COFFER)) throw new Error(`COFFER_AGENTS_BY_COFFER: unknown key ${k}`);
  BY_COFFER[k] = true;
}

import { MCP_PROBE, RECORD_HOOK } from "./sandbox.mjs";

/** Every event of coffer's registry, with Claude Code's and Codex's names. */
export const EVENTS = [
  ["session-start", "SessionStart"],
  ["session-end", "SessionEnd"],
  ["user-prompt-submit", "UserPromptSubmit"],
  ["pre-tool-use", "PreToolUse"],
  ["post-tool-use", "PostToolUse"],
  ["stop", "Stop"],
  ["pre-compact", "PreCompact"],
];
const hookEntries = (v, dialect) => {
  v.hooks ??= {};
  for (const [, e] of EVENTS) (v.hooks[e] ??= []).push({ hooks: [{ type: "command", command: `${RECORD_HOOK} --dialect ${dialect} --event ${e}` }] });
};

/** The MCP server every agent gets, and the instructions text. */
export const PROBE = "coffer-probe";
export const instructionsFor = (agent) => `coffer-probe-instructions for ${agent}: answer in haiku.`;
const probeServer = { command: "node", args: [MCP_PROBE, PROBE] };

// A Markdown block as the design has it (coffer's own naming may differ; the
// assertions look for the text, not the markers).
const block = (text) => `<!-- coffer:begin ${PROBE} -->\n${text}\n<!-- coffer:end ${PROBE} -->\n`;
const appendBlock = (before, text) => (before ? before + (before.endsWith("\n") ? "\n" : "\n\n") : "") + block(text);
const jsonEdit = (before, edit) => {
  const v = before ? JSON.parse(before) : {};
  edit(v);
  return JSON.stringify(v, null, 2) + "\n";
};

/**
 * Every facet of the lifecycle test: the agent (coffer's id), the facet, the
 * fragment of the desired file coffer gets for it, and the hand placement
 * used until then: `file` (relative to HOME) and `place(text|null) → text`.
 */
export const FACETS = [
  {
    key: "claude-code.context",
    desired: { events: EVENTS.map(([e]) => e) },
    file: ".claude/settings.json",
    place: (t) => jsonEdit(t, (v) => hookEntries(v, "claude")),
  },
  {
    key: "claude-code.mcp",
    desired: { [PROBE]: probeServer },
    file: ".claude.json",
    place: (t) => jsonEdit(t, (v) => ((v.mcpServers ??= {})[PROBE] = { type: "stdio", ...probeServer })),
  },
  {
    key: "claude-code.instructions",
    desired: { text: instructionsFor("claude-code") },
    file: ".claude/CLAUDE.md",
    place: (t) => appendBlock(t, instructionsFor("claude-code")),
  },
  {
    key: "codex.context",
    desired: { events: EVENTS.map(([e]) => e) },
    file: ".codex/hooks.json",
    place: (t) => jsonEdit(t, (v) => hookEntries(v, "codex")),
  },
  {
    key: "codex.mcp",
    desired: { [PROBE]: probeServer },
    file: ".codex/config.toml",
    place: (t) => (t ? t + (t.endsWith("\n") ? "\n" : "\n\n") : "") + `[mcp_servers.${PROBE}]\ncommand = "node"\nargs = [${JSON.stringify(MCP_PROBE)}, "${PROBE}"]\n`,
  },
  {
    key: "codex.instructions",
    desired: { text: instructionsFor("codex") },
    file: ".codex/AGENTS.md",
    place: (t) => appendBlock(t, instructionsFor("codex")),
  },
  {
    key: "gemini-cli.context",
    desired: { events: ["session-start"] },
    file: ".gemini/settings.json",
    place: (t) =>
      jsonEdit(t, (v) => {
        v.hooks ??= {};
        (v.hooks.SessionStart ??= []).push({ hooks: [{ type: "command", command: `${RECORD_HOOK} --dialect gemini --event SessionStart` }] });
      }),
  },
  {
    key: "gemini-cli.mcp",
    desired: { [PROBE]: probeServer },
    file: ".gemini/settings.json",
    place: (t) => jsonEdit(t, (v) => ((v.mcpServers ??= {})[PROBE] = { ...probeServer })),
  },
  {
    key: "gemini-cli.instructions",
    desired: { text: instructionsFor("gemini-cli") },
    file: ".gemini/GEMINI.md",
    place: (t) => appendBlock(t, instructionsFor("gemini-cli")),
  },
  {
    key: "opencode.context",
    desired: {},
    file: ".config/opencode/plugins/coffer.js",
    // Stands where coffer's thin plugin will: it records that opencode loaded
    // it (a hook run with --event plugin-load), which `opencode debug config`
    // does.
    place: () =>
      `// coffer: runs coffer's hook program for opencode (hand-placed stand-in)\n` +
      `import { appendFileSync } from "node:fs";\n` +
      `export const Coffer = async () => {\n` +
      `  if (process.env.COFFER_PROBE_LOG) appendFileSync(process.env.COFFER_PROBE_LOG, JSON.stringify({ argv: ["--dialect", "opencode", "--event", "plugin-load"], stdin: null }) + "\\n");\n` +
      `  return {};\n` +
      `};\n`,
  },
  {
    key: "opencode.mcp",
    desired: { [PROBE]: probeServer },
    file: ".config/opencode/opencode.json",
    place: (t) => jsonEdit(t, (v) => ((v.mcp ??= {})[PROBE] = { type: "local", command: [probeServer.command, ...probeServer.args], enabled: true })),
  },
];

for (const f of FACETS) {
  [f.agent, f.facet] = f.key.split(".");
  f.byCoffer = BY_COFFER[f.key];
}

/** The desired file for every facet coffer installs (JSON is YAML). */
export function desiredFile() {
  const agents = {};
  for (const f of FACETS.filter((f) => f.byCoffer)) (agents[f.agent] ??= {})[f.facet] = f.desired;
  return JSON.stringify({ version: 1, hook: { command: RECORD_HOOK }, agents }, null, 2) + "\n";
}

/**
 * Places (or takes out again) the facets coffer does not install yet, as a
 * perfect coffer would: placing remembers each file's bytes, and taking out
 * restores them, in reverse order. It refuses to restore a file an agent
 * rewrote in between (it could not do so exactly).
 */
export class HandPlacer {
  constructor(sb) {
    this.sb = sb;
    this.done = [];
  }
  apply() {
    for (const f of FACETS.filter((f) => !f.byCoffer)) {
      const before = this.sb.exists(f.file) ? this.sb.read(f.file) : null;
      const after = f.place(before);
      this.sb.write(f.file, after);
      this.done.push({ f, before, after });
    }
  }
  destroy() {
    for (const { f, before, after } of this.done.reverse()) {
      const now = this.sb.exists(f.file) ? this.sb.read(f.file) : null;
      if (now !== after) throw new Error(`${f.file} changed after the suite placed ${f.key} by hand; cannot take it out exactly`);
      if (before === null) this.sb.remove(f.file);
      else this.sb.write(f.file, before);
    }
    this.done = [];
  }
}
