//! The `.scn` scenario language: one command per line, `#` comments, blank lines ignored.
//! The same text drives the CLI, the tests and the UI's scenario player. The grammar is in
//! `docs/scenario-language.md`.
//!
//! Parsing never panics: any input gives either a script or an error with line and column.

use std::fmt;

use crate::i18n::{Lang, Msg};
use crate::raft::NodeId;

use super::action::Action;
use super::cond::{self, Cond};
use super::options::Options;

/// A malformed scenario: where and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// Line, from 1.
    pub line: usize,
    /// Column, from 1.
    pub col: usize,
    /// What is wrong, worded when shown (English in `Display`).
    pub message: Msg,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.col, self.message)
    }
}

/// One command.
#[derive(Clone, Debug, PartialEq)]
pub enum Stmt {
    /// `cluster N [OPTION=VALUE ...]`.
    Cluster {
        /// Number of voters.
        n: usize,
        /// Options.
        opts: Options,
    },
    /// `tick [N]`.
    Tick(u64),
    /// `at MS [COMMAND]`: move the clock to MS (if later), then run COMMAND.
    At {
        /// Simulated time, ms.
        time: u64,
        /// The command to run then.
        then: Option<Box<Stmt>>,
    },
    /// `await COND within N`.
    Await {
        /// The condition.
        cond: Cond,
        /// Ticks allowed.
        within: u64,
    },
    /// `expect COND`.
    Expect(Cond),
    /// `say TEXT`: narration; the UI's player pauses here.
    Say(String),
    /// A user action.
    Act(Action),
    /// `compare [OPTION=VALUE ...]`: this scenario is a comparison. Here the run forks into
    /// run A (the scenario as written) and run B, which from this point on has these options
    /// and runs the `B:` lines instead of the `A:` lines. `raftlab run` plays run A only.
    Compare(Vec<(String, String)>),
    /// `A: COMMAND` or `B: COMMAND`: a command for one run of a comparison only.
    Only {
        /// The run it belongs to.
        side: Side,
        /// The command.
        stmt: Box<Stmt>,
    },
    /// `explore ...`: where and how `raftlab explore` searches for a failing schedule (a
    /// no-op when the scenario is played).
    Explore(super::explore::ExploreSpec),
}

/// One of the two runs of a comparison.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    /// The scenario as written (the run `raftlab run` plays).
    A,
    /// The variant.
    B,
}

/// One parsed line.
#[derive(Clone, Debug, PartialEq)]
pub struct Line {
    /// Line number in the file, from 1.
    pub lineno: usize,
    /// The source text (trimmed).
    pub text: String,
    /// The command.
    pub stmt: Stmt,
    /// Translations of this line's narration, from the `say.LANG TEXT` lines after it.
    pub translations: Vec<(Lang, String)>,
}

impl Line {
    /// The narration this line says, if it says any: `say TEXT` or `at MS say TEXT`.
    pub fn say(&self) -> Option<&str> {
        match &self.stmt {
            Stmt::Say(t) => Some(t),
            Stmt::At { then: Some(s), .. } => match s.as_ref() {
                Stmt::Say(t) => Some(t),
                _ => None,
            },
            _ => None,
        }
    }

    /// The narration in `lang`: its translation, or the English text when it has none.
    pub fn narration(&self, lang: Lang) -> Option<&str> {
        let en = self.say()?;
        Some(
            self.translations
                .iter()
                .find(|(l, _)| *l == lang)
                .map_or(en, |(_, t)| t.as_str()),
        )
    }
}

/// A parsed scenario. The first command is always `cluster`.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// Commands in order (comments and blank lines dropped).
    pub lines: Vec<Line>,
}

/// A word and its column.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Tok<'a> {
    pub(crate) s: &'a str,
    pub(crate) col: usize,
}

/// Splits a line into words with their 1-based character columns, in one pass (columns are
/// counted as the scan goes, so a long line costs time linear in its length).
pub(crate) fn tokenize(line: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    // (byte offset, column) of the word being read.
    let mut start: Option<(usize, usize)> = None;
    for (col0, (i, c)) in line.char_indices().enumerate() {
        #[cfg(test)]
        VISITED.with(|v| v.set(v.get() + 1));
        if c.is_whitespace() {
            if let Some((s, col)) = start.take() {
                out.push(Tok {
                    s: &line[s..i],
                    col,
                });
            }
        } else if start.is_none() {
            start = Some((i, col0 + 1));
        }
    }
    if let Some((s, col)) = start {
        out.push(Tok { s: &line[s..], col });
    }
    out
}

