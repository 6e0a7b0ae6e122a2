//! Faults, hangs and bad input (ARCHITECTURE.md, "Faults, hangs and bad input"): whatever a
//! shader or a PM4 stream does, the device becomes lost with a readable report, waiters
//! and later submissions get an error, the host process goes on, and a new device works.

mod common;

use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{addr, check_tid3_dispatch, read_words, Dispatch, Gpu, W32};
use gpu::jit::JitMode;
use gpu::pm4::{header, Builder};
use gpu::{Config, Ib, Report, ReportKind, Status, SubmitError};

/// Submits `ib`, expects the device to be lost, and checks what every winsys entry point
/// says afterwards: `wait` gives the report, `status` is `Lost` with the same report, and
/// a new submission is refused.
fn expect_lost(gpu: &mut Gpu, ib: &[u32]) -> Arc<Report> {
    let ib = gpu.ib(ib);
    expect_lost_ib(gpu, ib)
}

fn expect_lost_ib(gpu: &mut Gpu, ib: Ib) -> Arc<Report> {
    let seq = gpu.queue.submit(&[ib]).expect("the device is healthy before");
    let report = match gpu.queue.wait(seq, Duration::from_secs(30)) {
        Err(r) => r,
        Ok(signalled) => {
            panic!("expected a lost device, the fence {}", if signalled { "signalled" } else { "timed out" })
        }
    };
    eprintln!("{report}");
    match gpu.dev.status() {
        Status::Lost(r) => assert!(Arc::ptr_eq(&r, &report)),
        Status::Healthy => panic!("status is healthy after a lost submission"),
    }
    assert!(gpu.queue.completed() < seq, "the fence of the lost submission never signals");
    // Later work is refused; waiting on it fails at once.
    assert_eq!(gpu.queue.submit(&[ib]), Err(SubmitError::Lost(report.summary.clone())));
    assert!(gpu.queue.wait(seq + 1, Duration::from_secs(5)).is_err());
    assert_eq!(report.to_string().lines().next().unwrap(), format!("softnavi: GPU device lost: {}", report.summary));
    report
}

/// A new device after a lost one runs a correct dispatch (the old one is dropped first,
/// which must not hang either).
fn new_device_works(old: Gpu) {
    drop(old);
    check_tid3_dispatch(&mut Gpu::new(), W32);
}

/// A kernel that stores to `s[0:1] + v1` after setting up two VGPRs (8 bytes of code).
const STORE_KERNEL: &str = "
    v_mov_b32 v1, 0
    v_mov_b32 v2, 42
    global_store_b32 v1, v2, s[0:1]
    s_endpgm
";

/// A `global_store_b32` to the unmapped address 0x1000: a VM fault whose report names the
/// kind, the address, the access, the PC, the faulting instruction in LLVM syntax and where
/// in the dispatch the wave was.
#[test]
fn vm_fault_on_global_store_to_unmapped_address() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(STORE_KERNEL);
    let pc = code.va() + 8;
    let r = expect_lost(
        &mut gpu,
        &Dispatch::new(&code, &addr(0x1000), [true, false, false], [64, 1, 1]).ib([2, 1, 1], W32),
    );
    assert_eq!(r.kind, ReportKind::VmFault);
    assert!(r.summary.contains("VM fault: write of 4 bytes at 0x1000"), "{}", r.summary);
    assert!(r.summary.contains(&format!("PC {pc:#x}")), "{}", r.summary);
    assert!(r.summary.contains("dispatch #0 workgroup"), "{}", r.summary);
    assert!(r.details.contains(&format!("pc: {pc:#x}")), "{}", r.details);
    assert!(r.details.contains("instruction: global_store_b32 v1, v2, s[0:1]"), "{}", r.details);
    assert!(r.details.contains("DC6A0000 00000201"), "the instruction's words: {}", r.details);
    assert!(r.details.contains("s0=00001000 s1=00000000"), "the wave's registers: {}", r.details);
    assert!(r.details.contains("DISPATCH_DIRECT"), "the packet: {}", r.details);
    new_device_works(gpu);
}

