/** A6: the rules of the supply-chain check; each finding names one. */
export const GATE_RULES = [
  'front-matter',
  'size',
  'symlink',
  'hidden-file',
  'binary',
  'executable',
  'unlisted-script',
  'override-instructions',
  'exfiltration',
  'download-and-execute',
  'encoded-blob',
  'model-review',
] as const;
export type GateRule = (typeof GATE_RULES)[number];

export interface GateFinding {
  rule: GateRule;
  file: string;
  /** 1-based, for findings about a line of a text file. */
  line?: number;
  message: string;
}

/**
 * A6: a verdict is `pass` or `fail` with its reasons. "No verdict" (the check could not
 * run) is not a value here: it is an error, and nothing is written.
 */
export type GateVerdict = { verdict: 'pass' } | { verdict: 'fail'; reasons: GateFinding[] };

/**
 * A5, A6: a `SKILL.md` front matter as `skills/skill-front-matter.ts` reads it: a slug `name`,
 * a `description`, the `scripts` and `assets` it lists; other keys are kept as they are.
 */
export interface SkillFrontMatter {
  [key: string]: unknown;
  name: string;
  description: string;
  scripts?: string[] | undefined;
  assets?: string[] | undefined;
}

/** A6: what the deterministic check found in a skill folder, with its verdict. */
export interface GateReport extends Readonly<{ findings: GateFinding[] }> {
  verdict: GateVerdict;
  /** The parsed front matter and body, when `SKILL.md` parses. */
  skill: { frontMatter: SkillFrontMatter; body: string } | null;
}
