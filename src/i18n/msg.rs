//! A sentence kept as a catalog key plus its values, so it can be worded in any language
//! when it is shown (the event log keeps these, not finished text).

use std::borrow::Cow;

use serde::{Deserialize, Serialize};

use super::{substitute, text, Lang};

/// One value for a placeholder.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arg {
    /// A number, shown as digits in every language.
    Num(u64),
    /// Text shown as it is in every language (ids, keys, values, etcd's own words).
    Verbatim(String),
    /// A nested message, worded in the same language as the one holding it.
    Msg(Box<Msg>),
}

/// A catalog key and its placeholder values; or, for text that has no key yet, the text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Msg {
    /// Worded from the catalog.
    Key {
        /// The catalog key, e.g. "ev.crashed".
        key: Cow<'static, str>,
        /// Placeholder names and values.
        args: Vec<(Cow<'static, str>, Arg)>,
    },
    /// The same text in every language (etcd's error strings, user input).
    Verbatim(String),
}

impl Msg {
    /// The message for catalog `key`, without values yet.
    // Out of line: it is called from several hundred places, and inlined each would build
    // the whole value in place (about 25 bytes of wasm more per call).
    #[inline(never)]
    pub fn new(key: &'static str) -> Msg {
        Msg::Key {
            key: Cow::Borrowed(key),
            args: Vec::new(),
        }
    }

    /// The message for the English catalog's entry `index` ([`super::key_index`]), without
    /// values yet: the same message as `Msg::new` with that entry's key. Written `msg!("key")`
    /// or `Msg::at(key_of!("key"))`, so the key is checked at compile time and its string is
    /// not stored again beside the catalog's.
    #[inline(never)]
    pub fn at(index: u16) -> Msg {
        Msg::Key {
            key: Cow::Borrowed(super::key_at(index)),
            args: Vec::new(),
        }
    }

    /// Text that reads the same in every language.
    pub fn verbatim(text: impl Into<String>) -> Msg {
        Msg::Verbatim(text.into())
    }

    /// Adds the value of placeholder `name`.
    pub fn arg(self, name: &'static str, value: impl Into<Arg>) -> Msg {
        self.with_arg(name, value.into())
    }

    // Out of line, for the same reason as `new`: only the conversion of the value is generic.
    #[inline(never)]
    fn with_arg(mut self, name: &'static str, value: Arg) -> Msg {
        if let Msg::Key { args, .. } = &mut self {
            args.push((Cow::Borrowed(name), value));
        }
        self
    }

    /// The catalog key this message is worded from; None for verbatim text. Code that sorts
    /// events by what they say matches on this, never on the worded text, so it holds in
    /// every language and whatever values (keys, labels, reasons) the sentence carries.
    pub fn key(&self) -> Option<&str> {
        match self {
            Msg::Key { key, .. } => Some(key),
            Msg::Verbatim(_) => None,
        }
    }

    /// The message as serde writes it (`{"Key": {"key": …, "args": [[name, value], …]}}` or
    /// `{"Verbatim": text}`), for [`crate::json`].
    pub fn to_json(&self) -> crate::json::Val {
        use crate::json::Val;
        match self {
            Msg::Verbatim(t) => Val::variant("Verbatim", Val::Str(t.clone())),
            Msg::Key { key, args } => {
                let args = args
                    .iter()
                    .map(|(name, value)| {
                        let value = match value {
                            Arg::Num(n) => Val::variant("Num", Val::Num(*n)),
                            Arg::Verbatim(s) => Val::variant("Verbatim", Val::Str(s.clone())),
                            Arg::Msg(m) => Val::variant("Msg", m.to_json()),
                        };
                        Val::Arr(vec![Val::Str(name.to_string()), value])
                    })
                    .collect();
                Val::variant(
                    "Key",
                    Val::Obj(vec![
                        ("key", Val::Str(key.to_string())),
                        ("args", Val::Arr(args)),
                    ]),
                )
            }
        }
    }

    /// The sentence in `lang`.
    pub fn render(&self, lang: Lang) -> String {
        match self {
            Msg::Verbatim(t) => t.clone(),
            Msg::Key { key, args } => substitute(text(lang, key), |name| {
                args.iter().find(|(n, _)| n == name).map(|(_, v)| match v {
                    Arg::Num(n) => n.to_string(),
                    Arg::Verbatim(s) => s.clone(),
                    Arg::Msg(m) => m.render(lang),
                })
            }),
        }
    }
}

/// A flat text form of messages, to cross from the explore worker to the page without a JSON
/// reader in the page's bundle: `V<len>:<text>` for verbatim text, `K<len>:<key><n>:` and then
/// each of the n values as `<len>:<name>` followed by `N<digits>;`, `V<len>:<text>` or `M`
/// and a nested message. Lengths count bytes, so any text (colons, Chinese) goes through.
impl Msg {
    /// The message in the flat text form; [`Msg::decode`] reads it back equal.
    pub fn encode(&self) -> String {
        let mut out = String::new();
        self.encode_into(&mut out);
        out
    }

    fn encode_into(&self, out: &mut String) {
        let sized = |out: &mut String, s: &str| {
            out.push_str(&s.len().to_string());
            out.push(':');
            out.push_str(s);
        };
        match self {
            Msg::Verbatim(t) => {
                out.push('V');
                sized(out, t);
            }
            Msg::Key { key, args } => {
                out.push('K');
                sized(out, key);
                out.push_str(&args.len().to_string());
                out.push(':');
                for (name, value) in args {
                    sized(out, name);
                    match value {
                        Arg::Num(n) => {
                            out.push('N');
                            out.push_str(&n.to_string());
                            out.push(';');
                        }
                        Arg::Verbatim(t) => {
                            out.push('V');
                            sized(out, t);
                        }
                        Arg::Msg(m) => {
                            out.push('M');
                            m.encode_into(out);
                        }
                    }
                }
            }
        }
    }

