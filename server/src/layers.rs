//! The server's layer order, checked on its own sources (docs/architecture.md, "Server
//! layers"): the bottom modules import no area, nothing imports `app`, and the areas import each
//! other in one direction only (no cycle between them, counting `tenant`'s entities one by one).

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The modules every area may use, which use no area in turn.
const BOTTOM: &[&str] = &[
    "calendar",
    "citus",
    "config",
    "db",
    "domain",
    "error",
    "extract",
    "i18n",
    "metrics",
    "migrate",
    "session",
    "state",
    "static_files",
    "telemetry",
    "throttle",
];

/// The one module on top, which assembles every area.
const TOP: &str = "app";

/// Areas whose submodules count as modules of their own in the order (an entity of `tenant`
/// may use another, or the area's shared helpers, but not the reverse as well).
const SPLIT: &[&str] = &["tenant"];

/// A module's path from the crate root (`tenant::users` for `src/tenant/users.rs`).
type ModPath = Vec<String>;

/// The module imports of the library, file by file.
struct Sources {
    files: BTreeMap<ModPath, String>,
}

impl Sources {
    fn read() -> Self {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
        let mut files = BTreeMap::new();
        let mut pending = vec![root.clone()];
        while let Some(dir) = pending.pop() {
            for entry in std::fs::read_dir(&dir).expect("source folder") {
                let path = entry.expect("source entry").path();
                if path.is_dir() {
                    pending.push(path);
                } else if path.extension().is_some_and(|e| e == "rs") {
                    if let Some(module) = module_of(&root, &path) {
                        files.insert(module, std::fs::read_to_string(&path).expect("source file"));
                    }
                }
            }
        }
        Sources { files }
    }

    fn is_module(&self, path: &[String]) -> bool {
        self.files.contains_key(path)
    }

    /// The longest prefix of `path` that is a module of its own file.
    fn resolve(&self, path: &[String]) -> Option<ModPath> {
        (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| self.is_module(p))
    }

    /// Every module of its own file that `module`'s code refers to.
    fn imports(&self, module: &ModPath, text: &str) -> BTreeSet<ModPath> {
        let code = strip_tests(&strip_comments(text));
        let mut found = BTreeSet::new();
        let mut aliases: BTreeMap<String, ModPath> = BTreeMap::new();
        for (start, path) in paths(&code) {
            let absolute = match path.first().map(String::as_str) {
                Some("crate") => path[1..].to_vec(),
                Some("super") => {
                    // `super` in `a/b.rs` and in `a/b/mod.rs` alike is `a`.
                    let supers = path.iter().take_while(|s| *s == "super").count();
                    let mut base = module[..module.len().saturating_sub(supers)].to_vec();
                    base.extend(path[supers..].iter().cloned());
                    base
                }
                _ => continue,
            };
            if let Some(target) = self.resolve(&absolute) {
                if absolute == target && is_use_item(&code, start) {
                    aliases.insert(target.last().cloned().unwrap_or_default(), target.clone());
                }
                found.insert(target);
            }
        }
        // `use crate::tenant;` then `tenant::users::insert_admin(..)`: the alias's submodules.
        for (_, path) in paths(&code) {
            if let Some(base) = path.first().and_then(|first| aliases.get(first)) {
                let mut absolute = base.clone();
                absolute.extend(path[1..].iter().cloned());
                if let Some(target) = self.resolve(&absolute) {
                    found.insert(target);
                }
            }
        }
        found.remove(module);
        found
    }
}

fn is_use_item(code: &str, start: usize) -> bool {
    let line_start = code[..start].rfind(['\n', ';', '{']).map_or(0, |i| i + 1);
    let head = code[line_start..start].trim_start();
    head.starts_with("use ") || head.starts_with("pub use ") || head.starts_with("pub(crate) use ")
}

fn module_of(root: &Path, path: &Path) -> Option<ModPath> {
    let relative: PathBuf = path.strip_prefix(root).ok()?.with_extension("");
    let mut parts: Vec<String> = relative.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    match parts.as_slice() {
        [only] if only == "lib" || only == "main" => return None,
        _ => {}
    }
    if parts.last().is_some_and(|p| p == "mod") {
        parts.pop();
    }
    Some(parts)
}

