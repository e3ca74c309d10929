import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Kernel } from '../kernel.ts';
import { authenticate } from '../http/auth.ts';
import type { ResolvedPrincipal } from '../modules/identity/tokens.ts';

const resumeQuery = z.object({
  token: z.string().max(4096).optional(),
  epoch: z.string().max(100).optional(),
  since: z.coerce.number().int().min(0).optional(),
});

/** The polling answer: the events since `since`, or, when they are gone (another epoch, too far back), an order to reload. */
const eventsAnswer = z.union([
  z.object({ resync: z.literal(true), epoch: z.string(), seq: z.number().int() }),
  // `data` is each event's own payload (tickets, messages, plugin events): its shape is the event's, not this route's.
  z.object({ epoch: z.string(), seq: z.number().int(), events: z.array(z.object({ seq: z.number().int(), epoch: z.string(), event: z.string(), data: z.unknown() })) }),
]);

export async function realtimeRoutes(app: FastifyInstance, kernel: Kernel) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  /**
   * The socket authenticates before the upgrade: a missing or bad token is an
   * HTTP 401 and no socket is opened.
   */
  r.get(
    '/api/ws',
    {
      websocket: true,
      schema: { querystring: resumeQuery },
      preValidation: async (req) => {
        const q = req.query;
        const header = req.headers['sec-websocket-protocol'];
        // Browsers cannot set headers on a WebSocket; the token comes in the query or as a subprotocol "bearer.<token>".
        const fromProtocol = typeof header === 'string' ? header.split(',').map((s) => s.trim()).find((s) => s.startsWith('bearer.'))?.slice(7) : undefined;
        req.access = await authenticate(app, q.token ?? fromProtocol);
        req.principal = req.access;
      },
    },
    (socket, req) => {
      const who = req.access as ResolvedPrincipal;
      const q = req.query;
      void kernel.realtime.attach(socket, { ...who }, { epoch: q.epoch, since: q.since }).catch((err) => {
        req.log.warn({ err: (err as Error).message }, 'socket attach failed');
        socket.close(1011, 'unavailable');
      });
    },
  );

  /** Polling fallback: the events this user may see since a seq, or a resync instruction. */
  r.get('/api/events', { schema: { operationId: 'listEventsSince', tags: ['realtime'], summary: 'Eventos desde uma sequência (alternativa ao WebSocket)', querystring: resumeQuery.omit({ token: true }), response: { 200: eventsAnswer } } }, async (req) => {
    const who = req.access!;
    const state = await kernel.bus.since(who.tenantId, req.query.epoch, req.query.since ?? 0);
    if ('resync' in state) return state;
    const events = await kernel.realtime.filterFor(who, state.events);
    const last = state.events.length ? state.events[state.events.length - 1].seq : (req.query.since ?? 0);
    return { epoch: state.epoch, seq: last, events: events.map((e) => ({ seq: e.seq, epoch: e.epoch, event: e.event, data: e.data })) };
  });
}
