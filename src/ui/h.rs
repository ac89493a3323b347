//! Small non-generic helpers for building the view. `html!` inlines yew's element
//! construction and a closure type per callback at each of hundreds of sites; what is built
//! the same way everywhere is built here once, to keep the wasm small.

use std::rc::Rc;

use yew::html::{
    onchange, onclick, onfocusout, oninput, onkeydown, ontoggle, IntoPropValue, Scope,
};
use yew::virtual_dom::{
    AttrValue, AttributeOrProperty, Attributes, Key, Listener, Listeners, VList, VNode, VTag, VText,
};
use yew::{
    Callback, Classes, Event, FocusEvent, Html, InputEvent, KeyboardEvent, MouseEvent, NodeRef,
    TargetCast,
};

use super::app::{App, Msg};
use super::forms::Field;
use crate::i18n::Lang;

/// A callback that sends the app (a copy of) `msg` whatever the event. One closure type for
/// every button that ignores its event, where `link.callback(move |_| ..)` made one per site.
#[inline(never)]
pub fn send<E: 'static>(link: &Scope<App>, msg: Msg) -> Callback<E> {
    let link = link.clone();
    Callback::from(move |_: E| link.send_message(msg.clone()))
}

/// A callback that sends `Msg::Field(field, value)` with the value of the input, select or
/// textarea the event came from. One closure type for every form field (two, with the
/// event types), where each field had its own.
#[inline(never)]
pub fn field<E: AsRef<Event> + 'static>(link: &Scope<App>, field: Field) -> Callback<E> {
    let link = link.clone();
    Callback::from(move |e: E| {
        // `value` is read the same way on the three kinds of element.
        let t: web_sys::HtmlInputElement = e.as_ref().target_unchecked_into();
        link.send_message(Msg::Field(field, t.value()));
    })
}

/// An element being built: a tag, its attributes (keys fixed where it is written, values
/// pushed in the same order), listeners and children. Boxed, so that each step of a chain
/// passes one pointer; every step is one out-of-line function shared by all elements.
pub struct El(Box<Parts>);

struct Parts {
    tag: &'static str,
    /// Attributes whose values are all literals, as one static table (html! does the same).
    fixed: Option<&'static [(&'static str, AttributeOrProperty)]>,
    keys: &'static [&'static str],
    values: Vec<Option<AttributeOrProperty>>,
    listeners: Vec<Option<Rc<dyn Listener>>>,
    children: Vec<VNode>,
    key: Option<Key>,
    /// An input's or a textarea's value and an input's checked state: properties kept in
    /// step with the DOM by yew, not attributes.
    value: Option<AttrValue>,
    checked: Option<bool>,
}

