// What each agent's own CLI says, asked the way a person would ask it, and
// parsed into plain values for the assertions. Each function documents the
// command, and what the agent does without an account (see docs/agents.md).
import { existsSync, readFileSync, readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { ok, show } from "./sandbox.mjs";

const stripAnsi = (s) => s.replace(/\x1b\[[0-9;]*[A-Za-z]/g, "");

// ---------------------------------------------------------------- Claude Code

/** `claude mcp get NAME`: {found, connected, text}. Exit 1 when unknown. */
export async function claudeMcpGet(sb, name) {
  const r = await sb.run("claude", ["mcp", "get", name]);
  if (r.timedOut) throw new Error(`claude mcp get timed out\n${show(r)}`);
  const text = stripAnsi(r.stdout + r.stderr);
  return { found: r.status === 0 && text.includes(`${name}:`), connected: /Status:\s*✔ Connected/.test(text), text, run: r };
}

/** `claude mcp list`: server name → its line ("node … - ✔ Connected"). */
export async function claudeMcpList(sb) {
  const r = ok(await sb.run("claude", ["mcp", "list"]));
  const servers = new Map();
  for (const line of stripAnsi(r.stdout).split("\n")) {
    const m = line.match(/^([\w.-]+): (.*)$/);
    if (m) servers.set(m[1], m[2]);
  }
  return { servers, run: r };
}

/**
 * `claude -p hi` with no account: Claude Code starts a session (firing
 * SessionStart and UserPromptSubmit hooks), builds the request it would send,
 * records it in the session transcript, fires SessionEnd and exits 1
 * "Not logged in". Returns the transcript's lines and the text of what the
 * model would have been sent (system prompt, system reminders, user content).
 */
export async function claudePrompt(sb, prompt = "hi") {
  const before = new Set(claudeTranscripts(sb));
  const r = await sb.run("claude", ["-p", prompt]);
  if (r.timedOut) throw new Error(`claude -p timed out\n${show(r)}`);
  const fresh = claudeTranscripts(sb).filter((f) => !before.has(f));
  const lines = fresh.flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));
  const modelText = lines
    .filter((l) => l.type === "api-request-blob" || l.type === "api-request-shape")
    .map((l) => JSON.stringify(l))
    .join("\n");
  return { run: r, transcripts: fresh, lines, modelText };
}

/**
 * `claude -p hi` against the loopback model (lib/mock-model.mjs): a whole
 * turn with one Read tool call, so every hook of a turn fires. Returns what
 * Claude Code sent the model, and the hook runs its transcript records.
 */
export async function claudeTurn(sb, mock, prompt = "hi", { debug = false } = {}) {
  const from = mock.requests.length;
  const before = new Set(claudeTranscripts(sb));
  const debugBefore = new Set(claudeDebugLogs(sb));
  const r = await sb.run("claude", ["-p", prompt, ...(debug ? ["--debug"] : [])], { env: mock.claudeEnv });
  if (r.status !== 0 || r.timedOut) throw new Error(`claude -p against the loopback model failed\n${show(r)}`);
  const fresh = claudeTranscripts(sb).filter((f) => !before.has(f));
  const lines = fresh.flatMap((f) => readFileSync(f, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)));
  const debugLog = claudeDebugLogs(sb)
    .filter((f) => !debugBefore.has(f))
    .map((f) => readFileSync(f, "utf8"))
    .join("");
  return { run: r, sent: mock.sentSince(from), requests: mock.requests.slice(from), hooks: claudeHookRecords(lines), debugLog };
}

/** `--debug` writes ~/.claude/debug/<session>.txt (2.1.332). */
function claudeDebugLogs(sb) {
  const dir = sb.path(".claude/debug");
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((f) => f.endsWith(".txt"))
    .map((f) => join(dir, f));
}

/**
 * The hook runs Claude Code recorded in a session transcript: attachment
 * lines such as {type: "hook_success", hookEvent, command, exitCode, stdout,
 * stderr, content, …} (2.1.332; "hook_error" … when a hook fails).
 */
export function claudeHookRecords(lines) {
  return lines.filter((l) => l.type === "attachment" && l.attachment?.hookEvent).map((l) => l.attachment);
}

/** `claude doctor`: its report, with the "Invalid settings" entries it lists. */
export async function claudeDoctor(sb) {
  const r = await sb.run("claude", ["doctor"]);
  if (r.timedOut) throw new Error(`claude doctor timed out\n${show(r)}`);
  const text = stripAnsi(r.stdout + r.stderr);
  const invalid = text.split("\n").filter((l) => /settings\.json ›/.test(l));
  return { text, invalid, run: r };
}

function claudeTranscripts(sb) {
  const dir = sb.path(".claude/projects");
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((p) =>
    readdirSync(join(dir, p))
      .filter((f) => f.endsWith(".jsonl"))
      .map((f) => join(dir, p, f)),
  );
}

// ---------------------------------------------------------------------- Codex

/** `codex mcp list --json`: the servers Codex would start. */
export async function codexMcpList(sb, env = {}) {
  const r = ok(await sb.run("codex", ["mcp", "list", "--json"], { env }));
  return { servers: JSON.parse(r.stdout), run: r };
}

