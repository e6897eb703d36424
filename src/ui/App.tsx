import { useEffect, useState } from 'react';
import { openBrowserDevice, adapterLabel, NoWebGpuError, type GpuContext } from '../gpu/device';
import { runSelfCheck, type SelfCheckResult } from '../gpu/selfcheck';
import { NoWebGpu } from './NoWebGpu';

type State =
  | { kind: 'starting' }
  | { kind: 'no-webgpu'; reason: NoWebGpuError['reason']; detail: string }
  | { kind: 'ready'; gpu: GpuContext; check: SelfCheckResult | null; checkError?: string };

export function App() {
  const [state, setState] = useState<State>({ kind: 'starting' });

  useEffect(() => {
    let cancelled = false;
    (async () => {
      let gpu: GpuContext;
      try {
        gpu = await openBrowserDevice();
      } catch (e) {
        const reason = e instanceof NoWebGpuError ? e.reason : 'device-failed';
        if (!cancelled) setState({ kind: 'no-webgpu', reason, detail: (e as Error).message });
        return;
      }
      if (cancelled) return;
      setState({ kind: 'ready', gpu, check: null });
      try {
        const check = await runSelfCheck(gpu.device);
        if (!cancelled) setState({ kind: 'ready', gpu, check });
      } catch (e) {
        if (!cancelled) setState({ kind: 'ready', gpu, check: null, checkError: (e as Error).message });
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);

  return (
    <main className="app">
      <header>
        <h1>RLVR playground</h1>
        <p className="tagline">Reinforcement learning from verifiable rewards, trained live on your GPU.</p>
      </header>
      {state.kind === 'starting' && <p data-testid="status">Looking for a WebGPU adapter…</p>}
      {state.kind === 'no-webgpu' && <NoWebGpu reason={state.reason} detail={state.detail} />}
      {state.kind === 'ready' && (
        <section data-testid="adapter-panel">
          <p>
            Adapter: <b data-testid="adapter">{adapterLabel(state.gpu.adapter)}</b>
            {' '}(vendor <span data-testid="adapter-vendor">{state.gpu.adapter.vendor || 'n/a'}</span>, architecture{' '}
            <span data-testid="adapter-arch">{state.gpu.adapter.architecture || 'n/a'}</span>)
          </p>
          {state.gpu.adapter.isSoftware && (
            <p className="warn">This is a CPU emulation of a GPU: everything works, but training is 100–1000× slower than on real hardware.</p>
          )}
          {state.check === null && !state.checkError && <p data-testid="selfcheck">Running the kernel self-check…</p>}
          {state.checkError && <p className="error" data-testid="selfcheck">Kernel self-check failed: {state.checkError}</p>}
          {state.check && (
            <p data-testid="selfcheck" data-ok={String(state.check.ok)} data-maxdiff={String(state.check.maxAbsDiff)}>
              Kernel self-check {state.check.ok ? 'passed' : 'FAILED'}: add over {state.check.n} floats, max |GPU − CPU| ={' '}
              {state.check.maxAbsDiff} ({state.check.ms.toFixed(0)} ms).
            </p>
          )}
        </section>
      )}
    </main>
  );
}
