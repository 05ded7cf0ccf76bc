import { programWords, simpleCommands } from './shell-words';

/** Programs that only read (A9: plan and review modes). */
const READERS = new Set([
  'ls',
  'cat',
  'head',
  'tail',
  'less',
  'more',
  'wc',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'find',
  'fd',
  'tree',
  'pwd',
  'echo',
  'printf',
  'file',
  'stat',
  'du',
  'df',
  'diff',
  'cmp',
  'sort',
  'uniq',
  'cut',
  'tr',
  'awk',
  'jq',
  'yq',
  'basename',
  'dirname',
  'realpath',
  'readlink',
  'which',
  'type',
  'date',
  'true',
  'false',
  'test',
  '[',
  'nl',
  'column',
  'sed',
  'md5sum',
  'sha256sum',
  'whoami',
  'uname',
  'env',
]);
const GIT_READERS = new Set([
  'status',
  'log',
  'diff',
  'show',
  'blame',
  'grep',
  'ls-files',
  'rev-parse',
  'describe',
  'shortlog',
  'branch',
  'tag',
]);

/**
 * A9: whether a command line only reads, for plan and review modes. Output redirection
 * (`>`), in-place edits (`sed -i`), `find -exec/-delete` and any program outside the reader
 * list make it a write; undefined means read-only, otherwise the reason.
 */
export function notReadOnly(line: string): string | undefined {
  if (
    /(^|[^0-9&<>])>{1,2}(?!&)/.test(line.replace(/'[^']*'|"[^"]*"/g, "''")) &&
    !/>\s*\/dev\/null/.test(line)
  ) {
    return 'it redirects output into a file';
  }
  for (const words of simpleCommands(line)) {
    const [program, ...args] = programWords(words);
    if (program === undefined) continue;
    if (program === 'git') {
      const verb = args.find((a) => !a.startsWith('-')) ?? '';
      if (!GIT_READERS.has(verb)) return `\`git ${verb}\` is not a read-only git command`;
      if ((verb === 'branch' || verb === 'tag') && args.some((a) => /^-(d|D|m|M|f)$|^--delete$/.test(a))) {
        return `\`git ${verb}\` with that option changes the repository`;
      }
      continue;
    }
    if (!READERS.has(program)) return `\`${program}\` is not on the list of read-only commands`;
    if (program === 'sed' && args.some((a) => /^-[a-z]*i/.test(a) || a.startsWith('--in-place'))) {
      return '`sed -i` edits files';
    }
    if (
      program === 'find' &&
      args.some((a) => ['-exec', '-execdir', '-delete', '-ok', '-fprint'].includes(a))
    ) {
      return '`find` with -exec or -delete can change files';
    }
    if (program === 'env' && args.length > 0) return '`env` with a command runs that command';
  }
  return undefined;
}
