//! Matrix arithmetic: a matrix value is an LLVM array of column vectors, `[C x <R x T>]`.

use rspirv::dr;
use spirv::Op;

use super::func::{FnCx, Val};
use super::types::Type;
use super::{Id, InstExt};
use crate::CompileError;

/// GLSL.std.450 instruction numbers handled here.
pub(super) const GLSL_DETERMINANT: u32 = 33;
pub(super) const GLSL_MATRIX_INVERSE: u32 = 34;

impl FnCx<'_, '_> {
    /// The columns of matrix value `m` as vector operand texts.
    fn columns(&mut self, m: &Val) -> Result<Vec<String>, CompileError> {
        let (_, cols, _, _) = self.m.matrix_shape(m.ty)?;
        let t = self.m.llty(m.ty)?;
        Ok((0..cols).map(|c| self.def(format!("extractvalue {t} {}, {c}", m.text))).collect())
    }

    /// Every component of matrix value `m`, as `[column][row]` scalar texts.
    fn elements(&mut self, m: &Val) -> Result<Vec<Vec<String>>, CompileError> {
        let (col, _, rows, _) = self.m.matrix_shape(m.ty)?;
        let ct = self.m.llty(col)?;
        let mut out = Vec::new();
        for c in self.columns(m)? {
            out.push((0..rows).map(|r| self.def(format!("extractelement {ct} {c}, i32 {r}"))).collect());
        }
        Ok(out)
    }

    /// Builds a matrix value of type `mty` from column texts.
    fn build_matrix(&mut self, mty: Id, cols: &[String]) -> Result<String, CompileError> {
        let (col, _, _, _) = self.m.matrix_shape(mty)?;
        let (t, ct) = (self.m.llty(mty)?, self.m.llty(col)?);
        let mut acc = "poison".to_string();
        for (i, c) in cols.iter().enumerate() {
            acc = self.def(format!("insertvalue {t} {acc}, {ct} {c}, {i}"));
        }
        Ok(acc)
    }

    /// Builds a vector of type `vty` from scalar texts.
    fn build_vector(&mut self, vty: Id, parts: &[String]) -> Result<String, CompileError> {
        let Type::Vector { elem, .. } = *self.m.ty(vty)? else {
            return Err(CompileError::invalid(format!("%{vty} is not a vector")));
        };
        let (t, et) = (self.m.llty(vty)?, self.m.llty(elem)?);
        let mut acc = "poison".to_string();
        for (i, p) in parts.iter().enumerate() {
            acc = self.def(format!("insertelement {t} {acc}, {et} {p}, i32 {i}"));
        }
        Ok(acc)
    }

    /// `sum_i cols[i] * v[i]` for columns of vector type `cty` and vector value `v`.
    fn combine_columns(&mut self, cty: Id, cols: &[String], v: &Val) -> Result<String, CompileError> {
        let (ct, vt) = (self.m.llty(cty)?, self.m.llty(v.ty)?);
        let Type::Vector { elem, .. } = *self.m.ty(v.ty)? else {
            return Err(CompileError::invalid("matrix operand is not a vector"));
        };
        let mut acc: Option<String> = None;
        for (i, c) in cols.iter().enumerate() {
            let s = self.def(format!("extractelement {vt} {}, i32 {i}", v.text));
            let splat = self.splat(cty, &Val { ty: elem, text: s })?;
            let p = self.def(format!("fmul contract {ct} {c}, {splat}"));
            acc = Some(match acc {
                Some(a) => self.def(format!("fadd contract {ct} {a}, {p}")),
                None => p,
            });
        }
        acc.ok_or_else(|| CompileError::invalid("matrix without columns"))
    }

    /// Dot product of two vector texts of type `vty`.
    fn dot(&mut self, vty: Id, a: &str, b: &str) -> Result<String, CompileError> {
        let Type::Vector { elem, .. } = *self.m.ty(vty)? else {
            return Err(CompileError::invalid(format!("%{vty} is not a vector")));
        };
        let (t, et) = (self.m.llty(vty)?, self.m.llty(elem)?);
        let prod = self.def(format!("fmul contract {t} {a}, {b}"));
        Ok(self.call_intrinsic(
            &et,
            &format!("llvm.vector.reduce.fadd.{}", super::types::intrinsic_suffix(&t)),
            &[format!("{et} -0.0"), format!("{t} {prod}")],
        ))
    }