#[cfg(test)]
thread_local! {
    /// Characters looked at by the tokenizer and by column-to-byte conversions: the counted
    /// measure of the parser's work that the linearity test compares across input sizes.
    pub(crate) static VISITED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// An error at column `col` of the current line (the line number is filled in later).
pub(crate) fn err(col: usize, message: impl Into<Msg>) -> ParseError {
    ParseError {
        line: 0,
        col,
        message: message.into(),
    }
}

/// Parses `n3` into 3.
pub(crate) fn node(t: Tok) -> Result<NodeId, ParseError> {
    let digits =
        t.s.strip_prefix('n')
            .ok_or_else(|| err(t.col, crate::msg!("parse.not_node").arg("got", t.s)))?;
    match digits.parse::<u64>() {
        Ok(0) => Err(err(t.col, crate::msg!("err.id_zero"))),
        Ok(n) if n <= 1000 => Ok(n),
        Ok(_) => Err(err(t.col, crate::msg!("parse.id_too_big"))),
        Err(_) => Err(err(t.col, crate::msg!("parse.not_node").arg("got", t.s))),
    }
}

fn node_list(t: Tok) -> Result<Vec<NodeId>, ParseError> {
    let mut out = Vec::new();
    let mut col = t.col;
    for part in t.s.split(',') {
        if part.is_empty() {
            return Err(err(col, crate::msg!("parse.empty_node")));
        }
        out.push(node(Tok { s: part, col })?);
        col += part.chars().count() + 1;
    }
    Ok(out)
}

fn number(t: Tok, what: &'static str) -> Result<u64, ParseError> {
    t.s.parse::<u64>().map_err(|_| {
        err(
            t.col,
            crate::msg!("parse.not_number")
                .arg("what", what_words(what))
                .arg("got", t.s),
        )
    })
}

/// The name of what a command expects next ("time in ms"), as a message.
pub(crate) fn what_words(what: &'static str) -> Msg {
    Msg::at(match what {
        "KEY=VALUE" => crate::key_of!("parse.w.key_value"),
        "OPTION=VALUE" => crate::key_of!("parse.w.option_value"),
        "a command after the run's name" => crate::key_of!("parse.w.command_after_run"),
        "add, promote, remove or change" => crate::key_of!("parse.w.member_sub"),
        "condition" => crate::key_of!("parse.w.condition"),
        "groups like n1,n2 | n3" => crate::key_of!("parse.w.groups"),
        "key" => crate::key_of!("word.key"),
        "message id" => crate::key_of!("parse.w.message_id"),
        "node after via" => crate::key_of!("parse.w.node_after_via"),
        "node" => crate::key_of!("parse.w.node"),
        "number of nodes" => crate::key_of!("parse.w.number_of_nodes"),
        "percentage" => crate::key_of!("parse.w.percentage"),
        "second node" => crate::key_of!("parse.w.second_node"),
        "text to say" => crate::key_of!("parse.w.text_to_say"),
        "ticks" => crate::key_of!("parse.w.ticks"),
        "time in ms" => crate::key_of!("parse.w.time_ms"),
        _ => return Msg::verbatim(what),
    })
}

fn need<'a>(
    toks: &[Tok<'a>],
    i: usize,
    line_len: usize,
    what: &'static str,
) -> Result<Tok<'a>, ParseError> {
    toks.get(i).copied().ok_or_else(|| {
        err(
            line_len + 1,
            crate::msg!("parse.missing").arg("what", what_words(what)),
        )
    })
}

fn no_more(toks: &[Tok], i: usize) -> Result<(), ParseError> {
    match toks.get(i) {
        Some(t) => Err(err(t.col, crate::msg!("parse.unexpected").arg("got", t.s))),
        None => Ok(()),
    }
}

/// The longest a single `tick`, `await` may run, in ticks (a line must never hang the app).
pub const MAX_TICKS: u64 = 100_000;

/// The command words, for error messages.
pub const COMMANDS: &[&str] = &[
    "cluster",
    "tick",
    "at",
    "await",
    "expect",
    "say",
    "kill",
    "restart",
    "isolate",
    "partition",
    "cut",
    "loss",
    "heal",
    "campaign",
    "propose",
    "read",
    "member",
    "start",
    "transfer-leader",
    "compact",
    "force-new-cluster",
    "drop",
    "set",
    "compare",
    "A:",
    "B:",
    "explore",
];

/// `compare OPTION=VALUE ...`: the options run B takes where run A keeps the cluster's.
#[inline(never)]
fn parse_compare(toks: &[Tok]) -> Result<Stmt, ParseError> {
    let mut opts = Vec::new();
    for t in &toks[1..] {
        let (k, v) = option(t, || crate::msg!("parse.compare_seed"))?;
        opts.push((k.to_string(), v.to_string()));
    }
    Ok(Stmt::Compare(opts))
}

