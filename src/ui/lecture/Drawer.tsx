// A panel that slides over the right edge of the lecture view: every setting (the knob table),
// the runs kept in this browser with the sweep, or every chart. Escape or ✕ closes it.

import { lazy, Suspense, type ReactNode } from 'react';
import { useApp } from '../../store/store';
import type { DrawerTab } from '../../store/uiSlice';
import { ConfigForm } from '../ConfigForm';
import { RunsPanel } from '../RunsPanel';
import { SweepPanel } from '../SweepPanel';
import { AblationPanel } from '../ablation/AblationPanel';
import { CodePanel } from '../code/CodePanel';

const AllCharts = lazy(() => import('../charts/Charts').then((m) => ({ default: m.AllCharts })));

const TABS: { tab: DrawerTab; label: string }[] = [
  { tab: 'settings', label: 'settings' },
  { tab: 'runs', label: 'runs & sweeps' },
  { tab: 'charts', label: 'all charts' },
  { tab: 'ablation', label: 'ablation' },
  { tab: 'code', label: 'your code' },
];

export function Drawer() {
  const tab = useApp((s) => s.drawer);
  const setDrawer = useApp((s) => s.setDrawer);
  if (!tab) return null;
  let body: ReactNode;
  if (tab === 'settings') body = <ConfigForm />;
  else if (tab === 'runs')
    body = (
      <>
        <RunsPanel />
        <SweepPanel />
      </>
    );
  else if (tab === 'ablation') body = <AblationPanel />;
  else if (tab === 'code') body = <CodePanel />;
  else
    body = (
      <Suspense fallback={<p>Loading charts…</p>}>
        <AllCharts />
      </Suspense>
    );
  return (
    <aside className={`drawer drawer-${tab}`} data-testid="drawer" data-tab={tab} aria-label={tab}>
      <div className="drawer-tabs" role="tablist">
        {TABS.map((t) => (
          <button
            key={t.tab}
            role="tab"
            aria-selected={t.tab === tab}
            data-testid={`drawer-tab-${t.tab}`}
            onClick={() => setDrawer(t.tab)}
          >
            {t.label}
          </button>
        ))}
        <button
          className="drawer-close"
          data-testid="drawer-close"
          onClick={() => setDrawer(null)}
          aria-label="close (Escape)"
          title="close (Escape)"
        >
          ✕
        </button>
      </div>
      <div className="drawer-body">{body}</div>
    </aside>
  );
}
