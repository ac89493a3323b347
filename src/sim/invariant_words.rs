//! The invariant checker's findings worded in any language. The checker lives in the core
//! (`raft::invariants`), which words what broke in English and knows nothing of catalogs;
//! here each of its sentence shapes is matched against the English template in the catalog
//! and re-worded from the values it holds. A sentence no template matches stays as it is.

use crate::i18n::{text, Lang, Msg};

/// The catalog keys of the checker's sentence shapes, most specific first.
const DETAILS: [&str; 11] = [
    "inv.d.order",
    "inv.d.term_back",
    "inv.d.commit_back",
    "inv.d.state_machine",
    "inv.d.log_matching_tail",
    "inv.d.log_matching_agree",
    "inv.d.two_leaders",
    "inv.d.completeness",
    "inv.d.append_only",
    "inv.d.pending_conf",
    "inv.d.learners",
];

/// Placeholders whose values are themselves worded ("term 3", "no entry", "2 of 3 voters,
/// quorum 2").
const WORDED: [&str; 6] = ["has", "th", "x", "y", "why", "old"];

/// An invariant's name as the checker gives it ("leader completeness").
pub fn name(name: &str) -> Msg {
    Msg::at(match name {
        "term never goes back" => crate::key_of!("inv.term_monotonic"),
        "commit never goes back" => crate::key_of!("inv.commit_monotonic"),
        "state machine safety" => crate::key_of!("inv.state_machine_safety"),
        "log matching" => crate::key_of!("inv.log_matching"),
        "election safety" => crate::key_of!("inv.election_safety"),
        "leader completeness" => crate::key_of!("inv.leader_completeness"),
        "leader append-only" => crate::key_of!("inv.leader_append_only"),
        "at most one pending configuration change" => crate::key_of!("inv.one_pending_conf"),
        "learners never counted" => crate::key_of!("inv.learners_not_counted"),
        // "snapshot <= applied <= commit <= last" is notation, the same in every language.
        _ => return Msg::verbatim(name),
    })
}

/// What the checker found, as a message (the English it gave when no shape matches).
pub fn detail(detail: &str) -> Msg {
    for key in DETAILS {
        if let Some(values) = match_template(text(Lang::En, key), detail) {
            return values.into_iter().fold(Msg::new(key), |m, (name, v)| {
                let name = placeholder(key, &name);
                if WORDED.contains(&name) {
                    m.arg(name, value(&v))
                } else {
                    m.arg(name, v)
                }
            });
        }
    }
    Msg::verbatim(detail)
}

