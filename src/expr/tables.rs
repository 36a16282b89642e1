//! Curves and gradients: keys an artist places, read by expressions (`curve(size, age /
//! lifetime)`, `gradient(flame, heat)`) from rows baked into one table the renderer shares,
//! so effects that differ only in their keys share their pipelines.

use serde::{Deserialize, Serialize};

use super::noise::{TABLE_SAMPLES, TABLE_STRIDE};

/// How a curve or gradient goes from one key to the next.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum Interpolation {
    /// Along a straight line.
    #[default]
    Linear,
    /// Along a cubic through the keys with the slope of its neighbours (Catmull-Rom), so the
    /// value has no corners.
    Smooth,
    /// Holding each key's value until the next key.
    Step,
}

/// A value at a position: `(position, value)` in a file.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Key<T>(pub f32, pub T);

/// Keys of f32 values, read with `curve(name, x)`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Curve {
    /// At least one, in ascending positions (two at one position make a jump).
    pub keys: Vec<Key<f32>>,
    /// Between keys (default: linear).
    #[serde(default)]
    pub interpolation: Interpolation,
}

/// Keys of colours (linear RGBA, straight alpha; components may exceed 1 for emission),
/// read with `gradient(name, x)` as a vec4.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Gradient {
    /// At least one, in ascending positions (two at one position make a jump).
    pub keys: Vec<Key<[f32; 4]>>,
    /// Between keys (default: linear).
    #[serde(default)]
    pub interpolation: Interpolation,
}

/// What is wrong with a curve's or gradient's keys.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
#[allow(missing_docs)]
pub enum KeysError {
    #[error("no keys: at least one is needed")]
    Empty,
    #[error("key {index}: position {position} is not a finite number")]
    Position { index: usize, position: f32 },
    #[error("key {index}: position {position} comes before the previous key's {previous}: keys go in ascending positions")]
    Order {
        index: usize,
        position: f32,
        previous: f32,
    },
    #[error("key {index}: value {value} is not a finite number")]
    Value { index: usize, value: f32 },
}

/// The texels of one baked row: head then samples.
pub(crate) type Row = [[f32; 4]; TABLE_STRIDE as usize];

/// Keys of `N` components, however they are stored.
fn check<const N: usize>(keys: &[(f32, [f32; N])]) -> Result<(), KeysError> {
    if keys.is_empty() {
        return Err(KeysError::Empty);
    }
    for (index, &(position, value)) in keys.iter().enumerate() {
        if !position.is_finite() {
            return Err(KeysError::Position { index, position });
        }
        if let Some(&value) = value.iter().find(|v| !v.is_finite()) {
            return Err(KeysError::Value { index, value });
        }
        if index > 0 && position < keys[index - 1].0 {
            return Err(KeysError::Order {
                index,
                position,
                previous: keys[index - 1].0,
            });
        }
    }
    Ok(())
}

/// The value at `x` of checked keys (outside them: the end keys' values).
fn at<const N: usize>(keys: &[(f32, [f32; N])], how: Interpolation, x: f32) -> [f32; N] {
    let last = keys.len() - 1;
    if x < keys[0].0 {
        return keys[0].1;
    }
    // the last key at or before x (with several at one position, the last of them)
    let i = keys.iter().rposition(|k| k.0 <= x).unwrap_or(0);
    if i == last {
        return keys[last].1;
    }
    let (t0, v0) = keys[i];
    let (t1, v1) = keys[i + 1];
    let span = t1 - t0;
    if how == Interpolation::Step || span <= 0.0 {
        return v0;
    }
    let s = (x - t0) / span;
    if how == Interpolation::Linear {
        return std::array::from_fn(|c| v0[c] + (v1[c] - v0[c]) * s);
    }
    // cubic Hermite with the slopes of the neighbouring keys (one-sided at the ends)
    let slope = |k: usize| -> [f32; N] {
        let (a, b) = (k.saturating_sub(1), (k + 1).min(last));
        let dt = keys[b].0 - keys[a].0;
        std::array::from_fn(|c| {
            if dt > 0.0 {
                (keys[b].1[c] - keys[a].1[c]) / dt
            } else {
                0.0
            }
        })
    };
    let (m0, m1) = (slope(i), slope(i + 1));
    let (s2, s3) = (s * s, s * s * s);
    let h00 = 2.0 * s3 - 3.0 * s2 + 1.0;
    let h10 = s3 - 2.0 * s2 + s;
    let h01 = -2.0 * s3 + 3.0 * s2;
    let h11 = s3 - s2;
    std::array::from_fn(|c| h00 * v0[c] + h10 * span * m0[c] + h01 * v1[c] + h11 * span * m1[c])
}

