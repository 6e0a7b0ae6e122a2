//! Subgroup operations: the GroupNonUniform family and the older SPV_KHR_shader_ballot /
//! SPV_KHR_subgroup_vote forms. A subgroup is a wave (32 or 64 lanes); "active" lanes are
//! the lanes on in EXEC, which is what `llvm.amdgcn.ballot` of `true` returns.
//!
//! - Votes and ballots are `ballot` compares; broadcasts are `readlane` / `readfirstlane`.
//! - Shuffles (relative, quad) are `ds_bpermute_b32`, one per 32 bits of the value.
//! - Reductions, scans and clustered reductions are a scalar loop over the active lanes
//!   (`s_ff1` of the ballot, `v_readlane`), each lane keeping the lanes its result
//!   covers. Inactive lanes never contribute, however the active lanes are scattered, and the
//!   loop runs once per active lane whatever the type or operation (no whole-wave mode).

use rspirv::dr;
use spirv::{BuiltIn, GroupOperation, Op};

use super::func::{FnCx, Val};
use super::types::{intrinsic_suffix, Type};
use super::InstExt;
use crate::CompileError;

/// Arithmetic group operations: the LLVM combine and the identity value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Arith {
    IAdd,
    FAdd,
    IMul,
    FMul,
    SMin,
    UMin,
    FMin,
    SMax,
    UMax,
    FMax,
    And,
    Or,
    Xor,
}

impl Arith {
    fn of(op: Op) -> Option<(Arith, bool)> {
        use Op::*;
        Some(match op {
            GroupNonUniformIAdd => (Arith::IAdd, false),
            GroupNonUniformFAdd => (Arith::FAdd, false),
            GroupNonUniformIMul => (Arith::IMul, false),
            GroupNonUniformFMul => (Arith::FMul, false),
            GroupNonUniformSMin => (Arith::SMin, false),
            GroupNonUniformUMin => (Arith::UMin, false),
            GroupNonUniformFMin => (Arith::FMin, false),
            GroupNonUniformSMax => (Arith::SMax, false),
            GroupNonUniformUMax => (Arith::UMax, false),
            GroupNonUniformFMax => (Arith::FMax, false),
            GroupNonUniformBitwiseAnd => (Arith::And, false),
            GroupNonUniformBitwiseOr => (Arith::Or, false),
            GroupNonUniformBitwiseXor => (Arith::Xor, false),
            GroupNonUniformLogicalAnd => (Arith::And, true),
            GroupNonUniformLogicalOr => (Arith::Or, true),
            GroupNonUniformLogicalXor => (Arith::Xor, true),
            _ => return None,
        })
    }

    /// The identity as an LLVM scalar literal of element type `e` (`iN`, `half`, `float`,
    /// `double`); booleans are carried as 0/1 in i32, so their "all ones" is 1.
    fn identity(self, e: &str, logical: bool) -> String {
        let bits: u32 = match e {
            "half" => 16,
            "float" => 32,
            "double" => 64,
            i => i.trim_start_matches('i').parse().unwrap_or(32),
        }
        .clamp(1, 64);
        let inf = |neg: bool| match (bits, neg) {
            (16, false) => "0xH7C00".to_string(),
            (16, true) => "0xHFC00".to_string(),
            (_, false) => "0x7FF0000000000000".to_string(),
            (_, true) => "0xFFF0000000000000".to_string(),
        };
        match self {
            Arith::IAdd | Arith::Or | Arith::Xor | Arith::UMax => "0".into(),
            Arith::FAdd => "0.0".into(),
            Arith::IMul => "1".into(),
            Arith::FMul => "1.0".into(),
            Arith::And if logical => "1".into(),
            Arith::And | Arith::UMin => "-1".into(),
            // i128 keeps the shifts in range for any width up to 64.
            Arith::SMin => (((1i128 << (bits - 1)) - 1) as i64).to_string(),
            Arith::SMax => (-(1i128 << (bits - 1)) as i64).to_string(),
            Arith::FMin => inf(false),
            Arith::FMax => inf(true),
        }
    }

