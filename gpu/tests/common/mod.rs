//! Helpers shared by the GPU integration tests: assembling gfx11 code with LLVM 19's
//! tools, uploading it, building PM4 with `gpu::pm4::Builder` and submitting it through
//! the winsys, exactly as a driver would (no Vulkan).

#![allow(dead_code)] // each test binary uses a different subset

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use gpu::mem::Bo;
use gpu::pm4::{initiator, reg, Builder};
use gpu::{Config, Device, Ib, Queue, Report};

/// `s_code_end`: the 256 bytes after a shader are filled with it, as LLVM does.
pub const S_CODE_END: u32 = 0xbf9f_0000;

/// Initiator bits of a wave32 dispatch (RADV sets ORDER_MODE and TUNNEL_ENABLE too).
pub const W32: u32 = initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000 | initiator::CS_W32_EN;
/// Initiator bits of a wave64 dispatch.
pub const W64: u32 = initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000;

/// A fresh scratch directory for one tool invocation.
pub fn scratch_dir(tag: &str) -> PathBuf {
    static N: AtomicU64 = AtomicU64::new(0);
    let n = N.fetch_add(1, Ordering::Relaxed);
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("gpu-{tag}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs a tool, panicking with its stderr on failure.
pub fn run_tool(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "{cmd:?} failed:\n{}", String::from_utf8_lossy(&out.stderr));
    out.stdout
}

/// Assembles gfx1100 assembly into an object file; returns its path.
pub fn assemble_object(src: &str) -> PathBuf {
    assemble_object_for(src, false)
}

/// Assembles for wave64 (`vcc` and lane masks are SGPR pairs) or wave32.
pub fn assemble_object_for(src: &str, wave64: bool) -> PathBuf {
    let dir = scratch_dir("mc");
    let (s, o) = (dir.join("k.s"), dir.join("k.o"));
    std::fs::write(&s, src).unwrap();
    let mut cmd = Command::new("llvm-mc-19");
    cmd.args(["-arch=amdgcn", "-mcpu=gfx1100", "-filetype=obj"]);
    if wave64 {
        cmd.arg("-mattr=+wavefrontsize64");
    }
    run_tool(cmd.arg("-o").arg(&o).arg(&s));
    o
}

/// Assembles gfx1100 assembly (plain instruction text) into machine words. With
/// `SOFTNAVI_ASM_CACHE=DIR` the words are kept in DIR by a hash of the text, so that a
/// benchmark built here can run on a machine without LLVM.
pub fn assemble(src: &str) -> Vec<u32> {
    assemble_for(src, false)
}

/// [`assemble`] for wave64 or wave32.
pub fn assemble_for(src: &str, wave64: bool) -> Vec<u32> {
    let cached = std::env::var_os("SOFTNAVI_ASM_CACHE").map(|dir| {
        // FNV-1a: stable across builds, unlike std's hasher.
        let h = src
            .bytes()
            .chain(wave64.then_some(0xff))
            .fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3));
        PathBuf::from(dir).join(format!("{h:016x}.bin"))
    });
    let words = match cached.as_ref().and_then(|p| std::fs::read(p).ok()) {
        Some(bytes) => bytes,
        None => assemble_uncached(src, wave64),
    };
    if let Some(p) = &cached {
        let _ = std::fs::create_dir_all(p.parent().unwrap());
        let _ = std::fs::write(p, &words);
    }
    assert_eq!(words.len() % 4, 0);
    words.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
}

fn assemble_uncached(src: &str, wave64: bool) -> Vec<u8> {
    let o = assemble_object_for(src, wave64);
    let bin = o.with_extension("bin");
    run_tool(Command::new("llvm-objcopy-19").args(["-O", "binary", "--only-section=.text"]).arg(&o).arg(&bin));
    std::fs::read(&bin).unwrap()
}

