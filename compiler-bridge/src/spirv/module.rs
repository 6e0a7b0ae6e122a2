//! Module-level analysis: types, decorations, constants (specialised), global variables and
//! the entry point, indexed by id.

use std::collections::{BTreeMap, HashMap, HashSet};

use rspirv::dr;
use spirv::{BuiltIn, Capability, Decoration, Dim, ExecutionMode, ExecutionModel, Op, StorageClass};

use super::consts::{Const, Value};
use super::types::{align_up, Rule, Type};
use super::{Id, InstExt, SpecConstant};
use crate::{abi, CompileError};

/// Deepest type nesting accepted; bounds the recursion of layout and constant code.
const MAX_TYPE_DEPTH: u32 = 64;

/// Capabilities whose features the lowering handles (more come with later work).
const SUPPORTED_CAPABILITIES: &[Capability] = &[
    Capability::Shader,
    Capability::Matrix,
    Capability::Int64,
    Capability::Float64,
    Capability::Int8,
    Capability::Int16,
    Capability::Float16,
    Capability::StorageBuffer8BitAccess,
    Capability::UniformAndStorageBuffer8BitAccess,
    Capability::StoragePushConstant8,
    Capability::StorageBuffer16BitAccess,
    Capability::UniformAndStorageBuffer16BitAccess,
    Capability::StoragePushConstant16,
    Capability::PhysicalStorageBufferAddresses,
    // OpSelect / OpPhi of pointers, pointers as function arguments, OpPtrEqual.
    Capability::VariablePointersStorageBuffer,
    Capability::VariablePointers,
    // Subgroups: every GroupNonUniform category (spirv/subgroup.rs) but partitioned
    // operations, and the SPV_KHR_shader_ballot / SPV_KHR_subgroup_vote forms.
    Capability::GroupNonUniform,
    Capability::GroupNonUniformVote,
    Capability::GroupNonUniformArithmetic,
    Capability::GroupNonUniformBallot,
    Capability::GroupNonUniformShuffle,
    Capability::GroupNonUniformShuffleRelative,
    Capability::GroupNonUniformClustered,
    Capability::GroupNonUniformQuad,
    Capability::SubgroupBallotKHR,
    Capability::SubgroupVoteKHR,
    // Atomics (`atomic.rs`) and integer dot products (`arith.rs`).
    Capability::Int64Atomics,
    Capability::AtomicFloat32AddEXT,
    Capability::AtomicFloat64AddEXT,
    Capability::AtomicFloat32MinMaxEXT,
    Capability::AtomicFloat64MinMaxEXT,
    Capability::DotProduct,
    Capability::DotProductInputAll,
    Capability::DotProductInput4x8Bit,
    Capability::DotProductInput4x8BitPacked,
    // The Vulkan memory model (`OpMemoryModel Logical Vulkan`): scopes and semantics map to
    // LLVM syncscopes and orderings (func.rs `sync_scope`, atomic.rs `ordering`).
    Capability::VulkanMemoryModel,
    Capability::VulkanMemoryModelDeviceScope,
    // Float controls execution modes (`Module::float_modes`); which ones are honoured is
    // `crate::FLOAT_CONTROLS`.
    Capability::DenormPreserve,
    Capability::DenormFlushToZero,
    Capability::SignedZeroInfNanPreserve,
    Capability::RoundingModeRTE,
    // Texel buffers (`image.rs`): the format comes from the V#, so images without a format
    // work as well; image queries are only those of buffers.
    Capability::SampledBuffer,
    Capability::ImageBuffer,
    Capability::StorageImageReadWithoutFormat,
    Capability::StorageImageWriteWithoutFormat,
    Capability::ImageQuery,
    // Images and samplers (`mimg.rs`): every dimensionality compute can use, multisampled
    // 2D images and arrays too, gathers with any offsets, MinLod, formats the T# converts.
    Capability::StorageImageMultisample,
    Capability::ImageMSArray,
    // Vulkan 1.1 core: the DeviceIndex built-in (func.rs); a device group of one device.
    Capability::DeviceGroup,
    Capability::Image1D,
    Capability::Sampled1D,
    Capability::ImageCubeArray,
    Capability::SampledCubeArray,
    Capability::ImageGatherExtended,
    Capability::MinLod,
    Capability::StorageImageExtendedFormats,
    // VK_AMD_shader_image_load_store_lod: a Lod operand on reads and writes (`_mip`).
    Capability::ImageReadWriteLodAMD,
    Capability::SampledImageArrayDynamicIndexing,
    Capability::StorageImageArrayDynamicIndexing,
    Capability::SampledImageArrayNonUniformIndexing,
    Capability::StorageImageArrayNonUniformIndexing,
    Capability::UniformTexelBufferArrayNonUniformIndexing,
    Capability::StorageTexelBufferArrayNonUniformIndexing,
    // Arrays of texel buffers indexed at run time: the index picks the V# (a divergent one
    // is a waterfall loop, which LLVM makes of the buffer intrinsics).
    Capability::UniformTexelBufferArrayDynamicIndexing,
    Capability::StorageTexelBufferArrayDynamicIndexing,
    // Descriptor indexing (func.rs `desc_arrays`): arrays of buffer descriptors indexed by
    // any value, clamped to the binding; a divergent index makes a non-uniform V#, which the
    // AMDGPU backend handles with a readfirstlane waterfall loop.
    Capability::UniformBufferArrayDynamicIndexing,
    Capability::StorageBufferArrayDynamicIndexing,
    Capability::RuntimeDescriptorArray,
    Capability::ShaderNonUniform,
    Capability::UniformBufferArrayNonUniformIndexing,
    Capability::StorageBufferArrayNonUniformIndexing,
];

