//! WGSL sources: `shaders/common.wgsl` prepended to each pass's file.

/// Structs, constants and helpers shared by every pass.
pub const COMMON: &str = include_str!("../shaders/common.wgsl");

/// The WGSL passes, by file stem.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shader {
    Emit,
    Args,
    Simulate,
    Cull,
    Sort,
    Draw,
    Tonemap,
}

impl Shader {
    /// Every pass, for validation.
    pub const ALL: [Shader; 7] = [
        Shader::Emit,
        Shader::Args,
        Shader::Simulate,
        Shader::Cull,
        Shader::Sort,
        Shader::Draw,
        Shader::Tonemap,
    ];

    /// File stem under `shaders/`.
    pub fn name(self) -> &'static str {
        match self {
            Shader::Emit => "emit",
            Shader::Args => "args",
            Shader::Simulate => "simulate",
            Shader::Cull => "cull",
            Shader::Sort => "sort",
            Shader::Draw => "draw",
            Shader::Tonemap => "tonemap",
        }
    }

    fn body(self) -> &'static str {
        match self {
            Shader::Emit => include_str!("../shaders/emit.wgsl"),
            Shader::Args => include_str!("../shaders/args.wgsl"),
            Shader::Simulate => include_str!("../shaders/simulate.wgsl"),
            Shader::Cull => include_str!("../shaders/cull.wgsl"),
            Shader::Sort => include_str!("../shaders/sort.wgsl"),
            Shader::Draw => include_str!("../shaders/draw.wgsl"),
            Shader::Tonemap => include_str!("../shaders/tonemap.wgsl"),
        }
    }

    /// The composed module source: common.wgsl followed by the pass.
    pub fn source(self) -> String {
        format!(
            "{COMMON}\n// ---- {}.wgsl ----\n{}",
            self.name(),
            self.body()
        )
    }

    /// Create the shader module on `device`.
    pub fn module(self, device: &wgpu::Device) -> wgpu::ShaderModule {
        device.create_shader_module(wgpu::ShaderModuleDescriptor {
            label: Some(self.name()),
            source: wgpu::ShaderSource::Wgsl(self.source().into()),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_composed_module_validates() {
        for shader in Shader::ALL {
            let src = shader.source();
            let module = naga::front::wgsl::parse_str(&src)
                .unwrap_or_else(|e| panic!("{}.wgsl: {}", shader.name(), e.emit_to_string(&src)));
            naga::valid::Validator::new(
                naga::valid::ValidationFlags::all(),
                naga::valid::Capabilities::default(),
            )
            .validate(&module)
            .unwrap_or_else(|e| panic!("{}.wgsl: {}", shader.name(), e.emit_to_string(&src)));
        }
    }
}
