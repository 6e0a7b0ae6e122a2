//! Lowering of functions and of the kernel wrapper to LLVM IR text.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::fmt::Write as _;

use rspirv::dr;
use spirv::{BuiltIn, Op, StorageClass};

use super::consts::{float_literal, Value};
use super::memory::PtrLayout;
use super::module::{ExtSet, Module};
use super::types::{intrinsic_suffix, ptr_ty, storage_info, Rule, Type};
use super::{Id, InstExt, Lowered, KERNEL_NAME};
use crate::abi::{self, BindingLocation, PipelineLayout};
use crate::CompileError;

/// Metadata node numbers, fixed so every function can refer to them.
pub(super) const MD_INVARIANT: &str = "!2";
pub(super) const MD_FPMATH: &str = "!3";

/// Largest array we load or store element by element.
const MAX_AGGREGATE_ELEMENTS: u32 = 4096;

/// Module-level output collected while lowering functions.
#[derive(Default)]
pub(super) struct Shared {
    /// `declare` lines of the intrinsics used.
    pub decls: BTreeSet<String>,
    /// The Workgroup variables the kernel uses (each has an LLVM global `@w<id>`).
    pub workgroup_used: BTreeSet<Id>,
}

/// A lowered SPIR-V value: its SPIR-V type and its LLVM operand text.
#[derive(Clone, Debug)]
pub(super) struct Val {
    pub ty: Id,
    pub text: String,
}

/// A phi whose incoming values may be defined later in the function.
struct PendingPhi {
    result: Id,
    ty: Id,
    incoming: Vec<(Id, Id)>,
}

struct Block {
    label: Id,
    phis: Vec<PendingPhi>,
    lines: Vec<String>,
}

/// A composite index path split into aggregate indices and a final (vector type, component).
type IndexPath = (Vec<u32>, Option<(Id, u32)>);

/// Per-function lowering state.
pub(super) struct FnCx<'c, 'a> {
    pub m: &'c Module<'a>,
    layout: &'c PipelineLayout,
    pub shared: &'c mut Shared,
    values: HashMap<Id, Val>,
    /// For pointers to a whole buffer block: the `ptr addrspace(4)` of its V# (OpArrayLength).
    buffer_desc: HashMap<Id, String>,
    /// Descriptor-array variables: (set, binding).
    desc_arrays: HashMap<Id, (u32, u32)>,
    /// Arrays of image, sampler and texel buffer descriptors: (set, binding, bytes to skip
    /// in each element, see `sampler_skip`).
    image_arrays: HashMap<Id, (u32, u32, u32)>,
    /// Matrix layouts of pointers into explicitly laid out matrices (from access chains).
    pub(super) ptr_layout: HashMap<Id, PtrLayout>,
    /// `OpImageTexelPointer` results: texel buffer atomics go through them.
    pub(super) texel_ptrs: HashMap<Id, super::image::TexelPointer>,
    prologue: Vec<String>,
    blocks: Vec<Block>,
    /// Number of CFG edges from a block to a block (LLVM phis list each edge).
    edges: HashMap<(Id, Id), usize>,
    /// Per-invocation globals every function receives as leading pointer parameters.
    hidden: Vec<Id>,
    /// Lanes per wave (32 or 64): the subgroup size.
    pub(super) wave_size: u32,
    tmp: u32,
}

/// Lowers the module's entry point; see the module docs of `spirv`.
/// `wave_size` (32 or 64) must match the wave size the IR is compiled for.
pub(super) fn lower_module(m: &Module, layout: &PipelineLayout, wave_size: u32) -> Result<Lowered, CompileError> {
    if !matches!(wave_size, 32 | 64) {
        return Err(CompileError::unsupported(format!("wave size {wave_size}")));
    }
    let reachable = reachable_functions(m)?;
    // Globals referenced anywhere reachable.
    let mut used: BTreeSet<Id> = BTreeSet::new();
    for f in &reachable {
        used.extend(referenced_globals(m, m.functions[f]));
    }
    // A Private variable's initialiser may be another variable (a pointer: VariablePointers).
    used.extend(initialiser_globals(m, &used));
    for id in &used {
        let g = &m.globals[id];
        if storage_info(g.storage).is_none() {
            return Err(CompileError::unsupported(format!("storage class {:?}", g.storage)));
        }
    }
    // Per-invocation globals: allocas in the kernel, passed to every function.
    let hidden: Vec<Id> = used
        .iter()
        .copied()
        .filter(|id| matches!(m.globals[id].storage, StorageClass::Input | StorageClass::Private))
        .collect();
    let workgroup: Vec<Id> =
        used.iter().copied().filter(|id| m.globals[id].storage == StorageClass::Workgroup).collect();

    let mut shared = Shared { workgroup_used: workgroup.iter().copied().collect(), ..Shared::default() };
    let mut functions = String::new();
    for f in &reachable {
        let text = FnCx::new(m, layout, &mut shared, &hidden, wave_size).lower_function(m.functions[f])?;
        functions.push_str(&text);
    }
    let kernel = FnCx::new(m, layout, &mut shared, &hidden, wave_size).lower_kernel()?;

    let mut ir = String::new();
    let [x, y, z] = m.workgroup_size;
    let kernarg_size = layout.kernarg().size.max(16);
    let _ = writeln!(ir, "; SPIR-V entry point lowered by softnavi-compiler-bridge");
    let _ = writeln!(ir, "target triple = \"amdgcn-amd-amdhsa\"\n");
    for id in &workgroup {
        let (size, _) = m.size_align(m.globals[id].pointee, Rule::Natural)?;
        if size > 65536 {
            return Err(CompileError::invalid(format!(
                "workgroup variable %{id} needs {size} bytes, more than 64 KiB"
            )));
        }
        if let Some(init) = m.globals[id].init {
            // shaderZeroInitializeWorkgroupMemory: only null initialisers (what Vulkan allows).
            if !m.consts.get(&init).is_some_and(|c| is_zero(&c.value)) {
                return Err(CompileError::unsupported("non-null initialiser on a Workgroup variable"));
            }
        }
        let _ = writeln!(ir, "@w{id} = internal addrspace(3) global [{} x i8] undef, align 16", size.max(1));
    }
    ir.push('\n');
    ir.push_str(&functions);
    let _ = writeln!(
        ir,
        "define amdgpu_kernel void @{KERNEL_NAME}(ptr addrspace(4) noundef byref([{kernarg_size} x i8]) align 16 %kernarg) #0 !reqd_work_group_size !1 {{"
    );
    ir.push_str(&kernel);
    ir.push_str("}\n\n");
    for d in &shared.decls {
        let _ = writeln!(ir, "{d}");
    }
    let total = x * y * z;
    // Float controls: LLVM's AMDGPU default is IEEE denormals (kept) for every width; these
    // attributes set the kernel descriptor's FLOAT_DENORM_MODE_32 / _16_64 fields (f32
    // flushed unless the shader preserves them: RADV's default, FloatModes). "denormal-fp-math"
    // alone would apply to f32 as well, so the f32 one is spelt out whenever they differ.
    // Inlined functions must carry the same ones (the inliner requires matching modes).
    let fm = m.float_modes;
    let mode = |flush: bool| if flush { "preserve-sign,preserve-sign" } else { "ieee,ieee" };
    let mut denorm = String::new();
    if fm.flush16_64 {
        denorm.push_str(" \"denormal-fp-math\"=\"preserve-sign,preserve-sign\"");
    }
    if fm.flush32 || fm.flush16_64 {
        denorm.push_str(&format!(" \"denormal-fp-math-f32\"=\"{}\"", mode(fm.flush32)));
    }
    let _ = writeln!(
        ir,
        "\nattributes #0 = {{{denorm} \"amdgpu-flat-work-group-size\"=\"{total},{total}\" \"uniform-work-group-size\"=\"true\" \
         \"amdgpu-no-dispatch-ptr\" \"amdgpu-no-queue-ptr\" \"amdgpu-no-dispatch-id\" \"amdgpu-no-implicitarg-ptr\" \
         \"amdgpu-no-hostcall-ptr\" \"amdgpu-no-heap-ptr\" \"amdgpu-no-multigrid-sync-arg\" \"amdgpu-no-default-queue\" \
         \"amdgpu-no-completion-action\" \"amdgpu-no-lds-kernel-id\" }}"
    );
    // SPIR-V functions are inlined into the kernel: calls would need a stack ABI for nothing.
    // They are `convergent` because they may contain barriers and subgroup operations: until
    // they are inlined, no pass may make a call depend on more or less control flow.
    let _ = writeln!(ir, "attributes #1 = {{{denorm} alwaysinline convergent nounwind }}");
    let _ = writeln!(ir, "\n!llvm.module.flags = !{{!0}}");
    let _ = writeln!(ir, "!0 = !{{i32 1, !\"amdhsa_code_object_version\", i32 500}}");
    let _ = writeln!(ir, "!1 = !{{i32 {x}, i32 {y}, i32 {z}}}");
    let _ = writeln!(ir, "{MD_INVARIANT} = !{{}}");
    // Vulkan allows 2.5 ULP for division; lets LLVM use v_rcp_f32 instead of a full divide.
    let _ = writeln!(ir, "{MD_FPMATH} = !{{float 2.500000e+00}}");

    Ok(Lowered {
        ir,
        workgroup_size: m.workgroup_size,
        kernel_name: KERNEL_NAME.to_string(),
        uses_workgroup_memory: !workgroup.is_empty(),
    })
}

/// Functions reachable from the entry point through OpFunctionCall, entry first.
fn reachable_functions(m: &Module) -> Result<Vec<Id>, CompileError> {
    let mut seen = HashSet::from([m.entry_fn]);
    let mut order = vec![];
    let mut queue = VecDeque::from([m.entry_fn]);
    while let Some(f) = queue.pop_front() {
        order.push(f);
        let func = m.functions.get(&f).ok_or_else(|| CompileError::invalid(format!("%{f} is not a function")))?;
        for inst in func.blocks.iter().flat_map(|b| &b.instructions) {
            if inst.class.opcode == Op::FunctionCall {
                let callee = inst.id(0)?;
                if !m.functions.contains_key(&callee) {
                    return Err(inst.bad(&format!("calls %{callee}, which is not a function")));
                }
                if seen.insert(callee) {
                    queue.push_back(callee);
                }
            }
        }
    }
    reject_recursion(m, &order)?;
    Ok(order)
}

/// SPIR-V forbids recursion (static or not); functions are inlined, so a cycle would leave a
/// call LLVM cannot inline. Depth-first over the call graph of `functions`.
fn reject_recursion(m: &Module, functions: &[Id]) -> Result<(), CompileError> {
    let callees = |f: Id| -> Vec<Id> {
        m.functions[&f]
            .blocks
            .iter()
            .flat_map(|b| &b.instructions)
            .filter(|i| i.class.opcode == Op::FunctionCall)
            .filter_map(|i| i.id(0).ok())
            .collect()
    };
    // 1: on the current path, 2: done.
    let mut state: HashMap<Id, u8> = HashMap::new();
    for &root in functions {
        if state.contains_key(&root) {
            continue;
        }
        let mut stack = vec![(root, callees(root), 0usize)];
        state.insert(root, 1);
        while let Some((f, next, i)) = stack.last_mut() {
            match next.get(*i).copied() {
                Some(c) => {
                    *i += 1;
                    match state.get(&c) {
                        Some(1) => {
                            return Err(CompileError::invalid(format!("recursion: %{c} calls itself through %{f}")))
                        }
                        Some(_) => {}
                        None => {
                            state.insert(c, 1);
                            let cs = callees(c);
                            stack.push((c, cs, 0));
                        }
                    }
                }
                None => {
                    state.insert(*f, 2);
                    stack.pop();
                }
            }
        }
    }
    Ok(())
}

