/**
 * B5 reconnect storm (docs/performance.md): 10k agent sockets connected while the
 * hot tenant receives 50 messages/s; every socket drops at once and comes
 * back after a random (jittered) delay, resuming from its last seq. All must
 * be back within 60 s, and no agent of the hot tenant may miss an event that
 * a never-dropped control socket received.
 *   npm run bench -- reconnect [--sockets 10000] [--jitter 20] [--rate 50]
 */
import { report } from './_bench-db.ts';
import { arg, socketFixture } from './_sockets.ts';

const SOCKETS = arg('sockets', 10_000);
const RATE = arg('rate', 50);
const JITTER_S = arg('jitter', 20);

const fx = await socketFixture('atende_bench_b5', { sockets: SOCKETS + 1, hotAgents: 201 });
const [control, ...agents] = [fx.agents.find((a) => a.hot)!, ...fx.agents.filter((a, i) => !(a.hot && i === fx.agents.findIndex((x) => x.hot)))];
console.log(`opening ${SOCKETS + 1} sockets…`);
const failedOpen = await fx.connectAll([control, ...agents], false);
if (failedOpen) console.log(`${failedOpen} sockets failed to open`);

let stop = false;
const load = fx.steadyLoad(RATE, 600, () => stop);
await new Promise((r) => setTimeout(r, 5000));

console.log(`dropping ${agents.length} sockets; each returns within ${JITTER_S} s (jittered), resuming from its last seq…`);
const dropAt = Date.now();
for (const a of agents) a.ws!.terminate();
let back = 0;
let failures = 0;
/** Why reconnects failed, for the report: a refusal (HTTP status) or a network error. */
const reasons = new Map<string, number>();
const returns = agents.map(async (a) => {
  let attempt = 0;
  await new Promise((r) => setTimeout(r, Math.random() * JITTER_S * 1000));
  for (;;) {
    try {
      await fx.connect(a, true);
      back++;
      return;
    } catch (err) {
      failures++;
      const why = (err as Error).message.slice(0, 80);
      reasons.set(why, (reasons.get(why) ?? 0) + 1);
      // Exponential backoff with full jitter, as the shell does.
      await new Promise((r) => setTimeout(r, Math.random() * Math.min(30_000, 500 * 2 ** attempt++)));
    }
  }
});
await Promise.race([Promise.all(returns), new Promise((r) => setTimeout(r, 90_000))]);
const allBackMs = Date.now() - dropAt;
await new Promise((r) => setTimeout(r, 3000));
stop = true;
await load;
await new Promise((r) => setTimeout(r, 2000));

// What each hot agent should have: every message.created the control socket saw after the agent's first hello.
const reference = [...control.created];
let missed = 0;
for (const a of agents.filter((x) => x.hot)) {
  for (const seq of reference) if (seq > (a.firstSeq ?? Infinity) && !a.created.has(seq)) missed++;
}
const resyncs = agents.reduce((n, a) => n + a.resyncs, 0);
if (reasons.size) console.log('failed reconnects by reason:', Object.fromEntries(reasons));
const ok = report([
  { name: 'B5 sockets back after the drop', value: back, unit: 'count', target: `${agents.length}`, ok: back === agents.length },
  { name: 'B5 all back (drop → last hello)', value: allBackMs / 1000, unit: 's', target: '< 60', ok: back === agents.length && allBackMs < 60_000 },
  { name: 'B5 missed events (hot tenant, vs control socket)', value: missed, unit: 'count', target: '0', ok: missed === 0 },
  { name: 'B5 resync instructions', value: resyncs, unit: 'count', target: '0', ok: resyncs === 0 },
  { name: 'B5 failed reconnect attempts (retried)', value: failures, unit: 'count', target: '(info)', ok: true },
  { name: 'B5 events seen by the control socket', value: reference.length, unit: 'count', target: '> 0', ok: reference.length > 0 },
]);
await fx.close();
process.exit(ok ? 0 : 1);
