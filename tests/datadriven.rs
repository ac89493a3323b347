//! Datadriven interaction tests, the way etcd-io/raft tests itself: each file under
//! tests/testdata drives bare raft cores message by message and holds the expected output of
//! every command. `REWRITE=1 cargo test --test datadriven` writes the actual output back into
//! the files (review the diff by hand: the files pin etcd's behaviour, not the code's).
//!
//! File format: `# comment` lines and blank lines are kept as they are; a command line, then
//! optional input lines, then `----`, then the expected output up to the next blank line.
//!
//! Commands (node ids are numbers):
//! - `add-nodes N [voters=(1,2,3)] [learners=(4)] [index=K] [prevote=true] [checkquorum=true]
//!   [inflight=N] [max-entries=N] [step-down-on-removal=true] [legacy-flow=true]`: N new nodes
//!   with the next ids. With voters, their log starts at a snapshot at index K (term 1) holding
//!   that configuration; without, they start empty, outside any configuration.
//! - `campaign N`, `propose N DATA`, `propose-conf-change N [transition=auto|implicit|explicit]`
//!   with an input line such as `v4 l5 r1` (add voter, add learner, remove; empty: leave joint).
//!   raftlab chooses the transition per cluster (RaftConfig), so it is set on every node.
//! - `tick-heartbeat N`: heartbeat_tick ticks. `tick-election N`: ticks until the node's
//!   election timer fires (a follower campaigns, a leader runs check-quorum).
//! - `deliver-msgs [drop=(ids)] [N ...]`: delivers (or drops) the pending messages to those
//!   nodes, once. `stabilize [N ...]`: delivers until no message for those nodes is pending.
//!   `deliver-msgs type=App N` delivers only messages of that type.
//! - `send-snapshot N M`: the test sends N's applied state to M as a snapshot (etcd's
//!   send-snapshot), outside N's progress tracking.
//! - `compact N INDEX` (INDEX must be the applied index), `transfer-leadership from=N to=M`,
//!   `restart N`, `raft-state`, `status N`, `raft-log N`,
//!   `set-randomized-election-timeout N timeout=T`, `report-unreachable N PEER` (etcd's
//!   MsgUnreachable: a replicating PEER goes back to probe on leader N).
//!
//! raftlab persists before it sends (no Ready, no process-ready): a command's output lists
//! what the node did and sent at once.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use raftlab::raft::log::RaftLog;
use raftlab::raft::{
    ConfChange, ConfChangeSingle, ConfChangeTransition, Config, Durable, Entry, EntryData, Message,
    MsgType, NodeId, ProgressState, Raft, RaftConfig, Rng, Role, Snapshot, NONE,
};
use raftlab::sim::words;

/// The cores under test and the messages in flight between them, in sending order.
struct Env {
    nodes: BTreeMap<NodeId, Raft>,
    queue: Vec<Message>,
}

/// One parsed command: name, positional arguments, key=value arguments, input lines.
struct Cmd {
    name: String,
    args: Vec<String>,
    kv: BTreeMap<String, String>,
    input: Vec<String>,
}

impl Cmd {
    fn ids(&self, key: &str) -> Result<Vec<NodeId>, String> {
        match self.kv.get(key) {
            None => Ok(Vec::new()),
            Some(v) => v
                .trim_matches(|c| c == '(' || c == ')')
                .split(',')
                .filter(|s| !s.trim().is_empty())
                .map(|s| s.trim().parse().map_err(|_| format!("bad id {s:?}")))
                .collect(),
        }
    }

    fn flag(&self, key: &str) -> Result<Option<bool>, String> {
        self.kv
            .get(key)
            .map(|v| {
                v.parse::<bool>()
                    .map_err(|_| format!("{key}: want true or false"))
            })
            .transpose()
    }

    fn num(&self, key: &str) -> Result<Option<u64>, String> {
        self.kv
            .get(key)
            .map(|v| {
                v.parse::<u64>()
                    .map_err(|_| format!("{key}: want a number"))
            })
            .transpose()
    }

