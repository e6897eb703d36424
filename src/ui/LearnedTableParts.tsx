// The parts of the learned-table panel that the dashboard and the lecture share: the refresh
// button and the grids (or a note until the first probe), named the way the task names them.

import { useApp } from '../store/store';
import { tableNamesOf } from '../rl/learned-table';
import { useController } from './context';
import { LearnedTableView } from './views';

export function LearnedRefresh({ disabled = false }: { disabled?: boolean }) {
  const controller = useController();
  return (
    <button
      className="small-button"
      data-testid="learned-refresh"
      disabled={disabled}
      onClick={() => controller?.requestLearnedTable()}
    >
      refresh
    </button>
  );
}

export function LearnedGrids() {
  const learned = useApp((s) => s.learnedTable);
  const config = useApp((s) => s.trainerConfig);
  if (!learned?.table || !config) return <p className="muted small">Refreshed at every pause.</p>;
  return <LearnedTableView table={learned.table} names={tableNamesOf(config, learned.table.elements)} />;
}
