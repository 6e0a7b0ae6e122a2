//! Images other than texel buffers (1D, 2D, 3D, cube, 1D and 2D arrays, cube arrays, 2D
//! multisampled images and their arrays): the
//! SPIR-V image instructions valid in compute, lowered to LLVM's `llvm.amdgcn.image.*`
//! intrinsics, which the AMDGPU backend makes MIMG instructions of (executed by the GPU
//! model on the view's T#, and the sampler's S# for sampling and gathers).
//!
//! Values: an image is its view's T# (`<8 x i32>`), a sampler its S# (`<4 x i32>`), a
//! sampled image both (`<12 x i32>`, T# first); a pointer to a `UniformConstant` image or
//! sampler variable is the address of its descriptor (docs/ABI.md). The T#'s format
//! converts texels, so images declared without a format work.
//!
//! Operands, after Mesa's ACO and `ac_llvm_build.c` (facts, not code):
//! - Coordinates: integers for fetch, read, write and atomics (the array layer, or the cube
//!   face `6 × layer + face`, is the last one); floats for sampling. A cube is sampled at
//!   face coordinates: `v_cubesc / |v_cubema| + 1.5`, the same for `tc`, and the face id
//!   (plus 8 × the layer for cube arrays), as `ac_prepare_cube_coords` does.
//! - Offsets (`ConstOffset`, `Offset`) are packed 6 bits per coordinate, x in bits 5:0, y
//!   in 13:8, z in 21:16; fetch and read add them to the coordinates instead. `ConstOffsets`
//!   gathers four times, one offset each, and takes texel i0j0 (`w`) of each.
//! - Multisampled images (`MS` 1): the `Sample` operand is the last address component of
//!   `image.load.2dmsaa` / `2darraymsaa` and `image.store.*` (and of atomics through a
//!   texel pointer), as LLVM's MSAA dims take it. `OpImageQuerySamples` reads the T# as
//!   Mesa's `ac_nir_lower_resinfo` does: 2^LAST_LEVEL, 0 for a null descriptor (dword 1
//!   zero); `OpImageQuerySize` asks `getresinfo` for the size and layers only (dmask 0x7:
//!   an MSAA T#'s LAST_LEVEL holds log2(samples), not levels).
//! - Explicit LOD: `Lod` is `sample.l`, `Grad` is `sample.d` (on cubes made derivatives
//!   of the face coordinates, as `ac_prepare_cube_coords` makes them), `MinLod` adds `.cl`. Gathers read level 0
//!   (`gather4.lz`). Depth references make the `.c` forms, which return one float.
//!
//! Not lowered, by name: implicit-LOD sampling and `OpImageQueryLod` (compute has no
//! derivatives), sparse residency and texels of 16 or 64 bits.

use rspirv::dr;
use spirv::{Dim, ImageOperands, Op};

use super::func::FnCx;
use super::image::TexelPointer;
use super::types::Type;
use super::{Id, InstExt};
use crate::CompileError;

/// [`FnCx::cube`]'s values (IR operands).
struct Cube {
    sc: String,
    tc: String,
    ma: String,
    id: String,
    inv: String,
}

/// The shape of an image type: what addresses it.
#[derive(Clone, Copy, Debug)]
pub(super) struct Shape {
    pub dim: Dim,
    pub arrayed: bool,
    /// Multisampled (2D only).
    pub ms: bool,
}

impl Shape {
    /// The dimension part of the intrinsic's name (a cube array is a cube: its layer rides
    /// in the face coordinate).
    fn llvm(self) -> &'static str {
        match (self.dim, self.arrayed) {
            (Dim::Dim2D, false) if self.ms => "2dmsaa",
            (Dim::Dim2D, true) if self.ms => "2darraymsaa",
            (Dim::Dim1D, false) => "1d",
            (Dim::Dim1D, true) => "1darray",
            (Dim::Dim2D, false) => "2d",
            (Dim::Dim2D, true) => "2darray",
            (Dim::Dim3D, _) => "3d",
            _ => "cube",
        }
    }

    /// Coordinates of the texel address (without the array layer).
    fn spatial(self) -> usize {
        match self.dim {
            Dim::Dim1D => 1,
            Dim::Dim3D => 3,
            _ => 2,
        }
    }

    /// Components of the SPIR-V coordinate operand (the layer last for arrays; a cube is
    /// addressed by a direction when sampled, by a face when read).
    fn coord_count(self) -> usize {
        self.spatial() + usize::from(self.arrayed || self.dim == Dim::DimCube)
    }

    /// Components of `OpImageQuerySize*`.
    fn size_count(self) -> usize {
        match self.dim {
            Dim::DimCube => 2 + usize::from(self.arrayed),
            _ => self.spatial() + usize::from(self.arrayed),
        }
    }
}

