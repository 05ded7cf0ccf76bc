/** What one check of `summon doctor` found. */
export type CheckStatus = 'ok' | 'warn' | 'fail';

export interface CheckResult {
  /** What was checked, e.g. `database`, `slack bot token`, `model engineer`. */
  name: string;
  status: CheckStatus;
  /** What was found, in a few words; never a secret. */
  detail: string;
  /** For a warning or a failure: what to do about it. */
  fix?: string;
}

/**
 * One check of `summon doctor`. A platform's or an adapter's check lives beside its code (the
 * only place its library may be used) and is composed by `src/app/doctor`. A check reports a
 * failure as a result; it does not throw.
 */
export type DoctorCheck = () => Promise<CheckResult[]>;

export const ok = (name: string, detail: string): CheckResult => ({ name, status: 'ok', detail });
export const warn = (name: string, detail: string, fix: string): CheckResult => ({
  name,
  status: 'warn',
  detail,
  fix,
});
export const fail = (name: string, detail: string, fix: string): CheckResult => ({
  name,
  status: 'fail',
  detail,
  fix,
});

/** A secret as it may be shown: its kind prefix (`xoxb-`, `xapp-`) at most, never its value. */
export function maskSecret(secret: string): string {
  const prefix = /^[a-z]{3,5}-/.exec(secret)?.[0] ?? '';
  return `${prefix}…(${secret.length} characters)`;
}

/** The text with every secret in it masked (errors may quote what was sent). */
export function withoutSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let clean = text;
  for (const secret of secrets) {
    if (secret !== undefined && secret.length >= 4) clean = clean.split(secret).join(maskSecret(secret));
  }
  return clean;
}

export const reasonOf = (error: unknown): string => (error instanceof Error ? error.message : String(error));
