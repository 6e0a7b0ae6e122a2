//! The `pm4` target: fuzzed dwords as an indirect buffer on a fresh GPU model, through the
//! winsys as a kernel driver submits it (ring INDIRECT_BUFFER, then the fence's
//! RELEASE_MEM). The GPU memory holds, at addresses that are the same in every run, a
//! small kernel, two data buffers and the IB itself (which a dispatch may also run as
//! code), so mutated packets reach dispatches, memory packets and nested or chained IBs.

use std::sync::Arc;
use std::time::Duration;

use gpu::mem::Bo;
use gpu::pm4::{self, initiator, reg, Builder};
use gpu::{Config, Device, Ib};

/// `out[tgid * 64 + tid] = tid * 3 + tgid` (address in s[0:1], workgroup id in s2), as
/// gpu/tests/common's TID3_KERNEL, assembled by llvm-mc-19 for gfx1100:
/// v_and_b32 v1, 0x3ff, v0; v_mad_u32_u24 v2, v1, 3, s2; s_lshl_b32 s3, s2, 6;
/// v_add_nc_u32 v3, s3, v1; v_lshlrev_b32 v3, 2, v3; global_store_b32 v3, v2, s[0:1];
/// s_endpgm.
const KERNEL: [u32; 10] = [
    0x3602_00ff,
    0x0000_03ff,
    0xd60b_0002,
    0x0009_0701,
    0x8403_8602,
    0x4a06_0203,
    0x3006_0682,
    0xdc6a_0000,
    0x0000_0203,
    0xbfb0_0000,
];
/// `s_code_end`, the padding after a shader.
const S_CODE_END: u32 = 0xbf9f_0000;
/// Bytes of each data buffer.
const DATA_BYTES: u64 = 64 << 10;
/// How long the harness waits for the fence: the device's hang timeout ends any
/// dispatch or CP wait long before, so running out is a hang of the model itself.
const FENCE_WAIT: Duration = Duration::from_secs(30);

/// A fresh device (no state carried over between inputs) with its buffers.
pub struct Setup {
    pub dev: Device,
    pub code: Arc<Bo>,
    pub data: [Arc<Bo>; 2],
}

impl Setup {
    pub fn fresh() -> Setup {
        let config = Config {
            threads: 2,
            hang_timeout: Duration::from_millis(500),
            memory_size: 64 << 20,
            jit: gpu::jit::JitMode::Off,
            ..Config::default()
        };
        let dev = Device::new(config).expect("the GPU model's threads start"); // ok: harness set-up
        let mut code = KERNEL.to_vec();
        code.extend([S_CODE_END; 64]);
        let code_bo = dev.alloc(4 * code.len() as u64, 256).expect("room for the kernel"); // ok: set-up
        write(&code_bo, &code);
        let data = [0, 1].map(|_| dev.alloc(DATA_BYTES, 256).expect("room for data")); // ok: set-up
        Setup { dev, code: code_bo, data }
    }

    /// Runs `words` as one indirect buffer. Returns whether the fence signalled (false: the
    /// device was lost, with a report); panics if the model neither finishes nor reports.
    pub fn run(&self, words: &[u32]) -> bool {
        let ib = self.dev.alloc(4 * words.len().max(1) as u64, 256).expect("room for the IB"); // ok: set-up
        write(&ib, words);
        let queue = self.dev.create_queue().expect("a queue"); // ok: set-up
        let Ok(seq) = queue.submit(&[Ib { va: ib.va(), dwords: words.len() as u32 }]) else { return false };
        match queue.wait(seq, FENCE_WAIT) {
            Ok(done) => {
                assert!(done, "the IB neither completed nor lost the device in {FENCE_WAIT:?}"); // ok: the finding
                true
            }
            Err(_) => false,
        }
    }

    /// Seed IBs: the packets a driver emits, at this set-up's addresses.
    pub fn seeds(&self) -> Vec<(&'static str, Vec<u32>)> {
        let (code, out, aux) = (self.code.va(), self.data[0].va(), self.data[1].va());
        let dispatch = |b: &mut Builder<Vec<u32>>, groups: [u32; 3], init: u32| {
            b.set_sh_regs(reg::COMPUTE_PGM_LO, &[(code >> 8) as u32, (code >> 40) as u32]);
            b.set_sh_regs(reg::COMPUTE_PGM_RSRC1, &[0x60af_0004, 2 << 1 | 1 << 7]);
            b.set_sh_reg(reg::COMPUTE_PGM_RSRC3, 0);
            b.set_sh_regs(reg::COMPUTE_USER_DATA_0, &[out as u32, (out >> 32) as u32]);
            b.set_sh_regs(reg::COMPUTE_NUM_THREAD_X, &[64, 1, 1]);
            b.dispatch_direct(groups, init);
        };
        let w32 = initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000 | initiator::CS_W32_EN;
        let w64 = initiator::COMPUTE_SHADER_EN | initiator::FORCE_START_AT_000;
        let mut seeds: Vec<(&'static str, Vec<u32>)> = Vec::new();
        let mut add = |name, f: &dyn Fn(&mut Builder<Vec<u32>>)| {
            let mut v = Vec::new();
            f(&mut Builder(&mut v));
            seeds.push((name, v));
        };
        add("dispatch-w32", &|b| dispatch(b, [4, 1, 1], w32));
        add("dispatch-w64", &|b| dispatch(b, [2, 1, 1], w64));
        add("dispatch-indirect", &|b| {
            b.write_data(aux, &[3, 1, 1]);
            dispatch(b, [0, 0, 0], w32);
            b.dispatch_indirect(aux, w32);
        });
        add("memory", &|b| {
            b.write_data(aux, &[1, 2, 3, 4]);
            b.dma_copy(out, aux, 16);
            b.dma_fill(out + 256, 0xdead_beef, 64);
            b.copy_data(pm4::sel::SRC_MEM, aux, out + 512, true);
            b.atomic_mem(0x20, 0, aux + 64, 5, 0);
            b.wait_mem(aux, 3, 1, 0xffff_ffff);
            b.cond_exec(aux, 2);
            b.nop(1);
        });
        add("events", &|b| {
            b.event_write(pm4::event::CS_PARTIAL_FLUSH, 4);
            b.acquire_mem(0);
            b.cs_partial_flush_and_invalidate(0);
            b.release_mem(pm4::event::BOTTOM_OF_PIPE_TS, pm4::release::DATA_TIMESTAMP, 0, aux, 0);
            b.load_sh_regs(reg::COMPUTE_USER_DATA_0, aux, 2);
            b.wait_reg(reg::COMPUTE_USER_DATA_0, 3, 1, 0xffff_ffff);
        });
        add("nested-ib", &|b| {
            // An IB2 of the kernel's own words: runs into an illegal packet.
            b.indirect_buffer(code, 4, false);
            b.indirect_buffer(aux, 0, false);
        });
        seeds
    }
}

fn write(bo: &Bo, words: &[u32]) {
    assert!(4 * words.len() as u64 <= bo.size()); // ok: harness invariant
                                                  // SAFETY: the range is inside the BO, which no queue uses yet.
    unsafe { std::ptr::copy_nonoverlapping(words.as_ptr(), bo.host_ptr() as *mut u32, words.len()) }
}