/// Copies dwords into a BO at a byte offset.
pub fn write_words(bo: &Bo, byte_offset: u64, words: &[u32]) {
    assert!(byte_offset % 4 == 0 && byte_offset + 4 * words.len() as u64 <= bo.size());
    // SAFETY: the range was checked against the BO's size; the GPU is not using it.
    unsafe {
        std::ptr::copy_nonoverlapping(words.as_ptr(), bo.host_ptr().add(byte_offset as usize) as *mut u32, words.len())
    }
}

/// Reads dwords from a BO at a byte offset.
pub fn read_words(bo: &Bo, byte_offset: u64, count: usize) -> Vec<u32> {
    assert!(byte_offset % 4 == 0 && byte_offset + 4 * count as u64 <= bo.size());
    let mut out = vec![0u32; count];
    // SAFETY: the range was checked against the BO's size; the GPU is idle.
    unsafe {
        std::ptr::copy_nonoverlapping(bo.host_ptr().add(byte_offset as usize) as *const u32, out.as_mut_ptr(), count)
    }
    out
}

pub fn read_u64(bo: &Bo, byte_offset: u64) -> u64 {
    let w = read_words(bo, byte_offset, 2);
    w[0] as u64 | (w[1] as u64) << 32
}

/// `SOFTNAVI_CHECK=1` in the environment: the harness's devices run every wave under the
/// debug checker, so that the whole suite can be run under it.
pub fn check_from_env() -> bool {
    std::env::var("SOFTNAVI_CHECK").is_ok_and(|v| v.trim() == "1")
}

/// A device and one queue; `threads: 2` keeps the tests light on small machines.
pub struct Gpu {
    pub dev: Device,
    pub queue: Queue,
    /// Indirect buffers submitted so far (kept alive until the GPU is dropped).
    ibs: Vec<Arc<Bo>>,
}

impl Gpu {
    pub fn new() -> Gpu {
        Gpu::with_timeout(Duration::from_secs(5))
    }

    pub fn with_timeout(hang_timeout: Duration) -> Gpu {
        Gpu::with_threads(2, hang_timeout)
    }

    /// A device with `threads` WGP worker threads.
    pub fn with_threads(threads: usize, hang_timeout: Duration) -> Gpu {
        Gpu::with_config(Config {
            threads,
            hang_timeout,
            memory_size: 256 << 20,
            check: check_from_env(),
            ..Config::default()
        })
    }

    /// A device with its own configuration (e.g. the VMID's SH_MEM_CONFIG or trap handler).
    /// `SOFTNAVI_JIT` in the environment picks the execution tier of every test device
    /// (CI runs the tests with `on` and with `off`).
    pub fn with_config(mut config: Config) -> Gpu {
        if let Some(m) = std::env::var("SOFTNAVI_JIT").ok().and_then(|v| gpu::jit::JitMode::parse(&v)) {
            config.jit = m;
        }
        let dev = Device::new(config).unwrap();
        let queue = dev.create_queue().unwrap();
        Gpu { dev, queue, ibs: Vec::new() }
    }

    pub fn alloc(&self, size: u64) -> Arc<Bo> {
        self.dev.alloc(size, 256).unwrap()
    }

    /// A BO holding `words`.
    pub fn buffer(&self, words: &[u32]) -> Arc<Bo> {
        let bo = self.alloc(4 * words.len().max(1) as u64);
        write_words(&bo, 0, words);
        bo
    }

    /// Uploads shader code to a 256-byte aligned BO, followed by 256 bytes of s_code_end.
    pub fn upload_code(&self, code: &[u32]) -> Arc<Bo> {
        let mut words = code.to_vec();
        words.extend(std::iter::repeat_n(S_CODE_END, 64));
        let bo = self.dev.alloc(4 * words.len() as u64, 256).unwrap();
        assert_eq!(bo.va() % 256, 0);
        write_words(&bo, 0, &words);
        bo
    }

    /// Assembles and uploads a kernel.
    pub fn kernel(&self, src: &str) -> Arc<Bo> {
        self.upload_code(&assemble(src))
    }

    /// Assembles (for wave64 or wave32) and uploads a kernel.
    pub fn kernel_for(&self, src: &str, wave64: bool) -> Arc<Bo> {
        self.upload_code(&assemble_for(src, wave64))
    }

