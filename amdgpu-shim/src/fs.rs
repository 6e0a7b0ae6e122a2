//! The files a render node brings: `/dev/dri/renderD128` and the sysfs entries libdrm
//! reads about it (`drmGetDevices2`, `drmGetDevice2`: the node's major/minor, its `device`
//! link to a PCI function, that function's `subsystem` link, `uevent`, `vendor`, `device`,
//! `subsystem_vendor`, `subsystem_device`, `revision`, `config`).
//!
//! They are real files in a directory of their own (built once per content, shared by the
//! processes of a user), and the path hooks send `/dev/dri/...` and
//! `/sys/dev/char/226:128...` there, so that `opendir`/`readdir`, `readlink`, `realpath` and
//! `fopen` work as libc implements them. Only the node itself is special: its `stat` says
//! character device 226:128, and opening it gives a memfd that stands for one DRM file.

use std::ffi::{CStr, CString};
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use gpu::ChipInfo;

pub const DRM_MAJOR: u32 = 226;
/// The render node's minor: the first render minor, as the kernel numbers them.
pub const RENDER_MINOR: u32 = 128;
pub const NODE_PATH: &str = "/dev/dri/renderD128";
/// Where the device sits on the (made-up) PCI bus.
pub const PCI_SLOT: &str = "0000:03:00.0";
/// libdrm_amdgpu's table of marketing names.
const AMDGPU_IDS: &str = "/usr/share/libdrm/amdgpu.ids";

/// The prefixes that live in the shim's directory: the DRM device directory and the
/// node's sysfs entry.
const REDIRECTED: [&str; 2] = ["/dev/dri", "/sys/dev/char/226:128"];

/// What a path named by the application stands for.
#[derive(Debug, PartialEq, Eq)]
pub enum Target {
    /// The render node.
    Node,
    /// A file of the shim's directory.
    Redirect(CString),
    /// Anything else: the real file system.
    Pass,
}

/// Where `path` goes.
pub fn resolve(path: &CStr) -> Target {
    let p = path.to_bytes();
    if p == NODE_PATH.as_bytes() {
        return Target::Node;
    }
    let under = |prefix: &str| p.starts_with(prefix.as_bytes()) && matches!(p.get(prefix.len()), None | Some(b'/'));
    if REDIRECTED.iter().any(|pre| under(pre)) || p == AMDGPU_IDS.as_bytes() {
        if let Some(root) = root() {
            let mut out = root.as_os_str().as_bytes().to_vec();
            out.extend_from_slice(if p == AMDGPU_IDS.as_bytes() { b"/amdgpu.ids" } else { p });
            if let Ok(c) = CString::new(out) {
                return Target::Redirect(c);
            }
        }
    }
    Target::Pass
}

