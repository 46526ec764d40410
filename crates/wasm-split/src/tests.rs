use std::collections::BTreeSet;

use wasm_encoder::{
    BlockType, CodeSection, ConstExpr, ElementSection, Elements, ExportKind, ExportSection,
    Function, FunctionSection, GlobalSection, GlobalType, Instruction, MemorySection, MemoryType,
    Module, RefType, TableSection, TableType, TypeSection, ValType,
};

use super::{instrument, split};

/// A module with a function table, a memory and a mutable global, and five functions:
/// 0 `double` (x * 2 + the global), small; 1 `sum_to` (a loop that adds `double` of each i up
/// to x through the table, storing the running sum in memory), big; 2 `entry` (exported: bumps
/// the global, then `sum_to` plus `tabled` through the table); 3 `tabled` (in the table only:
/// `sum_to` plus 1000); 4 `unused` (exported, never called by the others: `tabled` plus 1).
fn sample() -> Vec<u8> {
    let mut module = Module::new();
    let mut types = TypeSection::new();
    types.ty().function([ValType::I32], [ValType::I32]);
    module.section(&types);
    let mut functions = FunctionSection::new();
    for _ in 0..5 {
        functions.function(0);
    }
    module.section(&functions);
    let mut tables = TableSection::new();
    tables.table(TableType {
        element_type: RefType::FUNCREF,
        table64: false,
        minimum: 2,
        maximum: Some(2),
        shared: false,
    });
    module.section(&tables);
    let mut memories = MemorySection::new();
    memories.memory(MemoryType {
        minimum: 1,
        maximum: None,
        memory64: false,
        shared: false,
        page_size_log2: None,
    });
    module.section(&memories);
    let mut globals = GlobalSection::new();
    globals.global(
        GlobalType { val_type: ValType::I32, mutable: true, shared: false },
        &ConstExpr::i32_const(3),
    );
    module.section(&globals);
    let mut exports = ExportSection::new();
    exports.export("entry", ExportKind::Func, 2);
    exports.export("unused", ExportKind::Func, 4);
    exports.export("table", ExportKind::Table, 0);
    exports.export("memory", ExportKind::Memory, 0);
    module.section(&exports);
    let mut elements = ElementSection::new();
    elements.active(Some(0), &ConstExpr::i32_const(0), Elements::Functions(vec![0, 3].into()));
    module.section(&elements);

    let mut code = CodeSection::new();
    let mut double = Function::new([]);
    for i in [
        Instruction::LocalGet(0),
        Instruction::I32Const(2),
        Instruction::I32Mul,
        Instruction::GlobalGet(0),
        Instruction::I32Add,
        Instruction::End,
    ] {
        double.instruction(&i);
    }
    code.function(&double);
    // sum_to(x): acc = 0; for i in 0..x { acc += table[0](i); mem[0] = acc } ; acc
    let mut sum_to = Function::new([(2, ValType::I32)]);
    for i in [
        Instruction::Block(BlockType::Empty),
        Instruction::Loop(BlockType::Empty),
        Instruction::LocalGet(1),
        Instruction::LocalGet(0),
        Instruction::I32GeS,
        Instruction::BrIf(1),
        Instruction::LocalGet(2),
        Instruction::LocalGet(1),
        Instruction::I32Const(0),
        Instruction::CallIndirect { type_index: 0, table_index: 0 },
        Instruction::I32Add,
        Instruction::LocalSet(2),
        Instruction::I32Const(0),
        Instruction::LocalGet(2),
        Instruction::I32Store(wasm_encoder::MemArg { offset: 0, align: 2, memory_index: 0 }),
        Instruction::LocalGet(1),
        Instruction::I32Const(1),
        Instruction::I32Add,
        Instruction::LocalSet(1),
        Instruction::Br(0),
        Instruction::End,
        Instruction::End,
        Instruction::LocalGet(2),
        Instruction::End,
    ] {
        sum_to.instruction(&i);
    }
    code.function(&sum_to);
    let mut entry = Function::new([]);
    for i in [
        Instruction::GlobalGet(0),
        Instruction::I32Const(1),
        Instruction::I32Add,
        Instruction::GlobalSet(0),
        Instruction::LocalGet(0),
        Instruction::Call(1),
        Instruction::LocalGet(0),
        Instruction::I32Const(1),
        Instruction::CallIndirect { type_index: 0, table_index: 0 },
        Instruction::I32Add,
        Instruction::End,
    ] {
        entry.instruction(&i);
    }
    code.function(&entry);
    let mut tabled = Function::new([]);
    for i in [
        Instruction::LocalGet(0),
        Instruction::Call(1),
        Instruction::I32Const(1000),
        Instruction::I32Add,
        Instruction::LocalGet(0),
        Instruction::I32Const(0),
        Instruction::I32Add,
        Instruction::Drop,
        Instruction::LocalGet(0),
        Instruction::I32Const(12345),
        Instruction::I32Mul,
        Instruction::I32Const(67890),
        Instruction::I32Xor,
        Instruction::Drop,
        Instruction::End,
    ] {
        tabled.instruction(&i);
    }
    code.function(&tabled);
    let mut unused = Function::new([]);
    for i in [
        Instruction::LocalGet(0),
        Instruction::I32Const(1),
        Instruction::CallIndirect { type_index: 0, table_index: 0 },
        Instruction::I32Const(1),
        Instruction::I32Add,
        Instruction::LocalGet(0),
        Instruction::I32Const(54321),
        Instruction::I32Mul,
        Instruction::I32Const(98765),
        Instruction::I32Xor,
        Instruction::Drop,
        Instruction::End,
    ] {
        unused.instruction(&i);
    }
    code.function(&unused);
    module.section(&code);
    module.finish()
}

