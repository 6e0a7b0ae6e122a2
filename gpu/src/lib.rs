//! softnavi's GPU: a multithreaded software model of an AMD RDNA3 (gfx1100).
//!
//! The blocks follow the hardware: [`mem`] (GPU virtual memory), [`cp`] (command
//! processor), [`spi`] (wave launch), [`wgp`] (workgroup processors), [`isa`] (decoder,
//! disassembler, executor), [`jit`] (the translation tier). [`winsys`] is the only way in, [`pm4`] the packet and register
//! definitions shared with the ICD. Nothing here knows about Vulkan.

pub mod addr;
mod cp;
pub mod format;
pub mod info;
pub mod isa;
pub mod jit;
pub mod mem;
pub mod pm4;
pub mod report;
pub mod rsrc;
pub mod spi;
pub mod wgp;
pub mod winsys;

pub use info::{ChipInfo, Config};
pub use report::{Report, ReportKind};
pub use winsys::{Device, DeviceStats, DispatchRecord, Ib, Queue, QueueKind, Status, SubmitError, TrapHandlerError};
