// What the agents were seen to do that coffer has to live with, one test
// each, so that a new agent version that behaves differently fails here and
// sends someone to docs/agents.md. Each test has its own throwaway HOME.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { join } from "node:path";
import { existsSync, readdirSync, writeFileSync } from "node:fs";
import { RECORD_HOOK, Sandbox, ok, show } from "./lib/sandbox.mjs";
import { MCP_PROBE } from "./lib/sandbox.mjs";
import { startMockModel } from "./lib/mock-model.mjs";
import * as A from "./lib/agents.mjs";

let model;
before(async () => (model = await startMockModel()));
after(async () => model?.close());

/** A sandbox with a desired file; `fn` gets it and cleans up after. */
async function withHome(name, desired, fn) {
  const sb = new Sandbox(name);
  try {
    const file = join(sb.root, "coffer.yaml");
    if (desired) writeFileSync(file, JSON.stringify({ version: 1, hook: { command: RECORD_HOOK }, agents: desired }, null, 2));
    await fn(sb, file);
  } finally {
    sb.cleanup();
  }
}
const events = (runs, dialect) => runs.filter((r) => r.argv[1] === dialect).map((r) => r.argv[3]);
const probe = { "coffer-probe": { command: "node", args: [MCP_PROBE, "coffer-probe"] } };

describe("Claude Code", () => {
  it("without an account, `claude -p` fires SessionStart, UserPromptSubmit and SessionEnd, then exits 1 'Not logged in'", () =>
    withHome("claude-no-account", { "claude-code": { context: { events: ["session-start", "user-prompt-submit", "stop", "session-end"] } } }, async (sb, file) => {
      ok(await sb.coffer(["apply", "-f", file, "--auto-approve"]));
      const s = await A.claudePrompt(sb);
      assert.equal(s.run.status, 1, show(s.run));
      assert.match(s.run.stdout + s.run.stderr, /Not logged in/);
      assert.deepEqual(events(sb.hookRuns(), "claude"), ["SessionStart", "UserPromptSubmit", "SessionEnd"]);
      assert.match(s.modelText, /SessionStart:startup hook success: coffer-probe-context claude SessionStart/);
    }));

  it("rewrites a ~/.claude.json that coffer created (2-space JSON, its keys appended, a backup); coffer's plan stays empty and destroy keeps Claude's keys", () =>
    withHome("claude-json", { "claude-code": { mcp: probe } }, async (sb, file) => {
      ok(await sb.coffer(["apply", "-f", file, "--auto-approve"]));
      const written = sb.read(".claude.json");
      await A.claudePrompt(sb);
      const text = sb.read(".claude.json");
      assert.notEqual(text, written, "Claude Code no longer rewrites ~/.claude.json: the live-writer caution may be relaxed");
      const v = JSON.parse(text);
      assert.equal(text, JSON.stringify(v, null, 2), "Claude Code's layout: 2-space indent, no final newline");
      assert.deepEqual(Object.keys(v)[0], "mcpServers", "Claude Code keeps the keys it found first, in order");
      assert.ok(v.firstStartTime && v.userID, `keys Claude Code adds: ${Object.keys(v)}`);
      assert.ok(readdirSync(sb.path(".claude/backups")).some((f) => f.startsWith(".claude.json.backup.")));
      const plan = await sb.coffer(["plan", "-f", file, "--detailed-exitcode"]);
      assert.equal(plan.status, 0, show(plan));
      ok(await sb.coffer(["destroy", "-f", file, "--auto-approve"]));
      assert.ok(sb.exists(".claude.json"), "destroy deleted a file Claude Code keeps its state in");
      const left = JSON.parse(sb.read(".claude.json"));
      assert.equal(left.mcpServers?.["coffer-probe"], undefined);
      for (const k of Object.keys(v).filter((k) => k !== "mcpServers")) assert.deepEqual(left[k], v[k], `Claude Code's key ${k}`);
      assert.equal((await A.claudeMcpGet(sb, "coffer-probe")).found, false);
    }));
});

