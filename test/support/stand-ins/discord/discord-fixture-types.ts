import path from 'node:path';
import ts from 'typescript';
import { FIXTURE_DIR, FIXTURES, type FixtureName } from './discord-fixtures';

/**
 * Fields real GUILD_CREATE payloads carry, and Discord's OpenAPI description requires of a guild,
 * that `discord-api-types` does not declare: allowed there by name, nothing else is.
 */
const GUILD_EXTRAS = '{ nsfw: boolean; home_header: string | null }';

/**
 * `discord-api-types` writes enums where JSON has plain values: a JSON `"en-US"` is not the
 * `Locale.EnglishUS` member to TypeScript, and bit-flag fields hold any sum of flags (0 too).
 * `Wire<T>` is T as JSON spells it: string enum members become their values, flag fields
 * numbers (a number literal is a numeric enum's member only if it is one of its values).
 */
const PRELUDE = `
type FlagKey = 'flags' | 'public_flags' | 'system_channel_flags';
type Wire<T> = T extends string
  ? \`\${T}\`
  : T extends number
    ? T
    : T extends readonly (infer U)[]
      ? Wire<U>[]
      : T extends object
        ? { [K in keyof T]: K extends FlagKey ? number : Wire<T[K]> }
        : T;
`;

/**
 * Type-checks each payload, as written, against its `discord-api-types` type with the project's
 * compiler options (strict, exactOptionalPropertyTypes): a missing field, a field of the wrong
 * type or one the type does not know is an error. Returns the errors, `name: message`.
 */
export function typeProblems(payloads: Partial<Record<FixtureName, unknown>>): string[] {
  const entries = Object.entries(payloads) as [FixtureName, unknown][];
  const types = [...new Set(entries.map(([name]) => FIXTURES[name].type))];
  const lines = entries.map(([name, payload], i) => {
    const type = FIXTURES[name].type + (name === 'guild-create' ? ` & ${GUILD_EXTRAS}` : '');
    return `export const payload${i}: Wire<${type}> = ${JSON.stringify(payload)};`;
  });
  const source = [
    `import type { ${types.join(', ')} } from 'discord-api-types/v10';`,
    PRELUDE,
    ...lines,
  ].join('\n');
  const root = path.resolve(FIXTURE_DIR, '..', '..', '..');
  const file = path.join(FIXTURE_DIR, '__payloads__.ts');
  const config = ts.parseJsonConfigFileContent(
    ts.readConfigFile(path.join(root, 'tsconfig.json'), ts.sys.readFile).config,
    ts.sys,
    root,
  );
  const options = { ...config.options, noEmit: true, types: [], skipLibCheck: true };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists, readFile } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, source, language) : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists(name);
  host.readFile = (name) => (name === file ? source : readFile(name));
  const program = ts.createProgram([file], options, host);
  return ts.getPreEmitDiagnostics(program).map((d) => {
    const line = d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line ?? -1;
    const at = lines.findIndex((_, i) => source.split('\n')[line]?.startsWith(`export const payload${i}:`));
    const name = entries[at]?.[0] ?? 'prelude';
    return `${name}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n').slice(0, 300)}`;
  });
}
