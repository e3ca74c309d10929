/** Starts Atende for a benchmark in its own process (so the load generator does not share its event loop). */
import { startServer } from '../src/server.ts';
import { loadConfig } from '../src/config.ts';

const config = loadConfig({ ATENDE_RATE_LIMIT_TENANT: '10000000', ATENDE_RATE_LIMIT_IP: '10000000', ...process.env, ATENDE_LOG_LEVEL: process.env.ATENDE_LOG_LEVEL ?? 'warn', ATENDE_CAPTCHA: 'off' });
const s = await startServer(config, { print: () => undefined });
process.send?.({ url: s.url });
