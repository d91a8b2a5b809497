// The pages of long work: Simulate (a dealer script), Lead and Contracts. Each starts a job
// (POST), follows its progress (server-sent events), can stop it (DELETE), and shows its
// report: the command's text tables, and bar charts of its numbers.
import { api, ApiError, fill, el, errorBox, show, withToken } from './common.js';

/** Starts the job `path` with `body`; calls `progress(status)` on each event, then `done(result)` or `failed(error)`. */
async function runJob(path, body, { progress, done, failed }) {
  let job;
  try {
    job = await api(path, { body });
  } catch (e) {
    failed(e);
    return null;
  }
  const events = new EventSource(withToken(`/api/jobs/${job.id}/events`));
  events.addEventListener('status', (ev) => {
    const s = JSON.parse(ev.data);
    if (s.state === 'running') {
      progress(s);
      return;
    }
    events.close();
    if (s.state === 'done') done(s.result);
    else failed({ message: s.error ? s.error.error : s.state, body: s.error || {} });
  });
  return {
    stop: () => api(`/api/jobs/${job.id}`, { method: 'DELETE' }).catch(() => {}),
  };
}

/** A form's fields as a grid of labelled inputs. */
function field(label, input) {
  input.id = input.id || `f-${input.name}`;
  return [el('label', { for: input.id }, label), input];
}

/** A job page: its title, its form (the labelled fields, Run and Stop), progress and result. */
function jobPage(title, fields, c) {
  show(el('h1', {}, title),
    el('form', { class: 'grid', onsubmit: c.onSubmit },
      fields.map(([label, input]) => field(label, input)),
      el('div', { class: 'actions' }, c.run, c.stop)),
    c.status, c.result);
}

/** The Run / Stop buttons and the progress and result areas of a job page. */
function jobControls(start) {
  const run = el('button', { type: 'submit' }, 'Run');
  const stop = el('button', { type: 'button', class: 'secondary', disabled: true }, 'Stop');
  const status = el('div', { class: 'progress', id: 'progress', 'aria-live': 'polite' });
  const result = el('section', { id: 'result' });
  let handle = null;
  stop.addEventListener('click', () => handle && handle.stop());
  const onSubmit = async (ev) => {
    ev.preventDefault();
    let body;
    try {
      body = start.body();
    } catch (e) {
      fill(result, errorBox(e));
      return;
    }
    run.disabled = true;
    stop.disabled = false;
    fill(result);
    status.textContent = 'Starting…';
    const finish = () => {
      run.disabled = false;
      stop.disabled = true;
      handle = null;
    };
    handle = await runJob(start.path, body, {
      progress: (s) => {
        status.textContent = `${start.progressText(s.progress || {})} (${s.seconds.toFixed(1)} s)`;
      },
      done: (r) => {
        finish();
        status.textContent = 'Done.';
        fill(result, ...start.draw(r),
          // The report as the command's --json prints it: the page's JSON twin.
          el('details', { class: 'json' }, el('summary', {}, 'The report as JSON'),
            el('pre', { class: 'output', id: 'report-json' }, JSON.stringify(r.report, null, 2))));
      },
      failed: (e) => {
        finish();
        status.textContent = '';
        fill(result, errorBox(e));
      },
    });
    if (!handle) finish();
  };
  return { run, stop, status, result, onSubmit };
}

/** Horizontal bars: one row a label, its value drawn and written. */
function bars(rows, format = (v) => v.toFixed(2)) {
  const max = Math.max(...rows.map((r) => Math.abs(r.value)), 1e-9);
  return el('div', { class: 'bars' }, rows.map((r) => {
    // The width through the CSSOM: the pages' policy refuses style attributes.
    const bar = el('div', { class: 'bar' });
    bar.style.width = `${(100 * Math.abs(r.value) / max).toFixed(1)}%`;
    return [el('span', { class: 'label' }, r.label), el('div', {}, bar),
      el('span', { class: 'value', 'data-value': String(r.value) }, format(r.value))];
  }));
}

const EXAMPLE = `# A strong no-trump opening facing a game-forcing hand
produce 10
north_nt = shape(north, any 4333 + any 4432 + any 5332) and hcp(north) >= 15 and hcp(north) <= 17
condition north_nt and hcp(south) >= 10
action printoneline, average "south hcp" hcp(south)
`;

