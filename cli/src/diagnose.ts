import fs from 'node:fs';

/**
 * Turns connection failures into one sentence that says what is wrong and
 * what to do about it. Shared by `doctor` and by every command that opens the
 * database, so a stopped PostgreSQL reads the same everywhere.
 */

interface NodeErrorLike {
  code?: string;
  message?: string;
  errors?: NodeErrorLike[];
}

/** pg wraps ECONNREFUSED on dual-stack hosts in an AggregateError; the code is on the parts. */
function codeOf(err: unknown): string | undefined {
  const e = err as NodeErrorLike | null;
  if (!e) return undefined;
  if (e.code) return e.code;
  return e.errors?.find((x) => x.code)?.code;
}

function messageOf(err: unknown): string {
  const e = err as NodeErrorLike | null;
  const text = e?.message || e?.errors?.map((x) => x.message).find(Boolean) || String(err);
  return text.split('\n')[0]!;
}

export function endpointOf(url: string, defaultPort: number): { host: string; port: number; user: string; database: string } {
  const u = new URL(url);
  return {
    host: u.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: Number(u.port || defaultPort),
    user: decodeURIComponent(u.username),
    database: decodeURIComponent(u.pathname.replace(/^\//, '')),
  };
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '::1']);

/** On a Debian-style machine the exact command is known; elsewhere name the usual ones. */
function postgresStartHint(host: string): string {
  if (LOOPBACK.has(host)) {
    try {
      const versions = fs.readdirSync('/etc/postgresql').filter((v) => /^\d+$/.test(v));
      if (versions.length === 1) return `pg_ctlcluster ${versions[0]} main start`;
    } catch {
      // Not a Debian-style install.
    }
    return 'pg_ctlcluster <versão> main start ou systemctl start postgresql';
  }
  return `o serviço PostgreSQL em ${host}`;
}

export const EMBEDDED_ALTERNATIVE = 'ou remova DATABASE_URL para usar o PostgreSQL embutido';

/** One line explaining why PostgreSQL at `url` cannot be used. */
export function describePostgresError(err: unknown, url: string, timeoutSeconds = 3): string {
  const { host, port, user, database } = endpointOf(url, 5432);
  const where = `PostgreSQL em ${host}:${port}`;
  const code = codeOf(err);
  const message = messageOf(err);
  switch (code) {
    case 'ECONNREFUSED':
      return `${where} não responde (conexão recusada). Inicie-o: ${postgresStartHint(host)}, ${EMBEDDED_ALTERNATIVE}.`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `${where}: o host "${host}" não foi encontrado. Corrija DATABASE_URL, ${EMBEDDED_ALTERNATIVE}.`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return `${where} inalcançável pela rede. Verifique o host e a rede em DATABASE_URL, ${EMBEDDED_ALTERNATIVE}.`;
    case '28P01':
    case '28000':
      return `${where} recusou a autenticação do usuário "${user}". Corrija usuário e senha em DATABASE_URL.`;
    case '3D000':
      return `${where} não tem o banco "${database}". Crie-o (createdb -h ${host} -p ${port} -U ${user || 'postgres'} ${database}) ou corrija DATABASE_URL.`;
    case 'ETIMEDOUT':
      return `${where} não respondeu em ${timeoutSeconds} s. Verifique se o servidor está no ar e se um firewall bloqueia a porta, ${EMBEDDED_ALTERNATIVE}.`;
    case '57P03':
      return `${where} ainda está iniciando ou em recuperação. Aguarde alguns segundos e tente de novo.`;
    default:
      if (/timeout/i.test(message)) return describePostgresError({ code: 'ETIMEDOUT' }, url, timeoutSeconds);
      return `${where}: ${message}`;
  }
}

/** One line explaining why Redis at `url` cannot be used. */
export function describeRedisError(err: unknown, url: string, timeoutSeconds = 3): string {
  const { host, port } = endpointOf(url, 6379);
  const where = `Redis em ${host}:${port}`;
  const alternative = 'ou remova REDIS_URL para usar filas no PostgreSQL e eventos em processo (um único nó)';
  const code = codeOf(err);
  const message = messageOf(err);
  if (code === 'ECONNREFUSED') {
    const hint = LOOPBACK.has(host) ? `redis-server --daemonize yes --port ${port} ou systemctl start redis-server` : `o serviço Redis em ${host}`;
    return `${where} não responde (conexão recusada). Inicie-o: ${hint}, ${alternative}.`;
  }
  if (code === 'ENOTFOUND' || code === 'EAI_AGAIN') return `${where}: o host "${host}" não foi encontrado. Corrija REDIS_URL, ${alternative}.`;
  if (/WRONGPASS|NOAUTH|invalid password|AUTH/i.test(message)) return `${where} recusou a autenticação. Corrija usuário e senha em REDIS_URL.`;
  if (/timeout|timed out/i.test(message) || code === 'ETIMEDOUT') {
    return `${where} não respondeu em ${timeoutSeconds} s. Verifique se o servidor está no ar e se um firewall bloqueia a porta, ${alternative}.`;
  }
  return `${where}: ${message}`;
}

/** Rejects with an ETIMEDOUT error when `promise` takes longer than `ms`; drivers word their own timeouts inconsistently. */
export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(Object.assign(new Error(`timeout after ${ms} ms`), { code: 'ETIMEDOUT' })), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
