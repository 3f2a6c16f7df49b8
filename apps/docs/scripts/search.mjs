// The site's search: an index built with the site (search-index.json: each page's title, its
// headings with their ids, and its words) and a small script in every page that loads it on
// first use and lists the pages and sections whose text holds every word typed.

/** What search-index.json holds for one page. */
export function indexEntry(slug, title, page) {
  return { page: `${slug}.html`, title, headings: page.headings.map(({ id, text }) => ({ id, text })), text: page.text.toLowerCase() };
}

export const SEARCH_BOX = `<form class="search" role="search" onsubmit="return false"><input id="search" type="search" placeholder="Search the docs" aria-label="Search the docs" autocomplete="off"><ol id="search-results"></ol></form>`;

/** The script every page carries (inline: the site is static files, opened from disk or served). */
export const SEARCH_SCRIPT = `<script>
(() => {
  const input = document.getElementById('search');
  const list = document.getElementById('search-results');
  let index;
  const load = () => (index ??= fetch('search-index.json').then((r) => r.json()));
  const show = (results) => {
    list.replaceChildren(...results.slice(0, 12).map(({ href, label }) => {
      const li = document.createElement('li');
      const a = document.createElement('a');
      a.href = href;
      a.textContent = label;
      li.append(a);
      return li;
    }));
  };
  input.addEventListener('input', async () => {
    const words = input.value.toLowerCase().split(/\\s+/).filter(Boolean);
    if (words.length === 0) return show([]);
    const pages = await load();
    const results = [];
    for (const page of pages) {
      const inTitle = words.every((w) => page.title.toLowerCase().includes(w));
      for (const h of page.headings) {
        if (words.every((w) => h.text.toLowerCase().includes(w))) results.push({ href: page.page + '#' + h.id, label: page.title + ' › ' + h.text, rank: 1 });
      }
      if (inTitle || words.every((w) => page.text.includes(w))) results.push({ href: page.page, label: page.title, rank: inTitle ? 0 : 2 });
    }
    results.sort((a, b) => a.rank - b.rank);
    show(results);
  });
})();
</script>`;
