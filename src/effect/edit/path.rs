//! Paths as validation names fields (`emitters[0].shape.Sphere.radius`, `bounds.min[1]`),
//! followed through an effect serialised as JSON.

/// What is at `path` of `tree` (None: nothing, or null).
pub(super) fn at<'a>(tree: &'a serde_json::Value, path: &str) -> Option<&'a serde_json::Value> {
    let found = steps(path).try_fold(tree, |v, step| match step {
        Step::Key(k) => v.get(k),
        Step::Index(i) => v.get(i),
    })?;
    (!found.is_null()).then_some(found)
}

/// Set what is at `path` of `tree` to `value`, adding it where a default left it out; None
/// where the path leads nowhere.
pub(super) fn set(
    tree: &mut serde_json::Value,
    path: &str,
    value: serde_json::Value,
) -> Option<()> {
    let all: Vec<Step> = steps(path).collect();
    let (last, parents) = all.split_last()?;
    let parent = parents.iter().try_fold(tree, |v, step| match *step {
        Step::Key(k) => v.get_mut(k),
        Step::Index(i) => v.get_mut(i),
    })?;
    match *last {
        Step::Key(k) => {
            parent.as_object_mut()?.insert(k.to_string(), value);
        }
        Step::Index(i) => *parent.get_mut(i)? = value,
    }
    Some(())
}

#[derive(Clone, Copy)]
enum Step<'a> {
    Key(&'a str),
    Index(usize),
}

/// A path's steps: `a.b[2][1].c` is a, b, 2, 1, c.
fn steps(path: &str) -> impl Iterator<Item = Step<'_>> {
    path.split('.').flat_map(|part| {
        let (key, indices) = part.split_once('[').unwrap_or((part, ""));
        let key = (!key.is_empty()).then_some(Step::Key(key));
        let indices = (indices.split('['))
            .filter(|s| !s.is_empty())
            .map(|s| Step::Index(s.trim_end_matches(']').parse().unwrap_or(usize::MAX)));
        key.into_iter().chain(indices)
    })
}
