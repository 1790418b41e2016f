// coffer's own hook program, run by the agents themselves. The other tests
// install the recording stand-in (fixtures/record-hook.mjs); here the
// desired file's `hook.command` is the coffer binary under test, so what
// Claude Code, Codex and Gemini CLI run at SessionStart is `coffer hook`,
// reading the settings `coffer apply` recorded, and what they send the
// loopback model shows whether its envelope is the one each agent reads.
//
// One throwaway HOME, in order: install; run the installed command by hand
// (exit status, stdout bytes, stderr) and let each agent run it in a turn;
// take the context file away (the hook must fail silently, the turns must
// still complete); put it back and destroy; run the turns again.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { randomUUID } from "node:crypto";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { COFFER_BIN, Sandbox, ok, show } from "./lib/sandbox.mjs";
import { startMockModel } from "./lib/mock-model.mjs";
import * as A from "./lib/agents.mjs";

const sb = new Sandbox("hook");
const desired = join(sb.root, "coffer.yaml");
const source = join(sb.root, "rules/house.md");
const MARKER = `coffer-hook-marker-${randomUUID()}`;
const NOTE = `${MARKER}: run the tests with pnpm.`;
const HOOK_STATE = ".local/state/coffer/hooks";

// What coffer writes into each agent's file: the real binary, then `hook`.
const DIALECTS = { "claude-code": "claude", codex: "codex", "gemini-cli": "gemini" };
const installed = (dialect) => `${COFFER_BIN} hook --dialect ${dialect} --event SessionStart`;
// What it must print at SessionStart with the note as context (docs/hook.md,
// "Envelopes"): plain text for Claude Code, hookSpecificOutput for the others.
const hookSpecific = (c) => JSON.stringify({ hookSpecificOutput: { hookEventName: "SessionStart", additionalContext: c } }) + "\n";
const ENVELOPE = { claude: `${NOTE}\n`, codex: hookSpecific(`${NOTE}\n`), gemini: hookSpecific(`${NOTE}\n`) };

// The user's own Gemini settings: API-key auth (the only way Gemini CLI
// 0.61.0 takes GOOGLE_GEMINI_BASE_URL, so a turn reaches the loopback model)
// and no usage statistics. They must come back byte for byte.
const GEMINI_SETTINGS = ".gemini/settings.json";
const geminiUser = `{\n  "security": { "auth": { "selectedType": "gemini-api-key" } },\n  "privacy": { "usageStatisticsEnabled": false }\n}\n`;

let model;

// Every string anywhere in the bodies of these requests to the model.
function sentTexts(requests) {
  const out = [];
  const walk = (v) => {
    if (typeof v === "string") out.push(v);
    else if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === "object") Object.values(v).forEach(walk);
  };
  requests.forEach((r) => walk(r.body));
  return out;
}
const reached = (requests, text) => sentTexts(requests).some((t) => t.includes(text));
// Gemini's user turns (its system instruction explains `<hook_context>` tags
// whether or not a hook gave any: only the contents show a hook's context).
const geminiContents = (requests) =>
  requests
    .flatMap((q) => q.body?.contents ?? [])
    .flatMap((c) => c.parts ?? [])
    .map((p) => p.text)
    .filter((t) => typeof t === "string");

// The installed command, found where the agent reads it.
function commandIn(rel, dialect) {
  const v = JSON.parse(sb.read(rel));
  const commands = (v.hooks?.SessionStart ?? []).flatMap((g) => g.hooks ?? []).map((h) => h.command);
  return commands.find((c) => c.includes(`--dialect ${dialect} `));
}
const FILES = { claude: ".claude/settings.json", codex: ".codex/hooks.json", gemini: GEMINI_SETTINGS };

// Runs the installed command the way the agents run it (through the shell,
// in the work folder, with the sandbox's environment and the agent's
// SessionStart payload on stdin), optionally with COFFER_HOOK_DEBUG.
const byHand = (dialect, debug = false) =>
  sb.run("env", [...(debug ? ["COFFER_HOOK_DEBUG=1"] : []), "sh", "-c", commandIn(FILES[dialect], dialect)], {
    input: JSON.stringify({ hook_event_name: "SessionStart", source: "startup", cwd: sb.work }),
    timeout: 10,
  });

// Codex's record of hook context in its session rollout: developer messages
// whose content_item_kinds is ["hooks.additional_context"].
const codexHookContext = (items) =>
  items
    .filter((i) => i.type === "response_item" && i.payload?.internal_chat_message_metadata_passthrough?.content_item_kinds?.includes("hooks.additional_context"))
    .flatMap((i) => i.payload.content.map((c) => c.text));

