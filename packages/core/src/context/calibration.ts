/**
 * Per-model calibration of token estimates (requirements C2). When a provider reports the real input
 * tokens of a request whose estimate was E, the ratio real/E feeds an exponential moving
 * average per model; later estimates for that model are multiplied by it. One bad report
 * (a cached prompt, a provider that counts oddly) moves the ratio only part of the way and
 * the ratio is clamped, so it can never run away.
 */
export interface CalibrationOptions {
  /** Weight of a new observation, 0..1 (default 0.3). */
  alpha?: number;
  /** Bounds of the ratio (default 0.25..4). */
  min?: number;
  max?: number;
  /** Estimates below this many tokens are too small to learn from (default 32). */
  minSample?: number;
}

export class TokenCalibration {
  private readonly ratios = new Map<string, { ratio: number; samples: number }>();
  private readonly alpha: number;
  private readonly min: number;
  private readonly max: number;
  private readonly minSample: number;

  constructor(options: CalibrationOptions = {}) {
    this.alpha = clamp(options.alpha ?? 0.3, 0.01, 1);
    this.min = options.min ?? 0.25;
    this.max = options.max ?? 4;
    this.minSample = options.minSample ?? 32;
  }

  /** The current multiplier for `model` (1 until a usage report arrived). */
  ratio(model: string): number {
    return this.ratios.get(model)?.ratio ?? 1;
  }

  samples(model: string): number {
    return this.ratios.get(model)?.samples ?? 0;
  }

  /** Records one provider report. Ignores non-finite, negative or too-small numbers. */
  observe(model: string, estimatedTokens: number, actualInputTokens: number): void {
    if (!Number.isFinite(estimatedTokens) || !Number.isFinite(actualInputTokens)) return;
    if (estimatedTokens < this.minSample || actualInputTokens <= 0) return;
    const sample = clamp(actualInputTokens / estimatedTokens, this.min, this.max);
    const prev = this.ratios.get(model);
    if (!prev) {
      this.ratios.set(model, { ratio: sample, samples: 1 });
      return;
    }
    prev.ratio = clamp(prev.ratio + this.alpha * (sample - prev.ratio), this.min, this.max);
    prev.samples++;
  }

  /** `rawEstimate` corrected for `model`, rounded up. */
  apply(model: string, rawEstimate: number): number {
    return Math.ceil(rawEstimate * this.ratio(model));
  }

  /** Plain data for persistence; `restore` takes it back. */
  snapshot(): Record<string, { ratio: number; samples: number }> {
    return Object.fromEntries([...this.ratios].map(([k, v]) => [k, { ...v }]));
  }

  restore(data: unknown): void {
    if (!data || typeof data !== 'object') return;
    for (const [model, value] of Object.entries(data as Record<string, unknown>)) {
      const v = value as { ratio?: unknown; samples?: unknown };
      if (typeof v?.ratio === 'number' && Number.isFinite(v.ratio)) {
        this.ratios.set(model, { ratio: clamp(v.ratio, this.min, this.max), samples: typeof v.samples === 'number' ? v.samples : 1 });
      }
    }
  }
}

function clamp(x: number, lo: number, hi: number): number {
  return Math.min(hi, Math.max(lo, x));
}
