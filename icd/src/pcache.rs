//! Pipeline cache contents: compiled code objects keyed by everything that decides them,
//! and their serialised form (vkGetPipelineCacheData / pInitialData).
//!
//! Data layout (little-endian):
//! - `VkPipelineCacheHeaderVersionOne` (32 bytes): headerSize 32, version ONE, vendorID,
//!   deviceID, pipelineCacheUUID (`instance::cache_uuid()`).
//! - Body: magic `SNPC`, body version, entry count, then per entry: key (32 bytes), kernel
//!   name (u32 length + UTF-8), workgroup size (3 × u32), code object (u32 length + bytes);
//!   last, the SHA-256 of the body before it.
//!
//! Data that does not match (another device, another build, a bad checksum, a truncated or
//! malformed body) is ignored as a whole: the cache starts empty and a line is logged.

use std::collections::BTreeMap;
use std::sync::Arc;

use sha2::{Digest, Sha256};

/// Bytes of `VkPipelineCacheHeaderVersionOne`.
pub const HEADER_BYTES: usize = 32;
const MAGIC: &[u8; 4] = b"SNPC";
/// The body's layout version: bump when the entry layout changes.
const BODY_VERSION: u32 = 1;
const DIGEST_BYTES: usize = 32;

/// What identifies a compiled pipeline shader: SHA-256 of its inputs (see [`key`]).
pub type Key = [u8; 32];

/// A cached SPIR-V pipeline shader: the code object and what pipeline creation needs
/// besides it (the kernel to use and its workgroup size); the kernel descriptor, metadata
/// and reflection are in the code object and parsed from it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    pub kernel_name: String,
    pub workgroup_size: [u32; 3],
    pub elf: Vec<u8>,
}

/// The device a cache belongs to, as VkPipelineCacheHeaderVersionOne names it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Identity {
    pub vendor_id: u32,
    pub device_id: u32,
    pub uuid: [u8; 16],
}

/// The key of a compilation: length-prefixed fields, so different inputs never hash the
/// same bytes.
pub fn key(fields: &[&[u8]]) -> Key {
    let mut h = Sha256::new();
    h.update(b"softnavi pipeline cache key v1");
    for f in fields {
        h.update((f.len() as u64).to_le_bytes());
        h.update(f);
    }
    h.finalize().into()
}

/// The entries of one pipeline cache (ordered, so serialised data is deterministic).
#[derive(Default, Debug)]
pub struct Entries(pub BTreeMap<Key, Arc<Entry>>);

