//! Disassembly in LLVM 19's syntax (`llvm-objdump-19 -d --mcpu=gfx1100`), so that traces
//! and fault reports read like the tools driver developers already use.

use std::fmt::Write;

use super::decode::{inline_constant, mflag, Form, Inst, Operand, SRC_K};
use super::rules::{lo128, scalar_dst_class, sext_src, slot_ty, src_class, Lo128, RegClass, SREG_32};
use super::table::{Access, Encoding, Op, Ty, F};

/// Name of `count` scalar registers starting at `idx`.
pub fn sreg_name(idx: u8, count: u32) -> String {
    // The hardware ignores the low bits of a multi-dword SGPR operand; LLVM prints the
    // aligned range.
    let idx = match count {
        2 if idx < 106 || (108..124).contains(&idx) => idx & !1,
        4.. if idx < 106 || (108..124).contains(&idx) => idx & !3,
        _ => idx,
    };
    let end = idx as u32 + count.max(1) - 1;
    match (idx, count) {
        (106, 2..) => "vcc".into(),
        (106, _) => "vcc_lo".into(),
        (107, _) => "vcc_hi".into(),
        (124, _) => "null".into(),
        (125, _) => "m0".into(),
        (126, 2..) => "exec".into(),
        (126, _) => "exec_lo".into(),
        (127, _) => "exec_hi".into(),
        (108..=123, 1) => format!("ttmp{}", idx - 108),
        (108..=123, _) => format!("ttmp[{}:{}]", idx - 108, end - 108),
        (_, 0 | 1) => format!("s{idx}"),
        _ => format!("s[{idx}:{end}]"),
    }
}

fn vreg_name(idx: u16, count: u32) -> String {
    if count <= 1 {
        format!("v{idx}")
    } else {
        format!("v[{}:{}]", idx, idx as u32 + count - 1)
    }
}

/// The float inline constants (codes 240..=248) as LLVM names them.
const FLOAT_NAMES: [&str; 9] = ["0.5", "-0.5", "1.0", "-1.0", "2.0", "-2.0", "4.0", "-4.0", "0.15915494"];

/// The name of a float inline constant whose bit pattern (for `ty`) is `bits`, if any.
fn float_name(bits: u64, ty: Ty) -> Option<&'static str> {
    (240..=248).find(|&c| inline_constant(c, ty) == Some(bits)).map(|c| FLOAT_NAMES[(c - 240) as usize])
}

/// Prints an inline constant or a literal the way LLVM does: integers that fit the inline
/// range in decimal, values equal to a float inline constant by name, others in hex, each
/// read at the operand's width.
fn constant(code: u16, value: u64, ty: Ty) -> String {
    match code {
        128..=208 => {
            let v = if code <= 192 { code as i64 - 128 } else { 192 - code as i64 };
            v.to_string()
        }
        // 16-bit integer operands see the f16 encoding of a float constant.
        240..=248 if ty == Ty::B16 => format!("{value:#x}"),
        248 if matches!(ty, Ty::F64 | Ty::B64) => "0.15915494309189532".into(),
        240..=248 => FLOAT_NAMES[(code - 240) as usize].into(),
        SRC_K => format!("{value:#x}"),
        _ => literal(value, ty),
    }
}

fn literal(value: u64, ty: Ty) -> String {
    let lit = if ty == Ty::F64 { (value >> 32) as u32 } else { value as u32 };
    let small = |v: i64| (-16..=64).contains(&v).then(|| v.to_string());
    let text = match ty {
        // f16 reads the low half only.
        Ty::F16 => small(lit as u16 as i16 as i64)
            .or_else(|| float_name(lit as u64 & 0xffff, Ty::F16).map(String::from))
            .unwrap_or_else(|| format!("{:#x}", lit & 0xffff)),
        // 16-bit integers: the whole dword decides, the low half is printed.
        Ty::B16 => small(lit as i32 as i64)
            .or_else(|| float_name(lit as u64, Ty::F32).map(String::from))
            .unwrap_or_else(|| format!("{:#x}", lit & 0xffff)),
        // bf16 reads the low half, named as the high half of an f32; LLVM prints the whole
        // dword otherwise.
        Ty::BF16 => small(lit as u16 as i16 as i64)
            .or_else(|| float_name(lit as u64 & 0xffff, Ty::BF16).map(String::from))
            .unwrap_or_else(|| format!("{lit:#x}")),
        // Packed halves: a constant name only where the high half is zero.
        Ty::V2F16 | Ty::V2BF16 => small(lit as i32 as i64)
            .or_else(|| (lit >> 16 == 0).then(|| float_name(lit as u64, ty)).flatten().map(String::from))
            .unwrap_or_else(|| format!("{lit:#x}")),
        // The literal is the high dword; only 0 reads as an inline integer.
        Ty::F64 => (lit == 0)
            .then(|| "0".to_string())
            .or_else(|| float_name((lit as u64) << 32, Ty::F64).map(String::from))
            .unwrap_or_else(|| format!("{lit:#x}")),
        Ty::B64 => small(lit as i64).unwrap_or_else(|| format!("{lit:#x}")),
        _ => small(lit as i32 as i64)
            .or_else(|| float_name(lit as u64, Ty::F32).map(String::from))
            .unwrap_or_else(|| format!("{lit:#x}")),
    };
    text
}

fn operand(op: &Operand, ty: Ty, wave64: bool) -> String {
    let n = ty.dwords(wave64);
    match *op {
        Operand::None => String::new(),
        Operand::Sgpr(i) => sreg_name(i, n),
        Operand::Vgpr(i) => vreg_name(i, n),
        Operand::Const { code, value } => constant(code, value, ty),
        Operand::Scc => "src_scc".into(),
        Operand::Vccz => "src_vccz".into(),
        Operand::Execz => "src_execz".into(),
        Operand::Special(code) => match code {
            235 => "src_shared_base",
            236 => "src_shared_limit",
            237 => "src_private_base",
            238 => "src_private_limit",
            239 => "src_pops_exiting_wave_id",
            _ => "src_lds_direct",
        }
        .into(),
    }
}

