//! Splits a wasm module in two: a *primary* module with the functions a profile saw run (the
//! first screen's code), and a *later* module with the rest, which the page loads once the board
//! is up. Binaryen's `wasm-split` does the same, but it cannot be had on this machine (npm's
//! binaryen ships none, Debian's is too old to read what wasm-bindgen writes); this is the same
//! idea, smaller, over `wasmparser` and `wasm-encoder`.
//!
//! How the two halves meet:
//! - Every moved function keeps its index in the primary module, as a *stub*: if the later
//!   module is not there yet, the stub calls the import `qi_split.load` (the page's loader, which
//!   fetches and instantiates it, synchronously if it must), then calls the real function
//!   through the function table, at a slot of its own past the table's old end. Direct calls,
//!   table entries and exports all still name the stub, so nothing else changes.
//! - The later module imports from `primary` the memory, the tables and globals its functions
//!   use, and every primary function they call (exported by the primary module as
//!   `qi_split_f<index>`, and so on); an active element segment puts its functions into their
//!   slots when it is instantiated, and the loader then sets the exported global
//!   `qi_split_loaded`, so stubs stop calling the loader.
//! - A function that needs what cannot be shared this simply (data or element segments, tags,
//!   `ref.func`), the start function, and functions smaller than a stub are never moved.
//!
//! The profile comes from [`instrument`]: a copy of the module whose every function first calls
//! the import `qi_profile.mark` with its index (among the module's own functions), run in the
//! browser through the first screen.

use std::borrow::Cow;
use std::collections::{BTreeMap, BTreeSet};
use std::convert::Infallible;

use wasm_encoder::reencode::{self, Reencode, RoundtripReencoder};
use wasm_encoder::{
    BlockType, CodeSection, ConstExpr, DataCountSection, DataSection, ElementSection, Elements,
    EntityType, ExportKind, ExportSection, Function, FunctionSection, GlobalSection, GlobalType,
    ImportSection, Instruction, MemorySection, Module, StartSection, TableSection, TableType,
    TypeSection, ValType,
};
use wasmparser::{Operator, Parser, Payload, TypeRef};

/// The parts of a module this tool reads.
#[derive(Default)]
struct Parsed<'a> {
    type_section: Option<wasmparser::TypeSectionReader<'a>>,
    /// Parameter counts and the type index of every function, imported ones first.
    func_type: Vec<u32>,
    params: Vec<usize>,
    imports: Vec<wasmparser::Import<'a>>,
    imported_funcs: u32,
    /// The types of all globals and tables, imported ones first.
    global_types: Vec<wasmparser::GlobalType>,
    table_types: Vec<wasmparser::TableType>,
    imported_tables: u32,
    memory: Option<wasmparser::MemoryType>,
    tables: Vec<wasmparser::Table<'a>>,
    memories: Vec<wasmparser::MemoryType>,
    globals: Vec<wasmparser::Global<'a>>,
    exports: Vec<wasmparser::Export<'a>>,
    start: Option<u32>,
    elements: Option<wasmparser::ElementSectionReader<'a>>,
    data_count: Option<u32>,
    bodies: Vec<wasmparser::FunctionBody<'a>>,
    data: Option<wasmparser::DataSectionReader<'a>>,
}

fn err(e: impl std::fmt::Display) -> String {
    e.to_string()
}