    /// Puts an indirect buffer into GPU memory (kept alive by `self`).
    pub fn ib(&mut self, words: &[u32]) -> Ib {
        let bo = self.buffer(words);
        let ib = Ib { va: bo.va(), dwords: words.len() as u32 };
        self.ibs.push(bo);
        ib
    }

    /// Submits one IB and waits for it: `Err` is the device-lost report.
    pub fn run(&mut self, words: &[u32]) -> Result<(), Arc<Report>> {
        let ib = self.ib(words);
        self.run_ibs(&[ib])
    }

    pub fn run_ibs(&mut self, ibs: &[Ib]) -> Result<(), Arc<Report>> {
        let seq = match self.queue.submit(ibs) {
            Ok(seq) => seq,
            Err(e) => panic!("submit failed: {e}"),
        };
        let done = match self.queue.wait(seq, Duration::from_secs(30)) {
            Ok(true) => Ok(()),
            Ok(false) => panic!("fence {seq} did not signal within 30 s"),
            Err(report) => Err(report),
        };
        // Under SOFTNAVI_JIT=on every program must translate: a failure is a bug.
        let jit = self.dev.stats().jit;
        assert_eq!(jit.failures, 0, "the translation tier failed: {}", jit.last_error.unwrap_or_default());
        done
    }
}

/// The SH register state of one dispatch.
#[derive(Clone, Debug)]
pub struct Dispatch {
    pub entry: u64,
    pub rsrc1: u32,
    pub rsrc2: u32,
    pub user_data: Vec<u32>,
    pub threads: [u32; 3],
    /// COMPUTE_PGM_RSRC3 (TRAP_ON_START / TRAP_ON_END bits 10 / 11).
    pub rsrc3: u32,
}

/// RSRC2 with `user` user SGPRs, TGID_X/Y/Z as asked and `lds` bytes of LDS.
pub fn rsrc2(user: u32, tgid: [bool; 3], lds: u32) -> u32 {
    user << 1 | (tgid[0] as u32) << 7 | (tgid[1] as u32) << 8 | (tgid[2] as u32) << 9 | lds.div_ceil(512) << 15
}

/// RSRC1 as LLVM writes it for a small kernel (VGPR blocks, FLOAT_MODE 0xf0, DX10_CLAMP,
/// IEEE_MODE, WGP_MODE, MEM_ORDERED).
pub const RSRC1: u32 = 0x60af_0004;

/// [`RSRC1`] with all 256 VGPRs allocated (the harness uses v224..v255).
pub const RSRC1_ALL_VGPRS: u32 = RSRC1 & !0x3f | 0x3f;

impl Dispatch {
    pub fn new(code: &Bo, user_data: &[u32], tgid: [bool; 3], threads: [u32; 3]) -> Dispatch {
        Dispatch {
            entry: code.va(),
            rsrc1: RSRC1,
            rsrc2: rsrc2(user_data.len() as u32, tgid, 0),
            user_data: user_data.to_vec(),
            threads,
            rsrc3: 0,
        }
    }

    pub fn lds(mut self, bytes: u32) -> Dispatch {
        self.rsrc2 = self.rsrc2 & !(0x1ff << 15) | bytes.div_ceil(512) << 15;
        self
    }

    /// SET_SH_REG packets for the program, resources, user data and workgroup size.
    pub fn emit_regs(&self, b: &mut Builder<Vec<u32>>) {
        assert_eq!(self.entry % 256, 0);
        b.set_sh_regs(reg::COMPUTE_PGM_LO, &[(self.entry >> 8) as u32, (self.entry >> 40) as u32]);
        b.set_sh_regs(reg::COMPUTE_PGM_RSRC1, &[self.rsrc1, self.rsrc2]);
        b.set_sh_reg(reg::COMPUTE_PGM_RSRC3, self.rsrc3);
        if !self.user_data.is_empty() {
            b.set_sh_regs(reg::COMPUTE_USER_DATA_0, &self.user_data);
        }
        b.set_sh_regs(reg::COMPUTE_NUM_THREAD_X, &self.threads);
    }

