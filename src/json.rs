//! A small JSON writer for what the browser build exports (the event trace).
//!
//! The native build writes JSON with serde_json; linking serde_json's writer and the
//! `Serialize` code of every type it reaches into the page cost about 16 KB of wasm for one
//! download button. This writes the same text as `serde_json::to_string_pretty` (two-space
//! indents, `"key": value`, `[]` for an empty list, serde_json's string escapes), checked
//! against it by the tests here and in `sim::history`.

/// A JSON value to write. Object keys are field names, fixed in the code.
#[derive(Clone, Debug, PartialEq)]
pub enum Val {
    /// `null`.
    Null,
    /// A whole number.
    Num(u64),
    /// A string.
    Str(String),
    /// A list.
    Arr(Vec<Val>),
    /// An object, its fields in the order given.
    Obj(Vec<(&'static str, Val)>),
}

impl Val {
    /// `value` as a number, or `null` when there is none.
    pub fn opt_num(value: Option<u64>) -> Val {
        value.map_or(Val::Null, Val::Num)
    }

    /// An object of one field: how serde writes an enum variant holding a value.
    pub fn variant(name: &'static str, value: Val) -> Val {
        Val::Obj(vec![(name, value)])
    }
}

/// `v` as serde_json's pretty printer writes it.
pub fn pretty(v: &Val) -> String {
    let mut out = String::new();
    write(&mut out, v, 0);
    out
}

fn newline(out: &mut String, depth: usize) {
    out.push('\n');
    for _ in 0..depth {
        out.push_str("  ");
    }
}

fn write(out: &mut String, v: &Val, depth: usize) {
    match v {
        Val::Null => out.push_str("null"),
        Val::Num(n) => out.push_str(&n.to_string()),
        Val::Str(s) => string(out, s),
        Val::Arr(items) if items.is_empty() => out.push_str("[]"),
        Val::Obj(fields) if fields.is_empty() => out.push_str("{}"),
        Val::Arr(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                write(out, item, depth + 1);
            }
            newline(out, depth);
            out.push(']');
        }
        Val::Obj(fields) => {
            out.push('{');
            for (i, (key, value)) in fields.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                newline(out, depth + 1);
                string(out, key);
                out.push_str(": ");
                write(out, value, depth + 1);
            }
            newline(out, depth);
            out.push('}');
        }
    }
}

/// A JSON string with serde_json's escapes: quote, backslash, the five short control escapes,
/// other control characters as `\u00xx`; everything else (DEL, any non-ASCII) as it is.
fn string(out: &mut String, s: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 => {
                let b = c as usize;
                out.push_str("\\u00");
                out.push(HEX[b >> 4] as char);
                out.push(HEX[b & 15] as char);
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn writes_what_serde_json_writes() {
        let every_char: String = (0u32..0x300).filter_map(char::from_u32).collect();
        let mine = Val::Arr(vec![
            Val::Obj(vec![
                ("a", Val::Num(u64::MAX)),
                ("b", Val::Null),
                ("c", Val::Arr(vec![])),
                ("d", Val::Obj(vec![])),
                ("e", Val::Str(every_char.clone())),
                (
                    "f",
                    Val::Arr(vec![Val::Arr(vec![Val::Str("x".into()), Val::Num(0)])]),
                ),
            ]),
            Val::variant("Verbatim", Val::Str("say \"hi\"\\ 选举".into())),
            Val::Arr(vec![]),
        ]);
        let theirs = json!([
            {"a": u64::MAX, "b": null, "c": [], "d": {}, "e": every_char, "f": [["x", 0]]},
            {"Verbatim": "say \"hi\"\\ 选举"},
            []
        ]);
        assert_eq!(
            pretty(&mine),
            serde_json::to_string_pretty(&theirs).unwrap()
        );
        assert_eq!(pretty(&Val::Arr(vec![])), "[]");
    }
}