/// An image operand of the instruction, resolved.
#[derive(Default)]
struct Operands {
    lod: Option<Id>,
    grad: Option<(Id, Id)>,
    offset: Option<Id>,
    offsets: Option<Id>,
    min_lod: Option<Id>,
    sample: Option<Id>,
}

/// The image operand bits that take no id and change nothing here (cache and memory-model
/// hints, and the extensions of 32-bit texels).
fn harmless() -> ImageOperands {
    ImageOperands::NON_PRIVATE_TEXEL
        | ImageOperands::VOLATILE_TEXEL
        | ImageOperands::SIGN_EXTEND
        | ImageOperands::ZERO_EXTEND
        | ImageOperands::NONTEMPORAL
}

impl FnCx<'_, '_> {
    /// The T#, the S# (sampled images) and the image type of image operand `i`.
    fn mimg_operand(
        &mut self,
        inst: &dr::Instruction,
        i: usize,
    ) -> Result<(String, Option<String>, Shape, Id), CompileError> {
        let v = self.val(inst.id(i)?)?;
        let (image_ty, samp) = match self.m.ty(v.ty)? {
            Type::SampledImage { image } => (*image, true),
            Type::Image { .. } => (v.ty, false),
            _ => return Err(inst.bad(&format!("operand {i} is not an image"))),
        };
        let Type::Image { sampled_ty, dim, arrayed, ms, .. } = *self.m.ty(image_ty)? else {
            return Err(inst.bad("a sampled image of something other than an image"));
        };
        let shape = Shape { dim, arrayed, ms };
        if !samp {
            return Ok((v.text, None, shape, sampled_ty));
        }
        let t = self.def(format!(
            "shufflevector <12 x i32> {}, <12 x i32> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 4, i32 5, i32 6, i32 7>",
            v.text
        ));
        let s = self.def(format!(
            "shufflevector <12 x i32> {}, <12 x i32> poison, <4 x i32> <i32 8, i32 9, i32 10, i32 11>",
            v.text
        ));
        Ok((t, Some(s), shape, sampled_ty))
    }

    /// The image operands from operand `at` on.
    fn mimg_operands(&self, inst: &dr::Instruction, at: usize) -> Result<Operands, CompileError> {
        let mut o = Operands::default();
        let Some(op) = inst.operands.get(at) else { return Ok(o) };
        let dr::Operand::ImageOperands(mask) = op else {
            return Err(inst.bad(&format!("operand {at} is not an image operand mask")));
        };
        let mut next = at + 1;
        let mut take = || -> Result<Id, CompileError> {
            next += 1;
            inst.id(next - 1)
        };
        let ordered = [
            ImageOperands::BIAS,
            ImageOperands::LOD,
            ImageOperands::GRAD,
            ImageOperands::CONST_OFFSET,
            ImageOperands::OFFSET,
            ImageOperands::CONST_OFFSETS,
            ImageOperands::SAMPLE,
            ImageOperands::MIN_LOD,
            ImageOperands::MAKE_TEXEL_AVAILABLE,
            ImageOperands::MAKE_TEXEL_VISIBLE,
        ];
        for bit in ordered.into_iter().filter(|b| mask.contains(*b)) {
            match bit {
                ImageOperands::BIAS => {
                    return Err(CompileError::unsupported(format!(
                        "{} with Bias (no derivatives in compute)",
                        inst.name()
                    )))
                }
                ImageOperands::LOD => o.lod = Some(take()?),
                ImageOperands::GRAD => o.grad = Some((take()?, take()?)),
                ImageOperands::CONST_OFFSET | ImageOperands::OFFSET => o.offset = Some(take()?),
                ImageOperands::CONST_OFFSETS => o.offsets = Some(take()?),
                ImageOperands::SAMPLE => o.sample = Some(take()?),
                ImageOperands::MIN_LOD => o.min_lod = Some(take()?),
                _ => drop(take()?), // the memory-model scope of MakeTexel*: nothing to do
            }
        }
        let known = ordered.iter().fold(harmless(), |m, b| m | *b);
        if !known.contains(*mask) {
            return Err(CompileError::unsupported(format!("{} with image operands {mask:?}", inst.name())));
        }
        Ok(o)
    }

