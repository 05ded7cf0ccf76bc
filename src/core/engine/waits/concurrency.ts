/** T3: active turns per process until `start` sets the configured bound (`SUMMON_CONCURRENCY`): model-bound turns are I/O. */
export const DEFAULT_CONCURRENCY = 64;
