//! Texel buffers: `OpTypeImage` with `Dim Buffer` (Sampled 1: uniform texel buffer, 2:
//! storage texel buffer) and the instructions on them, lowered to the MUBUF format
//! instructions (`buffer_load_format_*` / `buffer_store_format_*` with IDXEN) through
//! LLVM's `llvm.amdgcn.struct.buffer.*` intrinsics.
//!
//! An image value is the 16-byte V# of the buffer view (`<4 x i32>`), loaded from
//! descriptor memory: a pointer to a `UniformConstant` texel buffer variable is the address
//! of its V# (arrays of them are 16 bytes apart, the ABI's descriptor size). The V#'s
//! format converts texels (so images declared without a format work), its stride is the
//! texel size and its num_records the number of texels, range-checked per index by the
//! hardware (structured addressing): out-of-range loads return zero (and 1 in W where the
//! view's DST_SEL says so), out-of-range stores and atomics do nothing.
//!
//! Every other image dimension, sampled images of them, and image instructions other than
//! fetch / read / write / size queries and texel pointers for atomics stay unsupported by
//! name.

use rspirv::dr;
use spirv::{Dim, Op};

use super::func::{sync_scope, FnCx};
use super::module::Module;
use super::types::Type;
use super::{Id, InstExt};
use crate::CompileError;

/// A texel pointer (`OpImageTexelPointer`), for atomics: a texel buffer's V# and texel
/// index, or an image's T# with the intrinsic's dimension and the integer coordinates.
#[derive(Clone, Debug)]
pub(super) struct TexelPointer {
    pub rsrc: String,
    pub index: String,
    pub image: Option<(&'static str, Vec<String>)>,
}

impl Module<'_> {
    /// The type `OpTypeImage` / `OpTypeSampledImage` `inst` declares: `Ok(Err(what))` names
    /// an image type that is valid but not lowered (used only if a shader touches it).
    pub(crate) fn image_type(&self, inst: &dr::Instruction) -> Result<Result<Type, String>, CompileError> {
        if inst.class.opcode == Op::TypeSampledImage {
            let image = inst.id(0)?;
            return Ok(match self.types.get(&image) {
                Some(t @ Type::Image { dim: Dim::DimBuffer, .. }) => Ok(t.clone()),
                Some(Type::Image { .. }) => Ok(Type::SampledImage { image }),
                // A sampled image of an image type that is not lowered, for the same reason.
                _ => Err(self
                    .unsupported_types
                    .get(&image)
                    .cloned()
                    .unwrap_or_else(|| "OpTypeSampledImage of an image type that is not lowered".into())),
            });
        }
        let sampled_ty = inst.id(0)?;
        let dim = match inst.operands.get(1) {
            Some(dr::Operand::Dim(d)) => *d,
            _ => return Err(inst.bad("operand 1 is not a dimensionality")),
        };
        let (arrayed, ms, sampled) = (inst.lit(3)? != 0, inst.lit(4)? != 0, inst.lit(5)?);
        match dim {
            Dim::DimBuffer if arrayed || ms => return Err(inst.bad("a Buffer image cannot be arrayed or multisampled")),
            Dim::DimBuffer | Dim::Dim1D | Dim::Dim2D | Dim::Dim3D | Dim::DimCube => {}
            _ => return Ok(Err(format!("OpTypeImage with Dim {dim:?}"))),
        }
        if ms && dim != Dim::Dim2D {
            return Ok(Err(format!("multisampled images of Dim {dim:?} (Vulkan has 2D ones only)")));
        }
        if !matches!(sampled, 1 | 2) {
            return Ok(Err(format!("image with Sampled {sampled} (known only at run time)")));
        }
        match self.types.get(&sampled_ty) {
            Some(Type::Int { width: 32, .. } | Type::Float { width: 32 }) => {}
            Some(Type::Int { width, .. } | Type::Float { width }) => {
                return Ok(Err(format!("image of {width}-bit sampled type")))
            }
            _ => return Err(inst.bad("sampled type is not a 32-bit scalar")),
        }
        Ok(Ok(Type::Image { sampled_ty, sampled, dim, arrayed, ms }))
    }
}

