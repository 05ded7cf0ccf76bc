export { GitHubFrontEnd, type GitHubFrontEndOptions } from './github-front-end';
export { GitHubPlatform } from './github-platform';
export {
  decodeGitHubThreadId,
  encodeGitHubThreadId,
  type GitHubThreadParts,
  repoChannel,
} from './github-thread-id';
export { HOW_TO_LINK, noWriteAccess } from './inbound/github-inbox';
export { WEBHOOK_PATH } from './inbound/github-webhooks';
export {
  authorOf,
  isSummonComment,
  privateRecipientOf,
  questionOf,
  SUMMON_MARKER,
} from './outbound/github-render';
export type { GitHubTokenSource } from './outbound/github-rest';
