//! The messages between the compile server (`softnavi-llvmd`, [`super::serve`]) and its
//! client ([`super::server`]): one frame each way per compile, over a Unix socket that is
//! the server's stdin and stdout. A frame is a tag byte, a little-endian `u32` payload
//! length, and the payload.
//!
//! | tag | from   | payload |
//! |-----|--------|---------|
//! | `H` | server | hello: the libLLVM it loaded (sent once, at start) |
//! | `N` | server | no LLVM: why libLLVM 19 cannot be used (then it exits) |
//! | `C` | client | compile: flags byte (bit 0: wave64), then the IR text |
//! | `J` | client | host compile (the translation tier): passes, triple, CPU, features, data layout, IR text, NUL between each |
//! | `O` | server | the ET_REL code object (or host object) |
//! | `L` | server | LLVM's diagnostics for an invalid module: tool, NUL, log |
//! | `F` | server | a fatal error: LLVM's reason (the server exits next) |

use std::io::{Read, Write};

use llvm::host::HostTarget;

pub(super) const HELLO: u8 = b'H';
pub(super) const NO_LLVM: u8 = b'N';
pub(super) const COMPILE: u8 = b'C';
pub(super) const HOST_COMPILE: u8 = b'J';
pub(super) const OBJECT: u8 = b'O';
pub(super) const LLVM_ERROR: u8 = b'L';
pub(super) const FATAL: u8 = b'F';

/// Compile flag: wave64.
pub(super) const WAVE64: u8 = 1;

/// No frame is larger (a shader's IR or code object is far smaller); a larger length is
/// a corrupt stream.
const MAX_PAYLOAD: u32 = 1 << 30;

/// A `J` request: the IR comes last, so that it is the rest of the payload whatever it
/// holds; the other fields are C strings for LLVM, without NULs.
pub(super) fn host_compile(ir: &str, passes: &str, t: &HostTarget) -> Vec<u8> {
    let fields = [passes, &t.triple, &t.cpu, &t.features, &t.layout];
    let mut parts: Vec<&[u8]> = fields.iter().flat_map(|f| [f.as_bytes(), b"\0"]).collect();
    parts.push(ir.as_bytes());
    frame(HOST_COMPILE, &parts)
}

/// The IR, passes and target of a `J` payload.
pub(super) fn parse_host_compile(payload: &[u8]) -> Result<(&str, &str, HostTarget), String> {
    let text = std::str::from_utf8(payload).map_err(|e| format!("the request is not UTF-8: {e}"))?;
    let f: Vec<&str> = text.splitn(6, '\0').collect();
    let [passes, triple, cpu, features, layout, ir] = f[..] else {
        return Err(format!("a host compile request has {} fields, not 6", f.len()));
    };
    let t = HostTarget { triple: triple.into(), cpu: cpu.into(), features: features.into(), layout: layout.into() };
    Ok((ir, passes, t))
}

/// One frame as bytes (written with one `write_all`, so a frame is never interleaved).
pub(super) fn frame(tag: u8, parts: &[&[u8]]) -> Vec<u8> {
    let len: usize = parts.iter().map(|p| p.len()).sum();
    let mut out = Vec::with_capacity(5 + len);
    out.push(tag);
    out.extend_from_slice(&(len as u32).to_le_bytes());
    for p in parts {
        out.extend_from_slice(p);
    }
    out
}

pub(super) fn write_frame(w: &mut impl Write, tag: u8, parts: &[&[u8]]) -> std::io::Result<()> {
    w.write_all(&frame(tag, parts))?;
    w.flush()
}

/// The next frame, `None` at a clean end of stream (between frames).
pub(super) fn read_frame(r: &mut impl Read) -> std::io::Result<Option<(u8, Vec<u8>)>> {
    let mut head = [0u8; 5];
    // A signal the application handles must not read as the server's end.
    let first = loop {
        match r.read(&mut head[..1]) {
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            other => break other?,
        }
    };
    if first == 0 {
        return Ok(None);
    }
    r.read_exact(&mut head[1..])?;
    let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]);
    if len > MAX_PAYLOAD {
        return Err(std::io::Error::new(std::io::ErrorKind::InvalidData, format!("frame of {len} bytes")));
    }
    let mut payload = vec![0; len as usize];
    r.read_exact(&mut payload)?;
    Ok(Some((head[0], payload)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_end_cleanly() {
        let mut bytes = frame(COMPILE, &[&[WAVE64], b"define"]);
        bytes.extend(frame(OBJECT, &[]));
        let mut r = &bytes[..];
        assert_eq!(read_frame(&mut r).unwrap(), Some((COMPILE, b"\x01define".to_vec())));
        assert_eq!(read_frame(&mut r).unwrap(), Some((OBJECT, Vec::new())));
        assert_eq!(read_frame(&mut r).unwrap(), None);
        // A stream cut inside a frame is an error, not an end.
        assert!(read_frame(&mut &frame(OBJECT, &[b"abc"])[..4]).is_err());
        assert!(read_frame(&mut &[OBJECT, 0xff, 0xff, 0xff, 0xff][..]).is_err());
    }

    #[test]
    fn host_compiles_round_trip() {
        let t =
            HostTarget { triple: "x86_64".into(), cpu: "znver4".into(), features: "+avx2".into(), layout: "e".into() };
        let ir = "define void @f() {\n  ret void\n}\0tail";
        let (tag, payload) = read_frame(&mut &host_compile(ir, "default<O2>", &t)[..]).unwrap().unwrap();
        assert_eq!(tag, HOST_COMPILE);
        assert_eq!(parse_host_compile(&payload).unwrap(), (ir, "default<O2>", t));
        assert!(parse_host_compile(b"default<O2>\0x86_64").is_err());
    }
}
