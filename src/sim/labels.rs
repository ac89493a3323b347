//! Short names worded through the catalogs: node status, progress state, request labels.

use crate::i18n::Msg;
use crate::raft::{MsgType, ProgressState, Role};

use super::client::{Outcome, Refusal, ReqKind, Request};
use super::cluster::Status;

/// The name of a progress state ("probe", "探测").
pub fn progress(state: ProgressState) -> Msg {
    Msg::at(match state {
        ProgressState::Probe => crate::key_of!("progress.probe"),
        ProgressState::Replicate => crate::key_of!("progress.replicate"),
        ProgressState::Snapshot => crate::key_of!("progress.snapshot"),
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
    Msg::at(match t {
        MsgType::Hup => crate::key_of!("mt.hup"),
        MsgType::Beat => crate::key_of!("mt.beat"),
        MsgType::Prop => crate::key_of!("mt.prop"),
        MsgType::App => crate::key_of!("mt.app"),
        MsgType::AppResp => crate::key_of!("mt.app_resp"),
        MsgType::Vote => crate::key_of!("mt.vote"),
        MsgType::VoteResp => crate::key_of!("mt.vote_resp"),
        MsgType::PreVote => crate::key_of!("mt.pre_vote"),
        MsgType::PreVoteResp => crate::key_of!("mt.pre_vote_resp"),
        MsgType::Snap => crate::key_of!("mt.snap"),
        MsgType::Heartbeat => crate::key_of!("mt.heartbeat"),
        MsgType::HeartbeatResp => crate::key_of!("mt.heartbeat_resp"),
        MsgType::CheckQuorum => crate::key_of!("mt.check_quorum"),
        MsgType::TransferLeader => crate::key_of!("mt.transfer_leader"),
        MsgType::TimeoutNow => crate::key_of!("mt.timeout_now"),
        MsgType::ReadIndex => crate::key_of!("mt.read_index"),
        MsgType::ReadIndexResp => crate::key_of!("mt.read_index_resp"),
        MsgType::SnapStatus => crate::key_of!("mt.snap_status"),
    })
}

/// The name of a role ("pre-candidate", "预候选者").
pub fn role(role: Role) -> Msg {
    Msg::at(match role {
        Role::Follower => crate::key_of!("role.follower"),
        Role::PreCandidate => crate::key_of!("role.precandidate"),
        Role::Candidate => crate::key_of!("role.candidate"),
        Role::Leader => crate::key_of!("role.leader"),
    })
}

/// The name of a node's status ("not started", "未启动").
pub fn status(status: Status) -> Msg {
    Msg::at(match status {
        Status::Running => crate::key_of!("status.running"),
        Status::Killed => crate::key_of!("status.killed"),
        Status::NotStarted => crate::key_of!("status.not_started"),
        Status::Misconfigured => crate::key_of!("status.misconfigured"),
        Status::Removed => crate::key_of!("status.removed"),
    })
}

/// A request's label for the event log ("put x=1", "写入 x=1"). Membership changes are
/// etcdctl-like commands ("member add n4") and stay as they are.
pub fn request(kind: &ReqKind) -> Msg {
    match kind {
        ReqKind::Write { key, value } => crate::msg!("req.put")
            .arg("key", key.as_str())
            .arg("value", value.as_str()),
        ReqKind::Read { key, linearizable } => Msg::at(if *linearizable {
            crate::key_of!("req.read_linearizable")
        } else {
            crate::key_of!("req.read_serializable")
        })
        .arg("key", key.as_str()),
        ReqKind::Member { desc } => Msg::verbatim(desc.as_str()),
        ReqKind::Transfer { to } => crate::msg!("req.transfer").arg("to", *to),
    }
}

/// What became of a request ("committed at index 4", "已在索引 4 处提交").
pub fn outcome(r: &Request) -> Msg {
    match &r.outcome {
        Outcome::Pending => crate::msg!("out.pending"),
        Outcome::Accepted => crate::msg!("out.accepted"),
        Outcome::Committed { index } => crate::msg!("out.committed").arg("index", *index),
        Outcome::Lost { index, term, by } => crate::msg!("out.lost")
            .arg("term", *term)
            .arg("index", *index)
            .arg("by", by.as_str()),
        Outcome::Rejected { refusal } => {
            let m = crate::msg!("out.rejected")
                .arg("reason", super::words::refusal(refusal))
                .arg("etcd", refusal.etcd_error());
            match refusal {
                Refusal::MemberDown { later: Some(i), .. } => crate::msg!("out.rejected_later")
                    .arg("rejected", m)
                    .arg("index", *i),
                _ => m,
            }
        }
        Outcome::TimedOut { at, later, by, .. } => {
            let m = crate::msg!("out.timed_out")
                .arg("time", super::words::secs(*at))
                .arg("error", by.etcd_error());
            match later {
                Some(i) => crate::msg!("out.timed_out_later")
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
                None => crate::msg!("word.none"),
            };
            let mut m = Msg::at(match (index, stale) {
                (Some(_), Some(_)) => crate::key_of!("out.value_at_stale"),
                (Some(_), None) => crate::key_of!("out.value_at"),
                (None, Some(_)) => crate::key_of!("out.value_stale"),
                (None, None) => crate::key_of!("out.value"),
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
                    by: super::super::client::GaveUp::Client,
                },
                None,
            ),
            (
                Outcome::Rejected {
                    refusal: Refusal::MemberDown {
                        id: 1,
                        later: Some(2),
                    },
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
