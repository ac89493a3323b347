//! Tooltips and the help overlay's glossary: the words are in `i18n::glossary`.

use crate::i18n::{glossary, Lang};

pub use glossary::CONCEPTS;

/// The sentence for `concept` in `lang` ("" if unknown).
pub fn tip_in(lang: Lang, concept: &str) -> &'static str {
    glossary::tip(lang, concept)
}