    /// Registers + DISPATCH_DIRECT.
    pub fn emit(&self, b: &mut Builder<Vec<u32>>, groups: [u32; 3], initiator: u32) {
        self.emit_regs(b);
        b.dispatch_direct(groups, initiator);
    }

    /// A whole IB for one dispatch.
    pub fn ib(&self, groups: [u32; 3], initiator: u32) -> Vec<u32> {
        let mut v = Vec::new();
        self.emit(&mut Builder(&mut v), groups, initiator);
        v
    }
}

/// Splits a 64-bit address into user-data dwords.
pub fn addr(va: u64) -> [u32; 2] {
    [va as u32, (va >> 32) as u32]
}

/// `out[tgid * 64 + tid] = tid * 3 + tgid`, with the output address in s[0:1] and the
/// workgroup id in s2 (64 work-items per group).
pub const TID3_KERNEL: &str = "
    v_and_b32 v1, 0x3ff, v0            // v1 = tid
    v_mad_u32_u24 v2, v1, 3, s2        // v2 = tid * 3 + tgid
    s_lshl_b32 s3, s2, 6               // s3 = tgid * 64
    v_add_nc_u32 v3, s3, v1            // v3 = index
    v_lshlrev_b32 v3, 2, v3            // byte offset
    global_store_b32 v3, v2, s[0:1]
    s_endpgm
";

/// Runs [`TID3_KERNEL`] over 64 groups of 64 work-items on `gpu` and checks every dword:
/// the "is this device usable" probe of the fault tests.
pub fn check_tid3_dispatch(gpu: &mut Gpu, initiator: u32) {
    let code = gpu.kernel(TID3_KERNEL);
    let out = gpu.alloc(64 * 64 * 4);
    write_words(&out, 0, &[0xdead_beef; 64 * 64]);
    let d = Dispatch::new(&code, &addr(out.va()), [true, false, false], [64, 1, 1]);
    gpu.run(&d.ib([64, 1, 1], initiator)).unwrap_or_else(|r| panic!("dispatch failed: {r}"));
    let got = read_words(&out, 0, 64 * 64);
    for g in 0..64u32 {
        for t in 0..64u32 {
            assert_eq!(got[(g * 64 + t) as usize], t * 3 + g, "group {g} item {t}");
        }
    }
}

/// One line of `llvm-objdump -d`: the instruction text, its address and machine words.
#[derive(Debug)]
pub struct Line {
    pub text: String,
    pub addr: u64,
    pub words: Vec<u32>,
}

/// Parses `\t<text>  // <addr>: <hex words> [<sym+off>] [; Warning: ...]` lines.
pub fn parse_objdump(out: &str) -> Vec<Line> {
    let mut lines = Vec::new();
    for l in out.lines() {
        // The last "// " starts the address: LLVM's "/*Invalid register...*/" comments end
        // right before it ("*/// 0000...").
        let Some((text, rest)) = l.rsplit_once("// ") else { continue };
        let Some((addr, words)) = rest.split_once(':') else { continue };
        let Ok(addr) = u64::from_str_radix(addr.trim(), 16) else { continue };
        let words: Vec<u32> = words
            .split_whitespace()
            .take_while(|w| !w.starts_with('<') && !w.starts_with(';'))
            .map(|w| u32::from_str_radix(w, 16).unwrap_or_else(|_| panic!("bad word {w:?} in {l:?}")))
            .collect();
        let text = text.trim();
        if text.is_empty() || words.is_empty() {
            continue;
        }
        lines.push(Line { text: text.to_string(), addr, words });
    }
    lines
}

pub fn objdump(obj: &Path, wave64: bool) -> Vec<Line> {
    let mut cmd = Command::new("llvm-objdump-19");
    // -z: a run of zero dwords is code here too (v_illegal), not padding to skip.
    cmd.args(["-d", "-z", "--mcpu=gfx1100"]);
    if wave64 {
        cmd.arg("--mattr=+wavefrontsize64");
    }
    let out = String::from_utf8(run_tool(cmd.arg(obj))).unwrap();
    let lines = parse_objdump(&out);
    assert!(!lines.is_empty(), "no instructions in\n{out}");
    lines
}

