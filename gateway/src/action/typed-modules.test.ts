/*
 * The rule: every action module is declared with defineModule/defineGenerator
 * (action/define.ts), whose inferred parameter types make casts on `params` unnecessary. This
 * reads the sources of the action pipeline and names any module declared as a bare ModuleDecl
 * literal and any `params.x as …` / `p.x as …` cast.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

const ROOT = path.dirname(new URL(import.meta.url).pathname);

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.ts') && !e.name.endsWith('.test.ts') && e.name !== 'testing.ts' ? [full] : [];
  });
}

/** file:line and the line, for each line of the pipeline's sources matching `pattern`. */
function offenders(pattern: RegExp): string[] {
  return sources(ROOT).flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${path.relative(ROOT, file)}:${i + 1}: ${line.trim()}`] : [])),
  );
}

test('action modules are declared with defineModule/defineGenerator, not as bare ModuleDecl literals', () => {
  assert.deepEqual(offenders(/export const \w+: (ModuleDecl|GeneratorModule) = \{/), []);
});

test('no casts on validated parameters (their types come from the declaration)', () => {
  assert.deepEqual(offenders(/(\bp|ctx\.params|\bparams)(\.\w+|\[[^\]]+\]) as (?!const\b)/), []);
});
