import type { QueryRunner } from 'typeorm';
import { givenBy, givenStartingWith } from '../../core/model/members/nickname-offer';
import { RunnerState } from '../runner-state';
import type { Statement } from './prepared-statement';

/**
 * The tables routing's remembered reads come from (`routing-read-repository.ts`): who the
 * workspace, its channels, spaces, participants, members and agents are.
 */
const DIRECTORY_TABLES = new Set([
  'workspaces',
  'platform_bindings',
  'channel_bindings',
  'spaces',
  'space_participants',
  'members',
  'agents',
]);

/** Every table a statement may write, however nested (a CTE's `UPDATE`, a quoted name). */
const WRITTEN = /\b(?:INSERT\s+INTO|UPDATE|DELETE\s+FROM)\s+(?:"?\w+"?\.)?"?(\w+)"?/gi;

/** Functions that write the directory (`summon_admit_member`: P24's member records). */
const WRITING_FUNCTION = /\bsummon_admit_member\s*\(/i;

/** Whether `sql` may write one of the directory's tables (conservative: any mention of a write). */
export const writesDirectory = (sql: string): boolean => {
  if (WRITING_FUNCTION.test(sql)) return true;
  for (const match of sql.matchAll(WRITTEN)) {
    if (DIRECTORY_TABLES.has((match[1] ?? '').toLowerCase())) return true;
  }
  return false;
};

/** P24: an admitted person's record, as the remembered reads it may change see it. */
export interface AdmittedAccount {
  /** Their platform account (the sender a routing read names). */
  account: string;
  /**
   * M10: the nicknames their record may be given, not listed: `base` or it numbered
   * (`givenBy`: `base-2` … `base-16`), or one of `others` (the account's, the id's).
   */
  base: string;
  others: readonly string[];
}

/** A nickname outside printable ASCII: folding may differ between here and the server. */
const UNFOLDABLE = /[^ -~]/;

/** M10, P24: whether the admitted record may be given `nickname`, case ignored. */
export const mayBeNamed = ({ base, others }: AdmittedAccount, nickname: string): boolean => {
  const folded = nickname.toLowerCase();
  return givenBy(base, folded) || others.some((other) => other.toLowerCase() === folded);
};

/** Whether an admission changes a remembered answer. */
export type TouchedBy = (admitted: AdmittedAccount) => boolean;

const EVERY_ADMISSION: TouchedBy = () => true;

/**
 * M10: whether a nickname may be one a folded prefix reaches (`nicknameStarts`): lower case
 * compared for printable ASCII; any other nickname is taken to match (folding may differ).
 */
export const reachedByPrefixes =
  (prefixes: readonly string[]): TouchedBy =>
  ({ base, others }) =>
    UNFOLDABLE.test(base) ||
    prefixes.some((prefix) => givenStartingWith(base, prefix)) ||
    others.some((nickname) => {
      if (UNFOLDABLE.test(nickname)) return true;
      const folded = nickname.toLowerCase();
      return prefixes.some((prefix) => folded.startsWith(prefix));
    });

interface Remembered {
  answer: Promise<unknown>;
  touchedBy: TouchedBy;
}

const memos = new RunnerState<Map<string, Remembered>>();

/**
 * T4, T3: a read of the directory made once per transaction. Routing a batch of inbox rows
 * reads the same workspace, channel, space, participants, agents and members for every row of
 * a busy channel, answers that cannot change but through the transaction itself: the first
 * row's answer is kept for the transaction, and forgotten as soon as the transaction issues a
 * statement that may write one of those tables (`forgetOnWrite`: a participant added, M2; a
 * direct message's space made, P1), or admits someone it may name (`touchedBy`, `forgetAdmitted`,
 * P24). What another transaction commits meanwhile is seen from the next transaction on: the
 * batch's rows are routed against the directory as it stood at the batch's first look, as if
 * they had been routed that much sooner.
 */
export function remembered<T>(
  runner: QueryRunner | undefined,
  key: string,
  read: () => Promise<T>,
  touchedBy: TouchedBy = EVERY_ADMISSION,
): Promise<T> {
  if (runner === undefined) return read();
  let memo = memos.get(runner);
  if (memo === undefined) {
    memo = new Map();
    memos.set(runner, memo);
  }
  const known = memo.get(key);
  if (known !== undefined) return known.answer as Promise<T>;
  const reading = read();
  memo.set(key, { answer: reading, touchedBy });
  reading.catch(() => {
    if (memo.get(key)?.answer === reading) memo.delete(key);
  });
  return reading;
}

/** A statement asked ahead (`askAhead`): its answer, and which admissions change it (null: not a directory read). */
interface Ahead {
  answer: Promise<unknown>;
  touchedBy: TouchedBy | null;
}

const aheads = new RunnerState<Map<string, Ahead>>();

/**
 * T3, T4: statements asked before their caller needs them, so they ride with what the
 * transaction sends now (an inbox batch's rows, asked with its first row's decoding); the next
 * `takeAhead` of the same key gets their answer, once. `touchedBy` (a directory read): the
 * answer is forgotten as `remembered` ones are (a later caller then asks again); null: kept.
 * Its failure reaches its taker; untaken, it fails the transaction's message anyway.
 */
export function askAhead(
  runner: QueryRunner | undefined,
  key: string,
  ask: () => Promise<unknown>,
  touchedBy: TouchedBy | null,
): void {
  if (runner === undefined) return;
  let asked = aheads.get(runner);
  if (asked === undefined) {
    asked = new Map();
    aheads.set(runner, asked);
  }
  const answer = ask();
  answer.catch(() => {});
  asked.set(key, { answer, touchedBy });
}

/** The answer asked ahead under `key` in this transaction, taken once; undefined when none. */
export function takeAhead<T>(runner: QueryRunner | undefined, key: string): Promise<T> | undefined {
  const asked = runner === undefined ? undefined : aheads.get(runner);
  const ahead = asked?.get(key);
  if (ahead === undefined) return undefined;
  asked?.delete(key);
  return ahead.answer as Promise<T>;
}

/** Statements whose callers forget what they change themselves (`forgetAdmitted`). */
const selfForgetting = new Set<string>();

/** P24: `text`'s writes are forgotten by its caller (an admission), not by `forgetOnWrite`. */
export function forgetsByItself(text: string): void {
  selfForgetting.add(text);
}

/** Forgets `runner`'s remembered reads (and directory reads asked ahead) when `statement` may write the directory. */
export function forgetOnWrite(runner: QueryRunner, statement: Statement): void {
  const memo = memos.get(runner);
  const asked = aheads.get(runner);
  if ((memo === undefined || memo.size === 0) && (asked === undefined || asked.size === 0)) return;
  const text = typeof statement === 'string' ? statement : statement.prepared.text;
  if (selfForgetting.has(text) || !writesDirectory(text)) return;
  memo?.clear();
  for (const [key, ahead] of asked ?? []) if (ahead.touchedBy !== null) asked?.delete(key);
}

/**
 * P24: an admission changes only what names the admitted person: reads of their account, and
 * of nicknames their record may take (M10: the base numbered too, `base-7` as well as `base`).
 * Those are forgotten; the rest stays remembered (a burst of new people's first messages reads
 * the directory once).
 */
export function forgetAdmitted(runner: QueryRunner | undefined, admitted: AdmittedAccount): void {
  if (runner === undefined) return;
  const memo = memos.get(runner);
  for (const [key, entry] of memo ?? []) if (entry.touchedBy(admitted)) memo?.delete(key);
  const asked = aheads.get(runner);
  for (const [key, ahead] of asked ?? []) if (ahead.touchedBy?.(admitted) === true) asked?.delete(key);
}
