import { StringDecoder } from 'node:string_decoder';
import { BracketedPasteFilter } from './bracketed-paste.js';

/**
 * Routes a terminal's input through the bracketed-paste filter before anything else sees it:
 * keys go on to blessed as before ('data' events), pasted text goes to `onPaste`. It wraps the
 * stream's `emit`, so it works whatever order the listeners were added in. Returns the undo.
 */
export function routePastes(input: NodeJS.ReadableStream, onPaste: (text: string) => void): () => void {
  const stream = input as NodeJS.ReadableStream & { emit(event: string | symbol, ...args: unknown[]): boolean };
  const original = stream.emit;
  const filter = new BracketedPasteFilter();
  const decoder = new StringDecoder('utf8');
  stream.emit = function (this: unknown, event: string | symbol, ...args: unknown[]): boolean {
    if (event !== 'data') return original.call(this, event, ...args);
    const chunk = args[0];
    if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return original.call(this, event, ...args);
    // A character split across reads waits in the decoder for its last bytes.
    const text = typeof chunk === 'string' ? chunk : decoder.write(chunk);
    for (const part of filter.feed(text)) {
      if (part.kind === 'keys') original.call(this, 'data', Buffer.from(part.data, 'utf8'));
      else onPaste(part.text);
    }
    return true;
  };
  return () => {
    stream.emit = original;
  };
}