/// Applies neg/abs source modifiers; a negated constant without abs is `neg(c)`, as in
/// LLVM (`-1` would read as another constant).
fn with_mods(text: String, neg: bool, abs: bool, constant: bool) -> String {
    match (neg, abs) {
        (true, false) if constant => format!("neg({text})"),
        (true, false) => format!("-{text}"),
        (true, true) => format!("-|{text}|"),
        (false, true) => format!("|{text}|"),
        (false, false) => text,
    }
}

fn waitcnt(simm: u32) -> String {
    let (vm, exp, lgkm) = ((simm >> 10) & 0x3f, simm & 7, (simm >> 4) & 0x3f);
    let mut parts = Vec::new();
    if vm != 0x3f {
        parts.push(format!("vmcnt({vm})"));
    }
    if exp != 7 {
        parts.push(format!("expcnt({exp})"));
    }
    if lgkm != 0x3f {
        parts.push(format!("lgkmcnt({lgkm})"));
    }
    if parts.is_empty() {
        format!("vmcnt({vm}) expcnt({exp}) lgkmcnt({lgkm})")
    } else {
        parts.join(" ")
    }
}

fn delay_alu(simm: u32) -> String {
    // LLVM's printDelayFlag: only the non-zero fields, "0" when there are none.
    const IDS: [&str; 12] = [
        "NO_DEP",
        "VALU_DEP_1",
        "VALU_DEP_2",
        "VALU_DEP_3",
        "VALU_DEP_4",
        "TRANS32_DEP_1",
        "TRANS32_DEP_2",
        "TRANS32_DEP_3",
        "FMA_ACCUM_CYCLE_1",
        "SALU_CYCLE_1",
        "SALU_CYCLE_2",
        "SALU_CYCLE_3",
    ];
    const SKIP: [&str; 6] = ["SAME", "NEXT", "SKIP_1", "SKIP_2", "SKIP_3", "SKIP_4"];
    let id = |v: u32| IDS.get(v as usize).copied().unwrap_or("/* invalid instid value */");
    let skip = |v: u32| SKIP.get(v as usize).copied().unwrap_or("/* invalid instskip value */");
    let (id0, skip1, id1) = (simm & 0xf, (simm >> 4) & 7, (simm >> 7) & 0xf);
    let mut parts = Vec::new();
    if id0 != 0 {
        parts.push(format!("instid0({})", id(id0)));
    }
    if skip1 != 0 {
        parts.push(format!("instskip({})", skip(skip1)));
    }
    if id1 != 0 {
        parts.push(format!("instid1({})", id(id1)));
    }
    if parts.is_empty() {
        "0".into()
    } else {
        parts.join(" | ")
    }
}

/// `s_waitcnt_depctr` as LLVM prints it: the gfx11 fields by name when the value uses no
/// other bits (the default-valued ones only when every field is at its default), else hex.
fn depctr(simm: u32) -> String {
    // (name, low bit, width); the default of each field is its maximum.
    const FIELDS: [(&str, u32, u32); 7] = [
        ("depctr_hold_cnt", 7, 1),
        ("depctr_sa_sdst", 0, 1),
        ("depctr_va_vdst", 12, 4),
        ("depctr_va_sdst", 9, 3),
        ("depctr_va_ssrc", 8, 1),
        ("depctr_va_vcc", 1, 1),
        ("depctr_vm_vsrc", 2, 3),
    ];
    let used = FIELDS.iter().fold(0, |m, &(_, lo, w)| m | ((1 << w) - 1) << lo);
    if simm & !used != 0 {
        return format!("{simm:#x}");
    }
    let val = |lo: u32, w: u32| (simm >> lo) & ((1 << w) - 1);
    let any_non_default = FIELDS.iter().any(|&(_, lo, w)| val(lo, w) != (1 << w) - 1);
    let parts: Vec<String> = FIELDS
        .iter()
        .filter(|&&(_, lo, w)| !any_non_default || val(lo, w) != (1 << w) - 1)
        .map(|&(name, lo, w)| format!("{name}({})", val(lo, w)))
        .collect();
    parts.join(" ")
}

/// `s_version`'s operand as LLVM 19 decodes it: `UC_VERSION_*` and flag names when the
/// value has no bits outside version[7:0], W64[13], W32[14] and MDP[15].
fn version(simm: u32) -> String {
    if simm & 0x1f00 != 0 {
        return format!("{simm:#x}");
    }
    let mut e = match simm & 0xff {
        0 => "UC_VERSION_GFX7".to_string(),
        4 => "UC_VERSION_GFX10".to_string(),
        6 => "UC_VERSION_GFX11".to_string(),
        9 => "UC_VERSION_GFX12".to_string(),
        v => v.to_string(),
    };
    let mut nested = false;
    for (bit, name) in [(13, "UC_VERSION_W64_BIT"), (14, "UC_VERSION_W32_BIT"), (15, "UC_VERSION_MDP_BIT")] {
        if simm >> bit & 1 != 0 {
            // MCBinaryExpr prints a binary left operand in parentheses.
            e = if nested { format!("({e})|{name}") } else { format!("{e}|{name}") };
            nested = true;
        }
    }
    e
}

/// An SMEM register tuple, with LLVM's comment where the register is outside the
/// operand's class: the data excludes m0 and exec (and a wide tuple vcc and exec), the
/// buffer resource vcc and exec.
fn smem_sreg(idx: u8, n: u32, data: bool) -> String {
    let class = match (n, idx) {
        (1, 125..=127) if data => "SReg_32_XM0_XEXEC",
        (2, 126) if data => "SReg_64_XEXEC",
        (4, 106 | 126) => "SReg_128",
        (8, 106 | 126) => "SReg_256",
        (16, 106 | 126) => "SReg_512",
        _ => "",
    };
    // A wide tuple at vcc or exec is printed as the pair.
    let name = sreg_name(idx, if matches!(idx, 106 | 126) { n.min(2) } else { n });
    let mut name = name;
    if !class.is_empty() {
        invalid_register(&mut name, class);
    }
    name
}

