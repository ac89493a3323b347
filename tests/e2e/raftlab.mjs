// Helpers for driving raftlab's UI through its stable data-* hooks. Every wait polls the DOM
// (page.waitForFunction); nothing waits a fixed time and hopes.
//
// Hooks used (see src/ui):
//   nodes:    g[data-node][data-role][data-term][data-status][data-vote][data-learner][data-commit]
//   entries:  [data-index][data-node][data-term][data-committed][data-label]
//   quorum:   [data-quorum][data-voters][data-reachable][data-has-quorum][data-joint]
//   state:    [data-now][data-head][data-playing]; the run's fingerprint: fingerprintOf(page)
//   badge:    [data-violations]
//   player:   [data-current-line], [data-expect="pass|fail"] (drawn only while "show script" is
//             open: showScript), [data-narration], [data-done], [data-failures]

/** Every node as {id, role, term, status, vote, learner, commit}. */
export function nodes(page) {
  return page.$$eval('[data-node][data-role]', (els) =>
    els.map((e) => ({
      id: e.dataset.node,
      role: e.dataset.role,
      term: Number(e.dataset.term),
      status: e.dataset.status,
      vote: Number(e.dataset.vote),
      learner: e.dataset.learner === 'true',
      commit: Number(e.dataset.commit),
    })),
  );
}

/**
 * Waits for a running leader with term >= minTerm (and not `not`), optionally among `among`;
 * returns {id, term} of the highest-term one.
 */
export async function waitLeader(page, { minTerm = 0, not = null, among = null, timeout = 30_000 } = {}) {
  const handle = await page.waitForFunction(
    ([minTerm, not, among]) => {
      const ls = [...document.querySelectorAll('[data-node][data-role="leader"][data-status="running"]')]
        .map((e) => ({ id: e.dataset.node, term: Number(e.dataset.term) }))
        .filter((l) => l.term >= minTerm && l.id !== not && (!among || among.includes(l.id)));
      ls.sort((a, b) => b.term - a.term);
      return ls[0] || null;
    },
    [minTerm, not, among],
    { timeout, polling: 50 },
  );
  return handle.jsonValue();
}

/** Simulated time shown, ms. */
/**
 * The fingerprint of the run the page shows (16 hex digits, as `raftlab run --json` prints it):
 * asked of the app (`wasmBindings.raftlab_fingerprint`, src/ui/probe.rs), not kept on the page.
 */
export function fingerprintOf(page) {
  return page.evaluate(() => window.wasmBindings.raftlab_fingerprint());
}

export async function simNow(page) {
  return Number(await page.getAttribute('[data-now]', 'data-now'));
}

/** Waits until simulated time reaches `ms`. */
export async function waitSimTime(page, ms, timeout = 30_000) {
  await page.waitForFunction((ms) => Number(document.querySelector('[data-now]')?.dataset.now) >= ms, ms, {
    timeout,
    polling: 50,
  });
}

export async function setSpeed(page, speed) {
  await page.selectOption('select[aria-label="speed"]', String(speed));
}

async function setPlaying(page, on) {
  const btn = page.locator('.toolbar button[data-playing]');
  if ((await btn.getAttribute('data-playing')) !== String(on)) await btn.click();
  await page.waitForSelector(`.toolbar button[data-playing="${on}"]`);
}

export const pause = (page) => setPlaying(page, false);
export const play = (page) => setPlaying(page, true);

/** Opens a right-hand tab: node, network, membership, client, scenario, export / share. */
export async function openTab(page, name) {
  await page.click(`[data-tab="${name}"]`);
}

/**
 * Pastes `text` into the Scenario tab, loads it and runs all its lines; waits until the run
 * is done. The scenario stays open (its panel, its timeline).
 */
export async function runPastedScenario(page, text) {
  await openTab(page, 'scenario');
  await page.fill('textarea[aria-label="scenario text"]', text);
  await page.click('button[aria-label="load pasted scenario"]');
  await page.click('button[aria-label="run all lines"]');
  await page.waitForSelector('[data-scenario][data-done="true"]', { timeout: 60_000 });
}

/**
 * Opens the scenario tab and its "show script" list, whose lines ([data-expect],
 * [data-current-line], .line) are drawn only while it is open; waits for them.
 */
export async function showScript(page) {
  await openTab(page, 'scenario');
  const list = page.locator('.script details.show-script');
  if ((await list.getAttribute('open')) === null) await list.locator('> summary').click();
  await page.waitForSelector('.script .lines li.line');
}

/** Clicks a node in the cluster drawing (which opens the node panel). */
export async function clickNode(page, id) {
  await page.locator(`g.node[data-node="${id}"] circle.body`).click({ force: true });
  await page.waitForSelector(`[data-panel-node="${id}"]`);
}

/** Clicks the node panel's action button for `label` (e.g. "Kill") on `id`. */
export async function nodeAction(page, id, label, scn) {
  await clickNode(page, id);
  await page.click(`button[aria-label="${label} (${scn})"]`);
}

/** Entries of one node's log row: [{index, term, committed, label}]. */
export function entries(page, id) {
  return page.$$eval(`[data-log-node="${id}"] [data-index]`, (els) =>
    els.map((e) => ({
      index: Number(e.dataset.index),
      term: Number(e.dataset.term),
      committed: e.dataset.committed === 'true',
      label: e.dataset.label,
    })),
  );
}

/** The quorum summary's data. */
export function quorum(page) {
  return page.$eval('[data-quorum]', (e) => ({
    quorum: Number(e.dataset.quorum),
    voters: Number(e.dataset.voters),
    reachable: e.dataset.reachable === '' ? null : Number(e.dataset.reachable),
    hasQuorum: e.dataset.hasQuorum === 'true',
    joint: e.dataset.joint === 'true',
    learners: e.dataset.learners,
    text: e.textContent,
  }));
}

/** Proposes key=value from the client panel, to the leader or `via` a node ("n2"). */
export async function propose(page, key, value, via = '') {
  await openTab(page, 'client');
  await page.fill('input[aria-label="key to write"]', key);
  await page.fill('input[aria-label="value to write"]', value);
  await page.selectOption('select[aria-label="write goes to"]', via);
  await page.click('button[aria-label="propose write"]');
}

/** Clicks the "one tick" button `n` times (the run pauses). */
export async function stepTicks(page, n) {
  for (let i = 0; i < n; i++) {
    const before = await simNow(page);
    await page.click('button[aria-label="step one tick"]');
    await waitSimTime(page, before + 100);
  }
}

/** Drags the timeline scrubber to `ms` (sets the range input and fires its input event). */
export async function scrubTo(page, ms) {
  await page.$eval(
    '[data-scrubber]',
    (el, ms) => {
      el.value = String(ms);
      el.dispatchEvent(new Event('input', { bubbles: true }));
    },
    ms,
  );
}
