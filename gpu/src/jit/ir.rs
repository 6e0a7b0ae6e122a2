//! A small writer of LLVM IR text: numbered temporaries, the wave's lane-vector types,
//! and the register-file accesses every lowering shares (scalar registers, SCC, EXEC,
//! VGPRs under EXEC). The translated function's arguments are `%w` (the [`Wave`]), `%v`
//! (its VGPR file) and `%env` ([`super::Env`]); field offsets come from the Rust layout.
//!
//! [`Wave`]: crate::isa::exec::Wave

use std::fmt::Write;

use crate::isa::decode::{Operand, SGPR_EXEC_LO, SGPR_NULL, SGPR_TTMP0};

/// Byte offsets of the wave fields the translated code reads and writes.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub sgpr: usize,
    pub scc: usize,
    pub pc: usize,
    pub executed: usize,
    pub translated: usize,
    /// The memory counters VMcnt, VScnt, LGKMcnt, EXPcnt (`Track::cnt`, one byte each).
    pub cnt: usize,
    /// VGPRs allocated to the wave (`Wave::vgprs`, u32).
    pub vgprs: usize,
    /// Fields of the environment: 1 when SH_MEM_CONFIG.ALIGNMENT_MODE is UNALIGNED (u32),
    /// the workgroup's LDS (pointer) and its length (u64).
    pub env_unaligned: usize,
    /// `Env::one`: an f32 1.0 the generated code loads (LLVM must not know its value).
    pub env_one: usize,
    pub env_lds: usize,
    pub env_lds_len: usize,
    /// Addresses of the call-out and of the one-translation helper.
    pub callout: u64,
    pub translate: u64,
    /// Address of the memory access helper of the inline paths.
    pub access: u64,
    /// Address of the image helper of inline image loads and stores (jit/image.rs).
    pub image: u64,
}

/// Why an instruction is not translated inline (it then runs in the interpreter through a
/// call-out, with the same result by construction).
#[derive(Debug)]
pub struct NotInline;

pub type Lower<T = ()> = Result<T, NotInline>;

/// The IR of one function being written.
pub struct Ir {
    pub out: String,
    next: u32,
    /// Lanes per wave (32 or 64).
    pub n: usize,
    pub lay: Layout,
    /// The label of the basic block being written (for phis).
    pub block: String,
    /// Declarations of the intrinsics and libm functions used.
    pub decls: std::collections::BTreeSet<String>,
}

impl Ir {
    pub fn new(n: usize, lay: Layout) -> Ir {
        Ir { out: String::with_capacity(1 << 16), next: 0, n, lay, block: String::new(), decls: Default::default() }
    }

    /// A fresh temporary name (`%tN`).
    pub fn tmp(&mut self) -> String {
        self.next += 1;
        format!("%t{}", self.next)
    }

    /// A fresh label name (without `%`).
    pub fn label(&mut self, what: &str) -> String {
        self.next += 1;
        format!("{what}{}", self.next)
    }

    /// Appends one instruction line.
    pub fn line(&mut self, s: &str) {
        self.out.push_str("  ");
        self.out.push_str(s);
        self.out.push('\n');
    }

    /// `%t = <rhs>`; returns `%t`.
    pub fn val(&mut self, rhs: &str) -> String {
        let t = self.tmp();
        let _ = writeln!(self.out, "  {t} = {rhs}");
        t
    }

    /// Starts basic block `name`.
    pub fn start(&mut self, name: &str) {
        let _ = writeln!(self.out, "{name}:");
        self.block = name.to_string();
    }

    /// Calls `name` (declared once as `declare ret name(args)`) with `args` (typed).
    pub fn call(&mut self, ret: &str, name: &str, arg_types: &[&str], args: &[&str]) -> String {
        self.decls.insert(format!("declare {ret} @{name}({})", arg_types.join(", ")));
        let list: Vec<String> = arg_types.iter().zip(args).map(|(t, a)| format!("{t} {a}")).collect();
        self.val(&format!("call {ret} @{name}({})", list.join(", ")))
    }

