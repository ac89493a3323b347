//! What the page address asks the app to start with (`?n=5&seed=7&speed=2&paused=1`,
//! `?preset=ID`, `#run=...`), validated once, so the controls can be set from the values
//! actually used and every bad parameter is named in a single notice.
//!
//! Pure: the UI hands in the query and hash strings and gets back values that are always in
//! range, and one line per problem.

use crate::i18n::Msg;

use super::options::Options;
use super::presets;
use super::share;

/// Smallest and largest cluster the app starts.
pub const NODES: std::ops::RangeInclusive<usize> = 1..=9;

/// The cluster size used when the address does not give a valid one.
pub const DEFAULT_NODES: usize = 3;

/// What to load after the address is read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Source {
    /// A fresh cluster of [`Launch::n`] nodes with [`Launch::seed`].
    Fresh,
    /// A built-in preset, by its id (known to exist).
    Preset(&'static str),
    /// A shared run: the scenario text the link carried.
    Shared(String),
}

/// A colour theme the address may force.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ThemeChoice {
    /// The system's.
    Auto,
    /// Light.
    Light,
    /// Dark.
    Dark,
}

/// The validated start parameters. Every field holds a value the app can show as it is.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// Cluster size, within [`NODES`].
    pub n: usize,
    /// Seed.
    pub seed: u64,
    /// Playback speed: one of the speed selector's values (None: keep the app's default).
    pub speed: Option<String>,
    /// Start paused (None: the app's default).
    pub paused: Option<bool>,
    /// Colour theme (None: the app's default).
    pub theme: Option<ThemeChoice>,
    /// Embedded mode (no chrome around the cluster).
    pub embed: bool,
    /// Presenter mode (large, for a projector).
    pub present: bool,
    /// What to load.
    pub source: Source,
    /// `compare=OPT=V,...`: the other side of a compare run, as given (the UI parses it).
    pub compare: Option<String>,
    /// One sentence per parameter that was ignored or corrected, to show once.
    pub problems: Vec<Msg>,
}

impl Launch {
    /// The problems as one notice, or None when the address was fine.
    pub fn notice(&self) -> Option<Msg> {
        joined(self.problems.iter().cloned())
    }
}

/// Splits `a=1&b&c=x` into pairs (a missing value is ""), keys and values percent-decoded.
pub fn pairs(s: &str) -> Vec<(String, String)> {
    s.split('&')
        .filter(|p| !p.is_empty())
        .map(|p| match p.split_once('=') {
            Some((k, v)) => (unpercent(k), unpercent(v)),
            None => (unpercent(p), String::new()),
        })
        .collect()
}

/// `%41` → `A`, `+` → space; a malformed escape is kept as it is.
fn unpercent(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'+' => out.push(b' '),
            b'%' if i + 2 < b.len() => match (hex(b[i + 1]), hex(b[i + 2])) {
                (Some(h), Some(l)) => {
                    out.push(h * 16 + l);
                    i += 2;
                }
                _ => out.push(b'%'),
            },
            c => out.push(c),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The selector value for speed `v`, and whether it was given exactly.
fn snap_speed<'a>(v: &str, speeds: &[&'a str]) -> Option<(&'a str, bool)> {
    if let Some(s) = speeds.iter().find(|s| **s == v) {
        return Some((s, true));
    }
    let x = super::decimal::parse(v).filter(|x| x.is_finite() && *x > 0.0)?;
    let distance = |s: &&str| super::decimal::parse(s).map(|y| (y.ln() - x.ln()).abs());
    let best = speeds
        .iter()
        .filter(|s| distance(s).is_some())
        .min_by(|a, b| {
            distance(a)
                .unwrap_or(f64::MAX)
                .total_cmp(&distance(b).unwrap_or(f64::MAX))
        })?;
    let exact = super::decimal::parse(best).is_some_and(|y| (y - x).abs() < 1e-9);
    Some((best, exact))
}

fn hex(c: u8) -> Option<u8> {
    (c as char).to_digit(16).map(|d| d as u8)
}

/// Sentences as one message, one after the other (a space between them in English).
pub fn joined(parts: impl IntoIterator<Item = Msg>) -> Option<Msg> {
    parts
        .into_iter()
        .reduce(|a, b| crate::msg!("launch.and").arg("a", a).arg("b", b))
}

fn flag(key: &str, v: &str, problems: &mut Vec<Msg>) -> Option<bool> {
    match v {
        "" | "1" | "true" | "yes" | "on" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => {
            problems.push(crate::msg!("launch.flag").arg("key", key).arg("v", v));
            None
        }
    }
}