impl El {
    /// An element `tag` whose attributes are `keys`; their values follow by [`El::a`], one
    /// per key in order (the [`el!`](crate::el) macro writes each key beside its value).
    #[inline(never)]
    pub fn new(tag: &'static str, keys: &'static [&'static str]) -> El {
        El(Box::new(Parts {
            tag,
            fixed: None,
            keys,
            values: Vec::with_capacity(keys.len()),
            listeners: Vec::new(),
            children: Vec::new(),
            key: None,
            value: None,
            checked: None,
        }))
    }

    /// An element `tag` whose attributes are all literals (the [`el!`](crate::el) macro
    /// picks this when every value is one).
    #[inline(never)]
    pub fn fixed(tag: &'static str, attrs: &'static [(&'static str, AttributeOrProperty)]) -> El {
        let mut e = El::new(tag, &[]);
        e.0.fixed = Some(attrs);
        e
    }

    #[inline(never)]
    fn put(mut self, v: Option<AttrValue>) -> El {
        self.0.values.push(v.map(AttributeOrProperty::Attribute));
        self
    }

    /// The next attribute's value: a text (absent when `None`), a flag (present, as
    /// `key="key"`, when true) or classes (absent when empty), as `html!` renders them.
    #[inline(always)]
    pub fn a<A: AttrArg>(self, v: A) -> El {
        v.put(self)
    }

    #[inline(never)]
    fn a_static(self, v: &'static str) -> El {
        self.put(Some(AttrValue::Static(v)))
    }

    #[inline(never)]
    fn a_string(self, v: String) -> El {
        self.put(Some(AttrValue::from(v)))
    }

    #[inline(never)]
    fn a_opt(self, v: Option<String>) -> El {
        self.put(v.map(AttrValue::from))
    }

    #[inline(never)]
    fn a_opt_static(self, v: Option<&'static str>) -> El {
        self.put(v.map(AttrValue::Static))
    }

    #[inline(never)]
    fn a_flag(self, on: bool) -> El {
        // A boolean attribute's value is its own name, as html! writes it.
        let key = self.0.keys.get(self.0.values.len()).copied();
        self.put(key.filter(|_| on).map(AttrValue::Static))
    }

    #[inline(never)]
    fn a_text(self, lang: Lang, index: u16) -> El {
        self.a_static(crate::i18n::text_at(lang, index))
    }

    #[inline(never)]
    fn a_classes(self, c: Classes) -> El {
        self.put(c.into_prop_value())
    }

    #[inline(never)]
    fn listen(mut self, l: Option<Rc<dyn Listener>>) -> El {
        self.0.listeners.push(l);
        self
    }

    /// Listens to clicks.
    #[inline(never)]
    pub fn on_click(self, cb: Callback<MouseEvent>) -> El {
        self.listen(onclick::Wrapper::__macro_new(cb))
    }

    /// Listens to change events.
    #[inline(never)]
    pub fn on_change(self, cb: Callback<Event>) -> El {
        self.listen(onchange::Wrapper::__macro_new(cb))
    }

    /// Listens to input events.
    #[inline(never)]
    pub fn on_input(self, cb: Callback<InputEvent>) -> El {
        self.listen(oninput::Wrapper::__macro_new(cb))
    }

    /// Listens to toggle events (`<details>`).
    #[inline(never)]
    pub fn on_toggle(self, cb: Callback<Event>) -> El {
        self.listen(ontoggle::Wrapper::__macro_new(cb))
    }

    /// An `input`'s or a `textarea`'s value (a property, as html!'s `value`).
    #[inline(never)]
    pub fn value(mut self, v: String) -> El {
        self.0.value = Some(AttrValue::from(v));
        self
    }

    /// An `input`'s checked state (a property, as html!'s `checked`).
    #[inline(never)]
    pub fn checked(mut self, on: bool) -> El {
        self.0.checked = Some(on);
        self
    }

    /// Listens to focus leaving the element or one inside it.
    #[inline(never)]
    pub fn on_focusout(self, cb: Callback<FocusEvent>) -> El {
        self.listen(onfocusout::Wrapper::__macro_new(cb))
    }

    /// Listens to key presses.
    #[inline(never)]
    pub fn on_keydown(self, cb: Callback<KeyboardEvent>) -> El {
        self.listen(onkeydown::Wrapper::__macro_new(cb))
    }

    /// The key that tells this element apart among its siblings.
    #[inline(never)]
    pub fn key(mut self, k: Key) -> El {
        self.0.key = Some(k);
        self
    }

    /// Adds a child: a node, an element, a text, or nothing (`None`).
    #[inline(always)]
    pub fn c<C: ChildArg>(self, c: C) -> El {
        c.add(self)
    }

    #[inline(never)]
    fn child_el(self, c: El) -> El {
        self.child(c.done())
    }

    #[inline(never)]
    fn child(mut self, n: VNode) -> El {
        self.0.children.push(n);
        self
    }

    #[inline(never)]
    fn text(self, s: String) -> El {
        self.child(VNode::VText(VText::new(s)))
    }

    #[inline(never)]
    fn text_static(self, s: &'static str) -> El {
        self.child(VNode::VText(VText::new(AttrValue::Static(s))))
    }

    #[inline(never)]
    fn c_text(self, lang: Lang, index: u16) -> El {
        self.text_static(crate::i18n::text_at(lang, index))
    }

    /// The finished element.
    #[inline(never)]
    pub fn done(self) -> Html {
        let Parts {
            tag,
            fixed,
            keys,
            mut values,
            listeners,
            mut children,
            key,
            value,
            checked,
        } = *self.0;
        if tag.is_empty() {
            return VNode::VList(Rc::new(VList::with_children(children, key)));
        }
        // One value per key whatever the caller pushed, so yew's diff never indexes past
        // the end.
        let attributes = match fixed {
            Some(table) => Attributes::Static(table),
            None => {
                values.resize_with(keys.len(), || None);
                Attributes::Dynamic {
                    keys,
                    values: values.into_boxed_slice(),
                }
            }
        };
        let listeners = if listeners.is_empty() {
            Listeners::None
        } else {
            Listeners::Pending(listeners.into_boxed_slice())
        };
        match tag {
            "input" => {
                return VNode::from(VTag::__new_input(
                    value,
                    checked,
                    NodeRef::default(),
                    key,
                    attributes,
                    listeners,
                ))
            }
            "textarea" => {
                return VNode::from(VTag::__new_textarea(
                    value,
                    None,
                    NodeRef::default(),
                    key,
                    attributes,
                    listeners,
                ))
            }
            _ => {}
        }
        // A single child is the node itself, as html! gives it; several are a list.
        let children = if children.len() == 1 {
            children.pop().unwrap_or_default()
        } else {
            VNode::VList(Rc::new(VList::with_children(children, None)))
        };
        VNode::from(VTag::__new_other(
            AttrValue::Static(tag),
            NodeRef::default(),
            key,
            attributes,
            listeners,
            children,
        ))
    }
}

/// A list of nodes with no element around them, as html!'s `<>..</>`.
#[inline(never)]
pub fn frag() -> El {
    El::new("", &[])
}

/// Appends `command` to `e`, each word in a `span.w` and the spaces between them as text:
/// styles/app.css keeps a word on one line unless it is longer than the line, so a command
/// wraps between its words (a flag and its URL stay whole, where a break at any character or
/// hyphen split them) and still copies as written.
#[inline(never)]
pub fn command_words(mut e: El, command: &str) -> El {
    for (i, word) in command.split(' ').enumerate() {
        if i > 0 {
            e = e.text_static(" ");
        }
        e = e.child_el(crate::el!("span", "class" = "w").c(word.to_string()));
    }
    e
}

impl From<El> for Html {
    fn from(e: El) -> Html {
        e.done()
    }
}

/// What can be an attribute's value in [`El::a`].
pub trait AttrArg {
    /// Pushes the value onto `e`.
    fn put(self, e: El) -> El;
}

impl AttrArg for &'static str {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.a_static(self)
    }
}

impl AttrArg for String {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.a_string(self)
    }
}

