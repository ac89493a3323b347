//! Cluster options: the `cluster N key=value ...` line of a scenario, and the UI's toolbar.

use serde::{Deserialize, Serialize};

use crate::i18n::Msg;
use crate::raft::{HealthRule, RaftConfig};

/// The etcd release whose server and raft behaviour a cluster follows (docs/etcd-versions.md
/// lists each difference and its source). Each means the latest patch release of its series.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum EtcdVersion {
    /// etcd 3.4: pre-vote off by default; learner limit built in (1); member add needs every
    /// voter connected.
    V3_4,
    /// etcd 3.5: pre-vote on by default; learner limit built in (1); member add needs a quorum
    /// connected once the new member counts (3.5.30 and later).
    V3_5,
    /// etcd 3.6 (the raft of etcd-io/raft 3.6): as 3.5, plus `--max-learners` and a throttled
    /// follower gets only an empty append on a heartbeat response.
    V3_6,
}

impl EtcdVersion {
    /// "3.4", "3.5" or "3.6".
    pub fn name(self) -> &'static str {
        match self {
            EtcdVersion::V3_4 => "3.4",
            EtcdVersion::V3_5 => "3.5",
            EtcdVersion::V3_6 => "3.6",
        }
    }

    /// etcd's `--pre-vote` default in this release.
    pub fn prevote_default(self) -> bool {
        self != EtcdVersion::V3_4
    }

    /// Whether this release has a flag for the learner limit (`--max-learners`, 3.6).
    pub fn has_max_learners_flag(self) -> bool {
        self == EtcdVersion::V3_6
    }

    /// How a member add judges the cluster's health under the strict reconfig check.
    pub fn add_health_rule(self) -> HealthRule {
        match self {
            EtcdVersion::V3_4 => HealthRule::AllConnected,
            EtcdVersion::V3_5 | EtcdVersion::V3_6 => HealthRule::QuorumAfterAdd,
        }
    }
}

/// Everything that fixes how a simulated cluster behaves. Two runs with equal options and
/// equal actions are identical.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Options {
    /// The seed of every random choice (election timeouts, latencies, loss, tick phases).
    pub seed: u64,
    /// Pre-vote on or off.
    pub prevote: bool,
    /// Check-quorum on or off.
    pub checkquorum: bool,
    /// Election timeout in ticks.
    pub election: u64,
    /// Heartbeat interval in ticks.
    pub heartbeat: u64,
    /// Smallest message latency, ms.
    pub latency_min: u64,
    /// Largest message latency, ms.
    pub latency_max: u64,
    /// Max appends in flight per follower.
    pub inflight: usize,
    /// Max entries per append.
    pub max_entries: usize,
    /// Compact every this many applied entries (0 = never).
    pub snapshot_every: u64,
    /// Learner promotion threshold, percent of the leader's match.
    pub learner_ready: u64,
    /// Max number of learners.
    pub max_learners: usize,
    /// etcd's --strict-reconfig-check (on by default, as in etcd).
    pub strict_reconfig: bool,
    /// The etcd release followed.
    pub etcd: EtcdVersion,
    /// How long a client waits for an answer before giving up with `context deadline
    /// exceeded`, ms (etcdctl's --command-timeout, 5 s).
    pub request_timeout: u64,
    /// Teaching only: break Figure 8's rule (see `RaftConfig::unsafe_commit_old_terms`).
    pub unsafe_commit: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            seed: 1,
            prevote: true,
            checkquorum: true,
            election: 10,
            heartbeat: 1,
            latency_min: 10,
            latency_max: 40,
            inflight: 256,
            max_entries: 64,
            snapshot_every: 0,
            learner_ready: 90,
            max_learners: 1,
            strict_reconfig: true,
            etcd: EtcdVersion::V3_6,
            request_timeout: 5000,
            unsafe_commit: false,
        }
    }
}

/// Names accepted by [`Options::set`], for error messages and help.
pub const OPTION_NAMES: &[&str] = &[
    "seed",
    "prevote",
    "checkquorum",
    "election",
    "heartbeat",
    "latency",
    "inflight",
    "max-entries",
    "snapshot-every",
    "learner-ready",
    "max-learners",
    "strict-reconfig",
    "etcd",
    "request-timeout",
    "unsafe-commit",
];