/**
 * `codex debug prompt-input hi`: the model-visible input list Codex would
 * send, as JSON, without an account or network. Returns every input text.
 */
export async function codexPromptInput(sb, env = {}) {
  const r = ok(await sb.run("codex", ["debug", "prompt-input", "hi"], { env }));
  const items = JSON.parse(r.stdout);
  const texts = items.flatMap((it) => (it.content || []).map((c) => c.text).filter((t) => typeof t === "string"));
  return { items, texts, run: r };
}

/**
 * Codex's own list of hooks and their trust, from `codex app-server`
 * (JSON-RPC over stdio: initialize, then hooks/list for the work folder):
 * each {key, eventName, command, sourcePath, currentHash, trustStatus, …}.
 * The same call Codex's /hooks screen makes.
 */
export async function codexHooksList(sb, env = {}) {
  const res = await codexAppServer(sb, [{ method: "hooks/list", params: { cwds: [sb.work] } }], env);
  const data = res[0].data;
  return data.flatMap((d) => d.hooks);
}

/**
 * Trusts hooks the way Codex's /hooks screen does: the hash Codex reports
 * for each, written back through the app-server's config/batchWrite into
 * config.toml (`[hooks.state."KEY"] trusted_hash`). coffer does not do this
 * for the user; the suite does it to prove the trusted path end to end.
 */
export async function codexTrustHooks(sb, hooks, env = {}) {
  const value = Object.fromEntries(hooks.map((h) => [h.key, { trusted_hash: h.currentHash }]));
  await codexAppServer(sb, [{ method: "config/batchWrite", params: { edits: [{ keyPath: "hooks.state", mergeStrategy: "upsert", value }] } }], env);
}

async function codexAppServer(sb, requests, env) {
  const lines = [
    { id: 0, method: "initialize", params: { clientInfo: { name: "coffer-acceptance", version: "0" } } },
    { method: "initialized" },
    ...requests.map((q, i) => ({ id: i + 1, ...q })),
  ];
  const input = lines.map((l) => JSON.stringify({ jsonrpc: "2.0", ...l })).join("\n") + "\n";
  const want = requests.length;
  const responses = (out) =>
    out.stdout
      .split("\n")
      .filter((l) => l.startsWith("{"))
      .map((l) => JSON.parse(l))
      .filter((m) => typeof m.id === "number" && m.id >= 1);
  // The app-server stays up while stdin is open: keep it open (no EOF) until
  // every answer is in, then the run ends it.
  const r = await sb.run("codex", ["app-server"], { env, stdinOpen: input, until: (out) => responses(out).length >= want });
  const got = responses(r);
  if (got.length < want) throw new Error(`codex app-server did not answer\n${show(r)}`);
  return got.sort((a, b) => a.id - b.id).map((m) => {
    if (m.error) throw new Error(`codex app-server: ${JSON.stringify(m.error)}\n${show(r)}`);
    return m.result;
  });
}

/**
 * `codex exec --json hi`. With `mock` (lib/mock-model.mjs) Codex runs a whole
 * turn against the loopback model and exits: SessionStart, UserPromptSubmit,
 * Stop and SessionEnd hooks fire. Without it Codex has no account: it starts
 * the thread (SessionStart), takes the prompt (UserPromptSubmit), then
 * retries a model it cannot reach for ever; the run is ended at its first
 * connection error, by which point those hooks have run.
 * Returns the events it printed, the session rollout, and what the model was
 * sent (with `mock`).
 */
export async function codexExec(sb, { bypassTrust = false, mock, env = {}, json = true } = {}) {
  if (!json && !mock) throw new Error("codexExec: json: false needs the loopback model (it ends on its own)");
  // Without --json Codex prints its human log on stderr instead: the session
  // id, and each hook run with its outcome ("hook: SessionStart Completed",
  // "… Failed" when the hook exits nonzero).
  const args = ["exec", ...(json ? ["--json"] : []), "--skip-git-repo-check"];
  if (bypassTrust) args.push("--dangerously-bypass-hook-trust");
  if (mock) args.push(...mock.codexArgs);
  args.push("hi");
  const from = mock ? mock.requests.length : 0;
  let r;
  if (mock) {
    r = await sb.run("codex", args, { env: { ...mock.codexEnv, ...env } });
    if (r.status !== 0 || r.timedOut) throw new Error(`codex exec against the loopback model failed\n${show(r)}`);
  } else {
    const pastHooks = (out) => jsonLines(out.stdout).some((e) => ["error", "turn.failed", "turn.completed"].includes(e.type));
    r = await sb.run("codex", args, { env, until: pastHooks });
    if (!r.matched) throw new Error(`codex exec never reached its model request\n${show(r)}`);
  }
  const events = jsonLines(r.stdout);
  const thread = events.find((e) => e.type === "thread.started")?.thread_id ?? r.stderr.match(/^session id: (\S+)$/m)?.[1];
  const rollout = thread ? findFile(join(env.CODEX_HOME || sb.path(".codex"), "sessions"), (f) => f.includes(thread)) : null;
  const items = rollout ? readFileSync(rollout, "utf8").split("\n").filter(Boolean).map((l) => JSON.parse(l)) : [];
  return { run: r, events, rollout, items, sent: mock ? mock.sentSince(from) : "", requests: mock ? mock.requests.slice(from) : [] };
}

