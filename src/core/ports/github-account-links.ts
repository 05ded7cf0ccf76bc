/**
 * P8, P20: links a GitHub login to a member with the one-time code an admin issued
 * (`summon members invite`), typed as a comment `/summon link-account <code>` on an issue or
 * pull request of a bound repository. Answers with the sentence to show the commenter: linked,
 * or what is wrong with the code. Implemented by the core over the store (`src/core/members`).
 */
export interface GitHubAccountLinks {
  link(request: { repo: string; login: string; code: string; now: Date }): Promise<string>;
}
