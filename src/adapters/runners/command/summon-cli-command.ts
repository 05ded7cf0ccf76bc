import path from 'node:path';

/**
 * The argv that runs this very Summon's CLI, for the hook a CLI agent calls back into: the
 * current Node binary and `src/cli/main` next to this file (built `.js`, or `.ts` through tsx
 * when Summon itself runs from source).
 */
export function summonCliCommand(): string[] {
  const extension = path.extname(__filename);
  const main = path.resolve(__dirname, '../../../cli', `main${extension}`);
  if (extension === '.ts') return [process.execPath, '--require', require.resolve('tsx/cjs'), main];
  return [process.execPath, main];
}