impl AttrArg for Option<String> {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.a_opt(self)
    }
}

impl AttrArg for Option<&'static str> {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.a_opt_static(self)
    }
}

impl AttrArg for AttrValue {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.put(Some(self))
    }
}

impl AttrArg for Option<AttrValue> {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.put(self)
    }
}

impl AttrArg for bool {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.a_flag(self)
    }
}

impl AttrArg for Classes {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.a_classes(self)
    }
}

impl AttrArg for Text {
    #[inline(always)]
    fn put(self, e: El) -> El {
        e.a_text(self.0, self.1)
    }
}

/// What can be a child in [`El::c`].
pub trait ChildArg {
    /// Appends the child to `e`.
    fn add(self, e: El) -> El;
}

impl ChildArg for Html {
    #[inline(always)]
    fn add(self, e: El) -> El {
        e.child(self)
    }
}

impl ChildArg for El {
    #[inline(always)]
    fn add(self, e: El) -> El {
        e.child_el(self)
    }
}

impl ChildArg for Option<Html> {
    #[inline(always)]
    fn add(self, e: El) -> El {
        match self {
            Some(h) => e.child(h),
            None => e,
        }
    }
}

impl ChildArg for String {
    #[inline(always)]
    fn add(self, e: El) -> El {
        e.text(self)
    }
}

impl ChildArg for AttrValue {
    #[inline(always)]
    fn add(self, e: El) -> El {
        e.child(VNode::VText(VText::new(self)))
    }
}

impl ChildArg for Text {
    #[inline(always)]
    fn add(self, e: El) -> El {
        e.c_text(self.0, self.1)
    }
}

impl ChildArg for &'static str {
    #[inline(always)]
    fn add(self, e: El) -> El {
        e.text_static(self)
    }
}

/// A catalog text without placeholders, looked up in the language only as the element is
/// built: `text!(lang, "ui.close")` as an attribute value or a child. One call per use, where
/// `tr!` there was a lookup and then a push (~250 uses).
#[derive(Clone, Copy)]
pub struct Text(pub Lang, pub u16);

/// `text!(lang, "ui.close")`: [`Text`] for a key of en.txt (checked at compile time, as `tr!`).
#[macro_export]
macro_rules! text {
    ($lang:expr, $key:literal) => {
        $crate::ui::h::Text($lang, const { $crate::i18n::key_index($key) })
    };
}

/// `el!("button", "class" = "primary", "aria-label" = label)`: an [`El`] with these
/// attributes, each key written beside its value.
#[macro_export]
macro_rules! el {
    ($tag:literal $(, $k:literal = $v:literal)+ $(,)?) => {
        $crate::ui::h::El::fixed(
            $tag,
            &[$(($k, ::yew::virtual_dom::AttributeOrProperty::Static($v))),+],
        )
    };
    ($tag:literal $(, $k:literal = $v:expr)* $(,)?) => {{
        let e = $crate::ui::h::El::new($tag, &[$($k),*]);
        $(let e = e.a($v);)*
        e
    }};
}
