//! What an effect's stacks become on the GPU, for a reader: the WGSL its emit and simulate
//! passes compile in, and what was folded into the built-in fields so that it generates no
//! code (`flurry check --wgsl` prints it).

use super::graph::{Graph, Stage};
use super::EffectDesc;
use crate::error::Result;

/// An effect's generated code ([`EffectDesc::generated_code`]).
#[derive(Clone, Debug, PartialEq)]
pub struct GeneratedCode {
    /// The code the emit pass compiles in for it: the hooks a particle's birth calls (its
    /// init stacks, its own attributes' first values, its draw stacks as it is born) and
    /// the functions they call. The pass compiles it after the declarations and the
    /// expression library every generated block starts with. None: the effect's emit is
    /// the shared one.
    pub emit: Option<String>,
    /// The code the simulate pass compiles in for it, likewise: the update stacks every
    /// step, then the draw stacks. None: the effect's simulate is the shared one.
    pub simulate: Option<String>,
    /// What was folded out of the stacks into the built-in fields, one sentence each.
    pub folded: Vec<String>,
}

impl EffectDesc {
    /// What its stacks generate, after folding (validated first: a bad effect is the same
    /// error [`EffectDesc::validate`] gives).
    pub fn generated_code(&self) -> Result<GeneratedCode> {
        let problems = self.problems();
        if !problems.is_empty() {
            let path = None;
            return Err(crate::Error::EffectInvalid { path, problems });
        }
        let graph = self.compiled(None)?;
        let block = |stage| graph.generates(stage).then(|| graph.hooks(stage));
        Ok(GeneratedCode {
            emit: block(Stage::Init),
            simulate: block(Stage::Update),
            folded: folded(self, &graph),
        })
    }
}

/// What `graph` folded of `desc`'s stacks, in words.
fn folded(desc: &EffectDesc, graph: &Graph) -> Vec<String> {
    let mut said = Vec::new();
    if graph.folded.is_some() {
        let mut params = desc.effect_params(0, 1);
        let own = (params.gravity, params.drag, params.wind, params.turbulence);
        graph.fold_into(&mut params);
        let v = |v: glam::Vec3| format!("({}, {}, {})", v.x, v.y, v.z);
        let mut s = format!(
            "the update stacks' forces: gravity {} → {}, drag {} → {}, wind {} → {}",
            v(own.0),
            v(params.gravity),
            own.1,
            params.drag,
            v(own.2),
            v(params.wind),
        );
        if params.turbulence != own.3 {
            s += &format!(
                ", turbulence {} m/s over {} m",
                params.turbulence, params.turbulence_scale
            );
        }
        said.push(s);
    }
    for (e, look) in &graph.looks {
        let [r, g, b, a] = look.color_end;
        said.push(format!(
            "emitters[{e}].draw: over_life (color_end: ({r}, {g}, {b}, {a}), size_end: {})",
            look.size_end
        ));
    }
    for (e, emitter) in desc.emitters.iter().enumerate() {
        let gone = |lines: &[crate::expr::Statement], stack: &[Option<_>]| {
            !lines.is_empty() && stack.get(e).is_none_or(Option::is_none)
        };
        if gone(&emitter.update, &graph.update) {
            said.push(format!("emitters[{e}].update: every line folded, no code"));
        }
        if gone(&emitter.draw, &graph.draw) {
            said.push(format!("emitters[{e}].draw: every line folded, no code"));
        }
    }
    said
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::effect::{EmitterDesc, Forces};

    fn effect(update: &[&str], draw: &[&str]) -> EffectDesc {
        let lines = |v: &[&str]| v.iter().map(|l| l.parse().unwrap()).collect();
        EffectDesc {
            emitters: vec![EmitterDesc {
                rate: 10.0,
                update: lines(update),
                draw: lines(draw),
                ..Default::default()
            }],
            forces: Forces::NONE,
            ..Default::default()
        }
    }

    /// A force that is a gravity is folded, and said so; what is left generates code.
    #[test]
    fn a_folded_force_is_said_and_the_rest_generated() {
        let code = effect(&["force += vec3(0.0, -2.0, 0.0)", "kill if age > 0.5"], &[])
            .generated_code()
            .unwrap();
        assert_eq!(code.folded.len(), 1, "{:?}", code.folded);
        assert!(code.folded[0].contains("gravity (0, 0, 0) → (0, -2, 0)"));
        let simulate = code.simulate.expect("the kill generates");
        assert!(simulate.contains("return !("), "{simulate}");
        assert!(
            code.emit.is_none(),
            "no init stack, no attributes: the shared emit"
        );
    }

    /// A stack folded whole generates nothing, and is said so.
    #[test]
    fn a_stack_folded_whole_generates_nothing() {
        let code = effect(&["force += vec3(1.0, 0.0, 0.0)"], &[])
            .generated_code()
            .unwrap();
        assert!(code.simulate.is_none());
        assert!(code
            .folded
            .contains(&"emitters[0].update: every line folded, no code".to_string()));
    }

    /// No stacks: nothing generated, nothing folded.
    #[test]
    fn an_effect_without_stacks_generates_nothing() {
        let code = effect(&[], &[]).generated_code().unwrap();
        assert_eq!(
            code,
            GeneratedCode {
                emit: None,
                simulate: None,
                folded: vec![]
            }
        );
    }
}