fn referenced_globals(m: &Module, f: &dr::Function) -> BTreeSet<Id> {
    let mut out = BTreeSet::new();
    for inst in f.blocks.iter().flat_map(|b| &b.instructions) {
        for op in &inst.operands {
            if let dr::Operand::IdRef(id) = op {
                if m.globals.contains_key(id) {
                    out.insert(*id);
                }
            }
        }
    }
    out
}

/// The globals that initialise the Private variables among `used` (pointers to them).
fn initialiser_globals(m: &Module, used: &BTreeSet<Id>) -> BTreeSet<Id> {
    used.iter()
        .filter(|id| m.globals[*id].storage == StorageClass::Private)
        .filter_map(|id| m.globals[id].init)
        .filter(|init| m.globals.contains_key(init))
        .collect()
}

/// syncscope of a SPIR-V scope: `None` for Invocation (no fence needed), `Some("")` for
/// the system scope.
pub(super) fn sync_scope(scope: u64) -> Result<Option<&'static str>, CompileError> {
    Ok(match scope {
        0 => Some(""),              // CrossDevice
        1 | 5 => Some("agent"),     // Device, QueueFamily
        2 => Some("workgroup"),     // Workgroup
        3 | 6 => Some("wavefront"), // Subgroup, ShaderCallKHR
        4 => None,                  // Invocation
        _ => return Err(CompileError::invalid(format!("scope {scope}"))),
    })
}

/// Memory-semantics bits naming storage (Uniform, Subgroup, Workgroup, CrossWorkgroup,
/// AtomicCounter, Image, Output memory).
const SEMANTICS_STORAGE: u64 = 0x1fc0;
const SEMANTICS_SEQ_CST: u64 = 0x10;

impl<'c, 'a> FnCx<'c, 'a> {
    fn new(
        m: &'c Module<'a>,
        layout: &'c PipelineLayout,
        shared: &'c mut Shared,
        hidden: &[Id],
        wave_size: u32,
    ) -> Self {
        FnCx {
            m,
            layout,
            shared,
            values: HashMap::new(),
            buffer_desc: HashMap::new(),
            desc_arrays: HashMap::new(),
            image_arrays: HashMap::new(),
            ptr_layout: HashMap::new(),
            texel_ptrs: HashMap::new(),
            prologue: Vec::new(),
            blocks: Vec::new(),
            edges: HashMap::new(),
            hidden: hidden.to_vec(),
            wave_size,
            tmp: 0,
        }
    }

    // ---- emission helpers ---------------------------------------------------------------

    pub fn tmp(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }

    /// Appends a line to the current block (or to the prologue before the first block).
    pub fn emit(&mut self, line: String) {
        match self.blocks.last_mut() {
            Some(b) => b.lines.push(line),
            None => self.prologue.push(line),
        }
    }

    /// Emits `%tN = <rhs>` and returns `%tN`.
    pub fn def(&mut self, rhs: String) -> String {
        let t = self.tmp();
        self.emit(format!("{t} = {rhs}"));
        t
    }

    pub fn declare(&mut self, decl: String) {
        self.shared.decls.insert(decl);
    }

    /// Calls intrinsic `name` (declared on first use) and returns the result.
    pub fn call_intrinsic(&mut self, ret: &str, name: &str, args: &[String]) -> String {
        let params: Vec<&str> = args.iter().map(|a| operand_type(a)).collect();
        self.declare(format!("declare {ret} @{name}({})", params.join(", ")));
        let call = format!("call {ret} @{name}({})", args.join(", "));
        if ret == "void" {
            self.emit(call);
            String::new()
        } else {
            self.def(call)
        }
    }

    /// `text`, a float scalar or vector of SPIR-V type `ty`, with denormals flushed to zero
    /// when the entry point's `DenormFlushToZero` covers its width (else `text` itself).
    /// See [`Self::flush_denormals_of`].
    pub fn flush_denormals(&mut self, ty: Id, text: String) -> Result<String, CompileError> {
        match self.m.scalar_kind(ty) {
            Ok((width, false, true)) => {
                let t = self.m.llty(ty)?;
                Ok(self.flush_denormals_of(&t, width, text))
            }
            _ => Ok(text),
        }
    }

    /// [`Self::flush_denormals`] for LLVM type `t` of `width`-bit floats. Conversions,
    /// arithmetic and GLSL.std.450 instructions must flush (VK_KHR_shader_float_controls,
    /// issue 1), but LLVM only may: it lowers fneg, fabs, copysign and selects to bit
    /// operations and folds constant conversions without flushing. `llvm.canonicalize` must
    /// flush under "preserve-sign" (RADV's LLVM path adds it after fneg and fabs for the same
    /// reason), and LLVM drops it where the value is known to be canonical already.
    pub fn flush_denormals_of(&mut self, t: &str, width: u32, text: String) -> String {
        if !self.m.float_modes.must_flush(width) {
            return text;
        }
        self.call_intrinsic(t, &format!("llvm.canonicalize.{}", intrinsic_suffix(t)), &[format!("{t} {text}")])
    }

    pub fn set(&mut self, id: Id, ty: Id, text: String) {
        self.values.insert(id, Val { ty, text });
    }

    /// The value of `id`: a local result, a materialised global, or a constant.
    pub fn val(&self, id: Id) -> Result<Val, CompileError> {
        if let Some(v) = self.values.get(&id) {
            return Ok(v.clone());
        }
        if let Some(c) = self.m.consts.get(&id) {
            return Ok(Val { ty: c.ty, text: self.m.render(c.ty, &c.value)? });
        }
        if self.desc_arrays.contains_key(&id) {
            return Err(CompileError::unsupported(format!(
                "descriptor array %{id} used other than through an access chain"
            )));
        }
        Err(CompileError::invalid(format!("%{id} is used before it is defined, or is not a value")))
    }

    /// `TYPE TEXT` of a value, as an instruction operand.
    pub fn typed(&self, v: &Val) -> Result<String, CompileError> {
        Ok(format!("{} {}", self.m.llty(v.ty)?, v.text))
    }

    /// A constant of type `ty` with every component equal to `scalar` (an LLVM literal).
    pub fn splat_const(&self, ty: Id, scalar: &str) -> Result<String, CompileError> {
        match self.m.ty(ty)? {
            Type::Vector { elem, count } => {
                let e = self.m.llty(*elem)?;
                let parts = vec![format!("{e} {scalar}"); *count as usize];
                Ok(format!("<{}>", parts.join(", ")))
            }
            _ => Ok(scalar.to_string()),
        }
    }

    /// Broadcasts scalar value `s` to vector type `vty` at run time.
    pub fn splat(&mut self, vty: Id, s: &Val) -> Result<String, CompileError> {
        let Type::Vector { count, .. } = *self.m.ty(vty)? else { return Ok(s.text.clone()) };
        let vt = self.m.llty(vty)?;
        let one = self.def(format!("insertelement {vt} poison, {}, i32 0", self.typed(s)?));
        Ok(self.def(format!("shufflevector {vt} {one}, {vt} poison, <{count} x i32> zeroinitializer")))
    }

    // ---- functions ----------------------------------------------------------------------

    fn lower_function(mut self, f: &dr::Function) -> Result<String, CompileError> {
        let def = f.def.as_ref().ok_or_else(|| CompileError::invalid("function without OpFunction"))?;
        let id = def.result()?;
        let ret = def.rtype()?;
        let mut params = vec!["ptr addrspace(4) %kernarg".to_string()];
        for g in self.hidden.clone() {
            params.push(format!("ptr addrspace(5) %g{g}"));
            let ptr = self.global_ptr_type(g)?;
            self.set(g, ptr, format!("%g{g}"));
        }
        for p in &f.parameters {
            let (pid, pty) = (p.result()?, p.rtype()?);
            params.push(format!("{} %v{pid}", self.m.llty(pty)?));
            self.set(pid, pty, format!("%v{pid}"));
        }
        self.materialise_globals(referenced_globals(self.m, f))?;
        self.cfg_edges(f)?;
        for block in &f.blocks {
            let label = block.label.as_ref().ok_or_else(|| CompileError::invalid("block without OpLabel"))?.result()?;
            self.blocks.push(Block { label, phis: Vec::new(), lines: Vec::new() });
            for inst in &block.instructions {
                self.lower_inst(inst)?;
            }
        }
        let first = self
            .blocks
            .first()
            .map(|b| b.label)
            .ok_or_else(|| CompileError::invalid(format!("function %{id} has no body")))?;

        let mut out = format!(
            "define internal {} @{}({}) #1 {{\nentry:\n",
            self.m.llty(ret)?,
            function_symbol(self.m, id),
            params.join(", ")
        );
        for l in &self.prologue {
            let _ = writeln!(out, "  {l}");
        }
        let _ = writeln!(out, "  br label %b{first}");
        for b in &self.blocks {
            let _ = writeln!(out, "b{}:", b.label);
            for phi in &b.phis {
                let mut incoming = Vec::new();
                for (value, parent) in &phi.incoming {
                    self.check_variable_pointers(&[*value])?;
                    let v = self.val(*value)?;
                    for _ in 0..self.edges.get(&(*parent, b.label)).copied().unwrap_or(0) {
                        incoming.push(format!("[ {}, %b{parent} ]", v.text));
                    }
                }
                if incoming.is_empty() {
                    return Err(CompileError::invalid(format!("OpPhi %{} has no incoming edge", phi.result)));
                }
                let _ = writeln!(out, "  %v{} = phi {} {}", phi.result, self.m.llty(phi.ty)?, incoming.join(", "));
            }
            for l in &b.lines {
                let _ = writeln!(out, "  {l}");
            }
        }
        out.push_str("}\n\n");
        Ok(out)
    }

    /// The pointer type id of global `g`.
    fn global_ptr_type(&self, g: Id) -> Result<Id, CompileError> {
        self.m.globals.get(&g).map(|gl| gl.ptr_ty).ok_or_else(|| CompileError::invalid(format!("%{g} is not a global")))
    }