/// One entry of the directory.
enum Entry {
    Dir,
    File(Vec<u8>),
    Link(&'static str),
}

/// The directory's contents for this chip.
fn entries(info: &ChipInfo) -> Vec<(String, Entry)> {
    let pci = format!("sys/devices/pci0000:00/{PCI_SLOT}");
    let hex = |v: u32| format!("0x{v:04x}\n").into_bytes();
    let uevent = format!(
        "DRIVER=amdgpu\nPCI_CLASS=30000\nPCI_ID={:04X}:{:04X}\nPCI_SUBSYS_ID={:04X}:{:04X}\nPCI_SLOT_NAME={PCI_SLOT}\n",
        info.vendor_id, info.device_id, info.vendor_id, info.device_id
    );
    vec![
        ("dev/dri".into(), Entry::Dir),
        ("dev/dri/renderD128".into(), Entry::File(Vec::new())),
        ("sys/bus/pci".into(), Entry::Dir),
        (pci.clone(), Entry::Dir),
        (format!("{pci}/subsystem"), Entry::Link("../../../bus/pci")),
        (format!("{pci}/uevent"), Entry::File(uevent.into_bytes())),
        (format!("{pci}/vendor"), Entry::File(hex(info.vendor_id))),
        (format!("{pci}/device"), Entry::File(hex(info.device_id))),
        (format!("{pci}/subsystem_vendor"), Entry::File(hex(info.vendor_id))),
        (format!("{pci}/subsystem_device"), Entry::File(hex(info.device_id))),
        (format!("{pci}/revision"), Entry::File(format!("0x{:02x}\n", info.pci_revision).into_bytes())),
        (format!("{pci}/config"), Entry::File(pci_config(info))),
        (format!("{pci}/drm/renderD128"), Entry::Dir),
        (
            format!("{pci}/drm/renderD128/uevent"),
            Entry::File(format!("MAJOR={DRM_MAJOR}\nMINOR={RENDER_MINOR}\nDEVNAME=dri/renderD128\n").into_bytes()),
        ),
        (format!("{pci}/drm/renderD128/device"), Entry::Link("../../../0000:03:00.0")),
        (format!("{pci}/drm/renderD128/subsystem"), Entry::Link("../../../../../class/drm")),
        ("sys/class/drm".into(), Entry::Dir),
        ("sys/dev/char".into(), Entry::Dir),
        ("sys/dev/char/226:128".into(), Entry::Link("../../devices/pci0000:00/0000:03:00.0/drm/renderD128")),
        ("amdgpu.ids".into(), Entry::File(amdgpu_ids(info))),
    ]
}

/// The first 64 bytes of PCI configuration space: ids, revision, class (display, VGA),
/// subsystem ids.
fn pci_config(info: &ChipInfo) -> Vec<u8> {
    let mut c = vec![0u8; 64];
    c[0..2].copy_from_slice(&(info.vendor_id as u16).to_le_bytes());
    c[2..4].copy_from_slice(&(info.device_id as u16).to_le_bytes());
    c[8] = info.pci_revision as u8;
    c[11] = 0x03;
    c[44..46].copy_from_slice(&(info.vendor_id as u16).to_le_bytes());
    c[46..48].copy_from_slice(&(info.device_id as u16).to_le_bytes());
    c
}

/// The system's amdgpu.ids with the modelled board's line added: Debian 12's libdrm
/// (2.4.114) predates Navi 31 in that table, and RADV shows the marketing name it gives.
fn amdgpu_ids(info: &ChipInfo) -> Vec<u8> {
    let mut s = std::fs::read(AMDGPU_IDS).unwrap_or_else(|_| b"1.0.0\n".to_vec());
    if !s.ends_with(b"\n") {
        s.push(b'\n');
    }
    s.extend_from_slice(
        format!("{:04X},\t{:02X},\t{}\n", info.device_id, info.pci_revision, info.marketing_name).as_bytes(),
    );
    s
}

/// A short hash of the contents, naming the directory so that processes with other
/// contents (another softnavi version) never share it.
fn content_hash(entries: &[(String, Entry)]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: &[u8]| {
        for &x in b {
            h = (h ^ x as u64).wrapping_mul(0x100_0000_01b3);
        }
    };
    for (p, e) in entries {
        eat(p.as_bytes());
        match e {
            Entry::Dir => eat(b"d"),
            Entry::File(b) => eat(b),
            Entry::Link(t) => eat(t.as_bytes()),
        }
    }
    h
}

fn build(dir: &Path, entries: &[(String, Entry)]) -> std::io::Result<()> {
    for (p, e) in entries {
        let path = dir.join(p);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        match e {
            Entry::Dir => std::fs::create_dir_all(&path)?,
            Entry::File(b) => std::fs::write(&path, b)?,
            Entry::Link(t) => std::os::unix::fs::symlink(t, &path)?,
        }
    }
    Ok(())
}

/// The directory, built on first use; `None` (logged) when it cannot be made.
pub fn root() -> Option<&'static Path> {
    static ROOT: OnceLock<Option<PathBuf>> = OnceLock::new();
    ROOT.get_or_init(|| crate::hooks::as_shim(build_root)).as_deref()
}

