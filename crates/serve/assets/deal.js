// A deal's page (`/deal/<index>`): the diagram, its numbers, the sets it is in, the
// double-dummy table and par.
import { api, diagram, el, SEAT_NAME, SEATS, show, SYMBOL } from './common.js';

const STRAINS = ['NT', 'S', 'H', 'D', 'C'];

export async function dealPage(index) {
  show(el('p', { class: 'muted' }, 'Loading (a deal without a stored table is solved now)…'));
  const d = await api(`/api/deal/${encodeURIComponent(index)}`);
  const facts = el('dl', { class: 'facts' },
    fact('Index', d.index),
    fact('Deal', d.deal),
    fact('Pavlicek number', d.numbers.pavlicek),
    fact('Andrews number', d.numbers.andrews),
    fact('Big Deal number', d.numbers.bigdeal));
  const sets = d.boards.length
    ? el('ul', {}, d.boards.map((b) => el('li', {},
      el('a', { href: `/sets/${encodeURIComponent(b.set)}` }, b.set), ` board ${b.board}`)))
    : el('p', { class: 'muted' }, d.stored ? 'Stored, in no set.' : 'Not stored in the database.');
  show(
    el('h1', {}, 'Deal'),
    diagram(d.hands, 'large'),
    facts,
    el('h2', {}, 'Sets'), sets,
    el('h2', {}, 'Double dummy'),
    d.dd ? ddTable(d.dd) : el('p', { class: 'muted' }, 'Not solved.'),
    d.dd ? el('p', { id: 'par' }, parText(d.dd)) : null,
    d.solved_now ? el('p', { class: 'muted' }, 'Solved for this page (no table is stored).') : null,
  );
}

function fact(name, value) {
  return [el('dt', {}, name), el('dd', {}, value)];
}

/** Tricks by declarer (rows) and strain (columns). */
export function ddTable(dd) {
  return el('table', { id: 'dd-table' },
    el('thead', {}, el('tr', {}, el('th', { class: 'text' }, 'Declarer'),
      STRAINS.map((s) => el('th', { class: s === 'H' || s === 'D' ? `suit-${s}` : '' }, SYMBOL[s] || s)))),
    el('tbody', {}, SEATS.map((seat) => el('tr', { 'data-seat': seat },
      el('th', { class: 'text' }, SEAT_NAME[seat]),
      STRAINS.map((s) => el('td', { 'data-strain': s }, dd.tricks[seat][s]))))));
}

function parText(dd) {
  const board = dd.board ? `board ${dd.board}, ` : '';
  const contracts = dd.par.contracts.length ? dd.par.contracts.join(' ') : 'passed out';
  return `Par ${dd.par.score >= 0 ? '+' : ''}${dd.par.score} for North-South: ${contracts} (${board}dealer ${dd.dealer}, vulnerable ${dd.vul})`;
}