/// An `OPTION=VALUE` word that a cluster's options accept, split. `seed` is refused with the
/// message `seed_refusal` makes: a run's seed is fixed when its cluster is made (by
/// `cluster`). A function, as a message is worded only when needed: in the browser, naming
/// its text can fetch the part of the catalog that holds it.
fn option<'a>(
    t: &Tok<'a>,
    seed_refusal: impl FnOnce() -> crate::i18n::Msg,
) -> Result<(&'a str, &'a str), ParseError> {
    let (k, v) =
        t.s.split_once('=')
            .ok_or_else(|| err(t.col, crate::msg!("parse.not_option").arg("got", t.s)))?;
    if k == "seed" {
        return Err(err(t.col, seed_refusal()));
    }
    Options::default().set(k, v).map_err(|m| err(t.col, m))?;
    Ok((k, v))
}

/// `A: STATEMENT` or `B: STATEMENT`: a statement for one run of a comparison.
#[inline(never)]
fn parse_side(line: &str, toks: &[Tok], len: usize) -> Result<Stmt, ParseError> {
    let cmd = toks[0];
    let side = if cmd.s == "A:" { Side::A } else { Side::B };
    let t = need(toks, 1, len, "a command after the run's name")?;
    let rest = &line[line_byte(line, t.col)..];
    let inner = parse_stmt(rest, &tokenize(rest)).map_err(|mut e| {
        e.col += t.col - 1;
        e
    })?;
    if matches!(
        inner,
        Stmt::Cluster { .. } | Stmt::Compare(_) | Stmt::Only { .. } | Stmt::Explore(_)
    ) {
        return Err(err(t.col, crate::msg!("parse.sides_take")));
    }
    Ok(Stmt::Only {
        side,
        stmt: Box::new(inner),
    })
}