/// A load from a buffer object that was freed: its range is unmapped, so the read faults.
/// (The IB is allocated before the free, since a later allocation may reuse the range.)
#[test]
fn vm_fault_on_load_from_freed_buffer() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel(
        "
        v_mov_b32 v1, 0
        global_load_b32 v2, v1, s[0:1] offset:16
        s_waitcnt vmcnt(0)
        s_endpgm
        ",
    );
    let bo = gpu.alloc(4096);
    let va = bo.va();
    let ib = gpu.ib(&Dispatch::new(&code, &addr(va), [false; 3], [32, 1, 1]).ib([1, 1, 1], W32));
    gpu.dev.free(&bo);
    let r = expect_lost_ib(&mut gpu, ib);
    assert_eq!(r.kind, ReportKind::VmFault);
    assert!(r.summary.contains(&format!("read of 4 bytes at {:#x}", va + 16)), "{}", r.summary);
    assert!(r.details.contains("global_load_b32 v2, v1, s[0:1] offset:16"), "{}", r.details);
    new_device_works(gpu);
}

/// An endless loop (`s_branch` to itself) with a 300 ms hang timeout: a GPU hang, reported
/// after the timeout with every live wave, its PC and instruction.
#[test]
fn hang_of_an_endless_loop_lists_live_waves() {
    let timeout = Duration::from_millis(300);
    let mut gpu = Gpu::with_timeout(timeout);
    let code = gpu.kernel(
        "
        v_mov_b32 v1, 7
    spin:
        s_branch spin
        s_endpgm
        ",
    );
    let pc = code.va() + 4;
    let start = Instant::now();
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &addr(0), [true, false, false], [64, 1, 1]).ib([4, 1, 1], W32));
    assert!(start.elapsed() >= timeout, "reported after {:?}", start.elapsed());
    assert_eq!(r.kind, ReportKind::Hang);
    assert!(r.summary.contains("did not finish within 300 ms"), "{}", r.summary);
    assert!(r.details.contains("live waves ("), "{}", r.details);
    assert!(!r.details.contains("live waves (0)"), "{}", r.details);
    assert!(r.details.contains(&format!("pc={pc:#x}: s_branch")), "{}", r.details);
    assert!(r.details.contains("queue 0 dispatch #0 workgroup ("), "{}", r.details);
    assert!(r.details.contains("v1: 00000007"), "the wave state: {}", r.details);
    new_device_works(gpu);
}

/// A loop made only of instructions the interpreter runs on its fast path (VALU and a
/// conditional branch: a spin such as `while (i != 0) i = i * k | 1`) is a hang too: the
/// abort check counts them like every other instruction (it did not, and such a loop ran
/// past any timeout). Run by the interpreter: the translated code checks at back edges.
#[test]
fn hang_of_a_loop_of_fast_path_instructions() {
    let timeout = Duration::from_millis(300);
    let mut gpu = Gpu::with_config(Config {
        threads: 2,
        hang_timeout: timeout,
        memory_size: 256 << 20,
        jit: JitMode::Off,
        ..Config::default()
    });
    let code = gpu.kernel(
        "
        v_mov_b32 v1, 1
    spin:
        v_or_b32 v1, 1, v1
        v_cmp_ne_u32 vcc_lo, 0, v1
        s_cbranch_vccnz spin
        s_endpgm
        ",
    );
    let start = Instant::now();
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &addr(0), [false; 3], [32, 1, 1]).ib([1, 1, 1], W32));
    assert!(start.elapsed() < Duration::from_secs(20), "reported after {:?}", start.elapsed());
    assert_eq!(r.kind, ReportKind::Hang);
    assert!(r.summary.contains("did not finish within 300 ms"), "{}", r.summary);
    assert!(r.details.contains("live waves ("), "{}", r.details);
    new_device_works(gpu);
}

/// A WAIT_REG_MEM that is never satisfied is a hang of the CP, reported with the packet.
#[test]
fn hang_of_a_wait_reg_mem_that_never_completes() {
    let mut gpu = Gpu::with_timeout(Duration::from_millis(200));
    let flag = gpu.alloc(64);
    let mut ib = Vec::new();
    Builder(&mut ib).wait_mem(flag.va(), 3, 1, 0xffff_ffff);
    let r = expect_lost(&mut gpu, &ib);
    assert_eq!(r.kind, ReportKind::Hang);
    assert!(r.summary.contains(&format!("WAIT_REG_MEM on memory {:#x}", flag.va())), "{}", r.summary);
    assert!(r.details.contains("WAIT_REG_MEM (6 dw)"), "{}", r.details);
    new_device_works(gpu);
}

