// The pages' router: draws the page the address names (every page is the same shell).
import { errorBox, markNav, show } from './common.js';
import { queryPage } from './query.js';
import { dealPage } from './deal.js';
import { playedPage } from './played.js';
import { setsPage, setPage } from './sets.js';
import { simulatePage, leadPage, contractsPage } from './jobs.js';

const ROUTES = [
  [/^\/$/, () => queryPage(), '/'],
  [/^\/deal\/([^/]+)$/, (m) => dealPage(decodeURIComponent(m[1])), null],
  [/^\/played\/([^/]+)$/, (m) => playedPage(decodeURIComponent(m[1])), null],
  [/^\/sets$/, () => setsPage(), '/sets'],
  [/^\/sets\/([^/]+)$/, (m) => setPage(decodeURIComponent(m[1])), '/sets'],
  [/^\/simulate$/, () => simulatePage(), '/simulate'],
  [/^\/lead$/, () => leadPage(), '/lead'],
  [/^\/contracts$/, () => contractsPage(), '/contracts'],
];

async function route() {
  for (const [pattern, draw, nav] of ROUTES) {
    const m = location.pathname.match(pattern);
    if (m) {
      markNav(nav);
      try {
        await draw(m);
      } catch (e) {
        show(errorBox(e));
      }
      return;
    }
  }
  show(errorBox(new Error('No such page.')));
}

window.addEventListener('popstate', route);
route();
