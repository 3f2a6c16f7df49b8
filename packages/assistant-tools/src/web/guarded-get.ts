import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable } from 'node:stream';
import { BlockedAddressError, bareHost, hostAllowed, isPublicAddress } from './address-policy.js';

export interface GuardedGetOptions {
  maxBytes: number;
  timeoutMs: number;
  maxRedirects: number;
  /** Hosts that may resolve to loopback/private addresses (config `webFetch.allowHosts`). */
  allowHosts: readonly string[];
  signal?: AbortSignal;
}

export interface GuardedResponse {
  url: string;
  status: number;
  contentType: string;
  body: Buffer;
  /** The body went past `maxBytes` and was cut there. */
  truncated: boolean;
  redirects: string[];
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * GET over http(s) with the address check done where the socket connects (the resolver the
 * request uses refuses non-public addresses), so a DNS answer that changes between a check and
 * the connection cannot slip through. Redirects are followed by hand, each hop checked again.
 */
export async function guardedGet(url: string, options: GuardedGetOptions): Promise<GuardedResponse> {
  const redirects: string[] = [];
  let current = parseHttpUrl(url);
  const timeout = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  for (;;) {
    const response = await requestOnce(current, options, signal).catch((err: unknown) => {
      if (timeout.aborted) throw new Error(`${current.href} did not answer within ${Math.round(options.timeoutMs / 1000)} s`);
      throw err;
    });
    const location = response.headers.location;
    if (REDIRECTS.has(response.statusCode ?? 0) && location) {
      response.resume();
      if (redirects.length >= options.maxRedirects) {
        throw new Error(`too many redirects (more than ${options.maxRedirects}) starting at ${url}; last hop ${current.href} → ${location}`);
      }
      current = parseHttpUrl(new URL(location, current).href);
      redirects.push(current.href);
      continue;
    }
    const { body, truncated } = await readCapped(decoded(response), response, options.maxBytes, signal);
    return {
      url: current.href,
      status: response.statusCode ?? 0,
      contentType: String(response.headers['content-type'] ?? ''),
      body,
      truncated,
      redirects,
    };
  }
}

function parseHttpUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`"${raw}" is not a valid URL; give a full http:// or https:// address`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`${url.protocol} URLs are not fetched; web_fetch reads http:// and https:// pages only`);
  }
  if (url.username || url.password) throw new Error('URLs with a user name or password are not fetched');
  return url;
}

function guardedLookup(host: string, allowHosts: readonly string[]): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (err, addresses: LookupAddress[]) => {
      if (err) return callback(err, '', 0);
      const bad = hostAllowed(host, allowHosts) ? undefined : addresses.find((a) => !isPublicAddress(a.address));
      if (bad) return callback(new BlockedAddressError(host, bad.address), '', 0);
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, addresses);
      const first = addresses[0]!;
      callback(null, first.address, first.family);
    });
  };
}

function requestOnce(url: URL, options: GuardedGetOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = bareHost(url.hostname);
  // A literal address never goes through the resolver: check it here.
  if (isIP(host) !== 0 && !hostAllowed(host, options.allowHosts) && !isPublicAddress(host)) {
    return Promise.reject(new BlockedAddressError(host, host));
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.get(
      url,
      {
        signal,
        lookup: guardedLookup(host, options.allowHosts),
        headers: {
          'user-agent': 'Mozilla/5.0 (compatible; Tandem web_fetch)',
          accept: 'text/html,application/xhtml+xml,text/plain;q=0.9,*/*;q=0.5',
          'accept-encoding': 'gzip, deflate, br',
        },
      },
      resolve,
    );
    req.on('error', reject);
  });
}

function decoded(response: IncomingMessage): Readable {
  switch (String(response.headers['content-encoding'] ?? '').toLowerCase()) {
    case 'gzip':
      return response.pipe(createGunzip());
    case 'deflate':
      return response.pipe(createInflate());
    case 'br':
      return response.pipe(createBrotliDecompress());
    default:
      return response;
  }
}

async function readCapped(stream: Readable, source: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    if (signal.aborted) throw signal.reason;
    const buf = chunk as Buffer;
    if (size + buf.length > maxBytes) {
      chunks.push(buf.subarray(0, maxBytes - size));
      stream.destroy();
      source.destroy();
      return { body: Buffer.concat(chunks), truncated: true };
    }
    chunks.push(buf);
    size += buf.length;
  }
  return { body: Buffer.concat(chunks), truncated: false };
}
