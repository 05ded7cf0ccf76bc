import { mkdir, writeFile } from 'node:fs/promises';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { summarize } from '../core/stats';
import type { ConsoleBenchOptions } from './console-options';

/** One measured phase: Summon's CPU over it and what the model stand-in was asked meanwhile. */
export interface Phase {
  cpuMs: number;
  modelRequests: number;
}

export interface ConsolePhase extends Phase {
  updates: number;
  cards: number;
  tables: number;
  /** Each card change drawn: from Summon publishing it to the page's DOM having it (ms). */
  toDom: number[];
}

export interface MetricsPhase extends Phase {
  scrapes: number;
  perSecond: number;
  /** Each scrape, from when it was due to its body's end (ms). */
  latencies: number[];
}

export interface ConsoleRound {
  quiet: Phase;
  console: ConsolePhase;
  metrics: MetricsPhase;
}

const addPhase = <T extends Phase>(a: T, b: T): Phase => ({
  cpuMs: a.cpuMs + b.cpuMs,
  modelRequests: a.modelRequests + b.modelRequests,
});

export function sum(rounds: readonly ConsoleRound[]): ConsoleRound {
  return rounds.reduce((a, b) => ({
    quiet: addPhase(a.quiet, b.quiet),
    console: {
      ...addPhase(a.console, b.console),
      updates: a.console.updates + b.console.updates,
      cards: a.console.cards + b.console.cards,
      tables: a.console.tables + b.console.tables,
      toDom: [...a.console.toDom, ...b.console.toDom],
    },
    metrics: {
      ...addPhase(a.metrics, b.metrics),
      scrapes: a.metrics.scrapes + b.metrics.scrapes,
      perSecond: a.metrics.perSecond + b.metrics.perSecond,
      latencies: [...a.metrics.latencies, ...b.metrics.latencies],
    },
  }));
}

const ms = (v: number) => `${v.toFixed(2)} ms`;
const pair = (values: readonly number[]) => {
  if (values.length === 0) return 'none';
  const m = summarize(values, 1);
  return `p50 ${ms(m.p50Ms)} p99 ${ms(m.p99Ms)}`;
};

export function rows(r: ConsoleRound, seconds: number): string[] {
  const line = (label: string, phase: Phase, counted: string, latency: string) => {
    const cpu = `${(phase.cpuMs / seconds).toFixed(0)} ms CPU/s`;
    const model = `${(phase.modelRequests / seconds).toFixed(1)} model req/s`;
    return `  ${label.padEnd(28)} ${cpu.padStart(14)}  ${model.padStart(17)}  ${counted.padEnd(34)} ${latency}`;
  };
  const c = r.console;
  return [
    line('no viewer', r.quiet, '', ''),
    line(
      'viewer(s) on /console',
      c,
      `${c.updates} updates (${c.cards} cards, ${c.tables} tables)`,
      `event → DOM ${pair(c.toDom)}`,
    ),
    line(
      `/metrics (baseline)`,
      r.metrics,
      `${r.metrics.scrapes} scrapes`,
      `scrape ${pair(r.metrics.latencies)}`,
    ),
  ];
}

/** Per update and per scrape: all of Summon's CPU over the phase, and what it spent over the no-viewer phase. */
export function ratios(r: ConsoleRound, options: ConsoleBenchOptions): string[] {
  const c = r.console;
  const m = r.metrics;
  const netUpdate = (c.cpuMs - r.quiet.cpuMs) / c.updates;
  const netScrape = (m.cpuMs - r.quiet.cpuMs) / m.scrapes;
  const lines = [
    `server CPU per update: ${ms(c.cpuMs / c.updates)} gross (all of Summon's CPU over the phase ÷ updates pushed), ${ms(netUpdate)} net of the no-viewer phase (${options.viewers} viewer(s): per update per viewer)`,
    `server CPU per /metrics scrape: ${ms(m.cpuMs / m.scrapes)} gross, ${ms(netScrape)} net of the no-viewer phase`,
    `console ÷ /metrics: CPU per update ÷ per scrape ${(c.cpuMs / c.updates / (m.cpuMs / m.scrapes)).toFixed(2)}× gross, ${(netUpdate / netScrape).toFixed(2)}× net`,
  ];
  if (c.toDom.length > 0 && m.latencies.length > 0) {
    const dom = summarize(c.toDom, 1);
    const scrape = summarize(m.latencies, 1);
    lines.push(
      `console ÷ /metrics: event → DOM ÷ scrape latency p50 ${(dom.p50Ms / scrape.p50Ms).toFixed(2)}×, p99 ${(dom.p99Ms / scrape.p99Ms).toFixed(2)}×`,
    );
  }
  return lines;
}

export async function writeResults(
  options: ConsoleBenchOptions,
  result: ConsoleRound[],
  log: (line: string) => void,
): Promise<void> {
  const dir = join(__dirname, '..', 'results');
  await mkdir(dir, { recursive: true });
  const file = join(dir, `console-${new Date().toISOString().replace(/[:.]/g, '-')}.json`);
  await writeFile(file, `${JSON.stringify({ options, result, loadAverage: loadavg() }, null, 2)}\n`);
  log(`results: ${file}`);
}