/// A row of `TABLE_SAMPLES` samples from the first key's position to the last's.
fn bake<const N: usize>(keys: &[(f32, [f32; N])], how: Interpolation) -> Row {
    let mut row = [[0.0; 4]; TABLE_STRIDE as usize];
    let (start, end) = (keys[0].0, keys[keys.len() - 1].0);
    let length = end - start;
    let scale = if length > 0.0 { 1.0 / length } else { 0.0 };
    row[0] = [start, scale, (how == Interpolation::Step) as u8 as f32, 0.0];
    for i in 0..TABLE_SAMPLES as usize {
        let x = start + length * i as f32 / (TABLE_SAMPLES - 1) as f32;
        let v = at(keys, how, x);
        row[1 + i][..N].copy_from_slice(&v);
    }
    row
}

impl Curve {
    fn pairs(&self) -> Vec<(f32, [f32; 1])> {
        self.keys.iter().map(|k| (k.0, [k.1])).collect()
    }

    /// Every key finite and in order.
    pub fn check(&self) -> Result<(), KeysError> {
        check(&self.pairs())
    }

    /// The exact value at `x` (the baked row approximates it); call on a checked curve.
    pub fn at(&self, x: f32) -> f32 {
        at(&self.pairs(), self.interpolation, x)[0]
    }

    pub(crate) fn bake(&self) -> Row {
        bake(&self.pairs(), self.interpolation)
    }
}

impl Gradient {
    fn pairs(&self) -> Vec<(f32, [f32; 4])> {
        self.keys.iter().map(|k| (k.0, k.1)).collect()
    }

    /// Every key finite and in order.
    pub fn check(&self) -> Result<(), KeysError> {
        check(&self.pairs())
    }

    /// The exact colour at `x` (the baked row approximates it); call on a checked gradient.
    pub fn at(&self, x: f32) -> [f32; 4] {
        at(&self.pairs(), self.interpolation, x)
    }

    pub(crate) fn bake(&self) -> Row {
        bake(&self.pairs(), self.interpolation)
    }
}

#[cfg(test)]
mod tests {
    use super::super::noise::table;
    use super::*;

    fn curve(keys: &[(f32, f32)], interpolation: Interpolation) -> Curve {
        Curve {
            keys: keys.iter().map(|&(t, v)| Key(t, v)).collect(),
            interpolation,
        }
    }

    /// The baked row read as the GPU reads it.
    fn read(row: &Row, x: f32) -> f32 {
        table(&row[..], 0, x)[0]
    }

    #[test]
    fn linear_keys_are_met_and_joined_by_lines() {
        let c = curve(
            &[(0.0, 0.0), (0.25, 1.0), (1.0, 0.5)],
            Interpolation::Linear,
        );
        c.check().unwrap();
        assert_eq!(c.at(0.25), 1.0);
        assert_eq!(c.at(-3.0), 0.0);
        assert_eq!(c.at(7.0), 0.5);
        assert!((c.at(0.125) - 0.5).abs() < 1e-6);
        let row = c.bake();
        let width = 1.0 / (TABLE_SAMPLES - 1) as f32;
        for i in 0..=1000 {
            let x = i as f32 / 1000.0;
            // the row cuts the corner at a key by at most half a sample's change
            let err = (read(&row, x) - c.at(x)).abs();
            assert!(err <= 4.0 * width / 2.0 + 1e-6, "{x}: {err}");
        }
        assert!((read(&row, 0.5) - c.at(0.5)).abs() < 1e-5);
    }

