//! The files coffer drops whole (plugins), compiled in. A template is one
//! file, or a folder of files; the placeholder `__COFFER_HOOK_ARGV__` is
//! replaced by the hook program's words as a JSON array.

/// One file of a template: its path below the plugin folder (empty for a
/// single-file template) and its text.
pub type TemplateFile = (&'static str, &'static str);

pub const HOOK_ARGV: &str = "__COFFER_HOOK_ARGV__";

/// The files of the named template.
pub fn template(name: &str) -> Option<&'static [TemplateFile]> {
    const OPENCODE: &[TemplateFile] = &[("", include_str!("templates/opencode-plugin.js"))];
    const KILO: &[TemplateFile] = &[("", include_str!("templates/kilo-plugin.js"))];
    const OPENCLAW: &[TemplateFile] = &[
        (
            "index.ts",
            include_str!("templates/openclaw-plugin/index.ts"),
        ),
        (
            "openclaw.plugin.json",
            include_str!("templates/openclaw-plugin/openclaw.plugin.json"),
        ),
    ];
    match name {
        "opencode-plugin.js" => Some(OPENCODE),
        "kilo-plugin.js" => Some(KILO),
        "openclaw-plugin" => Some(OPENCLAW),
        _ => None,
    }
}