fn parse_bool(v: &str) -> Result<bool, Msg> {
    match v {
        "on" | "true" | "1" => Ok(true),
        "off" | "false" | "0" => Ok(false),
        _ => Err(crate::msg!("opt.not_on_off").arg("v", v)),
    }
}

fn not_whole(v: &str) -> Msg {
    crate::msg!("opt.not_whole").arg("v", v)
}

fn parse_num(v: &str, lo: u64, hi: u64) -> Result<u64, Msg> {
    let n: u64 = v.parse().map_err(|_| not_whole(v))?;
    if n < lo || n > hi {
        return Err(crate::msg!("opt.out_of_range")
            .arg("n", n)
            .arg("lo", lo)
            .arg("hi", hi));
    }
    Ok(n)
}

impl Options {
    /// etcd's server-side request timeout, ms: 5 s + 2 election timeouts (its
    /// `ReqTimeout`, 7 s at the default 1 s election timeout). A write or read still
    /// unanswered by then fails at the server, whatever the client's own timeout.
    pub fn server_timeout(&self) -> u64 {
        5000 + 2 * self.election * super::cluster::TICK_MS
    }

    /// Sets one option from its scenario spelling; an unknown name or bad value is an error
    /// that says what was expected.
    pub fn set(&mut self, name: &str, value: &str) -> Result<(), Msg> {
        match name {
            "seed" => self.seed = value.parse().map_err(|_| not_whole(value))?,
            "prevote" => self.prevote = parse_bool(value)?,
            "checkquorum" => self.checkquorum = parse_bool(value)?,
            "election" => self.election = parse_num(value, 2, 1000)?,
            "heartbeat" => self.heartbeat = parse_num(value, 1, 1000)?,
            "latency" => {
                let (lo, hi) = match value.split_once('-') {
                    Some((a, b)) => (parse_num(a, 0, 10_000)?, parse_num(b, 0, 10_000)?),
                    None => {
                        let v = parse_num(value, 0, 10_000)?;
                        (v, v)
                    }
                };
                if lo > hi {
                    return Err(crate::msg!("opt.latency_backwards")
                        .arg("lo", lo)
                        .arg("hi", hi));
                }
                self.latency_min = lo;
                self.latency_max = hi;
            }
            "inflight" => self.inflight = parse_num(value, 1, 100_000)? as usize,
            "max-entries" => self.max_entries = parse_num(value, 1, 100_000)? as usize,
            "snapshot-every" => self.snapshot_every = parse_num(value, 0, 1_000_000)?,
            "learner-ready" => self.learner_ready = parse_num(value, 0, 100)?,
            "max-learners" => {
                let n = parse_num(value, 0, 100)? as usize;
                if n != 1 && !self.etcd.has_max_learners_flag() {
                    return Err(crate::msg!("opt.no_max_learners").arg("etcd", self.etcd.name()));
                }
                self.max_learners = n;
            }
            "strict-reconfig" => self.strict_reconfig = parse_bool(value)?,
            "etcd" => {
                let v = match value {
                    "3.4" => EtcdVersion::V3_4,
                    "3.5" => EtcdVersion::V3_5,
                    "3.6" => EtcdVersion::V3_6,
                    _ => return Err(crate::msg!("opt.bad_etcd").arg("v", value)),
                };
                if self.max_learners != 1 && !v.has_max_learners_flag() {
                    return Err(crate::msg!("opt.max_learners_needs_36")
                        .arg("n", self.max_learners)
                        .arg("etcd", v.name()));
                }
                // A release brings its own defaults; options written after it override them.
                self.etcd = v;
                self.prevote = v.prevote_default();
            }
            "request-timeout" => self.request_timeout = parse_num(value, 100, 600_000)?,
            "unsafe-commit" => self.unsafe_commit = parse_bool(value)?,
            _ => {
                return Err(crate::msg!("opt.unknown")
                    .arg("name", name)
                    .arg("known", OPTION_NAMES.join(", ")))
            }
        }
        Ok(())
    }

