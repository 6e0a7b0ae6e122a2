//! What the scenario apps (`tests/src/bin`) share: a context from their command line
//! (`--validate` turns the validation layer on) and the report of their cases, one
//! `PASS name` / `FAIL name: why` line each, whose exit status the tests read: 0 when every
//! case passes, 1 on a mismatch, 2 on a Vulkan error, 3 on validation messages.

use std::process::ExitCode;
use std::sync::atomic::Ordering;

use softnavi_examples::{Context, ContextOptions, Error};

/// The context of app `app` (every shader feature on; a compute-only queue family if asked
/// and there is one); prints the device. `Err` is the exit status after a failure.
pub fn context(app: &str, compute_only_queue: bool) -> Result<Context, ExitCode> {
    let validate = std::env::args().any(|a| a == "--validate");
    let options =
        ContextOptions { app_name: app, device_filter: None, validate, shader_features: true, compute_only_queue };
    match Context::new(&options) {
        Ok(c) => {
            println!("device: {}", c.device_name());
            Ok(c)
        }
        Err(e) => {
            eprintln!("{app}: {e}");
            Err(ExitCode::from(2))
        }
    }
}

/// A case's outcome: `Ok(Err(why))` a mismatch, `Err` a Vulkan error.
pub type Outcome = Result<Result<(), String>, Error>;

/// The cases' lines and the exit status they make.
#[derive(Default)]
pub struct Report {
    code: u8,
}

impl Report {
    pub fn case(&mut self, name: &str, r: Outcome) {
        match r {
            Ok(Ok(())) => println!("PASS {name}"),
            Ok(Err(why)) => {
                println!("FAIL {name}: {why}");
                self.code = self.code.max(1);
            }
            Err(e) => {
                println!("FAIL {name}: {e}");
                self.code = 2;
            }
        }
    }

    /// The exit status, after the validation layer's count (with `--validate`).
    pub fn finish(mut self, ctx: &Context) -> ExitCode {
        if let Some(v) = ctx.validation_counter() {
            let n = v.load(Ordering::Relaxed);
            println!("validation: {n} error/warning messages");
            if n > 0 && self.code == 0 {
                self.code = 3;
            }
        }
        ExitCode::from(self.code)
    }
}
