//! Shared presentation helpers: colours by term, time formatting, names.

use crate::raft::NodeId;

/// The hue for entries and nodes of `term` (spread around the colour wheel).
pub fn term_hue(term: u64) -> u64 {
    (term * 67 + 200) % 360
}

/// `style` giving an element its term hue as `--h`.
pub fn term_style(term: u64) -> String {
    format!("--h:{}", term_hue(term))
}

/// "12.3 s".
pub fn secs(ms: u64) -> String {
    format!("{} s", crate::sim::decimal::fixed(ms as f64 / 1000.0, 1))
}

/// "n3", or "—" for none.
pub fn node_name(id: NodeId) -> String {
    if id == 0 {
        "—".into()
    } else {
        format!("n{id}")
    }
}

/// Partition group letters.
pub fn group_letter(g: usize) -> char {
    ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H']
        .get(g)
        .copied()
        .unwrap_or('?')
}