/// `s_getreg`/`s_setreg`'s `hwreg(id, offset, size)`: the register by name where gfx11 has
/// one, and only the register when the field is the whole of it.
fn hwreg(simm: u32) -> String {
    let (id, offset, size) = (simm & 0x3f, simm >> 6 & 0x1f, (simm >> 11) + 1);
    let name = match id {
        1 => "HW_REG_MODE",
        2 => "HW_REG_STATUS",
        3 => "HW_REG_TRAPSTS",
        5 => "HW_REG_GPR_ALLOC",
        6 => "HW_REG_LDS_ALLOC",
        7 => "HW_REG_IB_STS",
        15 => "HW_REG_SH_MEM_BASES",
        18 => "HW_REG_PERF_SNAPSHOT_PC_LO",
        19 => "HW_REG_PERF_SNAPSHOT_PC_HI",
        20 => "HW_REG_FLAT_SCR_LO",
        21 => "HW_REG_FLAT_SCR_HI",
        23 => "HW_REG_HW_ID1",
        24 => "HW_REG_HW_ID2",
        27 => "HW_REG_PERF_SNAPSHOT_DATA",
        29 => "HW_REG_SHADER_CYCLES",
        _ => "",
    };
    let reg = if name.is_empty() { id.to_string() } else { name.to_string() };
    if offset == 0 && size == 32 {
        format!("hwreg({reg})")
    } else {
        format!("hwreg({reg}, {offset}, {size})")
    }
}

/// A plain 16-bit immediate as LLVM prints it: decimal when it could be an inline integer
/// (0 to 64), hex otherwise.
fn imm16(simm: u32) -> String {
    if simm <= 64 {
        simm.to_string()
    } else {
        format!("{simm:#x}")
    }
}

fn sendmsg(simm: u32) -> String {
    // gfx11: the message id is bits 7:0 (no operation or stream fields). A known id is
    // printed by name whatever the higher bits; an unknown one as `sendmsg(id, 0, 0)`
    // when no higher bit is set, else as a plain number, as LLVM does.
    let name = match simm & 0xff {
        1 => "MSG_INTERRUPT",
        2 => "MSG_HS_TESSFACTOR",
        3 => "MSG_DEALLOC_VGPRS",
        5 => "MSG_STALL_WAVE_GEN",
        6 => "MSG_HALT_WAVES",
        9 => "MSG_GS_ALLOC_REQ",
        128 => "MSG_RTN_GET_DOORBELL",
        129 => "MSG_RTN_GET_DDID",
        130 => "MSG_RTN_GET_TMA",
        131 => "MSG_RTN_GET_REALTIME",
        132 => "MSG_RTN_SAVE_WAVE",
        133 => "MSG_RTN_GET_TBA",
        134 => "MSG_RTN_GET_TBA_TO_PC",
        _ if simm > 0xff => return simm.to_string(),
        _ => return format!("sendmsg({simm}, 0, 0)"),
    };
    format!("sendmsg({name})")
}

/// A VOPD instruction: `v_dual_X ... :: v_dual_Y ...`.
pub fn disassemble_dual(d: &[Inst; 2], wave64: bool) -> String {
    let half = |i: &Inst| {
        let t = i.op.info().ty;
        let mut ops = vec![operand(&i.dst, t[0], wave64), operand(&i.src[0], t[1], wave64)];
        match i.op {
            Op::V_FMAAK_F32 => ops.extend([operand(&i.src[1], t[2], wave64), operand(&i.src[2], Ty::F32, wave64)]),
            Op::V_FMAMK_F32 => ops.extend([operand(&i.src[2], Ty::F32, wave64), operand(&i.src[1], t[2], wave64)]),
            // The mask (VCC) of v_dual_cndmask is implicit.
            _ if t[2] != Ty::N => ops.push(operand(&i.src[1], t[2], wave64)),
            _ => {}
        }
        format!("v_dual_{} {}", &i.op.name()[2..], ops.join(", "))
    };
    format!("{} :: {}", half(&d[0]), half(&d[1]))
}

/// Disassembles `inst`, located at byte address `pc`, in LLVM's syntax.
pub fn disassemble(inst: &Inst, pc: u64, wave64: bool) -> String {
    let info = inst.op.info();
    let t = info.ty;
    let mut s = String::from(info.name);
    let ops: Vec<String> = match info.enc {
        Encoding::Sop2 | Encoding::Sop1 => {
            let mut v = Vec::new();
            if t[0] != Ty::N {
                v.push(operand(&inst.dst, t[0], wave64));
            }
            for k in 0..2 {
                match t[k + 1] {
                    Ty::N => {}
                    // s_sendmsg_rtn_*: the message id.
                    Ty::Imm16 => v.push(sendmsg(inst.imm as u32)),
                    // A constant where only a register may be is printed as a 32-bit one.
                    _ if inst.op.has_flag(F::SREG) && matches!(inst.src[k], Operand::Const { .. }) => {
                        v.push(format!("{}/*Invalid immediate*/", operand(&inst.src[k], Ty::B32, wave64)))
                    }
                    ty => v.push(in_class(&inst.src[k], ty, wave64, SREG_32)),
                }
            }
            v
        }
        Encoding::Sopc => {
            vec![in_class(&inst.src[0], t[1], wave64, SREG_32), in_class(&inst.src[1], t[2], wave64, SREG_32)]
        }
        Encoding::Sopk => {
            let simm = inst.imm as u32 & 0xffff;
            let imm = match inst.op {
                Op::S_VERSION => version(simm),
                Op::S_GETREG_B32 | Op::S_SETREG_B32 | Op::S_SETREG_IMM32_B32 => hwreg(simm),
                // Branch targets: the raw 16-bit offset, in decimal.
                _ if inst.op.has_flag(F::BRANCH) => simm.to_string(),
                _ => format!("{simm:#x}"),
            };
            let mut v = Vec::new();
            if t[0] != Ty::N {
                v.push(operand(&inst.dst, t[0], wave64));
            }
            v.push(imm);
            if t[2] != Ty::N {
                v.push(operand(&inst.src[0], t[2], wave64));
            }
            v
        }
        Encoding::Sopp => {
            let simm = inst.imm as u32 & 0xffff;
            match inst.op {
                Op::S_WAITCNT => vec![waitcnt(simm)],
                Op::S_DELAY_ALU => vec![delay_alu(simm)],
                Op::S_SENDMSG => vec![sendmsg(simm)],
                Op::S_WAITCNT_DEPCTR => vec![depctr(simm)],
                Op::S_SENDMSGHALT => vec![sendmsg(simm)],
                Op::S_CLAUSE
                | Op::S_SET_INST_PREFETCH_DISTANCE
                | Op::S_WAIT_EVENT
                | Op::S_ROUND_MODE
                | Op::S_TTRACEDATA_IMM => vec![format!("{simm:#x}")],
                // The immediate of s_endpgm is optional and printed only when set.
                Op::S_ENDPGM if simm == 0 => vec![],
                // LLVM prints the raw 16-bit offset (65535 for -1), not the signed value.
                Op::S_ENDPGM => vec![simm.to_string()],
                _ if inst.op.has_flag(F::BRANCH) => vec![simm.to_string()],
                _ if t[1] == Ty::Imm16 => vec![imm16(simm)],
                _ => vec![],
            }
        }
        Encoding::Smem => {
            if t[1] == Ty::N {
                vec![]
            } else {
                let base = match inst.src[0] {
                    Operand::Sgpr(i) => smem_sreg(i, t[1].dwords(false), false),
                    _ => String::new(),
                };
                let soff = match inst.src[1] {
                    Operand::Sgpr(124) => None,
                    Operand::Sgpr(i) => Some(sreg_name(i, 1)),
                    _ => None,
                };
                // The 21-bit offset is signed: LLVM prints -0x4, not 0xfffffffc.
                let hex = |v: i32| if v < 0 { format!("-{:#x}", v.unsigned_abs()) } else { format!("{v:#x}") };
                let mut last = match (soff, inst.imm) {
                    (None, 0) => "null".to_string(),
                    (None, off) => hex(off),
                    (Some(r), 0) => r,
                    (Some(r), off) => format!("{r} offset:{}", hex(off)),
                };
                cache_bits(&mut last, inst.flags);
                // s_atc_probe*: the sdata field is an immediate.
                let data = match inst.dst {
                    Operand::Sgpr(i) => smem_sreg(i, t[0].dwords(false), true),
                    _ => imm16(inst.imm1 as u32),
                };
                vec![data, base, last]
            }
        }
        Encoding::Vop1 | Encoding::Vop2 | Encoding::Vopc | Encoding::Vop3 => return valu(inst, wave64),
        Encoding::Vop3p => return vop3p(inst, wave64),
        Encoding::Vopd => vec![],
        Encoding::Vinterp => return vinterp(inst),
        Encoding::Ldsdir => return ldsdir(inst),
        Encoding::Exp => return exp(inst),
        Encoding::Mimg => return mimg(inst),
        Encoding::Ds => return ds(inst),
        Encoding::Mubuf | Encoding::Mtbuf => return mubuf(inst),
        Encoding::Flat | Encoding::Global | Encoding::Scratch => return flat(inst),
    };
    let _ = pc;
    if !ops.is_empty() {
        s.push(' ');
        s.push_str(&ops.join(", "));
    }
    s
}

