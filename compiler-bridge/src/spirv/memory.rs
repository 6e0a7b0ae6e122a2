//! Matrix layouts in memory (`MatrixStride`, `RowMajor`), PhysicalStorageBuffer pointers
//! and the pointer instructions that come with them, and OpQuantizeToF16.

use rspirv::dr;
use spirv::{Op, StorageClass};

use super::func::{bool_ty, FnCx, Val};
use super::module::Module;
use super::types::{ptr_ty, Rule, Type};
use super::{Id, InstExt};
use crate::CompileError;

/// How a matrix is laid out in memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct MatrixLayout {
    /// Bytes between columns (column-major) or rows (row-major).
    pub stride: u64,
    pub row_major: bool,
}

/// What a pointer's type alone does not say about the memory it points to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum PtrLayout {
    /// A matrix, or an array of matrices, laid out like this.
    Matrix(MatrixLayout),
    /// A vector whose components are this many bytes apart: a column of a row-major matrix.
    Strided(u64),
}

impl Module<'_> {
    /// The matrix type in `ty` when `ty` is a matrix or an array (of arrays) of matrices.
    pub(crate) fn matrix_of(&self, ty: Id) -> Result<Option<Id>, CompileError> {
        match self.ty(ty)? {
            Type::Matrix { .. } => Ok(Some(ty)),
            Type::Array { elem, .. } | Type::RuntimeArray { elem } => self.matrix_of(*elem),
            _ => Ok(None),
        }
    }

    /// (column type, columns, rows, bytes per scalar) of matrix type `mty`.
    pub(crate) fn matrix_shape(&self, mty: Id) -> Result<(Id, u32, u32, u64), CompileError> {
        match self.ty(mty)? {
            Type::Matrix { col, count } => match self.ty(*col)? {
                Type::Vector { count: rows, .. } => Ok((*col, *count, *rows, self.scalar_size(*col)?)),
                _ => Err(CompileError::invalid(format!("matrix %{mty} has a column that is not a vector"))),
            },
            _ => Err(CompileError::invalid(format!("%{mty} is not a matrix"))),
        }
    }

    /// Our own layout: columns back to back, scalar aligned. Also what an explicitly laid
    /// out matrix without a `MatrixStride` (invalid SPIR-V) gets.
    pub(crate) fn default_matrix_layout(&self, mty: Id, _rule: Rule) -> Result<MatrixLayout, CompileError> {
        let (_, _, rows, ss) = self.matrix_shape(mty)?;
        Ok(MatrixLayout { stride: ss * u64::from(rows), row_major: false })
    }

    /// The layout of the matrices in member `member` of struct `st`, if it holds any.
    pub(crate) fn member_matrix_layout(
        &self,
        st: Id,
        member: u32,
        rule: Rule,
    ) -> Result<Option<MatrixLayout>, CompileError> {
        let Some(mty) = self.matrix_of(self.element_type(st, member)?)? else { return Ok(None) };
        let mut l = self.default_matrix_layout(mty, rule)?;
        if rule == Rule::Explicit {
            l.row_major = self.deco.row_major.contains(&(st, member));
            match self.deco.matrix_stride.get(&(st, member)) {
                Some(s) => l.stride = u64::from(*s),
                None if l.row_major => {
                    let (_, cols, _, ss) = self.matrix_shape(mty)?;
                    l.stride = ss * u64::from(cols);
                }
                None => {}
            }
        }
        Ok(Some(l))
    }

    /// (size, alignment) of matrix `mty` laid out as `l`.
    pub(crate) fn matrix_size_align(&self, mty: Id, l: MatrixLayout) -> Result<(u64, u64), CompileError> {
        let (_, cols, rows, ss) = self.matrix_shape(mty)?;
        let major = if l.row_major { rows } else { cols };
        Ok((l.stride.saturating_mul(u64::from(major)), ss))
    }

    /// Bytes between the elements an OpPtrAccessChain's Element operand steps over: the
    /// pointer type's `ArrayStride`, else the pointee's size.
    fn element_stride(&self, ptr_ty: Id, rule: Rule) -> Result<u64, CompileError> {
        if let Some(s) = self.deco.array_stride.get(&ptr_ty) {
            return Ok(u64::from(*s));
        }
        let (_, pointee) = self.pointer(ptr_ty)?;
        let (s, a) = self.size_align(pointee, rule)?;
        Ok(super::types::align_up(s, a))
    }
}

