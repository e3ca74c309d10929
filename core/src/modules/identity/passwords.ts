import { hash, verify } from '@node-rs/argon2';

/** OWASP's argon2id minimum: 19 MiB, 2 iterations, 1 lane. Runs on libuv's thread pool, off the event loop. */
const PARAMS = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

export const hashPassword = (plain: string) => hash(plain, PARAMS);

export async function verifyPassword(stored: string, plain: string): Promise<boolean> {
  try {
    return await verify(stored, plain);
  } catch {
    return false;
  }
}

/** A hash of a random value, verified against when the account does not exist so timing does not reveal it. */
let dummy: Promise<string> | undefined;
export const dummyHash = () => (dummy ??= hashPassword(`dummy-${Math.random()}`));

/** Spec §5: at least 7 characters with letters, numbers and a special character. */
export function isStrongPassword(p: string): boolean {
  return p.length >= 7 && /[A-Za-zÀ-ÿ]/.test(p) && /\d/.test(p) && /[^A-Za-zÀ-ÿ0-9]/.test(p);
}
