// A deal's page (`/deal/<index>`): the diagram, its numbers, the sets it is in, the
// double-dummy table and par, and every opening lead's result against a chosen contract.
import { api, diagram, el, errorBox, fill, SEAT_NAME, SEATS, show, SUITS, SYMBOL } from './common.js';

const STRAINS = ['NT', 'S', 'H', 'D', 'C'];

export async function dealPage(index) {
  const playedTables = el('div', { id: 'played' });
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
    playedTables,
  );
  playedAt(index, playedTables);
}

/** The tables that played the deal (imported match files), each a link to its page; nothing when none did. */
async function playedAt(index, box) {
  let r;
  try {
    r = await api(`/api/played?deal=${encodeURIComponent(index)}`);
  } catch {
    return; // No database, or none readable: the rest of the page says so.
  }
  if (!r.boards.length) return;
  fill(box, el('h2', {}, 'Played at the table'),
    el('ul', { id: 'played-tables' }, r.boards.map((b) => el('li', {},
      el('a', { href: `/played/${b.id}` }, playedTitle(b)), ': ', playedOutcome(b)))));
}

/** A played board's name: set, board and room as known. */
export function playedTitle(b) {
  const parts = [b.set, b.board !== null ? `board ${b.board}` : null, b.room ? `${b.room.toLowerCase()} room` : null];
  return parts.filter((p) => p).join(', ') || `played board ${b.id}`;
}

/** A played board's contract, declarer and result in words (`4H by S, 10 tricks`). */
export function playedOutcome(b) {
  if (!b.contract) return 'no contract recorded';
  if (b.contract.toUpperCase() === 'PASS') return 'passed out';
  const by = b.declarer ? ` by ${SEAT_NAME[b.declarer]}` : '';
  return `${b.contract}${by}${b.tricks !== null ? `, ${b.tricks} tricks` : ''}`;
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
  }, 'Contract', contract, 'by', declarer, el('button', { type: 'submit' }, 'Solve the leads'),
  el('button', {
    type: 'button', class: 'secondary', id: 'play-start',
    onclick: () => playThrough(index, contract.value.trim(), declarer.value, [], play),
  }, 'Play it through'));
  const play = el('div', { id: 'play' });
  return [form, out, play];
}

/**
 * The play-through: the hands left, the current trick, and the seat to play's legal cards,
 * each with declarer's side's tricks in all if played (double dummy); a click plays it.
 * With `record` (a played board's cards, `/api/played/<id>`'s `cards`), the record's next
 * card is marked and "Next card" plays it, and the cost of the last card played is said.
 */
export async function playThrough(index, contract, declarer, played, box, record = null) {
  const p = new URLSearchParams({ contract, declarer, played: played.join(',') });
  let r;
  try {
    r = await api(`/api/deal/${encodeURIComponent(index)}/play?${p}`);
  } catch (e) {
    fill(box, errorBox(e));
    return;
  }
  const again = (cards) => playThrough(index, contract, declarer, cards, box, record);
  // Where the record goes on from here (none once the play leaves it or it ends).
  const onRecord = record && played.every((c, i) => record[i] && record[i].card === c);
  const next = onRecord ? record[played.length] : null;
  const last = onRecord && played.length ? record[played.length - 1] : null;
  const result = new Map(r.cards.map((c) => [c.card, c.tricks]));
  const hand = (seat, cards) => el('div', { class: `hand ${seat}`, 'data-seat': seat },
    el('div', { class: 'seat' }, SEAT_NAME[seat], r.next === seat ? ' to play' : ''),
    cards.split('.').map((ranks, i) => el('div', {},
      el('span', { class: `suit-${SUITS[i]}` }, SYMBOL[SUITS[i]]), ' ',
      [...ranks].map((rank) => {
        const card = SUITS[i] + rank;
        const label = rank.replace('T', '10');
        return result.has(card)
          ? el('button', {
            type: 'button', class: next && next.card === card ? 'play-card recorded' : 'play-card', 'data-card': card,
            title: next && next.card === card ? 'The card played at the table' : null, onclick: () => again([...played, card]),
          },
            label, el('sub', {}, result.get(card)))
          : el('span', { class: 'held' }, label, ' ');
      }))));
  // The current trick in the middle of the table, each card before the seat that played it.
  const leader = SEATS.indexOf(r.leader);
  const trick = el('div', { class: 'centre trick', id: 'play-trick', title: 'The current trick' },
    r.trick.map((c, i) => {
      const seat = SEATS[(leader + i) % 4];
      return el('span', { class: `h${seat} suit-${c[0]}`, 'data-seat': seat, 'data-card': c }, cardText(c));
    }));
  const status = r.next === null
    ? `Played out: declarer's side ${r.declarer_tricks} tricks, the defence ${r.defence_tricks}.`
    : `${SEAT_NAME[r.next]} to play. Tricks so far: declarer's side ${r.declarer_tricks}, the defence ${r.defence_tricks}. Each legal card shows declarer's side's tricks in all if it is played.`;
  const cost = last && last.cost !== null
    ? ` ${SEAT_NAME[last.seat]}'s ${cardText(last.card)} cost ${last.cost === 1 ? '1 trick' : `${last.cost} tricks`}.`
    : '';
  fill(box,
    el('p', { id: 'play-status' }, status, last ? el('span', { id: 'play-cost', class: last.cost ? 'costly' : '' }, cost) : null),
    el('p', {}, 'Trick: ', r.trick.length ? r.trick.map((c) => el('span', { class: `suit-${c[0]}` }, cardText(c) + ' ')) : '—'),
    el('div', { class: 'diagram large' }, trick, SEATS.map((seat, i) => hand(seat, r.hands[i]))),
    el('div', { class: 'bar' },
      el('button', { type: 'button', class: 'secondary', disabled: !played.length, onclick: () => again(played.slice(0, -1)) }, 'Undo'),
      el('button', { type: 'button', class: 'secondary', disabled: !played.length, onclick: () => again([]) }, 'Restart'),
      record ? el('button', { type: 'button', id: 'play-next', disabled: !next, onclick: () => again([...played, next.card]) }, 'Next card') : null));
}

/** The leader's cards by suit, each with the defence's tricks (bold where they set it). */
function leadsTable(r) {
  const bySuit = SUITS.map((s) => r.leads.filter((l) => l.card[0] === s));
  return [
    // `3NTS` (the contract and its declarer, as the API gives it) read as `3NT by South`.
    el('p', {}, `${SEAT_NAME[r.leader]} leads against ${r.contract.slice(0, -1)} by ${SEAT_NAME[r.contract.slice(-1)]}: the defence's tricks after each card (${r.to_set} set it).`),
    el('table', { id: 'leads-table' }, el('tbody', {}, bySuit.filter((c) => c.length).map((cards) =>
      el('tr', {}, el('th', { class: `text suit-${cards[0].card[0]}` }, SYMBOL[cards[0].card[0]]),
        cards.map((l) => el('td', { 'data-card': l.card, class: l.tricks >= r.to_set ? 'sets' : '' },
          el('span', { class: 'rank' }, l.card[1].replace('T', '10')), ' ', el('strong', {}, l.tricks))))))),
  ];
}

/** A card (`HT`) as a page shows it: suit symbol and rank (`♥10`). */
export function cardText(card) {
  return SYMBOL[card[0]] + card.slice(1).replace('T', '10');
}

export function fact(name, value) {
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
