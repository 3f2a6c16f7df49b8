import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}
export interface CpuProfile {
  startTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A profile and the part of it to count (monotonic µs, as V8 stamps samples). */
export interface ProfileWindow {
  profile: CpuProfile;
  fromUs: number;
  toUs: number;
}

/** Self time (ms) per key of a V8 .cpuprofile, counting only samples inside the window. */
export function selfTimes({ profile, fromUs, toUs }: ProfileWindow, keyOf: (frame: ProfileNode['callFrame']) => string): Map<string, number> {
  const byId = new Map(profile.nodes.map((n) => [n.id, keyOf(n.callFrame)]));
  const out = new Map<string, number>();
  let at = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    const delta = profile.timeDeltas[i] ?? 0;
    at += delta;
    if (at < fromUs || at > toUs) continue;
    const key = byId.get(profile.samples[i]!) ?? '?';
    out.set(key, (out.get(key) ?? 0) + delta / 1000);
  }
  return out;
}

/** `name file:line` with the path cut to the package (or node internal) it belongs to. */
export function functionKey(frame: ProfileNode['callFrame']): string {
  const name = frame.functionName || '(anonymous)';
  return frame.url ? `${name} ${shortUrl(frame.url)}:${frame.lineNumber + 1}` : name;
}

/** The module a frame belongs to: a dependency, a workspace package's file, or a node internal. */
export function moduleKey(frame: ProfileNode['callFrame']): string {
  if (!frame.url) return frame.functionName || '(native)';
  const url = shortUrl(frame.url);
  const dep = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(frame.url);
  if (dep) return dep[1]!;
  return url;
}

function shortUrl(url: string): string {
  const nm = url.lastIndexOf('node_modules/');
  if (nm >= 0) return url.slice(nm + 'node_modules/'.length);
  const pk = url.indexOf('/packages/');
  if (pk >= 0) return url.slice(pk + 1);
  return url.replace(/^file:\/\//, '');
}

/** The one .cpuprofile a process wrote into `dir` (each profiled run gets its own directory). */
export async function profileIn(dir: string): Promise<string> {
  const name = (await readdir(dir)).find((n) => n.endsWith('.cpuprofile'));
  if (!name) throw new Error(`no .cpuprofile in ${dir}`);
  return join(dir, name);
}

export async function loadProfile(file: string): Promise<CpuProfile> {
  return JSON.parse(await readFile(file, 'utf8')) as CpuProfile;
}

/** Per-iteration self time by key: (profile of `hi` iterations − profile of `lo`) / (hi − lo). */
export function perIteration(lo: ProfileWindow, hi: ProfileWindow, span: number, keyOf: (f: ProfileNode['callFrame']) => string): Map<string, number> {
  const a = selfTimes(lo, keyOf);
  const b = selfTimes(hi, keyOf);
  const out = new Map<string, number>();
  for (const key of new Set([...a.keys(), ...b.keys()])) out.set(key, ((b.get(key) ?? 0) - (a.get(key) ?? 0)) / span);
  return out;
}

/** The whole profile as one window (a process profiled from start to exit). */
export function wholeProfile(profile: CpuProfile): ProfileWindow {
  return { profile, fromUs: Number.NEGATIVE_INFINITY, toUs: Number.POSITIVE_INFINITY };
}
