/**
 * The image types both wire formats accept inside a conversation (Anthropic's `Base64ImageSource`
 * media types; OpenAI's vision input takes the same four). Anything else travels as a note.
 */
export const MODEL_IMAGE_TYPES: ReadonlySet<string> = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/** `12 KB`, `1.4 MB`, `512 B`: an image's size as people read it. */
export function formatImageSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

/** The one-line form of an image (`[image image/png 12 KB]`), as the TUI shows it and as text notes start. */
export function imageLabel(image: { mimeType: string; bytes: number }): string {
  return `[image ${image.mimeType} ${formatImageSize(image.bytes)}]`;
}

/** What a model reads instead of an image it cannot receive, and why. */
export function imageNote(image: { mimeType: string; bytes: number }, why: string): string {
  return `${imageLabel(image)} (not shown to you: ${why})`;
}

/** An image as a `tool_result` event records it: what it is and where it is kept, never its bytes. */
export function imagesForEvent(
  images: readonly { mimeType: string; bytes: number; ref?: string | undefined }[],
): { mimeType: string; bytes: number; ref?: string }[] {
  return images.map((i) => ({ mimeType: i.mimeType, bytes: i.bytes, ...(i.ref !== undefined ? { ref: i.ref } : {}) }));
}
