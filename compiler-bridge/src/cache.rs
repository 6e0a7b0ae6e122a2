//! The on-disk cache of compiled code objects.
//!
//! The key is a SHA-256 over everything that determines the object: the LLVM IR (the
//! lowering's complete output, so it covers the SPIR-V, entry point, pipeline layout and
//! specialisation), the code generation options, the backend with its LLVM version, and
//! this crate's version. One file per entry, `<dir>/<key hex>.co`:
//!
//! | bytes | content                                   |
//! |-------|-------------------------------------------|
//! | 8     | magic `SNVCO\0\0\x01` (the last byte is the format version) |
//! | 32    | the key                                   |
//! | 8     | payload length (little endian)            |
//! | 32    | SHA-256 of the payload                    |
//! | n     | the code object                           |
//!
//! Entries are written to a temporary file and renamed into place, so readers never see a
//! partial entry; an entry that fails any check is treated as absent (and rewritten by the
//! compile that follows). Cache problems never fail a compile: they are logged.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::OnceLock;

use sha2::{Digest, Sha256};

use crate::llvm::{Backend, CodegenOptions};

const MAGIC: [u8; 8] = *b"SNVCO\0\0\x01";
const HEADER_LEN: usize = 8 + 32 + 8 + 32;

/// A cache key: SHA-256 of what determines a code object.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Key(pub [u8; 32]);

impl Key {
    /// The key of compiling `ir` with `opts` by the compiler `backend_identity` names
    /// ([`Backend::identity`]).
    pub fn new(ir: &str, opts: &CodegenOptions, backend_identity: &str) -> Key {
        let mut h = Sha256::new();
        // Length-prefixed fields, so no two different inputs hash the same bytes.
        for field in [
            env!("CARGO_PKG_VERSION").as_bytes(),
            backend_identity.as_bytes(),
            if opts.wave64 { b"wave64" } else { b"wave32" },
            ir.as_bytes(),
        ] {
            h.update((field.len() as u64).to_le_bytes());
            h.update(field);
        }
        Key(h.finalize().into())
    }

    pub fn hex(&self) -> String {
        self.0.iter().map(|b| format!("{b:02x}")).collect()
    }
}

/// A cache directory.
#[derive(Debug)]
pub struct DiskCache {
    dir: PathBuf,
    /// A failed write was logged already (one warning per cache, not per shader).
    warned: AtomicBool,
}

impl DiskCache {
    /// A cache in `dir` (created on the first write).
    pub fn new(dir: impl Into<PathBuf>) -> DiskCache {
        DiskCache { dir: dir.into(), warned: AtomicBool::new(false) }
    }

    /// The process's cache, from the environment (read once): `$SOFTNAVI_CACHE_DIR`, else
    /// `$XDG_CACHE_HOME/softnavi`, else `$HOME/.cache/softnavi`; `None` when
    /// `SOFTNAVI_CACHE_DIR` is `off` or empty, or no directory can be named.
    pub fn from_env() -> Option<&'static DiskCache> {
        static CACHE: OnceLock<Option<DiskCache>> = OnceLock::new();
        CACHE
            .get_or_init(|| {
                let var = |name| std::env::var_os(name);
                let dir = dir_for(var("SOFTNAVI_CACHE_DIR"), var("XDG_CACHE_HOME"), var("HOME"));
                match &dir {
                    Some(d) => tracing::info!(dir = %d.display(), "shader cache"),
                    None => tracing::info!("shader cache disabled"),
                }
                dir.map(DiskCache::new)
            })
            .as_ref()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// The file of entry `key`.
    pub fn path(&self, key: &Key) -> PathBuf {
        self.dir.join(format!("{}.co", key.hex()))
    }

    /// The code object stored under `key`, if there is a valid entry.
    pub fn get(&self, key: &Key) -> Option<Vec<u8>> {
        let path = self.path(key);
        let bytes = std::fs::read(&path).ok()?;
        let payload = decode(&bytes, key);
        if payload.is_none() {
            tracing::warn!(path = %path.display(), "ignoring a corrupt shader cache entry");
        }
        payload.map(<[u8]>::to_vec)
    }

    /// Stores `object` under `key`; failures are logged, not returned.
    pub fn put(&self, key: &Key, object: &[u8]) {
        if let Err(e) = self.write(key, object) {
            if !self.warned.swap(true, Ordering::Relaxed) {
                tracing::warn!(dir = %self.dir.display(), error = %e, "cannot write the shader cache");
            }
        }
    }