    /// Makes the buffer, push-constant and workgroup globals among `globals` available as
    /// values.
    fn materialise_globals(&mut self, globals: BTreeSet<Id>) -> Result<(), CompileError> {
        for g in globals {
            let gl = &self.m.globals[&g];
            let ptr = self.global_ptr_type(g)?;
            match gl.storage {
                StorageClass::Workgroup => self.set(g, ptr, format!("@w{g}")),
                StorageClass::PushConstant => {
                    if self.layout.push_constant_size == 0 {
                        return Err(CompileError::Layout(
                            "the shader uses push constants, the pipeline layout has no push-constant range".into(),
                        ));
                    }
                    let off = self.layout.kernarg().push_constants;
                    let t = self.def(format!("getelementptr i8, ptr addrspace(4) %kernarg, i32 {off}"));
                    self.set(g, ptr, t);
                }
                StorageClass::StorageBuffer | StorageClass::Uniform => {
                    let set = *self
                        .m
                        .deco
                        .set
                        .get(&g)
                        .ok_or_else(|| CompileError::invalid(format!("buffer %{g} has no DescriptorSet")))?;
                    let binding = *self
                        .m
                        .deco
                        .binding
                        .get(&g)
                        .ok_or_else(|| CompileError::invalid(format!("buffer %{g} has no Binding")))?;
                    match self.m.ty(gl.pointee)? {
                        Type::Array { .. } | Type::RuntimeArray { .. } => {
                            self.desc_arrays.insert(g, (set, binding));
                        }
                        _ => {
                            let desc = self.descriptor_address(set, binding, None)?;
                            let p = self.buffer_pointer(&desc);
                            self.buffer_desc.insert(g, desc);
                            self.set(g, ptr, p);
                        }
                    }
                }
                StorageClass::UniformConstant => {
                    // Texel buffers, images and samplers (image.rs, mimg.rs): the pointer is
                    // the address of the descriptor; an array's elements are picked by
                    // access chains (`image_arrays`), a binding's descriptor size apart.
                    let (set, binding) = match (self.m.deco.set.get(&g), self.m.deco.binding.get(&g)) {
                        (Some(s), Some(b)) => (*s, *b),
                        _ => {
                            return Err(CompileError::invalid(format!(
                                "UniformConstant %{g} has no DescriptorSet/Binding"
                            )))
                        }
                    };
                    let skip = self.sampler_skip(set, binding, gl.pointee)?;
                    if matches!(self.m.ty(gl.pointee)?, Type::Array { .. } | Type::RuntimeArray { .. }) {
                        self.image_arrays.insert(g, (set, binding, skip));
                    }
                    let desc = self.descriptor_address(set, binding, None)?;
                    let desc = self.offset_ptr(&desc, 4, skip.into());
                    self.set(g, ptr, desc);
                }
                _ => {} // Input/Private: hidden parameters.
            }
        }
        Ok(())
    }

    /// Where a `UniformConstant` variable of type `pointee` finds its descriptor in an
    /// element of (set, binding): a sampler variable at a combined image sampler binding
    /// reads the S# after the T# (Vulkan lets separate image and sampler variables share
    /// one combined binding); everything else starts at the element.
    fn sampler_skip(&self, set: u32, binding: u32, pointee: Id) -> Result<u32, CompileError> {
        let elem = match self.m.ty(pointee)? {
            Type::Array { elem, .. } | Type::RuntimeArray { elem, .. } => *elem,
            _ => pointee,
        };
        let kind = self.layout.sets.get(set as usize).and_then(|s| s.binding(binding)).map(|(b, _)| b.kind);
        let combined = kind == Some(abi::DescriptorKind::CombinedImageSampler);
        Ok(if combined && matches!(self.m.ty(elem)?, Type::Sampler) { abi::COMBINED_SAMPLER_OFFSET } else { 0 })
    }

    /// `ptr addrspace(4)` to the descriptor of (set, binding)[index]; `index` is an i32
    /// operand text.
    fn descriptor_address(&mut self, set: u32, binding: u32, index: Option<&str>) -> Result<String, CompileError> {
        let layout_err =
            || CompileError::Layout(format!("(set {set}, binding {binding}) is not in the pipeline layout"));
        let set_layout = self.layout.sets.get(set as usize).ok_or_else(layout_err)?;
        let (b, loc) = set_layout.binding(binding).ok_or_else(layout_err)?;
        // Robustness: keep a dynamic index inside the binding's descriptors.
        let index = match index {
            Some(i) if b.count > 0 => Some(self.def(format!("call i32 @llvm.umin.i32(i32 {i}, i32 {})", b.count - 1))),
            _ => None,
        };
        if index.is_some() {
            self.declare("declare i32 @llvm.umin.i32(i32, i32)".into());
        }
        let base = match loc {
            BindingLocation::SetMemory(off) => {
                let slot = abi::KERNARG_SET_ADDRESSES + 8 * set;
                let p = self.def(format!("getelementptr i8, ptr addrspace(4) %kernarg, i32 {slot}"));
                let addr = self.def(format!("load i64, ptr addrspace(4) {p}, align 8, !invariant.load {MD_INVARIANT}"));
                let setp = self.def(format!("inttoptr i64 {addr} to ptr addrspace(4)"));
                self.offset_ptr(&setp, 4, u64::from(off))
            }
            BindingLocation::Dynamic(_) => {
                let off = self.layout.dynamic_descriptor_offset(set, binding, 0).ok_or_else(layout_err)?;
                self.offset_ptr("%kernarg", 4, u64::from(off))
            }
        };
        Ok(match index {
            Some(i) => {
                let bytes = self.def(format!("mul i32 {i}, {}", b.kind.size()));
                self.def(format!("getelementptr i8, ptr addrspace(4) {base}, i32 {bytes}"))
            }
            None => base,
        })
    }

    /// Loads the V# at `desc` and makes a buffer fat pointer of it.
    fn buffer_pointer(&mut self, desc: &str) -> String {
        let rsrc = self
            .def(format!("load ptr addrspace(8), ptr addrspace(4) {desc}, align 16, !invariant.load {MD_INVARIANT}"));
        self.def(format!("addrspacecast ptr addrspace(8) {rsrc} to ptr addrspace(7)"))
    }

    /// Counts CFG edges, for phis (LLVM wants one incoming entry per edge).
    fn cfg_edges(&mut self, f: &dr::Function) -> Result<(), CompileError> {
        for b in &f.blocks {
            let from = b.label.as_ref().ok_or_else(|| CompileError::invalid("block without OpLabel"))?.result()?;
            let Some(term) = b.instructions.last() else { continue };
            let targets = match term.class.opcode {
                Op::Branch => vec![term.id(0)?],
                Op::BranchConditional => vec![term.id(1)?, term.id(2)?],
                Op::Switch => {
                    let mut t = vec![term.id(1)?];
                    let mut seen = HashSet::new();
                    let mut i = 2;
                    while i + 1 < term.operands.len() {
                        if seen.insert(switch_literal(term, i)?) {
                            t.push(term.id(i + 1)?);
                        }
                        i += 2;
                    }
                    t
                }
                _ => vec![],
            };
            for t in targets {
                *self.edges.entry((from, t)).or_default() += 1;
            }
        }
        Ok(())
    }

    // ---- the kernel ---------------------------------------------------------------------

    /// The kernel body: per-invocation variables, then a call of the entry function.
    fn lower_kernel(mut self) -> Result<String, CompileError> {
        let mut args = vec!["ptr addrspace(4) %kernarg".to_string()];
        let hidden = self.hidden.clone();
        for g in &hidden {
            let gl = &self.m.globals[g];
            let (size, align) = self.m.size_align(gl.pointee, Rule::Natural)?;
            self.emit(format!("%g{g} = alloca [{} x i8], align {}, addrspace(5)", size.max(1), align.max(4)));
            self.set(*g, gl.ptr_ty, format!("%g{g}"));
            args.push(format!("ptr addrspace(5) %g{g}"));
        }
        // Initialisers that are variables (pointers) need those as values first.
        let used: BTreeSet<Id> = hidden.iter().copied().collect();
        self.materialise_globals(initialiser_globals(self.m, &used))?;
        for g in &hidden {
            let gl = &self.m.globals[g];
            if gl.storage == StorageClass::Input {
                let b =
                    *self.m.deco.builtin.get(g).ok_or_else(|| {
                        CompileError::unsupported(format!("Input variable %{g} that is not a built-in"))
                    })?;
                let v = self.builtin_value(b, gl.pointee)?;
                self.store_typed(&format!("%g{g}"), 5, Rule::Natural, gl.pointee, &v, false)?;
            } else if let Some(init) = gl.init {
                let v = self.val(init)?;
                self.store_typed(&format!("%g{g}"), 5, Rule::Natural, gl.pointee, &v.text, false)?;
            }
        }
        self.zero_workgroup_memory()?;
        let entry = self.m.entry_fn;
        self.emit(format!("call void @{}({})", function_symbol(self.m, entry), args.join(", ")));
        self.emit("ret void".into());
        let mut out = String::from("entry:\n");
        for l in &self.prologue {
            let _ = writeln!(out, "  {l}");
        }
        Ok(out)
    }

    /// Zero-fills the `Workgroup` variables that have a (null) initialiser, at workgroup
    /// start: every invocation clears its slice of each variable (`llvm.memset`, which LLVM
    /// expands into a loop), then a workgroup barrier with release/acquire fences makes the
    /// zeros visible to all before the entry function runs.
    fn zero_workgroup_memory(&mut self) -> Result<(), CompileError> {
        let vars: Vec<Id> = self
            .m
            .globals
            .iter()
            .filter(|(id, g)| g.storage == StorageClass::Workgroup && g.init.is_some() && self.used_workgroup(**id))
            .map(|(id, _)| *id)
            .collect();
        if vars.is_empty() {
            return Ok(());
        }
        let [x, y, z] = self.m.workgroup_size;
        let total = u64::from(x * y * z);
        let index = self.local_index();
        for id in vars {
            let (size, _) = self.m.size_align(self.m.globals[&id].pointee, Rule::Natural)?;
            let size = size.max(1);
            // Slices of whole 16-byte units, so that the stores can be wide.
            let chunk = size.div_ceil(total).next_multiple_of(16);
            let start = self.def(format!("mul i32 {index}, {chunk}"));
            let start = self.def(format!("call i32 @llvm.umin.i32(i32 {start}, i32 {size})"));
            let end = self.def(format!("add i32 {start}, {chunk}"));
            let end = self.def(format!("call i32 @llvm.umin.i32(i32 {end}, i32 {size})"));
            let len = self.def(format!("sub i32 {end}, {start}"));
            let p = self.def(format!("getelementptr i8, ptr addrspace(3) @w{id}, i32 {start}"));
            self.call_intrinsic(
                "void",
                "llvm.memset.p3.i32",
                &[format!("ptr addrspace(3) {p}"), "i8 0".into(), format!("i32 {len}"), "i1 false".into()],
            );
        }
        self.declare("declare i32 @llvm.umin.i32(i32, i32)".into());
        self.emit(fence("workgroup", "release"));
        self.call_intrinsic("void", "llvm.amdgcn.s.barrier", &[]);
        self.emit(fence("workgroup", "acquire"));
        Ok(())
    }

    /// Whether the kernel uses Workgroup variable `id` (it has an LLVM global).
    fn used_workgroup(&self, id: Id) -> bool {
        self.shared.workgroup_used.contains(&id)
    }

    /// LocalInvocationIndex as an i32 value.
    fn local_index(&mut self) -> String {
        let size = self.m.workgroup_size;
        let xyz = ["x", "y", "z"];
        let l: Vec<String> = (0..3)
            .map(|d| {
                if size[d] == 1 {
                    "0".into()
                } else {
                    self.call_intrinsic("i32", &format!("llvm.amdgcn.workitem.id.{}", xyz[d]), &[])
                }
            })
            .collect();
        let y = self.def(format!("mul i32 {}, {}", l[1], size[0]));
        let z = self.def(format!("mul i32 {}, {}", l[2], size[0] * size[1]));
        let xy = self.def(format!("add i32 {}, {y}", l[0]));
        self.def(format!("add i32 {xy}, {z}"))
    }

