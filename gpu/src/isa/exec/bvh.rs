//! `image_bvh_intersect_ray` and `image_bvh64_intersect_ray`: one ray against one node of
//! a bounding volume hierarchy per lane (RDNA3-NOTES, "Ray intersection"). A box node
//! gives its children's pointers, the boxes the ray enters sorted nearest first; a triangle
//! node gives the hit's distance and barycentrics as numerators over a common denominator.
//! The hardware's arithmetic is not published: the box test is AMD's own software
//! stand-in (GPUOpen gpurt, `fast_intersect_bbox`), the triangle test Mesa's watertight one
//! (`intersect_ray_amd_software_tri`, which RADV's CTS runs pass with); the two agree on
//! every ratio and sign a driver reads.

use super::{unsupported, Ctx, FaultKind, Wave};
use crate::format::f16_to_f32;
use crate::isa::decode::{mimg, Inst, Operand};
use crate::isa::table::Op;

/// A child or result slot that holds nothing.
const INVALID: u32 = 0xffff_ffff;
/// What a triangle the ray misses gives: t_num = +inf over t_denom = 1.0.
const TRI_MISS: [u32; 4] = [0x7f80_0000, 0x3f80_0000, 0, 0];

/// The 128-bit BVH resource (RDNA3 ISA guide, "BVH texture resource definition").
#[derive(Clone, Copy, Debug, PartialEq)]
struct BvhResource {
    /// Byte address of node pointer 0 (the field holds it >> 8).
    base: u64,
    /// Units in the last place the box test's far distance grows by.
    box_grow: u32,
    /// Box results sorted (nearest first), else in child order.
    box_sort: bool,
    /// 0 closest entry, 1 largest interval first, 2 closest midpoint (gfx11's PAL field).
    sort_heuristic: u32,
    /// The last node index (64-byte units) the instruction reads.
    size: u64,
    /// Node pointer bits 63:54 act as culling flags.
    pointer_flags: bool,
    /// Triangles give {t_num, t_denom, I, J} (1) or {t_num, t_denom, id, status} (0).
    return_ij: bool,
    ty: u32,
}

impl BvhResource {
    fn decode(d: [u32; 4]) -> BvhResource {
        BvhResource {
            base: (d[0] as u64 | ((d[1] & 0xff) as u64) << 32) << 8,
            box_grow: d[1] >> 23 & 0xff,
            box_sort: d[1] >> 31 != 0,
            sort_heuristic: d[1] >> 21 & 3,
            size: d[2] as u64 | ((d[3] & 0x3ff) as u64) << 32,
            pointer_flags: d[3] >> 23 & 1 != 0,
            return_ij: d[3] >> 24 & 1 != 0,
            ty: d[3] >> 28,
        }
    }

    /// Why the model does not take this resource, if it does not: fields whose effect no
    /// source pins down are named rather than guessed.
    fn refuse(&self) -> Option<String> {
        Some(match () {
            _ if self.ty != 8 => format!("a resource of type {} (a BVH T# has type 8)", self.ty),
            _ if self.pointer_flags => "pointer flags (T# bit 119: culling flags in node pointer bits 63:54)".into(),
            _ if self.box_sort && self.sort_heuristic == 3 => "box sorting heuristic 3".into(),
            _ => return None,
        })
    }
}

/// One ray, as the address VGPRs give it.
#[derive(Clone, Copy, Debug)]
struct Ray {
    extent: f32,
    origin: [f32; 3],
    dir: [f32; 3],
    inv_dir: [f32; 3],
}

