//! The typed intermediate form both back ends read: a list of nodes in dependency order
//! (every node's arguments come before it), each node once (equal nodes are shared), every
//! operation on constants already folded.

use std::collections::HashMap;

use super::ast::{BinaryOp, UnaryOp};
use super::functions::Func;
use super::types::{Type, Value};

/// A node's index in its [`Program`].
pub(crate) type NodeId = u32;

/// What a node computes from its arguments.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Op {
    /// A value, as [`Value::to_words`].
    Const([u32; 4]),
    /// The program's input of this index (an attribute, a parameter, time, ...).
    Input(u32),
    Unary(UnaryOp),
    Binary(BinaryOp),
    Call(Func),
    /// A float vector from its arguments' components in order (one f32: every component).
    Construct,
    /// A scalar converted to the node's type.
    Convert,
    /// Components picked by index (`len` of them).
    Swizzle {
        picks: [u8; 4],
        len: u8,
    },
    /// Uniform in [0, 1): a new number at each evaluation and call site; argument: the
    /// evaluation's seed (u32).
    Rand {
        site: u32,
    },
    /// Uniform in [0, 1), the same for a particle's whole life; arguments: the particle's
    /// seed and the stream (u32).
    ParticleRand,
    /// A curve's (f32) or gradient's (vec4) baked row, relative to the effect's first;
    /// arguments: the effect's first row (u32) and where to read it (f32).
    Table {
        row: u32,
    },
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Node {
    pub op: Op,
    pub args: Vec<NodeId>,
    pub ty: Type,
}

/// A declared input: its name in expressions and its type.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Input {
    pub name: String,
    pub ty: Type,
}

/// Expressions compiled together: the nodes they share and the inputs they read.
#[derive(Clone, Debug, Default)]
pub(crate) struct Program {
    nodes: Vec<Node>,
    index: HashMap<Node, NodeId>,
    pub inputs: Vec<Input>,
    /// Call sites of `rand()` so far (each a stream of its own).
    sites: u32,
}

impl Program {
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    pub fn node(&self, id: NodeId) -> &Node {
        &self.nodes[id as usize]
    }

    pub fn ty(&self, id: NodeId) -> Type {
        self.node(id).ty
    }

    /// The node, shared with an equal one already there.
    pub fn add(&mut self, node: Node) -> NodeId {
        if let Some(&id) = self.index.get(&node) {
            return id;
        }
        let id = self.nodes.len() as NodeId;
        self.nodes.push(node.clone());
        self.index.insert(node, id);
        id
    }

    pub fn constant(&mut self, value: Value) -> NodeId {
        self.add(Node {
            op: Op::Const(value.to_words()),
            args: Vec::new(),
            ty: value.ty(),
        })
    }

    /// The constant a node holds, if it is one.
    pub fn value(&self, id: NodeId) -> Option<Value> {
        match self.node(id).op {
            Op::Const(words) => Some(Value::from_words(self.ty(id), words)),
            _ => None,
        }
    }

    /// The input named `name` (declared once; a second declaration of another type is the
    /// caller's mistake and keeps the first).
    pub fn input(&mut self, name: &str, ty: Type) -> NodeId {
        let index = match self.inputs.iter().position(|i| i.name == name) {
            Some(i) => i,
            None => {
                self.inputs.push(Input {
                    name: name.to_string(),
                    ty,
                });
                self.inputs.len() - 1
            }
        };
        let ty = self.inputs[index].ty;
        self.add(Node {
            op: Op::Input(index as u32),
            args: Vec::new(),
            ty,
        })
    }

    /// A new call site for `rand()`.
    pub fn next_site(&mut self) -> u32 {
        self.sites += 1;
        self.sites - 1
    }

    /// The nodes `roots` depend on (themselves included), in order.
    pub fn reachable(&self, roots: &[NodeId]) -> Vec<bool> {
        let mut used = vec![false; self.nodes.len()];
        for &r in roots {
            used[r as usize] = true;
        }
        for i in (0..self.nodes.len()).rev() {
            if used[i] {
                for &a in &self.nodes[i].args {
                    used[a as usize] = true;
                }
            }
        }
        used
    }
}