    fn arg_id(&self, i: usize) -> Result<NodeId, String> {
        self.args
            .get(i)
            .ok_or_else(|| format!("{}: missing node id", self.name))?
            .parse()
            .map_err(|_| format!("{}: bad node id", self.name))
    }

    fn arg_ids(&self) -> Result<Vec<NodeId>, String> {
        self.args
            .iter()
            .map(|a| a.parse().map_err(|_| format!("bad node id {a:?}")))
            .collect()
    }
}

fn entry(e: &Entry) -> String {
    let what = match &e.data {
        EntryData::Empty => "empty".to_string(),
        EntryData::Put { key, value, .. } => format!("put {key}={value}"),
        EntryData::Conf { cc, .. } => format!("conf {}", cc.describe()),
    };
    format!("{}/{} {what}", e.term, e.index)
}

fn msg(m: &Message) -> String {
    let t = format!("{:?}", m.msg_type);
    let mut s = format!("{}->{} {t} term={}", m.from, m.to, m.term);
    match m.msg_type {
        MsgType::App => {
            let ents: Vec<String> = m.entries.iter().map(|e| entry(e)).collect();
            let _ = write!(s, " log={}/{} commit={}", m.log_term, m.index, m.commit);
            if !ents.is_empty() {
                let _ = write!(s, " entries=[{}]", ents.join(", "));
            }
        }
        MsgType::AppResp => {
            let _ = write!(s, " index={}", m.index);
            if m.reject {
                let _ = write!(s, " rejected hint={}/{}", m.log_term, m.reject_hint);
            }
        }
        MsgType::Vote | MsgType::PreVote => {
            let _ = write!(s, " log={}/{}", m.log_term, m.index);
        }
        MsgType::VoteResp | MsgType::PreVoteResp if m.reject => s.push_str(" rejected"),
        MsgType::Heartbeat => {
            let _ = write!(s, " commit={}", m.commit);
        }
        MsgType::Snap => {
            if let Some(snap) = &m.snapshot {
                let _ = write!(
                    s,
                    " snapshot={}/{} {}{}",
                    snap.term,
                    snap.index,
                    snap.conf.describe(),
                    if snap.conf.auto_leave {
                        " autoleave"
                    } else {
                        ""
                    }
                );
            }
        }
        MsgType::Prop => {
            let ents: Vec<String> = m.entries.iter().map(|e| entry(e)).collect();
            let _ = write!(s, " entries=[{}]", ents.join(", "));
        }
        _ => {}
    }
    if m.msg_type == MsgType::Vote && m.context != 0 {
        s.push_str(" transfer");
    }
    s
}

fn state_line(r: &Raft) -> String {
    format!(
        "{}: {} term={} vote={} lead={} commit={} applied={} last={}",
        r.id,
        r.role.name(),
        r.term,
        r.vote,
        r.lead,
        r.log.committed,
        r.log.applied,
        r.log.last_index()
    )
}

fn progress_line(r: &Raft, id: NodeId) -> String {
    let Some(p) = r.progress(id) else {
        return format!("{id}: no progress");
    };
    let mut s = format!(
        "{id}: {} match={} next={}",
        p.state.name(),
        p.matched,
        p.next
    );
    if p.is_learner {
        s.push_str(" learner");
    }
    if p.is_paused() {
        s.push_str(" paused");
    }
    if p.state == ProgressState::Snapshot {
        let _ = write!(s, " pending-snap={}", p.pending_snapshot);
    }
    if !p.recent_active {
        s.push_str(" inactive");
    }
    if p.inflights.count() > 0 {
        let _ = write!(s, " inflight={}", p.inflights.count());
        if p.inflights.full() {
            s.push_str("[full]");
        }
    }
    s
}

impl Env {
    fn node(&mut self, id: NodeId) -> Result<&mut Raft, String> {
        self.nodes
            .get_mut(&id)
            .ok_or_else(|| format!("no node {id}"))
    }

