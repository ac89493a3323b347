// Helpers for the language tests (issue 14): find interface text left in English.

/**
 * Words that may stay as they are in the Chinese interface: etcd's and Raft's own names,
 * message types as etcd names them, field names the seeds keep in English (match, next),
 * units and key names, and the notation of a configuration (voters=(n1 n2)).
 */
export const ALLOWED = new Set([
  'etcd', 'etcdctl', 'etcdserver', 'raft', 'Raft', 'raftlab', 'ReadIndex', 'TimeoutNow',
  'PreVote', 'Vote', 'App', 'HB', 'Snap', 'Heartbeat', 'MsgApp', 'MsgAppResp', 'MsgVote',
  'MsgVoteResp', 'MsgPreVote', 'MsgPreVoteResp', 'MsgHeartbeat', 'MsgHeartbeatResp', 'MsgSnap',
  'MsgTimeoutNow', 'MsgReadIndex', 'MsgReadIndexResp', 'MsgTransferLeader',
  'match', 'next', 'tick', 'ticks', 'ms', 'id', 'URL', 'peer', 'JSON', 'scn', 'raftlab',
  'voters', 'learners', 'learners_next', 'Esc', 'shift', 'space', 'English',
  'learner-ready', 'max-entries', 'unsafe-commit', 'on', 'off',
]);

/**
 * The English words shown to a person inside `root` (default: the whole page): visible text
 * and the title, aria-label and placeholder attributes. Text inside code, pre, kbd, the
 * etcdctl previews, scenario source lines and anything marked [data-verbatim] is skipped
 * (commands and etcd's own strings stay as etcd prints them). Returns [{word, where}].
 */
export function englishLeft(page, root = 'body') {
  return page.evaluate(
    ({ root, allowed }) => {
      const ok = new Set(allowed);
      const skip = 'code, pre, kbd, script, style, textarea, [data-verbatim], .etcdctl, .src, option[lang="en"]';
      const out = [];
      const check = (raw, where) => {
        // etcdctl commands, flags and KEY=VALUE pairs are shown as etcd spells them.
        const text = raw
          .replace(/\betcdctl\b[^—·\n（）()]*/g, ' ')
          .replace(/--[a-z][a-z-]*(=\S+)?/g, ' ')
          .replace(/[A-Za-z0-9_.-]+=[A-Za-z0-9_.,()-]*/g, ' ')
          // A quoted ASCII phrase is a command or a condition: 'disruptions >= 1'.
          .replace(/'[\x20-\x7e]*?'/g, ' ')
          // `code` and etcd's own error strings ("etcdserver: ...") stay as they are.
          .replace(/`[^`]*`/g, ' ')
          .replace(/etcdserver: [^，。；）"]*/g, ' ')
          .replace(/context deadline exceeded|rpc error: code = \w+ desc = [a-z ]+|raft proposal dropped/g, ' ')
          // Configuration-change notation, like voters=(n1 n2): "+n4 learner", "-n1".
          .replace(/[+-]n\d+( learner)?/g, ' ')
          // Member requests are labelled with their etcdctl-like command: "promote n4".
          .replace(/\b(promote|remove) n\d+/g, ' ')
          // Shell commands an operator runs on a machine: kill -9 $(pidof etcd), systemctl.
          .replace(/kill -9 \$\(pidof etcd\)|systemctl start etcd/g, ' ')
          // A value the person gave, quoted back in Chinese quotes: 不认识参数「bogus」.
          .replace(/「[^」]*」/g, ' ')
          // File names and paths: docs/etcd-versions.md, raftlab-run.scn.
          .replace(/[\w./-]+\.(md|scn|json|png)\b/g, ' ')
          // raftlab's own commands: `raftlab run|compare|explore ...`.
          .replace(/\braftlab (run|compare|explore|presets|bench)\b/g, ' ')
          // etcdctl's member subcommands, quoted or not: 'member add n4 --learner'.
          .replace(/\bmember (add|promote|remove|list|update)\b( n\d+)?/g, ' ')
          // A .scn command in parentheses is code: "(kill n1)".
          .replace(/\((kill|restart|isolate|partition|cut|loss|heal|campaign|propose|read|member|start|transfer-leader|compact|force-new-cluster|drop|set)\b[^)]*\)/g, ' ');
        for (const m of text.matchAll(/[A-Za-z][A-Za-z_'’-]*[A-Za-z]/g)) {
          const w = m[0];
          if (ok.has(w) || /^n\d+$/.test(w) || /^(0x)?[0-9a-f]+$/i.test(w) && /\d/.test(w)) continue;
          out.push({ word: w, where: `${where}: ${raw.trim().slice(0, 80)}` });
        }
      };
      const base = document.querySelector(root);
      if (!base) return [{ word: '(missing root)', where: root }];
      const visible = (el) => {
        if (el.closest(skip)) return false;
        const cs = getComputedStyle(el);
        if (cs.display === 'none' || cs.visibility === 'hidden') return false;
        return el.getClientRects().length > 0 || el instanceof SVGElement;
      };
      const walker = document.createTreeWalker(base, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || !n.textContent.trim() || !visible(el)) continue;
        check(n.textContent, el.tagName.toLowerCase() + (el.className && typeof el.className === 'string' ? '.' + el.className.split(' ')[0] : ''));
      }
      for (const el of base.querySelectorAll('[title], [aria-label], [placeholder]')) {
        if (el.closest(skip) && !el.matches('.etcdctl')) continue;
        for (const a of ['title', 'aria-label', 'placeholder']) {
          const v = el.getAttribute(a);
          if (v) check(v, `${el.tagName.toLowerCase()}[${a}]`);
        }
      }
      return out;
    },
    { root, allowed: [...ALLOWED] },
  );
}

/** Fails listing what is still in English. */
export function formatLeft(left) {
  const seen = new Map();
  for (const { word, where } of left) if (!seen.has(where)) seen.set(where, word);
  return [...seen].map(([where, word]) => `  ${word}  ←  ${where}`).join('\n');
}