/// Float controls execution modes of the entry point (VK_KHR_shader_float_controls).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FloatModes {
    /// 32-bit denormals are flushed: the default, as RADV's (FLOAT_MODE 0xc0, see
    /// docs/VULKAN.md), unless the shader asks for `DenormPreserve`.
    pub flush32: bool,
    /// `DenormFlushToZero` for 16- and 64-bit floats: one MODE field governs both
    /// (denormBehaviorIndependence is 32-bit only); kept by default, as RADV does.
    pub flush16_64: bool,
    /// `DenormFlushToZero` for 32-bit floats was asked for.
    pub required32: bool,
}

impl FloatModes {
    /// Whether results of `width`-bit floats must be flushed (the shader asked for
    /// `DenormFlushToZero`); flushing by default, as RADV does, is a "may", which the MODE
    /// register's field alone gives.
    pub fn must_flush(&self, width: u32) -> bool {
        if width == 32 {
            self.required32
        } else {
            self.flush16_64
        }
    }
}

impl Default for FloatModes {
    fn default() -> FloatModes {
        FloatModes { flush32: true, flush16_64: false, required32: false }
    }
}

/// Extended instruction sets we know.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ExtSet {
    Glsl,
    /// `NonSemantic.*`: debug info and the like, ignored by definition.
    NonSemantic,
}

/// A module-scope `OpVariable`.
#[derive(Clone, Debug)]
pub(crate) struct Global {
    /// The variable's pointer type.
    pub ptr_ty: Id,
    pub storage: StorageClass,
    pub pointee: Id,
    pub init: Option<Id>,
}

/// The decorations lowering uses.
#[derive(Default, Debug)]
pub(crate) struct Decorations {
    pub builtin: HashMap<Id, BuiltIn>,
    pub set: HashMap<Id, u32>,
    pub binding: HashMap<Id, u32>,
    pub spec_id: HashMap<Id, u32>,
    pub array_stride: HashMap<Id, u32>,
    pub offsets: HashMap<(Id, u32), u32>,
    pub block: HashSet<Id>,
    pub buffer_block: HashSet<Id>,
    pub no_contraction: HashSet<Id>,
    /// `FPRoundingMode` of conversion results (RTE is what `fptrunc` does anyway).
    pub fp_rounding: HashMap<Id, spirv::FPRoundingMode>,
    /// `MatrixStride` of struct members.
    pub matrix_stride: HashMap<(Id, u32), u32>,
    /// Struct members decorated `RowMajor`.
    pub row_major: HashSet<(Id, u32)>,
}

pub(crate) struct Module<'a> {
    pub types: HashMap<Id, Type>,
    /// Nesting depth of each type (scalars are 1).
    depth: HashMap<Id, u32>,
    /// Types we do not lower, by the opcode that declared them; an error only when used.
    pub(super) unsupported_types: HashMap<Id, String>,
    pub consts: HashMap<Id, Const>,
    pub globals: BTreeMap<Id, Global>,
    pub deco: Decorations,
    pub functions: HashMap<Id, &'a dr::Function>,
    pub ext_sets: HashMap<Id, ExtSet>,
    pub names: HashMap<Id, String>,
    pub entry_fn: Id,
    pub workgroup_size: [u32; 3],
    pub float_modes: FloatModes,
    specialization: &'a [SpecConstant],
    /// Scalars all constants may still hold: bounds the memory a hostile module can make
    /// us spend on constant composites.
    const_budget: u64,
}