    /// Takes what `id` sent and noted since the last call, and writes it out.
    fn collect(&mut self, id: NodeId, out: &mut String, indent: &str) {
        let Some(r) = self.nodes.get_mut(&id) else {
            return;
        };
        let notes = std::mem::take(&mut r.notes);
        let msgs = std::mem::take(&mut r.msgs);
        for n in &notes {
            let (_, text) = words::note(id, n);
            let _ = writeln!(out, "{indent}{text}");
        }
        for m in msgs {
            let _ = writeln!(out, "{indent}send {}", msg(&m));
            self.queue.push(m);
        }
    }

    fn step(&mut self, id: NodeId, m: Message, out: &mut String, indent: &str) {
        let before = self.nodes.get(&id).map(state_line);
        if let Some(r) = self.nodes.get_mut(&id) {
            r.step(m);
        }
        self.collect(id, out, indent);
        let after = self.nodes.get(&id).map(state_line);
        if before != after {
            if let Some(a) = after {
                let _ = writeln!(out, "{indent}state {a}");
            }
        }
    }

    fn tick(&mut self, id: NodeId, n: u64, out: &mut String) -> Result<(), String> {
        let before = state_line(self.node(id)?);
        for _ in 0..n {
            self.node(id)?.tick();
            self.collect(id, out, "");
        }
        let after = state_line(self.node(id)?);
        if before != after {
            let _ = writeln!(out, "state {after}");
        }
        Ok(())
    }

    fn add_nodes(&mut self, c: &Cmd) -> Result<String, String> {
        let n = c.arg_id(0)?;
        let voters = c.ids("voters")?;
        let learners = c.ids("learners")?;
        let index = c.num("index")?.unwrap_or(0);
        let mut cfg = RaftConfig {
            heartbeat_tick: 1,
            election_tick: 3,
            pre_vote: c.flag("prevote")?.unwrap_or(false),
            check_quorum: c.flag("checkquorum")?.unwrap_or(false),
            max_inflight: c.num("inflight")?.map_or(256, |v| v as usize),
            max_entries: c.num("max-entries")?.map_or(1000, |v| v as usize),
            ..RaftConfig::default()
        };
        cfg.step_down_on_removal = c.flag("step-down-on-removal")?.unwrap_or(false);
        cfg.legacy_flow_control = c.flag("legacy-flow")?.unwrap_or(false);
        let mut conf = Config::with_voters(voters.iter().copied());
        conf.learners = learners.iter().copied().collect();
        let mut out = String::new();
        let first = self.nodes.keys().max().copied().unwrap_or(0) + 1;
        for id in first..first + n {
            let snap = Snapshot {
                index,
                term: u64::from(index > 0),
                conf: conf.clone(),
                data: raftlab::raft::KvState::default(),
            };
            let durable = Durable {
                term: 0,
                vote: NONE,
                log: RaftLog::new(snap),
            };
            let r = Raft::restart(id, durable, cfg.clone(), Rng::new(id));
            let _ = writeln!(out, "{} {}", state_line(&r), r.trk.config.describe());
            self.nodes.insert(id, r);
        }
        Ok(out)
    }

    fn deliver(&mut self, to: &[NodeId], drop: &[NodeId], out: &mut String) -> bool {
        let pending = std::mem::take(&mut self.queue);
        let (mine, rest): (Vec<Message>, Vec<Message>) = pending.into_iter().partition(|m| {
            (to.is_empty() && drop.is_empty()) || to.contains(&m.to) || drop.contains(&m.to)
        });
        self.queue = rest;
        let any = !mine.is_empty();
        for m in mine {
            if drop.contains(&m.to) {
                let _ = writeln!(out, "dropped {}", msg(&m));
                continue;
            }
            let _ = writeln!(out, "deliver {}", msg(&m));
            let id = m.to;
            if self.nodes.contains_key(&id) {
                self.step(id, m, out, "  ");
            }
        }
        any
    }