/// The text without `//` comments (doc comments included) and without string literals' contents
/// (a string may run over several lines).
fn strip_comments(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut in_string = false;
    for line in text.lines() {
        let mut escaped = false;
        let mut before = [' ', ' '];
        for c in line.chars() {
            if in_string {
                if escaped {
                    escaped = false;
                } else if c == '\\' {
                    escaped = true;
                } else if c == '"' {
                    in_string = false;
                    out.push('"');
                }
                before = [before[1], c];
                continue;
            }
            if c == '/' && before[1] == '/' {
                out.pop();
                break;
            }
            // A `"` that is a character literal (`'"'`, `'\"'`) opens no string.
            if c == '"' && before[1] != '\'' && before != ['\'', '\\'] {
                in_string = true;
            }
            out.push(c);
            before = [before[1], c];
        }
        out.push('\n');
    }
    out
}

/// The text without its `#[cfg(test)] mod name { .. }` blocks (their `super` is the file itself).
fn strip_tests(code: &str) -> String {
    let mut out = String::with_capacity(code.len());
    let mut lines = code.lines();
    while let Some(line) = lines.next() {
        if line.trim() == "#[cfg(test)]" {
            let mut depth = 0i32;
            let mut opened = false;
            for inner in lines.by_ref() {
                depth += inner.matches('{').count() as i32 - inner.matches('}').count() as i32;
                opened |= inner.contains('{');
                if opened && depth <= 0 || !opened && inner.trim_end().ends_with(';') {
                    break;
                }
            }
            continue;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// Every path in the code that starts with `crate::`, `super::` or a plain name followed by
/// `::`, with `use` groups (`crate::a::{b, c::d}`) expanded: (where it starts, its segments).
fn paths(code: &str) -> Vec<(usize, Vec<String>)> {
    let bytes = code.as_bytes();
    let is_ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut found = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if !is_ident(bytes[i]) || (i > 0 && (is_ident(bytes[i - 1]) || (i > 1 && &bytes[i - 2..i] == b"::"))) {
            i += 1;
            continue;
        }
        let start = i;
        let mut segments = Vec::new();
        let mut j = i;
        loop {
            let s = j;
            while j < bytes.len() && is_ident(bytes[j]) {
                j += 1;
            }
            segments.push(code[s..j].to_owned());
            if code[j..].starts_with("::") {
                j += 2;
                if code[j..].starts_with('{') {
                    let end = matching_brace(code, j);
                    for inner in expand_group(&code[j + 1..end]) {
                        let mut full = segments.clone();
                        full.extend(inner.into_iter().filter(|s| s != "self"));
                        found.push((start, full));
                    }
                    segments.clear();
                    j = end + 1;
                    break;
                }
                if j < bytes.len() && is_ident(bytes[j]) {
                    continue;
                }
            }
            break;
        }
        if segments.len() > 1 {
            found.push((start, segments));
        }
        i = j.max(i + 1);
    }
    found
}

fn matching_brace(code: &str, open: usize) -> usize {
    let mut depth = 0;
    for (i, c) in code[open..].char_indices() {
        match c {
            '{' => depth += 1,
            '}' => {
                depth -= 1;
                if depth == 0 {
                    return open + i;
                }
            }
            _ => {}
        }
    }
    code.len() - 1
}

/// The paths of a `use` group's items (`b, c::{d, e}` gives `b`, `c::d`, `c::e`).
fn expand_group(group: &str) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    for item in split_group(group) {
        let item = item.split(" as ").next().unwrap_or_default().trim();
        match item.split_once("::{") {
            Some((head, rest)) => {
                let head: Vec<String> = head.split("::").map(|s| s.trim().to_owned()).collect();
                for inner in expand_group(rest.strip_suffix('}').unwrap_or(rest)) {
                    found.push(head.iter().cloned().chain(inner).collect());
                }
            }
            None => found.push(item.split("::").map(|s| s.trim().to_owned()).collect()),
        }
    }
    found
}

/// The items of a `use` group, split at its top-level commas, each trimmed.
fn split_group(group: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut depth = 0;
    for c in group.chars() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(String::new());
                continue;
            }
            _ => {}
        }
        items.last_mut().expect("an item").push(c);
    }
    items.into_iter().map(|i| i.trim().to_owned()).filter(|i| !i.is_empty()).collect()
}

/// The node of the layer graph a module belongs to: its top-level module, or for a split area
/// its submodule (`tenant::users` for `tenant::users::store`).
fn node(module: &ModPath) -> String {
    match module.as_slice() {
        [area, sub, ..] if SPLIT.contains(&area.as_str()) => format!("{area}::{sub}"),
        [top, ..] => top.clone(),
        [] => String::new(),
    }
}

fn top(node: &str) -> &str {
    node.split("::").next().unwrap_or(node)
}