function jsonLines(text) {
  return text.split("\n").flatMap((l) => {
    try {
      return l.startsWith("{") ? [JSON.parse(l)] : [];
    } catch {
      return []; // a line still being written
    }
  });
}

function findFile(dir, pred) {
  if (!existsSync(dir)) return null;
  for (const name of readdirSync(dir)) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) {
      const f = findFile(p, pred);
      if (f) return f;
    } else if (pred(name)) return p;
  }
  return null;
}

// ----------------------------------------------------------------- Gemini CLI

// Gemini CLI suppresses every MCP server, user-level ones too, in a folder it
// does not trust, and refuses headless runs there: the suite trusts the work
// folder for the run, the documented way for automation.
const GEMINI_TRUST = { GEMINI_CLI_TRUST_WORKSPACE: "true" };

/** `gemini mcp list`: server name → {connected, line}. */
export async function geminiMcpList(sb) {
  const r = ok(await sb.run("gemini", ["mcp", "list"], { env: GEMINI_TRUST }));
  const servers = new Map();
  // Gemini CLI 0.61.0 prints the list on stderr.
  for (const line of stripAnsi(r.stdout + r.stderr).split("\n")) {
    const m = line.match(/^\S+ ([\w.-]+): (.*)$/);
    if (m) servers.set(m[1], { line: m[2], connected: / - Connected$/.test(m[2]) });
  }
  return { servers, run: r };
}

/**
 * `gemini -p "/memory show"`: prints the instructions Gemini CLI loaded
 * (every GEMINI.md, with its path). Gemini wants an auth method before it
 * starts a session at all, so the run gets GEMINI_API_KEY=not-a-key: not a
 * credential, it opens nothing; Gemini fires its SessionStart and BeforeAgent
 * hooks, answers the slash command, and then retries the model it cannot
 * reach, which is when the run is ended.
 */
export async function geminiMemory(sb) {
  const done = (out) => /End of Context from|Memory is currently empty/.test(out.stdout) && /Attempt \d+ failed|fetch failed/.test(out.stderr + out.stdout);
  const r = await sb.run("gemini", ["-p", "/memory show"], { env: { ...GEMINI_TRUST, GEMINI_API_KEY: "not-a-key" }, until: done });
  if (!/End of Context from|Memory is currently empty/.test(r.stdout)) throw new Error(`gemini never showed its memory\n${show(r)}`);
  return { memory: stripAnsi(r.stdout), run: r };
}

/**
 * `gemini -m gemini-2.5-flash -p PROMPT` against the loopback model
 * (lib/mock-model.mjs, `GOOGLE_GEMINI_BASE_URL`): a whole turn, which exits
 * 0. Gemini CLI 0.61.0 accepts the base URL only with API-key auth chosen in
 * its settings (`security.auth.selectedType: "gemini-api-key"` in
 * ~/.gemini/settings.json; without it: "Invalid auth method selected.",
 * exit 41): the caller seeds that, as a user who chose API-key auth would
 * have. A fixed model keeps Gemini from asking a routing model first.
 * `debug` adds `--debug`, whose stderr reports each hook run ("Hook
 * execution for SessionStart: 1 hooks executed successfully"). Returns what
 * Gemini sent the model.
 */
export async function geminiTurn(sb, mock, { prompt = "hi", debug = false } = {}) {
  const from = mock.requests.length;
  const args = ["-m", "gemini-2.5-flash", "-p", prompt, ...(debug ? ["--debug"] : [])];
  const r = await sb.run("gemini", args, { env: { ...GEMINI_TRUST, ...mock.geminiEnv } });
  if (r.status !== 0 || r.timedOut) throw new Error(`gemini -p against the loopback model failed\n${show(r)}`);
  return { run: r, sent: mock.sentSince(from), requests: mock.requests.slice(from) };
}

// ------------------------------------------------------------------- opencode

/** `opencode debug config`: the resolved configuration, loaded plugins included. */
export async function opencodeConfig(sb) {
  const r = ok(await sb.run("opencode", ["debug", "config"]));
  return { config: JSON.parse(r.stdout), run: r };
}

/** `opencode mcp list`: server name → {connected, line}. */
export async function opencodeMcpList(sb) {
  const r = ok(await sb.run("opencode", ["mcp", "list"]));
  const servers = new Map();
  for (const line of stripAnsi(r.stdout).split("\n")) {
    const m = line.match(/[✓✗○●]\s+([\w.-]+)\s+(\S.*)$/);
    if (m && !/^MCP/.test(m[1])) servers.set(m[1], { line: m[2], connected: /connected/.test(m[2]) && !/disconnected|failed/.test(m[2]) });
  }
  return { servers, run: r };
}