impl FnCx<'_, '_> {
    /// One array/vector/matrix step of an access chain from type `cur`: (byte stride, element
    /// type), with `layout` tracking the matrix layout the chain is inside.
    pub(super) fn chain_step(
        &self,
        cur: Id,
        rule: Rule,
        layout: &mut Option<PtrLayout>,
    ) -> Result<(i64, Id), CompileError> {
        match self.m.ty(cur)?.clone() {
            Type::Matrix { col, .. } => {
                let l = match *layout {
                    Some(PtrLayout::Matrix(l)) => l,
                    _ => self.m.default_matrix_layout(cur, rule)?,
                };
                if l.row_major {
                    *layout = Some(PtrLayout::Strided(l.stride));
                    Ok((self.m.scalar_size(col)? as i64, col))
                } else {
                    *layout = None;
                    Ok((l.stride as i64, col))
                }
            }
            Type::Vector { elem, .. } => {
                let stride = match layout.take() {
                    Some(PtrLayout::Strided(s)) => s,
                    _ => self.m.stride(cur, rule)?,
                };
                Ok((stride as i64, elem))
            }
            Type::Array { elem, .. } | Type::RuntimeArray { elem } => Ok((self.m.stride(cur, rule)? as i64, elem)),
            _ => Err(CompileError::invalid(format!("access chain indexes into %{cur}, which is not a composite"))),
        }
    }

    /// Stride of the Element operand of OpPtrAccessChain on a pointer of type `ptr_ty`.
    pub(super) fn ptr_element_stride(&self, ptr_ty: Id, rule: Rule) -> Result<i64, CompileError> {
        Ok(self.m.element_stride(ptr_ty, rule)? as i64)
    }

    /// Loads through pointer value `ptr_id` (its text `ptr`), honouring a matrix layout the
    /// access chain that made it recorded.
    pub(super) fn load_via(
        &mut self,
        ptr_id: Id,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        vol: bool,
    ) -> Result<String, CompileError> {
        match self.ptr_layout.get(&ptr_id).copied() {
            Some(PtrLayout::Matrix(l)) => self.load_matrix(ptr, asp, rule, ty, l, vol),
            Some(PtrLayout::Strided(s)) => self.load_strided(ptr, asp, ty, s, vol),
            None => self.load_typed(ptr, asp, rule, ty, vol),
        }
    }

    /// Stores through pointer value `ptr_id`; see [`Self::load_via`].
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_via(
        &mut self,
        ptr_id: Id,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        value: &str,
        vol: bool,
    ) -> Result<(), CompileError> {
        match self.ptr_layout.get(&ptr_id).copied() {
            Some(PtrLayout::Matrix(l)) => self.store_matrix(ptr, asp, rule, ty, l, value, vol),
            Some(PtrLayout::Strided(s)) => self.store_strided(ptr, asp, ty, s, value, vol),
            None => self.store_typed(ptr, asp, rule, ty, value, vol),
        }
    }