before(async () => {
  mkdirSync(join(sb.root, "rules"), { recursive: true });
  writeFileSync(source, `${NOTE}\n`);
  sb.write(GEMINI_SETTINGS, geminiUser);
  writeFileSync(
    desired,
    JSON.stringify(
      {
        version: 1,
        hook: { command: `${COFFER_BIN} hook` },
        context: { sources: [{ file: "rules/house.md" }] },
        agents: Object.fromEntries(Object.keys(DIALECTS).map((a) => [a, { context: { events: ["session-start"] } }])),
      },
      null,
      2,
    ) + "\n",
  );
  model = await startMockModel();
});
after(async () => {
  await model?.close();
  sb.cleanup();
});

describe("install", () => {
  it("coffer apply installs `<coffer binary> hook` as each agent's SessionStart hook and records the source for the hook", async () => {
    ok(await sb.coffer(["apply", "-f", desired, "--auto-approve"]));
    for (const [dialect, rel] of Object.entries(FILES)) {
      assert.equal(commandIn(rel, dialect), installed(dialect), `${rel}:\n${sb.read(rel)}`);
      const settings = JSON.parse(sb.read(`${HOOK_STATE}/${dialect}.json`));
      assert.deepEqual(settings.sources.map((s) => [s.kind, s.path]), [["file", source]]);
    }
  });
});

describe("the installed command, run by hand as the agents run it", () => {
  for (const dialect of Object.values(DIALECTS))
    it(`${dialect}: exits 0, prints the note in its envelope, nothing on stderr; COFFER_HOOK_DEBUG names the source, not its text`, async () => {
      const r = await byHand(dialect);
      assert.equal(r.status, 0, show(r));
      assert.equal(r.stdout, ENVELOPE[dialect]);
      assert.equal(r.stderr, "");
      const d = await byHand(dialect, true);
      assert.equal(d.status, 0, show(d));
      assert.equal(d.stdout, ENVELOPE[dialect]);
      assert.match(d.stderr, new RegExp(`^coffer hook: ${dialect} file-1: ok, ${Buffer.byteLength(NOTE) + 1} bytes, full, [\\d.]+ ms\\n$`));
      assert.ok(!d.stderr.includes(MARKER), "the debug line leaked the context");
    });
});

describe("each agent runs it at SessionStart, and the model gets the note", () => {
  it("Claude Code: the transcript records the hook's exit 0, plain stdout and empty stderr; the request carries it as SessionStart context", async () => {
    const t = await A.claudeTurn(sb, model);
    const ours = t.hooks.filter((h) => h.command === installed("claude"));
    assert.equal(ours.length, 1, JSON.stringify(t.hooks, null, 1));
    assert.equal(ours[0].type, "hook_success");
    assert.equal(ours[0].hookEvent, "SessionStart");
    assert.equal(ours[0].exitCode, 0);
    assert.equal(ours[0].stdout, ENVELOPE.claude);
    assert.equal(ours[0].stderr, "");
    assert.ok(reached(t.requests, `SessionStart:startup hook success: ${NOTE}`), `the note did not reach the model\n${t.sent.slice(0, 3000)}`);
  });

  it("Codex: `hook: SessionStart Completed`; the rollout and the request carry the note as a developer message of hook context", async () => {
    const x = await A.codexExec(sb, { bypassTrust: true, mock: model, json: false });
    assert.match(x.run.stderr, /^hook: SessionStart Completed$/m, show(x.run));
    assert.deepEqual(codexHookContext(x.items), [`${NOTE}\n`]);
    const developer = x.requests
      .flatMap((q) => q.body?.input ?? [])
      .filter((i) => i.role === "developer")
      .flatMap((i) => (i.content ?? []).map((c) => c.text));
    assert.ok(developer.includes(`${NOTE}\n`), `no developer message with the note:\n${JSON.stringify(developer.map((t) => t.slice(0, 80)))}`);
  });

  it("Gemini CLI: its debug log says the hook executed successfully; the request carries the note as <hook_context> before the prompt", async () => {
    const g = await A.geminiTurn(sb, model, { debug: true });
    assert.ok(g.run.stderr.includes(`Expanding hook command: ${installed("gemini")}`), show(g.run));
    assert.match(g.run.stderr, /Hook execution for SessionStart: 1 hooks executed successfully/, show(g.run));
    assert.ok(geminiContents(g.requests).includes(`<hook_context>${NOTE}\n</hook_context>\n\nhi`), `the note did not reach the model\n${JSON.stringify(geminiContents(g.requests))}`);
  });
});

