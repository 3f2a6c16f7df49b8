import type { ToolImage } from '../messages.js';
import { imageLabel, imageNote, MODEL_IMAGE_TYPES } from '../base/tool-image.js';

/** An image a wire format can carry: its type and base64 bytes. */
export interface SendableImage {
  mimeType: string;
  data: string;
}

/** What a tool result's images become in a request: images to send, and a text line for each. */
export interface ResultImages {
  send: SendableImage[];
  /** One line per image, in order: its label (sent) or why it was not sent (a note). */
  lines: string[];
}

/**
 * Sorts a tool result's images into those the model receives and those it only reads about:
 * a model without vision, a type the APIs refuse, or bytes no longer at hand (a stored copy
 * that is gone) get a note saying so, so the model never acts as if it saw them.
 */
export function resultImages(images: readonly ToolImage[] | undefined, acceptsImages: boolean): ResultImages {
  const out: ResultImages = { send: [], lines: [] };
  for (const image of images ?? []) {
    if (!acceptsImages) out.lines.push(imageNote(image, 'this model does not take images'));
    else if (!MODEL_IMAGE_TYPES.has(image.mimeType)) out.lines.push(imageNote(image, `models take PNG, JPEG, GIF or WebP, not ${image.mimeType}`));
    else if (image.data === undefined || image.data === '') out.lines.push(imageNote(image, 'its stored copy is no longer available'));
    else {
      out.send.push({ mimeType: image.mimeType, data: image.data });
      out.lines.push(imageLabel(image));
    }
  }
  return out;
}

/** The tool's text followed by one line per image (the text may be empty). */
export function textWithImageLines(output: string, lines: readonly string[]): string {
  if (lines.length === 0) return output;
  return output === '' ? lines.join('\n') : `${output}\n${lines.join('\n')}`;
}
