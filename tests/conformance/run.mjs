// Runs every client scenario of the official MCP conformance suite, latest release and the
// pinned 0.2.0 prerelease, one scenario at a time, with our wasm client in headless Chromium
// (launcher.mjs). Prints a line per scenario and each suite's summary, compares with
// baseline.json (scenarios expected to fail, with the reason), and exits non-zero when a
// scenario outside the baseline fails or a baseline entry passes (the baseline only shrinks).
// Usage: node run.mjs [--suite latest|next] [scenario ...]   (needs Node >= 22: see run.sh)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const suites = {
  latest: path.join(here, 'node_modules/conformance-latest/dist/index.js'),
  next: path.join(here, 'node_modules/conformance-next/dist/index.js'),
};
const loopback = path.resolve(here, '../peers/loopback.cjs');
const launcher = `${process.execPath} ${path.join(here, 'launcher.mjs')}`;
const baseline = JSON.parse(fs.readFileSync(path.join(here, 'baseline.json'), 'utf8'));
const out = path.join(here, 'results');

const args = process.argv.slice(2);
const only = args.includes('--suite') ? [args[args.indexOf('--suite') + 1]] : Object.keys(suites);
const picked = args.filter((a, i) => !a.startsWith('--') && args[i - 1] !== '--suite');

function conformance(suite, ...rest) {
  return spawnSync(process.execPath, ['-r', loopback, suites[suite], ...rest], { encoding: 'utf8', timeout: 120_000 });
}

function scenarios(suite) {
  const r = conformance(suite, 'list', '--client');
  return [...r.stdout.matchAll(/^\s+- (\S+)(?: \[([^\]]*)\])?/gm)].map((m) => ({ name: m[1], tags: m[2] ?? '' }));
}

let bad = 0;
for (const suite of only) {
  const expected = baseline[suite] ?? {};
  const list = scenarios(suite).filter((s) => picked.length === 0 || picked.includes(s.name));
  const tally = { passed: 0, failed: 0, expected: 0, unexpectedPass: 0 };
  console.log(`\n== ${suite} suite (${path.basename(path.dirname(path.dirname(suites[suite])))}): ${list.length} client scenarios`);
  for (const { name, tags } of list) {
    const dir = path.join(out, suite, name.replaceAll('/', '_'));
    fs.rmSync(dir, { recursive: true, force: true });
    const started = Date.now();
    const r = conformance(suite, 'client', '--command', launcher, '--scenario', name, '-o', dir);
    const ms = Date.now() - started;
    const text = `${r.stdout}\n${r.stderr}`;
    const summary = (text.match(/Passed: (\d+\/\d+, \d+ failed, \d+ warnings)/) ?? [])[1] ?? 'no summary';
    const passed = r.status === 0 && /OVERALL: PASSED/.test(text);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'output.txt'), text);
    const reason = expected[name];
    let verdict;
    if (passed && reason) { verdict = 'PASS (in baseline: remove it)'; tally.unexpectedPass += 1; bad += 1; }
    else if (passed) { verdict = 'PASS'; tally.passed += 1; }
    else if (reason) { verdict = `expected failure: ${reason}`; tally.expected += 1; }
    else { verdict = 'FAIL'; tally.failed += 1; bad += 1; }
    console.log(`${passed ? '✔' : '✘'} ${name} [${tags}] ${summary} (${ms} ms) ${verdict}`);
    if (!passed && !reason) {
      const failures = text.split('\n').filter((l) => /FAILURE|WARNING|Error:|refused or failed|launcher error/.test(l)).slice(0, 8);
      for (const l of failures) console.log(`    ${l.replace(/\x1b\[[0-9;]*m/g, '').trim()}`);
    }
  }
  console.log(`${suite} summary: ${tally.passed} passed, ${tally.failed} failed, ${tally.expected} expected failures (baseline), ${tally.unexpectedPass} baseline entries now passing`);
}
console.log(bad === 0 ? '\nconformance: OK' : `\nconformance: ${bad} problem(s)`);
process.exit(bad === 0 ? 0 : 1);
