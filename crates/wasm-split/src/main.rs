//! `qi-wasm-split`: the build's splitter for the app page's wasm (see the library's docs).
//!
//! ```text
//! qi-wasm-split instrument IN.wasm OUT.wasm
//! qi-wasm-split split IN.wasm PROFILE PRIMARY.wasm LATER.wasm
//! ```
//! PROFILE lists the indices (among the module's own functions) a profiled run called, one a
//! line, as `scripts/split-wasm.mjs` writes them.

use std::collections::BTreeSet;
use std::process::ExitCode;

fn read(path: &str) -> Result<Vec<u8>, String> {
    std::fs::read(path).map_err(|e| format!("{path}: {e}"))
}

fn write(path: &str, bytes: &[u8]) -> Result<(), String> {
    std::fs::write(path, bytes).map_err(|e| format!("{path}: {e}"))
}

fn run(args: &[String]) -> Result<String, String> {
    match args {
        [command, input, output] if command == "instrument" => {
            let marked = qi_wasm_split::instrument(&read(input)?)?;
            write(output, &marked)?;
            Ok(format!("instrumented {input} -> {output}"))
        }
        [command, input, profile, primary, later] if command == "split" => {
            let text = std::fs::read_to_string(profile).map_err(|e| format!("{profile}: {e}"))?;
            let keep = text
                .lines()
                .map(str::trim)
                .filter(|line| !line.is_empty())
                .map(|line| {
                    line.parse::<u32>().map_err(|_| format!("{profile}: {line:?} is not an index"))
                })
                .collect::<Result<BTreeSet<u32>, String>>()?;
            let (first, second, report) = qi_wasm_split::split(&read(input)?, &keep)?;
            write(primary, &first)?;
            write(later, &second)?;
            Ok(format!(
                "split {input}: {} of {} functions ({} KB of code) moved to {later}; {primary} {} KB, {later} {} KB",
                report.moved,
                report.functions,
                report.moved_bytes / 1000,
                first.len() / 1000,
                second.len() / 1000
            ))
        }
        _ => Err("usage: qi-wasm-split instrument IN OUT | split IN PROFILE PRIMARY LATER".into()),
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(line) => {
            println!("{line}");
            ExitCode::SUCCESS
        }
        Err(message) => {
            eprintln!("qi-wasm-split: {message}");
            ExitCode::from(2)
        }
    }
}