fn build_root() -> Option<PathBuf> {
    {
        let info = gpu::Config::from_env().chip_info();
        let entries = entries(&info);
        // SAFETY: getuid has no preconditions.
        let uid = unsafe { libc::getuid() };
        let base = std::env::temp_dir();
        let dir = base.join(format!("softnavi-amdgpu-{uid}-{:016x}", content_hash(&entries)));
        if dir.join("amdgpu.ids").exists() {
            return Some(dir);
        }
        // Built under a name of its own, then renamed: another process may race us.
        let tmp = base.join(format!("softnavi-amdgpu-{uid}-tmp-{}", std::process::id()));
        let made = build(&tmp, &entries).and_then(|_| std::fs::rename(&tmp, &dir));
        if let Err(e) = made {
            let _ = std::fs::remove_dir_all(&tmp);
            if !dir.join("amdgpu.ids").exists() {
                tracing::error!("cannot build the render node's files in {}: {e}", dir.display());
                return None;
            }
        }
        Some(dir)
    }
}

/// `struct stat` of the render node.
pub fn node_stat() -> libc::stat {
    // SAFETY: all-zero is a valid struct stat.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    st.st_mode = libc::S_IFCHR | 0o666;
    st.st_rdev = libc::makedev(DRM_MAJOR, RENDER_MINOR);
    // devtmpfs is device 0:5 on Linux.
    st.st_dev = libc::makedev(0, 5);
    st.st_ino = 1000 + RENDER_MINOR as u64;
    st.st_nlink = 1;
    st.st_gid = 0;
    st.st_blksize = 4096;
    st
}

/// `struct statx` of the render node.
pub fn node_statx() -> libc::statx {
    let st = node_stat();
    // SAFETY: all-zero is a valid struct statx.
    let mut sx: libc::statx = unsafe { std::mem::zeroed() };
    sx.stx_mask = libc::STATX_BASIC_STATS;
    sx.stx_mode = st.st_mode as u16;
    sx.stx_nlink = 1;
    sx.stx_ino = st.st_ino;
    sx.stx_blksize = 4096;
    sx.stx_rdev_major = DRM_MAJOR;
    sx.stx_rdev_minor = RENDER_MINOR;
    sx.stx_dev_minor = 5;
    sx
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A C string for a literal path.
    fn cpath(p: &str) -> CString {
        // ok: a test's literal path has no NUL
        CString::new(p).expect("no NUL in a literal path")
    }

    /// Where the shim redirects `p` (a test: a path it does not redirect fails it).
    fn redirect(p: &str) -> String {
        match resolve(&cpath(p)) {
            Target::Redirect(r) => r.to_str().unwrap().to_owned(), // ok: a test
            other => panic!("{p} resolves to {other:?}, not a redirection"), // ok: a test
        }
    }

    #[test]
    fn paths_resolve() {
        assert_eq!(resolve(&cpath(NODE_PATH)), Target::Node);
        assert_eq!(resolve(&cpath("/dev/dri2")), Target::Pass);
        assert_eq!(resolve(&cpath("/sys/dev/char/226:1280")), Target::Pass);
        assert_eq!(resolve(&cpath("/etc/passwd")), Target::Pass);
        let vendor = std::fs::read_to_string(redirect("/sys/dev/char/226:128/device/vendor")).unwrap();
        let info = gpu::Config::default().chip_info();
        assert_eq!(vendor, format!("0x{:04x}\n", info.vendor_id));
        let link = std::fs::read_link(redirect("/sys/dev/char/226:128/device/subsystem")).unwrap();
        assert!(link.ends_with("pci"), "{link:?}");
        let ids = std::fs::read_to_string(redirect(AMDGPU_IDS)).unwrap();
        assert!(ids.ends_with("744C,\tC8,\tAMD Radeon RX 7900 XTX\n"), "{ids}");
    }
}
