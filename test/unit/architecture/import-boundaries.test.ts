import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Where each library may be imported (AGENTS.md's map): a forbidden import fails here, so
 * the core stays free of platforms, SDKs and the ORM. Which of our own folders may import
 * which is `layers.test.ts`.
 */
const root = path.join(__dirname, '../../..');
const sourceFiles = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return entry.name.endsWith('.ts') ? [path.relative(root, full)] : [];
  });
const files = sourceFiles(path.join(root, 'src'));
const importsOf = (file: string): string[] =>
  [
    ...readFileSync(path.join(root, file), 'utf8').matchAll(/(?:from|import|require\()\s*['"]([^'"]+)['"]/g),
  ].flatMap((match) => (match[1] === undefined ? [] : [match[1]]));

const RULES: { library: RegExp; allowedIn: RegExp }[] = [
  { library: /^(typeorm|typeorm-pglite|pg|@electric-sql\/pglite)(\/|$)/, allowedIn: /^src\/storage\// },
  { library: /^(bullmq)(\/|$)/, allowedIn: /^src\/adapters\/queue\// },
  { library: /^(ioredis)(\/|$)/, allowedIn: /^src\/adapters\// },
  {
    library: /^(@anthropic-ai\/sdk|openai|@modelcontextprotocol\/[a-z-]+)(\/|$)/,
    allowedIn: /^src\/adapters\//,
  },
  // P19: GitHub's libraries in its adapters and its front end.
  { library: /^@octokit\/[a-z-]+(\/|$)/, allowedIn: /^src\/adapters\// },
  { library: /^(@slack\/bolt|@slack\/web-api|@slack\/socket-mode)(\/|$)/, allowedIn: /^src\/bots\/slack\// },
  { library: /^(discord\.js|@discordjs\/[a-z]+)(\/|$)/, allowedIn: /^src\/bots\/discord\// },
  { library: /^prom-client(\/|$)/, allowedIn: /^src\/adapters\/metrics\// },
];

describe('import boundaries', () => {
  it('finds the source files', () => {
    expect(files.length).toBeGreaterThan(50);
  });

  it.each(RULES.map((rule) => [rule.library.source, rule] as const))(
    '%s is imported only where it belongs',
    (_name, rule) => {
      const offenders = files.filter(
        (file) => !rule.allowedIn.test(file) && importsOf(file).some((spec) => rule.library.test(spec)),
      );
      expect(offenders).toEqual([]);
    },
  );

  it('src/core depends on nothing outside src/core but small libraries', () => {
    const offenders = files
      .filter((file) => file.startsWith('src/core/'))
      .flatMap((file) =>
        importsOf(file)
          .filter(
            (spec) =>
              /\/(storage|adapters|bots|app|cli|config)\//.test(path.join(path.dirname(file), spec)) ||
              spec.startsWith('src/'),
          )
          .map((spec) => `${file} → ${spec}`),
      );
    expect(offenders).toEqual([]);
  });

  it('src/core imports only node built-ins, zod, yaml, croner (pure cron arithmetic, W1) and itself', () => {
    const external = files
      .filter((file) => file.startsWith('src/core/'))
      .flatMap((file) =>
        importsOf(file)
          .filter((spec) => !spec.startsWith('.'))
          .map((spec) => `${file} → ${spec}`),
      )
      .filter((entry) => !/→ (node:[a-z/_]+|zod|yaml|croner)$/.test(entry));
    expect(external).toEqual([]);
  });
});