/// What [`run_wave`] gives back: each lane's v4..v11 and the scalar state after the body.
#[derive(Clone, Debug)]
pub struct WaveOut {
    /// Per lane, v4..v11.
    pub v: Vec<[u32; 8]>,
    /// s10..s25.
    pub s: [u32; 16],
    pub vcc: u64,
    pub exec: u64,
    pub scc: bool,
}

/// Runs `body` (gfx1100 assembly) in one wave of 32 or 64 lanes, the per-opcode test
/// harness. Lane `l` starts with v0..v3 = `inputs[l]` (lanes past the end get zeros),
/// v4..v11 = 0, s10..s25 = 0, EXEC all ones, VCC 0. The body may use every register
/// except s90..s99 and v240..v255; it may change EXEC (the harness restores it before
/// storing). MODE starts as LLVM's kernels start it (FLOAT_MODE 0xf0: round to nearest
/// even, denormals kept; DX10_CLAMP and IEEE set). `Err` is the device-lost report.
pub fn try_run_wave(body: &str, inputs: &[[u32; 4]], wave64: bool) -> Result<WaveOut, Arc<Report>> {
    try_run_wave_env(body, inputs, wave64, &WaveEnv::default()).map(|(out, _)| out)
}

/// What a [`try_run_wave_env`] wave has besides its inputs: a data buffer whose address
/// is in s[4:5] and size in bytes in s6, LDS, scratch, and the VMID's registers.
#[derive(Clone, Debug)]
pub struct WaveEnv {
    /// Initial contents of the data buffer (its final contents come back).
    pub mem: Vec<u32>,
    /// LDS bytes of the workgroup (RSRC2.LDS_SIZE, in 512-byte units).
    pub lds: u32,
    /// Scratch bytes per lane (0: no scratch; FLAT_SCRATCH is zero).
    pub scratch_per_lane: u32,
    /// The device configuration: SH_MEM_CONFIG, SH_MEM_BASES, trap handler.
    pub vmid: gpu::spi::VmidRegs,
    /// RSRC1 (VGPR count, FLOAT_MODE, ...).
    pub rsrc1: u32,
    /// A trap handler (gfx1100 assembly): installed with `Device::set_trap_handler`, TBA =
    /// its code, TMA = the data buffer (so `s_sendmsg_rtn_b64 MSG_RTN_GET_TMA` << 8 is the
    /// buffer's address), and the dispatch gets RSRC2.TRAP_PRESENT.
    pub trap_handler: Option<String>,
    /// Bits ORed into RSRC2 (e.g. TRAP_PRESENT without a handler, EXCP_EN).
    pub rsrc2_or: u32,
    /// COMPUTE_PGM_RSRC3 (TRAP_ON_START / TRAP_ON_END).
    pub rsrc3: u32,
    /// Run under the debug checker (default: on when `SOFTNAVI_CHECK=1` is set, so that
    /// the whole suite can be run under it).
    pub check: bool,
    /// Alignment of the data buffer's address (default 256; 65536 for a T# in a 64 KiB
    /// swizzle mode based at the buffer).
    pub data_align: u64,
}

impl Default for WaveEnv {
    fn default() -> Self {
        WaveEnv {
            mem: Vec::new(),
            lds: 0,
            scratch_per_lane: 0,
            vmid: Default::default(),
            rsrc1: RSRC1_ALL_VGPRS,
            trap_handler: None,
            rsrc2_or: 0,
            rsrc3: 0,
            check: check_from_env(),
            data_align: 256,
        }
    }
}