    fn stabilize(&mut self, ids: &[NodeId], out: &mut String) {
        for _ in 0..10_000 {
            let mut any = false;
            let order: Vec<NodeId> = if ids.is_empty() {
                self.nodes.keys().copied().collect()
            } else {
                ids.to_vec()
            };
            for id in order {
                let batch: Vec<Message> = {
                    let (mine, rest) = std::mem::take(&mut self.queue)
                        .into_iter()
                        .partition(|m| m.to == id);
                    self.queue = rest;
                    mine
                };
                if batch.is_empty() {
                    continue;
                }
                any = true;
                let _ = writeln!(out, "> {id} receives");
                for m in batch {
                    let _ = writeln!(out, "  {}", msg(&m));
                    self.step(id, m, out, "  ");
                }
            }
            if !any {
                return;
            }
        }
        out.push_str("never stabilized\n");
    }

    fn run(&mut self, c: &Cmd) -> Result<String, String> {
        let mut out = String::new();
        match c.name.as_str() {
            "add-nodes" => return self.add_nodes(c),
            "campaign" => {
                let id = c.arg_id(0)?;
                let before = state_line(self.node(id)?);
                self.node(id)?.campaign_now();
                self.collect(id, &mut out, "");
                let after = state_line(self.node(id)?);
                if before != after {
                    let _ = writeln!(out, "state {after}");
                }
            }
            "propose" => {
                let id = c.arg_id(0)?;
                let data = c.args.get(1).cloned().unwrap_or_default();
                let mut m = Message::new(MsgType::Prop, id, id);
                m.entries = Box::new([Arc::new(Entry {
                    term: 0,
                    index: 0,
                    data: EntryData::Put {
                        key: "k".into(),
                        value: data,
                        req: 0,
                    },
                })]);
                self.step(id, m, &mut out, "");
            }
            "propose-conf-change" => {
                let id = c.arg_id(0)?;
                // The transition travels in the entry (etcd's ConfChangeV2); without
                // transition= it is Auto, what etcd's v1 and v2 changes do unasked.
                let transition = match c.kv.get("transition").map(String::as_str) {
                    None | Some("auto") => ConfChangeTransition::Auto,
                    Some("implicit") => ConfChangeTransition::JointImplicit,
                    Some("explicit") => ConfChangeTransition::JointExplicit,
                    Some(t) => return Err(format!("unknown transition {t}")),
                };
                let mut changes = Vec::new();
                for w in c.input.iter().flat_map(|l| l.split_whitespace()) {
                    let (kind, n) = w.split_at(1);
                    let n: NodeId = n.parse().map_err(|_| format!("bad change {w:?}"))?;
                    changes.push(match kind {
                        "v" => ConfChangeSingle::AddNode(n),
                        "l" => ConfChangeSingle::AddLearner(n),
                        "r" => ConfChangeSingle::RemoveNode(n),
                        _ => return Err(format!("bad change {w:?}")),
                    });
                }
                let mut m = Message::new(MsgType::Prop, id, id);
                m.entries = Box::new([Arc::new(Entry {
                    term: 0,
                    index: 0,
                    data: EntryData::Conf {
                        cc: ConfChange {
                            changes,
                            transition,
                        },
                        req: 0,
                    },
                })]);
                self.step(id, m, &mut out, "");
            }
            "tick-heartbeat" => {
                let id = c.arg_id(0)?;
                let n = self.node(id)?.cfg.heartbeat_tick;
                self.tick(id, n, &mut out)?;
            }
            "tick-election" => {
                let id = c.arg_id(0)?;
                let r = self.node(id)?;
                let n = if r.role == Role::Leader {
                    r.cfg.election_tick.saturating_sub(r.election_elapsed)
                } else {
                    r.randomized_election_timeout
                        .saturating_sub(r.election_elapsed)
                };
                self.tick(id, n.max(1), &mut out)?;
            }
            "deliver-msgs" => {
                let drop = c.ids("drop")?;
                let to = c.arg_ids()?;
                let kind = c.kv.get("type").cloned();
                let held: Vec<Message> = match &kind {
                    Some(t) => {
                        let (keep, held) = std::mem::take(&mut self.queue)
                            .into_iter()
                            .partition(|m| format!("{:?}", m.msg_type) == *t);
                        self.queue = keep;
                        held
                    }
                    None => Vec::new(),
                };
                self.deliver(&to, &drop, &mut out);
                // Messages of other types stay in flight, in their order.
                let mut rest = held;
                rest.append(&mut self.queue);
                self.queue = rest;
            }
            "send-snapshot" => {
                // etcd's send-snapshot: the test, not the raft core, sends node N's
                // applied state as a snapshot; the sender's progress is left alone.
                let (from, to) = (c.arg_id(0)?, c.arg_id(1)?);
                let r = self.node(from)?;
                let index = r.log.applied;
                let term = r.log.term(index).ok_or("applied entry's term is gone")?;
                let mut m = Message::new(MsgType::Snap, from, to);
                m.term = r.term;
                m.snapshot = Some(Box::new(Snapshot {
                    index,
                    term,
                    conf: r.trk.config.clone(),
                    data: r.kv.clone(),
                }));
                let _ = writeln!(out, "send {}", msg(&m));
                self.queue.push(m);
            }
            "set-randomized-election-timeout" => {
                let id = c.arg_id(0)?;
                let t = c.num("timeout")?.ok_or("timeout= missing")?;
                self.node(id)?.randomized_election_timeout = t;
            }
            "report-unreachable" => {
                // etcd's MsgUnreachable: a replicating follower is probed again.
                let (id, peer) = (c.arg_id(0)?, c.arg_id(1)?);
                let r = self.node(id)?;
                if let Some(p) = r.trk.progress.get_mut(&peer) {
                    if p.state == ProgressState::Replicate {
                        p.become_probe();
                    }
                }
            }
            "stabilize" => {
                let ids = c.arg_ids()?;
                self.stabilize(&ids, &mut out);
            }
            "compact" => {
                let id = c.arg_id(0)?;
                let index = c.arg_id(1)?;
                let r = self.node(id)?;
                if index != r.log.applied {
                    return Err(format!(
                        "raftlab compacts at the applied index ({}), not {index}",
                        r.log.applied
                    ));
                }
                r.compact();
                self.collect(id, &mut out, "");
            }
            "transfer-leadership" => {
                let from = c.num("from")?.ok_or("from= missing")?;
                let to = c.num("to")?.ok_or("to= missing")?;
                let m = Message::new(MsgType::TransferLeader, to, from);
                self.step(from, m, &mut out, "");
            }
            "restart" => {
                let id = c.arg_id(0)?;
                let r = self.node(id)?;
                let (durable, cfg) = (r.durable(), r.cfg.clone());
                let r = Raft::restart(id, durable, cfg, Rng::new(id + 100));
                let _ = writeln!(out, "{}", state_line(&r));
                self.nodes.insert(id, r);
                // A restarted node's messages in flight to it are not lost; its own are.
            }
            "raft-state" => {
                for r in self.nodes.values() {
                    let _ = writeln!(out, "{} {}", state_line(r), r.trk.config.describe());
                }
            }
            "status" => {
                let id = c.arg_id(0)?;
                let r = self.node(id)?.clone();
                for p in r.trk.progress.keys() {
                    let _ = writeln!(out, "{}", progress_line(&r, *p));
                }
            }
            "raft-log" => {
                let id = c.arg_id(0)?;
                let l = self.node(id)?.log.clone();
                let _ = writeln!(
                    out,
                    "snapshot={}/{} commit={} applied={}",
                    l.snapshot.term, l.snapshot.index, l.committed, l.applied
                );
                for e in &l.entries {
                    let _ = writeln!(out, "{}", entry(e));
                }
            }
            other => return Err(format!("unknown command {other:?}")),
        }
        Ok(out)
    }
}