/// Running past the end of a shader into its `s_code_end` padding raises the illegal
/// instruction exception (no trap handler: a fault report at the padding's PC).
#[test]
fn illegal_instruction_s_code_end_executed() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel("v_mov_b32 v1, 0\n"); // no s_endpgm
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &[], [false; 3], [32, 1, 1]).ib([1, 1, 1], W32));
    assert_eq!(r.kind, ReportKind::IllegalInstruction);
    assert!(r.summary.contains("s_code_end executed"), "{}", r.summary);
    assert!(r.summary.contains(&format!("PC {:#x}", code.va() + 4)), "{}", r.summary);
    assert!(r.details.contains("instruction: s_code_end"), "{}", r.details);
    new_device_works(gpu);
}

/// An instruction of an encoding softnavi does not execute (MIMG `image_load`) is an illegal
/// instruction when it is reached, not when the program is decoded: the same words after
/// `s_endpgm` are harmless.
#[test]
fn illegal_instruction_unsupported_encoding() {
    let mut gpu = Gpu::new();
    let image_load = "image_load_pck v[0:3], v0, s[0:7] dmask:0xf dim:SQ_RSRC_IMG_1D\n";
    let harmless = gpu.kernel(&format!("s_endpgm\n{image_load}"));
    gpu.run(&Dispatch::new(&harmless, &[], [false; 3], [32, 1, 1]).ib([1, 1, 1], W32))
        .unwrap_or_else(|r| panic!("undecodable words after s_endpgm must not fault: {r}"));

    let code = gpu.kernel(&format!("v_mov_b32 v1, 0\n{image_load}s_endpgm\n"));
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &[], [false; 3], [64, 1, 1]).ib([1, 1, 1], W32));
    assert_eq!(r.kind, ReportKind::IllegalInstruction);
    assert!(r.summary.contains("image_load_pck is decoded but not executed"), "{}", r.summary);
    assert!(r.summary.contains(&format!("PC {:#x}", code.va() + 4)), "{}", r.summary);
    assert!(r.details.contains("F0080F00 00000000"), "the words: {}", r.details);
    new_device_works(gpu);
}

/// `v_illegal` (the all-zero dword, as LLVM 19 decodes it) raises the illegal-instruction
/// exception where it stands.
#[test]
fn illegal_instruction_v_illegal() {
    let mut gpu = Gpu::new();
    let code = gpu.kernel("v_mov_b32 v1, 0\nv_illegal\ns_endpgm\n");
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &[], [false; 3], [32, 1, 1]).ib([1, 1, 1], W32));
    assert_eq!(r.kind, ReportKind::IllegalInstruction);
    assert!(r.summary.contains("v_illegal executed"), "{}", r.summary);
    assert!(r.summary.contains(&format!("PC {:#x}", code.va() + 4)), "{}", r.summary);
    new_device_works(gpu);
}

/// A VOPC in VOP3 whose SGPR destination field holds a constant (LLVM prints
/// `0/*Invalid immediate*/`) is decoded, and traps by name when reached.
#[test]
fn illegal_instruction_constant_scalar_destination() {
    let mut gpu = Gpu::new();
    // v_cmp_lt_f32_e64 0, v0, s0 (sdst field 128).
    let code = gpu.kernel(".long 0xd4110080, 0x00000100\ns_endpgm\n");
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &[], [false; 3], [32, 1, 1]).ib([1, 1, 1], W32));
    assert_eq!(r.kind, ReportKind::IllegalInstruction);
    assert!(r.summary.contains("constant or special source as its scalar destination"), "{}", r.summary);
    assert!(r.details.contains("0/*Invalid immediate*/"), "{}", r.details);
    new_device_works(gpu);
}

/// A packet with an opcode the CP does not know (0xEE) stops the CP: a CP error whose
/// details hold the decoded packet and its words.
#[test]
fn cp_error_on_unknown_packet_opcode() {
    let mut gpu = Gpu::new();
    let mut ib = Vec::new();
    Builder(&mut ib).nop(3);
    ib.extend([header(0xee, 2, false), 0x1234, 0x5678]);
    let r = expect_lost(&mut gpu, &ib);
    assert_eq!(r.kind, ReportKind::CpError);
    assert!(r.summary.contains("opcode 0xee is not supported"), "{}", r.summary);
    assert!(r.details.contains("OPCODE_0xee (2 dw)"), "{}", r.details);
    assert!(r.details.contains("words: c001ee00 00001234 00005678"), "{}", r.details);
    assert!(r.details.contains("+ dword 3"), "where the packet is: {}", r.details);
    new_device_works(gpu);
}

