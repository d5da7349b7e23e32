/**
 * `/api/docs/errors` as a page: one section per error code, anchored by the fragment of the
 * problem `type`s that point here (`/api/docs/errors#client-not-found`), saying what the code
 * means and what to do. The codes, statuses and titles come from the code table (src/errors); the
 * when and what-to-do lines from docs/errors.md (`### \`CODE\`` sections), when it is installed.
 */
import { ERROR_CODES } from '../../../src/index.js';
import { problemFragment } from '../middleware/problem.js';

interface Section {
  when?: string;
  todo?: string;
}

function escapeHtml(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;');
}

/** The inline Markdown of docs/errors.md: `code`, **strong**, _emphasis_, [text](link) as text. */
export function inlineHtml(markdown: string): string {
  return markdown
    .split(/(`[^`]*`)/)
    .map((part) => {
      if (part.startsWith('`') && part.endsWith('`') && part.length > 1)
        return `<code>${escapeHtml(part.slice(1, -1))}</code>`;
      return escapeHtml(part)
        .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
        .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>')
        .replace(/(^|[\s(])_([^_]+)_(?=$|[\s).,;:])/g, '$1<em>$2</em>');
    })
    .join('');
}

/** The `### \`CODE\`` sections of docs/errors.md: their `When:` and `What to do:` lines. */
export function errorSections(markdown: string): Map<string, Section> {
  const sections = new Map<string, Section>();
  const parts = markdown.split(/^### `([A-Z_]+)`\s*$/m);
  for (let i = 1; i < parts.length; i += 2) {
    const body = (parts[i + 1] ?? '').split(/^## /m)[0] ?? '';
    const line = (label: string) => new RegExp(`^${label}: (.+)$`, 'm').exec(body)?.[1]?.trim();
    sections.set(parts[i] ?? '', { when: line('When'), todo: line('What to do') });
  }
  return sections;
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#222}
code{background:#f3f3f3;padding:0 .2em;border-radius:3px}section{border-top:1px solid #ddd;padding:.5rem 0}
section:target{background:#fff8d6}.meta{color:#555}nav li{display:inline-block;margin:0 .6em .2em 0}`;

export function errorsPage(markdown: string | undefined): string {
  const sections = errorSections(markdown ?? '');
  const codes = Object.entries(ERROR_CODES);
  const nav = codes
    .map(([code]) => `<li><a href="#${problemFragment(code)}"><code>${code}</code></a></li>`)
    .join('');
  const body = codes
    .map(([code, entry]) => {
      const section = sections.get(code) ?? {};
      const lines = [
        `<h2><code>${code}</code></h2>`,
        `<p class="meta">HTTP ${entry.status} · ${escapeHtml(entry.title)} · ${
          entry.transient ? 'transient: a retry may succeed' : 'not transient'
        }</p>`,
      ];
      if (section.when) lines.push(`<p><strong>When:</strong> ${inlineHtml(section.when)}</p>`);
      if (section.todo)
        lines.push(`<p><strong>What to do:</strong> ${inlineHtml(section.todo)}</p>`);
      return `<section id="${problemFragment(code)}">\n${lines.join('\n')}\n</section>`;
    })
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8" />
<meta name="viewport" content="width=device-width, initial-scale=1" />
<title>wakit error codes</title>
<style>${STYLE}</style>
</head>
<body>
<h1>wakit error codes</h1>
<p>Every REST error is an RFC 9457 problem (<code>application/problem+json</code>):
<code>{ type, title, status, detail, code, errors? }</code>. Its <code>type</code> links to the
code's section below; <code>errors</code> lists each invalid field with its path. Errors that are
transient may succeed when retried later.</p>
<nav><ul>${nav}</ul></nav>
${body}
</body>
</html>
`;
}
