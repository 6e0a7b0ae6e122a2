//! The node's ioctls called the way libdrm calls them, through the shim's exported
//! functions (no LD_PRELOAD needed), checked against the uapi's meaning and the model.

use std::ffi::c_void;

use softnavi_amdgpu_shim::{hooks, uapi};

fn iowr(nr: u8, size: usize) -> u64 {
    (3 << 30) | ((size as u64) << 16) | ((b'd' as u64) << 8) | nr as u64
}

fn ioctl<T>(fd: i32, nr: u8, arg: &mut T) -> i32 {
    hooks::ioctl(fd, iowr(nr, std::mem::size_of::<T>()) as _, arg as *mut T as *mut c_void)
}

fn open_node() -> i32 {
    let fd = hooks::open(c"/dev/dri/renderD128".as_ptr(), libc::O_RDWR | libc::O_CLOEXEC, 0);
    assert!(fd >= 0);
    fd
}

#[test]
fn version_and_node_stat() {
    let fd = open_node();
    let mut name = [0u8; 16];
    let mut v: uapi::DrmVersion = unsafe { std::mem::zeroed() };
    v.name = name.as_mut_ptr() as u64;
    v.name_len = name.len() as u64;
    assert_eq!(ioctl(fd, uapi::nr::VERSION, &mut v), 0);
    assert_eq!((v.version_major, v.version_minor), (3, 49));
    assert_eq!(&name[..v.name_len as usize], b"amdgpu");
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    assert_eq!(hooks::fstat(fd, &mut st), 0);
    assert_eq!(st.st_mode & libc::S_IFMT, libc::S_IFCHR);
    assert_eq!((libc::major(st.st_rdev), libc::minor(st.st_rdev)), (226, 128));
    // A duplicate is the same DRM file; an unrelated descriptor is not a node.
    let dup = unsafe { libc::dup(fd) };
    let mut v: uapi::DrmVersion = unsafe { std::mem::zeroed() };
    assert_eq!(ioctl(dup, uapi::nr::VERSION, &mut v), 0);
    assert_eq!(v.name_len, 6, "the length of \"amdgpu\"");
    assert_eq!(ioctl(0, uapi::nr::VERSION, &mut v), -1, "stdin is no DRM node");
    let mut cap = uapi::DrmGetCap { capability: uapi::cap::SYNCOBJ_TIMELINE, value: 0 };
    assert_eq!(ioctl(fd, uapi::nr::GET_CAP, &mut cap), 0);
    assert_eq!(cap.value, 1);
    unsafe { libc::close(dup) };
    unsafe { libc::close(fd) };
}

/// A BO created, mapped by the CPU through mmap of the node and at a high VA for the GPU:
/// both see the same bytes.
#[test]
fn gem_memory_is_shared_by_cpu_and_gpu() {
    let fd = open_node();
    let mut c = uapi::GemCreate { bo_size: 8192, alignment: 4096, domains: uapi::gem::DOMAIN_VRAM, domain_flags: 0 };
    assert_eq!(ioctl(fd, 0x40 + uapi::amdgpu::GEM_CREATE, &mut c), 0);
    let handle = c.bo_size as u32;
    let mut m = uapi::GemMmap { handle_or_offset: handle as u64 };
    assert_eq!(ioctl(fd, 0x40 + uapi::amdgpu::GEM_MMAP, &mut m), 0);
    let p = hooks::mmap(
        std::ptr::null_mut(),
        8192,
        libc::PROT_READ | libc::PROT_WRITE,
        libc::MAP_SHARED,
        fd,
        m.handle_or_offset as i64,
    );
    assert_ne!(p, libc::MAP_FAILED);
    unsafe { (p as *mut u32).add(5).write(0xdead_beef) };
    let va = 0xffff_8000_0010_0000u64;
    let mut map = uapi::GemVa {
        handle,
        _pad: 0,
        operation: uapi::gem::VA_OP_MAP,
        flags: 0,
        va_address: va,
        offset_in_bo: 0,
        map_size: 8192,
    };
    assert_eq!(
        hooks::ioctl(
            fd,
            ((1u64 << 30) | (40 << 16) | (b'd' as u64) << 8 | 0x48) as _,
            &mut map as *mut _ as *mut c_void
        ),
        0
    );
    let vm = softnavi_amdgpu_shim::gpu::device().unwrap().address_space();
    let mut out = [0u8; 4];
    vm.read(va + 20, &mut out).unwrap();
    assert_eq!(u32::from_le_bytes(out), 0xdead_beef);
    assert_eq!(hooks::munmap(p, 8192), 0);
    let mut close = uapi::DrmGemClose { handle, pad: 0 };
    assert_eq!(ioctl(fd, uapi::nr::GEM_CLOSE, &mut close), 0);
    assert!(vm.read(va + 20, &mut out).is_err(), "closing the last handle unmaps it");
    unsafe { libc::close(fd) };
}
