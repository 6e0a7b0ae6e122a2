//! `softnavi-llvmd`: the shader compiler's server. The ICD starts it (found next to
//! `libsoftnavi_icd.so`) so that libLLVM 19 runs outside the application: an LLVM fatal
//! error or crash ends this process, not the application (compiler-bridge's
//! `llvm::server`, docs/ARCHITECTURE.md "Shader compilation").

fn main() {
    if std::env::args().nth(1).as_deref() != Some("--serve") {
        eprintln!("softnavi-llvmd compiles shaders for the softnavi Vulkan driver, which starts it with --serve");
        std::process::exit(2);
    }
    std::process::exit(compiler_bridge::llvm::serve());
}
