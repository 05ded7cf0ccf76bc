import { InMemoryPairRateLimiter } from '../../../src/core/wake/in-memory-pair-rate-limiter';
import { describePairRateLimiterContract } from '../../support/pair-rate-limiter-contract';

describePairRateLimiterContract('in-memory', (limit) => new InMemoryPairRateLimiter(limit));