export function simulatePage() {
  const script = el('textarea', { name: 'script', spellcheck: 'false', 'aria-label': 'dealer script' }, EXAMPLE);
  const seed = el('input', { name: 'seed', type: 'number', min: '0', placeholder: 'fresh' });
  const produce = el('input', { name: 'produce', type: 'number', min: '1', placeholder: "the script's" });
  const c = jobControls({
    path: '/api/dealer',
    body: () => {
      const body = { script: script.value };
      if (seed.value !== '') body.seed = Number(seed.value);
      if (produce.value !== '') body.produce = Number(produce.value);
      return body;
    },
    progressText: (p) => `${p.generated ?? 0} generated, ${p.produced ?? 0} produced`,
    draw: (r) => [
      el('p', {}, `Seed ${r.report.seed}: give it again to repeat the run.`),
      el('h2', {}, 'Report'),
      el('pre', { class: 'output', id: 'report-text' }, r.text),
      el('h2', {}, 'Output'),
      el('pre', { class: 'output', id: 'output' }, r.output || '(nothing printed)'),
      r.output_truncated ? el('p', { class: 'muted' }, 'The output was cut.') : null,
    ],
  });
  const diagnostics = el('p', { id: 'diagnostics', class: 'muted', 'aria-live': 'polite' });
  let timer;
  const check = async () => {
    try {
      const r = await api('/api/dealer/check', { body: { script: script.value } });
      if (r.ok) fill(diagnostics, 'The script parses.').className = 'muted';
      else fill(diagnostics, errorBox(new ApiError(r.error, 400))).className = '';
    } catch (e) {
      fill(diagnostics, errorBox(e)).className = '';
    }
  };
  // Checked 300 ms after the last key, so that typing does not send a request a key.
  script.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(check, 300);
  });
  jobPage('Simulate with a dealer script', [['Script', script], ['', diagnostics], ['Seed', seed], ['Produce', produce]], c);
  check();
}

export function leadPage() {
  const inputs = {
    hand: el('input', { name: 'hand', value: 'AQ4.J.KJ6543.632', placeholder: 'AQ4.J.KJ6543.632' }),
    contract: el('input', { name: 'contract', value: '3NT' }),
    declarer: el('select', { name: 'declarer' }, ['N', 'E', 'S', 'W'].map((s) => el('option', { selected: s === 'S' }, s))),
    vul: el('select', { name: 'vul' }, ['None', 'NS', 'EW', 'All'].map((v) => el('option', {}, v))),
    deals: el('input', { name: 'deals', type: 'number', min: '1', value: '200' }),
    where: el('input', { name: 'where', class: 'expr', placeholder: 'constraints, e.g. hcp(S) in 15..17 and balanced(S)' }),
    seed: el('input', { name: 'seed', placeholder: '64 hex digits (fresh when empty)' }),
  };
  const c = jobControls({
    path: '/api/lead',
    body: () => {
      const body = {
        hand: inputs.hand.value.trim(), contract: inputs.contract.value.trim(),
        declarer: inputs.declarer.value, vul: inputs.vul.value, deals: Number(inputs.deals.value),
      };
      if (inputs.where.value.trim()) body.where = inputs.where.value.trim();
      if (inputs.seed.value.trim()) body.seed = inputs.seed.value.trim();
      return body;
    },
    progressText: (p) => (p.solved !== undefined ? `${p.solved} deals solved` : `${p.dealt ?? 0} deals dealt`),
    draw: (r) => [
      el('p', {}, `${r.report.deals} deals, leader ${r.report.leader}${r.report.seed ? `, seed ${r.report.seed}` : ''}.`),
      el('h2', {}, 'Mean tricks for the defence, by lead'),
      bars(r.report.cards.map((card) => ({ label: card.card, value: card.mean_tricks }))),
      el('h2', {}, 'The table'),
      el('pre', { class: 'output', id: 'report-text' }, r.text),
    ],
  });
  jobPage('Which card to lead', [
    ['Hand', inputs.hand], ['Contract', inputs.contract], ['Declarer', inputs.declarer],
    ['Vulnerable', inputs.vul], ['Deals', inputs.deals], ['Where', inputs.where], ['Seed', inputs.seed],
  ], c);
}

export function contractsPage() {
  const inputs = {
    contracts: el('input', { name: 'contracts', value: '3NT:S 4H:N', class: 'expr' }),
    set: el('input', { name: 'set', placeholder: 'a stored set (else every stored deal)' }),
    where: el('input', { name: 'where', class: 'expr', placeholder: 'only the deals this query matches' }),
    count: el('input', { name: 'count', type: 'number', min: '1', placeholder: 'deal this many instead' }),
    predeal: el('input', { name: 'predeal', placeholder: 'with a count: S:AQ4.KJ52.K83.Q72' }),
    vul: el('select', { name: 'vul' }, ['board', 'None', 'NS', 'EW', 'All'].map((v) => el('option', {}, v))),
  };
  const c = jobControls({
    path: '/api/contracts',
    body: () => {
      const body = { contracts: inputs.contracts.value.trim().split(/\s+/).filter(Boolean) };
      for (const k of ['set', 'where', 'predeal']) if (inputs[k].value.trim()) body[k] = inputs[k].value.trim();
      if (inputs.count.value !== '') body.count = Number(inputs.count.value);
      if (inputs.vul.value !== 'board') body.vul = inputs.vul.value;
      return body;
    },
    progressText: (p) => `${p.deals ?? 0} deals played (${p.solved ?? 0} solved)`,
    draw: (r) => [
      el('p', {}, `${r.report.deals} deals.`),
      el('h2', {}, 'Made, per cent'),
      bars(r.report.contracts.map((k) => ({ label: k.contract, value: k.make_percent })), (v) => `${v.toFixed(1)} %`),
      el('h2', {}, 'The tables'),
      el('pre', { class: 'output', id: 'report-text' }, r.text),
    ],
  });
  jobPage('Compare contracts', [
    ['Contracts', inputs.contracts], ['Set', inputs.set], ['Where', inputs.where],
    ['Count', inputs.count], ['Predeal', inputs.predeal], ['Vulnerable', inputs.vul],
  ], c);
}
