/** What a person sees of a view's text: tags removed, escaped braces restored. */
export function plain(text: string): string {
  return text
    .replace(/\{open\}/g, '\u0001')
    .replace(/\{close\}/g, '\u0002')
    .replace(/\{\/?[a-z-]+\}/g, '')
    .replace(/\u0001/g, '{')
    .replace(/\u0002/g, '}');
}
