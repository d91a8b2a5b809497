// The sets (`/sets`) and one set (`/sets/<name>`): its boards as diagrams, downloads in
// every format (the bytes `dealdex export` writes), hand records as PDF, randomness statistics.
import { api, fill, count, dealCard, el, errorBox, show, withToken } from './common.js';

const PAGE = 36;

export async function setsPage() {
  const { sets, writes } = await api('/api/sets');
  const make = writes ? generateForm() : null;
  if (!sets.length) {
    show(el('h1', {}, 'Sets'), el('p', { class: 'muted' }, 'The database holds no set.'), make);
    return;
  }
  show(el('h1', {}, 'Sets'), make,
    el('table', { id: 'sets' },
      el('thead', {}, el('tr', {}, ['Set', 'Boards', 'Scheme', 'Made by', 'Stored'].map((h) =>
        el('th', { class: 'text' }, h)))),
      el('tbody', {}, sets.map((s) => el('tr', {},
        el('td', { class: 'text' }, el('a', { href: `/sets/${encodeURIComponent(s.name)}` }, s.name)),
        el('td', {}, `${s.first_board}–${s.last_board}`),
        el('td', { class: 'text' }, s.scheme),
        el('td', { class: 'text' }, s.generator),
        el('td', { class: 'text' }, s.created_at))))));
}

export async function setPage(name) {
  const offset = Math.max(0, Number(new URLSearchParams(location.search).get('offset')) || 0);
  const { sets, formats } = await api('/api/sets');
  const set = sets.find((s) => s.name === name);
  if (!set) {
    show(el('h1', {}, 'Set'), errorBox(new Error(`No set named ${name}.`)));
    return;
  }
  const exportUrl = (f) => withToken(`/api/sets/${encodeURIComponent(name)}/export?to=${encodeURIComponent(f)}`);
  const downloads = el('div', { class: 'downloads', id: 'downloads' }, 'Download:',
    formats.map((f) => el('a', { href: exportUrl(f.name), download: '', title: f.description, 'data-format': f.name },
      f.name.toUpperCase())));
  const params = new URLSearchParams({ q: 'hcp(N) >= 0', set: name, limit: String(PAGE), offset: String(offset) });
  const boards = el('section', {});
  const setUrl = (what) => withToken(`/api/sets/${encodeURIComponent(name)}/${what}`);
  const records = el('div', { class: 'downloads' }, 'Hand records:',
    el('a', { href: setUrl('records.pdf'), download: '', id: 'records-pdf' }, 'PDF, 4 boards a page'),
    el('a', { href: setUrl('records.pdf?per_page=1'), download: '' }, 'PDF, 1 a page'));
  const stats = el('details', { id: 'stats' },
    el('summary', {}, 'Randomness statistics (card seats, suit patterns and HCP against the exact probabilities)'));
  stats.addEventListener('toggle', () => drawStats(stats, setUrl), { once: true });
  show(el('h1', {}, `Set ${name}`),
    el('p', { class: 'muted' }, `Boards ${set.first_board}–${set.last_board}, ${set.scheme} numbers, made by ${set.generator}, stored ${set.created_at}.`),
    downloads, records, stats, boards);
  const page = await api(`/api/query?${params}`);
  const total = page.report.count;
  const nav = (to) => () => {
    history.pushState(null, '', `/sets/${encodeURIComponent(name)}${to ? `?offset=${to}` : ''}`);
    setPage(name);
  };
  fill(boards, 
    el('div', { class: 'deals' }, page.deals.map(dealCard)),
    total > PAGE ? el('div', { class: 'pager' },
      el('button', { class: 'secondary', type: 'button', disabled: offset === 0, onclick: nav(Math.max(0, offset - PAGE)) }, '← Previous'),
      el('span', {}, `${count(offset + 1)}–${count(offset + page.deals.length)} of ${count(total)}`),
      el('button', { class: 'secondary', type: 'button', disabled: offset + PAGE >= total, onclick: nav(offset + PAGE) }, 'Next →')) : null);
}

/**
 * A tournament set from a fresh seed, stored (a server started with --write); the seed is
 * saved beside the database, never sent here.
 */
function generateForm() {
  const boards = el('input', { name: 'boards', type: 'number', min: '1', max: '999', value: '24', 'aria-label': 'boards' });
  const name = el('input', { name: 'name', placeholder: 'name (optional)', 'aria-label': 'set name' });
  const out = el('div', { id: 'generated' });
  const form = el('form', {
    class: 'bar',
    onsubmit: async (ev) => {
      ev.preventDefault();
      const body = { boards: Number(boards.value) };
      if (name.value.trim()) body.name = name.value.trim();
      try {
        const r = await api('/api/generate', { body });
        history.pushState(null, '', `/sets/${encodeURIComponent(r.set.name)}`);
        setPage(r.set.name);
      } catch (e) {
        fill(out, errorBox(e));
      }
    },
  }, 'New set of', boards, 'boards from a fresh seed', name, el('button', { type: 'submit' }, 'Generate'));
  return el('section', {}, form, out,
    el('p', { class: 'muted' }, 'The seed is saved to a private key file beside the database (it regenerates the deals: keep it secret); it is never shown here.'));
}

/** The set's statistics, as `dealdex stats` prints them, and its plot (drawn when opened). */
async function drawStats(box, setUrl) {
  const body = el('div', {}, el('p', { class: 'muted' }, 'Counting…'));
  box.append(body);
  try {
    const r = await api(setUrl('stats'));
    fill(body,
      el('img', { src: setUrl('stats.svg'), alt: 'observed against expected suit patterns and HCP', class: 'plot' }),
      el('pre', { class: 'output', id: 'stats-text' }, r.text));
  } catch (e) {
    fill(body, errorBox(e));
  }
}
