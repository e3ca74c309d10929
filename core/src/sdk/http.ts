import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyBaseLogger, FastifyInstance, FastifyRequest, RawServerDefault } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { AppError } from '../errors.ts';
import type { Principal } from './types.ts';

/**
 * The Fastify scope a plugin registers routes on (`ctx.http`, `ctx.api`),
 * typed by the zod type provider: a route's `schema.params`, `querystring`
 * and `body` type `req.params`, `req.query` and `req.body`, and its
 * `schema.response` types what the handler returns. Every route declares an
 * `operationId` and a response schema; they are the OpenAPI document at
 * `/api/docs` (docs/plugin-authoring.md).
 */
export type PluginHttp = FastifyInstance<RawServerDefault, IncomingMessage, ServerResponse<IncomingMessage>, FastifyBaseLogger, ZodTypeProvider>;

/**
 * The caller of an authenticated route. Every route that is not `public`
 * runs after the kernel verified the token, so this never fails there; on a
 * public route without a session it answers 401 ERR_LOGIN_REQUIRED.
 */
export function principalOf(req: FastifyRequest): Principal {
  if (!req.principal) throw new AppError('ERR_LOGIN_REQUIRED');
  return req.principal;
}

/** Escapes `%`, `_` and `\` so user text matches literally inside `LIKE`/`ILIKE` (use with `ESCAPE '\'`, PostgreSQL's default). */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

const SQL = Symbol('atende.sql');

/** A parameterised SQL statement built by the `sql` tag: values never become SQL text. */
export interface SqlQuery {
  readonly [SQL]: true;
  readonly text: string;
  readonly values: unknown[];
}

type SqlPart = SqlQuery | { readonly [SQL]: 'raw'; readonly text: string };

const isQuery = (v: unknown): v is SqlQuery => !!v && typeof v === 'object' && (v as SqlQuery)[SQL] === true;
const isRaw = (v: unknown): v is { [SQL]: 'raw'; text: string } => !!v && typeof v === 'object' && (v as { [SQL]?: unknown })[SQL] === 'raw';

/**
 * Tagged template for the hot paths that stay in SQL (docs/plugin-authoring.md: only
 * measured hot paths; `tenant_id` leads every predicate):
 *
 * ```ts
 * const rows = await ctx.query<{ id: number }>(sql`SELECT id FROM kanban_cards WHERE tenant_id = ${tenantId} AND lane_id = ${laneId}`);
 * ```
 *
 * Each interpolated value becomes a `$n` parameter; a nested `sql` fragment is
 * inlined with its own parameters renumbered; `sql.join` joins fragments;
 * `sql.identifier` quotes a name.
 */
export function sql(strings: TemplateStringsArray, ...values: unknown[]): SqlQuery {
  let text = strings[0] ?? '';
  const params: unknown[] = [];
  values.forEach((v, i) => {
    if (isQuery(v)) {
      text += v.text.replace(/\$(\d+)/g, (_, n: string) => `$${params.length + Number(n)}`);
      params.push(...v.values);
    } else if (isRaw(v)) {
      text += v.text;
    } else {
      params.push(v);
      text += `$${params.length}`;
    }
    text += strings[i + 1] ?? '';
  });
  return { [SQL]: true, text, values: params };
}

/** Joins fragments with a separator (`sql.join(conditions, sql` AND `)`). */
sql.join = (parts: SqlQuery[], separator: SqlQuery = sql`, `): SqlQuery => {
  if (!parts.length) return sql``;
  const strings = ['', ...parts.slice(1).map(() => ''), ''];
  const interleaved: unknown[] = [];
  parts.forEach((p, i) => {
    if (i) interleaved.push(separator);
    interleaved.push(p);
  });
  return sql(Object.assign([...Array(interleaved.length + 1)].map(() => ''), { raw: strings }) as unknown as TemplateStringsArray, ...interleaved);
};

/** A quoted identifier (a column or table name chosen by code, never by user input). */
sql.identifier = (name: string): SqlPart => {
  if (!/^[a-z_][a-z0-9_]*$/.test(name)) throw new Error(`not an identifier: ${name}`);
  return { [SQL]: 'raw', text: `"${name}"` };
};

export { isQuery as isSqlQuery };