/// The layer graph: node → the nodes it imports, with the module file that imports each.
fn graph() -> BTreeMap<String, BTreeMap<String, ModPath>> {
    let sources = Sources::read();
    let mut edges: BTreeMap<String, BTreeMap<String, ModPath>> = BTreeMap::new();
    for (module, text) in &sources.files {
        let from = node(module);
        let entry = edges.entry(from.clone()).or_default();
        for target in sources.imports(module, text) {
            let to = node(&target);
            // A folder's own module assembles its children (their routers): that is no import
            // of the child's layer by the parent's.
            let parent_to_child = module.len() == 1 && target.len() > 1 && target[0] == module[0];
            if to != from && !parent_to_child {
                entry.entry(to).or_insert_with(|| module.clone());
            }
        }
    }
    edges
}

/// A cycle among the given nodes, as the list of its nodes, if there is one.
fn find_cycle(edges: &BTreeMap<String, BTreeMap<String, ModPath>>, keep: impl Fn(&str) -> bool) -> Option<Vec<String>> {
    fn visit(
        node: &str,
        edges: &BTreeMap<String, BTreeMap<String, ModPath>>,
        keep: &dyn Fn(&str) -> bool,
        state: &mut BTreeMap<String, u8>,
        stack: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        state.insert(node.to_owned(), 1);
        stack.push(node.to_owned());
        for next in edges.get(node).into_iter().flat_map(|e| e.keys()).filter(|n| keep(n)) {
            match state.get(next.as_str()) {
                Some(1) => {
                    let from = stack.iter().position(|n| n == next).expect("on the stack");
                    let mut cycle = stack[from..].to_vec();
                    cycle.push(next.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(cycle) = visit(next, edges, keep, state, stack) {
                        return Some(cycle);
                    }
                }
            }
        }
        stack.pop();
        state.insert(node.to_owned(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for node in edges.keys().filter(|n| keep(n)) {
        if !state.contains_key(node.as_str()) {
            let mut stack = Vec::new();
            if let Some(cycle) = visit(node, edges, &keep, &mut state, &mut stack) {
                return Some(cycle);
            }
        }
    }
    None
}

fn describe(edges: &BTreeMap<String, BTreeMap<String, ModPath>>, cycle: &[String]) -> String {
    cycle
        .windows(2)
        .map(|pair| format!("{} → {} (in {})", pair[0], pair[1], edges[&pair[0]][&pair[1]].join("::")))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_bottom_modules_import_no_area_and_nothing_imports_the_app() {
    let edges = graph();
    let mut wrong = Vec::new();
    for (from, targets) in &edges {
        for (to, module) in targets {
            if BOTTOM.contains(&top(from)) && !BOTTOM.contains(&top(to)) {
                wrong.push(format!("bottom module {} imports {to}", module.join("::")));
            }
            if to == TOP {
                wrong.push(format!("{} imports the app on top", module.join("::")));
            }
        }
    }
    assert!(wrong.is_empty(), "layer order broken:\n{}", wrong.join("\n"));
}

#[test]
fn the_areas_import_each_other_in_one_direction_only() {
    let edges = graph();
    let area = |n: &str| !BOTTOM.contains(&top(n)) && n != TOP;
    if let Some(cycle) = find_cycle(&edges, area) {
        panic!("import cycle between areas:\n{}", describe(&edges, &cycle));
    }
}

#[test]
fn the_graph_sees_the_imports_it_checks() {
    let edges = graph();
    let imports = |from: &str, to: &str| edges.get(from).is_some_and(|e| e.contains_key(to));
    // `use crate::x::{..}`, a group's nested paths, and a module imported by name then used.
    assert!(imports(TOP, "auth") && imports(TOP, "points"), "{:?}", edges.get(TOP));
    assert!(imports("auth", "session"), "{:?}", edges.get("auth"));
    assert!(imports("platform", "tenant::users"), "{:?}", edges.get("platform"));
    assert!(edges.keys().any(|n| n.starts_with("tenant::")), "{:?}", edges.keys());
}

#[test]
fn paths_expand_use_groups_and_skip_comments_and_strings() {
    let code = strip_comments("use crate::a::{b, c::{d, self}};\n// crate::x::y\nlet s = \"crate::z::w\";");
    let found: Vec<Vec<String>> = paths(&code).into_iter().map(|(_, p)| p).collect();
    let expected: Vec<Vec<String>> = [vec!["crate", "a", "b"], vec!["crate", "a", "c", "d"], vec!["crate", "a", "c"]]
        .iter()
        .map(|p| p.iter().map(|s| s.to_string()).collect())
        .collect();
    assert_eq!(found, expected);
}