fn parse_stmt(line: &str, toks: &[Tok]) -> Result<Stmt, ParseError> {
    let len = line.chars().count();
    let cmd = toks[0];
    let one_node = |toks: &[Tok]| -> Result<NodeId, ParseError> {
        let n = node(need(toks, 1, len, "node")?)?;
        no_more(toks, 2)?;
        Ok(n)
    };
    Ok(match cmd.s {
        "cluster" => {
            let n = number(need(toks, 1, len, "number of nodes")?, "number of nodes")?;
            if !(1..=64).contains(&n) {
                return Err(err(toks[1].col, crate::msg!("parse.cluster_size")));
            }
            let mut opts = Options::default();
            for t in &toks[2..] {
                let (k, v) = t
                    .s
                    .split_once('=')
                    .ok_or_else(|| err(t.col, crate::msg!("parse.not_option").arg("got", t.s)))?;
                opts.set(k, v).map_err(|m| err(t.col, m))?;
            }
            // Options that constrain each other are checked together, in any order.
            opts.check()
                .map_err(|m| err(toks.last().map_or(cmd.col, |t| t.col), m))?;
            Stmt::Cluster {
                n: n as usize,
                opts,
            }
        }
        "tick" => {
            let n = match toks.get(1) {
                Some(t) => number(*t, "ticks")?,
                None => 1,
            };
            if n > MAX_TICKS {
                return Err(err(
                    toks[1].col,
                    crate::msg!("parse.max_ticks_at_once").arg("n", MAX_TICKS),
                ));
            }
            no_more(toks, 2)?;
            Stmt::Tick(n)
        }
        "at" => {
            let t = need(toks, 1, len, "time in ms")?;
            let time = number(t, "time in ms")?;
            if time > MAX_TICKS * super::cluster::TICK_MS * 10 {
                return Err(err(
                    t.col,
                    crate::msg!("parse.max_ms").arg("n", MAX_TICKS * super::cluster::TICK_MS * 10),
                ));
            }
            let then = if toks.len() > 2 {
                let rest = &line[line_byte(line, toks[2].col)..];
                let inner = parse_stmt(rest, &tokenize(rest)).map_err(|mut e| {
                    e.col += toks[2].col - 1;
                    e
                })?;
                if matches!(inner, Stmt::Cluster { .. } | Stmt::At { .. }) {
                    return Err(err(toks[2].col, crate::msg!("parse.at_takes")));
                }
                Some(Box::new(inner))
            } else {
                None
            };
            Stmt::At { time, then }
        }
        "expect" => {
            let t = need(toks, 1, len, "condition")?;
            let text = &line[line_byte(line, t.col)..];
            Stmt::Expect(cond::parse(text, t.col)?)
        }
        "await" => {
            let t = need(toks, 1, len, "condition")?;
            let n = toks.len();
            if n < 4 || toks[n - 2].s != "within" {
                return Err(err(len + 1, crate::msg!("parse.await_form")));
            }
            let within = number(toks[n - 1], "ticks")?;
            if within > MAX_TICKS {
                return Err(err(
                    toks[n - 1].col,
                    crate::msg!("parse.max_ticks").arg("n", MAX_TICKS),
                ));
            }
            let text = &line[line_byte(line, t.col)..line_byte(line, toks[n - 2].col)];
            Stmt::Await {
                cond: cond::parse(text.trim_end(), t.col)?,
                within,
            }
        }
        "say" => {
            let t = need(toks, 1, len, "text to say")?;
            Stmt::Say(line[line_byte(line, t.col)..].trim().to_string())
        }
        "kill" => Stmt::Act(Action::Kill(one_node(toks)?)),
        "restart" => Stmt::Act(Action::Restart(one_node(toks)?)),
        "isolate" => Stmt::Act(Action::Isolate(one_node(toks)?)),
        "campaign" => Stmt::Act(Action::Campaign(one_node(toks)?)),
        "start" => Stmt::Act(Action::Start(one_node(toks)?)),
        "transfer-leader" => Stmt::Act(Action::TransferLeader(one_node(toks)?)),
        "compact" => Stmt::Act(Action::Compact(one_node(toks)?)),
        "force-new-cluster" => Stmt::Act(Action::ForceNewCluster(one_node(toks)?)),
        "heal" => {
            no_more(toks, 1)?;
            Stmt::Act(Action::Heal)
        }
        "cut" => {
            let a = node(need(toks, 1, len, "node")?)?;
            let b = node(need(toks, 2, len, "second node")?)?;
            if a == b {
                return Err(err(toks[2].col, crate::msg!("err.cut_itself")));
            }
            no_more(toks, 3)?;
            Stmt::Act(Action::Cut(a, b))
        }
        "loss" => {
            let t = need(toks, 1, len, "percentage")?;
            let p = number(
                Tok {
                    s: t.s.trim_end_matches('%'),
                    col: t.col,
                },
                "percentage",
            )?;
            if p > 100 {
                return Err(err(t.col, crate::msg!("parse.loss_range")));
            }
            no_more(toks, 2)?;
            Stmt::Act(Action::Loss(p as u32))
        }
        "drop" => {
            let t = need(toks, 1, len, "message id")?;
            let id = number(t, "message id")?;
            no_more(toks, 2)?;
            Stmt::Act(Action::Drop(id))
        }
        "set" => {
            let t = need(toks, 1, len, "OPTION=VALUE")?;
            let (k, v) = option(&t, || crate::msg!("parse.seed_on_cluster"))?;
            no_more(toks, 2)?;
            Stmt::Act(Action::Set {
                name: k.to_string(),
                value: v.to_string(),
            })
        }
        "partition" => {
            let rest_col = need(toks, 1, len, "groups like n1,n2 | n3")?.col;
            let rest = &line[line_byte(line, rest_col)..];
            let mut groups = Vec::new();
            let mut seen = crate::raft::vec_map::VecSet::new();
            let mut col = rest_col;
            for part in rest.split('|') {
                let words = tokenize(part);
                let joined: String = words.iter().map(|w| w.s).collect::<Vec<_>>().join("");
                let gcol = col + words.first().map_or(0, |w| w.col - 1);
                if joined.is_empty() {
                    return Err(err(gcol, crate::msg!("parse.empty_group")));
                }
                let g = node_list(Tok {
                    s: &joined,
                    col: gcol,
                })?;
                for id in &g {
                    if !seen.insert(*id) {
                        return Err(err(gcol, crate::msg!("parse.two_groups").arg("id", *id)));
                    }
                }
                groups.push(g);
                col += part.chars().count() + 1;
            }
            if groups.len() < 2 {
                return Err(err(rest_col, crate::msg!("parse.two_groups_needed")));
            }
            Stmt::Act(Action::Partition(groups))
        }
        "propose" => {
            let t = need(toks, 1, len, "KEY=VALUE")?;
            let (k, v) = t
                .s
                .split_once('=')
                .ok_or_else(|| err(t.col, crate::msg!("parse.not_key_value").arg("got", t.s)))?;
            if k.is_empty() || v.is_empty() || v.contains('=') {
                return Err(err(
                    t.col,
                    crate::msg!("parse.not_key_value").arg("got", t.s),
                ));
            }
            let via = parse_via(toks, 2, len)?;
            no_more(toks, if via.is_some() { 4 } else { 2 })?;
            Stmt::Act(Action::Propose {
                key: k.to_string(),
                value: v.to_string(),
                via,
            })
        }
        "read" => {
            let key = need(toks, 1, len, "key")?;
            if key.s.contains('=') {
                return Err(err(key.col, crate::msg!("parse.key_has_eq")));
            }
            let via = parse_via(toks, 2, len)?;
            let mut i = if via.is_some() { 4 } else { 2 };
            let mut linearizable = true;
            if let Some(t) = toks.get(i) {
                linearizable = match t.s {
                    "linearizable" => true,
                    "serializable" => false,
                    _ => return Err(err(t.col, crate::msg!("parse.read_kind").arg("got", t.s))),
                };
                i += 1;
            }
            no_more(toks, i)?;
            Stmt::Act(Action::Read {
                key: key.s.to_string(),
                via,
                linearizable,
            })
        }
        "member" => parse_member(toks, len)?,
        // The compare statements apart, never inlined here: no lesson a first visit plays
        // uses them, so the page's first part goes without them (scripts/split-wasm.mjs).
        "compare" => parse_compare(toks)?,
        "A:" | "B:" => parse_side(line, toks, len)?,
        "explore" => Stmt::Explore(super::explore::ExploreSpec::parse(line, toks)?),
        other => {
            return Err(err(
                cmd.col,
                crate::msg!("parse.unknown_command")
                    .arg("got", other)
                    .arg("known", COMMANDS.join(", ")),
            ))
        }
    })
}