    /// Component `k` of the value of `id` (a vector, or an array: ConstOffsets is an
    /// array of four `ivec2`), or the scalar itself.
    fn component(&mut self, id: Id, k: usize) -> Result<(String, Id), CompileError> {
        let v = self.val(id)?;
        match self.m.ty(v.ty)? {
            Type::Array { elem, len } => {
                if k as u32 >= *len {
                    return Err(CompileError::invalid(format!("%{id} has no element {k}")));
                }
                let (elem, lt) = (*elem, self.m.llty(v.ty)?);
                Ok((self.def(format!("extractvalue {lt} {}, {k}", v.text)), elem))
            }
            Type::Vector { elem, count } => {
                if k as u32 >= *count {
                    return Err(CompileError::invalid(format!("%{id} has no component {k}")));
                }
                let (elem, lt) = (*elem, self.m.llty(v.ty)?);
                Ok((self.def(format!("extractelement {lt} {}, i32 {k}", v.text)), elem))
            }
            _ if k == 0 => Ok((v.text, v.ty)),
            _ => Err(CompileError::invalid(format!("%{id} is a scalar; component {k} asked for"))),
        }
    }

    /// The first `n` components of `id`, as `ty` ("i32" or "float") operands.
    fn parts(&mut self, id: Id, n: usize, ty: &str) -> Result<Vec<String>, CompileError> {
        (0..n)
            .map(|k| {
                let (t, elem) = self.component(id, k)?;
                let ok = match self.m.ty(elem)? {
                    Type::Int { width: 32, .. } => ty == "i32",
                    Type::Float { width: 32 } => ty == "float",
                    _ => false,
                };
                if !ok {
                    return Err(CompileError::unsupported(format!(
                        "image coordinates of type %{elem} (not 32-bit {ty})"
                    )));
                }
                Ok(format!("{ty} {t}"))
            })
            .collect()
    }

    /// A 32-bit integer operand.
    fn int_operand(&mut self, id: Id) -> Result<String, CompileError> {
        Ok(self.parts(id, 1, "i32")?.remove(0))
    }

    /// The packed offset operand (6 bits per coordinate, 8 bits apart).
    fn packed_offset(&mut self, id: Id, n: usize) -> Result<String, CompileError> {
        let mut acc = "0".to_string();
        for (k, p) in self.parts(id, n, "i32")?.into_iter().enumerate() {
            let field = self.def(format!("and {p}, 63"));
            let field = self.def(format!("shl i32 {field}, {}", 8 * k));
            acc = self.def(format!("or i32 {acc}, {field}"));
        }
        Ok(format!("i32 {acc}"))
    }