fn valu(inst: &Inst, wave64: bool) -> String {
    let info = inst.op.info();
    let t = info.ty;
    let vop3 = info.enc == Encoding::Vop3 || inst.form.is_vop3();
    // The VOP3 modifier fields LLVM prints for this opcode (others are ignored).
    let printed = if vop3 { inst.op.vop3_fields().1 } else { u16::MAX };
    let dpp = inst.form.is_dpp();
    let mut s = String::from(info.name);
    // Opcodes LLVM knows in a single encoding print no _e32/_e64 suffix: those without
    // operands (v_nop, v_pipeflush) and the 32-bit-only ones.
    let one_form = t == [Ty::N; 4] || inst.op.has_flag(F::LIT_K | F::E32);
    s.push_str(match inst.form {
        // LLVM 19 prints VOPC DPP without a suffix.
        Form::Dpp16 | Form::Dpp8 if info.enc == Encoding::Vopc => "",
        Form::Dpp16 | Form::Dpp8 => "_dpp",
        Form::Vop3Dpp16 | Form::Vop3Dpp8 => "_e64_dpp",
        _ if info.enc != Encoding::Vop3 && !one_form => {
            if inst.form == Form::Vop3 {
                "_e64"
            } else {
                "_e32"
            }
        }
        _ => "",
    });
    // LLVM 19 names 16-bit register halves (v0.l, v0.h) for v_mov_b16 only.
    let true16 = inst.op == Op::V_MOV_B16;
    let mut ops = Vec::new();
    if info.enc == Encoding::Vopc {
        if !inst.op.has_flag(F::CMPX) {
            ops.push(in_class(&inst.sdst, Ty::Mask, wave64, scalar_dst_class(true)));
        }
    } else if t[0] != Ty::N {
        // v_readlane and v_readfirstlane write a scalar operand.
        ops.push(match inst.dst {
            Operand::Vgpr(v) if true16 => true16_name(v),
            Operand::Vgpr(_) => operand(&inst.dst, t[0], wave64),
            _ => in_class(&inst.dst, Ty::B32, wave64, scalar_dst_class(false)),
        });
        if inst.op.has_flag(F::SD) && vop3 {
            ops.push(operand(&inst.sdst, Ty::Mask, wave64));
        }
    }
    let nsrc = match inst.op {
        Op::V_FMAMK_F32 | Op::V_FMAAK_F32 | Op::V_FMAMK_F16 | Op::V_FMAAK_F16 => 3,
        _ => t[1..].iter().filter(|t| **t != Ty::N).count(),
    };
    for k in 0..nsrc {
        let ty = t[k + 1];
        // In the 32-bit VOP2 encoding the lane-mask operand (VCC) is implicit... except
        // for v_cndmask and the carry ops, whose e32 forms print vcc_lo explicitly.
        if ty == Ty::Mask && !vop3 {
            ops.push(operand(&inst.src[k], Ty::Mask, wave64));
            continue;
        }
        let mut text = match inst.src[k] {
            Operand::Vgpr(v) if true16 => true16_name(v),
            _ => operand(&inst.src[k], ty, wave64),
        };
        class_comment(&mut text, inst, k, wave64);
        if let (false, Operand::Vgpr(128..)) = (vop3, inst.src[k]) {
            match lo128(inst.op).get(k + 1) {
                // DPP carries src0 as a plain VGPR number, without the e32 SGPR range.
                Some(Lo128::Comment(_)) if k == 0 && dpp => invalid_register(&mut text, "VGPR_32_Lo128"),
                Some(Lo128::Comment(class)) => invalid_register(&mut text, class),
                _ => {}
            }
        }
        let mods = vop3 || inst.form == Form::Dpp16;
        let neg = inst.neg >> k & 1 != 0 && mods && printed >> (10 + k) & 1 != 0;
        let abs = inst.abs >> k & 1 != 0 && mods && printed >> k & 1 != 0;
        ops.push(if sext_src(inst.op, k, inst.form) {
            if inst.neg >> k & 1 != 0 && mods {
                format!("sext({text})")
            } else {
                text
            }
        } else {
            with_mods(text, neg, abs, matches!(inst.src[k], Operand::Const { .. }))
        });
    }
    // fmamk prints K in the middle: v_fmamk_f32 vdst, src0, K, src1.
    if matches!(inst.op, Op::V_FMAMK_F32 | Op::V_FMAMK_F16) && ops.len() == 4 {
        ops.swap(2, 3);
    }
    if inst.op.has_flag(F::SD) && !vop3 && info.enc == Encoding::Vop2 {
        // e32 carry ops: v_add_co_ci_u32_e32 v1, vcc_lo, v2, v3, vcc_lo
        ops.insert(1, operand(&inst.sdst, Ty::Mask, wave64));
    }
    if !ops.is_empty() {
        s.push(' ');
        s.push_str(&ops.join(", "));
    }
    if vop3 {
        // Only the op_sel bits LLVM prints for this opcode; v_permlane*16 has two (fi and
        // bound_ctrl), VOPC none for the (SGPR) destination.
        let opsel = inst.opsel & (printed >> 3) as u8 & 0xf;
        if opsel != 0 {
            let mut bits: Vec<String> = (0..nsrc).map(|k| (opsel >> k & 1).to_string()).collect();
            if matches!(inst.op, Op::V_PERMLANE16_B32 | Op::V_PERMLANEX16_B32) {
                bits.truncate(2);
            } else if inst.op == Op::V_FMAC_F16 {
                // The accumulator is a third, tied source.
                bits.extend([(opsel >> 2 & 1).to_string(), (opsel >> 3 & 1).to_string()]);
            } else if info.enc != Encoding::Vopc {
                bits.push((opsel >> 3 & 1).to_string());
            }
            let _ = write!(s, " op_sel:[{}]", bits.join(","));
        }
        if inst.clamp && printed & 0x80 != 0 {
            s.push_str(" clamp");
        }
        match inst.omod * (printed >> 8 & 1) as u8 {
            1 => s.push_str(" mul:2"),
            2 => s.push_str(" mul:4"),
            3 => s.push_str(" div:2"),
            _ => {}
        }
    }
    if dpp {
        s.push_str(&dpp_suffix(inst));
    }
    s
}

