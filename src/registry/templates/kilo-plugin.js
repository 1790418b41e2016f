// Managed by coffer: coffer created this file and will remove it; edit your desired state, not this file.
// Kilo loads every plugin in this folder. This one runs coffer's hook program once per
// session and adds what it prints to the system prompt. It never throws into Kilo.
import { execFile } from "node:child_process"

const HOOK = __COFFER_HOOK_ARGV__ // the hook program's words, e.g. ["coffer", "hook"]
const TIMEOUT_MS = 5000

// What the hook program prints for `event`, or "" when it fails, times out or prints nothing.
function runHook(event) {
  return new Promise((resolve) => {
    try {
      const [program, ...args] = HOOK
      const child = execFile(
        program,
        [...args, "--dialect", "kilo", "--event", event],
        { timeout: TIMEOUT_MS, maxBuffer: 1024 * 1024, windowsHide: true },
        (error, stdout) => resolve(error ? "" : String(stdout).trim()),
      )
      child.stdin?.end()
    } catch {
      resolve("")
    }
  })
}

const CofferContext = async () => {
  // The system prompt is rebuilt for every model call: run the hook once per session
  // (failures included, so a broken source costs one timeout, not one per call).
  const bySession = new Map()
  return {
    "experimental.chat.system.transform": async (input, output) => {
      try {
        const key = input?.sessionID ?? ""
        if (!bySession.has(key)) bySession.set(key, runHook("session.created"))
        const text = await bySession.get(key)
        if (text) output.system.push(text)
      } catch {
        // never disturb the agent's turn
      }
    },
  }
}

// Kilo loads a local plugin from its default export: a descriptor with an id.
export default { id: "coffer", server: CofferContext }