/// The `&'static` name of placeholder `name` of `key` (Msg keeps static names).
fn placeholder(key: &'static str, name: &str) -> &'static str {
    let t = text(Lang::En, key);
    let at = t
        .find(&format!("{{{name}}}"))
        .expect("matched from this template");
    &t[at + 1..at + 1 + name.len()]
}

/// A worded value: "term 3", "no entry", "2 of 3 voters, quorum 2".
fn value(v: &str) -> Msg {
    for key in ["inv.v.term", "inv.v.no_entry", "inv.v.short"] {
        if let Some(values) = match_template(text(Lang::En, key), v) {
            return values.into_iter().fold(Msg::new(key), |m, (name, v)| {
                m.arg(placeholder(key, &name), v)
            });
        }
    }
    Msg::verbatim(v)
}

/// Matches `s` against `template` ("n{id} led term {t}"): the placeholder values when the
/// literal parts match in order and cover all of `s`, else None. A placeholder takes the
/// shortest text up to the next literal part (the last one takes the rest).
fn match_template(template: &str, s: &str) -> Option<Vec<(String, String)>> {
    let mut parts: Vec<(&str, Option<&str>)> = Vec::new();
    let mut rest = template;
    while let Some(open) = rest.find('{') {
        let close = open + rest[open..].find('}')?;
        parts.push((&rest[..open], Some(&rest[open + 1..close])));
        rest = &rest[close + 1..];
    }
    parts.push((rest, None));
    let mut out = Vec::new();
    let mut at = 0;
    let mut pending: Option<&str> = None;
    for (lit, name) in parts {
        match pending.take() {
            None => {
                if !s[at..].starts_with(lit) {
                    return None;
                }
            }
            Some(p) => {
                let found = if lit.is_empty() {
                    // Two placeholders in a row never occur in the catalog; the last one
                    // takes the rest.
                    s.len() - at
                } else {
                    s[at..].find(lit)?
                };
                let v = &s[at..at + found];
                if v.is_empty() {
                    return None;
                }
                out.push((p.to_string(), v.to_string()));
                at += found;
            }
        }
        at += lit.len();
        pending = name;
    }
    (at == s.len() && pending.is_none()).then_some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One sentence of each shape the checker writes (copied from `raft::invariants`), and
    /// the Chinese each must give.
    const CASES: [(&str, &str); 11] = [
        ("n3: snapshot 5 applied 4 commit 6 last 7", "n3：快照 5，已应用 4，提交 6，末索引 7"),
        ("n2: term went from 4 to 3", "n2：任期从 4 回退到 3"),
        ("n2: commit went from 9 to 8", "n2：提交索引从 9 回退到 8"),
        (
            "n1 committed index 3 with term 2, but term 1 was committed there",
            "n1 在索引 3 提交了任期 2 的条目，但那里已提交的是任期 1 的条目",
        ),
        (
            "n4 holds entry 5 (term 3) after an entry of term 2, but another log holds entry 5 (term 3) after term 1",
            "n4 的条目 5（任期 3）跟在任期 2 的条目之后，但另一份日志中的条目 5（任期 3）跟在任期 1 之后",
        ),
        (
            "n1 and n2 agree at index 4 (term 2) but differ at 6: term 3 vs no entry",
            "n1 和 n2 在索引 4（任期 2）处一致，但在 6 处不同：一边是任期 3，一边是没有条目",
        ),
        ("n1 and n3 both led term 5", "n1 和 n3 都当过任期 5 的领导者"),
        (
            "n5 leads term 4 without committed entry 2 (term 1); it has term 2 there",
            "n5 成为任期 4 的领导者，却没有已提交的条目 2（任期 1）；它在该位置上：任期 2",
        ),
        (
            "n2 (term 3) had last 7/term 3, now last 5, entry 7 no entry",
            "n2（任期 3）的日志原本到 7（任期 3），现在只到 5，条目 7：没有条目",
        ),
        (
            "n1 (leader, term 2) has 2 unapplied configuration entries after index 4",
            "n1（领导者，任期 2）在索引 4 之后有 2 个未应用的配置条目",
        ),
        (
            "n1 committed index 6 (term 2) held by 1 of 3 voters, quorum 2; learners: [n4 n5]",
            "n1 提交了索引 6（任期 2），但持有它的只有 3 个投票成员中的 1 个（法定人数 2）；学习者：[n4 n5]",
        ),
    ];

    #[test]
    fn every_shape_the_checker_writes_is_reworded_and_reads_the_same_in_english() {
        for (en, zh) in CASES {
            let m = detail(en);
            assert!(matches!(m, Msg::Key { .. }), "no template matched: {en}");
            assert_eq!(m.render(Lang::En), en);
            assert_eq!(m.render(Lang::Zh), zh);
        }
    }

    #[test]
    fn a_sentence_of_an_unknown_shape_stays_as_it_is() {
        let m = detail("something new broke");
        assert_eq!(m, Msg::verbatim("something new broke"));
        assert_eq!(
            name("snapshot <= applied <= commit <= last").render(Lang::Zh),
            "snapshot <= applied <= commit <= last"
        );
        assert_eq!(name("leader completeness").render(Lang::Zh), "领导者完整性");
    }

    #[test]
    fn templates_match_whole_sentences_only() {
        assert_eq!(
            match_template("n{id} led", "n3 led"),
            Some(vec![("id".to_string(), "3".to_string())])
        );
        assert_eq!(match_template("n{id} led", "n3 led twice"), None);
        assert_eq!(match_template("n{id} led", "m3 led"), None);
        assert_eq!(match_template("a {x}", "a "), None);
    }
}
