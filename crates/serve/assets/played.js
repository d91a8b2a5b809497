// A played board's page (`/played/<id>`): a table's record — players, auction, contract,
// result — its play trick by trick with each card's double-dummy cost (the costly cards
// marked), the tricks each side lost, and the deal page's play-through following the record.
import { api, el, SEAT_NAME, SEATS, show, SYMBOL } from './common.js';
import { cardText, fact, playedOutcome, playedTitle, playThrough } from './deal.js';

export async function playedPage(id) {
  show(el('p', { class: 'muted' }, 'Loading (a board not judged yet is judged now)…'));
  const b = await api(`/api/played/${encodeURIComponent(id)}`);
  const players = SEATS.map((s) => fact(SEAT_NAME[s], b[SEAT_NAME[s].toLowerCase()] || '—'));
  const facts = el('dl', { class: 'facts', id: 'played-facts' },
    b.event ? fact('Event', b.event) : null,
    players,
    fact('Dealer', SEAT_NAME[b.dealer]),
    fact('Vulnerable', b.vulnerability),
    fact('Contract', playedOutcome(b)),
    b.score ? fact('Score', b.score) : null,
    fact('Deal', el('a', { href: `/deal/${encodeURIComponent(b.index)}` }, b.deal)));
  const contract = b.contract && b.declarer && b.contract.toUpperCase() !== 'PASS' ? b.contract : null;
  const play = el('div', { id: 'play' });
  show(
    el('h1', {}, `Played: ${playedTitle(b)}`),
    facts,
    el('h2', {}, 'Auction'),
    b.auction ? auctionTable(b) : el('p', { class: 'muted' }, 'No auction recorded.'),
    el('h2', {}, 'Play'),
    judgement(b),
    b.cards.length ? tricksTable(b, contract ? (played) => playThrough(b.index, contract, b.declarer, played, play, b.cards) : null) : el('p', { class: 'muted' }, 'No play recorded.'),
    contract && b.cards.length ? [
      el('h2', {}, 'Play it through'),
      el('p', { class: 'muted' }, 'The record card by card: "Next card" plays the card played at the table (marked); any other legal card may be tried. Each legal card shows declarer\'s side\'s tricks in all if it is played, double dummy.'),
      play,
    ] : null,
  );
  if (contract && b.cards.length) playThrough(b.index, contract, b.declarer, [], play, b.cards);
}

/** The calls in columns by seat, the dealer's first; notes below, numbered. */
function auctionTable(b) {
  const start = SEATS.indexOf(b.dealer);
  const cells = Array(start).fill(null).concat(b.auction);
  const notes = [];
  const rows = [];
  for (let i = 0; i < cells.length; i += 4) {
    rows.push(el('tr', {}, cells.slice(i, i + 4).map((c) => {
      if (!c) return el('td', {});
      if (c.note) notes.push(c.note);
      return el('td', { class: 'call' }, callText(c.call), c.note ? el('sup', { title: c.note }, notes.length) : null);
    })));
  }
  return [
    el('table', { id: 'auction' },
      el('thead', {}, el('tr', {}, SEATS.map((s) => el('th', { class: 'text' }, SEAT_NAME[s])))),
      el('tbody', {}, rows)),
    notes.length ? el('ol', { class: 'notes' }, notes.map((n) => el('li', {}, n))) : null,
  ];
}

/** A call as shown: suit symbols for the strains (`1♥`, `3NT`, `Pass`, `X`). */
function callText(call) {
  const m = call.match(/^([1-7])([SHDC])$/);
  return m ? `${m[1]}${SYMBOL[m[2]]}` : call;
}

/** What the play cost each side, double dummy, or why it is not judged. */
function judgement(b) {
  const a = b.analysis;
  if (!a) {
    const why = b.fault ? `Not judged: ${b.fault}` : 'Not judged (no contract, declarer or play recorded).';
    return el('p', { id: 'played-summary', class: 'muted' }, why);
  }
  const tricks = (n) => (n === 1 ? '1 trick' : `${n} tricks`);
  const lead = a.lead_cost === null ? '' : ` The opening lead cost ${tricks(a.lead_cost)}.`;
  return [
    el('p', { id: 'played-summary' },
      `Double dummy, declarer's side could take ${tricks(a.tricks[0])} before the lead and ${tricks(a.tricks[a.tricks.length - 1])} after the last card. `,
      `Declarer lost ${tricks(a.declarer_lost)}, the defence ${tricks(a.defence_lost)}.${lead}`),
    b.judged_now ? el('p', { class: 'muted' }, 'Judged for this page (`dealdex judge` stores the judgements).') : null,
  ];
}

/**
 * The play trick by trick: each card with its seat and, when judged, declarer's side's tricks
 * after it; a card that cost its side is marked with its cost. With `go`, a click on a card
 * sets the play-through to the position after it.
 */
function tricksTable(b, go) {
  const rows = [];
  for (let t = 0; t * 4 < b.cards.length; t++) {
    const cards = b.cards.slice(t * 4, t * 4 + 4);
    rows.push(el('tr', {}, el('th', {}, t + 1), el('td', { class: 'text' }, SEAT_NAME[cards[0].seat]),
      cards.map((c, k) => {
        const n = t * 4 + k + 1;
        const costly = c.cost > 0;
        return el('td', {
          class: `text played-card${costly ? ' costly' : ''}`, 'data-card': c.card, 'data-seat': c.seat,
          'data-cost': c.cost === null ? null : c.cost,
          title: c.cost === null ? null : `${SEAT_NAME[c.seat]}: declarer's side ${c.dd} tricks after it${costly ? `; cost ${c.cost}` : ''}`,
        }, go
          ? el('button', { type: 'button', class: 'secondary', onclick: () => go(b.cards.slice(0, n).map((x) => x.card)) },
            el('span', { class: `suit-${c.card[0]}` }, cardText(c.card)))
          : el('span', { class: `suit-${c.card[0]}` }, cardText(c.card)),
        c.dd === null ? null : el('sub', {}, c.dd), costly ? el('strong', { class: 'cost' }, ` −${c.cost}`) : null);
      })));
  }
  return el('table', { id: 'played-tricks' },
    el('thead', {}, el('tr', {}, el('th', {}, 'Trick'), el('th', { class: 'text' }, 'Lead'),
      ['1st', '2nd', '3rd', '4th'].map((h) => el('th', { class: 'text' }, h)))),
    el('tbody', {}, rows));
}
