import { stat } from 'node:fs/promises';
import path from 'node:path';
import type { Command } from 'commander';
import { createSkillInstaller } from '../../app/skills-runtime';
import { ValidationError } from '../../core/errors';
import type { InstallOutcome } from '../../core/skills/skill-installer';
import { skillSourceSchema } from '../../core/skills/skill-lock';
import type { CheckedSkill } from '../../core/skills/skill-review';
import { formatVerdict } from '../../core/skills/skill-verdict';
import { type CliContext, withRuntime } from '../cli-context';
import { CliExit } from '../cli-exit';

/** Exit code of a refused skill (its report was printed). */
const REFUSED_EXIT_CODE = 2;

/**
 * A6: `summon skills`: register GitHub repositories as skill sources, list what they offer
 * (their metadata marked untrusted), install, update, remove and check skills. Nothing is
 * written without a passing verdict; a refusal prints each reason and exits with 2.
 */
export function registerSkillsCommand(program: Command, context: CliContext): void {
  const skills = program.command('skills').description('skills from registered GitHub sources (A6)');
  registerSourceCommands(skills, context);
  registerSkillCommands(skills, context);
}

type SkillInstaller = ReturnType<typeof createSkillInstaller>;

const workspaceOption = ['-w, --workspace <slug>', 'workspace', 'default'] as const;

const installerWork =
  (context: CliContext) =>
  <T>(work: (installer: SkillInstaller) => Promise<T>) =>
    withRuntime(context, (runtime) => work(createSkillInstaller(runtime)));

/** A6: `summon skills source add|list|remove`: the repositories skills come from. */
function registerSourceCommands(skills: Command, context: CliContext): void {
  const withInstaller = installerWork(context);
  const source = skills.command('source').description('the GitHub repositories skills are installed from');
  source
    .command('add <repo>')
    .description('register <owner>/<repo> as a skill source')
    .option(...workspaceOption)
    .option('--path <folder>', 'where its skill folders are (default skills; . for the root)')
    .option('--ref <ref>', 'the branch or tag followed (default: the default branch)')
    .action((repo: string, options: { workspace: string; path?: string; ref?: string }) =>
      withInstaller(async (installer) => {
        const parsed = skillSourceSchema.safeParse({
          repo,
          ...(options.path === undefined ? {} : { path: options.path }),
          ...(options.ref === undefined ? {} : { ref: options.ref }),
        });
        if (!parsed.success)
          throw new ValidationError(
            `skill source "${repo}" was refused`,
            parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message })),
          );
        const added = await installer.addSource(options.workspace, parsed.data);
        context.output.out(added ? `source ${repo} added` : `source ${repo} is already registered`);
      }),
    );
  source
    .command('list')
    .description('the registered skill sources')
    .option(...workspaceOption)
    .action((options: { workspace: string }) =>
      withInstaller(async (installer) => {
        const sources = await installer.listSources(options.workspace);
        if (sources.length === 0)
          context.output.out('no skill sources (add one with `summon skills source add <owner>/<repo>`)');
        for (const s of sources)
          context.output.out(
            `${s.repo}  path ${s.path ?? 'skills'}${s.ref === undefined ? '' : `  ref ${s.ref}`}`,
          );
      }),
    );
  source
    .command('remove <repo>')
    .description('unregister a skill source (its installed skills stay)')
    .option(...workspaceOption)
    .action((repo: string, options: { workspace: string }) =>
      withInstaller(async (installer) => {
        const removed = await installer.removeSource(options.workspace, repo);
        context.output.out(removed ? `source ${repo} removed` : `no source ${repo}`);
      }),
    );
}

/** A6: `summon skills search|install|update|remove|check`. */
function registerSkillCommands(skills: Command, context: CliContext): void {
  const withInstaller = installerWork(context);
  const report = (outcomes: InstallOutcome[]) => reportOutcomes(context, outcomes);
  skills
    .command('search [text]')
    .description('what the registered sources offer (repository metadata is untrusted)')
    .option(...workspaceOption)
    .action((text: string | undefined, options: { workspace: string }) =>
      withInstaller(async (installer) => {
        for (const listing of await installer.search(options.workspace, text)) {
          context.output.out(`${listing.repo} @ ${listing.commit.slice(0, 12)}`);
          // A6: the repository's own words: display data, never a safety signal.
          context.output.out(
            `  untrusted metadata: description ${JSON.stringify(listing.description ?? '')}, stars ${listing.stars ?? '?'}`,
          );
          for (const s of listing.skills)
            context.output.out(
              `  ${listing.repo}/${s.name}  (untrusted) ${JSON.stringify(s.description ?? '')}`,
            );
        }
      }),
    );

  skills
    .command('install <skill>')
    .description('fetch <owner>/<repo>/<skill>[@<ref>], check it, and on a pass write and pin it')
    .option(...workspaceOption)
    .action((spec: string, options: { workspace: string }) =>
      withInstaller(async (installer) => report([await installer.install(options.workspace, spec)])),
    );
  skills
    .command('update [skill]')
    .description('fetch each installed skill (or the one named) again; replaced only on a pass')
    .option(...workspaceOption)
    .action((name: string | undefined, options: { workspace: string }) =>
      withInstaller(async (installer) => report(await installer.update(options.workspace, name))),
    );
  skills
    .command('remove <skill>')
    .description('remove an installed skill: its folder, row and skills-lock.json entry')
    .option(...workspaceOption)
    .action((name: string, options: { workspace: string }) =>
      withInstaller(async (installer) => {
        await installer.remove(options.workspace, name);
        context.output.out(`skill ${name} removed`);
      }),
    );
  skills
    .command('check <target>')
    .description('print the supply-chain report of a folder or of <owner>/<repo>/<skill> (nothing written)')
    .option(...workspaceOption)
    .action((target: string, options: { workspace: string }) =>
      withInstaller(async (installer) => {
        const dir = path.resolve(context.cwd, target);
        const isDir = await stat(dir).then(
          (s) => s.isDirectory(),
          () => false,
        );
        const checked = isDir
          ? await installer.checkFolder(options.workspace, dir, path.basename(dir))
          : (await installer.checkRemote(options.workspace, target)).checked;
        printChecked(context, isDir ? dir : target, checked);
        if (checked.verdict.verdict === 'fail') throw new CliExit(REFUSED_EXIT_CODE);
      }),
    );
}

function printChecked(context: CliContext, what: string, checked: CheckedSkill) {
  context.output.out(
    `${what}\n${formatVerdict(checked.verdict)}${checked.reviewedBy ? `\nreviewed by ${checked.reviewedBy}` : ''}`,
  );
}

/** Prints each outcome; a refusal among them exits with REFUSED_EXIT_CODE once all are printed. */
function reportOutcomes(context: CliContext, outcomes: InstallOutcome[]) {
  let refused = false;
  for (const outcome of outcomes) {
    if (outcome.status === 'refused') {
      refused = true;
      context.output.out(`${outcome.name} @ ${outcome.commit.slice(0, 12)}: refused, nothing written`);
      printChecked(context, outcome.name, outcome.checked);
    } else if (outcome.status === 'unchanged') {
      context.output.out(`${outcome.name}: up to date at ${outcome.entry.commit.slice(0, 12)}`);
    } else {
      context.output.out(
        `${outcome.name}: ${outcome.status} from ${outcome.entry.source} at ${outcome.entry.commit.slice(0, 12)}`,
      );
      printChecked(context, outcome.name, outcome.checked);
    }
  }
  if (refused) throw new CliExit(REFUSED_EXIT_CODE);
}