    /// Loads member `index` (of type `mty`) of struct `st` from `ptr`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn load_member(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        st: Id,
        index: u32,
        mty: Id,
        vol: bool,
    ) -> Result<String, CompileError> {
        match self.m.member_matrix_layout(st, index, rule)? {
            Some(l) => self.load_matrix(ptr, asp, rule, mty, l, vol),
            None => self.load_typed(ptr, asp, rule, mty, vol),
        }
    }

    /// Stores member `index` (of type `mty`) of struct `st` to `ptr`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_member(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        st: Id,
        index: u32,
        mty: Id,
        value: &str,
        vol: bool,
    ) -> Result<(), CompileError> {
        match self.m.member_matrix_layout(st, index, rule)? {
            Some(l) => self.store_matrix(ptr, asp, rule, mty, l, value, vol),
            None => self.store_typed(ptr, asp, rule, mty, value, vol),
        }
    }

    /// Loads a matrix, or an array of matrices, laid out as `l`.
    pub(super) fn load_matrix(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        l: MatrixLayout,
        vol: bool,
    ) -> Result<String, CompileError> {
        let t = self.m.llty(ty)?;
        let mut agg = "poison".to_string();
        match self.m.ty(ty)?.clone() {
            Type::Matrix { col, count } => {
                let ct = self.m.llty(col)?;
                let ss = self.m.scalar_size(col)?;
                for c in 0..count {
                    let v = if l.row_major {
                        let p = self.offset_ptr(ptr, asp, u64::from(c) * ss);
                        self.load_strided(&p, asp, col, l.stride, vol)?
                    } else {
                        let p = self.offset_ptr(ptr, asp, u64::from(c) * l.stride);
                        self.load_typed(&p, asp, rule, col, vol)?
                    };
                    agg = self.def(format!("insertvalue {t} {agg}, {ct} {v}, {c}"));
                }
            }
            Type::Array { elem, len } => {
                let stride = self.m.stride(ty, rule)?;
                let et = self.m.llty(elem)?;
                for i in 0..len {
                    let p = self.offset_ptr(ptr, asp, u64::from(i) * stride);
                    let v = self.load_matrix(&p, asp, rule, elem, l, vol)?;
                    agg = self.def(format!("insertvalue {t} {agg}, {et} {v}, {i}"));
                }
            }
            _ => return Err(CompileError::invalid(format!("%{ty} is not a matrix or an array of matrices"))),
        }
        Ok(agg)
    }

    /// Stores a matrix, or an array of matrices, laid out as `l`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_matrix(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        l: MatrixLayout,
        value: &str,
        vol: bool,
    ) -> Result<(), CompileError> {
        let t = self.m.llty(ty)?;
        match self.m.ty(ty)?.clone() {
            Type::Matrix { col, count } => {
                let ss = self.m.scalar_size(col)?;
                for c in 0..count {
                    let v = self.def(format!("extractvalue {t} {value}, {c}"));
                    if l.row_major {
                        let p = self.offset_ptr(ptr, asp, u64::from(c) * ss);
                        self.store_strided(&p, asp, col, l.stride, &v, vol)?;
                    } else {
                        let p = self.offset_ptr(ptr, asp, u64::from(c) * l.stride);
                        self.store_typed(&p, asp, rule, col, &v, vol)?;
                    }
                }
            }
            Type::Array { elem, len } => {
                let stride = self.m.stride(ty, rule)?;
                for i in 0..len {
                    let v = self.def(format!("extractvalue {t} {value}, {i}"));
                    let p = self.offset_ptr(ptr, asp, u64::from(i) * stride);
                    self.store_matrix(&p, asp, rule, elem, l, &v, vol)?;
                }
            }
            _ => return Err(CompileError::invalid(format!("%{ty} is not a matrix or an array of matrices"))),
        }
        Ok(())
    }

    /// Loads a vector whose components are `stride` bytes apart.
    pub(super) fn load_strided(
        &mut self,
        ptr: &str,
        asp: u32,
        vty: Id,
        stride: u64,
        vol: bool,
    ) -> Result<String, CompileError> {
        let Type::Vector { elem, count } = *self.m.ty(vty)? else {
            // A single component of a row-major column is a plain scalar.
            return self.load_typed(ptr, asp, Rule::Natural, vty, vol);
        };
        let (t, et) = (self.m.llty(vty)?, self.m.llty(elem)?);
        let mut v = "poison".to_string();
        for i in 0..count {
            let p = self.offset_ptr(ptr, asp, u64::from(i) * stride);
            let s = self.load_typed(&p, asp, Rule::Natural, elem, vol)?;
            v = self.def(format!("insertelement {t} {v}, {et} {s}, i32 {i}"));
        }
        Ok(v)
    }

    pub(super) fn store_strided(
        &mut self,
        ptr: &str,
        asp: u32,
        vty: Id,
        stride: u64,
        value: &str,
        vol: bool,
    ) -> Result<(), CompileError> {
        let Type::Vector { elem, count } = *self.m.ty(vty)? else {
            return self.store_typed(ptr, asp, Rule::Natural, vty, value, vol);
        };
        let t = self.m.llty(vty)?;
        for i in 0..count {
            let s = self.def(format!("extractelement {t} {value}, i32 {i}"));
            let p = self.offset_ptr(ptr, asp, u64::from(i) * stride);
            self.store_typed(&p, asp, Rule::Natural, elem, &s, vol)?;
        }
        Ok(())
    }

    /// Whether a vector access through a buffer fat pointer (address space 7) must go
    /// component by component: LLVM 19 cannot select buffer accesses wider than 16 bytes
    /// (dvec3, dvec4, i64vec3...) nor legalise ones of i8 vectors or of a size that is not
    /// a whole number of dwords (f16vec3).
    pub(super) fn split_vector_access(&self, ty: Id, asp: u32) -> Result<bool, CompileError> {
        if asp != 7 {
            return Ok(false);
        }
        let (size, _) = self.m.size_align(ty, Rule::Natural)?;
        Ok(size > 16 || size % 4 != 0 || self.m.scalar_size(ty)? == 1)
    }

    /// Loads a pointer of type `ty` stored in memory (address space `asp`, laid out by
    /// `rule`): see [`Self::stored_pointer`].
    pub(super) fn load_pointer(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        vol: bool,
    ) -> Result<String, CompileError> {
        let (t, align) = self.stored_pointer(rule, ty)?;
        let vol = if vol { "volatile " } else { "" };
        Ok(self.def(format!("load {vol}{t}, {} {ptr}, align {align}", ptr_ty(asp))))
    }

    #[allow(clippy::too_many_arguments)]
    pub(super) fn store_pointer(
        &mut self,
        ptr: &str,
        asp: u32,
        rule: Rule,
        ty: Id,
        value: &str,
        vol: bool,
    ) -> Result<(), CompileError> {
        let (t, align) = self.stored_pointer(rule, ty)?;
        let vol = if vol { "volatile " } else { "" };
        self.emit(format!("store {vol}{t} {value}, {} {ptr}, align {align}", ptr_ty(asp)));
        Ok(())
    }

    /// (LLVM type, alignment) of a pointer of type `ty` kept in memory laid out by `rule`. PhysicalStorageBuffer pointers (64-bit addresses) may be stored anywhere;
    /// other pointers only in our own memory (Function, Private and Workgroup variables:
    /// VariablePointers), where LLVM stores them whole (a buffer fat pointer as its V# and
    /// offset). Externally visible memory holds no logical pointers (the Vulkan
    /// environment forbids them).
    fn stored_pointer(&self, rule: Rule, ty: Id) -> Result<(String, u64), CompileError> {
        let (storage, _) = self.m.pointer(ty)?;
        if storage != StorageClass::PhysicalStorageBuffer && rule == Rule::Explicit {
            return Err(CompileError::unsupported(format!(
                "pointer to {storage:?} stored in externally visible memory (only PhysicalStorageBuffer pointers have a memory form there)"
            )));
        }
        let (_, align) = self.m.size_align(ty, rule)?;
        Ok((self.m.llty(ty)?, align))
    }

    /// OpBitcast to or from a PhysicalStorageBuffer pointer: the other side is a 64-bit
    /// integer or a 2-component vector of 32-bit integers.
    pub(super) fn bitcast_pointer(&mut self, inst: &dr::Instruction, a: &Val) -> Result<(), CompileError> {
        let rty = inst.rtype()?;
        let psb =
            |ty: Id| matches!(self.m.ty(ty), Ok(Type::Pointer { storage: StorageClass::PhysicalStorageBuffer, .. }));
        let (rt, at) = (self.m.llty(rty)?, self.m.llty(a.ty)?);
        match (psb(a.ty), psb(rty)) {
            (true, true) => self.alias(inst, a.text.clone()),
            (true, false) if rt == "i64" || rt == "<2 x i32>" => {
                let i = self.def(format!("ptrtoint ptr addrspace(1) {} to i64", a.text));
                self.define(inst, format!("bitcast i64 {i} to {rt}"))
            }
            (false, true) if at == "i64" || at == "<2 x i32>" => {
                let i = self.def(format!("bitcast {at} {} to i64", a.text));
                self.define(inst, format!("inttoptr i64 {i} to ptr addrspace(1)"))
            }
            _ => Err(CompileError::unsupported(format!("OpBitcast between {at} and {rt}"))),
        }
    }

    /// Pointers that go through OpSelect, OpPhi, a function call or return, or memory lose
    /// what the access chain that made them knew about their matrix layout: refuse those
    /// rather than read a matrix with the wrong layout.
    pub(super) fn check_variable_pointers(&self, ids: &[Id]) -> Result<(), CompileError> {
        match ids.iter().find(|id| self.ptr_layout.contains_key(id)) {
            Some(id) => Err(CompileError::unsupported(format!(
                "pointer %{id} into an explicitly laid out matrix selected, merged, stored or passed to a function"
            ))),
            None => Ok(()),
        }
    }

    /// Pointer conversions and comparisons, matrix arithmetic and OpQuantizeToF16.
    pub(super) fn lower_memory_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        match inst.class.opcode {
            Op::ConvertUToPtr => {
                let a = self.val(inst.id(0)?)?;
                let rty = inst.rtype()?;
                if !matches!(self.m.pointer(rty)?, (StorageClass::PhysicalStorageBuffer, _)) {
                    return Err(CompileError::unsupported(
                        "OpConvertUToPtr to a pointer that is not PhysicalStorageBuffer",
                    ));
                }
                let (w, _, _) = self.m.scalar_kind(a.ty)?;
                let wide = if w < 64 { self.def(format!("zext i{w} {} to i64", a.text)) } else { a.text };
                self.define(inst, format!("inttoptr i64 {wide} to ptr addrspace(1)"))
            }
            Op::ConvertPtrToU => {
                let a = self.val(inst.id(0)?)?;
                if !matches!(self.m.pointer(a.ty)?, (StorageClass::PhysicalStorageBuffer, _)) {
                    return Err(CompileError::unsupported(
                        "OpConvertPtrToU of a pointer that is not PhysicalStorageBuffer",
                    ));
                }
                let rt = self.m.llty(inst.rtype()?)?;
                self.define(inst, format!("ptrtoint ptr addrspace(1) {} to {rt}", a.text))
            }
            Op::PtrEqual | Op::PtrNotEqual => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let pred = if inst.class.opcode == Op::PtrEqual { "eq" } else { "ne" };
                self.define(inst, format!("icmp {pred} {}, {}", self.typed(&a)?, b.text))
            }
            Op::PtrDiff => {
                // Pointers into one array: the byte distance (the offset part of a buffer
                // fat pointer, whose resource half is the same) over the element size (the
                // pointer type's ArrayStride, else the pointee's size in its layout).
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let (asp, rule, pointee) = self.pointer_info(&a)?;
                let stride = match self.m.deco.array_stride.get(&a.ty) {
                    Some(s) => u64::from(*s),
                    None => self.m.size_align(pointee, rule)?.0,
                };
                if stride == 0 {
                    return Err(inst.bad("pointee of size 0"));
                }
                let bits = match asp {
                    7 => 160,
                    1 | 0 => 64,
                    _ => 32,
                };
                let pt = super::types::ptr_ty(asp);
                let ia = self.def(format!("ptrtoint {pt} {} to i{bits}", a.text));
                let ib = self.def(format!("ptrtoint {pt} {} to i{bits}", b.text));
                let d = self.def(format!("sub i{bits} {ia}, {ib}"));
                let d = if bits == 64 {
                    d
                } else {
                    self.def(format!("{} i{bits} {d} to i64", if bits > 64 { "trunc" } else { "sext" }))
                };
                // A buffer offset is 32 bits: sign-extend its difference.
                let d = if bits == 160 {
                    let t = self.def(format!("trunc i64 {d} to i32"));
                    self.def(format!("sext i32 {t} to i64"))
                } else {
                    d
                };
                let n = self.def(format!("sdiv exact i64 {d}, {stride}"));
                let rt = self.m.llty(inst.rtype()?)?;
                if rt == "i64" {
                    self.alias(inst, n)
                } else {
                    self.define(inst, format!("trunc i64 {n} to {rt}"))
                }
            }
            Op::QuantizeToF16 => {
                let a = self.val(inst.id(0)?)?;
                let t = self.m.llty(a.ty)?;
                let ht = t.replace("float", "half");
                let h = self.def(format!("fptrunc {t} {} to {ht}", a.text));
                // Results too small for a normal f16 are flushed to zero of their sign.
                let abs = self.call_intrinsic(
                    &ht,
                    &format!("llvm.fabs.{}", super::types::intrinsic_suffix(&ht)),
                    &[format!("{ht} {h}")],
                );
                let min = self.splat_const(a.ty, "0xH0400")?.replace("float", "half");
                let tiny = self.def(format!("fcmp olt {ht} {abs}, {min}"));
                let zero = self.splat_const(a.ty, "0.0")?.replace("float", "half");
                let z = self.call_intrinsic(
                    &ht,
                    &format!("llvm.copysign.{}", super::types::intrinsic_suffix(&ht)),
                    &[format!("{ht} {zero}"), format!("{ht} {h}")],
                );
                let q = self.def(format!("select {} {tiny}, {ht} {z}, {ht} {h}", bool_ty(&ht)));
                self.define(inst, format!("fpext {ht} {q} to {t}"))
            }
            _ => self.lower_matrix_inst(inst),
        }
    }
}