fn parse(bytes: &[u8]) -> Result<Parsed<'_>, String> {
    let mut p = Parsed::default();
    let mut params_of_type = Vec::new();
    if !bytes.starts_with(b"\0asm") {
        return Err("not a wasm module".into());
    }
    for payload in Parser::new(0).parse_all(bytes) {
        match payload.map_err(err)? {
            Payload::TypeSection(reader) => {
                p.type_section = Some(reader.clone());
                for group in reader {
                    for sub in group.map_err(err)?.into_types() {
                        match sub.composite_type.inner {
                            wasmparser::CompositeInnerType::Func(ty) => {
                                params_of_type.push(ty.params().len());
                            }
                            _ => return Err("only function types are supported".into()),
                        }
                    }
                }
            }
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    let import = import.map_err(err)?;
                    match import.ty {
                        TypeRef::Func(ty) | TypeRef::FuncExact(ty) => {
                            p.imported_funcs += 1;
                            p.func_type.push(ty);
                        }
                        TypeRef::Global(ty) => p.global_types.push(ty),
                        TypeRef::Table(ty) => {
                            p.imported_tables += 1;
                            p.table_types.push(ty);
                        }
                        TypeRef::Memory(ty) => p.memory = p.memory.or(Some(ty)),
                        TypeRef::Tag(_) => return Err("tags are not supported".into()),
                    }
                    p.imports.push(import);
                }
            }
            Payload::FunctionSection(reader) => {
                for ty in reader {
                    p.func_type.push(ty.map_err(err)?);
                }
            }
            Payload::TableSection(reader) => {
                for table in reader {
                    let table = table.map_err(err)?;
                    p.table_types.push(table.ty);
                    p.tables.push(table);
                }
            }
            Payload::MemorySection(reader) => {
                for memory in reader {
                    let memory = memory.map_err(err)?;
                    p.memory = p.memory.or(Some(memory));
                    p.memories.push(memory);
                }
            }
            Payload::GlobalSection(reader) => {
                for global in reader {
                    let global = global.map_err(err)?;
                    p.global_types.push(global.ty);
                    p.globals.push(global);
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader {
                    p.exports.push(export.map_err(err)?);
                }
            }
            Payload::StartSection { func, .. } => p.start = Some(func),
            Payload::ElementSection(reader) => p.elements = Some(reader),
            Payload::DataCountSection { count, .. } => p.data_count = Some(count),
            Payload::DataSection(reader) => p.data = Some(reader),
            Payload::CodeSectionEntry(body) => p.bodies.push(body),
            Payload::Version { .. }
            | Payload::CodeSectionStart { .. }
            | Payload::CustomSection(_)
            | Payload::End(_) => {}
            _ => return Err("the module has a section this tool does not know".into()),
        }
    }
    p.params = p.func_type.iter().map(|&ty| params_of_type[ty as usize]).collect();
    if p.memories.len() + usize::from(p.imported_memory()) > 1 {
        return Err("only one memory is supported".into());
    }
    Ok(p)
}

impl Parsed<'_> {
    fn imported_memory(&self) -> bool {
        self.imports.iter().any(|i| matches!(i.ty, TypeRef::Memory(_)))
    }

    fn type_count(&self) -> u32 {
        self.type_section.as_ref().map_or(0, |r| {
            r.clone()
                .into_iter()
                .filter_map(Result::ok)
                .map(|group| group.into_types().count() as u32)
                .sum()
        })
    }
}

/// A re-encoder that maps indices (identity where no map is given) and notes what a body uses.
#[derive(Default)]
struct Mapper {
    funcs: Option<BTreeMap<u32, u32>>,
    func_shift: Option<(u32, u32)>,
    globals: Option<BTreeMap<u32, u32>>,
    tables: Option<BTreeMap<u32, u32>>,
    used_funcs: BTreeSet<u32>,
    used_globals: BTreeSet<u32>,
    used_tables: BTreeSet<u32>,
    /// The body uses data or element segments or tags: it cannot move.
    unmovable: bool,
}

impl Mapper {
    /// Functions from `from` on move up by `by` (a function import added at `from`).
    fn shifting(from: u32, by: u32) -> Mapper {
        Mapper { func_shift: Some((from, by)), ..Mapper::default() }
    }
}

fn mapped(map: Option<&BTreeMap<u32, u32>>, index: u32) -> u32 {
    map.map_or(index, |map| map.get(&index).copied().unwrap_or(u32::MAX))
}

impl Reencode for Mapper {
    type Error = Infallible;

    fn function_index(&mut self, func: u32) -> Result<u32, reencode::Error<Infallible>> {
        self.used_funcs.insert(func);
        Ok(match self.func_shift {
            Some((from, by)) if func >= from => func + by,
            Some(_) => func,
            None => mapped(self.funcs.as_ref(), func),
        })
    }

    fn global_index(&mut self, global: u32) -> Result<u32, reencode::Error<Infallible>> {
        self.used_globals.insert(global);
        Ok(mapped(self.globals.as_ref(), global))
    }

    fn table_index(&mut self, table: u32) -> Result<u32, reencode::Error<Infallible>> {
        self.used_tables.insert(table);
        Ok(mapped(self.tables.as_ref(), table))
    }

    fn data_index(&mut self, data: u32) -> Result<u32, reencode::Error<Infallible>> {
        self.unmovable = true;
        Ok(data)
    }

    fn element_index(&mut self, element: u32) -> Result<u32, reencode::Error<Infallible>> {
        self.unmovable = true;
        Ok(element)
    }