    /// Calls a lane-vector intrinsic `llvm.NAME.<suffix>` whose arguments all have the
    /// result's type `ty` (e.g. `llvm.smax`, `llvm.fma`).
    pub fn vcall(&mut self, name: &str, ty: &str, args: &[&str]) -> String {
        let elem = if ty.contains("float") {
            "f32"
        } else if ty.contains("i64") {
            "i64"
        } else {
            "i32"
        };
        let full = format!("llvm.{name}.v{}{elem}", self.n);
        let types = vec![ty; args.len()];
        self.call(ty, &full, &types, args)
    }

    /// Runs instruction `idx` in the interpreter (the call-out): goes on in a new block
    /// when it says so, else returns its answer from the function. `Wave::executed` must
    /// be up to date.
    pub fn callout(&mut self, idx: usize) {
        let f = self.lay.callout;
        let r = self.val(&format!("call i32 inttoptr (i64 {f} to ptr)(ptr %w, ptr %v, ptr %env, i32 {idx})"));
        let go = self.val(&format!("icmp eq i32 {r}, 0"));
        let (cont, out) = (self.label("go"), self.label("out"));
        self.line(&format!("br i1 {go}, label %{cont}, label %{out}, !prof !1"));
        self.start(&out);
        self.line(&format!("ret i32 {r}"));
        self.start(&cont);
    }

    /// A pointer to byte `off` of the wave or the environment.
    pub fn field(&mut self, base: &str, off: usize) -> String {
        self.val(&format!("getelementptr inbounds i8, ptr {base}, i64 {off}"))
    }

    /// `Track::count`: one more outstanding instruction on memory counter `k` (a full
    /// counter first retires its oldest: at most 62 before the increment).
    pub fn count(&mut self, k: usize) {
        let p = self.field("%w", self.lay.cnt + k);
        let c = self.val(&format!("load i8, ptr {p}, align 1"));
        let m = self.call("i8", "llvm.umin.i8", &["i8", "i8"], &[&c, "62"]);
        let n = self.val(&format!("add i8 {m}, 1"));
        self.line(&format!("store i8 {n}, ptr {p}, align 1"));
    }

    // ---- types ----

    /// `<N x i32>`.
    pub fn vi(&self) -> String {
        format!("<{} x i32>", self.n)
    }

    pub fn vf(&self) -> String {
        format!("<{} x float>", self.n)
    }

    pub fn vb(&self) -> String {
        format!("<{} x i1>", self.n)
    }

    pub fn vi64(&self) -> String {
        format!("<{} x i64>", self.n)
    }