    /// The value of built-in `b` as a value of SPIR-V type `ty`.
    fn builtin_value(&mut self, b: BuiltIn, ty: Id) -> Result<String, CompileError> {
        let size = self.m.workgroup_size;
        let expect = |this: &Self, want: &str| -> Result<(), CompileError> {
            let got = this.m.llty(ty)?;
            if got == want {
                Ok(())
            } else {
                Err(CompileError::invalid(format!("built-in {b:?} declared as {got}, expected {want}")))
            }
        };
        let xyz = ["x", "y", "z"];
        let local_id = |this: &mut Self| -> Vec<String> {
            (0..3)
                .map(|d| {
                    if size[d] == 1 {
                        "0".into()
                    } else {
                        this.call_intrinsic("i32", &format!("llvm.amdgcn.workitem.id.{}", xyz[d]), &[])
                    }
                })
                .collect()
        };
        let local_index = |this: &mut Self| -> String {
            let l = local_id(this);
            let y = this.def(format!("mul i32 {}, {}", l[1], size[0]));
            let z = this.def(format!("mul i32 {}, {}", l[2], size[0] * size[1]));
            let xy = this.def(format!("add i32 {}, {y}", l[0]));
            this.def(format!("add i32 {xy}, {z}"))
        };
        let vec3 = |this: &mut Self, parts: &[String]| -> String {
            let mut v = "poison".to_string();
            for (i, p) in parts.iter().enumerate() {
                v = this.def(format!("insertelement <3 x i32> {v}, i32 {p}, i32 {i}"));
            }
            v
        };
        match b {
            BuiltIn::LocalInvocationId => {
                expect(self, "<3 x i32>")?;
                let l = local_id(self);
                Ok(vec3(self, &l))
            }
            BuiltIn::WorkgroupId | BuiltIn::GlobalInvocationId => {
                expect(self, "<3 x i32>")?;
                let mut parts: Vec<String> = (0..3)
                    .map(|d| self.call_intrinsic("i32", &format!("llvm.amdgcn.workgroup.id.{}", xyz[d]), &[]))
                    .collect();
                if b == BuiltIn::GlobalInvocationId {
                    let l = local_id(self);
                    for d in 0..3 {
                        if size[d] != 1 {
                            let scaled = self.def(format!("mul i32 {}, {}", parts[d], size[d]));
                            parts[d] = self.def(format!("add i32 {scaled}, {}", l[d]));
                        }
                    }
                }
                Ok(vec3(self, &parts))
            }
            BuiltIn::NumWorkgroups => {
                expect(self, "<3 x i32>")?;
                let p = self.offset_ptr("%kernarg", 4, u64::from(abi::KERNARG_NUM_WORKGROUPS));
                Ok(self.def(format!("load <3 x i32>, ptr addrspace(4) {p}, align 4, !invariant.load {MD_INVARIANT}")))
            }
            BuiltIn::LocalInvocationIndex => {
                expect(self, "i32")?;
                Ok(local_index(self))
            }
            BuiltIn::WorkgroupSize => {
                expect(self, "<3 x i32>")?;
                Ok(format!("<i32 {}, i32 {}, i32 {}>", size[0], size[1], size[2]))
            }
            // A subgroup is a wave. The SPI packs a workgroup's invocations into waves in
            // LocalInvocationIndex order (x fastest), so wave w holds the invocations
            // [w * wave_size, (w + 1) * wave_size): the last one is partial when the
            // workgroup size is not a multiple of the wave size, its missing lanes off in EXEC.
            BuiltIn::SubgroupSize => {
                expect(self, "i32")?;
                Ok(self.wave_size.to_string())
            }
            BuiltIn::SubgroupLocalInvocationId => {
                expect(self, "i32")?;
                Ok(self.lane_id())
            }
            BuiltIn::SubgroupId => {
                expect(self, "i32")?;
                let index = local_index(self);
                let id = self.def(format!("lshr i32 {index}, {}", self.wave_size.trailing_zeros()));
                // The same in every lane of a wave: readfirstlane tells LLVM it is uniform,
                // so it lives in an SGPR and branches on it are scalar. (The kernel wrapper
                // runs with every lane of the wave active.)
                Ok(self.call_intrinsic("i32", "llvm.amdgcn.readfirstlane.i32", &[format!("i32 {id}")]))
            }
            BuiltIn::SubgroupEqMask
            | BuiltIn::SubgroupGeMask
            | BuiltIn::SubgroupGtMask
            | BuiltIn::SubgroupLeMask
            | BuiltIn::SubgroupLtMask => {
                expect(self, "<4 x i32>")?;
                self.subgroup_mask_builtin(b)
            }
            BuiltIn::NumSubgroups => {
                expect(self, "i32")?;
                Ok((size[0] * size[1] * size[2]).div_ceil(self.wave_size).to_string())
            }
            // softnavi's device groups hold one physical device (vkEnumeratePhysicalDeviceGroups).
            BuiltIn::DeviceIndex => {
                expect(self, "i32")?;
                Ok("0".into())
            }
            other => Err(CompileError::unsupported(format!("built-in {other:?}"))),
        }
    }

    /// The invocation's lane in its wave, 0..wave_size (`SubgroupLocalInvocationId`): the
    /// number of lanes below it, counted by `v_mbcnt` in a mask of all ones.
    pub(super) fn lane_id(&mut self) -> String {
        let lo = self.call_intrinsic("i32", "llvm.amdgcn.mbcnt.lo", &["i32 -1".into(), "i32 0".into()]);
        if self.wave_size == 64 {
            self.call_intrinsic("i32", "llvm.amdgcn.mbcnt.hi", &["i32 -1".into(), format!("i32 {lo}")])
        } else {
            lo
        }
    }

    /// The scope operand `i` of a subgroup instruction, which must be Subgroup (the only
    /// scope Vulkan allows for them).
    pub(super) fn check_subgroup_scope(&self, inst: &dr::Instruction, i: usize) -> Result<(), CompileError> {
        match self.m.const_u64(inst.id(i)?)? {
            3 => Ok(()),
            other => Err(CompileError::unsupported(format!("{} with execution scope {other}", inst.name()))),
        }
    }

    // ---- memory -------------------------------------------------------------------------

    /// Loads a value of SPIR-V type `ty` from `ptr` (address space `asp`, layout `rule`),
    /// member by member for composites.
    pub(super) fn load_typed(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        volatile: bool,
    ) -> Result<String, CompileError> {
        self.check_aggregate_size(ty)?;
        let pt = ptr_ty(asp);
        let vol = if volatile { "volatile " } else { "" };
        match self.m.ty(ty)?.clone() {
            Type::Bool => {
                let raw = self.def(format!("load {vol}i32, {pt} {ptr}, align 4"));
                Ok(self.def(format!("icmp ne i32 {raw}, 0")))
            }
            Type::Int { .. } | Type::Float { .. } => {
                let (t, a) = (self.m.llty(ty)?, self.m.scalar_size(ty)?);
                let v = self.def(format!("load {vol}{t}, {pt} {ptr}, align {a}"));
                if asp != 7 {
                    return Ok(v);
                }
                // VectorCombine turns a buffer load inserted into lane 0 of a vector into a
                // `<1 x T>` buffer load, which LLVM 19's AMDGPU instruction selection cannot
                // legalise ("Do not know how to scalarize"); a freeze between them stops it.
                Ok(self.def(format!("freeze {t} {v}")))
            }
            Type::Vector { elem, count } => {
                if matches!(self.m.ty(elem)?, Type::Bool) {
                    let raw = self.def(format!("load {vol}<{count} x i32>, {pt} {ptr}, align 4"));
                    return Ok(self.def(format!("icmp ne <{count} x i32> {raw}, zeroinitializer")));
                }
                if self.split_vector_access(ty, asp)? {
                    return self.load_strided(ptr, asp, ty, self.m.scalar_size(ty)?, volatile);
                }
                let (t, a) = (self.m.llty(ty)?, self.m.scalar_size(ty)?);
                Ok(self.def(format!("load {vol}{t}, {pt} {ptr}, align {a}")))
            }
            Type::Array { elem, len } => {
                let stride = self.m.stride(ty, rule)?;
                let t = self.m.llty(ty)?;
                let et = self.m.llty(elem)?;
                let mut agg = "poison".to_string();
                for i in 0..len {
                    let p = self.offset_ptr(ptr, asp, u64::from(i) * stride);
                    let v = self.load_typed(&p, asp, rule, elem, volatile)?;
                    agg = self.def(format!("insertvalue {t} {agg}, {et} {v}, {i}"));
                }
                Ok(agg)
            }
            Type::Struct { members } => {
                let t = self.m.llty(ty)?;
                let mut agg = "poison".to_string();
                for (i, mty) in members.iter().enumerate() {
                    let off = self.m.member_offset(ty, i as u32, rule)?;
                    let p = self.offset_ptr(ptr, asp, off);
                    let v = self.load_member(&p, asp, rule, ty, i as u32, *mty, volatile)?;
                    agg = self.def(format!("insertvalue {t} {agg}, {} {v}, {i}", self.m.llty(*mty)?));
                }
                Ok(agg)
            }
            Type::Matrix { .. } => {
                let l = self.m.default_matrix_layout(ty, rule)?;
                self.load_matrix(ptr, asp, rule, ty, l, volatile)
            }
            Type::Pointer { .. } => self.load_pointer(ptr, asp, rule, ty, volatile),
            Type::Image { .. } | Type::Sampler | Type::SampledImage { .. } if asp == 4 => {
                // A descriptor: loaded whole, with scalar loads (uniform) or a waterfall.
                let t = self.m.llty(ty)?;
                Ok(self.def(format!("load {t}, ptr addrspace(4) {ptr}, align 16, !invariant.load {MD_INVARIANT}")))
            }
            _ => Err(CompileError::invalid(format!("load of type %{ty}, which has no value form"))),
        }
    }

    /// Stores `value` (of SPIR-V type `ty`) to `ptr`, member by member for composites.
    pub(super) fn store_typed(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        value: &str,
        volatile: bool,
    ) -> Result<(), CompileError> {
        self.check_aggregate_size(ty)?;
        let pt = ptr_ty(asp);
        let vol = if volatile { "volatile " } else { "" };
        match self.m.ty(ty)?.clone() {
            Type::Bool => {
                let raw = self.def(format!("zext i1 {value} to i32"));
                self.emit(format!("store {vol}i32 {raw}, {pt} {ptr}, align 4"));
            }
            Type::Int { .. } | Type::Float { .. } => {
                let (t, a) = (self.m.llty(ty)?, self.m.scalar_size(ty)?);
                self.emit(format!("store {vol}{t} {value}, {pt} {ptr}, align {a}"));
            }
            Type::Vector { elem, count } => {
                if matches!(self.m.ty(elem)?, Type::Bool) {
                    let raw = self.def(format!("zext <{count} x i1> {value} to <{count} x i32>"));
                    self.emit(format!("store {vol}<{count} x i32> {raw}, {pt} {ptr}, align 4"));
                } else if self.split_vector_access(ty, asp)? {
                    self.store_strided(ptr, asp, ty, self.m.scalar_size(ty)?, value, volatile)?;
                } else {
                    let (t, a) = (self.m.llty(ty)?, self.m.scalar_size(ty)?);
                    self.emit(format!("store {vol}{t} {value}, {pt} {ptr}, align {a}"));
                }
            }
            Type::Array { elem, len } => {
                let stride = self.m.stride(ty, rule)?;
                let t = self.m.llty(ty)?;
                for i in 0..len {
                    let v = self.def(format!("extractvalue {t} {value}, {i}"));
                    let p = self.offset_ptr(ptr, asp, u64::from(i) * stride);
                    self.store_typed(&p, asp, rule, elem, &v, volatile)?;
                }
            }
            Type::Struct { members } => {
                let t = self.m.llty(ty)?;
                for (i, mty) in members.iter().enumerate() {
                    let off = self.m.member_offset(ty, i as u32, rule)?;
                    let v = self.def(format!("extractvalue {t} {value}, {i}"));
                    let p = self.offset_ptr(ptr, asp, off);
                    self.store_member(&p, asp, rule, ty, i as u32, *mty, &v, volatile)?;
                }
            }
            Type::Matrix { .. } => {
                let l = self.m.default_matrix_layout(ty, rule)?;
                self.store_matrix(ptr, asp, rule, ty, l, value, volatile)?;
            }
            Type::Pointer { .. } => self.store_pointer(ptr, asp, rule, ty, value, volatile)?,
            _ => return Err(CompileError::invalid(format!("store of type %{ty}, which has no value form"))),
        }
        Ok(())
    }

