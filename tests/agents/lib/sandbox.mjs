// A throwaway HOME for running agent CLIs and coffer, and a bounded way to
// run them.
//
// Every sandbox is a fresh folder with home/ (HOME, with every XDG_* folder
// inside it), work/ (the current folder, outside the home so no instructions
// file of the home is mistaken for a project's) and tmp/. The environment is
// built from nothing: no variable of the caller's reaches an agent, so no
// credential can either. Every command has a time limit and is killed with
// its whole process group when it runs over or once the test has seen what
// it waits for.
import { spawn } from "node:child_process";
import { appendFileSync, existsSync, lstatSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const HERE = resolve(dirname(fileURLToPath(import.meta.url)), "..");
export const FIXTURES = join(HERE, "fixtures");
export const RECORD_HOOK = join(FIXTURES, "record-hook.mjs");
export const MCP_PROBE = join(FIXTURES, "mcp-probe.mjs");

const need = (name) => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is not set: run the suite with tests/agents/run.sh`);
  return v;
};
export const AGENTS_BIN = need("COFFER_AGENTS_BIN");
export const COFFER_BIN = need("COFFER_BIN");
/** Seconds an agent command may take before it is killed and the test fails. */
export const AGENT_TIMEOUT = Number(process.env.COFFER_AGENTS_TIMEOUT || 90);
const KEEP = process.env.COFFER_AGENTS_KEEP === "1";

export class Sandbox {
  constructor(name) {
    this.root = mkdtempSync(join(process.env.COFFER_AGENTS_TMP || tmpdir(), `coffer-agents-${name}-`));
    this.home = join(this.root, "home");
    this.work = join(this.root, "work");
    this.tmp = join(this.root, "tmp");
    for (const d of [this.home, this.work, this.tmp]) mkdirSync(d, { recursive: true });
    this.hookLog = join(this.root, "hook-runs.jsonl");
    this.commandLog = join(this.root, "commands.log");
  }

  /** The whole environment an agent sees. */
  env(extra = {}) {
    const h = this.home;
    return {
      PATH: `${AGENTS_BIN}:${dirname(COFFER_BIN)}:/usr/local/bin:/usr/bin:/bin`,
      HOME: h,
      XDG_CONFIG_HOME: join(h, ".config"),
      XDG_DATA_HOME: join(h, ".local/share"),
      XDG_STATE_HOME: join(h, ".local/state"),
      XDG_CACHE_HOME: join(h, ".cache"),
      TMPDIR: this.tmp,
      LANG: "C.UTF-8",
      TERM: "dumb",
      NO_COLOR: "1",
      COFFER_PROBE_LOG: this.hookLog,
      // Nothing optional leaves the machine: no update checks, telemetry,
      // model catalogues or downloads. The suite must not depend on them.
      DISABLE_AUTOUPDATER: "1",
      DISABLE_TELEMETRY: "1",
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      // opencode installs its plugin SDK with npm beside a plugins folder;
      // offline, that fails with a warning and the plugin still loads.
      npm_config_offline: "true",
      npm_config_update_notifier: "false",
      ...extra,
    };
  }

  path(rel) {
    return join(this.home, rel);
  }
  write(rel, text) {
    const p = this.path(rel);
    mkdirSync(dirname(p), { recursive: true });
    writeFileSync(p, text);
    return p;
  }
  read(rel) {
    return readFileSync(this.path(rel), "utf8");
  }
  exists(rel) {
    return existsSync(this.path(rel));
  }
  remove(rel) {
    rmSync(this.path(rel), { force: true });
  }

  /** Every file under the home (relative path → bytes), symlinks as their target. */
  snapshot({ skip = [] } = {}) {
    const out = new Map();
    const walk = (dir) => {
      for (const name of readdirSync(dir)) {
        const p = join(dir, name);
        const rel = relative(this.home, p);
        if (skip.some((s) => rel === s || rel.startsWith(s + "/"))) continue;
        const st = lstatSync(p);
        if (st.isSymbolicLink()) out.set(rel, Buffer.from(`symlink -> ${readlinkSync(p)}`));
        else if (st.isDirectory()) walk(p);
        else out.set(rel, readFileSync(p));
      }
    };
    walk(this.home);
    return out;
  }

  /** The hook runs recorded so far, each {argv, stdin, cwd}. */
  hookRuns() {
    if (!existsSync(this.hookLog)) return [];
    return readFileSync(this.hookLog, "utf8").trim().split("\n").filter(Boolean).map((l) => JSON.parse(l));
  }

  /**
   * Runs a command in work/ with this sandbox's environment and a time limit.
   * `input` is written to its stdin and closed; `stdinOpen` is written and
   * left open (for servers that stop at end of input); neither: no stdin.
   * `until(out)` (out = {stdout, stderr}) ends the run early, successfully,
   * once it returns true: for agents that go on retrying a model they cannot
   * reach after doing what the test looks for. Resolves to
   * {status, signal, stdout, stderr, timedOut, matched, command}.
   */
  run(cmd, args = [], { env = {}, input, stdinOpen, timeout = AGENT_TIMEOUT, until, cwd = this.work } = {}) {
    const command = [cmd, ...args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
    return new Promise((resolveRun) => {
      const child = spawn(cmd, args, {
        cwd,
        env: this.env(env),
        detached: true, // its own process group, so it can be ended whole
        stdio: [input === undefined && stdinOpen === undefined ? "ignore" : "pipe", "pipe", "pipe"],
      });
      const out = { stdout: "", stderr: "" };
      let timedOut = false;
      let matched = false;
      let settled = false;
      const killGroup = (sig) => {
        try {
          process.kill(-child.pid, sig);
        } catch {}
      };
      const check = () => {
        if (!matched && until && until(out)) {
          matched = true;
          killGroup("SIGTERM");
          setTimeout(() => killGroup("SIGKILL"), 2000).unref();
        }
      };
      const poll = until ? setInterval(check, 200) : null;
      const timer = setTimeout(() => {
        timedOut = true;
        killGroup("SIGKILL");
      }, timeout * 1000);
      child.stdout.on("data", (d) => {
        out.stdout += d;
        check();
      });
      child.stderr.on("data", (d) => {
        out.stderr += d;
        check();
      });
      if (input !== undefined) {
        child.stdin.on("error", () => {});
        child.stdin.end(input);
      } else if (stdinOpen !== undefined) {
        // written, but left open: a server that ends at EOF stays up to answer
        child.stdin.on("error", () => {});
        child.stdin.write(stdinOpen);
      }
      const done = (status, signal, error) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (poll) clearInterval(poll);
        if (!matched && until && until(out)) matched = true;
        killGroup("SIGKILL"); // whatever it left behind (MCP servers, helpers)
        const r = { command, status, signal, timedOut, matched, error, ...out };
        appendFileSync(
          this.commandLog,
          `$ ${command}\n[exit ${status} signal ${signal}${timedOut ? " TIMED OUT" : ""}${matched ? " (stopped: seen)" : ""}]\n--- stdout\n${out.stdout}\n--- stderr\n${out.stderr}\n\n`,
        );
        resolveRun(r);
      };
      child.on("error", (e) => done(null, null, e));
      child.on("close", (status, signal) => done(status, signal));
    });
  }

  /** Runs coffer against this home. */
  coffer(args, opts) {
    return this.run(COFFER_BIN, args, opts);
  }

  cleanup() {
    if (!KEEP) rmSync(this.root, { recursive: true, force: true });
  }
}

/** A readable account of a run for assertion messages. */
export function show(r, max = 2500) {
  const tail = (s) => (s.length > max ? "…" + s.slice(-max) : s);
  return `$ ${r.command}\nexit ${r.status}${r.signal ? ` (signal ${r.signal})` : ""}${r.timedOut ? " — TIMED OUT" : ""}${r.error ? ` — ${r.error.message}` : ""}\n--- stdout\n${tail(r.stdout)}\n--- stderr\n${tail(r.stderr)}`;
}

/** Fails unless the command exited 0. */
export function ok(r) {
  if (r.status !== 0 || r.timedOut) throw new Error(`command failed\n${show(r)}`);
  return r;
}
