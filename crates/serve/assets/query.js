// The query page (`/`): the query language in a box, the count, a page of matching deals as
// small diagrams, paging, downloads; the state (query, set, page) in the address.
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
  };
}

/** Puts `s` in the address (a new history entry) and draws the page for it. */
function go(s) {
  const p = new URLSearchParams();
  if (s.q) p.set('q', s.q);
  if (s.set) p.set('set', s.set);
  if (s.offset) p.set('offset', String(s.offset));
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
  show(el('h1', {}, 'Query the stored deals'), form, results,
    el('p', { class: 'muted' }, 'The language: hcp(X), len(X, suit), controls(X), ltc(X), balanced(X), shape(X) = 4432, pattern(X) = 5431, dd(X, strain), par(NS); X a seat N E S W or a side NS EW; = != < <= > >=, in a..b, and, or, not, ( ).'));
  if (!s.q) return;
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
