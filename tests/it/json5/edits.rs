//! The splice editor on generated JSON5: inserts at random paths (into
//! existing containers, empty ones, and ones that do not exist yet) give
//! valid JSON5 holding exactly what was inserted, and taking them out the
//! way the engine does restores every byte.

use coffer::formats::json::Flavor;
use coffer::formats::json::edit::{Inserted, JsonDoc};
use coffer::formats::json::validate::validate;
use coffer::formats::json::value;
use coffer::formats::text::Text;
use proptest::prelude::*;
use serde_json::{Value, json};

use super::{cases, generate, text};
use crate::common::generate::{J, layout, members};

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn json5_inserts_are_valid_and_their_removal_restores_every_byte(
        doc in (members("[a-z]{1,3}", generate::value(), 0..5), layout()).prop_map(|(m, l)| J::Obj(m, l)),
        style in generate::style(),
        choices in prop::collection::vec(prop::collection::vec(any::<u8>(), 6), 1..4),
    ) {
        let text = generate::render(&doc, &style);
        let ops: Vec<Op> = choices
            .iter()
            .enumerate()
            .map(|(n, c)| choose(&doc, c, n))
            .collect();
        round_trip(text.as_bytes(), &ops)?;
    }
}

/// An edit the splice editor makes.
#[derive(Debug, Clone)]
enum Op {
    Append {
        array: Vec<String>,
        value: Value,
    },
    Member {
        object: Vec<String>,
        key: String,
        value: Value,
    },
}

/// Choose an edit in `doc` from the choice bytes: into an existing object
/// or array, or into ones that do not exist yet. New keys are upper case
/// (or not identifiers at all), numbered by `n`, so they collide with
/// nothing.
fn choose(doc: &J, choices: &[u8], n: usize) -> Op {
    let values = [
        json!({"command": "coffer", "args": ["it's", "\"q\""]}),
        json!("text"),
        json!({"a": [1, {"b": null}], "c": {}}),
        json!([]),
        json!({}),
    ];
    let value = values[choices[0] as usize % values.len()].clone();
    let new = |i: usize| {
        if (n + i).is_multiple_of(2) {
            format!("New{n}x{i}")
        } else {
            format!("new-{n}-{i}")
        }
    };
    let mut path: Vec<String> = Vec::new();
    let mut node = doc;
    for c in &choices[1..] {
        let J::Obj(members, _) = node else {
            unreachable!("only objects are walked")
        };
        let of = |want_object: bool| -> Vec<&(String, J)> {
            members
                .iter()
                .filter(|(_, v)| matches!(v, J::Obj(..)) == want_object && !matches!(v, J::Leaf(_)))
                .collect()
        };
        let (objects, arrays) = (of(true), of(false));
        let pick = *c as usize / 8;
        match c % 8 {
            0 | 1 if !objects.is_empty() => {
                let (k, v) = objects[pick % objects.len()];
                path.push(k.clone());
                node = v;
                continue;
            }
            2 | 3 if !arrays.is_empty() => {
                path.push(arrays[pick % arrays.len()].0.clone());
                return Op::Append { array: path, value };
            }
            4 => {
                path.extend((0..pick % 3).map(new));
                path.push(new(9));
                return Op::Append { array: path, value };
            }
            _ => break,
        }
    }
    Op::Member {
        object: path,
        key: new(8),
        value,
    }
}

/// `v` with `op` applied.
fn expected(mut v: Value, op: &Op) -> Value {
    let (path, last) = match op {
        Op::Append { array, .. } => (array.as_slice(), None),
        Op::Member { object, key, .. } => (object.as_slice(), Some(key)),
    };
    let mut at = &mut v;
    for (i, k) in path.iter().enumerate() {
        let fresh = if i + 1 == path.len() && last.is_none() {
            json!([])
        } else {
            json!({})
        };
        at = at
            .as_object_mut()
            .unwrap()
            .entry(k.clone())
            .or_insert(fresh);
    }
    match op {
        Op::Append { value, .. } => at.as_array_mut().unwrap().push(value.clone()),
        Op::Member { key, value, .. } => {
            at.as_object_mut()
                .unwrap()
                .insert(key.clone(), value.clone());
        }
    }
    v
}

/// Make the edits on one document, then undo them, last first, on the
/// re-read file, as the engine does: the outermost container an insertion
/// created goes, else the item itself, and an empty container it expanded
/// gets its old inside back.
fn round_trip(original: &[u8], ops: &[Op]) -> Result<(), TestCaseError> {
    let file = Text::decode(original).unwrap();
    validate(&file.body, Flavor::Json5)
        .map_err(|e| TestCaseError::fail(format!("{e:?}\n{:?}", file.body)))?;
    let mut doc = JsonDoc::new(file.body.clone(), Flavor::Json5).unwrap();
    let mut want = value::parse(&file.body, Flavor::Json5).unwrap();
    let mut inserted: Vec<Inserted> = Vec::new();
    for op in ops {
        inserted.push(
            match op {
                Op::Append { array, value } => doc.append_to_array(array, value),
                Op::Member { object, key, value } => doc.insert_member(object, key, value),
            }
            .unwrap_or_else(|e| panic!("{op:?} failed: {e}\n{}", doc.text())),
        );
        want = expected(want, op);
    }
    let installed = file.splice_result(doc.text());
    let body = Text::decode(&installed).unwrap().body;
    prop_assert!(
        validate(&body, Flavor::Json5).is_ok(),
        "invalid JSON5 after {:?}:\n{}",
        ops,
        body
    );
    prop_assert_eq!(
        value::parse(&body, Flavor::Json5).unwrap(),
        want,
        "{}",
        body
    );

    let mut doc = JsonDoc::new(body.clone(), Flavor::Json5).unwrap();
    for (op, ins) in ops.iter().zip(&inserted).rev() {
        if let Some(created) = ins.created.first() {
            let (parent, key) = created.split_at(created.len() - 1);
            let c = doc.container(parent, true).unwrap().expect("parent");
            let (i, _) = c.member(&key[0]).expect("created member");
            doc.remove_item(parent, true, i).unwrap();
        } else {
            let Op::Append { array, .. } = op else {
                unreachable!("a member insertion always creates its member")
            };
            let c = doc.container(array, false).unwrap().expect("array");
            doc.remove_item(array, false, c.items.len() - 1).unwrap();
        }
        if let Some(e) = &ins.expanded {
            let c = doc
                .container(&e.path, e.is_object)
                .unwrap()
                .expect("expanded");
            let inner = doc.slice(c.open + 1..c.close).to_owned();
            if c.items.is_empty() && inner != e.inner && doc.same_but_whitespace(&inner, &e.inner) {
                doc.set_inner(&e.path, e.is_object, &e.inner).unwrap();
            }
        }
    }
    prop_assert_eq!(
        text(&file.splice_result(doc.text())),
        text(original),
        "not restored after {:?}\n--- installed\n{}",
        ops,
        body
    );
    Ok(())
}