impl FnCx<'_, '_> {
    /// Whether `op` is an image instruction this file lowers (or rejects by name).
    pub(super) fn is_image_op(op: Op) -> bool {
        matches!(
            op,
            Op::Image
                | Op::SampledImage
                | Op::ImageSampleImplicitLod
                | Op::ImageSampleExplicitLod
                | Op::ImageSampleDrefImplicitLod
                | Op::ImageSampleDrefExplicitLod
                | Op::ImageSampleProjImplicitLod
                | Op::ImageSampleProjExplicitLod
                | Op::ImageSampleProjDrefImplicitLod
                | Op::ImageSampleProjDrefExplicitLod
                | Op::ImageGather
                | Op::ImageDrefGather
                | Op::ImageQueryLod
                | Op::ImageFetch
                | Op::ImageRead
                | Op::ImageWrite
                | Op::ImageQuerySize
                | Op::ImageTexelPointer
                | Op::ImageQuerySizeLod
                | Op::ImageQueryLevels
                | Op::ImageQuerySamples
                | Op::ImageSparseFetch
                | Op::ImageSparseRead
        )
    }

    /// The V# of image operand `i` and its type's sampled type.
    fn image_operand(&self, inst: &dr::Instruction, i: usize) -> Result<(String, Id), CompileError> {
        let v = self.val(inst.id(i)?)?;
        match self.m.ty(v.ty)? {
            Type::Image { sampled_ty, dim: Dim::DimBuffer, .. } => Ok((v.text, *sampled_ty)),
            _ => Err(inst.bad(&format!("operand {i} is not a texel buffer image"))),
        }
    }

    /// A texel index operand as an i32.
    fn texel_index(&mut self, inst: &dr::Instruction, i: usize) -> Result<String, CompileError> {
        let v = self.val(inst.id(i)?)?;
        match self.m.ty(v.ty)? {
            Type::Int { width: 32, .. } => Ok(v.text),
            _ => Err(inst.bad("the coordinate of a texel buffer access is not a 32-bit integer")),
        }
    }

    /// Image operands beyond the coordinate (and texel): only none, or the ones that change
    /// nothing for buffers (`Nontemporal`, `SignExtend`/`ZeroExtend` on 32-bit texels).
    fn check_image_operands(&self, inst: &dr::Instruction, at: usize) -> Result<(), CompileError> {
        match inst.operands.get(at) {
            None => Ok(()),
            Some(dr::Operand::ImageOperands(o)) => {
                let harmless = spirv::ImageOperands::NONTEMPORAL
                    | spirv::ImageOperands::SIGN_EXTEND
                    | spirv::ImageOperands::ZERO_EXTEND;
                if harmless.contains(*o) {
                    Ok(())
                } else {
                    Err(CompileError::unsupported(format!("{} with image operands {o:?}", inst.name())))
                }
            }
            Some(_) => Err(inst.bad(&format!("operand {at} is not an image operand mask"))),
        }
    }

