// Managed by coffer: coffer created this plugin and will remove it; edit your desired state, not this file.
// It runs coffer's hook program once per session and appends what it prints to the system
// prompt of every turn (before_prompt_build). It never throws into OpenClaw.
import { execFile } from "node:child_process";

const HOOK: string[] = __COFFER_HOOK_ARGV__; // the hook program's words, e.g. ["coffer", "hook"]
const TIMEOUT_MS = 5000;

// What the hook program prints for `event`, or "" when it fails, times out or prints nothing.
function runHook(event: string): Promise<string> {
  return new Promise((resolve) => {
    try {
      const [program, ...args] = HOOK;
      const child = execFile(
        program,
        [...args, "--dialect", "openclaw", "--event", event],
        { timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true },
        (error, stdout) => resolve(error ? "" : String(stdout).trim()),
      );
      child.stdin?.end();
    } catch {
      resolve("");
    }
  });
}

// One run per session, failures included.
const bySession = new Map<string, Promise<string>>();

export default {
  id: "coffer",
  name: "coffer",
  description: "Adds the context coffer gathers to the system prompt (managed by coffer).",
  register(api: any) {
    api.on(
      "before_prompt_build",
      async (_event: unknown, ctx: any) => {
        try {
          const key = String(ctx?.sessionKey ?? ctx?.sessionId ?? "");
          if (!bySession.has(key)) bySession.set(key, runHook("session_start"));
          const text = await bySession.get(key);
          return text ? { appendSystemContext: text } : undefined;
        } catch {
          return undefined; // never disturb the agent's turn
        }
      },
      { timeoutMs: TIMEOUT_MS + 1000 },
    );
  },
};
