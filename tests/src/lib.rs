//! Helpers shared by the end-to-end test binaries.

pub mod app;
pub mod check;
pub mod dispatch;
pub mod env;
pub mod image;
pub mod pipeline;
pub mod validation;