    /// `dst = a op b` in type `t`.
    fn combine(self, t: &str, a: &str, b: &str) -> (String, Option<&'static str>) {
        let (form, intrinsic) = match self {
            Arith::IAdd => ("add", None),
            Arith::FAdd => ("fadd", None),
            Arith::IMul => ("mul", None),
            Arith::FMul => ("fmul", None),
            Arith::And => ("and", None),
            Arith::Or => ("or", None),
            Arith::Xor => ("xor", None),
            Arith::SMin => ("", Some("smin")),
            Arith::UMin => ("", Some("umin")),
            Arith::SMax => ("", Some("smax")),
            Arith::UMax => ("", Some("umax")),
            // SPIR-V FMin/FMax pick the other operand over a NaN: minnum / maxnum.
            Arith::FMin => ("", Some("minnum")),
            Arith::FMax => ("", Some("maxnum")),
        };
        match intrinsic {
            None => (format!("{form} {t} {a}, {b}"), None),
            Some(i) => (format!("call {t} @llvm.{i}.{}({t} {a}, {t} {b})", intrinsic_suffix(t)), Some(i)),
        }
    }

    fn is_float(self) -> bool {
        matches!(self, Arith::FAdd | Arith::FMul | Arith::FMin | Arith::FMax)
    }
}

/// The lanes whose values an arithmetic group operation combines for a lane.
#[derive(Clone, Copy, Debug)]
enum Lanes {
    /// Reduce.
    All,
    /// InclusiveScan: lanes up to and including this one.
    UpTo,
    /// ExclusiveScan: lanes below this one.
    Below,
    /// ClusteredReduce: the lanes of this lane's cluster of this (power of two) size.
    Cluster(u32),
}

/// How a subgroup result comes back from its carrier type (`FnCx::carrier`).
enum Carried {
    Same,
    /// Booleans carried as 0/1 in i32.
    Bool,
    /// 8-bit integers carried in i32: truncated back to this type.
    Narrow(String),
}

/// Bits of an LLVM scalar type.
fn scalar_bits(e: &str) -> Result<u32, CompileError> {
    match e {
        "half" | "bfloat" => Ok(16),
        "float" => Ok(32),
        "double" => Ok(64),
        i => i
            .strip_prefix('i')
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| CompileError::unsupported(format!("subgroup operation on LLVM type {e}"))),
    }
}

/// `(count, element)` of `<N x E>`, or `None` for a scalar.
fn vector_parts(t: &str) -> Option<(u32, &str)> {
    let inner = t.strip_prefix('<')?.strip_suffix('>')?;
    let (n, e) = inner.split_once(" x ")?;
    Some((n.parse().ok()?, e))
}

/// The type a value of type `t` crosses lanes as (`readlane` / `readfirstlane`), when not
/// itself: LLVM 19 cannot legalise those intrinsics on 8-bit values or on 3-element
/// vectors of 16-bit ones ("Do not know how to widen the result"), so their elements go
/// as i32.
fn lane_carrier(t: &str) -> Option<String> {
    let (n, elem) = vector_parts(t).unwrap_or((1, t));
    let wide = |n| if n == 1 { "i32".to_string() } else { format!("<{n} x i32>") };
    match elem {
        "i8" => Some(wide(n)),
        "i16" | "half" if n == 3 => Some(wide(n)),
        _ => None,
    }
}

/// The conversions (instruction, from type, to type) that take a value of type `t` to its
/// [`lane_carrier`] `tw`: f16 elements go through their bits.
fn widen_steps(t: &str, tw: &str) -> Vec<(&'static str, String, String)> {
    let ti = t.replace("half", "i16");
    let mut steps = Vec::new();
    if ti != t {
        steps.push(("bitcast", t.to_string(), ti.clone()));
    }
    steps.push(("zext", ti, tw.to_string()));
    steps
}