fn validate(bytes: &[u8]) {
    wasmparser::Validator::new().validate_all(bytes).expect("a valid module");
}

/// Runs `script` in Node with the modules as files in a temporary directory; its printed lines.
fn node(files: &[(&str, &[u8])], script: &str) -> String {
    static RUNS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
    let run = RUNS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let dir = std::env::temp_dir().join(format!("qi-wasm-split-{}-{run}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, bytes) in files {
        std::fs::write(dir.join(name), bytes).unwrap();
    }
    let output = std::process::Command::new("node")
        .arg("--input-type=module")
        .arg("-e")
        .arg(script)
        .current_dir(&dir)
        .output()
        .expect("node runs these tests (it runs the end-to-end tests too)");
    let _ = std::fs::remove_dir_all(&dir);
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn the_split_halves_compute_what_the_whole_did_loading_the_later_half_once() {
    let whole = sample();
    validate(&whole);
    // The profile saw only `entry` run: `sum_to`, `tabled` and `unused` move (`double` is too
    // small to be worth it).
    let (primary, later, report) = split(&whole, &BTreeSet::from([2])).unwrap();
    validate(&primary);
    validate(&later);
    assert_eq!((report.functions, report.moved), (5, 3));
    let script = r"
        import { readFileSync } from 'node:fs';
        const whole = new WebAssembly.Instance(new WebAssembly.Module(readFileSync('whole.wasm')));
        let loads = 0;
        let primary;
        const load = () => {
          loads += 1;
          new WebAssembly.Instance(new WebAssembly.Module(readFileSync('later.wasm')), { primary: primary.exports });
          primary.exports.qi_split_loaded.value = 1;
        };
        primary = new WebAssembly.Instance(new WebAssembly.Module(readFileSync('primary.wasm')), { qi_split: { load } });
        const results = [];
        for (const x of [5, 7]) {
          results.push([whole.exports.entry(x), primary.exports.entry(x)]);
          results.push([whole.exports.table.get(1)(x), primary.exports.table.get(1)(x)]);
          results.push([whole.exports.unused(x), primary.exports.unused(x)]);
        }
        const memory = (instance) => new Int32Array(instance.exports.memory.buffer)[0];
        results.push([memory(whole), memory(primary)]);
        console.log(JSON.stringify({ results, loads }));
    ";
    let out =
        node(&[("whole.wasm", &whole), ("primary.wasm", &primary), ("later.wasm", &later)], script);
    let expected_loads = "\"loads\":1";
    assert!(out.contains(expected_loads), "{out}");
    let results = out.split("\"results\":").nth(1).unwrap();
    // Every pair is the same number twice: the whole and the split module agree.
    let numbers: Vec<i64> = results
        .split(|c: char| !c.is_ascii_digit() && c != '-')
        .filter(|s| !s.is_empty())
        .map(|s| s.parse().unwrap())
        .collect();
    assert!(numbers.len() >= 14, "{out}");
    for pair in numbers[..14].chunks(2) {
        assert_eq!(pair[0], pair[1], "{out}");
    }
}

#[test]
fn nothing_moves_when_the_profile_saw_everything_run() {
    let whole = sample();
    let (primary, later, report) = split(&whole, &BTreeSet::from([0, 1, 2, 3, 4])).unwrap();
    assert_eq!(report.moved, 0);
    validate(&primary);
    validate(&later);
}

#[test]
fn an_instrumented_module_marks_each_function_it_runs() {
    let whole = sample();
    let marked = instrument(&whole).unwrap();
    validate(&marked);
    let script = r"
        import { readFileSync } from 'node:fs';
        const seen = new Set();
        const instance = new WebAssembly.Instance(new WebAssembly.Module(readFileSync('marked.wasm')), { qi_profile: { mark: (k) => seen.add(k) } });
        const value = instance.exports.entry(3);
        console.log(JSON.stringify({ value, seen: [...seen].sort() }));
    ";
    let out = node(&[("marked.wasm", &marked)], script);
    // entry (2) calls sum_to (1), which calls double (0), and tabled (3), both through the
    // table; unused (4) never runs.
    assert!(out.contains("\"seen\":[0,1,2,3]"), "{out}");
    let plain = node(
        &[("whole.wasm", &whole)],
        "import { readFileSync } from 'node:fs';
         const i = new WebAssembly.Instance(new WebAssembly.Module(readFileSync('whole.wasm')));
         console.log(JSON.stringify({ value: i.exports.entry(3) }));",
    );
    let value = |text: &str| {
        text.split("\"value\":").nth(1).unwrap().split([',', '}']).next().unwrap().to_owned()
    };
    assert_eq!(value(&out), value(&plain));
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    for bad in [&b""[..], b"\0asm", b"\0asm\x01\0\0\0\x01\x02", b"not wasm at all"] {
        assert!(split(bad, &BTreeSet::new()).is_err());
        assert!(instrument(bad).is_err());
    }
}
