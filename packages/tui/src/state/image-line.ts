/** How the transcript names an image a tool returned: `[image image/png 12 KB]` (the TUI never gets the bytes). */
export function imageLine(image: { mimeType: string; bytes: number }): string {
  const b = image.bytes;
  const size = b < 1024 ? `${b} B` : b < 1024 * 1024 ? `${Math.round(b / 1024)} KB` : `${(b / (1024 * 1024)).toFixed(1)} MB`;
  return `[image ${image.mimeType} ${size}]`;
}
