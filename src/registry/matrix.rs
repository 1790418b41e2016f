//! The capability matrix, rendered from the registry so that it cannot
//! drift from what coffer does: for `coffer agents` and docs/matrix.md.

use serde_json::{Value, json};

use super::{Registry, Scope};

const SCOPES: [(Scope, &str); 2] = [(Scope::User, "user"), (Scope::Project, "project")];

/// Every agent, every facet, both scopes: supported with mechanism and
/// path, or not, with the evidence.
pub fn json(registry: &Registry) -> Value {
    let agents: Vec<Value> = registry
        .agents()
        .iter()
        .map(|a| {
            let facets: serde_json::Map<String, Value> = a
                .cells()
                .into_iter()
                .map(|(facet, cell)| {
                    let scopes: serde_json::Map<String, Value> = SCOPES
                        .iter()
                        .map(|(scope, name)| (name.to_string(), json!(cell.at(*scope))))
                        .collect();
                    (facet.to_owned(), Value::Object(scopes))
                })
                .collect();
            json!({ "id": a.id, "name": a.name, "facets": facets })
        })
        .collect();
    json!({ "format_version": 1, "agents": agents })
}

/// A terminal table: one row per agent, one column per facet.
pub fn text(registry: &Registry, scope: Scope) -> String {
    let mut rows = vec![header()];
    for a in registry.agents() {
        let mut row = vec![a.id.clone()];
        row.extend(
            a.cells()
                .into_iter()
                .map(|(_, c)| c.at(scope).mechanism.to_owned()),
        );
        rows.push(row);
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|i| rows.iter().map(|r| r[i].chars().count()).max().unwrap_or(0))
        .collect();
    let mut out = String::new();
    for row in rows {
        let cells: Vec<String> = row
            .iter()
            .zip(&widths)
            .map(|(c, w)| format!("{c:w$}"))
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out
}

fn header() -> Vec<String> {
    [
        "agent",
        "context",
        "mcp",
        "instructions",
        "skills",
        "provider",
    ]
    .map(str::to_owned)
    .to_vec()
}

/// The Markdown page docs/matrix.md.
pub fn markdown(registry: &Registry) -> String {
    let mut out = String::from(
        "# Capability matrix\n\n<!-- Generated from src/registry/agents.yaml by `coffer agents --format markdown`; \
         a test fails when this file is stale. -->\n\nEach cell: the mechanism and file at that scope, or why the agent \
         cannot take the facet. `coffer agents --format json` gives the same as data.\n",
    );
    for (scope, name) in SCOPES {
        out.push_str(&format!("\n## {} scope\n\n", capitalise(name)));
        out.push_str("| agent | context | mcp | instructions | skills | provider |\n|---|---|---|---|---|---|\n");
        for a in registry.agents() {
            let cells: Vec<String> = a
                .cells()
                .into_iter()
                .map(|(_, c)| {
                    let c = c.at(scope);
                    match c.path {
                        Some(p) => format!("{} `{}`", c.mechanism, p),
                        None => format!("— ({})", c.evidence.replace('|', "\\|")),
                    }
                })
                .collect();
            out.push_str(&format!("| {} | {} |\n", a.id, cells.join(" | ")));
        }
    }
    out.push_str("\n## Evidence\n\n");
    for a in registry.agents() {
        out.push_str(&format!("- **{}** ({})\n", a.name, a.id));
        for (facet, cell) in a.cells() {
            out.push_str(&format!("  - {facet}: {}\n", cell.at(Scope::User).evidence));
        }
    }
    out
}

fn capitalise(s: &str) -> String {
    let mut c = s.chars();
    c.next()
        .map(|f| f.to_uppercase().chain(c).collect())
        .unwrap_or_default()
}