/// A packet whose count runs past the end of its indirect buffer (a WRITE_DATA of 6 payload
/// dwords in a 3-dword IB): a CP error naming the packet, not a read of whatever follows.
#[test]
fn cp_error_on_packet_running_past_its_ib() {
    let mut gpu = Gpu::new();
    let mem = gpu.alloc(64);
    let mut ib = Vec::new();
    Builder(&mut ib).write_data(mem.va(), &[1, 2, 3]);
    ib.truncate(3);
    let r = expect_lost(&mut gpu, &ib);
    assert_eq!(r.kind, ReportKind::CpError);
    assert!(r.summary.contains("runs past the end of its 3-dword indirect buffer"), "{}", r.summary);
    assert!(r.details.contains("WRITE_DATA (6 dw)"), "{}", r.details);
    assert_eq!(read_words(&mem, 0, 3), [0, 0, 0]);
    new_device_works(gpu);
}

/// Other malformed streams: an IB at an unmapped address (a CP VM fault while fetching),
/// IBs nested deeper than IB2, and a dispatch the hardware cannot launch (no
/// COMPUTE_SHADER_EN). Each on a new device.
#[test]
fn cp_errors_on_bad_ibs_and_dispatches() {
    let mut gpu = Gpu::new();
    let mut ib = Vec::new();
    Builder(&mut ib).indirect_buffer(0x1000, 16, false);
    let r = expect_lost(&mut gpu, &ib);
    assert_eq!(r.kind, ReportKind::VmFault);
    assert!(r.summary.contains("fetching an indirect buffer: read of 64 bytes at 0x1000"), "{}", r.summary);
    assert!(r.details.contains("INDIRECT_BUFFER (3 dw) va=0x1000 size=16dw VALID"), "{}", r.details);
    drop(gpu);

    let mut gpu = Gpu::new();
    let mut ib3 = Vec::new();
    Builder(&mut ib3).nop(2);
    let ib3 = gpu.ib(&ib3);
    let mut ib2 = Vec::new();
    Builder(&mut ib2).indirect_buffer(ib3.va, ib3.dwords, false);
    let ib2 = gpu.ib(&ib2);
    let mut ib = Vec::new();
    Builder(&mut ib).indirect_buffer(ib2.va, ib2.dwords, false);
    let r = expect_lost(&mut gpu, &ib);
    assert_eq!(r.kind, ReportKind::CpError);
    assert!(r.summary.contains("nested deeper than IB2"), "{}", r.summary);
    drop(gpu);

    let mut gpu = Gpu::new();
    let code = gpu.kernel(STORE_KERNEL);
    let out = gpu.alloc(4096);
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &addr(out.va()), [false; 3], [64, 1, 1]).ib([1, 1, 1], 0));
    assert_eq!(r.kind, ReportKind::CpError);
    assert!(r.summary.contains("COMPUTE_SHADER_EN is not set"), "{}", r.summary);
    assert_eq!(read_words(&out, 0, 1), [0], "nothing ran");
    new_device_works(gpu);
}

/// DMA_DATA fills that cannot be executed: a destination that is not 4-byte aligned (a CP
/// error), and a byte count running past the end of the BO (a CP VM fault on the first
/// byte outside it; nothing is written, not even the part inside the BO).
#[test]
fn dma_fill_misaligned_and_oversized() {
    let mut gpu = Gpu::new();
    let bo = gpu.alloc(4096);
    let mut ib = Vec::new();
    Builder(&mut ib).dma_fill(bo.va() + 2, 0x1111_1111, 64);
    let r = expect_lost(&mut gpu, &ib);
    assert_eq!(r.kind, ReportKind::CpError);
    assert!(r.summary.contains("must be multiples of 4"), "{}", r.summary);
    assert!(
        r.details.contains(&format!("DMA_DATA (6 dw) fill value=0x11111111 dst={:#x} bytes=64", bo.va() + 2)),
        "{}",
        r.details
    );
    assert_eq!(read_words(&bo, 0, 32), vec![0; 32]);
    drop(gpu);

    let mut gpu = Gpu::new();
    let bo = gpu.alloc(4096);
    let mut ib = Vec::new();
    Builder(&mut ib).dma_fill(bo.va() + 4000, 0x2222_2222, 4096);
    let r = expect_lost(&mut gpu, &ib);
    assert!(matches!(r.kind, ReportKind::VmFault | ReportKind::CpError), "{r}");
    // The first byte past the BO (the range is checked whole: nothing was written).
    assert!(r.summary.contains(&format!("{:#x}", bo.va() + 4096)), "{}", r.summary);
    assert!(r.summary.contains("DMA_DATA fill"), "{}", r.summary);
    assert!(r.details.contains("DMA_DATA (6 dw) fill"), "{}", r.details);
    assert_eq!(read_words(&bo, 4000, 24), vec![0; 24]);
    new_device_works(gpu);
}

