// What every page uses: the API (with the server's token when it has one), elements built
// with text only (data is never parsed as HTML), deal diagrams, errors.

const TOKEN_KEY = 'dealdex-token';

/** The server's token: given once in the address (`?token=…`), kept for the tab. */
export const token = (() => {
  const given = new URLSearchParams(location.search).get('token');
  if (given) sessionStorage.setItem(TOKEN_KEY, given);
  return sessionStorage.getItem(TOKEN_KEY);
})();

/** `url` (a path of this server) with the token as a parameter, for links and event streams. */
export function withToken(url) {
  if (!token) return url;
  const u = new URL(url, location.origin);
  u.searchParams.set('token', token);
  return u.pathname + u.search;
}

/** An error the API answered: its message, class and position. */
export class ApiError extends Error {
  constructor(body, status) {
    super(body && body.error ? body.error : `HTTP ${status}`);
    this.body = body || {};
    this.status = status;
  }
}

/** Calls the API: GET `path`, or with `body` a POST of it as JSON; the answer's JSON. */
export async function api(path, { method, body } = {}) {
  const headers = {};
  if (token) headers['X-Dealdex-Token'] = token;
  const init = { method: method || (body === undefined ? 'GET' : 'POST'), headers };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  const text = await response.text();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    data = { error: text };
  }
  if (!response.ok) throw new ApiError(data, response.status);
  return data;
}

/**
 * An element: `attrs` as attributes (`class`, `on…` handlers, others set as given), children
 * as nodes or text (strings become text nodes: never HTML).
 */
export function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    e.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return e;
}

/** Replaces `node`'s content by `children` (nodes or text; null, undefined and false left out). */
export function fill(node, ...children) {
  node.replaceChildren(...children.flat(Infinity).filter((c) => c !== null && c !== undefined && c !== false));
  return node;
}

/** Replaces the page's content. */
export function show(...children) {
  return fill(document.getElementById('app'), ...children);
}

/** An error's box: the message, and the line and column where the API gives them and the message does not. */
export function errorBox(e) {
  const p = (e && e.body && e.body.position) || {};
  const where = [p.line && `line ${p.line}`, p.column && `column ${p.column}`]
    .filter((w) => w && !e.message.includes(w));
  return el('p', { class: 'error', role: 'alert' }, where.length ? `${e.message} (${where.join(', ')})` : e.message);
}

export const SUITS = ['S', 'H', 'D', 'C'];
export const SYMBOL = { S: '♠', H: '♥', D: '♦', C: '♣' };
export const SEATS = ['N', 'E', 'S', 'W'];
export const SEAT_NAME = { N: 'North', E: 'East', S: 'South', W: 'West' };

/** A hand's four suits, each a line: symbol and ranks (— for a void). */
function handLines(cards) {
  return cards.split('.').map((ranks, i) =>
    el('div', {},
      el('span', { class: `suit-${SUITS[i]}` }, SYMBOL[SUITS[i]]), ' ',
      ranks.replaceAll('T', '10') || '—'));
}

/** A deal's diagram: the four hands around a box of their HCP. */
export function diagram(hands, size = 'small') {
  const box = el('div', { class: 'centre', title: 'HCP' });
  const parts = [box];
  for (const h of hands) {
    box.append(el('span', { class: `h${h.seat}` }, h.hcp));
    parts.push(el('div', { class: `hand ${h.seat}`, 'data-seat': h.seat },
      el('div', { class: 'seat' }, `${SEAT_NAME[h.seat]}`),
      handLines(h.cards),
      el('div', { class: 'info' }, size === 'small' ? h.shape : `${h.hcp} HCP, ${h.shape}`)));
  }
  return el('div', { class: `diagram ${size}` }, parts);
}

/** A deal's link to its page, with its small diagram. */
export function dealCard(d) {
  return el('a', { class: 'card', href: `/deal/${encodeURIComponent(d.index)}` },
    el('div', { class: 'title' },
      el('span', {}, d.board ? `Board ${d.board}` : ''),
      el('span', {}, d.index.slice(0, 10) + '…')),
    diagram(d.hands));
}

/** Marks the navigation link of the page shown. */
export function markNav(path) {
  for (const a of document.querySelectorAll('header nav a')) {
    const here = a.getAttribute('href') === path;
    if (here) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}

/** A number with grouped digits. */
export function count(n) {
  return Number(n).toLocaleString('en');
}
