//! Short names worded through the catalogs: node status, progress state, request labels.

use crate::i18n::Msg;
use crate::raft::{MsgType, ProgressState, Role};

use super::client::{Outcome, ReqKind, Request};
use super::cluster::Status;

/// The name of a progress state ("probe", "探测").
pub fn progress(state: ProgressState) -> Msg {
    Msg::new(match state {
        ProgressState::Probe => "progress.probe",
        ProgressState::Replicate => "progress.replicate",
        ProgressState::Snapshot => "progress.snapshot",
    })
}

/// A message type as etcd names it ("MsgApp", "MsgHeartbeatResp"): the same in every
/// language, and what an etcd operator finds in etcd's logs and code.
pub fn etcd_msg(t: MsgType) -> String {
    format!("Msg{t:?}")
}

/// A message type's name for people: raftlab's short name in English ("append"), etcd's
/// in Chinese ("MsgApp"), as the message card shows it.
pub fn msg_type(t: MsgType) -> Msg {
    Msg::new(match t {
        MsgType::Hup => "mt.hup",
        MsgType::Beat => "mt.beat",
        MsgType::Prop => "mt.prop",
        MsgType::App => "mt.app",
        MsgType::AppResp => "mt.app_resp",
        MsgType::Vote => "mt.vote",
        MsgType::VoteResp => "mt.vote_resp",
        MsgType::PreVote => "mt.pre_vote",
        MsgType::PreVoteResp => "mt.pre_vote_resp",
        MsgType::Snap => "mt.snap",
        MsgType::Heartbeat => "mt.heartbeat",
        MsgType::HeartbeatResp => "mt.heartbeat_resp",
        MsgType::CheckQuorum => "mt.check_quorum",
        MsgType::TransferLeader => "mt.transfer_leader",
        MsgType::TimeoutNow => "mt.timeout_now",
        MsgType::ReadIndex => "mt.read_index",
        MsgType::ReadIndexResp => "mt.read_index_resp",
        MsgType::SnapStatus => "mt.snap_status",
    })
}

/// The name of a role ("pre-candidate", "预候选者").
pub fn role(role: Role) -> Msg {
    Msg::new(match role {
        Role::Follower => "role.follower",
        Role::PreCandidate => "role.precandidate",
        Role::Candidate => "role.candidate",
        Role::Leader => "role.leader",
    })
}

/// The name of a node's status ("not started", "未启动").
pub fn status(status: Status) -> Msg {
    Msg::new(match status {
        Status::Running => "status.running",
        Status::Killed => "status.killed",
        Status::NotStarted => "status.not_started",
        Status::Misconfigured => "status.misconfigured",
        Status::Removed => "status.removed",
    })
}

/// A request's label for the event log ("put x=1", "写入 x=1"). Membership changes are
/// etcdctl-like commands ("member add n4") and stay as they are.
pub fn request(kind: &ReqKind) -> Msg {
    match kind {
        ReqKind::Write { key, value } => Msg::new("req.put")
            .arg("key", key.as_str())
            .arg("value", value.as_str()),
        ReqKind::Read { key, linearizable } => Msg::new(if *linearizable {
            "req.read_linearizable"
        } else {
            "req.read_serializable"
        })
        .arg("key", key.as_str()),
        ReqKind::Member { desc } => Msg::verbatim(desc.as_str()),
        ReqKind::Transfer { to } => Msg::new("req.transfer").arg("to", *to),
    }
}

/// What became of a request ("committed at index 4", "已在索引 4 处提交").
pub fn outcome(r: &Request) -> Msg {
    match &r.outcome {
        Outcome::Pending => Msg::new("out.pending"),
        Outcome::Accepted => Msg::new("out.accepted"),
        Outcome::Committed { index } => Msg::new("out.committed").arg("index", *index),
        Outcome::Lost { index, term, by } => Msg::new("out.lost")
            .arg("term", *term)
            .arg("index", *index)
            .arg("by", by.as_str()),
        Outcome::Rejected { refusal } => Msg::new("out.rejected")
            .arg("reason", super::words::refusal(refusal))
            .arg("etcd", refusal.etcd_error()),
        Outcome::TimedOut { at, later, .. } => {
            let m = Msg::new("out.timed_out")
                .arg("time", super::words::secs(*at))
                .arg("error", super::client::DEADLINE_EXCEEDED);
            match later {
                Some(i) => Msg::new("out.timed_out_later")
                    .arg("timed_out", m)
                    .arg("index", *i),
                None => m,
            }
        }
        Outcome::Value {
            value,
            index,
            stale,
        } => {
            let value = match value {
                Some(v) => Msg::verbatim(v.as_str()),
                None => Msg::new("word.none"),
            };
            let mut m = Msg::new(match (index, stale) {
                (Some(_), Some(_)) => "out.value_at_stale",
                (Some(_), None) => "out.value_at",
                (None, Some(_)) => "out.value_stale",
                (None, None) => "out.value",
            })
            .arg("value", value);
            if let Some(i) = index {
                m = m.arg("index", *i);
            }
            if let Some(s) = stale {
                m = m.arg(
                    "stale",
                    r.why.clone().unwrap_or_else(|| Msg::verbatim(s.as_str())),
                );
            }
            m
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Lang;

    #[test]
    fn labels_match_the_english_names_they_replace() {
        for s in [
            Status::Running,
            Status::Killed,
            Status::NotStarted,
            Status::Misconfigured,
            Status::Removed,
        ] {
            assert_eq!(status(s).render(Lang::En), s.name());
            assert_ne!(status(s).render(Lang::Zh), s.name());
        }
        for r in [
            Role::Follower,
            Role::PreCandidate,
            Role::Candidate,
            Role::Leader,
        ] {
            assert_eq!(role(r).render(Lang::En), r.name());
        }
        for p in [
            ProgressState::Probe,
            ProgressState::Replicate,
            ProgressState::Snapshot,
        ] {
            assert_eq!(progress(p).render(Lang::En), p.name());
        }
        for k in [
            ReqKind::Write {
                key: "x".into(),
                value: "1".into(),
            },
            ReqKind::Read {
                key: "x".into(),
                linearizable: true,
            },
            ReqKind::Read {
                key: "x".into(),
                linearizable: false,
            },
            ReqKind::Transfer { to: 3 },
        ] {
            assert_eq!(request(&k).render(Lang::En), k.label());
        }
    }

    #[test]
    fn outcomes_match_the_english_description() {
        for (o, why) in [
            (Outcome::Pending, None),
            (Outcome::Accepted, None),
            (Outcome::Committed { index: 4 }, None),
            (
                Outcome::Rejected {
                    refusal: super::super::client::Refusal::Server(
                        crate::raft::ServerError::NoLeader,
                    ),
                },
                None,
            ),
            (
                Outcome::TimedOut {
                    at: 5000,
                    no_leader: true,
                    later: Some(4),
                },
                None,
            ),
            (
                Outcome::Value {
                    value: None,
                    index: Some(3),
                    stale: None,
                },
                None,
            ),
            (
                Outcome::Value {
                    value: Some("1".into()),
                    index: None,
                    stale: Some("old".into()),
                },
                None,
            ),
        ] {
            let r = Request {
                id: 1,
                kind: ReqKind::Transfer { to: 2 },
                via: None,
                time: 0,
                outcome: o.clone(),
                why,
            };
            assert_eq!(outcome(&r).render(Lang::En), o.describe());
            assert!(!outcome(&r).render(Lang::Zh).is_empty());
        }
    }
}
