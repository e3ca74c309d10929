/** Starts Atende for a benchmark in its own process (so the load generator does not share its event loop). */
import { startServer } from '../src/server.ts';
import { loadConfig } from '../src/config.ts';

const config = loadConfig({ ...process.env, ATENDE_LOG_LEVEL: process.env.ATENDE_LOG_LEVEL ?? 'warn', ATENDE_CAPTCHA: 'off' });
const s = await startServer(config, { print: () => undefined });
process.send?.({ url: s.url });
