/**
 * B4 sockets (docs/performance.md): 10k authenticated agent sockets on one server
 * (one hot tenant of 200 agents, the rest spread over tenants of 200), then
 * 50 customer messages/s into the hot tenant. Delivery = webhook sent →
 * `message.created` on each of the 200 agents' sockets.
 *   npm run bench -- sockets [--sockets 10000] [--rate 50] [--seconds 20]
 */
import { percentile, report } from './_bench-db.ts';
import { arg, socketFixture } from './_sockets.ts';

const SOCKETS = arg('sockets', 10_000);
const RATE = arg('rate', 50);
const SECONDS = arg('seconds', 20);

const fx = await socketFixture('atende_bench_b4', { sockets: SOCKETS, hotAgents: 200 });
console.log(`opening ${SOCKETS} sockets…`);
const t0 = Date.now();
const failed = await fx.connectAll(fx.agents, false);
console.log(`opened ${SOCKETS - failed} in ${((Date.now() - t0) / 1000).toFixed(1)} s; server RSS ${fx.serverRssMb().toFixed(0)} MB`);

let rssMax = fx.serverRssMb();
const sampler = setInterval(() => (rssMax = Math.max(rssMax, fx.serverRssMb())), 500);
console.log(`${RATE} msg/s into the 200-agent tenant for ${SECONDS} s…`);
const bad = await fx.steadyLoad(RATE, SECONDS);
await new Promise((r) => setTimeout(r, 1000));
clearInterval(sampler);

const hot = fx.agents.filter((a) => a.hot);
const latencies = hot.flatMap((a) => a.latencies);
const expected = RATE * SECONDS * hot.length;
const open = fx.agents.filter((a) => a.ws?.readyState === a.ws?.OPEN).length;
const ok = report([
  { name: 'B4 authenticated sockets open', value: open, unit: 'count', target: `>= ${SOCKETS}`, ok: open >= SOCKETS },
  { name: 'B4 server RSS (max)', value: rssMax, unit: 'MB', target: '< 500', ok: rssMax < 500 },
  { name: 'B4 delivery p95 (webhook → 200 agent sockets)', value: percentile(latencies, 95), unit: 'ms', target: '< 100', ok: percentile(latencies, 95) < 100 },
  { name: 'B4 delivery p99', value: percentile(latencies, 99), unit: 'ms', target: '(info)', ok: true },
  { name: 'B4 deliveries received / expected', value: (100 * latencies.length) / expected, unit: '%', target: '100', ok: latencies.length === expected },
  { name: 'B4 webhook non-2xx', value: bad, unit: 'count', target: '0', ok: bad === 0 },
]);
await fx.close();
process.exit(ok ? 0 : 1);
