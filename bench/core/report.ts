import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, platform, release } from 'node:os';
import { join } from 'node:path';
import type { CoreBenchOptions } from './options';
import type { Measurement } from './stats';

export interface ResultRow {
  id: string;
  label: string;
  measurement: Measurement;
  /** Baseline msgs/s ÷ this row's msgs/s: how many times slower than the bare queue. */
  throughputRatio: number;
  /** This row's p50 ÷ the baseline's p50: how many times longer a round trip takes. */
  latencyRatio: number;
}

export interface CoreReport {
  benchmark: 'core';
  startedAt: string;
  finishedAt: string;
  options: CoreBenchOptions;
  environment: { node: string; os: string; cpu: string; cpus: number };
  baseline: ResultRow;
  setups: ResultRow[];
}

export function compare(
  id: string,
  label: string,
  measurement: Measurement,
  baseline: Measurement,
): ResultRow {
  return {
    id,
    label,
    measurement,
    throughputRatio: baseline.throughput / measurement.throughput,
    latencyRatio: measurement.p50Ms / baseline.p50Ms,
  };
}

export function environment(): CoreReport['environment'] {
  const all = cpus();
  return {
    node: process.version,
    os: `${platform()} ${release()}`,
    cpu: all[0]?.model ?? 'unknown',
    cpus: all.length,
  };
}

const HEADERS = ['set-up', 'msgs/s', 'p50 ms', 'p99 ms', 'throughput ratio', 'latency ratio'];

export function formatTable(report: CoreReport): string {
  const rows = [report.baseline, ...report.setups].map((row) => [
    row.label,
    row.measurement.throughput.toFixed(1),
    row.measurement.p50Ms.toFixed(2),
    row.measurement.p99Ms.toFixed(2),
    `${row.throughputRatio.toFixed(2)}×`,
    `${row.latencyRatio.toFixed(2)}×`,
  ]);
  const widths = HEADERS.map((header, column) =>
    Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ');
  const rule = widths.map((width) => '-'.repeat(width)).join('  ');
  const { messages, concurrency, workerConcurrency, warmup } = report.options;
  return [
    `core: ${messages} messages per set-up, ${concurrency} in flight, worker concurrency ${workerConcurrency}, ${warmup} warm-up`,
    line(HEADERS),
    rule,
    ...rows.map(line),
    'ratios are against the baseline of this run (throughput: baseline ÷ set-up; latency: set-up p50 ÷ baseline p50)',
  ].join('\n');
}

/** Writes `core-<timestamp>.json` into `dir` (created if missing); returns its path. */
export async function writeReport(report: CoreReport, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `core-${report.startedAt.replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  return file;
}
