//! The local data share (DS): LDS loads, stores and atomics.

use super::vmem::{access, narrow};
use super::{illegal, Ctx, FaultKind, Wave};
use crate::isa::decode::Inst;
use crate::isa::table::Op::*;

impl Wave {
    pub(super) fn ds(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let op = inst.op;
        let exec = self.exec();
        let lds_size = ctx.lds.len() as u64;
        let addr_v = self.vsrc(&inst.src[0]);
        let two = matches!(
            op,
            DS_STORE_2ADDR_B32
                | DS_STORE_2ADDR_STRIDE64_B32
                | DS_LOAD_2ADDR_B32
                | DS_LOAD_2ADDR_STRIDE64_B32
                | DS_STORE_2ADDR_B64
                | DS_LOAD_2ADDR_B64
        );
        let (size, _) = access(op);
        let dwords = (size / 4).max(1) as usize;
        // Byte addresses of the (up to) two elements a lane touches.
        let addrs = |l: usize| -> [u64; 2] {
            let a = addr_v[l] as u64;
            if two {
                let scale = size as u64
                    * if matches!(op, DS_STORE_2ADDR_STRIDE64_B32 | DS_LOAD_2ADDR_STRIDE64_B32) { 64 } else { 1 };
                [a + inst.imm as u64 * scale, a + inst.imm1 as u64 * scale]
            } else {
                [a + (inst.imm as u64 | (inst.imm1 as u64) << 8), 0]
            }
        };
        // LDS out of range: writes are dropped, reads return zero, all-or-nothing per
        // element (seed 000, "LDS/GDS alignment and out of range").
        let in_range = |a: u64, len: u64| a + len <= lds_size;
        let lds = &mut *ctx.lds;
        let rd = |lds: &[u8], a: u64, len: u64| -> [u8; 16] {
            let mut b = [0u8; 16];
            if in_range(a, len) {
                b[..len as usize].copy_from_slice(&lds[a as usize..(a + len) as usize]);
            }
            b
        };
        match op {
            DS_STORE_B32
            | DS_STORE_B8
            | DS_STORE_B16
            | DS_STORE_B64
            | DS_STORE_B128
            | DS_STORE_2ADDR_B32
            | DS_STORE_2ADDR_STRIDE64_B32
            | DS_STORE_2ADDR_B64 => {
                let data = self.vsrc_n(&inst.src[1], dwords);
                let data1 = if two { self.vsrc_n(&inst.src[2], dwords) } else { [[0; 64]; 4] };
                for l in 0..self.lanes {
                    if exec >> l & 1 == 0 {
                        continue;
                    }
                    let a = addrs(l);
                    for (e, src) in [&data, &data1].iter().enumerate().take(if two { 2 } else { 1 }) {
                        let mut bytes = [0u8; 16];
                        for k in 0..dwords {
                            bytes[4 * k..4 * k + 4].copy_from_slice(&src[k][l].to_le_bytes());
                        }
                        let len = size as u64;
                        if in_range(a[e], len) {
                            lds[a[e] as usize..(a[e] + len) as usize].copy_from_slice(&bytes[..len as usize]);
                        }
                    }
                }
            }
            DS_LOAD_B32
            | DS_LOAD_U8
            | DS_LOAD_U16
            | DS_LOAD_B64
            | DS_LOAD_B128
            | DS_LOAD_2ADDR_B32
            | DS_LOAD_2ADDR_STRIDE64_B32
            | DS_LOAD_2ADDR_B64 => {
                let elems = if two { 2 } else { 1 };
                let mut out = [[0u32; 64]; 4];
                for l in 0..self.lanes {
                    if exec >> l & 1 == 0 {
                        continue;
                    }
                    let a = addrs(l);
                    for e in 0..elems {
                        let b = rd(lds, a[e], size as u64);
                        for k in 0..dwords {
                            let w = [b[4 * k], b[4 * k + 1], b[4 * k + 2], b[4 * k + 3]];
                            out[e * dwords + k][l] = narrow(w, size, false);
                        }
                    }
                }
                for (k, vals) in out.iter().enumerate().take(dwords * elems) {
                    let d = self.reg_plus(&inst.dst, k);
                    self.vdst(&d, vals, exec);
                }
            }
            DS_ADD_U32 | DS_SUB_U32 | DS_MIN_I32 | DS_MAX_I32 | DS_MIN_U32 | DS_MAX_U32 | DS_AND_B32 | DS_OR_B32
            | DS_XOR_B32 | DS_ADD_RTN_U32 => {
                let data = self.vsrc(&inst.src[1]);
                let mut ret = [0u32; 64];
                // Lanes apply in order: LDS atomics within a wave are serialised.
                for l in 0..self.lanes {
                    if exec >> l & 1 == 0 {
                        continue;
                    }
                    let a = addrs(l)[0];
                    if !in_range(a, 4) {
                        continue;
                    }
                    let cell = &mut lds[a as usize..a as usize + 4];
                    let old = u32::from_le_bytes([cell[0], cell[1], cell[2], cell[3]]);
                    let x = data[l];
                    let new = match op {
                        DS_ADD_U32 | DS_ADD_RTN_U32 => old.wrapping_add(x),
                        DS_SUB_U32 => old.wrapping_sub(x),
                        DS_MIN_I32 => (old as i32).min(x as i32) as u32,
                        DS_MAX_I32 => (old as i32).max(x as i32) as u32,
                        DS_MIN_U32 => old.min(x),
                        DS_MAX_U32 => old.max(x),
                        DS_AND_B32 => old & x,
                        DS_OR_B32 => old | x,
                        _ => old ^ x,
                    };
                    cell.copy_from_slice(&new.to_le_bytes());
                    ret[l] = old;
                }
                if op == DS_ADD_RTN_U32 {
                    self.vdst(&inst.dst, &ret, exec);
                }
            }
            _ => return Err(illegal(format!("{} is not an LDS instruction", op.name()))),
        }
        Ok(())
    }
}
