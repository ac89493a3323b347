//! The concepts the lab explains (help overlay, tooltips), by English name and catalog slug:
//! `concept.SLUG` is the name and `tip.SLUG` the one-sentence explanation, in each language.

use super::{lookup, Lang};

/// (concept, catalog slug), in teaching order. Code names a concept by its English name.
pub const CONCEPTS: &[(&str, &str)] = &[
    ("term", "term"),
    ("vote", "vote"),
    ("leader", "leader"),
    ("follower", "follower"),
    ("candidate", "candidate"),
    ("precandidate", "precandidate"),
    ("election timer", "election_timer"),
    ("quorum", "quorum"),
    ("commit", "commit"),
    ("applied", "applied"),
    ("learner", "learner"),
    ("promote", "promote"),
    ("pre-vote", "pre_vote"),
    ("check-quorum", "check_quorum"),
    ("strict reconfig", "strict_reconfig"),
    ("unsafe commit", "unsafe_commit"),
    ("learner-ready", "learner_ready"),
    ("snapshot", "snapshot"),
    ("compaction", "compaction"),
    ("probe", "probe"),
    ("replicate", "replicate"),
    ("snapshot state", "snapshot_state"),
    ("match", "match"),
    ("next", "next"),
    ("inflight", "inflight"),
    ("joint consensus", "joint_consensus"),
    ("partition", "partition"),
    ("cut link", "cut_link"),
    ("loss", "loss"),
    ("latency", "latency"),
    ("misconfigured", "misconfigured"),
    ("linearizable read", "linearizable_read"),
    ("serializable read", "serializable_read"),
    ("transfer leadership", "transfer_leadership"),
    ("force-new-cluster", "force_new_cluster"),
    ("invariants", "invariants"),
    ("time travel", "time_travel"),
];

/// The slug of `concept`, if the glossary has it.
pub fn slug(concept: &str) -> Option<&'static str> {
    CONCEPTS
        .iter()
        .find(|(c, _)| *c == concept)
        .map(|(_, s)| *s)
}

/// The one-sentence explanation of `concept` in `lang` ("" if unknown).
pub fn tip(lang: Lang, concept: &str) -> &'static str {
    slug(concept)
        .and_then(|s| lookup(lang, &format!("tip.{s}")))
        .unwrap_or("")
}

/// The name of `concept` in `lang` (the English name when unknown).
pub fn name(lang: Lang, concept: &str) -> String {
    slug(concept)
        .and_then(|s| lookup(lang, &format!("concept.{s}")))
        .map_or_else(|| concept.to_string(), str::to_string)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_concept_has_a_name_and_a_tip_in_every_language() {
        for lang in Lang::ALL {
            for (c, s) in CONCEPTS {
                assert!(
                    lookup(lang, &format!("concept.{s}")).is_some(),
                    "{lang:?} concept.{s}"
                );
                assert!(!tip(lang, c).is_empty(), "{lang:?} tip.{s}");
            }
        }
        assert_eq!(tip(Lang::En, "no such concept"), "");
        assert_eq!(name(Lang::Zh, "quorum"), "法定人数");
    }
}