/// [`try_run_wave`] in an environment: also returns the data buffer's final contents.
pub fn try_run_wave_env(
    body: &str,
    inputs: &[[u32; 4]],
    wave64: bool,
    env: &WaveEnv,
) -> Result<(WaveOut, Vec<u32>), Arc<Report>> {
    let lanes = if wave64 { 64 } else { 32 };
    assert!(inputs.len() <= lanes, "{} inputs for a wave of {lanes}", inputs.len());
    let (full_exec, save_vcc, save_exec) = if wave64 {
        ("s_mov_b64 exec, -1", "s_mov_b64 s[94:95], vcc", "s_mov_b64 s[96:97], exec")
    } else {
        (
            "s_mov_b32 exec_lo, -1",
            "s_mov_b32 s94, vcc_lo\n s_mov_b32 s95, 0",
            "s_mov_b32 s96, exec_lo\n s_mov_b32 s97, 0",
        )
    };
    let zero_s: String = (10..26).step_by(2).map(|i| format!(" s_mov_b64 s[{i}:{}], 0\n", i + 1)).collect();
    let zero_v: String = (4..12).map(|i| format!(" v_mov_b32 v{i}, 0\n")).collect();
    let scalars: String = (0..16).map(|k| format!(" v_mov_b32 v{}, s{}\n", 224 + k, 10 + k)).collect();
    let src = format!(
        "
 s_mov_b64 s[90:91], s[0:1]
 s_mov_b64 s[92:93], s[2:3]
 v_and_b32 v250, 0x3ff, v0
 v_lshlrev_b32 v251, 4, v250
 global_load_b128 v[0:3], v251, s[90:91]
 v_lshlrev_b32 v251, 5, v250
{zero_v}{zero_s} s_mov_b64 vcc, 0
 s_waitcnt vmcnt(0)
{body}
 {save_vcc}
 {save_exec}
 s_cselect_b32 s98, 1, 0
 {full_exec}
 global_store_b128 v251, v[4:7], s[92:93]
 global_store_b128 v251, v[8:11], s[92:93] offset:16
{scalars} v_mov_b32 v240, s94
 v_mov_b32 v241, s95
 v_mov_b32 v242, s96
 v_mov_b32 v243, s97
 v_mov_b32 v244, s98
 v_mov_b32 v252, {base}
 global_store_b128 v252, v[224:227], s[92:93]
 global_store_b128 v252, v[228:231], s[92:93] offset:16
 global_store_b128 v252, v[232:235], s[92:93] offset:32
 global_store_b128 v252, v[236:239], s[92:93] offset:48
 global_store_b128 v252, v[240:243], s[92:93] offset:64
 global_store_b32 v252, v244, s[92:93] offset:80
 s_endpgm
",
        base = lanes * 32
    );
    let mut gpu = Gpu::with_config(Config {
        threads: 2,
        hang_timeout: Duration::from_secs(5),
        memory_size: 256 << 20,
        vmid: env.vmid,
        check: env.check,
        ..Config::default()
    });
    let code = gpu.kernel_for(&src, wave64);
    let mut input = vec![0u32; lanes * 4];
    for (l, i) in inputs.iter().enumerate() {
        input[4 * l..4 * l + 4].copy_from_slice(i);
    }
    let inb = gpu.buffer(&input);
    let out = gpu.alloc((lanes * 32 + 96) as u64);
    write_words(&out, 0, &vec![0xdead_beef; lanes * 8 + 24]);
    let data = gpu.dev.alloc(4 * env.mem.len().max(1) as u64, env.data_align).unwrap();
    write_words(&data, 0, &env.mem);
    let mut user = addr(inb.va()).to_vec();
    user.extend(addr(out.va()));
    user.extend(addr(data.va()));
    user.push(4 * env.mem.len() as u32);
    let mut d = Dispatch::new(&code, &user, [false; 3], [lanes as u32, 1, 1]).lds(env.lds);
    d.rsrc1 = env.rsrc1;
    d.rsrc2 |= env.rsrc2_or;
    d.rsrc3 = env.rsrc3;
    let _handler = env.trap_handler.as_ref().map(|h| {
        let bo = gpu.kernel_for(h, wave64);
        gpu.dev.set_trap_handler(bo.va(), data.va()).unwrap();
        d.rsrc2 |= 1 << 6; // TRAP_PRESENT
        bo
    });
    let mut ib = Vec::new();
    let mut b = Builder(&mut ib);
    let _scratch = (env.scratch_per_lane > 0).then(|| {
        d.rsrc2 |= 1; // SCRATCH_EN
        let slots = gpu.dev.info().scratch_wave_slots;
        let wavesize = (env.scratch_per_lane * lanes as u32).div_ceil(256);
        let bo = gpu.alloc(slots as u64 * wavesize as u64 * 256);
        b.set_sh_reg(reg::COMPUTE_TMPRING_SIZE, slots | wavesize << 12);
        b.set_sh_regs(reg::COMPUTE_DISPATCH_SCRATCH_BASE_LO, &[(bo.va() >> 8) as u32, (bo.va() >> 40) as u32]);
        bo
    });
    d.emit(&mut b, [1, 1, 1], if wave64 { W64 } else { W32 });
    gpu.run(&ib)?;
    let words = read_words(&out, 0, lanes * 8 + 24);
    let mem = read_words(&data, 0, env.mem.len());
    let v = (0..lanes).map(|l| std::array::from_fn(|k| words[8 * l + k])).collect();
    let sc = &words[lanes * 8..];
    let out = WaveOut {
        v,
        s: std::array::from_fn(|k| sc[k]),
        vcc: sc[16] as u64 | (sc[17] as u64) << 32,
        exec: sc[18] as u64 | (sc[19] as u64) << 32,
        scc: sc[20] != 0,
    };
    Ok((out, mem))
}