/// The DPP controls as LLVM prints them.
fn dpp_suffix(inst: &Inst) -> String {
    let w = inst.ext;
    let fi = inst.flags & mflag::FI != 0;
    let mut s = String::new();
    if inst.form.is_dpp8() {
        let sel: Vec<String> = (0..8).map(|k| (w >> (8 + 3 * k) & 7).to_string()).collect();
        let _ = write!(s, " dpp8:[{}]", sel.join(","));
        if fi {
            s.push_str(" fi:1");
        }
        return s;
    }
    let ctrl = w >> 8 & 0x1ff;
    match ctrl {
        0x000..=0x0ff => {
            let q: Vec<String> = (0..4).map(|k| (ctrl >> (2 * k) & 3).to_string()).collect();
            let _ = write!(s, " quad_perm:[{}]", q.join(","));
        }
        0x101..=0x10f => {
            let _ = write!(s, " row_shl:{}", ctrl & 0xf);
        }
        0x111..=0x11f => {
            let _ = write!(s, " row_shr:{}", ctrl & 0xf);
        }
        0x121..=0x12f => {
            let _ = write!(s, " row_ror:{}", ctrl & 0xf);
        }
        0x140 => s.push_str(" row_mirror"),
        0x141 => s.push_str(" row_half_mirror"),
        // GFX9 controls that gfx11 dropped.
        0x130 | 0x134 | 0x138 | 0x13c | 0x142 | 0x143 => {
            let name = match ctrl {
                0x130 => "wave_shl",
                0x134 => "wave_rol",
                0x138 => "wave_shr",
                0x13c => "wave_ror",
                _ => "row_bcast",
            };
            let _ = write!(s, " /* {name} is not supported starting from GFX10 */");
        }
        0x150..=0x15f => {
            let _ = write!(s, " row_share:{}", ctrl & 0xf);
        }
        0x160..=0x16f => {
            let _ = write!(s, " row_xmask:{}", ctrl & 0xf);
        }
        _ => s.push_str(" /* Invalid dpp_ctrl value */"),
    }
    let _ = write!(s, " row_mask:{:#x} bank_mask:{:#x}", w >> 28, w >> 24 & 0xf);
    if w >> 19 & 1 != 0 {
        s.push_str(" bound_ctrl:1");
    }
    if fi {
        s.push_str(" fi:1");
    }
    s
}

fn bit_list(v: u8, n: usize) -> String {
    let b: Vec<String> = (0..n).map(|k| (v >> k & 1).to_string()).collect();
    format!("[{}]", b.join(","))
}

