use fluent_bundle::{FluentArgs, FluentBundle, FluentResource};
use std::cell::RefCell;

thread_local! {
    static B: RefCell<Option<[FluentBundle<FluentResource>; 2]>> = RefCell::new(None);
}

fn bundle(tag: &str, src: &str) -> FluentBundle<FluentResource> {
    let mut b = FluentBundle::new(vec![tag.parse().unwrap()]);
    b.set_use_isolating(false);
    b.add_resource(FluentResource::try_new(src.to_string()).unwrap()).unwrap();
    b
}

#[no_mangle]
pub extern "C" fn render(lang: u32, key_ptr: *const u8, key_len: usize, n: u64, out: *mut u8) -> usize {
    let key = unsafe { std::str::from_utf8_unchecked(std::slice::from_raw_parts(key_ptr, key_len)) };
    B.with(|b| {
        let mut b = b.borrow_mut();
        let bs = b.get_or_insert_with(|| [bundle("en", include_str!("en.ftl")), bundle("zh", include_str!("zh.ftl"))]);
        let bundle = &bs[lang as usize & 1];
        let Some(msg) = bundle.get_message(key) else { return 0 };
        let Some(p) = msg.value() else { return 0 };
        let mut args = FluentArgs::new();
        args.set("id", n);
        args.set("term", n);
        let mut errs = vec![];
        let s = bundle.format_pattern(p, Some(&args), &mut errs);
        unsafe { std::ptr::copy_nonoverlapping(s.as_ptr(), out, s.len()) };
        s.len()
    })
}
