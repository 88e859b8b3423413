//! A package's YAML files read within bounds: a size cap and a nesting depth found by one
//! cheap pass before the parser sees the text. libyaml (under serde_norway) takes minutes on
//! 200,000 nested brackets before serde's own recursion limit is reached, ignoring Ctrl-C.

use std::path::Path;

use serde_norway::Value;

use super::FileError;
use super::PackageError;
use crate::compile::submit::read_at_most;

/// Larger than any package's YAML (BAPCtools' generators.yaml of a big problem is tens of KiB).
pub const MAX_BYTES: u64 = 4 << 20;
/// Deeper than any package's YAML nests (generators.yaml: about ten levels).
pub const MAX_DEPTH: usize = 100;

/// The most a YAML file may hold once read: its `*alias`es are copies of what they name, so 4
/// MiB of `*big` repeating a 1 MiB `&big` would be terabytes. Sixteen times the largest file,
/// counting each string's bytes and [`NODE_BYTES`] for every value.
pub const MAX_VALUE_BYTES: usize = 16 * MAX_BYTES as usize;
/// What one value counts for [`MAX_VALUE_BYTES`] besides its text: about its size in memory.
const NODE_BYTES: usize = 16;

/// Reads YAML, turning a syntax error into one that names the line and column; an empty file
/// is an empty mapping.
pub(crate) fn read(path: &Path) -> Result<Value, PackageError> {
    read_transformed(path, |text| Ok(text.to_string()))
}

/// [`read`], with the `{{constants}}` of 2025-09 put into the text before it is parsed: the
/// result is held to the same [`MAX_BYTES`] as the file.
pub(crate) fn read_with_constants(
    path: &Path,
    constants: &[(String, String)],
) -> Result<Value, PackageError> {
    read_transformed(path, |text| {
        crate::compile::program::substitute(text, constants, MAX_BYTES as usize).ok_or_else(|| {
            super::invalid(
                path,
                format!(
                    "with its `{{{{constants}}}}` put in it is larger than {} MiB, more than a package's YAML holds: not read",
                    MAX_BYTES >> 20
                ),
            )
        })
    })
}

/// [`read`], with the text passed through `transform` before it is parsed.
fn read_transformed(
    path: &Path,
    transform: impl FnOnce(&str) -> Result<String, PackageError>,
) -> Result<Value, PackageError> {
    let read_error = super::cannot_read(path);
    let file = std::fs::File::open(path).map_err(read_error)?;
    let Some(bytes) = read_at_most(file, MAX_BYTES).map_err(read_error)? else {
        return Err(super::invalid(
            path,
            format!(
                "larger than {} MiB, more than a package's YAML holds: not read",
                MAX_BYTES >> 20
            ),
        ));
    };
    let text = String::from_utf8(bytes)
        .map_err(|error| super::invalid(path, format!("not UTF-8 text: {error}")))?;
    let text = transform(&text)?;
    if text.trim().is_empty() {
        return Ok(Value::Mapping(Default::default()));
    }
    let depth = nesting(&text);
    if depth > MAX_DEPTH {
        return Err(super::invalid(
            path,
            format!(
                "nested about {depth} levels deep, more than the {MAX_DEPTH} a package's YAML may be: not read"
            ),
        ));
    }
    let parsed = serde::de::DeserializeSeed::deserialize(
        Bounded {
            left: &std::cell::Cell::new(MAX_VALUE_BYTES),
        },
        serde_norway::Deserializer::from_str(&text),
    );
    match parsed {
        Ok(Value::Null) => Ok(Value::Mapping(Default::default())),
        Ok(value) => Ok(value),
        Err(error) => Err(FileError::yaml(path, &error, "").into()),
    }
}

/// Deserializes a [`Value`] as serde_norway's own does, counting what it builds against what
/// is `left` of [`MAX_VALUE_BYTES`]: an alias is replayed value by value, so its copies are
/// counted as they are made and the read stops at the bound, before the memory is taken.
#[derive(Clone, Copy)]
struct Bounded<'a> {
    left: &'a std::cell::Cell<usize>,
}

impl Bounded<'_> {
    fn take<E: serde::de::Error>(self, bytes: usize) -> Result<(), E> {
        let cost = bytes.saturating_add(NODE_BYTES);
        let left = self.left.get().checked_sub(cost).ok_or_else(|| {
            E::custom(format!(
                "it holds more than {} MiB once its aliases (`*name`) are repeated, more than a package's YAML: not read",
                MAX_VALUE_BYTES >> 20
            ))
        })?;
        self.left.set(left);
        Ok(())
    }

    /// `value`, once [`Bounded::take`] has counted `bytes` for it.
    fn made<E: serde::de::Error>(self, bytes: usize, value: Value) -> Result<Value, E> {
        self.take(bytes).map(|()| value)
    }
}