impl Entries {
    /// Serialises the cache into at most `max` bytes: the header and as many whole entries
    /// as fit (always valid initial data). Returns the bytes and whether every entry fit;
    /// `max` below the header size gives nothing.
    pub fn serialise(&self, id: &Identity, max: usize) -> (Vec<u8>, bool) {
        if max < HEADER_BYTES {
            return (Vec::new(), false);
        }
        let mut out = Vec::with_capacity(max.min(self.size(id)));
        out.extend_from_slice(&(HEADER_BYTES as u32).to_le_bytes());
        out.extend_from_slice(&1u32.to_le_bytes()); // VK_PIPELINE_CACHE_HEADER_VERSION_ONE
        out.extend_from_slice(&id.vendor_id.to_le_bytes());
        out.extend_from_slice(&id.device_id.to_le_bytes());
        out.extend_from_slice(&id.uuid);
        let empty_body = 12 + DIGEST_BYTES;
        if max < HEADER_BYTES + empty_body {
            return (out, self.0.is_empty() && max >= HEADER_BYTES);
        }
        let mut room = max - HEADER_BYTES - empty_body;
        let mut body = Vec::new();
        let mut count = 0u32;
        for (k, e) in &self.0 {
            let n = entry_bytes(e);
            if n > room {
                break;
            }
            room -= n;
            count += 1;
            body.extend_from_slice(k);
            body.extend_from_slice(&(e.kernel_name.len() as u32).to_le_bytes());
            body.extend_from_slice(e.kernel_name.as_bytes());
            for d in e.workgroup_size {
                body.extend_from_slice(&d.to_le_bytes());
            }
            body.extend_from_slice(&(e.elf.len() as u32).to_le_bytes());
            body.extend_from_slice(&e.elf);
        }
        let start = out.len();
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&BODY_VERSION.to_le_bytes());
        out.extend_from_slice(&count.to_le_bytes());
        out.extend_from_slice(&body);
        let digest = Sha256::digest(&out[start..]);
        out.extend_from_slice(&digest);
        (out, count as usize == self.0.len())
    }

    /// The bytes [`Entries::serialise`] writes with room for everything.
    pub fn size(&self, _id: &Identity) -> usize {
        HEADER_BYTES + 12 + DIGEST_BYTES + self.0.values().map(|e| entry_bytes(e)).sum::<usize>()
    }

    /// Parses initial data. `Err` says why the data is unusable (the caller logs it and
    /// starts empty); empty data is an empty cache.
    pub fn parse(data: &[u8], id: &Identity) -> Result<Entries, String> {
        if data.is_empty() {
            return Ok(Entries::default());
        }
        let mut r = Reader(data);
        let header_size = r.u32()?;
        let version = r.u32()?;
        let vendor = r.u32()?;
        let device = r.u32()?;
        let uuid = r.bytes(16)?;
        if header_size as usize != HEADER_BYTES {
            return Err(format!("header size {header_size}, expected {HEADER_BYTES}"));
        }
        if version != 1 {
            return Err(format!("header version {version}, expected VK_PIPELINE_CACHE_HEADER_VERSION_ONE"));
        }
        if vendor != id.vendor_id || device != id.device_id {
            return Err(format!(
                "data of vendor {vendor:#x} device {device:#x}, this is vendor {:#x} device {:#x}",
                id.vendor_id, id.device_id
            ));
        }
        if uuid != id.uuid {
            return Err("pipelineCacheUUID differs (another softnavi or compiler build)".into());
        }
        let body = r.0;
        if body.is_empty() {
            return Ok(Entries::default());
        }
        if body.len() < 12 + DIGEST_BYTES {
            return Err(format!("body of {} bytes is truncated", body.len()));
        }
        let (content, digest) = body.split_at(body.len() - DIGEST_BYTES);
        if Sha256::digest(content).as_slice() != digest {
            return Err("body checksum mismatch".into());
        }
        let mut r = Reader(content);
        if r.bytes(4)? != MAGIC {
            return Err("body magic is not SNPC".into());
        }
        let body_version = r.u32()?;
        if body_version != BODY_VERSION {
            return Err(format!("body version {body_version}, expected {BODY_VERSION}"));
        }
        let count = r.u32()?;
        let mut entries = Entries::default();
        for _ in 0..count {
            let mut k = [0u8; 32];
            k.copy_from_slice(r.bytes(32)?);
            let n = r.u32()? as usize;
            let name = std::str::from_utf8(r.bytes(n)?).map_err(|_| "a kernel name is not UTF-8".to_string())?;
            let workgroup_size = [r.u32()?, r.u32()?, r.u32()?];
            let n = r.u32()? as usize;
            let elf = r.bytes(n)?.to_vec();
            entries.0.insert(k, Arc::new(Entry { kernel_name: name.to_string(), workgroup_size, elf }));
        }
        if !r.0.is_empty() {
            return Err(format!("{} bytes after the last entry", r.0.len()));
        }
        Ok(entries)
    }
}

fn entry_bytes(e: &Entry) -> usize {
    32 + 4 + e.kernel_name.len() + 12 + 4 + e.elf.len()
}

/// Reads little-endian fields; running out of bytes is an error, never a panic.
struct Reader<'a>(&'a [u8]);