    /// Checks the options that constrain each other (the heartbeat must be shorter than the
    /// election timeout). [`Options::set`] checks one value alone, so a cluster line can name
    /// them in any order; call this once all are set.
    pub fn check(&self) -> Result<(), Msg> {
        if self.heartbeat >= self.election {
            return Err(crate::msg!("opt.heartbeat_not_shorter")
                .arg("heartbeat", self.heartbeat)
                .arg("election", self.election));
        }
        Ok(())
    }

    /// One option's value in its scenario spelling (`on`, `off`, `10`, `2-5`); None for a
    /// name `set` does not know.
    pub fn get(&self, name: &str) -> Option<String> {
        let onoff = |b: bool| if b { "on" } else { "off" }.to_string();
        Some(match name {
            "seed" => self.seed.to_string(),
            "prevote" => onoff(self.prevote),
            "checkquorum" => onoff(self.checkquorum),
            "election" => self.election.to_string(),
            "heartbeat" => self.heartbeat.to_string(),
            "latency" => format!("{}-{}", self.latency_min, self.latency_max),
            "inflight" => self.inflight.to_string(),
            "max-entries" => self.max_entries.to_string(),
            "snapshot-every" => self.snapshot_every.to_string(),
            "learner-ready" => self.learner_ready.to_string(),
            "max-learners" => self.max_learners.to_string(),
            "strict-reconfig" => onoff(self.strict_reconfig),
            "etcd" => self.etcd.name().to_string(),
            "request-timeout" => self.request_timeout.to_string(),
            "unsafe-commit" => onoff(self.unsafe_commit),
            _ => return None,
        })
    }

    /// The options as `key=value` words, only those that differ from the defaults (for
    /// exporting a run as a scenario).
    pub fn to_words(&self) -> Vec<String> {
        let mut d = Options::default();
        let onoff = |b: bool| if b { "on" } else { "off" };
        let mut w = vec![format!("seed={}", self.seed)];
        // The release first: it sets defaults the words after it may override.
        if self.etcd != d.etcd {
            w.push(format!("etcd={}", self.etcd.name()));
            d.etcd = self.etcd;
            d.prevote = self.etcd.prevote_default();
        }
        if self.prevote != d.prevote {
            w.push(format!("prevote={}", onoff(self.prevote)));
        }
        if self.checkquorum != d.checkquorum {
            w.push(format!("checkquorum={}", onoff(self.checkquorum)));
        }
        if self.election != d.election {
            w.push(format!("election={}", self.election));
        }
        if self.heartbeat != d.heartbeat {
            w.push(format!("heartbeat={}", self.heartbeat));
        }
        if (self.latency_min, self.latency_max) != (d.latency_min, d.latency_max) {
            w.push(format!("latency={}-{}", self.latency_min, self.latency_max));
        }
        if self.inflight != d.inflight {
            w.push(format!("inflight={}", self.inflight));
        }
        if self.max_entries != d.max_entries {
            w.push(format!("max-entries={}", self.max_entries));
        }
        if self.snapshot_every != d.snapshot_every {
            w.push(format!("snapshot-every={}", self.snapshot_every));
        }
        if self.learner_ready != d.learner_ready {
            w.push(format!("learner-ready={}", self.learner_ready));
        }
        if self.max_learners != d.max_learners {
            w.push(format!("max-learners={}", self.max_learners));
        }
        if self.strict_reconfig != d.strict_reconfig {
            w.push(format!("strict-reconfig={}", onoff(self.strict_reconfig)));
        }
        if self.request_timeout != d.request_timeout {
            w.push(format!("request-timeout={}", self.request_timeout));
        }
        if self.unsafe_commit != d.unsafe_commit {
            w.push(format!("unsafe-commit={}", onoff(self.unsafe_commit)));
        }
        w
    }