    fn tag_index(&mut self, tag: u32) -> Result<u32, reencode::Error<Infallible>> {
        self.unmovable = true;
        Ok(tag)
    }
}

fn encode_err(e: reencode::Error<Infallible>) -> String {
    format!("{e:?}")
}

/// What a primary module adds to the original.
struct Additions<'s> {
    /// The one function import it adds, `(module, name, params)`, after the other imports.
    import: (&'s str, &'s str, Vec<ValType>),
    /// Slots added at the end of this table.
    grow_table: Option<(u32, u64)>,
    /// Globals added after the others (mutable i32s, 0 at first).
    globals: u32,
    exports: Vec<(String, ExportKind, u32)>,
}

/// Writes the primary module: the original, with `additions`, each defined function's body
/// made by `body` (given the function's defined index, its body and a mapper that shifts
/// functions past the new import).
fn rebuild(
    p: &Parsed<'_>,
    additions: &Additions<'_>,
    mut body: impl FnMut(u32, &wasmparser::FunctionBody<'_>, &mut Mapper) -> Result<Function, String>,
) -> Result<Vec<u8>, String> {
    let mut mapper = Mapper::shifting(p.imported_funcs, 1);
    let mut module = Module::new();
    let mut types = TypeSection::new();
    if let Some(reader) = p.type_section.clone() {
        RoundtripReencoder.parse_type_section(&mut types, reader).map_err(encode_err)?;
    }
    let import_type = p.type_count();
    types.ty().function(additions.import.2.iter().copied(), []);
    module.section(&types);

    let mut imports = ImportSection::new();
    for import in &p.imports {
        let ty = RoundtripReencoder.entity_type(import.ty).map_err(encode_err)?;
        imports.import(import.module, import.name, ty);
    }
    imports.import(additions.import.0, additions.import.1, EntityType::Function(import_type));
    module.section(&imports);

    let mut functions = FunctionSection::new();
    for &ty in &p.func_type[p.imported_funcs as usize..] {
        functions.function(ty);
    }
    module.section(&functions);

    let mut tables = TableSection::new();
    for (i, table) in p.tables.iter().enumerate() {
        let index = p.imported_tables + i as u32;
        let mut ty = RoundtripReencoder.table_type(table.ty).map_err(encode_err)?;
        if let Some((grown, by)) = additions.grow_table
            && grown == index
        {
            ty = TableType {
                minimum: ty.minimum + by,
                maximum: ty.maximum.map(|max| max + by),
                ..ty
            };
        }
        match &table.init {
            wasmparser::TableInit::RefNull => tables.table(ty),
            wasmparser::TableInit::Expr(expr) => {
                let expr = mapper.const_expr(expr.clone()).map_err(encode_err)?;
                tables.table_with_init(ty, &expr)
            }
        };
    }
    if !p.tables.is_empty() {
        module.section(&tables);
    }

    if !p.memories.is_empty() {
        let mut memories = MemorySection::new();
        for &memory in &p.memories {
            memories.memory(RoundtripReencoder.memory_type(memory).map_err(encode_err)?);
        }
        module.section(&memories);
    }

    let mut globals = GlobalSection::new();
    for global in &p.globals {
        mapper.parse_global(&mut globals, global.clone()).map_err(encode_err)?;
    }
    for _ in 0..additions.globals {
        let ty = GlobalType { val_type: ValType::I32, mutable: true, shared: false };
        globals.global(ty, &ConstExpr::i32_const(0));
    }
    if !globals.is_empty() {
        module.section(&globals);
    }

    let mut exports = ExportSection::new();
    for export in &p.exports {
        mapper.parse_export(&mut exports, *export).map_err(encode_err)?;
    }
    for (name, kind, index) in &additions.exports {
        exports.export(name, *kind, *index);
    }
    module.section(&exports);

    if let Some(start) = p.start {
        let function_index = mapper.function_index(start).map_err(encode_err)?;
        module.section(&StartSection { function_index });
    }
    if let Some(reader) = p.elements.clone() {
        let mut elements = ElementSection::new();
        mapper.parse_element_section(&mut elements, reader).map_err(encode_err)?;
        module.section(&elements);
    }
    if let Some(count) = p.data_count {
        module.section(&DataCountSection { count });
    }
    let mut code = CodeSection::new();
    for (k, original) in p.bodies.iter().enumerate() {
        code.function(&body(k as u32, original, &mut mapper)?);
    }
    module.section(&code);
    if let Some(reader) = p.data.clone() {
        let mut data = DataSection::new();
        mapper.parse_data_section(&mut data, reader).map_err(encode_err)?;
        module.section(&data);
    }
    Ok(module.finish())
}

/// A body re-encoded through `mapper`, after `prefix`.
fn copy_body(
    mapper: &mut Mapper,
    body: &wasmparser::FunctionBody<'_>,
    prefix: &[Instruction<'_>],
) -> Result<Function, String> {
    let mut function = mapper.new_function_with_parsed_locals(body).map_err(encode_err)?;
    for instruction in prefix {
        function.instruction(instruction);
    }
    let mut reader = body.get_operators_reader().map_err(err)?;
    while !reader.eof() {
        function.instruction(&mapper.parse_instruction(&mut reader).map_err(encode_err)?);
    }
    Ok(function)
}

/// The module with every one of its own functions first calling `qi_profile.mark(k)`, `k` the
/// function's index among the module's own functions (imports not counted).
///
/// # Errors
/// A message when the module cannot be read or has what this tool does not support.
pub fn instrument(bytes: &[u8]) -> Result<Vec<u8>, String> {
    let p = parse(bytes)?;
    let mark = p.imported_funcs;
    let additions = Additions {
        import: ("qi_profile", "mark", vec![ValType::I32]),
        grow_table: None,
        globals: 0,
        exports: Vec::new(),
    };
    rebuild(&p, &additions, |k, body, mapper| {
        copy_body(mapper, body, &[Instruction::I32Const(k as i32), Instruction::Call(mark)])
    })
}

/// What a split did.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct SplitReport {
    /// The module's own functions.
    pub functions: usize,
    /// Those moved to the later module.
    pub moved: usize,
    /// Bytes of the moved functions' bodies.
    pub moved_bytes: usize,
}

/// Bodies smaller than this stay: a stub is about this size.
const SMALLEST_MOVED: usize = 24;

/// Splits `bytes` into a primary and a later module (see the module docs); `keep` holds the
/// indices (among the module's own functions) the profile saw run.
///
/// # Errors
/// A message when the module cannot be read or has what this tool does not support.
pub fn split(
    bytes: &[u8],
    keep: &BTreeSet<u32>,
) -> Result<(Vec<u8>, Vec<u8>, SplitReport), String> {
    let p = parse(bytes)?;
    let imported = p.imported_funcs;
    // The function table: the first table of function references.
    let table = p
        .table_types
        .iter()
        .position(|ty| ty.element_type == wasmparser::RefType::FUNCREF)
        .ok_or("the module has no function table")? as u32;
    if table < p.imported_tables {
        return Err("the function table is imported: not supported".into());
    }
    let base = p.table_types[table as usize].initial;

    // Which functions move, and what they use.
    let mut moved: Vec<u32> = Vec::new();
    let mut used = Mapper::default();
    let mut report = SplitReport { functions: p.bodies.len(), ..SplitReport::default() };
    for (k, body) in p.bodies.iter().enumerate() {
        let index = imported + k as u32;
        let size = body.range().len();
        if keep.contains(&(k as u32)) || p.start == Some(index) || size < SMALLEST_MOVED {
            continue;
        }
        let mut probe = Mapper::default();
        copy_body(&mut probe, body, &[])?;
        let mut reader = body.get_operators_reader().map_err(err)?;
        while !reader.eof() {
            if let Operator::RefFunc { .. } = reader.read().map_err(err)? {
                probe.unmovable = true;
            }
        }
        if probe.unmovable {
            continue;
        }
        moved.push(index);
        report.moved_bytes += size;
        used.used_funcs.extend(probe.used_funcs);
        used.used_globals.extend(probe.used_globals);
        used.used_tables.extend(probe.used_tables);
    }
    report.moved = moved.len();
    let moved_set: BTreeSet<u32> = moved.iter().copied().collect();
    let needed_funcs: Vec<u32> =
        used.used_funcs.iter().copied().filter(|f| !moved_set.contains(f)).collect();
    let mut needed_tables = used.used_tables.clone();
    needed_tables.insert(table);
    let needed_globals = used.used_globals.clone();
    let slot_of: BTreeMap<u32, u64> =
        moved.iter().enumerate().map(|(i, &f)| (f, base + i as u64)).collect();

    // The primary module.
    let shift = |f: u32| if f >= imported { f + 1 } else { f };
    let load = imported;
    let loaded = p.global_types.len() as u32;
    let mut exports = vec![
        ("qi_split_loaded".to_owned(), ExportKind::Global, loaded),
        ("qi_split_memory".to_owned(), ExportKind::Memory, 0),
    ];
    exports.extend(needed_tables.iter().map(|&t| (format!("qi_split_t{t}"), ExportKind::Table, t)));
    exports
        .extend(needed_globals.iter().map(|&g| (format!("qi_split_g{g}"), ExportKind::Global, g)));
    exports.extend(
        needed_funcs.iter().map(|&f| (format!("qi_split_f{f}"), ExportKind::Func, shift(f))),
    );
    let additions = Additions {
        import: ("qi_split", "load", Vec::new()),
        grow_table: Some((table, moved.len() as u64)),
        globals: 1,
        exports,
    };
    let primary = rebuild(&p, &additions, |k, body, mapper| {
        let index = imported + k;
        let Some(&slot) = slot_of.get(&index) else { return copy_body(mapper, body, &[]) };
        let mut stub = Function::new([]);
        stub.instruction(&Instruction::GlobalGet(loaded));
        stub.instruction(&Instruction::I32Eqz);
        stub.instruction(&Instruction::If(BlockType::Empty));
        stub.instruction(&Instruction::Call(load));
        stub.instruction(&Instruction::End);
        for local in 0..p.params[index as usize] {
            stub.instruction(&Instruction::LocalGet(local as u32));
        }
        stub.instruction(&Instruction::I32Const(slot as i32));
        stub.instruction(&Instruction::CallIndirect {
            type_index: p.func_type[index as usize],
            table_index: table,
        });
        stub.instruction(&Instruction::End);
        Ok(stub)
    })?;

    // The later module.
    let mut module = Module::new();
    let mut types = TypeSection::new();
    if let Some(reader) = p.type_section.clone() {
        RoundtripReencoder.parse_type_section(&mut types, reader).map_err(encode_err)?;
    }
    module.section(&types);
    let mut imports = ImportSection::new();
    if let Some(memory) = p.memory {
        let ty = RoundtripReencoder.memory_type(memory).map_err(encode_err)?;
        imports.import("primary", "qi_split_memory", ty);
    }
    let mut later = Mapper::default();
    let mut table_map = BTreeMap::new();
    for (i, &t) in needed_tables.iter().enumerate() {
        let mut ty =
            RoundtripReencoder.table_type(p.table_types[t as usize]).map_err(encode_err)?;
        if t == table {
            ty.minimum += moved.len() as u64;
            ty.maximum = ty.maximum.map(|max| max + moved.len() as u64);
        }
        imports.import("primary", &format!("qi_split_t{t}"), ty);
        table_map.insert(t, i as u32);
    }
    let mut global_map = BTreeMap::new();
    for (i, &g) in needed_globals.iter().enumerate() {
        let ty = RoundtripReencoder.global_type(p.global_types[g as usize]).map_err(encode_err)?;
        imports.import("primary", &format!("qi_split_g{g}"), ty);
        global_map.insert(g, i as u32);
    }
    let mut func_map = BTreeMap::new();
    for (i, &f) in needed_funcs.iter().enumerate() {
        let ty = EntityType::Function(p.func_type[f as usize]);
        imports.import("primary", &format!("qi_split_f{f}"), ty);
        func_map.insert(f, i as u32);
    }
    for (i, &f) in moved.iter().enumerate() {
        func_map.insert(f, (needed_funcs.len() + i) as u32);
    }
    module.section(&imports);
    let mut functions = FunctionSection::new();
    for &f in &moved {
        functions.function(p.func_type[f as usize]);
    }
    module.section(&functions);
    let mut elements = ElementSection::new();
    let local_indices: Vec<u32> = moved.iter().map(|f| func_map[f]).collect();
    elements.active(
        Some(table_map[&table]),
        &ConstExpr::i32_const(base as i32),
        Elements::Functions(Cow::Owned(local_indices)),
    );
    module.section(&elements);
    later.funcs = Some(func_map);
    later.globals = Some(global_map);
    later.tables = Some(table_map);
    let mut code = CodeSection::new();
    for &f in &moved {
        code.function(&copy_body(&mut later, &p.bodies[(f - imported) as usize], &[])?);
    }
    module.section(&code);
    Ok((primary, module.finish(), report))
}

#[cfg(test)]
mod tests;