fn vop3p(inst: &Inst, wave64: bool) -> String {
    let info = inst.op.info();
    let t = info.ty;
    let n = t[1..].iter().filter(|t| **t != Ty::N).count();
    let mix = info.name.starts_with("v_fma_mix");
    let mut ops = vec![operand(&inst.dst, slot_ty(inst.op, 0, wave64), wave64)];
    for k in 0..n {
        let ty = slot_ty(inst.op, k + 1, wave64);
        // LLVM prints a mix source as an f16 (whatever op_sel_hi selects), except DPP's
        // src1, a VGPR operand.
        let shown = if mix && !(k == 1 && inst.form.is_dpp()) { Ty::F16 } else { ty };
        let mut text = match inst.src[k] {
            // WMMA constants print as 32-bit operands, except the wave32 accumulator C:
            // as a 64-bit float one (its literal is the high dword).
            Operand::Const { code, value } if inst.op.has_flag(F::WMMA) && k == 2 && !wave64 => {
                let value = if code == 255 { value << 32 } else { value };
                operand(&Operand::Const { code, value }, Ty::F64, wave64)
            }
            Operand::Const { .. } if inst.op.has_flag(F::WMMA) => operand(&inst.src[k], Ty::B32, wave64),
            _ => operand(&inst.src[k], shown, wave64),
        };
        class_comment(&mut text, inst, k, wave64);
        // The mix opcodes use neg_lo as neg and neg_hi as abs.
        let constant = matches!(inst.src[k], Operand::Const { .. });
        ops.push(if mix { with_mods(text, inst.neg >> k & 1 != 0, inst.neg_hi >> k & 1 != 0, constant) } else { text });
    }
    let dpp = if inst.form.is_dpp() { "_e64_dpp" } else { "" };
    let mut s = format!("{}{dpp} {}", info.name, ops.join(", "));
    let full = (1u8 << n) - 1;
    let default_hi = if mix { 0 } else { full };
    // The fields LLVM prints for this opcode (see rules.rs for the layout).
    let printed = inst.op.vop3_fields().1;
    if inst.opsel & full != 0 && printed & 0x38 != 0 {
        let _ = write!(s, " op_sel:{}", bit_list(inst.opsel, n));
    }
    if inst.opsel_hi & full != default_hi && printed & 0x340 != 0 {
        let _ = write!(s, " op_sel_hi:{}", bit_list(inst.opsel_hi, n));
    }
    if !mix {
        if inst.neg & full != 0 && printed & 0x1c00 != 0 {
            let _ = write!(s, " neg_lo:{}", bit_list(inst.neg, n));
        }
        if inst.neg_hi & full != 0 && printed & 0x7 != 0 {
            let _ = write!(s, " neg_hi:{}", bit_list(inst.neg_hi, n));
        }
    }
    if inst.clamp && printed & 0x80 != 0 {
        s.push_str(" clamp");
    }
    if inst.form.is_dpp() {
        s.push_str(&dpp_suffix(inst));
    }
    s
}

/// A 16-bit VGPR operand of a true16 encoding: bit 7 of the field selects the high half
/// of v0..v127.
fn true16_name(v: u16) -> String {
    format!("v{}.{}", v & 127, if v & 128 != 0 { 'h' } else { 'l' })
}

/// `o` printed, with LLVM's comment where it lies outside the register class `class`.
fn in_class(o: &Operand, ty: Ty, wave64: bool, class: RegClass) -> String {
    let mut text = operand(o, ty, wave64);
    if let Some(c) = class.comment(o) {
        text.push_str(&c);
    }
    text
}

/// LLVM's comment on source `k` where it lies outside the register class of its field
/// ([`src_class`]).
fn class_comment(text: &mut String, inst: &Inst, k: usize, wave64: bool) {
    if let Some(c) = src_class(inst.op, k, inst.form, wave64).and_then(|c| c.comment(&inst.src[k])) {
        text.push_str(&c);
    }
}

/// Appends LLVM's comment on a register outside its operand's register class.
fn invalid_register(text: &mut String, class: &str) {
    let _ = write!(text, "/*Invalid register, operand has '{class}' register class*/");
}

/// VINTERP: LLVM prints `clamp`, then `op_sel`, then `wait_exp`. Its "Invalid register"
/// comment is not given to null, the src_shared/private/pops registers, src_vccz,
/// src_execz and src_scc (registers outside every register class it names).
fn vinterp(inst: &Inst) -> String {
    let info = inst.op.info();
    let ops: Vec<String> = (0..3)
        .map(|k| {
            let constant = matches!(inst.src[k], Operand::Const { .. });
            let mut text = operand(&inst.src[k], Ty::F32, false);
            class_comment(&mut text, inst, k, false);
            with_mods(text, inst.neg >> k & 1 != 0, false, constant)
        })
        .collect();
    let mut s = format!("{} {}, {}", info.name, operand(&inst.dst, Ty::F32, false), ops.join(", "));
    if inst.clamp {
        s.push_str(" clamp");
    }
    if inst.opsel != 0 {
        let _ = write!(s, " op_sel:{}", bit_list(inst.opsel, 4));
    }
    let _ = write!(s, " wait_exp:{}", inst.imm);
    s
}

fn ldsdir(inst: &Inst) -> String {
    let info = inst.op.info();
    let dst = operand(&inst.dst, Ty::B32, false);
    if inst.op == Op::LDS_PARAM_LOAD {
        let (attr, chan) = (inst.imm1 >> 2, inst.imm1 & 3);
        format!("{} {dst}, attr{attr}.{} wait_vdst:{}", info.name, ["x", "y", "z", "w"][chan as usize], inst.imm)
    } else {
        format!("{} {dst} wait_vdst:{}", info.name, inst.imm)
    }
}

fn exp(inst: &Inst) -> String {
    let v = inst.imm as u32;
    let (en, target, done, row) = (v & 0xf, v >> 4 & 0x3f, v >> 11 & 1 != 0, v >> 13 & 1 != 0);
    let name = match target {
        0..=7 => format!("mrt{target}"),
        8 => "mrtz".into(),
        12..=16 => format!("pos{}", target - 12),
        20 => "prim".into(),
        21 | 22 => format!("dual_src_blend{}", target - 21),
        _ => format!("invalid_target_{target}"),
    };
    let regs: Vec<String> = (0..4)
        .map(|k| if en >> k & 1 != 0 { format!("v{}", inst.ext >> (8 * k) & 0xff) } else { "off".into() })
        .collect();
    let mut s = format!("exp {name} {}", regs.join(", "));
    if done {
        s.push_str(" done");
    }
    if row {
        s.push_str(" row_en");
    }
    s
}

