#!/usr/bin/env python3
"""Fixtures for bench/compare.sh: throwaway homes and large files.

Every fixture is generated (deterministically) rather than checked in, so
the repository stays small and the sizes can be changed in one place.

  fixtures.py home DIR            a home + project with the five agents' files
                                  as a user already has them (see HOME_FILES)
  fixtures.py claude FILE N       a Claude settings.json with N foreign hook
                                  entries (about 210 bytes each)
  fixtures.py agents-md FILE BYTES  an AGENTS.md of about BYTES bytes
  fixtures.py desired FILE [--instructions]  the five-agent desired file
"""

import json
import os
import sys

# The MCP server every tool is asked to register, and the instructions text.
MCP_NAME = "memory"
MCP_COMMAND = "npx"
MCP_ARGS = ["-y", "@modelcontextprotocol/server-memory"]
INSTRUCTIONS = "Run the tests before every commit.\n"
AGENTS = ["claude-code", "codex", "cursor", "opencode", "gemini-cli"]

# Files a user already has before any tool runs: the same for every tool
# (DESIGN's anchors fixture: user text, a 4-space settings file with its own
# MCP server, a commented TOML, a JSONC with a comment, a user hook).
HOME_FILES = {
    "CLAUDE.md": "# Notes\n\nThe user's own instructions.\n",
    "AGENTS.md": "# Project\n\nThe user's own agent notes.\n",
    ".claude/settings.json": json.dumps(
        {
            "hooks": {
                "PreToolUse": [
                    {
                        "matcher": "Bash",
                        "hooks": [{"type": "command", "command": "~/bin/my-guard.sh"}],
                    }
                ]
            }
        },
        indent=2,
    )
    + "\n",
    ".gemini/settings.json": json.dumps(
        {"theme": "Default", "mcpServers": {"old": {"command": "old-server"}}}, indent=4
    )
    + "\n",
    ".codex/config.toml": "# My Codex settings\nmodel = \"gpt-5\"\n\n"
    "# a server of my own\n[mcp_servers.mine]\ncommand = \"my-server\"\n",
    ".config/opencode/opencode.jsonc": "{\n  // my opencode settings\n"
    "  \"$schema\": \"https://opencode.ai/config.json\"\n}\n",
}


def write(path, text):
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def home(root):
    for rel, text in HOME_FILES.items():
        write(os.path.join(root, rel), text)


def desired(path, instructions, scope="user"):
    lines = ["version: 1"] + ([f"scope: {scope}"] if scope != "user" else []) + ["agents:"]
    for a in AGENTS:
        lines.append(f"  {a}:")
        lines.append("    context: {}")
        lines.append("    mcp:")
        args = ", ".join(json.dumps(x) for x in MCP_ARGS)
        lines.append(f"      {MCP_NAME}: {{ command: {MCP_COMMAND}, args: [{args}] }}")
        # Cursor keeps user rules in its settings, not a file: at user scope
        # it gets no instructions (coffer refuses them, citing why).
        if instructions and not (a == "cursor" and scope == "user"):
            lines.append(f"    instructions: {{ text: {json.dumps(INSTRUCTIONS)} }}")
    write(path, "\n".join(lines) + "\n")


def claude(path, n):
    """N foreign hook entries spread over the events, in matcher groups of
    ten, indented as Claude Code writes them (2 spaces)."""
    events = ["PreToolUse", "PostToolUse", "UserPromptSubmit", "Stop", "SessionStart"]
    hooks = {e: [] for e in events}
    for i in range(n):
        e = events[i % len(events)]
        groups = hooks[e]
        if not groups or len(groups[-1]["hooks"]) == 10:
            groups.append({"matcher": f"Tool{len(groups)}", "hooks": []})
        groups[-1]["hooks"].append(
            {
                "type": "command",
                "command": f"/usr/local/bin/other-tool-{i} --check --quiet --path \"$CLAUDE_PROJECT_DIR\"",
                "timeout": 30,
            }
        )
    doc = {"model": "opus", "permissions": {"allow": ["Bash(ls:*)"]}, "hooks": hooks}
    write(path, json.dumps(doc, indent=2) + "\n")


def agents_md(path, size):
    para = (
        "## Section {i}\n\n"
        "Keep functions small and name them for what they do. Prefer plain data "
        "over clever types; write the test first when the behaviour is subtle.\n\n"
    )
    parts, total, i = [], 0, 0
    while total < size:
        p = para.format(i=i)
        parts.append(p)
        total += len(p)
        i += 1
    write(path, "# Project rules\n\n" + "".join(parts))


def main(argv):
    cmd = argv[1]
    if cmd == "home":
        home(argv[2])
    elif cmd == "claude":
        claude(argv[2], int(argv[3]))
    elif cmd == "agents-md":
        agents_md(argv[2], int(argv[3]))
    elif cmd == "desired":
        desired(argv[2], "--instructions" in argv[3:])
    else:
        sys.exit(__doc__)


if __name__ == "__main__":
    main(sys.argv)