/// The VGPR holding component `comp` of address group `group` (node pointer, extent,
/// origin, direction, inverse direction; with A16 the last two share a group). Without
/// NSA the groups follow each other from VADDR; with NSA group 0 starts at VADDR and
/// groups 1 to 4 at the NSA dword's bytes, each a run of consecutive VGPRs.
pub(super) fn addr_reg(inst: &Inst, group: usize, comp: usize) -> Option<u16> {
    let Operand::Vgpr(v) = inst.src[0] else { return None };
    let sizes = &mimg::BVH_SLOTS[(inst.op == Op::IMAGE_BVH64_INTERSECT_RAY) as usize];
    Some(if inst.imm & mimg::NSA == 0 {
        v.wrapping_add((sizes[..group].iter().map(|&s| s as usize).sum::<usize>() + comp) as u16)
    } else if group == 0 {
        v.wrapping_add(comp as u16)
    } else {
        ((inst.ext >> (8 * (group - 1)) & 0xff) as u16).wrapping_add(comp as u16)
    })
}

impl Wave {
    pub(super) fn bvh(&mut self, inst: &Inst, ctx: &mut Ctx) -> Result<(), FaultKind> {
        let Operand::Vgpr(vdata) = inst.dst else { return Ok(()) };
        let Some(raw) = self.tsharp_raw(&inst.src[1]) else { return Ok(()) };
        let t = BvhResource::decode([raw[0], raw[1], raw[2], raw[3]]);
        if let Some(why) = t.refuse() {
            return Err(unsupported(format!("{}: {why}", inst.op.name())));
        }
        // RDNA3-NOTES, "VGPR out-of-range behaviour": as for loads.
        if !self.vgprs_in_range(vdata, 4) {
            return Ok(());
        }
        let wide = inst.op == Op::IMAGE_BVH64_INTERSECT_RAY;
        let a16 = inst.imm & mimg::A16 != 0;
        let get = |g: usize, c: usize| addr_reg(inst, g, c).map_or([0; 64], |r| self.vmem_src(&Operand::Vgpr(r)));
        let node_lo = get(0, 0);
        let node_hi = if wide { get(0, 1) } else { [0; 64] };
        let extent = get(1, 0);
        let origin: [[u32; 64]; 3] = std::array::from_fn(|c| get(2, c));
        let dir: [[u32; 64]; 3] = std::array::from_fn(|c| get(3, c));
        let inv: [[u32; 64]; 3] = if a16 { [[0; 64]; 3] } else { std::array::from_fn(|c| get(4, c)) };
        let exec = self.exec();
        let mut out = [[0u32; 64]; 4];
        for l in (0..self.lanes).filter(|&l| exec >> l & 1 != 0) {
            let f = |x: u32| f32::from_bits(x);
            let h = |x: u32| f16_to_f32(x as u16);
            // A16 (RDNA3 ISA guide, "BVH"; LLVM's gfx11 code): per axis, the direction in
            // bits 15:0 and the inverse direction in bits 31:16.
            let ray = Ray {
                extent: f(extent[l]),
                origin: std::array::from_fn(|c| f(origin[c][l])),
                dir: std::array::from_fn(|c| if a16 { h(dir[c][l]) } else { f(dir[c][l]) }),
                inv_dir: std::array::from_fn(|c| if a16 { h(dir[c][l] >> 16) } else { f(inv[c][l]) }),
            };
            let node = node_lo[l] as u64 | (node_hi[l] as u64) << 32;
            let r = intersect(&t, node, &ray, |va, buf| ctx.tlb.read(ctx.vm, va, buf)).map_err(|e| match e {
                Error::Vm(v) => FaultKind::from(v),
                Error::Unsupported(why) => unsupported(format!("{}: {why}", inst.op.name())),
            })?;
            for (k, v) in r.into_iter().enumerate() {
                out[k][l] = v;
            }
        }
        for (k, vals) in out.iter().enumerate() {
            self.vdst(&Operand::Vgpr(vdata + k as u16), vals, exec);
        }
        Ok(())
    }
}

/// Why a node gave no result.
#[derive(Debug)]
enum Error {
    Vm(crate::mem::VmFault),
    Unsupported(String),
}

