// The acceptance lifecycle: in one throwaway HOME that already holds a
// user's own agent configuration, install coffer's context hooks, an MCP
// server and instructions for Claude Code, Codex, Gemini CLI and opencode;
// ask each agent's own CLI whether it sees them; take them out again; ask
// again; and compare every file with what the user had.
//
// Which facets `coffer apply` installs and which the suite still places by
// hand (until coffer has them) is THE SWITCH in lib/facets.mjs.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { join } from "node:path";
import { writeFileSync } from "node:fs";
import { MCP_PROBE, RECORD_HOOK, Sandbox, ok, show } from "./lib/sandbox.mjs";
import { EVENTS, FACETS, HandPlacer, PROBE, desiredFile, instructionsFor } from "./lib/facets.mjs";
import { startMockModel } from "./lib/mock-model.mjs";
import * as A from "./lib/agents.mjs";

const sb = new Sandbox("lifecycle");
const desired = join(sb.root, "coffer.yaml");
const hand = new HandPlacer(sb);
const USER = "user-server";
const COFFER_STATE = ".local/state/coffer";

// The user's own configuration, there before coffer. Every file must come
// back byte for byte, except ~/.claude.json, which Claude Code rewrites.
const userServerJson = `{ "command": "node", "args": [${JSON.stringify(MCP_PROBE)}, "${USER}"] }`;
const USER_FILES = {
  ".claude/settings.json": `{
    "permissions": { "allow": ["Bash(ls:*)"] },
    "hooks": {
        "SessionStart": [
            { "hooks": [ { "type": "command", "command": "node ${RECORD_HOOK} --dialect user --event SessionStart" } ] }
        ]
    }
}
`,
  ".claude.json": `{
    "numStartups": 3,
    "mcpServers": {
        "${USER}": ${userServerJson}
    }
}
`,
  ".codex/config.toml": `# my Codex settings
model_reasoning_effort = "low"

[mcp_servers.${USER}]
command = "node"
args = [${JSON.stringify(MCP_PROBE)}, "${USER}"]
`,
  ".codex/AGENTS.md": "# My rules\n\nBe brief.\n",
  ".gemini/settings.json": `{\n  "mcpServers": {\n    "${USER}": ${userServerJson}\n  }\n}\n`,
  // With its $schema: opencode adds that key to a config without it.
  ".config/opencode/opencode.json": `{\n  "$schema": "https://opencode.ai/config.json",\n  "mcp": {\n    "${USER}": { "type": "local", "command": ["node", ${JSON.stringify(MCP_PROBE)}, "${USER}"] }\n  }\n}\n`,
};

let seeded; // the home before coffer: relative path → bytes
let installed; // files that coffer (or the hand placement) created
let claudeJsonBeforeDestroy;
let model; // the loopback model endpoint (lib/mock-model.mjs)

const hookRunsSince = (n) => sb.hookRuns().slice(n);
const events = (runs, dialect) =>
  runs.filter((r) => r.argv[1] === dialect).map((r) => r.argv[3]);

before(async () => {
  for (const [rel, text] of Object.entries(USER_FILES)) sb.write(rel, text);
  seeded = sb.snapshot();
  writeFileSync(join(sb.work, "README.txt"), "the file the model asks Claude Code to read\n");
  model = await startMockModel({ readFile: join(sb.work, "README.txt") });
});
after(async () => {
  await model?.close();
  sb.cleanup();
});

describe("install", () => {
  it("coffer apply installs its facets; the rest are placed by hand", async () => {
    writeFileSync(desired, desiredFile());
    ok(await sb.coffer(["apply", "-f", desired, "--auto-approve"]));
    hand.apply();
    const now = sb.snapshot({ skip: [COFFER_STATE] });
    installed = [...now.keys()].filter((k) => !seeded.has(k));
    for (const f of FACETS) assert.ok(now.has(f.file), `${f.key}: ${f.file} is missing after install`);
  });

  it("a second plan is empty", async () => {
    const r = await sb.coffer(["plan", "-f", desired, "--detailed-exitcode"]);
    assert.equal(r.status, 0, `the plan after apply is not empty\n${show(r)}`);
  });
});

