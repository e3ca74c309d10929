import type pg from 'pg';

/**
 * Brazil's IANA time zones. A tenant whose time zone is one of them is taken
 * as Brazilian (the product has no country field; the time zone is what an
 * admin sets for the company): national numbers in its contact imports are
 * read with +55, and its screens offer the states (UF) as a list.
 */
const BRAZIL_TIME_ZONES = new Set([
  'America/Sao_Paulo', 'America/Rio_Branco', 'America/Manaus', 'America/Cuiaba', 'America/Campo_Grande', 'America/Porto_Velho',
  'America/Boa_Vista', 'America/Belem', 'America/Fortaleza', 'America/Recife', 'America/Araguaina', 'America/Maceio',
  'America/Bahia', 'America/Santarem', 'America/Noronha', 'America/Eirunepe', 'Brazil/East', 'Brazil/West', 'Brazil/Acre', 'Brazil/DeNoronha',
]);

/** ISO country of a tenant as far as the product can tell: `BR`, or null when its time zone is not Brazil's. */
export function countryOfTimeZone(timeZone: string | null | undefined): 'BR' | null {
  return timeZone && BRAZIL_TIME_ZONES.has(timeZone) ? 'BR' : null;
}

export async function tenantCountry(pool: pg.Pool, tenantId: number): Promise<'BR' | null> {
  const r = await pool.query<{ timezone: string }>('SELECT timezone FROM tenants WHERE id = $1', [tenantId]);
  return countryOfTimeZone(r.rows[0]?.timezone);
}
