//! Sparse residency as the GPU sees it: PRT pages (`AddressSpace::map_prt`, a sparse
//! resource's unbound part) read 0 and drop writes, and loads with TFE report a texel there
//! as not resident (RDNA3-NOTES, "Buffer instructions"; Vulkan's OpImageSparseRead residency code).

mod common;

use common::{addr, read_words, Dispatch, Gpu, W32};
use gpu::mem::{Memory, PAGE};
use gpu::rsrc::{img_type, sel, BufferResource, ImageResource};

/// A buffer over two pages, the first bound to memory, the second PRT; 32 lanes load
/// dword `lane * 64` (lanes 0..15 in the bound page, 16..31 in the PRT one) with
/// `buffer_load_format_x ... tfe` and with `image_load ... tfe` through a 1D R32_UINT T#
/// over the same pages, and store a dword to each: data and status go to `out`.
#[test]
fn tfe_loads_report_prt_pages_as_not_resident() {
    let mut gpu = Gpu::new();
    let va = 0x8000_0020_0000u64;
    let bound = Memory::new(PAGE).unwrap();
    // SAFETY: a fresh page of 1024 dwords.
    unsafe { (0..1024).for_each(|i| (bound.host_ptr() as *mut u32).add(i).write(1000 + i as u32)) };
    gpu.dev.address_space().map_at(va, &bound, 0, PAGE).unwrap();
    gpu.dev.address_space().map_prt(va + PAGE, PAGE).unwrap();
    let mut v = BufferResource::raw(va, 2 * PAGE as u32);
    v.format = 20; // 32_UINT
    v.dst_sel = [sel::X, sel::ZERO, sel::ZERO, sel::ONE];
    let t = ImageResource {
        base: va,
        format: 20,
        width: 2 * PAGE as u32 / 4 - 1,
        kind: img_type::IMG_1D,
        dst_sel: [sel::X, sel::Y, sel::Z, sel::W],
        ..Default::default()
    };
    let out = gpu.alloc(4 * 32 * 4);
    let code = gpu.kernel(
        "v_lshlrev_b32 v1, 8, v0
         v_lshlrev_b32 v10, 6, v0
         v_mov_b32 v2, 0
         v_mov_b32 v3, 0
         v_mov_b32 v4, 0
         v_mov_b32 v5, 0
         buffer_load_format_x v[2:3], v1, s[4:7], 0 offen tfe
         image_load v[4:5], v10, s[8:15] dmask:0x1 dim:SQ_RSRC_IMG_1D unorm tfe
         s_waitcnt vmcnt(0)
         v_mov_b32 v6, 7
         buffer_store_dword v6, v1, s[4:7], 0 offen
         s_waitcnt_vscnt null, 0
         buffer_load_dword v7, v1, s[4:7], 0 offen
         s_waitcnt vmcnt(0)
         v_lshlrev_b32 v8, 4, v0
         global_store_b128 v8, v[2:5], s[0:1]
         v_add_nc_u32 v8, 0x200, v8
         global_store_b32 v8, v7, s[0:1]
         s_endpgm",
    );
    let user: Vec<u32> = [addr(out.va()).to_vec(), vec![0, 0], v.encode().to_vec(), t.encode().to_vec()].concat();
    let d = Dispatch::new(&code, &user, [false; 3], [32, 1, 1]);
    gpu.run(&d.ib([1, 1, 1], W32)).unwrap_or_else(|r| panic!("{r}"));
    let got = read_words(&out, 0, 4 * 32 + 4 * 32);
    for l in 0..32usize {
        let resident = l < 16;
        let data = if resident { 1000 + 64 * l as u32 } else { 0 };
        let status = u32::from(!resident);
        assert_eq!(
            got[4 * l..4 * l + 4],
            [data, status, data, status],
            "lane {l}: buffer data, status, image data, status"
        );
        let stored = got[128 + 4 * l];
        assert_eq!(stored, if resident { 7 } else { 0 }, "lane {l}: a store to PRT pages is dropped");
    }
}