    /// The lane-mask integer type (`i32` or `i64`).
    pub fn mi(&self) -> &'static str {
        if self.n == 64 {
            "i64"
        } else {
            "i32"
        }
    }

    /// A splat constant vector of `ty` elements (`<N x ty> <ty c, ...>`'s value part).
    pub fn splat_const(&self, ty: &str, c: &str) -> String {
        let one = format!("{ty} {c}");
        format!("<{}>", vec![one; self.n].join(", "))
    }

    /// A vector of `ty` with `x` in every lane.
    pub fn splat(&mut self, ty: &str, x: &str) -> String {
        let v = format!("<{} x {ty}>", self.n);
        let i = self.val(&format!("insertelement {v} poison, {ty} {x}, i64 0"));
        self.val(&format!("shufflevector {v} {i}, {v} poison, <{} x i32> zeroinitializer", self.n))
    }

    // ---- scalar registers ----

    fn sgpr_ptr(&mut self, i: u8) -> String {
        let off = self.lay.sgpr + 4 * i as usize;
        self.val(&format!("getelementptr inbounds i8, ptr %w, i64 {off}"))
    }

    /// Whether reading or writing scalar register `i` inline has the interpreter's effect:
    /// TTMPs depend on STATUS.PRIV (RDNA3-NOTES, "SGPR out-of-range behaviour"), so they go
    /// through the interpreter.
    pub fn plain_sgpr(i: u8) -> bool {
        !(SGPR_TTMP0..SGPR_TTMP0 + 16).contains(&i)
    }

    /// A 32-bit scalar register read (NULL reads zero).
    pub fn sget(&mut self, i: u8) -> Lower<String> {
        if i == SGPR_NULL {
            return Ok("0".into());
        }
        if !Ir::plain_sgpr(i) || i >= 128 {
            return Err(NotInline);
        }
        let p = self.sgpr_ptr(i);
        Ok(self.val(&format!("load i32, ptr {p}, align 4")))
    }

    /// A 32-bit scalar register write (NULL and out-of-range writes are dropped).
    pub fn sset(&mut self, i: u8, v: &str) -> Lower {
        if i == SGPR_NULL || i >= 128 {
            return Ok(());
        }
        if !Ir::plain_sgpr(i) {
            return Err(NotInline);
        }
        let p = self.sgpr_ptr(i);
        self.line(&format!("store i32 {v}, ptr {p}, align 4"));
        Ok(())
    }

    /// A 32-bit scalar source operand (`Wave::s32`).
    pub fn s32(&mut self, op: &Operand) -> Lower<String> {
        match *op {
            Operand::Sgpr(i) => self.sget(i),
            Operand::Const { value, .. } => Ok((value as u32 as i32).to_string()),
            Operand::Scc => {
                let c = self.scc()?;
                Ok(self.val(&format!("zext i1 {c} to i32")))
            }
            Operand::Vccz | Operand::Execz => {
                let m = if matches!(op, Operand::Vccz) { self.mask_reg(106)? } else { self.exec()? };
                let z = self.val(&format!("icmp eq {} {m}, 0", self.mi()));
                Ok(self.val(&format!("zext i1 {z} to i32")))
            }
            Operand::None => Ok("0".into()),
            Operand::Vgpr(_) | Operand::Special(_) => Err(NotInline),
        }
    }

    /// A 64-bit scalar source (`Wave::s64`): SGPR pairs ignore the index's low bit.
    pub fn s64(&mut self, op: &Operand) -> Lower<String> {
        match *op {
            Operand::Sgpr(i) if i != SGPR_NULL => {
                let lo = self.sget(i & !1)?;
                let hi = self.sget((i & !1) + 1)?;
                self.join64(&lo, &hi)
            }
            Operand::Const { value, .. } => Ok((value as i64).to_string()),
            _ => {
                let v = self.s32(op)?;
                Ok(self.val(&format!("zext i32 {v} to i64")))
            }
        }
    }

    pub fn join64(&mut self, lo: &str, hi: &str) -> Lower<String> {
        let l = self.val(&format!("zext i32 {lo} to i64"));
        let h = self.val(&format!("zext i32 {hi} to i64"));
        let h = self.val(&format!("shl i64 {h}, 32"));
        Ok(self.val(&format!("or i64 {l}, {h}")))
    }

    /// A 32-bit scalar destination (`Wave::sdst32`; only SGPR operands are written).
    pub fn sdst32(&mut self, op: &Operand, v: &str) -> Lower {
        match *op {
            Operand::Sgpr(i) => self.sset(i, v),
            _ => Ok(()),
        }
    }

    /// A 64-bit scalar destination (`Wave::sdst64`).
    pub fn sdst64(&mut self, op: &Operand, v: &str) -> Lower {
        let Operand::Sgpr(i) = *op else { return Ok(()) };
        // NULL discards the whole value (its pair would include M0).
        if i == SGPR_NULL {
            return Ok(());
        }
        let i = i & !1;
        if !Ir::plain_sgpr(i) || !Ir::plain_sgpr(i + 1) {
            return Err(NotInline);
        }
        let lo = self.val(&format!("trunc i64 {v} to i32"));
        let hi = self.val(&format!("lshr i64 {v}, 32"));
        let hi = self.val(&format!("trunc i64 {hi} to i32"));
        self.sset(i, &lo)?;
        self.sset(i + 1, &hi)
    }

    /// SCC as an `i1`.
    pub fn scc(&mut self) -> Lower<String> {
        let off = self.lay.scc;
        let p = self.val(&format!("getelementptr inbounds i8, ptr %w, i64 {off}"));
        let b = self.val(&format!("load i8, ptr {p}, align 1"));
        Ok(self.val(&format!("icmp ne i8 {b}, 0")))
    }

    /// Sets SCC from an `i1`.
    pub fn set_scc(&mut self, c: &str) {
        let off = self.lay.scc;
        let p = self.val(&format!("getelementptr inbounds i8, ptr %w, i64 {off}"));
        let b = self.val(&format!("zext i1 {c} to i8"));
        self.line(&format!("store i8 {b}, ptr {p}, align 1"));
    }

    /// A lane mask register (VCC, EXEC, an SGPR or pair) as the mask integer type.
    pub fn mask_reg(&mut self, i: u8) -> Lower<String> {
        if self.n == 64 {
            self.s64(&Operand::Sgpr(i))
        } else {
            self.sget(i)
        }
    }

    /// EXEC (EXEC_LO alone in wave32).
    pub fn exec(&mut self) -> Lower<String> {
        self.mask_reg(SGPR_EXEC_LO)
    }

    /// A lane-mask source (`Wave::mask_src`).
    pub fn mask_src(&mut self, op: &Operand) -> Lower<String> {
        if self.n == 64 {
            self.s64(op)
        } else {
            self.s32(op)
        }
    }

    /// A lane-mask destination (`Wave::mask_dst`).
    pub fn mask_dst(&mut self, op: &Operand, v: &str) -> Lower {
        if self.n == 64 {
            self.sdst64(op, v)
        } else {
            self.sdst32(op, v)
        }
    }

    /// A mask integer as a lane vector of `i1`: the mask broadcast to every lane and
    /// tested against the lane's bit (LLVM's own lowering of an `iN` to `<N x i1>` bitcast
    /// extracts and inserts bit by bit on AVX2).
    pub fn lanes_of(&mut self, m: &str) -> String {
        let vi = self.vi();
        let bits: Vec<String> = (0..self.n).map(|l| format!("i32 {}", (1u32 << (l % 32)) as i32)).collect();
        let bits = format!("<{}>", bits.join(", "));
        let v = if self.n == 64 {
            let lo = self.val(&format!("trunc i64 {m} to i32"));
            let hi = self.val(&format!("lshr i64 {m}, 32"));
            let hi = self.val(&format!("trunc i64 {hi} to i32"));
            let h = format!("<{} x i32>", self.n / 2);
            let l = self.val(&format!("insertelement {h} poison, i32 {lo}, i64 0"));
            let l = self.val(&format!("shufflevector {h} {l}, {h} poison, {h} zeroinitializer"));
            let u = self.val(&format!("insertelement {h} poison, i32 {hi}, i64 0"));
            let u = self.val(&format!("shufflevector {h} {u}, {h} poison, {h} zeroinitializer"));
            let idx: Vec<String> = (0..64).map(|i| format!("i32 {i}")).collect();
            self.val(&format!("shufflevector {h} {l}, {h} {u}, <64 x i32> <{}>", idx.join(", ")))
        } else {
            self.splat("i32", m)
        };
        let t = self.val(&format!("and {vi} {v}, {bits}"));
        self.val(&format!("icmp eq {vi} {t}, {bits}"))
    }

    /// A lane vector of `i1` as a mask integer.
    pub fn mask_of(&mut self, b: &str) -> String {
        let (mi, vb) = (self.mi(), self.vb());
        self.val(&format!("bitcast {vb} {b} to {mi}"))
    }

    // ---- vector registers ----

    fn vgpr_ptr(&mut self, r: u16) -> String {
        let off = r as usize * self.n * 4;
        self.val(&format!("getelementptr inbounds i8, ptr %v, i64 {off}"))
    }

    /// VGPR `r`'s lanes.
    pub fn vload(&mut self, r: u16) -> String {
        let p = self.vgpr_ptr(r);
        let vi = self.vi();
        self.val(&format!("load {vi}, ptr {p}, align 4"))
    }

    /// A vector source's lanes (`Wave::vsrc`: a VGPR, or a scalar broadcast).
    pub fn vsrc(&mut self, op: &Operand) -> Lower<String> {
        match *op {
            Operand::Vgpr(r) => Ok(self.vload(r)),
            _ => {
                let s = self.s32(op)?;
                Ok(self.splat("i32", &s))
            }
        }
    }

    /// A 64-bit vector source (`Wave::vsrc64`).
    pub fn vsrc64(&mut self, op: &Operand) -> Lower<String> {
        let vi64 = self.vi64();
        match *op {
            Operand::Vgpr(r) => {
                let (lo, hi) = (self.vload(r), self.vload(r.wrapping_add(1)));
                let vi = self.vi();
                let l = self.val(&format!("zext {vi} {lo} to {vi64}"));
                let h = self.val(&format!("zext {vi} {hi} to {vi64}"));
                let c32 = self.splat_const("i64", "32");
                let h = self.val(&format!("shl {vi64} {h}, {c32}"));
                Ok(self.val(&format!("or {vi64} {l}, {h}")))
            }
            _ => {
                let s = self.s64(op)?;
                Ok(self.splat("i64", &s))
            }
        }
    }

    /// Writes `val` to VGPR `r` in the lanes of `exec` (a mask integer): a blend with the
    /// old value and a full store (masked stores are microcoded and slow on AMD's cores).
    pub fn vstore(&mut self, r: u16, val: &str, exec: &str) {
        let vi = self.vi();
        let m = self.lanes_of(exec);
        let p = self.vgpr_ptr(r);
        let old = self.val(&format!("load {vi}, ptr {p}, align 4"));
        let new = self.val(&format!("select {} {m}, {vi} {val}, {vi} {old}", self.vb()));
        self.line(&format!("store {vi} {new}, ptr {p}, align 4"));
    }

    /// Writes `val` to every lane of VGPR `r`.
    pub fn vstore_all(&mut self, r: u16, val: &str) {
        let vi = self.vi();
        let p = self.vgpr_ptr(r);
        self.line(&format!("store {vi} {val}, ptr {p}, align 4"));
    }

    /// Joins low and high 32-bit lane vectors into a 64-bit one.
    pub fn join_lanes64(&mut self, lo: &str, hi: &str) -> String {
        let (vi, vi64) = (self.vi(), self.vi64());
        let l = self.val(&format!("zext {vi} {lo} to {vi64}"));
        let h = self.val(&format!("zext {vi} {hi} to {vi64}"));
        let c32 = self.splat_const("i64", "32");
        let h = self.val(&format!("shl {vi64} {h}, {c32}"));
        self.val(&format!("or {vi64} {l}, {h}"))
    }

    /// Splits a 64-bit lane vector into its low and high 32-bit halves.
    pub fn split64(&mut self, v: &str) -> (String, String) {
        let (vi, vi64) = (self.vi(), self.vi64());
        let lo = self.val(&format!("trunc {vi64} {v} to {vi}"));
        let c32 = self.splat_const("i64", "32");
        let h = self.val(&format!("lshr {vi64} {v}, {c32}"));
        let hi = self.val(&format!("trunc {vi64} {h} to {vi}"));
        (lo, hi)
    }

    /// Bitcasts an integer lane vector to float lanes and back.
    pub fn as_f(&mut self, v: &str) -> String {
        let (vi, vf) = (self.vi(), self.vf());
        self.val(&format!("bitcast {vi} {v} to {vf}"))
    }

    pub fn as_i(&mut self, v: &str) -> String {
        let (vi, vf) = (self.vi(), self.vf());
        self.val(&format!("bitcast {vf} {v} to {vi}"))
    }

    /// A binary operation on integer lane vectors with a splat constant or vector.
    pub fn ibin(&mut self, op: &str, a: &str, b: &str) -> String {
        let vi = self.vi();
        self.val(&format!("{op} {vi} {a}, {b}"))
    }

    /// `<N x i32>` splat of an integer constant.
    pub fn ci(&self, c: i64) -> String {
        self.splat_const("i32", &(c as i32).to_string())
    }
}