impl<'de> serde::de::DeserializeSeed<'de> for Bounded<'_> {
    type Value = Value;

    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Bounded<'_> {
    type Value = Value;

    fn expecting(&self, formatter: &mut std::fmt::Formatter) -> std::fmt::Result {
        formatter.write_str("any YAML value")
    }

    fn visit_bool<E: serde::de::Error>(self, b: bool) -> Result<Value, E> {
        self.made(0, Value::Bool(b))
    }

    fn visit_i64<E: serde::de::Error>(self, i: i64) -> Result<Value, E> {
        self.made(0, Value::Number(i.into()))
    }

    fn visit_u64<E: serde::de::Error>(self, u: u64) -> Result<Value, E> {
        self.made(0, Value::Number(u.into()))
    }

    fn visit_f64<E: serde::de::Error>(self, f: f64) -> Result<Value, E> {
        self.made(0, Value::Number(f.into()))
    }

    fn visit_str<E: serde::de::Error>(self, s: &str) -> Result<Value, E> {
        self.made(s.len(), Value::String(s.to_owned()))
    }

    fn visit_string<E: serde::de::Error>(self, s: String) -> Result<Value, E> {
        self.made(s.len(), Value::String(s))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Value, E> {
        self.made(0, Value::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Value, E> {
        self.visit_unit()
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<Value, D::Error> {
        serde::de::DeserializeSeed::deserialize(self, deserializer)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut items: A) -> Result<Value, A::Error> {
        self.take(0)?;
        let mut sequence = Vec::new();
        while let Some(item) = items.next_element_seed(self)? {
            sequence.push(item);
        }
        Ok(Value::Sequence(sequence))
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut entries: A) -> Result<Value, A::Error> {
        self.take(0)?;
        let mut mapping = serde_norway::Mapping::new();
        while let Some(key) = entries.next_key_seed(self)? {
            // As serde_norway's own: a key twice is an error, not the last one.
            if mapping.contains_key(&key) {
                let key = serde_norway::to_string(&key).unwrap_or_default();
                return Err(serde::de::Error::custom(format!(
                    "duplicate entry with key `{}`",
                    key.trim_end()
                )));
            }
            let value = entries.next_value_seed(self)?;
            mapping.insert(key, value);
        }
        Ok(Value::Mapping(mapping))
    }

    fn visit_enum<A: serde::de::EnumAccess<'de>>(self, data: A) -> Result<Value, A::Error> {
        use serde::de::VariantAccess;
        self.take(0)?;
        let (tag, contents) = data.variant::<String>()?;
        if tag.is_empty() {
            return Err(serde::de::Error::custom("empty YAML tag is not allowed"));
        }
        let value = contents.newtype_variant_seed(self)?;
        Ok(Value::Tagged(Box::new(serde_norway::value::TaggedValue {
            tag: serde_norway::value::Tag::new(tag),
            value,
        })))
    }
}

/// An upper bound of how deep `text` nests, in one pass: open flow brackets, plus the block
/// levels (each step of indentation still open, and the `- `/`? ` indicators that open a level
/// on one line). Quoted scalars, block scalars' text and comments are skipped; a quote counts
/// only where YAML would start one, so text inside a plain scalar never hides brackets.
pub(crate) fn nesting(text: &str) -> usize {
    let mut deepest = 0;
    let mut flow = 0usize;
    let mut indents: Vec<usize> = Vec::new();
    // The indentation of the line that opened a block scalar (`|`, `>`): lines indented
    // further are its text.
    let mut block_scalar: Option<usize> = None;
    for line in text.lines() {
        let bytes = line.as_bytes();
        let indent = bytes.iter().take_while(|&&b| b == b' ').count();
        let rest = &bytes[indent..];
        if let Some(opener) = block_scalar {
            if rest.is_empty() || indent > opener {
                continue;
            }
            block_scalar = None;
        }
        if rest.is_empty() || rest[0] == b'#' {
            continue;
        }
        if flow == 0 {
            while indents.last().is_some_and(|&open| open > indent) {
                indents.pop();
            }
            if indents.last() != Some(&indent) {
                indents.push(indent);
            }
        }
        let mut opened = 0;
        let mut leading = true;
        let mut quote: Option<u8> = None;
        // The last significant byte outside quotes, and whether a space followed it.
        let mut last: Option<u8> = None;
        let mut spaced = false;
        let mut end = rest.len();
        let mut i = 0;
        while i < rest.len() {
            let byte = rest[i];
            if let Some(open) = quote {
                if open == b'"' && byte == b'\\' {
                    i += 1;
                } else if byte == open {
                    if open == b'\'' && rest.get(i + 1) == Some(&b'\'') {
                        i += 1;
                    } else {
                        quote = None;
                        last = Some(byte);
                        spaced = false;
                    }
                }
                i += 1;
                continue;
            }
            let followed_by_space = rest.get(i + 1).is_none_or(|b| *b == b' ');
            match byte {
                b' ' | b'\t' => {
                    spaced = true;
                    i += 1;
                    continue;
                }
                b'#' if i == 0 || spaced => {
                    end = i;
                    break;
                }
                b'"' | b'\'' if starts_token(last, spaced) => quote = Some(byte),
                // Outside a flow collection, a bracket opens one only where a value starts
                // (`name: Don't [stop` is one plain scalar).
                b'[' | b'{' if flow > 0 || starts_token(last, spaced) => flow += 1,
                b']' | b'}' => flow = flow.saturating_sub(1),
                b'-' | b'?' if leading && followed_by_space => opened += 1,
                _ => leading = false,
            }
            if !matches!(byte, b'-' | b'?') {
                leading = false;
            }
            last = Some(byte);
            spaced = false;
            deepest = deepest.max(indents.len() + opened + flow);
            i += 1;
        }
        deepest = deepest.max(indents.len() + opened + flow);
        if flow == 0 && quote.is_none() && opens_block_scalar(&rest[..end]) {
            block_scalar = Some(indent);
        }
    }
    deepest
}

/// Whether a value may start after `last` (the last significant byte of the line, `None` at its
/// start), as YAML starts a quoted scalar or a flow collection.
fn starts_token(last: Option<u8>, spaced: bool) -> bool {
    match last {
        None | Some(b'[' | b'{' | b',') => true,
        Some(b':' | b'-' | b'?') => spaced,
        _ => false,
    }
}

/// Whether a line ends with a block scalar's header (`|`, `>-`, `|+2`) after a key or a dash.
fn opens_block_scalar(line: &[u8]) -> bool {
    let line = line.trim_ascii_end();
    let header = line
        .iter()
        .rposition(|b| matches!(b, b'|' | b'>'))
        .filter(|&at| {
            line[at + 1..]
                .iter()
                .all(|b| matches!(b, b'-' | b'+' | b'0'..=b'9'))
        });
    match header {
        Some(0) => true,
        Some(at) => line[at - 1] == b' ',
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nesting_is_bounded_above_and_never_hidden() {
        let deep = format!("a: {}{}", "[".repeat(500), "]".repeat(500));
        assert!(nesting(&deep) >= 500);
        let dashes = format!("a:\n{}1", "- ".repeat(500));
        assert!(nesting(&dashes) >= 500);
        let keys = format!("{}1", "? ".repeat(500));
        assert!(nesting(&keys) >= 500);
        // Brackets after a plain scalar's quote still count in a flow collection.
        let sneaky = format!("a: [x '{}", "[".repeat(500));
        assert!(nesting(&sneaky) >= 500);
        let mut indented = String::new();
        for level in 0..300 {
            indented.push_str(&format!("{}k{level}:\n", " ".repeat(level)));
        }
        assert!(nesting(&indented) >= 300);
    }

    #[test]
    fn aliases_are_counted_as_they_are_repeated() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("generators.yaml");
        let big = "x".repeat(1 << 20);
        // 100 aliases of a 1 MiB string: 100 MiB once read, from 1 MiB of text.
        let mut text = format!("anchor: &big \"{big}\"\nmany:\n");
        for _ in 0..100 {
            text.push_str("  - *big\n");
        }
        std::fs::write(&path, &text).unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains("generators.yaml:"), "{error}");
        assert!(
            error.contains("more than 64 MiB once its aliases"),
            "{error}"
        );
        // A few are as serde_norway reads them; so are tags, and a key twice is an error.
        let text = "a: &x {k: [1, 2.5, true, ~, text]}\nb: *x\nc: !tag 5\n";
        std::fs::write(&path, text).unwrap();
        assert_eq!(
            read(&path).unwrap(),
            serde_norway::from_str::<Value>(text).unwrap()
        );
        std::fs::write(&path, "a: 1\na: 2\n").unwrap();
        let error = read(&path).unwrap_err().to_string();
        assert!(error.contains("duplicate entry"), "{error}");
    }

    #[test]
    fn ordinary_files_are_shallow() {
        let table = [
            ("name: Echo\nlimits:\n  memory: 256\n", 3),
            ("keywords: [[a, [b, {c: [d]}]]]\n", 6),
            ("name: 'a [[[[ quoted' # [[[[ a comment\n", 2),
            ("text: \"esc \\\" [[[[\"\n", 2),
            ("name: Don't [stop\nnext: [a]\n", 2),
            ("statement: |\n  [[[[ text\n     [[[[ more\nnext: 1\n", 2),
            (
                "data:\n  secret:\n    data:\n      - a: gen.py 1\n      - b: {generate: gen.py 2, count: 3}\n",
                7,
            ),
        ];
        for (text, at_most) in table {
            let found = nesting(text);
            assert!(found <= at_most, "{text:?}: {found}");
        }
    }
}
