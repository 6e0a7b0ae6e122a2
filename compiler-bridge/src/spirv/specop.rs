//! `OpSpecConstantOp` operations with a variable number of literals, which rspirv 0.13's
//! decoder refuses ("found extra operands"): `CompositeExtract` / `CompositeInsert` of
//! several indices and `VectorShuffle`. Rewritten before rspirv reads the module as chains
//! of one-index extracts and inserts through new ids, whose types are the intermediate
//! composites' (a shuffle: each selected component extracted and inserted into an
//! `OpUndef` of the result type). The CTS's
//! `spirv_assembly.instruction.compute.opspecconstantop.vector_related` has all three.

use std::collections::HashMap;

use crate::CompileError;

const UNDEF: u32 = 1;
const VECTOR_SHUFFLE: u32 = 79;
const COMPOSITE_EXTRACT: u32 = 81;
const COMPOSITE_INSERT: u32 = 82;
const SPEC_CONSTANT_OP: u32 = 52;
/// "Structure nesting depth" of the SPIR-V specification's universal limits.
const MAX_NESTING: usize = 255;

/// Types and values seen so far: the member types of composite types, the type of each
/// constant and undef.
#[derive(Default)]
pub(super) struct Splitter {
    members: HashMap<u32, Members>,
    /// Component counts of vector types.
    lengths: HashMap<u32, u32>,
    value_type: HashMap<u32, u32>,
    /// The module's id bound, raised for every new id.
    pub bound: u32,
}

enum Members {
    /// Vectors, matrices and arrays: one type for every index.
    Same(u32),
    /// Structures: a type per member.
    Each(Vec<u32>),
}

impl Splitter {
    /// For a module whose header states id bound `bound`.
    pub fn new(bound: u32) -> Splitter {
        Splitter { bound, ..Default::default() }
    }

    /// Records what `inst` declares (module order: declarations come before their uses).
    pub fn note(&mut self, inst: &[u32]) {
        let op = inst[0] & 0xffff;
        match (op, inst.len()) {
            // OpTypeVector, OpTypeMatrix, OpTypeArray: %r, element type, ...
            (23 | 24 | 28, 4..) | (29, 3..) => {
                self.members.insert(inst[1], Members::Same(inst[2]));
                if op == 23 {
                    self.lengths.insert(inst[1], inst[3]);
                }
            }
            (30, 2..) => {
                self.members.insert(inst[1], Members::Each(inst[2..].to_vec()));
            }
            // OpUndef, OpConstant*, OpSpecConstant*: result type, result id.
            (1 | 41..=46 | 48..=52, 3..) => {
                self.value_type.insert(inst[2], inst[1]);
            }
            _ => {}
        }
    }

    fn member(&self, ty: u32, index: u32) -> Result<u32, CompileError> {
        let t = match self.members.get(&ty) {
            Some(Members::Same(t)) => Some(*t),
            Some(Members::Each(m)) => m.get(index as usize).copied(),
            None => None,
        };
        t.ok_or_else(|| CompileError::invalid(format!("OpSpecConstantOp: index {index} into %{ty}, not a composite")))
    }

    fn type_of(&self, id: u32) -> Result<u32, CompileError> {
        self.value_type
            .get(&id)
            .copied()
            .ok_or_else(|| CompileError::invalid(format!("OpSpecConstantOp: %{id} is not a constant")))
    }

    /// A new id; the bound saturates (rspirv then refuses the module for its ids).
    fn fresh(&mut self) -> u32 {
        self.bound = self.bound.saturating_add(1);
        self.bound - 1
    }