    /// Composites are loaded and stored member by member: refuse ones that would expand
    /// into an absurd amount of code.
    fn check_aggregate_size(&self, ty: Id) -> Result<(), CompileError> {
        let n = self.m.scalar_count(ty)?;
        if n > u64::from(MAX_AGGREGATE_ELEMENTS) {
            return Err(CompileError::unsupported(format!("load or store of a composite of {n} scalars")));
        }
        Ok(())
    }

    /// `ptr + off` (no instruction when `off` is 0).
    pub(super) fn offset_ptr(&mut self, ptr: &str, asp: u32, off: u64) -> String {
        if off == 0 {
            ptr.to_string()
        } else {
            self.def(format!("getelementptr i8, {} {ptr}, i32 {}", ptr_ty(asp), off as i64 as i32))
        }
    }

    /// (address space, layout rule, pointee type) of a pointer value.
    pub(super) fn pointer_info(&self, v: &Val) -> Result<(u32, Rule, Id), CompileError> {
        let (storage, pointee) = self.m.pointer(v.ty)?;
        let (asp, rule) =
            storage_info(storage).ok_or_else(|| CompileError::unsupported(format!("storage class {storage:?}")))?;
        Ok((asp, rule, pointee))
    }

    /// An index operand as an i32 operand text (truncated or extended by signedness).
    fn index_i32(&mut self, id: Id) -> Result<String, CompileError> {
        let v = self.val(id)?;
        match self.m.ty(v.ty)? {
            Type::Int { width: 32, .. } => Ok(v.text),
            Type::Int { width, signed } => {
                let (w, s) = (*width, *signed);
                let op = if w > 32 {
                    "trunc"
                } else if s {
                    "sext"
                } else {
                    "zext"
                };
                Ok(self.def(format!("{op} i{w} {} to i32", v.text)))
            }
            _ => Err(CompileError::invalid(format!("index %{id} is not an integer"))),
        }
    }

    /// OpAccessChain / OpInBoundsAccessChain: a byte offset from the base pointer.
    /// With `ptr_chain` (OpPtrAccessChain), the first index is the Element operand.
    fn access_chain(&mut self, inst: &dr::Instruction, ptr_chain: bool) -> Result<(), CompileError> {
        let (result, rty) = (inst.result()?, inst.rtype()?);
        let base_id = inst.id(0)?;
        let mut indices = inst.ids_from(1)?;
        let mut base_ty = None;
        if let Some(&(set, binding, skip)) = self.image_arrays.get(&base_id) {
            // An array of image, sampler or texel buffer descriptors: the index picks one.
            if indices.len() != 1 || ptr_chain {
                return Err(inst.bad("access chain into a descriptor array with other than one index"));
            }
            let idx = self.index_i32(indices[0])?;
            let desc = self.descriptor_address(set, binding, Some(&idx))?;
            let desc = self.offset_ptr(&desc, 4, skip.into());
            self.set(result, rty, desc);
            return Ok(());
        }
        let (base, asp, rule, mut cur) = if let Some(&(set, binding)) = self.desc_arrays.get(&base_id) {
            // An array of buffer descriptors: the first index picks the descriptor.
            if indices.is_empty() || ptr_chain {
                return Err(inst.bad("access chain into a descriptor array without an index"));
            }
            let first = indices.remove(0);
            let idx = self.index_i32(first)?;
            let desc = self.descriptor_address(set, binding, Some(&idx))?;
            let p = self.buffer_pointer(&desc);
            let gl = &self.m.globals[&base_id];
            let elem = self.m.element_type(gl.pointee, 0)?;
            if indices.is_empty() {
                self.buffer_desc.insert(result, desc);
            }
            (p, 7, Rule::Explicit, elem)
        } else {
            let base = self.val(base_id)?;
            let (asp, rule, pointee) = self.pointer_info(&base)?;
            base_ty = Some(base.ty);
            if let (true, Some(desc)) = (indices.is_empty(), self.buffer_desc.get(&base_id).cloned()) {
                self.buffer_desc.insert(result, desc);
            }
            (base.text, asp, rule, pointee)
        };
        let mut const_off: i64 = 0;
        let mut dyn_off: Option<String> = None;
        let mut layout = self.ptr_layout.get(&base_id).copied();
        for (n, idx) in indices.into_iter().enumerate() {
            let step = match (ptr_chain && n == 0, base_ty) {
                (true, Some(pt)) => Some((self.ptr_element_stride(pt, rule)?, cur)),
                _ if matches!(self.m.ty(cur)?, Type::Struct { .. }) => None,
                _ => Some(self.chain_step(cur, rule, &mut layout)?),
            };
            match step {
                None => {
                    let member = self.m.const_u32(idx)?;
                    const_off = const_off.wrapping_add(self.m.member_offset(cur, member, rule)? as i64);
                    layout = self.m.member_matrix_layout(cur, member, rule)?.map(PtrLayout::Matrix);
                    cur = self.m.element_type(cur, member)?;
                }
                Some((stride, elem)) => {
                    if let Some(c) = self.m.consts.get(&idx) {
                        let (w, _, _) = self.m.scalar_kind(c.ty)?;
                        let v = self.m.const_u64(idx)?;
                        // Indices are signed: sign-extend from their width.
                        let v = if w >= 64 { v as i64 } else { ((v << (64 - w)) as i64) >> (64 - w) };
                        const_off = const_off.wrapping_add(v.wrapping_mul(stride));
                    } else {
                        let i = self.index_i32(idx)?;
                        let scaled = if stride == 1 { i } else { self.def(format!("mul i32 {i}, {stride}")) };
                        dyn_off = Some(match dyn_off {
                            Some(d) => self.def(format!("add i32 {d}, {scaled}")),
                            None => scaled,
                        });
                    }
                    cur = elem;
                }
            }
        }
        if let Some(l) = layout {
            self.ptr_layout.insert(result, l);
        }
        let off = match (dyn_off, const_off as i32) {
            (None, 0) => None,
            (None, c) => Some(c.to_string()),
            (Some(d), 0) => Some(d),
            (Some(d), c) => Some(self.def(format!("add i32 {d}, {c}"))),
        };
        let text = match off {
            None => base,
            Some(o) => {
                let t = format!("%v{result}");
                self.emit(format!("{t} = getelementptr i8, {} {base}, i32 {o}", ptr_ty(asp)));
                t
            }
        };
        self.set(result, rty, text);
        Ok(())
    }

    fn is_volatile(inst: &dr::Instruction, at: usize) -> bool {
        matches!(inst.operands.get(at), Some(dr::Operand::MemoryAccess(a)) if a.contains(spirv::MemoryAccess::VOLATILE))
    }

    // ---- instructions -------------------------------------------------------------------

