//! SPIR-V types: their LLVM spelling and their memory layout.

use spirv::StorageClass;

use super::Id;

/// A SPIR-V type, with what lowering needs resolved (array lengths are evaluated, with
/// specialisation applied). A matrix is `count` columns of vector type `col`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Type {
    Void,
    Bool,
    Int {
        width: u32,
        signed: bool,
    },
    Float {
        width: u32,
    },
    Vector {
        elem: Id,
        count: u32,
    },
    Matrix {
        col: Id,
        count: u32,
    },
    Array {
        elem: Id,
        len: u32,
    },
    RuntimeArray {
        elem: Id,
    },
    Struct {
        members: Vec<Id>,
    },
    Pointer {
        storage: StorageClass,
        pointee: Id,
    },
    Function {
        ret: Id,
        params: Vec<Id>,
    },
    /// An image (`OpTypeImage`, [`super::image`]). A texel buffer (`dim` Buffer, or an
    /// `OpTypeSampledImage` of one) is the 16-byte V# of the buffer view; any other image is
    /// the view's 32-byte T# (`<8 x i32>`). `sampled` is the image's Sampled operand: 1
    /// for sampled images and uniform texel buffers, 2 for storage ones.
    Image {
        sampled_ty: Id,
        sampled: u32,
        dim: spirv::Dim,
        arrayed: bool,
        ms: bool,
    },
    /// `OpTypeSampler`: the 16-byte S# (`<4 x i32>`).
    Sampler,
    /// `OpTypeSampledImage` of an image that is not a texel buffer: its T# and the
    /// sampler's S# (`<12 x i32>`, T# first).
    SampledImage {
        image: Id,
    },
}

/// How a storage class lays out memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Rule {
    /// `Offset` / `ArrayStride` decorations (externally visible memory).
    Explicit,
    /// Our own scalar-aligned layout, for storage the application never sees.
    Natural,
}

/// LLVM address space and layout rule of a storage class, or `None` when not supported.
pub(crate) fn storage_info(storage: StorageClass) -> Option<(u32, Rule)> {
    Some(match storage {
        // Buffer fat pointers (V# + offset): MUBUF accesses with range checking.
        StorageClass::StorageBuffer | StorageClass::Uniform => (7, Rule::Explicit),
        // Push constants live in the kernarg segment.
        StorageClass::PushConstant => (4, Rule::Explicit),
        // Flat global addresses (VK_KHR_buffer_device_address), laid out explicitly.
        StorageClass::PhysicalStorageBuffer => (1, Rule::Explicit),
        StorageClass::Workgroup => (3, Rule::Natural),
        // Built-in inputs and Private variables are allocas in the kernel, like Function ones.
        StorageClass::Function | StorageClass::Private | StorageClass::Input => (5, Rule::Natural),
        // Texel buffer variables: a pointer to one is the address of its V# in descriptor
        // memory (arrays of them are 16 bytes apart, as the ABI lays descriptors out).
        StorageClass::UniformConstant => (4, Rule::Natural),
        _ => return None,
    })
}

/// `ptr addrspace(N)`.
pub(crate) fn ptr_ty(addrspace: u32) -> String {
    if addrspace == 0 {
        "ptr".into()
    } else {
        format!("ptr addrspace({addrspace})")
    }
}

pub(crate) fn align_up(v: u64, a: u64) -> u64 {
    v.div_ceil(a.max(1)).saturating_mul(a.max(1))
}

/// The LLVM intrinsic type suffix of a scalar or vector LLVM type: `f32`, `v4i32`.
pub(crate) fn intrinsic_suffix(llty: &str) -> String {
    let scalar = |s: &str| match s {
        "float" => "f32".to_string(),
        "double" => "f64".to_string(),
        "half" => "f16".to_string(),
        other => other.to_string(), // iN
    };
    match llty.strip_prefix('<').and_then(|s| s.strip_suffix('>')) {
        Some(inner) => {
            let mut parts = inner.split(" x ");
            let n = parts.next().unwrap_or("0");
            let elem = parts.next().unwrap_or("");
            format!("v{n}{}", scalar(elem))
        }
        None => scalar(llty),
    }
}