    /// LLVM's element type for texels of sampled type `ty`.
    fn mimg_elem(&self, ty: Id) -> Result<&'static str, CompileError> {
        match self.m.ty(ty)? {
            Type::Int { width: 32, .. } => Ok("i32"),
            Type::Float { width: 32 } => Ok("float"),
            _ => Err(CompileError::unsupported(format!("texel components of type %{ty} (only 32-bit ones)"))),
        }
    }

    /// Sets `inst`'s result to the first components of texel `v` (`<4 x e>`) its type has.
    fn set_texel(&mut self, inst: &dr::Instruction, v: &str, e: &str) -> Result<(), CompileError> {
        let (result, rty) = (inst.result()?, inst.rtype()?);
        let count = match self.m.ty(rty)? {
            Type::Vector { count, .. } => *count,
            _ => 1,
        };
        let text = match count {
            1 => self.def(format!("extractelement <4 x {e}> {v}, i32 0")),
            4 => v.to_string(),
            _ => {
                let lanes: Vec<String> = (0..count).map(|i| format!("i32 {i}")).collect();
                self.def(format!(
                    "shufflevector <4 x {e}> {v}, <4 x {e}> poison, <{count} x i32> <{}>",
                    lanes.join(", ")
                ))
            }
        };
        self.set(result, rty, text);
        Ok(())
    }

    /// Lowers one image instruction on an image that is not a texel buffer.
    pub(super) fn mimg_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        match inst.class.opcode {
            Op::SampledImage => {
                let (t, _, _, _) = self.mimg_operand(inst, 0)?;
                let s = self.val(inst.id(1)?)?;
                if !matches!(self.m.ty(s.ty)?, Type::Sampler) {
                    return Err(inst.bad("operand 1 is not a sampler"));
                }
                let s8 = self.def(format!(
                    "shufflevector <4 x i32> {}, <4 x i32> poison, <8 x i32> <i32 0, i32 1, i32 2, i32 3, i32 poison, i32 poison, i32 poison, i32 poison>",
                    s.text
                ));
                let lanes: Vec<String> = (0..12).map(|i| format!("i32 {i}")).collect();
                let v =
                    self.def(format!("shufflevector <8 x i32> {t}, <8 x i32> {s8}, <12 x i32> <{}>", lanes.join(", ")));
                self.set(inst.result()?, inst.rtype()?, v);
                Ok(())
            }
            Op::Image => {
                let (t, _, _, _) = self.mimg_operand(inst, 0)?;
                self.set(inst.result()?, inst.rtype()?, t);
                Ok(())
            }
            Op::ImageFetch | Op::ImageRead => self.mimg_load(inst),
            Op::ImageWrite => self.mimg_store(inst),
            Op::ImageSampleExplicitLod
            | Op::ImageSampleDrefExplicitLod
            | Op::ImageSampleProjExplicitLod
            | Op::ImageSampleProjDrefExplicitLod => self.mimg_sample(inst),
            Op::ImageGather | Op::ImageDrefGather => self.mimg_gather(inst),
            Op::ImageQuerySize | Op::ImageQuerySizeLod | Op::ImageQueryLevels => self.mimg_query(inst),
            Op::ImageTexelPointer => self.mimg_texel_pointer(inst),
            Op::ImageQuerySamples => self.mimg_query_samples(inst),
            _ => Err(CompileError::unsupported(format!(
                "{} (no derivatives, projection or sparse residency)",
                inst.name()
            ))),
        }
    }

    /// The `Sample` operand as the last address component of a multisampled image's access;
    /// nothing for other images. SPIR-V requires it exactly on multisampled images.
    fn sample_coord(
        &mut self,
        inst: &dr::Instruction,
        shape: Shape,
        sample: Option<Id>,
    ) -> Result<Vec<String>, CompileError> {
        match (shape.ms, sample) {
            (true, Some(s)) => Ok(vec![self.int_operand(s)?]),
            (false, None) => Ok(Vec::new()),
            (true, None) => Err(inst.bad("a multisampled image accessed without a Sample operand")),
            (false, Some(_)) => Err(inst.bad("a Sample operand on an image that is not multisampled")),
        }
    }

    /// Integer coordinates of a fetch, read, write or texel pointer, with an offset added.
    fn int_coords(&mut self, shape: Shape, coord: Id, offset: Option<Id>) -> Result<Vec<String>, CompileError> {
        let mut c = self.parts(coord, shape.coord_count(), "i32")?;
        if let Some(off) = offset {
            for (k, o) in self.parts(off, shape.spatial(), "i32")?.into_iter().enumerate() {
                let sum = self.def(format!("add {}, {}", c[k], o.trim_start_matches("i32 ")));
                c[k] = format!("i32 {sum}");
            }
        }
        Ok(c)
    }

    /// OpImageFetch / OpImageRead: `image_load` (`_mip` with a Lod operand).
    fn mimg_load(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let (t, _, shape, sty) = self.mimg_operand(inst, 0)?;
        let o = self.mimg_operands(inst, 2)?;
        if o.grad.is_some() || o.offsets.is_some() || shape.ms && o.lod.is_some() {
            return Err(CompileError::unsupported(format!("{} with Grad, ConstOffsets or (MSAA) Lod", inst.name())));
        }
        let e = self.mimg_elem(sty)?;
        let mut args = vec!["i32 15".to_string()];
        args.extend(self.int_coords(shape, inst.id(1)?, o.offset)?);
        args.extend(self.sample_coord(inst, shape, o.sample)?);
        let mip = if let Some(l) = o.lod {
            args.push(self.int_operand(l)?);
            ".mip"
        } else {
            ""
        };
        args.extend([format!("<8 x i32> {t}"), "i32 0".into(), "i32 0".into()]);
        let name = format!("llvm.amdgcn.image.load{mip}.{}.v4{}.i32", shape.llvm(), sfx(e));
        let v = self.call_intrinsic(&format!("<4 x {e}>"), &name, &args);
        self.set_texel(inst, &v, e)
    }

    /// OpImageWrite: `image_store` of the texel widened to four components.
    fn mimg_store(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let (t, _, shape, _) = self.mimg_operand(inst, 0)?;
        let o = self.mimg_operands(inst, 3)?;
        if o.grad.is_some() || o.offsets.is_some() || o.offset.is_some() || shape.ms && o.lod.is_some() {
            return Err(CompileError::unsupported(format!("{} with Grad, offsets or (MSAA) Lod", inst.name())));
        }
        let texel = self.val(inst.id(2)?)?;
        let (elem, count) = match self.m.ty(texel.ty)? {
            Type::Vector { elem, count } => (*elem, *count),
            _ => (texel.ty, 1),
        };
        let e = self.mimg_elem(elem)?;
        let data = if count == 4 {
            texel.text
        } else if count == 1 {
            self.def(format!("insertelement <4 x {e}> zeroinitializer, {e} {}, i32 0", texel.text))
        } else {
            let lanes: Vec<String> = (0..4).map(|i| format!("i32 {}", if i < count { i } else { count })).collect();
            self.def(format!(
                "shufflevector <{count} x {e}> {}, <{count} x {e}> zeroinitializer, <4 x i32> <{}>",
                texel.text,
                lanes.join(", ")
            ))
        };
        // The intrinsic stores floats (any bits: the T#'s format reads them as it must).
        let data = if e == "float" { data } else { self.def(format!("bitcast <4 x i32> {data} to <4 x float>")) };
        let mut args = vec![format!("<4 x float> {data}"), "i32 15".to_string()];
        args.extend(self.int_coords(shape, inst.id(1)?, None)?);
        args.extend(self.sample_coord(inst, shape, o.sample)?);
        let mip = if let Some(l) = o.lod {
            args.push(self.int_operand(l)?);
            ".mip"
        } else {
            ""
        };
        args.extend([format!("<8 x i32> {t}"), "i32 0".into(), "i32 0".into()]);
        let name = format!("llvm.amdgcn.image.store{mip}.{}.v4f32.i32", shape.llvm());
        self.call_intrinsic("void", &name, &args);
        Ok(())
    }

    /// A direction's cube face selection (`v_cubesc`, `v_cubetc`, `v_cubema`, `v_cubeid`)
    /// and `1 / |ma|`.
    fn cube(&mut self, dir: &[String]) -> Cube {
        let mut f = |op: &str| self.call_intrinsic("float", &format!("llvm.amdgcn.cube{op}"), dir);
        let (sc, tc, ma, id) = (f("sc"), f("tc"), f("ma"), f("id"));
        let abs = self.call_intrinsic("float", "llvm.fabs.f32", &[format!("float {ma}")]);
        let inv = self.def(format!("fdiv float 1.0, {abs}"));
        Cube { sc, tc, ma, id, inv }
    }

    /// Float coordinates of a sample or gather (cube directions made face coordinates).
    fn float_coords(&mut self, shape: Shape, coord: Id) -> Result<Vec<String>, CompileError> {
        if shape.dim != Dim::DimCube {
            return self.parts(coord, shape.coord_count(), "float");
        }
        // A direction, then the layer of a cube array.
        let c = self.parts(coord, 3 + usize::from(shape.arrayed), "float")?;
        let Cube { sc, tc, id, inv, .. } = self.cube(&c[..3]);
        let mut out = Vec::new();
        for x in [sc, tc] {
            let v = self.call_intrinsic(
                "float",
                "llvm.fma.f32",
                &[format!("float {x}"), format!("float {inv}"), "float 1.5".into()],
            );
            out.push(format!("float {v}"));
        }
        let face = if shape.arrayed {
            let layer = c[3].trim_start_matches("float ").to_string();
            let l = self.call_intrinsic("float", "llvm.rint.f32", &[format!("float {layer}")]);
            let l = self.call_intrinsic("float", "llvm.maxnum.f32", &[format!("float {l}"), "float 0.0".into()]);
            self.call_intrinsic(
                "float",
                "llvm.fma.f32",
                &[format!("float {l}"), "float 8.0".into(), format!("float {id}")],
            )
        } else {
            id
        };
        out.push(format!("float {face}"));
        Ok(out)
    }

    /// A cube's `Grad` made derivatives of its face coordinates (`ds/dx, dt/dx, ds/dy,
    /// dt/dy`), as `ac_prepare_cube_coords` does: each derivative vector is read on the
    /// coordinate's face (its `sc`, `tc` and major components, signed as `v_cubesc`,
    /// `v_cubetc` and `v_cubema` sign them), then, with `s = sc / |2 ma|`,
    /// `ds = (dsc − s · 2 d|ma|) / |2 ma|` (the quotient rule), the same for `t`.
    fn cube_grads(&mut self, coord: Id, dx: Id, dy: Id) -> Result<Vec<String>, CompileError> {
        let dir = self.parts(coord, 3, "float")?;
        let Cube { sc, tc, ma, id, inv } = self.cube(&dir);
        let sgn = self.call_intrinsic("float", "llvm.copysign.f32", &["float 1.0".into(), format!("float {ma}")]);
        let nsgn = self.def(format!("fneg float {sgn}"));
        let is_z = self.def(format!("fcmp oge float {id}, 4.0"));
        let is_y = self.def(format!("fcmp oge float {id}, 2.0"));
        let st: Vec<String> = [sc, tc].iter().map(|x| self.def(format!("fmul float {x}, {inv}"))).collect();
        let mut out = Vec::new();
        for d in [dx, dy] {
            let v = self.parts(d, 3, "float")?;
            let v: Vec<String> = v.iter().map(|x| x.trim_start_matches("float ").to_string()).collect();
            let mul = |cx: &mut Self, a: &str, b: &str| cx.def(format!("fmul float {a}, {b}"));
            let pick = |cx: &mut Self, z: &str, y: &str, x: &str| {
                let zy = cx.def(format!("select i1 {is_y}, float {y}, float {x}"));
                cx.def(format!("select i1 {is_z}, float {z}, float {zy}"))
            };
            let ny = self.def(format!("fneg float {}", v[1]));
            let (sx, sz, nsz) = (mul(self, &sgn, &v[0]), mul(self, &sgn, &v[2]), mul(self, &nsgn, &v[2]));
            let dsc = pick(self, &sx, &v[0], &nsz);
            let dtc = pick(self, &ny, &sz, &ny);
            let major = pick(self, &v[2], &v[1], &v[0]);
            // 2 d|ma| / |2 ma| = d|ma| / |ma|.
            let dma = mul(self, &major, &sgn);
            let dma = self.def(format!("fmul float {dma}, 2.0"));
            let rel = mul(self, &dma, &inv);
            for (dc, c) in [(dsc, &st[0]), (dtc, &st[1])] {
                let a = mul(self, &dc, &inv);
                let b = mul(self, c, &rel);
                out.push(format!("float {}", self.def(format!("fsub float {a}, {b}"))));
            }
        }
        Ok(out)
    }

    /// OpImageSample[Proj][Dref]ExplicitLod.
    fn mimg_sample(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let op = inst.class.opcode;
        let dref = matches!(op, Op::ImageSampleDrefExplicitLod | Op::ImageSampleProjDrefExplicitLod);
        let proj = matches!(op, Op::ImageSampleProjExplicitLod | Op::ImageSampleProjDrefExplicitLod);
        let (t, s, shape, sty) = self.mimg_operand(inst, 0)?;
        let s = s.ok_or_else(|| inst.bad("sampling an image that is not a sampled image"))?;
        if shape.ms {
            return Err(inst.bad("sampling a multisampled image"));
        }
        let o = self.mimg_operands(inst, if dref { 3 } else { 2 })?;
        if o.sample.is_some() || o.offsets.is_some() {
            return Err(CompileError::unsupported(format!("{} with Sample or ConstOffsets", inst.name())));
        }
        let e = if dref { "float" } else { self.mimg_elem(sty)? };
        let mut args = vec![format!("i32 {}", if dref { 1 } else { 15 })];
        let mut name = "sample".to_string();
        if dref {
            name += ".c";
        }
        if let Some(off) = o.offset {
            args.push(self.packed_offset(off, shape.spatial())?);
        }
        let (coords, q) =
            if proj { self.projected_coords(inst, shape)? } else { (self.float_coords(shape, inst.id(1)?)?, None) };
        if dref {
            let d = self.parts(inst.id(2)?, 1, "float")?.remove(0);
            args.push(match &q {
                Some(q) => format!("float {}", self.def(format!("fdiv {d}, {q}"))),
                None => d,
            });
        }
        let grad_ty = match (o.grad, o.lod) {
            (Some((dx, dy)), None) => {
                if proj && shape.dim == Dim::DimCube {
                    return Err(inst.bad("projective sampling of a cube image"));
                }
                name += ".d";
                if shape.dim == Dim::DimCube {
                    let g = self.cube_grads(inst.id(1)?, dx, dy)?;
                    args.extend(g);
                } else {
                    let n = shape.spatial();
                    let (gx, gy) = (self.parts(dx, n, "float")?, self.parts(dy, n, "float")?);
                    args.extend(gx);
                    args.extend(gy);
                }
                args.extend(coords);
                ".f32"
            }
            (None, Some(l)) => {
                name += ".l";
                args.extend(coords);
                args.push(self.parts(l, 1, "float")?.remove(0));
                ""
            }
            _ => return Err(inst.bad("explicit-LOD sampling needs exactly one of Lod and Grad")),
        };
        if let Some(m) = o.min_lod {
            name += ".cl";
            args.push(self.parts(m, 1, "float")?.remove(0));
        }
        if o.offset.is_some() {
            name += ".o";
        }
        args.extend([
            format!("<8 x i32> {t}"),
            format!("<4 x i32> {s}"),
            "i1 false".into(),
            "i32 0".into(),
            "i32 0".into(),
        ]);
        let ret = if dref { "float".to_string() } else { format!("<4 x {e}>") };
        let rsfx = if dref { "f32".to_string() } else { format!("v4{}", sfx(e)) };
        let full = format!("llvm.amdgcn.image.{name}.{}.{rsfx}{grad_ty}.f32", shape.llvm());
        let v = self.call_intrinsic(&ret, &full, &args);
        if dref {
            self.set(inst.result()?, inst.rtype()?, v);
            return Ok(());
        }
        self.set_texel(inst, &v, e)
    }

    /// The coordinates of a projective sample (Vulkan's "Projection Operation"): the
    /// component after the image's coordinates is q, and (s, t, r) / q are sampled (D_ref
    /// too, divided by the caller); with q, as an operand text.
    fn projected_coords(
        &mut self,
        inst: &dr::Instruction,
        shape: Shape,
    ) -> Result<(Vec<String>, Option<String>), CompileError> {
        if shape.arrayed || shape.dim == Dim::DimCube {
            return Err(inst.bad("projective sampling of an arrayed or cube image"));
        }
        let n = shape.coord_count();
        let mut c = self.parts(inst.id(1)?, n + 1, "float")?;
        let q = c.pop().ok_or_else(|| inst.bad("no q coordinate"))?.trim_start_matches("float ").to_string();
        let coords = c.iter().map(|x| format!("float {}", self.def(format!("fdiv {x}, {q}")))).collect();
        Ok((coords, Some(q)))
    }

    /// OpImageGather / OpImageDrefGather: `image_gather4` at level 0.
    fn mimg_gather(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let dref = inst.class.opcode == Op::ImageDrefGather;
        let (t, s, shape, sty) = self.mimg_operand(inst, 0)?;
        let s = s.ok_or_else(|| inst.bad("gathering from an image that is not a sampled image"))?;
        if shape.dim == Dim::Dim1D || shape.dim == Dim::Dim3D || shape.ms {
            return Err(inst.bad("gathers take 2D (one sample) and cube images"));
        }
        let o = self.mimg_operands(inst, 3)?;
        if o.sample.is_some() || o.lod.is_some() || o.grad.is_some() || o.min_lod.is_some() {
            return Err(inst.bad("a gather takes no Sample, Lod, Grad or MinLod"));
        }
        let e = self.mimg_elem(sty)?;
        let dmask = if dref { 1 } else { 1u32 << (self.m.const_u64(inst.id(2)?)? & 3) };
        let dref_v = if dref { Some(self.parts(inst.id(2)?, 1, "float")?.remove(0)) } else { None };
        let coords = self.float_coords(shape, inst.id(1)?)?;
        let gather = |this: &mut Self, offset: Option<String>| -> String {
            let mut args = vec![format!("i32 {dmask}")];
            let mut name = "gather4".to_string();
            if dref {
                name += ".c";
            }
            name += ".lz";
            if let Some(off) = &offset {
                args.push(off.clone());
                name += ".o";
            }
            args.extend(dref_v.clone());
            args.extend(coords.iter().cloned());
            args.extend([
                format!("<8 x i32> {t}"),
                format!("<4 x i32> {s}"),
                "i1 false".into(),
                "i32 0".into(),
                "i32 0".into(),
            ]);
            let full = format!("llvm.amdgcn.image.{name}.{}.v4{}.f32", shape.llvm(), sfx(e));
            this.call_intrinsic(&format!("<4 x {e}>"), &full, &args)
        };
        let v = match (o.offset, o.offsets) {
            (_, Some(offs)) => {
                // Four gathers, texel i0j0 (`w`) of each: ConstOffsets' texel i.
                let mut acc = "poison".to_string();
                for i in 0..4 {
                    let (off, _) = self.component(offs, i)?;
                    let packed = self.packed_offset_of(&off, 2)?;
                    let g = gather(self, Some(packed));
                    let w = self.def(format!("extractelement <4 x {e}> {g}, i32 3"));
                    acc = self.def(format!("insertelement <4 x {e}> {acc}, {e} {w}, i32 {i}"));
                }
                acc
            }
            (Some(off), None) => {
                let packed = self.packed_offset(off, 2)?;
                gather(self, Some(packed))
            }
            (None, None) => gather(self, None),
        };
        self.set_texel(inst, &v, e)
    }

    /// The packed offset of an `<2 x i32>` value text (one of ConstOffsets' elements).
    fn packed_offset_of(&mut self, v: &str, n: usize) -> Result<String, CompileError> {
        let mut acc = "0".to_string();
        for k in 0..n {
            let x = self.def(format!("extractelement <2 x i32> {v}, i32 {k}"));
            let field = self.def(format!("and i32 {x}, 63"));
            let field = self.def(format!("shl i32 {field}, {}", 8 * k));
            acc = self.def(format!("or i32 {acc}, {field}"));
        }
        Ok(format!("i32 {acc}"))
    }

    /// OpImageQuerySize(Lod) / OpImageQueryLevels: `image_get_resinfo`.
    fn mimg_query(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let (t, _, shape, _) = self.mimg_operand(inst, 0)?;
        let mip = match inst.class.opcode {
            Op::ImageQuerySizeLod => self.int_operand(inst.id(1)?)?,
            _ => "i32 0".to_string(),
        };
        if shape.ms && inst.class.opcode == Op::ImageQueryLevels {
            return Err(inst.bad("OpImageQueryLevels of a multisampled image"));
        }
        // Not the level count of an MSAA T# (see the module's notes).
        let dmask = if shape.ms { "i32 7" } else { "i32 15" };
        let args = [dmask.to_string(), mip, format!("<8 x i32> {t}"), "i32 0".into(), "i32 0".into()];
        let name = format!("llvm.amdgcn.image.getresinfo.{}.v4f32.i32", shape.llvm());
        let f = self.call_intrinsic("<4 x float>", &name, &args);
        let v = self.def(format!("bitcast <4 x float> {f} to <4 x i32>"));
        let (result, rty) = (inst.result()?, inst.rtype()?);
        if inst.class.opcode == Op::ImageQueryLevels {
            let n = self.def(format!("extractelement <4 x i32> {v}, i32 3"));
            self.set(result, rty, n);
            return Ok(());
        }
        let n = shape.size_count();
        let mut v = v;
        if shape.dim == Dim::DimCube && shape.arrayed {
            // The T# counts 2D layers; a cube array's size counts cubes.
            let z = self.def(format!("extractelement <4 x i32> {v}, i32 2"));
            let cubes = self.def(format!("udiv i32 {z}, 6"));
            v = self.def(format!("insertelement <4 x i32> {v}, i32 {cubes}, i32 2"));
        }
        let text = if n == 1 {
            self.def(format!("extractelement <4 x i32> {v}, i32 0"))
        } else {
            let lanes: Vec<String> = (0..n).map(|i| format!("i32 {i}")).collect();
            self.def(format!("shufflevector <4 x i32> {v}, <4 x i32> poison, <{n} x i32> <{}>", lanes.join(", ")))
        };
        self.set(result, rty, text);
        Ok(())
    }

    /// OpImageQuerySamples: 2^LAST_LEVEL of the T# (an MSAA T# holds log2(samples) there),
    /// 0 for a null descriptor, as Mesa's `ac_nir_lower_resinfo` reads it.
    fn mimg_query_samples(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let (t, _, shape, _) = self.mimg_operand(inst, 0)?;
        if !shape.ms {
            return Err(inst.bad("OpImageQuerySamples of an image that is not multisampled"));
        }
        let w3 = self.def(format!("extractelement <8 x i32> {t}, i32 3"));
        let last = self.def(format!("lshr i32 {w3}, 16"));
        let last = self.def(format!("and i32 {last}, 15"));
        let n = self.def(format!("shl i32 1, {last}"));
        let w1 = self.def(format!("extractelement <8 x i32> {t}, i32 1"));
        let null = self.def(format!("icmp eq i32 {w1}, 0"));
        let v = self.def(format!("select i1 {null}, i32 0, i32 {n}"));
        self.set(inst.result()?, inst.rtype()?, v);
        Ok(())
    }

    /// OpImageTexelPointer on an image: the T# and integer coordinates, for atomics.
    fn mimg_texel_pointer(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let p = self.val(inst.id(0)?)?;
        let (asp, _, pointee) = self.pointer_info(&p)?;
        let Type::Image { dim, arrayed, ms, .. } = *self.m.ty(pointee)? else {
            return Err(inst.bad("OpImageTexelPointer on something other than an image"));
        };
        if asp != 4 {
            return Err(inst.bad("OpImageTexelPointer on an image that is not a descriptor"));
        }
        let shape = Shape { dim, arrayed, ms };
        let rsrc = self.def(format!(
            "load <8 x i32>, ptr addrspace(4) {}, align 16, !invariant.load {}",
            p.text,
            super::func::MD_INVARIANT
        ));
        let mut coords = self.int_coords(shape, inst.id(1)?, None)?;
        // The Sample operand: the last address component of an MSAA image (0 otherwise).
        if ms {
            coords.push(self.int_operand(inst.id(2)?)?);
        } else if self.val(inst.id(2)?)?.text != "0" {
            return Err(inst.bad("a nonzero Sample in a texel pointer into an image that is not multisampled"));
        }
        self.texel_ptrs
            .insert(inst.result()?, TexelPointer { rsrc, index: String::new(), image: Some((shape.llvm(), coords)) });
        Ok(())
    }
}

/// The type suffix of an LLVM element type.
fn sfx(e: &str) -> &'static str {
    if e == "float" {
        "f32"
    } else {
        "i32"
    }
}
