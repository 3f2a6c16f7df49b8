import { APPROVAL_MODES, type ApprovalMode } from '@tandem/shared';

export const OUTPUT_FORMATS = ['text', 'json', 'stream-json'] as const;
export type OutputFormat = (typeof OUTPUT_FORMATS)[number];

/** `tandem run` as typed: strings straight from the command line. */
export interface RunFlags {
  cwd?: string | undefined;
  session?: string | undefined;
  continue?: boolean | undefined;
  model?: string | undefined;
  approvalMode?: string | undefined;
  outputFormat?: string | undefined;
  maxIterations?: string | undefined;
  url?: string | undefined;
  token?: string | undefined;
  /** `--ca FILE`: a certificate to trust for an https:// --url. */
  ca?: string | undefined;
  quiet?: boolean | undefined;
}

/** The flags checked: what a run does. */
export interface RunChoice {
  format: OutputFormat;
  mode: ApprovalMode | undefined;
  maxIterations: number | undefined;
}

/** Checks the flags a run needs before it does anything; throws an Error naming the flag and what it takes. */
export function checkRunFlags(flags: RunFlags): RunChoice {
  const format = flags.outputFormat ?? 'text';
  if (!(OUTPUT_FORMATS as readonly string[]).includes(format)) {
    throw new Error(`--output-format takes ${OUTPUT_FORMATS.join(', ')}; got "${format}"`);
  }
  const mode = flags.approvalMode;
  if (mode !== undefined && !(APPROVAL_MODES as readonly string[]).includes(mode)) {
    throw new Error(`--approval-mode takes ${APPROVAL_MODES.join(', ')}; got "${mode}"`);
  }
  let maxIterations: number | undefined;
  if (flags.maxIterations !== undefined) {
    maxIterations = Number(flags.maxIterations);
    if (!/^\d+$/.test(flags.maxIterations.trim()) || maxIterations < 1 || maxIterations > 1000) {
      throw new Error(`--max-iterations takes a whole number from 1 to 1000; got "${flags.maxIterations}"`);
    }
  }
  if (flags.session !== undefined && flags.continue) throw new Error('give --session ID or --continue, not both');
  return { format: format as OutputFormat, mode: mode as ApprovalMode | undefined, maxIterations };
}