fn parse_via(toks: &[Tok], i: usize, len: usize) -> Result<Option<NodeId>, ParseError> {
    match toks.get(i) {
        Some(t) if t.s == "via" => Ok(Some(node(need(toks, i + 1, len, "node after via")?)?)),
        _ => Ok(None),
    }
}

fn parse_member(toks: &[Tok], len: usize) -> Result<Stmt, ParseError> {
    let sub = need(toks, 1, len, "add, promote, remove or change")?;
    Ok(match sub.s {
        "add" => {
            let n = node(need(toks, 2, len, "node")?)?;
            let (mut learner, mut misconfigured) = (false, false);
            for t in &toks[3..] {
                match t.s {
                    "learner" if !learner => learner = true,
                    "misconfigured" if !misconfigured => misconfigured = true,
                    _ => return Err(err(t.col, crate::msg!("parse.add_kind").arg("got", t.s))),
                }
            }
            Stmt::Act(Action::MemberAdd {
                node: n,
                learner,
                misconfigured,
            })
        }
        "promote" => {
            let n = node(need(toks, 2, len, "node")?)?;
            no_more(toks, 3)?;
            Stmt::Act(Action::Promote(n))
        }
        "remove" => {
            let n = node(need(toks, 2, len, "node")?)?;
            no_more(toks, 3)?;
            Stmt::Act(Action::Remove(n))
        }
        "change" => {
            let (mut add, mut learners, mut remove) = (Vec::new(), Vec::new(), Vec::new());
            for t in &toks[2..] {
                let (k, v) = t
                    .s
                    .split_once('=')
                    .ok_or_else(|| err(t.col, crate::msg!("parse.change_part").arg("got", t.s)))?;
                let vcol = t.col + k.chars().count() + 1;
                let ids = node_list(Tok { s: v, col: vcol })?;
                match k {
                    "add" => add.extend(ids),
                    "learners" => learners.extend(ids),
                    "remove" => remove.extend(ids),
                    _ => {
                        return Err(err(
                            t.col,
                            crate::msg!("parse.change_part").arg("got", format!("{k}=")),
                        ))
                    }
                }
            }
            if add.is_empty() && learners.is_empty() && remove.is_empty() {
                return Err(err(len + 1, crate::msg!("err.empty_change")));
            }
            Stmt::Act(Action::MemberChange {
                add,
                learners,
                remove,
            })
        }
        other => {
            return Err(err(
                sub.col,
                crate::msg!("parse.member_sub").arg("got", other),
            ))
        }
    })
}

/// Attaches a `say.LANG TEXT` line to the narration just before it.
fn translation(
    lines: &mut [Line],
    code: &str,
    toks: &[Tok],
    code_lang: &str,
) -> Result<(), ParseError> {
    let lang = match Lang::parse(code_lang) {
        Some(Lang::En) => return Err(err(toks[0].col, crate::msg!("parse.say_en"))),
        Some(l) if l.code() == code_lang => l,
        _ => {
            return Err(err(
                toks[0].col + 4,
                crate::msg!("parse.unknown_lang").arg("got", code_lang),
            ))
        }
    };
    let t = need(toks, 1, code.chars().count(), "text to say")?;
    let text = code[line_byte(code, t.col)..].trim().to_string();
    let Some(prev) = lines.last_mut().filter(|l| l.say().is_some()) else {
        return Err(err(
            toks[0].col,
            crate::msg!("parse.say_lang_after").arg("lang", code_lang),
        ));
    };
    if prev.translations.iter().any(|(l, _)| *l == lang) {
        return Err(err(
            toks[0].col,
            crate::msg!("parse.say_lang_twice").arg("lang", code_lang),
        ));
    }
    prev.translations.push((lang, text));
    Ok(())
}

/// Byte offset of a 1-based character column.
pub(crate) fn line_byte(line: &str, col: usize) -> usize {
    #[cfg(test)]
    VISITED.with(|v| v.set(v.get() + col as u64));
    line.char_indices()
        .nth(col.saturating_sub(1))
        .map_or(line.len(), |(i, _)| i)
}

