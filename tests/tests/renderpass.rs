//! A render pass instance without draws (`softnavi-renderpass`, tests/src/bin/renderpass.rs):
//! load-operation clears over a partial render area, `vkCmdClearAttachments` and a subpass
//! resolve, through a render pass, an imageless framebuffer and dynamic rendering, against the expected images the app computes from the specification, on
//! softnavi (its compute family: the validation layer would object to render pass
//! commands there) and on lavapipe with the validation layer.

use softnavi_tests::env::{lavapipe_manifest, output, softnavi_manifest, target_dir, vk_command};

#[test]
fn render_pass_clears_and_resolves_on_softnavi() {
    let (o, out, err) = output(vk_command(&target_dir().join("softnavi-renderpass"), &softnavi_manifest()));
    assert!(o.status.success(), "{out}\n{err}");
    let cases = [
        "load_clears_clear_attachments_resolve",
        "imageless_framebuffer",
        "dynamic_rendering",
        "depth_stencil_resolve",
    ];
    for case in cases {
        assert!(out.contains(&format!("PASS {case}")), "{case}:\n{out}\n{err}");
    }
    // The resolve shader's sRGB path calls exp2f/log2f; this app does not link libm, so
    // the translation tier must find them itself (llvm::host::global_libm).
    assert!(!err.contains("translation failed"), "{err}");
}

#[test]
fn render_pass_clears_and_resolves_on_lavapipe() {
    let mut cmd = vk_command(&target_dir().join("softnavi-renderpass"), &lavapipe_manifest());
    cmd.arg("--validate");
    let (o, out, err) = output(cmd);
    assert!(o.status.success(), "{out}\n{err}");
    assert!(out.contains("validation: 0 error/warning messages"), "{out}\n{err}");
}