/// The four result dwords of ray `ray` against node pointer `node` of BVH `t`, reading
/// memory with `read`.
fn intersect(
    t: &BvhResource,
    node: u64,
    ray: &Ray,
    mut read: impl FnMut(u64, &mut [u8]) -> Result<(), crate::mem::VmFault>,
) -> Result<[u32; 4], Error> {
    // The node's byte address: pointer bits 63:3 count 64-byte units from the base.
    let index = node >> 3;
    if index > t.size {
        // Past the resource's size: nothing is read (what the hardware returns is not
        // documented; RADV's T# covers the whole address space).
        return Ok([INVALID; 4]);
    }
    let va = t.base.wrapping_add(index << 6);
    let mut bytes = [0u8; 112];
    match node & 7 {
        5 => {
            read(va, &mut bytes).map_err(Error::Vm)?;
            let boxes = std::array::from_fn(|i| std::array::from_fn(|k| f32_at(&bytes, 16 + 24 * i + 4 * k)));
            Ok(box_node(t, children(&bytes), boxes, ray))
        }
        4 => {
            read(va, &mut bytes[..64]).map_err(Error::Vm)?;
            // Each child's box in three dwords, halves low first: {min.x, min.y},
            // {min.z, max.x}, {max.y, max.z}.
            let boxes = std::array::from_fn(|i| {
                std::array::from_fn(|k| {
                    let at = 16 + 12 * i + 2 * k;
                    f16_to_f32(u16::from_le_bytes([bytes[at], bytes[at + 1]]))
                })
            });
            Ok(box_node(t, children(&bytes), boxes, ray))
        }
        // Instance and procedural nodes are the driver's to handle: the hardware returns
        // INVALID in every dword (gpurt's stand-in, "HW returns -1").
        6 | 7 => Ok([INVALID; 4]),
        tri => {
            read(va, &mut bytes[..64]).map_err(Error::Vm)?;
            triangle_node(t, tri as usize, &bytes, ray)
        }
    }
}

