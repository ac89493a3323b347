//! What the person typed or chose in the panels' forms, kept between frames.

use super::h;
use crate::el;
use crate::raft::NodeId;

/// A form field, for `Msg::Field`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Reset: number of nodes.
    ResetN,
    /// Reset: seed.
    ResetSeed,
    /// Client: key to write.
    PutKey,
    /// Client: value to write.
    PutValue,
    /// Client: node the write goes to ("" = the leader).
    PutVia,
    /// Client: key to read.
    ReadKey,
    /// Client: node the read goes to ("" = the leader).
    ReadVia,
    /// Client: "linearizable" or "serializable".
    ReadMode,
    /// Membership: new member id (digits, or n4).
    AddId,
    /// Membership: "voter" or "learner".
    AddAs,
    /// Membership: misconfigured peer URL ("true"/"false").
    AddMisconfigured,
    /// Membership: start its process now ("true"/"false").
    AddStart,
    /// Membership: joint change, voters to add.
    JointAdd,
    /// Membership: joint change, members to remove.
    JointRemove,
    /// Network: cut link end A.
    CutA,
    /// Network: cut link end B.
    CutB,
    /// Network: loss percent.
    Loss,
    /// Network: min latency.
    LatMin,
    /// Network: max latency.
    LatMax,
    /// Scenario: pasted text.
    Paste,
    /// Scenario: chosen preset id.
    Preset,
    /// Toolbar: learner-ready percent being typed ("" = show the option in force).
    LearnerReady,
    /// Scenario: the "show script" list is open ("true"/"false").
    ScriptShown,
}

/// Every form's current values.
#[derive(Clone, Debug)]
pub struct Forms {
    pub reset_n: String,
    pub reset_seed: String,
    pub put_key: String,
    pub put_value: String,
    pub put_via: String,
    pub read_key: String,
    pub read_via: String,
    pub read_linearizable: bool,
    pub add_id: String,
    pub add_learner: bool,
    pub add_misconfigured: bool,
    pub add_start: bool,
    pub joint_add: String,
    pub joint_remove: String,
    pub cut_a: String,
    pub cut_b: String,
    pub loss: String,
    pub lat_min: String,
    pub lat_max: String,
    pub paste: String,
    pub preset: String,
    /// The learner-ready percent being typed, until it is applied.
    pub learner_ready: Option<String>,
    /// Partition group chosen per node: 0 = none, 1 = A, 2 = B, 3 = C; by node id, each
    /// id once (see [`Forms::set_group`]).
    pub groups: Vec<(NodeId, u8)>,
    /// Whether the scenario's "show script" list is open: its lines are drawn only then.
    pub script_shown: bool,
}

impl Forms {
    /// Defaults for a cluster of `n` nodes with `seed`.
    pub fn new(n: usize, seed: u64) -> Forms {
        Forms {
            reset_n: n.to_string(),
            reset_seed: seed.to_string(),
            put_key: "x".into(),
            put_value: "1".into(),
            put_via: String::new(),
            read_key: "x".into(),
            read_via: String::new(),
            read_linearizable: true,
            add_id: String::new(),
            add_learner: false,
            add_misconfigured: false,
            add_start: true,
            joint_add: String::new(),
            joint_remove: String::new(),
            cut_a: String::new(),
            cut_b: String::new(),
            loss: "0".into(),
            lat_min: "10".into(),
            lat_max: "40".into(),
            paste: String::new(),
            preset: String::new(),
            learner_ready: None,
            groups: Vec::new(),
            script_shown: false,
        }
    }

    /// Places node `id` in partition group `g` (0 = none). A sorted list, not a B-tree map:
    /// a few nodes at most, and each map type links its own copy of the B-tree code.
    pub fn set_group(&mut self, id: NodeId, g: u8) {
        match self.groups.binary_search_by_key(&id, |(n, _)| *n) {
            Ok(i) => self.groups[i].1 = g,
            Err(i) => self.groups.insert(i, (id, g)),
        }
    }

    /// The partition group chosen for node `id` (0 = none).
    pub fn group(&self, id: NodeId) -> u8 {
        self.groups
            .binary_search_by_key(&id, |(n, _)| *n)
            .map_or(0, |i| self.groups[i].1)
    }

    /// After the network was healed, the Network tab's fault fields show no fault again:
    /// no partition groups, no cut link, no loss.
    pub fn after_heal(&mut self) {
        self.groups.clear();
        self.cut_a.clear();
        self.cut_b.clear();
        self.loss = "0".into();
    }

    /// Stores a field's new value.
    pub fn set(&mut self, field: Field, v: String) {
        let flag = v == "true";
        match field {
            Field::ResetN => self.reset_n = v,
            Field::ResetSeed => self.reset_seed = v,
            Field::PutKey => self.put_key = v,
            Field::PutValue => self.put_value = v,
            Field::PutVia => self.put_via = v,
            Field::ReadKey => self.read_key = v,
            Field::ReadVia => self.read_via = v,
            Field::ReadMode => self.read_linearizable = v == "linearizable",
            Field::AddId => self.add_id = v,
            Field::AddAs => self.add_learner = v == "learner",
            Field::AddMisconfigured => self.add_misconfigured = flag,
            Field::AddStart => self.add_start = flag,
            Field::JointAdd => self.joint_add = v,
            Field::JointRemove => self.joint_remove = v,
            Field::CutA => self.cut_a = v,
            Field::CutB => self.cut_b = v,
            Field::Loss => self.loss = v,
            Field::LatMin => self.lat_min = v,
            Field::LatMax => self.lat_max = v,
            Field::Paste => self.paste = v,
            Field::Preset => self.preset = v,
            Field::LearnerReady => self.learner_ready = (!v.is_empty()).then_some(v),
            Field::ScriptShown => self.script_shown = flag,
        }
    }
}

/// Parses a node id typed as `4` or `n4`.
pub fn parse_node(s: &str) -> Option<NodeId> {
    let t = s.trim();
    let t = t.strip_prefix('n').unwrap_or(t);
    t.parse::<NodeId>().ok().filter(|n| *n >= 1 && *n <= 1000)
}

/// Parses `n4, n5 6` into ids; the error is the first word that is not a node.
pub fn parse_nodes(s: &str) -> Result<Vec<NodeId>, String> {
    s.split(|c: char| c == ',' || c.is_whitespace())
        .filter(|w| !w.is_empty())
        .map(|w| parse_node(w).ok_or_else(|| w.to_string()))
        .collect()
}

/// A drop-down of every node for a form field: the empty choice is labelled `none_label`,
/// each node `prefix` + its name ("via n2").
pub fn node_select(
    v: &super::app::View,
    field: Field,
    value: &str,
    label: &str,
    none_label: &str,
    prefix: &str,
) -> yew::Html {
    use yew::prelude::*;
    let onchange = h::field(v.link, field);
    let opts = v
        .sim
        .nodes
        .keys()
        .map(|id| {
            let name = super::style::node_name(*id);
            el!("option", "value" = name.clone(), "selected" = value == name)
                .c(format!("{prefix}{name}"))
                .done()
        })
        .collect::<Html>();
    el!("select", "aria-label" = label.to_string())
        .on_change(onchange)
        .c(el!("option", "value" = "", "selected" = value.is_empty()).c(none_label.to_string()))
        .c(opts)
        .done()
}