impl<'a> Module<'a> {
    pub fn new(m: &'a dr::Module, entry_point: &str, specialization: &'a [SpecConstant]) -> Result<Self, CompileError> {
        for inst in &m.capabilities {
            let cap = match inst.operands.first() {
                Some(dr::Operand::Capability(c)) => *c,
                _ => return Err(inst.bad("operand 0 is not a capability")),
            };
            if !SUPPORTED_CAPABILITIES.contains(&cap) {
                return Err(CompileError::unsupported(format!("capability {cap:?}")));
            }
        }
        if let Some(mm) = &m.memory_model {
            if let Some(dr::Operand::AddressingModel(am)) = mm.operands.first() {
                if !matches!(*am, spirv::AddressingModel::Logical | spirv::AddressingModel::PhysicalStorageBuffer64) {
                    return Err(CompileError::unsupported(format!("addressing model {am:?}")));
                }
            }
            // GLSL450 and Vulkan: scopes and semantics are explicit on every barrier and
            // atomic, and non-atomic accesses (NonPrivatePointer, MakePointerAvailable/
            // Visible) are ordinary LLVM accesses ordered by those fences and atomics, which
            // the AMDGPU memory model makes available/visible at their scope.
            if let Some(dr::Operand::MemoryModel(mm)) = mm.operands.get(1) {
                if !matches!(*mm, spirv::MemoryModel::GLSL450 | spirv::MemoryModel::Vulkan | spirv::MemoryModel::Simple)
                {
                    return Err(CompileError::unsupported(format!("memory model {mm:?}")));
                }
            }
        }
        let mut this = Module {
            types: HashMap::new(),
            depth: HashMap::new(),
            unsupported_types: HashMap::new(),
            consts: HashMap::new(),
            globals: BTreeMap::new(),
            deco: Decorations::default(),
            functions: HashMap::new(),
            ext_sets: HashMap::new(),
            names: HashMap::new(),
            entry_fn: 0,
            workgroup_size: [1, 1, 1],
            float_modes: FloatModes::default(),
            specialization,
            const_budget: 1 << 22,
        };
        for inst in &m.ext_inst_imports {
            let name = inst.string(0)?;
            let set = if name == "GLSL.std.450" {
                ExtSet::Glsl
            } else if name.starts_with("NonSemantic.") {
                ExtSet::NonSemantic
            } else {
                return Err(CompileError::unsupported(format!("extended instruction set \"{name}\"")));
            };
            this.ext_sets.insert(inst.result()?, set);
        }
        for inst in &m.debug_names {
            if inst.class.opcode == Op::Name {
                this.names.insert(inst.id(0)?, inst.string(1)?.to_owned());
            }
        }
        this.collect_decorations(m)?;
        for inst in &m.types_global_values {
            this.global_inst(inst)?;
        }
        for f in &m.functions {
            let def = f.def.as_ref().ok_or_else(|| CompileError::invalid("function without OpFunction"))?;
            this.functions.insert(def.result()?, f);
        }
        this.find_entry_point(m, entry_point)?;
        Ok(this)
    }

    fn collect_decorations(&mut self, m: &dr::Module) -> Result<(), CompileError> {
        // Decoration groups (deprecated but legal) are expanded onto their targets.
        let mut groups: HashMap<Id, Vec<&dr::Instruction>> = HashMap::new();
        let mut group_ids = HashSet::new();
        for inst in &m.annotations {
            if inst.class.opcode == Op::DecorationGroup {
                group_ids.insert(inst.result()?);
            }
        }
        for inst in &m.annotations {
            if inst.class.opcode == Op::Decorate && group_ids.contains(&inst.id(0)?) {
                groups.entry(inst.id(0)?).or_default().push(inst);
            }
        }
        for inst in &m.annotations {
            match inst.class.opcode {
                Op::Decorate | Op::DecorateId | Op::DecorateString => {
                    let target = inst.id(0)?;
                    let deco = decoration(inst, 1)?;
                    self.decorate(target, None, deco, inst, 2)?;
                }
                Op::MemberDecorate | Op::MemberDecorateString => {
                    let target = inst.id(0)?;
                    let member = inst.lit(1)?;
                    let deco = decoration(inst, 2)?;
                    self.decorate(target, Some(member), deco, inst, 3)?;
                }
                Op::GroupDecorate => {
                    let group = inst.id(0)?;
                    for target in inst.ids_from(1)? {
                        for d in groups.get(&group).into_iter().flatten() {
                            self.decorate(target, None, decoration(d, 1)?, d, 2)?;
                        }
                    }
                }
                Op::GroupMemberDecorate => {
                    let group = inst.id(0)?;
                    let mut i = 1;
                    while i + 1 < inst.operands.len() {
                        let (target, member) = (inst.id(i)?, inst.lit(i + 1)?);
                        for d in groups.get(&group).into_iter().flatten() {
                            self.decorate(target, Some(member), decoration(d, 1)?, d, 2)?;
                        }
                        i += 2;
                    }
                }
                Op::DecorationGroup => {}
                _ => return Err(CompileError::unsupported(inst.name())),
            }
        }
        Ok(())
    }

