export { GitHubFrontEnd, type GitHubFrontEndOptions } from './github-front-end';
export { HOW_TO_LINK, LINK_USAGE, noWriteAccess } from './github-inbox';
export { GitHubPlatform } from './github-platform';
export {
  authorOf,
  isSummonComment,
  privateRecipientOf,
  questionOf,
  SUMMON_MARKER,
} from './github-render';
export {
  decodeGitHubThreadId,
  encodeGitHubThreadId,
  type GitHubThreadParts,
  repoChannel,
} from './github-thread-id';
export { WEBHOOK_PATH } from './github-webhooks';