    /// Matrix instructions; anything else is Unsupported, naming the opcode.
    pub(super) fn lower_matrix_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        let rty = inst.rtype()?;
        let r = match inst.class.opcode {
            Op::MatrixTimesScalar => {
                let (m, s) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let (col, _, _, _) = self.m.matrix_shape(m.ty)?;
                let ct = self.m.llty(col)?;
                let splat = self.splat(col, &s)?;
                let mut out = Vec::new();
                for c in self.columns(&m)? {
                    out.push(self.def(format!("fmul contract {ct} {c}, {splat}")));
                }
                self.build_matrix(rty, &out)?
            }
            Op::MatrixTimesVector => {
                let (m, v) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let (col, _, _, _) = self.m.matrix_shape(m.ty)?;
                let cols = self.columns(&m)?;
                self.combine_columns(col, &cols, &v)?
            }
            Op::VectorTimesMatrix => {
                let (v, m) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let mut out = Vec::new();
                for c in self.columns(&m)? {
                    out.push(self.dot(v.ty, &v.text, &c)?);
                }
                self.build_vector(rty, &out)?
            }
            Op::MatrixTimesMatrix => {
                let (a, b) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let (acol, _, _, _) = self.m.matrix_shape(a.ty)?;
                let (bcol, _, _, _) = self.m.matrix_shape(b.ty)?;
                let acols = self.columns(&a)?;
                let mut out = Vec::new();
                for c in self.columns(&b)? {
                    out.push(self.combine_columns(acol, &acols, &Val { ty: bcol, text: c })?);
                }
                self.build_matrix(rty, &out)?
            }
            Op::OuterProduct => {
                let (c, r) = (self.val(inst.id(0)?)?, self.val(inst.id(1)?)?);
                let Type::Vector { elem, count } = *self.m.ty(r.ty)? else {
                    return Err(inst.bad("operand 1 is not a vector"));
                };
                let (ct, rt) = (self.m.llty(c.ty)?, self.m.llty(r.ty)?);
                let mut out = Vec::new();
                for j in 0..count {
                    let s = self.def(format!("extractelement {rt} {}, i32 {j}", r.text));
                    let splat = self.splat(c.ty, &Val { ty: elem, text: s })?;
                    out.push(self.def(format!("fmul contract {ct} {}, {splat}", c.text)));
                }
                self.build_matrix(rty, &out)?
            }
            Op::Transpose => {
                let m = self.val(inst.id(0)?)?;
                let e = self.elements(&m)?;
                let (rcol, rcols, _, _) = self.m.matrix_shape(rty)?;
                let mut out = Vec::new();
                for i in 0..rcols as usize {
                    let parts: Vec<String> = e.iter().map(|col| col.get(i).cloned().unwrap_or_default()).collect();
                    out.push(self.build_vector(rcol, &parts)?);
                }
                self.build_matrix(rty, &out)?
            }
            _ => return Err(CompileError::unsupported(inst.name())),
        };
        self.alias(inst, r)
    }

    /// GLSL.std.450 Determinant and MatrixInverse, by cofactor expansion.
    pub(super) fn glsl_matrix(&mut self, inst: &dr::Instruction, number: u32) -> Result<(), CompileError> {
        let m = self.val(inst.id(2)?)?;
        let (col, cols, rows, _) = self.m.matrix_shape(m.ty)?;
        if cols != rows {
            return Err(inst.bad("matrix is not square"));
        }
        let Type::Vector { elem, .. } = *self.m.ty(col)? else { return Err(inst.bad("bad matrix column")) };
        let ty = self.m.llty(elem)?;
        let e = self.elements(&m)?;
        // f16 matrices are computed in f32 and rounded once at the end (GLSL lets any
        // operation be more precise): rounding each of the cofactor expansion's products
        // to f16 left results outside the CTS's bounds for its own formula
        // (glsl.builtin.precision_fp16_storage16b.inverse.compute.mat3); lavapipe's f16
        // is f32 inside too.
        let wide = ty == "half";
        let et = if wide { "float".to_string() } else { ty.clone() };
        let narrow = |cx: &mut Self, x: String| if wide { cx.def(format!("fptrunc float {x} to half")) } else { x };
        // a[r][c]: row r, column c.
        let mut a: Vec<Vec<String>> = (0..rows as usize).map(|r| e.iter().map(|c| c[r].clone()).collect()).collect();
        if wide {
            for x in a.iter_mut().flatten() {
                *x = self.def(format!("fpext half {x} to float"));
            }
        }
        let all: Vec<usize> = (0..rows as usize).collect();
        let det = self.det(&et, &a, &all, &all);
        if number == super::matrix::GLSL_DETERMINANT {
            let det = narrow(self, det);
            return self.alias(inst, det);
        }
        let n = rows as usize;
        let mut out_cols = Vec::new();
        for c in 0..n {
            let mut parts = Vec::new();
            for r in 0..n {
                // inverse[r][c] = cofactor(c, r) / det (a division each: a reciprocal
                // multiplied in rounds twice)
                let rows_left: Vec<usize> = (0..n).filter(|&i| i != c).collect();
                let cols_left: Vec<usize> = (0..n).filter(|&j| j != r).collect();
                let minor = self.det(&et, &a, &rows_left, &cols_left);
                let signed = if (r + c) % 2 == 1 { self.def(format!("fneg {et} {minor}")) } else { minor };
                let x = self.def(format!("fdiv {et} {signed}, {det}"));
                parts.push(narrow(self, x));
            }
            out_cols.push(self.build_vector(col, &parts)?);
        }
        let r = self.build_matrix(inst.rtype()?, &out_cols)?;
        self.alias(inst, r)
    }

    /// Determinant of the submatrix of `a` on rows `rs` and columns `cs` (expansion along
    /// the first row).
    fn det(&mut self, et: &str, a: &[Vec<String>], rs: &[usize], cs: &[usize]) -> String {
        match (rs, cs) {
            ([r], [c]) => a[*r][*c].clone(),
            ([r0, r1], [c0, c1]) => {
                let p = self.def(format!("fmul {et} {}, {}", a[*r0][*c0], a[*r1][*c1]));
                let q = self.def(format!("fmul {et} {}, {}", a[*r0][*c1], a[*r1][*c0]));
                self.def(format!("fsub {et} {p}, {q}"))
            }
            _ => {
                let (r0, rest) = (rs[0], &rs[1..]);
                let mut acc: Option<String> = None;
                for (k, &c) in cs.iter().enumerate() {
                    let sub: Vec<usize> = cs.iter().copied().filter(|&x| x != c).collect();
                    let minor = self.det(et, a, rest, &sub);
                    let term = self.def(format!("fmul {et} {}, {minor}", a[r0][c]));
                    acc = Some(match acc {
                        None => term,
                        Some(s) if k % 2 == 1 => self.def(format!("fsub {et} {s}, {term}")),
                        Some(s) => self.def(format!("fadd {et} {s}, {term}")),
                    });
                }
                acc.unwrap_or_default()
            }
        }
    }
}
