//! Messages in flight: a glyph per message moving along its link at its simulated timing
//! (shape by type, outcome for responses), and the detail card of the one clicked, with a
//! button to drop it.

use yew::prelude::*;

use crate::raft::{Message, MsgType};
use crate::sim::network::InFlight;
use crate::sim::Action;

use super::app::{Msg, View};
use super::cluster_view::{fmt, Layout};
use super::geometry::{self, Pt};
use super::style::node_name;

/// Glyphs for every message in flight.
pub fn in_flight(v: &View, lay: &Layout) -> Html {
    let now = v.sim.now;
    v.sim
        .net
        .in_flight
        .values()
        .filter(|f| !f.msg.msg_type.is_local())
        .filter_map(|f| {
            let a = *lay.pos.get(&f.msg.from)?;
            let b = *lay.pos.get(&f.msg.to)?;
            let span = f.deliver_at.saturating_sub(f.sent_at);
            let frac = if span == 0 {
                1.0
            } else {
                now.saturating_sub(f.sent_at) as f64 / span as f64
            };
            // From the edge of one node to the edge of the other, on its own side of the link.
            let a = geometry::towards(a, b, lay.r);
            let b = geometry::towards(b, a, lay.r);
            let p = geometry::along(a, b, frac, 6.0);
            Some(glyph(v, f, p))
        })
        .collect()
}

/// "granted", "rejected" or "" for a message.
fn outcome(m: &Message) -> &'static str {
    if !m.msg_type.is_response() {
        return "";
    }
    if m.reject {
        "rejected"
    } else {
        match m.msg_type {
            MsgType::VoteResp | MsgType::PreVoteResp => "granted",
            _ => "ok",
        }
    }
}

