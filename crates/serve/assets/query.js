// The query page (`/`): the query language in a box, the count, a page of matching deals as
// small diagrams, paging, downloads, facets beside them (a click narrows the query), and a
// read-only SQL box; the state (query, set, page, SQL) in the address.
import { api, fill, count, dealCard, el, errorBox, show, withToken } from './common.js';

const PAGE = 24;
const DOWNLOADS = ['pbn', 'lin', 'csv', 'dup', 'json'];

/** The page's state from the address. */
function state() {
  const p = new URLSearchParams(location.search);
  return {
    q: p.get('q') || '',
    set: p.get('set') || '',
    offset: Math.max(0, Number(p.get('offset')) || 0),
    sql: p.get('sql') || '',
  };
}

/** Puts `s` in the address (a new history entry) and draws the page for it. */
function go(s) {
  const p = new URLSearchParams();
  if (s.q) p.set('q', s.q);
  if (s.set) p.set('set', s.set);
  if (s.offset) p.set('offset', String(s.offset));
  if (s.sql) p.set('sql', s.sql);
  history.pushState(null, '', p.toString() ? `/?${p}` : '/');
  queryPage();
}

export async function queryPage() {
  const s = state();
  const input = el('input', {
    class: 'expr', name: 'q', value: s.q, 'aria-label': 'query',
    placeholder: "hcp(N) >= 20 and len(S, spades) >= 5",
  });
  const set = el('input', { name: 'set', value: s.set, placeholder: 'set (optional)', 'aria-label': 'set' });
  const form = el('form', {
    class: 'bar',
    onsubmit: (ev) => {
      ev.preventDefault();
      go({ q: input.value.trim(), set: set.value.trim(), offset: 0 });
    },
  }, input, set, el('button', { type: 'submit' }, 'Find'));
  const results = el('section', { id: 'results' });
  const facets = el('aside', { id: 'facets', 'aria-label': 'facets' });
  show(el('h1', {}, 'Query the stored deals'), form,
    el('p', { class: 'muted' }, 'The language: hcp(X), len(X, suit), controls(X), ltc(X), balanced(X), shape(X) = 4432, pattern(X) = 5431, dd(X, strain), par(NS); X a seat N E S W or a side NS EW; = != < <= > >=, in a..b, and, or, not, ( ).'),
    el('div', { class: 'explore' }, results, facets),
    sqlBox(s));
  if (!s.q) return;
  drawFacets(s, facets);
  results.append(el('p', { class: 'muted' }, 'Searching…'));
  const params = new URLSearchParams({ q: s.q, limit: String(PAGE), offset: String(s.offset) });
  if (s.set) params.set('set', s.set);
  try {
    const page = await api(`/api/query?${params}`);
    fill(results, ...drawResults(s, page));
  } catch (e) {
    fill(results, errorBox(e));
  }
}

/** The count, downloads, the deals and the pager. */
function drawResults(s, page) {
  const total = page.report.count;
  const first = total === 0 ? 0 : s.offset + 1;
  const last = s.offset + page.deals.length;
  const params = new URLSearchParams({ q: s.q });
  if (s.set) params.set('set', s.set);
  const downloads = el('div', { class: 'downloads' }, 'Download the matches:',
    DOWNLOADS.map((f) => {
      const p = new URLSearchParams(params);
      p.set('to', f);
      return el('a', { href: withToken(`/api/query/export?${p}`), download: '' }, f.toUpperCase());
    }));
  const pager = el('div', { class: 'pager' },
    el('button', {
      class: 'secondary', type: 'button', disabled: s.offset === 0,
      onclick: () => go({ ...s, offset: Math.max(0, s.offset - PAGE) }),
    }, '← Previous'),
    el('span', {}, total ? `${count(first)}–${count(last)} of ${count(total)}` : ''),
    el('button', {
      class: 'secondary', type: 'button', disabled: last >= total,
      onclick: () => go({ ...s, offset: s.offset + PAGE }),
    }, 'Next →'));
  return [
    el('p', { class: 'summary' }, el('strong', { id: 'count' }, count(total)),
      total === 1 ? ' deal matches' : ' deals match', s.set ? ` in set ${s.set}` : ''),
    total ? downloads : null,
    el('div', { class: 'deals' }, page.deals.map(dealCard)),
    total > PAGE ? pager : null,
  ];
}

/** The facets of the query's matches beside the results: each value a link adding its term. */
async function drawFacets(s, box) {
  fill(box, el('p', { class: 'muted' }, 'Counting facets…'));
  const params = new URLSearchParams({ q: s.q });
  if (s.set) params.set('set', s.set);
  try {
    const report = await api(`/api/facets?${params}`);
    fill(box,
      el('p', { class: 'muted' }, report.complete
        ? `Facets of ${count(report.counted)} matches`
        : `Facets of the first ${count(report.counted)} matches`),
      report.facets.map((f) => el('section', { class: 'facet', 'data-facet': f.name },
        el('h3', {}, f.name),
        el('ul', {}, f.values.map((v) => el('li', {},
          v.term
            ? el('a', {
              href: '#', 'data-term': v.term,
              onclick: (ev) => {
                ev.preventDefault();
                go({ ...s, q: `(${s.q}) and ${v.term}`, offset: 0 });
              },
            }, v.value)
            : el('span', { class: 'muted' }, v.value),
          ' ', el('span', { class: 'n' }, count(v.count))))))));
  } catch (e) {
    fill(box, errorBox(e));
  }
}

/** The read-only SQL box (`dealdex sql`'s guards), its statement in the address. */
function sqlBox(s) {
  const input = el('textarea', {
    class: 'sql', name: 'sql', rows: 3, 'aria-label': 'SQL',
    placeholder: 'SELECT hcp_n, count(*) FROM deal_features GROUP BY hcp_n',
  }, s.sql);
  const out = el('div', { id: 'sql-result' });
  const form = el('form', {
    class: 'sql-form',
    onsubmit: (ev) => {
      ev.preventDefault();
      go({ ...s, sql: input.value.trim() });
    },
  }, input, el('button', { type: 'submit' }, 'Run SQL'));
  if (s.sql) runSql(s.sql, out);
  return el('details', { class: 'sql-box', open: s.sql ? true : undefined },
    el('summary', {}, 'Read-only SQL (tables deals, sets, set_boards, dd; view deal_features)'),
    form, out);
}

async function runSql(sql, out) {
  fill(out, el('p', { class: 'muted' }, 'Running…'));
  try {
    const r = await api(`/api/sql?${new URLSearchParams({ sql })}`);
    fill(out,
      el('table', { class: 'sql-table' },
        el('thead', {}, el('tr', {}, r.columns.map((c) => el('th', {}, c)))),
        el('tbody', {}, r.rows.map((row) => el('tr', {}, row.map((v) => el('td', {}, v === null ? 'NULL' : v)))))),
      el('p', { class: 'muted' }, `${count(r.rows.length)} rows${r.truncated ? ' (cut: the first only)' : ''}`));
  } catch (e) {
    fill(out, errorBox(e));
  }
}
