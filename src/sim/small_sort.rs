//! A stable insertion sort for the short lists the browser build sorts (announcements, the
//! values of a condition, the explore form's choices). Each `sort_by_key` on a new element
//! type links another copy of std's driftsort (about 4.5 KB of wasm); this is a few dozen
//! bytes per type. Quadratic: only for lists of tens of items.

use std::cmp::Ordering;

/// Sorts `v` by `cmp`, keeping equal items in their order (the same result as
/// `v.sort_by(cmp)`).
pub fn sort_small_by<T>(v: &mut [T], mut cmp: impl FnMut(&T, &T) -> Ordering) {
    for i in 1..v.len() {
        let mut j = i;
        while j > 0 && cmp(&v[j - 1], &v[j]) == Ordering::Greater {
            v.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// Sorts `v` by `key`, keeping equal items in their order (the same result as
/// `v.sort_by_key(key)`).
pub fn sort_small_by_key<T, K: Ord>(v: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_small_by(v, |a, b| key(a).cmp(&key(b)));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_order_as_std_stable_sort() {
        // Pairs with many equal keys: stability shows in the second field.
        let mut seed = 7u64;
        for len in 0..40 {
            let v: Vec<(u8, usize)> = (0..len)
                .map(|i| {
                    seed = seed
                        .wrapping_mul(6364136223846793005)
                        .wrapping_add(1442695040888963407);
                    ((seed >> 60) as u8, i)
                })
                .collect();
            let mut mine = v.clone();
            sort_small_by_key(&mut mine, |p| p.0);
            let mut std = v.clone();
            std.sort_by_key(|p| p.0);
            assert_eq!(mine, std, "len {len}");
            let mut strings: Vec<String> = v.iter().map(|p| format!("{}", p.0)).collect();
            let mut want = strings.clone();
            want.sort();
            sort_small_by(&mut strings, |a, b| a.cmp(b));
            assert_eq!(strings, want);
        }
    }
}