    /// The raft settings these options give every node.
    pub fn raft_config(&self) -> RaftConfig {
        RaftConfig {
            heartbeat_tick: self.heartbeat,
            election_tick: self.election,
            pre_vote: self.prevote,
            check_quorum: self.checkquorum,
            max_inflight: self.inflight,
            max_entries: self.max_entries,
            snapshot_every: self.snapshot_every,
            learner_ready_percent: self.learner_ready,
            max_learners: self.max_learners,
            strict_reconfig: self.strict_reconfig,
            unsafe_commit_old_terms: self.unsafe_commit,
            // etcd 3.4 and 3.5 pace a throttled follower with the pre-3.6 flow control.
            legacy_flow_control: self.etcd != EtcdVersion::V3_6,
            ..RaftConfig::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn get_reads_every_option_in_the_spelling_set_takes() {
        // From the defaults; `etcd=` is a profile that also sets its release's pre-vote
        // default, so it is checked on its own field only.
        let d = Options::default();
        for name in OPTION_NAMES {
            let v = d
                .get(name)
                .unwrap_or_else(|| panic!("get does not know {name}"));
            let mut p = d.clone();
            p.set(name, &v)
                .unwrap_or_else(|e| panic!("{name}={v}: {e}"));
            if *name == "etcd" {
                assert_eq!(p.etcd, d.etcd);
            } else {
                assert_eq!(p, d, "{name}={v} round trip");
            }
        }
        let mut o = Options::default();
        o.set("prevote", "off").unwrap();
        o.set("latency", "2-7").unwrap();
        assert_eq!(o.get("prevote").as_deref(), Some("off"));
        assert_eq!(o.get("latency").as_deref(), Some("2-7"));
        assert_eq!(o.get("nope"), None);
    }

    #[test]
    fn set_parses_and_rejects() {
        let mut o = Options::default();
        o.set("latency", "5-50").unwrap();
        assert_eq!((o.latency_min, o.latency_max), (5, 50));
        o.set("prevote", "off").unwrap();
        assert!(!o.prevote);
        assert!(o
            .set("prevote", "maybe")
            .unwrap_err()
            .to_string()
            .contains("on or off"));
        assert!(o
            .set("colour", "red")
            .unwrap_err()
            .to_string()
            .contains("unknown option"));
        assert!(o.set("latency", "50-5").is_err());
        assert!(o.set("election", "1").is_err());
    }

    #[test]
    fn words_round_trip() {
        let mut o = Options::default();
        o.set("seed", "9").unwrap();
        o.set("checkquorum", "off").unwrap();
        o.set("snapshot-every", "20").unwrap();
        let mut p = Options::default();
        for w in o.to_words() {
            let (k, v) = w.split_once('=').unwrap();
            p.set(k, v).unwrap();
        }
        assert_eq!(o, p);
    }

    #[test]
    fn etcd_release_sets_its_defaults_and_limits() {
        let mut o = Options::default();
        assert!(o.strict_reconfig, "etcd checks reconfigurations by default");
        assert_eq!(o.etcd, EtcdVersion::V3_6);
        o.set("etcd", "3.4").unwrap();
        assert!(!o.prevote, "etcd 3.4 has pre-vote off by default");
        // Written after the release, an option overrides its default.
        o.set("prevote", "on").unwrap();
        assert!(o.prevote);
        // 3.4 and 3.5 have the learner limit built in; only 3.6 has --max-learners.
        assert!(o
            .set("max-learners", "2")
            .unwrap_err()
            .to_string()
            .contains("etcd=3.6"));
        o.set("etcd", "3.5").unwrap();
        assert!(o.set("max-learners", "2").is_err());
        o.set("etcd", "3.6").unwrap();
        o.set("max-learners", "2").unwrap();
        assert!(o
            .set("etcd", "3.4")
            .unwrap_err()
            .to_string()
            .contains("max-learners=2"));
        assert!(o.set("etcd", "3.7").is_err());
        assert_eq!(
            EtcdVersion::V3_4.add_health_rule(),
            HealthRule::AllConnected
        );
        assert_eq!(
            EtcdVersion::V3_6.add_health_rule(),
            HealthRule::QuorumAfterAdd
        );
    }

    #[test]
    fn a_release_round_trips_through_words_before_what_overrides_it() {
        let mut o = Options::default();
        o.set("etcd", "3.4").unwrap();
        o.set("prevote", "on").unwrap();
        o.set("request-timeout", "2000").unwrap();
        let w = o.to_words();
        assert_eq!(w[1], "etcd=3.4");
        let mut p = Options::default();
        for w in w {
            let (k, v) = w.split_once('=').unwrap();
            p.set(k, v).unwrap();
        }
        assert_eq!(o, p);
    }
}