    fn lower_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        use Op::*;
        let op = inst.class.opcode;
        match op {
            Nop | Line | NoLine | SelectionMerge | LoopMerge | LifetimeStart | LifetimeStop => {}
            Label | Function | FunctionEnd | FunctionParameter => return Err(inst.bad("misplaced")),
            Variable => {
                let (result, rty) = (inst.result()?, inst.rtype()?);
                let (storage, pointee) = self.m.pointer(rty)?;
                if storage != StorageClass::Function {
                    return Err(inst.bad("variable in a function body must have Function storage"));
                }
                let (size, align) = self.m.size_align(pointee, Rule::Natural)?;
                if size > 1 << 24 {
                    return Err(CompileError::unsupported(format!("{size}-byte Function variable")));
                }
                // Allocas go to the entry block (the prologue) so LLVM treats them as static.
                let name = format!("%v{result}");
                self.prologue.push(format!(
                    "{name} = alloca [{} x i8], align {}, addrspace(5)",
                    size.max(1),
                    align.max(4)
                ));
                self.set(result, rty, name.clone());
                if inst.operands.len() > 1 {
                    let init = self.val(inst.id(1)?)?;
                    let blocks = std::mem::take(&mut self.blocks);
                    let r = self.store_typed(&name, 5, Rule::Natural, pointee, &init.text, false);
                    self.blocks = blocks;
                    r?;
                }
            }
            AccessChain | InBoundsAccessChain => self.access_chain(inst, false)?,
            PtrAccessChain | InBoundsPtrAccessChain => self.access_chain(inst, true)?,
            Load => {
                let (result, rty) = (inst.result()?, inst.rtype()?);
                let p = self.val(inst.id(0)?)?;
                let (asp, rule, _) = self.pointer_info(&p)?;
                let v = self.load_via(inst.id(0)?, &p.text, asp, rule, rty, Self::is_volatile(inst, 1))?;
                self.set(result, rty, v);
            }
            Store => {
                // A pointer stored and loaded back is a variable pointer too.
                self.check_variable_pointers(&[inst.id(1)?])?;
                let p = self.val(inst.id(0)?)?;
                let v = self.val(inst.id(1)?)?;
                let (asp, rule, pointee) = self.pointer_info(&p)?;
                self.store_via(inst.id(0)?, &p.text, asp, rule, pointee, &v.text, Self::is_volatile(inst, 2))?;
            }
            CopyMemory => {
                let (dst, src) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let (dasp, drule, pointee) = self.pointer_info(&dst)?;
                let (sasp, srule, _) = self.pointer_info(&src)?;
                let v = self.load_via(inst.id(1)?, &src.text, sasp, srule, pointee, false)?;
                self.store_via(inst.id(0)?, &dst.text, dasp, drule, pointee, &v, false)?;
            }
            ArrayLength => self.array_length(inst)?,
            CopyObject | CopyLogical => {
                let v = self.val(inst.id(0)?)?;
                self.set(inst.result()?, inst.rtype()?, v.text);
                // A copied pointer keeps what is known about the memory it points to.
                if let Some(l) = self.ptr_layout.get(&inst.id(0)?).copied() {
                    self.ptr_layout.insert(inst.result()?, l);
                }
                if let Some(d) = self.buffer_desc.get(&inst.id(0)?).cloned() {
                    self.buffer_desc.insert(inst.result()?, d);
                }
            }
            Undef => {
                let ty = inst.rtype()?;
                if let Some(z) = self.m.undef(ty)? {
                    let text = self.m.render(ty, &z)?;
                    self.set(inst.result()?, ty, text);
                }
            }
            Phi => {
                let mut incoming = Vec::new();
                let mut i = 0;
                while i + 1 < inst.operands.len() {
                    incoming.push((inst.id(i)?, inst.id(i + 1)?));
                    i += 2;
                }
                let (result, ty) = (inst.result()?, inst.rtype()?);
                let block = self.blocks.last_mut().ok_or_else(|| inst.bad("outside a block"))?;
                block.phis.push(PendingPhi { result, ty, incoming });
                self.set(result, ty, format!("%v{result}"));
            }
            Branch => self.emit(format!("br label %b{}", inst.id(0)?)),
            BranchConditional => {
                let c = self.val(inst.id(0)?)?;
                self.emit(format!("br i1 {}, label %b{}, label %b{}", c.text, inst.id(1)?, inst.id(2)?));
            }
            Switch => {
                let sel = self.val(inst.id(0)?)?;
                let t = self.m.llty(sel.ty)?;
                let mut cases = Vec::new();
                let mut seen = HashSet::new();
                let mut i = 2;
                while i + 1 < inst.operands.len() {
                    let lit = switch_literal(inst, i)?;
                    if seen.insert(lit) {
                        let (w, _, _) = self.m.scalar_kind(sel.ty)?;
                        let v = if w >= 64 { lit as i64 } else { ((lit << (64 - w)) as i64) >> (64 - w) };
                        cases.push(format!("{t} {v}, label %b{}", inst.id(i + 1)?));
                    }
                    i += 2;
                }
                self.emit(format!("switch {t} {}, label %b{} [ {} ]", sel.text, inst.id(1)?, cases.join(" ")));
            }
            Return => self.emit("ret void".into()),
            ReturnValue => {
                self.check_variable_pointers(&[inst.id(0)?])?;
                let v = self.val(inst.id(0)?)?;
                let t = self.typed(&v)?;
                self.emit(format!("ret {t}"));
            }
            Unreachable => self.emit("unreachable".into()),
            FunctionCall => {
                let callee = inst.id(0)?;
                let f = self.m.functions.get(&callee).ok_or_else(|| inst.bad("callee is not a function"))?;
                let def = f.def.as_ref().ok_or_else(|| inst.bad("callee has no OpFunction"))?;
                let ret_ty = def.rtype()?;
                let mut args = vec!["ptr addrspace(4) %kernarg".to_string()];
                for g in &self.hidden {
                    args.push(format!("ptr addrspace(5) %g{g}"));
                }
                self.check_variable_pointers(&inst.ids_from(1)?)?;
                for a in inst.ids_from(1)? {
                    let v = self.val(a)?;
                    args.push(self.typed(&v)?);
                }
                let call =
                    format!("call {} @{}({})", self.m.llty(ret_ty)?, function_symbol(self.m, callee), args.join(", "));
                if matches!(self.m.ty(ret_ty)?, Type::Void) {
                    self.emit(call);
                } else {
                    let result = inst.result()?;
                    self.emit(format!("%v{result} = {call}"));
                    self.set(result, ret_ty, format!("%v{result}"));
                }
            }
            ControlBarrier => {
                let exec = self.m.const_u64(inst.id(0)?)?;
                let mem = self.m.const_u64(inst.id(1)?)?;
                let sem = self.m.const_u64(inst.id(2)?)?;
                let scope = if sem & SEMANTICS_STORAGE != 0 { sync_scope(mem)? } else { None };
                if let Some(s) = scope {
                    self.emit(fence(s, "release"));
                }
                match exec {
                    2 => {
                        self.call_intrinsic("void", "llvm.amdgcn.s.barrier", &[]);
                    }
                    3 => {
                        self.call_intrinsic("void", "llvm.amdgcn.wave.barrier", &[]);
                    }
                    4 => {}
                    other => {
                        return Err(CompileError::unsupported(format!("OpControlBarrier with execution scope {other}")))
                    }
                }
                if let Some(s) = scope {
                    self.emit(fence(s, "acquire"));
                }
            }
            MemoryBarrier => {
                let mem = self.m.const_u64(inst.id(0)?)?;
                let sem = self.m.const_u64(inst.id(1)?)?;
                if sem & SEMANTICS_STORAGE != 0 {
                    if let Some(s) = sync_scope(mem)? {
                        let order = if sem & SEMANTICS_SEQ_CST != 0 {
                            "seq_cst"
                        } else if sem & 0xe == 0x2 {
                            "acquire"
                        } else if sem & 0xe == 0x4 {
                            "release"
                        } else {
                            "acq_rel"
                        };
                        self.emit(fence(s, order));
                    }
                }
            }
            _ if super::subgroup::is_subgroup_op(op) => self.subgroup_inst(inst)?,
            _ if Self::is_image_op(op) => self.image_inst(inst)?,
            AtomicLoad
            | AtomicStore
            | AtomicExchange
            | AtomicCompareExchange
            | AtomicCompareExchangeWeak
            | AtomicIIncrement
            | AtomicIDecrement
            | AtomicIAdd
            | AtomicISub
            | AtomicSMin
            | AtomicUMin
            | AtomicSMax
            | AtomicUMax
            | AtomicAnd
            | AtomicOr
            | AtomicXor
            | AtomicFAddEXT
            | AtomicFMinEXT
            | AtomicFMaxEXT => self.atomic(inst)?,
            ExtInst => {
                let set = inst.id(0)?;
                match self.m.ext_sets.get(&set) {
                    Some(ExtSet::NonSemantic) => {}
                    Some(ExtSet::Glsl) => self.glsl(inst)?,
                    None => return Err(inst.bad("unknown extended instruction set")),
                }
            }
            _ => self.lower_value_inst(inst)?,
        }
        Ok(())
    }

    fn array_length(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let (result, rty) = (inst.result()?, inst.rtype()?);
        let ptr_id = inst.id(0)?;
        let member = inst.lit(1)?;
        let desc =
            self.buffer_desc.get(&ptr_id).cloned().ok_or_else(|| {
                CompileError::unsupported("OpArrayLength on a pointer that is not a whole buffer block")
            })?;
        let p = self.val(ptr_id)?;
        let (_, rule, pointee) = self.pointer_info(&p)?;
        let off = self.m.member_offset(pointee, member, rule)?;
        let arr = self.m.element_type(pointee, member)?;
        let stride = self.m.stride(arr, rule)?.max(1);
        // num_records (V# dword 2) is the buffer range in bytes.
        let nr_ptr = self.def(format!("getelementptr i8, ptr addrspace(4) {desc}, i32 8"));
        let nr = self.def(format!("load i32, ptr addrspace(4) {nr_ptr}, align 4, !invariant.load {MD_INVARIANT}"));
        let rest = self.call_intrinsic("i32", "llvm.usub.sat.i32", &[format!("i32 {nr}"), format!("i32 {off}")]);
        let t = format!("%v{result}");
        self.emit(format!("{t} = udiv i32 {rest}, {stride}"));
        self.set(result, rty, t);
        Ok(())
    }

    /// Arithmetic, logic, comparison, conversion and composite instructions.
    fn lower_value_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        use Op::*;
        let op = inst.class.opcode;
        if let Some(llop) = binary_op(op) {
            let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
            let t = self.m.llty(a.ty)?;
            let flags =
                if llop.starts_with('f') && !self.m.deco_no_contraction(inst.result_id) { " contract" } else { "" };
            let fpmath = if op == FDiv { format!(", !fpmath {MD_FPMATH}") } else { std::string::String::new() };
            return self.define(inst, format!("{llop}{flags} {t} {}, {}{fpmath}", a.text, b.text));
        }
        if let Some(pred) = compare_op(op) {
            let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
            let t = self.m.llty(a.ty)?;
            return self.define(inst, format!("{pred} {t} {}, {}", a.text, b.text));
        }
        match op {
            UDiv | SDiv | UMod | SRem | SMod => self.int_division(inst),
            FMod => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let t = self.m.llty(a.ty)?;
                let zero = self.splat_const(a.ty, "0.0")?;
                // frem takes the dividend's sign; FMod wants the divisor's.
                let r = self.def(format!("frem {t} {}, {}", a.text, b.text));
                let nz = self.def(format!("fcmp one {t} {r}, {zero}"));
                let rneg = self.def(format!("fcmp olt {t} {r}, {zero}"));
                let bneg = self.def(format!("fcmp olt {t} {}, {zero}", b.text));
                let differ = self.def(format!("xor {} {rneg}, {bneg}", bool_ty(&t)));
                let fix = self.def(format!("and {} {nz}, {differ}", bool_ty(&t)));
                let adj = self.def(format!("fadd {t} {r}, {}", b.text));
                self.define(inst, format!("select {} {fix}, {t} {adj}, {t} {r}", bool_ty(&t)))
            }
            ShiftLeftLogical | ShiftRightLogical | ShiftRightArithmetic => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let t = self.m.llty(a.ty)?;
                let (w, _, _) = self.m.scalar_kind(a.ty)?;
                let (bw, _, _) = self.m.scalar_kind(b.ty)?;
                let mut amount = b.text.clone();
                if bw != w {
                    let bt = self.m.llty(b.ty)?;
                    let conv = if bw > w { "trunc" } else { "zext" };
                    amount = self.def(format!("{conv} {bt} {amount} to {t}"));
                }
                // Over-wide shifts are undefined in SPIR-V but poison in LLVM: mask like the hardware.
                let m = self.splat_const(a.ty, &(w - 1).to_string())?;
                let masked = self.def(format!("and {t} {amount}, {m}"));
                let llop = match op {
                    ShiftLeftLogical => "shl",
                    ShiftRightLogical => "lshr",
                    _ => "ashr",
                };
                self.define(inst, format!("{llop} {t} {}, {masked}", a.text))
            }
            Not => {
                let a = self.val(inst.id(0)?)?;
                let ones = self.splat_const(a.ty, "-1")?;
                self.define(inst, format!("xor {} {}, {ones}", self.m.llty(a.ty)?, a.text))
            }
            LogicalNot => {
                let a = self.val(inst.id(0)?)?;
                let t = self.splat_const(a.ty, "true")?;
                self.define(inst, format!("xor {} {}, {t}", self.m.llty(a.ty)?, a.text))
            }
            SNegate => {
                let a = self.val(inst.id(0)?)?;
                self.define(inst, format!("sub {} zeroinitializer, {}", self.m.llty(a.ty)?, a.text))
            }
            FNegate => {
                let a = self.val(inst.id(0)?)?;
                let r = self.def(format!("fneg {} {}", self.m.llty(a.ty)?, a.text));
                let r = self.flush_denormals(a.ty, r)?;
                self.alias(inst, r)
            }
            Select => {
                self.check_variable_pointers(&[inst.id(1)?, inst.id(2)?])?;
                let (c, a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?, self.val(inst.id(2)?)?);
                let (ct, at) = (self.typed(&c)?, self.m.llty(a.ty)?);
                self.define(inst, format!("select {ct}, {at} {}, {at} {}", a.text, b.text))
            }
            IsNan => {
                let a = self.val(inst.id(0)?)?;
                self.define(inst, format!("fcmp uno {} {}, {}", self.m.llty(a.ty)?, a.text, a.text))
            }
            IsInf => {
                let a = self.val(inst.id(0)?)?;
                let t = self.m.llty(a.ty)?;
                let abs = self.call_intrinsic(&t, &format!("llvm.fabs.{}", intrinsic_suffix(&t)), &[self.typed(&a)?]);
                let (w, _, _) = self.m.scalar_kind(a.ty)?;
                let inf = self.splat_const(
                    a.ty,
                    &float_literal(
                        w,
                        if w == 16 {
                            0x7c00
                        } else if w == 32 {
                            0x7f80_0000
                        } else {
                            0x7ff0 << 48
                        },
                    ),
                )?;
                self.define(inst, format!("fcmp oeq {t} {abs}, {inf}"))
            }
            Any | All => {
                let a = self.val(inst.id(0)?)?;
                let t = self.m.llty(a.ty)?;
                if !t.starts_with('<') {
                    return self.alias(inst, a.text);
                }
                let which = if op == Any { "or" } else { "and" };
                let r = self.call_intrinsic(
                    "i1",
                    &format!("llvm.vector.reduce.{which}.{}", intrinsic_suffix(&t)),
                    &[self.typed(&a)?],
                );
                self.alias(inst, r)
            }
            Dot => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let t = self.m.llty(a.ty)?;
                let rt = self.m.llty(inst.rtype()?)?;
                let prod = self.def(format!("fmul contract {t} {}, {}", a.text, b.text));
                let r = self.call_intrinsic(
                    &rt,
                    &format!("llvm.vector.reduce.fadd.{}", intrinsic_suffix(&t)),
                    &[format!("{rt} -0.0"), format!("{t} {prod}")],
                );
                self.alias(inst, r)
            }
            VectorTimesScalar => {
                let (v, s) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let t = self.m.llty(v.ty)?;
                let splat = self.splat(v.ty, &s)?;
                self.define(inst, format!("fmul contract {t} {}, {splat}", v.text))
            }
            BitCount | BitReverse => self.bit_count_reverse(inst),
            IAddCarry | ISubBorrow | UMulExtended | SMulExtended => self.extended_arith(inst),
            BitFieldInsert | BitFieldSExtract | BitFieldUExtract => self.bit_field(inst),
            SDot | UDot | SUDot | SDotAccSat | UDotAccSat | SUDotAccSat => self.integer_dot(inst),
            ConvertFToU | ConvertFToS => {
                let a = self.val(inst.id(0)?)?;
                let (ft, rt) = (self.m.llty(a.ty)?, self.m.llty(inst.rtype()?)?);
                // Saturating: out-of-range conversions are undefined in SPIR-V but poison in
                // LLVM; saturation is also what v_cvt_*_f32 does.
                let name = if op == ConvertFToU { "fptoui" } else { "fptosi" };
                let r = self.call_intrinsic(
                    &rt,
                    &format!("llvm.{name}.sat.{}.{}", intrinsic_suffix(&rt), intrinsic_suffix(&ft)),
                    &[self.typed(&a)?],
                );
                self.alias(inst, r)
            }
            ConvertSToF | ConvertUToF => {
                let a = self.val(inst.id(0)?)?;
                let llop = if op == ConvertSToF { "sitofp" } else { "uitofp" };
                self.convert(inst, &a, llop)
            }
            UConvert | SConvert | FConvert => {
                let a = self.val(inst.id(0)?)?;
                let (w, _, _) = self.m.scalar_kind(a.ty)?;
                let (rw, _, _) = self.m.scalar_kind(inst.rtype()?)?;
                if op == FConvert && rw < w {
                    return self.fptrunc_rounded(inst, &a);
                }
                let llop = match (op, rw.cmp(&w)) {
                    (_, std::cmp::Ordering::Equal) => return self.alias(inst, a.text),
                    (UConvert, std::cmp::Ordering::Greater) => "zext",
                    (SConvert, std::cmp::Ordering::Greater) => "sext",
                    (FConvert, std::cmp::Ordering::Greater) => {
                        // A denormal source flushes by its own width's mode; the wider
                        // result of a normal source cannot be denormal.
                        let text = self.flush_denormals(a.ty, a.text.clone())?;
                        return self.convert(inst, &Val { ty: a.ty, text }, "fpext");
                    }
                    _ => "trunc",
                };
                self.convert(inst, &a, llop)
            }
            Bitcast => {
                let a = self.val(inst.id(0)?)?;
                let rty = inst.rtype()?;
                if matches!(self.m.ty(rty)?, Type::Pointer { .. }) || matches!(self.m.ty(a.ty)?, Type::Pointer { .. }) {
                    return self.bitcast_pointer(inst, &a);
                }
                if self.m.llty(a.ty)? == self.m.llty(rty)? {
                    return self.alias(inst, a.text);
                }
                let narrow = self.m.llty(rty)?;
                if narrow.starts_with('<')
                    && (narrow.contains("x half>") || narrow.contains("x i16>") || narrow.contains("x i8>"))
                {
                    // InstCombine folds such a bitcast of a loaded value into the load (a
                    // `<3 x i32>` buffer load becomes `<6 x half>`), a type LLVM 19's
                    // AMDGPU backend cannot widen ("Do not know how to widen"); a freeze
                    // between them keeps the load as it was.
                    let t = self.m.llty(a.ty)?;
                    let text = self.def(format!("freeze {t} {}", a.text));
                    return self.convert(inst, &Val { ty: a.ty, text }, "bitcast");
                }
                self.convert(inst, &a, "bitcast")
            }
            CompositeConstruct => self.composite_construct(inst),
            CompositeExtract => self.composite_extract(inst),
            CompositeInsert => self.composite_insert(inst),
            VectorShuffle => self.vector_shuffle(inst),
            VectorExtractDynamic => {
                let (v, i) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let e = self.def(format!("extractelement {}, {}", self.typed(&v)?, self.typed(&i)?));
                // An out-of-range index gives poison in LLVM: freeze it to some value.
                self.define(inst, format!("freeze {} {e}", self.m.llty(inst.rtype()?)?))
            }
            VectorInsertDynamic => {
                let (v, c, i) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?, self.val(inst.id(2)?)?);
                let t = self.m.llty(v.ty)?;
                let e = self.def(format!("insertelement {t} {}, {}, {}", v.text, self.typed(&c)?, self.typed(&i)?));
                self.define(inst, format!("freeze {t} {e}"))
            }
            ConvertUToPtr | ConvertPtrToU | PtrEqual | PtrNotEqual | PtrDiff | QuantizeToF16 | MatrixTimesScalar
            | MatrixTimesVector | VectorTimesMatrix | MatrixTimesMatrix | OuterProduct | Transpose => {
                self.lower_memory_inst(inst)
            }
            _ => Err(CompileError::unsupported(inst.name())),
        }
    }

    /// Emits `%vR = rhs` for the instruction's result.
    pub fn define(&mut self, inst: &dr::Instruction, rhs: String) -> Result<(), CompileError> {
        let (result, rty) = (inst.result()?, inst.rtype()?);
        let t = format!("%v{result}");
        self.emit(format!("{t} = {rhs}"));
        self.set(result, rty, t);
        Ok(())
    }

    /// Makes the instruction's result an existing value.
    pub fn alias(&mut self, inst: &dr::Instruction, text: String) -> Result<(), CompileError> {
        self.set(inst.result()?, inst.rtype()?, text);
        Ok(())
    }

    /// A narrowing OpFConvert under its `FPRoundingMode` decoration. RTE (and none) is
    /// `fptrunc`. RTZ, which LLVM 19 cannot select on gfx11 (`llvm.fptrunc.round` with
    /// "round.towardzero": "Cannot select"), is `fptrunc` stepped one unit toward zero where
    /// it rounded away: when the result, widened back (exactly), has a larger magnitude
    /// than the source, the result's bit pattern less one is the neighbour toward zero
    /// (overflow to infinity becomes the largest finite value; NaN and exact results stay).
    fn fptrunc_rounded(&mut self, inst: &dr::Instruction, a: &Val) -> Result<(), CompileError> {
        use spirv::FPRoundingMode as M;
        let rty = inst.rtype()?;
        match self.m.deco.fp_rounding.get(&inst.result()?).copied() {
            None | Some(M::RTE) => {
                let r = self.def(format!("fptrunc {} to {}", self.typed(a)?, self.m.llty(rty)?));
                let r = self.flush_denormals(rty, r)?;
                return self.alias(inst, r);
            }
            Some(M::RTZ) => {}
            Some(m) => return Err(CompileError::unsupported(format!("OpFConvert with FPRoundingMode {m:?}"))),
        }
        let (st, dt) = (self.m.llty(a.ty)?, self.m.llty(rty)?);
        let it = dt.replace("half", "i16").replace("float", "i32");
        let one = match dt.strip_prefix('<').and_then(|s| s.split_once(" x ")) {
            Some((n, e)) => {
                let e = if e.starts_with("half") { "i16" } else { "i32" };
                let n: usize = n.parse().map_err(|_| inst.bad("vector width"))?;
                format!("<{}>", vec![format!("{e} 1"); n].join(", "))
            }
            None => "1".into(),
        };
        let near = self.def(format!("fptrunc {st} {} to {dt}", a.text));
        let back = self.def(format!("fpext {dt} {near} to {st}"));
        let sfx = intrinsic_suffix(&st);
        let back_abs = self.call_intrinsic(&st, &format!("llvm.fabs.{sfx}"), &[format!("{st} {back}")]);
        let src_abs = self.call_intrinsic(&st, &format!("llvm.fabs.{sfx}"), &[format!("{st} {}", a.text)]);
        let away = self.def(format!("fcmp ogt {st} {back_abs}, {src_abs}"));
        let bits = self.def(format!("bitcast {dt} {near} to {it}"));
        let less = self.def(format!("sub {it} {bits}, {one}"));
        let toward = self.def(format!("bitcast {it} {less} to {dt}"));
        let r = self.def(format!("select {} {away}, {dt} {toward}, {dt} {near}", bool_ty(&dt)));
        let r = self.flush_denormals(rty, r)?;
        self.alias(inst, r)
    }

    fn convert(&mut self, inst: &dr::Instruction, a: &Val, llop: &str) -> Result<(), CompileError> {
        let rt = self.m.llty(inst.rtype()?)?;
        self.define(inst, format!("{llop} {} to {rt}", self.typed(a)?))
    }

    /// Integer division and remainder with a safe divisor: division by zero (and
    /// INT_MIN / -1) is undefined in SPIR-V but immediate UB in LLVM.
    fn int_division(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let op = inst.class.opcode;
        let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
        let t = self.m.llty(a.ty)?;
        let bt = bool_ty(&t);
        let (w, _, _) = self.m.scalar_kind(a.ty)?;
        let zero = self.splat_const(a.ty, "0")?;
        let one = self.splat_const(a.ty, "1")?;
        let mut bad = self.def(format!("icmp eq {t} {}, {zero}", b.text));
        let signed = matches!(op, Op::SDiv | Op::SRem | Op::SMod);
        if signed {
            let min = self.splat_const(a.ty, &(i64::MIN >> (64 - w)).to_string())?;
            let m1 = self.splat_const(a.ty, "-1")?;
            let is_min = self.def(format!("icmp eq {t} {}, {min}", a.text));
            let is_m1 = self.def(format!("icmp eq {t} {}, {m1}", b.text));
            let ovf = self.def(format!("and {bt} {is_min}, {is_m1}"));
            bad = self.def(format!("or {bt} {bad}, {ovf}"));
        }
        let d = self.def(format!("select {bt} {bad}, {t} {one}, {t} {}", b.text));
        match op {
            Op::UDiv => self.define(inst, format!("udiv {t} {}, {d}", a.text)),
            Op::SDiv => self.define(inst, format!("sdiv {t} {}, {d}", a.text)),
            Op::UMod => self.define(inst, format!("urem {t} {}, {d}", a.text)),
            Op::SRem => self.define(inst, format!("srem {t} {}, {d}", a.text)),
            _ => {
                // SMod takes the divisor's sign: adjust a non-zero remainder of the other sign.
                let r = self.def(format!("srem {t} {}, {d}", a.text));
                let x = self.def(format!("xor {t} {r}, {d}"));
                let neg = self.def(format!("icmp slt {t} {x}, {zero}"));
                let nz = self.def(format!("icmp ne {t} {r}, {zero}"));
                let fix = self.def(format!("and {bt} {neg}, {nz}"));
                let adj = self.def(format!("add {t} {r}, {d}"));
                self.define(inst, format!("select {bt} {fix}, {t} {adj}, {t} {r}"))
            }
        }
    }

    fn composite_construct(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let rty = inst.rtype()?;
        let t = self.m.llty(rty)?;
        let parts = inst.ids_from(0)?;
        match self.m.ty(rty)?.clone() {
            Type::Vector { elem, count } => {
                let et = self.m.llty(elem)?;
                let mut scalars = Vec::new();
                for p in parts {
                    let v = self.val(p)?;
                    match self.m.ty(v.ty)?.clone() {
                        Type::Vector { count: n, .. } => {
                            let vt = self.m.llty(v.ty)?;
                            for i in 0..n {
                                scalars.push(self.def(format!("extractelement {vt} {}, i32 {i}", v.text)));
                            }
                        }
                        _ => scalars.push(v.text),
                    }
                }
                if scalars.len() != count as usize {
                    return Err(inst.bad(&format!("{} components for a {count}-component vector", scalars.len())));
                }
                let mut acc = "poison".to_string();
                for (i, s) in scalars.iter().enumerate() {
                    acc = self.def(format!("insertelement {t} {acc}, {et} {s}, i32 {i}"));
                }
                self.alias(inst, acc)
            }
            Type::Array { .. } | Type::Struct { .. } | Type::Matrix { .. } => {
                let mut acc = "poison".to_string();
                for (i, p) in parts.iter().enumerate() {
                    let v = self.val(*p)?;
                    acc = self.def(format!("insertvalue {t} {acc}, {}, {i}", self.typed(&v)?));
                }
                self.alias(inst, acc)
            }
            _ => Err(inst.bad("result type is not a composite")),
        }
    }

    /// Splits a literal index path into the aggregate part and a final vector index.
    fn index_path(&self, mut ty: Id, path: &[u32]) -> Result<IndexPath, CompileError> {
        let mut agg = Vec::new();
        for (n, &i) in path.iter().enumerate() {
            if let Type::Vector { count, .. } = self.m.ty(ty)? {
                if n + 1 != path.len() || i >= *count {
                    return Err(CompileError::invalid(format!("bad vector index {i} in a composite index path")));
                }
                return Ok((agg, Some((ty, i))));
            }
            self.m.element_type(ty, i)?;
            if matches!(self.m.ty(ty)?, Type::RuntimeArray { .. }) {
                return Err(CompileError::invalid("composite index into a runtime array"));
            }
            agg.push(i);
            ty = self.m.element_type(ty, i)?;
        }
        Ok((agg, None))
    }

    fn composite_extract(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let c = self.val(inst.id(0)?)?;
        let path = inst.lits_from(1)?;
        let (agg, vec) = self.index_path(c.ty, &path)?;
        let mut cur = c.text.clone();
        let ct = self.m.llty(c.ty)?;
        if !agg.is_empty() {
            let idx: Vec<String> = agg.iter().map(u32::to_string).collect();
            cur = self.def(format!("extractvalue {ct} {cur}, {}", idx.join(", ")));
        }
        if let Some((vty, i)) = vec {
            cur = self.def(format!("extractelement {} {cur}, i32 {i}", self.m.llty(vty)?));
        }
        self.alias(inst, cur)
    }

    fn composite_insert(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let (obj, c) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
        let path = inst.lits_from(2)?;
        let (agg, vec) = self.index_path(c.ty, &path)?;
        let ct = self.m.llty(c.ty)?;
        let idx: Vec<String> = agg.iter().map(u32::to_string).collect();
        let result = match vec {
            None if agg.is_empty() => obj.text,
            None => self.def(format!("insertvalue {ct} {}, {}, {}", c.text, self.typed(&obj)?, idx.join(", "))),
            Some((vty, i)) => {
                let vt = self.m.llty(vty)?;
                let v = if agg.is_empty() {
                    c.text.clone()
                } else {
                    self.def(format!("extractvalue {ct} {}, {}", c.text, idx.join(", ")))
                };
                let v2 = self.def(format!("insertelement {vt} {v}, {}, i32 {i}", self.typed(&obj)?));
                if agg.is_empty() {
                    v2
                } else {
                    self.def(format!("insertvalue {ct} {}, {vt} {v2}, {}", c.text, idx.join(", ")))
                }
            }
        };
        self.alias(inst, result)
    }

    fn vector_shuffle(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
        let comps = inst.lits_from(2)?;
        let (Type::Vector { count: n, elem }, Type::Vector { count: k, .. }) =
            (self.m.ty(a.ty)?.clone(), self.m.ty(b.ty)?.clone())
        else {
            return Err(inst.bad("operands are not vectors"));
        };
        let et = self.m.llty(elem)?;
        // LLVM shuffles two vectors of one type: widen the shorter one first.
        let w = n.max(k);
        let widen = |this: &mut Self, v: &Val, len: u32| -> String {
            if len == w {
                return v.text.clone();
            }
            let mask: Vec<String> = (0..w).map(|i| format!("i32 {}", if i < len { i } else { 0 })).collect();
            this.def(format!(
                "shufflevector <{len} x {et}> {}, <{len} x {et}> poison, <{w} x i32> <{}>",
                v.text,
                mask.join(", ")
            ))
        };
        let (wa, wb) = (widen(self, &a, n), widen(self, &b, k));
        let mut mask = Vec::new();
        for c in &comps {
            let i = if *c == u32::MAX {
                0 // "undefined" component: any lane will do
            } else if *c < n {
                *c
            } else if *c - n < k {
                *c - n + w
            } else {
                return Err(inst.bad(&format!("component {c} out of range")));
            };
            mask.push(format!("i32 {i}"));
        }
        self.define(
            inst,
            format!(
                "shufflevector <{w} x {et}> {wa}, <{w} x {et}> {wb}, <{} x i32> <{}>",
                comps.len(),
                mask.join(", ")
            ),
        )
    }
}