    /// Records decoration `deco` whose extra operands start at `at` in `inst`.
    fn decorate(
        &mut self,
        target: Id,
        member: Option<u32>,
        deco: Decoration,
        inst: &dr::Instruction,
        at: usize,
    ) -> Result<(), CompileError> {
        match (member, deco) {
            (None, Decoration::BuiltIn) => match inst.operands.get(at) {
                Some(dr::Operand::BuiltIn(b)) => {
                    self.deco.builtin.insert(target, *b);
                }
                _ => return Err(inst.bad("BuiltIn without a built-in")),
            },
            (None, Decoration::DescriptorSet) => {
                self.deco.set.insert(target, inst.lit(at)?);
            }
            (None, Decoration::Binding) => {
                self.deco.binding.insert(target, inst.lit(at)?);
            }
            (None, Decoration::SpecId) => {
                self.deco.spec_id.insert(target, inst.lit(at)?);
            }
            (None, Decoration::ArrayStride) => {
                self.deco.array_stride.insert(target, inst.lit(at)?);
            }
            (None, Decoration::Block) => {
                self.deco.block.insert(target);
            }
            (None, Decoration::BufferBlock) => {
                self.deco.buffer_block.insert(target);
            }
            (None, Decoration::NoContraction) => {
                self.deco.no_contraction.insert(target);
            }
            (None, Decoration::FPRoundingMode) => match inst.operands.get(at) {
                Some(dr::Operand::FPRoundingMode(m)) => {
                    self.deco.fp_rounding.insert(target, *m);
                }
                _ => return Err(inst.bad("FPRoundingMode without a rounding mode")),
            },
            (Some(m), Decoration::Offset) => {
                self.deco.offsets.insert((target, m), inst.lit(at)?);
            }
            (Some(m), Decoration::MatrixStride) => {
                self.deco.matrix_stride.insert((target, m), inst.lit(at)?);
            }
            (Some(m), Decoration::RowMajor) => {
                self.deco.row_major.insert((target, m));
            }
            // Everything else does not change the code we emit: precision hints, memory
            // qualifiers (our memory model keeps buffer accesses in order and uncached
            // across invocations), interpolation and linkage-related decorations.
            _ => {}
        }
        Ok(())
    }