fn f32_at(b: &[u8], at: usize) -> f32 {
    f32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn u32_at(b: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([b[at], b[at + 1], b[at + 2], b[at + 3]])
}

fn children(b: &[u8]) -> [u32; 4] {
    std::array::from_fn(|i| u32_at(b, 4 * i))
}

/// A box node: each child's box [min.xyz, max.xyz] against the ray's slabs, then the
/// children the ray enters, nearest first (or in place without sorting), INVALID for the
/// rest.
fn box_node(t: &BvhResource, child: [u32; 4], boxes: [[f32; 6]; 4], ray: &Ray) -> [u32; 4] {
    // The far distance may grow by box_grow units of 2^-24 of itself.
    let grow = 1.0 + t.box_grow as f32 * (f32::EPSILON / 2.0);
    let mut keyed = [(INVALID, f32::INFINITY); 4];
    for i in 0..4 {
        let b = &boxes[i];
        // The near and far planes by the sign of the inverse direction (-0.0 counts as
        // positive); f32::max and min are IEEE maxNum and minNum: an axis whose product is
        // NaN (0 * inf, a ray in a slab's plane) sets no bound.
        let (mut enter, mut exit) = (f32::NAN, f32::NAN);
        for c in 0..3 {
            let lo = (b[c] - ray.origin[c]) * ray.inv_dir[c];
            let hi = (b[c + 3] - ray.origin[c]) * ray.inv_dir[c];
            let (near, far) = if ray.inv_dir[c] >= 0.0 { (lo, hi) } else { (hi, lo) };
            enter = enter.max(near);
            exit = exit.min(far);
        }
        let (min_t, max_t) = if enter.is_nan() || exit.is_nan() {
            (f32::INFINITY, f32::NEG_INFINITY)
        } else {
            (enter.max(0.0), exit.min(ray.extent))
        };
        // Inclusive: a box the ray only touches is entered.
        let enters = min_t <= max_t * grow;
        if child[i] == INVALID || !enters {
            continue;
        }
        let key = match t.sort_heuristic {
            1 => min_t - max_t,
            2 => (if enter.is_nan() { 0.0 } else { enter }) + (if exit.is_nan() { f32::INFINITY } else { exit }),
            _ => min_t,
        };
        keyed[i] = (child[i], key);
    }
    if t.box_sort {
        // gpurt's network: a correct 4-sorter, not stable, reproduced exactly so that a
        // driver walking back up the tree sees the same order again. INVALID sorts last.
        for (a, b) in [(0, 2), (1, 3), (0, 1), (2, 3), (1, 2)] {
            let (x, y) = (keyed[a], keyed[b]);
            if (y.0 != INVALID && y.1 < x.1) || x.0 == INVALID {
                keyed.swap(a, b);
            }
        }
    }
    keyed.map(|(c, _)| c)
}

/// The vertices of triangle `tri` of a triangle node (vertex slots V0..V4 at 12-byte steps).
const TRI_VERTICES: [[usize; 3]; 4] = [[0, 1, 2], [1, 3, 2], [2, 3, 4], [2, 4, 0]];

/// A triangle node: {t_num, t_denom, I, J} with t = t_num / t_denom, the barycentrics of
/// the second and third vertex I / t_denom and J / t_denom, the ray coming from the front
/// (counter-clockwise vertices seen from the origin) when t_denom > 0; a miss gives
/// t_num = +inf, t_denom = 1. The ray's extent plays no part.
fn triangle_node(t: &BvhResource, tri: usize, bytes: &[u8], ray: &Ray) -> Result<[u32; 4], Error> {
    if !t.return_ij {
        return Err(Error::Unsupported(
            "triangle return mode 0 ({t_num, t_denom, triangle_id, hit_status}: the id and status encodings are not \
             documented)"
                .into(),
        ));
    }
    let v: [[f32; 3]; 3] = TRI_VERTICES[tri].map(|s| std::array::from_fn(|k| f32_at(bytes, 12 * s + 4 * k)));
    let Some([t_num, t_denom, i, j]) = watertight(v, ray) else { return Ok(TRI_MISS) };
    // Barycentric sources: the node's dword at +60 holds a byte per triangle whose bits 1:0
    // and 3:2 pick which weight (of vertex A, B, C) goes out as I and as J.
    let id = u32_at(bytes, 60) >> (8 * tri);
    let weights = [t_denom - i - j, i, j];
    let pick = |sel: u32| {
        weights
            .get(sel as usize)
            .copied()
            .ok_or_else(|| Error::Unsupported(format!("barycentric source 3 in triangle node byte {:#04x}", id & 0xff)))
    };
    let (i, j) = (pick(id & 3)?, pick(id >> 2 & 3)?);
    Ok([t_num, t_denom, i, j].map(f32::to_bits))
}

/// The watertight ray-triangle test (Woop, Benthin, Wald 2013) as Mesa's RADV states the
/// instruction's contract: the ray's largest direction axis becomes z, the vertices are
/// sheared onto the plane across it, and the 2D edge functions decide, in f64 where one
/// of them is 0 in f32. Returns {t_num, det, weight of B, weight of C} on a hit.
fn watertight(v: [[f32; 3]; 3], ray: &Ray) -> Option<[f32; 4]> {
    let d = ray.dir;
    let kz = if d[0].abs() >= d[1].abs() && d[0].abs() >= d[2].abs() {
        0
    } else if d[1].abs() >= d[2].abs() {
        1
    } else {
        2
    };
    let (mut kx, mut ky) = ((kz + 1) % 3, (kz + 2) % 3);
    if d[kz] < 0.0 {
        std::mem::swap(&mut kx, &mut ky);
    }
    let sz = 1.0 / d[kz];
    let (sx, sy) = (d[kx] * sz, d[ky] * sz);
    let rel = v.map(|p| std::array::from_fn::<f32, 3, _>(|k| p[k] - ray.origin[k]));
    let sheared = rel.map(|p| (p[kx] - sx * p[kz], p[ky] - sy * p[kz]));
    let [(ax, ay), (bx, by), (cx, cy)] = sheared;
    let mut e = [cx * by - cy * bx, ax * cy - ay * cx, bx * ay - by * ax];
    if e.contains(&0.0) {
        let w = |p: f32, q: f32, r: f32, s: f32| (p as f64 * q as f64 - r as f64 * s as f64) as f32;
        e = [w(cx, by, cy, bx), w(ax, cy, ay, cx), w(bx, ay, by, ax)];
    }
    let [u, vv, w] = e;
    if (u < 0.0 || vv < 0.0 || w < 0.0) && (u > 0.0 || vv > 0.0 || w > 0.0) {
        return None;
    }
    let det = u + vv + w;
    if det == 0.0 || det.is_nan() {
        return None;
    }
    let t_num = u * sz * rel[0][kz] + vv * sz * rel[1][kz] + w * sz * rel[2][kz];
    // Behind the origin.
    if det.signum() * t_num < 0.0 {
        return None;
    }
    Some([t_num, det, vv, w])
}

#[cfg(test)]
mod tests {
    //! The rules of RDNA3-NOTES "Ray intersection", with hand-worked geometry.
    use super::*;

    const RADV: [u32; 4] = [0, 0x8000_0000, 0xffff_ffff, 0x8100_03ff];

    fn ray(origin: [f32; 3], dir: [f32; 3], extent: f32) -> Ray {
        Ray { extent, origin, dir, inv_dir: dir.map(|x| 1.0 / x) }
    }

    fn unit_box(at: [f32; 3]) -> [f32; 6] {
        [at[0], at[1], at[2], at[0] + 1.0, at[1] + 1.0, at[2] + 1.0]
    }

    /// Node memory at byte address 0 of a T# with base 0: `intersect`'s reader.
    fn run(t: [u32; 4], mem: &[u8], node: u64, r: &Ray) -> Result<[u32; 4], Error> {
        intersect(&BvhResource::decode(t), node, r, |va, buf| {
            let at = va as usize;
            mem.get(at..at + buf.len()).map(|m| buf.copy_from_slice(m)).ok_or(crate::mem::VmFault {
                addr: va,
                write: false,
                len: buf.len() as u64,
            })
        })
    }

    fn box32(children: [u32; 4], boxes: [[f32; 6]; 4]) -> Vec<u8> {
        let mut m = vec![0u8; 128];
        for i in 0..4 {
            m[4 * i..4 * i + 4].copy_from_slice(&children[i].to_le_bytes());
            for k in 0..6 {
                m[16 + 24 * i + 4 * k..][..4].copy_from_slice(&boxes[i][k].to_le_bytes());
            }
        }
        m
    }

    fn triangle(v: [[f32; 3]; 5], id: u32) -> Vec<u8> {
        let mut m = vec![0u8; 64];
        for (s, p) in v.iter().enumerate() {
            for k in 0..3 {
                m[12 * s + 4 * k..][..4].copy_from_slice(&p[k].to_le_bytes());
            }
        }
        m[60..].copy_from_slice(&id.to_le_bytes());
        m
    }

    #[test]
    fn radvs_resource_decodes() {
        let t = BvhResource::decode(RADV);
        assert_eq!(t.base, 0);
        assert!(t.box_sort && t.return_ij && !t.pointer_flags);
        assert_eq!((t.size, t.ty, t.box_grow, t.sort_heuristic), ((1 << 42) - 1, 8, 0, 0));
        assert_eq!(t.refuse(), None);
        let t = BvhResource::decode([0x1234_5678, 0x9a, 7, 0x8000_0000]);
        assert_eq!((t.base, t.size, t.box_sort, t.return_ij), (0x9a_1234_5678 << 8, 7, false, false));
    }

    /// Rule "box nodes": children the ray enters, nearest entry first, then INVALID.
    #[test]
    fn box_children_come_nearest_first_misses_last() {
        // Along +x from the origin: boxes at x = 6, 2 and 4, one off the ray (y = 5).
        let boxes = [
            unit_box([6.0, -0.5, -0.5]),
            unit_box([2.0, -0.5, -0.5]),
            unit_box([1.0, 5.0, -0.5]),
            unit_box([4.0, -0.5, -0.5]),
        ];
        let m = box32([10, 11, 12, 13], boxes);
        let r = ray([0.0; 3], [1.0, 0.0, 0.0], 100.0);
        assert_eq!(run(RADV, &m, 5, &r).unwrap(), [11, 13, 10, INVALID]);
        // Without sorting: in child order, INVALID where the ray misses.
        let unsorted = [0, 0, 0xffff_ffff, 0x8100_03ff];
        assert_eq!(run(unsorted, &m, 5, &r).unwrap(), [10, 11, INVALID, 13]);
        // A child pointer INVALID stays out whatever its box.
        let m = box32([10, INVALID, 12, 13], boxes);
        assert_eq!(run(RADV, &m, 5, &r).unwrap(), [13, 10, INVALID, INVALID]);
    }

    /// Rule "box nodes": the entry distance is clamped at 0 (a box around the origin sorts
    /// first), the exit at the extent, and touching counts (inclusive).
    #[test]
    fn box_test_is_clamped_at_the_origin_and_the_extent_inclusively() {
        let boxes = [
            unit_box([3.0, -0.5, -0.5]),  // enters at 3 = the extent: hit
            unit_box([-0.5, -0.5, -0.5]), // around the origin: key 0
            unit_box([3.5, -0.5, -0.5]),  // past the extent: miss
            unit_box([-5.0, -0.5, -0.5]), // behind the origin: miss
        ];
        let m = box32([10, 11, 12, 13], boxes);
        assert_eq!(run(RADV, &m, 5, &ray([0.0; 3], [1.0, 0.0, 0.0], 3.0)).unwrap(), [11, 10, INVALID, INVALID]);
        // The distance is in units of the direction given.
        assert_eq!(run(RADV, &m, 5, &ray([0.0; 3], [2.0, 0.0, 0.0], 3.0)).unwrap(), [11, 10, 12, INVALID]);
    }

    /// Rule "box nodes": an axis whose product is NaN (a ray in a slab's plane, 0 * inf)
    /// sets no bound; a box of NaN (an empty slot) is missed.
    #[test]
    fn a_ray_in_a_slab_plane_and_empty_slots() {
        let nan = [f32::NAN; 6];
        // The ray runs along y = 0, the boxes' lower y plane, and along y = -1 outside them.
        let boxes = [[1.0, 0.0, -1.0, 2.0, 1.0, 1.0], nan, [4.0, 0.5, -1.0, 5.0, 1.0, 1.0], nan];
        let m = box32([10, 11, 12, 13], boxes);
        assert_eq!(run(RADV, &m, 5, &ray([0.0; 3], [1.0, 0.0, 0.0], 100.0)).unwrap(), [10, INVALID, INVALID, INVALID]);
        assert_eq!(run(RADV, &m, 5, &ray([0.0, -1.0, 0.0], [1.0, 0.0, 0.0], 100.0)).unwrap(), [INVALID; 4]);
    }

    /// Rule "box nodes": the far distance grows by box_grow units of 2^-24 of itself.
    #[test]
    fn box_grow_widens_the_test() {
        // Entry at the next float above the extent 1.0.
        let x = 1.0f32 + f32::EPSILON;
        let m = box32(
            [10, INVALID, INVALID, INVALID],
            [[x, -1.0, -1.0, 2.0, 1.0, 1.0], [f32::NAN; 6], [f32::NAN; 6], [f32::NAN; 6]],
        );
        let r = ray([0.0; 3], [1.0, 0.0, 0.0], 1.0);
        assert_eq!(run(RADV, &m, 5, &r).unwrap()[0], INVALID);
        let grown = [0, 0x8000_0000 | 2 << 23, 0xffff_ffff, 0x8100_03ff];
        assert_eq!(run(grown, &m, 5, &r).unwrap()[0], 10);
    }

    /// Rule "box nodes": FP16 boxes (type 4), three dwords per child, halves low first.
    #[test]
    fn fp16_box_nodes() {
        let mut m = vec![0u8; 64];
        let h = |x: f32| crate::format::f32_to_f16(x).to_le_bytes();
        for (i, c) in [20u32, 21, 22, 23].iter().enumerate() {
            m[4 * i..4 * i + 4].copy_from_slice(&c.to_le_bytes());
            // min = (2i, -1, -1), max = (2i + 1, 1, 1); child 1 off the ray (min.y = 2).
            let min_y = if i == 1 { 2.0 } else { -1.0 };
            let v = [2.0 * i as f32 + 0.5, min_y, -1.0, 2.0 * i as f32 + 1.0, 3.0, 1.0];
            for k in 0..6 {
                m[16 + 12 * i + 2 * k..][..2].copy_from_slice(&h(v[k]));
            }
        }
        let r = ray([0.0; 3], [1.0, 0.0, 0.0], 100.0);
        assert_eq!(run(RADV, &m, 4, &r).unwrap(), [20, 22, 23, INVALID]);
    }

    const ABC: [[f32; 3]; 5] = [[0.0, 0.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [9.0; 3], [9.0; 3]];

    fn ratios(r: [u32; 4]) -> (f32, f32, f32, f32) {
        let [t, d, i, j] = r.map(f32::from_bits);
        (t / d, i / d, j / d, d)
    }

    /// Rule "triangle nodes": t_num / t_denom is the distance, I / t_denom and J / t_denom
    /// the weights of the second and third vertex; t_denom > 0 from the counter-clockwise
    /// side; the extent plays no part.
    #[test]
    fn triangle_gives_distance_and_barycentrics_as_ratios() {
        let m = triangle(ABC, 9);
        let (t, u, v, d) = ratios(run(RADV, &m, 0, &ray([0.25, 0.5, 1.0], [0.0, 0.0, -2.0], 0.1)).unwrap());
        assert_eq!((t, u, v), (0.5, 0.25, 0.5));
        assert!(d > 0.0, "seen counter-clockwise: {d}");
        let (t, u, v, d) = ratios(run(RADV, &m, 0, &ray([0.25, 0.5, -1.0], [0.0, 0.0, 2.0], 100.0)).unwrap());
        assert_eq!((t, u, v), (0.5, 0.25, 0.5));
        assert!(d < 0.0, "seen clockwise: {d}");
    }

    /// Rule "triangle nodes": a miss (outside, or behind the origin) is +inf over 1.0.
    #[test]
    fn triangle_misses() {
        let m = triangle(ABC, 9);
        assert_eq!(run(RADV, &m, 0, &ray([0.75, 0.5, 1.0], [0.0, 0.0, -1.0], 10.0)).unwrap(), TRI_MISS);
        assert_eq!(run(RADV, &m, 0, &ray([0.25, 0.25, 1.0], [0.0, 0.0, 1.0], 10.0)).unwrap(), TRI_MISS);
        // Parallel to the plane.
        assert_eq!(run(RADV, &m, 0, &ray([0.25, 0.25, 0.0], [1.0, 0.0, 0.0], 10.0)).unwrap(), TRI_MISS);
    }

    /// Rule "triangle nodes": watertight: a ray through the edge two triangles share hits
    /// one of them at least, and one through their shared vertex too.
    #[test]
    fn shared_edges_and_vertices_leave_no_gap() {
        let abc = triangle(ABC, 9);
        let bdc = triangle([[1.0, 0.0, 0.0], [1.0, 1.0, 0.0], [0.0, 1.0, 0.0], [9.0; 3], [9.0; 3]], 9);
        for (x, y) in [(0.5, 0.5), (0.3, 0.7), (1.0, 0.0), (0.1, 0.9)] {
            let r = ray([x, y, 1.0], [0.0, 0.0, -1.0], 10.0);
            let hits = [&abc, &bdc].iter().filter(|m| run(RADV, m, 0, &r).unwrap() != TRI_MISS).count();
            assert!(hits >= 1, "({x}, {y}): a gap between the triangles");
        }
    }

    /// Rule "triangle nodes": the node's byte per triangle picks the vertex slots' weights
    /// that come out as I and J; triangle types 1 to 3 use vertex slots (1, 3, 2), (2, 3, 4)
    /// and (2, 4, 0).
    #[test]
    fn barycentric_sources_and_triangle_types() {
        // I from A's weight (0), J from B's (1): byte 0b0100.
        let m = triangle(ABC, 4);
        let (_, u, v, _) = ratios(run(RADV, &m, 0, &ray([0.25, 0.5, 1.0], [0.0, 0.0, -1.0], 10.0)).unwrap());
        assert_eq!((u, v), (0.25, 0.25));
        // Triangle 1 of a node: slots 1, 3, 2 = (1,0,0), (1,1,0), (0,1,0); its byte is bits 15:8.
        let v = [[-5.0, -5.0, 0.0], [1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [1.0, 1.0, 0.0], [5.0; 3]];
        let m = triangle(v, 9 << 8);
        // (0.875, 0.5) = 0.5 A + 0.375 B + 0.125 C.
        let r = ray([0.875, 0.5, 1.0], [0.0, 0.0, -1.0], 10.0);
        let (t, u, w, _) = ratios(run(RADV, &m, 1, &r).unwrap());
        assert_eq!((t, u, w), (1.0, 0.375, 0.125));
        assert_eq!(run(RADV, &m, 0, &r).unwrap(), TRI_MISS, "triangle 0 (slots 0, 1, 2) is elsewhere");
        // Source 3 is not documented: a named error.
        let m = triangle(ABC, 0b1100);
        assert!(matches!(run(RADV, &m, 0, &ray([0.25, 0.5, 1.0], [0.0, 0.0, -1.0], 10.0)), Err(Error::Unsupported(_))));
    }

    /// Rule "other nodes": instance (6) and procedural (7) nodes give INVALID in every dword
    /// without reading memory, as does a node past the T#'s size; the node address is
    /// base + (pointer >> 3) * 64.
    #[test]
    fn user_nodes_the_size_and_the_node_address() {
        let empty: Vec<u8> = Vec::new();
        let r = ray([0.0; 3], [1.0, 0.0, 0.0], 1.0);
        assert_eq!(run(RADV, &empty, 6, &r).unwrap(), [INVALID; 4]);
        assert_eq!(run(RADV, &empty, 7 | 0x100 << 3, &r).unwrap(), [INVALID; 4]);
        assert_eq!(run([0, 0x8000_0000, 3, 0x8100_0000], &empty, 4 << 3 | 5, &r).unwrap(), [INVALID; 4]);
        // Node index 2: byte 128; a read past the memory is a VM fault.
        let mut m = vec![0u8; 128];
        m.extend(box32([1, 2, 3, 4], [unit_box([1.0, -0.5, -0.5]); 4]));
        assert_eq!(run(RADV, &m, 2 << 3 | 5, &r).unwrap(), [1, 2, 3, 4]);
        assert!(matches!(run(RADV, &m, 3 << 3 | 5, &r), Err(Error::Vm(_))));
    }

    /// Fields whose effect no source pins down are refused by name.
    #[test]
    fn undocumented_fields_are_refused() {
        let r = ray([0.0; 3], [1.0, 0.0, 0.0], 1.0);
        let m = triangle(ABC, 9);
        assert!(matches!(run([0, 0x8000_0000, !0, 0x8000_03ff], &m, 0, &r), Err(Error::Unsupported(_))), "mode 0");
        for d3 in [0x7100_03ff, 0x8180_03ff] {
            assert!(BvhResource::decode([0, 0, !0, d3]).refuse().is_some(), "{d3:#x}");
        }
        assert!(BvhResource::decode([0, 0x8060_0000, !0, 0x8100_03ff]).refuse().is_some(), "heuristic 3");
    }
}