/// [`try_run_wave_env`], panicking with the device-lost report if the wave faulted.
pub fn run_wave_env(body: &str, inputs: &[[u32; 4]], wave64: bool, env: &WaveEnv) -> (WaveOut, Vec<u32>) {
    try_run_wave_env(body, inputs, wave64, env).unwrap_or_else(|r| panic!("the wave faulted:\n{r}\nbody:\n{body}"))
}

/// [`try_run_wave`], panicking with the device-lost report if the wave faulted.
pub fn run_wave(body: &str, inputs: &[[u32; 4]], wave64: bool) -> WaveOut {
    try_run_wave(body, inputs, wave64).unwrap_or_else(|r| panic!("the wave faulted:\n{r}\nbody:\n{body}"))
}

/// The reference: memory value after `op(mem, data, cmp)`.
pub fn atomic_ref32(op: &str, t: u32, v: u32, cmp: u32) -> u32 {
    let (ft, fv) = (f32::from_bits(t), f32::from_bits(v));
    match op {
        "swap_b32" => v,
        "cmpswap_b32" => {
            if t == cmp {
                v
            } else {
                t
            }
        }
        "add_u32" => t.wrapping_add(v),
        "sub_u32" => t.wrapping_sub(v),
        "csub_u32" => t.saturating_sub(v),
        "min_i32" => {
            if (t as i32) < (v as i32) {
                t
            } else {
                v
            }
        }
        "max_i32" => {
            if (t as i32) > (v as i32) {
                t
            } else {
                v
            }
        }
        "min_u32" => t.min(v),
        "max_u32" => t.max(v),
        "and_b32" => t & v,
        "or_b32" => t | v,
        "xor_b32" => t ^ v,
        "inc_u32" => {
            if t >= v {
                0
            } else {
                t + 1
            }
        }
        "dec_u32" => {
            if t == 0 || t > v {
                v
            } else {
                t - 1
            }
        }
        "cmpswap_f32" => {
            if ft == f32::from_bits(cmp) {
                v
            } else {
                t
            }
        }
        // minNum / maxNum: a NaN operand yields the other one.
        "min_f32" => {
            if ft.is_nan() {
                v
            } else if fv.is_nan() || ft <= fv {
                t
            } else {
                v
            }
        }
        "max_f32" => {
            if ft.is_nan() {
                v
            } else if fv.is_nan() || ft >= fv {
                t
            } else {
                v
            }
        }
        // A NaN input propagates quieted, memory's (src0) first.
        "add_f32" if ft.is_nan() => t | 0x0040_0000,
        "add_f32" if fv.is_nan() => v | 0x0040_0000,
        "add_f32" => (ft + fv).to_bits(),
        _ => panic!("no reference for {op}"),
    }
}

