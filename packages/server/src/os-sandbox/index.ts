export { OsSandbox, type CommandWrapper, type OsSandboxOptions, type OsSandboxSettings } from './os-sandbox.js';
export { startOsSandbox } from './start-os-sandbox.js';
export { probeBwrap, type ProbeResult } from './bwrap-probe.js';
