import { InitialSchema1764460800000 } from '../../migrations/1764460800000-InitialSchema';
import { RunCardsAndReplies1764547200000 } from '../../migrations/1764547200000-RunCardsAndReplies';
import { SlackFrontEnd1764720000000 } from '../../migrations/1764720000000-SlackFrontEnd';
import { GitGateway1764806400000 } from '../../migrations/1764806400000-GitGateway';
import { DiscordBackfill1764892800000 } from '../../migrations/1764892800000-DiscordBackfill';
import { AgentTools1764979200000 } from '../../migrations/1764979200000-AgentTools';
import { SandboxAllowedDomains1765065600000 } from '../../migrations/1765065600000-SandboxAllowedDomains';
import { InboundInbox1796120943732 } from '../../migrations/1796120943732-InboundInbox';
import { RunCheckpoints1796131142680 } from '../../migrations/1796131142680-RunCheckpoints';
import { RunUsageAndBudgets1796131154563 } from '../../migrations/1796131154563-RunUsageAndBudgets';
import { RunSteering1796141203608 } from '../../migrations/1796141203608-RunSteering';
import { PairedRelays1796141235316 } from '../../migrations/1796141235316-PairedRelays';
import { MessageAttachments1796141574522 } from '../../migrations/1796141574522-MessageAttachments';
import { RunCheckpointWaits1796154145378 } from '../../migrations/1796154145378-RunCheckpointWaits';
import { RowRequired1796212116145 } from '../../migrations/1796212116145-RowRequired';
import { InboxClaimIndexes1796300000000 } from '../../migrations/1796300000000-InboxClaimIndexes';
import { McpAction1796400000000 } from '../../migrations/1796400000000-McpAction';
import { McpServers1796400100000 } from '../../migrations/1796400100000-McpServers';
import { McpGuardrails1796400200000 } from '../../migrations/1796400200000-McpGuardrails';
import { MemberTokens1796400300000 } from '../../migrations/1796400300000-MemberTokens';
import { McpOAuth1796400400000 } from '../../migrations/1796400400000-McpOAuth';
import { AccessGroups1796400600000 } from '../../migrations/1796400600000-AccessGroups';
import { MemberAccessVia1796500100000 } from '../../migrations/1796500100000-MemberAccessVia';
import { Routines1796500200000 } from '../../migrations/1796500200000-Routines';
import { RoutineFirings1796500210000 } from '../../migrations/1796500210000-RoutineFirings';
import { RoutineWebhooks1796500220000 } from '../../migrations/1796500220000-RoutineWebhooks';
import { AuditEvents1796500300000 } from '../../migrations/1796500300000-AuditEvents';
import { ConsoleSessions1796500400000 } from '../../migrations/1796500400000-ConsoleSessions';
import { GitHubFrontEnd1796500500000 } from '../../migrations/1796500500000-GitHubFrontEnd';
import { RoutineProposals1796600000000 } from '../../migrations/1796600000000-RoutineProposals';
import { RoutineGitHubTriggers1796600100000 } from '../../migrations/1796600100000-RoutineGitHubTriggers';
import { ConversationPullRequests1796600300000 } from '../../migrations/1796600300000-ConversationPullRequests';
import { MemberNicknamePrefix1796600500000 } from '../../migrations/1796600500000-MemberNicknamePrefix';
import { AdmitMember1796600510000 } from '../../migrations/1796600510000-AdmitMember';
import { MemberAccountsPartial1796700100000 } from '../../migrations/1796700100000-MemberAccountsPartial';
import { MemberCreatedIndexDropped1796700101000 } from '../../migrations/1796700101000-MemberCreatedIndexDropped';
import { DirectoryVersions1796800300000 } from '../../migrations/1796800300000-DirectoryVersions';
import { OutboxSendingSince1796800310000 } from '../../migrations/1796800310000-OutboxSendingSince';
import { MemberKeyWithWorkspace1796800320000 } from '../../migrations/1796800320000-MemberKeyWithWorkspace';
import { AdmitMemberNumbers1796800340000 } from '../../migrations/1796800340000-AdmitMemberNumbers';
import { OutboxDueIndexDropped1796800350000 } from '../../migrations/1796800350000-OutboxDueIndexDropped';
import { RunLaneByConversation1796800360000 } from '../../migrations/1796800360000-RunLaneByConversation';
import { RunLiveIndex1796800370000 } from '../../migrations/1796800370000-RunLiveIndex';
import { MessageRefUnindexed1796800380000 } from '../../migrations/1796800380000-MessageRefUnindexed';
import { RunUsagePeriodExpression1796800381000 } from '../../migrations/1796800381000-RunUsagePeriodExpression';
import { ProcessedEventsReceivedIndexDropped1796800382000 } from '../../migrations/1796800382000-ProcessedEventsReceivedIndexDropped';
import { KeysWithWorkspace1796800383000 } from '../../migrations/1796800383000-KeysWithWorkspace';
import { ChannelCursorKey1796800384000 } from '../../migrations/1796800384000-ChannelCursorKey';
import { MessagesFillfactor1796800385000 } from '../../migrations/1796800385000-MessagesFillfactor';
import { RunsFillfactor1796800390000 } from '../../migrations/1796800390000-RunsFillfactor';

/**
 * Every migration, oldest first. Imported as classes (not globbed from disk) so that they run
 * the same compiled, under tsx and under jest.
 */
export const MIGRATIONS = [
  InitialSchema1764460800000,
  RunCardsAndReplies1764547200000,
  SlackFrontEnd1764720000000,
  GitGateway1764806400000,
  DiscordBackfill1764892800000,
  AgentTools1764979200000,
  SandboxAllowedDomains1765065600000,
  InboundInbox1796120943732,
  RunCheckpoints1796131142680,
  RunUsageAndBudgets1796131154563,
  RunSteering1796141203608,
  PairedRelays1796141235316,
  MessageAttachments1796141574522,
  RunCheckpointWaits1796154145378,
  RowRequired1796212116145,
  InboxClaimIndexes1796300000000,
  McpAction1796400000000,
  McpServers1796400100000,
  McpGuardrails1796400200000,
  MemberTokens1796400300000,
  McpOAuth1796400400000,
  AccessGroups1796400600000,
  MemberAccessVia1796500100000,
  Routines1796500200000,
  RoutineFirings1796500210000,
  RoutineWebhooks1796500220000,
  AuditEvents1796500300000,
  ConsoleSessions1796500400000,
  GitHubFrontEnd1796500500000,
  RoutineProposals1796600000000,
  RoutineGitHubTriggers1796600100000,
  ConversationPullRequests1796600300000,
  MemberNicknamePrefix1796600500000,
  AdmitMember1796600510000,
  MemberAccountsPartial1796700100000,
  MemberCreatedIndexDropped1796700101000,
  DirectoryVersions1796800300000,
  OutboxSendingSince1796800310000,
  MemberKeyWithWorkspace1796800320000,
  AdmitMemberNumbers1796800340000,
  OutboxDueIndexDropped1796800350000,
  RunLaneByConversation1796800360000,
  RunLiveIndex1796800370000,
  MessageRefUnindexed1796800380000,
  RunUsagePeriodExpression1796800381000,
  ProcessedEventsReceivedIndexDropped1796800382000,
  KeysWithWorkspace1796800383000,
  ChannelCursorKey1796800384000,
  MessagesFillfactor1796800385000,
  RunsFillfactor1796800390000,
];