describe("each agent sees what was installed", () => {
  it("Claude Code: `claude mcp get` and `claude mcp list` see coffer's server, connected, and the user's", async () => {
    const got = await A.claudeMcpGet(sb, PROBE);
    assert.ok(got.found, `claude mcp get ${PROBE} does not find it\n${show(got.run)}`);
    assert.match(got.text, /Scope: User config/);
    assert.ok(got.connected, `claude cannot connect to ${PROBE}\n${got.text}`);
    const { servers } = await A.claudeMcpList(sb);
    assert.match(servers.get(PROBE) ?? "", /✔ Connected/, `claude mcp list: ${[...servers]}`);
    assert.match(servers.get(USER) ?? "", /✔ Connected/, `claude mcp list lost the user's server: ${[...servers]}`);
  });

  it("Claude Code: a turn (`claude -p`) runs coffer's hook at every event with --dialect claude; the model is sent its output and the instructions", async () => {
    const n = sb.hookRuns().length;
    const t = await A.claudeTurn(sb, model);
    const runs = hookRunsSince(n);
    // PreCompact needs a compaction, which a one-line turn never reaches.
    assert.deepEqual(events(runs, "claude"), ["SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "SessionEnd"], JSON.stringify(runs));
    for (const r of runs.filter((r) => r.argv[1] === "claude")) assert.equal(r.stdin.hook_event_name, r.argv[3]);
    assert.equal(runs.find((r) => r.argv[3] === "SessionStart").stdin.source, "startup");
    assert.deepEqual(events(runs, "user"), ["SessionStart"], "the user's own hook must run beside coffer's");
    assert.ok(t.sent.includes("coffer-probe-context claude SessionStart"), "the SessionStart hook's output was not sent to the model");
    assert.ok(t.sent.includes(instructionsFor("claude-code")), "the instructions were not sent to the model");
  });

  it("Claude Code: `claude doctor` finds every hook event coffer wrote valid", async () => {
    const d = await A.claudeDoctor(sb);
    assert.deepEqual(d.invalid, [], d.text);
  });

  it("Claude Code rewrote ~/.claude.json, and coffer still finds its server there: the plan stays empty", async () => {
    const text = sb.read(".claude.json");
    const v = JSON.parse(text);
    assert.ok(v.mcpServers?.[PROBE], "coffer's server is gone from ~/.claude.json after Claude Code ran");
    assert.ok(v.mcpServers?.[USER], "the user's server is gone from ~/.claude.json after Claude Code ran");
    const r = await sb.coffer(["plan", "-f", desired, "--detailed-exitcode"]);
    assert.equal(r.status, 0, `after Claude Code rewrote ~/.claude.json coffer wants changes\n${show(r)}`);
  });

  it("Codex: `codex mcp list --json` sees coffer's server and the user's", async () => {
    const { servers } = await A.codexMcpList(sb);
    const probe = servers.find((s) => s.name === PROBE);
    assert.ok(probe, `codex mcp list: ${JSON.stringify(servers.map((s) => s.name))}`);
    assert.equal(probe.enabled, true);
    assert.equal(probe.transport.type, "stdio");
    assert.deepEqual([probe.transport.command, ...probe.transport.args], ["node", MCP_PROBE, PROBE]);
    assert.ok(servers.some((s) => s.name === USER), "the user's server is gone");
  });

  it("Codex: `codex debug prompt-input` carries the instructions block after the user's rules", async () => {
    const { texts } = await A.codexPromptInput(sb);
    const agentsMd = texts.find((t) => t.startsWith("# AGENTS.md instructions"));
    assert.ok(agentsMd, `no AGENTS.md item in the prompt input: ${JSON.stringify(texts.map((t) => t.slice(0, 60)))}`);
    assert.ok(agentsMd.includes("Be brief."), "the user's own rules are missing");
    assert.ok(agentsMd.includes(instructionsFor("codex")), `the instructions are missing:\n${agentsMd}`);
    assert.ok(agentsMd.indexOf("Be brief.") < agentsMd.indexOf(instructionsFor("codex")));
  });

  it("Codex: its hooks list shows coffer's hook for every event, from ~/.codex/hooks.json, untrusted until reviewed", async () => {
    const hooks = await A.codexHooksList(sb);
    const ours = hooks.filter((h) => h.command.startsWith(RECORD_HOOK));
    const camel = (e) => e[0].toLowerCase() + e.slice(1);
    assert.deepEqual(
      ours.map((h) => [h.eventName, h.command]).sort(),
      EVENTS.map(([, e]) => [camel(e), `${RECORD_HOOK} --dialect codex --event ${e}`]).sort(),
      JSON.stringify(hooks, null, 1),
    );
    for (const h of ours) {
      assert.equal(h.sourcePath, sb.path(".codex/hooks.json"));
      assert.equal(h.trustStatus, "untrusted", "Codex trusts a hook nobody reviewed?");
    }
  });

  it("Codex: a turn (`codex exec`) runs coffer's hooks with --dialect codex; the model is sent the SessionStart output and the instructions", async () => {
    const n = sb.hookRuns().length;
    const x = await A.codexExec(sb, { bypassTrust: true, mock: model });
    const runs = hookRunsSince(n);
    // No tool call and no compaction in a one-line turn.
    assert.deepEqual(events(runs, "codex"), ["SessionStart", "UserPromptSubmit", "Stop", "SessionEnd"], `${JSON.stringify(runs)}\n${show(x.run)}`);
    for (const r of runs) assert.equal(r.stdin.hook_event_name, r.argv[3]);
    assert.ok(x.sent.includes("coffer-probe-context codex SessionStart"), "the SessionStart hook's output was not sent to the model");
    assert.ok(x.sent.includes(instructionsFor("codex")), "the instructions were not sent to the model");
  });

  it("Gemini CLI: `gemini mcp list` sees coffer's server and the user's, connected", async () => {
    const { servers, run } = await A.geminiMcpList(sb);
    assert.ok(servers.get(PROBE)?.connected, `gemini mcp list:\n${show(run)}`);
    assert.ok(servers.get(USER)?.connected, `the user's server:\n${show(run)}`);
  });

  it("Gemini CLI: a session runs the SessionStart hook and loads the instructions (`/memory show`)", async () => {
    const n = sb.hookRuns().length;
    const { memory, run } = await A.geminiMemory(sb);
    assert.ok(memory.includes(instructionsFor("gemini-cli")), `instructions not in Gemini's memory:\n${show(run)}`);
    assert.ok(memory.includes(sb.path(".gemini/GEMINI.md")));
    assert.deepEqual(events(hookRunsSince(n), "gemini"), ["SessionStart"]);
  });

  it("opencode: `opencode debug config` lists coffer's MCP server and loads coffer's plugin", async () => {
    const n = sb.hookRuns().length;
    const { config } = await A.opencodeConfig(sb);
    assert.deepEqual(config.mcp?.[PROBE]?.command, ["node", MCP_PROBE, PROBE], JSON.stringify(config.mcp));
    assert.ok(config.mcp?.[USER], "the user's server is gone");
    const plugin = `file://${sb.path(".config/opencode/plugins/coffer.js")}`;
    assert.ok(config.plugin?.includes(plugin), `plugins: ${JSON.stringify(config.plugin)}`);
    if (!FACETS.find((f) => f.key === "opencode.context").byCoffer)
      assert.deepEqual(events(hookRunsSince(n), "opencode"), ["plugin-load"], "opencode listed the plugin but did not load it");
  });

  it("opencode: `opencode mcp list` connects to coffer's server", async () => {
    const { servers, run } = await A.opencodeMcpList(sb);
    assert.ok(servers.get(PROBE)?.connected, `opencode mcp list:\n${show(run)}`);
  });
});

describe("uninstall", () => {
  it("coffer destroy takes out what it installed; the hand placements are taken out", async () => {
    claudeJsonBeforeDestroy = sb.read(".claude.json");
    ok(await sb.coffer(["destroy", "-f", desired, "--auto-approve"]));
    hand.destroy();
  });
});

describe("no agent sees any of it any more", () => {
  it("Claude Code: no coffer server, the user's still there; no coffer hook runs; no instructions", async () => {
    const got = await A.claudeMcpGet(sb, PROBE);
    assert.equal(got.found, false, `claude still sees ${PROBE}\n${got.text}`);
    assert.match(got.text, /No MCP server named/);
    assert.ok((await A.claudeMcpGet(sb, USER)).connected, "the user's server is gone");
    const n = sb.hookRuns().length;
    const t = await A.claudeTurn(sb, model);
    const runs = hookRunsSince(n);
    assert.deepEqual(events(runs, "claude"), [], `coffer's hook still runs: ${JSON.stringify(runs)}`);
    assert.deepEqual(events(runs, "user"), ["SessionStart"], "the user's hook must still run");
    assert.ok(!t.sent.includes(instructionsFor("claude-code")), "the instructions are still sent");
    assert.ok(!t.sent.includes("coffer-probe-context claude"), "coffer's hook output is still sent");
    assert.ok(t.sent.includes("coffer-probe-context user SessionStart"), "the user's hook output is missing");
  });

  it("Codex: no coffer server, hooks or instructions; the user's server and rules stay", async () => {
    const { servers } = await A.codexMcpList(sb);
    assert.deepEqual(servers.map((s) => s.name), [USER]);
    const { texts } = await A.codexPromptInput(sb);
    const agentsMd = texts.find((t) => t.startsWith("# AGENTS.md instructions")) ?? "";
    assert.ok(agentsMd.includes("Be brief."));
    assert.ok(!texts.some((t) => t.includes(instructionsFor("codex"))));
    assert.deepEqual(await A.codexHooksList(sb), []);
    const n = sb.hookRuns().length;
    const x = await A.codexExec(sb, { bypassTrust: true, mock: model });
    assert.deepEqual(hookRunsSince(n), []);
    assert.ok(!x.sent.includes(instructionsFor("codex")));
    assert.ok(x.sent.includes("Be brief."), "the user's rules are no longer sent");
  });

  it("Gemini CLI: no coffer server, hook or instructions", async () => {
    const { servers } = await A.geminiMcpList(sb);
    assert.deepEqual([...servers.keys()], [USER]);
    const n = sb.hookRuns().length;
    const { memory } = await A.geminiMemory(sb);
    assert.ok(!memory.includes(instructionsFor("gemini-cli")));
    assert.deepEqual(hookRunsSince(n), []);
  });

  it("opencode: no coffer server or plugin", async () => {
    const n = sb.hookRuns().length;
    const { config } = await A.opencodeConfig(sb);
    assert.deepEqual(Object.keys(config.mcp ?? {}), [USER]);
    assert.ok(!(config.plugin ?? []).some((p) => p.includes("coffer")), JSON.stringify(config.plugin));
    assert.deepEqual(hookRunsSince(n), []);
  });
});

describe("files", () => {
  it("every file the user had is back byte for byte (~/.claude.json: only coffer's server left it)", () => {
    const now = sb.snapshot();
    for (const [rel, bytes] of seeded) {
      assert.ok(now.has(rel), `${rel} is gone`);
      if (rel === ".claude.json") continue;
      assert.equal(now.get(rel).toString(), bytes.toString(), `${rel} is not as the user had it`);
    }
    // Claude Code rewrote ~/.claude.json (formatting, key order of its own,
    // keys it added). Destroy must have taken out coffer's server and nothing
    // else: every key Claude Code added stays, with its value.
    const before = JSON.parse(claudeJsonBeforeDestroy);
    const text = sb.read(".claude.json");
    const expected = structuredClone(before);
    delete expected.mcpServers[PROBE];
    assert.deepEqual(JSON.parse(text), expected);
    assert.deepEqual(Object.keys(JSON.parse(text)), Object.keys(expected), "key order changed");
    // When Claude Code left the file in its own layout, the removal keeps it.
    if (claudeJsonBeforeDestroy === JSON.stringify(before, null, 2))
      assert.equal(text, JSON.stringify(expected, null, 2), "the removal reformatted Claude Code's layout");
  });

  it("every file coffer created is gone", () => {
    const now = sb.snapshot();
    assert.deepEqual(installed.filter((rel) => now.has(rel)), []);
  });
});