    /// LLVM's element type for a texel whose components are SPIR-V scalar `ty`.
    fn texel_elem(&self, ty: Id) -> Result<&'static str, CompileError> {
        match self.m.ty(ty)? {
            Type::Int { width: 32, .. } => Ok("i32"),
            Type::Float { width: 32 } => Ok("float"),
            _ => Err(CompileError::unsupported(format!("texel components of type %{ty} (only 32-bit ones)"))),
        }
    }

    /// Lowers one image instruction: on a texel buffer here, on any other image in
    /// `mimg.rs`.
    pub(super) fn image_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        if !self.on_texel_buffer(inst)? {
            return self.mimg_inst(inst);
        }
        match inst.class.opcode {
            // The image of a sampled texel buffer, and a sampled texel buffer: the same V#.
            Op::Image | Op::SampledImage => {
                let (rsrc, _) = self.image_operand(inst, 0)?;
                self.set(inst.result()?, inst.rtype()?, rsrc);
                Ok(())
            }
            Op::ImageFetch | Op::ImageRead => {
                let (rsrc, _) = self.image_operand(inst, 0)?;
                let index = self.texel_index(inst, 1)?;
                self.check_image_operands(inst, 2)?;
                let (result, rty) = (inst.result()?, inst.rtype()?);
                let (elem, count) = match self.m.ty(rty)? {
                    Type::Vector { elem, count } => (*elem, *count),
                    Type::Int { .. } | Type::Float { .. } => (rty, 1),
                    _ => return Err(inst.bad("result is not a scalar or vector")),
                };
                if count > 4 {
                    return Err(inst.bad("a texel has at most 4 components"));
                }
                let e = self.texel_elem(elem)?;
                let sfx = if e == "float" { "f32" } else { "i32" };
                // buffer_load_format_xyzw: the V#'s format converts, DST_SEL swizzles.
                let v = self.call_intrinsic(
                    &format!("<4 x {e}>"),
                    &format!("llvm.amdgcn.struct.buffer.load.format.v4{sfx}"),
                    &[
                        format!("<4 x i32> {rsrc}"),
                        format!("i32 {index}"),
                        "i32 0".into(),
                        "i32 0".into(),
                        "i32 0".into(),
                    ],
                );
                let text = if count == 1 {
                    self.def(format!("extractelement <4 x {e}> {v}, i32 0"))
                } else if count == 4 {
                    v
                } else {
                    let lanes: Vec<String> = (0..count).map(|i| format!("i32 {i}")).collect();
                    self.def(format!(
                        "shufflevector <4 x {e}> {v}, <4 x {e}> poison, <{count} x i32> <{}>",
                        lanes.join(", ")
                    ))
                };
                self.set(result, rty, text);
                Ok(())
            }
            Op::ImageWrite => {
                let (rsrc, _) = self.image_operand(inst, 0)?;
                let index = self.texel_index(inst, 1)?;
                let texel = self.val(inst.id(2)?)?;
                self.check_image_operands(inst, 3)?;
                let (elem, count) = match self.m.ty(texel.ty)? {
                    Type::Vector { elem, count } => (*elem, *count),
                    Type::Int { .. } | Type::Float { .. } => (texel.ty, 1),
                    _ => return Err(inst.bad("texel is not a scalar or vector")),
                };
                if count > 4 {
                    return Err(inst.bad("a texel has at most 4 components"));
                }
                let e = self.texel_elem(elem)?;
                let sfx = if e == "float" { "f32" } else { "i32" };
                // Widen to 4 components (the ones the texel lacks are 0): the V#'s format
                // keeps the ones it has.
                let data = if count == 1 {
                    self.def(format!("insertelement <4 x {e}> zeroinitializer, {e} {}, i32 0", texel.text))
                } else if count == 4 {
                    texel.text
                } else {
                    let lanes: Vec<String> =
                        (0..4).map(|i| format!("i32 {}", if i < count { i } else { count })).collect();
                    self.def(format!(
                        "shufflevector <{count} x {e}> {}, <{count} x {e}> zeroinitializer, <4 x i32> <{}>",
                        texel.text,
                        lanes.join(", ")
                    ))
                };
                self.call_intrinsic(
                    "void",
                    &format!("llvm.amdgcn.struct.buffer.store.format.v4{sfx}"),
                    &[
                        format!("<4 x {e}> {data}"),
                        format!("<4 x i32> {rsrc}"),
                        format!("i32 {index}"),
                        "i32 0".into(),
                        "i32 0".into(),
                        "i32 0".into(),
                    ],
                );
                Ok(())
            }
            Op::ImageQuerySize => {
                let (rsrc, _) = self.image_operand(inst, 0)?;
                let (result, rty) = (inst.result()?, inst.rtype()?);
                if !matches!(self.m.ty(rty)?, Type::Int { width: 32, .. }) {
                    return Err(inst.bad("the size of a texel buffer is a 32-bit integer"));
                }
                // num_records (V# dword 2) is the number of texels of the view.
                let n = self.def(format!("extractelement <4 x i32> {rsrc}, i32 2"));
                self.set(result, rty, n);
                Ok(())
            }
            Op::ImageTexelPointer => {
                // Operand 0 is a pointer to the image variable; the V# is loaded here.
                let p = self.val(inst.id(0)?)?;
                let (asp, _, pointee) = self.pointer_info(&p)?;
                if !matches!(self.m.ty(pointee)?, Type::Image { .. }) || asp != 4 {
                    return Err(inst.bad("OpImageTexelPointer on something other than a texel buffer"));
                }
                let rsrc = self.load_texel_vsharp(&p.text);
                let index = self.texel_index(inst, 1)?;
                let sample = self.val(inst.id(2)?)?;
                if sample.text != "0" {
                    return Err(inst.bad("a texel buffer has no samples"));
                }
                let result = inst.result()?;
                self.texel_ptrs.insert(result, TexelPointer { rsrc, index, image: None });
                Ok(())
            }
            _ => Err(CompileError::unsupported(format!("{} (only texel buffer images are supported)", inst.name()))),
        }
    }

    /// Whether `inst`'s image operand is a texel buffer.
    fn on_texel_buffer(&self, inst: &dr::Instruction) -> Result<bool, CompileError> {
        let ty = if inst.class.opcode == Op::ImageTexelPointer {
            let p = self.val(inst.id(0)?)?;
            self.pointer_info(&p)?.2
        } else {
            self.val(inst.id(0)?)?.ty
        };
        Ok(matches!(self.m.ty(ty)?, Type::Image { dim: Dim::DimBuffer, .. }))
    }

    /// Loads the V# at descriptor address `desc`.
    pub(super) fn load_texel_vsharp(&mut self, desc: &str) -> String {
        self.def(format!(
            "load <4 x i32>, ptr addrspace(4) {desc}, align 16, !invariant.load {}",
            super::func::MD_INVARIANT
        ))
    }

    /// An `OpAtomic*` on a texel pointer: a MUBUF atomic with IDXEN on the view's V#, or an
    /// `image_atomic_*` on the view's T# (32-bit integer formats). Ordering semantics
    /// become fences around it.
    pub(super) fn texel_atomic(&mut self, inst: &dr::Instruction, tp: TexelPointer) -> Result<(), CompileError> {
        let op = inst.class.opcode;
        let scope = sync_scope(self.m.const_u64(inst.id(1)?)?)?;
        let sem = self.m.const_u64(inst.id(2)?)?;
        let release = sem & (0x4 | 0x8 | 0x10) != 0;
        let acquire = sem & (0x2 | 0x8 | 0x10) != 0;
        let fence = |s: &str, order: &str| {
            if s.is_empty() {
                format!("fence {order}")
            } else {
                format!("fence syncscope(\"{s}\") {order}")
            }
        };
        if let (Some(s), true) = (scope, release) {
            self.emit(fence(s, "release"));
        }
        let (tail, dim) = match &tp.image {
            None => (
                vec![
                    format!("<4 x i32> {}", tp.rsrc),
                    format!("i32 {}", tp.index),
                    "i32 0".into(),
                    "i32 0".into(),
                    "i32 0".into(),
                ],
                None,
            ),
            Some((dim, coords)) => {
                let mut t = coords.clone();
                t.extend([format!("<8 x i32> {}", tp.rsrc), "i32 0".into(), "i32 0".into()]);
                (t, Some(*dim))
            }
        };
        let rmw = |name: &str| match dim {
            None => format!("llvm.amdgcn.struct.buffer.atomic.{name}.i32"),
            Some(d) => format!("llvm.amdgcn.image.atomic.{name}.{d}.i32.i32"),
        };
        let value = |this: &Self, i: usize| -> Result<String, CompileError> {
            let v = this.val(inst.id(i)?)?;
            match this.m.ty(v.ty)? {
                Type::Int { width: 32, .. } => Ok(v.text),
                _ => Err(CompileError::unsupported(format!("{} on a texel that is not a 32-bit integer", inst.name()))),
            }
        };
        let (name, data) = match op {
            Op::AtomicLoad => ("or", "0".to_string()),
            Op::AtomicStore | Op::AtomicExchange => ("swap", value(self, 3)?),
            Op::AtomicIIncrement => ("add", "1".to_string()),
            Op::AtomicIDecrement => ("sub", "1".to_string()),
            Op::AtomicIAdd => ("add", value(self, 3)?),
            Op::AtomicISub => ("sub", value(self, 3)?),
            Op::AtomicSMin => ("smin", value(self, 3)?),
            Op::AtomicUMin => ("umin", value(self, 3)?),
            Op::AtomicSMax => ("smax", value(self, 3)?),
            Op::AtomicUMax => ("umax", value(self, 3)?),
            Op::AtomicAnd => ("and", value(self, 3)?),
            Op::AtomicOr => ("or", value(self, 3)?),
            Op::AtomicXor => ("xor", value(self, 3)?),
            Op::AtomicCompareExchange | Op::AtomicCompareExchangeWeak => ("cmpswap", String::new()),
            _ => return Err(CompileError::unsupported(format!("{} on a texel buffer", inst.name()))),
        };
        let r = if name == "cmpswap" {
            let (v, cmp) = (value(self, 4)?, value(self, 5)?);
            let mut args = vec![format!("i32 {v}"), format!("i32 {cmp}")];
            args.extend(tail);
            self.call_intrinsic("i32", &rmw(name), &args)
        } else {
            let mut args = vec![format!("i32 {data}")];
            args.extend(tail);
            self.call_intrinsic("i32", &rmw(name), &args)
        };
        if let (Some(s), true) = (scope, acquire) {
            self.emit(fence(s, "acquire"));
        }
        if op != Op::AtomicStore {
            self.set(inst.result()?, inst.rtype()?, r);
        }
        Ok(())
    }
}
