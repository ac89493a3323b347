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
    pub fn new(key: &'static str) -> Msg {
        Msg::Key {
            key: Cow::Borrowed(key),
            args: Vec::new(),
        }
    }

    /// Text that reads the same in every language.
    pub fn verbatim(text: impl Into<String>) -> Msg {
        Msg::Verbatim(text.into())
    }

    /// Adds the value of placeholder `name`.
    pub fn arg(mut self, name: &'static str, value: impl Into<Arg>) -> Msg {
        if let Msg::Key { args, .. } = &mut self {
            args.push((Cow::Borrowed(name), value.into()));
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