    /// Reads [`Msg::encode`]'s form; None for anything else (never panics on bad text).
    pub fn decode(text: &str) -> Option<Msg> {
        let mut rest = text;
        let m = Msg::decode_from(&mut rest, 0)?;
        rest.is_empty().then_some(m)
    }

    fn decode_from(rest: &mut &str, depth: usize) -> Option<Msg> {
        // Nesting is shallow in practice; a bound keeps hostile text from exhausting the stack.
        if depth > 32 {
            return None;
        }
        let tag = take(rest, 1)?;
        match tag {
            "V" => Some(Msg::Verbatim(sized(rest)?.to_string())),
            "K" => {
                let key = sized(rest)?.to_string();
                let n: usize = number(rest, ':')?;
                let mut args = Vec::new();
                for _ in 0..n {
                    let name = sized(rest)?.to_string();
                    let value = match take(rest, 1)? {
                        "N" => Arg::Num(number(rest, ';')?),
                        "V" => Arg::Verbatim(sized(rest)?.to_string()),
                        "M" => Arg::Msg(Box::new(Msg::decode_from(rest, depth + 1)?)),
                        _ => return None,
                    };
                    args.push((Cow::Owned(name), value));
                }
                Some(Msg::Key {
                    key: Cow::Owned(key),
                    args,
                })
            }
            _ => None,
        }
    }
}

/// The first `n` bytes of `rest`, moving past them.
fn take<'a>(rest: &mut &'a str, n: usize) -> Option<&'a str> {
    let head = rest.get(..n)?;
    *rest = &rest[n..];
    Some(head)
}

/// A decimal number up to `end`, moving past both.
fn number<T: std::str::FromStr>(rest: &mut &str, end: char) -> Option<T> {
    let at = rest.find(end)?;
    let n = rest[..at].parse().ok()?;
    *rest = &rest[at + 1..];
    Some(n)
}

/// A `<len>:<text>` field, moving past it.
fn sized<'a>(rest: &mut &'a str) -> Option<&'a str> {
    let len: usize = number(rest, ':')?;
    take(rest, len)
}

/// English, the language of traces, tests and logs.
impl std::fmt::Display for Msg {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.render(Lang::En))
    }
}

/// Code that still speaks in `String` errors gets the English text.
impl From<Msg> for String {
    fn from(m: Msg) -> String {
        m.render(Lang::En)
    }
}

/// Text that has no catalog key (yet) reads the same in every language.
impl From<String> for Msg {
    fn from(s: String) -> Msg {
        Msg::Verbatim(s)
    }
}

impl From<u64> for Arg {
    fn from(n: u64) -> Arg {
        Arg::Num(n)
    }
}

impl From<usize> for Arg {
    fn from(n: usize) -> Arg {
        Arg::Num(n as u64)
    }
}

impl From<u32> for Arg {
    fn from(n: u32) -> Arg {
        Arg::Num(n as u64)
    }
}

impl From<String> for Arg {
    fn from(s: String) -> Arg {
        Arg::Verbatim(s)
    }
}

impl From<&str> for Arg {
    fn from(s: &str) -> Arg {
        Arg::Verbatim(s.to_string())
    }
}

impl From<Msg> for Arg {
    fn from(m: Msg) -> Arg {
        Arg::Msg(Box::new(m))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_flat_form_reads_back_equal_and_bad_text_is_refused() {
        let m = super::Msg::new("ex.d.invariant")
            .arg("invariant", super::Msg::new("inv.log_matching"))
            .arg("detail", super::Msg::verbatim("a: b; 任期 3 — n1→n2"))
            .arg("n", 42u64)
            .arg("v", "x=1:2");
        let text = m.encode();
        assert_eq!(super::Msg::decode(&text), Some(m.clone()));
        let v = super::Msg::verbatim("");
        assert_eq!(super::Msg::decode(&v.encode()), Some(v));
        for bad in [
            "",
            "K",
            "K3:abc",
            "K3:abc1:",
            "V9:short",
            "Q1:a",
            "V1:ab",
            "K1:k1:1:nN12",
            "V1:\u{4efb}",
        ] {
            assert_eq!(super::Msg::decode(bad), None, "{bad}");
        }
        // Every truncation of a good form is refused, none panics.
        for i in 0..text.len() {
            if let Some(head) = text.get(..i) {
                assert_eq!(super::Msg::decode(head), None, "{head}");
            }
        }
    }

    use super::*;

    #[test]
    fn a_message_is_worded_in_each_language_with_nested_parts() {
        let m = Msg::new("ev.lost")
            .arg("id", 2u64)
            .arg("what", Msg::new("word.pre_vote"))
            .arg("term", 5u64)
            .arg("granted", 1usize)
            .arg("rejected", 2usize);
        assert_eq!(
            m.render(Lang::En),
            "n2 lost the pre-vote for term 5: 1 granted, 2 rejected"
        );
        let zh = m.render(Lang::Zh);
        assert!(zh.contains("预投票") && zh.contains('5'), "{zh}");
        assert_eq!(
            Msg::verbatim("etcdserver: x").render(Lang::Zh),
            "etcdserver: x"
        );
    }
}