fn shape(t: MsgType, p: Pt) -> Html {
    let (x, y) = (p.x, p.y);
    let diamond = |s: f64| {
        format!(
            "{},{} {},{} {},{} {},{}",
            fmt(x),
            fmt(y - s),
            fmt(x + s),
            fmt(y),
            fmt(x),
            fmt(y + s),
            fmt(x - s),
            fmt(y)
        )
    };
    let triangle = |s: f64| {
        format!(
            "{},{} {},{} {},{}",
            fmt(x),
            fmt(y - s),
            fmt(x + s),
            fmt(y + s * 0.8),
            fmt(x - s),
            fmt(y + s * 0.8)
        )
    };
    let star = |s: f64| {
        (0..10)
            .map(|i| {
                let a = -std::f64::consts::FRAC_PI_2 + std::f64::consts::PI * i as f64 / 5.0;
                let rr = if i % 2 == 0 { s } else { s * 0.45 };
                format!("{},{}", fmt(x + rr * a.cos()), fmt(y + rr * a.sin()))
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    let rect = |w: f64, h: f64| {
        html! { <rect class="shape" x={fmt(x - w / 2.0)} y={fmt(y - h / 2.0)} width={fmt(w)} height={fmt(h)} rx="1.5" /> }
    };
    match t {
        MsgType::App => rect(13.0, 9.0),
        MsgType::AppResp => rect(8.0, 6.0),
        MsgType::Snap => html! {
            <>
                { rect(16.0, 12.0) }
                <line class="detail" x1={fmt(x - 5.0)} y1={fmt(y - 2.0)} x2={fmt(x + 5.0)} y2={fmt(y - 2.0)} />
                <line class="detail" x1={fmt(x - 5.0)} y1={fmt(y + 2.0)} x2={fmt(x + 5.0)} y2={fmt(y + 2.0)} />
            </>
        },
        MsgType::Heartbeat => html! { <circle class="shape" cx={fmt(x)} cy={fmt(y)} r="4" /> },
        MsgType::HeartbeatResp => {
            html! { <circle class="shape" cx={fmt(x)} cy={fmt(y)} r="2.8" /> }
        }
        MsgType::Vote | MsgType::PreVote => {
            html! { <polygon class="shape" points={diamond(7.0)} /> }
        }
        MsgType::VoteResp | MsgType::PreVoteResp => {
            html! { <polygon class="shape" points={diamond(5.0)} /> }
        }
        MsgType::ReadIndex => html! { <polygon class="shape" points={triangle(6.5)} /> },
        MsgType::ReadIndexResp => html! { <polygon class="shape" points={triangle(4.5)} /> },
        MsgType::TimeoutNow | MsgType::TransferLeader => {
            html! { <polygon class="shape" points={star(8.0)} /> }
        }
        MsgType::Prop => rect(8.0, 8.0),
        _ => html! { <circle class="shape" cx={fmt(x)} cy={fmt(y)} r="3.5" /> },
    }
}

fn glyph(v: &View, f: &InFlight, p: Pt) -> Html {
    let m = &f.msg;
    let t = m.msg_type;
    let id = f.id;
    let out = outcome(m);
    let mut class = classes!("msg", format!("m-{}", t.name()));
    if !out.is_empty() {
        class.push(format!("out-{out}"));
    }
    if f.lost {
        class.push("lost");
    }
    if !m.entries.is_empty() {
        class.push("has-entries");
    }
    let selected = v.ui.selected_msg == Some(id);
    if selected {
        class.push("selected");
    }
    let mark = match out {
        "rejected" => {
            html! { <text class="mark" x={fmt(p.x + 7.0)} y={fmt(p.y - 4.0)}>{ "✕" }</text> }
        }
        "granted" => {
            html! { <text class="mark" x={fmt(p.x + 7.0)} y={fmt(p.y - 4.0)}>{ "✓" }</text> }
        }
        _ => html! {},
    };
    let title = format!(
        "{} {}→{}, term {}{}{} — click for fields or to drop it",
        t.name(),
        node_name(m.from),
        node_name(m.to),
        m.term,
        if m.entries.is_empty() {
            String::new()
        } else {
            format!(", {} entries", m.entries.len())
        },
        if out.is_empty() {
            String::new()
        } else {
            format!(", {out}")
        }
    );
    let onclick = v.link.callback(move |e: MouseEvent| {
        e.stop_propagation();
        Msg::SelectMessage(Some(id))
    });
    html! {
        <g class={class} key={id.to_string()} data-msg-type={t.name()} data-msg-id={id.to_string()}
            data-outcome={out} {onclick}>
            <title>{ title }</title>
            <circle class="hit" cx={fmt(p.x)} cy={fmt(p.y)} r="10" />
            if selected {
                <circle class="msg-sel" cx={fmt(p.x)} cy={fmt(p.y)} r="11" />
            }
            { shape(t, p) }
            { mark }
        </g>
    }
}

/// The card of the selected message: its fields and a drop button.
pub fn detail(v: &View) -> Html {
    let Some(id) = v.ui.selected_msg else {
        return html! {};
    };
    let close = v.link.callback(|_| Msg::SelectMessage(None));
    let Some(f) = v.sim.net.in_flight.get(&id) else {
        return html! {
            <div class="msg-card" role="dialog" aria-label="message details">
                <p>{ format!("Message {id} is no longer in flight (delivered or dropped).") }</p>
                <button onclick={close} aria-label="close message details">{ "Close" }</button>
            </div>
        };
    };
    let m = &f.msg;
    let drop = v.link.callback(move |_| Msg::Act(Action::Drop(id)));
    let entries = if m.entries.is_empty() {
        "none".to_string()
    } else {
        m.entries
            .iter()
            .map(|e| {
                let l = e.label();
                if l.is_empty() {
                    format!("{}@t{} (empty)", e.index, e.term)
                } else {
                    format!("{}@t{} {l}", e.index, e.term)
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let row = |k: &str, val: String| html! { <span class="field"><span class="k">{ k.to_string() }</span>{ " " }<span class="v">{ val }</span></span> };
    html! {
        <div class="msg-card" role="dialog" aria-label="message details" data-msg-card={id.to_string()}>
            <h3>{ format!("{} {} → {}", m.msg_type.name(), node_name(m.from), node_name(m.to)) }</h3>
            <div class="fields">
                { row("id", id.to_string()) }
                { row("term", m.term.to_string()) }
                { row("log term", m.log_term.to_string()) }
                { row("index", m.index.to_string()) }
                { row("commit", m.commit.to_string()) }
                { row("entries", entries) }
                if m.msg_type.is_response() {
                    { row("reject", m.reject.to_string()) }
                }
                if m.reject {
                    { row("reject hint", m.reject_hint.to_string()) }
                }
                if let Some(s) = &m.snapshot {
                    { row("snapshot", format!("up to index {} (term {})", s.index, s.term)) }
                }
                if m.context != 0 {
                    { row("context", m.context.to_string()) }
                }
                { row("sent", format!("{} ms", f.sent_at)) }
                { row("arrives", format!("{} ms", f.deliver_at)) }
                if f.lost {
                    { row("fate", "will be lost".to_string()) }
                }
            </div>
            <div class="buttons">
                <button class="danger" onclick={drop} aria-label="drop this message">{ "Drop this message" }</button>
                <button onclick={close} aria-label="close message details">{ "Close" }</button>
            </div>
        </div>
    }
}