fn mimg(inst: &Inst) -> String {
    use super::decode::mimg::*;
    let (imm, nsa_word) = (inst.imm, inst.ext);
    let (data, addr) = (inst.imm1 as u32 & 0xff, inst.imm1 as u32 >> 8 & 0xff);
    let reg = |o: &Operand, n: u32| match *o {
        Operand::Vgpr(v) => vreg_name(v, n),
        Operand::Sgpr(s) => sreg_name(s, n),
        _ => String::new(),
    };
    let bvh = matches!(inst.op, Op::IMAGE_BVH_INTERSECT_RAY | Op::IMAGE_BVH64_INTERSECT_RAY);
    let vaddr = if imm & NSA == 0 {
        reg(&inst.src[0], addr)
    } else {
        // The first address VGPR is in the second dword, the others in the NSA dword; past
        // five, the last entry is a range holding the rest.
        let first = match inst.src[0] {
            Operand::Vgpr(v) => v as u32,
            _ => 0,
        };
        let regs = [first, nsa_word & 0xff, nsa_word >> 8 & 0xff, nsa_word >> 16 & 0xff, nsa_word >> 24];
        let sizes: &[u8] = if bvh {
            &BVH_SLOTS[(inst.op == Op::IMAGE_BVH64_INTERSECT_RAY) as usize][..5 - (imm & A16 != 0) as usize]
        } else if addr <= 5 {
            &[1; 5][..addr as usize]
        } else {
            &[1, 1, 1, 1, 0]
        };
        let list: Vec<String> = regs
            .iter()
            .zip(sizes)
            .map(|(&r, &n)| vreg_name(r as u16, if n == 0 { addr - 4 } else { n as u32 }))
            .collect();
        format!("[{}]", list.join(", "))
    };
    // LLVM prints two spaces after the mnemonic of NSA sample and gather instructions.
    let space = if imm & NSA != 0 && inst.src[2] != Operand::None { "  " } else { " " };
    let mut s = format!(
        "{}{space}{}, {vaddr}, {}",
        inst.op.name(),
        reg(&inst.dst, data),
        reg(&inst.src[1], if bvh { 4 } else { 8 })
    );
    if inst.src[2] != Operand::None {
        let _ = write!(s, ", {}", reg(&inst.src[2], 4));
    }
    if bvh {
        if imm & A16 != 0 {
            s.push_str(" a16");
        }
        return s;
    }
    if imm & DMASK != 0 {
        let _ = write!(s, " dmask:{:#x}", imm & DMASK);
    }
    let _ = write!(s, " dim:SQ_RSRC_IMG_{}", DIMS[(imm >> DIM_SHIFT & 7) as usize]);
    if imm & UNORM != 0 {
        s.push_str(" unorm");
    }
    cache_bits(&mut s, inst.flags);
    for (f, name) in [(R128, " r128"), (A16, " a16")] {
        if imm & f != 0 {
            s.push_str(name);
        }
    }
    if inst.flags & mflag::TFE != 0 {
        s.push_str(" tfe");
    }
    for (f, name) in [(LWE, " lwe"), (D16, " d16")] {
        if imm & f != 0 {
            s.push_str(name);
        }
    }
    s
}

fn ds(inst: &Inst) -> String {
    let info = inst.op.info();
    let t = info.ty;
    let name = info.name;
    let reg = |o: &Operand, ty: Ty| match *o {
        Operand::Vgpr(v) => vreg_name(v, ty.dwords(false)),
        _ => String::new(),
    };
    let mut ops = Vec::new();
    if t[0] != Ty::N {
        ops.push(reg(&inst.dst, t[0]));
    }
    for (k, ty) in t[1..].iter().enumerate() {
        if *ty != Ty::N {
            ops.push(reg(&inst.src[k], *ty));
        }
    }
    let mut s = if ops.is_empty() { name.to_string() } else { format!("{name} {}", ops.join(", ")) };
    if inst.op.mem().is_some_and(|m| m.stride != 0) {
        if inst.imm != 0 {
            let _ = write!(s, " offset0:{}", inst.imm);
        }
        if inst.imm1 != 0 {
            let _ = write!(s, " offset1:{}", inst.imm1);
        }
    } else {
        let off = inst.imm as u32 | (inst.imm1 as u32) << 8;
        if off != 0 && inst.op == Op::DS_SWIZZLE_B32 {
            let _ = write!(s, " offset:{}", swizzle(off));
        } else if off != 0 {
            let _ = write!(s, " offset:{off}");
        }
    }
    if inst.flags & mflag::GDS != 0 {
        s.push_str(" gds");
    }
    s
}

/// ds_swizzle_b32's offset in LLVM's `swizzle(...)` syntax: QUAD_PERM (bit 15), or a
/// bit-mask permutation of the lane id (and, or, xor masks in bits 4:0, 9:5, 14:10) named
/// BROADCAST, SWAP or REVERSE where it is one, else spelled out per bit.
fn swizzle(off: u32) -> String {
    if off & 0x8000 != 0 {
        if off & 0x7f00 != 0 {
            return off.to_string();
        }
        let q: Vec<String> = (0..4).map(|k| (off >> (2 * k) & 3).to_string()).collect();
        return format!("swizzle(QUAD_PERM,{})", q.join(","));
    }
    let (and, or, xor) = (off & 0x1f, off >> 5 & 0x1f, off >> 10 & 0x1f);
    let group = (!and & 0x1f) + 1;
    if xor == 0 && group >= 2 && group.is_power_of_two() && or < group {
        return format!("swizzle(BROADCAST,{group},{or})");
    }
    if and == 0x1f && or == 0 && xor.is_power_of_two() {
        return format!("swizzle(SWAP,{xor})");
    }
    if and == 0x1f && or == 0 && xor != 0 && (xor + 1).is_power_of_two() {
        return format!("swizzle(REVERSE,{})", xor + 1);
    }
    let bits: String = (0..5)
        .rev()
        .map(|b| match (and >> b & 1, or >> b & 1, xor >> b & 1) {
            (_, 1, x) | (0, _, x) => {
                if x ^ (or >> b & 1) == 1 {
                    '1'
                } else {
                    '0'
                }
            }
            (_, _, 0) => 'p',
            _ => 'i',
        })
        .collect();
    format!("swizzle(BITMASK_PERM,\"{bits}\")")
}

fn cache_bits(s: &mut String, f: u16) {
    if f & mflag::GLC != 0 {
        s.push_str(" glc");
    }
    if f & mflag::SLC != 0 {
        s.push_str(" slc");
    }
    if f & mflag::DLC != 0 {
        s.push_str(" dlc");
    }
}