/// The conversions back from `tw` to `t`.
fn narrow_steps(t: &str, tw: &str) -> Vec<(&'static str, String, String)> {
    let back = |(op, from, to): (&'static str, String, String)| (if op == "zext" { "trunc" } else { op }, to, from);
    widen_steps(t, tw).into_iter().rev().map(back).collect()
}

/// IR lines applying `steps` to `from`, the last result named `to`.
fn step_lines(steps: &[(&'static str, String, String)], from: &str, to: &str) -> String {
    let (mut cur, mut out) = (from.to_string(), String::new());
    for (k, (op, a, b)) in steps.iter().enumerate() {
        let name = if k + 1 == steps.len() { to.to_string() } else { format!("{to}.{k}") };
        out += &format!("  {name} = {op} {a} {cur} to {b}\n");
        cur = name;
    }
    out
}

impl FnCx<'_, '_> {
    /// Lowers a subgroup instruction (every opcode `is_subgroup_op` accepts).
    pub(super) fn subgroup_inst(&mut self, inst: &dr::Instruction) -> Result<(), CompileError> {
        use Op::*;
        let op = inst.class.opcode;
        // The KHR forms have no scope operand; every GroupNonUniform one starts with it.
        let khr = matches!(
            op,
            SubgroupBallotKHR
                | SubgroupFirstInvocationKHR
                | SubgroupReadInvocationKHR
                | SubgroupAllKHR
                | SubgroupAnyKHR
                | SubgroupAllEqualKHR
        );
        let a = if khr {
            0
        } else {
            self.check_subgroup_scope(inst, 0)?;
            1
        };
        if let Some((arith, logical)) = Arith::of(op) {
            return self.group_arith(inst, arith, logical);
        }
        match op {
            GroupNonUniformElect => {
                // True in the lowest active lane only: the lane readfirstlane reads from.
                self.expect_bool(inst)?;
                let lane = self.lane_id();
                let first = self.call_intrinsic("i32", "llvm.amdgcn.readfirstlane.i32", &[format!("i32 {lane}")]);
                self.define(inst, format!("icmp eq i32 {first}, {lane}"))
            }
            GroupNonUniformAll | SubgroupAllKHR => {
                self.expect_bool(inst)?;
                let p = self.val(inst.id(a)?)?;
                let yes = self.ballot(&p.text);
                let active = self.ballot("true");
                let w = self.mask_ty();
                self.define(inst, format!("icmp eq {w} {yes}, {active}"))
            }
            GroupNonUniformAny | SubgroupAnyKHR => {
                self.expect_bool(inst)?;
                let p = self.val(inst.id(a)?)?;
                let yes = self.ballot(&p.text);
                let w = self.mask_ty();
                self.define(inst, format!("icmp ne {w} {yes}, 0"))
            }
            GroupNonUniformAllEqual | SubgroupAllEqualKHR => {
                self.expect_bool(inst)?;
                let v = self.val(inst.id(a)?)?;
                let (t, x, _) = self.carrier(&v, true)?;
                let first = self.read_lane(&t, &x, None);
                // fcmp oeq: a NaN equals nothing, not even itself.
                let is_float = matches!(self.m.scalar_kind(v.ty)?, (_, _, true));
                let cmp = if is_float { "fcmp oeq" } else { "icmp eq" };
                let mut eq = self.def(format!("{cmp} {t} {x}, {first}"));
                if let Some((n, _)) = vector_parts(&t) {
                    eq = self.call_intrinsic(
                        "i1",
                        &format!("llvm.vector.reduce.and.v{n}i1"),
                        &[format!("<{n} x i1> {eq}")],
                    );
                }
                let yes = self.ballot(&eq);
                let active = self.ballot("true");
                let w = self.mask_ty();
                self.define(inst, format!("icmp eq {w} {yes}, {active}"))
            }
            GroupNonUniformBroadcast
            | SubgroupReadInvocationKHR
            | GroupNonUniformBroadcastFirst
            | SubgroupFirstInvocationKHR => {
                let v = self.val(inst.id(a)?)?;
                let (t, x, is_bool) = self.carrier(&v, true)?;
                // The lane id is constant or dynamically uniform; LLVM reads it into an SGPR.
                let lane = if matches!(op, GroupNonUniformBroadcast | SubgroupReadInvocationKHR) {
                    Some(self.lane_operand(inst.id(a + 1)?)?)
                } else {
                    None
                };
                let r = self.read_lane(&t, &x, lane.as_deref());
                self.define_carried(inst, &t, &r, is_bool)
            }
            GroupNonUniformBallot | SubgroupBallotKHR => {
                let p = self.val(inst.id(a)?)?;
                let mask = self.ballot(&p.text);
                let words = self.mask_to_uvec4(&mask);
                self.alias(inst, words)
            }
            GroupNonUniformInverseBallot => {
                let v = self.val(inst.id(a)?)?;
                let lane = self.lane_id();
                let bit = self.uvec4_bit(&v.text, &lane);
                self.alias(inst, bit)
            }
            GroupNonUniformBallotBitExtract => {
                let v = self.val(inst.id(a)?)?;
                let index = self.lane_operand(inst.id(a + 1)?)?;
                // Indices past 127 are undefined; keep them in range (no poison).
                let index = self.def(format!("and i32 {index}, 127"));
                let bit = self.uvec4_bit(&v.text, &index);
                self.alias(inst, bit)
            }
            GroupNonUniformBallotBitCount => {
                let group = group_operation(inst, 1)?;
                let v = self.val(inst.id(2)?)?;
                let mut mask = self.uvec4_to_mask(&v.text);
                let w = self.mask_ty();
                let lane = self.lane_id();
                let lane_w = self.widen_lane(&lane);
                match group {
                    GroupOperation::Reduce => {}
                    // Bits at or below the lane: (2 << lane) - 1, which is all ones for the
                    // top lane (the shift wraps to 0).
                    GroupOperation::InclusiveScan | GroupOperation::ExclusiveScan => {
                        let base = if group == GroupOperation::InclusiveScan { 2 } else { 1 };
                        let bit = self.def(format!("shl {w} {base}, {lane_w}"));
                        let below = self.def(format!("sub {w} {bit}, 1"));
                        mask = self.def(format!("and {w} {mask}, {below}"));
                    }
                    other => {
                        return Err(CompileError::unsupported(format!(
                            "OpGroupNonUniformBallotBitCount with group operation {other:?}"
                        )))
                    }
                }
                let n = self.call_intrinsic(&w, &format!("llvm.ctpop.{w}"), &[format!("{w} {mask}")]);
                self.define_u32(inst, &w, &n)
            }
            GroupNonUniformBallotFindLSB | GroupNonUniformBallotFindMSB => {
                let v = self.val(inst.id(a)?)?;
                let mask = self.uvec4_to_mask(&v.text);
                let w = self.mask_ty();
                // No set bit is undefined: cttz gives the width there, and the MSB form -1.
                let r = if op == GroupNonUniformBallotFindLSB {
                    self.call_intrinsic(&w, &format!("llvm.cttz.{w}"), &[format!("{w} {mask}"), "i1 false".into()])
                } else {
                    let lz =
                        self.call_intrinsic(&w, &format!("llvm.ctlz.{w}"), &[format!("{w} {mask}"), "i1 false".into()]);
                    self.def(format!("sub {w} {}, {lz}", self.wave_size - 1))
                };
                self.define_u32(inst, &w, &r)
            }
            GroupNonUniformShuffle
            | GroupNonUniformShuffleXor
            | GroupNonUniformShuffleUp
            | GroupNonUniformShuffleDown
            | GroupNonUniformQuadBroadcast
            | GroupNonUniformQuadSwap => {
                let v = self.val(inst.id(a)?)?;
                let lane = self.lane_id();
                let src = match op {
                    GroupNonUniformShuffle => self.lane_operand(inst.id(a + 1)?)?,
                    GroupNonUniformShuffleXor => {
                        let m = self.lane_operand(inst.id(a + 1)?)?;
                        self.def(format!("xor i32 {lane}, {m}"))
                    }
                    GroupNonUniformShuffleUp => {
                        let d = self.lane_operand(inst.id(a + 1)?)?;
                        self.def(format!("sub i32 {lane}, {d}"))
                    }
                    GroupNonUniformShuffleDown => {
                        let d = self.lane_operand(inst.id(a + 1)?)?;
                        self.def(format!("add i32 {lane}, {d}"))
                    }
                    GroupNonUniformQuadBroadcast => {
                        let i = self.lane_operand(inst.id(a + 1)?)?;
                        let i = self.def(format!("and i32 {i}, 3"));
                        let quad = self.def(format!("and i32 {lane}, -4"));
                        self.def(format!("or i32 {quad}, {i}"))
                    }
                    _ => {
                        let dir = self.m.const_u64(inst.id(a + 1)?)?;
                        let flip = match dir {
                            0 => 1, // horizontal
                            1 => 2, // vertical
                            2 => 3, // diagonal
                            other => return Err(inst.bad(&format!("quad swap direction {other}"))),
                        };
                        self.def(format!("xor i32 {lane}, {flip}"))
                    }
                };
                let (t, x, is_bool) = self.carrier(&v, true)?;
                // ds_bpermute addresses lanes in bytes; lanes outside the wave wrap (their
                // result is undefined in SPIR-V).
                let addr = self.def(format!("shl i32 {src}, 2"));
                let r = self.permute(&t, &x, &addr)?;
                self.define_carried(inst, &t, &r, is_bool)
            }
            _ => Err(CompileError::unsupported(inst.name())),
        }
    }

    /// The value of subgroup mask built-in `b` (`SubgroupEqMask` ...) as a `<4 x i32>`.
    pub(super) fn subgroup_mask_builtin(&mut self, b: BuiltIn) -> Result<String, CompileError> {
        let w = self.mask_ty();
        let lane = self.lane_id();
        let lane_w = self.widen_lane(&lane);
        let eq = self.def(format!("shl {w} 1, {lane_w}"));
        let lt = self.def(format!("sub {w} {eq}, 1"));
        // The mask is exactly wave_size bits wide, so "up to the subgroup size" is free.
        let mask = match b {
            BuiltIn::SubgroupEqMask => eq,
            BuiltIn::SubgroupLtMask => lt,
            BuiltIn::SubgroupGeMask => self.def(format!("xor {w} {lt}, -1")),
            BuiltIn::SubgroupLeMask | BuiltIn::SubgroupGtMask => {
                let two = self.def(format!("shl {w} 2, {lane_w}"));
                let le = self.def(format!("sub {w} {two}, 1"));
                if b == BuiltIn::SubgroupLeMask {
                    le
                } else {
                    self.def(format!("xor {w} {le}, -1"))
                }
            }
            other => return Err(CompileError::unsupported(format!("built-in {other:?}"))),
        };
        Ok(self.mask_to_uvec4(&mask))
    }

    // ---- arithmetic ---------------------------------------------------------------------

    fn group_arith(&mut self, inst: &dr::Instruction, arith: Arith, logical: bool) -> Result<(), CompileError> {
        let group = group_operation(inst, 1)?;
        let v = self.val(inst.id(2)?)?;
        let (_, _, is_float) = self.m.scalar_kind(v.ty)?;
        if is_float != arith.is_float() || logical != matches!(self.m.scalar_kind(v.ty)?, (1, true, false)) {
            return Err(inst.bad("operand type does not match the operation"));
        }
        let lanes = match group {
            GroupOperation::Reduce => Lanes::All,
            GroupOperation::InclusiveScan => Lanes::UpTo,
            GroupOperation::ExclusiveScan => Lanes::Below,
            GroupOperation::ClusteredReduce => {
                let size = self.m.const_u64(inst.id(3)?)?;
                if size == 0 || !size.is_power_of_two() {
                    return Err(inst.bad(&format!("cluster size {size} is not a power of two")));
                }
                // A cluster of the whole subgroup (or more: undefined) is a reduction.
                if size >= u64::from(self.wave_size) {
                    Lanes::All
                } else {
                    Lanes::Cluster(size as u32)
                }
            }
            other => {
                return Err(CompileError::unsupported(format!("{} with group operation {other:?}", inst.name())));
            }
        };
        let (t, x, is_bool) = self.carrier(&v, false)?;
        let name = self.arith_helper(&t, arith, logical, lanes)?;
        let r = self.def(format!("call {t} @{name}({t} {x})"));
        self.define_carried(inst, &t, &r, is_bool)
    }

    /// `x` (of type `t`) of lane `lane` (`readlane`), or of the first active lane
    /// (`readfirstlane`), through its [`lane_carrier`] where it needs one.
    fn read_lane(&mut self, t: &str, x: &str, lane: Option<&str>) -> String {
        let tw = lane_carrier(t).unwrap_or_else(|| t.to_string());
        let mut xw = x.to_string();
        for (op, a, b) in if tw == t { vec![] } else { widen_steps(t, &tw) } {
            xw = self.def(format!("{op} {a} {xw} to {b}"));
        }
        let sfx = intrinsic_suffix(&tw);
        let mut r = match lane {
            Some(id) => self.call_intrinsic(
                &tw,
                &format!("llvm.amdgcn.readlane.{sfx}"),
                &[format!("{tw} {xw}"), format!("i32 {id}")],
            ),
            None => self.call_intrinsic(&tw, &format!("llvm.amdgcn.readfirstlane.{sfx}"), &[format!("{tw} {xw}")]),
        };
        for (op, a, b) in if tw == t { vec![] } else { narrow_steps(t, &tw) } {
            r = self.def(format!("{op} {a} {r} to {b}"));
        }
        r
    }

    /// Defines (once per module) the helper computing `arith` over the active lanes that
    /// `lanes` selects, and returns its name. Helpers are `alwaysinline convergent` (#1),
    /// inlined where they are called, inside whatever control flow is active.
    fn arith_helper(&mut self, t: &str, arith: Arith, logical: bool, lanes: Lanes) -> Result<String, CompileError> {
        let w = self.mask_ty();
        let elem = vector_parts(t).map_or(t, |(_, e)| e);
        scalar_bits(elem)?;
        let id = arith.identity(elem, logical);
        let identity = match vector_parts(t) {
            Some((n, _)) => format!("<{}>", vec![format!("{elem} {id}"); n as usize].join(", ")),
            None => id,
        };
        // `%inc`: whether lane `%i` counts for this lane.
        let (kind, cond) = match lanes {
            Lanes::All => ("reduce".to_string(), None),
            Lanes::UpTo => ("iscan".into(), Some("  %inc = icmp ule i32 %i, %lane\n".to_string())),
            Lanes::Below => ("xscan".into(), Some("  %inc = icmp ult i32 %i, %lane\n".into())),
            // Same cluster: the lane numbers agree above the cluster bits.
            Lanes::Cluster(n) => (
                format!("cluster{n}"),
                Some(format!("  %diff = xor i32 %i, %lane\n  %inc = icmp ult i32 %diff, {n}\n")),
            ),
        };
        let sfx = intrinsic_suffix(t);
        // Logical and bitwise operations share a carrier type but not identities.
        let op = if logical { format!("logical{arith:?}") } else { format!("{arith:?}") };
        let name = format!("subgroup.{op}.{kind}.w{}.{sfx}", self.wave_size).to_lowercase();
        let (combine, intrinsic) = arith.combine(t, "%acc", "%v");
        if let Some(i) = intrinsic {
            self.declare(format!("declare {t} @llvm.{i}.{sfx}({t}, {t})"));
        }
        // The lane read, on i32 elements where LLVM 19 needs them (`lane_carrier`).
        let (widen, read) = if let Some(tw) = lane_carrier(t) {
            let sw = intrinsic_suffix(&tw);
            self.declare(format!("declare {tw} @llvm.amdgcn.readlane.{sw}({tw}, i32)"));
            (
                step_lines(&widen_steps(t, &tw), "%x", "%x.w"),
                format!("  %v.w = call {tw} @llvm.amdgcn.readlane.{sw}({tw} %x.w, i32 %i)\n")
                    + &step_lines(&narrow_steps(t, &tw), "%v.w", "%v"),
            )
        } else {
            self.declare(format!("declare {t} @llvm.amdgcn.readlane.{sfx}({t}, i32)"));
            (String::new(), format!("  %v = call {t} @llvm.amdgcn.readlane.{sfx}({t} %x, i32 %i)\n"))
        };
        self.declare(format!("declare {w} @llvm.amdgcn.ballot.{w}(i1)"));
        self.declare(format!("declare {w} @llvm.cttz.{w}({w}, i1)"));
        self.declare("declare i32 @llvm.amdgcn.mbcnt.lo(i32, i32)".into());
        let mut lane = "  %lane = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n".to_string();
        if self.wave_size == 64 {
            self.declare("declare i32 @llvm.amdgcn.mbcnt.hi(i32, i32)".into());
            lane = "  %lane.lo = call i32 @llvm.amdgcn.mbcnt.lo(i32 -1, i32 0)\n  \
                    %lane = call i32 @llvm.amdgcn.mbcnt.hi(i32 -1, i32 %lane.lo)\n"
                .into();
        }
        let lane_index = if w == "i64" { "  %i = trunc i64 %iw to i32\n" } else { "  %i = add i32 %iw, 0\n" };
        let (step, next) = match cond {
            None => (String::new(), "%comb"),
            Some(c) => (format!("{c}  %acc.sel = select i1 %inc, {t} %comb, {t} %acc\n"), "%acc.sel"),
        };
        // Floats: the combine order (lane order) is one of those SPIR-V allows.
        let body = format!(
            "define internal {t} @{name}({t} %x) #1 {{\nentry:\n{lane}{widen}  \
             %active = call {w} @llvm.amdgcn.ballot.{w}(i1 true)\n  br label %loop\n\
             loop:\n  %m = phi {w} [ %active, %entry ], [ %m.next, %body ]\n  \
             %acc = phi {t} [ {identity}, %entry ], [ {next}, %body ]\n  \
             %done = icmp eq {w} %m, 0\n  br i1 %done, label %exit, label %body\n\
             body:\n  %iw = call {w} @llvm.cttz.{w}({w} %m, i1 true)\n{lane_index}  \
             %m.less = sub {w} %m, 1\n  %m.next = and {w} %m, %m.less\n  \
             {read}  \
             %comb = {combine}\n{step}  br label %loop\n\
             exit:\n  ret {t} %acc\n}}\n"
        );
        self.declare(body);
        Ok(name)
    }

    // ---- helpers ------------------------------------------------------------------------

    /// `i32` or `i64`: a lane mask of the wave.
    fn mask_ty(&self) -> String {
        format!("i{}", self.wave_size)
    }

    fn ballot(&mut self, pred: &str) -> String {
        let w = self.mask_ty();
        self.call_intrinsic(&w, &format!("llvm.amdgcn.ballot.{w}"), &[format!("i1 {pred}")])
    }

    /// The lane number as a mask-typed shift amount.
    fn widen_lane(&mut self, lane: &str) -> String {
        if self.wave_size == 64 {
            self.def(format!("zext i32 {lane} to i64"))
        } else {
            lane.to_string()
        }
    }

    /// A lane mask as the `uvec4` of SPIR-V ballots: lanes 32..63 in the second word.
    fn mask_to_uvec4(&mut self, mask: &str) -> String {
        if self.wave_size == 64 {
            let v = self.def(format!("bitcast i64 {mask} to <2 x i32>"));
            self.def(format!(
                "shufflevector <2 x i32> {v}, <2 x i32> zeroinitializer, <4 x i32> <i32 0, i32 1, i32 2, i32 3>"
            ))
        } else {
            self.def(format!("insertelement <4 x i32> zeroinitializer, i32 {mask}, i32 0"))
        }
    }

    /// The lanes of the wave in a `uvec4` ballot (bits past the subgroup size ignored).
    fn uvec4_to_mask(&mut self, v: &str) -> String {
        if self.wave_size == 64 {
            let lo = self.def(format!("shufflevector <4 x i32> {v}, <4 x i32> poison, <2 x i32> <i32 0, i32 1>"));
            self.def(format!("bitcast <2 x i32> {lo} to i64"))
        } else {
            self.def(format!("extractelement <4 x i32> {v}, i32 0"))
        }
    }

    /// Bit `index` (0..127) of a `uvec4` ballot.
    fn uvec4_bit(&mut self, v: &str, index: &str) -> String {
        let word_index = self.def(format!("lshr i32 {index}, 5"));
        let word = self.def(format!("extractelement <4 x i32> {v}, i32 {word_index}"));
        let shift = self.def(format!("and i32 {index}, 31"));
        let bits = self.def(format!("lshr i32 {word}, {shift}"));
        let bit = self.def(format!("and i32 {bits}, 1"));
        self.def(format!("icmp ne i32 {bit}, 0"))
    }

    /// An integer lane operand (id, delta, mask) of any width as i32.
    fn lane_operand(&mut self, id: u32) -> Result<String, CompileError> {
        let v = self.val(id)?;
        match self.m.ty(v.ty)? {
            Type::Int { width: 32, .. } => Ok(v.text),
            Type::Int { width, .. } if *width > 32 => Ok(self.def(format!("trunc i{width} {} to i32", v.text))),
            Type::Int { width, .. } => Ok(self.def(format!("zext i{width} {} to i32", v.text))),
            _ => Err(CompileError::invalid(format!("subgroup lane operand %{id} is not an integer"))),
        }
    }

    /// A value in a form the lane intrinsics take: booleans as 0/1 in i32 and, with
    /// `widen8`, 8-bit integers zero-extended to i32 (LLVM 19 cannot legalise the lane
    /// intrinsics on i8; data movement is the same on the wider value). Returns (LLVM type,
    /// value, how to get the result back).
    fn carrier(&mut self, v: &Val, widen8: bool) -> Result<(String, String, Carried), CompileError> {
        let t = self.m.llty(v.ty)?;
        if !matches!(self.m.ty(v.ty)?, Type::Int { .. } | Type::Float { .. } | Type::Bool | Type::Vector { .. }) {
            return Err(CompileError::unsupported(format!("subgroup operation on a value of type {t}")));
        }
        if matches!(self.m.scalar_kind(v.ty)?, (1, true, false)) {
            let ct = t.replace("i1", "i32");
            let x = self.def(format!("zext {t} {} to {ct}", v.text));
            return Ok((ct, x, Carried::Bool));
        }
        if widen8 && matches!(self.m.scalar_kind(v.ty)?, (8, false, false)) {
            let ct = t.replace("i8", "i32");
            let x = self.def(format!("zext {t} {} to {ct}", v.text));
            return Ok((ct, x, Carried::Narrow(t)));
        }
        Ok((t, v.text.clone(), Carried::Same))
    }

    /// Defines the instruction's result from a carrier value (see `carrier`).
    fn define_carried(&mut self, inst: &dr::Instruction, t: &str, r: &str, how: Carried) -> Result<(), CompileError> {
        match how {
            Carried::Bool => {
                let zero = if t.starts_with('<') { "zeroinitializer" } else { "0" };
                self.define(inst, format!("icmp ne {t} {r}, {zero}"))
            }
            Carried::Narrow(nt) => self.define(inst, format!("trunc {t} {r} to {nt}")),
            Carried::Same => self.alias(inst, r.to_string()),
        }
    }

    /// Defines a 32-bit unsigned result from a mask-typed count.
    fn define_u32(&mut self, inst: &dr::Instruction, w: &str, n: &str) -> Result<(), CompileError> {
        let rt = self.m.llty(inst.rtype()?)?;
        if rt != "i32" {
            return Err(inst.bad("result type is not a 32-bit integer"));
        }
        if w == "i32" {
            self.alias(inst, n.to_string())
        } else {
            self.define(inst, format!("trunc {w} {n} to i32"))
        }
    }

    fn expect_bool(&self, inst: &dr::Instruction) -> Result<(), CompileError> {
        if matches!(self.m.ty(inst.rtype()?)?, Type::Bool) {
            Ok(())
        } else {
            Err(inst.bad("result type is not a boolean"))
        }
    }

    /// Every lane reads `x` of the lane at byte address `addr` (`ds_bpermute_b32`, 32 bits
    /// at a time). The GPU model permutes across all 64 lanes of a wave64. (Hardware RDNA
    /// reads within each 32-lane half in wave64 and needs `v_permlane64` for the other half,
    /// as Mesa's ACO does; a model following it would need the same here.)
    fn permute(&mut self, t: &str, x: &str, addr: &str) -> Result<String, CompileError> {
        if let Some((n, e)) = vector_parts(t) {
            let mut out = "poison".to_string();
            for i in 0..n {
                let c = self.def(format!("extractelement {t} {x}, i32 {i}"));
                let p = self.permute(e, &c, addr)?;
                out = self.def(format!("insertelement {t} {out}, {e} {p}, i32 {i}"));
            }
            return Ok(out);
        }
        let bits = scalar_bits(t)?;
        let bp = |s: &mut Self, d: &str| {
            s.call_intrinsic("i32", "llvm.amdgcn.ds.bpermute", &[format!("i32 {addr}"), format!("i32 {d}")])
        };
        match bits {
            32 => {
                let d = if t == "i32" { x.to_string() } else { self.def(format!("bitcast {t} {x} to i32")) };
                let r = bp(self, &d);
                Ok(if t == "i32" { r } else { self.def(format!("bitcast i32 {r} to {t}")) })
            }
            64 => {
                let d = self.def(format!("bitcast {t} {x} to <2 x i32>"));
                let r = self.permute("<2 x i32>", &d, addr)?;
                Ok(self.def(format!("bitcast <2 x i32> {r} to {t}")))
            }
            b if b < 32 => {
                let it = format!("i{b}");
                let i = if t == it { x.to_string() } else { self.def(format!("bitcast {t} {x} to {it}")) };
                let d = self.def(format!("zext {it} {i} to i32"));
                let r = bp(self, &d);
                let r = self.def(format!("trunc i32 {r} to {it}"));
                Ok(if t == it { r } else { self.def(format!("bitcast {it} {r} to {t}")) })
            }
            _ => Err(CompileError::unsupported(format!("subgroup shuffle of {t}"))),
        }
    }
}

/// Whether `op` is lowered by `subgroup_inst`.
pub(super) fn is_subgroup_op(op: Op) -> bool {
    use Op::*;
    Arith::of(op).is_some()
        || matches!(
            op,
            GroupNonUniformElect
                | GroupNonUniformAll
                | GroupNonUniformAny
                | GroupNonUniformAllEqual
                | GroupNonUniformBroadcast
                | GroupNonUniformBroadcastFirst
                | GroupNonUniformBallot
                | GroupNonUniformInverseBallot
                | GroupNonUniformBallotBitExtract
                | GroupNonUniformBallotBitCount
                | GroupNonUniformBallotFindLSB
                | GroupNonUniformBallotFindMSB
                | GroupNonUniformShuffle
                | GroupNonUniformShuffleXor
                | GroupNonUniformShuffleUp
                | GroupNonUniformShuffleDown
                | GroupNonUniformQuadBroadcast
                | GroupNonUniformQuadSwap
                | SubgroupBallotKHR
                | SubgroupFirstInvocationKHR
                | SubgroupReadInvocationKHR
                | SubgroupAllKHR
                | SubgroupAnyKHR
                | SubgroupAllEqualKHR
        )
}

fn group_operation(inst: &dr::Instruction, i: usize) -> Result<GroupOperation, CompileError> {
    match inst.operands.get(i) {
        Some(dr::Operand::GroupOperation(g)) => Ok(*g),
        _ => Err(inst.bad(&format!("operand {i} is not a group operation"))),
    }
}