impl Script {
    /// The most simulated time playing the script to its end can take, in ms: each `tick`
    /// in full, each `await` to its limit, each `at` as a jump to its time. Every other
    /// command takes no time, so a run never ends later than this (it ends sooner when an
    /// `await` is met early). The lines of both runs of a comparison count.
    pub fn time_bound_ms(&self) -> u64 {
        fn add(at: u64, stmt: &Stmt) -> u64 {
            match stmt {
                Stmt::Tick(n) => at.saturating_add(n.saturating_mul(super::cluster::TICK_MS)),
                Stmt::Await { within, .. } => {
                    at.saturating_add(within.saturating_mul(super::cluster::TICK_MS))
                }
                Stmt::At { time, then } => {
                    let at = at.max(*time);
                    then.as_deref().map_or(at, |t| add(at, t))
                }
                Stmt::Only { stmt, .. } => add(at, stmt),
                _ => at,
            }
        }
        self.lines.iter().fold(0, |at, l| add(at, &l.stmt))
    }

    /// Parses a whole scenario. The first command must be `cluster`, and only the first.
    pub fn parse(text: &str) -> Result<Script, ParseError> {
        // A UTF-8 byte order mark (some editors write one) is not part of the first line.
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut lines = Vec::new();
        // The options in force at each line, so `set` is checked against the cluster's.
        let mut opts = Options::default();
        for (i, raw) in text.lines().enumerate() {
            let lineno = i + 1;
            // `#` starts a comment, except inside narration, where it is text.
            let code =
                if raw.trim_start().starts_with("say ") || raw.trim_start().starts_with("say.") {
                    raw
                } else {
                    raw.split('#').next().unwrap_or("")
                };
            let toks = tokenize(code);
            if toks.is_empty() {
                continue;
            }
            if let Some(code_lang) = toks[0].s.strip_prefix("say.") {
                translation(&mut lines, code, &toks, code_lang).map_err(|mut e| {
                    e.line = lineno;
                    e
                })?;
                continue;
            }
            let stmt = parse_stmt(code, &toks).map_err(|mut e| {
                e.line = lineno;
                e
            })?;
            match &stmt {
                Stmt::Cluster { opts: o, .. } => opts = o.clone(),
                Stmt::Act(Action::Set { name, value }) => {
                    let at = toks.get(1).map_or(toks[0].col, |t| t.col);
                    let fail = |m: Msg| ParseError {
                        line: lineno,
                        col: at,
                        message: m,
                    };
                    opts.set(name, value).map_err(fail)?;
                    opts.check().map_err(fail)?;
                }
                _ => {}
            }
            let is_cluster = matches!(stmt, Stmt::Cluster { .. });
            let at = |key: &'static str| ParseError {
                line: lineno,
                col: toks[0].col,
                message: Msg::new(key),
            };
            match &stmt {
                Stmt::Compare(_)
                    if lines
                        .iter()
                        .any(|l: &Line| matches!(l.stmt, Stmt::Compare(_))) =>
                {
                    return Err(at("parse.compare_once"));
                }
                Stmt::Explore(_)
                    if lines
                        .iter()
                        .any(|l: &Line| matches!(l.stmt, Stmt::Explore(_))) =>
                {
                    return Err(at("parse.explore_once"));
                }
                Stmt::Only { .. } if !lines.iter().any(|l| matches!(l.stmt, Stmt::Compare(_))) => {
                    return Err(at("parse.sides_after_compare"));
                }
                _ => {}
            }
            if lines.is_empty() && !is_cluster {
                return Err(ParseError {
                    line: lineno,
                    col: toks[0].col,
                    message: crate::msg!("parse.first_cluster"),
                });
            }
            if !lines.is_empty() && is_cluster {
                return Err(ParseError {
                    line: lineno,
                    col: toks[0].col,
                    message: crate::msg!("parse.cluster_once"),
                });
            }
            lines.push(Line {
                lineno,
                text: code.trim().to_string(),
                stmt,
                translations: Vec::new(),
            });
        }
        if lines.is_empty() {
            return Err(ParseError {
                line: 1,
                col: 1,
                message: crate::msg!("parse.empty"),
            });
        }
        Ok(Script { lines })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn time_bound_counts_ticks_awaits_and_jumps() {
        let text =
            "cluster 3\ntick 5\nawait leader != none within 40\npropose a=1\nat 2000\nat 100 tick 3\n";
        // 5 ticks and at most 40 more: 4,500 ms, past both `at`s; the last one's tick adds
        // 300 ms. The run itself meets its `await` sooner and ends earlier.
        assert_eq!(Script::parse(text).unwrap().time_bound_ms(), 4_800);
        let run = crate::sim::player::run_text(text).unwrap();
        assert!(run.time_ms <= 4_800, "the run took {} ms", run.time_ms);
    }

    use super::*;

    fn e(text: &str) -> ParseError {
        Script::parse(text).unwrap_err()
    }

