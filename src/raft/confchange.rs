//! Turning a configuration change into the next configuration (etcd's confchange.Changer).
//!
//! A change that alters at most one voter is applied directly: any majority of the old and
//! the new configuration overlap (seed 002, "single-member change"). Anything larger enters a
//! joint configuration first, in which both majorities decide, and leaves it with an empty
//! change.

use super::message::{ConfChange, ConfChangeSingle};
use super::tracker::Config;

/// The configuration after `cc`, or why `cc` cannot be applied to `cfg`.
pub fn apply(cfg: &Config, cc: &ConfChange) -> Result<Config, String> {
    if cc.is_leave_joint() {
        return leave_joint(cfg);
    }
    if cfg.is_joint() {
        return Err("already in a joint configuration".to_string());
    }
    let mut next = cfg.clone();
    for c in &cc.changes {
        apply_single(&mut next, c);
    }
    let changed_voters = cfg.voters.symmetric_difference(&next.voters).count();
    if changed_voters <= 1 {
        check(&next)?;
        return Ok(next);
    }
    // More than one voter changes: go through the joint configuration.
    let mut joint = cfg.clone();
    joint.outgoing = cfg.voters.clone();
    for c in &cc.changes {
        apply_single(&mut joint, c);
    }
    joint.auto_leave = true;
    check(&joint)?;
    Ok(joint)
}

fn apply_single(cfg: &mut Config, c: &ConfChangeSingle) {
    match *c {
        ConfChangeSingle::AddNode(id) => {
            cfg.learners.remove(&id);
            cfg.learners_next.remove(&id);
            cfg.voters.insert(id);
        }
        ConfChangeSingle::AddLearner(id) => {
            cfg.voters.remove(&id);
            // A voter of the outgoing half keeps voting there until the joint state is left.
            if cfg.outgoing.contains(&id) {
                cfg.learners_next.insert(id);
            } else {
                cfg.learners.insert(id);
            }
        }
        ConfChangeSingle::RemoveNode(id) => {
            cfg.voters.remove(&id);
            cfg.learners.remove(&id);
            cfg.learners_next.remove(&id);
        }
    }
}

fn leave_joint(cfg: &Config) -> Result<Config, String> {
    if !cfg.is_joint() {
        return Err("not in a joint configuration".to_string());
    }
    let mut next = cfg.clone();
    next.outgoing.clear();
    let ln: Vec<_> = next.learners_next.iter().copied().collect();
    next.learners.extend(ln);
    next.learners_next.clear();
    next.auto_leave = false;
    check(&next)?;
    Ok(next)
}

fn check(cfg: &Config) -> Result<(), String> {
    if cfg.voters.is_empty() {
        return Err("removing all voters is not allowed".to_string());
    }
    if let Some(id) = cfg.voters.intersection(&cfg.learners).next() {
        return Err(format!("n{id} would be both voter and learner"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cc(changes: Vec<ConfChangeSingle>) -> ConfChange {
        ConfChange { changes }
    }

    #[test]
    fn single_voter_change_is_direct() {
        let cfg = Config::with_voters([1, 2, 3]);
        let next = apply(&cfg, &cc(vec![ConfChangeSingle::AddNode(4)])).unwrap();
        assert!(!next.is_joint());
        assert_eq!(next.voters.len(), 4);
    }

    #[test]
    fn learner_add_and_promote() {
        let cfg = Config::with_voters([1, 2, 3]);
        let l = apply(&cfg, &cc(vec![ConfChangeSingle::AddLearner(4)])).unwrap();
        assert!(l.learners.contains(&4) && !l.is_voter(4));
        let p = apply(&l, &cc(vec![ConfChangeSingle::AddNode(4)])).unwrap();
        assert!(p.is_voter(4) && !p.learners.contains(&4));
    }

    #[test]
    fn replacing_two_voters_goes_through_joint() {
        let cfg = Config::with_voters([1, 2, 3]);
        let change = cc(vec![
            ConfChangeSingle::AddNode(4),
            ConfChangeSingle::AddNode(5),
            ConfChangeSingle::RemoveNode(1),
            ConfChangeSingle::RemoveNode(2),
        ]);
        let joint = apply(&cfg, &change).unwrap();
        assert!(joint.is_joint() && joint.auto_leave);
        assert_eq!(joint.outgoing, [1, 2, 3].into_iter().collect());
        assert_eq!(joint.voters, [3, 4, 5].into_iter().collect());
        assert!(apply(&joint, &change).is_err(), "no new change while joint");
        let left = apply(&joint, &ConfChange::default()).unwrap();
        assert!(!left.is_joint());
        assert_eq!(left.voters, [3, 4, 5].into_iter().collect());
    }

    #[test]
    fn demoted_voter_becomes_learner_after_leaving_joint() {
        let cfg = Config::with_voters([1, 2, 3]);
        let change = cc(vec![
            ConfChangeSingle::AddLearner(1),
            ConfChangeSingle::AddNode(4),
        ]);
        let joint = apply(&cfg, &change).unwrap();
        assert!(joint.learners_next.contains(&1) && joint.outgoing.contains(&1));
        let left = apply(&joint, &ConfChange::default()).unwrap();
        assert!(left.learners.contains(&1) && !left.is_voter(1));
    }

    #[test]
    fn cannot_remove_every_voter() {
        let cfg = Config::with_voters([1]);
        assert!(apply(&cfg, &cc(vec![ConfChangeSingle::RemoveNode(1)])).is_err());
    }
}