fn parse_cmd(line: &str, input: Vec<String>) -> Cmd {
    let mut words = line.split_whitespace();
    let name = words.next().unwrap_or_default().to_string();
    let mut args = Vec::new();
    let mut kv = BTreeMap::new();
    for w in words {
        match w.split_once('=') {
            Some((k, v)) => {
                kv.insert(k.to_string(), v.to_string());
            }
            None => args.push(w.to_string()),
        }
    }
    Cmd {
        name,
        args,
        kv,
        input,
    }
}

/// Runs one file; returns the file as it should read (expectations replaced by the output).
fn run_file(path: &Path) -> (String, String) {
    let text = std::fs::read_to_string(path).expect("readable test file");
    let lines: Vec<&str> = text.lines().collect();
    let mut env = Env {
        nodes: BTreeMap::new(),
        queue: Vec::new(),
    };
    let mut out = String::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim().is_empty() || line.starts_with('#') {
            out.push_str(line);
            out.push('\n');
            i += 1;
            continue;
        }
        let cmd_line = line;
        i += 1;
        let mut input = Vec::new();
        while i < lines.len() && lines[i] != "----" {
            input.push(lines[i].to_string());
            i += 1;
        }
        i += 1; // the ---- line
        while i < lines.len() && !lines[i].trim().is_empty() {
            i += 1; // the old expectation
        }
        let cmd = parse_cmd(cmd_line, input.clone());
        let result = env.run(&cmd).unwrap_or_else(|e| format!("error: {e}\n"));
        out.push_str(cmd_line);
        out.push('\n');
        for l in &input {
            out.push_str(l);
            out.push('\n');
        }
        out.push_str("----\n");
        let result = if result.trim().is_empty() {
            "ok\n".to_string()
        } else {
            result
        };
        out.push_str(&result);
    }
    (text, out)
}

