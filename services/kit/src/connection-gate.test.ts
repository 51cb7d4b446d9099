import assert from 'node:assert/strict';
import { EventEmitter } from 'node:events';
import { test } from 'node:test';
import { ConnectionGate } from './connection-gate.js';

class FakeClient extends EventEmitter {
  constructor(readonly id: number) {
    super();
  }
}

function gateWithLog(failFirstAcquire = false) {
  const log: string[] = [];
  let n = 0;
  let fail = failFirstAcquire;
  const gate = new ConnectionGate<FakeClient>(
    async () => {
      if (fail) {
        fail = false;
        throw new Error('refused');
      }
      log.push(`acquire ${++n}`);
      return new FakeClient(n);
    },
    (c, err) => log.push(`release ${c.id}${err ? ` (${err.message})` : ''}`),
  );
  return { gate, log };
}

function deferred() {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('statements share the connection at once; a transaction waits for them and has it alone; first come, first served', async () => {
  const { gate, log } = gateWithLog();
  const a = deferred();
  const b = deferred();
  const tx = deferred();
  const pa = gate.withShared(async (c) => {
    log.push(`a on ${c.id}`);
    await a.promise;
    log.push('a done');
  });
  const pb = gate.withShared(async (c) => {
    log.push(`b on ${c.id}`);
    await b.promise;
    log.push('b done');
  });
  const ptx = gate.withExclusive(async (c) => {
    log.push(`tx on ${c.id}`);
    await tx.promise;
    log.push('tx done');
  });
  // Asked after the transaction: waits for it, although the connection is shared now.
  const pc = gate.withShared(async () => {
    log.push('c');
  });
  await new Promise((r) => setImmediate(r));
  assert.deepEqual(log, ['acquire 1', 'a on 1', 'b on 1']);
  a.resolve();
  await pa;
  assert.ok(!log.includes('tx on 1'), 'the transaction waits for every shared statement');
  b.resolve();
  await pb;
  await new Promise((r) => setImmediate(r));
  assert.equal(log.at(-1), 'tx on 1');
  assert.ok(!log.includes('c'));
  tx.resolve();
  await Promise.all([ptx, pc]);
  assert.deepEqual(log.slice(-3), ['tx done', 'c', 'release 1']);
});

test('an idle gate gives the connection back, with the error it reported when it was lost; a failed connect fails its caller only', async () => {
  const { gate, log } = gateWithLog(true);
  await assert.rejects(
    gate.withShared(async () => undefined),
    /refused/,
  );
  await gate.withShared(async (c) => {
    c.emit('error', new Error('Connection terminated'));
  });
  await gate.withExclusive(async (c) => {
    log.push(`tx on ${c.id}`);
  });
  assert.deepEqual(log, ['acquire 1', 'release 1 (Connection terminated)', 'acquire 2', 'tx on 2', 'release 2']);
  // A failing statement releases its turn.
  await assert.rejects(
    gate.withExclusive(async () => {
      throw new Error('boom');
    }),
    /boom/,
  );
  await gate.withShared(async () => undefined);
  assert.deepEqual(log.slice(-4), ['acquire 3', 'release 3', 'acquire 4', 'release 4']);
});
