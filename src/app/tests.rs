//! The program's own unit tests: the stand-in scene's and the editor's WGSL and their Rust
//! mirrors, the progress line.

use crate::host::stage::{HostQuad, HostUniforms, STAGE_WGSL};
use encase::ShaderType;

fn stage_module() -> naga::Module {
    validated("stage.wgsl", STAGE_WGSL)
}

/// The program's WGSL file `name` of `source`, parsed and validated.
fn validated(name: &str, source: &str) -> naga::Module {
    let module = naga::front::wgsl::parse_str(source)
        .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    naga::valid::Validator::new(
        naga::valid::ValidationFlags::all(),
        naga::valid::Capabilities::default(),
    )
    .validate(&module)
    .unwrap_or_else(|e| panic!("{name}: {}", e.emit_to_string(source)));
    module
}

/// The HDR host's bloom and tonemap validate, and their parameters mirror the shader's.
#[test]
fn post_wgsl_validates_and_its_params_match_their_mirror() {
    use crate::host::post::{PostParams, POST_WGSL};
    let module = validated("post.wgsl", POST_WGSL);
    let (size, members) = layout_of(&module, "PostParams");
    assert_eq!(size as u64, PostParams::min_size().get());
    let names: Vec<&str> = members.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(names, ["texel", "threshold", "strength", "exposure"]);
    let offsets: Vec<u32> = members.iter().map(|m| m.1).collect();
    assert_eq!(offsets, [0, 8, 12, 16]);
}

/// The editor's blit validates (the full-screen triangle put before it).
#[test]
fn blit_wgsl_validates() {
    let module = validated("blit.wgsl", crate::edit::blit::BLIT_WGSL);
    assert!(module.entry_points.iter().any(|e| e.name == "fs_main"));
}

/// Size and member offsets of WGSL struct `name`.
fn layout_of(module: &naga::Module, name: &str) -> (u32, Vec<(String, u32)>) {
    let mut layouter = naga::proc::Layouter::default();
    layouter.update(module.to_ctx()).expect("layout");
    for (handle, ty) in module.types.iter() {
        if ty.name.as_deref() == Some(name) {
            if let naga::TypeInner::Struct { members, span } = &ty.inner {
                assert_eq!(layouter[handle].size, *span);
                let m = members
                    .iter()
                    .map(|m| (m.name.clone().unwrap_or_default(), m.offset))
                    .collect();
                return (*span, m);
            }
        }
    }
    panic!("struct {name} not in the module");
}

#[test]
fn stage_structs_match_their_rust_mirrors() {
    let module = stage_module();
    let (size, members) = layout_of(&module, "HostQuad");
    assert_eq!(size as u64, HostQuad::min_size().get());
    let offsets: Vec<u32> = members.iter().map(|m| m.1).collect();
    assert_eq!(offsets, [0, 16, 32, 48], "center, u, v, color are vec4s");
    let (size, members) = layout_of(&module, "HostUniforms");
    assert_eq!(size as u64, HostUniforms::min_size().get());
    let names: Vec<&str> = members.iter().map(|m| m.0.as_str()).collect();
    assert_eq!(names, ["view_proj", "terrain", "quads"]);
    let offsets: Vec<u32> = members.iter().map(|m| m.1).collect();
    assert_eq!(offsets, [0, 64, 80]);
}

#[test]
fn the_progress_line_says_where_a_run_is() {
    use std::time::Duration;
    let line = crate::progress::line("snow", 120, 600, Duration::from_secs(30));
    assert_eq!(line, "snow: frame 120/600 (20%), 4.0 frames/s, 2m00s left");
    let start = crate::progress::line("galaxy", 0, 600, Duration::from_millis(5));
    assert!(start.ends_with("? left"), "{start}");
    let late = crate::progress::line("g", 1, 10_000, Duration::from_secs(10));
    assert!(late.ends_with("27h46m left"), "{late}");
}