    /// `inst` as one-index instructions appended to `out`, or `false` when it needs no
    /// rewriting (left to the caller).
    pub fn split(&mut self, inst: &[u32], out: &mut Vec<u32>) -> Result<bool, CompileError> {
        let (ty, result) = (inst[1], inst[2]);
        // SPIR-V's universal limit on composite nesting; also bounds the recursion below.
        if inst.len() > 6 + MAX_NESTING && matches!(inst[3], COMPOSITE_EXTRACT | COMPOSITE_INSERT) {
            return Err(CompileError::invalid("OpSpecConstantOp: more indices than composites can nest (255)"));
        }
        match inst[3] {
            COMPOSITE_EXTRACT if inst.len() > 6 => {
                let (mut cur, indices) = (inst[4], &inst[5..]);
                let mut cur_ty = self.type_of(cur)?;
                for (k, &i) in indices.iter().enumerate() {
                    let last = k + 1 == indices.len();
                    let t = if last { ty } else { self.member(cur_ty, i)? };
                    let id = if last { result } else { self.fresh() };
                    self.emit(out, [t, id, COMPOSITE_EXTRACT, cur, i]);
                    (cur, cur_ty) = (id, t);
                }
                Ok(true)
            }
            COMPOSITE_INSERT if inst.len() > 7 => {
                self.insert(out, ty, result, inst[4], inst[5], &inst[6..])?;
                Ok(true)
            }
            VECTOR_SHUFFLE if inst.len() >= 6 => {
                self.shuffle(out, ty, result, [inst[4], inst[5]], &inst[6..])?;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    /// `%result : ty = shuffle of vectors `v` selecting `comps`` (0xFFFFFFFF: undefined).
    fn shuffle(
        &mut self,
        out: &mut Vec<u32>,
        ty: u32,
        result: u32,
        v: [u32; 2],
        comps: &[u32],
    ) -> Result<(), CompileError> {
        let elem = self.member(ty, 0)?;
        let first_len = self.lengths.get(&self.type_of(v[0])?).copied();
        let first_len =
            first_len.ok_or_else(|| CompileError::invalid("OpSpecConstantOp VectorShuffle of a non-vector"))?;
        let last = comps.iter().rposition(|&c| c != u32::MAX);
        let Some(last) = last else {
            self.emit_op(out, UNDEF, [ty, result]);
            return Ok(());
        };
        let mut cur = self.fresh();
        self.emit_op(out, UNDEF, [ty, cur]);
        for (j, &c) in comps.iter().enumerate().take(last + 1).filter(|(_, &c)| c != u32::MAX) {
            let (src, i) = if c < first_len { (v[0], c) } else { (v[1], c - first_len) };
            let e = self.fresh();
            self.emit(out, [elem, e, COMPOSITE_EXTRACT, src, i]);
            let next = if j == last { result } else { self.fresh() };
            self.emit(out, [ty, next, COMPOSITE_INSERT, e, cur, j as u32]);
            cur = next;
        }
        Ok(())
    }

    /// `%result : ty = composite %c with %obj inserted at `indices``.
    fn insert(
        &mut self,
        out: &mut Vec<u32>,
        ty: u32,
        result: u32,
        obj: u32,
        c: u32,
        indices: &[u32],
    ) -> Result<(), CompileError> {
        let (i, rest) = (indices[0], &indices[1..]);
        if rest.is_empty() {
            self.emit(out, [ty, result, COMPOSITE_INSERT, obj, c, i]);
            return Ok(());
        }
        let part_ty = self.member(ty, i)?;
        let part = self.fresh();
        self.emit(out, [part_ty, part, COMPOSITE_EXTRACT, c, i]);
        let new_part = self.fresh();
        self.insert(out, part_ty, new_part, obj, part, rest)?;
        self.emit(out, [ty, result, COMPOSITE_INSERT, new_part, c, i]);
        Ok(())
    }

    /// An `OpSpecConstantOp` of `operands` (result type, result id, operation, ...).
    fn emit<const N: usize>(&mut self, out: &mut Vec<u32>, operands: [u32; N]) {
        self.emit_op(out, SPEC_CONSTANT_OP, operands);
    }

    /// Instruction `op` with `operands`, the first two its result type and id.
    fn emit_op<const N: usize>(&mut self, out: &mut Vec<u32>, op: u32, operands: [u32; N]) {
        out.push(((N as u32 + 1) << 16) | op);
        out.extend_from_slice(&operands);
        self.value_type.insert(operands[1], operands[0]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn inst(op: u32, operands: &[u32]) -> Vec<u32> {
        let mut v = vec![((operands.len() as u32 + 1) << 16) | op];
        v.extend_from_slice(operands);
        v
    }

    /// A two-index extract from an int[3][3] becomes two one-index extracts through a new
    /// id of type int[3]; the module's id bound grows by one.
    #[test]
    fn multi_index_extract_is_a_chain() {
        let mut s = Splitter::new(100);
        s.note(&inst(21, &[1, 32, 1])); // %1 = OpTypeInt 32 1
        s.note(&inst(28, &[2, 1, 9])); // %2 = OpTypeArray %1 %9
        s.note(&inst(28, &[3, 2, 9])); // %3 = OpTypeArray %2 %9
        s.note(&inst(46, &[3, 4])); // %4 = OpConstantNull %3
        let mut out = Vec::new();
        assert!(s.split(&inst(SPEC_CONSTANT_OP, &[1, 5, COMPOSITE_EXTRACT, 4, 1, 2]), &mut out).unwrap());
        let want = [
            inst(SPEC_CONSTANT_OP, &[2, 100, COMPOSITE_EXTRACT, 4, 1]),
            inst(SPEC_CONSTANT_OP, &[1, 5, COMPOSITE_EXTRACT, 100, 2]),
        ]
        .concat();
        assert_eq!(out, want);
        assert_eq!(s.bound, 101);
    }

    /// Malformed operands are errors, never panics: an index into a scalar, an unknown
    /// composite, too many indices, a shuffle of a non-vector.
    #[test]
    fn malformed_operations_are_errors() {
        let mut s = Splitter::new(10);
        s.note(&inst(21, &[1, 32, 1]));
        s.note(&inst(43, &[1, 2, 7])); // %2 = OpConstant %1 7
        let mut out = Vec::new();
        assert!(s.split(&inst(SPEC_CONSTANT_OP, &[1, 3, COMPOSITE_EXTRACT, 2, 0, 0]), &mut out).is_err());
        assert!(s.split(&inst(SPEC_CONSTANT_OP, &[1, 3, COMPOSITE_EXTRACT, 99, 0, 0]), &mut out).is_err());
        let deep: Vec<u32> = [1, 3, COMPOSITE_INSERT, 2, 2].into_iter().chain(std::iter::repeat_n(0, 300)).collect();
        assert!(s.split(&inst(SPEC_CONSTANT_OP, &deep), &mut out).is_err());
        assert!(s.split(&inst(SPEC_CONSTANT_OP, &[1, 3, VECTOR_SHUFFLE, 2, 2, 0]), &mut out).is_err());
    }
}