/// The gfx11 buffer data formats (MTBUF `format`, V# FORMAT), as LLVM names them
/// (`BUF_FMT_*`), by number; 0 is INVALID. The disassembly tests check them against LLVM.
pub const BUF_FMT: [&str; 64] = [
    "INVALID",
    "8_UNORM",
    "8_SNORM",
    "8_USCALED",
    "8_SSCALED",
    "8_UINT",
    "8_SINT",
    "16_UNORM",
    "16_SNORM",
    "16_USCALED",
    "16_SSCALED",
    "16_UINT",
    "16_SINT",
    "16_FLOAT",
    "8_8_UNORM",
    "8_8_SNORM",
    "8_8_USCALED",
    "8_8_SSCALED",
    "8_8_UINT",
    "8_8_SINT",
    "32_UINT",
    "32_SINT",
    "32_FLOAT",
    "16_16_UNORM",
    "16_16_SNORM",
    "16_16_USCALED",
    "16_16_SSCALED",
    "16_16_UINT",
    "16_16_SINT",
    "16_16_FLOAT",
    "10_11_11_FLOAT",
    "11_11_10_FLOAT",
    "10_10_10_2_UNORM",
    "10_10_10_2_SNORM",
    "10_10_10_2_UINT",
    "10_10_10_2_SINT",
    "2_10_10_10_UNORM",
    "2_10_10_10_SNORM",
    "2_10_10_10_USCALED",
    "2_10_10_10_SSCALED",
    "2_10_10_10_UINT",
    "2_10_10_10_SINT",
    "8_8_8_8_UNORM",
    "8_8_8_8_SNORM",
    "8_8_8_8_USCALED",
    "8_8_8_8_SSCALED",
    "8_8_8_8_UINT",
    "8_8_8_8_SINT",
    "32_32_UINT",
    "32_32_SINT",
    "32_32_FLOAT",
    "16_16_16_16_UNORM",
    "16_16_16_16_SNORM",
    "16_16_16_16_USCALED",
    "16_16_16_16_SSCALED",
    "16_16_16_16_UINT",
    "16_16_16_16_SINT",
    "16_16_16_16_FLOAT",
    "32_32_32_UINT",
    "32_32_32_SINT",
    "32_32_32_FLOAT",
    "32_32_32_32_UINT",
    "32_32_32_32_SINT",
    "32_32_32_32_FLOAT",
];

fn mubuf(inst: &Inst) -> String {
    let info = inst.op.info();
    let lds = inst.op.has_flag(F::LDS);
    if info.ty[0] == Ty::N && !lds {
        return info.name.to_string();
    }
    let f = inst.flags;
    // Atomics name the larger of the returned and the supplied data; TFE adds a dword.
    let n = info.ty[0].dwords(false).max(info.ty[1].dwords(false)) + (f & mflag::TFE != 0) as u32;
    let vaddr = match (f & mflag::OFFEN != 0, f & mflag::IDXEN != 0, inst.src[0]) {
        (false, false, _) => "off".to_string(),
        (true, true, Operand::Vgpr(v)) => vreg_name(v, 2),
        (_, _, Operand::Vgpr(v)) => vreg_name(v, 1),
        _ => String::new(),
    };
    let rsrc = match inst.src[2] {
        Operand::Sgpr(i) => sreg_name(i, 4),
        _ => String::new(),
    };
    let soff = in_class(&inst.src[3], Ty::B32, false, SREG_32);
    let mut s = match inst.src[1] {
        Operand::Vgpr(v) => format!("{} {}, {vaddr}, {rsrc}, {soff}", info.name, vreg_name(v, n)),
        _ => format!("{} {vaddr}, {rsrc}, {soff}", info.name),
    };
    if info.enc == Encoding::Mtbuf && inst.imm1 != 1 {
        match BUF_FMT.get(inst.imm1 as usize) {
            Some(name) => {
                let _ = write!(s, " format:[BUF_FMT_{name}]");
            }
            None => {
                let _ = write!(s, " format:{}", inst.imm1);
            }
        }
    }
    if f & mflag::IDXEN != 0 {
        s.push_str(" idxen");
    }
    if f & mflag::OFFEN != 0 {
        s.push_str(" offen");
    }
    if inst.imm != 0 {
        let _ = write!(s, " offset:{}", inst.imm);
    }
    cache_bits(&mut s, f);
    if f & mflag::TFE != 0 {
        s.push_str(" tfe");
    }
    s
}

fn flat(inst: &Inst) -> String {
    let info = inst.op.info();
    let n = info.ty[0].dwords(false);
    let scratch = info.enc == Encoding::Scratch;
    let sreg = |s: u8| {
        if scratch {
            // exec_hi is outside scratch's saddr class.
            let mut name = sreg_name(s, 1);
            if s == 127 {
                invalid_register(&mut name, "SReg_32_XEXEC_HI");
            }
            name
        } else {
            sreg_name(s, 2)
        }
    };
    let vgpr = |o: Operand, n: u32| match o {
        Operand::Vgpr(v) => vreg_name(v, n),
        _ => String::new(),
    };
    let (saddr, addr) = match (inst.src[2], inst.src[0]) {
        (Operand::Sgpr(s), Operand::Vgpr(v)) => (sreg(s), Some(vreg_name(v, 1))),
        (_, Operand::Vgpr(v)) => ("off".to_string(), Some(vreg_name(v, if scratch { 1 } else { 2 }))),
        (Operand::Sgpr(s), _) => (sreg(s), None),
        _ => ("off".to_string(), None),
    };
    // Scratch without SVE prints its absent address as `off`; global_*_addtid_b32 have no
    // address operand at all.
    let addr = if scratch { addr.or(Some("off".to_string())) } else { addr };
    let mut ops = Vec::new();
    if info.flags & F::ATOMIC != 0 {
        // The returned value is written (and printed) only with GLC.
        if inst.flags & mflag::GLC != 0 {
            ops.push(vgpr(inst.dst, n));
        }
        ops.extend(addr);
        ops.push(vgpr(inst.src[1], info.ty[1].dwords(false)));
    } else if inst.op.mem().is_some_and(|m| m.access == Access::Load) {
        ops.push(vgpr(inst.dst, n));
        ops.extend(addr);
    } else {
        ops.extend(addr);
        ops.push(vgpr(inst.src[1], n));
    }
    // flat_* has no saddr operand.
    if info.enc != Encoding::Flat {
        ops.push(saddr);
    }
    let mut s = format!("{} {}", info.name, ops.join(", "));
    if inst.imm != 0 {
        let _ = write!(s, " offset:{}", inst.imm);
    }
    cache_bits(&mut s, inst.flags);
    s
}