pub fn atomic_ref64(op: &str, t: u64, v: u64, cmp: u64) -> u64 {
    match op {
        "swap_b64" => v,
        "cmpswap_b64" => {
            if t == cmp {
                v
            } else {
                t
            }
        }
        "add_u64" => t.wrapping_add(v),
        "sub_u64" => t.wrapping_sub(v),
        "min_i64" => {
            if (t as i64) < (v as i64) {
                t
            } else {
                v
            }
        }
        "max_i64" => {
            if (t as i64) > (v as i64) {
                t
            } else {
                v
            }
        }
        "min_u64" => t.min(v),
        "max_u64" => t.max(v),
        "and_b64" => t & v,
        "or_b64" => t | v,
        "xor_b64" => t ^ v,
        "inc_u64" => {
            if t >= v {
                0
            } else {
                t + 1
            }
        }
        "dec_u64" => {
            if t == 0 || t > v {
                v
            } else {
                t - 1
            }
        }
        _ => panic!("no reference for {op}"),
    }
}

/// A small deterministic generator (xorshift) for test data.
pub struct Rng(pub u64);

impl Rng {
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 16) as u32
    }
}

/// The global / flat atomic operations (the part after `_atomic_`) of 32 and 64 bits.
pub const ATOMIC_OPS32: [&str; 18] = [
    "swap_b32",
    "cmpswap_b32",
    "add_u32",
    "sub_u32",
    "csub_u32",
    "min_i32",
    "max_i32",
    "min_u32",
    "max_u32",
    "and_b32",
    "or_b32",
    "xor_b32",
    "inc_u32",
    "dec_u32",
    "cmpswap_f32",
    "min_f32",
    "max_f32",
    "add_f32",
];
pub const ATOMIC_OPS64: [&str; 13] = [
    "swap_b64",
    "cmpswap_b64",
    "add_u64",
    "sub_u64",
    "min_i64",
    "max_i64",
    "min_u64",
    "max_u64",
    "and_b64",
    "or_b64",
    "xor_b64",
    "inc_u64",
    "dec_u64",
];

// ---- Images (exec_image.rs, exec_sample.rs) ----

/// Where the image starts in the data buffer (a multiple of 256, as T# bases are).
pub const IMG_OFF: u32 = 256;

/// Assembly that puts `t` (its base relative to the data buffer) in s[12:19].
pub fn tsharp(t: &gpu::rsrc::ImageResource) -> String {
    let w = t.encode();
    let mut s = format!(
        "s_add_u32 s12, s4, {:#x}
         s_addc_u32 s13, s5, 0
         s_lshr_b64 s[12:13], s[12:13], 8
         s_and_b32 s13, s13, 0xff
         s_or_b32 s13, s13, {:#x}
        ",
        t.base,
        w[1] & !0xff
    );
    for (k, word) in w.iter().enumerate().skip(2) {
        s.push_str(&format!(" s_mov_b32 s{}, {word:#x}\n", 12 + k));
    }
    s
}

/// The CPU model of the gfx11 linear layout: the byte offset of texel (x, y) of `slice`
/// at `level`, for a resource of level-0 size `w` x `h`, `levels` levels and `bpe`-byte
/// texels.
#[allow(clippy::too_many_arguments)] // the image's shape, then the texel
pub fn model_offset(w: u32, h: u32, levels: u32, bpe: u32, x: u32, y: u32, slice: u32, level: u32) -> usize {
    let pitch = |m: u32| ((w >> m).max(1)).next_multiple_of(256 / bpe) * bpe;
    let size = |m: u32| pitch(m) * (h >> m).max(1);
    let slice_size: u32 = (0..levels).map(size).sum();
    let level_off: u32 = (level + 1..levels).map(size).sum();
    (slice * slice_size + level_off + y * pitch(level) + x * bpe) as usize
}
