// The page header: title, the adapter training runs on, and the kernel self-check badge.

import type { GpuProbe } from './gpuProbe';
import { useApp } from '../store/store';

export function Header({ probe }: { probe: GpuProbe }) {
  const numParams = useApp((s) => s.numParams);
  return (
    <header className="header">
      <div>
        <h1>RLVR playground</h1>
        <p className="tagline">Reinforcement learning from verifiable rewards, trained live on your GPU.</p>
      </div>
      {probe.kind === 'ready' && (
        <div className="adapter-panel" data-testid="adapter-panel">
          <div>
            GPU: <b data-testid="adapter">{probe.adapter}</b>
            <span className="muted"> (vendor <span data-testid="adapter-vendor">{probe.vendor || 'n/a'}</span>, architecture{' '}
              <span data-testid="adapter-arch">{probe.architecture || 'n/a'}</span>)</span>
          </div>
          <div className="badges">
            <SelfCheckBadge probe={probe} />
            {numParams > 0 && <span className="badge" data-testid="num-params">{numParams.toLocaleString('en-US')} parameters</span>}
          </div>
          {probe.isSoftware && (
            <p className="warn small">A CPU emulation of a GPU: everything works, but training is 100–1000× slower than on real hardware.</p>
          )}
        </div>
      )}
    </header>
  );
}

function SelfCheckBadge({ probe }: { probe: Extract<GpuProbe, { kind: 'ready' }> }) {
  if (probe.checkError) {
    return <span className="badge bad" data-testid="selfcheck" title={probe.checkError}>kernel self-check failed</span>;
  }
  if (!probe.check) return <span className="badge" data-testid="selfcheck">kernel self-check…</span>;
  const c = probe.check;
  return (
    <span
      className={`badge ${c.ok ? 'good' : 'bad'}`} data-testid="selfcheck" data-ok={String(c.ok)} data-maxdiff={String(c.maxAbsDiff)}
      title={`add over ${c.n} floats on the GPU against the CPU twin: max |GPU − CPU| = ${c.maxAbsDiff} (${c.ms.toFixed(0)} ms)`}
    >
      kernel self-check {c.ok ? 'passed' : 'FAILED'} (max diff {c.maxAbsDiff})
    </span>
  );
}
