'use strict';
// A mocha reporter that records every test of every file (run or not) as JSON lines, so the
// runner can count passed/total per file the way MediaWiki's own figures do: a test that never
// ran because its hook failed counts as failed, a pending test as pending.
const fs = require('node:fs');
const Mocha = require('mocha');

const { EVENT_RUN_BEGIN, EVENT_TEST_PASS, EVENT_TEST_FAIL, EVENT_TEST_PENDING, EVENT_RUN_END } = Mocha.Runner.constants;

function walk(suite, out) {
  for (const t of suite.tests) out.push(t);
  for (const s of suite.suites) walk(s, out);
  return out;
}

class RecordingReporter extends Mocha.reporters.Spec {
  constructor(runner, options) {
    super(runner, options);
    const file = options.reporterOptions?.output || process.env.CONFORMANCE_RESULTS;
    const results = new Map();
    const key = (t) => `${t.file}\u0000${t.fullTitle()}`;
    runner.once(EVENT_RUN_BEGIN, () => {
      for (const t of walk(runner.suite, [])) results.set(key(t), { file: t.file, title: t.fullTitle(), state: 'notrun', error: '' });
    });
    runner.on(EVENT_TEST_PASS, (t) => results.set(key(t), { file: t.file, title: t.fullTitle(), state: 'passed', error: '' }));
    runner.on(EVENT_TEST_PENDING, (t) => results.set(key(t), { file: t.file, title: t.fullTitle(), state: 'pending', error: '' }));
    runner.on(EVENT_TEST_FAIL, (t, err) => {
      const message = String(err?.message || err)
        .split('\n')[0]
        .slice(0, 300);
      if (t.type === 'hook') {
        // A failed hook fails the tests it would have prepared: mark the rest of its suite.
        const suite = t.parent;
        for (const u of walk(suite, [])) {
          const r = results.get(key(u));
          if (r && r.state === 'notrun') results.set(key(u), { ...r, state: 'failed', error: `hook: ${message}` });
        }
      } else {
        results.set(key(t), { file: t.file, title: t.fullTitle(), state: 'failed', error: message });
      }
    });
    runner.once(EVENT_RUN_END, () => {
      if (file) fs.writeFileSync(file, `${[...results.values()].map((r) => JSON.stringify(r)).join('\n')}\n`);
    });
  }
}

module.exports = RecordingReporter;