/// The type part of a `TYPE VALUE` operand, where the value may itself contain spaces
/// (`<2 x i32> <i32 1, i32 2>`).
fn operand_type(arg: &str) -> &str {
    let end = match arg.chars().next() {
        Some(open @ ('<' | '[' | '{')) => {
            let close = match open {
                '<' => '>',
                '[' => ']',
                _ => '}',
            };
            let mut depth = 0;
            arg.char_indices()
                .find_map(|(i, c)| {
                    if c == open {
                        depth += 1;
                    } else if c == close {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i + 1);
                        }
                    }
                    None
                })
                .unwrap_or(arg.len())
        }
        _ if arg.starts_with("ptr addrspace(") => arg.find(')').map_or(arg.len(), |i| i + 1),
        _ => arg.find(' ').unwrap_or(arg.len()),
    };
    &arg[..end]
}

/// Whether a constant is all zero bits (an `OpConstantNull` or a composite of zeros).
fn is_zero(v: &Value) -> bool {
    match v {
        Value::Scalar(s) => *s == 0,
        Value::Composite(parts) => parts.iter().all(is_zero),
    }
}

/// `fence` with a syncscope ("" is the system scope).
fn fence(scope: &str, order: &str) -> String {
    if scope.is_empty() {
        format!("fence {order}")
    } else {
        format!("fence syncscope(\"{scope}\") {order}")
    }
}