    #[test]
    fn smooth_keys_have_no_corners() {
        let c = curve(&[(0.0, 0.0), (0.5, 1.0), (1.0, 0.0)], Interpolation::Smooth);
        assert_eq!(c.at(0.5), 1.0);
        // the slope is continuous through the middle key: zero there (its neighbours are equal)
        let h = 1e-3;
        assert!((c.at(0.5 - h) - c.at(0.5 + h)).abs() < 1e-5);
        let row = c.bake();
        for i in 0..=100 {
            let x = i as f32 / 100.0;
            assert!((read(&row, x) - c.at(x)).abs() < 1e-3, "{x}");
        }
    }

    #[test]
    fn steps_hold_until_the_next_key() {
        let c = curve(&[(0.0, 1.0), (0.5, 2.0), (1.0, 3.0)], Interpolation::Step);
        assert_eq!(c.at(0.49), 1.0);
        assert_eq!(c.at(0.5), 2.0);
        assert_eq!(c.at(1.0), 3.0);
        let row = c.bake();
        assert_eq!(read(&row, 0.25), 1.0);
        assert_eq!(read(&row, 0.75), 2.0);
        assert_eq!(read(&row, 2.0), 3.0);
    }

    #[test]
    fn a_jump_is_two_keys_at_one_position() {
        let c = curve(
            &[(0.0, 0.0), (0.5, 0.0), (0.5, 1.0), (1.0, 1.0)],
            Interpolation::Linear,
        );
        c.check().unwrap();
        assert_eq!(c.at(0.499), 0.0);
        assert_eq!(c.at(0.5), 1.0);
    }

    #[test]
    fn one_key_is_a_constant() {
        let g = Gradient {
            keys: vec![Key(0.3, [1.0, 0.5, 0.25, 1.0])],
            interpolation: Interpolation::Smooth,
        };
        g.check().unwrap();
        let row = g.bake();
        for x in [-1.0, 0.3, 5.0] {
            assert_eq!(table(&row[..], 0, x), [1.0, 0.5, 0.25, 1.0]);
        }
    }

    #[test]
    fn bad_keys_are_named() {
        assert_eq!(
            curve(&[], Interpolation::Linear).check(),
            Err(KeysError::Empty)
        );
        let e = curve(
            &[(0.0, 1.0), (0.5, 1.0), (0.25, 1.0)],
            Interpolation::Linear,
        )
        .check()
        .unwrap_err();
        assert_eq!(
            e.to_string(),
            "key 2: position 0.25 comes before the previous key's 0.5: keys go in ascending positions"
        );
        let e = curve(&[(0.0, f32::NAN)], Interpolation::Linear)
            .check()
            .unwrap_err();
        assert_eq!(e.to_string(), "key 0: value NaN is not a finite number");
    }

    #[test]
    fn a_file_reads_keys_as_pairs() {
        let c: Curve =
            ron::from_str("(keys: [(0.0, 0.2), (0.3, 1.0), (1.0, 0.0)], interpolation: Smooth)")
                .unwrap();
        assert_eq!(c.keys[1], Key(0.3, 1.0));
        let g: Gradient =
            ron::from_str("(keys: [(0.0, (1.0, 1.0, 1.0, 1.0)), (1.0, (0.5, 0.5, 0.5, 0.0))])")
                .unwrap();
        assert_eq!(g.interpolation, Interpolation::Linear);
        assert_eq!(g.keys[1].1, [0.5, 0.5, 0.5, 0.0]);
    }
}
