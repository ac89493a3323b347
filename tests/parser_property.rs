//! Property: no text makes the scenario parser panic, and no script it accepts makes the
//! player panic. Inputs are random byte soup, random token sequences from the language's own
//! vocabulary, and random mutations of the shipped scenarios.

use raftlab::raft::Rng;
use raftlab::sim::player::Player;
use raftlab::sim::scenario::{Script, Stmt, COMMANDS};

/// Words beyond the command names (`COMMANDS`): arguments, conditions, edge cases.
const EXTRA: &[&str] = &[
    "add",
    "promote",
    "remove",
    "change",
    "within",
    "via",
    "learner",
    "misconfigured",
    "linearizable",
    "serializable",
    "leader",
    "voters",
    "learners",
    "quorum",
    "violations",
    "outcome",
    "read.stale",
    "n0",
    "n1",
    "n2",
    "n3",
    "n9",
    "n99999999999999999999",
    "n1.role",
    "n2.term",
    "n1.value",
    "n3.progress",
    "n1.match",
    "n1.status",
    "=",
    "!=",
    "<",
    "<=",
    ">",
    ">=",
    "|",
    ",",
    "x=1",
    "k=",
    "=v",
    "none",
    "true",
    "0",
    "1",
    "-1",
    "18446744073709551616",
    "add=n4,n5",
    "remove=n1",
    "learners=n6",
    "prevote=off",
    "seed=3",
    "latency=5-1",
    "election=1",
    "snapshot-every=2",
    "#",
    "é",
    "\t",
    "n1,n2",
    "n1,,n2",
    "1%",
    "101",
];

fn vocabulary() -> Vec<&'static str> {
    COMMANDS.iter().chain(EXTRA).copied().collect()
}

fn soup(rng: &mut Rng) -> String {
    let len = rng.range(0, 200) as usize;
    (0..len)
        .map(|_| {
            let b = rng.range(0, 128) as u8;
            if rng.chance(3) {
                'é'
            } else {
                b as char
            }
        })
        .collect()
}

fn word(rng: &mut Rng) -> &'static str {
    let words = vocabulary();
    words[rng.range(0, words.len() as u64) as usize]
}

fn tokens(rng: &mut Rng) -> String {
    let mut out = String::new();
    if rng.chance(80) {
        out.push_str("cluster 3\n");
    }
    for _ in 0..rng.range(1, 12) {
        for _ in 0..rng.range(1, 7) {
            out.push_str(word(rng));
            out.push(if rng.chance(10) { '\t' } else { ' ' });
        }
        out.push('\n');
    }
    out
}

fn mutate(rng: &mut Rng, text: &str) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for _ in 0..rng.range(1, 6) {
        if chars.is_empty() {
            break;
        }
        let i = rng.range(0, chars.len() as u64) as usize;
        match rng.range(0, 3) {
            0 => {
                chars.remove(i);
            }
            1 => chars.insert(i, word(rng).chars().next().unwrap_or('x')),
            _ => chars[i] = (b' ' + rng.range(0, 95) as u8) as char,
        }
    }
    chars.into_iter().collect()
}

fn shipped() -> Vec<String> {
    let mut out = Vec::new();
    for dir in ["scenarios", "scenarios/presets"] {
        for e in std::fs::read_dir(dir).expect("scenarios dir").flatten() {
            if e.path().extension().is_some_and(|x| x == "scn") {
                out.push(std::fs::read_to_string(e.path()).expect("readable"));
            }
        }
    }
    out
}

/// Runs an accepted script, skipping lines that would take very long (huge ticks/awaits).
fn play(script: Script) {
    let cheap = script.lines.iter().all(|l| match &l.stmt {
        Stmt::Tick(n) => *n <= 500,
        Stmt::Await { within, .. } => *within <= 500,
        Stmt::At { time, .. } => *time <= 50_000,
        _ => true,
    });
    if cheap {
        let mut p = Player::new(script);
        p.run_all();
    }
}

#[test]
fn random_text_never_panics_the_parser_or_the_player() {
    let mut rng = Rng::new(2026);
    let corpus = shipped();
    assert!(!corpus.is_empty());
    let mut accepted = 0;
    for i in 0..3000 {
        let text = match i % 3 {
            0 => soup(&mut rng),
            1 => tokens(&mut rng),
            _ => {
                let base = &corpus[rng.range(0, corpus.len() as u64) as usize];
                mutate(&mut rng, base)
            }
        };
        match Script::parse(&text) {
            Ok(s) => {
                accepted += 1;
                play(s);
            }
            Err(e) => {
                assert!(
                    e.line >= 1 && e.col >= 1,
                    "position given: {e} for {text:?}"
                );
                assert!(!e.message.to_string().is_empty());
            }
        }
    }
    // The generators do reach the player, not only the error paths.
    eprintln!("{accepted} of 3000 inputs parsed");
    assert!(accepted > 100, "only {accepted} inputs parsed");
}