impl<'a> Reader<'a> {
    fn bytes(&mut self, n: usize) -> Result<&'a [u8], String> {
        if self.0.len() < n {
            return Err(format!("truncated: {n} bytes wanted, {} left", self.0.len()));
        }
        let (a, b) = self.0.split_at(n);
        self.0 = b;
        Ok(a)
    }

    fn u32(&mut self) -> Result<u32, String> {
        let b = self.bytes(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ID: Identity = Identity { vendor_id: 0x1002, device_id: 0x744c, uuid: [7; 16] };

    fn sample() -> Entries {
        let mut e = Entries::default();
        for i in 0..3u8 {
            let entry = Entry { kernel_name: format!("k{i}"), workgroup_size: [64, 1, i as u32], elf: vec![i; 100] };
            e.0.insert(key(&[&[i]]), Arc::new(entry));
        }
        e
    }

    #[test]
    fn round_trips_and_reports_its_size() {
        let e = sample();
        let (data, all) = e.serialise(&ID, usize::MAX);
        assert!(all);
        assert_eq!(data.len(), e.size(&ID));
        assert_eq!(&data[0..4], &32u32.to_le_bytes());
        assert_eq!(&data[16..32], &[7; 16]);
        let back = Entries::parse(&data, &ID).unwrap();
        assert_eq!(back.0, e.0);
    }

    #[test]
    fn a_short_buffer_gets_whole_entries_only_and_stays_valid() {
        let e = sample();
        let full = e.size(&ID);
        for max in [0, 31, 32, 40, full - 1, full - 150, full] {
            let (data, all) = e.serialise(&ID, max);
            assert!(data.len() <= max);
            assert_eq!(all, max >= full, "max {max}");
            let back = Entries::parse(&data, &ID).unwrap();
            assert!(back.0.len() <= 3);
            assert!(back.0.iter().all(|(k, v)| e.0.get(k) == Some(v)));
        }
    }

    #[test]
    fn foreign_data_is_rejected_by_name() {
        let (data, _) = sample().serialise(&ID, usize::MAX);
        let other = Identity { device_id: 1, ..ID };
        assert!(Entries::parse(&data, &other).unwrap_err().contains("device"));
        let other = Identity { uuid: [8; 16], ..ID };
        assert!(Entries::parse(&data, &other).unwrap_err().contains("UUID"));
        let mut bad = data.clone();
        let last = bad.len() - 40;
        bad[last] ^= 1;
        assert!(Entries::parse(&bad, &ID).unwrap_err().contains("checksum"));
        let mut bad = data.clone();
        bad[4] = 2;
        assert!(Entries::parse(&bad, &ID).unwrap_err().contains("version"));
    }

    /// Random, truncated and bit-flipped data never panics and never yields entries that
    /// were not in the original.
    #[test]
    fn fuzzed_initial_data_is_ignored_without_crashing() {
        let e = sample();
        let (data, _) = e.serialise(&ID, usize::MAX);
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            (state >> 33) as usize
        };
        for len in 0..data.len() {
            if let Ok(back) = Entries::parse(&data[..len], &ID) {
                assert!(back.0.is_empty() || len == data.len(), "truncated to {len}");
            }
        }
        for _ in 0..2000 {
            let mut d = data.clone();
            for _ in 0..1 + next() % 4 {
                let at = next() % d.len();
                d[at] ^= 1 << (next() % 8);
            }
            if let Ok(back) = Entries::parse(&d, &ID) {
                assert!(back.0.iter().all(|(k, v)| e.0.get(k) == Some(v)));
            }
            let n = next() % 300;
            let random: Vec<u8> = (0..n).map(|_| next() as u8).collect();
            let _ = Entries::parse(&random, &ID);
            let mut with_header = data[..HEADER_BYTES].to_vec();
            with_header.extend_from_slice(&random);
            assert!(Entries::parse(&with_header, &ID).map_or(true, |b| b.0.is_empty()));
        }
    }
}
