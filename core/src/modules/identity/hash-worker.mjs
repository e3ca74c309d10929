// Password hashing thread (see passwords.ts). Plain JavaScript so it runs the
// same under node, tsx and vitest without a TypeScript loader in the worker.
import os from 'node:os';
import { parentPort } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

// On Linux the nice value is per thread: only this hashing thread yields to the
// event loop and the database, so a login burst cannot stall other requests.
try {
  os.setPriority(10);
} catch {
  // Not permitted or not supported: hash at normal priority.
}

parentPort.on('message', ({ id, op, plain, stored, params }) => {
  try {
    const result = op === 'hash' ? hashSync(plain, params) : verifySync(stored, plain);
    parentPort.postMessage({ id, result });
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err) });
  }
});