describe("Codex", () => {
  it("runs coffer's hook only once it is trusted through Codex's own hooks screen (app-server), which writes the trust into config.toml", () =>
    withHome("codex-trust", { codex: { context: {} } }, async (sb, file) => {
      ok(await sb.coffer(["apply", "-f", file, "--auto-approve"]));
      await A.codexExec(sb, { mock: model });
      assert.deepEqual(sb.hookRuns(), [], "Codex ran a hook nobody trusted");
      const hooks = await A.codexHooksList(sb);
      assert.deepEqual(hooks.map((h) => h.trustStatus), ["untrusted"]);
      await A.codexTrustHooks(sb, hooks);
      assert.deepEqual((await A.codexHooksList(sb)).map((h) => h.trustStatus), ["trusted"]);
      assert.match(sb.read(".codex/config.toml"), /\[hooks\.state\."[^"]+hooks\.json:session_start:0:0"\]\ntrusted_hash = "sha256:/);
      await A.codexExec(sb, { mock: model });
      assert.deepEqual(events(sb.hookRuns(), "codex"), ["SessionStart"]);
      ok(await sb.coffer(["destroy", "-f", file, "--auto-approve"]));
      assert.deepEqual(await A.codexHooksList(sb), []);
    }));

  it("reads hooks.json, config.toml and AGENTS.md from CODEX_HOME, where coffer writes them", () =>
    withHome("codex-home", { codex: { context: {} } }, async (sb, file) => {
      const env = { CODEX_HOME: sb.path("elsewhere/codex") };
      ok(await sb.coffer(["apply", "-f", file, "--auto-approve"], { env }));
      assert.ok(sb.exists("elsewhere/codex/hooks.json") && !sb.exists(".codex/hooks.json"));
      sb.write("elsewhere/codex/AGENTS.md", "codex-home-instructions\n");
      sb.write("elsewhere/codex/config.toml", `[mcp_servers.coffer-probe]\ncommand = "node"\nargs = [${JSON.stringify(MCP_PROBE)}, "coffer-probe"]\n`);
      const hooks = await A.codexHooksList(sb, env);
      assert.deepEqual(hooks.map((h) => h.sourcePath), [sb.path("elsewhere/codex/hooks.json")]);
      assert.ok((await A.codexPromptInput(sb, env)).texts.some((t) => t.includes("codex-home-instructions")));
      assert.deepEqual((await A.codexMcpList(sb, env)).servers.map((s) => s.name), ["coffer-probe"]);
      ok(await sb.coffer(["destroy", "-f", file, "--auto-approve"], { env }));
      assert.deepEqual(await A.codexHooksList(sb, env), []);
    }));
});

describe("Gemini CLI", () => {
  it("lists user-level MCP servers as Disabled in a folder it does not trust", () =>
    withHome("gemini-untrusted", null, async (sb) => {
      sb.write(".gemini/settings.json", JSON.stringify({ mcpServers: probe }, null, 2));
      const r = ok(await sb.run("gemini", ["mcp", "list"]));
      assert.match(r.stdout + r.stderr, /coffer-probe: .* - Disabled/, show(r));
      assert.match(r.stdout + r.stderr, /untrusted/);
    }));
});

describe("opencode", () => {
  it("adds $schema to an opencode.json that lacks it, as a one-line splice, and writes a .gitignore beside it", () =>
    withHome("opencode-schema", null, async (sb) => {
      const mine = `{\n    // mine\n    "mcp": {},\n    "share": "disabled",\n}\n`;
      sb.write(".config/opencode/opencode.json", mine);
      await A.opencodeConfig(sb);
      const now = sb.read(".config/opencode/opencode.json");
      assert.equal(now, mine.replace("{\n", `{\n  "$schema": "https://opencode.ai/config.json",\n`), "opencode no longer splices $schema in");
      assert.ok(existsSync(sb.path(".config/opencode/.gitignore")));
      await A.opencodeConfig(sb);
      assert.equal(sb.read(".config/opencode/opencode.json"), now, "a second run rewrote it again");
    }));
});