/// Reads the address: `query` without `?`, `hash` without `#` (hash parameters override the
/// query's). `speeds` are the speed selector's values ("teach", "0.5", "1", ...): a speed
/// must be one of them, or a number, which snaps to the nearest numeric one.
pub fn parse(query: &str, hash: &str, speeds: &[&str]) -> Launch {
    let mut params = pairs(query);
    params.extend(pairs(hash));
    let mut problems = Vec::new();
    let defaults = Options::default();
    let mut launch = Launch {
        n: DEFAULT_NODES,
        seed: defaults.seed,
        speed: None,
        paused: None,
        theme: None,
        embed: false,
        present: false,
        source: Source::Fresh,
        compare: None,
        problems: Vec::new(),
    };
    // The last occurrence of a key wins, as hash parameters come last.
    let mut last: Vec<(String, String)> = Vec::new();
    for (k, v) in params {
        last.retain(|(lk, _)| *lk != k);
        last.push((k, v));
    }
    let mut preset = None;
    let mut run = None;
    // Named once the run that does open is known (their notices say what opened instead).
    let mut bad_preset = None;
    let mut bad_link = None;
    let mut sized = false;
    for (k, v) in &last {
        match k.as_str() {
            "n" => match v.trim().parse::<usize>() {
                Ok(n) if NODES.contains(&n) => {
                    launch.n = n;
                    sized = true;
                }
                _ => problems.push(
                    crate::msg!("launch.n")
                        .arg("v", v.as_str())
                        .arg("min", *NODES.start())
                        .arg("max", *NODES.end())
                        .arg("n", DEFAULT_NODES),
                ),
            },
            "seed" => match v.trim().parse::<u64>() {
                Ok(s) => {
                    launch.seed = s;
                    sized = true;
                }
                Err(_) => problems.push(
                    crate::msg!("launch.seed")
                        .arg("v", v.as_str())
                        .arg("seed", defaults.seed),
                ),
            },
            "speed" => match snap_speed(v.trim(), speeds) {
                Some((value, exact)) => {
                    if !exact {
                        problems.push(
                            crate::msg!("launch.speed_snapped")
                                .arg("v", v.as_str())
                                .arg("value", value),
                        );
                    }
                    launch.speed = Some(value.to_string());
                }
                None => problems.push(crate::msg!("launch.speed_bad").arg("v", v.as_str())),
            },
            // The interface language: read by the UI (ui::lang_pref), which falls back to the
            // remembered or the browser's language when it is not one raftlab has.
            "lang" => {
                if crate::i18n::Lang::parse(v).is_none() {
                    problems.push(crate::msg!("launch.lang").arg("v", v.as_str()));
                }
            }
            "paused" => launch.paused = flag("paused", v, &mut problems),
            "embed" => launch.embed = flag("embed", v, &mut problems).unwrap_or(false),
            "present" => launch.present = flag("present", v, &mut problems).unwrap_or(false),
            "theme" => match v.as_str() {
                "dark" => launch.theme = Some(ThemeChoice::Dark),
                "light" => launch.theme = Some(ThemeChoice::Light),
                "auto" | "" => launch.theme = Some(ThemeChoice::Auto),
                _ => problems.push(crate::msg!("launch.theme").arg("v", v.as_str())),
            },
            "preset" => match presets::find(v.trim()) {
                Some(p) => preset = Some(p.id),
                None => bad_preset = Some(v.clone()),
            },
            "run" => match share::decode(v) {
                Ok(text) => run = Some(text),
                Err(e) => bad_link = Some(e),
            },
            "compare" => launch.compare = Some(v.clone()),
            _ => problems.push(crate::msg!("launch.unknown").arg("k", k.as_str())),
        }
    }
    launch.source = match (run, preset) {
        (Some(text), p) => {
            if p.is_some() {
                problems.push(crate::msg!("launch.link_over_preset"));
            }
            Source::Shared(text)
        }
        (None, Some(id)) => Source::Preset(id),
        (None, None) => Source::Fresh,
    };
    if let Some(v) = bad_preset {
        let m = match launch.source {
            Source::Shared(_) => crate::msg!("launch.no_preset_run"),
            _ => crate::msg!("launch.no_preset"),
        };
        problems.push(m.arg("v", v));
    }
    if let Some(why) = bad_link {
        let m = match launch.source {
            Source::Preset(_) => crate::msg!("launch.bad_link_lesson"),
            _ => crate::msg!("launch.bad_link"),
        };
        problems.push(m.arg("why", why));
    }
    if sized && launch.source != Source::Fresh {
        problems.push(crate::msg!("launch.sized_ignored"));
    }
    launch.problems = problems;
    launch
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEEDS: [&str; 5] = ["teach", "0.5", "1", "2", "5"];

    fn p(q: &str) -> Launch {
        parse(q, "", &SPEEDS)
    }

    #[test]
    fn an_empty_address_is_the_default_run() {
        let l = p("");
        assert_eq!(l.n, DEFAULT_NODES);
        assert_eq!(l.seed, Options::default().seed);
        assert_eq!(l.source, Source::Fresh);
        assert_eq!(l.notice(), None);
    }

    #[test]
    fn good_values_are_taken() {
        let l = p("n=5&seed=42&speed=2&paused=1&theme=dark&embed&present=1&compare=prevote%3Doff");
        assert_eq!(l.compare.as_deref(), Some("prevote=off"));
        assert_eq!((l.n, l.seed), (5, 42));
        assert_eq!(l.speed.as_deref(), Some("2"));
        assert!(l.present);
        assert_eq!(l.paused, Some(true));
        assert_eq!(l.theme, Some(ThemeChoice::Dark));
        assert!(l.embed);
        assert!(l.problems.is_empty(), "{:?}", l.problems);
    }

    #[test]
    fn a_bad_link_or_preset_names_what_opened_instead() {
        let l = parse("preset=01-election", "run=garbage", &SPEEDS);
        assert!(matches!(l.source, Source::Preset(_)));
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        assert_eq!(l.problems[0].key(), Some("launch.bad_link_lesson"));
        let l = parse("", "run=garbage", &SPEEDS);
        assert_eq!(l.problems[0].key(), Some("launch.bad_link"));
        let link = format!("run={}", share::encode("cluster 3\n"));
        let l = parse("preset=nope", &link, &SPEEDS);
        assert!(matches!(l.source, Source::Shared(_)));
        assert_eq!(l.problems[0].key(), Some("launch.no_preset_run"));
        assert_eq!(p("preset=nope").problems[0].key(), Some("launch.no_preset"));
    }

    #[test]
    fn a_language_raftlab_lacks_is_named_and_one_it_has_is_not() {
        let l = p("lang=xx");
        assert_eq!(l.problems.len(), 1, "{:?}", l.problems);
        assert!(l.problems[0].to_string().contains("lang=xx"));
        assert!(p("lang=zh-CN").problems.is_empty());
        assert!(p("lang=en").problems.is_empty());
    }

    #[test]
    fn a_bad_seed_falls_back_and_says_so_once() {
        let l = p("seed=abc");
        assert_eq!(l.seed, Options::default().seed);
        assert_eq!(l.problems.len(), 1);
        assert!(
            l.problems[0].to_string().contains("seed=abc"),
            "{:?}",
            l.problems
        );
    }

    #[test]
    fn an_out_of_range_size_falls_back_to_a_size_the_selector_offers() {
        for q in ["n=0", "n=10", "n=-1", "n=three"] {
            let l = p(q);
            assert_eq!(l.n, DEFAULT_NODES, "{q}");
            assert_eq!(l.problems.len(), 1, "{q}");
        }
        assert_eq!(p("n=9").n, 9);
        assert_eq!(p("n=1").n, 1);
    }

    #[test]
    fn an_unknown_preset_starts_a_fresh_cluster() {
        let l = p("preset=nope");
        assert_eq!(l.source, Source::Fresh);
        assert!(l.notice().unwrap().to_string().contains("'nope'"));
        let id = presets::PRESETS[0].id;
        assert_eq!(p(&format!("preset={id}")).source, Source::Preset(id));
    }

    #[test]
    fn speeds_snap_to_an_offered_one() {
        let l = p("speed=3");
        assert!(SPEEDS.contains(&l.speed.as_deref().unwrap()));
        assert_eq!(l.problems.len(), 1);
        assert_eq!(p("speed=2.0").speed.as_deref(), Some("2"));
        assert!(p("speed=2.0").problems.is_empty());
        assert_eq!(p("speed=teach").speed.as_deref(), Some("teach"));
        assert_eq!(p("speed=100").speed.as_deref(), Some("5"));
        for bad in [
            "speed=0",
            "speed=-2",
            "speed=NaN",
            "speed=inf",
            "speed=fast",
        ] {
            let l = p(bad);
            assert_eq!(l.speed, None, "{bad}");
            assert_eq!(l.problems.len(), 1, "{bad}");
        }
    }

    #[test]
    fn hash_parameters_override_the_query() {
        let l = parse("n=5", "n=7", &SPEEDS);
        assert_eq!(l.n, 7);
    }

    #[test]
    fn a_share_link_wins_over_a_preset() {
        let run = share::encode("cluster 4 seed=9\n");
        let l = parse(
            &format!("preset={}", presets::PRESETS[0].id),
            &format!("run={run}"),
            &SPEEDS,
        );
        assert_eq!(l.source, Source::Shared("cluster 4 seed=9\n".into()));
        assert_eq!(l.problems.len(), 1);
        let bad = parse("", "run=v1.garbage", &SPEEDS);
        assert_eq!(bad.source, Source::Fresh);
        assert_eq!(bad.problems.len(), 1);
    }

    #[test]
    fn odd_text_never_panics() {
        for q in [
            "%",
            "%4",
            "%zz",
            "%€",
            "=",
            "&&&",
            "n",
            "n=%39",
            "a=%E2%82%AC",
            "\u{1F980}=1",
        ] {
            let l = p(q);
            assert!(NODES.contains(&l.n));
        }
        assert_eq!(p("n=%39").n, 9);
        assert!(p("bogus=1")
            .notice()
            .unwrap()
            .to_string()
            .contains("'bogus'"));
    }
}
