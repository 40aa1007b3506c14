import bcrypt from 'bcrypt';

/**
 * bcrypt hashing on libuv's thread pool (the event loop stays free during a login flood).
 *
 * @example
 * const hash = await hashPassword('s3cret-pass', 10);
 * await verifyPassword('s3cret-pass', hash) // true
 */
export function hashPassword(plain: string, rounds: number): Promise<string> {
  return bcrypt.hash(plain, rounds);
}

// A valid hash of a random string: comparing against it costs what a real compare costs, so an
// unknown user code answers as slowly as a wrong password.
let dummy: Promise<string> | undefined;

export async function verifyPassword(plain: string, hash: string | undefined, rounds: number): Promise<boolean> {
  if (hash === undefined) {
    dummy ??= bcrypt.hash(`unknown-user-${Math.random()}`, rounds);
    await bcrypt.compare(plain, await dummy);
    return false;
  }
  return bcrypt.compare(plain, hash);
}