fn check(name: &str) {
    let path: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "testdata", name]
        .iter()
        .collect();
    let (want, got) = run_file(&path);
    if std::env::var_os("REWRITE").is_some() {
        std::fs::write(&path, &got).expect("writable test file");
        return;
    }
    if want != got {
        let diff: Vec<String> = want
            .lines()
            .zip(got.lines())
            .enumerate()
            .filter(|(_, (a, b))| a != b)
            .take(5)
            .map(|(n, (a, b))| format!("line {}:\n  want: {a}\n  got:  {b}", n + 1))
            .collect();
        panic!(
            "{name}: output differs (REWRITE=1 regenerates; review by hand)\n{}\n(want {} lines, got {})",
            diff.join("\n"),
            want.lines().count(),
            got.lines().count()
        );
    }
}

macro_rules! datadriven {
    ($($name:ident),* $(,)?) => {
        $(
            #[test]
            fn $name() {
                check(concat!(stringify!($name), ".txt"));
            }
        )*
    };
}

datadriven!(
    campaign,
    campaign_learner_must_vote,
    checkquorum,
    prevote,
    prevote_checkquorum,
    probe_and_replicate,
    replicate_pause,
    heartbeat_resp_recovers_from_probing,
    lagging_commit,
    slow_follower_after_compaction,
    snapshot_succeed_via_app_resp,
    snapshot_succeed_via_app_resp_behind,
    single_node,
    confchange_v1_add_single,
    confchange_v1_remove_leader,
    confchange_v1_remove_leader_stepdown,
    confchange_v2_add_single_auto,
    confchange_v2_add_single_explicit,
    confchange_v2_add_double_auto,
    confchange_v2_add_double_implicit,
    confchange_v2_replace_leader,
    confchange_v2_replace_leader_stepdown,
    forget_leader,
    transfer_leadership_back,
    step_ignore_conf_change,
);

/// Every file in tests/testdata has a test above, so none is silently skipped.
#[test]
fn every_testdata_file_is_run() {
    let dir: PathBuf = [env!("CARGO_MANIFEST_DIR"), "tests", "testdata"]
        .iter()
        .collect();
    let src = include_str!("datadriven.rs");
    for e in std::fs::read_dir(dir).expect("testdata dir") {
        let name = e.expect("dir entry").file_name();
        let stem = name.to_string_lossy().trim_end_matches(".txt").to_string();
        assert!(
            src.contains(&format!("    {stem},")),
            "{stem}.txt has no test"
        );
    }
}