    fn write(&self, key: &Key, object: &[u8]) -> std::io::Result<()> {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        std::fs::create_dir_all(&self.dir)?;
        let tmp = self.dir.join(format!(
            ".{}.{}.{}.tmp",
            key.hex(),
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        ));
        let result = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&encode(key, object))?;
            std::fs::rename(&tmp, self.path(key))
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result
    }
}

/// The cache directory the environment names (see [`DiskCache::from_env`]).
fn dir_for(
    softnavi: Option<std::ffi::OsString>,
    xdg: Option<std::ffi::OsString>,
    home: Option<std::ffi::OsString>,
) -> Option<PathBuf> {
    match softnavi {
        Some(v) if v.is_empty() || v == "off" => None,
        Some(v) => Some(PathBuf::from(v)),
        None => xdg
            .filter(|x| !x.is_empty())
            .map(|x| PathBuf::from(x).join("softnavi"))
            .or_else(|| home.filter(|h| !h.is_empty()).map(|h| PathBuf::from(h).join(".cache/softnavi"))),
    }
}

fn encode(key: &Key, object: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(HEADER_LEN + object.len());
    out.extend_from_slice(&MAGIC);
    out.extend_from_slice(&key.0);
    out.extend_from_slice(&(object.len() as u64).to_le_bytes());
    out.extend_from_slice(&Sha256::digest(object));
    out.extend_from_slice(object);
    out
}

/// The payload of entry `bytes` if its header is intact, is for `key`, and matches it.
fn decode<'a>(bytes: &'a [u8], key: &Key) -> Option<&'a [u8]> {
    let (header, payload) = bytes.split_at_checked(HEADER_LEN)?;
    let (magic, rest) = header.split_at(8);
    let (stored_key, rest) = rest.split_at(32);
    let (len, digest) = rest.split_at(8);
    let len = u64::from_le_bytes(len.try_into().ok()?);
    let valid = magic == MAGIC
        && stored_key == key.0
        && len == payload.len() as u64
        && Sha256::digest(payload).as_slice() == digest;
    valid.then_some(payload)
}

/// The key of `ir` compiled by `backend`, or `None` (logged) when the backend cannot name
/// its compiler.
pub(crate) fn key_for(ir: &str, opts: &CodegenOptions, backend: Backend) -> Option<Key> {
    match backend.identity() {
        Ok(id) => Some(Key::new(ir, opts, &id)),
        Err(e) => {
            tracing::warn!(error = %e, "no cache key: the backend cannot name its compiler");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(ir: &str) -> Key {
        Key::new(ir, &CodegenOptions::default(), "test")
    }

    #[test]
    fn entries_round_trip_and_reject_damage() {
        let k = key("ir");
        let e = encode(&k, b"object");
        assert_eq!(decode(&e, &k), Some(&b"object"[..]));
        assert_eq!(decode(&e, &key("other")), None, "another key's entry");
        assert_eq!(decode(&e[..e.len() - 1], &k), None, "truncated payload");
        assert_eq!(decode(&e[..10], &k), None, "truncated header");
        let mut flipped = e.clone();
        *flipped.last_mut().unwrap() ^= 1;
        assert_eq!(decode(&flipped, &k), None, "payload bit flip");
        let mut bad_magic = e;
        bad_magic[0] = b'X';
        assert_eq!(decode(&bad_magic, &k), None);
    }

    #[test]
    fn keys_depend_on_every_input() {
        let wave64 = CodegenOptions { wave64: true };
        let base = Key::new("ir", &CodegenOptions::default(), "a");
        assert_ne!(base, Key::new("ir2", &CodegenOptions::default(), "a"));
        assert_ne!(base, Key::new("ir", &wave64, "a"));
        assert_ne!(base, Key::new("ir", &CodegenOptions::default(), "b"));
        // Field boundaries matter: ("ab", "c") and ("a", "bc") differ.
        assert_ne!(Key::new("c", &CodegenOptions::default(), "ab"), Key::new("bc", &CodegenOptions::default(), "a"));
        assert_eq!(base, Key::new("ir", &CodegenOptions::default(), "a"));
    }

    #[test]
    fn directory_from_environment() {
        let s = |v: &str| Some(std::ffi::OsString::from(v));
        assert_eq!(dir_for(s("/c"), s("/x"), s("/h")), Some(PathBuf::from("/c")));
        assert_eq!(dir_for(s("off"), s("/x"), s("/h")), None);
        assert_eq!(dir_for(s(""), s("/x"), s("/h")), None);
        assert_eq!(dir_for(None, s("/x"), s("/h")), Some(PathBuf::from("/x/softnavi")));
        assert_eq!(dir_for(None, s(""), s("/h")), Some(PathBuf::from("/h/.cache/softnavi")));
        assert_eq!(dir_for(None, None, None), None);
    }
}