describe("the context file is gone: the hook fails silently and every turn completes", () => {
  const away = `${source}.away`;
  before(() => renameSync(source, away));
  after(() => renameSync(away, source));

  for (const dialect of Object.values(DIALECTS))
    it(`${dialect}: by hand, exit 0, nothing on stdout or stderr; COFFER_HOOK_DEBUG says not-found`, async () => {
      const r = await byHand(dialect);
      assert.deepEqual([r.status, r.stdout, r.stderr], [0, "", ""], show(r));
      const d = await byHand(dialect, true);
      assert.equal(d.status, 0, show(d));
      assert.equal(d.stdout, "");
      assert.match(d.stderr, new RegExp(`^coffer hook: ${dialect} file-1: not-found, 0 bytes, none, [\\d.]+ ms\\n$`));
    });

  it("Claude Code: the turn completes; the hook ran (exit 0, no output) and nothing of coffer's reached the model", async () => {
    const t = await A.claudeTurn(sb, model, "hi", { debug: true });
    // Its debug log has the exit status of every hook run; its transcript
    // records a run only when the hook printed something, on stdout or
    // stderr (a hook printing only to stderr is recorded as hook_success
    // with that stderr: seen with 2.1.332). So: exit 0, and silent.
    assert.ok(t.debugLog.includes(`[${installed("claude")}] finished with status 0`), t.debugLog.split("\n").filter((l) => /Hook/i.test(l)).join("\n"));
    assert.deepEqual(t.hooks.filter((h) => h.command === installed("claude")), [], JSON.stringify(t.hooks, null, 1));
    assert.ok(!t.sent.includes(MARKER));
    assert.ok(!reached(t.requests, "SessionStart:startup hook"), "Claude Code put a SessionStart hook message in front of the model");
  });

  it("Codex: the turn completes; `hook: SessionStart Completed`; no hook context in the rollout or the request", async () => {
    const x = await A.codexExec(sb, { bypassTrust: true, mock: model, json: false });
    assert.match(x.run.stderr, /^hook: SessionStart Completed$/m, show(x.run));
    assert.deepEqual(codexHookContext(x.items), []);
    assert.ok(!x.sent.includes(MARKER));
  });

  it("Gemini CLI: the turn completes; the hook executed successfully; no <hook_context> reached the model", async () => {
    const g = await A.geminiTurn(sb, model, { debug: true });
    assert.match(g.run.stderr, /Hook execution for SessionStart: 1 hooks executed successfully/, show(g.run));
    assert.ok(!g.sent.includes(MARKER));
    assert.deepEqual(geminiContents(g.requests).filter((t) => t.includes("<hook_context>")), [], "Gemini put hook context in front of the model");
    assert.ok(geminiContents(g.requests).includes("hi"), "the prompt went out changed");
  });
});

describe("after coffer destroy, the note no longer reaches any model", () => {
  it("coffer destroy takes out the hooks and the hook settings; the user's Gemini settings are back byte for byte", async () => {
    ok(await sb.coffer(["destroy", "-f", desired, "--auto-approve"]));
    assert.ok(!sb.exists(FILES.claude) && !sb.exists(FILES.codex), "a hooks file coffer created is still there");
    assert.equal(sb.read(GEMINI_SETTINGS), geminiUser);
    for (const dialect of Object.values(DIALECTS)) assert.ok(!sb.exists(`${HOOK_STATE}/${dialect}.json`), `${dialect}'s hook settings are still there`);
  });

  it("Claude Code: no coffer hook runs; the note is not sent", async () => {
    const t = await A.claudeTurn(sb, model);
    assert.deepEqual(t.hooks.filter((h) => h.command?.startsWith(COFFER_BIN)), []);
    assert.ok(!t.sent.includes(MARKER));
  });

  it("Codex: no hook runs; the note is not sent", async () => {
    const x = await A.codexExec(sb, { bypassTrust: true, mock: model, json: false });
    assert.doesNotMatch(x.run.stderr, /^hook: /m, show(x.run));
    assert.ok(!x.sent.includes(MARKER));
  });

  it("Gemini CLI: no hook runs; the note is not sent", async () => {
    const g = await A.geminiTurn(sb, model, { debug: true });
    assert.doesNotMatch(g.run.stderr, /Hook execution for SessionStart/, show(g.run));
    assert.ok(!g.sent.includes(MARKER));
  });
});