/// `i1` or `<N x i1>` matching the shape of LLVM type `t`.
pub(super) fn bool_ty(t: &str) -> String {
    match t.strip_prefix('<').and_then(|s| s.split_once(" x ")) {
        Some((n, _)) => format!("<{n} x i1>"),
        None => "i1".into(),
    }
}

/// The LLVM symbol of SPIR-V function `id`.
fn function_symbol(m: &Module, id: Id) -> String {
    let name = m.llvm_name(id);
    if name.is_empty() {
        format!("f{id}")
    } else {
        format!("f{id}_{name}")
    }
}

fn switch_literal(inst: &dr::Instruction, i: usize) -> Result<u64, CompileError> {
    match inst.operands.get(i) {
        Some(dr::Operand::LiteralBit32(v)) => Ok(u64::from(*v)),
        Some(dr::Operand::LiteralBit64(v)) => Ok(*v),
        _ => Err(inst.bad(&format!("operand {i} is not a case literal"))),
    }
}

/// LLVM binary instruction of a SPIR-V arithmetic or bitwise op.
fn binary_op(op: Op) -> Option<&'static str> {
    use Op::*;
    Some(match op {
        IAdd => "add",
        ISub => "sub",
        IMul => "mul",
        FAdd => "fadd",
        FSub => "fsub",
        FMul => "fmul",
        FDiv => "fdiv",
        FRem => "frem",
        BitwiseAnd | LogicalAnd => "and",
        BitwiseOr | LogicalOr => "or",
        BitwiseXor => "xor",
        _ => return None,
    })
}

/// LLVM comparison of a SPIR-V comparison op.
fn compare_op(op: Op) -> Option<&'static str> {
    use Op::*;
    Some(match op {
        IEqual | LogicalEqual => "icmp eq",
        INotEqual | LogicalNotEqual => "icmp ne",
        UGreaterThan => "icmp ugt",
        SGreaterThan => "icmp sgt",
        UGreaterThanEqual => "icmp uge",
        SGreaterThanEqual => "icmp sge",
        ULessThan => "icmp ult",
        SLessThan => "icmp slt",
        ULessThanEqual => "icmp ule",
        SLessThanEqual => "icmp sle",
        FOrdEqual => "fcmp oeq",
        FUnordEqual => "fcmp ueq",
        FOrdNotEqual => "fcmp one",
        FUnordNotEqual => "fcmp une",
        FOrdLessThan => "fcmp olt",
        FUnordLessThan => "fcmp ult",
        FOrdGreaterThan => "fcmp ogt",
        FUnordGreaterThan => "fcmp ugt",
        FOrdLessThanEqual => "fcmp ole",
        FUnordLessThanEqual => "fcmp ule",
        FOrdGreaterThanEqual => "fcmp oge",
        FUnordGreaterThanEqual => "fcmp uge",
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operand_type_splits_composite_constants() {
        assert_eq!(operand_type("i32 %x"), "i32");
        assert_eq!(operand_type("<2 x i32> <i32 -8, i32 8>"), "<2 x i32>");
        assert_eq!(operand_type("{ i32, <2 x float> } zeroinitializer"), "{ i32, <2 x float> }");
        assert_eq!(operand_type("ptr addrspace(7) %p"), "ptr addrspace(7)");
        assert_eq!(bool_ty("<4 x float>"), "<4 x i1>");
        assert_eq!(bool_ty("float"), "i1");
    }

    #[test]
    fn scopes_map_to_llvm_sync_scopes() {
        assert_eq!(sync_scope(2).unwrap(), Some("workgroup"));
        assert_eq!(sync_scope(1).unwrap(), Some("agent"));
        assert_eq!(sync_scope(4).unwrap(), None);
        assert!(sync_scope(99).is_err());
        assert_eq!(fence("", "acq_rel"), "fence acq_rel");
    }
}