    /// Handles one instruction of the types/constants/globals section.
    fn global_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        match inst.class.opcode {
            Op::TypeVoid => self.add_type(inst, Type::Void, &[]),
            Op::TypeBool => self.add_type(inst, Type::Bool, &[]),
            Op::TypeInt => {
                let (width, signed) = (inst.lit(0)?, inst.lit(1)? != 0);
                if !matches!(width, 8 | 16 | 32 | 64) {
                    return Err(inst.bad(&format!("integer width {width}")));
                }
                self.add_type(inst, Type::Int { width, signed }, &[])
            }
            Op::TypeFloat => {
                let width = inst.lit(0)?;
                if !matches!(width, 16 | 32 | 64) || inst.operands.len() > 1 {
                    return Err(CompileError::unsupported(format!(
                        "OpTypeFloat {width} with encoding operands {:?}",
                        inst.operands.get(1)
                    )));
                }
                self.add_type(inst, Type::Float { width }, &[])
            }
            Op::TypeVector => {
                let (elem, count) = (inst.id(0)?, inst.lit(1)?);
                if !matches!(self.types.get(&elem), Some(Type::Bool | Type::Int { .. } | Type::Float { .. })) {
                    return Err(inst.bad("component type is not a scalar"));
                }
                if !(2..=16).contains(&count) {
                    return Err(inst.bad(&format!("{count} components")));
                }
                self.add_type(inst, Type::Vector { elem, count }, &[elem])
            }
            Op::TypeArray => {
                let (elem, len_id) = (inst.id(0)?, inst.id(1)?);
                let len = self.const_u32(len_id)?;
                if len == 0 {
                    return Err(inst.bad("zero length"));
                }
                self.add_type(inst, Type::Array { elem, len }, &[elem])
            }
            Op::TypeRuntimeArray => {
                let elem = inst.id(0)?;
                self.add_type(inst, Type::RuntimeArray { elem }, &[elem])
            }
            Op::TypeStruct => {
                let members = inst.ids_from(0)?;
                self.add_type(inst, Type::Struct { members: members.clone() }, &members)
            }
            Op::TypePointer => {
                let storage = match inst.operands.first() {
                    Some(dr::Operand::StorageClass(s)) => *s,
                    _ => return Err(inst.bad("operand 0 is not a storage class")),
                };
                let pointee = inst.id(1)?;
                // Pointers do not nest their pointee's layout; depth 1 keeps them cheap.
                self.add_type(inst, Type::Pointer { storage, pointee }, &[])
            }
            Op::TypeFunction => {
                let ret = inst.id(0)?;
                let params = inst.ids_from(1)?;
                self.add_type(inst, Type::Function { ret, params }, &[])
            }
            Op::TypeMatrix => {
                let (col, count) = (inst.id(0)?, inst.lit(1)?);
                match self.types.get(&col) {
                    Some(Type::Vector { elem, .. }) if matches!(self.types.get(elem), Some(Type::Float { .. })) => {}
                    _ => return Err(inst.bad("column type is not a float vector")),
                }
                if !(2..=4).contains(&count) {
                    return Err(inst.bad(&format!("{count} columns")));
                }
                self.add_type(inst, Type::Matrix { col, count }, &[col])
            }
            Op::TypeForwardPointer => {
                // The pointer type comes later (a struct may refer to it first): like a
                // pointer, it does not nest its pointee's depth.
                self.depth.insert(inst.id(0)?, 1);
                Ok(())
            }
            Op::TypeImage | Op::TypeSampledImage => match self.image_type(inst)? {
                Ok(ty) => self.add_type(inst, ty, &[]),
                Err(what) => {
                    self.unsupported_types.insert(inst.result()?, what);
                    Ok(())
                }
            },
            Op::TypeSampler => self.add_type(inst, Type::Sampler, &[]),
            Op::TypeOpaque
            | Op::TypeEvent
            | Op::TypeDeviceEvent
            | Op::TypeReserveId
            | Op::TypeQueue
            | Op::TypePipe
            | Op::TypeAccelerationStructureKHR
            | Op::TypeRayQueryKHR
            | Op::TypeCooperativeMatrixKHR => {
                self.unsupported_types.insert(inst.result()?, inst.name());
                Ok(())
            }
            Op::ConstantTrue | Op::ConstantFalse | Op::Constant | Op::ConstantComposite | Op::ConstantNull => {
                let c = self.eval_constant(inst, None)?;
                self.add_const(inst.result()?, c)?;
                Ok(())
            }
            Op::SpecConstantTrue
            | Op::SpecConstantFalse
            | Op::SpecConstant
            | Op::SpecConstantComposite
            | Op::SpecConstantOp => {
                let spec = self
                    .deco
                    .spec_id
                    .get(&inst.result()?)
                    .and_then(|id| self.specialization.iter().find(|s| s.id == *id));
                let c = self.eval_constant(inst, spec)?;
                self.add_const(inst.result()?, c)?;
                Ok(())
            }
            Op::Undef => {
                let ty = inst.rtype()?;
                if let Some(value) = self.undef(ty)? {
                    self.add_const(inst.result()?, Const { ty, value })?;
                }
                Ok(())
            }
            Op::Variable => {
                let ptr = inst.rtype()?;
                let storage = match inst.operands.first() {
                    Some(dr::Operand::StorageClass(s)) => *s,
                    _ => return Err(inst.bad("operand 0 is not a storage class")),
                };
                let pointee = match self.types.get(&ptr) {
                    Some(Type::Pointer { storage: s, pointee }) if *s == storage => *pointee,
                    _ => return Err(inst.bad("result type is not a pointer of the variable's storage class")),
                };
                let init = if inst.operands.len() > 1 { Some(inst.id(1)?) } else { None };
                self.globals.insert(inst.result()?, Global { ptr_ty: ptr, storage, pointee, init });
                Ok(())
            }
            Op::ExtInst => {
                // Only non-semantic instructions (debug info) may appear at module scope.
                match self.ext_sets.get(&inst.id(0)?) {
                    Some(ExtSet::NonSemantic) => Ok(()),
                    _ => Err(inst.bad("non-NonSemantic extended instruction at module scope")),
                }
            }
            Op::Line | Op::NoLine | Op::Nop => Ok(()),
            _ => Err(CompileError::unsupported(inst.name())),
        }
    }

    fn add_const(&mut self, id: Id, c: Const) -> Result<(), CompileError> {
        let n = self.scalar_count(c.ty)?;
        self.const_budget = self
            .const_budget
            .checked_sub(n)
            .ok_or_else(|| CompileError::unsupported("more than 4M scalars of constants"))?;
        self.consts.insert(id, c);
        Ok(())
    }

    fn add_type(&mut self, inst: &dr::Instruction, ty: Type, children: &[Id]) -> Result<(), CompileError> {
        let id = inst.result()?;
        let mut depth = 1;
        for c in children {
            if let Some(what) = self.unsupported_types.get(c) {
                // A composite of an unsupported type is unsupported in the same way.
                let what = what.clone();
                self.unsupported_types.insert(id, what);
                return Ok(());
            }
            let d = self
                .depth
                .get(c)
                .ok_or_else(|| inst.bad(&format!("refers to %{c}, which is not a type declared before")))?;
            depth = depth.max(d + 1);
        }
        if depth > MAX_TYPE_DEPTH {
            return Err(CompileError::unsupported(format!("types nested more than {MAX_TYPE_DEPTH} deep")));
        }
        if self.types.contains_key(&id) {
            return Err(inst.bad("id defined twice"));
        }
        self.depth.insert(id, depth);
        self.types.insert(id, ty);
        Ok(())
    }

    fn find_entry_point(&mut self, m: &dr::Module, name: &str) -> Result<(), CompileError> {
        let mut found = None;
        for ep in &m.entry_points {
            if ep.string(2)? != name {
                continue;
            }
            match ep.operands.first() {
                Some(dr::Operand::ExecutionModel(ExecutionModel::GLCompute)) => found = Some(ep.id(1)?),
                Some(dr::Operand::ExecutionModel(model)) => {
                    if found.is_none() {
                        return Err(CompileError::unsupported(format!("execution model {model:?}")));
                    }
                }
                _ => return Err(ep.bad("operand 0 is not an execution model")),
            }
        }
        let entry = found.ok_or_else(|| CompileError::invalid(format!("no GLCompute entry point named \"{name}\"")))?;
        if !self.functions.contains_key(&entry) {
            return Err(CompileError::invalid(format!("entry point \"{name}\" names no function")));
        }
        self.entry_fn = entry;

        let mut size = None;
        for inst in &m.execution_modes {
            if inst.id(0)? != entry {
                continue;
            }
            let mode = match inst.operands.get(1) {
                Some(dr::Operand::ExecutionMode(mode)) => *mode,
                _ => return Err(inst.bad("operand 1 is not an execution mode")),
            };
            match mode {
                ExecutionMode::LocalSize => size = Some([inst.lit(2)?, inst.lit(3)?, inst.lit(4)?]),
                ExecutionMode::LocalSizeId => {
                    // Operands are ids, whether rspirv decoded them as ids or as literals.
                    let id = |i: usize| match inst.operands.get(i) {
                        Some(dr::Operand::LiteralBit32(v)) => Ok(*v),
                        _ => inst.id(i),
                    };
                    size = Some([self.const_u32(id(2)?)?, self.const_u32(id(3)?)?, self.const_u32(id(4)?)?])
                }
                ExecutionMode::LocalSizeHint | ExecutionMode::LocalSizeHintId => {}
                ExecutionMode::DenormFlushToZero | ExecutionMode::DenormPreserve => {
                    let flush = mode == ExecutionMode::DenormFlushToZero;
                    match inst.lit(2)? {
                        32 => (self.float_modes.flush32, self.float_modes.required32) = (flush, flush),
                        16 | 64 => {
                            // The f16 and f64 modes share one MODE field: they must agree.
                            let other = if inst.lit(2)? == 16 { 64 } else { 16 };
                            let conflict = m.execution_modes.iter().any(|e| {
                                e.id(0).ok() == Some(entry)
                                    && e.lit(2).ok() == Some(other)
                                    && matches!(
                                        e.operands.get(1),
                                        Some(dr::Operand::ExecutionMode(
                                            o @ (ExecutionMode::DenormFlushToZero | ExecutionMode::DenormPreserve)
                                        )) if *o != mode
                                    )
                            });
                            if conflict {
                                return Err(CompileError::unsupported(
                                    "different denormal modes for 16- and 64-bit floats (one MODE field holds both)",
                                ));
                            }
                            self.float_modes.flush16_64 = flush;
                        }
                        w => return Err(inst.bad(&format!("float width {w}"))),
                    }
                }
                // The code LLVM generates rounds to nearest even and, without fast-math
                // flags (only `contract` is used), preserves signed zeros, infinities and NaNs.
                ExecutionMode::RoundingModeRTE | ExecutionMode::SignedZeroInfNanPreserve => {}
                other => return Err(CompileError::unsupported(format!("execution mode {other:?}"))),
            }
        }
        // A WorkgroupSize built-in constant takes precedence over LocalSize.
        for (id, b) in &self.deco.builtin {
            if *b == BuiltIn::WorkgroupSize {
                if let Some(c) = self.consts.get(id) {
                    size = Some(self.const_uvec3(c)?);
                }
            }
        }
        let size = size.ok_or_else(|| CompileError::invalid("the entry point declares no workgroup size"))?;
        let total = size.iter().try_fold(1u64, |acc, &d| (d > 0).then(|| acc.saturating_mul(u64::from(d))));
        match total {
            Some(t) if t <= 1024 => {}
            _ => {
                return Err(CompileError::invalid(format!(
                    "workgroup size {size:?} is not within 1..=1024 invocations"
                )))
            }
        }
        self.workgroup_size = size;
        Ok(())
    }

    fn const_uvec3(&self, c: &Const) -> Result<[u32; 3], CompileError> {
        match &c.value {
            Value::Composite(v) if v.len() == 3 => {
                let mut out = [0; 3];
                for (o, e) in out.iter_mut().zip(v) {
                    *o = match e {
                        Value::Scalar(s) => {
                            u32::try_from(*s).map_err(|_| CompileError::invalid("workgroup size out of range"))?
                        }
                        _ => return Err(CompileError::invalid("WorkgroupSize is not a uvec3")),
                    };
                }
                Ok(out)
            }
            _ => Err(CompileError::invalid("WorkgroupSize is not a uvec3")),
        }
    }

    /// The value of a scalar integer constant.
    pub fn const_u64(&self, id: Id) -> Result<u64, CompileError> {
        match self.consts.get(&id) {
            Some(Const { value: Value::Scalar(v), ty }) if matches!(self.types.get(ty), Some(Type::Int { .. })) => {
                Ok(*v)
            }
            _ => Err(CompileError::invalid(format!("%{id} is not an integer constant"))),
        }
    }

    pub fn const_u32(&self, id: Id) -> Result<u32, CompileError> {
        u32::try_from(self.const_u64(id)?)
            .map_err(|_| CompileError::invalid(format!("constant %{id} does not fit 32 bits")))
    }

    pub fn ty(&self, id: Id) -> Result<&Type, CompileError> {
        if let Some(what) = self.unsupported_types.get(&id) {
            return Err(CompileError::unsupported(what.clone()));
        }
        self.types.get(&id).ok_or_else(|| CompileError::invalid(format!("%{id} is not a type")))
    }

    /// The LLVM type of values of SPIR-V type `id`.
    pub fn llty(&self, id: Id) -> Result<String, CompileError> {
        Ok(match self.ty(id)? {
            Type::Void => "void".into(),
            Type::Bool => "i1".into(),
            Type::Int { width, .. } => format!("i{width}"),
            Type::Float { width: 16 } => "half".into(),
            Type::Float { width: 64 } => "double".into(),
            Type::Float { .. } => "float".into(),
            Type::Vector { elem, count } => format!("<{count} x {}>", self.llty(*elem)?),
            Type::Matrix { col, count } => format!("[{count} x {}]", self.llty(*col)?),
            Type::Array { elem, len } => format!("[{len} x {}]", self.llty(*elem)?),
            Type::Struct { members } => {
                let m: Result<Vec<_>, _> = members.iter().map(|m| self.llty(*m)).collect();
                format!("{{ {} }}", m?.join(", "))
            }
            Type::Pointer { storage, .. } => {
                let (addrspace, _) = super::types::storage_info(*storage)
                    .ok_or_else(|| CompileError::unsupported(format!("storage class {storage:?}")))?;
                super::types::ptr_ty(addrspace)
            }
            Type::RuntimeArray { .. } => {
                return Err(CompileError::invalid(format!("runtime array %{id} used as a value")))
            }
            Type::Function { .. } => return Err(CompileError::invalid(format!("function type %{id} used as a value"))),
            Type::Image { dim: Dim::DimBuffer, .. } | Type::Sampler => "<4 x i32>".into(),
            Type::Image { .. } => "<8 x i32>".into(),
            Type::SampledImage { .. } => "<12 x i32>".into(),
        })
    }

    /// Number of scalar components in a value of type `id` (saturating).
    pub fn scalar_count(&self, id: Id) -> Result<u64, CompileError> {
        Ok(match self.ty(id)? {
            Type::Vector { count, .. } => u64::from(*count),
            Type::Matrix { col, count } => self.scalar_count(*col)?.saturating_mul(u64::from(*count)),
            Type::Array { elem, len } => self.scalar_count(*elem)?.saturating_mul(u64::from(*len)),
            Type::Struct { members } => {
                let mut n = 0u64;
                for m in members {
                    n = n.saturating_add(self.scalar_count(*m)?);
                }
                n
            }
            _ => 1,
        })
    }

    /// Bytes per scalar component (bool counts 4: that is how we store it).
    pub fn scalar_size(&self, id: Id) -> Result<u64, CompileError> {
        match self.ty(id)? {
            Type::Bool => Ok(4),
            Type::Int { width, .. } | Type::Float { width } => Ok(u64::from(*width / 8)),
            Type::Vector { elem, .. } => self.scalar_size(*elem),
            _ => Err(CompileError::invalid(format!("%{id} is not a scalar or vector type"))),
        }
    }

    /// (size, alignment) of type `id` in memory laid out by `rule`; at most 4 GiB.
    pub fn size_align(&self, id: Id, rule: Rule) -> Result<(u64, u64), CompileError> {
        let (size, align) = self.size_align_inner(id, rule)?;
        if size > u64::from(u32::MAX) {
            return Err(CompileError::unsupported(format!("type %{id} of {size} bytes")));
        }
        Ok((size, align))
    }

    fn size_align_inner(&self, id: Id, rule: Rule) -> Result<(u64, u64), CompileError> {
        let overflow = || CompileError::invalid(format!("type %{id} is too large"));
        Ok(match self.ty(id)? {
            Type::Bool | Type::Int { .. } | Type::Float { .. } => {
                let s = self.scalar_size(id)?;
                (s, s)
            }
            Type::Vector { elem, count } => {
                let s = self.scalar_size(*elem)?;
                (s * u64::from(*count), s)
            }
            Type::Array { elem, len } => {
                let (_, a) = self.size_align(*elem, rule)?;
                let stride = self.stride(id, rule)?;
                (stride.checked_mul(u64::from(*len)).ok_or_else(overflow)?, a)
            }
            Type::Matrix { .. } => self.matrix_size_align(id, self.default_matrix_layout(id, rule)?)?,
            Type::RuntimeArray { elem } => (0, self.size_align(*elem, rule)?.1),
            Type::Struct { members } => {
                let mut end = 0u64;
                let mut align = 1;
                for (i, m) in members.iter().enumerate() {
                    let (s, a) = match (self.ty(*m)?, self.member_matrix_layout(id, i as u32, rule)?) {
                        (Type::Matrix { .. }, Some(l)) => self.matrix_size_align(*m, l)?,
                        _ => self.size_align(*m, rule)?,
                    };
                    let off = self.member_offset(id, i as u32, rule)?;
                    end = end.max(off.checked_add(s).ok_or_else(overflow)?);
                    align = align.max(a);
                }
                (align_up(end, align), align)
            }
            Type::Pointer { storage, .. } => pointer_size_align(*storage, rule)?,
            // Descriptors in descriptor memory (only UniformConstant variables hold images
            // and samplers): the ABI's sizes; arrays of them are indexed by the binding's
            // descriptor size instead (func.rs `descriptor_address`).
            Type::Image { dim: Dim::DimBuffer, .. } => (abi::BUFFER_DESCRIPTOR_SIZE.into(), 16),
            Type::Image { .. } => (abi::IMAGE_DESCRIPTOR_SIZE.into(), 16),
            Type::Sampler => (abi::SAMPLER_DESCRIPTOR_SIZE.into(), 16),
            Type::SampledImage { .. } => ((abi::IMAGE_DESCRIPTOR_SIZE + abi::SAMPLER_DESCRIPTOR_SIZE).into(), 16),
            Type::Void | Type::Function { .. } => {
                return Err(CompileError::invalid(format!("%{id} has no memory layout")))
            }
        })
    }

    /// Byte distance between consecutive elements of an array, runtime array or vector.
    pub fn stride(&self, id: Id, rule: Rule) -> Result<u64, CompileError> {
        match self.ty(id)? {
            Type::Array { elem, .. } | Type::RuntimeArray { elem } => {
                if rule == Rule::Explicit {
                    if let Some(s) = self.deco.array_stride.get(&id) {
                        return Ok(u64::from(*s));
                    }
                }
                let (s, a) = self.size_align(*elem, rule)?;
                Ok(align_up(s, a))
            }
            Type::Vector { elem, .. } => self.scalar_size(*elem),
            _ => Err(CompileError::invalid(format!("%{id} is not an array or vector"))),
        }
    }

    /// Byte offset of member `index` of struct `id`.
    pub fn member_offset(&self, id: Id, index: u32, rule: Rule) -> Result<u64, CompileError> {
        let Type::Struct { members } = self.ty(id)? else {
            return Err(CompileError::invalid(format!("%{id} is not a struct")));
        };
        if index as usize >= members.len() {
            return Err(CompileError::invalid(format!("struct %{id} has no member {index}")));
        }
        if rule == Rule::Explicit && (0..members.len() as u32).all(|m| self.deco.offsets.contains_key(&(id, m))) {
            if let Some(off) = self.deco.offsets.get(&(id, index)) {
                return Ok(u64::from(*off));
            }
        }
        // Natural layout (also the fallback for a struct missing Offset decorations).
        let mut off = 0;
        for (i, m) in members.iter().enumerate() {
            let (s, a) = self.size_align(*m, Rule::Natural)?;
            off = align_up(off, a);
            if i == index as usize {
                return Ok(off);
            }
            off = off.saturating_add(s);
        }
        Err(CompileError::invalid(format!("struct %{id} has no member {index}")))
    }

    /// The type of member/element `index` of composite type `id`.
    pub fn element_type(&self, id: Id, index: u32) -> Result<Id, CompileError> {
        match self.ty(id)? {
            Type::Vector { elem, count } if index < *count => Ok(*elem),
            Type::Matrix { col, count } if index < *count => Ok(*col),
            Type::Array { elem, len } if index < *len => Ok(*elem),
            Type::RuntimeArray { elem } => Ok(*elem),
            Type::Struct { members } => members
                .get(index as usize)
                .copied()
                .ok_or_else(|| CompileError::invalid(format!("struct %{id} has no member {index}"))),
            _ => Err(CompileError::invalid(format!("index {index} into %{id}, which has no such element"))),
        }
    }

    pub fn pointer(&self, ptr_ty: Id) -> Result<(StorageClass, Id), CompileError> {
        match self.ty(ptr_ty)? {
            Type::Pointer { storage, pointee } => Ok((*storage, *pointee)),
            _ => Err(CompileError::invalid(format!("%{ptr_ty} is not a pointer type"))),
        }
    }

    /// Whether result `id` must not be fused with other operations (NoContraction).
    pub fn deco_no_contraction(&self, id: Option<Id>) -> bool {
        id.is_some_and(|id| self.deco.no_contraction.contains(&id))
    }

    /// Name from OpName, made safe for an LLVM identifier.
    pub fn llvm_name(&self, id: Id) -> String {
        let raw = self.names.get(&id).map_or("", String::as_str);
        raw.chars().take(40).map(|c| if c.is_ascii_alphanumeric() || c == '_' { c } else { '_' }).collect()
    }
}

fn decoration(inst: &dr::Instruction, i: usize) -> Result<Decoration, CompileError> {
    match inst.operands.get(i) {
        Some(dr::Operand::Decoration(d)) => Ok(*d),
        _ => Err(inst.bad(&format!("operand {i} is not a decoration"))),
    }
}

/// (size, alignment) of a pointer into `storage` stored in memory laid out by `rule`. In
/// explicitly laid out memory only PhysicalStorageBuffer addresses are valid (8 bytes);
/// our own memory (Function, Private, Workgroup: variable pointers) holds a pointer as
/// LLVM stores it: 4 bytes for LDS and scratch offsets, 8 for flat and constant addresses,
/// 20 for a buffer fat pointer (the 128-bit V# and a 32-bit offset).
fn pointer_size_align(storage: StorageClass, rule: Rule) -> Result<(u64, u64), CompileError> {
    if rule == Rule::Explicit {
        return Ok((8, 8));
    }
    let (asp, _) = super::types::storage_info(storage)
        .ok_or_else(|| CompileError::unsupported(format!("storage class {storage:?}")))?;
    Ok(match asp {
        3 | 5 => (4, 4),
        7 => (20, 4),
        _ => (8, 8),
    })
}
