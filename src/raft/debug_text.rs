//! `Debug` text of the values a state digest prints by the thousand (log entries, key-value
//! pairs), written piece by piece instead of through `fmt`'s builders.
//!
//! `Sim::fingerprint` hashes the `Debug` text of the whole state: every node's log and
//! key-value state, so a run of 5,000 writes prints ~50,000 entries and pairs. Through the
//! builders each costs a dynamic call per field, a check of the pretty-print flag per piece,
//! and `str`'s escaping, a char at a time. The impls here print the very same text (the
//! fingerprints of every scenario depend on it, and tests compare it with the derived text),
//! taking the builders only for pretty printing (`{:#?}`), where indentation is involved.

use std::fmt::{self, Debug, Formatter};

use super::message::{Entry, EntryData};

/// A string printed exactly as `<str as Debug>` prints it.
pub(crate) struct DebugStr<'a>(pub &'a str);

/// Whether `str`'s `Debug` prints `b` (an ASCII byte) as itself: printable ASCII other than
/// the quote and the backslash. Anything else takes `str`'s own escaping.
fn plain(b: u8) -> bool {
    (b' '..=b'~').contains(&b) && b != b'"' && b != b'\\'
}

impl Debug for DebugStr<'_> {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        // `str`'s Debug ignores width and precision, so the plain case needs no flag either.
        if self.0.bytes().all(plain) {
            f.write_str("\"")?;
            f.write_str(self.0)?;
            f.write_str("\"")
        } else {
            Debug::fmt(self.0, f)
        }
    }
}

/// Exactly the derived text (`Entry { term: 1, index: 2, data: Empty }`): numbers go through
/// `u64`'s own Debug with the caller's formatter, so flags such as `{:x?}` still apply.
impl Debug for Entry {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        if f.alternate() {
            return f
                .debug_struct("Entry")
                .field("term", &self.term)
                .field("index", &self.index)
                .field("data", &self.data)
                .finish();
        }
        f.write_str("Entry { term: ")?;
        Debug::fmt(&self.term, f)?;
        f.write_str(", index: ")?;
        Debug::fmt(&self.index, f)?;
        f.write_str(", data: ")?;
        Debug::fmt(&self.data, f)?;
        f.write_str(" }")
    }
}

/// Exactly the derived text (`Put { key: "x", value: "1", req: 3 }`).
impl Debug for EntryData {
    fn fmt(&self, f: &mut Formatter<'_>) -> fmt::Result {
        match self {
            EntryData::Empty => f.write_str("Empty"),
            EntryData::Put { key, value, req } if !f.alternate() => {
                f.write_str("Put { key: ")?;
                Debug::fmt(&DebugStr(key), f)?;
                f.write_str(", value: ")?;
                Debug::fmt(&DebugStr(value), f)?;
                f.write_str(", req: ")?;
                Debug::fmt(req, f)?;
                f.write_str(" }")
            }
            EntryData::Put { key, value, req } => f
                .debug_struct("Put")
                .field("key", key)
                .field("value", value)
                .field("req", req)
                .finish(),
            EntryData::Conf { cc, req } => f
                .debug_struct("Conf")
                .field("cc", cc)
                .field("req", req)
                .finish(),
        }
    }
}

/// `(key, value)` pairs printed exactly as `f.debug_map().entries(pairs).finish()` prints them.
pub(crate) fn string_map<'a>(
    f: &mut Formatter<'_>,
    pairs: impl Iterator<Item = (&'a String, &'a String)>,
) -> fmt::Result {
    if f.alternate() {
        return f.debug_map().entries(pairs).finish();
    }
    f.write_str("{")?;
    for (i, (key, value)) in pairs.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        Debug::fmt(&DebugStr(key), f)?;
        f.write_str(": ")?;
        Debug::fmt(&DebugStr(value), f)?;
    }
    f.write_str("}")
}

