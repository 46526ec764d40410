//! One runner for every perft data file in `tests/data/`.
//!
//! A file is named `<variant>[-<value>].perft`: the variant as the command line names it
//! (`chess`, `chess960`, `xiangqi`, `banqi`, `gomoku`), and an optional value of the rule option
//! that takes it (`gomoku-renju.perft` runs with `rule=renju`). Each line is
//! `position | depth | nodes`; `#` starts a comment. Lines whose count is above
//! `QI_PERFT_MAX_NODES` (default 5,000,000) are left to the benchmark, so the test stays quick.

use std::path::Path;

use qi_rules::any::{AnyGame, StartFrom, parse_variant, rule_docs};

const DEFAULT_MAX_NODES: u64 = 5_000_000;

struct Entry {
    line: usize,
    position: String,
    depth: u32,
    nodes: u64,
}

fn read_entries(path: &Path) -> Vec<Entry> {
    let text = std::fs::read_to_string(path).expect("perft data file is readable");
    let mut entries = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [position, depth, nodes] = fields.as_slice() else {
            panic!("{}:{}: expected `position | depth | nodes`", path.display(), index + 1);
        };
        entries.push(Entry {
            line: index + 1,
            position: (*position).to_owned(),
            depth: depth.parse().expect("depth is a number"),
            nodes: nodes.parse().expect("node count is a number"),
        });
    }
    entries
}

/// The variant and rule list a data file's name stands for.
fn variant_and_rules(stem: &str) -> (String, String) {
    let (variant, value) = stem.split_once('-').unwrap_or((stem, ""));
    let rules = if value.is_empty() {
        String::new()
    } else {
        let (kind, _) = parse_variant(variant).expect("file named after a variant");
        let key = rule_docs(kind)
            .iter()
            .find(|doc| doc.values.contains(&value))
            .unwrap_or_else(|| panic!("no rule option of {variant} takes {value:?}"))
            .key;
        format!("{key}={value}")
    };
    (variant.to_owned(), rules)
}

#[test]
fn perft_matches_every_data_file() {
    let max_nodes = std::env::var("QI_PERFT_MAX_NODES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(DEFAULT_MAX_NODES);
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/data exists")
        .map(|entry| entry.expect("directory entry").path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "perft"))
        .collect();
    files.sort();
    assert!(files.len() >= 3, "perft data files are missing from {}", dir.display());
    let mut checked = 0;
    let mut failures = Vec::new();
    for path in &files {
        let stem = path.file_stem().and_then(|s| s.to_str()).expect("UTF-8 file name");
        let (variant, rules) = variant_and_rules(stem);
        for entry in read_entries(path).into_iter().filter(|e| e.nodes <= max_nodes) {
            let start = StartFrom::parse(&entry.position).expect("position field");
            let mut game = AnyGame::new(&variant, &rules, &start)
                .unwrap_or_else(|e| panic!("{stem}:{}: {e}", entry.line));
            let found = game.perft(entry.depth);
            if entry.depth <= 3 {
                let divided: u64 = game.perft_divide(entry.depth).iter().map(|(_, n)| n).sum();
                if divided != found {
                    failures.push(format!("{stem}.perft:{}: divide gives {divided}", entry.line));
                }
            }
            if found != entry.nodes {
                failures.push(format!(
                    "{stem}.perft:{}: {} depth {}: expected {}, found {found}",
                    entry.line, entry.position, entry.depth, entry.nodes
                ));
            }
            checked += 1;
        }
    }
    println!("{checked} perft lines checked");
    assert!(failures.is_empty(), "perft mismatches:\n{}", failures.join("\n"));
    assert!(checked > 50, "only {checked} perft lines ran");
}
