// A model endpoint on loopback, so that an agent can finish a whole turn
// with no account and no network: it fires every hook of a turn (tool use,
// Stop, SessionEnd), and every request it sends is kept for the assertions,
// which is exactly what the model would have been shown.
//
// - Anthropic Messages API (Claude Code, via ANTHROPIC_BASE_URL): the first
//   turn asks for one tool call, Read of `readFile`; once the tool result
//   comes back it answers "ok".
// - OpenAI Responses API (Codex, via a model provider): answers "ok".
// - Gemini API (Gemini CLI, via GOOGLE_GEMINI_BASE_URL with API-key auth):
//   generateContent / streamGenerateContent answer "ok".
//
// The key the agents are given is the string "not-a-key": it opens nothing.
import { createServer } from "node:http";

export async function startMockModel({ readFile } = {}) {
  const requests = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      let json = null;
      try {
        json = JSON.parse(body);
      } catch {}
      requests.push({ method: req.method, url: req.url, body: json ?? body });
      if (req.method === "POST" && req.url.startsWith("/v1/messages")) return anthropic(json, res, readFile);
      if (req.method === "POST" && req.url.startsWith("/v1/responses")) return responses(res);
      if (req.method === "POST" && /:streamGenerateContent\b/.test(req.url)) return gemini(res, true);
      if (req.method === "POST" && /:generateContent\b/.test(req.url)) return gemini(res, false);
      res.writeHead(404, { "content-type": "application/json" });
      res.end("{}");
    });
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  const base = `http://127.0.0.1:${server.address().port}`;
  return {
    requests,
    base,
    /** Environment for Claude Code. */
    claudeEnv: { ANTHROPIC_BASE_URL: base, ANTHROPIC_API_KEY: "not-a-key" },
    /** `codex exec` arguments for a provider that points here. */
    codexArgs: [
      "-c",
      'model_provider="coffer-mock"',
      "-c",
      `model_providers.coffer-mock={name="coffer-mock",base_url="${base}/v1",wire_api="responses",env_key="CODEX_MOCK_KEY"}`,
    ],
    codexEnv: { CODEX_MOCK_KEY: "not-a-key" },
    /** Environment for Gemini CLI (its API-key auth, pointed here). */
    geminiEnv: { GOOGLE_GEMINI_BASE_URL: base, GEMINI_API_KEY: "not-a-key" },
    /** Everything the agents sent since `from`, as one string. */
    sentSince: (from) => requests.slice(from).map((r) => JSON.stringify(r.body)).join("\n"),
    close: () => new Promise((ok) => server.close(ok)),
  };
}

function sse(res, events) {
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  for (const e of events) res.write(`event: ${e.type}\ndata: ${JSON.stringify(e)}\n\n`);
  res.end();
}

function anthropic(body, res, readFile) {
  const usage = { input_tokens: 1, output_tokens: 1 };
  const text = { type: "message", id: "msg_text", role: "assistant", model: body?.model, content: [{ type: "text", text: "ok" }], stop_reason: "end_turn", stop_sequence: null, usage };
  if (!body?.stream) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(text));
  }
  const wantsTool = readFile && !JSON.stringify(body.messages ?? []).includes("tool_result");
  const start = { type: "message_start", message: { ...text, content: [], stop_reason: null, usage: { input_tokens: 1, output_tokens: 0 } } };
  const block = wantsTool
    ? [
        { type: "content_block_start", index: 0, content_block: { type: "tool_use", id: "toolu_coffer_1", name: "Read", input: {} } },
        { type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: JSON.stringify({ file_path: readFile }) } },
      ]
    : [
        { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
        { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "ok" } },
      ];
  sse(res, [
    start,
    ...block,
    { type: "content_block_stop", index: 0 },
    { type: "message_delta", delta: { stop_reason: wantsTool ? "tool_use" : "end_turn", stop_sequence: null }, usage: { output_tokens: 1 } },
    { type: "message_stop" },
  ]);
}

function responses(res) {
  const item = { type: "message", id: "msg_ok", role: "assistant", status: "completed", content: [{ type: "output_text", text: "ok", annotations: [] }] };
  const usage = { input_tokens: 1, output_tokens: 1, total_tokens: 2, input_tokens_details: { cached_tokens: 0 }, output_tokens_details: { reasoning_tokens: 0 } };
  sse(res, [
    { type: "response.created", response: { id: "resp_ok", status: "in_progress", output: [] } },
    { type: "response.output_item.done", output_index: 0, item },
    { type: "response.completed", response: { id: "resp_ok", status: "completed", output: [item], usage } },
  ]);
}

function gemini(res, stream) {
  const answer = { candidates: [{ content: { parts: [{ text: "ok" }], role: "model" }, finishReason: "STOP", index: 0 }], usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 } };
  if (!stream) {
    res.writeHead(200, { "content-type": "application/json" });
    return res.end(JSON.stringify(answer));
  }
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
  res.end(`data: ${JSON.stringify(answer)}\r\n\r\n`);
}