/// Items printed exactly as `f.debug_list().entries(items).finish()` prints them.
pub(crate) fn list<T: Debug>(f: &mut Formatter<'_>, items: impl Iterator<Item = T>) -> fmt::Result {
    if f.alternate() {
        return f.debug_list().entries(items).finish();
    }
    f.write_str("[")?;
    for (i, item) in items.enumerate() {
        if i > 0 {
            f.write_str(", ")?;
        }
        item.fmt(f)?;
    }
    f.write_str("]")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raft::kv::KvState;
    use crate::raft::shared_vec::SharedVec;
    use std::collections::BTreeMap;
    use std::sync::Arc;

    /// The derived `Debug` of the same shapes, to hold the hand-written text against.
    #[allow(dead_code)] // the fields are read only by the derived Debug
    mod derived {
        #[derive(Debug)]
        pub struct Entry {
            pub term: u64,
            pub index: u64,
            pub data: EntryData,
        }
        #[derive(Debug)]
        pub enum EntryData {
            Empty,
            Put {
                key: String,
                value: String,
                req: u64,
            },
            Conf {
                cc: crate::raft::message::ConfChange,
                req: u64,
            },
        }
    }

    /// Strings that take every path of `str`'s escaping: plain, quotes, backslashes, control
    /// characters, DEL, non-ASCII (printable and not), and the characters around the ends of
    /// the plain range.
    const STRINGS: [&str; 12] = [
        "",
        "k1",
        "a b~",
        "say \"hi\"",
        "back\\slash",
        "tab\there",
        "new\nline",
        "nul\0",
        "del\x7f",
        "ключ",
        "zero\u{200b}width",
        "it's",
    ];

    /// Every string, in every formatting mode a caller could use, prints as the derived
    /// `Debug` prints it: entries, entry data, lists of entries, and key-value maps.
    #[test]
    fn prints_the_derived_text() {
        let show = |d: &dyn Debug, e: &dyn Debug| {
            for (mine, want) in [
                (format!("{d:?}"), format!("{e:?}")),
                (format!("{d:#?}"), format!("{e:#?}")),
                (format!("{d:x?}"), format!("{e:x?}")),
                (format!("{d:5?}"), format!("{e:5?}")),
            ] {
                assert_eq!(mine, want);
            }
        };
        let mut entries = Vec::new();
        let mut model = Vec::new();
        let mut kv = KvState::new();
        let mut map = BTreeMap::new();
        for (i, key) in STRINGS.iter().enumerate() {
            let value = STRINGS[(i + 5) % STRINGS.len()];
            show(&DebugStr(key), key);
            let data = EntryData::Put {
                key: (*key).into(),
                value: value.into(),
                req: 1000 + i as u64,
            };
            let like = derived::EntryData::Put {
                key: (*key).into(),
                value: value.into(),
                req: 1000 + i as u64,
            };
            show(&data, &like);
            let (term, index) = (7, 250 + i as u64);
            entries.push(Arc::new(Entry { term, index, data }));
            model.push(derived::Entry {
                term,
                index,
                data: like,
            });
            kv.insert((*key).into(), value.into());
            map.insert(key.to_string(), value.to_string());
        }
        entries.push(Arc::new(Entry {
            term: 8,
            index: 300,
            data: EntryData::Empty,
        }));
        model.push(derived::Entry {
            term: 8,
            index: 300,
            data: derived::EntryData::Empty,
        });
        let cc = crate::raft::message::ConfChange {
            changes: vec![crate::raft::message::ConfChangeSingle::AddNode(4)],
            ..Default::default()
        };
        entries.push(Arc::new(Entry {
            term: 9,
            index: 301,
            data: EntryData::Conf {
                cc: cc.clone(),
                req: 5,
            },
        }));
        model.push(derived::Entry {
            term: 9,
            index: 301,
            data: derived::EntryData::Conf { cc, req: 5 },
        });
        for (e, m) in entries.iter().zip(&model) {
            show(e, m);
        }
        let shared: SharedVec<Arc<Entry>> = entries.iter().cloned().collect();
        show(&shared, &model);
        show(
            &SharedVec::<Arc<Entry>>::default(),
            &Vec::<derived::Entry>::new(),
        );
        show(&kv, &map);
        show(&KvState::new(), &BTreeMap::<String, String>::new());
    }
}
