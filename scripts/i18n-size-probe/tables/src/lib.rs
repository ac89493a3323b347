// The approach in raftlab's src/i18n: catalogs compiled in as text, parsed once into sorted
// tables, `{name}` substitution.
use std::sync::OnceLock;

static EN: &str = include_str!("en.txt");
static ZH: &str = include_str!("zh.txt");

fn table(src: &'static str) -> Vec<(&'static str, &'static str)> {
    let mut v: Vec<_> = src.lines().filter(|l| !l.starts_with('#')).filter_map(|l| l.split_once(" = ")).collect();
    v.sort_by_key(|e| e.0);
    v
}

fn get(lang: u32, key: &str) -> Option<&'static str> {
    static T: OnceLock<[Vec<(&'static str, &'static str)>; 2]> = OnceLock::new();
    let t = T.get_or_init(|| [table(EN), table(ZH)]);
    let t = &t[lang as usize & 1];
    t.binary_search_by(|e| e.0.cmp(key)).ok().map(|i| t[i].1)
}

#[no_mangle]
pub extern "C" fn render(lang: u32, key_ptr: *const u8, key_len: usize, n: u64, out: *mut u8) -> usize {
    let key = unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(key_ptr, key_len)) };
    let Some(t) = get(lang, key) else { return 0 };
    let mut s = String::new();
    let mut rest = t;
    while let Some(o) = rest.find('{') {
        s.push_str(&rest[..o]);
        let after = &rest[o + 1..];
        match after.find('}') {
            Some(c) => {
                match &after[..c] { "id" | "term" => s.push_str(&n.to_string()), other => { s.push('{'); s.push_str(other); s.push('}') } }
                rest = &after[c + 1..];
            }
            None => { rest = after; s.push('{'); }
        }
    }
    s.push_str(rest);
    unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), out, s.len()) };
    s.len()
}
