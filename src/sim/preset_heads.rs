//! The presets' translated titles and descriptions (`# title.zh:`, `# description.zh:`).
//!
//! Natively they are compiled in with each preset. The browser build leaves them out of the
//! wasm (a visitor reading English never needs them, ~2.5 KB gzipped) and fetches them with
//! the Chinese catalog from `i18n/presets.zh.txt`, which a Trunk hook writes from the preset
//! files (`Trunk.toml`) in the form [`file`] gives: for each preset, a line `== ID`, then its
//! translated header lines as they stand in its file. [`provide`] checks each block against
//! the digest this build was made with, so a file of another version of the app is refused.

use super::presets::{Preset, PRESETS};
use crate::digest::digest;
use crate::i18n::Lang;

#[cfg(target_arch = "wasm32")]
static ZH: std::sync::OnceLock<Vec<&'static str>> = std::sync::OnceLock::new();

/// The translated header lines of `p` in `lang`, when at hand: `None` for English, and in the
/// browser before [`provide`].
pub(crate) fn head(p: &Preset, lang: Lang) -> Option<&'static str> {
    match lang {
        Lang::En => None,
        #[cfg(not(target_arch = "wasm32"))]
        Lang::Zh => Some(p.zh_head),
        #[cfg(target_arch = "wasm32")]
        Lang::Zh => {
            let i = PRESETS.iter().position(|q| q.id == p.id)?;
            ZH.get().and_then(|heads| heads.get(i).copied())
        }
    }
}

/// The file the browser fetches for `lang` (the Trunk hook writes the same bytes): `None`
/// for English.
#[cfg(not(target_arch = "wasm32"))]
pub fn file(lang: Lang) -> Option<String> {
    (lang == Lang::Zh).then(|| {
        PRESETS
            .iter()
            .map(|p| format!("== {}\n{}", p.id, p.zh_head))
            .collect()
    })
}

/// Reads `text` (see [`file`]) into one block of header lines per preset, in [`PRESETS`]'
/// order. An error says what is wrong: a preset missing or unknown, a block that differs from
/// this build's (another version of the app), text before the first `== ID` line.
fn parse(text: &str) -> Result<Vec<&str>, String> {
    let mut blocks: Vec<Option<&str>> = vec![None; PRESETS.len()];
    let mut rest = text;
    if !rest.starts_with("== ") {
        return Err("expected '== ID' first".to_string());
    }
    while let Some(after) = rest.strip_prefix("== ") {
        let (id, body) = after.split_once('\n').unwrap_or((after, ""));
        let end = if body.starts_with("== ") {
            0
        } else {
            body.find("\n== ").map_or(body.len(), |i| i + 1)
        };
        let (block, next) = body.split_at(end);
        let i = PRESETS
            .iter()
            .position(|p| p.id == id)
            .ok_or_else(|| format!("unknown preset '{id}'"))?;
        if digest(block) != PRESETS[i].zh_digest {
            return Err(format!("preset '{id}' differs from this version's"));
        }
        blocks[i] = Some(block);
        rest = next;
    }
    blocks
        .into_iter()
        .zip(PRESETS)
        .map(|(b, p)| b.ok_or_else(|| format!("preset '{}' missing", p.id)))
        .collect()
}

/// Installs the fetched file of `lang` (the browser build; natively the lines are compiled
/// in and this only checks `text`). A file already installed stays as it is.
pub fn provide(lang: Lang, text: String) -> Result<(), String> {
    if lang == Lang::En {
        return Ok(());
    }
    #[cfg(target_arch = "wasm32")]
    {
        if ZH.get().is_some() {
            return Ok(());
        }
        let heads = parse(Box::leak(text.into_boxed_str()))?;
        let _ = ZH.set(heads);
        Ok(())
    }
    #[cfg(not(target_arch = "wasm32"))]
    parse(&text).map(|_| ())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_file_reads_back_into_each_presets_lines() {
        let text = file(Lang::Zh).unwrap();
        let blocks = parse(&text).unwrap();
        for (b, p) in blocks.iter().zip(PRESETS) {
            assert_eq!(*b, p.zh_head, "{}", p.id);
        }
        assert!(provide(Lang::Zh, text).is_ok());
        assert_eq!(file(Lang::En), None);
    }

    #[test]
    fn another_version_or_a_broken_file_is_refused() {
        let text = file(Lang::Zh).unwrap();
        let changed = text.replacen("# title.zh: ", "# title.zh: X", 1);
        assert!(parse(&changed).unwrap_err().contains("differs"));
        let first = PRESETS[0].id;
        let cut = text.replacen(&format!("== {first}\n"), "", 1);
        assert!(parse(&cut).is_err());
        let without_last = &text[..text.rfind("\n== ").unwrap() + 1];
        assert!(parse(without_last).unwrap_err().contains("missing"));
        assert!(parse("== 99-nope\n# title.zh: x\n")
            .unwrap_err()
            .contains("unknown"));
        assert!(parse("").is_err());
    }
}