    #[test]
    fn parses_every_command() {
        let s = Script::parse(
            "cluster 3 seed=7 prevote=off latency=5-20\n\
             # a comment\n\
             \n\
             tick\ntick 10\nat 2500 kill n1\nrestart n1\nisolate n2\n\
             partition n1,n2 | n3\ncut n1 n3\nloss 10\nheal\ncampaign n2\n\
             propose x=1\npropose y=2 via n3\nread x\nread x via n2 serializable\n\
             member add n4 learner misconfigured\nstart n4\nmember promote n4\n\
             member remove n4\nmember change add=n5,n6 remove=n1,n2\n\
             transfer-leader n2\ncompact n1\nforce-new-cluster n1\ndrop 12\nset checkquorum=off\n\
             await leader != none within 50\nexpect n1.term >= 1\nsay Watch n1. # not a comment\n",
        )
        .unwrap();
        assert_eq!(s.lines.len(), 28);
        assert_eq!(
            s.lines.last().unwrap().stmt,
            Stmt::Say("Watch n1. # not a comment".into())
        );
        match &s.lines[0].stmt {
            Stmt::Cluster { n, opts } => {
                assert_eq!(*n, 3);
                assert_eq!(opts.seed, 7);
                assert!(!opts.prevote);
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            e("tick 3").message.to_string(),
            "the first command must be 'cluster N'"
        );
        let x = e("cluster 3\nkill x3");
        assert_eq!((x.line, x.col), (2, 6));
        assert!(x.message.to_string().contains("expected a node"));
        let x = e("cluster 3\nfrobnicate n1");
        assert_eq!((x.line, x.col), (2, 1));
        assert!(x.message.to_string().contains("unknown command"));
        let x = e("cluster 3 prevote=perhaps");
        assert_eq!((x.line, x.col), (1, 11));
        assert_eq!(e("cluster 0").col, 9);
        assert!(e("cluster 3\ncluster 3")
            .message
            .to_string()
            .contains("only appear once"));
        assert!(e("cluster 3\npartition n1,n2")
            .message
            .to_string()
            .contains("two groups"));
        assert!(e("cluster 3\npartition n1 | n1")
            .message
            .to_string()
            .contains("two groups"));
        assert!(e("cluster 3\nawait leader = n1")
            .message
            .to_string()
            .contains("within"));
        assert!(e("cluster 3\nexpect n1.colour = red")
            .message
            .to_string()
            .contains("unknown"));
        assert!(e("cluster 3\npropose x")
            .message
            .to_string()
            .contains("KEY=VALUE"));
        assert!(e("cluster 3\nread x via")
            .message
            .to_string()
            .contains("missing"));
        assert!(e("cluster 3\nmember add n4 sideways")
            .message
            .to_string()
            .contains("learner"));
        assert!(e("cluster 3\nmember frob n4")
            .message
            .to_string()
            .contains("member add"));
        assert!(e("cluster 3\nmember change")
            .message
            .to_string()
            .contains("needs"));
        assert!(e("cluster 3\nloss 101")
            .message
            .to_string()
            .contains("0 to 100"));
        assert!(e("cluster 3\nkill n1 n2")
            .message
            .to_string()
            .contains("unexpected"));
        assert!(e("cluster 3\nat 10 cluster 3")
            .message
            .to_string()
            .contains("'at' takes"));
        assert!(e("").message.to_string().contains("empty"));
        assert!(e("cluster 3\ncut n1 n1")
            .message
            .to_string()
            .contains("itself"));
        assert!(e("cluster 3\ntick 100001")
            .message
            .to_string()
            .contains("at most"));
        assert!(e("cluster 3\nawait leader = n1 within 999999")
            .message
            .to_string()
            .contains("at most"));
        assert!(e("cluster 3\nat 18446744073709551615 heal")
            .message
            .to_string()
            .contains("at most"));
        assert!(e("cluster 3\nset seed=4")
            .message
            .to_string()
            .contains("cluster line"));
        // `compare` checks its options as `set` does, and refuses the seed with its own reason.
        assert!(e("cluster 3\ncompare seed=4")
            .message
            .to_string()
            .contains("share the seed"));
        for bad in ["cluster 3\ncompare prevote", "cluster 3\nset prevote"] {
            assert!(e(bad).message.to_string().contains("OPTION=VALUE"), "{bad}");
        }
        let set = e("cluster 3\nset prevote=maybe").message.to_string();
        assert_eq!(
            e("cluster 3\ncompare prevote=maybe").message.to_string(),
            set
        );
        assert!(e("cluster 3\nn0")
            .message
            .to_string()
            .contains("unknown command"));
        assert!(e("cluster 3\nkill n0")
            .message
            .to_string()
            .contains("start at n1"));
    }

    #[test]
    fn unicode_does_not_break_columns() {
        let x = e("cluster 3\nkill ñ1");
        assert_eq!((x.line, x.col), (2, 6));
        assert!(Script::parse("cluster 3\nexpect n1.value ключ = é").is_ok());
    }

    #[test]
    fn say_zh_translates_the_say_line_before_it() {
        let s = Script::parse(
            "cluster 3\nsay Watch n1. # not a comment\n# a comment\n\nsay.zh 注意 n1。# 也不是注释\nat 500 say Later.\nsay.zh 稍后。\nsay Untranslated.\n",
        )
        .unwrap();
        assert_eq!(s.lines.len(), 4);
        assert_eq!(
            s.lines[1].narration(Lang::Zh),
            Some("注意 n1。# 也不是注释")
        );
        assert_eq!(
            s.lines[1].narration(Lang::En),
            Some("Watch n1. # not a comment")
        );
        assert_eq!(s.lines[2].narration(Lang::Zh), Some("稍后。"));
        assert_eq!(s.lines[3].narration(Lang::Zh), Some("Untranslated."));
        assert_eq!(s.lines[0].narration(Lang::Zh), None);
    }

    #[test]
    fn a_misplaced_or_unknown_translation_is_an_error() {
        let x = e("cluster 3\ntick 1\nsay.zh 你好");
        assert_eq!((x.line, x.col), (3, 1));
        assert!(
            x.message.to_string().contains("right after"),
            "{}",
            x.message
        );
        assert!(e("cluster 3\nsay hi\nsay.fr salut")
            .message
            .to_string()
            .contains("unknown language 'fr'"));
        assert!(e("cluster 3\nsay hi\nsay.en hi")
            .message
            .to_string()
            .contains("English"));
        assert!(e("cluster 3\nsay hi\nsay.zh 一\nsay.zh 二")
            .message
            .to_string()
            .contains("already"));
        assert!(e("cluster 3\nsay hi\nsay.zh")
            .message
            .to_string()
            .contains("missing"));
        assert!(e("cluster 3\nsay hi\nsay.zh-TW 嗨")
            .message
            .to_string()
            .contains("unknown"));
        assert!(e("say.zh 你好").message.to_string().contains("right after"));
    }

    #[test]
    fn cluster_options_are_checked_together_in_any_order() {
        for line in [
            "cluster 3 heartbeat=20 election=30",
            "cluster 3 election=30 heartbeat=20",
        ] {
            let s = Script::parse(line).unwrap_or_else(|e| panic!("{line}: {e}"));
            let Stmt::Cluster { opts, .. } = &s.lines[0].stmt else {
                panic!("not a cluster line")
            };
            assert_eq!((opts.heartbeat, opts.election), (20, 30));
        }
        let x = e("cluster 3 election=30 heartbeat=40");
        assert!(
            x.message.to_string().contains("shorter than election (30)"),
            "{x}"
        );
    }

    #[test]
    fn set_is_checked_against_the_clusters_options() {
        assert!(Script::parse("cluster 3 election=30\nset heartbeat=20").is_ok());
        let x = e("cluster 3\nset heartbeat=20");
        assert_eq!((x.line, x.col), (2, 5));
        assert!(
            x.message.to_string().contains("shorter than election (10)"),
            "{x}"
        );
        // Each set changes the options the next one is checked against.
        assert!(Script::parse("cluster 3\nset election=50\nset heartbeat=20").is_ok());
        assert!(Script::parse("cluster 3 election=30 heartbeat=20\nset election=15").is_err());
    }

    #[test]
    fn a_utf8_byte_order_mark_is_ignored() {
        let s = Script::parse("\u{feff}cluster 3\ntick 2").expect("BOM ignored");
        assert_eq!(s.lines.len(), 2);
        assert_eq!(s.lines[0].text, "cluster 3");
    }

    /// The parser's work, counted in characters looked at, grows linearly with the line:
    /// a line eight times as long costs at most a little over eight times as much (columns
    /// used to be recounted from the start of the line for every word: quadratic).
    #[test]
    fn parsing_is_linear_in_the_input() {
        let work = |words: usize| {
            let mut lines = Vec::new();
            let say: String = "say".to_string() + &" é".repeat(words);
            lines.push(say);
            let nodes: Vec<String> = (1..=words).map(|i| format!("n{}", i % 999 + 1)).collect();
            lines.push(format!("member change add={}", nodes.join(",")));
            lines.push(format!("expect leader {}= n1", " ".repeat(words)));
            lines.push(format!("kill{}", " n1".repeat(words)));
            let mut total = 0;
            for l in lines {
                VISITED.with(|v| v.set(0));
                let _ = Script::parse(&format!("cluster 3\n{l}"));
                total += VISITED.with(|v| v.get());
            }
            total
        };
        let (small, big) = (work(2_000), work(16_000));
        assert!(small > 0);
        assert!(
            big * 100 <= small * 8 * 105,
            "8x the input cost {:.1}x the work",
            big as f64 / small as f64
        );
    }
}
