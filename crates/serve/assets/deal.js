// A deal's page (`/deal/<index>`): the diagram, its numbers, the sets it is in, the
// double-dummy table and par, and every opening lead's result against a chosen contract.
import { api, diagram, el, errorBox, fill, SEAT_NAME, SEATS, show, SUITS, SYMBOL } from './common.js';

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
    el('h2', {}, 'Opening leads'),
    leadsForm(index),
  );
}

/** A contract and declarer, and each opening lead's tricks for the defence against it. */
function leadsForm(index) {
  const contract = el('input', { name: 'contract', value: '3NT', size: 5, 'aria-label': 'contract' });
  const declarer = el('select', { name: 'declarer', 'aria-label': 'declarer' },
    SEATS.map((s) => el('option', { value: s, selected: s === 'S' }, SEAT_NAME[s])));
  const out = el('div', { id: 'leads' });
  const form = el('form', {
    class: 'bar',
    onsubmit: async (ev) => {
      ev.preventDefault();
      fill(out, el('p', { class: 'muted' }, 'Solving every lead…'));
      const p = new URLSearchParams({ contract: contract.value.trim(), declarer: declarer.value });
      try {
        fill(out, leadsTable(await api(`/api/deal/${encodeURIComponent(index)}/leads?${p}`)));
      } catch (e) {
        fill(out, errorBox(e));
      }
    },
  }, 'Contract', contract, 'by', declarer, el('button', { type: 'submit' }, 'Solve the leads'));
  return [form, out];
}

/** The leader's cards by suit, each with the defence's tricks (bold where they set it). */
function leadsTable(r) {
  const bySuit = SUITS.map((s) => r.leads.filter((l) => l.card[0] === s));
  return [
    el('p', {}, `${SEAT_NAME[r.leader]} leads against ${r.contract}: the defence's tricks after each card (${r.to_set} set it).`),
    el('table', { id: 'leads-table' }, el('tbody', {}, bySuit.filter((c) => c.length).map((cards) =>
      el('tr', {}, el('th', { class: `text suit-${cards[0].card[0]}` }, SYMBOL[cards[0].card[0]]),
        cards.map((l) => el('td', { 'data-card': l.card, class: l.tricks >= r.to_set ? 'sets' : '' },
          el('span', { class: 'rank' }, l.card[1].replace('T', '10')), ' ', el('strong', {}, l.tricks))))))),
  ];
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