/// Once lost, a device refuses every submission with the report's summary, also from a
/// second queue created before the loss; faults in one device leave another one alone.
#[test]
fn submit_after_lost_is_refused_and_other_devices_are_unaffected() {
    let mut healthy = Gpu::new();
    let mut gpu = Gpu::new();
    let other_queue = gpu.dev.create_queue().unwrap();
    let code = gpu.kernel(STORE_KERNEL);
    let r = expect_lost(&mut gpu, &Dispatch::new(&code, &addr(0x1000), [false; 3], [32, 1, 1]).ib([1, 1, 1], W32));
    let ib = gpu.ib(&[gpu::pm4::NOP_1DW]);
    for q in [&gpu.queue, &other_queue] {
        match q.submit(&[ib]) {
            Err(SubmitError::Lost(s)) => assert_eq!(s, r.summary),
            other => panic!("submit after lost: {other:?}"),
        }
    }
    assert!(matches!(healthy.dev.status(), Status::Healthy));
    check_tid3_dispatch(&mut healthy, W32);
    drop(other_queue);
    new_device_works(gpu);
}

/// A lost device recovers as a kernel's GPU reset recovers one: the faulting submission
/// and the work queued behind it on another queue are dropped (their stores never land),
/// every fence submitted so far signals, and both queues run new work; memory stays. A
/// healthy device has nothing to recover from.
#[test]
fn a_lost_device_recovers_and_runs_new_work() {
    let mut gpu = Gpu::new();
    assert!(gpu.dev.recover(Duration::from_secs(1)).is_none(), "healthy: nothing to recover");
    let other = gpu.dev.create_queue().unwrap();
    let code = gpu.kernel(STORE_KERNEL);
    let kept = gpu.alloc(4096);
    common::write_words(&kept, 0, &[7]);
    // Queued behind the fault on the same queue: a store that must not land.
    let behind = gpu.alloc(4096);
    let store = Dispatch::new(&code, &addr(behind.va()), [false; 3], [32, 1, 1]).ib([1, 1, 1], W32);
    let store = gpu.ib(&store);
    let bad = gpu.ib(&Dispatch::new(&code, &addr(0x1000), [false; 3], [32, 1, 1]).ib([1, 1, 1], W32));
    let s2 = gpu.queue.submit(&[bad, store]).unwrap();
    let r = match gpu.queue.wait(s2, Duration::from_secs(30)) {
        Err(r) => r,
        Ok(_) => panic!("the fault did not lose the device"),
    };
    let got = gpu.dev.recover(Duration::from_secs(10)).expect("recovered");
    assert!(Arc::ptr_eq(&got, &r));
    assert!(matches!(gpu.dev.status(), Status::Healthy));
    assert!(gpu.queue.completed() >= s2, "every fence submitted before the reset signals");
    assert_eq!(gpu.queue.wait(s2, Duration::from_secs(1)), Ok(true));
    assert_eq!(read_words(&behind, 0, 1), [0], "the work behind the fault was dropped");
    assert_eq!(read_words(&kept, 0, 1), [7], "memory stays");
    check_tid3_dispatch(&mut gpu, W32);
    let seq = other.submit(&[store]).unwrap();
    assert_eq!(other.wait(seq, Duration::from_secs(30)), Ok(true));
    assert_eq!(read_words(&behind, 0, 1), [42], "the other queue runs new work");
}

/// Destroying a queue (and its device) while a shader spins forever returns promptly: the
/// CP and the workers are stopped instead of waiting for the (long) hang timeout.
#[test]
fn dropping_a_device_with_a_runaway_shader_does_not_wait_for_the_timeout() {
    let mut gpu = Gpu::with_timeout(Duration::from_secs(60));
    let code = gpu.kernel("spin:\n s_branch spin\n");
    let ib = gpu.ib(&Dispatch::new(&code, &[], [false; 3], [64, 1, 1]).ib([4, 1, 1], W32));
    let seq = gpu.queue.submit(&[ib]).unwrap();
    assert_eq!(gpu.queue.wait(seq, Duration::from_millis(100)), Ok(false), "still running");
    let start = Instant::now();
    drop(gpu);
    assert!(start.elapsed() < Duration::from_secs(5), "drop took {:?}", start.elapsed());
    check_tid3_dispatch(&mut Gpu::new(), W32);
}
