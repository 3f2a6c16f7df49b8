import { describe, expect, it } from 'vitest';
import { parseHandback } from './handback.js';

describe('parseHandback', () => {
  // [label, answer, counts, answer without the marker when it counts]
  const cases: Array<[string, string, boolean, string?]> = [
    ['alone on the last line', 'All done.\n<handback />', true, 'All done.'],
    ['followed by blank lines and spaces', 'All done.\n<handback />  \n\n  \n', true, 'All done.'],
    ['the whole answer', '<handback />', true, ''],
    ['indented up to three spaces', 'Done.\n   <handback />', true, 'Done.'],
    ['CRLF line ends', 'Done.\r\n<handback />\r\n', true, 'Done.'],
    ['after a closed code block', 'Here:\n```\ncode\n```\n<handback />', true, 'Here:\n```\ncode\n```'],
    ['after a closed ~~~ block with a longer closing fence', '~~~\nx\n~~~~\n<handback />', true, '~~~\nx\n~~~~'],
    ['only the last of two markers is removed', 'I said <handback /> before.\n<handback />', true, 'I said <handback /> before.'],
    ['inline at the end of prose', 'Done, back to you <handback />', false],
    ['inside prose mid-answer', 'Write <handback /> when done.\nMore text.', false],
    ['alone on a line but not the last one', 'Done.\n<handback />\nOne more thing.', false],
    ['inside an unclosed fenced code block', 'Example:\n```\n<handback />', false],
    ['inside a fence closed only after it', 'Example:\n```md\n<handback />\n```', false],
    ['inside a ~~~ fence not closed by ```', 'x\n~~~\ny\n```\n<handback />', false],
    ['a shorter fence does not close a longer one', '````\na\n```\n<handback />', false],
    ['indented four spaces (a code block)', 'Done.\n    <handback />', false],
    ['indented with a tab', 'Done.\n\t<handback />', false],
    ['in inline code', 'Done.\n`<handback />`', false],
    ['a near miss without the space', 'Done.\n<handback/>', false],
    ['a near miss with other case', 'Done.\n<HandBack />', false],
    ['an opening tag only', 'Done.\n<handback>', false],
    ['quoted', 'Done.\n> <handback />', false],
    ['empty answer', '', false],
  ];

  it.each(cases)('%s', (_label, answer, counts, stripped) => {
    const parsed = parseHandback(answer);
    expect(parsed.handback).toBe(counts);
    expect(parsed.answer).toBe(counts ? stripped : answer);
  });
});
