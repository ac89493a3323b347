// axe-core (pinned in package.json) run inside the page under test: its source is injected
// as a script, so nothing is fetched from anywhere.
//
//   const bad = await axeViolations(page);          // serious and critical only
//   assert.deepEqual(bad, [], formatViolations(bad));
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The impacts that fail a test. */
export const FAILING_IMPACTS = ['serious', 'critical'];

/**
 * Runs axe on the whole document as it is now; returns the violations whose impact is in
 * `impacts`, each as { id, impact, help, nodes: [{ target, summary }] }.
 */
export async function axeViolations(page, { impacts = FAILING_IMPACTS } = {}) {
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) {
    await page.addScriptTag({ content: AXE_SOURCE });
  }
  const violations = await page.evaluate(async () => {
    // label-content-name-mismatch is "experimental" in axe 4, so off unless asked for; it is
    // what tells voice-control users that the name they read is not the name they must say.
    const r = await window.axe.run(document, {
      resultTypes: ['violations'],
      rules: { 'label-content-name-mismatch': { enabled: true } },
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => ({ target: n.target.join(' '), summary: n.failureSummary })),
    }));
  });
  return violations.filter((v) => impacts.includes(v.impact));
}

/** Violations as readable lines for a failure message or a note. */
export function formatViolations(violations) {
  return violations
    .map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help}\n` +
        v.nodes
          .slice(0, 8)
          .map((n) => `    ${n.target}\n      ${(n.summary || '').replace(/\n/g, '\n      ')}`)
          .join('\n') +
        (v.nodes.length > 8 ? `\n    ... and ${v.nodes.length - 8} more` : ''),
    )
    .join('\n');
}

/** Fails with the list when axe finds a serious or critical violation; `view` names the view. */
export async function assertAccessible(page, view) {
  const bad = await axeViolations(page);
  assert.deepEqual(
    bad.map((v) => `${v.impact} ${v.id} (${v.nodes.length})`),
    [],
    `axe-core on ${view}:\n${formatViolations(bad)}`,
  );
}
