//! `softnavi-spirv [FILTER...]`: runs the SPIR-V corpus of `tests/spirv/` (GLSL compute
//! shaders compiled by glslangValidator and SPIR-V assembly checked by spirv-val, built by
//! build.rs) through whichever Vulkan driver the loader picks (softnavi, or lavapipe as
//! the reference), and compares every result with a CPU reference computed here.
//!
//! Prints `CASE <name> PASS`, `CASE <name> SKIP <why>` (the device lacks a feature the
//! case needs) or `CASE <name> FAIL <why>` per case on stdout, and `=== case <name>` on
//! stderr before each, so that the driver's log can be attributed to a case. A shader of
//! the corpus that no case runs is a failure. A lost device is replaced and the run goes
//! on. Exits 0 when every case could be attempted. FILTERs are substrings of case names.
//! With `SOFTNAVI_SPIRV_VALIDATE` set, the Khronos validation layer runs too, and a case
//! that draws any message from it fails.

use std::collections::BTreeSet;
use std::process::ExitCode;

use ash::vk;
use softnavi_examples::{Context, ContextOptions, Error};

mod corpus {
    include!(concat!(env!("OUT_DIR"), "/spirv_corpus.rs"));
}
#[path = "spirv/arith.rs"]
mod arith;
#[path = "spirv/basic.rs"]
mod basic;
#[path = "spirv/control.rs"]
mod control;
#[path = "spirv/glsl450.rs"]
mod glsl450;
#[path = "spirv/harness.rs"]
mod harness;
#[path = "spirv/images.rs"]
mod images;
#[path = "spirv/memory.rs"]
mod memory;
#[path = "spirv/subgroup.rs"]
mod subgroup;
#[path = "spirv/texref.rs"]
mod texref;
#[path = "spirv/vk13.rs"]
mod vk13;

use harness::Case;

fn all_cases() -> Vec<Case> {
    let mut all = basic::cases();
    all.extend(memory::cases());
    all.extend(arith::cases());
    all.extend(subgroup::cases());
    all.extend(glsl450::cases());
    all.extend(control::cases());
    all.extend(vk13::cases());
    all.extend(images::cases());
    all
}

fn context() -> Result<Context, Error> {
    Context::new(&ContextOptions {
        compute_only_queue: true,
        app_name: "softnavi-spirv",
        device_filter: None,
        validate: std::env::var_os("SOFTNAVI_SPIRV_VALIDATE").is_some(),
        shader_features: true,
    })
}

/// Validation messages so far (with SOFTNAVI_SPIRV_VALIDATE; 0 without).
fn validation_messages(ctx: &Context) -> usize {
    ctx.validation_counter().map_or(0, |c| c.load(std::sync::atomic::Ordering::Relaxed))
}

fn main() -> ExitCode {
    let filter: Vec<String> = std::env::args().skip(1).collect();
    let cases = all_cases();
    let mut names = BTreeSet::new();
    let used: BTreeSet<&str> = cases.iter().map(|c| c.shader).collect();
    let mut ctx = match context() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("no Vulkan device: {e:?}");
            return ExitCode::from(1);
        }
    };
    eprintln!("device: {} {:?}", ctx.device_name(), ctx.shader_features());
    for (name, _) in corpus::CORPUS.iter().filter(|(n, _)| !used.contains(n)) {
        println!("CASE {name} FAIL no case runs this shader");
    }
    for case in cases.iter().filter(|c| filter.is_empty() || filter.iter().any(|f| c.name.contains(f.as_str()))) {
        if !names.insert(case.name.clone()) {
            println!("CASE {} FAIL duplicate case name", case.name);
            continue;
        }
        let Some((_, bytes)) = corpus::CORPUS.iter().find(|(n, _)| *n == case.shader) else {
            println!("CASE {} FAIL no shader {} in tests/spirv", case.name, case.shader);
            continue;
        };
        if let Some(why) = harness::skip_reason(&ctx, case) {
            println!("CASE {} SKIP {why}", case.name);
            continue;
        }
        eprintln!("=== case {}", case.name);
        let messages = validation_messages(&ctx);
        let verdict = match softnavi_examples::spirv_words(bytes).and_then(|w| harness::run(&ctx, &w, case)) {
            Ok(out) => match (case.check)(&out) {
                Ok(()) => "PASS".to_string(),
                Err(e) => format!("FAIL wrong results: {e}"),
            },
            Err(e) => {
                if matches!(e, Error::Vulkan { result: vk::Result::ERROR_DEVICE_LOST, .. }) {
                    match context() {
                        Ok(c) => ctx = c,
                        Err(e2) => {
                            println!("CASE {} FAIL {e:?}; no new device: {e2:?}", case.name);
                            return ExitCode::from(1);
                        }
                    }
                }
                format!("FAIL {e:?}")
            }
        };
        let verdict = match validation_messages(&ctx) - messages {
            0 => verdict,
            n if verdict == "PASS" => format!("FAIL {n} validation messages (on stderr)"),
            n => format!("{verdict}; {n} validation messages"),
        };
        println!("CASE {} {verdict}", case.name);
    }
    eprintln!("=== end");
    ExitCode::SUCCESS
}
